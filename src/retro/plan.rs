//! One plan for a layered build: how each layer is built (in memory, or out of core in
//! partitions, its lower layers mapped or streamed) and what the whole build needs of a
//! machine — memory at its peak, disk, time — for one process or for `k` MPI processes
//! sharing every layer. The single-process, out-of-core and MPI builds all follow it:
//! `db build --plan` prints it before anything is written, and a build whose plan does not
//! fit the machine is refused with the plan's own figures.
//!
//! A layer's plan is [`outcore::plan_layer`]'s (the fewest partitions within the budget, and
//! lookups that keep its memory bounded). Across layers the memory peak is the largest layer
//! plan still to build; the disk is the layers still to write plus, while an out-of-core layer
//! is built, its partitions' state, their copies and values ([`STAGING_BYTES_PER_POSITION`])
//! and, streamed, one partition's spilled requests ([`SPILL_BYTES_PER_POSITION`]). Under MPI each
//! process holds its share of a layer's working state and its share of every lower layer
//! ([`private_bytes`]): the memory of a process falls as 1/K.
//!
//! [`outcore::plan_layer`]: super::outcore::plan_layer

use super::builder::{FRONTIER_SHARE, WORK_BYTES_PER_POSITION};
use super::outcore::{self, LayerPlan, Lookups, FIXED_BYTES};
use crate::store::layer_file::BLOCK;

/// Disk an out-of-core layer stages per position while it is built: its partitions' state
/// (three bytes, [`super::builder::Part`]), the copies visits make of them between two
/// checkpoints (as much again at most: a file a checkpoint names is never changed,
/// [`super::outcore`]), and its values before they become the layer file, rounded up to leave
/// room for the inboxes.
pub const STAGING_BYTES_PER_POSITION: u64 = 8;

/// Disk the streamed forward pass spills per position of a partition: its capture requests
/// (8 bytes each) beyond the half byte a position held in memory, answered and deleted
/// partition by partition ([`super::stream`]). Measured: 10.7 MB at the peak for partitions of
/// 2.8 M positions (reachable Oware layer 18, 12 partitions), 3.9 bytes a position.
pub const SPILL_BYTES_PER_POSITION: u64 = 4;

/// A layer file's header and block table beyond its payload of a byte per position, at most.
pub const HEADER_BYTES: u64 = 1024;

/// Bits a position of a packed layer takes on disk as planned ([`crate::store::packed`]):
/// measured 3.4 to 3.7 on Oware layers of 14 to 20 seeds (more on the smallest layers, whose
/// ranking table and block table weigh more), rounded up.
pub const PACKED_BITS_PER_POSITION: u64 = 4;

/// Disk a finished layer of `size` positions takes: a byte a position raw, packed
/// [`PACKED_BITS_PER_POSITION`] (the ranking and block tables within [`HEADER_BYTES`] and the
/// rounding up; an empty layer's ranking fits too).
pub fn layer_disk(size: u64, packed: bool) -> u64 {
    let payload = if packed { (size * PACKED_BITS_PER_POSITION).div_ceil(8) } else { size };
    payload + HEADER_BYTES + if packed { size / 8192 * 12 } else { 0 }
}

/// The most positions one MPI process may own in a layer: an update names its position by a
/// 31-bit local index (`local << 1 | win` in a u32, half the traffic of a u64).
pub const MAX_SHARE: u64 = 1 << 31;

/// The length of every process's range of a layer of `size` positions but the last: the layer
/// split in `k`, rounded up to whole blocks of the layer file (each process writes and
/// checksums blocks of its own).
pub fn share_len(size: u64, k: u64) -> u64 {
    size.div_ceil(k).div_ceil(BLOCK as u64).max(1) * BLOCK as u64
}

/// The fewest processes that can build a layer of `size` positions ([`MAX_SHARE`] each).
pub fn min_processes(size: u64) -> u64 {
    size.div_ceil(MAX_SHARE).max(1)
}

