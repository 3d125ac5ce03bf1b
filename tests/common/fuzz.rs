//! The one configuration of every property test (the library's in tests/, the command line's
//! in src/cli/fuzz.rs): how many cases, and no failure files.

use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// `default` cases, or `PROPTEST_CASES` when set: the counts stay small so each file runs in
/// seconds in debug, and one variable raises every property at once.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// [`cases`] cases and no failure files: a failing input becomes a named regression test next
/// to the code it broke instead.
pub fn config(default: u32) -> Config {
    Config { cases: cases(default), failure_persistence: None, ..Config::default() }
}

/// A runner of [`config`] that draws the same values on every run, for tests that draw values
/// one by one (and run the binary on each) rather than through `TestRunner::run`.
pub fn deterministic(default: u32) -> TestRunner {
    TestRunner::new_with_rng(config(default), TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}
