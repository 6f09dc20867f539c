"""Monte Carlo comparisons with tolerances fixed before comparing.

A sample mean is compared with a claimed value within :data:`TOL_REL` (relative) plus
:data:`TOL_ABS` (absolute) of it, never a tolerance taken from an estimate; confidence intervals
are at level ``1 - alpha/m`` with ``m`` the number of comparisons inside the claim.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from moetheory import Verdict
from moetheory.stats import Comparison, combine, compare, mean_ci

__all__ = [
    "D_DIM", "N_TASKS", "SIGMA0", "S_SAMPLES", "TOL_ABS", "TOL_REL", "_mc", "_mc_all",
    "_mc_comparison", "_tol", "_verdicts", "_worst",
]


#: Relative tolerance of every Monte Carlo comparison (fixed before comparing).
TOL_REL = 0.02
#: Absolute tolerance added to the relative one (used alone where the reference is 0).
TOL_ABS = 1e-3
#: Paper settings of Appendix A.2 used by the Monte Carlo checks.
SIGMA0, D_DIM, S_SAMPLES, N_TASKS = 0.4, 10, 6, 7


def _tol(reference: float) -> float:
    return TOL_REL * abs(reference) + TOL_ABS


def _mc_comparison(label: str, samples: np.ndarray, reference: float, alpha: float,
                   bounds: tuple[float, float] = (-math.inf, math.inf)) -> Comparison:
    """Equivalence of a sample mean (range ``bounds``) with ``reference`` (tolerance
    :func:`_tol`)."""
    return compare(label, mean_ci(samples, alpha, bounds=bounds), reference, _tol(reference))


def _mc(label: str, samples: np.ndarray, reference: float, alpha: float) -> dict[str, Any]:
    return _mc_comparison(label, samples, reference, alpha).to_dict()


def _mc_all(data: dict[str, np.ndarray], refs: dict[str, float], upper: dict[str, float],
            alpha: float) -> list[Comparison]:
    """Equivalence of each sample mean (range ``[0, upper]``) with its reference."""
    a = alpha / len(refs)
    return [compare(name, mean_ci(data[name], a, bounds=(0.0, upper[name])), ref, _tol(ref))
            for name, ref in refs.items()]


def _verdicts(rows: list[dict[str, Any]]) -> Verdict:
    return combine([Verdict(row["verdict"]) for row in rows])


def _worst(rows: list[dict[str, Any]]) -> dict[str, Any]:
    key = "difference" if "difference" in rows[0] else "estimate"
    return max(rows, key=lambda row: abs(row[key] - row.get("reference", 0.0)))
