//! `kiothi solve`: hand-worked endgames, the search against an independent minimax on random
//! small positions, honest bounds under limits, and the CLI contract (JSON, bad input).

use mancala::games::kiothi::{NkiClear, Position, Rules, SowMove, SowingCache};
use mancala::search::component::ComponentSolver;
use mancala::search::{Limits, SearchGame};
use mancala::side::Side;
use mancala::solve::kiothi::{solve, KiothiSearch, Method, Solution};
use serde_json::Value;

const S: Side = Side::South;
const N: Side = Side::North;

fn pos(south: [u8; 10], north: [u8; 10], nki: &[usize], to_move: Side, turn: u32) -> Position {
    let mut boma = [0u8; 20];
    boma[..10].copy_from_slice(&south);
    boma[10..].copy_from_slice(&north);
    Position { boma, prisons: [0, 0], nki: nki.iter().fold(0, |m, &a| m | 1 << a), to_move, turn }
}

fn mv(s: &str) -> SowMove {
    s.parse().unwrap()
}

fn exact(p: &Position, rules: Rules) -> Solution {
    let s = solve(rules, &SowingCache::new(), None, p, Limits::default()).unwrap();
    assert!(s.bounds.is_exact(), "{p}: {:?}", s.bounds);
    s
}

fn line(v: &[SowMove]) -> String {
    v.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

// ---- hand-worked endgames ------------------------------------------------------------------

#[test]
fn one_warrior_each_captured_at_once() {
    // S3 = 1, N5 = 1, South to move. South's only move 3:1 drops into the empty S4: own index 4,
    // opposite opponent index 9-4 = 5, occupied and not nki: South captures N5's warrior and the
    // capturing one (2). The board is empty, North has no move (K8 gives him nothing): +2.
    let p = pos([0, 0, 0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0, 0, 0], &[], S, 7);
    let s = exact(&p, Rules::default());
    assert_eq!(s.bounds.lo, 2);
    assert_eq!(line(&s.best_moves), "3:1");
    assert_eq!(line(&s.pv), "3:1");
}

#[test]
fn one_warrior_each_nki_blocks_the_capture_then_k8() {
    // The same with N5 nki: 3:1 captures nothing. Each side then has one warrior, so one move
    // (lift 1), and neither can ever land in front of the other's: South walks S4, S5 … S8,
    // North N6, N7, N8, N9 and then over the edge into the empty S0 (opponent row: no capture;
    // the warrior is now in South's row). North's row is empty: whatever South plays next
    // (0:1 or 8:1, neither captures), North is to move with no warrior: K8, South takes both: +2.
    // Plies: 3:1 5:1 4:1 6:1 5:1 7:1 6:1 8:1 7:1 9:1, then 0:1 (the lowest of the two best), North stuck.
    let p = pos([0, 0, 0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0, 0, 0], &[15], S, 7);
    let s = exact(&p, Rules::default());
    assert_eq!(s.bounds.lo, 2);
    assert_eq!(line(&s.pv), "3:1 5:1 4:1 6:1 5:1 7:1 6:1 8:1 7:1 9:1 0:1");
}

#[test]
fn triple_bonus_capture_and_the_reply() {
    // S9 = 6, N5 = 4, South to move. 9:6 drops one in N0..N5 (N5 now 5, it was occupied):
    // relay, lift 5 from N5 into N6, N7, N8, N9 and S0. S0 was empty and is own index 0: the
    // opposite N9 (1, not nki) is captured with the capturing warrior (2), and K6 adds N8, N7,
    // N6 (1 each): 5 captured. Left: N0..N4 with 1 each, South's row empty, North to move.
    // North's 0:1 … 3:1 end their first lap in an occupied own boma (K4, illegal); 4:1 drops
    // into the empty N5 (the opposite S4 is empty: no capture). Then South has no warrior:
    // K8, North takes the 5. So after 9:6 North's value is +5 and 9:6 is worth 5 − 5 = 0.
    let p = pos([0, 0, 0, 0, 0, 0, 0, 0, 0, 6], [0, 0, 0, 0, 0, 4, 0, 0, 0, 0], &[], S, 9);
    let c = p.sow(&Rules::default(), &SowingCache::new(), mv("9:6")).unwrap();
    assert_eq!(c.captured, 5);
    let after = exact(&c.position, Rules::default());
    assert_eq!((after.bounds.lo, line(&after.best_moves), line(&after.pv)), (5, "4:1".into(), "4:1".into()));
    assert_eq!(after.moves.len(), 1);
    let s = exact(&p, Rules::default());
    let (_, b) = s.moves.iter().find(|(m, _)| *m == mv("9:6")).unwrap();
    assert!(b.lo <= 0 && 0 <= b.hi, "9:6 is worth 0: {b:?}");
    assert_eq!(s.bounds.lo, minimax_root(&p, &Rules::default()));
}

#[test]
fn a_mover_without_legal_move_loses_every_board_warrior() {
    // South to move with an empty row, North N8 = 1, N9 = 3: K8, North takes the 4: −4.
    let p = pos([0; 10], [0, 0, 0, 0, 0, 0, 0, 0, 1, 3], &[], S, 40);
    let s = exact(&p, Rules::default());
    assert_eq!((s.bounds.lo, s.best_moves.len(), s.pv.len(), s.depth), (-4, 0, 0, 0));
    // Warriors but no legal move: S8 = 1, S9 = 1, N0 = 1 under max-relays 0. 8:1 lands in the
    // occupied own S9 (K4); 9:1 lands in the occupied N0 and would need a relay. −3.
    let p = pos([0, 0, 0, 0, 0, 0, 0, 0, 1, 1], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0], &[], S, 9);
    let bounded = Rules { max_relays: Some(0), ..Rules::default() };
    assert_eq!(exact(&p, bounded).bounds.lo, -3);
}

