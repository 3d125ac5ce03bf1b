//! The Lukho sweeps on the command line (docs/cli.md, `mancala lukho sweep|merge|sample`): the
//! summary against a direct loop, shards and their merge, dry runs, samples and bad input.

use assert_cmd::Command;
use mancala::games::lukho::{play_game, Choice, ProvenCycles, Race};
use mancala::sweep::Agg;
use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;

mod common;
use common::{json_out, mancala, stdout, usage_error, LUKHO_RULES as R};

/// The per-South rows of summary.jsonl, keyed by id.
fn summary_rows(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("summary.jsonl")).unwrap();
    let mut l = text.lines();
    let head: Value = serde_json::from_str(l.next().unwrap()).unwrap();
    assert_eq!(head["rules"]["game"], "lukho");
    l.map(|x| serde_json::from_str(x).unwrap()).collect()
}

#[test]
fn sweep_summary_equals_a_direct_loop() {
    let proven = ProvenCycles::new();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sw");
    stdout(&[
        "lukho",
        "sweep",
        "--south",
        "0,77,4000",
        "--north",
        "0..40",
        "--race",
        "sequential",
        "--out",
        out.to_str().unwrap(),
        "--games",
        "jsonl",
    ]);
    let rows = summary_rows(&out);
    assert_eq!(rows.len(), 3);
    let mut total = Agg::default();
    for (row, sid) in rows.iter().zip([0u64, 77, 4000]) {
        let s = Choice::from_id(sid, &R).unwrap();
        let mut a = Agg::default();
        for nid in 0..40 {
            let n = Choice::from_id(nid, &R).unwrap();
            for r in [Race::SouthFirst, Race::NorthFirst] {
                a.add(&play_game(&R, &proven, &s, &n, r));
            }
        }
        total = total.merge(&a);
        assert_eq!(row["south_id"], sid);
        assert_eq!(row["south_remove"], s.remove_string());
        for (k, want) in [
            ("games", a.games),
            ("wins", a.wins),
            ("draws", a.draws),
            ("losses", a.losses),
            ("cycles", a.cycles),
            ("perpetual_openings", a.perpetual_openings),
            ("perpetual_turns", a.perpetual_turns),
            ("south_points_first_game", a.south_points_first),
            ("north_points_later_game", a.north_points_later),
            ("south_moves_first", a.south_first),
        ] {
            assert_eq!(row[k], want, "{sid} {k}");
        }
        assert_eq!(row["min_margin"].as_f64().unwrap(), a.min_margin.seeds());
        assert_eq!(row["max_margin"].as_f64().unwrap(), a.max_margin.seeds());
        assert!((row["mean_margin"].as_f64().unwrap() - a.sum_margin.seeds() / a.games as f64).abs() < 1e-9);
    }
    let g: Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(g["games"], total.games);
    assert_eq!(g["wins"], total.wins);
    assert_eq!(g["pairs"], 120);
    assert_eq!(g["race"], "sequential");
    // One row per game, after the rules line.
    let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 1 + 240);
    let second: Value = serde_json::from_str(games.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["south_id"], 0);
    assert_eq!(second["race"], "south-first");
}

