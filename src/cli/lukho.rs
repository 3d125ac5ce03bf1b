//! `mancala lukho …`: play one game, choice ids, speeds outcomes, opening sweeps and merges.
//! Parsing and printing only: the work is in `mancala::games::lukho` and `mancala::lukho`.

use super::args::set_threads;
use super::progress::bar;
use super::usage;
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use mancala::export::Format;
use mancala::games::lukho::race::setup;
use mancala::games::lukho::{speed_races, Board, Chain, Choice, ChoiceError, GameOutcome, Position, Rules};
use mancala::lukho::equilibrium::{EqDef, EqError, IterRecord, Limits, Observer, Payoff, Solver};
use mancala::lukho::output::{header_rules, write_games, write_summaries};
use mancala::lukho::part::{self, part_name, read_part, write_part, PartError};
use mancala::lukho::summary::half_json;
use mancala::lukho::sweep::{self, calibrate, Model, Shard, SweepDef};
use mancala::lukho::trace::{trace, RaceChoice};
use mancala::lukho::Spec;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

#[derive(Args)]
pub struct LukhoArgs {
    #[command(subcommand)]
    cmd: Cmd,
}

/// Rule variants (RULES.md "Lukho"). Written into every output.
#[derive(Args, Clone)]
struct RuleFlags {
    /// What follows a capture: it (own pits onward, default), en (opponent pits onward), none.
    #[arg(long, default_value = "it", global = true)]
    chain: String,
    /// The opening drop must leave at least one seed to sow.
    #[arg(long, global = true)]
    keep_one: bool,
}

impl RuleFlags {
    fn rules(&self) -> Result<Rules> {
        let chain = match self.chain.as_str() {
            "it" => Chain::It,
            "en" => Chain::En,
            "none" => Chain::None,
            c => return usage(format!("--chain: `{c}`; expected it, en or none")),
        };
        Ok(Rules { chain, keep_one: self.keep_one })
    }
}

/// Both players' opening choices.
#[derive(Args, Clone)]
struct Pair {
    /// South's removal r0,…,r7 (his own indices, each 0..3).
    #[arg(long)]
    south_remove: String,
    /// South's drop COUNT@PIT (PIT = North's index 0..7; no drop is 0@0).
    #[arg(long)]
    south_drop: String,
    /// North's removal r0,…,r7 (his own indices).
    #[arg(long)]
    north_remove: String,
    /// North's drop COUNT@PIT (PIT = South's index 0..7).
    #[arg(long)]
    north_drop: String,
}

impl Pair {
    fn choices(&self, rules: &Rules) -> Result<(Choice, Choice)> {
        Ok((
            choice("south", &self.south_remove, &self.south_drop, rules)?,
            choice("north", &self.north_remove, &self.north_drop, rules)?,
        ))
    }
}

/// A choice from its text forms; errors name the flag (`--south-drop: …`).
fn choice(side: &str, remove: &str, drop: &str, rules: &Rules) -> Result<Choice> {
    Choice::parse(remove, drop, rules).or_else(|e| {
        let flag = match e {
            ChoiceError::Remove(_) => "remove",
            _ => "drop",
        };
        let prefix = if side.is_empty() { format!("--{flag}") } else { format!("--{side}-{flag}") };
        usage(format!("{prefix}: {e}"))
    })
}

