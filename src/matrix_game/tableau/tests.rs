//! Tests of the dense exchange tableau (`tableau.rs`): its sums, batched pivots, and rows and
//! columns added to a solved tableau.

use super::*;

impl Tableau {
    /// Apply each pivot at once (`limit` 1) or hold up to `limit` (the tests compare the two).
    fn hold_at_most(&mut self, limit: usize) {
        debug_assert!(self.batch.is_empty());
        self.batch = Batch::new(&self.t, (self.m, self.n), limit);
    }

    /// [`Tableau::extend`] a column and a row at a time, as it was written first: the
    /// reference the tiled one must equal bit for bit.
    fn extend_plain(&mut self, a: &[f64], cols: usize, cs: &[usize], rs: &[usize]) {
        let (m, n) = (self.m, self.n);
        let w = n + 2;
        let (n2, m2) = (n + cs.len(), m + rs.len());
        let w2 = n2 + 2;
        let t = &self.t;
        let slack_col: Vec<(usize, usize)> =
            self.nonbasic.iter().enumerate().filter(|&(_, &l)| l >= SLACK).map(|(c, &l)| (l - SLACK, c)).collect();
        let slack_row: Vec<(usize, usize)> =
            self.basic.iter().enumerate().filter(|&(_, &l)| l >= SLACK).map(|(k, &l)| (l - SLACK, k)).collect();
        let mut new_cols = vec![0.0f64; (m + 1) * cs.len()];
        for (jj, &c) in cs.iter().enumerate() {
            let col = &mut new_cols[jj * (m + 1)..(jj + 1) * (m + 1)];
            col[m] = -1.0;
            for &(r, sc) in &slack_col {
                let b = a[r * cols + c] + self.shift;
                for (k, x) in col.iter_mut().enumerate() {
                    *x += t[k * w + sc] * b;
                }
            }
            for &(r, k) in &slack_row {
                col[k] += a[r * cols + c] + self.shift;
            }
        }
        let mut t2 = vec![0.0f64; (m2 + 1) * w2];
        for (k, k2) in (0..m).map(|k| (k, k)).chain([(m, m2)]) {
            let (src, dst) = (&t[k * w..(k + 1) * w], &mut t2[k2 * w2..(k2 + 1) * w2]);
            dst[..n].copy_from_slice(&src[..n]);
            for jj in 0..cs.len() {
                dst[n + jj] = new_cols[jj * (m + 1) + k];
            }
            dst[n2] = src[n];
            dst[n2 + 1] = src[n + 1];
        }
        let mut nonbasic = self.nonbasic.clone();
        nonbasic.extend_from_slice(cs);
        let basic_y: Vec<(usize, usize)> =
            self.basic.iter().enumerate().filter(|&(_, &l)| l < SLACK).map(|(k, &l)| (l, k)).collect();
        for (ii, &r) in rs.iter().enumerate() {
            let (above, below) = t2.split_at_mut((m + ii) * w2);
            let row = &mut below[..w2];
            for (c2, &l) in nonbasic.iter().enumerate() {
                if l < SLACK {
                    row[c2] = a[r * cols + l] + self.shift;
                }
            }
            row[n2] = perturbed(r);
            row[n2 + 1] = 1.0;
            for &(y, k) in &basic_y {
                let b = a[r * cols + y] + self.shift;
                for (x, &s) in row.iter_mut().zip(&above[k * w2..(k + 1) * w2]) {
                    *x -= b * s;
                }
            }
        }
        self.adopt(t2, rs, nonbasic);
    }
}

/// The interleaved sum is the sum: rows of every length up to two chunks and a tail.
#[test]
fn squared_length_is_the_sum_of_squares() {
    for len in 0..20 {
        let row: Vec<f64> = (0..len).map(|i| i as f64 - 7.5).collect();
        let plain: f64 = row.iter().map(|x| x * x).sum();
        assert_eq!(squared_length(&row), plain, "length {len}");
    }
}

