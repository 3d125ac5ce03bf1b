//! `--restricted-gap`: restricted games solved approximately by regret matching⁺.

use super::*;

/// With the restricted games solved only to a gap of 0.05 seeds, a run still ends exact (an
/// iteration that adds no member is followed by an exact one) at the whole enumerated
/// matrix's value, its certificate's mixes prove their bounds in that matrix, and some of
/// its iterations did solve approximately (a symmetric game's restricted value is then
/// below the exact 0).
#[test]
fn an_approximate_restricted_game_still_ends_exact() {
    for (race, family) in [("lockstep", "all:remove=000000**:drop=0..1"), ("south-first", "all:remove=0000000*")] {
        let d = def(race, "margin", family);
        let dir = tempfile::tempdir().unwrap();
        let mut sv = Solver::open(d.clone(), dir.path()).unwrap();
        (sv.replies, sv.average, sv.restricted_gap) = (4, 4, 0.05);
        sv.run(StopAt::default(), &Quiet).unwrap();
        let n = sv.ids.len();
        let a = full_matrix(&d, &sv.ids);
        let full = solve_matrix_game(&a, n, n).unwrap();
        let last = sv.state.log.last().unwrap();
        assert!(sv.exact() && !sv.state.stalled, "{race} {family}: {last:?}");
        assert!((sv.value() - full.value).abs() < 1e-6, "{race} {family}: {} vs {}", sv.value(), full.value);
        certificate_holds(&sv, &a, &format!("{race} {family}"));
        if d.symmetric() {
            assert!(
                sv.state.log.iter().any(|r| r.restricted_value < -1e-6),
                "{race} {family}: no approximate iteration"
            );
        }
    }
}

/// Not a test: an LP written by `lp_probe` (`MANCALA_LP_PROBE_DUMP`) solved approximately by
/// regret matching⁺ to the duality gap `MANCALA_RM_REPLAY_EPS` (payoff units, 0.01 by default)
/// (`MANCALA_RM_REPLAY=FILE cargo test --release --lib rm_replay -- --ignored --nocapture`).
#[test]
#[ignore]
fn rm_replay() {
    let Some(file) = std::env::var_os("MANCALA_RM_REPLAY") else { return };
    let crate::opening_game::lp::Dump { rows, cols, a, .. } = crate::opening_game::lp::Dump::read(file);
    let eps = std::env::var("MANCALA_RM_REPLAY_EPS").map_or(0.01, |e| e.parse().unwrap());
    let t = std::time::Instant::now();
    let (v, w) = crate::opening_game::lp::maximiser_regret(&a, rows, cols, eps);
    let support = w.iter().filter(|&&x| x > 0.0).count();
    eprintln!("rm+ {rows}x{cols}: value {v:.3e}, support {support}, {:.2} s", t.elapsed().as_secs_f64());
}
