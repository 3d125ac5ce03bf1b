//! Bad input that used to panic, run away, succeed with an empty result or fail with an
//! unclear message: each is refused before any work with one line on stderr naming the flag,
//! exit status 2, nothing on stdout and nothing written.
mod common;
use common::{mancala, usage_error};
use std::path::Path;

const KIOTHI_ENDGAME: &str = "tests/data/kiothi/endgame.json";

/// The files of `dir` but its writers' lock files (`.NAME.lock`, kept once a run has held them).
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !(n.starts_with('.') && n.ends_with(".lock")))
        .collect();
    v.sort();
    v
}

/// A memory limit too small for the asked threads' stacks: rayon's pool cannot start, which
/// panicked at the first parallel loop ("The global thread pool has not been initialized").
#[test]
fn threads_that_cannot_start_under_a_memory_limit_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("mancala");
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let commands = [
        format!("oware db build --max-stones 2 --dir {}", d("o")),
        format!("kiothi db build --max-warriors 1 --dir {}", d("k")),
        format!("lukho sweep --south 0 --north 0..3 --race sequential --out {}", d("s")),
        format!("lukho equilibrium --race south-first --payoff margin --family 0..3 --out {}", d("e")),
        format!("lukho replies --south 0 --race sequential --family 0..3 --out {}", d("r")),
    ];
    for args in &commands {
        // 1024 stacks of 2 MiB do not fit in 1 GB of address space; the binary does.
        let script = format!("ulimit -v 1000000 && exec {} {args} --threads 1024", bin.display());
        let mut sh = std::process::Command::new("sh");
        sh.args(["-c", &script]);
        let line = usage_error(&mut assert_cmd::Command::from(sh));
        assert!(line.starts_with("error: --threads: cannot start 1024 worker threads"), "{args}: {line}");
    }
    assert_eq!(entries(dir.path()), Vec::<String>::new(), "a refused command wrote something");
}

/// `--depth 4294967295` allocated a child buffer per ply up front (103 GB) and aborted; the
/// depth is bounded, and the buffers follow the plies the tree reaches.
#[test]
fn perft_depth_is_bounded_and_named() {
    for depth in ["4294967295", "101"] {
        for extra in [&[][..], &["--divide"][..]] {
            let line = usage_error(mancala().args(["kiothi", "perft", "--depth", depth]).args(extra));
            assert!(line.contains("--depth") && line.contains("0..=100"), "{line}");
        }
    }
    // The largest depth runs where every path ends early: here the bound is what is refused,
    // not a deep count (a position with no legal move counts nothing below it).
    let out = mancala().args(["kiothi", "perft", "--depth", "3", "--position", KIOTHI_ENDGAME]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.starts_with("depth 3: 165 nodes"), "{text}");
    let out = mancala()
        .args(["kiothi", "perft", "--depth", "3", "--divide", "--json", "--position", KIOTHI_ENDGAME])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["nodes"], 165);
    let per_move: u64 = v["moves"].as_array().unwrap().iter().map(|m| m["nodes"].as_u64().unwrap()).sum();
    assert_eq!(per_move, 165);
}

/// `--position` reads at most 1 MiB (`/dev/zero` read until memory ran out), refuses bytes
/// that are not UTF-8 (exit 1 without the flag) and a directory; every line names the flag,
/// including what the library finds wrong in a parsed state.
#[test]
fn position_input_is_bounded_text_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    // Valid JSON after 2 MiB of leading whitespace: refused by size, not by content.
    let big = dir.path().join("big.json");
    let mut text = " ".repeat(2 << 20);
    text.push_str(&std::fs::read_to_string(KIOTHI_ENDGAME).unwrap());
    std::fs::write(&big, text).unwrap();
    let wrong_field = dir.path().join("boma.json");
    std::fs::write(&wrong_field, r#"{"game":"kiothi","boma":[0],"to_move":"south","turn":9}"#).unwrap();
    let mut files = vec![
        (big.to_str().unwrap().to_string(), "larger than 1048576 bytes"),
        (dir.path().to_str().unwrap().to_string(), "is a directory"),
        (wrong_field.to_str().unwrap().to_string(), "--position: pits: missing or malformed"),
    ];
    if Path::new("/dev/zero").exists() {
        files.push(("/dev/zero".to_string(), "/dev/zero is larger than 1048576 bytes"));
    }
    for (path, want) in &files {
        for cmd in [&["kiothi", "perft", "--depth", "1"][..], &["kiothi", "solve"], &["kiothi", "replay"]] {
            let line = usage_error(mancala().args(cmd).args(["--position", path]));
            assert!(line.starts_with("error: --position: ") && line.contains(want), "{cmd:?} {path}: {line}");
        }
    }
    for stdin in [&b"\xff\xfe{\"game\""[..], &[0u8, 159, 146, 150, 0, 1, 2]] {
        for cmd in [&["kiothi", "perft", "--depth", "1"][..], &["kiothi", "solve"]] {
            let line = usage_error(mancala().args(cmd).args(["--position", "-"]).write_stdin(stdin));
            assert!(line.contains("--position: standard input is not UTF-8 text"), "{cmd:?}: {line}");
        }
    }
}

