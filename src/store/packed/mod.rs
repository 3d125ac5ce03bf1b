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
//!
//! This file holds the format (its constants and [`PackInfo`]); `write` packs a layer, `read`
//! reads one, `codec` codes a block.

use super::layer_file::DbError;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io;
use std::path::Path;

mod codec;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use read::PackedFile;
pub use write::pack_layer;

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

/// Bytes of values the packer reads, and a packed layer is checked, at a time: whole blocks of
/// both formats (64 KiB raw, 8 Ki values packed), so the process holds a slice of a layer
/// of any size, never the whole of it.
const SLICE: usize = BLOCK * BATCH;
