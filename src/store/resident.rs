//! Keeping a process's resident memory within a budget while it reads mapped files at random.
//!
//! A build reads its lower layers through read-only maps; every page it touches stays mapped
//! into the process (counted in its RSS) until the map is dropped, so a build of layer 20 over
//! 160 MB of lower layers reaches 160 MB + its working arrays whatever `--memory` says. The
//! kernel keeps the pages in its page cache anyway: dropping them from the process
//! (`madvise(MADV_DONTNEED)`, which for a read-only file map only forgets the page table
//! entries) costs a minor fault at the next read and nothing else. A [`Watcher`] samples the
//! RSS and drops the pages of the regions registered with it when the RSS passes its trigger.
//!
//! Only read-only file maps may be registered: on an anonymous or privately written map the
//! same call would discard data. A region must stay mapped until it is removed or the watcher
//! is dropped (which joins its thread), so a page is never advised after its map is gone.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the RSS is sampled: a sequential pass over a map (a checksum) faults pages in at
/// a few GB/s, so a few MB arrive between two samples, within the budget's slack (an eighth)
/// from budgets of about 64 MB; a sample (reading `/proc/self/statm`) costs about 10 µs.
const PERIOD: Duration = Duration::from_millis(2);

/// The share of the budget at which the registered pages are dropped (7/8: the rest is
/// slack for the pages faulted in between samples).
fn trigger(budget: u64) -> u64 {
    budget - budget / 8
}

/// The resident set of this process in bytes (`/proc/self/statm`), `None` where it is unknown.
pub fn rss() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size())
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as u64
    } else {
        4096
    }
}

/// Drop the pages of `bytes` from the process now (they stay in the page cache): after a
/// pass that read them all once, such as a checksum check.
///
/// # Safety
/// `bytes` must lie in a read-only, file-backed map (on any other memory the call discards
/// data).
pub unsafe fn forget(bytes: &[u8]) {
    // SAFETY: the caller's promise; the range is within the map's pages.
    unsafe { Region::of(bytes).advise(libc::MADV_DONTNEED) };
}

/// Start reading the pages of `bytes` into the page cache in the background
/// (`MADV_WILLNEED`): a pass about to read a file it does not expect cached asks for it a
/// step ahead, so the disk works while the CPU sums what came before.
///
/// # Safety
/// `bytes` must lie in a read-only, file-backed map.
pub unsafe fn will_need(bytes: &[u8]) {
    // SAFETY: the caller's promise; advice changes no data.
    unsafe { Region::of(bytes).advise(libc::MADV_WILLNEED) };
}

/// Take the pages of `bytes` out of the page cache as well as out of the process
/// (`MADV_PAGEOUT`, Linux 5.4+; elsewhere only out of the process, as [`forget`]): a pass
/// that streams a file bigger than the cache can keep lets the files it keeps stay cached.
/// Pages another process maps are left alone by the kernel.
///
/// # Safety
/// `bytes` must lie in a read-only, file-backed map (on anonymous memory the call would
/// swap out or discard data).
pub unsafe fn page_out(bytes: &[u8]) {
    #[cfg(target_os = "linux")]
    // SAFETY: the caller's promise; the clean pages of a read-only file map are read again
    // from the file when next touched.
    let done = unsafe { Region::of(bytes).advise(libc::MADV_PAGEOUT) };
    #[cfg(not(target_os = "linux"))]
    let done = false;
    if !done {
        // SAFETY: as above.
        unsafe { forget(bytes) };
    }
}

/// Bytes of file pages the page cache can hold beside every process's anonymous memory:
/// `MemTotal − AnonPages` of `/proc/meminfo` (`None` where it is unknown). Sampled when a pass
/// starts, so it sees the memory of whatever else shares the machine then.
pub fn cache_room() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = info.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line[name.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
        Some(kb * 1024)
    };
    Some(field("MemTotal:")?.saturating_sub(field("AnonPages:")?))
}

/// A page-aligned address range of a read-only file map.
#[derive(Clone, Copy)]
struct Region {
    start: usize,
    len: usize,
}

impl Region {
    /// The pages `bytes` lies on (the first page starts the map or lies in it).
    fn of(bytes: &[u8]) -> Region {
        let page = page_size() as usize;
        let start = bytes.as_ptr() as usize & !(page - 1);
        Region { start, len: (bytes.as_ptr() as usize + bytes.len() - start).div_ceil(page) * page }
    }