#[derive(Subcommand)]
enum Cmd {
    /// Play one game: both openings, the race, the forced turns; print the result.
    #[command(after_help = "Example: mancala lukho play --south-remove 0,0,0,0,0,0,0,1 --south-drop 0@0 \
--north-remove 0,0,0,0,0,0,0,0 --north-drop 0@0 --race south-first --json")]
    Play {
        #[command(flatten)]
        pair: Pair,
        /// south-first | north-first | lockstep-south | lockstep-north | speeds:K.
        #[arg(long)]
        race: String,
        /// Print the board at the start of every turn (with --jsonl: one state object each).
        #[arg(long)]
        trace: bool,
        #[arg(long)]
        json: bool,
        #[arg(long, conflicts_with = "json")]
        jsonl: bool,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// A choice id and its choice (removal + drop), both ways, with a diagram.
    #[command(
        after_help = "Examples: mancala lukho opening --id 12345\n          mancala lukho opening --remove 3,0,0,0,0,0,0,0 --drop 2@5"
    )]
    Opening {
        #[arg(long, conflicts_with_all = ["remove", "drop"])]
        id: Option<u64>,
        /// r0,…,r7 (own indices).
        #[arg(long, requires = "drop")]
        remove: Option<String>,
        /// COUNT@PIT (PIT = the opponent's index).
        #[arg(long, requires = "remove")]
        drop: Option<String>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// Every race outcome of the `speeds` model for a pair, with its ρ = v_South/v_North interval.
    Races {
        #[command(flatten)]
        pair: Pair,
        #[arg(long)]
        json: bool,
        #[arg(long, conflicts_with = "json")]
        jsonl: bool,
        #[command(flatten)]
        rules: RuleFlags,
    },
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
    Sweep {
        /// South's choices: a SPEC (e.g. `all`, `12345`, `0..65536:pit=3`, `all:drop=0`).
        #[arg(long)]
        south: String,
        /// North's choices: a SPEC (required unless --symmetric).
        #[arg(long)]
        north: Option<String>,
        /// Each South choice against the same choice by North (own indices mirrored), instead
        /// of a product; --north is not used. (For the square product give --north the same SPEC.)
        #[arg(long)]
        symmetric: bool,
        /// sequential | lockstep | speeds, or one outcome: south-first, north-first,
        /// lockstep-south, lockstep-north.
        #[arg(long)]
        race: String,
        /// K/N: this run does the K-th of N South ranges (0-based) and writes a part file.
        /// Default: SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX/JOB_COMPLETIONS.
        #[arg(long)]
        shard: Option<String>,
        /// Print the games and the projected core-hours (timed on a sample here); write nothing.
        #[arg(long)]
        dry_run: bool,
        /// With --dry-run: seconds of timing on one core (default 2; 0.3 for speeds). A perpetual
        /// opening (about 3.5 pairs in 10,000) costs as much as thousands of normal games, so a
        /// longer sample meets enough of them to give a steadier rate. The sample starts cold
        /// (no perpetual cycle shared yet), so it overstates a long sweep, where games share
        /// proven cycles. Under speeds a pair whose sowing never ends can have 10^7 outcomes
        /// (South 1687463 vs North 3349489: 37,699,575, ten minutes), so its projection is a
        /// lower bound and a longer sample may wait on one such pair.
        #[arg(long, value_name = "SECONDS")]
        calibrate: Option<String>,
        #[arg(long, required_unless_present = "dry_run")]
        out: Option<PathBuf>,
        /// Also write one row per game (small products only).
        #[arg(long, value_parser = super::args::format())]
        games: Option<Format>,
        /// Print the run's report as JSON.
        #[arg(long)]
        json: bool,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = super::args::threads)]
        threads: Option<super::args::Threads>,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// A uniform random sample of opening pairs (seeded, reproducible): margin distribution,
    /// first-mover advantage, cycle and perpetual rates, with 95 % confidence intervals.
    ///
    /// Pair i is drawn from (seed, i) alone, so the sample does not depend on threads. Writes
    /// DIR/sample.json, DIR/margins.csv and DIR/margins.svg.
    #[command(
        after_help = "Example: mancala lukho sample --pairs 1000000 --seed 1 --race sequential --out /tmp/sample"
    )]
    Sample {
        /// Number of opening pairs to draw.
        #[arg(long)]
        pairs: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// sequential | lockstep | speeds, or one outcome.
        #[arg(long)]
        race: String,
        #[arg(long)]
        out: PathBuf,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        rules: RuleFlags,
    },
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
    Equilibrium {
        /// sequential | lockstep (outcomes as chance, equal weights), or one outcome fixed:
        /// south-first, north-first, lockstep-south, lockstep-north.
        #[arg(long)]
        race: String,
        /// margin (South − North seeds) | result (+1/0/−1) | points (first-game match points, South − North).
        #[arg(long)]
        payoff: String,
        /// Both players' choices: a SPEC (default all 6,356,992).
        #[arg(long, default_value = "all")]
        family: String,
        #[arg(long)]
        out: PathBuf,
        /// Stop (resumably) once this many iterations are done in all.
        #[arg(long)]
        max_iterations: Option<u32>,
        /// Start no new iteration after this many seconds (the state stays resumable).
        #[arg(long, value_parser = super::args::seconds)]
        time: Option<f64>,
        /// Also report how far these choices (a SPEC) can be exploited, each side.
        #[arg(long)]
        exploit: Option<String>,
        /// Refine each mix against up to K more opposing best replies per iteration (LPs over
        /// the cached payoff vectors, no games): better bounds per sweep, more LP time.
        #[arg(long, default_value_t = 0)]
        cuts: usize,
        #[arg(long)]
        json: bool,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = super::args::threads)]
        threads: Option<super::args::Threads>,
        #[command(flatten)]
        rules: RuleFlags,
    },
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
    Replies {
        /// South's choices: a SPEC (members of the family).
        #[arg(long)]
        south: String,
        /// sequential | lockstep (outcomes at equal weights), or one outcome.
        #[arg(long)]
        race: String,
        /// margin | result | points (as in `equilibrium`).
        #[arg(long, default_value = "margin")]
        payoff: String,
        /// North's choices searched for replies: a SPEC (default all 6,356,992).
        #[arg(long, default_value = "all")]
        family: String,
        #[arg(long)]
        out: PathBuf,
        /// How many of the most common replies to list.
        #[arg(long, default_value_t = 20)]
        top: usize,
        #[arg(long)]
        json: bool,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = super::args::threads)]
        threads: Option<super::args::Threads>,
        #[command(flatten)]
        rules: RuleFlags,
    },
    /// Combine the part files of a sharded sweep: same sweep, rules and version, every South
    /// position exactly once; writes the summaries as an unsharded run would.
    Merge {
        #[arg(long)]
        out: PathBuf,
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(a: LukhoArgs) -> Result<()> {
    match a.cmd {
        Cmd::Play { pair, race, trace, json, jsonl, rules } => play(&pair, &race, trace, json, jsonl, &rules.rules()?),
        Cmd::Opening { id, remove, drop, json, rules } => opening_cmd(id, remove, drop, json, &rules.rules()?),
        Cmd::Races { pair, json, jsonl, rules } => races(&pair, json, jsonl, &rules.rules()?),
        Cmd::Sweep { south, north, symmetric, race, shard, dry_run, calibrate, out, games, json, threads, rules } => {
            let rules = rules.rules()?;
            set_threads(threads);
            sweep_cmd(SweepArgs { south, north, symmetric, race, shard, dry_run, calibrate, out, games, json }, rules)
        }
        Cmd::Merge { out, parts, json } => merge(&out, &parts, json),
        Cmd::Sample { pairs, seed, race, out, json, rules } => {
            sample_cmd(pairs, seed, &race, &out, json, &rules.rules()?)
        }
        Cmd::Replies { south, race, payoff, family, out, top, json, threads, rules } => {
            let rules = rules.rules()?;
            set_threads(threads);
            replies_cmd(&south, &race, &payoff, &family, &out, top, json, rules)
        }
        Cmd::Equilibrium { race, payoff, family, out, max_iterations, time, exploit, cuts, json, threads, rules } => {
            let rules = rules.rules()?;
            set_threads(threads);
            equilibrium_cmd(
                &race,
                &payoff,
                &family,
                &out,
                Limits { max_iterations, seconds: time },
                exploit.as_deref(),
                cuts,
                json,
                rules,
            )
        }
    }
}

fn sample_cmd(pairs: u64, seed: u64, race: &str, out: &Path, json_out: bool, rules: &Rules) -> Result<()> {
    use mancala::lukho::sample::{sample, wilson};
    let model = Model::parse(race).or_else(|e| usage(format!("--{e}")))?;
    if pairs == 0 {
        return usage("--pairs: 0; expected at least 1");
    }
    if out.exists() && std::fs::read_dir(out).map(|mut d| d.next().is_some()).unwrap_or(true) {
        return usage(format!("--out: {} exists and is not empty", out.display()));
    }
    let pb = bar(pairs, "pairs");
    let start = Instant::now();
    let st = sample(rules, model, seed, 0, pairs, &|k| pb.inc(k));
    pb.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let (mean, half) = st.margin_mean_ci();
    let r = |k: u64| {
        let (p, lo, hi) = wilson(k, st.agg.games);
        json!({"count": k, "rate": p, "ci95": [lo, hi]})
    };
    let decided = st.first_mover_wins + st.second_mover_wins;
    let (fm, fm_lo, fm_hi) = wilson(st.first_mover_wins, decided.max(1));
    let summary = json!({
        "rules": header_rules(rules, model.name()),
        "seed": seed,
        "pairs": st.pairs,
        "games": st.agg.games,
        "margin_mean": mean,
        "margin_mean_ci95": [mean - half, mean + half],
        "south_wins": r(st.agg.wins),
        "draws": r(st.agg.draws),
        "cycles": r(st.agg.cycles),
        "perpetual_openings": r(st.agg.perpetual_openings),
        "perpetual_turns": r(st.agg.perpetual_turns),
        "south_moves_first": r(st.agg.south_first),
        "first_mover_wins_of_decided": {"count": st.first_mover_wins, "of": decided, "rate": fm, "ci95": [fm_lo, fm_hi]},
        "seconds": seconds,
        "games_per_second": st.agg.games as f64 / seconds.max(1e-9),
    });
    let tmp = out.with_file_name(format!(".{}.tmp", out.file_name().and_then(|s| s.to_str()).unwrap_or("sample")));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).with_context(|| format!("--out: {}", tmp.display()))?;
    std::fs::write(tmp.join("sample.json"), format!("{summary:#}\n"))?;
    let mut csv = format!("# rules: {}\nmargin,games\n", header_rules(rules, model.name()));
    let mut bars = Vec::new();
    for (k, &c) in st.margin.iter().enumerate() {
        if c > 0 {
            let m = (k as f64 - 96.0) / 2.0;
            csv.push_str(&format!("{m},{c}\n"));
            bars.push((m, c));
        }
    }
    std::fs::write(tmp.join("margins.csv"), csv)?;
    let svg = mancala::export::svg::histogram(
        &format!("Lukho: South − North over {} sampled games ({})", st.agg.games, model.name()),
        "margin (seeds)",
        &bars,
    );
    std::fs::write(tmp.join("margins.svg"), svg)?;
    if out.exists() {
        std::fs::remove_dir(out)?;
    }
    std::fs::rename(&tmp, out)?;
    if json_out {
        println!("{summary}");
    } else {
        println!("{summary:#}");
    }
    Ok(())
}

