//! Kiothi (Meru) rules, RULES.md K1–K9. Pure rules: no I/O, no search.
//!
//! The board is the absolute array `South 0..9, North 0..9` (sowing order); the boma opposite
//! own index `i` is the opponent's index `9-i`. A [`Position`] holds the boma, the two prisons,
//! the nki flags (a bit mask over absolute boma), the side to move and the ply number `turn`
//! (1 and 2 are the opening redistributions, K2).
//!
//! Files, one concern each:
//! - `sow.rs`: K3–K7 sowing lap by lap, relays, exact perpetual-sowing detection (Brent's
//!   cycle finding plus shared distinguished points) and long-sowing statistics;
//! - `redistribution.rs`: K2 opening moves, their exact counts and their enumeration;
//! - `notation.rs`: `B:K` and `E1,E2>A*C,…` text forms, position JSON;
//! - `perft.rs`: `perft` / `divide`;
//! - this file: variants, position, move application, the checked [`Game`] (K8, K9).
//!
//! Readings of RULES.md where it leaves room:
//! - "Relay lap" (for `nki-clear=pass`) = every lap after the first one, i.e. every lap that
//!   starts with a relay lift. Drops of the first lap never clear nki.
//! - The nki flags never change *where* a sowing goes (only counts do), so K7 compares
//!   (board counts, landing boma) only; the flags matter only for the capture at the end, which
//!   is checked against the flags as they stand after the sowing (under `pass` a relay lap may
//!   have cleared the opposite boma, which makes it capturable).
//! - Captures (K5, K6) need the landing boma in the mover's own row; a lap ending in an empty
//!   opponent boma ends the move without capture.
//! - K8 applies on redistribution turns too: under `exactly-2` a player with fewer than two
//!   occupied boma has no legal redistribution.
//! - nki flags are set only after North's redistribution (turn 2), on every occupied boma of the
//!   whole board; after turn 1 there are none yet.
//! - `max-relays=N`: every sowing that has not ended after N relays is illegal as
//!   [`Illegal::RelayLimit`], perpetual ones included (they too "would need relay N+1"), so the
//!   reason given never depends on which K7 detector fired first.

use crate::side::Side;
use serde::{Deserialize, Serialize};
use std::fmt;

mod notation;
mod perft;
mod redistribution;
mod sow;
#[cfg(test)]
mod tests;

pub use perft::{divide, perft, perft_u128, DIVIDE_LIMIT};
pub use redistribution::{binomial_u128, placements};
pub use sow::{reset_sowing_stats, sowing_stats, SowingStats, Sown, LONG_SOWING_RELAYS};

/// Boma on the board.
pub const BOMA: usize = 20;
/// Boma per row.
pub const ROW: usize = 10;
/// Mask of every boma.
pub const ALL_BOMA: u32 = (1 << BOMA) - 1;

/// The board, absolute, in sowing order.
pub type Board = [u8; BOMA];

/// K1: how the warriors stand at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum, Default)]
pub enum Setup {
    /// 5 warriors in each of own indices 4..9 (30 per side). Default.
    #[default]
    #[serde(rename = "6x5")]
    #[value(name = "6x5")]
    S6x5,
    /// 5 warriors in each of own indices 5..9 (25 per side).
    #[serde(rename = "5x5")]
    #[value(name = "5x5")]
    S5x5,
    /// 6 warriors in each of own indices 5..9 (30 per side).
    #[serde(rename = "5x6")]
    #[value(name = "5x6")]
    S5x6,
}

impl Setup {
    pub fn name(self) -> &'static str {
        match self {
            Setup::S6x5 => "6x5",
            Setup::S5x5 => "5x5",
            Setup::S5x6 => "5x6",
        }
    }
    /// (first occupied own index, warriors per occupied boma); the rightmost boma are filled.
    pub fn shape(self) -> (usize, u8) {
        match self {
            Setup::S6x5 => (4, 5),
            Setup::S5x5 => (5, 5),
            Setup::S5x6 => (5, 6),
        }
    }
}

