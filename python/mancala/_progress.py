"""The ``progress=`` argument of long calls: a callable, ``True`` (stderr) or ``None``."""

import sys
from typing import Callable, Optional, Union

Progress = Union[None, bool, Callable[[int], object]]


def callback(progress: Progress, what: str, total: Optional[int] = None) -> Optional[Callable[[int], object]]:
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress

    def show(done: int) -> None:
        of = f" of {total}" if total else ""
        sys.stderr.write(f"\r{done}{of} {what}")
        sys.stderr.flush()

    return show
