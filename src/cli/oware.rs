//! `mancala oware …`: replay, databases (build, verify, stats, export), solve.

use super::layer_db::{self, DbRequest, DbSpec};
use super::usage;
use anyhow::Result;
use clap::{Args, Subcommand};
use mancala::export::{Column, Format, Value};
use mancala::games::oware::{self, Cycle, Game, GrandSlam, Position, Rules, View, PITS};
use mancala::retro::oware::{Database, OwareLayers};
use mancala::search::Limits;
use mancala::side::Side;
use mancala::solve::oware::{solve, Method};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct OwareArgs {
    #[command(subcommand)]
    cmd: Cmd,
}

/// Rule variants (docs/rules/oware.md O4, O8). Written into every output.
#[derive(Args, Clone, Copy)]
struct RuleFlags {
    /// O4: a move whose captures would take all the opponent's seeds.
    #[arg(long, value_parser = super::args::variant(&GrandSlam::ALL, GrandSlam::name, GrandSlam::description), default_value = "no-capture", global = true)]
    grand_slam: GrandSlam,
    /// O8: what a repeated position does (databases need `split`).
    #[arg(long, value_parser = super::args::variant(&Cycle::ALL, Cycle::name, Cycle::description), default_value = "split", global = true)]
    cycle: Cycle,
}

