//! Packed layer files: the values of one layer in independently compressed blocks, read in
//! place (a read decompresses one block into a small per-thread cache).
//!
//! Layout (packed version 1): `MAGIC` (8 bytes) · header length (u32 LE) · bincode [`Header`]
//! (the same fields as a raw layer's; `checksum` is the CRC-32 of the *uncompressed* values, so
//! a packed layer and its source carry the same checksum) · info length (u32 LE) · bincode
//! [`PackInfo`] · the compressed blocks · `blocks + 1` block offsets (u64 LE, from the first
//! block) · one CRC-32 per compressed block (u32 LE) · the CRC-32 of the header, info, offset and
//! CRC bytes (u32 LE) · `END`.
//!
//! Codec (`rank1-zstd1`, chosen by measurement on Oware layers: `results/BENCHMARKS-journal.md`): a
//! value is replaced by its rank among the values that follow the previous value of the block,
//! most frequent first (the ranking is the layer's, kept in [`PackInfo::order`]), then each
//! block of [`BLOCK`] ranks is compressed by zstd at level 1. The ranking turns the values'
//! order-1 redundancy into small, skewed symbols that zstd's entropy stage codes well: on the
//! 20-seed layer 3.43 bits per position against 3.69 for zstd alone (blocks of 32 Ki values;
//! 3.56 with the 8 Ki blocks used here).
//!
//! No value of a damaged file is ever used: the meta CRC is checked on open (a damaged table
//! could otherwise send reads to the wrong bytes), and a block is checked against its CRC the
//! first time it is decompressed. A value of a damaged block (or one that does not decompress to
//! the ranks of a block) reads as 0 and the file remembers the damage ([`PackedFile::damage`]).

use super::layer_file::{checksum, DbError, Expected, Header, LayerFile};
use super::AtomicFile;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;

mod codec;
use codec::{decode_ranks, encode_block, pair_counts, rank_table, ranking, value_table};

pub const MAGIC: &[u8; 8] = b"MNCLAPK\0";
const END: &[u8; 8] = b"MNCLAPKE";
pub const FORMAT_VERSION: u32 = 1;
pub const CODEC: &str = "rank1-zstd1";
const ZSTD_LEVEL: i32 = 1;
/// Values per block (8 Ki): a read that misses the cache decompresses one block, so a search
/// that probes at random wants small blocks; 32 Ki and more compress only a few % better.
pub const BLOCK_SHIFT: u32 = 13;
pub const BLOCK: usize = 1 << BLOCK_SHIFT;
/// Blocks compressed at once (in parallel) and written in order by [`pack_layer`].
const BATCH: usize = 2048;
/// Decompressed blocks each thread keeps (direct-mapped): 4096 × 8 KiB = 32 MiB a thread.
const CACHE_SLOTS: usize = 4096;
/// Ranks that name no value of their context decode to this (no layer holds a value this low).
const NO_VALUE: i8 = i8::MIN;

/// What a packed file adds to the layer header: how its payload is coded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackInfo {
    pub codec: String,
    pub block_shift: u32,
    pub blocks: u64,
    /// For each previous value (as a byte; each block starts after 0) that occurs, the values
    /// that follow it, most frequent first: a value is coded as its index here.
    pub order: Vec<(u8, Vec<u8>)>,
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard().with_little_endian().with_fixed_int_encoding().with_limit::<{ 1 << 20 }>()
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> DbError + '_ {
    move |source| DbError::Io { path: path.to_path_buf(), source }
}

/// Whether `path` starts with the packed magic (an unreadable or short file is not packed).
pub fn is_packed(path: &Path) -> bool {
    use std::io::Read;
    let mut m = [0u8; 8];
    File::open(path).and_then(|mut f| f.read_exact(&mut m)).is_ok() && &m == MAGIC
}

fn as_bytes_mut(v: &mut [i8]) -> &mut [u8] {
    // SAFETY: i8 and u8 have the same size and alignment.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, v.len()) }
}

/// Bytes of values the packer reads, and a packed layer is checked, at a time: whole blocks of
/// both formats (64 KiB raw, 8 Ki values packed), so the process holds a slice of a layer
/// of any size, never the whole of it.
const SLICE: usize = BLOCK * BATCH;

