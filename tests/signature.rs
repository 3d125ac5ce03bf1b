//! `mancala bench`, the signature run: this build's number per engine and for the whole run.
//! A change that alters what an engine computes changes its number and fails here; if the
//! change is intended, the numbers are updated with it (and the commit says why). Where an
//! independent source exists, the workload's size is checked against it too.

use serde_json::Value;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mancala");

/// This build's signatures, `mancala bench --json`.
const EXPECTED: [(&str, u64, u64); 5] = [
    // (engine, signature, work)
    ("oware-db", 708154235, 2704156),
    ("oware-search", 5576350, 5576350),
    ("kiothi-perft", 115017, 115017),
    ("lukho-sweep", 10305134122739504015, 2048000),
    ("lukho-equilibrium", 2492412528492288538, 2028),
];
const COMBINED: u64 = 3847305388893852326;

fn json(args: &[&str]) -> Value {
    let o = Command::new(BIN).args(args).output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn the_signature_run_gives_this_builds_numbers() {
    let v = json(&["bench", "--json"]);
    let entries = v["entries"].as_array().unwrap();
    let got: Vec<(&str, u64, u64)> = entries
        .iter()
        .map(|e| (e["engine"].as_str().unwrap(), e["signature"].as_u64().unwrap(), e["work"].as_u64().unwrap()))
        .collect();
    assert_eq!(got, EXPECTED);
    assert_eq!(v["signature"].as_u64(), Some(COMBINED));

    // The workloads against independent figures: the Oware positions of layers 0..=12 in
    // results/oware/layers.csv; perft 4 of the midgame in tests/data/kiothi/perft.csv; the
    // search's nodes as `oware solve` reports them; the sweep's games, 256 × 4,000 × 2.
    let layers = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/results/oware/layers.csv")).unwrap();
    let positions: u64 = layers
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|f| f.parse::<u64>().unwrap_or(0)).collect::<Vec<_>>())
        .filter(|r| r[0] <= 12)
        .map(|r| r[1])
        .sum();
    assert_eq!(positions, EXPECTED[0].2);
    let perft = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/kiothi/perft.csv")).unwrap();
    assert!(perft.lines().any(|l| l == "midgame.json,,4,115017,reference"));
    let solve = json(&["oware", "solve", "--pits", "4,4,4,4,4,4,4,4,4,4,4,4", "--depth", "9", "--json"]);
    assert_eq!(solve["nodes"].as_u64(), Some(EXPECTED[1].1));
    assert_eq!(EXPECTED[3].2, 256 * 4000 * 2);

    // The text form prints the same numbers.
    let o = Command::new(BIN).arg("bench").output().unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.ends_with(&format!("signature {COMBINED}\n")), "{text}");
    for (engine, signature, _) in EXPECTED {
        assert!(text.lines().any(|l| l.starts_with(engine) && l.contains(&signature.to_string())), "{engine}: {text}");
    }
}
