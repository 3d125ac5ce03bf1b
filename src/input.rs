//! Bad input found by the library: the field it concerns (`race`, `south`, `cycle`, …) and what
//! is wrong with it. The library's errors name fields, never flags; the one field-to-flag
//! table ([`flag`]) sits here so the command line and the Python bindings (`python/`) print
//! the same line, the flag then the message ([`InputError::line`]).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub field: &'static str,
    pub message: String,
}

impl InputError {
    pub fn new(field: &'static str, message: impl Into<String>) -> InputError {
        InputError { field, message: message.into() }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for InputError {}

impl InputError {
    /// The one line the command line prints for this error: the field's flag, then the
    /// message (`--race: …`).
    pub fn line(&self) -> String {
        format!("{}: {}", flag(self.field), self.message)
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
        "mix" => "--mix",
        "seed" => "--seed",
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
        "pits" => "--pits",
        "position" => "--position",
        "grand_slam" => "--grand-slam",
        "setup" => "--setup",
        "redistribute" => "--redistribute",
        "keep_one" => "--keep-one",
        "depth" => "--depth",
        "time" => "--time",
        "nodes" => "--nodes",
        "db" => "--db",
        "start" => "--start",
        "replies" => "--replies",
        "vector_budget" => "--vector-budget",
        "average" => "--average",
        "average_replies" => "--average-replies",
        "average_weights" => "--average-weights",
        "restricted_gap" => "--restricted-gap",
        other => other,
    }
}

/// `out` must be a directory if it exists.
pub fn check_out_dir(out: &std::path::Path) -> Result<(), InputError> {
    if out.exists() && !out.is_dir() {
        return Err(InputError::new("out", format!("{} exists and is not a directory", out.display())));
    }
    Ok(())
}
