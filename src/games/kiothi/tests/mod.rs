//! Tests of the Kiothi rules, by kind:
//! - `examples.rs`: worked examples, rule by rule (docs/rules/kiothi.md K1–K9), each with the
//!   board before, the move, the board after and why;
//! - `reference.rs`: a slow, obviously correct second generator;
//! - `differential.rs`: the engine against the reference and against brute force;
//! - `perft.rs`: perft counts and opening counts from `tests/data/kiothi/`.
//!
//! Boards are written as `S[own 0..9] N[own 0..9]`; absolute boma `a` is South own `a` for
//! `a < 10`, North own `a - 10` otherwise.

use super::*;
use crate::side::Side;

mod differential;
mod examples;
mod perft;
mod reference;

/// A position from the two rows (each in its owner's index order) and the nki boma (absolute).
fn pos(south: [u8; 10], north: [u8; 10], nki: &[usize], to_move: Side, turn: u32) -> Position {
    let mut boma = [0u8; BOMA];
    boma[..ROW].copy_from_slice(&south);
    boma[ROW..].copy_from_slice(&north);
    let p = Position { boma, prisons: [0, 0], nki: nki.iter().fold(0, |m, &a| m | 1 << a), to_move, turn };
    p.validate().unwrap();
    p
}

fn rows(p: &Position) -> ([u8; 10], [u8; 10]) {
    (p.boma[..ROW].try_into().unwrap(), p.boma[ROW..].try_into().unwrap())
}

fn nki_list(p: &Position) -> Vec<usize> {
    (0..BOMA).filter(|&a| p.is_nki(a)).collect()
}

fn sow(b: u8, k: u8) -> SowMove {
    SowMove { boma: b, lift: k }
}

/// The tests' sowing cache (they read no statistics from it).
static SOWING: SowingCache = SowingCache::new();

const S: Side = Side::South;

const N: Side = Side::North;

/// A state JSON of `tests/data/kiothi/`.
fn data_position(json: &str) -> Position {
    Position::from_json(&serde_json::from_str(json).unwrap()).unwrap()
}

/// A tiny opening: South S2, S7 and North N3, N8 hold one warrior each; turn 1.
fn tiny_opening() -> Position {
    data_position(include_str!("../../../../tests/data/kiothi/tiny-opening.json"))
}

/// The default setup after "4,5>0*2,1*1,3*2,12*1,15*4" and "4,9>0*1,5*3,10*2,17*4": turn 3.
fn midgame() -> Position {
    data_position(include_str!("../../../../tests/data/kiothi/midgame.json"))
}

/// An endgame of 20 warriors with nki marks left and captures, bonuses and K4 in reach.
fn endgame() -> Position {
    data_position(include_str!("../../../../tests/data/kiothi/endgame.json"))
}

/// 17 warriors where 8:2 and 9:1 never end (found by `examples/kiothi_explore.rs find-perpetual`). A hand of two walks over boma holding alternately
/// 1 and 0 (each relay leaves the pair shifted by one), and the irregular boma S6..S9 and N9
/// put it back in step every round, so it never lands in an empty boma. The slow reference
/// confirms the repeat with its set of visited states.
fn perpetual_position() -> Position {
    data_position(include_str!("../../../../tests/data/kiothi/perpetual.json"))
}

#[test]
fn data_positions_are_the_documented_ones() {
    assert_eq!(tiny_opening(), pos([0, 0, 1, 0, 0, 0, 0, 1, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0, 1, 0], &[], S, 1));
    let rules = Rules::default();
    let mut p = rules.start();
    for m in ["4,5>0*2,1*1,3*2,12*1,15*4", "4,9>0*1,5*3,10*2,17*4"] {
        p = p.play(&rules, &SOWING, &m.parse().unwrap()).unwrap();
    }
    assert_eq!(midgame(), p);
    let mut p = pos([2, 0, 1, 3, 0, 1, 0, 2, 0, 1], [1, 2, 0, 0, 3, 1, 0, 1, 2, 0], &[10, 14, 3], S, 21);
    p.prisons = [20, 23];
    assert_eq!(endgame(), p);
    assert_eq!(perpetual_position(), pos([1, 0, 1, 0, 1, 0, 2, 1, 2, 2], [1, 0, 1, 0, 1, 0, 1, 0, 1, 2], &[], S, 3));
}
