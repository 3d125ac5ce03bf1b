//! The bad-input contract under random values: for every flag that parses a value, random
//! malformed values (arbitrary text, grammar pieces, near-valid values mutated) make the binary
//! exit 2 with nothing on stdout and one line on stderr naming the flag; never a panic (101),
//! never success. Values the library would accept are skipped, so only refusals are run.
//!
//! 200 values per flag by default (the whole file stays well under 30 s in debug);
//! `PROPTEST_CASES=N` runs N per flag.
mod common;
use common::mancala;
use mancala::games::kiothi::{Move, Position};
use mancala::games::lukho::{choice, Choice, RaceLabel, Races, Rules as LukhoRules};
use mancala::sweep::shard::Shard;
use mancala::sweep::spec::Spec;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use std::path::Path;

/// Grammar pieces and breakers: every separator, numbers at and past each width, signs,
/// unicode digits and letters, control characters, empty.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "3",
    "5",
    "9",
    "12",
    "48",
    "49",
    "255",
    "256",
    "1024",
    "1025",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "+1",
    "1e3",
    "1e300",
    "0.5",
    "nan",
    "inf",
    "",
    " ",
    "\t",
    "\n",
    ",",
    ":",
    "..",
    "..=",
    "=",
    "@",
    "*",
    ">",
    "/",
    "-",
    "--",
    "é",
    "٣",
    "🂡",
    "\u{200b}",
    "all",
    "south",
    "north",
    "speeds:",
    "remove=",
    "drop=",
    "pit=",
    "{",
    "}",
    "[",
    "]",
    "\"",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..8).prop_map(|v| v.concat())
}

/// `valid` with one to three pieces inserted, replaced or removed.
fn mutated(valid: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    let edit = (0u8..3, any::<prop::sample::Index>(), prop::sample::select(TOKENS));
    (valid, prop::collection::vec(edit, 1..4)).prop_map(|(s, edits)| {
        let mut c: Vec<String> = s.chars().map(String::from).collect();
        for (op, at, t) in edits {
            match op {
                0 => {
                    let k = at.index(c.len() + 1);
                    c.insert(k, t.to_string());
                }
                1 if !c.is_empty() => {
                    let k = at.index(c.len());
                    c[k] = t.to_string();
                }
                _ if !c.is_empty() => {
                    let k = at.index(c.len());
                    c.remove(k);
                }
                _ => {}
            }
        }
        c.concat()
    })
}

fn values(valid: &'static [&'static str]) -> BoxedStrategy<String> {
    let valid = prop::sample::select(valid).prop_map(String::from);
    prop_oneof![1 => any::<String>(), 2 => soup(), 4 => mutated(valid)].boxed()
}

/// Values per flag (tests/common/fuzz.rs).
const CASES: u32 = 200;

fn cases() -> usize {
    common::fuzz::cases(CASES) as usize
}

/// A flag under test: the command around the value, and whether the library would refuse the
/// value (only refused values are run).
struct Flag {
    flag: &'static str,
    command: fn(&Path, &str) -> Vec<String>,
    refused: fn(&str) -> bool,
    values: BoxedStrategy<String>,
}

fn argv(prefix: &[&str], tail: String) -> Vec<String> {
    prefix.iter().map(|s| s.to_string()).chain([tail]).collect()
}

const PITS: &str = "0,0,0,0,1,2,1,0,0,0,0,3";
const NO_REMOVAL: &str = "0,0,0,0,0,0,0,0";

fn pits_refused(s: &str) -> bool {
    let v: Vec<Option<u8>> = s.split(',').map(|p| p.trim().parse::<u8>().ok().filter(|&x| x <= 48)).collect();
    v.len() != 12 || v.iter().any(Option::is_none) || v.iter().map(|x| x.unwrap() as u32).sum::<u32>() > 48
}

fn seconds_refused(s: &str) -> bool {
    !matches!(s.trim().parse::<f64>(), Ok(t) if t.is_finite() && t > 0.0 && t <= 1e9)
}

fn names_refused(names: &[&str], s: &str) -> bool {
    !names.contains(&s)
}

