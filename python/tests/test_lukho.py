"""Lukho from Python equals the CLI: choices, play with its trace, sweeps (against summary.csv
read by pandas and polars with no options), the equilibrium; errors are the CLI's lines."""

import json

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import mancala
from mancala import _native, lukho
from conftest import run, run_json, untimed, usage_error

HAND = ["--south-remove", "0,0,0,0,0,0,0,1", "--south-drop", "0@0", "--north-remove", "0,0,0,0,0,0,0,0",
        "--north-drop", "0@0"]


@pytest.mark.parametrize("id", [0, 1, 9, 12_345, 4_000_000, 6_356_991])
def test_choice_from_id_and_back_equal_cli(cli, id):
    want = run_json("lukho", "opening", "--id", id, "--json")
    c = lukho.Choice.from_id(id)
    assert c.raw == want
    back = lukho.Choice.parse(c.remove_text, c.drop_text)
    assert back.id == id and back.raw == want
    assert lukho.Choice.count() == 6_356_992
    assert lukho.Choice.count(keep_one=True) == 5_832_712


def test_choice_errors_are_the_cli_lines(cli):
    assert lukho.Choice.from_id(1).remove_text == "0,0,0,0,0,0,0,1"
    for py, args in [
        (lambda: lukho.Choice.from_id(6_356_992), ["--id", 6_356_992]),
        (lambda: lukho.Choice.parse("4,0,0,0,0,0,0,0", "0@0"), ["--remove", "4,0,0,0,0,0,0,0", "--drop", "0@0"]),
        (lambda: lukho.Choice.parse("0,0,0,0,0,0,0,0", "9@9"), ["--remove", "0,0,0,0,0,0,0,0", "--drop", "9@9"]),
    ]:
        want = usage_error("lukho", "opening", *args)
        with pytest.raises(mancala.MancalaError) as e:
            py()
        assert str(e.value) == want


@pytest.mark.parametrize("race", ["south-first", "north-first", "lockstep-south", "lockstep-north"])
def test_play_and_trace_equal_cli(cli, race):
    want = run_json("lukho", "play", *HAND, "--race", race, "--json")
    lines = [json.loads(l) for l in run("lukho", "play", *HAND, "--race", race, "--trace", "--jsonl").stdout.splitlines()]
    g = lukho.play(("0,0,0,0,0,0,0,1", "0@0"), 0, race)
    assert g.raw == want
    assert g.trace == lines
    assert len(g.trace) == g.turns + 1
    if race == "south-first":
        # Hand-checked (tests/lukho_play.rs): North moves first; the board after the openings.
        assert g.first_player == "north"
        assert g.trace[0]["pits"] == [0, 4, 4, 4, 0, 4, 4, 3, 1, 4, 4, 4, 0, 4, 4, 4]


def test_play_bad_removal_is_the_cli_line(cli):
    bad = list(HAND)
    bad[1] = "9,0,0,0,0,0,0,0"
    want = usage_error("lukho", "play", *bad, "--race", "south-first")
    with pytest.raises(mancala.MancalaError) as e:
        lukho.play(("9,0,0,0,0,0,0,0", "0@0"), 0, "south-first")
    assert str(e.value) == want and want.startswith("--south-remove: ")


SWEEPS = [("0..6", "0..3000", "sequential", False), ("100..140", "all:drop=0:remove=000000**", "lockstep", False),
          ("0..30", None, "sequential", True)]


@pytest.mark.parametrize("south,north,race,symmetric", SWEEPS)
def test_sweep_equals_cli_summary(cli, tmp_path, south, north, race, symmetric):
    args = ["lukho", "sweep", "--south", south, "--race", race, "--out", tmp_path / "sw"]
    args += ["--symmetric"] if symmetric else ["--north", north]
    run(*args)
    got = lukho.sweep(south, north, race, symmetric=symmetric)
    csv = tmp_path / "sw" / "summary.csv"
    # The CSV loads with no options (its rules are in the sidecar summary.meta.json).
    want_pd = pd.read_csv(csv)
    want_pl = pl.read_csv(csv)
    pd.testing.assert_frame_equal(got.to_pandas(), want_pd, check_dtype=False)
    assert pl.from_arrow(got).equals(want_pl)
    meta = json.loads((tmp_path / "sw" / "summary.meta.json").read_text())
    assert json.loads(got.schema.metadata[b"rules"]) == meta["rules"]
    assert meta["version"] == mancala.__version__
    assert [c["name"] for c in meta["columns"]] == got.column_names
    assert (got.column("games").to_numpy() > 0).all()
    s = json.loads((tmp_path / "sw" / "summary.json").read_text())
    assert int(pa.compute.sum(got.column("games")).as_py()) == s["games"]


