//! Kiothi under fixed rules as a layered game: forward moves (sowings, then flags and
//! captures per position) and predecessors (per board, then flags), each memoised per thread
//! for the last board seen.

use super::unmove::{self, Unmove};
use super::view::{rotate, rotate_mask, View};
use super::TableIndex;
use crate::games::kiothi::{Board, Rules, SowMove, SowingCache, BOMA, ROW};
use crate::retro::{Edge, LayeredGame, Layers};
use std::cell::RefCell;

/// Kiothi under fixed rules as a layered game (mover's view, nki masks included).
pub struct KiothiLayers {
    pub rules: Rules,
    pub index: TableIndex,
    /// Shared by the build's threads; cleared at the start of each layer.
    pub sowing: SowingCache,
}

/// One legal sowing of a board, before the flags: the board when the last warrior has fallen
/// (absolute, mover = South), where it fell, what it lifted.
#[derive(Clone, Copy, Debug)]
struct Sowing {
    mv: SowMove,
    board: Board,
    end: u8,
    lifted: u32,
    /// The sowing ends in an own boma whose opposite boma is occupied (K5)...
    may_capture: bool,
    /// ... and then it captures unless one of these flags is set (the opposite boma is nki
    /// and the move did not lift it).
    blocked_by: u32,
}

/// An unmove of a board, ready to rank: the predecessor's rank without flags, and where each
/// boma's flag goes in its mask.
#[derive(Clone, Copy, Debug)]
struct RankedUnmove {
    lifted: u32,
    guard: Option<u8>,
    /// Occupied boma of the predecessor (in the coordinates of the position reached).
    occupied: u32,
    base: u64,
    /// `bit[a]`: the mask bit of boma `a` (coordinates of the position reached) in the
    /// predecessor's rank.
    bit: [u8; BOMA],
}

#[derive(Default)]
struct Cache {
    forward_key: Option<(Board, Rules)>,
    forward: Vec<Sowing>,
    backward_key: Option<Board>,
    backward: Vec<Unmove>,
    /// `(layer, rank of the board without flags)` of `ranked`.
    ranked_key: Option<(usize, u64)>,
    ranked_occupied: u32,
    ranked: Vec<RankedUnmove>,
}

// The last board's sowings and unmoves, per thread: the builder's workers walk a layer in rank
// order, where the nki masks of a board are adjacent, so one entry serves them all. Every entry
// is a function of its key alone (board, rules), so no value depends on what the memo holds.
// What does depend on it is how often a board is sown, and so the sowing counters of
// [`KiothiLayers::sowing`] that `kiothi db build` prints per layer: a board whose masks
// straddle two chunks taken by different threads is sown twice. Values and checksums never
// vary.
thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

impl KiothiLayers {
    pub fn new(rules: Rules) -> Self {
        KiothiLayers { rules, index: TableIndex::new(), sowing: SowingCache::new() }
    }

    /// Every legal move of `v` with its child (mover's view) and warriors captured, own
    /// indices ascending, then lifts ascending; false when the mover has no legal move.
    pub fn moves(&self, v: &View, mut f: impl FnMut(SowMove, View, u8)) -> bool {
        self.with_sowings(&v.boma, |sowings| {
            for s in sowings {
                let (child, captured) = finish(s, v.nki);
                f(s.mv, child, captured);
            }
            !sowings.is_empty()
        })
    }

    /// `f` of the legal sowings of a board (this thread keeps the last board's).
    #[inline]
    fn with_sowings<R>(&self, boma: &Board, f: impl FnOnce(&[Sowing]) -> R) -> R {
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            let key = Some((*boma, self.rules));
            if c.forward_key != key {
                c.forward.clear();
                let p = View { boma: *boma, nki: 0 }.position();
                for b in 0..ROW as u8 {
                    for lift in 1..=boma[b as usize] {
                        let mv = SowMove { boma: b, lift };
                        if let Ok(s) = p.sow_uncaptured(&self.rules, &self.sowing, mv) {
                            let end = s.end as usize;
                            let opp = BOMA - 1 - end;
                            let may_capture = end < ROW && s.board[opp] > 0;
                            let blocked_by = if s.lifted >> opp & 1 == 1 { 0 } else { 1 << opp };
                            c.forward.push(Sowing {
                                mv,
                                board: s.board,
                                end: s.end,
                                lifted: s.lifted,
                                may_capture,
                                blocked_by,
                            });
                        }
                    }
                }
                c.forward_key = key;
            }
            f(&c.forward)
        })
    }
}

/// K3 flags and K5/K6 capture after a sowing, then the child from its mover's view.
#[inline]
fn finish(s: &Sowing, nki: u32) -> (View, u8) {
    let nki = nki & !s.lifted;
    let mut b = s.board;
    let mut captured = 0u8;
    let end = s.end as usize;
    if end < ROW {
        let take = |b: &mut Board, a: usize| -> Option<u8> {
            if b[a] > 0 && nki >> a & 1 == 0 {
                Some(std::mem::take(&mut b[a]))
            } else {
                None
            }
        };
        if let Some(c) = take(&mut b, BOMA - 1 - end) {
            captured = c + b[end];
            b[end] = 0;
            if end == 0 {
                // K6: opponent indices 8, 7, 6.
                for a in [ROW + 8, ROW + 7, ROW + 6] {
                    match take(&mut b, a) {
                        Some(c) => captured += c,
                        None => break,
                    }
                }
            }
        }
    }
    let nki = nki & unmove::occupied(&b);
    (View { boma: rotate(&b), nki: rotate_mask(nki) }, captured)
}

