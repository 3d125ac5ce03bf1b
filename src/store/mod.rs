//! Storage: how bytes reach the disk. Everything that writes a file goes through
//! [`atomic`], so a reader never sees a half-written file under its final name; endgame
//! databases keep one [`layer_file`] per layer.
pub mod atomic;
pub mod layer_file;

pub use atomic::{write_atomic, AtomicFile};
