//! Fault injection on files: damaged database layers (a flipped payload or header byte, a
//! truncated, empty, foreign or garbage file) must be refused by every command that reads them;
//! a second writer into a directory a running one holds is refused naming the holder; a kill
//! never leaves part of a sweep's summary set; a full file system fails cleanly (one line, no
//! temporary) and a later run with space resumes to the same bytes.
//!
//! Each test prints its seed (`FAULTS_SEED=...` replays the choices) and one `FAULTS:` line.

use mancala::games::kiothi::Position;
use mancala::side::Side;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::faults;
use faults::{args, assert_same, complete, exact, snapshot, temporaries, Counts, Rng, BIN};

fn run(a: &[String]) -> Output {
    Command::new(BIN).args(a).stdin(Stdio::null()).output().unwrap()
}

/// Why `out` is not a refusal naming `name` (exit 2, nothing on stdout, one line on stderr that
/// names it), or `None` when it is.
fn not_refused(out: &Output, name: &str) -> Option<String> {
    not_refused_after(out, name, false)
}

/// [`not_refused`], where `progress` allows the progress lines a build writes before its one
/// `error:` line (which must be the last).
fn not_refused_after(out: &Output, name: &str, progress: bool) -> Option<String> {
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.trim_end().lines().collect();
    let one_line = if progress {
        lines.iter().filter(|l| l.starts_with("error")).count() == 1
            && lines.last().is_some_and(|l| l.starts_with("error") && l.contains(name))
    } else {
        lines.len() == 1
    };
    let ok = out.status.code() == Some(2) && out.stdout.is_empty() && one_line && err.contains(name);
    (!ok).then(|| {
        format!(
            "{}, stdout {:?}, stderr {:?}",
            out.status,
            String::from_utf8_lossy(&out.stdout).chars().take(200).collect::<String>(),
            err.trim_end().lines().rev().take(2).collect::<Vec<_>>()
        )
    })
}

