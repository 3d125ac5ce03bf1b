//! Property tests of the command line's own value parsers (`--threads`, `--time`) and of the
//! one-line error rendering: no input panics, and what is accepted is in range.

use super::args::{seconds, threads, Threads, MAX_THREADS};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

/// The property tests' one configuration, shared with the library's (the command line's
/// parsers are the binary's, so these properties live here).
#[path = "../../tests/common/fuzz.rs"]
#[allow(dead_code)]
mod shared;
use shared::config;

/// Run `test` on inputs of `strategy`, print how many were tried, fail with the minimal
/// failing input (a panic is a failure).
pub(crate) fn check<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), proptest::test_runner::TestCaseError>,
) {
    let tried = std::cell::Cell::new(0u64);
    let r = TestRunner::new(config(cases)).run(&strategy, |v| {
        tried.set(tried.get() + 1);
        test(v)
    });
    eprintln!("fuzz {name}: {} inputs tried", tried.get());
    if let Err(e) = r {
        panic!("{name}: {e}");
    }
}

/// Numbers as written on a command line, right and wrong: signs, exponents, spaces, widths.
pub(crate) fn numberish() -> BoxedStrategy<String> {
    prop_oneof![
        any::<String>(),
        "[ +-]?[0-9]{0,25}([.][0-9]{0,5})?([eE][+-]?[0-9]{0,4})? ?",
        "(nan|NaN|inf|-inf|infinity|0x10|1_000|١|５|)",
        any::<f64>().prop_map(|x| x.to_string()),
        any::<u64>().prop_map(|x| x.to_string()),
    ]
    .boxed()
}

#[test]
fn threads_and_seconds_never_panic() {
    check("cli::args threads and seconds", 3000, numberish(), |s| {
        if let Ok(Threads(n)) = threads(&s) {
            prop_assert!((1..=MAX_THREADS).contains(&n));
        }
        if let Ok(t) = seconds(&s) {
            prop_assert!(t.is_finite() && t > 0.0 && t <= 1e9);
        }
        Ok(())
    });
}

#[test]
fn error_lines_are_one_line() {
    let text = prop_oneof![any::<String>(), "(Usage: x|For more information|error: y|\n|\r\n| |;|:){0,12}"];
    check("cli one-line error rendering", 2000, text, |s| {
        prop_assert_eq!(super::one_line(&s).lines().count(), s.lines().count().min(1));
        prop_assert!(super::clap_one_line(&s).lines().count() <= 1);
        Ok(())
    });
}
