//! The simultaneous opening (RULES.md "Opening"): both removals and drops, then both
//! sowings raced under a race model. One atomic step drops one seed; the end-of-lap check
//! (relay lift, capture, stop) happens inside the step that drops a lap's last seed.

use super::board::{add_run, Board, LapEnd, Phase, Sown, PITS, ROW};
use super::opening::Choice;
use super::Rules;
use crate::games::cycle::Cycles;
use crate::side::Side;
use serde::{Deserialize, Serialize};

/// One race outcome: how the two opening sowings interleave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Race {
    /// `sequential`: South's whole sowing, then North's.
    SouthFirst,
    /// `sequential`: North's whole sowing, then South's.
    NorthFirst,
    /// `lockstep`: one step each per tick, South's first in the tick.
    LockstepSouth,
    /// `lockstep`: one step each per tick, North's first in the tick.
    LockstepNorth,
}

impl Race {
    pub fn name(self) -> &'static str {
        match self {
            Race::SouthFirst => "south-first",
            Race::NorthFirst => "north-first",
            Race::LockstepSouth => "lockstep-south",
            Race::LockstepNorth => "lockstep-north",
        }
    }

    /// The named player (sequential) or the one stepping first in each tick (lockstep): he
    /// moves first when nobody else finished first, e.g. when neither has anything to sow.
    pub fn leader(self) -> Side {
        match self {
            Race::SouthFirst | Race::LockstepSouth => Side::South,
            Race::NorthFirst | Race::LockstepNorth => Side::North,
        }
    }
}

/// A race model with a fixed set of race outcomes. (`speeds` has outcomes that depend on the
/// opening: see [`super::speed_races`].)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum RaceModel {
    Sequential,
    Lockstep,
}

impl RaceModel {
    pub fn name(self) -> &'static str {
        match self {
            RaceModel::Sequential => "sequential",
            RaceModel::Lockstep => "lockstep",
        }
    }

    pub fn outcomes(self) -> &'static [Race] {
        match self {
            RaceModel::Sequential => &[Race::SouthFirst, Race::NorthFirst],
            RaceModel::Lockstep => &[Race::LockstepSouth, Race::LockstepNorth],
        }
    }
}

/// The result of the opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The board after both sowings (no knives), or when a perpetual sowing was found.
    pub board: Board,
    /// Who finished first and so moves first (perpetual: whoever had finished, else the leader).
    pub first_player: Side,
    /// A sowing never ends (class `perpetual-opening`).
    pub perpetual: bool,
}

impl Opening {
    /// Seeds still in the sowers' hands: all that is neither stored nor on the board (only
    /// non-zero when perpetual).
    pub fn hands(&self) -> u32 {
        super::TOTAL_SEEDS - self.board.board_seeds() - self.board.stores[0] as u32 - self.board.stores[1] as u32
    }
}

/// The board after both removals and both drops (the drops are additions and commute).
pub fn setup(south: &Choice, north: &Choice) -> Board {
    let mut b = Board::default();
    // On the packed pits: a removal is one row subtracted (each pit holds 3 >= r, no borrow),
    // a drop one byte added.
    for (side, c) in [(Side::South, south), (Side::North, north)] {
        let own = side.index() * ROW;
        let opp = side.other().index() * ROW;
        b.pits -= (u64::from_le_bytes(c.remove) as u128) << (8 * own);
        b.pits += (c.drop as u128) << (8 * (opp + c.pit as usize));
    }
    b
}

/// The pit "before" the first one a player sows into: his own index 7, so the first seed
/// goes to the opponent's index 0.
pub(crate) fn sow_from(side: Side) -> usize {
    side.index() * ROW + ROW - 1
}

/// One atomic step of `side`'s opening sowing: drop one seed into the next pit; if it was
/// the lap's last, the end-of-lap check (relay lift, or capture and stop). True when the
/// sowing has ended.
#[inline(always)]
pub(crate) fn step(rules: &Rules, board: &mut Board, side: Side, pos: &mut usize, hand: &mut u32) -> bool {
    *pos = (*pos + 1) % PITS;
    board.pits += 1u128 << (8 * *pos);
    *hand -= 1;
    if *hand > 0 {
        return false;
    }
    match board.end_lap(rules.chain, side, *pos, Phase::Opening) {
        LapEnd::Relay(h) => {
            *hand = h as u32;
            false
        }
        _ => true,
    }
}

