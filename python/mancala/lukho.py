"""Lukho: opening choices, one game with its trace, opening sweeps, the opening equilibrium.

A choice is a removal ``r0,…,r7`` (own pit indices, 0..3 seeds each) and a drop ``COUNT@PIT``
into the opponent's pit ``PIT``; its id runs over ``0..6,356,992`` (default rules). Rules:
``chain`` (``it`` | ``en`` | ``none``) and ``keep_one``, as the CLI's flags. Races: ``south-first``,
``north-first``, ``lockstep-south``, ``lockstep-north``, ``speeds:K``; sweeps also take the models
``sequential``, ``lockstep`` and ``speeds``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import pyarrow as pa

from . import _native
from ._progress import Progress, callback


@dataclass(frozen=True)
class Choice:
    """One player's opening choice (``lukho opening``)."""

    id: int
    remove: Tuple[int, ...]
    drop: int
    pit: int
    hand: int
    sow: int
    remove_text: str
    drop_text: str
    chain: str = "it"
    keep_one: bool = False
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def _from(cls, d: Dict[str, Any]) -> "Choice":
        r = d["rules"]
        return cls(d["id"], tuple(d["remove"]), d["drop"], d["pit"], d["hand"], d["sow"], d["text"]["remove"],
                   d["text"]["drop"], r["chain"], r["keep_one"], d)

    @classmethod
    def from_id(cls, id: int, *, chain: str = "it", keep_one: bool = False) -> "Choice":
        return cls._from(json.loads(_native.lukho_choice_from_id(id, chain, keep_one)))

    @classmethod
    def parse(cls, remove: str, drop: str, *, chain: str = "it", keep_one: bool = False) -> "Choice":
        """From the text forms: ``"0,0,0,0,0,0,0,1"`` and ``"2@5"``."""
        return cls._from(json.loads(_native.lukho_choice_parse(remove, drop, chain, keep_one)))

    @staticmethod
    def count(*, chain: str = "it", keep_one: bool = False) -> int:
        """How many choices there are under these rules."""
        return json.loads(_native.lukho_choice_from_id(0, chain, keep_one))["of"]

    def __int__(self) -> int:
        return self.id

    def __str__(self) -> str:
        return f"{self.remove_text} {self.drop_text}"


ChoiceLike = Union[Choice, int, Tuple[str, str]]


def _texts(c: ChoiceLike, chain: str, keep_one: bool) -> Tuple[str, str]:
    if isinstance(c, Choice):
        return c.remove_text, c.drop_text
    if isinstance(c, int):
        ch = Choice.from_id(c, chain=chain, keep_one=keep_one)
        return ch.remove_text, ch.drop_text
    remove, drop = c
    return remove, drop


@dataclass(frozen=True)
class Game:
    """One played game (``lukho play --json``), with the board at the start of every turn
    (``trace``: the ``--trace --jsonl`` lines)."""

    race: str
    first_player: str
    stores: Tuple[float, float]
    winner: str
    margin: float
    cls: str
    turns: int
    points_first_game: int
    points_later_game: int
    south: Dict[str, Any]
    north: Dict[str, Any]
    trace: List[Dict[str, Any]] = field(repr=False)
    raw: Dict[str, Any] = field(repr=False, compare=False)


def play(south: ChoiceLike, north: ChoiceLike, race: str, *, chain: str = "it", keep_one: bool = False) -> Game:
    """Play one game: both openings (choices, ids or ``(remove, drop)`` texts), the race
    outcome, then the forced turns."""
    sr, sd = _texts(south, chain, keep_one)
    nr, nd = _texts(north, chain, keep_one)
    d = json.loads(_native.lukho_play(sr, sd, nr, nd, race, chain, keep_one))
    r = d["result"]
    return Game(r["race"], r["first_player"], tuple(r["stores"]), r["winner"], r["margin"], r["class"], r["turns"],
                r["points_first_game"], r["points_later_game"], r["south"], r["north"], d["trace"], r)


