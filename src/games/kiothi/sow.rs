//! K3–K7: one sowing move, lap by lap, with relays and exact perpetual-sowing detection.
//!
//! **Laps in bulk.** A lap of `h` warriors from boma `x` drops one in each of `x+1 … x+h`
//! (mod 20, no origin skip): `h / 20` in every boma, then one in each of the next `h % 20`.
//! The board is kept as three `u64` words (one byte per boma; a byte never exceeds 255 because
//! a position holds at most 255 warriors, so no carry crosses bytes) and a lap is three word
//! additions from a precomputed table. Every drop adds one, so the landing boma "was occupied
//! before the last drop" exactly when it holds two or more afterwards; that one test serves
//! K4 and K5.
//!
//! **K7.** After the first lap, where the sowing goes depends only on the counts and the
//! landing boma: nki flags never change a lap (they only decide the capture at the very end,
//! and under `nki-clear=pass` they are only ever cleared). So the relay states
//! `(board, landing)` form a deterministic sequence, and the move is perpetual exactly when
//! that sequence repeats. The sequences behave like walks in a random mapping of a huge state
//! space, and real ones run for billions of relays before repeating: in 2000 random games from
//! the default setup (1.5 M candidate moves) 5 sowings ran over 10^5 relays, all perpetual, the
//! longest found after 1.7·10^9 relays, while no sowing that ended took over 1 729; the
//! `perft 6` of the midgame test position meets 123 of them, up to 1.35·10^10 relays. So two
//! exact detectors run side by side, at about 5.6 ns of CPU per relay all told:
//!
//! - Brent's cycle finding (one saved state, compared every relay) catches every cycle, short
//!   ones included, within about `2(μ + λ)` relays;
//! - distinguished points: a Zobrist hash of the state is updated in O(1) per relay, and about
//!   one state in 2^16 (by hash) is *distinguished*. Those met by the current sowing are
//!   remembered, so a long cycle is caught within `μ + λ + ~2^16` relays; and once a long
//!   sowing's verdict is known, its distinguished states are published with their exact
//!   verdict (perpetual, or how the rest of the sowing ends) in a global `DashMap`, so a later
//!   sowing that joins a known trajectory (the same move again, or another one merging into it)
//!   stops at the next distinguished state. Only exact facts are stored, so the verdicts never
//!   depend on what the cache holds.

use super::{Board, Illegal, ALL_BOMA, BOMA, ROW};
use crate::rng::{splitmix64, GOLDEN};
use dashmap::DashMap;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

/// One state in `2^DP_BITS` is distinguished.
const DP_BITS: u32 = 16;
/// Sowings with more relays than this count as "long" in [`SowingStats`].
pub const LONG_SOWING_RELAYS: u64 = 100_000;
/// The distinguished-point map stops growing at this many states (about 100 bytes each).
const DP_CAP: usize = 1 << 21;

/// The board as words: byte `a % 8` of word `a / 8` is boma `a` (bytes 20..23 stay zero).
type Words = [u64; 3];

/// A sowing that ended (before any capture).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sown {
    /// The board when the last warrior has fallen, before any capture.
    pub board: Board,
    /// Absolute boma where the sowing ended (it was empty and holds one warrior now).
    pub end: u8,
    /// Boma lifted from: the origin and every relay boma (K3 clears their nki).
    pub lifted: u32,
    /// Boma that received a warrior in a relay lap (the `pass` variant clears their nki).
    pub relay_sown: u32,
    pub relays: u64,
}

/// What the relays from a relay state come to. For `Ends`, the masks and count are those of
/// the relays from that state on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Ends { board: Words, end: u8, lifted: u32, relay_sown: u32, relays: u64 },
    Perpetual,
}

type RelayState = (Words, u8);

// ---- constant tables -------------------------------------------------------------------