/// K2: how many boma an opening redistribution empties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum, Default)]
pub enum Redistribute {
    /// Exactly two (default, the seed text).
    #[default]
    #[serde(rename = "exactly-2")]
    #[value(name = "exactly-2")]
    Exactly2,
    /// One or two, never none.
    #[serde(rename = "up-to-2")]
    #[value(name = "up-to-2")]
    UpTo2,
}

impl Redistribute {
    pub fn name(self) -> &'static str {
        match self {
            Redistribute::Exactly2 => "exactly-2",
            Redistribute::UpTo2 => "up-to-2",
        }
    }
    /// Whether emptying `n` boma is allowed.
    pub fn allows(self, n: u32) -> bool {
        match self {
            Redistribute::Exactly2 => n == 2,
            Redistribute::UpTo2 => n == 1 || n == 2,
        }
    }
}

/// K3: what clears an nki flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum, Default)]
#[serde(rename_all = "kebab-case")]
pub enum NkiClear {
    /// Only lifting from the boma (start of a move or a relay). Default.
    #[default]
    Lift,
    /// Also any warrior dropped into it during a relay lap.
    Pass,
}

impl NkiClear {
    pub fn name(self) -> &'static str {
        match self {
            NkiClear::Lift => "lift",
            NkiClear::Pass => "pass",
        }
    }
}

/// Every Kiothi rule variant in force (CLI flags `--setup`, `--redistribute`, `--nki-clear`,
/// `--max-relays`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Rules {
    pub setup: Setup,
    pub redistribute: Redistribute,
    pub nki_clear: NkiClear,
    /// K7 variant: at most this many relays per move; `None` = unbounded (default).
    pub max_relays: Option<u64>,
}

impl Rules {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "game": "kiothi",
            "setup": self.setup.name(),
            "redistribute": self.redistribute.name(),
            "nki_clear": self.nki_clear.name(),
            "max_relays": self.max_relays,
        })
    }

    /// A short stable tag for file names, e.g. `6x5-exactly-2-lift-relays-any`.
    pub fn tag(&self) -> String {
        let relays = match self.max_relays {
            Some(n) => n.to_string(),
            None => "any".to_string(),
        };
        format!("{}-{}-{}-relays-{relays}", self.setup.name(), self.redistribute.name(), self.nki_clear.name())
    }

    /// The position before turn 1 under this setup.
    pub fn start(&self) -> Position {
        Position::start(self.setup)
    }
}

/// A later move (K3): lift `lift` warriors from own index `boma`. Written `B:K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SowMove {
    /// The mover's own index 0..9.
    pub boma: u8,
    /// Warriors lifted, `1..=c`.
    pub lift: u8,
}

/// An opening move (K2): empty the own boma in `emptied` and place the lifted warriors as
/// `placement` says. Written `E1,E2>A*C,…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Redistribution {
    /// Bit `i` set = own index `i` emptied.
    pub emptied: u16,
    /// Warriors placed in each absolute boma (their sum is the number lifted).
    pub placement: Board,
}

/// Any move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Sow(SowMove),
    Redistribute(Redistribution),
}

/// Why a move is illegal. `Copy` and string-free: the move generator meets these in its hot loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("a sowing move on a redistribution turn (turn {turn})")]
    SowDuringOpening { turn: u32 },
    #[error("a redistribution after the opening (turn {turn})")]
    RedistributionAfterOpening { turn: u32 },
    #[error("own index {boma} is out of range 0..9")]
    BomaOutOfRange { boma: u8 },
    #[error("own boma {boma} is empty")]
    EmptyBoma { boma: u8 },
    #[error("lifts {lift} warriors from own boma {boma}, which holds {held} (need 1..={held})")]
    LiftOutOfRange { boma: u8, lift: u8, held: u8 },
    #[error("K4: the first lap ends in own boma {landing}, which was occupied")]
    FirstLap { landing: u8 },
    #[error("K7: the sowing never ends (its relay state repeats)")]
    Perpetual,
    #[error("max-relays {limit}: the sowing needs more relays (or never ends)")]
    RelayLimit { limit: u64 },
    #[error("empties {got} boma; the rules ({rule}) allow {allowed}")]
    EmptiedCount { got: u32, rule: &'static str, allowed: &'static str },
    #[error("emptied own boma {boma} is not occupied")]
    EmptiedNotOccupied { boma: u8 },
    #[error("places {placed} warriors but lifts {lifted}")]
    PlacementSum { placed: u32, lifted: u32 },
}

