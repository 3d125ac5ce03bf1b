//! The Lukho board (docs/rules/lukho.md "L1. Board and start"): pits, knives and stores,
//! pit access, and the final totals.
//!
//! The 16 pits live in one `u128`, byte `p` = absolute pit `p` (South 0..7, North 0..7, the
//! sowing order). No pit ever holds more than 48 seeds, so adding one seed to a run of pits
//! is a single 128-bit addition that never carries between bytes: a whole lap costs a few
//! instructions whatever its length, which is what makes millions of games per second and
//! the 10^7-lap perpetual checks affordable.

use super::geometry::{PITS, ROW, START_SEEDS, TOTAL_SEEDS};
use super::tables::{byte_mask, byte_sum, get, set, BYTES, CLEAR, ONES};
use super::units::HalfSeeds;
use crate::side::Side;
use std::fmt;

/// Pits, knives and stores: everything but the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Byte `p` = seeds in absolute pit `p`.
    pub(crate) pits: u128,
    /// Bit `16 s + p` = absolute pit `p` is a knife of side `s` (either row). One word, not
    /// `[u16; 2]`: the game loop writes one owner's half and then compares the whole, and a
    /// half-word store followed by a whole-word load stalls on a failed store forward.
    pub(crate) knives: u32,
    /// Captured seeds `[south, north]` (knife seeds are not in the stores until the end).
    pub stores: [u8; 2],
}

impl Default for Board {
    /// 3 seeds in every pit, no knives, empty stores.
    fn default() -> Self {
        Board { pits: ONES * START_SEEDS as u128, knives: 0, stores: [0; 2] }
    }
}

/// A board given from outside (JSON, CLI) that no game can reach; each message names the field.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum BoardError {
    #[error("pits: {board} seeds on the board plus {stores} in the stores is more than {TOTAL_SEEDS}")]
    TooManySeeds { board: u32, stores: u32 },
    #[error("knives: pit {pit} has {value}; expected -1 (none), 0 (South) or 1 (North)")]
    KnifeOwner { pit: usize, value: i8 },
    #[error("knives: pit {pit} is a knife but holds {seeds} seeds (a knife holds at least 2)")]
    KnifeTooSmall { pit: usize, seeds: u8 },
}

impl Board {
    /// A checked board: at most 48 seeds in all, knife owners `-1`/`0`/`1`, every knife
    /// holding at least the 2 seeds it was made with.
    pub fn checked(pits: [u8; PITS], knives: [i8; PITS], stores: [u8; 2]) -> Result<Self, BoardError> {
        let board: u32 = pits.iter().map(|&x| x as u32).sum();
        let st = stores[0] as u32 + stores[1] as u32;
        if board + st > TOTAL_SEEDS {
            return Err(BoardError::TooManySeeds { board, stores: st });
        }
        for (pit, &value) in knives.iter().enumerate() {
            if !(-1..=1).contains(&value) {
                return Err(BoardError::KnifeOwner { pit, value });
            }
            if value >= 0 && pits[pit] < 2 {
                return Err(BoardError::KnifeTooSmall { pit, seeds: pits[pit] });
            }
        }
        Ok(Board::new(pits, knives, stores))
    }

    /// A board from absolute pits and knives (`-1` none, `0` South, `1` North), as in the JSON
    /// form. Unchecked (see [`Board::checked`]); the engine relies on at most 48 seeds.
    pub fn new(pits: [u8; PITS], knives: [i8; PITS], stores: [u8; 2]) -> Self {
        let mut k = 0u32;
        for (p, &owner) in knives.iter().enumerate() {
            if let 0 | 1 = owner {
                k |= 1 << (16 * owner as u32 + p as u32);
            }
        }
        Board { pits: u128::from_le_bytes(pits), knives: k, stores }
    }

    pub fn pits(&self) -> [u8; PITS] {
        self.pits.to_le_bytes()
    }

    #[inline(always)]
    pub fn pit(&self, p: usize) -> u8 {
        get(self.pits, p)
    }

    /// Empty pit `p` (one AND).
    #[inline(always)]
    pub fn clear_pit(&mut self, p: usize) {
        self.pits &= CLEAR[p];
    }

    pub fn set_pit(&mut self, p: usize, v: u8) {
        set(&mut self.pits, p, v)
    }

    /// The packed pits (byte `p` = pit `p`): a compact, hashable key.
    #[inline(always)]
    pub fn packed(&self) -> u128 {
        self.pits
    }

