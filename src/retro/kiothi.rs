//! Kiothi endgame tables: every position with up to N warriors on the board, exact values.
//!
//! A table position is what the rules need after the opening (turn >= 3): the boma from the
//! mover's view (his row is boma 0..9, the opponent's 10..19, sowing order) and the nki flags.
//! Prisons do not matter (a value counts only the warriors on the board), nor the turn number,
//! nor the setup and redistribution variants (they only shape turns 1 and 2). A value is the
//! net number of board warriors the mover ends up with under perfect play, repetition `split`
//! (endless play is worth 0); K8: a mover without a legal move loses every board warrior
//! (value `-n`). Only `nki-clear=lift` with unbounded relays is supported: the predecessor
//! generation ([`unmove`]) relies on flags changing only by lifts.
//!
//! Layers are built by the generic threshold builder ([`super::builder`]); the index is in
//! [`index`], the predecessors in [`unmove`]. Both the forward moves and the predecessors of
//! a board are the same for all its nki masks, and the layer order puts the masks of a board
//! next to each other (lowest rank bits), so each thread keeps the last board's sowings and
//! unmoves and applies the flags per position.

pub mod index;
pub mod unmove;

use super::builder::{self, Progress, FRONTIER_SHARE, WORK_BYTES_PER_POSITION};
use super::{Edge, LayeredGame, Layers};
use crate::games::kiothi::{self, Board, NkiClear, Position, Rules, SowMove, SowingStats, ALL_BOMA, BOMA, ROW};
use crate::side::Side;
use crate::store::layer_file::{DbError, Family, Header, LayerFile};
pub use index::{TableIndex, INDEX_ORDER};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use unmove::Unmove;

/// Largest layer a build accepts: layer 10 has 3,339,504,032 positions, layer 11 more than
/// the builder's u32 ranks hold.
pub const MAX_WARRIORS: usize = 10;

/// A table position: boma from the mover's view and the nki flags (bit `a` = boma `a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    pub boma: Board,
    pub nki: u32,
}

impl View {
    /// The position as the other player sees it (rows swapped).
    #[inline]
    pub fn flipped(&self) -> View {
        View { boma: rotate(&self.boma), nki: rotate_mask(self.nki) }
    }

    pub fn warriors(&self) -> u32 {
        self.boma.iter().map(|&x| x as u32).sum()
    }

    /// The table view of a position after the opening (`None` on turns 1 and 2).
    pub fn of(p: &Position) -> Option<View> {
        if p.is_redistribution() {
            return None;
        }
        let v = View { boma: p.boma, nki: p.nki };
        Some(if p.to_move == Side::North { v.flipped() } else { v })
    }

    /// A position for the rules module: South to move, turn 3, empty prisons.
    pub fn position(&self) -> Position {
        Position { boma: self.boma, prisons: [0, 0], nki: self.nki, to_move: Side::South, turn: 3 }
    }
}

#[inline(always)]
fn rotate(b: &Board) -> Board {
    std::array::from_fn(|i| b[(i + ROW) % BOMA])
}

#[inline(always)]
fn rotate_mask(m: u32) -> u32 {
    ((m >> ROW) | (m << ROW)) & ALL_BOMA
}

/// Whether a rule set has tables: `nki-clear=lift`, no relay limit. The error names the flag.
pub fn check_rules(rules: &Rules) -> Result<(), String> {
    if rules.nki_clear != NkiClear::Lift {
        return Err("--nki-clear: tables support `lift` only (under `pass` relay laps change flags, which the predecessor generation does not model)".into());
    }
    if rules.max_relays.is_some() {
        return Err("--max-relays: tables need unbounded relays (exact K7); drop the flag".into());
    }
    Ok(())
}

