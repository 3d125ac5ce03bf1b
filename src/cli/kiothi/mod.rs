//! `mancala kiothi …`: replay, perft, exact opening counts and seeded opening samples,
//! endgame tables, solve (alpha-beta). Parsing and printing only: the work is in
//! `mancala::games::kiothi`, `mancala::solve::kiothi`, `mancala::solve::kiothi_openings` and
//! `mancala::retro::kiothi`.

mod db;
mod openings;
mod perft;
mod replay;
mod solve;

use super::usage;
use anyhow::Result;
use clap::{Args, Subcommand};
use mancala::games::kiothi::{KiothiError, NkiClear, Position, Redistribute, Rules, Setup};
use std::io::Read;

#[derive(Args)]
pub struct KiothiArgs {
    #[command(subcommand)]
    cmd: Cmd,
}

/// Rule variants (docs/rules/kiothi.md K1, K2, K3, K7). Written into every output.
#[derive(Args, Clone, Copy)]
struct RuleFlags {
    /// K1: starting layout (6 boma × 5, 5 × 5, 5 × 6 warriors per side).
    #[arg(long, value_parser = super::args::variant::<Setup>(), default_value = "6x5")]
    setup: Setup,
    /// K2: how many boma a redistribution empties.
    #[arg(long, value_parser = super::args::variant::<Redistribute>(), default_value = "exactly-2")]
    redistribute: Redistribute,
    /// K3: what clears an nki boma.
    #[arg(long, value_parser = super::args::variant::<NkiClear>(), default_value = "lift")]
    nki_clear: NkiClear,
    /// K7: allow at most N relays per move (default: unbounded, exact cycle detection).
    #[arg(long)]
    max_relays: Option<u64>,
}

impl RuleFlags {
    fn rules(&self) -> Rules {
        Rules {
            setup: self.setup,
            redistribute: self.redistribute,
            nki_clear: self.nki_clear,
            max_relays: self.max_relays,
        }
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Play moves from the start (or a position): the board reached and its state and legal moves
    /// as JSON (with --jsonl, every ply's).
    ///
    /// Moves are separated by spaces: `B:K` lifts K warriors from own boma B; a redistribution
    /// (turns 1 and 2) is `E1,E2>A*C,…`: the emptied own boma, then each absolute boma A
    /// receiving C warriors.
    #[command(
        after_help = "Example: mancala kiothi replay --moves \"4,5>0*2,1*1,3*2,12*1,15*4 4,9>0*1,5*3,10*2,17*4 9:3\" --jsonl"
    )]
    Replay(replay::ReplayArgs),
    /// Count the leaves of the move tree to a depth (perft); `--divide` per first move.
    Perft(perft::PerftArgs),
    /// Endgame tables: every position after the opening with up to N warriors on the board.
    Db(db::DbArgs),
    /// Value (net warriors of those on the board, mover's view), every best move and a
    /// perfect-play line of a position at turn 3 or later, by alpha-beta search.
    ///
    /// Without limits the answer is exact; with --depth, --time or --nodes it may be bounds
    /// ("exact": false, "lower", "upper"). Turns 1 and 2 (redistributions) are refused.
    #[command(after_help = "Example: mancala kiothi solve --position examples/kiothi/endgame10.json --json")]
    Solve(solve::SolveArgs),
    /// Exact numbers of redistribution choices on turns 1 and 2 (`--count`), or a seeded
    /// sample of openings evaluated by search (`--sample N`).
    ///
    /// `--sample N` draws N South redistributions uniformly among all turn-1 moves, and for
    /// each `--replies K` North redistributions uniformly among his turn-2 moves; each turn-3
    /// position gets the capture balance within `--depth` plies (a heuristic: net warriors
    /// South captures in that horizon with best play) and the proven interval of the game
    /// value from alpha-beta of the same depth. Rows go to `--out` (CSV), a summary to stdout.
    #[command(
        after_help = "Example: mancala kiothi openings --sample 20 --replies 4 --seed 1 --depth 5 --time 5 --out openings.csv"
    )]
    Openings(openings::OpeningsArgs),
}

pub fn run(a: KiothiArgs) -> Result<()> {
    match a.cmd {
        Cmd::Replay(a) => replay::replay(a),
        Cmd::Perft(a) => perft::perft(a),
        Cmd::Db(a) => db::run(a),
        Cmd::Solve(a) => solve::solve(a),
        Cmd::Openings(a) => openings::openings(a),
    }
}

/// Bad input from the library (it names the field) becomes a usage error.
fn bad<T>(e: KiothiError) -> Result<T> {
    usage(e.to_string())
}

/// Most bytes `--position` reads: a state is a few hundred bytes, and the bound keeps a wrong
/// file (`/dev/zero`, a database) from being read until memory runs out.
const MAX_POSITION_BYTES: u64 = 1 << 20;

/// The position of `--position` (a state JSON file, `-` for stdin), checked; without one the
/// setup's start. Every refusal is one line naming `--position`.
fn load(position: Option<String>, rules: &Rules) -> Result<Position> {
    let Some(src) = position else { return Ok(rules.start()) };
    let name = if src == "-" { "standard input" } else { &src };
    let form = "expected a state object {\"game\":\"kiothi\",\"pits\":[20 counts],…}";
    let mut bytes = Vec::new();
    let read = if src == "-" {
        std::io::stdin().lock().take(MAX_POSITION_BYTES + 1).read_to_end(&mut bytes)
    } else if std::path::Path::new(&src).is_dir() {
        return usage(format!("--position: {src} is a directory; {form}"));
    } else {
        std::fs::File::open(&src).and_then(|f| f.take(MAX_POSITION_BYTES + 1).read_to_end(&mut bytes))
    };
    if let Err(e) = read {
        return usage(format!("--position: {name}: {e}"));
    }
    if bytes.len() as u64 > MAX_POSITION_BYTES {
        return usage(format!("--position: {name} is larger than {MAX_POSITION_BYTES} bytes; {form}"));
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return usage(format!("--position: {name} is not UTF-8 text; {form}"));
    };
    Position::from_state_text(&text).map_err(super::args::input)
}
