//! `mancala kiothi db …`: build (resumable), verify, stats, export, the probe API, and bad
//! input (one line on stderr, exit 2, nothing written).

use assert_cmd::Command;
use mancala::games::kiothi::{Position, Rules};
use mancala::retro::kiothi::{layer_path, Database, View, INDEX_ORDER};
use mancala::side::Side;
use mancala::store::layer_file::{write_layer, Header, FORMAT_VERSION};
use predicates::prelude::*;
use serde_json::Value;

fn mancala() -> Command {
    Command::cargo_bin("mancala").unwrap()
}

fn one_line_error(out: &std::process::Output) -> String {
    let e = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(e.trim_end().lines().count(), 1, "not one line: {e}");
    e
}

mod common;
use common::layer_checksums;

/// The recorded crc32 of a layer (tests/data/kiothi/layers.csv), as the CLI prints it.
fn crc(n: usize) -> String {
    format!("{:08x}", layer_checksums::expected_crc("tests/data/kiothi/layers.csv", "nki-lift-relays-any", n))
}

#[test]
fn build_resume_verify_stats_export_probe() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    mancala().args(["kiothi", "db", "build", "--max-warriors", "3", "--dir", d]).assert().success();
    // Resumable: a second build keeps every finished layer.
    mancala()
        .args(["kiothi", "db", "build", "--max-warriors", "4", "--dir", d, "--threads", "2"])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!("layer  3:         10680 positions already built, crc32 {}", crc(3))))
        .stderr(predicate::str::contains("layer  4:        107200 positions in"))
        .stderr(predicate::str::contains(format!("crc32 {}", crc(4))));
    mancala()
        .args(["kiothi", "db", "verify", "--dir", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("verified layers 0..=4"));
    let out =
        mancala().args(["kiothi", "db", "stats", "--dir", d, "--json"]).assert().success().get_output().stdout.clone();
    let s: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(s["rules"]["nki_clear"], "lift");
    assert_eq!(s["rules"]["repetition"], "split");
    // One warrior: 20 boma × nki or not. The mover wins it when it is on his own indices 0..8
    // (he steps it forward, the opponent is stuck) and loses it otherwise (index 9 hands it
    // over; on the opponent's side he is stuck at once): 9 × 2 wins, 11 × 2 losses.
    let l1 = &s["layers"][1];
    assert_eq!(
        (l1["positions"].as_u64(), l1["wins"].as_u64(), l1["draws"].as_u64(), l1["losses"].as_u64()),
        (Some(40), Some(18), Some(0), Some(22))
    );
    assert_eq!(s["layers"][4]["checksum"], crc(4));
    let (csv, hist, svg) = (dir.path().join("l.csv"), dir.path().join("h.csv"), dir.path().join("w.svg"));
    mancala()
        .args(["kiothi", "db", "stats", "--dir", d, "--csv"])
        .arg(&csv)
        .arg("--histogram-csv")
        .arg(&hist)
        .arg("--svg")
        .arg(&svg)
        .assert()
        .success();
    let c = std::fs::read_to_string(&csv).unwrap();
    // The header first; the rules in the sidecar l.meta.json.
    assert!(c.lines().next().unwrap() == "warriors,positions,wins,draws,losses,crc32");
    let meta: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("l.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["rules"]["game"], "kiothi");
    assert_eq!(meta["columns"][5], serde_json::json!({"name": "crc32", "type": "str"}));
    assert!(c.contains(&format!("\n1,40,18,0,22,{}\n", crc(1))));
    assert!(std::fs::read_to_string(&hist).unwrap().contains("\n1,-1,22\n"));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));

    let out = dir.path().join("t.csv");
    mancala()
        .args(["kiothi", "db", "export", "--dir", d, "--warriors", "0..=1", "--format", "csv", "--out"])
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    // The header first (no comment line): the rules are in the sidecar t.meta.json.
    let meta: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("t.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["rules"]["game"], "kiothi");
    assert_eq!(meta["file"], "t.csv");
    let head: Vec<String> = ["warriors".to_string()]
        .into_iter()
        .chain((0..20).map(|i| format!("p{i}")))
        .chain((0..20).map(|i| format!("nki{i}")))
        .chain(["value".into(), "best_move".into()])
        .collect();
    assert_eq!(rows[0], head.join(","));
    assert_eq!(rows.len(), 1 + 1 + 40);
    // The empty board: the mover has no move (K8), value 0, no best move.
    assert_eq!(rows[1], format!("0,{}0,", "0,".repeat(40)));
    // Layer 1 in index order: the warrior on boma 0, not nki then nki; boma 0 is own index 0:
    // 0:1 steps it to own index 1 and the opponent is stuck: +1.
    let zeros = |k: usize| "0,".repeat(k);
    assert_eq!(rows[2], format!("1,1,{}{}1,0:1", zeros(19), zeros(20)));
    assert_eq!(rows[3], format!("1,1,{}1,{}1,0:1", zeros(19), zeros(19)));
    let jl = dir.path().join("t.jsonl");
    mancala()
        .args(["kiothi", "db", "export", "--dir", d, "--warriors", "1", "--format", "jsonl", "--out"])
        .arg(&jl)
        .assert()
        .success();
    let j: Vec<Value> =
        std::fs::read_to_string(&jl).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(j.len(), 41);
    assert_eq!(j[0]["rules"]["game"], "kiothi");
    // The last rows: the warrior on the opponent's index 9 (boma 19): the mover is stuck.
    assert_eq!((j[40]["p19"].as_i64(), j[40]["nki19"].as_i64(), j[40]["value"].as_i64()), (Some(1), Some(1), Some(-1)));
    assert!(j[40]["best_move"].is_null());

    // Probe API: a position after the opening, either side to move.
    let db = Database::open(dir.path(), Rules::default()).unwrap();
    assert_eq!(db.max_layer(), 4);
    let mut p = Position { boma: [0; 20], prisons: [20, 30], nki: 0, to_move: Side::North, turn: 17 };
    p.boma[13] = 1; // North's own index 3
    assert_eq!(db.probe_position(&p), Some(1));
    p.to_move = Side::South; // South has nothing
    assert_eq!(db.probe_position(&p), Some(-1));
    let v = View::of(&p).unwrap();
    assert_eq!(v.boma[13], 1); // South's view: the warrior is on the opponent's index 3
    let north = View::of(&Position { to_move: Side::North, ..p }).unwrap();
    assert_eq!(db.best_move(&north), Some(("3:1".parse().unwrap(), 1)));
    assert_eq!(db.best_move(&v), None);
    p.turn = 2;
    assert_eq!(db.probe_position(&p), None);
    p.turn = 3;
    p.boma[0] = 5; // 6 warriors: beyond the tables
    assert_eq!(db.probe_position(&p), None);
    // 21 warriors: beyond the index itself (which stops at the largest buildable layer); a
    // solver probes such boards at every node, so this must be None, not a panic.
    p.boma = [1; 20];
    p.boma[0] = 2;
    assert_eq!(db.probe_position(&p), None);
    assert_eq!(db.best_move(&View::of(&p).unwrap()), None);
}

