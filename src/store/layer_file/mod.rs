//! Layer files: one per layer of an endgame database. A small header (serde + bincode) then the raw `i8` values
//! indexed by rank. Written to a temporary name and renamed only when complete, so a file with
//! the final name is always finished; probed through a memory map.
//!
//! Layout (version 2): `MAGIC` (8 bytes) · header length (u32 LE) · bincode header · one CRC-32
//! (u32 LE) per block of [`BLOCK`] payload bytes · zero padding to a multiple of 64 · payload
//! (`entries` bytes). Version 1 files (no block table) are still read.
//!
//! No value of a damaged file is ever used: a block is checked against its CRC the first time
//! any of its values is read, so a query reads and checks only the blocks it touches (a
//! whole-file check would read a 30-seed Oware database, 11 GB, to answer one probe). A value
//! of a damaged block reads as 0 and the file remembers the damage ([`LayerFile::damage`]); a
//! caller checks it before it reports anything. A version 1 file is checked whole on open.

mod sliced;

pub use sliced::{write_slice, SliceTarget, SlicedLayer};

use super::AtomicFile;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

pub const MAGIC: &[u8; 8] = b"MNCLADB\0";
pub const FORMAT_VERSION: u32 = 2;
/// The version without the block table, read and checked whole on open.
const VERSION_WHOLE_CRC: u32 = 1;
/// Bytes per checked block (64 KiB: the table costs 4 bytes per 64 KiB, and a cold probe
/// reads one block).
pub const BLOCK_SHIFT: u32 = 16;
pub const BLOCK: usize = 1 << BLOCK_SHIFT;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub format_version: u32,
    pub game: String,
    /// Every rule variant in force, as a JSON object (the same text outputs carry).
    pub rules: String,
    pub index_order: String,
    /// The layer: pieces on the board (Oware seeds, Kiothi warriors) in every position of it.
    pub layer: u32,
    pub entries: u64,
    /// CRC-32 (IEEE) of the payload.
    pub checksum: u32,
}

impl Header {
    /// The one check of a layer header (raw or packed) against what its reader expects: the
    /// same game, rules, index and layer, and the entry count that index gives the layer.
    pub(crate) fn expect(&self, path: &Path, want: &Expected<'_>) -> Result<(), DbError> {
        let found = format!("game {} rules {} index {} layer {}", self.game, self.rules, self.index_order, self.layer);
        let expected =
            format!("game {} rules {} index {} layer {}", want.game, want.rules, want.index_order, want.layer);
        if found != expected {
            return Err(DbError::Foreign { path: path.to_path_buf(), found, expected });
        }
        if self.entries != want.entries {
            return Err(DbError::Size { path: path.to_path_buf(), found: self.entries, expected: want.entries });
        }
        Ok(())
    }

    /// What this header says, as a reader's expectation (to reopen its file in another form).
    pub fn expected(&self) -> Expected<'_> {
        Expected {
            game: &self.game,
            rules: &self.rules,
            index_order: &self.index_order,
            layer: self.layer,
            entries: self.entries,
        }
    }
}

