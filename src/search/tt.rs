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
        Table { entries: vec![Entry::default(); 1 << bits], mask: (1u64 << bits) - 1 }
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
