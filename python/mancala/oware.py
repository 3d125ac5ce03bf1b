"""Oware (Abapa): positions, moves, exact solving and endgame databases.

A position is a mover's view: 12 seed counts, the mover's row first (his pits 0..5), then the
opponent's. Values are the net number of the seeds on the board that the mover captures under
perfect play (docs/rules/README.md C4). Rules: ``grand_slam`` (``no-capture`` | ``forbidden`` |
``awari``) and ``cycle`` (``split`` | ``own-rows``), as the CLI's flags.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import pyarrow as pa

from . import _native
from ._answer import MoveBounds, Solution  # noqa: F401 (MoveBounds: public, the moves of a Solution)

Pits = Sequence[int]


@dataclass(frozen=True)
class Move:
    """A legal move: the own pit sown, the seeds it captures, and the child position from the
    next mover's view."""

    move: int
    captured: int
    pits: Tuple[int, ...]


def rules(grand_slam: str = "no-capture", cycle: str = "split") -> Dict[str, Any]:
    """The rules object every output records."""
    return json.loads(_native.oware_rules_json(grand_slam, cycle))


def moves(pits: Pits, *, grand_slam: str = "no-capture", cycle: str = "split") -> List[Move]:
    """The mover's legal moves (empty when the game has ended at this position)."""
    out = json.loads(_native.oware_moves(list(pits), grand_slam, cycle))
    if isinstance(out, dict):
        return []
    return [Move(m["move"], m["captured"], tuple(m["pits"])) for m in out]


def play(pits: Pits, move: int, *, grand_slam: str = "no-capture", cycle: str = "split") -> Move:
    """Play own pit ``move``: the seeds captured and the child from the next mover's view."""
    for m in moves(pits, grand_slam=grand_slam, cycle=cycle):
        if m.move == move:
            return m
    legal = [m.move for m in moves(pits, grand_slam=grand_slam, cycle=cycle)]
    raise _native.MancalaError(f"--moves: `{move}` is not a legal move here (legal: {legal})")


class Game(_native.OwareGame):
    """A game from a position (default: the start), played move by move as ``oware replay``."""

    def __repr__(self) -> str:
        st = self.state()
        return (f"oware.Game(pits={st['pits']}, stores={st['stores']}, to_move={st['to_move']!r}"
                f"{', ended' if st.get('terminal') else ''})")

    def state(self) -> Dict[str, Any]:
        """``{"game", "pits", "stores", "to_move", "terminal"}`` (pits: South's row first)."""
        return json.loads(self.state_json())


def _db_path(db: Union[None, str, os.PathLike, "Database"]) -> Optional[str]:
    if db is None:
        return None
    if isinstance(db, Database):
        return db.path
    return os.fspath(db)


def solve(
    pits: Pits,
    db: Union[None, str, os.PathLike, "Database"] = None,
    time: Optional[float] = None,
    depth: Optional[int] = None,
    *,
    grand_slam: str = "no-capture",
    cycle: str = "split",
) -> Solution:
    """Solve a mover's view (``oware solve``): exact without limits; with ``time`` (seconds) or
    ``depth`` (plies), possibly bounds. ``db`` (a directory or :class:`Database`) is probed
    where it covers the seeds on the board. Releases the GIL."""
    return Solution.from_json(json.loads(_native.oware_solve(list(pits), _db_path(db), depth, time, grand_slam, cycle)))


class Database:
    """An Oware endgame database directory (``oware db build``): every layer present, each
    checked against its checksums as it is read."""

    def __init__(self, path: Union[str, os.PathLike], *, grand_slam: str = "no-capture", cycle: str = "split"):
        self.path = os.fspath(path)
        self._db = _native.OwareDatabase(self.path, grand_slam, cycle)
        self.rules: Dict[str, Any] = json.loads(self._db.rules_json())

    @property
    def max_layer(self) -> int:
        """The largest number of seeds on the board covered."""
        return self._db.max_layer()

    def __repr__(self) -> str:
        return f"oware.Database({self.path!r}, layers 0..={self.max_layer}, grand_slam={self.rules['grand_slam']!r})"

    def probe(self, pits: Pits) -> Optional[int]:
        """The exact value of a mover's view (12 counts, the mover's row first, as ``oware solve
        --pits``): the net number of the seeds on the board that the mover captures under
        perfect play, an ``int`` in ``-seeds..=seeds`` (positive: the mover wins those seeds,
        0: a draw of the board). ``None`` when the position has more seeds than the database
        holds (use :func:`solve`, which searches above it). Raises :class:`MancalaError` on a
        view that is no position, or when the value would come from a damaged block."""
        return self._db.probe(list(pits))

    def stats(self) -> pa.Table:
        """Per layer: ``stones, positions, wins, draws, losses, crc32`` (``db stats --csv``)."""
        d = self._db.stats()
        d.pop("histogram")
        return _table(d, self.rules)

    def histogram(self) -> pa.Table:
        """Per layer and value: ``stones, value, positions`` (``db stats --histogram-csv``)."""
        return _table(self._db.stats()["histogram"], self.rules)

    def layer(self, n: int) -> np.ndarray:
        """Layer ``n``'s values (int8, indexed by rank): the mover's net capture."""
        return self._db.layer(n)

    def layer_table(self, n: int) -> pa.Table:
        """Layer ``n`` as an Arrow table (``rank``, ``value``)."""
        v = self.layer(n)
        return pa.table({"rank": pa.array(np.arange(len(v), dtype=np.int64)), "value": pa.array(v)})


def _table(columns: Dict[str, Any], rules: Dict[str, Any]) -> pa.Table:
    t = pa.table({k: pa.array(v) for k, v in columns.items()})
    return t.replace_schema_metadata({"rules": json.dumps(rules, separators=(",", ":")), "version": _native.__version__})
