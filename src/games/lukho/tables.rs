//! Constant tables of the packed board (byte `p` of a `u128` = pit `p`): one seed per pit,
//! runs of seeds, knife bit masks to byte masks, the additions of a lap, pit-clearing masks.
//! A lap then costs a table load and an addition whatever its length.

use super::geometry::{PITS, ROW, TOTAL_SEEDS};

/// One seed in every pit.
pub(super) const ONES: u128 = u128::from_le_bytes([1; 16]);
pub(super) const ONES64: u64 = u64::from_le_bytes([1; 8]);

/// `RUN[r]`: one seed in each of the pits `0..r`.
pub(super) const RUN: [u128; PITS] = {
    let mut t = [0u128; PITS];
    let mut r = 1;
    while r < PITS {
        t[r] = t[r - 1] | (1u128 << (8 * (r - 1)));
        r += 1;
    }
    t
};

/// `BYTES[m]`: `0xff` in byte `i` for each bit `i` of `m` (knife bit masks to byte masks).
pub(super) const BYTES: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let mut i = 0;
        while i < 8 {
            if m & (1 << i) != 0 {
                t[m] |= 0xff << (8 * i);
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// Byte mask (`0xff` per pit) of the pits whose bit is set in `mask`.
#[inline(always)]
pub(crate) fn byte_mask(mask: u16) -> u128 {
    BYTES[(mask & 0xff) as usize] as u128 | (BYTES[(mask >> 8) as usize] as u128) << 64
}

/// Sum of the 16 bytes (each partial sum stays below 256 since the board holds <= 48 seeds).
#[inline(always)]
pub(crate) fn byte_sum(x: u128) -> u32 {
    let lo = (x as u64).wrapping_mul(ONES64) >> 56;
    let hi = ((x >> 64) as u64).wrapping_mul(ONES64) >> 56;
    (lo + hi) as u32
}

/// Pit `p` of packed pits `b`. Through the 64-bit half that holds it: a variable 128-bit
/// shift is about twice the instructions, and this read is on every lap's critical path.
#[inline(always)]
pub(crate) fn get(b: u128, p: usize) -> u8 {
    let half = std::hint::select_unpredictable(p < ROW, b as u64, (b >> 64) as u64);
    (half >> (8 * (p % ROW))) as u8
}

#[inline(always)]
pub(crate) fn set(b: &mut u128, p: usize, v: u8) {
    *b = (*b & !(0xffu128 << (8 * p))) | (v as u128) << (8 * p);
}

/// The seeds one lap adds: `n` seeds one per pit into `after+1, after+2, …` (wrapping).
pub(super) const fn run_after(after: usize, n: u32) -> u128 {
    let full = (n / PITS as u32) as u128;
    let rest = (n % PITS as u32) as usize;
    full * ONES + RUN[rest].rotate_left(8 * ((after + 1) % PITS) as u32)
}

/// Rows of [`LAP`]: every hand a lap can have (at most the 48 seeds of the game), padded to a
/// power of two so that an index is a shift and a mask proves it in bounds (no check).
pub(super) const LAP_ROW: usize = 64;

/// `LAP[after][n]` = [`run_after`]`(after, n)`: the hot sowing loop reads a lap's additions
/// instead of computing a 128-bit rotation (16 KB, stays in L1).
pub(super) static LAP: [[u128; LAP_ROW]; PITS] = {
    let mut t = [[0u128; LAP_ROW]; PITS];
    let mut after = 0;
    while after < PITS {
        let mut n = 0;
        while n <= TOTAL_SEEDS as usize {
            t[after][n] = run_after(after, n as u32);
            n += 1;
        }
        after += 1;
    }
    t
};

/// `CLEAR[p]`: every byte but pit `p`'s (emptying a pit is one AND).
pub(super) const CLEAR: [u128; PITS] = {
    let mut t = [0u128; PITS];
    let mut p = 0;
    while p < PITS {
        t[p] = !(0xffu128 << (8 * p));
        p += 1;
    }
    t
};

/// Drop `n` seeds one per pit into `after+1, after+2, …` (wrapping, as many laps as needed).
#[inline(always)]
pub(crate) fn add_run(b: u128, after: usize, n: u32) -> u128 {
    debug_assert!(after < PITS && n <= TOTAL_SEEDS);
    b + LAP[after % PITS][n as usize % LAP_ROW]
}

/// One lap of hand `h` in the sower's frame, for a state whose byte 0 holds the hand: the run
/// of `h` seeds after byte 0, turned by the `h % 16` pits the frame turns in that lap, less the
/// hand `h` where byte 0 lands when turned (wrapping arithmetic). Added to the whole state
/// turned, it lifts the hand and sows it in one addition. Exact, because a `u128` sum is exact
/// modulo 2^128 and the true result has no negative byte.
const fn lifted_lap(h: usize) -> u128 {
    let landing = (PITS - h % PITS) % PITS;
    let turned = run_after(0, h as u32).rotate_right(8 * (h % PITS) as u32);
    turned.wrapping_sub((h as u128) << (8 * landing))
}

/// [`lifted_lap`] by hand, its low and high halves in two tables of 8-byte entries, so a lap
/// indexes them with the hand itself (a scaled address) instead of shifting it first: one
/// instruction less on the lap's chain of dependent instructions.
pub(super) static LIFTED_LAP: [[u64; LAP_ROW]; 2] = {
    let mut t = [[0u64; LAP_ROW]; 2];
    let mut h = 0;
    while h <= TOTAL_SEEDS as usize {
        let x = lifted_lap(h);
        t[0][h] = x as u64;
        t[1][h] = (x >> 64) as u64;
        h += 1;
    }
    t
};
