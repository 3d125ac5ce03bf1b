//! A played game turn by turn, for `lukho play --trace`.

use crate::games::lukho::{play_after, Choice, GameOutcome, Opening, Position, RaceError, RaceLabel, Rules};

/// A whole game: the opening, the positions at the start of each turn (the first is the
/// position right after the opening; a cycle's last position repeats an earlier one), and
/// the outcome.
pub struct Trace {
    pub opening: Opening,
    pub positions: Vec<Position>,
    pub outcome: GameOutcome,
}

/// The game of a pair under one race outcome; an error when the pair has no such outcome.
pub fn trace(rules: &Rules, south: &Choice, north: &Choice, race: RaceLabel) -> Result<Trace, RaceError> {
    let o = race.opening(rules, south, north)?;
    let outcome = play_after(rules, &o);
    let mut pos = Position { board: o.board, to_move: o.first_player };
    let mut positions = vec![pos];
    if !o.perpetual {
        // The outcome says how many turns were completed; replay them.
        for _ in 0..outcome.turns {
            pos.turn(rules);
            positions.push(pos);
        }
    }
    Ok(Trace { opening: o, positions, outcome })
}
