"""Benchmark of the continual-learning simulator on the whole of Figure 2 (seed 003).

Times, side by side in one run: the 8 curves of Figure 2 (M ∈ {1, 5, 10, 20}, with and without
termination, T = 2000) at 100 replicates under both readings (the code reading adds the
released code's metrics, whose forgetting sum is kept incrementally per (expert, task) group),
with CPU seconds next to wall seconds (the machine may be shared); then, for ``--reading``, 1
replicate and the plain per-round reference loop, the ratios, the peak memory, and how far the
100-replicate run is from the arithmetic limit (the useful FLOPs of :func:`useful_flops`, an
honest count, at ~5 GFLOP/s; in CPU seconds, as the machine may be shared). Targets: both
readings at most 5 s for 100 replicates × 8 curves on an idle 2-core machine, and within 10×
of the limit.

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
from moetheory.continual.simulator import CLResult, _flag_from, simulate_many
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


def useful_flops(results: list[CLResult]) -> float:
    r"""Arithmetic Algorithm 1 needs for the runs of one :func:`simulate_many` call (no padding).

    Parameters
    ----------
    results : list of CLResult
        The results of one ``simulate_many(configs, R, seed)`` call: every configuration
        sees the same data (``T`` rounds, ``R`` replicates).

    Returns
    -------
    float
        Floating-point operations (additions, multiplications, divisions, comparisons,
        square roots and exponentials count one each).

    Raises
    ------
    ValueError
        If ``results`` is empty or the runs differ in ``T``, ``d``, ``s``, ``N`` or ``R``.

    Notes
    -----
    From seed 003's Algorithm 1 as :mod:`moetheory.continual.simulator` runs it. Counted once
    per replicate and round for all curves together (they share the data):

    * an orthonormal basis of the columns of :math:`X_t \in \mathbb{R}^{d \times s}` for
      eq. (5), one modified Gram-Schmidt pass: column :math:`j` (0-based) loses its
      projections on the :math:`j` earlier ones (a dot product and an update, :math:`2d`
      each) and is normalised (:math:`2d + 1 + d`):
      :math:`2ds(s-1) + 3ds + s`. The simulator's second, re-orthogonalising pass is its
      choice for accuracy, not the algorithm's;
    * :math:`\bar x = \sum_i X_{t,i}`, :math:`(s-1)d`, when some curve has a gate.

    Counted once per distinct run (the ``M = 1`` curves with and without termination are
    one computation: no gate, so nothing else differs; ``simulate_many`` runs them once),
    per replicate and round:

    * eq. (5), :math:`w + QQ^\top(w_n - w)`: :math:`d + 2sd + 2sd + d = 4sd + 2d`;
    * the metrics (14)-(16) from running sums: the :math:`N` distances
      :math:`\|w_t^{(m_t)} - w_n\|^2` (:math:`3Nd`), their change weighted by the rounds
      that used them (:math:`3N`) and :math:`S_t, F_t, G_t` and the error sum (6); the
      code reading's metrics add :math:`6N + 2` (square roots, their weighted change, the
      per-group closed forms, :math:`G^{code}_t`), a lower bound;
    * with a gate (:math:`M > 1`): the gate outputs :math:`h_m = \theta_m^\top \bar x`
      (:math:`2Md`) and the noisy argmax (:math:`2M - 1`);
    * the termination flags, :math:`3M` (gap, absolute value, comparison with
      :math:`\Gamma`), in the rounds from the first flagged round up to termination;
    * the gate's gradient step (eqs. (6)-(9)) only while the gate is active, i.e. in rounds
      before the termination round (a terminated gate is frozen): :math:`\|\Delta w\|^2`
      (:math:`2d`, a square root more when unsquared), the softmax (:math:`5M - 2`), the
      scalar factor :math:`\ell_{loc} + \alpha M f/t` times :math:`\eta` (5), the
      weights :math:`\pi_{m_t}(\delta_{m m_t} - \pi_m)` (:math:`M + 2`) and
      :math:`\theta_m \mathrel{-}= w_m \bar x` (:math:`2Md`).

    For Figure 2 (100 replicates x 8 curves, T = 2000, paper reading) this is about
    1.4 GFLOP, where the count before issue 32 (the basis per curve and twice, both
    ``M = 1`` curves, gradients after termination, the gradient as :math:`4Md`) said 3.97.

    Examples
    --------
    >>> from moetheory.continual import simulate_many
    >>> one = simulate_many([CLConfig(M=1, T=3, N=2, K=1, d=3, s=2)], 2, seed=0)
    >>> useful_flops(one)  # 2 replicates x 3 rounds x (basis 32 + eq. (5) 30 + metrics 30)
    552.0
    """
    if not results:
        raise ValueError("results must hold at least one CLResult")
    first = results[0].config
    R, T, d, s, N = results[0].replicates, first.T, first.d, first.s, first.N
    for res in results:
        c = res.config
        if (res.replicates, c.T, c.d, c.s, c.N) != (R, T, d, s, N):
            raise ValueError("results must come from one simulate_many call (same R, T, d, "
                             f"s, N), got {(res.replicates, c.T, c.d, c.s, c.N)}")
    gated = any(res.config.M > 1 for res in results)
    shared = 2 * d * s * (s - 1) + 3 * d * s + s + ((s - 1) * d if gated else 0)
    total = float(shared * T * R)
    seen: set[object] = set()
    for res in results:
        c = res.config
        key = ("single",) if c.M == 1 else c
        if key in seen:
            continue
        seen.add(key)
        M = c.M
        per_round = 4 * s * d + 2 * d + 3 * N * d + 3 * N + 6
        if c.code_metrics:
            per_round += 6 * N + 2
        if M > 1:
            per_round += 2 * M * d + 2 * M - 1
        total += float(per_round * T * R)
        if M == 1:
            continue
        stopped = res.termination_round > 0
        end = np.where(stopped, res.termination_round, T)  # last round that checks flags
        if c.terminate:
            total += 3.0 * M * float(np.clip(end - _flag_from(c) + 1, 0, None).sum())
        gradient_rounds = np.where(stopped, res.termination_round - 1, T)
        grad = 2 * M * d + 6 * M + 2 * d + 5 + (1 if c.loc_norm == "unsquared" else 0)
        total += float(grad * gradient_rounds.sum())
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
    many: list[CLResult] = []
    t_many, c_many = timed_both(lambda: many.extend(simulate_many(cfgs, R, seed=0)))
    t_ref = None if args.skip_reference else timed(lambda: [reference_run(c, 0) for c in cfgs])
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    flops = useful_flops(many)
    limit = flops / PEAK_FLOPS

    print(f"Figure 2, reading {args.reading!r}: 8 curves, T = {args.T} "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"  vectorised, 1 replicate      : {t_one:8.2f} s")
    print(f"  vectorised, {R} replicates   : {t_many:8.2f} s, {c_many:.2f} s CPU   "
          "(target < 10 s)")
    if t_ref is not None:
        print(f"  reference loop, 1 replicate  : {t_ref:8.2f} s")
        print(f"  ratio reference / vectorised at 1 replicate     : {t_ref / t_one:8.1f}x")
        print(f"  ratio reference·{R} / vectorised at {R} replicates: "
              f"{t_ref * R / t_many:8.1f}x")
    print(f"  ratio {R} replicates / 1 replicate (ideal 1)     : {t_many / t_one:8.1f}x")
    print(f"  peak memory (max RSS)        : {peak_mib:8.0f} MiB   (target < 2048 MiB)")
    print(f"  useful arithmetic            : {flops / 1e9:8.2f} GFLOP -> limit "
          f"{limit:.2f} s at {PEAK_FLOPS / 1e9:g} GFLOP/s; measured is "
          f"{c_many / limit:.1f}x the limit in CPU seconds ({t_many / limit:.1f}x in wall "
          "seconds; target <= 10x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