fn choice_json(c: &Choice, rules: &Rules) -> Json {
    json!({"id": c.id(rules), "remove": c.remove_string(), "drop": c.drop_string()})
}

fn result_json(o: &GameOutcome) -> serde_json::Map<String, Json> {
    let t = o.totals();
    let v = json!({
        "first_player": o.first_player.name(),
        "stores": [half_json(t[0]), half_json(t[1])],
        "winner": o.winner.map_or("draw", |w| w.name()),
        "margin": half_json(o.margin()),
        "class": o.class.name(),
        "turns": o.turns,
        "points_first_game": o.points_first_game,
        "points_later_game": o.points_later_game,
    });
    match v {
        Json::Object(m) => m,
        _ => unreachable!(),
    }
}

fn state_json(p: &Position) -> Json {
    json!({
        "game": "lukho",
        "pits": p.board.pits(),
        "stores": p.board.stores,
        "to_move": p.to_move.name(),
        "knives": p.board.knives_json(),
    })
}

fn parse_race(s: &str) -> Result<RaceChoice> {
    RaceChoice::parse(s).or_else(|e| usage(format!("--{e}")))
}

fn play(pair: &Pair, race: &str, with_trace: bool, json: bool, jsonl: bool, rules: &Rules) -> Result<()> {
    let (s, n) = pair.choices(rules)?;
    let rc = parse_race(race)?;
    let t = trace(rules, &s, &n, rc).or_else(|e| usage(format!("--{e}")))?;
    let o = &t.outcome;
    let mut head = serde_json::Map::new();
    head.insert("rules".into(), rules.to_json());
    head.insert("race".into(), json!(rc.name()));
    head.insert("south".into(), choice_json(&s, rules));
    head.insert("north".into(), choice_json(&n, rules));
    if jsonl && with_trace {
        for (i, p) in t.positions.iter().enumerate() {
            let mut line = match state_json(p) {
                Json::Object(m) => m,
                _ => unreachable!(),
            };
            line.insert("turn".into(), json!(i));
            if i == 0 {
                line.extend(head.clone());
            }
            if i + 1 == t.positions.len() {
                line.insert("result".into(), Json::Object(result_json(o)));
            }
            println!("{}", Json::Object(line));
        }
        return Ok(());
    }
    if json || jsonl {
        let mut m = head;
        m.extend(result_json(o));
        println!("{}", Json::Object(m));
        return Ok(());
    }
    println!("Lukho, chain={} keep_one={}, race {}", rules.chain.name(), rules.keep_one, rc.name());
    println!("South {} (id {}), North {} (id {})", s, s.id(rules), n, n.id(rules));
    if with_trace {
        let before = setup(&s, &n);
        println!("\nafter removals and drops:\n{before}");
        if t.opening.perpetual {
            println!("\nopening sowing never ends; board when the repeat was found:\n{}", t.opening.board);
        }
        for (i, p) in t.positions.iter().enumerate().filter(|_| !t.opening.perpetual) {
            let what = if i == 0 && !t.opening.perpetual { "after the opening, ".to_string() } else { String::new() };
            let pit =
                p.board.forced_pit(p.to_move).map_or("no pit to lift".to_string(), |k| format!("lifts own pit {k}"));
            println!("\nturn {i}: {what}{} to move ({pit})\n{}", p.to_move.name(), p.board);
        }
    }
    let r = result_json(o);
    println!(
        "\nfirst player {}, final totals South {} North {}, winner {}, margin {}, class {}, {} turns, points {} (first game) / {} (later game)",
        r["first_player"].as_str().unwrap(),
        r["stores"][0],
        r["stores"][1],
        r["winner"].as_str().unwrap(),
        r["margin"],
        r["class"].as_str().unwrap(),
        o.turns,
        o.points_first_game,
        o.points_later_game
    );
    Ok(())
}