#[test]
fn perpetual_moves_are_left_out_exactly() {
    // The rules module's K7 position: 8:2 and 9:1 never end. The search never offers them, and
    // its value agrees with the independent minimax (which uses the rules' generator directly).
    let p = pos([1, 0, 1, 0, 1, 0, 2, 1, 2, 2], [1, 0, 1, 0, 1, 0, 1, 0, 1, 2], &[], S, 3);
    let rules = Rules::default();
    let s = solve(rules, &SowingCache::new(), None, &p, Limits { depth: Some(4), ..Limits::default() }).unwrap();
    assert!(!s.moves.iter().any(|(m, _)| *m == mv("8:2") || *m == mv("9:1")));
    assert_eq!(s.moves.len(), 4);
    assert!(s.game_stats.perpetual_moves >= 2, "{:?}", s.game_stats);
    // A second expansion of the position comes from the cache, not from new K7 proofs.
    let sowing = SowingCache::new();
    let game = KiothiSearch::new(rules, &sowing, None);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    assert_eq!(game.expand(&p, &mut a), None);
    let first = game.stats();
    assert_eq!((first.costly_positions, first.perpetual_moves, first.cache_hits), (1, 2, 0));
    assert_eq!(game.expand(&p, &mut b), None);
    assert_eq!((game.stats().perpetual_moves, game.stats().cache_hits), (2, 1));
    assert_eq!(
        a.iter().map(|c| (c.mv, c.gain, c.child)).collect::<Vec<_>>(),
        b.iter().map(|c| (c.mv, c.gain, c.child)).collect::<Vec<_>>()
    );
}

// ---- an independent minimax ----------------------------------------------------------------

