//! Oware (Abapa) rules, docs/rules/oware.md O1–O8. Pure rules: no I/O, no search.
//!
//! Two representations:
//! - [`View`]: the board seen by the player to move (his row `0..6`, then the opponent's
//!   `6..12`, both in sowing order). Databases and search work on views only, because the
//!   game is symmetric and a view is all the future depends on (stores do not matter).
//! - [`Position`]: the absolute board (`South 0..5, North 0..5`), stores and side to move,
//!   for play and replay.

use crate::side::Side;
use serde::{Deserialize, Serialize};
use std::fmt;

pub const PITS: usize = 12;
pub const ROW: usize = 6;
pub const TOTAL_SEEDS: u32 = 48;
/// O7: a player who has captured this many has won.
pub const WINNING_STORE: u32 = 25;

/// Board from the mover's view: `[0..6]` his row, `[6..12]` the opponent's.
pub type View = [u8; PITS];

/// O4: what happens to a move whose captures would take every seed of the opponent's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum GrandSlam {
    /// Legal, captures nothing (default; Abapa as in the Italian description).
    #[default]
    NoCapture,
    /// Illegal unless every legal move is one; then it captures nothing.
    Forbidden,
    /// Romein & Bal's Olympiad rules: illegal unless forced; when forced it captures and the
    /// mover also takes the seeds left on his own row.
    Awari,
}

/// O8 / common rule: what a repeated position does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Cycle {
    /// The game ends, the seeds left are divided evenly (net 0). Default; databases need it.
    #[default]
    Split,
    /// The game ends, each player takes the seeds on his own row (Abapa practice, OpenSpiel).
    OwnRows,
}

/// Every Oware rule variant in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Rules {
    pub grand_slam: GrandSlam,
    pub cycle: Cycle,
}

impl GrandSlam {
    pub const ALL: [GrandSlam; 3] = [GrandSlam::NoCapture, GrandSlam::Forbidden, GrandSlam::Awari];

    pub fn name(self) -> &'static str {
        match self {
            GrandSlam::NoCapture => "no-capture",
            GrandSlam::Forbidden => "forbidden",
            GrandSlam::Awari => "awari",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            GrandSlam::NoCapture => "Legal, captures nothing (default; Abapa as in the Italian description)",
            GrandSlam::Forbidden => "Illegal unless every legal move is one; then it captures nothing",
            GrandSlam::Awari => "Romein & Bal's Olympiad rules: illegal unless forced; when forced it captures and the mover also takes the seeds left on his own row",
        }
    }
}

impl Cycle {
    pub const ALL: [Cycle; 2] = [Cycle::Split, Cycle::OwnRows];

    pub fn name(self) -> &'static str {
        match self {
            Cycle::Split => "split",
            Cycle::OwnRows => "own-rows",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Cycle::Split => "The game ends, the seeds left are divided evenly (net 0). Default; databases need it",
            Cycle::OwnRows => "The game ends, each player takes the seeds on his own row (Abapa practice, OpenSpiel)",
        }
    }
}

impl std::str::FromStr for GrandSlam {
    type Err = String;
    /// The names of [`GrandSlam::name`].
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| format!("`{s}`; expected no-capture, forbidden or awari"))
    }
}

impl std::str::FromStr for Cycle {
    type Err = String;
    /// The names of [`Cycle::name`].
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL.into_iter().find(|c| c.name() == s).ok_or_else(|| format!("`{s}`; expected split or own-rows"))
    }
}

impl Rules {
    /// A short stable tag for file names: `gs-no-capture` etc. (the cycle rule of a
    /// database is always `split`).
    pub fn db_tag(&self) -> String {
        format!("gs-{}", self.grand_slam.name())
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"game": "oware", "grand_slam": self.grand_slam.name(), "cycle": self.cycle.name()})
    }
}

/// One legal move from a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The mover's own pit index 0..5.
    pub pit: u8,
    /// Seeds the mover captures with this move (O3; O4 awari adds his own row).
    pub captured: u8,
    /// The board after the move, from the **next** mover's view.
    pub child: View,
}

/// A position where the game ends before a move (O5, O6), seen by the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// O6: the mover has no seeds; the opponent takes every seed left.
    MoverEmpty,
    /// O5: the opponent is empty and no move feeds him; the mover takes every seed left.
    CannotFeed,
}

impl Ending {
    /// Net seeds the mover gets from the ones on the board, out of `n`.
    pub fn mover_net(self, n: i32) -> i32 {
        match self {
            Ending::MoverEmpty => -n,
            Ending::CannotFeed => n,
        }
    }
}

