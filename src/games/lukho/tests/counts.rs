//! Counts, perft style: numbers the engine must reproduce exactly, kept as data in
//! `tests/data/lukho/` with where each number came from.

use super::*;

/// The data lines of a file of `tests/data/lukho/` (`#` starts a comment), split into fields.
fn data(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    text.lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect())
}

/// Choices per player under each rule set (how the numbers were found: in the file).
fn expected_choice_count(rules: &Rules) -> u64 {
    let name = if rules.keep_one { "keep-one" } else { "default" };
    let row = data(include_str!("../../../../tests/data/lukho/choice_counts.txt")).find(|f| f[0] == name);
    row.expect("a row per rule set")[1].parse().unwrap()
}

#[test]
fn choice_count() {
    for keep_one in [false, true] {
        let rules = Rules { chain: Chain::It, keep_one };
        assert_eq!(Choice::count(&rules), expected_choice_count(&rules), "keep_one {keep_one}");
    }
}

/// Every id in one pass: enumerate choices in the defining order (removals lexicographic,
/// then d = 0, then d = 1..=max with j = 0..7) and check both directions against a counter.
fn check_bijection(rules: &Rules) {
    let mut next = 0u64;
    for code in 0..4u32.pow(8) {
        let mut remove = [0u8; 8];
        for (i, r) in remove.iter_mut().enumerate() {
            *r = ((code >> (2 * (7 - i))) & 3) as u8;
        }
        let h: u8 = remove.iter().sum();
        let max = if rules.keep_one && h > 0 { h - 1 } else { h };
        let mut visit = |d: u8, j: u8| {
            let c = Choice { remove, drop: d, pit: j };
            assert_eq!(c.id(rules), next, "{c}");
            assert_eq!(Choice::from_id(next, rules).unwrap(), c, "id {next}");
            next += 1;
        };
        visit(0, 0);
        for d in 1..=max {
            for j in 0..8 {
                visit(d, j);
            }
        }
    }
    assert_eq!(next, Choice::count(rules));
    assert_eq!(next, expected_choice_count(rules));
}

#[test]
fn choice_id_bijection_default() {
    check_bijection(&Rules::default());
}

#[test]
fn choice_id_bijection_keep_one() {
    check_bijection(&Rules { chain: Chain::It, keep_one: true });
}

/// Outcome counts of South `3456789` and `1234567` against 2,000 North choices spread over
/// every id (`0, 3178, 6356, …`) under every race outcome and chain rule: the engine's aggregate and the reference engine's, game by game, must both
/// equal the table (where the reference gives up on a perpetual opening's long cycle, the
/// engine must have found one, and its split is counted).
#[test]
fn outcome_counts_match_the_table() {
    let proven = ProvenCycles::new();
    let table: Vec<Vec<&str>> = data(include_str!("../../../../tests/data/lukho/outcome_counts.txt")).collect();
    let mut got_rows = Vec::new();
    for (chain, south) in [Chain::It, Chain::En, Chain::None].into_iter().flat_map(|c| [(c, 3_456_789), (c, 1_234_567)])
    {
        let rules = Rules { chain, keep_one: false };
        let s = Choice::from_id(south, &rules).unwrap();
        for race in [Race::SouthFirst, Race::NorthFirst, Race::LockstepSouth, Race::LockstepNorth] {
            // wins, draws, losses, normal, cycle, perpetual-opening, perpetual-turn, Σ margin ×2
            let mut c = [0i64; 8];
            for k in 0..2000 {
                let n = Choice::from_id(k * 3178, &rules).unwrap();
                let g = play_game(&rules, &proven, &s, &n, race);
                match super::reference::game(&rules, &s, &n, race) {
                    Ok(want) => assert_eq!(
                        (g.class, g.final_totals.map(|h| h.0), g.turns, g.first_player),
                        want,
                        "{n} {race:?}"
                    ),
                    Err(()) => assert_eq!(g.class, Class::PerpetualOpening, "{n} {race:?}"),
                }
                c[match g.margin.0 {
                    m if m > 0 => 0,
                    0 => 1,
                    _ => 2,
                }] += 1;
                c[3 + g.class as usize] += 1;
                c[7] += g.margin.0 as i64;
            }
            let row: Vec<String> = [chain.name().to_string(), south.to_string(), race.name().to_string()]
                .into_iter()
                .chain(c.map(|x| x.to_string()))
                .collect();
            got_rows.push(row.join(" "));
        }
    }
    let want_rows: Vec<String> = table.iter().map(|f| f.join(" ")).collect();
    assert_eq!(got_rows, want_rows, "got:\n{}", got_rows.join("\n"));
}
