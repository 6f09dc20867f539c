"""A wall-clock time limit around a symbolic computation.

SymPy can spend minutes in one call (a ``cancel`` of ``exp(300 x)`` polynomials), so a limit
that is only checked between steps is not enough. In the main thread of a Unix process the
limit is enforced by ``SIGALRM`` (``signal.setitimer``): the handler raises
:class:`TimeLimitExceeded` wherever the computation is, and keeps raising every 0.1 s until
the block is left, in case some library code swallows the first exception. Elsewhere (another
thread, no ``setitimer``, or a foreign alarm already armed, which is never clobbered) the limit
is cooperative: :func:`check_time` raises once the deadline has passed, and the engines call it
between steps.

Examples
--------
>>> with time_limit(None):
...     check_time()
>>> import time
>>> try:
...     with time_limit(0.05):
...         while True:
...             time.sleep(0.01)
...             check_time()
... except TimeLimitExceeded as exc:
...     print(exc)
time limit of 0.05 s reached
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["TimeLimitExceeded", "check_time", "remaining", "time_limit"]


class TimeLimitExceeded(TimeoutError):
    """Raised when the time limit of an enclosing :func:`time_limit` block has passed.

    See Also
    --------
    time_limit : the block that raises it.

    Notes
    -----
    A :class:`TimeoutError`, so callers that already handle time-outs handle it too.

    Examples
    --------
    >>> isinstance(TimeLimitExceeded("late"), TimeoutError)
    True
    """


#: Makes the exception a block raises from its limit in seconds.
ErrorFactory = Callable[[float], BaseException]


def _default_error(limit: float) -> BaseException:
    return TimeLimitExceeded(f"time limit of {_fmt(limit)} s reached")


class _Local(threading.local):
    def __init__(self) -> None:
        #: Active deadlines of this thread (monotonic seconds, limit, error), innermost last.
        self.deadlines: list[tuple[float, float, ErrorFactory]] = []


_LOCAL = _Local()
#: Whether the SIGALRM handler is ours (installed by the outermost signal-enforced block).
_SIGNAL_OWNER: list[bool] = []


def _expired() -> BaseException | None:
    now = time.monotonic()
    for deadline, limit, error in _LOCAL.deadlines:
        if now >= deadline:
            return error(limit)
    return None


def check_time() -> None:
    """Raise :class:`TimeLimitExceeded` if an enclosing time limit has passed.

    Returns
    -------
    None
        When no active deadline has passed.

    Raises
    ------
    TimeLimitExceeded
        Once the earliest active deadline is over (or the exception that block's ``error``
        makes).

    See Also
    --------
    time_limit, remaining

    Notes
    -----
    The cooperative half of the limit: the engines call it between steps, so a limit holds
    in a thread where no ``SIGALRM`` can be used.

    Examples
    --------
    >>> check_time()  # no active limit: nothing happens
    """
    hit = _expired()
    if hit is not None:
        raise hit


def remaining() -> float:
    """Seconds left before the earliest active deadline (``inf`` without one).

    Returns
    -------
    float
        At least 0; ``inf`` outside every :func:`time_limit` block.

    See Also
    --------
    time_limit, check_time

    Notes
    -----
    Lets a step size its own budget (e.g. a nested search) from what is left.

    Examples
    --------
    >>> remaining()
    inf
    >>> with time_limit(60):
    ...     0 < remaining() <= 60
    True
    """
    if not _LOCAL.deadlines:
        return math.inf
    return max(0.0, min(d for d, _, _ in _LOCAL.deadlines) - time.monotonic())


def _fmt(limit: float) -> str:
    return f"{limit:g}"


def _on_alarm(signum: int, frame: Any) -> None:
    if _in_bookkeeping(frame):
        return  # a block is entering or leaving: the 0.1 s repeat raises in the body instead
    hit = _expired()
    if hit is not None:
        raise hit
    _arm()


def _in_bookkeeping(frame: Any) -> bool:
    """Whether ``frame`` or a caller is :class:`time_limit`'s ``__enter__`` or ``__exit__``.

    An exception raised there would skip the removal of the block's deadline, which would
    then raise in every later check.
    """
    while frame is not None:
        if frame.f_code in _BOOKKEEPING:
            return True
        frame = frame.f_back
    return False


def _arm() -> None:
    """Arm the timer for the earliest active deadline (repeating every 0.1 s after it)."""
    if _LOCAL.deadlines:
        delay = max(remaining(), 1e-3)
        signal.setitimer(signal.ITIMER_REAL, delay, 0.1)


def _can_signal() -> bool:
    if not hasattr(signal, "setitimer") or threading.current_thread() is not \
            threading.main_thread():
        return False
    if _SIGNAL_OWNER:
        return True
    armed, _ = signal.getitimer(signal.ITIMER_REAL)
    return armed == 0.0  # a foreign alarm is running: never clobber it


class time_limit:
    """Run the block under a wall-clock limit of ``seconds`` (``None`` or ``inf``: no limit).

    Parameters
    ----------
    seconds : float or None
        The limit, positive.
    error : callable, optional
        Makes the exception raised once this limit has passed, from the limit in seconds
        (default: a :class:`TimeLimitExceeded` naming it). A :class:`BaseException` that is
        not an ``Exception`` passes through ``except Exception`` blocks.

    Raises
    ------
    TimeLimitExceeded
        From inside the block once the limit has passed (see the module docstring for
        where it can be raised).
    ValueError
        If ``seconds`` is not positive.

    See Also
    --------
    check_time, remaining

    Notes
    -----
    Nested blocks keep every deadline; the earliest one raises (its own ``error``). The
    alarm never raises while a block is entered or left (it would skip the bookkeeping);
    it raises in the body at its next repeat, 0.1 s later.

    Examples
    --------
    >>> with time_limit(10):
    ...     remaining() <= 10
    True
    """

    def __init__(self, seconds: float | None, error: ErrorFactory = _default_error) -> None:
        if seconds is not None and not seconds > 0:
            raise ValueError(f"timeout must be a positive number of seconds, got {seconds!r}")
        self._seconds = None if seconds is None or math.isinf(seconds) else float(seconds)
        self._error = error
        self._entry: tuple[float, float, ErrorFactory] | None = None
        self._signal = self._owner = False
        self._old_handler: Any = None

    # No alarm raises while these two run (_in_bookkeeping): keep them free of calls that
    # could take long.
    def __enter__(self) -> None:
        if self._seconds is None:
            return
        if self._entry is not None:
            raise RuntimeError("a time_limit block cannot be entered while it is active")
        self._entry = (time.monotonic() + self._seconds, self._seconds, self._error)
        self._signal, self._owner = _can_signal(), False
        _LOCAL.deadlines.append(self._entry)
        if self._signal:
            if not _SIGNAL_OWNER:
                self._old_handler = signal.signal(signal.SIGALRM, _on_alarm)
                _SIGNAL_OWNER.append(True)
                self._owner = True
            _arm()

    def __exit__(self, *exc_info: object) -> None:
        if self._entry is None:
            return
        if self._signal:  # no alarm may interrupt the clean-up
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            _LOCAL.deadlines.remove(self._entry)
            if self._owner:
                signal.setitimer(signal.ITIMER_REAL, 0.0, 0.0)
                if signal.SIGALRM in signal.sigpending():  # consume an alarm already due
                    signal.sigwait({signal.SIGALRM})
                signal.signal(signal.SIGALRM, self._old_handler
                              if self._old_handler is not None else signal.SIG_DFL)
                _SIGNAL_OWNER.clear()
            elif self._signal:
                _arm()  # back to the enclosing block's deadline
        finally:
            self._entry = None
            if self._signal:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})


_BOOKKEEPING = frozenset({time_limit.__enter__.__code__, time_limit.__exit__.__code__})
