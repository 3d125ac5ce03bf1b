//! The dense simplex of `matrix_game` on skew-symmetric games shaped like the Lukho restricted
//! games (integer payoffs of low rank plus noise, clipped to ±48; many ties).
//!
//! - `dense_skew_2000`: one 2,000-square game solved from scratch ([`dense_game`]): a 32 MB
//!   tableau, past the caches, so each pivot's pass is what costs.
//! - `growing_chain`: a double-oracle-like chain of LPs ([`maximiser_warm`]) over the leading
//!   sub-games of one 1,024-square game, 512 to 1,024 members, 64 more each time; with the warm
//!   start each LP goes on from the last one's optimum, without it each starts from its guess.
//!
//! Each sample asserts the answer: value 0 (the games are symmetric), the mix guarantees it
//! against every column, and (for the 2,000-square game) its support has the size measured
//! when the bench was written. Figures: results/BENCHMARKS.md ("The restricted game's
//! solvers").

use mancala::matrix_game::{dense_game, maximiser_warm, SolveOptions};
use mancala::rng::XorShift64Star;

fn main() {
    divan::main();
}

/// An `n`-square game: `a[i][j] = Σ_l f_il g_jl − f_jl g_il` (rank `k`) plus noise in
/// {−1, 0, 1}, clipped to ±48.
fn skew_game(seed: u64, n: usize, k: usize) -> Vec<f64> {
    let mut rng = XorShift64Star(seed * 2 + 1);
    let mut r = || (rng.next_u64() % 7) as f64 - 3.0;
    let f: Vec<f64> = (0..n * k).map(|_| r()).collect();
    let g: Vec<f64> = (0..n * k).map(|_| r()).collect();
    let mut noise = XorShift64Star(seed + 77);
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let v: f64 = (0..k).map(|l| f[i * k + l] * g[j * k + l] - f[j * k + l] * g[i * k + l]).sum();
            let v = (v + (noise.next_u64() % 3) as f64 - 1.0).clamp(-48.0, 48.0);
            a[i * n + j] = v;
            a[j * n + i] = -v;
        }
    }
    a
}

/// `x` guarantees `value` against every column of the `n`-square `a`.
fn guarantees(a: &[f64], n: usize, x: &[f64], value: f64) -> bool {
    (0..n).all(|j| (0..n).map(|i| x[i] * a[i * n + j]).sum::<f64>() >= value - 1e-9)
}

#[divan::bench(sample_count = 3)]
fn dense_skew_2000(bencher: divan::Bencher) {
    const N: usize = 2000;
    let a = skew_game(5, N, 12);
    bencher.bench(|| {
        let s = dense_game(&a, N, N).expect("solved");
        assert!(s.value.abs() < 1e-9 && s.column_value.abs() < 1e-9, "{} {}", s.value, s.column_value);
        assert!(guarantees(&a, N, &s.x, 0.0));
        let support = s.x.iter().filter(|&&w| w > 0.0).count();
        assert_eq!(support, 987);
        support
    });
}

#[divan::bench(sample_count = 3, args = [true, false])]
fn growing_chain(bencher: divan::Bencher, warm_start: bool) {
    const N: usize = 1024;
    let a = skew_game(5, N, 6);
    let sub = |k: usize| -> Vec<f64> { (0..k).flat_map(|i| a[i * N..i * N + k].to_vec()).collect() };
    let games: Vec<(usize, Vec<f64>)> = (N / 2..=N).step_by(64).map(|k| (k, sub(k))).collect();
    let opts = SolveOptions { warm_start, ..SolveOptions::default() };
    bencher.bench(|| {
        let mut warm = None;
        for (k, m) in &games {
            let k = *k;
            let guess: Vec<usize> = (0..k).step_by(5).collect();
            let ((v, x), w) = maximiser_warm(m, k, k, (&guess, &guess), warm.take(), &opts).expect("solved");
            assert!(v.abs() < 1e-9, "size {k}: value {v}");
            assert!(guarantees(m, k, &x, v), "size {k}");
            warm = w;
        }
    });
}
