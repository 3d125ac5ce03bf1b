//! Tests of the dense exchange tableau (`tableau.rs`): its sums, batched pivots, and rows and
//! columns added to a solved tableau.

use super::*;

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
        let d = super::super::dense_game(&a, rows, cols).unwrap();
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

/// Not a test: the tiled and the plain extension timed on a run's carried optimum
/// (`MANCALA_EXTEND_PROBE=LP MANCALA_EXTEND_PROBE_WARM=WARM`, an `lp_replay` dump and a run's
/// `DIR/lp/*.warm`), adding `MANCALA_EXTEND_PROBE_ADD` (740 by default) members outside its
/// core as columns, then as rows: `cargo test --release --lib extend_probe -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn extend_probe() {
    let (Some(lp), Some(warm)) =
        (std::env::var_os("MANCALA_EXTEND_PROBE"), std::env::var_os("MANCALA_EXTEND_PROBE_WARM"))
    else {
        return;
    };
    let add: usize = std::env::var("MANCALA_EXTEND_PROBE_ADD").map_or(740, |v| v.parse().unwrap());
    let super::super::Dump { rows, cols, a, .. } = super::super::Dump::read(lp);
    let warm = super::super::Warm::from_bytes(&std::fs::read(warm).unwrap()).unwrap();
    let (r, c) = (warm.r.clone(), warm.c.clone());
    let more_c: Vec<usize> = (0..cols).filter(|j| c.binary_search(j).is_err()).take(add).collect();
    let more_r: Vec<usize> = (0..rows).filter(|i| r.binary_search(i).is_err()).take(add).collect();
    let mut out = Vec::new();
    for plain in [false, true] {
        let mut tab = warm.tab.clone();
        let t = std::time::Instant::now();
        if plain {
            tab.extend_plain(&a, cols, &more_c, &[]);
        } else {
            tab.extend(&a, cols, &more_c, &[]);
        }
        let t1 = t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        if plain {
            tab.extend_plain(&a, cols, &[], &more_r);
        } else {
            tab.extend(&a, cols, &[], &more_r);
        }
        let t2 = t.elapsed().as_secs_f64();
        eprintln!(
            "{} {}x{} + {add}: columns {t1:.2} s, rows {t2:.2} s",
            if plain { "plain" } else { "tiled" },
            r.len(),
            c.len()
        );
        out.push(tab.t.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    }
    assert!(out[0] == out[1]);
}

/// Not a test: does a carried optimum that keeps the members nearest to binding, not only its
/// core, save the next LP pivots? From `MANCALA_KEEP_PROBE_WARM` (a run's `DIR/lp/*.warm`) and
/// the next LP (`MANCALA_KEEP_PROBE`, an `lp_replay` dump whose first members are the warm
/// one's), for each K in `MANCALA_KEEP_PROBE_K` (default `0,1200`): the K non-core members
/// whose columns come nearest to the old optimum's value are added back (rows and columns; the
/// basis stays optimal), then the LP is solved (`MANCALA_LP_TRACE=1` for its rounds).
#[test]
#[ignore]
fn keep_probe() {
    let (Some(lp), Some(warm)) = (std::env::var_os("MANCALA_KEEP_PROBE"), std::env::var_os("MANCALA_KEEP_PROBE_WARM"))
    else {
        return;
    };
    let ks: Vec<usize> = std::env::var("MANCALA_KEEP_PROBE_K")
        .unwrap_or("0,1200".into())
        .split(',')
        .map(|k| k.parse().unwrap())
        .collect();
    let super::super::Dump { rows, cols, rows0, cols0, a } = super::super::Dump::read(lp);
    let warm = super::super::Warm::from_bytes(&std::fs::read(warm).unwrap()).unwrap();
    let old = warm.cols;
    assert_eq!(warm.rows, old);
    let a_old: Vec<f64> = (0..old).flat_map(|i| a[i * cols..i * cols + old].iter().copied()).collect();
    let ((v, x), _) = super::super::maximiser_warm(&a_old, old, old, &[], &[], Some(warm.clone())).unwrap();
    let g: Vec<f64> = (0..old).map(|j| (0..old).map(|i| x[i] * a_old[i * old + j]).sum()).collect();
    let mut near: Vec<usize> = (0..old).filter(|j| warm.c.binary_search(j).is_err()).collect();
    near.sort_by(|&i, &j| g[i].total_cmp(&g[j]).then(i.cmp(&j)));
    eprintln!("old {old} members, value {v:.3e}, core {}x{}", warm.r.len(), warm.c.len());
    for k in ks {
        let mut keep: Vec<usize> = near[..k.min(near.len())].to_vec();
        keep.sort_unstable();
        let mut w = warm.clone();
        w.tab.extend(&a, cols, &keep, &[]);
        w.tab.primal().unwrap();
        w.tab.extend(&a, cols, &[], &keep);
        w.tab.dual(Rhs::Perturbed).unwrap();
        let settle = w.tab.pivots;
        w.tab.pivots = 0;
        let (mut r, mut c) = (w.r.clone(), w.c.clone());
        r.extend(&keep);
        c.extend(&keep);
        r.sort_unstable();
        c.sort_unstable();
        let gap = if k == 0 { 0.0 } else { g[near[k.min(near.len()) - 1]] - v };
        let w = super::super::Warm { r, c, ..w };
        let t = std::time::Instant::now();
        let ((v, x), next) = super::super::maximiser_warm(&a, rows, cols, &rows0, &cols0, Some(w)).unwrap();
        let support = x.iter().filter(|&&p| p > 0.0).count();
        let pivots = next.map_or(0, |n| n.tab.pivots);
        eprintln!(
            "keep {k} (slack up to {gap:.3e}, {settle} pivots to settle): value {v:.3e}, support {support}, {pivots} pivots, {:.1} s",
            t.elapsed().as_secs_f64()
        );
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
