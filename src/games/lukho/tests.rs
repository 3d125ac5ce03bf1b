//! Hand-worked examples for each Lukho rule. Boards are written as two rows of own indices
//! 0..7: `s` = South's row (absolute 0..7), `n` = North's row (absolute 8..15). The pit
//! opposite own index i is the opponent's index 7-i.

use super::race::setup;
use super::tables::{add_run, byte_sum};
use super::*;
use crate::side::Side;

const IT: Rules = Rules { chain: Chain::It, keep_one: false };
const EN: Rules = Rules { chain: Chain::En, keep_one: false };
const NONE: Rules = Rules { chain: Chain::None, keep_one: false };

/// A board from the two rows (own indices), knives as `(absolute pit, owner)`.
fn board(s: [u8; 8], n: [u8; 8], knives: &[(usize, Side)], stores: [u8; 2]) -> Board {
    let mut pits = [0u8; 16];
    pits[..8].copy_from_slice(&s);
    pits[8..].copy_from_slice(&n);
    let mut k = [-1i8; 16];
    for &(p, side) in knives {
        k[p] = side.index() as i8;
    }
    Board::new(pits, k, stores)
}

fn rows(b: &Board) -> ([u8; 8], [u8; 8]) {
    let p = b.pits();
    (p[..8].try_into().unwrap(), p[8..].try_into().unwrap())
}

fn turn(b: Board, side: Side, rules: &Rules) -> (Position, TurnEnd) {
    let proven = ProvenCycles::new();
    let mut p = Position { board: b, to_move: side };
    let t = p.turn(rules, &proven);
    (p, t)
}

fn choice(remove: [u8; 8], drop: u8, pit: u8) -> Choice {
    Choice::new(remove, drop, pit, &Rules::default()).unwrap()
}

// ---------------------------------------------------------------- lap sowing, normal turns

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

