"""Calibration of the continual-learning Monte Carlo checks whose statements are true.

Runs every Monte Carlo check of ``proofs_checks.continual_theory`` whose statement is known
to be true -- the Gaussian projection mean (Lemma 16's step), its Definition-1 correction and
the corrected single-expert expectations of Proposition 4 (exact recursion of eq. (5)) --
under many master seeds, exactly as ``moetheory verify`` would (same per-claim seed and
alpha), and reports per check how often it was wrongly judged ``refuted``/``unsupported``,
with a Clopper-Pearson interval. Target: at most 1 %.

Usage::

    python benchmarks/calibrate_continual.py            # full: 100 master seeds
    python benchmarks/calibrate_continual.py --budget   # CI: 5 master seeds
    python benchmarks/calibrate_continual.py --seeds 30 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from tqdm import tqdm

from moetheory.engine.registry import get_claim, load_checks
from moetheory.engine.runner import RunSettings, claim_context
from moetheory.stats import proportion_ci

__all__ = ["TRUE_CHECKS", "main", "run_one"]

#: (claim ID, reading name or None for the claim's verdict) of every true Monte Carlo check.
TRUE_CHECKS: tuple[tuple[str, str | None], ...] = (
    ("cl.update.projection-mean", "gaussian"),
    ("cl.update.projection-mean.corrected", None),
    ("cl.prop4.generalization.corrected", None),
    ("cl.prop4.forgetting.corrected", None),
)

FALSE_ALARMS = ("refuted", "unsupported")
TARGET = 0.01


def run_one(task: tuple[str, str | None, int]) -> tuple[str, str | None, int, str]:
    """Verdict of one (claim, reading) under one master seed, as ``moetheory verify`` runs it."""
    claim_id, reading, master = task
    load_checks()
    ctx = claim_context(claim_id, RunSettings(seed=master, profile="quick"))
    outcome = get_claim(claim_id).check(ctx)
    if reading is None:
        return claim_id, reading, master, outcome.verdict.value
    match = [r for r in outcome.readings if r.name == reading]
    return claim_id, reading, master, match[0].verdict.value if match else "error"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100, help="number of master seeds")
    parser.add_argument("--budget", action="store_true", help="small CI budget (5 seeds)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    n_seeds = 5 if args.budget else args.seeds
    if n_seeds < 1:
        parser.error(f"--seeds must be >= 1, got {n_seeds}")
    if args.jobs < 1:
        parser.error(f"--jobs must be >= 1, got {args.jobs}")
    tasks = [(cid, rd, seed) for cid, rd in TRUE_CHECKS for seed in range(n_seeds)]
    start = time.perf_counter()
    if args.jobs == 1:
        results = [run_one(t) for t in tqdm(tasks, desc="calibration", unit="check")]
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(tqdm(pool.map(run_one, tasks), total=len(tasks), desc="calibration",
                                unit="check"))
    elapsed = time.perf_counter() - start
    print(f"\n{n_seeds} master seeds, {len(tasks)} check runs, {elapsed:.0f} s")
    print(f"{'check':48s} {'false alarms':>12s} {'rate':>7s}  95% CI          other verdicts")
    worst_ok = True
    for cid, rd in TRUE_CHECKS:
        verdicts = [v for c, r, _, v in results if c == cid and r == rd]
        alarms = sum(v in FALSE_ALARMS for v in verdicts)
        est = proportion_ci(alarms, len(verdicts), 0.05)
        others = sorted({v for v in verdicts if v not in FALSE_ALARMS})
        name = cid + (f" [{rd}]" if rd else "")
        print(f"{name:48s} {alarms:>5d}/{len(verdicts):<6d} {est.mean:7.1%}  "
              f"[{est.low:.3f}, {est.high:.3f}]  {', '.join(others)}")
        worst_ok = worst_ok and est.mean <= TARGET
    print(f"target: observed false-alarm rate <= {TARGET:.0%} per check -> "
          f"{'met' if worst_ok else 'NOT met'} (the interval shows what {n_seeds} seeds can "
          "resolve)")
    return 0 if worst_ok else 1


if __name__ == "__main__":
    sys.exit(main())
