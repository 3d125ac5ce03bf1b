//! Lukho equilibria on the command line (docs/equilibrium.md, `mancala lukho equilibrium|replies`): small
//! families against their certificates and direct games, resumption and bad input.

use mancala::games::lukho::{play_game, Choice, ProvenCycles, Race};
use predicates::prelude::*;
use serde_json::Value;

mod common;
use common::{json_out, mancala, usage_error, LUKHO_RULES as R};

/// `lukho equilibrium` on a small family: the JSON answer (docs/equilibrium.md fields), the value
/// inside the certificate's bounds, weights summing to 1, and the file in DIR; a rerun of a
/// finished run plays no game; --max-iterations then a resume gives the same sets.
/// The certificate's bounds are the best of the log's, and converged.
#[test]
fn equilibrium_small_family_answer_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eq");
    let o = out.to_str().unwrap();
    let fam = "all:remove=0000000*";
    let base = ["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--family", fam, "--json"];
    let a = json_out(&[&base[..], &["--out", o, "--exploit", "0"]].concat());
    for f in ["value", "lower", "upper", "exact", "south", "north", "iterations", "games", "seconds"] {
        assert!(a.get(f).is_some(), "{f} missing: {a}");
    }
    assert_eq!(a["exact"], true);
    let (v, lo, hi) = (a["value"].as_f64().unwrap(), a["lower"].as_f64().unwrap(), a["upper"].as_f64().unwrap());
    assert!(lo - 1e-9 <= v && v <= hi + 1e-9 && hi - lo <= 1e-6, "{a}");
    for side in ["south", "north"] {
        let s = a[side].as_array().unwrap();
        let total: f64 = s.iter().map(|e| e["weight"].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(s.iter().all(|e| e["id"].is_u64() && e["choice"].is_string()));
    }
    // Keeping everything can be exploited at least as much as the value says.
    assert!(a["exploit"][0]["as_south"].as_f64().unwrap() <= lo + 1e-9);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(out.join("equilibrium.json")).unwrap()).unwrap();
    assert_eq!(file["value"], a["value"]);
    assert_eq!(file["log"].as_array().unwrap().len() as u64, a["iterations"].as_u64().unwrap());
    // The certificate: the best bound of each side over the log, its iteration and its mix.
    let log = file["log"].as_array().unwrap();
    let cert = &a["certificate"];
    let best_lower = log.iter().map(|r| r["lower"].as_f64().unwrap()).fold(f64::NEG_INFINITY, f64::max);
    let best_upper = log.iter().map(|r| r["upper"].as_f64().unwrap()).fold(f64::INFINITY, f64::min);
    assert_eq!((cert["lower"].as_f64(), cert["upper"].as_f64()), (Some(best_lower), Some(best_upper)), "{cert}");
    assert!(cert["gap"].as_f64().unwrap() <= 1e-6);
    let at = |k: &str| log[cert[k].as_u64().unwrap() as usize - 1].clone();
    assert_eq!(
        (at("lower_iteration")["lower"].as_f64(), at("upper_iteration")["upper"].as_f64()),
        (Some(best_lower), Some(best_upper))
    );
    for side in ["south", "north"] {
        let total: f64 = cert[side].as_array().unwrap().iter().map(|e| e["weight"].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-9, "{cert}");
    }
    // Rerun: nothing more to do, same answer.
    let b = json_out(&[&base[..], &["--out", o]].concat());
    assert_eq!(
        (b["iterations"].clone(), b["games"].clone(), b["value"].clone()),
        (a["iterations"].clone(), a["games"].clone(), a["value"].clone())
    );

    // Two iterations, then resume: same number of iterations and games as one run.
    let out2 = dir.path().join("eq2");
    let o2 = out2.to_str().unwrap();
    let p = json_out(&[&base[..], &["--out", o2, "--max-iterations", "2"]].concat());
    assert_eq!((p["iterations"].as_u64(), p["exact"].as_bool()), (Some(2), Some(false)));
    let r = json_out(&[&base[..], &["--out", o2]].concat());
    // The same games (the vector sweeps; the LP's pairs, a cache the resume rebuilds, are
    // not counted) and iterations as the uninterrupted run.
    assert_eq!((r["iterations"].clone(), r["games"].clone()), (a["iterations"].clone(), a["games"].clone()));
    assert!((r["value"].as_f64().unwrap() - v).abs() < 1e-9);
}

