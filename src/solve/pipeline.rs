//! The one solve pipeline: a database probe at the root (through [`SearchGame::probe`]),
//! alpha-beta with iterative deepening and limits, the component retrograde when alpha-beta
//! alone cannot close the interval, then the answer: value or bounds, best moves, every move's
//! interval and a perfect-play line. A game supplies its legal moves in order and its
//! repetition key ([`Solvable`]); what differs between games is data ([`Plan`]).

use crate::search::component::{ComponentSolver, TooBig};
use crate::search::{settled, Bounds, Limits, Observer, Phase, Report, SearchGame, Searcher};
use std::time::Instant;

/// What the pipeline needs beyond the search: moves in their written order and repetitions.
pub trait Solvable: SearchGame<Move: Ord> {
    /// What makes two positions of a line the same for the repetition rule.
    type RepetitionKey: PartialEq;

    /// Every legal move of `pos` in ascending move order as `(move, captured, child)`; empty
    /// when the game has ended there.
    fn legal(&self, pos: &Self::Pos) -> Vec<(Self::Move, i32, Self::Pos)>;
    fn repetition_key(&self, pos: &Self::Pos) -> Self::RepetitionKey;
}

/// A game's budgets and answer conventions.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Transposition table size (2^bits entries).
    pub table_bits: u32,
    /// Alpha-beta nodes tried (exact mode) before the component retrograde.
    pub search_budget: u64,
    /// Largest component the exact mode builds.
    pub max_component: usize,
    /// When the component is too big: search again without limits (else answer the bounds).
    pub search_on_after_too_big: bool,
    /// A covered root solved through its component still reports [`Method::Db`].
    pub covered_stays_db: bool,
    /// Sort the moves ascending (else keep the search's order).
    pub sort_moves: bool,
    /// The most promising move of an inexact answer also compares upper bounds (after lower
    /// bounds, before the move).
    pub promising_by_upper: bool,
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

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Db => "db",
            Method::Search => "search",
            Method::Component => "component",
        }
    }
}

/// The answer of `solve`; `S` is what the game adds (Kiothi: its expansion counts).
#[derive(Clone, Debug)]
pub struct Solution<M, S = ()> {
    pub bounds: Bounds,
    /// Every best move. When not exact: the moves that may be best.
    pub best_moves: Vec<M>,
    /// Perfect play until the game ends (the lowest best move each ply; a repeated position
    /// ends it). When not exact: only the most promising first move.
    pub pv: Vec<M>,
    pub method: Method,
    /// Alpha-beta nodes plus positions expanded by the component retrograde.
    pub nodes: u64,
    /// Deepest iteration of the root search completed.
    pub depth: u32,
    pub seconds: f64,
    /// Every legal move with its interval (exact when the root is).
    pub moves: Vec<(M, Bounds)>,
    pub game_stats: S,
}

impl<M> Solution<M> {
    /// The same answer carrying the game's own counts.
    pub fn with_game_stats<S>(self, game_stats: S) -> Solution<M, S> {
        let Solution { bounds, best_moves, pv, method, nodes, depth, seconds, moves, game_stats: () } = self;
        Solution { bounds, best_moves, pv, method, nodes, depth, seconds, moves, game_stats }
    }
}

