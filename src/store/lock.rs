//! One writer per directory: an advisory lock (`flock`) on a hidden file in the directory,
//! held for the whole run. The kernel drops it when the process ends, however it ends, so a
//! killed run never leaves a stale lock; the file keeps the holder's pid and command line so
//! a second writer can say who holds it.
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The lock file of a directory's writer (or of one named writer when several may write the
/// directory at once, as the shards of a sweep do, each its own part).
pub fn lock_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.lock"))
}

/// A held lock; dropping it releases the lock (the file stays, empty of meaning).
#[derive(Debug)]
pub struct DirLock {
    _file: File,
    path: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the lock: who, as it wrote itself down.
    #[error("{dir} is being written by another run ({holder}); wait for it to end or use another directory")]
    Held { dir: PathBuf, holder: String },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
}

impl DirLock {
    /// Lock `dir` (created if missing) for the writer `name`, alone, or say who holds it.
    pub fn acquire(dir: &Path, name: &str) -> Result<DirLock, LockError> {
        Self::take(dir, name, false)
    }

    /// Lock `dir` for the writer `name` beside others that take it shared (the shards of a
    /// sweep, each writing its own part), excluding one that takes it alone (a merge, which
    /// republishes the whole directory).
    pub fn acquire_shared(dir: &Path, name: &str) -> Result<DirLock, LockError> {
        Self::take(dir, name, true)
    }

    fn take(dir: &Path, name: &str, shared: bool) -> Result<DirLock, LockError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| LockError::Io { path, source }
        };
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let path = lock_path(dir, name);
        // Neither truncate nor create-new: the holder's record must survive our open.
        let mut file =
            OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(io(&path))?;
        match if shared { file.try_lock_shared() } else { file.try_lock() } {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                let holder = if holder.is_empty() { "a process that has not written its name yet" } else { holder };
                return Err(LockError::Held { dir: dir.to_path_buf(), holder: holder.to_string() });
            }
            Err(TryLockError::Error(e)) => return Err(io(&path)(e)),
        }
        let me = format!("pid {}: {}", std::process::id(), std::env::args().collect::<Vec<_>>().join(" "));
        // Shared holders take turns writing their name; the last one is the one reported.
        (|| {
            file.set_len(0)?;
            file.rewind()?;
            file.write_all(me.as_bytes())?;
            file.flush()
        })()
        .map_err(io(&path))?;
        Ok(DirLock { _file: file, path })
    }

    /// The lock file (it stays in the directory; only the lock on it comes and goes).
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_with_the_holder_and_admitted_after_the_first_ends() {
        let d = tempfile::tempdir().unwrap();
        let first = DirLock::acquire(d.path(), "build").unwrap();
        match DirLock::acquire(d.path(), "build") {
            Err(LockError::Held { holder, .. }) => {
                assert!(holder.starts_with(&format!("pid {}: ", std::process::id())), "{holder}")
            }
            other => panic!("expected Held, got {other:?}"),
        }
        // Another writer name is another lock (shards of one sweep write side by side).
        let other = DirLock::acquire(d.path(), "part-1-of-2").unwrap();
        drop(first);
        DirLock::acquire(d.path(), "build").unwrap();
        drop(other);
        let a = DirLock::acquire_shared(d.path(), "sweep").unwrap();
        let b = DirLock::acquire_shared(d.path(), "sweep").unwrap();
        assert!(matches!(DirLock::acquire(d.path(), "sweep"), Err(LockError::Held { .. })));
        drop((a, b));
        DirLock::acquire(d.path(), "sweep").unwrap();
    }
}
