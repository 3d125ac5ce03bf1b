//! The double-oracle loop: restricted sets, their LP mixes refined against the whole family,
//! both best replies, the iteration log, and when to stop.

mod average;
pub(in crate::opening_game) mod combine;
mod disk;
mod refine;
mod restricted;
mod warm;

pub use combine::Weights;

use super::state::{read_state, write_state, Certified, State, STATE_FILE};
use super::vectors::{Kind, Width};
use super::{EqError, OpeningGame};
use crate::games::lukho::{Choice, ProvenCycles};
use crate::sweep::InputError;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// Convergence: `upper − lower` at most this, in payoff units (seeds, results, points).
pub const TOLERANCE: f64 = 1e-6;

/// A sweep inside an iteration saves the state only when the last save is at least this old.
/// The save keeps the sweeps of an iteration a stop interrupts (a resume's first iteration on a
/// new machine may sweep hundreds of vectors, about 3 s each on the full game: saved every ten
/// or so), but it rewrites and syncs the whole state, log included: on a small family, where a
/// sweep takes a millisecond and every member is swept, a save after each one cost more than
/// the sweeps. Unsaved, a stop loses at most this much sweeping (the vector files written
/// meanwhile are not in the state; they are swept again, to the same bytes).
const SAVE_AFTER: std::time::Duration = std::time::Duration::from_secs(30);

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

/// Progress reports; every method has a silent default.
pub trait Observer: Sync {
    /// A vector sweep of `games` games starts.
    fn sweep_start(&self, _label: &str, _games: u64) {}
    fn games(&self, _n: u64) {}
    fn sweep_end(&self) {}
    /// Of a mix's `due` vectors to sweep (its members neither in memory nor saved), `done`
    /// are swept: a resume on a machine without the vectors sweeps thousands, 1–2 s each.
    /// `side`: "South" (a mix of rows) or "North" (of columns).
    fn mix_swept(&self, _side: &str, _done: usize, _due: usize) {}
    fn iteration(&self, _r: &IterRecord) {}
}

pub struct Quiet;
impl Observer for Quiet {}

/// When to stop before convergence.
#[derive(Clone, Copy, Debug, Default)]
pub struct StopAt {
    /// Stop once the log holds this many iterations (over all resumed runs).
    pub max_iterations: Option<u32>,
    /// Start no new iteration after this many seconds of this invocation.
    pub seconds: Option<f64>,
}

/// A mix over choice ids: (id, weight).
type Mix<'a> = &'a [(u32, f64)];

/// The lock file of a run's directory (`.equilibrium.lock`).
const LOCK: &str = "equilibrium";

