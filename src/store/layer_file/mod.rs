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
//!
//! The bytes around the payload and the block CRCs are [`layout`]'s, the header and the errors
//! [`header`]'s; [`read`] maps and checks a file, [`write`] writes one whole and [`sliced`] in
//! slices by several writers; [`family`] names the files of one table family.

mod family;
mod header;
mod layout;
mod read;
mod sliced;
#[cfg(test)]
mod tests;
mod write;

pub use family::Family;
pub use header::{DbError, Expected, Header};
pub use layout::{as_bytes, checksum, BLOCK, BLOCK_SHIFT, FORMAT_VERSION, MAGIC};
pub use read::LayerFile;
pub use sliced::{write_slice, SliceTarget, SlicedLayer};
pub use write::{write_layer, write_layer_from};