fn opening_cmd(id: Option<u64>, remove: Option<String>, drop: Option<String>, json: bool, rules: &Rules) -> Result<()> {
    let c = match (id, remove, drop) {
        (Some(id), _, _) => Choice::from_id(id, rules).or_else(|e| usage(format!("--{e}")))?,
        (None, Some(r), Some(d)) => choice("", &r, &d, rules)?,
        _ => return usage("--id: give --id N, or --remove r0,…,r7 with --drop COUNT@PIT"),
    };
    // The diagram: the choice made by South, North untouched, before the sowing.
    let b: Board = setup(&c, &Choice::default());
    if json {
        println!(
            "{}",
            json!({
                "rules": rules.to_json(),
                "id": c.id(rules),
                "remove": c.remove,
                "drop": c.drop,
                "pit": c.pit,
                "hand": c.hand(),
                "sow": c.sow_count(),
                "text": {"remove": c.remove_string(), "drop": c.drop_string()},
                "pits": b.pits(),
                "of": Choice::count(rules),
            })
        );
        return Ok(());
    }
    println!(
        "id {} of {}: --remove {} --drop {}",
        c.id(rules),
        Choice::count(rules),
        c.remove_string(),
        c.drop_string()
    );
    println!(
        "hand {} = drop {} into the opponent's pit {} + {} sown from the opponent's pit 0",
        c.hand(),
        c.drop,
        c.pit,
        c.sow_count()
    );
    println!("as South's choice, before the sowing (North's row on top, his index 7 at the left):\n{b}");
    Ok(())
}

fn ratio(r: &mancala::games::lukho::Ratio) -> Json {
    json!(r.to_string())
}

