"""Verify claims from Python: select, run, and write the reports as claims complete."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from moetheory.engine.registry import load_checks, select_claims
from moetheory.engine.report import build_report, render_markdown, write_atomic, write_json
from moetheory.engine.runner import RunSettings, run_claims

__all__ = ["verify"]


def verify(
    only: Iterable[str] | None = None,
    *,
    profile: str = "quick",
    seed: int = 0,
    jobs: int = 1,
    timeout: float | None = None,
    json_path: str | os.PathLike[str] | None = None,
    markdown_path: str | os.PathLike[str] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Check the selected claims and return the report.

    Parameters
    ----------
    only : iterable of str, optional
        Shell-style patterns of claim IDs (all claims if omitted).
    profile : {"quick", "full"}
        Budget of the statistical checks.
    seed : int
        Master seed; each check derives its own from it and its claim ID.
    jobs : int
        Checks run in parallel processes.
    timeout : float, optional
        Time limit of each check in seconds; past it the claim is ``inconclusive``.
    json_path, markdown_path : path, optional
        Where to write the reports. They are rewritten (atomically) as each claim
        completes, so an interrupted run keeps the claims already checked.
    progress : bool
        Show a progress bar on standard error.

    Examples
    --------
    >>> report = verify(["pcr.experts.param-count"])
    >>> report["schema"], report["claims"][0]["id"]
    ('moetheory-report/1', 'pcr.experts.param-count')
    """
    load_checks()
    patterns = list(only or [])
    claims = select_claims(patterns)
    settings = RunSettings(
        seed=seed,
        profile=profile,
        jobs=jobs,
        **({"timeout": timeout} if timeout is not None else {}),
    )
    order = {c.id: i for i, c in enumerate(claims)}
    finished: list[dict[str, Any]] = []

    def report_of(complete: bool) -> dict[str, Any]:
        entries = sorted(finished, key=lambda e: order[e["id"]])
        return build_report(
            entries,
            seed=seed,
            profile=profile,
            family_alpha=settings.family_alpha,
            selection=patterns,
            complete=complete,
        )

    def save(report: dict[str, Any]) -> None:
        if json_path is not None:
            write_json(json_path, report)
        if markdown_path is not None:
            write_atomic(markdown_path, render_markdown(report))

    def on_result(entry: dict[str, Any]) -> None:
        finished.append(entry)
        save(report_of(complete=False))

    try:
        run_claims(claims, settings, on_result=on_result, progress=progress)
    finally:
        final = report_of(complete=len(finished) == len(claims))
        save(final)
    return final
