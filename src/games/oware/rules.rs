//! The rule variants in force: the grand slam (O4) and the repetition rule (O8), with their
//! names for flags, file names and JSON.

use serde::{Deserialize, Serialize};

/// O4: what happens to a move whose captures would take every seed of the opponent's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum GrandSlam {
    /// Legal, captures nothing (default; Abapa as in the Italian description).
    #[default]
    NoCapture,
    /// Illegal unless every legal move is one; then it captures nothing.
    Forbidden,
    /// Romein & Bal's Olympiad rules: illegal unless forced; when forced it captures and the
    /// mover also takes the seeds left on his own row.
    Awari,
}

/// O8 / common rule: what a repeated position does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Cycle {
    /// The game ends, the seeds left are divided evenly (net 0). Default; databases and solve need it.
    #[default]
    Split,
    /// The game ends, each player takes the seeds on his own row (Abapa practice, OpenSpiel).
    OwnRows,
}

/// Every Oware rule variant in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Rules {
    pub grand_slam: GrandSlam,
    pub cycle: Cycle,
}

impl GrandSlam {
    pub const ALL: [GrandSlam; 3] = [GrandSlam::NoCapture, GrandSlam::Forbidden, GrandSlam::Awari];

    pub fn name(self) -> &'static str {
        match self {
            GrandSlam::NoCapture => "no-capture",
            GrandSlam::Forbidden => "forbidden",
            GrandSlam::Awari => "awari",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            GrandSlam::NoCapture => "Legal, captures nothing (default; Abapa as in the Italian description)",
            GrandSlam::Forbidden => "Illegal unless every legal move is one; then it captures nothing",
            GrandSlam::Awari => "Romein & Bal's Olympiad rules: illegal unless forced; when forced it captures and the mover also takes the seeds left on his own row",
        }
    }
}

impl Cycle {
    pub const ALL: [Cycle; 2] = [Cycle::Split, Cycle::OwnRows];

    pub fn name(self) -> &'static str {
        match self {
            Cycle::Split => "split",
            Cycle::OwnRows => "own-rows",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Cycle::Split => {
                "The game ends, the seeds left are divided evenly (net 0). Default; databases and solve need it"
            }
            Cycle::OwnRows => "The game ends, each player takes the seeds on his own row (Abapa practice, OpenSpiel)",
        }
    }
}

impl std::str::FromStr for GrandSlam {
    type Err = String;
    /// The names of [`GrandSlam::name`].
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| format!("`{s}`; expected no-capture, forbidden or awari"))
    }
}

impl std::str::FromStr for Cycle {
    type Err = String;
    /// The names of [`Cycle::name`].
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL.into_iter().find(|c| c.name() == s).ok_or_else(|| format!("`{s}`; expected split or own-rows"))
    }
}

impl Rules {
    /// A short stable tag for file names: `gs-no-capture` etc. (the cycle rule of a
    /// database is always `split`).
    pub fn db_tag(&self) -> String {
        format!("gs-{}", self.grand_slam.name())
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"game": "oware", "grand_slam": self.grand_slam.name(), "cycle": self.cycle.name()})
    }
}