/// Errors of the Kiothi rules API.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KiothiError {
    /// Bad text (move notation, position JSON). `field` names the part that is wrong.
    #[error("{field}: {message} (expected {expected})")]
    Parse { field: &'static str, message: String, expected: &'static str },
    /// A position that breaks an invariant; `field` names the JSON field.
    #[error("position {field}: {message}")]
    Position { field: &'static str, message: String },
    #[error("move {mv} is illegal: {reason}")]
    Illegal { mv: String, reason: Illegal },
    #[error("the game has ended")]
    Ended,
    #[error("the count does not fit in 128 bits")]
    CountOverflow,
    #[error("{count} redistributions are too many to list (limit {limit}); count them instead")]
    TooManyMoves { count: u128, limit: u128 },
}

/// A legal sowing move with its result, as the generator produces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    pub mv: SowMove,
    pub position: Position,
    /// Warriors the mover captured (K5, K6).
    pub captured: u8,
    /// Relays the sowing took (0 = the first lap ended it).
    pub relays: u64,
}

/// What the rules need to continue (RULES.md "position").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// South 0..9 then North 0..9 (sowing order).
    pub boma: Board,
    /// Warriors captured: `[south, north]`.
    pub prisons: [u8; 2],
    /// Bit `a` set = absolute boma `a` is nki. Always a subset of the occupied boma.
    pub nki: u32,
    pub to_move: Side,
    /// Ply number from 1; turns 1 and 2 are the redistributions.
    pub turn: u32,
}

impl Default for Position {
    fn default() -> Self {
        Position::start(Setup::default())
    }
}

/// The phase part of a position (K9: redistribution turns are never repeated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Turn 1 (South) or 2 (North).
    Redistribution(u8),
    Play,
}

impl Position {
    /// K1: turn 1, South to move, no nki yet.
    pub fn start(setup: Setup) -> Self {
        let (first, per) = setup.shape();
        let mut boma = [0u8; BOMA];
        for i in first..ROW {
            boma[i] = per;
            boma[ROW + i] = per;
        }
        Position { boma, prisons: [0, 0], nki: 0, to_move: Side::South, turn: 1 }
    }

    pub fn phase(&self) -> Phase {
        match self.turn {
            1 | 2 => Phase::Redistribution(self.turn as u8),
            _ => Phase::Play,
        }
    }

    pub fn is_redistribution(&self) -> bool {
        self.turn <= 2
    }

    /// Absolute index of the mover's own index 0.
    #[inline(always)]
    pub fn own_base(&self) -> usize {
        self.to_move.index() * ROW
    }

    /// Absolute boma of `side`'s own index `i`.
    #[inline(always)]
    pub fn absolute(side: Side, i: usize) -> usize {
        side.index() * ROW + i
    }

    pub fn is_nki(&self, abs: usize) -> bool {
        self.nki >> abs & 1 == 1
    }

    /// Mask of the occupied boma.
    pub fn occupied(&self) -> u32 {
        occupied_mask(&self.boma)
    }

    pub fn warriors_on_board(&self) -> u32 {
        self.boma.iter().map(|&x| x as u32).sum()
    }

    pub fn warriors(&self) -> u32 {
        self.warriors_on_board() + self.prisons[0] as u32 + self.prisons[1] as u32
    }

