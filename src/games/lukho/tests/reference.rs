//! A literal, slow reading of docs/rules/lukho.md: one seed per step, plain arrays, hash sets
//! of every state seen. The fast engine (packed board, batched laps and ticks, relative states,
//! cycle finding, AVX-512 lanes) must agree with it (see `differential`).

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

/// Both removals and drops applied, and each sower with his hand, about to sow from the
/// pit before the opponent's index 0.
fn setup(south: &Choice, north: &Choice) -> (St, [Sower; 2]) {
    let mut st = St { pits: [3; 16], knife: [-1; 16], stores: [0; 2] };
    for (me, c) in [(0usize, south), (1, north)] {
        for i in 0..8 {
            st.pits[8 * me + i] -= c.remove[i];
        }
        st.pits[8 * (1 - me) + c.pit as usize] += c.drop;
    }
    let s = [
        Sower { pos: 7, hand: south.sow_count() as u32, done: south.sow_count() == 0 },
        Sower { pos: 15, hand: north.sow_count() as u32, done: north.sow_count() == 0 },
    ];
    (st, s)
}

/// `Err(())` when it gave up (a sowing ran past `GIVE_UP` steps without repeating).
pub fn opening(rules: &Rules, south: &Choice, north: &Choice, race: Race) -> Result<(St, Side, bool), ()> {
    let (mut st, mut s) = setup(south, north);
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
    let (mut st, mut s) = setup(south, north);
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
