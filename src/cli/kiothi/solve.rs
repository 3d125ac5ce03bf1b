//! `kiothi solve`: value, best moves and a perfect-play line of a position (turn >= 3).

use super::{load, RuleFlags};
use crate::cli::args::SolveOutput;
use crate::cli::usage;
use anyhow::Result;
use clap::Args;
use mancala::games::kiothi;
use mancala::search::Limits;
use mancala::side::Side;
use mancala::solve::kiothi as ksolve;
use std::path::PathBuf;

#[derive(Args)]
pub struct SolveArgs {
    /// State JSON file (`-` = stdin), turn >= 3.
    #[arg(long)]
    position: String,
    /// Deepest iteration of the search (plies).
    #[arg(long)]
    depth: Option<u32>,
    /// Time budget in seconds. A sowing that relays about a billion times (K7) stops at the
    /// budget too (its clock is read every 2^20 relays), so the answer comes within some
    /// milliseconds of it, from the last iteration finished.
    #[arg(long, value_parser = crate::cli::args::seconds)]
    time: Option<f64>,
    /// Node budget.
    #[arg(long)]
    nodes: Option<u64>,
    /// Endgame tables (`kiothi db build`) probed wherever they cover the warriors on the board.
    #[arg(long)]
    db: Option<PathBuf>,
    #[command(flatten)]
    output: SolveOutput<RuleFlags>,
}

pub fn solve(a: SolveArgs) -> Result<()> {
    let rules = a.output.rules.rules();
    if a.depth == Some(0) || a.nodes == Some(0) {
        return usage("--depth / --nodes: expected at least 1");
    }
    let p = load(Some(a.position), &rules)?;
    if let Err(e) = ksolve::check(&p) {
        return usage(format!("--position: {e}"));
    }
    let tables =
        a.db.as_deref()
            .map(|dir| super::db::open_tables(dir, rules, "--db", p.warriors_on_board() as usize))
            .transpose()?;
    let line = crate::cli::progress::SolveLine::new();
    let observe = |r: &mancala::search::Report| line.observe(r);
    let limits = Limits { depth: a.depth, seconds: a.time, nodes: a.nodes };
    let solved = ksolve::solve_with_tables(rules, tables.as_ref(), &p, limits, Some(&observe));
    line.finish();
    let (s, sow) = solved.or_else(|e| usage(format!("--position: {e}")))?;
    // A value read from a damaged block (it read as 0) spoils the answer: none is printed.
    if let Some(t) = &tables {
        t.damage().map_err(|e| crate::cli::layer_db::db_error("--db", e))?;
    }
    let exact = s.bounds.is_exact();
    let nps = s.nodes as f64 / s.seconds.max(1e-9);
    let names = |v: &[kiothi::SowMove]| v.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    let answer = ksolve::answer_json(&rules, &p, &s, &sow);
    let sowings = &answer["sowings"];
    let score = exact.then(|| p.final_totals(s.bounds.lo));
    let winner = score.map(|t| Side::ahead(t).map(|w| w.name()).unwrap_or("draw"));
    if a.output.json {
        println!("{answer}");
    } else {
        println!("rules: {}", rules.to_json());
        // The board alone does not say which boma is which, nor what the marks are.
        println!("(North's row on top, his index 9 at the left; South's index 0 at the left; the number after a name is his prison; `*` marks an nki boma)");
        println!("{p}");
        if let (Some(t), Some(w)) = (score, winner) {
            let verdict = if w == "draw" { "a draw".to_string() } else { format!("{w} wins") };
            println!(
                "value: {} (exact, {}); final totals south {} north {} ({verdict})",
                s.bounds.lo,
                s.method.name(),
                t[0],
                t[1]
            );
        } else {
            println!(
                "value: {} <= value <= {} (not exact: limits reached; depth {} completed)",
                s.bounds.lo, s.bounds.hi, s.depth
            );
        }
        let pv = names(&s.pv).join(" ");
        println!("{}", crate::cli::progress::best_and_pv_lines(exact, &s.best_moves, &s.moves, |m| m.to_string(), &pv));
        for (m, b) in &s.moves {
            if b.is_exact() {
                println!("  {m}: {}", b.lo);
            } else {
                println!("  {m}: {}..={}", b.lo, b.hi);
            }
        }
        println!("depth {}, nodes {} in {:.3} s ({:.0} nodes/s)", s.depth, s.nodes, s.seconds, nps);
        println!("sowings: {sowings}");
    }
    Ok(())
}
