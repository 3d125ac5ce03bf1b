use super::vectors::Kind;
use super::*;
use crate::games::lukho::Races;
use crate::games::lukho::{play_game, Chain, Choice, ProvenCycles, Race, Rules};
use crate::matrix_game::solve_matrix_game;
use crate::side::Side;
use crate::sweep::Spec;
use std::fs;
use std::path::Path;

mod combine;
mod restricted_gap;
mod vectors;

const R: Rules = Rules { chain: Chain::It, keep_one: false };

fn def(race: &str, payoff: &str, family: &str) -> OpeningGame {
    OpeningGame {
        rules: R,
        model: race.parse::<Races>().unwrap(),
        payoff: Payoff::parse(payoff).unwrap(),
        family: Spec::parse(family).unwrap(),
    }
}

/// Run `s` until `stop` (or converged).
fn run_until(s: &mut Solver, stop: StopAt, obs: &dyn Observer) -> Result<(), EqError> {
    s.options.stop = stop;
    s.run(obs)
}

fn solve(d: &OpeningGame, dir: &Path, limits: StopAt) -> Solver {
    let mut s = Solver::open(d.clone(), dir).unwrap();
    run_until(&mut s, limits, &Quiet).unwrap();
    s
}

/// The rules treat the players alike: South's game (s, n) under a race outcome is North's
/// game (n, s) under the mirrored outcome, so a model with both outcomes is antisymmetric.
#[test]
fn mirrored_outcomes_make_the_game_antisymmetric() {
    let ids: Vec<u64> = (0..40).chain((0..60).map(|k| k * 105_949 + 17)).collect();
    let cs: Vec<Choice> = ids.iter().map(|&i| Choice::from_id(i, &R).unwrap()).collect();
    let mirror = |r: Race| match r {
        Race::SouthFirst => Race::NorthFirst,
        Race::NorthFirst => Race::SouthFirst,
        Race::LockstepSouth => Race::LockstepNorth,
        Race::LockstepNorth => Race::LockstepSouth,
    };
    let proven = ProvenCycles::new();
    for s in &cs {
        for n in cs.iter().step_by(3) {
            for r in [Race::SouthFirst, Race::NorthFirst, Race::LockstepSouth, Race::LockstepNorth] {
                let a = play_game(&R, &proven, s, n, r);
                let b = play_game(&R, &proven, n, s, mirror(r));
                for p in [Payoff::Margin, Payoff::Result, Payoff::Points, Payoff::PointsLater] {
                    assert_eq!(p.of(&a), -p.of(&b), "{s} vs {n} {r:?}");
                }
            }
        }
    }
}

/// Rule book L13 by hand: a bull (25–23) is worth 12 in the first game of a series and 4 in a
/// later one, a whitewash 4 in both, any other win 2, a draw nothing; South's payoff is the
/// winner's points with South's sign.
#[test]
fn match_point_payoffs_follow_l13() {
    use crate::games::lukho::{Class, GameOutcome, HalfSeeds};
    use crate::side::Side;
    let game = |s: f64, n: f64| {
        GameOutcome::new(Side::South, [HalfSeeds((2.0 * s) as u16), HalfSeeds((2.0 * n) as u16)], Class::Normal, 1)
    };
    let cases = [
        ((25.0, 23.0), 12, 4),
        ((23.0, 25.0), -12, -4),
        ((48.0, 0.0), 4, 4),
        ((0.0, 48.0), -4, -4),
        ((30.0, 18.0), 2, 2),
        ((24.5, 23.5), 2, 2),
        ((24.0, 24.0), 0, 0),
    ];
    for ((s, n), first, later) in cases {
        let g = game(s, n);
        assert_eq!((Payoff::Points.of(&g), Payoff::PointsLater.of(&g)), (first, later), "{s}–{n}");
    }
    assert_eq!("points-later".parse::<Payoff>(), Ok(Payoff::PointsLater));
    assert_eq!(Payoff::PointsLater.name(), "points-later");
    assert_eq!((Payoff::Points.bound(), Payoff::PointsLater.bound()), (12, 4));
}

