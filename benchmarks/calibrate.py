r"""Calibration of every statistical check, both ways: one table row per check.

For each statistical claim the check is run in-process, exactly as ``moetheory verify``
runs it (same per-claim seed, alpha and profile), under ``S`` master seeds, three times:

1. **as shipped**, recording every comparison it decides
   (:func:`moetheory.stats.claimed_values`). The mean of a comparison's estimates over the
   ``S`` runs, :math:`\hat\mu`, stands in for its true value (its error is about
   :math:`1/\sqrt S` of one run's); :math:`h` is the median half-width of its intervals.
   This needs an estimand that is the same on every seed: a comparison whose estimates
   spread across seeds by more than :math:`h` (about four standard errors) is reported as
   not calibratable this way. Checks whose problem instance is drawn from the seed (random
   vectors, random weights) but whose reference is exact declare mode ``reference``
   (:data:`MODES`): the shipped claimed value is the truth of that seed.
2. **true variant**: every comparison's claimed value is replaced by one that holds at the
   truth (equivalence :math:`r = \mu`; at-most :math:`b + t = \mu`; at-least
   :math:`b - t = \mu`; greater :math:`c + e = \mu`, i.e. the boundary).
   Target: ``unsupported`` (any comparison) on at most 1% of seeds.
3. **false variant**: every claimed value is moved past the truth by the tolerance plus
   :math:`\Delta = \max(t, h, 10^{-6}\max(1, |\mu|))` (equivalence
   :math:`r = \mu + t + \Delta`; at-most
   :math:`b + t = \mu - \Delta`; at-least :math:`b - t = \mu + \Delta`; greater
   :math:`c = \mu + \Delta`). Target: each comparison ``supported`` on at most 5% of seeds.

Claims whose statement is false but whose estimator is that of a true twin declare mode
``via:<twin>`` and are calibrated through the twin's row.

Rates come with Clopper-Pearson 95% intervals. The script exits 1 if a limit is missed, so CI
can run ``--budget`` (a few cheap checks on a few seeds) and fail.

Usage::

    python benchmarks/calibrate.py --seeds 100 --jobs 2 --markdown docs/calibration.md
    python benchmarks/calibrate.py --budget                  # CI
    python benchmarks/calibrate.py --only 'cl.update.*' --seeds 20
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from moetheory.engine.registry import get_claim, load_checks, registered
from moetheory.engine.runner import RunSettings, claim_context
from moetheory.engine.verdicts import Verdict
from moetheory.stats import Comparison, claimed_values, proportion_ci

__all__ = ["BUDGET_CLAIMS", "Row", "calibrate_claim", "main", "move_for"]

#: Claims and seeds of the CI budget (cheap checks that exercise three rules).
BUDGET_CLAIMS = ("cl.update.projection-mean.corrected", "cl.thm1.generalization-bound")
BUDGET_SEEDS = 20
TRUE_LIMIT, FALSE_LIMIT = 0.01, 0.05

Key = tuple[str, str]  # (rule, label)
Truth = dict[Key, tuple[float | None, float]]  # (mu or None for the shipped value, h)

#: How each claim's truth is known (default "pooled"; see the module docstring).
MODES: dict[str, str] = {
    "cl.update.projection-mean": "reference",
    "cl.update.projection-mean.corrected": "reference",
    "cl.prop4.generalization.corrected": "reference",
    "cl.prop4.forgetting.corrected": "reference",
    "cl.prop4.generalization": "via:cl.prop4.generalization.corrected",
    "cl.prop4.forgetting": "via:cl.prop4.forgetting.corrected",
}


def move_for(variant: str, truth: Truth) -> Callable[[str, str, float, float], float]:
    """The claimed-value map of a variant; ``truth[key] = (mu, half_width)``, ``mu = None``
    meaning the shipped value is the truth (equivalence comparisons with exact references).
    """

    def move(rule: str, label: str, value: float, tol: float) -> float:
        if (rule, label) not in truth:
            return value
        known, h = truth[(rule, label)]
        mu = value if known is None else known
        delta = max(tol, h, 1e-6 * max(1.0, abs(mu)))  # > 0 even for exact intervals
        if variant == "true":  # the boundary, nudged past rounding to the true side
            eps = 1e-12 * max(1.0, abs(mu), tol)
            return {"equivalence": mu, "at-most": mu - tol + eps, "at-least": mu + tol - eps,
                    "greater": mu - tol - eps}[rule]
        return {"equivalence": mu + tol + delta, "at-most": mu - tol - delta,
                "at-least": mu + tol + delta, "greater": mu + delta}[rule]

    return move


def _final(record: list[Comparison]) -> dict[Key, Comparison]:
    """The last comparison per (rule, label): a sequential check judges at every look."""
    return {(c.rule, c.label): c for c in record}


def _run(task: tuple[str, int, str, Truth | None]
         ) -> tuple[int, dict[Key, tuple[float, float, str]]]:
    claim_id, seed, variant, truth = task
    load_checks()
    ctx = claim_context(claim_id, RunSettings(seed=seed, profile="quick"))
    record: list[Comparison] = []
    move = None if truth is None else move_for(variant, truth)
    with claimed_values(move, record):
        get_claim(claim_id).check(ctx)
    return seed, {k: (c.estimate.mean, (c.estimate.high - c.estimate.low) / 2, c.verdict.value)
                  for k, c in _final(record).items()}


@dataclass
class Row:
    """Calibration of one check."""

    claim_id: str
    seeds: int
    comparisons: int
    true_unsupported: int = 0
    true_supported: int = 0
    false_supported_worst: int = 0
    false_claim_supported: int = 0
    worst_label: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Both limits met (observed rates); rows calibrated elsewhere count as met."""
        if self.seeds == 0:
            return True
        return (self.comparisons > 0
                and self.true_unsupported <= TRUE_LIMIT * self.seeds
                and self.false_supported_worst <= FALSE_LIMIT * self.seeds)

    def cells(self) -> list[str]:
        def rate(k: int) -> str:
            if self.seeds == 0:
                return "–"
            ci = proportion_ci(k, max(self.seeds, 1), 0.05)
            return f"{k}/{self.seeds} [{ci.low:.3f}, {ci.high:.3f}]"

        return [f"`{self.claim_id}`", str(self.comparisons), str(self.seeds),
                rate(self.true_unsupported), rate(self.true_supported),
                rate(self.false_supported_worst),
                rate(self.false_claim_supported), "yes" if self.ok else "**no**",
                f"{self.seconds:.0f}"]


