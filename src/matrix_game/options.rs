//! How a matrix game is solved: the options every entry point that has a choice reads.

use std::fmt;

/// Where a solve's progress lines go (one call per line, without its newline).
pub type Trace = dyn Fn(fmt::Arguments<'_>) + Sync;

/// The choices of a solve ([`super::maximiser_with`], [`super::maximiser_warm`],
/// [`super::maximiser_regret`]). `SolveOptions::default()` is the exact simplex, warm started
/// where a carried optimum fits, silent.
#[derive(Clone, Copy)]
pub struct SolveOptions<'a> {
    /// Start from a carried optimum ([`super::Warm`]) when one fits. Off, every LP starts from
    /// the guessed supports: the same value, reached by other pivots (for comparing the two).
    pub warm_start: bool,
    /// Solve only to this duality gap (payoff units), by regret matching⁺; 0 solves exactly,
    /// by the simplex. Only [`super::maximiser_with`] reads it.
    pub gap: f64,
    /// Where the progress lines go: a line per start and per constraint-generation round of
    /// the simplex, one per regret-matching⁺ solve. `None`: nowhere.
    pub trace: Option<&'a Trace>,
}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions { warm_start: true, gap: 0.0, trace: None }
    }
}

impl SolveOptions<'_> {
    /// Hand `line` to the trace, if there is one.
    pub(super) fn trace(&self, line: fmt::Arguments<'_>) {
        if let Some(sink) = self.trace {
            sink(line);
        }
    }
}

/// A trace that writes each line to stderr (`SolveOptions { trace: Some(&stderr_trace), .. }`).
pub fn stderr_trace(line: fmt::Arguments<'_>) {
    eprintln!("{line}");
}
