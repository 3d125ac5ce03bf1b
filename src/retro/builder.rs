//! The threshold retrograde builder for one layer (see the module docs of `retro`).

use super::{Edge, LayeredGame, Layers};
use rayon::prelude::*;
use std::sync::atomic::{AtomicI8, AtomicU8, Ordering::Relaxed};

/// Marks a position with no value yet.
const UNDECIDED: i8 = i8::MIN;
/// "No exit move" in the best-exit array: below every real payoff.
const NO_EXIT: i8 = i8::MIN;

/// Positions handled per parallel task in scans.
const CHUNK: u64 = 1 << 14;

/// Working memory per position of the layer being built: value, open-move counter, best exit.
pub const WORK_BYTES_PER_POSITION: u64 = 3;
/// Memory planning allows one frontier entry (a u32 rank) per this many positions of the layer.
/// Peaks are far lower: layer 24 (417 M positions) peaked at 2.13 GB RSS, within about
/// 50 MB of its lower layers plus its working arrays.
pub const FRONTIER_SHARE: u64 = 16;

/// Observer of a layer build (progress bars live in the CLI, not here).
pub trait Progress: Sync {
    /// `done` positions of the forward pass are finished.
    fn forward(&self, _done: u64) {}
    /// A threshold `t` has been fully propagated; `decided` positions have a value so far.
    fn threshold(&self, _t: i32, _decided: u64) {}
}

/// A progress observer that ignores everything.
pub struct Silent;
impl Progress for Silent {}

/// Solve layer `n` of `game`, given every lower layer in `lower` (indices `0..n`).
/// Returns one value per rank.
pub fn build_layer<G: LayeredGame, L: Layers + ?Sized>(
    game: &G,
    lower: &L,
    n: usize,
    progress: &dyn Progress,
) -> Vec<i8> {
    let size = game.layer_size(n);
    // Frontiers hold u32 ranks (half the memory of u64): every layer up to 30 Oware seeds fits,
    // and larger ones are refused earlier for memory anyway.
    assert!(size <= u32::MAX as u64 + 1, "layer {n} has {size} positions, more than u32 ranks can hold");
    let value: Vec<AtomicI8> = (0..size).map(|_| AtomicI8::new(UNDECIDED)).collect();
    let open: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(0)).collect();
    let mut best_exit: Vec<i8> = vec![NO_EXIT; size as usize];

    // Forward pass: for every position, the best exit payoff and the number of moves that stay
    // in the layer. An ended position is an exit of its own value with no open moves.
    best_exit.par_chunks_mut(CHUNK as usize).enumerate().for_each_init(
        || Vec::with_capacity(16),
        |buf: &mut Vec<Edge<G::Pos>>, (ci, slice)| {
            let start = ci as u64 * CHUNK;
            let mut pos = game.unrank(n, start);
            for (k, slot) in slice.iter_mut().enumerate() {
                if k > 0 {
                    game.next_in_layer(&mut pos);
                }
                let rank = start + k as u64;
                match game.exits(&pos, lower, buf) {
                    Err(v) => *slot = v as i8,
                    Ok((best, same)) => {
                        *slot = best.map_or(NO_EXIT, |b| b as i8);
                        open[rank as usize].store(same, Relaxed);
                    }
                }
            }
            progress.forward(slice.len() as u64);
        },
    );

    let mut decided = 0u64;
    for t in (1..=n as i32).rev() {
        // Seeds of this threshold: positions whose own exits settle them now. An exit worth
        // more than t settled its position at an earlier threshold, and a position whose last
        // open move closed while its exits allowed it was settled in that propagation, so only
        // `best_exit == ±t` can be new; the scan is a byte compare per position.
        let (up, down) = (t as i8, -t as i8);
        let mut frontier: Vec<u32> = best_exit
            .par_chunks(CHUNK as usize)
            .enumerate()
            .flat_map_iter(|(c, slice)| {
                let base = c as u64 * CHUNK;
                let (value, open) = (&value, &open);
                slice.iter().enumerate().filter_map(move |(k, &e)| {
                    if e != up && e != down {
                        return None;
                    }
                    let i = base as usize + k;
                    if value[i].load(Relaxed) != UNDECIDED {
                        return None;
                    }
                    if e == up {
                        value[i].store(up, Relaxed);
                    } else if open[i].load(Relaxed) == 0 {
                        value[i].store(down, Relaxed);
                    } else {
                        return None;
                    }
                    Some(i as u32)
                })
            })
            .collect();
        // Propagate backwards until nothing more is settled at this threshold.
        while !frontier.is_empty() {
            decided += frontier.len() as u64;
            frontier = frontier
                .par_chunks(1024)
                .flat_map_iter(|chunk| {
                    let mut preds = Vec::with_capacity(32);
                    let mut ranks = Vec::with_capacity(32);
                    let mut next = Vec::new();
                    for &r in chunk {
                        let v = value[r as usize].load(Relaxed) as i32;
                        game.unmove_ranks(n, r as u64, &mut preds, &mut ranks);
                        for &pr in &ranks {
                            let i = pr as usize;
                            if value[i].load(Relaxed) != UNDECIDED {
                                continue;
                            }
                            if v >= t {
                                // This move gives the predecessor's mover at most -t.
                                let left = open[i].fetch_sub(1, Relaxed) - 1;
                                if left == 0
                                    && (best_exit[i] as i32) <= -t
                                    && value[i].compare_exchange(UNDECIDED, -t as i8, Relaxed, Relaxed).is_ok()
                                {
                                    next.push(pr as u32);
                                }
                            } else if value[i].compare_exchange(UNDECIDED, t as i8, Relaxed, Relaxed).is_ok() {
                                // A move into a lost position wins at least t.
                                next.push(pr as u32);
                            }
                        }
                    }
                    next
                })
                .collect();
            if G::SORT_FRONTIER {
                frontier.par_sort_unstable();
            }
        }
        progress.threshold(t, decided);
    }

    // Positions never settled: neither side can force a gain, endless play is worth 0.
    value
        .into_iter()
        .map(|v| {
            let v = v.into_inner();
            if v == UNDECIDED {
                0
            } else {
                v
            }
        })
        .collect()
}

/// Build layers `0..=max` in memory (tests, small tables).
pub fn build_all<G: LayeredGame>(game: &G, max: usize) -> Vec<Vec<i8>> {
    let mut layers: Vec<Vec<i8>> = Vec::with_capacity(max + 1);
    for n in 0..=max {
        let layer = build_layer(game, layers.as_slice(), n, &Silent);
        layers.push(layer);
    }
    layers
}
