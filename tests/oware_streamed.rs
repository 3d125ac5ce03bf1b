//! Streamed lookups (`db build --lookups streamed`, `retro::stream`): the forward pass reads the
//! lower layers in rank order from their files instead of at random through their maps, and
//! every layer keeps exactly the checksum of the in-memory build, in any number of partitions,
//! under either index, chosen by hand or by the plan.

mod common;

use common::layer_checksums;

use common::mancala;
use mancala::retro::builder::{Progress, Silent};
use mancala::retro::database::Resume;
use mancala::retro::oware::{Database, IndexKind, OwareLayers};
use mancala::retro::plan::Lookups;
use mancala::store::layer_file::{as_bytes, checksum};
use std::path::Path;

/// Largest layer built (the debug profile is about ten times slower).
const MAX: usize = if cfg!(debug_assertions) { 10 } else { 12 };

/// The published checksums of every layer: `results/oware/layers.csv` (full index, 0..=20)
/// and `results/oware/scale_run.csv` (reachable index, 0..=28).
fn published(kind: IndexKind) -> Vec<u32> {
    match kind {
        IndexKind::Full => {
            layer_checksums::shipped("results/oware/layers.csv", "stones").1.iter().map(|r| r.crc32).collect()
        }
        IndexKind::Reachable => {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/oware/scale_run.csv");
            let text = std::fs::read_to_string(&path).unwrap();
            let mut lines = text.lines();
            assert!(lines.next().unwrap().starts_with("stones,positions,crc32,"));
            lines
                .enumerate()
                .map(|(n, l)| {
                    let f: Vec<&str> = l.split(',').collect();
                    assert_eq!(f[0].parse::<usize>().unwrap(), n, "{l}");
                    u32::from_str_radix(f[2], 16).unwrap()
                })
                .collect()
        }
    }
}

/// The crc32 of every layer in `dir`, from its values.
fn crcs(dir: &Path) -> Vec<u32> {
    let db = Database::open(dir, Default::default()).unwrap();
    db.layers().iter().map(|l| checksum(as_bytes(&l.values().unwrap()))).collect()
}

/// Nothing of the partitions or the spilled requests is left beside the layers.
fn assert_no_work_left(dir: &Path) {
    let left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".work"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn streamed_builds_in_any_partitions_have_the_published_checksums() {
    for kind in IndexKind::ALL {
        let game = OwareLayers::with_index(Default::default(), kind);
        let want = published(kind);
        for parts in [1, 2, 5, 13] {
            let dir = tempfile::tempdir().unwrap();
            let silent = |_: usize, _: u64| -> Box<dyn Progress> { Box::new(Silent) };
            Resume::open(&game, dir.path(), MAX)
                .unwrap()
                .build_planned(&game, &|_| (parts, Lookups::Streamed), None, false, &silent, &mut |_, _| {})
                .unwrap();
            assert_eq!(crcs(dir.path()), want[..=MAX], "{kind:?} in {parts} partitions");
            assert_no_work_left(dir.path());
        }
    }
}

fn build(dir: &Path, index: &str, max: usize, extra: &[&str]) -> String {
    let mut cmd = mancala();
    cmd.args(["oware", "db", "build", "--max-stones", &max.to_string(), "--threads", "2", "--index", index]);
    cmd.arg("--dir").arg(dir).args(extra);
    let out = cmd.assert().success().get_output().stderr.clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn streamed_lookups_under_a_tiny_budget_have_the_published_checksums() {
    for kind in IndexKind::ALL {
        let dir = tempfile::tempdir().unwrap();
        // 1 MiB beside the 48 MiB the plan keeps for the process: the top layers split in many
        // partitions.
        let log = build(dir.path(), kind.name(), MAX, &["--memory", "49M", "--lookups", "streamed"]);
        assert!(log.contains("lower layers streamed from layer 0"), "{log}");
        assert!(log.contains(&format!(" {MAX}:")), "layer {MAX} split: {log}");
        assert_eq!(crcs(dir.path()), published(kind)[..=MAX], "{kind:?}");
        assert_no_work_left(dir.path());
    }
}

/// Under a budget that cannot hold the lower layers of the top layers the plan streams them
/// (and maps the lower layers of the layers below, which fit), with the same checksums.
#[test]
fn the_plan_streams_where_the_lower_layers_do_not_fit() {
    let max = 12;
    for kind in IndexKind::ALL {
        let dir = tempfile::tempdir().unwrap();
        let log = build(dir.path(), kind.name(), max, &["--memory", "49M"]);
        let from: usize = log
            .lines()
            .find_map(|l| l.strip_prefix("lower layers streamed from layer "))
            .unwrap_or_else(|| panic!("{log}"))
            .trim()
            .parse()
            .unwrap();
        assert!((1..=max).contains(&from), "{log}");
        assert_eq!(crcs(dir.path()), published(kind)[..=max], "{kind:?}");
        // Mapped lookups are what the plan keeps without a budget.
        let mapped = tempfile::tempdir().unwrap();
        let log = build(mapped.path(), kind.name(), 6, &[]);
        assert!(!log.contains("streamed"), "{log}");
    }
}

/// A build resumed with the other lookups keeps the layers it finds and gives the same files.
#[test]
fn mapped_and_streamed_layers_continue_each_other() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), "reachable", 8, &["--lookups", "mapped"]);
    let log = build(dir.path(), "reachable", MAX, &["--lookups", "streamed"]);
    assert!(log.contains("layer  8:") && log.contains("already built"), "{log}");
    assert_eq!(crcs(dir.path()), published(IndexKind::Reachable)[..=MAX]);
}

