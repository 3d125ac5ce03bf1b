//! `db build | verify | stats | export` for any game with endgame tables (Oware, Kiothi):
//! one implementation, instantiated per game with a [`DbSpec`] (its flag and column names,
//! how a position is named and written as a row).

mod flags;
mod products;

pub use flags::{DbArgs, DbCmd, DbWords, GameDb, StatsFlags};

use super::progress::{bar, LayerBar};
use super::usage;
use anyhow::{Context, Result};
use mancala::export::svg::{stacked_bars, StackedBar};
use mancala::export::{Column, Format, TableWriter, Value};
use mancala::retro::database::{self, Database, TableGame};
use mancala::retro::plan::Lookups;
use mancala::retro::plan::{plan_build, BuildPlan, Misfit, PlanError, Processes, Request};
use mancala::retro::stats::LayerStats;
use mancala::retro::LayeredGame;
use mancala::store::layer_file::DbError;
use mancala::store::write_atomic;
use products::{export, pack, stats};
use serde_json::json;
use std::path::{Path, PathBuf};

/// A `db` subcommand, parsed ([`DbCmd::request`] makes it from the flags).
pub enum DbRequest {
    Build {
        max: usize,
        dir: PathBuf,
        threads: Option<super::args::Threads>,
        options: BuildOptions,
        /// Print the plan, build nothing.
        plan: bool,
    },
    Verify {
        dir: PathBuf,
    },
    Stats(StatsFlags),
    Export {
        dir: PathBuf,
        layers: String,
        format: Format,
        out: PathBuf,
    },
    Pack {
        dir: PathBuf,
        out: PathBuf,
        threads: Option<super::args::Threads>,
    },
}

/// How a build may use the machine, as its flags ask: the memory budget (`--memory`; layers
/// whose working arrays do not fit it are built out of core), how the forward passes read the
/// lower layers (`None`: chosen per layer by the plan, [`mancala::retro::plan::plan_layer`]),
/// and whether every finished layer is kept packed (`--pack`; its lookups are then streamed).
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildOptions {
    pub memory: Option<u64>,
    pub lookups: Option<Lookups>,
    pub pack: bool,
}

impl<B: clap::Args, R: clap::Args> DbCmd<B, R> {
    /// The request this subcommand makes and the rule flags it was given; `build` asks the
    /// game's own flags.
    pub fn request(self, build: impl FnOnce(B) -> Result<(DbRequest, R)>) -> Result<(DbRequest, R)> {
        Ok(match self {
            DbCmd::Build(b) => build(b)?,
            DbCmd::Verify { dir, rules } => (DbRequest::Verify { dir }, rules),
            DbCmd::Stats { stats, rules } => (DbRequest::Stats(stats), rules),
            DbCmd::Export { dir, layers, format, out, rules } => {
                (DbRequest::Export { dir, layers, format, out }, rules)
            }
            DbCmd::Pack { dir, out, threads, rules } => (DbRequest::Pack { dir, out, threads }, rules),
        })
    }
}

/// What differs between the games' `db` commands: words, flags, columns.
pub struct DbSpec<G: TableGame> {
    /// The game's word for a layer's pieces: the first column of stats and exports.
    pub pieces: &'static str,
    /// `--max-stones` / `--max-warriors`.
    pub max_flag: &'static str,
    /// `--stones` / `--warriors` (export's layer range).
    pub range_flag: &'static str,
    /// Why the largest layer is the largest, appended to the range error (or empty).
    pub max_reason: &'static str,
    /// What `db build` shows of the rules.
    pub build_tag: String,
    /// What a directory without any of the game's layers holds ("no Oware database … (build
    /// one with …)").
    pub none_found: String,
    /// Appended when a directory holds layers of other rules (which flag to set).
    pub other_rules_hint: &'static str,
    /// The W/D/L chart's title and its bar label unit.
    pub svg_title: String,
    pub svg_unit: &'static str,
    /// Called before each layer is built; what it returns after is appended to the layer's line.
    pub before_layer: fn(&G),
    pub after_layer: fn(&G) -> String,
    /// A position in an error line.
    pub describe: fn(&G::Pos) -> String,
    /// The export columns of a position (between the pieces column and the value).
    pub position_columns: Vec<Column>,
    pub position_cells: fn(&G::Pos, &mut Vec<Value>),
    /// The export column of the best move and its cell.
    pub move_column: Column,
    pub move_cell: fn(G::Move) -> Value,
}

