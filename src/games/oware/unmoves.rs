//! The quiet moves that lead to a view: what the retrograde databases walk backwards.

use super::board::{flip, seeds, View, PITS, ROW};
use super::moves::Node;
use super::rules::{GrandSlam, Rules};

impl Rules {
    /// The non-capturing moves that lead to `v` (seen by its mover) from a position with the
    /// same seeds: each predecessor view (previous mover's row first), once per move.
    ///
    /// Candidates come from un-sowing: the previous mover lifted some pit `i` (empty now) and
    /// its `s` seeds fell one by one in the pits after it, skipping `i`; taking them back in
    /// order rebuilds the position before, and sowing `i` from it gives `v` by construction.
    /// What remains is whether that move was legal and captured nothing; grand slams under
    /// the `forbidden`/`awari` variants depend on the other moves and go through [`Rules::node`].
    pub fn unmoves(&self, v: &View, mut push: impl FnMut(View)) {
        let prev = flip(v);
        let n = seeds(&prev) as usize;
        for pit in 0..ROW {
            if prev[pit] != 0 {
                continue; // the origin is always empty after a move
            }
            let mut b = prev;
            let mut pos = pit;
            for s in 1..=n {
                pos += 1;
                if pos == PITS {
                    pos = 0;
                }
                if pos == pit {
                    pos += 1;
                }
                if b[pos] == 0 {
                    break; // this and every longer sowing would need a seed that is not there
                }
                b[pos] -= 1;
                // `b` + `s` seeds in `pit` is the position before; the last seed fell in `pos`.
                if self.is_quiet_move(&b, &prev, pit, s, pos) {
                    let mut cand = b;
                    cand[pit] = s as u8;
                    push(cand);
                }
            }
        }
    }

    /// Whether sowing the `s` seeds of `pit` from `before` (`before[pit]` not yet set) is a
    /// legal move that captures nothing. `after` is the board it gives (the previous mover's
    /// view) and `last` the pit of its last seed, so nothing needs to be sown again.
    #[inline]
    fn is_quiet_move(&self, before: &View, after: &View, pit: usize, s: usize, last: usize) -> bool {
        let opp_empty = before[ROW..].iter().all(|&x| x == 0);
        if opp_empty && pit + s < ROW {
            return false; // O5: only feeding moves are legal
        }
        if last < ROW || !(after[last] == 2 || after[last] == 3) {
            return true; // no capture
        }
        // It captures, unless it is a grand slam under a rule that cancels the capture.
        let mut k = last;
        while k >= ROW && (after[k] == 2 || after[k] == 3) {
            k -= 1;
        }
        // The chain took pits k+1..=last; a grand slam leaves nothing else in that row.
        let before_chain: &[u8] = if k >= ROW { &after[ROW..=k] } else { &[] };
        let grand_slam = before_chain.iter().all(|&x| x == 0) && after[last + 1..].iter().all(|&x| x == 0);
        if !grand_slam {
            return false;
        }
        match self.grand_slam {
            GrandSlam::NoCapture => true,
            // Legal (and capture-free) only when every candidate move is a grand slam.
            GrandSlam::Forbidden => {
                let mut cand = *before;
                cand[pit] = s as u8;
                match self.node(&cand) {
                    Node::Moves(ms) => ms.iter().any(|m| m.pit as usize == pit && m.captured == 0),
                    Node::Ended(_) => false,
                }
            }
            GrandSlam::Awari => false, // when legal it captures
        }
    }
}
