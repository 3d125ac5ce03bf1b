//! The files a finished sweep (or a merge) writes into its output directory, each atomically:
//! `summary.csv` and `summary.jsonl` (one row per South choice), `summary.json` (the whole
//! sweep), and on request `games.csv` / `games.jsonl` (one row per game).

use super::summary::{game_columns, game_row, summary_columns, summary_row, Agg};
use crate::export::{Format, TableWriter};
use crate::games::lukho::RaceLabel;
use crate::games::lukho::{GameOutcome, Rules};
use serde_json::{json, Value as Json};
use std::io;
use std::path::Path;

/// The header object of every output table: the rule variants plus the race model.
pub fn header_rules(rules: &Rules, race: &str) -> Json {
    let mut r = rules.to_json();
    r["race"] = json!(race);
    r
}

/// The global summary: the sweep's identity (rules, race, SPECs, set sizes, version), the
/// pair count, and the aggregate of every game.
pub fn global_summary(identity: &Json, rows: &[(u32, Agg)]) -> Json {
    let total = rows.iter().fold(Agg::default(), |a, (_, b)| a.merge(b));
    let mut out = serde_json::Map::new();
    for f in ["rules", "race", "south", "north", "symmetric", "version", "south_choices", "north_choices"] {
        out.insert(f.into(), identity[f].clone());
    }
    let pairs = identity["south_choices"].as_u64().unwrap_or(0) * identity["north_choices"].as_u64().unwrap_or(0);
    out.insert("pairs".into(), json!(pairs));
    if let Json::Object(m) = total.to_json() {
        out.extend(m);
    }
    Json::Object(out)
}

/// Write summary.csv, summary.jsonl and summary.json; returns the global summary.
pub fn write_summaries(dir: &Path, identity: &Json, rules: &Rules, rows: &[(u32, Agg)]) -> io::Result<Json> {
    let head = header_rules(rules, identity["race"].as_str().unwrap_or(""));
    for (format, name) in [(Format::Csv, "summary.csv"), (Format::Jsonl, "summary.jsonl")] {
        let mut w = TableWriter::create(&dir.join(name), format, summary_columns(), &head)?;
        for (id, a) in rows {
            w.row(&summary_row(*id, rules, a))?;
        }
        w.finish()?;
    }
    let g = global_summary(identity, rows);
    let text = serde_json::to_string_pretty(&g).map_err(io::Error::other)?;
    crate::store::write_atomic(&dir.join("summary.json"), format!("{text}\n").as_bytes())?;
    Ok(g)
}

/// Write the per-game table `games.csv` or `games.jsonl` (file name from `stem`).
pub fn write_games(
    dir: &Path,
    stem: &str,
    format: Format,
    rules: &Rules,
    race: &str,
    games: &[(u32, u32, RaceLabel, GameOutcome)],
) -> io::Result<()> {
    let ext = match format {
        Format::Csv => "csv",
        Format::Jsonl => "jsonl",
        Format::Parquet => "parquet",
    };
    let mut w =
        TableWriter::create(&dir.join(format!("{stem}.{ext}")), format, game_columns(), &header_rules(rules, race))?;
    for (s, n, r, o) in games {
        w.row(&game_row(*s, *n, &r.to_string(), o))?;
    }
    w.finish()
}
