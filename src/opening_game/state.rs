//! A run's state: what it has found after its last completed iteration (sets, mixes, the
//! iteration records, the certificate), the resumable file that keeps it (a checksummed header
//! naming the run, then the body), and the directory's lock while a run writes it.

use super::vectors::VectorFiles;
use super::{io_err, write_bytes_atomic, EqError};
use crate::input::InputError;
use crate::store::DirLock;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub const STATE_MAGIC: &str = "mancala-lukho-equilibrium-state";
pub const STATE_FORMAT: u64 = 1;
pub const STATE_FILE: &str = "state.lukho-eq";

/// The lock file of a run's directory (`.equilibrium.lock`).
const LOCK: &str = "equilibrium";

/// A sweep inside an iteration saves the state only when the last save is at least this old.
/// The save keeps the sweeps of an iteration a stop interrupts (a resume's first iteration on a
/// new machine may sweep hundreds of vectors), but it rewrites and syncs the whole state, log
/// included: on a small family, where a sweep takes a millisecond and every member is swept,
/// a save after each one would cost more than the sweeps. Unsaved, a stop loses at most this
/// much sweeping (the vector files written meanwhile are not in the state; they are swept
/// again, to the same bytes).
const SAVE_AFTER: Duration = Duration::from_secs(30);

/// One double-oracle iteration, as logged and saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterRecord {
    pub iteration: u32,
    pub south_size: usize,
    pub north_size: usize,
    pub south_support: usize,
    pub north_support: usize,
    /// The restricted game's value (LP).
    pub restricted_value: f64,
    /// North's best reply to South's mix: the value is at least this.
    pub lower: f64,
    /// South's best reply to North's mix: the value is at most this.
    pub upper: f64,
    pub south_best_response: u32,
    pub north_best_response: u32,
    /// Games played in this iteration and in the whole run so far.
    pub games: u64,
    pub total_games: u64,
    pub seconds: f64,
    pub total_seconds: f64,
    /// Payoff vectors held (saved, their files here) after this iteration.
    #[serde(default)]
    pub vectors: usize,
    /// Of the saved vectors, deleted after this iteration to keep within the vector budget.
    #[serde(default)]
    pub deleted: usize,
    /// Of `seconds`: in the restricted LPs, in the best-reply passes over the family.
    #[serde(default)]
    pub lp_seconds: f64,
    #[serde(default)]
    pub reply_seconds: f64,
    /// The run's certificate after this iteration: the best `lower` and `upper` seen (each
    /// proved by a saved mix). Absent in records written before it was kept.
    #[serde(default)]
    pub best_lower: Option<f64>,
    #[serde(default)]
    pub best_upper: Option<f64>,
    /// What the average of the last `--average K` iterations' mixes guarantees (South's) and
    /// concedes (North's), over the whole family (absent when off or in older records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_lower: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_upper: Option<f64>,
}

impl IterRecord {
    pub fn gap(&self) -> f64 {
        self.upper - self.lower
    }
}

/// The resumable state: everything after the last completed iteration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Restricted sets, in the order members were added.
    pub south: Vec<u32>,
    pub north: Vec<u32>,
    pub log: Vec<IterRecord>,
    /// The last iteration's mixes (id, weight), support only.
    pub south_strategy: Vec<(u32, f64)>,
    pub north_strategy: Vec<(u32, f64)>,
    /// Converged, or stopped because neither best response was new.
    pub done: bool,
    pub stalled: bool,
    /// The saved vectors the run may map (`vectors`, `vector_used` in the file).
    #[serde(flatten)]
    pub files: VectorFiles,
    pub games: u64,
    pub seconds: f64,
    /// The run's certificate: the South mix with the best (highest) guarantee and the North
    /// mix with the best (lowest) concession seen in any iteration, each evaluated over every
    /// choice of the family. Absent in states written before it was kept.
    #[serde(default)]
    pub best_south: Option<Certified>,
    #[serde(default)]
    pub best_north: Option<Certified>,
    /// The last iterations' LP mixes (oldest first, at most `--average K` − 1 of them): with
    /// this iteration's, their uniform average is a mix evaluated each iteration too (see
    /// `Options::average`). Absent in older states (none yet).
    #[serde(default)]
    pub recent_south: Vec<Vec<(u32, f64)>>,
    #[serde(default)]
    pub recent_north: Vec<Vec<(u32, f64)>>,
}

/// A mix and the bound it proves: South's mix guarantees at least `bound` against every North
/// choice of the family, North's concedes at most `bound` to every South choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certified {
    pub bound: f64,
    /// The iteration whose mix it is.
    pub iteration: u32,
    /// (choice id, weight), support only, in the order the bound was evaluated.
    pub mix: Vec<(u32, f64)>,
}

