//! HiGHS (the `highs` crate over the HiGHS C++ solver) against `matrix_game` on Lukho
//! restricted games: one game, every solver, one after the other in the same process.
//!
//! - `ours simplex`: the run's exact solve, constraint generation over the dense simplex from
//!   the game's guessed supports ([`maximiser_from`]).
//! - `ours rm+`: regret matching⁺ to the duality gap `--gap` ([`maximiser_regret`]), as a run
//!   with `--restricted-gap` solves.
//! - `highs simplex`, `highs ipm` (interior point, no crossover) and `highs pdlp` (its
//!   first-order method, tolerances set from `--gap`) on the row player's LP: maximise `v`
//!   subject to `Σ_i a_ij x_i >= v` for every column `j`, `Σ x_i = 1`, `x >= 0`.
//!
//! Each solver's mix is clamped, renormalised and evaluated against the whole matrix; the
//! bench asserts that every exact solver's value agrees with ours within 1e-6 and every
//! approximate mix guarantees the value within its gap (1.5 times `--gap`, the bound regret
//! matching⁺ promises), and prints a table row per solver: seconds, the value, what the mix
//! guarantees and its shortfall.
//!
//! Without a file it solves the last restricted game of a `lockstep`/`margin` run over the
//! 2,368 choices of `all:remove=00*0*0*0` (run here, in a temporary directory, then written and
//! read back through its `--dump-lp` file, whose value must be the run's restricted value).
//! With files (`mancala lukho equilibrium --out DIR --dump-lp FILE`) it solves those:
//!
//! ```sh
//! cargo bench --bench lp_highs --features highs
//! cargo bench --bench lp_highs --features highs -- FILE [--members K] [--gap G] [--limit S] [--skip NAME,…]
//! ```
//!
//! `--members K`: the leading `K × K` corner of each game (a double-oracle run appends its
//! members, so this is an earlier iteration's restricted game; its guess is cut to it).
//! `--limit S`: HiGHS's time limit per solve (default 1,800 s). `--skip`: solvers not run
//! (`ours`, `rm+`, `simplex`, `ipm`, `pdlp`; without `ours` only a skew-symmetric game, whose
//! value is 0, is checked). Seconds are CPU seconds of the process (all its threads: regret
//! matching⁺ runs on every core, HiGHS on one) and wall seconds.
//! Figures: results/BENCHMARKS.md ("The restricted game's solvers").

mod common;

use highs::{ColProblem, HighsModelStatus, Sense};
use mancala::matrix_game::{maximiser_from, maximiser_regret, GameDump, SolveOptions};
use mancala::opening_game::{Options, Quiet, Solver};
use std::time::Instant;

struct Args {
    files: Vec<String>,
    members: Option<usize>,
    gap: f64,
    limit: f64,
    skip: Vec<String>,
}

fn args() -> Args {
    let mut a = Args { files: vec![], members: None, gap: 0.01, limit: 1800.0, skip: vec![] };
    let mut it = std::env::args().skip(1);
    while let Some(w) = it.next() {
        let mut value = |name: &str| it.next().unwrap_or_else(|| panic!("{name} needs a value"));
        match w.as_str() {
            // `cargo bench` passes `--bench` to every bench binary.
            "--bench" => {}
            "--members" => a.members = Some(value("--members").parse().expect("--members K")),
            "--gap" => a.gap = value("--gap").parse().expect("--gap G"),
            "--limit" => a.limit = value("--limit").parse().expect("--limit S"),
            "--skip" => a.skip = value("--skip").split(',').map(str::to_string).collect(),
            f if !f.starts_with('-') => a.files.push(f.to_string()),
            other => panic!("unknown argument {other}"),
        }
    }
    a
}

fn main() {
    let a = args();
    let games: Vec<(String, GameDump)> = if a.files.is_empty() {
        vec![("lockstep/margin, 2,368 choices, last restricted game".to_string(), family_game())]
    } else {
        a.files
            .iter()
            .map(|f| (f.clone(), GameDump::from_bytes(&std::fs::read(f).expect("read the file")).unwrap()))
            .collect()
    };
    for (name, game) in games {
        let game = match a.members {
            Some(k) => corner(&game, k),
            None => game,
        };
        compare(&name, &game, &a);
    }
}

