//! Kiothi: positions and their moves, perft and the solver.

use crate::common::{err, input, parse};
use mancala::games::kiothi;
use mancala::input::flag;
use mancala::search::Limits;
use pyo3::prelude::*;
use serde_json::json;
use std::path::PathBuf;

fn kiothi_rules(setup: &str, redistribute: &str, nki_clear: &str, max_relays: Option<u64>) -> PyResult<kiothi::Rules> {
    Ok(kiothi::Rules {
        setup: parse("setup", setup)?,
        redistribute: parse("redistribute", redistribute)?,
        nki_clear: parse("nki_clear", nki_clear)?,
        max_relays,
    })
}

/// A position from a state's JSON text (`None`: the setup's start), checked as `--position` is.
fn kiothi_position(text: Option<&str>, rules: &kiothi::Rules) -> PyResult<kiothi::Position> {
    match text {
        None => Ok(rules.start()),
        Some(t) => kiothi::Position::from_state_text(t).map_err(input),
    }
}

/// The checked position's state JSON and its legal moves as `kiothi replay` lists them.
#[pyfunction]
#[pyo3(signature = (position=None, setup="6x5", redistribute="exactly-2", nki_clear="lift", max_relays=None))]
fn kiothi_state(
    position: Option<&str>,
    setup: &str,
    redistribute: &str,
    nki_clear: &str,
    max_relays: Option<u64>,
) -> PyResult<String> {
    let rules = kiothi_rules(setup, redistribute, nki_clear, max_relays)?;
    let p = kiothi_position(position, &rules)?;
    let g = kiothi::Game::new(rules, p).map_err(|e| err(format!("{}: {e}", flag("position"))))?;
    let legal = if g.result.is_some() {
        json!([])
    } else if g.position.is_redistribution() {
        match g.position.redistribution_count(&g.rules) {
            Ok(n) => json!(n.to_string()),
            Err(_) => json!(null),
        }
    } else {
        json!(g.legal_sowings().iter().map(|m| m.to_string()).collect::<Vec<_>>())
    };
    Ok(json!({"position": p.to_json(), "legal": legal, "terminal": g.result.is_some()}).to_string())
}

/// `kiothi perft`: the leaves of the move tree `depth` plies deep (as a decimal string: it
/// can pass 2^64).
#[pyfunction]
#[pyo3(signature = (depth, position=None, setup="6x5", redistribute="exactly-2", nki_clear="lift", max_relays=None))]
fn kiothi_perft(
    py: Python<'_>,
    depth: u32,
    position: Option<&str>,
    setup: &str,
    redistribute: &str,
    nki_clear: &str,
    max_relays: Option<u64>,
) -> PyResult<String> {
    let rules = kiothi_rules(setup, redistribute, nki_clear, max_relays)?;
    if depth > kiothi::PERFT_MAX_DEPTH {
        return Err(err(format!("{}: at most {}", flag("depth"), kiothi::PERFT_MAX_DEPTH)));
    }
    let p = kiothi_position(position, &rules)?;
    let sowing = kiothi::SowingCache::new();
    Ok(py.allow_threads(|| kiothi::perft_u128(&p, &rules, &sowing, depth)).to_string())
}

/// `kiothi solve --json`.
#[pyfunction]
#[pyo3(signature = (position, depth=None, time=None, nodes=None, db=None, setup="6x5", redistribute="exactly-2", nki_clear="lift", max_relays=None))]
#[allow(clippy::too_many_arguments)]
fn kiothi_solve(
    py: Python<'_>,
    position: &str,
    depth: Option<u32>,
    time: Option<f64>,
    nodes: Option<u64>,
    db: Option<PathBuf>,
    setup: &str,
    redistribute: &str,
    nki_clear: &str,
    max_relays: Option<u64>,
) -> PyResult<String> {
    use mancala::solve::kiothi as ksolve;
    let rules = kiothi_rules(setup, redistribute, nki_clear, max_relays)?;
    if depth == Some(0) || nodes == Some(0) {
        return Err(err("--depth / --nodes: expected at least 1"));
    }
    let p = kiothi_position(Some(position), &rules)?;
    ksolve::check(&p).map_err(|e| err(format!("{}: {e}", flag("position"))))?;
    let tables = match db {
        None => None,
        Some(dir) => {
            Some(mancala::retro::kiothi::Database::open_through(&dir, rules, p.warriors_on_board() as usize).map_err(
                |e| match e {
                    mancala::store::layer_file::DbError::Rules(e) => input(e),
                    e => err(format!("{}: {e}", flag("db"))),
                },
            )?)
        }
    };
    let answer = py.allow_threads(|| {
        ksolve::solve_with_tables(rules, tables.as_ref(), &p, Limits { depth, seconds: time, nodes }, None)
    });
    let (s, sow) = answer.map_err(|e| err(format!("{}: {e}", flag("position"))))?;
    if let Some(t) = &tables {
        t.damage().map_err(|e| err(format!("{}: {e}", flag("db"))))?;
    }
    Ok(ksolve::answer_json(&rules, &p, &s, &sow).to_string())
}

/// The Kiothi functions of `mancala._native`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in
        [wrap_pyfunction!(kiothi_state, m)?, wrap_pyfunction!(kiothi_perft, m)?, wrap_pyfunction!(kiothi_solve, m)?]
    {
        m.add_function(f)?;
    }
    Ok(())
}
