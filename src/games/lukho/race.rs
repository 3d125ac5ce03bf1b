//! The simultaneous opening (docs/rules/lukho.md "Opening"): both removals and drops, then both
//! sowings raced under a race model. One atomic step drops one seed; the end-of-lap check
//! (relay lift, capture, stop) happens inside the step that drops a lap's last seed.

use super::board::Board;
/// The board after both removals and both drops (it lives with the choices it reads).
pub use super::choice::setup;
use super::choice::Choice;
use super::geometry::{PITS, ROW};
use super::perpetual::{joint_distinguished, JointKey, ProvenCycles};
use super::sow::{LapEnd, SowingEnd};
use super::tables::add_run;
use super::{Phase, Rules};
use crate::games::cycle::Cycles;
use crate::side::Side;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

crate::variant::variants! {
    /// One race outcome: how the two opening sowings interleave. The descriptions are the
    /// words of the CLI's `--race` help (one line each; a test in tests/serve.rs holds the two
    /// together).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Race ("race outcome", RaceError = |s: &str| RaceError(<Race as crate::variant::Variant>::unknown(s))) {
        /// `sequential`: South's whole sowing, then North's.
        SouthFirst = "south-first": "South's whole sowing, then North's",
        /// `sequential`: North's whole sowing, then South's.
        NorthFirst = "north-first": "North's whole sowing, then South's",
        /// `lockstep`: one step each per tick, South's first in the tick.
        LockstepSouth = "lockstep-south": "one seed each per tick, South's first in every tick",
        /// `lockstep`: one step each per tick, North's first in the tick.
        LockstepNorth = "lockstep-north": "one seed each per tick, North's first in every tick",
    }
}

impl Race {
    /// The named player (sequential) or the one stepping first in each tick (lockstep): he
    /// moves first when nobody else finished first, e.g. when neither has anything to sow.
    pub fn leader(self) -> Side {
        match self {
            Race::SouthFirst | Race::LockstepSouth => Side::South,
            Race::NorthFirst | Race::LockstepNorth => Side::North,
        }
    }

    /// This outcome as a one-element slice of [`Race::ALL`].
    pub fn as_slice(self) -> &'static [Race] {
        let k = self as usize;
        &Race::ALL[k..k + 1]
    }
}

/// Rule book L8 in one sentence: what every race outcome decides.
pub const RACE_RULE: &str =
    "How the two opening sowings race (rule book L8): both players sow at once and the first to \
     finish moves first; a player who sows nothing finishes at once, so he moves first.";

/// What `speeds:K` means (a [`RaceLabel::Speeds`]), as the CLI's `--race` help says it.
pub const SPEEDS_LABEL: &str = "the K-th outcome of constant sowing speeds for this pair (`lukho races` lists them)";

/// A text that names no race, race model or race outcome; the message gives the accepted forms.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct RaceError(String);

/// The race outcomes as the errors of the race texts list them.
const OUTCOME_NAMES: &str = <Race as crate::variant::Variant>::NAMES;

/// A race model: the set of race outcomes a pair of choices is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RaceModel {
    /// `south-first` and `north-first`.
    Sequential,
    /// `lockstep-south` and `lockstep-north`.
    Lockstep,
    /// Every interleaving of constant speeds: outcomes that depend on the pair
    /// ([`super::speed_races`]).
    Speeds,
}

impl RaceModel {
    pub fn name(self) -> &'static str {
        match self {
            RaceModel::Sequential => "sequential",
            RaceModel::Lockstep => "lockstep",
            RaceModel::Speeds => "speeds",
        }
    }

    /// The outcomes, when they do not depend on the pair (not `speeds`).
    pub fn outcomes(self) -> Option<&'static [Race]> {
        match self {
            RaceModel::Sequential => Some(&Race::ALL[0..2]),
            RaceModel::Lockstep => Some(&Race::ALL[2..4]),
            RaceModel::Speeds => None,
        }
    }
}

/// The race outcomes a sweep plays for every pair: all of a model's, or one fixed outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Races {
    Model(RaceModel),
    One(Race),
}

