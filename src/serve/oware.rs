//! Oware: replay a game from its moves, solve a position (the database, or the search under
//! limits), and stream the search's bounds depth by depth as they tighten.

use super::http::{field, opt_seconds, opt_uint, variant, ApiError, Reply};
use super::{intact, Oracle};
use crate::games::oware::{self, Game, Position, Rules, View, PITS};
use crate::retro::oware::Database;
use crate::search::Limits;
use crate::side::Side;
use crate::solve::oware::{answer_json, check_rules, solve as solve_view};
use serde_json::{json, Value as Json};
use std::time::Instant;

/// Seconds a search of a position the database does not cover gets when the request gives no
/// limit: the exact mode of `oware solve` may run for hours there.
pub const DEFAULT_SECONDS: f64 = 10.0;
/// Deepest iteration a request may ask for.
pub const MAX_DEPTH: u64 = 200;

fn rules(body: &Json) -> Result<Rules, ApiError> {
    let r = field(body, "rules").cloned().unwrap_or(json!({}));
    if !r.is_object() {
        return Err(ApiError::bad(format!("rules: {r}; expected an object {{\"grand_slam\": …, \"cycle\": …}}")));
    }
    let prefixed = |e: ApiError| ApiError::bad(format!("rules.{}", e.reason));
    Ok(Rules {
        grand_slam: variant(&r, "grand_slam").map_err(prefixed)?,
        cycle: variant(&r, "cycle").map_err(prefixed)?,
    })
}

/// 12 seed counts, each 0..=48, at most 48 in all.
fn pits(v: Option<&Json>, name: &str) -> Result<View, ApiError> {
    let form = "expected an array of 12 seed counts 0..=48 with a total of at most 48";
    let Some(a) = v.and_then(Json::as_array) else {
        return Err(ApiError::bad(format!("{name}: {form}")));
    };
    if a.len() != PITS {
        return Err(ApiError::bad(format!("{name}: {} values; {form}", a.len())));
    }
    let mut out = [0u8; PITS];
    for (i, x) in a.iter().enumerate() {
        out[i] = match x.as_u64() {
            Some(n) if n <= 48 => n as u8,
            _ => return Err(ApiError::bad(format!("{name}[{i}]: {x}; {form}"))),
        };
    }
    if oware::seeds(&out) > oware::TOTAL_SEEDS {
        return Err(ApiError::bad(format!("{name}: {} seeds in all; {form}", oware::seeds(&out))));
    }
    Ok(out)
}

fn state_json(p: &Position) -> Json {
    json!({"game": "oware", "pits": p.pits, "stores": p.stores, "to_move": p.to_move.name()})
}

/// A game from `start` (default: the opening position) and `moves` (own pit indices): the
/// position reached, its mover's view, the legal moves and the result once it has ended;
/// repetitions are judged over the whole move list, as `oware replay` does.
pub fn game(body: &Json) -> Result<Json, ApiError> {
    let rules = rules(body)?;
    let position = match field(body, "start") {
        None => Position::default(),
        Some(s) => {
            let pits = pits(s.get("pits"), "start.pits")?;
            let to_move = match s.get("to_move").and_then(Json::as_str).unwrap_or("south") {
                "south" => Side::South,
                "north" => Side::North,
                other => return Err(ApiError::bad(format!("start.to_move: `{other}`; expected south or north"))),
            };
            let taken = oware::TOTAL_SEEDS - oware::seeds(&pits);
            let stores = match s.get("stores").filter(|v| !v.is_null()) {
                None => [(taken / 2) as u8, (taken - taken / 2) as u8],
                Some(v) => match v.as_array().map(|a| a.iter().map(Json::as_u64).collect::<Vec<_>>()) {
                    Some(a)
                        if a.len() == 2
                            && a.iter().all(Option::is_some)
                            && a[0].unwrap() + a[1].unwrap() == taken as u64 =>
                    {
                        [a[0].unwrap() as u8, a[1].unwrap() as u8]
                    }
                    _ => {
                        return Err(ApiError::bad(format!(
                        "start.stores: {v}; expected [south, north] adding up to the {taken} seeds not on the board"
                    )))
                    }
                },
            };
            Position { pits, stores, to_move }
        }
    };
    let moves = match field(body, "moves") {
        None => vec![],
        Some(v) => v
            .as_array()
            .ok_or_else(|| ApiError::bad(format!("moves: {v}; expected an array of own pit indices 0..5")))?
            .clone(),
    };
    if moves.len() > 10_000 {
        return Err(ApiError::bad(format!("moves: {} plies; at most 10000", moves.len())));
    }
    let mut g = Game::new(rules, position);
    let mut captured = Vec::with_capacity(moves.len());
    for (ply, m) in moves.iter().enumerate() {
        let pit = match m.as_u64() {
            Some(p) if p < 6 => p as u8,
            _ => return Err(ApiError::bad(format!("moves[{ply}]: {m} is not an own pit index 0..5"))),
        };
        let before = g.position.stores;
        g.play(pit).map_err(|e| ApiError::bad(format!("moves[{ply}]: {e}")))?;
        captured.push(g.position.stores[0] + g.position.stores[1] - before[0] - before[1]);
    }
    let mut out = state_json(&g.position);
    out["rules"] = rules.to_json();
    out["ply"] = json!(moves.len());
    out["view"] = json!(g.position.view());
    out["legal"] = json!(g.legal());
    out["terminal"] = json!(g.result.is_some());
    out["captured"] = json!(captured);
    if let Some(r) = &g.result {
        let num = |x: f64| if x.fract() == 0.0 { json!(x as i64) } else { json!(x) };
        out["result"] = json!({"winner": r.winner().map(|s| s.name()).unwrap_or("draw"), "score": [num(r.score[0]), num(r.score[1])]});
    }
    Ok(out)
}

