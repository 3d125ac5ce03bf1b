//! The Lukho board and the sowing of laps (RULES.md "Sowing a lap and its ending").
//!
//! The 16 pits live in one `u128`, byte `p` = absolute pit `p` (South 0..7, North 0..7, the
//! sowing order). No pit ever holds more than 48 seeds, so adding one seed to a run of pits
//! is a single 128-bit addition that never carries between bytes: a whole lap costs a few
//! instructions whatever its length, which is what makes millions of games per second and
//! the 10^7-lap perpetual checks affordable.

use super::{Chain, Rules};
use crate::side::Side;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

pub const PITS: usize = 16;
pub const ROW: usize = 8;
pub const START_SEEDS: u8 = 3;
pub const TOTAL_SEEDS: u32 = 48;

/// One seed in every pit.
const ONES: u128 = u128::from_le_bytes([1; 16]);
const ONES64: u64 = u64::from_le_bytes([1; 8]);

/// `RUN[r]`: one seed in each of the pits `0..r`.
const RUN: [u128; PITS] = {
    let mut t = [0u128; PITS];
    let mut r = 1;
    while r < PITS {
        t[r] = t[r - 1] | (1u128 << (8 * (r - 1)));
        r += 1;
    }
    t
};

/// `BYTES[m]`: `0xff` in byte `i` for each bit `i` of `m` (knife bit masks to byte masks).
const BYTES: [u64; 256] = {
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
const fn run_after(after: usize, n: u32) -> u128 {
    let full = (n / PITS as u32) as u128;
    let rest = (n % PITS as u32) as usize;
    full * ONES + RUN[rest].rotate_left(8 * ((after + 1) % PITS) as u32)
}

/// Rows of [`LAP`]: every hand a lap can have (at most the 48 seeds of the game), padded to a
/// power of two so that an index is a shift and a mask proves it in bounds (no check).
const LAP_ROW: usize = 64;

/// `LAP[after][n]` = [`run_after`]`(after, n)`: the hot sowing loop reads a lap's additions
/// instead of computing a 128-bit rotation (16 KB, stays in L1).
static LAP: [[u128; LAP_ROW]; PITS] = {
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
const CLEAR: [u128; PITS] = {
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

/// The absolute pit opposite absolute pit `p` (own index `i` faces opponent index `7-i`).
#[inline(always)]
pub fn opposite(p: usize) -> usize {
    PITS - 1 - p
}

/// The side whose row holds absolute pit `p`.
#[inline(always)]
pub fn row_of(p: usize) -> Side {
    if p < ROW {
        Side::South
    } else {
        Side::North
    }
}

/// Absolute pit of `side`'s own index `i`.
#[inline(always)]
pub fn abs_pit(side: Side, i: usize) -> usize {
    side.index() * ROW + i
}

/// Pits, knives and stores: everything but the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Byte `p` = seeds in absolute pit `p`.
    pub(crate) pits: u128,
    /// Bit `16 s + p` = absolute pit `p` is a knife of side `s` (either row). One word, not
    /// `[u16; 2]`: the game loop writes one owner's half and then compares the whole, and a
    /// half-word store followed by a whole-word load stalls on a failed store forward.
    pub(crate) knives: u32,
    /// Captured seeds `[south, north]` (knife seeds are not in the stores until the end).
    pub stores: [u8; 2],
}

impl Default for Board {
    /// 3 seeds in every pit, no knives, empty stores.
    fn default() -> Self {
        Board { pits: ONES * START_SEEDS as u128, knives: 0, stores: [0; 2] }
    }
}

/// A board given from outside (JSON, CLI) that no game can reach; each message names the field.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum BoardError {
    #[error("pits: {board} seeds on the board plus {stores} in the stores is more than {TOTAL_SEEDS}")]
    TooManySeeds { board: u32, stores: u32 },
    #[error("knives: pit {pit} has {value}; expected -1 (none), 0 (South) or 1 (North)")]
    KnifeOwner { pit: usize, value: i8 },
    #[error("knives: pit {pit} is a knife but holds {seeds} seeds (a knife holds at least 2)")]
    KnifeTooSmall { pit: usize, seeds: u8 },
}

impl Board {
    /// A checked board: at most 48 seeds in all, knife owners `-1`/`0`/`1`, every knife
    /// holding at least the 2 seeds it was made with.
    pub fn checked(pits: [u8; PITS], knives: [i8; PITS], stores: [u8; 2]) -> Result<Self, BoardError> {
        let board: u32 = pits.iter().map(|&x| x as u32).sum();
        let st = stores[0] as u32 + stores[1] as u32;
        if board + st > TOTAL_SEEDS {
            return Err(BoardError::TooManySeeds { board, stores: st });
        }
        for (pit, &value) in knives.iter().enumerate() {
            if !(-1..=1).contains(&value) {
                return Err(BoardError::KnifeOwner { pit, value });
            }
            if value >= 0 && pits[pit] < 2 {
                return Err(BoardError::KnifeTooSmall { pit, seeds: pits[pit] });
            }
        }
        Ok(Board::new(pits, knives, stores))
    }

    /// A board from absolute pits and knives (`-1` none, `0` South, `1` North), as in the JSON
    /// form. Unchecked (see [`Board::checked`]); the engine relies on at most 48 seeds.
    pub fn new(pits: [u8; PITS], knives: [i8; PITS], stores: [u8; 2]) -> Self {
        let mut k = 0u32;
        for (p, &owner) in knives.iter().enumerate() {
            if let 0 | 1 = owner {
                k |= 1 << (16 * owner as u32 + p as u32);
            }
        }
        Board { pits: u128::from_le_bytes(pits), knives: k, stores }
    }

    pub fn pits(&self) -> [u8; PITS] {
        self.pits.to_le_bytes()
    }

    #[inline(always)]
    pub fn pit(&self, p: usize) -> u8 {
        get(self.pits, p)
    }

    /// Empty pit `p` (one AND).
    #[inline(always)]
    pub fn clear_pit(&mut self, p: usize) {
        self.pits &= CLEAR[p];
    }

    pub fn set_pit(&mut self, p: usize, v: u8) {
        set(&mut self.pits, p, v)
    }

    /// The packed pits (byte `p` = pit `p`): a compact, hashable key.
    #[inline(always)]
    pub fn packed(&self) -> u128 {
        self.pits
    }

    /// Owner of the knife at absolute pit `p`, if any.
    pub fn knife(&self, p: usize) -> Option<Side> {
        if self.side_knives(Side::South) & (1 << p) != 0 {
            Some(Side::South)
        } else if self.side_knives(Side::North) & (1 << p) != 0 {
            Some(Side::North)
        } else {
            None
        }
    }

    /// Knives in the JSON form: per absolute pit, `-1` none, `0` South, `1` North.
    pub fn knives_json(&self) -> [i8; PITS] {
        std::array::from_fn(|p| self.knife(p).map_or(-1, |s| s.index() as i8))
    }

    /// Every knife, whoever owns it.
    #[inline(always)]
    pub fn all_knives(&self) -> u16 {
        self.knives as u16 | (self.knives >> 16) as u16
    }

    /// `side`'s knives (bit `p` = absolute pit `p`).
    #[inline(always)]
    pub fn side_knives(&self, side: Side) -> u16 {
        (self.knives >> (16 * side.index())) as u16
    }

    /// Seeds on the board (knives included).
    pub fn board_seeds(&self) -> u32 {
        byte_sum(self.pits)
    }

    /// Seeds in `side`'s knives.
    #[inline]
    pub fn knife_seeds(&self, side: Side) -> u32 {
        byte_sum(self.pits & byte_mask(self.side_knives(side)))
    }

    /// Seeds that can still move: on the board and not in a knife. Every irreversible event
    /// (a capture, a new knife, a seed sown into a knife) lowers it and nothing raises it, so
    /// two positions with different free counts can never be the same position.
    #[inline]
    pub fn free_seeds(&self) -> u32 {
        byte_sum(self.pits & !byte_mask(self.all_knives()))
    }

    /// The lowest own index of `side` that is non-empty and not a knife: the forced move.
    #[inline]
    pub fn forced_pit(&self, side: Side) -> Option<usize> {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let s = side.index();
        let row = if s == 0 { self.pits as u64 } else { (self.pits >> 64) as u64 };
        // High bit of byte i set iff byte i is non-zero (no carries between bytes).
        let nonzero = (((row & LOW7) + LOW7) | row) & HIGH;
        let knives = BYTES[((self.all_knives() >> (8 * s)) & 0xff) as usize];
        let movable = nonzero & !knives;
        (movable != 0).then(|| (movable.trailing_zeros() / 8) as usize)
    }

    /// Final totals ×2 (half-seeds) when the game ends because `mover` cannot move: the other
    /// player takes every non-knife seed, each knife goes to its owner.
    pub fn sweep_totals2(&self, mover: Side) -> [u16; 2] {
        let mut t = self.knife_totals();
        t[mover.other().index()] += self.free_seeds();
        [2 * t[0] as u16, 2 * t[1] as u16]
    }

    /// Final totals ×2 under `split`: store and own knives to each, every other seed (plus
    /// `hands`, seeds still in the sowers' hands) halved.
    pub fn split_totals2(&self, hands: u32) -> [u16; 2] {
        let t = self.knife_totals();
        let rest = self.free_seeds() + hands;
        [(2 * t[0] + rest) as u16, (2 * t[1] + rest) as u16]
    }

    /// Store plus own knives, per side.
    fn knife_totals(&self) -> [u32; 2] {
        [self.stores[0] as u32 + self.knife_seeds(Side::South), self.stores[1] as u32 + self.knife_seeds(Side::North)]
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board")
            .field("pits", &self.pits())
            .field("knives", &self.knives_json())
            .field("stores", &self.stores)
            .finish()
    }
}

impl fmt::Display for Board {
    /// North's row on top, right to left (as he sees it from across), South below; a knife is
    /// marked `s` or `n` after its count.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |p: usize| {
            let mark = match self.knife(p) {
                Some(Side::South) => "s",
                Some(Side::North) => "n",
                None => " ",
            };
            format!("{:>2}{mark}", self.pit(p))
        };
        let north: Vec<String> = (ROW..PITS).rev().map(cell).collect();
        let south: Vec<String> = (0..ROW).map(cell).collect();
        writeln!(f, "  North {:>2} |{} |", self.stores[1], north.join(""))?;
        write!(f, "  South {:>2} |{} |", self.stores[0], south.join(""))
    }
}

