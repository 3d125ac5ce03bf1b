//! Parquet (a build with the `parquet` feature): typed nullable columns through Arrow, the
//! rules and version as key-value metadata, written in batches of 2^16 rows.

use super::schema::{Column, Value, VERSION};
use crate::store::AtomicFile;
use arrow::array::{ArrayRef, Float64Builder, Int64Builder, StringBuilder};
use arrow::datatypes::{DataType, Field, Schema};
use arrow::record_batch::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use parquet::format::KeyValue;
use std::io;
use std::sync::Arc;

enum Col {
    Int(Int64Builder),
    Float(Float64Builder),
    Str(StringBuilder),
}

pub(super) struct ParquetSink {
    schema: Arc<Schema>,
    cols: Vec<Col>,
    rows: usize,
    writer: ArrowWriter<AtomicFile>,
}

fn err(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("parquet export: {msg}"))
}

impl ParquetSink {
    pub(super) fn create(file: AtomicFile, schema: &[Column], rules: &serde_json::Value) -> io::Result<Self> {
        let fields: Vec<Field> = schema
            .iter()
            .map(|c| match c {
                Column::Int(n) => Field::new(*n, DataType::Int64, true),
                Column::Float(n) => Field::new(*n, DataType::Float64, true),
                Column::Str(n) => Field::new(*n, DataType::Utf8, true),
            })
            .collect();
        let schema = Arc::new(Schema::new(fields));
        let props = WriterProperties::builder()
            .set_key_value_metadata(Some(vec![
                KeyValue::new("rules".to_string(), rules.to_string()),
                KeyValue::new("version".to_string(), VERSION.to_string()),
            ]))
            .build();
        let writer = ArrowWriter::try_new(file, schema.clone(), Some(props)).map_err(err)?;
        let cols = schema
            .fields()
            .iter()
            .map(|f| match f.data_type() {
                DataType::Int64 => Col::Int(Int64Builder::new()),
                DataType::Float64 => Col::Float(Float64Builder::new()),
                _ => Col::Str(StringBuilder::new()),
            })
            .collect();
        Ok(ParquetSink { schema, cols, rows: 0, writer })
    }

    pub(super) fn row(&mut self, row: &[Value]) -> io::Result<()> {
        // The whole row is checked before any cell is appended: a value of another kind
        // than its column is refused (CSV would write it; a null here would lose it), and
        // a refused row leaves every column the same length.
        if row.len() != self.cols.len() {
            return Err(invalid(format!("a row of {} values for {} columns", row.len(), self.cols.len())));
        }
        for ((c, v), f) in self.cols.iter().zip(row).zip(self.schema.fields()) {
            let fits = matches!(
                (c, v),
                (_, Value::Null)
                    | (Col::Int(_), Value::Int(_))
                    | (Col::Float(_), Value::Float(_))
                    | (Col::Str(_), Value::Str(_))
            );
            if !fits {
                return Err(invalid(format!("column {}: {v:?} in a {} column", f.name(), f.data_type())));
            }
        }
        for (c, v) in self.cols.iter_mut().zip(row) {
            match (c, v) {
                (Col::Int(b), Value::Int(x)) => b.append_value(*x),
                (Col::Int(b), _) => b.append_null(),
                (Col::Float(b), Value::Float(x)) => b.append_value(*x),
                (Col::Float(b), _) => b.append_null(),
                (Col::Str(b), Value::Str(s)) => b.append_value(s),
                (Col::Str(b), _) => b.append_null(),
            }
        }
        self.rows += 1;
        if self.rows >= 1 << 16 {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        let arrays: Vec<ArrayRef> = self
            .cols
            .iter_mut()
            .map(|c| match c {
                Col::Int(b) => Arc::new(b.finish()) as ArrayRef,
                Col::Float(b) => Arc::new(b.finish()) as ArrayRef,
                Col::Str(b) => Arc::new(b.finish()) as ArrayRef,
            })
            .collect();
        let batch = RecordBatch::try_new(self.schema.clone(), arrays).map_err(err)?;
        self.writer.write(&batch).map_err(err)?;
        self.rows = 0;
        Ok(())
    }

    /// Write the footer; the caller commits the file.
    pub(super) fn finish(mut self) -> io::Result<AtomicFile> {
        self.flush()?;
        self.writer.into_inner().map_err(err)
    }
}

/// The Parquet sink read back with the `parquet`/`arrow` readers: schema, types, nulls, the
/// `rules` metadata, and tables long enough to flush full batches (2^16 rows) more than once.
#[cfg(test)]
mod tests {
    use crate::export::{Column, Format, TableWriter, Value, VERSION};
    use arrow::array::{Array, Float64Array, Int64Array, StringArray};
    use arrow::datatypes::DataType;
    use arrow::record_batch::RecordBatch;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::basic::{LogicalType, Type as Physical};
    use std::fs::File;
    use std::path::Path;

