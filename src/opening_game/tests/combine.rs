//! `--average-weights optimal`: the weights, the bound they certify and the run around them,
//! checked against LPs over whole enumerated matrices.

use super::def;
use super::run_until;
use crate::matrix_game::solve_matrix_game;
use crate::opening_game::double_oracle::combine::{best_weights, combined_top};
use crate::opening_game::{full_matrix, Quiet, Solver, StopAt, Weights};
use std::path::Path;

/// The best weights over a few score vectors are those of the whole matrix game (K mixes
/// against every choice), found by row generation from a few rows; never worse than uniform.
#[test]
fn best_weights_solve_the_whole_game() {
    // Six score vectors over 2,000 choices, pseudo-random integers in −40..=40 (a fixed LCG).
    let (m, n) = (6, 2000);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let scores: Vec<Vec<f64>> = (0..m)
        .map(|_| {
            (0..n)
                .map(|_| {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((x >> 33) % 81) as f64 - 40.0
                })
                .collect()
        })
        .collect();
    let views: Vec<&[f64]> = scores.iter().map(Vec::as_slice).collect();
    let lambda = best_weights(&views).unwrap();
    assert!((lambda.iter().sum::<f64>() - 1.0).abs() < 1e-12 && lambda.iter().all(|&l| l >= 0.0));
    let bound = combined_top(&views, &lambda, 1)[0].0;
    // The whole game: the choices (rows) maximise, the weights (columns) minimise.
    let mut a = vec![0.0; n * m];
    for c in 0..n {
        for j in 0..m {
            a[c * m + j] = scores[j][c];
        }
    }
    let whole = solve_matrix_game(&a, n, m).unwrap();
    assert!((bound - whole.value).abs() < 1e-9, "{bound} vs {}", whole.value);
    let uniform = combined_top(&views, &vec![1.0 / m as f64; m], 1)[0].0;
    assert!(bound < uniform - 1.0, "the case must reward weighing: {bound} vs {uniform}");
    // Brute force of the combination: the top's value is the largest weighted sum.
    let direct = (0..n).map(|c| (0..m).map(|j| lambda[j] * scores[j][c]).sum::<f64>()).fold(f64::MIN, f64::max);
    assert!((direct - bound).abs() < 1e-9);
}

fn run(dir: &Path, family: &str, average: usize, weights: Weights, iterations: Option<u32>) -> Solver {
    let mut s = Solver::open(def("lockstep", "margin", family), dir).unwrap();
    (s.options.average, s.options.replies, s.options.average_replies, s.options.average_weights) =
        (average, 3, 2, weights);
    run_until(&mut s, StopAt { max_iterations: iterations, seconds: None }, &Quiet).unwrap();
    s
}

/// Iteration 7's average (of the mixes of iterations 4–7, `--average 4`) on a `lockstep` family,
/// evaluated in the enumerated matrix: the logged bound is the best any weights on those four
/// mixes prove (a whole-matrix LP over them), at least the uniform weights' bound; the
/// certificate's mix proves its bound; the run then ends exact at the matrix game's value.
#[test]
fn the_optimal_average_is_the_best_weighted_mix_in_the_matrix() {
    let family = "all:remove=000000**";
    let dir = tempfile::tempdir().unwrap();
    let before = run(dir.path(), family, 4, Weights::Optimal, Some(6)).run.state.recent_south.clone();
    assert_eq!(before.len(), 3);
    let sv = run(dir.path(), family, 4, Weights::Optimal, Some(7));
    let mixes: Vec<&Vec<(u32, f64)>> = before.iter().chain([&sv.run.state.south_strategy]).collect();
    let d = sv.store.def.clone();
    let (ids, n) = (sv.store.ids.clone(), sv.store.ids.len());
    let a = full_matrix(&d, &ids);
    let at = |id: u32| ids.binary_search(&id).unwrap();
    // South's payoff of each mix against each North choice.
    let pay: Vec<Vec<f64>> =
        mixes.iter().map(|m| (0..n).map(|j| m.iter().map(|&(id, w)| w * a[at(id) * n + j]).sum()).collect()).collect();
    // The weights' game: South picks the weights (rows), North a choice (columns).
    let mut g = vec![0.0; 4 * n];
    for (k, p) in pay.iter().enumerate() {
        g[k * n..(k + 1) * n].copy_from_slice(p);
    }
    let best = solve_matrix_game(&g, 4, n).unwrap().value;
    let uniform = (0..n).map(|j| pay.iter().map(|p| p[j] / 4.0).sum::<f64>()).fold(f64::MAX, f64::min);
    let logged = sv.run.state.log[6].average_lower.unwrap();
    assert!((logged - best).abs() < 1e-9, "logged {logged}, best weights {best}");
    assert!(logged >= uniform - 1e-12 && best > uniform + 1e-3, "the case must reward weighing: {best} vs {uniform}");
    // Run on to the end (once the stopped run has let go of the directory): exact at the
    // matrix's value (0, symmetric), and the certificate's mixes (LP mixes or weighted
    // averages) prove their bounds in the matrix.
    drop(sv);
    let sv = run(dir.path(), family, 4, Weights::Optimal, None);
    assert!(sv.exact());
    assert!(solve_matrix_game(&a, n, n).unwrap().value.abs() < 1e-7 && sv.value().abs() < 1e-6);
    let bs = sv.run.state.best_south.as_ref().unwrap();
    for j in 0..n {
        let g: f64 = bs.mix.iter().map(|&(id, w)| w * a[at(id) * n + j]).sum();
        assert!(g >= bs.bound - 1e-9, "column {j}: {g} < {}", bs.bound);
    }
    // Only the recent mixes' score files stay.
    let files = std::fs::read_dir(dir.path().join("mixes")).unwrap().count();
    assert_eq!(files, sv.run.state.recent_south.len());
}

