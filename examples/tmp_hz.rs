use mancala::games::kiothi::{Rules, Position};
use mancala::search::{horizon::horizon, Limits};
use mancala::solve::kiothi::KiothiSearch;
fn main() {
    let rules = Rules::default();
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string("/tmp/mid.json").unwrap()).unwrap();
    let p = Position::from_json(&v).unwrap();
    let g = KiothiSearch::new(rules, None);
    for d in 1..=7 {
        let r = horizon(&g, &p, Limits { depth: Some(d), seconds: Some(60.0), nodes: None }, 20);
        println!("d {d}: value {} depth {} best {:?} nodes {} {:.2}s {:?} {:?}", r.value, r.depth, r.best_moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), r.nodes, r.seconds, g.stats(), mancala::games::kiothi::sowing_stats());
    }
}