/// The ranks of layer `size` that process `p` of `k` owns: contiguous ranges of
/// [`share_len`] (the last shorter, empty where the layer is smaller than the blocks).
pub fn owned(size: u64, k: u64, p: u64) -> std::ops::Range<u64> {
    let len = share_len(size, k);
    (p * len).min(size)..((p + 1) * len).min(size)
}

/// Positions of a share of `share` positions whose lookups into the lower layers go out in
/// one round of a distributed forward pass: a 64th of the share, within
/// [`super::builder::CHUNK`] and 2^17 (so the round's buffers stay within
/// [`LOOKUP_BYTES_PER_POSITION`] times that, whatever the share).
pub fn lookup_segment(share: u64) -> u64 {
    let chunk = super::builder::CHUNK;
    (share / 64).clamp(chunk, 1 << 17).div_ceil(chunk) * chunk
}

/// Bytes a round of lookups holds per position of its segment at the peak: at most 6 exits a
/// position (Oware's moves), each kept by its requester (24 bytes as asked, then 8 as sent
/// and 8 for where its answer goes), held by its owner while answered (8) and answered (a byte
/// each way).
pub const LOOKUP_BYTES_PER_POSITION: u64 = 6 * 50;

/// Bytes process `p` of `k` holds privately at its peak while it builds a layer of `size`
/// positions over lower layers of `lower` positions (their sizes): its share of the lower
/// layers (a byte a position), its share's working state (3 bytes a position) and frontier
/// allowance, a round of lookups ([`lookup_segment`]) and the process itself (the values it
/// writes are the working state's).
pub fn private_bytes(size: u64, lower: &[u64], k: u64, p: u64) -> u64 {
    let held: u64 = lower.iter().map(|&s| owned(s, k, p)).map(|r| r.end - r.start).sum();
    let r = owned(size, k, p);
    let share = r.end - r.start;
    let lookups = LOOKUP_BYTES_PER_POSITION * lookup_segment(share_len(size, k)).min(share);
    FIXED_BYTES + held + share * WORK_BYTES_PER_POSITION + share / FRONTIER_SHARE * 4 + lookups
}

/// Who builds: one process (in memory or out of core), or `k` MPI processes of which the
/// ones numbered `here` share this machine's memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Processes {
    One,
    Mpi { k: u64, here: Vec<u64> },
}

/// What the plan asks of a build, from its flags and the game.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// Positions of every layer `0..=max`.
    pub sizes: &'a [u64],
    /// Layers `0..built` are finished (a resumed build plans only the rest).
    pub built: usize,
    /// One frontier entry (a u32) per this many positions of the layer built in memory.
    pub frontier_share: u64,
    /// `--memory` (one process only): bytes the build may use; `None`: in memory.
    pub budget: Option<u64>,
    /// `--lookups`: how the lower layers are read (`None`: chosen per layer).
    pub lookups: Option<Lookups>,
    /// `--pack`: each finished layer is packed (its lookups must then be streamed, which the
    /// caller asks for in `lookups`).
    pub pack: bool,
    pub processes: Processes,
}

/// One layer of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedLayer {
    pub layer: usize,
    pub size: u64,
    pub how: LayerPlan,
    pub built: bool,
    /// One process builds it in partitions or streams its lower layers: its state is staged
    /// on disk. (MPI processes hold their shares in memory.)
    pub out_of_core: bool,
}

/// A whole build's plan.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildPlan {
    pub layers: Vec<PlannedLayer>,
    pub processes: Processes,
    /// Each finished layer is packed (`--pack`).
    pub pack: bool,
    /// Bytes of memory at the peak on this machine, over the layers still to build, and that
    /// layer (under MPI: the private bytes of this machine's processes).
    pub memory: u64,
    pub memory_layer: usize,
    /// Bytes of layer files still to write: packed ones at [`PACKED_BITS_PER_POSITION`], plus
    /// the largest layer's raw file, which its packed copy replaces once it is checked.
    pub disk: u64,
    /// Bytes of out-of-core staging at the peak (the largest out-of-core layer still to build).
    pub staging: u64,
}

