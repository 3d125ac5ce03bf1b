//! The rule variants in force (docs/rules/kiothi.md K1, K2, K3, K7) and [`Rules`], which holds them.

use super::{KiothiError, Position};
use crate::variant::Variant;
use serde::{Deserialize, Serialize};

/// A name that is none of `T`'s: the error names the flag (the variant's [`Variant::WHAT`]).
fn unknown<T: Variant>(s: &str) -> KiothiError {
    KiothiError::Parse { field: T::WHAT, message: format!("'{s}' is not a variant"), expected: T::NAMES }
}

crate::variant::variants! {
    /// K1: how the warriors stand at the start.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
    pub enum Setup ("setup", KiothiError = unknown::<Setup>) {
        /// 6 boma of 5 per side (the default).
        #[default]
        #[serde(rename = "6x5")]
        S6x5 = "6x5": "5 warriors in each of own indices 4..9 (30 per side). Default",
        /// 5 boma of 5 per side.
        #[serde(rename = "5x5")]
        S5x5 = "5x5": "5 warriors in each of own indices 5..9 (25 per side)",
        /// 5 boma of 6 per side.
        #[serde(rename = "5x6")]
        S5x6 = "5x6": "6 warriors in each of own indices 5..9 (30 per side)",
    }
}

impl Setup {
    /// (first occupied own index, warriors per occupied boma); the rightmost boma are filled.
    pub fn shape(self) -> (usize, u8) {
        match self {
            Setup::S6x5 => (4, 5),
            Setup::S5x5 => (5, 5),
            Setup::S5x6 => (5, 6),
        }
    }
}

crate::variant::variants! {
    /// K2: how many boma an opening redistribution empties.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
    pub enum Redistribute ("redistribute", KiothiError = unknown::<Redistribute>) {
        /// Exactly two (the default).
        #[default]
        #[serde(rename = "exactly-2")]
        Exactly2 = "exactly-2": "Exactly two (default, the seed text)",
        /// One or two.
        #[serde(rename = "up-to-2")]
        UpTo2 = "up-to-2": "One or two, never none",
    }
}

impl Redistribute {
    /// Whether emptying `n` boma is allowed.
    pub fn allows(self, n: u32) -> bool {
        match self {
            Redistribute::Exactly2 => n == 2,
            Redistribute::UpTo2 => n == 1 || n == 2,
        }
    }
}

crate::variant::variants! {
    /// K3: what clears an nki flag.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
    #[serde(rename_all = "kebab-case")]
    pub enum NkiClear ("nki-clear", KiothiError = unknown::<NkiClear>) {
        /// Only lifting (the default).
        #[default]
        Lift = "lift": "Only lifting from the boma (start of a move or a relay). Default",
        /// Lifting, and dropping during a relay lap.
        Pass = "pass": "Also any warrior dropped into it during a relay lap",
    }
}

/// Every Kiothi rule variant in force (CLI flags `--setup`, `--redistribute`, `--nki-clear`,
/// `--max-relays`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Rules {
    pub setup: Setup,
    pub redistribute: Redistribute,
    pub nki_clear: NkiClear,
    /// K7 variant: at most this many relays per move; `None` = unbounded (default).
    pub max_relays: Option<u64>,
}

impl Rules {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "game": "kiothi",
            "setup": self.setup.name(),
            "redistribute": self.redistribute.name(),
            "nki_clear": self.nki_clear.name(),
            "max_relays": self.max_relays,
        })
    }

    /// A short stable tag for file names, e.g. `6x5-exactly-2-lift-relays-any`.
    pub fn tag(&self) -> String {
        let relays = match self.max_relays {
            Some(n) => n.to_string(),
            None => "any".to_string(),
        };
        format!("{}-{}-{}-relays-{relays}", self.setup.name(), self.redistribute.name(), self.nki_clear.name())
    }

    /// The position before turn 1 under this setup.
    pub fn start(&self) -> Position {
        Position::start(self.setup)
    }
}