/// Plain negamax over the game tree with the common repetition rule: the path since the last
/// capture is kept, and a position (boma, nki, side) met again on it ends the game at 0. K8:
/// no legal move is −(warriors on the board). Alpha-beta pruning, no table, no ordering.
/// (No random position here actually repeats: a capture-free DFS from 3000 random positions of
/// 3–12 warriors with random nki found no move cycle, like `explore_find_repetition` in the
/// rules tests; the search's repetition handling is the shared code Oware exercises.)
fn minimax(p: &Position, rules: &Rules, path: &mut Vec<Position>, mut alpha: i32, beta: i32) -> i32 {
    let mut kids = Vec::new();
    p.children(rules, &SowingCache::new(), &mut kids);
    if kids.is_empty() {
        return -(p.warriors_on_board() as i32);
    }
    let mut best = i32::MIN;
    for c in &kids {
        let q = c.position;
        let v = if c.captured == 0 && path.iter().any(|r| r.boma == q.boma && r.nki == q.nki && r.to_move == q.to_move)
        {
            0
        } else {
            let mut fresh = Vec::new();
            let path2 = if c.captured > 0 { &mut fresh } else { &mut *path };
            path2.push(q);
            let v = c.captured as i32 - minimax(&q, rules, path2, c.captured as i32 - beta, c.captured as i32 - alpha);
            path2.pop();
            v
        };
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn minimax_root(p: &Position, rules: &Rules) -> i32 {
    let n = p.warriors_on_board() as i32;
    minimax(p, rules, &mut vec![*p], -n - 1, n + 1)
}

use mancala::rng::XorShift64Star as Rng;

/// A random position: 1..=max warriors in random boma, a random nki mask on the occupied
/// boma, a random side to move, turn >= 3.
fn random_position(rng: &mut Rng, max: u64) -> Position {
    let mut boma = [0u8; 20];
    for _ in 0..1 + rng.below(max) {
        boma[rng.below(20) as usize] += 1;
    }
    let occupied = boma.iter().enumerate().fold(0u32, |m, (a, &x)| m | ((x > 0) as u32) << a);
    let nki = occupied & rng.next_u64() as u32 & rng.next_u64() as u32; // about one in four
    let to_move = if rng.below(2) == 0 { S } else { N };
    Position { boma, prisons: [0, 0], nki, to_move, turn: 3 + rng.below(50) as u32 }
}

#[test]
fn search_equals_minimax_on_random_small_positions() {
    let mut rng = Rng(20261202);
    let mut checked = 0;
    for i in 0..300 {
        let p = random_position(&mut rng, 6);
        let rules = if i % 5 == 4 { Rules { nki_clear: NkiClear::Pass, ..Rules::default() } } else { Rules::default() };
        let want = minimax_root(&p, &rules);
        let s = exact(&p, rules);
        assert_eq!(s.bounds.lo, want, "{p}\n{:?}", rules);
        // Every reported best move is worth the value by minimax too.
        for m in &s.best_moves {
            let c = p.sow(&rules, &SowingCache::new(), *m).unwrap();
            let n = c.position.warriors_on_board() as i32;
            let mut path = if c.captured > 0 { vec![c.position] } else { vec![p, c.position] };
            let v = c.captured as i32 - minimax(&c.position, &rules, &mut path, -n - 1, n + 1);
            assert_eq!(v, want, "{p}: best move {m}");
        }
        checked += 1;
    }
    assert_eq!(checked, 300);
}

#[test]
fn component_retrograde_equals_minimax() {
    // The exact mode's fallback (used when alpha-beta does not close within its budget, e.g.
    // results/kiothi/positions/endgame14.json), checked on its own.
    let mut rng = Rng(4711);
    let sowing = SowingCache::new();
    let game = KiothiSearch::new(Rules::default(), &sowing, None);
    let mut comp = ComponentSolver::new(&game, 1 << 20);
    for _ in 0..100 {
        let p = random_position(&mut rng, 6);
        assert_eq!(comp.value(&p).unwrap(), minimax_root(&p, &Rules::default()), "{p}");
    }
}

#[test]
fn a_table_probe_plugs_in() {
    // Stand-in for `retro::kiothi::Database::probe`: exact values of boards with <= 3 warriors.
    let probe = |p: &Position| (p.warriors_on_board() <= 3).then(|| minimax_root(p, &Rules::default()));
    let mut rng = Rng(99);
    for _ in 0..40 {
        let p = random_position(&mut rng, 6);
        let plain = exact(&p, Rules::default());
        let with = solve(Rules::default(), &SowingCache::new(), Some(&probe), &p, Limits::default()).unwrap();
        assert_eq!(with.bounds, plain.bounds, "{p}");
        assert_eq!(with.best_moves, plain.best_moves, "{p}");
        assert!(with.nodes <= plain.nodes, "{p}: {} > {}", with.nodes, plain.nodes);
        if p.warriors_on_board() <= 3 {
            assert_eq!(with.method, Method::Db);
        }
    }
}

#[test]
fn depth_limits_give_bounds_containing_the_value() {
    let mut rng = Rng(77);
    for _ in 0..60 {
        let p = random_position(&mut rng, 6);
        let rules = Rules::default();
        let want = minimax_root(&p, &rules);
        for d in [1, 2, 4] {
            let s =
                solve(rules, &SowingCache::new(), None, &p, Limits { depth: Some(d), ..Limits::default() }).unwrap();
            assert!(s.bounds.lo <= want && want <= s.bounds.hi, "{p} depth {d}: {:?} vs {want}", s.bounds);
            assert!(s.depth <= d);
            for (m, b) in &s.moves {
                assert!(b.lo <= b.hi, "{m}");
            }
        }
        let s = solve(rules, &SowingCache::new(), None, &p, Limits { nodes: Some(50), ..Limits::default() }).unwrap();
        assert!(s.bounds.lo <= want && want <= s.bounds.hi, "{p} 50 nodes: {:?} vs {want}", s.bounds);
    }
}

#[test]
fn a_deadline_that_never_comes_changes_nothing() {
    // The search hands its deadline to the sowings; one that is never reached leaves every
    // answer as the depth alone gives it.
    let mut rng = Rng(91);
    for _ in 0..40 {
        let p = random_position(&mut rng, 8);
        let rules = Rules::default();
        for d in [1, 3] {
            let depth = Limits { depth: Some(d), ..Limits::default() };
            let a = solve(rules, &SowingCache::new(), None, &p, depth).unwrap();
            let b = solve(rules, &SowingCache::new(), None, &p, Limits { seconds: Some(1e6), ..depth }).unwrap();
            assert_eq!((a.bounds, a.depth, a.nodes, &a.moves, &a.pv), (b.bounds, b.depth, b.nodes, &b.moves, &b.pv));
        }
    }
}

#[test]
fn a_time_limit_stops_inside_a_sowing_of_a_billion_relays() {
    // The midgame's fifth iteration meets a sowing of about 1.2·10^9 relays (seconds of CPU):
    // the search stops inside it and answers with the last iteration it finished.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/kiothi/midgame.json")).unwrap();
    let p = Position::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
    let limit = 1.5;
    let sowing = SowingCache::new();
    let t = std::time::Instant::now();
    let s = solve(Rules::default(), &sowing, None, &p, Limits { seconds: Some(limit), ..Limits::default() }).unwrap();
    let took = t.elapsed().as_secs_f64();
    assert!(took < 3.0 * limit + 2.0, "answered after {took:.1} s");
    assert!(s.depth >= 1, "{s:?}");
    assert_eq!(s.method, Method::Search);
    assert_eq!(s.moves.len(), 17);
    assert!(s.moves.iter().all(|(_, b)| -60 <= b.lo && b.lo <= b.hi && b.hi <= 60), "{:?}", s.moves);
    assert!(s.bounds.lo <= s.bounds.hi && !s.best_moves.is_empty());
    // A stopped sowing publishes nothing: no simulation near a billion relays is on record.
    assert!(sowing.stats().max_relays_simulated < 1_000_000_000, "{:?}", sowing.stats());
}

// ---- CLI -------------------------------------------------------------------------------------

mod common;
use common::{mancala, usage_error};

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let f = dir.path().join(name);
    std::fs::write(&f, text).unwrap();
    f
}

#[test]
fn cli_solve_json_exact_and_bounded() {
    let p = pos([0, 0, 0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0, 0, 0], &[15], S, 7);
    let out = mancala()
        .args(["kiothi", "solve", "--json", "--position", "-"])
        .write_stdin(p.to_json().to_string())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        (v["value"].clone(), v["exact"].clone(), v["lower"].clone(), v["upper"].clone()),
        (2.into(), true.into(), 2.into(), 2.into())
    );
    assert_eq!(v["best_moves"], serde_json::json!(["3:1"]));
    assert_eq!(v["pv"].as_array().unwrap().len(), 11);
    assert_eq!(v["rules"]["nki_clear"], "lift");
    // Prisons 0 / 0, South takes both board warriors.
    assert_eq!((v["score"].clone(), v["winner"].clone()), (serde_json::json!([2.0, 0.0]), "south".into()));
    for k in ["depth", "nodes", "seconds", "nodes_per_second", "moves", "sowings", "method"] {
        assert!(v.get(k).is_some(), "{k}");
    }
    // Depth 1 cannot see the K8 ending 11 plies away: honest bounds.
    let out = mancala()
        .args(["kiothi", "solve", "--json", "--depth", "1", "--position", "-"])
        .write_stdin(p.to_json().to_string())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!((v["exact"].clone(), v["value"].clone(), v["depth"].clone()), (false.into(), Value::Null, 1.into()));
    assert!(v["lower"].as_i64().unwrap() <= 2 && 2 <= v["upper"].as_i64().unwrap());
}

