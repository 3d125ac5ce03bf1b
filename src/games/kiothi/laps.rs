//! A lap in bulk. A lap of `h` warriors from boma `x` drops one in each of `x+1 … x+h` (mod 20,
//! no origin skip): `h / 20` in every boma, then one in each of the next `h % 20`. The board is
//! kept as three `u64` words (one byte per boma; a byte never exceeds 255 because a position
//! holds at most 255 warriors, so no carry crosses bytes) and a lap is three word additions
//! from a precomputed table, which also gives the boma it dropped into and what it adds to the
//! board's Zobrist hash.

use super::{Board, ALL_BOMA, BOMA};
use crate::rng::{splitmix64, GOLDEN};

/// The board as words: byte `a % 8` of word `a / 8` is boma `a` (bytes 20..23 stay zero).
pub(super) type Words = [u64; 3];

/// Zobrist weight of one warrior in each boma; the hash of a board is `Σ b[a]·ZOBRIST[a]`.
pub(super) const ZOBRIST: [u64; BOMA] = {
    let mut z = [0; BOMA];
    let mut a = 0;
    while a < BOMA {
        z[a] = splitmix64((a as u64).wrapping_mul(GOLDEN));
        a += 1;
    }
    z
};

/// A partial lap (fewer than 20 warriors) from `x` with `r` warriors: the words to add, the
/// boma it drops into, and the hash it adds.
#[derive(Clone, Copy)]
struct PartialLap {
    words: Words,
    bits: u32,
    hash: u64,
}

const LAPS: [[PartialLap; BOMA]; BOMA] = {
    let mut table = [[PartialLap { words: [0; 3], bits: 0, hash: 0 }; BOMA]; BOMA];
    let mut x = 0;
    while x < BOMA {
        let mut r = 0;
        while r < BOMA {
            let mut k = 1;
            while k <= r {
                let a = (x + k) % BOMA;
                let t = &mut table[x][r];
                t.words[a / 8] += 1 << (a % 8 * 8);
                t.bits |= 1 << a;
                t.hash = t.hash.wrapping_add(ZOBRIST[a]);
                k += 1;
            }
            r += 1;
        }
        x += 1;
    }
    table
};

/// One warrior in every boma.
const ROUND: PartialLap = {
    let mut l = PartialLap { words: [0; 3], bits: ALL_BOMA, hash: 0 };
    let mut a = 0;
    while a < BOMA {
        l.words[a / 8] += 1 << (a % 8 * 8);
        l.hash = l.hash.wrapping_add(ZOBRIST[a]);
        a += 1;
    }
    l
};

pub(super) fn to_words(b: &Board) -> Words {
    let mut bytes = [0u8; 24];
    bytes[..BOMA].copy_from_slice(b);
    let w = |i: usize| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap());
    [w(0), w(1), w(2)]
}

pub(super) fn to_board(w: &Words) -> Board {
    let mut bytes = [0u8; 24];
    for i in 0..3 {
        bytes[8 * i..8 * i + 8].copy_from_slice(&w[i].to_le_bytes());
    }
    bytes[..BOMA].try_into().unwrap()
}

/// Per boma: its byte mask within its word (`SELECT`) and one warrior in it (`UNIT`), so that
/// reading and emptying a boma use constant word indices only and the board stays in registers.
const SELECT: [Words; BOMA] = {
    let mut t = [[0; 3]; BOMA];
    let mut a = 0;
    while a < BOMA {
        t[a][a / 8] = 0xff << (a % 8 * 8);
        a += 1;
    }
    t
};
const UNIT: [Words; BOMA] = {
    let mut t = [[0; 3]; BOMA];
    let mut a = 0;
    while a < BOMA {
        t[a][a / 8] = 1 << (a % 8 * 8);
        a += 1;
    }
    t
};

#[inline(always)]
pub(super) fn get(w: &Words, a: usize) -> u32 {
    let s = &SELECT[a];
    (((w[0] & s[0]) | (w[1] & s[1]) | (w[2] & s[2])) >> (a % 8 * 8)) as u32
}

/// Remove `n` warriors from boma `a`.
#[inline(always)]
pub(super) fn remove(w: &mut Words, a: usize, n: u32) {
    for (x, u) in w.iter_mut().zip(UNIT[a]) {
        *x -= u * n as u64;
    }
}

/// Empty boma `a`, returning what it held.
#[inline(always)]
pub(super) fn take(w: &mut Words, a: usize) -> u32 {
    let h = get(w, a);
    remove(w, a, h);
    h
}

/// Drop `hand` warriors one per boma from `from + 1` on. Returns the landing boma, the boma
/// dropped into and the hash added.
#[inline(always)]
pub(super) fn lap(w: &mut Words, from: usize, hand: u32) -> (usize, u32, u64) {
    // Hands under 20 are the rule: skip the division on that (well-predicted) path.
    let (rounds, rest) =
        if hand < BOMA as u32 { (0, hand as usize) } else { (hand / BOMA as u32, (hand % BOMA as u32) as usize) };
    let part = &LAPS[from][rest];
    let (mut bits, mut hash) = (part.bits, part.hash);
    if rounds > 0 {
        for (x, r) in w.iter_mut().zip(ROUND.words) {
            *x += r * rounds as u64;
        }
        bits = ALL_BOMA;
        hash = hash.wrapping_add(ROUND.hash.wrapping_mul(rounds as u64));
    }
    for (x, p) in w.iter_mut().zip(part.words) {
        *x += p;
    }
    let x = from + rest;
    (if x >= BOMA { x - BOMA } else { x }, bits, hash)
}

pub(super) fn zobrist(w: &Words) -> u64 {
    (0..BOMA).fold(0u64, |h, a| h.wrapping_add(ZOBRIST[a].wrapping_mul(get(w, a) as u64)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lap_in_words_matches_one_by_one() {
        for from in 0..BOMA {
            for hand in 0..70u32 {
                let ones = [1u8; BOMA];
                let mut w = to_words(&ones);
                let h0 = zobrist(&w);
                let (land, bits, added) = lap(&mut w, from, hand);
                let mut b = ones;
                let mut p = from;
                let mut mask = 0u32;
                for _ in 0..hand {
                    p = (p + 1) % BOMA;
                    b[p] += 1;
                    mask |= 1 << p;
                }
                assert_eq!((to_board(&w), land, bits), (b, p, mask), "from {from} hand {hand}");
                assert_eq!(h0.wrapping_add(added), zobrist(&w), "hash, from {from} hand {hand}");
            }
        }
    }

    #[test]
    fn words_round_trip() {
        let b: Board = std::array::from_fn(|a| (a * 7 % 13) as u8);
        let mut w = to_words(&b);
        assert_eq!(to_board(&w), b);
        for (a, &x) in b.iter().enumerate() {
            assert_eq!(get(&w, a), x as u32);
        }
        assert_eq!(take(&mut w, 19), b[19] as u32);
        assert_eq!(get(&w, 19), 0);
        assert_eq!(get(&w, 18), b[18] as u32);
    }
}
