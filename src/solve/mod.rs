//! User-facing solvers: a game's rules + alpha-beta search + its endgame database.
//! (Search knows nothing of files and retro nothing of search; this is where they meet.)
pub mod kiothi;
pub mod kiothi_openings;
pub mod oware;
pub mod pipeline;
