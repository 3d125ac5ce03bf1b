//! Rules of each game: positions, legal moves, play, variants. No I/O, no search.
pub mod kiothi;
pub mod lukho;
pub mod oware;
