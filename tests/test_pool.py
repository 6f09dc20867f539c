"""Idle workers of a local run lent to its checks (moetheory.engine._pool): the same results
as the serial map, and never more processes computing than --jobs."""

from __future__ import annotations

import itertools
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from moetheory import CheckContext, Outcome, Verdict, verify
from moetheory.engine import _pool
from moetheory.estimation.experiment import RatesDesign, _fit_lent, _x_eval, fit_cell


def _draws(item: int) -> tuple[int, list[float]]:
    """A piece deriving its randomness from itself, and the process that computed it."""
    return os.getpid(), np.random.default_rng([7, item]).standard_normal(3).tolist()


def test_lent_map_gives_the_serial_list_and_gives_the_tokens_back() -> None:
    items = list(range(7))
    serial = [_draws(i)[1] for i in items]
    assert [v for _, v in _pool.lent_map(_draws, items)] == serial  # outside a run
    with _pool.token_pool():
        _pool.lend(3)
        lent = _pool.lent_map(_draws, items)
        assert [v for _, v in lent] == serial
        assert len({pid for pid, _ in lent}) > 1  # helpers computed some pieces
        assert _pool.idle_workers() == 3  # every helper gave its token back


def _fails_on_odd(item: int) -> int:
    if item % 2:
        raise ValueError(f"piece {item}")
    return item


def _dies(item: int) -> int:
    """Dies in a helper (as it might of its memory limit), computes in the test's process."""
    with open(PARENT[1], "a") as f:
        f.write(f"{os.getpid()}\n")
    if os.getpid() != PARENT[0]:
        os._exit(3)
    return item


PARENT: list[Any] = [0, ""]


def test_lent_map_raises_what_the_first_failing_piece_raised(tmp_path: Path) -> None:
    with _pool.token_pool():
        _pool.lend(2)
        with pytest.raises(ValueError, match="piece 1"):
            _pool.lent_map(_fails_on_odd, range(6))
        assert _pool.idle_workers() == 2
        PARENT[:] = [os.getpid(), tmp_path / "calls"]  # helpers die: their pieces again here
        assert _pool.lent_map(_dies, range(4)) == [0, 1, 2, 3]
        assert len(set((tmp_path / "calls").read_text().split())) > 1  # helpers did die
        assert _pool.idle_workers() == 2  # the dead helpers' tokens came back


def test_a_rates_cell_split_over_lent_workers_gives_the_same_records() -> None:
    design = RatesDesign(n_grid=(40, 80), replicates=5, restarts=1, lm_iterations=15)
    x_eval = _x_eval(design, 11)
    whole = fit_cell(design, "perturbed", 3, 40, 11, x_eval, 2)
    assert _fit_lent(design, "perturbed", 3, 40, 11, x_eval, 2) == whole  # no token: one batch
    with _pool.token_pool():
        _pool.lend(2)
        assert _fit_lent(design, "perturbed", 3, 40, 11, x_eval, 2) == whole


def _logged(path: Path, label: str, seconds: float) -> None:
    start = time.monotonic()
    time.sleep(seconds)
    with path.open("a") as f:
        f.write(json.dumps([label, os.getpid(), start, time.monotonic()]) + "\n")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_lends_idle_workers_and_never_computes_in_more_than_jobs_processes(
        temp_claims: Any, tmp_path: Path, jobs: int) -> None:
    log = tmp_path / "log"

    def long(ctx: CheckContext) -> Outcome:
        deadline = time.monotonic() + 20
        while jobs > 1 and _pool.idle_workers() == 0 and time.monotonic() < deadline:
            time.sleep(0.02)  # until the short check has ended and its worker is lent
        ctx.map(lambda i: _logged(log, f"piece {i}", 0.2), range(6))
        return Outcome(Verdict.SUPPORTED, "ok")

    def short(ctx: CheckContext) -> Outcome:
        _logged(log, "short", 0.1)
        return Outcome(Verdict.PROVED, "ok")

    temp_claims("test.lend.long", long, kind="statistical")  # no cost known: starts first
    temp_claims("test.lend.short", short)
    report = verify(["test.lend.*"], jobs=jobs)
    assert [e["verdict"] for e in report["claims"]] == ["supported", "proved"]
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    pieces = {pid for label, pid, _, _ in rows if label.startswith("piece")}
    assert (len(pieces) > 1) == (jobs > 1)  # with two workers, helpers computed pieces too
    events = sorted(itertools.chain.from_iterable(((a, 1), (b, -1)) for *_, a, b in rows),
                    key=lambda e: (e[0], e[1]))
    busy = list(itertools.accumulate(step for _, step in events))
    assert max(busy) <= jobs


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_the_cpu_time_of_a_checks_helpers_counts_against_its_limit(
        temp_claims: Any, tmp_path: Path) -> None:
    """Four pieces of 0.4 CPU s, two of them in a helper: 0.8 s in the check's own process,
    1.6 s in its tree, over a limit of 1 s."""
    log = tmp_path / "pids"

    def long(ctx: CheckContext) -> Outcome:
        deadline = time.monotonic() + 20
        while _pool.idle_workers() == 0 and time.monotonic() < deadline:
            time.sleep(0.02)

        def piece(i: int) -> None:
            with log.open("a") as f:
                f.write(f"{os.getpid()}\n")
            _spin(0.4)

        ctx.map(piece, range(4))
        return Outcome(Verdict.SUPPORTED, "ok")

    temp_claims("test.limit.long", long, kind="statistical")
    temp_claims("test.limit.short", lambda ctx: Outcome(Verdict.PROVED, "ok"))
    report = verify(["test.limit.*"], jobs=2, timeout=1.0)
    entry = report["claims"][0]
    assert len(set(log.read_text().split())) > 1  # a helper computed pieces
    assert entry["verdict"] == "inconclusive"
    assert entry["evidence"] == {"reason": "time limit exceeded", "timeout_seconds": 1.0}
