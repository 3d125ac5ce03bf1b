//! What a game of the opening is worth to South, and the definition of an opening game.

use crate::games::lukho::{Choice, GameOutcome, Races, Rules};
use crate::side::Side;
use crate::sweep::spec::Spec;
use serde_json::{json, Value as Json};

crate::variant::variants! {
    /// What a game is worth to South.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Payoff ("payoff", PayoffError = |s: &str| PayoffError(<Payoff as crate::variant::Variant>::unknown(s))) {
        /// South − North final totals (cycles split), in seeds.
        Margin = "margin": "South − North seeds",
        /// +1 South wins, 0 draw, −1 North wins.
        Result = "result": "+1/0/−1",
        /// Match points of the first game of a series, South's minus North's (a bull scores 12).
        Points = "points": "match points of the first game of a series, South − North; a bull scores 12",
        /// Match points of any later game of a series (a bull scores 4, like a loser at 0).
        PointsLater = "points-later": "match points of any later game: a bull scores 4 (rule book L13)",
    }
}

/// A name that is no payoff; the message lists the payoffs.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct PayoffError(pub String);

impl Payoff {
    pub fn parse(s: &str) -> Result<Payoff, PayoffError> {
        s.parse()
    }

    /// The game's payoff to South in integer units (half-seeds for `margin`).
    #[inline]
    pub fn of(self, o: &GameOutcome) -> i32 {
        match self {
            Payoff::Margin => o.margin.0 as i32,
            Payoff::Result => (o.margin.0 as i32).signum(),
            Payoff::Points => signed(o, o.points_first_game),
            Payoff::PointsLater => signed(o, o.points_later_game),
        }
    }

    /// The largest |payoff| of one game in integer units: a 48–0 margin (96 half-seeds), a
    /// result, a first game's bull (12 match points, the most [`match_points`] gives), a later
    /// game's bull or whitewash (4).
    ///
    /// [`match_points`]: crate::games::lukho::match_points
    pub fn bound(self) -> i32 {
        match self {
            Payoff::Margin => 2 * crate::games::lukho::TOTAL_SEEDS as i32,
            Payoff::Result => 1,
            Payoff::Points => 12,
            Payoff::PointsLater => 4,
        }
    }

    /// Every game's payoff is a multiple of this (integer units). A margin is even: the final
    /// totals always sum to the 96 half-seeds of the game (every seed ends in a store or a
    /// knife, or is halved by a split, C5–C6), so South − North = 2·South − 96.
    pub fn grain(self) -> i32 {
        match self {
            Payoff::Margin => 2,
            _ => 1,
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

/// The winner's `points` as South's payoff: positive when South wins.
fn signed(o: &GameOutcome, points: u8) -> i32 {
    match o.winner {
        Some(Side::South) => points as i32,
        Some(Side::North) => -(points as i32),
        None => 0,
    }
}

/// The opening as a matrix game: both players choose from `family`, South is paid `payoff`
/// averaged over the outcomes of `model`. Everything that decides an equilibrium run's result.
#[derive(Clone, Debug)]
pub struct OpeningGame {
    pub rules: Rules,
    pub model: Races,
    pub payoff: Payoff,
    pub family: Spec,
}

impl OpeningGame {
    /// Race outcomes per pair.
    pub fn races(&self) -> usize {
        self.model.outcomes().map_or(0, |o| o.len())
    }

    /// Mirrored outcome pairs at equal weights: `A(s, n) = −A(n, s)`.
    pub fn symmetric(&self) -> bool {
        self.model.mirrored()
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

/// South's payoff matrix of a (small) family, by a direct loop over every pair and outcome
/// (payoff units): for tests and cross-checks.
pub fn full_matrix(def: &OpeningGame, ids: &[u32]) -> Vec<f64> {
    let cs: Vec<Choice> = ids.iter().map(|&i| Choice::from_id(i as u64, &def.rules).unwrap()).collect();
    let races = def.model.outcomes().expect("fixed outcomes");
    let mut a = Vec::with_capacity(cs.len() * cs.len());
    let proven = crate::games::lukho::ProvenCycles::new();
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
