//! Storage: how bytes reach the disk. Everything that writes a file goes through
//! [`atomic`], so a reader never sees a half-written file under its final name; files that
//! belong together are published as one [`set`]; a directory has one writer at a time
//! ([`lock`]); [`space`] says up front whether an output fits. Endgame databases keep one
//! [`layer_file`] per layer, or a [`packed`] one (compressed blocks); a [`layer::Layer`] is
//! either, and a read of a damaged block is noted for its thread ([`damage`]). [`resident`] keeps a reader of mapped files within a memory budget.
pub mod atomic;
pub mod damage;
pub mod layer;
pub mod layer_file;
pub mod lock;
pub mod packed;
pub mod resident;
pub mod set;
pub mod space;

pub use atomic::{write_atomic, AtomicFile};
pub use lock::{DirLock, LockError};
pub use set::OutputSet;
