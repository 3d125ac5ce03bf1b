//! Packed databases (`db pack`): every value of a packed copy equals the raw one, solve, stats,
//! export and verify answer the same from either, and a packed file that is truncated, damaged,
//! of other rules or of another game is refused with one line naming it (exit 2).

mod common;
use common::{mancala, usage_error};
use mancala::games::oware::Rules;
use mancala::retro::oware::Database;
use mancala::retro::LayeredGame;
use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;

/// A raw Oware database of layers `0..=max` in `raw` and its packed copy in `packed`.
fn build_and_pack(raw: &Path, packed: &Path, max: &str) {
    mancala().args(["oware", "db", "build", "--max-stones", max, "--dir"]).arg(raw).assert().success();
    mancala()
        .args(["oware", "db", "pack", "--dir"])
        .arg(raw)
        .arg("--out")
        .arg(packed)
        .assert()
        .success()
        .stderr(predicate::str::contains(format!("packed layers 0..={max}")));
}

/// A solve's JSON without its timings (to depth 10 for a position above the tables).
fn solve(pits: &str, db: &Path) -> Value {
    let out = mancala()
        .args(["oware", "solve", "--depth", "10", "--pits", pits, "--json", "--db"])
        .arg(db)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let mut v: Value = serde_json::from_slice(&out).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("seconds");
    o.remove("nodes_per_second");
    v
}

/// Raw → packed → every value of every layer equal (by single reads, which decompress blocks
/// through the cache, and by the whole-layer read); probes, best moves, the checksums in the
/// headers and the files' sizes (a packed layer of more than a few blocks is at most half
/// its raw bytes).
#[test]
fn every_value_of_a_packed_database_equals_the_raw_one() {
    let dir = tempfile::tempdir().unwrap();
    let (raw, packed) = (dir.path().join("raw"), dir.path().join("packed"));
    build_and_pack(&raw, &packed, "10");
    let a = Database::open(&raw, Rules::default()).unwrap();
    let b = Database::open(&packed, Rules::default()).unwrap();
    assert_eq!((a.max_layer(), b.max_layer()), (10, 10));
    for (n, (la, lb)) in a.layers().iter().zip(b.layers()).enumerate() {
        assert!(!la.is_packed() && lb.is_packed());
        assert_eq!(la.header().checksum, lb.header().checksum, "layer {n}");
        let size = a.game.layer_size(n);
        let values = la.values().unwrap();
        assert_eq!(values.len() as u64, size);
        // Every value, in rank order, then a stride that revisits evicted blocks.
        assert!((0..size).all(|r| lb.value(r) == values[r as usize]), "layer {n}");
        assert!((0..size).rev().step_by(4099).all(|r| lb.value(r) == values[r as usize]), "layer {n}");
        assert_eq!(lb.values().unwrap(), values, "layer {n}");
        let (ra, rb) = (std::fs::metadata(la.path()).unwrap().len(), std::fs::metadata(lb.path()).unwrap().len());
        if size > 100_000 {
            assert!(rb * 2 < ra, "layer {n}: packed {rb} bytes, raw {ra}");
        }
    }
    assert!(b.damage().is_ok());
    // Probes and best moves of positions of layer 10.
    for r in (0..a.game.layer_size(10)).step_by(1009) {
        let v = a.game.unrank(10, r);
        assert_eq!(a.probe(&v), b.probe(&v));
        assert_eq!(a.best_move(&v), b.best_move(&v));
    }
}

