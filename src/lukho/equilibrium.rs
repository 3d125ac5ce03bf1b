//! The Lukho opening as a simultaneous zero-sum game, solved by DOUBLE ORACLE with an
//! exploitability certificate (DESIGN.md `mancala lukho equilibrium`, issue 5).
//!
//! Each player picks one choice of the family (all 6,356,992 by default); the payoff to South
//! is the mean over the race outcomes of the model (equal weights; one outcome when it is
//! fixed) of `margin` (South − North seeds), `result` (+1/0/−1) or `points` (match points of a
//! first game, South's minus North's).
//!
//! Double oracle keeps restricted sets `S` (South) and `N` (North), solves the restricted
//! matrix game by LP ([`super::lp`]), then computes each player's best response to the
//! other's mixed strategy over the WHOLE family and adds it, until neither gains:
//!
//! - `upper` = max over all South choices of the payoff against North's mix `y`,
//! - `lower` = min over all North choices of the payoff of South's mix `x`,
//!
//! so the game's value lies in `[lower, upper]` whatever the LP's rounding (the mixes are
//! genuine strategies and the bounds are evaluated directly). Converged (`exact`) means
//! `upper − lower <= TOLERANCE`.
//!
//! Work: every payoff is an integer (half-seeds for `margin`, summed over the race outcomes),
//! so for each member of `N` we keep its *column* `A(·, n)` over the whole family as `i16`,
//! and for each member of `S` its *row* `A(s, ·)`. A new member costs one sweep of
//! `|family| × outcomes` games (the sweep's per-pair evaluation, [`super::sweep::play_pair`]);
//! a best response is then a weighted sum of cached vectors. Vectors are saved next to the
//! state, so a resumed run replays nothing. When the model's outcomes come in mirrored pairs
//! (`sequential`, `lockstep`) the game is symmetric, `A(s, n) = −A(n, s)`, its value is 0,
//! and a row is the negated column of the same choice: one vector serves both players. There
//! the restricted sets stay equal (`S = N`), South's optimal mix is North's too, and North's
//! best reply mirrors South's, so an iteration costs one sweep.

use super::lp::{maximiser, LpError};
use super::spec::{Spec, SpecError};
use super::sweep::{play_pair, Model};
use crate::games::lukho::{Choice, GameOutcome, ProvenCycles, Rules};
use crate::side::Side;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Convergence: `upper − lower` at most this, in payoff units (seeds, results, points).
pub const TOLERANCE: f64 = 1e-6;

pub const STATE_MAGIC: &str = "mancala-lukho-equilibrium-state";
pub const STATE_FORMAT: u64 = 1;
pub const STATE_FILE: &str = "state.lukho-eq";
pub const ANSWER_FILE: &str = "equilibrium.json";

/// What a game is worth to South.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payoff {
    /// South − North final totals (cycles split), in seeds.
    Margin,
    /// +1 South wins, 0 draw, −1 North wins.
    Result,
    /// Match points of a first game of a series, South's minus North's.
    Points,
}

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("payoff: `{0}` is not a payoff; expected margin, result or points")]
pub struct PayoffError(pub String);

impl Payoff {
    pub fn parse(s: &str) -> Result<Payoff, PayoffError> {
        match s.trim() {
            "margin" => Ok(Payoff::Margin),
            "result" => Ok(Payoff::Result),
            "points" => Ok(Payoff::Points),
            _ => Err(PayoffError(s.to_string())),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Payoff::Margin => "margin",
            Payoff::Result => "result",
            Payoff::Points => "points",
        }
    }

    /// The game's payoff to South in integer units (half-seeds for `margin`).
    #[inline]
    pub fn of(self, o: &GameOutcome) -> i32 {
        match self {
            Payoff::Margin => o.margin2 as i32,
            Payoff::Result => (o.margin2 as i32).signum(),
            Payoff::Points => match o.winner {
                Some(Side::South) => o.points_first_game as i32,
                Some(Side::North) => -(o.points_first_game as i32),
                None => 0,
            },
        }
    }

    /// Integer units per payoff unit.
    pub fn unit(self) -> f64 {
        match self {
            Payoff::Margin => 2.0,
            _ => 1.0,
        }
    }
}

