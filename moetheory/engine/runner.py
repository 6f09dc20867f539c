"""Run checks in isolated child processes, with limits, in parallel or on a Dask cluster.

Each check runs in its own forked process under a *supervisor* of its own
(:mod:`moetheory.engine._supervise`), in a session and process group of its own:

* its time limit counts the **CPU time** of the check and of every process it starts
  (the supervisor sums them from ``/proc`` and kills the tree past the limit; each process
  also has ``RLIMIT_CPU``), so two runs of the same seed time out the same claims however
  loaded the machine is; a generous wall-clock backstop (:data:`WALL_FACTOR` times the limit
  plus :data:`WALL_SLACK` seconds) stops a check that sleeps or waits;
* its address space can be capped (``RLIMIT_AS``, ``--memory-limit``, per process);
* the supervisor is a child subreaper (Linux): a process the check starts stays its
  descendant even if it leaves the group or the session (``start_new_session``, a daemon's
  double fork), and every descendant is killed when the check ends, times out or the run is
  interrupted;
* the supervisor reads a pipe that only the engine holds open: when the engine dies, even
  by ``kill -9``, the pipe closes and the supervisor kills every descendant of the check
  (and removes the run's store).

A check that raises, returns a malformed :class:`~moetheory.engine.verdicts.Outcome` or
kills its interpreter gets the verdict ``error`` with the reason; the run goes on. Results
are handed to a callback as each check completes, so an interrupted run keeps what it
finished. SIGINT, SIGTERM and SIGHUP stop a run the same way (:class:`Interrupted`).

Notes
-----
A time limit is part of the result: a check stopped by its CPU-time limit is
``inconclusive`` and its evidence records the limit, not the time used, so the report
stays the same on every machine as long as the check's CPU time is not within a few
percent of the limit. The CPU-time limit is whole seconds (the kernel's granularity,
rounded up) and covers the check's whole process tree (and, on a Dask cluster, its
``ctx.map`` tasks). A check stopped by the wall-clock backstop depends on the machine's
load; its evidence says so. What cannot be contained is listed in
:mod:`moetheory.engine._supervise`.
"""

from __future__ import annotations

import errno
import functools
import gc
import importlib
import json
import math
import os
import pickle
import resource
import select
import signal
import socket
import sys
import threading
import time
import traceback
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NoReturn

from moetheory.engine import _pool, context
from moetheory.engine._schedule import start_order
from moetheory.engine._supervise import blocked_stop_signals, split_trailer, supervise
from moetheory.engine.context import PROFILES, CheckContext, claim_seed
from moetheory.engine.levels import FAMILY_ALPHA, claim_alpha
from moetheory.engine.registry import CheckFunction, Claim, family_size, get_claim
from moetheory.engine.shared import STORE_ENV, check_store, remove_store_of, run_store
from moetheory.engine.usercode import is_user_claim
from moetheory.engine.verdicts import Outcome, Verdict, checked_payload, outcome_payload

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_JOBS",
    "MIN_MEMORY_LIMIT",
    "PRELOAD",
    "WALL_FACTOR",
    "WALL_SLACK",
    "Interrupted",
    "Limits",
    "RunSettings",
    "SignalGuard",
    "claim_context",
    "map_on_cluster",
    "prepare_worker",
    "run_claims",
    "run_isolated",
]

#: Default CPU-time limit of one check, in seconds.
DEFAULT_TIMEOUT = 900.0
#: The wall-clock backstop is ``WALL_FACTOR * timeout + WALL_SLACK`` seconds.
WALL_FACTOR = 10.0
WALL_SLACK = 10.0
#: Most checks one run may run at once.
MAX_JOBS = 256
#: Smallest ``memory_limit`` accepted, in bytes (the interpreter alone needs more).
MIN_MEMORY_LIMIT = 64 * 2**20
#: Largest ``memory_limit`` accepted, in bytes (1 EiB; the kernel's limits are 63-bit).
MAX_MEMORY_LIMIT = 2**60
#: Largest finite time limit accepted, in seconds (about 31 years; ``inf`` means none).
MAX_SECONDS = 1e9

_POLL = 0.05  # longest wait between two looks at the running checks
_EXITING = 0.002  # wait while a check that closed its output is exiting


