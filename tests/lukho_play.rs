//! The Lukho command line for single games (docs/cli.md, `mancala lukho play|opening|races`):
//! a hand-checked opening against the library, variant flags, opening ids and the speeds races.

use mancala::games::lukho::{play_after, play_game, speed_races, Choice, ProvenCycles, Race};
use predicates::prelude::*;
use serde_json::{json, Value};

mod common;
use common::{json_out, mancala, stdout, usage_error, LUKHO_RULES as R};

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
    ];
    for (args, field) in cases {
        let err = usage_error(mancala().args(&args));
        assert!(err.contains(field), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote {o}");
    }
}