/// A SPEC that selects nothing wrote empty summaries with success; every side of a sweep
/// (and its dry run), the South set of replies and `--exploit` refuse it as equilibrium's
/// `--family` does, with the same words. Bounds past the last id do not wrap around.
#[test]
fn a_spec_that_selects_nothing_is_refused_naming_its_side() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let sweep = |south: &str, north: &str| -> Vec<String> {
        ["lukho", "sweep", "--south", south, "--north", north, "--race", "sequential", "--out", out]
            .map(String::from)
            .to_vec()
    };
    for empty in ["5..5", "0..10:drop=24", "0..1:pit=3", "0,1:remove=3*******"] {
        let names = format!("`{empty}` names no choice; expected a SPEC with at least one choice");
        for (args, flag) in [(sweep(empty, "0"), "--south"), (sweep("0", empty), "--north")] {
            let line = usage_error(mancala().args(&args));
            assert_eq!(line.trim_end(), format!("error: {flag}: {names}"));
            let line = usage_error(mancala().args(&args).arg("--dry-run"));
            assert_eq!(line.trim_end(), format!("error: {flag}: {names}"));
        }
        let line = usage_error(mancala().args(["lukho", "sweep", "--symmetric", "--south", empty]).args([
            "--race",
            "sequential",
            "--out",
            out,
        ]));
        assert_eq!(line.trim_end(), format!("error: --south: {names}"));
        let line = usage_error(
            mancala().args(["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin"]).args([
                "--family",
                "0..3",
                "--exploit",
                empty,
                "--out",
                out,
            ]),
        );
        assert_eq!(line.trim_end(), format!("error: --exploit: {names}"));
        let line = usage_error(
            mancala()
                .args(["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin"])
                .args(["--family", empty, "--out", out]),
        );
        assert_eq!(line.trim_end(), format!("error: --family: {names}"));
        let line =
            usage_error(mancala().args(["lukho", "replies", "--race", "sequential", "--south", empty, "--out", out]));
        assert_eq!(line.trim_end(), format!("error: --south: {names}"));
    }
    for past in ["0..=18446744073709551615", "0..18446744073709551615", "6356990..6356993"] {
        for (args, flag) in [(sweep(past, "0"), "--south"), (sweep("0", past), "--north")] {
            let line = usage_error(mancala().args(&args));
            assert!(line.contains(flag) && line.contains("ends past the last id"), "{past}: {line}");
        }
    }
    assert!(!Path::new(out).exists(), "a refused run wrote its directory");
}