/// The symmetric models have value 0 and the same mix for both players, also with the
/// restricted games solved only to a gap of 0.05 (regret matching⁺; exact at the end).
#[test]
fn equilibrium_symmetric_model_has_value_zero() {
    let dir = tempfile::tempdir().unwrap();
    for (name, gap) in [("eq", "0"), ("eq-gap", "0.05")] {
        let o = dir.path().join(name);
        let a = json_out(&[
            "lukho",
            "equilibrium",
            "--race",
            "sequential",
            "--payoff",
            "result",
            "--family",
            "0..60",
            "--restricted-gap",
            gap,
            "--out",
            o.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!((a["value"].as_f64(), a["exact"].as_bool()), (Some(0.0), Some(true)), "gap {gap}");
        assert_eq!(a["symmetric"], true);
        assert_eq!(a["south"], a["north"]);
        assert!(a["lower"].as_f64().unwrap() <= 1e-9 && a["upper"].as_f64().unwrap() >= -1e-9);
    }
}

/// `--lp-trace` writes the restricted LPs' progress to stderr and changes nothing computed: the
/// same answer (mixes, bounds, iterations, games) with and without it, exactly and by regret
/// matching⁺; without it no LP line.
#[test]
fn equilibrium_lp_trace_reports_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for gap in ["0", "0.05"] {
        let run = |name: &str, trace: bool| {
            let o = dir.path().join(format!("{name}-{gap}"));
            let mut args = vec!["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin"];
            args.extend(["--family", "all:remove=0000000*", "--restricted-gap", gap, "--json"]);
            args.extend(["--out", o.to_str().unwrap()]);
            if trace {
                args.push("--lp-trace");
            }
            let out = mancala().args(&args).assert().success().get_output().clone();
            let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
            (answer, String::from_utf8(out.stderr).unwrap())
        };
        let ((plain, quiet), (traced, lines)) = (run("plain", false), run("traced", true));
        for f in ["value", "lower", "upper", "exact", "south", "north", "iterations", "games", "certificate"] {
            let strip = |v: &Value| {
                let mut v = v.clone();
                if let Some(o) = v.as_object_mut() {
                    o.remove("seconds");
                }
                v
            };
            assert_eq!(strip(&plain[f]), strip(&traced[f]), "gap {gap}: {f}");
        }
        let (simplex, rm) = (lines.contains("lp round: "), lines.contains("rm+: "));
        assert!(simplex && (gap == "0" || rm), "gap {gap}: {lines}");
        assert!(!quiet.contains("lp round: ") && !quiet.contains("rm+: "), "gap {gap}: {quiet}");
    }
}

/// `--dump-lp FILE` writes the restricted game the run solves next (docs/equilibrium.md, "The
/// restricted game's file"), iterating nothing: after two iterations its value is the third
/// iteration's restricted value, after the converged run the last one's (the entries played
/// again after the vectors are deleted, as a resume plays them); its rows and columns are the
/// sets' sizes, its guesses inside them. Without a state in DIR it is refused, exit 2.
#[test]
fn equilibrium_dump_lp_round_trip() {
    use mancala::matrix_game::{solve_matrix_game, GameDump};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eq");
    let o = out.to_str().unwrap();
    let base =
        ["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--family", "all:remove=0000000*"];
    let dump = |name: &str| {
        let file = dir.path().join(name);
        let shape = json_out(&[&base[..], &["--out", o, "--dump-lp", file.to_str().unwrap(), "--json"]].concat());
        let game = GameDump::from_bytes(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!((shape["rows"].as_u64(), shape["cols"].as_u64()), (Some(game.rows as u64), Some(game.cols as u64)));
        assert!(game.rows0.iter().all(|&i| i < game.rows) && game.cols0.iter().all(|&j| j < game.cols));
        assert!(!game.rows0.is_empty() && !game.cols0.is_empty());
        let value = solve_matrix_game(&game.a, game.rows, game.cols).unwrap().value;
        (shape["iterations"].as_u64().unwrap(), game, value)
    };
    let log = || -> Vec<Value> {
        let file: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("equilibrium.json")).unwrap()).unwrap();
        file["log"].as_array().unwrap().clone()
    };
    mancala().args(base).args(["--out", o, "--max-iterations", "2"]).assert().success();
    let (iterations, game, value) = dump("two.lp");
    assert_eq!(iterations, 2);
    mancala().args(base).args(["--out", o, "--max-iterations", "3"]).assert().success();
    let third = &log()[2];
    assert_eq!(
        (third["south_size"].as_u64(), third["north_size"].as_u64()),
        (Some(game.rows as u64), Some(game.cols as u64))
    );
    let restricted = third["restricted_value"].as_f64().unwrap();
    assert!((value - restricted).abs() < 1e-9, "dumped {value}, iteration 3 {restricted}");
    mancala().args(base).args(["--out", o]).assert().success();
    std::fs::remove_dir_all(out.join("columns")).unwrap();
    let (iterations, game, value) = dump("last.lp");
    let log = log();
    let last = log.last().unwrap();
    assert_eq!(iterations, log.len() as u64);
    assert_eq!(
        (last["south_size"].as_u64(), last["north_size"].as_u64()),
        (Some(game.rows as u64), Some(game.cols as u64))
    );
    let restricted = last["restricted_value"].as_f64().unwrap();
    assert!((value - restricted).abs() < 1e-9, "dumped {value}, last iteration {restricted}");
    let empty = dir.path().join("none");
    let line = usage_error(mancala().args(base).args(["--out", empty.to_str().unwrap(), "--dump-lp", "x.lp"]));
    assert!(line.contains("--out") && line.contains("no run state"), "{line}");
}

