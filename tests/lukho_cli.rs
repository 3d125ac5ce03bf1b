//! The Lukho command line (README.md, `mancala lukho play|opening|races|sweep|merge`).

use assert_cmd::Command;
use mancala::games::lukho::{play_after, play_game, speed_races, Choice, ProvenCycles, Race, Rules};
use mancala::sweep::Agg;
use predicates::prelude::*;
use serde_json::{json, Value};
use std::path::Path;

mod common;
use common::{mancala, usage_error};

fn stdout(args: &[&str]) -> String {
    let out = mancala().args(args).assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

fn json_out(args: &[&str]) -> Value {
    serde_json::from_str(stdout(args).trim()).unwrap()
}

const R: Rules = Rules { chain: mancala::games::lukho::Chain::It, keep_one: false };

/// South lifts one seed from his own pit 7 and sows it; North does nothing.
/// South's seed goes to North 0 (absolute 8: 3 -> 4, relay 4) -> 9..12, pit 12 had 3: relay 4
/// -> 13,14,15,0, pit 0 had 3: relay 4 -> 1..4, pit 4 had 3: relay 4 -> 5,6,7,8; pit 8 was
/// emptied by the first relay, so the lap ends there (North's row: no capture).
/// Board: South 0 4 4 4 0 4 4 3, North 1 4 4 4 0 4 4 4. North had nothing to sow, so he
/// finished at time 0 and moves first, even under south-first.
const HAND: [&str; 8] = [
    "--south-remove",
    "0,0,0,0,0,0,0,1",
    "--south-drop",
    "0@0",
    "--north-remove",
    "0,0,0,0,0,0,0,0",
    "--north-drop",
    "0@0",
];

#[test]
fn play_json_on_a_hand_checked_opening() {
    let proven = ProvenCycles::new();
    let mut args = vec!["lukho", "play"];
    args.extend(HAND);
    args.extend(["--race", "south-first", "--json"]);
    let v = json_out(&args);
    assert_eq!(v["rules"], json!({"game": "lukho", "chain": "it", "keep_one": false}));
    assert_eq!(v["first_player"], "north");
    assert_eq!(v["south"]["id"], 1);
    assert_eq!(v["north"]["id"], 0);
    // The same game through the library.
    let s = Choice::from_id(1, &R).unwrap();
    let n = Choice::from_id(0, &R).unwrap();
    let o = play_game(&R, &proven, &s, &n, Race::SouthFirst);
    let t = o.totals();
    assert_eq!([v["stores"][0].as_f64().unwrap(), v["stores"][1].as_f64().unwrap()], t);
    assert_eq!(v["margin"].as_f64().unwrap(), o.margin());
    assert_eq!(v["turns"], o.turns);
    assert_eq!(v["class"], o.class.name());
    assert_eq!(v["winner"], o.winner.map_or("draw", |w| w.name()));
    assert_eq!(v["points_first_game"], o.points_first_game);
    assert_eq!(v["points_later_game"], o.points_later_game);
    for k in ["first_player", "stores", "winner", "margin", "class", "turns", "points_first_game", "points_later_game"]
    {
        assert!(v.get(k).is_some(), "{k}");
    }

    // The trace: the first state is the board after the opening, worked out above.
    let mut args = vec!["lukho", "play"];
    args.extend(HAND);
    args.extend(["--race", "south-first", "--trace", "--jsonl"]);
    let text = stdout(&args);
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len() as u32, o.turns + 1);
    let first = &lines[0];
    assert_eq!(first["game"], "lukho");
    assert_eq!(first["rules"]["chain"], "it");
    assert_eq!(first["pits"], json!([0, 4, 4, 4, 0, 4, 4, 3, 1, 4, 4, 4, 0, 4, 4, 4]));
    assert_eq!(first["stores"], json!([0, 0]));
    assert_eq!(first["to_move"], "north");
    assert_eq!(first["knives"], json!([-1i8; 16].to_vec()));
    let last = lines.last().unwrap();
    assert_eq!(last["result"]["stores"], v["stores"]);
    // Turns alternate.
    assert_eq!(lines[1]["to_move"], "south");

    // The readable trace shows the turns and marks knives.
    let mut args = vec!["lukho", "play"];
    args.extend(HAND);
    args.extend(["--race", "south-first", "--trace"]);
    let text = stdout(&args);
    assert!(text.contains("turn 0: after the opening, north to move (lifts own pit 0)"), "{text}");
    assert!(text.contains("  North  0 | 4  4  4  0  4  4  4  1  |"), "{text}");
    if lines.iter().any(|l| l["knives"].as_array().unwrap().iter().any(|k| k != -1)) {
        let marked = text.lines().any(|l| l.split('|').nth(1).is_some_and(|cells| cells.contains(['s', 'n'])));
        assert!(marked, "{text}");
    }
}

