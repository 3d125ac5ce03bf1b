//! The dense exchange (Tucker) tableau of the column player's LP over a sub-game of a payoff
//! matrix (some of its rows and columns), kept between constraint-generation rounds: columns
//! and rows added to it are written in the current basis, so a round pivots on from the last
//! round's optimum instead of from scratch.
//!
//! With `b = a + shift > 0` the LP is `max Σ y  s.t.  b y <= 1, y >= 0` over the sub-game
//! (its optimum `z = 1 / value(b)`); the row player's mix is its dual, read off the objective
//! row. Row `i < m` holds a basic variable `= rhs − Σ_j t[i][j]·(nonbasic j)`, row `m` the
//! objective; column `n` is a slightly perturbed right-hand side (degenerate ties broken) for
//! the ratio tests, column `n + 1` the true one, pivoted alongside. An exchange tableau's
//! columns are the full tableau's columns of the nonbasic variables, so the full column of
//! every slack, hence the row operations done so far, can be read off it.
//!
//! The pivots' passes over the constraint block are held back and applied in batches
//! ([`super::batch`]); the steepest-edge weights are kept exact between batches by
//! Goldfarb and Reid's update instead of being recomputed in each pivot's pass.

use super::batch::{squared_length, Batch, Weights, BATCH};
use super::solution::{normalise, MatrixSolution};

/// Labels: `y` of matrix column `J` is `J`, the slack of matrix row `I` is `SLACK + I`: all
/// `y` before all slacks, each by matrix index (Bland's order; the same order as a tableau
/// built over the whole matrix).
const SLACK: usize = 1 << 40;

const EPS: f64 = 1e-11;

/// Which right-hand side a dual simplex makes feasible.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Rhs {
    /// The perturbed one, that the primal ratio tests use (after rows are added; exactly
    /// non-negative).
    Perturbed,
    /// The true one (to read the mixes off; within rounding). The optimal basis of the
    /// perturbed right-hand side may be slightly infeasible for the true one (a basic `y` or
    /// slack a little below 0): then `y` read off it misses the true optimum by about the
    /// perturbation, enough to fail the answer's check.
    True,
}

#[derive(Clone)]
pub(super) struct Tableau {
    t: Vec<f64>,
    m: usize,
    n: usize,
    basic: Vec<usize>,
    nonbasic: Vec<usize>,
    /// Steepest edge: each column's squared length in the constraint rows, plus 1.
    norms: Vec<f64>,
    shift: f64,
    /// Pivots made on it (for the trace and the tests).
    pub(super) pivots: u64,
    /// Pivots not yet applied to the constraint block (rows `0..m`, columns `0..n`); the
    /// objective row and the right-hand sides are always current. Empty between calls.
    batch: Batch,
}

/// The dual simplex's row weights (dual steepest edge: each constraint row's squared length
/// plus 1), all kept exact from pivot to pivot (one product with the pivot row each, over the
/// [`Batch`]'s short copy of the block). Keeping only the infeasible rows' exact, a feasible
/// row's measured afresh from its row when it turned infeasible, is slower: many rows turn
/// infeasible per dual pivot, and each costs a pass over its row in double through the held
/// pivots (results/BENCHMARKS-journal.md). Applying a batch recomputes them all.
pub(super) struct RowWeights {
    lengths: Vec<f64>,
    /// The rows whose weight a pivot updates (scratch).
    rows: Vec<usize>,
}

/// The perturbation of matrix row `i`'s right-hand side (deterministic, below 1e-7).
fn perturbed(i: usize) -> f64 {
    1.0 + 1e-7 * (crate::rng::mix64(i as u64) >> 11) as f64 / (1u64 << 53) as f64
}

impl Tableau {
    /// The sub-game of `a` (`cols` wide) on matrix rows `rows` and columns `cs`, all slacks
    /// basic.
    pub(super) fn new(a: &[f64], cols: usize, rows: &[usize], cs: &[usize], shift: f64) -> Tableau {
        let (m, n) = (rows.len(), cs.len());
        let w = n + 2;
        let mut t = vec![0.0f64; (m + 1) * w];
        for (i, &r) in rows.iter().enumerate() {
            for (j, &c) in cs.iter().enumerate() {
                t[i * w + j] = a[r * cols + c] + shift;
            }
            t[i * w + n] = perturbed(r);
            t[i * w + n + 1] = 1.0;
        }
        for j in 0..n {
            t[m * w + j] = -1.0;
        }
        let batch = Batch::new(&t, (m, n), BATCH);
        let mut tab = Tableau {
            t,
            m,
            n,
            basic: rows.iter().map(|&r| SLACK + r).collect(),
            nonbasic: cs.to_vec(),
            norms: Vec::new(),
            shift,
            pivots: 0,
            batch,
        };
        tab.norms = tab.column_norms();
        tab
    }

