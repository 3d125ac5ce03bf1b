//! `lukho replies`: North's best replies to a set of South choices, and the most common one.

use super::equilibrium::{eq_error, EqProgress};
use super::{input, GameFlags, RunFlags};
use anyhow::Result;
use clap::Args;
use mancala::games::lukho::Choice;
use mancala::opening_game::{Payoff, Solver};
use mancala::sweep::{InputError, Spec};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct RepliesArgs {
    /// South's choices: a SPEC (members of the family).
    #[arg(long)]
    south: Spec,
    /// margin | result | points | points-later (as in `equilibrium`).
    #[arg(long, default_value = "margin")]
    payoff: Payoff,
    /// Run directory (created if missing; rerun the same command to resume).
    #[arg(long, value_parser = crate::cli::args::out_dir())]
    out: PathBuf,
    /// How many of the most common replies to list.
    #[arg(long, default_value_t = 20)]
    top: usize,
    #[command(flatten)]
    game: GameFlags,
    #[command(flatten)]
    run: RunFlags,
}

pub fn replies(a: RepliesArgs) -> Result<()> {
    // Everything is checked before anything is written.
    let rules = a.game.rules.rules();
    a.run.set_threads()?;
    let south_ids = a.south.nonempty_ids(&rules, "south").map_err(input)?;
    if a.top == 0 {
        return Err(input(InputError::new("top", "0; expected at least 1")));
    }
    let def = a.game.game(a.payoff);
    let mut solver = Solver::open(def, &a.out).map_err(eq_error)?;
    let obs = EqProgress::new(true);
    let start = Instant::now();
    // The library checks South's choices against the family before it writes anything.
    let r = solver.replies(&south_ids, a.top, &obs).map_err(eq_error)?;
    let paths = r.write(&solver).map_err(eq_error)?;
    let seconds = start.elapsed().as_secs_f64();
    if a.run.json {
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
        solver.def().model.name(),
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
