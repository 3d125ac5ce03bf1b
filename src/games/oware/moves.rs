//! O4–O6: the legal moves of a view, with their captures and children, or the ending that
//! applies instead.

use super::board::{View, PITS, ROW};
use super::rules::{GrandSlam, Rules};
use super::sow::{flip_packed, pack, sow_packed, unpack, Packed, OWN_ROW};

/// One legal move from a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The mover's own pit index 0..5.
    pub pit: u8,
    /// Seeds the mover captures with this move (O3; O4 awari adds his own row).
    pub captured: u8,
    /// The board after the move, from the **next** mover's view.
    pub child: View,
}

/// A position where the game ends before a move (O5, O6), seen by the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// O6: the mover has no seeds; the opponent takes every seed left.
    MoverEmpty,
    /// O5: the opponent is empty and no move feeds him; the mover takes every seed left.
    CannotFeed,
}

impl Ending {
    /// Net seeds the mover gets from the ones on the board, out of `n`.
    pub fn mover_net(self, n: i32) -> i32 {
        match self {
            Ending::MoverEmpty => -n,
            Ending::CannotFeed => n,
        }
    }
}

/// The legal moves of a view, or the ending that applies instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Ended(Ending),
    Moves(MoveList),
}

/// At most six moves: a fixed array avoids allocation in hot loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveList {
    len: u8,
    moves: [Move; ROW],
}

impl MoveList {
    const EMPTY: Move = Move { pit: 0, captured: 0, child: [0; PITS] };
    fn new() -> Self {
        MoveList { len: 0, moves: [Self::EMPTY; ROW] }
    }
    fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = m;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Rules {
    /// O4–O6: the legal moves of `v`, each with its captures and the child view, or the ending.
    pub fn node(&self, v: &View) -> Node {
        let x = pack(v);
        if x & OWN_ROW == 0 {
            return Node::Ended(Ending::MoverEmpty);
        }
        let opp_empty = x & !OWN_ROW == 0;
        let mut sowings: [Option<Packed>; ROW] = [None; ROW];
        let mut any = false;
        let mut all_slams = true;
        for (pit, slot) in sowings.iter_mut().enumerate() {
            if v[pit] == 0 {
                continue;
            }
            let s = sow_packed(x, pit);
            // O5: when the opponent has no seeds only feeding moves are candidates.
            if opp_empty && !s.feeds {
                continue;
            }
            any = true;
            all_slams &= s.grand_slam;
            *slot = Some(s);
        }
        if !any {
            return Node::Ended(Ending::CannotFeed);
        }
        let mut list = MoveList::new();
        for (pit, s) in sowings.iter().enumerate() {
            let Some(s) = s else { continue };
            let (board, captured) = if !s.grand_slam {
                (s.board, s.captured)
            } else {
                match self.grand_slam {
                    GrandSlam::NoCapture => (s.sown, 0),
                    GrandSlam::Forbidden if !all_slams => continue,
                    GrandSlam::Forbidden => (s.sown, 0),
                    GrandSlam::Awari if !all_slams => continue,
                    GrandSlam::Awari => {
                        // Forced grand slam: capture, then also take the own row.
                        let own_rest: u8 = unpack(s.board)[..ROW].iter().sum();
                        (0, s.captured + own_rest)
                    }
                }
            };
            list.push(Move { pit: pit as u8, captured, child: unpack(flip_packed(board)) });
        }
        Node::Moves(list)
    }
}
