//! Would interleaving independent games in one thread pay? Plays the post-opening positions of
//! 400,000 random pairs turn by turn (no cycle finding: a probe, not the engine), one game at a
//! time and K games side by side, and prints ns per game.
use mancala::games::lukho::*;
use std::time::Instant;

fn run<const K: usize>(starts: &[Position], rules: &Rules) -> (f64, u64) {
    let proven = ProvenCycles::new();
    let t = Instant::now();
    let mut sum = 0u64;
    for chunk in starts.chunks(K) {
        let mut p: [Position; K] = std::array::from_fn(|i| chunk[i.min(chunk.len() - 1)]);
        let mut live = [true; K];
        let mut n = K;
        while n > 0 {
            for i in 0..K {
                if live[i] {
                    match p[i].turn(rules, &proven) {
                        TurnEnd::Played { .. } => sum += 1,
                        _ => {
                            live[i] = false;
                            n -= 1;
                        }
                    }
                }
            }
        }
    }
    (t.elapsed().as_secs_f64() * 1e9 / starts.len() as f64, sum)
}

fn main() {
    let rules = Rules::default();
    let n = Choice::count(&rules);
    let proven = ProvenCycles::new();
    let starts: Vec<Position> = (0..400_000u64)
        .filter_map(|i| {
            let (a, b) = mancala::sweep::sample::pair(1, i, n);
            let o = opening(
                &rules,
                &proven,
                &Choice::from_id(a, &rules).unwrap(),
                &Choice::from_id(b, &rules).unwrap(),
                Race::SouthFirst,
            );
            (!o.perpetual).then_some(Position { board: o.board, to_move: o.first_player })
        })
        .collect();
    for _ in 0..3 {
        let (a, s1) = run::<1>(&starts, &rules);
        let (b, s2) = run::<2>(&starts, &rules);
        let (c, s4) = run::<4>(&starts, &rules);
        println!("ns/game: 1 at a time {a:.0}, 2 interleaved {b:.0}, 4 interleaved {c:.0} (turns {s1} {s2} {s4})");
    }
}
