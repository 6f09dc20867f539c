"""Results that the checks of one run share: computed once per run, not once per check.

Each check runs in its own process (:mod:`moetheory.engine.runner`), so a per-process cache
(:func:`functools.lru_cache`) does not reach the other checks of a run: every check of a
module whose checks share a simulation simulated it again. A function decorated with
:func:`shared` is remembered per process as before and, while a run is going on
(:func:`run_store`), also in a directory of that run: the first check process that needs a
result computes it under a file lock and stores it; a check process that needs it meanwhile
waits for the lock (without using CPU time) and reads it, unless it needs several results
(:func:`each_shared`): then it computes meanwhile those that nobody else is computing. Arrays
are stored out of band (pickle protocol 5) and read as views of a private copy-on-write
mapping of the file: reading a large result neither copies it nor page-faults on each of its
pages.

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
import json
import mmap
import os
import pickle
import shutil
import socket
import stat
import struct
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from moetheory.engine._supervise import boot_id, start_time

__all__ = [
    "BUSY",
    "MIN_FREE_BYTES",
    "STORE_ENV",
    "STORE_PREFIX",
    "check_store",
    "each_shared",
    "remove_store_of",
    "run_store",
    "shared",
]

#: The environment variable naming the run's store (inherited by the forked check processes).
STORE_ENV = "MOETHEORY_RUN_STORE"
#: Free space, in bytes, that the store leaves on its file system: a result that would leave
#: less is not stored (seed 003's lemma grids take 35-70 MB each in the quick profile), so the
#: store never takes the space a report needs.
MIN_FREE_BYTES = 2 * 2**30
#: Name prefix of a run's store in the temporary directory.
STORE_PREFIX = "moetheory-run-"
#: The file in a store that names the run owning it (PID, start time, boot).
_OWNER = "owner.json"


class _Busy:
    """The type of :data:`BUSY`."""

    def __repr__(self) -> str:
        return "BUSY"


#: What ``func.attempt(...)`` of a :func:`shared` function returns while another process of
#: the run is computing that result.
BUSY: Any = _Busy()

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def run_store() -> Iterator[Path]:
    """A store for the results of :func:`shared` functions during a run.

    Removes the stores that dead runs left behind, creates a private temporary directory,
    records this process in it, names it in :data:`STORE_ENV` for the processes forked
    meanwhile, and removes it (and restores the variable) on exit.

    Yields
    ------
    pathlib.Path
        The directory.

    Raises
    ------
    ValueError
        If :data:`STORE_ENV` already names a store that is not safe (:func:`check_store`).

    See Also
    --------
    shared : the functions whose results it holds.
    remove_store_of : what a check's supervisor does when the engine dies.

    Notes
    -----
    The engine opens one store per local run (:func:`moetheory.engine.runner.run_claims`);
    its check processes are forked inside it and inherit :data:`STORE_ENV`. The directory
    is private (mode 0700) and is removed with everything in it when the run ends, also
    when it is interrupted. A run killed by ``kill -9`` cannot remove it: its checks'
    supervisors do, and each run also removes, at its start, every store in the temporary
    directory that belongs to the user and whose run has ended (its PID is gone, or is
    another process's: the store records the run's PID, start time, boot and host). A store
    whose run cannot be judged (no record, another PID namespace or host) is left alone.

    Examples
    --------
    >>> with run_store() as path:
    ...     path.is_dir() and os.environ[STORE_ENV] == str(path)
    True
    >>> path.exists()
    False
    """
    before = os.environ.get(STORE_ENV)
    if before is not None:
        check_store(before)
    _sweep(Path(tempfile.gettempdir()))
    with tempfile.TemporaryDirectory(prefix=STORE_PREFIX) as directory:
        (Path(directory) / _OWNER).write_text(json.dumps(_owner_record(os.getpid())))
        os.environ[STORE_ENV] = directory
        try:
            yield Path(directory)
        finally:
            if before is None:
                os.environ.pop(STORE_ENV, None)
            else:
                os.environ[STORE_ENV] = before


def check_store(path: str | os.PathLike[str]) -> None:
    """Refuse a store that someone else could have written: results are unpickled from it.

    Parameters
    ----------
    path : str or path-like
        A directory named by :data:`STORE_ENV`.

    Returns
    -------
    None
        When ``path`` does not exist (it is then not used) or is a directory of the user's
        that nobody else may write.

    Raises
    ------
    ValueError
        One line naming :data:`STORE_ENV`, when ``path`` is a symbolic link, is not a
        directory, belongs to another user or is writable by its group or by others.

    See Also
    --------
    run_store : creates a private store for a run.

    Notes
    -----
    Results are unpickled from the store, and unpickling runs code: a store another user
    could write into could run that user's code in the checks' processes. A run refuses an
    unsafe :data:`STORE_ENV` before any report is touched (``moetheory verify`` exits with
    status 2), and a :func:`shared` function refuses to read through one.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     check_store(d)  # private: accepted
    ...     os.chmod(d, 0o777)
    ...     try:
    ...         check_store(d)
    ...     except ValueError as exc:
    ...         print(str(exc).split(" is ")[1])
    writable by others (mode 0777); refusing to read results from it
    """
    where = f"{STORE_ENV}: {os.fspath(path)!r}"
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        raise ValueError(f"{where} cannot be examined ({exc}); refusing to use it") from None
    refuse = "; refusing to read results from it"
    if stat.S_ISLNK(info.st_mode):
        raise ValueError(f"{where} is a symbolic link, not a run's store{refuse}")
    if not stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{where} is not a directory{refuse}")
    if info.st_uid != os.geteuid():
        raise ValueError(f"{where} belongs to user {info.st_uid}, not to you "
                         f"({os.geteuid()}){refuse}")
    if info.st_mode & 0o022:
        raise ValueError(f"{where} is writable by others (mode "
                         f"{stat.S_IMODE(info.st_mode):04o}){refuse}")


def _pid_namespace() -> str | None:
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return None


def _owner_record(pid: int) -> dict[str, Any]:
    return {"pid": pid, "start": start_time(pid), "boot": boot_id(), "pidns": _pid_namespace(),
            "host": socket.gethostname()}


def _read_owner(store: Path) -> dict[str, Any] | None:
    try:
        fd = os.open(store / _OWNER, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        record = json.loads(os.read(fd, 4096).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    finally:
        os.close(fd)
    if not isinstance(record, dict) or type(record.get("pid")) is not int:
        return None
    return record


def _run_ended(record: dict[str, Any]) -> bool:
    """Whether the run a store's record names has certainly ended."""
    if record.get("host") not in (None, socket.gethostname()):
        return False  # a temporary directory shared between machines: cannot tell
    boot = boot_id()
    if record.get("boot") is not None and boot is not None and record["boot"] != boot:
        return True  # the machine has rebooted since
    ns = record.get("pidns")
    if ns is not None and ns != _pid_namespace():
        return False  # the PID means another process here: cannot tell
    pid = record["pid"]
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return True  # another user's process now: the store is ours, so was its run
    started = record.get("start")
    return started is not None and start_time(pid) not in (None, started)


