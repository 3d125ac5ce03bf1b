//! Tests of the Kiothi rules. Each hand-worked position carries the board before, the move,
//! the board after and why. Boards are written as `S[own 0..9] N[own 0..9]`; absolute boma
//! `a` is South own `a` for `a < 10`, North own `a - 10` otherwise.

use super::*;
use crate::side::Side;

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

const S: Side = Side::South;
const N: Side = Side::North;

/// A second, slow, obviously correct move generator: one warrior at a time, nki as booleans,
/// K7 by remembering every relay state in a `HashSet`, redistributions by plain recursion.
/// Written apart from the engine and sharing nothing with it but the `Position` type.
mod reference {
    use super::super::{NkiClear, Position, Redistribute, Rules};
    use std::collections::HashSet;

    fn own(p: &Position, a: usize) -> bool {
        a / 10 == p.to_move.index()
    }

    /// The position after lifting `k` from own index `b`, or `None` if the move is illegal.
    pub fn sow(p: &Position, rules: &Rules, b: usize, k: u8) -> Option<Position> {
        let mut board = p.boma.to_vec();
        let mut nki: Vec<bool> = (0..20).map(|a| p.nki >> a & 1 == 1).collect();
        let origin = p.to_move.index() * 10 + b;
        if k == 0 || board[origin] < k {
            return None;
        }
        board[origin] -= k;
        nki[origin] = false;
        let mut hand = k as u32;
        let mut at = origin;
        let mut first_lap = true;
        let mut seen = HashSet::new();
        let mut relays = 0u64;
        loop {
            let mut was_occupied = false;
            while hand > 0 {
                at = (at + 1) % 20;
                was_occupied = board[at] > 0;
                board[at] += 1;
                hand -= 1;
                if !first_lap && rules.nki_clear == NkiClear::Pass {
                    nki[at] = false;
                }
            }
            if !was_occupied {
                break; // the sowing ends in a boma that was empty
            }
            if first_lap && own(p, at) {
                return None; // K4
            }
            if !seen.insert((board.clone(), at)) {
                return None; // K7: the relay state repeats, so it never ends
            }
            relays += 1;
            if rules.max_relays.is_some_and(|n| relays > n) {
                return None;
            }
            hand = board[at] as u32;
            board[at] = 0;
            nki[at] = false;
            first_lap = false;
        }
        let mut prisons = p.prisons;
        if own(p, at) {
            let i = at % 10;
            let opp = |j: usize| p.to_move.other().index() * 10 + j;
            let capturable = |board: &Vec<u8>, a: usize| board[a] > 0 && !nki[a];
            if capturable(&board, opp(9 - i)) {
                let mut c = board[opp(9 - i)] + 1;
                board[opp(9 - i)] = 0;
                board[at] = 0;
                if i == 0 {
                    for j in [8, 7, 6] {
                        if !capturable(&board, opp(j)) {
                            break;
                        }
                        c += board[opp(j)];
                        board[opp(j)] = 0;
                    }
                }
                prisons[p.to_move.index()] += c;
            }
        }
        let nki_mask = (0..20).filter(|&a| nki[a]).fold(0u32, |m, a| m | 1 << a);
        Some(Position {
            boma: board.try_into().unwrap(),
            prisons,
            nki: nki_mask,
            to_move: p.to_move.other(),
            turn: p.turn + 1,
        })
    }

    /// Every way to put `w` warriors into boma `from..20` on top of `board`.
    fn place(board: &mut [u8; 20], from: usize, w: u8, out: &mut dyn FnMut(&[u8; 20])) {
        if from == 19 {
            board[19] += w;
            out(board);
            board[19] -= w;
            return;
        }
        for c in 0..=w {
            board[from] += c;
            place(board, from + 1, w - c, out);
            board[from] -= c;
        }
    }

    /// Every child position (with repeats: one per move), in no particular order.
    pub fn children(p: &Position, rules: &Rules, out: &mut dyn FnMut(Position)) {
        if p.turn <= 2 {
            let base = p.to_move.index() * 10;
            for set in 0u32..1024 {
                let n = set.count_ones();
                let ok = match rules.redistribute {
                    Redistribute::Exactly2 => n == 2,
                    Redistribute::UpTo2 => n == 1 || n == 2,
                };
                if !ok || (0..10).any(|i| set >> i & 1 == 1 && p.boma[base + i] == 0) {
                    continue;
                }
                let mut board = p.boma;
                let mut w = 0;
                for i in (0..10).filter(|i| set >> i & 1 == 1) {
                    w += board[base + i];
                    board[base + i] = 0;
                }
                place(&mut board, 0, w, &mut |b| {
                    let nki = if p.turn == 2 { (0..20).filter(|&a| b[a] > 0).fold(0, |m, a| m | 1 << a) } else { 0 };
                    out(Position { boma: *b, prisons: p.prisons, nki, to_move: p.to_move.other(), turn: p.turn + 1 })
                });
            }
        } else {
            for b in 0..10 {
                for k in 1..=p.boma[p.to_move.index() * 10 + b] {
                    if let Some(c) = sow(p, rules, b, k) {
                        out(c);
                    }
                }
            }
        }
    }