/// Unknown payoff or race model, an empty family, a corrupt or foreign state: one line naming
/// the field, exit 2, nothing written or overwritten.
#[test]
fn equilibrium_bad_input_is_one_line_exit_2_and_overwrites_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eq");
    let o = out.to_str().unwrap();
    let run =
        |args: &[&str], field: &str| {
            let mut all = vec!["lukho", "equilibrium", "--out", o];
            all.extend_from_slice(args);
            mancala().args(&all).assert().code(2).stdout("").stderr(
                predicate::str::contains(field).and(predicate::function(|s: &str| s.trim().lines().count() == 1)),
            );
        };
    run(&["--race", "sequential", "--payoff", "score"], "--payoff");
    run(&["--race", "speeds", "--payoff", "margin"], "--race");
    run(&["--race", "random", "--payoff", "margin"], "--race");
    run(&["--race", "sequential", "--payoff", "margin", "--family", "0..10:drop=5"], "--family");
    run(&["--race", "sequential", "--payoff", "margin", "--family", "0..10", "--exploit", "99"], "--exploit");
    run(&["--race", "sequential", "--payoff", "margin", "--family", "bogus"], "--family");
    run(&["--race", "sequential", "--payoff", "margin", "--family", "0..10", "--replies", "0"], "--replies");
    run(
        &["--race", "sequential", "--payoff", "margin", "--family", "0..10", "--average-weights", "equal"],
        "--average-weights",
    );
    for gap in ["-1", "nan", "inf", "0.1x"] {
        run(
            &["--race", "sequential", "--payoff", "margin", "--family", "0..10", "--restricted-gap", gap],
            "--restricted-gap",
        );
    }
    for budget in ["0", "12Q", "0.1"] {
        run(
            &["--race", "sequential", "--payoff", "margin", "--family", "0..10", "--vector-budget", budget],
            "--vector-budget",
        );
    }
    let not_json = dir.path().join("seed.json");
    std::fs::write(&not_json, "{\"south\": [{\"id\": 7}], \"north\": 3}").unwrap();
    for seed in [dir.path().join("none.json"), not_json] {
        run(
            &["--race", "sequential", "--payoff", "margin", "--family", "0..10", "--seed", seed.to_str().unwrap()],
            "--seed",
        );
    }
    assert!(!out.exists(), "bad input wrote {o}");
    // A finished small run, then a foreign and a corrupt state.
    json_out(&[
        "lukho",
        "equilibrium",
        "--race",
        "north-first",
        "--payoff",
        "points",
        "--family",
        "0..30",
        "--out",
        o,
        "--json",
    ]);
    let state = out.join("state.lukho-eq");
    let before = std::fs::read(&state).unwrap();
    let answer = std::fs::read(out.join("equilibrium.json")).unwrap();
    run(&["--race", "north-first", "--payoff", "margin", "--family", "0..30"], "payoff");
    run(&["--race", "north-first", "--payoff", "points", "--family", "0..31"], "family");
    run(&["--race", "north-first", "--payoff", "points", "--family", "0..30", "--chain", "en"], "rules");
    let mut bad = before.clone();
    let k = bad.len() - 3;
    bad[k] ^= 4;
    std::fs::write(&state, &bad).unwrap();
    run(&["--race", "north-first", "--payoff", "points", "--family", "0..30"], "crc32");
    assert_eq!(std::fs::read(&state).unwrap(), bad);
    assert_eq!(std::fs::read(out.join("equilibrium.json")).unwrap(), answer);
}

