//! Solving Oware positions: database lookups where the seeds on the board are covered,
//! alpha-beta search probing the database at captures into it elsewhere, and, when the
//! search alone cannot close the interval (draws by endless play), an exact retrograde of
//! the position's component (`search::component`).

pub use super::pipeline::Method;
use super::pipeline::{self, Plan, Solvable};
use crate::games::oware::{self, Cycle, Node, Rules, View, PITS};
use crate::index::Compositions;
use crate::input::InputError;
use crate::retro::oware::{Database, MAX_STONES};
use crate::search::{Child, Limits, Observer, SearchGame};

/// Oware as a search game, with an optional database.
pub struct OwareSearch<'d> {
    pub rules: Rules,
    pub db: Option<&'d Database>,
    index: Compositions,
}

impl<'d> OwareSearch<'d> {
    pub fn new(rules: Rules, db: Option<&'d Database>) -> Self {
        OwareSearch { rules, db, index: Compositions::new(PITS, MAX_STONES) }
    }
}

impl SearchGame for OwareSearch<'_> {
    type Pos = View;
    type Move = u8;

    fn key(&self, pos: &View) -> u64 {
        (self.index.rank(pos) << 6) | oware::seeds(pos) as u64
    }
    fn bound(&self, pos: &View) -> i32 {
        oware::seeds(pos) as i32
    }
    fn probe(&self, pos: &View) -> Option<i32> {
        self.db.and_then(|d| d.probe(pos)).map(i32::from)
    }
    fn expand(&self, pos: &View, out: &mut Vec<Child<View, u8>>) -> Option<i32> {
        out.clear();
        match self.rules.node(pos) {
            Node::Ended(e) => Some(e.mover_net(oware::seeds(pos) as i32)),
            Node::Moves(ms) => {
                out.extend(ms.iter().map(|m| Child { mv: m.pit, gain: m.captured as i32, child: m.child }));
                None
            }
        }
    }
    fn move_code(&self, mv: &u8) -> u8 {
        *mv
    }
}

impl Solvable for OwareSearch<'_> {
    type RepetitionKey = View;

    fn legal(&self, pos: &View) -> Vec<(u8, i32, View)> {
        match self.rules.node(pos) {
            Node::Ended(_) => vec![],
            Node::Moves(ms) => ms.iter().map(|m| (m.pit, m.captured as i32, m.child)).collect(),
        }
    }
    fn repetition_key(&self, pos: &View) -> View {
        *pos
    }
}

/// The answer of `oware solve`: moves are own pit indices; best moves ascending.
pub type Solution = pipeline::Solution<u8>;

/// Alpha-beta nodes tried before falling back to the component retrograde (exact mode).
pub const SEARCH_BUDGET: u64 = 2_000_000;
/// Largest component the exact mode builds.
/// (About 100 bytes per position: 10 M positions is about 1 GB.)
pub const MAX_COMPONENT: usize = 10_000_000;

/// Oware's budgets and answer conventions: a 64 MiB table, a too-big component leaves the
/// bounds, moves in search order.
pub const PLAN: Plan = Plan {
    table_bits: 22,
    search_budget: SEARCH_BUDGET,
    max_component: MAX_COMPONENT,
    search_on_after_too_big: false,
    covered_stays_db: true,
    sort_moves: false,
    promising_by_upper: false,
};

/// Whether [`solve`] answers under a rule set: the search, the component retrograde and the
/// databases score a repetition as `split` (net 0) only, so a position has a value of its own;
/// under `own-rows` what a repetition is worth depends on the game's history. The error names
/// the flag.
pub fn check_rules(rules: &Rules) -> Result<(), InputError> {
    if rules.cycle == Cycle::OwnRows {
        return Err(InputError::new("cycle", "solve scores repetitions as `split` only; under own-rows what a repetition is worth depends on the game's history (which position repeats), so a position has no value of its own"));
    }
    Ok(())
}

/// How `oware solve` names a method: the component retrograde is part of its search.
pub fn method_name(method: Method) -> &'static str {
    match method {
        Method::Db => "db",
        Method::Search | Method::Component => "search",
    }
}

/// The answer as `oware solve --json` prints it (and the Python bindings return it): value
/// (null unless exact), bounds, best moves, PV, each move's bounds, method, nodes, time.
pub fn answer_json(rules: &Rules, pits: &View, s: &Solution) -> serde_json::Value {
    use serde_json::json;
    let exact = s.bounds.is_exact();
    let nps = s.nodes as f64 / s.seconds.max(1e-9);
    json!({
        "rules": rules.to_json(),
        "pits": pits,
        "value": if exact { json!(s.bounds.lo) } else { serde_json::Value::Null },
        "exact": exact,
        "lower": s.bounds.lo,
        "upper": s.bounds.hi,
        "best_moves": s.best_moves,
        "pv": s.pv,
        "method": method_name(s.method),
        "nodes": s.nodes,
        "depth": s.depth,
        "seconds": s.seconds,
        "nodes_per_second": nps.round(),
        "moves": s.moves.iter().map(|(m, b)| json!({"move": m, "lower": b.lo, "upper": b.hi})).collect::<Vec<_>>(),
    })
}

/// Solve a mover's view (repetitions `split`: see [`check_rules`]). With a depth or time limit only alpha-beta runs and the answer may
/// be bounds; without limits the answer is exact (unless the component is too big).
pub fn solve(rules: Rules, db: Option<&Database>, root: &View, limits: Limits) -> Solution {
    solve_observed(rules, db, root, limits, None)
}

/// [`solve`], its progress shown to `observer` (the command line's progress line).
pub fn solve_observed(
    rules: Rules,
    db: Option<&Database>,
    root: &View,
    limits: Limits,
    observer: Option<Observer<'_>>,
) -> Solution {
    pipeline::solve(&OwareSearch::new(rules, db), root, limits, &PLAN, observer)
}

#[cfg(test)]
mod progress_tests {
    use super::*;
    use crate::search::{Phase, Report};
    use std::cell::RefCell;

    /// The observer sees every finished iteration in order, the last one being the answer's.
    #[test]
    fn the_observer_sees_each_depth_and_the_answer() {
        let seen = RefCell::new(Vec::<Report>::new());
        let observe = |r: &Report| seen.borrow_mut().push(*r);
        let limits = Limits { depth: Some(5), ..Limits::default() };
        let s = solve_observed(Rules::default(), None, &[4; 12], limits, Some(&observe));
        let depths: Vec<u32> = seen.borrow().iter().filter(|r| r.phase == Phase::Depth).map(|r| r.depth).collect();
        assert_eq!(depths, vec![1, 2, 3, 4, 5]);
        let last = *seen.borrow().last().unwrap();
        assert_eq!((last.depth, last.bounds), (s.depth, s.bounds));
        assert!(seen.borrow().windows(2).all(|w| w[0].nodes <= w[1].nodes));
        // Without an observer the answer is the same.
        let plain = solve(Rules::default(), None, &[4; 12], limits);
        assert_eq!((plain.bounds, plain.moves, plain.nodes), (s.bounds, s.moves, s.nodes));
    }
}
