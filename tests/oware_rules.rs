//! Hand-worked Oware positions, one per rule (docs/rules/oware.md O1–O8). Boards are written from the
//! mover's view: his row (own indices 0..5) then the opponent's (0..5), in sowing order.

use mancala::games::oware::{sow, Cycle, EndReason, Ending, Game, GrandSlam, Node, Position, Rules, View, TOTAL_SEEDS};
use mancala::side::Side;

fn rules(gs: GrandSlam) -> Rules {
    Rules { grand_slam: gs, cycle: Cycle::Split }
}

fn moves(r: Rules, v: &View) -> Vec<(u8, u8, View)> {
    match r.node(v) {
        Node::Moves(ms) => ms.iter().map(|m| (m.pit, m.captured, m.child)).collect(),
        Node::Ended(e) => panic!("ended: {e:?}"),
    }
}

#[test]
fn sowing_twelve_or_more_skips_the_origin() {
    // Own pit 0 holds 12. The first 11 seeds go once round the other 11 pits; the 12th would
    // fall in the origin, which is skipped, so it lands in own pit 1 (2 seeds there now).
    //   before: 12 0 0 0 0 0 | 0 0 0 0 0 0
    //   after :  0 2 1 1 1 1 | 1 1 1 1 1 1   (last seed in an own pit: no capture)
    let v: View = [12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let s = sow(&v, 0);
    assert_eq!(s.board, [0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    assert_eq!(s.captured, 0);
    // 23 seeds: two laps of 11, then one more into own pit 1: 0 3 2 2 2 2 | 2 2 2 2 2 2.
    let v: View = [23, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    let s = sow(&v, 0);
    assert_eq!(s.sown, [0, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3]);
    assert_eq!(s.captured, 0, "the last seed fell in an own pit");
}

#[test]
fn chained_captures_stop_at_the_row_edge() {
    // Own pit 5 holds 3: they fall in opponent 0, 1, 2 making 2, 3, 2. Capture backwards from
    // opponent 2: 2 + 3 + 2 = 7; the next pit back is own pit 5, where the chain stops.
    //   before: 0 0 0 0 0 3 | 1 2 1 0 0 5
    //   after : 0 0 0 0 0 0 | 0 0 0 0 0 5, mover +7
    let v: View = [0, 0, 0, 0, 0, 3, 1, 2, 1, 0, 0, 5];
    let s = sow(&v, 5);
    assert_eq!(s.captured, 7);
    assert_eq!(s.board, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
    assert!(!s.grand_slam);
}

#[test]
fn chained_captures_stop_at_a_pit_without_two_or_three() {
    // Own pit 4 holds 4: own 5, opponent 0, 1, 2 get one each → opp 0 = 4 (not 2/3),
    // opp 1 = 2, opp 2 = 3. Capture 3 + 2 = 5, stop at opp 0 (4 seeds).
    let v: View = [0, 0, 0, 0, 4, 0, 3, 1, 2, 0, 0, 1];
    let s = sow(&v, 4);
    assert_eq!(s.captured, 5);
    assert_eq!(s.board, [0, 0, 0, 0, 0, 1, 4, 0, 0, 0, 0, 1]);
}

#[test]
fn grand_slam_under_each_variant() {
    // Own pit 5 (2 seeds) makes opponent 0, 1 hold 2, 2 and would capture both: the
    // opponent's whole row, a grand slam. Own pit 0 (1 seed) is an ordinary move.
    //   0 0 0 0 0 2 | 1 1 0 0 0 0   plus own pit 0 = 1
    let v: View = [1, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0];
    // no-capture: legal, captures nothing, the sown seeds stay.
    let m = moves(rules(GrandSlam::NoCapture), &v);
    assert_eq!(m.iter().map(|x| x.0).collect::<Vec<_>>(), vec![0, 5]);
    let gs = m.iter().find(|x| x.0 == 5).unwrap();
    assert_eq!(gs.1, 0);
    // Child is seen by the opponent: his row 2 2 0 0 0 0, then ours 1 0 0 0 0 0.
    assert_eq!(gs.2, [2, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    // forbidden and awari: illegal while another move exists.
    for gsr in [GrandSlam::Forbidden, GrandSlam::Awari] {
        let m = moves(rules(gsr), &v);
        assert_eq!(m.iter().map(|x| x.0).collect::<Vec<_>>(), vec![0], "{gsr:?}");
    }
    // Forced: own 4 (3 seeds) → own 5, opp 0, opp 1 = 3, 2, 2: captures 4, a grand slam;
    // own 5 (2 seeds) → opp 0, 1 = 2, 2: captures 4, a grand slam. Every move is one.
    let v: View = [0, 0, 0, 0, 3, 2, 1, 1, 0, 0, 0, 0];
    let m = moves(rules(GrandSlam::Forbidden), &v);
    assert_eq!(m.iter().map(|x| (x.0, x.1)).collect::<Vec<_>>(), vec![(4, 0), (5, 0)]);
    // awari: forced, so it captures (4) and the mover takes his own row too (3 left):
    // every one of the 7 seeds, leaving an empty board.
    let m = moves(rules(GrandSlam::Awari), &v);
    assert_eq!(m.iter().map(|x| (x.0, x.1)).collect::<Vec<_>>(), vec![(4, 7), (5, 7)]);
    assert!(m.iter().all(|x| x.2 == [0; 12]));
}

#[test]
fn feeding_is_forced() {
    // The opponent is empty: own pit 0 (1 seed) stays in our row, own pit 5 (1 seed) feeds.
    let v: View = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0];
    let m = moves(Rules::default(), &v);
    assert_eq!(m.iter().map(|x| x.0).collect::<Vec<_>>(), vec![5]);
}

#[test]
fn cannot_feed_ends_the_game_and_the_mover_takes_all() {
    // Own pit 0 holds 2: it reaches own pits 1, 2 only; the opponent is empty and cannot be
    // fed, so the game ends and the mover takes both seeds (+2 net).
    let v: View = [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(Rules::default().node(&v), Node::Ended(Ending::CannotFeed));
    assert_eq!(Ending::CannotFeed.mover_net(2), 2);
}

#[test]
fn mover_without_seeds_loses_the_rest() {
    let v: View = [0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1, 0];
    assert_eq!(Rules::default().node(&v), Node::Ended(Ending::MoverEmpty));
    assert_eq!(Ending::MoverEmpty.mover_net(4), -4);
}

/// North to move, South empty, North 1 0 0 0 0 1 (his indices). North must feed: 5 (into
/// South 0). Then each side walks its single seed one pit right: S0→S1, N0→N1, … After 12
/// plies the seed that left N5 is back... exactly the start: North to move, N 1 0 0 0 0 1,
/// South empty — a repetition. Stores 23–23 before.
fn cycling_game(cycle: Cycle) -> Game {
    let mut pits = [0u8; 12];
    pits[6] = 1;
    pits[11] = 1;
    let start = Position { pits, stores: [23, 23], to_move: Side::North };
    let mut g = Game::new(Rules { grand_slam: GrandSlam::NoCapture, cycle }, start);
    for (i, m) in [5, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5].into_iter().enumerate() {
        assert!(g.result.is_none(), "ended early at ply {i}");
        g.play(m).unwrap();
    }
    g
}

#[test]
fn repetition_split_divides_the_board() {
    let g = cycling_game(Cycle::Split);
    let r = g.result.expect("the start position repeated");
    assert_eq!(r.reason, EndReason::Repetition(Cycle::Split));
    // 2 seeds left, one each: 24–24, a draw.
    assert_eq!(r.score, [24.0, 24.0]);
    assert_eq!(r.winner(), None);
}

#[test]
fn repetition_own_rows_gives_each_his_row() {
    let g = cycling_game(Cycle::OwnRows);
    let r = g.result.expect("the start position repeated");
    // Both seeds are on North's row: 23–25, North wins.
    assert_eq!(r.score, [23.0, 25.0]);
    assert_eq!(r.winner(), Some(Side::North));
}

#[test]
fn twenty_five_captured_ends_the_game() {
    // South has 23 captured; own pit 5 (1 seed) makes opponent 0 hold 2: captured → 25.
    let mut pits = [0u8; 12];
    pits[5] = 1;
    pits[6] = 1;
    pits[9] = 4;
    pits[0] = 3;
    let p = Position { pits, stores: [23, 16], to_move: Side::South };
    let mut g = Game::new(Rules::default(), p);
    g.play(5).unwrap();
    let r = g.result.expect("25 reached");
    assert_eq!(r.reason, EndReason::Majority);
    assert_eq!(r.score, [25.0, 16.0]);
    assert!(g.legal().is_empty());
}

#[test]
fn illegal_moves_are_refused_with_the_legal_list() {
    let mut g = Game::new(Rules::default(), Position::default());
    g.play(0).unwrap();
    // North plays his pit 0 (absolute 6): its 4 seeds stay in his row. South's pit 0 is still
    // empty, so 0 is illegal for South.
    g.play(0).unwrap();
    let e = g.play(0).unwrap_err();
    assert_eq!(e.to_string(), "move 0 is not legal (legal: [1, 2, 3, 4, 5])");
}

#[test]
fn opening_move_sows_counterclockwise() {
    // Standard start, South plays own pit 5: its 4 seeds fall in North 0..3.
    let mut g = Game::new(Rules::default(), Position::default());
    g.play(5).unwrap();
    assert_eq!(g.position.pits, [4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 4]);
    assert_eq!(g.position.to_move, Side::North);
}

// The worked examples of docs/rules/oware.md, one test per rule. Each agrees with
// `mancala oware replay --start <board> [--to-move north] --moves <m> --jsonl`, whose stores
// share out the seeds missing from the board; the games below use the same stores, except the
// second O7 case, which needs a store of 25 that replay cannot set.

#[test]
fn o1_start_has_four_seeds_in_every_pit_and_south_moves() {
    // before: 4 4 4 4 4 4 | 4 4 4 4 4 4, stores 0–0, South to move: 48 seeds, every pit legal.
    let p = Position::default();
    assert_eq!(p.pits, [4; 12]);
    assert_eq!(p.board_seeds(), TOTAL_SEEDS);
    assert_eq!((p.stores, p.to_move), ([0, 0], Side::South));
    let g = Game::new(Rules::default(), p);
    assert_eq!(g.legal(), vec![0, 1, 2, 3, 4, 5]);
    assert!(g.result.is_none());
}

#[test]
fn o2_book_example_fourteen_seeds_skip_the_origin_then_capture() {
    // S [0,0,0,14,0,0], N [0,1,0,0,0,0], South plays 3. Eleven seeds go once round the other
    // pits, the last three to s4, s5, n0 (the origin s3 stays empty). n0 now holds 2: O3
    // captures it; the pit before is South's own s5, so the chain stops.
    //   before: 0 0 0 14 0 0 | 0 1 0 0 0 0
    //   sown  : 1 1 1  0 2 2 | 2 2 1 1 1 1
    //   after : 1 1 1  0 2 2 | 0 2 1 1 1 1, South +2
    let v: View = [0, 0, 0, 14, 0, 0, 0, 1, 0, 0, 0, 0];
    let s = sow(&v, 3);
    assert_eq!(s.sown, [1, 1, 1, 0, 2, 2, 2, 2, 1, 1, 1, 1]);
    assert_eq!(s.board, [1, 1, 1, 0, 2, 2, 0, 2, 1, 1, 1, 1]);
    assert_eq!(s.captured, 2);
    let mut g = Game::new(Rules::default(), Position { pits: v, stores: [16, 17], to_move: Side::South });
    g.play(3).unwrap();
    assert_eq!(g.position.pits, [1, 1, 1, 0, 2, 2, 0, 2, 1, 1, 1, 1]);
    assert_eq!(g.position.stores, [18, 17]);
}

#[test]
fn o3_book_example_the_chain_takes_three_pits_and_stops_at_the_row_edge() {
    // S [0,0,0,0,0,3], N [2,1,1,5,0,2], South plays 5: n0, n1, n2 become 3, 2, 2. The last seed
    // is in n2 (2): taken; n1 (2): taken; n0 (3): taken; the pit before is South's s5: stop.
    //   before: 0 0 0 0 0 3 | 2 1 1 5 0 2
    //   after : 0 0 0 0 0 0 | 0 0 0 5 0 2, South +7 (not a grand slam: n3 and n5 keep seeds)
    let v: View = [0, 0, 0, 0, 0, 3, 2, 1, 1, 5, 0, 2];
    let s = sow(&v, 5);
    assert_eq!(s.captured, 7);
    assert_eq!(s.board, [0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 2]);
    assert!(!s.grand_slam);
    let m = moves(Rules::default(), &v);
    assert_eq!(m, vec![(5, 7, [0, 0, 0, 5, 0, 2, 0, 0, 0, 0, 0, 0])]);
}

#[test]
fn o4_book_example_under_each_variant() {
    // S [1,0,0,0,0,3], N [2,1,1,0,0,0]: index 5 makes n0..n2 hold 3, 2, 2 and would capture all
    // 7 seeds of North's row, a grand slam; index 0 is an ordinary move.
    //   no-capture: legal, nothing taken, after 1 0 0 0 0 0 | 3 2 2 0 0 0 (legal 0 and 5)
    //   forbidden, awari: index 5 is illegal while index 0 exists (legal: 0 only)
    let v: View = [1, 0, 0, 0, 0, 3, 2, 1, 1, 0, 0, 0];
    let m = moves(rules(GrandSlam::NoCapture), &v);
    assert_eq!(m.iter().map(|x| x.0).collect::<Vec<_>>(), vec![0, 5]);
    assert_eq!(m[1], (5, 0, [3, 2, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0]));
    for gs in [GrandSlam::Forbidden, GrandSlam::Awari] {
        assert_eq!(moves(rules(gs), &v).iter().map(|x| x.0).collect::<Vec<_>>(), vec![0], "{gs:?}");
    }
    // Without the seed in s0 the grand slam is South's only move (stores 20–21).
    //   no-capture, forbidden: nothing taken; North to move with 3 2 2 in n0..n2, none of which
    //     reaches South's empty row, so O5 ends the game and North takes the 7: 20–28.
    //   awari: South takes the 7 and his own (empty) row; the board is empty and the game ends
    //     with nothing left to take: 27–21. South's 27 passes 25, so O7 ends it (checked before
    //     O6, which would give the same score).
    let start = Position { pits: [0, 0, 0, 0, 0, 3, 2, 1, 1, 0, 0, 0], stores: [20, 21], to_move: Side::South };
    for gs in [GrandSlam::NoCapture, GrandSlam::Forbidden] {
        let mut g = Game::new(rules(gs), start);
        g.play(5).unwrap();
        assert_eq!(g.position.pits, [0, 0, 0, 0, 0, 0, 3, 2, 2, 0, 0, 0], "{gs:?}");
        let r = g.result.expect("North cannot feed");
        assert_eq!((r.reason, r.score), (EndReason::Sweep(Ending::CannotFeed), [20.0, 28.0]), "{gs:?}");
    }
    let mut g = Game::new(rules(GrandSlam::Awari), start);
    g.play(5).unwrap();
    assert_eq!(g.position.pits, [0; 12]);
    let r = g.result.expect("South has 27");
    assert_eq!((r.reason, r.score), (EndReason::Majority, [27.0, 21.0]));
    assert_eq!(
        Rules { grand_slam: GrandSlam::Awari, cycle: Cycle::Split }.node(&[0; 12]),
        Node::Ended(Ending::MoverEmpty)
    );
}

#[test]
fn o5_book_examples_feed_if_you_can_else_take_the_rest() {
    // S [3,0,0,0,0,1], N empty: index 0 ends in s3 and does not feed; index 5 puts its seed in
    // n0. The only legal move is 5: after 3 0 0 0 0 0 | 1 0 0 0 0 0.
    let v: View = [3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0];
    assert_eq!(moves(Rules::default(), &v), vec![(5, 0, [1, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0])]);
    // S [2,0,1,0,0,0], N empty: index 0 reaches s2, index 2 reaches s3; nothing feeds, so the
    // game ends before South moves and South takes the 3 seeds (stores 22–23 → 25–23).
    let g = Game::new(
        Rules::default(),
        Position { pits: [2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0], stores: [22, 23], to_move: Side::South },
    );
    let r = g.result.expect("South cannot feed");
    assert_eq!((r.reason, r.score), (EndReason::Sweep(Ending::CannotFeed), [25.0, 23.0]));
    assert_eq!(r.winner(), Some(Side::South));
}

#[test]
fn o6_mover_without_seeds_the_opponent_takes_the_rest() {
    // North to move with an empty row; South's row holds 3 0 0 0 1 0 (stores 22–22): the game
    // ends before North moves and South takes the 4 seeds, 26–22.
    let p = Position { pits: [3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0], stores: [22, 22], to_move: Side::North };
    let g = Game::new(Rules::default(), p);
    let r = g.result.expect("North has no seeds");
    assert_eq!((r.reason, r.score), (EndReason::Sweep(Ending::MoverEmpty), [26.0, 22.0]));
    assert_eq!(r.winner(), Some(Side::South));
    assert!(g.legal().is_empty());
}

#[test]
fn o7_majority_is_checked_before_any_move_and_leaves_the_board_unallocated() {
    // Both have 24 and the board is empty: a draw before anyone moves.
    let g = Game::new(Rules::default(), Position { pits: [0; 12], stores: [24, 24], to_move: Side::South });
    let r = g.result.expect("24–24");
    assert_eq!((r.reason, r.score, r.winner()), (EndReason::Majority, [24.0, 24.0], None));
    // North has 25 at the start with 9 seeds on the board: the game is over and the score is
    // the two stores (14–25); the 9 seeds belong to nobody.
    let pits = [1, 1, 1, 0, 2, 2, 0, 2, 0, 0, 0, 0];
    let g = Game::new(Rules::default(), Position { pits, stores: [14, 25], to_move: Side::South });
    let r = g.result.expect("North has 25");
    assert_eq!((r.reason, r.score, r.winner()), (EndReason::Majority, [14.0, 25.0], Some(Side::North)));
    assert!(g.legal().is_empty());
}
