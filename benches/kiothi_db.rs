//! Kiothi table build speed. Each run asserts the layer's checksum, so a faster wrong change
//! fails. `cargo bench --bench kiothi_db`; figures in results/BENCHMARKS.md.

use mancala::games::kiothi::Rules;
use mancala::retro::builder::{build_layer, Silent};
use mancala::retro::kiothi::{tables_in_memory, KiothiLayers};
use mancala::retro::LayeredGame;
use mancala::store::layer_file::{as_bytes, checksum};

#[path = "../tests/common/layer_checksums.rs"]
mod layer_checksums;

fn main() {
    divan::main();
}

#[divan::bench(args = [5, 6, 7], sample_count = 3)]
fn build_one_layer(bencher: divan::Bencher, n: usize) {
    let rules = Rules::default();
    let lower = tables_in_memory(rules, n - 1);
    let game = KiothiLayers::new(rules);
    // The recorded crc32 (tests/data/kiothi/layers.csv says how it was produced and checked).
    let want = layer_checksums::expected_crc("tests/data/kiothi/layers.csv", "nki-lift-relays-any", n);
    bencher.counter(divan::counter::ItemsCount::new(game.layer_size(n))).bench(|| {
        let layer = build_layer(&game, lower.as_slice(), n, &Silent);
        assert_eq!(checksum(as_bytes(&layer)), want, "layer {n} checksum");
        layer
    });
}