#[test]
fn cli_solve_bad_input_is_one_line_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let start = Rules::default().start().to_json().to_string();
    let f = write(&dir, "t1.json", &start);
    let check = |args: &[&str], field: &str| {
        let err = usage_error(mancala().args(["kiothi", "solve"]).args(args));
        assert!(err.contains(field), "{field}: {err}");
    };
    check(&["--position", f.to_str().unwrap()], "turn >= 3");
    let f = write(&dir, "bad.json", "{\"game\":\"kiothi\",\"pits\":[1,2");
    check(&["--position", f.to_str().unwrap()], "not JSON");
    let mut v: Value = serde_json::from_str(&pos([1; 10], [0; 10], &[], S, 5).to_json().to_string()).unwrap();
    v["nki"][12] = true.into();
    let f = write(&dir, "nki.json", &v.to_string());
    check(&["--position", f.to_str().unwrap()], "nki");
    let f = write(&dir, "ok.json", &pos([1; 10], [1; 10], &[], S, 5).to_json().to_string());
    check(&["--position", f.to_str().unwrap(), "--time", "0"], "--time");
    check(&["--position", "/nonexistent.json"], "--position");
    let _ = N;
}

#[test]
fn cli_openings_sample_is_seeded_and_writes_rows() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, seed: &str| {
        let f = dir.path().join(name);
        let out = mancala()
            .args([
                "kiothi",
                "openings",
                "--sample",
                "2",
                "--replies",
                "2",
                "--depth",
                "2",
                "--json",
                "--seed",
                seed,
                "--out",
            ])
            .arg(&f)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: Value = serde_json::from_slice(&out).unwrap();
        let text = std::fs::read_to_string(&f).unwrap();
        let meta: Value =
            serde_json::from_str(&std::fs::read_to_string(f.with_extension("meta.json")).unwrap()).unwrap();
        (v, text, meta)
    };
    let (v, a, meta) = run("a.csv", "5");
    let (_, b, _) = run("b.csv", "5");
    let (_, c, _) = run("c.csv", "6");
    let rows = |t: &str| t.lines().skip(1).map(|l| l.rsplit_once(',').unwrap().0.to_string()).collect::<Vec<_>>();
    // Same seed, same rows (the seconds column aside); another seed, other openings.
    assert_eq!(rows(&a), rows(&b));
    assert_ne!(rows(&a), rows(&c));
    assert_eq!(rows(&a).len(), 4);
    // The header first; the command and rules in the sidecar a.meta.json.
    assert!(a.starts_with("sample,south_index,south_move,"));
    assert!(meta["command"].as_str().unwrap().contains("--seed 5"));
    assert_eq!(meta["rules"]["game"], "kiothi");
    assert_eq!(meta["columns"][13], serde_json::json!({"name": "seconds", "type": "float"}));
    assert_eq!(v["openings"].as_array().unwrap().len(), 2);
    assert_eq!(v["horizon_depth"], serde_json::json!([2, 2]));
    // Every drawn move is legal: replaying the first row's two moves succeeds.
    let first = a.lines().nth(1).unwrap();
    let moves: Vec<&str> = first.split('"').skip(1).step_by(2).take(2).collect();
    mancala().args(["kiothi", "replay", "--moves", &moves.join(" ")]).assert().success();
    mancala().args(["kiothi", "openings"]).assert().code(2);
}