/// Pack the raw layer `src` into `path`, atomically; returns the packed header. The values are
/// read from the file in slices, each checked against its block CRCs ([`LayerFile::read_at`]),
/// and the packed file is checked before it takes its name: every block decompressed, the
/// values' CRC-32 equal to the source's ([`PackedFile::check_reads`]). So `path` may be the
/// source's own name: the rename then replaces the raw layer with its packed copy in one step,
/// and a stop at any moment leaves one of the two, each a finished layer.
pub fn pack_layer(src: &LayerFile, path: &Path) -> Result<Header, DbError> {
    let entries = src.header.entries;
    let mut buf = vec![0i8; SLICE.min(entries as usize)];
    let slices = |buf: &mut Vec<i8>, f: &mut dyn FnMut(&[i8]) -> Result<(), DbError>| -> Result<(), DbError> {
        let mut at = 0u64;
        while at < entries {
            let len = (entries - at).min(buf.len() as u64) as usize;
            src.read_at(at, &mut buf[..len])?;
            f(&buf[..len])?;
            at += len as u64;
        }
        Ok(())
    };
    let mut counts = vec![0u64; 1 << 16];
    slices(&mut buf, &mut |v| {
        counts.iter_mut().zip(pair_counts(v)).for_each(|(x, y)| *x += y);
        Ok(())
    })?;
    let mut header = src.header.clone();
    header.format_version = FORMAT_VERSION;
    let order = ranking(&counts);
    let ranks = rank_table(&order);
    let blocks = (entries as usize).div_ceil(BLOCK);
    let info = PackInfo { codec: CODEC.into(), block_shift: BLOCK_SHIFT, blocks: blocks as u64, order };
    let head = encode(path, &header)?;
    let info_bytes = encode(path, &info)?;
    let mut f = AtomicFile::create(path).map_err(io_err(path))?;
    let tmp = f.temp().to_path_buf();
    let mut meta = crc32fast::Hasher::new();
    meta.update(&head);
    meta.update(&info_bytes);
    f.write_all(MAGIC).map_err(io_err(&tmp))?;
    f.write_all(&(head.len() as u32).to_le_bytes()).map_err(io_err(&tmp))?;
    f.write_all(&head).map_err(io_err(&tmp))?;
    f.write_all(&(info_bytes.len() as u32).to_le_bytes()).map_err(io_err(&tmp))?;
    f.write_all(&info_bytes).map_err(io_err(&tmp))?;
    let mut offsets = Vec::with_capacity(blocks + 1);
    let mut crcs = Vec::with_capacity(blocks);
    let mut at = 0u64;
    offsets.push(at);
    slices(&mut buf, &mut |batch| {
        let packed: Vec<Vec<u8>> = batch.par_chunks(BLOCK).map(|b| encode_block(b, &ranks)).collect();
        for c in packed {
            f.write_all(&c).map_err(io_err(&tmp))?;
            crcs.push(checksum(&c));
            at += c.len() as u64;
            offsets.push(at);
        }
        Ok(())
    })?;
    let table: Vec<u8> =
        offsets.iter().flat_map(|o| o.to_le_bytes()).chain(crcs.iter().flat_map(|c| c.to_le_bytes())).collect();
    meta.update(&table);
    f.write_all(&table).map_err(io_err(&tmp))?;
    f.write_all(&meta.finalize().to_le_bytes()).map_err(io_err(&tmp))?;
    f.write_all(END).map_err(io_err(&tmp))?;
    f.flush().map_err(io_err(&tmp))?;
    // The copy as a reader will see it, before it replaces anything.
    PackedFile::open(&tmp, &header.expected())?.check_reads()?;
    f.commit().map_err(io_err(path))?;
    Ok(header)
}

fn encode(path: &Path, x: &impl Serialize) -> Result<Vec<u8>, DbError> {
    bincode::serde::encode_to_vec(x, bincode_config())
        .map_err(|e| DbError::Header { path: path.to_path_buf(), why: e.to_string() })
}

/// What made a block unusable.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// The compressed bytes' CRC differs from the table's.
    Crc(u32),
    /// The bytes match their CRC but do not decode to a block of values.
    Undecodable,
}

/// Files opened so far: a cache key names a file by its number, never reused.
static NEXT_ID: AtomicU32 = AtomicU32::new(1);