/// `solve --db` on the raw and the packed database: the same JSON (value, best moves, PV,
/// nodes) from positions above the tables (search probing them) and inside them; `verify` on
/// the packed directory runs the Bellman check; `stats` and `export` print the same bytes;
/// a second `pack` keeps every layer; packing into the source directory or a packed directory
/// is refused.
#[test]
fn solve_stats_export_and_verify_read_packed_databases() {
    let dir = tempfile::tempdir().unwrap();
    let (raw, packed) = (dir.path().join("raw"), dir.path().join("packed"));
    build_and_pack(&raw, &packed, "8");
    for pits in ["1,0,2,0,0,3,0,1,1,0,2,1", "3,0,0,0,0,1,4,0,0,2,0,1", "2,0,0,1,0,2,0,1,0,2,1,1"] {
        let (x, y) = (solve(pits, &raw), solve(pits, &packed));
        assert_eq!(x, y, "{pits}");
        assert!(x["nodes"].as_u64().unwrap() > 1000, "{pits}: {x}");
    }
    // Inside the tables: the value and every best move come from the database.
    let (x, y) = (solve("0,0,0,1,2,1,0,0,1,0,0,1", &raw), solve("0,0,0,1,2,1,0,0,1,0,0,1", &packed));
    assert_eq!(x, y);
    assert_eq!(
        (x["method"].as_str(), x["value"].as_i64(), x["best_moves"].to_string()),
        (Some("db"), Some(-6), "[3,4,5]".into())
    );
    mancala().args(["oware", "db", "verify", "--dir"]).arg(&packed).assert().success().stdout(
        predicate::str::contains("layer  8:         75582 positions ok").and(predicate::str::contains("packed")),
    );
    let stats = |d: &Path| common::stdout(&["oware", "db", "stats", "--json", "--dir", d.to_str().unwrap()]);
    assert_eq!(stats(&raw), stats(&packed));
    let export = |d: &Path, out: &Path| {
        mancala()
            .args(["oware", "db", "export", "--stones", "0..=8", "--format", "csv", "--dir"])
            .arg(d)
            .arg("--out")
            .arg(out)
            .assert()
            .success();
        std::fs::read(out).unwrap()
    };
    let (ea, eb) = (export(&raw, &dir.path().join("a.csv")), export(&packed, &dir.path().join("b.csv")));
    // The header row and one row per position of layers 0..=8; the rules are in the sidecar.
    assert_eq!(ea.iter().filter(|&&c| c == b'\n').count(), 1 + 125_970);
    assert!(dir.path().join("a.meta.json").is_file() && dir.path().join("b.meta.json").is_file());
    assert!(ea == eb, "exports differ");
    // Resumed: every layer is kept.
    mancala().args(["oware", "db", "pack", "--dir"]).arg(&raw).arg("--out").arg(&packed).assert().success().stderr(
        predicate::str::contains("layer  8:         75582 positions").and(predicate::str::contains("already packed")),
    );
    let err = usage_error(mancala().args(["oware", "db", "pack", "--dir"]).arg(&raw).arg("--out").arg(&raw));
    assert!(err.contains("--out") && err.contains("source directory"), "{err}");
    let err = usage_error(
        mancala().args(["oware", "db", "pack", "--dir"]).arg(&packed).arg("--out").arg(dir.path().join("x")),
    );
    assert!(err.contains("--dir") && err.contains("packed already"), "{err}");
}

/// Kiothi tables pack too, and read back the same.
#[test]
fn kiothi_tables_pack() {
    let dir = tempfile::tempdir().unwrap();
    let (raw, packed) = (dir.path().join("raw"), dir.path().join("packed"));
    mancala().args(["kiothi", "db", "build", "--max-warriors", "3", "--dir"]).arg(&raw).assert().success();
    mancala().args(["kiothi", "db", "pack", "--dir"]).arg(&raw).arg("--out").arg(&packed).assert().success();
    let stats = |d: &Path| common::stdout(&["kiothi", "db", "stats", "--json", "--dir", d.to_str().unwrap()]);
    assert_eq!(stats(&raw), stats(&packed));
    mancala().args(["kiothi", "db", "verify", "--dir"]).arg(&packed).assert().success();
}