/// Every path flag is checked when the command line is parsed: a directory where a file is
/// wanted and the reverse, a missing directory for a file, a file on the way to a directory.
/// `db stats --csv DIR` printed its table and then said only "Is a directory"; `db export
/// --out DIR` exported everything, then failed and left its full-size temporary; `db build
/// --dir FILE` said "File exists" twice; `oware solve --db FILE` named `--dir`.
#[test]
fn path_flags_are_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (odb, kdb, file, adir) = (p("odb"), p("kdb"), p("file"), p("adir"));
    mancala().args(["oware", "db", "build", "--max-stones", "2", "--dir", &odb]).assert().success();
    mancala().args(["kiothi", "db", "build", "--max-warriors", "1", "--dir", &kdb]).assert().success();
    std::fs::write(&file, "x").unwrap();
    std::fs::create_dir(&adir).unwrap();
    let before = entries(dir.path());
    let (in_file, missing) = (format!("{file}/x.csv"), p("missing/x.csv"));

    // Files to write: each kind of bad path against each file flag.
    let mut file_flags: Vec<(Vec<String>, &str)> = Vec::new();
    for (game, db) in [("oware", &odb), ("kiothi", &kdb)] {
        for flag in ["--csv", "--svg", "--histogram-csv"] {
            let mut a: Vec<String> = vec![game.into(), "db".into(), "stats".into(), "--dir".into(), db.clone()];
            a.push(flag.into());
            file_flags.push((a, flag));
        }
        let layers = if game == "oware" { "--stones" } else { "--warriors" };
        let export = [game, "db", "export", "--dir", db, layers, "0..=1", "--format", "csv", "--out"];
        file_flags.push((export.map(String::from).to_vec(), "--out"));
    }
    file_flags.push((
        ["kiothi", "openings", "--sample", "1", "--replies", "1", "--depth", "1", "--out"].map(String::from).to_vec(),
        "--out",
    ));
    for (args, flag) in &file_flags {
        for (path, want) in [
            (&adir, "is a directory; expected the name of a file to write"),
            (&in_file, "is not a directory"),
            (&missing, "does not exist"),
        ] {
            let line = usage_error(mancala().args(args).arg(path));
            assert!(line.contains(&format!("for '{flag} <")) && line.contains(want), "{args:?} {path}: {line}");
        }
    }
    // A device would be replaced by the rename that publishes the file.
    if Path::new("/dev/null").exists() {
        let line = usage_error(mancala().args(["oware", "db", "stats", "--dir", &odb, "--svg", "/dev/null"]));
        assert!(line.contains("--svg") && line.contains("not a regular file"), "{line}");
    }

    // Directories to write into: a file, or a file on the way.
    let dir_flags: Vec<Vec<&str>> = vec![
        vec!["oware", "db", "build", "--max-stones", "2", "--dir"],
        vec!["kiothi", "db", "build", "--max-warriors", "1", "--dir"],
        vec!["lukho", "sweep", "--south", "0", "--north", "0", "--race", "sequential", "--out"],
        vec!["lukho", "sample", "--pairs", "10", "--race", "sequential", "--out"],
        vec!["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--family", "0..3", "--out"],
        vec!["lukho", "replies", "--south", "0", "--race", "sequential", "--family", "0..3", "--out"],
        // The parts are read after --out is checked (here a file that is no part).
        vec!["lukho", "merge", &file, "--out"],
    ];
    let under_file = format!("{file}/sub");
    for (path, want) in
        [(&file, "exists and is not a directory".to_string()), (&under_file, format!("{file} is not a directory"))]
    {
        for args in &dir_flags {
            let mut args = args.clone();
            args.push(path);
            let line = usage_error(mancala().args(&args));
            assert!(line.contains(want.as_str()), "{args:?}: {line}");
            let flag = if args.contains(&"--dir") { "--dir" } else { "--out" };
            assert!(line.contains(&format!("for '{flag} <")), "{args:?}: {line}");
            // Said once: not the OS error twice ("File exists (os error 17): File exists").
            assert_eq!(line.matches("is not a directory").count(), 1, "{line}");
        }
    }

    // Directories to read: a file or nothing, named by the flag that gave them.
    for (args, flag) in [
        (vec!["oware", "db", "stats", "--dir"], "--dir"),
        (vec!["kiothi", "db", "verify", "--dir"], "--dir"),
        (vec!["oware", "solve", "--pits", "0,0,0,0,1,2,1,0,0,0,0,3", "--db"], "--db"),
        (vec!["kiothi", "solve", "--position", KIOTHI_ENDGAME, "--db"], "--db"),
    ] {
        let line = usage_error(mancala().args(&args).arg(&file));
        assert!(line.starts_with(&format!("error: {flag}: {file} is not a directory")), "{line}");
        let line = usage_error(mancala().args(&args).arg(p("nothing")));
        assert!(line.starts_with(&format!("error: {flag}: {} does not exist: no ", p("nothing"))), "{line}");
    }
    assert_eq!(entries(dir.path()), before, "a refused command wrote something (a temporary?)");
    assert_eq!(entries(Path::new(&adir)), Vec::<String>::new());
}

