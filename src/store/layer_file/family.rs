//! The layer files of one table family (a game under fixed rules): their names and the header
//! each must have.

use super::header::{DbError, Expected, Header};
use super::layout::FORMAT_VERSION;
use super::read::LayerFile;
use super::write::{write_layer, write_layer_from};
use std::path::{Path, PathBuf};

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
        unsafe { crate::store::resident::forget(&f.map) };
        Ok(f)
    }

    /// The header of layer `n` before its writer fills in the entries and the checksum (the
    /// sliced writer's too, [`super::SlicedLayer`]).
    pub(super) fn header(&self, n: usize, entries: u64) -> Header {
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