    fn column_norms(&self) -> Vec<f64> {
        debug_assert!(self.batch.is_empty());
        let w = self.n + 2;
        let mut norms = vec![1.0f64; self.n];
        for i in 0..self.m {
            for (s, x) in norms.iter_mut().zip(&self.t[i * w..i * w + self.n]) {
                *s += x * x;
            }
        }
        norms
    }

    /// Primal simplex to optimality on the perturbed right-hand side: steepest edge; ratio
    /// ties to the largest pivot; after a run of degenerate pivots, Bland's rule (smallest
    /// label) until one gains, which rules out cycling. `None` at the pivot limit or when
    /// precision is lost.
    pub(super) fn primal(&mut self) -> Option<()> {
        let out = self.primal_pivots();
        let w = self.n + 2;
        self.batch.apply(&mut self.t, w, Weights::None);
        out
    }

    fn primal_pivots(&mut self) -> Option<()> {
        debug_assert!(self.batch.is_empty());
        let (m, n) = (self.m, self.n);
        let w = n + 2;
        let limit = 50 * (m + n) + 1000;
        let mut degenerate = 0usize;
        let (mut col, mut row) = (vec![0.0f64; m + 1], vec![0.0f64; w]);
        let mut scratch = vec![0.0f64; n];
        for _ in 0..limit {
            let obj = &self.t[m * w..m * w + n];
            let bland = degenerate > 1000;
            let q = if bland {
                (0..n).filter(|&j| obj[j] < -1e-12).min_by_key(|&j| self.nonbasic[j])
            } else {
                let score = |j: usize| obj[j] * obj[j] / self.norms[j];
                (0..n).filter(|&j| obj[j] < -1e-12).max_by(|&i, &j| score(i).total_cmp(&score(j)))
            };
            let Some(q) = q else { return Some(()) };
            self.batch.column(&self.t, w, q, &mut col);
            col[m] = self.t[m * w + q];
            let mut p: Option<(usize, f64, f64)> = None;
            for (i, &e) in col[..m].iter().enumerate() {
                if e > EPS {
                    let r = self.t[i * w + n] / e;
                    let better = match p {
                        None => true,
                        Some((pi, pr, pe)) => {
                            if r < pr - 1e-12 {
                                true
                            } else if r <= pr + 1e-12 {
                                if bland {
                                    self.basic[i] < self.basic[pi]
                                } else {
                                    e > pe
                                }
                            } else {
                                false
                            }
                        }
                    };
                    if better {
                        p = Some((i, r, e));
                    }
                }
            }
            // Unbounded cannot happen (b > 0 bounds every y); a lost pivot means lost precision.
            let (p, ratio, _) = p?;
            degenerate = if ratio <= 1e-12 { degenerate + 1 } else { 0 };
            self.current_row(p, &mut row);
            self.exchange((p, q), (&col, &mut row), &mut scratch, None);
        }
        None
    }

    /// Dual simplex on a right-hand side from a dual feasible basis (objective row >= 0):
    /// leaving, the infeasible row of largest violation per unit row length (dual steepest
    /// edge); entering, the smallest objective-to-entry ratio among its negative entries (ties:
    /// the smallest label). It keeps the objective row >= 0, so the basis ends optimal. `None`
    /// if a row cannot be fixed (lost precision) or the pivots run out.
    ///
    /// The budget is a few times `m + n`: rows added to a warm optimum can need more pivots
    /// than the tableau has rows and columns, and a budget of about `m + n` sends such an LP
    /// back to a start from its guess.
    pub(super) fn dual(&mut self, rhs: Rhs) -> Option<()> {
        let out = self.dual_pivots(rhs);
        let w = self.n + 2;
        self.batch.apply(&mut self.t, w, Weights::None);
        if out.is_some() && rhs == Rhs::Perturbed {
            self.norms = self.column_norms();
        }
        out
    }

