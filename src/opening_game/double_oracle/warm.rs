//! Each player's last restricted LP optimum ([`Warm`]) on disk, next to the state: the next
//! LP starts from it, in a resumed run as in an uninterrupted one (same tableau, same bits:
//! a killed run still resumes to the same answer).
//!
//! `DIR/lp/{south,north}-ITERATION.warm` is written before the state of that iteration is
//! saved and the older ones are deleted after, so the state's last iteration always has its
//! files (a run stopped in between finds its iteration's file and an extra one).

use super::super::{io_err, write_bytes_atomic, EqError};
use crate::matrix_game::Warm;
use crate::side::Side;
use std::path::{Path, PathBuf};

const SIDES: [Side; 2] = [Side::South, Side::North];

fn path(dir: &Path, side: Side, iteration: usize) -> PathBuf {
    dir.join("lp").join(format!("{}-{iteration}.warm", side.name()))
}

/// Write the players' carried optima (by [`Side::index`]) as those of `iteration` (before its
/// state is saved).
pub(super) fn save(dir: &Path, warm: &[Option<Warm>; 2], iteration: usize) -> Result<(), EqError> {
    for side in SIDES {
        if let Some(w) = &warm[side.index()] {
            let lp = dir.join("lp");
            std::fs::create_dir_all(&lp).map_err(io_err(&lp))?;
            write_bytes_atomic(&path(dir, side, iteration), &w.to_bytes())?;
        }
    }
    Ok(())
}

/// Delete the optima of iterations other than `iteration` (after its state is saved).
pub(super) fn prune(dir: &Path, iteration: usize) -> Result<(), EqError> {
    let lp = dir.join("lp");
    let Ok(entries) = std::fs::read_dir(&lp) else { return Ok(()) };
    let keep = SIDES.map(|side| path(dir, side, iteration));
    for e in entries.flatten() {
        if !keep.contains(&e.path()) && e.file_name().to_string_lossy().ends_with(".warm") {
            std::fs::remove_file(e.path()).map_err(io_err(&e.path()))?;
        }
    }
    Ok(())
}

/// The carried optima (by [`Side::index`]) of `iteration` (none where no file is, or a damaged
/// one: that LP then starts from its guess, as after a stop in a run without them).
pub(super) fn load(dir: &Path, iteration: usize) -> [Option<Warm>; 2] {
    SIDES.map(|side| std::fs::read(path(dir, side, iteration)).ok().and_then(|b| Warm::from_bytes(&b)))
}
