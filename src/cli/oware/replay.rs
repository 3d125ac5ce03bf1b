//! `oware replay`: a sequence of moves played and printed ply by ply.

use super::{parse_pits, RuleFlags};
use crate::cli::usage;
use anyhow::Result;
use clap::Args;
use mancala::games::oware::{self, Game, Position};
use mancala::side::Side;
use serde_json::json;

#[derive(Args)]
pub struct ReplayArgs {
    /// Moves as the mover's own pit indices 0..5, comma-separated.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    moves: Vec<String>,
    /// Start position: 12 counts, South's row then North's (absolute); default 4 each.
    #[arg(long, allow_hyphen_values = true)]
    start: Option<String>,
    /// Who moves first from --start.
    #[arg(long, default_value = "south")]
    to_move: String,
    /// One JSON object per ply (the first carries the rules).
    #[arg(long)]
    jsonl: bool,
    /// One JSON object for the whole game.
    #[arg(long, conflicts_with = "jsonl")]
    json: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

fn parse_side(field: &str, s: &str) -> Result<Side> {
    match s {
        "south" => Ok(Side::South),
        "north" => Ok(Side::North),
        _ => usage(format!("{field}: `{s}`; expected south or north")),
    }
}

fn state_json(p: &Position) -> serde_json::Value {
    json!({"game": "oware", "pits": p.pits, "stores": p.stores, "to_move": p.to_move.name()})
}

pub fn replay(a: ReplayArgs) -> Result<()> {
    let (moves, rules) = (&a.moves, a.rules.rules());
    let to_move = parse_side("--to-move", &a.to_move)?;
    let position = match &a.start {
        Some(s) => {
            let pits = parse_pits("start", s)?;
            let taken = oware::TOTAL_SEEDS - oware::seeds(&pits);
            // The seeds not on the board are in the stores; without more information split them.
            Position { pits, stores: [(taken / 2) as u8, (taken - taken / 2) as u8], to_move }
        }
        None => Position::default(),
    };
    let mut game = Game::new(rules, position);
    let mut lines = Vec::new();
    for (ply, m) in moves.iter().enumerate() {
        let legal = game.legal();
        let mut line = state_json(&game.position);
        line["ply"] = json!(ply);
        line["legal"] = json!(legal);
        line["terminal"] = json!(game.result.is_some());
        let pit = match m.trim().parse::<u8>() {
            Ok(p) if p < 6 => p,
            _ => return usage(format!("--moves: ply {ply}: `{m}` is not an own pit index 0..5 (legal: {legal:?})")),
        };
        if game.result.is_some() {
            return usage(format!("--moves: ply {ply}: move {pit} after the game has ended"));
        }
        if let Err(e) = game.play(pit) {
            return usage(format!("--moves: ply {ply}: {e}"));
        }
        line["move"] = json!(pit);
        lines.push(line);
    }
    let mut last = state_json(&game.position);
    last["ply"] = json!(moves.len());
    last["legal"] = json!(game.legal());
    last["terminal"] = json!(game.result.is_some());
    if let Some(r) = &game.result {
        let winner = r.winner().map(|s| s.name()).unwrap_or("draw");
        last["result"] = json!({"winner": winner, "score": [num(r.score[0]), num(r.score[1])]});
    }
    lines.push(last);
    let rules_json = rules.to_json();
    if a.jsonl {
        lines[0]["rules"] = rules_json;
        for l in &lines {
            println!("{l}");
        }
    } else if a.json {
        println!("{}", json!({"rules": rules_json, "plies": lines}));
    } else {
        println!("rules: {rules_json}");
        // The board alone does not say which pit is which; a move names the mover's own index.
        println!("(North's row on top, his index 5 at the left; South's index 0 at the left; the number after a name is his store)");
        let mut g = Game::new(rules, position);
        for (ply, l) in lines.iter().enumerate() {
            println!("ply {ply}\n{}", g.position);
            if let Some(m) = l.get("move") {
                println!("  move: {m}");
                g.play(m.as_u64().unwrap() as u8).expect("replayed above");
            }
        }
        if let Some(r) = lines.last().and_then(|l| l.get("result")) {
            println!("result: {r}");
        }
    }
    Ok(())
}

/// Whole numbers print as integers, halves as decimals.
fn num(x: f64) -> serde_json::Value {
    if x.fract() == 0.0 {
        json!(x as i64)
    } else {
        json!(x)
    }
}
