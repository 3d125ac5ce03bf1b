//! `--average-weights optimal`: the average of the last K LP mixes with the weights that concede
//! least over the whole family, instead of equal weights.
//!
//! Against the opponent's choice `c` the mix `Σ λ_k m_k` scores `Σ λ_k s_k(c)`, where `s_k` is
//! the opponent's score vector against the mix `m_k` (what its best-reply pass sums anyway).
//! So the best weights solve a small matrix game, the opponent's whole family against the K
//! mixes: `min_λ max_c Σ λ_k s_k(c)`, by row generation (an LP on the choices found so far,
//! then one pass over the K vectors for the choices its weights concede most to). Keeping the
//! K score vectors (8 bytes a choice each: 51 MB on the full family) costs no pass: the mix's
//! own best-reply pass writes it. It also frees the memory the uniform average needs: its
//! bound and its best replies come from the score vectors, so the earlier mixes' payoff
//! vectors need not stay (on the full `lockstep` run the last 8 mixes' supports span ~3,400
//! vectors, 22 GB).
//!
//! The bound is `max_c Σ λ_k s_k(c)` evaluated over every choice, so it is a certificate like
//! any mix's (the same sums in another order: equal up to f64 rounding, ~1e-12 payoff units).

use super::super::state::{Certified, State};
use super::super::store::{Mix, Store};
use super::super::vectors::{chunked_top, Kind};
use super::super::{io_err, write_bytes_atomic, EqError};
use crate::side::Side;
use std::collections::{BTreeMap, HashMap};
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Row-generation rounds at most (each one pass over the K score vectors); every round's
/// weights are evaluated over the whole family, so stopping early only costs optimality.
const ROUNDS: usize = 200;
/// Choices added per round: the most conceded ones (by distinct score).
const PER_ROUND: usize = 32;
const MAGIC: &[u8; 8] = b"MIXSCOR1";

/// Replies ranked by the opponent's score, best first: (score, choice id).
type Ranked = Vec<(f64, u32)>;

/// A mix's key: a hash of its ids and weights' bits (the score files' names).
pub(super) fn key(mix: Mix<'_>) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for &(id, w) in mix {
        h.write_u32(id);
        h.write_u64(w.to_bits());
    }
    h.write_usize(mix.len());
    h.finish()
}

/// The opponent's score vectors against a side's recent mixes, by (the mix's side, [`key`]), kept
/// in memory and in `DIR/mixes`.
#[derive(Default)]
pub(super) struct Scores {
    map: HashMap<(Side, u64), Vec<f64>>,
}

fn score_path(dir: &Path, side: Side, key: u64) -> PathBuf {
    dir.join("mixes").join(format!("{}-{key:016x}.f64", side.name()))
}

impl Scores {
    /// Keep `scores` (the opponent's score vector against `mix`) in memory and on disk.
    pub(super) fn keep(&mut self, dir: &Path, side: Side, mix: Mix<'_>, scores: Vec<f64>) -> Result<(), EqError> {
        let key = key(mix);
        let path = score_path(dir, side, key);
        if !path.exists() {
            let data: Vec<u8> = scores.iter().flat_map(|x| x.to_le_bytes()).collect();
            let mut bytes = Vec::with_capacity(data.len() + 32);
            bytes.extend_from_slice(MAGIC);
            bytes.extend_from_slice(&(scores.len() as u64).to_le_bytes());
            bytes.extend_from_slice(&key.to_le_bytes());
            bytes.extend_from_slice(&(crc32fast::hash(&data) as u64).to_le_bytes());
            bytes.extend_from_slice(&data);
            let dir = dir.join("mixes");
            std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
            write_bytes_atomic(&path, &bytes)?;
        }
        self.map.insert((side, key), scores);
        Ok(())
    }