/// `--grand-slam`: the names of [`GrandSlam`], with the help the rules give them.
impl RuleFlags {
    fn rules(&self) -> Rules {
        Rules { grand_slam: self.grand_slam, cycle: self.cycle }
    }
    /// Databases are built and read under `split` only: `own-rows` depends on history.
    fn db_rules(&self) -> Result<Rules> {
        if self.cycle == Cycle::OwnRows {
            return usage("--cycle: databases need `split` (own-rows depends on the game's history, so a position has no value of its own)");
        }
        Ok(self.rules())
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Play a sequence of moves and print the game ply by ply.
    ///
    /// Each line (with --jsonl) is the state before a move: ply, to_move, pits (absolute:
    /// South 0..5 then North 0..5), stores, legal (own indices), terminal, move.
    #[command(after_help = "Example: mancala oware replay --moves 5,0,3 --jsonl")]
    Replay {
        /// Moves as the mover's own pit indices 0..5, comma-separated.
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        moves: Vec<String>,
        /// Start position: 12 counts, South's row then North's (absolute); default 4 each.
        #[arg(long)]
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
    },
    /// Endgame databases: every position with up to N seeds on the board, exact values.
    Db {
        #[command(subcommand)]
        cmd: DbCmd,
    },
    /// Exact value, every best move and a perfect-play line of a position.
    ///
    /// The value is the net number of the seeds on the board that the mover captures under
    /// perfect play (captured counts do not matter). Positions the database covers are read
    /// off it; others are searched (alpha-beta) with the database probed at captures into it.
    #[command(after_help = "Example: mancala oware solve --pits 0,0,0,0,1,2,1,0,0,0,0,3 --db /tmp/db --json")]
    Solve {
        /// 12 seed counts, the mover's row first (his indices 0..5), then the opponent's.
        #[arg(long)]
        pits: String,
        /// Database directory (built with `db build`).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Deepest iteration of the search (plies); the answer says when it is not exact.
        #[arg(long)]
        depth: Option<u32>,
        /// Time budget in seconds; without limits the search runs until exact.
        #[arg(long, value_parser = super::args::seconds)]
        time: Option<f64>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RuleFlags,
    },
}

#[derive(Subcommand)]
enum DbCmd {
    /// Build every layer 0..=N into DIR (resumable: finished layers are kept).
    #[command(after_help = "Example: mancala oware db build --max-stones 12 --dir /tmp/db")]
    Build {
        /// Largest number of seeds on the board (0..=48).
        #[arg(long)]
        max_stones: usize,
        #[arg(long)]
        dir: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = super::args::threads)]
        threads: Option<super::args::Threads>,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// Check every layer: checksums, and each entry against its moves (Bellman).
    Verify {
        #[arg(long)]
        dir: PathBuf,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// Per layer: positions, wins / draws / losses for the mover, value histogram.
    Stats {
        #[arg(long)]
        dir: PathBuf,
        #[arg(long)]
        json: bool,
        /// Also write an SVG chart of the W/D/L share per layer.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Also write the per-layer rows as CSV (stones, positions, wins, draws, losses, crc32).
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Also write the value histograms as CSV (stones, value, positions).
        #[arg(long)]
        histogram_csv: Option<PathBuf>,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// Write database entries as a dataset: stones, p0..p11 (mover's row first), value,
    /// best_move (lowest best own index; empty when the position has ended).
    #[command(after_help = "Example: mancala oware db export --dir /tmp/db --stones 0..=6 --format csv --out t.csv")]
    Export {
        #[arg(long)]
        dir: PathBuf,
        /// Seed counts, `A..=B` or `N`.
        #[arg(long)]
        stones: String,
        #[arg(long, value_parser = super::args::format())]
        format: Format,
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        rules: RuleFlags,
    },
}

pub fn run(a: OwareArgs) -> Result<()> {
    match a.cmd {
        Cmd::Replay { moves, start, to_move, jsonl, json, rules } => {
            replay(&moves, start, &to_move, jsonl, json, rules.rules())
        }
        Cmd::Solve { pits, db, depth, time, json, rules } => solve_cmd(&pits, db, depth, time, json, rules.rules()),
        Cmd::Db { cmd } => {
            let (req, rules) = match cmd {
                DbCmd::Build { max_stones, dir, threads, rules } => {
                    (DbRequest::Build { max: max_stones, dir, threads }, rules)
                }
                DbCmd::Verify { dir, rules } => (DbRequest::Verify { dir }, rules),
                DbCmd::Stats { dir, json, svg, csv, histogram_csv, rules } => {
                    (DbRequest::Stats { dir, json, svg, csv, histogram_csv }, rules)
                }
                DbCmd::Export { dir, stones, format, out, rules } => {
                    (DbRequest::Export { dir, layers: stones, format, out }, rules)
                }
            };
            let rules = rules.db_rules()?;
            layer_db::run(req, &spec(&rules), rules)
        }
    }
}

/// Parse 12 counts; `field` names the flag in errors.
fn parse_pits(field: &str, s: &str) -> Result<View> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let form = "12 comma-separated counts 0..=48 with a total of at most 48";
    if parts.len() != PITS {
        return usage(format!("{field}: expected {form}, got {} values", parts.len()));
    }
    let mut v = [0u8; PITS];
    for (i, p) in parts.iter().enumerate() {
        v[i] = match p.parse::<u8>() {
            Ok(x) if x <= 48 => x,
            _ => return usage(format!("{field}: value {} is `{p}`; expected {form}", i)),
        };
    }
    let total = oware::seeds(&v);
    if total > oware::TOTAL_SEEDS {
        return usage(format!("{field}: {total} seeds in all; expected {form}"));
    }
    Ok(v)
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

fn replay(
    moves: &[String],
    start: Option<String>,
    to_move: &str,
    jsonl: bool,
    json_out: bool,
    rules: Rules,
) -> Result<()> {
    let to_move = parse_side("--to-move", to_move)?;
    let position = match start {
        Some(s) => {
            let pits = parse_pits("--start", &s)?;
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
    if jsonl {
        lines[0]["rules"] = rules_json;
        for l in &lines {
            println!("{l}");
        }
    } else if json_out {
        println!("{}", json!({"rules": rules_json, "plies": lines}));
    } else {
        println!("rules: {rules_json}");
        let mut g = Game::new(rules, position);
        for (ply, l) in lines.iter().enumerate() {
            println!("ply {ply}\n{}", g.position);
            if let Some(m) = l.get("move") {
                println!("  move: {m}");
                g.play(m.as_u64().unwrap() as u8).expect("replayed above");
            }
        }
        if let Some(r) = l_result(&lines) {
            println!("result: {r}");
        }
    }
    Ok(())
}

fn l_result(lines: &[serde_json::Value]) -> Option<&serde_json::Value> {
    lines.last().and_then(|l| l.get("result"))
}

/// Whole numbers print as integers, halves as decimals.
fn num(x: f64) -> serde_json::Value {
    if x.fract() == 0.0 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

fn open_db(dir: &Path, rules: Rules) -> Result<Database> {
    layer_db::open(&spec(&rules), dir, rules, "--dir")
}

const NAMES: [&str; PITS] = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11"];

/// The Oware words, flags and columns of the `db` commands.
fn spec(rules: &Rules) -> DbSpec<OwareLayers> {
    DbSpec {
        pieces: "stones",
        max_flag: "--max-stones",
        range_flag: "--stones",
        max_reason: "",
        build_tag: rules.db_tag(),
        none_found: format!("no Oware database for {} (build one with `mancala oware db build`)", rules.db_tag()),
        other_rules_hint: " (set --grand-slam to match)",
        svg_title: format!("Oware ({}): mover's result per layer", rules.db_tag()),
        svg_unit: "seeds",
        before_layer: |_| {},
        after_layer: |_| String::new(),
        describe: |v| format!("{v:?}"),
        position_columns: NAMES.iter().map(|n| Column::Int(n)).collect(),
        position_cells: |v, row| row.extend(v.iter().map(|&x| Value::Int(x as i64))),
        move_column: Column::Int("best_move"),
        move_cell: |m| Value::Int(m as i64),
    }
}

fn solve_cmd(
    pits: &str,
    db_dir: Option<PathBuf>,
    depth: Option<u32>,
    time: Option<f64>,
    json_out: bool,
    rules: Rules,
) -> Result<()> {
    let v = parse_pits("--pits", pits)?;
    let database = match &db_dir {
        Some(dir) => {
            if rules.cycle == Cycle::OwnRows {
                return usage("--cycle: databases need `split`; solve with --db uses split");
            }
            Some(open_db(dir, rules)?)
        }
        None => None,
    };
    let s = solve(rules, database.as_ref(), &v, Limits { depth, seconds: time, nodes: None });
    let exact = s.bounds.is_exact();
    let method = match s.method {
        Method::Db => "db",
        Method::Search => "search",
        Method::Component => "search",
    };
    let nps = s.nodes as f64 / s.seconds.max(1e-9);
    if json_out {
        let mut o = json!({
            "rules": rules.to_json(),
            "pits": v,
            "value": if exact { json!(s.bounds.lo) } else { serde_json::Value::Null },
            "exact": exact,
            "lower": s.bounds.lo,
            "upper": s.bounds.hi,
            "best_moves": s.best_moves,
            "pv": s.pv,
            "method": method,
            "nodes": s.nodes,
            "depth": s.depth,
            "seconds": s.seconds,
            "nodes_per_second": nps.round(),
        });
        o["moves"] =
            json!(s.moves.iter().map(|(m, b)| json!({"move": m, "lower": b.lo, "upper": b.hi})).collect::<Vec<_>>());
        println!("{o}");
    } else {
        println!("rules: {}", rules.to_json());
        if exact {
            println!("value: {} (exact, {method})", s.bounds.lo);
        } else {
            println!(
                "value: {} <= value <= {} (not exact: limits reached at depth {})",
                s.bounds.lo, s.bounds.hi, s.depth
            );
        }
        println!("best moves: {:?}", s.best_moves);
        println!("pv: {:?}", s.pv);
        for (m, b) in &s.moves {
            if b.lo == b.hi {
                println!("  move {m}: {}", b.lo);
            } else {
                println!("  move {m}: {}..={}", b.lo, b.hi);
            }
        }
        println!("nodes: {} in {:.3} s ({:.0} nodes/s)", s.nodes, s.seconds, nps);
    }
    Ok(())
}
