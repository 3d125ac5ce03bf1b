//! Independent cross-check of the Kiothi endgame tables (docs/rules/kiothi.md K3–K9 after the opening,
//! `nki-clear=lift`, unbounded relays, repetition `split`).
//!
//! Everything below the `library side` marker is written from docs/rules/kiothi.md alone and shares no
//! code with the crate: its own one-warrior-at-a-time sowing with relays, K4, K7 (a repeated
//! relay state makes the move illegal), K5/K6 captures with nki, K8, its own enumeration of the
//! positions and its own solver. The crate is used only to build its tables
//! (`tables_in_memory`) and to find an entry in them (`KiothiLayers::locate`).
//!
//! Solver: a position's value is the net number of the warriors on the board that the mover
//! ends up with under perfect play, an endless game being worth 0. For a layer of `n` warriors
//! and each threshold `t = n..=1` we compute, as least fixed points of in-place sweeps over
//! the layer's move graph,
//!   W_t = positions where the mover can force a result >= t: an ending worth >= t, or a move
//!         that captures c warriors into a position worth w (to the opponent) with c - w >= t,
//!         or a move without capture into a position of L_t;
//!   L_t = positions where every move gives the mover <= -t: an ending worth <= -t, or moves
//!         that all pay <= -t when they capture and reach W_t when they do not.
//! Least fixed points are "forced in finitely many moves", so endless play counts for nobody
//! (worth 0). W_{t+1} ⊆ W_t and L_{t+1} ⊆ L_t, so each threshold starts from the previous
//! one's sets. The value is t for the largest t with the position in W_t, -t for the largest
//! t with it in L_t, else 0.
//!
//! `cargo test --release --test kiothi_db_bruteforce` checks every entry of layers 0..=6
//! (6.8 M positions). `KIOTHI_BF_MAX=N` changes the largest layer.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use mancala::games::kiothi::Rules;
use mancala::retro::kiothi::{tables_in_memory, KiothiLayers, View};
use mancala::retro::LayeredGame;

const MAX_N: usize = 6;

fn max_n() -> usize {
    std::env::var("KIOTHI_BF_MAX").ok().and_then(|s| s.parse().ok()).unwrap_or(MAX_N)
}

// ------------------------------------------------------------------------------------------
// Library side ends here. Independent rules on a board seen by the mover: [0..10] his row,
// [10..20] the opponent's, in sowing order; `nki` bit a = boma a is nki.
// ------------------------------------------------------------------------------------------

type Board = [u8; 20];

/// One sowing move of own boma `b` lifting `k`: `None` if illegal (K4, K7), else the board
/// and flags after the move (still from the mover's view) and the warriors captured.
fn play(board: &Board, nki: u32, b: usize, k: u8) -> Option<(Board, u32, u32)> {
    let mut w = *board;
    let mut nki = nki;
    w[b] -= k;
    nki &= !(1 << b); // K3: lifting clears nki
    let mut hand = k;
    let mut at = b;
    let mut first_lap = true;
    let mut seen: HashSet<(Board, usize)> = HashSet::new();
    loop {
        // Drop the hand one by one.
        while hand > 0 {
            at = (at + 1) % 20;
            w[at] += 1;
            hand -= 1;
        }
        if w[at] == 1 {
            break; // K5: the lap ended in an empty boma
        }
        if first_lap && at < 10 {
            return None; // K4
        }
        first_lap = false;
        if !seen.insert((w, at)) {
            return None; // K7: the sowing repeats, never ends
        }
        // Relay: lift all, clear nki.
        hand = w[at];
        w[at] = 0;
        nki &= !(1 << at);
    }
    let mut captured = 0u32;
    if at < 10 {
        let opp = 19 - at;
        let free = |w: &Board, a: usize| w[a] > 0 && nki >> a & 1 == 0;
        if free(&w, opp) {
            captured += w[opp] as u32 + 1;
            w[opp] = 0;
            w[at] = 0;
            if at == 0 {
                // K6: the opponent's indices 8, 7, 6 = boma 18, 17, 16.
                for a in [18, 17, 16] {
                    if !free(&w, a) {
                        break;
                    }
                    captured += w[a] as u32;
                    w[a] = 0;
                }
            }
        }
    }
    Some((w, nki, captured))
}

/// The same position from the other side.
fn turn_around(b: &Board, nki: u32) -> (Board, u32) {
    let mut o = *b;
    o.rotate_left(10);
    let m = ((nki >> 10) | (nki << 10)) & 0xfffff;
    (o, m)
}

fn positions(n: u8) -> Vec<(Board, u32)> {
    fn rec(i: usize, left: u8, cur: &mut Board, out: &mut Vec<(Board, u32)>) {
        if i == 19 {
            cur[19] = left;
            let occ: Vec<usize> = (0..20).filter(|&a| cur[a] > 0).collect();
            for s in 0u32..1 << occ.len() {
                let nki = occ.iter().enumerate().filter(|(j, _)| s >> j & 1 == 1).fold(0u32, |m, (_, &a)| m | 1 << a);
                out.push((*cur, nki));
            }
            return;
        }
        for x in 0..=left {
            cur[i] = x;
            rec(i + 1, left - x, cur, out);
        }
        cur[i] = 0;
    }
    let mut out = Vec::new();
    rec(0, n, &mut [0; 20], &mut out);
    out
}

