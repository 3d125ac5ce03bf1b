//! JSON lines: a first `{"rules":…}` object, then one object per row, keyed by column name.

use super::schema::{Column, Value};
use crate::store::AtomicFile;
use std::io::{self, Write};
use std::path::Path;

pub(super) struct JsonlSink {
    file: AtomicFile,
}

impl JsonlSink {
    pub(super) fn create(out: &Path, rules: &serde_json::Value) -> io::Result<Self> {
        let mut file = AtomicFile::create(out)?;
        writeln!(file, "{}", serde_json::json!({ "rules": rules }))?;
        Ok(JsonlSink { file })
    }

    /// One row of the schema's length (the caller checks); a missing value, and a float that
    /// is not finite (JSON has no NaN or infinity), is `null`.
    pub(super) fn row(&mut self, schema: &[Column], row: &[Value]) -> io::Result<()> {
        let w = &mut self.file;
        w.write_all(b"{")?;
        for (i, (c, v)) in schema.iter().zip(row).enumerate() {
            if i > 0 {
                w.write_all(b",")?;
            }
            write!(w, "\"{}\":", c.name())?;
            match v {
                Value::Int(x) => write!(w, "{x}")?,
                Value::Float(x) if x.is_finite() => write!(w, "{x}")?,
                Value::Str(s) => write!(w, "{}", serde_json::Value::String(s.clone()))?,
                Value::Float(_) | Value::Null => w.write_all(b"null")?,
            }
        }
        w.write_all(b"}\n")
    }

    pub(super) fn finish(self) -> io::Result<()> {
        self.file.commit()
    }
}
