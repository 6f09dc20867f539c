"""Idle cores of a local run, lent to the checks still running.

Near the end of a local run the workers whose checks have ended find no claim left to start,
while one long check computes its independent pieces one after another (the rates cells of
:mod:`moetheory.estimation.experiment`, the items of :meth:`CheckContext.map
<moetheory.engine.context.CheckContext.map>`). The engine then *lends* each freed worker as a
token: one byte in a pipe that every check's process inherits (:func:`token_pool`). A check
that has pieces left takes tokens without waiting (:func:`lent_map`), forks one helper
process per token, each computing one piece and putting its token back as soon as it is done,
and computes pieces itself meanwhile. A token is in the pipe or held by one helper, and the
engine lends only the workers it no longer uses, so the processes that compute never exceed
``--jobs``.

Notes
-----
A piece's result does not depend on the process that computes it (the pieces must derive
their randomness from themselves, as on a cluster), so :func:`lent_map` returns the list
``[func(x) for x in items]`` exactly, whatever tokens it got. The helpers are descendants of
the check's process: their CPU time counts against the check's limit, and they are killed
with it. A helper killed with its check does not give its token back: the run then lends one
worker fewer, never one more.

A rates cell split over lent workers runs its replicates in smaller batches: the same
records, and about the same CPU time (within a few percent where measured), but not exactly
the same. A check whose CPU time lies within a few percent of its limit may therefore time
out in one run and not in another, depending on whether workers were lent to it, as it
may already across machines (:mod:`moetheory.engine.runner`).

A check's process can write to the token pipe: the bound of ``--jobs`` holds for checks that
do not forge tokens (a check can start processes of its own anyway).
"""

from __future__ import annotations

import array
import fcntl
import os
import pickle
import tempfile
import termios
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any, TypeVar

__all__ = ["idle_workers", "lend", "lent_map", "token_pool"]

T = TypeVar("T")
R = TypeVar("R")

#: ``(read end, write end)`` of the run's token pipe while a local run goes on (inherited by
#: the check processes the engine forks), else ``None``.
_POOL: tuple[int, int] | None = None


@contextmanager
def token_pool() -> Iterator[tuple[int, int]]:
    """A token pipe for the checks forked meanwhile (the engine's side; no token in it yet).

    Yields
    ------
    tuple of int
        The read and write ends; :func:`lend` puts tokens in.

    See Also
    --------
    moetheory.engine.runner.run_claims : holds one over a local run.

    Notes
    -----
    The read end does not block, so taking a token never waits. The pipe is closed, and the
    run's previous pool (if any) restored, on exit.

    Examples
    --------
    >>> with token_pool():
    ...     lend(1)
    ...     idle_workers()
    1
    >>> idle_workers()
    0
    """
    global _POOL
    previous = _POOL
    read, write = os.pipe()
    os.set_blocking(read, False)
    _POOL = (read, write)
    try:
        yield _POOL
    finally:
        _POOL = previous
        os.close(read)
        os.close(write)


def lend(count: int) -> None:
    """Lend ``count`` workers of the run to its checks (no-op outside :func:`token_pool`).

    Parameters
    ----------
    count : int
        Workers the engine will not use again in this run.

    Returns
    -------
    None

    See Also
    --------
    lent_map : takes the tokens.

    Notes
    -----
    The engine lends a worker only once no claim is left to start, and never takes it
    back: its checks running plus the workers lent stay at most ``--jobs``.

    Examples
    --------
    >>> with token_pool():
    ...     lend(2)
    ...     idle_workers()
    2
    """
    if _POOL is not None and count > 0:
        os.write(_POOL[1], b"t" * count)


