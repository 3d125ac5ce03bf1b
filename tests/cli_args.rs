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

/// The subcommands of `mancala`, found from the help itself (`Commands:` sections).
fn commands(prefix: &[&str]) -> Vec<Vec<String>> {
    let help = common::stdout(&[prefix, &["--help"]].concat());
    let names: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A name is indented two spaces; a wrapped description deeper.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|n| n != "help")
        .collect();
    if names.is_empty() {
        return vec![prefix.iter().map(|s| s.to_string()).collect()];
    }
    names
        .iter()
        .flat_map(|n| {
            let mut p: Vec<&str> = prefix.to_vec();
            p.push(n);
            commands(&p)
        })
        .collect()
}

/// `--help` teaches: every option and argument of every command has a description (an
/// option listed bare told the reader nothing), and shows only what this build can do.
#[test]
fn every_option_is_described_and_only_what_the_build_has() {
    let all = commands(&[]);
    assert!(all.len() >= 25, "{all:?}");
    let mut bare = Vec::new();
    for cmd in &all {
        let args: Vec<&str> = cmd.iter().map(String::as_str).collect();
        let help = common::stdout(&[&args[..], &["--help"]].concat());
        let lines: Vec<&str> = help.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            let indent = l.len() - t.len();
            let item = (2..=6).contains(&indent) && (t.starts_with('-') || t.starts_with('<'));
            if item && !l.contains("--help") && !l.contains("--version") {
                // Short help puts the description on the item's line, long help below it.
                let inline = t.split_once("  ").is_some_and(|(_, d)| !d.trim().is_empty());
                let next = lines.get(i + 1).copied().unwrap_or("");
                if !inline && (next.trim().is_empty() || next.len() - next.trim_start().len() <= indent) {
                    bare.push(format!("{}: {}", args.join(" "), t));
                }
            }
        }
        if !cfg!(feature = "parquet") {
            assert!(!help.contains("parquet]") && !help.contains(", parquet"), "{args:?} lists parquet: {help}");
        }
        if !cfg!(feature = "mpi") {
            assert!(!help.contains("--distributed"), "{args:?} lists --distributed: {help}");
        }
    }
    assert!(bare.is_empty(), "options without a description:\n{}", bare.join("\n"));
}

/// Kiothi rule flags were accepted both on `kiothi db` and on its subcommands, the second
/// silently winning: they belong to the subcommand, once.
#[test]
fn kiothi_rule_flags_are_given_once_on_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("kt");
    let d = d.to_str().unwrap();
    let line =
        usage_error(mancala().args(["kiothi", "db", "--setup", "5x5", "build", "--max-warriors", "1", "--dir", d]));
    assert!(line.contains("--setup"), "{line}");
    let line = usage_error(mancala().args(["kiothi", "db", "build", "--setup", "5x5", "--setup", "6x5"]).args([
        "--max-warriors",
        "1",
        "--dir",
        d,
    ]));
    assert!(line.contains("--setup") && line.contains("more than once") || line.contains("multiple times"), "{line}");
    assert!(!std::path::Path::new(d).exists());
}

/// Each Lukho command's `--help` explains the race names it accepts.
#[test]
fn race_names_are_explained() {
    for cmd in ["play", "sweep", "sample", "equilibrium", "replies"] {
        let help = common::stdout(&["lukho", cmd, "--help"]);
        for name in ["south-first", "north-first", "lockstep-south", "lockstep-north", "rule book L8"] {
            assert!(help.contains(name), "lukho {cmd}: {name}");
        }
        let speeds = help.contains("  speeds  ") || help.contains("  speeds:K  ");
        assert_eq!(speeds, matches!(cmd, "play" | "sweep" | "sample"), "lukho {cmd}");
    }
}
