//! Probe speed of a packed layer (`store::packed`) against the raw one: random probes (each
//! likely in another block, so the packed reads decompress through the per-thread cache) and
//! a sequential scan. Every run asserts the sum of the values probed, computed from the layer
//! in memory, whose crc32 is the recorded one. `cargo bench --bench packed_probe`; figures in
//! results/BENCHMARKS.md.

use mancala::games::oware::Rules;
use mancala::retro::oware::tables_in_memory;
use mancala::store::layer_file::{as_bytes, checksum, write_layer, Expected, Header, LayerFile};
use mancala::store::packed::{pack_layer, PackedFile};

#[path = "../tests/common/layer_checksums.rs"]
mod layer_checksums;

/// Layers 12 and 13 (1.35 M and 2.5 M values, the largest with a recorded crc32) fit the
/// per-thread cache of 4096 blocks of 8 Ki values: random probes measure the cached read; the
/// scans decompress every block once (the cost of a miss).
const LAYERS: [usize; 2] = [12, 13];
const PROBES: usize = 100_000;

fn main() {
    divan::main();
}

struct Fixture {
    _dir: tempfile::TempDir,
    raw: LayerFile,
    packed: PackedFile,
    ranks: Vec<u64>,
    /// The sum of the values at `ranks`, and of the whole layer.
    want_random: i64,
    want_all: i64,
}

fn fixture(layer: usize) -> &'static Fixture {
    static F: std::sync::Mutex<Vec<(usize, &'static Fixture)>> = std::sync::Mutex::new(Vec::new());
    let mut all = F.lock().unwrap();
    if let Some(&(_, f)) = all.iter().find(|(l, _)| *l == layer) {
        return f;
    }
    let f: &'static Fixture = Box::leak(Box::new(make(layer)));
    all.push((layer, f));
    f
}

fn make(layer: usize) -> Fixture {
    {
        let rules = Rules::default();
        let tables = tables_in_memory(rules, layer);
        let values: &[i8] = tables[layer].as_ref();
        let want = layer_checksums::expected_crc("tests/data/oware/layers.csv", &rules.db_tag(), layer);
        assert_eq!(checksum(as_bytes(values)), want, "layer {layer} checksum");
        let dir = tempfile::tempdir().unwrap();
        let header = Header {
            format_version: 2,
            game: "oware".into(),
            rules: "bench".into(),
            index_order: "bench".into(),
            layer: layer as u32,
            entries: 0,
            checksum: 0,
        };
        let n = values.len() as u64;
        let want = Expected { game: "oware", rules: "bench", index_order: "bench", layer: layer as u32, entries: n };
        let open_raw = || LayerFile::open(&dir.path().join("raw.db"), &want);
        write_layer(&dir.path().join("raw.db"), header, values).unwrap();
        pack_layer(&open_raw().unwrap(), &dir.path().join("packed.db")).unwrap();
        let packed = PackedFile::open(&dir.path().join("packed.db"), &want).unwrap();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let ranks: Vec<u64> = (0..PROBES)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % n
            })
            .collect();
        let want_random = ranks.iter().map(|&r| values[r as usize] as i64).sum();
        let want_all = values.iter().map(|&v| v as i64).sum();
        Fixture { raw: open_raw().unwrap(), packed, ranks, want_random, want_all, _dir: dir }
    }
}

#[divan::bench(args = LAYERS, sample_count = 10)]
fn random_raw(bencher: divan::Bencher, layer: usize) {
    let f = fixture(layer);
    bencher.counter(divan::counter::ItemsCount::new(PROBES)).bench(|| {
        let s: i64 = f.ranks.iter().map(|&r| f.raw.value(r) as i64).sum();
        assert_eq!(s, f.want_random);
    });
}

#[divan::bench(args = LAYERS, sample_count = 10)]
fn random_packed(bencher: divan::Bencher, layer: usize) {
    let f = fixture(layer);
    bencher.counter(divan::counter::ItemsCount::new(PROBES)).bench(|| {
        let s: i64 = f.ranks.iter().map(|&r| f.packed.value(r) as i64).sum();
        assert_eq!(s, f.want_random);
    });
}

#[divan::bench(args = LAYERS, sample_count = 5)]
fn scan_raw(bencher: divan::Bencher, layer: usize) {
    let f = fixture(layer);
    let n = f.raw.header.entries;
    bencher.counter(divan::counter::ItemsCount::new(n)).bench(|| {
        let s: i64 = (0..n).map(|r| f.raw.value(r) as i64).sum();
        assert_eq!(s, f.want_all);
    });
}

#[divan::bench(args = LAYERS, sample_count = 5)]
fn scan_packed(bencher: divan::Bencher, layer: usize) {
    let f = fixture(layer);
    let n = f.packed.header.entries;
    bencher.counter(divan::counter::ItemsCount::new(n)).bench(|| {
        let s: i64 = (0..n).map(|r| f.packed.value(r) as i64).sum();
        assert_eq!(s, f.want_all);
    });
}
