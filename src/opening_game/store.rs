//! The payoff-vector store of a run: each member's column `A(·, n)` or row `A(s, ·)` over the
//! whole family, swept once, saved under `DIR/columns/` (checksummed in the state's
//! [`VectorFiles`]) and mapped; the best-reply passes over them; and the disk they may take
//! (`--vector-budget`), with the saved vectors checked (and narrowed if saved wider) when a
//! run starts.

use super::observer::{Observer, Quiet};
use super::pass::{self, Term};
use super::state::{RunState, STATE_FILE};
use super::vectors::{file_name, merge_top, parse_name, top_of, Kind, Values, Vector, VectorFiles, Width, CHUNK};
use super::{io_err, write_bytes_atomic, EqError, OpeningGame};
use crate::games::lukho::{Choice, GameOutcome, ProvenCycles};
use crate::side::Side;
use crate::sweep::play::games_batched;
use rayon::prelude::*;
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

/// A mix over choice ids: (id, weight).
pub(super) type Mix<'a> = &'a [(u32, f64)];

/// The vectors of one family in one directory.
pub struct Store {
    pub def: OpeningGame,
    /// The family's choice ids, sorted; a vector's slots are in this order.
    pub ids: Vec<u32>,
    pub(super) choices: Vec<Choice>,
    pub(super) dir: PathBuf,
    /// How wide the saved vectors' entries are ([`Width::of`] the definition).
    pub(super) width: Width,
    /// The vectors mapped (or held) so far.
    pub(super) cache: HashMap<(Kind, u32), Vector>,
    /// Perpetual cycles proven by this run's sweeps, shared by all of them.
    pub(super) proven: ProvenCycles,
    /// Page-cache bytes a best-reply pass may keep its vectors in (`None`: what the machine
    /// has when the pass starts, [`super::pass`]); tests set it to stream every vector.
    pub(super) resident: Option<u64>,
    /// Bytes the saved vectors may take (`None`: keep them all). At the end of each iteration
    /// the vectors of members outside its mixes are deleted, least recently used in a mix
    /// first, until the rest and the next iteration's replies fit ([`Store::evict`]); a deleted
    /// member that enters a mix again is swept again (to the same bytes).
    pub(super) budget: Option<u64>,
}

impl Store {
    pub(super) fn new(def: OpeningGame, ids: Vec<u32>, dir: &Path, budget: Option<u64>) -> Store {
        let choices = crate::sweep::spec::choices(&ids, &def.rules);
        let width = Width::of(&def);
        Store {
            def,
            ids,
            choices,
            dir: dir.to_path_buf(),
            width,
            cache: HashMap::new(),
            proven: ProvenCycles::new(),
            resident: None,
            budget,
        }
    }

    pub(super) fn pos(&self, id: u32) -> usize {
        self.ids.binary_search(&id).expect("restricted sets hold family members")
    }

    /// The stored kind and sign for a wanted vector: in a symmetric game a row is the
    /// negated column of the same choice.
    pub(super) fn stored(&self, kind: Kind) -> (Kind, f64) {
        match (kind, self.def.symmetric()) {
            (Kind::Row, true) => (Kind::Col, -1.0),
            (k, _) => (k, 1.0),
        }
    }

    /// A vector's file name in this run's width ([`file_name`]).
    pub(super) fn file_name(&self, kind: Kind, id: u32) -> String {
        file_name(kind, id, self.width)
    }

    /// Where the vector file `name` is kept: `DIR/columns/name`.
    pub(super) fn vector_path(&self, name: &str) -> PathBuf {
        self.dir.join("columns").join(name)
    }

    /// Rewrite a saved `i16` vector of a run whose entries are saved narrower (a state from
    /// before vectors were narrowed) as its file of the run's width (`.i8`, `.i8x2`), named in
    /// `files` in its stead; returns the old file, to delete once the state is saved. Its
    /// bytes are checked first (refused as [`Store::ensure`] refuses them).
    fn narrow(&mut self, files: &mut VectorFiles, name: &str) -> Result<PathBuf, EqError> {
        let (kind, id) = parse_name(name).expect("a vector name");
        let path = self.vector_path(name);
        let v = self.checked(&path, Width::I16, files.vectors[name])?;
        let Values::I16(wide) = v.values() else { unreachable!("opened as i16") };
        if !wide.iter().all(|&x| self.width.fits(x)) {
            let what =
                format!("an entry does not fit the run's {} vectors (not a vector of this run)", self.width.suffix());
            return Err(EqError::state(&path, what));
        }
        let bytes = self.width.encode(wide);
        let new = self.file_name(kind, id);
        write_bytes_atomic(&self.vector_path(&new), &bytes)?;
        files.vectors.remove(name);
        files.vectors.insert(new.clone(), crc32fast::hash(&bytes));
        if let Some(used) = files.vector_used.remove(name) {
            files.vector_used.insert(new, used);
        }
        Ok(path)
    }

