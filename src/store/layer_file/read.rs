//! Reading a layer file through its map, each block checked against its CRC the first time
//! any of its values is read.

use super::header::{bincode_config, io_err, DbError, Expected, Header};
use super::layout::{
    block_count, checksum, combine_blocks, payload_offset, BLOCK, BLOCK_SHIFT, FORMAT_VERSION, MAGIC, SLICE_BLOCKS,
    VERSION_WHOLE_CRC,
};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// A memory-mapped layer file whose blocks are checked as they are first read.
pub struct LayerFile {
    pub header: Header,
    pub path: PathBuf,
    pub(super) map: memmap2::Mmap,
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
            unsafe { crate::store::resident::forget(&bytes[first * BLOCK..(last * BLOCK).min(bytes.len())]) };
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
