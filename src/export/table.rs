//! A row-oriented table writer with a fixed schema, for CSV, JSON lines and Parquet.
//! Every file carries the rules in force: CSV as a leading `# rules: {...}` comment line,
//! JSON lines as a first `{"rules":…}` object, Parquet as key-value metadata.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Csv,
    Jsonl,
    Parquet,
}

/// Column kinds: integers and floats (nullable) and strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Int(&'static str),
    Float(&'static str),
    Str(&'static str),
}

impl Column {
    pub fn name(&self) -> &'static str {
        match self {
            Column::Int(n) | Column::Float(n) | Column::Str(n) => n,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    /// Written in its shortest exact decimal form (`2.5`, `-3`); must be finite.
    Float(f64),
    Str(String),
    Null,
}

/// Writes to a temporary sibling and renames on [`TableWriter::finish`], so a failed export
/// leaves nothing behind.
pub struct TableWriter {
    schema: Vec<Column>,
    format: Format,
    tmp: PathBuf,
    out: PathBuf,
    sink: Sink,
}

enum Sink {
    Text(BufWriter<File>),
    #[cfg(feature = "parquet")]
    Parquet(parquet_sink::ParquetSink),
}

impl TableWriter {
    pub fn create(out: &Path, format: Format, schema: Vec<Column>, rules: &serde_json::Value) -> io::Result<Self> {
        let tmp = out.with_file_name(format!(".{}.tmp", out.file_name().and_then(|s| s.to_str()).unwrap_or("export")));
        let sink = match format {
            Format::Csv | Format::Jsonl => {
                let mut w = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
                if format == Format::Csv {
                    writeln!(w, "# rules: {rules}")?;
                    let names: Vec<&str> = schema.iter().map(|c| c.name()).collect();
                    writeln!(w, "{}", names.join(","))?;
                } else {
                    writeln!(w, "{}", serde_json::json!({ "rules": rules }))?;
                }
                Sink::Text(w)
            }
            #[cfg(feature = "parquet")]
            Format::Parquet => Sink::Parquet(parquet_sink::ParquetSink::create(&tmp, &schema, rules)?),
            #[cfg(not(feature = "parquet"))]
            Format::Parquet => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "format: parquet needs a build with `--features parquet` (accepted here: csv, jsonl)",
                ))
            }
        };
        Ok(TableWriter { schema, format, tmp, out: out.to_path_buf(), sink })
    }

    pub fn row(&mut self, row: &[Value]) -> io::Result<()> {
        debug_assert_eq!(row.len(), self.schema.len());
        match &mut self.sink {
            Sink::Text(w) => {
                if self.format == Format::Csv {
                    for (i, v) in row.iter().enumerate() {
                        if i > 0 {
                            w.write_all(b",")?;
                        }
                        match v {
                            Value::Int(x) => write!(w, "{x}")?,
                            Value::Float(x) => write!(w, "{x}")?,
                            Value::Str(s) => write!(w, "{}", csv_field(s))?,
                            Value::Null => {}
                        }
                    }
                    w.write_all(b"\n")
                } else {
                    w.write_all(b"{")?;
                    for (i, (c, v)) in self.schema.iter().zip(row).enumerate() {
                        if i > 0 {
                            w.write_all(b",")?;
                        }
                        write!(w, "\"{}\":", c.name())?;
                        match v {
                            Value::Int(x) => write!(w, "{x}")?,
                            Value::Float(x) => write!(w, "{x}")?,
                            Value::Str(s) => write!(w, "{}", serde_json::Value::String(s.clone()))?,
                            Value::Null => w.write_all(b"null")?,
                        }
                    }
                    w.write_all(b"}\n")
                }
            }
            #[cfg(feature = "parquet")]
            Sink::Parquet(p) => p.row(row),
        }
    }

    pub fn finish(self) -> io::Result<()> {
        match self.sink {
            Sink::Text(mut w) => {
                w.flush()?;
                w.get_ref().sync_all()?;
            }
            #[cfg(feature = "parquet")]
            Sink::Parquet(p) => p.finish()?,
        }
        std::fs::rename(&self.tmp, &self.out)
    }

    /// Drop the partial output.
    pub fn abandon(self) {
        let _ = std::fs::remove_file(&self.tmp);
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(feature = "parquet")]
mod parquet_sink {
    use super::{Column, Value};
    use arrow::array::{ArrayRef, Float64Builder, Int64Builder, StringBuilder};
    use arrow::datatypes::{DataType, Field, Schema};
    use arrow::record_batch::RecordBatch;
    use parquet::arrow::ArrowWriter;
    use parquet::file::properties::WriterProperties;
    use parquet::format::KeyValue;
    use std::fs::File;
    use std::io;
    use std::path::Path;
    use std::sync::Arc;

    enum Col {
        Int(Int64Builder),
        Float(Float64Builder),
        Str(StringBuilder),
    }

    pub struct ParquetSink {
        schema: Arc<Schema>,
        cols: Vec<Col>,
        rows: usize,
        writer: ArrowWriter<File>,
    }

    fn err(e: impl std::fmt::Display) -> io::Error {
        io::Error::other(e.to_string())
    }

    impl ParquetSink {
        pub fn create(path: &Path, schema: &[Column], rules: &serde_json::Value) -> io::Result<Self> {
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
                .set_key_value_metadata(Some(vec![KeyValue::new("rules".to_string(), rules.to_string())]))
                .build();
            let writer = ArrowWriter::try_new(File::create(path)?, schema.clone(), Some(props)).map_err(err)?;
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

        pub fn row(&mut self, row: &[Value]) -> io::Result<()> {
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

        pub fn finish(mut self) -> io::Result<()> {
            self.flush()?;
            let f = self.writer.into_inner().map_err(err)?;
            f.sync_all()
        }
    }
}
