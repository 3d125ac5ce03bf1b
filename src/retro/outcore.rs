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
//! [`super::plan::plan_layer`] chooses.
//!
//! A stopped build resumes from its last checkpoint (after each partition's forward pass, each
//! threshold, and visits inside a threshold at most [`CHECKPOINT_EVERY`] apart), named by a
//! progress file in the work directory ([`super::checkpoint`]; the files it names, `workdir`);
//! [`build_parts`] says why the resumed layer is the uninterrupted one byte for byte.
//!
//! The partitions are rank ranges, so `k` processes (MPI ranks) can each own a contiguous range
//! of every layer the same way: the inbox files become the messages between them.

use super::builder::{Part, Progress};
use super::checkpoint::{Plan, Step};
use super::plan::{least_parts, message_bytes, Lookups, UPDATES_AT_ONCE};
use super::stream::{self, read_full, LowerBlocks};
use super::workdir::{inbox, io_at, state, IoAt, Run};
use super::{LayeredGame, Layers};
use crate::store::layer_file::{as_bytes, DbError};
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// Buffered updates per partition and their bytes, each partition's inbox as `(generation,
/// bytes)`, and the first error of a flush made while sending (reported by the next
/// [`Outbox::flush`]).
struct Pending {
    boxes: Vec<Vec<u64>>,
    bytes: u64,
    inboxes: Vec<(u64, u64)>,
    error: Option<IoAt>,
}

/// Pending updates of the other partitions, buffered, then appended to their inbox files.
struct Outbox<'a> {
    work: &'a Path,
    pending: Mutex<Pending>,
    len: u64,
    cap: u64,
}

impl<'a> Outbox<'a> {
    fn new(work: &'a Path, inboxes: Vec<(u64, u64)>, len: u64) -> Self {
        let boxes = vec![Vec::new(); inboxes.len()];
        let pending = Mutex::new(Pending { boxes, bytes: 0, inboxes, error: None });
        Outbox { work, pending, len, cap: message_bytes(len) }
    }

    fn send(&self, batch: &[(u64, bool)]) {
        let mut g = self.pending.lock().unwrap();
        for &(r, win) in batch {
            g.boxes[(r / self.len) as usize].push(encode(r, win));
        }
        g.bytes += batch.len() as u64 * 8;
        if g.bytes >= self.cap {
            if let Err(e) = Self::flush_locked(self.work, &mut g) {
                g.error.get_or_insert(e);
            }
        }
    }

    fn flush_locked(work: &Path, g: &mut Pending) -> Result<(), IoAt> {
        g.bytes = 0;
        for (q, b) in g.boxes.iter_mut().enumerate() {
            if b.is_empty() {
                continue;
            }
            let path = inbox(work, q as u64, g.inboxes[q].0);
            let mut f = OpenOptions::new().create(true).append(true).open(&path).map_err(io_at(&path))?;
            // Taken, not cleared: a box kept at its capacity after every flush would let the
            // boxes together hold a cap each, past the budget.
            let bytes: Vec<u8> = std::mem::take(b).iter().flat_map(|x| x.to_le_bytes()).collect();
            f.write_all(&bytes).map_err(io_at(&path))?;
            g.inboxes[q].1 += bytes.len() as u64;
        }
        Ok(())
    }

    fn flush(&self) -> Result<(), IoAt> {
        let mut g = self.pending.lock().unwrap();
        if let Some(e) = g.error.take() {
            return Err(e);
        }
        Self::flush_locked(self.work, &mut g)
    }

    /// Every partition's inbox, `(generation, bytes)`.
    fn inboxes(&self) -> Vec<(u64, u64)> {
        self.pending.lock().unwrap().inboxes.clone()
    }

