//! A layer of an endgame database as a reader sees it: a raw file ([`LayerFile`], one byte per
//! position, mapped) or a packed one ([`PackedFile`], compressed blocks). Both carry the same
//! header and the same CRC-32 of the values, and both keep the same damage contract: a value of
//! a damaged block reads as 0 and [`Layer::damage`] reports it.

use super::layer_file::{DbError, Expected, Family, Header, LayerFile};
use super::packed::{self, PackedFile};
use std::borrow::Cow;
use std::path::Path;

pub enum Layer {
    Raw(LayerFile),
    Packed(PackedFile),
}

impl Layer {
    /// Open the layer file at `path` of either kind (told by its magic), its header checked
    /// against what the caller expects (as [`LayerFile::open`]).
    pub fn open(path: &Path, want: &Expected<'_>) -> Result<Self, DbError> {
        Ok(if packed::is_packed(path) {
            Layer::Packed(PackedFile::open(path, want)?)
        } else {
            Layer::Raw(LayerFile::open(path, want)?)
        })
    }

    pub fn header(&self) -> &Header {
        match self {
            Layer::Raw(f) => &f.header,
            Layer::Packed(f) => &f.header,
        }
    }

    pub fn path(&self) -> &Path {
        match self {
            Layer::Raw(f) => &f.path,
            Layer::Packed(f) => &f.path,
        }
    }

    pub fn is_packed(&self) -> bool {
        matches!(self, Layer::Packed(_))
    }

    /// The value of rank `rank` (0, and the damage recorded, from a damaged block).
    #[inline]
    pub fn value(&self, rank: u64) -> i8 {
        match self {
            Layer::Raw(f) => f.value(rank),
            Layer::Packed(f) => f.value(rank),
        }
    }

    /// The first damaged block a read met, as the error to report.
    pub fn damage(&self) -> Result<(), DbError> {
        match self {
            Layer::Raw(f) => f.damage(),
            Layer::Packed(f) => f.damage(),
        }
    }

    /// Check every block now (a packed layer also checks its values' CRC-32).
    pub fn verify(&self) -> Result<(), DbError> {
        match self {
            Layer::Raw(f) => f.verify(),
            Layer::Packed(f) => f.verify(),
        }
    }

    /// Check every block now and, for a packed layer, keep its values decompressed in memory
    /// (its raw size) for the reads to come ([`PackedFile::make_resident`]).
    pub fn make_resident(&self) -> Result<(), DbError> {
        match self {
            Layer::Raw(f) => f.verify(),
            Layer::Packed(f) => f.make_resident(),
        }
    }

    /// Every value, checked: the mapped bytes of a raw layer, a packed one decompressed.
    pub fn values(&self) -> Result<Cow<'_, [i8]>, DbError> {
        match self {
            Layer::Raw(f) => f.values().map(Cow::Borrowed),
            Layer::Packed(f) => f.values().map(Cow::Owned),
        }
    }
}

impl Family<'_> {
    /// Open the consecutive layers `0..` present (at most `0..=max`), raw or packed; an empty
    /// list when layer 0 is missing. Blocks are checked as they are read.
    pub fn open_present_any(&self, max: usize, size: impl Fn(usize) -> u64) -> Result<Vec<Layer>, DbError> {
        let mut layers = Vec::new();
        for n in 0..=max {
            let path = (self.path)(n);
            if !path.exists() {
                break;
            }
            layers.push(Layer::open(&path, &self.expected(n, size(n)))?);
        }
        Ok(layers)
    }
}
