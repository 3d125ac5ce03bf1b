//! The threshold retrograde builder for one layer (see the module docs of `retro`).

use super::{Edge, LayeredGame, Layers};
use rayon::prelude::*;
use std::sync::atomic::{AtomicI8, AtomicU8, Ordering::Relaxed};

/// Marks a position with no value yet.
pub(crate) const UNDECIDED: i8 = i8::MIN;
/// "No exit move" in the best-exit array: below every real payoff.
pub(crate) const NO_EXIT: i8 = i8::MIN;

/// Positions handled per parallel task in scans.
pub(crate) const CHUNK: u64 = 1 << 14;

/// The buffers of a batch of the forward pass: a position's moves, its capture children
/// (`gain`, `layer`, `rank`), and the batch's lookups (index in the batch, `gain`, `layer`,
/// `rank`).
type Batch<P> = (Vec<Edge<P>>, Vec<(i32, usize, u64)>, Vec<(usize, i32, usize, u64)>);

/// Frontier positions whose predecessors are ranked before any of them is updated: enough
/// to keep many cache misses in flight, few enough that the lines asked for are still in
/// the cache when their updates come.
const BATCH: usize = 64;

/// Working memory per position of the layer being built: value, open-move counter, best exit.
pub const WORK_BYTES_PER_POSITION: u64 = 3;
/// Memory planning allows one frontier entry (a u32 index into the part) per this many
/// positions of the layer.
/// Peaks are far lower: layer 24 (417 M positions) peaked at 2.13 GB RSS, within about
/// 50 MB of its lower layers plus its working arrays.
pub const FRONTIER_SHARE: u64 = 16;

/// The most positions a [`Part`] holds: its frontiers are u32 indices into it (half the memory
/// of u64 ranks), while ranks of the layer are u64 (Oware layers pass 2^32 positions from 32
/// seeds on). A larger layer is built in partitions ([`super::outcore`]) of at most this many.
pub const MAX_PART_LEN: u64 = 1 << 32;

/// Observer of a layer build (progress bars live in the CLI, not here).
pub trait Progress: Sync {
    /// `done` positions of the forward pass are finished.
    fn forward(&self, _done: u64) {}
    /// A threshold `t` has been fully propagated; `decided` positions have a value so far.
    fn threshold(&self, _t: i32, _decided: u64) {}
    /// A line about the layer's build worth showing (an out-of-core layer resumed from its
    /// checkpoint, or started over).
    fn note(&self, _line: &str) {}
}

/// A progress observer that ignores everything.
pub struct Silent;
impl Progress for Silent {}

/// Solve layer `n` of `game`, given every lower layer in `lower` (indices `0..n`).
/// Returns one value per rank.
pub fn build_layer<G: LayeredGame, L: Layers + ?Sized>(
    game: &G,
    lower: &L,
    n: usize,
    progress: &dyn Progress,
) -> Vec<i8> {
    let size = game.layer_size(n);
    assert!(size <= MAX_PART_LEN, "layer {n} has {size} positions: build it in partitions (outcore)");
    let part = Part::forward(game, lower, n, 0..size, progress);
    let mut decided = 0u64;
    for t in (1..=n as i32).rev() {
        let frontier = part.seeds(t);
        decided +=
            part.propagate(game, n, t, frontier, &|_: &[(u64, bool)]| unreachable!("one part holds the whole layer"));
        progress.threshold(t, decided);
    }
    part.finish()
}

/// Where a partition sends the updates of predecessors in other partitions: `(rank in the
/// layer, win)` batches ([`Part::update`]).
pub type Outside<'a> = dyn Fn(&[(u64, bool)]) + Sync + 'a;

/// A slice whose memory a [`Part`] owns (its vectors or its file's map).
struct Raw<T> {
    ptr: *const T,
    len: usize,
}