    fn schema() -> Vec<Column> {
        vec![Column::Int("id"), Column::Float("half"), Column::Str("name"), Column::Int("maybe")]
    }

    /// Row `i`: every third `maybe` is null, every fifth `name` is null, every seventh `name`
    /// the empty string (which Parquet keeps apart from null).
    fn row(i: i64) -> Vec<Value> {
        vec![
            Value::Int(i),
            Value::Float(i as f64 / 2.0 - 1000.0),
            if i % 5 == 0 {
                Value::Null
            } else if i % 7 == 0 {
                Value::Str(String::new())
            } else {
                Value::Str(format!("r{i}"))
            },
            if i % 3 == 0 { Value::Null } else { Value::Int(-i * 3) },
        ]
    }

    fn rules() -> serde_json::Value {
        serde_json::json!({"game": "test", "variant": "a,\"b\"", "n": 3})
    }

    fn write(path: &Path, rows: impl IntoIterator<Item = Vec<Value>>) {
        let mut w = TableWriter::create(path, Format::Parquet, schema(), &rules()).unwrap();
        for r in rows {
            w.row(&r).unwrap();
        }
        w.finish().unwrap();
    }

    /// Arrow fields as (name, type, nullable).
    type Fields = Vec<(String, DataType, bool)>;

    /// The file's batches, its `rules` metadata and its Arrow fields.
    fn read(path: &Path) -> (Vec<RecordBatch>, Option<String>, Fields) {
        let b = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap();
        let meta = b.metadata().file_metadata();
        let rules =
            meta.key_value_metadata().and_then(|kv| kv.iter().find(|k| k.key == "rules")).and_then(|k| k.value.clone());
        let version = meta
            .key_value_metadata()
            .and_then(|kv| kv.iter().find(|k| k.key == "version"))
            .and_then(|k| k.value.clone());
        assert_eq!(version.as_deref(), Some(VERSION));
        // The physical Parquet types other readers see: INT64, DOUBLE, UTF-8 strings.
        let descr = meta.schema_descr();
        let physical: Vec<(Physical, Option<LogicalType>)> =
            descr.columns().iter().map(|c| (c.physical_type(), c.logical_type())).collect();
        assert_eq!(
            physical,
            [
                (Physical::INT64, None),
                (Physical::DOUBLE, None),
                (Physical::BYTE_ARRAY, Some(LogicalType::String)),
                (Physical::INT64, None)
            ]
        );
        let fields =
            b.schema().fields().iter().map(|f| (f.name().clone(), f.data_type().clone(), f.is_nullable())).collect();
        let batches = b.build().unwrap().collect::<Result<Vec<_>, _>>().unwrap();
        (batches, rules, fields)
    }

    /// Every row of the file, back as `Value`s (null cells as `Value::Null`).
    fn values(batches: &[RecordBatch]) -> Vec<Vec<Value>> {
        let mut out = Vec::new();
        for b in batches {
            let id = b.column(0).as_any().downcast_ref::<Int64Array>().unwrap();
            let half = b.column(1).as_any().downcast_ref::<Float64Array>().unwrap();
            let name = b.column(2).as_any().downcast_ref::<StringArray>().unwrap();
            let maybe = b.column(3).as_any().downcast_ref::<Int64Array>().unwrap();
            for i in 0..b.num_rows() {
                let int = |a: &Int64Array| {
                    if a.is_null(i) {
                        Value::Null
                    } else {
                        Value::Int(a.value(i))
                    }
                };
                out.push(vec![
                    int(id),
                    if half.is_null(i) { Value::Null } else { Value::Float(half.value(i)) },
                    if name.is_null(i) { Value::Null } else { Value::Str(name.value(i).to_string()) },
                    int(maybe),
                ]);
            }
        }
        out
    }