/// Macro steps (ticks up to a lap end) before cycle finding starts in the lockstep race.
const CYCLE_CHECK_AFTER: u64 = 32;

/// Play the opening: setup, then both sowings under `race`.
pub fn opening(rules: &Rules, south: &Choice, north: &Choice, race: Race) -> Opening {
    let board = setup(south, north);
    let hands = [south.sow_count() as u32, north.sow_count() as u32];
    match race {
        Race::SouthFirst | Race::NorthFirst => sequential(rules, board, hands, race.leader()),
        Race::LockstepSouth | Race::LockstepNorth => lockstep(rules, board, hands, race.leader()),
    }
}

fn sequential(rules: &Rules, mut board: Board, hands: [u32; 2], a: Side) -> Opening {
    let b = a.other();
    // `a` sows first and so finishes first, unless `b` has nothing to sow (finished at time 0
    // while `a` still sows). This also names the right player when `a`'s sowing is perpetual.
    let first_player = if hands[a.index()] > 0 && hands[b.index()] == 0 { b } else { a };
    for side in [a, b] {
        let s = hands[side.index()];
        if s == 0 {
            continue;
        }
        if let Sown::Perpetual { .. } = board.sow(rules, side, sow_from(side), s as u8, Phase::Opening) {
            return Opening { board, first_player, perpetual: true };
        }
    }
    Opening { board, first_player, perpetual: false }
}

fn lockstep(rules: &Rules, mut board: Board, mut hand: [u32; 2], a: Side) -> Opening {
    let b = a.other();
    let mut pos = [sow_from(Side::South), sow_from(Side::North)];
    let mut done = [hand[0] == 0, hand[1] == 0];
    // Players with nothing to sow finished at time 0; if both, the in-tick-first one leads.
    let mut first: Option<Side> = [a, b].into_iter().find(|s| done[s.index()]);
    // Cycle finding (Brent) on the joint state at tick boundaries where a lap just ended.
    // As in `Board::sow`, the relative state (pits turned so South's pit is 0, North's pit
    // relative to South's, both hands) decides the future while nobody stops, because a
    // lap's continue/stop decision only reads the count in its last pit.
    let mut steps = 0u64;
    let mut cycles: Option<Cycles<(u128, usize, u32, u32)>> = None;
    while !(done[0] && done[1]) {
        if done[0] || done[1] {
            // One sower left: the rest is his plain sowing.
            let w = if done[0] { Side::North } else { Side::South };
            let h = hand[w.index()] as u8;
            if let Sown::Perpetual { .. } = board.sow(rules, w, pos[w.index()], h, Phase::Opening) {
                return Opening { board, first_player: first.unwrap_or(a), perpetual: true };
            }
            first.get_or_insert(w);
            break;
        }
        // Both sow. Until a lap ends, the ticks only add seeds, and additions commute: do
        // the next `m - 1` ticks at once, then the tick in which someone's lap ends one step
        // at a time, in the tick's order.
        let m = hand[0].min(hand[1]);
        if m > 1 {
            for s in 0..2 {
                board.pits = add_run(board.pits, pos[s], m - 1);
                pos[s] = (pos[s] + (m - 1) as usize) % PITS;
                hand[s] -= m - 1;
            }
        }
        for w in [a, b] {
            let s = w.index();
            if step(rules, &mut board, w, &mut pos[s], &mut hand[s]) {
                done[s] = true;
                first.get_or_insert(w);
            }
        }
        if done[0] || done[1] {
            // Leaving the joint regime for good; a later single-sower check starts afresh.
            continue;
        }
        steps += 1;
        if steps < CYCLE_CHECK_AFTER {
            continue;
        }
        let key = (board.pits.rotate_right(8 * pos[0] as u32), (pos[1] + PITS - pos[0]) % PITS, hand[0], hand[1]);
        match &mut cycles {
            None => cycles = Some(Cycles::new(key)),
            Some(c) => {
                if c.next(key).is_some() {
                    return Opening { board, first_player: first.unwrap_or(a), perpetual: true };
                }
            }
        }
    }
    Opening { board, first_player: first.unwrap_or(a), perpetual: false }
}
