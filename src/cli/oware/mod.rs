//! `mancala oware …`: replay, databases (build, verify, stats, export), solve. Parsing and
//! printing only: the work is in `mancala::games::oware`, `mancala::solve::oware` and
//! `mancala::retro::oware`.

mod db;
mod replay;
mod solve;

use anyhow::Result;
use clap::{Args, Subcommand};
use mancala::games::oware::{self, Cycle, GrandSlam, Rules, View};

#[derive(Args)]
pub struct OwareArgs {
    #[command(subcommand)]
    cmd: Cmd,
}

/// Rule variants (docs/rules/oware.md O4, O8). Written into every output.
#[derive(Args, Clone, Copy)]
struct RuleFlags {
    /// O4: a move whose captures would take all the opponent's seeds.
    #[arg(long, value_parser = super::args::variant::<GrandSlam>(), default_value = "no-capture")]
    grand_slam: GrandSlam,
    /// O8: what a repeated position does (databases need `split`).
    #[arg(long, value_parser = super::args::variant::<Cycle>(), default_value = "split")]
    cycle: Cycle,
}

impl RuleFlags {
    fn rules(&self) -> Rules {
        Rules { grand_slam: self.grand_slam, cycle: self.cycle }
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Play a sequence of moves and print the game ply by ply.
    ///
    /// Each line (with --jsonl) is the state before a move: ply, to_move, pits (absolute:
    /// South 0..5 then North 0..5), stores, legal (own indices), terminal, move.
    #[command(after_help = "Example: mancala oware replay --moves 5,0,3 --jsonl")]
    Replay(replay::ReplayArgs),
    /// Endgame databases: every position with up to N seeds on the board, exact values.
    Db(db::DbArgs),
    /// Exact value, every best move and a perfect-play line of a position.
    ///
    /// The value is the net number of the seeds on the board that the mover captures under
    /// perfect play (captured counts do not matter). Positions the database covers are read
    /// off it; others are searched (alpha-beta) with the database probed at captures into it.
    #[command(after_help = "Example: mancala oware solve --pits 0,0,0,0,1,2,1,0,0,0,0,3 --db /tmp/db --json")]
    Solve(solve::SolveArgs),
}

pub fn run(a: OwareArgs) -> Result<()> {
    match a.cmd {
        Cmd::Replay(a) => replay::replay(a),
        Cmd::Solve(a) => solve::solve(a),
        Cmd::Db(a) => db::run(a),
    }
}

/// Parse 12 counts; `field` names the flag in errors.
/// `--pits`/`--start`: the library's parser, its error naming the flag.
fn parse_pits(field: &'static str, s: &str) -> Result<View> {
    oware::parse_pits(field, s).map_err(crate::cli::args::input)
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::cli::fuzz::check;
    use proptest::prelude::*;

    /// `--pits` and `--start`: any text is a `View` of at most 48 seeds or a one-line error
    /// naming the flag; a view printed back reads as itself.
    #[test]
    fn pits_never_panic() {
        let text = prop_oneof![
            any::<String>(),
            "([ ]?[0-9]{1,3}[ ]?,){9,12}[0-9]{0,3}",
            "(0,){11}[0-9]{1,25}",
            "([0-4],){11}[0-4]",
            "([0-9٣５+-]{0,3}[,;]?){0,14}",
        ];
        check("cli oware --pits/--start", 3000, text, |s| {
            match parse_pits("pits", &s) {
                Ok(v) => {
                    prop_assert!(oware::seeds(&v) <= oware::TOTAL_SEEDS);
                    let printed: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                    prop_assert_eq!(parse_pits("pits", &printed.join(",")).ok(), Some(v));
                }
                Err(e) => {
                    let line = e.to_string();
                    prop_assert!(line.starts_with("--pits: ") && !line.contains('\n'), "{}", line);
                }
            }
            Ok(())
        });
    }
}
