//! Out-of-core layers: a layer whose working arrays do not fit a memory budget is built in
//! partitions, equal ranges of its ranks, each kept on disk between its visits.
//!
//! A partition's state is three bytes per position (value, open-move counter, best exit,
//! [`Part`]). The forward pass fills each partition in turn (reading the lower layers through
//! their maps). Each threshold then visits every partition once (its seeds) and afterwards
//! every partition that updates were sent to, until none is pending: propagation inside the
//! loaded partition is done in memory, updates of predecessors in other partitions are appended
//! to their inbox files (`rank << 1 | win`, u64 LE: ranks of the layer are u64, below 2^41 at 48
//! Oware seeds) and applied on their next visit. Within a
//! threshold the result is the attractor's least fixed point whatever the order the updates
//! arrive in (a predecessor is either sent a win or counted down, never both: a move into a
//! position lost at `-t` and one into a position won at `t` are different moves of different
//! children, and a countdown settles it only when every move is the latter), so every layer has
//! exactly the checksum of the in-memory build.
//!
//! The forward pass reads the lower layers through their maps ([`Lookups::Mapped`]: they must
//! stay resident or every lookup faults) or streams them in rank order
//! ([`Lookups::Streamed`], [`super::stream`]: the memory is bounded whatever their size);
//! [`plan_layer`] chooses.
//!
//! The partitions are rank ranges, so `k` processes (MPI ranks) can each own a contiguous range
//! of every layer the same way: the inbox files become the messages between them.

use super::builder::{Part, Progress, FRONTIER_SHARE, MAX_PART_LEN, WORK_BYTES_PER_POSITION};
use super::stream::{self, read_full, LowerBlocks};
use super::{LayeredGame, Layers};
use crate::store::layer_file::{as_bytes, DbError};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Updates buffered in memory before they are appended to the inbox files, and read from an
/// inbox file at a time, each: the size of a partition (a byte per position), within these.
pub const MESSAGE_BYTES: std::ops::RangeInclusive<u64> = (64 << 10)..=(16 << 20);
/// The process beside its arrays: code, tables, thread stacks, buffers.
pub const FIXED_BYTES: u64 = 48 << 20;
/// The most partitions a layer is split into, and the fewest positions one holds.
pub const MAX_PARTS: u64 = 4096;
pub const MIN_PART: u64 = 1 << 12;

/// Updates read from an inbox decoded and applied at a time.
const UPDATES_AT_ONCE: usize = 1 << 16;

/// Bytes of each message buffer for partitions of `len` positions.
fn message_bytes(len: u64) -> u64 {
    len.clamp(*MESSAGE_BYTES.start(), *MESSAGE_BYTES.end()) & !7
}

/// The fewest partitions of a layer of `size` positions: a part holds at most
/// [`MAX_PART_LEN`] (its frontiers are u32 indices), so layers of more (Oware from 32 seeds)
/// are never built in one.
pub fn least_parts(size: u64) -> u64 {
    size.div_ceil(MAX_PART_LEN).max(1)
}

/// Bytes of memory a build of a layer of `size` positions over lower layers of `lower` bytes
/// needs at its peak with `parts` partitions (1: the in-memory build).
pub fn memory_for(size: u64, lower: u64, parts: u64) -> u64 {
    let len = size.div_ceil(parts.max(1));
    let work = len * WORK_BYTES_PER_POSITION + len / FRONTIER_SHARE * 4;
    let messages = if parts > 1 { 2 * message_bytes(len) } else { 0 };
    FIXED_BYTES + lower + work + messages
}

/// Bytes of memory a build of a layer of `size` positions in `parts` partitions needs at its
/// peak with its lower layers streamed ([`super::stream`]): none of them is resident.
pub fn memory_streamed(size: u64, parts: u64) -> u64 {
    let len = size.div_ceil(parts.max(1));
    memory_for(size, 0, parts) + stream::stream_bytes(len)
}

crate::variant::variants! {
    /// How the forward pass of a layer reads the values of its capture children.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Lookups ("lookup mode") {
        /// At random through the maps of the lower layers: fast while they are resident.
        Mapped = "mapped": "capture children looked up at random in the mapped lower layers (they stay resident)",
        /// In rank order, block by block, from the lower layers' files ([`super::stream`]).
        Streamed = "streamed": "capture children batched and read from the lower layers' files in rank order (memory bounded whatever their size)",
    }
}

/// How one layer is built: in how many partitions (1 with mapped lookups: in memory), how its
/// lower layers are read, and the memory that needs at its peak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerPlan {
    pub parts: u64,
    pub lookups: Lookups,
    pub bytes: u64,
}