    /// The score vector of `mix` (a side's earlier LP mix): kept, else read from its file, else
    /// computed again by a pass when every member's vector is here. Else (a state moved to a
    /// new machine without `DIR/mixes`) the mix is left out of the average (false): sweeping
    /// the last K mixes' members again, thousands on the full game, would cost hours.
    fn scores_of(&mut self, store: &Store, side: Side, mix: Mix<'_>, reply_time: &AtomicU64) -> Result<bool, EqError> {
        if self.stored(store, side, mix) {
            return Ok(true);
        }
        let kind = Kind::of(side);
        if !mix.iter().all(|&(id, _)| store.holds(kind, id)) {
            return Ok(false);
        }
        let t = std::time::Instant::now();
        let (_, scores) = store.ranked_keep(&store.side_terms(side, mix), 1, true);
        reply_time.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
        self.keep(&store.dir, side, mix, scores.expect("kept"))?;
        Ok(true)
    }

    /// The best-weighted average of `mixes` (a side's last LP mixes, oldest first, the last
    /// one's scores kept already; those whose scores cannot be had are left out): the mix, the
    /// opponent's best score against it (integer units) and his `k` best replies (distinct
    /// scores, best first: (score, choice id)).
    /// `anchor`: with `anchored` weights, the side's certified mix, weighed too when its scores
    /// are kept (never swept again: its support spans thousands of members) and it is not in
    /// the window already.
    pub(super) fn optimal_average(
        &mut self,
        store: &Store,
        anchor: Option<&Certified>,
        side: Side,
        mixes: &[&[(u32, f64)]],
        k: usize,
        reply_time: &AtomicU64,
    ) -> Result<(Vec<(u32, f64)>, Ranked), EqError> {
        let mut here = Vec::with_capacity(mixes.len() + 1);
        if let Some(a) = anchor.map(|b| b.mix.as_slice()) {
            let k = key(a);
            if mixes.iter().all(|m| key(m) != k) && self.stored(store, side, a) {
                here.push(a);
            }
        }
        for &m in mixes {
            if self.scores_of(store, side, m, reply_time)? {
                here.push(m);
            }
        }
        let mixes = here;
        let t = std::time::Instant::now();
        let scores: Vec<&[f64]> = mixes.iter().map(|m| self.map[&(side, key(m))].as_slice()).collect();
        let lambda = best_weights(&scores)?;
        let top = combined_top(&scores, &lambda, k);
        reply_time.fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
        let mut sum: BTreeMap<u32, f64> = BTreeMap::new();
        for (m, &l) in mixes.iter().zip(&lambda) {
            for &(id, w) in m.iter() {
                if l > 0.0 {
                    *sum.entry(id).or_default() += l * w;
                }
            }
        }
        let replies = top.into_iter().map(|(s, p)| (s, store.ids[p])).collect();
        let mix: Vec<(u32, f64)> = sum.into_iter().filter(|&(_, w)| w > 0.0).collect();
        if anchor.is_some() {
            // The average's own score vector, should it become the next anchor (kept only
            // while it is the certified mix: see [`Scores::prune`]).
            let combined = combined_scores(&scores, &lambda);
            self.keep(&store.dir, side, &mix, combined)?;
        }
        Ok((mix, replies))
    }

    /// Whether the score vector of `mix` is kept, in memory or (read now) in its file.
    fn stored(&mut self, store: &Store, side: Side, mix: Mix<'_>) -> bool {
        let key = key(mix);
        if self.map.contains_key(&(side, key)) {
            return true;
        }
        match read_scores(&store.dir, store.ids.len(), side, key) {
            Some(v) => {
                self.map.insert((side, key), v);
                true
            }
            None => false,
        }
    }

    /// Forget the score vectors (memory and files) of mixes no longer among the state's recent
    /// ones (nor, `anchored`, its certified ones): called after the state is saved.
    pub(super) fn prune(&mut self, dir: &Path, st: &State, anchored: bool) -> Result<(), EqError> {
        let best = [(Side::South, &st.best_south), (Side::North, &st.best_north)]
            .into_iter()
            .filter(|_| anchored)
            .filter_map(|(side, b)| b.as_ref().map(|b| (side, key(&b.mix))));
        let keep: std::collections::HashSet<(Side, u64)> = (st.recent_south.iter().map(|m| (Side::South, key(m))))
            .chain(st.recent_north.iter().map(|m| (Side::North, key(m))))
            .chain(best)
            .collect();
        self.map.retain(|k, _| keep.contains(k));
        let dir = dir.join("mixes");
        let Ok(entries) = std::fs::read_dir(&dir) else { return Ok(()) };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let parsed = name.strip_suffix(".f64").and_then(|s| {
                let (side, hex) = s.split_once('-')?;
                let side = [Side::South, Side::North].into_iter().find(|s| s.name() == side)?;
                Some((side, u64::from_str_radix(hex, 16).ok()?))
            });
            if parsed.is_none_or(|k| !keep.contains(&k)) {
                std::fs::remove_file(e.path()).map_err(io_err(&e.path()))?;
            }
        }
        Ok(())
    }
}