def _sweep(directory: Path) -> None:
    """Remove the user's stores in ``directory`` whose runs have ended."""
    try:
        entries = list(directory.glob(STORE_PREFIX + "*"))
    except OSError:
        return
    for store in entries:
        try:
            info = os.lstat(store)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
            continue
        record = _read_owner(store)
        if record is not None and _run_ended(record):
            shutil.rmtree(store, ignore_errors=True)


def remove_store_of(store: str | None, pid: int) -> None:
    """Remove ``store`` if it is the store of the run in process ``pid`` (which has died).

    Parameters
    ----------
    store : str or None
        The store's directory (``None``: nothing to do).
    pid : int
        The engine's process.

    Returns
    -------
    None

    See Also
    --------
    run_store : creates a store and records its run.

    Notes
    -----
    Called by each check's supervisor once the engine is gone (even by ``kill -9``), after
    it killed the check's processes; a store that records another process is left alone.

    Examples
    --------
    >>> remove_store_of(None, 1)
    """
    if store is None:
        return
    path = Path(store)
    record = _read_owner(path)
    if record is not None and record["pid"] == pid:
        shutil.rmtree(path, ignore_errors=True)


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
        The decorator. The decorated function has ``cache_clear()`` and ``attempt(*args,
        **kwargs)``, which returns the result as a call does, or :data:`BUSY` at once if
        another process of the run is computing it at that moment.

    Raises
    ------
    ValueError
        If ``maxsize`` is not an integer ``>= 1`` (a bool is not one).

    See Also
    --------
    run_store : the store of a run.
    each_shared : several results, those nobody else is computing first.

    Notes
    -----
    Positional and keyword arguments form the key (in the store, through their ``repr``).
    Within a run, the first process to need a result computes it while holding an exclusive
    :func:`fcntl.flock` on the key's lock file; the kernel releases the lock when the
    process ends, so a check killed mid-computation leaves the result to the next one.
    A call waits for that lock; ``attempt`` does not (``LOCK_NB``), so that a process which
    needs several results can compute another meanwhile.

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

        def call(args: tuple[Any, ...], kwargs: dict[str, Any], wait: bool) -> Any:
            key = (*args, *sorted(kwargs.items())) if kwargs else args
            if key in memo:
                memo.move_to_end(key)
                return memo[key]
            root = os.environ.get(STORE_ENV)
            if root is None or not os.path.isdir(root):  # outside a run (or a stale variable)
                value = func(*args, **kwargs)
            else:
                check_store(root)  # (after isdir: a directory made meanwhile is judged too)
                value = _through(Path(root), name, functools.partial(func, *args, **kwargs),
                                 key, wait)
                if value is BUSY:
                    return value
            memo[key] = value
            if len(memo) > maxsize:
                memo.popitem(last=False)
            return value

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return call(args, kwargs, True)

        wrapper.cache_clear = memo.clear  # type: ignore[attr-defined]
        wrapper.attempt = lambda *args, **kwargs: call(args, kwargs, False)  # type: ignore
        return wrapper  # type: ignore[return-value]

    return decorate


