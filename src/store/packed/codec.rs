//! The `rank1-zstd1` codec of packed layers (the module above says why it was chosen): each
//! value replaced by its rank among the values that follow the previous value (the layer's
//! ranking), then each block of ranks compressed by zstd.

use super::{BLOCK, NO_VALUE, ZSTD_LEVEL};
use rayon::prelude::*;

/// Counts of (previous value, value) pairs of `values`, each block starting after 0.
pub(super) fn pair_counts(values: &[i8]) -> Vec<u64> {
    values
        .par_chunks(BLOCK)
        .fold(
            || vec![0u64; 1 << 16],
            |mut h, block| {
                let mut prev = 0u8;
                for &v in block {
                    h[(prev as usize) << 8 | v as u8 as usize] += 1;
                    prev = v as u8;
                }
                h
            },
        )
        .reduce(
            || vec![0u64; 1 << 16],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// The ranking of a layer: per context, the values that follow it by count (ties by byte).
pub(super) fn ranking(counts: &[u64]) -> Vec<(u8, Vec<u8>)> {
    (0..256usize)
        .filter_map(|ctx| {
            let row = &counts[ctx << 8..(ctx + 1) << 8];
            let mut vs: Vec<u8> = (0..=255u8).filter(|&v| row[v as usize] > 0).collect();
            vs.sort_by_key(|&v| (std::cmp::Reverse(row[v as usize]), v));
            (!vs.is_empty()).then_some((ctx as u8, vs))
        })
        .collect()
}

/// The value → rank table of a ranking (encoding).
pub(super) fn rank_table(order: &[(u8, Vec<u8>)]) -> Vec<[u8; 256]> {
    let mut t = vec![[0u8; 256]; 256];
    for (ctx, vs) in order {
        for (r, &v) in vs.iter().enumerate() {
            t[*ctx as usize][v as usize] = r as u8;
        }
    }
    t
}

/// The rank → value table of a ranking (decoding); ranks a context does not have give
/// [`NO_VALUE`].
pub(super) fn value_table(order: &[(u8, Vec<u8>)]) -> Box<[[i8; 256]]> {
    let mut t = vec![[NO_VALUE; 256]; 256].into_boxed_slice();
    for (ctx, vs) in order {
        for (r, &v) in vs.iter().enumerate() {
            t[*ctx as usize][r] = v as i8;
        }
    }
    t
}

pub(super) fn encode_block(block: &[i8], ranks: &[[u8; 256]]) -> Vec<u8> {
    let mut prev = 0u8;
    let coded: Vec<u8> = block
        .iter()
        .map(|&v| {
            let r = ranks[prev as usize][v as u8 as usize];
            prev = v as u8;
            r
        })
        .collect();
    zstd::bulk::compress(&coded, ZSTD_LEVEL).expect("zstd compresses any input into a growing buffer")
}

/// Turn the ranks in `buf` back into values, in place; false when a rank names no value.
pub(super) fn decode_ranks(buf: &mut [i8], values: &[[i8; 256]]) -> bool {
    let mut prev = 0u8;
    let mut bad = false;
    for x in buf.iter_mut() {
        let v = values[prev as usize][*x as u8 as usize];
        bad |= v == NO_VALUE;
        *x = v;
        prev = v as u8;
    }
    !bad
}
