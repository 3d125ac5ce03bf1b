//! One plan for a layered build: how each layer is built (in memory, or out of core in
//! partitions, its lower layers mapped or streamed) and what the whole build needs of a
//! machine — memory at its peak, disk, time — for one process or for `k` MPI processes
//! sharing every layer. The single-process, out-of-core and MPI builds all follow it:
//! `db build --plan` prints it before anything is written, and a build whose plan does not
//! fit the machine is refused with the plan's own figures.
//!
//! A layer's plan is [`plan_layer`]'s (the fewest partitions within the budget, and
//! lookups that keep its memory bounded). Across layers the memory peak is the largest layer
//! plan still to build; the disk is the layers still to write plus, while an out-of-core layer
//! is built, its partitions' state, their copies and values ([`STAGING_BYTES_PER_POSITION`])
//! and, streamed, one partition's spilled requests ([`SPILL_BYTES_PER_POSITION`]). Under MPI each
//! process holds its share of a layer's working state and its share of every lower layer
//! ([`private_bytes`]): the memory of a process falls as 1/K.

use super::builder::{FRONTIER_SHARE, MAX_PART_LEN, WORK_BYTES_PER_POSITION};
use super::stream;
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

/// The most updates a process sends in one exchange round of a distributed threshold, to all
/// destinations together (and so the most it receives: each destination takes at most its
/// `1/k` of a round), 16 MiB of u32; see [`exchange_sizes`].
pub const ROUND: usize = 4 << 20;
/// The most updates a process's outbox gathers before the processes exchange them (16 MiB of
/// u32); see [`exchange_sizes`].
pub const OUTBOX: usize = 4 << 20;

/// Positions a distributed threshold propagates between two looks at the outbox: the outbox
/// exceeds [`OUTBOX`] by at most their predecessors.
pub const STEP: usize = 1 << 14;
/// Received updates decoded and applied at a time (a distributed threshold's round, an
/// out-of-core partition's inbox): as tuples they take several times their encoded bytes.
pub const UPDATES_AT_ONCE: usize = 1 << 16;
/// The most predecessors one position has: Oware un-sows each of the previous mover's 6 pits
/// at most once per seed on the board (6 × 48); a Kiothi position has at most 6.
pub const MOST_PREDECESSORS: u64 = 6 * 48;
/// Bytes of a distributed threshold's exchange at its peak, whatever the share: the outbox
/// (its vectors grow by doubling, so up to twice what they hold), a round's send and receive
/// buffers, and the received updates decoded a slice at a time.
pub const EXCHANGE_BYTES: u64 =
    2 * 4 * (OUTBOX as u64 + STEP as u64 * MOST_PREDECESSORS) + 2 * 4 * ROUND as u64 + UPDATES_AT_ONCE as u64 * 16;

/// `(outbox, round)` of a distributed threshold over shares of `share` positions: the updates
/// the outbox gathers before an exchange (a 16th of the share) and the most a process sends
/// in one exchange round (a 32nd), each within [`STEP`] and [`OUTBOX`] or [`ROUND`]. Small
/// shares so exchange in several rounds, as large ones do, and memory stays bounded.
pub fn exchange_sizes(share: u64) -> (usize, usize) {
    let outbox = (share / 16).clamp(STEP as u64, OUTBOX as u64) as usize;
    let round = (share / 32).clamp(STEP as u64, ROUND as u64) as usize;
    (outbox, round)
}

/// Bytes process `p` of `k` holds privately at its peak while it builds a layer of `size`
/// positions over lower layers of `lower` positions (their sizes): its share of the lower
/// layers (a byte a position), its share's working state (3 bytes a position) and frontier
/// allowance, a round of lookups ([`lookup_segment`]), a threshold's exchange
/// ([`EXCHANGE_BYTES`]) and the process itself (the values it writes are the working state's).
pub fn private_bytes(size: u64, lower: &[u64], k: u64, p: u64) -> u64 {
    let held: u64 = lower.iter().map(|&s| owned(s, k, p)).map(|r| r.end - r.start).sum();
    let r = owned(size, k, p);
    let share = r.end - r.start;
    let lookups = LOOKUP_BYTES_PER_POSITION * lookup_segment(share_len(size, k)).min(share);
    FIXED_BYTES + held + share * WORK_BYTES_PER_POSITION + share / FRONTIER_SHARE * 4 + lookups.max(EXCHANGE_BYTES)
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
            Processes::One => plan_layer(size, lower, r.budget, r.lookups).map_err(|least| PlanError::Budget {
                layer,
                size,
                lower,
                budget: r.budget.unwrap_or(u64::MAX),
                least,
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

/// Updates buffered in memory before they are appended to the inbox files, and read from an
/// inbox file at a time, each: the size of a partition (a byte per position), within these.
pub const MESSAGE_BYTES: std::ops::RangeInclusive<u64> = (64 << 10)..=(16 << 20);
/// The process beside its arrays: code, tables, thread stacks, buffers.
pub const FIXED_BYTES: u64 = 48 << 20;
/// The most partitions a layer is split into, and the fewest positions one holds.
pub const MAX_PARTS: u64 = 4096;
pub const MIN_PART: u64 = 1 << 12;

/// Bytes of each message buffer for partitions of `len` positions.
pub(super) fn message_bytes(len: u64) -> u64 {
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
        // position, a frontier entry per 16), and a threshold's exchange (more than a round of
        // lookups of 2^14 positions).
        const { assert!(EXCHANGE_BYTES > LOOKUP_BYTES_PER_POSITION * (1 << 14)) };
        let share = FIXED_BYTES + 2 * BLOCK as u64 + 16 * BLOCK as u64 * (3 * 16 + 4) / 16 + EXCHANGE_BYTES;
        assert_eq!(private_bytes(sizes[1], &sizes[..1], 4, 0), share);
        assert_eq!((one.memory, two.memory), (share, 2 * share));
        // Twice the processes, about half the memory of each beyond the fixed bytes.
        let eight = private_bytes(sizes[1], &sizes[..1], 8, 0) - FIXED_BYTES - EXCHANGE_BYTES;
        assert_eq!(2 * eight, share - FIXED_BYTES - EXCHANGE_BYTES);
        assert_eq!(one.staging, 0);
        // Four processes build four times as fast as one at the same rate.
        let single = plan_build(&request(&sizes, None)).unwrap();
        assert!((single.seconds(1, 1e6) / one.seconds(1, 1e6) - 4.0).abs() < 1e-9);
        let huge = [MAX_SHARE * 3];
        let e = plan_build(&Request { processes: Processes::Mpi { k: 2, here: vec![0] }, ..request(&huge, None) });
        assert_eq!(e, Err(PlanError::Shares { layer: 0, size: MAX_SHARE * 3, processes: 2, least: 3 }));
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
