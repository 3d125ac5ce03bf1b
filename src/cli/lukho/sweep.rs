//! `lukho sweep` (with `--dry-run`) and `lukho merge`.

use super::race_help;
use super::{input, RuleFlags, RunFlags};
use crate::cli::args::{flag, out_dir, seconds_at_most};
use crate::cli::progress::bar;
use anyhow::Result;
use clap::Args;
use mancala::export::Format;
use mancala::games::lukho::Races;
use mancala::sweep::merge::merge as merge_parts;
use mancala::sweep::part::PartError;
use mancala::sweep::plan::{Plan, RunError, Start};
use mancala::sweep::{InputError, Shard, Spec, SweepDef};
use serde_json::json;
use std::path::PathBuf;

#[derive(Args)]
pub struct SweepArgs {
    /// South's choices: a SPEC (e.g. `all`, `12345`, `0..65536:pit=3`, `all:drop=0`).
    #[arg(long)]
    south: Spec,
    /// North's choices: a SPEC (required unless --symmetric).
    #[arg(long)]
    north: Option<Spec>,
    /// Each South choice against the same choice by North (own indices mirrored), instead
    /// of a product; --north is not used. (For the square product give --north the same SPEC.)
    #[arg(long)]
    symmetric: bool,
    /// sequential | lockstep | speeds, or one outcome: south-first, north-first,
    /// lockstep-south, lockstep-north.
    #[arg(long, long_help = race_help!(speeds))]
    race: Races,
    /// K/N: this run does the K-th of N South ranges (0-based) and writes a part file.
    /// Default: SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX/JOB_COMPLETIONS.
    #[arg(long)]
    shard: Option<Shard>,
    /// Print the games and the projected core-hours (timed on a sample here); write nothing.
    #[arg(long)]
    dry_run: bool,
    /// With --dry-run: CPU seconds of timing on one core (default 2; 0.3 for speeds), so
    /// other programs' turns on a loaded machine are not counted as the sweep's. A perpetual
    /// opening (about 3.5 pairs in 10,000) costs as much as thousands of normal games, so a
    /// longer sample meets enough of them to give a steadier rate. The sample starts cold
    /// (no perpetual cycle shared yet), so it overstates a long sweep, where games share
    /// proven cycles. Under speeds a pair whose sowing never ends can have 10^7 outcomes
    /// (South 1687463 vs North 3349489: 37,699,575, ten minutes), so its projection is a
    /// lower bound and a longer sample may wait on one such pair.
    #[arg(long, value_name = "SECONDS", value_parser = calibration_seconds)]
    calibrate: Option<f64>,
    /// Run an unsharded sweep of more than 10^10 games (about a core-hour) anyway.
    ///
    /// Without it such a run is refused before it starts: an unsharded run cannot resume, so
    /// a stop loses everything it did. Split it with --shard K/N instead (each shard writes its
    /// own part file, finished shards are skipped on a rerun, `lukho merge` joins the parts;
    /// see scripts/lukho_local_shards.sh), and see its projected core-hours with --dry-run.
    #[arg(long)]
    yes: bool,
    /// Output directory (created if missing).
    #[arg(long, required_unless_present = "dry_run", value_parser = out_dir())]
    out: Option<PathBuf>,
    /// Also write one row per game (small products only).
    #[arg(long, value_parser = crate::cli::args::format())]
    games: Option<Format>,
    #[command(flatten)]
    run: RunFlags,
    #[command(flatten)]
    rules: RuleFlags,
}

/// `--calibrate`: seconds of timing, at most an hour.
fn calibration_seconds(s: &str) -> Result<f64, String> {
    seconds_at_most(s, 3600.0)
}

/// A failed run: bad input and bad parts are exit 2, failed writes exit 1.
fn run_error(e: RunError) -> anyhow::Error {
    match e {
        RunError::Input(e) => input(e),
        RunError::Part(e @ PartError::Bad { .. }) => crate::cli::Usage(e.to_string()).into(),
        RunError::Part(e @ PartError::Io { .. }) => anyhow::anyhow!("{e}"),
        RunError::Io { what, source } => anyhow::Error::new(source).context(format!("{}: {what}", flag("out"))),
        RunError::Lock(e) => crate::cli::args::lock_error(flag("out"), e),
    }
}

