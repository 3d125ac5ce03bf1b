//! Perpetual sowings and their scoring (docs/rules/lukho.md "L9. Perpetual openings", "L12.
//! Cycles and perpetual turns"): detection, speed on a long cycle, and cycles shared through
//! [`ProvenCycles`].

use super::*;

#[test]
fn perpetual_turn_detected_and_split() {
    let proven = ProvenCycles::new();
    // South to move holds S0 = 3 (the hand) and the rest of STEADY3; stores 14–16.
    let mut pits = STEADY3;
    pits[0] = 3;
    let b = Board::new(pits, [-1; 16], [14, 16]);
    let mut p = Position { board: b, to_move: Side::South };
    assert_eq!(p.turn(&IT, &proven), TurnEnd::Perpetual);
    assert_eq!(p.board, b, "a perpetual turn leaves the position as it was");
    // Scored split from the position before the turn: 14 + 9 and 16 + 9: a North bull.
    let o = play_from(&IT, &proven, Position { board: b, to_move: Side::South });
    assert_eq!(o.class, Class::PerpetualTurn);
    assert_eq!(o.totals(), [23.0, 25.0]);
    assert_eq!(o.turns, 0);
    assert_eq!((o.points_first_game, o.points_later_game), (12, 4));
}

#[test]
fn perpetual_opening_sowing_detected() {
    let proven = ProvenCycles::new();
    let mut b = Board::new(STEADY3, [-1; 16], [0, 0]);
    assert!(matches!(b.sow(&IT, &proven, Side::South, 0, 3, Phase::Opening), SowingEnd::Perpetual { .. }));
    // A knife anywhere makes it finite (seeds pile up in it): knife on absolute 4.
    let mut k = [-1i8; 16];
    k[4] = 1;
    let mut pits = STEADY3;
    pits[4] = 2;
    let mut b = Board::new(pits, k, [0, 0]);
    assert!(matches!(b.sow(&IT, &proven, Side::South, 0, 3, Phase::Turn), SowingEnd::Ended { .. }));
}

/// A perpetual found by random search (absolute period 19,184,616 laps, 2,398,077 seen from
/// the sower): the detection must stay exact and fast.
#[test]
fn long_perpetual_sowing() {
    let proven = ProvenCycles::new();
    let pits = [0u8, 2, 1, 2, 3, 2, 1, 2, 5, 5, 0, 1, 4, 1, 2, 1];
    let mut b = Board::new(pits, [-1; 16], [0, 0]);
    let t = std::time::Instant::now();
    let r = b.sow(&IT, &proven, Side::South, 8, 16, Phase::Opening);
    let dt = t.elapsed();
    assert!(matches!(r, SowingEnd::Perpetual { laps } if laps <= 2_398_077 + 64), "{r:?}");
    assert!(dt.as_secs_f64() < 2.0, "{dt:?}");
}

/// A cycle proven once is shared: the same sowing turned by 3 pits (so its relative states,
/// hence its verdict, are the same) is found perpetual at a published point, within a few
/// thousand laps instead of the 2.4 M-lap period.
#[test]
fn proven_cycle_is_shared_by_distinguished_points() {
    let proven = ProvenCycles::new();
    let pits = [0u8, 2, 1, 2, 3, 2, 1, 2, 5, 5, 0, 1, 4, 1, 2, 1];
    let mut b = Board::new(pits, [-1; 16], [0, 0]);
    assert!(matches!(b.sow(&IT, &proven, Side::South, 8, 16, Phase::Opening), SowingEnd::Perpetual { .. }));
    for turn in [3usize, 7, 13] {
        let mut turned = [0u8; PITS];
        for (p, &x) in pits.iter().enumerate() {
            turned[(p + turn) % PITS] = x;
        }
        let before = proven.stats().hits;
        let mut b = Board::new(turned, [-1; 16], [0, 0]);
        let r = b.sow(&IT, &proven, Side::South, (8 + turn) % PITS, 16, Phase::Opening);
        assert!(matches!(r, SowingEnd::Perpetual { laps } if laps < 200_000), "{r:?}");
        assert!(proven.stats().hits > before);
    }
}

/// A perpetual `lockstep` opening (South 5425522 against North 5254628, found in a random
/// sample: its joint sowing repeats after about 10^6 ticks) is proven once; played again with
/// the same [`ProvenCycles`] it is found at a published point of its joint cycle (a hit, not a
/// second proof), and scored the same (a split is the same at every state of the cycle). The
/// other outcome, whose ticks start with the other sower, is not mistaken for it.
#[test]
fn lockstep_perpetual_is_shared_through_its_joint_cycle() {
    let rules = Rules::default();
    let s = Choice::from_id(5425522, &rules).unwrap();
    let n = Choice::from_id(5254628, &rules).unwrap();
    let proven = ProvenCycles::new();
    let first = play_game(&rules, &proven, &s, &n, Race::LockstepSouth);
    assert_eq!(first.class, Class::PerpetualOpening);
    let walked = proven.stats();
    assert!(walked.proven >= 1 && walked.points > 100, "{walked:?}");
    let again = play_game(&rules, &proven, &s, &n, Race::LockstepSouth);
    assert_eq!(again, first);
    // Found at a published point (a hit), not by walking the period again (a proof).
    assert_eq!((proven.stats().proven, proven.stats().hits), (walked.proven, walked.hits + 1));
    let other = play_game(&rules, &proven, &s, &n, Race::LockstepNorth);
    assert_eq!(other, play_game(&rules, &ProvenCycles::new(), &s, &n, Race::LockstepNorth));
}

#[test]
fn perpetual_opening_game_is_split_with_hands() {
    let proven = ProvenCycles::new();
    // Found by random search: south 1,2,3,2,3,2,1,2 14@7, north 1,2,3,0,1,2,0,3 2@1,
    // north-first: a sowing never ends; nobody's stores were touched before, so the
    // 48 seeds (board and hands) are halved: 24–24.
    let r = Rules::default();
    let s = Choice::parse("1,2,3,2,3,2,1,2", "14@7", &r).unwrap();
    let n = Choice::parse("1,2,3,0,1,2,0,3", "2@1", &r).unwrap();
    let o = opening(&r, &proven, &s, &n, Race::NorthFirst);
    assert!(o.perpetual);
    assert!(o.hands() > 0, "the repeat is found mid-sowing, with seeds in hand");
    let g = play_game(&r, &proven, &s, &n, Race::NorthFirst);
    assert_eq!(g.class, Class::PerpetualOpening);
    assert_eq!(g.turns, 0);
    assert_eq!(g.final_totals[0].0 + g.final_totals[1].0, 96);
    assert_eq!(g.first_player, Side::North);
}
