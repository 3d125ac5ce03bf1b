//! Dataset writers: every table the tool produces can be written as CSV, JSON lines or (with
//! the `parquet` feature) Parquet, with one fixed schema per dataset. Plots are SVG written here.
pub mod svg;
pub mod table;

pub use table::{meta_json, meta_path, Column, Format, TableWriter, Value, VERSION};
