//! K3–K7: one sowing move, lap by lap, with relays and exact perpetual-sowing detection.
//!
//! A lap of `h` warriors from boma `x` drops one in each of `x+1 … x+h` (mod 20, no origin
//! skip), so it can be done in bulk: `h / 20` in every boma, then one in each of the next
//! `h % 20`. Every drop adds one, so the landing boma "was occupied before the last drop"
//! exactly when it holds two or more afterwards; that one test serves K4 and K5.
//!
//! K7: after the first lap, where the sowing goes depends only on the counts and the landing
//! boma; nki flags never change a lap (they only decide the capture at the very end). So the
//! relay states `(board, landing)` form a deterministic sequence, and the move is perpetual
//! exactly when that sequence repeats. Brent's cycle finding detects the repeat with no memory
//! beyond one saved state and at most about `μ + 2λ` relays. Sequences can be very long
//! (RULES.md reports > 10^7 relays), so verdicts of long ones are cached in a global
//! `DashMap` keyed by the first relay state: a sowing is looked up only once it has reached
//! [`CACHE_PROBE_RELAYS`] relays, so short sowings (nearly all of them) never pay a hash.

use super::{Board, Illegal, ALL_BOMA, BOMA, ROW};
use dashmap::DashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

/// A sowing this long (in relays) is looked up in, and then stored into, the verdict cache.
pub const CACHE_PROBE_RELAYS: u64 = 1 << 12;
/// Sowings with more relays than this count as "long" in [`SowingStats`].
pub const LONG_SOWING_RELAYS: u64 = 100_000;
/// The cache stops growing at this many verdicts (about 80 bytes each).
const CACHE_CAP: usize = 1 << 21;

/// A sowing that ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Sown {
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

/// What the relays from a relay state come to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Ends { board: Board, end: u8, lifted: u32, relay_sown: u32, relays: u64 },
    /// The state sequence repeats; Brent's search saw it after `relays` relays.
    Perpetual { relays: u64 },
}

type RelayState = (Board, u8);

fn cache() -> &'static DashMap<RelayState, Verdict> {
    static CACHE: OnceLock<DashMap<RelayState, Verdict>> = OnceLock::new();
    CACHE.get_or_init(DashMap::new)
}

static LONG_ENDED: AtomicU64 = AtomicU64::new(0);
static LONG_PERPETUAL: AtomicU64 = AtomicU64::new(0);
static PERPETUAL: AtomicU64 = AtomicU64::new(0);
static CACHE_HITS: AtomicU64 = AtomicU64::new(0);
static MAX_ENDED: AtomicU64 = AtomicU64::new(0);
static MAX_PERPETUAL: AtomicU64 = AtomicU64::new(0);

/// Process-wide counts of the sowings simulated since start or the last reset. Only rare
/// events are counted (atomics stay out of the common path); cache hits are not simulated
/// again, so they do not add to the other counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SowingStats {
    /// Sowings that ended after more than [`LONG_SOWING_RELAYS`] relays.
    pub long_ended: u64,
    /// Perpetual sowings whose repeat was found after more than [`LONG_SOWING_RELAYS`] relays.
    pub long_perpetual: u64,
    /// Perpetual sowings found (K7), any length.
    pub perpetual: u64,
    /// Long sowings answered from the verdict cache.
    pub cache_hits: u64,
    /// Most relays of a sowing that ended.
    pub max_relays_ended: u64,
    /// Most relays before a repeat was found.
    pub max_relays_perpetual: u64,
    /// Verdicts in the cache.
    pub cached: u64,
}

pub fn sowing_stats() -> SowingStats {
    SowingStats {
        long_ended: LONG_ENDED.load(Relaxed),
        long_perpetual: LONG_PERPETUAL.load(Relaxed),
        perpetual: PERPETUAL.load(Relaxed),
        cache_hits: CACHE_HITS.load(Relaxed),
        max_relays_ended: MAX_ENDED.load(Relaxed),
        max_relays_perpetual: MAX_PERPETUAL.load(Relaxed),
        cached: cache().len() as u64,
    }
}

/// Zero the counters and empty the verdict cache.
pub fn reset_sowing_stats() {
    for c in [&LONG_ENDED, &LONG_PERPETUAL, &PERPETUAL, &CACHE_HITS, &MAX_ENDED, &MAX_PERPETUAL] {
        c.store(0, Relaxed);
    }
    cache().clear();
}

/// Drop `hand` warriors one per boma from `from + 1` on; returns the landing boma.
#[inline(always)]
fn lap(b: &mut Board, from: usize, hand: u32) -> usize {
    let rounds = (hand / BOMA as u32) as u8;
    if rounds > 0 {
        b.iter_mut().for_each(|x| *x += rounds);
    }
    let mut p = from;
    for _ in 0..hand % BOMA as u32 {
        p += 1;
        if p == BOMA {
            p = 0;
        }
        b[p] += 1;
    }
    p
}