def sweep(
    south: Union[str, int],
    north: Union[None, str, int] = None,
    race: str = "sequential",
    *,
    symmetric: bool = False,
    chain: str = "it",
    keep_one: bool = False,
    progress: Progress = None,
) -> pa.Table:
    """Every South choice of the SPEC ``south`` against every North choice of ``north`` (or,
    with ``symmetric``, the same choice mirrored), under every outcome of the race model: one
    row per South choice with the columns of ``summary.csv``. The numeric columns are NumPy
    buffers wrapped by Arrow without a copy; ``to_pandas()`` / ``polars.from_arrow`` read them.
    The schema metadata holds ``rules`` and the sweep's ``identity``. Releases the GIL."""
    cb = callback(progress, "games")
    cols, identity = _native.lukho_sweep(str(south), None if north is None else str(north), race, symmetric, chain,
                                         keep_one, cb)
    arrays, names = [], []
    for name, kind, values, nulls in cols:
        names.append(name)
        if kind == "str":
            arrays.append(pa.array(values, type=pa.string()))
        elif nulls is None:
            arrays.append(pa.array(values))  # zero-copy: Arrow wraps the NumPy buffer
        else:
            arrays.append(pa.array(values, mask=nulls))
    ident = json.loads(identity)
    rules = dict(ident["rules"], race=ident["race"])
    t = pa.Table.from_arrays(arrays, names=names)
    return t.replace_schema_metadata({"rules": json.dumps(rules, separators=(",", ":")),
                                      "identity": identity, "version": _native.__version__})


@dataclass(frozen=True)
class MixEntry:
    id: int
    choice: str
    weight: float


@dataclass(frozen=True)
class Equilibrium:
    """The opening game's answer (``lukho equilibrium --json``): value, certified bounds, each
    side's optimal mix."""

    value: float
    lower: Optional[float]
    upper: Optional[float]
    gap: Optional[float]
    exact: bool
    south: List[MixEntry]
    north: List[MixEntry]
    iterations: int
    games: int
    seconds: float
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Equilibrium":
        mix = lambda side: [MixEntry(e["id"], e["choice"], e["weight"]) for e in d.get(side, [])]  # noqa: E731
        return cls(d["value"], d.get("lower"), d.get("upper"), d.get("gap"), d["exact"], mix("south"), mix("north"),
                   d.get("iterations", 0), d.get("games", 0), d.get("seconds", 0.0), d)


def equilibrium(
    race: str,
    payoff: str,
    out: Union[str, os.PathLike],
    *,
    family: str = "all",
    time: Optional[float] = None,
    max_iterations: Optional[int] = None,
    chain: str = "it",
    keep_one: bool = False,
    progress: Progress = None,
    replies: int = 1,
    vector_budget: Optional[int] = None,
    average: int = 0,
    average_replies: int = 1,
    average_weights: str = "uniform",
    restricted_gap: float = 0.0,
    cuts: int = 0,
) -> Equilibrium:
    """Solve the opening as a zero-sum matrix game by double oracle (``lukho equilibrium``);
    ``out`` keeps the resumable state (rerun to continue). ``replies``: best replies added per
    side and iteration (``--replies``; 4 on the full family); ``vector_budget``: bytes the saved
    payoff vectors may take (``--vector-budget``; the full family's are 6.4 MB each, a byte per
    choice); ``average``: also answer the average of the last K iterations' mixes
    (``--average``; 0 or 1: off; its bound may improve the certificate); ``average_replies``: of
    the ``replies``, up to this many are the average's best replies (``--average-replies``);
    ``average_weights``: ``"uniform"``, ``"optimal"`` (the weights that concede least) or
    ``"anchored"`` (those, with the certified mix weighed too) (``--average-weights``);
    ``restricted_gap``: solve each restricted game only to this duality gap, by regret
    matching⁺ (``--restricted-gap``; 0: exactly); ``cuts``: refine each mix against up to this
    many more opposing best replies per iteration (``--cuts``; 0: plain double oracle).
    Releases the GIL."""
    cb = callback(progress, "games")
    d = json.loads(_native.lukho_equilibrium(race, payoff, os.fspath(out), family, time, max_iterations, chain,
                                             keep_one, cb, replies, vector_budget, average,
                                             average_replies, average_weights, restricted_gap, cuts))
    return Equilibrium.from_json(d)