/// A run stopped and resumed, with or without its score files (deleted: the resumed run
/// computes them again from the mixes' vectors), is the uninterrupted run. On a "new machine"
/// (score files and vectors gone) the earlier mixes whose vectors are missing are left out of
/// the first averages instead of swept again: the run differs but ends exact.
#[test]
fn an_optimal_average_run_resumes_to_the_same_run() {
    let family = "all:remove=000000**";
    let whole_dir = tempfile::tempdir().unwrap();
    let whole = run(whole_dir.path(), family, 4, Weights::Optimal, None);
    for (lose_scores, lose_vectors) in [(false, false), (true, false), (true, true)] {
        let dir = tempfile::tempdir().unwrap();
        drop(run(dir.path(), family, 4, Weights::Optimal, Some(5)));
        if lose_scores {
            std::fs::remove_dir_all(dir.path().join("mixes")).unwrap();
        }
        if lose_vectors {
            std::fs::remove_dir_all(dir.path().join("columns")).unwrap();
        }
        let resumed = run(dir.path(), family, 4, Weights::Optimal, None);
        let (r, w) = (&resumed.run.state, &whole.run.state);
        if lose_vectors {
            assert!(resumed.exact() && resumed.value().abs() < 1e-6);
            let sixth = &r.log[5];
            assert!(sixth.average_lower.is_some(), "the new mix alone is still averaged: {sixth:?}");
            continue;
        }
        assert_eq!((&r.south, r.games, r.log.len()), (&w.south, w.games, w.log.len()), "lost scores: {lose_scores}");
        for (x, y) in r.log.iter().zip(&w.log) {
            assert_eq!(x.north_best_response, y.north_best_response);
            let (p, q) = (x.average_lower.unwrap_or(0.0), y.average_lower.unwrap_or(0.0));
            assert!((p - q).abs() < 1e-9, "{x:?} vs {y:?}");
        }
    }
}

/// `--average-weights anchored`: the certified mix is one more mix to weigh, so no iteration's
/// average proves less than the certificate before it (without the anchor some do: the case
/// has teeth); the certificate's mix proves its bound in the enumerated matrix; the run ends
/// exact; a run stopped and resumed with its files is the uninterrupted run, and one that lost
/// its score files (the anchor's cannot be computed again) still ends exact.
#[test]
fn an_anchored_average_never_falls_below_the_certificate() {
    let family = "all:remove=000000**";
    let dir = tempfile::tempdir().unwrap();
    let whole = run(dir.path(), family, 4, Weights::Anchored, None);
    let plain_dir = tempfile::tempdir().unwrap();
    let plain = run(plain_dir.path(), family, 4, Weights::Optimal, None);
    let falls = |s: &Solver| {
        s.run
            .state
            .log
            .windows(2)
            .filter(|w| w[1].average_lower.is_some_and(|a| a < w[0].best_lower.unwrap() - 1e-9))
            .count()
    };
    assert_eq!(falls(&whole), 0);
    assert!(falls(&plain) > 0, "the case must have averages that fall back without the anchor");
    assert!(whole.exact() && whole.value().abs() < 1e-6);
    let (ids, n) = (whole.store.ids.clone(), whole.store.ids.len());
    let a = full_matrix(&whole.store.def, &ids);
    let bs = whole.run.state.best_south.as_ref().unwrap();
    for j in 0..n {
        let g: f64 = bs.mix.iter().map(|&(id, w)| w * a[ids.binary_search(&id).unwrap() * n + j]).sum();
        assert!(g >= bs.bound - 1e-9, "column {j}: {g} < {}", bs.bound);
    }
    // The recent mixes' score files and the certified mix's stay.
    let files = std::fs::read_dir(dir.path().join("mixes")).unwrap().count();
    assert!(files == whole.run.state.recent_south.len() + 1 || files == whole.run.state.recent_south.len(), "{files}");
    for lose_scores in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        drop(run(dir.path(), family, 4, Weights::Anchored, Some(5)));
        if lose_scores {
            std::fs::remove_dir_all(dir.path().join("mixes")).unwrap();
        }
        let resumed = run(dir.path(), family, 4, Weights::Anchored, None);
        assert!(resumed.exact() && resumed.value().abs() < 1e-6);
        if lose_scores {
            continue;
        }
        let (r, w) = (&resumed.run.state, &whole.run.state);
        assert_eq!((&r.south, r.games, r.log.len()), (&w.south, w.games, w.log.len()));
        for (x, y) in r.log.iter().zip(&w.log) {
            assert_eq!(x.north_best_response, y.north_best_response);
            let (p, q) = (x.average_lower.unwrap_or(0.0), y.average_lower.unwrap_or(0.0));
            assert!((p - q).abs() < 1e-9, "{x:?} vs {y:?}");
        }
    }
}
