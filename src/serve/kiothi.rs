//! Kiothi: a position (the state JSON every Kiothi tool reads) and its legal moves with the
//! search's values, or the tables' where they cover it; the answer of `kiothi solve --json`.

use super::http::{field, opt_seconds, opt_uint, ApiError};
use super::oware::MAX_DEPTH;
use super::{intact, Oracle};
use crate::games::kiothi::{Position, Rules};
use crate::search::Limits;
use crate::solve::kiothi as ksolve;
use serde_json::Value as Json;

/// `kiothi solve --json` under the default rules (the tables exist for those only): exact
/// without limits where the tables cover the position, else the search under `depth`, `time`,
/// `nodes`, at most `--max-time` ([`super::DEFAULT_SECONDS`] when none is given).
pub fn solve(o: &Oracle, body: &Json) -> Result<Json, ApiError> {
    let rules = Rules::default();
    let v = field(body, "position").ok_or_else(|| {
        ApiError::bad("position: missing; expected a state object {\"game\":\"kiothi\",\"pits\":[20 counts],…}")
    })?;
    let p = Position::from_json(v).map_err(|e| ApiError::bad(format!("position: {e}")))?;
    p.validate().map_err(|e| ApiError::bad(format!("position: {e}")))?;
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
