//! The work directory of an out-of-core layer ([`super::outcore`]) between its checkpoints:
//! each partition's state file and inbox by generation, which of them the last checkpoint
//! ([`super::checkpoint`]) names, the files a build has gone past and removes after the next
//! one, and on resuming, the clean-up that leaves exactly what the checkpoint names.

use super::builder::Progress;
use super::checkpoint::{self, Checkpoint, Plan, Step};
use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub(super) fn io_at(path: &Path) -> impl Fn(io::Error) -> (PathBuf, io::Error) + '_ {
    move |e| (path.to_path_buf(), e)
}

/// An I/O error with the file it concerns.
pub(super) type IoAt = (PathBuf, io::Error);

/// Partition `p`'s state file of generation `g` (a visit after a checkpoint works on a copy,
/// the next generation, and leaves the one the checkpoint names as it is).
pub(super) fn state(work: &Path, p: u64, g: u64) -> PathBuf {
    work.join(format!("part-{p}.state.{g}"))
}

/// Partition `p`'s inbox file of generation `g` (a visit that reads its inbox sends the
/// partition's next updates to the next generation).
pub(super) fn inbox(work: &Path, p: u64, g: u64) -> PathBuf {
    work.join(format!("part-{p}.in.{g}"))
}

fn sync(path: &Path) -> Result<(), IoAt> {
    File::open(path).and_then(|f| f.sync_all()).map_err(io_at(path))
}

fn remove(path: &Path) -> Result<(), IoAt> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err((path.to_path_buf(), e)),
        _ => Ok(()),
    }
}

/// The checkpoints of a build of partitions ([`super::outcore`]'s `build_parts`).
pub(super) struct Run<'a> {
    work: &'a Path,
    /// The last checkpoint written. The files it names are never changed (a visit copies a
    /// state first, appends go past the inbox bytes it names) and are removed only once a
    /// later checkpoint no longer names them.
    pub(super) ck: Checkpoint,
    /// Each partition's current state file, and whether it is the one the checkpoint names.
    pub(super) states: Vec<u64>,
    frozen: Vec<bool>,
    /// Files the checkpoint names that the build has gone past: removed after the next one.
    retired: Vec<PathBuf>,
    every: Duration,
    last: Instant,
}

impl<'a> Run<'a> {
    /// Resume from the checkpoint in `work` when it is `plan`'s (keeping exactly the files it
    /// names, [`keep_only`]), else empty `work` and start, saying why on `progress` when a
    /// checkpoint was there.
    pub(super) fn open(
        work: &'a Path,
        plan: Plan,
        lens: &dyn Fn(u64) -> u64,
        every: Duration,
        progress: &dyn Progress,
    ) -> Result<Self, IoAt> {
        let found =
            if work.exists() { Checkpoint::read(work).map_err(io_at(&checkpoint::path(work)))? } else { Ok(None) };
        let resumed = match found {
            Ok(Some(ck)) if ck.plan == plan => {
                if keep_only(work, &ck, lens)? {
                    progress.note(&format!("resuming at {}", ck.describe()));
                    Some(ck)
                } else {
                    progress.note("a file its checkpoint names is missing or short; starting the layer over");
                    None
                }
            }
            Ok(Some(ck)) => {
                let (p, q) = (&ck.plan, &plan);
                let why = if (p.layer, p.size, &p.identity) != (q.layer, q.size, &q.identity) {
                    "another game, rules or lower layers".to_string()
                } else {
                    format!("{} partitions with {} lookups, not {} with {}", p.parts, p.lookups, q.parts, q.lookups)
                };
                progress.note(&format!(
                    "its work directory holds a checkpoint of another plan ({why}); starting the layer over"
                ));
                None
            }
            Err(()) => {
                progress.note("its work directory's progress file is damaged; starting the layer over");
                None
            }
            Ok(None) => None,
        };
        let ck = match resumed {
            Some(ck) => ck,
            None => {
                if work.exists() {
                    fs::remove_dir_all(work).map_err(io_at(work))?;
                }
                fs::create_dir_all(work).map_err(io_at(work))?;
                Checkpoint::start(plan)
            }
        };
        let k = ck.states.len();
        Ok(Run {
            work,
            states: ck.states.clone(),
            frozen: vec![true; k],
            retired: Vec::new(),
            every,
            last: Instant::now(),
            ck,
        })
    }

