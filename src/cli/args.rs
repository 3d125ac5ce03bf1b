//! Argument types shared by every command, each checked once at parse time so every command
//! refuses the same bad values with the same one-line message (clap names the flag).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// A parser for a rules or format enum: its names (each with its help) as clap's possible
/// values, so `--help` and errors list them, then the type's `FromStr`. The names and their
/// meaning live in the library type; the CLI only lists them.
pub fn variant<T>(
    all: &[T],
    name: fn(T) -> &'static str,
    help: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T>
where
    T: Copy + Send + Sync + std::str::FromStr + 'static,
    T::Err: std::fmt::Display,
{
    PossibleValuesParser::new(all.iter().map(|&v| PossibleValue::new(name(v)).help(help(v))))
        .map(|s| s.parse::<T>().unwrap_or_else(|e| unreachable!("a listed value parses: {e}")))
}

/// `--format`: the table formats of [`mancala::export::Format`].
pub fn format() -> impl TypedValueParser<Value = mancala::export::Format> {
    use mancala::export::Format;
    variant(&Format::ALL, Format::name, |_| "")
}

/// `--threads N`: worker threads, at least 1. The cap keeps a typo from asking the OS for
/// a hundred thousand stacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads(pub usize);

pub const MAX_THREADS: usize = 1024;

pub fn threads(s: &str) -> Result<Threads, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(Threads(n)),
        _ => Err(format!("expected a whole number of threads 1..={MAX_THREADS}")),
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
        _ => Err("expected a positive number of seconds (at most 1e9)".to_string()),
    }
}

/// The flag (or argument) that gives a library input field: the one table every command's
/// bad-input messages go through (`InputError { field: "south", .. }` reads `--south: …`).
pub fn flag(field: &'static str) -> &'static str {
    match field {
        "race" => "--race",
        "payoff" => "--payoff",
        "south" => "--south",
        "north" => "--north",
        "family" => "--family",
        "exploit" => "--exploit",
        "shard" => "--shard",
        "games" => "--games",
        "out" => "--out",
        "pairs" => "--pairs",
        "top" => "--top",
        "id" => "--id",
        "remove" => "--remove",
        "drop" => "--drop",
        "south_remove" => "--south-remove",
        "south_drop" => "--south-drop",
        "north_remove" => "--north-remove",
        "north_drop" => "--north-drop",
        "chain" => "--chain",
        "cycle" => "--cycle",
        "nki_clear" => "--nki-clear",
        "max_relays" => "--max-relays",
        "parts" => "PARTS",
        other => other,
    }
}

/// A library input error as the command line reports it: its flag, then what is wrong.
pub fn input(e: mancala::input::InputError) -> anyhow::Error {
    super::Usage(format!("{}: {}", flag(e.field), e.message)).into()
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
