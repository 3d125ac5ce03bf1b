//! Every command of README.md and of docs/**/*.md, run as written with the binary under test.
//!
//! **What is a command.** A line of an indented (4 spaces) code block, or of a fenced block with
//! no language or `sh`/`bash`/`shell`/`console`, whose text starts with `mancala ` or
//! `cargo run --release -- `; a trailing `\` joins the next line. An unquoted `#` at the start
//! of a word begins a comment. Synopses are written `Usage: mancala …` and are not commands.
//!
//! **How it runs.** The commands of one document run in order in one temporary directory (its
//! current directory), so `db build --dir /tmp/db` then `db verify --dir /tmp/db` works:
//! `/tmp/` in any argument becomes that directory. `mancala` / `cargo run --release --` become
//! the test's binary (`CARGO_BIN_EXE_mancala`). Arguments naming files of this repository
//! (`examples/…`, `tests/data/…`, `results/…`, `docs/…`) become absolute paths (a command
//! that would write there fails the test). An unquoted argument with `*` is expanded as the
//! shell would (it must match a file). Each command must exit 0.
//!
//! **Rules.**
//! - A command whose comment says `[long]` runs with the substitutions of [`LONG`] (each row
//!   replaces a text of the command; a `[long]` command no row applies to fails the test, and
//!   every row must be used).
//! - `mancala serve` runs with `--port 0`; it must print `listening on http://…` and answer
//!   `GET /api/info` with 200, then it is stopped.
//! - Skipped by rule: commands that need a cargo feature this test does not build
//!   (`--distributed`: `mpi`; `parquet`: `parquet`), and lines run through `mpirun`, `srun`,
//!   `sbatch`, `pip` or `python` (counted, not run).
//! - Skipped by name: [`SKIP`], which must stay short (at most 3) and whose every entry must
//!   match a command.
//!
//! `cargo test --release --test docs_commands -- --nocapture` prints each command and its time
//! (about 45 s on 2 busy cores). Ignored in the debug profile, where it would take many minutes.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Substitutions for commands marked `[long]`: (text in the command, replacement, why).
const LONG: &[(&str, &str, &str)] = &[
    ("--max-stones 20", "--max-stones 12", "Oware 0..=20 is ~1 min and 0.4 GB; 0..=12 ~1 s"),
    ("--max-warriors 8", "--max-warriors 6", "Kiothi tables to 8 warriors take minutes; 6 ~1 s"),
    (
        "--sample 12 --replies 3 --seed 1 --depth 5 --time 10",
        "--sample 2 --replies 1 --seed 1 --depth 3",
        "the depth-5 sample is ~15 min",
    ),
    ("--south all --north 0", "--south 0..65536 --north 0", "all 6,356,992 choices: 3 s idle, ~1 min loaded"),
    ("--south 17,4242,999999", "--south 17", "each South choice is a sweep of 12.7 M games"),
];

/// Commands skipped by name: (document, start of the command, why). Keep it short.
const SKIP: &[(&str, &str, &str)] = &[];

/// Lines run through these are not run (they need tools or builds the test does not have).
const RULE_PREFIXES: &[&str] = &["mpirun ", "srun ", "sbatch ", "pip ", "python ", "python3 "];

#[derive(Debug, Clone, PartialEq)]
struct Word {
    text: String,
    quoted: bool,
}

#[derive(Debug)]
struct Cmd {
    line: usize,
    /// The command as written (continuations joined, comment removed).
    text: String,
    comment: String,
}

#[derive(Debug, PartialEq)]
enum Line {
    Cmd(String),
    /// A line run through mpirun, pip, … that names mancala.
    Rule(String),
}

/// Split a command line as a POSIX shell would for our purposes: words, quotes, a comment.
fn split(s: &str) -> (Vec<Word>, String) {
    let mut words = Vec::new();
    let mut cur = String::new();
    let (mut in_word, mut quoted) = (false, false);
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' if !in_word => return (words, s[i + 1..].trim().to_string()),
            c if c.is_whitespace() => {
                if in_word {
                    words.push(Word { text: std::mem::take(&mut cur), quoted });
                    (in_word, quoted) = (false, false);
                }
            }
            '\'' | '"' => {
                in_word = true;
                quoted = true;
                for (_, d) in chars.by_ref() {
                    if d == c {
                        break;
                    }
                    cur.push(d);
                }
            }
            '\\' => {
                in_word = true;
                if let Some((_, d)) = chars.next() {
                    cur.push(d);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(Word { text: cur, quoted });
    }
    (words, String::new())
}

/// The command lines of a markdown document, with their line numbers (1-based).
fn extract(md: &str) -> Vec<(usize, Line)> {
    let lines: Vec<&str> = md.lines().collect();
    let mut out = Vec::new();
    let mut fence: Option<bool> = None; // Some(runs shell?) inside a fenced block
    let mut i = 0;
    while i < lines.len() {
        let raw = lines[i];
        let t = raw.trim_start();
        if t.starts_with("```") {
            fence = match fence {
                Some(_) => None,
                None => {
                    let lang = t.trim_start_matches('`').trim();
                    Some(matches!(lang, "" | "sh" | "bash" | "shell" | "console"))
                }
            };
            i += 1;
            continue;
        }
        let code = match fence {
            Some(shell) => shell,
            None => raw.starts_with("    ") || raw.starts_with('\t'),
        };
        let start = i;
        i += 1;
        if !code {
            continue;
        }
        let t = t.strip_prefix("$ ").unwrap_or(t);
        let is_cmd = t.starts_with("mancala ") || t.starts_with("cargo run --release -- ");
        let is_rule = RULE_PREFIXES.iter().any(|p| t.starts_with(p)) && t.contains("mancala");
        if !is_cmd && !is_rule {
            continue;
        }
        let mut text = t.trim_end().to_string();
        while text.ends_with('\\') && i < lines.len() {
            text.pop();
            text.push(' ');
            text.push_str(lines[i].trim());
            i += 1;
        }
        out.push((start + 1, if is_cmd { Line::Cmd(text) } else { Line::Rule(text) }));
    }
    out
}

fn command(line: usize, written: &str) -> Cmd {
    let (words, comment) = split(written);
    let text = words
        .iter()
        .map(|w| if w.quoted { format!("'{}'", w.text) } else { w.text.clone() })
        .collect::<Vec<_>>()
        .join(" ");
    Cmd { line, text, comment }
}

fn docs(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root.join("README.md")];
    walk(&root.join("docs"), &mut out);
    out
}

