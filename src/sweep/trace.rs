//! A played game turn by turn, for `lukho play --trace`.

use super::summary::half_json;
use crate::games::lukho::{
    play_after, speed_races, Choice, GameOutcome, Opening, Position, ProvenCycles, RaceError, RaceLabel, Ratio, Rules,
};
use serde_json::{json, Value as Json};

/// A whole game: the opening, the positions at the start of each turn (the first is the
/// position right after the opening; a cycle's last position repeats an earlier one), and
/// the outcome.
pub struct Trace {
    pub opening: Opening,
    pub positions: Vec<Position>,
    pub outcome: GameOutcome,
}

/// The game of a pair under one race outcome; an error when the pair has no such outcome.
pub fn trace(rules: &Rules, south: &Choice, north: &Choice, race: RaceLabel) -> Result<Trace, RaceError> {
    // A game's perpetual-cycle proofs are worth nothing to the next command: a fresh set.
    let proven = ProvenCycles::new();
    let o = race.opening(rules, &proven, south, north)?;
    let outcome = play_after(rules, &proven, &o);
    let mut pos = Position { board: o.board, to_move: o.first_player };
    let mut positions = vec![pos];
    if !o.perpetual {
        // The outcome says how many turns were completed; replay them.
        for _ in 0..outcome.turns {
            pos.turn(rules, &proven);
            positions.push(pos);
        }
    }
    Ok(Trace { opening: o, positions, outcome })
}

/// The head every `lukho play` output starts with: rules, race and both choices.
pub fn play_head(rules: &Rules, south: &Choice, north: &Choice, race: RaceLabel) -> serde_json::Map<String, Json> {
    let mut head = serde_json::Map::new();
    head.insert("rules".into(), rules.to_json());
    head.insert("race".into(), json!(race.to_string()));
    head.insert("south".into(), choice_json(south, rules));
    head.insert("north".into(), choice_json(north, rules));
    head
}

/// The game turn by turn as `lukho play --trace --jsonl` prints it: one state object per
/// position (`turn`), the first with the [`play_head`], the last with the `result`.
pub fn trace_lines(t: &Trace, head: &serde_json::Map<String, Json>) -> Vec<Json> {
    let n = t.positions.len();
    (t.positions.iter().enumerate())
        .map(|(i, p)| {
            let mut line = position_json(p);
            line.insert("turn".into(), json!(i));
            if i == 0 {
                line.extend(head.clone());
            }
            if i + 1 == n {
                line.insert("result".into(), Json::Object(outcome_json(&t.outcome)));
            }
            Json::Object(line)
        })
        .collect()
}

/// A choice as JSON: id and text forms.
pub fn choice_json(c: &Choice, rules: &Rules) -> Json {
    json!({"id": c.id(rules), "remove": c.remove_string(), "drop": c.drop_string()})
}

/// A game's result as JSON fields (seeds, halves where a split gives them).
pub fn outcome_json(o: &GameOutcome) -> serde_json::Map<String, Json> {
    let t = o.totals();
    let mut m = serde_json::Map::new();
    m.insert("first_player".into(), json!(o.first_player.name()));
    m.insert("stores".into(), json!([half_json(t[0]), half_json(t[1])]));
    m.insert("winner".into(), json!(o.winner.map_or("draw", |w| w.name())));
    m.insert("margin".into(), half_json(o.margin()));
    m.insert("class".into(), json!(o.class.name()));
    m.insert("turns".into(), json!(o.turns));
    m.insert("points_first_game".into(), json!(o.points_first_game));
    m.insert("points_later_game".into(), json!(o.points_later_game));
    m
}

/// A position as the JSON state object every game's tools share.
pub fn position_json(p: &Position) -> serde_json::Map<String, Json> {
    let mut m = serde_json::Map::new();
    m.insert("game".into(), json!("lukho"));
    m.insert("pits".into(), json!(p.board.pits()));
    m.insert("stores".into(), json!(p.board.stores));
    m.insert("to_move".into(), json!(p.to_move.name()));
    m.insert("knives".into(), json!(p.board.knives_json()));
    m
}

/// Every `speeds` outcome of a pair with its ρ interval and the game it gives, as JSON rows.
pub fn speeds_rows(rules: &Rules, south: &Choice, north: &Choice) -> Vec<serde_json::Map<String, Json>> {
    let ratio = |r: &Ratio| json!(r.to_string());
    let proven = ProvenCycles::new();
    speed_races(rules, &proven, south, north)
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let o = play_after(rules, &proven, &r.opening);
            let mut m = serde_json::Map::new();
            m.insert("race".into(), json!(RaceLabel::Speeds(k as u32).to_string()));
            m.insert("rho_from".into(), ratio(&r.lo));
            m.insert("rho_to".into(), r.hi.as_ref().map_or(json!("inf"), ratio));
            m.insert("perpetual_opening".into(), json!(r.opening.perpetual));
            m.extend(outcome_json(&o));
            m
        })
        .collect()
}