fn races(pair: &Pair, json: bool, jsonl: bool, rules: &Rules) -> Result<()> {
    let (s, n) = pair.choices(rules)?;
    let all = speed_races(rules, &s, &n);
    let rows: Vec<Json> = all
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let o = mancala::games::lukho::play_after(rules, &r.opening);
            let mut m = serde_json::Map::new();
            m.insert("race".into(), json!(format!("speeds:{k}")));
            m.insert("rho_from".into(), ratio(&r.lo));
            m.insert("rho_to".into(), r.hi.as_ref().map_or(json!("inf"), ratio));
            m.insert("perpetual_opening".into(), json!(r.opening.perpetual));
            m.extend(result_json(&o));
            Json::Object(m)
        })
        .collect();
    if json {
        println!(
            "{}",
            json!({"rules": rules.to_json(), "south": choice_json(&s, rules), "north": choice_json(&n, rules), "races": rows})
        );
    } else if jsonl {
        for (i, r) in rows.into_iter().enumerate() {
            let mut r = r;
            if i == 0 {
                r["rules"] = rules.to_json();
            }
            println!("{r}");
        }
    } else {
        println!("{} speeds outcomes for South {} vs North {} (ρ = v_South / v_North; [from, to))", all.len(), s, n);
        for r in &rows {
            println!(
                "{:>10}  ρ in [{}, {})  first {}  {} {}  margin {}  {}",
                r["race"].as_str().unwrap(),
                r["rho_from"].as_str().unwrap(),
                r["rho_to"].as_str().unwrap(),
                r["first_player"].as_str().unwrap(),
                r["winner"].as_str().unwrap(),
                r["stores"],
                r["margin"],
                r["class"].as_str().unwrap()
            );
        }
    }
    Ok(())
}

struct SweepArgs {
    south: String,
    north: Option<String>,
    symmetric: bool,
    race: String,
    shard: Option<String>,
    dry_run: bool,
    calibrate: Option<String>,
    out: Option<PathBuf>,
    games: Option<Format>,
    json: bool,
}

/// Most games a per-game table may hold.
const MAX_GAME_ROWS: u64 = 2_000_000;

fn sweep_cmd(a: SweepArgs, rules: Rules) -> Result<()> {
    // Everything is checked before anything is written.
    let model = Model::parse(&a.race).or_else(|e| usage(format!("--{e}")))?;
    let south = Spec::parse(&a.south).or_else(|e| usage(format!("--south: {e}")))?;
    let north = match (&a.north, a.symmetric) {
        (None, true) => south.clone(),
        (None, false) => return usage("--north: required (or --symmetric to play each South choice against itself)"),
        (Some(_), true) => {
            return usage(
                "--north: --symmetric plays each South choice against the same choice by North; leave --north out",
            )
        }
        (Some(n), false) => Spec::parse(n).or_else(|e| usage(format!("--north: {e}")))?,
    };
    let shard = match &a.shard {
        Some(s) => Some(Shard::parse(s).or_else(|e| usage(format!("--{e}")))?),
        None => Shard::from_env(|k| std::env::var(k).ok()).or_else(|e| usage(format!("--{e}")))?,
    };
    if a.games == Some(Format::Parquet) && !cfg!(feature = "parquet") {
        return usage("--games: parquet needs a build with `--features parquet` (accepted here: csv, jsonl)");
    }
    let def = SweepDef { rules, model, south, north, symmetric: a.symmetric };
    let sets = def.sets().or_else(|e| usage(e.to_string()))?;
    let (lo, hi) = shard.map_or((0, sets.south.len() as u64), |s| s.range(sets.south.len() as u64));
    let south_ids = &sets.south[lo as usize..hi as usize];
    let pairs = south_ids.len() as u64 * sets.north_per_south() as u64;

    let calibrate = match a.calibrate.as_deref().map(|c| (c, c.trim().parse::<f64>())) {
        None if model == Model::Speeds => 0.3,
        None => 2.0,
        Some((_, Ok(x))) if x > 0.0 && x <= 3600.0 => x,
        Some((c, _)) => return usage(format!("--calibrate: `{c}` is not a number of seconds in (0, 3600]")),
    };
    if a.dry_run {
        return dry_run(&def, &sets, south_ids, pairs, shard, calibrate, a.json);
    }
    let outcomes = model.outcomes().map(|o| o.len() as u64);
    if a.games.is_some() {
        // speeds: at least one game per pair, usually a few.
        let games = pairs * outcomes.unwrap_or(1);
        if games > MAX_GAME_ROWS {
            return usage(format!(
                "--games: {games} games is more than the {MAX_GAME_ROWS} a per-game table allows; narrow --south/--north"
            ));
        }
    }
    let out = a.out.expect("clap requires --out without --dry-run");
    if out.exists() && !out.is_dir() {
        return usage(format!("--out: {} exists and is not a directory", out.display()));
    }
    let identity = part::identity(&def, sets.south.len() as u64, sets.north_per_south() as u64);
    let part_path = shard.map(|s| out.join(part_name(s)));
    if let Some(p) = &part_path {
        if p.exists() {
            match read_part(p) {
                Ok(old) if old.identity() == identity && old.range == (lo, hi) => {
                    let msg = format!(
                        "shard {}/{}: {} is complete; nothing to do",
                        shard.unwrap().k,
                        shard.unwrap().n,
                        p.display()
                    );
                    if a.json {
                        println!("{}", json!({"part": p, "done_before": true, "games": 0}));
                    } else {
                        eprintln!("{msg}");
                    }
                    return Ok(());
                }
                Ok(_) => {
                    return usage(format!(
                    "--out: {} holds a part of a different sweep (rules, race, SPECs or version); use another --out",
                    p.display()
                ))
                }
                // A damaged part (it cannot be a partial one: parts are renamed into place) is redone.
                Err(_) => {}
            }
        }
    }
    std::fs::create_dir_all(&out).with_context(|| format!("--out: cannot create {}", out.display()))?;

    let expected = outcomes.map(|o| pairs * o);
    let pb = bar(expected.unwrap_or(pairs), "games");
    if expected.is_none() {
        pb.set_message("(speeds: length counts pairs, so the bar runs past it)");
    }
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let progress = |g| {
        done.fetch_add(g, Ordering::Relaxed);
        pb.inc(g);
    };
    let aggs = if sets.symmetric {
        sweep::sweep_mirror(&rules, model, south_ids, &progress)
    } else {
        sweep::sweep(&rules, model, south_ids, &sets.north, &progress)
    };
    pb.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let games: u64 = aggs.iter().map(|a| a.games).sum();
    let rows: Vec<(u32, mancala::lukho::Agg)> = south_ids.iter().copied().zip(aggs).collect();

    let mut report = serde_json::Map::new();
    match (shard, &part_path) {
        (Some(s), Some(p)) => {
            write_part(p, &identity, s, (lo, hi), &rows).map_err(part_error)?;
            report.insert("part".into(), json!(p));
            report.insert("shard".into(), json!([s.k, s.n]));
            report.insert("range".into(), json!([lo, hi]));
        }
        _ => {
            let g = write_summaries(&out, &identity, &rules, &rows)
                .with_context(|| format!("--out: writing {}", out.display()))?;
            report.insert("summary".into(), g);
        }
    }
    if let Some(format) = a.games {
        let stem = shard.map_or("games".to_string(), |s| format!("games-{:05}-of-{:05}", s.k, s.n));
        let all = if sets.symmetric {
            sweep::games_mirror(&rules, model, south_ids)
        } else {
            sweep::games(&rules, model, south_ids, &sets.north, &sets.north_ids)
        };
        write_games(&out, &stem, format, &rules, model.name(), &all)
            .with_context(|| format!("--out: writing {stem}"))?;
    }
    let rate = games as f64 / seconds.max(1e-9);
    report.insert("out".into(), json!(out));
    report.insert("games".into(), json!(games));
    report.insert("seconds".into(), json!(seconds));
    report.insert("games_per_second".into(), json!(rate.round()));
    report.insert("threads".into(), json!(rayon::current_num_threads()));
    // Long knife-free sowings proven perpetual: by their own cycle, or by a shared point.
    let ps = mancala::games::lukho::board::perpetual_stats();
    report.insert("perpetual_sowings".into(), json!(ps));
    if a.json {
        println!("{}", Json::Object(report));
    } else {
        println!(
            "{games} games ({} South × {} North, race {}) in {seconds:.2} s: {rate:.0} games/s on {} threads -> {}",
            south_ids.len(),
            sets.north_per_south(),
            model.name(),
            rayon::current_num_threads(),
            out.display()
        );
        if ps.proven + ps.hits > 0 {
            println!(
                "perpetual sowings: {} proven by their cycle, {} by a point of an earlier cycle ({:.1} % hits, {} points shared)",
                ps.proven,
                ps.hits,
                100.0 * ps.hits as f64 / (ps.proven + ps.hits) as f64,
                ps.points
            );
        }
    }
    Ok(())
}

