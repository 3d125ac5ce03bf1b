//! `mancala lukho …`: play one game, choice ids, speeds outcomes, opening sweeps and merges,
//! samples, the opening game's equilibrium and best replies. Parsing and printing only: the
//! work is in `mancala::games::lukho`, `mancala::sweep` and `mancala::opening_game`.

mod equilibrium;
mod exploit;
mod opening;
mod play;
mod replies;
mod sample;
mod sweep;

use super::args::{flag, set_threads, threads, Threads};
use super::usage;
use anyhow::Result;
use clap::{Args, Subcommand};
use mancala::games::lukho::{Chain, Choice, ChoiceError, Races, Rules};
use mancala::opening_game::{OpeningGame, Payoff};
use mancala::sweep::Spec;

/// The race names every Lukho command explains in its `--help`: each command accepts the
/// ones its work can use (a game one outcome; sweeps and samples a model too; the opening
/// game a model whose outcomes do not depend on the pair).
macro_rules! race_help {
    (outcomes) => {
        "How the two opening sowings race (rule book L8): both players sow at once and the first to \
         finish moves first; a player who sows nothing finishes at once, so he moves first.\n\n\
         One outcome:\n  \
         south-first     South's whole sowing, then North's\n  \
         north-first     North's whole sowing, then South's\n  \
         lockstep-south  one seed each per tick, South's first in every tick\n  \
         lockstep-north  one seed each per tick, North's first in every tick\n"
    };
    (models) => {
        concat!(
            race_help!(outcomes),
            "\nA model (its outcomes are played as separate games of each pair):\n  \
             sequential      south-first and north-first\n  \
             lockstep        lockstep-south and lockstep-north\n"
        )
    };
    (speeds) => {
        concat!(
            race_help!(models),
            "  speeds          every interleaving of constant sowing speeds (`lukho races` lists a pair's; \
             how many depends on the pair)\n"
        )
    };
    (label) => {
        concat!(
            race_help!(outcomes),
            "  speeds:K        the K-th outcome of constant sowing speeds for this pair (`lukho races` lists them)\n"
        )
    };
}
pub(crate) use race_help;

#[derive(Args)]
pub struct LukhoArgs {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play one game: both openings, the race, the forced turns; print the result.
    #[command(after_help = "Example: mancala lukho play --south-remove 0,0,0,0,0,0,0,1 --south-drop 0@0 \
--north-remove 0,0,0,0,0,0,0,0 --north-drop 0@0 --race south-first --json")]
    Play(play::PlayArgs),
    /// A choice id and its choice (removal + drop), both ways, with a diagram.
    #[command(
        after_help = "Examples: mancala lukho opening --id 12345\n          mancala lukho opening --remove 3,0,0,0,0,0,0,0 --drop 2@5"
    )]
    Opening(opening::OpeningArgs),
    /// Every race outcome of the `speeds` model for a pair, with its ρ = v_South/v_North interval.
    Races(play::RacesArgs),
    /// Every South choice of a set against every North choice of a set, under every race
    /// outcome of a model; one summary row per South choice.
    ///
    /// SPEC := all | N | A..B | A..=B | N,M,… with optional filters joined by ':':
    /// remove=r0…r7 (a digit 0..3 or * per own pit), drop=D or drop=A..B, pit=J (drop pit,
    /// drops of at least one seed). Output in --out: summary.csv, summary.jsonl, summary.json
    /// (and games.csv|jsonl with --games); with --shard, one checksummed part file to merge.
    #[command(
        after_help = "Examples: mancala lukho sweep --south 0..10 --north all:drop=0 --race sequential --out /tmp/sw\n          \
mancala lukho sweep --south all --north all --race sequential --shard 3/1000 --out /scratch/sw\n          \
mancala lukho sweep --south 0 --north all --race sequential --dry-run"
    )]
    Sweep(sweep::SweepArgs),
    /// A uniform random sample of opening pairs (seeded, reproducible): margin distribution,
    /// first-mover advantage, cycle and perpetual rates, with 95 % confidence intervals.
    ///
    /// Pair i is drawn from (seed, i) alone, so the sample does not depend on threads. Writes
    /// DIR/sample.json, DIR/margins.csv and DIR/margins.svg.
    #[command(
        after_help = "Example: mancala lukho sample --pairs 1000000 --seed 1 --race sequential --out /tmp/sample"
    )]
    Sample(sample::SampleArgs),
    /// The opening as a simultaneous zero-sum game: its value and an optimal mixed opening
    /// for each player, by double oracle, with an exploitability certificate.
    ///
    /// Each iteration solves the restricted matrix game by LP, then sweeps each player's best
    /// reply over every choice of the family; it stops when neither gains (upper − lower <=
    /// 1e-6). --race sequential|lockstep: the model's outcomes are chance at equal weights
    /// (a symmetric game, value 0); an outcome name fixes it. Resumable: DIR keeps the state
    /// and the swept payoff vectors; rerun the same command to continue. Writes
    /// DIR/equilibrium.json.
    #[command(
        after_help = "Examples: mancala lukho equilibrium --race south-first --payoff margin --family 'all:remove=000000**' --out /tmp/eq\n          \
mancala lukho equilibrium --race sequential --payoff result --out /scratch/eq-seq --time 3600"
    )]
    Equilibrium(equilibrium::EquilibriumArgs),
    /// North's best replies to a set of South choices over the whole family, and the most
    /// common one: the North choice that is a best reply to the most of them.
    ///
    /// Each South choice costs one sweep of the family (12.7 M games for `all` under
    /// `sequential`); its row is saved in DIR like an equilibrium run's vectors (DIR may be
    /// one), so a rerun or a larger set resumes. Ties: lowest mean payoff to South over the
    /// set, then lowest id. Writes DIR/replies.json, replies-top.csv, replies-south.csv.
    #[command(
        after_help = "Example: mancala lukho replies --south 21263,96375,677159 --race sequential --out /tmp/replies\n         \
then: mancala lukho sweep --south all --north <most common id> --race sequential --out /tmp/vs-reply"
    )]
    Replies(replies::RepliesArgs),
    /// How far the mixed openings of an equilibrium answer can be exploited under a payoff:
    /// each mix against a best reply over the whole family.
    ///
    /// Measures what a player who uses the optimal mix of one payoff gives away in another (the
    /// seed-optimal mix in match points, and the reverse). Each member of the mixes costs one
    /// sweep of the family (12.7 M games for `all` under `sequential`), saved in DIR like an
    /// equilibrium run's vectors (DIR may be one of the same payoff), so a rerun resumes.
    #[command(
        after_help = "Example: mancala lukho exploit --mix results/lukho/equilibrium/full-sequential-margin/equilibrium.json \\\n           --race sequential --payoff points --out /tmp/margin-in-points"
    )]
    Exploit(exploit::ExploitArgs),
    /// Combine the part files of a sharded sweep: same sweep, rules and version, every South
    /// position exactly once; writes the summaries as an unsharded run would.
    Merge(sweep::MergeArgs),
}

