//! The settings of an equilibrium run beyond the game itself, checked in one place: the command
//! line and the Python binding build an [`Options`] and leave every range to
//! [`Options::check`], so both refuse the same values with the same line (the field's flag,
//! then the message).

use crate::input::InputError;
use crate::variant::Variant;

/// Best replies a side may add per iteration (`--replies`, `--average-replies`) at most.
pub const MAX_REPLIES: usize = 100_000;
/// Mixes `--average` may take in at most.
pub const MAX_AVERAGE: usize = 1000;

/// When to stop before convergence.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StopAt {
    /// Stop once the log holds this many iterations (over all resumed runs).
    pub max_iterations: Option<u32>,
    /// Start no new iteration after this many seconds of this invocation.
    pub seconds: Option<f64>,
}

crate::variant::variants! {
    /// How `--average` weighs the last mixes.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Weights ("averaging weights", String = |s: &str| format!("`{s}`: expected {}", <Weights as Variant>::NAMES)) {
        /// Equal weights (the first `--average`).
        #[default]
        Uniform = "uniform": "equal weights",
        /// The weights that concede least over the whole family (see `double_oracle::combine`).
        Optimal = "optimal": "the weights that concede least over the whole family",
        /// As `Optimal`, with the run's certified mix so far (its score vector kept) as one more
        /// mix to weigh: what the window's older mixes proved is not lost when they leave it, and
        /// the bound never falls below the certificate.
        Anchored = "anchored": "as optimal, with the run's certified mix as one more mix to weigh",
    }
}

impl Weights {
    /// Weighed by score vectors (no member vectors needed).
    pub fn by_scores(self) -> bool {
        self != Weights::Uniform
    }
}

/// How a run searches and when it stops. Every field may change between sittings of a run:
/// none is part of the state's identity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Best replies added per side and iteration (`--replies`, 1..=[`MAX_REPLIES`]): the best
    /// one, then the next best with distinct payoffs against the mix that beat the restricted
    /// value. One pass over the family ranks them all, so more replies cost only their
    /// vectors' sweeps.
    pub replies: usize,
    /// Mixes averaged per side (`--average K`, 0..=[`MAX_AVERAGE`]; 0 or 1: off): each
    /// iteration the average of its LP mix and the `K − 1` before it is answered too.
    pub average: usize,
    /// Of the `replies` candidates per side, how many may come from the averaged mix's ranked
    /// best replies (`--average-replies R`, 1..=[`MAX_REPLIES`]; the rest from the LP mix's),
    /// which go first.
    pub average_replies: usize,
    /// How the average weighs the mixes (`--average-weights`).
    pub average_weights: Weights,
    /// `--restricted-gap G` (payoff units, finite, at least 0; 0: exact): the restricted games
    /// are solved by regret matching⁺ to a duality gap of `G` instead of exactly by the
    /// simplex, except in an iteration after one that added no member (so a run still ends
    /// exact). The mixes are certified over the whole family either way.
    pub restricted_gap: f64,
    /// Bytes the saved vectors may take (`--vector-budget`, at least 1; `None`: keep them all).
    pub vector_budget: Option<u64>,
    /// Opposing best replies a mix may be refined against per iteration, beyond the
    /// restricted set (`--cuts`; 0: plain double oracle). More cuts give better bounds per
    /// sweep at the price of LPs; worth it when sweeps are expensive and sets small.
    pub cuts: usize,
    /// `--lp-trace`: a line on stderr per start and constraint-generation round of each
    /// restricted LP, one per regret-matching⁺ solve. Only reports.
    pub lp_trace: bool,
    /// `--max-iterations`, `--time` (seconds: finite, above 0).
    pub stop: StopAt,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            replies: 1,
            average: 0,
            average_replies: 1,
            average_weights: Weights::Uniform,
            restricted_gap: 0.0,
            vector_budget: None,
            cuts: 0,
            lp_trace: false,
            stop: StopAt::default(),
        }
    }
}

impl Options {
    /// Refuse a value out of its range, naming its field (`replies`, `average`, …): the one
    /// check of these ranges, made before a run opens its directory.
    pub fn check(&self) -> Result<(), InputError> {
        let within = |field: &'static str, v: usize, lo: usize, hi: usize| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(InputError::new(field, format!("{v} is not in {lo}..={hi}")))
            }
        };
        within("replies", self.replies, 1, MAX_REPLIES)?;
        within("average", self.average, 0, MAX_AVERAGE)?;
        within("average_replies", self.average_replies, 1, MAX_REPLIES)?;
        let g = self.restricted_gap;
        if !(g.is_finite() && g >= 0.0) {
            let message = format!("`{g}`; expected a gap of at least 0 in the payoff's units (0: exact)");
            return Err(InputError::new("restricted_gap", message));
        }
        if self.vector_budget == Some(0) {
            return Err(InputError::new("vector_budget", "0; expected a size of at least one byte"));
        }
        if let Some(s) = self.stop.seconds.filter(|s| !(s.is_finite() && *s > 0.0)) {
            return Err(InputError::new("time", format!("{s}; expected a positive number of seconds")));
        }
        Ok(())
    }

    /// The options after [`Options::check`].
    pub fn checked(self) -> Result<Options, InputError> {
        self.check().map(|()| self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_range_is_refused_naming_its_field() {
        assert!(Options::default().check().is_ok());
        let d = Options::default();
        let cases = [
            ("replies", Options { replies: 0, ..d }),
            ("replies", Options { replies: MAX_REPLIES + 1, ..d }),
            ("average", Options { average: MAX_AVERAGE + 1, ..d }),
            ("average_replies", Options { average_replies: 0, ..d }),
            ("restricted_gap", Options { restricted_gap: -1.0, ..d }),
            ("restricted_gap", Options { restricted_gap: f64::NAN, ..d }),
            ("restricted_gap", Options { restricted_gap: f64::INFINITY, ..d }),
            ("vector_budget", Options { vector_budget: Some(0), ..d }),
            ("time", Options { stop: StopAt { max_iterations: None, seconds: Some(0.0) }, ..d }),
        ];
        for (field, o) in cases {
            assert_eq!(o.check().unwrap_err().field, field);
        }
    }

    /// `--average-weights` takes the names it always took and refuses others with its line.
    #[test]
    fn weights_parse_by_name() {
        for (name, w) in [("uniform", Weights::Uniform), ("optimal", Weights::Optimal), ("anchored", Weights::Anchored)]
        {
            assert_eq!(name.parse::<Weights>(), Ok(w));
            assert_eq!(w.name(), name);
        }
        assert_eq!(Weights::ALL.len(), 3);
        assert_eq!("equal".parse::<Weights>(), Err("`equal`: expected uniform, optimal or anchored".to_string()));
    }
}