/// Does `name` match the shell pattern `pat` (`*` and `?` only)?
fn matches(pat: &[u8], name: &[u8]) -> bool {
    match (pat.first(), name.first()) {
        (None, None) => true,
        (Some(b'*'), _) => matches(&pat[1..], name) || (!name.is_empty() && matches(pat, &name[1..])),
        (Some(b'?'), Some(_)) => matches(&pat[1..], &name[1..]),
        (Some(a), Some(b)) if a == b => matches(&pat[1..], &name[1..]),
        _ => false,
    }
}

fn glob(word: &str, cwd: &Path) -> Result<Vec<String>, String> {
    let (dir, pat) = word.rsplit_once('/').unwrap_or((".", word));
    if dir.contains('*') {
        return Err(format!("{word}: only the last component may hold a pattern"));
    }
    let base = cwd.join(dir);
    let mut hits: Vec<String> = std::fs::read_dir(&base)
        .map_err(|e| format!("{word}: {e}"))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && matches(pat.as_bytes(), n.as_bytes()))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    hits.sort();
    if hits.is_empty() {
        return Err(format!("{word}: matches nothing"));
    }
    Ok(hits)
}

const OUTPUT_FLAGS: &[&str] = &["--out", "--csv", "--svg", "--histogram-csv", "--dir"];
const REPO_INPUTS: &[&str] = &["examples/", "tests/data/", "results/", "docs/"];

/// The argument vector the test runs for a command (without the program).
fn argv(text: &str, root: &Path, tmp: &Path) -> Result<Vec<String>, String> {
    let (words, _) = split(text);
    let skip = if words.first().is_some_and(|w| w.text == "mancala") { 1 } else { 4 };
    let tmp_prefix = format!("{}/", tmp.display());
    let mut out: Vec<String> = Vec::new();
    for w in &words[skip..] {
        let mut a = w.text.replace("/tmp/", &tmp_prefix);
        if REPO_INPUTS.iter().any(|p| a.starts_with(p)) {
            if out.last().is_some_and(|f| OUTPUT_FLAGS.contains(&f.as_str())) {
                return Err(format!("{a}: a documented command must not write into the repository"));
            }
            a = root.join(&a).display().to_string();
        }
        if !w.quoted && a.contains('*') {
            out.extend(glob(&a, tmp)?);
        } else {
            out.push(a);
        }
    }
    Ok(out)
}