/// A corrupt or truncated payoff vector of an unfinished run: one line naming the file, exit
/// 2, the state, the vector and the answer untouched; deleted, it is swept again and the run
/// ends as an uninterrupted one.
#[test]
fn equilibrium_corrupt_or_truncated_vector_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eq");
    let o = out.to_str().unwrap();
    let base = ["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--family", "0..40", "--json"];
    let whole = json_out(&[&base[..], &["--out", dir.path().join("whole").to_str().unwrap()]].concat());
    json_out(&[&base[..], &["--out", o, "--max-iterations", "3"]].concat());
    let state = std::fs::read(out.join("state.lukho-eq")).unwrap();
    let answer = std::fs::read(out.join("equilibrium.json")).unwrap();
    // One outcome's margins fit i8 (|m| ≤ 96 half-seeds): a byte per choice.
    let vector = out.join("columns").join("col-0.i8");
    let good = std::fs::read(&vector).unwrap();
    assert_eq!(good.len(), 40, "40 choices, 1 byte each");
    let mut flipped = good.clone();
    flipped[7] ^= 0x10;
    for bad in [flipped, good[..good.len() - 1].to_vec(), vec![]] {
        std::fs::write(&vector, &bad).unwrap();
        mancala().args([&base[..], &["--out", o]].concat()).assert().code(2).stdout("").stderr(
            predicate::str::contains("col-0.i8")
                .and(predicate::str::contains("corrupt or truncated"))
                .and(predicate::function(|s: &str| s.trim().lines().count() == 1)),
        );
        assert_eq!(std::fs::read(&vector).unwrap(), bad);
        assert_eq!(std::fs::read(out.join("state.lukho-eq")).unwrap(), state);
        assert_eq!(std::fs::read(out.join("equilibrium.json")).unwrap(), answer);
    }
    std::fs::remove_file(&vector).unwrap();
    let r = json_out(&[&base[..], &["--out", o]].concat());
    assert_eq!(std::fs::read(&vector).unwrap(), good);
    assert_eq!((r["iterations"].clone(), r["value"].clone()), (whole["iterations"].clone(), whole["value"].clone()));
    assert_eq!((r["lower"].clone(), r["upper"].clone()), (whole["lower"].clone(), whole["upper"].clone()));
}

