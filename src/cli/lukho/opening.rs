//! `lukho opening`: a choice id and its choice, both ways, with a diagram.

use super::{choice, RuleFlags};
use crate::cli::args::flag;
use crate::cli::usage;
use anyhow::Result;
use clap::Args;
use mancala::games::lukho::race::setup;
use mancala::games::lukho::{Board, Choice, ChoiceError};

#[derive(Args)]
pub struct OpeningArgs {
    /// A choice id, 0..=6356991 with the default rules (`--keep-one` changes the count); printed with its removal and drop.
    #[arg(long, conflicts_with_all = ["remove", "drop"])]
    id: Option<u64>,
    /// r0,…,r7 (own indices).
    #[arg(long, allow_hyphen_values = true, requires = "drop")]
    remove: Option<String>,
    /// COUNT@PIT (PIT = the opponent's index).
    #[arg(long, allow_hyphen_values = true, requires = "remove")]
    drop: Option<String>,
    /// Print the choice as one JSON document.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn opening(a: OpeningArgs) -> Result<()> {
    let rules = &a.rules.rules();
    let c = match (a.id, a.remove, a.drop) {
        (Some(id), _, _) => Choice::from_id(id, rules).or_else(|e| match e {
            ChoiceError::Id { id, count } => {
                usage(format!("{}: {id} is out of range (0..{count} under these rules)", flag("id")))
            }
            e => usage(format!("{}: {e}", flag("id"))),
        })?,
        (None, Some(r), Some(d)) => choice(["remove", "drop"], &r, &d, rules)?,
        _ => return usage(format!("{}: give --id N, or --remove r0,…,r7 with --drop COUNT@PIT", flag("id"))),
    };
    // The diagram: the choice made by South, North untouched, before the sowing.
    let b: Board = setup(&c, &Choice::default());
    if a.json {
        println!("{}", c.to_json(rules));
        return Ok(());
    }
    println!(
        "id {} of {}: --remove {} --drop {}",
        c.id(rules),
        Choice::count(rules),
        c.remove_string(),
        c.drop_string()
    );
    println!(
        "hand {} = drop {} into the opponent's pit {} + {} sown from the opponent's pit 0",
        c.hand(),
        c.drop,
        c.pit,
        c.sow_count()
    );
    println!("as South's choice, before the sowing (North's row on top, his index 7 at the left):\n{b}");
    Ok(())
}
