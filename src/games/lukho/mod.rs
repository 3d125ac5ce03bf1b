//! Lukho (Bukusu) rules, docs/rules/lukho.md. Pure rules: no I/O.
//!
//! - [`geometry`]: the 2×8 pits in sowing order; [`board`]: the board with knives and
//!   stores, packed in one `u128` (its constant tables in `tables`); [`sow`]: laps and
//!   relays, a lap's ending, a whole sowing; [`capture`]: captures and the chain rules; [`perpetual`]: exact perpetual-sowing
//!   detection and the proven cycles shared between sowings.
//! - [`choice`]: a player's opening choice (removal + drop), its id in `0..6_356_992`, and
//!   its text forms `r0,…,r7` / `COUNT@PIT`.
//! - [`race`]: the simultaneous opening sowings under the `sequential` and `lockstep` models;
//!   [`speeds`]: every distinct interleaving of the `speeds` model, found exactly.
//! - [`game`]: the forced game after the opening, cycle detection, final totals and match points.
//!
//! Pits are absolute in sowing order (South 0..7, North 0..7), knives are absolute too;
//! drop pits in choices are the *opponent's* own indices (docs/rules/lukho.md "L6. Opening choices").

pub mod board;
pub mod capture;
pub mod choice;
pub mod game;
pub mod geometry;
pub mod lanes;
pub mod perpetual;
pub mod race;
pub mod sow;
pub mod speeds;
mod tables;
#[cfg(test)]
mod tests;
pub mod units;

pub use board::{Board, BoardError};
pub use capture::Chain;
pub use choice::{Choice, ChoiceError, MAX_REMOVE};
pub use game::{match_points, play_after, play_from, play_game, Class, GameOutcome, Position, TurnEnd};
pub use geometry::{PITS, ROW, TOTAL_SEEDS};
pub use lanes::{play_batch, play_batch_scalar, Engine};
pub use perpetual::{PerpetualStats, ProvenCycles};
pub use race::{each_opening, lockstep_both, opening, Opening, Race, RaceError, RaceLabel, RaceModel, Races};
pub use sow::{LapEnd, SowingEnd};
pub use speeds::{speed_races, Ratio, SpeedRace};
pub use units::HalfSeeds;

use serde::{Deserialize, Serialize};

/// Every Lukho rule variant in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Rules {
    pub chain: Chain,
    /// The opening drop must leave at least one seed to sow (`d <= h-1` when `h > 0`).
    pub keep_one: bool,
}

impl Rules {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"game": "lukho", "chain": self.chain.name(), "keep_one": self.keep_one})
    }
}

/// Which rule set a sowing follows: the opening (no knives, rule 2 off) or a normal turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Opening,
    Turn,
}

impl Phase {
    /// A lap whose last pit (not a knife) holds at least this many seeds now relays: rule 3,
    /// less rule 2's new knife at exactly 2 in normal turns.
    #[inline(always)]
    pub(crate) fn relay_from(self) -> u8 {
        match self {
            Phase::Opening => 2,
            Phase::Turn => 3,
        }
    }
}
