//! Property tests of every public parser: no input makes one panic. Each parser gets (a)
//! arbitrary text or bytes, (b) near-valid input, printed from its grammar and then mutated
//! (a digit changed, a huge number, a separator dropped, unicode, empty pieces), and (c) where
//! a printer exists, the round trip `parse(print(x)) == x`.
//!
//! Case counts stay small so the file runs in seconds in debug; `PROPTEST_CASES=N` raises
//! every property to N cases (tests/common/fuzz.rs). Each property prints how many inputs it
//! tried.
mod common;
mod support_fuzz {
    use super::common::fuzz::config;
    use proptest::prelude::*;
    use proptest::sample::Index;
    use proptest::test_runner::{TestCaseError, TestRunner};
    use std::fmt::Debug;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Run `test` on `cases` inputs of `strategy`, print the count, fail with the minimal
    /// failing input (a panic inside `test` is a failure too).
    pub fn check<S>(name: &str, cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
    where
        S: Strategy,
        S::Value: Debug,
    {
        let tried = AtomicU64::new(0);
        ACCEPTED.with(|a| a.set(0));
        let mut runner = TestRunner::new(config(cases));
        let result = runner.run(&strategy, |v| {
            tried.fetch_add(1, Ordering::Relaxed);
            test(v)
        });
        let accepted = ACCEPTED.with(|a| a.get());
        eprintln!("fuzz {name}: {} inputs tried, {accepted} accepted", tried.load(Ordering::Relaxed));
        if let Err(e) = result {
            panic!("{name}: {e}");
        }
    }

    thread_local! {
        static ACCEPTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// Count an input the parser accepted (the rest it refused).
    pub fn accepted() {
        ACCEPTED.with(|a| a.set(a.get() + 1));
    }

    /// Pieces that break parsers: numbers at and past every integer width, signs, exponents,
    /// every separator of the grammars, whitespace, empty, non-ASCII digits and letters,
    /// control characters.
    pub const TOKENS: &[&str] = &[
        "0",
        "1",
        "3",
        "7",
        "9",
        "10",
        "24",
        "25",
        "255",
        "256",
        "65535",
        "65536",
        "4294967295",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999999999999",
        "-1",
        "-0",
        "+1",
        "1e3",
        "1.5",
        "NaN",
        "inf",
        "",
        " ",
        "\t",
        "\n",
        "\r",
        "\0",
        ",",
        ",,",
        ":",
        "::",
        ".",
        "..",
        "..=",
        "...",
        "=",
        "@",
        "*",
        ">",
        "/",
        "-",
        "é",
        "٣",
        "３",
        "🂡",
        "\u{200b}",
        "\u{feff}",
        "all",
        "speeds",
        "speeds:",
        "south",
        "north",
        "remove=",
        "drop=",
        "pit=",
    ];

    pub fn token() -> impl Strategy<Value = &'static str> {
        prop::sample::select(TOKENS)
    }

    /// Text made of grammar pieces in any order.
    pub fn soup() -> impl Strategy<Value = String> {
        prop::collection::vec(token(), 0..10).prop_map(|v| v.concat())
    }

    #[derive(Clone, Debug)]
    pub enum Edit {
        Insert(Index, &'static str),
        Replace(Index, &'static str),
        Delete(Index),
        Truncate(Index),
        /// A digit changed to another digit.
        Digit(Index, char),
        /// A non-alphanumeric character (a separator) dropped.
        DropSeparator(Index),
        /// The whole text doubled (a piece given twice).
        Double,
    }

    pub fn edit() -> impl Strategy<Value = Edit> {
        prop_oneof![
            (any::<Index>(), token()).prop_map(|(i, t)| Edit::Insert(i, t)),
            (any::<Index>(), token()).prop_map(|(i, t)| Edit::Replace(i, t)),
            any::<Index>().prop_map(Edit::Delete),
            any::<Index>().prop_map(Edit::Truncate),
            (any::<Index>(), prop::char::range('0', '9')).prop_map(|(i, d)| Edit::Digit(i, d)),
            any::<Index>().prop_map(Edit::DropSeparator),
            Just(Edit::Double),
        ]
    }

    pub fn apply(s: &str, edits: &[Edit]) -> String {
        let mut c: Vec<String> = s.chars().map(String::from).collect();
        for e in edits {
            let at = |i: &Index, len: usize| if len == 0 { 0 } else { i.index(len) };
            match e {
                Edit::Insert(i, t) => {
                    let k = at(i, c.len() + 1);
                    c.insert(k, t.to_string());
                }
                Edit::Replace(i, t) if !c.is_empty() => {
                    let k = at(i, c.len());
                    c[k] = t.to_string();
                }
                Edit::Delete(i) if !c.is_empty() => {
                    let k = at(i, c.len());
                    c.remove(k);
                }
                Edit::Truncate(i) => {
                    let k = at(i, c.len() + 1);
                    c.truncate(k);
                }
                Edit::Digit(i, d) => {
                    let digits: Vec<usize> =
                        (0..c.len()).filter(|&k| c[k].chars().all(|x| x.is_ascii_digit())).collect();
                    if !digits.is_empty() {
                        c[digits[i.index(digits.len())]] = d.to_string();
                    }
                }
                Edit::DropSeparator(i) => {
                    let seps: Vec<usize> =
                        (0..c.len()).filter(|&k| c[k].chars().all(|x| !x.is_alphanumeric())).collect();
                    if !seps.is_empty() {
                        c.remove(seps[i.index(seps.len())]);
                    }
                }
                Edit::Double => {
                    let again = c.clone();
                    c.extend(again);
                }
                _ => {}
            }
        }
        c.concat()
    }

    /// `valid` text with one to four edits.
    pub fn mutated(valid: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
        (valid, prop::collection::vec(edit(), 1..5)).prop_map(|(s, e)| apply(&s, &e))
    }

    /// Any text: arbitrary unicode, arbitrary bytes read lossily, grammar soup, and near-valid
    /// mutations of `valid`.
    pub fn text(valid: impl Strategy<Value = String> + 'static) -> BoxedStrategy<String> {
        let valid = valid.boxed();
        prop_oneof![
            2 => any::<String>(),
            1 => prop::collection::vec(any::<u8>(), 0..40).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
            3 => soup(),
            2 => valid.clone(),
            6 => mutated(valid),
        ]
        .boxed()
    }

    /// A number as users write one, including ones past every width.
    pub fn number() -> impl Strategy<Value = String> {
        prop_oneof![
            (0u64..30).prop_map(|n| n.to_string()),
            any::<u64>().prop_map(|n| n.to_string()),
            any::<u128>().prop_map(|n| n.to_string()),
            token().prop_map(String::from),
        ]
    }
}

use mancala::games::kiothi::{self, Game, Move, Position, Redistribution, SowMove};
use mancala::games::lukho::{self, choice, Chain, Choice, Race, RaceLabel, Races};
use mancala::range::parse_inclusive;
use mancala::sweep::shard::Shard;
use mancala::sweep::spec::{Base, Spec};
use proptest::prelude::*;
use serde_json::{json, Value as Json};
use support_fuzz::*;

const LUKHO: lukho::Rules = lukho::Rules { chain: Chain::It, keep_one: false };

#[test]
fn range_parse_inclusive() {
    let valid = (number(), prop::sample::select(&["..", "..=", " .. ", "..= "][..]), number(), any::<bool>())
        .prop_map(|(a, sep, b, single)| if single { a } else { format!("{a}{sep}{b}") });
    check("range::parse_inclusive", 2000, text(valid), |s| {
        if let Ok(Some((a, b))) = parse_inclusive(&s) {
            accepted();
            prop_assert!(a <= b, "{s:?} gave {a}..={b}");
        }
        Ok(())
    });
    // Round trip: every inclusive range printed both ways reads back.
    check("range::parse_inclusive round trip", 1000, (any::<u64>(), any::<u64>()), |(x, y)| {
        let (a, b) = (x.min(y), x.max(y));
        accepted();
        prop_assert_eq!(parse_inclusive(&format!("{a}..={b}")), Ok(Some((a, b))));
        prop_assert_eq!(parse_inclusive(&format!("{a}")), Ok(Some((a, a))));
        let want = if b > a { Some((a, b - 1)) } else { None };
        prop_assert_eq!(parse_inclusive(&format!("{a}..{b}")), Ok(want));
        Ok(())
    });
}

#[test]
fn shard_parse_and_env() {
    let valid = prop_oneof![
        (number(), prop::sample::select(&["/", " / ", "//"][..]), number())
            .prop_map(|(k, sep, n)| format!("{k}{sep}{n}")),
        (0u64..10, 1u64..10).prop_map(|(k, n)| format!("{k}/{n}")),
    ];
    check("Shard::parse", 2000, text(valid), |s| {
        if let Ok(sh) = s.parse::<Shard>() {
            accepted();
            prop_assert!(sh.k < sh.n);
            // Any count splits without overflow and inside 0..=count.
            for count in [0, 1, 13, u64::MAX] {
                let (lo, hi) = sh.range(count);
                prop_assert!(lo <= hi && hi <= count);
            }
        }
        Ok(())
    });
    check("Shard::parse round trip", 1000, (any::<u64>(), 1u64..), |(k, n)| {
        let k = k % n;
        accepted();
        prop_assert_eq!(Shard::parse(&format!("{k}/{n}")), Ok(Shard { k, n }));
        Ok(())
    });
    // The scheduler's environment: any subset of the five variables, any values.
    const NAMES: [&str; 5] = [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "JOB_COMPLETION_INDEX",
        "JOB_COMPLETIONS",
    ];
    let value = prop::option::of(prop_oneof![(0u64..6).prop_map(|x| x.to_string()), number(), text(number())]);
    let env = prop::collection::vec(value, 5);
    check("Shard::from_env", 2000, env, |vals| {
        let get = |k: &str| NAMES.iter().position(|n| *n == k).and_then(|i| vals[i].clone());
        if let Ok(Some(sh)) = Shard::from_env(get) {
            accepted();
            prop_assert!(sh.k < sh.n);
        }
        Ok(())
    });
}

/// A SPEC printed from the grammar: a base and up to four filters.
fn spec_text() -> impl Strategy<Value = String> {
    let base = prop_oneof![
        Just("all".to_string()),
        number(),
        (number(), prop::sample::select(&["..", "..="][..]), number()).prop_map(|(a, s, b)| format!("{a}{s}{b}")),
        prop::collection::vec(number(), 1..5).prop_map(|v| v.join(",")),
    ];
    let symbol = prop::sample::select(&["0", "1", "2", "3", "*", "4", ""][..]);
    let filter = prop_oneof![
        (prop::collection::vec(symbol, 6..10), any::<bool>())
            .prop_map(|(v, commas)| format!("remove={}", v.join(if commas { "," } else { "" }))),
        number().prop_map(|d| format!("drop={d}")),
        (number(), prop::sample::select(&["..", "..="][..]), number()).prop_map(|(a, s, b)| format!("drop={a}{s}{b}")),
        number().prop_map(|j| format!("pit={j}")),
        token().prop_map(|k| format!("{k}=1")),
    ];
    (base, prop::collection::vec(filter, 0..4)).prop_map(|(b, f)| {
        let mut s = b;
        for x in f {
            s.push(':');
            s.push_str(&x);
        }
        s
    })
}

#[test]
fn lukho_spec() {
    check("sweep::Spec::parse", 3000, text(spec_text()), |s| {
        if let Ok(spec) = s.parse::<Spec>() {
            accepted();
            // Its own text reads back as the same set.
            prop_assert_eq!(Spec::parse(&spec.to_string()), Ok(spec.clone()));
            if let Some((lo, hi)) = spec.filters.drop {
                prop_assert!(lo <= hi && hi <= 24);
            }
            // Resolving ids against the rules: small sets only (all 6.3 M ids is a sweep).
            let small = match &spec.base {
                Base::All => false,
                Base::Range(lo, hi) => hi.saturating_sub(*lo) <= 5000,
                Base::List(_) => true,
            };
            if small {
                for rules in [LUKHO, lukho::Rules { keep_one: true, ..LUKHO }] {
                    if let Ok(ids) = spec.ids(&rules) {
                        prop_assert!(ids.windows(2).all(|w| w[0] < w[1]));
                        prop_assert!(ids.iter().all(|&i| (i as u64) < Choice::count(&rules)));
                    }
                }
            }
        }
        Ok(())
    });
}

/// Every name-valued parser: race outcomes, race models, race labels, payoffs and the rule and
/// format enums. Their names read back as themselves.
#[test]
fn names() {
    let names: Vec<String> = Race::ALL
        .iter()
        .map(|r| r.name())
        .chain(["sequential", "lockstep", "speeds", "speeds:0", "speeds:4294967295", "speeds:4294967296"])
        .chain(Chain::ALL.iter().map(|c| c.name()))
        .chain(["margin", "result", "points"])
        .chain(mancala::games::oware::GrandSlam::ALL.iter().map(|g| g.name()))
        .chain(mancala::games::oware::Cycle::ALL.iter().map(|g| g.name()))
        .chain(kiothi::Setup::ALL.iter().map(|g| g.name()))
        .chain(kiothi::Redistribute::ALL.iter().map(|g| g.name()))
        .chain(kiothi::NkiClear::ALL.iter().map(|g| g.name()))
        .chain(mancala::export::Format::ALL.iter().map(|g| g.name()))
        .map(String::from)
        .collect();
    let valid = prop::sample::select(names);
    check("names (Race, Races, RaceLabel, Payoff, Chain, rule and format enums)", 3000, text(valid), |s| {
        if let Ok(r) = s.parse::<Race>() {
            prop_assert_eq!(r.name().parse::<Race>(), Ok(r));
        }
        if let Ok(r) = s.parse::<Races>() {
            prop_assert_eq!(r.to_string().parse::<Races>(), Ok(r));
        }
        if let Ok(r) = s.parse::<RaceLabel>() {
            prop_assert_eq!(r.to_string().parse::<RaceLabel>(), Ok(r));
        }
        if let Ok(p) = s.parse::<mancala::opening_game::Payoff>() {
            prop_assert_eq!(p.name().parse::<mancala::opening_game::Payoff>(), Ok(p));
        }
        if let Ok(c) = s.parse::<Chain>() {
            prop_assert_eq!(c.to_string().parse::<Chain>(), Ok(c));
        }
        if let Ok(g) = s.parse::<mancala::games::oware::GrandSlam>() {
            prop_assert_eq!(g.name().parse::<mancala::games::oware::GrandSlam>(), Ok(g));
        }
        if let Ok(g) = s.parse::<mancala::games::oware::Cycle>() {
            prop_assert_eq!(g.name().parse::<mancala::games::oware::Cycle>(), Ok(g));
        }
        if let Ok(g) = s.parse::<kiothi::Setup>() {
            prop_assert_eq!(g.name().parse::<kiothi::Setup>().ok(), Some(g));
        }
        if let Ok(g) = s.parse::<kiothi::Redistribute>() {
            prop_assert_eq!(g.name().parse::<kiothi::Redistribute>().ok(), Some(g));
        }
        if let Ok(g) = s.parse::<kiothi::NkiClear>() {
            prop_assert_eq!(g.name().parse::<kiothi::NkiClear>().ok(), Some(g));
        }
        if let Ok(g) = s.parse::<mancala::export::Format>() {
            prop_assert_eq!(g.name().parse::<mancala::export::Format>().ok(), Some(g));
        }
        if s.parse::<Races>().is_ok()
            || s.parse::<RaceLabel>().is_ok()
            || s.parse::<mancala::opening_game::Payoff>().is_ok()
            || s.parse::<Chain>().is_ok()
            || s.parse::<mancala::games::oware::GrandSlam>().is_ok()
            || s.parse::<mancala::games::oware::Cycle>().is_ok()
            || s.parse::<kiothi::Setup>().is_ok()
            || s.parse::<kiothi::Redistribute>().is_ok()
            || s.parse::<kiothi::NkiClear>().is_ok()
            || s.parse::<mancala::export::Format>().is_ok()
        {
            accepted();
        }
        Ok(())
    });
}

#[test]
fn lukho_removals_and_drops() {
    let remove = (prop::collection::vec(number(), 6..10), prop::sample::select(&[",", ", ", ";"][..]))
        .prop_map(|(v, sep)| v.join(sep));
    let remove_small = prop::collection::vec(0u8..5, 6..10)
        .prop_map(|v| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","));
    let drop = (number(), prop::sample::select(&["@", " @ ", "@@", ":"][..]), number())
        .prop_map(|(d, sep, j)| format!("{d}{sep}{j}"));
    let valid = (prop::collection::vec(0u8..=3, 8), 0u8..8, 0u8..8, prop::sample::select(&["@", " @ "][..])).prop_map(
        |(r, d, j, at)| {
            let hand: u8 = r.iter().sum();
            let r: Vec<String> = r.iter().map(|x| x.to_string()).collect();
            (r.join(","), format!("{}{at}{j}", d.min(hand)))
        },
    );
    let pair = prop_oneof![
        1 => (text(prop_oneof![remove, remove_small]), text(drop)),
        1 => valid.clone(),
        2 => valid.prop_flat_map(|(r, d)| (text(Just(r)), text(Just(d)))),
    ];
    check("lukho choice r0,…,r7 and COUNT@PIT", 3000, pair, |(r, d)| {
        if let Ok(v) = choice::parse_remove(&r) {
            prop_assert!(v.iter().all(|&x| x <= lukho::MAX_REMOVE));
        }
        if let Ok((_, j)) = choice::parse_drop(&d) {
            prop_assert!((j as usize) < lukho::ROW);
        }
        for rules in [LUKHO, lukho::Rules { keep_one: true, ..LUKHO }] {
            if let Ok(c) = Choice::parse(&r, &d, &rules) {
                accepted();
                let back = Choice::parse(&c.remove_string(), &c.drop_string(), &rules);
                prop_assert_eq!(back, Ok(c));
                prop_assert_eq!(Choice::from_id(c.id(&rules), &rules), Ok(c));
            }
        }
        Ok(())
    });
    // Every id (and past the last) decodes or is refused, and decodes back to itself.
    check("lukho Choice::from_id", 2000, prop_oneof![0u64..7_000_000, any::<u64>()], |id| {
        for rules in [LUKHO, lukho::Rules { keep_one: true, ..LUKHO }] {
            match Choice::from_id(id, &rules) {
                Ok(c) => {
                    accepted();
                    prop_assert_eq!(c.id(&rules), id);
                    let printed = Choice::parse(&c.remove_string(), &c.drop_string(), &rules);
                    prop_assert_eq!(printed, Ok(c));
                }
                Err(_) => prop_assert!(id >= Choice::count(&rules)),
            }
        }
        Ok(())
    });
}

/// Kiothi move notation printed from the grammar: `B:K` or `E1,E2>A*C,…`.
fn kiothi_move_text() -> impl Strategy<Value = String> {
    let sow =
        (number(), prop::sample::select(&[":", "::", " : "][..]), number()).prop_map(|(b, s, k)| format!("{b}{s}{k}"));
    let small = (0u8..12, 0u8..40).prop_map(|(b, k)| format!("{b}:{k}"));
    let emptied = prop::collection::vec(prop_oneof![(0u8..11).prop_map(|x| x.to_string()), number()], 0..4);
    let placed = prop::collection::vec(
        (
            prop_oneof![(0u8..21).prop_map(|x| x.to_string()), number()],
            prop_oneof![(0u16..300).prop_map(|x| x.to_string()), number()],
        ),
        0..5,
    );
    let redistribution = (emptied, placed).prop_map(|(e, p)| {
        let p: Vec<String> = p.into_iter().map(|(a, c)| format!("{a}*{c}")).collect();
        format!("{}>{}", e.join(","), p.join(","))
    });
    prop_oneof![sow, small, redistribution]
}

#[test]
fn kiothi_moves() {
    // A parsed move is then checked against a position: the start (a redistribution turn)
    // and a sowing turn.
    let rules = kiothi_rules();
    let mid =
        json!({"pits": [0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 0, 0, 0, 0], "to_move": "south", "turn": 3});
    let games =
        [Game::new(rules, rules.start()).unwrap(), Game::new(rules, Position::from_json(&mid).unwrap()).unwrap()];
    check("kiothi move notation", 3000, text(kiothi_move_text()), |s| {
        if let Ok(m) = s.parse::<Move>() {
            accepted();
            prop_assert_eq!(m.to_string().parse::<Move>().ok(), Some(m));
            for g in &games {
                let _ = g.clone().play(&m);
            }
        }
        if let Ok(m) = s.parse::<SowMove>() {
            prop_assert_eq!(m.to_string().parse::<SowMove>().ok(), Some(m));
        }
        if let Ok(m) = s.parse::<Redistribution>() {
            prop_assert_eq!(m.to_string().parse::<Redistribution>().ok(), Some(m));
        }
        Ok(())
    });
}

fn kiothi_rules() -> kiothi::Rules {
    kiothi::Rules {
        setup: kiothi::Setup::ALL[0],
        redistribute: kiothi::Redistribute::ALL[0],
        nki_clear: kiothi::NkiClear::ALL[0],
        max_relays: None,
    }
}

/// Arbitrary JSON, nested a little.
fn any_json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::from),
        any::<i64>().prop_map(Json::from),
        any::<u64>().prop_map(Json::from),
        (0u64..300).prop_map(Json::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number)),
        any::<String>().prop_map(Json::from),
        prop::sample::select(&["kiothi", "south", "north", "oware"][..]).prop_map(Json::from),
    ];
    leaf.prop_recursive(3, 40, 22, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..22).prop_map(Json::from),
            prop::collection::btree_map(
                prop::sample::select(&["game", "pits", "stores", "to_move", "nki", "turn", "x"][..])
                    .prop_map(String::from),
                inner,
                0..7
            )
            .prop_map(|m| Json::Object(m.into_iter().collect())),
        ]
    })
}

