//! Kiothi move generation speed: `perft` on fixed positions, asserting the leaf counts of
//! `tests/data/kiothi/perft.csv`, so a faster but wrong generator fails.
//! The counter is leaves (the perft count); figures are in results/BENCHMARKS.md.

use mancala::games::kiothi::{perft, Position, Rules, SowingCache};

fn main() {
    divan::main();
}

const PERFT: &str = include_str!("../tests/data/kiothi/perft.csv");

/// The count of `perft.csv` for a position file at a depth under the default rules.
fn expected(file: &str, depth: u32) -> u64 {
    PERFT
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|r| r[0] == file && r[1].is_empty() && r[2] == depth.to_string())
        .map(|r| r[3].parse().unwrap())
        .unwrap_or_else(|| panic!("perft.csv has no row {file} depth {depth}"))
}

fn position(json: &str) -> Position {
    Position::from_json(&serde_json::from_str(json).unwrap()).unwrap()
}

/// `perft` of a position file at a depth, asserting its count; a fresh sowing cache per run.
fn bench(bencher: divan::Bencher, p: Position, file: &str, depth: u32) {
    let nodes = expected(file, depth);
    bencher.counter(divan::counter::ItemsCount::new(nodes)).bench(|| {
        assert_eq!(perft(&p, &Rules::default(), &SowingCache::new(), depth), nodes);
    });
}

/// Midgame (60 warriors, turn 3): the default setup after "4,5>0*2,1*1,3*2,12*1,15*4" and
/// "4,9>0*1,5*3,10*2,17*4", depth 4.
#[divan::bench(sample_count = 5)]
fn perft_midgame_depth4(bencher: divan::Bencher) {
    bench(bencher, position(include_str!("../tests/data/kiothi/midgame.json")), "midgame.json", 4);
}

/// The midgame at depth 5: its tree meets perpetual sowings of up to 10^9 relays (the cycle
/// detection's worst case), which the unit tests leave out for their length. One run a sample.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn perft_midgame_depth5(bencher: divan::Bencher) {
    bench(bencher, position(include_str!("../tests/data/kiothi/midgame.json")), "midgame.json", 5);
}

/// The midgame at depth 6 (minutes): the deepest count of `perft.csv`, asserted here so that
/// no row of it is left unchecked. Run alone: `cargo bench --bench kiothi_perft -- depth6`.
#[divan::bench(sample_count = 1, sample_size = 1)]
fn perft_midgame_depth6(bencher: divan::Bencher) {
    bench(bencher, position(include_str!("../tests/data/kiothi/midgame.json")), "midgame.json", 6);
}

/// Endgame (20 warriors with nki marks left, captures, bonuses and K4 in reach), depth 8.
#[divan::bench(sample_count = 5)]
fn perft_endgame_depth8(bencher: divan::Bencher) {
    bench(bencher, position(include_str!("../tests/data/kiothi/endgame.json")), "endgame.json", 8);
}
