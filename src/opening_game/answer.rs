//! The answer of a run: value, certified bounds, both mixes, exploitability of single choices.

use super::double_oracle::{Observer, Solver, TOLERANCE};
use super::state::{write_state, STATE_FILE};
use super::vectors::Kind;
use super::{write_bytes_atomic, EqError};
use crate::games::lukho::Choice;
use serde_json::{json, Value as Json};
use std::path::PathBuf;

pub const ANSWER_FILE: &str = "equilibrium.json";

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

impl Solver {
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
