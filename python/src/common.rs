//! What every game's bindings share: the error Python sees (`MancalaError`, the CLI's line),
//! flag values parsed as the CLI parses them, and progress callbacks.

use mancala::input::{flag, InputError};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

create_exception!(_native, MancalaError, PyValueError, "Bad input or a refused file: the CLI's one-line message.");

pub(crate) fn err(line: impl Into<String>) -> PyErr {
    MancalaError::new_err(line.into())
}

pub(crate) fn input(e: InputError) -> PyErr {
    err(e.line())
}

/// A value of a flag parsed by its type's `FromStr`; the error names the flag of `field`.
pub(crate) fn parse<T: std::str::FromStr>(field: &'static str, s: &str) -> PyResult<T>
where
    T::Err: std::fmt::Display,
{
    s.parse::<T>().map_err(|e| err(format!("{}: {e}", flag(field))))
}

/// A progress callback called with `(done, total)` (`total`: the work's size when known, else
/// `None`), at most every 0.2 s, from whichever thread finishes work (it takes the GIL for the
/// call).
pub(crate) struct Progress {
    callback: Option<PyObject>,
    total: Option<u64>,
    done: AtomicU64,
    last: Mutex<Instant>,
}

impl Progress {
    pub(crate) fn new(callback: Option<PyObject>, total: Option<u64>) -> Progress {
        Progress { callback, total, done: AtomicU64::new(0), last: Mutex::new(Instant::now()) }
    }

    pub(crate) fn add(&self, n: u64) {
        let total = self.done.fetch_add(n, Ordering::Relaxed) + n;
        let Some(cb) = &self.callback else { return };
        if let Ok(mut last) = self.last.try_lock() {
            if last.elapsed() >= Duration::from_millis(200) {
                *last = Instant::now();
                // A failing callback must not stop the computation: its error is printed.
                Python::with_gil(|py| {
                    if let Err(e) = cb.call1(py, (total, self.total)) {
                        e.print(py);
                    }
                });
            }
        }
    }

    pub(crate) fn finish(&self, py: Python<'_>) -> PyResult<()> {
        if let Some(cb) = &self.callback {
            cb.call1(py, (self.done.load(Ordering::Relaxed), self.total))?;
        }
        Ok(())
    }
}
