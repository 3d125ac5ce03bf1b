//! A layer built by several MPI processes (feature `mpi`): the out-of-core partitions of
//! [`super::outcore`] as ranks of a communicator, their inbox files as messages.
//!
//! Every process owns a contiguous range of the ranks of each layer ([`owned`]) and holds only
//! that: its [`Part`] (three bytes a position) while the layer is built, and afterwards its
//! share of the layer's values ([`Shares`], a byte a position), lower layers included. No
//! process maps a layer file, so the memory of a process falls as 1/K.
//!
//! **Forward pass.** The owned ranks are expanded a segment at a time ([`lookup_segment`]
//! positions, the same number of rounds on every process). Each move that leaves the layer is
//! a lookup of its child `(layer m, rank r)`: it goes to the owner of `r` in layer `m` as
//! `m << 32 | r - owner's first rank` (a u64), collected per owner; an `Alltoall` of the
//! counts and an `Alltoallv` of the lookups carry them, each owner answers from its shares (a
//! byte each, in the order asked), an `Alltoallv` carries the answers back, and every answer
//! raises its position's best exit to `gain - value`. A best exit is a maximum over the
//! moves, so the state is the single-process forward pass's byte for byte.
//!
//! **Thresholds.** Each threshold then seeds and propagates locally, in rounds: a round
//! propagates the positions settled here, [`STEP`] at a time, until nothing is left or the
//! outbox holds a 16th of the share in updates (at most [`super::plan::OUTBOX`]); the updates of
//! predecessors another process owns go to the outbox per destination as `local index << 1 |
//! win` (a u32). Then the outbox is exchanged: an `Alltoall` of the counts, an `Alltoallv` of
//! the updates (a process sends and receives at most a 32nd of the share, and
//! [`super::plan::ROUND`], at a time), an `Allreduce` of what is still to send and of what was sent; what arrives settles
//! positions here, which join those still to propagate. The threshold ends when no process
//! has anything left to propagate after an exchange. So the outbox and the exchange buffers
//! are bounded whatever the layer ([`super::plan::EXCHANGE_BYTES`]). The order the updates
//! arrive in does not matter (see [`super::outcore`]'s module doc), so each layer has exactly
//! the in-memory build's checksum.
//!
//! No process holds the whole layer: each writes its own share of the values into the layer
//! file's temporary ([`crate::store::layer_file::SlicedLayer`]; shares start on the file's
//! 64 KiB blocks, so each process checksums its own blocks) and rank 0, once every process has
//! written, puts the header in front and renames the file into place. A process that dies
//! before leaves no file of the layer (the others are stopped by `mpirun`), a write that fails
//! (a full disk) is agreed on by all and reported once, and a rerun resumes from the last layer
//! written, each process reading its shares of the layers already built from their files.

use super::builder::{Part, Progress, CHUNK};
use super::stream::Forward;
use super::LayeredGame;
use crate::store::layer_file::{self, DbError, Family, Header, BLOCK};
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// What crossed between the processes while a layer was built (the same on every process).
#[derive(Clone, Copy, Debug, Default)]
pub struct Traffic {
    /// Predecessor updates sent to another process (4 bytes each).
    pub updates: u64,
    /// `Alltoallv` rounds over all thresholds.
    pub rounds: u64,
    /// Lookups of the forward pass sent to another process ([`LOOKUP_BYTES`] each, the
    /// request and its answer).
    pub lookups: u64,
    /// Lookup rounds of the forward pass (each an `Alltoall` and two `Alltoallv`).
    pub lookup_rounds: u64,
    /// Blocks of the lower layers' files ([`BLOCK`] bytes) outside its own shares that a
    /// process's lookups fall in, summed over the processes: what the forward passes would
    /// read if each read the other shares from the files instead of asking their owners (at
    /// best, each block once).
    pub foreign_blocks: u64,
}

