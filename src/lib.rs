//! `mancala`: exhaustive solvers and analysis datasets for mancala games.
//!
//! Layers (each module knows only the ones above it): [`games`] (rules), [`index`]
//! (ranking of seed distributions), [`search`] (alpha-beta over a game trait), [`retro`]
//! (retrograde layer builder and databases), [`solve`] (search meets databases), [`store`]
//! (files), [`sweep`] and [`opening_game`] (Lukho openings), [`export`] (dataset writers).
//! docs/layout.md is the map. Bad input the library finds is an
//! [`input::InputError`] naming its field; the command line names the flag.
#![deny(unsafe_op_in_unsafe_fn)]
pub mod export;
pub mod games;
pub mod index;
pub mod input;
pub mod matrix_game;
pub mod opening_game;
pub mod prefetch;
pub mod range;
pub mod retro;
pub mod rng;
pub mod search;
pub mod serve;
pub mod side;
pub mod signature;
pub mod solve;
pub mod store;
pub mod sweep;
pub mod variant;
