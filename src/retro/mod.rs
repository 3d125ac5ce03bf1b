//! Retrograde analysis: exact values of every position of a game, layer by layer.
//!
//! A **layer** is every position with `n` pieces on the board (Oware seeds, Kiothi warriors).
//! Moves either keep the count
//! (same layer) or capture into an already solved lower layer, so layers are built in
//! ascending order (syzygy1/tb's "conversions" are captures here).
//!
//! Inside a layer, play can cycle; the repetition rule `split` gives an endless play the net
//! value 0. The value of a position is then the value of a game on a graph whose exits
//! (captures and endings) have known payoffs and whose infinite plays are worth 0. We solve
//! it exactly by thresholds, from `t = n` down to `1`:
//!
//! - `W_t`: the mover can force an outcome `>= t`: some exit pays `>= t`, or some move leads
//!   to a position in `L_t`.
//! - `L_t`: every move gives the mover `<= -t`: every exit pays `<= -t` and every move leads
//!   into `W_t`.
//!
//! Both are attractors (least fixed points), so an endless play never counts as a win for
//! anyone. `W_t ⊇ W_{t+1}`, so a position first found in `W_t` has value exactly `t`, first
//! found in `L_t` exactly `-t`, and a position in neither for `t = 1` has value 0. Each
//! position enters once and is expanded backwards (its predecessors) once, so the work is
//! one forward pass, one backward pass and `2n` cheap scans.
pub mod builder;
pub mod checkpoint;
pub mod database;
#[cfg(feature = "mpi")]
pub mod distributed;
pub mod kiothi;
pub mod outcore;
pub mod oware;
pub mod plan;
pub mod stats;
pub mod stream;
pub mod verify;
mod workdir;

use crate::store::layer::Layer;
use crate::store::layer_file;

/// A move from a position, as the builder sees it.
#[derive(Clone, Copy, Debug)]
pub struct Edge<P> {
    /// Pieces the mover takes with the move (exits), 0 for same-layer moves.
    pub gain: i32,
    pub child: P,
    /// The child has the same pieces on the board (no capture): it is in the layer being built.
    pub same_layer: bool,
}

/// The moves `edges` of a position that stay in its layer, counted; each one that leaves it is
/// handed to `exit` as `(gain, layer, rank)` of its child. The one walk over the moves that
/// [`LayeredGame::exits`] and [`LayeredGame::exit_children`] make by default.
#[inline]
fn split_exits<G: LayeredGame + ?Sized>(game: &G, edges: &[Edge<G::Pos>], mut exit: impl FnMut(i32, usize, u64)) -> u8 {
    let mut same = 0u8;
    for e in edges {
        if e.same_layer {
            same += 1;
        } else {
            let (layer, r) = game.locate(&e.child);
            exit(e.gain, layer, r);
        }
    }
    same
}

/// What the layered builder needs from a game. Positions are seen from the mover's side and
/// a position's value is the net number of board pieces the mover gets under perfect play.
pub trait LayeredGame: Sync {
    type Pos: Copy + Send + Sync;

    /// Whether the builder sorts each frontier by rank before expanding it (values do not
    /// depend on the order; a game whose `unmove_ranks` caches per board gains locality).
    const SORT_FRONTIER: bool = false;

    /// Whether the in-memory forward pass ranks the capture children of a batch of positions
    /// ([`LayeredGame::exit_children`]) before it looks any up, instead of calling
    /// [`LayeredGame::exits`] position by position (a game whose `exits` skips children it does
    /// not need keeps it).
    const BATCH_LOOKUPS: bool = false;

