//! Alpha-beta search (negamax, transposition table, iterative deepening, move ordering) over
//! any game that implements [`SearchGame`]. Knows nothing of files: databases come in through
//! [`SearchGame::probe`].
//!
//! Contract (PascalPons/connect4 style, but with both bounds): `search(pos, depth, α, β)`
//! returns an interval `[lo, hi]` that contains the true value of `pos` (given the history on
//! the path), whatever the window; it is exact (`lo == hi`) when the depth sufficed and no
//! cut-off was needed. `lo >= β` means a fail-high, `hi <= α` a fail-low. Because intervals are
//! always sound, the transposition table can keep them across iterations and depths.
//!
//! Repetition: a position repeated on the current path ends the game with the remaining pieces
//! split (net 0). Such a result depends on the path, so it is never stored in the table: the
//! table only holds facts about positions.
pub mod component;
pub mod horizon;
pub mod tt;

use std::time::Instant;
use tt::Table;

/// A move out of a position, as the search sees it.
#[derive(Clone, Copy, Debug)]
pub struct Child<P, M> {
    pub mv: M,
    /// Pieces the mover captures with the move.
    pub gain: i32,
    pub child: P,
}

/// What the search needs from a game. Values are net pieces of those on the board, for the mover.
pub trait SearchGame {
    type Pos: Copy;
    type Move: Copy + PartialEq + std::fmt::Debug;

    /// A key unique to the position (side to move included through the mover's view).
    fn key(&self, pos: &Self::Pos) -> u64;
    /// `|value| <= bound`: the pieces on the board.
    fn bound(&self, pos: &Self::Pos) -> i32;
    /// The exact value from an endgame table, when the position is covered.
    fn probe(&self, pos: &Self::Pos) -> Option<i32>;
    /// The value of an ended position, or its moves into `out`.
    fn expand(&self, pos: &Self::Pos, out: &mut Vec<Child<Self::Pos, Self::Move>>) -> Option<i32>;
    /// A compact code of a move for the table's best-move slot (0..255).
    fn move_code(&self, mv: &Self::Move) -> u8;
    /// The search's deadline (`None`: none), for a game whose move generation can itself run
    /// long: past it, [`SearchGame::expand`] may stop early and say so by
    /// [`SearchGame::stopped`]. Games whose moves are quick to generate ignore it.
    fn stop_at(&self, _deadline: Option<Instant>) {}
    /// Whether the last [`SearchGame::expand`] stopped at the deadline: its moves are then
    /// incomplete, and the search drops the iteration as when its own clock runs out.
    fn stopped(&self) -> bool {
        false
    }
}

/// An interval containing a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lo: i32,
    pub hi: i32,
}

impl Bounds {
    pub fn exact(v: i32) -> Self {
        Bounds { lo: v, hi: v }
    }
    pub fn is_exact(&self) -> bool {
        self.lo == self.hi
    }
}

/// Where a long solve is, for a caller that shows progress: what it is doing, the root's
/// interval so far, the deepest iteration done, the nodes and the time spent.
#[derive(Clone, Copy, Debug)]
pub struct Report {
    pub phase: Phase,
    pub bounds: Bounds,
    pub depth: u32,
    pub nodes: u64,
    pub seconds: f64,
}

/// The part of a solve a [`Report`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// An iteration of the root search finished (at [`Report::depth`]).
    Depth,
    /// The search is inside an iteration (a report about once a second).
    Searching,
    /// The component retrograde is solving the root's moves exactly.
    Component,
}

/// A caller's progress display: called from the solving thread.
pub type Observer<'a> = &'a dyn Fn(&Report);

/// Limits of a search run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Largest iterative-deepening depth (plies); `None` = until exact.
    pub depth: Option<u32>,
    /// Wall-clock budget in seconds; `None` = none.
    pub seconds: Option<f64>,
    /// Node budget; `None` = none.
    pub nodes: Option<u64>,
}

/// The result for one root move.
#[derive(Clone, Copy, Debug)]
pub struct MoveBounds<M> {
    pub mv: M,
    pub bounds: Bounds,
}

/// What a root analysis found.
#[derive(Clone, Debug)]
pub struct Analysis<M> {
    pub bounds: Bounds,
    /// Every root move with its interval (empty when the root has ended).
    pub moves: Vec<MoveBounds<M>>,
    /// Deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    pub seconds: f64,
}

impl<M: Copy> Analysis<M> {
    /// Moves proven best (exact root): those whose exact value is the root's. Otherwise the
    /// moves whose upper bound reaches the root's lower bound (they may still be best).
    /// Non-best moves may carry only bounds (`hi` below the best): the search proves no more.
    pub fn best_moves(&self) -> Vec<M> {
        self.moves
            .iter()
            .filter(|m| m.bounds.hi >= self.bounds.lo && (!self.bounds.is_exact() || m.bounds.lo == self.bounds.lo))
            .map(|m| m.mv)
            .collect()
    }
}

