"""The rates experiment on a dask LocalCluster gives the same records as the local run."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from moetheory.engine.reproduce import reproduce
from moetheory.estimation.experiment import RatesDesign, run_rates

DESIGN = RatesDesign(n_grid=(40, 120), replicates=2, restarts=1, lm_iterations=15)
CONFIGS = [("perturbed", 3), ("cosine", 2)]


def _local():
    return run_rates(DESIGN, 11, CONFIGS)


def test_executor_gives_the_local_records():
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert run_rates(DESIGN, 11, CONFIGS, executor=pool) == _local()


def test_a_map_of_tasks_gives_the_local_records():
    # the checks pass ``ctx.map``: on a cluster, supervised tasks under the check's limits
    order = []

    def map_tasks(func, items):
        order.extend(item[3] for item in items)  # n of each task, largest first
        return [func(item) for item in items]

    assert run_rates(DESIGN, 11, CONFIGS, map_tasks=map_tasks) == _local()
    assert order == sorted(order, reverse=True) and len(order) == 4


def test_local_cluster_gives_the_local_records():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        remote = run_rates(DESIGN, 11, CONFIGS, scheduler=cluster.scheduler_address)
    assert remote == _local()


def test_scheduler_on_a_local_only_target_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="does not support option"):
        reproduce("cl-fig2", tmp_path, seed=0, profile="quick", replicates=1, progress=False,
                  scheduler="tcp://127.0.0.1:1")


def test_cells_fitted_once_per_process_and_returned_as_copies(monkeypatch):
    import moetheory.estimation.experiment as ex

    d = RatesDesign(n_grid=(30, 40), replicates=2, restarts=0, lm_iterations=8)
    ex._CELLS.clear()
    calls = []
    fit = ex.fit_cell
    monkeypatch.setattr(ex, "fit_cell", lambda *a: calls.append(a[1:4]) or fit(*a))
    first = run_rates(d, seed=3, configs=[("perturbed", 2)])
    first[0]["voronoi_l1"] = -1.0  # a caller's change must not reach the remembered cell
    again = run_rates(d, seed=3, configs=[("perturbed", 2)])
    other = run_rates(d, seed=4, configs=[("perturbed", 2)])
    assert len(calls) == 4  # two cells for seed 3, two for seed 4; seed 3 fitted once
    assert again == run_rates(d, seed=3, configs=[("perturbed", 2)])
    assert again[0]["voronoi_l1"] >= 0 and again != other
    ex._CELLS.clear()
    assert run_rates(d, seed=3, configs=[("perturbed", 2)]) == again  # a fresh fit, same bits


class _Recording(ThreadPoolExecutor):
    """A thread pool that records ``(n, replicates, first_rep)`` of each submitted cell task."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.tasks: list[tuple[int, int, int]] = []

    def submit(self, fn, /, *args, **kwargs):
        ((design, _router, _k, n, _seed, _x_eval, first),) = args
        self.tasks.append((n, design.replicates, first))
        return super().submit(fn, *args, **kwargs)


def test_large_cells_are_split_into_tasks_largest_first(monkeypatch):
    # With one task per cell, one worker fitted the n = 10^5 cell alone while the other idled.
    # A cell's replicates are split into tasks of about TASK_SAMPLES samples (each >= 2
    # replicates), submitted by size, largest first; the records come back in the order of
    # the local run.
    import moetheory.estimation.experiment as ex

    monkeypatch.setattr(ex, "TASK_SAMPLES", 250)
    d = RatesDesign(n_grid=(40, 120), replicates=5, restarts=1, lm_iterations=6)
    with _Recording() as pool:
        split = run_rates(d, 2, [("perturbed", 3)], executor=pool)
    assert sorted(pool.tasks) == [(40, 5, 0), (120, 2, 0), (120, 3, 2)]
    assert pool.tasks[0] == (120, 3, 2)
    assert split == run_rates(d, 2, [("perturbed", 3)])


