//! The forward pass's lookups of an Oware layer split among K MPI processes (full index): how
//! many lookups there are, and how many cross to another process's share, for K up to 256,
//! without running MPI (docs/distributed.md projects the traffic from it):
//! `cargo run --release --example mpi_lookups -- 17`.
use mancala::retro::oware::{IndexKind, OwareLayers};
use mancala::retro::plan::share_len;
use mancala::retro::LayeredGame;
use rayon::prelude::*;

const KS: [u64; 8] = [2, 4, 8, 16, 32, 64, 128, 256];
const CHUNK: u64 = 1 << 14;

fn main() {
    let n: usize = std::env::args().nth(1).expect("a layer").parse().expect("a layer");
    let game = OwareLayers::with_index(Default::default(), IndexKind::Full);
    let size = game.layer_size(n);
    let lens: Vec<Vec<u64>> = KS.iter().map(|&k| (0..=n).map(|m| share_len(game.layer_size(m), k)).collect()).collect();
    let zero = || (0u64, [0u64; KS.len()]);
    let (all, crossed) = (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let (mut buf, mut exits) = (Vec::new(), Vec::new());
            let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(size));
            let (mut all, mut crossed) = zero();
            let mut pos = game.unrank(n, start);
            for rank in start..end {
                if rank > start {
                    game.next_in_layer(&mut pos);
                }
                if game.exit_children(&pos, &mut buf, &mut exits).is_ok() {
                    all += exits.len() as u64;
                    for (i, len) in lens.iter().enumerate() {
                        let me = rank / len[n];
                        crossed[i] += exits.iter().filter(|&&(_, m, r)| r / len[m] != me).count() as u64;
                    }
                }
            }
            (all, crossed)
        })
        .reduce(zero, |a, b| (a.0 + b.0, std::array::from_fn(|i| a.1[i] + b.1[i])));
    println!("layer {n}: {size} positions, {all} lookups ({:.3} per position)", all as f64 / size as f64);
    for (i, k) in KS.iter().enumerate() {
        let per = crossed[i] as f64 / size as f64;
        println!(
            "K = {k:>3}: {:>12} cross ({per:.3} per position, {:.1} % of the lookups)",
            crossed[i],
            100.0 * crossed[i] as f64 / all as f64
        );
    }
}
