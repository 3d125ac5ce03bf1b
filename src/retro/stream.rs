//! The streamed forward pass of an out-of-core partition: the values of the capture children
//! are read from the lower layers in rank order, block by block, instead of looked up at random.
//!
//! A random lookup into a lower layer is a page fault when the layer is not resident, and a
//! disk seek when it is not cached either; the mapped forward pass therefore needs every lower
//! layer in memory (at 36 Oware seeds they hold three times the positions of the layer being
//! built). Here, as Lincke &
//! Marzetta built Awari on a small machine, the pass over a partition runs in two steps:
//!
//! 1. **Requests.** Every position is expanded once: an ended position gets its value, any
//!    other its number of moves that stay in the layer, and each move that leaves the layer
//!    becomes a request `(partition index, offset in its block, gain)` in one u64, put in the
//!    bucket of its child's lower layer and block of [`block_len`] ranks. The buckets are held
//!    in memory up to a cap and appended to files in the layer's work directory beyond it.
//! 2. **Answers.** The buckets are taken in order (lower layer, then block): each block of a
//!    lower layer that some request names is read once, from the file ([`LowerBlocks`],
//!    checked against its block CRCs), and every request of its bucket raises its position's
//!    best exit to `gain - child value`.
//!
//! A best exit is a maximum over the moves, so the order the answers arrive in does not matter
//! and the partition's state is the mapped pass's byte for byte. The memory is the partition's
//! state, one block and the held requests ([`stream_bytes`]), whatever the size of the lower
//! layers; their pages stay in the page cache (or on disk), not in the process.

use super::builder::{into_plain, Part, Progress, CHUNK, NO_EXIT};
use super::LayeredGame;
use crate::store::layer::Layer;
use crate::store::layer_file::{DbError, LayerFile, BLOCK};
use rayon::prelude::*;
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI8, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

/// Bits of a request for the offset of its child in its block, and the most ranks a block
/// holds; the gain takes the 6 bits below, the partition index the 32 above.
const OFFSET_BITS: u32 = 26;
const GAIN_BITS: u32 = 6;
/// Bounds of a block of a lower layer, in ranks (bytes): the block is read in one request, so
/// larger blocks mean fewer buckets and fewer, larger appends.
pub const BLOCK_LEN: std::ops::RangeInclusive<u64> = (BLOCK as u64)..=(1 << OFFSET_BITS);
/// Bytes of spilled requests read back at a time.
const READ_BYTES: usize = 1 << 20;

/// Solved lower layers, read block by block in rank order.
pub trait LowerBlocks: Sync {
    /// Positions of layer `layer`.
    fn layer_len(&self, layer: usize) -> u64;
    /// The values of ranks `start..start + out.len()` of layer `layer`: `start` is a multiple
    /// of [`BLOCK`], the range ends on a multiple of it or at the end of the layer.
    fn read(&self, layer: usize, start: u64, out: &mut [i8]) -> Result<(), DbError>;
}

/// Layer files, read from the files and not through their maps ([`LayerFile::read_at`]).
impl LowerBlocks for Vec<LayerFile> {
    fn layer_len(&self, layer: usize) -> u64 {
        self[layer].header.entries
    }
    fn read(&self, layer: usize, start: u64, out: &mut [i8]) -> Result<(), DbError> {
        self[layer].read_at(start, out)
    }
}

/// Layers raw or packed (a build with `--pack` keeps every finished layer packed): each read
/// from its file, a packed one decompressed block by block, every block checked
/// ([`Layer::read_at`]).
impl LowerBlocks for Vec<Layer> {
    fn layer_len(&self, layer: usize) -> u64 {
        self[layer].header().entries
    }
    fn read(&self, layer: usize, start: u64, out: &mut [i8]) -> Result<(), DbError> {
        self[layer].read_at(start, out)
    }
}

/// Layers held in memory (tests and benchmarks of the streamed pass).
pub struct InMemory<'a, T>(pub &'a [T]);

impl<T: AsRef<[i8]> + Sync> LowerBlocks for InMemory<'_, T> {
    fn layer_len(&self, layer: usize) -> u64 {
        self.0[layer].as_ref().len() as u64
    }
    fn read(&self, layer: usize, start: u64, out: &mut [i8]) -> Result<(), DbError> {
        let s = start as usize;
        out.copy_from_slice(&self.0[layer].as_ref()[s..s + out.len()]);
        Ok(())
    }
}