/// Bytes a lookup carries between two processes: the request (a u64) and its answer (a byte).
pub const LOOKUP_BYTES: u64 = 9;

use super::plan::{exchange_sizes, STEP, UPDATES_AT_ONCE};
pub use super::plan::{lookup_segment, min_processes, owned, private_bytes, share_len, MAX_SHARE};

/// This process's share of every finished layer: `held[m]` holds the values of the ranks
/// [`owned`] of layer `m`.
pub struct Shares {
    pub held: Vec<Vec<i8>>,
}

impl Shares {
    /// This process's shares of the finished `layers`, read from their files (each block
    /// checked as it is read).
    pub fn read(world: &SimpleCommunicator, layers: &[crate::store::layer::Layer]) -> Result<Shares, DbError> {
        let (k, me) = (world.size() as u64, world.rank() as u64);
        let mut held = Vec::with_capacity(layers.len());
        for l in layers {
            let r = owned(l.header().entries, k, me);
            let mut v = vec![0i8; (r.end - r.start) as usize];
            if !v.is_empty() {
                l.read_at(r.start, &mut v)?;
            }
            held.push(v);
        }
        Ok(Shares { held })
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.held.iter().map(|v| v.len() as u64).sum()
    }
}

/// Whether every process got `Ok`: the lowest-ranked process that failed keeps its error (it
/// reports it), every other process gets `Err(None)` (it ends quietly). So a failure all
/// processes learn of is one line, not one per process, and nobody waits in a collective for
/// a process that left. A collective: every process calls it at the same point.
pub fn agree<T, E>(world: &SimpleCommunicator, r: Result<T, E>) -> Result<T, Option<E>> {
    let mine = if r.is_ok() { world.size() } else { world.rank() };
    let mut first = 0;
    world.all_reduce_into(&mine, &mut first, SystemOperation::min());
    match r {
        Ok(t) if first == world.size() => Ok(t),
        Err(e) if first == world.rank() => Err(Some(e)),
        _ => Err(None),
    }
}

/// Why a distributed build stopped: every process knows (an [`agree`]d failure), the one
/// holding `Some` reports it, the others end quietly.
#[derive(Debug)]
pub enum Stop {
    Agreed(Option<DbError>),
}

/// Build layer `n` over the lower layers' `shares` with every process of `world` (each calls
/// this with its own); returns the values of this process's share ([`owned`]) and the traffic.
pub fn build_layer<G: LayeredGame>(
    world: &SimpleCommunicator,
    game: &G,
    shares: &Shares,
    n: usize,
    progress: &dyn Progress,
) -> (Vec<i8>, Traffic) {
    let size = game.layer_size(n);
    let k = world.size() as u64;
    let len = share_len(size, k);
    assert!(len <= MAX_SHARE, "layer {n}: {size} positions are too many for {k} processes (callers check)");
    let mut traffic = Traffic::default();
    let part = forward(world, game, shares, n, progress, &mut traffic);
    let mut decided = 0u64;
    let mut outbox: Vec<Vec<u32>> = vec![Vec::new(); k as usize];
    let (held_most, round) = exchange_sizes(len);
    for t in (1..=n as i32).rev() {
        // The positions settled here and not yet propagated. A round propagates some of them
        // (until the outbox holds `held_most` updates) and exchanges the outbox: every process
        // takes part in every round, so the rounds are as many everywhere.
        let mut queue = part.seeds(t);
        loop {
            while !queue.is_empty() && outbox.iter().map(Vec::len).sum::<usize>() < held_most {
                let step = queue.split_off(queue.len().saturating_sub(STEP));
                decided += step.len() as u64;
                let sink = Mutex::new(&mut outbox);
                let next = part.propagate_step(game, n, t, &step, &|batch| {
                    let mut out = sink.lock().unwrap();
                    for &(r, win) in batch {
                        let dest = r / len;
                        out[dest as usize].push(((r - dest * len) as u32) << 1 | win as u32);
                    }
                });
                queue.extend(next);
            }
            let settled = exchange(world, &part, t, &mut outbox, round, &mut traffic);
            queue.extend(settled);
            let mut left = 0u64;
            world.all_reduce_into(&(queue.len() as u64), &mut left, SystemOperation::sum());
            if left == 0 {
                break;
            }
        }
        let mut all = 0u64;
        world.all_reduce_into(&decided, &mut all, SystemOperation::sum());
        progress.threshold(t, all);
    }
    (part.finish(), traffic)
}