pub fn sweep(a: SweepArgs) -> Result<()> {
    // Everything is checked before anything is written.
    let rules = a.rules.rules();
    a.run.set_threads()?;
    let def = SweepDef::new(rules, a.race, a.south, a.north, a.symmetric).map_err(input)?;
    let shard = match a.shard {
        Some(s) => Some(s),
        None => {
            Shard::from_env(|k| std::env::var(k).ok()).map_err(|e| input(InputError::new("shard", e.to_string())))?
        }
    };
    let plan = Plan::new(def, shard).map_err(input)?;
    if a.dry_run {
        return dry_run(&plan, a.calibrate.unwrap_or(plan.default_calibration()), a.run.json);
    }
    if let Some(format) = a.games {
        plan.check_games_table(format).map_err(input)?;
    }
    if let Some(games) = plan.unsharded_games_over_limit().filter(|_| !a.yes) {
        let bound = if plan.games().is_some() { "" } else { "at least " };
        return crate::cli::usage(format!(
            "--shard: this unsharded sweep plays {bound}{games} games (more than {}), and a stopped unsharded run cannot resume; split it with --shard K/N (see the projected core-hours with --dry-run), or give --yes to run it in one piece",
            mancala::sweep::plan::UNSHARDED_GAMES
        ));
    }
    let out = a.out.expect("clap requires --out without --dry-run");
    crate::cli::args::make_out_dir("--out", &out)?;
    // The run holds the directory's lock until its files are written.
    let _locks = match plan.start(&out, a.games).map_err(run_error)? {
        Start::Fresh(locks) => locks,
        Start::Done(p) => {
            if a.run.json {
                println!("{}", json!({"part": p, "done_before": true, "games": 0}));
            } else if let Some(s) = plan.shard {
                eprintln!("shard {}/{}: {} is complete; nothing to do", s.k, s.n, p.display());
            }
            return Ok(());
        }
    };
    let expected = plan.games();
    let pb = bar(expected.unwrap_or(plan.pairs()), "games");
    if expected.is_none() {
        pb.set_message("(speeds: length counts pairs, so the bar runs past it)");
    }
    let report = plan.run(&out, a.games, &|g| pb.inc(g)).map_err(run_error)?;
    pb.finish_and_clear();
    if a.run.json {
        println!("{}", report.to_json());
        return Ok(());
    }
    println!(
        "{} games ({} South × {} North, race {}) in {:.2} s: {:.0} games/s on {} threads -> {}",
        report.games,
        plan.south_ids().len(),
        plan.sets.north_per_south(),
        plan.def.model.name(),
        report.seconds,
        report.games_per_second(),
        report.threads,
        out.display()
    );
    let ps = report.perpetual;
    if ps.proven + ps.hits > 0 {
        println!(
            "perpetual sowings: {} proven by their cycle, {} by a point of an earlier cycle ({:.1} % hits, {} points shared)",
            ps.proven,
            ps.hits,
            100.0 * ps.hits as f64 / (ps.proven + ps.hits) as f64,
            ps.points
        );
    }
    Ok(())
}

fn dry_run(plan: &Plan, seconds: f64, json: bool) -> Result<()> {
    let p = plan.project(seconds);
    if json {
        println!("{}", p.to_json(plan));
    } else {
        println!(
            "{} South × {} North = {} pairs, {}{:.0} games; sample {} games in {:.2} CPU s on one core = {:.0} games/core-s; projected {:.4} core-hours ({:.4} h on the {} cores here)",
            p.south_choices,
            p.north_choices,
            p.pairs,
            if p.games_exact { "" } else { "about " },
            p.games,
            p.sample.games,
            p.sample.seconds,
            p.games_per_core_second(),
            p.core_hours(),
            p.hours_here(),
            p.cores
        );
    }
    Ok(())
}

#[derive(Args)]
pub struct MergeArgs {
    /// Output directory of the merged summaries (created if missing).
    #[arg(long, value_parser = out_dir())]
    out: PathBuf,
    /// The part files of the shards (`lukho sweep --shard K/N` writes `part-K-of-N.lukho`): all N of one sweep.
    #[arg(required = true, value_parser = crate::cli::args::in_file())]
    parts: Vec<PathBuf>,
    /// Print the merge's report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn merge(a: MergeArgs) -> Result<()> {
    let m = merge_parts(&a.out, &a.parts).map_err(run_error)?;
    if a.json {
        println!("{}", json!({"out": a.out, "parts": a.parts.len(), "summary": m.summary}));
    } else {
        println!(
            "merged {} parts: {} South choices, {} games -> {}",
            a.parts.len(),
            m.south_choices,
            m.summary.get("games").cloned().unwrap_or_default(),
            a.out.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod fuzz {
    use crate::cli::fuzz::check;

    /// `--calibrate`: any text is a number of seconds in (0, 3600] or an error.
    #[test]
    fn calibration_seconds_never_panic() {
        check("cli lukho --calibrate", 3000, crate::cli::fuzz::numberish(), |s| {
            if let Ok(x) = super::calibration_seconds(&s) {
                proptest::prop_assert!(x > 0.0 && x <= 3600.0);
            }
            Ok(())
        });
    }
}
