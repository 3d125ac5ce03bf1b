//! What a run keeps on disk: the free space one iteration needs, checked before it starts;
//! the vector budget (`--vector-budget`), kept after it ends; the saved vectors checked (and
//! narrowed to `i8` or `i8x2` if saved wider) when a run starts.

use super::super::state::STATE_FILE;
use super::super::vectors::{Kind, Width};
use super::super::{io_err, Quiet};
use super::{Mix, Solver};
use crate::opening_game::EqError;
use crate::sweep::InputError;
use std::fs;
use std::path::PathBuf;

impl Solver {
    /// Bytes one iteration's new vectors take at most: every member whose vector is not saved
    /// yet may enter a support (all of them after a resume on a new machine), and every reply
    /// of both sides; one vector each in a symmetric game, a row and a column otherwise; plus
    /// the state.
    ///
    /// With a vector budget: at most what the budget leaves unused plus the replies' vectors.
    pub fn iteration_bytes(&self) -> u64 {
        let unsaved = |kind: Kind, set: &[u32]| {
            let (kind, _) = self.stored(kind);
            set.iter().filter(|&&id| !self.cache.contains_key(&(kind, id))).count() as u64
        };
        let missing = if self.def.symmetric() {
            unsaved(Kind::Col, &self.state.north)
        } else {
            unsaved(Kind::Col, &self.state.north) + unsaved(Kind::Row, &self.state.south)
        };
        let returning = match self.vector_budget {
            Some(b) => (missing * self.bytes_per_vector()).min(b.saturating_sub(self.vector_bytes())),
            None => missing * self.bytes_per_vector(),
        };
        returning + self.reply_bytes() + (1 << 20)
    }

    /// One payoff vector's bytes: an entry of the run's width per choice of the family.
    pub fn bytes_per_vector(&self) -> u64 {
        (self.width.bytes() * self.ids.len()) as u64
    }

    /// Bytes of the vectors of one iteration's new members (every reply of both sides; a row
    /// and a column each unless the game is symmetric).
    pub(super) fn reply_bytes(&self) -> u64 {
        let kinds = if self.def.symmetric() { 1 } else { 2 };
        2 * (self.replies.max(1) + usize::from(self.average > 1)) as u64 * kinds * self.bytes_per_vector()
    }

    /// With a vector budget, forget the saved vectors of members outside the mixes `x`
    /// (South's, through rows) and `y` (North's, through columns), least recently used in a
    /// mix first (then the lowest name), until the rest and the next iteration's replies fit
    /// the budget. Returns the files to delete once the saved state no longer names them.
    pub(super) fn evict(&mut self, x: Mix<'_>, y: Mix<'_>) -> Vec<PathBuf> {
        let Some(budget) = self.vector_budget else { return Vec::new() };
        let over = (self.vector_bytes() + self.reply_bytes()).saturating_sub(budget).div_ceil(self.bytes_per_vector())
            as usize;
        if over == 0 {
            return Vec::new();
        }
        // The mixes the next averages take in (`--average`) are kept too, unless they are
        // weighed by their score vectors (`--average-weights optimal`), which need no vector.
        let uniform = !self.average_weights.by_scores();
        let recent = |r: &[Vec<(u32, f64)>], kind| -> Vec<(Kind, u32)> {
            r.iter().flatten().filter(|_| uniform).map(|&(id, _)| (kind, id)).collect()
        };
        let keep: std::collections::HashSet<String> = (x.iter().map(|&(id, _)| (Kind::Row, id)))
            .chain(y.iter().map(|&(id, _)| (Kind::Col, id)))
            .chain(recent(&self.state.recent_south, Kind::Row))
            .chain(recent(&self.state.recent_north, Kind::Col))
            .map(|(kind, id)| self.file_name(self.stored(kind).0, id))
            .collect();
        let mut victims: Vec<(u32, String)> = (self.held_vectors())
            .filter(|n| !keep.contains(*n))
            .map(|n| (self.state.vector_used.get(n).copied().unwrap_or(0), n.clone()))
            .collect();
        victims.sort();
        victims.truncate(over);
        let mut paths = Vec::with_capacity(victims.len());
        for (_, name) in victims {
            self.state.vectors.remove(&name);
            self.state.vector_used.remove(&name);
            if let Some(key) = Self::parse_name(&name) {
                self.cache.remove(&key);
            }
            paths.push(self.vector_path(&name));
        }
        paths
    }

