"""Calibrated Monte Carlo comparisons.

Every statistical check compares estimates with a reference under a tolerance fixed in
the code before any comparison is made, with confidence intervals whose level carries a
Bonferroni correction: the run's family-wise level :data:`FAMILY_ALPHA` is shared equally
among the statistical claims of the registry (see :func:`claim_alpha`), and a claim shares
its part among its own comparisons.

Decision rule for one comparison (estimate with confidence interval ``[lo, hi]``,
reference ``ref``, tolerance ``tol``):

* ``supported`` when the interval meets ``[ref - tol, ref + tol]``;
* ``unsupported`` when it does not (the difference is significant and larger than the
  tolerance);
* ``inconclusive`` when the interval is wider than ``max_width`` (too little data to tell).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats as sps

from moetheory.engine.verdicts import Verdict

__all__ = [
    "FAMILY_ALPHA",
    "Comparison",
    "MeanEstimate",
    "claim_alpha",
    "combine",
    "compare",
    "mean_ci",
    "proportion_ci",
]

#: Family-wise error level of a whole verification run.
FAMILY_ALPHA = 0.05


def claim_alpha(n_statistical_claims: int, family_alpha: float = FAMILY_ALPHA) -> float:
    """Bonferroni share of the family level for one statistical claim.

    Examples
    --------
    >>> claim_alpha(25)
    0.002
    """
    if n_statistical_claims < 1:
        raise ValueError(f"n_statistical_claims must be >= 1, got {n_statistical_claims}")
    return family_alpha / n_statistical_claims


@dataclass(frozen=True)
class MeanEstimate:
    """A Monte Carlo mean with its two-sided confidence interval."""

    mean: float
    low: float
    high: float
    n: int
    level: float

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "ci": [self.low, self.high], "n": self.n, "level": self.level}


def mean_ci(samples: Sequence[float] | np.ndarray, alpha: float, axis: int = 0) -> MeanEstimate:
    """Student-t confidence interval of level ``1 - alpha`` for the mean of ``samples``.

    Examples
    --------
    >>> est = mean_ci([1.0, 2.0, 3.0, 4.0], alpha=0.05)
    >>> round(est.mean, 3), round(est.low, 3), round(est.high, 3)
    (2.5, 0.446, 4.554)
    """
    x = np.asarray(samples, dtype=float)
    if x.ndim != 1 or x.size < 2:
        raise ValueError(f"samples must be a 1-D array of at least 2 values, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError("samples contain non-finite values")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    n = x.size
    m = float(x.mean())
    se = float(x.std(ddof=1) / np.sqrt(n))
    q = float(sps.t.ppf(1 - alpha / 2, n - 1))
    return MeanEstimate(m, m - q * se, m + q * se, n, 1 - alpha)


def proportion_ci(successes: int, n: int, alpha: float) -> MeanEstimate:
    """Clopper-Pearson interval of level ``1 - alpha`` for a binomial proportion.

    Examples
    --------
    >>> est = proportion_ci(0, 100, alpha=0.05)
    >>> est.low, round(est.high, 4)
    (0.0, 0.0362)
    """
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes}/{n}")
    lo = 0.0 if successes == 0 else float(sps.beta.ppf(alpha / 2, successes, n - successes + 1))
    hi = 1.0 if successes == n else float(sps.beta.ppf(1 - alpha / 2, successes + 1, n - successes))
    return MeanEstimate(successes / n, lo, hi, n, 1 - alpha)


@dataclass(frozen=True)
class Comparison:
    """One estimate compared with one reference value."""

    label: str
    estimate: MeanEstimate
    reference: float
    tolerance: float
    verdict: Verdict

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "estimate": self.estimate.mean,
            "ci": [self.estimate.low, self.estimate.high],
            "ci_level": self.estimate.level,
            "n": self.estimate.n,
            "reference": self.reference,
            "tolerance": self.tolerance,
            "verdict": self.verdict.value,
        }


def compare(
    label: str,
    estimate: MeanEstimate,
    reference: float,
    tolerance: float,
    max_width: float | None = None,
) -> Comparison:
    """Judge ``estimate`` against ``reference`` with the module's decision rule.

    Examples
    --------
    >>> est = mean_ci([0.98, 1.01, 1.02, 0.99], alpha=0.01)
    >>> compare("E[X]", est, reference=1.0, tolerance=0.01).verdict
    <Verdict.SUPPORTED: 'supported'>
    >>> compare("E[X]", est, reference=2.0, tolerance=0.01).verdict
    <Verdict.UNSUPPORTED: 'unsupported'>
    """
    if tolerance < 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance}")
    width = estimate.high - estimate.low
    if max_width is not None and width > max_width:
        verdict = Verdict.INCONCLUSIVE
    elif estimate.high < reference - tolerance or estimate.low > reference + tolerance:
        verdict = Verdict.UNSUPPORTED
    else:
        verdict = Verdict.SUPPORTED
    return Comparison(label, estimate, float(reference), float(tolerance), verdict)


def combine(verdicts: Sequence[Verdict]) -> Verdict:
    """Overall verdict of several comparisons of one claim: any ``unsupported`` wins, then
    any ``inconclusive``; all ``supported`` gives ``supported``.

    Examples
    --------
    >>> combine([Verdict.SUPPORTED, Verdict.UNSUPPORTED])
    <Verdict.UNSUPPORTED: 'unsupported'>
    """
    if not verdicts:
        raise ValueError("combine needs at least one verdict")
    for v in (Verdict.ERROR, Verdict.REFUTED, Verdict.UNSUPPORTED, Verdict.INCONCLUSIVE):
        if v in verdicts:
            return v
    return Verdict.PROVED if all(v is Verdict.PROVED for v in verdicts) else Verdict.SUPPORTED
