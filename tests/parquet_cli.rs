//! Parquet exports through the command line (built with `--features parquet`): each file is
//! read back with the `parquet`/`arrow` readers and must hold exactly the rows, in the same
//! order, of the same export written as CSV, with the typed schema and the `rules` metadata.
#![cfg(feature = "parquet")]

use arrow::array::{Array, Float64Array, Int64Array, StringArray};
use arrow::datatypes::DataType;
use assert_cmd::Command;
use mancala::games::lukho::{play_game, Choice, ProvenCycles, Race, Rules};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::{json, Value as Json};
use std::fs::File;
use std::path::Path;

fn mancala() -> Command {
    Command::cargo_bin("mancala").unwrap()
}

/// One cell, typed as the Parquet column is.
#[derive(Clone, Debug, PartialEq)]
enum Cell {
    I(i64),
    F(f64),
    S(String),
    Null,
}

/// A table read back: its Arrow fields (name, type, nullable), the `rules` key-value
/// metadata, and every row.
struct Table {
    fields: Vec<(String, DataType, bool)>,
    rules: Option<String>,
    rows: Vec<Vec<Cell>>,
}

fn read_parquet(path: &Path) -> Table {
    let b = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
    let rules = b
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|k| k.key == "rules"))
        .and_then(|k| k.value.clone());
    let fields: Vec<(String, DataType, bool)> =
        b.schema().fields().iter().map(|f| (f.name().clone(), f.data_type().clone(), f.is_nullable())).collect();
    let mut rows = Vec::new();
    for batch in b.build().unwrap() {
        let batch = batch.unwrap();
        let first = rows.len();
        rows.extend((0..batch.num_rows()).map(|_| Vec::with_capacity(fields.len())));
        for c in batch.columns() {
            for (i, row) in rows[first..].iter_mut().enumerate() {
                row.push(if c.is_null(i) {
                    Cell::Null
                } else {
                    match c.data_type() {
                        DataType::Int64 => Cell::I(c.as_any().downcast_ref::<Int64Array>().unwrap().value(i)),
                        DataType::Float64 => Cell::F(c.as_any().downcast_ref::<Float64Array>().unwrap().value(i)),
                        DataType::Utf8 => {
                            Cell::S(c.as_any().downcast_ref::<StringArray>().unwrap().value(i).to_string())
                        }
                        t => panic!("unexpected column type {t}"),
                    }
                });
            }
        }
    }
    Table { fields, rules, rows }
}

/// A CSV export: the rules of its sidecar `NAME.meta.json` (compact JSON), its column names,
/// and its rows parsed with the types of `fields` (an empty cell is null; these tables have no
/// quoted cells).
fn read_csv(path: &Path, fields: &[(String, DataType, bool)]) -> (String, Vec<String>, Vec<Vec<Cell>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let meta: Json = serde_json::from_str(&std::fs::read_to_string(mancala::export::meta_path(path)).unwrap()).unwrap();
    let rules = meta["rules"].to_string();
    let mut lines = text.lines();
    let names = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| {
            assert!(!l.contains('"'), "{l}");
            let cells: Vec<&str> = l.split(',').collect();
            assert_eq!(cells.len(), fields.len(), "{l}");
            cells
                .iter()
                .zip(fields)
                .map(|(c, (name, t, _))| match (*c, t) {
                    ("", _) => Cell::Null,
                    (c, DataType::Int64) => Cell::I(c.parse().unwrap_or_else(|e| panic!("{name} `{c}`: {e}"))),
                    (c, DataType::Float64) => Cell::F(c.parse().unwrap_or_else(|e| panic!("{name} `{c}`: {e}"))),
                    (c, _) => Cell::S(c.to_string()),
                })
                .collect()
        })
        .collect();
    (rules, names, rows)
}