/// Ranks per block of a lower layer for partitions of `len` positions, and the bytes of
/// requests held before they spill: half a byte per position of the partition, within
/// [`BLOCK_LEN`], whole blocks of the layer files.
pub fn block_len(len: u64) -> u64 {
    (len / 2).clamp(*BLOCK_LEN.start(), *BLOCK_LEN.end()) / BLOCK as u64 * BLOCK as u64
}

/// Bytes the streamed pass adds to a partition of `len` positions at its peak: a block, and
/// the held requests, which a growing vector may hold at twice their size.
pub fn stream_bytes(len: u64) -> u64 {
    3 * block_len(len)
}

fn request(index: u64, offset: u64, gain: i32) -> u64 {
    debug_assert!(index < 1 << 32 && offset < 1 << OFFSET_BITS);
    assert!((0..1 << GAIN_BITS).contains(&gain), "a capture of {gain} pieces");
    index << 32 | offset << GAIN_BITS | gain as u64
}

/// `(partition index, offset in the block, gain)` of a request.
fn decode(x: u64) -> (usize, usize, i8) {
    ((x >> 32) as usize, ((x >> GAIN_BITS) & ((1 << OFFSET_BITS) - 1)) as usize, (x & ((1 << GAIN_BITS) - 1)) as i8)
}

/// The requests of one partition, by bucket, held up to a cap and spilled to files beyond it.
struct Buckets<'a> {
    work: &'a Path,
    held: Mutex<Held>,
    cap: u64,
}

struct Held {
    buckets: Vec<Vec<u64>>,
    bytes: u64,
    /// The first failed spill (reported when the requests are complete).
    error: Option<DbError>,
}

/// The file of bucket `b`'s spilled requests.
fn bucket_path(work: &Path, b: usize) -> PathBuf {
    work.join(format!("lookups-{b}"))
}

impl Buckets<'_> {
    fn add(&self, requests: &mut Vec<(u32, u64)>) {
        let mut h = self.held.lock().unwrap();
        h.bytes += requests.len() as u64 * 8;
        for (b, x) in requests.drain(..) {
            h.buckets[b as usize].push(x);
        }
        if h.bytes >= self.cap {
            h.bytes = 0;
            if let Err(e) = self.spill(&mut h.buckets) {
                h.error.get_or_insert(e);
            }
        }
    }

    /// Append every held bucket to its file; the vectors are freed, not kept at capacity.
    fn spill(&self, buckets: &mut [Vec<u64>]) -> Result<(), DbError> {
        for (b, v) in buckets.iter_mut().enumerate().filter(|(_, v)| !v.is_empty()) {
            let path = bucket_path(self.work, b);
            let io = |source| DbError::Io { path: path.clone(), source };
            // Through a small buffer: a copy of the bucket as bytes would add its size again.
            let requests = std::mem::take(v);
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map(BufWriter::new)
                .and_then(|mut f| {
                    requests.iter().try_for_each(|x| f.write_all(&x.to_le_bytes()))?;
                    f.flush()
                })
                .map_err(io)?;
        }
        Ok(())
    }
}

/// Raise the best exit of every request's position to `gain - value of its child`.
fn answer(best: &[AtomicI8], block: &[i8], requests: &[u64]) {
    requests.par_chunks(1 << 14).for_each(|c| {
        for &x in c {
            let (i, offset, gain) = decode(x);
            best[i].fetch_max(gain - block[offset], Relaxed);
        }
    });
}

/// The forward pass over the ranks `ranks` of layer `n` (a partition of at most
/// [`super::builder::MAX_PART_LEN`]) with the lower layers streamed from `lower`; spilled
/// requests go to files in `work` and are removed once answered. The same state as
/// [`Part::forward`] over the same layers.
pub fn forward<G: LayeredGame>(
    game: &G,
    lower: &dyn LowerBlocks,
    n: usize,
    ranks: std::ops::Range<u64>,
    work: &Path,
    progress: &dyn Progress,
) -> Result<Part, DbError> {
    let block = block_len(ranks.end - ranks.start);
    forward_with(game, lower, n, ranks, work, block, block, progress)
}

