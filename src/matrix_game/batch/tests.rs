//! Tests of held pivots and of the shadow's products.

use super::*;

/// Shadow entries: bfloat16 rounded to nearest, ties to even, within half a unit of the
/// eighth mantissa bit; exact where eight bits suffice; infinities and NaN kept.
#[test]
fn shadow_entries_round_to_nearest_bfloat16() {
    for x in [0.0, -0.0, 1.0, -2.5, 96.0, 0.75, 2f64.powi(100), -3.0 * 2f64.powi(-70)] {
        assert_eq!(f64::from(long(short(x))).to_bits(), x.to_bits(), "{x}");
    }
    // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties to the even 1; 1 + 3·2^-8 to 1 + 2^-6.
    assert_eq!(f64::from(long(short(1.0 + 1.0 / 256.0))), 1.0);
    assert_eq!(f64::from(long(short(1.0 + 3.0 / 256.0))), 1.0 + 4.0 / 256.0);
    assert_eq!(f64::from(long(short(1.0 + 1.5 / 256.0))), 1.0 + 2.0 / 256.0);
    assert_eq!(f64::from(long(short(f64::INFINITY))), f64::INFINITY);
    assert!(f64::from(long(short(f64::NAN))).is_nan());
    let mut rng = crate::rng::XorShift64Star(9);
    for _ in 0..10_000 {
        let x = ((rng.next_u64() % 2_000_001) as f64 - 1e6) / 997.0;
        assert!((f64::from(long(short(x))) - x).abs() <= x.abs() / 256.0, "{x}");
    }
}

/// Entries read through held pivots are the entries applying them stores, bit for bit,
/// at every count of held pivots (the four-at-a-time pass and the tail alike), and the
/// weights recomputed in the pass are the rows' and columns' squared lengths.
#[test]
fn reads_through_held_pivots_are_what_applying_stores() {
    let mut rng = crate::rng::XorShift64Star(5);
    let mut val = || (rng.next_u64() % 2001) as f64 / 1000.0 - 1.0;
    let (m, n) = (23, 37);
    let w = n + 2;
    for held in 0..=BATCH {
        let mut t: Vec<f64> = (0..(m + 1) * w).map(|_| val()).collect();
        let mut b = Batch::new(&t, (m, n), BATCH);
        for _ in 0..held {
            let c: Vec<f64> = (0..m).map(|_| val()).collect();
            let r: Vec<f64> = (0..n).map(|_| val()).collect();
            b.push(|i| c[i], &r);
        }
        let cols: Vec<Vec<f64>> = (0..n)
            .map(|q| {
                let mut out = vec![0.0; m];
                b.column(&t, w, q, &mut out);
                out
            })
            .collect();
        let rows: Vec<Vec<f64>> = (0..m)
            .map(|p| {
                let mut out = vec![0.0; n];
                b.row(&t, w, p, &mut out);
                out
            })
            .collect();
        let mut norms = vec![0.0; n];
        b.apply(&mut t, w, Weights::Columns(&mut norms));
        assert!(b.is_empty());
        for i in 0..m {
            for j in 0..n {
                let stored = t[i * w + j];
                assert_eq!(stored.to_bits(), cols[j][i].to_bits(), "held {held}: column {j} row {i}");
                assert_eq!(stored.to_bits(), rows[i][j].to_bits(), "held {held}: row {i} column {j}");
            }
        }
        for (j, s) in norms.iter().enumerate() {
            let plain = 1.0 + (0..m).map(|i| t[i * w + j] * t[i * w + j]).sum::<f64>();
            assert!((s - plain).abs() <= 1e-12 * plain, "held {held}: norm {j}");
        }
        let mut lengths = vec![0.0; m];
        b.apply(&mut t, w, Weights::Rows(&mut lengths));
        for (i, s) in lengths.iter().enumerate() {
            let plain = 1.0 + (0..n).map(|j| t[i * w + j] * t[i * w + j]).sum::<f64>();
            assert!((s - plain).abs() <= 1e-12 * plain, "held {held}: length {i}");
        }
    }
}

/// The steepest-edge products (short entries, single-precision sums, the held pivots in
/// double) are the exact products through the held pivots to within the entries' rounding:
/// `|error| <= 2^-7 Σ |x| |factor|` (bfloat16 is within 2^-9 of each stored entry).
#[test]
fn products_are_the_exact_ones_to_the_shadows_rounding() {
    let mut rng = crate::rng::XorShift64Star(11);
    let mut val = || ((rng.next_u64() % 2001) as f64 / 1000.0 - 1.0) * 37.0;
    let (m, n) = (70, 150);
    let w = n + 2;
    let t: Vec<f64> = (0..(m + 1) * w).map(|_| val()).collect();
    let mut b = Batch::new(&t, (m, n), BATCH);
    let stored = |i: usize, j: usize| t[i * w + j];
    let mut held = Vec::new();
    for _ in 0..5 {
        let c: Vec<f64> = (0..m).map(|_| val() / 37.0).collect();
        let r: Vec<f64> = (0..n).map(|_| val()).collect();
        b.push(|i| c[i], &r);
        held.push((c, r));
    }
    let now = |i: usize, j: usize| stored(i, j) - held.iter().map(|(c, r)| c[i] * r[j]).sum::<f64>();
    let rho: Vec<f64> = (0..n).map(|_| val()).collect();
    let alpha: Vec<f64> = (0..m).map(|_| val()).collect();
    let rows: Vec<usize> = (0..m).step_by(3).collect();
    let mut out = vec![0.0; rows.len()];
    b.row_products(&rho, &rows, &mut out);
    for (&i, &e) in rows.iter().zip(&out) {
        let exact: f64 = (0..n).map(|j| now(i, j) * rho[j]).sum();
        let scale: f64 = (0..n).map(|j| (stored(i, j) * rho[j]).abs()).sum();
        assert!((e - exact).abs() <= scale / 128.0, "row {i}: {e} against {exact}");
    }
    let mut out = vec![0.0; n];
    b.column_products(&alpha, &mut out);
    for (j, &d) in out.iter().enumerate() {
        let exact: f64 = (0..m).map(|i| alpha[i] * now(i, j)).sum();
        let scale: f64 = (0..m).map(|i| (alpha[i] * stored(i, j)).abs()).sum();
        assert!((d - exact).abs() <= scale / 128.0, "column {j}: {d} against {exact}");
    }
}
