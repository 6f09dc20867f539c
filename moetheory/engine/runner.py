"""Run checks in child processes, with a time limit, in parallel, with progress.

Each check runs in its own forked process, so a check that runs too long is stopped
(verdict ``inconclusive``), and one that crashes -- even the interpreter itself -- is
``error`` with its traceback, while the run goes on. Results are handed to a callback as
each check completes, so an interrupted run keeps what it finished.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import signal
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from moetheory.engine.context import CheckContext, claim_seed
from moetheory.engine.registry import Claim, get_claim, registered
from moetheory.engine.verdicts import Outcome, Verdict
from moetheory.stats import FAMILY_ALPHA, claim_alpha

__all__ = ["RunSettings", "claim_context", "run_claims"]

#: Default time limit of one check, in seconds.
DEFAULT_TIMEOUT = 900.0


@dataclass(frozen=True)
class RunSettings:
    """How to run a set of checks.

    Examples
    --------
    >>> RunSettings(seed=0, profile="quick", jobs=2).jobs
    2
    >>> RunSettings(jobs=0)
    Traceback (most recent call last):
    ...
    ValueError: jobs must be an integer >= 1, got 0
    """

    seed: int = 0
    profile: str = "quick"
    jobs: int = 1
    timeout: float = DEFAULT_TIMEOUT
    family_alpha: float = FAMILY_ALPHA

    def __post_init__(self) -> None:
        if not isinstance(self.jobs, int) or self.jobs < 1:
            raise ValueError(f"jobs must be an integer >= 1, got {self.jobs}")
        if not self.timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, got {self.timeout}")
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed}")
        if not 0 < self.family_alpha < 1:
            raise ValueError(f"family_alpha must lie in (0, 1), got {self.family_alpha}")


def claim_context(claim_id: str, settings: RunSettings) -> CheckContext:
    """The context of one check under ``settings``.

    The statistical budget does not depend on which claims are selected: it is the family
    level split over every statistical claim registered, so ``--only`` never changes a
    verdict.
    """
    n_stat = sum(c.kind == "statistical" for c in registered())
    return CheckContext(
        claim_id=claim_id,
        seed=claim_seed(settings.seed, claim_id),
        profile=settings.profile,
        alpha=claim_alpha(max(n_stat, 1), settings.family_alpha),
    )


def _error_payload(summary: str, **evidence: Any) -> dict[str, Any]:
    return Outcome(Verdict.ERROR, summary, evidence).to_dict()


def _child(claim_id: str, ctx: CheckContext, conn: Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        outcome = get_claim(claim_id).check(ctx)
        if not isinstance(outcome, Outcome):
            raise TypeError(f"check returned {type(outcome).__name__}, not Outcome")
        text = json.dumps(outcome.to_dict())
    except Exception as exc:
        text = json.dumps(
            _error_payload(
                f"check raised {type(exc).__name__}: {exc}", traceback=traceback.format_exc()
            )
        )
    conn.send(text)
    conn.close()


def _entry(claim: Claim, ctx: CheckContext, payload: dict[str, Any], seconds: float) -> dict:
    return {
        "id": claim.id,
        "seed_file": claim.seed_file,
        "seed_files": list(claim.seed_files),
        "section": claim.section,
        "statement": claim.statement,
        "reading": claim.reading,
        "kind": claim.kind,
        "implemented": claim.implemented,
        "origin": claim.origin,
        "sources": [src.as_json() for src in claim.sources],
        "covers": list(claim.covers),
        "claim_seed": ctx.seed,
        "alpha": ctx.alpha if claim.kind == "statistical" else None,
        **payload,
        "seconds": round(seconds, 3),
    }


@dataclass
class _Running:
    claim: Claim
    ctx: CheckContext
    process: Any
    started: float


def run_claims(
    claims: Sequence[Claim],
    settings: RunSettings,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """Run ``claims`` and return their report entries in the order of ``claims``.

    ``on_result(entry)`` is called as each check completes. On ``KeyboardInterrupt`` the
    running checks are stopped and the exception propagates; entries already handed to
    ``on_result`` stay valid.
    """
    from tqdm import tqdm

    forkctx = mp.get_context("fork")
    pending = deque(claims)
    running: dict[Connection, _Running] = {}
    done: dict[str, dict[str, Any]] = {}
    bar = tqdm(
        total=len(claims), unit="claim", file=sys.stderr, disable=not progress, leave=True
    )

    def finish(run: _Running, payload: dict[str, Any]) -> None:
        entry = _entry(run.claim, run.ctx, payload, time.perf_counter() - run.started)
        done[run.claim.id] = entry
        bar.update(1)
        bar.set_postfix_str(f"{run.claim.id}: {entry['verdict']}")
        if on_result is not None:
            on_result(entry)

    try:
        while pending or running:
            while pending and len(running) < settings.jobs:
                c = pending.popleft()
                ctx = claim_context(c.id, settings)
                parent_end, child_end = forkctx.Pipe(duplex=False)
                proc = forkctx.Process(target=_child, args=(c.id, ctx, child_end), daemon=True)
                proc.start()
                child_end.close()
                running[parent_end] = _Running(c, ctx, proc, time.perf_counter())
            now = time.perf_counter()
            next_deadline = min(r.started + settings.timeout for r in running.values())
            ready = wait(list(running), timeout=max(0.0, next_deadline - now))
            for ready_conn in ready:
                conn = next(c for c in running if c is ready_conn)
                run = running.pop(conn)
                try:
                    payload = json.loads(conn.recv())
                except EOFError:
                    run.process.join(5)
                    payload = _error_payload(
                        f"check process died (exit code {run.process.exitcode})",
                        exitcode=run.process.exitcode,
                    )
                conn.close()
                run.process.join(5)
                finish(run, payload)
            now = time.perf_counter()
            for conn, run in list(running.items()):
                if now - run.started >= settings.timeout:
                    run.process.kill()
                    run.process.join()
                    conn.close()
                    del running[conn]
                    finish(
                        run,
                        Outcome(
                            Verdict.INCONCLUSIVE,
                            f"time limit of {settings.timeout:g} s exceeded",
                            {"reason": "time limit exceeded", "timeout_seconds": settings.timeout},
                        ).to_dict(),
                    )
    finally:
        for conn, run in running.items():
            run.process.kill()
            run.process.join()
            conn.close()
        bar.close()
    return [done[c.id] for c in claims if c.id in done]
