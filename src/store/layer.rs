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

    /// The values `start..start + out.len()` read from the file, every block read checked
    /// ([`LayerFile::read_at`], [`PackedFile::read_at`]): `start` is a multiple of the raw
    /// [`super::layer_file::BLOCK`] (which is one of the packed one) and the range ends on one
    /// or at the end of the layer.
    pub fn read_at(&self, start: u64, out: &mut [i8]) -> Result<(), DbError> {
        match self {
            Layer::Raw(f) => f.read_at(start, out),
            Layer::Packed(f) => f.read_at(start, out),
        }
    }

    /// The raw layer file, or an error naming the packed one and `why` a raw one is needed.
    pub fn into_raw(self, why: &str) -> Result<LayerFile, DbError> {
        match self {
            Layer::Raw(f) => Ok(f),
            Layer::Packed(f) => Err(DbError::Packed { path: f.path, why: format!("packed; {why}") }),
        }
    }

    /// The mapped values of a raw layer (checked, [`LayerFile::verify`], before they are
    /// relied on), or an error naming the packed one and `why` a raw one is needed.
    pub fn raw(&self, why: &str) -> Result<&LayerFile, DbError> {
        match self {
            Layer::Raw(f) => Ok(f),
            Layer::Packed(f) => Err(DbError::Packed { path: f.path.clone(), why: format!("packed; {why}") }),
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

    /// [`Family::open_present_any`], each layer checked whole now: a raw one as
    /// [`Family::open_verified`] (its pages then dropped from the process), a packed one by
    /// reads from its file ([`PackedFile::check_reads`]: every block, and the values' CRC-32
    /// against its header's). A build resumes from these.
    pub fn open_present_checked(&self, max: usize, size: impl Fn(usize) -> u64) -> Result<Vec<Layer>, DbError> {
        let mut layers = Vec::new();
        for n in 0..=max {
            let path = (self.path)(n);
            if !path.exists() {
                break;
            }
            layers.push(if packed::is_packed(&path) {
                let f = PackedFile::open(&path, &self.expected(n, size(n)))?;
                f.check_reads()?;
                Layer::Packed(f)
            } else {
                Layer::Raw(self.open_verified(n, size(n))?)
            });
        }
        Ok(layers)
    }
}
