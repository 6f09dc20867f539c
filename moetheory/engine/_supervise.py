"""Supervise one check's process tree: count the CPU time of every descendant, kill them all.

The engine forks a *supervisor* for each check (:class:`moetheory.engine.runner`); the
supervisor starts a session, makes itself a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``,
Linux) and forks the check's process. A process that leaves the check's process group or
session (``start_new_session=True``, ``process_group=0``, a daemon's fork + setsid + fork)
stays a descendant of the supervisor: when its parent dies it is re-parented to the
supervisor, not to ``init``. The supervisor

* sums the CPU time of the whole tree (``/proc/<pid>/stat`` of the live descendants, the
  usage of those reaped) and kills the tree once it exceeds the time limit;
* kills every descendant when the check's process ends, when the engine asks it to
  (``SIGTERM``), and when the engine is gone, even by ``kill -9`` (a pipe only the engine
  holds open closes);
* then reports the check's exit status and the tree's CPU time after the check's output, in
  a trailer :func:`split_trailer` reads.

Notes
-----
What cannot be contained: a process started by another service on the check's behalf
(``systemd-run``, ``at``, a daemon reached over a socket) is not a descendant; a process in
uninterruptible sleep dies only when its I/O ends; a process that changes its user (a
set-user-ID program) cannot be killed by an ordinary user; and when the supervisor itself is
killed (by the out-of-memory killer, or by a signal from the check or from outside), the
engine kills the check's process group, but processes that left the group are no longer
tracked. Without ``/proc`` and ``prctl`` (not Linux) only the check's
process group is killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import math
import os
import select
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

__all__ = [
    "STOP_SIGNALS",
    "TRAILER",
    "blocked_stop_signals",
    "boot_id",
    "descendants",
    "set_subreaper",
    "split_trailer",
    "start_time",
    "supervise",
]

#: Signals that make a supervisor kill its tree and exit (the engine sends ``SIGTERM``).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
#: Separates the check's output from the supervisor's trailer (JSON holds no NUL byte).
TRAILER = b"\0"
_PR_SET_CHILD_SUBREAPER = 36
_TICK = float(os.sysconf("SC_CLK_TCK")) if hasattr(os, "sysconf") else 100.0
#: Shortest and longest wait between two looks at the tree's CPU time, in seconds.
_LOOK_MIN, _LOOK_MAX = 0.02, 2.0
#: How long a supervisor keeps killing a tree that does not die (uninterruptible sleep).
_KILL_PATIENCE = 2.0


def set_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux).

    Returns
    -------
    bool
        Whether the kernel accepted it (``False`` elsewhere than Linux).

    See Also
    --------
    supervise : makes each check's supervisor the reaper of the check's processes.

    Notes
    -----
    ``prctl(PR_SET_CHILD_SUBREAPER, 1)``: when a descendant's parent dies, the descendant is
    re-parented to the nearest living subreaper among its ancestors instead of ``init``, so
    it stays in this process's tree whatever session or group it moved to.

    Examples
    --------
    >>> isinstance(set_subreaper(), bool)
    True
    """
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    return bool(prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)


