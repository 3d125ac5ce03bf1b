//! The board's geometry (docs/rules/lukho.md "L1. Board and start"): 16 pits in two rows
//! of 8, numbered in sowing order (South 0..7, North 0..7), 3 seeds each at the start.
//! The packed board and its constant tables are both built on these numbers.

use crate::side::Side;

pub const PITS: usize = 16;
pub const ROW: usize = 8;
pub const START_SEEDS: u8 = 3;
pub const TOTAL_SEEDS: u32 = 48;

/// The absolute pit opposite absolute pit `p` (own index `i` faces opponent index `7-i`).
#[inline(always)]
pub fn opposite(p: usize) -> usize {
    PITS - 1 - p
}

/// The side whose row holds absolute pit `p`.
#[inline(always)]
pub fn row_of(p: usize) -> Side {
    if p < ROW {
        Side::South
    } else {
        Side::North
    }
}

/// Absolute pit of `side`'s own index `i`.
#[inline(always)]
pub fn abs_pit(side: Side, i: usize) -> usize {
    side.index() * ROW + i
}