    fn dual_pivots(&mut self, rhs: Rhs) -> Option<()> {
        debug_assert!(self.batch.is_empty());
        let (m, n) = (self.m, self.n);
        let w = n + 2;
        let (rhs, feasible) = match rhs {
            Rhs::Perturbed => (n, 0.0),
            Rhs::True => (n + 1, -1e-13),
        };
        let (mut col, mut row) = (vec![0.0f64; m + 1], vec![0.0f64; w]);
        let mut scratch = vec![0.0f64; m];
        let mut degenerate = 0usize;
        let lengths: Vec<f64> = (0..m).map(|i| 1.0 + squared_length(&self.t[i * w..i * w + n])).collect();
        let mut weights = RowWeights { lengths, rows: Vec::new() };
        for _ in 0..(4 * (m + n) + 1000) {
            // After a run of pivots that leave the objective where it was (ties at reduced
            // cost 0 are common here), Bland's rule: the infeasible row of smallest label.
            let bland = degenerate > 50;
            let worst = if bland {
                let t = &self.t;
                (0..m).filter(|&i| t[i * w + rhs] < feasible).min_by_key(|&i| self.basic[i])
            } else {
                // Dual steepest edge (with the tableau row's length): the most violated per
                // unit length. The most negative row alone takes far more pivots on rows added
                // to a warm optimum, enough to run out of them.
                let (t, lengths) = (&self.t, &weights.lengths);
                let score = |i: usize| t[i * w + rhs] * t[i * w + rhs] / lengths[i];
                (0..m).filter(|&i| t[i * w + rhs] < feasible).max_by(|&a, &b| score(a).total_cmp(&score(b)))
            };
            let Some(p) = worst else { return Some(()) };
            self.current_row(p, &mut row);
            let (t, nonbasic) = (&self.t, &self.nonbasic);
            let q = (0..n).filter(|&j| row[j] < -1e-11).min_by(|&i, &j| {
                let r = |j: usize| t[m * w + j].max(0.0) / -row[j];
                r(i).total_cmp(&r(j)).then(nonbasic[i].cmp(&nonbasic[j]))
            })?;
            self.batch.column(&self.t, w, q, &mut col);
            col[m] = self.t[m * w + q];
            let before = self.t[m * w + rhs];
            self.exchange((p, q), (&col, &mut row), &mut scratch, Some(&mut weights));
            let after = self.t[m * w + rhs];
            degenerate = if (after - before).abs() <= 1e-12 * before.abs().max(1.0) { degenerate + 1 } else { 0 };
        }
        None
    }

    /// Row `p` as it stands (`row`, `n + 2` long): the constraint block through the held
    /// pivots, the right-hand sides as stored.
    fn current_row(&self, p: usize, row: &mut [f64]) {
        let n = self.n;
        let w = n + 2;
        self.batch.row(&self.t, w, p, row);
        row[n..].copy_from_slice(&self.t[p * w + n..(p + 1) * w]);
    }