#[test]
fn bad_input_is_one_line_exit_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("db");
    let ds = d.to_str().unwrap();
    // Rules without tables, unknown values, too many warriors, too little memory: nothing built.
    for (args, needle) in [
        (vec!["--max-warriors", "2", "--nki-clear", "pass"], "--nki-clear"),
        (vec!["--max-warriors", "2", "--max-relays", "100"], "--max-relays"),
        (vec!["--max-warriors", "11"], "--max-warriors"),
        (vec!["--max-warriors", "two"], "--max-warriors"),
        (vec!["--max-warriors", "2", "--threads", "0"], "--threads"),
    ] {
        let out = mancala().args(["kiothi", "db", "build", "--dir", ds]).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        if needle != "--max-warriors" || args[1] != "two" {
            assert!(one_line_error(&out).contains(needle), "{args:?}");
        }
        assert!(!d.exists(), "{args:?} wrote {}", d.display());
        assert!(out.stdout.is_empty());
    }
    mancala()
        .args(["kiothi", "db", "build", "--dir", ds, "--max-warriors", "2", "--nki-clear", "often"])
        .assert()
        .code(2);
    let out = mancala()
        .env("MANCALA_MEMORY_LIMIT_GIB", "1")
        .args(["kiothi", "db", "build", "--dir", ds, "--max-warriors", "9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(one_line_error(&out).contains("needs about 3.2 GiB"));
    assert!(!d.exists());

    // No tables at all, or other commands under rules without tables.
    let out = mancala().args(["kiothi", "db", "stats", "--dir", ds]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(one_line_error(&out).contains("no Kiothi tables"));
    let out = mancala().args(["kiothi", "db", "verify", "--dir", ds, "--nki-clear", "pass"]).output().unwrap();
    assert!(one_line_error(&out).contains("--nki-clear"));

    mancala().args(["kiothi", "db", "build", "--max-warriors", "3", "--dir", ds]).assert().success();
    // A bad range for export: nothing written.
    let x = dir.path().join("x.csv");
    for w in ["3..=1", "0..=11", "5", "a"] {
        let out = mancala()
            .args(["kiothi", "db", "export", "--dir", ds, "--warriors", w, "--format", "csv", "--out"])
            .arg(&x)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{w}");
        assert!(one_line_error(&out).contains("--warriors"), "{w}");
        assert!(!x.exists());
    }
    // A layer built under other rules (the header says nki-clear pass) under the name of the
    // default rules' file: refused, naming both.
    let f = layer_path(&d, &Rules::default(), 3);
    let good = std::fs::read(&f).unwrap();
    let header = Header {
        format_version: FORMAT_VERSION,
        game: "kiothi".into(),
        rules: r#"{"game":"kiothi","max_relays":null,"nki_clear":"pass","repetition":"split"}"#.into(),
        index_order: INDEX_ORDER.into(),
        layer: 3,
        entries: 0,
        checksum: 0,
    };
    write_layer(&f, header, &vec![0i8; 10680]).unwrap();
    let out = mancala().args(["kiothi", "db", "stats", "--dir", ds]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = one_line_error(&out);
    assert!(e.contains("built for") && e.contains("\"pass\"") && e.contains("\"lift\""), "{e}");
    // Corrupt one payload byte: verify names the checksum (after the layers that passed).
    let mut bytes = good.clone();
    let k = bytes.len() - 7;
    bytes[k] ^= 1;
    std::fs::write(&f, &bytes).unwrap();
    let out = mancala().args(["kiothi", "db", "verify", "--dir", ds]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(one_line_error(&out).contains("checksum"));
    // Truncated: every command refuses it; a resumed build does not overwrite it.
    std::fs::write(&f, &good[..good.len() - 5]).unwrap();
    for args in [vec!["stats"], vec!["verify"], vec!["build", "--max-warriors", "4"]] {
        let out = mancala().args(["kiothi", "db"]).args(&args).args(["--dir", ds]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).lines().last().unwrap().contains("truncated"), "{args:?}");
    }
    assert!(!layer_path(&d, &Rules::default(), 4).exists());
    // An Oware directory is not a Kiothi one.
    let o = dir.path().join("oware");
    mancala().args(["oware", "db", "build", "--max-stones", "2", "--dir"]).arg(&o).assert().success();
    mancala()
        .args(["kiothi", "db", "stats", "--dir"])
        .arg(&o)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no Kiothi tables"));
}