/// s [1,0,0,0,0,0,0,0]  n [1,1,7,0,5,3,2,4], South to move: S0's seed falls into the empty
/// S1, whose opposite is N6 (2): capture 2 + the capturing seed.
fn chain_board() -> Board {
    board([1, 0, 0, 0, 0, 0, 0, 0], [1, 1, 7, 0, 5, 3, 2, 4], &[], [0, 0])
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
    assert_eq!(q.board.sweep_totals2(Side::North), [4, 0]);
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

// ---------------------------------------------------------------- match points

#[test]
fn match_points_cases() {
    // Totals are in half-seeds.
    assert_eq!(match_points([60, 36], false), 2); // 30–18: plain win
    assert_eq!(match_points([60, 36], true), 2);
    assert_eq!(match_points([0, 96], false), 4); // 0–48: loser has nothing
    assert_eq!(match_points([0, 96], true), 4);
    assert_eq!(match_points([50, 46], false), 4); // 25–23: bull
    assert_eq!(match_points([50, 46], true), 12); // first-game bull
    assert_eq!(match_points([46, 50], true), 12); // North's bull
    assert_eq!(match_points([49, 47], true), 2); // 24.5–23.5: margin 1, no bull
    assert_eq!(match_points([51, 45], true), 2); // 25.5–22.5: margin 3
    assert_eq!(match_points([48, 48], true), 0); // draw
    let o = GameOutcome::new(Side::South, [1, 95], Class::Cycle, 3);
    assert_eq!((o.winner, o.points_later_game), (Some(Side::North), 2)); // 0.5 is not 0
}

// ---------------------------------------------------------------- opening

#[test]
fn opening_relays_where_a_turn_makes_a_knife() {
    let proven = ProvenCycles::new();
    // s [0,…]  n [1,0,…]: South sows 1 seed from opponent index 0 (the pit "before" it is
    // his own S7). N0 held 1: in the opening that is a relay (no knives): lift 2 → N1, N2;
    // N2 was empty and is North's: no capture, the sowing ends.
    let b = board([0; 8], [1, 0, 0, 0, 0, 0, 0, 0], &[], [0, 0]);
    let mut o = b;
    assert_eq!(
        o.sow(&IT, &proven, Side::South, 7, 1, Phase::Opening),
        SowingEnd::Ended { last: 10, how: LapEnd::Empty(0), laps: 2 }
    );
    assert_eq!(rows(&o), ([0; 8], [0, 1, 1, 0, 0, 0, 0, 0]));
    assert_eq!(o.all_knives(), 0);
    // The same lap in a normal turn makes N0 a knife of South.
    let mut t = b;
    assert_eq!(
        t.sow(&IT, &proven, Side::South, 7, 1, Phase::Turn),
        SowingEnd::Ended { last: 8, how: LapEnd::NewKnife, laps: 1 }
    );
    assert_eq!(t.knife(8), Some(Side::South));
}

#[test]
fn opening_capture_after_relay() {
    let proven = ProvenCycles::new();
    // South removes [3,2,0,0,0,0,0,0] (h = 5), drops 3@1, sows 2. North removes nothing,
    // drops nothing: he has nothing to sow and so finished at time 0 and moves first.
    // Setup: s [0,1,3,3,3,3,3,3]  n [3,6,3,3,3,3,3,3].
    // South sows N0 (3→4), N1 (6→7, last; held 6) → relay 7: N2..N7 (3→4 each), S0 (0→1,
    // last): empty and South's, opposite N7 (4): capture 4 + 1 = 5. Chain (it): S1 holds 1,
    // stop.
    let south = choice([3, 2, 0, 0, 0, 0, 0, 0], 3, 1);
    let north = choice([0; 8], 0, 0);
    let b = setup(&south, &north);
    assert_eq!(rows(&b), ([0, 1, 3, 3, 3, 3, 3, 3], [3, 6, 3, 3, 3, 3, 3, 3]));
    for race in [Race::SouthFirst, Race::NorthFirst, Race::LockstepSouth, Race::LockstepNorth] {
        let o = opening(&IT, &proven, &south, &north, race);
        assert!(!o.perpetual);
        assert_eq!(rows(&o.board), ([0, 1, 3, 3, 3, 3, 3, 3], [4, 0, 4, 4, 4, 4, 4, 0]), "{race:?}");
        assert_eq!(o.board.stores, [5, 0]);
        assert_eq!(o.first_player, Side::North, "{race:?}");
    }
}

/// Setup s [2,3,3,3,3,3,3,3]  n [0,0,0,3,3,3,3,3]; South sows 1 (into N0), North sows 9
/// (S0..S7, then N0).
fn sequential_pair() -> (Choice, Choice) {
    (choice([1, 0, 0, 0, 0, 0, 0, 0], 0, 0), choice([3, 3, 3, 0, 0, 0, 0, 0], 0, 0))
}

#[test]
fn sequential_order_changes_the_board() {
    let proven = ProvenCycles::new();
    let (south, north) = sequential_pair();
    // south-first: South's seed: N0 0→1, empty, not his row: done. North: S0..S7 +1, then
    // N0 1→2 (held 1: relay in the opening) → N1, N2 (0→1, last, empty, North's row):
    // opposite S5 (4): North captures 4 + 1 = 5; chain (it) N3 holds 3: stop.
    let o = opening(&IT, &proven, &south, &north, Race::SouthFirst);
    assert_eq!(rows(&o.board), ([3, 4, 4, 4, 4, 0, 4, 4], [0, 1, 0, 3, 3, 3, 3, 3]));
    assert_eq!(o.board.stores, [0, 5]);
    assert_eq!(o.first_player, Side::South);
    // north-first: North: S0..S7 +1, N0 (0→1, last, empty, his row): opposite S7 (4):
    // capture 5; chain (it): N1 empty facing S6 (4): +4; N2 empty facing S5 (4): +4; N3
    // holds 3: stop. 13. Then South's seed: N0 0→1, done.
    let o = opening(&IT, &proven, &south, &north, Race::NorthFirst);
    assert_eq!(rows(&o.board), ([3, 4, 4, 4, 4, 0, 0, 0], [1, 0, 0, 3, 3, 3, 3, 3]));
    assert_eq!(o.board.stores, [0, 13]);
    assert_eq!(o.first_player, Side::North);
    // Lockstep: South's only step (tick 1) ends his sowing before North reaches N0 (tick
    // 9), so both lockstep outcomes equal south-first.
    let sf = opening(&IT, &proven, &south, &north, Race::SouthFirst);
    for race in [Race::LockstepSouth, Race::LockstepNorth] {
        assert_eq!(opening(&IT, &proven, &south, &north, race), sf, "{race:?}");
    }
    // And the games differ.
    assert_ne!(
        play_game(&IT, &proven, &south, &north, Race::SouthFirst),
        play_game(&IT, &proven, &south, &north, Race::NorthFirst)
    );
}

#[test]
fn lockstep_order_inside_a_tick_changes_the_board() {
    let proven = ProvenCycles::new();
    // chain=en. South removes [3,3,3,3,0,3,3,3] (21), drops 8@0, sows 13; North removes
    // [3,3,3,0,0,0,0,0] (9), drops 4@4, sows 5.
    // Setup: s [0,0,0,0,7,0,0,0]  n [8,0,0,3,3,3,3,3].
    // In lockstep both advance one pit per tick; South's tick-t seed goes to absolute 7+t,
    // North's to 15+t.
    // Ticks 1–4: South N0..N3 (9,1,1,4), North S0..S3 (1 each).
    // Tick 5: South N4 (4); North S4 7→8, last of his lap, held 7: relay, lifts 8.
    // Ticks 6–8: South N5..N7 (4 each); North S5..S7 (1 each).
    // Ticks 9–12: South S0..S3 (2 each); North N0..N3 (10,2,2,5).
    // Tick 13: South's last seed falls in S4 (empty since North lifted it), North's last in N4.
    let south = choice([3, 3, 3, 3, 0, 3, 3, 3], 8, 0);
    let north = choice([3, 3, 3, 0, 0, 0, 0, 0], 4, 4);
    assert_eq!(rows(&setup(&south, &north)), ([0, 0, 0, 0, 7, 0, 0, 0], [8, 0, 0, 3, 3, 3, 3, 3]));
    // lockstep-south: South first in tick 13: captures N3 (5) + 1, then (en) N4..N7 (4 each)
    // = 22. Then North's seed falls in the now empty N4, his row, facing S3 (2): he captures
    // 2 + 1 = 3 (chain en: S4 is empty, stop). Both finished in tick 13: South first.
    let o = opening(&EN, &proven, &south, &north, Race::LockstepSouth);
    assert_eq!(rows(&o.board), ([2, 2, 2, 0, 0, 1, 1, 1], [10, 2, 2, 0, 0, 0, 0, 0]));
    assert_eq!(o.board.stores, [22, 3]);
    assert_eq!(o.first_player, Side::South);
    // lockstep-north: North first in tick 13: his seed makes N4 5 (held 4): relay, lifts 5.
    // Then South captures N3 (5) + 1 = 6; en: N4 is now empty, stop. South finished (first).
    // North sows on: N5, N6, N7 (5 each), S0 (3), S1 (2→3, held 2): relay 3 → S2 (3), S3
    // (3), S4 (0→1, last, empty, not his row): done.
    let o = opening(&EN, &proven, &south, &north, Race::LockstepNorth);
    assert_eq!(rows(&o.board), ([3, 0, 3, 3, 1, 1, 1, 1], [10, 2, 2, 0, 0, 5, 5, 5]));
    assert_eq!(o.board.stores, [6, 0]);
    assert_eq!(o.first_player, Side::South);
}

#[test]
fn nothing_to_sow_finishes_at_time_zero() {
    let proven = ProvenCycles::new();
    // Both sow nothing: the named / in-tick-first player moves first.
    let z = choice([0; 8], 0, 0);
    assert_eq!(opening(&IT, &proven, &z, &z, Race::SouthFirst).first_player, Side::South);
    assert_eq!(opening(&IT, &proven, &z, &z, Race::NorthFirst).first_player, Side::North);
    assert_eq!(opening(&IT, &proven, &z, &z, Race::LockstepSouth).first_player, Side::South);
    assert_eq!(opening(&IT, &proven, &z, &z, Race::LockstepNorth).first_player, Side::North);
    // Only North sows nothing: he finished at time 0 and moves first, even in south-first
    // (South still sows one seed into N0, which held 3: relay…).
    let s = choice([1, 0, 0, 0, 0, 0, 0, 0], 0, 0);
    for race in [Race::SouthFirst, Race::NorthFirst, Race::LockstepSouth, Race::LockstepNorth] {
        assert_eq!(opening(&IT, &proven, &s, &z, race).first_player, Side::North, "{race:?}");
        assert_eq!(opening(&IT, &proven, &z, &s, race).first_player, Side::South, "{race:?}");
    }
}

#[test]
fn drops_commute_and_removals_are_own_indices() {
    // South removes r0 = 3 from S0 and drops 5 into North's index 2 (absolute 10); North
    // removes 1 from N7 (absolute 15) and drops 1 into South's index 0.
    let s = choice([3, 0, 0, 0, 0, 0, 0, 0], 3, 2);
    let n = choice([0, 0, 0, 0, 0, 0, 0, 1], 1, 0);
    assert_eq!(rows(&setup(&s, &n)), ([1, 3, 3, 3, 3, 3, 3, 3], [3, 3, 6, 3, 3, 3, 3, 2]));
}

// ---------------------------------------------------------------- choice ids

#[test]
fn choice_count() {
    assert_eq!(Choice::count(&Rules::default()), 6_356_992);
    assert_eq!(Choice::count(&Rules { chain: Chain::It, keep_one: true }), 5_832_712);
}

#[test]
fn choice_ids_first_and_last() {
    let r = Rules::default();
    assert_eq!(Choice::from_id(0, &r).unwrap(), choice([0; 8], 0, 0));
    // Removal 0,…,0 (h = 0) has the single id 0; removal 0,…,0,1 (h = 1) holds ids 1..=9:
    // id 1 = d = 0, ids 2..9 = d = 1 at pits 0..7; removal 0,…,0,2 starts at id 10.
    assert_eq!(Choice::from_id(1, &r).unwrap(), choice([0, 0, 0, 0, 0, 0, 0, 1], 0, 0));
    assert_eq!(Choice::from_id(2, &r).unwrap(), choice([0, 0, 0, 0, 0, 0, 0, 1], 1, 0));
    assert_eq!(Choice::from_id(9, &r).unwrap(), choice([0, 0, 0, 0, 0, 0, 0, 1], 1, 7));
    assert_eq!(Choice::from_id(10, &r).unwrap(), choice([0, 0, 0, 0, 0, 0, 0, 2], 0, 0));
    // The last id: remove everything, drop all 24 into the opponent's index 7.
    assert_eq!(Choice::from_id(6_356_991, &r).unwrap(), choice([3; 8], 24, 7));
    assert_eq!(choice([3; 8], 24, 7).id(&r), 6_356_991);
    assert!(matches!(Choice::from_id(6_356_992, &r), Err(ChoiceError::Id { .. })));
    let k = Rules { chain: Chain::It, keep_one: true };
    assert_eq!(Choice::from_id(5_832_711, &k).unwrap(), Choice::new([3; 8], 23, 7, &k).unwrap());
}

/// Every id in one pass: enumerate choices in the defining order (removals lexicographic,
/// then d = 0, then d = 1..=max with j = 0..7) and check both directions against a counter.
fn check_bijection(rules: &Rules) {
    let mut next = 0u64;
    for code in 0..4u32.pow(8) {
        let mut remove = [0u8; 8];
        for (i, r) in remove.iter_mut().enumerate() {
            *r = ((code >> (2 * (7 - i))) & 3) as u8;
        }
        let h: u8 = remove.iter().sum();
        let max = if rules.keep_one && h > 0 { h - 1 } else { h };
        let mut visit = |d: u8, j: u8| {
            let c = Choice { remove, drop: d, pit: j };
            assert_eq!(c.id(rules), next, "{c}");
            assert_eq!(Choice::from_id(next, rules).unwrap(), c, "id {next}");
            next += 1;
        };
        visit(0, 0);
        for d in 1..=max {
            for j in 0..8 {
                visit(d, j);
            }
        }
    }
    assert_eq!(next, Choice::count(rules));
}

#[test]
fn choice_id_bijection_default() {
    check_bijection(&Rules::default());
}

#[test]
fn choice_id_bijection_keep_one() {
    check_bijection(&Rules { chain: Chain::It, keep_one: true });
}

#[test]
fn choice_text_forms() {
    let r = Rules::default();
    let c = Choice::parse("3,2,0,0,0,0,0,1", "4@6", &r).unwrap();
    assert_eq!(c, choice([3, 2, 0, 0, 0, 0, 0, 1], 4, 6));
    assert_eq!((c.remove_string(), c.drop_string()), ("3,2,0,0,0,0,0,1".to_string(), "4@6".to_string()));
    assert_eq!(c.sow_count(), 2);
    assert_eq!(Choice::parse("0,0,0,0,0,0,0,0", "0@0", &r).unwrap(), Choice::default());
    // A zero drop's pit is irrelevant and normalised to 0.
    assert_eq!(Choice::parse("1,0,0,0,0,0,0,0", "0@5", &r).unwrap().pit, 0);
    // Errors name the field.
    for bad in ["3,2,0", "4,0,0,0,0,0,0,0", "a,0,0,0,0,0,0,0", "0,0,0,0,0,0,0,0,0"] {
        let e = Choice::parse(bad, "0@0", &r).unwrap_err();
        assert!(matches!(e, ChoiceError::Remove(_)), "{bad}");
        assert!(e.to_string().starts_with("remove:"), "{e}");
    }
    for bad in ["4", "4@8", "x@1", "1@-1"] {
        let e = Choice::parse("3,3,0,0,0,0,0,0", bad, &r).unwrap_err();
        assert!(e.to_string().starts_with("drop:"), "{bad}: {e}");
    }
    let e = Choice::parse("1,0,0,0,0,0,0,0", "2@0", &r).unwrap_err();
    assert_eq!(e, ChoiceError::DropTooLarge { drop: 2, hand: 1, keep_one: false });
    let k = Rules { chain: Chain::It, keep_one: true };
    assert!(Choice::parse("1,0,0,0,0,0,0,0", "1@0", &k).is_err());
    assert!(Choice::parse("1,0,0,0,0,0,0,0", "0@0", &k).is_ok());
    assert!(Choice::parse("0,0,0,0,0,0,0,0", "0@0", &k).is_ok());
}

// ---------------------------------------------------------------- perpetual and cycles

/// Steady state of a perpetual sowing with hand 3: laps end every 3 drops, so each pit is
/// lifted once every 3 revolutions (3 is odd, so the lap ends visit all 16 pits before
/// coming back), holding 0, 1 or 2 seeds by how many passes ago it was lifted. Just after
/// lifting absolute 0: [0,0,1,2, 0,1,2,0, 1,2,0,1, 2,0,1,2], hand 3. Each lap ends on a pit
/// holding 2 (3 now): relay in the opening, and in a normal turn too (rule 2 needs exactly
/// 1 before the drop). 18 seeds, no captures, no knives.
const STEADY3: [u8; 16] = [0, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2];

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
    assert_eq!(g.totals2[0] + g.totals2[1], 96);
    assert_eq!(g.first_player, Side::North);
}

