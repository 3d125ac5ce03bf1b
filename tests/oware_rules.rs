//! Hand-worked Oware positions, one per rule (docs/rules/oware.md O1–O8). Boards are written from the
//! mover's view: his row (own indices 0..5) then the opponent's (0..5), in sowing order.

use mancala::games::oware::{sow, Cycle, EndReason, Ending, Game, GrandSlam, Node, Position, Rules, View};
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
