//! Progress reports of a run: its sweeps and its iterations.

use super::state::IterRecord;

/// Progress reports; every method has a silent default.
pub trait Observer: Sync {
    /// A vector sweep of `games` games starts.
    fn sweep_start(&self, _label: &str, _games: u64) {}
    fn games(&self, _n: u64) {}
    fn sweep_end(&self) {}
    /// Of a mix's `due` vectors to sweep (its members neither in memory nor saved), `done`
    /// are swept: a resume on a machine without the vectors sweeps thousands.
    /// `side`: "South" (a mix of rows) or "North" (of columns).
    fn mix_swept(&self, _side: &str, _done: usize, _due: usize) {}
    fn iteration(&self, _r: &IterRecord) {}
}

pub struct Quiet;
impl Observer for Quiet {}