// ---------------------------------------------------------------- helpers

#[test]
fn packed_board_helpers() {
    let b = Board::default();
    assert_eq!(b.pits(), [3; 16]);
    assert_eq!(b.board_seeds(), 48);
    assert_eq!(byte_sum(b.packed()), 48);
    // Two laps' worth plus 3 from absolute 14: every pit +2, then 15, 0, 1 +1.
    let x = add_run(0, 14, 35);
    let p = x.to_le_bytes();
    assert_eq!(p[15], 3);
    assert_eq!(p[0], 3);
    assert_eq!(p[1], 3);
    assert_eq!(p[2], 2);
    assert_eq!(p[14], 2);
    let rules = Rules { chain: Chain::En, keep_one: true };
    assert_eq!(rules.to_json(), serde_json::json!({"game": "lukho", "chain": "en", "keep_one": true}));
}

// ---------------------------------------------------------------- reference implementation

/// A literal, slow reading of docs/rules/lukho.md: one seed per step, plain arrays, hash sets of every
/// state seen. The fast engine (packed board, batched laps and ticks, relative states, cycle
/// finding) must agree with it on random openings.
mod reference {
    use super::super::{Chain, Choice, Class, Race, Rules};
    use crate::side::Side;
    use std::collections::HashSet;

    /// Steps after which the reference gives up on finding a repetition by brute force.
    pub const GIVE_UP: usize = 300_000;

    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub struct St {
        pub pits: [u8; 16],
        pub knife: [i8; 16],
        pub stores: [u32; 2],
    }

    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub struct Sower {
        pub pos: usize,
        pub hand: u32,
        pub done: bool,
    }