/// A double-oracle run over one family, its vectors and its state in `dir`.
pub struct Solver {
    pub def: OpeningGame,
    pub ids: Vec<u32>,
    pub(super) choices: Vec<Choice>,
    pub(super) dir: PathBuf,
    pub(super) cache: HashMap<(Kind, u32), super::vectors::Vector>,
    /// How wide the saved vectors' entries are ([`Width::of`] the definition).
    pub(super) width: Width,
    pub state: State,
    pub(super) identity: Json,
    /// Opposing best replies a mix may be refined against per iteration, beyond the
    /// restricted set (0: plain double oracle). More cuts give better bounds per sweep at the
    /// price of LPs; worth it when sweeps are expensive and sets small.
    pub cuts: usize,
    /// Best replies added per side and iteration (at least 1): the best one, then the next
    /// best with distinct payoffs against the mix that beat the restricted value. One pass
    /// over the family ranks them all, so more replies cost only their vectors' sweeps.
    pub replies: usize,
    /// Mixes averaged per side (`--average K`; 0 or 1: off): each iteration the average of
    /// its LP mix and the `K − 1` before it is answered too ([`average`]).
    pub average: usize,
    /// Of the `replies` candidates per side, how many may come from the averaged mix's ranked
    /// best replies (`--average-replies R`, at least 1; the rest from the LP mix's), which go
    /// first.
    pub average_replies: usize,
    /// How the average weighs the mixes (`--average-weights`; [`Weights`]).
    pub average_weights: Weights,
    /// `--average-weights optimal`: the opponent's score vector against each recent mix, by
    /// (South's mix, [`combine::key`]).
    pub(super) mix_scores: HashMap<(bool, u64), Vec<f64>>,
    /// `--restricted-gap G` (payoff units; 0: exact): the restricted games are solved by
    /// regret matching⁺ to a duality gap of `G` instead of exactly by the simplex, except in
    /// an iteration after one that added no member (so a run still ends exact). The mixes
    /// are certified over the whole family either way; on the full `lockstep` run's 10,721
    /// members the exact LP took ~850 s an iteration, `G` = 0.01 seeds 39 s.
    pub restricted_gap: f64,
    /// `--lp-trace`: a line on stderr per start and constraint-generation round of each
    /// restricted LP (its size and pivots), one per regret-matching⁺ solve. Only reports.
    pub lp_trace: bool,
    /// Each player's last restricted LP's optimum (North's, South's), the next LP's start.
    pub(super) lp_warm: [Option<crate::matrix_game::Warm>; 2],
    /// Page-cache bytes a best-reply pass may keep its vectors in (`None`: what the machine
    /// has when the pass starts, [`super::pass`]); tests set it to stream every vector.
    pub(in crate::opening_game) resident: Option<u64>,
    /// Bytes the saved vectors may take (`None`: keep them all). At the end of each iteration
    /// the vectors of members outside its mixes are deleted, least recently used in a mix
    /// first, until the rest and the next iteration's replies fit; a deleted member that
    /// enters a mix again is swept again (to the same bytes); meanwhile its restricted-game
    /// entries come from [`Solver::read`] (or, after a resume, are played pairwise).
    pub vector_budget: Option<u64>,
    /// Perpetual cycles proven by this run's sweeps, shared by all of them.
    pub(super) proven: ProvenCycles,
    /// The directory's one-writer lock, held from before the state is read until the run
    /// ends (taken when the run starts writing if the directory did not exist at `open`).
    lock: Option<crate::store::DirLock>,
    /// Seconds of the current iteration in LPs and in best-reply passes.
    lp_time: std::sync::atomic::AtomicU64,
    reply_time: std::sync::atomic::AtomicU64,
    /// South's payoff (integer units, summed over the outcomes) of pairs of choices played so
    /// far: the restricted LPs' entries that no swept vector holds. A member's vector is swept
    /// only once the member enters a mix whose best reply is computed (on the full game a third
    /// of the sets do), so the others' entries are played pairwise; an entry one of its two
    /// members' vectors holds is read from it (see [`Solver::restricted`]).
    pub(super) pairs: FxHashMap<(u32, u32), i32>,
    /// The restricted LPs' entries read from vectors so far, kept so that each is read once
    /// per sitting. Rebuilding the matrix from the vectors every iteration touched a page of
    /// nearly every saved vector (|S|·|N| random reads, twice): once the vectors outgrew the
    /// page cache (30 GB on a 24 GiB machine, full `south-first` at 1,570 members) that read
    /// 25 GB from disk per iteration and made iterations 6× slower. A member's entries also
    /// survive its vector's deletion for the budget.
    pub(super) read: FxHashMap<(u32, u32), i32>,
    /// When this run last wrote the state (or opened it): a sweep saves the state only when
    /// the last save is `save_after` ([`SAVE_AFTER`]; tests change it) old.
    saved: Instant,
    pub(super) save_after: std::time::Duration,
    /// Games played by the current iteration, and of them those of its sweeps (already in
    /// the state's total).
    iter_games: u64,
    iter_swept: u64,
}

