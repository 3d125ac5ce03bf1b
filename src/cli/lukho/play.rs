//! `lukho play` (one game, optionally turn by turn) and `lukho races` (the speeds outcomes).

use super::race_help;
use super::{input, Pair, RuleFlags};
use anyhow::Result;
use clap::Args;
use mancala::games::lukho::race::setup;
use mancala::games::lukho::race::Race;
use mancala::games::lukho::RaceLabel;
use mancala::sweep::trace::{choice_json, outcome_json, play_head, speeds_rows, trace, trace_lines};
use mancala::sweep::InputError;
use serde_json::{json, Value as Json};

/// The last flags of `play` and `races`: one JSON document or JSON lines (each command says
/// of what, in its help), and the rules.
#[derive(Args)]
struct Output {
    #[arg(long)]
    json: bool,
    #[arg(long, conflicts_with = "json")]
    jsonl: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

#[derive(Args)]
#[command(mut_arg("json", |a| a.help("Print the game's result as one JSON document")))]
#[command(mut_arg("jsonl", |a| a.help("With --trace: print the board at the start of every turn as JSON lines")))]
pub struct PlayArgs {
    #[command(flatten)]
    pair: Pair,
    /// south-first | north-first | lockstep-south | lockstep-north | speeds:K.
    #[arg(long, long_help = race_help!(label))]
    race: RaceLabel,
    /// Print the board at the start of every turn (with --jsonl: one state object each).
    #[arg(long)]
    trace: bool,
    #[command(flatten)]
    output: Output,
}

pub fn play(a: PlayArgs) -> Result<()> {
    let Output { json, jsonl, rules } = a.output;
    let rules = &rules.rules();
    let (s, n) = a.pair.choices(rules)?;
    let race = a.race;
    let t = trace(rules, &s, &n, race).map_err(|e| input(InputError::new("race", e.to_string())))?;
    let o = &t.outcome;
    let head = play_head(rules, &s, &n, race);
    if jsonl && a.trace {
        for line in trace_lines(&t, &head) {
            println!("{line}");
        }
        return Ok(());
    }
    if json || jsonl {
        let mut m = head;
        m.extend(outcome_json(o));
        println!("{}", Json::Object(m));
        return Ok(());
    }
    println!("Lukho, chain={} keep_one={}, race {race}", rules.chain.name(), rules.keep_one);
    println!("South {} (id {}), North {} (id {})", s, s.id(rules), n, n.id(rules));
    if a.trace {
        let before = setup(&s, &n);
        // The boards alone do not say which pit is which, nor what the marks are.
        println!("(North's row on top, his index 7 at the left; South's index 0 at the left; the number after a name is his store; `s` / `n` after a count: a knife of South / North)");
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
    let r = outcome_json(o);
    // The race names who sows first (or steps first in a tick); the first to finish moves
    // first, so a player who sows nothing moves first whatever the race (rule book L8).
    let first = o.first_player.name();
    let why = match race {
        RaceLabel::Named(r) if r.leader() == o.first_player => String::new(),
        RaceLabel::Named(Race::SouthFirst | Race::NorthFirst) => {
            format!(" ({first} had nothing to sow, so he finished first: rule L8)")
        }
        RaceLabel::Named(_) => format!(" ({first} finished sowing first: rule L8)"),
        RaceLabel::Speeds(_) => String::new(),
    };
    println!(
        "\nfirst player {}{why}, final totals South {} North {}, winner {}, margin {}, class {}, {} turns, points {} (first game) / {} (later game)",
        o.first_player.name(),
        r["stores"][0],
        r["stores"][1],
        o.winner.map_or("draw", |w| w.name()),
        r["margin"],
        o.class.name(),
        o.turns,
        o.points_first_game,
        o.points_later_game
    );
    Ok(())
}

#[derive(Args)]
#[command(mut_arg("json", |a| a.help("Print the outcomes as one JSON document")))]
#[command(mut_arg("jsonl", |a| a.help("Print one JSON line per race outcome")))]
pub struct RacesArgs {
    #[command(flatten)]
    pair: Pair,
    #[command(flatten)]
    output: Output,
}

pub fn races(a: RacesArgs) -> Result<()> {
    let Output { json, jsonl, rules } = a.output;
    let rules = &rules.rules();
    let (s, n) = a.pair.choices(rules)?;
    let rows = speeds_rows(rules, &s, &n);
    if json {
        let rows: Vec<Json> = rows.into_iter().map(Json::Object).collect();
        println!(
            "{}",
            json!({"rules": rules.to_json(), "south": choice_json(&s, rules), "north": choice_json(&n, rules), "races": rows})
        );
    } else if jsonl {
        for (i, mut r) in rows.into_iter().enumerate() {
            if i == 0 {
                r.insert("rules".into(), rules.to_json());
            }
            println!("{}", Json::Object(r));
        }
    } else {
        println!("{} speeds outcomes for South {} vs North {} (ρ = v_South / v_North; [from, to))", rows.len(), s, n);
        let text = |v: &Json| v.as_str().unwrap_or_default().to_string();
        for r in &rows {
            println!(
                "{:>10}  ρ in [{}, {})  first {}  {} {}  margin {}  {}",
                text(&r["race"]),
                text(&r["rho_from"]),
                text(&r["rho_to"]),
                text(&r["first_player"]),
                text(&r["winner"]),
                r["stores"],
                r["margin"],
                text(&r["class"])
            );
        }
    }
    Ok(())
}