def test_sweep_table_is_zero_copy(cli):
    cols, _ = _native.lukho_sweep("0..4", "0..500", "sequential")
    games = next(v for n, k, v, _ in cols if n == "games")
    arrow = pa.array(games)
    # NumPy -> Arrow: the Arrow array's data buffer is the NumPy array's memory.
    assert arrow.buffers()[1].address == games.ctypes.data
    t = lukho.sweep("0..4", "0..500", "sequential")
    col = t.column("games").chunk(0)
    back = col.to_numpy(zero_copy_only=True)  # Arrow -> NumPy: no copy (raises otherwise)
    assert back.ctypes.data == col.buffers()[1].address
    # polars keeps the Arrow buffer of a numeric column.
    s = pl.from_arrow(t)["games"]
    assert s.to_numpy().tolist() == back.tolist()


def test_sweep_progress_and_errors(cli):
    seen = []
    t = lukho.sweep("0..3", "0..4000", "sequential", progress=lambda done, total: seen.append((done, total)))
    games = int(pa.compute.sum(t.column("games")).as_py())
    assert seen and seen[-1] == (games, games) and games == 3 * 4000 * 2
    assert all(total == games for _, total in seen)
    # Library-found bad input has the CLI's line (clap's own parse errors are worded by clap).
    args = ["--south", "0..10", "--north", "0..5", "--race", "south-first", "--symmetric"]
    want = usage_error("lukho", "sweep", *args, "--out", "/nonexistent/x")
    with pytest.raises(mancala.MancalaError) as e:
        lukho.sweep("0..10", "0..5", "south-first", symmetric=True)
    assert str(e.value) == want


def test_equilibrium_equals_cli(cli, tmp_path):
    fam = "all:remove=0000000*"
    want = run_json("lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--family", fam,
                    "--out", tmp_path / "cli", "--json")
    eq = lukho.equilibrium("south-first", "margin", tmp_path / "py", family=fam)
    ignore = {"seconds", "out", "iterations_log"}
    strip = lambda d: {k: v for k, v in untimed(d).items() if k not in ignore}  # noqa: E731
    assert strip(eq.raw) == strip(want)
    assert eq.exact and abs(sum(e.weight for e in eq.south) - 1) < 1e-9
    assert eq.lower - 1e-9 <= eq.value <= eq.upper + 1e-9
    assert all(isinstance(e, lukho.MixEntry) and e.choice == str(lukho.Choice.from_id(e.id)) for e in eq.north)


def test_equilibrium_replies_and_budget_equal_cli(cli, tmp_path):
    fam = "all:remove=000000**"
    want = run_json("lukho", "equilibrium", "--race", "south-first", "--payoff", "margin", "--family", fam,
                    "--replies", "4", "--vector-budget", "4096", "--average", "4", "--average-replies", "3",
                    "--average-weights", "optimal", "--restricted-gap", "0.05", "--out", tmp_path / "cli", "--json")
    eq = lukho.equilibrium("south-first", "margin", tmp_path / "py", family=fam, replies=4, vector_budget=4096,
                           average=4, average_replies=3, average_weights="optimal", restricted_gap=0.05)
    log = json.loads((tmp_path / "cli" / "equilibrium.json").read_text())["log"]
    assert any("average_lower" in r for r in log)
    ignore = {"seconds", "out", "iterations_log"}
    strip = lambda d: {k: v for k, v in untimed(d).items() if k not in ignore}  # noqa: E731
    assert strip(eq.raw) == strip(want)
    assert eq.exact
    for bad, line in [(dict(replies=0), "--replies: 0 is not in 1..=100000"),
                      (dict(average=1001), "--average: 1001 is not in 0..=1000"),
                      (dict(average_replies=0), "--average-replies: 0 is not in 1..=100000"),
                      (dict(average_weights="equal"), "--average-weights: `equal`: expected uniform, optimal or anchored"),
                      (dict(vector_budget=0), "--vector-budget: 0; expected a size of at least one byte"),
                      (dict(restricted_gap=-1),
                       "--restricted-gap: `-1`; expected a gap of at least 0 in the payoff's units (0: exact)")]:
        with pytest.raises(mancala.MancalaError) as e:
            lukho.equilibrium("south-first", "margin", tmp_path / "bad", family=fam, **bad)
        assert str(e.value) == line
    assert not (tmp_path / "bad").exists()
