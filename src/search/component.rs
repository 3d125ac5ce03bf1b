//! Exact solving of a position by retrograde analysis of its **component**: every position
//! reachable from it without a capture (same pieces on the board). Captures leave the
//! component into smaller boards, solved by a table probe or recursively.
//!
//! Alpha-beta proves values that one side can force, but a draw by endless play (the `split`
//! repetition rule) only shows up once every path has been followed to a repetition, which
//! is exponential. On an explicit component the same threshold method as the database
//! builder (`retro`) settles every position in linear time, cycles included.

use super::SearchGame;
use std::collections::HashMap;

/// The component was larger than the allowed number of positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooBig {
    pub positions: usize,
}

/// Exact values of positions, with every value found so far remembered.
pub struct ComponentSolver<'g, G: SearchGame> {
    pub game: &'g G,
    /// Exact values of positions solved so far (not covered by the table), by key.
    pub memo: HashMap<u64, i32>,
    /// Largest component to build.
    pub max_positions: usize,
    /// Positions expanded in all components.
    pub nodes: u64,
}

impl<'g, G: SearchGame> ComponentSolver<'g, G> {
    pub fn new(game: &'g G, max_positions: usize) -> Self {
        ComponentSolver { game, memo: HashMap::new(), max_positions, nodes: 0 }
    }

    /// The exact value of `pos` (net pieces of those on the board, for the mover).
    pub fn value(&mut self, pos: &G::Pos) -> Result<i32, TooBig> {
        if let Some(v) = self.game.probe(pos) {
            return Ok(v);
        }
        let key = self.game.key(pos);
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        self.solve_component(pos)?;
        Ok(self.memo[&key])
    }

    fn solve_component(&mut self, root: &G::Pos) -> Result<(), TooBig> {
        const NO_EXIT: i32 = i32::MIN;
        let game = self.game;
        // Discover the component breadth-first.
        let mut nodes: Vec<G::Pos> = vec![*root];
        let mut keys: Vec<u64> = vec![game.key(root)];
        let mut index: HashMap<u64, u32> = HashMap::from([(keys[0], 0)]);
        let mut best_exit: Vec<i32> = Vec::new();
        let mut open: Vec<u32> = Vec::new();
        let mut preds: Vec<Vec<u32>> = vec![Vec::new()];
        let mut exits: Vec<(u32, i32, G::Pos)> = Vec::new();
        let mut buf = Vec::new();
        let mut i = 0;
        while i < nodes.len() {
            let pos = nodes[i];
            self.nodes += 1;
            if let Some(v) = game.expand(&pos, &mut buf) {
                best_exit.push(v);
                open.push(0);
                i += 1;
                continue;
            }
            let mut same = 0;
            for c in &buf {
                let k = game.key(&c.child);
                let same_layer = c.gain == 0 && game.bound(&c.child) == game.bound(&pos);
                if !same_layer {
                    exits.push((i as u32, c.gain, c.child));
                    continue;
                }
                same += 1;
                let j = match index.get(&k) {
                    Some(&j) => j,
                    None => {
                        if nodes.len() >= self.max_positions {
                            return Err(TooBig { positions: nodes.len() });
                        }
                        let j = nodes.len() as u32;
                        index.insert(k, j);
                        nodes.push(c.child);
                        keys.push(k);
                        preds.push(Vec::new());
                        j
                    }
                };
                preds[j as usize].push(i as u32);
            }
            best_exit.push(NO_EXIT);
            open.push(same);
            i += 1;
        }
        // Exits: smaller boards, solved by probe or recursion.
        for (i, gain, child) in exits {
            let v = gain - self.value(&child)?;
            let e = &mut best_exit[i as usize];
            *e = (*e).max(v);
        }
        // Thresholds, as in the database builder.
        let n = nodes.len();
        let bound = game.bound(root);
        let mut value: Vec<Option<i32>> = vec![None; n];
        for t in (1..=bound).rev() {
            let mut queue: Vec<u32> = Vec::new();
            for k in 0..n {
                if value[k].is_some() {
                    continue;
                }
                if best_exit[k] >= t {
                    value[k] = Some(t);
                    queue.push(k as u32);
                } else if open[k] == 0 && best_exit[k] <= -t {
                    value[k] = Some(-t);
                    queue.push(k as u32);
                }
            }
            while let Some(c) = queue.pop() {
                let v = value[c as usize].unwrap();
                for &p in &preds[c as usize] {
                    let p = p as usize;
                    if value[p].is_some() {
                        continue;
                    }
                    if v >= t {
                        open[p] -= 1;
                        if open[p] == 0 && best_exit[p] <= -t {
                            value[p] = Some(-t);
                            queue.push(p as u32);
                        }
                    } else {
                        value[p] = Some(t);
                        queue.push(p as u32);
                    }
                }
            }
        }
        for (k, v) in keys.into_iter().zip(value) {
            self.memo.insert(k, v.unwrap_or(0));
        }
        Ok(())
    }
}
