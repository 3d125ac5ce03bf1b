//! The restricted game: its matrix (members × members), each entry read from a swept vector
//! of either member, else played pairwise and kept; each player's LP over it, with the first
//! guess of its supports; and each player's last LP optimum, the next one's start.

use super::super::options::Options;
use super::super::store::{Mix, Store};
use super::super::vectors::Kind;
use super::warm;
use crate::matrix_game::{maximiser_with, stderr_trace, LpError, SolveOptions, Trace, Warm};
use crate::side::Side;
use crate::sweep::play::play_pair;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::path::Path;

/// What a run knows of its restricted games beyond the vectors.
#[derive(Default)]
pub(in crate::opening_game) struct Restricted {
    /// South's payoff (integer units, summed over the outcomes) of pairs of choices played so
    /// far: the restricted LPs' entries that no swept vector holds. A member's vector is swept
    /// only once the member enters a mix whose best reply is computed, so the others' entries
    /// are played pairwise; an entry one of its two members' vectors holds is read from it
    /// (see [`Restricted::matrix`]).
    pub(in crate::opening_game) pairs: FxHashMap<(u32, u32), i32>,
    /// The restricted LPs' entries read from vectors so far, kept so that each is read once
    /// per sitting: rebuilding the matrix from the vectors every iteration touches a page of
    /// nearly every saved vector (|S|·|N| random reads, twice), which once the vectors outgrow
    /// the page cache reads from disk. A member's entries also survive its vector's deletion
    /// for the budget.
    pub(in crate::opening_game) read: FxHashMap<(u32, u32), i32>,
    /// Each player's last restricted LP's optimum (by [`Side::index`]), the next LP's start.
    pub(super) warm: [Option<Warm>; 2],
}

impl Restricted {
    /// Play `todo` (pairs of South and North members), in parallel, caching South's payoff;
    /// in a symmetric game a pair's mirror is its negation, so each is played once (lower id
    /// as South) and cached both ways.
    fn play_pairs(&mut self, store: &Store, todo: Vec<(u32, u32)>) {
        let symmetric = store.def.symmetric();
        let canonical = |(s, n): (u32, u32)| if symmetric && n < s { (n, s) } else { (s, n) };
        let mut todo: Vec<(u32, u32)> = todo.into_iter().map(canonical).collect();
        todo.sort_unstable();
        todo.dedup();
        let (rules, model, payoff) = (&store.def.rules, store.def.model, store.def.payoff);
        let played: Vec<((u32, u32), i32)> = todo
            .par_iter()
            .map(|&(s, n)| {
                let (cs, cn) = (&store.choices[store.pos(s)], &store.choices[store.pos(n)]);
                let mut v = 0i32;
                play_pair(rules, &store.proven, model, cs, cn, |_, g| v += payoff.of(g));
                ((s, n), v)
            })
            .collect();
        // Not counted in `games`: the pairs are a cache that a resume rebuilds (it is not
        // saved), so counting them would make a resumed run's figures differ from an
        // uninterrupted one's; `games` counts the vector sweeps, the run's real cost (the
        // pairs are at most |S|·|N| games, a few percent of one sweep).
        for ((s, n), v) in played {
            self.pairs.insert((s, n), v);
            if symmetric {
                self.pairs.insert((n, s), -v);
            }
        }
    }