/// One lookup of the forward pass as its requester keeps it: the owner, the request sent
/// (`layer << 32 | index in the owner's share`), and the position (an index into this
/// process's share) and gain its answer goes to.
struct Lookup {
    owner: u32,
    request: u64,
    at: u32,
    gain: i8,
}

/// The forward pass over this process's share of layer `n`: every capture child's value is
/// asked of the process whose share holds it ([`Shares`]), in rounds of [`lookup_segment`]
/// positions (module doc). The same state as [`Part::forward`] over whole lower layers.
fn forward<G: LayeredGame>(
    world: &SimpleCommunicator,
    game: &G,
    shares: &Shares,
    n: usize,
    progress: &dyn Progress,
    traffic: &mut Traffic,
) -> Part {
    let (k, me) = (world.size() as u64, world.rank() as u64);
    let size = game.layer_size(n);
    let ranks = owned(size, k, me);
    let len = ranks.end - ranks.start;
    let lens: Vec<u64> = (0..n).map(|m| share_len(game.layer_size(m), k)).collect();
    let state = Forward::new(game, n, ranks);
    let segment = lookup_segment(share_len(size, k));
    let mut sent = 0u64;
    // One bit per block of each lower layer that a lookup outside this process's shares falls in.
    let foreign: Vec<Vec<AtomicU64>> = (0..n)
        .map(|m| (0..game.layer_size(m).div_ceil(BLOCK as u64).div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
        .collect();
    // Every process takes part in as many rounds as the longest share needs.
    for round in 0..share_len(size, k).div_ceil(segment) {
        let (lo, hi) = ((round * segment).min(len), ((round + 1) * segment).min(len));
        let asked: Vec<Vec<Lookup>> = (lo.div_ceil(CHUNK)..hi.div_ceil(CHUNK))
            .into_par_iter()
            .map_init(
                || (Vec::with_capacity(16), Vec::with_capacity(16)),
                |(buf, exits), c| {
                    let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(hi));
                    let mut asked = Vec::new();
                    state.expand(start..end, (buf, exits), |i, gain, m, r| {
                        let owner = r / lens[m];
                        if owner != me {
                            let b = r / BLOCK as u64;
                            foreign[m][(b / 64) as usize].fetch_or(1 << (b % 64), Relaxed);
                        }
                        let request = (m as u64) << 32 | (r - owner * lens[m]);
                        asked.push(Lookup { owner: owner as u32, request, at: i as u32, gain: gain as i8 });
                    });
                    progress.forward(end - start);
                    asked
                },
            )
            .collect();
        // The requests by owner, and beside them (in the same order) where each answer goes.
        let mut counts: Vec<Count> = vec![0; k as usize];
        for l in asked.iter().flatten() {
            counts[l.owner as usize] += 1;
        }
        let displs = offsets(&counts);
        let total = counts.iter().map(|&c| c as usize).sum::<usize>();
        let mut requests = vec![0u64; total];
        let mut to: Vec<(u32, i8)> = vec![(0, 0); total];
        let mut next: Vec<usize> = displs.iter().map(|&d| d as usize).collect();
        for l in asked.into_iter().flatten() {
            let slot = &mut next[l.owner as usize];
            requests[*slot] = l.request;
            to[*slot] = (l.at, l.gain);
            *slot += 1;
        }
        sent += (total - counts[me as usize] as usize) as u64;
        let mut incoming: Vec<Count> = vec![0; k as usize];
        world.all_to_all_into(&counts[..], &mut incoming[..]);
        let in_displs = offsets(&incoming);
        let mut wanted = vec![0u64; incoming.iter().map(|&c| c as usize).sum()];
        all_to_all(world, &requests, (&counts, &displs), &mut wanted, (&incoming, &in_displs));
        drop(requests);
        let answers: Vec<i8> = wanted.par_iter().map(|&x| shares.held[(x >> 32) as usize][x as u32 as usize]).collect();
        drop(wanted);
        let mut values = vec![0i8; total];
        all_to_all(world, &answers, (&incoming, &in_displs), &mut values, (&counts, &displs));
        to.par_iter().zip(values.par_iter()).for_each(|(&(at, gain), &v)| {
            state.best[at as usize].fetch_max(gain - v, Relaxed);
        });
        traffic.lookup_rounds += 1;
    }
    let blocks = foreign.iter().flatten().map(|w| w.load(Relaxed).count_ones() as u64).sum::<u64>();
    let mut all = [0u64; 2];
    world.all_reduce_into(&[sent, blocks][..], &mut all[..], SystemOperation::sum());
    traffic.lookups += all[0];
    traffic.foreign_blocks += all[1];
    state.into_part()
}

/// `Alltoallv` of `send` (`counts`, `displs` per destination) into `recv` (`in_counts`,
/// `in_displs` per source). Empty buffers get real memory first: an empty Vec's pointer is its
/// alignment, which OpenMPI may take for MPI_IN_PLACE (1) or MPI_BOTTOM.
fn all_to_all<T: Equivalence + Clone>(
    world: &SimpleCommunicator,
    send: &[T],
    (counts, displs): (&[Count], &[Count]),
    recv: &mut Vec<T>,
    (in_counts, in_displs): (&[Count], &[Count]),
) {
    let mut send = std::borrow::Cow::Borrowed(send);
    if send.is_empty() {
        send.to_mut().reserve(1);
    }
    recv.reserve(1);
    let from = Partition::new(&send[..], counts, displs);
    let mut into = PartitionMut::new(&mut recv[..], in_counts, in_displs);
    world.all_to_all_varcount_into(&from, &mut into);
}

/// Write layer `n` (`size` positions) from every process's share (`values`, [`owned`]); the
/// header on rank 0 (`None` elsewhere). Each step is [`agree`]d: a failure anywhere (a full
/// disk) stops every process at the same point, and rank 0's temporary is removed.
fn write_shares(
    world: &SimpleCommunicator,
    family: &Family,
    n: usize,
    size: u64,
    values: &[i8],
) -> Result<Option<Header>, Option<DbError>> {
    let (k, me) = (world.size() as u64, world.rank() as u64);
    let target = agree(world, family.slice_target(n, size))?;
    let writing = agree(world, if me == 0 { family.begin_sliced(n, size).map(Some) } else { Ok(None) })?;
    // The temporary exists (rank 0 created it before agreeing): every process writes its share.
    let mut crcs = agree(world, layer_file::write_slice(&target, owned(size, k, me).start, values))?;
    if crcs.is_empty() {
        // An empty Vec's pointer is its alignment, which OpenMPI may take for MPI_IN_PLACE (1)
        // or MPI_BOTTOM: give the (empty) send buffer real memory.
        crcs.reserve(1);
    }
    let root = world.process_at_rank(0);
    match writing {
        Some(writing) => {
            let counts: Vec<Count> = (0..k).map(|p| owned(size, k, p)).map(|r| blocks(r.end - r.start)).collect();
            let displs = offsets(&counts);
            let mut all = vec![0u32; counts.iter().map(|&c| c as usize).sum()];
            root.gather_varcount_into_root(&crcs[..], &mut PartitionMut::new(&mut all[..], &counts[..], &displs[..]));
            agree(world, writing.finish(&all)).map(Some)
        }
        None => {
            root.gather_varcount_into(&crcs[..]);
            agree(world, Ok::<(), DbError>(())).map(|()| None)
        }
    }
}

/// Blocks of the layer file a share of `len` positions covers (shares start on blocks).
fn blocks(len: u64) -> Count {
    len.div_ceil(BLOCK as u64) as Count
}

/// Send the outbox `out` (updates per destination; emptied, its memory kept for the next
/// round) in rounds of at most `round` updates to all destinations together and apply what
/// arrives; returns the positions the received updates settled here.
fn exchange(
    world: &SimpleCommunicator,
    part: &Part,
    t: i32,
    out: &mut [Vec<u32>],
    round: usize,
    traffic: &mut Traffic,
) -> Vec<u32> {
    let k = out.len();
    // Each destination's part of a round, so that a round receives at most `round` as well.
    let per = (round / k).max(1);
    let mut done = vec![0usize; k];
    let mut settled = Vec::new();
    loop {
        let counts: Vec<Count> = (0..k).map(|d| (out[d].len() - done[d]).min(per) as Count).collect();
        let mut send = Vec::with_capacity(counts.iter().map(|&c| c as usize).sum());
        for d in 0..k {
            send.extend_from_slice(&out[d][done[d]..done[d] + counts[d] as usize]);
            done[d] += counts[d] as usize;
        }
        let mut incoming: Vec<Count> = vec![0; k];
        world.all_to_all_into(&counts[..], &mut incoming[..]);
        let displs = offsets(&counts);
        let in_displs = offsets(&incoming);
        let mut recv = vec![0u32; incoming.iter().map(|&c| c as usize).sum()];
        all_to_all(world, &send, (&counts, &displs), &mut recv, (&incoming, &in_displs));
        let sent = send.len() as u64;
        drop(send);
        traffic.rounds += 1;
        // Decoded a slice at a time: as tuples the updates take four times the bytes received.
        for slice in recv.chunks(UPDATES_AT_ONCE) {
            let updates: Vec<(u64, bool)> = slice.iter().map(|&x| (part.base + (x >> 1) as u64, x & 1 == 1)).collect();
            settled.extend(part.receive(t, &updates));
        }
        drop(recv);
        // [still to send, sent this round] over every process.
        let left = (0..k).map(|d| (out[d].len() - done[d]) as u64).sum::<u64>();
        let mine = [left, sent];
        let mut sum = [0u64; 2];
        world.all_reduce_into(&mine[..], &mut sum[..], SystemOperation::sum());
        traffic.updates += sum[1];
        if sum[0] == 0 {
            break;
        }
    }
    out.iter_mut().for_each(Vec::clear);
    settled
}

fn offsets(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |acc, &c| {
            let at = *acc;
            *acc += c;
            Some(at)
        })
        .collect()
}

/// Build the layers `shares.held.len()..=max` of a table family with every process of `world`
/// (each calls this with its own [`Shares`] of the finished layers); every process writes its
/// share of each layer and keeps it for the next. `on_layer(n, header, traffic)` is called on
/// rank 0 after each layer is written.
pub fn build_files<G: LayeredGame>(
    world: &SimpleCommunicator,
    family: &Family,
    game: &G,
    mut shares: Shares,
    max: usize,
    progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
    on_layer: &mut dyn FnMut(usize, &Header, &Traffic),
) -> Result<Shares, Stop> {
    for n in shares.held.len()..=max {
        let size = game.layer_size(n);
        let p = progress(n, size);
        let (values, traffic) = build_layer(world, game, &shares, n, p.as_ref());
        drop(p);
        // The last agreement of the write comes after rank 0's rename: the layer is in place
        // when every process goes on to the next.
        if let Some(header) = write_shares(world, family, n, size, &values).map_err(Stop::Agreed)? {
            on_layer(n, &header, &traffic);
        }
        shares.held.push(values);
    }
    Ok(shares)
}
