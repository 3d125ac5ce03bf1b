//! The double-oracle loop: it owns the run's payoff-vector store ([`Store`]), its state
//! ([`RunState`]), its restricted games ([`Restricted`]) and its options ([`Options`]), and
//! each iteration solves both players' restricted games, refines their mixes against the whole
//! family, answers them (and their averages), logs the iteration and decides when to stop.

mod average;
pub(in crate::opening_game) mod combine;
mod refine;
pub(in crate::opening_game) mod restricted;
mod warm;

use super::observer::Observer;
use super::options::Options;
use super::state::{Certified, IterRecord, RunState, State};
use super::store::{remove_files, Store};
use super::vectors::Kind;
use super::{EqError, OpeningGame};
use crate::input::InputError;
use crate::matrix_game::GameDump;
use crate::side::Side;
use combine::Scores;
use restricted::Restricted;
use serde_json::Value as Json;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Convergence: `upper − lower` at most this, in payoff units (seeds, results, points).
pub const TOLERANCE: f64 = 1e-6;

/// A double-oracle run over one family, its vectors and its state in one directory.
pub struct Solver {
    pub(in crate::opening_game) store: Store,
    pub(in crate::opening_game) run: RunState,
    pub(in crate::opening_game) game: Restricted,
    /// `--average-weights optimal`: the opponent's score vector against each recent mix.
    scores: Scores,
    pub(in crate::opening_game) options: Options,
    /// Seconds of the current iteration in LPs and in best-reply passes.
    lp_time: AtomicU64,
    reply_time: AtomicU64,
    /// Games played by the current iteration, and of them those of its sweeps (already in
    /// the state's total).
    iter_games: u64,
    iter_swept: u64,
}

impl Solver {
    /// [`Solver::open_with`] the default options.
    pub fn open(def: OpeningGame, dir: &Path) -> Result<Solver, EqError> {
        Solver::open_with(def, dir, Options::default())
    }

    /// Check the options and the definition, resolve the family, lock `dir` if it exists
    /// (refused while another run holds it) and load its state if it has one (refusing a
    /// corrupt or foreign one). Writes nothing.
    pub fn open_with(def: OpeningGame, dir: &Path, options: Options) -> Result<Solver, EqError> {
        options.check()?;
        if def.model.outcomes().is_none() {
            let message = format!(
                "`{}` has outcomes that depend on the pair; expected sequential, lockstep, or one outcome: south-first, north-first, lockstep-south, lockstep-north",
                def.model.name()
            );
            return Err(InputError::new("race", message).into());
        }
        let ids = def.family.nonempty_ids(&def.rules, "family")?;
        let identity = def.identity(ids.len());
        let run = RunState::open(dir, identity, &ids)?;
        Ok(Solver {
            store: Store::new(def, ids, dir, options.vector_budget),
            run,
            game: Restricted::default(),
            scores: Scores::default(),
            options,
            lp_time: AtomicU64::new(0),
            reply_time: AtomicU64::new(0),
            iter_games: 0,
            iter_swept: 0,
        })
    }

    /// Warm start: a new run's restricted sets (both players) begin with `seed` (choice ids,
    /// e.g. the support of another family's equilibrium) instead of the family's first choice.
    /// Ids outside the family are skipped; returns how many were taken. Refused once the run
    /// has iterations (the sets are the state's then).
    pub fn seed(&mut self, seed: &[u32]) -> Result<usize, EqError> {
        if !self.run.state.log.is_empty() {
            let message = "the run in --out has iterations already; a seed starts a new run (another --out)";
            return Err(InputError::new("seed", message).into());
        }
        let mut set: Vec<u32> = Vec::new();
        for &id in seed {
            if self.store.ids.binary_search(&id).is_ok() && !set.contains(&id) {
                set.push(id);
            }
        }
        if set.is_empty() {
            return Err(InputError::new("seed", format!("none of its {} choices is in the family", seed.len())).into());
        }
        (self.run.state.south, self.run.state.north) = (set.clone(), set.clone());
        Ok(set.len())
    }

    /// The game: its rules, race model, payoff and family.
    pub fn def(&self) -> &OpeningGame {
        &self.store.def
    }