#[test]
fn cli_solve_reads_the_tables_with_db() {
    // Tables 0..=4 built by the CLI; a 4-warrior position is then read off them ("db") and a
    // 6-warrior one is searched with probes. Both values equal the table-free solve.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t");
    mancala().args(["kiothi", "db", "build", "--max-warriors", "4", "--dir"]).arg(&db).assert().success();
    let small = pos([0, 2, 0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0, 0, 0], &[15, 3], S, 7);
    let big = pos([0, 2, 0, 1, 0, 0, 0, 1, 0, 0], [0, 1, 0, 0, 0, 1, 0, 0, 0, 0], &[15], S, 7);
    for (p, method) in [(small, "db"), (big, "search")] {
        let run = |extra: &[&std::ffi::OsStr]| {
            let out = mancala()
                .args(["kiothi", "solve", "--json", "--position", "-"])
                .args(extra)
                .write_stdin(p.to_json().to_string())
                .assert()
                .success()
                .get_output()
                .stdout
                .clone();
            serde_json::from_slice::<Value>(&out).unwrap()
        };
        let plain = run(&[]);
        let with = run(&["--db".as_ref(), db.as_os_str()]);
        assert_eq!(with["value"], plain["value"], "{p}");
        assert_eq!(with["best_moves"], plain["best_moves"], "{p}");
        assert_eq!(with["method"], method, "{p}");
    }
    // A directory without tables: one line naming the flag, exit 2.
    let a = mancala()
        .args(["kiothi", "solve", "--position", "-", "--db"])
        .arg(dir.path())
        .write_stdin(small.to_json().to_string())
        .assert()
        .code(2)
        .stdout("");
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.starts_with("error: --db:") && err.lines().count() == 1, "{err}");
}

