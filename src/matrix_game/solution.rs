//! What a solve answers: the mixes and values of a matrix game, and the error when no method
//! solves it.

/// The solution of a matrix game.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixSolution {
    /// The row player's LP value (what his `x` guarantees against every column, up to the
    /// tolerance).
    pub value: f64,
    /// The column player's LP value (what his `y` concedes at most, up to the tolerance).
    pub column_value: f64,
    /// The row player's mix, one weight per row (non-negative, summing to 1).
    pub x: Vec<f64>,
    /// The column player's mix, one weight per column.
    pub y: Vec<f64>,
}

/// A maximiser's LP answer: his guarantee and his mix.
pub type Solved = (f64, Vec<f64>);

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("LP solver: {0}")]
pub struct LpError(pub String);

/// Weights clamped to non-negative and scaled to sum 1.
pub(super) fn normalise(mut w: Vec<f64>) -> Vec<f64> {
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
