//! Differential tests: the fast engine against the reference engine (`reference`), against
//! brute-force cycle finding, and the batch engines (lanes and scalar) against one game at a
//! time, on random and perturbed positions.

use super::*;

#[test]
fn engine_agrees_with_reference_on_random_openings() {
    let proven = ProvenCycles::new();
    let mut x = 0x243f_6a88_85a3_08d3u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut compared, mut gave_up, mut perpetual) = (0, 0, 0);
    for rules in [IT, EN, NONE, Rules { chain: Chain::It, keep_one: true }] {
        let count = Choice::count(&rules);
        for _ in 0..1500 {
            let s = Choice::from_id(next() % count, &rules).unwrap();
            let n = Choice::from_id(next() % count, &rules).unwrap();
            for race in [Race::SouthFirst, Race::NorthFirst, Race::LockstepSouth, Race::LockstepNorth] {
                let g = play_game(&rules, &proven, &s, &n, race);
                match reference::game(&rules, &s, &n, race) {
                    Ok((class, totals, turns, first)) => {
                        let want = (class, totals, turns, first);
                        assert_eq!(
                            (g.class, g.final_totals.map(|h| h.0), g.turns, g.first_player),
                            want,
                            "{s} / {n} {race:?} {rules:?}"
                        );
                        compared += 1;
                        perpetual += (class != Class::Normal) as u32;
                    }
                    Err(()) => {
                        // The brute force cannot afford the 10^6–10^7-lap periods of real
                        // perpetuals; the engine must have found one.
                        assert_eq!(g.class, Class::PerpetualOpening, "{s} / {n} {race:?}");
                        gave_up += 1;
                    }
                }
            }
        }
    }
    eprintln!("reference: {compared} compared, {gave_up} gave up, {perpetual} perpetual");
    assert!(compared > 20_000 && gave_up < 50, "{compared} compared, {gave_up} gave up, {perpetual} perpetual");
}

#[test]
fn speeds_agree_with_brute_force_over_sampled_ratios() {
    let proven = ProvenCycles::new();
    let mut x = 0x1357_9bdf_2468_ace0u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut samples: Vec<(u64, u64)> = vec![(0, 1), (1, 0)];
    for p in 0..=12 {
        for q in 1..=12 {
            samples.push((p, q));
        }
    }
    let (mut checked, mut outcomes, mut max_outcomes) = (0, 0, 0);
    for rules in [IT, EN] {
        let count = Choice::count(&rules);
        for _ in 0..150 {
            let s = Choice::from_id(next() % count, &rules).unwrap();
            let n = Choice::from_id(next() % count, &rules).unwrap();
            let races = speed_races(&rules, &proven, &s, &n);
            outcomes += races.len();
            max_outcomes = max_outcomes.max(races.len());
            // The intervals tile [0, ∞] in increasing order.
            assert_eq!(races[0].lo, Ratio::ZERO);
            assert_eq!(races.last().unwrap().hi, None);
            for w in races.windows(2) {
                assert_eq!(w[0].hi, Some(w[1].lo));
            }
            // ρ = 0, 1, ∞ are north-first, lockstep-south, south-first.
            let at = |p: u64, q: u64| races.iter().find(|r| r.contains(p, q)).unwrap().opening;
            let mut nf = opening(&rules, &proven, &s, &n, Race::NorthFirst);
            if s.sow_count() == 0 && n.sow_count() == 0 {
                // Both finished at time 0: equal times, South first (north-first names North).
                nf.first_player = Side::South;
            }
            assert_eq!(at(0, 1), nf, "{s} / {n}");
            assert_eq!(at(1, 0), opening(&rules, &proven, &s, &n, Race::SouthFirst), "{s} / {n}");
            assert_eq!(at(1, 1), opening(&rules, &proven, &s, &n, Race::LockstepSouth), "{s} / {n}");
            // Brute force at fixed ratios: fixed samples, every breakpoint, every midpoint,
            // and random ratios.
            let mut rhos = samples.clone();
            for r in &races {
                rhos.push((r.lo.num, r.lo.den));
                if let Some(h) = r.hi {
                    rhos.push((r.lo.num * h.den + h.num * r.lo.den, 2 * r.lo.den * h.den));
                }
            }
            for _ in 0..20 {
                rhos.push((next() % 1000, 1 + next() % 1000));
            }
            for (p, q) in rhos {
                let Ok((st, first, perpetual)) = reference::opening_at(&rules, &s, &n, p, q) else {
                    continue;
                };
                let o = at(p, q);
                assert_eq!((o.perpetual, o.first_player), (perpetual, first), "{s} / {n} at {p}/{q}");
                if !perpetual {
                    assert_eq!((o.board.pits(), o.board.stores), (st.pits, [st.stores[0] as u8, st.stores[1] as u8]));
                }
                checked += 1;
            }
        }
    }
    eprintln!("speeds: {checked} ratios checked, {outcomes} outcomes for 300 pairs, at most {max_outcomes}");
}

