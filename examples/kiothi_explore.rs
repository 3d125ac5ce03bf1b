//! Explorations of the Kiothi rules that print what they find (no assertions): long sowings in
//! random games, small positions with a perpetual sowing, capture-free move cycles, how random
//! games end, the cost of the midgame's perft 5.
//!
//! `cargo run --release --example kiothi_explore -- long-sowings|find-perpetual|find-repetition|game-endings|midgame-perft5`
//! (`KIOTHI_GAMES=N` sets the number of random games, default 200).

use mancala::games::kiothi::*;
use mancala::rng::XorShift64Star as Rng;
use mancala::side::Side;

/// One sowing cache for the whole run; its statistics are printed.
static SOWING: SowingCache = SowingCache::new();

const S: Side = Side::South;
const N: Side = Side::North;

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("long-sowings") => explore_long_sowings(),
        Some("find-perpetual") => explore_find_perpetual(),
        Some("find-repetition") => explore_find_repetition(),
        Some("game-endings") => explore_game_endings(),
        Some("midgame-perft5") => explore_midgame_perft5(),
        _ => eprintln!("usage: kiothi_explore long-sowings|find-perpetual|find-repetition|game-endings|midgame-perft5"),
    }
}

fn sow(b: u8, k: u8) -> SowMove {
    SowMove { boma: b, lift: k }
}

fn rows(p: &Position) -> ([u8; 10], [u8; 10]) {
    (p.boma[..ROW].try_into().unwrap(), p.boma[ROW..].try_into().unwrap())
}

/// The default setup after "4,5>0*2,1*1,3*2,12*1,15*4" and "4,9>0*1,5*3,10*2,17*4": turn 3.
fn midgame() -> Position {
    let json = include_str!("../tests/data/kiothi/midgame.json");
    Position::from_json(&serde_json::from_str(json).unwrap()).unwrap()
}

/// `rng.below(n)` as an index.
fn pick(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// A random legal redistribution: a random allowed emptied set, each warrior into a random boma.
fn random_redistribution(p: &Position, rules: &Rules, rng: &mut Rng) -> Option<Redistribution> {
    let base = p.own_base();
    let occupied: Vec<usize> = (0..ROW).filter(|&i| p.boma[base + i] > 0).collect();
    let two = occupied.len() >= 2 && (rules.redistribute == Redistribute::Exactly2 || pick(rng, 2) == 0);
    if occupied.is_empty() || (!two && rules.redistribute == Redistribute::Exactly2) {
        return None;
    }
    let i = occupied[pick(rng, occupied.len())];
    let mut emptied = 1u16 << i;
    if two {
        let rest: Vec<usize> = occupied.iter().copied().filter(|&j| j != i).collect();
        emptied |= 1 << rest[pick(rng, rest.len())];
    }
    let w: u32 = (0..ROW).filter(|i| emptied >> i & 1 == 1).map(|i| p.boma[base + i] as u32).sum();
    let mut placement = [0u8; BOMA];
    for _ in 0..w {
        placement[pick(rng, BOMA)] += 1;
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
                let Some(r) = random_redistribution(&p, rules, &mut rng) else {
                    break;
                };
                p = p.play(rules, &SOWING, &Move::Redistribute(r)).unwrap();
                continue;
            }
            p.children(rules, &SOWING, &mut buf);
            moves += buf.len() as u64;
            if buf.is_empty() {
                break;
            }
            p = buf[pick(&mut rng, buf.len())].position;
        }
    }
    (positions, moves)
}

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
            p = p.play(&rules, &SOWING, &Move::Redistribute(r)).unwrap();
        }
        for _ply in 0..400 {
            let mut legal = Vec::new();
            for b in 0..ROW as u8 {
                for k in 1..=p.boma[p.own_base() + b as usize] {
                    let v = p.sow(&rules, &SOWING, sow(b, k));
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
            p = legal[pick(&mut rng, legal.len())];
        }
    }
    println!("candidate moves by verdict: {verdicts:?}");
    println!("legal moves by relays 0, 1..9, 10..99, ...: {relays:?}");
    println!("{:?}", SOWING.stats());
}

fn explore_find_perpetual() {
    let rules = Rules::default();
    let mut rng = Rng(12345);
    let mut found = 0;
    for warriors in 4..40u32 {
        for _ in 0..200_000 {
            let mut boma = [0u8; BOMA];
            for _ in 0..warriors {
                boma[pick(&mut rng, BOMA)] += 1;
            }
            let p = Position { boma, prisons: [0, 0], nki: 0, to_move: S, turn: 3 };
            for b in 0..ROW as u8 {
                for k in 1..=p.boma[b as usize] {
                    if p.sow(&rules, &SOWING, sow(b, k)) == Err(Illegal::Perpetual) {
                        println!("{warriors} warriors: {:?} move {b}:{k}", p.boma);
                        found += 1;
                    }
                }
            }
            if found >= 5 {
                return;
            }
        }
    }
}

