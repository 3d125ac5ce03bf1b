//! Ranks past 32 bits (Oware layers of 32 seeds and more: C(43, 11) = 5,752,004,349 positions
//! at 32, C(59, 11) ≈ 1.4·10^12 at 48): the index's layer sizes, ranks and unranks against an
//! independent u128 computation at 30..=48 seeds on sampled positions, and an out-of-core part
//! of the 36-seed layer whose updates of other parts keep their full u64 ranks.

use mancala::index::{Compositions, SplitRows};
use mancala::retro::builder::{Part, Silent, MAX_PART_LEN};
use mancala::retro::oware::{IndexKind, OwareLayers};
use mancala::retro::{LayeredGame, Layers};
use std::sync::Mutex;

/// `C(n, k)` by the product formula in u128 (exact: every prefix product divides).
fn c(n: i64, k: i64) -> u128 {
    if n < 0 || k < 0 || k > n {
        return 0;
    }
    (0..k as u128).fold(1u128, |acc, i| acc * (n as u128 - i) / (i + 1))
}

/// Distributions of `r` seeds into `pits` pits (one way to put 0 seeds into no pit).
fn ways(r: i64, pits: i64) -> u128 {
    if pits == 0 {
        (r == 0) as u128
    } else {
        c(r + pits - 1, pits - 1)
    }
}

/// How many distributions of `m` seeds into `d.len()` pits come before `d` lexicographically
/// (`p0` most significant); `d` may hold negative entries or another sum.
fn lex_before(d: &[i64], m: i64) -> u128 {
    let mut r = m;
    let mut count = 0u128;
    for (i, &di) in d.iter().enumerate() {
        let rest = (d.len() - 1 - i) as i64;
        for v in 0..di.min(r + 1).max(0) {
            count += ways(r - v, rest);
        }
        if di < 0 || di > r {
            return count;
        }
        r -= di;
    }
    count
}

/// Rank of a board under the full index: its place among all boards of its seeds.
fn full_rank(p: &[u8]) -> u128 {
    let d: Vec<i64> = p.iter().map(|&x| x as i64).collect();
    lex_before(&d, d.iter().sum())
}

/// Rank under the reachable index (the second row has an empty pit): by the second row's seeds
/// `k`, then the first row's rank among rows of `n - k`, then the second row's rank among rows
/// of `k` with an empty pit (its plain rank minus the rows with every pit full before it: those
/// are `1 + e` for rows `e` of `k - 6` seeds before `row - 1`).
fn reachable_rank(p: &[u8]) -> u128 {
    let (a, b) = p.split_at(6);
    let a: Vec<i64> = a.iter().map(|&x| x as i64).collect();
    let b: Vec<i64> = b.iter().map(|&x| x as i64).collect();
    let (s, k): (i64, i64) = (a.iter().sum(), b.iter().sum());
    let n = s + k;
    let z = |k: i64| ways(k, 6) - ways(k - 6, 6) * (k >= 6) as u128;
    let blocks: u128 = (0..k).map(|j| ways(n - j, 6) * z(j)).sum();
    let full_before = if k >= 6 { lex_before(&b.iter().map(|x| x - 1).collect::<Vec<_>>(), k - 6) } else { 0 };
    blocks + lex_before(&a, s) * z(k) + lex_before(&b, k) - full_before
}

/// A small deterministic generator (splitmix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }
}

/// The ranks checked in a layer of `size` positions: the ends, both sides of 2^32, the middle
/// and 200 at random.
fn ranks_to_check(size: u128, rng: &mut Rng) -> Vec<u64> {
    let samples = [0, 1, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, size as u64 / 2, size as u64 - 1];
    let random = (0..200).map(|_| rng.below(size as u64));
    samples.into_iter().chain(random).filter(|&r| (r as u128) < size).collect()
}