#[test]
fn play_variants_are_flags_in_the_output() {
    let mut args = vec!["lukho", "play"];
    args.extend(HAND);
    args.extend(["--race", "lockstep-north", "--chain", "en", "--keep-one", "--json"]);
    let v = json_out(&args);
    assert_eq!(v["rules"], json!({"game": "lukho", "chain": "en", "keep_one": true}));
    assert_eq!(v["race"], "lockstep-north");
}

#[test]
fn opening_id_round_trip() {
    for id in [0u64, 1, 9, 10, 12_345, 4_000_000, 6_356_991] {
        let v = json_out(&["lukho", "opening", "--id", &id.to_string(), "--json"]);
        assert_eq!(v["id"], id);
        let remove = v["text"]["remove"].as_str().unwrap().to_string();
        let drop = v["text"]["drop"].as_str().unwrap().to_string();
        let w = json_out(&["lukho", "opening", "--remove", &remove, "--drop", &drop, "--json"]);
        assert_eq!(w["id"], id, "{remove} {drop}");
        assert_eq!(w["pits"], v["pits"]);
    }
    // Id 1 is the removal 0,…,0,1 with no drop; the diagram shows South's pit 7 at 2.
    let text = stdout(&["lukho", "opening", "--id", "1"]);
    assert!(text.contains("--remove 0,0,0,0,0,0,0,1 --drop 0@0"), "{text}");
    assert!(text.contains("  South  0 | 3  3  3  3  3  3  3  2  |"), "{text}");
    // keep-one renumbers.
    let v = json_out(&["lukho", "opening", "--id", "0", "--keep-one", "--json"]);
    assert_eq!(v["of"], 5_832_712);
}