def _integer(name: str, value: Any, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``[low, high]``: Python or NumPy integers, never booleans."""
    import numpy as np

    allowed = f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be {allowed}, got {value!r} ({type(value).__name__})")
    number = int(value)
    if number < low or (high is not None and number > high):
        raise ValueError(f"{name} must be {allowed}, got {number}")
    return number


def _seconds(name: str, value: Any) -> float | None:
    """A positive number of seconds; ``None`` or infinity mean no limit."""
    if value is None:
        return None
    import numpy as np

    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.number):
        raise ValueError(
            f"{name} must be a positive number of seconds (or None for no limit), "
            f"got {value!r} ({type(value).__name__})"
        )
    number = float(value)
    if math.isinf(number) and number > 0:
        return None
    if not 0 < number <= MAX_SECONDS:
        raise ValueError(
            f"{name} must be a positive number of seconds up to 1e9 (or None or "
            f"inf for no limit), got {value!r}"
        )
    return number


@dataclass(frozen=True)
class Limits:
    """The limits a check runs under (also sent to Dask workers).

    Attributes
    ----------
    cpu_seconds : float or None
        CPU-time limit (rounded up to whole seconds); ``None`` for none.
    wall_seconds : float or None
        Wall-clock backstop; ``None`` for none.
    memory_bytes : int or None
        Address-space limit of the check's process; ``None`` for none.

    See Also
    --------
    RunSettings.limits : the limits of a run's settings.
    run_isolated : runs one check under them.

    Notes
    -----
    The CPU limit does not depend on the machine's load, so two runs with the same seed
    time out the same claims; the wall-clock backstop does.

    Examples
    --------
    >>> Limits(10.0, 110.0).memory_bytes is None
    True
    """

    cpu_seconds: float | None = DEFAULT_TIMEOUT
    wall_seconds: float | None = DEFAULT_TIMEOUT * WALL_FACTOR + WALL_SLACK
    memory_bytes: int | None = None


@dataclass(frozen=True)
class RunSettings:
    """How to run a set of checks.

    Parameters
    ----------
    seed : int
        Master seed (Python or NumPy integer, not a bool).
    profile : {"quick", "full"}
        Budget of the statistical checks.
    jobs : int
        Checks running at once, 1 to :data:`MAX_JOBS`.
    timeout : float or None
        CPU-time limit of one check in seconds; ``None`` or ``inf`` for no limit.
    family_alpha : float
        Family-wise error level of each family of statistical claims.
    memory_limit : int or None
        Address-space limit of one check's process in bytes (at least
        :data:`MIN_MEMORY_LIMIT`).
    wall_timeout : float or None
        Wall-clock backstop of one check; by default ``WALL_FACTOR * timeout + WALL_SLACK``.
    scheduler : str or None
        Address of a Dask distributed scheduler to run the checks on.

    Raises
    ------
    ValueError
        Naming the parameter and its allowed range, for any bad value.

    See Also
    --------
    run_claims : runs claims under these settings.

    Notes
    -----
    Every value is checked when the settings are made, before any claim runs.

    Examples
    --------
    >>> RunSettings(seed=0, profile="quick", jobs=2).jobs
    2
    >>> RunSettings(jobs=0)
    Traceback (most recent call last):
    ...
    ValueError: jobs must be an integer from 1 to 256, got 0
    >>> RunSettings(timeout=float("inf")).limits().cpu_seconds is None
    True
    """

    seed: int = 0
    profile: str = "quick"
    jobs: int = 1
    timeout: float | None = DEFAULT_TIMEOUT
    family_alpha: float = FAMILY_ALPHA
    memory_limit: int | None = None
    wall_timeout: float | None = None
    scheduler: str | None = None

    def __post_init__(self) -> None:
        fix = object.__setattr__
        fix(self, "seed", _integer("seed", self.seed, 0, 2**63 - 1))
        fix(self, "jobs", _integer("jobs", self.jobs, 1, MAX_JOBS))
        fix(self, "timeout", _seconds("timeout", self.timeout))
        fix(self, "wall_timeout", _seconds("wall_timeout", self.wall_timeout))
        if self.profile not in PROFILES:
            raise ValueError(f"profile must be one of {PROFILES}, got {self.profile!r}")
        import numpy as np

        if (
            isinstance(self.family_alpha, bool)
            or not isinstance(self.family_alpha, int | float | np.floating)
            or not 0 < self.family_alpha < 1
        ):
            raise ValueError(f"family_alpha must lie in (0, 1), got {self.family_alpha!r}")
        if self.memory_limit is not None:
            fix(self, "memory_limit",
                _integer("memory_limit", self.memory_limit, MIN_MEMORY_LIMIT,
                         MAX_MEMORY_LIMIT))
        if self.scheduler is not None and (
            not isinstance(self.scheduler, str) or not self.scheduler.strip()
        ):
            raise ValueError(
                f"scheduler must be the address of a Dask scheduler such as "
                f"'tcp://host:8786', got {self.scheduler!r}"
            )

    def limits(self) -> Limits:
        """The per-check limits these settings imply.

        Returns
        -------
        Limits
            CPU and memory limits as set; the wall-clock backstop defaults to
            ``WALL_FACTOR * timeout + WALL_SLACK``.

        Examples
        --------
        >>> RunSettings(timeout=10).limits().wall_seconds
        110.0
        """
        wall = self.wall_timeout
        if wall is None and self.timeout is not None:
            wall = self.timeout * WALL_FACTOR + WALL_SLACK
        return Limits(self.timeout, wall, self.memory_limit)


def claim_context(claim_id: str, settings: RunSettings) -> CheckContext:
    """The context of one check under ``settings``.

    Parameters
    ----------
    claim_id : str
        A registered claim.
    settings : RunSettings
        The run's settings.

    Returns
    -------
    CheckContext
        The claim's own seed (:func:`~moetheory.engine.context.claim_seed`), profile,
        error level and scheduler.

    Raises
    ------
    KeyError
        If no claim has this ID.

    See Also
    --------
    moetheory.stats.claim_alpha : the claim's share of the family level.

    Notes
    -----
    :math:`\\alpha_{\\text{claim}} = \\alpha_{\\text{fam}} / N_{\\text{stat}}` with
    :math:`N_{\\text{stat}}` the statistical claims of the claim's family.
    The statistical budget depends neither on the selection nor on installed plugins:
    the family level is split over the statistical claims of the claim's own family (the
    built-in catalogue, or the plugin that registered it), so ``--only`` or a new plugin
    never changes a verdict.

    Examples
    --------
    >>> from moetheory.engine.registry import load_checks
    >>> load_checks()
    >>> ctx = claim_context("cl.fig2", RunSettings(seed=3))
    >>> ctx.profile, 0 < ctx.alpha < 0.05
    ('quick', True)
    """
    claim = get_claim(claim_id)
    return CheckContext(
        claim_id=claim_id,
        seed=claim_seed(settings.seed, claim_id),
        profile=settings.profile,
        alpha=claim_alpha(family_size(claim.family), settings.family_alpha),
        scheduler=settings.scheduler,
        master_seed=settings.seed,
    )


# --------------------------------------------------------------------------- signals


class Interrupted(KeyboardInterrupt):
    """A run stopped by SIGINT, SIGTERM or SIGHUP; exit code ``128 + signum``.

    Parameters
    ----------
    signum : int
        The signal's number.

    See Also
    --------
    SignalGuard : raises it.

    Notes
    -----
    A subclass of :class:`KeyboardInterrupt`, so code that does not expect it lets it pass.

    Examples
    --------
    >>> import signal
    >>> e = Interrupted(signal.SIGTERM)
    >>> e.name, e.exit_code
    ('SIGTERM', 143)
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        #: Set by :func:`~moetheory.engine.verification.verify` once it has written the
        #: reports of the interrupted run.
        self.reports_written = False

    @property
    def name(self) -> str:
        """The signal's name, e.g. ``"SIGTERM"``."""
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        """The process exit code, ``128 + signum``."""
        return 128 + self.signum


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@dataclass
class SignalGuard:
    """Turn SIGINT, SIGTERM and SIGHUP into a flag the run loop checks at safe points.

    Handlers are installed only in the main thread (elsewhere the guard is inert) and
    the previous handlers are restored on exit. A second signal raises
    :class:`Interrupted` at once, so an operator can always stop a run that is stuck
    (e.g. writing into a FIFO nobody reads).

    Parameters
    ----------
    signum : int or None
        The first stop signal received (``None`` until one arrives).
    _old : dict
        Internal: the handlers to restore on exit (leave it out).

    See Also
    --------
    run_claims : checks the guard between checks.

    Notes
    -----
    Use as a context manager; :meth:`check` raises at the caller's safe points.

    Examples
    --------
    >>> with SignalGuard() as guard:
    ...     guard.check()  # no signal: nothing happens
    >>> guard.signum is None
    True
    """

    signum: int | None = None
    _old: dict[int, Any] = field(default_factory=dict)

    def __enter__(self) -> SignalGuard:
        if threading.current_thread() is threading.main_thread():
            for sig in _STOP_SIGNALS:
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old.clear()

    def _handle(self, signum: int, frame: object) -> None:
        if self.signum is not None:
            raise Interrupted(self.signum)
        self.signum = signum

    def check(self) -> None:
        """Raise :class:`Interrupted` if a stop signal has arrived.

        Returns
        -------
        None

        Raises
        ------
        Interrupted
            If a stop signal has arrived since the guard was entered.

        Examples
        --------
        >>> try:
        ...     SignalGuard(signum=15).check()
        ... except Interrupted as stop:  # a KeyboardInterrupt: catch it by name
        ...     print(stop.name)
        SIGTERM
        """
        if self.signum is not None:
            raise Interrupted(self.signum)