/// Solve `root`. With a depth, time or node limit only alpha-beta runs and the answer may be
/// bounds; without limits alpha-beta runs with a budget, then the component retrograde (and,
/// per the plan, alpha-beta without limit when the component is too big).
/// `observer`, when given, sees the search's progress (a terminal's progress line).
pub fn solve<'g, G: Solvable>(
    game: &'g G,
    root: &G::Pos,
    limits: Limits,
    plan: &Plan,
    observer: Option<Observer<'g>>,
) -> Solution<G::Move> {
    let start = Instant::now();
    let mut s = Searcher::new(game, plan.table_bits);
    s.observe(observer);
    let limited = limits.depth.is_some() || limits.seconds.is_some() || limits.nodes.is_some();
    let covered = game.probe(root).is_some();
    let first = if limited || covered { limits } else { Limits { nodes: Some(plan.search_budget), ..limits } };
    let mut a = s.analyse(root, first);
    let mut method = if covered { Method::Db } else { Method::Search };
    let mut moves: Vec<(G::Move, Bounds)> = a.moves.iter().map(|m| (m.mv, m.bounds)).collect();
    let mut bounds = a.bounds;
    let mut comp = ComponentSolver::new(game, plan.max_component);
    if !limited && !settled(&a.moves) {
        if let Some(f) = observer {
            let seconds = start.elapsed().as_secs_f64();
            f(&Report { phase: Phase::Component, bounds: a.bounds, depth: a.depth, nodes: s.nodes, seconds });
        }
        match exact_moves(game, &mut comp, root) {
            Ok(exact) => {
                method = if covered && plan.covered_stays_db { Method::Db } else { Method::Component };
                bounds = Bounds::exact(comp.value(root).expect("solved with its moves"));
                moves = exact;
            }
            Err(TooBig { .. }) if plan.search_on_after_too_big => {
                a = s.analyse(root, Limits::default());
                moves = a.moves.iter().map(|m| (m.mv, m.bounds)).collect();
                bounds = a.bounds;
            }
            Err(TooBig { .. }) => {}
        }
    }
    if plan.sort_moves {
        moves.sort_by_key(|(m, _)| *m);
    }
    let best_moves: Vec<G::Move> = if bounds.is_exact() {
        moves.iter().filter(|(_, b)| b.is_exact() && b.lo == bounds.lo).map(|&(m, _)| m).collect()
    } else {
        moves.iter().filter(|(_, b)| b.hi >= bounds.lo).map(|&(m, _)| m).collect()
    };
    let pv = if bounds.is_exact() && method == Method::Component {
        principal_variation(game, &mut comp, root)
            .unwrap_or_else(|_| proven_line(game, &mut s, root, bounds.lo, plan.search_budget))
    } else if bounds.is_exact() {
        proven_line(game, &mut s, root, bounds.lo, plan.search_budget)
    } else {
        let hi = |b: &Bounds| if plan.promising_by_upper { b.hi } else { 0 };
        moves
            .iter()
            .max_by_key(|(m, b)| (b.lo, hi(b), std::cmp::Reverse(*m)))
            .map(|&(m, _)| vec![m])
            .unwrap_or_default()
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
        game_stats: (),
    }
}

/// Exact value of every move of `pos` by the component retrograde (empty when it has ended).
fn exact_moves<G: Solvable>(
    game: &G,
    comp: &mut ComponentSolver<'_, G>,
    pos: &G::Pos,
) -> Result<Vec<(G::Move, Bounds)>, TooBig> {
    game.legal(pos).iter().map(|(mv, gain, child)| Ok((*mv, Bounds::exact(gain - comp.value(child)?)))).collect()
}

/// Play from `root` the move `choose` picks at each ply until the game ends: an ending, a
/// repeated position (the split rule ends the game there), or no move chosen.
fn walk_line<G: Solvable, E>(
    game: &G,
    root: &G::Pos,
    mut choose: impl FnMut(&G::Pos, &[(G::Move, i32, G::Pos)]) -> Result<Option<(G::Move, i32, G::Pos)>, E>,
) -> Result<Vec<G::Move>, E> {
    let mut pv = Vec::new();
    let mut pos = *root;
    let mut seen = vec![game.repetition_key(&pos)];
    loop {
        let ms = game.legal(&pos);
        if ms.is_empty() {
            break;
        }
        let Some((mv, captured, child)) = choose(&pos, &ms)? else { break };
        pv.push(mv);
        if captured > 0 {
            seen.clear(); // pieces never return to the board: nothing before a capture can repeat
        }
        pos = child;
        let k = game.repetition_key(&pos);
        if seen.contains(&k) {
            break;
        }
        seen.push(k);
    }
    Ok(pv)
}

/// A perfect-play line from `root` (exact value `value`) by alpha-beta alone: each ply plays
/// the lowest move proven to reach the value (lower bound = value), with a node budget per
/// ply; the line stops early only if no move is proven within the budget.
fn proven_line<G: Solvable>(game: &G, s: &mut Searcher<'_, G>, root: &G::Pos, value: i32, budget: u64) -> Vec<G::Move> {
    let mut target = value;
    let line = walk_line(game, root, |pos, ms| {
        let a = s.analyse(pos, Limits { nodes: Some(budget), ..Limits::default() });
        let Some(mv) = a.moves.iter().filter(|m| m.bounds.lo == target).map(|m| m.mv).min() else { return Ok(None) };
        let c = *ms.iter().find(|c| c.0 == mv).expect("a legal move");
        target = c.1 - target; // the child's value, for its mover
        Ok::<_, std::convert::Infallible>(Some(c))
    });
    match line {
        Ok(pv) => pv,
        Err(never) => match never {},
    }
}

/// Follow the lowest best move from `root` with exact values from the component solver.
fn principal_variation<G: Solvable>(
    game: &G,
    comp: &mut ComponentSolver<'_, G>,
    root: &G::Pos,
) -> Result<Vec<G::Move>, TooBig> {
    walk_line(game, root, |pos, ms| {
        let target = comp.value(pos)?;
        for c in ms {
            if c.1 - comp.value(&c.2)? == target {
                return Ok(Some(*c));
            }
        }
        unreachable!("some move reaches the value")
    })
}
