//! Lukho opening sweeps (docs/cli.md, `mancala lukho sweep|merge`), built on the rules in
//! [`crate::games::lukho`]:
//!
//! - [`spec`]: the SPEC language naming sets of opening choices (`all:drop=0`, `0..65536:pit=3`);
//! - [`play`]: the parallel sweep of every pair under every race outcome;
//! - [`definition`]: a sweep's definition and the sets of choices it resolves to;
//! - [`plan`]: a sweep from its flags to its files (shard, resume, report);
//! - [`shard`]: the K-th of N South ranges; [`projection`]: the dry-run projection;
//! - [`summary`]: per-South aggregates and the table schemas;
//! - [`part`]: checksummed, atomically written part files; [`merge`]: their merge;
//! - [`output`]: the summary and per-game files of a finished sweep;
//! - [`sample`]: a uniform random sample of opening pairs;
//! - [`trace`]: a single game turn by turn (`lukho play --trace`) and a game's JSON forms.
//!
//! The opening as a matrix game (double oracle over these sweeps) is [`crate::opening_game`].

pub mod definition;
pub mod merge;
pub mod output;
pub mod part;
pub mod plan;
pub mod play;
pub mod projection;
pub mod sample;
pub mod shard;
pub mod spec;
pub mod summary;
pub mod trace;

pub use crate::input::InputError;
pub use definition::SweepDef;
pub use plan::Plan;
pub use shard::Shard;
pub use spec::{Spec, SpecError};
pub use summary::Agg;
