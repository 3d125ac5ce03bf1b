//! Rules of each game: positions, legal moves, play, variants. No I/O, no search.
pub mod oware;
pub mod kiothi;