/// What a reader expects of a layer file's header (raw or packed): a file of another game,
/// rules, index order or layer, or of another size, is refused naming both.
#[derive(Clone, Copy, Debug)]
pub struct Expected<'a> {
    pub game: &'a str,
    /// The rules text (as in outputs: every variant in force, a JSON object).
    pub rules: &'a str,
    pub index_order: &'a str,
    pub layer: u32,
    /// The positions the index gives the layer.
    pub entries: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{path}: not a mancala database file (bad magic)")]
    Magic { path: PathBuf },
    #[error("{path}: unreadable header: {why}")]
    Header { path: PathBuf, why: String },
    #[error("{path}: format version {found}, this build reads versions 1 and {FORMAT_VERSION}")]
    Version { path: PathBuf, found: u32 },
    #[error("{path}: built for {found}, expected {expected}")]
    Foreign { path: PathBuf, found: String, expected: String },
    #[error("{path}: truncated or padded: {found} payload bytes, header says {expected}")]
    Size { path: PathBuf, found: u64, expected: u64 },
    #[error("{path}: damaged: checksum mismatch, payload crc32 {found:08x}, header says {expected:08x} (delete the file and rebuild it with `db build`)")]
    Checksum { path: PathBuf, found: u32, expected: u32 },
    #[error("{path}: damaged: checksum mismatch in block {block} (bytes from {}), crc32 {found:08x}, the block table says {expected:08x} (delete the file and rebuild it with `db build`)", *block as u64 * BLOCK as u64)]
    Block { path: PathBuf, block: usize, found: u32, expected: u32 },
    #[error("{path}: damaged: entry {rank} holds {value}, outside -{layer}..={layer} (delete the file and rebuild it with `db build`)")]
    Value { path: PathBuf, rank: u64, value: i8, layer: u32 },
    /// A packed layer file ([`super::packed`]) that is cut short, damaged outside its blocks or of
    /// an unknown packed version.
    #[error("{path}: {why}")]
    Packed { path: PathBuf, why: String },
    #[error("{path}: damaged: block {block} (values from rank {first}): {why} (delete the file and pack it again with `db pack`)")]
    PackedBlock { path: PathBuf, block: usize, first: u64, why: String },
    /// Rules the tables do not exist for (the field names the variant).
    #[error("{0}")]
    Rules(crate::input::InputError),
    #[error("{dir}: layer {layer} is missing (build it with `db build`)")]
    Missing { dir: PathBuf, layer: usize },
}

