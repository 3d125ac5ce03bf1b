//! Each player's last restricted LP optimum ([`Warm`]) on disk, next to the state: the next
//! LP starts from it, in a resumed run as in an uninterrupted one (same tableau, same bits:
//! a killed run still resumes to the same answer).
//!
//! `DIR/lp/{south,north}-ITERATION.warm` is written before the state of that iteration is
//! saved and the older ones are deleted after, so the state's last iteration always has its
//! files (a run stopped in between finds its iteration's file and an extra one).

use super::super::{io_err, write_bytes_atomic, EqError};
use super::Solver;
use crate::matrix_game::Warm;
use std::path::PathBuf;

fn side(south: bool) -> &'static str {
    if south {
        "south"
    } else {
        "north"
    }
}

impl Solver {
    fn warm_path(&self, south: bool, iteration: usize) -> PathBuf {
        self.dir.join("lp").join(format!("{}-{iteration}.warm", side(south)))
    }

    /// Write the players' carried optima as those of `iteration` (before its state is saved).
    pub(super) fn save_warm(&self, iteration: usize) -> Result<(), EqError> {
        for (k, warm) in self.lp_warm.iter().enumerate() {
            if let Some(w) = warm {
                let dir = self.dir.join("lp");
                std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
                write_bytes_atomic(&self.warm_path(k == 1, iteration), &w.to_bytes())?;
            }
        }
        Ok(())
    }

    /// Delete the optima of iterations other than `iteration` (after its state is saved).
    pub(super) fn prune_warm(&self, iteration: usize) -> Result<(), EqError> {
        let dir = self.dir.join("lp");
        let Ok(entries) = std::fs::read_dir(&dir) else { return Ok(()) };
        let keep = [self.warm_path(true, iteration), self.warm_path(false, iteration)];
        for e in entries.flatten() {
            if !keep.contains(&e.path()) && e.file_name().to_string_lossy().ends_with(".warm") {
                std::fs::remove_file(e.path()).map_err(io_err(&e.path()))?;
            }
        }
        Ok(())
    }

    /// The carried optima of the state's last iteration (none where no file is, or a damaged
    /// one: that LP then starts from its guess, as after a stop in a run without them).
    pub(in crate::opening_game) fn load_warm(&mut self) {
        let iteration = self.state.log.len();
        for (k, south) in [(0, false), (1, true)] {
            self.lp_warm[k] = std::fs::read(self.warm_path(south, iteration)).ok().and_then(|b| Warm::from_bytes(&b));
        }
    }
}
