//! Transposition table: a fixed-size array indexed by key bits, holding a proven interval
//! and the best move found. Always-replace: cheap, and the intervals it loses are
//! recomputed, never wrong.

#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    pub lo: i8,
    pub hi: i8,
    pub best: u8,
    used: bool,
}

pub struct Table {
    entries: Vec<Entry>,
    mask: u64,
}

impl Table {
    /// `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Self {
        let n = 1usize << bits;
        // All-zero bytes are a valid unused entry (key 0, bounds 0, `used` false), so the table
        // is allocated zeroed: the OS then hands out pages lazily and a 64 MiB table costs
        // nothing until touched (writing it cost some 40 ms per search on small positions).
        let layout = std::alloc::Layout::array::<Entry>(n).expect("table size");
        // SAFETY: the memory comes from the global allocator with the layout of a `Vec<Entry>`
        // of capacity n, and zeroed bytes are a valid `Entry` (integers and a `false` bool).
        let entries = unsafe {
            let p = std::alloc::alloc_zeroed(layout) as *mut Entry;
            if p.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            Vec::from_raw_parts(p, n, n)
        };
        Table { entries, mask: (1u64 << bits) - 1 }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        // Fibonacci hashing spreads structured keys (ranks) over the table.
        ((key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) & self.mask) as usize
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.slot(key)];
        (e.used && e.key == key).then_some(e)
    }

    pub fn put(&mut self, key: u64, lo: i32, hi: i32, best: u8) {
        let s = self.slot(key);
        self.entries[s] = Entry { key, lo: lo as i8, hi: hi as i8, best, used: true };
    }
}