    fn capture(st: &mut St, chain: Chain, me: usize, x: usize) {
        if x / 8 != me {
            return;
        }
        let takeable = |st: &St, q: usize| st.pits[q] > 0 && st.knife[q] < 0;
        let opp_base = 8 * (1 - me);
        let i = x % 8;
        let o = opp_base + 7 - i;
        if !takeable(st, o) {
            return;
        }
        let mut got = st.pits[o] as u32 + 1;
        st.pits[o] = 0;
        st.pits[x] = 0;
        match chain {
            Chain::It => {
                for i2 in i + 1..8 {
                    let own = 8 * me + i2;
                    let o2 = opp_base + 7 - i2;
                    if st.pits[own] == 0 && st.knife[own] < 0 && takeable(st, o2) {
                        got += st.pits[o2] as u32;
                        st.pits[o2] = 0;
                    } else {
                        break;
                    }
                }
            }
            Chain::En => {
                for j in 7 - i + 1..8 {
                    if takeable(st, opp_base + j) {
                        got += st.pits[opp_base + j] as u32;
                        st.pits[opp_base + j] = 0;
                    } else {
                        break;
                    }
                }
            }
            Chain::None => {}
        }
        st.stores[me] += got;
    }

    /// One atomic step: drop one seed; at the end of a lap, rules 1–4.
    pub fn step(st: &mut St, s: &mut Sower, me: usize, chain: Chain, turn: bool) {
        s.pos = (s.pos + 1) % 16;
        st.pits[s.pos] += 1;
        s.hand -= 1;
        if s.hand > 0 {
            return;
        }
        let x = s.pos;
        if st.knife[x] >= 0 {
            s.done = true;
            return;
        }
        let held = st.pits[x] - 1;
        if turn && held == 1 {
            st.knife[x] = me as i8;
            s.done = true;
        } else if held >= 1 {
            s.hand = st.pits[x] as u32;
            st.pits[x] = 0;
        } else {
            capture(st, chain, me, x);
            s.done = true;
        }
    }

    /// `Err(())` when it gave up (a sowing ran past `GIVE_UP` steps without repeating).
    pub fn opening(rules: &Rules, south: &Choice, north: &Choice, race: Race) -> Result<(St, Side, bool), ()> {
        let mut st = St { pits: [3; 16], knife: [-1; 16], stores: [0; 2] };
        for (me, c) in [(0usize, south), (1, north)] {
            for i in 0..8 {
                st.pits[8 * me + i] -= c.remove[i];
            }
            st.pits[8 * (1 - me) + c.pit as usize] += c.drop;
        }
        let mut s = [
            Sower { pos: 7, hand: south.sow_count() as u32, done: south.sow_count() == 0 },
            Sower { pos: 15, hand: north.sow_count() as u32, done: north.sow_count() == 0 },
        ];
        let lead = race.leader().index();
        let order = [lead, 1 - lead];
        let mut first = order.into_iter().find(|&m| s[m].done);
        let mut seen = HashSet::new();
        let sequential = matches!(race, Race::SouthFirst | Race::NorthFirst);
        while !(s[0].done && s[1].done) {
            if seen.len() > GIVE_UP {
                return Err(());
            }
            if !seen.insert((st, s)) {
                return Ok((st, side(first.unwrap_or(lead)), true));
            }
            for m in order {
                if s[m].done {
                    continue;
                }
                step(&mut st, &mut s[m], m, rules.chain, false);
                if s[m].done {
                    first.get_or_insert(m);
                }
                if sequential {
                    break; // one step of the first unfinished sower only
                }
            }
        }
        Ok((st, side(first.unwrap()), false))
    }

