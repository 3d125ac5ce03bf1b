//! K3–K7: one sowing move, lap by lap, with relays and exact perpetual-sowing detection.
//!
//! **Laps.** Laps run in bulk on the board as words (`laps.rs`). Every drop adds one, so the
//! landing boma "was occupied before the last drop" exactly when it holds two or more
//! afterwards; that one test serves K4 and K5.
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
//!   ones included, within about `2(μ + λ)` relays. It is written out here rather than taken
//!   from `games::cycle::Cycles`, whose second comparison per step (against the first state)
//!   pays for Lukho's sowings, which are periodic from their first lap; Kiothi's long perpetual
//!   sowings enter their cycle later, so that comparison only costs (midgame perft 5: 15.3 s
//!   of CPU instead of 9.7 s, the same relays);
//! - distinguished points: a Zobrist hash of the state is updated in O(1) per relay, and about
//!   one state in 2^16 (by hash) is *distinguished*. Those met by the current sowing are
//!   remembered, so a long cycle is caught within `μ + λ + ~2^16` relays; and once a long
//!   sowing's verdict is known, its distinguished states are published with their exact
//!   verdict (perpetual, or how the rest of the sowing ends) in the caller's [`SowingCache`], so a later
//!   sowing that joins a known trajectory (the same move again, or another one merging into it)
//!   stops at the next distinguished state. Only exact facts are stored, so the verdicts never
//!   depend on what the cache holds.

use super::laps::{get, lap, remove, take, to_board, to_words, zobrist, Words, ZOBRIST};
use super::sowing_cache::{RelayState, SowingCache, TrailPoint, Verdict};
use super::{Board, Illegal, BOMA, ROW};
use crate::rng::{splitmix64, GOLDEN};
use std::collections::HashSet;

/// What a sowing that ended leaves, before any capture: the board, where the last warrior
/// fell, the boma it lifted and those a relay lap sowed into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SownBoard {
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

/// Relays between two looks at the cache's deadline ([`SowingCache::stop_at`]): a few
/// milliseconds of relays, so the look costs nothing measurable.
const STOP_EVERY: u64 = 1 << 20;

/// One state in `2^DP_BITS` is distinguished.
const DP_BITS: u32 = 16;

#[inline(always)]
fn distinguished(hash: u64, x: usize) -> bool {
    (hash ^ LANDING[x]).wrapping_mul(0x2545_f491_4f6c_dd1d) >> (64 - DP_BITS) == 0
}

/// Sow `lift` warriors from absolute boma `origin` of the mover whose row starts at `base`.
/// The caller has checked `1 <= lift <= board[origin]`.
#[inline]
pub(super) fn sow(
    board: &Board,
    origin: usize,
    lift: u8,
    base: usize,
    max_relays: Option<u64>,
    cache: &SowingCache,
) -> Result<SownBoard, Illegal> {
    let mut w = to_words(board);
    remove(&mut w, origin, lift as u32);
    let (x, _, _) = lap(&mut w, origin, lift as u32);
    let lifted = 1 << origin;
    if get(&w, x) == 1 {
        return Ok(SownBoard { board: to_board(&w), end: x as u8, lifted, relay_sown: 0, relays: 0 });
    }
    if x.wrapping_sub(base) < ROW {
        // K4: the first lap may not end in an occupied own boma.
        return Err(Illegal::FirstLap { landing: (x - base) as u8 });
    }
    match relay(w, x, max_relays, cache)? {
        Verdict::Ends { board, end, lifted: l, relay_sown, relays } => {
            Ok(SownBoard { board: to_board(&board), end, lifted: lifted | l, relay_sown, relays })
        }
        Verdict::Perpetual => Err(Illegal::Perpetual),
    }
}

/// The distinguished states met by one sowing, in order, each with the relay count when met
/// and the masks of the relays since the previous one.
#[derive(Default)]
struct Trail {
    points: Vec<TrailPoint>,
    seen: HashSet<RelayState>,
}

/// K5–K7: the relays from relay state `(w, x)` (the lap landed on the occupied boma `x`).
/// Under a relay limit every sowing that has not ended after `limit` relays is illegal with
/// [`Illegal::RelayLimit`], perpetual ones included, so the verdict never depends on which
/// detector fired first or on what the cache holds. A sowing still relaying when the cache's
/// deadline has passed returns [`Illegal::Stopped`] and leaves the cache as it was.
fn relay(mut w: Words, mut x: usize, max_relays: Option<u64>, cache: &SowingCache) -> Result<Verdict, Illegal> {
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
    // One comparison a relay serves both the relay limit and the cache's deadline.
    let mut check = limit.min(STOP_EVERY);
    let mut stopped = false;
    let outcome = loop {
        if relays == check {
            if relays == limit {
                break None;
            }
            if cache.must_stop() {
                stopped = true;
                break None;
            }
            check = limit.min(relays + STOP_EVERY);
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
            if let Some(v) = cache.verdict(&key) {
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
    if stopped {
        // Nothing is known of this sowing: no verdict, nothing published, nothing counted.
        return Err(Illegal::Stopped);
    }
    if outcome == Some(Verdict::Perpetual) {
        cache.count_perpetual();
    }
    if relays > 256 {
        cache.record(relays, outcome, trail.as_deref().map_or(&[], |t| &t.points));
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