struct Slot {
    /// File number << 32 | block; 0 for an empty slot.
    key: u64,
    buf: Box<[i8]>,
}

struct Cache {
    slots: Vec<Slot>,
    dctx: zstd::bulk::Decompressor<'static>,
}

thread_local! {
    static CACHE: RefCell<Option<Cache>> = const { RefCell::new(None) };
}

/// A memory-mapped packed layer file whose blocks are checked as they are first decompressed.
pub struct PackedFile {
    pub header: Header,
    pub info: PackInfo,
    pub path: PathBuf,
    map: memmap2::Mmap,
    /// The open file, for reads that bypass the map ([`PackedFile::read_at`]).
    file: File,
    id: u32,
    /// Where the first compressed block starts in the file.
    data: usize,
    offsets: Vec<u64>,
    crcs: Vec<u32>,
    values: Box<[[i8; 256]]>,
    /// One bit per block: checked and found intact.
    checked: Box<[AtomicU64]>,
    /// The first damaged block found.
    damage: OnceLock<(usize, Fault)>,
    /// Every value, decompressed and checked, once [`PackedFile::make_resident`] ran: a
    /// command that reads a whole layer at random (a Bellman check, an export's best moves)
    /// reads it here instead of decompressing a block per read.
    resident: OnceLock<Box<[i8]>>,
}

fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b.try_into().unwrap())
}