/// The legal moves of a view, or the ending that applies instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Ended(Ending),
    Moves(MoveList),
}

/// At most six moves: a fixed array avoids allocation in hot loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveList {
    len: u8,
    moves: [Move; ROW],
}

impl MoveList {
    const EMPTY: Move = Move { pit: 0, captured: 0, child: [0; PITS] };
    fn new() -> Self {
        MoveList { len: 0, moves: [Self::EMPTY; ROW] }
    }
    fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = m;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

/// Result of sowing pit `pit` of a view (before any grand-slam filtering).
#[derive(Clone, Copy, Debug)]
pub struct Sowing {
    /// Board after sowing and capturing, still from the mover's view.
    pub board: View,
    /// Board after sowing, before capturing.
    pub sown: View,
    pub captured: u8,
    /// The captures would take every seed of the opponent's row.
    pub grand_slam: bool,
    /// The sowing put at least one seed into the opponent's row.
    pub feeds: bool,
}

/// O2–O3: lift pit `pit` (0..5, non-empty) and sow counterclockwise, skipping the origin
/// on every lap; capture backwards from the last pit while it is an opponent pit holding 2 or 3.
#[inline]
pub fn sow(v: &View, pit: usize) -> Sowing {
    debug_assert!(pit < ROW && v[pit] > 0);
    let mut b = *v;
    let seeds = b[pit] as usize;
    b[pit] = 0;
    // Each full lap drops one seed in each of the 11 other pits.
    let laps = seeds / 11;
    let rest = seeds % 11;
    if laps > 0 {
        for (k, x) in b.iter_mut().enumerate() {
            if k != pit {
                *x += laps as u8;
            }
        }
    }
    let mut last = pit;
    for _ in 0..rest {
        last = (last + 1) % PITS;
        if last == pit {
            last = (last + 1) % PITS;
        }
        b[last] += 1;
    }
    if rest == 0 {
        // The last seed of the last full lap fell in the pit just before the origin.
        last = (pit + PITS - 1) % PITS;
    }
    let feeds = pit + seeds >= ROW;
    let sown = b;
    let mut captured = 0u8;
    let mut k = last;
    while k >= ROW && (b[k] == 2 || b[k] == 3) {
        captured += b[k];
        b[k] = 0;
        k -= 1;
    }
    let grand_slam = captured > 0 && b[ROW..].iter().all(|&x| x == 0);
    Sowing { board: b, sown, captured, grand_slam, feeds }
}

/// Turn a mover's view into the opponent's view of the same board.
#[inline(always)]
pub fn flip(v: &View) -> View {
    let mut o = [0u8; PITS];
    o[..ROW].copy_from_slice(&v[ROW..]);
    o[ROW..].copy_from_slice(&v[..ROW]);
    o
}

pub fn seeds(v: &View) -> u32 {
    v.iter().map(|&x| x as u32).sum()
}

impl Rules {
    /// O4–O6: the legal moves of `v`, each with its captures and the child view, or the ending.
    pub fn node(&self, v: &View) -> Node {
        let own: u32 = v[..ROW].iter().map(|&x| x as u32).sum();
        if own == 0 {
            return Node::Ended(Ending::MoverEmpty);
        }
        let opp_empty = v[ROW..].iter().all(|&x| x == 0);
        let mut sowings: [Option<Sowing>; ROW] = [None; ROW];
        let mut any = false;
        let mut all_slams = true;
        for (pit, slot) in sowings.iter_mut().enumerate() {
            if v[pit] == 0 {
                continue;
            }
            let s = sow(v, pit);
            // O5: when the opponent has no seeds only feeding moves are candidates.
            if opp_empty && !s.feeds {
                continue;
            }
            any = true;
            all_slams &= s.grand_slam;
            *slot = Some(s);
        }
        if !any {
            return Node::Ended(Ending::CannotFeed);
        }
        let mut list = MoveList::new();
        for (pit, s) in sowings.iter().enumerate() {
            let Some(s) = s else { continue };
            let (board, captured) = if !s.grand_slam {
                (s.board, s.captured)
            } else {
                match self.grand_slam {
                    GrandSlam::NoCapture => (s.sown, 0),
                    GrandSlam::Forbidden if !all_slams => continue,
                    GrandSlam::Forbidden => (s.sown, 0),
                    GrandSlam::Awari if !all_slams => continue,
                    GrandSlam::Awari => {
                        // Forced grand slam: capture, then also take the own row.
                        let own_rest: u8 = s.board[..ROW].iter().sum();
                        (s.board.map(|_| 0), s.captured + own_rest)
                    }
                }
            };
            list.push(Move { pit: pit as u8, captured, child: flip(&board) });
        }
        Node::Moves(list)
    }