/// `lukho sweep --south all --north all` without shards started a 9,800-hour job that cannot
/// resume. Above 10^10 games an unsharded sweep needs `--yes`; the refusal comes from the
/// resolved sets, before any game or file.
#[test]
fn a_huge_unsharded_sweep_needs_yes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sw");
    let out = out.to_str().unwrap();
    let all = ["lukho", "sweep", "--south", "all", "--north", "all", "--out", out, "--race"];
    // 6,356,992² pairs, two outcomes each.
    let line = usage_error(mancala().args(all).arg("sequential"));
    assert!(line.starts_with("error: --shard: this unsharded sweep plays 80822694576128 games"), "{line}");
    for pointer in ["more than 10000000000", "--shard K/N", "--dry-run", "--yes"] {
        assert!(line.contains(pointer), "{pointer}: {line}");
    }
    // speeds: the games depend on the pair, so its pairs are the bound.
    let line = usage_error(mancala().args(all).arg("speeds"));
    assert!(line.contains("plays at least 40411347288064 games"), "{line}");
    assert!(!Path::new(out).exists());

    // A shard of it is not refused (this one gets no South choice, so it plays nothing).
    let v = common::json_out(&[&all[..], &["sequential", "--shard", "0/100000000", "--json"]].concat());
    assert_eq!(v["games"], 0);
    assert_eq!(v["part"], Path::new(out).join("part-00000-of-100000000.lukho").to_str().unwrap());
    assert_eq!(entries(Path::new(out)), vec!["part-00000-of-100000000.lukho"]);

    // Under the threshold nothing changes, and --yes is accepted.
    let small = dir.path().join("small");
    let v = common::json_out(&[
        "lukho",
        "sweep",
        "--south",
        "0..2",
        "--north",
        "0..3",
        "--race",
        "sequential",
        "--yes",
        "--json",
        "--out",
        small.to_str().unwrap(),
    ]);
    assert_eq!(v["games"], 12);

    // --help teaches what to do instead.
    let help = common::stdout(&["lukho", "sweep", "--help"]);
    let yes = help.split("--yes").nth(1).unwrap();
    for word in ["10^10", "cannot resume", "--shard K/N", "lukho merge", "--dry-run"] {
        assert!(yes.contains(word), "{word}: {yes}");
    }
}

/// `--calibrate` parses through the shared seconds parser: `nan`, `inf`, negative and over
/// an hour are refused naming the flag.
#[test]
fn calibrate_refuses_what_is_not_a_duration() {
    for bad in ["nan", "inf", "-1", "3601", "1e300"] {
        let line = usage_error(mancala().args(["lukho", "sweep", "--south", "0", "--north", "0", "--race"]).args([
            "sequential",
            "--dry-run",
            "--calibrate",
            bad,
        ]));
        assert!(line.contains("--calibrate") && line.contains("at most 3600"), "{bad}: {line}");
    }
}

