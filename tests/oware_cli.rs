//! The command-line contract (docs/cli.md): traces, errors, database commands.

use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::{mancala, usage_error};

fn lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn replay_prints_one_line_per_ply() {
    let out = mancala()
        .args(["oware", "replay", "--moves", "5,0,3", "--jsonl"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let l = lines(&out);
    assert_eq!(l.len(), 4);
    assert_eq!(l[0]["rules"]["grand_slam"], "no-capture");
    assert_eq!(l[0]["rules"]["cycle"], "split");
    assert_eq!(l[0]["ply"], 0);
    assert_eq!(l[0]["to_move"], "south");
    assert_eq!(l[0]["move"], 5);
    assert_eq!(l[0]["legal"], serde_json::json!([0, 1, 2, 3, 4, 5]));
    // After South 5: North 0..3 hold 5.
    assert_eq!(l[1]["pits"], serde_json::json!([4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 4]));
    assert_eq!(l[1]["to_move"], "north");
    // North 0 (absolute 6, 5 seeds) → North 1..5: 6 6 6 5 5.
    assert_eq!(l[2]["pits"], serde_json::json!([4, 4, 4, 4, 4, 0, 0, 6, 6, 6, 5, 5]));
    assert_eq!(l[3]["ply"], 3);
    assert!(l[3].get("move").is_none());
    assert_eq!(l[3]["terminal"], false);
    assert_eq!(l[3]["stores"], serde_json::json!([0, 0]));
}

#[test]
fn replay_to_the_end_reports_the_result() {
    // North, to move with South empty, must feed; the cycle of tests/oware_rules.rs.
    let out = mancala()
        .args(["oware", "replay", "--start", "0,0,0,0,0,0,1,0,0,0,0,1", "--to-move", "north", "--cycle", "own-rows"])
        .args(["--moves", "5,0,0,1,1,2,2,3,3,4,4,5", "--jsonl"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let l = lines(&out);
    let last = l.last().unwrap();
    assert_eq!(last["terminal"], true);
    assert_eq!(last["legal"], serde_json::json!([]));
    // 46 seeds off the board were split 23-23 by --start; own-rows gives North both.
    assert_eq!(last["result"]["score"], serde_json::json!([23, 25]));
    assert_eq!(last["result"]["winner"], "north");
}

#[test]
fn illegal_move_names_the_ply_and_the_legal_moves() {
    mancala()
        .args(["oware", "replay", "--moves", "0,0,0", "--jsonl"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("ply 2").and(predicate::str::contains("legal: [1, 2, 3, 4, 5]")));
}

#[test]
fn bad_pits_are_refused() {
    for (pits, field) in [
        ("4,4,4", "12 comma-separated"),
        ("4,4,4,4,4,4,4,4,4,4,4,x", "value 11"),
        ("4,4,4,4,4,4,4,4,4,4,4,-1", "value 11"),
        ("9,9,9,9,9,9,0,0,0,0,0,0", "54 seeds"),
    ] {
        mancala()
            .args(["oware", "solve", "--pits", pits])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("--pits").and(predicate::str::contains(field)));
    }
    mancala().args(["oware", "replay", "--moves", "1", "--grand-slam", "sometimes"]).assert().code(2);
}

/// The search, the component retrograde and the databases score a repetition as `split`
/// only, so `solve` refuses `own-rows` rather than answer under one rule and label it another.
#[test]
fn solve_refuses_the_own_rows_cycle_rule() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    mancala().args(["oware", "db", "build", "--max-stones", "2", "--dir", d]).assert().success();
    let pits = "0,0,0,0,1,2,1,0,0,0,0,3";
    for db in [None, Some(d)] {
        let mut cmd = mancala();
        cmd.args(["oware", "solve", "--pits", pits, "--cycle", "own-rows", "--json"]);
        if let Some(d) = db {
            cmd.args(["--db", d]);
        }
        let err = usage_error(&mut cmd);
        assert!(err.starts_with("error: --cycle: "), "{err}");
        assert!(err.contains("`split` only") && err.contains("history"), "{err}");
    }
    mancala().args(["oware", "solve", "--pits", pits, "--cycle", "split", "--json"]).assert().success();
}

#[test]
fn database_build_verify_stats_export_solve() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    mancala().args(["oware", "db", "build", "--max-stones", "6", "--dir", d]).assert().success();
    // Resumable: a second build keeps every layer.
    mancala()
        .args(["oware", "db", "build", "--max-stones", "7", "--dir", d])
        .assert()
        .success()
        .stderr(predicate::str::contains("layer  6:         12376 positions already built"));
    mancala()
        .args(["oware", "db", "verify", "--dir", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("verified layers 0..=7"));
    let out =
        mancala().args(["oware", "db", "stats", "--dir", d, "--json"]).assert().success().get_output().stdout.clone();
    let s: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(s["rules"]["grand_slam"], "no-capture");
    let l1 = &s["layers"][1];
    // One seed: the mover wins it iff he can keep it forever... with one seed the mover
    // either has it (and must eventually feed it across) or not (he loses it at once).
    assert_eq!(l1["positions"], 12);
    assert_eq!(l1["wins"].as_u64().unwrap() + l1["draws"].as_u64().unwrap() + l1["losses"].as_u64().unwrap(), 12);
    let csv = dir.path().join("t.csv");
    mancala()
        .args(["oware", "db", "export", "--dir", d, "--stones", "0..=2", "--format", "csv", "--out"])
        .arg(&csv)
        .assert()
        .success();
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    // The header first (no comment line): the rules are in the sidecar t.meta.json.
    assert_eq!(rows[0], "stones,p0,p1,p2,p3,p4,p5,p6,p7,p8,p9,p10,p11,value,best_move");
    assert_eq!(rows.len(), 1 + 1 + 12 + 78);
    let meta: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("t.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["file"], "t.csv");
    assert_eq!(meta["rules"], serde_json::json!({"game": "oware", "grand_slam": "no-capture", "cycle": "split"}));
    assert_eq!(meta["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(meta["columns"][0], serde_json::json!({"name": "stones", "type": "int"}));
    assert_eq!(meta["columns"][14], serde_json::json!({"name": "best_move", "type": "int"}));
    // The empty board: value 0, no move.
    assert_eq!(rows[1], "0,0,0,0,0,0,0,0,0,0,0,0,0,0,");
    // One seed in the mover's pit 5: it must be fed across (move 5) and the opponent, with
    // one seed in his own pit 0, ... the table says; here only the shape is checked.
    let jl = dir.path().join("t.jsonl");
    mancala()
        .args(["oware", "db", "export", "--dir", d, "--stones", "1", "--format", "jsonl", "--out"])
        .arg(&jl)
        .assert()
        .success();
    let j = lines(std::fs::read_to_string(&jl).unwrap().as_bytes());
    assert_eq!(j.len(), 13);
    assert!(j[0]["rules"].is_object());
    // Mover has nothing (seed in opponent pit 5): he loses it.
    assert_eq!(j[1]["p11"], 1);
    assert_eq!(j[1]["value"], -1);
    assert!(j[1]["best_move"].is_null());
    // Solve from the database and by search agree.
    let pits = "0,0,0,1,2,1,0,0,1,0,0,1";
    let a: Value = serde_json::from_slice(
        &mancala().args(["oware", "solve", "--pits", pits, "--db", d, "--json"]).assert().success().get_output().stdout,
    )
    .unwrap();
    let b: Value = serde_json::from_slice(
        &mancala().args(["oware", "solve", "--pits", pits, "--json"]).assert().success().get_output().stdout,
    )
    .unwrap();
    assert_eq!(a["method"], "db");
    assert_eq!(b["method"], "search");
    assert_eq!(a["value"], b["value"]);
    assert_eq!(a["best_moves"], b["best_moves"]);
    assert_eq!(a["pv"], b["pv"]);
    assert_eq!(a["exact"], true);
    // --svg writes a chart.
    let svg = dir.path().join("wdl.svg");
    mancala().args(["oware", "db", "stats", "--dir", d, "--svg"]).arg(&svg).assert().success();
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
}

#[test]
fn foreign_truncated_or_corrupt_databases_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    mancala().args(["oware", "db", "build", "--max-stones", "4", "--dir", d]).assert().success();
    // Other rules: a clear error naming the flag.
    mancala()
        .args(["oware", "db", "stats", "--dir", d, "--grand-slam", "awari"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("other rules").and(predicate::str::contains("--grand-slam")));
    // own-rows has no database.
    mancala()
        .args(["oware", "db", "build", "--max-stones", "2", "--dir", d, "--cycle", "own-rows"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--cycle"));
    // Corrupt one byte of layer 4's payload: verify names the file and the checksum.
    let f = dir.path().join("oware-gs-no-capture-4.db");
    let mut bytes = std::fs::read(&f).unwrap();
    let k = bytes.len() - 10;
    bytes[k] ^= 1;
    std::fs::write(&f, &bytes).unwrap();
    mancala().args(["oware", "db", "verify", "--dir", d]).assert().code(2).stderr(predicate::str::contains("checksum"));
    // Truncate it: every command refuses it.
    std::fs::write(&f, &bytes[..bytes.len() - 5]).unwrap();
    mancala().args(["oware", "db", "stats", "--dir", d]).assert().code(2).stderr(predicate::str::contains("truncated"));
    // Exporting to a bad range writes nothing.
    let out = dir.path().join("x.csv");
    mancala()
        .args(["oware", "db", "export", "--dir", d, "--stones", "3..=1", "--format", "csv", "--out"])
        .arg(&out)
        .assert()
        .code(2);
    assert!(!out.exists());
    // Too much memory: refused up front with the figure.
    mancala()
        .args(["oware", "db", "build", "--max-stones", "48", "--dir", d])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("GiB"));
}

/// One flipped payload byte of layer 3: every command that would read a value of it (solve,
/// stats, export, a resumed build) refuses with one line naming the file, and nothing is
/// written; a solve that cannot reach layer 3 (two seeds) still answers from layers 0..=2.
#[test]
fn a_damaged_layer_is_never_served() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    mancala().args(["oware", "db", "build", "--max-stones", "4", "--dir", d]).assert().success();
    let f = dir.path().join("oware-gs-no-capture-3.db");
    let mut bytes = std::fs::read(&f).unwrap();
    let k = bytes.len() - 100;
    bytes[k] ^= 0x40;
    std::fs::write(&f, &bytes).unwrap();
    let name = "oware-gs-no-capture-3.db: damaged: checksum mismatch";
    let out = dir.path().join("x.csv");
    let three_seeds = ["oware", "solve", "--pits", "0,1,0,0,1,0,0,0,1,0,0,0", "--db", d];
    for args in [
        &three_seeds[..],
        &["oware", "db", "stats", "--dir", d],
        &["oware", "db", "export", "--dir", d, "--stones", "0..=4", "--format", "csv", "--out", out.to_str().unwrap()],
        &["oware", "db", "build", "--max-stones", "5", "--dir", d],
    ] {
        let err = usage_error(mancala().args(args));
        assert!(err.contains(name) && err.starts_with("error: --"), "{args:?}: {err}");
    }
    assert!(!out.exists());
    assert!(!dir.path().join("oware-gs-no-capture-5.db").exists());
    // Two seeds (South 0 and North 0): the value comes from layer 2, which is intact.
    let v = common::json_out(&["oware", "solve", "--pits", "1,0,0,0,0,0,1,0,0,0,0,0", "--db", d, "--json"]);
    assert_eq!(v["method"], "db");
}

/// Without the `parquet` feature, `db export --format parquet` is bad input: one line naming
/// the flag, exit 2, no output file (nor its temporary).
#[cfg(not(feature = "parquet"))]
#[test]
fn export_parquet_without_the_feature_is_exit_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    mancala().args(["oware", "db", "build", "--max-stones", "2", "--dir"]).arg(&db).assert().success();
    let out = dir.path().join("t.parquet");
    let err = usage_error(
        mancala()
            .args(["oware", "db", "export", "--stones", "0..=2", "--format", "parquet", "--dir"])
            .arg(&db)
            .arg("--out")
            .arg(&out),
    );
    assert!(err.starts_with("error: --format: parquet needs a build with `--features parquet`"), "{err}");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["db"]);
}

/// A file another run is writing (its temporary locked, here by the test itself) is refused:
/// one line naming `--out`, exit 2, and the other writer's bytes untouched.
#[test]
fn an_export_to_a_file_another_run_is_writing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    mancala().args(["oware", "db", "build", "--max-stones", "3", "--dir", d]).assert().success();
    let out = dir.path().join("t.csv");
    let tmp = dir.path().join(".t.csv.tmp");
    std::fs::write(&tmp, "being written").unwrap();
    // The other writer is a process of its own (util-linux `flock`), not a lock this test
    // process holds: a child that another test thread forks inherits this process's open
    // files until it execs, and with it the lock, which under load outlived a `drop` here
    // (seen in CI: the export after the drop was refused).
    // `-o`: the lock is flock's own, not inherited by `sleep`; the group is killed below.
    use std::os::unix::process::CommandExt;
    let mut held = std::process::Command::new("flock")
        .arg("-o")
        .arg(&tmp)
        .args(["sleep", "600"])
        .process_group(0)
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while std::fs::File::open(&tmp).unwrap().try_lock().is_ok() {
        assert!(t0.elapsed().as_secs() < 30, "flock did not take the lock");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let err = usage_error(
        mancala()
            .args(["oware", "db", "export", "--dir", d, "--stones", "0..=3", "--format", "csv", "--out"])
            .arg(&out),
    );
    assert!(err.starts_with("error: --out: ") && err.contains("another run is writing this file now"), "{err}");
    assert_eq!(std::fs::read_to_string(&tmp).unwrap(), "being written");
    assert!(!out.exists());
    // SAFETY: a signal to the process group this test started.
    unsafe { libc::kill(-(held.id() as libc::pid_t), libc::SIGKILL) };
    held.wait().unwrap();
    mancala()
        .args(["oware", "db", "export", "--dir", d, "--stones", "0..=3", "--format", "csv", "--out"])
        .arg(&out)
        .assert()
        .success();
    assert!(!tmp.exists());
}

/// A limited solve whose bounds do not separate the moves says so, instead of calling every
/// move best (the opening position at depth 2: every move's interval overlaps the others').
#[test]
fn an_inexact_solve_names_no_move_best_unless_proven() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["oware", "solve", "--pits", "4,4,4,4,4,4,4,4,4,4,4,4", "--depth", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("best moves: no move is proven best (the bounds overlap); candidates: 0, 1, 2, 3, 4, 5"),
        "{text}"
    );
    // Nor is its line passed off as perfect play.
    assert!(text.contains("\npv (so far, not proven): ["), "{text}");
    // Not a terminal: no progress line on stderr.
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A stop between a layer's write and the removal of its out-of-core work directory leaves the
/// directory beside a finished layer (as a kill of a packed build did); the next build removes it.
#[test]
fn a_finished_layers_leftover_work_directory_is_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    let d = db.to_str().unwrap();
    mancala().args(["oware", "db", "build", "--max-stones", "4", "--dir", d]).assert().success();
    let work = db.join(".oware-gs-no-capture-2.db.work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("progress"), b"left by a stopped build").unwrap();
    mancala().args(["oware", "db", "build", "--max-stones", "5", "--dir", d]).assert().success();
    assert!(!work.exists());
    assert!(db.join("oware-gs-no-capture-5.db").exists());
}

/// A position with more seeds than the database holds is searched, and the text answer says
/// so plainly, as the web page does; one inside it says nothing of the kind.
#[test]
fn a_position_above_the_database_is_said_to_be_outside() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    let d = db.to_str().unwrap();
    mancala().args(["oware", "db", "build", "--max-stones", "4", "--dir", d]).assert().success();
    let solve = |pits: &str| {
        let out = mancala().args(["oware", "solve", "--pits", pits, "--db", d]).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let above = solve("0,0,0,0,1,2,1,0,0,0,0,2");
    assert!(above.contains("\noutside the database: 6 seeds on the board, it holds up to 4; searched\n"), "{above}");
    assert!(above.contains("(exact, search)"), "{above}");
    let inside = solve("0,0,0,0,1,2,1,0,0,0,0,0");
    assert!(!inside.contains("outside"), "{inside}");
    assert!(inside.contains("(exact, db)") && inside.contains("read off the database"), "{inside}");
}
