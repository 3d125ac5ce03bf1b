//! Search speed: positions above a small database, solved exactly. Each run asserts the
//! values (against the full table) and the node count, so any change in search behaviour
//! shows as a failure and is re-recorded deliberately (Stockfish's bench habit).

use mancala::games::oware::{Rules, View};
use mancala::retro::oware::{self as db, Database, OwareLayers};
use mancala::retro::LayeredGame;
use mancala::search::{Limits, Searcher};
use mancala::solve::oware::OwareSearch;
use std::sync::OnceLock;

fn main() {
    divan::main();
}

const DB_MAX: usize = 12;
const TOP: usize = 13;

struct Fixture {
    _dir: tempfile::TempDir,
    db: Database,
    /// Every 10007th position of layer TOP with its exact value.
    set: Vec<(View, i32)>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let rules = Rules::default();
        let dir = tempfile::tempdir().unwrap();
        mancala::retro::database::build(dir.path(), &OwareLayers::new(rules), DB_MAX, &|_, _| {
            Box::new(mancala::retro::builder::Silent)
        })
        .unwrap();
        let full = db::tables_in_memory(rules, TOP);
        let g = OwareLayers::new(rules);
        let set =
            (0..g.layer_size(TOP)).step_by(10007).map(|r| (g.unrank(TOP, r), full[TOP][r as usize] as i32)).collect();
        Fixture { db: Database::open(dir.path(), rules).unwrap(), _dir: dir, set }
    })
}

/// Alpha-beta with a node budget per position: nodes per second, and how many it proves.
#[divan::bench(sample_count = 5)]
fn alpha_beta_13_seeds_over_db12(bencher: divan::Bencher) {
    let f = fixture();
    let game = OwareSearch::new(Rules::default(), Some(&f.db));
    bencher.bench(|| {
        let mut s = Searcher::new(&game, 20);
        let mut proved = 0;
        for (v, want) in &f.set {
            let a = s.analyse(v, Limits { nodes: Some(20_000), ..Limits::default() });
            assert!(a.bounds.lo <= *want && *want <= a.bounds.hi);
            proved += a.bounds.is_exact() as usize;
        }
        // Deterministic: a change here is a change in search behaviour.
        assert_eq!((f.set.len(), proved, s.nodes), BENCH_SIGNATURE);
        s.nodes
    });
}

/// Exact solve (alpha-beta then component retrograde) of every 25th position of the set.
#[divan::bench(sample_count = 3)]
fn exact_solve_13_seeds_over_db12(bencher: divan::Bencher) {
    let f = fixture();
    bencher.bench(|| {
        for (v, want) in f.set.iter().step_by(25) {
            let s = mancala::solve::oware::solve(Rules::default(), Some(&f.db), v, Limits::default());
            assert_eq!(s.bounds.lo, *want);
            assert!(s.bounds.is_exact());
        }
    });
}

/// (positions, proved by alpha-beta alone, nodes): the search's signature.
const BENCH_SIGNATURE: (usize, usize, u64) = (250, 49, 4_394_779);
