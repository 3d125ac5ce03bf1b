//! A matrix game solved approximately by regret matching⁺ (alternating updates, linearly
//! weighted averages): each step costs two passes over the matrix, and the averaged mixes'
//! duality gap falls roughly as 1/steps. Exactness is not the point: where a caller certifies
//! the mix another way (a double-oracle run evaluates it against the whole game), a mix within
//! a small gap of the optimum may serve where the simplex's exact vertex costs tens of
//! thousands of pivots.

use super::options::SolveOptions;
use rayon::prelude::*;

/// Steps at most: far beyond what the gaps in use need, a guard against a gap too small for
/// single precision.
const MAX_STEPS: usize = 100_000;

/// The maximiser's (rows of `a`, `rows × cols`, row-major) guarantee and mix, within
/// 1.5 `eps` of the game's value ([`regret_steps`]). A line to `opts.trace` per solve (the
/// other options are not read: the gap is `eps`).
pub fn maximiser_regret(a: &[f64], rows: usize, cols: usize, eps: f64, opts: &SolveOptions) -> (f64, Vec<f64>) {
    let t = std::time::Instant::now();
    let (value, x, steps) = regret_steps(a, rows, cols, eps, MAX_STEPS);
    opts.trace(format_args!(
        "rm+: {rows}x{cols}, gap {eps}: {steps} steps, value {value:.6}, support {}, {:.1} s",
        x.iter().filter(|&&w| w > 0.0).count(),
        t.elapsed().as_secs_f64()
    ));
    (value, x)
}

/// The maximiser's mix after regret matching⁺ ran until the averaged mixes' duality gap
/// (computed in single precision) is at most `eps` or `max_steps` steps, cut to its heaviest
/// members at a loss of at most `eps / 2` ([`heaviest`]); the value the mix guarantees (min
/// over the columns, in f64: exact for the mix returned), and the steps.
/// Deterministic: the same matrix gives the same bits on any number of threads.
pub(super) fn regret_steps(a: &[f64], rows: usize, cols: usize, eps: f64, max_steps: usize) -> (f64, Vec<f64>, usize) {
    let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
    let (mut rx, mut ry) = (vec![0.0f64; rows], vec![0.0f64; cols]);
    let (mut x, mut y) = (vec![1.0 / rows as f64; rows], vec![1.0 / cols as f64; cols]);
    let (mut xs, mut ys) = (vec![0.0f64; rows], vec![0.0f64; cols]);
    let mut steps = 0;
    for t in 1..=max_steps {
        steps = t;
        let u = row_values(&a32, cols, &y);
        let ev: f64 = x.iter().zip(&u).map(|(p, v)| p * v).sum();
        rx.iter_mut().zip(&u).for_each(|(r, v)| *r = (*r + v - ev).max(0.0));
        normalise_into(&rx, &mut x);
        let g = col_values(&a32, rows, cols, &x);
        let ev: f64 = y.iter().zip(&g).map(|(p, v)| p * v).sum();
        ry.iter_mut().zip(&g).for_each(|(r, v)| *r = (*r + ev - v).max(0.0));
        normalise_into(&ry, &mut y);
        let w = t as f64;
        xs.iter_mut().zip(&x).for_each(|(s, p)| *s += w * p);
        ys.iter_mut().zip(&y).for_each(|(s, p)| *s += w * p);
        if t % 20 == 0 && gap(&a32, rows, cols, &xs, &ys) <= eps {
            break;
        }
    }
    let total: f64 = xs.iter().sum();
    xs.iter_mut().for_each(|s| *s /= total);
    let (value, xs) = heaviest(a, rows, cols, xs, eps / 2.0);
    (value, xs, steps)
}

