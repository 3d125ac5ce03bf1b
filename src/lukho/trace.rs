//! A played game turn by turn, for `lukho play --trace`.

use crate::games::lukho::{
    opening, play_after, speed_races, Choice, GameOutcome, Opening, Position, ProvenCycles, Race, Rules,
};

/// Which race outcome a single game is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceChoice {
    Fixed(Race),
    /// The K-th `speeds` interleaving in increasing ρ.
    Speeds(usize),
}

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum RaceChoiceError {
    #[error(
        "race: `{0}`; expected south-first, north-first, lockstep-south, lockstep-north or speeds:K (K = 0, 1, …)"
    )]
    Form(String),
    #[error("race: speeds:{k} does not exist, this pair has {count} speeds outcomes (0..{count}; see `mancala lukho races`)")]
    NoSuchSpeed { k: usize, count: usize },
}

impl RaceChoice {
    pub fn parse(s: &str) -> Result<RaceChoice, RaceChoiceError> {
        if let Some(k) = s.trim().strip_prefix("speeds:") {
            return k.parse().map(RaceChoice::Speeds).map_err(|_| RaceChoiceError::Form(s.to_string()));
        }
        super::sweep::parse_race(s.trim()).map(RaceChoice::Fixed).ok_or_else(|| RaceChoiceError::Form(s.to_string()))
    }

    pub fn name(&self) -> String {
        match self {
            RaceChoice::Fixed(r) => r.name().to_string(),
            RaceChoice::Speeds(k) => format!("speeds:{k}"),
        }
    }

    /// The opening this race outcome gives.
    pub fn opening(
        &self,
        rules: &Rules,
        proven: &ProvenCycles,
        south: &Choice,
        north: &Choice,
    ) -> Result<Opening, RaceChoiceError> {
        match *self {
            RaceChoice::Fixed(r) => Ok(opening(rules, proven, south, north, r)),
            RaceChoice::Speeds(k) => {
                let all = speed_races(rules, proven, south, north);
                all.get(k).map(|s| s.opening).ok_or(RaceChoiceError::NoSuchSpeed { k, count: all.len() })
            }
        }
    }
}

/// A whole game: the opening, the positions at the start of each turn (the first is the
/// position right after the opening; a cycle's last position repeats an earlier one), and
/// the outcome.
pub struct Trace {
    pub opening: Opening,
    pub positions: Vec<Position>,
    pub outcome: GameOutcome,
}

pub fn trace(rules: &Rules, south: &Choice, north: &Choice, race: RaceChoice) -> Result<Trace, RaceChoiceError> {
    let proven = ProvenCycles::new();
    let o = race.opening(rules, &proven, south, north)?;
    let outcome = play_after(rules, &proven, &o);
    let mut pos = Position { board: o.board, to_move: o.first_player };
    let mut positions = vec![pos];
    if !o.perpetual {
        // The outcome says how many turns were completed; replay them.
        for _ in 0..outcome.turns {
            pos.turn(rules, &proven);
            positions.push(pos);
        }
    }
    Ok(Trace { opening: o, positions, outcome })
}
