//! The payoff vectors: swept, read back, narrowed, and the restricted matrix read from them.

use super::*;

/// Every cached vector equals a direct evaluation of every pair, and both best replies are
/// the extremes of the directly computed mixed payoffs.
#[test]
fn best_response_sweep_agrees_with_every_pair() {
    for (race, payoff) in
        [("south-first", "margin"), ("sequential", "points"), ("lockstep-north", "result"), ("lockstep", "margin")]
    {
        let d = def(race, payoff, "0..70");
        let dir = tempfile::tempdir().unwrap();
        let mut sv = Solver::open(d.clone(), dir.path()).unwrap();
        let ids = sv.store.ids.clone();
        let n = ids.len();
        let a = full_matrix(&d, &ids);
        for &id in &ids {
            sv.ensure(Kind::Col, id, &Quiet).unwrap();
            sv.ensure(Kind::Row, id, &Quiet).unwrap();
        }
        for (j, &id) in ids.iter().enumerate() {
            for i in 0..n {
                assert_eq!(sv.store.entry(ids[i], id), a[i * n + j]);
                let (row, sign) = sv.store.vector(Kind::Row, ids[i]);
                assert_eq!(sign * row.at(j) as f64 / d.scale(), a[i * n + j]);
            }
        }
        // The restricted LPs' entries, all read from the vectors, are the same numbers.
        let m = sv.game.matrix(&sv.store, &ids, &ids);
        assert!(sv.game.pairs.is_empty(), "{race}: pairs played beside the vectors");
        for (i, &south) in ids.iter().enumerate() {
            for (j, &north) in ids.iter().enumerate() {
                assert_eq!(m[i * n + j] as f64 / d.scale(), a[i * n + j], "{race} {payoff}: {south} vs {north}");
            }
        }
        // A mix over a few members on each side.
        let mix: Vec<(u32, f64)> = vec![(ids[3], 0.5), (ids[20], 0.25), (ids[61], 0.25)];
        let pos = |id: u32| ids.iter().position(|&x| x == id).unwrap();
        let against_y: Vec<f64> = (0..n).map(|i| mix.iter().map(|&(id, w)| w * a[i * n + pos(id)]).sum()).collect();
        let of_x: Vec<f64> = (0..n).map(|j| mix.iter().map(|&(id, w)| w * a[pos(id) * n + j]).sum()).collect();
        let (up, s_br) = sv.store.south_best(&mix);
        let (lo, n_br) = sv.store.north_best(&mix);
        let max = against_y.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let min = of_x.iter().cloned().fold(f64::INFINITY, f64::min);
        assert!((up - max).abs() < 1e-12 && (against_y[pos(s_br)] - max).abs() < 1e-12, "{race}");
        assert!((lo - min).abs() < 1e-12 && (of_x[pos(n_br)] - min).abs() < 1e-12, "{race}");
    }
}

/// A vector swept in batches (the lanes, several batches per chunk, perpetual openings among
/// them) holds the same sums as the games played one by one. South 1,234,567 sowing first
/// has perpetual openings against North 430,912…431,714 (found by a scan of all North ids);
/// the vectors are over that range, so the member need not be in the family.
#[test]
fn vectors_swept_in_batches_equal_games_played_one_by_one() {
    for race in ["sequential", "south-first", "lockstep"] {
        let d = def(race, "margin", "430000..432600");
        let dir = tempfile::tempdir().unwrap();
        let mut sv = Solver::open(d.clone(), dir.path()).unwrap();
        let ids = sv.store.ids.clone();
        let proven = ProvenCycles::new();
        for member in [1_234_567u32, 430_000] {
            let m = Choice::from_id(member as u64, &R).unwrap();
            let mut perpetual = 0;
            for kind in [Kind::Col, Kind::Row] {
                sv.ensure(kind, member, &Quiet).unwrap();
                let (v, sign) = sv.store.vector(kind, member);
                for (k, &id) in ids.iter().enumerate() {
                    let got = v.at(k);
                    let x = Choice::from_id(id as u64, &R).unwrap();
                    let (s, n) = match kind {
                        Kind::Col => (&x, &m),
                        Kind::Row => (&m, &x),
                    };
                    let mut want = 0;
                    for &r in d.model.outcomes().unwrap() {
                        let g = play_game(&R, &proven, s, n, r);
                        perpetual += (g.class == crate::games::lukho::Class::PerpetualOpening) as u32;
                        want += d.payoff.of(&g);
                    }
                    assert_eq!(sign * got as f64, want as f64, "{race} {kind:?} {member} vs {id}");
                }
            }
            let south_first = race != "lockstep";
            assert!(perpetual > 0 || member != 1_234_567 || !south_first, "{race}: no perpetual opening met");
        }
    }
}

