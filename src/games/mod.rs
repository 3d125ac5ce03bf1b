//! Rules of each game: positions, legal moves, play, variants. No I/O, no search, no clap, no
//! process-global state. [`cycle`] is the exact cycle finding every game with endless sowings uses.
pub(crate) mod cycle;
pub mod kiothi;
pub mod lukho;
pub mod oware;
pub mod result;
