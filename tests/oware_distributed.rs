//! `db build --distributed`: refused with one line where it cannot run (a binary without MPI,
//! a memory budget); with the `mpi` feature, a build by one MPI process (a singleton, no
//! `mpirun`) has the committed checksums. Builds by several processes, compared with the
//! single-process build layer by layer and killed mid-layer, are `scripts/oware_mpi_check.sh`.

mod common;

#[cfg(feature = "mpi")]
use common::layer_checksums;

use common::{mancala, usage_error};

#[test]
fn a_memory_budget_is_refused_with_distributed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("db");
    let err = usage_error(
        mancala()
            .args(["oware", "db", "build", "--max-stones", "4", "--distributed"])
            .arg("--dir")
            .arg(&d)
            .args(["--memory", "1G"]),
    );
    assert!(err.starts_with("error: --memory: not with --distributed"), "{err}");
    assert!(!d.exists() || std::fs::read_dir(&d).unwrap().next().is_none(), "nothing is written");
}

#[cfg(not(feature = "mpi"))]
#[test]
fn without_the_mpi_feature_distributed_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("db");
    let err = usage_error(
        mancala().args(["oware", "db", "build", "--max-stones", "4", "--distributed"]).arg("--dir").arg(&d),
    );
    assert!(err.starts_with("error: --distributed: this binary was built without MPI"), "{err}");
    assert!(!d.exists() || std::fs::read_dir(&d).unwrap().next().is_none(), "nothing is written");
}

#[cfg(feature = "mpi")]
#[test]
fn one_process_builds_the_committed_checksums() {
    use mancala::store::layer_file::{as_bytes, checksum};
    const MAX: usize = 9;
    let want = layer_checksums::expected("tests/data/oware/layers.csv");
    let dir = tempfile::tempdir().unwrap();
    mancala()
        .args(["oware", "db", "build", "--max-stones", &MAX.to_string(), "--threads", "2", "--distributed"])
        .arg("--dir")
        .arg(dir.path())
        .assert()
        .success();
    let db = mancala::retro::oware::Database::open(dir.path(), Default::default()).unwrap();
    assert_eq!(db.max_layer(), MAX);
    for (n, l) in db.layers().iter().enumerate() {
        assert_eq!(checksum(as_bytes(&l.values().unwrap())), want[&("gs-no-capture".to_string(), n)], "layer {n}");
    }
}

#[cfg(feature = "mpi")]
#[test]
fn a_build_that_does_not_fit_the_memory_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("db");
    let err = usage_error(
        mancala()
            .args(["oware", "db", "build", "--max-stones", "20", "--distributed"])
            .arg("--dir")
            .arg(&d)
            .env("MANCALA_MEMORY_LIMIT_GIB", "0.1"),
    );
    assert!(err.starts_with("error: --max-stones: building up to 20 needs about "), "{err}");
    assert!(err.contains(" at layer 20 (1 of the 1 processes here)"), "{err}");
    assert!(err.contains("102.4 MiB are available"), "{err}");
    assert!(!d.exists() || std::fs::read_dir(&d).unwrap().next().is_none(), "nothing is written");
}

/// A layer of more positions than the processes can share (a process owns at most 2^31 of a
/// layer: an update carries a 31-bit local index) is refused before anything is built, with
/// the number of processes that would do. Full layer 29 has C(40,11) = 2,311,801,440 positions.
#[cfg(feature = "mpi")]
#[test]
fn a_layer_too_big_for_the_processes_is_one_line_naming_how_many_would_do() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("db");
    let err = usage_error(
        mancala().args(["oware", "db", "build", "--max-stones", "30", "--distributed"]).arg("--dir").arg(&d),
    );
    assert!(
        err.starts_with("error: --max-stones: layer 29 has 2311801440 positions, more than 1 MPI processes can share"),
        "{err}"
    );
    assert!(err.trim_end().ends_with("run at least 2 processes"), "{err}");
    assert!(!d.exists(), "nothing is written");
}

/// Shares tile the layer in order, each starting on a block of the layer file (its CRC is
/// computed by the one process that writes it), none past 2^31 positions where the layer
/// allows.
#[cfg(feature = "mpi")]
#[test]
fn shares_tile_the_layer_on_block_boundaries() {
    use mancala::retro::distributed::{min_processes, owned, share_len, MAX_SHARE};
    use mancala::store::layer_file::BLOCK;
    for size in [0u64, 1, 65_535, 65_536, 65_537, 705_432, 2_496_144, 2_311_801_440, 279_871_768_995] {
        for k in [1u64, 2, 3, 4, 7, 64, min_processes(size)] {
            let mut next = 0;
            for p in 0..k {
                let r = owned(size, k, p);
                assert_eq!(
                    r.start,
                    next,
                    "size {size}, {k} processes: process {p} starts where {} ended",
                    p.max(1) - 1
                );
                assert!(r.start.is_multiple_of(BLOCK as u64) || r.start == size, "size {size}, k {k}, p {p}: {r:?}");
                assert!(r.end - r.start <= share_len(size, k));
                next = r.end;
            }
            assert_eq!(next, size, "size {size}, {k} processes cover the layer");
        }
        assert!(share_len(size, min_processes(size)) <= MAX_SHARE, "size {size}");
        if min_processes(size) > 1 {
            assert!(share_len(size, min_processes(size) - 1) > MAX_SHARE, "size {size}: the fewest processes");
        }
    }
}

/// A disk that is full when a layer is written (its temporary is reserved at full length
/// first): one line naming the database directory, exit 2, no file or temporary of the layer;
/// after space is freed the same command finishes with the single-process build's checksums.
/// The disk is an 8 MiB tmpfs (root, as in CI; the case is skipped, saying so, elsewhere).
#[cfg(feature = "mpi")]
#[test]
fn a_full_disk_when_a_layer_is_written_is_one_line_and_the_rerun_finishes() {
    use common::tmpfs::Tmpfs;
    const MAX: usize = 11;
    let build = |dir: &std::path::Path, max: usize, distributed: bool| {
        let mut c = mancala();
        c.args(["oware", "db", "build", "--threads", "2", "--max-stones", &max.to_string()]).arg("--dir").arg(dir);
        if distributed {
            c.arg("--distributed");
        }
        c
    };
    let crcs = |dir: &std::path::Path| -> Vec<u32> {
        let db = mancala::retro::oware::Database::open(dir, Default::default()).unwrap();
        db.layers().iter().map(|l| l.header().checksum).collect()
    };
    let reference = tempfile::tempdir().unwrap();
    build(reference.path(), MAX, false).assert().success();
    let want = crcs(reference.path());
    let Some(fs) = Tmpfs::mount() else {
        eprintln!("a_full_disk_when_a_layer_is_written: SKIPPED: cannot mount a tmpfs here (needs root)");
        return;
    };
    let db = fs.0.path().join("db");
    build(&db, MAX - 1, true).assert().success();
    let filler = fs.fill();
    let out = build(&db, MAX, true).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    // Before it, the build's own lines (the layers already built); the error is the one last.
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert_eq!(err.trim_end().lines().last(), Some(errors[0]), "{err}");
    let prefix = format!("error: --dir: the disk holding {} is full", db.display());
    assert!(errors[0].starts_with(&prefix), "{err}");
    let names: Vec<String> =
        std::fs::read_dir(&db).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.contains(&format!("-{MAX}.db"))), "a file of layer {MAX} was left: {names:?}");
    std::fs::remove_file(filler).unwrap();
    build(&db, MAX, true).assert().success();
    assert_eq!(crcs(&db), want);
}
