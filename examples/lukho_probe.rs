//! Lukho engine measurements (not a test; run by hand, once, on a quiet machine):
//!
//! ```text
//! cargo run --release --example lukho_probe -- bench 2000000      # games/s per race outcome, 1 and 2 threads
//! cargo run --release --example lukho_probe -- perpetual          # detection time of long perpetual sowings
//! cargo run --release --example lukho_probe -- cycles 10          # every knife-free board with <= N seeds
//! cargo run --release --example lukho_probe -- turns 3456789 16    # turns, laps and lap endings of one South choice
//! cargo run --release --example lukho_probe -- uniform 12          # blocks of 2,000,000 uniform pairs: rate, shared cycles
//! ```
use mancala::games::lukho::*;
use mancala::side::Side;
use rayon::prelude::*;
use std::time::Instant;

use mancala::rng::XorShift64Star as Rng;

const RACES: [Race; 4] = [Race::SouthFirst, Race::NorthFirst, Race::LockstepSouth, Race::LockstepNorth];

fn bench(n: u64) {
    let proven = ProvenCycles::new();
    let rules = Rules::default();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let count = Choice::count(&rules);
    let pairs: Vec<(Choice, Choice)> = (0..n)
        .map(|_| {
            (Choice::from_id(rng.below(count), &rules).unwrap(), Choice::from_id(rng.below(count), &rules).unwrap())
        })
        .collect();
    for race in RACES {
        let t = Instant::now();
        let mut perpetual_time = std::time::Duration::ZERO;
        let mut perpetual = 0u64;
        let mut signature = 0i64;
        for (s, nn) in &pairs {
            let t1 = Instant::now();
            let o = play_game(&rules, &proven, s, nn, race);
            if o.class == Class::PerpetualOpening {
                perpetual += 1;
                perpetual_time += t1.elapsed();
            }
            signature += o.margin.0 as i64 * 64 + o.turns as i64;
        }
        let dt = t.elapsed();
        println!(
            "{:<15} 1 thread: {:>9.0} games/s; without the {perpetual} perpetual openings ({perpetual_time:.2?}): {:>9.0} games/s  [signature {signature}]",
            race.name(),
            n as f64 / dt.as_secs_f64(),
            (n - perpetual) as f64 / (dt - perpetual_time).as_secs_f64(),
        );
    }
    let t = Instant::now();
    let turns: u64 = pairs
        .par_iter()
        .map(|(s, nn)| RACES.iter().map(|&r| play_game(&rules, &proven, s, nn, r).turns as u64).sum::<u64>())
        .sum();
    let dt = t.elapsed();
    let games = 4 * n;
    println!(
        "all 4 races, {} threads: {:.0} games/s  [{turns} turns]",
        rayon::current_num_threads(),
        games as f64 / dt.as_secs_f64()
    );
}

fn perpetual() {
    let proven = ProvenCycles::new();
    let rules = Rules::default();
    // Found by random search; absolute periods 19,184,616 / 37,821,920 / 85,731,712 laps.
    for (pits, from, hand) in [
        ([0u8, 2, 1, 2, 3, 2, 1, 2, 5, 5, 0, 1, 4, 1, 2, 1], 8usize, 16u8),
        ([4, 3, 3, 2, 3, 2, 7, 2, 3, 2, 8, 2, 1, 0, 2, 1], 1, 3),
        ([1, 4, 1, 2, 1, 3, 2, 3, 4, 6, 3, 0, 5, 6, 1, 4], 8, 2),
    ] {
        let mut b = Board::new(pits, [-1; 16], [0, 0]);
        let t = Instant::now();
        let r = b.sow(&rules, &proven, Side::South, from, hand, Phase::Opening);
        println!("{pits:?} from {from} hand {hand}: {r:?} in {:.2?}", t.elapsed());
    }
}

fn cycles(max: u8) {
    let proven = ProvenCycles::new();
    fn boards(p: &mut [u8; 16], i: usize, left: u8, f: &mut dyn FnMut(&[u8; 16])) {
        if i == 15 {
            p[15] = left;
            return f(p);
        }
        for v in 0..=left {
            p[i] = v;
            boards(p, i + 1, left - v, f);
        }
        p[i] = 0;
    }
    let rules = Rules::default();
    for seeds in 1..=max {
        let mut classes = std::collections::BTreeMap::new();
        let mut longest = 0;
        boards(&mut [0; 16], 0, seeds, &mut |pits| {
            for side in [Side::South, Side::North] {
                let b = Board::new(*pits, [-1; 16], [48 - seeds, 0]);
                let o = play_from(&rules, &proven, Position { board: b, to_move: side });
                *classes.entry(o.class.name()).or_insert(0u64) += 1;
                longest = longest.max(o.turns);
            }
        });
        println!("{seeds} seeds: {classes:?}, longest game {longest} turns");
    }
}