impl Solver {
    /// Check the definition, resolve the family, lock `dir` if it exists (refused while another
    /// run holds it) and load its state if it has one (refusing a corrupt or foreign one).
    /// Writes nothing.
    pub fn open(def: OpeningGame, dir: &Path) -> Result<Solver, EqError> {
        if def.model.outcomes().is_none() {
            let message = format!(
                "`{}` has outcomes that depend on the pair; expected sequential, lockstep, or one outcome: south-first, north-first, lockstep-south, lockstep-north",
                def.model.name()
            );
            return Err(InputError::new("race", message).into());
        }
        let ids = def.family.nonempty_ids(&def.rules, "family")?;
        let choices = crate::sweep::spec::choices(&ids, &def.rules);
        let identity = def.identity(ids.len());
        let width = Width::of(&def);
        let lock = if dir.is_dir() { Some(crate::store::DirLock::acquire(dir, LOCK)?) } else { None };
        let mut solver = Solver {
            def,
            ids,
            choices,
            dir: dir.to_path_buf(),
            cache: HashMap::new(),
            width,
            state: State::default(),
            identity,
            cuts: 0,
            replies: 1,
            average: 0,
            average_replies: 1,
            average_weights: Weights::Uniform,
            restricted_gap: 0.0,
            lp_trace: false,
            mix_scores: HashMap::new(),
            lp_warm: [None, None],
            vector_budget: None,
            resident: None,
            proven: ProvenCycles::new(),
            lock,
            lp_time: Default::default(),
            reply_time: Default::default(),
            pairs: FxHashMap::default(),
            read: FxHashMap::default(),
            saved: Instant::now(),
            save_after: SAVE_AFTER,
            iter_games: 0,
            iter_swept: 0,
        };
        if !solver.load_state()? {
            // Both players start with the family's first choice.
            solver.state.south = vec![solver.ids[0]];
            solver.state.north = vec![solver.ids[0]];
        }
        Ok(solver)
    }

    /// Warm start: a new run's restricted sets (both players) begin with `seed` (choice ids,
    /// e.g. the support of another family's equilibrium) instead of the family's first choice.
    /// Ids outside the family are skipped; returns how many were taken. Refused once the run
    /// has iterations (the sets are the state's then).
    pub fn seed(&mut self, seed: &[u32]) -> Result<usize, EqError> {
        if !self.state.log.is_empty() {
            let message = "the run in --out has iterations already; a seed starts a new run (another --out)";
            return Err(InputError::new("seed", message).into());
        }
        let mut set: Vec<u32> = Vec::new();
        for &id in seed {
            if self.ids.binary_search(&id).is_ok() && !set.contains(&id) {
                set.push(id);
            }
        }
        if set.is_empty() {
            return Err(InputError::new("seed", format!("none of its {} choices is in the family", seed.len())).into());
        }
        (self.state.south, self.state.north) = (set.clone(), set.clone());
        Ok(set.len())
    }

    pub fn identity(&self) -> &Json {
        &self.identity
    }

    /// South's best reply to North's mix `y` (over `north`): (payoff, choice id).
    pub(super) fn south_best(&self, y: &[(u32, f64)]) -> (f64, u32) {
        self.south_ranked(y, 1)[0]
    }

    /// North's best reply to South's mix `x`: (South's payoff, choice id).
    pub(super) fn north_best(&self, x: &[(u32, f64)]) -> (f64, u32) {
        self.north_ranked(x, 1)[0]
    }

    /// South's `k` best replies to North's mix `y` with distinct payoffs, best first:
    /// (South's payoff, choice id). The first is [`Solver::south_best`].
    pub(super) fn south_ranked(&self, y: &[(u32, f64)], k: usize) -> Vec<(f64, u32)> {
        let terms: Vec<_> = y.iter().map(|&(id, w)| self.term(Kind::Col, id, w)).collect();
        self.ranked(&terms, k).into_iter().map(|(best, p)| (best / self.def.scale(), self.ids[p])).collect()
    }

