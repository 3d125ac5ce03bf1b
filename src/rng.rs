//! The project's pseudo-random numbers: reproducible, dependency-free, and not for
//! cryptography. Samples must be pure functions of `(seed, index)` so that a sample can be
//! split across threads or shards, or extended, without changing its rows; SplitMix64's
//! output function gives that. Tests and benches that walk random games use [`XorShift64Star`],
//! a small sequential generator whose sequences are fixed by their seed.

/// The SplitMix64 increment (2^64 / golden ratio, odd).
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (Steele, Lea & Flood 2014): a bijective 64-bit mix.
#[inline]
pub const fn mix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The SplitMix64 output that follows state `x`: a pure function, so output `i` of a stream
/// is `splitmix64(seed + i·GOLDEN)`.
#[inline]
pub const fn splitmix64(x: u64) -> u64 {
    mix64(x.wrapping_add(GOLDEN))
}

/// A uniform integer below `n` from a 64-bit random word, by multiply-shift (bias below
/// n / 2^64).
#[inline]
pub const fn below(word: u64, n: u64) -> u64 {
    ((word as u128 * n as u128) >> 64) as u64
}

/// xorshift64* (Vigna 2016): a sequential generator for walking random games in tests and
/// benches. The seed must not be 0.
#[derive(Clone, Debug)]
pub struct XorShift64Star(pub u64);

impl XorShift64Star {
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// `next_u64() % n`: the modulo keeps the sequences the tests were written against.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // Reference: SplitMix64 seeded with 0 yields 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, …
        // (Vigna's splitmix64.c: state += GOLDEN, then mix).
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(GOLDEN), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn xorshift64star_first_outputs() {
        // Seed 1: state 1 -> 1 ^ 0 = 1; 1 ^ (1 << 25) = 0x2000001; ^ (>> 27) = 0x2000001;
        // times the multiplier.
        let mut r = XorShift64Star(1);
        assert_eq!(r.next_u64(), 0x0200_0001u64.wrapping_mul(0x2545_F491_4F6C_DD1D));
    }

    #[test]
    fn below_is_in_range_and_uses_the_high_bits() {
        assert_eq!(below(u64::MAX, 10), 9);
        assert_eq!(below(0, 10), 0);
        assert_eq!(below(1 << 63, 10), 5);
    }
}
