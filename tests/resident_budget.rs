//! The resident-memory watcher (`store::resident`): pages of a read-only file map read past
//! the budget are dropped from the process, and read back intact. Its own test binary: the RSS
//! it measures is the whole process's.

use mancala::store::resident::{rss, Watcher};
use std::io::Write;
use std::time::Duration;

#[test]
fn pages_of_a_read_only_map_are_dropped_past_the_budget_and_read_back_intact() {
    let mut f = tempfile::tempfile().unwrap();
    let bytes: Vec<u8> = (0..64u32 << 20).map(|i| (i.wrapping_mul(2654435761) >> 24) as u8).collect();
    f.write_all(&bytes).unwrap();
    // SAFETY: the test's own file, not written while mapped.
    let map = unsafe { memmap2::Mmap::map(&f) }.unwrap();
    let base = rss().unwrap();
    // A budget the 64 MiB map cannot fit beside what the process already holds.
    let mut w = Watcher::start(base + (16 << 20));
    // SAFETY: `map` is read-only and file-backed, and outlives the watcher.
    let key = unsafe { w.add(&map) };
    let mut peak = 0;
    let mut sum = 0u64;
    for (i, chunk) in map.chunks(1 << 20).enumerate() {
        sum += chunk.iter().map(|&b| b as u64).sum::<u64>();
        assert_eq!(chunk, &bytes[i << 20..(i + 1) << 20]);
        std::thread::sleep(Duration::from_millis(2));
        peak = peak.max(rss().unwrap());
    }
    assert_eq!(sum, bytes.iter().map(|&b| b as u64).sum::<u64>());
    assert!(w.drops() > 0, "never dropped");
    // The bytes compared above are in RSS too (the Vec); the map alone stayed far below 64 MiB.
    assert!(peak < base + (48 << 20), "peak {} MiB over {} MiB", peak >> 20, base >> 20);
    w.remove(key);
}