    /// Final totals (South, North) when the mover nets `value` of the board's warriors: he
    /// ends with `(n + value) / 2` of the `n` on the board, the opponent with the rest, each
    /// on top of his prison.
    pub fn final_totals(&self, value: i32) -> [f64; 2] {
        let n = self.warriors_on_board() as f64;
        let mover = (n + value as f64) / 2.0;
        let mut t = [self.prisons[0] as f64, self.prisons[1] as f64];
        t[self.to_move.index()] += mover;
        t[self.to_move.other().index()] += n - mover;
        t
    }

    /// Invariants every position of a game keeps. Warriors are counted in `u8`, so the total
    /// (board plus prisons) must stay within 255; an nki boma is always occupied (K3); the
    /// redistribution turns have a fixed mover and no nki yet.
    pub fn validate(&self) -> Result<(), KiothiError> {
        let err = |field, message: String| Err(KiothiError::Position { field, message });
        if self.warriors() > u8::MAX as u32 {
            return err("pits", format!("{} warriors with the stores; at most 255", self.warriors()));
        }
        if self.turn == 0 {
            return err("turn", "turns count from 1".into());
        }
        if self.nki & !ALL_BOMA != 0 {
            return err("nki", "flags beyond the 20 boma".into());
        }
        if self.nki & !self.occupied() != 0 {
            let a = (self.nki & !self.occupied()).trailing_zeros();
            return err("nki", format!("boma {a} is nki but empty (an nki boma is always occupied)"));
        }
        if self.is_redistribution() {
            let want = if self.turn == 1 { Side::South } else { Side::North };
            if self.to_move != want {
                return err("to_move", format!("turn {} is {}'s redistribution", self.turn, want.name()));
            }
            if self.nki != 0 {
                return err("nki", "no boma is nki before both redistributions are done".into());
            }
        }
        Ok(())
    }

    /// K3, K4, K7 for one sowing move, before the capture and without the nki flags: the
    /// board when the last warrior has fallen, where it fell and which boma were lifted. Where
    /// a sowing goes never depends on the flags, so endgame tables share this among positions
    /// that differ only in nki. [`Position::sow`] is this plus K3's flag clearing and K5/K6.
    #[inline]
    pub fn sow_uncaptured(&self, rules: &Rules, mv: SowMove) -> Result<Sown, Illegal> {
        if self.is_redistribution() {
            return Err(Illegal::SowDuringOpening { turn: self.turn });
        }
        if mv.boma as usize >= ROW {
            return Err(Illegal::BomaOutOfRange { boma: mv.boma });
        }
        let base = self.own_base();
        let origin = base + mv.boma as usize;
        let held = self.boma[origin];
        if held == 0 {
            return Err(Illegal::EmptyBoma { boma: mv.boma });
        }
        if mv.lift == 0 || mv.lift > held {
            return Err(Illegal::LiftOutOfRange { boma: mv.boma, lift: mv.lift, held });
        }
        sow::sow(&self.boma, origin, mv.lift, base, rules.max_relays)
    }

    /// K3–K7 for one sowing move, without building error text: the child position with its
    /// capture and relay count, or why the move is illegal. `self` must be past the opening.
    #[inline]
    pub fn sow(&self, rules: &Rules, mv: SowMove) -> Result<Child, Illegal> {
        let s = self.sow_uncaptured(rules, mv)?;
        let base = self.own_base();
        let mut b = s.board;
        // K3: lifting clears nki for good; under `pass` so does a relay lap's drop.
        let mut nki = self.nki & !s.lifted;
        if rules.nki_clear == NkiClear::Pass {
            nki &= !s.relay_sown;
        }
        let end = s.end as usize;
        let mut captured = 0u8;
        if end.wrapping_sub(base) < ROW {
            // K5: the sowing ended in an empty own boma (it holds the one last warrior now).
            let i = end - base;
            let opp = ROW - base; // absolute index of the opponent's own index 0
            let take = |b: &mut Board, a: usize| -> Option<u8> {
                if b[a] > 0 && nki >> a & 1 == 0 {
                    Some(std::mem::take(&mut b[a]))
                } else {
                    None
                }
            };
            if let Some(c) = take(&mut b, opp + ROW - 1 - i) {
                captured = c + b[end];
                b[end] = 0;
                if i == 0 {
                    // K6: opponent indices 8, 7, 6 in this order, stopping at the first that is
                    // empty or nki.
                    for j in [8, 7, 6] {
                        match take(&mut b, opp + j) {
                            Some(c) => captured += c,
                            None => break,
                        }
                    }
                }
            }
        }
        let mut prisons = self.prisons;
        prisons[self.to_move.index()] += captured;
        let position = Position { boma: b, prisons, nki, to_move: self.to_move.other(), turn: self.turn + 1 };
        Ok(Child { mv, position, captured, relays: s.relays })
    }