/// `mancala serve …`: start it, read its address, ask `/api/info`, stop it.
fn run_serve(bin: &str, mut args: Vec<String>, cwd: &Path) -> Result<(), String> {
    match args.iter().position(|a| a == "--port") {
        Some(i) if i + 1 < args.len() => args[i + 1] = "0".into(),
        _ => args.extend(["--port".into(), "0".into()]),
    }
    let mut child = Command::new(bin)
        .args(&args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let result = (|| {
        let line = rx.recv_timeout(Duration::from_secs(60)).map_err(|_| "no address printed in 60 s".to_string())?;
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .ok_or(format!("first line {line:?}"))?
            .trim_end_matches('/')
            .to_string();
        let mut s = std::net::TcpStream::connect(&addr).map_err(|e| format!("{addr}: {e}"))?;
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(s, "GET /api/info HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").map_err(|e| e.to_string())?;
        let mut answer = String::new();
        s.read_to_string(&mut answer).map_err(|e| e.to_string())?;
        if !answer.starts_with("HTTP/1.1 200") {
            return Err(format!("GET /api/info: {}", answer.lines().next().unwrap_or("")));
        }
        Ok(())
    })();
    let _ = child.kill();
    let _ = child.wait();
    result
}

#[derive(Default)]
struct Tally {
    run: usize,
    shrunk: usize,
    rule: usize,
    named: usize,
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "unoptimised, the documented sizes take many minutes: it runs in the release suite (`cargo test --release`)"
)]
fn every_documented_command_runs_as_written() {
    assert!(SKIP.len() <= 3, "the skip list must stay short");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = env!("CARGO_BIN_EXE_mancala");
    let mut long_used = vec![false; LONG.len()];
    let mut skip_used = vec![false; SKIP.len()];
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    let started = Instant::now();
    for doc in docs(root) {
        let name = doc.strip_prefix(root).unwrap().display().to_string();
        let md = std::fs::read_to_string(&doc).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        for (line, l) in extract(&md) {
            let written = match l {
                Line::Rule(text) => {
                    eprintln!("{name}:{line}: skipped by rule (runner): {text}");
                    tally.rule += 1;
                    continue;
                }
                Line::Cmd(text) => text,
            };
            let mut cmd = command(line, &written);
            let at = format!("{name}:{}", cmd.line);
            if let Some(k) = SKIP.iter().position(|(d, start, _)| *d == name && cmd.text.starts_with(start)) {
                skip_used[k] = true;
                tally.named += 1;
                eprintln!("{at}: skipped by name ({}): {}", SKIP[k].2, cmd.text);
                continue;
            }
            let (words, _) = split(&cmd.text);
            let feature = if words.iter().any(|w| w.text == "--distributed") {
                Some("mpi")
            } else if words.iter().any(|w| w.text == "parquet") {
                Some("parquet")
            } else {
                None
            };
            if let Some(f) = feature {
                eprintln!("{at}: skipped by rule (feature {f}): {}", cmd.text);
                tally.rule += 1;
                continue;
            }
            if cmd.comment.contains("[long]") {
                let mut applied = false;
                for (k, (from, to, _)) in LONG.iter().enumerate() {
                    if cmd.text.contains(from) {
                        cmd.text = cmd.text.replace(from, to);
                        long_used[k] = true;
                        applied = true;
                    }
                }
                if !applied {
                    failures.push(format!("{at}: marked [long] but no row of LONG applies: {}", cmd.text));
                    continue;
                }
                tally.shrunk += 1;
            }
            let args = match argv(&cmd.text, root, tmp.path()) {
                Ok(a) => a,
                Err(e) => {
                    failures.push(format!("{at}: {e}"));
                    continue;
                }
            };
            let t = Instant::now();
            let result = if args.first().is_some_and(|a| a == "serve") {
                run_serve(bin, args, tmp.path())
            } else {
                let out = Command::new(bin).args(&args).current_dir(tmp.path()).stdin(Stdio::null()).output().unwrap();
                if out.status.success() {
                    Ok(())
                } else {
                    let err = String::from_utf8_lossy(&out.stderr);
                    let tail: Vec<&str> = err.lines().rev().take(5).collect();
                    Err(format!("{}: {}", out.status, tail.into_iter().rev().collect::<Vec<_>>().join(" | ")))
                }
            };
            tally.run += 1;
            eprintln!("{at}: {:6.2} s  {}", t.elapsed().as_secs_f64(), cmd.text);
            if let Err(e) = result {
                failures.push(format!("{at}: `{}`: {e}", cmd.text));
            }
        }
    }
    for (k, used) in long_used.iter().enumerate() {
        if !used {
            failures.push(format!("LONG row {:?} matches no [long] command: remove it", LONG[k].0));
        }
    }
    for (k, used) in skip_used.iter().enumerate() {
        if !used {
            failures.push(format!("SKIP entry {:?} matches no command: remove it", SKIP[k]));
        }
    }
    eprintln!(
        "{} commands run ({} of them [long], at a smaller size), {} skipped by rule, {} by name, in {:.1} s",
        tally.run,
        tally.shrunk,
        tally.rule,
        tally.named,
        started.elapsed().as_secs_f64()
    );
    assert!(tally.run >= 40, "only {} commands found: is the extraction broken?", tally.run);
    assert!(failures.is_empty(), "{} documented commands failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn extraction_joins_lines_and_drops_comments() {
    let md = "text\n\n    mancala a --b 'x*' \\\n        --c 1   # note [long]\n    cargo build\n\
              ```python\nmancala not a command\n```\n```sh\n$ mancala d\n```\n    mpirun -np 2 mancala e\n\
              \n    Usage: mancala f DIR\n";
    let got = extract(md);
    assert_eq!(
        got,
        vec![
            (3, Line::Cmd("mancala a --b 'x*'  --c 1   # note [long]".into())),
            (10, Line::Cmd("mancala d".into())),
            (12, Line::Rule("mpirun -np 2 mancala e".into())),
        ]
    );
    let c = command(3, "mancala a --b 'x*'  --c 1   # note [long]");
    assert_eq!(c.text, "mancala a --b 'x*' --c 1");
    assert_eq!(c.comment, "note [long]");
    let (w, _) = split(&c.text);
    assert_eq!(w[3], Word { text: "x*".into(), quoted: true });
    assert!(matches(b"part-*.lukho", b"part-00001-of-00002.lukho"));
    assert!(!matches(b"part-*.lukho", b"part-1.json"));
}