/// The mix `x` cut to as few of its heaviest members (renormalised) as guarantee at most
/// `loss` less than the whole mix, found by bisection on their number (each candidate's
/// guarantee exact, in f64), and that guarantee. The averaged mix spreads over most rows,
/// while a few of its heaviest members guarantee nearly as much, and a caller may pay per
/// member of a mix (a double-oracle run sweeps each member's payoffs over its whole family).
fn heaviest(a: &[f64], rows: usize, cols: usize, x: Vec<f64>, loss: f64) -> (f64, Vec<f64>) {
    let guarantee = |z: &[f64]| col_values_f64(a, rows, cols, z).into_iter().fold(f64::INFINITY, f64::min);
    let mut order: Vec<usize> = (0..rows).filter(|&i| x[i] > 0.0).collect();
    order.sort_by(|&i, &j| x[j].total_cmp(&x[i]).then(i.cmp(&j)));
    let cut = |k: usize| {
        let mut z = vec![0.0; rows];
        order[..k].iter().for_each(|&i| z[i] = x[i]);
        let total: f64 = z.iter().sum();
        z.iter_mut().for_each(|w| *w /= total);
        z
    };
    let floor = guarantee(&x) - loss;
    // The whole mix passes; find the fewest members that still do.
    let (mut lo, mut hi) = (1, order.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        if guarantee(&cut(mid)) >= floor {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let z = cut(hi);
    (guarantee(&z), z)
}

fn normalise_into(r: &[f64], p: &mut [f64]) {
    let s: f64 = r.iter().sum();
    if s > 0.0 {
        p.iter_mut().zip(r).for_each(|(p, r)| *p = r / s);
    } else {
        let u = 1.0 / p.len() as f64;
        p.iter_mut().for_each(|p| *p = u);
    }
}

/// `a y` (each row's payoff against `y`), rows in parallel.
fn row_values(a: &[f32], cols: usize, y: &[f64]) -> Vec<f64> {
    let y32: Vec<f32> = y.iter().map(|&v| v as f32).collect();
    a.par_chunks_exact(cols).map(|row| dot(row, &y32) as f64).collect()
}

/// Sixteen partial sums, so that the compiler may vectorise (a single running sum is one
/// chain of dependent additions it may not reorder).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 16];
    let (ca, cb) = (a.chunks_exact(16), b.chunks_exact(16));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..16 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// `xᵀ a` (each column's payoff against `x`): column blocks in parallel, each summed over the
/// rows in order (the same bits whatever the thread count).
fn col_values(a: &[f32], rows: usize, cols: usize, x: &[f64]) -> Vec<f64> {
    const BLOCK: usize = 1024;
    let mut g = vec![0.0f32; cols];
    g.par_chunks_mut(BLOCK).enumerate().for_each(|(b, g)| {
        let c0 = b * BLOCK;
        for i in 0..rows {
            let w = x[i] as f32;
            if w != 0.0 {
                let row = &a[i * cols + c0..i * cols + c0 + g.len()];
                g.iter_mut().zip(row).for_each(|(g, a)| *g += w * a);
            }
        }
    });
    g.into_iter().map(f64::from).collect()
}

fn col_values_f64(a: &[f64], rows: usize, cols: usize, x: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0f64; cols];
    for i in 0..rows {
        if x[i] != 0.0 {
            g.iter_mut().zip(&a[i * cols..(i + 1) * cols]).for_each(|(g, a)| *g += x[i] * a);
        }
    }
    g
}

/// The duality gap of the (unnormalised) sums `xs`, `ys`: the best row against ȳ minus the
/// best column against x̄.
fn gap(a: &[f32], rows: usize, cols: usize, xs: &[f64], ys: &[f64]) -> f64 {
    let (sx, sy): (f64, f64) = (xs.iter().sum(), ys.iter().sum());
    let xb: Vec<f64> = xs.iter().map(|v| v / sx).collect();
    let yb: Vec<f64> = ys.iter().map(|v| v / sy).collect();
    let hi = row_values(a, cols, &yb).into_iter().fold(f64::NEG_INFINITY, f64::max);
    let lo = col_values(a, rows, cols, &xb).into_iter().fold(f64::INFINITY, f64::min);
    hi - lo
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rock–paper–scissors (value 0, the uniform mix) and a 2×2 game worked by hand: rows
    /// (2, 0; 0, 1), where x = (1/3, 2/3) makes both columns pay 2/3.
    #[test]
    fn regret_matching_finds_small_games_values() {
        let rps = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
        let (v, x, _) = regret_steps(&rps, 3, 3, 1e-4, 100_000);
        assert!(v.abs() < 1e-3 && x.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-2), "{v} {x:?}");
        let (v, x, _) = regret_steps(&[2.0, 0.0, 0.0, 1.0], 2, 2, 1e-5, 100_000);
        assert!((v - 2.0 / 3.0).abs() < 1e-3 && (x[0] - 1.0 / 3.0).abs() < 1e-2, "{v} {x:?}");
    }

    /// Random games, square and not, skew-symmetric (value 0) among them: the guarantee
    /// returned is the mix's own (recomputed here), at most the simplex's value and within
    /// the gap asked of it; the bits are the same on one thread as on two.
    #[test]
    fn regret_matching_is_within_its_gap_of_the_simplex() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % 41) as f64 - 20.0
        };
        for (case, (rows, cols, skew)) in
            [(30, 30, true), (40, 25, false), (200, 200, true), (60, 1500, false)].into_iter().enumerate()
        {
            let mut a: Vec<f64> = (0..rows * cols).map(|_| next()).collect();
            if skew {
                for i in 0..rows {
                    a[i * cols + i] = 0.0;
                    for j in 0..i {
                        a[j * cols + i] = -a[i * cols + j];
                    }
                }
            }
            let exact = crate::matrix_game::solve_matrix_game(&a, rows, cols).unwrap().value;
            let eps = 0.05;
            let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
            let opts = SolveOptions::default();
            let (v, x) = pool(2).install(|| maximiser_regret(&a, rows, cols, eps, &opts));
            let (v1, x1) = pool(1).install(|| maximiser_regret(&a, rows, cols, eps, &opts));
            assert!(
                v.to_bits() == v1.to_bits() && x.iter().zip(&x1).all(|(p, q)| p.to_bits() == q.to_bits()),
                "case {case}"
            );
            let own =
                (0..cols).map(|j| (0..rows).map(|i| x[i] * a[i * cols + j]).sum::<f64>()).fold(f64::INFINITY, f64::min);
            assert!((own - v).abs() < 1e-9, "case {case}: {own} vs {v}");
            // The duality gap bounds the averaged mix's distance (in single precision);
            // the cut to the heaviest members adds at most half of it.
            assert!(v <= exact + 1e-9 && v >= exact - 1.5 * eps - 1e-4, "case {case}: {v} vs {exact}");
            assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-12 && x.iter().all(|&p| p >= 0.0), "case {case}");
            if skew {
                assert!(exact.abs() < 1e-9, "case {case}");
            }
        }
    }
}
