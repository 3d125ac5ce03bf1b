//! `db build --distributed`: refused with one line where it cannot run (a binary without MPI,
//! a memory budget); with the `mpi` feature, a build by one MPI process (a singleton, no
//! `mpirun`) has the committed checksums. Builds by several processes, compared with the
//! single-process build layer by layer and killed mid-layer, are `scripts/oware_mpi_check.sh`.

mod common;

#[cfg(feature = "mpi")]
#[path = "support/layer_checksums.rs"]
mod layer_checksums;

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
    assert!(err.contains("0.10 GiB are available"), "{err}");
    assert!(!d.exists() || std::fs::read_dir(&d).unwrap().next().is_none(), "nothing is written");
}
