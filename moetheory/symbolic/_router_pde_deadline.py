"""A wall-clock time limit for pure-Python (SymPy) work, for :mod:`.router_pde`.

In the main thread the limit is enforced with ``SIGALRM`` (an interval timer): SymPy is pure
Python, so the signal handler runs between bytecodes and stops a simplification that would
otherwise run for minutes. Elsewhere (another thread, a platform without ``setitimer``) the
limit is cooperative: :meth:`Deadline.check` is called between the steps of the computation.
A timer the caller had armed is restored afterwards.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

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
        self.signal_armed = False

    def remaining(self) -> float:
        """Seconds left (negative once the budget is spent)."""
        return self.end - time.monotonic()

    def check(self) -> None:
        """Raise :class:`TimeUp` when the budget is spent."""
        if self.remaining() <= 0:
            raise TimeUp


@contextmanager
def time_limit(seconds: float) -> Iterator[Deadline]:
    """Run the block under a budget of ``seconds``; :class:`TimeUp` is raised when it ends."""
    deadline = Deadline(seconds)
    usable = (threading.current_thread() is threading.main_thread()
              and hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM"))
    if not usable:
        yield deadline
        return
    active = [True]

    def handler(signum: int, frame: Any) -> None:
        if active[0]:
            raise TimeUp

    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, handler)
    old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-6))
    deadline.signal_armed = True
    try:
        yield deadline
    finally:
        active[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if old_delay > 0:  # the caller's own timer keeps running, less the time spent here
            left = old_delay - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6), old_interval)