# ------------------------------------------------------------------ child processes

_WATCH: tuple[int, int, int] | None = None  # (pid that owns it, read end, write end)
_WATCH_LOCK = threading.Lock()
_FORK_LOCK = threading.Lock()  # held while a thread freezes the heap and forks
#: How long the engine waits for a supervisor it asked to stop before killing its group.
_STOP_PATIENCE = 5.0
#: What a check's (or a ``ctx.map`` task's) process runs: given the reason its limits could
#: not be set (or ``None``), the bytes it reports.
_Run = Callable[[str | None], bytes]
#: In a check's process: the limits it runs under (``None`` elsewhere).
_LIMITS: Limits | None = None
#: In a check's process: CPU seconds its ``ctx.map`` tasks used on a cluster so far.
_MAP_CPU = 0.0


#: Modules imported on first use inside library functions, imported by the engine once
#: before it forks a check's process, so that each check does not import them again:
#: ``sympy.simplify`` imports ``sympy.physics.units`` (about 0.2 s of CPU, in some 70 checks
#: of the catalogue), the statistics' intervals ``scipy.stats`` (about 1.2 s, in some 40:
#: a ninth of the quick profile's CPU), SymPy's ``ask`` its SAT handlers (in some 100).
PRELOAD = ("sympy.physics.units", "scipy.stats", "sympy.assumptions.satask")


def _preload() -> None:
    for name in PRELOAD:
        importlib.import_module(name)


def _watch_pipe() -> tuple[int, int]:
    """The engine's watch pipe; only this process keeps its write end open, so its read end
    (held by every check's supervisor) closes when the engine is gone, even by ``kill -9``."""
    global _WATCH
    with _WATCH_LOCK:
        if _WATCH is None or _WATCH[0] != os.getpid():
            r, w = os.pipe()
            _WATCH = (os.getpid(), r, w)
        return _WATCH[1], _WATCH[2]


def _payload(verdict: Verdict, summary: str, **evidence: Any) -> dict[str, Any]:
    return Outcome(verdict, summary, evidence).to_dict()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _set_limit(which: int, soft: int, hard: int) -> None:
    _, current = resource.getrlimit(which)
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    resource.setrlimit(which, (soft, hard))


def _set_limits(limits: Limits) -> None:
    """Set the CPU and address-space limits of this (the check's) process."""
    if limits.cpu_seconds is not None:
        seconds = max(1, math.ceil(limits.cpu_seconds))
        _set_limit(resource.RLIMIT_CPU, seconds, seconds + 1)
    if limits.memory_bytes is not None:
        _set_limit(resource.RLIMIT_AS, limits.memory_bytes, limits.memory_bytes)


#: OpenBLAS's thread-count getters and setters, under the names NumPy's and SciPy's wheels
#: export (the first pair a library has is used).
_BLAS_THREADS = tuple((f"{p}openblas_get_num_threads{s}", f"{p}openblas_set_num_threads{s}")
                      for p in ("scipy_", "") for s in ("64_", ""))
#: ``(len(sys.modules), functions)``: the OpenBLAS thread controls of the loaded libraries,
#: looked up again only after an import (reading ``/proc/self/maps`` takes ~3 ms).
_BLAS_CONTROLS: tuple[int, list[tuple[Any, Any]]] = (-1, [])


def _blas_controls() -> list[tuple[Any, Any]]:
    """``(get, set)`` thread-count functions of each OpenBLAS library loaded (Linux)."""
    global _BLAS_CONTROLS
    if _BLAS_CONTROLS[0] == len(sys.modules):
        return _BLAS_CONTROLS[1]
    import ctypes

    controls = []
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            libraries = {line.split()[-1] for line in maps
                         if "openblas" in line.lower() and "/" in line}
    except OSError:  # not Linux: nothing to do
        libraries = set()
    for path in sorted(libraries):
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for getter, setter in _BLAS_THREADS:
            if hasattr(library, getter) and hasattr(library, setter):
                controls.append((getattr(library, getter), getattr(library, setter)))
                break
    _BLAS_CONTROLS = (len(sys.modules), controls)
    return controls


def _set_blas_threads(n: int) -> list[tuple[Any, int]]:
    """Set each loaded OpenBLAS to ``n`` threads; returns ``(setter, previous count)`` of each
    library it changed. A library already at ``n`` is not told again: OpenBLAS's setter starts
    its thread pool, whose threads then busy-wait."""
    changed = []
    for get, put in _blas_controls():
        before = int(get())
        if before != n:
            put(n)
            changed.append((put, before))
    return changed


