//! Perpetual sowings: the knife-free long sowing in the sower's frame, where a state is one
//! `u128` and exact cycle finding is cheap, and the proven cycles shared between sowings.

use super::board::Board;
use super::geometry::PITS;
use super::tables::{LAP_ROW, LIFTED_LAP};
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

/// The proven points' maps. FxHash instead of SipHash: the keys are the program's own
/// states, so there is no flooding to guard against, and a perpetual-rich sweep publishes and
/// looks up about a million of them.
type PointMap<K> = dashmap::DashMap<K, (), rustc_hash::FxBuildHasher>;

/// Perpetual cycles proven so far, shared between sowings through their distinguished points,
/// and what they have been used for. The caller owns it: one per run, shared by reference
/// between its threads (the map is concurrent, the counters atomic), so a run's verdicts and
/// counts depend on that run alone. A fresh value makes every perpetual sowing pay for its own
/// cycle (what a benchmark of cold runs wants).
#[derive(Debug, Default)]
pub struct ProvenCycles {
    /// Packed relative states (see [`relative_lap`]) and phase known to lie on a perpetual cycle.
    points: PointMap<(u128, u8)>,
    /// The same for the joint sowings of a `lockstep` opening ([`JointKey`]).
    joint: PointMap<JointKey>,
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
/// count now); the frame turned by the old hand modulo 16.
///
/// The whole state is turned, hand included, and [`LIFTED_LAP`] takes the hand back out where
/// it landed while it adds the run: no masking on the lap's chain of dependent instructions.
/// (No sum of bytes carries, so turning commutes with adding.)
#[inline(always)]
pub(super) fn relative_lap(s: u128) -> u128 {
    let h = s as u8 as usize % LAP_ROW;
    let lap = (LIFTED_LAP[1][h] as u128) << 64 | LIFTED_LAP[0][h] as u128;
    s.rotate_right(8 * (h % PITS) as u32).wrapping_add(lap)
}

/// Laps a walk tests against its anchor and its distinguished states before plain Brent
/// (every lap against a saved state) takes over: only a cycle that misses the anchor and has
/// no distinguished state is left to it, which no sowing is known to have.
const ANCHOR_LAPS: u64 = 1 << 28;

/// Brent's cycle finding on the distinguished states met by one walk (each determines the
/// next), for a cycle the walk entered after its anchor: its compares run once per 2^DP_BITS
/// laps, not on every lap. (The first point met also serves as a second anchor.)
#[derive(Default)]
struct PointCycle {
    /// The first distinguished state met and its lap.
    first: Option<(u128, u64)>,
    /// Brent's saved distinguished state and its lap.
    saved: Option<(u128, u64)>,
    /// Distinguished states met since it was saved, and at how many it moves on.
    count: u64,
    power: u64,
}

/// A distinguished state `s` met at lap `lap` of a walk: true if the sowing is proven
/// perpetual, by a cycle proven earlier (a published point) or by this walk meeting `s` again
/// (its cycle is then published); else `s` is remembered in `points`. Out of line: it runs
/// once in 4,096 laps, and inlined it crowds the lap loop's registers.
#[cold]
#[inline(never)]
fn met_point(
    proven: &ProvenCycles,
    s: u128,
    phase: Phase,
    lap: u64,
    points: &mut Vec<u128>,
    own: &mut PointCycle,
) -> bool {
    if proven.points.contains_key(&(s, phase as u8)) {
        proven.hits.fetch_add(1, Ordering::Relaxed);
        return true;
    }
    match own.first {
        None => own.first = Some((s, lap)),
        // Every point met since the first lies on the cycle through it.
        Some((first, at)) if first == s => {
            publish_cycle(proven, phase, s, lap - at, points, true);
            return true;
        }
        Some(_) => {}
    }
    if let Some((saved, at)) = own.saved {
        if saved == s {
            publish_cycle(proven, phase, s, lap - at, &[], false);
            return true;
        }
    }
    own.count += 1;
    if own.count >= own.power {
        own.saved = Some((s, lap));
        own.count = 0;
        own.power = (own.power << 1).max(1);
    }
    points.push(s);
    false
}

/// Publish the distinguished points of a cycle of length `lambda` through state `s`. When the
/// cycle closed on the walk's first state, every point met on the walk lies on it; otherwise
/// walk the cycle once more to collect them.
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
            s = relative_lap(s);
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

/// Where a relative walk stopped: the state, the hands sown (the frame turned by their sum
/// modulo 16), the laps walked, and whether the sowing is perpetual. A walk that is neither
/// perpetual nor stopped (`s` still relays) gave up: the next kind of walk goes on from `s`.
pub(super) struct Walked {
    pub(super) s: u128,
    pub(super) sown: u32,
    pub(super) laps: u64,
    pub(super) perpetual: bool,
}

/// Walk from relative state `s` with the anchor (the first state) and the distinguished
/// states: a cycle through the anchor is found after exactly λ laps (the common case, see
/// [`Cycles`]), one entered later by Brent on the distinguished states ([`met_point`]), one
/// met before at a published point. A lap is the lap itself, the relay test, one compare with
/// the anchor and a hash. Gives up after `budget` laps ([`ANCHOR_LAPS`] in a sowing).
#[inline(always)]
pub(super) fn walk_anchored<const RELAY_FROM: u8>(
    proven: &ProvenCycles,
    phase: Phase,
    mut s: u128,
    budget: u64,
) -> Walked {
    let anchor = s;
    let mut sown = 0u32;
    // Distinguished states met on this walk (see [`ProvenCycles`]).
    let mut points: Vec<u128> = Vec::new();
    let mut own = PointCycle::default();
    let mut left = budget;
    let perpetual = loop {
        sown = sown.wrapping_add(s as u8 as u32);
        s = relative_lap(s);
        left -= 1;
        if (s as u8) < RELAY_FROM {
            break false;
        }
        if s == anchor {
            publish_cycle(proven, phase, s, budget - left, &points, true);
            break true;
        }
        if distinguished(s) && met_point(proven, s, phase, budget - left, &mut points, &mut own) {
            break true;
        }
        if left == 0 {
            break false;
        }
    };
    Walked { s, sown, laps: budget - left, perpetual }
}

/// Plain Brent on every lap ([`Cycles`]: a saved state, and the anchor), for what
/// [`walk_anchored`] leaves: exact for any cycle, at two compares a lap.
#[cold]
#[inline(never)]
pub(super) fn walk_brent(proven: &ProvenCycles, phase: Phase, mut s: u128) -> Walked {
    let relay_from = phase.relay_from();
    let mut sown = 0u32;
    let mut cycles = Cycles::new(s);
    let (perpetual, laps) = 'walk: loop {
        for lam in 1..cycles.power() + 1 {
            sown = sown.wrapping_add(s as u8 as u32);
            s = relative_lap(s);
            if (s as u8) < relay_from {
                break 'walk (false, cycles.before() + lam);
            }
            if cycles.is_saved(s) || cycles.is_anchor(s) {
                let lambda = if cycles.is_saved(s) { lam } else { cycles.before() + lam };
                publish_cycle(proven, phase, s, lambda, &[], false);
                break 'walk (true, cycles.before() + lam);
            }
        }
        cycles.next_window(s);
    };
    Walked { s, sown, laps, perpetual }
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
        // Byte `pos` (the pit just lifted) is empty: the hand goes there.
        let s = self.pits.rotate_right(8 * *pos as u32) | *hand as u128;
        // One copy of the walk per phase, so the relay test compares with a constant.
        let mut w = match phase {
            Phase::Opening => walk_anchored::<2>(proven, phase, s, ANCHOR_LAPS),
            Phase::Turn => walk_anchored::<3>(proven, phase, s, ANCHOR_LAPS),
        };
        if !w.perpetual && w.s as u8 >= phase.relay_from() {
            // [`ANCHOR_LAPS`] walked without a verdict and the sowing goes on: plain Brent,
            // exact for any cycle.
            let more = walk_brent(proven, phase, w.s);
            w = Walked { s: more.s, sown: w.sown.wrapping_add(more.sown), laps: w.laps + more.laps, ..more };
        }
        *laps += w.laps;
        let shift = (*pos as u32).wrapping_add(w.sown) as usize % PITS;
        *pos = shift;
        *hand = w.s as u8 as u32;
        // Perpetual: the hand in byte 0 goes back to the caller, the pit it came from is empty.
        let pits = if w.perpetual { w.s & !0xff } else { w.s };
        self.pits = pits.rotate_left(8 * shift as u32);
        w.perpetual
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