HEADER = ["claim", "comparisons", "seeds", "true variant unsupported (95% CI)",
          "true variant supported (power)",
          "false variant supported, worst comparison", "false variant supported, claim",
          "limits met", "seconds"]


def calibrate_claim(claim_id: str, seeds: int, jobs: int = 1) -> Row:
    """Run the three passes of one claim over master seeds ``0 .. seeds-1``."""
    start = time.perf_counter()

    def run_all(variant: str, truth: Truth | None) -> list[dict[Key, tuple[float, float, str]]]:
        tasks = [(claim_id, s, variant, truth) for s in range(seeds)]
        if jobs == 1:
            out = [_run(t) for t in tasks]
        else:
            with ProcessPoolExecutor(jobs) as pool:
                out = list(pool.map(_run, tasks))
        return [r for _, r in sorted(out, key=lambda x: x[0])]

    mode = MODES.get(claim_id, "pooled")
    row = Row(claim_id, 0, 0)
    if mode.startswith("via:"):
        row.notes.append(f"false as stated; its estimator is calibrated in the row of "
                         f"`{mode[4:]}`")
        return row
    row.seeds = seeds
    shipped = run_all("shipped", None)
    keys = sorted({k for r in shipped for k in r})
    truth: Truth = {}
    for k in keys:
        est = np.array([r[k][0] for r in shipped if k in r])
        h = float(np.median([r[k][1] for r in shipped if k in r]))
        if mode == "reference" and k[0] == "equivalence":
            truth[k] = (None, h)
        elif est.size > 1 and float(est.std(ddof=1)) > max(h, 1e-12):
            row.notes.append(f"{k[1]}: estimates spread across seeds (sd "
                             f"{est.std(ddof=1):.3g} > half-width {h:.3g}), not calibrated")
        else:
            truth[k] = (float(est.mean()), h)
    keys = sorted(truth)
    row.comparisons = len(keys)
    true_runs = run_all("true", truth)
    false_runs = run_all("false", truth)
    row.true_unsupported = sum(
        any(v[2] == Verdict.UNSUPPORTED.value for k, v in r.items() if k in truth)
        for r in true_runs)
    row.true_supported = sum(
        all(v[2] == Verdict.SUPPORTED.value for k, v in r.items() if k in truth)
        for r in true_runs)
    per_key = {k: sum(r.get(k, (0, 0, ""))[2] == Verdict.SUPPORTED.value for r in false_runs)
               for k in keys}
    worst = max(per_key, key=lambda k: per_key[k])
    row.false_supported_worst, row.worst_label = per_key[worst], f"{worst[0]}: {worst[1]}"
    row.false_claim_supported = sum(
        all(v[2] == Verdict.SUPPORTED.value for k, v in r.items() if k in truth)
        for r in false_runs)
    row.seconds = time.perf_counter() - start
    return row