/// What the game loop of a sweep does: one South choice against every `step`-th North choice
/// under both `sequential` outcomes; turns per game, laps per turn, how turns end, classes.
fn turns(south: u64, step: u64) {
    let proven = ProvenCycles::new();
    let rules = Rules::default();
    let south = Choice::from_id(south, &rules).expect("a choice id");
    let (mut games, mut turns, mut laps) = (0u64, 0u64, 0u64);
    let mut ends = std::collections::BTreeMap::new();
    let mut classes = std::collections::BTreeMap::new();
    let mut by_turns = vec![0u64; 1000];
    let mut id = 0;
    while id < Choice::count(&rules) {
        let north = Choice::from_id(id, &rules).unwrap();
        for race in [Race::SouthFirst, Race::NorthFirst] {
            let o = opening(&rules, &proven, &south, &north, race);
            let g = play_after(&rules, &proven, &o);
            *classes.entry(g.class.name()).or_insert(0u64) += 1;
            games += 1;
            if o.perpetual {
                continue;
            }
            // Replay the turns the game played, to see each one.
            let mut p = Position { board: o.board, to_move: o.first_player };
            for _ in 0..g.turns {
                if let TurnEnd::Played { how, laps: l, .. } = p.turn(&rules, &proven) {
                    laps += l;
                    let end = match how {
                        LapEnd::KnifeStop => "knife-stop",
                        LapEnd::NewKnife => "new-knife",
                        LapEnd::Empty(0) => "empty",
                        LapEnd::Empty(_) => "capture",
                        LapEnd::Relay(_) => unreachable!("a sowing never ends on a relay"),
                    };
                    *ends.entry(end).or_insert(0u64) += 1;
                }
            }
            turns += g.turns as u64;
            by_turns[(g.turns as usize).min(999)] += 1;
        }
        id += step;
    }
    println!(
        "{games} games: {:.2} turns per game, {:.2} laps per turn",
        turns as f64 / games as f64,
        laps as f64 / turns as f64
    );
    for (end, n) in &ends {
        println!("  turns ending {end}: {:.1} %", 100.0 * *n as f64 / turns as f64);
    }
    println!("  classes: {classes:?}");
    let mut done = 0;
    for (t, n) in by_turns.iter().enumerate() {
        done += n;
        if t % 5 == 0 && *n > 0 {
            print!("<= {t} turns: {:.1} %; ", 100.0 * done as f64 / games as f64);
        }
    }
    println!();
}

/// How a long run over uniform pairs (a shard of the full joint sweep) behaves as proven
/// perpetual cycles accumulate: `blocks` blocks of 2,000,000 pairs (both `sequential`
/// outcomes), all cores; per block the games per core-second and the perpetual openings that
/// walked their cycle (`proven`) or met one proven before (`hits`).
fn uniform(blocks: u64) {
    let proven = ProvenCycles::new();
    use mancala::games::lukho::Races;
    use mancala::sweep::play::play_pair;
    let rules = Rules::default();
    let n = Choice::count(&rules);
    let model = Races::Model(RaceModel::Sequential);
    let mut last = proven.stats();
    let cores = rayon::current_num_threads() as f64;
    for block in 0..blocks {
        let t = Instant::now();
        let games: u64 = (0..2_000_000u64)
            .into_par_iter()
            .map(|i| {
                // A pure function of the pair's index: reproducible, independent of the threads.
                let x = mancala::rng::splitmix64((block * 2_000_000 + i).wrapping_mul(mancala::rng::GOLDEN));
                let s = Choice::from_id(x % n, &rules).unwrap();
                let t = Choice::from_id((x >> 32) % n, &rules).unwrap();
                let mut g = 0u64;
                play_pair(&rules, &proven, model, &s, &t, |_, _| g += 1);
                g
            })
            .sum();
        let dt = t.elapsed().as_secs_f64();
        let st = proven.stats();
        println!(
            "block {block}: {games} games in {dt:.2} s = {:.2} M games/core-s; perpetual openings proven {}, hits {}; {} points shared",
            games as f64 / dt / cores / 1e6,
            st.proven - last.proven,
            st.hits - last.hits,
            st.points
        );
        last = st;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = |d: u64| args.get(2).map_or(d, |s| s.parse().expect("a number"));
    match args.get(1).map(String::as_str) {
        Some("bench") => bench(n(1_000_000)),
        Some("perpetual") => perpetual(),
        Some("cycles") => cycles(n(8) as u8),
        Some("uniform") => uniform(n(12)),
        Some("turns") => turns(n(3_456_789), args.get(3).map_or(16, |s| s.parse().expect("a number"))),
        _ => eprintln!("usage: lukho_probe bench [N] | perpetual | cycles [MAX_SEEDS] | turns [SOUTH_ID] [STEP] | uniform [BLOCKS]"),
    }
}
