"""Verify claims from Python: validate, select, run, and write the reports as claims complete."""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from moetheory.engine.display import Report
from moetheory.engine.registry import load_checks, select_claims
from moetheory.engine.report import ReportWriter, build_report, environment
from moetheory.engine.runner import (
    DEFAULT_TIMEOUT,
    Interrupted,
    RunSettings,
    SignalGuard,
    run_claims,
)
from moetheory.engine.scheduler import check_scheduler, check_shippable
from moetheory.engine.shared import STORE_ENV, check_store

__all__ = ["cpu_count", "patterns_of", "verify"]


def cpu_count() -> int:
    """The CPUs this process may run on.

    Returns
    -------
    int
        The size of the process's CPU affinity set (``os.cpu_count()`` where affinity is
        unknown), at least 1.

    See Also
    --------
    verify : warns when ``jobs`` exceeds it.

    Notes
    -----
    Respects CPU affinity (containers, ``taskset``), unlike :func:`os.cpu_count`.

    Examples
    --------
    >>> cpu_count() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def patterns_of(only: str | Iterable[str] | None) -> list[str]:
    """``only`` as a list of patterns: a string is one pattern, never its characters.

    Parameters
    ----------
    only : str, iterable of str or None
        One pattern, several, or none (all claims).

    Returns
    -------
    list of str
        The patterns (empty for ``None``).

    Raises
    ------
    ValueError
        If ``only`` is not iterable, or a pattern is not a non-empty string.

    See Also
    --------
    moetheory.engine.registry.select_claims : matches the patterns.

    Notes
    -----
    ``verify("cl.*")`` means one pattern, never the characters of the string.

    Examples
    --------
    >>> patterns_of("cl.*")
    ['cl.*']
    >>> patterns_of(None)
    []
    """
    if only is None:
        return []
    if isinstance(only, str):
        only = [only]
    try:
        patterns = list(only)
    except TypeError:
        raise ValueError(
            f"only must be a claim-ID pattern or a list of patterns, got {only!r}"
        ) from None
    for p in patterns:
        if not isinstance(p, str) or not p.strip():
            raise ValueError(f"only: every pattern must be a non-empty string, got {p!r}")
    return patterns


def verify(
    only: str | Iterable[str] | None = None,
    *,
    profile: str = "quick",
    seed: int = 0,
    jobs: int = 1,
    timeout: float | None = None,
    json_path: str | os.PathLike[str] | None = None,
    markdown_path: str | os.PathLike[str] | None = None,
    progress: bool | None = False,
    memory_limit: int | None = None,
    wall_timeout: float | None = None,
    scheduler: str | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Check the selected claims and return the report.

    Every argument is checked before any claim runs; a bad one raises ``ValueError``
    naming it and its allowed values.

    Parameters
    ----------
    only : str or iterable of str, optional
        Shell-style pattern(s) of claim IDs (all claims if omitted). A string is one
        pattern.
    profile : {"quick", "full"}
        Budget of the statistical checks.
    seed : int
        Master seed (Python or NumPy non-negative integer, not a bool); each check derives its
        own from it and its claim ID.
    jobs : int
        Checks run in parallel processes (1 to 256; more than the CPUs warns). With a
        ``scheduler`` the cluster decides how many run at once.
    timeout : float, optional
        CPU-time limit of each check in seconds (default 900); ``inf`` for none. Past it
        the claim is ``inconclusive``. A wall-clock backstop of ten times the limit plus
        10 s (or ``wall_timeout``) stops checks that wait.
    json_path, markdown_path : path, optional
        Where to write the reports. An incomplete report (no claims) is written first, so
        no report of an earlier run survives; the JSON report is rewritten (compact) as
        each claim completes, so even a killed run keeps the claims already checked; both
        are written in full at the end, also the end of an interrupted run.
    progress : bool or None
        Show a progress bar on standard error; ``None`` shows it on a terminal only.
    memory_limit : int, optional
        Address-space limit of each check's process, in bytes.
    wall_timeout : float, optional
        Wall-clock backstop of each check, in seconds.
    scheduler : str, optional
        Address of a Dask distributed scheduler: run the checks on its workers (the
        limits hold there). The report is the local one, byte for byte, apart from
        ``seconds``.
    on_result : callable, optional
        Called with each claim's report entry as the claim completes (after the JSON
        report was rewritten), e.g. to print one line per claim as ``moetheory verify -v``
        does.

    Returns
    -------
    Report
        The report (schema ``moetheory-report/1``), a :class:`dict`: run settings,
        ``counts`` per verdict and one entry per claim (verdict, summary, evidence,
        readings, seeds, ``alpha``). In a notebook it renders itself (typeset maths).

    Raises
    ------
    ValueError
        For a bad argument, an output path that cannot be written, a
        ``MOETHEORY_RUN_STORE`` that names a store others could write, or a scheduler that is
        not reached and answering within ``MOETHEORY_SCHEDULER_TIMEOUT`` (checked before
        any report is touched).
    moetheory.engine.report.ReportWriteError
        An ``OSError``, after every claim ran, when a report could not be written at the
        end (a full disk); its ``report`` is the run's report.
    moetheory.engine.runner.Interrupted
        On SIGINT, SIGTERM or SIGHUP, after the reports were written with
        ``complete: false``.

    See Also
    --------
    moetheory.engine.runner.run_claims : runs the checks.

    Notes
    -----
    Every argument is checked before any claim runs. Each claim's seed is derived from the
    master seed and its ID, so the report does not depend on the selection, the order or
    the parallelism.

    Examples
    --------
    >>> report = verify("pcr.experts.param-count")
    >>> report["schema"], report["claims"][0]["id"]
    ('moetheory-report/1', 'pcr.experts.param-count')
    """
    patterns = patterns_of(only)
    settings = RunSettings(
        seed=seed,
        profile=profile,
        jobs=jobs,
        timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
        memory_limit=memory_limit,
        wall_timeout=wall_timeout,
        scheduler=scheduler,
    )
    if progress is not None and not isinstance(progress, bool):
        raise ValueError(f"progress must be True, False or None, got {progress!r}")
    if on_result is not None and not callable(on_result):
        raise ValueError(f"on_result must be a callable taking a report entry, got "
                         f"{on_result!r}")
    if STORE_ENV in os.environ:  # refused before any report is touched
        check_store(os.environ[STORE_ENV])
    show_progress = sys.stderr.isatty() if progress is None else progress
    if settings.jobs > cpu_count() and scheduler is None:
        warnings.warn(
            f"jobs={settings.jobs} exceeds the {cpu_count()} CPUs of this machine; "
            "checks will compete for CPU time",
            RuntimeWarning,
            stacklevel=2,
        )
    writer = ReportWriter(json_path, markdown_path, labels=("json_path", "markdown_path"))
    load_checks()
    claims = select_claims(patterns)
    if scheduler is not None:  # reached and answering before any report is touched
        check_shippable(claims, "scheduler")
        check_scheduler(scheduler, "scheduler")
    order = {c.id: i for i, c in enumerate(claims)}
    finished: list[dict[str, Any]] = []
    env = environment()  # read once: the installed versions do not change during a run

    def report_of(complete: bool) -> dict[str, Any]:
        entries = sorted(finished, key=lambda e: order[e["id"]])
        return build_report(
            entries,
            seed=settings.seed,
            profile=settings.profile,
            family_alpha=settings.family_alpha,
            selection=patterns,
            complete=complete,
            env=env,
        )

    def completed(entry: dict[str, Any]) -> None:
        finished.append(entry)
        writer.write(report_of(complete=False), markdown=False)
        if on_result is not None:
            on_result(entry)

    with SignalGuard() as guard:
        writer.write(report_of(complete=False))
        try:
            try:
                run_claims(claims, settings, on_result=completed, progress=show_progress,
                           guard=guard)
            finally:
                final = report_of(complete=len(finished) == len(claims))
                writer.write(final, final=True)
            guard.check()
        except Interrupted as exc:
            exc.reports_written = True
            raise
    return Report(final)