#[test]
fn races_lists_the_speeds_outcomes() {
    let proven = ProvenCycles::new();
    let pair = [
        "--south-remove",
        "1,1,1,1,1,1,1,1",
        "--south-drop",
        "0@0",
        "--north-remove",
        "0,0,0,0,0,0,1,2",
        "--north-drop",
        "1@4",
    ];
    let mut args = vec!["lukho", "races"];
    args.extend(pair);
    args.push("--json");
    let v = json_out(&args);
    let s = Choice::parse("1,1,1,1,1,1,1,1", "0@0", &R).unwrap();
    let n = Choice::parse("0,0,0,0,0,0,1,2", "1@4", &R).unwrap();
    let all = speed_races(&R, &proven, &s, &n);
    let races = v["races"].as_array().unwrap();
    assert_eq!(races.len(), all.len());
    assert_eq!(races[0]["rho_from"], "0/1");
    assert_eq!(races.last().unwrap()["rho_to"], "inf");
    // Consecutive intervals touch.
    for w in races.windows(2) {
        assert_eq!(w[0]["rho_to"], w[1]["rho_from"]);
    }
    // play --race speeds:K is the K-th of them.
    let k = all.len() / 2;
    let mut args = vec!["lukho", "play"];
    args.extend(pair);
    let race = format!("speeds:{k}");
    args.extend(["--race", &race, "--json"]);
    let p = json_out(&args);
    let o = play_after(&R, &proven, &all[k].opening);
    assert_eq!(p["margin"].as_f64().unwrap(), o.margin());
    assert_eq!(p["first_player"], o.first_player.name());
    assert_eq!(races[k]["margin"], p["margin"]);
    // A K past the last is refused.
    let mut args = vec!["lukho", "play"];
    args.extend(pair);
    let race = format!("speeds:{}", all.len());
    args.extend(["--race", &race]);
    mancala().args(&args).assert().code(2).stdout("").stderr(predicate::str::contains("--race"));
}

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
    let play = |extra: &[&str]| {
        let mut a = vec!["lukho", "play"];
        a.extend(HAND);
        a.extend(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let with = |flag: &str, value: &str| {
        let mut a = play(&["--race", "south-first"]);
        let i = a.iter().position(|x| x == flag).unwrap();
        a[i + 1] = value.to_string();
        a
    };
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
        (with("--south-remove", "0,0,0,0,0,0,0,4"), "--south-remove"),
        (with("--north-remove", "1,1,1"), "--north-remove"),
        (with("--south-drop", "2@0"), "--south-drop"),
        (with("--north-drop", "0@8"), "--north-drop"),
        (with("--north-drop", "x"), "--north-drop"),
        (play(&["--race", "sideways"]), "--race"),
        (play(&["--race", "speeds:x"]), "--race"),
        (play(&["--race", "south-first", "--chain", "fr"]), "--chain"),
        (vec!["lukho".into(), "opening".into(), "--id".into(), "6356992".into()], "--id"),
        (
            vec![
                "lukho".into(),
                "opening".into(),
                "--remove".into(),
                "3,3,3,3,3,3,3,3".into(),
                "--drop".into(),
                "25@0".into(),
            ],
            "--drop",
        ),
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

/// `lukho equilibrium` on a small family: the JSON answer (README.md fields), the value
/// inside the certificate's bounds, weights summing to 1, and the file in DIR; a rerun of a
/// finished run plays no game; --max-iterations then a resume gives the same sets.
#[test]
fn equilibrium_small_family_answer_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eq");
    let o = out.to_str().unwrap();
    let fam = "all:remove=0000000*";
    let base = ["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--family", fam, "--json"];
    let a = json_out(&[&base[..], &["--out", o, "--exploit", "0"]].concat());
    for f in ["value", "lower", "upper", "exact", "south", "north", "iterations", "games", "seconds"] {
        assert!(a.get(f).is_some(), "{f} missing: {a}");
    }
    assert_eq!(a["exact"], true);
    let (v, lo, hi) = (a["value"].as_f64().unwrap(), a["lower"].as_f64().unwrap(), a["upper"].as_f64().unwrap());
    assert!(lo - 1e-9 <= v && v <= hi + 1e-9 && hi - lo <= 1e-6, "{a}");
    for side in ["south", "north"] {
        let s = a[side].as_array().unwrap();
        let total: f64 = s.iter().map(|e| e["weight"].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(s.iter().all(|e| e["id"].is_u64() && e["choice"].is_string()));
    }
    // Keeping everything can be exploited at least as much as the value says.
    assert!(a["exploit"][0]["as_south"].as_f64().unwrap() <= lo + 1e-9);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(out.join("equilibrium.json")).unwrap()).unwrap();
    assert_eq!(file["value"], a["value"]);
    assert_eq!(file["log"].as_array().unwrap().len() as u64, a["iterations"].as_u64().unwrap());
    // Rerun: nothing more to do, same answer.
    let b = json_out(&[&base[..], &["--out", o]].concat());
    assert_eq!(
        (b["iterations"].clone(), b["games"].clone(), b["value"].clone()),
        (a["iterations"].clone(), a["games"].clone(), a["value"].clone())
    );

    // Two iterations, then resume: same number of iterations and games as one run.
    let out2 = dir.path().join("eq2");
    let o2 = out2.to_str().unwrap();
    let p = json_out(&[&base[..], &["--out", o2, "--max-iterations", "2"]].concat());
    assert_eq!((p["iterations"].as_u64(), p["exact"].as_bool()), (Some(2), Some(false)));
    let r = json_out(&[&base[..], &["--out", o2]].concat());
    assert_eq!((r["iterations"].clone(), r["games"].clone()), (a["iterations"].clone(), a["games"].clone()));
    assert!((r["value"].as_f64().unwrap() - v).abs() < 1e-9);
}

/// The symmetric models have value 0 and the same mix for both players.
#[test]
fn equilibrium_symmetric_model_has_value_zero() {
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("eq");
    let a = json_out(&[
        "lukho",
        "equilibrium",
        "--race",
        "sequential",
        "--payoff",
        "result",
        "--family",
        "0..60",
        "--out",
        o.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(a["value"].as_f64(), Some(0.0));
    assert_eq!(a["symmetric"], true);
    assert_eq!(a["south"], a["north"]);
    assert!(a["lower"].as_f64().unwrap() <= 1e-9 && a["upper"].as_f64().unwrap() >= -1e-9);
}

/// Unknown payoff or race model, an empty family, a corrupt or foreign state: one line naming
/// the field, exit 2, nothing written or overwritten.
#[test]
fn equilibrium_bad_input_is_one_line_exit_2_and_overwrites_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eq");
    let o = out.to_str().unwrap();
    let run =
        |args: &[&str], field: &str| {
            let mut all = vec!["lukho", "equilibrium", "--out", o];
            all.extend_from_slice(args);
            mancala().args(&all).assert().code(2).stdout("").stderr(
                predicate::str::contains(field).and(predicate::function(|s: &str| s.trim().lines().count() == 1)),
            );
        };
    run(&["--race", "sequential", "--payoff", "score"], "--payoff");
    run(&["--race", "speeds", "--payoff", "margin"], "--race");
    run(&["--race", "random", "--payoff", "margin"], "--race");
    run(&["--race", "sequential", "--payoff", "margin", "--family", "0..10:drop=5"], "--family");
    run(&["--race", "sequential", "--payoff", "margin", "--family", "0..10", "--exploit", "99"], "--exploit");
    assert!(!out.exists(), "bad input wrote {o}");
    // A finished small run, then a foreign and a corrupt state.
    json_out(&[
        "lukho",
        "equilibrium",
        "--race",
        "north-first",
        "--payoff",
        "points",
        "--family",
        "0..30",
        "--out",
        o,
        "--json",
    ]);
    let state = out.join("state.lukho-eq");
    let before = std::fs::read(&state).unwrap();
    let answer = std::fs::read(out.join("equilibrium.json")).unwrap();
    run(&["--race", "north-first", "--payoff", "margin", "--family", "0..30"], "payoff");
    run(&["--race", "north-first", "--payoff", "points", "--family", "0..31"], "family");
    let mut bad = before.clone();
    let k = bad.len() - 3;
    bad[k] ^= 4;
    std::fs::write(&state, &bad).unwrap();
    run(&["--race", "north-first", "--payoff", "points", "--family", "0..30"], "crc32");
    assert_eq!(std::fs::read(&state).unwrap(), bad);
    assert_eq!(std::fs::read(out.join("equilibrium.json")).unwrap(), answer);
}

/// `lukho replies` on a small family: every South choice's best value equals the minimum of
/// its games against every family member (played here one by one), the most common reply is a
/// best reply to as many South choices as it claims, a rerun plays no game, and bad input is
/// one line naming the flag, exit 2, nothing written.
#[test]
fn replies_small_family_against_direct_games() {
    let proven = ProvenCycles::new();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rep");
    let o = out.to_str().unwrap();
    let fam = "all:remove=000000**";
    let south = "0,5,40,77";
    let args = ["lukho", "replies", "--south", south, "--race", "sequential", "--family", fam, "--out", o, "--json"];
    let a = json_out(&args);
    let ids: Vec<u32> = mancala::sweep::Spec::parse(fam).unwrap().ids(&R).unwrap();
    let payoff = |s: u32, n: u32| -> f64 {
        let (s, n) = (Choice::from_id(s as u64, &R).unwrap(), Choice::from_id(n as u64, &R).unwrap());
        [Race::SouthFirst, Race::NorthFirst]
            .iter()
            .map(|&r| play_game(&R, &proven, &s, &n, r).margin.0 as f64)
            .sum::<f64>()
            / 4.0
    };
    let rows = a["south"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let mc = a["most_common"]["id"].as_u64().unwrap() as u32;
    let mut hits = 0;
    for r in rows {
        let s = r["id"].as_u64().unwrap() as u32;
        let vals: Vec<f64> = ids.iter().map(|&n| payoff(s, n)).collect();
        let min = vals.iter().cloned().fold(f64::INFINITY, f64::min);
        assert_eq!(r["value"].as_f64().unwrap(), min, "South {s}");
        assert_eq!(r["best_replies"].as_u64().unwrap(), vals.iter().filter(|&&v| v == min).count() as u64);
        hits += (payoff(s, mc) == min) as u64;
    }
    assert_eq!(a["most_common"]["best_reply_to"].as_u64(), Some(hits));
    for f in ["replies.json", "replies-top.csv", "replies-south.csv"] {
        assert!(out.join(f).exists(), "{f}");
    }
    let b = json_out(&args);
    assert_eq!((b["games"].as_u64(), &b["top"]), (Some(0), &a["top"]));

    let bad = dir.path().join("bad");
    let run =
        |extra: &[&str], field: &str| {
            let mut all = vec!["lukho", "replies", "--out", bad.to_str().unwrap()];
            all.extend_from_slice(extra);
            mancala().args(&all).assert().code(2).stdout("").stderr(
                predicate::str::contains(field).and(predicate::function(|s: &str| s.trim().lines().count() == 1)),
            );
        };
    run(&["--south", "0", "--race", "speeds"], "--race");
    run(&["--south", "0", "--race", "sequential", "--payoff", "score"], "--payoff");
    run(&["--south", "x", "--race", "sequential"], "--south");
    run(&["--south", "9", "--race", "sequential", "--family", "0..5"], "--south");
    run(&["--south", "0", "--race", "sequential", "--top", "0"], "--top");
    assert!(!bad.exists());
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