    /// The opening at speed ratio ρ = p/q (q = 0: ∞), one step at a time: South's step k+1
    /// (time (k+1)/ρ) goes before North's m+1 (time m+1) iff (k+1)·q <= (m+1)·p.
    pub fn opening_at(rules: &Rules, south: &Choice, north: &Choice, p: u64, q: u64) -> Result<(St, Side, bool), ()> {
        let mut st = St { pits: [3; 16], knife: [-1; 16], stores: [0; 2] };
        for (me, c) in [(0usize, south), (1, north)] {
            for i in 0..8 {
                st.pits[8 * me + i] -= c.remove[i];
            }
            st.pits[8 * (1 - me) + c.pit as usize] += c.drop;
        }
        let mut s = [
            Sower { pos: 7, hand: south.sow_count() as u32, done: south.sow_count() == 0 },
            Sower { pos: 15, hand: north.sow_count() as u32, done: north.sow_count() == 0 },
        ];
        let mut first = [0, 1].into_iter().find(|&m| s[m].done);
        let mut steps = [0u64; 2];
        let mut seen = HashSet::new();
        while !(s[0].done && s[1].done) {
            if seen.len() > GIVE_UP {
                return Err(());
            }
            if !seen.insert((st, s)) {
                // Nobody finished: the faster player (ρ >= 1: South) counts as the leader.
                let faster = if p >= q { 0 } else { 1 };
                return Ok((st, side(first.unwrap_or(faster)), true));
            }
            let m = if s[0].done {
                1
            } else if s[1].done || (steps[0] + 1) * q <= (steps[1] + 1) * p {
                0
            } else {
                1
            };
            steps[m] += 1;
            step(&mut st, &mut s[m], m, rules.chain, false);
            if s[m].done {
                first.get_or_insert(m);
            }
        }
        Ok((st, side(first.unwrap()), false))
    }

    fn side(i: usize) -> Side {
        if i == 0 {
            Side::South
        } else {
            Side::North
        }
    }

    fn split2(st: &St, hands: u32) -> [u16; 2] {
        let mut t = [2 * st.stores[0], 2 * st.stores[1]];
        let mut rest = hands;
        for p in 0..16 {
            match st.knife[p] {
                k if k >= 0 => t[k as usize] += 2 * st.pits[p] as u32,
                _ => rest += st.pits[p] as u32,
            }
        }
        [(t[0] + rest) as u16, (t[1] + rest) as u16]
    }

    /// (class, totals ×2, turns, first player)
    pub fn game(rules: &Rules, south: &Choice, north: &Choice, race: Race) -> Result<(Class, [u16; 2], u32, Side), ()> {
        let (mut st, first, perpetual) = opening(rules, south, north, race)?;
        if perpetual {
            let on_board: u32 = st.pits.iter().map(|&x| x as u32).sum();
            let hands = 48 - on_board - st.stores[0] - st.stores[1];
            return Ok((Class::PerpetualOpening, split2(&st, hands), 0, first));
        }
        let mut me = first.index();
        let mut seen = HashSet::new();
        let mut turns = 0;
        loop {
            if !seen.insert((st.pits, st.knife, me)) {
                return Ok((Class::Cycle, split2(&st, 0), turns, first));
            }
            let Some(i) = (0..8).find(|&i| st.pits[8 * me + i] > 0 && st.knife[8 * me + i] < 0) else {
                let mut t = [2 * st.stores[0], 2 * st.stores[1]];
                for p in 0..16 {
                    let to = if st.knife[p] >= 0 { st.knife[p] as usize } else { 1 - me };
                    t[to] += 2 * st.pits[p] as u32;
                }
                return Ok((Class::Normal, [t[0] as u16, t[1] as u16], turns, first));
            };
            let before = st;
            let p = 8 * me + i;
            let mut s = Sower { pos: p, hand: st.pits[p] as u32, done: false };
            st.pits[p] = 0;
            let mut laps = HashSet::new();
            while !s.done {
                if s.hand == 1 || laps.len() > GIVE_UP {
                    // a lap is about to end (or the brute force gave up)
                    if laps.len() > GIVE_UP {
                        return Err(());
                    }
                    if !laps.insert((st, s)) {
                        return Ok((Class::PerpetualTurn, split2(&before, 0), turns, first));
                    }
                }
                step(&mut st, &mut s, me, rules.chain, true);
            }
            turns += 1;
            me = 1 - me;
        }
    }
}

#[test]
fn engine_agrees_with_reference_on_random_openings() {
    let proven = ProvenCycles::new();
    let mut x = 0x243f_6a88_85a3_08d3u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut compared, mut gave_up, mut perpetual) = (0, 0, 0);
    for rules in [IT, EN, NONE, Rules { chain: Chain::It, keep_one: true }] {
        let count = Choice::count(&rules);
        for _ in 0..1500 {
            let s = Choice::from_id(next() % count, &rules).unwrap();
            let n = Choice::from_id(next() % count, &rules).unwrap();
            for race in [Race::SouthFirst, Race::NorthFirst, Race::LockstepSouth, Race::LockstepNorth] {
                let g = play_game(&rules, &proven, &s, &n, race);
                match reference::game(&rules, &s, &n, race) {
                    Ok((class, totals2, turns, first)) => {
                        let want = (class, totals2, turns, first);
                        assert_eq!((g.class, g.totals2, g.turns, g.first_player), want, "{s} / {n} {race:?} {rules:?}");
                        compared += 1;
                        perpetual += (class != Class::Normal) as u32;
                    }
                    Err(()) => {
                        // The brute force cannot afford the 10^6–10^7-lap periods of real
                        // perpetuals; the engine must have found one.
                        assert_eq!(g.class, Class::PerpetualOpening, "{s} / {n} {race:?}");
                        gave_up += 1;
                    }
                }
            }
        }
    }
    eprintln!("reference: {compared} compared, {gave_up} gave up, {perpetual} perpetual");
    assert!(compared > 20_000 && gave_up < 50, "{compared} compared, {gave_up} gave up, {perpetual} perpetual");
}

