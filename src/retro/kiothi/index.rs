//! The Kiothi table index: a dense, fixed bijection between the positions of a layer and
//! `0..layer_size(n)`.
//!
//! A table position (mover's view: his row is boma 0..9) is an **occupied set** `S` of `k`
//! boma, the **counts** on them (a composition of `n` into `k` positive parts, in boma order)
//! and the **nki mask**, a subset of `S`. So
//!
//! ```text
//! layer_size(n) = Σ_k C(20, k) · C(n-1, k-1) · 2^k
//! rank = offset[n][k] + ((set_rank(S) · C(n-1, k-1) + comp_rank(counts)) << k | mask)
//! ```
//!
//! - blocks by `k` ascending (`offset[n][k]` = positions of layer `n` with fewer occupied boma);
//! - `set_rank(S)` is the colex rank of `S` among the `k`-subsets of the 20 boma, which is the
//!   rank of its bit mask in numeric order: `Σ_j C(s_j, j)` for the elements `s_1 < … < s_k`;
//! - `comp_rank` is the colex rank of the partial sums `c_1, c_1+c_2, …` (a `(k-1)`-subset of
//!   `1..n-1`): with `b_j = (c_1+…+c_j) - 1`, `Σ_j C(b_j, j)`;
//! - `mask` bit `j` is the nki flag of the `j`-th lowest occupied boma.
//!
//! Layer 0 is the empty board (rank 0). The file header names this order
//! ([`INDEX_ORDER`]); it never changes, so checksums agree across builds and machines.

use crate::games::kiothi::{Board, BOMA};
use crate::index::binomial;

/// The index order recorded in the Kiothi table headers.
pub const INDEX_ORDER: &str = "kiothi-k-set-colex-comp-colex-nki-mask-mover-view";

/// Largest warrior count the index covers (a lap then never goes round the board, which
/// `unmoves` relies on).
pub const MAX_INDEX_WARRIORS: usize = BOMA - 1;

/// `C(a, b)` for `a <= 20`, `b <= 20` (both the 20 boma and `n - 1 <= 18` partial sums).
const CT: [[u64; BOMA + 1]; BOMA + 1] = {
    let mut t = [[0u64; BOMA + 1]; BOMA + 1];
    let mut a = 0;
    while a <= BOMA {
        let mut b = 0;
        while b <= BOMA {
            t[a][b] = binomial(a as u64, b as u64);
            b += 1;
        }
        a += 1;
    }
    t
};

#[inline(always)]
fn c(a: usize, b: usize) -> u64 {
    CT[a][b]
}

/// Rank / unrank for Kiothi table positions.
#[derive(Clone, Debug)]
pub struct TableIndex {
    /// `offset[n][k]`, `k` in `0..=BOMA + 1` (the last is the layer size).
    offset: Vec<[u64; BOMA + 2]>,
}

impl Default for TableIndex {
    fn default() -> Self {
        Self::new()
    }
}

/// Number of compositions of `n` into `k` positive parts: `C(n-1, k-1)` (1 for `n = k = 0`).
#[inline(always)]
fn comps(n: usize, k: usize) -> u64 {
    if k == 0 {
        (n == 0) as u64
    } else if k > n {
        0
    } else {
        c(n - 1, k - 1)
    }
}

impl TableIndex {
    pub fn new() -> Self {
        let offset = (0..=MAX_INDEX_WARRIORS)
            .map(|n| {
                let mut o = [0u64; BOMA + 2];
                for k in 0..=BOMA {
                    o[k + 1] = o[k] + c(BOMA, k) * comps(n, k) * (1u64 << k);
                }
                o
            })
            .collect();
        TableIndex { offset }
    }

    /// Positions with exactly `n` warriors on the board.
    pub fn layer_size(&self, n: usize) -> u64 {
        self.offset[n][BOMA + 1]
    }

    /// Positions of layer `n` with exactly `k` occupied boma.
    pub fn block_size(&self, n: usize, k: usize) -> u64 {
        self.offset[n][k + 1] - self.offset[n][k]
    }

    /// `(layer, rank)` of a board with its nki flags (flags outside the occupied set are a
    /// caller's bug: an nki boma is always occupied).
    #[inline]
    pub fn locate(&self, boma: &Board, nki: u32) -> (usize, u64) {
        let mut n = 0usize;
        let mut set_rank = 0u64;
        let mut comp_rank = 0u64;
        let mut mask = 0u64;
        let mut k = 0usize;
        for (a, &x) in boma.iter().enumerate() {
            if x == 0 {
                continue;
            }
            if k > 0 {
                // Partial sum c_1 + … + c_k, as bit b = sum - 1, is the k-th element.
                comp_rank += c(n - 1, k);
            }
            mask |= ((nki >> a & 1) as u64) << k;
            k += 1;
            set_rank += c(a, k);
            n += x as usize;
        }
        debug_assert!(n <= MAX_INDEX_WARRIORS);
        let rank = self.offset[n][k] + ((set_rank * comps(n, k) + comp_rank) << k | mask);
        (n, rank)
    }

    /// The nki mask part of `rank` (its low `k` bits) and the number `k` of occupied boma:
    /// `rank - mask` is the rank of the same board without nki flags.
    #[inline]
    pub fn mask_of(&self, n: usize, rank: u64) -> (u64, usize) {
        let o = &self.offset[n];
        let mut k = 0;
        while o[k + 1] <= rank {
            k += 1;
        }
        ((rank - o[k]) & ((1u64 << k) - 1), k)
    }

