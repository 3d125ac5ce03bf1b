//! Worked examples of the lap rules in normal turns (docs/rules/lukho.md "L2. Sowing a lap",
//! "L3. The end of a lap", "L4. Chain rule", "L5. Knives", "L10. Normal turns", "L11. End of
//! the game") and of match scoring ("L13. Match scoring"). Each example gives the board
//! before, the move, the board after, and why.

use super::*;

#[test]
fn relay_lifts_and_sows_on() {
    // s [2,0,3,0,0,0,0,0]  n [5,0,0,0,0,0,0,0], South to move.
    // South lifts S0 (2): S1 0→1, S2 3→4 (last; held 3 ≥ 2) → relay: lift 4 from S2,
    // S3..S6 each 0→1; S6 was empty, its opposite N1 is empty: no capture, the turn ends.
    let b = board([2, 0, 3, 0, 0, 0, 0, 0], [5, 0, 0, 0, 0, 0, 0, 0], &[], [0, 0]);
    let (p, t) = turn(b, Side::South, &IT);
    assert_eq!(t, TurnEnd::Played { pit: 0, last: 6, how: LapEnd::Empty(0), laps: 2 });
    assert_eq!(rows(&p.board), ([0, 1, 0, 1, 1, 1, 1, 0], [5, 0, 0, 0, 0, 0, 0, 0]));
    assert_eq!(p.to_move, Side::North);
}

#[test]
fn capture_chain_it() {
    // chain=it: then own S2 (empty) faces N5 (3): taken; S3 (empty) faces N4 (5): taken;
    // S4 faces N3 (empty): stop. 3 + 3 + 5 = 11.
    let (p, t) = turn(chain_board(), Side::South, &IT);
    assert_eq!(t, TurnEnd::Played { pit: 0, last: 1, how: LapEnd::Empty(11), laps: 1 });
    assert_eq!(rows(&p.board), ([0; 8], [1, 1, 7, 0, 0, 0, 0, 4]));
    assert_eq!(p.board.stores, [11, 0]);
}

#[test]
fn capture_chain_en() {
    // chain=en: the captured pit is N6; then N7 (4, non-empty): taken; index 8 does not
    // exist (no wrap). 3 + 4 = 7.
    let (p, t) = turn(chain_board(), Side::South, &EN);
    assert_eq!(t, TurnEnd::Played { pit: 0, last: 1, how: LapEnd::Empty(7), laps: 1 });
    assert_eq!(rows(&p.board), ([0; 8], [1, 1, 7, 0, 5, 3, 0, 0]));
    assert_eq!(p.board.stores, [7, 0]);
}

#[test]
fn capture_chain_none() {
    // chain=none: only N6 and the capturing seed.
    let (p, _) = turn(chain_board(), Side::South, &NONE);
    assert_eq!(rows(&p.board), ([0; 8], [1, 1, 7, 0, 5, 3, 0, 4]));
    assert_eq!(p.board.stores, [3, 0]);
}

#[test]
fn chains_stop_at_knives() {
    // Same board with North knives on N5 (it: the chain stops before it) and N7 (en: the
    // chain stops before it). Knives are never captured.
    let k = [(13, Side::North), (15, Side::North)];
    let b = board([1, 0, 0, 0, 0, 0, 0, 0], [1, 1, 7, 0, 5, 3, 2, 4], &k, [0, 0]);
    let (p, _) = turn(b, Side::South, &IT);
    assert_eq!(rows(&p.board), ([0; 8], [1, 1, 7, 0, 5, 3, 0, 4]));
    assert_eq!(p.board.stores, [3, 0]);
    let (p, _) = turn(b, Side::South, &EN);
    assert_eq!(rows(&p.board), ([0; 8], [1, 1, 7, 0, 5, 3, 0, 4]));
    assert_eq!(p.board.stores, [3, 0]);
}

#[test]
fn knife_opposite_is_not_captured() {
    // s [1,0,…]  n [0,0,0,0,0,0,2n,0]: S0's seed falls into the empty S1 facing N6, a
    // knife: no capture, S1 keeps its seed, the turn ends.
    let b = board([1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 2, 0], &[(14, Side::North)], [0, 0]);
    let (p, t) = turn(b, Side::South, &IT);
    assert_eq!(t, TurnEnd::Played { pit: 0, last: 1, how: LapEnd::Empty(0), laps: 1 });
    assert_eq!(rows(&p.board), ([0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 2, 0]));
    assert_eq!(p.board.knife(14), Some(Side::North));
}