    /// South's payoffs (integer units, summed over the outcomes) of `south` × `north`, row by
    /// row: each entry from the caches of entries read or played before, else from a swept
    /// vector holding it (North's column or South's row: the same integers as playing the
    /// pair, a vector's slot being that pair played with the same orientation, or in a
    /// symmetric game its mirror, exactly the negation), else played.
    ///
    /// A vector is read only where at least half of its line (its member's column or row over
    /// the other side's set) is unknown: then it is read once, in the family's order. The
    /// vectors of a resumed run's members are read that way, one at a time: read entry by
    /// entry in the matrix's order they touched a page of every saved vector per row, and once
    /// the vectors outgrew RAM (29 GB on the full `lockstep` run, 23 GB of RAM) the first
    /// iteration of a sitting had not finished after 13–19 minutes of random reads. A few
    /// unknown entries in a line are played instead: an iteration's 64 new members (whose
    /// own vectors are not swept yet) read from every old member's vector were 64 scattered
    /// pages of each of 5,900 files, which readahead made ~47 GB of reads and 50 s
    /// (iteration 602); played, they are ~0.56 M pairs, under a second.
    pub(in crate::opening_game) fn matrix(&mut self, store: &Store, south: &[u32], north: &[u32]) -> Vec<i32> {
        let (ns, nn) = (south.len(), north.len());
        let mut a = vec![0i32; ns * nn];
        // Where each entry comes from: 0 not yet (played below), 1 the caches, 2 a vector now.
        let mut known = vec![0u8; ns * nn];
        for (i, &s) in south.iter().enumerate() {
            for (j, &n) in north.iter().enumerate() {
                if let Some(&v) = self.read.get(&(s, n)).or_else(|| self.pairs.get(&(s, n))) {
                    (a[i * nn + j], known[i * nn + j]) = (v, 1);
                }
            }
        }
        // The members of each side in the family's order (a vector's slots are in that order).
        let by_pos = |set: &[u32]| {
            let mut order: Vec<(usize, usize)> = set.iter().enumerate().map(|(k, &id)| (store.pos(id), k)).collect();
            order.sort_unstable();
            order
        };
        let (south_order, north_order) = (by_pos(south), by_pos(north));
        // North's swept columns, then South's swept rows for what no column held.
        let (col_at, row_at) = (|j: usize, i: usize| i * nn + j, |i: usize, j: usize| i * nn + j);
        read_vectors(store, Kind::Col, north, &south_order, &col_at, &mut a, &mut known);
        read_vectors(store, Kind::Row, south, &north_order, &row_at, &mut a, &mut known);
        let todo = (0..ns * nn).filter(|&k| known[k] == 0).map(|k| (south[k / nn], north[k % nn])).collect();
        self.play_pairs(store, todo);
        let mut fresh = Vec::new();
        for (i, &s) in south.iter().enumerate() {
            for (j, &n) in north.iter().enumerate() {
                let k = i * nn + j;
                match known[k] {
                    0 => a[k] = self.pairs[&(s, n)],
                    2 => fresh.push(((s, n), a[k])),
                    _ => {}
                }
            }
        }
        self.read.extend(fresh);
        a
    }

    /// The restricted LP of one player (`side`) over his set `own` against the
    /// opposing members `cuts` (the opponent's set `cuts0`, then any cuts), started from the
    /// last iteration's supports (`hints`) and the newest members.
    /// `gap`: the duality gap to solve to (0: exactly); `options`: the replies per iteration
    /// (how many newest members join the guessed support), the cuts and the trace.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::opening_game) fn lp(
        &mut self,
        store: &Store,
        side: Side,
        own: &[u32],
        cuts: &[u32],
        cuts0: &[u32],
        hints: (Mix<'_>, Mix<'_>),
        gap: f64,
        options: &Options,
    ) -> RestrictedLp {
        // The player's payoffs, own × cuts, in payoff units.
        let scale = store.def.scale();
        let a: Vec<f64> = if side == Side::South {
            self.matrix(store, own, cuts).into_iter().map(|v| v as f64 / scale).collect()
        } else {
            let m = &self.matrix(store, cuts, own);
            let k = own.len();
            (0..k).flat_map(|o| (0..cuts.len()).map(move |c| -(m[c * k + o] as f64 / scale))).collect()
        };
        let guess = |set: &[u32], mix: &[(u32, f64)]| -> Vec<usize> {
            let fresh = set.len().saturating_sub(2 * options.replies.max(1));
            (0..set.len()).filter(|&i| i >= fresh || mix.iter().any(|m| m.0 == set[i])).collect()
        };
        // Beyond those, the members that did best against the other side's last mix (a
        // quarter of the support's size, at least 8): the optimal supports are mostly among
        // them, so constraint generation needs fewer rounds (on the full game's restricted LP
        // at 1,786 members, 1 round instead of 5: results/BENCHMARKS-journal.md).
        let (rows, cols) = (own.len(), cuts.len());
        let at = |set: &[u32], mix: Mix<'_>| -> Vec<(usize, f64)> {
            let index: HashMap<u32, usize> = set.iter().enumerate().map(|(i, &id)| (id, i)).collect();
            mix.iter().filter_map(|&(id, w)| index.get(&id).map(|&i| (i, w))).collect()
        };
        let (x, y) = (at(own, hints.0), at(cuts, hints.1));
        let rows0 =
            widen(guess(own, hints.0), rows, hints.0.len(), |i| y.iter().map(|&(j, w)| w * a[i * cols + j]).sum());
        let mut cols0 = widen(guess(cuts0, hints.1), cuts0.len(), hints.1.len(), |j| {
            -x.iter().map(|&(i, w)| w * a[i * cols + j]).sum::<f64>()
        });
        cols0.extend(cuts0.len()..cuts.len());
        // The last LP's optimum, when its columns were this player's plain restricted game
        // too (with cuts beyond it, their indices move as the sets grow).
        let warm = if options.cuts == 0 { self.warm[side.index()].take() } else { None };
        RestrictedLp { a, rows, cols, rows0, cols0, warm, gap, trace: options.lp_trace }
    }

    /// Keep a solved LP's optimum for the player's next LP (plain double oracle only: `cuts`
    /// 0).
    pub(in crate::opening_game) fn keep_warm(&mut self, side: Side, lp: &mut RestrictedLp, cuts: usize) {
        if cuts == 0 {
            self.warm[side.index()] = lp.warm.take();
        }
    }

    /// Write the carried optima as those of `iteration` (before its state is saved).
    pub(super) fn save_warm(&self, dir: &Path, iteration: usize) -> Result<(), super::super::EqError> {
        warm::save(dir, &self.warm, iteration)
    }

    /// The carried optima of the state's last iteration, `iteration`.
    pub(in crate::opening_game) fn load_warm(&mut self, dir: &Path, iteration: usize) {
        self.warm = warm::load(dir, iteration);
    }
}

