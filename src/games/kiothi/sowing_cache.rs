//! [`SowingCache`]: verdicts of long sowings shared between sowings, and counts of what the
//! sowings met. The caller owns one per run (a perft, a search, a table layer) and passes it
//! to the move generation; only exact facts are stored, so no verdict depends on what a cache
//! holds, only how fast it is found. A caller may also give it a deadline: a sowing that is
//! still relaying then stops with [`super::Illegal::Stopped`] (no verdict, nothing stored).

use super::laps::Words;
use dashmap::DashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Sowings with more relays than this count as "long" in [`super::SowingStats`].
pub const LONG_SOWING_RELAYS: u64 = 100_000;

/// The verdict map stops growing at this many distinguished states (about 100 bytes each).
const VERDICTS_CAP: usize = 1 << 21;

/// What the relays from a relay state come to. For `Ends`, the masks and count are those of
/// the relays from that state on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    Ends { board: Words, end: u8, lifted: u32, relay_sown: u32, relays: u64 },
    Perpetual,
}

/// A relay state: the board and the (occupied) boma the last lap landed on.
pub(super) type RelayState = (Words, u8);

/// A distinguished state met by one sowing: the state, the relay count when met, and the
/// masks (lifted, relay-sown) of the relays since the previous one.
pub(super) type TrailPoint = (RelayState, u64, u32, u32);

/// Verdicts of the distinguished relay states of long sowings, and counts of rare sowing
/// events. Shared by every thread of a run (`Sync`); creating one allocates nothing until a
/// long sowing publishes its verdicts.
pub struct SowingCache {
    verdicts: OnceLock<DashMap<RelayState, Verdict>>,
    perpetual: AtomicU64,
    long_ended: AtomicU64,
    long_simulated: AtomicU64,
    relays_in_long: AtomicU64,
    hits: AtomicU64,
    max_ended: AtomicU64,
    max_simulated: AtomicU64,
    /// When set, sowings still relaying after this instant stop without a verdict.
    deadline: Mutex<Option<Instant>>,
    /// The deadline has passed (so later checks need no clock).
    stopped: AtomicBool,
}

/// What the sowings of one [`SowingCache`] met. Only rare events are counted (atomics stay out
/// of the common path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SowingStats {
    /// Perpetual sowings met (K7), however found.
    pub perpetual: u64,
    /// Sowings met that ended after more than [`LONG_SOWING_RELAYS`] relays.
    pub long_ended: u64,
    /// Sowings whose simulation itself ran more than [`LONG_SOWING_RELAYS`] relays (ending or
    /// perpetual; a verdict found in the cache stops the simulation early).
    pub long_simulated: u64,
    /// Relays simulated by those long simulations, in all.
    pub relays_in_long: u64,
    /// Verdicts read from the cache.
    pub dp_hits: u64,
    /// Most relays of a sowing that ended (0 if none took more than 256).
    pub max_relays_ended: u64,
    /// Most relays one simulation ran (0 if none ran more than 256).
    pub max_relays_simulated: u64,
    /// Distinguished states in the cache.
    pub dp_states: u64,
}

impl SowingCache {
    pub const fn new() -> Self {
        SowingCache {
            verdicts: OnceLock::new(),
            perpetual: AtomicU64::new(0),
            long_ended: AtomicU64::new(0),
            long_simulated: AtomicU64::new(0),
            relays_in_long: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            max_ended: AtomicU64::new(0),
            max_simulated: AtomicU64::new(0),
            deadline: Mutex::new(None),
            stopped: AtomicBool::new(false),
        }
    }

    /// Stop sowings that are still relaying at `deadline` (`None`: never, the default): they
    /// return [`super::Illegal::Stopped`], which says nothing of the move, and nothing they met
    /// is stored. A sowing looks at the clock once every 2^20 relays (a few milliseconds), so
    /// a caller with a time budget (a search) is not held up by one sowing of billions of
    /// relays; the verdicts of sowings that finish never depend on it.
    pub fn stop_at(&self, deadline: Option<Instant>) {
        *self.deadline.lock().unwrap_or_else(|e| e.into_inner()) = deadline;
        self.stopped.store(false, Relaxed);
    }

    /// Whether a sowing must stop now (the deadline set by [`SowingCache::stop_at`] has passed).
    #[cold]
    pub(super) fn must_stop(&self) -> bool {
        if self.stopped.load(Relaxed) {
            return true;
        }
        let due = self.deadline.lock().unwrap_or_else(|e| e.into_inner()).is_some_and(|d| Instant::now() >= d);
        if due {
            self.stopped.store(true, Relaxed);
        }
        due
    }

