//! `mancala kiothi …`: replay, perft, exact opening counts, solve (alpha-beta) and seeded opening samples.

use super::usage;
use anyhow::Result;
use clap::{Args, Subcommand};
use mancala::games::kiothi::{
    self, Game, KiothiError, Move, NkiClear, Position, Redistribute, Rules, Setup, SowingCache,
};
use mancala::search::Limits;
use mancala::solve::kiothi as ksolve;
use serde_json::json;
use std::io::Read;

#[derive(Args)]
pub struct KiothiArgs {
    #[command(subcommand)]
    cmd: Cmd,
}

/// Rule variants (docs/rules/kiothi.md K1, K2, K3, K7). Written into every output.
#[derive(Args, Clone, Copy)]
struct RuleFlags {
    /// K1: starting layout (6 boma × 5, 5 × 5, 5 × 6 warriors per side).
    #[arg(long, value_parser = super::args::variant(&Setup::ALL, Setup::name, Setup::description), default_value = "6x5", global = true)]
    setup: Setup,
    /// K2: how many boma a redistribution empties.
    #[arg(long, value_parser = super::args::variant(&Redistribute::ALL, Redistribute::name, Redistribute::description), default_value = "exactly-2", global = true)]
    redistribute: Redistribute,
    /// K3: what clears an nki boma.
    #[arg(long, value_parser = super::args::variant(&NkiClear::ALL, NkiClear::name, NkiClear::description), default_value = "lift", global = true)]
    nki_clear: NkiClear,
    /// K7: allow at most N relays per move (default: unbounded, exact cycle detection).
    #[arg(long, global = true)]
    max_relays: Option<u64>,
}