#[test]
fn full_index_sizes_ranks_and_unranks_agree_with_u128_at_30_to_48_seeds() {
    let idx = Compositions::new(12, 48);
    let mut rng = Rng(17);
    for n in 30..=48usize {
        let size = c(n as i64 + 11, 11);
        assert_eq!(idx.layer_size(n) as u128, size, "{n} seeds");
        for r in ranks_to_check(size, &mut rng) {
            let mut p = [0u8; 12];
            idx.unrank(n, r, &mut p);
            assert_eq!(p.iter().map(|&x| x as usize).sum::<usize>(), n, "{n} seeds, rank {r}: {p:?}");
            assert_eq!(full_rank(&p), r as u128, "{n} seeds, rank {r}: {p:?}");
            assert_eq!(idx.rank(&p), r, "{n} seeds: {p:?}");
        }
    }
    // The sizes past u32: 32 seeds is the first layer over 2^32 positions.
    assert!(c(31 + 11, 11) < 1 << 32 && c(32 + 11, 11) > 1 << 32);
}

#[test]
fn reachable_index_sizes_ranks_and_unranks_agree_with_u128_at_30_to_48_seeds() {
    let idx = SplitRows::new(6, 48);
    let mut rng = Rng(36);
    for n in 30..=48usize {
        // C(n+11, 11) − C(n+5, 11): boards whose second row has no empty pit are removed.
        let size = c(n as i64 + 11, 11) - c(n as i64 + 5, 11);
        assert_eq!(idx.layer_size(n) as u128, size, "{n} seeds");
        for r in ranks_to_check(size, &mut rng) {
            let mut p = [0u8; 12];
            idx.unrank(n, r, &mut p);
            assert_eq!(p.iter().map(|&x| x as usize).sum::<usize>(), n, "{n} seeds, rank {r}: {p:?}");
            assert!(p[6..].contains(&0), "{n} seeds, rank {r}: {p:?} has no empty pit in the second row");
            assert_eq!(reachable_rank(&p), r as u128, "{n} seeds, rank {r}: {p:?}");
            assert_eq!(idx.rank(&p), Some(r), "{n} seeds: {p:?}");
        }
    }
    // Romein & Bal's count: every layer 0..=48 but the unreachable 47, plus the start position.
    let total: u128 = (0..=48i64).filter(|&n| n != 47).map(|n| c(n + 11, 11) - c(n + 5, 11)).sum::<u128>() + 1;
    assert_eq!(total, 889_063_398_406);
}

/// Lower layers that are all draws: enough for a forward pass (the values do not matter here).
struct Draws;
impl Layers for Draws {
    fn value(&self, _layer: usize, _rank: u64) -> i8 {
        0
    }
}

/// A part of the 36-seed layer past rank 2^33 (17,417,133,617 positions; five parts at
/// least): the positions it settles are expanded with their full ranks, and every update it
/// sends away names a rank of the layer (not one cut to 32 bits) that has a move into the part.
#[test]
fn a_part_of_the_36_seed_layer_sends_updates_with_full_ranks() {
    let game = OwareLayers::with_index(Default::default(), IndexKind::Full);
    let n = 36;
    let size = game.layer_size(n);
    assert_eq!(size, 17_417_133_617);
    assert!(mancala::retro::plan::least_parts(size) * MAX_PART_LEN >= size);
    let lo = (1u64 << 33) + 12_345;
    let part = Part::forward(&game, &Draws, n, lo..lo + 20_000, &Silent);
    let sent = Mutex::new(Vec::new());
    let mut settled = 0;
    for t in (1..=n as i32).rev() {
        let seeds = part.seeds(t);
        assert!(seeds.iter().all(|&i| (i as u64) < part.len()));
        settled += part.propagate(&game, n, t, seeds, &|batch| sent.lock().unwrap().extend_from_slice(batch));
    }
    let sent = sent.into_inner().unwrap();
    assert!(settled > 0 && !sent.is_empty(), "settled {settled}, sent {}", sent.len());
    let mut buf = Vec::new();
    let mut high = 0;
    for &(r, _) in &sent {
        assert!(r < size && !(lo..lo + 20_000).contains(&r), "rank {r}");
        high += (r >= 1 << 32) as usize;
        let pos = game.unrank(n, r);
        assert_eq!(game.expand(&pos, &mut buf), None);
        let into_part =
            buf.iter().filter(|e| e.same_layer).any(|e| (lo..lo + 20_000).contains(&game.locate(&e.child).1));
        assert!(into_part, "rank {r} ({pos:?}) has no move into the part");
    }
    assert!(high > 0, "no update past 2^32 among {}", sent.len());
}