    /// The counts since this cache was made (or last cleared).
    pub fn stats(&self) -> SowingStats {
        SowingStats {
            perpetual: self.perpetual.load(Relaxed),
            long_ended: self.long_ended.load(Relaxed),
            long_simulated: self.long_simulated.load(Relaxed),
            relays_in_long: self.relays_in_long.load(Relaxed),
            dp_hits: self.hits.load(Relaxed),
            max_relays_ended: self.max_ended.load(Relaxed),
            max_relays_simulated: self.max_simulated.load(Relaxed),
            dp_states: self.verdicts.get().map_or(0, |m| m.len() as u64),
        }
    }

    /// Forget every verdict and zero the counts, for a caller that reports per stage (a table
    /// builder, per layer) with one cache.
    pub fn clear(&self) {
        for c in [
            &self.perpetual,
            &self.long_ended,
            &self.long_simulated,
            &self.relays_in_long,
            &self.hits,
            &self.max_ended,
            &self.max_simulated,
        ] {
            c.store(0, Relaxed);
        }
        if let Some(m) = self.verdicts.get() {
            m.clear();
        }
    }

    /// The verdict of a distinguished state, if a long sowing published it.
    #[inline]
    pub(super) fn verdict(&self, key: &RelayState) -> Option<Verdict> {
        let v = self.verdicts.get()?.get(key).map(|v| *v);
        if v.is_some() {
            self.hits.fetch_add(1, Relaxed);
        }
        v
    }

    pub(super) fn count_perpetual(&self) {
        self.perpetual.fetch_add(1, Relaxed);
    }

    /// Count a long simulation and publish the verdicts of its distinguished states. `last` is
    /// the verdict of the whole sowing with the masks of its final stretch (after the last
    /// distinguished state); `None` if the relay limit stopped it (nothing is known then).
    #[cold]
    pub(super) fn record(&self, simulated: u64, last: Option<Verdict>, trail: &[TrailPoint]) {
        self.max_simulated.fetch_max(simulated, Relaxed);
        if simulated > LONG_SOWING_RELAYS {
            self.long_simulated.fetch_add(1, Relaxed);
            self.relays_in_long.fetch_add(simulated, Relaxed);
        }
        if let Some(Verdict::Ends { relays, .. }) = last {
            self.max_ended.fetch_max(relays, Relaxed);
            if relays > LONG_SOWING_RELAYS {
                self.long_ended.fetch_add(1, Relaxed);
            }
        }
        let Some(last) = last else {
            return;
        };
        if trail.is_empty() {
            return;
        }
        let map = self.verdicts.get_or_init(DashMap::new);
        if map.len() >= VERDICTS_CAP {
            return;
        }
        match last {
            Verdict::Perpetual => {
                for (key, ..) in trail {
                    map.insert(*key, Verdict::Perpetual);
                }
            }
            Verdict::Ends { board, end, mut lifted, mut relay_sown, relays } => {
                // Walk back: the verdict of a point covers the relays after it.
                for &(key, at, l, s) in trail.iter().rev() {
                    map.insert(key, Verdict::Ends { board, end, lifted, relay_sown, relays: relays - at });
                    lifted |= l;
                    relay_sown |= s;
                }
            }
        }
    }
}

impl Default for SowingCache {
    fn default() -> Self {
        Self::new()
    }
}

impl Clone for SowingCache {
    /// A cache with the same verdicts and counts, and no deadline.
    fn clone(&self) -> Self {
        let load = |c: &AtomicU64| AtomicU64::new(c.load(Relaxed));
        let verdicts = OnceLock::new();
        if let Some(m) = self.verdicts.get() {
            let _ = verdicts.set(m.clone());
        }
        SowingCache {
            verdicts,
            perpetual: load(&self.perpetual),
            long_ended: load(&self.long_ended),
            long_simulated: load(&self.long_simulated),
            relays_in_long: load(&self.relays_in_long),
            hits: load(&self.hits),
            max_ended: load(&self.max_ended),
            max_simulated: load(&self.max_simulated),
            deadline: Mutex::new(None),
            stopped: AtomicBool::new(false),
        }
    }
}

impl fmt::Debug for SowingCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SowingCache").field(&self.stats()).finish()
    }
}
