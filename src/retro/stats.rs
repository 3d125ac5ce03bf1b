//! Per-layer statistics of a solved table: counts of wins, draws and losses for the mover and
//! the histogram of values.

use rayon::prelude::*;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LayerStats {
    /// Pieces on the board in every position of the layer.
    pub layer: usize,
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// `histogram[v + layer]` = positions of value `v`, for `v` in `-layer..=layer`.
    pub histogram: Vec<u64>,
    pub checksum: u32,
}

impl LayerStats {
    /// The statistics of layer `layer` from its values, or the rank of the first value outside
    /// `-layer..=layer` (no position of the layer can be worth more than its pieces).
    pub fn of(layer: usize, values: &[i8], checksum: u32) -> Result<Self, u64> {
        const CHUNK: usize = 1 << 20;
        let width = 2 * layer + 1;
        let histogram = values
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, chunk)| {
                let mut h = vec![0u64; width];
                for (i, &v) in chunk.iter().enumerate() {
                    match h.get_mut((v as i32 + layer as i32) as usize) {
                        Some(x) => *x += 1,
                        None => return Err((c * CHUNK + i) as u64),
                    }
                }
                Ok(h)
            })
            .try_reduce(
                || vec![0u64; width],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    Ok(a)
                },
            )?;
        let wins = histogram[layer + 1..].iter().sum();
        let losses = histogram[..layer].iter().sum();
        Ok(LayerStats {
            layer,
            positions: values.len() as u64,
            wins,
            draws: histogram[layer],
            losses,
            histogram,
            checksum,
        })
    }

    /// The value histogram as `(value, count)` pairs.
    pub fn values(&self) -> impl Iterator<Item = (i32, u64)> + '_ {
        self.histogram.iter().enumerate().map(move |(i, &c)| (i as i32 - self.layer as i32, c))
    }
}
