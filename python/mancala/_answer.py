"""The answer of a ``solve --json`` call, shared by the games: the CLI's JSON fields, typed.

One class for Oware and Kiothi (Kiothi adds the final score and winner), so that the two
modules cannot read the same JSON differently.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Dict, List, Optional, Union


@dataclass(frozen=True)
class MoveBounds:
    """One root move (an Oware pit number, a Kiothi ``B:K``) and the bounds of its value."""

    move: Union[int, str]
    lower: int
    upper: int


@dataclass(frozen=True)
class Solution:
    """``value`` is None unless ``exact``; ``lower``/``upper`` bound it always."""

    value: Optional[int]
    exact: bool
    lower: int
    upper: int
    best_moves: List[Any]
    pv: List[Any]
    moves: List[MoveBounds]
    method: str
    nodes: int
    depth: int
    seconds: float
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Solution":
        plain = {f.name: d[f.name] for f in fields(cls) if f.name not in ("moves", "raw")}
        moves = [MoveBounds(m["move"], m["lower"], m["upper"]) for m in d["moves"]]
        return cls(moves=moves, raw=d, **plain)
