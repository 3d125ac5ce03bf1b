//! A row-oriented table writer with a fixed schema, for CSV ([`super::csv`]), JSON lines
//! ([`super::jsonl`]) and Parquet ([`super::parquet`]). Every table carries the rules in force
//! and the writer's version: a CSV in its sidecar `NAME.meta.json`, JSON lines as a first
//! `{"rules":…}` object, Parquet as key-value metadata (`rules`, `version`).

use super::csv::CsvSink;
use super::jsonl::JsonlSink;
#[cfg(feature = "parquet")]
use super::parquet::ParquetSink;
pub use super::schema::{meta_json, meta_path, Column, Format, Value, VERSION};
use std::io;
use std::path::Path;

/// Writes to a temporary sibling and renames on [`TableWriter::finish`], so a failed export
/// leaves nothing behind. A CSV's sidecar is written (atomically, beside it) at the finish,
/// before the CSV is renamed into place: a CSV present always has its metadata.
pub struct TableWriter {
    schema: Vec<Column>,
    sink: Sink,
}

enum Sink {
    Csv(CsvSink),
    Jsonl(JsonlSink),
    // Boxed: the Arrow writer and its column builders are large.
    #[cfg(feature = "parquet")]
    Parquet(Box<ParquetSink>),
}

impl TableWriter {
    pub fn create(out: &Path, format: Format, schema: Vec<Column>, rules: &serde_json::Value) -> io::Result<Self> {
        let sink = match format {
            Format::Csv => Sink::Csv(CsvSink::create(out, &schema, rules)?),
            Format::Jsonl => Sink::Jsonl(JsonlSink::create(out, rules)?),
            #[cfg(feature = "parquet")]
            Format::Parquet => {
                Sink::Parquet(Box::new(ParquetSink::create(crate::store::AtomicFile::create(out)?, &schema, rules)?))
            }
            #[cfg(not(feature = "parquet"))]
            Format::Parquet => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "format: parquet needs a build with `--features parquet` (accepted here: csv, jsonl)",
                ))
            }
        };
        Ok(TableWriter { schema, sink })
    }

    /// Write one row. A row of another length than the schema is refused (in every build: a
    /// short row would shift every later column of a CSV); a float that is not finite is
    /// written as a missing value (JSON has no NaN or infinity; CSV readers agree on empty).
    pub fn row(&mut self, row: &[Value]) -> io::Result<()> {
        if row.len() != self.schema.len() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a row of {} values for {} columns", row.len(), self.schema.len()),
            ));
        }
        match &mut self.sink {
            Sink::Csv(w) => w.row(row),
            Sink::Jsonl(w) => w.row(&self.schema, row),
            #[cfg(feature = "parquet")]
            Sink::Parquet(p) => p.row(row),
        }
    }

    pub fn finish(self) -> io::Result<()> {
        match self.sink {
            Sink::Csv(w) => w.finish(),
            Sink::Jsonl(w) => w.finish(),
            #[cfg(feature = "parquet")]
            Sink::Parquet(p) => p.finish()?.commit(),
        }
    }

    /// Drop the partial output (the temporary goes with it).
    pub fn abandon(self) {}
}

#[cfg(test)]
mod tests {
    use super::{Column, Format, TableWriter, Value};

    /// A NaN was written as `NaN` into JSON lines (no JSON reader accepts it), and a row of the
    /// wrong length was checked only in debug builds.
    #[test]
    fn non_finite_floats_are_missing_values_and_rows_have_the_schemas_length() {
        let dir = tempfile::tempdir().unwrap();
        let rules = serde_json::json!({"game": "test"});
        let schema = || vec![Column::Int("n"), Column::Float("x")];
        for (format, name) in [(Format::Jsonl, "t.jsonl"), (Format::Csv, "t.csv")] {
            let out = dir.path().join(name);
            let mut w = TableWriter::create(&out, format, schema(), &rules).unwrap();
            for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1.5] {
                w.row(&[Value::Int(1), Value::Float(x)]).unwrap();
            }
            let e = w.row(&[Value::Int(1)]).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
            assert!(e.to_string().contains("1 values for 2 columns"), "{e}");
            w.finish().unwrap();
            let text = std::fs::read_to_string(&out).unwrap();
            if format == Format::Jsonl {
                let rows: Vec<serde_json::Value> =
                    text.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect();
                let xs: Vec<serde_json::Value> = rows.iter().map(|r| r["x"].clone()).collect();
                assert_eq!(xs, [serde_json::Value::Null, serde_json::Value::Null, serde_json::Value::Null, 1.5.into()]);
            } else {
                assert_eq!(text, "n,x\n1,\n1,\n1,\n1,1.5\n");
            }
        }
    }
}
