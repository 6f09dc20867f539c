"""Results shared by the checks of a run (moetheory.engine.shared)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from moetheory import CheckContext, Outcome, Verdict
from moetheory.engine.runner import Limits, run_isolated
from moetheory.engine.shared import STORE_ENV, run_store, shared


def _computing(log: Path):
    @shared(maxsize=2)
    def simulate(seed: int) -> list[int]:
        with open(log, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        return [seed, seed + 1]

    return simulate


def test_a_run_computes_a_shared_result_once_across_check_processes(tmp_path: Path) -> None:
    """Each check runs in its own process: without the run's store every process simulated
    the module's shared grid again."""
    log = tmp_path / "computed"
    simulate = _computing(log)

    def check(ctx: CheckContext) -> Outcome:
        return Outcome(Verdict.PROVED, str(simulate(7)), {})

    with run_store() as store:
        out = [run_isolated(check, CheckContext(f"c{i}", i), Limits(60.0, 120.0))["summary"]
               for i in range(3)]
        assert list(store.iterdir())
    assert out == ["[7, 8]"] * 3
    assert len(log.read_text().split()) == 1  # computed by the first check's process only
    assert not store.exists() and STORE_ENV not in os.environ


def test_outside_a_run_each_process_computes_its_own(tmp_path: Path) -> None:
    log = tmp_path / "computed"
    simulate = _computing(log)

    def check(ctx: CheckContext) -> Outcome:
        return Outcome(Verdict.PROVED, str(simulate(7)), {})

    for i in range(2):
        run_isolated(check, CheckContext(f"c{i}", i), Limits(60.0, 120.0))
    assert len(log.read_text().split()) == 2
    assert simulate(1) == [1, 2] and simulate(1) is simulate(1)  # per-process memo


def test_an_unpicklable_result_is_returned_not_stored(tmp_path: Path) -> None:
    @shared()
    def make(x: int):
        return lambda: x

    with run_store() as store:
        assert make(3)() == 3
        assert not list(store.glob("*.pickle"))


def test_a_process_killed_while_computing_releases_the_lock(tmp_path: Path) -> None:
    """The lock is a file lock: the kernel releases it when its holder dies, so the next
    check computes the result itself instead of waiting forever."""
    log = tmp_path / "computed"

    @shared()
    def slow(x: int) -> int:
        with open(log, "a") as fh:
            fh.write("start\n")
        if len(log.read_text().split()) == 1:
            os._exit(3)  # the first process dies mid-computation
        return x + 1

    def check(ctx: CheckContext) -> Outcome:
        return Outcome(Verdict.PROVED, str(slow(1)), {})

    with run_store():
        first = run_isolated(check, CheckContext("a", 1), Limits(60.0, 120.0))
        second = run_isolated(check, CheckContext("b", 2), Limits(60.0, 120.0))
    assert first["verdict"] == "error" and second["summary"] == "2"


def test_maxsize_is_validated() -> None:
    with pytest.raises(ValueError, match="maxsize must be an integer >= 1"):
        shared(maxsize=0)


@pytest.mark.slow
def test_checks_report_the_same_reading_the_store_as_computing() -> None:
    """The shared grids of seed 003's lemma checks, read back from the run's store by the
    second check, give the report each check gives when it computes them itself."""
    from moetheory.engine.registry import load_checks, select_claims
    from moetheory.engine.runner import RunSettings, claim_context, run_claims
    from moetheory.engine.verdicts import outcome_payload

    load_checks()
    claims = select_claims(["cl.lemma9.gate-gap", "cl.lemma7.directions"])
    settings = RunSettings(seed=5)
    run = run_claims(claims, settings, progress=False)
    for claim, entry in zip(claims, run, strict=True):
        alone = outcome_payload(claim.check(claim_context(claim.id, settings)))
        assert entry["verdict"] == alone["verdict"] and entry["evidence"] == alone["evidence"]