    /// Make partition `p`'s current state one the checkpoint does not name (copy it), so a
    /// visit can change it in place.
    pub(super) fn thaw(&mut self, p: u64) -> Result<(), IoAt> {
        let i = p as usize;
        if self.frozen[i] {
            let old = state(self.work, p, self.states[i]);
            self.states[i] += 1;
            let new = state(self.work, p, self.states[i]);
            fs::copy(&old, &new).map_err(io_at(&new))?;
            self.frozen[i] = false;
            self.retired.push(old);
        }
        Ok(())
    }

    /// Partition `p`'s inbox of generation `g` has been read: removed now, or after the next
    /// checkpoint when this one names it.
    pub(super) fn retire_inbox(&mut self, p: u64, g: u64) -> Result<(), IoAt> {
        let path = inbox(self.work, p, g);
        if self.ck.inboxes[p as usize].0 == g {
            self.retired.push(path);
            Ok(())
        } else {
            remove(&path)
        }
    }

    pub(super) fn due(&self) -> bool {
        self.last.elapsed() >= self.every
    }

    /// Record `step` as the next: the states and inbox bytes written since the last
    /// checkpoint are made durable first, then the progress file is replaced, then the files
    /// only the old checkpoint named are removed.
    pub(super) fn checkpoint(&mut self, step: Step, decided: u64, inboxes: Vec<(u64, u64)>) -> Result<(), IoAt> {
        for (p, &g) in self.states.iter().enumerate() {
            if !self.frozen[p] {
                sync(&state(self.work, p as u64, g))?;
            }
        }
        for (p, &(g, bytes)) in inboxes.iter().enumerate() {
            if bytes > 0 && (g, bytes) != self.ck.inboxes[p] {
                sync(&inbox(self.work, p as u64, g))?;
            }
        }
        let ck = Checkpoint { plan: self.ck.plan.clone(), step, decided, states: self.states.clone(), inboxes };
        ck.write(self.work).map_err(io_at(&checkpoint::path(self.work)))?;
        self.ck = ck;
        self.frozen.fill(true);
        for path in std::mem::take(&mut self.retired) {
            remove(&path)?;
        }
        self.last = Instant::now();
        Ok(())
    }
}

/// Leave in `work` exactly what `ck` names: the state files of the partitions saved (each of
/// `3 * lens(p)` bytes), the first bytes of each inbox it names (appends made after it are cut
/// off) and the progress file; every other file (later state generations, later inboxes, the
/// values, a streamed pass's requests, temporaries) is removed. False when a file it names is
/// missing or short.
fn keep_only(work: &Path, ck: &Checkpoint, lens: &dyn Fn(u64) -> u64) -> Result<bool, IoAt> {
    let saved = match ck.step {
        Step::Forward { next } => next,
        Step::Threshold { .. } => ck.plan.parts,
    };
    // Path -> (bytes, whether the file may be longer and is cut back).
    let mut keep: HashMap<PathBuf, (u64, bool)> = HashMap::new();
    for p in 0..saved {
        keep.insert(state(work, p, ck.states[p as usize]), (3 * lens(p), false));
    }
    for (p, &(g, bytes)) in ck.inboxes.iter().enumerate() {
        if bytes > 0 {
            keep.insert(inbox(work, p as u64, g), (bytes, true));
        }
    }
    let progress = checkpoint::path(work);
    let mut found = 0;
    for e in fs::read_dir(work).map_err(io_at(work))? {
        let path = e.map_err(io_at(work))?.path();
        if path == progress {
            continue;
        }
        let Some(&(want, cut)) = keep.get(&path) else {
            if path.is_dir() {
                fs::remove_dir_all(&path).map_err(io_at(&path))?;
            } else {
                remove(&path)?;
            }
            continue;
        };
        let have = fs::metadata(&path).map_err(io_at(&path))?.len();
        if have < want || (have > want && !cut) {
            return Ok(false);
        }
        if have > want {
            OpenOptions::new().write(true).open(&path).and_then(|f| f.set_len(want)).map_err(io_at(&path))?;
        }
        found += 1;
    }
    Ok(found == keep.len())
}
