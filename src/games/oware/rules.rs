//! The rule variants in force: the grand slam (O4) and the repetition rule (O8), with their
//! names for flags, file names and JSON.

use serde::{Deserialize, Serialize};

crate::variant::variants! {
    /// O4: what happens to a move whose captures would take every seed of the opponent's row.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
    #[serde(rename_all = "kebab-case")]
    pub enum GrandSlam ("grand-slam rule") {
        /// Legal, captures nothing (default; Abapa as in the Italian description).
        #[default]
        NoCapture = "no-capture": "Legal, captures nothing (default; Abapa as in the Italian description)",
        /// Illegal unless every legal move is one; then it captures nothing.
        Forbidden = "forbidden": "Illegal unless every legal move is one; then it captures nothing",
        /// Romein & Bal's Olympiad rules: illegal unless forced; when forced it captures and the
        /// mover also takes the seeds left on his own row.
        Awari = "awari": "Romein & Bal's Olympiad rules: illegal unless forced; when forced it captures and the mover also takes the seeds left on his own row",
    }
}

crate::variant::variants! {
    /// O8 / common rule: what a repeated position does.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
    #[serde(rename_all = "kebab-case")]
    pub enum Cycle ("cycle rule") {
        /// The game ends, the seeds left are divided evenly (net 0). Default; databases and solve need it.
        #[default]
        Split = "split": "The game ends, the seeds left are divided evenly (net 0). Default; databases and solve need it",
        /// The game ends, each player takes the seeds on his own row (Abapa practice, OpenSpiel).
        OwnRows = "own-rows": "The game ends, each player takes the seeds on his own row (Abapa practice, OpenSpiel)",
    }
}

/// Every Oware rule variant in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Rules {
    pub grand_slam: GrandSlam,
    pub cycle: Cycle,
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