/// Which rule set a sowing follows: the opening (no knives, rule 2 off) or a normal turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Opening,
    Turn,
}

impl Phase {
    /// A lap whose last pit (not a knife) holds at least this many seeds now relays: rule 3,
    /// less rule 2's new knife at exactly 2 in normal turns.
    #[inline(always)]
    pub(crate) fn relay_from(self) -> u8 {
        match self {
            Phase::Opening => 2,
            Phase::Turn => 3,
        }
    }
}

/// How a lap ended (RULES.md rules 1–4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LapEnd {
    /// Rule 3: the last pit held seeds before; they were lifted, a new lap follows with this hand.
    Relay(u8),
    /// Rule 1: the last seed fell into a knife; the sowing ends.
    KnifeStop,
    /// Rule 2 (normal turns): the last pit held exactly 1; it became the mover's knife.
    NewKnife,
    /// Rule 4: the last pit was empty; the sowing ends after capturing this many seeds (0: none).
    Empty(u8),
}

/// How a whole sowing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sown {
    /// The last lap ended at absolute pit `last` this way (never `Relay`); `laps` laps in all.
    Ended { last: u8, how: LapEnd, laps: u64 },
    /// The sowing never ends: its state repeated (found after `laps` laps).
    Perpetual { laps: u64 },
}

