//! Reading a packed layer: the file mapped and its tables checked on open, each block checked
//! against its CRC the first time it is decompressed, and a small per-thread cache of
//! decompressed blocks.

use super::codec::{decode_ranks, value_table};
use super::{bincode_config, io_err, PackInfo, BATCH, BLOCK, BLOCK_SHIFT, CODEC, END, FORMAT_VERSION, MAGIC, SLICE};
use crate::store::layer_file::{checksum, DbError, Expected, Header};
use rayon::prelude::*;
use std::cell::RefCell;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;

/// Decompressed blocks each thread keeps (direct-mapped): 4096 × 8 KiB = 32 MiB a thread.
const CACHE_SLOTS: usize = 4096;

fn as_bytes_mut(v: &mut [i8]) -> &mut [u8] {
    // SAFETY: i8 and u8 have the same size and alignment.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, v.len()) }
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
    pub(super) data: usize,
    pub(super) offsets: Vec<u64>,
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

pub(super) fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b.try_into().unwrap())
}

impl PackedFile {
    /// Map a packed file and check its header against what the caller expects (as
    /// [`LayerFile::open`](crate::store::layer_file::LayerFile::open)) and its tables against their CRC.
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
                whole.update(crate::store::layer_file::as_bytes(&out));
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
    /// lower layers in rank order this way (as [`LayerFile::read_at`](crate::store::layer_file::LayerFile::read_at) raw ones), so none of
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
            whole.update(crate::store::layer_file::as_bytes(&buf[..len]));
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