/// A solve's text output without its timings (`… in 0.012 s (… nodes/s)`).
fn untimed(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    let lines = text.lines().map(|l| match l.find(" in ") {
        Some(i) if l.contains(" s (") => &l[..i],
        _ => l,
    });
    lines.collect::<Vec<_>>().join("\n")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// The end of a layer file's header (`src/store/layer_file/mod.rs`: magic, header length, the
/// encoded header), and where its payload starts (after the table of one CRC-32 per block of
/// `BLOCK` payload bytes and the zero padding to a multiple of 64).
fn header_end(bytes: &[u8]) -> usize {
    12 + u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize
}

fn payload_offset(bytes: &[u8]) -> usize {
    use mancala::store::layer_file::BLOCK;
    let he = header_end(bytes);
    (1..)
        .map(|blocks| ((he + 4 * blocks).div_ceil(64) * 64, blocks))
        .find(|&(off, blocks)| (bytes.len() - off).div_ceil(BLOCK) == blocks)
        .unwrap()
        .0
}

/// The ways a layer file is damaged.
const KINDS: [&str; 7] = ["payload-byte", "header-byte", "truncated", "empty", "garbage", "foreign", "other-layer"];

/// The bytes that replace a good layer file for damage `kind` (`foreign`: the same layer of
/// another game or rule variant; `other`: another layer of the same database).
fn damage(kind: &str, good: &[u8], foreign: &[u8], other: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let mut b = good.to_vec();
    let flip = |b: &mut Vec<u8>, at: usize, rng: &mut Rng| {
        let x = 1 + rng.below(255) as u8;
        b[at] ^= x;
        format!("byte {at} ^ {x:#04x}")
    };
    let what = match kind {
        "payload-byte" => {
            let off = payload_offset(good);
            let at = off + rng.below((b.len() - off) as u64) as usize;
            flip(&mut b, at, rng)
        }
        "header-byte" => {
            let at = rng.below(header_end(good) as u64) as usize;
            flip(&mut b, at, rng)
        }
        "truncated" => {
            b.truncate(1 + rng.below(b.len() as u64 - 1) as usize);
            format!("{} of {} bytes", b.len(), good.len())
        }
        "empty" => {
            b.clear();
            String::new()
        }
        "garbage" => {
            b = (0..1 + rng.below(2 * good.len() as u64)).map(|_| rng.below(256) as u8).collect();
            format!("{} bytes", b.len())
        }
        "foreign" => {
            b = foreign.to_vec();
            String::new()
        }
        "other-layer" => {
            b = other.to_vec();
            String::new()
        }
        _ => unreachable!(),
    };
    assert_ne!(b, good);
    (b, what)
}

/// One game's database commands over a damaged directory.
struct Game {
    name: &'static str,
    /// The layer file of layer `k`.
    file: fn(usize) -> String,
    /// `build DIR up to N` arguments.
    build: fn(&str, usize) -> Vec<String>,
    /// Arguments of a solve with the database `db` of a random position in layer `k`.
    solve: fn(&Path, &str, usize, &mut Rng) -> Vec<String>,
    /// The flag `db export` takes its layer range from.
    export_range: &'static str,
}

fn oware_solve(_: &Path, db: &str, k: usize, rng: &mut Rng) -> Vec<String> {
    // k seeds in random pits, at least one in the mover's row.
    let mut pits = [0u8; 12];
    pits[rng.below(6) as usize] = 1;
    for _ in 1..k {
        pits[rng.below(12) as usize] += 1;
    }
    let p = pits.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    args(&["oware", "solve", "--pits", &p, "--db", db])
}

fn kiothi_solve(work: &Path, db: &str, k: usize, rng: &mut Rng) -> Vec<String> {
    // k warriors on random boma after the opening, one of them in the mover's row.
    let mut boma = [0u8; 20];
    boma[rng.below(10) as usize] = 1;
    for _ in 1..k {
        boma[rng.below(20) as usize] += 1;
    }
    let p = Position { boma, prisons: [0, 0], nki: 0, to_move: Side::South, turn: 3 + rng.below(20) as u32 };
    let f = work.join("position.json");
    std::fs::write(&f, p.to_json().to_string()).unwrap();
    args(&["kiothi", "solve", "--position", f.to_str().unwrap(), "--db", db])
}

const OWARE: Game = Game {
    name: "oware",
    file: |k| format!("oware-gs-no-capture-{k}.db"),
    build: |dir, n| args(&["oware", "db", "build", "--max-stones", &n.to_string(), "--dir", dir]),
    solve: oware_solve,
    export_range: "--stones",
};

const KIOTHI: Game = Game {
    name: "kiothi",
    file: |k| format!("kiothi-nki-lift-relays-any-{k}.db"),
    build: |dir, n| args(&["kiothi", "db", "build", "--max-warriors", &n.to_string(), "--dir", dir]),
    solve: kiothi_solve,
    export_range: "--warriors",
};

/// Every damage kind on a random layer of a small database, under every command that reads
/// it: `solve --db`, `db stats`, `db export`, `db build` one layer further (a resume) and `db
/// verify`. Each must refuse it naming the file (exit 2, one line, no value; the build may
/// print its progress before that line; `verify`: non-zero and the file named), and write
/// nothing; a solve, which reads only the blocks its search touches, may instead answer when
/// it never read the damaged block, and then exactly as on the intact database.
fn damaged_layers_are_refused(game: &Game, n: usize, foreign_dir: &Path, foreign_file: fn(usize) -> String) {
    let test = format!("{}_damaged_layers", game.name);
    let mut rng = Rng::new(&test);
    let mut c = Counts::default();
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    complete(&(game.build)(base.to_str().unwrap(), n));
    let mut failures = Vec::new();
    for kind in KINDS {
        for cmd in ["solve", "stats", "export", "build", "verify"] {
            let k = 2 + rng.below(n as u64 - 1) as usize;
            let work = tmp.path().join(format!("{kind}-{cmd}"));
            let db = work.join("db");
            copy_dir(&base, &db);
            let name = (game.file)(k);
            let good = std::fs::read(db.join(&name)).unwrap();
            let foreign = std::fs::read(foreign_dir.join(foreign_file(k))).unwrap();
            let other = std::fs::read(db.join((game.file)(k - 1))).unwrap();
            let (bad, what) = damage(kind, &good, &foreign, &other, &mut rng);
            std::fs::write(db.join(&name), &bad).unwrap();
            c.corruptions += 1;
            let d = db.to_str().unwrap();
            let export = work.join("export.csv");
            let a = match cmd {
                "solve" => (game.solve)(&work, d, k, &mut rng),
                "stats" => args(&[game.name, "db", "stats", "--dir", d, "--json"]),
                "export" => args(&[
                    game.name,
                    "db",
                    "export",
                    "--dir",
                    d,
                    game.export_range,
                    &format!("0..={n}"),
                    "--format",
                    "csv",
                    "--out",
                    export.to_str().unwrap(),
                ]),
                "build" => (game.build)(d, n + 1),
                "verify" => args(&[game.name, "db", "verify", "--dir", d]),
                _ => unreachable!(),
            };
            let out = run(&a);
            let why = if cmd == "solve" && out.status.success() {
                // Blocks are checked as they are read (the issue's "per-block CRCs checked on
                // first touch"): a solve that never reads the damaged block answers from intact
                // ones, and its answer must then be exactly the intact database's.
                let intact: Vec<String> =
                    a.iter().map(|x| if x == d { base.to_str().unwrap().into() } else { x.clone() }).collect();
                let want = run(&intact);
                (untimed(&out.stdout) != untimed(&want.stdout) || !want.status.success()).then(|| {
                    format!(
                        "answered {:?}, the intact database answers {:?}",
                        untimed(&out.stdout),
                        untimed(&want.stdout)
                    )
                })
            } else if cmd == "verify" {
                let err = String::from_utf8_lossy(&out.stderr);
                (out.status.success() || !(err.contains(&name) || String::from_utf8_lossy(&out.stdout).contains(&name)))
                    .then(|| format!("{}, stderr {:?}", out.status, err.chars().take(400).collect::<String>()))
            } else {
                not_refused_after(&out, &name, cmd == "build")
            };
            let mut wrote = Vec::new();
            if export.exists() {
                wrote.push(export.clone());
            }
            if db.join((game.file)(n + 1)).exists() {
                wrote.push(db.join((game.file)(n + 1)));
            }
            wrote.extend(temporaries(&work));
            if std::fs::read(db.join(&name)).unwrap() != bad {
                wrote.push(db.join(&name));
            }
            match (why, wrote.is_empty()) {
                (None, true) => c.detected += 1,
                (why, _) => failures.push(format!(
                    "{kind} {what} layer {k} ({name}), `mancala {}`: {} {}",
                    a.join(" "),
                    why.unwrap_or_default(),
                    if wrote.is_empty() { String::new() } else { format!("; wrote {wrote:?}") }
                )),
            }
            std::fs::remove_dir_all(&work).unwrap();
        }
    }
    c.report(&test);
    assert!(
        failures.is_empty(),
        "{test}: {} of {} not refused:\n{}",
        failures.len(),
        c.corruptions,
        failures.join("\n")
    );
}

#[test]
fn damaged_oware_layers_are_refused_by_every_reader() {
    let tmp = tempfile::tempdir().unwrap();
    let foreign = tmp.path().join("forbidden");
    complete(&args(&[
        "oware",
        "db",
        "build",
        "--max-stones",
        "8",
        "--grand-slam",
        "forbidden",
        "--dir",
        foreign.to_str().unwrap(),
    ]));
    damaged_layers_are_refused(&OWARE, 8, &foreign, |k| format!("oware-gs-forbidden-{k}.db"));
}

#[test]
fn damaged_kiothi_layers_are_refused_by_every_reader() {
    // Kiothi tables exist for one rule setting, so the foreign file is an Oware layer.
    let tmp = tempfile::tempdir().unwrap();
    let foreign = tmp.path().join("oware");
    complete(&(OWARE.build)(foreign.to_str().unwrap(), 4));
    damaged_layers_are_refused(&KIOTHI, 4, &foreign, OWARE.file);
}

/// Every byte of a layer's header (magic, header length, the encoded header: game, rules,
/// index order, layer, entries, checksum), flipped in its low and in its high bit, one at a
/// time: `db stats` refuses each naming the file (a flipped length must not make the reader
/// allocate what it says, nor a bit of the length be ignored).
#[test]
fn every_header_byte_flipped_is_refused() {
    let test = "oware_header_bytes";
    let mut c = Counts::default();
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    complete(&(OWARE.build)(db.to_str().unwrap(), 5));
    let name = (OWARE.file)(4);
    let good = std::fs::read(db.join(&name)).unwrap();
    let mut failures = Vec::new();
    for at in 0..header_end(&good) {
        for bit in [0x01u8, 0x80] {
            let mut bad = good.clone();
            bad[at] ^= bit;
            std::fs::write(db.join(&name), &bad).unwrap();
            c.corruptions += 1;
            let out = run(&args(&["oware", "db", "stats", "--dir", db.to_str().unwrap()]));
            match not_refused(&out, &name) {
                None => c.detected += 1,
                Some(why) => failures.push(format!("byte {at} ^ {bit:#04x}: {why}")),
            }
        }
    }
    std::fs::write(db.join(&name), &good).unwrap();
    c.report(test);
    assert!(
        failures.is_empty(),
        "{test}: {} of {} not refused:\n{}",
        failures.len(),
        c.corruptions,
        failures.join("\n")
    );
}

/// Start `first`, and a third of its usual run time (`typical`) later `second`: while `first`
/// runs, `second` must be refused naming its pid, and `first` must then finish with the same
/// files as `reference`. Returns false when `first` finished before `second` could be refused
/// (too fast to test; the caller retries larger).
fn second_writer_refused(
    first: &[String],
    second: &[String],
    dir: &Path,
    typical: Duration,
    reference: &faults::Snapshot,
    normalise: &dyn Fn(&str, &[u8]) -> Vec<u8>,
) -> bool {
    let mut holder = faults::command(first).spawn().unwrap();
    std::thread::sleep(typical / 3);
    if holder.try_wait().unwrap().is_some() {
        return false;
    }
    // The second run in a thread, while this one notes when the first ends.
    let started = Instant::now();
    let second_args = second.to_vec();
    let h = std::thread::spawn(move || run(&second_args));
    let mut first_end = None;
    while !h.is_finished() {
        if first_end.is_none() && holder.try_wait().unwrap().is_some() {
            first_end = Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let out = h.join().unwrap();
    let first_end = first_end.unwrap_or(started.elapsed());
    let status = holder.wait().unwrap();
    // A second run that succeeds although the first outlived its start by far did not look at
    // the lock; one that started as the first ended proves nothing either way.
    if out.status.success() && first_end < Duration::from_millis(300) {
        return false;
    }
    let pid = holder.id().to_string();
    if let Some(why) = not_refused(&out, &pid) {
        panic!("`mancala {}` beside a running `{}` (pid {pid}): {why}", second.join(" "), first.join(" "));
    }
    assert!(status.success(), "the first run `mancala {}` failed: {status}", first.join(" "));
    assert!(temporaries(dir).is_empty(), "temporaries left: {:?}", temporaries(dir));
    assert_same(&format!("the first run `{}`", first.join(" ")), reference, &snapshot(dir), normalise);
    true
}

/// A second `db build`, sweep or equilibrium into a directory a running one holds: exit 2,
/// one line naming the holder's pid, and the first run's output as if alone.
#[test]
fn a_second_writer_is_refused_naming_the_holder() {
    let test = "concurrent_writers";
    let mut c = Counts::default();
    let tmp = tempfile::tempdir().unwrap();
    // Each case takes about a second or two here; it is retried larger when the first run ends
    // before the second starts.
    type Case = (&'static str, fn(&str, u32) -> Vec<String>);
    let cases: [Case; 4] = [
        ("oware-build", |d, s| {
            let n = if cfg!(debug_assertions) { 10 } else { 12 } + s;
            args(&["oware", "db", "build", "--max-stones", &n.to_string(), "--dir", d])
        }),
        ("kiothi-build", |d, s| {
            let n = if cfg!(debug_assertions) { 5 } else { 6 } + s;
            args(&["kiothi", "db", "build", "--max-warriors", &n.to_string(), "--dir", d])
        }),
        ("lukho-sweep", |d, s| {
            let north = format!("0..{}", if cfg!(debug_assertions) { 1000 } else { 30000 } << s);
            args(&["lukho", "sweep", "--south", "0..48", "--north", &north, "--race", "sequential", "--out", d])
        }),
        ("lukho-equilibrium", |d, s| {
            let family = format!("0..{}", 100 << s);
            args(&[
                "lukho",
                "equilibrium",
                "--race",
                "south-first",
                "--payoff",
                "margin",
                "--family",
                &family,
                "--out",
                d,
            ])
        }),
    ];
    for (name, make) in cases {
        let mut done = false;
        for size in 0..2 {
            let reference = tmp.path().join(format!("ref-{name}-{size}"));
            let dir = tmp.path().join(format!("run-{name}-{size}"));
            let typical = complete(&make(reference.to_str().unwrap(), size));
            let want = snapshot(&reference);
            let a = make(dir.to_str().unwrap(), size);
            let norm: &dyn Fn(&str, &[u8]) -> Vec<u8> =
                if name == "lukho-equilibrium" { &equilibrium_normalised } else { &exact };
            if second_writer_refused(&a, &a, &dir, typical, &want, norm) {
                c.concurrent_refused += 1;
                done = true;
                break;
            }
            eprintln!("{test}: {name} at size {size} finished before a second run started; larger");
        }
        assert!(done, "{test}: {name}: the first run always finished before the second");
    }
    c.report(test);
}

const SWEEP: [&str; 8] = ["lukho", "sweep", "--south", "0..48", "--north", "0..1500", "--race", "sequential"];

/// An unsharded sweep cannot resume, but a kill must leave its summaries all there (complete) or
/// none of them: never a part of the set.
#[test]
fn unsharded_sweep_killed_at_random_leaves_all_summaries_or_none() {
    let test = "lukho_unsharded_sweep";
    let mut rng = Rng::new(test);
    let mut n = Counts::default();
    let tmp = tempfile::tempdir().unwrap();
    let out = |name: &str| tmp.path().join(name);
    let sweep = |dir: &Path| {
        let mut a = args(&SWEEP);
        a.extend(args(&["--out", dir.to_str().unwrap()]));
        a
    };
    let typical = complete(&sweep(&out("reference")));
    let want = snapshot(&out("reference"));
    let names: Vec<_> = want.keys().filter(|k| !faults::is_lock(k)).collect();
    assert_eq!(names, ["summary.csv", "summary.json", "summary.jsonl", "summary.meta.json"]);
    let start = Instant::now();
    let mut trials = 0;
    while trials < 4 || (start.elapsed() < faults::budget() && trials < 200) {
        // The set is staged beside its directory: watch (and check) the trial's parent.
        let parent = out(&format!("trial-{trials}"));
        let dir = parent.join("out");
        let a = sweep(&dir);
        let (killed, in_write) = faults::kill_at(&a, &parent, faults::Moment::random(&mut rng, typical));
        n.kills += killed as u64;
        n.kills_in_write += in_write as u64;
        let mut got = snapshot(&dir);
        got.retain(|k, _| !k.starts_with('.'));
        let mut whole = want.clone();
        whole.retain(|k, _| !k.starts_with('.'));
        let summaries: Vec<_> = got.keys().collect();
        assert!(
            summaries.is_empty() || got == whole,
            "{test}, trial {trials}: a kill left {summaries:?}, not the whole set or nothing"
        );
        complete(&a);
        n.resumes += killed as u64;
        assert!(temporaries(&parent).is_empty(), "{test}: temporaries left: {:?}", temporaries(&parent));
        assert_same(&format!("{test}, trial {trials}"), &want, &snapshot(&dir), &exact);
        std::fs::remove_dir_all(&parent).unwrap();
        trials += 1;
    }
    n.report(test);
}

/// The equilibrium's files without their timings (see `faults_kill.rs`).
fn equilibrium_normalised(name: &str, bytes: &[u8]) -> Vec<u8> {
    fn without_times(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.retain(|k, _| !k.contains("second") && k != "crc32" && k != "bytes");
                m.values_mut().for_each(without_times);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(without_times),
            _ => {}
        }
    }
    if !(name.ends_with("equilibrium.json") || name.ends_with("state.lukho-eq")) {
        return bytes.to_vec();
    }
    let text = std::str::from_utf8(bytes).unwrap();
    let mut v: Vec<serde_json::Value> = if name.ends_with("equilibrium.json") {
        vec![serde_json::from_str(text).unwrap()]
    } else {
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    v.iter_mut().for_each(without_times);
    serde_json::to_vec(&v).unwrap()
}

/// A small tmpfs, unmounted on drop. `None` (with a message) where it cannot be mounted.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(kib: u64) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        ok.then_some(Tmpfs { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn resize(&self, kib: u64) {
        let s = Command::new("mount").args(["-o", &format!("remount,size={kib}k")]).arg(self.path()).status().unwrap();
        assert!(s.success(), "remount {:?}", self.path());
    }

    /// Fill all free space with a file; returns its path.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let p = self.path().join("filler");
        let mut f = std::fs::File::create(&p).unwrap();
        let chunk = vec![0xa5u8; 4096];
        while f.write_all(&chunk).is_ok() {}
        while f.write_all(&chunk[..1]).is_ok() {}
        p
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let ok = Command::new("umount").arg(self.path()).status().map(|s| s.success()).unwrap_or(false);
        if !ok {
            let _ = Command::new("umount").arg("-l").arg(self.path()).status();
        }
    }
}

/// Why a run on a full file system did not fail cleanly (exit 1 or 2, one line, no temporary;
/// `progress`: a build's progress lines may come before its one `error:` line, the last).
fn not_clean_failure(out: &Output, fs: &Path, progress: bool) -> Option<String> {
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.trim_end().lines().collect();
    let one_line = if progress {
        lines.iter().filter(|l| l.starts_with("error")).count() == 1
            && lines.last().is_some_and(|l| l.starts_with("error"))
    } else {
        lines.len() == 1
    };
    let ok = matches!(out.status.code(), Some(1 | 2)) && one_line;
    let left = temporaries(fs);
    (!ok || !left.is_empty()).then(|| format!("{}, stderr {err:?}, temporaries {left:?}", out.status))
}

/// A build and a sweep that cannot fit on a small tmpfs fail with one line and leave no
/// temporary, whether refused from the plan or stopped by ENOSPC mid-run; with space, the same
/// commands then finish with the bytes of a run that never lacked it.
#[test]
fn a_full_file_system_fails_cleanly_and_resumes() {
    let test = "full_disk";
    let mut c = Counts::default();
    let Some(fs) = Tmpfs::mount(256) else {
        eprintln!("{test}: SKIPPED: cannot mount a tmpfs here (needs root); the full-disk cases did not run");
        c.full_disk_skipped += 1;
        c.report(test);
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let build = |d: &Path| args(&["oware", "db", "build", "--max-stones", "10", "--dir", d.to_str().unwrap()]);
    complete(&build(&tmp.path().join("db")));
    let want_db = snapshot(&tmp.path().join("db"));
    let sweep = |d: &Path| {
        let mut a = args(&SWEEP);
        a.extend(args(&["--out", d.to_str().unwrap()]));
        a
    };
    complete(&sweep(&tmp.path().join("sweep")));
    let want_sweep = snapshot(&tmp.path().join("sweep"));

    // 1. The database (about 670 KiB) on 256 KiB.
    let db = fs.path().join("db");
    let out = run(&build(&db));
    if let Some(why) = not_clean_failure(&out, fs.path(), true) {
        panic!("{test}: `oware db build` on 256 KiB: {why}");
    }
    c.full_disk += 1;
    fs.resize(4096);
    complete(&build(&db));
    c.resumes += 1;
    assert_same("oware db build after a full disk", &want_db, &snapshot(&db), &exact);

    // 2. ENOSPC mid-run: the disk fills up once the build has written its layer 7.
    std::fs::remove_dir_all(&db).unwrap();
    let mut mid = false;
    for attempt in 0..3 {
        let mut child = faults::command(&build(&db)).stderr(Stdio::piped()).spawn().unwrap();
        let layer7 = db.join("oware-gs-no-capture-7.db");
        while !layer7.exists() && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_micros(200));
        }
        let filler = fs.fill();
        let out = child.wait_with_output().unwrap();
        if out.status.success() {
            eprintln!("{test}: the build finished before the disk was full (attempt {attempt})");
            std::fs::remove_file(&filler).unwrap();
            std::fs::remove_dir_all(&db).unwrap();
            continue;
        }
        if let Some(why) = not_clean_failure(&out, fs.path(), true) {
            panic!("{test}: `oware db build` running into a full disk: {why}");
        }
        c.full_disk += 1;
        std::fs::remove_file(&filler).unwrap();
        complete(&build(&db));
        c.resumes += 1;
        assert_same("oware db build after ENOSPC", &want_db, &snapshot(&db), &exact);
        mid = true;
        break;
    }
    if !mid {
        eprintln!("{test}: the mid-run ENOSPC case did not happen (the build was faster than the filler)");
    }

    // 3. A sweep's summaries (about 20 KiB) on a disk with a few KiB left: no part of the set.
    std::fs::remove_dir_all(&db).unwrap();
    fs.resize(256);
    let filler = fs.fill();
    std::fs::write(&filler, vec![0u8; std::fs::metadata(&filler).unwrap().len() as usize - 8192]).unwrap();
    let out_dir = fs.path().join("sweep");
    let out = run(&sweep(&out_dir));
    if let Some(why) = not_clean_failure(&out, fs.path(), false) {
        panic!("{test}: `lukho sweep` on a full disk: {why}");
    }
    let mut got = snapshot(&out_dir);
    got.retain(|k, _| !k.starts_with('.'));
    assert!(got.is_empty(), "{test}: a failed sweep left part of its summaries: {:?}", got.keys());
    c.full_disk += 1;
    std::fs::remove_file(&filler).unwrap();
    complete(&sweep(&out_dir));
    c.resumes += 1;
    assert_same("lukho sweep after a full disk", &want_sweep, &snapshot(&out_dir), &exact);
    c.report(test);
}
