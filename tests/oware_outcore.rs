//! Out-of-core layers (`db build --memory`): a budget too small for the in-memory build splits
//! layers into partitions kept on disk, with exactly the checksums of the in-memory build; a
//! budget too small for any split is refused naming the smallest that works.

mod common;

use common::layer_checksums;

use common::{mancala, usage_error};
use mancala::retro::oware::{IndexKind, OwareLayers};
use mancala::retro::LayeredGame;
use mancala::store::layer_file::{as_bytes, checksum};

/// Largest layer built (the debug profile is about ten times slower).
const MAX: usize = if cfg!(debug_assertions) { 9 } else { 11 };

fn build(dir: &std::path::Path, index: &str, memory: Option<&str>) -> String {
    let mut cmd = mancala();
    cmd.args(["oware", "db", "build", "--max-stones", &MAX.to_string(), "--threads", "2", "--index", index]);
    cmd.arg("--dir").arg(dir);
    if let Some(m) = memory {
        cmd.args(["--memory", m]);
    }
    let out = cmd.assert().success().get_output().stderr.clone();
    String::from_utf8(out).unwrap()
}

fn crcs(dir: &std::path::Path) -> Vec<(usize, u32)> {
    let db = mancala::retro::oware::Database::open(dir, Default::default()).unwrap();
    db.layers().iter().enumerate().map(|(n, l)| (n, checksum(as_bytes(&l.values().unwrap())))).collect()
}

#[test]
fn a_small_budget_builds_out_of_core_with_the_in_memory_checksums() {
    let want = layer_checksums::expected("tests/data/oware/layers.csv");
    for index in ["full", "reachable"] {
        let kind: IndexKind = index.parse().unwrap();
        let game = OwareLayers::with_index(Default::default(), kind);
        let memory = tempfile::tempdir().unwrap();
        let disk = tempfile::tempdir().unwrap();
        build(memory.path(), index, None);
        // Enough for the lower layers and a third of the top layer's working arrays: the top
        // layers split into many partitions.
        let lower: u64 = (0..MAX).map(|n| game.layer_size(n)).sum();
        let budget = (48 << 20) + lower + game.layer_size(MAX);
        let log = build(disk.path(), index, Some(&budget.to_string()));
        assert!(log.contains("out of core from layer"), "{log}");
        let parts: u64 = log
            .lines()
            .find(|l| l.starts_with("out of core"))
            .and_then(|l| l.rsplit(':').next())
            .and_then(|s| s.trim_end_matches(')').parse().ok())
            .unwrap();
        assert!(parts >= 4, "layer {MAX} in {parts} partitions: {log}");
        let (a, b) = (crcs(memory.path()), crcs(disk.path()));
        assert_eq!(a, b, "{index}");
        assert_eq!(a.len(), MAX + 1);
        if kind == IndexKind::Full {
            for (n, crc) in a {
                assert_eq!(crc, want[&("gs-no-capture".to_string(), n)], "layer {n}");
            }
        }
        // Nothing of the partitions is left beside the layers.
        let left: Vec<String> = std::fs::read_dir(disk.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".work"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

#[test]
fn a_budget_too_small_for_any_split_names_the_smallest_that_works() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Mapped lookups need the lower layers resident (a quarter of them at least).
    let err = usage_error(mancala().args([
        "oware",
        "db",
        "build",
        "--max-stones",
        "30",
        "--dir",
        d,
        "--memory",
        "1G",
        "--lookups",
        "mapped",
    ]));
    assert!(err.starts_with("error: --memory: 1.0 GiB is too small to build layer "), "{err}");
    let least: u64 = err.trim_end().rsplit("works is ").next().unwrap().trim_end_matches(" MiB").parse().unwrap();
    assert!(least > 1024, "{err}");
    // Nothing was written.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let err = usage_error(mancala().args(["oware", "db", "build", "--max-stones", "4", "--dir", d, "--memory", "12Q"]));
    assert!(err.contains("--memory"), "{err}");
    // Streamed lookups (the plan's choice where mapped ones do not fit) need the process
    // itself at least.
    let err =
        usage_error(mancala().args(["oware", "db", "build", "--max-stones", "30", "--dir", d, "--memory", "40M"]));
    assert!(err.starts_with("error: --memory: 40.0 MiB is too small to build layer 0 "), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // The smallest budget named is enough.
    let err = usage_error(mancala().args(["oware", "db", "build", "--max-stones", "9", "--dir", d, "--memory", "40M"]));
    let least: u64 = err.trim_end().rsplit("works is ").next().unwrap().trim_end_matches(" MiB").parse().unwrap();
    mancala()
        .args(["oware", "db", "build", "--max-stones", "9", "--dir", d, "--memory", &format!("{least}M")])
        .assert()
        .success();
}