/// Bad packed files: truncated (anywhere), one flipped byte in a compressed block, a packed
/// layer of other rules or of another game under the expected name. Each command that reads
/// it refuses with one line naming the file (and the block), exit 2, and writes nothing.
#[test]
fn bad_packed_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (raw, packed) = (dir.path().join("raw"), dir.path().join("packed"));
    build_and_pack(&raw, &packed, "8");
    let name = "oware-gs-no-capture-8.db";
    let f = packed.join(name);
    let good = std::fs::read(&f).unwrap();
    let d = packed.to_str().unwrap();
    let out = dir.path().join("x.csv");
    let eight_seeds = ["oware", "solve", "--pits", "1,1,0,0,1,2,0,1,0,1,1,0", "--db", d];
    let readers: Vec<Vec<&str>> = vec![
        eight_seeds.to_vec(),
        vec!["oware", "db", "stats", "--dir", d],
        vec!["oware", "db", "verify", "--dir", d],
        vec!["oware", "db", "export", "--dir", d, "--stones", "8", "--format", "csv", "--out", out.to_str().unwrap()],
    ];
    let refused = |what: &str, extra: &str| {
        for args in &readers {
            // `verify` prints each layer it has checked before the one that fails.
            let err = if args[2] == "verify" {
                let out = mancala().args(args).assert().code(2).get_output().clone();
                String::from_utf8(out.stderr).unwrap()
            } else {
                usage_error(mancala().args(args))
            };
            assert_eq!(err.trim_end().lines().count(), 1, "{what}: {args:?}: {err}");
            assert!(
                err.contains(name) && err.contains(extra) && err.starts_with("error: --"),
                "{what}: {args:?}: {err}"
            );
        }
        assert!(!out.exists());
    };
    for len in [0, 7, 40, good.len() / 2, good.len() - 1] {
        std::fs::write(&f, &good[..len]).unwrap();
        refused(&format!("truncated to {len}"), "");
    }
    // A byte in the middle of the compressed blocks (75582 values: 3 blocks).
    let mut bytes = good.clone();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x21;
    std::fs::write(&f, &bytes).unwrap();
    refused("damaged block", "damaged: block ");

    // Layer 8 of the awari rules under the no-capture name.
    let (raw2, packed2) = (dir.path().join("raw2"), dir.path().join("packed2"));
    mancala()
        .args(["oware", "db", "build", "--max-stones", "8", "--grand-slam", "awari", "--dir"])
        .arg(&raw2)
        .assert()
        .success();
    mancala()
        .args(["oware", "db", "pack", "--grand-slam", "awari", "--dir"])
        .arg(&raw2)
        .arg("--out")
        .arg(&packed2)
        .assert()
        .success();
    std::fs::copy(packed2.join("oware-gs-awari-8.db"), &f).unwrap();
    refused("other rules", "built for game oware rules");
    // A packed Kiothi layer under an Oware name.
    let (kraw, kpacked) = (dir.path().join("kraw"), dir.path().join("kpacked"));
    mancala().args(["kiothi", "db", "build", "--max-warriors", "2", "--dir"]).arg(&kraw).assert().success();
    mancala().args(["kiothi", "db", "pack", "--dir"]).arg(&kraw).arg("--out").arg(&kpacked).assert().success();
    let k2 = std::fs::read_dir(&kpacked)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("-2.db"))
        .unwrap();
    std::fs::copy(k2, &f).unwrap();
    refused("another game", "built for game kiothi");
    // Intact again: every reader answers.
    std::fs::write(&f, &good).unwrap();
    for args in &readers {
        mancala().args(args).assert().success();
    }
}

/// Largest layer of the built-packed tests (the debug profile is about ten times slower).
const BUILT_PACKED_MAX: usize = if cfg!(debug_assertions) { 10 } else { 12 };

/// `db build` with `args` into `dir`; its log.
fn db_build(dir: &Path, max: usize, args: &[&str]) -> String {
    let out = mancala()
        .args(["oware", "db", "build", "--threads", "2", "--max-stones", &max.to_string(), "--dir"])
        .arg(dir)
        .args(args)
        .assert()
        .success()
        .get_output()
        .stderr
        .clone();
    String::from_utf8(out).unwrap()
}

/// The files of `dir` that are not layers: none but the writer's lock may stay.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !(n.contains("lock") || n.starts_with("oware-") && n.ends_with(".db")))
        .collect()
}

