//! Fault-injection helpers for `tests/faults_*.rs`: a seeded RNG whose seed is printed (replay a
//! failure with `FAULTS_SEED=...`), runs of the binary killed with SIGKILL at a random moment or
//! as soon as a temporary file appears, directory snapshots, and the counts each test prints as
//! one `FAULTS:` line.
#![allow(dead_code)]

use mancala::rng::XorShift64Star;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_mancala");

/// A seeded generator. The seed comes from `FAULTS_SEED` when set, else from the clock, and is
/// printed with the test's name so that a failing run can be replayed (the moments of the kills
/// depend on timing as well, the choices made from the seed do not).
pub struct Rng(XorShift64Star);

impl Rng {
    pub fn new(test: &str) -> Rng {
        let seed = match std::env::var("FAULTS_SEED") {
            Ok(s) => s.parse::<u64>().expect("FAULTS_SEED: a u64"),
            Err(_) => {
                let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
                mancala::rng::mix64(t.as_nanos() as u64 ^ std::process::id() as u64)
            }
        };
        eprintln!("{test}: FAULTS_SEED={seed}");
        Rng(XorShift64Star(seed.max(1)))
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.0.below(n)
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
}

/// What the suite counts; [`Counts::report`] prints it as one greppable line.
#[derive(Debug, Default)]
pub struct Counts {
    /// Runs killed with SIGKILL while still running.
    pub kills: u64,
    /// Of those, kills that left a temporary file behind (the kill came inside a file write).
    pub kills_in_write: u64,
    /// Runs that were started after a kill and ran to completion.
    pub resumes: u64,
    /// Damaged, truncated or foreign files put in place, and how many of them were refused.
    pub corruptions: u64,
    pub detected: u64,
    /// Second writers refused because a running one held the directory.
    pub concurrent_refused: u64,
    /// Runs on a full file system, and how many were skipped (no tmpfs could be mounted).
    pub full_disk: u64,
    pub full_disk_skipped: u64,
}

impl Counts {
    pub fn report(&self, test: &str) {
        eprintln!(
            "FAULTS: kills={} resumes={} corruptions={} detected={} kills_in_write={} concurrent_refused={} \
             full_disk={} full_disk_skipped={} test={test}",
            self.kills,
            self.resumes,
            self.corruptions,
            self.detected,
            self.kills_in_write,
            self.concurrent_refused,
            self.full_disk,
            self.full_disk_skipped
        );
    }
}

/// Every file under `dir` (recursively), by path relative to `dir` with `/` separators; each
/// directory is an entry too (`NAME/`, no bytes), so a leftover empty directory is seen.
pub type Snapshot = BTreeMap<String, Vec<u8>>;

pub fn snapshot(dir: &Path) -> Snapshot {
    fn walk(root: &Path, dir: &Path, out: &mut Snapshot) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd {
            let e = e.unwrap();
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            if e.file_type().unwrap().is_dir() {
                out.insert(format!("{rel}/"), Vec::new());
                walk(root, &p, out);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = Snapshot::new();
    walk(dir, dir, &mut out);
    out
}

/// Temporary files and directories (`.NAME.tmp`, or any name with `tmp` in a hidden entry)
/// anywhere under `dir`.
pub fn temporaries(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && name.contains("tmp") {
                out.push(e.path());
            }
            if e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                walk(&e.path(), out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out
}

/// A directory's lock file (`.NAME.lock`): it stays after a run and holds its last holder's
/// pid and command line, so only its presence is compared.
pub fn is_lock(name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    base.starts_with('.') && base.ends_with(".lock")
}

/// Assert two snapshots hold the same files with the same bytes after `normalise` (lock files:
/// the same names); names the first difference.
pub fn assert_same(what: &str, want: &Snapshot, got: &Snapshot, normalise: &dyn Fn(&str, &[u8]) -> Vec<u8>) {
    let (wk, gk): (Vec<_>, Vec<_>) = (want.keys().collect(), got.keys().collect());
    assert_eq!(wk, gk, "{what}: the files differ from the uninterrupted run");
    for (name, w) in want.iter().filter(|(name, _)| !is_lock(name)) {
        let g = &got[name];
        assert!(
            normalise(name, w) == normalise(name, g),
            "{what}: {name} differs from the uninterrupted run ({} against {} bytes)",
            g.len(),
            w.len()
        );
    }
}

/// Byte-identical comparison.
pub fn exact(_: &str, b: &[u8]) -> Vec<u8> {
    b.to_vec()
}

/// The binary with `args`, output discarded.
pub fn command(args: &[String]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    c
}

/// Run to completion; panics with the stderr unless it succeeds. Returns the wall time.
pub fn complete(args: &[String]) -> Duration {
    let t = Instant::now();
    let out = Command::new(BIN).args(args).stdin(Stdio::null()).output().unwrap();
    assert!(
        out.status.success(),
        "mancala {}: {}\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    t.elapsed()
}

/// When a run is killed.
#[derive(Clone, Copy, Debug)]
pub enum Moment {
    /// After this long.
    After(Duration),
    /// As soon as a temporary file appears under the watched directory, plus this many
    /// microseconds (the write is then under way).
    InWrite(u64),
}

impl Moment {
    /// A random moment: half the time uniform in `[0, 1.2 × typical)`, half the time inside a
    /// file write.
    pub fn random(rng: &mut Rng, typical: Duration) -> Moment {
        if rng.chance(1, 2) {
            let us = (typical.as_micros() as u64 * 6 / 5).max(1);
            Moment::After(Duration::from_micros(rng.below(us)))
        } else {
            Moment::InWrite(rng.below(4) * rng.below(2_000))
        }
    }
}

/// Start `args` and SIGKILL it at `moment` (watching `watch` for temporaries). Returns whether it
/// was killed while running (`false`: it finished first) and whether the kill left a temporary.
pub fn kill_at(args: &[String], watch: &Path, moment: Moment) -> (bool, bool) {
    let mut child: Child = command(args).spawn().unwrap();
    let t = Instant::now();
    match moment {
        Moment::After(d) => {
            while t.elapsed() < d {
                if child.try_wait().unwrap().is_some() {
                    return (false, false);
                }
                std::thread::sleep(Duration::from_micros(500).min(d.saturating_sub(t.elapsed())));
            }
        }
        Moment::InWrite(extra) => loop {
            if child.try_wait().unwrap().is_some() {
                return (false, false);
            }
            if !temporaries(watch).is_empty() {
                let until = Instant::now() + Duration::from_micros(extra);
                while Instant::now() < until {
                    std::hint::spin_loop();
                }
                break;
            }
            std::thread::sleep(Duration::from_micros(200));
        },
    }
    if child.try_wait().unwrap().is_some() {
        return (false, false);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    (true, !temporaries(watch).is_empty())
}

/// Kill `args` at 1 to 3 random moments in a row (each kill leaves what it leaves for the next
/// run), then run it to completion; counts the kills and the completing run as a resume when
/// anything was killed. `typical`: the uninterrupted run's wall time.
pub fn kill_then_complete(args: &[String], watch: &Path, typical: Duration, rng: &mut Rng, n: &mut Counts) {
    let times = 1 + rng.below(3);
    let mut killed = 0;
    for _ in 0..times {
        let (k, in_write) = kill_at(args, watch, Moment::random(rng, typical));
        killed += k as u64;
        n.kills_in_write += in_write as u64;
    }
    n.kills += killed;
    complete(args);
    n.resumes += (killed > 0) as u64;
}

/// Seconds of kill trials each scenario spends (`FAULTS_SECONDS`, default 8), after at least
/// `min` trials.
pub fn budget() -> Duration {
    let s = std::env::var("FAULTS_SECONDS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(8.0);
    Duration::from_secs_f64(s)
}

/// `["a", "b"]` as owned strings.
pub fn args(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}