impl Races {
    pub fn name(&self) -> &'static str {
        match self {
            Races::Model(m) => m.name(),
            Races::One(r) => r.name(),
        }
    }

    /// The outcomes played for every pair, when they do not depend on the pair.
    pub fn outcomes(&self) -> Option<&'static [Race]> {
        match self {
            Races::Model(m) => m.outcomes(),
            Races::One(r) => Some(r.as_slice()),
        }
    }

    /// Outcomes in mirrored pairs (`sequential`, `lockstep`): at equal weights the rules treat
    /// both players alike.
    pub fn mirrored(&self) -> bool {
        matches!(self, Races::Model(RaceModel::Sequential | RaceModel::Lockstep))
    }
}

impl fmt::Display for Races {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Races {
    type Err = RaceError;
    fn from_str(s: &str) -> Result<Races, RaceError> {
        match s.trim() {
            "sequential" => Ok(Races::Model(RaceModel::Sequential)),
            "lockstep" => Ok(Races::Model(RaceModel::Lockstep)),
            "speeds" => Ok(Races::Model(RaceModel::Speeds)),
            o => o.parse().map(Races::One).map_err(|_| {
                RaceError(format!(
                    "`{s}` is not a race model; expected sequential, lockstep, speeds, or one outcome: {OUTCOME_NAMES}"
                ))
            }),
        }
    }
}

/// The race outcome one game is played under: a named one, or the K-th `speeds` outcome of
/// its pair in increasing ρ (`speeds:K`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceLabel {
    Named(Race),
    Speeds(u32),
}

impl fmt::Display for RaceLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RaceLabel::Named(r) => f.write_str(r.name()),
            RaceLabel::Speeds(k) => write!(f, "speeds:{k}"),
        }
    }
}

impl FromStr for RaceLabel {
    type Err = RaceError;
    fn from_str(s: &str) -> Result<RaceLabel, RaceError> {
        let bad = || RaceError(format!("`{s}`; expected a race outcome ({OUTCOME_NAMES}) or speeds:K (K = 0, 1, …)"));
        match s.trim().strip_prefix("speeds:") {
            Some(k) => k.parse().map(RaceLabel::Speeds).map_err(|_| bad()),
            None => s.parse().map(RaceLabel::Named).map_err(|_| bad()),
        }
    }
}

