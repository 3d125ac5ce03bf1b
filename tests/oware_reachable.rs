//! The reachable-only index against the full one: every position it holds has the value the
//! full index gives it, every position it leaves out has the value of its best move (one ply
//! into positions it holds), and the CLI builds, names, detects and reads its files.

mod common;

use common::layer_checksums;

use common::{json_out, mancala, stdout};
use mancala::games::oware::{GrandSlam, Node, Rules, View, PITS, ROW};
use mancala::index::{binomial, Compositions};
use mancala::retro::oware::{tables_in_memory, tables_in_memory_with, IndexKind, OwareLayers};
use mancala::retro::LayeredGame;

/// Largest layer compared in memory (the debug profile is about ten times slower).
const MAX: usize = if cfg!(debug_assertions) { 9 } else { 12 };

#[test]
fn reachable_values_equal_full_values() {
    let full_index = Compositions::new(PITS, 48);
    for grand_slam in GrandSlam::ALL {
        let rules = Rules { grand_slam, ..Rules::default() };
        let full = tables_in_memory(rules, MAX);
        let reach = tables_in_memory_with(rules, IndexKind::Reachable, MAX);
        let game = OwareLayers::with_index(rules, IndexKind::Reachable);
        if grand_slam == GrandSlam::NoCapture {
            let want = layer_checksums::expected("tests/data/oware/layers-reachable.csv");
            for (n, l) in reach.iter().enumerate() {
                let crc = mancala::store::layer_file::checksum(mancala::store::layer_file::as_bytes(l));
                assert_eq!(crc, want[&(format!("{}-reachable", rules.db_tag()), n)], "layer {n} checksum");
            }
        }
        for n in 0..=MAX {
            let want = binomial(n as u64 + 11, 11) - binomial(n as u64 + 5, 11);
            assert_eq!(reach[n].len() as u64, want, "{grand_slam:?} layer {n} size");
            // Every held position has the full index's value.
            let mut pos = game.unrank(n, 0);
            for (r, &v) in reach[n].iter().enumerate() {
                if r > 0 {
                    assert!(game.next_in_layer(&mut pos));
                }
                assert!(pos[ROW..].contains(&0));
                assert_eq!(v, full[n][full_index.rank(&pos) as usize], "{grand_slam:?} {pos:?}");
            }
            // Every other position: its full value is its best move into held positions.
            let mut p: View = [0; PITS];
            p[PITS - 1] = n as u8;
            let mut outside = 0u64;
            loop {
                if !p[ROW..].contains(&0) {
                    outside += 1;
                    let one_ply = match rules.node(&p) {
                        Node::Ended(e) => e.mover_net(n as i32),
                        Node::Moves(ms) => ms
                            .iter()
                            .map(|m| {
                                let (layer, rank) = game.locate(&m.child);
                                m.captured as i32 - reach[layer][rank as usize] as i32
                            })
                            .max()
                            .unwrap(),
                    };
                    assert_eq!(one_ply, full[n][full_index.rank(&p) as usize] as i32, "{grand_slam:?} {p:?}");
                }
                if !Compositions::next(&mut p) {
                    break;
                }
            }
            assert_eq!(outside, full[n].len() as u64 - want);
        }
    }
}