#[test]
fn lookups_are_refused_with_distributed_and_unknown_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let err = common::usage_error(mancala().args([
        "oware",
        "db",
        "build",
        "--max-stones",
        "4",
        "--dir",
        d,
        "--lookups",
        "streamed",
        "--distributed",
    ]));
    assert!(err.starts_with("error: --lookups"), "{err}");
    mancala().args(["oware", "db", "build", "--max-stones", "4", "--dir", d, "--lookups", "random"]).assert().code(2);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `db build --plan` prints the plan the build then follows, creates nothing, and marks the
/// layers a directory holds already as built.
#[test]
fn the_plan_is_what_the_build_follows() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let d = db.to_str().unwrap();
    let args = ["oware", "db", "build", "--max-stones", "12", "--dir", d, "--memory", "50M"];
    let out = mancala().args(args).arg("--plan").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!db.exists(), "--plan created the directory");
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 13, "{text}");
    assert!(rows.iter().all(|r| r.ends_with(&["to".to_string(), "build".to_string()])), "{text}");
    // The partitions the plan gives each split layer, as the build's log names them.
    let split: Vec<String> = rows.iter().filter(|r| r[2] != "1").map(|r| format!("{}:{}", r[0], r[2])).collect();
    assert!(!split.is_empty(), "50M splits the last layers: {text}");
    assert!(text.contains("memory: ") && text.contains("disk: ") && text.contains("fits"), "{text}");
    let build = mancala().args(args).output().unwrap();
    assert!(build.status.success());
    let log = String::from_utf8(build.stderr).unwrap();
    assert!(log.contains(&format!("(layer:partitions {})", split.join(" "))), "{split:?}\n{log}");
    // Afterwards every layer is marked built.
    let again = String::from_utf8(mancala().args(args).arg("--plan").output().unwrap().stdout).unwrap();
    assert_eq!(again.lines().filter(|l| l.ends_with("  built")).count(), 13, "{again}");
    // A budget no split fits is one line, exit 2, before any row is printed.
    common::usage_error(
        mancala().args(["oware", "db", "build", "--max-stones", "12", "--dir", d]).args(["--memory", "30M", "--plan"]),
    );
}