/// A state JSON: a valid position (20 counts, stores, nki only on occupied boma after the
/// redistributions, the mover turns 1 and 2 require), then half the time one field replaced by
/// anything or dropped.
fn kiothi_position_json() -> impl Strategy<Value = Json> {
    let pits = prop::collection::vec(prop_oneof![6 => 0u8..6, 1 => 0u8..=40], 20);
    let turn = prop_oneof![3 => 1u32..12, 1 => any::<u32>()];
    let valid = (pits, prop::collection::vec(0u8..40, 2), any::<u32>(), any::<bool>(), turn).prop_map(
        |(mut pits, stores, nki_bits, north, turn)| {
            while pits.iter().chain(&stores).map(|&x| x as u32).sum::<u32>() > 255 {
                let i = (0..20).max_by_key(|&i| pits[i]).unwrap();
                pits[i] /= 2;
            }
            let occupied = (0..20).filter(|&a| pits[a] > 0).fold(0u32, |m, a| m | 1 << a);
            let nki = if turn <= 2 { 0 } else { nki_bits & occupied };
            let to_move = match turn {
                1 => "south",
                2 => "north",
                _ if north => "north",
                _ => "south",
            };
            let nki: Vec<bool> = (0..20).map(|a| nki >> a & 1 == 1).collect();
            json!({"game": "kiothi", "pits": pits, "stores": stores, "nki": nki, "to_move": to_move, "turn": turn})
        },
    );
    let field = prop::sample::select(&["game", "pits", "stores", "nki", "to_move", "turn"][..]);
    let edit = prop::option::of((field, prop::option::of(any_json())));
    (valid, edit).prop_map(|(mut v, edit)| {
        if let Some((f, value)) = edit {
            match value {
                Some(x) => v[f] = x,
                None => {
                    v.as_object_mut().unwrap().remove(f);
                }
            }
        }
        v
    })
}

