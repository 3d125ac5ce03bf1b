//! `kiothi openings`: exact counts of the redistribution choices (`--count`), or a seeded
//! sample of openings evaluated by search (`--sample N`).

use super::{bad, load, RuleFlags};
use crate::cli::usage;
use anyhow::Result;
use clap::Args;
use mancala::games::kiothi::{self, Rules, SowingCache};
use mancala::search::Limits;
use mancala::solve::kiothi_openings::{evaluate, summary};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args)]
pub struct OpeningsArgs {
    /// Print the exact counts.
    #[arg(long, conflicts_with = "sample")]
    count: bool,
    /// Number of South openings to draw.
    #[arg(long)]
    sample: Option<u64>,
    /// North replies drawn per South opening.
    #[arg(long, default_value_t = 4)]
    replies: u64,
    /// Seed of the draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search depth per position (plies; default 5).
    #[arg(long)]
    depth: Option<u32>,
    /// Time budget per position and search, seconds (the deepest completed depth is kept).
    #[arg(long, value_parser = crate::cli::args::seconds)]
    time: Option<f64>,
    /// CSV file for the rows of `--sample`.
    #[arg(long, value_parser = crate::cli::args::out_file())]
    out: Option<PathBuf>,
    /// State JSON file (`-` = stdin); default: the setup's start.
    #[arg(long)]
    position: Option<String>,
    /// Print the result as one JSON document.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn openings(a: OpeningsArgs) -> Result<()> {
    let rules = a.rules.rules();
    match a.sample {
        Some(n) => {
            if a.position.is_some() {
                return usage("--position: --sample always starts from the setup's start");
            }
            sample(n, &a, rules)
        }
        None => count(&a, rules),
    }
}

fn count(a: &OpeningsArgs, rules: Rules) -> Result<()> {
    if !a.count {
        return usage("--count or --sample N: required (exact counts, or a seeded sample evaluated by search)");
    }
    let p = load(a.position.clone(), &rules)?;
    if !p.is_redistribution() {
        return usage("--position: not a redistribution turn (turn must be 1 or 2)");
    }
    let one = p.redistribution_count(&rules).or_else(bad)?;
    let two = if p.turn == 1 { Some(p.redistribution_count_two_plies(&rules).or_else(bad)?) } else { None };
    if a.json {
        println!(
            "{}",
            json!({"rules": rules.to_json(), "turn": p.turn, "this_turn": one.to_string(), "two_turns": two.map(|x| x.to_string())})
        );
    } else {
        println!("rules: {}", rules.to_json());
        println!("turn {} redistributions: {one}", p.turn);
        if let Some(t) = two {
            println!("turn 1 × turn 2 sequences: {t}");
        }
    }
    Ok(())
}

