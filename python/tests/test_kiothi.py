"""Kiothi from Python equals the CLI: positions from JSON, moves, perft, solve."""

import json

import pytest

import mancala
from mancala import kiothi
from conftest import run, run_json, untimed, usage_error

# tests/kiothi_solve.rs: one South warrior on own boma 3, one North warrior on nki boma 15;
# South wins both board warriors (K8 eleven plies on), best move 3:1.
ENDGAME = {"game": "kiothi", "pits": [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0],
           "nki": [i == 15 for i in range(20)], "to_move": "south", "turn": 7}


def write(tmp_path, d):
    f = tmp_path / "p.json"
    f.write_text(json.dumps(d))
    return f


def test_solve_equals_cli_and_the_hand_value(cli, tmp_path):
    f = write(tmp_path, ENDGAME)
    want = run_json("kiothi", "solve", "--position", f, "--json")
    p = kiothi.Position.from_json(ENDGAME)
    s = p.solve()
    assert untimed(s.raw) == untimed(want)
    assert (s.value, s.exact, s.best_moves, len(s.pv)) == (2, True, ["3:1"], 11)
    assert (s.score, s.winner) == ([2.0, 0.0], "south")
    b = p.solve(depth=1)
    assert untimed(b.raw) == untimed(run_json("kiothi", "solve", "--position", f, "--depth", 1, "--json"))
    assert not b.exact and b.lower <= 2 <= b.upper


def test_moves_and_perft_equal_cli(cli, tmp_path):
    f = write(tmp_path, ENDGAME)
    p = kiothi.Position.from_json(json.dumps(ENDGAME))
    assert p.state == kiothi.Position(p.state).state
    for depth in [1, 2, 3]:
        want = run_json("kiothi", "perft", "--position", f, "--depth", depth, "--json")
        assert p.perft(depth) == want["nodes"]
    assert len(p.moves()) == p.perft(1)
    replay = json.loads(run("kiothi", "replay", "--position", f, "--moves", p.moves()[0], "--jsonl").stdout.splitlines()[0])
    assert p.moves() == replay["legal"]
    # The start: 300,450,150 redistributions on turn 1 (results/kiothi/opening-counts.csv).
    start = kiothi.Position.start()
    assert start.moves() == 300_450_150 == start.perft(1)


def test_bad_positions_raise_the_cli_line(cli, tmp_path):
    for text in ["{\"game\":\"kiothi\",\"pits\":[1,2", json.dumps(dict(ENDGAME, pits=[1] * 3)),
                 json.dumps(dict(ENDGAME, game="oware"))]:
        f = tmp_path / "bad.json"
        f.write_text(text)
        want = usage_error("kiothi", "solve", "--position", f)
        with pytest.raises(mancala.MancalaError) as e:
            kiothi.Position.from_json(text).solve()
        assert str(e.value) == want and want.startswith("--position: ")
    start = tmp_path / "start.json"
    start.write_text(json.dumps(kiothi.Position.start().state))
    want = usage_error("kiothi", "solve", "--position", start)
    with pytest.raises(mancala.MancalaError) as e:
        kiothi.Position.start().solve()
    assert str(e.value) == want
