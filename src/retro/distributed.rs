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
//! Rank 0 gathers the values and writes the layer file atomically, only after every process
//! finished the layer; a process that dies before leaves no file of the layer (the others are
//! stopped by `mpirun`), and a rerun resumes from the last layer written.

use super::builder::{Part, Progress};
use super::{LayeredGame, Layers};
use crate::store::layer_file::{DbError, Family, Header, LayerFile};
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

/// The ranks of layer `size` that process `p` of `k` owns: equal contiguous ranges.
pub fn owned(size: u64, k: u64, p: u64) -> std::ops::Range<u64> {
    let len = size.div_ceil(k).max(1);
    (p * len).min(size)..((p + 1) * len).min(size)
}

/// Bytes process `p` of `k` holds privately at its peak while it builds a layer of `size`
/// positions: its share's working state (3 bytes a position) and frontier allowance, the
/// process itself, and on rank 0 the gathered layer and its own values' copy. The lower
/// layers, mapped, come on top once per machine (the page cache is shared).
pub fn private_bytes(size: u64, k: u64, p: u64) -> u64 {
    let r = owned(size, k, p);
    let share = r.end - r.start;
    let gather = if p == 0 { size + share } else { 0 };
    super::outcore::FIXED_BYTES
        + share * super::builder::WORK_BYTES_PER_POSITION
        + share / super::builder::FRONTIER_SHARE * 4
        + gather
}

/// Build layer `n` over `lower` with every process of `world` (each calls this); returns the
/// layer's values on rank 0 (`None` elsewhere) and the traffic.
pub fn build_layer<G: LayeredGame, L: Layers + ?Sized>(
    world: &SimpleCommunicator,
    game: &G,
    lower: &L,
    n: usize,
    progress: &dyn Progress,
) -> (Option<Vec<i8>>, Traffic) {
    let size = game.layer_size(n);
    // Gatherv counts and the u32 local indices (shifted by one bit) bound the layer.
    assert!(size < i32::MAX as u64, "layer {n} has {size} positions, more than a distributed build gathers");
    let k = world.size() as u64;
    let me = world.rank() as u64;
    let len = size.div_ceil(k).max(1);
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
    let mut values = part.finish();
    if values.is_empty() {
        // An empty Vec<i8> points at address 1, which is OpenMPI's MPI_IN_PLACE: give the
        // (empty) send buffer real memory.
        values.reserve(1);
    }
    let counts: Vec<Count> = (0..k).map(|p| owned(size, k, p)).map(|r| (r.end - r.start) as Count).collect();
    let root = world.process_at_rank(0);
    if me == 0 {
        let displs: Vec<Count> = (0..k).map(|p| owned(size, k, p).start as Count).collect();
        let mut all = vec![0i8; size as usize];
        let mut into = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
        root.gather_varcount_into_root(&values[..], &mut into);
        (Some(all), traffic)
    } else {
        root.gather_varcount_into(&values[..]);
        (None, traffic)
    }
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
/// calls this with the same finished `layers`); rank 0 writes each layer, then every process
/// maps it (checked) for the next. `on_layer(n, header, traffic)` is called on rank 0 after each
/// layer is written. An error on one process stops only that process: its caller aborts the job.
#[allow(clippy::too_many_arguments)]
pub fn build_files<G: LayeredGame>(
    world: &SimpleCommunicator,
    family: &Family,
    game: &G,
    mut layers: Vec<LayerFile>,
    max: usize,
    progress: &dyn Fn(usize, u64) -> Box<dyn Progress>,
    on_layer: &mut dyn FnMut(usize, &Header, &Traffic),
) -> Result<Vec<LayerFile>, DbError> {
    for n in layers.len()..=max {
        let size = game.layer_size(n);
        let p = progress(n, size);
        let (values, traffic) = build_layer(world, game, layers.as_slice(), n, p.as_ref());
        drop(p);
        if let Some(values) = values {
            let header = family.write(n, &values)?;
            on_layer(n, &header, &traffic);
        }
        // The file exists (renamed into place) before anyone maps it.
        world.barrier();
        layers.push(family.open_verified(n, size)?);
    }
    Ok(layers)
}
