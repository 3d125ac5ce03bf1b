//! O1: the board of two rows of six pits, seen from the player to move ([`View`]), and what
//! every other part needs of it: turning it round for the opponent and counting its seeds.

pub const PITS: usize = 12;
pub const ROW: usize = 6;
pub const TOTAL_SEEDS: u32 = 48;

/// Board from the mover's view: `[0..6]` his row, `[6..12]` the opponent's.
pub type View = [u8; PITS];

/// Turn a mover's view into the opponent's view of the same board.
#[inline(always)]
pub fn flip(v: &View) -> View {
    let mut o = [0u8; PITS];
    o[..ROW].copy_from_slice(&v[ROW..]);
    o[ROW..].copy_from_slice(&v[..ROW]);
    o
}

/// Seeds on the board.
#[inline]
pub fn seeds(v: &View) -> u32 {
    v.iter().map(|&x| x as u32).sum()
}
