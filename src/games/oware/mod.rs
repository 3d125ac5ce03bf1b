//! Oware (Abapa) rules, docs/rules/oware.md O1–O8. Pure rules: no I/O, no search.
//!
//! Two representations:
//! - [`View`]: the board seen by the player to move (his row `0..6`, then the opponent's
//!   `6..12`, both in sowing order). Databases and search work on views only, because the
//!   game is symmetric and a view is all the future depends on (stores do not matter).
//! - [`Position`]: the absolute board (`South 0..5, North 0..5`), stores and side to move,
//!   for play and replay.
//!
//! Files, one concept each:
//! - [`board`]: the mover's [`View`], its constants, [`flip`] and [`seeds`] (O1);
//! - [`rules`]: the variants [`GrandSlam`] (O4) and [`Cycle`] (O8), together [`Rules`];
//! - [`sow`]: one sowing and its captures (O2–O3);
//! - [`moves`]: the legal moves of a view or its [`Ending`] (O4–O6), [`Rules::node`];
//! - [`unmoves`]: the quiet moves that lead to a view, [`Rules::unmoves`], for the databases;
//! - [`position`]: the absolute [`Position`] and its diagram;
//! - [`game`]: a [`Game`] with its history, endings and final totals (O5–O8).

pub mod board;
pub mod game;
pub mod moves;
pub mod position;
pub mod rules;
pub mod sow;
pub mod unmoves;

pub use board::{flip, seeds, View, PITS, ROW, TOTAL_SEEDS};
pub use game::{EndReason, Game, GameResult, PlayError, WINNING_STORE};
pub use moves::{Ending, Move, MoveList, Node};
pub use position::Position;
pub use rules::{Cycle, GrandSlam, Rules};
pub use sow::{sow, Sowing};

/// A mover's view from its text form, 12 comma-separated seed counts (the mover's row first);
/// an error names `field` (`pits`, `start`).
pub fn parse_pits(field: &'static str, s: &str) -> Result<View, crate::input::InputError> {
    let bad = |m: String| Err(crate::input::InputError::new(field, m));
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let form = "12 comma-separated counts 0..=48 with a total of at most 48";
    if parts.len() != PITS {
        return bad(format!("expected {form}, got {} values", parts.len()));
    }
    let mut v = [0u8; PITS];
    for (i, p) in parts.iter().enumerate() {
        v[i] = match p.parse::<u8>() {
            Ok(x) if x <= 48 => x,
            _ => return bad(format!("value {i} is `{p}`; expected {form}")),
        };
    }
    let total = seeds(&v);
    if total > TOTAL_SEEDS {
        return bad(format!("{total} seeds in all; expected {form}"));
    }
    Ok(v)
}
