//! Solving Oware positions: database lookups where the seeds on the board are covered,
//! alpha-beta search probing the database at captures into it elsewhere.

use crate::games::oware::{self, Node, Rules, View, PITS};
use crate::index::Compositions;
use crate::retro::oware::{Database, MAX_STONES};
use crate::search::{Analysis, Bounds, Child, Limits, SearchGame, Searcher};
use std::time::Instant;

/// Oware as a search game, with an optional database.
pub struct OwareSearch<'d> {
    pub rules: Rules,
    pub db: Option<&'d Database>,
    index: Compositions,
}

impl<'d> OwareSearch<'d> {
    pub fn new(rules: Rules, db: Option<&'d Database>) -> Self {
        OwareSearch { rules, db, index: Compositions::new(PITS, MAX_STONES) }
    }
}

impl SearchGame for OwareSearch<'_> {
    type Pos = View;
    type Move = u8;

    fn key(&self, pos: &View) -> u64 {
        (self.index.rank(pos) << 6) | oware::seeds(pos) as u64
    }
    fn bound(&self, pos: &View) -> i32 {
        oware::seeds(pos) as i32
    }
    fn probe(&self, pos: &View) -> Option<i32> {
        self.db.and_then(|d| d.probe(pos)).map(i32::from)
    }
    fn expand(&self, pos: &View, out: &mut Vec<Child<View, u8>>) -> Option<i32> {
        out.clear();
        match self.rules.node(pos) {
            Node::Ended(e) => Some(e.mover_net(oware::seeds(pos) as i32)),
            Node::Moves(ms) => {
                out.extend(ms.iter().map(|m| Child { mv: m.pit, gain: m.captured as i32, child: m.child }));
                None
            }
        }
    }
    fn move_code(&self, mv: &u8) -> u8 {
        *mv
    }
}

/// How a value was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Db,
    Search,
}

/// The answer of `oware solve`.
#[derive(Clone, Debug)]
pub struct Solution {
    pub bounds: Bounds,
    /// Every best move (own indices), ascending. When not exact: the moves that may be best.
    pub best_moves: Vec<u8>,
    /// Perfect play from the position to the end of the game (lowest best move each ply);
    /// when not exact, only the most promising first move.
    pub pv: Vec<u8>,
    pub method: Method,
    pub nodes: u64,
    pub depth: u32,
    pub seconds: f64,
    pub moves: Vec<(u8, Bounds)>,
}

/// Solve a mover's view.
pub fn solve(rules: Rules, db: Option<&Database>, root: &View, limits: Limits) -> Solution {
    let start = Instant::now();
    let game = OwareSearch::new(rules, db);
    let mut s = Searcher::new(&game, 22);
    let a: Analysis<u8> = s.analyse(root, limits);
    let method = if game.probe(root).is_some() { Method::Db } else { Method::Search };
    let mut best_moves = a.best_moves();
    best_moves.sort_unstable();
    let pv = if a.bounds.is_exact() {
        principal_variation(&mut s, root, limits)
    } else {
        a.moves.iter().max_by_key(|m| (m.bounds.lo, std::cmp::Reverse(m.mv))).map(|m| vec![m.mv]).unwrap_or_default()
    };
    Solution {
        bounds: a.bounds,
        best_moves,
        pv,
        method,
        nodes: s.nodes,
        depth: a.depth,
        seconds: start.elapsed().as_secs_f64(),
        moves: a.moves.iter().map(|m| (m.mv, m.bounds)).collect(),
    }
}

/// Follow the lowest best move from `root` until the game ends: an ending, or a repeated
/// position (the split rule ends the game there).
fn principal_variation(s: &mut Searcher<'_, OwareSearch<'_>>, root: &View, limits: Limits) -> Vec<u8> {
    let game = s.game;
    let mut pv = Vec::new();
    let mut pos = *root;
    let mut seen: Vec<View> = vec![pos];
    loop {
        let a = s.analyse(&pos, limits);
        if !a.bounds.is_exact() || a.moves.is_empty() {
            break;
        }
        let Some(mv) = a.moves.iter().filter(|m| m.bounds.is_exact() && m.bounds.lo == a.bounds.lo).map(|m| m.mv).min() else {
            break;
        };
        pv.push(mv);
        let Node::Moves(ms) = game.rules.node(&pos) else { break };
        let m = ms.iter().find(|m| m.pit == mv).copied().unwrap();
        if m.captured > 0 {
            seen.clear();
        }
        pos = m.child;
        if seen.contains(&pos) {
            break;
        }
        seen.push(pos);
    }
    pv
}