/// `lukho replies` on a small family: every South choice's best value equals the minimum of
/// its games against every family member (played here one by one), the most common reply is a
/// best reply to as many South choices as it claims, a rerun plays no game, and bad input is
/// one line naming the flag, exit 2, nothing written.
#[test]
fn replies_small_family_against_direct_games() {
    let proven = ProvenCycles::new();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rep");
    let o = out.to_str().unwrap();
    let fam = "all:remove=000000**";
    let south = "0,5,40,77";
    let args = ["lukho", "replies", "--south", south, "--race", "sequential", "--family", fam, "--out", o, "--json"];
    let a = json_out(&args);
    let ids: Vec<u32> = mancala::sweep::Spec::parse(fam).unwrap().ids(&R).unwrap();
    let payoff = |s: u32, n: u32| -> f64 {
        let (s, n) = (Choice::from_id(s as u64, &R).unwrap(), Choice::from_id(n as u64, &R).unwrap());
        [Race::SouthFirst, Race::NorthFirst]
            .iter()
            .map(|&r| play_game(&R, &proven, &s, &n, r).margin.0 as f64)
            .sum::<f64>()
            / 4.0
    };
    let rows = a["south"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let mc = a["most_common"]["id"].as_u64().unwrap() as u32;
    let mut hits = 0;
    for r in rows {
        let s = r["id"].as_u64().unwrap() as u32;
        let vals: Vec<f64> = ids.iter().map(|&n| payoff(s, n)).collect();
        let min = vals.iter().cloned().fold(f64::INFINITY, f64::min);
        assert_eq!(r["value"].as_f64().unwrap(), min, "South {s}");
        assert_eq!(r["best_replies"].as_u64().unwrap(), vals.iter().filter(|&&v| v == min).count() as u64);
        hits += (payoff(s, mc) == min) as u64;
    }
    assert_eq!(a["most_common"]["best_reply_to"].as_u64(), Some(hits));
    for f in ["replies.json", "replies-top.csv", "replies-south.csv"] {
        assert!(out.join(f).exists(), "{f}");
    }
    let b = json_out(&args);
    assert_eq!((b["games"].as_u64(), &b["top"]), (Some(0), &a["top"]));

    let bad = dir.path().join("bad");
    let run =
        |extra: &[&str], field: &str| {
            let mut all = vec!["lukho", "replies", "--out", bad.to_str().unwrap()];
            all.extend_from_slice(extra);
            mancala().args(&all).assert().code(2).stdout("").stderr(
                predicate::str::contains(field).and(predicate::function(|s: &str| s.trim().lines().count() == 1)),
            );
        };
    run(&["--south", "0", "--race", "speeds"], "--race");
    run(&["--south", "0", "--race", "sequential", "--payoff", "score"], "--payoff");
    run(&["--south", "x", "--race", "sequential"], "--south");
    run(&["--south", "9", "--race", "sequential", "--family", "0..5"], "--south");
    run(&["--south", "0", "--race", "sequential", "--top", "0"], "--top");
    assert!(!bad.exists());
}

/// `--vector-budget`: the progress lines say how many vectors each iteration deleted, the
/// directory keeps only what the state names, and the answer equals a run that keeps them all.
#[test]
fn equilibrium_vector_budget_deletes_vectors_not_answers() {
    let dir = tempfile::tempdir().unwrap();
    let (all, lean) = (dir.path().join("all"), dir.path().join("lean"));
    let base =
        ["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--family", "all:remove=000000**"];
    let whole = json_out(&[&base[..], &["--out", all.to_str().unwrap(), "--json"]].concat());
    let out = mancala()
        .args(base)
        .args(["--out", lean.to_str().unwrap(), "--json", "--vector-budget", "4K"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("deleted for the budget"), "{stderr}");
    let budgeted: Value = serde_json::from_slice(&out.stdout).unwrap();
    for f in ["value", "lower", "upper", "exact", "south", "north", "iterations"] {
        assert_eq!(budgeted[f], whole[f], "{f}");
    }
    let files = |d: &std::path::Path| std::fs::read_dir(d.join("columns")).unwrap().count();
    assert!(files(&lean) < files(&all), "{} vs {}", files(&lean), files(&all));
}

/// A resume on a machine without the vectors sweeps its mixes' members again and says so in
/// the log: at least one line per mix, the last "N of N", N the members it lacked. Here
/// iteration 40's mixes have 23 members each, all swept again.
#[test]
fn equilibrium_resume_without_vectors_reports_the_mix_sweeps() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eq");
    let base =
        ["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--family", "all:remove=000000**"];
    let o = out.to_str().unwrap();
    mancala().args(base).args(["--out", o, "--max-iterations", "40"]).assert().success();
    std::fs::remove_dir_all(out.join("columns")).unwrap();
    let run = mancala().args(base).args(["--out", o, "--max-iterations", "41"]).assert().success();
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    for side in ["South", "North"] {
        let line = format!("  {side}'s mix: 23 of 23 vectors swept, ");
        assert!(stderr.contains(&line), "{line:?} not in\n{stderr}");
    }
}

/// A `points-later` answer on a 400-choice family, checked whole by the second road
/// (`scripts/lukho_eq_spot_check.py`): every pair of each certified mix against every choice of
/// the family played as plain games, match points scored from the final totals by the script's
/// own reading of rule book L13, and the certificate's bounds held. The committed `points` rows
/// pass the same replay.
#[test]
fn points_certificates_hold_against_plain_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eq");
    let o = out.to_str().unwrap();
    let a = json_out(&[
        "lukho",
        "equilibrium",
        "--race",
        "north-first",
        "--payoff",
        "points-later",
        "--family",
        "all:remove=000000**",
        "--out",
        o,
        "--replies",
        "4",
        "--json",
    ]);
    assert_eq!((a["exact"].as_bool(), a["payoff"].as_str()), (Some(true), Some("points-later")), "{a}");
    let root = env!("CARGO_MANIFEST_DIR");
    let committed = format!("{root}/results/lukho/equilibrium/last2-south-first-points/equilibrium.json");
    for answer in [out.join("equilibrium.json").to_str().unwrap(), &committed] {
        let run = std::process::Command::new("python3")
            .arg(format!("{root}/scripts/lukho_eq_spot_check.py"))
            .args([answer, "--bin", env!("CARGO_BIN_EXE_mancala")])
            .output()
            .expect("python3");
        let text = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success(), "{answer}: {text}{}", String::from_utf8_lossy(&run.stderr));
        assert_eq!(text.matches("against 400").count(), 2, "{text}");
    }
}