    /// The board and nki flags of `rank` in layer `n`.
    pub fn unrank(&self, n: usize, rank: u64) -> (Board, u32) {
        let o = &self.offset[n];
        assert!(rank < o[BOMA + 1], "rank {rank} outside layer {n}");
        let mut k = 0;
        while o[k + 1] <= rank {
            k += 1;
        }
        let mut q = rank - o[k];
        let mask = q & ((1u64 << k) - 1);
        q >>= k;
        let nc = comps(n, k);
        let (mut set_rank, mut comp_rank) = (q / nc, q % nc);
        // Elements of S, largest first: the largest a with C(a, j) <= rest.
        let mut elems = [0usize; BOMA];
        let mut a = BOMA;
        for j in (1..=k).rev() {
            a -= 1;
            while c(a, j) > set_rank {
                a -= 1;
            }
            set_rank -= c(a, j);
            elems[j - 1] = a;
        }
        // Partial sums (as b = sum - 1), largest first, then the counts.
        let mut sums = [0usize; BOMA + 1];
        sums[k] = n;
        let mut b = n.saturating_sub(1);
        for j in (1..k).rev() {
            b -= 1;
            while c(b, j) > comp_rank {
                b -= 1;
            }
            comp_rank -= c(b, j);
            sums[j] = b + 1;
        }
        let mut boma = [0u8; BOMA];
        let mut nki = 0u32;
        for j in 0..k {
            boma[elems[j]] = (sums[j + 1] - sums[j]) as u8;
            nki |= ((mask >> j & 1) as u32) << elems[j];
        }
        (boma, nki)
    }

    /// Advance to the next rank of the same layer; false (unchanged) after the last.
    #[inline]
    pub fn next(&self, boma: &mut Board, nki: &mut u32) -> bool {
        let mut occ = 0u32;
        let mut n = 0usize;
        for (a, &x) in boma.iter().enumerate() {
            occ |= ((x != 0) as u32) << a;
            n += x as usize;
        }
        // Next nki subset of the occupied set, in the order of the compressed mask.
        let m = (*nki | !occ).wrapping_add(1) & occ;
        if m != 0 {
            *nki = m;
            return true;
        }
        let k = occ.count_ones() as usize;
        if k == 0 {
            return false;
        }
        if k >= 2 {
            // Partial sums as a bit set over b = sum - 1 in 0..n-1 (the total excluded).
            let mut sums = 0u32;
            let mut acc = 0usize;
            let mut o = occ;
            for _ in 0..k - 1 {
                let a = o.trailing_zeros() as usize;
                o &= o - 1;
                acc += boma[a] as usize;
                sums |= 1 << (acc - 1);
            }
            let next = gosper(sums);
            if next < 1 << (n - 1) {
                *nki = 0;
                fill(boma, occ, next, n);
                return true;
            }
        }
        // First composition of the next occupied set of the same size, else of the next size.
        let next_set = gosper(occ);
        let set = if next_set < 1 << BOMA {
            next_set
        } else if k < n.min(BOMA) {
            (1u32 << (k + 1)) - 1
        } else {
            return false;
        };
        let k = set.count_ones();
        *nki = 0;
        *boma = [0; BOMA];
        fill(boma, set, (1u32 << (k - 1)) - 1, n);
        true
    }
}

/// The next larger integer with the same number of set bits.
#[inline]
fn gosper(x: u32) -> u32 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

/// Put the counts given by partial sums `sums` (bit b = a partial sum b + 1) on the occupied
/// set `occ` (`n` warriors in all).
#[inline]
fn fill(boma: &mut Board, occ: u32, sums: u32, n: usize) {
    let mut prev = 0usize;
    let mut s = sums;
    let mut o = occ;
    while o != 0 {
        let a = o.trailing_zeros() as usize;
        o &= o - 1;
        let end = if o == 0 { n } else { s.trailing_zeros() as usize + 1 };
        s &= s.wrapping_sub(1);
        boma[a] = (end - prev) as u8;
        prev = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_sizes() {
        let ix = TableIndex::new();
        assert_eq!(ix.layer_size(0), 1);
        assert_eq!(ix.layer_size(1), 40);
        assert_eq!(ix.layer_size(6), 5_831_520);
        assert_eq!(ix.layer_size(8), 174_074_240);
        assert_eq!(ix.layer_size(10), 3_339_504_032);
        let total: u64 = (0..=10).map(|n| ix.layer_size(n)).sum();
        assert_eq!(total / 10_000_000, 435);
    }

    #[test]
    fn rank_unrank_next_are_one_bijection_up_to_five() {
        let ix = TableIndex::new();
        for n in 0..=5 {
            let (mut b, mut m) = ix.unrank(n, 0);
            let mut r = 0u64;
            loop {
                assert_eq!(ix.locate(&b, m), (n, r), "{b:?} {m:x}");
                assert_eq!(ix.unrank(n, r), (b, m));
                assert_eq!(m & !crate::games::kiothi::ALL_BOMA, 0);
                r += 1;
                if !ix.next(&mut b, &mut m) {
                    break;
                }
            }
            assert_eq!(r, ix.layer_size(n), "layer {n}");
        }
    }

    #[test]
    fn rank_spot_checks_on_large_layers() {
        let ix = TableIndex::new();
        for n in [6usize, 8, 10, 14, 19] {
            let size = ix.layer_size(n);
            for r in [0, 1, size / 7, size / 3, size / 2 + 12345, size - 2, size - 1] {
                let (b, m) = ix.unrank(n, r);
                assert_eq!(b.iter().map(|&x| x as usize).sum::<usize>(), n);
                assert_eq!(ix.locate(&b, m), (n, r));
                let (mut b2, mut m2) = (b, m);
                if r + 1 < size {
                    assert!(ix.next(&mut b2, &mut m2));
                    assert_eq!(ix.locate(&b2, m2), (n, r + 1));
                } else {
                    assert!(!ix.next(&mut b2, &mut m2));
                }
            }
        }
    }
}