    /// Bytes of the saved vectors this run holds (mapped, not in RAM): those of the state whose
    /// files are here. A state moved to a new machine names vectors that are not (swept again
    /// when needed); they take no disk.
    pub fn vector_bytes(&self) -> u64 {
        self.held_vectors().count() as u64 * self.bytes_per_vector()
    }

    /// The names of the state's vectors this run holds.
    pub(super) fn held_vectors(&self) -> impl Iterator<Item = &String> {
        self.state.vectors.keys().filter(|n| Self::parse_name(n).is_some_and(|k| self.cache.contains_key(&k)))
    }

    /// Refuse to start an iteration whose vectors may not fit on the disk of `--out`: the run
    /// stops between iterations with its state whole instead of failing inside a write.
    pub(super) fn check_space(&self) -> Result<(), EqError> {
        match crate::store::space::shortfall(&self.dir, self.iteration_bytes()) {
            Some(why) => Err(InputError::new("out", format!("{why} (one iteration's payoff vectors)")).into()),
            None => Ok(()),
        }
    }

    /// Map (and check) every saved vector of the state whose file is there, so that a corrupt
    /// or truncated one is refused before an iteration starts, whether or not this sitting
    /// needs it (vectors narrowed before a bad one is found stay narrowed: the saved state
    /// names them). Missing ones are swept when needed.
    pub(in crate::opening_game) fn load_saved(&mut self) -> Result<(), EqError> {
        self.narrow_saved()?;
        for name in self.state.vectors.keys().cloned().collect::<Vec<_>>() {
            let (kind, id) = Self::parse_name(&name).expect("checked by narrow_saved");
            if self.vector_path(&name).exists() {
                self.ensure(kind, id, &Quiet)?;
            }
        }
        Ok(())
    }

    /// Bring the state's vector names to the run's width. A state saved before vectors were
    /// narrowed names `i16` files where the run now keeps `i8` or `i8x2`: each is rewritten
    /// (checked first), the state saved, then the old files deleted; a stop before the save
    /// rewrites them again, one after it leaves `.i16` files the state does not name, deleted
    /// here the next time. Names of the other width without a file are dropped (swept when
    /// needed).
    pub(in crate::opening_game) fn narrow_saved(&mut self) -> Result<(), EqError> {
        let names: Vec<String> = self.state.vectors.keys().cloned().collect();
        let mut retired = Vec::new();
        for name in names {
            let parsed = Self::parse_name(&name);
            if parsed.is_none_or(|(_, id)| self.ids.binary_search(&id).is_err()) {
                return Err(EqError::state(
                    &self.dir.join(STATE_FILE),
                    format!("vectors: `{name}` is not a vector of this family"),
                ));
            }
            let present = self.vector_path(&name).exists();
            match Width::of_name(&name) {
                Some(w) if w == self.width => {}
                Some(Width::I16) if present => retired.push(self.narrow(&name)?),
                _ if !present => {
                    self.state.vectors.remove(&name);
                    self.state.vector_used.remove(&name);
                }
                _ => {
                    return Err(EqError::state(
                        &self.dir.join(STATE_FILE),
                        format!("vectors: `{name}` is not of this run's width (`{}`)", self.width.suffix()),
                    ));
                }
            }
            // The rewritten files' state is saved now and then (a thousand vectors take a
            // minute), so a stop keeps most of the work and never names a deleted file.
            if retired.len() >= 64 {
                self.retire(&mut retired)?;
            }
        }
        self.retire(&mut retired)?;
        if self.width != Width::I16 {
            // Left by a stop between a save and its deletions: wide files nothing names.
            let columns = self.dir.join("columns");
            if let Ok(entries) = fs::read_dir(&columns) {
                let stale: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok().and_then(|e| e.file_name().into_string().ok()))
                    .filter(|n| Width::of_name(n) == Some(Width::I16) && !self.state.vectors.contains_key(n))
                    .map(|n| columns.join(n))
                    .collect();
                // The state does not name them: nothing to save first.
                remove_files(&stale)?;
            }
        }
        Ok(())
    }

    /// Save the state, then delete the files it no longer names.
    fn retire(&mut self, paths: &mut Vec<PathBuf>) -> Result<(), EqError> {
        if paths.is_empty() {
            return Ok(());
        }
        self.save()?;
        remove_files(paths)?;
        paths.clear();
        Ok(())
    }
}

/// Delete vector files the saved state no longer names; one already gone is no error (a stop
/// between an earlier save and its deletions).
pub(super) fn remove_files(paths: &[PathBuf]) -> Result<(), EqError> {
    for path in paths {
        match fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_err(path)(e)),
            _ => {}
        }
    }
    Ok(())
}
