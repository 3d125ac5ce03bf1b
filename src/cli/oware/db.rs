//! `oware db …`: endgame databases (build, verify, stats, export) through the shared `db`
//! commands (`cli::layer_db`), with the Oware words, flags and columns.

use super::RuleFlags;
use crate::cli::layer_db::{self, BuildOptions, DbCmd, DbRequest, DbSpec, DbWords, GameDb};
use crate::cli::usage;
use anyhow::Result;
use clap::Args;
use mancala::export::{Column, Value};
use mancala::games::oware::{Rules, PITS};
use mancala::retro::database::TableGame;
use mancala::retro::oware::{Database, IndexKind, OwareLayers};
use mancala::retro::plan::Lookups;
use std::path::{Path, PathBuf};

pub(super) type DbArgs = layer_db::DbArgs<BuildFlags, RuleFlags>;

impl GameDb for BuildFlags {
    /// The Oware words of the `db` help.
    const WORDS: DbWords = DbWords {
        dir: "Database directory (`oware db build --dir`)",
        range: "stones",
        range_value: "STONES",
        range_help: "Seed counts, `A..=B` or `N`",
        export_about: "Write database entries as a dataset: stones, p0..p11 (mover's row first), value, best_move (lowest best own index; empty when the position has ended)",
        export_example: "Example: mancala oware db export --dir /tmp/db --stones 0..=6 --format csv --out t.csv",
        pack_about: "Write a packed (compressed) copy of every layer of DIR into OUT, which `solve --db`, `db verify`, `db stats` and `db export` read like the raw layers (resumable)",
        pack_dir: "Directory of the raw layers to pack (`oware db build --dir`)",
        pack_example: Some("Example: mancala oware db pack --dir /tmp/db --out /tmp/db-packed"),
    };
}

/// Build every layer 0..=N into DIR (resumable: finished layers are kept).
#[derive(Args)]
#[command(after_help = "Example: mancala oware db build --max-stones 12 --dir /tmp/db")]
pub(super) struct BuildFlags {
    /// Largest number of seeds on the board (0..=48).
    #[arg(long)]
    max_stones: usize,
    /// Directory of the layer files (created if missing).
    #[arg(long, value_parser = crate::cli::args::out_dir())]
    dir: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::cli::args::threads)]
    threads: Option<crate::cli::args::Threads>,
    /// Which positions the layers hold (readers find the index from the files).
    #[arg(long, value_parser = crate::cli::args::variant::<IndexKind>(), default_value = "full")]
    index: IndexKind,
    /// Memory budget (`512M`, `4G`, `1.5GiB`, bytes): a layer whose working arrays do not
    /// fit is built in partitions kept on disk, and one whose lower layers do not fit
    /// streams them (see `--lookups`); refused when no split fits.
    #[arg(long, value_parser = crate::cli::args::bytes)]
    memory: Option<u64>,
    /// How a layer's forward pass reads the values of its captures' children in the lower
    /// layers (default: mapped while the budget holds them, else streamed; streamed builds
    /// every layer out of core).
    #[arg(long, value_parser = crate::cli::args::variant::<Lookups>())]
    lookups: Option<Lookups>,
    /// Print the build's plan and build nothing: per layer its positions, partitions,
    /// lookups and memory, then the memory, disk and time the build needs against what
    /// this machine has (the same plan the build follows and is refused by).
    #[arg(long)]
    plan: bool,
    /// Keep every finished layer packed, as `db pack` writes it (about 3.5 bits a position
    /// instead of 8): each layer is packed as soon as it is built and checked, the raw layers
    /// the directory holds first, and the build reads its packed lower layers directly,
    /// block by block (implies `--lookups streamed`; not with `--lookups mapped`).
    #[arg(long)]
    pack: bool,
    /// Build each layer with every process of an MPI job (`mpirun -np K mancala oware db
    /// build --distributed …`): each owns a share of the layer's positions; needs a binary
    /// built with `--features mpi` (hidden from the help of other builds, which refuse it
    /// saying so).
    #[arg(long, hide = !cfg!(feature = "mpi"))]
    distributed: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

impl BuildFlags {
    /// The build these flags ask for; a distributed build refuses the flags of a build in one
    /// process.
    fn request(self) -> Result<(DbRequest, RuleFlags)> {
        let BuildFlags { max_stones, dir, threads, memory, lookups, distributed, rules, plan, pack, .. } = self;
        if distributed {
            if pack {
                return usage("--pack: not with --distributed (its processes write the layers raw)");
            }
            if plan {
                return usage("--plan: not with --distributed (the plan is of a build in one process)");
            }
            if memory.is_some() {
                return usage("--memory: not with --distributed (each process holds its share of a layer in memory)");
            }
            if lookups.is_some() {
                return usage(
                    "--lookups: not with --distributed (its processes ask the owners of the lower layers' shares)",
                );
            }
        }
        let options = BuildOptions { memory, lookups, pack };
        Ok((DbRequest::Build { max: max_stones, dir, threads, options, plan }, rules))
    }
}

pub fn run(a: DbArgs) -> Result<()> {
    let (index, in_processes) = match &a.cmd {
        DbCmd::Build(b) => (b.index, b.distributed),
        _ => (IndexKind::Full, false),
    };
    let (req, rules) = a.cmd.request(BuildFlags::request)?;
    let rules = rules.rules();
    OwareLayers::with_rules(rules).map_err(crate::cli::args::input)?;
    let mut spec = spec(&rules);
    spec.build_tag = format!("{}, {} index", spec.build_tag, index.name());
    let game = OwareLayers::with_index(rules, index);
    match req {
        DbRequest::Build { max, dir, threads, .. } if in_processes => distributed(&spec, &game, max, &dir, threads),
        req => layer_db::run_with(req, &spec, rules, game),
    }
}

#[cfg(feature = "mpi")]
fn distributed(
    spec: &DbSpec<OwareLayers>,
    game: &OwareLayers,
    max: usize,
    dir: &Path,
    threads: Option<crate::cli::args::Threads>,
) -> Result<()> {
    crate::cli::distributed::build(spec, game, max, dir, threads)
}

#[cfg(not(feature = "mpi"))]
fn distributed(
    _: &DbSpec<OwareLayers>,
    _: &OwareLayers,
    _: usize,
    _: &Path,
    _: Option<crate::cli::args::Threads>,
) -> Result<()> {
    usage("--distributed: this binary was built without MPI (rebuild with `cargo build --release --features mpi`)")
}

/// The layers `0..=through` of the database in `dir` for `rules`, checked (errors name `flag`).
pub(super) fn open_db(dir: &Path, rules: Rules, flag: &str, through: usize) -> Result<Database> {
    layer_db::open(&spec(&rules), dir, rules, flag, Some(through))
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
