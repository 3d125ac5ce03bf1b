//! Storage: how bytes reach the disk. Everything that writes a file goes through
//! [`atomic`], so a reader never sees a half-written file under its final name.
pub mod atomic;

pub use atomic::{write_atomic, AtomicFile};
