//! Which damaged blocks the reads of one computation met. A layer remembers the first damaged
//! block any reader met ([`super::layer::Layer::damage`], for a command that answers one
//! query); a server answering many queries at once needs to know whether *this* answer read
//! one, so every read of a damaged block is also noted for the thread that made it, and
//! [`reads`] collects the notes of a computation run on the calling thread (the searches are
//! single-threaded).

use std::cell::Cell;

/// A damaged block a read met: the layer (pieces on the board) and the block's number in its
/// file. No path: the server reports it to clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Damaged {
    pub layer: u32,
    pub block: u64,
}

impl std::fmt::Display for Damaged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "layer {} block {} is damaged (its checksum does not match)", self.layer, self.block)
    }
}

thread_local! {
    static SEEN: Cell<Option<Damaged>> = const { Cell::new(None) };
}

/// Record a read of a damaged block on this thread (the first one stays).
pub(crate) fn note(layer: u32, block: u64) {
    SEEN.with(|s| {
        if s.get().is_none() {
            s.set(Some(Damaged { layer, block }));
        }
    });
}

/// Run `f` and say which damaged block, if any, its reads on this thread met (the first).
/// Nested calls each see their own reads; an outer call sees the inner ones too.
pub fn reads<R>(f: impl FnOnce() -> R) -> (R, Option<Damaged>) {
    let outer = SEEN.with(|s| s.take());
    let r = f();
    let inner = SEEN.with(|s| s.replace(outer.or(s.get())));
    (r, inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_computation_sees_its_own_damaged_reads() {
        let ((), d) = reads(|| ());
        assert_eq!(d, None);
        let ((), d) = reads(|| note(7, 3));
        assert_eq!(d, Some(Damaged { layer: 7, block: 3 }));
        // The next computation on the same thread starts clean.
        let ((), d) = reads(|| ());
        assert_eq!(d, None);
        // Nested: the inner one sees its read, the outer one both.
        let (inner, outer) = reads(|| {
            let ((), i) = reads(|| note(2, 1));
            note(5, 0);
            i
        });
        assert_eq!(inner, Some(Damaged { layer: 2, block: 1 }));
        assert_eq!(outer, Some(Damaged { layer: 2, block: 1 }));
        assert_eq!(
            Damaged { layer: 4, block: 9 }.to_string(),
            "layer 4 block 9 is damaged (its checksum does not match)"
        );
    }
}
