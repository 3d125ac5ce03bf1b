//! Solving Oware positions: database lookups where the seeds on the board are covered,
//! alpha-beta search probing the database at captures into it elsewhere, and, when the
//! search alone cannot close the interval (draws by endless play), an exact retrograde of
//! the position's component (`search::component`).

use crate::games::oware::{self, Node, Rules, View, PITS};
use crate::index::Compositions;
use crate::retro::oware::{Database, MAX_STONES};
use crate::search::component::{ComponentSolver, TooBig};
use crate::search::{settled, Bounds, Child, Limits, MoveBounds, SearchGame, Searcher};
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
    /// Read off the database.
    Db,
    /// Alpha-beta search (probing the database).
    Search,
    /// Alpha-beta could not close the interval; the component retrograde did.
    Component,
}

/// The answer of `oware solve`.
#[derive(Clone, Debug)]
pub struct Solution {
    pub bounds: Bounds,
    /// Every best move (own indices), ascending. When not exact: the moves that may be best.
    pub best_moves: Vec<u8>,
    /// Perfect play to the end of the game (lowest best move each ply; a repeated position
    /// ends it). When not exact: only the most promising first move.
    pub pv: Vec<u8>,
    pub method: Method,
    /// Alpha-beta nodes plus positions expanded by the component retrograde.
    pub nodes: u64,
    /// Deepest alpha-beta iteration completed.
    pub depth: u32,
    pub seconds: f64,
    /// Every move with its interval (exact when the root is).
    pub moves: Vec<(u8, Bounds)>,
}

/// Alpha-beta nodes tried before falling back to the component retrograde (exact mode).
pub const SEARCH_BUDGET: u64 = 2_000_000;
/// Largest component the exact mode builds.
/// (About 100 bytes per position: 10 M positions is about 1 GB.)
pub const MAX_COMPONENT: usize = 10_000_000;

/// Solve a mover's view. With a depth or time limit only alpha-beta runs and the answer may
/// be bounds; without limits the answer is exact (unless the component is too big).
pub fn solve(rules: Rules, db: Option<&Database>, root: &View, limits: Limits) -> Solution {
    let start = Instant::now();
    let game = OwareSearch::new(rules, db);
    let mut s = Searcher::new(&game, 22);
    let limited = limits.depth.is_some() || limits.seconds.is_some() || limits.nodes.is_some();
    let covered = game.probe(root).is_some();
    let a = s.analyse(root, if limited || covered { limits } else { Limits { nodes: Some(SEARCH_BUDGET), ..limits } });
    let mut method = if covered { Method::Db } else { Method::Search };
    let mut bounds = a.bounds;
    let mut moves: Vec<(u8, Bounds)> = a.moves.iter().map(|m| (m.mv, m.bounds)).collect();
    let mut comp = ComponentSolver::new(&game, MAX_COMPONENT);
    let done =
        |m: &[(u8, Bounds)]| settled(&m.iter().map(|&(mv, bounds)| MoveBounds { mv, bounds }).collect::<Vec<_>>());
    if !limited && !done(&moves) {
        if let Ok(exact) = exact_moves(&mut comp, root) {
            method = if covered { Method::Db } else { Method::Component };
            bounds = Bounds::exact(comp.value(root).expect("solved with its moves"));
            moves = exact;
        }
    }
    let best_moves: Vec<u8> = if bounds.is_exact() {
        moves.iter().filter(|(_, b)| b.is_exact() && b.lo == bounds.lo).map(|&(m, _)| m).collect()
    } else {
        moves.iter().filter(|(_, b)| b.hi >= bounds.lo).map(|&(m, _)| m).collect()
    };
    let pv = if bounds.is_exact() && method == Method::Component {
        principal_variation(&mut comp, root).unwrap_or_else(|_| proven_line(&mut s, root, bounds.lo))
    } else if bounds.is_exact() {
        proven_line(&mut s, root, bounds.lo)
    } else {
        moves.iter().max_by_key(|(m, b)| (b.lo, std::cmp::Reverse(*m))).map(|&(m, _)| vec![m]).unwrap_or_default()
    };
    Solution {
        bounds,
        best_moves,
        pv,
        method,
        nodes: s.nodes + comp.nodes,
        depth: a.depth,
        seconds: start.elapsed().as_secs_f64(),
        moves,
    }
}

/// Exact value of every move of `pos` (empty when it has ended).
fn exact_moves(comp: &mut ComponentSolver<'_, OwareSearch<'_>>, pos: &View) -> Result<Vec<(u8, Bounds)>, TooBig> {
    let Node::Moves(ms) = comp.game.rules.node(pos) else { return Ok(vec![]) };
    ms.iter().map(|m| Ok((m.pit, Bounds::exact(m.captured as i32 - comp.value(&m.child)?)))).collect()
}

/// Play from `root` the move `choose` picks at each ply until the game ends: an ending, a
/// repeated position (the split rule ends the game there), or no move chosen.
fn walk_line<E>(
    rules: &Rules,
    root: &View,
    mut choose: impl FnMut(&View, &[oware::Move]) -> Result<Option<oware::Move>, E>,
) -> Result<Vec<u8>, E> {
    let mut pv = Vec::new();
    let mut pos = *root;
    let mut seen: Vec<View> = vec![pos];
    while let Node::Moves(ms) = rules.node(&pos) {
        let Some(m) = choose(&pos, ms.as_slice())? else { break };
        pv.push(m.pit);
        if m.captured > 0 {
            seen.clear(); // nothing before a capture can repeat
        }
        pos = m.child;
        if seen.contains(&pos) {
            break;
        }
        seen.push(pos);
    }
    Ok(pv)
}

/// A perfect-play line from `root`, whose exact value is `value`, by alpha-beta alone: each
/// ply plays the lowest move proven to reach the value (lower bound = value), with a node
/// budget per ply; the line stops early only if no move is proven within the budget.
fn proven_line(s: &mut Searcher<'_, OwareSearch<'_>>, root: &View, value: i32) -> Vec<u8> {
    let rules = s.game.rules;
    let mut target = value;
    let line = walk_line(&rules, root, |pos, ms| {
        let a = s.analyse(pos, Limits { nodes: Some(SEARCH_BUDGET), ..Limits::default() });
        let Some(mv) = a.moves.iter().filter(|m| m.bounds.lo == target).map(|m| m.mv).min() else { return Ok(None) };
        let m = *ms.iter().find(|m| m.pit == mv).unwrap();
        target = m.captured as i32 - target; // the child's value, for its mover
        Ok::<_, std::convert::Infallible>(Some(m))
    });
    match line {
        Ok(pv) => pv,
        Err(never) => match never {},
    }
}

/// Follow the lowest best move from `root` with exact values from the component solver.
fn principal_variation(comp: &mut ComponentSolver<'_, OwareSearch<'_>>, root: &View) -> Result<Vec<u8>, TooBig> {
    let rules = comp.game.rules;
    walk_line(&rules, root, |pos, ms| {
        let target = comp.value(pos)?;
        for m in ms {
            if m.captured as i32 - comp.value(&m.child)? == target {
                return Ok(Some(*m));
            }
        }
        unreachable!("some move reaches the value")
    })
}