impl<G: TableGame> DbSpec<G> {
    /// `--max-stones` / `--max-warriors` within the game's layers: one line, exit 2 (the
    /// single-process and the distributed build check it alike).
    pub fn check_max(&self, max: usize) -> Result<()> {
        if max > G::MAX_LAYER {
            return usage(format!("{}: {max}; expected 0..={}{}", self.max_flag, G::MAX_LAYER, self.max_reason));
        }
        Ok(())
    }
}

/// Run one `db` subcommand of a game under `rules`.
pub fn run<G: TableGame>(req: DbRequest, spec: &DbSpec<G>, rules: G::Rules) -> Result<()> {
    let game = G::with_rules(rules).map_err(super::args::input)?;
    run_with(req, spec, rules, game)
}

/// [`run`] with the game a build writes (its index); readers find theirs from the files.
pub fn run_with<G: TableGame>(req: DbRequest, spec: &DbSpec<G>, rules: G::Rules, game: G) -> Result<()> {
    match req {
        DbRequest::Build { max, dir, threads, options, plan } => {
            super::args::set_threads(threads)?;
            let options = BuildOptions { lookups: packed_lookups(options.lookups, options.pack)?, ..options };
            if plan {
                print_plan(spec, &game, max, &dir, options)
            } else {
                build(spec, &game, max, &dir, options)
            }
        }
        DbRequest::Verify { dir } => verify(spec, &open(spec, &dir, rules, "--dir", None)?, &dir),
        DbRequest::Stats(flags) => stats(spec, &open(spec, &flags.dir, rules, "--dir", None)?, flags),
        DbRequest::Export { dir, layers, format, out } => export(spec, &dir, &layers, format, &out, rules),
        DbRequest::Pack { dir, out, threads } => pack(spec, &dir, &out, rules, threads),
    }
}

/// The lookups of a build with `--pack`: streamed, the only ones that read packed lower layers
/// ([`mancala::retro::build_files`] says why); `--lookups mapped` with it is refused.
fn packed_lookups(lookups: Option<Lookups>, pack: bool) -> Result<Option<Lookups>> {
    match (pack, lookups) {
        (false, l) => Ok(l),
        (true, Some(Lookups::Mapped)) => usage(
            "--pack: not with --lookups mapped (mapped lookups read raw lower layers at random; a packed build streams them)",
        ),
        (true, _) => Ok(Some(Lookups::Streamed)),
    }
}

/// A database error as the command line reports it: a damaged, foreign or missing file is
/// bad input (exit 2, the line names the flag and the file), a failed read or write exit 1.
pub fn db_error(flag: &str, e: DbError) -> anyhow::Error {
    match e {
        DbError::Rules(e) => super::args::input(e),
        // Bad input too (exit 2): the user's to fix by freeing space; the partial layer, or the
        // out-of-core work directory of partitions and inboxes, is removed before this is
        // reported, so a rerun resumes from the last finished layer.
        DbError::Io { path, source } if mancala::store::space::is_disk_full(&source) => super::Usage(format!(
            "{flag}: the disk holding {} is full (writing {}: {source}); the partial layer was removed, the layers before it are kept: free space and rerun the same command",
            full_dir(&path).display(),
            path.display()
        ))
        .into(),
        e if e.is_io() => e.into(),
        e => super::Usage(format!("{flag}: {e}")).into(),
    }
}

/// The database directory a file that filled the disk belongs to: its own directory, or the
/// one holding the out-of-core work directory (`.NAME.work`) it is in.
fn full_dir(path: &Path) -> &Path {
    let dir = path.parent().unwrap_or(path);
    match dir.file_name().map(|n| n.to_string_lossy()) {
        Some(n) if n.starts_with('.') && n.ends_with(".work") => dir.parent().unwrap_or(dir),
        _ => dir,
    }
}

/// Open a database named by the command-line flag `flag` (its name starts every error line):
/// its layers `0..=through` (all that are present when `None`), each checked against its
/// checksum.
pub fn open<G: TableGame>(
    spec: &DbSpec<G>,
    dir: &Path,
    rules: G::Rules,
    flag: &str,
    through: Option<usize>,
) -> Result<Database<G>> {
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => {
            return usage(format!("{flag}: {} is not a directory; expected a directory of layer files", dir.display()))
        }
        Err(_) => return usage(format!("{flag}: {} does not exist: {}", dir.display(), spec.none_found)),
        Ok(_) => {}
    }
    match Database::<G>::open_through(dir, rules, through.unwrap_or(G::MAX_LAYER)) {
        Ok(d) => Ok(d),
        Err(DbError::Missing { .. }) => {
            let prefix = format!("{}-", G::GAME);
            let others: Vec<String> = std::fs::read_dir(dir)
                .map(|rd| {
                    rd.filter_map(|e| e.ok())
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .filter(|n| n.starts_with(&prefix) && n.ends_with("-0.db"))
                        .collect()
                })
                .unwrap_or_default();
            if others.is_empty() {
                usage(format!("{flag}: {} holds {}", dir.display(), spec.none_found))
            } else {
                let game = G::with_rules(rules).expect("checked by open");
                usage(format!(
                    "{flag}: {} holds layers built under other rules ({}); this run reads {}{}",
                    dir.display(),
                    others.join(", "),
                    game.file_name(0),
                    spec.other_rules_hint
                ))
            }
        }
        Err(e) => Err(db_error(flag, e)),
    }
}