impl LayeredGame for KiothiLayers {
    type Pos = View;
    const SORT_FRONTIER: bool = true;

    fn layer_size(&self, n: usize) -> u64 {
        self.index.layer_size(n)
    }
    fn unrank(&self, n: usize, rank: u64) -> View {
        let (boma, nki) = self.index.unrank(n, rank);
        View { boma, nki }
    }
    fn next_in_layer(&self, pos: &mut View) -> bool {
        self.index.next(&mut pos.boma, &mut pos.nki)
    }
    fn locate(&self, pos: &View) -> (usize, u64) {
        self.index.locate(&pos.boma, pos.nki)
    }
    fn expand(&self, pos: &View, out: &mut Vec<Edge<View>>) -> Option<i32> {
        out.clear();
        let any = self.moves(pos, |_, child, captured| {
            out.push(Edge { gain: captured as i32, child, same_layer: captured == 0 })
        });
        if any {
            None
        } else {
            // K8: every warrior on the board goes to the opponent.
            Some(-(pos.warriors() as i32))
        }
    }
    fn exits<L: Layers + ?Sized>(
        &self,
        pos: &View,
        lower: &L,
        _buf: &mut Vec<Edge<View>>,
    ) -> Result<(Option<i32>, u8), i32> {
        // As the default, but a move that cannot capture needs no child.
        let mut best: Option<i32> = None;
        let mut same = 0u8;
        let any = self.with_sowings(&pos.boma, |sowings| {
            for s in sowings {
                if !s.may_capture || pos.nki & s.blocked_by != 0 {
                    same += 1;
                    continue;
                }
                let (child, captured) = finish(s, pos.nki);
                debug_assert!(captured > 0);
                let (layer, r) = self.locate(&child);
                let x = captured as i32 - lower.value(layer, r) as i32;
                best = Some(best.map_or(x, |b| b.max(x)));
            }
            !sowings.is_empty()
        });
        if any {
            Ok((best, same))
        } else {
            Err(-(pos.warriors() as i32))
        }
    }
    fn unmoves(&self, pos: &View, out: &mut Vec<View>) {
        out.clear();
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            if c.backward_key != Some(pos.boma) {
                let mut list = std::mem::take(&mut c.backward);
                unmove::unmoves_of_board(&pos.boma, &mut list);
                c.backward = list;
                c.backward_key = Some(pos.boma);
            }
            unmove::for_each_predecessor(&c.backward, pos.nki, |b, nki| {
                out.push(View { boma: rotate(b), nki: rotate_mask(nki) })
            });
        });
    }
    fn unmove_ranks(&self, n: usize, rank: u64, _preds: &mut Vec<View>, out: &mut Vec<u64>) {
        out.clear();
        let (mask, _) = self.index.mask_of(n, rank);
        let key = Some((n, rank - mask));
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            if c.ranked_key != key {
                let (board, _) = self.index.unrank(n, rank - mask);
                let mut list = std::mem::take(&mut c.backward);
                unmove::unmoves_of_board(&board, &mut list);
                c.ranked.clear();
                for u in &list {
                    let view = rotate(&u.board);
                    let (_, base) = self.index.locate(&view, 0);
                    let mut bit = [0u8; BOMA];
                    let mut j = 0;
                    for (i, &x) in view.iter().enumerate() {
                        if x > 0 {
                            bit[(i + ROW) % BOMA] = j;
                            j += 1;
                        }
                    }
                    c.ranked.push(RankedUnmove {
                        lifted: u.lifted,
                        guard: u.guard,
                        occupied: unmove::occupied(&u.board),
                        base,
                        bit,
                    });
                }
                c.backward = list;
                c.backward_key = Some(board);
                c.ranked_key = key;
                c.ranked_occupied = unmove::occupied(&board);
            }
            // The flags of the position: the mask bits over its occupied boma in order.
            let mut nki = 0u32;
            let mut occ = c.ranked_occupied;
            let mut m = mask;
            while occ != 0 {
                let a = occ.trailing_zeros();
                occ &= occ - 1;
                nki |= ((m & 1) as u32) << a;
                m >>= 1;
            }
            for u in &c.ranked {
                if nki & u.lifted != 0 || u.guard.is_some_and(|g| nki >> g & 1 == 0) || nki & !u.occupied != 0 {
                    continue;
                }
                let mut fixed = 0u64;
                let mut f = nki;
                while f != 0 {
                    let a = f.trailing_zeros() as usize;
                    f &= f - 1;
                    fixed |= 1 << u.bit[a];
                }
                let free = u.lifted & u.occupied;
                let mut sub = free;
                loop {
                    let mut m = fixed;
                    let mut s = sub;
                    while s != 0 {
                        let a = s.trailing_zeros() as usize;
                        s &= s - 1;
                        m |= 1 << u.bit[a];
                    }
                    out.push(u.base + m);
                    if sub == 0 {
                        break;
                    }
                    sub = (sub - 1) & free;
                }
            }
        });
    }
}