fn dry_run(
    def: &SweepDef,
    sets: &sweep::Sets,
    south_ids: &[u32],
    pairs: u64,
    shard: Option<Shard>,
    seconds: f64,
    json: bool,
) -> Result<()> {
    // Time a sample spread over the whole product (not only this shard) on one thread.
    // A symmetric sweep is timed on South × a sample of its own choices (same kind of games).
    let sample: Vec<Choice>;
    let north = if sets.symmetric {
        let step = (sets.south.len() / 1000).max(1);
        sample = sets.south.iter().step_by(step).map(|&id| Choice::from_id(id as u64, &def.rules).unwrap()).collect();
        &sample
    } else {
        &sets.north
    };
    let cal = calibrate(&def.rules, def.model, &sets.south, north, 20_000, seconds);
    let per_pair = def.model.outcomes().map_or(cal.games_per_pair(), |o| o.len() as f64);
    let games = pairs as f64 * per_pair;
    let rate = cal.games_per_core_second();
    let core_hours = if rate > 0.0 { games / rate / 3600.0 } else { 0.0 };
    let cores = rayon::current_num_threads();
    let v = json!({
        "rules": header_rules(&def.rules, def.model.name()),
        "south": def.south.text,
        "north": def.north.text,
        "shard": shard.map(|s| json!([s.k, s.n])),
        "south_choices": south_ids.len(),
        "north_choices": sets.north_per_south(),
        "pairs": pairs,
        "games_per_pair": per_pair,
        "games": games.round(),
        "games_exact": def.model.outcomes().is_some(),
        "sample_games": cal.games,
        "sample_seconds": cal.seconds,
        "games_per_core_second": rate.round(),
        "core_hours": core_hours,
        "hours_here": core_hours / cores as f64,
        "cores_here": cores,
    });
    if json {
        println!("{v}");
    } else {
        println!(
            "{} South × {} North = {pairs} pairs, {}{:.0} games; sample {} games in {:.2} s on one core = {:.0} games/core-s; projected {:.4} core-hours ({:.4} h on the {cores} cores here)",
            south_ids.len(),
            sets.north_per_south(),
            if def.model.outcomes().is_some() { "" } else { "about " },
            games,
            cal.games,
            cal.seconds,
            rate,
            core_hours,
            core_hours / cores as f64
        );
    }
    Ok(())
}

