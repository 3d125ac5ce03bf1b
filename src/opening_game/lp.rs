//! Two-player zero-sum matrix games solved by linear programming (the `microlp` simplex).
//!
//! The row player (South) maximises, the column player (North) minimises. Each player's
//! optimal mixed strategy is one LP:
//!
//! ```text
//! South: max v  s.t.  Σ_i x_i a_ij >= v  for every column j,  Σ x_i = 1,  x >= 0
//! North: min w  s.t.  Σ_j a_ij y_j <= w  for every row i,     Σ y_j = 1,  y >= 0
//! ```
//!
//! Arithmetic is f64: microlp meets every constraint within 1e-7 (absolute), so `v` and `w`
//! agree with the game's value to about that, in the matrix's units. The strategies come
//! back clamped to `>= 0` and renormalised to sum 1, so they are always genuine mixed
//! strategies; callers that need a proven bound evaluate them (see `equilibrium`).

use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// The solution of a matrix game.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixSolution {
    /// South's LP value (what his `x` guarantees against every column, up to the tolerance).
    pub value: f64,
    /// North's LP value (what his `y` concedes at most, up to the tolerance).
    pub north_value: f64,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("LP solver: {0}")]
pub struct LpError(pub String);

/// Weights clamped to non-negative and scaled to sum 1.
fn normalise(mut w: Vec<f64>) -> Vec<f64> {
    for v in w.iter_mut() {
        // NaN, zero and negatives all become 0.
        if v.is_nan() || *v <= 0.0 {
            *v = 0.0;
        }
    }
    let s: f64 = w.iter().sum();
    if s > 0.0 {
        for v in w.iter_mut() {
            *v /= s;
        }
    } else {
        let n = w.len() as f64;
        w.iter_mut().for_each(|v| *v = 1.0 / n);
    }
    w
}

/// One side's LP: the maximiser over the rows of `a` (`rows × cols`, row-major): his value and
/// optimal mix.
pub fn maximiser(a: &[f64], rows: usize, cols: usize) -> Result<(f64, Vec<f64>), LpError> {
    let mut p = Problem::new(OptimizationDirection::Maximize);
    let x: Vec<_> = (0..rows).map(|_| p.add_var(0.0, (0.0, f64::INFINITY))).collect();
    let v = p.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
    for j in 0..cols {
        let mut e: Vec<_> = (0..rows).filter(|&i| a[i * cols + j] != 0.0).map(|i| (x[i], a[i * cols + j])).collect();
        e.push((v, -1.0));
        p.add_constraint(e.as_slice(), ComparisonOp::Ge, 0.0);
    }
    let ones: Vec<_> = x.iter().map(|&xi| (xi, 1.0)).collect();
    p.add_constraint(ones.as_slice(), ComparisonOp::Eq, 1.0);
    let sol =
        p.solve().map_err(|e| LpError(e.to_string()))?.into_solution().map_err(|_| LpError("interrupted".into()))?;
    Ok((sol.var_value(v), normalise(x.iter().map(|&xi| sol.var_value(xi)).collect())))
}

/// Solve the game with payoff matrix `a` (`rows × cols`, row-major, South's payoff).
pub fn solve_matrix_game(a: &[f64], rows: usize, cols: usize) -> Result<MatrixSolution, LpError> {
    assert_eq!(a.len(), rows * cols);
    assert!(rows > 0 && cols > 0, "a matrix game needs a strategy on each side");
    let (value, x) = maximiser(a, rows, cols)?;
    // North maximises −aᵀ.
    let mut t = vec![0.0; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            t[j * rows + i] = -a[i * cols + j];
        }
    }
    let (nv, y) = maximiser(&t, cols, rows)?;
    Ok(MatrixSolution { value, north_value: -nv, x, y })
}

/// A symmetric game (`a = −aᵀ`, square): value 0, and South's optimal mix is North's too,
/// so one LP suffices.
pub fn solve_symmetric_game(a: &[f64], n: usize) -> Result<MatrixSolution, LpError> {
    assert_eq!(a.len(), n * n);
    let (value, x) = maximiser(a, n, n)?;
    Ok(MatrixSolution { value, north_value: value, y: x.clone(), x })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_pennies_and_rock_paper_scissors() {
        let s = solve_matrix_game(&[1.0, -1.0, -1.0, 1.0], 2, 2).unwrap();
        assert!(s.value.abs() < 1e-9 && s.north_value.abs() < 1e-9);
        assert!((s.x[0] - 0.5).abs() < 1e-9 && (s.y[1] - 0.5).abs() < 1e-9);
        let rps = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
        let s = solve_matrix_game(&rps, 3, 3).unwrap();
        for w in s.x.iter().chain(&s.y) {
            assert!((w - 1.0 / 3.0).abs() < 1e-9);
        }
    }

    #[test]
    fn saddle_point_and_rectangular() {
        // Rows: [3, 1], [4, 2], [0, 5]. South's best mix of rows 2 and 3 against columns:
        // x(2, -3)·… value = 20/7 with x = (0, 5/7, 2/7), y = (3/7, 4/7).
        let a = [3.0, 1.0, 4.0, 2.0, 0.0, 5.0];
        let s = solve_matrix_game(&a, 3, 2).unwrap();
        assert!((s.value - 20.0 / 7.0).abs() < 1e-7, "{s:?}");
        assert!((s.north_value - 20.0 / 7.0).abs() < 1e-7);
        assert!((s.y[0] - 3.0 / 7.0).abs() < 1e-7);
        // A pure saddle: row 1 col 0.
        let s = solve_matrix_game(&[1.0, 0.0, 2.0, 3.0], 2, 2).unwrap();
        assert!((s.value - 2.0).abs() < 1e-9 && (s.x[1] - 1.0).abs() < 1e-9 && (s.y[0] - 1.0).abs() < 1e-9);
    }
}