/// What a command does with a position it accepted: start a game, list the moves, play one.
fn exercise(p: Position) -> Result<(), TestCaseError> {
    accepted();
    prop_assert_eq!(Position::from_json(&p.to_json()).ok(), Some(p));
    // Without a relay limit a sowing of many more warriors than a setup holds (60) can relay
    // for an astronomically long time before it ends or repeats (e.g. pits 1, 2, …, 20: 210
    // warriors); such positions are played under `--max-relays 1000`.
    let rules =
        if p.warriors() <= 60 { kiothi_rules() } else { kiothi::Rules { max_relays: Some(1000), ..kiothi_rules() } };
    let Ok(mut g) = Game::new(rules, p) else { return Ok(()) };
    // A few plies of listed moves, as a replay would play them.
    for ply in 0..4 {
        let moves = g.legal_sowings();
        if moves.is_empty() {
            break;
        }
        let m = moves[(ply * 7 + p.turn as usize) % moves.len()];
        g.play(&Move::Sow(m)).map_err(|e| TestCaseError::fail(format!("a listed move is illegal: {e}")))?;
    }
    if p.is_redistribution() {
        let _ = p.redistribution_count(&rules);
    }
    Ok(())
}

#[test]
fn kiothi_position_json_file() {
    check("kiothi --position JSON (structured)", 1500, kiothi_position_json(), |v| {
        if let Ok(p) = Position::from_json(&v) {
            exercise(p)?;
        }
        Ok(())
    });
    check("kiothi --position JSON (arbitrary JSON)", 1000, any_json(), |v| {
        if let Ok(p) = Position::from_json(&v) {
            exercise(p)?;
        }
        Ok(())
    });
    // The file's text: a valid file mutated, or anything.
    let valid = kiothi_position_json().prop_map(|v| v.to_string());
    check("kiothi --position JSON (text)", 1500, text(valid), |s| {
        if let Ok(v) = serde_json::from_str::<Json>(&s) {
            if let Ok(p) = Position::from_json(&v) {
                exercise(p)?;
            }
        }
        Ok(())
    });
}

