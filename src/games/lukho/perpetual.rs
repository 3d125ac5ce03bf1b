//! Perpetual sowings: the knife-free long sowing in the sower's frame, where a state is one
//! `u128` and exact cycle finding is cheap, and the proven cycles shared between sowings.

use super::board::Board;
use super::geometry::PITS;
use super::tables::{LAP_ROW, TURNED_LAP};
use super::Phase;
use crate::games::cycle::Cycles;
use std::sync::atomic::{AtomicU64, Ordering};

// ---- perpetual cycles shared between sowings ------------------------------------------
//
// A perpetual sowing walks a cycle of relative states that can be millions of laps long, and
// many games of a sweep (different boards, same sower's dynamics) land on the same cycles.
// Distinguished points make a second visit cheap: when a cycle is proven, its states whose
// hash has `DP_BITS` low zero bits are published in a set ([`ProvenCycles`]); a later knife-free sowing
// that meets one of them is on that cycle, so it is perpetual: exact, and found within about
// 2^DP_BITS laps instead of a whole period. Only states proven to lie on a cycle are stored,
// so a hit is a proof, never a guess; a miss costs one hash per lap off the critical path.

/// One lap in 2^DP_BITS is a distinguished state: a hit costs about 4,096 laps, against cycles
/// of 10^5–10^7 laps (712,000 on average in a measured sweep).
const DP_BITS: u32 = 12;
/// Published points at most (about 48 bytes each): past it, verdicts stay exact but new
/// cycles are no longer shared.
const DP_CAP: usize = 1 << 23;

#[inline(always)]
fn distinguished(s: u128) -> bool {
    let x = (s as u64) ^ ((s >> 64) as u64).rotate_left(29);
    x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - DP_BITS) == 0
}

/// Perpetual cycles proven so far, shared between sowings through their distinguished points,
/// and what they have been used for. The caller owns it: one per run, shared by reference
/// between its threads (the map is concurrent, the counters atomic), so a run's verdicts and
/// counts depend on that run alone. A fresh value makes every perpetual sowing pay for its own
/// cycle (what a benchmark of cold runs wants).
#[derive(Debug, Default)]
pub struct ProvenCycles {
    /// Packed relative states (see [`relative_lap`]) and phase known to lie on a perpetual cycle.
    points: dashmap::DashMap<(u128, u8), ()>,
    /// The same for the joint sowings of a `lockstep` opening ([`JointKey`]).
    joint: dashmap::DashMap<JointKey, ()>,
    /// Cycles proven by walking them.
    proven: AtomicU64,
    /// Sowings found perpetual at a point of an earlier cycle.
    hits: AtomicU64,
}

/// Knife-free sowings of over 32 laps (and `lockstep` openings' joint sowings of over 32
/// ticks) found perpetual with one [`ProvenCycles`]: by walking their cycle (`proven`) or by
/// meeting a published point of an earlier one (`hits`), and the points published. The hit
/// rate is `hits / (proven + hits)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PerpetualStats {
    pub proven: u64,
    pub hits: u64,
    pub points: u64,
}

impl ProvenCycles {
    /// No cycle proven yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The counts so far.
    pub fn stats(&self) -> PerpetualStats {
        PerpetualStats {
            proven: self.proven.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
            points: (self.points.len() + self.joint.len()) as u64,
        }
    }
}

/// One lap of a packed relative state: the pits in the sower's frame (byte 0 = the pit just
/// lifted, so empty) with the hand written into byte 0. The lap sows the hand after byte 0
/// and turns the board so its last pit is byte 0; if that pit relays, lifting it into the
/// hand leaves the state as it is, so a relaying lap is one rotation and one add, and the
/// state is one `u128` for cycle finding. Returns the new state (byte 0: the last pit's
/// count now) and how far the frame turned.
///
/// The board is turned before the seeds are added (no sum of bytes carries, so turning
/// commutes with adding): the rotation then runs while the table entry is loaded, instead of
/// waiting for it, which shortens the lap's chain of dependent instructions.
#[inline(always)]
fn relative_lap(s: u128) -> (u128, usize) {
    let h = s as u8 as usize;
    let r = h % PITS;
    ((s & !0xff).rotate_right(8 * r as u32) + TURNED_LAP[h % LAP_ROW], r)
}

/// A distinguished state `s` met on a walk: true if it lies on a cycle proven earlier (the
/// sowing never ends either); else it is remembered in `points`. Out of line: it runs once
/// in 4,096 laps, and inlined it crowds the lap loop's registers.
#[cold]
#[inline(never)]
fn met_proven_cycle(proven: &ProvenCycles, s: u128, phase: Phase, points: &mut Vec<u128>) -> bool {
    if proven.points.contains_key(&(s, phase as u8)) {
        proven.hits.fetch_add(1, Ordering::Relaxed);
        return true;
    }
    points.push(s);
    false
}