    /// Owner of the knife at absolute pit `p`, if any.
    pub fn knife(&self, p: usize) -> Option<Side> {
        if self.side_knives(Side::South) & (1 << p) != 0 {
            Some(Side::South)
        } else if self.side_knives(Side::North) & (1 << p) != 0 {
            Some(Side::North)
        } else {
            None
        }
    }

    /// Knives in the JSON form: per absolute pit, `-1` none, `0` South, `1` North.
    pub fn knives_json(&self) -> [i8; PITS] {
        std::array::from_fn(|p| self.knife(p).map_or(-1, |s| s.index() as i8))
    }

    /// Every knife, whoever owns it.
    #[inline(always)]
    pub fn all_knives(&self) -> u16 {
        self.knives as u16 | (self.knives >> 16) as u16
    }

    /// `side`'s knives (bit `p` = absolute pit `p`).
    #[inline(always)]
    pub fn side_knives(&self, side: Side) -> u16 {
        (self.knives >> (16 * side.index())) as u16
    }

    /// Seeds on the board (knives included).
    pub fn board_seeds(&self) -> u32 {
        byte_sum(self.pits)
    }

    /// Seeds in `side`'s knives.
    #[inline]
    pub fn knife_seeds(&self, side: Side) -> u32 {
        byte_sum(self.pits & byte_mask(self.side_knives(side)))
    }

    /// Seeds that can still move: on the board and not in a knife. Every irreversible event
    /// (a capture, a new knife, a seed sown into a knife) lowers it and nothing raises it, so
    /// two positions with different free counts can never be the same position.
    #[inline]
    pub fn free_seeds(&self) -> u32 {
        byte_sum(self.pits & !byte_mask(self.all_knives()))
    }

    /// The lowest own index of `side` that is non-empty and not a knife: the forced move.
    #[inline]
    pub fn forced_pit(&self, side: Side) -> Option<usize> {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let s = side.index();
        let row = if s == 0 { self.pits as u64 } else { (self.pits >> 64) as u64 };
        // High bit of byte i set iff byte i is non-zero (no carries between bytes).
        let nonzero = (((row & LOW7) + LOW7) | row) & HIGH;
        let knives = BYTES[((self.all_knives() >> (8 * s)) & 0xff) as usize];
        let movable = nonzero & !knives;
        (movable != 0).then(|| (movable.trailing_zeros() / 8) as usize)
    }

    /// Final totals when the game ends because `mover` cannot move: the other player takes
    /// every non-knife seed, each knife goes to its owner.
    pub fn sweep_totals(&self, mover: Side) -> [HalfSeeds<u16>; 2] {
        let mut t = self.knife_totals();
        t[mover.other().index()] += self.free_seeds();
        [HalfSeeds(2 * t[0] as u16), HalfSeeds(2 * t[1] as u16)]
    }

    /// Final totals under `split`: store and own knives to each, every other seed (plus
    /// `hands`, seeds still in the sowers' hands) halved.
    pub fn split_totals(&self, hands: u32) -> [HalfSeeds<u16>; 2] {
        let t = self.knife_totals();
        let rest = self.free_seeds() + hands;
        [HalfSeeds((2 * t[0] + rest) as u16), HalfSeeds((2 * t[1] + rest) as u16)]
    }

    /// Store plus own knives, per side.
    fn knife_totals(&self) -> [u32; 2] {
        [self.stores[0] as u32 + self.knife_seeds(Side::South), self.stores[1] as u32 + self.knife_seeds(Side::North)]
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board")
            .field("pits", &self.pits())
            .field("knives", &self.knives_json())
            .field("stores", &self.stores)
            .finish()
    }
}

impl fmt::Display for Board {
    /// North's row on top, right to left (as he sees it from across), South below; a knife is
    /// marked `s` or `n` after its count.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |p: usize| {
            let mark = match self.knife(p) {
                Some(Side::South) => "s",
                Some(Side::North) => "n",
                None => " ",
            };
            format!("{:>2}{mark}", self.pit(p))
        };
        let north: Vec<String> = (ROW..PITS).rev().map(cell).collect();
        let south: Vec<String> = (0..ROW).map(cell).collect();
        writeln!(f, "  North {:>2} |{} |", self.stores[1], north.join(""))?;
        write!(f, "  South {:>2} |{} |", self.stores[0], south.join(""))
    }
}
