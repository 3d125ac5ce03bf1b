//! Retrograde build speed. Each run asserts the layer's checksum, so a faster wrong change
//! fails. `cargo bench --bench oware_db`; figures in results/BENCHMARKS.md.

use mancala::games::oware::Rules;
use mancala::retro::builder::{build_layer, Silent};
use mancala::retro::oware::{tables_in_memory, OwareLayers};
use mancala::store::layer_file::{as_bytes, checksum};

fn main() {
    divan::main();
}

/// crc32 of layers 10..=13 under the default rules (also printed by `db build`).
const CRC: [(usize, u32); 4] = [(10, 0x915f434b), (11, 0xf6c1564f), (12, 0xe547113c), (13, 0x59d1077f)];

#[divan::bench(args = [10, 11, 12, 13], sample_count = 5)]
fn build_one_layer(bencher: divan::Bencher, n: usize) {
    let rules = Rules::default();
    let lower = tables_in_memory(rules, n - 1);
    let game = OwareLayers::new(rules);
    let want = CRC.iter().find(|c| c.0 == n).unwrap().1;
    bencher.counter(divan::counter::ItemsCount::new(game.index.layer_size(n))).bench(|| {
        let layer = build_layer(&game, lower.as_slice(), n, &Silent);
        assert_eq!(checksum(as_bytes(&layer)), want, "layer {n} checksum");
        layer
    });
}