const STAY: i32 = i32::MIN;

/// Values of every position with up to `max` warriors, keyed by (board, nki), mover's view.
fn brute_force(max: usize) -> Vec<HashMap<(Board, u32), i32>> {
    let mut solved: Vec<HashMap<(Board, u32), i32>> = Vec::new();
    for n in 0..=max {
        let all = positions(n as u8);
        let at: HashMap<(Board, u32), u32> = all.iter().enumerate().map(|(i, p)| (*p, i as u32)).collect();
        // Move graph: per position an ending value, or edges (pay, child) where pay = STAY
        // for a move in the layer.
        let mut ending: Vec<Option<i32>> = Vec::with_capacity(all.len());
        let mut start: Vec<u32> = Vec::with_capacity(all.len() + 1);
        let mut edges: Vec<(i32, u32)> = Vec::new();
        for (board, nki) in &all {
            start.push(edges.len() as u32);
            let before = edges.len();
            for b in 0..10 {
                for k in 1..=board[b] {
                    if let Some((after, flags, c)) = play(board, *nki, b, k) {
                        let (cb, cn) = turn_around(&after, flags);
                        if c == 0 {
                            edges.push((STAY, at[&(cb, cn)]));
                        } else {
                            let w = solved[n - c as usize][&(cb, cn)];
                            edges.push((c as i32 - w, 0));
                        }
                    }
                }
            }
            // K8: no legal move, the opponent takes the board.
            ending.push(if edges.len() == before { Some(-(n as i32)) } else { None });
        }
        start.push(edges.len() as u32);
        let size = all.len();
        let mut value = vec![0i32; size];
        let mut win = vec![false; size];
        let mut loss = vec![false; size];
        for t in (1..=n as i32).rev() {
            loop {
                let mut changed = false;
                for i in 0..size {
                    if win[i] && loss[i] {
                        unreachable!();
                    }
                    let es = &edges[start[i] as usize..start[i + 1] as usize];
                    let w = match ending[i] {
                        Some(v) => v >= t,
                        None => es.iter().any(|&(p, c)| if p == STAY { loss[c as usize] } else { p >= t }),
                    };
                    let l = match ending[i] {
                        Some(v) => v <= -t,
                        None => es.iter().all(|&(p, c)| if p == STAY { win[c as usize] } else { p <= -t }),
                    };
                    if w && !win[i] {
                        win[i] = true;
                        value[i] = t;
                        changed = true;
                    }
                    if l && !loss[i] {
                        loss[i] = true;
                        value[i] = -t;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        solved.push(all.into_iter().zip(value).collect());
    }
    solved
}

// ------------------------------------------------------------------------------------------

#[test]
fn every_table_entry_matches_the_brute_force() {
    let max = max_n();
    let t0 = Instant::now();
    let tables = tables_in_memory(Rules::default(), max);
    let t1 = Instant::now();
    let bf = brute_force(max);
    let t2 = Instant::now();
    let game = KiothiLayers::new(Rules::default());
    for (n, layer) in bf.iter().enumerate() {
        assert_eq!(layer.len() as u64, game.layer_size(n), "layer {n} size");
        let mut bad = 0;
        for (&(boma, nki), &want) in layer {
            let (ln, r) = game.locate(&View { boma, nki });
            assert_eq!(ln, n);
            let got = tables[n][r as usize] as i32;
            if got != want {
                if bad < 5 {
                    eprintln!("layer {n}: {boma:?} nki {nki:#07x}: table {got}, brute force {want}");
                }
                bad += 1;
            }
        }
        assert_eq!(bad, 0, "layer {n}: {bad} entries differ");
    }
    eprintln!(
        "layers 0..={max}: tables {:.1} s, brute force {:.1} s, every entry equal",
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64()
    );
}

/// Worked example for the independent sowing (K4, relay, nki cleared by the relay lift).
/// Board (mover's view): own 8 holds 2, opponent index 0 (boma 10) holds 1 and is nki.
/// 8:2 drops on 9 and 10; 10 held 1, so the lap relays (opponent row, K4 allows it): lift 2
/// from 10 (its nki clears), drop on 11 and 12, both empty: the move ends on 12, no capture.
#[test]
fn independent_sowing_worked_example() {
    let mut b = [0u8; 20];
    b[8] = 2;
    b[10] = 1;
    let (after, nki, c) = play(&b, 1 << 10, 8, 2).unwrap();
    let mut want = [0u8; 20];
    want[9] = 1;
    want[11] = 1;
    want[12] = 1;
    assert_eq!((after, nki, c), (want, 0, 0));
    // 8:1 lands on own 9, empty, opposite boma 10 holds 1 and is nki: no capture; not nki: 2.
    assert_eq!(play(&b, 1 << 10, 8, 1).unwrap().2, 0);
    assert_eq!(play(&b, 0, 8, 1).unwrap().2, 2);
}
