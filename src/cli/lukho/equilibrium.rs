//! `lukho equilibrium`: the opening as a matrix game, by double oracle; its progress on stderr.

use super::{input, GameFlags, RunFlags};
use crate::cli::args::seconds;
use crate::cli::progress::bar;
use anyhow::Result;
use clap::Args;
use mancala::opening_game::{EqError, IterRecord, Observer, Options, Payoff, Solver, StopAt, Weights};
use mancala::sweep::{InputError, Spec};
use std::path::PathBuf;
use std::sync::Mutex;

#[derive(Args)]
pub struct EquilibriumArgs {
    /// margin (South − North seeds) | result (+1/0/−1) | points (match points of the first game of a series, South − North; a bull scores 12) | points-later (of any later game: a bull scores 4; rule book L13).
    #[arg(long)]
    payoff: Payoff,
    /// Run directory: the state, the payoff vectors and equilibrium.json (created if missing; rerun the same command to resume).
    #[arg(long, value_parser = crate::cli::args::out_dir())]
    out: PathBuf,
    /// Stop (resumably) once this many iterations are done in all.
    #[arg(long)]
    max_iterations: Option<u32>,
    /// Start no new iteration after this many seconds (the state stays resumable).
    #[arg(long, value_parser = seconds)]
    time: Option<f64>,
    /// Also report how far these choices (a SPEC) can be exploited, each side.
    #[arg(long)]
    exploit: Option<Spec>,
    /// Refine each mix against up to K more opposing best replies per iteration (LPs over
    /// the cached payoff vectors, no games): better bounds per sweep, more LP time.
    #[arg(long, default_value_t = 0)]
    cuts: usize,
    /// Best replies added per side and iteration: the best, then the next best with distinct
    /// payoffs against the mix that beat the restricted value (one vector sweep each).
    /// (1 to 100000.)
    #[arg(long, default_value_t = 1)]
    replies: usize,
    /// Also answer the average of the last K iterations' mixes (0 or 1: off): the restricted
    /// game's optimal mixes jump between far-apart optima, and their average is often much
    /// harder to exploit; its bound may improve the certificate (the answer's certified mixes
    /// may then be averages) and its best reply joins the candidates. Costs one best-reply pass
    /// a side per iteration and keeps the averaged mixes' vectors. May change between sittings.
    /// (0 to 1000.)
    #[arg(long, default_value_t = 0)]
    average: usize,
    /// With `--average`: of the `--replies` candidates per side, up to R come from the averaged
    /// mix's best replies (ranked like the LP mix's, those that beat the restricted value),
    /// the rest from the LP mix's. The average is the harder mix to beat, so what beats it is
    /// the likelier part of the optimum. May change between sittings. (1 to 100000.)
    #[arg(long, default_value_t = 1)]
    average_replies: usize,
    /// With `--average`: how the last K mixes are weighed. `uniform`: equally. `optimal`: by the
    /// weights that concede least over the whole family (a small LP over each mix's best-reply
    /// scores, kept as 8 bytes a choice per mix in DIR/mixes); the earlier mixes' payoff
    /// vectors need not stay, so the averaged mixes need no memory beyond their scores.
    /// `anchored`: as `optimal`, with the run's certified mix as one more mix to weigh (its
    /// score vector kept too), so what older mixes proved outlasts the window.
    /// May change between sittings.
    #[arg(long, default_value = "uniform")]
    average_weights: Weights,
    /// Solve each iteration's restricted game only to this duality gap (payoff units: seeds
    /// for `margin`), by regret matching⁺, instead of exactly by the simplex (0, the
    /// default), then cuts the mix to its fewest heaviest members that lose at most G/2 more
    /// (each member costs a vector sweep). The mixes are certified over the whole family
    /// either way, and an iteration that adds no member is followed by an exact one, so a
    /// run still ends exact. On the full `lockstep` game at 10,721 members: 39 s for 0.01
    /// seeds against ~850 s for the exact LP; on a 12,544-choice family the same certified
    /// gaps per iteration.
    /// May change between sittings.
    #[arg(long, default_value_t = 0.0)]
    restricted_gap: f64,
    /// Warm start a new run: both restricted sets begin with the choices of both mixes of
    /// FILE (another run's equilibrium.json; choices outside the family are skipped).
    #[arg(long)]
    seed: Option<PathBuf>,
    /// Trace the restricted LPs on stderr: a line per start (from the carried optimum or from
    /// the guessed supports) and per constraint-generation round (rows × columns, pivots,
    /// seconds), one per regret-matching⁺ solve. Changes nothing computed.
    #[arg(long)]
    lp_trace: bool,
    /// Iterate nothing: write the restricted game the run in --out solves next (a finished
    /// run's last one) to FILE and exit: South's payoffs over the state's sets with the
    /// supports its LP starts from (the layout: docs/equilibrium.md, "The restricted game's
    /// file"). Entries not in a saved vector are played, as on a resume.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "exploit"])]
    dump_lp: Option<PathBuf>,
    /// Disk the saved payoff vectors may take (`40G`, `500M`, bytes; default: keep every one).
    /// After each iteration the vectors of members outside its mixes are deleted, least
    /// recently used first, until the rest and the next iteration's replies fit; a member
    /// that enters a mix again is swept again. The full game's vectors are 6.4 MB each: a byte
    /// per choice (two-outcome margins, up to ±192 half-seeds, are even: half of each is kept).
    #[arg(long, value_parser = crate::cli::args::bytes)]
    vector_budget: Option<u64>,
    #[command(flatten)]
    game: GameFlags,
    #[command(flatten)]
    run: RunFlags,
}

