//! `kiothi replay`: every ply's state and legal moves of a sequence of moves.

use super::{bad, load, RuleFlags};
use crate::cli::usage;
use anyhow::Result;
use clap::Args;
use mancala::games::kiothi::{Game, Move};
use serde_json::json;

#[derive(Args)]
pub struct ReplayArgs {
    /// State JSON file (`-` = stdin); default: the setup's start.
    #[arg(long)]
    position: Option<String>,
    /// Moves separated by spaces: a sowing `B:K` as `kiothi solve` prints it (K warriors lifted
    /// from own boma B), on turns 1 and 2 a redistribution `E1,E2>A*C,…`; empty: the position itself.
    #[arg(long, default_value = "")]
    moves: String,
    /// Print one JSON state per ply (JSON lines) instead of boards.
    #[arg(long)]
    jsonl: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn replay(a: ReplayArgs) -> Result<()> {
    let rules = a.rules.rules();
    let start = load(a.position, &rules)?;
    let mut g = Game::new(rules, start).or_else(bad)?;
    let mut lines = Vec::new();
    for (ply, text) in a.moves.split_whitespace().enumerate() {
        let mut line = g.state_json();
        line["ply"] = json!(ply);
        let m: Move = match text.parse() {
            Ok(m) => m,
            Err(e) => return usage(format!("--moves: ply {ply}: {e}")),
        };
        if let Err(e) = g.play(&m) {
            return usage(format!("--moves: ply {ply}: `{text}`: {e} (legal: {})", g.legal_json()));
        }
        line["move"] = json!(text);
        lines.push(line);
    }
    let mut last = g.state_json();
    last["ply"] = json!(lines.len());
    lines.push(last);
    if a.jsonl {
        lines[0]["rules"] = rules.to_json();
        for l in &lines {
            println!("{l}");
        }
    } else {
        println!("rules: {}", rules.to_json());
        // The board alone does not say which boma is which, nor what the marks are.
        println!("(North's row on top, his index 9 at the left; South's index 0 at the left; the number after a name is his prison; `*` marks an nki boma)");
        println!("{}", g.position);
        println!("{}", lines.last().unwrap());
    }
    Ok(())
}