/// The plan of a layer of `size` positions over `lower` bytes of lower layers within `budget`
/// bytes (`None`: no budget, the fewest partitions), with the lookups asked for or, when
/// `lookups` is `None`, chosen: mapped when some split holds the lower layers whole within the
/// budget (random lookups into resident layers are the fastest), else streamed, the only way
/// whose memory does not grow with the lower layers (mapped lookups into layers the budget
/// cannot hold fault on most reads, [`lower_share`]). `Err(the smallest budget that fits)`.
pub fn plan_layer(size: u64, lower: u64, budget: Option<u64>, lookups: Option<Lookups>) -> Result<LayerPlan, u64> {
    let plan = |(parts, bytes), lookups| LayerPlan { parts, lookups, bytes };
    let streamed =
        |budget| fewest_parts(size, budget, &|k| memory_streamed(size, k)).map(|p| plan(p, Lookups::Streamed));
    match (budget, lookups) {
        (None, Some(Lookups::Streamed)) => streamed(u64::MAX),
        (None, _) => {
            let parts = least_parts(size);
            Ok(plan((parts, memory_for(size, lower, parts)), Lookups::Mapped))
        }
        (Some(b), Some(Lookups::Mapped)) => parts_within(size, lower, b).map(|p| plan(p, Lookups::Mapped)),
        (Some(b), Some(Lookups::Streamed)) => streamed(b),
        (Some(b), None) => parts_with_lower(size, lower, b)
            .map(|p| plan(p, Lookups::Mapped))
            .or_else(|mapped| streamed(b).map_err(|least| least.min(mapped))),
    }
}

/// The lower layers' share of a budget too small to hold them whole: a quarter of them (at
/// least 16 MiB) stays resident, the rest is dropped and faulted back in from the page cache
/// as it is read ([`crate::store::resident`]). Below a quarter the random reads of the forward
/// pass would fault on most lookups.
pub fn lower_share(lower: u64) -> u64 {
    lower.min((lower / 4).max(16 << 20))
}

/// The fewest partitions of a layer of `size` positions over `lower` bytes of lower layers
/// that fit `budget` bytes, with the memory they need: the lower layers held whole when some
/// split allows it, else only their [`lower_share`] (the build must then keep the RSS within
/// the budget, [`crate::store::resident::Watcher`]). `Err(the smallest budget that fits)`.
pub fn parts_within(size: u64, lower: u64, budget: u64) -> Result<(u64, u64), u64> {
    parts_with_lower(size, lower, budget).or_else(|_| parts_with_lower(size, lower_share(lower), budget))
}

fn parts_with_lower(size: u64, lower: u64, budget: u64) -> Result<(u64, u64), u64> {
    fewest_parts(size, budget, &|k| memory_for(size, lower, k))
}

/// The fewest partitions of a layer of `size` positions whose `memory(parts)` fits `budget`,
/// with that memory; `Err(the memory of the most partitions)` when none fits.
fn fewest_parts(size: u64, budget: u64, memory: &dyn Fn(u64) -> u64) -> Result<(u64, u64), u64> {
    let most = MAX_PARTS.min(size.div_ceil(MIN_PART)).max(least_parts(size));
    // Memory falls as the parts grow in number: the first that fits is the fewest.
    let mut parts = least_parts(size);
    while parts <= most {
        if memory(parts) <= budget {
            return Ok((parts, memory(parts)));
        }
        parts = if parts < 16 { parts + 1 } else { parts * 5 / 4 };
    }
    if memory(most) <= budget {
        return Ok((most, memory(most)));
    }
    Err(memory(most))
}

fn io_at(path: &Path) -> impl Fn(io::Error) -> (PathBuf, io::Error) + '_ {
    move |e| (path.to_path_buf(), e)
}

/// An I/O error with the file it concerns.
type IoAt = (PathBuf, io::Error);

/// Buffered updates per partition, their bytes, and the first error of a flush made while
/// sending (reported by the next [`Outbox::flush`]).
type Pending = (Vec<Vec<u64>>, u64, Option<IoAt>);

/// Pending updates of the other partitions, buffered, then appended to their inbox files.
struct Outbox<'a> {
    work: &'a Path,
    pending: Mutex<Pending>,
    len: u64,
    cap: u64,
}

impl<'a> Outbox<'a> {
    fn new(work: &'a Path, parts: u64, len: u64) -> Self {
        Outbox { work, pending: Mutex::new((vec![Vec::new(); parts as usize], 0, None)), len, cap: message_bytes(len) }
    }

    fn send(&self, batch: &[(u64, bool)]) {
        let mut g = self.pending.lock().unwrap();
        for &(r, win) in batch {
            g.0[(r / self.len) as usize].push(encode(r, win));
        }
        g.1 += batch.len() as u64 * 8;
        if g.1 >= self.cap {
            if let Err(e) = Self::flush_locked(self.work, &mut g.0) {
                g.2.get_or_insert(e);
            }
            g.1 = 0;
        }
    }