/// [`forward`] with blocks of `block` ranks and requests held up to `cap` bytes.
#[allow(clippy::too_many_arguments)]
fn forward_with<G: LayeredGame>(
    game: &G,
    lower: &dyn LowerBlocks,
    n: usize,
    ranks: std::ops::Range<u64>,
    work: &Path,
    block: u64,
    cap: u64,
    progress: &dyn Progress,
) -> Result<Part, DbError> {
    let len = ranks.end - ranks.start;
    assert!(len <= super::builder::MAX_PART_LEN, "a part of {ranks:?}: more than u32 indices hold");
    assert!(block.is_multiple_of(BLOCK as u64) && block > 0 && block <= *BLOCK_LEN.end(), "blocks of {block} ranks");
    // Bucket `first[m] + r / block` holds the requests of rank `r` of layer `m`.
    let mut first = Vec::with_capacity(n + 1);
    first.push(0usize);
    for m in 0..n {
        first.push(first[m] + lower.layer_len(m).div_ceil(block) as usize);
    }
    assert!(first[n] <= u32::MAX as usize, "{} buckets", first[n]);
    let buckets =
        Buckets { work, held: Mutex::new(Held { buckets: vec![Vec::new(); first[n]], bytes: 0, error: None }), cap };
    let state = Forward::new(game, n, ranks);
    (0..len.div_ceil(CHUNK)).into_par_iter().for_each_init(
        || (Vec::with_capacity(16), Vec::with_capacity(16), Vec::new()),
        |(buf, exits, requests), c| {
            let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(len));
            state.expand(start..end, (buf, exits), |i, gain, m, r| {
                let b = first[m] + (r / block) as usize;
                requests.push((b as u32, request(i, r % block, gain)));
            });
            buckets.add(requests);
            progress.forward(end - start);
        },
    );
    let mut held = buckets.held.into_inner().unwrap();
    if let Some(e) = held.error {
        return Err(e);
    }
    let mut values = vec![0i8; block as usize];
    let mut bytes = vec![0u8; READ_BYTES];
    let mut spilled: Vec<u64> = Vec::with_capacity(READ_BYTES / 8);
    for m in 0..n {
        let size = lower.layer_len(m);
        for b in first[m]..first[m + 1] {
            let path = bucket_path(work, b);
            let held = std::mem::take(&mut held.buckets[b]);
            let on_disk = path.exists();
            if held.is_empty() && !on_disk {
                continue;
            }
            let start = (b - first[m]) as u64 * block;
            let values = &mut values[..block.min(size - start) as usize];
            lower.read(m, start, values)?;
            answer(&state.best, values, &held);
            drop(held);
            if on_disk {
                let io = |source| DbError::Io { path: path.clone(), source };
                let mut f = File::open(&path).map_err(io)?;
                loop {
                    let got = read_full(&mut f, &mut bytes).map_err(io)?;
                    if got == 0 {
                        break;
                    }
                    spilled.clear();
                    spilled.extend(bytes[..got].chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())));
                    answer(&state.best, values, &spilled);
                }
                fs::remove_file(&path).map_err(io)?;
            }
        }
    }
    Ok(state.into_part())
}

/// The state of a forward pass over a range of ranks of layer `n`, filled a few positions at
/// a time ([`Forward::expand`]) while the values of the capture children arrive in any order
/// (here from the lower layers' files, in [`super::distributed`] from their owners).
pub(super) struct Forward<'a, G: LayeredGame> {
    game: &'a G,
    n: usize,
    base: u64,
    open: Vec<AtomicU8>,
    /// Each position's best exit so far (raised with `fetch_max` as answers arrive).
    pub best: Vec<AtomicI8>,
}

/// A thread's scratch vectors for [`Forward::expand`]: the moves of a position, its exits.
pub(super) type Scratch<'s, P> = (&'s mut Vec<super::Edge<P>>, &'s mut Vec<(i32, usize, u64)>);

impl<'a, G: LayeredGame> Forward<'a, G> {
    pub fn new(game: &'a G, n: usize, ranks: std::ops::Range<u64>) -> Self {
        let len = ranks.end - ranks.start;
        let open = (0..len).map(|_| AtomicU8::new(0)).collect();
        let best = (0..len).map(|_| AtomicI8::new(NO_EXIT)).collect();
        Forward { game, n, base: ranks.start, open, best }
    }

    /// Expand the positions of indices `range` (from the first rank): an ended position's
    /// value becomes its best exit, any other position gets its count of moves that stay in
    /// the layer, and each move that leaves the layer goes to `exit(index, gain, layer of the
    /// child, rank of the child)`.
    pub fn expand(
        &self,
        range: std::ops::Range<u64>,
        (buf, exits): Scratch<'_, G::Pos>,
        mut exit: impl FnMut(u64, i32, usize, u64),
    ) {
        let mut pos = self.game.unrank(self.n, self.base + range.start);
        for i in range.clone() {
            if i > range.start {
                self.game.next_in_layer(&mut pos);
            }
            match self.game.exit_children(&pos, buf, exits) {
                Err(v) => self.best[i as usize].store(v as i8, Relaxed),
                Ok(same) => {
                    self.open[i as usize].store(same, Relaxed);
                    for &(gain, m, r) in exits.iter() {
                        exit(i, gain, m, r);
                    }
                }
            }
        }
    }

