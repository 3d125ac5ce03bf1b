//! Kiothi: a position (the state JSON every Kiothi tool reads) and its legal moves with the
//! search's values, or the tables' where they cover it; the answer of `kiothi solve --json`.

use super::http::{field, opt_seconds, opt_uint, ApiError};
use super::oware::{DEFAULT_SECONDS, MAX_DEPTH};
use super::Oracle;
use crate::games::kiothi::{self, Position, Rules, SowingCache};
use crate::search::Limits;
use crate::side::Side;
use crate::solve::kiothi as ksolve;
use serde_json::{json, Value as Json};

/// `kiothi solve --json` under the default rules (the tables exist for those only): exact
/// without limits where the tables cover the position, else the search under `depth`, `time`,
/// `nodes` ([`DEFAULT_SECONDS`] when none is given).
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
    let mut seconds = opt_seconds(body, "time", o.max_seconds)?;
    let tables = o.kiothi.as_ref();
    let covered = tables.is_some_and(|t| p.warriors_on_board() as usize <= t.max_layer());
    if !covered && depth.is_none() && nodes.is_none() && seconds.is_none() {
        seconds = Some(DEFAULT_SECONDS.min(o.max_seconds));
    }
    let _slot = o.search_slot()?;
    let probe = |q: &Position| tables.and_then(|t| t.probe_position(q));
    let sowing = SowingCache::new();
    let s = ksolve::solve(
        rules,
        &sowing,
        tables.is_some().then_some(&probe as &dyn Fn(&Position) -> Option<i32>),
        &p,
        Limits { depth, seconds, nodes },
    )
    .map_err(|e| ApiError::bad(format!("position: {e}")))?;
    if let Some(Err(e)) = tables.map(|t| t.damage()) {
        return Err(ApiError::new(500, format!("db: {e}")));
    }
    let sow = sowing.stats();
    let exact = s.bounds.is_exact();
    let names = |v: &[kiothi::SowMove]| v.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    let score = exact.then(|| p.final_totals(s.bounds.lo));
    let winner = score.map(|t| Side::ahead(t).map(|w| w.name()).unwrap_or("draw"));
    Ok(json!({
        "rules": rules.to_json(),
        "position": p.to_json(),
        "score": score,
        "winner": winner,
        "value": if exact { json!(s.bounds.lo) } else { Json::Null },
        "exact": exact,
        "lower": s.bounds.lo,
        "upper": s.bounds.hi,
        "best_moves": names(&s.best_moves),
        "pv": names(&s.pv),
        "method": s.method.name(),
        "depth": s.depth,
        "nodes": s.nodes,
        "seconds": s.seconds,
        "nodes_per_second": (s.nodes as f64 / s.seconds.max(1e-9)).round(),
        "moves": s.moves.iter().map(|(m, b)| json!({"move": m.to_string(), "lower": b.lo, "upper": b.hi})).collect::<Vec<_>>(),
        "sowings": {
            "perpetual_rejected": s.game_stats.perpetual_moves,
            "long_legal": s.game_stats.long_moves,
            "costly_positions": s.game_stats.costly_positions,
            "expansions": s.game_stats.expansions,
            "expansion_cache_hits": s.game_stats.cache_hits,
            "long_threshold_relays": kiothi::LONG_SOWING_RELAYS,
            "long_simulated": sow.long_simulated,
            "relays_in_long": sow.relays_in_long,
            "max_relays_simulated": sow.max_relays_simulated,
            "distinguished_point_hits": sow.dp_hits,
        },
    }))
}
