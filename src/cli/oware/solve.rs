//! `oware solve`: exact value (or bounds), best moves and a perfect-play line of a position.

use super::{parse_pits, RuleFlags};
use crate::cli::args::SolveOutput;
use anyhow::Result;
use clap::Args;
use mancala::search::Limits;
use mancala::solve::oware::{answer_json, check_rules, method_name, solve_observed};
use std::path::PathBuf;

#[derive(Args)]
pub struct SolveArgs {
    /// 12 seed counts, the mover's row first (his indices 0..5), then the opponent's.
    #[arg(long, allow_hyphen_values = true)]
    pits: String,
    /// Database directory (built with `db build`).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Deepest iteration of the search (plies); the answer says when it is not exact.
    #[arg(long)]
    depth: Option<u32>,
    /// Time budget in seconds; without limits the search runs until exact.
    #[arg(long, value_parser = crate::cli::args::seconds)]
    time: Option<f64>,
    #[command(flatten)]
    output: SolveOutput<RuleFlags>,
}

pub fn solve(a: SolveArgs) -> Result<()> {
    let rules = a.output.rules.rules();
    let v = parse_pits("pits", &a.pits)?;
    check_rules(&rules).map_err(super::super::args::input)?;
    // Seeds never return to the board: the layers up to the position's are all a solve reads.
    let seeds = v.iter().map(|&x| x as usize).sum();
    let database = a.db.as_deref().map(|dir| super::db::open_db(dir, rules, "--db", seeds)).transpose()?;
    let line = crate::cli::progress::SolveLine::new();
    let observe = |r: &mancala::search::Report| line.observe(r);
    let limits = Limits { depth: a.depth, seconds: a.time, nodes: None };
    let s = solve_observed(rules, database.as_ref(), &v, limits, Some(&observe));
    line.finish();
    // A value read from a damaged block (it read as 0) spoils the answer: none is printed.
    if let Some(d) = &database {
        d.damage().map_err(|e| crate::cli::layer_db::db_error("--db", e))?;
    }
    let exact = s.bounds.is_exact();
    let method = method_name(s.method);
    let nps = s.nodes as f64 / s.seconds.max(1e-9);
    if a.output.json {
        println!("{}", answer_json(&rules, &v, &s));
    } else {
        println!("rules: {}", rules.to_json());
        // A position above the database is searched, and the answer says so plainly.
        if let Some(top) = database.as_ref().map(|d| d.max_layer()).filter(|&top| seeds > top) {
            println!("outside the database: {seeds} seeds on the board, it holds up to {top}; searched");
        }
        if exact {
            println!("value: {} (exact, {method})", s.bounds.lo);
        } else {
            println!(
                "value: {} <= value <= {} (not exact: limits reached at depth {})",
                s.bounds.lo, s.bounds.hi, s.depth
            );
        }
        let pv = format!("{:?}", s.pv);
        println!("{}", crate::cli::progress::best_and_pv_lines(exact, &s.best_moves, &s.moves, |m| m.to_string(), &pv));
        for (m, b) in &s.moves {
            if b.lo == b.hi {
                println!("  move {m}: {}", b.lo);
            } else {
                println!("  move {m}: {}..={}", b.lo, b.hi);
            }
        }
        if method == "db" {
            // A database answer searches nothing; "0 nodes/s" would read as a stall.
            println!("read off the database in {:.3} s (no search)", s.seconds);
        } else {
            println!("nodes: {} in {:.3} s ({:.0} nodes/s)", s.nodes, s.seconds, nps);
        }
    }
    Ok(())
}