/// `oware replay --start PITS --to-move SIDE --moves …`: from any start the parser accepts
/// (12 counts, at most 48 seeds), under every rule variant, moves legal and not.
#[test]
fn oware_replay_from_any_start() {
    use mancala::games::oware::{seeds, Cycle, Game, GrandSlam, Position, Rules, TOTAL_SEEDS};
    use mancala::side::Side;
    let pits = prop::collection::vec(prop_oneof![4 => 0u8..6, 1 => 0u8..=48], 12).prop_map(|mut v| {
        while v.iter().map(|&x| x as u32).sum::<u32>() > TOTAL_SEEDS {
            let i = (0..12).max_by_key(|&i| v[i]).unwrap();
            v[i] /= 2;
        }
        v
    });
    let moves = prop::collection::vec((any::<proptest::sample::Index>(), prop::bool::weighted(0.9)), 0..120);
    let s = (pits, any::<bool>(), 0..GrandSlam::ALL.len(), 0..Cycle::ALL.len(), moves);
    check("oware replay from any --start", 1500, s, |(pits, north, g, c, moves)| {
        let pits: [u8; 12] = pits.try_into().unwrap();
        let taken = TOTAL_SEEDS - seeds(&pits);
        let to_move = if north { Side::North } else { Side::South };
        let position = Position { pits, stores: [(taken / 2) as u8, (taken - taken / 2) as u8], to_move };
        let rules = Rules { grand_slam: GrandSlam::ALL[g], cycle: Cycle::ALL[c] };
        let mut game = Game::new(rules, position);
        accepted();
        for (k, legal_one) in moves {
            let legal = game.legal();
            let m = if legal_one && !legal.is_empty() { legal[k.index(legal.len())] } else { k.index(8) as u8 };
            let ended = game.result.is_some();
            match game.play(m) {
                Ok(()) => prop_assert!(!ended && legal.contains(&m)),
                Err(_) => prop_assert!(ended || !legal.contains(&m)),
            }
            let p = game.position;
            prop_assert_eq!(seeds(&p.pits) + p.stores[0] as u32 + p.stores[1] as u32, TOTAL_SEEDS);
        }
        Ok(())
    });
}