/// A parser of one rule variant by name: its possible values (with their descriptions) are
/// listed in `--help` and in the error for a bad value; the rules' `FromStr` does the parsing.
impl RuleFlags {
    fn rules(&self) -> Rules {
        Rules {
            setup: self.setup,
            redistribute: self.redistribute,
            nki_clear: self.nki_clear,
            max_relays: self.max_relays,
        }
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Play moves from the start (or a position) and print every ply's state and legal moves.
    ///
    /// Moves are separated by spaces: `B:K` lifts K warriors from own boma B; a redistribution
    /// (turns 1 and 2) is `E1,E2>A*C,…`: the emptied own boma, then each absolute boma A
    /// receiving C warriors.
    #[command(
        after_help = "Example: mancala kiothi replay --moves \"4,5>0*2,1*1,3*2,12*1,15*4 4,9>0*1,5*3,10*2,17*4 9:3\" --jsonl"
    )]
    Replay {
        /// State JSON file (`-` = stdin); default: the setup's start.
        #[arg(long)]
        position: Option<String>,
        #[arg(long, default_value = "")]
        moves: String,
        #[arg(long)]
        jsonl: bool,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// Count the leaves of the move tree to a depth (perft); `--divide` per first move.
    Perft {
        /// State JSON file (`-` = stdin); default: the setup's start.
        #[arg(long)]
        position: Option<String>,
        #[arg(long)]
        depth: u32,
        #[arg(long)]
        divide: bool,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// Endgame tables: every position after the opening with up to N warriors on the board.
    Db {
        #[command(subcommand)]
        cmd: super::kiothi_db::DbCmd,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// Value (net warriors of those on the board, mover's view), every best move and a
    /// perfect-play line of a position at turn 3 or later, by alpha-beta search.
    ///
    /// Without limits the answer is exact; with --depth, --time or --nodes it may be bounds
    /// ("exact": false, "lower", "upper"). Turns 1 and 2 (redistributions) are refused.
    #[command(after_help = "Example: mancala kiothi solve --position end.json --json")]
    Solve {
        /// State JSON file (`-` = stdin), turn >= 3.
        #[arg(long)]
        position: String,
        /// Deepest iteration of the search (plies).
        #[arg(long)]
        depth: Option<u32>,
        /// Time budget in seconds.
        #[arg(long, value_parser = super::args::seconds)]
        time: Option<f64>,
        /// Node budget.
        #[arg(long)]
        nodes: Option<u64>,
        /// Endgame tables (`kiothi db build`) probed wherever they cover the warriors on the board.
        #[arg(long)]
        db: Option<std::path::PathBuf>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// Exact numbers of redistribution choices on turns 1 and 2 (`--count`), or a seeded
    /// sample of openings evaluated by search (`--sample N`).
    ///
    /// `--sample N` draws N South redistributions uniformly among all turn-1 moves, and for
    /// each `--replies K` North redistributions uniformly among his turn-2 moves; each turn-3
    /// position gets the capture balance within `--depth` plies (a heuristic: net warriors
    /// South captures in that horizon with best play) and the proven interval of the game
    /// value from alpha-beta of the same depth. Rows go to `--out` (CSV), a summary to stdout.
    #[command(
        after_help = "Example: mancala kiothi openings --sample 20 --replies 4 --seed 1 --depth 5 --time 5 --out openings.csv"
    )]
    Openings {
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
        #[arg(long, value_parser = super::args::seconds)]
        time: Option<f64>,
        /// CSV file for the rows of `--sample`.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// State JSON file (`-` = stdin); default: the setup's start.
        #[arg(long)]
        position: Option<String>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RuleFlags,
    },
}

pub fn run(a: KiothiArgs) -> Result<()> {
    match a.cmd {
        Cmd::Replay { position, moves, jsonl, rules } => replay(position, &moves, jsonl, rules.rules()),
        Cmd::Perft { position, depth, divide, json, rules } => perft(position, depth, divide, json, rules.rules()),
        Cmd::Db { cmd, rules } => super::kiothi_db::run(cmd, rules.rules()),
        Cmd::Solve { position, depth, time, nodes, db, json, rules } => {
            solve_cmd(&position, depth, time, nodes, db.as_deref(), json, rules.rules())
        }
        Cmd::Openings { sample: Some(n), replies, seed, depth, time, out, position, json, rules, .. } => {
            if position.is_some() {
                return usage("--position: --sample always starts from the setup's start");
            }
            openings_sample(n, replies, seed, depth, time, out, json, rules.rules())
        }
        Cmd::Openings { count, position, json, rules, .. } => openings(count, position, json, rules.rules()),
    }
}

/// Bad input from the library (it names the field) becomes a usage error.
fn bad<T>(e: KiothiError) -> Result<T> {
    usage(e.to_string())
}

fn load(position: Option<String>, rules: &Rules) -> Result<Position> {
    let Some(src) = position else { return Ok(rules.start()) };
    let text = if src == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        s
    } else {
        match std::fs::read_to_string(&src) {
            Ok(s) => s,
            Err(e) => return usage(format!("--position: {src}: {e}")),
        }
    };
    let v: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            return usage(format!(
                "--position: not JSON ({e}); expected a state object {{\"game\":\"kiothi\",\"pits\":[20 counts],…}}"
            ))
        }
    };
    let p = Position::from_json(&v).or_else(bad)?;
    p.validate().or_else(bad)?;
    Ok(p)
}

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

