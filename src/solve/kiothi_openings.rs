//! Seeded samples of Kiothi openings and their search-based evaluation.
//!
//! **What is drawn.** Sample `i` is a turn-1 redistribution of South drawn uniformly among all
//! of them (a uniform index below [`Position::redistribution_count`], unranked with
//! [`Position::nth_redistribution`]: every (emptied set, placement) move has the same chance,
//! as docs/rules/kiothi.md K2 counts them), and for it `replies` turn-2 redistributions of North, each
//! uniform among North's moves in the position South left. Draw `(stream, i)` depends only on
//! the seed (SplitMix64), so a sample can be extended or split without changing its rows.
//!
//! **What is measured.** North's best reply cannot be found (about 1.8·10^9 replies per
//! opening, each a full-board middlegame), and the game value of a turn-3 position is far out
//! of reach of search: nothing can be captured until some nki boma have been lifted, so a
//! proven interval at a few plies stays near `±60`. Each turn-3 position (South to move) is
//! therefore given
//! - the **capture balance within a horizon** of D plies ([`crate::search::horizon`]): the net
//!   warriors South captures in the next D plies with best play by both, endings inside the
//!   horizon scored exactly, nothing after it (a heuristic, not the game value), and
//! - the **proven interval** of the real game from a depth-D alpha-beta (`Searcher`), which is
//!   sound but, at these depths, close to `±60`.
//!
//! An opening is summarised by the minimum and the mean of its replies' horizon values:
//! the minimum is "South's value against the best North reply *in the sample*", an optimistic
//! estimate (North's true best reply can only be as good or better for North).

use super::kiothi::{table_bits, KiothiSearch};
use crate::games::kiothi::{Move, Position, Redistribution, Rules, SowMove, SowingCache};
use crate::rng::splitmix64;
use crate::search::horizon::horizon;
use crate::search::{Limits, Searcher};

/// A 128-bit random word for draw `(stream, i)` of `seed`.
fn word(seed: u64, stream: u64, i: u64) -> u128 {
    let s = splitmix64(seed ^ splitmix64(stream.wrapping_mul(0xD1B5_4A32_D192_ED03)));
    let a = splitmix64(s ^ splitmix64(2 * i));
    let b = splitmix64(s ^ splitmix64(2 * i + 1));
    (a as u128) << 64 | b as u128
}

/// A uniform integer below `n` (n >= 1) for draw `(stream, i)`: a 128-bit word reduced mod n
/// (bias below n / 2^128, under 10^-20 for these counts).
pub fn draw(seed: u64, stream: u64, i: u64, n: u128) -> u128 {
    word(seed, stream, i) % n
}

/// A uniform redistribution at `pos` (turn 1 or 2) for draw `(stream, i)`: its index in the
/// enumeration order and the move. `None` if the mover has none (K8).
pub fn uniform_redistribution(
    pos: &Position,
    rules: &Rules,
    seed: u64,
    stream: u64,
    i: u64,
) -> Option<(u128, Redistribution)> {
    let n = pos.redistribution_count(rules).ok()?;
    if n == 0 {
        return None;
    }
    let k = draw(seed, stream, i, n);
    Some((k, pos.nth_redistribution(rules, k).expect("index below the count")))
}

/// A seeded middlegame: uniform South and North redistributions, then `plies` sowing moves
/// each uniform among the legal ones (fewer if the game ends first). Position `i` of `seed`.
pub fn random_midgame(rules: &Rules, sowing: &SowingCache, seed: u64, i: u64, plies: u32) -> Position {
    let mut p = rules.start();
    for turn in 0..2 {
        let (_, r) = uniform_redistribution(&p, rules, seed, 1000 + turn, i).expect("the opening has moves");
        p = p.play(rules, sowing, &Move::Redistribute(r)).expect("a legal redistribution");
    }
    let mut kids = Vec::new();
    for k in 0..plies {
        p.children(rules, sowing, &mut kids);
        if kids.is_empty() {
            break;
        }
        let j = draw(seed, 2000 + k as u64, i, kids.len() as u128) as usize;
        p = kids[j].position;
    }
    p
}