pub fn mem_available() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Bytes of memory a build may use: MemAvailable, or MANCALA_MEMORY_LIMIT_GIB when lower (a
/// shared machine; tests).
pub fn memory_limit() -> Option<u64> {
    let cap = std::env::var("MANCALA_MEMORY_LIMIT_GIB")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .map(|g| (g * (1u64 << 30) as f64) as u64);
    match (mem_available(), cap) {
        (Some(a), Some(c)) => Some(a.min(c)),
        (a, c) => a.or(c),
    }
}

/// The plan of building `0..=max` into `dir` ([`plan_build`]), the layers already there
/// marked built; a budget no split fits, or processes too few, is a usage error naming the
/// flag.
pub fn plan<G: TableGame>(
    spec: &DbSpec<G>,
    game: &G,
    max: usize,
    built: usize,
    options: BuildOptions,
    processes: Processes,
) -> Result<BuildPlan> {
    use mancala::store::space::human_bytes;
    let sizes: Vec<u64> = (0..=max).map(|n| game.layer_size(n)).collect();
    let BuildOptions { memory, lookups, pack } = options;
    let request =
        Request { sizes: &sizes, built, frontier_share: G::FRONTIER_SHARE, budget: memory, lookups, pack, processes };
    plan_build(&request).or_else(|e| match e {
        PlanError::Budget { layer, size, lower, budget, least } => usage(format!(
            "--memory: {} is too small to build layer {layer} ({size} positions over {} of lower layers); the smallest budget that works is {} MiB",
            human_bytes(budget),
            human_bytes(lower),
            least.div_ceil(1 << 20)
        )),
        PlanError::Shares { layer, size, processes, least } => usage(format!(
            "{}: layer {layer} has {size} positions, more than {processes} MPI processes can share (each owns at most 2^31 positions of a layer): run at least {least} processes",
            spec.max_flag
        )),
    })
}

/// A plan that does not fit this machine (the memory available; the disk free at `dir`, when
/// given) as a usage error with the plan's figures.
pub fn refuse_misfit<G: TableGame>(spec: &DbSpec<G>, plan: &BuildPlan, max: usize, dir: Option<&Path>) -> Result<()> {
    use mancala::store::space::human_bytes;
    let free = dir.and_then(|d| mancala::store::space::available(d).ok());
    match plan.misfit(memory_limit(), free) {
        None => Ok(()),
        Some(Misfit::Memory { need, layer, available }) => {
            let here = match &plan.processes {
                Processes::One => String::new(),
                Processes::Mpi { k, here } => format!(" ({} of the {k} processes here)", here.len()),
            };
            usage(format!(
                "{}: building up to {max} needs about {} of memory at layer {layer}{here}, {} are available (MemAvailable, or MANCALA_MEMORY_LIMIT_GIB when lower); `--plan` shows the plan",
                spec.max_flag,
                human_bytes(need),
                human_bytes(available)
            ))
        }
        Some(Misfit::Disk { need, free }) => usage(format!(
            "--dir: building up to {max} writes about {} (layers {} + out-of-core staging {}), {} are free at {}; `--plan` shows the plan",
            human_bytes(need),
            human_bytes(plan.disk),
            human_bytes(plan.staging),
            human_bytes(free),
            dir.map_or(String::new(), |d| d.display().to_string())
        )),
    }
}

/// `db build --plan`: the plan [`build`] follows (each layer's partitions, lookups and memory),
/// then what the whole build needs against this machine: the peak memory against
/// MemAvailable, the disk (layers still to build, plus the largest out-of-core layer's staging)
/// against the free space at `dir`, and a time at the game's measured rate. Writes nothing,
/// creates nothing.
fn print_plan<G: TableGame>(spec: &DbSpec<G>, game: &G, max: usize, dir: &Path, options: BuildOptions) -> Result<()> {
    let BuildOptions { memory, pack, .. } = options;
    use mancala::store::space::human_bytes;
    spec.check_max(max)?;
    let built = if dir.is_dir() {
        database::Resume::open(game, dir, max).map_err(|e| db_error("--dir", e))?.built().count()
    } else {
        0
    };
    // Every layer is planned before anything is printed: a budget no split fits is one line.
    let p = plan(spec, game, max, built, options, Processes::One)?;
    let threads = rayon::current_num_threads();
    println!(
        "plan: {} layers 0..={max} in {} ({}), memory budget {}, {threads} threads",
        G::GAME,
        dir.display(),
        spec.build_tag,
        memory.map_or("none".to_string(), human_bytes),
    );
    println!("{:>5} {:>16} {:>10} {:>9} {:>12}  state", "layer", "positions", "partitions", "lookups", "memory");
    for l in &p.layers {
        let state = if l.built { "built" } else { "to build" };
        println!(
            "{:>5} {:>16} {:>10} {:>9} {:>12}  {state}",
            l.layer,
            l.size,
            l.how.parts,
            l.how.lookups.name(),
            human_bytes(l.how.bytes)
        );
    }
    let verdict = |need: u64, have: Option<u64>| match have {
        Some(h) if need > h => format!("{} available: does not fit", human_bytes(h)),
        Some(h) => format!("{} available: fits", human_bytes(h)),
        None => "available: unknown".to_string(),
    };
    println!("memory: {} at the peak; {}", human_bytes(p.memory), verdict(p.memory, memory_limit()));
    let free = mancala::store::space::available(dir).ok();
    println!(
        "disk: {} of layers to write{} + {} of out-of-core staging = {}; {}",
        human_bytes(p.disk),
        if pack { " (packed, and the largest raw until it is packed)" } else { "" },
        human_bytes(p.staging),
        human_bytes(p.disk + p.staging),
        verdict(p.disk + p.staging, free)
    );
    let hours = p.seconds(threads, game.build_rate()) / 3600.0;
    println!(
        "time: about {hours:.1} h on {threads} threads at {:.1} M positions a thread-second in memory, half that out of core (a measured rate of this game; the machine decides)",
        game.build_rate() / 1e6
    );
    Ok(())
}

#[allow(clippy::too_many_arguments)]
/// The highest ancestor of `dir` (or `dir` itself) that does not exist: what creating `dir`
/// creates. `None` when `dir` exists.
fn first_missing(dir: &Path) -> Option<PathBuf> {
    let mut top = None;
    let mut p = Some(dir);
    while let Some(q) = p.filter(|q| !q.as_os_str().is_empty() && !q.exists()) {
        top = Some(q.to_path_buf());
        p = q.parent();
    }
    top
}

/// The line a build prints as a layer is finished: its positions, time, rate and checksum.
pub fn layer_line(n: usize, entries: u64, checksum: u32, secs: f64) -> String {
    format!(
        "layer {n:>2}: {entries:>13} positions in {secs:>8.2} s ({:>6.2} M/s), crc32 {checksum:08x}",
        entries as f64 / secs.max(1e-9) / 1e6
    )
}

/// Build `0..=max` into `dir` on the threads already set.
fn build<G: TableGame>(spec: &DbSpec<G>, game: &G, max: usize, dir: &Path, options: BuildOptions) -> Result<()> {
    let BuildOptions { memory, pack, .. } = options;
    spec.check_max(max)?;
    // The plan of every layer (the fewest partitions that fit the budget, 1: in memory, and
    // its lookups) before anything is written; a build it shows cannot fit is refused.
    let whole = plan(spec, game, max, 0, options, Processes::One)?;
    refuse_misfit(spec, &whole, max, None)?;
    let need = whole.memory;
    // A directory still to create holds nothing yet: every layer must fit its disk, and a build
    // refused for it leaves nothing it created (one that exists is checked below, for the
    // layers it lacks). Created first, so a path that cannot be one is named as such.
    let created = first_missing(dir);
    super::args::make_out_dir("--dir", dir)?;
    if let Some(top) = created {
        if let Err(e) = refuse_misfit(spec, &whole, max, Some(dir)) {
            let _ = std::fs::remove_dir_all(&top);
            return Err(e);
        }
    }
    // One writer per directory, then the layers already built are checked (a damaged one is
    // an error before anything is built on it), then the disk must hold the rest.
    let _lock = mancala::store::DirLock::acquire(dir, "db-build").map_err(|e| super::args::lock_error("--dir", e))?;
    let resume = database::Resume::open(game, dir, max).map_err(|e| db_error("--dir", e))?;
    // The layers still to build, against the disk free at `dir`.
    let rest = whole.resumed(resume.built().count());
    refuse_misfit(spec, &rest, max, Some(dir))?;
    let plan: Vec<(u64, Lookups)> = whole.layers.iter().map(|l| (l.how.parts, l.how.lookups)).collect();
    // Packed layers are read by streamed lookups only (`--pack` asks for them).
    if let (Some(k), Some(n)) = (resume.first_packed(), resume.missing().find(|&n| plan[n].1 == Lookups::Mapped)) {
        return usage(format!(
            "--dir: layer {k} in {} is packed, and layer {n} would read it by mapped lookups; build with --pack (or --lookups streamed)",
            dir.display()
        ));
    }
    let out_of_core = |n: usize| whole.layers[n].out_of_core;
    eprintln!(
        "building {} layers 0..={max} in {} ({}; about {:.2} GiB of memory at the peak, {} threads)",
        G::GAME,
        dir.display(),
        spec.build_tag,
        need as f64 / (1u64 << 30) as f64,
        rayon::current_num_threads()
    );
    if let Some(n) = resume.missing().find(|&n| out_of_core(n)) {
        let split: Vec<String> =
            resume.missing().filter(|&k| plan[k].0 > 1).map(|k| format!("{k}:{}", plan[k].0)).collect();
        if split.is_empty() {
            eprintln!("out of core from layer {n} (one partition each)");
        } else {
            eprintln!("out of core from layer {n} (layer:partitions {})", split.join(" "));
        }
    }
    if let Some(n) = resume.missing().find(|&n| plan[n].1 == Lookups::Streamed) {
        eprintln!("lower layers streamed from layer {n}");
    }
    if pack {
        eprintln!("every finished layer packed (lower layers streamed from their packed files)");
    }
    for h in resume.built() {
        eprintln!("layer {:>2}: {:>13} positions already built, crc32 {:08x}", h.layer, h.entries, h.checksum);
    }
    // With `--pack`, the bits a position of the layer file takes (it is packed by then).
    let packed_bits = |n: usize, entries: u64| -> String {
        let bytes = std::fs::metadata(database::layer_path(game, dir, n)).map(|m| m.len());
        match bytes {
            Ok(b) if pack => format!(", packed {:.2} bits/position", b as f64 * 8.0 / entries.max(1) as f64),
            _ => String::new(),
        }
    };
    let t0 = std::time::Instant::now();
    let mut layer_start = std::time::Instant::now();
    let progress = |n: usize, size: u64| -> Box<dyn mancala::retro::builder::Progress> {
        (spec.before_layer)(game);
        let pb = bar(size, &format!("layer {n}"));
        Box::new(LayerBar { pb, n })
    };
    resume
        .build_planned(game, &|n| plan[n], memory, pack, &progress, &mut |n, h| {
            let secs = layer_start.elapsed().as_secs_f64();
            eprintln!(
                "{}{}{}",
                layer_line(n, h.entries, h.checksum, secs),
                packed_bits(n, h.entries),
                (spec.after_layer)(game)
            );
            layer_start = std::time::Instant::now();
        })
        .map_err(|e| db_error("--dir", e))?;
    eprintln!("done in {:.2} s", t0.elapsed().as_secs_f64());
    Ok(())
}

/// Check every layer file's checksum, then every entry against the Bellman equation (its
/// moves and the layers below); the first mismatch is a one-line error naming the position.
fn verify<G: TableGame>(spec: &DbSpec<G>, d: &Database<G>, dir: &Path) -> Result<()> {
    for (n, l) in d.layers().iter().enumerate() {
        let pb = bar(l.header().entries, &format!("layer {n}"));
        let bad = d.verify_layer(n, 5, &|k| pb.inc(k));
        pb.finish_and_clear();
        let bad = bad.map_err(|e| db_error("--dir", e))?;
        if let Some(m) = bad.first() {
            return usage(format!(
                "{}: entry {} ({}) holds {} but its moves give {} ({} mismatches shown at most 5)",
                l.path().display(),
                m.rank,
                (spec.describe)(&d.game.unrank(n, m.rank)),
                m.stored,
                m.recomputed,
                bad.len()
            ));
        }
        println!(
            "layer {n:>2}: {:>13} positions ok (checksum {:08x}, Bellman{})",
            l.header().entries,
            l.header().checksum,
            if l.is_packed() { ", packed" } else { "" }
        );
    }
    println!("verified layers 0..={} in {}", d.max_layer(), dir.display());
    Ok(())
}