#: ``mallopt`` parameters of glibc (``malloc.h``) and the values :func:`prepare_worker` sets.
_MALLOPT = ((-3, 32 << 20), (-1, 1 << 30))  # M_MMAP_THRESHOLD, M_TRIM_THRESHOLD


def _keep_freed_memory() -> None:
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (or no C library to ask)
        return
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    for param, value in _MALLOPT:
        mallopt(param, value)


def prepare_worker() -> None:
    """Give BLAS one thread in this process and let it keep freed memory for reuse.

    Checks run one per process (``--jobs``), and so do the workers of the benchmarks and of
    the calibration: each calls this first.

    Returns
    -------
    None

    Notes
    -----
    Neither setting changes a result, only how fast it comes.

    *Memory.* NumPy takes every array from ``malloc``. glibc serves large requests with fresh
    ``mmap`` pages and returns freed memory above 128 KiB at the top of the heap to the system,
    so every large temporary of a loop page-faults again on each 4 KiB page it touches:
    :func:`~moetheory.estimation.detmath.det_exp` of 300,000 numbers took 14 ms instead of
    5 ms, and the dense rates fit at :math:`n = 10^5` spent 15% of its time in page faults.
    ``mallopt`` raises the ``mmap`` threshold to 32 MiB (glibc's largest) and the trim
    threshold to 1 GiB; elsewhere than glibc nothing is done.

    *BLAS.* OpenBLAS threads busy-wait; two checks each running a threaded BLAS on 2 cores made a
    12 s check take over 10 min under ``OPENBLAS_CORETYPE=Sandybridge``, and a threaded
    BLAS also doubles the CPU time a benchmark reports. The libraries are already loaded
    (the engine forked after importing NumPy), so the environment variable alone is too
    late: the loaded OpenBLAS is told through its own setter, unless it already has one
    thread (the setter starts OpenBLAS's thread pool, whose threads busy-wait for ~17 ms of
    CPU; the engine sets one thread before it forks a check's process, so the check's
    process does not start a pool). The variables are set too, for any process the caller
    starts.

    See Also
    --------
    run_isolated : runs each check in a process that calls this.

    Examples
    --------
    >>> import os
    >>> prepare_worker()
    >>> os.environ["OPENBLAS_NUM_THREADS"]
    '1'
    """
    _keep_freed_memory()
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"  # for any process the check starts
    _set_blas_threads(1)


def _child_main(run: _Run, limits: Limits, out: int) -> None:
    """The body of a check's process, forked by its supervisor (the caller ``_exit``s)."""
    global _LIMITS
    prepare_worker()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    refused = None
    try:
        _set_limits(limits)
    except (ValueError, OverflowError, OSError) as exc:  # the work does not run unlimited
        refused = str(exc)
    _LIMITS = limits
    _write_all(out, run(refused))
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass


def _check_run(check: CheckFunction, ctx: CheckContext, limits: Limits) -> _Run:
    """What a check's process runs: the check, its payload as JSON."""

    def run(refused: str | None) -> bytes:
        if refused is not None:
            return json.dumps(_payload(
                Verdict.ERROR, f"the check's limits could not be set: {refused}",
                reason=f"setrlimit failed: {refused}", cpu_seconds=limits.cpu_seconds,
                memory_limit_bytes=limits.memory_bytes)).encode("utf-8")
        try:
            payload = outcome_payload(check(ctx))
        except (MemoryError, OSError) as exc:
            # an address space too small shows as MemoryError, or as ENOMEM from mmap & co.
            if isinstance(exc, MemoryError) or exc.errno == errno.ENOMEM:
                payload = _payload(
                    Verdict.ERROR,
                    "check ran out of memory"
                    + (f" (memory limit {limits.memory_bytes} bytes)" if limits.memory_bytes
                       else ""),
                    reason="memory limit exceeded" if limits.memory_bytes else "out of memory",
                    memory_limit_bytes=limits.memory_bytes,
                )
            else:
                payload = _raised(exc)
        except TypeError as exc:
            if str(exc).startswith(("malformed Outcome", "malformed result", "check returned")):
                payload = _payload(Verdict.ERROR, str(exc), reason=str(exc))
            else:
                payload = _raised(exc)
        except BaseException as exc:
            payload = _raised(exc)
        try:
            text = json.dumps(payload, allow_nan=False)
        except (TypeError, ValueError) as exc:
            text = json.dumps(_payload(Verdict.ERROR, f"malformed Outcome: {exc}",
                                       reason=str(exc)))
        return text.encode("utf-8")

    return run


def _raised(exc: BaseException) -> dict[str, Any]:
    return _payload(
        Verdict.ERROR,
        f"check raised {type(exc).__name__}: {exc}",
        traceback=traceback.format_exc(),
    )


def _renew_fork_lock() -> None:
    """In a forked child: a fresh fork lock (the parent's copy is held by the forking
    thread, which is this one)."""
    global _FORK_LOCK
    _FORK_LOCK = threading.Lock()


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@contextmanager
def _one_blas_thread() -> Iterator[None]:
    """One OpenBLAS thread in this process while it forks check processes: they inherit it
    and so need not tell OpenBLAS, which would start a thread pool that busy-waits (~17 ms of
    CPU per check). The libraries it changed get their counts back on exit (once: restoring
    them after every fork cost ~30 ms of CPU each)."""
    changed = _set_blas_threads(1)
    try:
        yield
    finally:
        for put, count in changed:
            put(count)


def _cpu_exceeded(limit: float) -> dict[str, Any]:
    return _payload(
        Verdict.INCONCLUSIVE,
        f"time limit of {limit:g} s of CPU time exceeded",
        reason="time limit exceeded",
        timeout_seconds=limit,
    )


