//! Independent cross-check of the Oware retrograde databases (docs/rules/oware.md O1–O8, `cycle=split`).
//!
//! Everything below the `library side` marker is written from docs/rules/oware.md alone and shares no code
//! with the crate: its own sowing, captures, grand-slam variants, feeding rule and endings, its
//! own enumeration of positions, and its own solver. The crate is used only to build its tables
//! (`tables_in_memory`) and to find an entry in them (`Compositions::rank`).
//!
//! Solver: a position's value is the net number of the seeds on the board that the mover ends up
//! with under perfect play, an endless game being worth 0 (repetition = `split`). For a layer of
//! `n` seeds and each threshold `t = 1..=n` we compute, as least fixed points of plain sweeps
//! over the layer starting from empty sets,
//!   W_t = positions where the mover can force a result >= t:
//!         an ending worth >= t, or some move that either leaves the layer (captures) paying
//!         >= t, or stays in the layer and reaches a position of L_t (seen by the opponent);
//!   L_t = positions where the opponent can force a result <= -t:
//!         an ending worth <= -t, or the mover has moves and every one pays <= -t or reaches W_t.
//! Least fixed points mean "forced in finitely many moves", so endless play never counts as a
//! win for anyone, i.e. it is worth 0. The value is t for the largest t with the position in
//! W_t, -t for the largest t with it in L_t, else 0. A move leaving the layer (capturing c seeds,
//! landing in a position of n - c seeds worth w to the opponent) pays c - w.
//!
//! `cargo test --release --test oware_db_bruteforce` checks 125,970 entries per variant in a
//! few seconds. `OWARE_BF_MAX_SEEDS=12` (about 35 s per variant) also covers the first layer
//! where a pit can hold 12 seeds and the origin skip matters; it agreed everywhere when written.

use std::collections::HashMap;
use std::time::Instant;

use mancala::games::oware::{Cycle, GrandSlam, Rules};
use mancala::index::Compositions;

/// Largest seed count checked; `OWARE_BF_MAX_SEEDS=N` raises it for a longer one-off run.
const MAX_N: usize = 8;