    /// One exchange pivot on `(p, q)`, given column `q` (`col`, the objective last) and row
    /// `p` (`row`) as they stand: the objective row and the right-hand sides are pivoted at
    /// once, the constraint block gets a held pivot ([`Batch`]; every `BATCH` of them are
    /// applied) and the steepest-edge weights are updated: the dual's `rows`, if given, else
    /// the primal's column `norms`. Steepest edge wants exact weights: left as they were for
    /// the batch, or updated Devex-style, they cost many more pivots.
    fn exchange(
        &mut self,
        (p, q): (usize, usize),
        (col, row): (&[f64], &mut [f64]),
        scratch: &mut [f64],
        mut rows: Option<&mut RowWeights>,
    ) {
        let (m, n) = (self.m, self.n);
        let w = n + 2;
        let inv = 1.0 / row[q];
        // The objective row: a plain exchange pivot.
        let f = col[m] * inv;
        if f != 0.0 {
            for (x, &pr) in self.t[m * w..(m + 1) * w].iter_mut().zip(row.iter()) {
                *x -= f * pr;
            }
            self.t[m * w + q] = -f;
        }
        // The right-hand sides.
        for (i, &e) in col[..m].iter().enumerate() {
            let b = &mut self.t[i * w + n..(i + 1) * w];
            if i == p {
                b[0] = row[n] * inv;
                b[1] = row[n + 1] * inv;
            } else {
                let f = e * inv;
                if f != 0.0 {
                    b[0] -= f * row[n];
                    b[1] -= f * row[n + 1];
                }
            }
        }
        // Exact steepest-edge weights after the pivot (Goldfarb and Reid's update; it needs
        // one read of the block, where applying the pivot would read and write it):
        // a column j ≠ q gets `γ_j − 2 a_j D_j + a_j² γ_q` with `a_j = t_pj / t_pq` and
        // `D_j = Σ_i t_iq t_ij`; a row i ≠ p likewise `δ_i − 2 f_i E_i + f_i² δ_p` with
        // `f_i = t_iq / t_pq`, `E_i = Σ_j t_ij t_pj`. Floored at the pivot's own entry (a weight
        // is at least 1 plus its square); the batch's application recomputes them all.
        match rows.as_deref_mut() {
            Some(rw) => {
                let dp = 1.0 + squared_length(&row[..n]);
                // Every row the pivot changes (a zero in the pivot's column leaves it).
                rw.rows.clear();
                rw.rows.extend((0..m).filter(|&i| i != p && col[i] != 0.0));
                self.batch.row_products(row, &rw.rows, scratch);
                for (&i, &ei) in rw.rows.iter().zip(scratch.iter()) {
                    let f = col[i] * inv;
                    rw.lengths[i] = (rw.lengths[i] - 2.0 * f * ei + f * f * dp).max(1.0 + f * f);
                }
                let own: f64 =
                    row[..n].iter().enumerate().filter(|&(j, _)| j != q).map(|(_, x)| (x * inv) * (x * inv)).sum();
                rw.lengths[p] = 1.0 + own + inv * inv;
            }
            None => {
                let gq = 1.0 + squared_length(&col[..m]);
                self.batch.column_products(&col[..m], scratch);
                for (j, ((s, &x), &dj)) in self.norms.iter_mut().zip(&row[..n]).zip(scratch.iter()).enumerate() {
                    if j != q {
                        let a = x * inv;
                        *s = (*s - 2.0 * a * dj + a * a * gq).max(1.0 + a * a);
                    }
                }
                let own: f64 =
                    col[..m].iter().enumerate().filter(|&(i, _)| i != p).map(|(_, e)| (e * inv) * (e * inv)).sum();
                self.norms[q] = 1.0 + own + inv * inv;
            }
        }
        // The constraint block: `t −= c rᵀ` with c_i = t_iq / t_pq (i ≠ p), c_p = 1 − 1/t_pq,
        // r_j = t_pj (j ≠ q), r_q = t_pq + 1 (batch.rs).
        row[q] += 1.0;
        self.batch.push(|i| if i == p { 1.0 - inv } else { col[i] * inv }, &row[..n]);
        if self.batch.is_full() {
            let weights = match rows {
                Some(rw) => Weights::Rows(&mut rw.lengths),
                None => Weights::Columns(&mut self.norms),
            };
            self.batch.apply(&mut self.t, w, weights);
        }
        self.pivots += 1;
        std::mem::swap(&mut self.basic[p], &mut self.nonbasic[q]);
    }

    /// Keep only the optimum's core, for the next, bigger sub-game: drop the columns of
    /// nonbasic `y`s (at 0, their reduced costs non-negative: the basis stays optimal without
    /// them) and the rows of basic slacks (constraints that do not bind: the other rows never
    /// refer to a basic variable). What is left is square: the basic `y`s by the binding
    /// rows. Returns the sub-game's matrix rows and columns left, sorted. A dropped row or
    /// column that matters again is added back by [`Tableau::extend`], in the current basis.
    pub(super) fn prune(&mut self) -> (Vec<usize>, Vec<usize>) {
        debug_assert!(self.batch.is_empty());
        let (m, n) = (self.m, self.n);
        let w = n + 2;
        let keep_rows: Vec<usize> = (0..m).filter(|&i| self.basic[i] < SLACK).collect();
        let keep_cols: Vec<usize> = (0..n).filter(|&j| self.nonbasic[j] >= SLACK).collect();
        let (m2, n2) = (keep_rows.len(), keep_cols.len());
        let w2 = n2 + 2;
        let mut t2 = vec![0.0f64; (m2 + 1) * w2];
        for (i2, &i) in keep_rows.iter().chain([&m]).enumerate() {
            let (src, dst) = (&self.t[i * w..(i + 1) * w], &mut t2[i2 * w2..(i2 + 1) * w2]);
            for (d, &j) in dst.iter_mut().zip(&keep_cols) {
                *d = src[j];
            }
            dst[n2] = src[n];
            dst[n2 + 1] = src[n + 1];
        }
        self.basic = keep_rows.iter().map(|&i| self.basic[i]).collect();
        self.nonbasic = keep_cols.iter().map(|&j| self.nonbasic[j]).collect();
        (self.t, self.m, self.n) = (t2, m2, n2);
        self.batch = Batch::new(&self.t, (m2, n2), self.batch.limit());
        self.norms = self.column_norms();
        let mut rows: Vec<usize> = self.nonbasic.iter().map(|&l| l - SLACK).collect();
        let mut cols: Vec<usize> = self.basic.clone();
        rows.sort_unstable();
        cols.sort_unstable();
        (rows, cols)
    }

