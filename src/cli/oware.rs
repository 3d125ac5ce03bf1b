//! `mancala oware …`: replay, databases (build, verify, stats, export), solve.

use super::layer_db::{export_layers, verify_layers};
use super::progress::{bar, LayerBar};
use super::usage;
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use mancala::export::svg::{stacked_bars, StackedBar};
use mancala::export::{Column, Format, TableWriter, Value};
use mancala::games::oware::{self, Cycle, Game, GrandSlam, Position, Rules, View, PITS};
use mancala::retro::oware::{self as db, Database, MAX_STONES};
use mancala::retro::stats::LayerStats;
use mancala::retro::{bellman, LayeredGame};
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
    #[arg(long, value_parser = grand_slam(), default_value = "no-capture", global = true)]
    grand_slam: GrandSlam,
    /// O8: what a repeated position does (databases need `split`).
    #[arg(long, value_parser = cycle(), default_value = "split", global = true)]
    cycle: Cycle,
}

/// `--grand-slam`: the names of [`GrandSlam`], with the help the rules give them.
fn grand_slam() -> impl clap::builder::TypedValueParser<Value = GrandSlam> {
    super::args::named(&[
        ("no-capture", "Legal, captures nothing (default; Abapa as in the Italian description)"),
        ("forbidden", "Illegal unless every legal move is one; then it captures nothing"),
        (
            "awari",
            "Romein & Bal's Olympiad rules: illegal unless forced; when forced it captures and the mover also takes the seeds left on his own row",
        ),
    ])
}

/// `--cycle`: the names of [`Cycle`].
fn cycle() -> impl clap::builder::TypedValueParser<Value = Cycle> {
    super::args::named(&[
        ("split", "The game ends, the seeds left are divided evenly (net 0). Default; databases need it"),
        ("own-rows", "The game ends, each player takes the seeds on his own row (Abapa practice, OpenSpiel)"),
    ])
}

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
        Cmd::Db { cmd } => match cmd {
            DbCmd::Build { max_stones, dir, threads, rules } => build(max_stones, &dir, threads, rules.db_rules()?),
            DbCmd::Verify { dir, rules } => verify_cmd(&dir, rules.db_rules()?),
            DbCmd::Stats { dir, json, svg, csv, histogram_csv, rules } => {
                stats(&dir, json, svg, csv, histogram_csv, rules.db_rules()?)
            }
            DbCmd::Export { dir, stones, format, out, rules } => export(&dir, &stones, format, &out, rules.db_rules()?),
        },
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
    match Database::open(dir, rules) {
        Ok(d) => Ok(d),
        Err(mancala::store::layer_file::DbError::Missing { .. }) => {
            let others: Vec<String> = std::fs::read_dir(dir)
                .map(|rd| {
                    rd.filter_map(|e| e.ok())
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .filter(|n| n.starts_with("oware-") && n.ends_with("-0.db"))
                        .collect()
                })
                .unwrap_or_default();
            if others.is_empty() {
                usage(format!(
                    "--dir: {} holds no Oware database for {} (build one with `mancala oware db build`)",
                    dir.display(),
                    rules.db_tag()
                ))
            } else {
                usage(format!(
                    "--dir: {} holds databases built under other rules ({}); this run uses {} (set --grand-slam to match)",
                    dir.display(),
                    others.join(", "),
                    db::layer_path(Path::new(""), &rules, 0).display()
                ))
            }
        }
        Err(e) => Err(e.into()),
    }
}

