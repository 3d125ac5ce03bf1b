//! A sweep from its definition to its files: this run's shard, the per-game table limit, resuming a finished shard, the run and its report.

use super::definition::{Sets, SweepDef};
use super::output::{write_games, write_summaries};
use super::part::{self, part_name, read_part, write_part, PartError};
use super::play;
use super::shard::Shard;
use super::summary::Agg;
use crate::export::Format;
use crate::games::lukho::{PerpetualStats, ProvenCycles};
use crate::input::InputError;
use crate::store::{DirLock, OutputSet};
use serde_json::{json, Value as Json};
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Most games a per-game table may hold.
pub const MAX_GAME_ROWS: u64 = 2_000_000;

/// Most games an unsharded run plays unconfirmed: about one core-hour (2.5–2.9 M games per
/// core-second, docs/cli.md "Speed"). An unsharded run cannot resume, so a stop loses all of it;
/// above this the command line asks for a confirmation, or for shards.
pub const UNSHARDED_GAMES: u64 = 10_000_000_000;

/// One run of a sweep: its definition, the resolved sets, and the shard it does (if any).
pub struct Plan {
    pub def: SweepDef,
    pub sets: Sets,
    pub shard: Option<Shard>,
    /// The positions `lo..hi` of this run's South choices in the South set.
    pub range: (u64, u64),
}

/// A sweep that cannot run to its end: bad input (the field named), a part file, or a write.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Input(#[from] InputError),
    #[error("{0}")]
    Part(#[from] PartError),
    /// Writing in the output directory failed; `what` names the file.
    #[error("{what}: {source}")]
    Io { what: String, source: io::Error },
    /// Another run is writing the output directory.
    #[error("{0}")]
    Lock(#[from] crate::store::LockError),
}

/// How a run starts in its output directory.
pub enum Start {
    /// Nothing of this run is there yet (or a damaged part, redone): the run holds the
    /// directory's lock until it has written its files (alone for an unsharded run, beside
    /// the other shards for a shard).
    Fresh(Locks),
    /// This shard's part is there and complete.
    Done(PathBuf),
}

/// The locks a fresh run holds on its output directory (released when dropped).
pub struct Locks {
    _sweep: DirLock,
    _part: Option<DirLock>,
}

/// The lock every sweep writer of a directory takes: shards shared, an unsharded run or a
/// merge alone (they republish the directory's summary set).
pub const SWEEP_LOCK: &str = "sweep";

/// What a finished run did.
pub struct Report {
    pub out: PathBuf,
    /// The part written (sharded runs) with its shard; else `summary` holds the global summary.
    pub part: Option<(PathBuf, Shard)>,
    pub range: (u64, u64),
    pub summary: Option<Json>,
    pub games: u64,
    pub seconds: f64,
    pub threads: usize,
    /// Long knife-free sowings proven perpetual: by their own cycle, or by a shared point.
    pub perpetual: PerpetualStats,
}

impl Report {
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }

    pub fn to_json(&self) -> Json {
        let mut r = serde_json::Map::new();
        if let Some((p, s)) = &self.part {
            r.insert("part".into(), json!(p));
            r.insert("shard".into(), json!([s.k, s.n]));
            r.insert("range".into(), json!([self.range.0, self.range.1]));
        }
        if let Some(g) = &self.summary {
            r.insert("summary".into(), g.clone());
        }
        r.insert("out".into(), json!(self.out));
        r.insert("games".into(), json!(self.games));
        r.insert("seconds".into(), json!(self.seconds));
        r.insert("games_per_second".into(), json!(self.games_per_second().round()));
        r.insert("threads".into(), json!(self.threads));
        r.insert("perpetual_sowings".into(), json!(self.perpetual));
        Json::Object(r)
    }
}

impl Plan {
    /// Resolve the sets and this run's South range. Writes nothing.
    pub fn new(def: SweepDef, shard: Option<Shard>) -> Result<Plan, InputError> {
        let sets = def.sets()?;
        let count = sets.south.len() as u64;
        let range = shard.map_or((0, count), |s| s.range(count));
        Ok(Plan { def, sets, shard, range })
    }

    /// The South ids this run sweeps.
    pub fn south_ids(&self) -> &[u32] {
        &self.sets.south[self.range.0 as usize..self.range.1 as usize]
    }

    pub fn pairs(&self) -> u64 {
        self.south_ids().len() as u64 * self.sets.north_per_south() as u64
    }