def markdown(rows: list[Row], seeds: int, elapsed: float) -> str:
    """The calibration table as a docs page."""
    lines = [
        "# Calibration of the statistical checks",
        "",
        "Generated by `python benchmarks/calibrate.py` "
        f"({seeds} master seeds, quick profile, {elapsed:.0f} s). Each check runs as shipped, "
        "then as a *true variant* (every claimed value replaced by one that holds at the "
        "pooled estimate) and as a *false variant* (every claimed value moved past the pooled "
        "estimate by the tolerance plus max(tolerance, median half-width)); see the script's "
        "docstring for the exact moves. Limits: true variant unsupported on at most "
        f"{TRUE_LIMIT:.0%} of seeds; false variant supported on at most {FALSE_LIMIT:.0%}.",
        "",
        "| " + " | ".join(HEADER) + " |",
        "|" + "---|" * len(HEADER),
    ]
    lines += ["| " + " | ".join(r.cells()) + " |" for r in rows]
    notes = [f"- `{r.claim_id}`: " + "; ".join(r.notes) for r in rows if r.notes]
    if notes:
        lines += ["", "Notes:", "", *notes]
    return "\n".join(lines) + "\n"


def _statistical_ids(patterns: list[str] | None) -> list[str]:
    load_checks()
    ids = [c.id for c in registered() if c.kind == "statistical" and c.implemented]
    if patterns:
        ids = [i for i in ids if any(fnmatch.fnmatchcase(i, p) for p in patterns)]
    return ids


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", action="append", metavar="GLOB", help="claim IDs (repeatable)")
    parser.add_argument("--seeds", type=int, default=100, help="master seeds (default 100)")
    parser.add_argument("--budget", action="store_true",
                        help=f"CI budget: {', '.join(BUDGET_CLAIMS)} on {BUDGET_SEEDS} seeds")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--markdown", help="write the table here (docs/calibration.md)")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error(f"--seeds must be >= 1, got {args.seeds}")
    if args.jobs < 1:
        parser.error(f"--jobs must be >= 1, got {args.jobs}")
    ids = list(BUDGET_CLAIMS) if args.budget else _statistical_ids(args.only)
    seeds = BUDGET_SEEDS if args.budget else args.seeds
    if not ids:
        parser.error("no statistical claim matches --only")
    start = time.perf_counter()
    rows = []
    print("| " + " | ".join(HEADER) + " |", flush=True)
    for cid in ids:
        row = calibrate_claim(cid, seeds, args.jobs)
        rows.append(row)
        print("| " + " | ".join(row.cells()) + " |", flush=True)
    elapsed = time.perf_counter() - start
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(markdown(rows, seeds, elapsed))
    bad = [r.claim_id for r in rows if not r.ok]
    print(f"{len(rows)} checks, {elapsed:.0f} s; limits "
          + ("met" if not bad else f"NOT met by {', '.join(bad)}"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

