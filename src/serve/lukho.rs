//! Lukho: a game from both players' choices and a race outcome, turn by turn; choice ids;
//! the committed opening tables and equilibrium mixes, read from the results directory.

use super::http::{field, opt_str, opt_uint, variant, ApiError, Reply};
use super::Oracle;
use crate::games::lukho::{Choice, RaceLabel, Rules};
use crate::sweep::trace::{choice_json, outcome_json, position_json, speeds_rows, trace};
use serde_json::{json, Value as Json};
use std::path::{Component, Path, PathBuf};

fn rules(body: &Json) -> Result<Rules, ApiError> {
    let r = field(body, "rules").cloned().unwrap_or(json!({}));
    if !r.is_object() {
        return Err(ApiError::bad(format!("rules: {r}; expected an object {{\"chain\": …, \"keep_one\": …}}")));
    }
    let chain = variant(&r, "chain").map_err(|e| ApiError::bad(format!("rules.{}", e.reason)))?;
    let keep_one = match field(&r, "keep_one") {
        None => false,
        Some(v) => v.as_bool().ok_or_else(|| ApiError::bad(format!("rules.keep_one: {v}; expected true or false")))?,
    };
    Ok(Rules { chain, keep_one })
}

/// A choice given as `{"id": N}` or `{"remove": "r0,…,r7", "drop": "COUNT@PIT"}`; errors name
/// `name.id`, `name.remove` or `name.drop`.
fn choice(v: Option<&Json>, name: &str, rules: &Rules) -> Result<Choice, ApiError> {
    let form = "expected {\"id\": N} or {\"remove\": \"r0,…,r7\", \"drop\": \"COUNT@PIT\"}";
    let Some(v) = v.filter(|v| v.is_object()) else {
        return Err(ApiError::bad(format!("{name}: {form}")));
    };
    let at = |e: ApiError| ApiError::bad(format!("{name}.{}", e.reason));
    if let Some(id) = opt_uint(v, "id", 0, u64::MAX).map_err(at)? {
        return Choice::from_id(id, rules).map_err(|e| ApiError::bad(format!("{name}.{e}")));
    }
    match (opt_str(v, "remove").map_err(at)?, opt_str(v, "drop").map_err(at)?) {
        // The error text starts with the part it is about (`remove: …` / `drop: …`).
        (Some(r), Some(d)) => Choice::parse(r, d, rules).map_err(|e| ApiError::bad(format!("{name}.{e}"))),
        _ => Err(ApiError::bad(format!("{name}: {form}"))),
    }
}

/// `lukho play --trace`: the head (rules, race, both choices), the result as `play --json`
/// gives it, and `trace`: the board at the start of every turn (`play --trace --jsonl`).
pub fn play(body: &Json) -> Result<Json, ApiError> {
    let rules = rules(body)?;
    let s = choice(field(body, "south"), "south", &rules)?;
    let n = choice(field(body, "north"), "north", &rules)?;
    let race_text = opt_str(body, "race")?.ok_or_else(|| {
        ApiError::bad("race: missing; expected south-first, north-first, lockstep-south, lockstep-north or speeds:K")
    })?;
    let race: RaceLabel = race_text.parse().map_err(|e| ApiError::bad(format!("race: {e}")))?;
    let t = trace(&rules, &s, &n, race).map_err(|e| ApiError::bad(format!("race: {e}")))?;
    let mut m = serde_json::Map::new();
    m.insert("rules".into(), rules.to_json());
    m.insert("race".into(), json!(race.to_string()));
    m.insert("south".into(), choice_json(&s, &rules));
    m.insert("north".into(), choice_json(&n, &rules));
    m.extend(outcome_json(&t.outcome));
    m.insert("perpetual_opening".into(), json!(t.opening.perpetual));
    let turns: Vec<Json> = t
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut line = position_json(p);
            line.insert("turn".into(), json!(i));
            Json::Object(line)
        })
        .collect();
    m.insert("trace".into(), Json::Array(turns));
    Ok(Json::Object(m))
}