/// `db build --pack`: every layer is packed as soon as it is built and checked, and the next
/// ones are built from the packed lower layers (streamed): the directory then holds no raw
/// layer, every layer has the published checksum, `solve --db` answers as from the raw
/// in-memory build and `db verify` checks it; a rerun keeps every layer.
#[test]
fn a_build_with_pack_keeps_every_layer_packed_with_the_published_checksums() {
    use mancala::store::packed::is_packed;
    let max = BUILT_PACKED_MAX;
    let dir = tempfile::tempdir().unwrap();
    let (raw, packed) = (dir.path().join("raw"), dir.path().join("packed"));
    db_build(&raw, max, &[]);
    let log = db_build(&packed, max, &["--pack"]);
    assert!(log.contains("lower layers streamed from layer 0") && log.contains("every finished layer packed"), "{log}");
    assert!(
        log.contains(&format!("layer {max}:")) && log.contains("packed ") && log.contains("bits/position"),
        "{log}"
    );
    let want: Vec<u32> =
        common::layer_checksums::shipped("results/oware/layers.csv", "stones").1.iter().map(|r| r.crc32).collect();
    let d = Database::open(&packed, Rules::default()).unwrap();
    assert_eq!(d.max_layer(), max);
    for (n, l) in d.layers().iter().enumerate() {
        assert!(l.is_packed() && is_packed(l.path()), "layer {n}");
        assert_eq!(l.header().checksum, want[n], "layer {n}");
        let values = l.values().unwrap();
        assert_eq!(mancala::store::layer_file::checksum(mancala::store::layer_file::as_bytes(&values)), want[n]);
    }
    assert!(leftovers(&packed).is_empty(), "{:?}", leftovers(&packed));
    let bytes: u64 = d.layers().iter().map(|l| std::fs::metadata(l.path()).unwrap().len()).sum();
    let positions: u64 = d.layers().iter().map(|l| l.header().entries).sum();
    assert!(bytes * 8 < positions * 5, "{bytes} bytes for {positions} positions");
    drop(d);
    // Inside the tables and above them (search probing them): the same answers.
    for pits in ["0,0,0,1,2,1,0,0,1,0,0,1", "1,0,2,0,0,3,0,1,1,0,2,1", "3,0,1,0,0,1,4,0,0,2,0,1"] {
        assert_eq!(solve(pits, &raw), solve(pits, &packed), "{pits}");
    }
    mancala()
        .args(["oware", "db", "verify", "--dir"])
        .arg(&packed)
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("layer {max}:")).and(predicate::str::contains("Bellman, packed")));
    // A rerun finds every layer built, and changes nothing.
    let before = std::fs::read(packed.join(format!("oware-gs-no-capture-{max}.db"))).unwrap();
    let log = db_build(&packed, max, &["--pack"]);
    assert_eq!(log.matches("already built").count(), max + 1, "{log}");
    assert!(before == std::fs::read(packed.join(format!("oware-gs-no-capture-{max}.db"))).unwrap());
}

/// A build stopped after a raw layer is written but before it is packed leaves raw layers
/// (as a raw build does): `--pack` packs them in place, then builds on. Without `--pack` a
/// directory of packed layers is built on only by streamed lookups, and `--pack` refuses
/// mapped ones; each refusal is one line naming the flag, and writes nothing.
#[test]
fn a_packed_build_resumes_from_raw_layers_and_refuses_mapped_lookups() {
    use mancala::store::packed::is_packed;
    let max = BUILT_PACKED_MAX;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    db_build(&db, max - 2, &[]);
    // A packed layer's leftover temporary from a stopped pack is replaced, not read.
    std::fs::write(db.join(format!(".oware-gs-no-capture-{}.db.tmp", max - 2)), b"partial").unwrap();
    let log = db_build(&db, max, &["--pack"]);
    assert_eq!(log.matches("already built").count(), max - 1, "{log}");
    let want = common::layer_checksums::shipped("results/oware/layers.csv", "stones").1;
    let d = Database::open(&db, Rules::default()).unwrap();
    for (n, l) in d.layers().iter().enumerate() {
        assert!(l.is_packed(), "layer {n}");
        assert_eq!(l.header().checksum, want[n].crc32, "layer {n}");
        l.verify().unwrap();
    }
    drop(d);
    assert!(leftovers(&db).is_empty(), "{:?}", leftovers(&db));
    let d = db.to_str().unwrap();
    let next = (max + 1).to_string();
    let build = |extra: &[&str]| {
        let mut c = mancala();
        c.args(["oware", "db", "build", "--max-stones", &next, "--dir", d]).args(extra);
        c
    };
    let err = usage_error(&mut build(&["--pack", "--lookups", "mapped"]));
    assert!(err.starts_with("error: --pack"), "{err}");
    let err = usage_error(&mut build(&[]));
    assert!(err.starts_with("error: --dir") && err.contains("--pack"), "{err}");
    assert!(!db.join(format!("oware-gs-no-capture-{next}.db")).exists());
    // Streamed lookups read the packed layers and write a raw one.
    let log = db_build(&db, max + 1, &["--lookups", "streamed"]);
    assert!(log.contains("already built"), "{log}");
    assert!(!is_packed(&db.join(format!("oware-gs-no-capture-{next}.db"))));
    let d = Database::open(&db, Rules::default()).unwrap();
    assert_eq!(d.layers()[max + 1].header().checksum, want[max + 1].crc32);
}