pub(super) fn mem_available() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn build(max: usize, dir: &Path, threads: Option<super::args::Threads>, rules: Rules) -> Result<()> {
    if max > MAX_STONES {
        return usage(format!("--max-stones: {max}; expected 0..={MAX_STONES}"));
    }
    let need = db::memory_needed(max);
    if let Some(avail) = mem_available() {
        if need > avail {
            return usage(format!(
                "--max-stones: building up to {max} needs about {:.1} GiB of memory, this machine has {:.1} GiB available",
                need as f64 / (1u64 << 30) as f64,
                avail as f64 / (1u64 << 30) as f64
            ));
        }
    }
    super::args::set_threads(threads);
    eprintln!(
        "building oware layers 0..={max} in {} ({}; about {:.2} GiB of memory at the peak, {} threads)",
        dir.display(),
        rules.db_tag(),
        need as f64 / (1u64 << 30) as f64,
        rayon::current_num_threads()
    );
    let t0 = std::time::Instant::now();
    let mut layer_start = std::time::Instant::now();
    let progress = |n: usize, size: u64| -> Box<dyn mancala::retro::builder::Progress> {
        let pb = bar(size, &format!("layer {n}"));
        Box::new(LayerBar { pb, n })
    };
    db::build(dir, rules, max, &progress, &mut |n, built, h| {
        let secs = layer_start.elapsed().as_secs_f64();
        if built {
            eprintln!(
                "layer {n:>2}: {:>13} positions in {:>8.2} s ({:>6.2} M/s), crc32 {:08x}",
                h.entries,
                secs,
                h.entries as f64 / secs.max(1e-9) / 1e6,
                h.checksum
            );
        } else {
            eprintln!("layer {n:>2}: {:>13} positions already built, crc32 {:08x}", h.entries, h.checksum);
        }
        layer_start = std::time::Instant::now();
    })?;
    eprintln!("done in {:.2} s", t0.elapsed().as_secs_f64());
    Ok(())
}

fn verify_cmd(dir: &Path, rules: Rules) -> Result<()> {
    let d = open_db(dir, rules)?;
    verify_layers(&d.game, &d, &d.layers, dir, |v| format!("{v:?}"))
}

fn stats(
    dir: &Path,
    json_out: bool,
    svg: Option<PathBuf>,
    csv: Option<PathBuf>,
    hist: Option<PathBuf>,
    rules: Rules,
) -> Result<()> {
    let d = open_db(dir, rules)?;
    let all: Vec<LayerStats> =
        d.layers.iter().enumerate().map(|(n, l)| LayerStats::of(n, l.values(), l.header.checksum)).collect();
    if json_out {
        let layers: Vec<_> = all
            .iter()
            .map(|s| {
                let hist: serde_json::Map<String, serde_json::Value> =
                    s.values().filter(|&(_, c)| c > 0).map(|(v, c)| (v.to_string(), json!(c))).collect();
                json!({"stones": s.stones, "positions": s.positions, "wins": s.wins, "draws": s.draws,
                       "losses": s.losses, "histogram": hist, "checksum": format!("{:08x}", s.checksum)})
            })
            .collect();
        println!("{}", json!({"rules": db_rules_json(&rules), "layers": layers}));
    } else {
        println!("rules: {}", db_rules_json(&rules));
        println!("{:>6} {:>13} {:>13} {:>13} {:>13}  crc32", "stones", "positions", "wins", "draws", "losses");
        for s in &all {
            println!(
                "{:>6} {:>13} {:>13} {:>13} {:>13}  {:08x}",
                s.stones, s.positions, s.wins, s.draws, s.losses, s.checksum
            );
        }
    }
    if let Some(path) = csv {
        let schema = ["stones", "positions", "wins", "draws", "losses"]
            .map(Column::Int)
            .into_iter()
            .chain([Column::Str("crc32")])
            .collect();
        let mut w = TableWriter::create(&path, Format::Csv, schema, &db_rules_json(&rules))
            .with_context(|| format!("--csv: {}", path.display()))?;
        for s in &all {
            let ints = [s.stones as u64, s.positions, s.wins, s.draws, s.losses].map(|x| Value::Int(x as i64));
            w.row(&ints.into_iter().chain([Value::Str(format!("{:08x}", s.checksum))]).collect::<Vec<_>>())?;
        }
        w.finish()?;
    }
    if let Some(path) = hist {
        let schema = vec![Column::Int("stones"), Column::Int("value"), Column::Int("positions")];
        let mut w = TableWriter::create(&path, Format::Csv, schema, &db_rules_json(&rules))
            .with_context(|| format!("--histogram-csv: {}", path.display()))?;
        for s in &all {
            for (v, c) in s.values() {
                w.row(&[Value::Int(s.stones as i64), Value::Int(v as i64), Value::Int(c as i64)])?;
            }
        }
        w.finish()?;
    }
    if let Some(path) = svg {
        let bars: Vec<StackedBar> = all
            .iter()
            .map(|s| {
                let p = s.positions.max(1) as f64;
                StackedBar {
                    label: format!("{} seeds", s.stones),
                    parts: vec![s.wins as f64 / p, s.draws as f64 / p, s.losses as f64 / p],
                }
            })
            .collect();
        let text = stacked_bars(
            &format!("Oware ({}): mover's result per layer", rules.db_tag()),
            &[("win", "#2e7d32"), ("draw", "#9e9e9e"), ("loss", "#c62828")],
            &bars,
        );
        write_atomic(&path, text.as_bytes()).with_context(|| format!("--svg: {}", path.display()))?;
    }
    Ok(())
}