/// A committed state of the full family (written by an earlier build) still opens: a run that
/// may do no iteration reports the state's iterations and games, and leaves the state as it was.
#[test]
fn committed_full_family_state_still_opens() {
    let committed = std::path::Path::new("results/lukho/equilibrium/full-sequential-result-seeded");
    let dir = tempfile::tempdir().unwrap();
    let state = std::fs::read(committed.join("state.lukho-eq")).unwrap();
    std::fs::write(dir.path().join("state.lukho-eq"), &state).unwrap();
    let body: Value = serde_json::from_slice(state.split(|&b| b == b'\n').nth(1).unwrap()).unwrap();
    let out = dir.path().to_str().unwrap();
    let args = ["lukho", "equilibrium", "--race", "sequential", "--payoff", "result", "--out", out];
    let answer = json_out(&[&args[..], &["--max-iterations", "0", "--json"]].concat());
    assert_eq!(answer["iterations"].as_u64().unwrap(), body["log"].as_array().unwrap().len() as u64);
    assert_eq!(answer["games"], body["games"]);
    assert_eq!(std::fs::read(dir.path().join("state.lukho-eq")).unwrap(), state, "the state was rewritten");
}

/// `lukho exploit`: the committed seed-optimal (margin) mixes of a small family measured in match
/// points equal a best reply computed from plain games; the points mixes measured in points give
/// their own certificate; a rerun sweeps nothing; a missing or foreign file names --mix.
#[test]
fn exploit_measures_a_mix_in_another_payoff_against_direct_games() {
    use mancala::opening_game::Payoff;
    let proven = ProvenCycles::new();
    let root = env!("CARGO_MANIFEST_DIR");
    let eq = |row: &str| format!("{root}/results/lukho/equilibrium/{row}/equilibrium.json");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ex");
    let o = out.to_str().unwrap();
    let fam = "all:remove=000000**";
    let run = |mix: &str| {
        json_out(&[
            "lukho",
            "exploit",
            "--mix",
            mix,
            "--race",
            "south-first",
            "--payoff",
            "points",
            "--family",
            fam,
            "--out",
            o,
            "--json",
        ])
    };
    let margin = eq("last2-south-first-margin");
    let a = run(&margin);
    let ids: Vec<u32> = mancala::sweep::Spec::parse(fam).unwrap().ids(&R).unwrap();
    let points = |s: u32, n: u32| -> f64 {
        let (s, n) = (Choice::from_id(s as u64, &R).unwrap(), Choice::from_id(n as u64, &R).unwrap());
        Payoff::Points.of(&play_game(&R, &proven, &s, &n, Race::SouthFirst)) as f64
    };
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&margin).unwrap()).unwrap();
    let mix = |side: &str| -> Vec<(u32, f64)> {
        let m: Vec<(u32, f64)> = file["certificate"][side]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["id"].as_u64().unwrap() as u32, e["weight"].as_f64().unwrap()))
            .collect();
        let total: f64 = m.iter().map(|e| e.1).sum();
        m.into_iter().map(|(id, w)| (id, w / total)).collect()
    };
    let (x, y) = (mix("south"), mix("north"));
    let guarantee =
        ids.iter().map(|&n| x.iter().map(|&(s, w)| w * points(s, n)).sum::<f64>()).fold(f64::INFINITY, f64::min);
    let concedes =
        ids.iter().map(|&s| y.iter().map(|&(n, w)| w * points(s, n)).sum::<f64>()).fold(f64::NEG_INFINITY, f64::max);
    let close = |v: &Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-9;
    assert!(
        close(&a["south_guarantees"], guarantee) && close(&a["north_concedes"], concedes),
        "{a} {guarantee} {concedes}"
    );
    // The seed-optimal mixes give points away: the points game's value lies strictly inside.
    let pts = eq("last2-south-first-points");
    let value =
        serde_json::from_str::<Value>(&std::fs::read_to_string(&pts).unwrap()).unwrap()["value"].as_f64().unwrap();
    assert!(guarantee < value - 0.1 && value + 0.1 < concedes, "{guarantee} {value} {concedes}");
    let b = run(&pts);
    assert!(
        close(&b["south_guarantees"], value) && (b["north_concedes"].as_f64().unwrap() - value).abs() < 1e-6,
        "{b}"
    );
    assert_eq!(run(&margin)["games"].as_u64(), Some(0), "a rerun sweeps nothing");
    for bad in [dir.path().join("missing.json").to_str().unwrap(), file!()] {
        mancala()
            .args(["lukho", "exploit", "--mix", bad, "--race", "south-first", "--family", fam, "--out", o])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with("error: --mix: "));
    }
}