def test_a_result_that_cannot_be_written_is_returned_not_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk must not turn a check into an error: the value is returned, not stored."""

    @shared()
    def value(x: int) -> int:
        return x + 1

    def full(self: Path, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    with run_store() as store:
        monkeypatch.setattr(Path, "write_bytes", full)
        assert value(1) == 2
        assert not list(store.glob("*.pickle")) and not list(store.glob("*.partial"))


def test_a_store_variable_naming_no_directory_is_ignored(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    @shared()
    def value(x: int) -> int:
        return x + 1

    monkeypatch.setenv(STORE_ENV, str(tmp_path / "gone"))
    assert value(1) == 2


def test_a_result_that_would_leave_too_little_free_space_is_not_stored(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The lemma grids take 35-70 MB each: on a nearly full disk the store must not take the
    space the reports need."""
    import shutil

    import moetheory.engine.shared as shared_module

    @shared()
    def value(x: int) -> int:
        return x + 1

    usage = shutil.disk_usage("/")
    monkeypatch.setattr(shared_module.shutil, "disk_usage", lambda path: usage._replace(
        free=shared_module.MIN_FREE_BYTES))
    with run_store() as store:
        assert value(1) == 2
        assert not list(store.glob("*.pickle"))


def test_keyword_arguments_are_part_of_the_key(tmp_path: Path) -> None:
    """prop4_forgetting_expr(reading=...) is public API: keywords must keep working."""
    from moetheory.continual.theory import prop4_generalization_expr

    @shared()
    def power(base: int, exponent: int = 2) -> int:
        return base**exponent

    with run_store():
        assert power(3) == 9 and power(3, exponent=3) == 27 and power(3, 3) == 27
    assert prop4_generalization_expr(reading="ordered") == prop4_generalization_expr("ordered")


def test_a_stored_array_is_mapped_not_copied_and_stays_private(tmp_path: Path) -> None:
    """Checks of seed 003's lemmas each read a 35-70 MB simulation grid: unpickling copied it
    (35,000 page faults, 0.15 s of system time per check). The arrays are now views of a
    private mapping of the stored file: few page faults to read all of it, writable, and a
    write stays in the process that makes it."""
    import resource

    @shared()
    def grid(n: int) -> dict[str, Any]:
        return {"a": np.arange(n, dtype=float), "b": np.ones((3, 4)).T, "n": n}

    n = 10_000_000  # 80 MB
    with run_store() as store:
        grid(n)  # computed and stored here
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                grid.cache_clear()
                before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
                v = grid(n)
                total = float(v["a"].sum())
                faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
                v["a"][:] = -1.0  # private: the store keeps its copy
                ok = v["a"].flags.writeable and v["b"].tolist() == np.ones((4, 3)).tolist()
                os.write(w, json.dumps([faults, total, ok]).encode())
            finally:
                os._exit(0)
        os.close(w)
        with os.fdopen(r) as f:
            faults, total, ok = json.loads(f.read())
        os.waitpid(pid, 0)
        assert ok and total == n * (n - 1) / 2
        assert faults < 5000, faults  # copying 80 MB takes 20,000 4 KiB pages at least
        grid.cache_clear()
        assert grid(n)["a"][:3].tolist() == [0.0, 1.0, 2.0]
        assert len(list(store.glob("*.pickle"))) == 1


def test_checks_needing_the_same_results_split_them_instead_of_waiting(tmp_path: Path) -> None:
    """Checks that need the same shared results in the same order went in lockstep: one
    computed while the others waited for its lock (a quick run's rates checks left a core
    idle for 10 s). ``each_shared`` computes meanwhile what nobody else is computing."""
    import time

    from moetheory.engine.shared import BUSY, each_shared

    log = tmp_path / "computed"
    log.touch()

    @shared()
    def fit(x: int) -> int:
        with open(log, "a") as fh:
            fh.write(f"{os.getpid()} {x}\n")
        if x == 1:  # the other process holds 1 until this one has computed 3
            deadline = time.monotonic() + 30
            while " 3\n" not in log.read_text() and time.monotonic() < deadline:
                time.sleep(0.01)
        return 10 * x

    with run_store():
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(r)
                os.write(w, b"go")  # (before it takes 1's lock: the parent polls below)
                fit(1)
            finally:
                os._exit(0)
        os.close(w)
        os.read(r, 2)
        os.close(r)
        deadline = time.monotonic() + 30
        while f"{pid} 1" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert fit.attempt(1) is BUSY  # at once, without waiting for the lock
        assert each_shared(fit, [(1,), (2,), (3,)]) == [10, 20, 30]
        os.waitpid(pid, 0)
    rows = [line.split() for line in log.read_text().splitlines()]
    assert rows == [[str(pid), "1"], [str(os.getpid()), "2"], [str(os.getpid()), "3"]]


def test_each_shared_wants_a_shared_function() -> None:
    from moetheory.engine.shared import each_shared

    with pytest.raises(TypeError, match="decorated with shared"):
        each_shared(abs, [(1,)])
    assert each_shared(shared()(abs), [(-1,), (2,)]) == [1, 2]  # outside a run too