/// One evaluated (South opening, North reply) pair.
#[derive(Clone, Debug)]
pub struct ReplyRow {
    pub sample: u64,
    pub south_index: u128,
    pub south_move: Redistribution,
    pub reply: u64,
    pub north_index: u128,
    pub north_move: Redistribution,
    /// The turn-3 position (South to move).
    pub position: Position,
    /// Capture balance within the horizon, South's view, and the depth it reached.
    pub horizon_value: i32,
    pub horizon_depth: u32,
    pub horizon_best: Vec<SowMove>,
    /// Proven interval of the game value (South's view) and the alpha-beta depth reached.
    pub lower: i32,
    pub upper: i32,
    pub proven_depth: u32,
    pub nodes: u64,
    pub seconds: f64,
}

/// Evaluate `samples` uniform South openings with `replies` uniform North replies each; the
/// horizon and the proven search each get `limits` (depth and/or seconds) per position.
/// `progress` is called after every row.
pub fn evaluate(
    rules: &Rules,
    sowing: &SowingCache,
    samples: u64,
    replies: u64,
    seed: u64,
    limits: Limits,
    progress: &mut dyn FnMut(&ReplyRow),
) -> Vec<ReplyRow> {
    let game = KiothiSearch::new(*rules, sowing, None);
    let start = rules.start();
    let mut rows = Vec::new();
    for i in 0..samples {
        let (south_index, south_move) = uniform_redistribution(&start, rules, seed, 0, i).expect("South has moves");
        let after = start.play(rules, sowing, &Move::Redistribute(south_move)).expect("legal");
        for j in 0..replies {
            let Some((north_index, north_move)) = uniform_redistribution(&after, rules, seed, 1 + i, j) else { break };
            let p = after.play(rules, sowing, &Move::Redistribute(north_move)).expect("legal");
            let t = std::time::Instant::now();
            let h = horizon(&game, &p, limits, 20);
            let mut s = Searcher::new(&game, table_bits(&p).min(20));
            let a = s.analyse(&p, limits);
            let row = ReplyRow {
                sample: i,
                south_index,
                south_move,
                reply: j,
                north_index,
                north_move,
                position: p,
                horizon_value: h.value,
                horizon_depth: h.depth,
                horizon_best: h.best_moves,
                lower: a.bounds.lo,
                upper: a.bounds.hi,
                proven_depth: a.depth,
                nodes: h.nodes + a.nodes,
                seconds: t.elapsed().as_secs_f64(),
            };
            progress(&row);
            rows.push(row);
        }
    }
    rows
}

/// Per South opening: (sample, min, mean of the horizon values over its replies, replies).
pub fn summarise(rows: &[ReplyRow]) -> Vec<(u64, i32, f64, usize)> {
    let mut out: Vec<(u64, i32, f64, usize)> = Vec::new();
    for r in rows {
        match out.last_mut() {
            Some(o) if o.0 == r.sample => {
                o.1 = o.1.min(r.horizon_value);
                o.2 += r.horizon_value as f64;
                o.3 += 1;
            }
            _ => out.push((r.sample, r.horizon_value, r.horizon_value as f64, 1)),
        }
    }
    for o in &mut out {
        o.2 /= o.3 as f64;
    }
    out
}

/// One South opening of a sample: the minimum and the mean of its replies' horizon values.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningSummary {
    pub sample: u64,
    pub south_move: Redistribution,
    pub min: i32,
    pub mean: f64,
    pub replies: usize,
}

/// What a whole sample shows: its openings best first, and totals over every row.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleSummary {
    /// Highest minimum first, then highest mean, then lowest sample number.
    pub openings: Vec<OpeningSummary>,
    /// Alpha-beta and horizon nodes of every row.
    pub nodes: u64,
    /// Shallowest and deepest horizon reached (0, 0 without rows).
    pub horizon_depth: (u32, u32),
    /// Lowest proven lower bound and highest proven upper bound (`None` without rows).
    pub proven_lower_min: Option<i32>,
    pub proven_upper_max: Option<i32>,
}

