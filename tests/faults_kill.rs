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

/// `db build --pack` killed at any moment (inside a raw layer's write, between it and its
/// packed copy, inside the copy's write, which renames it over the raw file): the rerun gives
/// the uninterrupted run's packed layers, byte for byte.
#[test]
fn oware_packed_db_build_killed_at_random_resumes_byte_identical() {
    let max = if cfg!(debug_assertions) { "9" } else { "10" };
    scenario(
        "oware_packed_db_build",
        3,
        &|root| {
            let dir = root.join("db");
            vec![Step {
                args: args(&["oware", "db", "build", "--max-stones", max, "--pack", "--dir", dir.to_str().unwrap()]),
            }]
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

/// An out-of-core layer (`--memory` small enough to split the top layer in partitions) killed at
/// several moments inside its partitioned build, each after a random number of its checkpoints
/// (forward partitions, thresholds) and a random few microseconds more, so the kill lands inside
/// a visit or a write: the rerun says it resumes the layer from its checkpoint, and every file
/// equals an uninterrupted build's. Mapped and streamed lookups.
#[test]
fn an_out_of_core_layer_killed_inside_resumes_from_its_checkpoint_byte_identical() {
    use mancala::retro::oware::{IndexKind, OwareLayers};
    use mancala::retro::LayeredGame;
    use std::process::Command;
    let test = "oware_outcore_layer_resume";
    let max: usize = if cfg!(debug_assertions) { 10 } else { 12 };
    let game = OwareLayers::with_index(Default::default(), IndexKind::Full);
    // The lower layers and a third of the top layer's working arrays: the top layer splits.
    let lower: u64 = (0..max).map(|n| game.layer_size(n)).sum();
    let budget = ((48 << 20) + lower + game.layer_size(max)).to_string();
    let mut rng = Rng::new(test);
    let mut n = Counts::default();
    let mut resumed = 0;
    let tmp = tempfile::tempdir().unwrap();
    for lookups in ["mapped", "streamed"] {
        let build = |root: &Path| {
            let dir = root.join("db");
            let m = max.to_string();
            let d = dir.to_str().unwrap();
            args(&[
                "oware",
                "db",
                "build",
                "--max-stones",
                &m,
                "--threads",
                "2",
                "--memory",
                &budget,
                "--lookups",
                lookups,
                "--dir",
                d,
            ])
        };
        let reference = tmp.path().join(format!("reference-{lookups}"));
        std::fs::create_dir(&reference).unwrap();
        complete(&build(&reference));
        let want = snapshot(&reference);
        for trial in 0..4 {
            let root = tmp.path().join(format!("trial-{lookups}-{trial}"));
            std::fs::create_dir(&root).unwrap();
            let a = build(&root);
            let progress = root.join(format!("db/.oware-gs-no-capture-{max}.db.work/progress"));
            let mut killed = 0;
            for _ in 0..1 + rng.below(2) {
                let mut child = faults::command(&a).spawn().unwrap();
                let target = 1 + rng.below(8);
                let (mut seen, mut last) = (0, String::new());
                let t0 = Instant::now();
                while child.try_wait().unwrap().is_none() && t0.elapsed() < Duration::from_secs(120) {
                    if let Ok(text) = std::fs::read_to_string(&progress) {
                        if text != last {
                            (seen, last) = (seen + 1, text);
                        }
                    }
                    if seen >= target {
                        let until = Instant::now() + Duration::from_micros(rng.below(3_000));
                        while Instant::now() < until {
                            std::hint::spin_loop();
                        }
                        if child.try_wait().unwrap().is_none() {
                            child.kill().unwrap();
                            killed += 1;
                        }
                        break;
                    }
                    std::thread::sleep(Duration::from_micros(200));
                }
                child.wait().unwrap();
            }
            n.kills += killed;
            // A kill after the layer's first checkpoint and before it was written leaves the
            // checkpoint; the rerun must resume from it.
            let left = progress.exists();
            let out = Command::new(faults::BIN).args(&a).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(out.status.success(), "{test}, {lookups} trial {trial}: {err}");
            n.resumes += (killed > 0) as u64;
            if left {
                let line = format!("layer {max}: resuming at ");
                assert!(err.contains(&line), "{test}, {lookups} trial {trial}: no resume line: {err}");
                resumed += 1;
            }
            assert!(!err.contains("starting the layer over"), "{test}, {lookups} trial {trial}: {err}");
            let temps = temporaries(&root);
            assert!(temps.is_empty(), "{test}, {lookups} trial {trial}: temporaries left: {temps:?}");
            assert_same(&format!("{test}, {lookups} trial {trial}"), &want, &snapshot(&root), &exact);
            std::fs::remove_dir_all(&root).unwrap();
        }
    }
    eprintln!("{test}: {resumed} reruns resumed a stopped layer");
    n.report(test);
    assert!(resumed >= 2, "{test}: too few kills inside the layer: {n:?}");
}
