//! Retrograde build speed. Each run asserts the layer's checksum, so a faster wrong change
//! fails. `cargo bench --bench oware_db`; figures in results/BENCHMARKS.md.

use mancala::games::oware::Rules;
use mancala::retro::builder::{build_layer, Silent};
use mancala::retro::outcore::{build_layer_parts, PartsBuild};
use mancala::retro::oware::{tables_in_memory_with, IndexKind, OwareLayers};
use mancala::retro::stream::{InMemory, LowerBlocks};
use mancala::retro::LayeredGame;
use mancala::store::layer_file::{as_bytes, checksum};

#[path = "../tests/common/layer_checksums.rs"]
mod layer_checksums;

fn main() {
    divan::main();
}

/// How a benchmarked layer is built.
#[derive(Clone, Copy, PartialEq)]
enum Build {
    InMemory,
    /// 16 partitions kept in files (retro::outcore), lower layers looked up at random.
    OutOfCore,
    /// The same partitions with the lower layers streamed in rank order (retro::stream).
    Streamed,
}

/// One layer `n` built over the lower layers in memory, under `index`, in memory or out of
/// core; every run asserts the recorded crc32 (tests/data/oware/layers*.csv say how each was
/// produced and checked).
fn bench_layer(bencher: divan::Bencher, index: IndexKind, n: usize, build: Build) {
    let rules = Rules::default();
    let lower = tables_in_memory_with(rules, index, n - 1);
    let game = OwareLayers::with_index(rules, index);
    let want = match index {
        IndexKind::Full => layer_checksums::expected_crc("tests/data/oware/layers.csv", &rules.db_tag(), n),
        IndexKind::Reachable => layer_checksums::expected_crc(
            "tests/data/oware/layers-reachable.csv",
            &format!("{}-reachable", rules.db_tag()),
            n,
        ),
    };
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    bencher.counter(divan::counter::ItemsCount::new(game.layer_size(n))).bench(|| {
        let streamed = InMemory(lower.as_slice());
        let layer = match build {
            Build::InMemory => as_bytes(&build_layer(&game, lower.as_slice(), n, &Silent)).to_vec(),
            Build::OutOfCore | Build::Streamed => {
                let s = (build == Build::Streamed).then_some(&streamed as &dyn LowerBlocks);
                // Each run from nothing: a work directory left by the last one would be resumed.
                let _ = std::fs::remove_dir_all(&work);
                let every = mancala::retro::outcore::CHECKPOINT_EVERY;
                let values = build_layer_parts(&PartsBuild {
                    game: &game,
                    lower: lower.as_slice(),
                    streamed: s,
                    n,
                    parts: 16,
                    work: &work,
                    identity: "bench",
                    every,
                    progress: &Silent,
                });
                std::fs::read(values.unwrap()).unwrap()
            }
        };
        assert_eq!(checksum(&layer), want, "layer {n} checksum");
        layer
    });
}

#[divan::bench(args = [10, 11, 12, 13], sample_count = 5)]
fn build_one_layer(bencher: divan::Bencher, n: usize) {
    bench_layer(bencher, IndexKind::Full, n, Build::InMemory);
}

/// The same layers under the reachable index (positions whose player not to move has an empty
/// pit): fewer positions, same values (tests/oware_reachable.rs).
#[divan::bench(args = [10, 11, 12, 13], sample_count = 5)]
fn build_one_layer_reachable(bencher: divan::Bencher, n: usize) {
    bench_layer(bencher, IndexKind::Reachable, n, Build::InMemory);
}

/// The full-index layers out of core.
#[divan::bench(args = [10, 11, 12, 13], sample_count = 5)]
fn build_one_layer_out_of_core(bencher: divan::Bencher, n: usize) {
    bench_layer(bencher, IndexKind::Full, n, Build::OutOfCore);
}

/// The reachable-index layers out of core, the counterpart of `build_one_layer_reachable` in
/// the same run.
#[divan::bench(args = [10, 11, 12, 13], sample_count = 5)]
fn build_one_layer_reachable_out_of_core(bencher: divan::Bencher, n: usize) {
    bench_layer(bencher, IndexKind::Reachable, n, Build::OutOfCore);
}

/// The reachable-index layers out of core with the lower layers streamed, the counterpart of
/// `build_one_layer_reachable_out_of_core` in the same run.
#[divan::bench(args = [10, 11, 12, 13], sample_count = 5)]
fn build_one_layer_reachable_streamed(bencher: divan::Bencher, n: usize) {
    bench_layer(bencher, IndexKind::Reachable, n, Build::Streamed);
}

/// The build rate at one fixed, larger layer (reachable index, 7,558,200 positions; divan's
/// count is positions a second): in memory, the pass the lower layers are looked up in at
/// random.
#[divan::bench(args = [15], sample_count = 3)]
fn layer_rate_in_memory(bencher: divan::Bencher, n: usize) {
    bench_layer(bencher, IndexKind::Reachable, n, Build::InMemory);
}

/// The same layer with the lower layers streamed (16 partitions), the counterpart of
/// `layer_rate_in_memory` in the same run.
#[divan::bench(args = [15], sample_count = 3)]
fn layer_rate_streamed(bencher: divan::Bencher, n: usize) {
    bench_layer(bencher, IndexKind::Reachable, n, Build::Streamed);
}
