"""Exact solvers and analysis datasets for mancala games, from Python.

The Rust library behind the ``mancala`` command line, bound with PyO3: every answer is the one
the CLI prints for the same input (the same library functions build both). Three games:

- :mod:`mancala.oware`: positions, legal moves, play, ``solve`` (exact value, bounds, best moves,
  principal variation) and endgame ``Database`` probing, with stats and layers as NumPy / Arrow;
- :mod:`mancala.lukho`: opening ``Choice`` ids, ``play`` with its trace, ``sweep`` as a
  ``pyarrow.Table`` (zero-copy into pandas / polars), the opening game's ``equilibrium``;
- :mod:`mancala.kiothi`: ``Position`` from JSON, moves, ``perft``, ``solve``.

Bad input raises :class:`MancalaError` (a ``ValueError``) with the CLI's one-line message.
Long calls release the GIL; ``progress=`` takes a callable, called as ``progress(done, total)``
(``total`` is None when the size is not known in advance), or ``True`` (a line on stderr).
"""

from ._native import MancalaError, __version__
from . import kiothi, lukho, oware

__all__ = ["MancalaError", "__version__", "kiothi", "lukho", "oware"]