/// One side's pass of [`Restricted::matrix`]: each swept vector of a member of `outer`
/// (`kind`: North's columns or South's rows) whose line over `inner` (the other side's
/// members as (family position, index), in the family's order) is at least half unknown,
/// read once at the slots still unknown; `at(outer index, inner index)` is the entry's
/// place in `a`.
fn read_vectors(
    store: &Store,
    kind: Kind,
    outer: &[u32],
    inner: &[(usize, usize)],
    at: &(dyn Fn(usize, usize) -> usize + Sync),
    a: &mut [i32],
    known: &mut [u8],
) {
    let found: Vec<Vec<(usize, i32)>> = (0..outer.len())
        .into_par_iter()
        .map(|o| {
            let Some((v, sign)) = store.held(kind, outer[o]) else { return Vec::new() };
            let unknown: Vec<&(usize, usize)> = inner.iter().filter(|&&(_, x)| known[at(o, x)] == 0).collect();
            if 2 * unknown.len() < inner.len() {
                return Vec::new();
            }
            unknown.into_iter().map(|&(p, x)| (at(o, x), sign * v.at(p))).collect()
        })
        .collect();
    for (k, v) in found.into_iter().flatten() {
        (a[k], known[k]) = (v, 2);
    }
}

/// One player's restricted LP, built (its entries read or played) and ready to solve: a pure
/// computation, so both players' LPs of an asymmetric game can run side by side.
pub(in crate::opening_game) struct RestrictedLp {
    /// The player's payoffs (`rows × cols`, row-major, payoff units), he maximises.
    pub(in crate::opening_game) a: Vec<f64>,
    pub(in crate::opening_game) rows: usize,
    pub(in crate::opening_game) cols: usize,
    /// The guessed supports: rows, columns.
    pub(in crate::opening_game) rows0: Vec<usize>,
    pub(in crate::opening_game) cols0: Vec<usize>,
    /// The LP's optimum to start from, then to carry on ([`Restricted::keep_warm`]).
    pub(in crate::opening_game) warm: Option<Warm>,
    /// Solve only to this duality gap, by regret matching⁺ (0: exactly, by the simplex).
    gap: f64,
    /// `--lp-trace`: the solve's progress lines on stderr.
    trace: bool,
}

impl RestrictedLp {
    pub(in crate::opening_game) fn solve(&mut self) -> Result<(f64, Vec<f64>), LpError> {
        let opts = SolveOptions {
            gap: self.gap,
            trace: self.trace.then_some(&stderr_trace as &Trace),
            ..SolveOptions::default()
        };
        let guess = (&self.rows0[..], &self.cols0[..]);
        let (solved, warm) = maximiser_with(&self.a, self.rows, self.cols, guess, self.warm.take(), &opts)?;
        self.warm = warm;
        Ok(solved)
    }
}

/// `base` (sorted positions out of `0..n`) and the `max(8, support / 4)` other positions with
/// the highest `score` (ties: the lower position), sorted; `base` alone without a last mix
/// (`support` 0).
fn widen(base: Vec<usize>, n: usize, support: usize, score: impl Fn(usize) -> f64) -> Vec<usize> {
    if support == 0 {
        return base;
    }
    let mut others: Vec<(f64, usize)> =
        (0..n).filter(|i| base.binary_search(i).is_err()).map(|i| (score(i), i)).collect();
    others.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out = base;
    out.extend(others.into_iter().take((support / 4).max(8)).map(|(_, i)| i));
    out.sort_unstable();
    out
}
