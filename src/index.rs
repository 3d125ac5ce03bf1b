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
        // SAFETY: `a <= max_seeds` and `k < pits` at every call site: `rank`, `unrank` and
        // `SplitRows::rank` (for its rows' `rank_of` and `rank_with_empty`) assert that the
        // seeds fit the table (and `unrank` that the rank fits the layer, so `r - v`
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
        let r: usize = pits.iter().map(|&x| x as usize).sum();
        // Keeps every table lookup below in bounds (see `c`).
        assert!(r <= self.max_seeds && pits.len() == self.pits, "distribution outside the table");
        self.rank_of(pits, r)
    }

    /// [`Compositions::rank`] of `pits`, one entry per pit, whose seeds `r` the caller has
    /// summed and checked against the table.
    #[inline(always)]
    fn rank_of(&self, pits: &[u8], mut r: usize) -> u64 {
        debug_assert!(pits.len() == self.pits && r <= self.max_seeds);
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

/// Rank / unrank for distributions of seeds into two rows of `row` pits where the **second
/// row has at least one empty pit**: the boards of a mancala game that can arise after a move
/// (the player who just moved left the pit he sowed from empty).
///
/// Order of a layer of `n` seeds: by the second row's seeds `k` (ascending), then by the first
/// row's rank among the distributions of `n - k` seeds ([`Compositions`]), then by the second
/// row's rank among the distributions of `k` seeds with an empty pit (lexicographic, `p0` most
/// significant). A block of one `k` is `M(n - k) · Z(k)` positions, with `M(s) = C(s+row-1,
/// row-1)` and `Z(k) = M(k) − C(k-1, row-1)` (rows of `k` seeds with every pit full are the
/// distributions of `k - row` seeds plus one in each pit).
///
/// The rank of a second row among those with an empty pit is its plain rank minus the number
/// of rows with every pit non-empty that precede it: walking its pits while they are
/// non-empty, value `v < q_i` at pit `i` with the `m` pits after it all non-empty covers
/// `C(r-v-1, m-1)` rows, and summed over `v = 1..q_i` this is `C(r-1, m) − C(r-q_i, m)`.
#[derive(Clone)]
pub struct SplitRows {
    row: usize,
    max_seeds: usize,
    rows: Compositions,
    /// `binom[a * (row + 1) + b] = C(a, b)` for `a <= max_seeds + row`, `b <= row`.
    binom: Vec<u64>,
    /// `offsets[n * (max_seeds + 2) + k]`: positions of layer `n` whose second row holds fewer
    /// than `k` seeds (`k <= n + 1`; entry `n + 1` is the layer's size).
    offsets: Vec<u64>,
    /// `zs[k]` = [`SplitRows::with_empty`]`(k)`, `k <= max_seeds`: looked up on every rank.
    zs: Vec<u64>,
}

impl fmt::Debug for SplitRows {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SplitRows(2 x {} pits, <= {} seeds, second row with an empty pit)", self.row, self.max_seeds)
    }
}

impl SplitRows {
    pub fn new(row: usize, max_seeds: usize) -> Self {
        assert!(row >= 2 && max_seeds + row < MAX_N);
        let rows = Compositions::new(row, max_seeds);
        let w = row + 1;
        let mut binom = vec![0u64; (max_seeds + row + 1) * w];
        for a in 0..=max_seeds + row {
            for b in 0..=row {
                binom[a * w + b] = binomial(a as u64, b as u64);
            }
        }
        let mut s = SplitRows {
            row,
            max_seeds,
            rows,
            binom,
            offsets: vec![0; (max_seeds + 1) * (max_seeds + 2)],
            zs: Vec::new(),
        };
        s.zs = (0..=max_seeds).map(|k| s.with_empty(k)).collect();
        for n in 0..=max_seeds {
            let mut acc = 0u64;
            for k in 0..=n {
                s.offsets[n * (max_seeds + 2) + k] = acc;
                acc += s.rows.layer_size(n - k) * s.with_empty(k);
            }
            s.offsets[n * (max_seeds + 2) + n + 1] = acc;
        }
        s
    }

    pub fn row(&self) -> usize {
        self.row
    }

    /// `C(a, b)`, 0 when `a < 0` or `b > a`.
    #[inline(always)]
    fn binom(&self, a: isize, b: usize) -> u64 {
        if a < 0 {
            return 0;
        }
        self.binom[a as usize * (self.row + 1) + b]
    }

    /// Rows of `k` seeds with every pit non-empty, spread over `m >= 1` pits: `C(k-1, m-1)`.
    #[inline(always)]
    fn all_full(&self, k: usize, m: usize) -> u64 {
        if k < m {
            0
        } else {
            self.binom(k as isize - 1, m - 1)
        }
    }

