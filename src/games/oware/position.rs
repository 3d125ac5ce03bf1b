//! The absolute board, stores and side to move (O1), and its diagram.

use super::board::{flip, seeds, View, PITS, ROW};
use crate::side::Side;
use std::fmt;

/// The absolute board, stores and side to move: what play and replay work on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// South 0..5 then North 0..5 (sowing order).
    pub pits: [u8; PITS],
    /// Seeds captured: `[south, north]`.
    pub stores: [u8; 2],
    pub to_move: Side,
}

impl Default for Position {
    fn default() -> Self {
        Position { pits: [4; PITS], stores: [0, 0], to_move: Side::South }
    }
}

impl Position {
    pub fn view(&self) -> View {
        match self.to_move {
            Side::South => self.pits,
            Side::North => flip(&self.pits),
        }
    }

    /// Build from a mover's view (mover's row first) for the given side to move.
    pub fn from_view(v: &View, to_move: Side, stores: [u8; 2]) -> Self {
        let pits = match to_move {
            Side::South => *v,
            Side::North => flip(v),
        };
        Position { pits, stores, to_move }
    }

    pub fn board_seeds(&self) -> u32 {
        seeds(&self.pits)
    }
}

impl fmt::Display for Position {
    /// A diagram: North's row on top, right to left (as he sees it from across), South below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let north: Vec<String> = self.pits[ROW..].iter().rev().map(|x| format!("{x:>2}")).collect();
        let south: Vec<String> = self.pits[..ROW].iter().map(|x| format!("{x:>2}")).collect();
        writeln!(f, "  North {:>2} | {} |", self.stores[1], north.join(" "))?;
        writeln!(f, "  South {:>2} | {} |", self.stores[0], south.join(" "))?;
        write!(f, "  to move: {}", self.to_move.name())
    }
}
