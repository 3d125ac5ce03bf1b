//! The batch engine against the scalar one on real games (run by hand; the test
//! `batch_matches_one_game_at_a_time` is the check CI runs):
//!
//! ```text
//! cargo run --release --example lanes_check -- 3456789 200000   # South id, North ids 0..N
//! ```
//!
//! For each chain rule: the games of South against North 0..N under both `sequential`
//! outcomes (perpetual openings left out), played by `Engine::SCALAR` and by `Engine::lanes()`;
//! prints the fastest of 5 runs of each and how many outcomes differ (must be 0).
use mancala::games::lukho::*;
use std::time::Instant;
fn main() {
    let Some(lanes) = Engine::lanes() else {
        eprintln!("lanes not available on this CPU: nothing to compare");
        std::process::exit(1);
    };
    let proven = ProvenCycles::new();
    let args: Vec<String> = std::env::args().collect();
    let south: u64 = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(3456789);
    let n: u64 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(200000);
    for chain in [Chain::It, Chain::En, Chain::None] {
        let rules = Rules { chain, ..Rules::default() };
        let s = Choice::from_id(south, &rules).unwrap();
        let mut starts = Vec::new();
        for nid in 0..n {
            let c = Choice::from_id(nid, &rules).unwrap();
            for race in [Race::SouthFirst, Race::NorthFirst] {
                let o = opening(&rules, &proven, &s, &c, race);
                if !o.perpetual {
                    starts.push(Position { board: o.board, to_move: o.first_player });
                }
            }
        }
        let blank = play_from(&rules, &proven, starts[0]);
        let mut a = vec![blank; starts.len()];
        let mut b = vec![blank; starts.len()];
        let (mut ts, mut tv) = (std::time::Duration::MAX, std::time::Duration::MAX);
        for _ in 0..5 {
            let t = Instant::now();
            Engine::SCALAR.play(&rules, &proven, &starts, &mut a);
            ts = ts.min(t.elapsed());
            let t = Instant::now();
            lanes.play(&rules, &proven, &starts, &mut b);
            tv = tv.min(t.elapsed());
        }
        let bad = a.iter().zip(&b).filter(|(x, y)| x != y).count();
        println!("{chain:?}: {} games, scalar {:.3?} lanes {:.3?}, {bad} differ", starts.len(), ts, tv);
        if let Some(i) = a.iter().zip(&b).position(|(x, y)| x != y) {
            println!("first diff {i}: {:?}\nscalar {:?}\nlanes  {:?}", starts[i], a[i], b[i]);
        }
    }
}