fn db_rules_json(rules: &Rules) -> serde_json::Value {
    serde_json::from_str(&db::rules_text(rules)).expect("rules text is JSON")
}

pub use mancala::store::write_atomic;

/// `A..=B`, `A..B` or `N`.
fn parse_stones(s: &str) -> Result<(usize, usize)> {
    let form = "N, A..B or A..=B with 0 <= A <= B <= 48";
    let bad = || usage(format!("--stones: `{s}`; expected {form}"));
    match mancala::range::parse_inclusive(s) {
        Ok(Some((a, b))) if b <= MAX_STONES as u64 => Ok((a as usize, b as usize)),
        _ => bad(),
    }
}

fn export(dir: &Path, stones: &str, format: Format, out: &Path, rules: Rules) -> Result<()> {
    let (a, b) = parse_stones(stones)?;
    let d = open_db(dir, rules)?;
    if b > d.max_stones() {
        return usage(format!("--stones: {} holds layers 0..={}, asked for up to {b}", dir.display(), d.max_stones()));
    }
    let mut schema = vec![Column::Int("stones")];
    const NAMES: [&str; 12] = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11"];
    schema.extend(NAMES.iter().map(|n| Column::Int(n)));
    schema.push(Column::Int("value"));
    schema.push(Column::Int("best_move"));
    let mut buf = Vec::new();
    export_layers(&d.game, a..=b, out, format, schema, &db_rules_json(&rules), |n, r, v, row| {
        row.push(Value::Int(n as i64));
        row.extend(v.iter().map(|&x| Value::Int(x as i64)));
        row.push(Value::Int(d.value_at(n, r) as i64));
        row.push(match best_move(&d, v, &mut buf) {
            Some(m) => Value::Int(m as i64),
            None => Value::Null,
        });
    })
}

/// The lowest own index among the best moves of a covered position (None when it has ended).
fn best_move(d: &Database, v: &View, buf: &mut Vec<mancala::retro::Edge<View>>) -> Option<u8> {
    let target = bellman(&d.game, d, v, buf);
    if d.game.expand(v, buf).is_some() {
        return None;
    }
    // Edges come in ascending pit order; recover the pit from the child.
    let mut best = None;
    if let oware::Node::Moves(ms) = d.rules.node(v) {
        for m in ms.iter() {
            let (layer, rank) = d.game.locate(&m.child);
            if m.captured as i32 - d.value_at(layer, rank) as i32 == target {
                best = Some(m.pit);
                break;
            }
        }
    }
    best
}

trait ValueAt {
    fn value_at(&self, n: usize, r: u64) -> i8;
}
impl ValueAt for Database {
    fn value_at(&self, n: usize, r: u64) -> i8 {
        self.layers[n].values()[r as usize]
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