def each_shared(func: Callable[..., Any], calls: Sequence[tuple[Any, ...]]) -> list[Any]:
    """Call a :func:`shared` function on several arguments, splitting the work with others.

    ``[func(*args) for args in calls]``, computing first the results that no other process
    of the run is computing at that moment.

    Parameters
    ----------
    func : callable
        A function decorated with :func:`shared`.
    calls : sequence of tuple
        The positional arguments of each call.

    Returns
    -------
    list
        The results, in the order of ``calls``: the same values as the plain calls give.

    Raises
    ------
    TypeError
        If ``func`` is not a :func:`shared` function.

    See Also
    --------
    shared : the decorator.

    Notes
    -----
    Checks of a run that need the same results in the same order used to go in lockstep:
    the first computed a result while the others waited for its lock, then all moved to the
    next, and the others' cores idled. Here a result whose lock another process holds is
    left for later, and the first of the remaining ones that nobody is computing is
    computed (or read from the store) meanwhile; once every remaining result is being
    computed elsewhere, the first of them is awaited. Between two results the calls are
    tried in their order again, so a result that became available is read at once.

    Examples
    --------
    >>> @shared()
    ... def cube(x: int) -> int:
    ...     return x ** 3
    >>> with run_store():
    ...     each_shared(cube, [(1,), (2,), (3,)])
    [1, 8, 27]
    """
    attempt = getattr(func, "attempt", None)
    if attempt is None:
        raise TypeError(f"func must be a function decorated with shared(), got {func!r}")
    done: dict[int, Any] = {}
    pending = list(range(len(calls)))
    while pending:
        for i in pending:
            value = attempt(*calls[i])
            if value is not BUSY:
                break
        else:
            i = pending[0]
            value = func(*calls[i])
        done[i] = value
        pending.remove(i)
    return [done[i] for i in range(len(calls))]


def _through(root: Path, name: str, compute: Callable[[], Any], key: tuple[Any, ...],
             wait: bool = True) -> Any:
    """``compute()`` from the run's store under ``key``, computed and stored by the first
    process that needs it; :data:`BUSY` without ``wait`` while another process holds the
    key's lock."""
    digest = hashlib.sha256(f"{name}{key!r}".encode()).hexdigest()[:32]
    path = root / f"{digest}.pickle"
    if path.exists():  # complete: stored files appear by an atomic rename
        return _load(path)
    try:
        lock = open(root / f"{digest}.lock", "a+b")  # (closed by the with below)
    except OSError:  # the store is gone (its run was killed) or full: compute here
        return compute()
    with lock:
        try:  # released when the file closes or the process dies
            fcntl.flock(lock, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return BUSY
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
        if os.fstat(f.fileno()).st_uid != os.geteuid():  # (the store itself is checked)
            raise ValueError(f"{STORE_ENV}: {os.fspath(path)!r} was written by another user; "
                             "refusing to read results from it")
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