#[test]
fn long_sowings_agree_with_reference() {
    let proven = ProvenCycles::new();
    // Random knife-free boards, one sowing each (opening and turn rules), against the
    // one-seed-per-step reference; many run past the 32 laps after which the engine switches
    // to its cycle-checking loop in the sower's frame.
    let mut x = 0x0bad_cafe_dead_beefu64;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let (mut long, mut perpetual) = (0, 0);
    for i in 0..200_000 {
        let phase = if i % 2 == 0 { Phase::Opening } else { Phase::Turn };
        let hand = 1 + next(20) as u32;
        let mut pits = [0u8; 16];
        for _ in 0..48 - hand {
            pits[next(16) as usize] += 1;
        }
        let from = next(16) as usize;
        let sower = if next(2) == 0 { Side::South } else { Side::North };
        let mut b = Board::new(pits, [-1; 16], [0, 0]);
        let got = b.sow(&IT, &proven, sower, from, hand as u8, phase);
        let mut st = reference::St { pits, knife: [-1; 16], stores: [0; 2] };
        let mut s = reference::Sower { pos: from, hand, done: false };
        let mut drops = 0usize;
        while !s.done && drops < 2_000_000 {
            reference::step(&mut st, &mut s, sower.index(), Chain::It, phase == Phase::Turn);
            drops += 1;
        }
        match got {
            SowingEnd::Ended { last, laps, .. } => {
                assert!(s.done, "{pits:?} from {from} hand {hand} {phase:?}");
                assert_eq!(
                    (b.pits(), b.stores, last as usize),
                    (st.pits, [st.stores[0] as u8, st.stores[1] as u8], s.pos)
                );
                let knives = b.knives_json();
                assert_eq!(knives, st.knife);
                long += (laps > 32) as u32;
            }
            SowingEnd::Perpetual { .. } => {
                assert!(!s.done, "{pits:?} from {from} hand {hand} {phase:?}");
                perpetual += 1;
            }
        }
    }
    assert!(long > 100 && perpetual > 0, "{long} long sowings, {perpetual} perpetual");
}

/// Cycle detection inside a game against a brute force (every position of the game in a set).
/// Starts: the positions of a real cycling game (symmetric choice 350502, `south-first`: a
/// cycle of 6 turns entered after 1), each perturbed by moving a few seeds between random
/// pits and making knives: class, totals and `turns` (the first repetition) must match
/// exactly. Cycles are rare in Lukho: none in 3,000,000 random knife-free boards, none
/// entered after a capture in these perturbations, so the engine's replay to a later
/// segment start is only reached through its argument (see `play_from`).
#[test]
fn game_cycles_match_a_brute_force() {
    let proven = ProvenCycles::new();
    use std::collections::HashSet;
    let mut cycles = 0;
    for start in perturbed_positions(30_000) {
        let mut seen = HashSet::new();
        let mut p = start;
        let mut turns = 0u32;
        let want = loop {
            if !seen.insert((p.board.packed(), p.board.knives, p.to_move)) {
                break (Class::Cycle, p.board.split_totals(0), turns);
            }
            let before = p.board;
            match p.turn(&IT, &proven) {
                TurnEnd::Played { .. } => turns += 1,
                TurnEnd::NoMove => break (Class::Normal, p.board.sweep_totals(p.to_move), turns),
                TurnEnd::Perpetual => break (Class::PerpetualTurn, before.split_totals(0), turns),
            }
        };
        let got = play_from(&IT, &proven, start);
        assert_eq!((got.class, got.final_totals, got.turns), want, "{start:?}");
        cycles += (want.0 == Class::Cycle) as u32;
    }
    assert!(cycles >= 3000, "{cycles} cycles");
}