def _stat(pid: int | str) -> list[bytes] | None:
    """Fields 3 onwards of ``/proc/<pid>/stat`` (state, ppid, ...), ``None`` if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data[data.rfind(b")") + 2 :].split()


def start_time(pid: int) -> int | None:
    """When ``pid`` started, in clock ticks since boot (``None`` if gone or no ``/proc``).

    Parameters
    ----------
    pid : int
        A process ID.

    Returns
    -------
    int or None
        Field 22 of ``/proc/<pid>/stat``.

    See Also
    --------
    moetheory.engine.shared.run_store : records its run's PID and start time.

    Notes
    -----
    A PID is reused once its process is gone; a PID with its start time names one process
    for good (within one boot: see :func:`boot_id`).

    Examples
    --------
    >>> start_time(os.getpid()) == start_time(os.getpid())
    True
    """
    fields = _stat(pid)
    return int(fields[19]) if fields is not None and len(fields) > 19 else None


def boot_id() -> str | None:
    """The kernel's boot ID (``None`` without ``/proc``): it changes at every boot.

    Returns
    -------
    str or None
        ``/proc/sys/kernel/random/boot_id``.

    See Also
    --------
    start_time : when a process started, counted from the boot.

    Notes
    -----
    A process recorded under another boot ID has certainly ended.

    Examples
    --------
    >>> boot_id() == boot_id()
    True
    """
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            return f.read().strip()
    except OSError:
        return None


def _table() -> dict[int, tuple[int, bool, float]]:
    """Every process: ``pid -> (ppid, zombie, CPU seconds incl. waited-for children)``."""
    table: dict[int, tuple[int, bool, float]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if name.isdigit():
            fields = _stat(name)
            if fields is not None and len(fields) > 14:
                cpu = sum(int(x) for x in fields[11:15]) / _TICK  # utime stime cutime cstime
                table[int(name)] = (int(fields[1]), fields[0] == b"Z", cpu)
    return table


def descendants(root: int, table: dict[int, tuple[int, bool, float]] | None = None
                ) -> list[int]:
    """The PIDs of ``root``'s descendants (children first), read from ``/proc``.

    Parameters
    ----------
    root : int
        A process ID.
    table : dict, optional
        A snapshot of ``/proc`` to use (internal).

    Returns
    -------
    list of int
        Empty without ``/proc``.

    See Also
    --------
    supervise : kills a check's descendants.

    Notes
    -----
    One pass over ``/proc/<pid>/stat`` of every process (about 15 µs a process), then the
    tree of parent links from ``root``.

    Examples
    --------
    >>> descendants(os.getpid()) == [] or all(p > 0 for p in descendants(os.getpid()))
    True
    """
    table = _table() if table is None else table
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found, queue = [], [root]
    while queue:
        kids = children.get(queue.pop(), [])
        found += kids
        queue += kids
    return found


@contextlib.contextmanager
def blocked_stop_signals() -> Iterator[None]:
    """Block :data:`STOP_SIGNALS` in this thread while a supervisor is forked.

    Yields
    ------
    None

    See Also
    --------
    supervise : unblocks them once it can act on them.

    Notes
    -----
    The forked supervisor inherits the mask: a stop request the engine sends at once stays
    pending until the supervisor has its handlers, instead of killing it before it could kill
    the check. The thread's previous mask is restored on exit.

    Examples
    --------
    >>> with blocked_stop_signals():
    ...     pass
    """
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def split_trailer(data: bytes) -> tuple[bytes, dict[str, Any] | None]:
    """The check's output and the supervisor's trailer (``None`` if it wrote none).

    Parameters
    ----------
    data : bytes
        Everything read from the check's pipe.

    Returns
    -------
    tuple
        ``(output, trailer)``; the trailer holds ``status`` (the check process's wait
        status, ``None`` if it never ended), ``cpu`` (its CPU seconds), ``tree`` (the CPU
        seconds of the whole tree), ``over`` (the tree exceeded its limit) and ``ending``
        (why the supervisor stopped watching).

    See Also
    --------
    supervise : writes the trailer.

    Notes
    -----
    The trailer follows the last NUL byte: the check's JSON output holds none, and the
    supervisor writes the trailer once every process of the check is dead, so nothing
    follows it.

    Examples
    --------
    >>> split_trailer(b'{"a": 1}' + TRAILER + b'{"status": 0}')
    (b'{"a": 1}', {'status': 0})
    >>> split_trailer(b"no trailer")
    (b'no trailer', None)
    """
    body, sep, tail = data.rpartition(TRAILER)
    if not sep:
        return data, None
    try:
        trailer = json.loads(tail.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return data, None
    return (body, trailer) if isinstance(trailer, dict) else (data, None)


def _noop(signum: int, frame: object) -> None:
    """A Python-level handler, so that the signal reaches the wakeup descriptor."""


class _Tree:
    """The supervisor's view of its descendants."""

    def __init__(self, child: int) -> None:
        self.child = child
        self.me = os.getpid()
        self.status: int | None = None
        self.child_cpu = 0.0
        self.reaped = 0.0  # CPU seconds of every reaped child, their reaped children included

    def reap(self) -> bool:
        """Reap every ended child; ``True`` when no child is left (so no descendant: the
        supervisor is the reaper of every orphan below it)."""
        while True:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return True
            except InterruptedError:
                continue
            if pid == 0:
                return False
            cpu = usage.ru_utime + usage.ru_stime
            self.reaped += cpu
            if pid == self.child:
                self.status, self.child_cpu = status, cpu

    def cpu(self) -> float:
        """CPU seconds of the whole tree so far."""
        table = _table()
        return self.reaped + sum(table[p][2] for p in descendants(self.me, table))

    def kill(self) -> None:
        """Kill every descendant and reap them (gives up after :data:`_KILL_PATIENCE`)."""
        deadline = time.monotonic() + _KILL_PATIENCE
        if self.status is None:  # (once reaped, its PID may be another process's)
            with contextlib.suppress(OSError):
                os.kill(self.child, signal.SIGKILL)
        while not self.reap() and time.monotonic() < deadline:
            table = _table()
            pids = [p for p in descendants(self.me, table) if not table[p][1]]
            if not table:  # no /proc: the check's process group is all that can be found
                with contextlib.suppress(OSError):
                    os.killpg(self.me, signal.SIGTERM)  # (this process ignores it now)
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.002)


def _drain(fd: int) -> bytes:
    out = b""
    while True:
        try:
            chunk = os.read(fd, 512)
        except (BlockingIOError, InterruptedError):
            return out
        if not chunk:
            return out
        out += chunk


