//! Lukho opening sweeps (DESIGN.md `mancala lukho sweep|merge`), built on the rules in
//! [`crate::games::lukho`]:
//!
//! - [`spec`]: the SPEC language naming sets of opening choices (`all:drop=0`, `0..65536:pit=3`);
//! - [`sweep`]: race models, the parallel sweep, shards, the dry-run calibration;
//! - [`summary`]: per-South aggregates and the table schemas;
//! - [`part`]: checksummed, atomically written part files and their merge;
//! - [`output`]: the summary and per-game files of a finished sweep;
//! - [`equilibrium`]: the opening as a simultaneous game, solved by double oracle with an
//!   exploitability certificate ([`lp`] solves the restricted matrix games);
//! - [`trace`]: a single game turn by turn (`lukho play --trace`).

pub mod equilibrium;
pub mod lp;
pub mod output;
pub mod part;
pub mod sample;
pub mod spec;
pub mod summary;
pub mod sweep;
pub mod trace;

pub use spec::{Spec, SpecError};
pub use summary::Agg;
pub use sweep::{Model, Shard, SweepDef};
