//! Kiothi: a position (the state JSON every Kiothi tool reads) and its legal moves with the
//! search's values, or the tables' where they cover it (the answer of `kiothi solve --json`);
//! one move played on it (the last line of `kiothi replay --jsonl`).

use super::http::{field, opt_seconds, opt_str, opt_uint, ApiError};
use super::oware::MAX_DEPTH;
use super::{intact, Oracle};
use crate::games::kiothi::{Game, Move, Position, Rules};
use crate::search::Limits;
use crate::solve::kiothi as ksolve;
use serde_json::Value as Json;

/// `kiothi solve --json` under the default rules (the tables exist for those only): exact
/// without limits where the tables cover the position, else the search under `depth`, `time`,
/// `nodes`, at most `--max-time` ([`super::DEFAULT_SECONDS`] when none is given).
pub fn solve(o: &Oracle, body: &Json) -> Result<Json, ApiError> {
    let rules = Rules::default();
    let p = position(body)?;
    ksolve::check(&p).map_err(|e| ApiError::bad(format!("position: {e}")))?;
    let depth = opt_uint(body, "depth", 1, MAX_DEPTH)?.map(|d| d as u32);
    let nodes = opt_uint(body, "nodes", 1, u64::MAX)?;
    let seconds = opt_seconds(body, "time", o.max_seconds)?;
    let tables = o.kiothi.as_ref();
    let covered = tables.is_some_and(|t| p.warriors_on_board() as usize <= t.max_layer());
    // A position the tables cover, without limits, is solved through them (its children are
    // probed), still within `--max-time`.
    let limits = if covered && depth.is_none() && nodes.is_none() && seconds.is_none() {
        Limits { seconds: Some(o.max_seconds), ..Limits::default() }
    } else {
        o.search_limits(depth, seconds, nodes)
    };
    let _slot = o.search_slot()?;
    let (s, sow) = intact(|| ksolve::solve_with_tables(rules, tables, &p, limits, None))?
        .map_err(|e| ApiError::bad(format!("position: {e}")))?;
    Ok(ksolve::answer_json(&rules, &p, &s, &sow))
}

/// The body's `position`: a state object, checked as every Kiothi tool checks it.
fn position(body: &Json) -> Result<Position, ApiError> {
    let v = field(body, "position").ok_or_else(|| {
        ApiError::bad("position: missing; expected a state object {\"game\":\"kiothi\",\"pits\":[20 counts],…}")
    })?;
    let p = Position::from_json(v).map_err(|e| ApiError::bad(format!("position: {e}")))?;
    p.validate().map_err(|e| ApiError::bad(format!("position: {e}")))?;
    Ok(p)
}

/// `kiothi replay --position P --moves M` for one move under the default rules (the rules the
/// solver and the tables use, so the page can solve what it plays): `{move, captured,
/// position, legal, terminal, result?}`, the last four as replay's last line gives them. An
/// illegal move, or one after the game has ended, is a 400 saying why in the library's words.
pub fn play(body: &Json) -> Result<Json, ApiError> {
    let rules = Rules::default();
    let p = position(body)?;
    let text = opt_str(body, "move")?.ok_or_else(|| {
        ApiError::bad("move: missing; expected B:K (own boma B 0..9, K >= 1 warriors lifted) or a redistribution")
    })?;
    let m: Move = text.parse().map_err(|e| ApiError::bad(format!("move: {e}")))?;
    let mut g = Game::new(rules, p).map_err(|e| ApiError::bad(format!("position: {e}")))?;
    g.play(&m).map_err(|e| ApiError::bad(format!("move: {e}")))?;
    let mover = p.to_move.index();
    // Prisons only grow by captures, so the mover's gain is what this move captured.
    let captured = g.position.prisons[mover] - p.prisons[mover];
    let mut state = g.state_json();
    let mut v = serde_json::json!({"move": m.to_string(), "captured": captured});
    for k in ["legal", "terminal", "result"] {
        if let Some(x) = state.as_object_mut().and_then(|o| o.remove(k)) {
            v[k] = x;
        }
    }
    v["position"] = state;
    Ok(v)
}
