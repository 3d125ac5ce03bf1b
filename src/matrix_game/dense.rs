//! Matrix games solved exactly from scratch: the dense exchange simplex over the whole
//! matrix, with `microlp` behind it should the simplex give up.

use super::solution::{normalise, LpError, MatrixSolution};
use super::tableau::{Rhs, Tableau};
use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// One side's LP: the maximiser over the rows of `a` (`rows × cols`, row-major): his value and
/// optimal mix. The dense exchange simplex ([`dense_game`]) answers first; should it give up
/// (pivot limit, lost precision), `microlp` solves the same LP.
pub fn maximiser(a: &[f64], rows: usize, cols: usize) -> Result<(f64, Vec<f64>), LpError> {
    match dense_game(a, rows, cols) {
        Some(s) => Ok((s.value, s.x)),
        None => maximiser_microlp(a, rows, cols),
    }
}

/// The maximiser's LP by `microlp` (a sparse revised simplex, solved from scratch).
pub fn maximiser_microlp(a: &[f64], rows: usize, cols: usize) -> Result<(f64, Vec<f64>), LpError> {
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

/// A matrix game by the exchange (Tucker tableau) simplex on the dense `rows × cols` tableau:
/// both mixes from one solve. Payoff matrices are dense, so a dense pivot (one pass over the
/// tableau, vectorised) beats a sparse LU's bookkeeping by far.
///
/// With `b = a − min(a) + 1 > 0` the column player's LP is `max Σ y  s.t.  b y <= 1, y >= 0`
/// (its optimum `z = 1 / value(b)`), the row player's is its dual `min Σ u  s.t.  bᵀ u >= 1`,
/// read off the final objective row. Entering column: steepest edge (the largest reduced cost
/// per unit length of its tableau column, which on payoff matrices takes fewer pivots than
/// Dantzig's rule); ratio tests on a slightly perturbed right-hand side (degenerate ties
/// broken), the true one pivoted alongside; after a run of degenerate pivots, Bland's rule
/// (smallest label) until one gains, which rules out cycling. `None` when the pivot limit is hit or the answer fails its own check
/// (then a caller solves it another way).
pub fn dense_game(a: &[f64], rows: usize, cols: usize) -> Option<MatrixSolution> {
    assert_eq!(a.len(), rows * cols);
    assert!(rows > 0 && cols > 0, "a matrix game needs a strategy on each side");
    let shift = 1.0 - a.iter().copied().fold(f64::INFINITY, f64::min);
    let (r, c): (Vec<usize>, Vec<usize>) = ((0..rows).collect(), (0..cols).collect());
    let mut tab = Tableau::new(a, cols, &r, &c, shift);
    tab.primal()?;
    tab.dual(Rhs::True)?;
    tab.solution(a, cols, &r, &c)
}

/// Solve the game with payoff matrix `a` (`rows × cols`, row-major, the row player's
/// payoff): one [`maximiser`] LP per player.
pub fn solve_matrix_game(a: &[f64], rows: usize, cols: usize) -> Result<MatrixSolution, LpError> {
    assert_eq!(a.len(), rows * cols);
    assert!(rows > 0 && cols > 0, "a matrix game needs a strategy on each side");
    let (value, x) = maximiser(a, rows, cols)?;
    // The column player maximises −aᵀ.
    let mut t = vec![0.0; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            t[j * rows + i] = -a[i * cols + j];
        }
    }
    let (nv, y) = maximiser(&t, cols, rows)?;
    Ok(MatrixSolution { value, column_value: -nv, x, y })
}

/// A symmetric game (`a = −aᵀ`, square): value 0, and the row player's optimal mix is the
/// column player's too, so one LP suffices.
pub fn solve_symmetric_game(a: &[f64], n: usize) -> Result<MatrixSolution, LpError> {
    assert_eq!(a.len(), n * n);
    let (value, x) = maximiser(a, n, n)?;
    Ok(MatrixSolution { value, column_value: value, y: x.clone(), x })
}
