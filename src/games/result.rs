//! How a game of two players ended: the final totals and the game's own reason.

use crate::side::Side;

/// How a game ended, with final totals (halves allowed, hence `f64`); `R` is the game's reason
/// (its `EndReason`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult<R> {
    /// `[south, north]` final totals.
    pub score: [f64; 2],
    pub reason: R,
}

impl<R> GameResult<R> {
    /// The player with the larger total, `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        Side::ahead(self.score)
    }
}