    pub fn perft(p: &Position, rules: &Rules, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        children(p, rules, &mut |c| n += perft(&c, rules, depth - 1));
        n
    }
}

/// xorshift64*: a tiny deterministic generator for sampled games.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal redistribution: a random allowed emptied set, each warrior into a random boma.
fn random_redistribution(p: &Position, rules: &Rules, rng: &mut Rng) -> Option<Redistribution> {
    let base = p.own_base();
    let occupied: Vec<usize> = (0..ROW).filter(|&i| p.boma[base + i] > 0).collect();
    let two = occupied.len() >= 2 && (rules.redistribute == Redistribute::Exactly2 || rng.below(2) == 0);
    if occupied.is_empty() || (!two && rules.redistribute == Redistribute::Exactly2) {
        return None;
    }
    let i = occupied[rng.below(occupied.len())];
    let mut emptied = 1u16 << i;
    if two {
        let rest: Vec<usize> = occupied.iter().copied().filter(|&j| j != i).collect();
        emptied |= 1 << rest[rng.below(rest.len())];
    }
    let w: u32 = (0..ROW).filter(|i| emptied >> i & 1 == 1).map(|i| p.boma[base + i] as u32).sum();
    let mut placement = [0u8; BOMA];
    for _ in 0..w {
        placement[rng.below(BOMA)] += 1;
    }
    Some(Redistribution { emptied, placement })
}

/// Play `games` random games from the start, generating every child of every position met
/// (so every legal-looking move is simulated). Returns (positions, moves generated).
fn random_games(rules: &Rules, games: usize, seed: u64) -> (u64, u64) {
    let mut rng = Rng(seed);
    let mut buf = Vec::new();
    let (mut positions, mut moves) = (0u64, 0u64);
    for _ in 0..games {
        let mut p = rules.start();
        for _ply in 0..400 {
            positions += 1;
            if p.is_redistribution() {
                let Some(r) = random_redistribution(&p, rules, &mut rng) else { break };
                p = p.play(rules, &Move::Redistribute(r)).unwrap();
                continue;
            }
            p.children(rules, &mut buf);
            moves += buf.len() as u64;
            if buf.is_empty() {
                break;
            }
            p = buf[rng.below(buf.len())].position;
        }
    }
    (positions, moves)
}

#[test]
#[ignore = "exploration: long-sowing statistics of random games; run with --ignored --nocapture"]
fn explore_long_sowings() {
    let rules = Rules::default();
    let games: usize = std::env::var("KIOTHI_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    let t = std::time::Instant::now();
    let (positions, moves) = random_games(&rules, games, 0x9e37_79b9_7f4a_7c15);
    println!("{games} games, {positions} positions, {moves} legal moves, {:?}", t.elapsed());
    // Every candidate move of every position of a second sample, by verdict.
    let mut rng = Rng(7);
    let mut verdicts = std::collections::BTreeMap::<String, u64>::new();
    let mut relays = [0u64; 8]; // histogram by decimal digits of the relay count
    for _ in 0..games {
        let mut p = rules.start();
        while p.is_redistribution() {
            let r = random_redistribution(&p, &rules, &mut rng).unwrap();
            p = p.play(&rules, &Move::Redistribute(r)).unwrap();
        }
        for _ply in 0..400 {
            let mut legal = Vec::new();
            for b in 0..ROW as u8 {
                for k in 1..=p.boma[p.own_base() + b as usize] {
                    let v = p.sow(&rules, sow(b, k));
                    let name = match &v {
                        Ok(_) => "legal".to_string(),
                        Err(e) => format!("{:?}", e).split([' ', '{']).next().unwrap().to_string(),
                    };
                    *verdicts.entry(name).or_default() += 1;
                    if let Ok(c) = v {
                        relays[(c.relays + 1).ilog10() as usize] += 1;
                        legal.push(c.position);
                    }
                }
            }
            if legal.is_empty() {
                break;
            }
            p = legal[rng.below(legal.len())];
        }
    }
    println!("candidate moves by verdict: {verdicts:?}");
    println!("legal moves by relays 0, 1..9, 10..99, ...: {relays:?}");
    println!("{:?}", sowing_stats());
}