    /// Call `f` on every legal sowing move with its child, own indices ascending, then lifts
    /// ascending. Nothing on redistribution turns.
    #[inline]
    pub fn for_each_child(&self, rules: &Rules, mut f: impl FnMut(Child)) {
        if self.is_redistribution() {
            return;
        }
        let base = self.own_base();
        for b in 0..ROW as u8 {
            for lift in 1..=self.boma[base + b as usize] {
                if let Ok(c) = self.sow(rules, SowMove { boma: b, lift }) {
                    f(c);
                }
            }
        }
    }

    /// Every legal sowing move with its child, into a reusable buffer (cleared first).
    /// Empty on redistribution turns.
    pub fn children(&self, rules: &Rules, out: &mut Vec<Child>) {
        out.clear();
        self.for_each_child(rules, |c| out.push(c));
    }

    /// The legal moves into a reusable buffer (cleared first). On a redistribution turn this
    /// lists every redistribution, which is hopeless at full setups: check
    /// [`Position::redistribution_count`] first.
    pub fn legal_moves(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        if self.is_redistribution() {
            self.for_each_redistribution(rules, |r| out.push(Move::Redistribute(*r)));
        } else {
            self.for_each_child(rules, |c| out.push(Move::Sow(c.mv)));
        }
    }

    /// Whether the mover has a legal move (K8 ends the game when not).
    pub fn has_legal_move(&self, rules: &Rules) -> bool {
        if self.is_redistribution() {
            let own = (self.occupied() >> self.own_base()) & 0x3ff;
            return match rules.redistribute {
                Redistribute::Exactly2 => own.count_ones() >= 2,
                Redistribute::UpTo2 => own != 0,
            };
        }
        let base = self.own_base();
        (0..ROW as u8)
            .any(|b| (1..=self.boma[base + b as usize]).any(|lift| self.sow(rules, SowMove { boma: b, lift }).is_ok()))
    }

    /// Checked play: the position after `m`, or why it is not legal.
    pub fn play(&self, rules: &Rules, m: &Move) -> Result<Position, KiothiError> {
        let illegal = |reason| KiothiError::Illegal { mv: m.to_string(), reason };
        match m {
            Move::Sow(s) => self.sow(rules, *s).map(|c| c.position).map_err(illegal),
            Move::Redistribute(r) => {
                self.check_redistribution(rules, r).map_err(illegal)?;
                Ok(self.redistribute_unchecked(r))
            }
        }
    }

    /// Fast path for a move known to be legal (from the generator or a checked replay).
    /// A sowing move is still simulated (that is what computes its result); its legality is
    /// only asserted in debug builds.
    pub fn play_unchecked(&mut self, rules: &Rules, m: &Move) {
        *self = match m {
            Move::Sow(s) => {
                let c = self.sow(rules, *s);
                debug_assert!(c.is_ok(), "illegal move {m}: {c:?}");
                match c {
                    Ok(c) => c.position,
                    Err(_) => return,
                }
            }
            Move::Redistribute(r) => self.redistribute_unchecked(r),
        };
    }