/// The score file of the mix with `key` over a family of `n` choices, if sound.
fn read_scores(dir: &Path, n: usize, side: Side, key: u64) -> Option<Vec<f64>> {
    let bytes = std::fs::read(score_path(dir, side, key)).ok()?;
    let ok = bytes.len() == 32 + 8 * n
        && &bytes[..8] == MAGIC
        && bytes[8..16] == (n as u64).to_le_bytes()
        && bytes[16..24] == key.to_le_bytes()
        && bytes[24..32] == (crc32fast::hash(&bytes[32..]) as u64).to_le_bytes();
    ok.then(|| bytes[32..].chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().unwrap())).collect())
}

/// The `k` largest distinct values of `Σ λ_j s_j(c)` over the choices `c`, largest first (equal
/// values: the lowest position), summed in the order of `scores` at every position.
pub(in crate::opening_game) fn combined_top(scores: &[&[f64]], lambda: &[f64], k: usize) -> Vec<(f64, usize)> {
    chunked_top(scores[0].len(), k, |a, acc| {
        for (s, &l) in scores.iter().zip(lambda) {
            if l != 0.0 {
                acc.iter_mut().zip(&s[a..]).for_each(|(x, &v)| *x += l * v);
            }
        }
    })
}

/// `Σ λ_j s_j(c)` for every choice `c` (summed in the order of `scores`, as [`combined_top`]).
fn combined_scores(scores: &[&[f64]], lambda: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; scores[0].len()];
    for (s, &l) in scores.iter().zip(lambda) {
        if l != 0.0 {
            out.iter_mut().zip(s.iter()).for_each(|(x, &v)| *x += l * v);
        }
    }
    out
}

/// The weights `λ` (a distribution over the vectors) minimising `max_c Σ λ_j s_j(c)`, by row
/// generation from the uniform weights: the LP of the choices found so far gives weights,
/// whose most conceded choices join, until none concedes more than that LP's value (or
/// [`ROUNDS`]). Returns the weights with the lowest maximum seen, the uniform ones included.
pub(in crate::opening_game) fn best_weights(scores: &[&[f64]]) -> Result<Vec<f64>, EqError> {
    let m = scores.len();
    let uniform = vec![1.0 / m as f64; m];
    if m == 1 {
        return Ok(uniform);
    }
    let range = scores.iter().flat_map(|s| s.iter()).fold(0.0f64, |r, x| r.max(x.abs()));
    let tol = 1e-9 * (1.0 + range);
    let top = combined_top(scores, &uniform, PER_ROUND);
    let mut best = (top[0].0, uniform);
    let mut rows: Vec<usize> = top.iter().map(|t| t.1).collect();
    for j in 0..m {
        let mut unit = vec![0.0; m];
        unit[j] = 1.0;
        rows.push(combined_top(scores, &unit, 1)[0].1);
    }
    rows.sort_unstable();
    rows.dedup();
    for _ in 0..ROUNDS {
        // The weights' player maximises −s over the rows found so far.
        let r = rows.len();
        let mut a = vec![0.0; m * r];
        for (j, s) in scores.iter().enumerate() {
            for (i, &c) in rows.iter().enumerate() {
                a[j * r + i] = -s[c];
            }
        }
        let (neg, lambda) = crate::matrix_game::maximiser(&a, m, r)?;
        let top = combined_top(scores, &lambda, PER_ROUND);
        if top[0].0 < best.0 {
            best = (top[0].0, lambda);
        }
        let fresh: Vec<usize> =
            top.iter().filter(|t| t.0 > -neg + tol).map(|t| t.1).filter(|c| rows.binary_search(c).is_err()).collect();
        if fresh.is_empty() {
            break;
        }
        rows.extend(fresh);
        rows.sort_unstable();
    }
    Ok(best.1)
}