fn sample(n: u64, a: &OpeningsArgs, rules: Rules) -> Result<()> {
    let (replies, seed, time) = (a.replies, a.seed, a.time);
    if n == 0 || replies == 0 {
        return usage("--sample / --replies: expected at least 1");
    }
    let Some(positions) = n.checked_mul(replies) else {
        return usage(format!("--sample / --replies: {n} × {replies} positions is more than a count can hold"));
    };
    if a.depth == Some(0) {
        return usage("--depth: expected at least 1");
    }
    let depth = a.depth.or(Some(5));
    let limits = Limits { depth, seconds: time, nodes: None };
    // The CSV is its header and rows; the command, rules and version go to its sidecar
    // (`NAME.meta.json`, written before the CSV is renamed into place).
    let columns = [
        "sample",
        "south_index",
        "south_move",
        "reply",
        "north_index",
        "north_move",
        "horizon_value",
        "horizon_depth",
        "horizon_best",
        "lower",
        "upper",
        "proven_depth",
        "nodes",
        "seconds",
    ];
    let mut file = match &a.out {
        Some(path) => {
            let mut f = mancala::store::AtomicFile::create(path)
                .map_err(|e| anyhow::anyhow!("--out: {}: {e}", path.display()))?;
            writeln!(f, "{}", columns.join(","))?;
            Some(f)
        }
        None => None,
    };
    let sowing = SowingCache::new();
    let t0 = std::time::Instant::now();
    let pb = crate::cli::progress::bar(positions, "openings");
    let mut err: Option<std::io::Error> = None;
    let rows = evaluate(&rules, &sowing, n, replies, seed, limits, &mut |r| {
        pb.inc(1);
        if let Some(f) = &mut file {
            let best: Vec<String> = r.horizon_best.iter().map(|m| m.to_string()).collect();
            if let Err(e) = writeln!(
                f,
                "{},{},\"{}\",{},{},\"{}\",{},{},\"{}\",{},{},{},{},{:.3}",
                r.sample,
                r.south_index,
                r.south_move,
                r.reply,
                r.north_index,
                r.north_move,
                r.horizon_value,
                r.horizon_depth,
                best.join(" "),
                r.lower,
                r.upper,
                r.proven_depth,
                r.nodes,
                r.seconds
            ) {
                err.get_or_insert(e);
            }
        }
    });
    pb.finish_and_clear();
    if let Some(e) = err {
        return Err(e.into());
    }
    if let (Some(f), Some(path)) = (file, &a.out) {
        use mancala::export::{meta_json, meta_path, Column};
        let schema: Vec<Column> = columns
            .iter()
            .map(|&c| match c {
                "south_move" | "north_move" | "horizon_best" => Column::Str(c),
                "seconds" => Column::Float(c),
                _ => Column::Int(c),
            })
            .collect();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut meta = meta_json(&name, &schema, &rules.to_json());
        meta["command"] = json!(format!(
            "mancala {} kiothi openings --sample {n} --replies {replies} --seed {seed} --depth {}{}",
            mancala::export::VERSION,
            depth.unwrap_or(0),
            time.map(|t| format!(" --time {t}")).unwrap_or_default()
        ));
        let text = serde_json::to_string_pretty(&meta)?;
        mancala::store::write_atomic(&meta_path(path), format!("{text}\n").as_bytes())?;
        f.commit()?;
    }
    let secs = t0.elapsed().as_secs_f64();
    let sum = summary(&rows);
    let sow = sowing.stats();
    let (nodes, (min_depth, max_depth)) = (sum.nodes, sum.horizon_depth);
    if a.json {
        let best: Vec<_> = sum
            .openings
            .iter()
            .map(|o| json!({"sample": o.sample, "south_move": o.south_move.to_string(), "min": o.min, "mean": o.mean, "replies": o.replies}))
            .collect();
        println!(
            "{}",
            json!({"rules": rules.to_json(), "samples": n, "replies": replies, "seed": seed, "depth": depth, "time": time,
            "horizon_depth": [min_depth, max_depth], "proven_lower_min": sum.proven_lower_min, "proven_upper_max": sum.proven_upper_max,
            "nodes": nodes, "seconds": secs, "perpetual_sowings": sow.perpetual, "long_simulated": sow.long_simulated, "relays_in_long": sow.relays_in_long,
            "openings": best})
        );
    } else {
        println!("rules: {}", rules.to_json());
        println!("{n} South openings x {replies} North replies (seed {seed}), horizon depth {min_depth}..={max_depth}, {nodes} nodes in {secs:.1} s");
        println!(
            "proven intervals: lower >= {}, upper <= {}",
            sum.proven_lower_min.unwrap_or(0),
            sum.proven_upper_max.unwrap_or(0)
        );
        println!(
            "K7: {} perpetual sowings met; {} simulations ran over {} relays ({} relays in them)",
            sow.perpetual,
            sow.long_simulated,
            kiothi::LONG_SOWING_RELAYS,
            sow.relays_in_long
        );
        println!("{:>6} {:>5} {:>7}  south move", "sample", "min", "mean");
        for o in &sum.openings {
            println!("{:>6} {:>5} {:>7.2}  {}", o.sample, o.min, o.mean, o.south_move);
        }
    }
    Ok(())
}