/// Everything that decides an equilibrium run's result.
#[derive(Clone, Debug)]
pub struct EqDef {
    pub rules: Rules,
    pub model: Model,
    pub payoff: Payoff,
    pub family: Spec,
}

#[derive(Debug, thiserror::Error)]
pub enum EqError {
    /// Bad input: the message names the field.
    #[error("{0}")]
    Input(String),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{0}")]
    Lp(#[from] LpError),
}

impl EqError {
    fn state(path: &Path, what: impl std::fmt::Display) -> EqError {
        EqError::Input(format!("state: {}: {what}; use another --out or delete it to start afresh", path.display()))
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> EqError + '_ {
    move |source| EqError::Io { path: path.to_path_buf(), source }
}

impl EqDef {
    /// Race outcomes per pair.
    pub fn races(&self) -> usize {
        self.model.outcomes().map_or(0, |o| o.len())
    }

    /// Mirrored outcome pairs at equal weights: `A(s, n) = −A(n, s)`.
    pub fn symmetric(&self) -> bool {
        matches!(self.model, Model::Fixed(_))
    }

    /// Integer units per payoff unit of the mean over the outcomes.
    pub fn scale(&self) -> f64 {
        self.races() as f64 * self.payoff.unit()
    }

    pub fn identity(&self, family_size: usize) -> Json {
        json!({
            "version": env!("CARGO_PKG_VERSION"),
            "rules": self.rules.to_json(),
            "race": self.model.name(),
            "payoff": self.payoff.name(),
            "family": self.family.text,
            "family_size": family_size,
        })
    }
}

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
    /// Saved vectors: file name under `columns/` → CRC-32 of its bytes.
    pub vectors: BTreeMap<String, u32>,
    pub games: u64,
    pub seconds: f64,
}

/// Progress reports; every method has a silent default.
pub trait Observer: Sync {
    /// A vector sweep of `games` games starts.
    fn sweep_start(&self, _label: &str, _games: u64) {}
    fn games(&self, _n: u64) {}
    fn sweep_end(&self) {}
    fn iteration(&self, _r: &IterRecord) {}
}

pub struct Quiet;
impl Observer for Quiet {}

/// When to stop before convergence.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop once the log holds this many iterations (over all resumed runs).
    pub max_iterations: Option<u32>,
    /// Start no new iteration after this many seconds of this invocation.
    pub seconds: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    /// `A(·, id)`: the choice played by North, over every South choice of the family.
    Col,
    /// `A(id, ·)`: the choice played by South, over every North choice.
    Row,
}

/// A strategy entry of the answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Weighted {
    pub id: u32,
    pub weight: f64,
}

/// How much a single choice can be exploited.
#[derive(Clone, Debug, PartialEq)]
pub struct Exploit {
    pub id: u32,
    /// Played by South: the worst payoff over North's replies, and one such reply.
    pub as_south: f64,
    pub south_reply: u32,
    /// Played by North: the best payoff South gets against it, and one such reply.
    pub as_north: f64,
    pub north_reply: u32,
}

const CHUNK: usize = 4096;

/// A refined mix: what it guarantees over the whole family, the opponent's best reply to it,
/// and the plain restricted game's LP value and reply (the first step).
struct Refined {
    guarantee: f64,
    mix: Vec<(u32, f64)>,
    reply: u32,
    first_value: f64,
    first_reply: u32,
}

/// A double-oracle run over one family, its vectors and its state in `dir`.
pub struct Solver {
    pub def: EqDef,
    pub ids: Vec<u32>,
    choices: Vec<Choice>,
    dir: PathBuf,
    cache: HashMap<(Kind, u32), Vec<i16>>,
    pub state: State,
    identity: Json,
    /// Opposing best replies a mix may be refined against per iteration, beyond the
    /// restricted set (0: plain double oracle). More cuts give better bounds per sweep at the
    /// price of LPs; worth it when sweeps are expensive and sets small.
    pub cuts: usize,
    /// Perpetual cycles proven by this run's sweeps.
    proven: ProvenCycles,
}

fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<(), EqError> {
    crate::store::write_atomic(path, bytes).map_err(io_err(path))
}