/// Zobrist weight of one warrior in each boma; the hash of a board is `Σ b[a]·ZOBRIST[a]`.
const ZOBRIST: [u64; BOMA] = {
    let mut z = [0; BOMA];
    let mut a = 0;
    while a < BOMA {
        z[a] = splitmix64((a as u64).wrapping_mul(GOLDEN));
        a += 1;
    }
    z
};

/// Mixed into the hash for the landing boma.
const LANDING: [u64; BOMA] = {
    let mut z = [0; BOMA];
    let mut a = 0;
    while a < BOMA {
        z[a] = splitmix64((100 + a as u64).wrapping_mul(GOLDEN));
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

// ---- board words ---------------------------------------------------------------------

fn to_words(b: &Board) -> Words {
    let mut bytes = [0u8; 24];
    bytes[..BOMA].copy_from_slice(b);
    let w = |i: usize| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap());
    [w(0), w(1), w(2)]
}

fn to_board(w: &Words) -> Board {
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
fn get(w: &Words, a: usize) -> u32 {
    let s = &SELECT[a];
    (((w[0] & s[0]) | (w[1] & s[1]) | (w[2] & s[2])) >> (a % 8 * 8)) as u32
}

/// Remove `n` warriors from boma `a`.
#[inline(always)]
fn remove(w: &mut Words, a: usize, n: u32) {
    for (x, u) in w.iter_mut().zip(UNIT[a]) {
        *x -= u * n as u64;
    }
}

/// Empty boma `a`, returning what it held.
#[inline(always)]
fn take(w: &mut Words, a: usize) -> u32 {
    let h = get(w, a);
    remove(w, a, h);
    h
}

/// Drop `hand` warriors one per boma from `from + 1` on. Returns the landing boma, the boma
/// dropped into and the hash added.
#[inline(always)]
fn lap(w: &mut Words, from: usize, hand: u32) -> (usize, u32, u64) {
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

fn zobrist(w: &Words) -> u64 {
    (0..BOMA).fold(0u64, |h, a| h.wrapping_add(ZOBRIST[a].wrapping_mul(get(w, a) as u64)))
}

#[inline(always)]
fn distinguished(hash: u64, x: usize) -> bool {
    (hash ^ LANDING[x]).wrapping_mul(0x2545_f491_4f6c_dd1d) >> (64 - DP_BITS) == 0
}

// ---- shared verdicts and statistics ---------------------------------------------------

fn dp_map() -> &'static DashMap<RelayState, Verdict> {
    static MAP: OnceLock<DashMap<RelayState, Verdict>> = OnceLock::new();
    MAP.get_or_init(DashMap::new)
}

static PERPETUAL: AtomicU64 = AtomicU64::new(0);
static LONG_ENDED: AtomicU64 = AtomicU64::new(0);
static LONG_SIMULATED: AtomicU64 = AtomicU64::new(0);
static DP_HITS: AtomicU64 = AtomicU64::new(0);
static MAX_ENDED: AtomicU64 = AtomicU64::new(0);
static MAX_SIMULATED: AtomicU64 = AtomicU64::new(0);
static RELAYS_IN_LONG: AtomicU64 = AtomicU64::new(0);

/// Process-wide counts since start or the last [`reset_sowing_stats`]. Only rare events are
/// counted (atomics stay out of the common path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SowingStats {
    /// Perpetual sowings met (K7), however found.
    pub perpetual: u64,
    /// Sowings met that ended after more than [`LONG_SOWING_RELAYS`] relays.
    pub long_ended: u64,
    /// Sowings whose simulation itself ran more than [`LONG_SOWING_RELAYS`] relays (ending or
    /// perpetual; a verdict found in the distinguished-point map stops the simulation early).
    pub long_simulated: u64,
    /// Relays simulated by those long simulations, in all.
    pub relays_in_long: u64,
    /// Verdicts read from the distinguished-point map.
    pub dp_hits: u64,
    /// Most relays of a sowing that ended (0 if none took more than 256).
    pub max_relays_ended: u64,
    /// Most relays one simulation ran (0 if none ran more than 256).
    pub max_relays_simulated: u64,
    /// Distinguished states in the map.
    pub dp_states: u64,
}

pub fn sowing_stats() -> SowingStats {
    SowingStats {
        perpetual: PERPETUAL.load(Relaxed),
        long_ended: LONG_ENDED.load(Relaxed),
        long_simulated: LONG_SIMULATED.load(Relaxed),
        relays_in_long: RELAYS_IN_LONG.load(Relaxed),
        dp_hits: DP_HITS.load(Relaxed),
        max_relays_ended: MAX_ENDED.load(Relaxed),
        max_relays_simulated: MAX_SIMULATED.load(Relaxed),
        dp_states: dp_map().len() as u64,
    }
}

/// Zero the counters and empty the distinguished-point map.
pub fn reset_sowing_stats() {
    for c in [&PERPETUAL, &LONG_ENDED, &LONG_SIMULATED, &RELAYS_IN_LONG, &DP_HITS, &MAX_ENDED, &MAX_SIMULATED] {
        c.store(0, Relaxed);
    }
    dp_map().clear();
}

// ---- sowing ---------------------------------------------------------------------------

/// Sow `lift` warriors from absolute boma `origin` of the mover whose row starts at `base`.
/// The caller has checked `1 <= lift <= board[origin]`.
#[inline]
pub(super) fn sow(
    board: &Board,
    origin: usize,
    lift: u8,
    base: usize,
    max_relays: Option<u64>,
) -> Result<Sown, Illegal> {
    let mut w = to_words(board);
    remove(&mut w, origin, lift as u32);
    let (x, _, _) = lap(&mut w, origin, lift as u32);
    let lifted = 1 << origin;
    if get(&w, x) == 1 {
        return Ok(Sown { board: to_board(&w), end: x as u8, lifted, relay_sown: 0, relays: 0 });
    }
    if x.wrapping_sub(base) < ROW {
        // K4: the first lap may not end in an occupied own boma.
        return Err(Illegal::FirstLap { landing: (x - base) as u8 });
    }
    match relay(w, x, max_relays)? {
        Verdict::Ends { board, end, lifted: l, relay_sown, relays } => {
            Ok(Sown { board: to_board(&board), end, lifted: lifted | l, relay_sown, relays })
        }
        Verdict::Perpetual => Err(Illegal::Perpetual),
    }
}

/// The distinguished states met by one sowing, in order, each with the relay count when met
/// and the masks of the relays since the previous one.
#[derive(Default)]
struct Trail {
    points: Vec<(RelayState, u64, u32, u32)>,
    seen: HashSet<RelayState>,
}

/// K5–K7: the relays from relay state `(w, x)` (the lap landed on the occupied boma `x`).
/// Under a relay limit every sowing that has not ended after `limit` relays is illegal with
/// [`Illegal::RelayLimit`], perpetual ones included, so the verdict never depends on which
/// detector fired first or on the shared map.
fn relay(mut w: Words, mut x: usize, max_relays: Option<u64>) -> Result<Verdict, Illegal> {
    let limit = max_relays.unwrap_or(u64::MAX);
    let mut hash = zobrist(&w);
    // Brent: `saved` is the state at the last power of two; `steps` counts relays since.
    let (mut saved, mut saved_x) = (w, x);
    let (mut power, mut steps) = (1u64, 0u64);
    // Masks of the relays since the last distinguished state, and of those before it.
    let (mut lifted, mut relay_sown) = (0u32, 0u32);
    let (mut head_lifted, mut head_sown) = (0u32, 0u32);
    let mut trail: Option<Box<Trail>> = None;
    let mut relays = 0u64;
    let outcome = loop {
        if relays == limit {
            break None;
        }
        relays += 1;
        let hand = take(&mut w, x);
        lifted |= 1 << x;
        let (next, bits, added) = lap(&mut w, x, hand);
        hash = hash.wrapping_add(added).wrapping_sub(ZOBRIST[x].wrapping_mul(hand as u64));
        relay_sown |= bits;
        x = next;
        if get(&w, x) == 1 {
            break Some(Verdict::Ends { board: w, end: x as u8, lifted, relay_sown, relays });
        }
        steps += 1;
        if x == saved_x && w == saved {
            break Some(Verdict::Perpetual);
        }
        if steps == power {
            (saved, saved_x) = (w, x);
            power <<= 1;
            steps = 0;
        }
        if distinguished(hash, x) {
            let key = (w, x as u8);
            let t = trail.get_or_insert_with(Default::default);
            if !t.seen.insert(key) {
                break Some(Verdict::Perpetual);
            }
            if let Some(v) = dp_map().get(&key).map(|v| *v) {
                DP_HITS.fetch_add(1, Relaxed);
                t.seen.remove(&key);
                break Some(match v {
                    Verdict::Ends { board, end, lifted: l, relay_sown: s, relays: r } => {
                        Verdict::Ends { board, end, lifted: lifted | l, relay_sown: relay_sown | s, relays: relays + r }
                    }
                    Verdict::Perpetual => Verdict::Perpetual,
                });
            }
            t.points.push((key, relays, lifted, relay_sown));
            head_lifted |= lifted;
            head_sown |= relay_sown;
            lifted = 0;
            relay_sown = 0;
        }
    };
    if outcome == Some(Verdict::Perpetual) {
        PERPETUAL.fetch_add(1, Relaxed);
    }
    if relays > 256 {
        record(relays, outcome, trail.as_deref());
    }
    match outcome {
        None => Err(Illegal::RelayLimit { limit }),
        Some(Verdict::Perpetual) if max_relays.is_some() => Err(Illegal::RelayLimit { limit }),
        Some(Verdict::Ends { relays: r, .. }) if r > limit => Err(Illegal::RelayLimit { limit }),
        Some(Verdict::Ends { board, end, lifted, relay_sown, relays }) => {
            Ok(Verdict::Ends { board, end, lifted: head_lifted | lifted, relay_sown: head_sown | relay_sown, relays })
        }
        Some(Verdict::Perpetual) => Ok(Verdict::Perpetual),
    }
}

/// Count a long simulation and publish the verdicts of its distinguished states. `last` is the
/// verdict of the whole sowing with the masks of its final stretch (after the last
/// distinguished state); `None` if the relay limit stopped it (nothing is known then).
#[cold]
fn record(simulated: u64, last: Option<Verdict>, trail: Option<&Trail>) {
    MAX_SIMULATED.fetch_max(simulated, Relaxed);
    if simulated > LONG_SOWING_RELAYS {
        LONG_SIMULATED.fetch_add(1, Relaxed);
        RELAYS_IN_LONG.fetch_add(simulated, Relaxed);
    }
    if let Some(Verdict::Ends { relays, .. }) = last {
        MAX_ENDED.fetch_max(relays, Relaxed);
        if relays > LONG_SOWING_RELAYS {
            LONG_ENDED.fetch_add(1, Relaxed);
        }
    }
    let (Some(last), Some(trail)) = (last, trail) else {
        return;
    };
    let map = dp_map();
    if map.len() >= DP_CAP {
        return;
    }
    match last {
        Verdict::Perpetual => {
            for (key, ..) in &trail.points {
                map.insert(*key, Verdict::Perpetual);
            }
        }
        Verdict::Ends { board, end, mut lifted, mut relay_sown, relays } => {
            // Walk back: the verdict of a point covers the relays after it.
            for &(key, at, l, s) in trail.points.iter().rev() {
                map.insert(key, Verdict::Ends { board, end, lifted, relay_sown, relays: relays - at });
                lifted |= l;
                relay_sown |= s;
            }
        }
    }
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
