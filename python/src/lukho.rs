//! Lukho: opening choices, a game, sweeps and the opening's equilibrium.

use crate::common::{err, input, parse, Progress};
use mancala::games::lukho;
use mancala::input::{flag, InputError};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyList;
use serde_json::{json, Value as Json};
use std::path::PathBuf;

fn lukho_rules(chain: &str, keep_one: bool) -> PyResult<lukho::Rules> {
    Ok(lukho::Rules { chain: parse("chain", chain)?, keep_one })
}

fn choice_error(field: &'static str, e: lukho::ChoiceError) -> PyErr {
    match e {
        lukho::ChoiceError::Id { id, count } => {
            err(format!("{}: {id} is out of range (0..{count} under these rules)", flag(field)))
        }
        e => err(format!("{}: {e}", flag(field))),
    }
}

#[pyfunction]
#[pyo3(signature = (id, chain="it", keep_one=false))]
fn lukho_choice_from_id(id: u64, chain: &str, keep_one: bool) -> PyResult<String> {
    let rules = lukho_rules(chain, keep_one)?;
    let c = lukho::Choice::from_id(id, &rules).map_err(|e| choice_error("id", e))?;
    Ok(c.to_json(&rules).to_string())
}

/// A choice from its text forms; `fields` name the removal's and the drop's flags.
fn choice(fields: [&'static str; 2], remove: &str, drop: &str, rules: &lukho::Rules) -> PyResult<lukho::Choice> {
    lukho::Choice::parse(remove, drop, rules).map_err(|e| {
        let field = match e {
            lukho::ChoiceError::Remove(_) => fields[0],
            _ => fields[1],
        };
        err(format!("{}: {e}", flag(field)))
    })
}

#[pyfunction]
#[pyo3(signature = (remove, drop, chain="it", keep_one=false))]
fn lukho_choice_parse(remove: &str, drop: &str, chain: &str, keep_one: bool) -> PyResult<String> {
    let rules = lukho_rules(chain, keep_one)?;
    Ok(choice(["remove", "drop"], remove, drop, &rules)?.to_json(&rules).to_string())
}

/// `lukho play --json` (the result) and the `--trace --jsonl` lines, as `{"result", "trace"}`.
#[pyfunction]
#[pyo3(signature = (south_remove, south_drop, north_remove, north_drop, race, chain="it", keep_one=false))]
fn lukho_play(
    south_remove: &str,
    south_drop: &str,
    north_remove: &str,
    north_drop: &str,
    race: &str,
    chain: &str,
    keep_one: bool,
) -> PyResult<String> {
    use mancala::sweep::trace::{outcome_json, play_head, trace, trace_lines};
    let rules = lukho_rules(chain, keep_one)?;
    let s = choice(["south_remove", "south_drop"], south_remove, south_drop, &rules)?;
    let n = choice(["north_remove", "north_drop"], north_remove, north_drop, &rules)?;
    let race: lukho::RaceLabel = parse("race", race)?;
    let t = trace(&rules, &s, &n, race).map_err(|e| input(InputError::new("race", e.to_string())))?;
    let head = play_head(&rules, &s, &n, race);
    let mut result = head.clone();
    result.extend(outcome_json(&t.outcome));
    Ok(json!({"result": result, "trace": trace_lines(&t, &head)}).to_string())
}

/// The summary of a sweep in memory: `(columns, identity JSON)`, the columns of
/// `summary.csv` in order as `(name, kind, values, nulls)`: NumPy int64/float64 arrays (a
/// boolean null mask for floats, or `None`) and lists of strings.
#[pyfunction]
#[pyo3(signature = (south, north, race, symmetric=false, chain="it", keep_one=false, progress=None))]
#[allow(clippy::too_many_arguments)]
fn lukho_sweep<'py>(
    py: Python<'py>,
    south: &str,
    north: Option<&str>,
    race: &str,
    symmetric: bool,
    chain: &str,
    keep_one: bool,
    progress: Option<PyObject>,
) -> PyResult<(Bound<'py, PyList>, String)> {
    use mancala::export::{Column, Value};
    use mancala::sweep::summary::{summary_columns, summary_row};
    use mancala::sweep::{Plan, Spec, SweepDef};
    let rules = lukho_rules(chain, keep_one)?;
    let south: Spec = parse("south", south)?;
    let north: Option<Spec> = north.map(|n| parse("north", n)).transpose()?;
    let model: lukho::Races = parse("race", race)?;
    let def = SweepDef::new(rules, model, south, north, symmetric).map_err(input)?;
    let plan = Plan::new(def, None).map_err(input)?;
    if let Some(games) = plan.unsharded_games_over_limit() {
        return Err(err(format!(
            "{}: this sweep plays {games} games (more than {}); run it sharded from the command line (`mancala lukho sweep --shard K/N`)",
            flag("shard"),
            mancala::sweep::plan::UNSHARDED_GAMES
        )));
    }
    let bar = Progress::new(progress, plan.games());
    let rows = py.allow_threads(|| plan.aggregate(&|n| bar.add(n)));
    bar.finish(py)?;
    let table: Vec<Vec<Value>> = rows.iter().map(|(id, a)| summary_row(*id, &rules, a)).collect();
    let out = PyList::empty(py);
    for (i, c) in summary_columns().iter().enumerate() {
        let cells = table.iter().map(|r| &r[i]);
        let item = match c {
            Column::Int(name) => {
                let v: Vec<i64> = cells.map(|x| if let Value::Int(v) = x { *v } else { 0 }).collect();
                (name, "int", PyArray1::from_vec(py, v).into_any(), py.None().into_bound(py))
            }
            Column::Float(name) => {
                let v: Vec<f64> = cells.clone().map(|x| if let Value::Float(v) = x { *v } else { f64::NAN }).collect();
                let nulls: Vec<bool> = cells.map(|x| matches!(x, Value::Null)).collect();
                let mask = if nulls.iter().any(|&b| b) {
                    PyArray1::from_vec(py, nulls).into_any()
                } else {
                    py.None().into_bound(py)
                };
                (name, "float", PyArray1::from_vec(py, v).into_any(), mask)
            }
            Column::Str(name) => {
                let v: Vec<String> =
                    cells.map(|x| if let Value::Str(s) = x { s.clone() } else { String::new() }).collect();
                (name, "str", PyList::new(py, v)?.into_any(), py.None().into_bound(py))
            }
        };
        out.append(item)?;
    }
    Ok((out, plan.identity().to_string()))
}

