//! A disk that fills while an out-of-core layer spills its partitions, inboxes or streamed
//! lookup requests (`--lookups streamed`): one line
//! naming the problem and the database directory, exit 2, no work directory and no file of the
//! layer left behind; the same command with space then finishes with the checksums of the
//! in-memory build.
//!
//! The disk is an 8 MiB tmpfs mounted by the test (root, as in CI); where mounting is not
//! permitted the test prints why it was skipped.

mod common;

use common::tmpfs::Tmpfs;
use mancala::retro::oware::{Database, IndexKind, OwareLayers};
use mancala::retro::LayeredGame;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The top layer, built out of core (11 seeds: 705,432 positions; 0..=11 take 1.4 MB on disk,
/// the partitions of layer 11 about 3.5 MB more, within 8 MiB).
const MAX: usize = 11;

fn build_args(dir: &Path, memory: Option<u64>, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = ["oware", "db", "build", "--threads", "2", "--max-stones", &MAX.to_string(), "--dir"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    a.push(dir.to_str().unwrap().to_string());
    if let Some(m) = memory {
        a.extend(["--memory".to_string(), m.to_string()]);
    }
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn crcs(dir: &Path) -> Vec<u32> {
    let db = Database::open(dir, Default::default()).unwrap();
    db.layers().iter().map(|l| l.header().checksum).collect()
}

/// Whether the work directory of layer `MAX` holds a file the trigger waits for.
fn reached(work: &Path, trigger: &str) -> bool {
    std::fs::read_dir(work).is_ok_and(|rd| {
        rd.filter_map(|e| e.ok()).any(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            // State and inbox files carry a generation (`part-1.state.0`, `part-0.in.0`).
            if trigger == ".in" {
                n.contains(".in.")
            } else {
                n.starts_with(trigger)
            }
        })
    })
}

#[test]
fn a_disk_filling_during_the_spill_fails_with_exit_2_and_a_rerun_gives_the_same_checksums() {
    let test = "outcore_disk_full";
    let reference = tempfile::tempdir().unwrap();
    let status =
        Command::new(env!("CARGO_BIN_EXE_mancala")).args(build_args(reference.path(), None, &[])).output().unwrap();
    assert!(status.status.success(), "{status:?}");
    let want = crcs(reference.path());
    assert_eq!(want.len(), MAX + 1);

    let Some(fs) = Tmpfs::mount() else {
        eprintln!("{test}: SKIPPED: cannot mount a tmpfs here (needs root); the disk-full cases did not run");
        return;
    };
    // The lower layers and a third of layer MAX's working arrays: MAX is split in partitions.
    let game = OwareLayers::with_index(Default::default(), IndexKind::Full);
    let lower: u64 = (0..MAX).map(|n| game.layer_size(n)).sum();
    let budget = (48 << 20) + lower + game.layer_size(MAX);
    let db = fs.0.path().join("db");
    let work = db.join(format!(".oware-gs-no-capture-{MAX}.db.work"));
    let top = db.join(format!("oware-gs-no-capture-{MAX}.db"));
    let mut happened = 0;
    // The disk fills as the partitions are first written, then once the first inbox exists,
    // then once a streamed forward pass spills its first requests.
    for (trigger, extra) in [("part-1.state", &[][..]), (".in", &[][..]), ("lookups-", &["--lookups", "streamed"][..])]
    {
        for attempt in 0..4 {
            let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
                .args(build_args(&db, Some(budget), extra))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let t0 = Instant::now();
            while !reached(&work, trigger)
                && child.try_wait().unwrap().is_none()
                && t0.elapsed() < Duration::from_secs(60)
            {
                std::thread::sleep(Duration::from_micros(100));
            }
            let filler = fs.fill();
            let out = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            if out.status.success() {
                eprintln!("{test}: {trigger}: the build finished before the disk was full (attempt {attempt})");
                std::fs::remove_file(&filler).unwrap();
                std::fs::remove_dir_all(&db).unwrap();
                continue;
            }
            assert!(err.contains("out of core from layer"), "{test}: not out of core: {err}");
            let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
            assert_eq!(errors.len(), 1, "{test}: {trigger}: {err}");
            assert!(err.trim_end().lines().last() == Some(errors[0]), "{test}: the error is not the last line: {err}");
            let prefix = format!("error: --dir: the disk holding {} is full", db.display());
            assert!(errors[0].starts_with(&prefix), "{test}: {trigger}: {}", errors[0]);
            assert_eq!(out.status.code(), Some(2), "{test}: {trigger}: {err}");
            assert!(!work.exists(), "{test}: {trigger}: the work directory stayed behind");
            assert!(!top.exists(), "{test}: {trigger}: layer {MAX} was written");
            let left: Vec<String> = std::fs::read_dir(&db)
                .unwrap()
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.contains(".tmp") || n.ends_with(".work"))
                .collect();
            assert!(left.is_empty(), "{test}: {trigger}: temporaries {left:?}");
            std::fs::remove_file(&filler).unwrap();
            let again = Command::new(env!("CARGO_BIN_EXE_mancala"))
                .args(build_args(&db, Some(budget), extra))
                .output()
                .unwrap();
            assert!(again.status.success(), "{test}: {trigger}: the rerun failed: {again:?}");
            assert_eq!(crcs(&db), want, "{test}: {trigger}: checksums after the rerun");
            std::fs::remove_dir_all(&db).unwrap();
            happened += 1;
            break;
        }
    }
    assert!(happened >= 1, "{test}: the disk never filled during a spill");
    eprintln!("{test}: {happened} of 3 disk-full cases ran, each resumed with the in-memory checksums");
}

/// A build whose plan does not fit the disk is refused before it writes anything: one line
/// naming `--dir` with the plan's figures (the layers 0..=14 are 9.2 MiB, the disk 8 MiB), exit
/// 2, the directory not created; `--plan` says the same as "does not fit".
#[test]
fn a_build_whose_plan_does_not_fit_the_disk_is_refused_before_it_starts() {
    let Some(disk) = Tmpfs::mount() else {
        eprintln!("skipped: mounting a tmpfs is not permitted here");
        return;
    };
    let db = disk.0.path().join("db");
    let args = ["oware", "db", "build", "--max-stones", "14", "--dir", db.to_str().unwrap()];
    let out = Command::new(env!("CARGO_BIN_EXE_mancala")).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: --dir: building up to 14 writes about 9.2 MiB"), "{err}");
    assert!(!db.exists(), "the refused build created its directory");
    let plan = Command::new(env!("CARGO_BIN_EXE_mancala")).args(args).arg("--plan").output().unwrap();
    let text = String::from_utf8_lossy(&plan.stdout);
    assert!(plan.status.success() && text.contains("does not fit"), "{text}");
}