/// A range flag's value that no database holds: not a range, empty, or past every layer.
fn layers_refused(s: &str) -> bool {
    !matches!(mancala::range::parse_inclusive(s), Ok(Some((_, b))) if b <= 48)
}

fn flags() -> Vec<Flag> {
    vec![
        Flag {
            flag: "--pits",
            command: |_, v| argv(&["oware", "solve"], format!("--pits={v}")),
            refused: pits_refused,
            values: values(&["0,0,0,0,1,2,1,0,0,0,0,3", "4,4,4,4,4,4,4,4,4,4,4,4", "48,0,0,0,0,0,0,0,0,0,0,0"]),
        },
        Flag {
            flag: "--start",
            command: |_, v| argv(&["oware", "replay"], format!("--start={v}")),
            refused: pits_refused,
            values: values(&["4,4,4,4,4,4,4,4,4,4,4,4", "0,0,0,0,1,2,1,0,0,0,0,3"]),
        },
        Flag {
            flag: "--moves",
            command: |_, v| argv(&["oware", "replay"], format!("--moves={v}")),
            refused: |s| !matches!(s.split(',').next().unwrap_or("").trim().parse::<u8>(), Ok(p) if p < 6),
            values: values(&["5,0,3", "0", "2,2"]),
        },
        Flag {
            flag: "--to-move",
            command: |_, v| argv(&["oware", "replay"], format!("--to-move={v}")),
            refused: |s| names_refused(&["south", "north"], s),
            values: values(&["south", "north"]),
        },
        Flag {
            flag: "--depth",
            command: |_, v| argv(&["oware", "solve", "--pits", PITS], format!("--depth={v}")),
            // clap reads a u32 as an i64 in range, so `-0` is 0.
            refused: |s| !matches!(s.parse::<i64>(), Ok(d) if (0..=u32::MAX as i64).contains(&d)),
            values: values(&["3", "10", "4294967295"]),
        },
        Flag {
            flag: "--time",
            command: |_, v| argv(&["oware", "solve", "--pits", PITS], format!("--time={v}")),
            refused: seconds_refused,
            values: values(&["0.5", "10", "1e9"]),
        },
        Flag {
            flag: "--grand-slam",
            command: |_, v| argv(&["oware", "replay"], format!("--grand-slam={v}")),
            refused: |s| names_refused(&["no-capture", "forbidden", "awari"], s),
            values: values(&["no-capture", "forbidden", "awari"]),
        },
        Flag {
            flag: "--cycle",
            command: |_, v| argv(&["oware", "replay"], format!("--cycle={v}")),
            refused: |s| names_refused(&["split", "own-rows"], s),
            values: values(&["split", "own-rows"]),
        },
        Flag {
            flag: "--threads",
            command: |d, v| {
                let dir = d.join("o").to_str().unwrap().to_string();
                argv(&["oware", "db", "build", "--max-stones", "2", "--dir", &dir], format!("--threads={v}"))
            },
            refused: |s| !matches!(s.trim().parse::<usize>(), Ok(n) if (1..=1024).contains(&n)),
            values: values(&["1", "2", "1024"]),
        },
        Flag {
            flag: "--stones",
            command: |d, v| {
                let (dir, out) =
                    (d.join("o").to_str().unwrap().to_string(), d.join("x.csv").to_str().unwrap().to_string());
                argv(
                    &["oware", "db", "export", "--dir", &dir, "--format", "csv", "--out", &out],
                    format!("--stones={v}"),
                )
            },
            refused: layers_refused,
            values: values(&["0..=3", "2", "1..4", "48"]),
        },
        Flag {
            flag: "--format",
            command: |d, v| {
                let (dir, out) =
                    (d.join("o").to_str().unwrap().to_string(), d.join("x.csv").to_str().unwrap().to_string());
                argv(&["oware", "db", "export", "--dir", &dir, "--stones", "0", "--out", &out], format!("--format={v}"))
            },
            refused: |s| names_refused(&["csv", "jsonl", "parquet"], s),
            values: values(&["csv", "jsonl", "parquet"]),
        },
        Flag {
            flag: "--warriors",
            command: |d, v| {
                let (dir, out) =
                    (d.join("k").to_str().unwrap().to_string(), d.join("x.csv").to_str().unwrap().to_string());
                argv(
                    &["kiothi", "db", "export", "--dir", &dir, "--format", "csv", "--out", &out],
                    format!("--warriors={v}"),
                )
            },
            refused: layers_refused,
            values: values(&["0..=3", "2", "1..4"]),
        },
        Flag {
            flag: "--moves",
            command: |_, v| argv(&["kiothi", "replay"], format!("--moves={v}")),
            refused: |s| s.split_whitespace().next().is_some_and(|m| m.parse::<Move>().is_err()),
            values: values(&["4:2", "0,1>2*3,5*1", "9:1 4:2"]),
        },
        Flag {
            flag: "--setup",
            command: |_, v| argv(&["kiothi", "replay"], format!("--setup={v}")),
            refused: |s| names_refused(&["6x5", "5x5", "5x6"], s),
            values: values(&["6x5", "5x5", "5x6"]),
        },
        Flag {
            flag: "--redistribute",
            command: |_, v| argv(&["kiothi", "replay"], format!("--redistribute={v}")),
            refused: |s| names_refused(&["exactly-2", "up-to-2"], s),
            values: values(&["exactly-2", "up-to-2"]),
        },
        Flag {
            flag: "--nki-clear",
            command: |_, v| argv(&["kiothi", "replay"], format!("--nki-clear={v}")),
            refused: |s| names_refused(&["lift", "pass"], s),
            values: values(&["lift", "pass"]),
        },
        Flag {
            flag: "--max-relays",
            command: |_, v| argv(&["kiothi", "replay"], format!("--max-relays={v}")),
            refused: |s| s.parse::<u64>().is_err(),
            values: values(&["0", "5", "18446744073709551615"]),
        },
        Flag {
            flag: "--south",
            command: |_, v| {
                argv(&["lukho", "sweep", "--dry-run", "--north", "0", "--race", "sequential"], format!("--south={v}"))
            },
            refused: |s| s.parse::<Spec>().is_err(),
            values: values(&["all:drop=0", "0..65536:pit=3", "3,9", "all:remove=3*******:drop=2..=3:pit=7"]),
        },
        Flag {
            flag: "--north",
            command: |_, v| {
                argv(&["lukho", "sweep", "--dry-run", "--south", "0", "--race", "sequential"], format!("--north={v}"))
            },
            refused: |s| s.parse::<Spec>().is_err(),
            values: values(&["0..=5", "all:remove=3,0,0,0,0,0,0,0:drop=1..3", "7"]),
        },
        Flag {
            flag: "--race",
            command: |_, v| {
                argv(&["lukho", "sweep", "--dry-run", "--south", "0", "--north", "0"], format!("--race={v}"))
            },
            refused: |s| s.parse::<Races>().is_err(),
            values: values(&["sequential", "lockstep", "speeds", "south-first", "lockstep-north"]),
        },
        Flag {
            flag: "--shard",
            command: |_, v| {
                argv(
                    &["lukho", "sweep", "--dry-run", "--south", "0..8", "--north", "0", "--race", "sequential"],
                    format!("--shard={v}"),
                )
            },
            refused: |s| s.parse::<Shard>().is_err(),
            values: values(&["0/8", "3/4", "0/1"]),
        },
        Flag {
            flag: "--calibrate",
            command: |_, v| {
                argv(
                    &["lukho", "sweep", "--dry-run", "--south", "0", "--north", "0", "--race", "sequential"],
                    format!("--calibrate={v}"),
                )
            },
            refused: |s| !matches!(s.trim().parse::<f64>(), Ok(x) if x > 0.0 && x <= 3600.0),
            values: values(&["0.5", "3600", "2"]),
        },
        Flag {
            flag: "--race",
            command: |_, v| {
                argv(
                    &[
                        "lukho",
                        "play",
                        "--south-remove",
                        NO_REMOVAL,
                        "--south-drop",
                        "0@0",
                        "--north-remove",
                        NO_REMOVAL,
                        "--north-drop",
                        "0@0",
                    ],
                    format!("--race={v}"),
                )
            },
            refused: |s| s.parse::<RaceLabel>().is_err(),
            values: values(&["south-first", "speeds:0", "speeds:4294967295", "lockstep-south"]),
        },
        Flag {
            flag: "--south-remove",
            command: |_, v| {
                argv(
                    &[
                        "lukho",
                        "play",
                        "--race",
                        "south-first",
                        "--south-drop",
                        "0@0",
                        "--north-remove",
                        NO_REMOVAL,
                        "--north-drop",
                        "0@0",
                    ],
                    format!("--south-remove={v}"),
                )
            },
            refused: |s| Choice::parse(s, "0@0", &LukhoRules::default()).is_err(),
            values: values(&["0,0,0,0,0,0,0,0", "3,3,3,3,3,3,3,3", "1,0,2,0,3,0,0,1"]),
        },
        Flag {
            flag: "--north-drop",
            command: |_, v| {
                argv(
                    &[
                        "lukho",
                        "play",
                        "--race",
                        "south-first",
                        "--south-remove",
                        NO_REMOVAL,
                        "--south-drop",
                        "0@0",
                        "--north-remove",
                        "3,0,0,0,0,0,0,0",
                    ],
                    format!("--north-drop={v}"),
                )
            },
            refused: |s| Choice::parse("3,0,0,0,0,0,0,0", s, &LukhoRules::default()).is_err(),
            values: values(&["0@0", "3@7", "2@3"]),
        },
        Flag {
            flag: "--remove",
            command: |_, v| argv(&["lukho", "opening", "--drop", "0@0"], format!("--remove={v}")),
            refused: |s| choice::parse_remove(s).is_err(),
            values: values(&["0,0,0,0,0,0,0,0", "3,0,0,0,0,0,0,1"]),
        },
        Flag {
            flag: "--drop",
            command: |_, v| argv(&["lukho", "opening", "--remove", "3,0,0,0,0,0,0,0"], format!("--drop={v}")),
            refused: |s| Choice::parse("3,0,0,0,0,0,0,0", s, &LukhoRules::default()).is_err(),
            values: values(&["0@0", "3@7", "1@2"]),
        },
        Flag {
            flag: "--id",
            command: |_, v| argv(&["lukho", "opening"], format!("--id={v}")),
            refused: |s| !matches!(s.parse::<u64>(), Ok(id) if id < Choice::count(&LukhoRules::default())),
            values: values(&["0", "6356991", "6356992"]),
        },
        Flag {
            flag: "--payoff",
            command: |d, v| {
                let out = d.join("e").to_str().unwrap().to_string();
                argv(
                    &["lukho", "equilibrium", "--race", "south-first", "--family", "0..3", "--out", &out],
                    format!("--payoff={v}"),
                )
            },
            refused: |s| s.parse::<mancala::opening_game::Payoff>().is_err(),
            values: values(&["margin", "result", "points"]),
        },
        Flag {
            flag: "--family",
            command: |d, v| {
                let out = d.join("e").to_str().unwrap().to_string();
                argv(
                    &["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--out", &out],
                    format!("--family={v}"),
                )
            },
            refused: |s| s.parse::<Spec>().is_err(),
            values: values(&["0..3", "all:drop=0", "1,2"]),
        },
        Flag {
            flag: "--chain",
            command: |_, v| argv(&["lukho", "opening", "--id", "0"], format!("--chain={v}")),
            refused: |s| names_refused(&["it", "en", "none"], s),
            values: values(&["it", "en", "none"]),
        },
        Flag {
            flag: "--pairs",
            command: |d, v| {
                let out = d.join("s").to_str().unwrap().to_string();
                argv(&["lukho", "sample", "--race", "sequential", "--out", &out], format!("--pairs={v}"))
            },
            refused: |s| s.parse::<u64>().is_err(),
            values: values(&["1", "100"]),
        },
    ]
}

