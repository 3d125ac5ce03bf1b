//! Helpers shared by the CLI test files (each file is its own crate and uses a subset).
#![allow(dead_code)]

use assert_cmd::Command;

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
