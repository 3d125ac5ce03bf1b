//! The `speeds` race model (docs/rules/lukho.md "Opening"): each player steps at a constant speed; for
//! ρ = v_South / v_North in `[0, ∞]`, South's step k happens at time k/ρ and North's step m
//! at time m (equal times: South first). Every distinct interleaving some ρ produces is one
//! race outcome.
//!
//! The enumeration is exact: South's next step `k+1` comes before North's next step `m+1`
//! iff `ρ >= (k+1)/(m+1)`, so an interval of ρ whose points disagree is split at that
//! rational, each part followed on its own (depth first, left part first, so outcomes come
//! out in increasing ρ). Intervals are `[lo, hi)`; the last one is `[lo, ∞]`. ρ = 0 is
//! `north-first`, ρ = ∞ `south-first`, ρ = 1 `lockstep-south`.
//!
//! While both still sow, the future depends on the timing phase as well as the board, so an
//! interval is one perpetual outcome as soon as its joint state (board, both next pits, both
//! hands) repeats along its history. Once one player has finished, the other's sowing no
//! longer depends on ρ and is finished by [`Board::sow`] (exact perpetual detection).

use super::board::Board;
use super::choice::Choice;
use super::perpetual::ProvenCycles;
use super::race::{setup, sow_from, step, Opening};
use super::sow::SowingEnd;
use super::{Phase, Rules};
use crate::side::Side;
use std::collections::HashSet;
use std::fmt;

/// A non-negative rational `num/den` (`den > 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    pub num: u64,
    pub den: u64,
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };

    /// `self >= other`.
    fn ge(self, other: Ratio) -> bool {
        self.num as u128 * other.den as u128 >= other.num as u128 * self.den as u128
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// One race outcome of the `speeds` model: the ρ interval `[lo, hi)` (`hi = None`: `[lo, ∞]`)
/// whose speeds all produce the same interleaving, and the opening it gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpeedRace {
    pub lo: Ratio,
    pub hi: Option<Ratio>,
    pub opening: Opening,
}

impl SpeedRace {
    /// Whether `rho = num/den` lies in this interval (`den = 0`: ρ = ∞).
    pub fn contains(&self, num: u64, den: u64) -> bool {
        let ge = |r: Ratio| num as u128 * r.den as u128 >= r.num as u128 * den as u128;
        if den == 0 {
            return self.hi.is_none();
        }
        ge(self.lo) && self.hi.is_none_or(|h| !ge(h))
    }
}

#[derive(Clone, Copy)]
struct Joint {
    board: Board,
    pos: [usize; 2],
    hand: [u32; 2],
    /// Steps made so far: `[k, m]`.
    steps: [u64; 2],
    /// Who finished first, if anyone has.
    first: Option<Side>,
}

type Key = (u128, [usize; 2], [u32; 2]);

struct Search<'a> {
    rules: &'a Rules,
    proven: &'a ProvenCycles,
    /// Joint states on the current branch's history, for the repetition rule.
    seen: HashSet<Key>,
    trail: Vec<Key>,
    out: Vec<SpeedRace>,
}

/// Every race outcome of the `speeds` model for this pair of choices, in increasing ρ.
pub fn speed_races(rules: &Rules, proven: &ProvenCycles, south: &Choice, north: &Choice) -> Vec<SpeedRace> {
    let board = setup(south, north);
    let hand = [south.sow_count() as u32, north.sow_count() as u32];
    // Nothing to sow finishes at time 0; both at time 0: equal times, South first. (The one
    // place where ρ = 0 differs from north-first, which names North: see docs/rules/lukho.md, gaps.)
    let first = [Side::South, Side::North].into_iter().find(|s| hand[s.index()] == 0);
    let start = Joint { board, pos: [sow_from(Side::South), sow_from(Side::North)], hand, steps: [0, 0], first };
    let mut search = Search { rules, proven, seen: HashSet::new(), trail: Vec::new(), out: Vec::new() };
    search.run(start);
    search.out
}

impl Search<'_> {
    /// Depth first over the intervals, with an explicit stack (splits can nest deeply): at a
    /// split the left part `[lo, c)` goes on at once and the right part `[c, hi)` waits with
    /// the history length it shares, so outcomes come out in increasing ρ.
    fn run(&mut self, start: Joint) {
        let mut pending = vec![(start, Ratio::ZERO, None, 0usize)];
        while let Some((mut j, lo, mut hi, mark)) = pending.pop() {
            self.unwind(mark);
            let result = loop {
                if j.hand[0] == 0 || j.hand[1] == 0 {
                    break self.finish(j);
                }
                // South's step k+1 is at (k+1)/ρ, North's m+1 at m+1: South first iff ρ >= c.
                let c = Ratio { num: j.steps[0] + 1, den: j.steps[1] + 1 };
                let south_first = if lo.ge(c) {
                    true
                } else if hi.is_some_and(|h| c.ge(h)) {
                    false
                } else {
                    // The interval straddles c: keep [lo, c) (North first), [c, hi) waits.
                    pending.push((j, c, hi, self.trail.len()));
                    hi = Some(c);
                    false
                };
                let w = if south_first { Side::South } else { Side::North };
                let s = w.index();
                j.steps[s] += 1;
                if step(self.rules, &mut j.board, w, &mut j.pos[s], &mut j.hand[s]) {
                    j.hand[s] = 0;
                    j.first.get_or_insert(w);
                    continue;
                }
                let key = (j.board.pits, j.pos, j.hand);
                if !self.seen.insert(key) {
                    // Nobody has finished (both still sow). docs/rules/lukho.md names "the named /
                    // in-tick-first player"; here that is the faster one: the first split is at
                    // ρ = 1, so the interval is inside [0, 1) (North) or [1, ∞] (South). This
                    // agrees with north-first at ρ = 0, south-first at ∞, lockstep-south at 1.
                    let faster = if lo.ge(Ratio { num: 1, den: 1 }) { Side::South } else { Side::North };
                    break Opening { board: j.board, first_player: faster, perpetual: true };
                }
                self.trail.push(key);
            };
            self.out.push(SpeedRace { lo, hi, opening: result });
        }
    }

    /// At least one player has finished: the other's sowing no longer depends on ρ.
    fn finish(&self, mut j: Joint) -> Opening {
        for w in [Side::South, Side::North] {
            let s = w.index();
            if j.hand[s] == 0 {
                continue;
            }
            if let SowingEnd::Perpetual { .. } =
                j.board.sow(self.rules, self.proven, w, j.pos[s], j.hand[s] as u8, Phase::Opening)
            {
                return Opening { board: j.board, first_player: j.first.unwrap_or(w.other()), perpetual: true };
            }
            j.first.get_or_insert(w);
        }
        Opening { board: j.board, first_player: j.first.unwrap_or(Side::South), perpetual: false }
    }

    fn unwind(&mut self, mark: usize) {
        for k in self.trail.drain(mark..) {
            self.seen.remove(&k);
        }
    }
}
