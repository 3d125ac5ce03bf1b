//! Kiothi move generation speed: `perft` on fixed positions, asserting the leaf counts (the
//! same as `src/games/kiothi/tests.rs`), so a faster but wrong generator fails.
//! The counter is leaves (the perft count); figures are in results/BENCHMARKS.md.

use mancala::games::kiothi::{perft, Position, Rules};
use mancala::side::Side;

fn main() {
    divan::main();
}

/// The default setup after "4,5>0*2,1*1,3*2,12*1,15*4" and "4,9>0*1,5*3,10*2,17*4": turn 3.
fn midgame() -> Position {
    let rules = Rules::default();
    let mut p = rules.start();
    for m in ["4,5>0*2,1*1,3*2,12*1,15*4", "4,9>0*1,5*3,10*2,17*4"] {
        p = p.play(&rules, &m.parse().unwrap()).unwrap();
    }
    p
}

/// 20 warriors with nki marks left, captures, bonuses and K4 in reach (tests.rs `endgame`).
fn endgame() -> Position {
    let boma = [2, 0, 1, 3, 0, 1, 0, 2, 0, 1, 1, 2, 0, 0, 3, 1, 0, 1, 2, 0];
    Position { boma, prisons: [20, 23], nki: 1 << 10 | 1 << 14 | 1 << 3, to_move: Side::South, turn: 21 }
}

/// Midgame (60 warriors, turn 3), depth 4: 115,017 leaves.
#[divan::bench(sample_count = 5)]
fn perft_midgame_depth4(bencher: divan::Bencher) {
    let p = midgame();
    bencher.counter(divan::counter::ItemsCount::new(115_017u64)).bench(|| {
        assert_eq!(perft(&p, &Rules::default(), 4), 115_017);
    });
}

/// Endgame (20 warriors), depth 8: 191,979 leaves.
#[divan::bench(sample_count = 5)]
fn perft_endgame_depth8(bencher: divan::Bencher) {
    let p = endgame();
    bencher.counter(divan::counter::ItemsCount::new(191_979u64)).bench(|| {
        assert_eq!(perft(&p, &Rules::default(), 8), 191_979);
    });
}