#[test]
fn cli_builds_detects_and_probes_a_reachable_database() {
    let reach = tempfile::tempdir().unwrap();
    let full = tempfile::tempdir().unwrap();
    let (r, f) = (reach.path().to_str().unwrap(), full.path().to_str().unwrap());
    mancala()
        .args(["oware", "db", "build", "--max-stones", "8", "--dir", r, "--index", "reachable"])
        .assert()
        .success();
    mancala().args(["oware", "db", "build", "--max-stones", "8", "--dir", f]).assert().success();
    assert!(reach.path().join("oware-gs-no-capture-reachable-8.db").exists());
    assert!(!reach.path().join("oware-gs-no-capture-8.db").exists());
    // Readers find the index from the files: verify, stats and solve need no flag.
    let out = stdout(&["oware", "db", "verify", "--dir", r]);
    assert!(out.contains("verified layers 0..=8"), "{out}");
    let stats = json_out(&["oware", "db", "stats", "--dir", r, "--json"]);
    assert_eq!(stats["layers"][8]["positions"], binomial(19, 11) - binomial(13, 11));
    // Positions the reachable index holds and positions it leaves out (the opponent's row
    // full): same answers from both databases.
    for pits in
        ["0,1,0,1,0,0,1,1,1,1,1,1", "2,0,0,0,0,0,1,1,1,1,1,1", "0,0,0,0,0,0,1,1,1,1,2,2", "1,0,2,0,0,1,0,3,0,0,1,0"]
    {
        let a = json_out(&["oware", "solve", "--pits", pits, "--db", r, "--json"]);
        let b = json_out(&["oware", "solve", "--pits", pits, "--db", f, "--json"]);
        assert_eq!(a["value"], b["value"], "{pits}");
        assert_eq!(a["best_moves"], b["best_moves"], "{pits}");
        assert_eq!(a["method"], "db", "{pits}");
    }
    // A reachable layer under the full index's name is refused by its header, not misread.
    std::fs::copy(
        reach.path().join("oware-gs-no-capture-reachable-3.db"),
        full.path().join("oware-gs-no-capture-3.db"),
    )
    .unwrap();
    let err = common::usage_error(mancala().args(["oware", "db", "verify", "--dir", f]));
    assert!(err.contains("--dir") && err.contains("oware-gs-no-capture-3.db"), "{err}");
}

/// Run by `scripts/oware_reachable_check.sh` on two databases built by the CLI (one of each
/// index, up to the same layer): every position of the reachable one holds the full one's
/// value, and every 61st position it leaves out (and the start position of that many seeds
/// in every pit, when it fits) probes as the full one holds it.
#[test]
#[ignore = "needs MANCALA_FULL_DB and MANCALA_REACHABLE_DB (scripts/oware_reachable_check.sh)"]
fn reachable_database_equals_full_database() {
    use mancala::retro::oware::Database;
    use rayon::prelude::*;
    let full_dir = std::env::var("MANCALA_FULL_DB").expect("MANCALA_FULL_DB");
    let reach_dir = std::env::var("MANCALA_REACHABLE_DB").expect("MANCALA_REACHABLE_DB");
    let rules = Rules::default();
    let full = Database::open(full_dir.as_ref(), rules).unwrap();
    let reach = Database::open(reach_dir.as_ref(), rules).unwrap();
    assert_eq!(full.game.index_kind(), IndexKind::Full);
    assert_eq!(reach.game.index_kind(), IndexKind::Reachable);
    let max = full.max_layer().min(reach.max_layer());
    let index = Compositions::new(PITS, 48);
    for n in 0..=max {
        let t = std::time::Instant::now();
        let size = reach.game.layer_size(n);
        let held = reach.layers()[n].values().unwrap();
        let full_values = full.layers()[n].values().unwrap();
        const CHUNK: u64 = 1 << 16;
        let bad: u64 = (0..size.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let start = c * CHUNK;
                let mut pos = reach.game.unrank(n, start);
                let mut bad = 0u64;
                for r in start..(start + CHUNK).min(size) {
                    if r > start {
                        reach.game.next_in_layer(&mut pos);
                    }
                    if held[r as usize] != full_values[index.rank(&pos) as usize] {
                        bad += 1;
                    }
                }
                bad
            })
            .sum();
        assert_eq!(bad, 0, "layer {n}: {bad} reachable positions differ");
        // Positions left out, valued from their children.
        let all = index.layer_size(n);
        let outside: u64 = (0..all.div_ceil(61))
            .into_par_iter()
            .map(|i| {
                let r = i * 61;
                let mut p: View = [0; PITS];
                index.unrank(n, r, &mut p);
                if p[ROW..].contains(&0) {
                    return 0;
                }
                assert_eq!(reach.probe(&p), Some(full_values[r as usize]), "layer {n} {p:?}");
                1
            })
            .sum();
        println!(
            "layer {n:>2}: {size:>11} reachable positions equal, {outside:>9} others probed equal, {:.1} s",
            t.elapsed().as_secs_f64()
        );
    }
    reach.damage().unwrap();
    full.damage().unwrap();
    if max.is_multiple_of(PITS) && max > 0 {
        let start = [(max / PITS) as u8; PITS];
        assert_eq!(reach.probe(&start), full.probe(&start));
        println!("start position of {max} seeds: {:?} in both", reach.probe(&start));
    }
}
