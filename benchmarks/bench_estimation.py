"""Benchmark of the least-squares estimator: time per fit against n, and the speedup of the
vectorised objective + gradient over a per-sample loop, measured side by side in one run.

Run: ``python benchmarks/bench_estimation.py [--quick]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from moetheory.estimation.experiment import rates_design, true_measure
from moetheory.estimation.fitting import (
    fit_least_squares,
    least_squares_loop,
    least_squares_objective,
)
from moetheory.estimation.models import regression_function


def _best_of(func, args: tuple, repeats: int) -> float:
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        func(*args)
        best = min(best, time.perf_counter() - start)
    return best


def main(quick: bool = False) -> None:
    design = rates_design("quick")
    G = true_measure()
    rng = np.random.default_rng(0)
    print("objective + gradient, k = 3, perturbed router (best of repeats)")
    print(f"{'n':>7} {'vectorised [ms]':>16} {'loop [ms]':>10} {'speedup':>8}")
    for n in (100, 1000) if quick else (100, 1000, 5000):
        x = rng.uniform(-2, 2, (n, 2))
        y = rng.standard_normal(n)
        theta = rng.standard_normal(18)
        r = design.router("perturbed")
        args = (theta, x, y, 3, r)
        t_vec = _best_of(least_squares_objective, args, 20)
        t_loop = _best_of(least_squares_loop, args, 2)
        print(f"{n:>7} {1e3 * t_vec:>16.3f} {1e3 * t_loop:>10.1f} {t_loop / t_vec:>8.0f}")
    print("\ntime per fit (one random start, no near-truth start), k = 3")
    print(f"{'router':>10} {'n':>7} {'seconds':>8} {'per 1000 obs':>13}")
    for router in ("linear", "cosine", "perturbed"):
        r = design.router(router)
        for n in design.n_grid[::2] if quick else design.n_grid:
            x = rng.uniform(-2, 2, (n, 2))
            y = regression_function(G, x, r) + design.sigma * rng.standard_normal(n)
            start = time.perf_counter()
            fit_least_squares(x, y, 3, r, rng, restarts=1, max_iter=design.max_iter)
            sec = time.perf_counter() - start
            print(f"{router:>10} {n:>7} {sec:>8.2f} {1e3 * sec / n:>13.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer sizes")
    main(parser.parse_args().quick)
