//! Each player's last restricted LP optimum ([`Warm`]) on disk, next to the state: the next
//! LP starts from it, in a resumed run as in an uninterrupted one (same tableau, same bits:
//! a killed run still resumes to the same answer).
//!
//! `DIR/lp/{south,north}-ITERATION.warm` is written before the state of that iteration is
//! saved and the older ones are deleted after, so the state's last iteration always has its
//! files (a run stopped in between finds its iteration's file and an extra one).

use super::super::{io_err, write_bytes_atomic, EqError};
use crate::matrix_game::Warm;
use std::path::{Path, PathBuf};

fn side(south: bool) -> &'static str {
    if south {
        "south"
    } else {
        "north"
    }
}

fn path(dir: &Path, south: bool, iteration: usize) -> PathBuf {
    dir.join("lp").join(format!("{}-{iteration}.warm", side(south)))
}

/// Write the players' carried optima (North's, South's) as those of `iteration` (before its
/// state is saved).
pub(super) fn save(dir: &Path, warm: &[Option<Warm>; 2], iteration: usize) -> Result<(), EqError> {
    for (k, warm) in warm.iter().enumerate() {
        if let Some(w) = warm {
            let lp = dir.join("lp");
            std::fs::create_dir_all(&lp).map_err(io_err(&lp))?;
            write_bytes_atomic(&path(dir, k == 1, iteration), &w.to_bytes())?;
        }
    }
    Ok(())
}

/// Delete the optima of iterations other than `iteration` (after its state is saved).
pub(super) fn prune(dir: &Path, iteration: usize) -> Result<(), EqError> {
    let lp = dir.join("lp");
    let Ok(entries) = std::fs::read_dir(&lp) else { return Ok(()) };
    let keep = [path(dir, true, iteration), path(dir, false, iteration)];
    for e in entries.flatten() {
        if !keep.contains(&e.path()) && e.file_name().to_string_lossy().ends_with(".warm") {
            std::fs::remove_file(e.path()).map_err(io_err(&e.path()))?;
        }
    }
    Ok(())
}

/// The carried optima (North's, South's) of `iteration` (none where no file is, or a damaged
/// one: that LP then starts from its guess, as after a stop in a run without them).
pub(super) fn load(dir: &Path, iteration: usize) -> [Option<Warm>; 2] {
    [false, true].map(|south| std::fs::read(path(dir, south, iteration)).ok().and_then(|b| Warm::from_bytes(&b)))
}
