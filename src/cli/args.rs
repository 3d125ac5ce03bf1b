//! Argument types shared by every command, each checked once at parse time so every command
//! refuses the same bad values with the same one-line message (clap names the flag).

use clap::builder::{PathBufValueParser, PossibleValue, PossibleValuesParser, TypedValueParser};
use mancala::variant::Variant;
use std::path::{Path, PathBuf};

/// A parser for a rules or format enum: its names (each with its help) as clap's possible
/// values, so `--help` and errors list them. The names and their meaning live in the library
/// type; the CLI only lists them.
pub fn variant<T: Variant + Send + Sync>() -> impl TypedValueParser<Value = T> {
    listed(|_: T| false)
}

/// `--format`: the table formats of [`mancala::export::Format`]. Parquet is listed only in a
/// build that can write it; elsewhere it is still accepted, to be refused with the line that
/// says which build has it.
pub fn format() -> impl TypedValueParser<Value = mancala::export::Format> {
    use mancala::export::Format;
    listed(|f: Format| f == Format::Parquet && !cfg!(feature = "parquet"))
}

/// The values of `T` as possible values, those `hide` names accepted but not listed.
fn listed<T: Variant + Send + Sync>(hide: fn(T) -> bool) -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::ALL.iter().map(|&v| PossibleValue::new(v.name()).help(v.description()).hide(hide(v))))
        .map(|s| T::from_name(&s).unwrap_or_else(|| unreachable!("a listed value parses: {s}")))
}

/// `--threads N`: worker threads, at least 1. The cap keeps a typo from asking the OS for
/// a hundred thousand stacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads(pub usize);

pub const MAX_THREADS: usize = 1024;

pub fn threads(s: &str) -> Result<Threads, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(Threads(n)),
        _ => Err(format!("expected a whole number of threads 1..={MAX_THREADS}")),
    }
}

/// Size the global rayon pool (default: one thread per core). A pool that cannot start (a
/// memory limit too small for the threads' stacks) is a bad `--threads`: rayon would
/// otherwise panic at its first parallel loop.
pub fn set_threads(threads: Option<Threads>) -> anyhow::Result<()> {
    if let Some(Threads(t)) = threads {
        if let Some(room) = address_space_room() {
            // Each worker reserves its stack and, once running, its signal stack; when a worker
            // starts but its signal stack no longer fits, the runtime aborts the process, so
            // the threads must fit before any starts (deterministic, unlike a failed spawn).
            let per_thread = WORKER_STACK + (64 << 10);
            if (t as u64).saturating_mul(per_thread) > room {
                let fits = room / per_thread;
                return super::usage(format!(
                    "--threads: cannot start {t} worker threads (the address-space limit, ulimit -v, leaves room for about {fits}); give fewer"
                ));
            }
        }
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(t).build_global() {
            return super::usage(format!("--threads: cannot start {t} worker threads ({e}); give fewer"));
        }
    }
    Ok(())
}

/// The stack a rayon worker reserves (the standard library's default for spawned threads).
const WORKER_STACK: u64 = 2 << 20;

/// Address space left under `ulimit -v` (RLIMIT_AS) after what the process maps now, less a
/// margin for the allocations the run makes before its loops; `None` when there is no limit.
fn address_space_room() -> Option<u64> {
    let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes the struct it is given and reads nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0 || lim.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    let pages: u64 = std::fs::read_to_string("/proc/self/statm").ok()?.split_whitespace().next()?.parse().ok()?;
    // SAFETY: sysconf reads a constant of the system.
    let used = pages * unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    Some(lim.rlim_cur.saturating_sub(used).saturating_sub(64 << 20))
}

/// Most seconds a time flag accepts (about 31 years): it keeps `Instant + Duration` from
/// overflowing.
pub const MAX_SECONDS: f64 = 1e9;

/// `--time SECONDS`: a positive, finite budget of at most [`MAX_SECONDS`].
pub fn seconds(s: &str) -> Result<f64, String> {
    seconds_at_most(s, MAX_SECONDS)
}

/// A positive, finite number of seconds of at most `max`: every flag that takes seconds
/// parses through here, so `nan`, `inf` and `-1` are refused the same way.
pub fn seconds_at_most(s: &str, max: f64) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= max => Ok(t),
        // 1e9 reads better than its digits; 3600 as it is.
        _ if max >= 1e6 => Err(format!("expected a positive number of seconds (at most {max:e})")),
        _ => Err(format!("expected a positive number of seconds (at most {max})")),
    }
}

/// A size in bytes: `N`, or `N` with `K`, `M`, `G` or `T` (powers of 1024, optionally
/// followed by `iB` or `B`), `N` a positive decimal (`--memory 1.5G`).
pub fn bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let err = || format!("`{s}`; expected a size such as 512M, 4G or 1.5GiB (bytes without a unit)");
    let digits = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let scale: u64 = match unit.trim().to_ascii_uppercase().trim_end_matches("IB").trim_end_matches('B') {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(err()),
    };
    match num.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x * (scale as f64) < 1.8e19 && x * scale as f64 >= 1.0 => {
            Ok((x * scale as f64) as u64)
        }
        _ => Err(err()),
    }
}

