//! `mancala kiothi db …`: endgame tables (build, verify, stats, export).

use super::layer_db::{export_layers, verify_layers};
use super::oware::{mem_available, write_atomic};
use super::progress::{bar, LayerBar};
use super::usage;
use anyhow::{Context, Result};
use clap::Subcommand;
use mancala::export::svg::{stacked_bars, StackedBar};
use mancala::export::{Column, Format, TableWriter, Value};
use mancala::games::kiothi::{Rules, BOMA};
use mancala::retro::kiothi::{self as db, Database, MAX_WARRIORS};
use mancala::retro::stats::LayerStats;
use mancala::store::layer_file::DbError;
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum DbCmd {
    /// Build every layer 0..=N into DIR (resumable: finished layers are kept).
    ///
    /// A layer holds every position with that many warriors on the board, after the opening
    /// (turn >= 3): boma from the mover's view and the nki flags of the occupied boma. A value
    /// is the net number of board warriors the mover ends up with (repetition `split`).
    #[command(after_help = "Example: mancala kiothi db build --max-warriors 6 --dir /tmp/kt")]
    Build {
        /// Largest number of warriors on the board (0..=10).
        #[arg(long)]
        max_warriors: usize,
        #[arg(long)]
        dir: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = super::args::threads)]
        threads: Option<super::args::Threads>,
    },
    /// Check every layer: checksums, and each entry against its moves (Bellman).
    Verify {
        #[arg(long)]
        dir: PathBuf,
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
        /// Also write the per-layer rows as CSV (warriors, positions, wins, draws, losses, crc32).
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Also write the value histograms as CSV (warriors, value, positions).
        #[arg(long)]
        histogram_csv: Option<PathBuf>,
    },
    /// Write table entries as a dataset: warriors, p0..p19 (mover's row first), nki0..nki19
    /// (0/1, same boma order), value, best_move (`B:K`, the first best in own-index then lift
    /// order; empty when the mover has no legal move).
    #[command(
        after_help = "Example: mancala kiothi db export --dir /tmp/kt --warriors 0..=3 --format csv --out t.csv"
    )]
    Export {
        #[arg(long)]
        dir: PathBuf,
        /// Warrior counts, `A..=B`, `A..B` or `N`.
        #[arg(long)]
        warriors: String,
        #[arg(long, value_parser = super::args::format())]
        format: Format,
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(cmd: DbCmd, rules: Rules) -> Result<()> {
    if let Err(e) = db::check_rules(&rules) {
        return usage(e);
    }
    match cmd {
        DbCmd::Build { max_warriors, dir, threads } => build(max_warriors, &dir, threads, rules),
        DbCmd::Verify { dir } => verify_cmd(&dir, rules),
        DbCmd::Stats { dir, json, svg, csv, histogram_csv } => stats(&dir, json, svg, csv, histogram_csv, rules),
        DbCmd::Export { dir, warriors, format, out } => export(&dir, &warriors, format, &out, rules),
    }
}

pub(super) fn open_db(dir: &Path, rules: Rules) -> Result<Database> {
    open_tables(dir, rules, "--dir")
}

/// Open tables named by the command-line flag `flag` (its name starts every error line).
pub(super) fn open_tables(dir: &Path, rules: Rules, flag: &str) -> Result<Database> {
    match Database::open(dir, rules) {
        Ok(d) => Ok(d),
        Err(DbError::Missing { .. }) => {
            let others: Vec<String> = std::fs::read_dir(dir)
                .map(|rd| {
                    rd.filter_map(|e| e.ok())
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .filter(|n| n.starts_with("kiothi-") && n.ends_with("-0.db"))
                        .collect()
                })
                .unwrap_or_default();
            if others.is_empty() {
                usage(format!(
                    "{flag}: {} holds no Kiothi tables (build them with `mancala kiothi db build`)",
                    dir.display()
                ))
            } else {
                usage(format!(
                    "{flag}: {} holds tables built under other rules ({}); this run reads {}",
                    dir.display(),
                    others.join(", "),
                    db::layer_path(Path::new(""), &rules, 0).display()
                ))
            }
        }
        Err(e) => Err(e.into()),
    }
}

fn gib(x: u64) -> f64 {
    x as f64 / (1u64 << 30) as f64
}

fn build(max: usize, dir: &Path, threads: Option<super::args::Threads>, rules: Rules) -> Result<()> {
    if max > MAX_WARRIORS {
        return usage(format!(
            "--max-warriors: {max}; expected 0..={MAX_WARRIORS} (layer 11 is beyond the builder's 32-bit ranks)"
        ));
    }
    let need = db::memory_needed(max);
    // MANCALA_MEMORY_LIMIT_GIB caps what a build may use (a shared machine; tests).
    let cap = std::env::var("MANCALA_MEMORY_LIMIT_GIB")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .map(|g| (g * (1u64 << 30) as f64) as u64);
    let avail = match (mem_available(), cap) {
        (Some(a), Some(c)) => Some(a.min(c)),
        (a, c) => a.or(c),
    };
    if let Some(avail) = avail {
        if need > avail {
            return usage(format!(
                "--max-warriors: building up to {max} needs about {:.1} GiB of memory, {:.1} GiB are available (MemAvailable, or MANCALA_MEMORY_LIMIT_GIB when lower)",
                gib(need),
                gib(avail)
            ));
        }
    }
    super::args::set_threads(threads);
    eprintln!(
        "building kiothi layers 0..={max} in {} ({}; about {:.2} GiB of memory at the peak, {} threads)",
        dir.display(),
        db::rules_text(&rules),
        gib(need),
        rayon::current_num_threads()
    );
    let t0 = std::time::Instant::now();
    let mut layer_start = std::time::Instant::now();
    let progress = |n: usize, size: u64| -> Box<dyn mancala::retro::builder::Progress> {
        let pb = bar(size, &format!("layer {n}"));
        Box::new(LayerBar { pb, n })
    };
    db::build(dir, rules, max, &progress, &mut |n, built, h, s| {
        let secs = layer_start.elapsed().as_secs_f64();
        if built {
            eprintln!(
                "layer {n:>2}: {:>13} positions in {:>8.2} s ({:>6.2} M/s), crc32 {:08x}; sowings (once per board): {} perpetual, {} over 100000 relays, longest ending {}",
                h.entries,
                secs,
                h.entries as f64 / secs.max(1e-9) / 1e6,
                h.checksum,
                s.perpetual,
                s.long_simulated,
                // The rules engine records only sowings over 256 relays.
                if s.max_relays_ended == 0 { "under 257 relays".to_string() } else { format!("{} relays", s.max_relays_ended) }
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
    verify_layers(&d.game, &d, &d.layers, dir, |v| format!("boma {:?}, nki {:#07x}", v.boma, v.nki))
}

fn rules_json(rules: &Rules) -> serde_json::Value {
    serde_json::from_str(&db::rules_text(rules)).expect("rules text is JSON")
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
    let rj = rules_json(&rules);
    if json_out {
        let layers: Vec<_> = all
            .iter()
            .map(|s| {
                let hist: serde_json::Map<String, serde_json::Value> =
                    s.values().filter(|&(_, c)| c > 0).map(|(v, c)| (v.to_string(), json!(c))).collect();
                json!({"warriors": s.stones, "positions": s.positions, "wins": s.wins, "draws": s.draws,
                       "losses": s.losses, "histogram": hist, "checksum": format!("{:08x}", s.checksum)})
            })
            .collect();
        println!("{}", json!({"rules": rj, "layers": layers}));
    } else {
        println!("rules: {rj}");
        println!("{:>8} {:>13} {:>13} {:>13} {:>13}  crc32", "warriors", "positions", "wins", "draws", "losses");
        for s in &all {
            println!(
                "{:>8} {:>13} {:>13} {:>13} {:>13}  {:08x}",
                s.stones, s.positions, s.wins, s.draws, s.losses, s.checksum
            );
        }
    }
    if let Some(path) = csv {
        let schema = ["warriors", "positions", "wins", "draws", "losses"]
            .map(Column::Int)
            .into_iter()
            .chain([Column::Str("crc32")])
            .collect();
        let mut w = TableWriter::create(&path, Format::Csv, schema, &rj)
            .with_context(|| format!("--csv: {}", path.display()))?;
        for s in &all {
            let ints = [s.stones as u64, s.positions, s.wins, s.draws, s.losses].map(|x| Value::Int(x as i64));
            w.row(&ints.into_iter().chain([Value::Str(format!("{:08x}", s.checksum))]).collect::<Vec<_>>())?;
        }
        w.finish()?;
    }
    if let Some(path) = hist {
        let schema = vec![Column::Int("warriors"), Column::Int("value"), Column::Int("positions")];
        let mut w = TableWriter::create(&path, Format::Csv, schema, &rj)
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
                    label: format!("{} warriors", s.stones),
                    parts: vec![s.wins as f64 / p, s.draws as f64 / p, s.losses as f64 / p],
                }
            })
            .collect();
        let text = stacked_bars(
            "Kiothi (nki-clear lift, split): mover's result per layer",
            &[("win", "#2e7d32"), ("draw", "#9e9e9e"), ("loss", "#c62828")],
            &bars,
        );
        write_atomic(&path, text.as_bytes()).with_context(|| format!("--svg: {}", path.display()))?;
    }
    Ok(())
}

/// `A..=B`, `A..B` or `N`, within `0..=MAX_WARRIORS`.
fn parse_range(s: &str) -> Result<(usize, usize)> {
    let form = format!("N, A..B or A..=B with 0 <= A <= B <= {MAX_WARRIORS}");
    let bad = || usage(format!("--warriors: `{s}`; expected {form}"));
    match mancala::range::parse_inclusive(s) {
        Ok(Some((a, b))) if b <= MAX_WARRIORS as u64 => Ok((a as usize, b as usize)),
        _ => bad(),
    }
}

fn export(dir: &Path, warriors: &str, format: Format, out: &Path, rules: Rules) -> Result<()> {
    let (a, b) = parse_range(warriors)?;
    let d = open_db(dir, rules)?;
    if b > d.max_warriors() {
        return usage(format!(
            "--warriors: {} holds layers 0..={}, asked for up to {b}",
            dir.display(),
            d.max_warriors()
        ));
    }
    const P: [&str; BOMA] = [
        "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "p16",
        "p17", "p18", "p19",
    ];
    const N: [&str; BOMA] = [
        "nki0", "nki1", "nki2", "nki3", "nki4", "nki5", "nki6", "nki7", "nki8", "nki9", "nki10", "nki11", "nki12",
        "nki13", "nki14", "nki15", "nki16", "nki17", "nki18", "nki19",
    ];
    let mut schema = vec![Column::Int("warriors")];
    schema.extend(P.iter().map(|n| Column::Int(n)));
    schema.extend(N.iter().map(|n| Column::Int(n)));
    schema.push(Column::Int("value"));
    schema.push(Column::Str("best_move"));
    export_layers(&d.game, a..=b, out, format, schema, &rules_json(&rules), |n, r, v, row| {
        let value = d.layers[n].values()[r as usize];
        row.push(Value::Int(n as i64));
        row.extend(v.boma.iter().map(|&x| Value::Int(x as i64)));
        row.extend((0..BOMA).map(|i| Value::Int((v.nki >> i & 1) as i64)));
        row.push(Value::Int(value as i64));
        row.push(match d.best_move(v) {
            Some((m, best)) => {
                debug_assert_eq!(best, value as i32);
                Value::Str(m.to_string())
            }
            None => Value::Null,
        });
    })
}
