//! The Lukho opening as a simultaneous zero-sum game, solved by DOUBLE ORACLE with an
//! exploitability certificate (docs/equilibrium.md, `mancala lukho equilibrium`).
//!
//! Each player picks one choice of the family (all 6,356,992 by default); the payoff to South
//! is the mean over the race outcomes of the model (equal weights; one outcome when it is
//! fixed) of `margin` (South − North seeds), `result` (+1/0/−1) or `points` (match points of a
//! first game, South's minus North's).
//!
//! Double oracle keeps restricted sets `S` (South) and `N` (North), solves the restricted
//! matrix game by LP ([`crate::matrix_game`]), then computes each player's best response to the
//! other's mixed strategy over the WHOLE family and adds it, until neither gains:
//!
//! - `upper` = max over all South choices of the payoff against North's mix `y`,
//! - `lower` = min over all North choices of the payoff of South's mix `x`,
//!
//! so the game's value lies in `[lower, upper]` whatever the LP's rounding (the mixes are
//! genuine strategies and the bounds are evaluated directly). Every iteration's bounds are
//! certified that way, so the run's certificate is the best `lower` and the best `upper` seen
//! in any iteration, each kept with the mix that proves it; converged (`exact`) means that
//! certificate's `upper − lower <= TOLERANCE`.
//!
//! Work: every payoff is an integer (half-seeds for `margin`, summed over the race outcomes). The
//! restricted LP's entries (members × members) are read from a swept vector of either member when
//! there is one, else played pairwise and kept in memory. A best response to a mix is a weighted
//! sum of its support's payoff vectors over the whole family, as `i8` where every entry fits
//! (one-outcome margins, results, points) else `i16` ([`vectors::Width`]): the *column* `A(·, n)` of
//! each North member in the mix, the *row* `A(s, ·)` of each South member. A member's vector costs
//! one sweep of `|family| × outcomes` games (the sweep's per-pair evaluation,
//! [`crate::sweep::play::play_pair`]), made the first time the member has weight in a mix whose
//! best reply is computed: members that never do (about two thirds of the full game's sets) are
//! never swept. Vectors are saved next to the state, so a resumed run sweeps none again (it plays
//! again the LP's pairs that no saved vector holds: at most |S|·|N| games, seconds). When the
//! model's outcomes come in mirrored pairs (`sequential`, `lockstep`) the game is symmetric,
//! `A(s, n) = −A(n, s)`, its value is 0, and a row is the negated column of the same choice: one
//! vector serves both players. There the restricted sets stay equal (`S = N`), South's optimal mix is
//! North's too, and North's best reply mirrors South's, so an iteration costs one sweep.
//!
//! The files, from the bottom up (each imports only from those before it, and the errors here):
//! `payoff` (the game), `options` (the run's settings, checked), `vectors` (a vector's entries
//! and files), `pass` (one best-reply pass), `state` (the run's state, its file and records),
//! `observer` (progress), `store` (the vectors of a run, their files and budget),
//! `double_oracle` (the loop that owns the store, the state and the restricted games), then the
//! reports over a run: `answer` and `replies`.

mod answer;
mod double_oracle;
mod observer;
mod options;
mod pass;
mod payoff;
pub mod replies;
mod state;
mod store;
#[cfg(test)]
mod tests;
mod vectors;

pub use answer::{Answer, BestBound, Certificate, Exploit, ExploitReport, MixEntry, MixExploit, Named, ANSWER_FILE};
pub use double_oracle::{Solver, TOLERANCE};
pub use observer::{Observer, Quiet};
pub use options::{Options, StopAt, Weights, MAX_AVERAGE, MAX_REPLIES};
pub use payoff::{full_matrix, OpeningGame, Payoff, PayoffError};
pub use state::{read_state, write_state, Certified, IterRecord, State, STATE_FILE, STATE_FORMAT, STATE_MAGIC};
pub use vectors::VectorFiles;

use crate::matrix_game::LpError;
use crate::sweep::InputError;
use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum EqError {
    /// Bad input, naming the field.
    #[error("{0}")]
    Input(#[from] InputError),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{0}")]
    Lp(#[from] LpError),
    /// Another run is writing the directory.
    #[error("{0}")]
    Lock(#[from] crate::store::LockError),
}

impl EqError {
    pub(crate) fn state(path: &Path, what: impl std::fmt::Display) -> EqError {
        let message = format!("{}: {what}; use another --out or delete it to start afresh", path.display());
        EqError::Input(InputError::new("out", message))
    }
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(io::Error) -> EqError + '_ {
    move |source| EqError::Io { path: path.to_path_buf(), source }
}

pub(crate) fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<(), EqError> {
    crate::store::write_atomic(path, bytes).map_err(io_err(path))
}