impl PackedFile {
    /// Map a packed file and check its header against what the caller expects (as
    /// [`LayerFile::open`]) and its tables against their CRC.
    pub fn open(path: &Path, want: &Expected<'_>) -> Result<Self, DbError> {
        let entries = want.entries;
        let file = File::open(path).map_err(io_err(path))?;
        // SAFETY: packed files are written once and renamed into place; nobody writes them
        // while mapped.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io_err(path))?;
        let p = || path.to_path_buf();
        let bad = |why: String| DbError::Packed { path: p(), why };
        if map.len() < 12 || &map[..8] != MAGIC {
            return Err(DbError::Magic { path: p() });
        }
        if &map[map.len() - 8..] != END {
            return Err(bad("truncated: no end marker (delete it and pack it again with `db pack`)".into()));
        }
        let hl = le_u32(&map[8..12]) as usize;
        let head = map.get(12..12 + hl).ok_or_else(|| bad("truncated inside its header".into()))?;
        let (header, _): (Header, usize) = bincode::serde::decode_from_slice(head, bincode_config())
            .map_err(|e| DbError::Header { path: p(), why: e.to_string() })?;
        if header.format_version != FORMAT_VERSION {
            return Err(bad(format!(
                "packed format version {}, this build reads packed version {FORMAT_VERSION}",
                header.format_version
            )));
        }
        header.expect(path, want)?;
        let il_at = 12 + hl;
        let il = map.get(il_at..il_at + 4).map(le_u32).ok_or_else(|| bad("truncated inside its header".into()))?;
        let info_bytes =
            map.get(il_at + 4..il_at + 4 + il as usize).ok_or_else(|| bad("truncated inside its header".into()))?;
        let (info, _): (PackInfo, usize) = bincode::serde::decode_from_slice(info_bytes, bincode_config())
            .map_err(|e| DbError::Header { path: p(), why: e.to_string() })?;
        let data = il_at + 4 + il as usize;
        let blocks = entries.div_ceil(BLOCK as u64);
        if info.codec != CODEC || info.block_shift != BLOCK_SHIFT || info.blocks != blocks {
            return Err(bad(format!(
                "codec {} with blocks of 2^{} values ({} blocks); this build reads {CODEC}, 2^{BLOCK_SHIFT}, {blocks}",
                info.codec, info.block_shift, info.blocks
            )));
        }
        let blocks = blocks as usize;
        let table_len = 8 * (blocks + 1) + 4 * blocks;
        let Some(table_at) = map.len().checked_sub(8 + 4 + table_len).filter(|&t| t >= data) else {
            return Err(bad("truncated: shorter than its block table".into()));
        };
        let table = &map[table_at..table_at + table_len];
        let mut meta = crc32fast::Hasher::new();
        meta.update(head);
        meta.update(info_bytes);
        meta.update(table);
        let (found, stored) = (meta.finalize(), le_u32(&map[table_at + table_len..table_at + table_len + 4]));
        if found != stored {
            return Err(bad(format!(
                "damaged: header and block table crc32 {found:08x}, stored {stored:08x} (delete it and pack it again with `db pack`)"
            )));
        }
        let offsets: Vec<u64> =
            table[..8 * (blocks + 1)].chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
        let crcs: Vec<u32> = table[8 * (blocks + 1)..].chunks_exact(4).map(le_u32).collect();
        if offsets[0] != 0 || offsets.windows(2).any(|w| w[0] > w[1]) || offsets[blocks] != (table_at - data) as u64 {
            return Err(bad("truncated or padded: the block offsets do not match the file's length".into()));
        }
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        let values = value_table(&info.order);
        let checked = (0..blocks.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Ok(PackedFile {
            header,
            info,
            path: p(),
            map,
            file,
            id,
            data,
            offsets,
            crcs,
            values,
            checked,
            damage: OnceLock::new(),
            resident: OnceLock::new(),
        })
    }

    /// Bytes of the file on disk.
    pub fn file_len(&self) -> u64 {
        self.map.len() as u64
    }

    fn block_len(&self, b: usize) -> usize {
        (self.header.entries - (b * BLOCK) as u64).min(BLOCK as u64) as usize
    }

    /// Decompress block `b` into `out` (its length), checking its CRC on first use.
    fn decode(&self, b: usize, out: &mut [i8], dctx: &mut zstd::bulk::Decompressor<'static>) -> Result<(), Fault> {
        let (from, to) = (self.offsets[b] as usize, self.offsets[b + 1] as usize);
        let comp = &self.map[self.data + from..self.data + to];
        if self.checked[b / 64].load(Ordering::Relaxed) & (1 << (b % 64)) == 0 {
            let found = checksum(comp);
            if found != self.crcs[b] {
                return Err(Fault::Crc(found));
            }
            self.checked[b / 64].fetch_or(1 << (b % 64), Ordering::Relaxed);
        }
        match dctx.decompress_to_buffer(comp, as_bytes_mut(out)) {
            Ok(n) if n == out.len() && decode_ranks(out, &self.values) => Ok(()),
            _ => Err(Fault::Undecodable),
        }
    }

    /// The value of rank `rank`; 0 (and the damage recorded, see [`PackedFile::damage`]) when
    /// its block is damaged.
    #[inline]
    pub fn value(&self, rank: u64) -> i8 {
        if let Some(all) = self.resident.get() {
            return all[rank as usize];
        }
        let b = rank >> BLOCK_SHIFT;
        let key = (self.id as u64) << 32 | b;
        let slot = ((self.id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40 ^ b) as usize & (CACHE_SLOTS - 1);
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            let c = c.get_or_insert_with(|| Cache {
                slots: (0..CACHE_SLOTS).map(|_| Slot { key: 0, buf: Box::default() }).collect(),
                dctx: zstd::bulk::Decompressor::new().expect("a zstd context allocates"),
            });
            if c.slots[slot].key != key && !self.fill(b as usize, key, &mut c.slots[slot], &mut c.dctx) {
                return 0;
            }
            c.slots[slot].buf[(rank as usize) & (BLOCK - 1)]
        })
    }

    #[cold]
    fn fill(&self, b: usize, key: u64, slot: &mut Slot, dctx: &mut zstd::bulk::Decompressor<'static>) -> bool {
        if slot.buf.is_empty() {
            slot.buf = vec![0i8; BLOCK].into_boxed_slice();
        }
        let len = self.block_len(b);
        match self.decode(b, &mut slot.buf[..len], dctx) {
            Ok(()) => {
                slot.key = key;
                true
            }
            Err(f) => {
                slot.key = 0;
                let _ = self.damage.set((b, f));
                crate::store::damage::note(self.header.layer, b as u64);
                false
            }
        }
    }

    /// The first damaged block a read met, as the error to report.
    pub fn damage(&self) -> Result<(), DbError> {
        match self.damage.get() {
            Some(&(block, fault)) => Err(self.block_error(block, fault)),
            None => Ok(()),
        }
    }

