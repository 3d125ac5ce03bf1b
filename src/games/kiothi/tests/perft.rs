//! Perft counts and opening counts from `tests/data/kiothi/` (each row says what confirms it),
//! checked against the engine and, where the row says `reference`, against the reference.

use super::*;

const PERFT: &str = include_str!("../../../../tests/data/kiothi/perft.csv");
const OPENING_COUNTS: &str = include_str!("../../../../tests/data/kiothi/opening-counts.csv");

/// Rows above this many nodes meet sowings of up to 10^9 relays: the midgame at depth 5 is
/// the benchmark `kiothi_perft`'s (benches/kiothi_perft.rs), which asserts its count.
const QUICK_NODES: u64 = 1_000_000;

/// The data rows of a CSV file (comments and the header skipped), split at commas.
fn rows_of(csv: &str) -> impl Iterator<Item = Vec<&str>> {
    csv.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).skip(1).map(|l| l.split(',').collect())
}

/// Rules from the variant flags of a `rules` column (`--flag value` pairs; empty = defaults).
fn rules_of(flags: &str) -> Rules {
    let mut rules = Rules::default();
    let words: Vec<&str> = flags.split_whitespace().collect();
    for pair in words.chunks(2) {
        match pair {
            ["--setup", v] => rules.setup = v.parse().unwrap(),
            ["--redistribute", v] => rules.redistribute = v.parse().unwrap(),
            ["--nki-clear", v] => rules.nki_clear = v.parse().unwrap(),
            ["--max-relays", v] => rules.max_relays = Some(v.parse().unwrap()),
            other => panic!("rules column: {other:?}"),
        }
    }
    rules
}

fn position_of(file: &str) -> Position {
    match file {
        "tiny-opening.json" => tiny_opening(),
        "midgame.json" => midgame(),
        "endgame.json" => endgame(),
        "perpetual.json" => perpetual_position(),
        other => panic!("unknown position file {other}"),
    }
}

/// Check every perft row with `select(nodes)`: the engine's count, the reference's where the
/// row says so, and that `divide` at the deepest row of each (position, rules) sums to it.
fn check_perft(select: impl Fn(u64) -> bool) {
    let mut deepest = std::collections::BTreeMap::new();
    for row in rows_of(PERFT) {
        let [file, flags, depth, nodes, source] = row[..] else { panic!("perft.csv row {row:?}") };
        let (depth, nodes): (u32, u64) = (depth.parse().unwrap(), nodes.parse().unwrap());
        if !select(nodes) {
            continue;
        }
        let (p, rules) = (position_of(file), rules_of(flags));
        let t = std::time::Instant::now();
        let got = perft(&p, &rules, &SOWING, depth);
        println!("perft {file} [{flags}] depth {depth}: {got} ({:.3} s)", t.elapsed().as_secs_f64());
        assert_eq!(got, nodes, "{file} [{flags}] depth {depth}");
        match source {
            "reference" => assert_eq!(reference::perft(&p, &rules, depth), nodes, "{file} [{flags}] depth {depth}"),
            "engine" => {}
            other => panic!("perft.csv: unknown source {other}"),
        }
        deepest.insert((file, flags), (depth, nodes));
    }
    assert!(!deepest.is_empty());
    for ((file, flags), (depth, nodes)) in deepest {
        let parts = divide(&position_of(file), &rules_of(flags), &SOWING, depth).unwrap();
        assert_eq!(parts.iter().map(|(_, n)| *n).sum::<u128>(), nodes as u128, "divide {file} [{flags}] {depth}");
    }
}

#[test]
fn perft_counts() {
    check_perft(|nodes| nodes <= QUICK_NODES);
}

#[test]
fn opening_counts() {
    for row in rows_of(OPENING_COUNTS) {
        let [setup, redistribute, one, two] = row[..] else { panic!("opening-counts.csv row {row:?}") };
        let rules =
            Rules { setup: setup.parse().unwrap(), redistribute: redistribute.parse().unwrap(), ..Rules::default() };
        let p = rules.start();
        assert_eq!(p.redistribution_count(&rules).unwrap().to_string(), one, "{setup} {redistribute}");
        assert_eq!(p.redistribution_count_two_plies(&rules).unwrap().to_string(), two, "{setup} {redistribute}");
        assert_eq!(perft_u128(&p, &rules, &SOWING, 2).to_string(), two);
    }
    // Without South putting anything on North's row North would have 15 · C(29, 19) each
    // time; South's placements only ever add choices and warriors, so the sum is larger.
    let rules = Rules::default();
    assert!(rules.start().redistribution_count_two_plies(&rules).unwrap() > 300_450_150u128 * 300_450_150);
}

#[test]
fn divide_refuses_to_list_a_full_opening() {
    let rules = Rules::default();
    assert!(matches!(
        divide(&rules.start(), &rules, &SOWING, 1),
        Err(KiothiError::TooManyMoves { count: 300_450_150, .. })
    ));
}
