//! Rows and columns added to a tableau, written in its current basis ([`Tableau::extend`]).
//!
//! Both are matrix products over the tableau: a new column is the slack columns' combination
//! (weighted by the new member's payoffs), a new row the original constraint less the basic
//! `y`s' rows. Computed a column (or row) at a time, the first reads the tableau down its
//! columns, one cache line per entry, a large share of a round's time. Here both run
//! over tiles of the output that sit in cache while the tableau streams past them a row at a
//! time. Every entry still sums its terms in the same order with the same operations
//! (multiply, then add), so the tableau is the same bits as computed one column at a time
//! (test `tiled_extension_is_the_plain_one_bit_for_bit`), on any number of threads.

use super::{perturbed, Tableau, SLACK};
use crate::matrix_game::batch::Batch;
use rayon::prelude::*;

/// Output rows per tile (new columns: tableau rows; new rows: the new rows).
const TILE_ROWS: usize = 16;
/// Output columns per tile: with `TILE_ROWS` a tile is 32 KB of doubles.
const TILE_COLS: usize = 256;

impl Tableau {
    /// Add matrix columns `cs` (new `y`s, nonbasic at 0: the basis stays primal feasible) and
    /// matrix rows `rs` (new constraints, their slacks basic: the objective row is unchanged,
    /// so an optimal basis stays dual feasible), each written in the current basis.
    pub(in super::super) fn extend(&mut self, a: &[f64], cols: usize, cs: &[usize], rs: &[usize]) {
        debug_assert!(self.batch.is_empty());
        let (m, n) = (self.m, self.n);
        let w = n + 2;
        let (n2, m2) = (n + cs.len(), m + rs.len());
        let w2 = n2 + 2;
        let new_cols = self.columns_in_basis(a, cols, cs);
        let mut t2 = vec![0.0f64; (m2 + 1) * w2];
        // Old rows (and the objective, moved to row m2) with the new columns.
        let t = &self.t;
        for (k, k2) in (0..m).map(|k| (k, k)).chain([(m, m2)]) {
            let (src, dst) = (&t[k * w..(k + 1) * w], &mut t2[k2 * w2..(k2 + 1) * w2]);
            dst[..n].copy_from_slice(&src[..n]);
            dst[n..n2].copy_from_slice(&new_cols[k * cs.len()..(k + 1) * cs.len()]);
            dst[n2] = src[n];
            dst[n2 + 1] = src[n + 1];
        }
        let mut nonbasic = self.nonbasic.clone();
        nonbasic.extend_from_slice(cs);
        self.rows_in_basis(a, cols, rs, &nonbasic, &mut t2[..m2 * w2]);
        self.adopt(t2, rs, nonbasic);
    }

    /// Take the extended tableau `t2`: the rows `rs` added (their slacks basic) and the
    /// columns `nonbasic` (the old ones, then the new `y`s).
    pub(super) fn adopt(&mut self, t2: Vec<f64>, rs: &[usize], nonbasic: Vec<usize>) {
        let (m2, n2) = (self.m + rs.len(), nonbasic.len());
        debug_assert_eq!(t2.len(), (m2 + 1) * (n2 + 2));
        self.t = t2;
        self.m = m2;
        self.n = n2;
        self.basic.extend(rs.iter().map(|&r| SLACK + r));
        self.nonbasic = nonbasic;
        self.batch = Batch::new(&self.t, (m2, n2), self.batch.limit());
        self.norms = self.column_norms();
    }

    /// The matrix columns `cs` in the current basis, row-major (`(m + 1) × cs.len()`, the
    /// objective last): the row operations so far applied to the original column (`a + shift`
    /// in the constraint rows, −1 in the objective). The full tableau's column of a matrix
    /// row's slack is the stored column if the slack is nonbasic, else its row's unit column,
    /// so entry `(k, j)` is `Σ_s t[k][col of s] · b_sj` over the nonbasic slacks `s`, in their
    /// column order, plus `b_rj` where row `k` is row `r`'s basic slack.
    fn columns_in_basis(&self, a: &[f64], cols: usize, cs: &[usize]) -> Vec<f64> {
        let (m, w, c) = (self.m, self.n + 2, cs.len());
        let mut out = vec![0.0f64; (m + 1) * c];
        if c == 0 {
            return out;
        }
        out[m * c..].iter_mut().for_each(|x| *x = -1.0);
        let slack_col: Vec<(usize, usize)> =
            self.nonbasic.iter().enumerate().filter(|&(_, &l)| l >= SLACK).map(|(j, &l)| (l - SLACK, j)).collect();
        // `b[s][j]`: new column j's entry in nonbasic slack s's matrix row.
        let b: Vec<f64> =
            slack_col.iter().flat_map(|&(r, _)| cs.iter().map(move |&j| a[r * cols + j] + self.shift)).collect();
        let t = &self.t;
        out.par_chunks_mut(TILE_ROWS * c).enumerate().for_each(|(tile, rows)| {
            let k0 = tile * TILE_ROWS;
            for j0 in (0..c).step_by(TILE_COLS) {
                let j1 = (j0 + TILE_COLS).min(c);
                for (s, &(_, sc)) in slack_col.iter().enumerate() {
                    let bs = &b[s * c + j0..s * c + j1];
                    for (kk, row) in rows.chunks_exact_mut(c).enumerate() {
                        let x = t[(k0 + kk) * w + sc];
                        for (o, &y) in row[j0..j1].iter_mut().zip(bs) {
                            *o += x * y;
                        }
                    }
                }
            }
        });
        for (k, &l) in self.basic.iter().enumerate() {
            if l >= SLACK {
                let r = l - SLACK;
                for (o, &j) in out[k * c..(k + 1) * c].iter_mut().zip(cs) {
                    *o += a[r * cols + j] + self.shift;
                }
            }
        }
        out
    }