    fn block_error(&self, block: usize, fault: Fault) -> DbError {
        let why = match fault {
            Fault::Crc(found) => {
                format!("checksum mismatch, crc32 {found:08x}, the block table says {:08x}", self.crcs[block])
            }
            Fault::Undecodable => "its bytes do not decompress to the block's values".into(),
        };
        DbError::PackedBlock { path: self.path.clone(), block, first: (block * BLOCK) as u64, why }
    }

    /// Decompress every block, checking each against its CRC and the whole against the
    /// header's CRC-32 of the values; `f(first rank, values)` sees each block in order.
    pub fn for_each_block(&self, mut f: impl FnMut(u64, &[i8])) -> Result<(), DbError> {
        let blocks = self.crcs.len();
        let mut whole = crc32fast::Hasher::new();
        for first in (0..blocks).step_by(BATCH) {
            let decoded: Vec<Result<Vec<i8>, (usize, Fault)>> = (first..(first + BATCH).min(blocks))
                .into_par_iter()
                .map_init(
                    || zstd::bulk::Decompressor::new().expect("a zstd context allocates"),
                    |dctx, b| {
                        let mut out = vec![0i8; self.block_len(b)];
                        self.decode(b, &mut out, dctx).map(|()| out).map_err(|e| (b, e))
                    },
                )
                .collect();
            for (i, d) in decoded.into_iter().enumerate() {
                let out = d.map_err(|(b, fault)| {
                    let _ = self.damage.set((b, fault));
                    self.block_error(b, fault)
                })?;
                whole.update(super::layer_file::as_bytes(&out));
                f(((first + i) * BLOCK) as u64, &out);
            }
        }
        let found = whole.finalize();
        if found != self.header.checksum {
            return Err(DbError::Checksum { path: self.path.clone(), found, expected: self.header.checksum });
        }
        Ok(())
    }

    /// Check every block and the values' CRC-32.
    pub fn verify(&self) -> Result<(), DbError> {
        self.for_each_block(|_, _| {})
    }

    /// Read the values `start..start + out.len()` from the file itself, not through its map,
    /// checking every compressed block against its CRC: the streamed forward pass reads packed
    /// lower layers in rank order this way (as [`LayerFile::read_at`] raw ones), so none of
    /// their pages stays in the process whatever their size. `start` is a multiple of
    /// [`BLOCK`] and the range ends on a multiple of it or at the end of the layer. A damaged
    /// block is an error naming it (nothing is read as 0 here: the caller stops).
    pub fn read_at(&self, start: u64, out: &mut [i8]) -> Result<(), DbError> {
        use std::os::unix::fs::FileExt;
        let end = start + out.len() as u64;
        assert!(
            start.is_multiple_of(BLOCK as u64)
                && end <= self.header.entries
                && (end.is_multiple_of(BLOCK as u64) || end == self.header.entries),
            "read_at({start}, {} values) of {} entries: not whole blocks",
            out.len(),
            self.header.entries
        );
        if out.is_empty() {
            return Ok(());
        }
        let (first, last) = ((start >> BLOCK_SHIFT) as usize, (end as usize).div_ceil(BLOCK));
        let base = self.offsets[first];
        let mut comp = vec![0u8; (self.offsets[last] - base) as usize];
        self.file.read_exact_at(&mut comp, self.data as u64 + base).map_err(io_err(&self.path))?;
        let at = |b: usize| (self.offsets[b] - base) as usize;
        out.par_chunks_mut(BLOCK).enumerate().try_for_each_init(
            || zstd::bulk::Decompressor::new().expect("a zstd context allocates"),
            |dctx, (k, values)| {
                let b = first + k;
                let bytes = &comp[at(b)..at(b + 1)];
                let found = checksum(bytes);
                if found != self.crcs[b] {
                    return Err(self.block_error(b, Fault::Crc(found)));
                }
                match dctx.decompress_to_buffer(bytes, as_bytes_mut(values)) {
                    Ok(n) if n == values.len() && decode_ranks(values, &self.values) => Ok(()),
                    _ => Err(self.block_error(b, Fault::Undecodable)),
                }
            },
        )
    }

