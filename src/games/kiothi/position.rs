//! [`Position`]: what the rules need to continue (docs/rules/README.md C3), its invariants
//! and its diagram.

use super::{KiothiError, Setup};
use crate::side::Side;
use std::fmt;

/// Boma on the board.
pub const BOMA: usize = 20;
/// Boma per row.
pub const ROW: usize = 10;
/// Mask of every boma.
pub const ALL_BOMA: u32 = (1 << BOMA) - 1;

/// The board, absolute, in sowing order.
pub type Board = [u8; BOMA];

/// What the rules need to continue (docs/rules/README.md C3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// South 0..9 then North 0..9 (sowing order).
    pub boma: Board,
    /// Warriors captured: `[south, north]`.
    pub prisons: [u8; 2],
    /// Bit `a` set = absolute boma `a` is nki. Always a subset of the occupied boma.
    pub nki: u32,
    pub to_move: Side,
    /// Ply number from 1; turns 1 and 2 are the redistributions.
    pub turn: u32,
}

impl Default for Position {
    fn default() -> Self {
        Position::start(Setup::default())
    }
}

/// The phase part of a position (K9: redistribution turns are never repeated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Turn 1 (South) or 2 (North).
    Redistribution(u8),
    Play,
}

impl Position {
    /// K1: turn 1, South to move, no nki yet.
    pub fn start(setup: Setup) -> Self {
        let (first, per) = setup.shape();
        let mut boma = [0u8; BOMA];
        for i in first..ROW {
            boma[i] = per;
            boma[ROW + i] = per;
        }
        Position { boma, prisons: [0, 0], nki: 0, to_move: Side::South, turn: 1 }
    }

    pub fn phase(&self) -> Phase {
        match self.turn {
            1 | 2 => Phase::Redistribution(self.turn as u8),
            _ => Phase::Play,
        }
    }

    pub fn is_redistribution(&self) -> bool {
        self.turn <= 2
    }

    /// Absolute index of the mover's own index 0.
    #[inline(always)]
    pub fn own_base(&self) -> usize {
        self.to_move.index() * ROW
    }

    /// Absolute boma of `side`'s own index `i`.
    #[inline(always)]
    pub fn absolute(side: Side, i: usize) -> usize {
        side.index() * ROW + i
    }

    pub fn is_nki(&self, abs: usize) -> bool {
        self.nki >> abs & 1 == 1
    }

    /// Mask of the occupied boma.
    pub fn occupied(&self) -> u32 {
        occupied_mask(&self.boma)
    }

    pub fn warriors_on_board(&self) -> u32 {
        self.boma.iter().map(|&x| x as u32).sum()
    }

    pub fn warriors(&self) -> u32 {
        self.warriors_on_board() + self.prisons[0] as u32 + self.prisons[1] as u32
    }

    /// Final totals (South, North) when the mover nets `value` of the board's warriors: he
    /// ends with `(n + value) / 2` of the `n` on the board, the opponent with the rest, each
    /// on top of his prison.
    pub fn final_totals(&self, value: i32) -> [f64; 2] {
        let n = self.warriors_on_board() as f64;
        let mover = (n + value as f64) / 2.0;
        let mut t = [self.prisons[0] as f64, self.prisons[1] as f64];
        t[self.to_move.index()] += mover;
        t[self.to_move.other().index()] += n - mover;
        t
    }

    /// Invariants every position of a game keeps. Warriors are counted in `u8`, so the total
    /// (board plus prisons) must stay within 255; an nki boma is always occupied (K3); the
    /// redistribution turns have a fixed mover and no nki yet.
    pub fn validate(&self) -> Result<(), KiothiError> {
        let err = |field, message: String| Err(KiothiError::Position { field, message });
        if self.warriors() > u8::MAX as u32 {
            return err("pits", format!("{} warriors with the stores; at most 255", self.warriors()));
        }
        if self.turn == 0 {
            return err("turn", "turns count from 1".into());
        }
        if self.turn > MAX_TURN {
            return err("turn", format!("{} is past the last turn a position may start at, {MAX_TURN}", self.turn));
        }
        if self.nki & !ALL_BOMA != 0 {
            return err("nki", "flags beyond the 20 boma".into());
        }
        if self.nki & !self.occupied() != 0 {
            let a = (self.nki & !self.occupied()).trailing_zeros();
            return err("nki", format!("boma {a} is nki but empty (an nki boma is always occupied)"));
        }
        if self.is_redistribution() {
            let want = if self.turn == 1 { Side::South } else { Side::North };
            if self.to_move != want {
                return err("to_move", format!("turn {} is {}'s redistribution", self.turn, want.name()));
            }
            if self.nki != 0 {
                return err("nki", "no boma is nki before both redistributions are done".into());
            }
        }
        Ok(())
    }
}

/// The last turn a position may start at: every ply adds one to `turn`, so a game or search
/// from here has over three billion plies before the count would overflow.
const MAX_TURN: u32 = 1 << 30;

#[inline(always)]
pub(crate) fn occupied_mask(b: &Board) -> u32 {
    b.iter().enumerate().fold(0u32, |m, (a, &x)| m | ((x != 0) as u32) << a)
}

impl fmt::Display for Position {
    /// A diagram: North's row on top, right to left (as he sees it from across), South below;
    /// `*` marks an nki boma.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |a: usize| format!("{:>2}{}", self.boma[a], if self.is_nki(a) { '*' } else { ' ' });
        let north: Vec<String> = (ROW..BOMA).rev().map(cell).collect();
        let south: Vec<String> = (0..ROW).map(cell).collect();
        writeln!(f, "  North {:>2} | {}|", self.prisons[1], north.join(""))?;
        writeln!(f, "  South {:>2} | {}|", self.prisons[0], south.join(""))?;
        write!(f, "  turn {}, {} to move", self.turn, self.to_move.name())
    }
}

#[cfg(test)]
mod fuzz_regressions {
    use super::*;

    /// A turn near `u32::MAX` is refused: the plies after it would overflow the turn count,
    /// and the end-of-game check already looks one ply ahead.
    #[test]
    fn a_turn_near_the_counter_limit_is_refused() {
        let json = |turn: u64| {
            let mut pits = [0u8; BOMA];
            pits[9] = 1;
            pits[19] = 1;
            serde_json::json!({"pits": pits, "to_move": "south", "turn": turn})
        };
        for turn in [u32::MAX as u64 - 1, u32::MAX as u64, MAX_TURN as u64 + 1] {
            let e = Position::from_json(&json(turn)).unwrap_err().to_string();
            assert!(e.contains("turn"), "{turn}: {e}");
        }
        let p = Position::from_json(&json(MAX_TURN as u64)).unwrap();
        assert_eq!(p.turn, MAX_TURN);
        let rules = super::super::Rules {
            setup: Setup::S6x5,
            redistribute: super::super::Redistribute::Exactly2,
            nki_clear: super::super::NkiClear::Lift,
            max_relays: None,
        };
        let mut g = super::super::Game::new(rules, p).unwrap();
        let m = g.legal_sowings()[0];
        g.play(&super::super::Move::Sow(m)).unwrap();
        assert_eq!(g.position.turn, MAX_TURN + 1);
    }
}