    /// The family's choice ids, sorted.
    pub fn ids(&self) -> &[u32] {
        &self.store.ids
    }

    /// What the run has found so far.
    pub fn state(&self) -> &State {
        &self.run.state
    }

    pub fn identity(&self) -> &Json {
        self.run.identity()
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// One payoff vector's bytes.
    pub fn bytes_per_vector(&self) -> u64 {
        self.store.bytes_per_vector()
    }

    /// Bytes of the saved vectors this run holds.
    pub fn vector_bytes(&self) -> u64 {
        self.store.vector_bytes(&self.run.state.files)
    }

    /// Bytes one iteration's new vectors take at most: every member whose vector is not saved
    /// yet may enter a support (all of them after a resume on a new machine), and every reply
    /// of both sides; one vector each in a symmetric game, a row and a column otherwise; plus
    /// the state.
    ///
    /// With a vector budget: at most what the budget leaves unused plus the replies' vectors.
    pub fn iteration_bytes(&self) -> u64 {
        let st = &self.run.state;
        let unsaved = |kind: Kind, set: &[u32]| set.iter().filter(|&&id| !self.store.holds(kind, id)).count() as u64;
        let missing = if self.store.def.symmetric() {
            unsaved(Kind::Col, &st.north)
        } else {
            unsaved(Kind::Col, &st.north) + unsaved(Kind::Row, &st.south)
        };
        let per = self.store.bytes_per_vector();
        let returning = match self.store.budget {
            Some(b) => (missing * per).min(b.saturating_sub(self.vector_bytes())),
            None => missing * per,
        };
        returning + self.reply_bytes() + (1 << 20)
    }

    /// Bytes of the vectors of one iteration's new members (every reply of both sides; a row
    /// and a column each unless the game is symmetric).
    fn reply_bytes(&self) -> u64 {
        let kinds = if self.store.def.symmetric() { 1 } else { 2 };
        let replies = self.options.replies.max(1) + usize::from(self.options.average > 1);
        2 * replies as u64 * kinds * self.store.bytes_per_vector()
    }

    /// Refuse to start an iteration whose vectors may not fit on the disk of `--out`: the run
    /// stops between iterations with its state whole instead of failing inside a write.
    fn check_space(&self) -> Result<(), EqError> {
        match crate::store::space::shortfall(&self.store.dir, self.iteration_bytes()) {
            Some(why) => Err(InputError::new("out", format!("{why} (one iteration's payoff vectors)")).into()),
            None => Ok(()),
        }
    }

    /// The duality gap this iteration's restricted games are solved to: `--restricted-gap`,
    /// but 0 (exact) after an iteration that added no member, whose approximate mixes no
    /// reply beat by more than the gap. Read from the state, so a resumed run decides alike.
    pub(in crate::opening_game) fn gap_now(&self) -> f64 {
        if self.run.state.stuck() {
            0.0
        } else {
            self.options.restricted_gap
        }
    }

    /// Create the directory and take its lock (once), rereading the state.
    pub(in crate::opening_game) fn hold(&mut self) -> Result<(), EqError> {
        self.run.hold(&self.store.ids)
    }

    /// Make a vector available ([`Store::ensure`]), its file named in the state.
    pub(in crate::opening_game) fn ensure(&mut self, kind: Kind, id: u32, obs: &dyn Observer) -> Result<u64, EqError> {
        self.store.ensure(&mut self.run.state.files, kind, id, obs)
    }

    /// The vectors of a mix's members (South's rows or North's columns), swept if not saved.
    /// After a sweep the state is saved (the last iteration's, with the new vectors'
    /// checksums) once the last save is old enough ([`RunState::save_throttled`]): a resume's
    /// first iteration may sweep hundreds, and a run stopped inside it keeps them.
    pub(in crate::opening_game) fn ensure_mix(
        &mut self,
        kind: Kind,
        mix: &[(u32, f64)],
        obs: &dyn Observer,
    ) -> Result<(), EqError> {
        let iteration = self.run.state.log.len() as u32 + 1;
        let due = mix.iter().filter(|&&(id, _)| self.store.needs_sweep(&self.run.state.files, kind, id)).count();
        let mut swept = 0;
        for &(id, _) in mix {
            let games = self.ensure(kind, id, obs)?;
            let name = self.store.file_name(self.store.stored(kind).0, id);
            let st = &mut self.run.state;
            if st.files.vectors.contains_key(&name) {
                st.files.vector_used.insert(name, iteration);
            }
            if games > 0 {
                // Counted in the state's total now, so a saved stop before the iteration ends
                // loses none (an unsaved one sweeps the vector again and counts it then).
                st.games += games;
                self.iter_swept += games;
                self.run.save_throttled()?;
                swept += 1;
                obs.mix_swept(kind.side(), swept, due);
            }
            self.iter_games += games;
        }
        Ok(())
    }

    /// Delete what the last iteration's end deletes after its save: score vectors and LP
    /// optima of older iterations.
    fn prune(&mut self) -> Result<(), EqError> {
        let anchored = self.options.average_weights == super::options::Weights::Anchored;
        self.scores.prune(&self.store.dir, &self.run.state, anchored)?;
        warm::prune(&self.store.dir, self.run.state.log.len())
    }

    /// Run iterations until converged or a limit is reached; the state is saved after each.
    pub fn run(&mut self, obs: &dyn Observer) -> Result<(), EqError> {
        let start = Instant::now();
        let stop = self.options.stop;
        self.hold()?;
        self.store.load_saved(&mut self.run)?;
        self.game.load_warm(&self.store.dir, self.run.state.log.len());
        // What the last iteration's end deletes after its save: a stop in between left it
        // (the resumed run of a finished state would otherwise keep it for good).
        self.prune()?;
        while !self.run.state.done {
            if stop.max_iterations.is_some_and(|m| self.run.state.log.len() as u32 >= m)
                || stop.seconds.is_some_and(|s| start.elapsed().as_secs_f64() >= s)
            {
                break;
            }
            self.check_space()?;
            self.iterate(obs)?;
        }
        Ok(())
    }

    /// Write the restricted game the next iteration solves (a finished run's last one) to
    /// `path` as a [`GameDump`] (docs/equilibrium.md): South's payoffs (payoff units) over the
    /// state's sets, South's members the rows and North's the columns, with the supports
    /// South's LP would start from. The entries come as an iteration's do: from the saved
    /// vectors (checked, or swept again, as a resumed run's), the rest played. Takes the
    /// directory's lock and iterates nothing. Refused without a state in the directory.
    pub fn dump_lp(&mut self, path: &Path) -> Result<GameDump, EqError> {
        let state = self.store.dir.join(super::STATE_FILE);
        if !state.exists() {
            let message = format!("{}: no run state to dump the restricted game of", state.display());
            return Err(InputError::new("out", message).into());
        }
        self.hold()?;
        self.store.load_saved(&mut self.run)?;
        let st = &self.run.state;
        let (s_set, n_set) = (st.south.clone(), st.north.clone());
        let hints = (&st.south_strategy[..], &st.north_strategy[..]);
        let lp = self.game.lp(&self.store, Side::South, &s_set, &n_set, &n_set, hints, 0.0, &self.options);
        let dump = GameDump { rows: lp.rows, cols: lp.cols, rows0: lp.rows0, cols0: lp.cols0, a: lp.a };
        super::write_bytes_atomic(path, &dump.to_bytes())?;
        Ok(dump)
    }

    fn iterate(&mut self, obs: &dyn Observer) -> Result<(), EqError> {
        let t0 = Instant::now();
        let approx = self.gap_now() > 0.0;
        self.lp_time.store(0, Relaxed);
        self.reply_time.store(0, Relaxed);
        self.iter_games = 0;
        self.iter_swept = 0;
        let (s_set, n_set) = (self.run.state.south.clone(), self.run.state.north.clone());
        // South's mix over S against every North choice (its members' rows know them all).
        let (s_mix, n_mix) = (self.run.state.south_strategy.clone(), self.run.state.north_strategy.clone());
        // An asymmetric game's two first LPs are independent: solved side by side (the
        // sweeps that follow use every core; the LPs, one core each, would leave one idle).
        let (mut s_first, mut n_first) = (None, None);
        if !self.store.def.symmetric() {
            let (store, gap, options) = (&self.store, self.gap_now(), &self.options);
            let mut lp_s = self.game.lp(store, Side::South, &s_set, &n_set, &n_set, (&s_mix, &n_mix), gap, options);
            let mut lp_n = self.game.lp(store, Side::North, &n_set, &s_set, &s_set, (&n_mix, &s_mix), gap, options);
            let t = Instant::now();
            let (a, b) = rayon::join(|| lp_s.solve(), || lp_n.solve());
            self.lp_time.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
            self.game.keep_warm(Side::South, &mut lp_s, self.options.cuts);
            self.game.keep_warm(Side::North, &mut lp_n, self.options.cuts);
            (s_first, n_first) = (Some(a?), Some(b?));
        }
        let south = self.refine(Side::South, &s_set, &n_set, (&s_mix, &n_mix), s_first, obs)?;
        let (lower, x, n_br, n_plain) = (south.guarantee, south.mix.clone(), south.reply, south.first_reply);
        let n_more = south.more();
        let (upper, y, s_br, s_plain, s_more);
        let mut north_scores = None;
        if self.store.def.symmetric() {
            // S = N and A = −Aᵀ: South's optimal mix is North's too, and North's best reply
            // to it mirrors South's: upper = −lower, one sweep serves both.
            (upper, y, s_br, s_plain, s_more) = (-lower, x.clone(), n_br, n_plain, n_more.clone());
        } else {
            let north = self.refine(Side::North, &n_set, &s_set, (&n_mix, &s_mix), n_first, obs)?;
            s_more = north.more();
            north_scores = north.scores;
            (upper, y, s_br, s_plain) = (-north.guarantee, north.mix, north.reply, north.first_reply);
        }
        let restricted_value = south.first_value;
        if let Some(scores) = south.scores {
            self.scores.keep(&self.store.dir, Side::South, &x, scores)?;
        }
        if let Some(scores) = north_scores {
            self.scores.keep(&self.store.dir, Side::North, &y, scores)?;
        }
        // The average of the last mixes (`--average`), answered like the LP's mix.
        let avg = self.answer_average(&x, &y, restricted_value, obs)?;
        let n_more: Vec<u32> = avg.north_replies.iter().copied().chain(n_more).collect();
        let s_more: Vec<u32> = avg.south_replies.iter().copied().chain(s_more).collect();
        let games = self.iter_games;
        let freed = self.evict(&x, &y);
        let held = self.store.held_vectors(&self.run.state.files).count();
        let seconds = t0.elapsed().as_secs_f64();
        let st = &mut self.run.state;
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
        let k = self.options.replies.max(1);
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
        } else if self.store.def.symmetric() {
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
        st.remember(self.options.average, self.store.def.symmetric(), &x, &y);
        st.south_strategy = x;
        st.north_strategy = y;
        st.log.push(rec.clone());
        let done = st.log.len();
        self.game.save_warm(&self.store.dir, done)?;
        self.run.save()?;
        // After the save: a stop in between leaves files the state does not name (swept
        // again, to the same bytes, if ever needed), never a state naming a missing file.
        remove_files(&freed)?;
        self.prune()?;
        obs.iteration(&rec);
        Ok(())
    }

    /// With a vector budget, delete the saved vectors of members outside this iteration's
    /// mixes `x` (South's, through rows) and `y` (North's, through columns), and outside the
    /// mixes the next averages take in (`--average`) unless those are weighed by their score
    /// vectors, which need no vector ([`Store::evict`]).
    fn evict(&mut self, x: &[(u32, f64)], y: &[(u32, f64)]) -> Vec<std::path::PathBuf> {
        let st = &self.run.state;
        let uniform = !self.options.average_weights.by_scores();
        let recent = |r: &[Vec<(u32, f64)>], kind| -> Vec<(Kind, u32)> {
            r.iter().flatten().filter(|_| uniform).map(|&(id, _)| (kind, id)).collect()
        };
        let keep: Vec<(Kind, u32)> = (x.iter().map(|&(id, _)| (Kind::Row, id)))
            .chain(y.iter().map(|&(id, _)| (Kind::Col, id)))
            .chain(recent(&st.recent_south, Kind::Row))
            .chain(recent(&st.recent_north, Kind::Col))
            .collect();
        let coming = self.reply_bytes();
        self.store.evict(&mut self.run.state.files, &keep, coming)
    }
}
