//! `db build --distributed` (feature `mpi`): every process of `mpirun`/`srun` runs this; rank 0
//! holds the directory's lock, prints and writes, the others build their share silently.

use super::layer_db::{db_error, DbSpec};
use super::progress::{bar, LayerBar};
use anyhow::Result;
use mancala::retro::builder::{Progress, Silent};
use mancala::retro::database::{self, TableGame};
use mancala::retro::distributed::{agree, Stop};
use mancala::retro::plan::Processes;
use mancala::store::layer_file::BLOCK;
use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::path::Path;

/// Build layers `0..=max` into `dir` with every process of the MPI job (resumable like the
/// single-process build). A failure every process learns of ([`agree`]) is printed by the one
/// that had it and ends the others quietly (exit 0), so the job shows one line and `mpirun`
/// exits with the failed process's code.
pub fn build<G: TableGame>(
    spec: &DbSpec<G>,
    game: &G,
    max: usize,
    dir: &Path,
    threads: Option<super::args::Threads>,
) -> Result<()> {
    let Some(universe) = mpi::initialize() else {
        return super::usage("--distributed: MPI could not be initialised (it was already)");
    };
    let world = universe.world();
    match run(spec, game, max, dir, threads, &world) {
        Ok(()) => Ok(()),
        Err(Some(e)) => Err(e),
        Err(None) => {
            drop(world);
            drop(universe);
            std::process::exit(0)
        }
    }
}

fn run<G: TableGame>(
    spec: &DbSpec<G>,
    game: &G,
    max: usize,
    dir: &Path,
    threads: Option<super::args::Threads>,
    world: &SimpleCommunicator,
) -> Result<(), Option<anyhow::Error>> {
    let root = world.rank() == 0;
    let setup = spec.check_max(max).and_then(|()| super::args::set_threads(threads));
    agree(world, setup)?;
    agree(world, planned(spec, game, max, world))?;
    // One writer per directory: rank 0, which writes every layer.
    let lock = root
        .then(|| mancala::store::DirLock::acquire(dir, "db-build").map_err(|e| super::args::lock_error("--dir", e)))
        .transpose();
    let _lock = agree(world, lock)?;
    // Every process checks the layers already built (each maps them for its forward passes).
    let resume = agree(world, database::Resume::open(game, dir, max).map_err(|e| db_error("--dir", e)))?;
    let first = *resume.missing().start() as u64;
    let mut lowest = 0u64;
    world.all_reduce_into(&first, &mut lowest, SystemOperation::min());
    if lowest != first {
        return Err(Some(anyhow::anyhow!(
            "--dir: process {} sees layers 0..{first} in {} but another sees 0..{lowest} (not one shared directory?)",
            world.rank(),
            dir.display()
        )));
    }
    if root {
        eprintln!(
            "building {} layers 0..={max} in {} ({}; {} MPI processes, {} threads each)",
            G::GAME,
            dir.display(),
            spec.build_tag,
            world.size(),
            rayon::current_num_threads()
        );
        for h in resume.built() {
            eprintln!("layer {:>2}: {:>13} positions already built, crc32 {:08x}", h.layer, h.entries, h.checksum);
        }
    }
    if root {
        say_when_stopped();
    }
    let t0 = std::time::Instant::now();
    let mut layer_start = std::time::Instant::now();
    let progress = |n: usize, size: u64| -> Box<dyn Progress> {
        if root {
            Box::new(LayerBar { pb: bar(size.div_ceil(world.size() as u64), &format!("layer {n}")), n })
        } else {
            Box::new(Silent)
        }
    };
    let built = resume.build_distributed(world, game, &progress, &mut |n, h, traffic| {
        let secs = layer_start.elapsed().as_secs_f64();
        eprintln!(
            "{}, {} cross-process updates ({:.3} per position, {} rounds), {} cross-process lookups ({:.3} per position, {} rounds; {:.2} bytes of other shares' blocks per position)",
            super::layer_db::layer_line(n, h.entries, h.checksum, secs),
            traffic.updates,
            traffic.updates as f64 / h.entries.max(1) as f64,
            traffic.rounds,
            traffic.lookups,
            traffic.lookups as f64 / h.entries.max(1) as f64,
            traffic.lookup_rounds,
            traffic.foreign_blocks as f64 * BLOCK as f64 / h.entries.max(1) as f64
        );
        layer_start = std::time::Instant::now();
    });
    if let Err(Stop::Agreed(e)) = built {
        return Err(e.map(|e| db_error("--dir", e)));
    }
    if root {
        eprintln!("done in {:.2} s", t0.elapsed().as_secs_f64());
    }
    Ok(())
}

/// The build's plan for this job ([`mancala::retro::plan`]): `k` processes sharing every
/// layer (each owns at most [`mancala::retro::plan::MAX_SHARE`] positions of one), this
/// machine's processes holding their shares plus the lower layers mapped once; refused, with
/// the plan's figures, when the processes are too few or this machine's memory too small.
/// A collective: every process calls it.
fn planned<G: TableGame>(spec: &DbSpec<G>, game: &G, max: usize, world: &SimpleCommunicator) -> Result<()> {
    let node = world.split_shared(world.rank());
    let mut here = vec![0u64; node.size() as usize];
    node.all_gather_into(&(world.rank() as u64), &mut here[..]);
    let processes = Processes::Mpi { k: world.size() as u64, here };
    let plan = super::layer_db::plan(spec, game, max, 0, super::layer_db::BuildOptions::default(), processes)?;
    super::layer_db::refuse_misfit(spec, &plan, max, None)
}

/// When a process dies, `mpirun` stops the others with SIGTERM (and says so in several lines,
/// or nothing under `mpirun -q`): rank 0 then prints the build's one line before it exits.
fn say_when_stopped() {
    extern "C" fn on_term(_: libc::c_int) {
        const LINE: &[u8] = b"error: the MPI job was stopped (a process died, or mpirun was interrupted) while a layer was built; the layers written are kept, rerun the same command to resume\n";
        // SAFETY: write(2) and _exit(2) are async-signal-safe; nothing else is touched.
        unsafe {
            libc::write(2, LINE.as_ptr().cast(), LINE.len());
            libc::_exit(2);
        }
    }
    // SAFETY: installs a handler that only calls async-signal-safe functions.
    unsafe {
        libc::signal(libc::SIGTERM, on_term as extern "C" fn(libc::c_int) as libc::sighandler_t);
    }
}