    /// `Z(k)`: rows of `k` seeds with at least one empty pit.
    #[inline]
    pub fn with_empty(&self, k: usize) -> u64 {
        self.rows.layer_size(k) - self.all_full(k, self.row)
    }

    #[inline(always)]
    fn offset(&self, n: usize, k: usize) -> u64 {
        self.offsets[n * (self.max_seeds + 2) + k]
    }

    /// Positions with exactly `n` seeds: `C(n+2r-1, 2r-1) − C(n+r-1, 2r-1)` (`r` pits a row).
    pub fn layer_size(&self, n: usize) -> u64 {
        assert!(n <= self.max_seeds);
        self.offset(n, n + 1)
    }

    /// Whether `pits` (two rows) is in the set: its second row has an empty pit.
    #[inline]
    pub fn contains(&self, pits: &[u8]) -> bool {
        pits.len() == 2 * self.row && pits[self.row..].contains(&0)
    }

    /// Rank of a second row of `k` seeds among the rows of `k` seeds with an empty pit
    /// (`q` has one).
    ///
    /// Its plain rank and the full rows before it are summed in one walk of the pits: `k` is
    /// checked against the table by the caller.
    #[inline(always)]
    fn rank_with_empty(&self, q: &[u8], k: usize) -> u64 {
        let last = self.row - 1;
        let mut rank = 0u64;
        let mut before = 0u64;
        let mut full = true;
        let mut r = k;
        for (i, &qi) in q[..last].iter().enumerate() {
            let m = last - i;
            let qi = qi as usize;
            rank += self.rows.c(r, m) - self.rows.c(r - qi, m);
            // Full rows precede `q` only while its pits so far are non-empty (then `r >= qi >= 1`).
            full &= qi != 0;
            if full {
                before += self.binom(r as isize - 1, m) - self.binom((r - qi) as isize, m);
            }
            r -= qi;
        }
        rank - before
    }

    /// Rank of `pits` among the positions of `sum(pits)` seeds, `None` when the second row has
    /// no empty pit.
    ///
    /// # Panics
    /// If `pits` is not two rows or holds more seeds than the table.
    #[inline]
    pub fn rank(&self, pits: &[u8]) -> Option<u64> {
        assert!(pits.len() == 2 * self.row, "a position is two rows of {} pits", self.row);
        let (a, b) = pits.split_at(self.row);
        if !b.contains(&0) {
            return None;
        }
        let k: usize = b.iter().map(|&x| x as usize).sum();
        let s: usize = a.iter().map(|&x| x as usize).sum();
        // Keeps every table lookup of both rows in bounds.
        assert!(k + s <= self.max_seeds, "distribution outside the table");
        Some(self.offset(k + s, k) + self.rows.rank_of(a, s) * self.zs[k] + self.rank_with_empty(b, k))
    }

