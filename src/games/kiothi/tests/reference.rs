//! A second, slow, obviously correct move generator: one warrior at a time, nki as booleans,
//! K7 by remembering every relay state in a `HashSet`, redistributions by plain recursion.
//! Written apart from the engine and sharing nothing with it but the `Position` type.

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