    /// The games this run plays, when the outcomes do not depend on the pair.
    pub fn games(&self) -> Option<u64> {
        self.def.model.outcomes().map(|o| self.pairs() * o.len() as u64)
    }

    /// The games of an unsharded run above [`UNSHARDED_GAMES`] (under `speeds`, whose games
    /// depend on the pair, its pairs: a lower bound); `None` for a shard or a run within it.
    /// Computed from the resolved sets, before any game is played or file written.
    pub fn unsharded_games_over_limit(&self) -> Option<u64> {
        let games = self.games().unwrap_or(self.pairs());
        (self.shard.is_none() && games > UNSHARDED_GAMES).then_some(games)
    }

    /// Seconds of timing for a dry run when none is asked: `speeds` pairs are slow.
    pub fn default_calibration(&self) -> f64 {
        if self.def.model.outcomes().is_none() {
            0.3
        } else {
            2.0
        }
    }

    /// The identity every part of this sweep shares.
    pub fn identity(&self) -> Json {
        part::identity(&self.def, self.sets.south.len() as u64, self.sets.north_per_south() as u64)
    }

    /// A per-game table in `format` is possible: a format this build writes, and small enough.
    pub fn check_games_table(&self, format: Format) -> Result<(), InputError> {
        if format == Format::Parquet && !cfg!(feature = "parquet") {
            return Err(InputError::new(
                "games",
                "parquet needs a build with `--features parquet` (accepted here: csv, jsonl)",
            ));
        }
        // speeds: at least one game per pair, usually a few.
        let games = self.games().unwrap_or(self.pairs());
        if games > MAX_GAME_ROWS {
            return Err(InputError::new(
                "games",
                format!(
                    "{games} games is more than the {MAX_GAME_ROWS} a per-game table allows; narrow --south/--north"
                ),
            ));
        }
        Ok(())
    }

    fn part_path(&self, out: &Path) -> Option<PathBuf> {
        self.shard.map(|s| out.join(part_name(s)))
    }

    /// Check `out` and find what is there: a complete part of this shard means nothing to do;
    /// a part of another sweep is refused. For a fresh run: creates `out`, takes its lock
    /// (refused while another run writes there) and checks the disk holds the output.
    pub fn start(&self, out: &Path, games: Option<Format>) -> Result<Start, RunError> {
        crate::input::check_out_dir(out)?;
        // A run replaces its own files (those of an earlier run of it); anything else standing
        // at one of their names (a directory, a link, a device) is refused, not replaced.
        for name in self.outputs(games) {
            let p = out.join(&name);
            if p.symlink_metadata().is_ok_and(|m| !m.is_file()) {
                let what = "is not a regular file; the sweep writes a file of that name and does not replace it (move it away or use another --out)";
                return Err(InputError::new("out", format!("{} {what}", p.display())).into());
            }
        }
        let lock = match self.shard {
            // Shards write side by side (one part each); a merge or an unsharded run alone.
            Some(s) => Locks {
                _sweep: DirLock::acquire_shared(out, SWEEP_LOCK)?,
                _part: Some(DirLock::acquire(out, &part_name(s))?),
            },
            None => Locks { _sweep: DirLock::acquire(out, SWEEP_LOCK)?, _part: None },
        };
        if let Some(p) = self.part_path(out).filter(|p| p.exists()) {
            match read_part(&p) {
                Ok(old) if old.identity() == self.identity() && old.range == self.range => return Ok(Start::Done(p)),
                Ok(_) => {
                    let what = "holds a part of a different sweep (rules, race, SPECs or version); use another --out";
                    return Err(InputError::new("out", format!("{} {what}", p.display())).into());
                }
                // A damaged part (it cannot be a partial one: parts are renamed into place) is redone.
                Err(_) => {}
            }
        }
        if let Some(short) = crate::store::space::shortfall(out, self.disk_needed(games)) {
            return Err(InputError::new("out", short).into());
        }
        Ok(Start::Fresh(lock))
    }

    /// The name of the per-game table without its extension: a shard's carries its K and N.
    fn games_stem(&self) -> String {
        self.shard.map_or("games".to_string(), |s| format!("games-{:05}-of-{:05}", s.k, s.n))
    }

