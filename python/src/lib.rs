//! `mancala._native`: the Rust library behind the Python package `mancala` (python/mancala).
//!
//! Every call goes to the library the command line uses, and answers are the JSON objects the
//! command line prints (built by the same library functions), so the Python package returns
//! what the CLI prints. Tables come back as NumPy arrays, which pyarrow wraps without a copy.
//! Bad input raises `MancalaError` (a `ValueError`) whose message is the CLI's one line: the
//! flag, then the library's text ([`InputError::line`]). Long calls release the GIL.

use mancala::games::{kiothi, lukho, oware};
use mancala::input::{flag, InputError};
use mancala::search::Limits;
use numpy::PyArray1;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

create_exception!(_native, MancalaError, PyValueError, "Bad input or a refused file: the CLI's one-line message.");

fn err(line: impl Into<String>) -> PyErr {
    MancalaError::new_err(line.into())
}

fn input(e: InputError) -> PyErr {
    err(e.line())
}

/// A value of a flag parsed by its type's `FromStr`; the error names the flag of `field`.
fn parse<T: std::str::FromStr>(field: &'static str, s: &str) -> PyResult<T>
where
    T::Err: std::fmt::Display,
{
    s.parse::<T>().map_err(|e| err(format!("{}: {e}", flag(field))))
}

/// A progress callback called with `(done, total)` (`total`: the work's size when known, else
/// `None`), at most every 0.2 s, from whichever thread finishes work (it takes the GIL for the
/// call).
struct Progress {
    callback: Option<PyObject>,
    total: Option<u64>,
    done: AtomicU64,
    last: Mutex<Instant>,
}

impl Progress {
    fn new(callback: Option<PyObject>, total: Option<u64>) -> Progress {
        Progress { callback, total, done: AtomicU64::new(0), last: Mutex::new(Instant::now()) }
    }

    fn add(&self, n: u64) {
        let total = self.done.fetch_add(n, Ordering::Relaxed) + n;
        let Some(cb) = &self.callback else { return };
        if let Ok(mut last) = self.last.try_lock() {
            if last.elapsed() >= Duration::from_millis(200) {
                *last = Instant::now();
                // A failing callback must not stop the computation: its error is printed.
                Python::with_gil(|py| {
                    if let Err(e) = cb.call1(py, (total, self.total)) {
                        e.print(py);
                    }
                });
            }
        }
    }

    fn finish(&self, py: Python<'_>) -> PyResult<()> {
        if let Some(cb) = &self.callback {
            cb.call1(py, (self.done.load(Ordering::Relaxed), self.total))?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- Oware

fn oware_rules(grand_slam: &str, cycle: &str) -> PyResult<oware::Rules> {
    Ok(oware::Rules { grand_slam: parse("grand_slam", grand_slam)?, cycle: parse("cycle", cycle)? })
}

fn pits_text(pits: &[i64]) -> String {
    pits.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(",")
}

/// A mover's view from 12 counts, checked as `--pits` is.
fn oware_view(pits: &[i64]) -> PyResult<oware::View> {
    oware::parse_pits("pits", &pits_text(pits)).map_err(input)
}

#[pyfunction]
fn oware_rules_json(grand_slam: &str, cycle: &str) -> PyResult<String> {
    Ok(oware_rules(grand_slam, cycle)?.to_json().to_string())
}

/// The moves of a mover's view: `[{"move", "captured", "pits"}]` (the child from the next
/// mover's view), or `{"ended": …}` when the mover has none.
#[pyfunction]
fn oware_moves(pits: Vec<i64>, grand_slam: &str, cycle: &str) -> PyResult<String> {
    let rules = oware_rules(grand_slam, cycle)?;
    let v = oware_view(&pits)?;
    Ok(match rules.node(&v) {
        oware::Node::Ended(e) => json!({"ended": format!("{e:?}"), "value": e.mover_net(oware::seeds(&v) as i32)}),
        oware::Node::Moves(ms) => {
            json!(ms
                .iter()
                .map(|m| json!({"move": m.pit, "captured": m.captured, "pits": m.child}))
                .collect::<Vec<_>>())
        }
    }
    .to_string())
}

/// A whole game from a position, as `oware replay` plays it.
#[pyclass(module = "mancala._native", subclass)]
struct OwareGame {
    game: oware::Game,
}

#[pymethods]
impl OwareGame {
    #[new]
    #[pyo3(signature = (pits=None, stores=None, to_move="south", grand_slam="no-capture", cycle="split"))]
    fn new(
        pits: Option<Vec<i64>>,
        stores: Option<[u8; 2]>,
        to_move: &str,
        grand_slam: &str,
        cycle: &str,
    ) -> PyResult<Self> {
        let rules = oware_rules(grand_slam, cycle)?;
        let to_move = match to_move {
            "south" => mancala::side::Side::South,
            "north" => mancala::side::Side::North,
            other => return Err(err(format!("--to-move: `{other}`; expected south or north"))),
        };
        let position = match pits {
            None => oware::Position { to_move, ..oware::Position::default() },
            Some(p) => {
                let pits = oware::parse_pits("start", &pits_text(&p)).map_err(input)?;
                let taken = oware::TOTAL_SEEDS - oware::seeds(&pits);
                let stores = stores.unwrap_or([(taken / 2) as u8, (taken - taken / 2) as u8]);
                oware::Position { pits, stores, to_move }
            }
        };
        Ok(OwareGame { game: oware::Game::new(rules, position) })
    }

    /// The legal pits (a list, not bytes).
    fn legal(&self) -> Vec<u32> {
        self.game.legal().into_iter().map(u32::from).collect()
    }

    fn play(&mut self, pit: u8) -> PyResult<()> {
        if self.game.result.is_some() {
            return Err(err(format!("--moves: move {pit} after the game has ended")));
        }
        self.game.play(pit).map_err(|e| err(format!("--moves: {e}")))
    }

    /// The state as `oware replay --jsonl` prints it (game, pits, stores, to_move).
    fn state_json(&self) -> String {
        let p = &self.game.position;
        json!({"game": "oware", "pits": p.pits, "stores": p.stores, "to_move": p.to_move.name(),
            "terminal": self.game.result.is_some()})
        .to_string()
    }
}

/// `oware solve --json`: value, bounds, best moves, PV, per-move bounds.
#[pyfunction]
#[pyo3(signature = (pits, db=None, depth=None, time=None, grand_slam="no-capture", cycle="split"))]
fn oware_solve(
    py: Python<'_>,
    pits: Vec<i64>,
    db: Option<PathBuf>,
    depth: Option<u32>,
    time: Option<f64>,
    grand_slam: &str,
    cycle: &str,
) -> PyResult<String> {
    let rules = oware_rules(grand_slam, cycle)?;
    let v = oware_view(&pits)?;
    if let Some(t) = time {
        if !(t.is_finite() && t > 0.0 && t <= 1e9) {
            return Err(err(format!("{}: expected a positive number of seconds (at most 1e9)", flag("time"))));
        }
    }
    mancala::solve::oware::check_rules(&rules).map_err(input)?;
    let seeds = oware::seeds(&v) as usize;
    let database = db.map(|dir| open_oware(&dir, rules, Some(seeds))).transpose()?;
    let s = py.allow_threads(|| {
        mancala::solve::oware::solve(rules, database.as_ref(), &v, Limits { depth, seconds: time, nodes: None })
    });
    if let Some(d) = &database {
        d.damage().map_err(|e| err(format!("{}: {e}", flag("db"))))?;
    }
    Ok(mancala::solve::oware::answer_json(&rules, &v, &s).to_string())
}

fn open_oware(
    dir: &std::path::Path,
    rules: oware::Rules,
    through: Option<usize>,
) -> PyResult<mancala::retro::oware::Database> {
    use mancala::retro::oware::Database;
    if !dir.is_dir() {
        return Err(err(format!(
            "{}: {} is not a directory; expected a directory of layer files",
            flag("db"),
            dir.display()
        )));
    }
    let opened = match through {
        Some(n) => Database::open_through(dir, rules, n),
        None => Database::open(dir, rules),
    };
    opened.map_err(|e| match e {
        mancala::store::layer_file::DbError::Rules(e) => input(e),
        e => err(format!("{}: {e}", flag("db"))),
    })
}

/// An opened Oware database directory.
#[pyclass(module = "mancala._native")]
struct OwareDatabase {
    db: mancala::retro::oware::Database,
}

#[pymethods]
impl OwareDatabase {
    #[new]
    #[pyo3(signature = (path, grand_slam="no-capture", cycle="split"))]
    fn new(path: PathBuf, grand_slam: &str, cycle: &str) -> PyResult<Self> {
        let rules = oware_rules(grand_slam, cycle)?;
        Ok(OwareDatabase { db: open_oware(&path, rules, None)? })
    }

    fn max_layer(&self) -> usize {
        self.db.max_layer()
    }

    fn rules_json(&self) -> String {
        self.db.rules().to_json().to_string()
    }

    /// The exact value of a mover's view, `None` when its layer is not in the directory.
    fn probe(&self, pits: Vec<i64>) -> PyResult<Option<i8>> {
        let v = oware_view(&pits)?;
        let x = self.db.probe(&v);
        self.db.damage().map_err(|e| err(format!("{}: {e}", flag("db"))))?;
        Ok(x)
    }

    /// Per layer: positions, wins, draws, losses, crc32 (as `db stats --csv` writes them) and
    /// the value histogram, as columns.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let all = py.allow_threads(|| self.db.stats()).map_err(|e| err(format!("{}: {e}", flag("db"))))?;
        let d = PyDict::new(py);
        let col = |f: &dyn Fn(&mancala::retro::stats::LayerStats) -> i64| all.iter().map(f).collect::<Vec<i64>>();
        d.set_item("stones", PyArray1::from_vec(py, col(&|s| s.layer as i64)))?;
        d.set_item("positions", PyArray1::from_vec(py, col(&|s| s.positions as i64)))?;
        d.set_item("wins", PyArray1::from_vec(py, col(&|s| s.wins as i64)))?;
        d.set_item("draws", PyArray1::from_vec(py, col(&|s| s.draws as i64)))?;
        d.set_item("losses", PyArray1::from_vec(py, col(&|s| s.losses as i64)))?;
        d.set_item("crc32", PyList::new(py, all.iter().map(|s| format!("{:08x}", s.checksum)))?)?;
        let (mut hl, mut hv, mut hc) = (Vec::new(), Vec::new(), Vec::new());
        for s in &all {
            for (v, c) in s.values() {
                hl.push(s.layer as i64);
                hv.push(v as i64);
                hc.push(c as i64);
            }
        }
        let h = PyDict::new(py);
        h.set_item("stones", PyArray1::from_vec(py, hl))?;
        h.set_item("value", PyArray1::from_vec(py, hv))?;
        h.set_item("positions", PyArray1::from_vec(py, hc))?;
        d.set_item("histogram", h)?;
        Ok(d)
    }

    /// Layer `n`'s values by rank (int8, the mover's net capture), checked against its
    /// checksums.
    fn layer<'py>(&self, py: Python<'py>, n: usize) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let layers = self.db.layers();
        let Some(l) = layers.get(n) else {
            return Err(err(format!("layer: {n} is not in the database (0..={})", self.db.max_layer())));
        };
        let values = l.values().map_err(|e| err(format!("{}: {e}", flag("db"))))?;
        Ok(PyArray1::from_slice(py, &values))
    }
}

// ---------------------------------------------------------------- Lukho

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

// ---------------------------------------------------------------- Kiothi

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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MancalaError", m.py().get_type::<MancalaError>())?;
    m.add("__version__", mancala::export::VERSION)?;
    m.add_class::<OwareGame>()?;
    m.add_class::<OwareDatabase>()?;
    for f in [
        wrap_pyfunction!(oware_rules_json, m)?,
        wrap_pyfunction!(oware_moves, m)?,
        wrap_pyfunction!(oware_solve, m)?,
        wrap_pyfunction!(lukho_choice_from_id, m)?,
        wrap_pyfunction!(lukho_choice_parse, m)?,
        wrap_pyfunction!(lukho_play, m)?,
        wrap_pyfunction!(lukho_sweep, m)?,
        wrap_pyfunction!(lukho_equilibrium, m)?,
        wrap_pyfunction!(kiothi_state, m)?,
        wrap_pyfunction!(kiothi_perft, m)?,
        wrap_pyfunction!(kiothi_solve, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
