//! Two-player zero-sum matrix games: the optimal mixed strategies of both players and the
//! game's value.
//!
//! # The problem
//!
//! A matrix game is a payoff matrix `a` (`rows × cols`, row-major, `f64`): the row player picks
//! a row `i`, the column player a column `j`, and the column player pays the row player
//! `a[i * cols + j]`. The row player maximises, the column player minimises. A *mix* is a
//! probability distribution over a player's strategies (`x` over the rows, `y` over the
//! columns). By the minimax theorem there is one value `v` and mixes `x*`, `y*` with
//!
//! ```text
//! min_j Σ_i x*_i a_ij = v = max_i Σ_j a_ij y*_j
//! ```
//!
//! so `x*` guarantees the row player at least `v` whatever the column player does, and `y*`
//! concedes at most `v`. Each player's optimal mix is one linear program:
//!
//! ```text
//! rows:    max v  s.t.  Σ_i x_i a_ij >= v  for every column j,  Σ x_i = 1,  x >= 0
//! columns: min w  s.t.  Σ_j a_ij y_j <= w  for every row i,     Σ y_j = 1,  y >= 0
//! ```
//!
//! For any two mixes, `max_i (a y)_i − min_j (xᵀ a)_j >= 0` is their *duality gap*: the most
//! either player could gain by deviating. It is 0 exactly at an optimum, and it bounds how far
//! an approximate mix's guarantee lies from the value.
//!
//! A *maximiser* solve answers one player's LP: the row player's guarantee and mix. The column
//! player's is the maximiser of `−aᵀ` ([`solve_matrix_game`] does both; a symmetric game,
//! `a = −aᵀ`, needs one, [`solve_symmetric_game`]).
//!
//! # The methods, and when each is used
//!
//! - **The dense exchange simplex** ([`dense_game`], its tableau in `tableau`, its pivots
//!   batched in `batch`): exact up to floating-point rounding, both mixes from one solve.
//!   Payoff matrices are dense, so a dense pivot (one vectorised pass over the tableau) beats a
//!   sparse factorisation's bookkeeping. The answer is checked against the matrix (the two
//!   mixes' guarantees within `1e-9` of each other, relative to the payoffs' range); a solve
//!   that fails its check, or hits the pivot limit, gives up.
//! - **`microlp`** ([`maximiser_microlp`], a sparse revised simplex): the fallback when the
//!   dense simplex gives up. It meets every constraint within `1e-7` (absolute). [`maximiser`]
//!   is the dense simplex with this fallback.
//! - **Constraint generation** ([`maximiser_from`], [`maximiser_warm`]): for a big game whose
//!   optimal supports are small and roughly known (the restricted games of a double-oracle
//!   run). It solves the sub-game on guessed rows and columns, adds every row and column that
//!   beats the sub-game's value against its mixes, and goes on from the last round's optimal
//!   tableau until none does. The optimum it ends at ([`Warm`], storable as bytes) can start
//!   the next LP of a game that grew by appended rows and columns: a *warm start*.
//! - **Regret matching⁺** ([`maximiser_regret`]): an approximate solve to a given duality
//!   gap, each step two passes over the matrix. For games so big that the simplex's exact
//!   vertex costs far more than a caller needs, when the caller certifies the mix's guarantee
//!   another way. It returns the mix's own guarantee (exact for the mix returned), at most the
//!   value and within 1.5 times the gap of it.
//!
//! [`maximiser_with`] picks among them by its [`SolveOptions`].
//!
//! A game and its guessed supports go to and from bytes as a [`GameDump`] (the file of
//! `mancala lukho equilibrium --dump-lp`), so other solvers can be measured on the same games
//! (`benches/lp_highs.rs`).
//!
//! # Options
//!
//! [`SolveOptions`] holds what a caller may choose:
//!
//! - `gap`: 0 solves exactly (constraint generation over the simplex, `microlp` behind);
//!   above 0, regret matching⁺ to that duality gap (no optimum to carry).
//! - `warm_start`: whether a carried [`Warm`] optimum that fits starts the LP (on by default);
//!   off, every LP starts from its guess, for comparing the two.
//! - `trace`: where progress lines go (a line per start and round of constraint generation,
//!   pivots and seconds; one per regret-matching⁺ solve), e.g. [`stderr_trace`]; `None` (the
//!   default) is silent.
//!
//! Nothing else steers a solve: the same matrix, guess, carried optimum and options give the
//! same bits on any machine and any number of threads.
//!
//! # Accuracy
//!
//! Arithmetic is `f64`, so `v` agrees with the game's value to about `1e-9` (dense simplex) or
//! `1e-7` (`microlp`), in the matrix's units. The mixes come back clamped to `>= 0` and
//! renormalised to sum 1, so they are always genuine mixed strategies; a caller that needs a
//! proven bound evaluates them against the matrix.

mod batch;
mod dense;
mod dump;
mod options;
mod regret;
mod solution;
mod tableau;
#[cfg(test)]
mod tests;
mod warm;

pub use dense::{dense_game, maximiser, maximiser_microlp, solve_matrix_game, solve_symmetric_game};
pub use dump::GameDump;
pub use options::{stderr_trace, SolveOptions, Trace};
pub use regret::maximiser_regret;
pub use solution::{LpError, MatrixSolution, Solved};
pub use warm::{maximiser_from, maximiser_warm, Warm};

/// The maximiser's LP (rows of `a`, `rows × cols`, row-major) as `opts` asks: with
/// `opts.gap > 0` by regret matching⁺ to that gap (nothing carried), else exactly by
/// [`maximiser_warm`] from `warm` or the guessed supports `guess` (rows, columns). Returns his
/// guarantee and mix, and the optimum to carry to the next LP.
pub fn maximiser_with(
    a: &[f64],
    rows: usize,
    cols: usize,
    guess: (&[usize], &[usize]),
    warm: Option<Warm>,
    opts: &SolveOptions,
) -> Result<(Solved, Option<Warm>), LpError> {
    if opts.gap > 0.0 {
        return Ok((maximiser_regret(a, rows, cols, opts.gap, opts), None));
    }
    maximiser_warm(a, rows, cols, guess, warm, opts)
}