pub fn run(a: LukhoArgs) -> Result<()> {
    match a.cmd {
        Cmd::Play(a) => play::play(a),
        Cmd::Opening(a) => opening::opening(a),
        Cmd::Races(a) => play::races(a),
        Cmd::Sweep(a) => sweep::sweep(a),
        Cmd::Merge(a) => sweep::merge(a),
        Cmd::Sample(a) => sample::sample(a),
        Cmd::Equilibrium(a) => equilibrium::equilibrium(a),
        Cmd::Replies(a) => replies::replies(a),
        Cmd::Exploit(a) => exploit::exploit(a),
    }
}

/// Rule variants (docs/rules/lukho.md). Written into every output.
#[derive(Args, Clone)]
struct RuleFlags {
    /// What follows a capture (docs/rules/lukho.md L4).
    #[arg(long, value_parser = super::args::variant::<Chain>(), default_value = "it")]
    chain: Chain,
    /// The opening drop must leave at least one seed to sow.
    #[arg(long)]
    keep_one: bool,
}

impl RuleFlags {
    fn rules(&self) -> Rules {
        Rules { chain: self.chain, keep_one: self.keep_one }
    }
}

/// The opening game of `equilibrium`, `replies` and `exploit`: how the sowings race, the
/// family both players choose from, and the rules.
#[derive(Args)]
struct GameFlags {
    /// sequential | lockstep (outcomes as chance events at equal weights), or one outcome:
    /// south-first, north-first, lockstep-south, lockstep-north.
    #[arg(long, long_help = concat!(race_help!(models), "\nHere a model's outcomes are chance events at equal weights (speeds is not accepted: its outcomes depend on the pair)."))]
    race: Races,
    /// The family: both players' choices, and where best replies are searched; a SPEC
    /// (default all 6,356,992).
    #[arg(long, default_value = "all")]
    family: Spec,
    #[command(flatten)]
    rules: RuleFlags,
}

impl GameFlags {
    /// The opening game these flags define, paid in `payoff`.
    fn game(self, payoff: Payoff) -> OpeningGame {
        OpeningGame { rules: self.rules.rules(), model: self.race, payoff, family: self.family }
    }
}

/// How a run reports and on how many threads it works.
#[derive(Args)]
struct RunFlags {
    /// Print the run's report as JSON.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = threads)]
    threads: Option<Threads>,
}

impl RunFlags {
    /// The worker threads, set for the whole process.
    fn set_threads(&self) -> Result<()> {
        set_threads(self.threads)
    }
}

/// Bad input found by the library, as the one line naming the flag (exit 2).
use super::args::input;

/// Both players' opening choices.
#[derive(Args, Clone)]
struct Pair {
    /// South's removal r0,…,r7 (his own indices, each 0..3).
    #[arg(long, allow_hyphen_values = true)]
    south_remove: String,
    /// South's drop COUNT@PIT (PIT = North's index 0..7; no drop is 0@0).
    #[arg(long, allow_hyphen_values = true)]
    south_drop: String,
    /// North's removal r0,…,r7 (his own indices).
    #[arg(long, allow_hyphen_values = true)]
    north_remove: String,
    /// North's drop COUNT@PIT (PIT = South's index 0..7).
    #[arg(long, allow_hyphen_values = true)]
    north_drop: String,
}

impl Pair {
    fn choices(&self, rules: &Rules) -> Result<(Choice, Choice)> {
        Ok((
            choice(["south_remove", "south_drop"], &self.south_remove, &self.south_drop, rules)?,
            choice(["north_remove", "north_drop"], &self.north_remove, &self.north_drop, rules)?,
        ))
    }
}

/// A choice from its text forms; an error names the field of the part that is wrong
/// (`fields`: the removal's and the drop's).
fn choice(fields: [&'static str; 2], remove: &str, drop: &str, rules: &Rules) -> Result<Choice> {
    Choice::parse(remove, drop, rules).or_else(|e| {
        let field = match e {
            ChoiceError::Remove(_) => fields[0],
            _ => fields[1],
        };
        usage(format!("{}: {e}", flag(field)))
    })
}