/// Pivots held in batches solve the same games as pivots applied one at a time: the
/// same value (0 for the skew games, the shared one otherwise), and the mixes read off
/// guarantee it, on games small and big enough to apply in halves, with rows and columns
/// added to a solved tableau as the restricted LP's rounds do.
#[test]
fn held_pivots_solve_what_single_pivots_solve() {
    let mut rng = crate::rng::XorShift64Star(11);
    for case in 0..60 {
        // Every 20th big enough to apply in halves (release builds only: slow unoptimised).
        let big = case % 20 == 19;
        let (rows, cols) =
            if big { (1030, 1030) } else { (5 + (rng.next_u64() % 60) as usize, 5 + (rng.next_u64() % 60) as usize) };
        if big && cfg!(debug_assertions) {
            continue;
        }
        let a: Vec<f64> = (0..rows * cols).map(|_| (rng.next_u64() % 13) as f64 - 6.0).collect();
        let shift = 1.0 - a.iter().copied().fold(f64::INFINITY, f64::min);
        let (r, c): (Vec<usize>, Vec<usize>) = ((0..rows).collect(), (0..cols).collect());
        let (r0, c0): (Vec<usize>, Vec<usize>) = ((0..rows).step_by(2).collect(), (0..cols).step_by(2).collect());
        let solve = |limit: usize| {
            let mut tab = Tableau::new(&a, cols, &r0, &c0, shift);
            tab.hold_at_most(limit);
            tab.primal().unwrap();
            let (more_r, more_c): (Vec<usize>, Vec<usize>) =
                ((1..rows).step_by(2).collect(), (1..cols).step_by(2).collect());
            tab.extend(&a, cols, &more_c, &[]);
            tab.hold_at_most(limit);
            tab.primal().unwrap();
            tab.extend(&a, cols, &[], &more_r);
            tab.hold_at_most(limit);
            tab.dual(Rhs::Perturbed).unwrap();
            tab.primal().unwrap();
            tab.dual(Rhs::True).unwrap();
            (tab.solution(&a, cols, &r, &c).unwrap_or_else(|| panic!("case {case} limit {limit}")), tab.pivots)
        };
        let ((one, p1), (held, ph)) = (solve(1), solve(BATCH));
        assert!((one.value - held.value).abs() < 1e-9, "case {case}: {} vs {}", one.value, held.value);
        for s in [&one, &held] {
            for j in 0..cols {
                assert!((0..rows).map(|i| s.x[i] * a[i * cols + j]).sum::<f64>() >= s.value - 1e-9, "case {case}");
            }
        }
        assert!(p1 > 0 && ph > 0);
    }
}

/// Rows and columns added to a solved tableau give the same value as the bigger sub-game
/// solved from scratch.
#[test]
fn extended_tableau_solves_the_bigger_game() {
    let mut rng = crate::rng::XorShift64Star(3);
    for case in 0..200 {
        let (rows, cols) = (4 + (rng.next_u64() % 30) as usize, 4 + (rng.next_u64() % 30) as usize);
        let a: Vec<f64> = (0..rows * cols).map(|_| (rng.next_u64() % 9) as f64 - 4.0).collect();
        let shift = 1.0 - a.iter().copied().fold(f64::INFINITY, f64::min);
        let r0: Vec<usize> = (0..rows).filter(|i| i % 2 == 0).collect();
        let c0: Vec<usize> = (0..cols).filter(|j| j % 3 != 1).collect();
        let mut tab = Tableau::new(&a, cols, &r0, &c0, shift);
        tab.primal().unwrap();
        let more_c: Vec<usize> = (0..cols).filter(|j| j % 3 == 1).collect();
        let more_r: Vec<usize> = (0..rows).filter(|i| i % 2 == 1).collect();
        tab.extend(&a, cols, &more_c, &[]);
        tab.primal().unwrap();
        tab.extend(&a, cols, &[], &more_r);
        tab.dual(Rhs::Perturbed).unwrap_or_else(|| panic!("case {case}: dual"));
        tab.primal().unwrap();
        tab.dual(Rhs::True).unwrap();
        let (r, c): (Vec<usize>, Vec<usize>) = ((0..rows).collect(), (0..cols).collect());
        let s = tab.solution(&a, cols, &r, &c).unwrap_or_else(|| panic!("case {case}: check"));
        let d = crate::matrix_game::dense_game(&a, rows, cols).unwrap();
        assert!((s.value - d.value).abs() < 1e-9, "case {case}: {} vs {}", s.value, d.value);
    }
}