def idle_workers() -> int:
    """How many tokens are in the pipe now (0 outside a local run).

    Returns
    -------
    int
        Workers lent and free at this moment (another check may take them next).

    See Also
    --------
    lend, lent_map

    Notes
    -----
    For sizing work (how many parts to split a piece into); taking a token is
    :func:`lent_map`'s, which may still find none.

    Examples
    --------
    >>> idle_workers()
    0
    """
    if _POOL is None:
        return 0
    count = array.array("i", [0])
    fcntl.ioctl(_POOL[0], termios.FIONREAD, count)
    return int(count[0])


def _take() -> bool:
    """Take one token without waiting; ``True`` if one was free."""
    if _POOL is None:
        return False
    try:
        return os.read(_POOL[0], 1) == b"t"
    except BlockingIOError:
        return False


def _helper(func: Callable[[Any], Any], item: Any, out: IO[bytes]) -> None:
    """Body of a helper process: ``func(item)`` (or what it raised) into ``out``, then the
    token back; never returns."""
    code = 1
    try:
        try:
            result = ("ok", func(item))
        except BaseException as exc:
            result = ("raised", exc)
        try:
            data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an unpicklable result or exception
            data = pickle.dumps(("raised", RuntimeError(
                f"lent_map: a piece's {'result' if result[0] == 'ok' else 'exception'} "
                f"could not be pickled ({type(exc).__name__}: {exc})")))
        out.write(data)
        out.flush()
        code = 0
    finally:
        if code == 0:
            lend(1)
        os._exit(code)


def _collect(pid: int, out: IO[bytes]) -> tuple[str, Any]:
    """Wait for helper ``pid`` and read what it computed; its token goes back if it could
    not give it back itself."""
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    try:
        if os.waitstatus_to_exitcode(status) == 0:
            out.seek(0)
            kind, value = pickle.load(out)
            return ("ok", value) if kind == "ok" else ("failed", value)
        lend(1)
        return ("failed", None)
    finally:
        out.close()


def lent_map(func: Callable[[T], R], items: Iterable[T]) -> list[R]:
    """``[func(x) for x in items]``, with the pieces spread over the run's lent workers.

    Parameters
    ----------
    func : callable
        Applied to each item; its result (and any exception) must be picklable when a
        helper computes it.
    items : iterable
        Independent pieces of work, each deriving its randomness from itself.

    Returns
    -------
    list
        ``func(x)`` for each item, in the order of ``items``.

    Raises
    ------
    BaseException
        What ``func`` raised on the first item (in order) that raised, once every piece
        has ended.

    See Also
    --------
    moetheory.engine.context.CheckContext.map : a check's way to call it.

    Notes
    -----
    Without a free token (outside a local run, or while every worker has a claim) the
    items are computed here, one after another, as by the list comprehension. Each item a
    helper computes is its own process (forked from this one, so ``func`` may be a
    closure); the check's process computes the others meanwhile. A piece that failed in a
    helper (it raised, or the helper died: a helper shares its parent's memory limit with
    less room) is computed again here, in order, so what is returned or raised is what the
    serial map gives.

    Examples
    --------
    >>> lent_map(abs, [-1, 2, -3])
    [1, 2, 3]
    """
    batch = list(items)
    results: dict[int, tuple[str, Any]] = {}
    helpers: list[tuple[int, int, IO[bytes]]] = []  # (index, pid, output)
    following = 0
    try:
        while following < len(batch):
            while following < len(batch) - 1 and _take():
                out: IO[bytes] = tempfile.TemporaryFile()
                pid = os.fork()
                if pid == 0:
                    _helper(func, batch[following], out)
                helpers.append((following, pid, out))
                following += 1
            if following < len(batch):
                try:
                    results[following] = ("ok", func(batch[following]))
                except Exception as exc:
                    results[following] = ("raised", exc)
                following += 1
    finally:
        for index, pid, out in helpers:
            results[index] = _collect(pid, out)
    out_list = []
    for index in range(len(batch)):
        kind, value = results[index]
        if kind == "failed":  # in a helper (memory, a signal): again here, as serially
            value = func(batch[index])
        elif kind == "raised":
            raise value
        out_list.append(value)
    return out_list
