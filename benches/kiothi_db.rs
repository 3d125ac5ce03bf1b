//! Kiothi table build speed. Each run asserts the layer's checksum, so a faster wrong change
//! fails. `cargo bench --bench kiothi_db`; figures in results/BENCHMARKS.md.

use mancala::games::kiothi::Rules;
use mancala::retro::builder::{build_layer, Silent};
use mancala::retro::kiothi::{tables_in_memory, KiothiLayers};
use mancala::retro::LayeredGame;
use mancala::store::layer_file::{as_bytes, checksum};

fn main() {
    divan::main();
}

/// crc32 of layers 5..=7 (also printed by `kiothi db build`; results/kiothi/tables).
const CRC: [(usize, u32); 3] = [(5, 0x34a09567), (6, 0xabda2944), (7, 0xb28dbb40)];

#[divan::bench(args = [5, 6, 7], sample_count = 3)]
fn build_one_layer(bencher: divan::Bencher, n: usize) {
    let rules = Rules::default();
    let lower = tables_in_memory(rules, n - 1);
    let game = KiothiLayers::new(rules);
    let want = CRC.iter().find(|c| c.0 == n).unwrap().1;
    bencher.counter(divan::counter::ItemsCount::new(game.layer_size(n))).bench(|| {
        let layer = build_layer(&game, lower.as_slice(), n, &Silent);
        assert_eq!(checksum(as_bytes(&layer)), want, "layer {n} checksum");
        layer
    });
}
