//! One best-reply pass: `Σ w·v[p]` over a mix's payoff vectors for every choice `p` of the
//! family, with the vectors beyond what the page cache can hold streamed through it.
//!
//! Why: on the full `lockstep` run the LP mix's support outgrew RAM (3,561 vectors of 6.36 MB,
//! 22.6 GB, on a 23.5 GiB machine). A pass that walks the family a chunk at a time across all
//! the files touches every file every pass, and a cache smaller than the files then evicts each
//! page before the next pass comes back to it: the pass read nearly everything from disk, and
//! its time went 36 → 48 → 70 → 84 → 114 s over iterations 595–599 while the support grew
//! 5 %. Here the terms are summed a group at a time. The first ones, as many bytes as the
//! cache can hold beside the processes' memory ([`crate::store::resident::cache_room`] less a
//! reserve), are read through the cache as before and stay there; the rest are asked for a
//! group ahead (`MADV_WILLNEED`, so the disk reads while the CPU sums) and paged out once
//! summed (`MADV_PAGEOUT`), so they no longer push the kept ones out. A pass then reads from
//! disk only what does not fit.
//!
//! The bits are those of one pass over all the terms: every position's sum still adds the terms
//! one after another in their order; the groups change which bytes are cached, not the sums.

use super::vectors::{Values, CHUNK};
use crate::store::resident;
use rayon::prelude::*;

/// Terms summed per step: the accumulator (8 bytes a choice, 51 MB on the full family) is
/// read and written once a group, so larger groups save memory traffic; smaller ones start
/// the prefetch sooner. 64 vectors of the full family are 407 MB.
const GROUP: usize = 64;

/// Page cache left to everything else: the next iteration's new vectors, the averaged mixes'
/// score files (51 MB each, 32 in the window), the LP's warm start, and what other processes
/// read meanwhile.
const RESERVE: u64 = 3 << 30;

/// A weighted payoff vector of a pass.
#[derive(Clone, Copy)]
pub(super) struct Term<'a> {
    pub(super) values: Values<'a>,
    pub(super) weight: f64,
    /// The bytes of the read-only file map behind `values` (`None`: held in memory).
    pub(super) mapped: Option<&'a [u8]>,
}

/// The page-cache bytes a pass may keep its vectors in (`resident` when given, else what the
/// machine has now; unbounded where that is unknown).
pub(super) fn cache_budget(resident: Option<u64>) -> u64 {
    resident.unwrap_or_else(|| resident::cache_room().map_or(u64::MAX, |room| room.saturating_sub(RESERVE)))
}

/// The index of the first term that streams: the mapped terms before it fit `budget` bytes.
fn streamed_from(terms: &[Term<'_>], budget: u64) -> usize {
    let mut held = 0u64;
    for (i, t) in terms.iter().enumerate() {
        if let Some(m) = t.mapped {
            held += m.len() as u64;
            if held > budget {
                return i;
            }
        }
    }
    terms.len()
}

/// `Σ weight·values[p]` over the terms for every `p < n` (integer units), keeping at most
/// `budget` bytes of the terms' maps in the page cache (see the module docs).
pub(super) fn sums(n: usize, terms: &[Term<'_>], budget: u64) -> Vec<f64> {
    let first = streamed_from(terms, budget);
    // SAFETY (both advices): `mapped` is a read-only file map ([`Term::mapped`]) that outlives
    // the pass; advice changes no data, and a paged-out page is read again from its file.
    let advise = |from: usize, advice: unsafe fn(&[u8])| {
        for t in terms.iter().take(from + GROUP).skip(from.max(first)) {
            if let Some(m) = t.mapped {
                unsafe { advice(m) };
            }
        }
    };
    let mut acc = vec![0.0f64; n];
    advise(0, resident::will_need);
    for (g, group) in terms.chunks(GROUP).enumerate() {
        let start = g * GROUP;
        advise(start + GROUP, resident::will_need);
        acc.par_chunks_mut(CHUNK).enumerate().for_each(|(c, a)| {
            for t in group {
                t.values.add_scaled(a, c * CHUNK, t.weight);
            }
        });
        advise(start, resident::page_out);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(values: &[i8], weight: f64, mapped: bool) -> Term<'_> {
        let bytes = unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), values.len()) };
        Term { values: Values::I8(values), weight, mapped: mapped.then_some(bytes) }
    }

    #[test]
    fn the_stream_starts_where_the_budget_runs_out() {
        let v = vec![1i8; 100];
        let terms = [term(&v, 1.0, true), term(&v, 1.0, false), term(&v, 1.0, true), term(&v, 1.0, true)];
        assert_eq!(streamed_from(&terms, 99), 0);
        assert_eq!(streamed_from(&terms, 100), 2, "an in-memory term takes no cache");
        assert_eq!(streamed_from(&terms, 250), 3);
        assert_eq!(streamed_from(&terms, 300), 4);
    }

    /// More than a group of terms over more than a chunk of positions: the grouped sums are
    /// the bits of adding every term in order at each position.
    #[test]
    fn grouped_sums_equal_the_plain_sum_bit_for_bit() {
        let n = 2 * CHUNK + 77;
        let vectors: Vec<Vec<i8>> =
            (0..150u32).map(|t| (0..n).map(|p| ((p as u32 * 31 + t * 17) % 251) as u8 as i8).collect()).collect();
        let weights: Vec<f64> = (0..150).map(|t| 1.0 / (3.0 + t as f64 * 0.7)).collect();
        let mut plain = vec![0.0f64; n];
        for (v, &w) in vectors.iter().zip(&weights) {
            for (s, &x) in plain.iter_mut().zip(v) {
                *s += w * x as f64;
            }
        }
        // Only heap memory here, so no term is marked mapped: the advice is never given.
        let terms: Vec<Term<'_>> = vectors.iter().zip(&weights).map(|(v, &w)| term(v, w, false)).collect();
        let got = sums(n, &terms, 0);
        assert!(got.iter().zip(&plain).all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}
