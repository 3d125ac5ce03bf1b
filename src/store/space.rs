//! Free space on the file system of a directory, so a run that cannot fit its output refuses
//! before it computes anything (and a full disk found mid-run is reported as such).
use std::io;
use std::path::Path;

/// Bytes an unprivileged writer may still use on the file system holding `path` (the nearest
/// existing ancestor when `path` does not exist yet).
pub fn available(path: &Path) -> io::Result<u64> {
    let mut p = path;
    while !p.exists() {
        match p.parent() {
            Some(q) if !q.as_os_str().is_empty() => p = q,
            _ => {
                p = Path::new(".");
                break;
            }
        }
    }
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).map_err(io::Error::other)?;
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a NUL-terminated path and `s` a statvfs the call fills.
    if unsafe { libc::statvfs(c.as_ptr(), &mut s) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(s.f_bavail as u64 * s.f_frsize as u64)
}

/// A failed write because the disk is full (ENOSPC, or EDQUOT for a quota).
pub fn is_disk_full(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::ENOSPC) | Some(libc::EDQUOT)) || e.kind() == io::ErrorKind::StorageFull
}

/// Why `need` bytes do not fit in `dir`, in one line, or `None` when they do (or when the
/// file system does not say).
pub fn shortfall(dir: &Path, need: u64) -> Option<String> {
    let have = available(dir).ok()?;
    (need > have).then(|| {
        format!("{} has {} free, the output needs about {}", dir.display(), human_bytes(have), human_bytes(need))
    })
}

/// `1.5 GiB`, `320 KiB`, `12 bytes`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if b < 1024 {
        return format!("{b} bytes");
    }
    let mut x = b as f64 / 1024.0;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    format!("{x:.1} {}", UNITS[u])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_space_of_a_new_path_is_its_existing_ancestors() {
        let d = tempfile::tempdir().unwrap();
        let a = available(d.path()).unwrap();
        assert!(a > 0);
        let deep = d.path().join("x/y/z");
        assert!(available(&deep).unwrap() > 0);
        assert!(shortfall(d.path(), 1).is_none());
        assert!(shortfall(d.path(), u64::MAX).unwrap().contains("needs about"));
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(12), "12 bytes");
    }
}