// ---------------------------------------------------------------- speeds model

#[test]
fn speeds_hand_example() {
    let proven = ProvenCycles::new();
    // The sequential pair: South makes 1 step (time 1/ρ), North 9 steps to N0 and, if
    // South's seed is already there, 2 more (relay). South's step comes before North's
    // step m iff ρ >= 1/m, so the outcomes are [0,1/9) (North ends at N0 with his capture
    // first: the north-first board), then [1/9,1/8), …, [1/2,1), [1,∞]: South's seed
    // lands first, the south-first board, South (time <= 9 < 11) moves first.
    let (south, north) = sequential_pair();
    let races = speed_races(&IT, &proven, &south, &north);
    assert_eq!(races.len(), 10);
    let nf = opening(&IT, &proven, &south, &north, Race::NorthFirst);
    let sf = opening(&IT, &proven, &south, &north, Race::SouthFirst);
    assert_eq!(races[0].lo, Ratio { num: 0, den: 1 });
    assert_eq!(races[0].hi, Some(Ratio { num: 1, den: 9 }));
    assert_eq!(races[0].opening, nf);
    for (i, r) in races[1..].iter().enumerate() {
        assert_eq!(r.lo, Ratio { num: 1, den: 9 - i as u64 });
        assert_eq!(r.opening, sf);
    }
    assert_eq!(races[9].hi, None);
}

#[test]
fn speeds_agree_with_brute_force_over_sampled_ratios() {
    let proven = ProvenCycles::new();
    let mut x = 0x1357_9bdf_2468_ace0u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut samples: Vec<(u64, u64)> = vec![(0, 1), (1, 0)];
    for p in 0..=12 {
        for q in 1..=12 {
            samples.push((p, q));
        }
    }
    let (mut checked, mut outcomes, mut max_outcomes) = (0, 0, 0);
    for rules in [IT, EN] {
        let count = Choice::count(&rules);
        for _ in 0..150 {
            let s = Choice::from_id(next() % count, &rules).unwrap();
            let n = Choice::from_id(next() % count, &rules).unwrap();
            let races = speed_races(&rules, &proven, &s, &n);
            outcomes += races.len();
            max_outcomes = max_outcomes.max(races.len());
            // The intervals tile [0, ∞] in increasing order.
            assert_eq!(races[0].lo, Ratio::ZERO);
            assert_eq!(races.last().unwrap().hi, None);
            for w in races.windows(2) {
                assert_eq!(w[0].hi, Some(w[1].lo));
            }
            // ρ = 0, 1, ∞ are north-first, lockstep-south, south-first.
            let at = |p: u64, q: u64| races.iter().find(|r| r.contains(p, q)).unwrap().opening;
            let mut nf = opening(&rules, &proven, &s, &n, Race::NorthFirst);
            if s.sow_count() == 0 && n.sow_count() == 0 {
                // Both finished at time 0: equal times, South first (north-first names North).
                nf.first_player = Side::South;
            }
            assert_eq!(at(0, 1), nf, "{s} / {n}");
            assert_eq!(at(1, 0), opening(&rules, &proven, &s, &n, Race::SouthFirst), "{s} / {n}");
            assert_eq!(at(1, 1), opening(&rules, &proven, &s, &n, Race::LockstepSouth), "{s} / {n}");
            // Brute force at fixed ratios: fixed samples, every breakpoint, every midpoint,
            // and random ratios.
            let mut rhos = samples.clone();
            for r in &races {
                rhos.push((r.lo.num, r.lo.den));
                if let Some(h) = r.hi {
                    rhos.push((r.lo.num * h.den + h.num * r.lo.den, 2 * r.lo.den * h.den));
                }
            }
            for _ in 0..20 {
                rhos.push((next() % 1000, 1 + next() % 1000));
            }
            for (p, q) in rhos {
                let Ok((st, first, perpetual)) = reference::opening_at(&rules, &s, &n, p, q) else {
                    continue;
                };
                let o = at(p, q);
                assert_eq!((o.perpetual, o.first_player), (perpetual, first), "{s} / {n} at {p}/{q}");
                if !perpetual {
                    assert_eq!((o.board.pits(), o.board.stores), (st.pits, [st.stores[0] as u8, st.stores[1] as u8]));
                }
                checked += 1;
            }
        }
    }
    eprintln!("speeds: {checked} ratios checked, {outcomes} outcomes for 300 pairs, at most {max_outcomes}");
}