    /// Write the matrix rows `rs` in the current basis into `t2` after its first `self.m` rows (the
    /// old ones, already `w2` wide with the new columns): each the original constraint over
    /// the columns `nonbasic` (a nonbasic slack's entry is 0), with every basic `y`
    /// substituted by its row, in the basic rows' order.
    fn rows_in_basis(&self, a: &[f64], cols: usize, rs: &[usize], nonbasic: &[usize], t2: &mut [f64]) {
        let n2 = nonbasic.len();
        let w2 = n2 + 2;
        let (above, below) = t2.split_at_mut(self.m * w2);
        let basic_y: Vec<(usize, usize)> =
            self.basic.iter().enumerate().filter(|&(_, &l)| l < SLACK).map(|(k, &l)| (l, k)).collect();
        below.par_chunks_mut(TILE_ROWS * w2).enumerate().for_each(|(tile, rows)| {
            let new = &rs[tile * TILE_ROWS..(tile * TILE_ROWS + rows.len() / w2)];
            for (row, &r) in rows.chunks_exact_mut(w2).zip(new) {
                for (x, &l) in row.iter_mut().zip(nonbasic) {
                    if l < SLACK {
                        *x = a[r * cols + l] + self.shift;
                    }
                }
                row[n2] = perturbed(r);
                row[n2 + 1] = 1.0;
            }
            // `b[i][y]`: new row i's entry in basic `y`'s column.
            let b: Vec<f64> =
                new.iter().flat_map(|&r| basic_y.iter().map(move |&(y, _)| a[r * cols + y] + self.shift)).collect();
            let ys = basic_y.len();
            for j0 in (0..w2).step_by(TILE_COLS) {
                let j1 = (j0 + TILE_COLS).min(w2);
                for (yi, &(_, k)) in basic_y.iter().enumerate() {
                    let src = &above[k * w2 + j0..k * w2 + j1];
                    for (i, row) in rows.chunks_exact_mut(w2).enumerate() {
                        let f = b[i * ys + yi];
                        for (x, &s) in row[j0..j1].iter_mut().zip(src) {
                            *x -= f * s;
                        }
                    }
                }
            }
        });
    }
}

impl Tableau {
    /// The same basis written afresh from the matrix `a` (`cols` wide): the sub-game's
    /// tableau with every slack basic, then each basic `y` pivoted in (Gauss–Jordan, on the
    /// largest entry among the rows whose slack leaves). Each pivot adds its rounding to the
    /// tableau, and a warm start carries them into the next LP: over a long chain of warm
    /// starts they reach the answer's check. Written afresh, only the rebuild's own pivots'
    /// rounding is left.
    pub(in super::super) fn rebuilt(&self, a: &[f64], cols: usize) -> Tableau {
        debug_assert!(self.batch.is_empty());
        let labels = || self.basic.iter().chain(&self.nonbasic);
        let mut rows: Vec<usize> = labels().filter(|&&l| l >= SLACK).map(|&l| l - SLACK).collect();
        let mut cs: Vec<usize> = labels().copied().filter(|&l| l < SLACK).collect();
        rows.sort_unstable();
        cs.sort_unstable();
        let mut tab = Tableau::new(a, cols, &rows, &cs, self.shift);
        let (m, n) = (tab.m, tab.n);
        let w = n + 2;
        let mut leaves = vec![false; m];
        let at = |l: usize| rows.binary_search(&l).expect("a row of the sub-game");
        for &l in &self.nonbasic {
            if l >= SLACK {
                leaves[at(l - SLACK)] = true;
            }
        }
        let (mut col, mut row, mut scratch) = (vec![0.0f64; m + 1], vec![0.0f64; w], vec![0.0f64; n]);
        for &y in self.basic.iter().filter(|&&l| l < SLACK) {
            let q = cs.binary_search(&y).expect("a column of the sub-game");
            tab.batch.column(&tab.t, w, q, &mut col);
            col[m] = tab.t[m * w + q];
            let p = (0..m)
                .filter(|&i| tab.basic[i] >= SLACK && leaves[at(tab.basic[i] - SLACK)])
                .max_by(|&i, &j| col[i].abs().total_cmp(&col[j].abs()).then(j.cmp(&i)))
                .expect("a basis has a row for each basic y");
            tab.current_row(p, &mut row);
            tab.exchange((p, q), (&col, &mut row), &mut scratch, None);
        }
        tab.batch.apply(&mut tab.t, w, crate::matrix_game::batch::Weights::None);
        tab.norms = tab.column_norms();
        tab.pivots = self.pivots;
        tab
    }
}