/// Every field nullable, with these names and types.
fn fields(cols: &[(&str, DataType)]) -> Vec<(String, DataType, bool)> {
    cols.iter().map(|(n, t)| (n.to_string(), t.clone(), true)).collect()
}

/// The Parquet table equals the CSV one: same names, same rules text, same rows in order.
fn assert_same_as_csv(pq: &Table, csv: &Path) {
    let (rules, names, rows) = read_csv(csv, &pq.fields);
    assert_eq!(names, pq.fields.iter().map(|f| f.0.clone()).collect::<Vec<_>>());
    assert_eq!(pq.rules.as_deref(), Some(rules.as_str()));
    assert_eq!(pq.rows.len(), rows.len());
    for (i, (p, c)) in pq.rows.iter().zip(&rows).enumerate() {
        assert_eq!(p, c, "row {i}");
    }
}

fn rules_json(t: &Table) -> Json {
    serde_json::from_str(t.rules.as_deref().expect("rules metadata")).unwrap()
}

#[test]
fn parquet_lukho_games_equal_the_csv_games() {
    let proven = ProvenCycles::new();
    let dir = tempfile::tempdir().unwrap();
    let sweep = |out: &Path, format: &str| {
        mancala()
            .args(["lukho", "sweep", "--south", "0..3", "--north", "0..50", "--race", "sequential", "--out"])
            .arg(out)
            .args(["--games", format])
            .assert()
            .success();
    };
    let (pq_dir, csv_dir) = (dir.path().join("pq"), dir.path().join("csv"));
    sweep(&pq_dir, "parquet");
    sweep(&csv_dir, "csv");
    assert!(!pq_dir.join("games.csv").exists());
    let leftovers: Vec<_> = std::fs::read_dir(&pq_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|f| f.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let t = read_parquet(&pq_dir.join("games.parquet"));
    use DataType::{Float64 as F, Int64 as I, Utf8 as S};
    assert_eq!(
        t.fields,
        fields(&[
            ("south_id", I),
            ("north_id", I),
            ("race", S),
            ("first_player", S),
            ("south_total", F),
            ("north_total", F),
            ("winner", S),
            ("margin", F),
            ("class", S),
            ("turns", I),
            ("points_first_game", I),
            ("points_later_game", I),
        ])
    );
    assert_eq!(rules_json(&t), json!({"game": "lukho", "chain": "it", "keep_one": false, "race": "sequential"}));
    // 3 South choices × 50 North choices × the 2 sequential outcomes.
    assert_eq!(t.rows.len(), 300);
    assert_same_as_csv(&t, &csv_dir.join("games.csv"));

    // A few rows, every value, against games played here.
    let r = Rules::default();
    for (s, n, race) in
        [(0u32, 0u32, Race::SouthFirst), (0, 0, Race::NorthFirst), (1, 37, Race::NorthFirst), (2, 49, Race::SouthFirst)]
    {
        let row = t
            .rows
            .iter()
            .find(|row| {
                row[0] == Cell::I(s as i64) && row[1] == Cell::I(n as i64) && row[2] == Cell::S(race.name().into())
            })
            .unwrap_or_else(|| panic!("no row {s} {n} {}", race.name()));
        let o = play_game(
            &r,
            &proven,
            &Choice::from_id(s as u64, &r).unwrap(),
            &Choice::from_id(n as u64, &r).unwrap(),
            race,
        );
        let [south, north] = o.totals();
        let want = vec![
            Cell::I(s as i64),
            Cell::I(n as i64),
            Cell::S(race.name().into()),
            Cell::S(o.first_player.name().into()),
            Cell::F(south),
            Cell::F(north),
            Cell::S(o.winner.map_or("draw", |w| w.name()).into()),
            Cell::F(o.margin()),
            Cell::S(o.class.name().into()),
            Cell::I(o.turns as i64),
            Cell::I(o.points_first_game as i64),
            Cell::I(o.points_later_game as i64),
        ];
        assert_eq!(row, &want, "{s} {n} {}", race.name());
    }
}

/// Build a database (`GAME db build BUILD…`), export `RANGE_FLAG RANGE` as Parquet and as CSV,
/// and check the Parquet file against `cols` (name, type) and, row by row, against the CSV.
/// Returns the Parquet table for the game's own checks.
fn db_export_round_trip(game: &str, build: [&str; 2], range: [&str; 2], cols: &[(String, DataType)]) -> Table {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    mancala().args([game, "db", "build", build[0], build[1], "--dir", d]).assert().success();
    let export = |format: &str, out: &Path| {
        mancala()
            .args([game, "db", "export", "--dir", d, range[0], range[1], "--format", format, "--out"])
            .arg(out)
            .assert()
            .success();
    };
    let (pq, csv) = (dir.path().join("t.parquet"), dir.path().join("t.csv"));
    export("parquet", &pq);
    export("csv", &csv);
    let t = read_parquet(&pq);
    assert_eq!(t.fields, fields(&cols.iter().map(|(n, t)| (n.as_str(), t.clone())).collect::<Vec<_>>()));
    assert_same_as_csv(&t, &csv);
    t
}

#[test]
fn parquet_oware_db_export_equals_the_csv_export() {
    let mut cols = vec![("stones".to_string(), DataType::Int64)];
    cols.extend((0..12).map(|i| (format!("p{i}"), DataType::Int64)));
    cols.extend([("value".to_string(), DataType::Int64), ("best_move".to_string(), DataType::Int64)]);
    let t = db_export_round_trip("oware", ["--max-stones", "4"], ["--stones", "0..=4"], &cols);
    assert_eq!(rules_json(&t)["grand_slam"], "no-capture");
    assert_eq!(rules_json(&t)["cycle"], "split");
    // Positions with 0..=4 seeds on 12 pits: C(12,0) + C(12,1) + C(13,2) + C(14,3) + C(15,4).
    assert_eq!(t.rows.len(), 1 + 12 + 78 + 364 + 1365);
    // The empty board: value 0, no move (null). One seed in the opponent's pit 5: lost.
    let zeros = |k| vec![Cell::I(0); k];
    assert_eq!(t.rows[0], [zeros(14), vec![Cell::Null]].concat());
    assert_eq!(t.rows[1], [vec![Cell::I(1)], zeros(11), vec![Cell::I(1), Cell::I(-1), Cell::Null]].concat());
    assert!(t.rows.iter().any(|r| r[14] != Cell::Null));
}

#[test]
fn parquet_kiothi_db_export_equals_the_csv_export() {
    let mut cols = vec![("warriors".to_string(), DataType::Int64)];
    cols.extend((0..20).map(|i| (format!("p{i}"), DataType::Int64)));
    cols.extend((0..20).map(|i| (format!("nki{i}"), DataType::Int64)));
    cols.extend([("value".to_string(), DataType::Int64), ("best_move".to_string(), DataType::Utf8)]);
    let t = db_export_round_trip("kiothi", ["--max-warriors", "2"], ["--warriors", "0..=2"], &cols);
    assert_eq!(rules_json(&t)["game"], "kiothi");
    assert!(t.rows.len() > 1 + 40, "{}", t.rows.len());
    // The empty board: no move (K8), value 0. One warrior on own index 0, not nki then nki:
    // 0:1 wins it (tests/kiothi_db.rs).
    let zeros = |k| vec![Cell::I(0); k];
    assert_eq!(t.rows[0], [zeros(42), vec![Cell::Null]].concat());
    let one = |nki: i64| {
        [
            vec![Cell::I(1), Cell::I(1)],
            zeros(19),
            vec![Cell::I(nki)],
            zeros(19),
            vec![Cell::I(1), Cell::S("0:1".into())],
        ]
        .concat()
    };
    assert_eq!(t.rows[1], one(0));
    assert_eq!(t.rows[2], one(1));
}