#[test]
fn knife_created_on_own_row() {
    // s [1,1,0,…]  n [3,0,…]: S0's seed falls into S1, which held exactly 1 (2 now): S1
    // becomes a South knife and the turn ends (no relay).
    let b = board([1, 1, 0, 0, 0, 0, 0, 0], [3, 0, 0, 0, 0, 0, 0, 0], &[], [0, 0]);
    let (p, t) = turn(b, Side::South, &IT);
    assert_eq!(t, TurnEnd::Played { pit: 0, last: 1, how: LapEnd::NewKnife, laps: 1 });
    assert_eq!(rows(&p.board), ([0, 2, 0, 0, 0, 0, 0, 0], [3, 0, 0, 0, 0, 0, 0, 0]));
    assert_eq!(p.board.knife(1), Some(Side::South));
    assert_eq!(p.board.knives_json()[1], 0);
}

#[test]
fn knife_created_on_opponent_row() {
    let proven = ProvenCycles::new();
    // s [0,…,0,1]  n [1,0,…]: South's only seed (S7) falls into N0, which held 1: N0
    // becomes a knife of South, in North's row.
    let b = board([0, 0, 0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0], &[], [0, 0]);
    let (p, t) = turn(b, Side::South, &IT);
    assert_eq!(t, TurnEnd::Played { pit: 7, last: 8, how: LapEnd::NewKnife, laps: 1 });
    assert_eq!(p.board.knife(8), Some(Side::South));
    assert_eq!(p.board.knives_json()[8], 0);
    // North owns no pit he may lift now (N0 is South's knife): the game is over, South
    // takes his knife and nothing else is left.
    let mut q = p;
    assert_eq!(q.turn(&IT, &proven), TurnEnd::NoMove);
    assert_eq!(q.board.sweep_totals(Side::North), [HalfSeeds(4), HalfSeeds(0)]);
}

#[test]
fn north_creates_knife_on_south_row() {
    // s [1,0,…]  n [0,…,0,1], North to move: his only seed (N7) falls into S0, which held 1:
    // S0 becomes North's knife, in South's row.
    let b = board([1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 1], &[], [0, 0]);
    let (p, t) = turn(b, Side::North, &IT);
    assert_eq!(t, TurnEnd::Played { pit: 15, last: 0, how: LapEnd::NewKnife, laps: 1 });
    assert_eq!(p.board.knife(0), Some(Side::North));
}

#[test]
fn sowing_into_a_knife() {
    // s [3,0,2n,0,…]  n [1,0,…] (S2 is North's knife): South lifts S0 (3): S1 0→1, S2 2→3
    // (the knife receives the seed and keeps it), S3 0→1 (last; empty; opposite N4 empty):
    // the turn ends. The knife holds 3 and is still North's.
    let b = board([3, 0, 2, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0], &[(2, Side::North)], [0, 0]);
    let (p, t) = turn(b, Side::South, &IT);
    assert_eq!(t, TurnEnd::Played { pit: 0, last: 3, how: LapEnd::Empty(0), laps: 1 });
    assert_eq!(rows(&p.board), ([0, 1, 3, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0]));
    assert_eq!(p.board.knife(2), Some(Side::North));
}

#[test]
fn lap_ending_in_a_knife_stops() {
    // s [2,0,2s,…]  n [1,…]: South lifts S0 (2): S1 0→1, S2 2→3 is the last seed and S2 is
    // a knife: the turn ends there (no relay, although it held 2; no new knife).
    let b = board([2, 0, 2, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0], &[(2, Side::South)], [0, 0]);
    let (p, t) = turn(b, Side::South, &IT);
    assert_eq!(t, TurnEnd::Played { pit: 0, last: 2, how: LapEnd::KnifeStop, laps: 1 });
    assert_eq!(rows(&p.board), ([0, 1, 3, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0]));
}

