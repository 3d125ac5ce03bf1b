"""The ``progress=`` argument of long calls: a callable, ``True`` (stderr) or ``None``.

A callable is called as ``progress(done, total)``: the work done so far (games, for a sweep
or an equilibrium) and the whole work's size, or ``None`` when it is not known in advance
(an equilibrium runs until it converges; a ``speeds`` sweep's games depend on the pairs).
It is called at most every 0.2 s, and once more at the end.
"""

import sys
from typing import Callable, Optional, Union

Callback = Callable[[int, Optional[int]], object]
Progress = Union[None, bool, Callback]


def callback(progress: Progress, what: str) -> Optional[Callback]:
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress

    def show(done: int, total: Optional[int]) -> None:
        of = f" of {total}" if total else ""
        sys.stderr.write(f"\r{done}{of} {what}")
        sys.stderr.flush()

    return show
