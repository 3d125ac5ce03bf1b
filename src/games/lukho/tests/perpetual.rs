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

/// A lap of the packed relative state (turned whole, the hand taken out by the table) against
/// the lap written out pit by pit: lift byte 0, drop one seed in each next pit, turn the frame
/// to the last one. Every hand 1..=48 over boards of up to 48 seeds.
#[test]
fn relative_lap_is_a_lap_in_the_sowers_frame() {
    use super::super::perpetual::relative_lap;
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for h in 1..=48u8 {
        for _ in 0..50 {
            let mut pits = [0u8; PITS];
            pits[0] = h;
            let mut left = 48 - h as u32;
            for p in pits.iter_mut().skip(1) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let v = (x % 5) as u32;
                let v = v.min(left);
                *p = v as u8;
                left -= v;
            }
            let mut b = pits;
            b[0] = 0;
            for k in 1..=h as usize {
                b[k % PITS] += 1;
            }
            let r = h as usize % PITS;
            let want: [u8; PITS] = std::array::from_fn(|i| b[(i + r) % PITS]);
            assert_eq!(relative_lap(u128::from_le_bytes(pits)).to_le_bytes(), want, "{pits:?}");
        }
    }
}

/// The relative lap is a bijection of the states with a given number of seeds, so every
/// perpetual sowing's state lies on its cycle (no tail) and the anchor closes it after exactly
/// one period. The predecessor of a state is read off it: the lifted pit is the last of pits
/// 1..15 holding their least count `q` (the pits after it got `q+1` seeds, those before it
/// `q`, the lifted pit only the `q` of full rounds), unless the hand is at most `q`: then the
/// lap went round exactly `q` times from a hand of `16q`.
#[test]
fn relative_lap_has_one_predecessor() {
    use super::super::perpetual::relative_lap;
    let before = |s: u128| -> u128 {
        let b = s.to_le_bytes();
        let q = *b[1..].iter().min().unwrap();
        let last = (1..PITS).rev().find(|&i| b[i] == q).unwrap();
        let h = if b[0] <= q { 16 * q as usize } else { 16 * q as usize + PITS - last };
        let mut a = b;
        for (i, v) in a.iter_mut().enumerate() {
            // Seeds the lap dropped into new pit `i` (the old hand's pit is new pit `last`).
            let dropped = if h % PITS == 0 || (i > 0 && i <= last) { q } else { q + 1 };
            *v -= dropped;
        }
        a[(PITS - h % PITS) % PITS] = h as u8;
        a.rotate_right(h % PITS);
        u128::from_le_bytes(a)
    };
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut n = 0;
    for seeds in 2..=48u32 {
        for _ in 0..2000 {
            let mut pits = [0u8; PITS];
            for _ in 0..seeds {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pits[(x % PITS as u64) as usize] += 1;
            }
            if pits[0] == 0 {
                continue;
            }
            let s = u128::from_le_bytes(pits);
            assert_eq!(before(relative_lap(s)), s, "{pits:?}");
            n += 1;
        }
    }
    assert!(n > 60_000, "{n} states");
}

/// The walks that take over from the anchored one (plain Brent on every lap) reach the same
/// verdict: the long perpetual above, its anchored walk cut short, then Brent from where it
/// stopped; and a sowing that ends, where the frame has turned by the hands sown.
#[test]
fn brent_takes_over_from_a_walk_cut_short() {
    use super::super::perpetual::{walk_anchored, walk_brent};
    let pits = [0u8, 2, 1, 2, 3, 2, 1, 2, 5, 5, 0, 1, 4, 1, 2, 1];
    // Its first lap (16 seeds after absolute 8) drops one in every pit; pit 8 then holds 6
    // and relays: in the sower's frame byte 0 is pit 8, holding the hand.
    let mut rel = pits.map(|x| x + 1);
    rel.rotate_left(8);
    let s = u128::from_le_bytes(rel);
    let cut = walk_anchored::<2>(&ProvenCycles::new(), Phase::Opening, s, 1000);
    assert!(!cut.perpetual && cut.laps == 1000 && cut.s as u8 >= 2, "cut short, still sowing");
    let proven = ProvenCycles::new();
    let rest = walk_brent(&proven, Phase::Opening, cut.s);
    assert!(rest.perpetual, "Brent proves the cycle");
    assert_eq!(proven.stats().proven, 1);
    // Brent's cycle is shared too: the anchored walk from the start now meets a point of it.
    let again = walk_anchored::<2>(&proven, Phase::Opening, s, u64::MAX);
    assert!(again.perpetual && again.laps < 200_000, "{}", again.laps);
    assert_eq!(proven.stats().hits, 1);
    // A sowing that ends (the opening example of docs/rules/lukho.md L7, from its fifth lap):
    // the same stop, laps and turn of the frame whichever walk gets there.
    let mut b = Board::new([3, 3, 3, 3, 3, 3, 3, 2, 3, 3, 3, 3, 3, 3, 3, 3], [-1; 16], [0, 0]);
    let SowingEnd::Ended { last, laps, .. } = b.sow(&IT, &ProvenCycles::new(), Side::South, 7, 1, Phase::Opening)
    else {
        panic!("the L7 sowing ends")
    };
    let mut rel = [3u8, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2];
    rel[0] = 4; // the first lap: 1 seed into absolute 8, which relays 4
    let s = u128::from_le_bytes(rel);
    let a = walk_anchored::<2>(&ProvenCycles::new(), Phase::Opening, s, u64::MAX);
    let w = walk_brent(&ProvenCycles::new(), Phase::Opening, s);
    assert!(!a.perpetual && !w.perpetual);
    assert_eq!((a.s, a.sown, a.laps), (w.s, w.sown, w.laps));
    assert_eq!(((8 + a.sown as usize) % PITS, a.laps + 1), (last as usize, laps));
}