/// Publish the distinguished points of a cycle of length `lambda` through state `s`. When the
/// cycle closed on the walk's first state, every point met on the walk lies on it; otherwise
/// (Brent found a cycle entered later) walk the cycle once more to collect them.
#[cold]
fn publish_cycle(proven: &ProvenCycles, phase: Phase, s: u128, lambda: u64, met: &[u128], through_first: bool) {
    proven.proven.fetch_add(1, Ordering::Relaxed);
    let set = &proven.points;
    if set.len() >= DP_CAP {
        return;
    }
    let mut points = Vec::new();
    let pts: &[u128] = if through_first {
        met
    } else {
        let mut s = s;
        for _ in 0..lambda {
            s = relative_lap(s).0;
            debug_assert!(s as u8 >= phase.relay_from(), "a proven cycle never stops");
            if distinguished(s) {
                points.push(s);
            }
        }
        &points
    };
    for &s in pts {
        set.insert((s, phase as u8), ());
    }
}

impl Board {
    /// The laps of a knife-free sowing kept in the sower's frame, as a packed relative state
    /// ([`relative_lap`]): the cycle-finding key costs nothing and a lap is a handful of
    /// instructions. Returns true for a perpetual sowing; false when the lap ending at `pos`
    /// (absolute, with the board turned back) does not relay: the caller applies that ending.
    #[inline]
    pub(super) fn sow_relative(
        &mut self,
        proven: &ProvenCycles,
        phase: Phase,
        pos: &mut usize,
        hand: &mut u32,
        laps: &mut u64,
    ) -> bool {
        let relay_from = phase.relay_from();
        // Byte `pos` (the pit just lifted) is empty: the hand goes there.
        let mut s = self.pits.rotate_right(8 * *pos as u32) | *hand as u128;
        let mut shift = *pos;
        // Cycle finding ([`Cycles`]: Brent plus an anchor, the first state) fed by windows,
        // so that its bookkeeping runs once per window, not once per lap. The saved state
        // repeats after λ = `lam` laps, the anchor after every lap walked.
        let mut cycles = Cycles::new(s);
        // Distinguished states met on this walk (see [`ProvenCycles`]).
        let mut points: Vec<u128> = Vec::new();
        let (perpetual, walked) = 'walk: loop {
            for lam in 1..cycles.power() + 1 {
                let (next, r) = relative_lap(s);
                s = next;
                shift += r;
                if (s as u8) < relay_from {
                    break 'walk (false, cycles.before() + lam);
                }
                if cycles.is_saved(s) {
                    publish_cycle(proven, phase, s, lam, &points, cycles.is_anchor(s));
                    break 'walk (true, cycles.before() + lam);
                }
                if cycles.is_anchor(s) {
                    publish_cycle(proven, phase, s, cycles.before() + lam, &points, true);
                    break 'walk (true, cycles.before() + lam);
                }
                if distinguished(s) && met_proven_cycle(proven, s, phase, &mut points) {
                    break 'walk (true, cycles.before() + lam);
                }
            }
            cycles.next_window(s);
        };
        *laps += walked;
        shift %= PITS;
        *pos = shift;
        *hand = s as u8 as u32;
        // Perpetual: the hand in byte 0 goes back to the caller, the pit it came from is empty.
        let pits = if perpetual { s & !0xff } else { s };
        self.pits = pits.rotate_left(8 * shift as u32);
        perpetual
    }
}

// ---- the joint sowings of a `lockstep` opening ------------------------------------------
//
// The same sharing for the race's joint state, taken at the ticks where a lap ended and both
// still sow. Measured on 400,000 random pairs (`lockstep-south`): 4 perpetual openings of
// about 10^6 ticks each took 80 % of all the openings' time, and the sweeps of the full
// family's `lockstep` equilibrium run spent half their time in openings.

/// A `lockstep` joint state in South's frame: the pits turned so that South's last pit is
/// byte 0; North's pit relative to it, South's hand, North's hand (bits 0–7, 8–15, 16–23) and
/// who steps first in a tick (bit 24: North). While nobody stops it decides the future up to
/// a turn of the board (see `race::lockstep`).
pub(super) type JointKey = (u128, u32);

#[inline(always)]
pub(super) fn joint_distinguished(k: JointKey) -> bool {
    distinguished(k.0 ^ (k.1 as u128) << 40)
}

impl ProvenCycles {
    /// A distinguished joint state met on a race: true if it lies on a cycle proven earlier;
    /// else it is remembered in `points`.
    #[cold]
    #[inline(never)]
    pub(super) fn met_joint_cycle(&self, k: JointKey, points: &mut Vec<JointKey>) -> bool {
        if self.joint.contains_key(&k) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return true;
        }
        points.push(k);
        false
    }

    /// Publish the distinguished points of a joint cycle just proven (every one of `points`
    /// must lie on it).
    #[cold]
    pub(super) fn publish_joint(&self, points: &[JointKey]) {
        self.proven.fetch_add(1, Ordering::Relaxed);
        if self.joint.len() >= DP_CAP {
            return;
        }
        for &k in points {
            self.joint.insert(k, ());
        }
    }
}
