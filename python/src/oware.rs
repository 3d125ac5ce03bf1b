//! Oware: rules, moves, a game, the solver and the endgame databases.

use crate::common::{err, input, parse};
use mancala::games::oware;
use mancala::input::flag;
use mancala::search::Limits;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::json;
use std::path::PathBuf;

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

/// The Oware classes and functions of `mancala._native`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<OwareGame>()?;
    m.add_class::<OwareDatabase>()?;
    for f in
        [wrap_pyfunction!(oware_rules_json, m)?, wrap_pyfunction!(oware_moves, m)?, wrap_pyfunction!(oware_solve, m)?]
    {
        m.add_function(f)?;
    }
    Ok(())
}