    /// The saved vector in `path`, `width` wide, if its length and CRC-32 are the state's.
    fn checked(&self, path: &Path, width: Width, crc: u32) -> Result<Vector, EqError> {
        let v = Vector::open(path, width).map_err(io_err(path))?;
        let (len, got) = v.crc();
        let want = width.bytes() * self.ids.len();
        if len != want || got != crc {
            let what = format!(
                "{len} bytes, CRC-32 {got:08x}: the state expects {want} bytes, CRC-32 {crc:08x} (corrupt or truncated; delete the file to sweep it again)"
            );
            return Err(EqError::state(path, what));
        }
        Ok(v)
    }

    /// The state's CRC-32 of the vector file `name`, if the file is present: [`Store::ensure`]
    /// opens it rather than sweeping.
    fn saved_crc(&self, files: &VectorFiles, name: &str) -> Option<u32> {
        let crc = *files.vectors.get(name)?;
        self.vector_path(name).exists().then_some(crc)
    }

    /// Whether [`Store::ensure`] would sweep the vector (neither in memory nor saved).
    pub(super) fn needs_sweep(&self, files: &VectorFiles, kind: Kind, id: u32) -> bool {
        let (kind, _) = self.stored(kind);
        !self.cache.contains_key(&(kind, id)) && self.saved_crc(files, &self.file_name(kind, id)).is_none()
    }

    /// Whether the vector is in memory (mapped).
    pub(super) fn holds(&self, kind: Kind, id: u32) -> bool {
        self.cache.contains_key(&(self.stored(kind).0, id))
    }

    /// Make the vector available: in memory, else from its file, else swept (and saved, named
    /// in `files`). Returns the games played.
    pub(super) fn ensure(
        &mut self,
        files: &mut VectorFiles,
        kind: Kind,
        id: u32,
        obs: &dyn Observer,
    ) -> Result<u64, EqError> {
        let (kind, _) = self.stored(kind);
        if self.cache.contains_key(&(kind, id)) {
            return Ok(0);
        }
        let name = self.file_name(kind, id);
        let path = self.vector_path(&name);
        if let Some(crc) = self.saved_crc(files, &name) {
            let v = self.checked(&path, self.width, crc)?;
            self.cache.insert((kind, id), v);
            return Ok(0);
        }
        let v = self.sweep_vector(kind, id, obs);
        let games = self.ids.len() as u64 * self.def.races() as u64;
        let bytes = self.width.encode(&v);
        fs::create_dir_all(self.dir.join("columns")).map_err(io_err(&self.dir))?;
        write_bytes_atomic(&path, &bytes)?;
        files.vectors.insert(name, crc32fast::hash(&bytes));
        drop(v);
        self.cache.insert((kind, id), Vector::open(&path, self.width).map_err(io_err(&path))?);
        Ok(games)
    }

    /// Forget a vector's map (its file stays).
    pub(super) fn release(&mut self, kind: Kind, id: u32) {
        let (k, _) = self.stored(kind);
        self.cache.remove(&(k, id));
    }

    /// One vector by the parallel sweep: `id` against every family choice, every outcome.
    pub(super) fn sweep_vector(&self, kind: Kind, id: u32, obs: &dyn Observer) -> Vec<i16> {
        let (rules, model, payoff) = (&self.def.rules, self.def.model, self.def.payoff);
        let races = self.def.races() as u64;
        let c = Choice::from_id(id as u64, rules).expect("family member");
        let label = match kind {
            Kind::Col => format!("vs N {id}"),
            Kind::Row => format!("vs S {id}"),
        };
        obs.sweep_start(&label, self.ids.len() as u64 * races);
        let outcomes = model.outcomes().expect("Solver::open refuses models whose outcomes depend on the pair");
        let mut out = vec![0i16; self.ids.len()];
        out.par_chunks_mut(CHUNK).zip(self.choices.par_chunks(CHUNK)).for_each(|(o, ch)| {
            let mut sums = [0i32; CHUNK];
            let add = |i: usize, g: &GameOutcome| sums[i] += payoff.of(g);
            // The games after the openings in batches (the sweep's lanes: less CPU per game
            // than one pair at a time).
            match kind {
                Kind::Col => games_batched(rules, &self.proven, outcomes, ch, |x| (x, &c), add),
                Kind::Row => games_batched(rules, &self.proven, outcomes, ch, |x| (&c, x), add),
            }
            for (slot, &v) in o.iter_mut().zip(&sums) {
                *slot = i16::try_from(v).expect("payoff sums fit i16 (|margin| ≤ 96 half-seeds per outcome)");
            }
            obs.games(ch.len() as u64 * races);
        });
        obs.sweep_end();
        out
    }

