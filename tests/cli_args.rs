//! The argument types every command shares (`--time`, `--threads`, ranges) are checked once,
//! at parse time, so every command refuses the same bad values the same way: exit 2, nothing
//! on stdout, one line on stderr naming the flag, and nothing written.
mod common;
use common::{mancala, usage_error};

const POSITION: &str = r#"{"game":"kiothi","boma":[0,0,0,0,0,0,0,0,0,1,1,0,0,0,0,0,0,0,0,0],"prisons":[29,29],"to_move":"south","turn":9}"#;

/// Every command with `--time`: zero, negative, not a number, infinite or too large to add
/// to a clock.
#[test]
fn time_must_be_positive_and_finite() {
    let dir = tempfile::tempdir().unwrap();
    let pos = dir.path().join("p.json");
    std::fs::write(&pos, POSITION).unwrap();
    let eq = dir.path().join("eq");
    for bad in ["0", "-1", "nan", "inf", "1e300"] {
        let commands: Vec<Vec<&str>> = vec![
            vec!["oware", "solve", "--pits", "0,0,0,0,1,2,1,0,0,0,0,3"],
            vec!["kiothi", "solve", "--position", pos.to_str().unwrap()],
            vec!["kiothi", "openings", "--sample", "1", "--depth", "1"],
            vec!["lukho", "equilibrium", "--race", "south-first", "--family", "0..3", "--out", eq.to_str().unwrap()],
        ];
        for mut args in commands {
            args.extend(["--time", bad]);
            let line = usage_error(mancala().args(&args));
            assert!(line.contains("--time"), "{args:?}: {line}");
        }
    }
    assert!(!eq.exists(), "a refused equilibrium wrote its directory");
}

/// Every command with `--threads`: zero and absurd counts are refused before any work.
#[test]
fn threads_must_be_between_one_and_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    for bad in ["0", "100000", "-2"] {
        let commands: Vec<Vec<String>> = vec![
            vec!["oware", "db", "build", "--max-stones", "2", "--dir", &d("o")],
            vec!["kiothi", "db", "build", "--max-warriors", "2", "--dir", &d("k")],
            vec!["lukho", "sweep", "--south", "0", "--north", "0..3", "--race", "sequential", "--out", &d("s")],
            vec!["lukho", "equilibrium", "--race", "south-first", "--family", "0..3", "--out", &d("e")],
            vec!["lukho", "replies", "--south", "0", "--race", "sequential", "--family", "0..3", "--out", &d("r")],
        ]
        .into_iter()
        .map(|v| v.into_iter().map(String::from).collect())
        .collect();
        for mut args in commands {
            args.extend(["--threads".to_string(), bad.to_string()]);
            let line = usage_error(mancala().args(&args));
            assert!(line.contains("--threads"), "{args:?}: {line}");
        }
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "a refused command wrote something");
}
