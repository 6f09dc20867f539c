"""Benchmark of the least-squares estimator and the rates statistics, side by side in one run.

1. Objective + gradient: the vectorised kernel against a per-sample loop.
2. Whole rates cells (all replicates x starts of one ``(router, k, n)``): the batched
   deterministic Levenberg–Marquardt fit now (:func:`moetheory.estimation.batched.fit_batch`)
   against the previous batched LM (``moetheory/estimation/batched.py`` of git revision
   :data:`PREVIOUS`, loaded from history by ``_previous.previous_module``) and the SciPy
   BFGS path before it (:func:`moetheory.estimation.experiment.fit_record`), on the same data
   and starts. CPU seconds, ratios, and the median objective each reaches.
3. The target of issue 10: one rates configuration (perturbed router, k = 3) on the grid
   n = 10^3, 10^4, 10^5 with 40 replicates x 2 starts, 60 LM iterations: CPU seconds of the
   current and the previous LM per n, and the wall time of the whole configuration on 2
   worker processes (``run_rates(..., executor=ProcessPoolExecutor(2))``, the executor
   interface) with each cell one task against cells split into tasks of about
   :data:`~moetheory.estimation.experiment.TASK_SAMPLES` samples, largest first (with one
   task per cell, one process fits the cell at n = 10^5 while the other idles).
4. The slope interval: the exact bootstrap law against Monte Carlo with the resamples a claim
   at its Bonferroni share needs (``50 / alpha``).
5. Convergence of the fits (issues 10 and 32): in the over-specified cells, the median
   losses and CPU seconds of the former fixed 40 iterations, of LM alone to the stopping rule
   with the profile's whole cap (``lm_iterations + qn_iterations``), of the profile's fits
   (LM to ``lm_iterations``, then projected BFGS to ``qn_iterations``) and of a raised
   setting (tolerance 10^4 times smaller, caps 10 times larger), with the share of winning
   fits that stopped by the rule and the share of them on a face of the parameter space.

Run: ``python benchmarks/bench_estimation.py [--quick] [--only target ...]``. CPU times are
``time.process_time`` so that other load on a shared machine does not count; wall times do
count it. BLAS has one thread in every process, as in ``moetheory verify``'s check processes
(:func:`moetheory.engine.runner.prepare_worker`): OpenBLAS threads busy-wait, and two of
them per process doubled the CPU seconds of the fits.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from unittest import mock

import numpy as np

from moetheory.engine.runner import prepare_worker
from moetheory.estimation import experiment
from moetheory.estimation.batched import fit_batch
from moetheory.estimation.experiment import (
    RatesDesign,
    _cell_data,
    fit_cell,
    fit_record,
    rates_design,
    run_rates,
    slope_bootstrap,
)
from moetheory.estimation.fitting import least_squares_loop, least_squares_objective

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _previous import previous_module

#: The last commit before the batched LM was made faster (issue 10, item 7).
PREVIOUS = "d7290e9"
previous_batched_lm = previous_module("moetheory/estimation/batched.py", PREVIOUS)
if previous_batched_lm is None:
    sys.exit(f"bench_estimation: git revision {PREVIOUS} is not available (a git checkout with "
             "its history is needed for the side-by-side timings)")


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


def _batch(design: RatesDesign, router: str, k: int, n: int):
    cells = [_cell_data(design, router, k, n, rep, 0) for rep in range(design.replicates)]
    starts = 1 + design.restarts
    xs = np.stack([c[0] for c in cells for _ in range(starts)])
    ys = np.stack([c[1] for c in cells for _ in range(starts)])
    t0 = np.stack([s for c in cells for s in c[2]])
    return xs, ys, t0


def _timed(fit, design: RatesDesign, router: str, k: int, xs, ys, t0):
    t = time.process_time()
    out = fit(xs, ys, t0, k, design.router(router), expert=design.expert, bound=design.bound,
              iterations=design.lm_iterations)
    return time.process_time() - t, out


def _cell_table(quick: bool) -> None:
    base = replace(rates_design("full"), lm_iterations=60)
    reps = 6 if quick else 12
    print(f"\nwhole rates cells, k = 3, {reps} replicates x 2 starts, 60 LM iterations (CPU s)")
    print(f"{'router':>10} {'n':>6} {'LM now':>7} {'LM before':>10} {'BFGS':>7} "
          f"{'before/now':>10} {'BFGS/now':>9} {'med obj now':>12} {'med obj before':>15} "
          f"{'med obj BFGS':>13}")
    x_eval = np.random.default_rng(1).uniform(-2, 2, (500, 2))
    for router in ("cosine", "perturbed") if quick else ("linear", "cosine", "perturbed"):
        for n in (158, 1581) if quick else (158, 1581, 5000):
            d = replace(base, n_grid=(n, n + 1), replicates=reps)
            xs, ys, t0 = _batch(d, router, 3, n)
            t_now, now = _timed(fit_batch, d, router, 3, xs, ys, t0)
            t_old, old = _timed(previous_batched_lm.fit_batch, d, router, 3, xs, ys, t0)
            t = time.process_time()
            bf = [fit_record(replace(d, method="bfgs"), router, 3, n, rep, 0, x_eval)
                  for rep in range(reps)]
            t_bf = time.process_time() - t
            best_now = now.objective.reshape(reps, -1).min(axis=1)
            best_old = old.objective.reshape(reps, -1).min(axis=1)
            print(f"{router:>10} {n:>6} {t_now:>7.2f} {t_old:>10.2f} {t_bf:>7.2f} "
                  f"{t_old / t_now:>10.1f} {t_bf / t_now:>9.1f} {np.median(best_now):>12.6f} "
                  f"{np.median(best_old):>15.6f} "
                  f"{np.median([r['objective'] for r in bf]):>13.6f}")


def _target_table(quick: bool) -> None:
    n_grid = (1000, 10000) if quick else (1000, 10000, 100000)
    reps = 10 if quick else 40
    d = RatesDesign(n_grid=n_grid, replicates=reps, restarts=1, lm_iterations=60, lm_tol=0.0)
    print(f"\nissue-10 target: perturbed router, k = 3, {reps} replicates x 2 starts, "
          "60 LM iterations (CPU s)")
    print(f"{'n':>7} {'LM now':>8} {'LM before':>10} {'before/now':>11}")
    totals = [0.0, 0.0]
    for n in n_grid:
        xs, ys, t0 = _batch(d, "perturbed", 3, n)
        t_now, _ = _timed(fit_batch, d, "perturbed", 3, xs, ys, t0)
        t_old, _ = _timed(previous_batched_lm.fit_batch, d, "perturbed", 3, xs, ys, t0)
        totals[0] += t_now
        totals[1] += t_old
        print(f"{n:>7} {t_now:>8.1f} {t_old:>10.1f} {t_old / t_now:>11.1f}")
    print(f"{'total':>7} {totals[0]:>8.1f} {totals[1]:>10.1f} {totals[1] / totals[0]:>11.1f}")
    print("whole configuration with losses, run_rates on 2 processes (wall s)")
    walls, records = [], []
    for label, samples in (("one task per cell", math.inf),
                           ("cells split into tasks", experiment.TASK_SAMPLES)):
        with mock.patch.object(experiment, "TASK_SAMPLES", samples):
            start = time.perf_counter()
            with ProcessPoolExecutor(2, initializer=prepare_worker) as pool:
                records.append(run_rates(d, 0, [("perturbed", 3)], executor=pool))
            walls.append(time.perf_counter() - start)
        print(f"{label:>24}: {walls[-1]:6.1f}")
    print(f"{'ratio':>24}: {walls[0] / walls[1]:6.1f}  (same records: {records[0] == records[1]})")


def _bootstrap_table(quick: bool) -> None:
    ns = np.array([100.0, 266.0, 707.0, 1880.0, 5000.0])
    print("\nslope interval, 5 sizes: exact bootstrap law vs Monte Carlo with 50/alpha "
          "resamples (CPU s)")
    print(f"{'R':>4} {'alpha':>9} {'exact':>7} {'MC':>7} {'exact CI':>18} {'MC CI':>18}")
    rng = np.random.default_rng(0)
    for reps in (13, 25) if quick else (13, 25, 37):
        losses = ns[:, None] ** -0.3 * rng.lognormal(0, 0.6, (5, reps))
        for alpha in (1e-3, 1.4e-5):
            t = time.process_time()
            ex = slope_bootstrap(ns, losses, alpha, rng, exact=True)
            t_ex = time.process_time() - t
            t = time.process_time()
            mc = slope_bootstrap(ns, losses, alpha, np.random.default_rng(1),
                                 n_boot=int(np.ceil(50 / alpha)))
            t_mc = time.process_time() - t
            cis = [f"[{c[0]:.3f}, {c[1]:.3f}]" for c in (ex["ci"], mc["ci"])]
            print(f"{reps:>4} {alpha:>9.1e} {t_ex:>7.3f} {t_mc:>7.2f} {cis[0]:>18} {cis[1]:>18}")


def _convergence_table(quick: bool) -> None:
    profile = "quick" if quick else "full"
    d = rates_design(profile)
    n = max(d.n_grid)
    x_eval = np.random.default_rng([0, 999]).uniform(-2, 2, (d.n_eval, 2))
    lm, qn = d.lm_iterations, d.qn_iterations
    settings = {
        "fixed 40 (before)": (40, 0, 0.0),
        f"LM alone (tol {d.lm_tol:g}, cap {lm + qn})": (lm + qn, 0, d.lm_tol),
        f"profile (LM {lm}, then BFGS {qn})": (lm, qn, d.lm_tol),
        f"raised (tol {d.lm_tol * 1e-4:g}, caps x10)": (10 * lm, 10 * qn, d.lm_tol * 1e-4),
    }
    print(f"\nconvergence, {profile} design, k = 3, n = {n}, {d.replicates} replicates x 2 "
          "starts: median losses (CPU s, share of winning fits stopped by the rule, share on "
          "a face)")
    print(f"{'cell':>16} {'setting':>34} {'CPU':>6} {'conv':>5} {'face':>5} {'med L11':>9} "
          f"{'med expert_sup':>15}")
    for expert, router in (("tanh", "linear"), ("tanh", "cosine"), ("tanh", "perturbed"),
                           ("gelu", "perturbed"), ("poly2", "perturbed")):
        for name, (cap, qn_cap, tol) in settings.items():
            design = replace(d, expert=expert, lm_iterations=cap, qn_iterations=qn_cap,
                             lm_tol=tol)
            t = time.process_time()
            recs = fit_cell(design, router, 3, n, 0, x_eval)
            el = time.process_time() - t
            conv = np.mean([r["converged"] for r in recs])
            face = np.mean([bool(r["at_bound"]) for r in recs])
            print(f"{expert + ' ' + router:>16} {name:>34} {el:>6.1f} {conv:>5.2f} {face:>5.2f} "
                  f"{np.median([r['voronoi_l1'] for r in recs]):>9.4f} "
                  f"{np.median([r['expert_sup'] for r in recs]):>15.4f}")


#: The tables, in the order of the module docstring.
TABLES = {"kernel": _kernel_table, "cells": _cell_table, "bootstrap": _bootstrap_table,
          "target": _target_table, "convergence": _convergence_table}


def main(quick: bool = False, only: tuple[str, ...] = tuple(TABLES)) -> None:
    prepare_worker()  # as verify's check processes: CPU times of one thread
    for name in only:
        TABLES[name](quick)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer sizes")
    parser.add_argument("--only", action="append", choices=list(TABLES), metavar="TABLE",
                        help=f"run only this table (repeatable), one of {', '.join(TABLES)}")
    args = parser.parse_args()
    main(args.quick, tuple(args.only or TABLES))