/// Edits to a file's bytes: flips, truncation, insertion, a byte set.
#[derive(Clone, Debug)]
enum ByteEdit {
    Flip(proptest::sample::Index, u8),
    Set(proptest::sample::Index, u8),
    Truncate(proptest::sample::Index),
    Insert(proptest::sample::Index, Vec<u8>),
}

fn byte_edits() -> impl Strategy<Value = Vec<ByteEdit>> {
    use proptest::sample::Index;
    prop::collection::vec(
        prop_oneof![
            (any::<Index>(), 1u8..).prop_map(|(i, b)| ByteEdit::Flip(i, b)),
            (any::<Index>(), any::<u8>()).prop_map(|(i, b)| ByteEdit::Set(i, b)),
            any::<Index>().prop_map(ByteEdit::Truncate),
            (any::<Index>(), prop::collection::vec(any::<u8>(), 1..9)).prop_map(|(i, b)| ByteEdit::Insert(i, b)),
        ],
        1..4,
    )
}

/// Apply edits within the first `head` bytes (the header) or anywhere when `head` is None.
fn apply_bytes(mut b: Vec<u8>, edits: &[ByteEdit], head: Option<usize>) -> Vec<u8> {
    for e in edits {
        let span = head.unwrap_or(b.len()).min(b.len());
        if span == 0 {
            continue;
        }
        match e {
            ByteEdit::Flip(i, x) => {
                let k = i.index(span);
                b[k] ^= x;
            }
            ByteEdit::Set(i, x) => {
                let k = i.index(span);
                b[k] = *x;
            }
            ByteEdit::Truncate(i) => b.truncate(i.index(b.len() + 1)),
            ByteEdit::Insert(i, x) => {
                let k = i.index(span + 1);
                b.splice(k..k, x.iter().copied());
            }
        }
    }
    b
}

