//! Double oracle on a mid-sized Lukho family (`lockstep`/`margin`, the 2,368 choices of
//! `all:remove=00*0*0*0`, `--replies 8 --average 8 --average-replies 8`), the last 8 mixes
//! averaged with equal weights or with the weights that concede least
//! (`--average-weights optimal`). One whole run to exact per sample, one thread, vectors in a
//! fresh temporary directory. Each run asserts its answer: exact, value 0 (the game is
//! symmetric), the certificate's bounds within the tolerance, and prints its iterations.
//! Figures: results/BENCHMARKS.md ("Lukho equilibrium: the cost of a run").

mod common;

use mancala::opening_game::{Options, Quiet, Solver, Weights};

fn main() {
    divan::main();
}

fn solve(weights: Weights) -> usize {
    let def = common::lockstep_2368();
    let dir = tempfile::tempdir().unwrap();
    let options =
        Options { replies: 8, average: 8, average_replies: 8, average_weights: weights, ..Options::default() };
    let mut s = Solver::open_with(def, dir.path(), options).unwrap();
    s.run(&Quiet).unwrap();
    assert!(s.exact() && s.value().abs() < 1e-6, "{:?}", s.state().log.last());
    let iterations = s.state().log.len();
    eprintln!("{weights:?}: {iterations} iterations, {} games", s.state().games);
    iterations
}

#[divan::bench(sample_count = 3)]
fn lockstep_2368_uniform_average() -> usize {
    rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| solve(Weights::Uniform))
}

#[divan::bench(sample_count = 3)]
fn lockstep_2368_optimal_average() -> usize {
    rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| solve(Weights::Optimal))
}
