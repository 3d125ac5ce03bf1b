//! Progress bars (indicatif) for long work; hidden when stderr is not a terminal.

use indicatif::{ProgressBar, ProgressStyle};
use mancala::retro::builder::Progress;

pub fn bar(len: u64, what: &str) -> ProgressBar {
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template(
            "{prefix:>10} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {per_sec} ETA {eta} {msg}",
        )
        .unwrap(),
    );
    pb.set_prefix(what.to_string());
    pb
}

/// A layer build: the forward pass fills the bar, then each threshold is reported.
pub struct LayerBar {
    pub pb: ProgressBar,
    pub n: usize,
}

impl Progress for LayerBar {
    fn forward(&self, done: u64) {
        self.pb.inc(done);
    }
    fn threshold(&self, t: i32, decided: u64) {
        self.pb.set_message(format!("threshold {t}/{}: {decided} decided", self.n));
    }
}