    /// Partition `p`'s inbox has been read: its next updates go to a new file.
    fn consumed(&self, p: u64) {
        let b = &mut self.pending.lock().unwrap().inboxes[p as usize];
        *b = (b.0 + 1, 0);
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

/// The state file `path`, mapped (changes reach the file as they are made: it is in the page
/// cache, which outlives the process; a checkpoint fsyncs it).
fn load(path: &Path, base: u64) -> Result<Part, IoAt> {
    let f = OpenOptions::new().read(true).write(true).open(path).map_err(io_at(path))?;
    // SAFETY: the file is this build's own, in its own work directory; nothing else writes it
    // while it is mapped.
    let map = unsafe { memmap2::MmapMut::map_mut(&f) }.map_err(io_at(path))?;
    Ok(Part::mapped(base, map))
}

fn save(path: &Path, part: &Part) -> Result<(), IoAt> {
    let mut f = io::BufWriter::new(File::create(path).map_err(io_at(path))?);
    part.write_to(&mut f).map_err(io_at(path))?;
    f.into_inner().map_err(|e| e.into_error()).and_then(|f| f.sync_all()).map_err(io_at(path))
}

/// How often a visit inside a threshold ends in a checkpoint at most (after each forward
/// partition and each threshold there is always one): a checkpoint makes the next visit of
/// every partition copy its state first, so at every visit the copies would outweigh the
/// small visits at the end of a threshold.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(20 * 60);

/// One partitioned build of layer `n` of `game`: `parts` partitions with their files in
/// `work`. The forward pass looks the capture children up in `lower` (mapped), or, given
/// `streamed`, reads them from it in rank order ([`super::stream`]). `identity` names the game,
/// its rules and its lower layers: a build resumes from a checkpoint in `work` only if it was
/// made for the same layer, plan and identity, and empties `work` otherwise ([`build_parts`]).
/// Visits inside a threshold end in a checkpoint at most every `every`.
pub struct PartsBuild<'a, G, L: ?Sized> {
    pub game: &'a G,
    pub lower: &'a L,
    pub streamed: Option<&'a dyn LowerBlocks>,
    pub n: usize,
    pub parts: u64,
    pub work: &'a Path,
    pub identity: &'a str,
    pub every: Duration,
    pub progress: &'a dyn Progress,
}

/// Build the layer `b` names; returns the file of its values, one byte per rank, in `b.work`.
pub fn build_layer_parts<G: LayeredGame, L: Layers + ?Sized>(b: &PartsBuild<'_, G, L>) -> Result<PathBuf, DbError> {
    build_parts(b, None).map_err(|e| match e {
        Failed::Io((path, source)) => DbError::Io { path, source },
        Failed::Db(e) => e,
        Failed::Stopped => unreachable!("stopped only when asked"),
    })
}

/// Why a build of partitions stopped.
enum Failed {
    Io(IoAt),
    Db(DbError),
    /// After the visits asked for (tests: a stop between a visit and its checkpoint).
    Stopped,
}

impl From<IoAt> for Failed {
    fn from(e: IoAt) -> Self {
        Failed::Io(e)
    }
}

/// The partitioned build, resumable from its checkpoints.
///
/// **State on disk.** A partition's state (values, open-move counters, best exits) is a file
/// per generation, `part-P.state.G`; the updates sent to it are appended to its inbox
/// `part-P.in.G`. The progress file ([`super::checkpoint`]) names the last consistent state:
/// the next step, each partition's state generation and each inbox's generation and length.
///
/// **Checkpoints** come after each partition's forward pass is saved, after each threshold
/// (every partition visited and no update pending), and after a visit inside a threshold when
/// `every` has passed since the last one.
///
/// **Why a resumed build is exact.** Within a threshold, a partition's state and the updates
/// pending for it change only by visits, and a visit is a function of its partition's state and
/// inbox alone: it applies the inbox (and on the first pass the seeds), propagates, and appends
/// the updates of other partitions to their inboxes. Nothing the checkpoint names is changed
/// after it: a visit works on a copy of a state the checkpoint names (the next generation), a
/// visit that reads its inbox sends the partition's later updates to a new generation of it
/// (the old one is removed once no checkpoint names it), and appends to other inboxes go past
/// the lengths it records. So at any moment after a checkpoint — inside a visit, between an
/// append and the next, mid-write of an update — the files it names hold exactly its state; a
/// resumed build removes everything else and cuts each inbox back to the recorded length
/// (`workdir`), and so neither loses an update (every update sent before the checkpoint
/// is either applied in a state it names or in an inbox within the recorded length) nor
/// applies one twice (an interrupted visit's effects, in a newer generation or past the
/// recorded lengths, are gone). The visits after it are then those of some uninterrupted
/// build from that state, and the result of a threshold is its least fixed point whatever the
/// order of the visits (module docs), so every layer is bit for bit the uninterrupted one.
/// Durability: before the progress file is replaced (atomically) every file written since the
/// last checkpoint is fsynced, so a checkpoint survives the machine, not only the process.
fn build_parts<G: LayeredGame, L: Layers + ?Sized>(
    b: &PartsBuild<'_, G, L>,
    stop_after: Option<u64>,
) -> Result<PathBuf, Failed> {
    let &PartsBuild { game, lower, streamed, n, parts, work, identity, every, progress } = b;
    let size = game.layer_size(n);
    let len = size.div_ceil(parts.max(least_parts(size))).max(1);
    let parts = size.div_ceil(len).max(1);
    let range = |p: u64| p * len..((p + 1) * len).min(size);
    let lookups = if streamed.is_some() { Lookups::Streamed } else { Lookups::Mapped };
    let plan =
        Plan { layer: n, size, parts, lookups: lookups.name().to_string(), identity: identity.replace('\n', " ") };
    let part_len = |p: u64| range(p).end - range(p).start;
    let mut run = Run::open(work, plan, &part_len, every, progress)?;
    while let Step::Forward { next: p } = run.ck.step {
        let part = match streamed {
            Some(s) => stream::forward(game, s, n, range(p), work, progress).map_err(Failed::Db)?,
            None => Part::forward(game, lower, n, range(p), progress),
        };
        save(&state(work, p, run.states[p as usize]), &part)?;
        drop(part);
        let next = if p + 1 < parts {
            Step::Forward { next: p + 1 }
        } else {
            Step::Threshold { t: n as i32, first: true, next: 0 }
        };
        run.checkpoint(next, 0, run.ck.inboxes.clone())?;
    }
    let Step::Threshold { t: top, first: first_at_top, next: next_at_top } = run.ck.step else {
        unreachable!("the forward pass is done")
    };
    let outbox = Outbox::new(work, run.ck.inboxes.clone(), len);
    let mut decided = run.ck.decided;
    let mut visits = 0u64;
    for t in (1..=top).rev() {
        let (mut first, mut from) = if t == top { (first_at_top, next_at_top) } else { (true, 0) };
        loop {
            for p in from..parts {
                let (g, bytes) = outbox.inboxes()[p as usize];
                if !first && bytes == 0 {
                    continue;
                }
                run.thaw(p)?;
                let part = load(&state(work, p, run.states[p as usize]), range(p).start)?;
                let mut frontier = if first { part.seeds(t) } else { Vec::new() };
                if bytes > 0 {
                    let path = inbox(work, p, g);
                    let mut r = BufReader::new(File::open(&path).map_err(io_at(&path))?).take(bytes);
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
                    outbox.consumed(p);
                    run.retire_inbox(p, g)?;
                }
                decided += part.propagate(game, n, t, frontier, &|batch| outbox.send(batch));
                outbox.flush()?;
                drop(part);
                visits += 1;
                if stop_after == Some(visits) {
                    return Err(Failed::Stopped);
                }
                if run.due() {
                    run.checkpoint(Step::Threshold { t, first, next: p + 1 }, decided, outbox.inboxes())?;
                }
            }
            if outbox.inboxes().iter().all(|&(_, bytes)| bytes == 0) {
                break;
            }
            (first, from) = (false, 0);
        }
        progress.threshold(t, decided);
        run.checkpoint(Step::Threshold { t: t - 1, first: true, next: 0 }, decided, outbox.inboxes())?;
    }
    // The states stay until the layer is written: a build stopped while writing the values
    // resumes from them.
    let out = work.join("values");
    let mut f = io::BufWriter::new(File::create(&out).map_err(io_at(&out))?);
    for p in 0..parts {
        let values = load(&state(work, p, run.states[p as usize]), range(p).start)?.finish();
        f.write_all(as_bytes(&values)).map_err(io_at(&out))?;
    }
    f.into_inner().map_err(|e| e.into_error()).and_then(|f| f.sync_all()).map_err(io_at(&out))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retro::builder::{self, Silent};
    use crate::retro::checkpoint;
    use crate::retro::oware::{IndexKind, OwareLayers};
    use std::fs;

    /// A progress observer that keeps the notes a build makes.
    #[derive(Default)]
    struct Notes(Mutex<Vec<String>>);

    impl Progress for Notes {
        fn note(&self, line: &str) {
            self.0.lock().unwrap().push(line.to_string());
        }
    }

    impl Notes {
        fn take(&self) -> Vec<String> {
            std::mem::take(&mut self.0.lock().unwrap())
        }
    }

    /// Build layer `n` in `parts` partitions in `work`, stopped after `stop` visits; the values
    /// when it finished.
    #[allow(clippy::too_many_arguments)]
    fn run(
        game: &OwareLayers,
        layers: &[Vec<i8>],
        streamed: bool,
        n: usize,
        parts: u64,
        work: &Path,
        every: Duration,
        stop: Option<u64>,
        notes: &Notes,
    ) -> Option<Vec<u8>> {
        let lower = stream::InMemory(layers);
        let s = streamed.then_some(&lower as &dyn LowerBlocks);
        let b = PartsBuild {
            game,
            lower: &layers[..n],
            streamed: s,
            n,
            parts,
            work,
            identity: "test game",
            every,
            progress: notes,
        };
        match build_parts(&b, stop) {
            Ok(values) => Some(fs::read(values).unwrap()),
            Err(Failed::Stopped) => None,
            Err(Failed::Io((path, e))) => panic!("{}: {e}", path.display()),
            Err(Failed::Db(e)) => panic!("{e}"),
        }
    }

    /// Oware's layer 8 built in memory (what a partitioned build must give byte for byte) over
    /// the layers below it, and a work directory for the partitioned build.
    struct Layer {
        game: OwareLayers,
        n: usize,
        layers: Vec<Vec<i8>>,
        want: Vec<u8>,
        work: PathBuf,
        notes: Notes,
        dir: tempfile::TempDir,
    }

    fn layer() -> Layer {
        let game = OwareLayers::with_index(Default::default(), IndexKind::Full);
        let n = 8;
        let layers = builder::build_all(&game, n);
        let want = as_bytes(&layers[n]).to_vec();
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        Layer { game, n, layers, want, work, notes: Notes::default(), dir }
    }

    /// A build stopped after any visit, before that visit's checkpoint (its state changed in
    /// place and its updates appended: what a kill leaves at worst), and resumed, perhaps
    /// stopped again, gives the uninterrupted layer byte for byte, resuming from its
    /// checkpoint; with checkpoints after every visit, or only after each threshold.
    #[test]
    fn a_build_stopped_between_a_visit_and_its_checkpoint_resumes_to_the_same_layer() {
        let Layer { game, n, layers, want, work, notes, dir: _dir } = layer();
        // Every checkpoint fsyncs what it names: a few stops keep the test short on a busy disk.
        for streamed in [false, true] {
            for every in [Duration::ZERO, Duration::from_secs(3600)] {
                let mut stopped = 0;
                for stop in [2u64, 7, 19, 40] {
                    let _ = fs::remove_dir_all(&work);
                    if let Some(values) = run(&game, &layers, streamed, n, 4, &work, every, Some(stop), &notes) {
                        // Fewer visits than `stop`: finished.
                        assert!(values == want);
                        break;
                    }
                    stopped += 1;
                    assert!(notes.take().is_empty());
                    // Stopped again after a few visits of the resumed build, then finished.
                    let again = run(&game, &layers, streamed, n, 4, &work, every, Some(1 + stop % 3), &notes);
                    let resumed = notes.take();
                    assert!(resumed.len() == 1 && resumed[0].starts_with("resuming at "), "{resumed:?}");
                    let values = again.or_else(|| run(&game, &layers, streamed, n, 4, &work, every, None, &notes));
                    assert!(
                        values.unwrap() == want,
                        "streamed {streamed}, every {every:?}, stopped after {stop} visits"
                    );
                    assert!(notes.take().iter().all(|l| l.starts_with("resuming at ")));
                }
                assert!(stopped >= 3, "{stopped} stops");
            }
        }
    }

    /// A checkpoint of another plan (other partitions) or a damaged progress file: the layer
    /// starts over, says so, and is still exact.
    #[test]
    fn a_checkpoint_of_another_plan_starts_the_layer_over() {
        let Layer { game, n, layers, want, work, notes, dir: _dir } = layer();
        assert!(run(&game, &layers, false, n, 4, &work, Duration::ZERO, Some(6), &notes).is_none());
        let values = run(&game, &layers, false, n, 3, &work, Duration::ZERO, None, &notes).unwrap();
        assert!(values == want);
        let said = notes.take();
        assert!(
            said.len() == 1 && said[0].contains("another plan (4 partitions with mapped lookups, not 3"),
            "{said:?}"
        );
        // A finished build leaves its last checkpoint (the caller removes the directory).
        fs::remove_dir_all(&work).unwrap();
        assert!(run(&game, &layers, false, n, 3, &work, Duration::ZERO, Some(4), &notes).is_none());
        let path = checkpoint::path(&work);
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, text.replacen("decided", "decided 1", 1)).unwrap();
        assert!(run(&game, &layers, false, n, 3, &work, Duration::ZERO, None, &notes).unwrap() == want);
        assert_eq!(notes.take(), ["its work directory's progress file is damaged; starting the layer over"]);
        // A checkpoint of another game or lower layers is not resumed.
        let other = |progress| PartsBuild {
            game: &game,
            lower: &layers[..n],
            streamed: None,
            n,
            parts: 3,
            work: &work,
            identity: "other",
            every: Duration::ZERO,
            progress,
        };
        assert!(build_parts(&other(&notes), None).is_ok());
        assert_eq!(notes.take(), ["its work directory holds a checkpoint of another plan (another game, rules or lower layers); starting the layer over"]);
        let silent = build_parts(&other(&Silent), None);
        assert!(fs::read(silent.ok().unwrap()).unwrap() == want);
    }

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
}