impl State {
    /// The certificate of a state written before it was kept: the last iteration's mixes,
    /// which are saved with the bounds they proved.
    pub(super) fn seed_certificate(&mut self) {
        let Some(last) = self.log.last() else { return };
        if self.best_south.is_none() && !self.south_strategy.is_empty() {
            let mix = self.south_strategy.clone();
            self.best_south = Some(Certified { bound: last.lower, iteration: last.iteration, mix });
        }
        if self.best_north.is_none() && !self.north_strategy.is_empty() {
            let mix = self.north_strategy.clone();
            self.best_north = Some(Certified { bound: last.upper, iteration: last.iteration, mix });
        }
    }

    /// Keep an iteration's mixes for the next averages (the last `average − 1`; none when off;
    /// South's only in a symmetric game, where North's is the same).
    pub(super) fn remember(&mut self, average: usize, symmetric: bool, x: &[(u32, f64)], y: &[(u32, f64)]) {
        let keep = average.saturating_sub(1);
        for (recent, mix, on) in
            [(&mut self.recent_south, x, keep > 0), (&mut self.recent_north, y, keep > 0 && !symmetric)]
        {
            if on {
                recent.push(mix.to_vec());
            }
            let extra = recent.len().saturating_sub(if on { keep } else { 0 });
            recent.drain(..extra);
        }
    }

    /// Whether the last iteration added no member: the next one solves its restricted games
    /// exactly before the run may call itself stalled.
    pub(super) fn stuck(&self) -> bool {
        self.log.last().is_some_and(|r| r.south_size == self.south.len() && r.north_size == self.north.len())
    }

    /// The certified bounds so far: (best lower, best upper), infinite while unknown.
    pub fn certified(&self) -> (f64, f64) {
        (
            self.best_south.as_ref().map_or(f64::NEG_INFINITY, |c| c.bound),
            self.best_north.as_ref().map_or(f64::INFINITY, |c| c.bound),
        )
    }

    /// Refuse a state whose restricted sets are empty or whose sets or mixes name a choice
    /// outside the family `ids` (sorted): a resume looks every member up in the family. The
    /// checksum cannot tell: such a state was written by another tool or edited by hand.
    pub fn check_members(&self, path: &Path, ids: &[u32]) -> Result<(), EqError> {
        let mixes = |m: &[(u32, f64)]| m.iter().map(|&(id, _)| id).collect::<Vec<_>>();
        let lists = [
            ("south", self.south.clone()),
            ("north", self.north.clone()),
            ("south_strategy", mixes(&self.south_strategy)),
            ("north_strategy", mixes(&self.north_strategy)),
            ("best_south", self.best_south.as_ref().map_or(vec![], |c| mixes(&c.mix))),
            ("best_north", self.best_north.as_ref().map_or(vec![], |c| mixes(&c.mix))),
        ];
        for (field, list) in &lists[..2] {
            if list.is_empty() {
                return Err(EqError::state(path, format!("{field}: the restricted set is empty")));
            }
        }
        for (field, list) in &lists {
            if let Some(id) = list.iter().find(|id| ids.binary_search(id).is_err()) {
                return Err(EqError::state(path, format!("{field}: choice {id} is not in the family")));
            }
        }
        Ok(())
    }
}

/// A run's state with its file: where it is saved, whose it is, and the directory's lock while
/// the run writes there.
pub struct RunState {
    pub state: State,
    dir: PathBuf,
    identity: Json,
    /// The directory's one-writer lock, held from before the state is read until the run
    /// ends (taken when the run starts writing if the directory did not exist at `open`).
    lock: Option<DirLock>,
    /// When this run last wrote the state (or opened it): a sweep saves the state only when
    /// the last save is `save_after` ([`SAVE_AFTER`]; tests change it) old.
    saved: Instant,
    pub(super) save_after: Duration,
}

impl RunState {
    /// Lock `dir` if it exists (refused while another run holds it) and load its state if it
    /// has one (refusing a corrupt or foreign one, or one naming choices outside `ids`); else
    /// both players start with the family's first choice. Writes nothing.
    pub(super) fn open(dir: &Path, identity: Json, ids: &[u32]) -> Result<RunState, EqError> {
        let lock = if dir.is_dir() { Some(DirLock::acquire(dir, LOCK)?) } else { None };
        let mut run = RunState {
            state: State::default(),
            dir: dir.to_path_buf(),
            identity,
            lock,
            saved: Instant::now(),
            save_after: SAVE_AFTER,
        };
        if !run.load(ids)? {
            run.state.south = vec![ids[0]];
            run.state.north = vec![ids[0]];
        }
        Ok(run)
    }

    pub fn identity(&self) -> &Json {
        &self.identity
    }

    pub(super) fn path(&self) -> PathBuf {
        self.dir.join(STATE_FILE)
    }