#[test]
fn knives_are_never_lifted() {
    // s [2s,0,1,…]: S0 is South's own knife: the forced pit is S2, not S0.
    let b = board([2, 0, 1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0], &[(0, Side::South)], [0, 0]);
    assert_eq!(b.forced_pit(Side::South), Some(2));
    let (p, t) = turn(b, Side::South, &IT);
    assert_eq!(t, TurnEnd::Played { pit: 2, last: 3, how: LapEnd::Empty(0), laps: 1 });
    assert_eq!(rows(&p.board), ([2, 0, 0, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0]));
    // A knife of the opponent in one's own row is skipped as well.
    let b = board([2, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0], &[(0, Side::North)], [0, 0]);
    assert_eq!(b.forced_pit(Side::South), None);
}

#[test]
fn game_ends_with_knives() {
    let proven = ProvenCycles::new();
    // s [2s,0,0,0,0,0,0,3n]  n [1,0,0,4,0,0,2s,0], stores 15–21, South to move.
    // South has no pit to lift (S0 and S7 are knives, the rest empty): the game ends.
    // South: 15 + his knives S0 (2) + N6 (2) = 19. North: 21 + his knife S7 (3) + every
    // non-knife seed N0 (1) + N3 (4) = 29. North wins by 10.
    let k = [(0, Side::South), (7, Side::North), (14, Side::South)];
    let b = board([2, 0, 0, 0, 0, 0, 0, 3], [1, 0, 0, 4, 0, 0, 2, 0], &k, [15, 21]);
    let o = play_from(&IT, &proven, Position { board: b, to_move: Side::South });
    assert_eq!(o.class, Class::Normal);
    assert_eq!(o.totals(), [19.0, 29.0]);
    assert_eq!(o.winner, Some(Side::North));
    assert_eq!(o.margin(), -10.0);
    assert_eq!(o.turns, 0);
    assert_eq!(o.first_player, Side::South);
    assert_eq!((o.points_first_game, o.points_later_game), (2, 2));
}

#[test]
fn forced_game_runs_to_a_sweep() {
    let proven = ProvenCycles::new();
    // s [1,0,…]  n [0,…,0,1,0], stores 23–23, South to move.
    // Turn 1 (South): S0 → S1 (empty, opposite N6 holds 1): capture 1 + 1 → South store 25.
    // North to move: N6 is gone; North has nothing: game over, South sweeps nothing.
    let b = board([1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 1, 0], &[], [23, 23]);
    let o = play_from(&IT, &proven, Position { board: b, to_move: Side::South });
    assert_eq!(o.class, Class::Normal);
    assert_eq!(o.turns, 1);
    assert_eq!(o.totals(), [25.0, 23.0]);
    // A bull: margin exactly 2.
    assert_eq!((o.points_first_game, o.points_later_game), (12, 4));
}

#[test]
fn match_points_cases() {
    // Totals are in half-seeds.
    assert_eq!(match_points([HalfSeeds(60), HalfSeeds(36)], false), 2); // 30–18: plain win
    assert_eq!(match_points([HalfSeeds(60), HalfSeeds(36)], true), 2);
    assert_eq!(match_points([HalfSeeds(0), HalfSeeds(96)], false), 4); // 0–48: loser has nothing
    assert_eq!(match_points([HalfSeeds(0), HalfSeeds(96)], true), 4);
    assert_eq!(match_points([HalfSeeds(50), HalfSeeds(46)], false), 4); // 25–23: bull
    assert_eq!(match_points([HalfSeeds(50), HalfSeeds(46)], true), 12); // first-game bull
    assert_eq!(match_points([HalfSeeds(46), HalfSeeds(50)], true), 12); // North's bull
    assert_eq!(match_points([HalfSeeds(49), HalfSeeds(47)], true), 2); // 24.5–23.5: margin 1, no bull
    assert_eq!(match_points([HalfSeeds(51), HalfSeeds(45)], true), 2); // 25.5–22.5: margin 3
    assert_eq!(match_points([HalfSeeds(48), HalfSeeds(48)], true), 0); // draw
    let o = GameOutcome::new(Side::South, [HalfSeeds(1), HalfSeeds(95)], Class::Cycle, 3);
    assert_eq!((o.winner, o.points_later_game), (Some(Side::North), 2)); // 0.5 is not 0
}