#[test]
fn long_sowings_agree_with_reference() {
    let proven = ProvenCycles::new();
    // Random knife-free boards, one sowing each (opening and turn rules), against the
    // one-seed-per-step reference; many run past the 32 laps after which the engine switches
    // to its cycle-checking loop in the sower's frame.
    let mut x = 0x0bad_cafe_dead_beefu64;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let (mut long, mut perpetual) = (0, 0);
    for i in 0..200_000 {
        let phase = if i % 2 == 0 { Phase::Opening } else { Phase::Turn };
        let hand = 1 + next(20) as u32;
        let mut pits = [0u8; 16];
        for _ in 0..48 - hand {
            pits[next(16) as usize] += 1;
        }
        let from = next(16) as usize;
        let sower = if next(2) == 0 { Side::South } else { Side::North };
        let mut b = Board::new(pits, [-1; 16], [0, 0]);
        let got = b.sow(&IT, &proven, sower, from, hand as u8, phase);
        let mut st = reference::St { pits, knife: [-1; 16], stores: [0; 2] };
        let mut s = reference::Sower { pos: from, hand, done: false };
        let mut drops = 0usize;
        while !s.done && drops < 2_000_000 {
            reference::step(&mut st, &mut s, sower.index(), Chain::It, phase == Phase::Turn);
            drops += 1;
        }
        match got {
            SowingEnd::Ended { last, laps, .. } => {
                assert!(s.done, "{pits:?} from {from} hand {hand} {phase:?}");
                assert_eq!(
                    (b.pits(), b.stores, last as usize),
                    (st.pits, [st.stores[0] as u8, st.stores[1] as u8], s.pos)
                );
                let knives = b.knives_json();
                assert_eq!(knives, st.knife);
                long += (laps > 32) as u32;
            }
            SowingEnd::Perpetual { .. } => {
                assert!(!s.done, "{pits:?} from {from} hand {hand} {phase:?}");
                perpetual += 1;
            }
        }
    }
    assert!(long > 100 && perpetual > 0, "{long} long sowings, {perpetual} perpetual");
}

#[test]
fn checked_boards_name_the_field() {
    let mut k = [-1i8; 16];
    assert!(Board::checked([3; 16], k, [0, 0]).is_ok());
    let e = Board::checked([3; 16], k, [1, 0]).unwrap_err();
    assert_eq!(e, BoardError::TooManySeeds { board: 48, stores: 1 });
    assert!(e.to_string().starts_with("pits:"));
    k[5] = 0;
    let mut pits = [0u8; 16];
    assert_eq!(Board::checked(pits, k, [0, 0]), Err(BoardError::KnifeTooSmall { pit: 5, seeds: 0 }));
    pits[5] = 2;
    assert_eq!(Board::checked(pits, k, [0, 0]).unwrap().knife(5), Some(Side::South));
    k[6] = 2;
    let e = Board::checked(pits, k, [0, 0]).unwrap_err();
    assert!(e.to_string().starts_with("knives:"), "{e}");
}

/// Positions near those of a real game (South 0,1,0,3,0,1,2,3 2@2 against itself, its first
/// 8 turns): seeds moved between pits and stores, knives added. Many of them cycle, many run
/// past 32 turns.
fn perturbed_positions(count: usize) -> Vec<Position> {
    let proven = ProvenCycles::new();
    let c = Choice::parse("0,1,0,3,0,1,2,3", "2@2", &IT).unwrap();
    let o = opening(&IT, &proven, &c, &c, Race::SouthFirst);
    let mut bases = vec![Position { board: o.board, to_move: o.first_player }];
    for _ in 0..8 {
        let mut p = *bases.last().unwrap();
        p.turn(&IT, &proven);
        bases.push(p);
    }
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    (0..count)
        .map(|k| {
            let base = bases[k % bases.len()];
            let mut pits = base.board.pits();
            let mut knives = base.board.knives_json();
            let mut stores = base.board.stores;
            for _ in 0..1 + rnd(6) {
                let (from, to) = (rnd(16) as usize, rnd(16) as usize);
                match rnd(4) {
                    0 if pits[from] > 0 && knives[from] < 0 => {
                        pits[from] -= 1;
                        pits[to] += 1;
                    }
                    1 if pits[from] > 0 && knives[from] < 0 => {
                        pits[from] -= 1;
                        stores[rnd(2) as usize] += 1;
                    }
                    2 if pits[to] >= 2 => knives[to] = rnd(2) as i8,
                    3 if stores[from % 2] > 0 => {
                        stores[from % 2] -= 1;
                        pits[to] += 1;
                    }
                    _ => {}
                }
            }
            Position { board: Board::new(pits, knives, stores), to_move: base.to_move }
        })
        .collect()
}

/// Cycle detection inside a game against a brute force (every position of the game in a set).
/// Starts: the positions of a real cycling game (symmetric choice 350502, `south-first`: a
/// cycle of 6 turns entered after 1), each perturbed by moving a few seeds between random
/// pits and making knives: class, totals and `turns` (the first repetition) must match
/// exactly. Cycles are rare in Lukho: none in 3,000,000 random knife-free boards, none
/// entered after a capture in these perturbations, so the engine's replay to a later
/// segment start is only reached through its argument (see `play_from`).
#[test]
fn game_cycles_match_a_brute_force() {
    let proven = ProvenCycles::new();
    use std::collections::HashSet;
    let mut cycles = 0;
    for start in perturbed_positions(30_000) {
        let mut seen = HashSet::new();
        let mut p = start;
        let mut turns = 0u32;
        let want = loop {
            if !seen.insert((p.board.packed(), p.board.knives, p.to_move)) {
                break (Class::Cycle, p.board.split_totals2(0), turns);
            }
            let before = p.board;
            match p.turn(&IT, &proven) {
                TurnEnd::Played { .. } => turns += 1,
                TurnEnd::NoMove => break (Class::Normal, p.board.sweep_totals2(p.to_move), turns),
                TurnEnd::Perpetual => break (Class::PerpetualTurn, before.split_totals2(0), turns),
            }
        };
        let got = play_from(&IT, &proven, start);
        assert_eq!((got.class, got.totals2, got.turns), want, "{start:?}");
        cycles += (want.0 == Class::Cycle) as u32;
    }
    assert!(cycles >= 3000, "{cycles} cycles");
}

