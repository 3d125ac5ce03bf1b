//! Argument types shared by every command, each checked once at parse time so every command
//! refuses the same bad values with the same one-line message (clap names the flag).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// A parser for a rules or format enum: the accepted names (with their help) as clap's
/// possible values, so help and errors list them, then the type's `FromStr`.
pub fn named<T>(values: &[(&'static str, &'static str)]) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
    T::Err: std::fmt::Debug,
{
    let values: Vec<PossibleValue> = values
        .iter()
        .map(
            |&(name, help)| {
                if help.is_empty() {
                    PossibleValue::new(name)
                } else {
                    PossibleValue::new(name).help(help)
                }
            },
        )
        .collect();
    PossibleValuesParser::new(values).map(|s| s.parse::<T>().expect("a possible value parses"))
}

/// `--format`: the table formats of [`mancala::export::Format`].
pub fn format() -> impl TypedValueParser<Value = mancala::export::Format> {
    named(&[("csv", ""), ("jsonl", ""), ("parquet", "")])
}

/// `--threads N`: worker threads, at least 1. The cap keeps a typo from asking the OS for
/// a hundred thousand stacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads(pub usize);

pub const MAX_THREADS: usize = 1024;

pub fn threads(s: &str) -> Result<Threads, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(Threads(n)),
        _ => Err(format!("`{s}`; expected a whole number of threads 1..={MAX_THREADS}")),
    }
}

/// Size the global rayon pool (default: one thread per core).
pub fn set_threads(threads: Option<Threads>) {
    if let Some(Threads(t)) = threads {
        rayon::ThreadPoolBuilder::new().num_threads(t).build_global().ok();
    }
}

/// `--time SECONDS`: a positive, finite budget. The upper bound (about 31 years) keeps
/// `Instant + Duration` from overflowing.
pub fn seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= 1e9 => Ok(t),
        _ => Err(format!("`{s}`; expected a positive number of seconds (at most 1e9)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_and_seconds_refuse_what_cannot_run() {
        assert_eq!(threads("2"), Ok(Threads(2)));
        assert!(threads("0").is_err());
        assert!(threads("100000").is_err());
        assert!(threads("-1").is_err());
        assert_eq!(seconds("0.5"), Ok(0.5));
        for bad in ["0", "-1", "nan", "inf", "1e300", "x"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }
}
