//! Lukho opening sweeps (DESIGN.md `mancala lukho sweep|merge`), built on the rules in
//! [`crate::games::lukho`]:
//!
//! - [`spec`]: the SPEC language naming sets of opening choices (`all:drop=0`, `0..65536:pit=3`);
//! - [`play`]: race models, the parallel sweep, shards, the dry-run calibration;
//! - [`summary`]: per-South aggregates and the table schemas;
//! - [`part`]: checksummed, atomically written part files and their merge;
//! - [`output`]: the summary and per-game files of a finished sweep;
//! - [`sample`]: a uniform random sample of opening pairs;
//! - [`trace`]: a single game turn by turn (`lukho play --trace`).
//!
//! The opening as a matrix game (double oracle over these sweeps) is [`crate::opening_game`].

pub mod output;
pub mod part;
pub mod play;
pub mod sample;
pub mod spec;
pub mod summary;
pub mod trace;

pub use play::{Shard, SweepDef};
pub use spec::{Spec, SpecError};
pub use summary::Agg;