/// Mask of the boma a lap of `hand` from `from` drops into.
#[inline(always)]
fn lap_mask(from: usize, hand: u32) -> u32 {
    if hand >= BOMA as u32 {
        return ALL_BOMA;
    }
    let m = ((1u64 << hand) - 1) << (from + 1);
    ((m | m >> BOMA) as u32) & ALL_BOMA
}

/// Sow `lift` warriors from absolute boma `origin` of the mover whose row starts at `base`.
/// The caller has checked `1 <= lift <= board[origin]`.
#[inline]
pub(super) fn sow(board: &Board, origin: usize, lift: u8, base: usize, max_relays: Option<u64>) -> Result<Sown, Illegal> {
    let mut b = *board;
    b[origin] -= lift;
    let x = lap(&mut b, origin, lift as u32);
    let lifted = 1 << origin;
    if b[x] == 1 {
        return Ok(Sown { board: b, end: x as u8, lifted, relay_sown: 0, relays: 0 });
    }
    if x.wrapping_sub(base) < ROW {
        // K4: the first lap may not end in an occupied own boma.
        return Err(Illegal::FirstLap { landing: (x - base) as u8 });
    }
    match relay(&b, x, max_relays)? {
        Verdict::Ends { board, end, lifted: l, relay_sown, relays } => {
            Ok(Sown { board, end, lifted: lifted | l, relay_sown, relays })
        }
        Verdict::Perpetual { relays } => Err(Illegal::Perpetual { relays }),
    }
}

/// K5–K7: the relays from relay state `(start, x0)` (`start[x0] >= 2`: the lap landed on an
/// occupied boma). `Err` only for the relay limit; a perpetual sowing is a `Verdict`.
fn relay(start: &Board, x0: usize, max_relays: Option<u64>) -> Result<Verdict, Illegal> {
    let limit = max_relays.unwrap_or(u64::MAX);
    let mut b = *start;
    let mut x = x0;
    // Brent: `saved` is the state at the last power of two; `steps` counts relays since.
    let (mut saved, mut saved_x) = (b, x);
    let (mut power, mut steps) = (1u64, 0u64);
    let (mut lifted, mut relay_sown) = (0u32, 0u32);
    let mut relays = 0u64;
    loop {
        if relays == limit {
            return Err(Illegal::RelayLimit { limit });
        }
        relays += 1;
        let hand = std::mem::take(&mut b[x]) as u32;
        lifted |= 1 << x;
        relay_sown |= lap_mask(x, hand);
        x = lap(&mut b, x, hand);
        if b[x] == 1 {
            let v = Verdict::Ends { board: b, end: x as u8, lifted, relay_sown, relays };
            if relays >= CACHE_PROBE_RELAYS {
                record(start, x0, v);
            }
            return Ok(v);
        }
        if relays == CACHE_PROBE_RELAYS {
            if let Some(v) = cache().get(&(*start, x0 as u8)).map(|v| *v) {
                CACHE_HITS.fetch_add(1, Relaxed);
                return within(v, limit);
            }
        }
        steps += 1;
        if x == saved_x && b == saved {
            let v = Verdict::Perpetual { relays };
            PERPETUAL.fetch_add(1, Relaxed);
            if relays >= CACHE_PROBE_RELAYS {
                record(start, x0, v);
            }
            return Ok(v);
        }
        if steps == power {
            (saved, saved_x) = (b, x);
            power <<= 1;
            steps = 0;
        }
    }
}

/// A cached verdict under a relay limit, exactly as the simulation would have given it.
fn within(v: Verdict, limit: u64) -> Result<Verdict, Illegal> {
    match v {
        Verdict::Ends { relays, .. } | Verdict::Perpetual { relays } if relays > limit => Err(Illegal::RelayLimit { limit }),
        _ => Ok(v),
    }
}

/// Store a long verdict and count it.
#[cold]
fn record(start: &Board, x0: usize, v: Verdict) {
    match v {
        Verdict::Ends { relays, .. } => {
            MAX_ENDED.fetch_max(relays, Relaxed);
            if relays > LONG_SOWING_RELAYS {
                LONG_ENDED.fetch_add(1, Relaxed);
            }
        }
        Verdict::Perpetual { relays } => {
            MAX_PERPETUAL.fetch_max(relays, Relaxed);
            if relays > LONG_SOWING_RELAYS {
                LONG_PERPETUAL.fetch_add(1, Relaxed);
            }
        }
    }
    let c = cache();
    if c.len() < CACHE_CAP {
        c.insert((*start, x0 as u8), v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lap_in_bulk_matches_one_by_one() {
        for from in 0..BOMA {
            for hand in 0..70u32 {
                let mut a = [1u8; BOMA];
                let mut b = a;
                let land = lap(&mut a, from, hand);
                let mut p = from;
                let mut mask = 0u32;
                for _ in 0..hand {
                    p = (p + 1) % BOMA;
                    b[p] += 1;
                    mask |= 1 << p;
                }
                assert_eq!((a, land), (b, p), "from {from} hand {hand}");
                assert_eq!(lap_mask(from, hand), mask, "from {from} hand {hand}");
            }
        }
    }
}