class _Child:
    """One check's supervised process tree: start it, collect its output, stop it.

    The engine forks a supervisor (:func:`moetheory.engine._supervise.supervise`), which
    forks the check's process, counts the CPU time of every descendant and kills them all
    when the check ends, exceeds its limit, is stopped or the engine goes.
    """

    def __init__(self, run: _Run, limits: Limits) -> None:
        self.limits = limits
        _preload()
        watch_r, watch_w = _watch_pipe()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        engine, store = os.getpid(), os.environ.get(STORE_ENV)
        # Frozen objects are skipped by the collector: a full collection in the check's
        # process would otherwise write to every object of the engine's heap and so copy all
        # its pages from the engine (copy-on-write). The engine unfreezes right after (unless
        # its host had frozen objects itself). The lock: threads of one process (a Dask
        # worker's) forking at once left the engine's objects frozen for good (one thread
        # unfroze before the other froze), and each child held the others' output pipes.
        with _FORK_LOCK, blocked_stop_signals():  # the supervisor acts on SIGTERM once it can
            r, w = os.pipe()
            thawed = gc.get_freeze_count() == 0
            gc.freeze()
            pid = os.fork()  # run_isolated and run_claims fork under _one_blas_thread
            if pid == 0:
                try:
                    _renew_fork_lock()
                    os.close(r)
                    os.close(watch_w)
                    supervise(functools.partial(_child_main, run, limits, w),
                              limits.cpu_seconds, w, watch_r,
                              engine_gone=functools.partial(remove_store_of, store, engine))
                finally:
                    os._exit(70)
            if thawed:
                gc.unfreeze()
            os.close(w)
        os.set_blocking(r, False)
        self.pid = pid
        self.fd: int | None = r
        self.data = bytearray()
        self.eof = False
        self.started = time.monotonic()
        self.stopping: float | None = None  # when the supervisor was asked to stop
        self.reaped = False
        self.done = False
        self.result: Any = None

    def _drain(self) -> None:
        while self.fd is not None:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                self.eof = True
                return
            self.data += chunk

    def _close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def poll(self) -> Any:
        """The result once the work has ended (or been stopped), else ``None``."""
        if self.done:
            return self.result
        self._drain()
        try:
            pid, status, _ = os.wait4(self.pid, os.WNOHANG)
        except ChildProcessError:  # reaped by someone else (SIGCHLD ignored by the host)
            if not self.eof:
                return None
            pid, status = self.pid, 0
        if pid == 0:
            wall = self.limits.wall_seconds
            if wall is None or time.monotonic() - self.started < wall:
                return None
            self.kill()
            return self._finish(self._wall(wall))
        self.reaped = True
        self._drain()
        self._close()
        _kill_group(self.pid)  # had the supervisor been killed, its group may be left
        return self._finish(self._decode(*split_trailer(bytes(self.data)), status))

    def handed_over(self) -> Any:
        """The result as soon as the supervisor has reported (its trailer, then the end of
        the output: every process of the work is dead), before the supervisor itself is torn
        down (about 3 ms); the supervisor is then reaped by :meth:`reap`. ``None`` until
        then."""
        if self.done:
            return self.result
        self._drain()
        if not self.eof:
            return None
        body, trailer = split_trailer(bytes(self.data))
        if trailer is None:
            return None
        self._close()
        return self._finish(self._decode(body, trailer, 0))

    def reap(self, block: bool) -> bool:
        """Reap the supervisor once it has exited; ``True`` once it is reaped."""
        while not self.reaped:
            try:
                pid, _ = os.waitpid(self.pid, 0 if block else os.WNOHANG)
            except ChildProcessError:
                pid = self.pid
            except InterruptedError:
                continue
            if not pid:
                return False
            self.reaped = True
        return True

    def _finish(self, result: Any) -> Any:
        self.done, self.result = True, result
        return result

    def _wall(self, wall: float) -> Any:
        return _payload(
            Verdict.INCONCLUSIVE,
            f"wall-clock backstop of {wall:g} s exceeded (the check was waiting or the "
            "machine was overloaded; this verdict depends on the load)",
            reason="wall-clock limit exceeded",
            wall_timeout_seconds=wall,
        )

    def _decode(self, body: bytes, trailer: dict[str, Any] | None, status: int) -> Any:
        """The payload from the check's output, its supervisor's trailer and the
        supervisor's own wait status."""
        cpu_limit = self.limits.cpu_seconds
        if trailer is None:  # the supervisor itself was killed or failed
            used = 0.0
        elif trailer.get("over") and cpu_limit is not None:
            return _cpu_exceeded(cpu_limit)
        elif not isinstance(trailer.get("status"), int):
            return _payload(Verdict.ERROR, "check process did not end when stopped",
                            reason="check process could not be killed")
        else:
            status, used = trailer["status"], float(trailer.get("cpu", 0.0))
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            if cpu_limit is not None and (
                sig == signal.SIGXCPU
                or (sig == signal.SIGKILL and used >= math.ceil(cpu_limit) - 0.05)
            ):
                return _cpu_exceeded(cpu_limit)
            return _payload(
                Verdict.ERROR,
                f"check process was killed by {signal.Signals(sig).name}",
                exitcode=-sig,
            )
        code = os.WEXITSTATUS(status)
        if code == 0:
            try:
                payload = json.loads(body.decode("utf-8"))
                if isinstance(payload, dict) and "verdict" in payload:
                    return payload
            except (UnicodeDecodeError, ValueError, RecursionError):
                pass
        if code == 0:
            return _payload(
                Verdict.ERROR, "check process ended without reporting a result", exitcode=0
            )
        return _payload(
            Verdict.ERROR, f"check process died (exit code {code})", exitcode=code
        )

    def stop(self) -> None:
        """Ask the supervisor to kill every process of the work and exit (no wait)."""
        if not self.reaped and self.stopping is None:
            self.stopping = time.monotonic()
            try:
                os.kill(self.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        """Stop the work's whole process tree and reap its supervisor."""
        self.stop()
        while not self.reaped:
            try:
                pid, _ = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                pid = self.pid
            if pid:
                self.reaped = True
            elif time.monotonic() - (self.stopping or 0.0) > _STOP_PATIENCE:
                _kill_group(self.pid)  # the supervisor does not answer: its group at least
                try:
                    os.waitpid(self.pid, 0)
                except ChildProcessError:
                    pass
                self.reaped = True
            else:
                time.sleep(_EXITING)
        self._close()


def run_isolated(
    check: CheckFunction, ctx: CheckContext, limits: Limits, stop_event: str | None = None
) -> dict[str, Any]:
    """Run one check in its own supervised process tree under ``limits``; return its payload.

    Parameters
    ----------
    check : callable
        ``check(ctx) -> Outcome``.
    ctx : CheckContext
        Its context.
    limits : Limits
        CPU, wall-clock and memory limits.
    stop_event : str, optional
        Name of a ``distributed.Event`` whose setting stops the check.

    Returns
    -------
    dict
        The payload: verdict, summary, evidence and readings, or an ``inconclusive``
        (limit, interruption) or ``error`` (exception, crash) payload with the reason.

    See Also
    --------
    run_claims : runs many claims.

    Notes
    -----
    This is what a Dask worker runs for each claim, so the limits hold on the workers; there
    the check is also stopped when its task is cancelled, as happens when the client that
    sent it goes (even by ``kill -9``). The check runs in a forked process under a
    supervisor that counts the CPU time of all its descendants and kills them all when the
    check ends, exceeds a limit, is stopped or the engine dies.

    Examples
    --------
    >>> from moetheory.engine.context import CheckContext
    >>> from moetheory.engine.verdicts import Outcome, Verdict
    >>> def check(ctx):
    ...     return Outcome(Verdict.PROVED, "1 + 1 = 2")
    >>> run_isolated(check, CheckContext("x", 0), Limits(10.0, 110.0))["verdict"]
    'proved'
    """
    with _one_blas_thread():
        child = _Child(_check_run(check, ctx, limits), limits)
        payload = _await(child, stop_event)
    if payload is None:
        return _payload(Verdict.INCONCLUSIVE, "run interrupted", reason="interrupted")
    return dict(payload)


def _dask_task_wanted() -> Callable[[], bool] | None:
    """In a Dask worker's task: a function telling whether the task is still wanted (its
    client may have gone, or cancelled it); ``None`` elsewhere."""
    if "distributed" not in sys.modules:
        return None
    try:
        from distributed import get_worker
        from distributed.worker import thread_state

        worker = get_worker()
        key = thread_state.key
    except (ImportError, ValueError, AttributeError):
        return None

    def wanted() -> bool:
        task = worker.state.tasks.get(key)
        return task is not None and task.state not in ("cancelled", "released", "forgotten")

    return wanted


def _await(child: _Child, stop_event: str | None = None) -> Any:
    """``child``'s result; ``None`` if it was stopped: its Dask task was cancelled or the
    ``distributed.Event`` named ``stop_event`` was set."""
    event = None
    if stop_event is not None:
        from distributed import Event

        event = Event(stop_event)
    wanted = _dask_task_wanted()
    last_check = time.monotonic()
    try:
        while (result := child.poll()) is None:
            if child.fd is not None and not child.eof:
                select.select([child.fd], [], [], _POLL)
            else:
                time.sleep(_POLL if child.fd is None else _EXITING)
            stop = wanted is not None and not wanted()
            if event is not None and time.monotonic() - last_check > 0.5:
                last_check = time.monotonic()
                stop = stop or event.is_set()
            if stop:
                child.kill()
                return None
        return result
    finally:
        if not child.done:
            child.kill()


# ------------------------------------------------------------- ctx.map on a Dask cluster


class _MapChild(_Child):
    """A ``ctx.map`` task's supervised process: its result is a dict (see
    :func:`_map_task`)."""

    def _wall(self, wall: float) -> Any:
        return {"cpu": 0.0, "timeout": False,
                "died": f"a ctx.map task exceeded the wall-clock backstop of {wall:g} s"}

    def _decode(self, body: bytes, trailer: dict[str, Any] | None, status: int) -> Any:
        cpu = float(trailer.get("tree", 0.0)) if trailer is not None else 0.0
        if trailer is not None:
            status = trailer["status"] if isinstance(trailer.get("status"), int) else -1
        over = trailer is not None and bool(trailer.get("over"))
        if over or (status >= 0 and os.WIFSIGNALED(status)
                    and os.WTERMSIG(status) == signal.SIGXCPU):
            return {"cpu": cpu, "timeout": True}
        if status == 0:
            try:
                out = pickle.loads(body)
                if isinstance(out, dict):
                    return {"cpu": cpu, "timeout": False, **out}
            except Exception:
                pass
        how = (f"was killed by {signal.Signals(os.WTERMSIG(status)).name}"
               if status >= 0 and os.WIFSIGNALED(status)
               else f"died (exit code {os.WEXITSTATUS(status) if status >= 0 else '?'})")
        return {"cpu": cpu, "timeout": False, "died": f"a ctx.map task's process {how}"}


def _map_run(func: Callable[[Any], Any], item: Any) -> _Run:
    def run(refused: str | None) -> bytes:
        if refused is not None:
            return pickle.dumps({"raised": RuntimeError(
                f"a ctx.map task's limits could not be set: {refused}")})
        try:
            out = {"value": func(item)}
        except BaseException as exc:
            out = {"raised": exc}
        try:
            return pickle.dumps(out)
        except Exception as exc:
            kind = "value" if "value" in out else "exception"
            return pickle.dumps({"raised": TypeError(
                f"ctx.map: the {kind} of a task could not be pickled ({exc})")})

    return run


def _map_task(func: Callable[[Any], Any], limits: Limits, item: Any) -> dict[str, Any]:
    """Run ``func(item)`` on a Dask worker in a supervised process under ``limits``."""
    with _one_blas_thread():
        child = _MapChild(_map_run(func, item), limits)
        out = _await(child)
    if out is None:
        return {"cpu": 0.0, "timeout": False, "died": "the ctx.map task was cancelled"}
    return dict(out)


def _own_cpu() -> float:
    """CPU seconds of this process and of the children it has waited for."""
    me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _over_cpu_limit() -> NoReturn:
    """End this check's process as the kernel ends one over its CPU-time limit."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGXCPU})
    os.kill(os.getpid(), signal.SIGXCPU)
    os._exit(70)  # (not reached)


def map_on_cluster(scheduler: str, func: Callable[[Any], Any], items: Sequence[Any]
                   ) -> list[Any]:
    """``[func(x) for x in items]`` on a Dask cluster, under the check's limits.

    Parameters
    ----------
    scheduler : str
        Address of the Dask scheduler.
    func : callable
        Picklable; applied to each item.
    items : sequence
        The work items.

    Returns
    -------
    list
        ``func(x)`` for each item, in order.

    Raises
    ------
    Exception
        The first item's exception, in the order of ``items``, if any raised.
    RuntimeError
        If an item's process died (e.g. killed by a signal) without a result.

    See Also
    --------
    moetheory.engine.context.CheckContext.map : the check's way to call it.

    Notes
    -----
    Each item runs on a worker in a supervised process, as a check does (:func:`run_isolated`):
    under the check's memory limit, with a CPU-time limit of what is left of the check's
    own, killed with all its descendants when its task is cancelled (the check's process, and
    so its client, went). The CPU time the items used counts against the check's limit: once
    the check's process and its items together exceed it, the check's process ends as one
    over its limit does (the claim is ``inconclusive``, "time limit exceeded"), as a local run
    that computes the items in the check's own process would. Outside a check's process no
    CPU-time limit applies.

    Examples
    --------
    >>> map_on_cluster("tcp://127.0.0.1:8786", abs, [-1, 2])  # doctest: +SKIP
    [1, 2]
    """
    global _MAP_CPU
    from distributed import Client, as_completed

    limits = _LIMITS if _LIMITS is not None else Limits(None, None, None)
    cap = None if limits.cpu_seconds is None else math.ceil(limits.cpu_seconds)
    budget = None
    if cap is not None:
        budget = cap - _own_cpu() - _MAP_CPU
        if budget <= 0:
            _over_cpu_limit()
    task = Limits(budget, None, limits.memory_bytes)
    outcomes: dict[str, dict[str, Any]] = {}
    with Client(scheduler, set_as_default=False) as client:
        futures = client.map(functools.partial(_map_task, func, task), list(items), pure=False)
        for future, out in as_completed(futures, loop=client.loop, with_results=True):
            outcomes[future.key] = out
            _MAP_CPU += out["cpu"]
            if cap is not None and (out["timeout"] or _own_cpu() + _MAP_CPU > cap):
                client.cancel(futures)
                _over_cpu_limit()
    results = []
    for future in futures:
        out = outcomes[future.key]
        if "raised" in out:
            raise out["raised"]
        if "died" in out:
            raise RuntimeError(out["died"])
        results.append(out["value"])
    return results


context.cluster_map = map_on_cluster  # what ctx.map uses on a cluster


# ------------------------------------------------------------------------ the runner


def _entry(claim: Claim, ctx: CheckContext, payload: Any, seconds: float) -> dict:
    """The report entry of ``claim``, built here from the claim the engine asked for and
    the payload its check's process reported, validated (a malformed one is ``error``)."""
    try:
        payload = checked_payload(payload)
    except TypeError as exc:
        payload = _payload(Verdict.ERROR, f"the check's process reported a {exc}",
                           reason=str(exc))
    return _valid_unicode({
        "id": claim.id,
        "seed_file": claim.seed_file,
        "seed_files": list(claim.seed_files),
        "section": claim.section,
        "statement": claim.statement,
        "reading": claim.reading,
        "kind": claim.kind,
        "implemented": claim.implemented,
        "origin": claim.origin,
        "provenance": claim.provenance,
        "sources": [src.as_json() for src in claim.sources],
        "covers": list(claim.covers),
        "claim_seed": ctx.seed,
        "alpha": ctx.alpha if claim.kind == "statistical" else None,
        "verdict": payload["verdict"],
        "summary": payload["summary"],
        "evidence": payload["evidence"],
        "readings": payload["readings"],
        "derivation": payload["derivation"],
        "statement_latex": payload["statement_latex"] or claim.statement_latex,
        "summary_latex": payload["summary_latex"],
        "seconds": round(seconds, 3),
    })


def _valid_unicode(value: Any) -> Any:
    """``value`` with each lone surrogate of its texts as a ``\\udcNN`` escape (a file name
    that is not UTF-8 comes as such), so the report can be written as UTF-8."""
    if isinstance(value, str):
        if value.isascii():
            return value
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "backslashreplace").decode("utf-8")
        return value
    if isinstance(value, dict):
        return {_valid_unicode(k): _valid_unicode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_valid_unicode(v) for v in value]
    return value


