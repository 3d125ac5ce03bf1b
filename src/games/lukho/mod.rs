//! Lukho (Bukusu) rules, RULES.md "Lukho". Pure rules: no I/O.
//!
//! - [`board`]: the 2×8 board with knives, lap sowing (relay, knives, capture, chain) and
//!   exact perpetual-sowing detection.
//! - [`opening`]: a player's opening choice (removal + drop), its id in `0..6_356_992`, and
//!   its text forms `r0,…,r7` / `COUNT@PIT`.
//! - [`race`]: the simultaneous opening sowings under the `sequential` and `lockstep` models;
//!   [`speeds`]: every distinct interleaving of the `speeds` model, found exactly.
//! - [`game`]: the forced game after the opening, cycle detection, final totals and match points.
//!
//! Pits are absolute in sowing order (South 0..7, North 0..7), knives are absolute too;
//! drop pits in choices are the *opponent's* own indices (DESIGN.md).

pub mod board;
pub mod game;
pub mod lanes;
pub mod opening;
pub mod race;
pub mod speeds;
#[cfg(test)]
mod tests;

pub use board::{Board, BoardError, LapEnd, Phase, Sown, PITS, ROW, TOTAL_SEEDS};
pub use game::{match_points, play_after, play_from, play_game, Class, GameOutcome, Position, TurnEnd};
pub use lanes::{play_batch, play_batch_scalar, Engine};
pub use opening::{Choice, ChoiceError};
pub use race::{opening, Opening, Race, RaceModel};
pub use speeds::{speed_races, Ratio, SpeedRace};

use serde::{Deserialize, Serialize};

/// What happens after a capture (RULES.md "Chain rule").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Chain {
    /// Italian text: after capturing at own index `i`, own `i+1, i+2, …` while each is empty
    /// (not a knife) and faces a non-empty non-knife pit, whose seeds are taken too. Default.
    #[default]
    It,
    /// English text: after the captured opponent index `j`, opponent `j+1, j+2, …` (no wrap)
    /// while each is non-empty and not a knife.
    En,
    /// Only the single opposite pit.
    None,
}

impl Chain {
    pub fn name(self) -> &'static str {
        match self {
            Chain::It => "it",
            Chain::En => "en",
            Chain::None => "none",
        }
    }
}

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