/// The restricted LP's matrix is the same whether its entries are played pairwise (no vector
/// swept), read from the vectors (every member swept) or both (some swept: an entry comes from
/// South's row or North's column, whichever is swept); only the pairs that neither holds are
/// played.
#[test]
fn restricted_matrix_from_vectors_equals_played_pairs() {
    for (race, payoff) in
        [("south-first", "margin"), ("sequential", "points"), ("lockstep-north", "result"), ("lockstep", "margin")]
    {
        let d = def(race, payoff, "0..70");
        let (pd, vd, md) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let mut played = Solver::open(d.clone(), pd.path()).unwrap();
        let ids = played.store.ids.clone();
        // Overlapping sets of different sizes, in the order members join, not sorted.
        let south: Vec<u32> = ids.iter().rev().step_by(2).copied().collect();
        let north: Vec<u32> = ids.iter().step_by(3).copied().collect();
        let want = played.game.matrix(&played.store, &south, &north);
        let full = full_matrix(&d, &ids);
        let at = |s: u32, n: u32| full[played.store.pos(s) * ids.len() + played.store.pos(n)];
        for (i, &s) in south.iter().enumerate() {
            for (j, &n) in north.iter().enumerate() {
                assert_eq!(want[i * north.len() + j] as f64 / d.scale(), at(s, n), "{race}: {s} vs {n}");
            }
        }
        // Every member swept: nothing played.
        let mut swept = Solver::open(d.clone(), vd.path()).unwrap();
        for &id in &south {
            swept.ensure(Kind::Row, id, &Quiet).unwrap();
        }
        for &id in &north {
            swept.ensure(Kind::Col, id, &Quiet).unwrap();
        }
        assert_eq!(swept.game.matrix(&swept.store, &south, &north), want, "{race}");
        assert!(swept.game.pairs.is_empty(), "{race}");
        // Each entry is read once: with the vectors gone from memory the matrix is the same
        // and still nothing is played.
        swept.store.cache.clear();
        assert_eq!(swept.game.matrix(&swept.store, &south, &north), want, "{race}");
        assert!(swept.game.pairs.is_empty(), "{race}: pairs played though their entries were read");
        // New members without vectors (an iteration's new replies): their entries are played,
        // not read from the old members' vectors, where each line would give only a few.
        let fresh: Vec<u32> =
            ids.iter().copied().filter(|id| !south.contains(id) && !north.contains(id)).take(4).collect();
        let (south2, north2) = ([&south[..], &fresh[..2]].concat(), [&north[..], &fresh[2..]].concat());
        let grown = swept.game.matrix(&swept.store, &south2, &north2);
        for (i, &s) in south2.iter().enumerate() {
            for (j, &n) in north2.iter().enumerate() {
                assert_eq!(grown[i * north2.len() + j] as f64 / d.scale(), at(s, n), "{race}: {s} vs {n}");
                let new = fresh.contains(&s) || fresh.contains(&n);
                assert_eq!(swept.game.pairs.contains_key(&(s, n)), new, "{race}: {s} vs {n}");
                assert!(!(new && swept.game.read.contains_key(&(s, n))), "{race}: {s} vs {n} read");
            }
        }
        // Some swept: a third of South's rows, a quarter of North's columns (in a symmetric game
        // one vector per member serves both).
        let mut mixed = Solver::open(d.clone(), md.path()).unwrap();
        let rows: Vec<u32> = south.iter().step_by(3).copied().collect();
        let cols: Vec<u32> = north.iter().step_by(4).copied().collect();
        for &id in &rows {
            mixed.ensure(Kind::Row, id, &Quiet).unwrap();
        }
        for &id in &cols {
            mixed.ensure(Kind::Col, id, &Quiet).unwrap();
        }
        assert_eq!(mixed.game.matrix(&mixed.store, &south, &north), want, "{race}");
        // Every entry no vector holds is played; a vector's line with more than half its
        // entries known already is not read (its few others are played).
        let swept_row = |s: u32| rows.contains(&s) || (d.symmetric() && cols.contains(&s));
        let swept_col = |n: u32| cols.contains(&n) || (d.symmetric() && rows.contains(&n));
        for &s in &south {
            for &n in &north {
                if !swept_row(s) && !swept_col(n) {
                    assert!(mixed.game.pairs.contains_key(&(s, n)), "{race}: {s} vs {n}");
                }
            }
        }
        assert!(
            !mixed.game.pairs.is_empty() && mixed.game.pairs.len() < played.game.pairs.len(),
            "{race}: {} {}",
            mixed.game.pairs.len(),
            played.game.pairs.len()
        );
    }
}

