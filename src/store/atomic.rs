//! The one atomic write of the project. A file is written under a hidden sibling name
//! (`.NAME.tmp` in the same directory, so the rename cannot cross file systems), flushed and
//! fsynced, renamed over `NAME`, and the directory is fsynced so the rename itself survives a
//! crash. Until [`AtomicFile::commit`] the final name holds its old content (or nothing); a
//! dropped, uncommitted file removes its temporary.
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The temporary sibling an atomic write of `path` uses.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    path.with_file_name(format!(".{name}.tmp"))
}

/// A file being written atomically; [`Write`] goes to the temporary.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Start writing `path` (its temporary is created, truncating a leftover from a killed run).
    /// The temporary is locked while it is written: a second writer of the same file gets an
    /// error of kind [`io::ErrorKind::WouldBlock`] instead of writing into the first's bytes.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let tmp = temp_path(path);
        let file = lock_temp(&tmp)?;
        let out = BufWriter::with_capacity(1 << 20, file);
        Ok(AtomicFile { path: path.to_path_buf(), tmp, out: Some(out) })
    }

    /// The final name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary's name (for error messages about a failed write).
    pub fn temp(&self) -> &Path {
        &self.tmp
    }

    /// The temporary itself, for positional writes (`FileExt::write_all_at`, `set_len`) by a
    /// writer that does not use [`Write`]: bytes written through [`Write`] are buffered, so
    /// the two must not be mixed.
    pub fn file(&self) -> &File {
        self.out.as_ref().expect("not committed").get_ref()
    }

    /// Flush, fsync, rename over the final name, fsync the directory. A failure before the
    /// rename (a full disk shows at the flush) removes the temporary.
    pub fn commit(mut self) -> io::Result<()> {
        let out = self.out.take().expect("an AtomicFile is committed once");
        // The file (and its lock) stays open until after the rename, so no second writer can
        // take the temporary between the fsync and the rename.
        let file = out.into_inner().map_err(|e| e.into_error());
        if let Err(e) = file.and_then(|f| f.sync_all().and_then(|()| fs::rename(&self.tmp, &self.path)).map(|()| f)) {
            let _ = fs::remove_file(&self.tmp);
            return Err(e);
        }
        sync_dir(&self.path)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.as_mut().expect("not committed").write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.as_mut().expect("not committed").write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Open and lock the temporary `tmp` of `path`, then empty it. A leftover of a killed run is
/// taken over (its lock died with it); one whose writer is alive is refused. The temporary is
/// locked before it is emptied, and the lock is kept only if the name still points at the
/// locked file: a writer that renamed it away between our open and our lock released a file
/// that is now its output.
fn lock_temp(tmp: &Path) -> io::Result<File> {
    use std::os::unix::fs::MetadataExt;
    for _ in 0..8 {
        let file = fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(tmp)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                // Callers name the file (and its flag) in their context.
                return Err(io::Error::new(io::ErrorKind::WouldBlock, "another run is writing this file now"));
            }
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
        let (held, named) = (file.metadata()?, fs::metadata(tmp));
        if named.is_ok_and(|m| m.ino() == held.ino() && m.dev() == held.dev()) {
            file.set_len(0)?;
            return Ok(file);
        }
    }
    Err(io::Error::other(format!("{}: the temporary keeps changing under another writer", tmp.display())))
}

/// Write `bytes` as the whole content of `path`, atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes)?;
    f.commit()
}

/// Make a rename in `path`'s directory durable.
fn sync_dir(path: &Path) -> io::Result<()> {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => sync_directory(d),
        _ => sync_directory(Path::new(".")),
    }
}

/// Make the entries of `dir` durable. Directories cannot be fsynced on every platform; where
/// opening one fails, its entries are as durable as the platform makes them.
pub(crate) fn sync_directory(dir: &Path) -> io::Result<()> {
    match File::open(dir) {
        Ok(d) => d.sync_all().or(Ok(())),
        Err(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_committed_file_replaces_the_old_one_and_leaves_no_temporary() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x.csv");
        fs::write(&p, "old").unwrap();
        let mut f = AtomicFile::create(&p).unwrap();
        f.write_all(b"new").unwrap();
        // Before the commit the final name still holds the old content.
        assert_eq!(fs::read_to_string(&p).unwrap(), "old");
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "new");
        let names: Vec<_> = fs::read_dir(d.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("x.csv")]);
    }

    #[test]
    fn a_dropped_file_leaves_the_old_content_and_no_temporary() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x.csv");
        fs::write(&p, "old").unwrap();
        {
            let mut f = AtomicFile::create(&p).unwrap();
            f.write_all(b"half").unwrap();
        }
        assert_eq!(fs::read_to_string(&p).unwrap(), "old");
        assert!(!temp_path(&p).exists());
    }

    #[test]
    fn a_second_writer_of_the_same_file_is_refused_until_the_first_commits() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x.csv");
        let mut a = AtomicFile::create(&p).unwrap();
        a.write_all(b"first").unwrap();
        let e = AtomicFile::create(&p).err().unwrap();
        assert_eq!(e.kind(), io::ErrorKind::WouldBlock);
        assert!(e.to_string().contains("another run is writing"), "{e}");
        a.commit().unwrap();
        let mut b = AtomicFile::create(&p).unwrap();
        b.write_all(b"second").unwrap();
        b.commit().unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "second");
    }

    #[test]
    fn write_atomic_writes_the_bytes() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.json");
        write_atomic(&p, b"{}\n").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"{}\n");
    }
}