impl DbError {
    /// A failure of the machine (a read or write the system refused), as against a file or a
    /// request that is wrong: the command line exits 1 for these and 2 for the rest.
    pub fn is_io(&self) -> bool {
        matches!(self, DbError::Io { .. })
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> DbError + '_ {
    move |source| DbError::Io { path: path.to_path_buf(), source }
}

pub fn checksum(payload: &[u8]) -> u32 {
    // crc32fast uses the CPU's carry-less multiply: gigabytes per second.
    let mut h = crc32fast::Hasher::new();
    h.update(payload);
    h.finalize()
}

fn bincode_config() -> impl bincode::config::Config {
    // The limit keeps a damaged length field from asking for gigabytes (a header is < 1 KiB).
    bincode::config::standard().with_little_endian().with_fixed_int_encoding().with_limit::<{ 1 << 20 }>()
}

/// Where the payload starts after a header of `header_len` bytes and a table of `blocks` CRCs.
fn payload_offset(header_len: usize, blocks: usize) -> usize {
    (MAGIC.len() + 4 + header_len + 4 * blocks).div_ceil(64) * 64
}

/// Blocks of a payload of `entries` bytes.
fn block_count(entries: u64) -> usize {
    entries.div_ceil(BLOCK as u64) as usize
}

/// The CRC-32 of a payload of `entries` bytes from the CRCs of its blocks.
fn combine_blocks(crcs: &[u32], entries: u64) -> u32 {
    let mut whole = crc32fast::Hasher::new();
    for (b, &crc) in crcs.iter().enumerate() {
        let len = (entries - (b * BLOCK) as u64).min(BLOCK as u64);
        whole.combine(&crc32fast::Hasher::new_with_initial_len(crc, len));
    }
    whole.finalize()
}

/// The CRC-32 of every block of `payload`, and of the whole (combined from the blocks').
fn block_checksums(payload: &[u8]) -> (Vec<u32>, u32) {
    let mut whole = crc32fast::Hasher::new();
    let crcs = payload
        .chunks(BLOCK)
        .map(|b| {
            let mut h = crc32fast::Hasher::new();
            h.update(b);
            whole.combine(&h);
            h.finalize()
        })
        .collect();
    (crcs, whole.finalize())
}

/// The header's bytes (bincode; fixed-width integers, so the length does not depend on the
/// entry count or the checksum).
fn encode_head(path: &Path, header: &Header) -> Result<Vec<u8>, DbError> {
    bincode::serde::encode_to_vec(header, bincode_config())
        .map_err(|e| DbError::Header { path: path.to_path_buf(), why: e.to_string() })
}

/// Everything before the payload: magic, header length, header, block table, zero padding to
/// the payload's offset.
fn prefix(head: &[u8], blocks: &[u32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(payload_offset(head.len(), blocks.len()));
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(head.len() as u32).to_le_bytes());
    bytes.extend_from_slice(head);
    bytes.extend(blocks.iter().flat_map(|c| c.to_le_bytes()));
    bytes.resize(payload_offset(head.len(), blocks.len()), 0);
    bytes
}

/// Write `payload` under `path` atomically ([`crate::store::AtomicFile`]).
pub fn write_layer(path: &Path, mut header: Header, payload: &[i8]) -> Result<Header, DbError> {
    let bytes: &[u8] = as_bytes(payload);
    let (blocks, whole) = block_checksums(bytes);
    header.format_version = FORMAT_VERSION;
    header.entries = bytes.len() as u64;
    header.checksum = whole;
    let head = encode_head(path, &header)?;
    let mut f = AtomicFile::create(path).map_err(io_err(path))?;
    let tmp = f.temp().to_path_buf();
    f.write_all(&prefix(&head, &blocks)).map_err(io_err(&tmp))?;
    f.write_all(bytes).map_err(io_err(&tmp))?;
    f.commit().map_err(io_err(path))?;
    Ok(header)
}

/// [`write_layer`] of the values held in the file `values` (one byte per rank), read in
/// slices, twice (the block CRCs go before the payload, then the copy): a layer built out of
/// core is never whole in the process.
pub fn write_layer_from(path: &Path, mut header: Header, values: &Path) -> Result<Header, DbError> {
    use std::os::unix::fs::FileExt;
    let src = File::open(values).map_err(io_err(values))?;
    let entries = src.metadata().map_err(io_err(values))?.len();
    let mut buf = vec![0u8; SLICE_BLOCKS * BLOCK];
    let slices = |buf: &mut Vec<u8>, f: &mut dyn FnMut(&[u8]) -> Result<(), DbError>| -> Result<(), DbError> {
        let mut at = 0u64;
        while at < entries {
            let len = (entries - at).min(buf.len() as u64) as usize;
            src.read_exact_at(&mut buf[..len], at).map_err(io_err(values))?;
            f(&buf[..len])?;
            at += len as u64;
        }
        Ok(())
    };
    let mut blocks = Vec::with_capacity(block_count(entries));
    let mut whole = crc32fast::Hasher::new();
    slices(&mut buf, &mut |slice| {
        for b in slice.chunks(BLOCK) {
            let mut h = crc32fast::Hasher::new();
            h.update(b);
            whole.combine(&h);
            blocks.push(h.finalize());
        }
        Ok(())
    })?;
    header.format_version = FORMAT_VERSION;
    header.entries = entries;
    header.checksum = whole.finalize();
    let head = encode_head(path, &header)?;
    let mut f = AtomicFile::create(path).map_err(io_err(path))?;
    let tmp = f.temp().to_path_buf();
    f.write_all(&prefix(&head, &blocks)).map_err(io_err(&tmp))?;
    slices(&mut buf, &mut |slice| f.write_all(slice).map_err(io_err(&tmp)))?;
    f.commit().map_err(io_err(path))?;
    Ok(header)
}

/// Blocks read, checked or written at a time by the passes that keep a layer out of the
/// process ([`write_layer_from`], [`LayerFile::verify_dropping`]): 4 MiB.
const SLICE_BLOCKS: usize = 64;

pub fn as_bytes(v: &[i8]) -> &[u8] {
    // SAFETY: i8 and u8 have the same size and alignment.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len()) }
}

/// A memory-mapped layer file whose blocks are checked as they are first read.
pub struct LayerFile {
    pub header: Header,
    pub path: PathBuf,
    map: memmap2::Mmap,
    /// The open file, for reads that bypass the map ([`LayerFile::read_at`]).
    file: File,
    offset: usize,
    /// The CRC of every block (version 2; empty for version 1, checked whole on open).
    crcs: Vec<u32>,
    /// One bit per block: checked and found intact.
    checked: Box<[AtomicU64]>,
    /// The first damaged block found: (block, crc found).
    damage: OnceLock<(usize, u32)>,
}

impl LayerFile {
    /// Map a layer file and check its header against what the caller expects. The payload is
    /// checked block by block as it is read ([`LayerFile::value`]) or all at once
    /// ([`LayerFile::verify`]).
    pub fn open(path: &Path, want: &Expected<'_>) -> Result<Self, DbError> {
        let entries = want.entries;
        let file = File::open(path).map_err(io_err(path))?;
        // SAFETY: database files are written once and renamed into place; nobody writes them
        // while mapped.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io_err(path))?;
        let p = || path.to_path_buf();
        if map.len() < MAGIC.len() + 4 || &map[..8] != MAGIC {
            return Err(DbError::Magic { path: p() });
        }
        let hl = u32::from_le_bytes(map[8..12].try_into().unwrap()) as usize;
        if map.len() < 12 + hl {
            return Err(DbError::Header { path: p(), why: "file shorter than its header".into() });
        }
        let (header, _): (Header, usize) = bincode::serde::decode_from_slice(&map[12..12 + hl], bincode_config())
            .map_err(|e| DbError::Header { path: p(), why: e.to_string() })?;
        if header.format_version != FORMAT_VERSION && header.format_version != VERSION_WHOLE_CRC {
            return Err(DbError::Version { path: p(), found: header.format_version });
        }
        header.expect(path, want)?;
        let blocks = block_count(entries);
        let table = if header.format_version == FORMAT_VERSION { blocks } else { 0 };
        let offset = payload_offset(hl, table);
        let have = map.len().saturating_sub(offset) as u64;
        if map.len() < offset || have != entries {
            return Err(DbError::Size { path: p(), found: have, expected: entries });
        }
        let crcs: Vec<u32> = map[12 + hl..12 + hl + 4 * table]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        // The block table and the header's whole-payload CRC must agree (combining CRCs reads
        // no payload), so a damaged table or checksum field is found on open too.
        if !crcs.is_empty() {
            let found = combine_blocks(&crcs, entries);
            if found != header.checksum {
                return Err(DbError::Checksum { path: p(), found, expected: header.checksum });
            }
        }
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        let checked = (0..blocks.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        let f = LayerFile { header, path: p(), map, file, offset, crcs, checked, damage: OnceLock::new() };
        if f.crcs.is_empty() {
            f.verify()?;
        }
        Ok(f)
    }

    /// The value of rank `rank`, its block checked on first touch; 0 (and the damage recorded,
    /// see [`LayerFile::damage`]) when the block is damaged.
    #[inline]
    pub fn value(&self, rank: u64) -> i8 {
        let b = (rank >> BLOCK_SHIFT) as usize;
        if self.checked[b / 64].load(Ordering::Relaxed) & (1 << (b % 64)) == 0 && !self.check_block(b) {
            return 0;
        }
        self.raw()[rank as usize]
    }

    /// Check block `b` against its CRC; false (and the damage recorded) when it differs.
    #[cold]
    fn check_block(&self, b: usize) -> bool {
        let bytes = &self.map[self.offset..];
        let block = &bytes[b * BLOCK..((b + 1) * BLOCK).min(bytes.len())];
        let found = checksum(block);
        if found != self.crcs[b] {
            let _ = self.damage.set((b, found));
            crate::store::damage::note(self.header.layer, b as u64);
            return false;
        }
        self.checked[b / 64].fetch_or(1 << (b % 64), Ordering::Relaxed);
        true
    }

    /// The first damaged block a read met, as the error to report.
    pub fn damage(&self) -> Result<(), DbError> {
        match self.damage.get() {
            Some(&(block, found)) => {
                Err(DbError::Block { path: self.path.clone(), block, found, expected: self.crcs[block] })
            }
            None => Ok(()),
        }
    }

    /// Check every block not checked yet (and, for version 1, the whole payload).
    pub fn verify(&self) -> Result<(), DbError> {
        if self.crcs.is_empty() {
            let found = checksum(&self.map[self.offset..]);
            if found != self.header.checksum {
                return Err(DbError::Checksum { path: self.path.clone(), found, expected: self.header.checksum });
            }
            self.checked.iter().for_each(|w| w.store(u64::MAX, Ordering::Relaxed));
            return Ok(());
        }
        for b in 0..self.crcs.len() {
            if self.checked[b / 64].load(Ordering::Relaxed) & (1 << (b % 64)) == 0 {
                self.check_block(b);
            }
        }
        self.damage()
    }

    /// Read the values `start..start + out.len()` from the file itself, not through its map,
    /// checking every block read against its CRC: the streamed forward pass reads the lower
    /// layers in rank order this way, so none of their pages stays in the process whatever
    /// their size. `start` is a multiple of [`BLOCK`] and the range ends on a block boundary or
    /// at the end of the layer, so every block is read whole and checked.
    pub fn read_at(&self, start: u64, out: &mut [i8]) -> Result<(), DbError> {
        use std::os::unix::fs::FileExt;
        let end = start + out.len() as u64;
        assert!(
            start.is_multiple_of(BLOCK as u64) && (end.is_multiple_of(BLOCK as u64) || end == self.header.entries),
            "read_at({start}, {} bytes) of {} entries: not whole blocks",
            out.len(),
            self.header.entries
        );
        // SAFETY: i8 and u8 have the same size and alignment.
        let bytes = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, out.len()) };
        self.file.read_exact_at(bytes, self.offset as u64 + start).map_err(io_err(&self.path))?;
        if self.crcs.is_empty() {
            // Version 1: the whole payload was checked on open.
            return Ok(());
        }
        let first = (start / BLOCK as u64) as usize;
        for (k, block) in bytes.chunks(BLOCK).enumerate() {
            let (b, found) = (first + k, checksum(block));
            if found != self.crcs[b] {
                return Err(DbError::Block { path: self.path.clone(), block: b, found, expected: self.crcs[b] });
            }
        }
        Ok(())
    }