def test_stop_leaves_a_configs_later_sizes_unfitted_wherever_the_cells_run(monkeypatch):
    """Futility: ``stop`` is asked after each cell, in grid order; True skips the config's
    later sizes. Locally they are never fitted; on an executor they are fitted and dropped,
    so both give the same records."""
    import moetheory.estimation.experiment as ex

    d = RatesDesign(n_grid=(30, 40, 50), replicates=2, restarts=0, lm_iterations=8)
    asked = []

    def stop(router, k, n, cell):
        asked.append((router, k, n, len(cell)))
        return router == "perturbed" and n == 40

    ex._CELLS.clear()
    calls = []
    fit = ex.fit_cell
    monkeypatch.setattr(ex, "fit_cell", lambda *a: calls.append(a[1:4]) or fit(*a))
    configs = [("perturbed", 2), ("cosine", 2)]
    local = run_rates(d, seed=5, configs=configs, stop=stop)
    assert calls == [("perturbed", 2, 30), ("perturbed", 2, 40), ("cosine", 2, 30),
                     ("cosine", 2, 40), ("cosine", 2, 50)]
    assert asked == [(r, k, n, 2) for r, k, n in calls]
    assert [(r["router"], r["n"]) for r in local] == [
        (r, n) for r, _, n in calls for _ in range(2)]
    everything = run_rates(d, seed=5, configs=configs)
    assert local == [r for r in everything if (r["router"], r["n"]) != ("perturbed", 50)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert run_rates(d, seed=5, configs=configs, stop=stop, executor=pool) == local
    ex._CELLS.clear()


def test_checks_sharing_a_runs_cells_fit_different_ones_side_by_side(tmp_path, monkeypatch):
    """In a run, checks that fit the same cells went in lockstep: while one fitted a cell the
    others waited for it (a quick run's first 10 s left a core idle). A cell another check
    is fitting is now left for later while a cell certainly needed is fitted meanwhile: the
    next config's first size, never a size after a cell ``stop`` may end its config on."""
    import os
    import time

    import moetheory.estimation.experiment as ex
    from moetheory.engine.shared import run_store

    d = RatesDesign(n_grid=(30, 40), replicates=2, restarts=0, lm_iterations=8)
    configs = [("perturbed", 2), ("cosine", 2)]
    log = tmp_path / "fitted"
    log.touch()
    fit = ex.fit_cell

    def logged(*a):
        with open(log, "a") as fh:
            fh.write(f"{os.getpid()} {a[1]} {a[3]}\n")
        if a[1:4] == ("perturbed", 2, 30):  # held until the other process fitted cosine 30
            deadline = time.monotonic() + 60
            while "cosine 30" not in log.read_text() and time.monotonic() < deadline:
                time.sleep(0.01)
        return fit(*a)

    def stop(router, k, n, cell):
        return False

    ex._CELLS.clear()
    local = run_rates(d, seed=5, configs=configs, stop=stop)
    monkeypatch.setattr(ex, "fit_cell", logged)
    with run_store():
        ex._CELLS.clear()
        ex._run_cell.cache_clear()
        pid = os.fork()
        if pid == 0:
            try:
                run_rates(d, seed=5, configs=[("perturbed", 2)], stop=stop)
            finally:
                os._exit(0)
        deadline = time.monotonic() + 60
        while f"{pid} perturbed 30" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.01)
        shared_run = run_rates(d, seed=5, configs=configs, stop=stop)
        os.waitpid(pid, 0)
    ex._CELLS.clear()
    ex._run_cell.cache_clear()
    mine = [line.split()[1:] for line in log.read_text().splitlines()
            if line.startswith(f"{os.getpid()} ")]
    assert mine[0] == ["cosine", "30"]  # not waiting for perturbed 30
    assert ["perturbed", "30"] not in mine  # read from the run's store
    everyone = sorted(line.split()[1:] for line in log.read_text().splitlines())
    assert everyone == sorted([r, str(n)] for r, _ in configs for n in d.n_grid)  # once each
    assert shared_run == local


def test_a_cell_that_stop_may_leave_out_is_never_fitted_ahead():
    """While a config's next cell is being fitted elsewhere, another config's next cell is
    fitted, never a later size of the busy config: ``stop`` may leave it out, and a check's
    CPU time must stay at most what it is without the run's store (docs: time limits)."""
    from moetheory.estimation.experiment import _kept

    cells = [("a", 1, 10), ("a", 1, 20), ("b", 1, 10), ("b", 1, 20)]
    fitted = []

    def attempt(*cell):
        if cell[:2] == ("a", 1):
            return None  # another check is fitting a's cells
        fitted.append(cell)
        return [{"cell": cell}]

    def records_of(*cell):  # waits for the other check
        fitted.append(("waited", *cell))
        return [{"cell": cell}]

    def stop(r, k, n, recs):
        return (r, n) == ("a", 10)

    out = _kept(cells, records_of, stop, attempt)
    assert fitted == [("b", 1, 10), ("b", 1, 20), ("waited", "a", 1, 10)]
    assert out == [{"cell": c} for c in [("a", 1, 10), ("b", 1, 10), ("b", 1, 20)]]
    assert _kept(cells, lambda *c: [{"cell": c}], stop) == out
