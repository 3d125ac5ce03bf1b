//! A layer built by several MPI processes (feature `mpi`): the out-of-core partitions of
//! [`super::outcore`] as ranks of a communicator, their inbox files as messages.
//!
//! Every process owns a contiguous range of the ranks of each layer (a [`Part`], three bytes
//! per position) and reads the lower layers from their files, which every process maps (a
//! shared file system, or one machine). The forward pass is local. Each threshold then seeds
//! and propagates locally; the updates of predecessors another process owns are collected per
//! destination as `local index << 1 | win` (a u32) and exchanged in rounds: an `Alltoall` of
//! the counts, an `Alltoallv` of the updates (at most [`BATCH`] per destination per round, so
//! the buffers stay bounded), an `Allreduce` of what is still to send and of what was sent.
//! The threshold ends when a whole exchange sent nothing anywhere: every process has then
//! propagated everything it was sent. The order the updates arrive in does not matter (see
//! [`super::outcore`]'s module doc), so each layer has exactly the in-memory build's checksum.
//!
//! No process holds the whole layer: each writes its own share of the values into the layer
//! file's temporary ([`crate::store::layer_file::SlicedLayer`]; shares start on the file's
//! 64 KiB blocks, so each process checksums its own blocks) and rank 0, once every process has
//! written, puts the header in front and renames the file into place. A process that dies
//! before leaves no file of the layer (the others are stopped by `mpirun`), a write that fails
//! (a full disk) is agreed on by all and reported once, and a rerun resumes from the last layer
//! written.

use super::builder::{Part, Progress};
use super::{LayeredGame, Layers};
use crate::store::layer_file::{self, DbError, Family, Header, LayerFile, BLOCK};
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use std::sync::Mutex;

/// The most updates sent to one destination in one exchange round (16 MiB of u32).
pub const BATCH: usize = 4 << 20;

/// What crossed between the processes while a layer was built (the same on every process).
#[derive(Clone, Copy, Debug, Default)]
pub struct Traffic {
    /// Predecessor updates sent to another process (4 bytes each).
    pub updates: u64,
    /// `Alltoallv` rounds over all thresholds.
    pub rounds: u64,
}

pub use super::plan::{min_processes, owned, private_bytes, share_len, MAX_SHARE};

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

/// Why a distributed build stopped.
#[derive(Debug)]
pub enum Stop {
    /// Every process knows (an [`agree`]d failure): the one holding `Some` reports it, the
    /// others end quietly.
    Agreed(Option<DbError>),
    /// Only this process failed, and the others may be waiting for it: the job must be aborted.
    Alone(DbError),
}

/// Build layer `n` over `lower` with every process of `world` (each calls this); returns the
/// values of this process's share ([`owned`]) and the traffic.
pub fn build_layer<G: LayeredGame, L: Layers + ?Sized>(
    world: &SimpleCommunicator,
    game: &G,
    lower: &L,
    n: usize,
    progress: &dyn Progress,
) -> (Vec<i8>, Traffic) {
    let size = game.layer_size(n);
    let k = world.size() as u64;
    let me = world.rank() as u64;
    let len = share_len(size, k);
    assert!(len <= MAX_SHARE, "layer {n}: {size} positions are too many for {k} processes (callers check)");
    let part = Part::forward(game, lower, n, owned(size, k, me), progress);
    let mut traffic = Traffic::default();
    let mut decided = 0u64;
    for t in (1..=n as i32).rev() {
        let mut frontier = part.seeds(t);
        loop {
            let outbox: Mutex<Vec<Vec<u32>>> = Mutex::new(vec![Vec::new(); k as usize]);
            decided += part.propagate(game, n, t, frontier, &|batch| {
                let mut out = outbox.lock().unwrap();
                for &(r, win) in batch {
                    let dest = r / len;
                    out[dest as usize].push(((r - dest * len) as u32) << 1 | win as u32);
                }
            });
            let (sent, next) = exchange(world, &part, t, outbox.into_inner().unwrap(), &mut traffic);
            if sent == 0 {
                break;
            }
            frontier = next;
        }
        let mut all = 0u64;
        world.all_reduce_into(&decided, &mut all, SystemOperation::sum());
        progress.threshold(t, all);
    }
    (part.finish(), traffic)
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

/// Send `out` (updates per destination) in rounds of at most [`BATCH`] per destination and
/// apply what arrives; returns the updates sent by all processes and the positions the
/// received updates settled here.
fn exchange(
    world: &SimpleCommunicator,
    part: &Part,
    t: i32,
    out: Vec<Vec<u32>>,
    traffic: &mut Traffic,
) -> (u64, Vec<u32>) {
    let k = out.len();
    let mut done = vec![0usize; k];
    let mut settled = Vec::new();
    let mut sent_all = 0u64;
    loop {
        let counts: Vec<Count> = (0..k).map(|d| (out[d].len() - done[d]).min(BATCH) as Count).collect();
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
        {
            let from = Partition::new(&send[..], &counts[..], &displs[..]);
            let mut into = PartitionMut::new(&mut recv[..], &incoming[..], &in_displs[..]);
            world.all_to_all_varcount_into(&from, &mut into);
        }
        traffic.rounds += 1;
        let updates: Vec<(u64, bool)> = recv.iter().map(|&x| (part.base + (x >> 1) as u64, x & 1 == 1)).collect();
        settled.extend(part.receive(t, &updates));
        // [still to send, sent this round] over every process.
        let left = (0..k).map(|d| (out[d].len() - done[d]) as u64).sum::<u64>();
        let mine = [left, send.len() as u64];
        let mut sum = [0u64; 2];
        world.all_reduce_into(&mine[..], &mut sum[..], SystemOperation::sum());
        sent_all += sum[1];
        if sum[0] == 0 {
            break;
        }
    }
    traffic.updates += sent_all;
    (sent_all, settled)
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

/// Build the layers `layers.len()..=max` of a table family with every process of `world` (each
/// calls this with the same finished `layers`); every process writes its share of each layer,
/// then maps the layer (checked) for the next. `on_layer(n, header, traffic)` is called on
/// rank 0 after each layer is written.
#[allow(clippy::too_many_arguments)]
pub fn build_files<G: LayeredGame>(
    world: &SimpleCommunicator,
    family: &Family,
    game: &G,
    mut layers: Vec<LayerFile>,
    max: usize,
    progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
    on_layer: &mut dyn FnMut(usize, &Header, &Traffic),
) -> Result<Vec<LayerFile>, Stop> {
    for n in layers.len()..=max {
        let size = game.layer_size(n);
        let p = progress(n, size);
        let (values, traffic) = build_layer(world, game, layers.as_slice(), n, p.as_ref());
        drop(p);
        // The last agreement of the write comes after rank 0's rename: the file is in place
        // before anyone maps it.
        if let Some(header) = write_shares(world, family, n, size, &values).map_err(Stop::Agreed)? {
            on_layer(n, &header, &traffic);
        }
        drop(values);
        layers.push(family.open_verified(n, size).map_err(Stop::Alone)?);
    }
    Ok(layers)
}
