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
    /// Moves in the notation `kiothi solve` prints (`PIT:LIFT`), comma-separated; empty: the position itself.
    #[arg(long, default_value = "")]
    moves: String,
    /// Print one JSON state per ply (JSON lines) instead of boards.
    #[arg(long)]
    jsonl: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

/// The legal moves as printed: none once the game has ended, the number of redistributions on
/// turns 1 and 2 (too many to list), else every sowing.
fn legal_json(g: &Game) -> serde_json::Value {
    if g.result.is_some() {
        return json!([]);
    }
    if g.position.is_redistribution() {
        return match g.position.redistribution_count(&g.rules) {
            Ok(n) => json!(n.to_string()),
            Err(_) => json!(null),
        };
    }
    json!(g.legal_sowings().iter().map(|m| m.to_string()).collect::<Vec<_>>())
}

pub fn replay(a: ReplayArgs) -> Result<()> {
    let rules = a.rules.rules();
    let start = load(a.position, &rules)?;
    let mut g = Game::new(rules, start).or_else(bad)?;
    let mut lines = Vec::new();
    for (ply, text) in a.moves.split_whitespace().enumerate() {
        let mut line = g.position.to_json();
        line["ply"] = json!(ply);
        line["legal"] = legal_json(&g);
        line["terminal"] = json!(g.result.is_some());
        let m: Move = match text.parse() {
            Ok(m) => m,
            Err(e) => return usage(format!("--moves: ply {ply}: {e}")),
        };
        if let Err(e) = g.play(&m) {
            return usage(format!("--moves: ply {ply}: `{text}`: {e} (legal: {})", legal_json(&g)));
        }
        line["move"] = json!(text);
        lines.push(line);
    }
    let mut last = g.position.to_json();
    last["ply"] = json!(lines.len());
    last["legal"] = legal_json(&g);
    last["terminal"] = json!(g.result.is_some());
    if let Some(r) = &g.result {
        last["result"] = r.to_json();
    }
    lines.push(last);
    if a.jsonl {
        lines[0]["rules"] = rules.to_json();
        for l in &lines {
            println!("{l}");
        }
    } else {
        println!("rules: {}", rules.to_json());
        println!("{}", g.position);
        println!("{}", lines.last().unwrap());
    }
    Ok(())
}
