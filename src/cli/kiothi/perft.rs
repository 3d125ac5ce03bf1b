//! `kiothi perft`: the leaves of the move tree to a depth, optionally per first move.

use super::{bad, load, RuleFlags};
use anyhow::Result;
use clap::Args;
use mancala::games::kiothi::{self, SowingCache};
use serde_json::json;

#[derive(Args)]
pub struct PerftArgs {
    /// State JSON file (`-` = stdin); default: the setup's start.
    #[arg(long)]
    position: Option<String>,
    /// Plies to count (at most 100).
    #[arg(long, value_parser = clap::value_parser!(u32).range(..=kiothi::PERFT_MAX_DEPTH as i64))]
    depth: u32,
    /// Also count the nodes under each legal move of the root (one line per move).
    #[arg(long)]
    divide: bool,
    /// Print the counts as one JSON document.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn perft(a: PerftArgs) -> Result<()> {
    let (depth, rules) = (a.depth, a.rules.rules());
    let p = load(a.position, &rules)?;
    let sowing = SowingCache::new();
    let t = std::time::Instant::now();
    let (nodes, per_move) = if a.divide {
        let d = kiothi::divide(&p, &rules, &sowing, depth).or_else(bad)?;
        (d.iter().map(|(_, n)| *n).sum::<u128>(), Some(d))
    } else {
        (kiothi::perft_u128(&p, &rules, &sowing, depth), None)
    };
    let secs = t.elapsed().as_secs_f64();
    if a.json {
        let sow = sowing.stats();
        let sowings = json!({"perpetual": sow.perpetual, "long_threshold_relays": kiothi::LONG_SOWING_RELAYS, "long_ended": sow.long_ended,
            "long_simulated": sow.long_simulated, "relays_in_long": sow.relays_in_long, "max_relays_simulated": sow.max_relays_simulated,
            "distinguished_point_hits": sow.dp_hits});
        let mut o = json!({"rules": rules.to_json(), "depth": depth, "nodes": nodes.to_string().parse::<serde_json::Number>().ok(), "seconds": secs, "sowings": sowings});
        if let Some(d) = &per_move {
            o["moves"] = json!(d
                .iter()
                .map(|(m, n)| json!({"move": m.to_string(), "nodes": n.to_string().parse::<serde_json::Number>().ok()}))
                .collect::<Vec<_>>());
        }
        println!("{o}");
    } else {
        if let Some(d) = &per_move {
            for (m, n) in d {
                println!("{m}: {n}");
            }
        }
        println!("depth {depth}: {nodes} nodes in {secs:.3} s");
    }
    Ok(())
}