    /// The tableau as bytes (little-endian; the norms are recomputed when read).
    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        debug_assert!(self.batch.is_empty());
        for x in [self.m as u64, self.n as u64, self.shift.to_bits()] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for &l in self.basic.iter().chain(&self.nonbasic) {
            out.extend_from_slice(&(l as u64).to_le_bytes());
        }
        for x in &self.t {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }

    /// A tableau written by [`Tableau::encode`], from the front of `bytes` (advanced past it).
    pub(super) fn decode(bytes: &mut &[u8]) -> Option<Tableau> {
        let mut next = || -> Option<u64> {
            let (head, rest) = bytes.split_first_chunk::<8>()?;
            *bytes = rest;
            Some(u64::from_le_bytes(*head))
        };
        let (m, n, shift) = (next()? as usize, next()? as usize, f64::from_bits(next()?));
        if m > 1 << 24 || n > 1 << 24 {
            return None;
        }
        let basic = (0..m).map(|_| next().map(|l| l as usize)).collect::<Option<Vec<_>>>()?;
        let nonbasic = (0..n).map(|_| next().map(|l| l as usize)).collect::<Option<Vec<_>>>()?;
        let t = (0..(m + 1) * (n + 2)).map(|_| next().map(f64::from_bits)).collect::<Option<Vec<_>>>()?;
        let batch = Batch::new(&t, (m, n), BATCH);
        let mut tab = Tableau { t, m, n, basic, nonbasic, norms: Vec::new(), shift, pivots: 0, batch };
        tab.norms = tab.column_norms();
        Some(tab)
    }

    /// The shift this tableau's entries carry (`b = a + shift`).
    pub(super) fn shift(&self) -> f64 {
        self.shift
    }

    /// Both mixes read off an optimal tableau (after [`Tableau::dual`] on the true
    /// right-hand side), over the sub-game's rows `rows` and columns `cs`, checked against the
    /// matrix `a` (`cols` wide): `None` when they miss the LP's value.
    pub(super) fn solution(&self, a: &[f64], cols: usize, rows: &[usize], cs: &[usize]) -> Option<MatrixSolution> {
        let (m, n) = (self.m, self.n);
        let w = n + 2;
        let t = &self.t;
        let at = |v: &[usize], l: usize| v.binary_search(&l).expect("a label of the sub-game");
        let mut y = vec![0.0; cs.len()];
        for (i, &l) in self.basic.iter().enumerate() {
            if l < SLACK {
                y[at(cs, l)] = t[i * w + n + 1];
            }
        }
        let mut x = vec![0.0; rows.len()];
        for (j, &l) in self.nonbasic.iter().enumerate() {
            if l >= SLACK {
                x[at(rows, l - SLACK)] = t[m * w + j];
            }
        }
        let z = t[m * w + n + 1];
        if !(z.is_finite() && z > 0.0) {
            return None;
        }
        let (x, y) = (normalise(x), normalise(y));
        // What each mix guarantees in the matrix itself: the LP's value lies between.
        let south = cs
            .iter()
            .map(|&c| rows.iter().zip(&x).map(|(&r, &xi)| xi * a[r * cols + c]).sum::<f64>())
            .fold(f64::INFINITY, f64::min);
        let north = rows
            .iter()
            .map(|&r| cs.iter().zip(&y).map(|(&c, &yj)| yj * a[r * cols + c]).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        let value = 1.0 / z - self.shift;
        let scale = 1.0 + self.shift.abs();
        if north - south > 1e-9 * scale || (value - south).abs() > 1e-8 * scale {
            return None;
        }
        Some(MatrixSolution { value: south, column_value: north, x, y })
    }
}

mod extend;
#[cfg(test)]
mod tests;