/// Why no plan exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// No split of `layer` fits `budget`; `least` bytes is the smallest budget that does.
    Budget { layer: usize, size: u64, lower: u64, budget: u64, least: u64 },
    /// `processes` cannot share `layer` ([`MAX_SHARE`] positions each); `least` can.
    Shares { layer: usize, size: u64, processes: u64, least: u64 },
}

/// Where a plan does not fit a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// The memory peak (at `layer`) is more than `available`.
    Memory { need: u64, layer: usize, available: u64 },
    /// The layers and the staging need more than `free` bytes of disk.
    Disk { need: u64, free: u64 },
}

/// The plan of a build ([`Request`]): every layer's, and the build's needs.
pub fn plan_build(r: &Request) -> Result<BuildPlan, PlanError> {
    let (mut lower, mut layers) = (0u64, Vec::with_capacity(r.sizes.len()));
    for (layer, &size) in r.sizes.iter().enumerate() {
        let how = match &r.processes {
            Processes::One
                if r.budget.is_none()
                    && r.lookups != Some(Lookups::Streamed)
                    && size <= super::builder::MAX_PART_LEN =>
            {
                // In memory: the lower layers resident and the layer's state whole.
                let bytes = FIXED_BYTES + lower + size * WORK_BYTES_PER_POSITION + size / r.frontier_share * 4;
                LayerPlan { parts: 1, lookups: Lookups::Mapped, bytes }
            }
            Processes::One => outcore::plan_layer(size, lower, r.budget, r.lookups).map_err(|least| {
                PlanError::Budget { layer, size, lower, budget: r.budget.unwrap_or(u64::MAX), least }
            })?,
            Processes::Mpi { k, here } => {
                if share_len(size, *k) > MAX_SHARE {
                    return Err(PlanError::Shares { layer, size, processes: *k, least: min_processes(size) });
                }
                let bytes = here.iter().map(|&p| private_bytes(size, &r.sizes[..layer], *k, p)).sum::<u64>();
                LayerPlan { parts: *k, lookups: Lookups::Mapped, bytes }
            }
        };
        let out_of_core = r.processes == Processes::One && (how.parts > 1 || how.lookups == Lookups::Streamed);
        layers.push(PlannedLayer { layer, size, how, built: layer < r.built, out_of_core });
        lower += size;
    }
    Ok(BuildPlan::of(layers, r.processes.clone(), r.pack))
}

/// Disk an out-of-core layer stages while it is built: its partitions' state and values, and
/// when its lookups are streamed one partition's spilled requests.
fn staging_bytes(l: &PlannedLayer) -> u64 {
    let spill = match l.how.lookups {
        Lookups::Streamed => SPILL_BYTES_PER_POSITION * l.size.div_ceil(l.how.parts.max(1)),
        Lookups::Mapped => 0,
    };
    STAGING_BYTES_PER_POSITION * l.size + spill
}

impl BuildPlan {
    /// The plan of `layers`, with the needs of those still to build.
    fn of(layers: Vec<PlannedLayer>, processes: Processes, pack: bool) -> BuildPlan {
        let todo = || layers.iter().filter(|l| !l.built);
        let (memory, memory_layer) = todo().map(|l| (l.how.bytes, l.layer)).max().unwrap_or((0, 0));
        let disk = todo().map(|l| layer_disk(l.size, pack)).sum::<u64>()
            + if pack { todo().map(|l| layer_disk(l.size, false)).max().unwrap_or(0) } else { 0 };
        let staging = todo().filter(|l| l.out_of_core).map(staging_bytes).max().unwrap_or(0);
        BuildPlan { layers, processes, pack, memory, memory_layer, disk, staging }
    }

    /// The same plan once layers `0..built` are finished: a layer is planned alike whichever
    /// are built, so only the needs change, to those of the rest.
    pub fn resumed(&self, built: usize) -> BuildPlan {
        let layers = self.layers.iter().map(|&l| PlannedLayer { built: l.layer < built, ..l }).collect();
        BuildPlan::of(layers, self.processes.clone(), self.pack)
    }