    /// Check every block and the values' CRC-32 by reads from the file ([`PackedFile::read_at`]),
    /// a slice at a time: what [`PackedFile::verify`] checks, without mapping the layer into
    /// the process (a build checks the layers it packs and resumes from this way).
    pub fn check_reads(&self) -> Result<(), DbError> {
        let entries = self.header.entries;
        let mut buf = vec![0i8; SLICE.min(entries as usize)];
        let mut whole = crc32fast::Hasher::new();
        let mut at = 0u64;
        while at < entries {
            let len = (entries - at).min(buf.len() as u64) as usize;
            self.read_at(at, &mut buf[..len])?;
            whole.update(super::layer_file::as_bytes(&buf[..len]));
            at += len as u64;
        }
        let found = whole.finalize();
        if found != self.header.checksum {
            return Err(DbError::Checksum { path: self.path.clone(), found, expected: self.header.checksum });
        }
        Ok(())
    }

    /// Every value, decompressed and checked.
    pub fn values(&self) -> Result<Vec<i8>, DbError> {
        if let Some(all) = self.resident.get() {
            return Ok(all.to_vec());
        }
        let mut all = Vec::with_capacity(self.header.entries as usize);
        self.for_each_block(|_, v| all.extend_from_slice(v))?;
        Ok(all)
    }

    /// Decompress and check every value and keep them in memory (the layer's raw size), so
    /// that reads no longer decompress: for commands that read a whole layer at random.
    pub fn make_resident(&self) -> Result<(), DbError> {
        if self.resident.get().is_none() {
            let all = self.values()?.into_boxed_slice();
            let _ = self.resident.set(all);
        }
        Ok(())
    }