/// A JSON header line's text with one field's value replaced (numbers huge, negative, swapped).
fn json_field_edit() -> impl Strategy<Value = (Index2, Json)> {
    (
        any::<proptest::sample::Index>(),
        prop_oneof![
            any_json(),
            (any::<u64>(), any::<u64>()).prop_map(|(a, b)| json!([a, b])),
            (0u64..10, 0u64..10).prop_map(|(a, b)| json!([a, b])),
            any::<u64>().prop_map(Json::from),
            any::<i64>().prop_map(Json::from),
        ],
    )
}
type Index2 = proptest::sample::Index;

fn replace_field(mut header: Json, at: &Index2, value: Json) -> Json {
    if let Some(o) = header.as_object_mut() {
        let keys: Vec<String> = o.keys().cloned().collect();
        if !keys.is_empty() {
            o.insert(keys[at.index(keys.len())].clone(), value);
        }
    }
    header
}

#[test]
fn sweep_part_files() {
    use mancala::sweep::part::{read_part, write_part};
    use mancala::sweep::summary::{Agg, AGG_INTS};
    let dir = tempfile::tempdir().unwrap();
    let identity = json!({"magic": "mancala-lukho-part", "format": 1, "version": "0", "rules": LUKHO.to_json(), "race": "sequential",
        "south": "0..3", "north": "0..3", "symmetric": false, "south_choices": 3, "north_choices": 3});
    let rows: Vec<(u32, Agg)> = (0..3).map(|i| (i, Agg::from_ints(&[i as i64 + 1; AGG_INTS]))).collect();
    let good = dir.path().join("good.lukho");
    write_part(&good, &identity, Shard { k: 0, n: 1 }, (0, 3), &rows).unwrap();
    assert_eq!(read_part(&good).unwrap().rows, rows);
    let bytes = std::fs::read(&good).unwrap();
    let nl = bytes.iter().position(|&b| b == b'\n').unwrap();
    let header: Json = serde_json::from_slice(&bytes[..nl]).unwrap();
    let body = bytes[nl + 1..].to_vec();
    let path = dir.path().join("fuzz.lukho");

    let cases = prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..200),
        3 => byte_edits().prop_map({
            let bytes = bytes.clone();
            move |e| apply_bytes(bytes.clone(), &e, None)
        }),
        3 => byte_edits().prop_map({
            let bytes = bytes.clone();
            move |e| apply_bytes(bytes.clone(), &e, Some(nl))
        }),
        // A header field changed, the checksum still right: the reader checks every field.
        4 => (json_field_edit(), prop::option::of(byte_edits())).prop_map({
            let (header, body) = (header.clone(), body.clone());
            move |((at, v), body_edit)| {
                let body = match body_edit {
                    Some(e) => apply_bytes(body.clone(), &e, None),
                    None => body.clone(),
                };
                let mut h = replace_field(header.clone(), &at, v);
                if let Some(o) = h.as_object_mut() {
                    if o.contains_key("crc32") {
                        o.insert("crc32".into(), json!(crc32fast::hash(&body)));
                    }
                }
                let mut out = h.to_string().into_bytes();
                out.push(b'\n');
                out.extend(body);
                out
            }
        }),
    ];
    // Rows of any integers, header and checksum consistent with them.
    let int = prop_oneof![0i64..100, any::<i64>(), Just(-1i64), Just(i64::MAX), Just(u32::MAX as i64 + 1)];
    let row = (prop_oneof![0u32..100, any::<u32>()], prop::collection::vec(int, AGG_INTS..=AGG_INTS));
    let built = (prop::collection::vec(row, 0..4), prop::option::of(json_field_edit())).prop_map({
        let header = header.clone();
        move |(mut rows, edit)| {
            rows.sort_by_key(|r| r.0);
            rows.dedup_by_key(|r| r.0);
            let mut body = Vec::new();
            for (id, ints) in &rows {
                let fields: Vec<String> =
                    std::iter::once(id.to_string()).chain(ints.iter().map(i64::to_string)).collect();
                body.extend(fields.join(",").into_bytes());
                body.push(b'\n');
            }
            let mut h = match edit {
                Some((at, v)) => replace_field(header.clone(), &at, v),
                None => header.clone(),
            };
            if let Some(o) = h.as_object_mut() {
                o.insert("rows".into(), json!(rows.len()));
                o.insert("range".into(), json!([0, rows.len()]));
                o.insert("south_choices".into(), json!(rows.len()));
                o.insert("crc32".into(), json!(crc32fast::hash(&body)));
            }
            let mut out = h.to_string().into_bytes();
            out.push(b'\n');
            out.extend(body);
            out
        }
    });
    let cases = prop_oneof![4 => cases, 2 => built];
    check("sweep part file header and rows", 1500, cases, |b| {
        std::fs::write(&path, &b).unwrap();
        if let Ok(p) = read_part(&path) {
            accepted();
            prop_assert_eq!(p.rows.len() as u64, p.range.1 - p.range.0);
            let _ = mancala::sweep::part::combine(vec![p]);
            // What `lukho merge` does with it: combine, then write the summaries.
            let out = dir.path().join("merged");
            let _ = mancala::sweep::merge::merge(&out, std::slice::from_ref(&path));
            let _ = std::fs::remove_dir_all(&out);
        }
        Ok(())
    });
}

