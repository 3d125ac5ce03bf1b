//! `kiothi db …`: endgame tables (build, verify, stats, export) through the shared `db`
//! commands (`cli::layer_db`), with the Kiothi words, flags and columns.

use super::RuleFlags;
use crate::cli::layer_db::{self, BuildOptions, DbRequest, DbSpec, DbWords, GameDb};
use anyhow::Result;
use clap::Args;
use mancala::export::{Column, Value};
use mancala::games::kiothi::{Rules, BOMA};
use mancala::retro::kiothi::{self as db, Database, KiothiLayers};
use std::path::{Path, PathBuf};

pub(super) type DbArgs = layer_db::DbArgs<BuildFlags, RuleFlags>;

impl GameDb for BuildFlags {
    /// The Kiothi words of the `db` help.
    const WORDS: DbWords = DbWords {
        dir: "Directory of the tables (`kiothi db build --dir`)",
        range: "warriors",
        range_value: "WARRIORS",
        range_help: "Warrior counts, `A..=B`, `A..B` or `N`",
        export_about: "Write table entries as a dataset: warriors, p0..p19 (mover's row first), nki0..nki19 (0/1, same boma order), value, best_move (`B:K`, the first best in own-index then lift order; empty when the mover has no legal move)",
        export_example: "Example: mancala kiothi db export --dir /tmp/kt --warriors 0..=3 --format csv --out t.csv",
        pack_about: "Write a packed (compressed) copy of every layer of DIR into OUT, which `solve`, `db verify`, `db stats` and `db export` read like the raw layers (resumable)",
        pack_dir: "Directory of the raw tables to pack (`kiothi db build --dir`)",
        pack_example: None,
    };
}

/// Build every layer 0..=N into DIR (resumable: finished layers are kept).
///
/// A layer holds every position with that many warriors on the board, after the opening
/// (turn >= 3): boma from the mover's view and the nki flags of the occupied boma. A value
/// is the net number of board warriors the mover ends up with (repetition `split`).
#[derive(Args)]
#[command(after_help = "Example: mancala kiothi db build --max-warriors 6 --dir /tmp/kt")]
pub(super) struct BuildFlags {
    /// Largest number of warriors on the board (0..=10).
    #[arg(long)]
    max_warriors: usize,
    /// Directory of the layer files (created if missing).
    #[arg(long, value_parser = crate::cli::args::out_dir())]
    dir: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::cli::args::threads)]
    threads: Option<crate::cli::args::Threads>,
    /// Print the build's plan and build nothing: per layer its positions and memory, then
    /// the memory, disk and time the build needs against what this machine has (the same
    /// plan the build follows and is refused by).
    #[arg(long)]
    plan: bool,
    /// Keep every finished layer packed, as `db pack` writes it: each layer is packed as
    /// soon as it is built and checked, the raw layers the directory holds first, and the
    /// build reads its packed lower layers directly, block by block (its lookups streamed).
    #[arg(long)]
    pack: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn run(a: DbArgs) -> Result<()> {
    let (req, rules) = a.cmd.request(|b| {
        let BuildFlags { max_warriors, dir, threads, plan, pack, rules } = b;
        let options = BuildOptions { pack, ..BuildOptions::default() };
        Ok((DbRequest::Build { max: max_warriors, dir, threads, options, plan }, rules))
    })?;
    let rules = rules.rules();
    layer_db::run(req, &spec(&rules), rules)
}

/// Open the layers `0..=through` of the tables named by the command-line flag `flag` (its
/// name starts every error line), checked.
pub(super) fn open_tables(dir: &Path, rules: Rules, flag: &str, through: usize) -> Result<Database> {
    layer_db::open(&spec(&rules), dir, rules, flag, Some(through))
}

const P: [&str; BOMA] = [
    "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "p16", "p17",
    "p18", "p19",
];
const N: [&str; BOMA] = [
    "nki0", "nki1", "nki2", "nki3", "nki4", "nki5", "nki6", "nki7", "nki8", "nki9", "nki10", "nki11", "nki12", "nki13",
    "nki14", "nki15", "nki16", "nki17", "nki18", "nki19",
];

/// The Kiothi words, flags and columns of the `db` commands.
fn spec(rules: &Rules) -> DbSpec<KiothiLayers> {
    DbSpec {
        pieces: "warriors",
        max_flag: "--max-warriors",
        range_flag: "--warriors",
        max_reason: " (layer 11 is beyond the builder's 32-bit ranks)",
        build_tag: db::rules_text(rules),
        none_found: "no Kiothi tables (build them with `mancala kiothi db build`)".into(),
        other_rules_hint: "",
        svg_title: "Kiothi (nki-clear lift, split): mover's result per layer".into(),
        svg_unit: "warriors",
        // The sowing counters printed per layer count that layer's sowings only.
        before_layer: |g| g.sowing.clear(),
        after_layer: |g| {
            let s = g.sowing.stats();
            format!(
                "; sowings (once per board): {} perpetual, {} over 100000 relays, longest ending {}",
                s.perpetual,
                s.long_simulated,
                // The rules engine records only sowings over 256 relays.
                if s.max_relays_ended == 0 {
                    "under 257 relays".to_string()
                } else {
                    format!("{} relays", s.max_relays_ended)
                }
            )
        },
        describe: |v| format!("boma {:?}, nki {:#07x}", v.boma, v.nki),
        position_columns: P.iter().chain(N.iter()).map(|n| Column::Int(n)).collect(),
        position_cells: |v, row| {
            row.extend(v.boma.iter().map(|&x| Value::Int(x as i64)));
            row.extend((0..BOMA).map(|i| Value::Int((v.nki >> i & 1) as i64)));
        },
        move_column: Column::Str("best_move"),
        move_cell: |m| Value::Str(m.to_string()),
    }
}