@contextmanager
def _guarded(guard: SignalGuard | None) -> Iterator[SignalGuard]:
    if guard is not None:
        yield guard
        return
    with SignalGuard() as own:
        yield own


def run_claims(
    claims: Sequence[Claim],
    settings: RunSettings,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    progress: bool = True,
    guard: SignalGuard | None = None,
) -> list[dict[str, Any]]:
    """Run ``claims`` and return their report entries in the order of ``claims``.

    Parameters
    ----------
    claims : sequence of Claim
        The claims to run.
    settings : RunSettings
        Seed, profile, jobs, limits, scheduler.
    on_result : callable, optional
        Called with each entry as its check completes.
    progress : bool
        Show a progress bar on standard error.
    guard : SignalGuard, optional
        A guard the caller already holds (see Notes).

    Returns
    -------
    list of dict
        One report entry per completed claim, in the order of ``claims``.

    Raises
    ------
    Interrupted
        On SIGINT, SIGTERM or SIGHUP, after killing every running check.
    ValueError
        If a cluster scheduler cannot be reached or lacks the ``distributed`` package, or if
        ``MOETHEORY_RUN_STORE`` names a store that is not safe
        (:func:`~moetheory.engine.shared.check_store`).

    See Also
    --------
    moetheory.engine.verification.verify : runs claims and writes the reports.

    Notes
    -----
    Locally, the checks expected to take longest start first (a run that ended on a long
    simulation left the other workers idle: :func:`~moetheory.engine._schedule.start_order`),
    and the workers that find no claim left are lent to the checks still running
    (:mod:`moetheory.engine._pool`: their ``ctx.map`` pieces and rates cells are split over
    them; processes computing stay at most ``jobs``); the entries come back in the order of
    ``claims`` all the same.
    ``on_result(entry)`` is called as each check completes, once the checks that take its
    place have started (a slow ``on_result`` leaves no core idle). On SIGINT, SIGTERM or
    SIGHUP every running check's process group is killed and :class:`Interrupted` is
    raised; entries already handed to ``on_result`` stay valid. ``guard`` lets the caller
    share one :class:`SignalGuard` over more work than the run (e.g. writing reports).

    Examples
    --------
    >>> from moetheory.engine.registry import load_checks, select_claims
    >>> load_checks()
    >>> [e["verdict"] for e in run_claims(select_claims(["cl.update.min-norm"]),
    ...                                   RunSettings(), progress=False)]
    ['proved']
    """
    from tqdm import tqdm

    if STORE_ENV in os.environ:
        check_store(os.environ[STORE_ENV])
    done: dict[str, dict[str, Any]] = {}
    bar = tqdm(total=len(claims), unit="claim", file=sys.stderr, disable=not progress,
               leave=True)

    def finish(claim: Claim, ctx: CheckContext, payload: dict[str, Any], seconds: float) -> None:
        entry = _entry(claim, ctx, payload, seconds)
        done[claim.id] = entry
        bar.update(1)
        bar.set_postfix_str(f"{claim.id}: {entry['verdict']}")
        if on_result is not None:
            on_result(entry)

    try:
        with _guarded(guard) as g:
            if settings.scheduler is not None:
                _run_on_cluster(claims, settings, finish, g)
            else:
                # a user's --checks claims run after the others, with a store of their own:
                # they never share results (moetheory.engine.shared) with the catalogue's
                users = [c for c in claims if is_user_claim(c)]
                with _one_blas_thread():
                    for group in ([c for c in claims if c not in users], users):
                        if group:
                            _run_locally(group, settings, finish, g)
    finally:
        bar.close()
    return [done[c.id] for c in claims if c.id in done]