    /// The position of `n` seeds with the given rank.
    ///
    /// # Panics
    /// If `n` exceeds the table, `out` is not two rows or `rank >= layer_size(n)`.
    #[inline]
    pub fn unrank(&self, n: usize, rank: u64, out: &mut [u8]) {
        if n > self.max_seeds || out.len() != 2 * self.row || rank >= self.offset(n, n + 1) {
            outside_the_table(n, rank);
        }
        // The block of the second row's seeds: the last k with offset(n, k) <= rank.
        let (mut lo, mut hi) = (0usize, n + 1);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if self.offset(n, mid) <= rank {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let k = lo;
        let within = rank - self.offset(n, k);
        let z = self.zs[k];
        let (a, b) = out.split_at_mut(self.row);
        self.rows.unrank(n - k, within / z, a);
        self.unrank_with_empty(k, within % z, b);
    }

    /// The row of `k` seeds with an empty pit of the given rank among those rows.
    #[inline]
    fn unrank_with_empty(&self, k: usize, mut rank: u64, out: &mut [u8]) {
        let mut r = k;
        let mut empty = false;
        let last = self.row - 1;
        for (i, slot) in out[..last].iter_mut().enumerate() {
            let m = last - i;
            let mut v = 0;
            loop {
                // Rows continuing with value v here: every distribution of the rest when a pit
                // is empty already (or this one is), else those with an empty pit among the m.
                let rest = r - v;
                let all = self.binom((rest + m - 1) as isize, m - 1);
                let block = if empty || v == 0 { all } else { all - self.all_full(rest, m) };
                if rank < block {
                    break;
                }
                rank -= block;
                v += 1;
            }
            empty |= v == 0;
            *slot = v as u8;
            r -= v;
        }
        out[last] = r as u8;
    }

    /// Advance `pits` to the next position (same seed count) in rank order. Returns false
    /// (leaving `pits` unchanged) at the last one. `pits` must be in the set.
    #[inline]
    pub fn next(&self, pits: &mut [u8]) -> bool {
        let row = self.row;
        let (a, b) = pits.split_at_mut(row);
        // Next second row with an empty pit; runs of full rows are skipped one by one (there
        // are fewer of them than rows with an empty pit, so this is at most a constant factor).
        // (At the last row, `next` leaves it unchanged: `[k, 0, …]`, which has an empty pit.)
        while Compositions::next(b) {
            if b.contains(&0) {
                return true;
            }
        }
        let k: u32 = b.iter().map(|&x| x as u32).sum();
        if Compositions::next(a) {
            b.fill(0);
            b[row - 1] = k as u8;
            return true;
        }
        let s: u32 = a.iter().map(|&x| x as u32).sum();
        if s == 0 {
            return false;
        }
        // Next block: one seed more in the second row, both rows at their first distribution.
        a.fill(0);
        a[row - 1] = (s - 1) as u8;
        b.fill(0);
        b[row - 1] = (k + 1) as u8;
        true
    }
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

    /// Every position of small layers, enumerated directly, against rank, unrank and next.
    #[test]
    fn split_rows_against_enumeration() {
        for row in [2usize, 3, 6] {
            let max = if row == 6 { 9 } else { 12 };
            let idx = SplitRows::new(row, max);
            let full = Compositions::new(2 * row, max);
            for n in 0..=max {
                let mut listed: Vec<Vec<u8>> = Vec::new();
                let mut p = vec![0u8; 2 * row];
                full.unrank(n, 0, &mut p);
                loop {
                    if p[row..].contains(&0) {
                        listed.push(p.clone());
                    } else {
                        assert_eq!(idx.rank(&p), None);
                    }
                    if !Compositions::next(&mut p) {
                        break;
                    }
                }
                let expect = binomial((n + 2 * row - 1) as u64, (2 * row - 1) as u64)
                    - if n >= 1 { binomial((n - 1 + row) as u64, (2 * row - 1) as u64) } else { 0 };
                assert_eq!(idx.layer_size(n), listed.len() as u64, "row {row} n {n}");
                assert_eq!(idx.layer_size(n), expect, "row {row} n {n}");
                let mut ranks: Vec<u64> = listed.iter().map(|p| idx.rank(p).unwrap()).collect();
                for (p, &r) in listed.iter().zip(&ranks) {
                    let mut u = vec![0u8; 2 * row];
                    idx.unrank(n, r, &mut u);
                    assert_eq!(&u, p);
                }
                ranks.sort_unstable();
                assert!(ranks.iter().enumerate().all(|(i, &r)| i as u64 == r), "ranks are 0..size");
                // next walks the ranks in order.
                let mut cur = vec![0u8; 2 * row];
                idx.unrank(n, 0, &mut cur);
                for r in 1..idx.layer_size(n) {
                    assert!(idx.next(&mut cur));
                    assert_eq!(idx.rank(&cur), Some(r));
                }
                let before = cur.clone();
                assert!(!idx.next(&mut cur));
                assert_eq!(cur, before);
            }
        }
    }

    #[test]
    fn split_rows_oware_counts() {
        // C(n+11,11) − C(n+5,11): 13 % fewer positions at 30 seeds, 27 % at 48.
        let idx = SplitRows::new(6, 48);
        assert_eq!(idx.layer_size(24), binomial(35, 11) - binomial(29, 11));
        assert_eq!(idx.layer_size(30), 3_159_461_968 - 417_225_900);
        assert_eq!(binomial(35, 11), 417_225_900);
        let total: u64 = (0..=48).filter(|&n| n != 47).map(|n| idx.layer_size(n)).sum();
        // Romein & Bal's count: every layer but 47, plus the start position.
        assert_eq!(total + 1, 889_063_398_406);
        let mut u = [0u8; 12];
        idx.unrank(48, idx.layer_size(48) - 1, &mut u);
        assert_eq!(idx.rank(&u), Some(idx.layer_size(48) - 1));
        assert_eq!(idx.rank(&[4; 12]), None);
    }

    #[test]
    #[should_panic(expected = "outside the table")]
    fn split_rows_unrank_refuses_a_rank_past_the_layer() {
        let idx = SplitRows::new(6, 48);
        let mut u = [0u8; 12];
        idx.unrank(4, idx.layer_size(4), &mut u);
    }
}