/// The last restricted game of the 2,368-choice `lockstep`/`margin` run, through its dump
/// file: its value (by the dense simplex) must be the run's last restricted value.
fn family_game() -> GameDump {
    let def = common::lockstep_2368();
    let dir = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let mut s = Solver::open_with(def.clone(), dir.path(), Options { replies: 8, ..Options::default() }).unwrap();
    s.run(&Quiet).unwrap();
    assert!(s.exact(), "{:?}", s.state().log.last());
    let restricted = s.state().log.last().unwrap().restricted_value;
    drop(s);
    let file = dir.path().join("game.lp");
    Solver::open(def, dir.path()).unwrap().dump_lp(&file).unwrap();
    let game = GameDump::from_bytes(&std::fs::read(&file).unwrap()).unwrap();
    let (v, _) = maximiser_from(&game.a, game.rows, game.cols, &game.rows0, &game.cols0).unwrap();
    assert!((v - restricted).abs() < 1e-9, "dumped game's value {v}, the run's {restricted}");
    eprintln!("run and dump: {} × {} in {:.1} s", game.rows, game.cols, t.elapsed().as_secs_f64());
    game
}

/// The leading `k × k` corner of `g` (at most the whole), its guesses cut to it.
fn corner(g: &GameDump, k: usize) -> GameDump {
    let (rows, cols) = (k.min(g.rows), k.min(g.cols));
    let a = (0..rows).flat_map(|i| g.a[i * g.cols..i * g.cols + cols].iter().copied()).collect();
    let rows0 = g.rows0.iter().copied().filter(|&i| i < rows).collect();
    let cols0 = g.cols0.iter().copied().filter(|&j| j < cols).collect();
    GameDump { rows, cols, rows0, cols0, a }
}

/// What the row mix `x` (clamped and renormalised) guarantees: its worst column.
fn guarantee(g: &GameDump, x: &[f64]) -> f64 {
    let x: Vec<f64> = x.iter().map(|&w| if w > 0.0 { w } else { 0.0 }).collect();
    let total: f64 = x.iter().sum();
    let mut col = vec![0.0; g.cols];
    for (i, &w) in x.iter().enumerate().filter(|(_, &w)| w > 0.0) {
        let row = &g.a[i * g.cols..(i + 1) * g.cols];
        col.iter_mut().zip(row).for_each(|(c, &v)| *c += w / total * v);
    }
    col.into_iter().fold(f64::INFINITY, f64::min)
}

/// A solve's seconds: the process's CPU time (every thread's; the figure that a loaded
/// machine disturbs least) and the wall clock's.
struct Clock(f64, Instant);

impl Clock {
    fn cpu() -> f64 {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `t` is a valid timespec for the call to fill.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
        assert_eq!(ok, 0, "clock_gettime");
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    }

    fn start() -> Clock {
        Clock(Clock::cpu(), Instant::now())
    }

    /// (CPU seconds, wall seconds) since the start.
    fn read(&self) -> (f64, f64) {
        (Clock::cpu() - self.0, self.1.elapsed().as_secs_f64())
    }
}

/// One solver's answer: its value, its row mix, and whether it stopped at the time limit.
struct Answer {
    value: f64,
    x: Vec<f64>,
    finished: bool,
}

/// The row player's LP by HiGHS with `solver` (`simplex`, `ipm`, `pdlp`) and its options.
fn highs(g: &GameDump, solver: &str, options: &[(&str, f64)], limit: f64) -> Answer {
    let mut pb = ColProblem::new();
    let cons: Vec<_> = (0..g.cols).map(|_| pb.add_row(0.0..)).collect();
    let sum = pb.add_row(1.0..=1.0);
    for i in 0..g.rows {
        let row = &g.a[i * g.cols..(i + 1) * g.cols];
        let factors = row.iter().zip(&cons).filter(|(&v, _)| v != 0.0).map(|(&v, &r)| (r, v));
        pb.add_column(0.0, 0.0.., factors.chain([(sum, 1.0)]));
    }
    pb.add_column(1.0, f64::NEG_INFINITY.., cons.iter().map(|&r| (r, -1.0)));
    let mut model = pb.optimise(Sense::Maximise);
    model.make_quiet();
    model.set_option("solver", solver);
    model.set_option("time_limit", limit);
    // One thread: its simplex, interior point and PDLP solve serially, and idle workers of its
    // scheduler would only spin.
    model.set_option("threads", 1);
    if solver == "ipm" {
        model.set_option("run_crossover", "off");
    }
    for &(name, value) in options {
        model.set_option(name, value);
    }
    let solved = model.solve();
    let status = solved.status();
    // Stopped short (the time limit, or PDLP's own limits: `Unknown`), the answer is reported,
    // not checked.
    let finished = status == HighsModelStatus::Optimal;
    let stopped =
        [HighsModelStatus::ReachedTimeLimit, HighsModelStatus::ReachedIterationLimit, HighsModelStatus::Unknown];
    assert!(finished || stopped.contains(&status), "highs {solver}: {status:?}");
    if !finished {
        eprintln!("highs {solver}: {status:?}");
    }
    let mut x = solved.get_solution().columns().to_vec();
    let value = x.pop().expect("the value column");
    Answer { value, x, finished }
}

