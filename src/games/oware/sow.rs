//! O2–O3: one sowing and its captures, before the grand-slam variant (O4) looks at it.

use super::board::{View, PITS, ROW};

/// Result of sowing pit `pit` of a view (before any grand-slam filtering).
#[derive(Clone, Copy, Debug)]
pub struct Sowing {
    /// Board after sowing and capturing, still from the mover's view.
    pub board: View,
    /// Board after sowing, before capturing.
    pub sown: View,
    pub captured: u8,
    /// The captures would take every seed of the opponent's row.
    pub grand_slam: bool,
    /// The sowing put at least one seed into the opponent's row.
    pub feeds: bool,
}

/// O2–O3: lift pit `pit` (0..5, non-empty) and sow counterclockwise, skipping the origin
/// on every lap; capture backwards from the last pit while it is an opponent pit holding 2 or 3.
#[inline]
pub fn sow(v: &View, pit: usize) -> Sowing {
    debug_assert!(pit < ROW && v[pit] > 0);
    let mut b = *v;
    let seeds = b[pit] as usize;
    b[pit] = 0;
    // Each full lap drops one seed in each of the 11 other pits.
    let laps = seeds / 11;
    let rest = seeds % 11;
    if laps > 0 {
        for (k, x) in b.iter_mut().enumerate() {
            if k != pit {
                *x += laps as u8;
            }
        }
    }
    let mut last = pit;
    for _ in 0..rest {
        last = (last + 1) % PITS;
        if last == pit {
            last = (last + 1) % PITS;
        }
        b[last] += 1;
    }
    if rest == 0 {
        // The last seed of the last full lap fell in the pit just before the origin.
        last = (pit + PITS - 1) % PITS;
    }
    let feeds = pit + seeds >= ROW;
    let sown = b;
    let mut captured = 0u8;
    let mut k = last;
    while k >= ROW && (b[k] == 2 || b[k] == 3) {
        captured += b[k];
        b[k] = 0;
        k -= 1;
    }
    let grand_slam = captured > 0 && b[ROW..].iter().all(|&x| x == 0);
    Sowing { board: b, sown, captured, grand_slam, feeds }
}
