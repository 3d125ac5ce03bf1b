"""Shared fixtures: the `mancala` binary the Python results are compared with.

MANCALA_BIN names it; by default the repository's release build (`.ci/run`'s release suite
builds it). MANCALA_PARQUET_BIN names a build with the `parquet` feature for the Parquet export
tests; by default the debug build (`.ci/run` builds it with the feature: arrow/parquet compile
about four times faster unoptimised).
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("MANCALA_BIN", str(REPO / "target" / "release" / "mancala"))
PARQUET_BIN = os.environ.get("MANCALA_PARQUET_BIN", str(REPO / "target" / "debug" / "mancala"))

# What differs between two runs of the same computation: wall-clock figures.
TIMING = {"seconds", "nodes_per_second"}


def run(*args, check=True):
    p = subprocess.run([BIN, *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"{args}: exit {p.returncode}: {p.stderr}")
    return p


def run_json(*args):
    return json.loads(run(*args).stdout)


def untimed(d):
    """A JSON answer without its timing fields, at any depth."""
    if isinstance(d, dict):
        return {k: untimed(v) for k, v in d.items() if k not in TIMING}
    if isinstance(d, list):
        return [untimed(v) for v in d]
    return d


def usage_error(*args):
    """The CLI's one stderr line for bad input (exit 2), without its `error: ` prefix."""
    p = run(*args, check=False)
    assert p.returncode == 2, (args, p.returncode, p.stderr)
    assert p.stdout == ""
    line = p.stderr.strip()
    assert "\n" not in line, line
    assert line.startswith("error: "), line
    return line[len("error: "):]


@pytest.fixture(scope="session")
def cli():
    if not os.access(BIN, os.X_OK):
        pytest.fail(f"{BIN} is not built: run `cargo build --release` (or set MANCALA_BIN)")
    return BIN


@pytest.fixture(scope="session")
def oware_db(tmp_path_factory, cli):
    """An Oware database of every position with up to 8 seeds, built by the CLI."""
    d = tmp_path_factory.mktemp("oware-db")
    run("oware", "db", "build", "--max-stones", 8, "--dir", d)
    return d
