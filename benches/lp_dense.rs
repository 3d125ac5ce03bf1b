//! The dense simplex (`opening_game::lp::dense_game`) on a 2,000-square skew-symmetric game
//! shaped like the Lukho restricted games (integer payoffs of low rank plus noise, clipped to
//! ±48; many ties): a 32 MB tableau, past the caches, so each pivot's pass is what costs.
//! Each sample asserts the answer: value 0 (the game is symmetric), the mix guarantees it
//! against every column, and its support has the size measured when the bench was written.
//! Figures: results/BENCHMARKS.md ("The restricted game's solvers").

use mancala::opening_game::lp::dense_game;
use mancala::rng::XorShift64Star;

fn main() {
    divan::main();
}

const N: usize = 2000;

/// `a[i][j] = Σ_l f_il g_jl − f_jl g_il` (rank 12) plus noise in {−1, 0, 1}, clipped to ±48.
fn skew_game(seed: u64) -> Vec<f64> {
    let mut rng = XorShift64Star(seed * 2 + 1);
    let k = 12;
    let mut r = || (rng.next_u64() % 7) as f64 - 3.0;
    let f: Vec<f64> = (0..N * k).map(|_| r()).collect();
    let g: Vec<f64> = (0..N * k).map(|_| r()).collect();
    let mut noise = XorShift64Star(seed + 77);
    let mut a = vec![0.0; N * N];
    for i in 0..N {
        for j in i + 1..N {
            let v: f64 = (0..k).map(|l| f[i * k + l] * g[j * k + l] - f[j * k + l] * g[i * k + l]).sum();
            let v = (v + (noise.next_u64() % 3) as f64 - 1.0).clamp(-48.0, 48.0);
            a[i * N + j] = v;
            a[j * N + i] = -v;
        }
    }
    a
}

#[divan::bench(sample_count = 3)]
fn dense_skew_2000(bencher: divan::Bencher) {
    let a = skew_game(5);
    bencher.bench(|| {
        let s = dense_game(&a, N, N).expect("solved");
        assert!(s.value.abs() < 1e-9 && s.north_value.abs() < 1e-9, "{} {}", s.value, s.north_value);
        for j in 0..N {
            assert!((0..N).map(|i| s.x[i] * a[i * N + j]).sum::<f64>() >= -1e-9, "column {j}");
        }
        let support = s.x.iter().filter(|&&w| w > 0.0).count();
        assert_eq!(support, 987);
        support
    });
}