    /// North's `k` best replies to South's mix `x` with distinct payoffs, best (for North)
    /// first: (South's payoff, choice id).
    pub(super) fn north_ranked(&self, x: &[(u32, f64)], k: usize) -> Vec<(f64, u32)> {
        let terms: Vec<_> = x.iter().map(|&(id, w)| self.term(Kind::Row, id, -w)).collect();
        self.ranked(&terms, k).into_iter().map(|(best, p)| (-best / self.def.scale(), self.ids[p])).collect()
    }

    /// South's payoff in payoff units for a pair of restricted members, from the column of `n`.
    #[cfg(test)]
    pub(super) fn entry(&self, s: u32, n: u32) -> f64 {
        let (v, sign) = self.vector(Kind::Col, n);
        sign * v.at(self.pos(s)) as f64 / self.def.scale()
    }

    /// The vectors of a mix's members (South's rows or North's columns), swept if not saved.
    /// After a sweep the state is saved (the last iteration's, with the new vectors'
    /// checksums) once the last save is [`SAVE_AFTER`] old: a resume's first iteration may
    /// sweep hundreds, and a run stopped inside it keeps them.
    pub(super) fn ensure_mix(&mut self, kind: Kind, mix: &[(u32, f64)], obs: &dyn Observer) -> Result<(), EqError> {
        let iteration = self.state.log.len() as u32 + 1;
        let due = mix.iter().filter(|&&(id, _)| self.needs_sweep(kind, id)).count();
        let mut swept = 0;
        for &(id, _) in mix {
            let games = self.ensure(kind, id, obs)?;
            let name = self.file_name(self.stored(kind).0, id);
            if self.state.vectors.contains_key(&name) {
                self.state.vector_used.insert(name, iteration);
            }
            if games > 0 {
                // Counted in the state's total now, so a saved stop before the iteration ends
                // loses none (an unsaved one sweeps the vector again and counts it then).
                self.state.games += games;
                self.iter_swept += games;
                self.save_throttled()?;
                swept += 1;
                obs.mix_swept(kind.side(), swept, due);
            }
            self.iter_games += games;
        }
        Ok(())
    }

    /// Create the directory and take its lock (once), then reread the state another run may
    /// have written there since [`Solver::open`] found no directory.
    pub(super) fn hold(&mut self) -> Result<(), EqError> {
        if self.lock.is_some() {
            return Ok(());
        }
        // A directory that cannot be created (a parent on a read-only or virtual file system, no
        // permission) is the caller's path to fix, not a failed write.
        fs::create_dir_all(&self.dir)
            .map_err(|e| InputError::new("out", format!("cannot create the directory {}: {e}", self.dir.display())))?;
        self.lock = Some(crate::store::DirLock::acquire(&self.dir, LOCK)?);
        self.load_state().map(drop)
    }

    /// Save the state after a sweep when the last save is [`SAVE_AFTER`] old (a save
    /// rewrites and syncs the whole state: after every millisecond sweep of a small family
    /// it would cost more than the sweeps).
    pub(super) fn save_throttled(&mut self) -> Result<(), EqError> {
        if self.saved.elapsed() >= self.save_after {
            self.save()?;
        }
        Ok(())
    }

    /// Write the state file (atomically, synced).
    pub(super) fn save(&mut self) -> Result<(), EqError> {
        write_state(&self.dir.join(STATE_FILE), &self.identity, &self.state)?;
        self.saved = Instant::now();
        Ok(())
    }

    /// Load the state file of the run's directory if there is one (false when there is none),
    /// refusing a corrupt or foreign one and one whose members are not in the family.
    fn load_state(&mut self) -> Result<bool, EqError> {
        let path = self.dir.join(STATE_FILE);
        if !path.exists() {
            return Ok(false);
        }
        self.state = read_state(&path, &self.identity)?;
        self.state.check_members(&path, &self.ids)?;
        self.state.seed_certificate();
        Ok(true)
    }