    /// Where the plan does not fit a machine with `memory` bytes available and `disk` bytes
    /// free (`None`: unknown, not checked): memory first.
    pub fn misfit(&self, memory: Option<u64>, disk: Option<u64>) -> Option<Misfit> {
        if let Some(available) = memory.filter(|&a| self.memory > a) {
            return Some(Misfit::Memory { need: self.memory, layer: self.memory_layer, available });
        }
        let need = self.disk + self.staging;
        disk.filter(|&free| need > free).map(|free| Misfit::Disk { need, free })
    }

    /// Seconds the layers still to build take on `threads` threads at `rate` positions per
    /// thread-second in memory, out-of-core layers at half of it: a guide, the rate being a
    /// measured one of this game (the machine and its load decide the real one).
    pub fn seconds(&self, threads: usize, rate: f64) -> f64 {
        let per_thread = |l: &PlannedLayer| if l.out_of_core { rate / 2.0 } else { rate };
        let k = match &self.processes {
            Processes::One => 1,
            Processes::Mpi { k, .. } => *k,
        };
        self.layers
            .iter()
            .filter(|l| !l.built)
            .map(|l| l.size as f64 / (per_thread(l) * threads.max(1) as f64 * k as f64))
            .sum()
    }

    /// The layers partitioned out of core that are still to build, `layer:partitions`.
    pub fn splits(&self) -> Vec<String> {
        self.layers
            .iter()
            .filter(|l| !l.built && l.how.parts > 1)
            .map(|l| format!("{}:{}", l.layer, l.how.parts))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(sizes: &[u64], budget: Option<u64>) -> Request<'_> {
        Request {
            sizes,
            built: 0,
            frontier_share: FRONTIER_SHARE,
            budget,
            lookups: None,
            pack: false,
            processes: Processes::One,
        }
    }

    #[test]
    fn in_memory_the_peak_is_the_top_layer_over_all_below() {
        let sizes = [1u64, 10, 1000, 100_000];
        let p = plan_build(&request(&sizes, None)).unwrap();
        let top = FIXED_BYTES + 1_011 + 100_000 * WORK_BYTES_PER_POSITION + 100_000 / FRONTIER_SHARE * 4;
        assert_eq!((p.memory, p.memory_layer, p.staging), (top, 3, 0));
        assert_eq!(p.disk, 101_011 + 4 * HEADER_BYTES);
        assert!(p.layers.iter().all(|l| l.how.parts == 1 && !l.built));
        assert_eq!(p.misfit(Some(top), Some(p.disk)), None);
        assert_eq!(p.misfit(Some(top - 1), None), Some(Misfit::Memory { need: top, layer: 3, available: top - 1 }));
        assert_eq!(p.misfit(None, Some(p.disk - 1)), Some(Misfit::Disk { need: p.disk, free: p.disk - 1 }));
        // A resumed build plans only what it still builds.
        let later = plan_build(&Request { built: 4, ..request(&sizes, None) }).unwrap();
        assert_eq!((later.memory, later.disk, later.seconds(2, 1e6)), (0, 0, 0.0));
        assert_eq!(p.resumed(4), later);
        assert_eq!(later.resumed(0), p);
    }

    #[test]
    fn a_budget_splits_the_layers_that_do_not_fit_and_stages_them() {
        let sizes = [1u64 << 20, 1 << 24, 1 << 26];
        let budget = FIXED_BYTES + (1 << 26);
        let p = plan_build(&request(&sizes, Some(budget))).unwrap();
        assert!(p.memory <= budget, "{p:?}");
        let top = p.layers[2];
        assert!(top.out_of_core && p.staging == staging_bytes(&top), "{p:?}");
        let streamed = top.how.lookups == Lookups::Streamed;
        let spill = if streamed { SPILL_BYTES_PER_POSITION * (1u64 << 26).div_ceil(top.how.parts) } else { 0 };
        assert_eq!(p.staging, STAGING_BYTES_PER_POSITION * (1 << 26) + spill);
        assert_eq!(p.splits().is_empty(), top.how.parts == 1);
        let Err(PlanError::Budget { layer: 0, least, .. }) = plan_build(&request(&sizes, Some(1 << 20))) else {
            panic!("a budget below the process fits nothing")
        };
        assert!(least > 1 << 20);
    }