struct Query<'o> {
    rules: Rules,
    pits: View,
    db: Option<&'o Database>,
    covered: bool,
}

/// What a stream keeps of a query (the database is found again in the oracle it holds).
#[derive(Clone, Copy)]
struct Key {
    rules: Rules,
    pits: View,
}

fn query<'o>(o: &'o Oracle, body: &Json) -> Result<Query<'o>, ApiError> {
    let rules = rules(body)?;
    check_rules(&rules).map_err(|e| ApiError::bad(format!("rules.{}: {}", e.field, e.message)))?;
    let pits = pits(field(body, "pits"), "pits")?;
    let db = o.oware.iter().find(|d| *d.rules() == rules);
    let covered = db.is_some_and(|d| oware::seeds(&pits) as usize <= d.max_layer());
    Ok(Query { rules, pits, db, covered })
}

/// `oware solve`: a database position exactly; elsewhere the search under the request's
/// `depth` / `time` (or [`DEFAULT_SECONDS`] when it gives neither).
pub fn solve(o: &Oracle, body: &Json) -> Result<Json, ApiError> {
    let q = query(o, body)?;
    let depth = opt_uint(body, "depth", 1, MAX_DEPTH)?.map(|d| d as u32);
    let seconds = opt_seconds(body, "time", o.max_seconds)?;
    // A database position without limits is read off the database: no search, no slot.
    let (limits, _slot) = if q.covered && depth.is_none() && seconds.is_none() {
        (Limits::default(), None)
    } else {
        (o.search_limits(depth, seconds, None), Some(o.search_slot()?))
    };
    let s = intact(|| solve_view(q.rules, q.db, &q.pits, limits))?;
    Ok(answer_json(&q.rules, &q.pits, &s))
}

/// Bounds as they tighten: one JSON line per completed search depth (each the answer of
/// `oware solve --depth D`), until exact, the time limit (`time`, default
/// [`DEFAULT_SECONDS`]) or `max_depth`; a database position is one exact line. The last line
/// is `{"done": true, "reason": …}`.
pub fn analyse(o: &std::sync::Arc<Oracle>, body: &Json) -> Result<Reply, ApiError> {
    let q = query(o, body)?;
    let seconds = opt_seconds(body, "time", o.max_seconds)?.unwrap_or(DEFAULT_SECONDS.min(o.max_seconds));
    let max_depth = opt_uint(body, "max_depth", 1, MAX_DEPTH)?.unwrap_or(MAX_DEPTH) as u32;
    let key = Key { rules: q.rules, pits: q.pits };
    if q.covered {
        let s = intact(|| solve_view(q.rules, q.db, &q.pits, Limits::default()))?;
        let line = answer_json(&q.rules, &q.pits, &s);
        return Ok(Reply::Lines(Box::new(move |emit| {
            if emit(&line) {
                emit(&json!({"done": true, "reason": "exact"}));
            }
        })));
    }
    // The slot is taken before the stream starts, so a busy server answers 503 at once; the
    // stream owns the guard, so the slot is freed when the stream ends or, if it never runs
    // (the client left before the response began), when it is dropped.
    let slot = o.search_slot()?;
    let o = o.clone();
    Ok(Reply::Lines(Box::new(move |emit| {
        let _slot = slot;
        let db = o.oware.iter().find(|d| *d.rules() == key.rules);
        let start = Instant::now();
        let mut reason = "depth";
        for d in 1..=max_depth {
            let left = seconds - start.elapsed().as_secs_f64();
            if left <= 0.0 {
                reason = "time";
                break;
            }
            let limits = Limits { depth: Some(d), seconds: Some(left), nodes: None };
            let s = match intact(|| solve_view(key.rules, db, &key.pits, limits)) {
                Ok(s) => s,
                Err(e) => {
                    emit(&json!({"error": e.reason}));
                    return;
                }
            };
            let exact = s.bounds.is_exact();
            if !exact && s.depth < d {
                // The time ran out inside this depth: its partial bounds are not an answer
                // `oware solve --depth D` would give, so they are not shown.
                reason = "time";
                break;
            }
            let mut line = answer_json(&key.rules, &key.pits, &s);
            line["elapsed"] = json!(start.elapsed().as_secs_f64());
            if !emit(&line) {
                return;
            }
            if exact {
                reason = "exact";
                break;
            }
        }
        emit(&json!({"done": true, "reason": reason}));
    })))
}