def supervise(work: Callable[[], object], cpu_limit: float | None, out: int, watch: int,
              engine_gone: Callable[[], None] | None = None) -> NoReturn:
    """Be the supervisor of one check: fork its process, watch, kill its tree, report.

    Called in a process the engine has just forked, with :data:`STOP_SIGNALS` blocked
    (:func:`blocked_stop_signals`); never returns.

    Parameters
    ----------
    work : callable
        Run in the check's process, which exits when it returns.
    cpu_limit : float or None
        Limit on the CPU time of the whole tree, seconds (rounded up); ``None`` for none.
    out : int
        The check's output pipe; the trailer is written to it once every descendant is dead.
    watch : int
        Read end of a pipe that only the engine holds open for writing: when it closes, the
        engine is gone.
    engine_gone : callable, optional
        Called once the tree is dead when the engine is gone (e.g. to remove its store).

    Returns
    -------
    NoReturn
        The process exits.

    See Also
    --------
    split_trailer : reads what the supervisor reports.

    Notes
    -----
    The tree's CPU time is looked at after at most :math:`(L - u)/n` seconds, where
    :math:`L` is the limit, :math:`u` the time used and :math:`n` the CPUs this process may
    run on (the fastest the tree can use CPU time), between 0.02 and 2 seconds: rarely
    while far from the limit, often close to it. When the check's process ends, a tree whose
    CPU time exceeds the limit is over the limit, whether or not a look caught it.

    Examples
    --------
    >>> out_r, out_w = os.pipe()
    >>> watch_r, watch_w = os.pipe()
    >>> pid = os.fork()
    >>> if pid == 0:  # the supervisor; its check's process writes "done"
    ...     supervise(lambda: os.write(out_w, b"done"), 10.0, out_w, watch_r)
    >>> os.close(out_w)
    >>> data = b""
    >>> while chunk := os.read(out_r, 4096):
    ...     data += chunk
    >>> _ = os.waitpid(pid, 0)
    >>> output, trailer = split_trailer(data)
    >>> output, trailer["status"], trailer["over"]
    (b'done', 0, False)
    >>> for fd in (out_r, watch_r, watch_w):
    ...     os.close(fd)
    """
    code = 0
    try:
        os.setsid()
        set_subreaper()
        wake_r, wake_w = os.pipe()
        for fd in (wake_r, wake_w):
            os.set_blocking(fd, False)
        signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
        for sig in (*STOP_SIGNALS, signal.SIGCHLD):
            signal.signal(sig, _noop)
        pid = os.fork()
        if pid == 0:
            status = 70
            try:
                signal.set_wakeup_fd(-1)
                for sig in (*STOP_SIGNALS, signal.SIGCHLD):
                    signal.signal(sig, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
                for fd in (wake_r, wake_w, watch):
                    os.close(fd)
                work()
                status = 0
            finally:
                os._exit(status)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        tree = _Tree(pid)
        try:
            ending = _watch(tree, cpu_limit, watch, wake_r)
        finally:
            for sig in STOP_SIGNALS:
                signal.signal(sig, signal.SIG_IGN)
            tree.kill()
        if ending == "engine gone":  # nobody reads a trailer
            if engine_gone is not None:
                engine_gone()
        else:
            limit = None if cpu_limit is None else math.ceil(cpu_limit)
            over = ending == "over" or (limit is not None and tree.reaped > limit)
            trailer = {"status": tree.status, "cpu": tree.child_cpu, "tree": tree.reaped,
                       "over": over, "ending": ending}
            data = TRAILER + json.dumps(trailer).encode("ascii")
            while data:
                try:
                    data = data[os.write(out, data):]
                except InterruptedError:
                    continue
            os.close(out)  # the reader sees the end now, not once this process is torn down
    except BaseException:
        code = 70
    finally:
        os._exit(code)


def _watch(tree: _Tree, cpu_limit: float | None, watch: int, wake: int) -> str:
    """Wait until the check's process ends (``"ended"``), the tree exceeds its CPU limit
    (``"over"``), a stop signal arrives (``"stopped"``) or the engine goes
    (``"engine gone"``)."""
    limit = None if cpu_limit is None else math.ceil(cpu_limit)
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    look = time.monotonic() + (0.0 if limit is None else
                               min(_LOOK_MAX, max(_LOOK_MIN, limit / cpus)))
    while True:
        timeout = None if limit is None else max(0.0, look - time.monotonic())
        try:
            ready = select.select([watch, wake], [], [], timeout)[0]
        except InterruptedError:
            ready = []
        if wake in ready:
            caught = _drain(wake)
            if any(sig in caught for sig in STOP_SIGNALS):
                return "stopped"
        if watch in ready:
            try:
                if not os.read(watch, 1):
                    return "engine gone"
            except (BlockingIOError, InterruptedError):
                pass
        tree.reap()
        if tree.status is not None:
            return "ended"
        if limit is not None and time.monotonic() >= look:
            used = tree.cpu()
            if used > limit:
                return "over"
            look = time.monotonic() + min(_LOOK_MAX, max(_LOOK_MIN, (limit - used) / cpus))
