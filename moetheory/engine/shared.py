"""Results that the checks of one run share: computed once per run, not once per check.

Each check runs in its own process (:mod:`moetheory.engine.runner`), so a per-process cache
(:func:`functools.lru_cache`) does not reach the other checks of a run: every check of a
module whose checks share a simulation simulated it again. A function decorated with
:func:`shared` is remembered per process as before and, while a run is going on
(:func:`run_store`), also in a directory of that run: the first check process that needs a
result computes it under a file lock and stores it; a check process that needs it meanwhile
waits for the lock (without using CPU time) and reads it. Arrays are stored out of band
(pickle protocol 5) and read as views of a private copy-on-write mapping of the file: reading
a large result neither copies it nor page-faults on each of its pages.

Notes
-----
Only for deterministic functions of arguments with a faithful ``repr`` (numbers, strings,
tuples of them): a stored result is the value the function returns, so a report does not
depend on which check computed it. A result that cannot be pickled or written (no memory, a
full disk), or that would leave less than :data:`MIN_FREE_BYTES` free, is not stored: each
process computes it, as without a run. A check waiting for
another's result counts no CPU time, so a check's CPU time can only be lower than without
sharing. Outside a run (a check called directly, the calibration harness, a Dask cluster's
workers) only the per-process cache applies.

Examples
--------
>>> calls = []
>>> @shared(maxsize=4)
... def square(x: int) -> int:
...     calls.append(x)
...     return x * x
>>> with run_store():
...     square(3), square(3)
(9, 9)
>>> calls
[3]
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import mmap
import os
import pickle
import shutil
import struct
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["MIN_FREE_BYTES", "STORE_ENV", "run_store", "shared"]

#: The environment variable naming the run's store (inherited by the forked check processes).
STORE_ENV = "MOETHEORY_RUN_STORE"
#: Free space, in bytes, that the store leaves on its file system: a result that would leave
#: less is not stored (seed 003's lemma grids take 35-70 MB each in the quick profile), so the
#: store never takes the space a report needs.
MIN_FREE_BYTES = 2 * 2**30

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def run_store() -> Iterator[Path]:
    """A store for the results of :func:`shared` functions during a run.

    Creates a private temporary directory, names it in :data:`STORE_ENV` for the processes
    forked meanwhile, and removes it (and restores the variable) on exit.

    Yields
    ------
    pathlib.Path
        The directory.

    See Also
    --------
    shared : the functions whose results it holds.

    Notes
    -----
    The engine opens one store per local run (:func:`moetheory.engine.runner.run_claims`);
    its check processes are forked inside it and inherit :data:`STORE_ENV`. The directory
    is private (mode 0700) and is removed with everything in it when the run ends, also
    when it is interrupted.

    Examples
    --------
    >>> with run_store() as path:
    ...     path.is_dir() and os.environ[STORE_ENV] == str(path)
    True
    >>> path.exists()
    False
    """
    before = os.environ.get(STORE_ENV)
    with tempfile.TemporaryDirectory(prefix="moetheory-run-") as directory:
        os.environ[STORE_ENV] = directory
        try:
            yield Path(directory)
        finally:
            if before is None:
                os.environ.pop(STORE_ENV, None)
            else:
                os.environ[STORE_ENV] = before


def shared(maxsize: int = 16) -> Callable[[F], F]:
    """Remember a deterministic function's results per process and across a run's checks.

    Parameters
    ----------
    maxsize : int
        Results kept per process, least recently used dropped first (as
        :func:`functools.lru_cache`).

    Returns
    -------
    callable
        The decorator; the decorated function has ``cache_clear()``.

    Raises
    ------
    ValueError
        If ``maxsize`` is not an integer ``>= 1`` (a bool is not one).

    See Also
    --------
    run_store : the store of a run.

    Notes
    -----
    Positional and keyword arguments form the key (in the store, through their ``repr``).
    Within a run, the first process to need a result computes it while holding an exclusive
    :func:`fcntl.flock` on the key's lock file; the kernel releases the lock when the
    process ends, so a check killed mid-computation leaves the result to the next one.

    Examples
    --------
    >>> @shared()
    ... def twice(x: int) -> int:
    ...     return 2 * x
    >>> twice(4)
    8
    >>> shared(0)
    Traceback (most recent call last):
    ...
    ValueError: maxsize must be an integer >= 1, got 0
    """
    if not isinstance(maxsize, int) or isinstance(maxsize, bool) or maxsize < 1:
        raise ValueError(f"maxsize must be an integer >= 1, got {maxsize!r}")

    def decorate(func: F) -> F:
        memo: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        name = f"{func.__module__}.{func.__qualname__}"

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = (*args, *sorted(kwargs.items())) if kwargs else args
            if key in memo:
                memo.move_to_end(key)
                return memo[key]
            root = os.environ.get(STORE_ENV)
            if root is None or not os.path.isdir(root):  # outside a run (or a stale variable)
                value = func(*args, **kwargs)
            else:
                value = _through(Path(root), name, functools.partial(func, *args, **kwargs),
                                 key)
            memo[key] = value
            if len(memo) > maxsize:
                memo.popitem(last=False)
            return value

        wrapper.cache_clear = memo.clear  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def _through(root: Path, name: str, compute: Callable[[], Any], key: tuple[Any, ...]) -> Any:
    """``compute()`` from the run's store under ``key``, computed and stored by the first
    process that needs it."""
    digest = hashlib.sha256(f"{name}{key!r}".encode()).hexdigest()[:32]
    path = root / f"{digest}.pickle"
    if path.exists():  # complete: stored files appear by an atomic rename
        return _load(path)
    with open(root / f"{digest}.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes or the process dies
        if path.exists():
            return _load(path)
        value = compute()
        partial = root / f"{digest}.{os.getpid()}.partial"
        try:
            _save(partial, value, root)
            os.replace(partial, path)
        except (pickle.PicklingError, TypeError, AttributeError, BufferError, MemoryError,
                OSError):
            partial.unlink(missing_ok=True)  # not stored: the others compute it themselves
        return value


#: Start of a stored result: magic, then the lengths of the pickle stream and the number of
#: out-of-band buffers; then each buffer's length, the stream and the buffers, each buffer at
#: a multiple of :data:`_ALIGN` bytes.
_MAGIC = b"MTS1"
_ALIGN = 64


def _save(path: Path, value: Any, root: Path) -> None:
    """Write ``value`` with its array data out of band (pickle protocol 5), so that
    :func:`_load` maps it instead of copying it; raises ``OSError`` when the file would leave
    less than :data:`MIN_FREE_BYTES` free."""
    buffers: list[pickle.PickleBuffer] = []
    stream = pickle.dumps(value, protocol=5, buffer_callback=buffers.append)
    raws = [b.raw() for b in buffers]
    head = _MAGIC + struct.pack(f"<QQ{len(raws)}Q", len(stream), len(raws),
                                *(r.nbytes for r in raws))
    parts: list[bytes | memoryview] = [head, stream]
    pos = len(head) + len(stream)
    for raw in raws:
        parts += [bytes(-pos % _ALIGN), raw]
        pos += len(parts[-2]) + raw.nbytes
    if shutil.disk_usage(root).free - pos < MIN_FREE_BYTES:
        raise OSError("the store would leave too little free space")
    path.write_bytes(b"".join(parts))


def _load(path: Path) -> Any:
    """A value written by :func:`_save`. Its arrays are views of a private copy-on-write
    mapping of the file (writable; a page is copied only when written): a check that reads a
    70 MB simulation grid page-faulted 35,000 times, 0.15 s of system time, to copy it."""
    with open(path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
    view = memoryview(mapped)
    n, k = struct.unpack_from("<QQ", mapped, len(_MAGIC))
    sizes = struct.unpack_from(f"<{k}Q", mapped, len(_MAGIC) + 16)
    pos = len(_MAGIC) + 16 + 8 * k
    stream = view[pos : pos + n]
    pos += n
    buffers = []
    for size in sizes:
        pos += -pos % _ALIGN
        buffers.append(view[pos : pos + size])
        pos += size
    return pickle.loads(stream, buffers=buffers)