    /// [`LayerFile::verify`], dropping the pages of every slice from the process once it is
    /// checked ([`super::resident::forget`]; they stay in the page cache): a build under a
    /// memory budget checks each layer it writes without holding it.
    pub fn verify_dropping(&self) -> Result<(), DbError> {
        if self.crcs.is_empty() {
            return self.verify();
        }
        let bytes = &self.map[self.offset..];
        for first in (0..self.crcs.len()).step_by(SLICE_BLOCKS) {
            let last = (first + SLICE_BLOCKS).min(self.crcs.len());
            for b in first..last {
                if self.checked[b / 64].load(Ordering::Relaxed) & (1 << (b % 64)) == 0 {
                    self.check_block(b);
                }
            }
            // SAFETY: a layer file's map is read-only and file-backed.
            unsafe { super::resident::forget(&bytes[first * BLOCK..(last * BLOCK).min(bytes.len())]) };
        }
        self.damage()
    }

    /// Every value, after checking every block: `Err` for a damaged file.
    pub fn values(&self) -> Result<&[i8], DbError> {
        self.verify()?;
        Ok(self.raw())
    }

    fn raw(&self) -> &[i8] {
        let b = &self.map[self.offset..];
        // SAFETY: as in `as_bytes`.
        unsafe { std::slice::from_raw_parts(b.as_ptr() as *const i8, b.len()) }
    }
}