/// A vector's entries are `i8` wherever every sum over the outcomes fits: one outcome of
/// `margin` reaches ±96 half-seeds (48–0), two reach ±192 but are even (`i8x2`: half of it
/// saved); a first game's bull (12 match points) is the most `points` gives.
#[test]
fn vector_width_follows_the_payoff_bound() {
    use crate::games::lukho::{match_points, HalfSeeds};
    use crate::opening_game::vectors::Width;
    let most = (0..=96u16).map(|s| match_points([HalfSeeds(s), HalfSeeds(96 - s)], true)).max().unwrap();
    assert_eq!(most as i32, Payoff::Points.bound());
    assert_eq!(Payoff::Margin.bound(), 96);
    for (race, payoff, want) in [
        ("south-first", "margin", Width::I8),
        ("lockstep-north", "margin", Width::I8),
        ("sequential", "margin", Width::I8x2),
        ("lockstep", "margin", Width::I8x2),
        ("sequential", "result", Width::I8),
        ("sequential", "points", Width::I8),
    ] {
        assert_eq!(Width::of(&def(race, payoff, "0..9")), want, "{race} {payoff}");
    }
    // The grain: every game's margin is even in half-seeds, splits (perpetual openings and
    // cycles: halves of odd seed counts) included.
    let d = def("lockstep", "margin", "all");
    let proven = ProvenCycles::new();
    let count = Choice::count(&d.rules);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let (mut odd_halves, mut games) = (0, 0);
    for _ in 0..4000 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let s = Choice::from_id((x >> 20) % count, &d.rules).unwrap();
        let n = Choice::from_id((x >> 40) % count, &d.rules).unwrap();
        for race in Race::ALL {
            let g = play_game(&d.rules, &proven, &s, &n, race);
            assert_eq!(g.final_totals[0].0 + g.final_totals[1].0, 96, "{s} / {n} {race:?}");
            assert_eq!(Payoff::Margin.of(&g) % Payoff::Margin.grain(), 0, "{s} / {n} {race:?}");
            odd_halves += (g.final_totals[0].0 % 2) as u32;
            games += 1;
        }
    }
    assert!(odd_halves > 0, "no split with a half seed among {games} games: the sample tests nothing");
    for (race, payoff, file, bytes) in
        [("south-first", "margin", "col-7.i8", 300), ("lockstep", "margin", "col-7.i8x2", 300)]
    {
        let dir = tempfile::tempdir().unwrap();
        let mut sv = Solver::open(def(race, payoff, "0..300"), dir.path()).unwrap();
        sv.ensure(Kind::Col, 7, &Quiet).unwrap();
        assert_eq!(fs::metadata(dir.path().join("columns").join(file)).unwrap().len(), bytes);
    }
}

/// A run saved with `i16` vectors where its entries fit `i8` or `i8x2` (before vectors were
/// narrowed) resumes with each rewritten as `.i8` / `.i8x2`, byte for byte what a sweep
/// writes, the old files gone (also a stray one the state does not name), and then runs as an
/// uninterrupted one; `replies` narrows them too instead of sweeping again.
#[test]
fn an_i16_run_is_narrowed_on_resume() {
    narrowed_on_resume("south-first", ".i8", 1);
    narrowed_on_resume("lockstep", ".i8x2", 2);
}

