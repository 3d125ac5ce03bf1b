//! `lukho replies`: North's best replies to a set of South choices, and the most common one.

use super::equilibrium::{eq_error, EqProgress};
use super::race_help;
use super::{input, RuleFlags};
use crate::cli::args::{set_threads, threads, Threads};
use anyhow::Result;
use clap::Args;
use mancala::games::lukho::{Choice, Races};
use mancala::opening_game::{OpeningGame, Payoff, Solver};
use mancala::sweep::{InputError, Spec};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct RepliesArgs {
    /// South's choices: a SPEC (members of the family).
    #[arg(long)]
    south: Spec,
    /// sequential | lockstep (outcomes at equal weights), or one outcome.
    #[arg(long, long_help = concat!(race_help!(models), "\nHere a model's outcomes count at equal weights (speeds is not accepted: its outcomes depend on the pair)."))]
    race: Races,
    /// margin | result | points | points-later (as in `equilibrium`).
    #[arg(long, default_value = "margin")]
    payoff: Payoff,
    /// North's choices searched for replies: a SPEC (default all 6,356,992).
    #[arg(long, default_value = "all")]
    family: Spec,
    /// Run directory (created if missing; rerun the same command to resume).
    #[arg(long, value_parser = crate::cli::args::out_dir())]
    out: PathBuf,
    /// How many of the most common replies to list.
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// Print the run's report as JSON.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = threads)]
    threads: Option<Threads>,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn replies(a: RepliesArgs) -> Result<()> {
    // Everything is checked before anything is written.
    let rules = a.rules.rules();
    set_threads(a.threads)?;
    let south_ids = a.south.nonempty_ids(&rules, "south").map_err(input)?;
    if a.top == 0 {
        return Err(input(InputError::new("top", "0; expected at least 1")));
    }
    let def = OpeningGame { rules, model: a.race, payoff: a.payoff, family: a.family };
    let mut solver = Solver::open(def, &a.out).map_err(eq_error)?;
    let obs = EqProgress::new(true);
    let start = Instant::now();
    // The library checks South's choices against the family before it writes anything.
    let r = solver.replies(&south_ids, a.top, &obs).map_err(eq_error)?;
    let paths = r.write(&solver).map_err(eq_error)?;
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        let mut v = r.to_json(&solver);
        v["seconds"] = json!(seconds);
        v["out"] = json!(paths);
        println!("{v}");
        return Ok(());
    }
    let text = |id: u32| Choice::from_id(id as u64, &rules).map(|c| c.to_string()).unwrap_or_default();
    println!(
        "Best replies over `{}` ({} choices) to {} South choices, race {}, payoff {}: {} distinct best replies",
        solver.def().family.text,
        solver.ids().len(),
        south_ids.len(),
        a.race.name(),
        a.payoff.name(),
        r.distinct
    );
    for t in &r.top {
        println!(
            "  best reply to {:>5} of {}  mean {:>9.4}  id {:>7}  {}",
            t.best_for,
            south_ids.len(),
            t.mean,
            t.id,
            text(t.id)
        );
    }
    let worst = r.south.iter().map(|b| b.value).fold(f64::INFINITY, f64::min);
    let best = r.south.iter().map(|b| b.value).fold(f64::NEG_INFINITY, f64::max);
    println!(
        "South's value against its best reply: from {worst} to {best}; {} games in {seconds:.1} s -> {}",
        r.games,
        a.out.display()
    );
    Ok(())
}
