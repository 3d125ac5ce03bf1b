//! Kiothi search speed on fixed positions, each run asserting a signature (values and node
//! counts), so any change in search behaviour shows as a failure and is re-recorded on
//! purpose (Stockfish's bench habit). Figures are in results/BENCHMARKS.md.
//!
//! - midgames: `kiothi_openings::random_midgame(rules, seed 1, i, 6 plies)`, i = 0..6 (uniform
//!   South and North redistributions, then 6 uniform sowing moves), searched to depth 4:
//!   the capture balance (`search::horizon`) and the proven interval (`Searcher`);
//! - endgames: seeded random 8-warrior positions solved exactly.

use mancala::games::kiothi::{Position, Rules, SowingCache};
use mancala::search::horizon::horizon;
use mancala::search::{Limits, Searcher};
use mancala::side::Side;
use mancala::solve::kiothi::{solve, KiothiSearch};
use mancala::solve::kiothi_openings::random_midgame;

fn main() {
    divan::main();
}

fn midgames() -> Vec<Position> {
    (0..6).map(|i| random_midgame(&Rules::default(), &SowingCache::new(), 1, i, 6)).collect()
}

/// Depth-4 capture balance and depth-4 proven interval of the six midgames.
#[divan::bench(sample_count = 3)]
fn midgame_depth4(bencher: divan::Bencher) {
    let set = midgames();
    bencher.bench(|| {
        let sowing = SowingCache::new();
        let game = KiothiSearch::new(Rules::default(), &sowing, None);
        let mut sig = (0i32, 0i32, 0i32, 0u64);
        for p in &set {
            let h = horizon(&game, p, Limits { depth: Some(4), ..Limits::default() }, 20);
            let mut s = Searcher::new(&game, 20);
            let a = s.analyse(p, Limits { depth: Some(4), ..Limits::default() });
            sig.0 += h.value;
            sig.1 += a.bounds.lo;
            sig.2 += a.bounds.hi;
            sig.3 += h.nodes + s.nodes;
        }
        assert_eq!(sig, MIDGAME_SIGNATURE, "{:?}", sowing.stats());
        sig.3
    });
}

/// Twenty random 8-warrior endgames (xorshift64*, seed 0x5eed).
fn endgames() -> Vec<Position> {
    let mut rng = mancala::rng::XorShift64Star(0x5eed);
    let mut next = move || rng.next_u64();
    (0..20)
        .map(|_| {
            let mut boma = [0u8; 20];
            for _ in 0..8 {
                boma[(next() % 20) as usize] += 1;
            }
            let occ = boma.iter().enumerate().fold(0u32, |m, (a, &c)| m | ((c > 0) as u32) << a);
            let to_move = if next() % 2 == 0 { Side::South } else { Side::North };
            Position { boma, prisons: [0, 0], nki: occ & next() as u32 & next() as u32, to_move, turn: 9 }
        })
        .collect()
}

/// Twenty 8-warrior endgames solved exactly (alpha-beta, component retrograde if needed).
#[divan::bench(sample_count = 3)]
fn endgame_8_warriors_exact(bencher: divan::Bencher) {
    let set = endgames();
    bencher.bench(|| {
        let mut sig = (0i32, 0u64);
        for p in &set {
            let s = solve(Rules::default(), &SowingCache::new(), None, p, Limits::default()).unwrap();
            assert!(s.bounds.is_exact());
            sig.0 += s.bounds.lo;
            sig.1 += s.nodes;
        }
        assert_eq!(sig, ENDGAME_SIGNATURE);
        sig.1
    });
}

/// (Σ horizon values, Σ proven lower, Σ proven upper, nodes).
const MIDGAME_SIGNATURE: (i32, i32, i32, u64) = (9, -264, 308, 212_659);
/// (Σ exact values, nodes).
const ENDGAME_SIGNATURE: (i32, u64) = (26, 499_508);
