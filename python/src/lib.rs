//! `mancala._native`: the Rust library behind the Python package `mancala` (python/mancala).
//!
//! Every call goes to the library the command line uses, and answers are the JSON objects the
//! command line prints (built by the same library functions), so the Python package returns
//! what the CLI prints. Tables come back as NumPy arrays, which pyarrow wraps without a copy.
//! Bad input raises `MancalaError` (a `ValueError`) whose message is the CLI's one line: the
//! flag, then the library's text ([`mancala::input::InputError::line`]). Long calls release
//! the GIL.
//!
//! One file per game (`oware`, `lukho`, `kiothi`) registers its classes and functions; `common`
//! holds what they share (the error, flag parsing, progress callbacks).

mod common;
mod kiothi;
mod lukho;
mod oware;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MancalaError", m.py().get_type::<common::MancalaError>())?;
    m.add("__version__", mancala::export::VERSION)?;
    oware::register(m)?;
    lukho::register(m)?;
    kiothi::register(m)?;
    Ok(())
}