/// Progress of an equilibrium run: a bar per vector sweep, a line per iteration (stderr).
pub(super) struct EqProgress {
    pb: Mutex<Option<indicatif::ProgressBar>>,
    quiet: bool,
    /// Bytes of one payoff vector (0: not reported).
    vector_bytes: u64,
    /// Without a terminal (a log file), sweeps report as lines, at most one per 30 s.
    lines: Mutex<Option<SweepLine>>,
    /// A mix's vector sweeps: when its first ended, when the last line was printed.
    mix: Mutex<Option<(std::time::Instant, std::time::Instant)>>,
}

/// A sweep reported as lines: label, games due and done, start, last line.
struct SweepLine {
    label: String,
    total: u64,
    done: u64,
    start: std::time::Instant,
    last: std::time::Instant,
}

impl EqProgress {
    /// `quiet`: bars only, no iteration lines.
    pub(super) fn new(quiet: bool) -> EqProgress {
        EqProgress { pb: Mutex::new(None), quiet, vector_bytes: 0, lines: Mutex::new(None), mix: Mutex::new(None) }
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, Option<indicatif::ProgressBar>> {
        // A bar is only drawing state: one left by a panicking thread is still usable.
        self.pb.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Observer for EqProgress {
    fn sweep_start(&self, label: &str, games: u64) {
        if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            let now = std::time::Instant::now();
            let line = SweepLine { label: label.to_string(), total: games, done: 0, start: now, last: now };
            *self.lines.lock().unwrap_or_else(|e| e.into_inner()) = Some(line);
            return;
        }
        let b = bar(games, "games");
        b.set_message(label.to_string());
        *self.bar() = Some(b);
    }
    fn games(&self, n: u64) {
        if let Some(l) = &mut *self.lines.lock().unwrap_or_else(|e| e.into_inner()) {
            l.done += n;
            if l.last.elapsed().as_secs_f64() >= 30.0 {
                l.last = std::time::Instant::now();
                let rate = l.done as f64 / l.start.elapsed().as_secs_f64().max(1e-9);
                eprintln!(
                    "  sweep {}: {}/{} games, {:.2} M games/s, ETA {:.0} s",
                    l.label,
                    l.done,
                    l.total,
                    rate / 1e6,
                    l.total.saturating_sub(l.done) as f64 / rate.max(1e-9)
                );
            }
        }
        if let Some(b) = &*self.bar() {
            b.inc(n);
        }
    }
    fn sweep_end(&self) {
        if let Some(l) = self.lines.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let secs = l.start.elapsed().as_secs_f64();
            if secs >= 5.0 {
                eprintln!(
                    "  swept {}: {} games in {secs:.1} s, {:.2} M games/s",
                    l.label,
                    l.done,
                    l.done as f64 / secs / 1e6
                );
            }
        }
        if let Some(b) = self.bar().take() {
            b.finish_and_clear();
        }
    }
    fn mix_swept(&self, side: &str, done: usize, due: usize) {
        let mut m = self.mix.lock().unwrap_or_else(|e| e.into_inner());
        let now = std::time::Instant::now();
        if done == 1 {
            // A new mix: its first sweep ends the interval the ETA is timed over from here.
            *m = Some((now, now));
            return;
        }
        let Some((start, last)) = m.as_mut() else { return };
        if done == due || last.elapsed().as_secs() >= 60 {
            *last = now;
            let per = start.elapsed().as_secs_f64() / (done - 1) as f64;
            eprintln!(
                "  {side}'s mix: {done} of {due} vectors swept, {per:.2} s each, ETA {:.0} s",
                (due - done) as f64 * per
            );
        }
    }
    fn iteration(&self, r: &IterRecord) {
        if !self.quiet {
            eprintln!(
                "iteration {}: |S| {} |N| {} (support {}/{}), restricted value {:.6}, bounds [{:.6}, {:.6}], gap {:.6}{}, best [{:.6}, {:.6}] gap {:.6}, games {} (+{}), {:.1} s (+{:.1} s: LP {:.1}, replies {:.1}), {:.2} M games/s, {} vectors ({:.2} GB, mapped{})",
                r.iteration,
                r.south_size,
                r.north_size,
                r.south_support,
                r.north_support,
                r.restricted_value,
                r.lower,
                r.upper,
                r.gap(),
                match (r.average_lower, r.average_upper) {
                    (Some(l), Some(u)) => format!(", average [{l:.6}, {u:.6}]"),
                    _ => String::new(),
                },
                r.best_lower.unwrap_or(f64::NAN),
                r.best_upper.unwrap_or(f64::NAN),
                r.best_upper.unwrap_or(f64::NAN) - r.best_lower.unwrap_or(f64::NAN),
                r.total_games,
                r.games,
                r.total_seconds,
                r.seconds,
                r.lp_seconds,
                r.reply_seconds,
                r.games as f64 / r.seconds.max(1e-9) / 1e6,
                r.vectors,
                (r.vectors as u64 * self.vector_bytes) as f64 / 1e9,
                match r.deleted {
                    0 => String::new(),
                    k => format!("; {k} deleted for the budget"),
                }
            );
        }
    }
}

/// Bad input (naming the field) is exit 2; failed writes and LPs exit 1.
pub(super) fn eq_error(e: EqError) -> anyhow::Error {
    match e {
        EqError::Input(e) => input(e),
        EqError::Lock(e) => crate::cli::args::lock_error(crate::cli::args::flag("out"), e),
        e => anyhow::anyhow!("{e}"),
    }
}

pub fn equilibrium(a: EquilibriumArgs) -> Result<()> {
    // Everything is checked before anything is written.
    let rules = a.game.rules.rules();
    a.run.set_threads()?;
    let exploit_ids = match &a.exploit {
        Some(s) => s.nonempty_ids(&rules, "exploit").map_err(input)?,
        None => vec![],
    };
    let def = a.game.game(a.payoff);
    // The ranges are the library's to check (the Python binding's too): `open_with` refuses a
    // value out of range naming its field, before anything is written.
    let options = Options {
        replies: a.replies,
        average: a.average,
        average_replies: a.average_replies,
        average_weights: a.average_weights,
        restricted_gap: a.restricted_gap,
        vector_budget: a.vector_budget,
        cuts: a.cuts,
        lp_trace: a.lp_trace,
        stop: StopAt { max_iterations: a.max_iterations, seconds: a.time },
    };
    let mut solver = Solver::open_with(def, &a.out, options).map_err(eq_error)?;
    if let Some(&id) = exploit_ids.iter().find(|&&id| solver.ids().binary_search(&id).is_err()) {
        let message = format!("choice {id} is not in the family `{}`", solver.def().family.text);
        return Err(input(InputError::new("exploit", message)));
    }
    if let Some(file) = &a.dump_lp {
        let t = std::time::Instant::now();
        let game = solver.dump_lp(file).map_err(eq_error)?;
        let iterations = solver.state().log.len();
        if a.run.json {
            let shape = serde_json::json!({
                "file": file, "rows": game.rows, "cols": game.cols, "guessed_rows": game.rows0.len(),
                "guessed_cols": game.cols0.len(), "iterations": iterations,
            });
            println!("{shape}");
        } else {
            println!(
                "restricted game after iteration {iterations}: {} × {} (guessed supports {} and {}), {:.1} s -> {}",
                game.rows,
                game.cols,
                game.rows0.len(),
                game.cols0.len(),
                t.elapsed().as_secs_f64(),
                file.display()
            );
        }
        return Ok(());
    }
    if let Some(path) = &a.seed {
        let ids = seed_ids(path).map_err(input)?;
        solver.seed(&ids).map_err(eq_error)?;
    }
    let mut obs = EqProgress::new(false);
    obs.vector_bytes = solver.bytes_per_vector();
    solver.run(&obs).map_err(eq_error)?;
    let exploits = exploit_ids.iter().map(|&id| solver.exploit(id, &obs)).collect::<Result<Vec<_>, _>>();
    let answer = solver.answer(&exploits.map_err(eq_error)?);
    let path = solver.write_answer(&answer).map_err(eq_error)?;
    if a.run.json {
        println!("{}", answer.to_json(Some(&path)));
        return Ok(());
    }
    // Bounds not known yet (no iteration) print as `-`, as JSON prints them as null.
    let f = |v: Option<f64>| v.filter(|x| x.is_finite()).map_or("-".to_string(), |x| format!("{x:.6}"));
    println!(
        "Lukho opening game, chain={} keep_one={}, race {}, payoff {}, family `{}` ({} choices each)",
        rules.chain.name(),
        rules.keep_one,
        answer.race,
        answer.payoff,
        answer.family,
        answer.family_size
    );
    let status = if answer.exact {
        "converged".to_string()
    } else if answer.stalled {
        "stalled (neither best response is new, gap above the tolerance)".to_string()
    } else {
        format!("not converged; continue with the same command (state in {})", a.out.display())
    };
    let cert = answer.certificate.as_ref();
    println!(
        "value {} ({}), certified bounds [{}, {}] (iterations {} and {}), gap {}; last iteration [{}, {}]: {status}",
        f(Some(answer.value)),
        if answer.symmetric { "symmetric game" } else { "restricted LP" },
        f(cert.map(|c| c.lower)),
        f(cert.map(|c| c.upper)),
        cert.map_or("-".to_string(), |c| c.lower_iteration.to_string()),
        cert.map_or("-".to_string(), |c| c.upper_iteration.to_string()),
        f(cert.map(|c| c.gap)),
        f(answer.lower),
        f(answer.upper),
    );
    for (side, mix) in [("south", &answer.south), ("north", &answer.north)] {
        println!("{side}: {} choices in the mix", mix.len());
        for e in mix.iter().take(25) {
            println!("  {:>9.6}  id {}  {}", e.weight, e.id, e.choice);
        }
        if mix.len() > 25 {
            println!("  … ({} more in {})", mix.len() - 25, path.display());
        }
    }
    for e in &answer.exploit {
        println!(
            "exploit id {} ({}): as South worth {} (exploitability {}), as North concedes {} (exploitability {})",
            e.id,
            e.choice,
            f(Some(e.as_south)),
            f(Some(e.as_south_exploitability)),
            f(Some(e.as_north)),
            f(Some(e.as_north_exploitability))
        );
    }
    println!("{} iterations, {} games, {:.1} s -> {}", answer.iterations, answer.games, answer.seconds, path.display());
    Ok(())
}

/// The choice ids of both mixes of an equilibrium.json (South's, then North's).
fn seed_ids(path: &std::path::Path) -> Result<Vec<u32>, InputError> {
    let bad = |why: String| InputError::new("seed", format!("{}: {why}", path.display()));
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let answer: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON ({e})")))?;
    let mut ids = Vec::new();
    for side in ["south", "north"] {
        let mix = answer[side].as_array().ok_or_else(|| bad(format!("no `{side}` mix (not an equilibrium.json)")))?;
        for e in mix {
            let id = e["id"].as_u64().and_then(|id| u32::try_from(id).ok());
            ids.push(id.ok_or_else(|| bad(format!("`{side}`: an entry without a choice id: {e}")))?);
        }
    }
    Ok(ids)
}