/// `lukho equilibrium --json`: the answer (resumable from `out`, as the CLI's).
#[pyfunction]
#[pyo3(signature = (race, payoff, out, family="all", time=None, max_iterations=None, chain="it", keep_one=false, progress=None, replies=1, vector_budget=None, average=0, average_replies=1, average_weights="uniform", restricted_gap=0.0, cuts=0))]
#[allow(clippy::too_many_arguments)]
fn lukho_equilibrium(
    py: Python<'_>,
    race: &str,
    payoff: &str,
    out: PathBuf,
    family: &str,
    time: Option<f64>,
    max_iterations: Option<u32>,
    chain: &str,
    keep_one: bool,
    progress: Option<PyObject>,
    replies: usize,
    vector_budget: Option<u64>,
    average: usize,
    average_replies: usize,
    average_weights: &str,
    restricted_gap: f64,
    cuts: usize,
) -> PyResult<String> {
    use mancala::opening_game::{EqError, IterRecord, Observer, OpeningGame, Options, Solver, StopAt};
    // The ranges are the library's: `open_with` checks them (as for the CLI's flags).
    let options = Options {
        replies,
        average,
        average_replies,
        average_weights: parse("average_weights", average_weights)?,
        restricted_gap,
        vector_budget,
        cuts,
        lp_trace: false,
        stop: StopAt { max_iterations, seconds: time },
    };
    let rules = lukho_rules(chain, keep_one)?;
    let def = OpeningGame {
        rules,
        model: parse("race", race)?,
        payoff: parse("payoff", payoff)?,
        family: parse("family", family)?,
    };
    let eq_err = |e: EqError| match e {
        EqError::Input(e) => input(e),
        e => err(format!("{}: {e}", flag("out"))),
    };
    struct Obs<'a>(&'a Progress);
    impl Observer for Obs<'_> {
        fn games(&self, n: u64) {
            self.0.add(n);
        }
        fn iteration(&self, _r: &IterRecord) {}
    }
    let bar = Progress::new(progress, None);
    let answer = py.allow_threads(|| -> Result<Json, EqError> {
        let mut solver = Solver::open_with(def, &out, options)?;
        solver.run(&Obs(&bar))?;
        let answer = solver.answer(&[]);
        let path = solver.write_answer(&answer)?;
        Ok(answer.to_json(Some(&path)))
    });
    bar.finish(py)?;
    Ok(answer.map_err(eq_err)?.to_string())
}

/// The Lukho functions of `mancala._native`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(lukho_choice_from_id, m)?,
        wrap_pyfunction!(lukho_choice_parse, m)?,
        wrap_pyfunction!(lukho_play, m)?,
        wrap_pyfunction!(lukho_sweep, m)?,
        wrap_pyfunction!(lukho_equilibrium, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