    /// `madvise` over the region; whether the kernel took the advice.
    ///
    /// # Safety
    /// The region must lie in a read-only, file-backed map that is still mapped.
    unsafe fn advise(self, advice: libc::c_int) -> bool {
        // SAFETY: the caller's promise.
        unsafe { libc::madvise(self.start as *mut libc::c_void, self.len, advice) == 0 }
    }
}

struct Shared {
    regions: Mutex<BTreeMap<u64, Region>>,
    stop: AtomicBool,
    drops: AtomicU64,
}

/// A thread that keeps the RSS under a budget by dropping the pages of registered read-only
/// file maps (see the module docs); stopped and joined on drop.
pub struct Watcher {
    shared: Arc<Shared>,
    next: u64,
    thread: Option<JoinHandle<()>>,
}

impl Watcher {
    /// Watch the RSS against `budget` bytes.
    pub fn start(budget: u64) -> Watcher {
        let shared = Arc::new(Shared {
            regions: Mutex::new(BTreeMap::new()),
            stop: AtomicBool::new(false),
            drops: AtomicU64::new(0),
        });
        let s = Arc::clone(&shared);
        let at = trigger(budget);
        let thread = std::thread::Builder::new()
            .name("resident".into())
            .spawn(move || {
                while !s.stop.load(Relaxed) {
                    if rss().is_some_and(|r| r > at) {
                        let regions = s.regions.lock().unwrap();
                        for r in regions.values() {
                            // SAFETY: a registered region is a read-only file map that stays
                            // mapped while registered (the lock is held here, and `remove`
                            // takes it); dropping its pages only makes the next read fault
                            // them in from the page cache.
                            unsafe { r.advise(libc::MADV_DONTNEED) };
                        }
                        s.drops.fetch_add(1, Relaxed);
                    }
                    std::thread::sleep(PERIOD);
                }
            })
            .expect("spawn the resident-memory watcher");
        Watcher { shared, next: 0, thread: Some(thread) }
    }

    /// Register the pages of `bytes` (part of a read-only file map) for dropping; its key for
    /// [`Watcher::remove`].
    ///
    /// # Safety
    /// `bytes` must lie in a read-only, file-backed map that stays mapped until the key is
    /// removed or the watcher is dropped.
    pub unsafe fn add(&mut self, bytes: &[u8]) -> u64 {
        let key = self.next;
        self.next += 1;
        self.shared.regions.lock().unwrap().insert(key, Region::of(bytes));
        key
    }

    /// Stop dropping the pages of a region (before its map goes).
    pub fn remove(&mut self, key: u64) {
        self.shared.regions.lock().unwrap().remove(&key);
    }

    /// How many times the pages were dropped so far.
    pub fn drops(&self) -> u64 {
        self.shared.drops.load(Relaxed)
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.shared.stop.store(true, Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pages of `bytes` (page-aligned) that are in the page cache (`mincore`).
    fn cached_pages(bytes: &[u8]) -> usize {
        let page = page_size() as usize;
        let mut vec = vec![0u8; bytes.len().div_ceil(page)];
        // SAFETY: the range is a live map; `vec` has one byte per page.
        let r = unsafe { libc::mincore(bytes.as_ptr() as *mut libc::c_void, bytes.len(), vec.as_mut_ptr()) };
        assert_eq!(r, 0);
        vec.iter().filter(|&&b| b & 1 == 1).count()
    }

    /// A read, synced file map leaves the page cache when paged out, and reading it again
    /// brings back the same bytes; `will_need` brings its pages back without a read.
    #[cfg(target_os = "linux")]
    #[test]
    fn paged_out_maps_leave_the_page_cache_and_read_back_the_same() {
        use std::io::Write;
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let data: Vec<u8> = (0..8u32 << 20).map(|i| (i * 7 % 251) as u8).collect();
        file.write_all(&data).unwrap();
        file.as_file().sync_all().unwrap();
        let map = unsafe { memmap2::Mmap::map(file.as_file()) }.unwrap();
        assert_eq!(crc32fast::hash(&map), crc32fast::hash(&data));
        let pages = map.len() / page_size() as usize;
        assert_eq!(cached_pages(&map), pages);
        unsafe { page_out(&map) };
        assert!(cached_pages(&map) < pages / 10, "{} of {pages} pages still cached", cached_pages(&map));
        unsafe { will_need(&map) };
        std::thread::sleep(Duration::from_millis(200));
        assert!(cached_pages(&map) > pages / 2, "read ahead: {} of {pages}", cached_pages(&map));
        assert_eq!(crc32fast::hash(&map), crc32fast::hash(&data));
        assert!(cache_room().is_some_and(|r| r > 0));
    }
}
