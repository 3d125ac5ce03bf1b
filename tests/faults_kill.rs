//! Fault injection: `kill -9` (SIGKILL) at random moments, including inside file writes (as soon
//! as a temporary `.NAME.tmp` appears), of database builds (Oware, Kiothi), a sharded Lukho sweep
//! and its merge, and an equilibrium run. After the kills the same command is
//! run to completion, and every output file must equal an uninterrupted run's, byte for byte
//! (the equilibrium's timings aside), with no temporary left behind.
//!
//! Each test spends about `FAULTS_SECONDS` (default 8) on trials after a minimum number, prints
//! its seed (`FAULTS_SEED=...` replays the choices) and one `FAULTS:` line of counts.

use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

mod common;
use common::faults;
use faults::{args, assert_same, complete, exact, kill_then_complete, snapshot, temporaries, Counts, Rng, Snapshot};

/// One command of a scenario.
struct Step {
    args: Vec<String>,
}

/// Run `steps(root)` uninterrupted into a reference directory, then trial after trial: every
/// step killed 1 to 3 times at random moments and run to completion, the trial's directory
/// compared with the reference (after `normalise`) and searched for temporaries. At least
/// `min_trials`, then until the time budget is spent.
fn scenario(
    test: &str,
    min_trials: u32,
    steps: &dyn Fn(&Path) -> Vec<Step>,
    normalise: &dyn Fn(&str, &[u8]) -> Vec<u8>,
) -> Counts {
    let mut rng = Rng::new(test);
    let mut n = Counts::default();
    let tmp = tempfile::tempdir().unwrap();
    let reference = tmp.path().join("reference");
    std::fs::create_dir(&reference).unwrap();
    let typical: Vec<Duration> = steps(&reference).iter().map(|s| complete(&s.args)).collect();
    let want: Snapshot = snapshot(&reference);
    assert!(temporaries(&reference).is_empty());
    let start = Instant::now();
    let mut trials = 0;
    while trials < min_trials || (start.elapsed() < faults::budget() && trials < 200) {
        let root = tmp.path().join(format!("trial-{trials}"));
        std::fs::create_dir(&root).unwrap();
        // Output sets are staged beside their directory: the whole trial is watched.
        for (s, &t) in steps(&root).iter().zip(&typical) {
            kill_then_complete(&s.args, &root, t, &mut rng, &mut n);
        }
        let left = temporaries(&root);
        assert!(left.is_empty(), "{test}, trial {trials}: temporaries left after the completing run: {left:?}");
        assert_same(&format!("{test}, trial {trials}"), &want, &snapshot(&root), normalise);
        std::fs::remove_dir_all(&root).unwrap();
        trials += 1;
    }
    eprintln!("{test}: {trials} trials in {:.1} s", start.elapsed().as_secs_f64());
    n.report(test);
    assert!(n.kills > 0 && n.resumes > 0, "{test}: no run was killed: {n:?}");
    n
}

#[test]
fn oware_db_build_killed_at_random_resumes_byte_identical() {
    // Layers up to 9 seeds take about a second unoptimised, up to 10 a quarter second optimised.
    let max = if cfg!(debug_assertions) { "9" } else { "10" };
    scenario(
        "oware_db_build",
        3,
        &|root| {
            let dir = root.join("db");
            vec![Step { args: args(&["oware", "db", "build", "--max-stones", max, "--dir", dir.to_str().unwrap()]) }]
        },
        &exact,
    );
}

#[test]
fn kiothi_db_build_killed_at_random_resumes_byte_identical() {
    let max = if cfg!(debug_assertions) { "4" } else { "5" };
    scenario(
        "kiothi_db_build",
        3,
        &|root| {
            let dir = root.join("kt");
            vec![Step { args: args(&["kiothi", "db", "build", "--max-warriors", max, "--dir", dir.to_str().unwrap()]) }]
        },
        &exact,
    );
}

const SWEEP: [&str; 8] = ["lukho", "sweep", "--south", "0..48", "--north", "0..1500", "--race", "sequential"];

/// Three shards into one directory, each killed and rerun, then their merge killed and rerun: the
/// parts and the merged summaries equal an uninterrupted run's.
#[test]
fn sharded_sweep_and_merge_killed_at_random_resume_byte_identical() {
    scenario(
        "lukho_sharded_sweep",
        2,
        &|root| {
            let parts = root.join("parts");
            let p = parts.to_str().unwrap();
            let mut steps: Vec<Step> = (0..3)
                .map(|k| {
                    let shard = format!("{k}/3");
                    let mut a = args(&SWEEP);
                    a.extend(args(&["--shard", &shard, "--out", p]));
                    Step { args: a }
                })
                .collect();
            let merged = root.join("merged");
            let mut a = args(&["lukho", "merge", "--out", merged.to_str().unwrap()]);
            a.extend((0..3).map(|k| format!("{p}/part-0000{k}-of-00003.lukho")));
            steps.push(Step { args: a });
            steps
        },
        &exact,
    );
}

/// Drop every key that holds a time (`seconds`, `total_seconds`, ...) from a JSON value.
fn without_times(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| !k.contains("second"));
            m.values_mut().for_each(without_times);
        }
        Value::Array(a) => a.iter_mut().for_each(without_times),
        _ => {}
    }
}

/// The equilibrium's files without their timings: the answer's `seconds`, and the state's
/// (whose header checksum covers them, so the header's `crc32`/`bytes` go too; the program
/// checks those when it resumes). Vectors under `columns/` are compared byte for byte.
fn equilibrium_normalised(name: &str, bytes: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(bytes).unwrap_or("");
    let mut parts: Vec<Value> = match name {
        "eq/equilibrium.json" => vec![serde_json::from_str(text).unwrap()],
        "eq/state.lukho-eq" => text.lines().map(|l| serde_json::from_str(l).unwrap()).collect(),
        _ => return bytes.to_vec(),
    };
    for p in &mut parts {
        without_times(p);
        if let Value::Object(m) = p {
            m.remove("crc32");
            m.remove("bytes");
        }
    }
    serde_json::to_vec(&parts).unwrap()
}

#[test]
fn equilibrium_killed_at_random_resumes_to_the_same_answer() {
    scenario(
        "lukho_equilibrium",
        3,
        &|root| {
            let dir = root.join("eq");
            vec![Step {
                args: args(&[
                    "lukho",
                    "equilibrium",
                    "--race",
                    "south-first",
                    "--payoff",
                    "margin",
                    "--family",
                    "all:remove=0000000*",
                    "--out",
                    dir.to_str().unwrap(),
                ]),
            }]
        },
        &equilibrium_normalised,
    );
}
