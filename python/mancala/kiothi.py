"""Kiothi: positions from the state JSON, legal moves, perft, exact solving (turn >= 3).

Rules: ``setup`` (``6x5`` | ``5x5`` | ``5x6``), ``redistribute``, ``nki_clear``, ``max_relays``,
as the CLI's flags. Values are net warriors of those on the board, mover's view.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Union

from . import _answer, _native
from ._answer import MoveBounds  # noqa: F401 (public, the moves of a Solution)


@dataclass(frozen=True)
class Solution(_answer.Solution):
    """The answer of ``kiothi solve --json``: with the final totals and the winner when exact."""

    score: Optional[List[float]] = None
    winner: Optional[str] = None


class Position:
    """A checked Kiothi position under a rule set."""

    def __init__(self, state: Union[None, str, Dict[str, Any]] = None, *, setup: str = "6x5",
                 redistribute: str = "exactly-2", nki_clear: str = "lift", max_relays: Optional[int] = None):
        self._rules = dict(setup=setup, redistribute=redistribute, nki_clear=nki_clear, max_relays=max_relays)
        self._text = None if state is None else (state if isinstance(state, str) else json.dumps(state))
        d = json.loads(_native.kiothi_state(self._text, **self._rules))
        self.state: Dict[str, Any] = d["position"]
        self._legal = d["legal"]
        self.terminal: bool = d["terminal"]
        if self._text is None:
            self._text = json.dumps(self.state)

    @classmethod
    def from_json(cls, state: Union[str, Dict[str, Any]], **rules: Any) -> "Position":
        """From the state object (``{"game":"kiothi","pits":[20 counts],…}``) or its text."""
        return cls(state, **rules)

    @classmethod
    def start(cls, **rules: Any) -> "Position":
        return cls(None, **rules)

    def to_json(self) -> Dict[str, Any]:
        return self.state

    def moves(self) -> Union[List[str], int, None]:
        """The legal sowings (``B:K``) as ``kiothi replay`` lists them; on the redistribution
        turns 1 and 2 their number instead (too many to list)."""
        if isinstance(self._legal, str):
            return int(self._legal)
        return self._legal

    def perft(self, depth: int) -> int:
        """Leaves of the move tree ``depth`` plies deep (``kiothi perft``). Releases the GIL."""
        return int(_native.kiothi_perft(depth, self._text, **self._rules))

    def solve(self, depth: Optional[int] = None, time: Optional[float] = None, nodes: Optional[int] = None,
              db: Union[None, str, os.PathLike] = None) -> Solution:
        """``kiothi solve``: exact without limits, else honest bounds. Releases the GIL."""
        return Solution.from_json(json.loads(_native.kiothi_solve(
            self._text, depth, time, nodes, None if db is None else os.fspath(db), **self._rules)))

    def __repr__(self) -> str:
        return f"kiothi.Position({json.dumps(self.state)})"