/// Summarise the rows of [`evaluate`]: each opening by [`summarise`], ranked, with totals.
pub fn summary(rows: &[ReplyRow]) -> SampleSummary {
    let mut per = summarise(rows);
    per.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)).then(a.0.cmp(&b.0)));
    let south_move = |s: u64| rows.iter().find(|r| r.sample == s).map(|r| r.south_move).expect("a row of the sample");
    SampleSummary {
        openings: per
            .into_iter()
            .map(|(sample, min, mean, replies)| OpeningSummary {
                sample,
                south_move: south_move(sample),
                min,
                mean,
                replies,
            })
            .collect(),
        nodes: rows.iter().map(|r| r.nodes).sum(),
        horizon_depth: (
            rows.iter().map(|r| r.horizon_depth).min().unwrap_or(0),
            rows.iter().map(|r| r.horizon_depth).max().unwrap_or(0),
        ),
        proven_lower_min: rows.iter().map(|r| r.lower).min(),
        proven_upper_max: rows.iter().map(|r| r.upper).max(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_ranks_openings_and_totals_rows() {
        let rules = Rules::default();
        let sowing = SowingCache::new();
        let limits = Limits { depth: Some(1), ..Limits::default() };
        let rows = evaluate(&rules, &sowing, 4, 2, 5, limits, &mut |_| {});
        let s = summary(&rows);
        assert_eq!(s.openings.len(), 4);
        // Highest minimum first, then highest mean, then lowest sample.
        for w in s.openings.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            assert!(a.min > b.min || (a.min == b.min && (a.mean > b.mean || a.mean == b.mean && a.sample < b.sample)));
        }
        for o in &s.openings {
            let mine: Vec<_> = rows.iter().filter(|r| r.sample == o.sample).collect();
            assert_eq!(o.replies, mine.len());
            assert_eq!(o.south_move, mine[0].south_move);
            assert_eq!(o.min, mine.iter().map(|r| r.horizon_value).min().unwrap());
        }
        assert_eq!(s.nodes, rows.iter().map(|r| r.nodes).sum::<u64>());
        assert_eq!(s.proven_lower_min, rows.iter().map(|r| r.lower).min());
        assert_eq!(summary(&[]).horizon_depth, (0, 0));
    }

    #[test]
    fn draws_are_reproducible_and_in_range() {
        let rules = Rules::default();
        let p = rules.start();
        let a = uniform_redistribution(&p, &rules, 7, 0, 3).unwrap();
        assert_eq!(a, uniform_redistribution(&p, &rules, 7, 0, 3).unwrap());
        assert_ne!(a.0, uniform_redistribution(&p, &rules, 7, 0, 4).unwrap().0);
        assert_ne!(a.0, uniform_redistribution(&p, &rules, 8, 0, 3).unwrap().0);
        assert!(a.0 < p.redistribution_count(&rules).unwrap());
        assert!(p.check_redistribution(&rules, &a.1).is_ok());
        // Uniform over the 15 emptied pairs weighted by their (equal) placement counts: each
        // pair about 1/15 of 3000 draws.
        let mut per_set = std::collections::HashMap::<u16, u32>::new();
        for i in 0..3000 {
            *per_set.entry(uniform_redistribution(&p, &rules, 1, 0, i).unwrap().1.emptied).or_default() += 1;
        }
        assert_eq!(per_set.len(), 15);
        assert!(per_set.values().all(|&c| (130..=270).contains(&c)), "{per_set:?}");
        let sowing = SowingCache::new();
        let m = random_midgame(&rules, &sowing, 3, 0, 4);
        assert_eq!(m, random_midgame(&rules, &sowing, 3, 0, 4));
        assert!(m.turn <= 7 && m.turn >= 3);
    }
}
