//! One-step Bellman check of a solved layer: every entry equals the best over its moves of
//! (pieces captured − child value), with the terminal rules for ended positions.

use super::{bellman, LayeredGame, Layers};
use rayon::prelude::*;

/// A mismatch found by [`verify_layer`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub rank: u64,
    pub stored: i8,
    pub recomputed: i32,
}

/// Check every entry of layer `n` (`layers` must hold `0..=n`). Returns the mismatches found
/// (at most `limit`) and calls `tick(k)` as positions are done.
pub fn verify_layer<G: LayeredGame, L: Layers + ?Sized>(
    game: &G,
    layers: &L,
    n: usize,
    limit: usize,
    tick: &(dyn Fn(u64) + Sync),
) -> Vec<Mismatch> {
    const CHUNK: u64 = 1 << 14;
    let size = game.layer_size(n);
    let mut bad: Vec<Mismatch> = (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .flat_map_iter(|c| {
            let lo = c * CHUNK;
            let hi = (lo + CHUNK).min(size);
            let mut pos = game.unrank(n, lo);
            let mut buf = Vec::with_capacity(16);
            let mut bad = Vec::new();
            for r in lo..hi {
                if r > lo {
                    game.next_in_layer(&mut pos);
                }
                let want = bellman(game, layers, &pos, &mut buf);
                let stored = layers.value(n, r);
                if stored as i32 != want && bad.len() < limit {
                    bad.push(Mismatch { rank: r, stored, recomputed: want });
                }
            }
            tick(hi - lo);
            bad
        })
        .collect();
    bad.sort_by_key(|m| m.rank);
    bad.truncate(limit);
    bad
}