    /// Create the directory and take its lock (once), then reread the state another run may
    /// have written there since [`RunState::open`] found no directory.
    pub(super) fn hold(&mut self, ids: &[u32]) -> Result<(), EqError> {
        if self.lock.is_some() {
            return Ok(());
        }
        // A directory that cannot be created (a parent on a read-only or virtual file system, no
        // permission) is the caller's path to fix, not a failed write.
        fs::create_dir_all(&self.dir)
            .map_err(|e| InputError::new("out", format!("cannot create the directory {}: {e}", self.dir.display())))?;
        self.lock = Some(DirLock::acquire(&self.dir, LOCK)?);
        self.load(ids).map(drop)
    }

    /// Load the state file of the directory if there is one (false when there is none),
    /// refusing a corrupt or foreign one and one whose members are not in the family.
    fn load(&mut self, ids: &[u32]) -> Result<bool, EqError> {
        let path = self.path();
        if !path.exists() {
            return Ok(false);
        }
        self.state = read_state(&path, &self.identity)?;
        self.state.check_members(&path, ids)?;
        self.state.seed_certificate();
        Ok(true)
    }

    /// Write the state file (atomically, synced).
    pub(super) fn save(&mut self) -> Result<(), EqError> {
        write_state(&self.path(), &self.identity, &self.state)?;
        self.saved = Instant::now();
        Ok(())
    }

    /// Save after a sweep when the last save is [`SAVE_AFTER`] old (a save rewrites and syncs
    /// the whole state: after every millisecond sweep of a small family it would cost more
    /// than the sweeps).
    pub(super) fn save_throttled(&mut self) -> Result<(), EqError> {
        if self.saved.elapsed() >= self.save_after {
            self.save()?;
        }
        Ok(())
    }
}

/// The state file: a JSON header line (magic, format, identity, CRC-32 and length of the
/// body), then the body (the [`State`] as JSON). Written to a temporary name, then renamed.
pub fn write_state(path: &Path, identity: &Json, st: &State) -> Result<(), EqError> {
    let body = serde_json::to_string(st).expect("state serialises");
    let head = json!({"magic": STATE_MAGIC, "format": STATE_FORMAT, "identity": identity, "crc32": crc32fast::hash(body.as_bytes()), "bytes": body.len()});
    write_bytes_atomic(path, format!("{head}\n{body}\n").as_bytes())
}

/// Read a state, refusing one that is corrupt or belongs to another run (naming the field).
pub fn read_state(path: &Path, identity: &Json) -> Result<State, EqError> {
    let bytes = fs::read(path).map_err(io_err(path))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| EqError::state(path, "not an equilibrium state (not text)"))?;
    let (head, body) =
        text.split_once('\n').ok_or_else(|| EqError::state(path, "not an equilibrium state (no header line)"))?;
    let head: Json =
        serde_json::from_str(head).map_err(|_| EqError::state(path, "not an equilibrium state (bad header)"))?;
    if head["magic"] != STATE_MAGIC {
        return Err(EqError::state(path, "magic: not an equilibrium state"));
    }
    if head["format"] != STATE_FORMAT {
        return Err(EqError::state(path, format!("format: {} (this tool reads {STATE_FORMAT})", head["format"])));
    }
    let body = body.strip_suffix('\n').unwrap_or(body);
    if head["bytes"].as_u64() != Some(body.len() as u64)
        || head["crc32"].as_u64() != Some(crc32fast::hash(body.as_bytes()) as u64)
    {
        return Err(EqError::state(path, "crc32: the body does not match its checksum (corrupt or truncated)"));
    }
    if let Some(obj) = identity.as_object() {
        for (k, want) in obj {
            let got = &head["identity"][k];
            if got != want {
                return Err(EqError::state(
                    path,
                    format!("{k}: the state is of {got}, this run is {want} (a different run)"),
                ));
            }
        }
    }
    serde_json::from_str(body).map_err(|e| EqError::state(path, format!("body: {e}")))
}

#[cfg(test)]
mod fuzz_regressions {
    use super::*;

    /// A state naming a choice outside the family (checksum right) is refused before a
    /// resume looks the choice up among the family's vectors.
    #[test]
    fn members_outside_the_family_are_refused() {
        let path = Path::new("state.lukho-eq");
        let ids = [0, 1, 2];
        let ok = State { south: vec![0, 1], north: vec![0, 2], south_strategy: vec![(1, 1.0)], ..State::default() };
        ok.check_members(path, &ids).unwrap();
        let cases = [
            ("south", State { south: vec![0, 1, 5000], ..ok.clone() }),
            ("north", State { north: vec![], ..ok.clone() }),
            ("north_strategy", State { north_strategy: vec![(3, 1.0)], ..ok.clone() }),
        ];
        for (field, st) in cases {
            let e = st.check_members(path, &ids).unwrap_err().to_string();
            assert!(e.contains(&format!("{field}: ")), "{field}: {e}");
        }
    }
}