/// Run one refused value; panics with the command and what broke the contract.
fn expect_refusal(flag: &str, args: &[String], env: &[(&str, &str)]) {
    let mut cmd = mancala();
    for k in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "JOB_COMPLETION_INDEX",
        "JOB_COMPLETIONS",
    ] {
        cmd.env_remove(k);
    }
    cmd.envs(env.iter().copied());
    let out = cmd.args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let lines = err.trim_end().lines().count();
    assert!(
        out.status.code() == Some(2) && out.stdout.is_empty() && lines == 1 && err.contains(flag),
        "{flag}: {args:?} {env:?}: exit {:?}, {lines} stderr lines, stdout {} bytes:\n{err}",
        out.status.code(),
        out.stdout.len()
    );
}

#[test]
fn every_parsing_flag_refuses_random_values_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut runner = common::fuzz::deterministic(CASES);
    let mut report = Vec::new();
    for f in flags() {
        let (mut ran, mut drawn) = (0, 0);
        while ran < cases() && drawn < 50 * cases() {
            drawn += 1;
            let v = f.values.new_tree(&mut runner).unwrap().current();
            // An argument cannot hold NUL; a value the library accepts is not a refusal.
            if v.contains('\0') || !(f.refused)(&v) {
                continue;
            }
            expect_refusal(f.flag, &(f.command)(dir.path(), &v), &[]);
            ran += 1;
        }
        report.push(format!("{} ({}): {ran}", f.flag, (f.command)(dir.path(), "")[..2].join(" ")));
    }
    // The shard from a scheduler's environment is refused the same way, naming --shard.
    let env_values = prop_oneof![Just(String::new()), soup(), mutated(Just("3".to_string()))];
    let (mut ran, mut drawn) = (0, 0);
    let args = argv(&["lukho", "sweep", "--dry-run", "--south", "0..8", "--north", "0", "--race"], "sequential".into());
    while ran < cases() && drawn < 50 * cases() {
        drawn += 1;
        let (id, count) =
            (env_values.new_tree(&mut runner).unwrap().current(), env_values.new_tree(&mut runner).unwrap().current());
        let env = [("SLURM_ARRAY_TASK_ID", id.as_str()), ("SLURM_ARRAY_TASK_COUNT", count.as_str())];
        let get = |k: &str| env.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
        if id.contains('\0') || count.contains('\0') || Shard::from_env(get).is_ok() {
            continue;
        }
        expect_refusal("--shard", &args, &env);
        ran += 1;
    }
    report.push(format!("--shard from SLURM_ARRAY_TASK_ID/COUNT (lukho sweep): {ran}"));
    for line in &report {
        eprintln!("fuzz cli {line} refused values tried");
    }
    assert!(dir.path().read_dir().unwrap().next().is_none(), "a refused command wrote something");
}