/// Both batch engines ([`Engine::lanes`] where the CPU has them, and [`Engine::SCALAR`])
/// against one game at a time ([`play_from`]), for every chain rule, on positions that exercise each of its
/// paths: the games of real openings (South 3456789, 1234567 and 0 against North 0..1500,
/// both `sequential` outcomes); perturbed positions with knives on both rows, of which many
/// cycle or pass 32 turns (handed back to the scalar engine); a perpetual turn; a game over
/// at once; and batches of every length from 0 to 9 (lanes left empty).
#[test]
fn batch_matches_one_game_at_a_time() {
    let proven = ProvenCycles::new();
    let engines: Vec<Engine> = match Engine::lanes() {
        Some(lanes) => vec![lanes, Engine::SCALAR],
        None => {
            eprintln!("lanes not available on this CPU: only the scalar batch path was compared");
            vec![Engine::SCALAR]
        }
    };
    let mut pits = STEADY3;
    pits[0] = 3;
    let perpetual = Position { board: Board::new(pits, [-1; 16], [14, 16]), to_move: Side::South };
    let k = [(0, Side::South), (7, Side::North), (14, Side::South)];
    let over = Position {
        board: board([2, 0, 0, 0, 0, 0, 0, 3], [1, 0, 0, 4, 0, 0, 2, 0], &k, [15, 21]),
        to_move: Side::South,
    };
    for chain in [Chain::It, Chain::En, Chain::None] {
        let rules = Rules { chain, keep_one: false };
        let mut starts = vec![perpetual, over];
        for south in [3456789, 1234567, 0] {
            let s = Choice::from_id(south, &rules).unwrap();
            for north in 0..1500 {
                let n = Choice::from_id(north, &rules).unwrap();
                for race in [Race::SouthFirst, Race::NorthFirst] {
                    let o = opening(&rules, &proven, &s, &n, race);
                    if !o.perpetual {
                        starts.push(Position { board: o.board, to_move: o.first_player });
                    }
                }
            }
        }
        starts.extend(perturbed_positions(20_000));
        let want: Vec<GameOutcome> = starts.iter().map(|&p| play_from(&rules, &proven, p)).collect();
        let classes: std::collections::HashSet<Class> = want.iter().map(|o| o.class).collect();
        assert_eq!(classes.len(), 3, "normal, cycle and perpetual-turn games all met: {classes:?}");
        assert!(want.iter().any(|o| o.class == Class::Normal && o.turns >= 32), "long normal games met");
        for &engine in &engines {
            let mut got = want.clone();
            got.fill(GameOutcome::new(Side::North, [HalfSeeds(1), HalfSeeds(1)], Class::Cycle, 999));
            engine.play(&rules, &proven, &starts, &mut got);
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g, w, "{engine:?} {chain:?} game {i}: {:?}", starts[i]);
            }
            for len in 0..10 {
                let mut got = vec![GameOutcome::new(Side::North, [HalfSeeds(1), HalfSeeds(1)], Class::Cycle, 999); len];
                engine.play(&rules, &proven, &starts[..len], &mut got);
                assert_eq!(got, want[..len], "{engine:?} {chain:?}");
            }
        }
    }
}

/// `MANCALA_NO_SIMD` forces the scalar path, and the dispatch follows the choice: the forced
/// and the default engine give the same outcomes (on a CPU without the lanes both are scalar).
#[test]
fn engine_switch_is_honoured() {
    let proven = ProvenCycles::new();
    use std::ffi::OsStr;
    let default = Engine::choose(None);
    assert_eq!(default, Engine::lanes().unwrap_or(Engine::SCALAR));
    assert_eq!(Engine::choose(Some(OsStr::new(""))), default);
    assert_eq!(Engine::choose(Some(OsStr::new("0"))), default);
    assert_eq!(Engine::choose(Some(OsStr::new("1"))), Engine::SCALAR);
    assert!(!Engine::choose(Some(OsStr::new("1"))).uses_lanes());
    assert_eq!(Engine::configured(), Engine::choose(std::env::var_os(lanes::NO_SIMD_VAR).as_deref()));
    let s = Choice::from_id(3_456_789, &IT).unwrap();
    let starts: Vec<Position> = (0..3000)
        .map(|n| opening(&IT, &proven, &s, &Choice::from_id(n, &IT).unwrap(), Race::SouthFirst))
        .filter(|o| !o.perpetual)
        .map(|o| Position { board: o.board, to_move: o.first_player })
        .collect();
    let blank = GameOutcome::new(Side::North, [HalfSeeds(1), HalfSeeds(1)], Class::Cycle, 999);
    let (mut forced, mut free) = (vec![blank; starts.len()], vec![blank; starts.len()]);
    Engine::choose(Some(OsStr::new("1"))).play(&IT, &proven, &starts, &mut forced);
    Engine::choose(None).play(&IT, &proven, &starts, &mut free);
    assert_eq!(forced, free);
    let mut dispatched = vec![blank; starts.len()];
    play_batch(&IT, &proven, &starts, &mut dispatched);
    assert_eq!(dispatched, free);
}