impl RaceLabel {
    /// The opening this outcome gives the pair; an error when the pair has no `speeds:K`.
    pub fn opening(
        &self,
        rules: &Rules,
        proven: &ProvenCycles,
        south: &Choice,
        north: &Choice,
    ) -> Result<Opening, RaceError> {
        match *self {
            RaceLabel::Named(r) => Ok(opening(rules, proven, south, north, r)),
            RaceLabel::Speeds(k) => {
                let all = super::speed_races(rules, proven, south, north);
                let count = all.len();
                all.get(k as usize).map(|s| s.opening).ok_or_else(|| {
                    RaceError(format!(
                        "speeds:{k} does not exist, this pair has {count} speeds outcomes (0..{count}; see `mancala lukho races`)"
                    ))
                })
            }
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
const CYCLE_CHECK_AFTER_TICKS: u64 = 32;

/// The openings of a pair under each of `races`, in order, to `f`: the two `lockstep`
/// outcomes together ([`lockstep_both`]: their common ticks once).
#[inline]
pub fn each_opening(
    rules: &Rules,
    proven: &ProvenCycles,
    south: &Choice,
    north: &Choice,
    races: &[Race],
    mut f: impl FnMut(Race, Opening),
) {
    if races == [Race::LockstepSouth, Race::LockstepNorth] {
        let [s, n] = lockstep_both(rules, proven, south, north);
        f(Race::LockstepSouth, s);
        f(Race::LockstepNorth, n);
    } else {
        for &r in races {
            f(r, opening(rules, proven, south, north, r));
        }
    }
}

/// Play the opening: setup, then both sowings under `race`.
pub fn opening(rules: &Rules, proven: &ProvenCycles, south: &Choice, north: &Choice, race: Race) -> Opening {
    let board = setup(south, north);
    let hands = [south.sow_count() as u32, north.sow_count() as u32];
    match race {
        Race::SouthFirst | Race::NorthFirst => sequential(rules, proven, board, hands, race.leader()),
        Race::LockstepSouth | Race::LockstepNorth => lockstep(rules, proven, board, hands, race.leader()),
    }
}

fn sequential(rules: &Rules, proven: &ProvenCycles, mut board: Board, hands: [u32; 2], a: Side) -> Opening {
    let b = a.other();
    // `a` sows first and so finishes first, unless `b` has nothing to sow (finished at time 0
    // while `a` still sows). This also names the right player when `a`'s sowing is perpetual.
    let first_player = if hands[a.index()] > 0 && hands[b.index()] == 0 { b } else { a };
    for side in [a, b] {
        let s = hands[side.index()];
        if s == 0 {
            continue;
        }
        if let SowingEnd::Perpetual { .. } = board.sow(rules, proven, side, sow_from(side), s as u8, Phase::Opening) {
            return Opening { board, first_player, perpetual: true };
        }
    }
    Opening { board, first_player, perpetual: false }
}

/// Both `lockstep` outcomes of one pair, `[lockstep-south, lockstep-north]`: the same as
/// [`opening`] under each, with the ticks before the first one in which a sowing stops done
/// once. Until a sowing stops the outcomes cannot differ: in a tick the two sowers drop into
/// pits half a board apart and a relay lifts only the sower's own last pit, so the tick's
/// two steps commute; only a stop (a capture reaching the other sower's pit, or both
/// finishing in one tick) depends on who steps first. The `lockstep` model's openings took
/// 41 % of its vector sweeps, each computed twice.
pub fn lockstep_both(rules: &Rules, proven: &ProvenCycles, south: &Choice, north: &Choice) -> [Opening; 2] {
    let board = setup(south, north);
    let hand = [south.sow_count() as u32, north.sow_count() as u32];
    if hand[0] == 0 && hand[1] == 0 {
        // Nobody sows: the leader moves first.
        let o = |first_player| Opening { board, first_player, perpetual: false };
        return [o(Side::South), o(Side::North)];
    }
    let mut j = Joint::start(board, hand, Side::South);
    if !j.done[0] && !j.done[1] {
        if let Some(board) = joint::<true>(rules, proven, &mut j, Side::South) {
            let o = |first_player| Opening { board, first_player, perpetual: true };
            return [o(Side::South), o(Side::North)];
        }
        // `j` is the state before the tick in which a sowing stops: that tick under each lead.
        let after = |a: Side| {
            let mut k = j;
            k.tick(rules, a);
            k
        };
        let (s, n) = (after(Side::South), after(Side::North));
        if s != n {
            return [finish(rules, proven, s, Side::South), finish(rules, proven, n, Side::North)];
        }
        j = s;
    }
    // One sows alone from here, the same under both leads: the other had nothing to sow
    // (finished at time 0), or stopped in a tick that ended alike under both leads.
    let o = finish(rules, proven, j, Side::South);
    [o, o]
}

/// The `lockstep` race while it runs: the board, each sower's last pit and hand, who is done
/// and who finished first.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Joint {
    board: Board,
    pos: [usize; 2],
    hand: [u32; 2],
    done: [bool; 2],
    first: Option<Side>,
}

impl Joint {
    fn start(board: Board, hand: [u32; 2], a: Side) -> Joint {
        let done = [hand[0] == 0, hand[1] == 0];
        // Players with nothing to sow finished at time 0; if both, the in-tick-first one leads.
        let first = [a, a.other()].into_iter().find(|s| done[s.index()]);
        Joint { board, pos: [sow_from(Side::South), sow_from(Side::North)], hand, done, first }
    }

    /// One [`tick`] with `a` stepping first; true if a sowing ended in it.
    #[inline(always)]
    fn tick(&mut self, rules: &Rules, a: Side) -> bool {
        let ended = tick(rules, &mut self.board, &mut self.pos, &mut self.hand, a);
        for w in [a, a.other()] {
            if ended[w.index()] {
                self.done[w.index()] = true;
                self.first.get_or_insert(w);
            }
        }
        ended[0] || ended[1]
    }
}

fn lockstep(rules: &Rules, proven: &ProvenCycles, board: Board, hand: [u32; 2], a: Side) -> Opening {
    let mut j = Joint::start(board, hand, a);
    if !j.done[0] && !j.done[1] {
        if let Some(board) = joint::<false>(rules, proven, &mut j, a) {
            return Opening { board, first_player: a, perpetual: true };
        }
    }
    finish(rules, proven, j, a)
}

/// The ticks while both sow (`a` stepping first), from `j` (nobody done): the board where a
/// perpetual sowing was found, else `None` with `j` just after the tick in which a sowing
/// ended, or with `BEFORE_STOP`, just before it.
///
/// Cycle finding (Brent plus the anchor) on the joint state at tick boundaries where a lap
/// just ended, and the distinguished states of cycles proven by earlier races
/// ([`ProvenCycles`]). As in `Board::sow`, the relative state ([`JointKey`]) decides the
/// future while nobody stops, because a lap's continue/stop decision only reads the count in
/// its last pit. A perpetual opening is scored by a split, which is the same at every state of
/// its cycle (nobody captures on it: the stores stay, the rest is halved).
fn joint<const BEFORE_STOP: bool>(rules: &Rules, proven: &ProvenCycles, j: &mut Joint, a: Side) -> Option<Board> {
    let mut ticks = 0u64;
    let mut cycles: Option<Cycles<JointKey>> = None;
    let mut points: Vec<JointKey> = Vec::new();
    loop {
        let before = if BEFORE_STOP { Some(*j) } else { None };
        if j.tick(rules, a) {
            if let Some(b) = before {
                *j = b;
            }
            return None;
        }
        ticks += 1;
        if ticks < CYCLE_CHECK_AFTER_TICKS {
            continue;
        }
        let key = joint_key(&j.board, j.pos, j.hand, a);
        if joint_distinguished(key) && proven.met_joint_cycle(key, &mut points) {
            return Some(j.board);
        }
        let Some(c) = &mut cycles else {
            cycles = Some(Cycles::new(key));
            continue;
        };
        if let Some(lambda) = c.next(key) {
            if !c.is_anchor(key) {
                // Brent closed a cycle entered after the first state: the points met before
                // it may not lie on it; walk it once more to collect its own.
                points.clear();
                let (mut board, mut pos, mut hand) = (j.board, j.pos, j.hand);
                for _ in 0..lambda {
                    tick(rules, &mut board, &mut pos, &mut hand, a);
                    let k = joint_key(&board, pos, hand, a);
                    if joint_distinguished(k) {
                        points.push(k);
                    }
                }
            }
            proven.publish_joint(&points);
            return Some(j.board);
        }
    }
}

/// The race from `j` once a sower is done: the other's plain sowing, to its end.
fn finish(rules: &Rules, proven: &ProvenCycles, mut j: Joint, a: Side) -> Opening {
    if j.done[0] != j.done[1] {
        let w = if j.done[0] { Side::North } else { Side::South };
        let h = j.hand[w.index()] as u8;
        if let SowingEnd::Perpetual { .. } = j.board.sow(rules, proven, w, j.pos[w.index()], h, Phase::Opening) {
            return Opening { board: j.board, first_player: j.first.unwrap_or(a), perpetual: true };
        }
        j.first.get_or_insert(w);
    }
    Opening { board: j.board, first_player: j.first.unwrap_or(a), perpetual: false }
}

/// The joint state while both sow, in South's frame, and who steps first in a tick
/// ([`JointKey`]).
#[inline(always)]
fn joint_key(board: &Board, pos: [usize; 2], hand: [u32; 2], a: Side) -> JointKey {
    let north = ((pos[1] + PITS - pos[0]) % PITS) as u32;
    let lead = (a == Side::North) as u32;
    (board.pits.rotate_right(8 * pos[0] as u32), north | hand[0] << 8 | hand[1] << 16 | lead << 24)
}

/// The ticks of the `lockstep` race up to and including the next one in which a lap ends
/// (`a` steps first in each tick); returns which sowings ended in it. Until a lap ends the
/// ticks only add seeds, and additions commute: the first `m - 1` ticks are done at once,
/// then the tick in which someone's lap ends one step at a time, in the tick's order.
#[inline(always)]
fn tick(rules: &Rules, board: &mut Board, pos: &mut [usize; 2], hand: &mut [u32; 2], a: Side) -> [bool; 2] {
    let m = hand[0].min(hand[1]);
    if m > 1 {
        for s in 0..2 {
            board.pits = add_run(board.pits, pos[s], m - 1);
            pos[s] = (pos[s] + (m - 1) as usize) % PITS;
            hand[s] -= m - 1;
        }
    }
    let mut ended = [false; 2];
    for w in [a, a.other()] {
        let s = w.index();
        ended[s] = step(rules, board, w, &mut pos[s], &mut hand[s]);
    }
    ended
}
