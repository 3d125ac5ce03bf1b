//! CSV: a header line and rows only, so `pandas.read_csv` and `polars.read_csv` load it with no
//! options; the rules, version and column kinds go to its sidecar `NAME.meta.json`, written
//! (atomically, beside it) at the finish, before the CSV is renamed into place: a CSV present
//! always has its metadata.

use super::schema::{meta_json, meta_path, Column, Value};
use crate::store::AtomicFile;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub(super) struct CsvSink {
    file: AtomicFile,
    /// The sidecar's path and text.
    meta: (PathBuf, String),
}

impl CsvSink {
    pub(super) fn create(out: &Path, schema: &[Column], rules: &serde_json::Value) -> io::Result<Self> {
        let mut file = AtomicFile::create(out)?;
        let name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let text = serde_json::to_string_pretty(&meta_json(&name, schema, rules)).map_err(io::Error::other)?;
        let names: Vec<&str> = schema.iter().map(|c| c.name()).collect();
        writeln!(file, "{}", names.join(","))?;
        Ok(CsvSink { file, meta: (meta_path(out), format!("{text}\n")) })
    }

    /// One row of the schema's length (the caller checks); a missing value is an empty cell.
    pub(super) fn row(&mut self, row: &[Value]) -> io::Result<()> {
        let w = &mut self.file;
        for (i, v) in row.iter().enumerate() {
            if i > 0 {
                w.write_all(b",")?;
            }
            match v {
                Value::Int(x) => write!(w, "{x}")?,
                Value::Float(x) if x.is_finite() => write!(w, "{x}")?,
                Value::Str(s) => write!(w, "{}", csv_field(s))?,
                Value::Float(_) | Value::Null => {}
            }
        }
        w.write_all(b"\n")
    }

    /// The sidecar first, then the CSV into place.
    pub(super) fn finish(self) -> io::Result<()> {
        let (path, text) = &self.meta;
        crate::store::write_atomic(path, text.as_bytes())?;
        self.file.commit()
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A CSV is its header line and rows only; the rules, version and column kinds are in its
/// sidecar, which appears with the CSV and not before.
#[cfg(test)]
mod tests {
    use crate::export::{meta_path, Column, Format, TableWriter, Value, VERSION};
    use std::path::Path;

    #[test]
    fn csv_has_no_comment_line_and_a_sidecar_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("t.csv");
        let schema = vec![Column::Int("n"), Column::Float("x"), Column::Str("s")];
        let rules = serde_json::json!({"game": "test", "k": 2});
        let mut w = TableWriter::create(&out, Format::Csv, schema, &rules).unwrap();
        w.row(&[Value::Int(-3), Value::Float(2.5), Value::Str("a,\"b\"".into())]).unwrap();
        w.row(&[Value::Int(4), Value::Null, Value::Str(String::new())]).unwrap();
        // Nothing is in place before the finish.
        assert!(!out.exists() && !meta_path(&out).exists());
        w.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "n,x,s\n-3,2.5,\"a,\"\"b\"\"\"\n4,,\n");
        assert_eq!(meta_path(&out), dir.path().join("t.meta.json"));
        let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(meta_path(&out)).unwrap()).unwrap();
        assert_eq!(
            meta,
            serde_json::json!({"file": "t.csv", "rules": rules, "version": VERSION, "columns": [
                {"name": "n", "type": "int"}, {"name": "x", "type": "float"}, {"name": "s", "type": "str"}]})
        );
        // An abandoned export leaves neither file.
        let other = dir.path().join("u.csv");
        let w = TableWriter::create(&other, Format::Csv, vec![Column::Int("n")], &rules).unwrap();
        w.abandon();
        let mut names: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        names.sort();
        assert_eq!(names, ["t.csv", "t.meta.json"]);
        assert_eq!(meta_path(Path::new("a/b.tsv")), Path::new("a/b.tsv.meta.json"));
    }
}
