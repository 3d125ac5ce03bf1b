//! Lukho rule tests. Boards are written as two rows of own indices 0..7: `s` = South's row
//! (absolute 0..7), `n` = North's row (absolute 8..15). The pit opposite own index i is the
//! opponent's index 7-i.
//!
//! - `turns`, `opening`, `choices`, `perpetual`, `board`: worked examples, each with its
//!   board before, move, board after and why in a comment;
//! - `reference`: the slow, obviously correct engine; `differential`: the fast engines
//!   against it and against each other;
//! - `counts`: perft-style counts, read from `tests/data/lukho/`.

use super::race::setup;
use super::tables::{add_run, byte_sum};
use super::*;
use crate::side::Side;

mod board;
mod choices;
mod counts;
mod differential;
mod opening;
mod perpetual;
mod reference;
mod turns;

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

/// s [1,0,0,0,0,0,0,0]  n [1,1,7,0,5,3,2,4], South to move: S0's seed falls into the empty
/// S1, whose opposite is N6 (2): capture 2 + the capturing seed.
fn chain_board() -> Board {
    board([1, 0, 0, 0, 0, 0, 0, 0], [1, 1, 7, 0, 5, 3, 2, 4], &[], [0, 0])
}

/// Setup s [2,3,3,3,3,3,3,3]  n [0,0,0,3,3,3,3,3]; South sows 1 (into N0), North sows 9
/// (S0..S7, then N0).
fn sequential_pair() -> (Choice, Choice) {
    (choice([1, 0, 0, 0, 0, 0, 0, 0], 0, 0), choice([3, 3, 3, 0, 0, 0, 0, 0], 0, 0))
}

/// Steady state of a perpetual sowing with hand 3: laps end every 3 drops, so each pit is
/// lifted once every 3 revolutions (3 is odd, so the lap ends visit all 16 pits before
/// coming back), holding 0, 1 or 2 seeds by how many passes ago it was lifted. Just after
/// lifting absolute 0: [0,0,1,2, 0,1,2,0, 1,2,0,1, 2,0,1,2], hand 3. Each lap ends on a pit
/// holding 2 (3 now): relay in the opening, and in a normal turn too (rule 2 needs exactly
/// 1 before the drop). 18 seeds, no captures, no knives.
const STEADY3: [u8; 16] = [0, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2];

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