#[test]
fn equilibrium_state_files() {
    use mancala::opening_game::{read_state, write_state, State};
    let dir = tempfile::tempdir().unwrap();
    let identity = json!({"race": "sequential", "payoff": "margin", "family": "0..3"});
    let st = State { south: vec![1, 2], north: vec![2], games: 9, seconds: 1.5, ..State::default() };
    let good = dir.path().join("good.lukho-eq");
    write_state(&good, &identity, &st).unwrap();
    assert_eq!(read_state(&good, &identity).unwrap(), st);
    let bytes = std::fs::read(&good).unwrap();
    let nl = bytes.iter().position(|&b| b == b'\n').unwrap();
    let header: Json = serde_json::from_slice(&bytes[..nl]).unwrap();
    let body = bytes[nl + 1..bytes.len() - 1].to_vec();
    let path = dir.path().join("fuzz.lukho-eq");
    let state_body = prop_oneof![
        Just(body.clone()),
        byte_edits().prop_map({
            let body = body.clone();
            move |e| apply_bytes(body.clone(), &e, None)
        }),
        any_json().prop_map(|j| j.to_string().into_bytes()),
    ];
    let cases = prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..200),
        3 => byte_edits().prop_map({
            let bytes = bytes.clone();
            move |e| apply_bytes(bytes.clone(), &e, None)
        }),
        3 => byte_edits().prop_map({
            let bytes = bytes.clone();
            move |e| apply_bytes(bytes.clone(), &e, Some(nl))
        }),
        // A header field or the body changed, the checksum and length recomputed.
        4 => (prop::option::of(json_field_edit()), state_body).prop_map({
            let header = header.clone();
            move |(edit, body)| {
                let mut h = match edit {
                    Some((at, v)) => replace_field(header.clone(), &at, v),
                    None => header.clone(),
                };
                if let Some(o) = h.as_object_mut() {
                    o.insert("crc32".into(), json!(crc32fast::hash(&body)));
                    o.insert("bytes".into(), json!(body.len()));
                }
                let mut out = h.to_string().into_bytes();
                out.push(b'\n');
                out.extend(body);
                out.push(b'\n');
                out
            }
        }),
    ];
    check("equilibrium state file", 1500, cases, |b| {
        std::fs::write(&path, &b).unwrap();
        if read_state(&path, &identity).is_ok() {
            accepted();
        }
        let _ = read_state(&path, &Json::Null);
        Ok(())
    });
}

