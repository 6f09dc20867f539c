"""Benchmark of the continual-learning simulator on the whole of Figure 2 (seed 003).

Times, side by side in one run: the 8 curves of Figure 2 (M ∈ {1, 5, 10, 20}, with and without
termination, T = 2000) at 100 replicates under both readings (the code reading adds the
released code's metrics, whose forgetting sum is kept incrementally per (expert, task) group),
with CPU seconds next to wall seconds (the machine may be shared); then, for ``--reading``, 1
replicate and the plain per-round reference loop, the ratios, the peak memory, and how far the
100-replicate run is from the arithmetic limit (useful FLOPs at ~5 GFLOP/s). Target: both
readings at most 5 s for 100 replicates × 8 curves on an idle 2-core machine.

``--previous REV`` (default :data:`PREVIOUS`, the last commit before the simulator was made
incremental and vectorised over every row; ``none`` to skip) also times the simulator of that
git revision, loaded with ``git show``, beside the current one in the same run, and checks that
both give the same bits.

Usage: ``python benchmarks/bench_continual.py [--replicates 100] [--T 2000] [--reading paper]
[--previous REV]``
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType

import numpy as np

from moetheory.continual import CLConfig
from moetheory.continual.reference import reference_run
from moetheory.continual.simulator import simulate_many
from moetheory.engine.runner import prepare_worker

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _previous import previous_module

MS = (1, 5, 10, 20)
#: The simulator before session 3's speed work (main at d7290e9).
PREVIOUS = "d7290e9"
PEAK_FLOPS = 5e9  # a sustained rate for small vectorised NumPy kernels on this machine


def configs(T: int, reading: str) -> list[CLConfig]:
    base = CLConfig(T=T, reading=reading)
    return [base.replace(M=M, terminate=term) for M in MS for term in (True, False)]


def useful_flops(cfgs: list[CLConfig], R: int) -> float:
    """Arithmetic the algorithm needs (no padding): gate, eq. (5), metrics, gradient, basis."""
    total = 0.0
    for c in cfgs:
        d, s, N, M = c.d, c.s, c.N, c.M
        per_round = 2 * M * d + 4 * s * d + 3 * N * d + 4 * M * d + 6 * M + 4 * s * s * d
        total += per_round * c.T * R
    return total


def previous_simulator(rev: str) -> ModuleType | None:
    """The ``moetheory/continual/simulator.py`` of git revision ``rev`` as a module, or None."""
    return previous_module("moetheory/continual/simulator.py", rev)


def same_bits(a: list, b: list) -> bool:  # type: ignore[type-arg]
    """Whether two lists of results agree bit for bit on routing and every metric."""
    names = ("expert", "forgetting", "generalization", "termination_round",
             "forgetting_code", "generalization_code")
    for x, y in zip(a, b, strict=True):
        for name in names:
            u, v = getattr(x, name), getattr(y, name)
            if (u is None) != (v is None) or (u is not None and not np.array_equal(u, v)):
                return False
    return True


def timed(func):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def timed_both(func):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    func()
    return time.perf_counter() - wall, time.process_time() - cpu


def _half(args: tuple[int, str, int, int]) -> list:  # type: ignore[type-arg]
    T, reading, R, part = args
    return simulate_many(configs(T, reading)[part::2], R, seed=0)


def on_two_processes(T: int, reading: str, R: int) -> list:  # type: ignore[type-arg]
    """The 8 curves split over the machine's 2 cores (curves 0, 2, 4, 6 and 1, 3, 5, 7)."""
    with ProcessPoolExecutor(2, initializer=prepare_worker) as pool:
        even, odd = pool.map(_half, [(T, reading, R, 0), (T, reading, R, 1)])
    out: list = [None] * (len(even) + len(odd))  # type: ignore[type-arg]
    out[0::2], out[1::2] = even, odd
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=100)
    parser.add_argument("--T", type=int, default=2000)
    parser.add_argument("--reading", choices=["paper", "code"], default="paper")
    parser.add_argument("--skip-reference", action="store_true")
    parser.add_argument("--previous", default=PREVIOUS,
                        help="git revision of the simulator to time beside this one ('none')")
    args = parser.parse_args(argv)
    prepare_worker()  # as verify's check processes and the pool's workers
    cfgs = configs(args.T, args.reading)
    R = args.replicates
    previous = None if args.previous == "none" else previous_simulator(args.previous)

    print(f"Figure 2, 8 curves, T = {args.T}, {R} replicates, both readings side by side:")
    for reading in ("paper", "code"):
        now: list = []  # type: ignore[type-arg]
        wall, cpu = timed_both(
            lambda r=reading, out=now: out.extend(simulate_many(configs(args.T, r), R, seed=0)))
        print(f"  reading {reading!r:8}: {wall:7.2f} s wall, {cpu:7.2f} s CPU   (target <= 5 s)")
        split: list = []  # type: ignore[type-arg]
        s_wall = timed(lambda r=reading, out=split: out.extend(on_two_processes(args.T, r, R)))
        gap = max(float(np.max(np.abs(x.forgetting_code - y.forgetting_code)))
                  for x, y in zip(split, now, strict=True) if x.forgetting_code is not None) \
            if reading == "code" else 0.0
        # The code's forgetting sum pads rows across the curves simulated together, so a
        # curve's last bits of forgetting_code depend on its batch companions (already so at
        # d7290e9); every other field is bit-identical.
        print(f"    on 2 processes (4 curves each): {s_wall:7.2f} s wall (target <= 5 s); "
              f"same bits as one process: {same_bits(split, now)}"
              + (f" (forgetting_code max |diff| {gap:.1e})" if gap else ""))
        if previous is not None:
            old: list = []  # type: ignore[type-arg]
            p_wall, p_cpu = timed_both(
                lambda r=reading, out=old: out.extend(
                    previous.simulate_many(configs(args.T, r), R, seed=0)))
            print(f"    previous ({args.previous}): {p_wall:7.2f} s wall, {p_cpu:7.2f} s CPU; "
                  f"ratio previous/current {p_cpu / cpu:5.2f}x CPU; "
                  f"same bits: {same_bits(old, now)}")

    t_one = timed(lambda: simulate_many(cfgs, 1, seed=0))
    t_many = timed(lambda: simulate_many(cfgs, R, seed=0))
    t_ref = None if args.skip_reference else timed(lambda: [reference_run(c, 0) for c in cfgs])
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    flops = useful_flops(cfgs, R)

    print(f"Figure 2, reading {args.reading!r}: 8 curves, T = {args.T} "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"  vectorised, 1 replicate      : {t_one:8.2f} s")
    print(f"  vectorised, {R} replicates   : {t_many:8.2f} s   (target < 10 s)")
    if t_ref is not None:
        print(f"  reference loop, 1 replicate  : {t_ref:8.2f} s")
        print(f"  ratio reference / vectorised at 1 replicate     : {t_ref / t_one:8.1f}x")
        print(f"  ratio reference·{R} / vectorised at {R} replicates: "
              f"{t_ref * R / t_many:8.1f}x")
    print(f"  ratio {R} replicates / 1 replicate (ideal 1)     : {t_many / t_one:8.1f}x")
    print(f"  peak memory (max RSS)        : {peak_mib:8.0f} MiB   (target < 2048 MiB)")
    print(f"  useful arithmetic            : {flops / 1e9:8.2f} GFLOP -> limit "
          f"{flops / PEAK_FLOPS:.2f} s at {PEAK_FLOPS / 1e9:g} GFLOP/s; measured is "
          f"{t_many / (flops / PEAK_FLOPS):.1f}x the limit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