_Finish = Callable[[Claim, CheckContext, dict[str, Any], float], None]


def _run_locally(
    claims: Sequence[Claim], settings: RunSettings, finish: _Finish, guard: SignalGuard
) -> None:
    limits = settings.limits()
    pending = deque(start_order(claims, settings.profile, settings.jobs))
    running: list[tuple[Claim, CheckContext, _Child]] = []
    unreaped: list[_Child] = []  # reported; their supervisors not yet reaped

    def start() -> None:
        while pending and len(running) < settings.jobs:
            c = pending.popleft()
            ctx = claim_context(c.id, settings)
            running.append((c, ctx, _Child(_check_run(c.check, ctx, limits), limits)))

    lent = 0  # workers lent to the running checks (moetheory.engine._pool)

    def lend_idle() -> None:
        nonlocal lent
        if not pending and settings.jobs - len(running) > lent:
            _pool.lend(settings.jobs - len(running) - lent)
            lent = settings.jobs - len(running)

    # results the checks share (moetheory.engine.shared), once per run; the workers that
    # find no claim left to start lent to the checks still running (ctx.map, rates cells)
    with run_store(), _pool.token_pool():
        try:
            guard.check()
            start()
            lend_idle()
            while running:
                guard.check()
                fds = [ch.fd for _, _, ch in running if ch.fd is not None and not ch.eof]
                exiting = any(ch.eof for _, _, ch in running)
                try:
                    select.select(fds, [], [], _EXITING if exiting else _POLL)
                except InterruptedError:
                    pass
                ended = []
                for item in list(running):
                    payload = item[2].handed_over()
                    if payload is None:
                        payload = item[2].poll()
                    if payload is not None:
                        running.remove(item)
                        unreaped.append(item[2])
                        ended.append((item, payload, time.monotonic() - item[2].started))
                unreaped[:] = [ch for ch in unreaped if not ch.reap(block=False)]
                start()  # before the reports are written: the cores stay busy meanwhile
                lend_idle()
                for (c, ctx, _), payload, seconds in ended:
                    finish(c, ctx, payload, seconds)
                    guard.check()
        finally:
            for _, _, child in running:
                child.stop()  # all at once: each supervisor kills its tree meanwhile
            for _, _, child in running:
                child.kill()
            for child in unreaped:
                child.reap(block=True)


