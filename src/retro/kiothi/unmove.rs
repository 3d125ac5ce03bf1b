//! Predecessors without capture ("unmoves") of a Kiothi table position.
//!
//! Work in the coordinates of the position `F` reached (its mover's row is boma 0..9); the
//! player who made the move owns boma 10..19. Sowing order is the same absolute order.
//!
//! A move that does not capture keeps the warriors on the board; it is a chain of laps, the
//! last one ending at a boma `x` that was empty (K5), so `F[x] = 1`. With at most 19 warriors
//! on the board a lap drops fewer than 20, so **a lap never goes round the board**: a lap of
//! `h` from `s` drops one in each of `s+1 ..= s+h` and nothing else.
//!
//! Reverse the lap that landed on `x`, in the board `B` right after it. Let `L` be the length
//! of the run of occupied boma ending at `x` going backwards (`x, x-1, …`, each `>= 1`).
//!
//! - **Relay lap.** A relay lifts its boma `s` completely, so right after the lap `s` is empty
//!   and `s+1 ..= x` hold at least one: `h = L` and `s = x - L`, so there is at most one
//!   relay predecessor state: take one from each of `s+1 ..= x`, put `L` on `s`. The lap before
//!   landed on `s`, which was occupied before that drop, so `L >= 2`. Recurse from `(B', s)`.
//! - **First lap** from an own origin `s = x - k`, `1 <= k <= L` (a partial lift: `s` may keep
//!   warriors): take one from each of `s+1 ..= x` and put `k` back on `s`. K4: a first lap that
//!   relays (the move has more laps) must land in the opponent's row (`x` in 0..9 here); a
//!   move of one lap ends on the empty `x` anywhere.
//!
//! Relay predecessors are unique, so the search from each `x` is a path with side branches;
//! it is finite, since forward sowing is deterministic and ends at `F` (a repeated state on
//! the path would make the forward sowing from it both end at `F` after two different numbers
//! of relays).
//!
//! The capture rule decides which `x` can end a capture-free move: landing at the mover's own
//! index `i` (boma `10 + i`) with the opposite boma (`19 - x` here) occupied and not nki after
//! the move would have captured (K5). And nki (K3, `nki-clear=lift`): every boma lifted by the
//! move (origin and relay points) is not nki in `F`; in the predecessor such a boma may have
//! been nki or not when it was occupied at the start of the move; every other boma keeps its
//! flag, so an nki boma of `F` that was not lifted must be occupied in the predecessor.

use crate::games::kiothi::{Board, BOMA, ROW};

/// A predecessor board of `F` (same coordinates as `F`) with what its move lifted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unmove {
    pub board: Board,
    /// Boma lifted by the move: the origin and every relay point.
    pub lifted: u32,
    /// The boma opposite the landing when it is occupied in `F`: the move did not capture
    /// only if it is nki in `F`.
    pub guard: Option<u8>,
}

/// Every capture-free move into the board `f` (nki ignored here, see [`Unmove`]): one entry
/// per (predecessor board, move); the nki flags multiply them later.
pub fn unmoves_of_board(f: &Board, out: &mut Vec<Unmove>) {
    out.clear();
    for x0 in 0..BOMA {
        if f[x0] != 1 {
            continue;
        }
        let guard = if x0 >= ROW && f[BOMA - 1 - x0] > 0 { Some((BOMA - 1 - x0) as u8) } else { None };
        let mut b = *f;
        let mut x = x0;
        let mut last_lap = true;
        let mut relays = 0u32;
        let mut steps = 0u64;
        loop {
            // The run of occupied boma ending at x.
            let mut run = 0;
            while run < BOMA && b[(x + BOMA - run) % BOMA] > 0 {
                run += 1;
            }
            if last_lap || x < ROW {
                for k in 1..=run.min(BOMA - 1) {
                    let s = (x + BOMA - k) % BOMA;
                    if s < ROW {
                        continue;
                    }
                    let mut p = b;
                    p[s] += k as u8;
                    for j in 1..=k {
                        p[(s + j) % BOMA] -= 1;
                    }
                    out.push(Unmove { board: p, lifted: relays | 1 << s, guard });
                }
            }
            if !(2..BOMA).contains(&run) {
                break;
            }
            let s = (x + BOMA - run) % BOMA;
            for j in 1..=run {
                b[(s + j) % BOMA] -= 1;
            }
            b[s] = run as u8;
            relays |= 1 << s;
            x = s;
            last_lap = false;
            steps += 1;
            assert!(steps < 1 << 32, "backward relay chain does not end (impossible for a sowing that ends)");
        }
    }
}

#[inline(always)]
pub(super) fn occupied(b: &Board) -> u32 {
    b.iter().enumerate().fold(0u32, |m, (a, &x)| m | ((x != 0) as u32) << a)
}

/// Call `f(pred_board, pred_nki)` (in `F`'s coordinates) for every capture-free move into
/// `(F, nki)`, given the board's unmoves.
#[inline]
pub fn for_each_predecessor(unmoves: &[Unmove], nki: u32, mut f: impl FnMut(&Board, u32)) {
    for u in unmoves {
        if nki & u.lifted != 0 {
            continue;
        }
        if let Some(g) = u.guard {
            if nki >> g & 1 == 0 {
                continue;
            }
        }
        let occ = occupied(&u.board);
        if nki & !occ != 0 {
            continue;
        }
        let free = u.lifted & occ;
        // Every subset of `free`, by the usual submask walk.
        let mut sub = free;
        loop {
            f(&u.board, nki | sub);
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & free;
        }
    }
}