fn explore_find_repetition() {
    use std::collections::HashMap;
    let rules = Rules::default();
    for warriors in 2..=8u8 {
        // Every board of `warriors` warriors, both sides to move, nki-free.
        let mut states = Vec::new();
        let mut b = [0u8; BOMA];
        b[BOMA - 1] = warriors;
        loop {
            for side in [S, N] {
                states.push(Position { boma: b, prisons: [0, 0], nki: 0, to_move: side, turn: 3 });
            }
            if !mancala::index::Compositions::next(&mut b) {
                break;
            }
        }
        // Colour DFS over moves that capture nothing.
        let mut colour: HashMap<(Board, Side), u8> = HashMap::new();
        let mut buf = Vec::new();
        for &s0 in &states {
            if colour.contains_key(&(s0.boma, s0.to_move)) {
                continue;
            }
            let mut stack: Vec<(Position, Vec<Child>, usize)> = Vec::new();
            s0.children(&rules, &SOWING, &mut buf);
            colour.insert((s0.boma, s0.to_move), 1);
            stack.push((s0, buf.iter().filter(|c| c.captured == 0).copied().collect(), 0));
            while let Some((p, kids, i)) = stack.last_mut() {
                if *i == kids.len() {
                    colour.insert((p.boma, p.to_move), 2);
                    stack.pop();
                    continue;
                }
                let c = kids[*i];
                *i += 1;
                let k = (c.position.boma, c.position.to_move);
                match colour.get(&k) {
                    Some(1) => {
                        let start = stack.iter().position(|(q, ..)| (q.boma, q.to_move) == k).unwrap();
                        let cyc: Vec<String> =
                            stack[start..].iter().map(|(_, kids, i)| kids[*i - 1].mv.to_string()).collect();
                        println!(
                            "{warriors} warriors, from {:?} {:?}: {}",
                            rows(&stack[start].0),
                            stack[start].0.to_move,
                            cyc.join(" ")
                        );
                        return;
                    }
                    Some(_) => {}
                    None => {
                        colour.insert(k, 1);
                        c.position.children(&rules, &SOWING, &mut buf);
                        let kids = buf.iter().filter(|c| c.captured == 0).copied().collect();
                        stack.push((c.position, kids, 0));
                    }
                }
            }
        }
        println!("{warriors} warriors: no capture-free cycle");
    }
}

fn explore_game_endings() {
    let rules = Rules::default();
    let games: usize = std::env::var("KIOTHI_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    let mut rng = Rng(4242);
    let mut reasons = std::collections::BTreeMap::<String, u64>::new();
    let mut plies_total = 0u64;
    for _ in 0..games {
        let mut g = Game::new(rules, rules.start()).unwrap();
        let mut moves = Vec::new();
        while g.result.is_none() {
            let m = if g.position.is_redistribution() {
                Move::Redistribute(random_redistribution(&g.position, &rules, &mut rng).unwrap())
            } else {
                let l = g.legal_sowings();
                Move::Sow(l[pick(&mut rng, l.len())])
            };
            moves.push(m.to_string());
            g.play(&m).unwrap();
        }
        plies_total += moves.len() as u64;
        let r = g.result.unwrap();
        let key = format!("{:?}", r.reason);
        if r.reason == EndReason::Repetition && !reasons.contains_key(&key) {
            println!("repetition after {} plies: {}", moves.len(), moves.join(" "));
        }
        *reasons.entry(key).or_default() += 1;
    }
    println!("{games} games, {plies_total} plies: {reasons:?}");
}

/// CPU seconds of this thread (Linux; the machine is shared, so wall time says little).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks: f64 = fields.get(11).and_then(|u| u.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}

fn explore_midgame_perft5() {
    let (t, cpu) = (std::time::Instant::now(), cpu_seconds());
    let n = perft(&midgame(), &Rules::default(), &SOWING, 5);
    let (secs, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    let s = SOWING.stats();
    println!(
        "perft 5 = {n} in {secs:.1} s wall, {cpu:.1} s CPU; {s:?}; {:.2} CPU ns/relay in long sowings",
        cpu * 1e9 / s.relays_in_long as f64
    );
}
