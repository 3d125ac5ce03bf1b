//! Retrograde build speed. Each run asserts the layer's checksum, so a faster wrong change
//! fails. `cargo bench --bench oware_db`; figures in results/BENCHMARKS.md.

use mancala::games::oware::Rules;
use mancala::retro::builder::{build_layer, Silent};
use mancala::retro::outcore::build_layer_parts;
use mancala::retro::oware::{tables_in_memory, tables_in_memory_with, IndexKind, OwareLayers};
use mancala::retro::LayeredGame;
use mancala::store::layer_file::{as_bytes, checksum};

#[path = "../tests/support/layer_checksums.rs"]
mod layer_checksums;

fn main() {
    divan::main();
}

#[divan::bench(args = [10, 11, 12, 13], sample_count = 5)]
fn build_one_layer(bencher: divan::Bencher, n: usize) {
    let rules = Rules::default();
    let lower = tables_in_memory(rules, n - 1);
    let game = OwareLayers::new(rules);
    // The recorded crc32 (tests/data/oware/layers.csv says how it was produced and checked).
    let want = layer_checksums::expected_crc("tests/data/oware/layers.csv", &rules.db_tag(), n);
    bencher.counter(divan::counter::ItemsCount::new(game.index.layer_size(n))).bench(|| {
        let layer = build_layer(&game, lower.as_slice(), n, &Silent);
        assert_eq!(checksum(as_bytes(&layer)), want, "layer {n} checksum");
        layer
    });
}

/// The same layers under the reachable index (positions whose player not to move has an empty
/// pit): fewer positions, same values (tests/oware_reachable.rs).
#[divan::bench(args = [10, 11, 12, 13], sample_count = 5)]
fn build_one_layer_reachable(bencher: divan::Bencher, n: usize) {
    let rules = Rules::default();
    let lower = tables_in_memory_with(rules, IndexKind::Reachable, n - 1);
    let game = OwareLayers::with_index(rules, IndexKind::Reachable);
    let tag = format!("{}-reachable", rules.db_tag());
    let want = layer_checksums::expected_crc("tests/data/oware/layers-reachable.csv", &tag, n);
    bencher.counter(divan::counter::ItemsCount::new(game.layer_size(n))).bench(|| {
        let layer = build_layer(&game, lower.as_slice(), n, &Silent);
        assert_eq!(checksum(as_bytes(&layer)), want, "layer {n} checksum");
        layer
    });
}

/// The same layers (full index) out of core: 16 partitions kept in files (retro::outcore).
#[divan::bench(args = [10, 11, 12, 13], sample_count = 5)]
fn build_one_layer_out_of_core(bencher: divan::Bencher, n: usize) {
    let rules = Rules::default();
    let lower = tables_in_memory(rules, n - 1);
    let game = OwareLayers::new(rules);
    let want = layer_checksums::expected_crc("tests/data/oware/layers.csv", &rules.db_tag(), n);
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    bencher.counter(divan::counter::ItemsCount::new(game.layer_size(n))).bench(|| {
        let file = build_layer_parts(&game, lower.as_slice(), n, 16, &work, &Silent).unwrap();
        let layer = std::fs::read(file).unwrap();
        assert_eq!(checksum(&layer), want, "layer {n} checksum");
        layer
    });
}

/// The reachable-index layers out of core: 16 partitions kept in files (retro::outcore), the
/// counterpart of `build_one_layer_reachable` in the same run.
#[divan::bench(args = [10, 11, 12, 13], sample_count = 5)]
fn build_one_layer_reachable_out_of_core(bencher: divan::Bencher, n: usize) {
    let rules = Rules::default();
    let lower = tables_in_memory_with(rules, IndexKind::Reachable, n - 1);
    let game = OwareLayers::with_index(rules, IndexKind::Reachable);
    let tag = format!("{}-reachable", rules.db_tag());
    let want = layer_checksums::expected_crc("tests/data/oware/layers-reachable.csv", &tag, n);
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    bencher.counter(divan::counter::ItemsCount::new(game.layer_size(n))).bench(|| {
        let file = build_layer_parts(&game, lower.as_slice(), n, 16, &work, &Silent).unwrap();
        let layer = std::fs::read(file).unwrap();
        assert_eq!(checksum(&layer), want, "layer {n} checksum");
        layer
    });
}