    #[test]
    fn parquet_round_trip_past_several_batch_flushes() {
        let dir = tempfile::tempdir().unwrap();
        // 0 rows (schema only), one row, exactly one full batch, two full batches and a tail.
        for n in [0i64, 1, 1 << 16, (2 << 16) + 4_321] {
            let path = dir.path().join(format!("t{n}.parquet"));
            write(&path, (0..n).map(row));
            // Renamed into place: no temporary left behind.
            let names: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            assert!(!names.iter().any(|f| f.ends_with(".tmp")), "{names:?}");
            let (batches, kv, fields) = read(&path);
            assert_eq!(
                fields,
                [
                    ("id".to_string(), DataType::Int64, true),
                    ("half".to_string(), DataType::Float64, true),
                    ("name".to_string(), DataType::Utf8, true),
                    ("maybe".to_string(), DataType::Int64, true),
                ],
                "{n}"
            );
            assert_eq!(kv.as_deref(), Some(r#"{"game":"test","n":3,"variant":"a,\"b\""}"#), "{n}");
            assert_eq!(serde_json::from_str::<serde_json::Value>(kv.as_deref().unwrap()).unwrap(), rules());
            let got = values(&batches);
            assert_eq!(got.len() as i64, n);
            for (i, r) in got.iter().enumerate() {
                assert_eq!(r, &row(i as i64), "row {i} of {n}");
            }
        }
        // A few rows spelled out, past the first flush: nulls, the empty string, halves.
        let (batches, _, _) = read(&dir.path().join(format!("t{}.parquet", (2 << 16) + 4_321)));
        let got = values(&batches);
        assert_eq!(got[0], [Value::Int(0), Value::Float(-1000.0), Value::Null, Value::Null]);
        assert_eq!(
            got[65_537],
            [Value::Int(65_537), Value::Float(31_768.5), Value::Str("r65537".into()), Value::Int(-196_611)]
        );
        assert_eq!(got[70_000], [Value::Int(70_000), Value::Float(34_000.0), Value::Null, Value::Int(-210_000)]);
        assert_eq!(
            got[70_007],
            [Value::Int(70_007), Value::Float(34_003.5), Value::Str(String::new()), Value::Int(-210_021)]
        );
        assert_eq!(got.last().unwrap()[0], Value::Int((2 << 16) + 4_320));
    }

    #[test]
    fn parquet_extremes_and_awkward_strings() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.parquet");
        let rows = vec![
            vec![Value::Int(i64::MIN), Value::Float(-0.0), Value::Str("a,\"b\"\nc".into()), Value::Int(i64::MAX)],
            vec![Value::Int(1), Value::Float(1e300), Value::Str("é — 🂡".into()), Value::Null],
            vec![Value::Int(2), Value::Float(0.1), Value::Null, Value::Int(0)],
            vec![Value::Int(3), Value::Null, Value::Str("x".into()), Value::Int(-1)],
        ];
        write(&path, rows.clone());
        let (batches, _, _) = read(&path);
        let got = values(&batches);
        assert_eq!(got, rows);
        // -0.0 keeps its sign.
        let Value::Float(z) = got[0][1] else { panic!() };
        assert!(z == 0.0 && z.is_sign_negative());
    }

    #[test]
    fn parquet_refuses_a_value_of_another_kind_and_stays_aligned() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.parquet");
        let mut w = TableWriter::create(&path, Format::Parquet, schema(), &rules()).unwrap();
        w.row(&row(1)).unwrap();
        // An integer in the float column: refused, naming the column, nothing appended.
        let bad = vec![Value::Int(2), Value::Int(3), Value::Str("s".into()), Value::Int(4)];
        let e = w.row(&bad).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("column half: Int(3) in a Float64 column"), "{e}");
        let bad = vec![Value::Int(2), Value::Float(3.0), Value::Int(5), Value::Int(4)];
        assert!(w.row(&bad).unwrap_err().to_string().contains("column name"));
        w.row(&row(2)).unwrap();
        w.finish().unwrap();
        let (batches, _, _) = read(&path);
        assert_eq!(values(&batches), [row(1), row(2)]);
    }

    #[test]
    fn parquet_abandoned_export_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone.parquet");
        let mut w = TableWriter::create(&path, Format::Parquet, schema(), &rules()).unwrap();
        for i in 0..70_000 {
            w.row(&row(i)).unwrap();
        }
        w.abandon();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