    /// The vector (integer units, summed over outcomes) with its sign applied lazily.
    pub(super) fn vector(&self, kind: Kind, id: u32) -> (Values<'_>, f64) {
        let (k, sign) = self.stored(kind);
        (self.cache.get(&(k, id)).expect("ensured").values(), sign)
    }

    /// A member's vector when it is in memory: the column of a North member (`Col`) or the
    /// row of a South member (`Row`), with its sign (a row is a negated column in a
    /// symmetric game).
    pub(super) fn held(&self, kind: Kind, id: u32) -> Option<(Values<'_>, i32)> {
        let (k, sign) = self.stored(kind);
        self.cache.get(&(k, id)).map(|v| (v.values(), sign as i32))
    }

    /// A pass's term for the vector of `id` (ensured), weighed by `w` times its sign.
    pub(super) fn term(&self, kind: Kind, id: u32, w: f64) -> Term<'_> {
        let (k, sign) = self.stored(kind);
        let v = self.cache.get(&(k, id)).expect("ensured");
        Term { values: v.values(), weight: sign * w, mapped: v.mapped() }
    }

    /// A best-reply pass's terms for `mix`: South's mix through its members' rows (scores are
    /// North's gains, `−A`), North's through their columns (South's gains, `A`).
    pub(super) fn side_terms(&self, side: Side, mix: Mix<'_>) -> Vec<Term<'_>> {
        let sign = if side == Side::South { -1.0 } else { 1.0 };
        mix.iter().map(|&(id, w)| self.term(Kind::of(side), id, sign * w)).collect()
    }

    /// The `k` largest distinct values over the family of Σ w·v[p] with their positions,
    /// largest first (equal values: the lowest position), in integer units. Every position
    /// sums the terms one after another, in their order ([`pass::sums`], which also keeps the
    /// page cache from thrashing when the vectors outgrow it).
    pub(super) fn ranked(&self, terms: &[Term<'_>], k: usize) -> Vec<(f64, usize)> {
        self.ranked_keep(terms, k, false).0
    }

    /// [`Store::ranked`], and with `keep` the sums themselves (one per choice of the family:
    /// the score vector `--average-weights optimal` combines).
    pub(super) fn ranked_keep(
        &self,
        terms: &[Term<'_>],
        k: usize,
        keep: bool,
    ) -> (Vec<(f64, usize)>, Option<Vec<f64>>) {
        let sums = pass::sums(self.ids.len(), terms, pass::cache_budget(self.resident));
        let top = sums
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, acc)| top_of(acc, c * CHUNK, k))
            .reduce(Vec::new, |x, y| merge_top(x, y, k));
        (top, keep.then_some(sums))
    }

    /// South's best reply to North's mix `y`: (payoff, choice id).
    pub(super) fn south_best(&self, y: Mix<'_>) -> (f64, u32) {
        self.south_ranked(y, 1)[0]
    }

    /// North's best reply to South's mix `x`: (South's payoff, choice id).
    pub(super) fn north_best(&self, x: Mix<'_>) -> (f64, u32) {
        self.north_ranked(x, 1)[0]
    }

    /// South's `k` best replies to North's mix `y` with distinct payoffs, best first:
    /// (South's payoff, choice id). The first is [`Store::south_best`].
    pub(super) fn south_ranked(&self, y: Mix<'_>, k: usize) -> Vec<(f64, u32)> {
        let terms: Vec<_> = y.iter().map(|&(id, w)| self.term(Kind::Col, id, w)).collect();
        self.ranked(&terms, k).into_iter().map(|(best, p)| (best / self.def.scale(), self.ids[p])).collect()
    }

    /// North's `k` best replies to South's mix `x` with distinct payoffs, best (for North)
    /// first: (South's payoff, choice id).
    pub(super) fn north_ranked(&self, x: Mix<'_>, k: usize) -> Vec<(f64, u32)> {
        let terms: Vec<_> = x.iter().map(|&(id, w)| self.term(Kind::Row, id, -w)).collect();
        self.ranked(&terms, k).into_iter().map(|(best, p)| (-best / self.def.scale(), self.ids[p])).collect()
    }

    /// South's payoff in payoff units for a pair of members, from the column of `n`.
    #[cfg(test)]
    pub(super) fn entry(&self, s: u32, n: u32) -> f64 {
        let (v, sign) = self.vector(Kind::Col, n);
        sign * v.at(self.pos(s)) as f64 / self.def.scale()
    }

    /// One payoff vector's bytes: an entry of the run's width per choice of the family.
    pub fn bytes_per_vector(&self) -> u64 {
        (self.width.bytes() * self.ids.len()) as u64
    }

    /// Bytes of the saved vectors this run holds (mapped, not in RAM): those of `files` that
    /// are here. A state moved to a new machine names vectors that are not (swept again when
    /// needed); they take no disk.
    pub fn vector_bytes(&self, files: &VectorFiles) -> u64 {
        self.held_vectors(files).count() as u64 * self.bytes_per_vector()
    }

    /// The names of the saved vectors this run holds.
    pub(super) fn held_vectors<'a>(&'a self, files: &'a VectorFiles) -> impl Iterator<Item = &'a String> {
        files.vectors.keys().filter(|n| parse_name(n).is_some_and(|k| self.cache.contains_key(&k)))
    }

    /// With a vector budget, forget the saved vectors of members outside `keep` (the mixes'
    /// members, as (kind, id)), least recently used in a mix first (then the lowest name),
    /// until the rest and `coming` more bytes (the next iteration's replies) fit the budget.
    /// Returns the files to delete once the saved state no longer names them.
    pub(super) fn evict(&mut self, files: &mut VectorFiles, keep: &[(Kind, u32)], coming: u64) -> Vec<PathBuf> {
        let Some(budget) = self.budget else { return Vec::new() };
        let over =
            (self.vector_bytes(files) + coming).saturating_sub(budget).div_ceil(self.bytes_per_vector()) as usize;
        if over == 0 {
            return Vec::new();
        }
        let keep: std::collections::HashSet<String> =
            keep.iter().map(|&(kind, id)| self.file_name(self.stored(kind).0, id)).collect();
        let mut victims: Vec<(u32, String)> = (self.held_vectors(files))
            .filter(|n| !keep.contains(*n))
            .map(|n| (files.vector_used.get(n).copied().unwrap_or(0), n.clone()))
            .collect();
        victims.sort();
        victims.truncate(over);
        let mut paths = Vec::with_capacity(victims.len());
        for (_, name) in victims {
            files.vectors.remove(&name);
            files.vector_used.remove(&name);
            if let Some(key) = parse_name(&name) {
                self.cache.remove(&key);
            }
            paths.push(self.vector_path(&name));
        }
        paths
    }

    /// Map (and check) every saved vector of the state whose file is there, so that a corrupt
    /// or truncated one is refused before an iteration starts, whether or not this sitting
    /// needs it (vectors narrowed before a bad one is found stay narrowed: the saved state
    /// names them). Missing ones are swept when needed.
    pub(super) fn load_saved(&mut self, run: &mut RunState) -> Result<(), EqError> {
        self.narrow_saved(run)?;
        for name in run.state.files.vectors.keys().cloned().collect::<Vec<_>>() {
            let (kind, id) = parse_name(&name).expect("checked by narrow_saved");
            if self.vector_path(&name).exists() {
                self.ensure(&mut run.state.files, kind, id, &Quiet)?;
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
    pub(super) fn narrow_saved(&mut self, run: &mut RunState) -> Result<(), EqError> {
        let names: Vec<String> = run.state.files.vectors.keys().cloned().collect();
        let mut retired = Vec::new();
        for name in names {
            let parsed = parse_name(&name);
            if parsed.is_none_or(|(_, id)| self.ids.binary_search(&id).is_err()) {
                return Err(EqError::state(
                    &self.dir.join(STATE_FILE),
                    format!("vectors: `{name}` is not a vector of this family"),
                ));
            }
            let present = self.vector_path(&name).exists();
            let files = &mut run.state.files;
            match Width::of_name(&name) {
                Some(w) if w == self.width => {}
                Some(Width::I16) if present => retired.push(self.narrow(files, &name)?),
                _ if !present => {
                    files.vectors.remove(&name);
                    files.vector_used.remove(&name);
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
                retire(run, &mut retired)?;
            }
        }
        retire(run, &mut retired)?;
        if self.width != Width::I16 {
            // Left by a stop between a save and its deletions: wide files nothing names.
            let columns = self.dir.join("columns");
            if let Ok(entries) = fs::read_dir(&columns) {
                let stale: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok().and_then(|e| e.file_name().into_string().ok()))
                    .filter(|n| Width::of_name(n) == Some(Width::I16) && !run.state.files.vectors.contains_key(n))
                    .map(|n| columns.join(n))
                    .collect();
                // The state does not name them: nothing to save first.
                remove_files(&stale)?;
            }
        }
        Ok(())
    }
}

/// Save the state, then delete the files it no longer names.
fn retire(run: &mut RunState, paths: &mut Vec<PathBuf>) -> Result<(), EqError> {
    if paths.is_empty() {
        return Ok(());
    }
    run.save()?;
    remove_files(paths)?;
    paths.clear();
    Ok(())
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