#[test]
fn solve_with_tables_equals_minimax_on_random_positions() {
    // The library entry the CLI, the web oracle and the Python bindings share: tables 0..=3
    // (built by the CLI), random positions of up to 6 warriors, each value equal to the
    // independent minimax; those the tables cover are read off them ("db"); none damaged.
    use mancala::solve::kiothi::solve_with_tables;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t");
    mancala().args(["kiothi", "db", "build", "--max-warriors", "3", "--dir"]).arg(&db).assert().success();
    let tables = mancala::retro::kiothi::Database::open_through(&db, Rules::default(), 3).unwrap();
    let mut rng = Rng(7);
    for _ in 0..30 {
        let p = random_position(&mut rng, 6);
        let (s, _) = solve_with_tables(Rules::default(), Some(&tables), &p, Limits::default(), None).unwrap();
        assert_eq!(s.bounds.lo, minimax_root(&p, &Rules::default()), "{p}");
        assert!(s.bounds.is_exact(), "{p}");
        if p.warriors_on_board() <= 3 {
            assert_eq!(s.method, Method::Db, "{p}");
        }
        let (plain, _) = solve_with_tables(Rules::default(), None, &p, Limits::default(), None).unwrap();
        assert_eq!(plain.bounds, s.bounds, "{p}");
    }
    tables.damage().unwrap();
}
