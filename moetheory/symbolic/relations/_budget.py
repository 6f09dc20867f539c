r"""A time limit for the relation search (:func:`time_limit`, :func:`checkpoint`).

The search is pure-Python SymPy: one differentiation, one exact check or one null space can
take minutes in :math:`d = 3`. The limit is the package's one mechanism,
:func:`moetheory.symbolic._time_limit.time_limit`: the loops of the search call
:func:`checkpoint`, which raises :class:`SearchTimeout` once the deadline has passed, and,
in the main thread when no one else uses ``SIGALRM``, a wall-clock timer raises it inside
any long SymPy operation (and again every 0.1 s until the limit is lifted, should
some code swallow it). Public through :mod:`moetheory.symbolic.interactions`.
"""

from __future__ import annotations

import math
from typing import Any

from moetheory.symbolic import _time_limit
from moetheory.symbolic._time_limit import TimeLimitExceeded

__all__ = [
    "SearchTimeout",
    "check_timeout",
    "checkpoint",
    "time_limit",
]

#: Largest accepted time limit in seconds (about 11.6 days).
MAX_TIMEOUT = 1e6


class SearchTimeout(TimeLimitExceeded):
    """The relation search ran past its time limit.

    Notes
    -----
    A ``TimeoutError`` (a :class:`~moetheory.symbolic._time_limit.TimeLimitExceeded`);
    :func:`moetheory.symbolic.relations.find_relations` turns it into an
    ``inconclusive`` verdict with the reason.

    See Also
    --------
    time_limit : sets the limit.

    Examples
    --------
    >>> issubclass(SearchTimeout, TimeoutError)
    True
    """


def check_timeout(timeout: Any, name: str = "timeout") -> float | None:
    """Validate a time limit: a number of seconds in ``(0, 1e6]``, or None (no limit).

    Parameters
    ----------
    timeout : float or None
        The limit.
    name : str
        The parameter's name in the error message.

    Returns
    -------
    float or None
        The limit as a float.

    Raises
    ------
    ValueError
        On anything else (one line, naming the parameter and the range).

    Notes
    -----
    ``bool`` is refused although it is an ``int``.

    See Also
    --------
    time_limit : uses it.

    Examples
    --------
    >>> check_timeout(2), check_timeout(None)
    (2.0, None)
    >>> check_timeout(0)
    Traceback (most recent call last):
    ...
    ValueError: timeout must be a number of seconds in (0, 1e+06] or None, got 0
    """
    if timeout is None:
        return None
    ok = isinstance(timeout, (int, float)) and not isinstance(timeout, bool)
    if not ok or not (math.isfinite(timeout) and 0 < timeout <= MAX_TIMEOUT):
        raise ValueError(f"{name} must be a number of seconds in (0, {MAX_TIMEOUT:g}] or None, "
                         f"got {timeout!r}")
    return float(timeout)


def checkpoint() -> None:
    """Raise :class:`SearchTimeout` when the current limit has passed (cheap otherwise).

    Returns
    -------
    None

    Raises
    ------
    SearchTimeout
        After the deadline of the innermost :func:`time_limit`.

    Notes
    -----
    Called in the loops of the search, so that it ends soon after the deadline even where
    ``SIGALRM`` cannot be used (another thread, or another user of the signal).

    See Also
    --------
    time_limit : sets the deadline.

    Examples
    --------
    >>> checkpoint()  # no limit set: nothing happens
    """
    _time_limit.check_time()


def _search_timeout(limit: float) -> SearchTimeout:
    return SearchTimeout("the time limit of the relation search ran out")


def time_limit(seconds: float | None) -> _time_limit.time_limit:
    """Run the body with a wall-clock limit (nested limits keep the earliest deadline).

    Parameters
    ----------
    seconds : float or None
        The limit (validated by :func:`check_timeout`); None: no new limit.

    Returns
    -------
    moetheory.symbolic._time_limit.time_limit
        The context manager (``with`` binds ``None``).

    Raises
    ------
    SearchTimeout
        From inside the body, once the limit has passed.
    ValueError
        On an invalid limit.

    Notes
    -----
    In the main thread, when ``SIGALRM`` is unused, a real-time timer interrupts long SymPy
    operations too (re-armed every 0.1 s after the deadline); elsewhere the limit is
    cooperative (:func:`checkpoint`). The previous handler and timer state are restored.

    See Also
    --------
    checkpoint : the cooperative check.

    Examples
    --------
    >>> with time_limit(5.0):
    ...     checkpoint()
    """
    return _time_limit.time_limit(check_timeout(seconds), _search_timeout)
