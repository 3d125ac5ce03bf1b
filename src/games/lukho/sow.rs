//! The sowing of laps (docs/rules/lukho.md "L2. Sowing a lap", "L3. The end of a lap"): a
//! lap's ending (relay, knife stop, new knife, capture) and a whole sowing, lap after lap,
//! until it ends or is proven perpetual.

use super::board::Board;
use super::capture::captured;
use super::geometry::{opposite, row_of, PITS};
use super::perpetual::ProvenCycles;
use super::tables::{add_run, byte_sum, get, set, CLEAR};
use super::{Chain, Phase, Rules};
use crate::side::Side;

/// How a lap ended (docs/rules/lukho.md "L3. The end of a lap", rules 1–4).
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
pub enum SowingEnd {
    /// The last lap ended at absolute pit `last` this way (never `Relay`); `laps` laps in all.
    Ended { last: u8, how: LapEnd, laps: u64 },
    /// The sowing never ends: its state repeated (found after `laps` laps).
    Perpetual { laps: u64 },
}

/// Laps before cycle finding starts: almost every sowing is shorter, so the common case pays
/// nothing for it.
pub(super) const CYCLE_CHECK_AFTER_LAPS: u64 = 32;

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
    /// sowing ends, or report that it never ends (exact; see the comments inside). `proven`
    /// holds the cycles proven by earlier sowings and receives this one's if it is perpetual.
    #[inline(always)]
    pub fn sow(
        &mut self,
        rules: &Rules,
        proven: &ProvenCycles,
        sower: Side,
        from: usize,
        hand: u8,
        phase: Phase,
    ) -> SowingEnd {
        let mut pos = from;
        let mut hand = hand as u32;
        let mut laps = 0u64;
        // Cycle finding (an anchor, and Brent on the distinguished states; see `perpetual`) on
        // the sowing state between laps: (pits, pit just lifted, hand). Two proven facts make it exact and cheap:
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
                return SowingEnd::Ended { last: pos as u8, how, laps };
            }
            b &= CLEAR[pos];
            hand = now as u32;
            if check && laps == CYCLE_CHECK_AFTER_LAPS {
                break;
            }
        }
        self.pits = b;
        self.sow_long(rules, proven, sower, pos, hand, laps, phase)
    }

    /// A long knife-free sowing, after [`CYCLE_CHECK_AFTER_LAPS`] laps: go on in the sower's frame,
    /// where the cycle-finding key is free. Out of line so the short sowings' loop stays small
    /// enough to inline into the game loop.
    #[cold]
    #[inline(never)]
    // The sowing's whole state is passed in registers, as the short loop held it.
    #[allow(clippy::too_many_arguments)]
    fn sow_long(
        &mut self,
        rules: &Rules,
        proven: &ProvenCycles,
        sower: Side,
        mut pos: usize,
        mut hand: u32,
        mut laps: u64,
        phase: Phase,
    ) -> SowingEnd {
        match self.sow_relative(proven, phase, &mut pos, &mut hand, &mut laps) {
            true => SowingEnd::Perpetual { laps },
            false => {
                let how = self.stop_lap(rules.chain, sower, pos, phase);
                SowingEnd::Ended { last: pos as u8, how, laps }
            }
        }
    }
}