/// Every root move is exact or proven worse than the best, and the best is exact.
pub fn settled<M>(moves: &[MoveBounds<M>]) -> bool {
    let lo = moves.iter().map(|m| m.bounds.lo).max().unwrap_or(0);
    let hi = moves.iter().map(|m| m.bounds.hi).max().unwrap_or(0);
    lo == hi && moves.iter().all(|m| m.bounds.is_exact() || m.bounds.hi < lo)
}

/// Searcher state: table, node counter, path for repetitions, limits.
pub struct Searcher<'g, G: SearchGame> {
    pub game: &'g G,
    pub table: Table,
    pub nodes: u64,
    /// Keys of the positions on the current path, with `true` where a capture led into it
    /// (nothing before such an entry can repeat).
    path: Vec<(u64, bool)>,
    deadline: Option<Instant>,
    node_budget: Option<u64>,
    aborted: bool,
    observer: Option<Observer<'g>>,
    /// The running analysis: its start, deepest finished iteration, root interval and the
    /// last report's time (for the once-a-second reports).
    progress: (Instant, u32, Bounds, Instant),
}

/// A search that ran out of time before it finished.
struct Aborted;

impl<'g, G: SearchGame> Searcher<'g, G> {
    pub fn new(game: &'g G, table_bits: u32) -> Self {
        Searcher {
            game,
            table: Table::new(table_bits),
            nodes: 0,
            path: Vec::new(),
            deadline: None,
            node_budget: None,
            aborted: false,
            observer: None,
            progress: (Instant::now(), 0, Bounds::exact(0), Instant::now()),
        }
    }

    /// Report progress to `observer`: each finished iteration, and about once a second
    /// inside one.
    pub fn observe(&mut self, observer: Option<Observer<'g>>) {
        self.observer = observer;
    }

    fn report(&mut self, phase: Phase) {
        if let Some(f) = self.observer {
            let (start, depth, bounds, _) = self.progress;
            self.progress.3 = Instant::now();
            f(&Report { phase, bounds, depth, nodes: self.nodes, seconds: start.elapsed().as_secs_f64() });
        }
    }

