//! `mancala kiothi …` contract: counts, replay trace, perft, bad input.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn mancala() -> Command {
    Command::cargo_bin("mancala").unwrap()
}

/// Turn 1 (South) and turn 2 (North) of the mid-game position used by the engine's perft
/// tests (src/games/kiothi/tests.rs: 17 / 406 / 6,291 … from there).
const OPENING: &str = "4,5>0*2,1*1,3*2,12*1,15*4 4,9>0*1,5*3,10*2,17*4";

#[test]
fn opening_counts_are_exact() {
    // Turn 1: choose 2 of 6 occupied boma (15 ways), place their 10 warriors into 20 boma:
    // C(29, 19) = 20,030,010 placements; 15 × 20,030,010 = 300,450,150.
    let out =
        mancala().args(["kiothi", "openings", "--count", "--json"]).assert().success().get_output().stdout.clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["this_turn"], "300450150");
    assert_eq!(v["two_turns"], "553498067252994435");
    assert_eq!(v["rules"]["setup"], "6x5");
}

#[test]
fn replay_prints_states_and_legal_moves() {
    let out = mancala()
        .args(["kiothi", "replay", "--moves", OPENING, "--jsonl"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines: Vec<Value> = String::from_utf8_lossy(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["legal"], "300450150");
    assert_eq!(lines[0]["turn"], 1);
    // After both redistributions every occupied boma is nki.
    let last = &lines[2];
    let pits = last["pits"].as_array().unwrap();
    let nki = last["nki"].as_array().unwrap();
    for (p, k) in pits.iter().zip(nki) {
        assert_eq!(p.as_u64().unwrap() > 0, k.as_bool().unwrap());
    }
    assert_eq!(last["legal"].as_array().unwrap().len(), 17);
}

#[test]
fn perft_from_a_position_file() {
    let out = mancala()
        .args(["kiothi", "replay", "--moves", OPENING, "--jsonl"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let last: Value = serde_json::from_str(String::from_utf8_lossy(&out).lines().last().unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("mid.json");
    std::fs::write(&f, last.to_string()).unwrap();
    let out = mancala()
        .args(["kiothi", "perft", "--depth", "2", "--json", "--position"])
        .arg(&f)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["nodes"], 406);
    let out = mancala()
        .args(["kiothi", "perft", "--depth", "1", "--divide", "--json", "--position"])
        .arg(&f)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 17);
}

#[test]
fn bad_input_names_the_field() {
    mancala()
        .args(["kiothi", "replay", "--moves", "4,5>0*2"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("ply 0"));
    mancala()
        .args(["kiothi", "perft", "--depth", "1", "--position", "/nonexistent.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--position"));
    mancala().args(["kiothi", "openings", "--count", "--setup", "7x7"]).assert().code(2);
}