/// Resuming an equilibrium run from any state whose checksum is right (written by another
/// tool or edited): sets, mixes, log, flags and saved-vector names of any value. The run is
/// refused or resumes; it never panics.
#[test]
fn equilibrium_resume_from_any_state() {
    use mancala::opening_game::{
        read_state, write_state, OpeningGame, Options, Payoff, Quiet, Solver, StopAt, STATE_FILE,
    };
    let def = || OpeningGame {
        rules: LUKHO,
        model: "south-first".parse().unwrap(),
        payoff: Payoff::Margin,
        family: Spec::parse("0..3").unwrap(),
    };
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    let two = Options { stop: StopAt { max_iterations: Some(2), seconds: None }, ..Options::default() };
    let mut solver = Solver::open_with(def(), &real, two).unwrap();
    solver.run(&Quiet).unwrap();
    let identity = solver.identity().clone();
    let base = read_state(&real.join(STATE_FILE), &identity).unwrap();
    let ids = || {
        prop_oneof![
            6 => prop::collection::vec(0u32..3, 1..4),
            1 => prop::collection::vec(prop_oneof![0u32..8, any::<u32>()], 0..4),
        ]
    };
    let mix = || {
        prop::collection::vec(
            (
                prop_oneof![4 => 0u32..3, 1 => any::<u32>()],
                prop_oneof![Just(1.0), Just(0.5), Just(0.0), Just(-1.0), any::<f64>()],
            ),
            0..3,
        )
    };
    let names = prop::collection::btree_map(
        prop_oneof![
            prop::sample::select(&["col-0.i16", "row-1.i16", "col-2.i8", "row-0.i8", "../x", "", "col-9.i16"][..])
                .prop_map(String::from),
            any::<String>()
        ],
        any::<u32>(),
        0..3,
    );
    let cases = (ids(), ids(), mix(), mix(), any::<(bool, bool, bool)>(), 0usize..3, prop::option::of(names));
    let n = std::cell::Cell::new(0);
    check(
        "equilibrium resume from any state",
        200,
        cases,
        |(south, north, sx, nx, (done, stalled, keep_vectors), log, names)| {
            let mut st = base.clone();
            (st.south, st.north, st.south_strategy, st.north_strategy, st.done, st.stalled) =
                (south, north, sx, nx, done, stalled);
            st.log.truncate(log);
            if !keep_vectors {
                st.files.vectors = names.unwrap_or_default();
            }
            n.set(n.get() + 1);
            let run = dir.path().join(format!("r{}", n.get()));
            std::fs::create_dir_all(run.join("columns")).unwrap();
            if keep_vectors {
                for e in std::fs::read_dir(real.join("columns")).unwrap() {
                    let e = e.unwrap();
                    std::fs::copy(e.path(), run.join("columns").join(e.file_name())).unwrap();
                }
            }
            write_state(&run.join(STATE_FILE), &identity, &st).unwrap();
            let next = StopAt { max_iterations: Some(st.log.len() as u32 + 1), seconds: None };
            if let Ok(mut solver) = Solver::open_with(def(), &run, Options { stop: next, ..Options::default() }) {
                accepted();
                if solver.run(&Quiet).is_ok() {
                    let answer = solver.answer(&[]);
                    let _ = solver.write_answer(&answer);
                }
            }
            let _ = std::fs::remove_dir_all(&run);
            Ok(())
        },
    );
}

/// Layer files with random bytes, random edits and edits of the header: never a panic or an
/// abort (a huge string length once made bincode allocate it; the decode is now bounded), and
/// a file that opens either reads back all its values or reports its damage.
#[test]
fn layer_file_headers() {
    use mancala::store::layer_file::{write_layer, Expected, Header, LayerFile, FORMAT_VERSION};
    let dir = tempfile::tempdir().unwrap();
    let header = Header {
        format_version: FORMAT_VERSION,
        game: "oware".into(),
        rules: "{}".into(),
        index_order: "x".into(),
        layer: 2,
        entries: 0,
        checksum: 0,
    };
    let values: Vec<i8> = (0..100).map(|i| (i % 7) as i8 - 3).collect();
    let good = dir.path().join("good.layer");
    write_layer(&good, header, &values).unwrap();
    let open = |p: &std::path::Path| {
        LayerFile::open(
            p,
            &Expected { game: "oware", rules: "{}", index_order: "x", layer: 2, entries: values.len() as u64 },
        )
    };
    assert_eq!(open(&good).unwrap().values().unwrap(), &values[..]);
    let bytes = std::fs::read(&good).unwrap();
    let head = 12 + u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let path = dir.path().join("fuzz.layer");
    let cases = prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..200),
        1 => prop::collection::vec(any::<u8>(), 0..200).prop_map(|mut b| {
            let mut out = b"MNCLADB\0".to_vec();
            out.append(&mut b);
            out
        }),
        2 => byte_edits().prop_map({
            let bytes = bytes.clone();
            move |e| apply_bytes(bytes.clone(), &e, None)
        }),
        4 => byte_edits().prop_map({
            let bytes = bytes.clone();
            move |e| apply_bytes(bytes.clone(), &e, Some(head))
        }),
    ];
    check("layer file header", 1500, cases, |b| {
        std::fs::write(&path, &b).unwrap();
        // Only bytes whose header still reads as the expected one open; the payload size is
        // then right.
        if let Ok(f) = open(&path) {
            let touched: Vec<i8> = (0..values.len() as u64).map(|r| f.value(r)).collect();
            match f.values() {
                Ok(v) => {
                    accepted();
                    prop_assert_eq!(v, &touched[..]);
                    prop_assert_eq!(v.len(), values.len());
                }
                Err(_) => prop_assert!(f.damage().is_err()),
            }
        }
        Ok(())
    });
}