    /// The non-capturing moves that lead to `v` (seen by its mover) from a position with the
    /// same seeds: each predecessor view (previous mover's row first), once per move.
    ///
    /// Candidates come from un-sowing: the previous mover lifted some pit `i` (empty now) and
    /// its `s` seeds fell one by one in the pits after it, skipping `i`; taking them back in
    /// order rebuilds the position before, and sowing `i` from it gives `v` by construction.
    /// What remains is whether that move was legal and captured nothing; grand slams under
    /// the `forbidden`/`awari` variants depend on the other moves and go through [`Rules::node`].
    pub fn unmoves(&self, v: &View, mut push: impl FnMut(View)) {
        let prev = flip(v);
        let n = seeds(&prev) as usize;
        for pit in 0..ROW {
            if prev[pit] != 0 {
                continue; // the origin is always empty after a move
            }
            let mut b = prev;
            let mut pos = pit;
            for s in 1..=n {
                pos += 1;
                if pos == PITS {
                    pos = 0;
                }
                if pos == pit {
                    pos += 1;
                }
                if b[pos] == 0 {
                    break; // this and every longer sowing would need a seed that is not there
                }
                b[pos] -= 1;
                // `b` + `s` seeds in `pit` is the position before; the last seed fell in `pos`.
                if self.is_quiet_move(&b, &prev, pit, s, pos) {
                    let mut cand = b;
                    cand[pit] = s as u8;
                    push(cand);
                }
            }
        }
    }

    /// Whether sowing the `s` seeds of `pit` from `before` (`before[pit]` not yet set) is a
    /// legal move that captures nothing. `after` is the board it gives (the previous mover's
    /// view) and `last` the pit of its last seed, so nothing needs to be sown again.
    #[inline]
    fn is_quiet_move(&self, before: &View, after: &View, pit: usize, s: usize, last: usize) -> bool {
        let opp_empty = before[ROW..].iter().all(|&x| x == 0);
        if opp_empty && pit + s < ROW {
            return false; // O5: only feeding moves are legal
        }
        if last < ROW || !(after[last] == 2 || after[last] == 3) {
            return true; // no capture
        }
        // It captures, unless it is a grand slam under a rule that cancels the capture.
        let mut k = last;
        while k >= ROW && (after[k] == 2 || after[k] == 3) {
            k -= 1;
        }
        // The chain took pits k+1..=last; a grand slam leaves nothing else in that row.
        let before_chain: &[u8] = if k >= ROW { &after[ROW..=k] } else { &[] };
        let grand_slam = before_chain.iter().all(|&x| x == 0) && after[last + 1..].iter().all(|&x| x == 0);
        if !grand_slam {
            return false;
        }
        match self.grand_slam {
            GrandSlam::NoCapture => true,
            // Legal (and capture-free) only when every candidate move is a grand slam.
            GrandSlam::Forbidden => {
                let mut cand = *before;
                cand[pit] = s as u8;
                match self.node(&cand) {
                    Node::Moves(ms) => ms.iter().any(|m| m.pit as usize == pit && m.captured == 0),
                    Node::Ended(_) => false,
                }
            }
            GrandSlam::Awari => false, // when legal it captures
        }
    }
}

/// The absolute board, stores and side to move: what play and replay work on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// South 0..5 then North 0..5 (sowing order).
    pub pits: [u8; PITS],
    /// Seeds captured: `[south, north]`.
    pub stores: [u8; 2],
    pub to_move: Side,
}

impl Default for Position {
    fn default() -> Self {
        Position { pits: [4; PITS], stores: [0, 0], to_move: Side::South }
    }
}

impl Position {
    pub fn view(&self) -> View {
        match self.to_move {
            Side::South => self.pits,
            Side::North => flip(&self.pits),
        }
    }

    /// Build from a mover's view (mover's row first) for the given side to move.
    pub fn from_view(v: &View, to_move: Side, stores: [u8; 2]) -> Self {
        let pits = match to_move {
            Side::South => *v,
            Side::North => flip(v),
        };
        Position { pits, stores, to_move }
    }

    pub fn board_seeds(&self) -> u32 {
        seeds(&self.pits)
    }
}