/// `--position` files of random content: refused with one line naming `--position`.
#[test]
fn kiothi_position_files_refuse_random_content() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.json");
    let valid = r#"{"game":"kiothi","pits":[0,0,0,0,0,0,0,0,0,1,1,0,0,0,0,0,0,0,0,0],"stores":[29,29],"to_move":"south","turn":9}"#;
    let contents = prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..64),
        1 => soup().prop_map(String::into_bytes),
        4 => mutated(Just(valid.to_string())).prop_map(String::into_bytes),
    ];
    let mut runner = common::fuzz::deterministic(CASES);
    let (mut ran, mut drawn) = (0, 0);
    while ran < cases() && drawn < 50 * cases() {
        drawn += 1;
        let bytes = contents.new_tree(&mut runner).unwrap().current();
        let accepted = std::str::from_utf8(&bytes)
            .ok()
            .and_then(|t| serde_json::from_str(t).ok())
            .is_some_and(|v| Position::from_json(&v).is_ok());
        if accepted {
            continue;
        }
        std::fs::write(&path, &bytes).unwrap();
        let args = argv(&["kiothi", "replay", "--position"], path.to_str().unwrap().to_string());
        expect_refusal("--position", &args, &[]);
        ran += 1;
    }
    eprintln!("fuzz cli --position (kiothi replay, file content): {ran} refused values tried");
}
