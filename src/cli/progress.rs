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
    fn note(&self, line: &str) {
        // Above the bar on a terminal, and in the log when stderr is not one (the bar is hidden).
        self.pb.suspend(|| eprintln!("layer {:>2}: {line}", self.n));
    }
}

/// A solve's progress line: elapsed time ticking, and the deepest iteration, the root's
/// interval and the nodes as the search reports them (hidden when stderr is not a terminal).
pub struct SolveLine {
    pb: ProgressBar,
}

impl SolveLine {
    pub fn new() -> SolveLine {
        let pb = ProgressBar::new_spinner();
        pb.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").unwrap());
        pb.set_message("searching");
        pb.enable_steady_tick(std::time::Duration::from_millis(200));
        SolveLine { pb }
    }

    /// The observer to hand the solver.
    pub fn observe(&self, r: &mancala::search::Report) {
        use mancala::search::Phase;
        let (lo, hi) = (r.bounds.lo, r.bounds.hi);
        let value = if lo == hi { format!("value {lo}") } else { format!("value in {lo}..={hi}") };
        let nodes = indicatif::HumanCount(r.nodes);
        self.pb.set_message(match r.phase {
            Phase::Depth => format!("depth {} done: {value}, {nodes} nodes", r.depth),
            Phase::Searching => format!("searching depth {}: {value}, {nodes} nodes", r.depth + 1),
            Phase::Component => {
                format!("depth {}: {value}; solving the moves exactly (component retrograde), {nodes} nodes", r.depth)
            }
        });
    }

    pub fn finish(self) {
        self.pb.finish_and_clear();
    }
}

/// The best-move and principal-variation lines of a solve's text answer (`pv`: the line
/// already written out). Without exactness the line is the deepest iteration's guess, and
/// says so.
pub fn best_and_pv_lines<M: PartialEq>(
    exact: bool,
    best: &[M],
    moves: &[(M, mancala::search::Bounds)],
    name: impl Fn(&M) -> String,
    pv: &str,
) -> String {
    let label = if exact { "pv" } else { "pv (so far, not proven)" };
    format!("{}\n{label}: {pv}", best_moves_line(exact, best, moves, name))
}

/// The best-move line of a solve's text answer. When the root is not exact, a move is shown as
/// best only when its lower bound reaches every other move's upper bound; otherwise the moves
/// that may still be best are listed as candidates, not as best.
fn best_moves_line<M: PartialEq>(
    exact: bool,
    best: &[M],
    moves: &[(M, mancala::search::Bounds)],
    name: impl Fn(&M) -> String,
) -> String {
    let names = |v: &mut dyn Iterator<Item = &M>| v.map(&name).collect::<Vec<_>>().join(", ");
    if exact {
        return format!("best moves: {}", names(&mut best.iter()));
    }
    let proven: Vec<&M> =
        moves.iter().filter(|(m, b)| moves.iter().all(|(o, ob)| o == m || b.lo >= ob.hi)).map(|(m, _)| m).collect();
    if proven.is_empty() {
        format!("best moves: no move is proven best (the bounds overlap); candidates: {}", names(&mut best.iter()))
    } else {
        format!(
            "best move: {} (proven: its lower bound reaches every other move's upper bound)",
            names(&mut proven.into_iter())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::best_moves_line;
    use mancala::search::Bounds;

    #[test]
    fn a_move_is_called_best_only_when_proven() {
        let b = |lo, hi| Bounds { lo, hi };
        let name = |m: &u8| m.to_string();
        assert_eq!(best_moves_line(true, &[1, 3], &[(1, b(2, 2)), (3, b(2, 2))], name), "best moves: 1, 3");
        let overlap = [(0, b(-4, 6)), (1, b(-2, 3)), (2, b(-9, -3))];
        assert_eq!(
            best_moves_line(false, &[0, 1], &overlap, name),
            "best moves: no move is proven best (the bounds overlap); candidates: 0, 1"
        );
        let apart = [(0, b(3, 6)), (1, b(-2, 3)), (2, b(-9, -3))];
        assert!(best_moves_line(false, &[0, 1], &apart, name).starts_with("best move: 0 (proven"));
    }
}