    fn flush_locked(work: &Path, boxes: &mut [Vec<u64>]) -> Result<(), (PathBuf, io::Error)> {
        for (q, b) in boxes.iter_mut().enumerate() {
            if b.is_empty() {
                continue;
            }
            let path = inbox(work, q as u64);
            let mut f = OpenOptions::new().create(true).append(true).open(&path).map_err(io_at(&path))?;
            // Taken, not cleared: a box kept at its capacity after every flush would let the
            // boxes together hold a cap each, past the budget.
            let bytes: Vec<u8> = std::mem::take(b).iter().flat_map(|x| x.to_le_bytes()).collect();
            f.write_all(&bytes).map_err(io_at(&path))?;
        }
        Ok(())
    }

    fn flush(&self) -> Result<(), (PathBuf, io::Error)> {
        let mut g = self.pending.lock().unwrap();
        if let Some(e) = g.2.take() {
            return Err(e);
        }
        g.1 = 0;
        Self::flush_locked(self.work, &mut g.0)
    }
}

/// An update as an inbox holds it: the rank (below 2^63) shifted left, the win flag in bit 0.
fn encode(rank: u64, win: bool) -> u64 {
    debug_assert!(rank < 1 << 63);
    rank << 1 | win as u64
}

fn decode(x: u64) -> (u64, bool) {
    (x >> 1, x & 1 == 1)
}

fn state(work: &Path, p: u64) -> PathBuf {
    work.join(format!("part-{p}.state"))
}

fn inbox(work: &Path, p: u64) -> PathBuf {
    work.join(format!("part-{p}.in"))
}

/// Partition `p`'s state, mapped from its file (changes reach the file as the map is dropped).
fn load(work: &Path, p: u64, base: u64) -> Result<Part, (PathBuf, io::Error)> {
    let path = state(work, p);
    let f = OpenOptions::new().read(true).write(true).open(&path).map_err(io_at(&path))?;
    // SAFETY: the file is this build's own, in its own work directory; nothing else writes it
    // while it is mapped.
    let map = unsafe { memmap2::MmapMut::map_mut(&f) }.map_err(io_at(&path))?;
    Ok(Part::mapped(base, map))
}

fn save(work: &Path, p: u64, part: &Part) -> Result<(), (PathBuf, io::Error)> {
    let path = state(work, p);
    let mut f = io::BufWriter::new(File::create(&path).map_err(io_at(&path))?);
    part.write_to(&mut f).and_then(|()| f.flush()).map_err(io_at(&path))
}

/// Build layer `n` in `parts` partitions with their files in `work` (created, and emptied of
/// what a stopped build left). The forward pass looks the capture children up in `lower`
/// (mapped), or, given `streamed`, reads them from it in rank order ([`super::stream`]).
/// Returns the file of its values, one byte per rank, in `work`.
pub fn build_layer_parts<G: LayeredGame, L: Layers + ?Sized>(
    game: &G,
    lower: &L,
    streamed: Option<&dyn LowerBlocks>,
    n: usize,
    parts: u64,
    work: &Path,
    progress: &dyn Progress,
) -> Result<PathBuf, DbError> {
    build_parts(game, lower, streamed, n, parts, work, progress).map_err(|e| match e {
        Failed::Io((path, source)) => DbError::Io { path, source },
        Failed::Db(e) => e,
    })
}

/// Why a build of partitions stopped.
enum Failed {
    Io(IoAt),
    Db(DbError),
}

impl From<IoAt> for Failed {
    fn from(e: IoAt) -> Self {
        Failed::Io(e)
    }
}

