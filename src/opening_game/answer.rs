//! The answer of a run: value, certified bounds, both mixes, exploitability of single choices.

use super::double_oracle::{Solver, TOLERANCE};
use super::observer::Observer;
use super::state::IterRecord;
use super::vectors::Kind;
use super::{write_bytes_atomic, EqError};
use crate::games::lukho::Choice;
use crate::sweep::InputError;
use serde::Serialize;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};

pub const ANSWER_FILE: &str = "equilibrium.json";

/// One choice of a mix: its id, its text, its weight.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MixEntry {
    pub id: u32,
    pub choice: String,
    pub weight: f64,
}

/// A choice by id and text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Named {
    pub id: u32,
    pub choice: String,
}

/// The best bound of a run and the iteration that found it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BestBound {
    pub bound: f64,
    pub iteration: u32,
}

/// The run's certificate: the best bound each side reached in any iteration and the mix that
/// proves it (evaluated over every choice of the family), so `lower <= value <= upper`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Certificate {
    pub lower: f64,
    pub upper: f64,
    pub gap: f64,
    pub lower_iteration: u32,
    pub upper_iteration: u32,
    /// South's mix guaranteeing `lower`, North's conceding at most `upper` (heaviest first).
    pub south: Vec<MixEntry>,
    pub north: Vec<MixEntry>,
}

/// An exploited choice as the answer reports it: its worth each side, the gap to the value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExploitReport {
    pub id: u32,
    pub choice: String,
    pub as_south: f64,
    pub as_south_exploitability: f64,
    pub north_reply: Named,
    pub as_north: f64,
    pub as_north_exploitability: f64,
    pub south_reply: Named,
}

/// The answer of a run (docs/equilibrium.md, `lukho equilibrium`): value, certified bounds, both mixes (heaviest first),
/// counts, time, exploited choices, and the iteration log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    pub rules: Json,
    pub race: &'static str,
    pub payoff: &'static str,
    pub family: String,
    pub family_size: usize,
    pub symmetric: bool,
    pub value: f64,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    pub gap: Option<f64>,
    pub exact: bool,
    pub tolerance: f64,
    pub stalled: bool,
    pub best_lower: BestBound,
    pub best_upper: BestBound,
    /// None before the first iteration.
    pub certificate: Option<Certificate>,
    pub south: Vec<MixEntry>,
    pub north: Vec<MixEntry>,
    pub south_set: usize,
    pub north_set: usize,
    pub iterations: usize,
    pub games: u64,
    pub seconds: f64,
    pub exploit: Vec<ExploitReport>,
    pub log: Vec<IterRecord>,
}

impl Answer {
    /// As JSON, keys in order; `printed` leaves out the log and adds where the file is.
    pub fn to_json(&self, printed: Option<&Path>) -> Json {
        let mut v = serde_json::to_value(self).expect("an answer serialises");
        if let (Some(path), Json::Object(m)) = (printed, &mut v) {
            m.remove("log");
            m.insert("out".into(), json!(path));
        }
        v
    }
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

/// How far a pair of mixed openings can be exploited: each mix against a best reply over the
/// whole family, in payoff units (South's payoff).
#[derive(Clone, Debug, PartialEq)]
pub struct MixExploit {
    /// South's mix: the worst payoff over North's replies (what it guarantees), and one such reply.
    pub south_guarantees: f64,
    pub north_reply: u32,
    /// North's mix: the best payoff South gets against it (what it concedes at most), and one
    /// such reply.
    pub north_concedes: f64,
    pub south_reply: u32,
    /// Games played for vectors that were not saved in the run's directory.
    pub games: u64,
}

impl Solver {
    /// How far a single choice can be exploited (each side), by one or two vector sweeps.
    pub fn exploit(&mut self, id: u32, obs: &dyn Observer) -> Result<Exploit, EqError> {
        if self.ids().binary_search(&id).is_err() {
            let family = &self.def().family.text;
            return Err(InputError::new("exploit", format!("choice {id} is not in the family `{family}`")).into());
        }
        self.ensure(Kind::Row, id, obs)?;
        self.ensure(Kind::Col, id, obs)?;
        let (as_south, south_reply) = self.store.north_best(&[(id, 1.0)]);
        let (as_north, north_reply) = self.store.south_best(&[(id, 1.0)]);
        // Vectors swept for the report are saved like the others.
        self.run.save()?;
        Ok(Exploit { id, as_south, south_reply, as_north, north_reply })
    }

