//! Kiothi (Meru) rules, docs/rules/kiothi.md K1–K9. Pure rules: no I/O, no search, no
//! process-global state (what sowings share lives in a [`SowingCache`] the caller owns and
//! passes to move generation).
//!
//! The board is the absolute array `South 0..9, North 0..9` (sowing order); the boma opposite
//! own index `i` is the opponent's index `9-i`. A [`Position`] holds the boma, the two prisons,
//! the nki flags (a bit mask over absolute boma), the side to move and the ply number `turn`
//! (1 and 2 are the opening redistributions, K2).
//!
//! Files, one concept each:
//! - `rules.rs`: the variants (K1 setup, K2 redistribute, K3 nki-clear, K7 max-relays), [`Rules`];
//! - `position.rs`: [`Position`] (boma, prisons, nki marks, side to move, turn), its invariants
//!   and diagram;
//! - `moves.rs`: the move types and the legal sowing moves (K3 flags, K5/K6 captures), checked
//!   and unchecked play;
//! - `laps.rs`: the board as three words and a lap in bulk;
//! - `sow.rs`: K3–K7 sowing lap by lap, relays, exact perpetual-sowing detection (Brent's
//!   cycle finding plus shared distinguished points);
//! - `sowing_cache.rs`: [`SowingCache`], the verdicts of long sowings shared between sowings,
//!   and what the sowings met ([`SowingStats`]);
//! - `redistribution.rs`: K2 opening moves, their exact counts and their enumeration;
//! - `game.rs`: K8 endings, K9 repetition, the checked [`Game`];
//! - `error.rs`: why a move is illegal ([`Illegal`]) and the API's errors ([`KiothiError`]);
//! - `notation.rs`: `B:K` and `E1,E2>A*C,…` text forms, position JSON;
//! - `perft.rs`: `perft` / `divide`.
//!
//! Readings of docs/rules/kiothi.md where it leaves room:
//! - "Relay lap" (for `nki-clear=pass`) = every lap after the first one, i.e. every lap that
//!   starts with a relay lift. Drops of the first lap never clear nki.
//! - The nki flags never change *where* a sowing goes (only counts do), so K7 compares
//!   (board counts, landing boma) only; the flags matter only for the capture at the end, which
//!   is checked against the flags as they stand after the sowing (under `pass` a relay lap may
//!   have cleared the opposite boma, which makes it capturable).
//! - Captures (K5, K6) need the landing boma in the mover's own row; a lap ending in an empty
//!   opponent boma ends the move without capture.
//! - K8 applies on redistribution turns too: under `exactly-2` a player with fewer than two
//!   occupied boma has no legal redistribution.
//! - nki flags are set only after North's redistribution (turn 2), on every occupied boma of the
//!   whole board; after turn 1 there are none yet.
//! - `max-relays=N`: every sowing that has not ended after N relays is illegal as
//!   [`Illegal::RelayLimit`], perpetual ones included (they too "would need relay N+1"), so the
//!   reason given never depends on which K7 detector fired first.

mod error;
mod game;
mod laps;
mod moves;
mod notation;
mod perft;
mod position;
mod redistribution;
mod rules;
mod sow;
mod sowing_cache;
#[cfg(test)]
mod tests;

pub use error::{Illegal, KiothiError};
pub use game::{EndReason, Game, GameResult};
pub use moves::{Child, Move, Redistribution, SowMove};
pub use perft::{divide, perft, perft_u128, DIVIDE_LIMIT, PERFT_MAX_DEPTH};
pub(crate) use position::occupied_mask;
pub use position::{Board, Phase, Position, ALL_BOMA, BOMA, ROW};
pub use redistribution::{binomial_u128, placements};
pub use rules::{NkiClear, Redistribute, Rules, Setup};
pub use sow::SownBoard;
pub use sowing_cache::{SowingCache, SowingStats, LONG_SOWING_RELAYS};