fn build_parts<G: LayeredGame, L: Layers + ?Sized>(
    game: &G,
    lower: &L,
    streamed: Option<&dyn LowerBlocks>,
    n: usize,
    parts: u64,
    work: &Path,
    progress: &dyn Progress,
) -> Result<PathBuf, Failed> {
    let size = game.layer_size(n);
    let len = size.div_ceil(parts.max(least_parts(size))).max(1);
    let parts = size.div_ceil(len).max(1);
    let range = |p: u64| p * len..((p + 1) * len).min(size);
    if work.exists() {
        fs::remove_dir_all(work).map_err(io_at(work))?;
    }
    fs::create_dir_all(work).map_err(io_at(work))?;
    for p in 0..parts {
        let part = match streamed {
            Some(s) => stream::forward(game, s, n, range(p), work, progress).map_err(Failed::Db)?,
            None => Part::forward(game, lower, n, range(p), progress),
        };
        save(work, p, &part)?;
    }
    let outbox = Outbox::new(work, parts, len);
    let mut decided = 0u64;
    for t in (1..=n as i32).rev() {
        let mut first = true;
        loop {
            let mut visited = false;
            for p in 0..parts {
                let path = inbox(work, p);
                let pending = path.exists();
                if !first && !pending {
                    continue;
                }
                visited = true;
                let part = load(work, p, range(p).start)?;
                let mut frontier = if first { part.seeds(t) } else { Vec::new() };
                if pending {
                    let mut r = BufReader::new(File::open(&path).map_err(io_at(&path))?);
                    let mut buf = vec![0u8; message_bytes(len) as usize];
                    loop {
                        let got = read_full(&mut r, &mut buf).map_err(io_at(&path))?;
                        if got == 0 {
                            break;
                        }
                        // Decoded a slice at a time: the updates as tuples take twice the bytes
                        // the buffer holds.
                        for slice in buf[..got].chunks(UPDATES_AT_ONCE * 8) {
                            let updates: Vec<(u64, bool)> = slice
                                .chunks_exact(8)
                                .map(|c| decode(u64::from_le_bytes(c.try_into().unwrap())))
                                .collect();
                            frontier.extend(part.receive(t, &updates));
                        }
                    }
                    fs::remove_file(&path).map_err(io_at(&path))?;
                }
                decided += part.propagate(game, n, t, frontier, &|batch| outbox.send(batch));
                outbox.flush()?;
                drop(part);
            }
            first = false;
            if !visited || !(0..parts).any(|p| inbox(work, p).exists()) {
                break;
            }
        }
        progress.threshold(t, decided);
    }
    let out = work.join("values");
    let mut f = io::BufWriter::new(File::create(&out).map_err(io_at(&out))?);
    for p in 0..parts {
        let values = load(work, p, range(p).start)?.finish();
        f.write_all(as_bytes(&values)).map_err(io_at(&out))?;
        let path = state(work, p);
        fs::remove_file(&path).map_err(io_at(&path))?;
    }
    f.into_inner().map_err(|e| e.into_error()).and_then(|f| f.sync_all()).map_err(io_at(&out))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inbox_updates_keep_ranks_past_32_bits() {
        // The last rank of Oware's 48-seed layer (C(59, 11) positions) and ranks around 2^32.
        let last = crate::index::binomial(59, 11) - 1;
        for r in [0, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, 5_752_004_348, last] {
            for win in [false, true] {
                assert_eq!(decode(encode(r, win)), (r, win));
            }
        }
    }

    #[test]
    fn layers_past_u32_indices_get_enough_partitions() {
        let c = |n: u64| crate::index::binomial(n + 11, 11);
        assert_eq!(least_parts(c(31)), 1, "31 seeds: 4,280,561,376 positions");
        assert_eq!(least_parts(c(32)), 2, "32 seeds: 5,752,004,349 positions");
        assert_eq!(least_parts(c(36)), 5, "36 seeds: 17,417,133,617 positions");
        for n in [32, 36, 40, 48] {
            let size = c(n);
            // Even with all the memory in the world, no part exceeds u32 indices.
            let (parts, _) = parts_within(size, 0, u64::MAX).unwrap();
            assert!(size.div_ceil(parts) <= MAX_PART_LEN, "{n}: {parts}");
        }
    }

    #[test]
    fn the_plan_streams_when_the_lower_layers_do_not_fit_and_its_memory_ignores_them() {
        let size = 85_000_000;
        let budget = 100 << 20;
        // Lower layers the budget holds beside a split: mapped, as asked or chosen.
        let small = 8 << 20;
        let auto = plan_layer(size, small, Some(budget), None).unwrap();
        assert_eq!(auto.lookups, Lookups::Mapped);
        assert_eq!(auto, plan_layer(size, small, Some(budget), Some(Lookups::Mapped)).unwrap());
        // Lower layers past the budget: streamed, within the budget however large they are.
        for lower in [300 << 20, 40 << 30, 700 << 30] {
            let p = plan_layer(size, lower, Some(budget), None).unwrap();
            assert_eq!(p.lookups, Lookups::Streamed, "{lower}");
            assert!(p.bytes <= budget && p.bytes == memory_streamed(size, p.parts), "{p:?}");
            assert_eq!(p, plan_layer(size, 0, Some(budget), Some(Lookups::Streamed)).unwrap());
        }
        // Without a budget: in memory, or streamed in the fewest partitions when asked.
        assert_eq!(plan_layer(size, small, None, None).unwrap().parts, 1);
        let s = plan_layer(size, small, None, Some(Lookups::Streamed)).unwrap();
        assert_eq!((s.parts, s.lookups), (1, Lookups::Streamed));
        // A budget below the process itself fits nothing, and says what would.
        let least = plan_layer(size, small, Some(FIXED_BYTES), None).unwrap_err();
        assert!(least > FIXED_BYTES && plan_layer(size, small, Some(least), None).is_ok());
    }
}