    /// Iterative deepening at the root until every root move is exact or a limit is hit.
    pub fn analyse(&mut self, root: &G::Pos, limits: Limits) -> Analysis<G::Move> {
        let start = Instant::now();
        self.deadline = limits.seconds.map(|s| start + std::time::Duration::from_secs_f64(s));
        self.aborted = false;
        self.node_budget = limits.nodes.map(|n| self.nodes + n);
        let b = self.game.bound(root);
        let mut children = Vec::new();
        if let Some(v) = self.game.probe(root).or_else(|| self.game.expand(root, &mut children)) {
            // Covered by a table or ended: the moves still get exact values when covered.
            let _ = self.game.expand(root, &mut children);
            let moves = self.exact_children(&children, limits);
            return Analysis {
                bounds: Bounds::exact(v),
                moves,
                depth: 0,
                nodes: self.nodes,
                seconds: start.elapsed().as_secs_f64(),
            };
        }
        // The root's moves are needed for any answer, so only the expansions below it stop at
        // the deadline.
        self.game.stop_at(self.deadline);
        let mut moves: Vec<MoveBounds<G::Move>> = children
            .iter()
            .map(|c| MoveBounds { mv: c.mv, bounds: Bounds { lo: c.gain - b, hi: c.gain + b } })
            .collect();
        self.progress = (start, 0, Bounds { lo: -b, hi: b }, start);
        let mut depth_done = 0;
        let mut depth = 1;
        loop {
            if limits.depth.is_some_and(|d| depth > d) {
                break;
            }
            let mut next = moves.clone();
            let mut ok = true;
            self.path.clear();
            self.path.push((self.game.key(root), true));
            // The most promising move first, so that the others get a narrow window: a move
            // only has to be shown below the best lower bound, or be valued exactly on a tie.
            let mut order: Vec<usize> = (0..next.len()).collect();
            order.sort_by_key(|&i| (-next[i].bounds.lo, -next[i].bounds.hi));
            for i in order {
                let best_lo = next.iter().map(|m| m.bounds.lo).max().unwrap();
                let (m, c) = (&mut next[i], &children[i]);
                if m.bounds.is_exact() || m.bounds.hi < best_lo {
                    continue;
                }
                let (alpha, beta) = (best_lo - 1, b + 1);
                match self.search(&c.child, depth - 1, c.gain - beta, c.gain - alpha, c.gain > 0) {
                    Ok(r) => {
                        // Both intervals are sound: keep their intersection.
                        m.bounds.lo = m.bounds.lo.max(c.gain - r.path.hi);
                        m.bounds.hi = m.bounds.hi.min(c.gain - r.path.lo);
                        debug_assert!(m.bounds.lo <= m.bounds.hi);
                    }
                    Err(Aborted) => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                break;
            }
            moves = next;
            depth_done = depth;
            let root = Bounds {
                lo: moves.iter().map(|m| m.bounds.lo).max().unwrap(),
                hi: moves.iter().map(|m| m.bounds.hi).max().unwrap(),
            };
            self.progress.1 = depth;
            self.progress.2 = root;
            self.report(Phase::Depth);
            if settled(&moves) {
                break;
            }
            depth += 1;
        }
        self.game.stop_at(None);
        let lo = moves.iter().map(|m| m.bounds.lo).max().unwrap();
        let hi = moves.iter().map(|m| m.bounds.hi).max().unwrap();
        Analysis {
            bounds: Bounds { lo, hi },
            moves,
            depth: depth_done,
            nodes: self.nodes,
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// Exact values of the moves of a position covered by a table (children covered too).
    fn exact_children(&mut self, children: &[Child<G::Pos, G::Move>], limits: Limits) -> Vec<MoveBounds<G::Move>> {
        children
            .iter()
            .map(|c| {
                let v = match self.game.probe(&c.child) {
                    Some(v) => Bounds::exact(v),
                    None => {
                        let a = Searcher::new(self.game, 16).analyse(&c.child, limits);
                        a.bounds
                    }
                };
                MoveBounds { mv: c.mv, bounds: Bounds { lo: c.gain - v.hi, hi: c.gain - v.lo } }
            })
            .collect()
    }

    /// The bounded negamax. Returns two intervals: the value of the game from here given the
    /// path (a repetition on the path ends it, net 0), and a sound interval for the value of
    /// the position itself (a repetition counts as "unknown"), which is what the table keeps.
    /// The flag says whether the first depends on the path.
    fn search(
        &mut self,
        pos: &G::Pos,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        after_capture: bool,
    ) -> Result<Node, Aborted> {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
            if self.observer.is_some() && self.progress.3.elapsed().as_secs_f64() >= 1.0 {
                self.report(Phase::Searching);
            }
        }
        if self.node_budget.is_some_and(|b| self.nodes > b) {
            self.aborted = true;
        }
        if self.aborted {
            return Err(Aborted);
        }
        if let Some(v) = self.game.probe(pos) {
            return Ok(Node::exact(v));
        }
        let key = self.game.key(pos);
        let b = self.game.bound(pos);
        let (tlo, thi, best_code) = match self.table.get(key) {
            Some(e) => (e.lo as i32, e.hi as i32, Some(e.best)),
            None => (-b, b, None),
        };
        let known = Bounds { lo: tlo, hi: thi };
        if !after_capture {
            for &(k, boundary) in self.path.iter().rev() {
                if k == key {
                    return Ok(Node { path: Bounds::exact(0), position: known, history: true });
                }
                if boundary {
                    break;
                }
            }
        }
        if tlo == thi || tlo >= beta || thi <= alpha || depth == 0 {
            return Ok(Node { path: known, position: known, history: false });
        }
        let mut children = Vec::with_capacity(8);
        let ended = self.game.expand(pos, &mut children);
        if self.game.stopped() {
            self.aborted = true;
            return Err(Aborted);
        }
        if let Some(v) = ended {
            self.table.put(key, v, v, 0);
            return Ok(Node::exact(v));
        }
        // Order: the table's best move, then bigger captures first.
        let g = self.game;
        children.sort_by_key(|c| (Some(g.move_code(&c.mv)) != best_code, -c.gain));
        alpha = alpha.max(tlo);
        let beta = beta.min(thi);
        let mut path = Bounds { lo: i32::MIN, hi: i32::MIN };
        let mut posb = Bounds { lo: i32::MIN, hi: i32::MIN };
        let mut history = false;
        let mut best = children[0].mv;
        self.path.push((key, after_capture));
        let mut result = Ok(());
        for (i, c) in children.iter().enumerate() {
            let r = match self.search(&c.child, depth - 1, c.gain - beta, c.gain - alpha, c.gain > 0) {
                Ok(r) => r,
                Err(a) => {
                    result = Err(a);
                    break;
                }
            };
            history |= r.history;
            let mlo = c.gain - r.path.hi;
            if mlo > path.lo {
                best = c.mv;
            }
            path.lo = path.lo.max(mlo);
            path.hi = path.hi.max(c.gain - r.path.lo);
            posb.lo = posb.lo.max(c.gain - r.position.hi);
            posb.hi = posb.hi.max(c.gain - r.position.lo);
            alpha = alpha.max(mlo);
            if path.lo >= beta {
                if i + 1 < children.len() {
                    // Unsearched moves: bounded only by the board.
                    path.hi = path.hi.max(b);
                    posb.hi = posb.hi.max(b);
                }
                break;
            }
        }
        self.path.pop();
        result?;
        // The table's facts still hold: intersect, and keep the position's interval.
        posb.lo = posb.lo.max(tlo);
        posb.hi = posb.hi.min(thi);
        self.table.put(key, posb.lo, posb.hi, g.move_code(&best));
        if !history {
            path = posb;
        }
        Ok(Node { path, position: posb, history })
    }
}

/// What a search of one node found.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The value of the game from here, given the path.
    path: Bounds,
    /// A sound interval for the value of the position itself.
    position: Bounds,
    /// `path` depends on a repetition of the path.
    history: bool,
}

impl Node {
    fn exact(v: i32) -> Self {
        Node { path: Bounds::exact(v), position: Bounds::exact(v), history: false }
    }
}
