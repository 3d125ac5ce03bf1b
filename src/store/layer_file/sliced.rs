//! A layer file written in slices by several writers ([`SlicedLayer`]): the same bytes
//! [`super::write_layer`] writes from the whole layer.

use super::family::Family;
use super::header::{encode_head, io_err, DbError, Header};
use super::layout::{as_bytes, block_count, checksum, combine_blocks, payload_offset, prefix, BLOCK};
use crate::store::AtomicFile;
use std::io;
use std::path::PathBuf;

/// Where the writers of a layer written in slices put their values: the temporary (the layer
/// file's hidden sibling, [`crate::store::atomic::temp_path`]) and the payload's offset in it.
#[derive(Clone, Debug)]
pub struct SliceTarget {
    pub temp: PathBuf,
    pub offset: u64,
    pub entries: u64,
}

/// A layer file written in slices, each by its own writer, so that no writer holds the whole
/// layer (the processes of a distributed build; a layer of 36 seeds is tens of GB). The first
/// writer creates the temporary at its full length ([`Family::begin_sliced`]); every writer,
/// it included, writes its slice in place ([`write_slice`]) and returns the CRCs of the slice's
/// blocks; the first writer puts the header and block table in front and renames the file into
/// place ([`SlicedLayer::finish`]). Slices start on block boundaries, so each block's CRC comes
/// from the one writer that holds the block, and the whole payload's CRC is combined from the
/// blocks' (nobody reads the payload back). Until the rename the layer has no file under its
/// name; dropping the `SlicedLayer` removes the temporary.
pub struct SlicedLayer {
    file: AtomicFile,
    header: Header,
}

/// Write one slice of a layer (`values`, from rank `start`, a multiple of [`BLOCK`] unless the
/// slice is empty) into the temporary [`Family::begin_sliced`] created, durably; returns the
/// CRC of each of its blocks.
pub fn write_slice(target: &SliceTarget, start: u64, values: &[i8]) -> Result<Vec<u32>, DbError> {
    use std::os::unix::fs::FileExt;
    assert!(values.is_empty() || start.is_multiple_of(BLOCK as u64), "a slice starts on a block boundary");
    assert!(start + values.len() as u64 <= target.entries, "a slice lies inside the layer");
    let bytes = as_bytes(values);
    let path = &target.temp;
    // Not created here: a missing temporary means the first writer failed.
    let f = std::fs::OpenOptions::new().write(true).open(path).map_err(io_err(path))?;
    f.write_all_at(bytes, target.offset + start).map_err(io_err(path))?;
    f.sync_data().map_err(io_err(path))?;
    Ok(bytes.chunks(BLOCK).map(checksum).collect())
}

impl SlicedLayer {
    /// Put the header and the block table (`crcs`: every block's, in order) in front and
    /// rename the file into place.
    pub fn finish(mut self, crcs: &[u32]) -> Result<Header, DbError> {
        use std::os::unix::fs::FileExt;
        let path = self.file.path().to_path_buf();
        let entries = self.header.entries;
        assert_eq!(crcs.len(), block_count(entries), "one CRC per block");
        self.header.checksum = combine_blocks(crcs, entries);
        let head = encode_head(&path, &self.header)?;
        let tmp = self.file.temp().to_path_buf();
        self.file.file().write_all_at(&prefix(&head, crcs), 0).map_err(io_err(&tmp))?;
        self.file.commit().map_err(io_err(&path))?;
        Ok(self.header)
    }
}

impl Family<'_> {
    /// Where the slices of layer `n` (of `entries` values) go when it is written in slices
    /// ([`SlicedLayer`]); every writer computes the same target.
    pub fn slice_target(&self, n: usize, entries: u64) -> Result<SliceTarget, DbError> {
        let path = (self.path)(n);
        let head = encode_head(&path, &self.header(n, entries))?;
        let offset = payload_offset(head.len(), block_count(entries)) as u64;
        Ok(SliceTarget { temp: crate::store::atomic::temp_path(&path), offset, entries })
    }

    /// Start writing layer `n` in slices: its temporary is created at its full length and the
    /// disk space reserved where the file system can (so a full disk shows here, before any
    /// slice is written).
    pub fn begin_sliced(&self, n: usize, entries: u64) -> Result<SlicedLayer, DbError> {
        use std::os::fd::AsRawFd;
        let path = (self.path)(n);
        let target = self.slice_target(n, entries)?;
        let file = AtomicFile::create(&path).map_err(io_err(&path))?;
        let len = target.offset + entries;
        file.file().set_len(len).map_err(io_err(&target.temp))?;
        // SAFETY: a plain call on an open descriptor; it returns an error number.
        let r = unsafe { libc::posix_fallocate(file.file().as_raw_fd(), 0, len as libc::off_t) };
        // Some file systems (NFS v3, ...) cannot reserve: the slices' writes then find a full disk.
        if r != 0 && r != libc::EOPNOTSUPP && r != libc::EINVAL {
            return Err(DbError::Io { path: target.temp, source: io::Error::from_raw_os_error(r) });
        }
        Ok(SlicedLayer { file, header: self.header(n, entries) })
    }
}

#[cfg(test)]
mod tests {
    use super::super::write_layer;
    use super::*;

    /// A layer written in three slices by three writers (the last one short, one empty) is
    /// byte for byte the file one writer makes of the whole layer.
    #[test]
    fn a_layer_written_in_slices_is_the_same_file() {
        let d = tempfile::tempdir().unwrap();
        let n = 5 * BLOCK + 123;
        let values: Vec<i8> = (0..n).map(|i| ((i * 7919) % 11) as i8 - 5).collect();
        let whole = d.path().join("whole.db");
        let sliced = d.path().join("sliced.db");
        let path_of = |_: usize| sliced.clone();
        let family = Family { game: "g", rules: "{}".into(), index_order: "lex", path: &path_of };
        let h = write_layer(&whole, family.header(3, 0), &values).unwrap();
        let target = family.slice_target(3, n as u64).unwrap();
        let writing = family.begin_sliced(3, n as u64).unwrap();
        assert!(!sliced.exists(), "no file under the layer's name before finish");
        let mut crcs = Vec::new();
        for r in [0..2 * BLOCK, 2 * BLOCK..n, n..n] {
            crcs.extend(write_slice(&target, r.start as u64, &values[r]).unwrap());
        }
        assert_eq!(writing.finish(&crcs).unwrap(), h);
        assert_eq!(std::fs::read(&sliced).unwrap(), std::fs::read(&whole).unwrap());
        assert!(!target.temp.exists());
        assert_eq!(family.open_verified(3, n as u64).unwrap().values().unwrap(), &values[..]);
    }

    /// A sliced write abandoned before `finish` leaves no file under the layer's name and no
    /// temporary.
    #[test]
    fn an_abandoned_sliced_write_leaves_nothing() {
        let d = tempfile::tempdir().unwrap();
        let sliced = d.path().join("l.db");
        let path_of = |_: usize| sliced.clone();
        let family = Family { game: "g", rules: "{}".into(), index_order: "lex", path: &path_of };
        let target = family.slice_target(3, 10).unwrap();
        let writing = family.begin_sliced(3, 10).unwrap();
        write_slice(&target, 0, &[1; 10]).unwrap();
        drop(writing);
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
    }
}