    /// Run iterations until converged or a limit is reached; the state is saved after each.
    pub fn run(&mut self, stop: StopAt, obs: &dyn Observer) -> Result<(), EqError> {
        let start = Instant::now();
        self.hold()?;
        self.load_saved()?;
        self.load_warm();
        // What the last iteration's end deletes after its save: a stop in between left it
        // (the resumed run of a finished state would otherwise keep it for good).
        self.prune_scores()?;
        self.prune_warm(self.state.log.len())?;
        while !self.state.done {
            if stop.max_iterations.is_some_and(|m| self.state.log.len() as u32 >= m)
                || stop.seconds.is_some_and(|s| start.elapsed().as_secs_f64() >= s)
            {
                break;
            }
            self.check_space()?;
            self.iterate(obs)?;
        }
        Ok(())
    }

    fn iterate(&mut self, obs: &dyn Observer) -> Result<(), EqError> {
        let t0 = Instant::now();
        let approx = self.gap_now() > 0.0;
        self.lp_time.store(0, Relaxed);
        self.reply_time.store(0, Relaxed);
        self.iter_games = 0;
        self.iter_swept = 0;
        let (s_set, n_set) = (self.state.south.clone(), self.state.north.clone());
        // South's mix over S against every North choice (its members' rows know them all).
        let (s_mix, n_mix) = (self.state.south_strategy.clone(), self.state.north_strategy.clone());
        // An asymmetric game's two first LPs are independent: solved side by side (the
        // sweeps that follow use every core; the LPs, one core each, would leave one idle).
        let (mut s_first, mut n_first) = (None, None);
        if !self.def.symmetric() {
            let mut lp_s = self.lp(true, &s_set, &n_set, &n_set, (&s_mix, &n_mix));
            let mut lp_n = self.lp(false, &n_set, &s_set, &s_set, (&n_mix, &s_mix));
            let t = Instant::now();
            let (a, b) = rayon::join(|| lp_s.solve(), || lp_n.solve());
            self.lp_time.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
            self.keep_warm(true, &mut lp_s);
            self.keep_warm(false, &mut lp_n);
            (s_first, n_first) = (Some(a?), Some(b?));
        }
        let south = self.refine(true, &s_set, &n_set, (&s_mix, &n_mix), s_first, obs)?;
        let (lower, x, n_br, n_plain) = (south.guarantee, south.mix.clone(), south.reply, south.first_reply);
        let n_more = south.more();
        let (upper, y, s_br, s_plain, s_more);
        let mut north_scores = None;
        if self.def.symmetric() {
            // S = N and A = −Aᵀ: South's optimal mix is North's too, and North's best reply
            // to it mirrors South's: upper = −lower, one sweep serves both.
            (upper, y, s_br, s_plain, s_more) = (-lower, x.clone(), n_br, n_plain, n_more.clone());
        } else {
            let north = self.refine(false, &n_set, &s_set, (&n_mix, &s_mix), n_first, obs)?;
            s_more = north.more();
            north_scores = north.scores;
            (upper, y, s_br, s_plain) = (-north.guarantee, north.mix, north.reply, north.first_reply);
        }
        let restricted_value = south.first_value;
        if let Some(scores) = south.scores {
            self.keep_scores(true, &x, scores)?;
        }
        if let Some(scores) = north_scores {
            self.keep_scores(false, &y, scores)?;
        }
        // The average of the last mixes (`--average`), answered like the LP's mix.
        let avg = self.answer_average(&x, &y, restricted_value, obs)?;
        let n_more: Vec<u32> = avg.north_replies.iter().copied().chain(n_more).collect();
        let s_more: Vec<u32> = avg.south_replies.iter().copied().chain(s_more).collect();
        let games = self.iter_games;
        let freed = self.evict(&x, &y);
        let held = self.held_vectors().count();
        let seconds = t0.elapsed().as_secs_f64();
        let st = &mut self.state;
        st.games += games - self.iter_swept;
        // The iteration's games from the totals, not from this sitting's count: a sitting
        // stopped inside the iteration may have swept (and counted) some of its vectors, and
        // the resumed iteration then records what an uninterrupted one does.
        let games = st.games - st.log.last().map_or(0, |r| r.total_games);
        st.seconds += seconds;
        // Every iteration's mixes are genuine strategies evaluated over the whole family, so
        // the run's certificate is the best of each side seen so far.
        let iteration = st.log.len() as u32 + 1;
        if st.best_south.as_ref().is_none_or(|b| lower > b.bound) {
            st.best_south = Some(Certified { bound: lower, iteration, mix: x.clone() });
        }
        if st.best_north.as_ref().is_none_or(|b| upper < b.bound) {
            st.best_north = Some(Certified { bound: upper, iteration, mix: y.clone() });
        }
        let (average_lower, average_upper) = (avg.lower(), avg.upper());
        avg.certify(st, iteration);
        let (best_lower, best_upper) = st.certified();
        let rec = IterRecord {
            iteration,
            south_size: st.south.len(),
            north_size: st.north.len(),
            south_support: x.len(),
            north_support: y.len(),
            restricted_value,
            lower,
            upper,
            south_best_response: s_br,
            north_best_response: n_br,
            games,
            total_games: st.games,
            seconds,
            total_seconds: st.seconds,
            vectors: held,
            deleted: freed.len(),
            lp_seconds: self.lp_time.load(Relaxed) as f64 / 1e9,
            reply_seconds: self.reply_time.load(Relaxed) as f64 / 1e9,
            best_lower: Some(best_lower),
            best_upper: Some(best_upper),
            average_lower,
            average_upper,
        };
        // The best reply to the refined mix, else (as plain double oracle) to the restricted
        // game's mix, whichever is new.
        // Then up to `replies − 1` more replies that beat the restricted game's value.
        let k = self.replies.max(1);
        let pick = |set: &[u32], a: u32, b: u32, more: &[u32]| {
            let mut add: Vec<u32> = [a, b].into_iter().find(|c| !set.contains(c)).into_iter().collect();
            for &c in more {
                if add.len() >= k {
                    break;
                }
                if !set.contains(&c) && !add.contains(&c) {
                    add.push(c);
                }
            }
            add
        };
        let add_s = pick(&st.south, s_br, s_plain, &s_more);
        let add_n = pick(&st.north, n_br, n_plain, &n_more);
        if best_upper - best_lower <= TOLERANCE {
            st.done = true;
        } else if add_s.is_empty() && add_n.is_empty() {
            // Mixes solved only to `--restricted-gap`: the next iteration solves the same sets
            // exactly ([`Solver::gap_now`]) before the run may call itself stalled.
            if !approx {
                st.done = true;
                st.stalled = true;
            }
        } else if self.def.symmetric() {
            // One set: both players' candidates go into it.
            for c in add_s.into_iter().chain(add_n) {
                if !st.south.contains(&c) {
                    st.south.push(c);
                    st.north.push(c);
                }
            }
        } else {
            st.south.extend(add_s);
            st.north.extend(add_n);
        }
        average::remember(st, self.average, self.def.symmetric(), &x, &y);
        st.south_strategy = x;
        st.north_strategy = y;
        st.log.push(rec.clone());
        let done = st.log.len();
        self.save_warm(done)?;
        self.save()?;
        // After the save: a stop in between leaves files the state does not name (swept
        // again, to the same bytes, if ever needed), never a state naming a missing file.
        disk::remove_files(&freed)?;
        self.prune_scores()?;
        self.prune_warm(done)?;
        obs.iteration(&rec);
        Ok(())
    }
}