fn part_error(e: PartError) -> anyhow::Error {
    match e {
        PartError::Io { .. } => anyhow::anyhow!("{e}"),
        PartError::Bad { .. } => super::Usage(e.to_string()).into(),
    }
}

fn merge(out: &Path, paths: &[PathBuf], json: bool) -> Result<()> {
    let mut parts = Vec::new();
    for p in paths {
        // A part that cannot be read is bad input too.
        parts.push(read_part(p).or_else(|e| usage(format!("merge: {e}")))?);
    }
    let (identity, rows) = part::combine(parts).or_else(|e| usage(format!("merge: {e}")))?;
    let rules: Rules =
        serde_json::from_value(identity["rules"].clone()).or_else(|_| usage("merge: rules: not Lukho rules"))?;
    if out.exists() && !out.is_dir() {
        return usage(format!("--out: {} exists and is not a directory", out.display()));
    }
    std::fs::create_dir_all(out).with_context(|| format!("--out: cannot create {}", out.display()))?;
    let g =
        write_summaries(out, &identity, &rules, &rows).with_context(|| format!("--out: writing {}", out.display()))?;
    if json {
        println!("{}", json!({"out": out, "parts": paths.len(), "summary": g}));
    } else {
        println!(
            "merged {} parts: {} South choices, {} games -> {}",
            paths.len(),
            rows.len(),
            g["games"],
            out.display()
        );
    }
    Ok(())
}

/// Progress of an equilibrium run: a bar per vector sweep, a line per iteration (stderr).
struct EqProgress {
    pb: std::sync::Mutex<Option<indicatif::ProgressBar>>,
    quiet: bool,
}

impl Observer for EqProgress {
    fn sweep_start(&self, label: &str, games: u64) {
        let b = bar(games, "games");
        b.set_message(label.to_string());
        *self.pb.lock().unwrap() = Some(b);
    }
    fn games(&self, n: u64) {
        if let Some(b) = &*self.pb.lock().unwrap() {
            b.inc(n);
        }
    }
    fn sweep_end(&self) {
        if let Some(b) = self.pb.lock().unwrap().take() {
            b.finish_and_clear();
        }
    }
    fn iteration(&self, r: &IterRecord) {
        if !self.quiet {
            eprintln!(
                "iteration {}: |S| {} |N| {} (support {}/{}), restricted value {:.6}, bounds [{:.6}, {:.6}], gap {:.6}, games {} (+{}), {:.1} s (+{:.1} s)",
                r.iteration,
                r.south_size,
                r.north_size,
                r.south_support,
                r.north_support,
                r.restricted_value,
                r.lower,
                r.upper,
                r.gap(),
                r.total_games,
                r.games,
                r.total_seconds,
                r.seconds
            );
        }
    }
}

fn eq_error(e: EqError) -> anyhow::Error {
    match e {
        EqError::Input(m) => super::Usage(m).into(),
        e => anyhow::anyhow!("{e}"),
    }
}

