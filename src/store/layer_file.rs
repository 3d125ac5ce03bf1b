//! Layer files: one per layer of an endgame database. A small header (serde + bincode) then the raw `i8` values
//! indexed by rank. Written to a temporary name and renamed only when complete, so a file with
//! the final name is always finished; probed through a memory map.
//!
//! Layout: `MAGIC` (8 bytes) · header length (u32 LE) · bincode header · zero padding to a
//! multiple of 64 · payload (`entries` bytes).

use super::AtomicFile;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub const MAGIC: &[u8; 8] = b"MNCLADB\0";
pub const FORMAT_VERSION: u32 = 1;

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

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{path}: not a mancala database file (bad magic)")]
    Magic { path: PathBuf },
    #[error("{path}: unreadable header: {why}")]
    Header { path: PathBuf, why: String },
    #[error("{path}: format version {found}, this build reads version {FORMAT_VERSION}")]
    Version { path: PathBuf, found: u32 },
    #[error("{path}: built for {found}, expected {expected}")]
    Foreign { path: PathBuf, found: String, expected: String },
    #[error("{path}: truncated or padded: {found} payload bytes, header says {expected}")]
    Size { path: PathBuf, found: u64, expected: u64 },
    #[error("{path}: checksum mismatch: payload crc32 {found:08x}, header says {expected:08x}")]
    Checksum { path: PathBuf, found: u32, expected: u32 },
    /// Rules the tables do not exist for (the field names the variant).
    #[error("{0}")]
    Rules(crate::input::InputError),
    #[error("{dir}: layer {layer} is missing (build it with `db build`)")]
    Missing { dir: PathBuf, layer: usize },
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
    bincode::config::standard().with_little_endian().with_fixed_int_encoding()
}

fn payload_offset(header_len: usize) -> usize {
    (MAGIC.len() + 4 + header_len).div_ceil(64) * 64
}

/// Write `payload` under `path` atomically ([`crate::store::AtomicFile`]).
pub fn write_layer(path: &Path, mut header: Header, payload: &[i8]) -> Result<Header, DbError> {
    let bytes: &[u8] = as_bytes(payload);
    header.entries = bytes.len() as u64;
    header.checksum = checksum(bytes);
    let head = bincode::serde::encode_to_vec(&header, bincode_config())
        .map_err(|e| DbError::Header { path: path.to_path_buf(), why: e.to_string() })?;
    let off = payload_offset(head.len());
    let mut f = AtomicFile::create(path).map_err(io_err(path))?;
    let tmp = f.temp().to_path_buf();
    f.write_all(MAGIC).map_err(io_err(&tmp))?;
    f.write_all(&(head.len() as u32).to_le_bytes()).map_err(io_err(&tmp))?;
    f.write_all(&head).map_err(io_err(&tmp))?;
    f.write_all(&vec![0u8; off - MAGIC.len() - 4 - head.len()]).map_err(io_err(&tmp))?;
    f.write_all(bytes).map_err(io_err(&tmp))?;
    f.commit().map_err(io_err(path))?;
    Ok(header)
}

pub fn as_bytes(v: &[i8]) -> &[u8] {
    // SAFETY: i8 and u8 have the same size and alignment.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len()) }
}

/// A memory-mapped layer file.
pub struct LayerFile {
    pub header: Header,
    pub path: PathBuf,
    map: memmap2::Mmap,
    offset: usize,
}

impl LayerFile {
    /// Map a layer file and check its header against what the caller expects (`game`, `rules`,
    /// `index_order`, `layer`, `entries`). The checksum is checked only by
    /// [`LayerFile::verify_checksum`], since it reads the whole payload.
    pub fn open(
        path: &Path,
        game: &str,
        rules: &str,
        index_order: &str,
        layer: u32,
        entries: u64,
    ) -> Result<Self, DbError> {
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
        if header.format_version != FORMAT_VERSION {
            return Err(DbError::Version { path: p(), found: header.format_version });
        }
        let found =
            format!("game {} rules {} index {} layer {}", header.game, header.rules, header.index_order, header.layer);
        let expected = format!("game {game} rules {rules} index {index_order} layer {layer}");
        if found != expected {
            return Err(DbError::Foreign { path: p(), found, expected });
        }
        let offset = payload_offset(hl);
        let have = map.len().saturating_sub(offset) as u64;
        if header.entries != entries || have != entries {
            return Err(DbError::Size { path: p(), found: have, expected: entries });
        }
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        Ok(LayerFile { header, path: path.to_path_buf(), map, offset })
    }

    pub fn values(&self) -> &[i8] {
        let b = &self.map[self.offset..];
        // SAFETY: as in `as_bytes`.
        unsafe { std::slice::from_raw_parts(b.as_ptr() as *const i8, b.len()) }
    }

    pub fn verify_checksum(&self) -> Result<(), DbError> {
        let found = checksum(&self.map[self.offset..]);
        if found != self.header.checksum {
            return Err(DbError::Checksum { path: self.path.clone(), found, expected: self.header.checksum });
        }
        Ok(())
    }
}

impl AsRef<[i8]> for LayerFile {
    fn as_ref(&self) -> &[i8] {
        self.values()
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
    /// Map layer `n`, checking its header (`entries` = the layer's size).
    pub fn open(&self, n: usize, entries: u64) -> Result<LayerFile, DbError> {
        LayerFile::open(&(self.path)(n), self.game, &self.rules, self.index_order, n as u32, entries)
    }

    /// Write layer `n` atomically with its header.
    pub fn write(&self, n: usize, values: &[i8]) -> Result<Header, DbError> {
        let header = Header {
            format_version: FORMAT_VERSION,
            game: self.game.into(),
            rules: self.rules.clone(),
            index_order: self.index_order.into(),
            layer: n as u32,
            entries: 0,
            checksum: 0,
        };
        write_layer(&(self.path)(n), header, values)
    }

    /// Open the consecutive layers `0..` present (at most `0..=max`); an empty list when
    /// layer 0 is missing.
    pub fn open_present(&self, max: usize, size: impl Fn(usize) -> u64) -> Result<Vec<LayerFile>, DbError> {
        let mut layers = Vec::new();
        for n in 0..=max {
            if !(self.path)(n).exists() {
                break;
            }
            layers.push(self.open(n, size(n))?);
        }
        Ok(layers)
    }
}