/// The values of a verified layer ([`LayerFile::verify`]), for the builder, which reads the
/// layers below the one it builds after checking them all.
impl AsRef<[i8]> for LayerFile {
    fn as_ref(&self) -> &[i8] {
        debug_assert!(self.damage.get().is_none());
        self.raw()
    }
}

/// What names and checks the layer files of one table family (a game under fixed rules).
pub struct Family<'a> {
    pub game: &'a str,
    /// The rules text recorded in (and required of) every header.
    pub rules: String,
    pub index_order: &'a str,
    /// The file of layer `n`.
    pub path: &'a dyn Fn(usize) -> PathBuf,
}

impl Family<'_> {
    /// Map layer `n`, checking its header (`entries` = the layer's size); its blocks are
    /// checked as they are read.
    pub fn open(&self, n: usize, entries: u64) -> Result<LayerFile, DbError> {
        LayerFile::open(&(self.path)(n), &self.expected(n, entries))
    }

    /// The header layer `n` of `entries` positions must have.
    pub fn expected(&self, n: usize, entries: u64) -> Expected<'_> {
        Expected { game: self.game, rules: &self.rules, index_order: self.index_order, layer: n as u32, entries }
    }

    /// [`Family::open`] and check every block now. The pages the check read are then dropped
    /// from the process (kept in the page cache): a build checks every layer below the one it
    /// builds, and keeping them all resident would put its RSS past any `--memory` before it
    /// starts.
    pub fn open_verified(&self, n: usize, entries: u64) -> Result<LayerFile, DbError> {
        let f = self.open(n, entries)?;
        f.verify()?;
        // SAFETY: a layer file's map is read-only and file-backed.
        unsafe { super::resident::forget(&f.map) };
        Ok(f)
    }

    fn header(&self, n: usize, entries: u64) -> Header {
        Header {
            format_version: FORMAT_VERSION,
            game: self.game.into(),
            rules: self.rules.clone(),
            index_order: self.index_order.into(),
            layer: n as u32,
            entries,
            checksum: 0,
        }
    }

    /// Write layer `n` atomically with its header.
    pub fn write(&self, n: usize, values: &[i8]) -> Result<Header, DbError> {
        write_layer(&(self.path)(n), self.header(n, 0), values)
    }

    /// [`Family::write`] of the values in the file `values` ([`write_layer_from`]).
    pub fn write_from(&self, n: usize, values: &Path) -> Result<Header, DbError> {
        write_layer_from(&(self.path)(n), self.header(n, 0), values)
    }

    /// Open the consecutive layers `0..` present (at most `0..=max`), checking every block now
    /// when `verify`; an empty list when layer 0 is missing.
    pub fn open_present(
        &self,
        max: usize,
        size: impl Fn(usize) -> u64,
        verify: bool,
    ) -> Result<Vec<LayerFile>, DbError> {
        let mut layers = Vec::new();
        for n in 0..=max {
            if !(self.path)(n).exists() {
                break;
            }
            layers.push(if verify { self.open_verified(n, size(n))? } else { self.open(n, size(n))? });
        }
        Ok(layers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(version: u32) -> Header {
        Header {
            format_version: version,
            game: "g".into(),
            rules: "{}".into(),
            index_order: "lex".into(),
            layer: 3,
            entries: 0,
            checksum: 0,
        }
    }

    fn open(path: &Path, entries: u64) -> Result<LayerFile, DbError> {
        LayerFile::open(path, &Expected { game: "g", rules: "{}", index_order: "lex", layer: 3, entries })
    }

    /// Three blocks (the last one short), one byte of the middle one flipped: values of the
    /// intact blocks read normally, the damaged block reads as 0 and is reported with its
    /// number; a whole check says the same.
    #[test]
    fn a_damaged_block_is_found_on_first_touch_and_never_served() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("l.db");
        let n = 2 * BLOCK + 100;
        let values: Vec<i8> = (0..n).map(|i| (i % 7) as i8 - 3).collect();
        let h = write_layer(&path, header(FORMAT_VERSION), &values).unwrap();
        assert_eq!(h.checksum, checksum(as_bytes(&values)));
        let f = open(&path, n as u64).unwrap();
        assert!((0..n as u64).step_by(997).all(|r| f.value(r) == values[r as usize]));
        assert!(f.damage().is_ok() && f.values().unwrap() == &values[..]);

        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - n + BLOCK + 5;
        bytes[at] ^= 0x20;
        std::fs::write(&path, &bytes).unwrap();
        let f = open(&path, n as u64).unwrap();
        assert_eq!(f.value(3), values[3]);
        assert_eq!(f.value(2 * BLOCK as u64 + 1), values[2 * BLOCK + 1]);
        assert!(f.damage().is_ok(), "block 1 not touched yet");
        assert_eq!(f.value(BLOCK as u64 + 5), 0);
        let e = f.damage().unwrap_err().to_string();
        assert!(e.contains("damaged: checksum mismatch in block 1"), "{e}");
        let e = open(&path, n as u64).unwrap().verify().unwrap_err().to_string();
        assert!(e.contains("block 1"), "{e}");
    }

    /// Reads from the file return the values of whole blocks, the last one short, and a
    /// damaged block is an error naming it (a streamed build stops there).
    #[test]
    fn reads_at_return_whole_checked_blocks() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("l.db");
        let n = 3 * BLOCK + 100;
        let values: Vec<i8> = (0..n).map(|i| (i % 11) as i8 - 5).collect();
        write_layer(&path, header(FORMAT_VERSION), &values).unwrap();
        let f = open(&path, n as u64).unwrap();
        let mut out = vec![0i8; 2 * BLOCK];
        f.read_at(BLOCK as u64, &mut out).unwrap();
        assert!(out == values[BLOCK..3 * BLOCK]);
        let mut tail = vec![0i8; BLOCK + 100];
        f.read_at(2 * BLOCK as u64, &mut tail).unwrap();
        assert!(tail == values[2 * BLOCK..]);

        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - n + 2 * BLOCK + 9;
        bytes[at] ^= 0x01;
        std::fs::write(&path, &bytes).unwrap();
        let f = open(&path, n as u64).unwrap();
        f.read_at(0, &mut out).unwrap();
        let e = f.read_at(BLOCK as u64, &mut out).unwrap_err();
        assert!(matches!(e, DbError::Block { block: 2, .. }), "{e}");
        assert!(!e.is_io());
    }

    /// A layer written from a file of values is the file [`write_layer`] writes, and checks
    /// the same with its pages dropped as it goes.
    #[test]
    fn a_layer_written_from_a_file_is_the_same_file() {
        let d = tempfile::tempdir().unwrap();
        let n = 70 * BLOCK + 3;
        let values: Vec<i8> = (0..n).map(|i| (i * 13 % 9) as i8 - 4).collect();
        let src = d.path().join("values");
        std::fs::write(&src, as_bytes(&values)).unwrap();
        let (a, b) = (d.path().join("a.db"), d.path().join("b.db"));
        let ha = write_layer(&a, header(FORMAT_VERSION), &values).unwrap();
        let hb = write_layer_from(&b, header(FORMAT_VERSION), &src).unwrap();
        assert_eq!(ha, hb);
        assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap());
        open(&b, n as u64).unwrap().verify_dropping().unwrap();
        let mut bytes = std::fs::read(&b).unwrap();
        let at = bytes.len() - n + 66 * BLOCK;
        bytes[at] ^= 0x10;
        std::fs::write(&b, &bytes).unwrap();
        let e = open(&b, n as u64).unwrap().verify_dropping().unwrap_err();
        assert!(matches!(e, DbError::Block { block: 66, .. }), "{e}");
    }

    /// A version 1 file (no block table) is read, and checked whole when it is opened.
    #[test]
    fn version_1_files_are_checked_whole_on_open() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("l.db");
        let values: Vec<i8> = (0..1000).map(|i| (i % 5) as i8 - 2).collect();
        let mut h = header(VERSION_WHOLE_CRC);
        h.entries = values.len() as u64;
        h.checksum = checksum(as_bytes(&values));
        let head = bincode::serde::encode_to_vec(&h, bincode_config()).unwrap();
        let mut bytes = MAGIC.to_vec();
        bytes.extend((head.len() as u32).to_le_bytes());
        bytes.extend(&head);
        bytes.resize(payload_offset(head.len(), 0), 0);
        bytes.extend(as_bytes(&values));
        std::fs::write(&path, &bytes).unwrap();
        let f = open(&path, 1000).unwrap();
        assert_eq!(f.values().unwrap(), &values[..]);
        assert_eq!(f.value(999), values[999]);
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let e = open(&path, 1000).err().unwrap().to_string();
        assert!(e.contains("damaged: checksum mismatch"), "{e}");
    }

    /// The header's whole-payload CRC (its last field) and the block table must agree: a flip
    /// in either is found on open, before any value is read.
    #[test]
    fn the_checksum_field_and_the_block_table_are_checked_against_each_other() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("l.db");
        let values: Vec<i8> = (0..BLOCK + 10).map(|i| (i % 3) as i8 - 1).collect();
        write_layer(&path, header(FORMAT_VERSION), &values).unwrap();
        let good = std::fs::read(&path).unwrap();
        let hl = u32::from_le_bytes(good[8..12].try_into().unwrap()) as usize;
        for at in [12 + hl - 1, 12 + hl + 2, 12 + hl + 5] {
            let mut bytes = good.clone();
            bytes[at] ^= 0x10;
            std::fs::write(&path, &bytes).unwrap();
            let e = open(&path, values.len() as u64).err().expect("refused on open").to_string();
            assert!(e.contains("damaged: checksum mismatch"), "byte {at}: {e}");
        }
    }

    /// A header length field that claims gigabytes is an error, not an allocation.
    #[test]
    fn a_huge_header_length_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("l.db");
        write_layer(&path, header(FORMAT_VERSION), &[1, 0, -1]).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        // The game name's length (u64, first field after format_version) set to 2^40.
        bytes[12 + 4..12 + 12].copy_from_slice(&(1u64 << 40).to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(open(&path, 3), Err(DbError::Header { .. })));
    }
}