#[allow(clippy::too_many_arguments)]
fn equilibrium_cmd(
    race: &str,
    payoff: &str,
    family: &str,
    out: &Path,
    limits: Limits,
    exploit: Option<&str>,
    cuts: usize,
    json_out: bool,
    rules: Rules,
) -> Result<()> {
    // Everything is checked before anything is written.
    let model = Model::parse(race).or_else(|e| usage(format!("--{e}")))?;
    let payoff = Payoff::parse(payoff).or_else(|e| usage(format!("--{e}")))?;
    let family = Spec::parse(family).or_else(|e| usage(format!("--family: {e}")))?;
    if out.exists() && !out.is_dir() {
        return usage(format!("--out: {} exists and is not a directory", out.display()));
    }
    let exploit_ids = match exploit {
        Some(t) => Spec::parse(t).and_then(|s| s.ids(&rules)).or_else(|e| usage(format!("--exploit: {e}")))?,
        None => vec![],
    };
    let def = EqDef { rules, model, payoff, family };
    let mut solver = Solver::open(def, out).map_err(|e| eq_error(prefix_flag(e)))?;
    solver.cuts = cuts;
    for &id in &exploit_ids {
        if solver.ids.binary_search(&id).is_err() {
            return usage(format!("--exploit: choice {id} is not in the family `{}`", solver.def.family.text));
        }
    }
    let obs = EqProgress { pb: std::sync::Mutex::new(None), quiet: false };
    solver.run(limits, &obs).map_err(eq_error)?;
    let mut exploits = Vec::new();
    for &id in &exploit_ids {
        exploits.push(solver.exploit(id, &obs).map_err(eq_error)?);
    }
    let answer = solver.answer(&exploits);
    let path = solver.write_answer(&answer).map_err(eq_error)?;
    if json_out {
        let mut a = answer.clone();
        if let Some(m) = a.as_object_mut() {
            m.remove("log");
            m.insert("out".into(), json!(path));
        }
        println!("{a}");
        return Ok(());
    }
    let f = |v: &Json| v.as_f64().map_or("-".to_string(), |x| format!("{x:.6}"));
    println!(
        "Lukho opening game, chain={} keep_one={}, race {}, payoff {}, family `{}` ({} choices each)",
        rules.chain.name(),
        rules.keep_one,
        model.name(),
        payoff.name(),
        solver.def.family.text,
        solver.ids.len()
    );
    let status = if answer["exact"] == true {
        "converged".to_string()
    } else if solver.state.stalled {
        "stalled (neither best response is new, gap above the tolerance)".to_string()
    } else {
        format!("not converged; continue with the same command (state in {})", out.display())
    };
    println!(
        "value {} ({}), certified bounds [{}, {}], gap {}: {status}",
        f(&answer["value"]),
        if solver.def.symmetric() { "symmetric game" } else { "restricted LP" },
        f(&answer["lower"]),
        f(&answer["upper"]),
        f(&answer["gap"])
    );
    for side in ["south", "north"] {
        let s = answer[side].as_array().unwrap();
        println!("{side}: {} choices in the mix", s.len());
        for e in s.iter().take(25) {
            println!("  {:>9.6}  id {:>7}  {}", e["weight"].as_f64().unwrap(), e["id"], e["choice"].as_str().unwrap());
        }
        if s.len() > 25 {
            println!("  … ({} more in {})", s.len() - 25, path.display());
        }
    }
    for e in answer["exploit"].as_array().unwrap() {
        println!(
            "exploit id {} ({}): as South worth {} (exploitability {}), as North concedes {} (exploitability {})",
            e["id"],
            e["choice"].as_str().unwrap(),
            f(&e["as_south"]),
            f(&e["as_south_exploitability"]),
            f(&e["as_north"]),
            f(&e["as_north_exploitability"])
        );
    }
    println!(
        "{} iterations, {} games, {:.1} s -> {}",
        answer["iterations"],
        answer["games"],
        answer["seconds"].as_f64().unwrap_or(0.0),
        path.display()
    );
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn replies_cmd(
    south: &str,
    race: &str,
    payoff: &str,
    family: &str,
    out: &Path,
    top: usize,
    json_out: bool,
    rules: Rules,
) -> Result<()> {
    // Everything is checked before anything is written.
    let model = Model::parse(race).or_else(|e| usage(format!("--{e}")))?;
    let payoff = Payoff::parse(payoff).or_else(|e| usage(format!("--{e}")))?;
    let family = Spec::parse(family).or_else(|e| usage(format!("--family: {e}")))?;
    let south_ids = Spec::parse(south).and_then(|s| s.ids(&rules)).or_else(|e| usage(format!("--south: {e}")))?;
    if south_ids.is_empty() {
        return usage(format!("--south: `{south}` names no choice; expected a SPEC with at least one choice"));
    }
    if top == 0 {
        return usage("--top: 0; expected at least 1");
    }
    if out.exists() && !out.is_dir() {
        return usage(format!("--out: {} exists and is not a directory", out.display()));
    }
    let def = EqDef { rules, model, payoff, family };
    let mut solver = Solver::open(def, out).map_err(|e| eq_error(prefix_flag(e)))?;
    let obs = EqProgress { pb: std::sync::Mutex::new(None), quiet: true };
    let start = Instant::now();
    // The library checks South's choices against the family before it writes anything.
    let r = solver.replies(&south_ids, top, &obs).map_err(|e| eq_error(prefix_flag(e)))?;
    let paths = r.write(&solver).map_err(eq_error)?;
    let seconds = start.elapsed().as_secs_f64();
    if json_out {
        let mut a = r.to_json(&solver);
        a["seconds"] = json!(seconds);
        a["out"] = json!(paths);
        println!("{a}");
        return Ok(());
    }
    let text = |id: u32| Choice::from_id(id as u64, &rules).map(|c| c.to_string()).unwrap_or_default();
    println!(
        "Best replies over `{}` ({} choices) to {} South choices, race {}, payoff {}: {} distinct best replies",
        solver.def.family.text,
        solver.ids.len(),
        south_ids.len(),
        model.name(),
        payoff.name(),
        r.distinct
    );
    for t in &r.top {
        println!(
            "  best reply to {:>5} of {}  mean {:>9.4}  id {:>7}  {}",
            t.best_for,
            south_ids.len(),
            t.mean,
            t.id,
            text(t.id)
        );
    }
    let worst = r.south.iter().map(|b| b.value).fold(f64::INFINITY, f64::min);
    let best = r.south.iter().map(|b| b.value).fold(f64::NEG_INFINITY, f64::max);
    println!(
        "South's value against its best reply: from {worst} to {best}; {} games in {seconds:.1} s -> {}",
        r.games,
        out.display()
    );
    Ok(())
}

/// Input errors from the library name the field without its dashes; the CLI adds them.
fn prefix_flag(e: EqError) -> EqError {
    match e {
        EqError::Input(m) if ["race:", "family:", "south:"].iter().any(|f| m.starts_with(f)) => {
            EqError::Input(format!("--{m}"))
        }
        e => e,
    }
}
