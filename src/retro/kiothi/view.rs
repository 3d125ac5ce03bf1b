//! The Kiothi table position: boma from the mover's view and the nki flags.

use crate::games::kiothi::{Board, Position, ALL_BOMA, BOMA, ROW};
use crate::side::Side;

/// A table position: boma from the mover's view and the nki flags (bit `a` = boma `a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    pub boma: Board,
    pub nki: u32,
}

impl View {
    /// The position as the other player sees it (rows swapped).
    #[inline]
    pub fn flipped(&self) -> View {
        View { boma: rotate(&self.boma), nki: rotate_mask(self.nki) }
    }

    pub fn warriors(&self) -> u32 {
        self.boma.iter().map(|&x| x as u32).sum()
    }

    /// The table view of a position after the opening (`None` on turns 1 and 2).
    pub fn of(p: &Position) -> Option<View> {
        if p.is_redistribution() {
            return None;
        }
        let v = View { boma: p.boma, nki: p.nki };
        Some(if p.to_move == Side::North { v.flipped() } else { v })
    }

    /// A position for the rules module: South to move, turn 3, empty prisons.
    pub fn position(&self) -> Position {
        Position { boma: self.boma, prisons: [0, 0], nki: self.nki, to_move: Side::South, turn: 3 }
    }
}

#[inline(always)]
pub(super) fn rotate(b: &Board) -> Board {
    std::array::from_fn(|i| b[(i + ROW) % BOMA])
}

#[inline(always)]
pub(super) fn rotate_mask(m: u32) -> u32 {
    ((m >> ROW) | (m << ROW)) & ALL_BOMA
}