    /// Positions with exactly `n` pieces on the board.
    fn layer_size(&self, n: usize) -> u64;
    /// The position with the given rank in layer `n`.
    fn unrank(&self, n: usize, rank: u64) -> Self::Pos;
    /// Advance to the next rank of the same layer (false after the last).
    fn next_in_layer(&self, pos: &mut Self::Pos) -> bool;
    /// `(layer, rank)` of a position.
    fn locate(&self, pos: &Self::Pos) -> (usize, u64);
    /// Value of an ended position (`Some`), or its moves into `out` (`None`).
    fn expand(&self, pos: &Self::Pos, out: &mut Vec<Edge<Self::Pos>>) -> Option<i32>;
    /// Every (position, move) pair of the same layer whose move leads to `pos` without a
    /// capture: one entry per such move.
    fn unmoves(&self, pos: &Self::Pos, out: &mut Vec<Self::Pos>);

    /// What the builder's forward pass needs of a position: `Err(v)` for an ended position of
    /// value `v`, else `Ok((best, same))`: the best payoff over the moves that leave the layer
    /// (`gain - value of the child`, `None` without such a move) and the number of moves that
    /// stay in it. The default reads it off [`LayeredGame::expand`].
    fn exits<L: Layers + ?Sized>(
        &self,
        pos: &Self::Pos,
        lower: &L,
        buf: &mut Vec<Edge<Self::Pos>>,
    ) -> Result<(Option<i32>, u8), i32> {
        if let Some(v) = self.expand(pos, buf) {
            return Err(v);
        }
        let mut best: Option<i32> = None;
        let same = split_exits(self, buf, |gain, layer, r| {
            let x = gain - lower.value(layer, r) as i32;
            best = Some(best.map_or(x, |b| b.max(x)));
        });
        Ok((best, same))
    }

    /// What the streamed forward pass ([`stream`]) needs of a position: `Err(v)` for an ended
    /// position of value `v`, else `Ok(same)`, the number of moves that stay in the layer, with
    /// `(gain, layer, rank)` of the child of every move that leaves it in `out`. The values of
    /// those children are looked up later, in rank order. The default reads it off
    /// [`LayeredGame::expand`].
    fn exit_children(
        &self,
        pos: &Self::Pos,
        buf: &mut Vec<Edge<Self::Pos>>,
        out: &mut Vec<(i32, usize, u64)>,
    ) -> Result<u8, i32> {
        out.clear();
        if let Some(v) = self.expand(pos, buf) {
            return Err(v);
        }
        Ok(split_exits(self, buf, |gain, layer, r| out.push((gain, layer, r))))
    }

    /// The ranks (in layer `n`) of [`LayeredGame::unmoves`] of the position of rank `rank` in
    /// layer `n`, one per move: what the builder's backward pass needs. The default unranks,
    /// calls `unmoves` and locates each; a game may compute ranks more directly.
    fn unmove_ranks(&self, n: usize, rank: u64, preds: &mut Vec<Self::Pos>, out: &mut Vec<u64>) {
        let pos = self.unrank(n, rank);
        self.unmoves(&pos, preds);
        out.clear();
        out.extend(preds.iter().map(|p| self.locate(p).1));
    }
}

/// Read access to solved layers: `value(layer, rank)`.
pub trait Layers: Sync {
    fn value(&self, layer: usize, rank: u64) -> i8;
    /// Ask for `value(layer, rank)` ahead of reading it (a hint: nothing by default).
    fn prefetch(&self, _layer: usize, _rank: u64) {}
}

impl<T: AsRef<[i8]> + Sync> Layers for [T] {
    fn value(&self, layer: usize, rank: u64) -> i8 {
        self[layer].as_ref()[rank as usize]
    }
    #[inline]
    fn prefetch(&self, layer: usize, rank: u64) {
        prefetch_at(self[layer].as_ref(), rank);
    }
}

impl<T: AsRef<[i8]> + Sync> Layers for Vec<T> {
    fn value(&self, layer: usize, rank: u64) -> i8 {
        self[layer].as_ref()[rank as usize]
    }
    #[inline]
    fn prefetch(&self, layer: usize, rank: u64) {
        prefetch_at(self[layer].as_ref(), rank);
    }
}

