//! An 8 MiB tmpfs the test mounts (root, as in CI), to fill the disk under a build.

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// An 8 MiB tmpfs, unmounted on drop.
pub struct Tmpfs(pub tempfile::TempDir);

impl Tmpfs {
    /// `None` where mounting is not permitted (the caller says the case was skipped).
    pub fn mount() -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=8192k", "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Tmpfs(dir))
    }

    /// Fill what is left with one file; its path.
    pub fn fill(&self) -> PathBuf {
        use std::io::Write;
        let p = self.0.path().join("filler");
        let mut f = std::fs::File::create(&p).unwrap();
        let chunk = vec![0x5au8; 4096];
        while f.write_all(&chunk).is_ok() {}
        while f.write_all(&chunk[..1]).is_ok() {}
        p
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        if !Command::new("umount").arg(self.0.path()).status().is_ok_and(|s| s.success()) {
            let _ = Command::new("umount").arg("-l").arg(self.0.path()).status();
        }
    }
}
