//! How many positions of each seed count (above a cap) are reachable from a position by play:
//! `cargo run --release --example reach -- 4,4,4,4,4,4,4,4,4,4,4,4 30`.
use mancala::games::oware::{self, Node, Rules, PITS};
use mancala::index::Compositions;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pits: Vec<u8> = args[1].split(',').map(|s| s.parse().unwrap()).collect();
    let cap: usize = args[2].parse().unwrap();
    let mut root = [0u8; PITS];
    root.copy_from_slice(&pits);
    let idx = Compositions::new(PITS, 48);
    let rules = Rules::default();
    let top = oware::seeds(&root) as usize;
    let mut bits: Vec<Vec<u64>> = (0..=top)
        .map(|n| if n > cap { vec![0u64; (idx.layer_size(n) as usize).div_ceil(64)] } else { vec![] })
        .collect();
    let mut stack = vec![root];
    let mut count = vec![0u64; top + 1];
    let r = idx.rank(&root);
    bits[top][(r / 64) as usize] |= 1 << (r % 64);
    count[top] += 1;
    let t = std::time::Instant::now();
    while let Some(v) = stack.pop() {
        if let Node::Moves(ms) = rules.node(&v) {
            for m in ms.iter() {
                let n = oware::seeds(&m.child) as usize;
                if n <= cap {
                    continue;
                }
                let r = idx.rank(&m.child);
                let w = &mut bits[n][(r / 64) as usize];
                if *w & (1 << (r % 64)) == 0 {
                    *w |= 1 << (r % 64);
                    count[n] += 1;
                    stack.push(m.child);
                }
            }
        }
    }
    for (n, &reached) in count.iter().enumerate().skip(cap + 1) {
        println!(
            "layer {n}: reachable {} of {} ({:.2}%)",
            reached,
            idx.layer_size(n),
            100.0 * reached as f64 / idx.layer_size(n) as f64
        );
    }
    println!("{:.1}s", t.elapsed().as_secs_f64());
}