    /// K8 at this position: the ending when the mover has no legal move.
    pub fn ending(&self, rules: &Rules) -> Option<GameResult> {
        if self.has_legal_move(rules) {
            return None;
        }
        let mut score = [self.prisons[0] as f64, self.prisons[1] as f64];
        score[self.to_move.other().index()] += self.warriors_on_board() as f64;
        Some(GameResult { score, reason: EndReason::NoLegalMove { stuck: self.to_move } })
    }
}

#[inline(always)]
pub(crate) fn occupied_mask(b: &Board) -> u32 {
    b.iter().enumerate().fold(0u32, |m, (a, &x)| m | ((x != 0) as u32) << a)
}

/// How a game ended, with final totals (halves allowed under `split`, hence `f64`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult {
    /// `[south, north]` final totals: prison plus what the ending gives.
    pub score: [f64; 2],
    pub reason: EndReason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// K8: `stuck` had no legal move; the other player took every warrior on the board.
    NoLegalMove { stuck: Side },
    /// K9 / common rule `split`: a position repeated; the board was divided evenly.
    Repetition,
}

impl GameResult {
    /// The player with more warriors, `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        Side::ahead(self.score)
    }

    /// K8: a win by exactly two warriors ("victory by one warrior"), flagged.
    pub fn win_by_exactly_two(&self) -> bool {
        (self.score[0] - self.score[1]).abs() == 2.0
    }
}

/// The repetition key (K9): boma, marks, side to move and phase; prisons are left out, as
/// the common rule says (they cannot differ when the board repeats anyway: captures only grow).
type RepetitionKey = (Board, u32, Side, Phase);

/// A game in progress: the position plus the positions seen since the last capture (earlier
/// ones cannot recur, since warriors never return to the board).
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Rules,
    pub position: Position,
    seen: Vec<RepetitionKey>,
    pub result: Option<GameResult>,
}

fn key(p: &Position) -> RepetitionKey {
    (p.boma, p.nki, p.to_move, p.phase())
}

impl Game {
    pub fn new(rules: Rules, position: Position) -> Result<Self, KiothiError> {
        position.validate()?;
        Ok(Game { rules, position, seen: vec![key(&position)], result: position.ending(&rules) })
    }

    /// The legal sowing moves (empty when the game has ended or on a redistribution turn:
    /// count those with [`Position::redistribution_count`]).
    pub fn legal_sowings(&self) -> Vec<SowMove> {
        if self.result.is_some() {
            return vec![];
        }
        let mut moves = Vec::new();
        self.position.for_each_child(&self.rules, |c| moves.push(c.mv));
        moves
    }

    /// Checked play; on success the game may have ended (K8 or K9), see `result`.
    pub fn play(&mut self, m: &Move) -> Result<(), KiothiError> {
        if self.result.is_some() {
            return Err(KiothiError::Ended);
        }
        let next = self.position.play(&self.rules, m)?;
        if next.prisons != self.position.prisons {
            self.seen.clear();
        }
        self.position = next;
        let k = key(&next);
        if self.seen.contains(&k) {
            let half = next.warriors_on_board() as f64 / 2.0;
            let score = [next.prisons[0] as f64 + half, next.prisons[1] as f64 + half];
            self.result = Some(GameResult { score, reason: EndReason::Repetition });
        } else {
            self.seen.push(k);
            self.result = next.ending(&self.rules);
        }
        Ok(())
    }
}

impl fmt::Display for Position {
    /// A diagram: North's row on top, right to left (as he sees it from across), South below;
    /// `*` marks an nki boma.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |a: usize| format!("{:>2}{}", self.boma[a], if self.is_nki(a) { '*' } else { ' ' });
        let north: Vec<String> = (ROW..BOMA).rev().map(cell).collect();
        let south: Vec<String> = (0..ROW).map(cell).collect();
        writeln!(f, "  North {:>2} | {}|", self.prisons[1], north.join(""))?;
        writeln!(f, "  South {:>2} | {}|", self.prisons[0], south.join(""))?;
        write!(f, "  turn {}, {} to move", self.turn, self.to_move.name())
    }
}
