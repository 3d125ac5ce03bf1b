//! A heuristic, not a proof: the **capture balance within a horizon** of `depth` plies. It is
//! the negamax value of the game cut off after `depth` plies, where each move scores the
//! pieces it captures, a position without a move scores its ending exactly
//! ([`SearchGame::expand`]) and the horizon scores 0. Repetitions are not looked for inside
//! the horizon (the value is a function of (position, depth), so the table can keep it).
//!
//! [`super::Searcher`] proves intervals for the real game; when those stay at `±n` (early
//! positions, where nothing can be captured for many plies) this is the number an engine would
//! use to rank moves, and the openings analysis reports it beside the proven bounds.

use super::tt::Table;
use super::{Child, Limits, SearchGame};
use std::time::Instant;

/// The result of [`horizon`].
#[derive(Clone, Debug)]
pub struct HorizonResult<M> {
    /// Capture balance for the mover within `depth` plies (the deepest completed iteration).
    pub value: i32,
    /// Deepest iteration completed (0: none; `value` is then 0).
    pub depth: u32,
    /// Root moves reaching `value` at that depth, in the game's order.
    pub best_moves: Vec<M>,
    pub nodes: u64,
    pub seconds: f64,
}

struct Aborted;

struct State<'g, G: SearchGame> {
    game: &'g G,
    table: Table,
    nodes: u64,
    deadline: Option<Instant>,
    budget: Option<u64>,
}

/// Iterative deepening of the capture balance, depth 1, 2, … up to `limits.depth` (required
/// in practice: without it only the time or node limit stops it), within the time and node
/// limits; an interrupted iteration is discarded.
pub fn horizon<G: SearchGame>(game: &G, root: &G::Pos, limits: Limits, table_bits: u32) -> HorizonResult<G::Move> {
    let start = Instant::now();
    let mut st = State {
        game,
        table: Table::new(table_bits),
        nodes: 0,
        deadline: limits.seconds.map(|s| start + std::time::Duration::from_secs_f64(s)),
        budget: limits.nodes,
    };
    let mut children = Vec::new();
    let mut result = HorizonResult { value: 0, depth: 0, best_moves: vec![], nodes: 0, seconds: 0.0 };
    if let Some(v) = game.expand(root, &mut children) {
        result.value = v;
        result.depth = limits.depth.unwrap_or(u32::MAX);
        result.seconds = start.elapsed().as_secs_f64();
        return result;
    }
    game.stop_at(st.deadline);
    let b = game.bound(root);
    let max = limits.depth.unwrap_or(u32::MAX);
    let mut d = 1;
    while d <= max {
        let mut scores = Vec::with_capacity(children.len());
        let mut best = i32::MIN;
        let mut ok = true;
        for c in &children {
            // Full window for every root move: the root lists every best move.
            match st.search(&c.child, d - 1, -b - 1, b + 1) {
                Ok(v) => {
                    let s = c.gain - v;
                    best = best.max(s);
                    scores.push(s);
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
        result.value = best;
        result.depth = d;
        result.best_moves = children.iter().zip(&scores).filter(|(_, &s)| s == best).map(|(c, _)| c.mv).collect();
        // Best first next time (stable: the game's order among equals).
        let mut order: Vec<usize> = (0..children.len()).collect();
        order.sort_by_key(|&i| -scores[i]);
        children = order.iter().map(|&i| children[i]).collect::<Vec<Child<G::Pos, G::Move>>>();
        d += 1;
    }
    game.stop_at(None);
    result.nodes = st.nodes;
    result.seconds = start.elapsed().as_secs_f64();
    result
}

impl<G: SearchGame> State<'_, G> {
    /// Fail-soft alpha-beta of the capture balance with `depth` plies left.
    fn search(&mut self, pos: &G::Pos, depth: u32, mut alpha: i32, mut beta: i32) -> Result<i32, Aborted> {
        self.nodes += 1;
        if self.nodes & 0x3ff == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Aborted);
        }
        if self.budget.is_some_and(|b| self.nodes > b) {
            return Err(Aborted);
        }
        if depth == 0 {
            return Ok(0);
        }
        let b = self.game.bound(pos);
        // The table holds (position, depth) facts: the depth is mixed into the key.
        let key = self.game.key(pos) ^ (depth as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut best_code = None;
        if let Some(e) = self.table.get(key) {
            let (lo, hi) = (e.lo as i32, e.hi as i32);
            if lo == hi || lo >= beta {
                return Ok(lo);
            }
            if hi <= alpha {
                return Ok(hi);
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
            best_code = Some(e.best);
        }
        let mut children = Vec::with_capacity(16);
        let ended = self.game.expand(pos, &mut children);
        if self.game.stopped() {
            return Err(Aborted);
        }
        if let Some(v) = ended {
            self.table.put(key, v, v, 0);
            return Ok(v);
        }
        let g = self.game;
        if best_code.is_some() {
            children.sort_by_key(|c| Some(g.move_code(&c.mv)) != best_code);
        }
        let alpha0 = alpha;
        let mut best = i32::MIN;
        let mut best_mv = children[0].mv;
        for c in &children {
            let v = c.gain - self.search(&c.child, depth - 1, c.gain - beta, c.gain - alpha)?;
            if v > best {
                best = v;
                best_mv = c.mv;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let (lo, hi) = if best <= alpha0 {
            (-b, best)
        } else if best >= beta {
            (best, b)
        } else {
            (best, best)
        };
        self.table.put(key, lo, hi, g.move_code(&best_mv));
        Ok(best)
    }
}