fn compare(name: &str, g: &GameDump, a: &Args) {
    let range = g.a.iter().fold(0.0f64, |m, &v| m.max(v.abs()));
    println!(
        "{name}: {} × {}, guessed supports {} and {}, payoffs within ±{range}, gap {}",
        g.rows,
        g.cols,
        g.rows0.len(),
        g.cols0.len(),
        a.gap
    );
    let run = |name: &str| !a.skip.iter().any(|s| s == name);
    let mut rows = Vec::new();
    if run("ours") {
        let t = Clock::start();
        let (v, x) = maximiser_from(&g.a, g.rows, g.cols, &g.rows0, &g.cols0).expect("our simplex");
        rows.push(("ours simplex", t.read(), Answer { value: v, x, finished: true }, 0.0));
    }
    // The value to check against: ours, or 0 for a skew-symmetric game (a symmetric run's).
    let skew =
        g.rows == g.cols && (0..g.rows).all(|i| (0..g.cols).all(|j| g.a[i * g.cols + j] == -g.a[j * g.cols + i]));
    let exact = match rows.first() {
        Some((_, _, answer, _)) => answer.value,
        None if skew => 0.0,
        None => panic!("--skip ours needs a skew-symmetric game (value 0)"),
    };
    if run("rm+") {
        let t = Clock::start();
        let (v, x) = maximiser_regret(&g.a, g.rows, g.cols, a.gap, &SolveOptions::default());
        rows.push(("ours rm+", t.read(), Answer { value: v, x, finished: true }, a.gap));
    }
    // PDLP's tolerances are relative (to 1 + the objectives, and to the bounds' and costs'
    // norms): a tenth of the gap on the gap, and on the constraints a tenth of it spread over
    // the payoffs' range.
    let feasible = a.gap / 10.0 / range.max(1.0);
    let pdlp = [
        ("pdlp_optimality_tolerance", a.gap / 10.0),
        ("primal_feasibility_tolerance", feasible),
        ("dual_feasibility_tolerance", feasible),
    ];
    for (solver, label, options, gap) in [
        ("simplex", "highs simplex", &[][..], 0.0),
        ("ipm", "highs ipm", &[][..], 0.0),
        ("pdlp", "highs pdlp", &pdlp[..], a.gap),
    ] {
        if run(solver) {
            let t = Clock::start();
            let answer = highs(g, solver, options, a.limit);
            rows.push((label, t.read(), answer, gap));
        }
    }
    println!("| solver | CPU s | wall s | value | guarantee of its mix | shortfall |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let mut failures = Vec::new();
    for (label, (cpu, wall), answer, gap) in &rows {
        let held = guarantee(g, &answer.x);
        let short = exact - held;
        let note = if answer.finished { "" } else { " (stopped)" };
        println!("| {label} | {cpu:.2}{note} | {wall:.2} | {:.9} | {held:.9} | {short:.2e} |", answer.value);
        // Exact solvers: the value within 1e-6 (HiGHS's default tolerances, relative to the
        // payoffs), and the mix's guarantee too; approximate ones: the mix within 1.5 gaps.
        let tol = if *gap > 0.0 { 1.5 * gap } else { 1e-6 * range.max(1.0) };
        if answer.finished
            && ((*gap == 0.0 && (answer.value - exact).abs() > tol) || short > tol || held > exact + 1e-9)
        {
            failures
                .push(format!("{label}: value {} guarantee {held} against {exact} (tolerance {tol})", answer.value));
        }
    }
    assert!(failures.is_empty(), "{name}: {}", failures.join("; "));
}