/// Kiothi under fixed rules as a layered game (mover's view, nki masks included).
pub struct KiothiLayers {
    pub rules: Rules,
    pub index: TableIndex,
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

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

impl KiothiLayers {
    pub fn new(rules: Rules) -> Self {
        KiothiLayers { rules, index: TableIndex::new() }
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
                        if let Ok(s) = p.sow_uncaptured(&self.rules, mv) {
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

/// Solve layers `0..=max` in memory.
pub fn tables_in_memory(rules: Rules, max: usize) -> Vec<Vec<i8>> {
    builder::build_all(&KiothiLayers::new(rules), max)
}

/// The rules text recorded in table headers: only what the tables depend on.
pub fn rules_text(rules: &Rules) -> String {
    serde_json::json!({
        "game": "kiothi",
        "nki_clear": rules.nki_clear.name(),
        "max_relays": rules.max_relays,
        "repetition": "split",
    })
    .to_string()
}

pub fn layer_path(dir: &Path, rules: &Rules, n: usize) -> PathBuf {
    let relays = match rules.max_relays {
        Some(r) => r.to_string(),
        None => "any".into(),
    };
    dir.join(format!("kiothi-nki-{}-relays-{relays}-{n}.db", rules.nki_clear.name()))
}

/// Frontier entries (u32 ranks) planned per position of the top layer: Kiothi frontiers are
/// larger than Oware's (`FRONTIER_SHARE`); layer 9 (800 M positions) peaked at 2.97 GiB RSS,
/// 0.53 GiB over its lower layers and working arrays, about one entry per 5.6 positions.
const KIOTHI_FRONTIER_SHARE: u64 = 4;

/// Bytes of memory a build up to `max` needs at its peak (as for Oware: the lower layers,
/// the top layer's working arrays, a frontier estimate).
pub fn memory_needed(max: usize) -> u64 {
    let idx = TableIndex::new();
    let lower: u64 = (0..max).map(|n| idx.layer_size(n)).sum();
    let top = idx.layer_size(max);
    debug_assert!(KIOTHI_FRONTIER_SHARE <= FRONTIER_SHARE);
    lower + top * WORK_BYTES_PER_POSITION + top / KIOTHI_FRONTIER_SHARE * 4
}

/// An opened table directory: every layer `0..=max` mapped.
pub struct Database {
    pub rules: Rules,
    pub game: KiothiLayers,
    pub layers: Vec<LayerFile>,
}

impl Database {
    /// Open the consecutive layers `0..` present in `dir`; errors on a file built under other
    /// rules, truncated or foreign, and on rules without tables (see [`check_rules`]).
    pub fn open(dir: &Path, rules: Rules) -> Result<Self, DbError> {
        check_rules(&rules).map_err(DbError::Rules)?;
        let game = KiothiLayers::new(rules);
        let path = |n: usize| layer_path(dir, &rules, n);
        let family = Family { game: "kiothi", rules: rules_text(&rules), index_order: INDEX_ORDER, path: &path };
        let layers = family.open_present(MAX_WARRIORS, |n| game.layer_size(n))?;
        if layers.is_empty() {
            return Err(DbError::Missing { dir: dir.to_path_buf(), layer: 0 });
        }
        Ok(Database { rules, game, layers })
    }

    /// Largest number of warriors on the board that the tables cover.
    pub fn max_warriors(&self) -> usize {
        self.layers.len() - 1
    }

    /// Exact value of a mover's view, if its layer is present.
    pub fn probe_view(&self, v: &View) -> Option<i32> {
        // Check the count before ranking: the index only knows boards the tables can hold.
        if !self.covers(v) {
            return None;
        }
        let (n, r) = self.game.locate(v);
        Some(self.layers[n].values()[r as usize] as i32)
    }

    /// The view's warriors on the board are within the tables.
    fn covers(&self, v: &View) -> bool {
        v.boma.iter().map(|&x| x as usize).sum::<usize>() <= self.max_warriors()
    }

    /// The first best move of a covered position (own index, then lift ascending) with its
    /// value; `None` when the mover has no legal move (or the layer is not covered).
    pub fn best_move(&self, v: &View) -> Option<(SowMove, i32)> {
        if !self.covers(v) {
            return None;
        }
        let mut best: Option<(SowMove, i32)> = None;
        self.game.moves(v, |mv, child, captured| {
            let (layer, rank) = self.game.locate(&child);
            let x = captured as i32 - self.value(layer, rank) as i32;
            if best.is_none_or(|(_, b)| x > b) {
                best = Some((mv, x));
            }
        });
        best
    }

    /// Exact value of a position after the opening (turn >= 3) for its mover: the net number
    /// of board warriors he ends up with under perfect play. `None` on turns 1 and 2 and when
    /// the board holds more warriors than the tables cover.
    pub fn probe(&self, p: &Position) -> Option<i32> {
        self.probe_view(&View::of(p)?)
    }
}

impl Layers for Database {
    fn value(&self, layer: usize, rank: u64) -> i8 {
        self.layers[layer].values()[rank as usize]
    }
}

/// Build every missing layer `0..=max` into `dir` (resumable). `on_layer(n, built, header,
/// sowing)` follows each layer; `sowing` counts the long and perpetual sowings met while
/// building it (zero for a layer that was already there).
pub fn build(
    dir: &Path,
    rules: Rules,
    max: usize,
    progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
    on_layer: &mut dyn FnMut(usize, bool, &Header, SowingStats),
) -> Result<(), DbError> {
    check_rules(&rules).map_err(DbError::Rules)?;
    let game = KiothiLayers::new(rules);
    let path = |n: usize| layer_path(dir, &rules, n);
    let family = Family { game: "kiothi", rules: rules_text(&rules), index_order: INDEX_ORDER, path: &path };
    let progress = |n: usize, size: u64| {
        kiothi::reset_sowing_stats();
        progress(n, size)
    };
    super::build_files(&family, &game, dir, max, &progress, &mut |n, built, h| {
        let stats = if built { kiothi::sowing_stats() } else { SowingStats::default() };
        on_layer(n, built, h, stats)
    })
    .map(drop)
}

#[cfg(test)]
mod tests;