/// `lukho races --json`: every `speeds` outcome of a pair (the K of `speeds:K`) with its ρ
/// interval and the game it gives.
pub fn races(body: &Json) -> Result<Json, ApiError> {
    let rules = rules(body)?;
    let s = choice(field(body, "south"), "south", &rules)?;
    let n = choice(field(body, "north"), "north", &rules)?;
    let rows: Vec<Json> = speeds_rows(&rules, &s, &n).into_iter().map(Json::Object).collect();
    let (south, north) = (choice_json(&s, &rules), choice_json(&n, &rules));
    Ok(json!({"rules": rules.to_json(), "south": south, "north": north, "races": rows}))
}

/// `lukho opening --json`: a choice by id or by its text forms, both ways.
pub fn opening(body: &Json) -> Result<Json, ApiError> {
    let rules = rules(body)?;
    let c = choice(Some(body), "choice", &rules)?;
    Ok(c.to_json(&rules))
}

/// Largest results file served (the committed tables are well under it).
const MAX_FILE: u64 = 8 << 20;
const KINDS: [(&str, &str); 5] = [
    ("csv", "text/csv; charset=utf-8"),
    ("json", "application/json"),
    ("md", "text/markdown; charset=utf-8"),
    ("txt", "text/plain; charset=utf-8"),
    ("svg", "image/svg+xml"),
];

fn kind(p: &Path) -> Option<&'static str> {
    let ext = p.extension()?.to_str()?;
    KINDS.iter().find(|(e, _)| *e == ext).map(|(_, t)| *t)
}

fn results_dir(o: &Oracle) -> Result<&Path, ApiError> {
    o.results
        .as_deref()
        .ok_or_else(|| ApiError::new(404, "results: the server has no results directory (--results)".into()))
}

/// `path` with every link resolved, when it lies inside the resolved `root`: a link that leads
/// out of the results directory (to `/etc/passwd`, to a directory elsewhere) is no results
/// file.
fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let (root, path) = (root.canonicalize().ok()?, path.canonicalize().ok()?);
    path.starts_with(&root).then_some(path)
}

/// Every table, summary and equilibrium answer under the results directory, by relative path
/// (only what [`results_file`] serves: links leading out of the directory are left out).
pub fn results_list(o: &Oracle) -> Result<Json, ApiError> {
    let root = results_dir(o)?;
    let mut files = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(root.join(&rel)) else { continue };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let Ok(meta) = e.metadata() else { continue };
            let r = rel.join(&name);
            if inside(root, &e.path()).is_none() {
                continue;
            }
            if meta.is_dir() {
                stack.push(r);
            } else if meta.is_file() && meta.len() <= MAX_FILE && kind(&r).is_some() {
                files.push(json!({"path": r.to_string_lossy(), "bytes": meta.len()}));
            }
        }
    }
    files.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
    Ok(json!({"files": files}))
}

/// One file of the results directory: plain relative paths only (no `..`, no hidden names).
pub fn results_file(o: &Oracle, rel: &str) -> Result<Reply, ApiError> {
    let root = results_dir(o)?;
    let bad = || ApiError::new(404, format!("results: {rel}: no such file"));
    let p = Path::new(rel);
    if rel.is_empty()
        || rel.contains('%')
        || !p.components().all(|c| matches!(c, Component::Normal(s) if !s.to_string_lossy().starts_with('.')))
    {
        return Err(bad());
    }
    let ctype = kind(p).ok_or_else(bad)?;
    let full = inside(root, &root.join(p)).ok_or_else(bad)?;
    match std::fs::metadata(&full) {
        Ok(m) if m.is_file() && m.len() <= MAX_FILE => {}
        _ => return Err(bad()),
    }
    let text = std::fs::read_to_string(&full).map_err(|_| bad())?;
    Ok(Reply::Text(text, ctype))
}