    /// Whether [`PackedFile::make_resident`] ran.
    pub fn is_resident(&self) -> bool {
        self.resident.get().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::layer_file::write_layer;

    fn header() -> Header {
        Header {
            format_version: 2,
            game: "g".into(),
            rules: "{}".into(),
            index_order: "lex".into(),
            layer: 9,
            entries: 0,
            checksum: 0,
        }
    }

    /// Values with order-1 structure, as layers have: runs and a skewed alphabet.
    fn values(n: usize) -> Vec<i8> {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ((x % 19) as i8 - 9) / ((x >> 20) % 3 + 1) as i8
            })
            .collect()
    }

    fn pack(d: &Path, v: &[i8]) -> (PathBuf, Header) {
        let raw = d.join("raw.db");
        write_layer(&raw, header(), v).unwrap();
        let src = LayerFile::open(
            &raw,
            &Expected { game: "g", rules: "{}", index_order: "lex", layer: 9, entries: v.len() as u64 },
        )
        .unwrap();
        let path = d.join("packed.db");
        let h = pack_layer(&src, &path).unwrap();
        assert_eq!(h.checksum, src.header.checksum, "a packed layer keeps its values' checksum");
        (path, h)
    }

    fn open(path: &Path, n: usize) -> Result<PackedFile, DbError> {
        PackedFile::open(path, &Expected { game: "g", rules: "{}", index_order: "lex", layer: 9, entries: n as u64 })
    }

    /// Every value read back equal, by single reads (in and out of order) and by the
    /// whole-layer decode; the file is smaller than the values.
    #[test]
    fn every_value_reads_back() {
        let d = tempfile::tempdir().unwrap();
        let n = 3 * BLOCK + 1234;
        let v = values(n);
        let (path, _) = pack(d.path(), &v);
        assert!(is_packed(&path) && !is_packed(&d.path().join("raw.db")));
        let f = open(&path, n).unwrap();
        assert!(f.file_len() < n as u64 * 3 / 4, "{} bytes", f.file_len());
        assert!((0..n as u64).all(|r| f.value(r) == v[r as usize]));
        assert!((0..n as u64).rev().step_by(7).all(|r| f.value(r) == v[r as usize]));
        assert_eq!(f.values().unwrap(), v);
        assert!(f.damage().is_ok());
        f.make_resident().unwrap();
        assert!(f.is_resident() && (0..n as u64).step_by(3).all(|r| f.value(r) == v[r as usize]));
        // An empty layer and a one-value layer.
        for small in [vec![], vec![-3i8]] {
            let d = tempfile::tempdir().unwrap();
            let (path, _) = pack(d.path(), &small);
            let f = open(&path, small.len()).unwrap();
            assert_eq!(f.values().unwrap(), small);
        }
    }

    /// Reads from the file return the values of whole blocks (the last one short), checked:
    /// a damaged block is an error naming it, the blocks before it read normally; the packer
    /// replaces its own source file in one rename.
    #[test]
    fn reads_at_return_whole_checked_blocks() {
        let d = tempfile::tempdir().unwrap();
        let n = 9 * BLOCK + 77;
        let v = values(n);
        let (path, _) = pack(d.path(), &v);
        let f = open(&path, n).unwrap();
        for (start, len) in [(0, n), (0, BLOCK), (8 * BLOCK, BLOCK + 77), (2 * BLOCK, 3 * BLOCK), (n, 0)] {
            let mut out = vec![0i8; len];
            let start = start.min(n / BLOCK * BLOCK);
            f.read_at(start as u64, &mut out).unwrap();
            assert!(out == v[start..start + len], "{start} {len}");
        }
        f.check_reads().unwrap();
        let at = f.data + f.offsets[4] as usize + 3;
        drop(f);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[at] ^= 0x02;
        std::fs::write(&path, &bytes).unwrap();
        let f = open(&path, n).unwrap();
        let mut out = vec![0i8; 4 * BLOCK];
        f.read_at(0, &mut out).unwrap();
        let e = f.read_at(4 * BLOCK as u64, &mut out).unwrap_err();
        assert!(matches!(e, DbError::PackedBlock { block: 4, .. }), "{e}");
        assert!(f.check_reads().is_err());

        // Packed over its own raw file.
        let raw = d.path().join("raw.db");
        let src = LayerFile::open(
            &raw,
            &Expected { game: "g", rules: "{}", index_order: "lex", layer: 9, entries: n as u64 },
        )
        .unwrap();
        pack_layer(&src, &raw).unwrap();
        drop(src);
        assert!(is_packed(&raw) && open(&raw, n).unwrap().values().unwrap() == v);
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 2, "no temporary is left");
    }

    /// One byte of the second block's compressed bytes flipped: the other blocks read
    /// normally, the damaged one reads as 0 and is reported with its number, and so does a
    /// whole check; the header and tables are checked on open.
    #[test]
    fn a_damaged_block_is_never_served() {
        let d = tempfile::tempdir().unwrap();
        let n = 3 * BLOCK;
        let v = values(n);
        let (path, _) = pack(d.path(), &v);
        let good = std::fs::read(&path).unwrap();
        let f = open(&path, n).unwrap();
        let at = f.data + f.offsets[1] as usize + 17;
        drop(f);
        let mut bytes = good.clone();
        bytes[at] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let f = open(&path, n).unwrap();
        assert_eq!(f.value(5), v[5]);
        assert_eq!(f.value(2 * BLOCK as u64 + 9), v[2 * BLOCK + 9]);
        assert!(f.damage().is_ok());
        assert_eq!(f.value(BLOCK as u64 + 3), 0);
        let e = f.damage().unwrap_err().to_string();
        assert!(e.contains("block 1") && e.contains("checksum mismatch"), "{e}");
        let e = open(&path, n).unwrap().verify().unwrap_err().to_string();
        assert!(e.contains("block 1"), "{e}");

        // A flip in the header, the ranking or the tables is refused on open.
        let hl = le_u32(&good[8..12]) as usize;
        for at in [12 + hl - 1, 12 + hl + 4 + 20, good.len() - 8 - 4 - 3, good.len() - 8 - 4 - 4 * 3 - 2] {
            let mut bytes = good.clone();
            bytes[at] ^= 0x08;
            std::fs::write(&path, &bytes).unwrap();
            assert!(open(&path, n).is_err(), "byte {at} of {}", good.len());
        }
        // Truncated anywhere.
        for len in [4, 12 + hl / 2, good.len() / 2, good.len() - 1] {
            std::fs::write(&path, &good[..len]).unwrap();
            let e = open(&path, n).err().expect("refused").to_string();
            assert!(e.contains("truncated") || e.contains("magic"), "{len}: {e}");
        }
        // Another layer's expectations.
        std::fs::write(&path, &good).unwrap();
        assert!(matches!(
            PackedFile::open(
                &path,
                &Expected { game: "h", rules: "{}", index_order: "lex", layer: 9, entries: n as u64 }
            ),
            Err(DbError::Foreign { .. })
        ));
        assert!(matches!(open(&path, n + 1), Err(DbError::Size { .. })));
    }
}