// ---- perpetual cycles shared between sowings ------------------------------------------
//
// A perpetual sowing walks a cycle of relative states that can be millions of laps long, and
// many games of a sweep (different boards, same sower's dynamics) land on the same cycles.
// Distinguished points make a second visit cheap: when a cycle is proven, its states whose
// hash has `DP_BITS` low zero bits are published in a global set; a later knife-free sowing
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

static CYCLES_PROVEN: AtomicU64 = AtomicU64::new(0);
static PERPETUAL_HITS: AtomicU64 = AtomicU64::new(0);

/// Knife-free sowings of over 32 laps found perpetual in this process so far: by walking
/// their cycle (`proven`) or by meeting a published point of an earlier one (`hits`), and
/// the points published. The hit rate is `hits / (proven + hits)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PerpetualStats {
    pub proven: u64,
    pub hits: u64,
    pub points: u64,
}

pub fn perpetual_stats() -> PerpetualStats {
    PerpetualStats {
        proven: CYCLES_PROVEN.load(Ordering::Relaxed),
        hits: PERPETUAL_HITS.load(Ordering::Relaxed),
        points: perpetual_points().len() as u64,
    }
}

/// Forget every shared cycle and zero the counts: benchmarks use it so that each run pays
/// for its own perpetual sowings (a warm set would hide their cost).
pub fn forget_perpetual_cycles() {
    perpetual_points().clear();
    CYCLES_PROVEN.store(0, Ordering::Relaxed);
    PERPETUAL_HITS.store(0, Ordering::Relaxed);
}