    /// How far the mixes `south` and `north` (family members with weights summing to 1) can be
    /// exploited over the whole family, under this run's payoff: a best-reply pass against each,
    /// over the vectors of its members (swept where the run's directory has none, and saved
    /// there). A mix of another payoff's equilibrium read here measures what a player who uses
    /// it gives away in this payoff.
    pub fn exploit_mixes(
        &mut self,
        south: &[(u32, f64)],
        north: &[(u32, f64)],
        obs: &dyn Observer,
    ) -> Result<MixExploit, EqError> {
        for &(id, _) in south.iter().chain(north) {
            if self.ids().binary_search(&id).is_err() {
                let family = &self.def().family.text;
                return Err(InputError::new("mix", format!("choice {id} is not in the family `{family}`")).into());
            }
        }
        self.hold()?;
        // Saved vectors of an earlier run, in this run's width (else they would be swept again).
        self.store.narrow_saved(&mut self.run)?;
        let mut games = 0;
        for (kind, mix) in [(Kind::Row, south), (Kind::Col, north)] {
            for &(id, _) in mix {
                let swept = self.ensure(kind, id, obs)?;
                games += swept;
                // Saved now and then, so a stopped report resumes near where it stopped.
                if swept > 0 {
                    self.run.save_throttled()?;
                }
            }
        }
        let (south_guarantees, north_reply) = self.store.north_best(south);
        let (north_concedes, south_reply) = self.store.south_best(north);
        self.run.save()?;
        Ok(MixExploit { south_guarantees, north_reply, north_concedes, south_reply, games })
    }

    /// The game's value as far as known: 0 for a symmetric game, else the restricted value.
    pub fn value(&self) -> f64 {
        match (self.def().symmetric(), self.run.state.log.last()) {
            (true, _) => 0.0,
            (false, Some(r)) => r.restricted_value,
            (false, None) => f64::NAN,
        }
    }

    /// Converged: the certificate's gap (best bounds seen) is within the tolerance.
    pub fn exact(&self) -> bool {
        let (lower, upper) = self.run.state.certified();
        self.run.state.done && upper - lower <= TOLERANCE
    }

    /// The answer as far as the run has come.
    pub fn answer(&self, exploits: &[Exploit]) -> Answer {
        let rules = &self.def().rules;
        let last = self.run.state.log.last();
        let choice = |id: u32| Choice::from_id(id as u64, rules).map_or_else(|e| e.to_string(), |c| c.to_string());
        let mix = |s: &[(u32, f64)]| -> Vec<MixEntry> {
            let mut v: Vec<MixEntry> =
                s.iter().map(|&(id, weight)| MixEntry { id, choice: choice(id), weight }).collect();
            v.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.id.cmp(&b.id)));
            v
        };
        let best = |better: fn(f64, f64) -> bool, start: f64, bound: fn(&IterRecord) -> f64| {
            let mut b = BestBound { bound: start, iteration: 0 };
            for r in &self.run.state.log {
                if better(bound(r), b.bound) {
                    b = BestBound { bound: bound(r), iteration: r.iteration };
                }
            }
            b
        };
        let value = self.value();
        let certificate = match (&self.run.state.best_south, &self.run.state.best_north) {
            (Some(s), Some(n)) => Some(Certificate {
                lower: s.bound,
                upper: n.bound,
                gap: n.bound - s.bound,
                lower_iteration: s.iteration,
                upper_iteration: n.iteration,
                south: mix(&s.mix),
                north: mix(&n.mix),
            }),
            _ => None,
        };
        Answer {
            rules: rules.to_json(),
            race: self.def().model.name(),
            payoff: self.def().payoff.name(),
            family: self.def().family.text.clone(),
            family_size: self.ids().len(),
            symmetric: self.def().symmetric(),
            value,
            lower: last.map(|r| r.lower),
            upper: last.map(|r| r.upper),
            gap: last.map(|r| r.gap()),
            exact: self.exact(),
            tolerance: TOLERANCE,
            stalled: self.run.state.stalled,
            best_lower: best(|a, b| a > b, f64::NEG_INFINITY, |r| r.average_lower.map_or(r.lower, |a| a.max(r.lower))),
            best_upper: best(|a, b| a < b, f64::INFINITY, |r| r.average_upper.map_or(r.upper, |a| a.min(r.upper))),
            certificate,
            south: mix(&self.run.state.south_strategy),
            north: mix(&self.run.state.north_strategy),
            south_set: self.run.state.south.len(),
            north_set: self.run.state.north.len(),
            iterations: self.run.state.log.len(),
            games: self.run.state.games,
            seconds: self.run.state.seconds,
            exploit: exploits
                .iter()
                .map(|e| ExploitReport {
                    id: e.id,
                    choice: choice(e.id),
                    as_south: e.as_south,
                    as_south_exploitability: value - e.as_south,
                    north_reply: Named { id: e.south_reply, choice: choice(e.south_reply) },
                    as_north: e.as_north,
                    as_north_exploitability: e.as_north - value,
                    south_reply: Named { id: e.north_reply, choice: choice(e.north_reply) },
                })
                .collect(),
            log: self.run.state.log.clone(),
        }
    }

    /// Write the answer into the run's directory (atomically).
    pub fn write_answer(&self, answer: &Answer) -> Result<PathBuf, EqError> {
        let path = self.store.dir.join(ANSWER_FILE);
        write_bytes_atomic(&path, format!("{:#}\n", answer.to_json(None)).as_bytes())?;
        Ok(path)
    }
}