/// On small families the double-oracle answer equals the LP solution of the whole
/// enumerated matrix, and the certificate's bounds contain it.
#[test]
fn double_oracle_equals_the_full_matrix_game() {
    let cases = [
        ("south-first", "margin", "all:remove=0000000*"),
        ("north-first", "result", "all:remove=0000000*"),
        ("sequential", "margin", "all:remove=0000000*"),
        ("lockstep", "points", "0..90"),
        ("south-first", "points", "all:remove=000000**:drop=0..1"),
        ("lockstep-south", "margin", "all:remove=000000**:drop=0..1"),
        ("north-first", "points-later", "all:remove=000000**:drop=0..1"),
    ];
    for (k, (race, payoff, family)) in cases.into_iter().enumerate() {
        let d = def(race, payoff, family);
        let dir = tempfile::tempdir().unwrap();
        // Plain double oracle, (every other case) mixes refined against 6 more replies, and
        // (every third) the average of the last 4 mixes answered too, in the last case with 4
        // replies a side of which up to 3 are the average's.
        let mut sv = Solver::open(d.clone(), dir.path()).unwrap();
        sv.options.cuts = if k % 2 == 1 { 6 } else { 0 };
        sv.options.average = if k % 3 == 2 { 4 } else { 0 };
        if k == 5 {
            (sv.options.replies, sv.options.average_replies) = (4, 3);
        }
        run_until(&mut sv, StopAt::default(), &Quiet).unwrap();
        let a = full_matrix(&d, &sv.store.ids);
        let full = solve_matrix_game(&a, sv.store.ids.len(), sv.store.ids.len()).unwrap();
        let last = sv.run.state.log.last().unwrap();
        assert!(sv.exact(), "{race} {payoff} {family}: {last:?}");
        assert!(
            last.lower - 1e-9 <= full.value && full.value <= last.upper + 1e-9,
            "{race} {payoff} {family}: {} not in {last:?}",
            full.value
        );
        assert!((sv.value() - full.value).abs() < 1e-6, "{race} {payoff} {family}: {} vs {}", sv.value(), full.value);
        if d.symmetric() {
            assert!(full.value.abs() < 1e-7);
        }
        // The certificate's mixes (LP mixes or averages) prove their bounds in the matrix.
        certificate_holds(&sv, &a, &format!("{race} {payoff} {family}"));
        if sv.options.average > 1 {
            let logged = sv.run.state.log.iter().filter(|r| r.average_lower.is_some() && r.average_upper.is_some());
            assert_eq!(logged.count(), sv.run.state.log.len() - 1, "{race} {payoff} {family}: all but the first");
            assert!(sv.run.state.recent_south.len() <= 3);
        }
        // The reported mixes are genuine strategies.
        for s in [&sv.run.state.south_strategy, &sv.run.state.north_strategy] {
            assert!((s.iter().map(|p| p.1).sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(s.iter().all(|p| p.1 > 0.0));
        }
    }
}

/// The run's certified mixes prove their bounds in `a`, the family's whole matrix.
fn certificate_holds(sv: &Solver, a: &[f64], case: &str) {
    let n = sv.store.ids.len();
    let at = |id: u32| sv.store.ids.binary_search(&id).unwrap();
    let (bs, bn) = (sv.run.state.best_south.as_ref().unwrap(), sv.run.state.best_north.as_ref().unwrap());
    for j in 0..n {
        let g: f64 = bs.mix.iter().map(|&(id, w)| w * a[at(id) * n + j]).sum();
        assert!(g >= bs.bound - 1e-9, "{case}: column {j} {g} < {}", bs.bound);
        let c: f64 = bn.mix.iter().map(|&(id, w)| w * a[j * n + at(id)]).sum();
        assert!(c <= bn.bound + 1e-9, "{case}: row {j} {c} > {}", bn.bound);
    }
}

/// A vector budget deletes vectors, never changes the run: the same sets, mixes, bounds and
/// certificate as a run that keeps every vector, also across a resume on a "new machine"
/// (vector files missing); the directory holds only vectors the state names, and no more than
/// the mixes need after each iteration (the budget here is smaller than one iteration's
/// replies, so everything else goes).
#[test]
fn a_vector_budget_changes_the_disk_not_the_run() {
    for (race, family) in [("south-first", "all:remove=000000**:drop=0..1"), ("sequential", "all:remove=000000**")] {
        let d = def(race, "margin", family);
        let run = |dir: &Path, budget: Option<u64>, stop: StopAt| {
            let mut sv = Solver::open(d.clone(), dir).unwrap();
            sv.options.replies = 2;
            sv.store.budget = budget.map(|k| k * sv.bytes_per_vector());
            run_until(&mut sv, stop, &Quiet).unwrap();
            sv
        };
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let whole = run(a.path(), None, StopAt::default());
        // Three iterations keeping everything, then (as on a new machine) half the vector
        // files gone: the state still names them, the budget counts only what is here.
        run(b.path(), None, StopAt { max_iterations: Some(3), seconds: None });
        let columns = b.path().join("columns");
        let mut names: Vec<_> = fs::read_dir(&columns).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        for p in names.iter().step_by(2) {
            fs::remove_file(p).unwrap();
        }
        let kept = run(b.path(), Some(3), StopAt::default());
        assert!(whole.exact() && kept.exact(), "{race}");
        let (w, k) = (&whole.run.state, &kept.run.state);
        assert_eq!((&w.south, &w.north), (&k.south, &k.north), "{race}");
        assert_eq!((&w.south_strategy, &w.north_strategy), (&k.south_strategy, &k.north_strategy), "{race}");
        assert_eq!((&w.best_south, &w.best_north), (&k.best_south, &k.best_north), "{race}");
        assert_eq!(w.log.len(), k.log.len(), "{race}");
        for (x, y) in w.log.iter().zip(&k.log) {
            let bounds = |r: &IterRecord| (r.lower, r.upper, r.restricted_value, r.south_support, r.north_support);
            assert_eq!(bounds(x), bounds(y), "{race} iteration {}", x.iteration);
            let kinds = if d.symmetric() { 1 } else { 2 };
            // Under the budget (after the first three iterations): the mixes' vectors only.
            let within = y.iteration <= 3 || y.vectors <= kinds * y.south_support.max(y.north_support);
            assert!(within, "{race}: {y:?}");
        }
        assert!(k.log.iter().map(|r| r.deleted).sum::<usize>() > 0, "{race}: nothing deleted");
        assert!(k.games >= w.games, "{race}: re-sweeps are counted");
        assert!(k.files.vectors.len() < w.files.vectors.len(), "{race}");
        let files: Vec<String> =
            fs::read_dir(&columns).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert!(files.iter().all(|f| k.files.vectors.contains_key(f)), "{race}: a file the state does not name");
        assert_eq!(k.log.last().unwrap().vectors, files.len(), "{race}");
        assert!(k.files.vector_used.keys().all(|n| k.files.vectors.contains_key(n)), "{race}");
    }
}

/// Stopping after two iterations and resuming gives exactly the uninterrupted run, also when
/// the last mixes are averaged (`--average`, whose earlier mixes the state keeps).
#[test]
fn resume_equals_an_uninterrupted_run() {
    resume_case(0, 1, 1, 0.0);
    resume_case(3, 1, 1, 0.0);
    resume_case(3, 4, 2, 0.0);
    resume_case(3, 4, 2, 0.05);
}

/// A stop between an iteration's save and its deletions leaves the LP optima it replaced:
/// the next sitting deletes them, also when the state is finished (and keeps the last).
#[test]
fn a_resumed_run_deletes_what_the_last_iteration_left() {
    let d = def("south-first", "margin", "all:remove=000000**:drop=0..1");
    let dir = tempfile::tempdir().unwrap();
    let n = solve(&d, dir.path(), StopAt::default()).run.state.log.len();
    let (lp, last) = (dir.path().join("lp"), |side: &str| dir.path().join(format!("lp/{side}-{n}.warm")));
    let stale = [lp.join(format!("south-{}.warm", n - 1)), lp.join(format!("north-{}.warm", n - 1))];
    for f in &stale {
        fs::copy(last("south"), f).unwrap();
    }
    solve(&d, dir.path(), StopAt::default());
    assert!(stale.iter().all(|f| !f.exists()) && last("south").exists() && last("north").exists());
}

/// `gap`: `--restricted-gap`.
fn resume_case(average: usize, replies: usize, average_replies: usize, gap: f64) {
    let d = def("south-first", "margin", "all:remove=000000**:drop=0..1");
    let solve = |dir: &Path, limits: StopAt| {
        let mut s = Solver::open(d.clone(), dir).unwrap();
        s.options.average = average;
        (s.options.replies, s.options.average_replies, s.options.restricted_gap) = (replies, average_replies, gap);
        run_until(&mut s, limits, &Quiet).unwrap();
        s
    };
    let a = tempfile::tempdir().unwrap();
    let whole = solve(a.path(), StopAt::default());
    assert!(whole.run.state.log.len() > 2, "the case must need more than two iterations");
    let b = tempfile::tempdir().unwrap();
    let part = solve(b.path(), StopAt { max_iterations: Some(2), seconds: None });
    assert_eq!(part.run.state.log.len(), 2);
    assert!(!part.run.state.done);
    // The directory has one writer: the stopped run ends before the resumed one opens it.
    drop(part);
    let resumed = solve(b.path(), StopAt::default());
    // The same sets, best responses and counts; the floats agree to rounding (the LP
    // solver's pivoting order is not bit-reproducible across solver instances).
    let (r, w) = (&resumed.run.state, &whole.run.state);
    assert_eq!(
        (&r.south, &r.north, r.done, r.stalled, r.games, &r.files.vectors),
        (&w.south, &w.north, w.done, w.stalled, w.games, &w.files.vectors)
    );
    assert_eq!(r.log.len(), w.log.len());
    for (a, b) in r.log.iter().zip(&w.log) {
        assert_eq!(
            (a.south_best_response, a.north_best_response, a.south_size, a.north_size, a.games),
            (b.south_best_response, b.north_best_response, b.south_size, b.north_size, b.games)
        );
        for (x, y) in [(a.lower, b.lower), (a.upper, b.upper), (a.restricted_value, b.restricted_value)] {
            assert!((x - y).abs() < 1e-9, "{a:?} vs {b:?}");
        }
    }
    for (a, b) in [(&r.south_strategy, &w.south_strategy), (&r.north_strategy, &w.north_strategy)] {
        assert_eq!(a.len(), b.len());
        assert!(a.iter().zip(b).all(|(p, q)| p.0 == q.0 && (p.1 - q.1).abs() < 1e-9));
    }
    // A finished run reopened (after it has ended) does nothing more.
    assert_eq!((&r.best_south, &r.best_north), (&w.best_south, &w.best_north));
    let finished = resumed.run.state.clone();
    drop(resumed);
    let again = solve(b.path(), StopAt::default());
    assert_eq!(again.run.state, finished);
}

/// `--average-replies 4`: the averaged mix's best replies (by distinct payoffs, those that beat
/// the restricted value) join the set. Checked against the enumerated matrix: after iteration
/// 6, North's set holds a reply at each of the four lowest payoff levels that South's average
/// of the mixes of iterations 5 and 6 concedes below the restricted value; with the LP mix's
/// replies only (`--average-replies 1`) it does not.
#[test]
fn the_averaged_mixes_best_replies_join_the_set() {
    let d = def("south-first", "margin", "all:remove=000000**");
    let run = |dir: &Path, iterations: u32, average_replies: usize| {
        let mut s = Solver::open(d.clone(), dir).unwrap();
        (s.options.average, s.options.replies, s.options.average_replies) = (2, 6, average_replies);
        run_until(&mut s, StopAt { max_iterations: Some(iterations), seconds: None }, &Quiet).unwrap();
        s
    };
    let covered = |average_replies: usize| {
        let dir = tempfile::tempdir().unwrap();
        let before = run(dir.path(), 5, average_replies).run.state.south_strategy.clone();
        let sv = run(dir.path(), 6, average_replies);
        let a = full_matrix(&d, &sv.store.ids);
        let n = sv.store.ids.len();
        let at = |id: u32| sv.store.ids.binary_search(&id).unwrap();
        let mut avg = vec![0.0; n];
        for &(id, w) in before.iter().chain(&sv.run.state.south_strategy) {
            avg[at(id)] += w / 2.0;
        }
        // South's payoff of the average against each North choice, in payoff units.
        let g: Vec<f64> = (0..n).map(|j| (0..n).map(|i| avg[i] * a[i * n + j]).sum()).collect();
        let value = sv.run.state.log[5].restricted_value;
        let mut levels: Vec<f64> = g.iter().copied().filter(|&x| x < value - 1e-6).collect();
        levels.sort_by(f64::total_cmp);
        levels.dedup_by(|x, y| (*x - *y).abs() < 1e-9);
        assert!(levels.len() >= 4, "the case needs four levels below the value: {levels:?}");
        levels[..4].iter().all(|level| sv.run.state.north.iter().any(|&c| (g[at(c)] - level).abs() < 1e-9))
    };
    assert!(covered(4), "a best reply to the average is missing from North's set");
    assert!(!covered(1), "the LP mix's replies alone cover the average's: the case proves nothing");
}

/// A sweep inside an iteration saves the state (its vector's checksum and games) only when the
/// last save is old enough; a run stopped after such a save, or after an unsaved sweep,
/// resumes to exactly the uninterrupted run (the unsaved vector is swept again, counted once).
#[test]
fn a_stop_inside_an_iteration_resumes_to_the_same_run() {
    let d = def("south-first", "margin", "all:remove=000000**:drop=0..1");
    let (a, b, c) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let whole = solve(&d, a.path(), StopAt::default());
    let two = StopAt { max_iterations: Some(2), seconds: None };
    let three = solve(&d, c.path(), StopAt { max_iterations: Some(3), seconds: None });
    let mut sv = solve(&d, b.path(), two);
    // The vectors iteration 3 sweeps, in its order: South's mix's rows, then North's columns.
    let new = |kind: Kind, mix: &[(u32, f64)]| -> Vec<(Kind, u32)> {
        let fresh = |&&(id, _): &&(u32, f64)| !sv.run.state.files.vectors.contains_key(&sv.store.file_name(kind, id));
        mix.iter().filter(fresh).map(|&(id, _)| (kind, id)).collect()
    };
    let mut order = new(Kind::Row, &three.run.state.south_strategy);
    order.extend(new(Kind::Col, &three.run.state.north_strategy));
    assert!(order.len() >= 2, "{order:?}");
    let identity = sv.identity().clone();
    let on_disk = |dir: &Path| read_state(&dir.join(STATE_FILE), &identity).unwrap();
    let before = on_disk(b.path());
    let sweep = (sv.store.ids.len() * d.races()) as u64;
    // Saved at once: the last save is at least zero seconds old.
    sv.run.save_after = std::time::Duration::ZERO;
    let (kind, id) = order[0];
    sv.ensure_mix(kind, &[(id, 1.0)], &Quiet).unwrap();
    let saved = on_disk(b.path());
    assert_eq!(saved.games, before.games + sweep);
    assert!(saved.files.vectors.contains_key(&sv.store.file_name(kind, id)));
    assert_eq!(saved.log, before.log);
    // Not saved: the last save is younger than 30 s.
    sv.run.save_after = std::time::Duration::from_secs(30);
    let (kind, id) = order[1];
    sv.ensure_mix(kind, &[(id, 1.0)], &Quiet).unwrap();
    assert_eq!(on_disk(b.path()), saved);
    assert!(b.path().join("columns").join(sv.store.file_name(kind, id)).exists());
    drop(sv);
    let resumed = solve(&d, b.path(), StopAt::default());
    let (r, w) = (&resumed.run.state, &whole.run.state);
    assert_eq!((&r.south, &r.north, r.games, &r.files.vectors), (&w.south, &w.north, w.games, &w.files.vectors));
    let key = |l: &IterRecord| (l.games, l.total_games, l.south_best_response, l.north_best_response, l.vectors);
    assert_eq!(r.log.iter().map(key).collect::<Vec<_>>(), w.log.iter().map(key).collect::<Vec<_>>());
}

#[test]
fn corrupt_or_foreign_state_is_refused() {
    let d = def("south-first", "margin", "0..30");
    let dir = tempfile::tempdir().unwrap();
    solve(&d, dir.path(), StopAt { max_iterations: Some(1), seconds: None });
    let path = dir.path().join(STATE_FILE);
    // Foreign: another payoff, family or race.
    for (race, payoff, family, field) in [
        ("south-first", "points", "0..30", "payoff"),
        ("south-first", "margin", "0..31", "family"),
        ("north-first", "margin", "0..30", "race"),
    ] {
        let e = Solver::open(def(race, payoff, family), dir.path()).err().unwrap().to_string();
        // The state file is in --out: the error is of that field and names the file.
        assert!(e.starts_with("out: ") && e.contains(STATE_FILE) && e.contains(field), "{e}");
    }
    // Corrupt: one byte of the body changed.
    let mut bytes = fs::read(&path).unwrap();
    let k = bytes.len() - 5;
    bytes[k] ^= 1;
    fs::write(&path, &bytes).unwrap();
    let e = Solver::open(d.clone(), dir.path()).err().unwrap().to_string();
    assert!(e.contains("crc32"), "{e}");
    fs::write(&path, b"hello\n").unwrap();
    assert!(Solver::open(d, dir.path()).err().unwrap().to_string().starts_with("out: "));
}

#[test]
fn bad_definitions_are_refused() {
    let e = Solver::open(def("speeds", "margin", "0..10"), Path::new("/nonexistent")).err().unwrap().to_string();
    assert!(e.starts_with("race: "), "{e}");
    let e =
        Solver::open(def("sequential", "margin", "0..10:drop=5"), Path::new("/nonexistent")).err().unwrap().to_string();
    assert!(e.starts_with("family: "), "{e}");
    // The command line names the flag; the message names the value and the accepted ones.
    assert!(Payoff::parse("score").unwrap_err().to_string().starts_with("`score` is not a payoff; expected margin"));
}

/// The certificate: each side's best bound over the log, kept with its mix; that mix,
/// evaluated again from scratch (its members' games against every choice of the family,
/// played here one by one), gives exactly the stored bound. A state written before the
/// certificate was kept gets the last iteration's mixes.
#[test]
fn certificate_mixes_prove_their_bounds_from_scratch() {
    let mut better_than_last = 0;
    for (race, payoff, family, iterations) in [
        ("south-first", "margin", "all:remove=000000**:drop=0..1", 9),
        ("sequential", "points", "0..90", 12),
        ("lockstep-south", "result", "all:remove=000000**", 15),
        ("sequential", "margin", "all:remove=000000**", 20),
    ] {
        let d = def(race, payoff, family);
        let dir = tempfile::tempdir().unwrap();
        let sv = solve(&d, dir.path(), StopAt { max_iterations: Some(iterations), seconds: None });
        let st = &sv.run.state;
        let (bs, bn) = (st.best_south.clone().unwrap(), st.best_north.clone().unwrap());
        let best_lower = st.log.iter().map(|r| r.lower).fold(f64::NEG_INFINITY, f64::max);
        let best_upper = st.log.iter().map(|r| r.upper).fold(f64::INFINITY, f64::min);
        assert_eq!((bs.bound, bn.bound), (best_lower, best_upper), "{race} {payoff} {family}");
        assert_eq!(st.log[bs.iteration as usize - 1].lower, bs.bound);
        assert_eq!(st.log[bn.iteration as usize - 1].upper, bn.bound);
        let last = st.log.last().unwrap().clone();
        assert_eq!((last.best_lower, last.best_upper), (Some(best_lower), Some(best_upper)));
        if best_upper - best_lower < last.gap() {
            better_than_last += 1;
        }
        // From scratch: South's integer payoff summed over the outcomes, weighted in the
        // mix's order, then in payoff units.
        let races = d.model.outcomes().unwrap();
        let proven = ProvenCycles::new();
        let choice = |id: u32| Choice::from_id(id as u64, &R).unwrap();
        let play = |s: u32, n: u32| -> f64 {
            races.iter().map(|&r| d.payoff.of(&play_game(&R, &proven, &choice(s), &choice(n), r))).sum::<i32>() as f64
        };
        let guaranteed = sv
            .ids()
            .iter()
            .map(|&n| bs.mix.iter().fold(0.0, |acc, &(s, w)| acc + w * play(s, n)))
            .fold(f64::INFINITY, f64::min);
        let conceded = sv
            .ids()
            .iter()
            .map(|&s| bn.mix.iter().fold(0.0, |acc, &(n, w)| acc + w * play(s, n)))
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(guaranteed / d.scale(), bs.bound, "{race} {payoff} {family}");
        assert_eq!(conceded / d.scale(), bn.bound, "{race} {payoff} {family}");
        for c in [&bs, &bn] {
            assert!((c.mix.iter().map(|p| p.1).sum::<f64>() - 1.0).abs() < 1e-9);
        }
        let answer = sv.answer(&[]);
        let cert = answer.certificate.unwrap();
        assert_eq!((cert.lower, cert.upper, cert.gap), (bs.bound, bn.bound, bn.bound - bs.bound));
        assert_eq!((cert.lower_iteration, cert.upper_iteration), (bs.iteration, bn.iteration));
        assert_eq!(cert.south.len(), bs.mix.len());

        // An older state (no certificate) gets the last iteration's mixes and bounds.
        let mut old = sv.run.state.clone();
        (old.best_south, old.best_north) = (None, None);
        let identity = sv.identity().clone();
        drop(sv);
        write_state(&dir.path().join(STATE_FILE), &identity, &old).unwrap();
        let reopened = Solver::open(d.clone(), dir.path()).unwrap();
        let (s, n) = (reopened.run.state.best_south.unwrap(), reopened.run.state.best_north.unwrap());
        assert_eq!((s.bound, s.iteration, &s.mix), (last.lower, last.iteration, &old.south_strategy));
        assert_eq!((n.bound, n.iteration, &n.mix), (last.upper, last.iteration, &old.north_strategy));
    }
    assert!(better_than_last > 0, "no case exercises a certificate better than the last iteration");
}

/// Vectors are swept only for members with weight in a mix whose best reply is computed: a
/// run resumed on a new machine (no vector files) sweeps, in its first iteration, exactly the
/// vectors of that iteration's mixes' supports, not one per member, and plays the LP's pairs.
#[test]
fn a_resume_sweeps_only_the_supports() {
    for (race, family) in [("south-first", "all:remove=000000**"), ("sequential", "all:remove=000000**")] {
        let d = def(race, "margin", family);
        let dir = tempfile::tempdir().unwrap();
        let sv = solve(&d, dir.path(), StopAt { max_iterations: Some(40), seconds: None });
        let (south, north) = (sv.run.state.south.clone(), sv.run.state.north.clone());
        drop(sv);
        fs::remove_dir_all(dir.path().join("columns")).unwrap();
        let mut sv = Solver::open(d.clone(), dir.path()).unwrap();
        let swept = MixSweeps::default();
        run_until(&mut sv, StopAt { max_iterations: Some(41), seconds: None }, &swept).unwrap();
        let st = &sv.run.state;
        let mut want: Vec<String> =
            st.south_strategy.iter().map(|&(id, _)| sv.store.file_name(Kind::Row, id)).collect();
        if !d.symmetric() {
            want.extend(st.north_strategy.iter().map(|&(id, _)| sv.store.file_name(Kind::Col, id)));
        }
        let want: Vec<String> =
            want.into_iter().map(|n| if d.symmetric() { n.replace("row-", "col-") } else { n }).collect();
        let mut got: Vec<String> = fs::read_dir(dir.path().join("columns"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| crate::opening_game::vectors::parse_name(n).is_some())
            .collect();
        let mut want = want;
        got.sort();
        want.sort();
        assert_eq!(got, want, "{race}");
        let members = if d.symmetric() { north.len() } else { north.len() + south.len() };
        assert!(got.len() < members, "{race}: {} vectors for {members} members", got.len());
        // The iteration's games: its sweeps (the LP's pairs are a cache, not counted).
        let sweeps = got.len() * sv.store.ids.len();
        assert_eq!(st.log.last().unwrap().games, (sweeps * d.races()) as u64, "{race}");
        // Each mix's sweeps were counted out, 1 of N to N of N, N the vectors it lacked.
        let calls = swept.0.into_inner().unwrap();
        assert_eq!(calls.len(), got.len(), "{race}: {calls:?}");
        let mut k = 0;
        while k < calls.len() {
            let (side, _, due) = calls[k].clone();
            let mix: Vec<_> = (1..=due).map(|done| (side.clone(), done, due)).collect();
            assert_eq!(calls[k..k + due], mix[..], "{race}");
            k += due;
        }
    }
}

/// Records [`Observer::mix_swept`]'s calls.
#[derive(Default)]
struct MixSweeps(std::sync::Mutex<Vec<(String, usize, usize)>>);

impl Observer for MixSweeps {
    fn mix_swept(&self, side: &str, done: usize, due: usize) {
        self.0.lock().unwrap().push((side.to_string(), done, due));
    }
}

/// Warm start: seeded with the supports of the exact solution, a run is exact in its first
/// iteration with the same value; a seed is refused for a run that has iterations, and one
/// with no choice in the family.
#[test]
fn a_seed_with_the_optimal_supports_converges_at_once() {
    for race in ["south-first", "sequential"] {
        let d = def(race, "margin", "all:remove=000000**");
        let dir = tempfile::tempdir().unwrap();
        let whole = solve(&d, dir.path(), StopAt::default());
        assert!(whole.exact());
        let seed: Vec<u32> =
            whole.run.state.south_strategy.iter().chain(&whole.run.state.north_strategy).map(|&(id, _)| id).collect();
        let value = whole.value();
        drop(whole);
        let mut again = Solver::open(d.clone(), dir.path()).unwrap();
        let e = again.seed(&seed).unwrap_err().to_string();
        assert!(e.starts_with("seed: ") && e.contains("iterations already"), "{e}");
        let fresh = tempfile::tempdir().unwrap();
        let mut sv = Solver::open(d.clone(), fresh.path()).unwrap();
        let e = sv.seed(&[u32::MAX]).unwrap_err().to_string();
        assert!(e.starts_with("seed: ") && e.contains("none of its 1"), "{e}");
        assert!(sv.seed(&seed).unwrap() > 1);
        run_until(&mut sv, StopAt::default(), &Quiet).unwrap();
        assert!(sv.exact(), "{race}");
        assert_eq!(sv.run.state.log.len(), 1, "{race}");
        assert!((sv.value() - value).abs() < 1e-9, "{race}: {} vs {value}", sv.value());
    }
}