/// `TURNED_LAP[h]`: the run of `h` seeds after byte 0 (one lap of hand `h` in the sower's
/// frame), already turned by the `h % 16` pits the frame turns in that lap.
static TURNED_LAP: [u128; LAP_ROW] = {
    let mut t = [0u128; LAP_ROW];
    let mut h = 0;
    while h <= TOTAL_SEEDS as usize {
        t[h] = run_after(0, h as u32).rotate_right(8 * (h % PITS) as u32);
        h += 1;
    }
    t
};

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

/// Packed relative states (see [`relative_lap`]) and phase known to lie on a perpetual cycle.
fn perpetual_points() -> &'static dashmap::DashMap<(u128, u8), ()> {
    static SET: std::sync::OnceLock<dashmap::DashMap<(u128, u8), ()>> = std::sync::OnceLock::new();
    SET.get_or_init(dashmap::DashMap::new)
}

/// A distinguished state `s` met on a walk: true if it lies on a cycle proven earlier (the
/// sowing never ends either); else it is remembered in `points`. Out of line: it runs once
/// in 4,096 laps, and inlined it crowded the lap loop's registers.
#[cold]
#[inline(never)]
fn met_proven_cycle(s: u128, phase: Phase, points: &mut Vec<u128>) -> bool {
    if perpetual_points().contains_key(&(s, phase as u8)) {
        PERPETUAL_HITS.fetch_add(1, Ordering::Relaxed);
        return true;
    }
    points.push(s);
    false
}