/// A path flag naming a file to write (`--out`, `--csv`, `--svg`, …), checked at parse time so
/// a bad path is refused before any work: it is not a directory or a device (the file is
/// replaced by a rename), and its directory exists.
pub fn out_file() -> impl TypedValueParser<Value = PathBuf> {
    PathBufValueParser::new().try_map(|p: PathBuf| check_out_file(&p).map(|()| p))
}

/// A path flag naming a directory to write into (`--dir` of a build, `--out` of a sweep):
/// it is a directory if it exists, and otherwise can be created (no file on its way).
pub fn out_dir() -> impl TypedValueParser<Value = PathBuf> {
    PathBufValueParser::new().try_map(|p: PathBuf| check_out_dir(&p).map(|()| p))
}

/// A path flag naming a file to read whole (a part file): a regular file, so a device such as
/// `/dev/zero` is refused instead of read until memory runs out.
pub fn in_file() -> impl TypedValueParser<Value = PathBuf> {
    PathBufValueParser::new().try_map(|p: PathBuf| match std::fs::metadata(&p) {
        Ok(m) if m.is_file() => Ok(p),
        Ok(m) if m.is_dir() => Err("is a directory; expected a file".to_string()),
        Ok(_) => Err("is not a regular file".to_string()),
        Err(e) => Err(e.to_string()),
    })
}

fn check_out_file(p: &Path) -> Result<(), String> {
    match std::fs::metadata(p) {
        Ok(m) if m.is_dir() => return Err("is a directory; expected the name of a file to write".into()),
        Ok(m) if !m.is_file() => {
            return Err("exists and is not a regular file (it would be replaced by a rename)".into())
        }
        Ok(_) => return Ok(()),
        Err(_) => {}
    }
    let parent = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    match std::fs::metadata(parent) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(format!("{} is not a directory", parent.display())),
        Err(_) => Err(format!("directory {} does not exist", parent.display())),
    }
}

fn check_out_dir(p: &Path) -> Result<(), String> {
    // The path itself, or the nearest of its ancestors that exists, must be a directory.
    let Some(existing) = p.ancestors().find(|a| !a.as_os_str().is_empty() && a.exists()) else {
        return Ok(());
    };
    match (existing.is_dir(), existing == p) {
        (true, _) => Ok(()),
        (false, true) => Err("exists and is not a directory".into()),
        (false, false) => Err(format!("{} is not a directory", existing.display())),
    }
}

/// Create the directory a command writes into (`--dir` of a build, `--out`), once its input
/// is checked and before any work: a path that cannot be made a directory (a parent on a
/// read-only or virtual file system, no permission) is the user's to fix: one line naming
/// `flag`, exit 2.
pub fn make_out_dir(flag: &str, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| super::Usage(format!("{flag}: cannot create the directory {}: {e}", dir.display())).into())
}

/// The one field-to-flag table lives beside [`mancala::input::InputError`], so the Python
/// bindings word their errors as the command line does.
pub use mancala::input::flag;

/// A library input error as the command line reports it: its flag, then what is wrong.
pub fn input(e: mancala::input::InputError) -> anyhow::Error {
    super::Usage(e.line()).into()
}

/// A directory lock not taken, named by the command-line flag `flag`: another run holding it
/// is the user's to sort out (exit 2, naming the holder); a failed lock file is exit 1.
pub fn lock_error(flag: &str, e: mancala::store::LockError) -> anyhow::Error {
    match e {
        e @ mancala::store::LockError::Held { .. } => super::Usage(format!("{flag}: {e}")).into(),
        e => anyhow::anyhow!("{flag}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_and_seconds_refuse_what_cannot_run() {
        assert_eq!(threads("2"), Ok(Threads(2)));
        assert!(threads("0").is_err());
        assert!(threads("100000").is_err());
        assert!(threads("-1").is_err());
        assert_eq!(seconds("0.5"), Ok(0.5));
        for bad in ["0", "-1", "nan", "inf", "1e300", "x"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(seconds_at_most("3600", 3600.0), Ok(3600.0));
        assert!(seconds_at_most("3601", 3600.0).is_err());
    }

    #[test]
    fn output_paths_are_checked_for_their_kind() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        assert_eq!(check_out_file(&file), Ok(()));
        assert_eq!(check_out_file(&dir.path().join("new.csv")), Ok(()));
        assert!(check_out_file(dir.path()).unwrap_err().contains("is a directory"));
        assert!(check_out_file(&dir.path().join("no/x.csv")).unwrap_err().contains("does not exist"));
        assert!(check_out_file(&file.join("x.csv")).unwrap_err().contains("is not a directory"));
        assert!(check_out_file(Path::new("/dev/null")).unwrap_err().contains("not a regular file"));
        assert_eq!(check_out_dir(dir.path()), Ok(()));
        assert_eq!(check_out_dir(&dir.path().join("a/b/c")), Ok(()));
        assert_eq!(check_out_dir(&file), Err("exists and is not a directory".into()));
        assert!(check_out_dir(&file.join("sub")).unwrap_err().contains("is not a directory"));
    }
}

/// The last flags of a game's `solve`: the answer as JSON, and the game's rule flags `R`.
#[derive(clap::Args)]
pub struct SolveOutput<R: clap::Args> {
    /// Print the answer as one JSON document (the fields `mancala serve` answers with).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub rules: R,
}