fn replay(position: Option<String>, moves: &str, jsonl: bool, rules: Rules) -> Result<()> {
    let start = load(position, &rules)?;
    let mut g = Game::new(rules, start).or_else(bad)?;
    let mut lines = Vec::new();
    for (ply, text) in moves.split_whitespace().enumerate() {
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
        last["result"] = json!({"winner": r.winner().map(|s| s.name()).unwrap_or("draw"), "score": r.score,
                                "win_by_exactly_two": r.win_by_exactly_two()});
    }
    lines.push(last);
    if jsonl {
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

fn perft(position: Option<String>, depth: u32, divide: bool, json_out: bool, rules: Rules) -> Result<()> {
    let p = load(position, &rules)?;
    let sowing = SowingCache::new();
    let t = std::time::Instant::now();
    let (nodes, per_move) = if divide {
        let d = kiothi::divide(&p, &rules, &sowing, depth).or_else(bad)?;
        (d.iter().map(|(_, n)| *n).sum::<u128>(), Some(d))
    } else {
        (kiothi::perft_u128(&p, &rules, &sowing, depth), None)
    };
    let secs = t.elapsed().as_secs_f64();
    if json_out {
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

fn openings(count: bool, position: Option<String>, json_out: bool, rules: Rules) -> Result<()> {
    if !count {
        return usage("--count or --sample N: required (exact counts, or a seeded sample evaluated by search)");
    }
    let p = load(position, &rules)?;
    if !p.is_redistribution() {
        return usage("--position: not a redistribution turn (turn must be 1 or 2)");
    }
    let one = p.redistribution_count(&rules).or_else(bad)?;
    let two = if p.turn == 1 { Some(p.redistribution_count_two_plies(&rules).or_else(bad)?) } else { None };
    if json_out {
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

fn solve_cmd(
    position: &str,
    depth: Option<u32>,
    time: Option<f64>,
    nodes: Option<u64>,
    db: Option<&std::path::Path>,
    json_out: bool,
    rules: Rules,
) -> Result<()> {
    if depth == Some(0) || nodes == Some(0) {
        return usage("--depth / --nodes: expected at least 1");
    }
    let p = load(Some(position.to_string()), &rules)?;
    if let Err(e) = ksolve::check(&p) {
        return usage(format!("--position: {e}"));
    }
    let tables = db.map(|dir| super::kiothi_db::open_tables(dir, rules, "--db")).transpose()?;
    let probe = |q: &Position| tables.as_ref().and_then(|t| t.probe_position(q));
    let sowing = SowingCache::new();
    let s = ksolve::solve(
        rules,
        &sowing,
        tables.is_some().then_some(&probe as &dyn Fn(&Position) -> Option<i32>),
        &p,
        Limits { depth, seconds: time, nodes },
    )
    .or_else(|e| usage(format!("--position: {e}")))?;
    let sow = sowing.stats();
    let exact = s.bounds.is_exact();
    let nps = s.nodes as f64 / s.seconds.max(1e-9);
    let names = |v: &[kiothi::SowMove]| v.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    let sowings = json!({
        "perpetual_rejected": s.game_stats.perpetual_moves,
        "long_legal": s.game_stats.long_moves,
        "costly_positions": s.game_stats.costly_positions,
        "expansions": s.game_stats.expansions,
        "expansion_cache_hits": s.game_stats.cache_hits,
        "long_threshold_relays": kiothi::LONG_SOWING_RELAYS,
        "long_simulated": sow.long_simulated,
        "relays_in_long": sow.relays_in_long,
        "max_relays_simulated": sow.max_relays_simulated,
        "distinguished_point_hits": sow.dp_hits,
    });
    let score = exact.then(|| p.final_totals(s.bounds.lo));
    let winner = score.map(|t| mancala::side::Side::ahead(t).map(|w| w.name()).unwrap_or("draw"));
    if json_out {
        let o = json!({
            "rules": rules.to_json(),
            "position": p.to_json(),
            "score": score,
            "winner": winner,
            "value": if exact { json!(s.bounds.lo) } else { serde_json::Value::Null },
            "exact": exact,
            "lower": s.bounds.lo,
            "upper": s.bounds.hi,
            "best_moves": names(&s.best_moves),
            "pv": names(&s.pv),
            "method": s.method.name(),
            "depth": s.depth,
            "nodes": s.nodes,
            "seconds": s.seconds,
            "nodes_per_second": nps.round(),
            "moves": s.moves.iter().map(|(m, b)| json!({"move": m.to_string(), "lower": b.lo, "upper": b.hi})).collect::<Vec<_>>(),
            "sowings": sowings,
        });
        println!("{o}");
    } else {
        println!("rules: {}", rules.to_json());
        println!("{p}");
        if let (Some(t), Some(w)) = (score, winner) {
            println!(
                "value: {} (exact, {}); final totals south {} north {} ({w})",
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
        println!("best moves: {}", names(&s.best_moves).join(" "));
        println!("pv: {}", names(&s.pv).join(" "));
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

#[allow(clippy::too_many_arguments)]
fn openings_sample(
    n: u64,
    replies: u64,
    seed: u64,
    depth: Option<u32>,
    time: Option<f64>,
    out: Option<std::path::PathBuf>,
    json_out: bool,
    rules: Rules,
) -> Result<()> {
    use mancala::solve::kiothi_openings::{evaluate, summarise};
    if n == 0 || replies == 0 {
        return usage("--sample / --replies: expected at least 1");
    }
    if depth == Some(0) {
        return usage("--depth: expected at least 1");
    }
    let depth = depth.or(Some(5));
    let limits = Limits { depth, seconds: time, nodes: None };
    let mut file = match &out {
        Some(path) => {
            let mut f = mancala::store::AtomicFile::create(path)
                .map_err(|e| anyhow::anyhow!("--out: {}: {e}", path.display()))?;
            use std::io::Write;
            writeln!(
                f,
                "# mancala {} kiothi openings --sample {n} --replies {replies} --seed {seed} --depth {} {}; rules {}",
                env!("CARGO_PKG_VERSION"),
                depth.unwrap(),
                time.map(|t| format!("--time {t}")).unwrap_or_default(),
                rules.to_json()
            )?;
            writeln!(f, "sample,south_index,south_move,reply,north_index,north_move,horizon_value,horizon_depth,horizon_best,lower,upper,proven_depth,nodes,seconds")?;
            Some(f)
        }
        None => None,
    };
    let sowing = SowingCache::new();
    let t0 = std::time::Instant::now();
    let pb = super::progress::bar(n * replies, "openings");
    let mut err: Option<std::io::Error> = None;
    let rows = evaluate(&rules, &sowing, n, replies, seed, limits, &mut |r| {
        pb.inc(1);
        if let Some(f) = &mut file {
            use std::io::Write;
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
    if let Some(f) = file {
        f.commit()?;
    }
    let secs = t0.elapsed().as_secs_f64();
    let mut per = summarise(&rows);
    per.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)).then(a.0.cmp(&b.0)));
    let sow = sowing.stats();
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let min_depth = rows.iter().map(|r| r.horizon_depth).min().unwrap_or(0);
    let max_depth = rows.iter().map(|r| r.horizon_depth).max().unwrap_or(0);
    let move_of = |s: u64| rows.iter().find(|r| r.sample == s).map(|r| r.south_move.to_string()).unwrap_or_default();
    if json_out {
        let best: Vec<_> = per.iter().map(|&(s, min, mean, k)| json!({"sample": s, "south_move": move_of(s), "min": min, "mean": mean, "replies": k})).collect();
        println!(
            "{}",
            json!({"rules": rules.to_json(), "samples": n, "replies": replies, "seed": seed, "depth": depth, "time": time,
            "horizon_depth": [min_depth, max_depth], "proven_lower_min": rows.iter().map(|r| r.lower).min(), "proven_upper_max": rows.iter().map(|r| r.upper).max(),
            "nodes": nodes, "seconds": secs, "perpetual_sowings": sow.perpetual, "long_simulated": sow.long_simulated, "relays_in_long": sow.relays_in_long,
            "openings": best})
        );
    } else {
        println!("rules: {}", rules.to_json());
        println!("{n} South openings x {replies} North replies (seed {seed}), horizon depth {min_depth}..={max_depth}, {nodes} nodes in {secs:.1} s");
        println!(
            "proven intervals: lower >= {}, upper <= {}",
            rows.iter().map(|r| r.lower).min().unwrap_or(0),
            rows.iter().map(|r| r.upper).max().unwrap_or(0)
        );
        println!(
            "K7: {} perpetual sowings met; {} simulations ran over {} relays ({} relays in them)",
            sow.perpetual,
            sow.long_simulated,
            kiothi::LONG_SOWING_RELAYS,
            sow.relays_in_long
        );
        println!("{:>6} {:>5} {:>7}  south move", "sample", "min", "mean");
        for &(s, min, mean, _) in &per {
            println!("{s:>6} {min:>5} {mean:>7.2}  {}", move_of(s));
        }
    }
    Ok(())
}
