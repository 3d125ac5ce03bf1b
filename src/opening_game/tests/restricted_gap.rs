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
        (sv.options.replies, sv.options.average, sv.options.restricted_gap) = (4, 4, 0.05);
        run_until(&mut sv, StopAt::default(), &Quiet).unwrap();
        let n = sv.store.ids.len();
        let a = full_matrix(&d, &sv.store.ids);
        let full = solve_matrix_game(&a, n, n).unwrap();
        let last = sv.run.state.log.last().unwrap();
        assert!(sv.exact() && !sv.run.state.stalled, "{race} {family}: {last:?}");
        assert!((sv.value() - full.value).abs() < 1e-6, "{race} {family}: {} vs {}", sv.value(), full.value);
        certificate_holds(&sv, &a, &format!("{race} {family}"));
        if d.symmetric() {
            assert!(
                sv.run.state.log.iter().any(|r| r.restricted_value < -1e-6),
                "{race} {family}: no approximate iteration"
            );
        }
    }
}
