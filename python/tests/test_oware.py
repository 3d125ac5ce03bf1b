"""Oware from Python equals the CLI: solve (search and database), moves and play, database
probe and stats; bad input raises the CLI's one line."""

import pandas as pd
import pytest

import mancala
from mancala import oware
from conftest import run, run_json, untimed, usage_error

PITS = [0, 0, 0, 0, 1, 2, 1, 0, 0, 0, 0, 3]


def test_solve_equals_cli(cli):
    want = run_json("oware", "solve", "--pits", ",".join(map(str, PITS)), "--json")
    got = oware.solve(PITS)
    assert untimed(got.raw) == untimed(want)
    # Hand-checked (README): the mover's best is pit 5 for a net 0; pit 4 loses 3.
    assert (got.value, got.exact, got.best_moves) == (0, True, [5])
    assert [(m.move, m.lower, m.upper) for m in got.moves] == [(4, -3, -3), (5, 0, 0)]


def test_bounded_solve_equals_cli(cli):
    want = run_json("oware", "solve", "--pits", ",".join(map(str, PITS)), "--depth", 3, "--json")
    got = oware.solve(PITS, depth=3)
    assert untimed(got.raw) == untimed(want)
    assert not got.exact and got.value is None and got.lower <= 0 <= got.upper


def test_database_solve_probe_and_stats_equal_cli(cli, oware_db, tmp_path):
    pits = [0, 0, 0, 1, 2, 1, 0, 0, 1, 0, 0, 1]
    want = run_json("oware", "solve", "--pits", ",".join(map(str, pits)), "--db", oware_db, "--json")
    db = oware.Database(oware_db)
    got = oware.solve(pits, db=db)
    assert untimed(got.raw) == untimed(want)
    assert got.method == "db"
    assert db.probe(pits) == got.value == oware.solve(pits).value
    assert db.max_layer == 8
    assert db.probe([4] * 12) is None  # 48 seeds: not in the database
    # Stats equal `db stats --csv` (read with no options: the rules are in the sidecar).
    csv, hist = tmp_path / "layers.csv", tmp_path / "hist.csv"
    run("oware", "db", "stats", "--dir", oware_db, "--csv", csv, "--histogram-csv", hist)
    pd.testing.assert_frame_equal(db.stats().to_pandas(), pd.read_csv(csv, dtype={"crc32": str}))
    pd.testing.assert_frame_equal(db.histogram().to_pandas(), pd.read_csv(hist))
    # One seed on the board, 12 positions: the mover wins it iff he can keep it (oware_cli.rs).
    s = db.stats().to_pandas()
    assert s.loc[1, "positions"] == 12 and s.loc[0, "positions"] == 1
    layer1 = db.layer(1)
    assert layer1.dtype.name == "int8" and len(layer1) == 12
    # Layer 1 against results/oware/layers.csv (shipped, checked by tests/layer_checksums.rs):
    # 5 wins, 0 draws, 7 losses; the layer's values agree with its stats and histogram.
    shipped = pd.read_csv(__import__("conftest").REPO / "results" / "oware" / "layers.csv")
    assert shipped.loc[1, ["wins", "draws", "losses"]].tolist() == [5, 0, 7]
    assert ((layer1 > 0).sum(), (layer1 == 0).sum(), (layer1 < 0).sum()) == (5, 0, 7)
    pd.testing.assert_frame_equal(s.drop(columns="crc32"), shipped.loc[: db.max_layer].drop(columns="crc32"))
    assert (s["crc32"] == shipped.loc[: db.max_layer, "crc32"].astype(str)).all()
    assert (s["wins"] + s["draws"] + s["losses"] == s["positions"]).all()
    assert db.rules == oware.rules() == {"game": "oware", "grand_slam": "no-capture", "cycle": "split"}
    # Readable reprs: what a notebook shows.
    assert repr(db) == f"oware.Database({str(oware_db)!r}, layers 0..=8, grand_slam='no-capture')"
    g = oware.Game()
    g.play(5)
    assert repr(g) == f"oware.Game(pits={g.state()['pits']}, stores=[0, 0], to_move='north')"


def test_moves_and_play_equal_replay(cli):
    lines = [__import__("json").loads(l) for l in run("oware", "replay", "--moves", "5,0,3", "--jsonl").stdout.split("\n") if l]
    g = oware.Game()
    for ply, line in enumerate(lines[:3]):
        assert g.legal() == line["legal"]
        s = g.state()
        assert (s["pits"], s["stores"], s["to_move"]) == (line["pits"], line["stores"], line["to_move"])
        g.play(line["move"])
    assert g.state()["pits"] == lines[3]["pits"]
    # The start: six moves, each sowing 4 seeds into the next pits (mover's view, flipped).
    ms = oware.moves([4] * 12)
    assert [m.move for m in ms] == [0, 1, 2, 3, 4, 5]
    assert ms[5].pits == (5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 0)
    assert oware.play([4] * 12, 5).captured == 0


@pytest.mark.parametrize("pits", [[4, 4, 4], [9] * 6 + [0] * 6, [4] * 11 + [49]])
def test_bad_pits_raise_the_cli_line(cli, pits):
    want = usage_error("oware", "solve", "--pits", ",".join(map(str, pits)))
    with pytest.raises(mancala.MancalaError) as e:
        oware.solve(pits)
    assert str(e.value) == want
    assert isinstance(e.value, ValueError)


def test_own_rows_refused_as_the_cli_does(cli):
    want = usage_error("oware", "solve", "--pits", ",".join(map(str, PITS)), "--cycle", "own-rows")
    with pytest.raises(mancala.MancalaError, match="^--cycle: ") as e:
        oware.solve(PITS, cycle="own-rows")
    assert str(e.value) == want


def test_solve_releases_the_gil(cli):
    import threading, time
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    start = time.monotonic()
    oware.solve(PITS)  # about a second of search
    took = time.monotonic() - start
    stop.set()
    t.join()
    # The other thread ran throughout the solve, not only before and after it.
    during = [x for x in ticks if start + 0.1 < x < start + took - 0.1]
    assert took < 0.3 or len(during) >= 5, (took, len(during))