/// One run of [`an_i16_run_is_narrowed_on_resume`]: `race` margins saved `narrow` (`factor`
/// integer units per saved unit).
fn narrowed_on_resume(race: &str, narrow: &str, factor: i16) {
    let d = def(race, "margin", "all:remove=000000**:drop=0..1");
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let files = |dir: &Path| {
        let mut f: Vec<(String, Vec<u8>)> = fs::read_dir(dir.join("columns"))
            .unwrap()
            .map(|e| e.unwrap())
            .map(|e| (e.file_name().into_string().unwrap(), fs::read(e.path()).unwrap()))
            .collect();
        f.sort();
        f
    };
    let part = solve(&d, a.path(), StopAt { max_iterations: Some(3), seconds: None });
    let identity = part.identity().clone();
    let narrow_state = part.run.state.clone();
    drop(part);
    // B: A's run as the old code saved it.
    let mut old = read_state(&a.path().join(STATE_FILE), &identity).unwrap();
    old.files.vectors.clear();
    old.files.vector_used.clear();
    let mut wide_files = Vec::new();
    for name in narrow_state.files.vectors.keys() {
        let bytes = fs::read(a.path().join("columns").join(name)).unwrap();
        let wide: Vec<u8> = bytes.iter().flat_map(|&x| (factor * x as i8 as i16).to_le_bytes()).collect();
        let wide_name = format!("{}.i16", name.strip_suffix(narrow).unwrap());
        old.files.vectors.insert(wide_name.clone(), crc32fast::hash(&wide));
        if let Some(&u) = narrow_state.files.vector_used.get(name) {
            old.files.vector_used.insert(wide_name.clone(), u);
        }
        wide_files.push((wide_name, wide));
    }
    let write_old = |dir: &Path| {
        fs::create_dir_all(dir.join("columns")).unwrap();
        for (name, bytes) in &wide_files {
            fs::write(dir.join("columns").join(name), bytes).unwrap();
        }
        // A wide file the state does not name (a stop between a save and its deletions).
        fs::write(dir.join("columns").join("col-1.i16"), [0u8; 4]).unwrap();
        write_state(&dir.join(STATE_FILE), &identity, &old).unwrap();
    };
    write_old(b.path());
    // `lukho replies` on such a directory reads the saved rows, narrowed, and plays no game.
    let r = tempfile::tempdir().unwrap();
    write_old(r.path());
    // A symmetric game keeps a row as the negated column.
    let prefix = if d.symmetric() { "col-" } else { "row-" };
    let rows: Vec<u32> =
        old.files.vectors.keys().filter_map(|n| n.strip_prefix(prefix)?.strip_suffix(".i16")?.parse().ok()).collect();
    assert!(!rows.is_empty());
    let replies = Solver::open(d.clone(), r.path()).unwrap().replies(&rows, 3, &Quiet).unwrap();
    assert_eq!(replies.games, 0);
    assert_eq!(files(r.path()), files(a.path()));
    // Resumed without another iteration: the rewrite alone.
    let resumed = solve(&d, b.path(), StopAt { max_iterations: Some(3), seconds: None });
    assert_eq!(
        (&resumed.run.state.files.vectors, &resumed.run.state.files.vector_used),
        (&narrow_state.files.vectors, &narrow_state.files.vector_used)
    );
    assert_eq!(files(b.path()), files(a.path()));
    assert_eq!(read_state(&b.path().join(STATE_FILE), &identity).unwrap().files.vectors, narrow_state.files.vectors);
    drop(resumed);
    let (x, y) = (solve(&d, a.path(), StopAt::default()), solve(&d, b.path(), StopAt::default()));
    assert_eq!(
        (&x.run.state.south, &x.run.state.north, x.run.state.games),
        (&y.run.state.south, &y.run.state.north, y.run.state.games)
    );
    assert_eq!(x.run.state.log.len(), y.run.state.log.len());
    // A wide vector that no longer fits (not this run's) is refused, naming the file.
    let c = tempfile::tempdir().unwrap();
    fs::create_dir_all(c.path().join("columns")).unwrap();
    let mut bad = old.clone();
    let (name, _) = old.files.vectors.iter().next().unwrap();
    let wide: Vec<u8> = (0..y.ids().len()).flat_map(|_| 300i16.to_le_bytes()).collect();
    fs::write(c.path().join("columns").join(name), &wide).unwrap();
    bad.files.vectors = [(name.clone(), crc32fast::hash(&wide))].into();
    write_state(&c.path().join(STATE_FILE), &identity, &bad).unwrap();
    let err = Solver::open(d.clone(), c.path()).unwrap().run(&Quiet).err().unwrap().to_string();
    assert!(err.contains(name.as_str()) && err.contains("does not fit"), "{err}");
}

/// A best-reply pass that keeps no vector in the page cache (each streamed through it and
/// paged out, `pass.rs`) gives the bits of one that keeps them all, over more than one group
/// of terms and more than one chunk of positions; both equal the sum taken term by term.
#[test]
fn streamed_passes_give_the_bits_of_cached_ones() {
    let d = def("lockstep", "margin", "0..9000");
    let dir = tempfile::tempdir().unwrap();
    let mut sv = Solver::open(d, dir.path()).unwrap();
    let ids = sv.store.ids.clone();
    let mix: Vec<(u32, f64)> =
        ids.iter().step_by(90).enumerate().map(|(k, &id)| (id, 1.0 / (2.0 + k as f64))).collect();
    assert!(mix.len() > 64, "more than one group of terms");
    sv.ensure_mix(Kind::Col, &mix, &Quiet).unwrap();
    let terms = sv.store.side_terms(Side::North, &mix);
    assert!(terms.iter().all(|t| t.mapped.is_some()), "saved vectors are mapped, so the stream pages them out");
    let plain: Vec<f64> = (0..ids.len())
        .map(|p| mix.iter().fold(0.0, |s, &(id, w)| s + w * sv.store.vector(Kind::Col, id).0.at(p) as f64))
        .collect();
    let mut got = vec![];
    for resident in [None, Some(0), Some(6 * 9000)] {
        sv.store.resident = resident;
        let (top, sums) = sv.store.ranked_keep(&sv.store.side_terms(Side::North, &mix), 5, true);
        let sums = sums.unwrap();
        assert!(sums.iter().zip(&plain).all(|(a, b)| a.to_bits() == b.to_bits()), "{resident:?}");
        got.push(top);
    }
    assert!(got.windows(2).all(|w| w[0] == w[1]));
}