    /// The names of the files the run writes in its output directory: a shard's part (and
    /// games table), else the summaries (and games table), each CSV with its metadata.
    pub fn outputs(&self, games: Option<Format>) -> Vec<String> {
        let stem = self.games_stem();
        let mut names = match self.shard {
            Some(s) => vec![part_name(s)],
            None => ["summary.csv", "summary.meta.json", "summary.jsonl", "summary.json"].map(String::from).to_vec(),
        };
        match games {
            Some(Format::Csv) => names.extend([format!("{stem}.csv"), format!("{stem}.meta.json")]),
            Some(Format::Jsonl) => names.push(format!("{stem}.jsonl")),
            Some(Format::Parquet) => names.push(format!("{stem}.parquet")),
            None => {}
        }
        names
    }

    /// Bytes the run's files take at most: a summary row in each of three formats (or a part
    /// row) per South choice and, with `games`, a row per game.
    pub fn disk_needed(&self, games: Option<Format>) -> u64 {
        const ROW: u64 = 1024;
        const GAME_ROW: u64 = 128;
        let game_rows = games.map_or(0, |_| self.games().unwrap_or(self.pairs()));
        64 * 1024 + self.south_ids().len() as u64 * ROW + game_rows * GAME_ROW
    }

    /// Play the sweep in memory: one aggregate per South choice of this plan (its shard's
    /// range), in id order, the rows `summary.csv` is written from. `progress(n)` gets the
    /// games finished.
    pub fn aggregate(&self, progress: &(dyn Fn(u64) + Sync)) -> Vec<(u32, Agg)> {
        self.aggregate_with(&ProvenCycles::new(), progress)
    }

    fn aggregate_with(&self, proven: &ProvenCycles, progress: &(dyn Fn(u64) + Sync)) -> Vec<(u32, Agg)> {
        let (rules, model, sets) = (&self.def.rules, self.def.model, &self.sets);
        let south_ids = self.south_ids();
        let aggs = if sets.symmetric {
            play::sweep_mirror(rules, proven, model, south_ids, progress)
        } else {
            play::sweep(rules, proven, model, south_ids, &sets.north, progress)
        };
        south_ids.iter().copied().zip(aggs).collect()
    }

    /// Play the sweep and write its files in `out` (after [`Plan::start`]): the part of a
    /// shard, else the summaries; with `games`, the per-game table. `progress(n)` gets the
    /// games finished.
    pub fn run(&self, out: &Path, games: Option<Format>, progress: &(dyn Fn(u64) + Sync)) -> Result<Report, RunError> {
        let (rules, model, sets) = (&self.def.rules, self.def.model, &self.sets);
        let south_ids = self.south_ids();
        // One set of proven perpetual cycles for the run: its threads and the games pass
        // share what any of them proved.
        let proven = ProvenCycles::new();
        let start = Instant::now();
        let rows = self.aggregate_with(&proven, progress);
        let seconds = start.elapsed().as_secs_f64();
        let played: u64 = rows.iter().map(|(_, a)| a.games).sum();
        let identity = self.identity();
        let io = |what: String| move |source| RunError::Io { what, source };
        let games_table = |dir: &Path| -> Result<(), RunError> {
            let Some(format) = games else { return Ok(()) };
            let stem = self.games_stem();
            let all = if sets.symmetric {
                play::games_mirror(rules, &proven, model, south_ids)
            } else {
                play::games(rules, &proven, model, south_ids, &sets.north, &sets.north_ids)
            };
            write_games(dir, &stem, format, rules, model.name(), &all).map_err(io(format!("writing {stem}")))
        };
        let (part, summary) = match (self.shard, self.part_path(out)) {
            // A shard's part is written last: its presence says the shard (and its games
            // table) is complete.
            (Some(s), Some(p)) => {
                games_table(out)?;
                write_part(&p, &identity, s, self.range, &rows)?;
                (Some((p, s)), None)
            }
            // The summaries and the games table are one set: they appear together.
            _ => {
                let writing = || format!("writing {}", out.display());
                let set = OutputSet::begin(out).map_err(io(writing()))?;
                let g = write_summaries(set.staging(), &identity, rules, &rows).map_err(io(writing()))?;
                games_table(set.staging())?;
                set.commit().map_err(io(writing()))?;
                (None, Some(g))
            }
        };
        Ok(Report {
            out: out.to_path_buf(),
            part,
            range: self.range,
            summary,
            games: played,
            seconds,
            threads: rayon::current_num_threads(),
            perpetual: proven.stats(),
        })
    }
}