    /// Packed, the disk of the layers to write is their packed estimate plus the largest raw
    /// file, present until its packed copy replaces it: less than raw layers over Oware's
    /// layer sizes (each about 1.5 times the one below), the less the more layers.
    #[test]
    fn packed_layers_are_planned_at_their_packed_size() {
        // Oware's full index: C(n + 11, 11) positions at n seeds.
        let sizes: Vec<u64> = (0..=24u64).map(|n| (1..=11).fold(1u64, |c, k| c * (n + k) / k)).collect();
        let streamed = |pack, max: usize| {
            plan_build(&Request { lookups: Some(Lookups::Streamed), pack, ..request(&sizes[..=max], None) }).unwrap()
        };
        let (raw, packed) = (streamed(false, 24), streamed(true, 24));
        let estimate: u64 = sizes.iter().map(|&s| layer_disk(s, true)).sum();
        assert_eq!(packed.disk, estimate + layer_disk(sizes[24], false));
        assert!(packed.disk < raw.disk * 9 / 10, "{} vs {}", packed.disk, raw.disk);
        assert_eq!((packed.memory, packed.staging), (raw.memory, raw.staging));
        // A resumed build counts only what it still writes.
        let later = plan_build(&Request { built: 24, pack: true, ..request(&sizes, None) }).unwrap();
        assert_eq!(later.disk, layer_disk(sizes[24], true) + layer_disk(sizes[24], false));
        assert_eq!(plan_build(&Request { pack: true, ..request(&sizes, None) }).unwrap().resumed(24), later);
    }

    #[test]
    fn mpi_processes_hold_their_shares_of_every_layer() {
        let sizes = [BLOCK as u64 * 8, BLOCK as u64 * 64];
        let one = plan_build(&Request { processes: Processes::Mpi { k: 4, here: vec![0] }, ..request(&sizes, None) })
            .unwrap();
        let two =
            plan_build(&Request { processes: Processes::Mpi { k: 4, here: vec![0, 1] }, ..request(&sizes, None) })
                .unwrap();
        // A quarter of each layer: 2 blocks of the lower one, 16 of the top one (3 bytes a
        // position, a frontier entry per 16), and a round of lookups of 2^14 positions.
        let share = FIXED_BYTES
            + 2 * BLOCK as u64
            + 16 * BLOCK as u64 * (3 * 16 + 4) / 16
            + LOOKUP_BYTES_PER_POSITION * (1 << 14);
        assert_eq!(private_bytes(sizes[1], &sizes[..1], 4, 0), share);
        assert_eq!((one.memory, two.memory), (share, 2 * share));
        // Twice the processes, about half the memory of each beyond the fixed bytes.
        let eight = private_bytes(sizes[1], &sizes[..1], 8, 0) - FIXED_BYTES - LOOKUP_BYTES_PER_POSITION * (1 << 14);
        assert_eq!(2 * eight, share - FIXED_BYTES - LOOKUP_BYTES_PER_POSITION * (1 << 14));
        assert_eq!(one.staging, 0);
        // Four processes build four times as fast as one at the same rate.
        let single = plan_build(&request(&sizes, None)).unwrap();
        assert!((single.seconds(1, 1e6) / one.seconds(1, 1e6) - 4.0).abs() < 1e-9);
        let huge = [MAX_SHARE * 3];
        let e = plan_build(&Request { processes: Processes::Mpi { k: 2, here: vec![0] }, ..request(&huge, None) });
        assert_eq!(e, Err(PlanError::Shares { layer: 0, size: MAX_SHARE * 3, processes: 2, least: 3 }));
    }
}
