"""A wall-clock time limit for pure-Python (SymPy) work, for :mod:`.router_pde`.

The limit is the package's one mechanism, :func:`moetheory.symbolic._time_limit.time_limit`:
in the main thread it is enforced with ``SIGALRM`` (an interval timer): SymPy is pure
Python, so the signal handler runs between bytecodes and stops a simplification that would
otherwise run for minutes. Elsewhere (another thread, a platform without ``setitimer``, a
timer the caller had armed, which is left alone) the limit is cooperative:
:meth:`Deadline.check` is called between the steps of the computation.
"""

from __future__ import annotations

import time

from moetheory.symbolic import _time_limit

__all__: list[str] = []


class TimeUp(BaseException):
    """Raised when the time limit is reached.

    A :class:`BaseException`, so that the ``except Exception`` blocks inside SymPy do not
    swallow it.
    """


class Deadline:
    """The end of a time budget, checked cooperatively between steps."""

    def __init__(self, seconds: float) -> None:
        self.seconds = float(seconds)
        self.end = time.monotonic() + self.seconds

    def remaining(self) -> float:
        """Seconds left (negative once the budget is spent)."""
        return self.end - time.monotonic()

    def check(self) -> None:
        """Raise :class:`TimeUp` when the budget is spent."""
        if self.remaining() <= 0:
            raise TimeUp


def time_limit(seconds: float) -> _time_limit.time_limit:
    """Run the block under a budget of ``seconds``; :class:`TimeUp` is raised when it ends."""
    return _time_limit.time_limit(seconds, _time_up)


def _time_up(limit: float) -> TimeUp:
    return TimeUp()