impl Solver {
    /// Check the definition, resolve the family, and load the state of `dir` if it has one
    /// (refusing a corrupt or foreign one). Writes nothing.
    pub fn open(def: EqDef, dir: &Path) -> Result<Solver, EqError> {
        if def.model.outcomes().is_none() {
            return Err(EqError::Input(format!(
                "race: `{}` has outcomes that depend on the pair; expected sequential, lockstep, or one outcome: south-first, north-first, lockstep-south, lockstep-north",
                def.model.name()
            )));
        }
        let ids = def.family.ids(&def.rules).map_err(|e: SpecError| EqError::Input(format!("family: {e}")))?;
        if ids.is_empty() {
            return Err(EqError::Input(format!(
                "family: `{}` names no choice; expected a SPEC with at least one choice",
                def.family.text
            )));
        }
        let choices = super::spec::choices(&ids, &def.rules);
        let identity = def.identity(ids.len());
        let mut solver = Solver {
            def,
            ids,
            choices,
            dir: dir.to_path_buf(),
            cache: HashMap::new(),
            state: State::default(),
            identity,
            cuts: 0,
            proven: ProvenCycles::new(),
        };
        let path = dir.join(STATE_FILE);
        if path.exists() {
            solver.state = read_state(&path, &solver.identity)?;
        } else {
            // Both players start with the family's first choice.
            solver.state.south = vec![solver.ids[0]];
            solver.state.north = vec![solver.ids[0]];
        }
        Ok(solver)
    }

    pub fn identity(&self) -> &Json {
        &self.identity
    }

    fn pos(&self, id: u32) -> usize {
        self.ids.binary_search(&id).expect("restricted sets hold family members")
    }

    /// The stored kind and sign for a wanted vector: in a symmetric game a row is the
    /// negated column of the same choice.
    fn stored(&self, kind: Kind) -> (Kind, f64) {
        match (kind, self.def.symmetric()) {
            (Kind::Row, true) => (Kind::Col, -1.0),
            (k, _) => (k, 1.0),
        }
    }

    fn file_name(kind: Kind, id: u32) -> String {
        match kind {
            Kind::Col => format!("col-{id}.i16"),
            Kind::Row => format!("row-{id}.i16"),
        }
    }

    /// Make the vector available: in memory, else from its file, else swept (and saved).
    /// Returns the games played.
    fn ensure(&mut self, kind: Kind, id: u32, obs: &dyn Observer) -> Result<u64, EqError> {
        let (kind, _) = self.stored(kind);
        if self.cache.contains_key(&(kind, id)) {
            return Ok(0);
        }
        let name = Self::file_name(kind, id);
        let path = self.dir.join("columns").join(&name);
        if let Some(&crc) = self.state.vectors.get(&name) {
            if let Ok(bytes) = fs::read(&path) {
                if bytes.len() != 2 * self.ids.len() || crc32fast::hash(&bytes) != crc {
                    return Err(EqError::state(
                        &path,
                        "does not match its checksum in the state (corrupt or truncated)",
                    ));
                }
                let v = bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
                self.cache.insert((kind, id), v);
                return Ok(0);
            }
        }
        let v = self.sweep_vector(kind, id, obs);
        let games = self.ids.len() as u64 * self.def.races() as u64;
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        fs::create_dir_all(self.dir.join("columns")).map_err(io_err(&self.dir))?;
        write_bytes_atomic(&path, &bytes)?;
        self.state.vectors.insert(name, crc32fast::hash(&bytes));
        self.cache.insert((kind, id), v);
        Ok(games)
    }

    /// One vector by the parallel sweep: `id` against every family choice, every outcome.
    fn sweep_vector(&self, kind: Kind, id: u32, obs: &dyn Observer) -> Vec<i16> {
        let (rules, model, payoff) = (&self.def.rules, self.def.model, self.def.payoff);
        let races = self.def.races() as u64;
        let c = Choice::from_id(id as u64, rules).expect("family member");
        let label = match kind {
            Kind::Col => format!("vs N {id}"),
            Kind::Row => format!("vs S {id}"),
        };
        obs.sweep_start(&label, self.ids.len() as u64 * races);
        let mut out = vec![0i16; self.ids.len()];
        out.par_chunks_mut(CHUNK).zip(self.choices.par_chunks(CHUNK)).for_each(|(o, ch)| {
            for (slot, x) in o.iter_mut().zip(ch) {
                let mut v = 0i32;
                match kind {
                    Kind::Col => play_pair(rules, &self.proven, model, x, &c, |_, g| v += payoff.of(g)),
                    Kind::Row => play_pair(rules, &self.proven, model, &c, x, |_, g| v += payoff.of(g)),
                }
                *slot = v as i16;
            }
            obs.games(ch.len() as u64 * races);
        });
        obs.sweep_end();
        out
    }

