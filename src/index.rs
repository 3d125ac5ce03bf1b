//! Ranking of seed distributions ("stars and bars").
//!
//! A layer holds every way of putting `n` seeds into `P` pits: `C(n+P-1, P-1)` positions.
//! A position's **rank** is its index in the lexicographic order of `(p0, …, p_{P-1})`,
//! `p0` most significant. The order is fixed by the layer file format (`store::layer_file`), so that
//! checksums agree across builds and machines.
//!
//! rank(p) = Σ_i #{distributions that agree on p_0..p_{i-1} and have a smaller p_i}
//!         = Σ_i [C(r_i + k_i, k_i) − C(r_i − p_i + k_i, k_i)]
//! with `r_i` the seeds not yet placed before pit `i` and `k_i = P-1-i` the pits after it
//! (hockey-stick identity), so ranking is one table lookup pair per pit.

use std::fmt;

/// Binomial coefficients up to `C(MAX_N, ·)`; 128 covers every board of the three games.
const MAX_N: usize = 128;

/// `binomial(n, k)` computed at compile time (saturating, never overflowing for n <= 66).
pub const fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = if k > n - k { n - k } else { k };
    let mut acc: u128 = 1;
    let mut i = 0;
    while i < k {
        acc = acc * (n - i) as u128 / (i + 1) as u128;
        i += 1;
    }
    if acc > u64::MAX as u128 {
        u64::MAX
    } else {
        acc as u64
    }
}

/// Rank / unrank for distributions of seeds into a fixed number of pits.
#[derive(Clone)]
pub struct Compositions {
    pits: usize,
    max_seeds: usize,
    /// `choose[a * (pits) + k] = C(a + k, k)` for `a <= max_seeds`, `k < pits`.
    choose: Vec<u64>,
}

impl fmt::Debug for Compositions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Compositions({} pits, <= {} seeds)", self.pits, self.max_seeds)
    }
}

impl Compositions {
    pub fn new(pits: usize, max_seeds: usize) -> Self {
        assert!(pits >= 1 && max_seeds + pits < MAX_N);
        let mut choose = vec![0u64; (max_seeds + 1) * pits];
        for a in 0..=max_seeds {
            for k in 0..pits {
                choose[a * pits + k] = binomial((a + k) as u64, k as u64);
            }
        }
        Compositions { pits, max_seeds, choose }
    }

    pub fn pits(&self) -> usize {
        self.pits
    }

    pub fn max_seeds(&self) -> usize {
        self.max_seeds
    }

    /// `C(a + k, k)`: distributions of `a` seeds into `k + 1` pits.
    #[inline(always)]
    fn c(&self, a: usize, k: usize) -> u64 {
        debug_assert!(a <= self.max_seeds && k < self.pits);
        // SAFETY: `a <= max_seeds` and `k < pits` at every call site: `rank` and `unrank` assert
        // that the seeds fit the table (and `unrank` that the rank fits the layer, so `r - v`
        // never drops below zero), `layer_size` that `n <= max_seeds`; this lookup is the
        // builder's hottest line.
        unsafe { *self.choose.get_unchecked(a * self.pits + k) }
    }

    /// Number of positions with exactly `n` seeds: `C(n+P-1, P-1)`.
    pub fn layer_size(&self, n: usize) -> u64 {
        assert!(n <= self.max_seeds);
        self.c(n, self.pits - 1)
    }

    /// Rank of `pits` among the distributions of `sum(pits)` seeds.
    #[inline]
    pub fn rank(&self, pits: &[u8]) -> u64 {
        debug_assert_eq!(pits.len(), self.pits);
        let mut r: usize = pits.iter().map(|&x| x as usize).sum();
        // Keeps every table lookup below in bounds (see `c`).
        assert!(r <= self.max_seeds && pits.len() == self.pits, "distribution outside the table");
        let mut rank = 0u64;
        let last = self.pits - 1;
        for (i, &p) in pits[..last].iter().enumerate() {
            let k = last - i;
            let p = p as usize;
            // Distributions with a smaller value in pit i: C(r+k,k) - C(r-p+k,k).
            rank += self.c(r, k) - self.c(r - p, k);
            r -= p;
        }
        rank
    }

    /// The distribution of `n` seeds with the given rank.
    ///
    /// # Panics
    /// If `n` exceeds the table, `out` is not one entry per pit or `rank >= layer_size(n)`.
    #[inline]
    pub fn unrank(&self, n: usize, mut rank: u64, out: &mut [u8]) {
        // Without these checks the loop below walks past the layer and reads outside the
        // table. The retrograde unranks every position it propagates, so the checks stay two
        // compares and the panic is out of line: the function must stay small enough to inline.
        if n > self.max_seeds || out.len() != self.pits || rank >= self.c(n, self.pits - 1) {
            outside_the_table(n, rank);
        }
        let mut r = n;
        let last = self.pits - 1;
        for (i, slot) in out[..last].iter_mut().enumerate() {
            let k = last - i;
            // Each value v of pit i covers C(r-v + k-1, k-1) distributions of the rest.
            let mut v = 0;
            loop {
                let block = self.c(r - v, k - 1);
                if rank < block {
                    break;
                }
                rank -= block;
                v += 1;
            }
            *slot = v as u8;
            r -= v;
        }
        out[last] = r as u8;
    }

    /// Advance `pits` to the next distribution (same seed count) in rank order.
    /// Returns false (leaving `pits` unchanged) at the last one.
    #[inline]
    pub fn next(pits: &mut [u8]) -> bool {
        let last = pits.len() - 1;
        // The rightmost pit before the last one that has seeds to its right can grow by one.
        let mut tail = pits[last] as u32;
        let mut i = last;
        while i > 0 {
            i -= 1;
            if tail > 0 {
                pits[i] += 1;
                pits[i + 1..last].iter_mut().for_each(|x| *x = 0);
                pits[last] = (tail - 1) as u8;
                return true;
            }
            tail += pits[i] as u32;
        }
        false
    }
}

/// The panic of [`Compositions::unrank`], kept out of its body.
#[cold]
#[inline(never)]
fn outside_the_table(n: usize, rank: u64) -> ! {
    panic!("rank {rank} of {n} seeds is outside the table (or the output is not one entry per pit)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(31, 11), 84_672_315);
        assert_eq!(binomial(41, 11), 3_159_461_968);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn small_layer_in_order() {
        // 2 seeds in 3 pits, lexicographic with p0 most significant:
        // 002 011 020 101 110 200
        let c = Compositions::new(3, 2);
        let expect = [[0, 0, 2], [0, 1, 1], [0, 2, 0], [1, 0, 1], [1, 1, 0], [2, 0, 0]];
        assert_eq!(c.layer_size(2), 6);
        let mut p = [0u8, 0, 2];
        for (r, e) in expect.iter().enumerate() {
            assert_eq!(&p, e);
            assert_eq!(c.rank(e), r as u64);
            let mut u = [0u8; 3];
            c.unrank(2, r as u64, &mut u);
            assert_eq!(&u, e);
            let more = Compositions::next(&mut p);
            assert_eq!(more, r + 1 < expect.len());
        }
    }

    #[test]
    #[should_panic(expected = "outside the table")]
    fn unrank_refuses_a_rank_past_the_layer() {
        let c = Compositions::new(12, 48);
        let mut u = [0u8; 12];
        c.unrank(4, c.layer_size(4) + 1000, &mut u);
    }
}
