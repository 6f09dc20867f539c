"""Benchmark of the least-squares estimator, side by side in one run.

1. Objective + gradient: the vectorised kernel against a per-sample loop.
2. Whole rates cells (all replicates of one ``(router, k, n)``): the batched deterministic
   Levenberg–Marquardt fit (:func:`moetheory.estimation.experiment.fit_cell`, the default)
   against the previous path, one SciPy BFGS fit per replicate and start
   (:func:`moetheory.estimation.experiment.fit_record`). Both use the same data and starts;
   the table gives CPU seconds, the ratio, and the median objective reached by each.
3. The target of issue 10: one rates configuration at n up to 10^5 with 40 replicates,
   batched LM only (the BFGS path is estimated from its per-fit time at the same n).

Run: ``python benchmarks/bench_estimation.py [--quick]``. Times are CPU seconds
(``time.process_time``) so that other load on a shared machine does not count.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from moetheory.estimation.experiment import (
    RatesDesign,
    fit_cell,
    fit_record,
    rates_design,
)
from moetheory.estimation.fitting import least_squares_loop, least_squares_objective


def _best_of(func, args: tuple, repeats: int) -> float:
    best = np.inf
    for _ in range(repeats):
        start = time.process_time()
        func(*args)
        best = min(best, time.process_time() - start)
    return best


def _kernel_table(quick: bool) -> None:
    design = rates_design("quick")
    rng = np.random.default_rng(0)
    print("objective + gradient, k = 3, perturbed router (best of repeats, CPU)")
    print(f"{'n':>7} {'vectorised [ms]':>16} {'loop [ms]':>10} {'speedup':>8}")
    for n in (100, 1000) if quick else (100, 1000, 5000):
        x = rng.uniform(-2, 2, (n, 2))
        y = rng.standard_normal(n)
        theta = rng.standard_normal(18)
        args = (theta, x, y, 3, design.router("perturbed"))
        t_vec = _best_of(least_squares_objective, args, 20)
        t_loop = _best_of(least_squares_loop, args, 2)
        print(f"{n:>7} {1e3 * t_vec:>16.3f} {1e3 * t_loop:>10.1f} {t_loop / t_vec:>8.0f}")


def _cell_table(quick: bool) -> None:
    base = rates_design("quick")
    reps = 6 if quick else 12
    print(f"\nwhole rates cells, k = 3, {reps} replicates x (1 + {base.restarts}) starts (CPU s)")
    print(f"{'router':>10} {'n':>6} {'LM':>7} {'BFGS':>7} {'ratio':>6} {'median obj LM':>14} "
          f"{'median obj BFGS':>16}")
    x_eval = np.random.default_rng(1).uniform(-2, 2, (500, 2))
    for router in ("cosine", "perturbed") if quick else ("linear", "cosine", "perturbed"):
        for n in (158, 1581) if quick else (158, 1581, 5000):
            d = replace(base, n_grid=(n, n + 1), replicates=reps)
            t = time.process_time()
            lm = fit_cell(d, router, 3, n, 0, x_eval)
            t_lm = time.process_time() - t
            t = time.process_time()
            bf = [fit_record(replace(d, method="bfgs"), router, 3, n, rep, 0, x_eval)
                  for rep in range(reps)]
            t_bf = time.process_time() - t
            print(f"{router:>10} {n:>6} {t_lm:>7.2f} {t_bf:>7.2f} {t_bf / t_lm:>6.1f} "
                  f"{np.median([r['objective'] for r in lm]):>14.6f} "
                  f"{np.median([r['objective'] for r in bf]):>16.6f}")


def _target_table(quick: bool) -> None:
    n_grid = (1000, 10000) if quick else (1000, 10000, 100000)
    reps = 10 if quick else 40
    d = RatesDesign(n_grid=n_grid, replicates=reps, restarts=1)
    x_eval = np.random.default_rng(2).uniform(-2, 2, (2000, 2))
    print(f"\nissue-10 target: perturbed router, k = 3, {reps} replicates, batched LM (CPU s)")
    print(f"{'n':>7} {'LM cell':>8} {'BFGS per fit':>13} {'BFGS cell (est.)':>17}")
    total = 0.0
    for n in n_grid:
        t = time.process_time()
        fit_cell(d, "perturbed", 3, n, 0, x_eval)
        t_lm = time.process_time() - t
        total += t_lm
        t = time.process_time()
        fit_record(replace(d, method="bfgs"), "perturbed", 3, n, 0, 0, x_eval)
        t_one = time.process_time() - t
        print(f"{n:>7} {t_lm:>8.1f} {t_one:>13.2f} {t_one * reps:>17.1f}")
    print(f"{'total':>7} {total:>8.1f}")


def main(quick: bool = False) -> None:
    _kernel_table(quick)
    _cell_table(quick)
    _target_table(quick)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer sizes")
    main(parser.parse_args().quick)