/// Negative numbers are values of their flag (not unknown flags `-1`), for every integer
/// flag: the line names the flag.
#[test]
fn negative_numbers_name_their_flag() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    let out = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["oware", "solve", "--pits", "0,0,0,0,1,2,1,0,0,0,0,3", "--depth"], "--depth"),
        (vec!["oware", "db", "build", "--dir", out, "--max-stones"], "--max-stones"),
        (vec!["kiothi", "db", "build", "--dir", out, "--max-warriors"], "--max-warriors"),
        (vec!["kiothi", "perft", "--depth"], "--depth"),
        (vec!["kiothi", "solve", "--position", KIOTHI_ENDGAME, "--nodes"], "--nodes"),
        (vec!["kiothi", "solve", "--position", KIOTHI_ENDGAME, "--max-relays"], "--max-relays"),
        (vec!["kiothi", "openings", "--sample", "1", "--depth"], "--depth"),
        (vec!["kiothi", "openings", "--replies", "1", "--sample"], "--sample"),
        (vec!["lukho", "opening", "--id"], "--id"),
        (vec!["lukho", "sample", "--race", "sequential", "--out", out, "--pairs"], "--pairs"),
        (vec!["lukho", "sample", "--race", "sequential", "--out", out, "--pairs", "1", "--seed"], "--seed"),
        (
            vec![
                "lukho",
                "equilibrium",
                "--race",
                "south-first",
                "--payoff",
                "margin",
                "--out",
                out,
                "--max-iterations",
            ],
            "--max-iterations",
        ),
        (vec!["lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--out", out, "--cuts"], "--cuts"),
        (vec!["lukho", "replies", "--south", "0", "--race", "sequential", "--out", out, "--top"], "--top"),
    ];
    for (args, flag) in cases {
        let line = usage_error(mancala().args(&args).arg("-1"));
        assert!(line.contains(&format!("'-1' for '{flag} <")), "{args:?}: {line}");
    }
    assert!(!Path::new(out).exists());
}

/// `--sample N --replies K` whose product overflows a count (a wrapped progress length, or an
/// overflow panic in a debug build) is refused naming both flags.
#[test]
fn openings_sample_size_cannot_overflow() {
    let line =
        usage_error(mancala().args(["kiothi", "openings", "--sample", "18446744073709551615", "--replies", "2"]));
    assert!(line.contains("--sample / --replies") && line.contains("18446744073709551615 × 2"), "{line}");
}

/// `lukho merge` reads each part whole: a device (`/dev/zero`) was read until memory ran out,
/// and a directory gave the OS error. Parts must be regular files, named by the argument.
#[test]
fn merge_parts_are_regular_files() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("mancala");
    let out = dir.path().join("m");
    let mut parts = vec![(dir.path().to_str().unwrap().to_string(), "is a directory; expected a file")];
    if Path::new("/dev/zero").exists() {
        parts.push(("/dev/zero".to_string(), "is not a regular file"));
    }
    parts.push((dir.path().join("none").to_str().unwrap().to_string(), "No such file"));
    for (part, want) in parts {
        // A limit keeps a regression from reading /dev/zero into all of memory.
        let script = format!("ulimit -v 2000000 && exec {} lukho merge --out {} {part}", bin.display(), out.display());
        let mut sh = std::process::Command::new("sh");
        sh.args(["-c", &script]);
        let line = usage_error(&mut assert_cmd::Command::from(sh));
        assert!(line.contains(&format!("invalid value '{part}' for '<PARTS>")) && line.contains(want), "{line}");
    }
    assert!(!out.exists());
}

/// A list flag whose value starts with `-` (`--pits -1,0,…`) was taken for an unknown flag
/// `-1`: now the value is the flag's, and its parser names the flag.
#[test]
fn list_values_starting_with_a_minus_name_their_flag() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    let out = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["oware", "solve", "--pits", "-1,0,0,0,0,0,0,0,0,0,0,0"], "--pits"),
        (vec!["oware", "replay", "--start", "-4,4,4,4,4,4,4,4,4,4,4,4"], "--start"),
        (vec!["oware", "replay", "--moves", "-1,2"], "--moves"),
        (
            vec!["oware", "db", "export", "--dir", out, "--stones", "-1..=3", "--format", "csv", "--out", "x.csv"],
            "--stones",
        ),
        (vec!["lukho", "opening", "--remove", "-1,0,0,0,0,0,0,0", "--drop", "0@0"], "--remove"),
        (
            vec![
                "lukho",
                "play",
                "--south-remove",
                "-1,0,0,0,0,0,0,0",
                "--south-drop",
                "0@0",
                "--north-remove",
                "0,0,0,0,0,0,0,0",
                "--north-drop",
                "0@0",
                "--race",
                "south-first",
            ],
            "--south-remove",
        ),
    ];
    for (args, flag) in cases {
        let line = usage_error(mancala().args(&args));
        assert!(line.starts_with(&format!("error: {flag}")), "{args:?}: {line}");
    }
    assert!(!Path::new(out).exists());
}

