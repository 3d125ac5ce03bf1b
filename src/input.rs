//! Bad input found by the library: the field it concerns (`race`, `south`, `cycle`, …) and what
//! is wrong with it. The library never writes a flag; the command line turns the field into
//! its flag (one table, `cli/args.rs`) and the message reads after it.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub field: &'static str,
    pub message: String,
}

impl InputError {
    pub fn new(field: &'static str, message: impl Into<String>) -> InputError {
        InputError { field, message: message.into() }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for InputError {}

/// `out` must be a directory if it exists.
pub fn check_out_dir(out: &std::path::Path) -> Result<(), InputError> {
    if out.exists() && !out.is_dir() {
        return Err(InputError::new("out", format!("{} exists and is not a directory", out.display())));
    }
    Ok(())
}
