//! O2–O3: one sowing and its captures, before the grand-slam variant (O4) looks at it.
//!
//! A sowing works on the board packed into the byte lanes of a `u128` (pit `i` in bits
//! `8i..8i + 8`): every seed it drops is one lane-wise add of a mask from a table, so the board
//! stays in registers instead of being written a byte at a time and read back whole.

use super::board::{View, PITS, ROW};

/// Result of sowing pit `pit` of a view (before any grand-slam filtering).
#[derive(Clone, Copy, Debug)]
pub struct Sowing {
    /// Board after sowing and capturing, still from the mover's view.
    pub board: View,
    /// Board after sowing, before capturing.
    pub sown: View,
    pub captured: u8,
    /// The captures would take every seed of the opponent's row.
    pub grand_slam: bool,
    /// The sowing put at least one seed into the opponent's row.
    pub feeds: bool,
}

/// A [`Sowing`] on packed boards ([`pack`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Packed {
    pub board: u128,
    pub sown: u128,
    pub captured: u8,
    pub grand_slam: bool,
    pub feeds: bool,
}

/// The lanes of the mover's row.
pub(super) const OWN_ROW: u128 = (1 << (8 * ROW)) - 1;
/// The lanes of the board.
const BOARD: u128 = (1 << (8 * PITS)) - 1;
/// One seed in every pit.
const ONES: u128 = BOARD / 0xff;

/// `REST[pit][r]`: one seed in each of the `r < 11` pits after `pit` (never `pit` itself).
const REST: [[u128; 11]; ROW] = {
    let mut t = [[0u128; 11]; ROW];
    let mut pit = 0;
    while pit < ROW {
        let mut r = 1;
        while r < 11 {
            t[pit][r] = t[pit][r - 1] | 1 << (8 * ((pit + r) % PITS));
            r += 1;
        }
        pit += 1;
    }
    t
};

/// The board as byte lanes.
#[inline(always)]
pub(super) fn pack(v: &View) -> u128 {
    let mut b = [0u8; 16];
    b[..PITS].copy_from_slice(v);
    u128::from_le_bytes(b)
}

/// The board of packed lanes.
#[inline(always)]
pub(super) fn unpack(x: u128) -> View {
    let b = x.to_le_bytes();
    let mut v = [0u8; PITS];
    v.copy_from_slice(&b[..PITS]);
    v
}

/// [`super::flip`] of a packed board: the two rows swap places.
#[inline(always)]
pub(super) fn flip_packed(x: u128) -> u128 {
    ((x >> (8 * ROW)) | (x << (8 * ROW))) & BOARD
}

/// The seeds of lane `k`.
#[inline(always)]
fn lane(x: u128, k: usize) -> u8 {
    (x >> (8 * k)) as u8
}

/// O2–O3: lift pit `pit` (0..5, non-empty) and sow counterclockwise, skipping the origin
/// on every lap; capture backwards from the last pit while it is an opponent pit holding 2 or 3.
#[inline]
pub fn sow(v: &View, pit: usize) -> Sowing {
    let s = sow_packed(pack(v), pit);
    Sowing {
        board: unpack(s.board),
        sown: unpack(s.sown),
        captured: s.captured,
        grand_slam: s.grand_slam,
        feeds: s.feeds,
    }
}

/// [`sow`] on a packed board (every lane below 256 after the sowing: at most 255 seeds in all).
#[inline(always)]
pub(super) fn sow_packed(x: u128, pit: usize) -> Packed {
    debug_assert!(pit < ROW && lane(x, pit) > 0);
    let seeds = lane(x, pit) as usize;
    // Each full lap drops one seed in each of the 11 other pits, the rest fall in the pits after.
    let laps = seeds / 11;
    let rest = seeds % 11;
    let lifted = x & !(0xff << (8 * pit));
    let mut sown = lifted + REST[pit][rest];
    if laps > 0 {
        sown += laps as u128 * (ONES & !(0xff << (8 * pit)));
    }
    // Without a rest the last seed of the last full lap fell in the pit just before the origin.
    let last = if rest == 0 { (pit + PITS - 1) % PITS } else { (pit + rest) % PITS };
    let feeds = pit + seeds >= ROW;
    let mut b = sown;
    let mut captured = 0u8;
    let mut k = last;
    while k >= ROW {
        let s = lane(b, k);
        if s != 2 && s != 3 {
            break;
        }
        captured += s;
        b &= !(0xff << (8 * k));
        k -= 1;
    }
    let grand_slam = captured > 0 && b & !OWN_ROW == 0;
    Packed { board: b, sown, captured, grand_slam, feeds }
}
