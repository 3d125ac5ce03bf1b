//! Helpers shared by the test files (each file is its own crate and uses a subset): the binary
//! and its error contract here, `faults` (kills and damage), `fuzz` (the property tests' configuration), `layer_checksums` (the recorded
//! checksums of layers), `tmpfs` (a small file system to fill). The benches read
//! `layer_checksums.rs` too.
#![allow(dead_code)]

use assert_cmd::Command;

pub mod faults;
pub mod fuzz;
pub mod layer_checksums;
pub mod tmpfs;

/// The binary under test.
pub fn mancala() -> Command {
    Command::cargo_bin("mancala").unwrap()
}

/// Run `cmd`, expecting the contract for bad input: exit status 2, nothing on stdout, one line
/// on stderr. Returns that line (with its newline).
pub fn usage_error(cmd: &mut Command) -> String {
    let assert = cmd.assert().code(2).stdout("");
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err}");
    err
}

/// Run a command that must succeed; its stdout.
pub fn stdout(args: &[&str]) -> String {
    let out = mancala().args(args).assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

/// Run a command that must succeed and print one JSON value.
pub fn json_out(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(stdout(args).trim()).unwrap()
}

/// The Lukho rules without variant flags: chain `it`, no keep-one.
pub const LUKHO_RULES: mancala::games::lukho::Rules =
    mancala::games::lukho::Rules { chain: mancala::games::lukho::Chain::It, keep_one: false };
