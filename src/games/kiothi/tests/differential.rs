//! The engine against the slow reference generator and against brute force.

use super::*;

#[test]
fn legal_moves_checked_and_unchecked_play_agree_with_the_generator() {
    let rules = Rules::default();
    let mut buf = Vec::new();
    for p in [endgame(), midgame(), perpetual_position()] {
        let mut children = Vec::new();
        p.children(&rules, &SOWING, &mut children);
        p.legal_moves(&rules, &SOWING, &mut buf);
        assert_eq!(buf, children.iter().map(|c| Move::Sow(c.mv)).collect::<Vec<_>>());
        for c in &children {
            let m = Move::Sow(c.mv);
            assert_eq!(p.play(&rules, &SOWING, &m), Ok(c.position));
            let mut q = p;
            q.play_unchecked(&rules, &SOWING, &m);
            assert_eq!(q, c.position);
            assert_eq!(q.warriors(), p.warriors(), "warriors are conserved");
            q.validate().unwrap();
        }
    }
    // A redistribution turn lists every redistribution.
    let tiny = tiny_opening();
    tiny.legal_moves(&rules, &SOWING, &mut buf);
    assert_eq!(buf.len() as u128, tiny.redistribution_count(&rules).unwrap());
    assert!(buf.iter().all(|m| tiny.play(&rules, &SOWING, m).is_ok()));
}

#[test]
fn redistribution_counts_match_brute_force() {
    // Tiny openings: few warriors, so every (emptied set, placement) can be listed.
    let tiny = [
        pos([0, 0, 1, 0, 0, 0, 0, 1, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0, 1, 0], &[], S, 1),
        pos([1, 0, 2, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 1, 0, 0, 0, 0, 0, 0], &[], S, 1),
        pos([0, 0, 0, 0, 0, 0, 0, 1, 1, 0], [2, 0, 0, 0, 0, 0, 0, 0, 0, 0], &[], S, 1),
    ];
    for redistribute in [Redistribute::Exactly2, Redistribute::UpTo2] {
        let rules = Rules { redistribute, ..Rules::default() };
        for p in &tiny {
            let mut one = 0u128;
            let mut two = 0u128;
            reference::children(p, &rules, &mut |c| {
                one += 1;
                let mut n = 0u128;
                reference::children(&c, &rules, &mut |_| n += 1);
                two += n;
                assert_eq!(c.redistribution_count(&rules).unwrap(), n, "turn 2 from {c:?}");
            });
            assert_eq!(p.redistribution_count(&rules).unwrap(), one, "{redistribute:?} {p:?}");
            assert_eq!(p.redistribution_count_two_plies(&rules).unwrap(), two, "{redistribute:?} {p:?}");
            // The engine's own listing agrees with its count, with no move twice.
            let mut listed = std::collections::HashSet::new();
            p.for_each_redistribution(&rules, |r| {
                assert!(listed.insert(*r));
                assert_eq!(p.check_redistribution(&rules, r), Ok(()));
            });
            assert_eq!(listed.len() as u128, one);
        }
    }
}