def _probe(address: str) -> None:
    """Fail fast on a TCP scheduler address that refuses connections."""
    if not address.startswith("tcp://"):
        return
    host, _, port = address[len("tcp://"):].rpartition(":")
    if host and port.isdigit():
        with socket.create_connection((host.strip("[]"), int(port)), timeout=10):
            pass


def _run_on_cluster(
    claims: Sequence[Claim], settings: RunSettings, finish: _Finish, guard: SignalGuard
) -> None:
    try:
        from distributed import Client, Event
    except ImportError:
        raise ValueError(
            "scheduler needs dask.distributed: pip install 'moetheory[dask]'"
        ) from None
    limits = settings.limits()
    address = str(settings.scheduler)
    try:
        _probe(address)
        client = Client(address, set_as_default=False, timeout=30)
    except (OSError, TimeoutError) as exc:
        raise ValueError(
            f"scheduler: cannot connect to the Dask scheduler {settings.scheduler!r} ({exc})"
        ) from None
    stop_name = f"moetheory-stop-{uuid.uuid4().hex}"
    stop = Event(stop_name, client=client)
    futures: list[tuple[Any, Claim, CheckContext, float]] = []
    try:
        for c in claims:
            ctx = claim_context(c.id, settings)
            fut = client.submit(
                run_isolated, c.check, ctx, limits, stop_name,
                key=f"moetheory-{c.id}-{uuid.uuid4().hex}", pure=False,
            )
            futures.append((fut, c, ctx, time.monotonic()))
        while futures:
            guard.check()
            time.sleep(_POLL)
            for item in [f for f in futures if f[0].done()]:
                futures.remove(item)
                fut, c, ctx, started = item
                try:
                    payload = fut.result()
                except Exception as exc:  # the worker itself failed
                    payload = _payload(
                        Verdict.ERROR,
                        f"Dask task failed: {type(exc).__name__}: {exc}",
                        reason="worker failure",
                    )
                finish(c, ctx, payload, time.monotonic() - started)
                guard.check()
    finally:
        if futures:
            stop.set()
            client.cancel([f[0] for f in futures])
        client.close()