/// Publish the distinguished points of a cycle of length `lambda` through state `s`. When the
/// cycle closed on the walk's first state, every point met on the walk lies on it; otherwise
/// (Brent found a cycle entered later) walk the cycle once more to collect them.
#[cold]
fn publish_cycle(phase: Phase, s: u128, lambda: u64, met: &[u128], through_first: bool) {
    CYCLES_PROVEN.fetch_add(1, Ordering::Relaxed);
    let set = perpetual_points();
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

/// Rule 4 capture at `x` (the last seed of `sower`'s lap just fell there into an empty pit)
/// and the chain rule, on the packed pits: the pits after it. Nothing is taken when `x` is not
/// the sower's or the opposite pit is empty or a knife. Inlined: each mover's copy of the
/// turn then knows its row (see `Position::turn`).
#[inline(always)]
fn captured(mut b: u128, knives: u16, chain: Chain, sower: Side, x: usize) -> u128 {
    let s = sower.index();
    if row_of(x) != sower {
        return b;
    }
    let takeable = |b: u128, q: usize| get(b, q) > 0 && knives & (1 << q) == 0;
    let opp = opposite(x);
    if !takeable(b, opp) {
        return b;
    }
    b &= CLEAR[opp] & CLEAR[x];
    let i = x % ROW;
    match chain {
        Chain::It => {
            // Own i+1, i+2, … while empty, not a knife, and facing a takeable pit.
            for own in x + 1..(s + 1) * ROW {
                let o = opposite(own);
                if get(b, own) == 0 && knives & (1 << own) == 0 && takeable(b, o) {
                    b &= CLEAR[o];
                } else {
                    break;
                }
            }
        }
        Chain::En => {
            // Opponent j+1, j+2, … (j = 7-i, the pit just taken) while takeable, no wrap.
            let opp_base = sower.other().index() * ROW;
            for j in (ROW - 1 - i) + 1..ROW {
                let o = opp_base + j;
                if takeable(b, o) {
                    b &= CLEAR[o];
                } else {
                    break;
                }
            }
        }
        Chain::None => {}
    }
    b
}

/// Laps before cycle finding starts: almost every sowing is shorter, so the common case pays
/// nothing for it.
const CYCLE_CHECK_AFTER: u64 = 32;

impl Board {
    /// The end-of-lap check at absolute pit `x`, where the sower's last seed just fell.
    #[inline(always)]
    pub(crate) fn end_lap(&mut self, chain: Chain, sower: Side, x: usize, phase: Phase) -> LapEnd {
        let now = get(self.pits, x);
        if now >= phase.relay_from() && self.all_knives() & (1 << x) == 0 {
            set(&mut self.pits, x, 0);
            return LapEnd::Relay(now);
        }
        self.stop_lap(chain, sower, x, phase)
    }

    /// A lap ending that does not relay (rules 1, 2 and 4): the last pit `x` is a knife or now
    /// holds fewer than [`Phase::relay_from`] seeds. Written without branches but the rare
    /// capture (11 % of turns): which of the three endings a turn meets is close to random,
    /// and a mispredicted jump costs as much as the rest of the turn.
    #[inline(always)]
    fn stop_lap(&mut self, chain: Chain, sower: Side, x: usize, phase: Phase) -> LapEnd {
        let knives = self.all_knives();
        let knife = knives >> x & 1 != 0;
        let now = get(self.pits, x);
        // Rule 2 (normal turns): held exactly 1, now 2.
        let new_knife = phase == Phase::Turn && !knife && now == 2;
        self.knives |= (new_knife as u32) << (16 * sower.index() + x);
        let south = sower == Side::South;
        // Rule 4: was empty (now 1). Capture only from the sower's row, facing a pit that
        // holds seeds and is not a knife; `captured` applies the chain rule.
        let opp = opposite(x);
        let capture =
            !knife & (now == 1) & (row_of(x) == sower) & (get(self.pits, opp) != 0) & (knives >> opp & 1 == 0);
        let mut got = 0;
        if capture {
            let after = captured(self.pits, knives, chain, sower, x);
            got = byte_sum(self.pits - after) as u8;
            self.pits = after;
            self.stores[0] += if south { got } else { 0 };
            self.stores[1] += if south { 0 } else { got };
        }
        if knife {
            LapEnd::KnifeStop
        } else if new_knife {
            LapEnd::NewKnife
        } else {
            LapEnd::Empty(got)
        }
    }

    /// Sow `hand` seeds for `sower` into the pits after `from` (the pit they were lifted
    /// from, or the pit before the first one to receive a seed), lap after lap, until the
    /// sowing ends, or report that it never ends (exact; see the comments inside).
    #[inline(always)]
    pub fn sow(&mut self, rules: &Rules, sower: Side, from: usize, hand: u8, phase: Phase) -> Sown {
        let mut pos = from;
        let mut hand = hand as u32;
        let mut laps = 0u64;
        // Cycle finding ([`Cycles`]: Brent plus an anchor) on the sowing state between laps:
        // (pits, pit just lifted, hand). Two proven facts make it exact and cheap:
        // - With a knife on the board no sowing is perpetual: each lap continues at the pit
        //   after the last one, so an endless sowing drops a seed into every pit once every
        //   16 drops, and a knife keeps its seeds; it would hold unboundedly many. So only
        //   knife-free boards are checked.
        // - Without knives the continue/stop decision of a lap depends only on the count in
        //   the last pit (captures only happen when the sowing stops), so the dynamics
        //   commute with turning the board: the state seen from the sower's position,
        //   `(pits rotated so the lifted pit is 0, hand)`, determines whether the sowing ends.
        //   If that relative state repeats, the turned copy of the same laps repeats forever,
        //   never stopping. Comparing relative states finds a cycle up to 16 times sooner than
        //   absolute ones (the absolute cycle is a multiple of the relative one; 8 times in
        //   every random perpetual measured, e.g. 19,184,616 absolute laps vs 2,398,077).
        let knives = self.all_knives();
        let check = knives == 0;
        // The relay test inlined (rules 1 and 3 of `end_lap`): a lap relays iff its last pit
        // is not a knife and now holds at least `relay_from`. The other endings come once per
        // sowing and go through `end_lap`.
        let relay_from = phase.relay_from();
        let mut b = self.pits;
        loop {
            b = add_run(b, pos, hand);
            pos = (pos + hand as usize) % PITS;
            laps += 1;
            let now = get(b, pos);
            if now < relay_from || knives & (1 << pos) != 0 {
                self.pits = b;
                let how = self.stop_lap(rules.chain, sower, pos, phase);
                return Sown::Ended { last: pos as u8, how, laps };
            }
            b &= CLEAR[pos];
            hand = now as u32;
            if check && laps == CYCLE_CHECK_AFTER {
                break;
            }
        }
        self.pits = b;
        self.sow_long(rules, sower, pos, hand, laps, phase)
    }

    /// A long knife-free sowing, after [`CYCLE_CHECK_AFTER`] laps: go on in the sower's frame,
    /// where the cycle-finding key is free. Out of line so the short sowings' loop stays small
    /// enough to inline into the game loop.
    #[cold]
    #[inline(never)]
    fn sow_long(
        &mut self,
        rules: &Rules,
        sower: Side,
        mut pos: usize,
        mut hand: u32,
        mut laps: u64,
        phase: Phase,
    ) -> Sown {
        match self.sow_relative(phase, &mut pos, &mut hand, &mut laps) {
            true => Sown::Perpetual { laps },
            false => {
                let how = self.stop_lap(rules.chain, sower, pos, phase);
                Sown::Ended { last: pos as u8, how, laps }
            }
        }
    }

    /// The laps of a knife-free sowing kept in the sower's frame, as a packed relative state
    /// ([`relative_lap`]): the cycle-finding key costs nothing and a lap is a handful of
    /// instructions. Returns true for a perpetual sowing; false when the lap ending at `pos`
    /// (absolute, with the board turned back) does not relay: the caller applies that ending.
    fn sow_relative(&mut self, phase: Phase, pos: &mut usize, hand: &mut u32, laps: &mut u64) -> bool {
        let relay_from = phase.relay_from();
        // Byte `pos` (the pit just lifted) is empty: the hand goes there.
        let mut s = self.pits.rotate_right(8 * *pos as u32) | *hand as u128;
        let mut shift = *pos;
        // Cycle finding as in [`Cycles`] (Brent plus an anchor, the first state), written out
        // so that the window bookkeeping runs once per window, not once per lap.
        let anchor = s;
        let mut saved = s;
        let mut window = 1u64;
        let mut n = 0u64; // laps before the current window
                          // Distinguished states met on this walk (see [`perpetual_points`]).
        let mut points: Vec<u128> = Vec::new();
        let perpetual = 'walk: loop {
            for lam in 1..window + 1 {
                let (next, r) = relative_lap(s);
                s = next;
                shift += r;
                if (s as u8) < relay_from {
                    n += lam;
                    break 'walk false;
                }
                // `saved` (the window's first state) repeats after λ = `lam` laps; the anchor
                // after exactly λ laps. Two plain tests: folding them into one with the λ
                // selected after cost the loop 17 instructions a lap.
                if s == saved {
                    n += lam;
                    publish_cycle(phase, s, lam, &points, s == anchor);
                    break 'walk true;
                }
                if s == anchor {
                    n += lam;
                    publish_cycle(phase, s, n, &points, true);
                    break 'walk true;
                }
                if distinguished(s) && met_proven_cycle(s, phase, &mut points) {
                    n += lam;
                    break 'walk true;
                }
            }
            n += window;
            saved = s;
            window *= 2;
        };
        *laps += n;
        shift %= PITS;
        *pos = shift;
        *hand = s as u8 as u32;
        // Perpetual: the hand in byte 0 goes back to the caller, the pit it came from is empty.
        let pits = if perpetual { s & !0xff } else { s };
        self.pits = pits.rotate_left(8 * shift as u32);
        perpetual
    }
}
