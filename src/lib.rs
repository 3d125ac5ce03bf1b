//! `mancala`: exhaustive solvers and analysis datasets for mancala games.
//!
//! Layers (each module knows only the ones above it): [`games`] (rules), [`index`]
//! (ranking of seed distributions), [`search`] (alpha-beta over a game trait), [`retro`]
//! (retrograde layer builder and database files), [`export`] (dataset writers).
#![deny(unsafe_op_in_unsafe_fn)]
pub mod export;
pub mod games;
pub mod index;
pub mod opening_game;
pub mod range;
pub mod retro;
pub mod rng;
pub mod search;
pub mod side;
pub mod solve;
pub mod store;
pub mod sweep;
