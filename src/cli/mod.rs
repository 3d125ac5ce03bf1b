//! Command-line layer: clap commands, progress bars, exit codes and error text.
//!
//! Exit codes: 0 success, 2 bad input (one line on stderr naming the field), 1 other failures.

mod args;
mod bench;
#[cfg(feature = "mpi")]
mod distributed;
#[cfg(test)]
mod fuzz;
mod kiothi;
mod layer_db;
mod lukho;
mod oware;
mod progress;
mod serve;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "mancala",
    version,
    about = "Exhaustive solvers and analysis datasets for mancala games",
    long_about = "Exhaustive solvers and analysis datasets for mancala games: Oware (Abapa) endgame \
databases and an exact solver, Lukho opening sweeps, Kiothi search and tables.\n\n\
Rules are fixed in the rule book, docs/rules/ in the repository; every variant is a flag and is written into every output."
)]
struct Cli {
    #[command(subcommand)]
    game: Game,
}

#[derive(Subcommand)]
enum Game {
    /// Oware (Abapa): replay games, build and check endgame databases, solve positions.
    Oware(oware::OwareArgs),
    /// Kiothi (Meru): replay, perft, opening counts and samples, endgame tables, solve.
    Kiothi(kiothi::KiothiArgs),
    /// Lukho (Bukusu): play games, choice ids, race outcomes, opening sweeps and samples, the
    /// opening's equilibrium, best replies.
    Lukho(lukho::LukhoArgs),
    /// The web oracle: a page to play Oware against perfect play, step through Lukho games,
    /// browse the opening results and solve Kiothi positions, with its JSON API (docs/api.md).
    #[command(after_help = "Example: mancala serve --db /tmp/db --port 8080   (then open http://127.0.0.1:8080/)")]
    Serve(serve::ServeArgs),
    /// The signature run: a fixed small workload of each engine (a database build, a search, a
    /// perft, a sweep, an equilibrium), one number each that changes when what the engine
    /// computes changes, and one for the whole run (tests/signature.rs holds this build's).
    #[command(after_help = "Example: mancala bench")]
    Bench(bench::BenchArgs),
}

/// An error the user caused: printed as one line, exit status 2.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for Usage {}

pub fn usage<T>(msg: impl Into<String>) -> anyhow::Result<T> {
    Err(Usage(msg.into()).into())
}

pub fn run() -> i32 {
    let parsed = negative_numbers_are_values(Cli::command()).try_get_matches().and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        // A bare `mancala oware` shows the help of what could follow: more useful than a line.
        Err(e) if e.use_stderr() && e.kind() != clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!("{}", clap_one_line(&e.render().to_string()));
            return 2;
        }
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let r = match cli.game {
        Game::Oware(a) => oware::run(a),
        Game::Kiothi(a) => kiothi::run(a),
        Game::Lukho(a) => lukho::run(a),
        Game::Serve(a) => serve::serve(a),
        Game::Bench(a) => bench::bench(a),
    };
    match r {
        Ok(()) => 0,
        Err(e) => report(&e),
    }
}

/// Print an error as its one line and return the exit code: 2 for bad input (a wrong flag
/// value, a damaged or foreign file, a directory another run holds), 1 for a failed read or
/// write.
pub fn report(e: &anyhow::Error) -> i32 {
    let usage = e.downcast_ref::<Usage>().is_some()
        || e.downcast_ref::<mancala::store::layer_file::DbError>()
            .is_some_and(|d| !matches!(d, mancala::store::layer_file::DbError::Io { .. }))
        // A file another run is writing (`AtomicFile`'s lock): the user's to sort out.
        || e.chain().any(|c| {
            c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::WouldBlock)
        });
    eprintln!("error: {}", one_line(&format!("{e:#}")));
    if usage {
        2
    } else {
        1
    }
}

/// `--time -1` is a bad value of `--time`, not an unknown flag `-1`: every command takes a
/// leading `-` and digits as a value, so the error names the flag and what it accepts.
fn negative_numbers_are_values(cmd: clap::Command) -> clap::Command {
    cmd.allow_negative_numbers(true).mut_subcommands(negative_numbers_are_values)
}

/// clap's parse errors as the one line the bad-input contract promises: the error and any
/// tip, without the usage block and the pointer to `--help`.
fn clap_one_line(text: &str) -> String {
    let kept: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .collect();
    kept.join("; ").replace(":; ", ": ")
}

fn one_line(s: &str) -> String {
    s.replace('\n', " ")
}
