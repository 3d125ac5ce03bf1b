//! The rule variants in force (docs/rules/kiothi.md K1, K2, K3, K7) and [`Rules`], which holds them.

use super::{KiothiError, Position};
use serde::{Deserialize, Serialize};
use std::fmt;

/// K1: how the warriors stand at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Setup {
    /// 6 boma of 5 per side (the default).
    #[default]
    #[serde(rename = "6x5")]
    S6x5,
    /// 5 boma of 5 per side.
    #[serde(rename = "5x5")]
    S5x5,
    /// 5 boma of 6 per side.
    #[serde(rename = "5x6")]
    S5x6,
}

impl Setup {
    /// Every setup, in the order they are listed.
    pub const ALL: [Setup; 3] = [Setup::S6x5, Setup::S5x5, Setup::S5x6];

    pub fn name(self) -> &'static str {
        match self {
            Setup::S6x5 => "6x5",
            Setup::S5x5 => "5x5",
            Setup::S5x6 => "5x6",
        }
    }

    /// The layout in one line.
    pub fn description(self) -> &'static str {
        match self {
            Setup::S6x5 => "5 warriors in each of own indices 4..9 (30 per side). Default",
            Setup::S5x5 => "5 warriors in each of own indices 5..9 (25 per side)",
            Setup::S5x6 => "6 warriors in each of own indices 5..9 (30 per side)",
        }
    }

    /// (first occupied own index, warriors per occupied boma); the rightmost boma are filled.
    pub fn shape(self) -> (usize, u8) {
        match self {
            Setup::S6x5 => (4, 5),
            Setup::S5x5 => (5, 5),
            Setup::S5x6 => (5, 6),
        }
    }
}

/// K2: how many boma an opening redistribution empties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Redistribute {
    /// Exactly two (the default).
    #[default]
    #[serde(rename = "exactly-2")]
    Exactly2,
    /// One or two.
    #[serde(rename = "up-to-2")]
    UpTo2,
}

impl Redistribute {
    /// Every variant, in the order they are listed.
    pub const ALL: [Redistribute; 2] = [Redistribute::Exactly2, Redistribute::UpTo2];

    pub fn name(self) -> &'static str {
        match self {
            Redistribute::Exactly2 => "exactly-2",
            Redistribute::UpTo2 => "up-to-2",
        }
    }

    /// The variant in one line.
    pub fn description(self) -> &'static str {
        match self {
            Redistribute::Exactly2 => "Exactly two (default, the seed text)",
            Redistribute::UpTo2 => "One or two, never none",
        }
    }

    /// Whether emptying `n` boma is allowed.
    pub fn allows(self, n: u32) -> bool {
        match self {
            Redistribute::Exactly2 => n == 2,
            Redistribute::UpTo2 => n == 1 || n == 2,
        }
    }
}

/// K3: what clears an nki flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum NkiClear {
    /// Only lifting (the default).
    #[default]
    Lift,
    /// Lifting, and dropping during a relay lap.
    Pass,
}

impl NkiClear {
    /// Every variant, in the order they are listed.
    pub const ALL: [NkiClear; 2] = [NkiClear::Lift, NkiClear::Pass];

    pub fn name(self) -> &'static str {
        match self {
            NkiClear::Lift => "lift",
            NkiClear::Pass => "pass",
        }
    }

    /// The variant in one line.
    pub fn description(self) -> &'static str {
        match self {
            NkiClear::Lift => "Only lifting from the boma (start of a move or a relay). Default",
            NkiClear::Pass => "Also any warrior dropped into it during a relay lap",
        }
    }
}

/// `Display` as the variant's name and `FromStr` from it, for the three variant enums.
macro_rules! named_variants {
    ($($t:ident: $field:literal, $expected:literal);*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $t {
            type Err = KiothiError;
            fn from_str(s: &str) -> Result<Self, KiothiError> {
                $t::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| KiothiError::Parse {
                    field: $field,
                    message: format!("'{s}' is not a variant"),
                    expected: $expected,
                })
            }
        }
    )*};
}

named_variants!(
    Setup: "setup", "6x5, 5x5 or 5x6";
    Redistribute: "redistribute", "exactly-2 or up-to-2";
    NkiClear: "nki-clear", "lift or pass"
);

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