/// The tiled extension ([`Tableau::extend`]) is the column-at-a-time one bit for bit: on
/// solved tableaux (so slacks are basic and nonbasic in both places), rows and columns added
/// together and apart, across several tiles of output rows and columns.
#[test]
fn tiled_extension_is_the_plain_one_bit_for_bit() {
    let mut rng = crate::rng::XorShift64Star(5);
    let big = if cfg!(debug_assertions) { 120 } else { 600 };
    for (case, size) in [9, 40, 77, big].into_iter().enumerate() {
        let a: Vec<f64> = (0..size * size).map(|_| (rng.next_u64() % 17) as f64 - 8.0 + 0.25).collect();
        let shift = 1.0 - a.iter().copied().fold(f64::INFINITY, f64::min);
        let r0: Vec<usize> = (0..size).filter(|i| i % 3 != 2).collect();
        let c0: Vec<usize> = (0..size).filter(|j| j % 2 == 0).collect();
        let mut tab = Tableau::new(&a, size, &r0, &c0, shift);
        tab.primal().unwrap();
        let more_r: Vec<usize> = (0..size).filter(|i| i % 3 == 2).collect();
        let more_c: Vec<usize> = (0..size).filter(|j| j % 2 == 1).collect();
        let split = more_c.len() / 2;
        let bits =
            |t: &Tableau| (t.t.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), t.basic.clone(), t.nonbasic.clone());
        // Together.
        let (mut tiled, mut plain) = (tab.clone(), tab.clone());
        tiled.extend(&a, size, &more_c, &more_r);
        plain.extend_plain(&a, size, &more_c, &more_r);
        assert!(bits(&tiled) == bits(&plain), "case {case}: rows and columns together");
        // Apart, after more pivots, as the LP's rounds add them.
        let (mut tiled, mut plain) = (tab.clone(), tab);
        tiled.extend(&a, size, &more_c[..split], &[]);
        plain.extend_plain(&a, size, &more_c[..split], &[]);
        assert!(bits(&tiled) == bits(&plain), "case {case}: columns");
        tiled.primal().unwrap();
        plain.primal().unwrap();
        tiled.extend(&a, size, &more_c[split..], &[]);
        plain.extend_plain(&a, size, &more_c[split..], &[]);
        tiled.primal().unwrap();
        plain.primal().unwrap();
        tiled.extend(&a, size, &[], &more_r);
        plain.extend_plain(&a, size, &[], &more_r);
        assert!(bits(&tiled) == bits(&plain), "case {case}: then rows");
        tiled.dual(Rhs::Perturbed).unwrap();
        assert!(tiled.pivots > 0, "case {case}: the added rows are pivoted on");
    }
}

/// A tableau written afresh for its basis ([`Tableau::rebuilt`]) is the tableau: the same
/// basic and nonbasic labels, every entry (right-hand sides and objective row included) the
/// same to rounding, on solved tableaux with basic slacks, nonbasic `y`s and added rows.
#[test]
fn a_rebuilt_tableau_is_the_same_basis() {
    let mut rng = crate::rng::XorShift64Star(13);
    for case in 0..40 {
        let (rows, cols) = (5 + (rng.next_u64() % 50) as usize, 5 + (rng.next_u64() % 50) as usize);
        let a: Vec<f64> = (0..rows * cols).map(|_| (rng.next_u64() % 11) as f64 - 5.0 + 0.5).collect();
        let shift = 1.0 - a.iter().copied().fold(f64::INFINITY, f64::min);
        let r0: Vec<usize> = (0..rows).filter(|i| i % 2 == 0).collect();
        let c0: Vec<usize> = (0..cols).collect();
        let mut tab = Tableau::new(&a, cols, &r0, &c0, shift);
        tab.primal().unwrap();
        tab.extend(&a, cols, &[], &(0..rows).filter(|i| i % 2 == 1).collect::<Vec<_>>());
        tab.dual(Rhs::Perturbed).unwrap();
        tab.primal().unwrap();
        let fresh = tab.rebuilt(&a, cols);
        let (m, n) = (tab.m, tab.n);
        assert_eq!((fresh.m, fresh.n), (m, n), "case {case}");
        let w = n + 2;
        let row_of = |t: &Tableau, l: usize| t.basic.iter().position(|&x| x == l);
        let col_of = |t: &Tableau, l: usize| t.nonbasic.iter().position(|&x| x == l).unwrap();
        let near = |x: f64, y: f64| (x - y).abs() <= 1e-9 * (1.0 + x.abs());
        for (i, &bl) in tab.basic.iter().enumerate() {
            let fi = row_of(&fresh, bl).unwrap_or_else(|| panic!("case {case}: label {bl} basic in both"));
            for (j, &nl) in tab.nonbasic.iter().enumerate() {
                let fj = col_of(&fresh, nl);
                assert!(near(tab.t[i * w + j], fresh.t[fi * w + fj]), "case {case}: entry ({bl}, {nl})");
            }
            for k in [n, n + 1] {
                assert!(near(tab.t[i * w + k], fresh.t[fi * w + k]), "case {case}: right-hand side of {bl}");
            }
        }
        for (j, &nl) in tab.nonbasic.iter().enumerate() {
            assert!(near(tab.t[m * w + j], fresh.t[m * w + col_of(&fresh, nl)]), "case {case}: objective at {nl}");
        }
        assert!(near(tab.t[m * w + n + 1], fresh.t[m * w + n + 1]), "case {case}: objective value");
    }
}