#[test]
fn shards_merged_equal_an_unsharded_run_and_rerun_is_a_no_op() {
    let dir = tempfile::tempdir().unwrap();
    let d = |s: &str| dir.path().join(s).to_str().unwrap().to_string();
    let sweep =
        ["lukho", "sweep", "--south", "all:remove=333333*3:drop=0..2", "--north", "0..30", "--race", "lockstep"];
    let mut args = sweep.to_vec();
    let whole = d("whole");
    args.extend(["--out", &whole]);
    stdout(&args);
    let parts = d("parts");
    for k in 0..3 {
        let shard = format!("{k}/3");
        let mut args = sweep.to_vec();
        args.extend(["--shard", &shard, "--out", &parts]);
        stdout(&args);
    }
    // The Slurm variables name a shard too, and a finished shard is not redone.
    let p1 = Path::new(&parts).join("part-00001-of-00003.lukho");
    let before = std::fs::metadata(&p1).unwrap().modified().unwrap();
    let mut args = sweep.to_vec();
    args.extend(["--out", &parts]);
    mancala()
        .args(&args)
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .assert()
        .success()
        .stderr(predicate::str::contains("nothing to do"));
    assert_eq!(std::fs::metadata(&p1).unwrap().modified().unwrap(), before);
    let merged = d("merged");
    let part_files: Vec<String> = (0..3).map(|k| format!("{parts}/part-0000{k}-of-00003.lukho")).collect();
    let mut args = vec!["lukho", "merge", "--out", &merged];
    args.extend(part_files.iter().map(String::as_str).rev());
    stdout(&args);
    for f in ["summary.csv", "summary.jsonl", "summary.json"] {
        assert_eq!(
            std::fs::read(Path::new(&whole).join(f)).unwrap(),
            std::fs::read(Path::new(&merged).join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn local_shards_script_equals_an_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let sharded = dir.path().join("sharded");
    let sweep = ["--south", "0..7", "--north", "all:remove=333*****:drop=1", "--race", "sequential"];
    let mut args = vec!["lukho", "sweep"];
    args.extend(sweep);
    args.extend(["--out", whole.to_str().unwrap()]);
    stdout(&args);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/lukho_local_shards.sh");
    let status = std::process::Command::new("bash")
        .arg(&script)
        .arg("3")
        .arg(&sharded)
        .args(sweep)
        .env("MANCALA", assert_cmd::cargo::cargo_bin("mancala"))
        .env("JOBS", "2")
        .status()
        .unwrap();
    assert!(status.success());
    for f in ["summary.csv", "summary.jsonl", "summary.json"] {
        assert_eq!(std::fs::read(whole.join(f)).unwrap(), std::fs::read(sharded.join(f)).unwrap(), "{f}");
    }
    assert!(sharded.join("parts/part-00002-of-00003.lukho").exists());
}

#[test]
fn merge_refuses_overlaps_gaps_and_foreign_parts() {
    let dir = tempfile::tempdir().unwrap();
    let d = |s: &str| dir.path().join(s).to_str().unwrap().to_string();
    let run = |shard: &str, out: &str, extra: &[&str]| {
        let mut args = vec![
            "lukho",
            "sweep",
            "--south",
            "0..12",
            "--north",
            "0..10",
            "--race",
            "sequential",
            "--shard",
            shard,
            "--out",
            out,
        ];
        args.extend(extra);
        stdout(&args);
    };
    let a = d("a");
    run("0/2", &a, &[]);
    run("1/2", &a, &[]);
    run("0/3", &a, &[]);
    let b = d("b");
    run("1/2", &b, &["--chain", "en"]);
    let part = |dir: &str, k: u32, n: u32| format!("{dir}/part-{k:05}-of-{n:05}.lukho");
    let out = d("out");
    let cases: Vec<(Vec<String>, &str)> = vec![
        // 0/3 covers positions 0..4, 0/2 covers 0..6: overlap.
        (vec![part(&a, 0, 2), part(&a, 0, 3), part(&a, 1, 2)], "overlaps"),
        // 6..12 missing.
        (vec![part(&a, 0, 2)], "are in no part"),
        // 0..4 then 6..12: gap.
        (vec![part(&a, 0, 3), part(&a, 1, 2)], "4..6 are in no part"),
        // Other rules.
        (vec![part(&a, 0, 2), part(&b, 1, 2)], "rules"),
        (vec![d("nope.lukho")], "nope.lukho"),
    ];
    for (parts, what) in cases {
        let mut args = vec!["lukho".to_string(), "merge".into(), "--out".into(), out.clone()];
        args.extend(parts);
        let err = usage_error(mancala().args(&args));
        assert!(err.contains(what), "{what}: {err}");
        assert!(!Path::new(&out).exists());
    }
    // A corrupted part is refused by its checksum.
    let p = part(&a, 1, 2);
    let mut bytes = std::fs::read(&p).unwrap();
    let last = bytes.len() - 2;
    bytes[last] = if bytes[last] == b'1' { b'2' } else { b'1' };
    std::fs::write(&p, bytes).unwrap();
    mancala()
        .args(["lukho", "merge", "--out", &out, &part(&a, 0, 2), &p])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("crc32"));
    // Another sweep's part in the way of a shard is not overwritten.
    let args = [
        "lukho",
        "sweep",
        "--south",
        "0..12",
        "--north",
        "0..11",
        "--race",
        "sequential",
        "--shard",
        "0/2",
        "--out",
        &a,
    ];
    mancala().args(args).assert().code(2).stderr(predicate::str::contains("different sweep"));
}

#[test]
fn bad_input_is_one_line_exit_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let o = out.to_str().unwrap();
    let sweep = |extra: &[&str]| {
        let mut a = vec!["lukho", "sweep", "--south", "0..3", "--north", "0..3", "--race", "sequential", "--out", o];
        a.extend(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let set = |flag: &str, value: &str| {
        let mut a = sweep(&[]);
        let i = a.iter().position(|x| x == flag).unwrap();
        a[i + 1] = value.to_string();
        a
    };
    // 3 × 6,356,992 pairs is too many for a per-game table.
    let mut big = set("--north", "all");
    big.extend(["--games".to_string(), "csv".to_string()]);
    let cases: Vec<(Vec<String>, &str)> = vec![
        (set("--race", "random"), "--race"),
        (set("--south", "0..x"), "--south"),
        (set("--north", "all:pit=9"), "--north"),
        (set("--south", "0..6356993"), "--south"),
        (set("--north", "all:remove=5*******"), "--north"),
        (sweep(&["--shard", "3/3"]), "--shard"),
        (sweep(&["--shard", "1"]), "--shard"),
        (sweep(&["--chain", "xx"]), "--chain"),
        (sweep(&["--dry-run", "--calibrate", "0"]), "--calibrate"),
        (sweep(&["--dry-run", "--calibrate", "soon"]), "--calibrate"),
        (big, "--games"),
    ];
    for (args, field) in cases {
        let err = usage_error(mancala().args(&args));
        assert!(err.contains(field), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote {o}");
    }
    // The shard can come from a Kubernetes Indexed Job; a malformed one is refused.
    mancala()
        .args(sweep(&[]))
        .env("JOB_COMPLETION_INDEX", "2")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("JOB_COMPLETIONS"));
    assert!(!out.exists());
}

#[test]
fn dry_run_projects_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dry");
    let v = json_out(&[
        "lukho",
        "sweep",
        "--south",
        "0..4",
        "--north",
        "all:drop=0",
        "--race",
        "sequential",
        "--dry-run",
        "--calibrate",
        "0.3",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(v["pairs"], 4 * 65_536);
    assert_eq!(v["games"].as_f64().unwrap(), 2.0 * 4.0 * 65_536.0);
    assert!(v["games_per_core_second"].as_f64().unwrap() > 0.0);
    assert!(v["core_hours"].as_f64().unwrap() > 0.0);
    assert!(!out.exists());
    // --symmetric plays each South choice against the same choice by North: 9 pairs.
    let v = json_out(&[
        "lukho",
        "sweep",
        "--south",
        "0..9",
        "--symmetric",
        "--race",
        "speeds",
        "--dry-run",
        "--calibrate",
        "0.3",
        "--json",
    ]);
    assert_eq!(v["pairs"], 9);
    assert_eq!(v["games_exact"], false);
}

#[test]
fn sample_is_reproducible_and_writes_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, seed: &str| -> Value {
        let out = dir.path().join(name);
        Command::cargo_bin("mancala")
            .unwrap()
            .args(["lukho", "sample", "--pairs", "5000", "--seed", seed, "--race", "sequential", "--json", "--out"])
            .arg(&out)
            .assert()
            .success();
        for f in ["sample.json", "margins.csv", "margins.svg"] {
            assert!(out.join(f).exists(), "{f}");
        }
        serde_json::from_str(&std::fs::read_to_string(out.join("sample.json")).unwrap()).unwrap()
    };
    let a = run("a", "7");
    let b = run("b", "7");
    let c = run("c", "8");
    assert_eq!(a["games"], 10_000);
    assert_eq!(a["south_wins"], b["south_wins"]);
    assert_eq!(a["margin_mean"], b["margin_mean"]);
    assert_ne!(a["margin_mean"], c["margin_mean"]);
    let ci = a["margin_mean_ci95"].as_array().unwrap();
    let m = a["margin_mean"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() <= m && m <= ci[1].as_f64().unwrap());
    // An existing, non-empty output directory is refused and left alone.
    Command::cargo_bin("mancala")
        .unwrap()
        .args(["lukho", "sample", "--pairs", "10", "--race", "sequential", "--out"])
        .arg(dir.path().join("a"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--out"));
}

/// Without the `parquet` feature, `--games parquet` is bad input: refused before anything is
/// written, in one line naming the flag.
#[cfg(not(feature = "parquet"))]
#[test]
fn games_parquet_without_the_feature_is_exit_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let err = usage_error(mancala().args([
        "lukho",
        "sweep",
        "--south",
        "0..3",
        "--north",
        "0..50",
        "--race",
        "sequential",
        "--out",
        out.to_str().unwrap(),
        "--games",
        "parquet",
    ]));
    assert!(err.starts_with("error: --games: parquet needs a build with `--features parquet`"), "{err}");
    assert!(!out.exists());
}