/// Both batch engines ([`Engine::lanes`] where the CPU has them, and [`Engine::SCALAR`])
/// against one game at a time ([`play_from`]), for every chain rule, on positions that exercise each of its
/// paths: the games of real openings (South 3456789, 1234567 and 0 against North 0..1500,
/// both `sequential` outcomes); perturbed positions with knives on both rows, of which many
/// cycle or pass 32 turns (handed back to the scalar engine); a perpetual turn; a game over
/// at once; and batches of every length from 0 to 9 (lanes left empty).
#[test]
fn batch_matches_one_game_at_a_time() {
    let proven = ProvenCycles::new();
    let engines: Vec<Engine> = match Engine::lanes() {
        Some(lanes) => vec![lanes, Engine::SCALAR],
        None => {
            eprintln!("lanes not available on this CPU: only the scalar batch path was compared");
            vec![Engine::SCALAR]
        }
    };
    let mut pits = STEADY3;
    pits[0] = 3;
    let perpetual = Position { board: Board::new(pits, [-1; 16], [14, 16]), to_move: Side::South };
    let k = [(0, Side::South), (7, Side::North), (14, Side::South)];
    let over = Position {
        board: board([2, 0, 0, 0, 0, 0, 0, 3], [1, 0, 0, 4, 0, 0, 2, 0], &k, [15, 21]),
        to_move: Side::South,
    };
    for chain in [Chain::It, Chain::En, Chain::None] {
        let rules = Rules { chain, keep_one: false };
        let mut starts = vec![perpetual, over];
        for south in [3456789, 1234567, 0] {
            let s = Choice::from_id(south, &rules).unwrap();
            for north in 0..1500 {
                let n = Choice::from_id(north, &rules).unwrap();
                for race in [Race::SouthFirst, Race::NorthFirst] {
                    let o = opening(&rules, &proven, &s, &n, race);
                    if !o.perpetual {
                        starts.push(Position { board: o.board, to_move: o.first_player });
                    }
                }
            }
        }
        starts.extend(perturbed_positions(20_000));
        let want: Vec<GameOutcome> = starts.iter().map(|&p| play_from(&rules, &proven, p)).collect();
        let classes: std::collections::HashSet<Class> = want.iter().map(|o| o.class).collect();
        assert_eq!(classes.len(), 3, "normal, cycle and perpetual-turn games all met: {classes:?}");
        assert!(want.iter().any(|o| o.class == Class::Normal && o.turns >= 32), "long normal games met");
        for &engine in &engines {
            let mut got = want.clone();
            got.fill(GameOutcome::new(Side::North, [1, 1], Class::Cycle, 999));
            engine.play(&rules, &proven, &starts, &mut got);
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g, w, "{engine:?} {chain:?} game {i}: {:?}", starts[i]);
            }
            for len in 0..10 {
                let mut got = vec![GameOutcome::new(Side::North, [1, 1], Class::Cycle, 999); len];
                engine.play(&rules, &proven, &starts[..len], &mut got);
                assert_eq!(got, want[..len], "{engine:?} {chain:?}");
            }
        }
    }
}

/// `MANCALA_NO_SIMD` forces the scalar path, and the dispatch follows the choice: the forced
/// and the default engine give the same outcomes (on a CPU without the lanes both are scalar).
#[test]
fn engine_switch_is_honoured() {
    let proven = ProvenCycles::new();
    use std::ffi::OsStr;
    let default = Engine::choose(None);
    assert_eq!(default, Engine::lanes().unwrap_or(Engine::SCALAR));
    assert_eq!(Engine::choose(Some(OsStr::new(""))), default);
    assert_eq!(Engine::choose(Some(OsStr::new("0"))), default);
    assert_eq!(Engine::choose(Some(OsStr::new("1"))), Engine::SCALAR);
    assert!(!Engine::choose(Some(OsStr::new("1"))).uses_lanes());
    assert_eq!(Engine::configured(), Engine::choose(std::env::var_os(lanes::NO_SIMD_VAR).as_deref()));
    let s = Choice::from_id(3_456_789, &IT).unwrap();
    let starts: Vec<Position> = (0..3000)
        .map(|n| opening(&IT, &proven, &s, &Choice::from_id(n, &IT).unwrap(), Race::SouthFirst))
        .filter(|o| !o.perpetual)
        .map(|o| Position { board: o.board, to_move: o.first_player })
        .collect();
    let blank = GameOutcome::new(Side::North, [1, 1], Class::Cycle, 999);
    let (mut forced, mut free) = (vec![blank; starts.len()], vec![blank; starts.len()]);
    Engine::choose(Some(OsStr::new("1"))).play(&IT, &proven, &starts, &mut forced);
    Engine::choose(None).play(&IT, &proven, &starts, &mut free);
    assert_eq!(forced, free);
    let mut dispatched = vec![blank; starts.len()];
    play_batch(&IT, &proven, &starts, &mut dispatched);
    assert_eq!(dispatched, free);
}

/// When one player sows nothing (`s = 0`: he keeps all, or drops his whole hand) he finished
/// at time 0 under every race model, so the other's sowing runs alone and he moves first:
/// all four race outcomes leave the same opening. This is why the tables against North
/// keeping all (id 0) and against the common reply `1,3,3,3,3,3,1,2 19@3` (19 lifted, 19
/// dropped) are identical for `sequential` and `lockstep`.
#[test]
fn a_player_who_sows_nothing_makes_the_race_irrelevant() {
    let proven = ProvenCycles::new();
    let keep_all = Choice::from_id(0, &IT).unwrap();
    let drop_all = Choice::parse("1,3,3,3,3,3,1,2", "19@3", &IT).unwrap();
    assert_eq!((keep_all.sow_count(), drop_all.sow_count()), (0, 0));
    let races = [Race::SouthFirst, Race::NorthFirst, Race::LockstepSouth, Race::LockstepNorth];
    for id in (0..6_356_992).step_by(7_919) {
        let s = Choice::from_id(id, &IT).unwrap();
        if s.sow_count() == 0 {
            // Both sow nothing: the named / in-tick-first player moves first.
            continue;
        }
        for n in [keep_all, drop_all] {
            let o = opening(&IT, &proven, &s, &n, Race::SouthFirst);
            assert_eq!(o.first_player, Side::North, "south {id}");
            for r in races {
                assert_eq!(opening(&IT, &proven, &s, &n, r), o, "south {id} {r:?}");
            }
        }
    }
    // While both sow, the race matters (the symmetric tables differ between the models).
    let (s, n) = sequential_pair();
    assert_ne!(opening(&IT, &proven, &s, &n, Race::SouthFirst), opening(&IT, &proven, &s, &n, Race::NorthFirst));
}