    /// The vector (integer units, summed over outcomes) with its sign applied lazily.
    fn vector(&self, kind: Kind, id: u32) -> (&[i16], f64) {
        let (k, sign) = self.stored(kind);
        (self.cache.get(&(k, id)).expect("ensured"), sign)
    }

    /// max over the family of Σ w·v[k] (ties: the lowest position), in integer units.
    fn extreme(&self, terms: &[(&[i16], f64)]) -> (f64, usize) {
        (0..self.ids.len())
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|k| (terms.iter().map(|(v, w)| w * v[k] as f64).sum::<f64>(), k))
            .reduce(
                || (f64::NEG_INFINITY, usize::MAX),
                |a, b| {
                    if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) {
                        b
                    } else {
                        a
                    }
                },
            )
    }

    /// South's best reply to North's mix `y` (over `north`): (payoff, choice id).
    fn south_best(&self, y: &[(u32, f64)]) -> (f64, u32) {
        let terms: Vec<(&[i16], f64)> = y
            .iter()
            .map(|&(id, w)| {
                let (v, s) = self.vector(Kind::Col, id);
                (v, s * w)
            })
            .collect();
        let (best, k) = self.extreme(&terms);
        (best / self.def.scale(), self.ids[k])
    }

    /// North's best reply to South's mix `x`: (South's payoff, choice id).
    fn north_best(&self, x: &[(u32, f64)]) -> (f64, u32) {
        let terms: Vec<(&[i16], f64)> = x
            .iter()
            .map(|&(id, w)| {
                let (v, s) = self.vector(Kind::Row, id);
                (v, -s * w)
            })
            .collect();
        let (best, k) = self.extreme(&terms);
        (-best / self.def.scale(), self.ids[k])
    }

    /// South's payoff in payoff units for a pair of restricted members.
    fn entry(&self, s: u32, n: u32) -> f64 {
        let (v, sign) = self.vector(Kind::Col, n);
        sign * v[self.pos(s)] as f64 / self.def.scale()
    }

    /// South's payoff for `s` in S against any family choice `n`, from the row of `s`.
    fn row_entry(&self, s: u32, n: u32) -> f64 {
        let (v, sign) = self.vector(Kind::Row, s);
        sign * v[self.pos(n)] as f64 / self.def.scale()
    }

    /// One player's best mix over his restricted set `own` against EVERY opposing choice of
    /// the family, by constraint generation: the LP starts with the opponent's restricted set
    /// as its columns (the plain double-oracle game), then adds the opponent's best reply to
    /// the current mix while that reply beats the LP's value (at most [`Solver::cuts`] times; 0 = plain double
    /// oracle). The
    /// cached vectors give every entry, so this costs LPs and weighted sums, no games.
    /// `entry(own, other)` is the player's own payoff; `reply(mix)` the opponent's best
    /// reply over the family: (the player's payoff, the reply).
    fn refine(
        &self,
        own: &[u32],
        cuts0: &[u32],
        entry: impl Fn(&Self, u32, u32) -> f64,
        reply: impl Fn(&Self, &[(u32, f64)]) -> (f64, u32),
    ) -> Result<Refined, EqError> {
        let mut cuts = cuts0.to_vec();
        let mut best: Option<Refined> = None;
        for step in 0..=self.cuts {
            let mut a = Vec::with_capacity(own.len() * cuts.len());
            for &o in own {
                for &c in &cuts {
                    a.push(entry(self, o, c));
                }
            }
            let (v, w) = maximiser(&a, own.len(), cuts.len())?;
            let mix: Vec<(u32, f64)> = own.iter().copied().zip(w).filter(|&(_, w)| w > 0.0).collect();
            let (g, br) = reply(self, &mix);
            let (first_value, first_reply) = best.as_ref().map_or((v, br), |b| (b.first_value, b.first_reply));
            if best.as_ref().is_none_or(|b| g > b.guarantee) {
                best = Some(Refined { guarantee: g, mix, reply: br, first_value, first_reply });
            }
            if v - g <= TOLERANCE / 4.0 || cuts.contains(&br) || step == self.cuts {
                break;
            }
            cuts.push(br);
        }
        Ok(best.expect("at least one step"))
    }

    /// Run iterations until converged or a limit is reached; the state is saved after each.
    pub fn run(&mut self, limits: Limits, obs: &dyn Observer) -> Result<(), EqError> {
        let start = Instant::now();
        fs::create_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        while !self.state.done {
            if limits.max_iterations.is_some_and(|m| self.state.log.len() as u32 >= m)
                || limits.seconds.is_some_and(|s| start.elapsed().as_secs_f64() >= s)
            {
                break;
            }
            self.iterate(obs)?;
        }
        Ok(())
    }

    fn iterate(&mut self, obs: &dyn Observer) -> Result<(), EqError> {
        let t0 = Instant::now();
        let mut games = 0;
        for id in self.state.north.clone() {
            games += self.ensure(Kind::Col, id, obs)?;
        }
        for id in self.state.south.clone() {
            games += self.ensure(Kind::Row, id, obs)?;
        }
        let (s_set, n_set) = (self.state.south.clone(), self.state.north.clone());
        // South's mix over S against every North choice (the cached rows know them all).
        let south = self.refine(&s_set, &n_set, |sv, s, n| sv.row_entry(s, n), |sv, x| sv.north_best(x))?;
        let (lower, x, n_br, n_plain) = (south.guarantee, south.mix.clone(), south.reply, south.first_reply);
        let (upper, y, s_br, s_plain);
        if self.def.symmetric() {
            // S = N and A = −Aᵀ: South's optimal mix is North's too, and North's best reply
            // to it mirrors South's: upper = −lower, one sweep serves both.
            (upper, y, s_br, s_plain) = (-lower, x.clone(), n_br, n_plain);
        } else {
            let north = self.refine(
                &n_set,
                &s_set,
                |sv, n, s| -sv.entry(s, n),
                |sv, y| {
                    let (u, s) = sv.south_best(y);
                    (-u, s)
                },
            )?;
            (upper, y, s_br, s_plain) = (-north.guarantee, north.mix, north.reply, north.first_reply);
        }
        let restricted_value = south.first_value;
        let seconds = t0.elapsed().as_secs_f64();
        let st = &mut self.state;
        st.games += games;
        st.seconds += seconds;
        let rec = IterRecord {
            iteration: st.log.len() as u32 + 1,
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
        };
        // The best reply to the refined mix, else (as plain double oracle) to the restricted
        // game's mix, whichever is new.
        let pick = |set: &[u32], a: u32, b: u32| [a, b].into_iter().find(|c| !set.contains(c));
        let add_s = pick(&st.south, s_br, s_plain);
        let add_n = pick(&st.north, n_br, n_plain);
        if upper - lower <= TOLERANCE {
            st.done = true;
        } else if add_s.is_none() && add_n.is_none() {
            st.done = true;
            st.stalled = true;
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
        st.south_strategy = x;
        st.north_strategy = y;
        st.log.push(rec.clone());
        write_state(&self.dir.join(STATE_FILE), &self.identity, &self.state)?;
        obs.iteration(&rec);
        Ok(())
    }

    /// How far a single choice can be exploited (each side), by one or two vector sweeps.
    pub fn exploit(&mut self, id: u32, obs: &dyn Observer) -> Result<Exploit, EqError> {
        if self.ids.binary_search(&id).is_err() {
            return Err(EqError::Input(format!(
                "exploit: choice {id} is not in the family `{}`",
                self.def.family.text
            )));
        }
        self.ensure(Kind::Row, id, obs)?;
        self.ensure(Kind::Col, id, obs)?;
        let (as_south, south_reply) = self.north_best(&[(id, 1.0)]);
        let (as_north, north_reply) = self.south_best(&[(id, 1.0)]);
        // Vectors swept for the report are saved like the others.
        write_state(&self.dir.join(STATE_FILE), &self.identity, &self.state)?;
        Ok(Exploit { id, as_south, south_reply, as_north, north_reply })
    }

    /// The game's value as far as known: 0 for a symmetric game, else the restricted value.
    pub fn value(&self) -> f64 {
        match (self.def.symmetric(), self.state.log.last()) {
            (true, _) => 0.0,
            (false, Some(r)) => r.restricted_value,
            (false, None) => f64::NAN,
        }
    }

    pub fn exact(&self) -> bool {
        self.state.done && self.state.log.last().is_some_and(|r| r.gap() <= TOLERANCE)
    }

    /// The answer object (DESIGN.md): value, certified bounds, both mixes, counts, time.
    pub fn answer(&self, exploits: &[Exploit]) -> Json {
        let rules = &self.def.rules;
        let last = self.state.log.last();
        let strat = |s: &[(u32, f64)]| -> Json {
            let mut v: Vec<&(u32, f64)> = s.iter().collect();
            v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            Json::Array(
                v.into_iter()
                    .map(|&(id, w)| {
                        let c = Choice::from_id(id as u64, rules).unwrap();
                        json!({"id": id, "choice": format!("{} {}", c.remove_string(), c.drop_string()), "weight": w})
                    })
                    .collect(),
            )
        };
        let best_lower = self.state.log.iter().map(|r| (r.lower, r.iteration)).fold((f64::NEG_INFINITY, 0), |a, b| {
            if b.0 > a.0 {
                b
            } else {
                a
            }
        });
        let best_upper = self.state.log.iter().map(|r| (r.upper, r.iteration)).fold((f64::INFINITY, 0), |a, b| {
            if b.0 < a.0 {
                b
            } else {
                a
            }
        });
        let choice = |id: u32| {
            let c = Choice::from_id(id as u64, rules).unwrap();
            format!("{} {}", c.remove_string(), c.drop_string())
        };
        let value = self.value();
        json!({
            "rules": self.identity["rules"],
            "race": self.def.model.name(),
            "payoff": self.def.payoff.name(),
            "family": self.def.family.text,
            "family_size": self.ids.len(),
            "symmetric": self.def.symmetric(),
            "value": value,
            "lower": last.map(|r| r.lower),
            "upper": last.map(|r| r.upper),
            "gap": last.map(|r| r.gap()),
            "exact": self.exact(),
            "tolerance": TOLERANCE,
            "stalled": self.state.stalled,
            "best_lower": {"bound": best_lower.0, "iteration": best_lower.1},
            "best_upper": {"bound": best_upper.0, "iteration": best_upper.1},
            "south": strat(&self.state.south_strategy),
            "north": strat(&self.state.north_strategy),
            "south_set": self.state.south.len(),
            "north_set": self.state.north.len(),
            "iterations": self.state.log.len(),
            "games": self.state.games,
            "seconds": self.state.seconds,
            "exploit": exploits.iter().map(|e| json!({
                "id": e.id,
                "choice": choice(e.id),
                "as_south": e.as_south,
                "as_south_exploitability": value - e.as_south,
                "north_reply": {"id": e.south_reply, "choice": choice(e.south_reply)},
                "as_north": e.as_north,
                "as_north_exploitability": e.as_north - value,
                "south_reply": {"id": e.north_reply, "choice": choice(e.north_reply)},
            })).collect::<Vec<_>>(),
            "log": self.state.log,
        })
    }

    /// Write the answer into the run's directory (atomically).
    pub fn write_answer(&self, answer: &Json) -> Result<PathBuf, EqError> {
        let path = self.dir.join(ANSWER_FILE);
        write_bytes_atomic(&path, format!("{answer:#}\n").as_bytes())?;
        Ok(path)
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

/// South's payoff matrix of a (small) family, by a direct loop over every pair and outcome
/// (payoff units): for tests and cross-checks.
pub fn full_matrix(def: &EqDef, ids: &[u32]) -> Vec<f64> {
    let cs: Vec<Choice> = ids.iter().map(|&i| Choice::from_id(i as u64, &def.rules).unwrap()).collect();
    let races = def.model.outcomes().expect("fixed outcomes");
    let proven = ProvenCycles::new();
    let mut a = Vec::with_capacity(cs.len() * cs.len());
    for s in &cs {
        for n in &cs {
            let v: i32 = races
                .iter()
                .map(|&r| def.payoff.of(&crate::games::lukho::play_game(&def.rules, &proven, s, n, r)))
                .sum();
            a.push(v as f64 / def.scale());
        }
    }
    a
}

pub mod replies;

#[cfg(test)]
mod tests;
