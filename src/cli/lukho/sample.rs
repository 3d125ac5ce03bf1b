//! `lukho sample`: a uniform random sample of opening pairs.

use super::race_help;
use super::{input, RuleFlags};
use crate::cli::args::flag;
use crate::cli::progress::bar;
use anyhow::{Context, Result};
use clap::Args;
use mancala::games::lukho::Races;
use mancala::sweep::plan::UNSHARDED_GAMES;
use mancala::sweep::sample::{check_out, sample as play_sample, summary, write_files};
use mancala::sweep::InputError;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct SampleArgs {
    /// Number of opening pairs to draw.
    #[arg(long)]
    pairs: u64,
    /// Seed of the pseudo-random draw: the same seed, pairs and race give the same sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// sequential | lockstep | speeds, or one outcome.
    #[arg(long, long_help = race_help!(speeds))]
    race: Races,
    /// Run a sample of more than 10^10 games (about a core-hour) anyway: a sample cannot
    /// resume, so a stop loses all of it; without --yes it is refused with its estimate.
    #[arg(long)]
    yes: bool,
    /// Output directory (created if missing): sample.json, margins.csv (with its margins.meta.json)
    /// and margins.svg.
    #[arg(long, value_parser = crate::cli::args::out_dir())]
    out: PathBuf,
    /// Print the summary as one JSON line (default: pretty-printed).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn sample(a: SampleArgs) -> Result<()> {
    let rules = &a.rules.rules();
    if a.pairs == 0 {
        return Err(input(InputError::new("pairs", "0; expected at least 1")));
    }
    // Games per pair: one per race outcome (under speeds at least one, so a lower bound).
    let games = a.pairs.saturating_mul(a.race.outcomes().map_or(1, |o| o.len() as u64));
    if games > UNSHARDED_GAMES && !a.yes {
        return crate::cli::usage(format!(
            "--pairs: {} pairs play {}{games} games (more than {UNSHARDED_GAMES}, about {:.0} core-hours at 10^10 games a core-hour), and a stopped sample cannot resume; give --yes to run it",
            a.pairs,
            if a.race.outcomes().is_some() { "" } else { "at least " },
            games as f64 / 1e10
        ));
    }
    check_out(&a.out).map_err(input)?;
    crate::cli::args::make_out_dir("--out", &a.out)?;
    let pb = bar(a.pairs, "pairs");
    let start = Instant::now();
    let st = play_sample(rules, a.race, a.seed, 0, a.pairs, &|k| pb.inc(k));
    pb.finish_and_clear();
    let s = summary(&st, rules, a.race, a.seed, start.elapsed().as_secs_f64());
    write_files(&a.out, &st, &s, rules, a.race).with_context(|| format!("{}: {}", flag("out"), a.out.display()))?;
    if a.json {
        println!("{s}");
    } else {
        println!("{s:#}");
    }
    Ok(())
}