    /// The part, every answer in.
    pub fn into_part(self) -> Part {
        Part::from_forward(self.base, self.open, into_plain(self.best))
    }
}

/// Read until `buf` is full or the reader ends (the spilled requests here, the inbox files of
/// [`super::outcore`]).
pub(super) fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..])? {
            0 => break,
            k => got += k,
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retro::builder::{self, Silent};
    use crate::retro::oware::{IndexKind, OwareLayers};

    #[test]
    fn requests_round_trip() {
        for (i, off, gain) in [(0, 0, 0), (u32::MAX as u64, (1 << OFFSET_BITS) - 1, 48), (12345, 678, 7)] {
            assert_eq!(decode(request(i, off, gain)), (i as usize, off as usize, gain as i8));
        }
    }

    #[test]
    fn block_len_is_whole_file_blocks_within_bounds() {
        for len in [0, 1, 4096, 3 << 20, 1 << 27, 1 << 32] {
            let b = block_len(len);
            assert!(BLOCK_LEN.contains(&b) && b.is_multiple_of(BLOCK as u64), "{len}: {b}");
        }
    }

    /// The streamed state of every partition equals the mapped one, byte for byte, whether the
    /// requests stay in memory or spill (partitions of a few positions hold a cap of 1 MiB, so
    /// spilling is forced through a tiny cap here by many small partitions over all layers).
    #[test]
    fn streamed_partitions_equal_mapped_ones() {
        for kind in IndexKind::ALL {
            let game = OwareLayers::with_index(Default::default(), kind);
            let layers = builder::build_all(&game, 9);
            let lower = InMemory(&layers[..]);
            let work = tempfile::tempdir().unwrap();
            for n in [1, 5, 9] {
                let size = game.layer_size(n);
                for parts in [1, 3, 7] {
                    let len = size.div_ceil(parts);
                    for p in 0..parts {
                        let r = (p * len).min(size)..((p + 1) * len).min(size);
                        let mapped = Part::forward(&game, &layers[..n], n, r.clone(), &Silent).to_bytes();
                        let part = forward(&game, &lower, n, r, work.path(), &Silent).unwrap();
                        let mut written = Vec::new();
                        part.write_to(&mut written).unwrap();
                        assert!(mapped == part.to_bytes(), "{kind:?} layer {n} part {p} of {parts}");
                        assert!(written == mapped, "{kind:?} layer {n} part {p} of {parts}: as saved");
                    }
                }
            }
            assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0, "answered requests are removed");
        }
    }

    #[test]
    fn spilled_requests_give_the_same_state() {
        // Blocks of one file block and a cap of one request: several buckets per lower layer,
        // each spilled after every chunk, and some held ones answered from memory too.
        for kind in IndexKind::ALL {
            let game = OwareLayers::with_index(Default::default(), kind);
            let layers = builder::build_all(&game, 10);
            let work = tempfile::tempdir().unwrap();
            for n in [9, 10] {
                let size = game.layer_size(n);
                assert!(game.layer_size(n - 1) > BLOCK as u64);
                for cap in [8, 1 << 20] {
                    let mapped = Part::forward(&game, &layers[..n], n, 0..size, &Silent).to_bytes();
                    let lower = InMemory(&layers[..]);
                    let streamed =
                        forward_with(&game, &lower, n, 0..size, work.path(), BLOCK as u64, cap, &Silent).unwrap();
                    assert!(mapped == streamed.to_bytes(), "{kind:?} layer {n} cap {cap}");
                }
            }
            assert_eq!(fs::read_dir(work.path()).unwrap().count(), 0);
        }
    }

    /// The pass is the generic one: Kiothi (whose mapped pass skips the children of moves that
    /// cannot capture) gets the same state too.
    #[test]
    fn kiothi_streamed_partitions_equal_mapped_ones() {
        let game = crate::retro::kiothi::KiothiLayers::new(Default::default());
        let layers = builder::build_all(&game, 6);
        let work = tempfile::tempdir().unwrap();
        for n in [2, 4, 6] {
            let size = game.layer_size(n);
            let mapped = Part::forward(&game, &layers[..n], n, 0..size, &Silent).to_bytes();
            let lower = InMemory(&layers[..]);
            let streamed = forward(&game, &lower, n, 0..size, work.path(), &Silent).unwrap();
            assert!(mapped == streamed.to_bytes(), "layer {n}");
        }
    }
}