/// Ask the CPU to bring entry `i` of `values` into its caches (nothing where there is no such
/// instruction, or `i` is past the end).
#[inline(always)]
fn prefetch_at(values: &[i8], i: u64) {
    if let Some(v) = values.get(i as usize) {
        crate::prefetch::prefetch(v);
    }
}

/// The best value over a position's moves, given the values of its children: the Bellman
/// equation every database entry satisfies (used by `verify`).
pub fn bellman<G: LayeredGame, L: Layers + ?Sized>(
    game: &G,
    lower: &L,
    pos: &G::Pos,
    buf: &mut Vec<Edge<G::Pos>>,
) -> i32 {
    if let Some(v) = game.expand(pos, buf) {
        return v;
    }
    buf.iter()
        .map(|e| {
            let (layer, rank) = game.locate(&e.child);
            e.gain - lower.value(layer, rank) as i32
        })
        .max()
        .expect("a position that has not ended has a move")
}

/// Build the layers `layers.len()..=max` of a table family into `dir` on top of the finished
/// (and checked) `layers` below them, and return them all, opened. `plan(n)` is the number of
/// partitions layer `n` is built in and how its lower layers are read (1 and mapped: in
/// memory; more, or streamed: out of core, [`outcore`], in a work directory beside its file,
/// resumed from its last checkpoint when a stopped build left one).
/// `on_layer(n, header)` is called after each layer is written, checked (and packed). Under a
/// `memory` budget the pages of the mapped lower layers are dropped from the process whenever
/// its RSS nears the budget ([`crate::store::resident`]): mapped lookups read them at random
/// and would otherwise keep them resident, all of them, whatever the partitions (streamed
/// lookups read the files, not the maps, and only the check of each new layer touches its map).
///
/// With `pack`, every finished layer is kept packed ([`crate::store::packed`], about 3.5 bits a
/// position instead of 8): the raw layers found in `layers` first, then each new one as soon as
/// it is written and checked. The packed copy is written under a temporary name, checked (its
/// values' CRC-32 equal to the raw layer's), and renamed over the raw file, so a stop at any
/// moment leaves the layer raw or packed under its name, never neither, and a rerun keeps it.
/// Packed lower layers are read only by streamed lookups, which decompress them block by block
/// in rank order; mapped lookups (a layer built in memory) read them at random, which a packed
/// layer would answer by decompressing a block per lookup or by being unpacked whole into
/// memory (its raw size, the very cost packing saves), so a mapped layer over a packed lower
/// layer is refused ([`layer_file::DbError::Packed`] naming it) rather than built slowly.
#[allow(clippy::too_many_arguments)]
pub fn build_files<G: LayeredGame>(
    family: &layer_file::Family,
    game: &G,
    mut layers: Vec<Layer>,
    max: usize,
    plan: &dyn Fn(usize) -> (u64, plan::Lookups),
    memory: Option<u64>,
    pack: bool,
    progress: &dyn Fn(usize, u64) -> Box<dyn builder::Progress>,
    on_layer: &mut dyn FnMut(usize, &layer_file::Header),
) -> Result<Vec<Layer>, layer_file::DbError> {
    const MAPPED: &str = "mapped lookups read raw lower layers (build with streamed lookups)";
    if pack {
        for l in layers.iter_mut() {
            if let Layer::Raw(raw) = l {
                *l = pack_in_place(raw)?;
            }
        }
    }
    // Dropped (joined) before `layers` is returned or dropped: no map goes while registered.
    let mut watcher = memory.map(crate::store::resident::Watcher::start);
    let register = |w: &mut Option<crate::store::resident::Watcher>, l: &Layer| {
        if let (Some(w), Layer::Raw(f)) = (w, l) {
            // SAFETY: a raw layer file is a read-only file map, kept in `layers` until the
            // watcher is dropped at the end of this function.
            unsafe { w.add(as_u8(f.as_ref())) };
        }
    };
    for l in &layers {
        register(&mut watcher, l);
    }
    // A stop between a layer's write and the removal of its work directory leaves the directory
    // beside a finished layer; nothing reads it again.
    for n in 0..layers.len() {
        let work = work_dir(family, n);
        if work.exists() {
            std::fs::remove_dir_all(&work).map_err(|source| layer_file::DbError::Io { path: work, source })?;
        }
    }
    for n in layers.len()..=max {
        let size = game.layer_size(n);
        let p = progress(n, size);
        let (parts, lookups) = plan(n);
        let mapped = || -> Result<Vec<&[i8]>, layer_file::DbError> {
            layers.iter().map(|l| l.raw(MAPPED).map(|f| f.as_ref())).collect()
        };
        // A layer of more positions than one part holds (u32 indices) is never built in one.
        let written = match parts.max(plan::least_parts(size)) {
            0 | 1 if lookups == plan::Lookups::Mapped => {
                family.write(n, &builder::build_layer(game, mapped()?.as_slice(), n, p.as_ref()))?
            }
            k => {
                let work = work_dir(family, n);
                let io = |(path, source)| layer_file::DbError::Io { path, source };
                let streamed = lookups == plan::Lookups::Streamed;
                // Streamed lookups read the files, raw or packed; the maps are for mapped ones.
                let lower = if streamed { Vec::new() } else { mapped()? };
                // A checkpoint in the work directory is resumed only by a build of the same
                // game, rules and lower layers.
                let crcs: Vec<u8> = layers.iter().flat_map(|l| l.header().checksum.to_le_bytes()).collect();
                let identity = format!(
                    "{} {} {} lower crc32 {:08x}",
                    family.game,
                    family.rules,
                    family.index_order,
                    layer_file::checksum(&crcs)
                );
                // The values are copied from their file a slice at a time, never mapped whole.
                let built = outcore::build_layer_parts(&outcore::PartsBuild {
                    game,
                    lower: lower.as_slice(),
                    streamed: streamed.then_some(&layers as &dyn stream::LowerBlocks),
                    n,
                    parts: k,
                    work: &work,
                    identity: &identity,
                    every: outcore::CHECKPOINT_EVERY,
                    progress: p.as_ref(),
                })
                .and_then(|values| family.write_from(n, &values));
                // Finished or failed (a full disk), nothing of the partitions stays behind; only
                // a stopped process leaves them, and the next build resumes from them.
                let cleaned = std::fs::remove_dir_all(&work).map_err(|e| io((work.clone(), e)));
                let header = built?;
                cleaned?;
                header
            }
        };
        drop(p);
        // Read back and checked: the next layer is built on it. Under a budget the check drops
        // what it read as it goes rather than wait for the watcher, which a loaded machine may
        // not run in time.
        let raw = family.open(n, size)?;
        debug_assert_eq!(raw.header, written);
        if memory.is_some() {
            raw.verify_dropping()?;
        } else {
            raw.verify()?;
        }
        layers.push(if pack { pack_in_place(&raw)? } else { Layer::Raw(raw) });
        register(&mut watcher, &layers[n]);
        on_layer(n, layers[n].header());
    }
    drop(watcher);
    Ok(layers)
}

/// The work directory of layer `n`'s out-of-core build: `.NAME.work` beside its file.
fn work_dir(family: &layer_file::Family, n: usize) -> std::path::PathBuf {
    let file = (family.path)(n);
    let name = file.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    file.with_file_name(format!(".{name}.work"))
}

/// Pack the checked raw layer `raw` over its own file ([`crate::store::packed::pack_layer`]:
/// checked before the rename that replaces the raw file) and open the packed copy. The
/// replaced raw file's disk is freed when the caller drops `raw` (its map holds it until then).
fn pack_in_place(raw: &layer_file::LayerFile) -> Result<Layer, layer_file::DbError> {
    use crate::store::packed::{pack_layer, PackedFile};
    let header = pack_layer(raw, &raw.path)?;
    Ok(Layer::Packed(PackedFile::open(&raw.path, &header.expected())?))
}

fn as_u8(v: &[i8]) -> &[u8] {
    layer_file::as_bytes(v)
}
