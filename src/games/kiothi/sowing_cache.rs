//! Verdicts of long sowings shared between sowings, and counts of what the sowings met.

use super::laps::Words;
use super::sow::Trail;
use super::sow::LONG_SOWING_RELAYS;
use dashmap::DashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

/// The distinguished-point map stops growing at this many states (about 100 bytes each).
const DP_CAP: usize = 1 << 21;

/// What the relays from a relay state come to. For `Ends`, the masks and count are those of
/// the relays from that state on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    Ends { board: Words, end: u8, lifted: u32, relay_sown: u32, relays: u64 },
    Perpetual,
}

pub(super) type RelayState = (Words, u8);

pub(super) fn dp_map() -> &'static DashMap<RelayState, Verdict> {
    static MAP: OnceLock<DashMap<RelayState, Verdict>> = OnceLock::new();
    MAP.get_or_init(DashMap::new)
}

pub(super) static PERPETUAL: AtomicU64 = AtomicU64::new(0);
static LONG_ENDED: AtomicU64 = AtomicU64::new(0);
static LONG_SIMULATED: AtomicU64 = AtomicU64::new(0);
pub(super) static DP_HITS: AtomicU64 = AtomicU64::new(0);
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

/// Count a long simulation and publish the verdicts of its distinguished states. `last` is the
/// verdict of the whole sowing with the masks of its final stretch (after the last
/// distinguished state); `None` if the relay limit stopped it (nothing is known then).
#[cold]
pub(super) fn record(simulated: u64, last: Option<Verdict>, trail: Option<&Trail>) {
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