fn max_n() -> usize {
    std::env::var("OWARE_BF_MAX_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(MAX_N)
}

// ------------------------------------------------------------------------------------------
// Independent rules (docs/rules/oware.md O2–O6), on a board seen by the mover: [0..6] his row, [6..12]
// the opponent's, both in sowing order.
// ------------------------------------------------------------------------------------------

type Board = [u8; 12];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slam {
    NoCapture,
    Forbidden,
    Awari,
}

/// What a position offers: an ending (net value for the mover) or moves.
#[derive(Debug)]
enum Options {
    End(i32),
    /// `(own pit, board after the move from the mover's view, seeds captured)`.
    Moves(Vec<(usize, Board, u32)>),
}

fn total(b: &Board) -> u32 {
    b.iter().map(|&x| x as u32).sum()
}

/// One sown move, before any grand-slam decision.
struct Sown {
    pit: usize,
    /// After sowing, nothing captured yet.
    after_sowing: Board,
    /// After sowing and capturing.
    after_capture: Board,
    captured: u32,
    feeds: bool,
    slam: bool,
}

fn sow_one_by_one(b: &Board, pit: usize) -> Sown {
    let mut board = *b;
    let mut hand = board[pit];
    board[pit] = 0;
    let mut at = pit;
    let mut feeds = false;
    while hand > 0 {
        at = (at + 1) % 12;
        if at == pit {
            continue; // O2: the origin is skipped on every lap
        }
        board[at] += 1;
        hand -= 1;
        if at >= 6 {
            feeds = true;
        }
    }
    let after_sowing = board;
    // O3: capture backwards from the last pit while it is an opponent pit holding 2 or 3.
    let mut captured = 0;
    let mut k = at;
    loop {
        if k < 6 || !(board[k] == 2 || board[k] == 3) {
            break;
        }
        captured += board[k] as u32;
        board[k] = 0;
        if k == 6 {
            break;
        }
        k -= 1;
    }
    let opp_left: u32 = board[6..].iter().map(|&x| x as u32).sum();
    Sown { pit, after_sowing, after_capture: board, captured, feeds, slam: captured > 0 && opp_left == 0 }
}

fn options(b: &Board, slam_rule: Slam) -> Options {
    let n = total(b) as i32;
    let mine: u32 = b[..6].iter().map(|&x| x as u32).sum();
    if mine == 0 {
        return Options::End(-n); // O6: the opponent takes everything
    }
    let opp_empty = b[6..].iter().all(|&x| x == 0);
    let mut cands: Vec<Sown> = (0..6).filter(|&p| b[p] > 0).map(|p| sow_one_by_one(b, p)).collect();
    if opp_empty {
        cands.retain(|s| s.feeds); // O5
        if cands.is_empty() {
            return Options::End(n); // O5: cannot feed, the mover takes everything
        }
    }
    let every_one_slams = cands.iter().all(|s| s.slam);
    let mut out = Vec::new();
    for s in &cands {
        if !s.slam {
            out.push((s.pit, s.after_capture, s.captured));
            continue;
        }
        match slam_rule {
            Slam::NoCapture => out.push((s.pit, s.after_sowing, 0)),
            Slam::Forbidden => {
                if every_one_slams {
                    out.push((s.pit, s.after_sowing, 0));
                }
            }
            Slam::Awari => {
                if every_one_slams {
                    // Forced: the capture happens and the mover also takes his own row.
                    let own: u32 = s.after_capture[..6].iter().map(|&x| x as u32).sum();
                    out.push((s.pit, [0; 12], s.captured + own));
                }
            }
        }
    }
    assert!(!out.is_empty());
    Options::Moves(out)
}

/// The same board from the other player's side.
fn turn_around(b: &Board) -> Board {
    let mut o = *b;
    o.rotate_left(6);
    o
}

// ------------------------------------------------------------------------------------------
// Independent solver.
// ------------------------------------------------------------------------------------------

fn all_boards(n: u8) -> Vec<Board> {
    fn rec(i: usize, left: u8, cur: &mut Board, out: &mut Vec<Board>) {
        if i == 11 {
            cur[11] = left;
            out.push(*cur);
            return;
        }
        for x in 0..=left {
            cur[i] = x;
            rec(i + 1, left - x, cur, out);
        }
        cur[i] = 0;
    }
    let mut out = Vec::new();
    rec(0, n, &mut [0; 12], &mut out);
    out
}

enum Edge {
    /// Leaves the layer, paying this much to the mover.
    Exit(i32),
    /// Stays in the layer: the index of the child (seen by the opponent).
    Stay(usize),
}

enum Node {
    End(i32),
    Moves(Vec<Edge>),
}

/// Values of every position with up to `max` seeds, keyed by the board (mover's view).
fn brute_force(slam: Slam, max: usize) -> Vec<HashMap<Board, i32>> {
    let mut solved: Vec<HashMap<Board, i32>> = Vec::new();
    for n in 0..=max {
        let boards = all_boards(n as u8);
        let at: HashMap<Board, usize> = boards.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let nodes: Vec<Node> = boards
            .iter()
            .map(|b| match options(b, slam) {
                Options::End(v) => Node::End(v),
                Options::Moves(ms) => Node::Moves(
                    ms.into_iter()
                        .map(|(_, after, captured)| {
                            let child = turn_around(&after);
                            let m = total(&child) as usize;
                            assert_eq!(m + captured as usize, n, "seeds are conserved");
                            if captured == 0 {
                                Edge::Stay(at[&child])
                            } else {
                                Edge::Exit(captured as i32 - solved[m][&child])
                            }
                        })
                        .collect(),
                ),
            })
            .collect();
        let mut value = vec![0i32; boards.len()];
        for t in 1..=n as i32 {
            let mut win = vec![false; boards.len()];
            let mut lose = vec![false; boards.len()];
            loop {
                let mut changed = false;
                for (i, node) in nodes.iter().enumerate() {
                    let (w, l) = match node {
                        Node::End(v) => (*v >= t, *v <= -t),
                        Node::Moves(es) => (
                            es.iter().any(|e| match e {
                                Edge::Exit(p) => *p >= t,
                                Edge::Stay(c) => lose[*c],
                            }),
                            es.iter().all(|e| match e {
                                Edge::Exit(p) => *p <= -t,
                                Edge::Stay(c) => win[*c],
                            }),
                        ),
                    };
                    if w && !win[i] {
                        win[i] = true;
                        changed = true;
                    }
                    if l && !lose[i] {
                        lose[i] = true;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            for i in 0..boards.len() {
                assert!(!(win[i] && lose[i]), "n={n} t={t}: {:?} both won and lost", boards[i]);
                if win[i] {
                    value[i] = t;
                }
                if lose[i] {
                    value[i] = -t;
                }
            }
        }
        solved.push(boards.into_iter().zip(value).collect());
    }
    solved
}

// ------------------------------------------------------------------------------------------
// Library side and comparison.
// ------------------------------------------------------------------------------------------

fn check(slam: Slam, grand_slam: GrandSlam) {
    let max = max_n();
    let t0 = Instant::now();
    let mine = brute_force(slam, max);
    let t1 = Instant::now();
    let rules = Rules { grand_slam, cycle: Cycle::Split };
    let lib = mancala::retro::oware::tables_in_memory(rules, max);
    let t2 = Instant::now();
    let idx = Compositions::new(12, 48);
    assert_eq!(lib.len(), max + 1, "layers 0..={max}");
    let mut compared = 0usize;
    let mut bad: Vec<(Board, i32, i8)> = Vec::new();
    for n in 0..=max {
        assert_eq!(lib[n].len(), mine[n].len(), "{slam:?}: layer {n} size");
        // Every entry of the layer is looked at exactly once.
        let mut hit = vec![false; lib[n].len()];
        for (b, &v) in &mine[n] {
            let r = idx.rank(b) as usize;
            assert!(!hit[r], "{slam:?}: rank {r} of layer {n} reached twice");
            hit[r] = true;
            let got = lib[n][r];
            compared += 1;
            if got as i32 != v {
                bad.push((*b, v, got));
            }
        }
    }
    eprintln!(
        "{slam:?}: {compared} entries (n <= {max}) compared; brute force {:.2}s, library {:.2}s; {} mismatches",
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
        bad.len()
    );
    bad.sort_by_key(|(b, _, _)| (total(b), *b));
    for (b, v, got) in bad.iter().take(10) {
        eprintln!("  {b:?}: brute force {v}, database {got}");
    }
    assert!(bad.is_empty(), "{slam:?}: {} entries differ, first {:?}", bad.len(), bad.first());
    if max == 8 {
        assert_eq!(compared, 125_970, "C(20,12) positions with at most 8 seeds");
    }
}

#[test]
fn db_matches_brute_force_no_capture() {
    check(Slam::NoCapture, GrandSlam::NoCapture);
}

#[test]
fn db_matches_brute_force_forbidden() {
    check(Slam::Forbidden, GrandSlam::Forbidden);
}

#[test]
fn db_matches_brute_force_awari() {
    check(Slam::Awari, GrandSlam::Awari);
}

// ------------------------------------------------------------------------------------------
// Hand-checked examples of the independent rules and solver, so that a shared mistake in the
// reading of docs/rules/oware.md would have to be made twice.
// ------------------------------------------------------------------------------------------

fn moves_of(b: &Board, slam: Slam) -> Vec<(usize, Board, u32)> {
    match options(b, slam) {
        Options::Moves(ms) => ms,
        Options::End(v) => panic!("ended ({v})"),
    }
}

#[test]
fn own_rules_by_hand() {
    // 12 seeds from own pit 0: one in each of the 11 others, the 12th skips the origin and
    // lands in own pit 1.
    let mut b = [0u8; 12];
    b[0] = 12;
    b[11] = 1;
    let ms = moves_of(&b, Slam::NoCapture);
    assert_eq!(ms, vec![(0, [0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2], 0)]);

    // Backward captures: own pit 5 with 3 seeds lands on opponent 2; opponents 0..2 hold 1,2,1
    // -> 2,3,2 after sowing, all captured (7), opponent 3 keeps its seed.
    let b = [0, 0, 0, 0, 0, 3, 1, 2, 1, 1, 0, 0];
    let ms = moves_of(&b, Slam::NoCapture);
    assert_eq!(ms, vec![(5, [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0], 7)]);

    // The chain stops at a pit that is not 2 or 3: opponents 0..2 hold 1,3,1 -> 2,4,2; only
    // opponent 2 is captured, opponent 1 (4) stops the chain and opponent 0 (2) is kept.
    let b = [0, 0, 0, 0, 0, 3, 1, 3, 1, 0, 0, 0];
    let ms = moves_of(&b, Slam::NoCapture);
    assert_eq!(ms, vec![(5, [0, 0, 0, 0, 0, 0, 2, 4, 0, 0, 0, 0], 2)]);
    // Landing in the mover's own row never captures.
    let b = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0];
    assert_eq!(moves_of(&b, Slam::NoCapture), vec![(3, [0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0], 0)]);

    // Grand slam: own pit 5 (2 seeds) makes the opponent's only seeds 2,2 -> a slam.
    let b = [1, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0];
    let nc = moves_of(&b, Slam::NoCapture);
    assert_eq!(nc, vec![(0, [0, 1, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0], 0), (5, [1, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0], 0)]);
    let fb = moves_of(&b, Slam::Forbidden);
    assert_eq!(fb, vec![(0, [0, 1, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0], 0)]);
    assert_eq!(moves_of(&b, Slam::Awari), fb);
    // Forced slam: the only move.
    let b = [0, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0];
    assert_eq!(moves_of(&b, Slam::NoCapture), vec![(5, [0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0], 0)]);
    assert_eq!(moves_of(&b, Slam::Forbidden), vec![(5, [0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0], 0)]);
    let b = [0, 0, 0, 0, 1, 2, 1, 1, 0, 0, 0, 0];
    // Own pit 4 (1 seed) goes to own pit 5: not a slam, so the slam from pit 5 is not forced.
    assert_eq!(moves_of(&b, Slam::Awari).len(), 1);
    let b = [0, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0];
    assert_eq!(moves_of(&b, Slam::Awari), vec![(5, [0; 12], 4)]);

    // Feeding: the opponent is empty; only own pit 5 (1 seed) feeds.
    let b = [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0];
    let ms = moves_of(&b, Slam::NoCapture);
    assert_eq!(ms.iter().map(|m| m.0).collect::<Vec<_>>(), vec![5]);
    // Cannot feed: the mover takes all.
    assert!(matches!(options(&[1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], Slam::NoCapture), Options::End(2)));
    // Mover empty: the opponent takes all.
    assert!(matches!(options(&[0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0], Slam::NoCapture), Options::End(-3)));
}

#[test]
fn own_solver_by_hand() {
    let s = brute_force(Slam::NoCapture, 3);
    // The mover has nothing: the opponent takes all.
    let mut b = [0u8; 12];
    b[6] = 2;
    assert_eq!(s[2][&b], -2);
    // Mover has 2 in pit 0, opponent empty: cannot feed (2 seeds reach pit 2) -> +2.
    let mut b = [0u8; 12];
    b[0] = 2;
    assert_eq!(s[2][&b], 2);
    // Own pit 5 with 1 seed, opponent pit 0 with 1: the only move makes 2 there, and capturing
    // them would empty the opponent's row: a forced grand slam. Under awari it captures (+2).
    let mut b = [0u8; 12];
    b[5] = 1;
    b[6] = 1;
    let a = brute_force(Slam::Awari, 2);
    assert_eq!(a[2][&b], 2);
    // Under no-capture: the opponent then holds 2 in his pit 0 and we hold nothing: he must
    // play it to his pits 1 and 2 (he may not feed us: he cannot, so he takes all) -> -2 for us.
    assert_eq!(s[2][&b], -2);
    let f = brute_force(Slam::Forbidden, 2);
    assert_eq!(f[2][&b], -2);
    // Values stay within -n..=n.
    for (n, layer) in s.iter().enumerate() {
        assert!(layer.values().all(|&v| v.abs() <= n as i32));
    }
}
