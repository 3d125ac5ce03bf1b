//! Dataset writers: every table the tool produces can be written as CSV, JSON lines or (with
//! the `parquet` feature) Parquet, with one fixed schema per dataset; [`TableWriter`] takes the
//! rows, one file per format writes them. Plots are SVG written here.
mod csv;
mod jsonl;
#[cfg(feature = "parquet")]
mod parquet;
mod schema;
pub mod svg;
pub mod table;

pub use table::{meta_json, meta_path, Column, Format, TableWriter, Value, VERSION};