/// How a game ended, with final totals (halves allowed, hence `f64`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult {
    /// `[south, north]` final totals.
    pub score: [f64; 2],
    pub reason: EndReason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// O5 / O6 sweep.
    Sweep(Ending),
    /// O7: someone reached 25, or both 24; the board is left unallocated.
    Majority,
    /// A repeated position under the cycle rule in force.
    Repetition(Cycle),
}

impl GameResult {
    pub fn winner(&self) -> Option<Side> {
        Side::ahead(self.score)
    }
}

/// Errors of checked play.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlayError {
    #[error("move {pit} is not legal (legal: {legal:?})")]
    Illegal { pit: u8, legal: Vec<u8> },
    #[error("the game has ended")]
    Ended,
}

/// A game in progress: the position plus what the repetition rules need (positions seen since
/// the last capture; earlier ones cannot recur since seeds never return to the board).
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Rules,
    pub position: Position,
    seen: Vec<(View, Side)>,
    pub result: Option<GameResult>,
}

impl Game {
    pub fn new(rules: Rules, position: Position) -> Self {
        let mut g = Game { rules, position, seen: vec![(position.view(), position.to_move)], result: None };
        g.result = g.ending_now();
        g
    }

    /// Legal own indices, empty when the game has ended.
    pub fn legal(&self) -> Vec<u8> {
        if self.result.is_some() {
            return vec![];
        }
        match self.rules.node(&self.position.view()) {
            Node::Moves(ms) => ms.iter().map(|m| m.pit).collect(),
            Node::Ended(_) => vec![],
        }
    }

    /// O5–O7 at the current position (repetition is checked when a move is played).
    fn ending_now(&self) -> Option<GameResult> {
        let p = &self.position;
        let st = [p.stores[0] as f64, p.stores[1] as f64];
        if p.stores[0] as u32 >= WINNING_STORE
            || p.stores[1] as u32 >= WINNING_STORE
            || (p.stores[0] == 24 && p.stores[1] == 24)
        {
            return Some(GameResult { score: st, reason: EndReason::Majority });
        }
        match self.rules.node(&p.view()) {
            Node::Moves(_) => None,
            Node::Ended(e) => {
                let n = p.board_seeds() as f64;
                let mover_takes = matches!(e, Ending::CannotFeed);
                let mut score = st;
                let taker = if mover_takes { p.to_move } else { p.to_move.other() };
                score[taker.index()] += n;
                Some(GameResult { score, reason: EndReason::Sweep(e) })
            }
        }
    }

    /// Checked play of the mover's own pit index.
    pub fn play(&mut self, pit: u8) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::Ended);
        }
        let Node::Moves(ms) = self.rules.node(&self.position.view()) else {
            return Err(PlayError::Ended);
        };
        let Some(m) = ms.iter().find(|m| m.pit == pit) else {
            return Err(PlayError::Illegal { pit, legal: ms.iter().map(|m| m.pit).collect() });
        };
        let mover = self.position.to_move;
        let mut stores = self.position.stores;
        stores[mover.index()] += m.captured;
        let next = mover.other();
        self.position = Position::from_view(&m.child, next, stores);
        if m.captured > 0 {
            self.seen.clear();
        }
        let key = (m.child, next);
        if self.seen.contains(&key) {
            let p = &self.position;
            let mut score = [p.stores[0] as f64, p.stores[1] as f64];
            match self.rules.cycle {
                Cycle::Split => {
                    let half = p.board_seeds() as f64 / 2.0;
                    score[0] += half;
                    score[1] += half;
                }
                Cycle::OwnRows => {
                    score[0] += p.pits[..ROW].iter().map(|&x| x as f64).sum::<f64>();
                    score[1] += p.pits[ROW..].iter().map(|&x| x as f64).sum::<f64>();
                }
            }
            self.result = Some(GameResult { score, reason: EndReason::Repetition(self.rules.cycle) });
        } else {
            self.seen.push(key);
            self.result = self.ending_now();
        }
        Ok(())
    }
}

impl fmt::Display for Position {
    /// A diagram: North's row on top, right to left (as he sees it from across), South below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let north: Vec<String> = self.pits[ROW..].iter().rev().map(|x| format!("{x:>2}")).collect();
        let south: Vec<String> = self.pits[..ROW].iter().map(|x| format!("{x:>2}")).collect();
        writeln!(f, "  North {:>2} | {} |", self.stores[1], north.join(" "))?;
        writeln!(f, "  South {:>2} | {} |", self.stores[0], south.join(" "))?;
        write!(f, "  to move: {}", self.to_move.name())
    }
}