/// An output directory that cannot be created (its parent on a virtual file system, here
/// /proc) was a failed write, exit 1; it is a bad path: one line naming the flag, exit 2, and
/// the same for every command that writes into a directory.
#[test]
fn an_output_directory_that_cannot_be_created_is_bad_input() {
    let bad = "/proc/no-such-dir/out";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["oware", "db", "build", "--max-stones", "2", "--dir", bad], "--dir"),
        (vec!["kiothi", "db", "build", "--max-warriors", "1", "--dir", bad], "--dir"),
        (vec!["lukho", "sweep", "--south", "0", "--north", "0", "--race", "sequential", "--out", bad], "--out"),
        (vec!["lukho", "sample", "--pairs", "10", "--race", "sequential", "--out", bad], "--out"),
        (
            vec![
                "lukho",
                "equilibrium",
                "--race",
                "south-first",
                "--payoff",
                "margin",
                "--family",
                "0..3",
                "--out",
                bad,
            ],
            "--out",
        ),
        (vec!["lukho", "replies", "--south", "0", "--race", "sequential", "--family", "0..3", "--out", bad], "--out"),
    ];
    for (args, flag) in cases {
        let line = usage_error(mancala().args(&args));
        assert!(line.starts_with(&format!("error: {flag}: cannot create the directory {bad}")), "{args:?}: {line}");
    }
}

/// `lukho sweep --games csv --out D` with a directory standing at `D/games.csv` replaced it,
/// deleting the files inside, and exited 0. What the run would write over is checked before
/// any game: only regular files (its own, from an earlier run) are replaced.
#[test]
fn a_sweep_does_not_replace_a_directory_at_its_file_names() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("D");
    for name in ["games.csv", "summary.json"] {
        std::fs::create_dir_all(out.join(name)).unwrap();
        std::fs::write(out.join(name).join("inner.txt"), "keep").unwrap();
        let line = usage_error(mancala().args(["lukho", "sweep", "--south", "0", "--north", "0..4"]).args([
            "--race",
            "sequential",
            "--games",
            "csv",
            "--out",
            out.to_str().unwrap(),
        ]));
        assert!(
            line.starts_with("error: --out: ") && line.contains(name) && line.contains("not a regular file"),
            "{line}"
        );
        assert_eq!(std::fs::read_to_string(out.join(name).join("inner.txt")).unwrap(), "keep");
        assert_eq!(entries(&out), vec![name.to_string()], "nothing else written");
        std::fs::remove_dir_all(out.join(name)).unwrap();
    }
    // A link at a file's name is not replaced either (it could lead anywhere).
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), out.join("summary.csv")).unwrap();
    let line = usage_error(
        mancala()
            .args(["lukho", "sweep", "--south", "0", "--north", "0..4", "--race", "sequential", "--out"])
            .arg(&out),
    );
    assert!(line.contains("summary.csv") && line.contains("not a regular file"), "{line}");
    std::fs::remove_file(out.join("summary.csv")).unwrap();
    // Its own files of an earlier run are replaced as before.
    for _ in 0..2 {
        mancala()
            .args(["lukho", "sweep", "--south", "0", "--north", "0..4", "--race", "sequential", "--games", "csv"])
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
    }
    assert!(entries(&out).contains(&"games.csv".to_string()));
}

/// `lukho sample --pairs 10^12` started a job of days silently, where `sweep` asks for
/// `--yes` above 10^10 games: the sample asks the same, with its estimate, before any work.
#[test]
fn a_huge_sample_needs_yes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    for (pairs, race, games) in [
        ("1000000000000", "sequential", "2000000000000 games"),
        ("18446744073709551615", "sequential", "18446744073709551615 games"),
        ("20000000000", "speeds", "at least 20000000000 games"),
    ] {
        let line =
            usage_error(mancala().args(["lukho", "sample", "--pairs", pairs, "--race", race, "--out"]).arg(&out));
        assert!(line.starts_with(&format!("error: --pairs: {pairs} pairs play {games}")), "{line}");
        assert!(line.contains("core-hours") && line.contains("--yes"), "{line}");
    }
    assert!(!out.exists());
    let help = common::stdout(&["lukho", "sample", "--help"]);
    assert!(help.contains("--yes") && help.contains("cannot resume"), "{help}");
}
