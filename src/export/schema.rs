//! What every table format shares: the columns and their values, the format names, and the
//! metadata each table carries (the rules in force and the writer's version).

use std::path::{Path, PathBuf};

/// The version every table's metadata names: the crate's.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The sidecar of a CSV file: `NAME.csv` -> `NAME.meta.json` (any other name gains
/// `.meta.json`).
pub fn meta_path(csv: &Path) -> PathBuf {
    let name = csv.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_suffix(".csv").unwrap_or(&name);
    csv.with_file_name(format!("{stem}.meta.json"))
}

/// The sidecar's object: the data file's name, the rules, the version and the columns with
/// their kinds (`int`, `float`, `str`; an empty cell is a null).
pub fn meta_json(file: &str, schema: &[Column], rules: &serde_json::Value) -> serde_json::Value {
    let columns: Vec<serde_json::Value> =
        schema.iter().map(|c| serde_json::json!({"name": c.name(), "type": c.kind()})).collect();
    serde_json::json!({"file": file, "rules": rules, "version": VERSION, "columns": columns})
}

crate::variant::variants! {
    /// The table formats.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Format ("table format") {
        Csv = "csv": "comma-separated values, the rules and columns in a NAME.meta.json sidecar",
        Jsonl = "jsonl": "JSON lines, the rules in a first {\"rules\":…} object",
        Parquet = "parquet": "Apache Parquet, the rules as key-value metadata (a build with the parquet feature)",
    }
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

    /// The kind as a sidecar names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Column::Int(_) => "int",
            Column::Float(_) => "float",
            Column::Str(_) => "str",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    /// Written in its shortest exact decimal form (`2.5`, `-3`); one that is not finite is
    /// written as a missing value.
    Float(f64),
    Str(String),
    Null,
}