impl<T> std::ops::Deref for Raw<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr..ptr + len` lies in memory the Part holds (`Owner`) for as long as the
        // Part lives, initialised, and is only mutated through atomics.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

/// What holds a Part's memory.
#[allow(dead_code)] // held for its memory, read through the `Raw` slices
enum Owner {
    Vecs(Vec<AtomicI8>, Vec<AtomicU8>, Vec<i8>),
    Map(memmap2::MmapMut),
}

/// The working state of the ranks `base..base + len` of the layer being built: the whole
/// layer in memory, or one partition of it mapped from its file ([`super::outcore`]).
/// `len <= MAX_PART_LEN`: positions inside a part are u32 indices (`rank - base`) in its
/// frontiers, while ranks that cross parts are u64.
pub struct Part {
    pub base: u64,
    value: Raw<AtomicI8>,
    open: Raw<AtomicU8>,
    best_exit: Raw<i8>,
    _owner: Owner,
}

// SAFETY: the raw slices point into `_owner`, which moves with the Part; shared access goes
// through atomics (value, open) or reads of bytes written before the Part was shared.
unsafe impl Send for Part {}
unsafe impl Sync for Part {}

impl Part {
    fn from_vecs(base: u64, value: Vec<AtomicI8>, open: Vec<AtomicU8>, best_exit: Vec<i8>) -> Part {
        let len = best_exit.len();
        assert!(value.len() == len && open.len() == len);
        Part {
            base,
            value: Raw { ptr: value.as_ptr(), len },
            open: Raw { ptr: open.as_ptr(), len },
            best_exit: Raw { ptr: best_exit.as_ptr(), len },
            _owner: Owner::Vecs(value, open, best_exit),
        }
    }

    /// A part whose forward pass was made elsewhere ([`super::stream`]): the open-move
    /// counters and best exits of the ranks `base..base + len`, nothing settled yet.
    pub(crate) fn from_forward(base: u64, open: Vec<AtomicU8>, best_exit: Vec<i8>) -> Part {
        let value = (0..best_exit.len()).map(|_| AtomicI8::new(UNDECIDED)).collect();
        Part::from_vecs(base, value, open, best_exit)
    }

    /// The state kept in `map` ([`Part::to_bytes`]'s layout), used in place: a visit touches
    /// only the pages it needs, and the kernel writes back only the pages it changed.
    pub fn mapped(base: u64, mut map: memmap2::MmapMut) -> Part {
        assert_eq!(map.len() % 3, 0, "a partition's state is three bytes per position");
        let len = map.len() / 3;
        assert!(len as u64 <= MAX_PART_LEN, "a partition of {len} positions");
        let ptr = map.as_mut_ptr();
        Part {
            base,
            value: Raw { ptr: ptr as *const AtomicI8, len },
            // SAFETY: within the map (3 * len bytes).
            open: Raw { ptr: unsafe { ptr.add(len) } as *const AtomicU8, len },
            best_exit: Raw { ptr: unsafe { ptr.add(2 * len) } as *const i8, len },
            _owner: Owner::Map(map),
        }
    }

    pub fn len(&self) -> u64 {
        self.best_exit.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.best_exit.is_empty()
    }

    /// Forward pass over `ranks`: for every position, the best exit payoff and the number of
    /// moves that stay in the layer. An ended position is an exit of its own value with no
    /// open moves.
    pub fn forward<G: LayeredGame, L: Layers + ?Sized>(
        game: &G,
        lower: &L,
        n: usize,
        ranks: std::ops::Range<u64>,
        progress: &dyn Progress,
    ) -> Part {
        assert!(ranks.end - ranks.start <= MAX_PART_LEN, "a part of {:?}: more than u32 indices hold", ranks);
        let len = (ranks.end - ranks.start) as usize;
        let base = ranks.start;
        let value: Vec<AtomicI8> = (0..len).map(|_| AtomicI8::new(UNDECIDED)).collect();
        let open: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(0)).collect();
        let mut best_exit: Vec<i8> = vec![NO_EXIT; len];
        if G::BATCH_LOOKUPS {
            Self::forward_batched(game, lower, n, base, &open, &mut best_exit, progress);
        } else {
            best_exit.par_chunks_mut(CHUNK as usize).enumerate().for_each_init(
                || Vec::with_capacity(16),
                |buf: &mut Vec<Edge<G::Pos>>, (ci, slice)| {
                    let start = ci as u64 * CHUNK;
                    let mut pos = game.unrank(n, base + start);
                    for (k, slot) in slice.iter_mut().enumerate() {
                        if k > 0 {
                            game.next_in_layer(&mut pos);
                        }
                        match game.exits(&pos, lower, buf) {
                            Err(v) => *slot = v as i8,
                            Ok((best, same)) => {
                                *slot = best.map_or(NO_EXIT, |b| b as i8);
                                open[start as usize + k].store(same, Relaxed);
                            }
                        }
                    }
                    progress.forward(slice.len() as u64);
                },
            );
        }
        Part::from_vecs(base, value, open, best_exit)
    }

    /// The forward pass of a game whose children are ranked apart from their lookups
    /// ([`LayeredGame::BATCH_LOOKUPS`]): the capture children of a batch of positions are
    /// ranked first, each lower-layer entry asked into the cache as it is found, and read
    /// after, so the random lookups overlap instead of waiting one at a time. `best_exit` holds
    /// `NO_EXIT` everywhere, below every payoff, so the best of the exits is a running max.
    fn forward_batched<G: LayeredGame, L: Layers + ?Sized>(
        game: &G,
        lower: &L,
        n: usize,
        base: u64,
        open: &[AtomicU8],
        best_exit: &mut [i8],
        progress: &dyn Progress,
    ) {
        best_exit.par_chunks_mut(CHUNK as usize).enumerate().for_each_init(
            || (Vec::with_capacity(16), Vec::with_capacity(16), Vec::with_capacity(BATCH * 8)),
            |(buf, kids, pending): &mut Batch<G::Pos>, (ci, slice)| {
                let start = ci * CHUNK as usize;
                let mut pos = game.unrank(n, base + start as u64);
                for (b, batch) in slice.chunks_mut(BATCH).enumerate() {
                    pending.clear();
                    for (k, slot) in batch.iter_mut().enumerate() {
                        if b > 0 || k > 0 {
                            game.next_in_layer(&mut pos);
                        }
                        match game.exit_children(&pos, buf, kids) {
                            Err(v) => *slot = v as i8,
                            Ok(same) => {
                                open[start + b * BATCH + k].store(same, Relaxed);
                                for &(gain, layer, r) in kids.iter() {
                                    lower.prefetch(layer, r);
                                    pending.push((k, gain, layer, r));
                                }
                            }
                        }
                    }
                    for &(k, gain, layer, r) in pending.iter() {
                        let x = (gain - lower.value(layer, r) as i32) as i8;
                        batch[k] = batch[k].max(x);
                    }
                }
                progress.forward(slice.len() as u64);
            },
        );
    }

    /// Write the state ([`Part::to_bytes`]'s layout) a slice at a time: a partition saved
    /// between its visits is not copied whole beside itself.
    pub fn write_to(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        const SLICE: usize = 1 << 20;
        let mut buf = Vec::with_capacity(SLICE);
        for value in self.value.chunks(SLICE) {
            buf.clear();
            buf.extend(value.iter().map(|v| v.load(Relaxed) as u8));
            w.write_all(&buf)?;
        }
        for open in self.open.chunks(SLICE) {
            buf.clear();
            buf.extend(open.iter().map(|v| v.load(Relaxed)));
            w.write_all(&buf)?;
        }
        w.write_all(crate::store::layer_file::as_bytes(&self.best_exit))
    }

    /// The state as bytes: values, open-move counters, best exits (what a partition keeps on
    /// disk between its visits).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.best_exit.len() * 3);
        out.extend(self.value.iter().map(|v| v.load(Relaxed) as u8));
        out.extend(self.open.iter().map(|v| v.load(Relaxed)));
        out.extend(self.best_exit.iter().map(|&v| v as u8));
        out
    }

    /// Seeds of threshold `t`: positions whose own exits settle them now, settled and returned
    /// (as indices into this part). An exit worth more than t settled its position at an earlier
    /// threshold, and a position whose last open move closed while its exits allowed it was
    /// settled in that propagation, so only `best_exit == ±t` can be new; the scan is a byte
    /// compare per position.
    pub fn seeds(&self, t: i32) -> Vec<u32> {
        let (up, down) = (t as i8, -t as i8);
        let (value, open) = (&*self.value, &*self.open);
        self.best_exit
            .par_chunks(CHUNK as usize)
            .enumerate()
            .flat_map_iter(|(c, slice)| {
                let first = c as u64 * CHUNK;
                slice.iter().enumerate().filter_map(move |(k, &e)| {
                    if e != up && e != down {
                        return None;
                    }
                    let i = first as usize + k;
                    if value[i].load(Relaxed) != UNDECIDED {
                        return None;
                    }
                    if e == up {
                        value[i].store(up, Relaxed);
                    } else if open[i].load(Relaxed) == 0 {
                        value[i].store(down, Relaxed);
                    } else {
                        return None;
                    }
                    Some(i as u32)
                })
            })
            .collect()
    }

    /// One predecessor update of threshold `t` at index `i` of this part: `win` when its move
    /// leads into a position lost for the mover there (it wins at least `t`), else the move
    /// gives it at most `-t`. Whether it is settled now (and must be expanded).
    #[inline]
    fn update(&self, t: i32, i: usize, win: bool) -> bool {
        if self.value[i].load(Relaxed) != UNDECIDED {
            return false;
        }
        if !win {
            let left = self.open[i].fetch_sub(1, Relaxed) - 1;
            left == 0
                && (self.best_exit[i] as i32) <= -t
                && self.value[i].compare_exchange(UNDECIDED, -t as i8, Relaxed, Relaxed).is_ok()
        } else {
            self.value[i].compare_exchange(UNDECIDED, t as i8, Relaxed, Relaxed).is_ok()
        }
    }

    /// Ask the CPU to bring into its caches what [`Part::update`] reads at index `i` (nothing
    /// where there is no such instruction).
    #[inline(always)]
    fn prefetch(&self, i: usize, win: bool) {
        use crate::prefetch::prefetch;
        self.prefetch_value(i);
        if !win {
            prefetch(self.open.as_ptr().wrapping_add(i));
            prefetch(self.best_exit.as_ptr().wrapping_add(i));
        }
    }

    /// Ask the CPU to bring the value at index `i` into its caches.
    #[inline(always)]
    fn prefetch_value(&self, i: usize) {
        crate::prefetch::prefetch(self.value.as_ptr().wrapping_add(i));
    }

    /// Apply updates that other parts sent (`(rank in the layer, win)`, see [`Part::update`]);
    /// the positions they settle, as indices into this part.
    pub fn receive(&self, t: i32, updates: &[(u64, bool)]) -> Vec<u32> {
        let (lo, hi) = (self.base, self.base + self.len());
        updates
            .par_chunks(4096)
            .flat_map_iter(|c| {
                c.iter()
                    .inspect(|&&(pr, _)| assert!((lo..hi).contains(&pr), "update of rank {pr} sent to part {lo}..{hi}"))
                    .map(|&(pr, win)| ((pr - lo) as u32, win))
                    .filter(|&(i, win)| self.update(t, i as usize, win))
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Propagate threshold `t` backwards from `frontier` (indices of positions of this part just
    /// settled) until nothing more of this part is settled; updates of predecessors in other
    /// parts go to `outside` (a batch at a time). Returns the positions settled here.
    pub fn propagate<G: LayeredGame>(
        &self,
        game: &G,
        n: usize,
        t: i32,
        mut frontier: Vec<u32>,
        outside: &Outside<'_>,
    ) -> u64 {
        let mut decided = 0u64;
        while !frontier.is_empty() {
            decided += frontier.len() as u64;
            frontier = self.propagate_step(game, n, t, &frontier, outside);
        }
        decided
    }

    /// One step of [`Part::propagate`]: the updates of the predecessors of `frontier`; returns
    /// the positions of this part they settle (sorted when the game asks for it), to be
    /// propagated in turn.
    pub fn propagate_step<G: LayeredGame>(
        &self,
        game: &G,
        n: usize,
        t: i32,
        frontier: &[u32],
        outside: &Outside<'_>,
    ) -> Vec<u32> {
        let (lo, hi) = (self.base, self.base + self.len());
        let mut next: Vec<u32> = frontier
            .par_chunks(1024)
            .flat_map_iter(|chunk| {
                let mut preds = Vec::with_capacity(32);
                let mut ranks = Vec::with_capacity(32);
                let mut next = Vec::new();
                let mut away = Vec::new();
                let mut pending = Vec::with_capacity(BATCH * 8);
                // The predecessors of a batch are ranked first, their state asked into the
                // cache as each is found, and updated after: the updates land at random in
                // the layer, and one at a time each would wait for its own cache miss. The
                // order of updates does not change what a threshold settles.
                // The values of the frontier are read at random too: those of the next batch
                // are asked for while this one is ranked and updated.
                let batches: Vec<&[u32]> = chunk.chunks(BATCH).collect();
                if let Some(first) = batches.first() {
                    first.iter().for_each(|&i| self.prefetch_value(i as usize));
                }
                for (b, batch) in batches.iter().enumerate() {
                    if let Some(ahead) = batches.get(b + 1) {
                        ahead.iter().for_each(|&i| self.prefetch_value(i as usize));
                    }
                    pending.clear();
                    for &i in batch.iter() {
                        let v = self.value[i as usize].load(Relaxed) as i32;
                        // A move into a position lost for its mover wins at least t there.
                        let win = v < t;
                        game.unmove_ranks(n, lo + i as u64, &mut preds, &mut ranks);
                        for &pr in &ranks {
                            if pr < lo || pr >= hi {
                                away.push((pr, win));
                            } else {
                                let j = (pr - lo) as usize;
                                self.prefetch(j, win);
                                pending.push((j as u32, win));
                            }
                        }
                    }
                    for &(j, win) in &pending {
                        if self.update(t, j as usize, win) {
                            next.push(j);
                        }
                    }
                }
                if !away.is_empty() {
                    outside(&away);
                }
                next
            })
            .collect();
        if G::SORT_FRONTIER {
            next.par_sort_unstable();
        }
        next
    }

    /// The values: positions never settled are worth 0 (neither side can force a gain,
    /// endless play is worth 0).
    pub fn finish(self) -> Vec<i8> {
        let settled = |v: i8| if v == UNDECIDED { 0 } else { v };
        match self._owner {
            // In place: a copy beside the working state would add a byte a position at the peak.
            Owner::Vecs(value, open, best_exit) => {
                drop((open, best_exit));
                let mut values = into_plain(value);
                values.par_iter_mut().for_each(|v| *v = settled(*v));
                values
            }
            Owner::Map(_) => self.value.iter().map(|v| settled(v.load(Relaxed))).collect(),
        }
    }
}

/// Build layers `0..=max` in memory (tests, small tables).
pub fn build_all<G: LayeredGame>(game: &G, max: usize) -> Vec<Vec<i8>> {
    let mut layers: Vec<Vec<i8>> = Vec::with_capacity(max + 1);
    for n in 0..=max {
        let layer = build_layer(game, layers.as_slice(), n, &Silent);
        layers.push(layer);
    }
    layers
}

/// The bytes of `v` as plain `i8`s, without a copy.
pub(super) fn into_plain(v: Vec<AtomicI8>) -> Vec<i8> {
    let mut v = std::mem::ManuallyDrop::new(v);
    // SAFETY: AtomicI8 has the size, alignment and bit validity of i8, and the vector is ours.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr() as *mut i8, v.len(), v.capacity()) }
}
