//! A layer file's header (serde + bincode), what a reader expects of it, and the errors of
//! reading and writing layer files.

use super::layout::{BLOCK, FORMAT_VERSION};
use serde::{Deserialize, Serialize};
use std::io;
use std::path::{Path, PathBuf};

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

pub(super) fn io_err(path: &Path) -> impl FnOnce(io::Error) -> DbError + '_ {
    move |source| DbError::Io { path: path.to_path_buf(), source }
}

pub(super) fn bincode_config() -> impl bincode::config::Config {
    // The limit keeps a damaged length field from asking for gigabytes (a header is < 1 KiB).
    bincode::config::standard().with_little_endian().with_fixed_int_encoding().with_limit::<{ 1 << 20 }>()
}

/// The header's bytes (bincode; fixed-width integers, so the length does not depend on the
/// entry count or the checksum).
pub(super) fn encode_head(path: &Path, header: &Header) -> Result<Vec<u8>, DbError> {
    bincode::serde::encode_to_vec(header, bincode_config())
        .map_err(|e| DbError::Header { path: path.to_path_buf(), why: e.to_string() })
}
