r"""Log-log slopes of median losses, and their bootstrap intervals.

The inference half of :mod:`moetheory.estimation.experiment`: the median loss per sample size
(:func:`median_table`), the least-squares slope of its logarithm against :math:`\log n`, and
the interval of that slope (:func:`slope_bootstrap`: exact over the medians' joint law when its
support is small, Monte Carlo otherwise). Imported back there, where the rates experiments use
them.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np

from moetheory.estimation.detmath import det_log

__all__ = ["median_pair_cdf", "median_table", "slope_bootstrap"]


def median_table(records: list[dict[str, Any]], loss: str) -> dict[tuple[str, int], np.ndarray]:
    """Per (router, k): array of rows ``(n, median loss)`` in increasing n.

    Parameters
    ----------
    records : list of dict
        Records of :func:`run_rates`.
    loss : str
        The loss column.

    Returns
    -------
    dict of (str, int) to ndarray of shape (m, 2)

    Notes
    -----
    The median over replicates is the statistic whose log-log slope the rates claims test.

    See Also
    --------
    loss_matrix, slope_bootstrap

    Examples
    --------
    >>> recs = [{"router": "cosine", "k": 3, "n": 10, "rep": r, "l": float(r)} for r in range(3)]
    >>> median_table(recs, "l")[("cosine", 3)].tolist()
    [[10.0, 1.0]]
    """
    out: dict[tuple[str, int], np.ndarray] = {}
    for key in sorted({(r["router"], r["k"]) for r in records}):
        ns = sorted({r["n"] for r in records if (r["router"], r["k"]) == key})
        meds = [
            np.median([r[loss] for r in records if (r["router"], r["k"], r["n"]) == (*key, n)])
            for n in ns
        ]
        out[key] = np.array([ns, meds], dtype=float).T
    return out


def _slope(log_n: np.ndarray, log_m: np.ndarray) -> np.ndarray:
    xc = log_n - log_n.mean()
    # einsum, not BLAS: the same bits on every machine
    centred = log_m - log_m.mean(axis=-1, keepdims=True)
    return np.einsum("...m,m->...", centred, xc) / np.einsum("m,m->", xc, xc)


@functools.lru_cache(maxsize=64)
def median_pair_cdf(reps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact law of the two middle order statistics of ``reps`` draws with replacement.

    Parameters
    ----------
    reps : int
        ``R``, the number of replicates resampled (``R >= 1``).

    Returns
    -------
    a, b : ndarray of int
        The possible pairs of 0-based ranks ``(X_(lo), X_(hi))``, ``lo = (R-1)//2``,
        ``hi = R//2``, of ``R`` i.i.d. uniform draws from ``{0, ..., R-1}``.
    cdf : ndarray of float
        Their cumulative probabilities (last entry exactly 1), correctly rounded from the
        exact rational values.

    Raises
    ------
    ValueError
        If ``reps < 1``.

    Notes
    -----
    With :math:`C(v)` the number of draws :math:`\\le v`, :math:`h = lo + 1` and
    :math:`s = R - h`: for :math:`a < b` (only when :math:`R` is even),

    .. math::

        P(a, b) = \\binom{R}{h} \\frac{\\bigl((a+1)^h - a^h\\bigr)
        \\bigl((R-b)^s - (R-b-1)^s\\bigr)}{R^R},

    (``h`` draws at most ``a`` with at least one at ``a``, none strictly between, the rest at
    least ``b`` with at least one at ``b``); and for :math:`a = b`,

    .. math::

        P(a, a) = R^{-R} \\sum_{c=0}^{lo} \\sum_{N = hi + 1 - c}^{R - c}
        \\binom{R}{c,\\,N,\\,R-c-N}\\, a^c (R-a-1)^{R-c-N}

    (``c`` draws below ``a``, ``N`` at ``a``). All terms are integers, so the law is exact.
    The median of a resample is the mean of the values at ranks :math:`a` and :math:`b`, so
    one uniform number per resample replaces ``R`` integer draws.

    See Also
    --------
    slope_bootstrap

    Examples
    --------
    >>> a, b, cdf = median_pair_cdf(2)
    >>> a.tolist(), b.tolist(), cdf.tolist()
    ([0, 0, 1], [0, 1, 1], [0.25, 0.75, 1.0])
    """
    if not isinstance(reps, int | np.integer) or reps < 1:
        raise ValueError(f"reps must be an integer >= 1, got {reps!r}")
    R = int(reps)
    lo, hi = (R - 1) // 2, R // 2
    h, s = lo + 1, R - lo - 1
    pairs, weights = [], []
    for a in range(R):
        for b in range(a, R):
            if a == b:
                w = sum(
                    math.comb(R, c) * math.comb(R - c, N) * a**c * (R - a - 1) ** (R - c - N)
                    for c in range(lo + 1)
                    for N in range(hi + 1 - c, R - c + 1)
                )
            elif hi > lo:
                w = math.comb(R, h) * ((a + 1) ** h - a**h) * ((R - b) ** s - (R - b - 1) ** s)
            else:
                continue
            if w:
                pairs.append((a, b))
                weights.append(w)
    total = R**R
    if sum(weights) != total:  # pragma: no cover - an identity, kept as a guard
        raise AssertionError("median pair law does not sum to 1")
    cum = itertools.accumulate(weights)
    cdf = np.array([float(Fraction(c, total)) for c in cum])
    arr = np.array(pairs, dtype=np.int64)
    return arr[:, 0], arr[:, 1], cdf


def _boot_slopes(
    log_n: np.ndarray, losses: np.ndarray, rng: np.random.Generator, n_boot: int
) -> np.ndarray:
    """Slopes of ``n_boot`` bootstrap resamples (replicates drawn with replacement per n).

    The median of a resample is the mean of its two middle order statistics, whose ranks
    ``(a, b)`` have the exact law :func:`median_pair_cdf`: each resample draws them from one
    uniform number, then reads ``log((v_(a) + v_(b)) / 2)`` from a table. This is the
    percentile bootstrap of the median, exactly in law, at ``1/R`` of the random draws.
    """
    m, reps = losses.shape
    srt = np.sort(losses, axis=1)
    table = det_log((srt[:, :, None] + srt[:, None, :]) / 2)  # (m, R, R)
    a, b, cdf = median_pair_cdf(reps)
    block = max(1, 2_000_000 // m)
    rows = np.arange(m)[None, :]
    out = []
    for start in range(0, n_boot, block):
        cell = np.searchsorted(cdf, rng.random((min(block, n_boot - start), m)), side="right")
        out.append(_slope(log_n, table[rows, a[cell], b[cell]]))
    return np.concatenate(out)


#: Largest support of a half-sum enumerated by the exact bootstrap (else Monte Carlo).
_EXACT_MAX_SUPPORT = 3_000_000


def _median_laws(losses: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per sample size: the distinct log-medians a resample can have and their probabilities."""
    srt = np.sort(losses, axis=1)
    a, b, cdf = median_pair_cdf(losses.shape[1])
    prob = np.diff(np.concatenate([[0.0], cdf]))
    return [(det_log((row[a] + row[b]) / 2), prob) for row in srt]


def _sum_law(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Support (sorted) and cumulative probabilities of a sum of independent discrete laws."""
    vals, probs = np.zeros(1), np.ones(1)
    for v, p in parts:
        vals = (vals[:, None] + v[None, :]).ravel()
        probs = (probs[:, None] * p[None, :]).ravel()
    order = np.argsort(vals, kind="stable")
    return vals[order], np.cumsum(probs[order])


def _exact_quantiles(parts, levels: list[float]) -> list[float] | None:
    """Quantiles of ``sum_i X_i`` for independent discrete ``X_i`` (values, probabilities),
    by meet-in-the-middle: ``P(S <= t) = sum_x P(X = x) P(Y <= t - x)``. ``None`` if the
    supports are too large to enumerate."""
    half = len(parts) // 2
    if max(math.prod(p[0].size for p in parts[:half]),
           math.prod(p[0].size for p in parts[half:])) > _EXACT_MAX_SUPPORT:
        return None
    xv, xc = _sum_law(parts[:half])
    xp = np.diff(np.concatenate([[0.0], xc]))
    yv, yc = _sum_law(parts[half:])

    def cdf(t: float) -> float:
        k = np.searchsorted(yv, t - xv, side="right")
        return math.fsum(xp[k > 0] * yc[k[k > 0] - 1])

    out = []
    for q in levels:
        lo, hi = float(xv[0] + yv[0]) - 1.0, float(xv[-1] + yv[-1])
        for _ in range(200):  # bisection to adjacent doubles: the smallest t with cdf >= q
            mid = lo + (hi - lo) / 2
            if mid in (lo, hi):
                break
            if cdf(mid) >= q:
                hi = mid
            else:
                lo = mid
        out.append(hi)
    return out


def slope_bootstrap(
    ns: np.ndarray,
    losses: np.ndarray,
    alpha: float,
    rng: np.random.Generator,
    n_boot: int = 4000,
    exact: bool = False,
) -> dict[str, Any]:
    """Log-log slope of the median loss against n, with a percentile bootstrap interval.

    Parameters
    ----------
    ns : ndarray of shape (m,)
        The sample sizes.
    losses : ndarray of shape (m, R)
        ``R`` replicate losses per sample size.
    alpha : float
        The interval has level ``1 - alpha``.
    rng : numpy.random.Generator
        Bootstrap generator (Monte Carlo only).
    n_boot : int
        Number of bootstrap resamples (Monte Carlo only).
    exact : bool
        Take the interval from the exact bootstrap law instead of ``n_boot`` resamples (when
        its support can be enumerated; otherwise Monte Carlo is used and ``method`` says so).

    Returns
    -------
    dict
        ``slope``, ``ci``, ``level``, ``method`` ("exact-bootstrap" or "monte-carlo"),
        ``boot`` (the bootstrap slopes, for differences; ``None`` when exact).

    Raises
    ------
    ValueError
        If ``losses`` is not ``(len(ns) >= 2, R)``, has non-positive or non-finite entries,
        or ``alpha`` is outside ``(0, 1)``.

    Notes
    -----
    The slope is the least-squares slope of :math:`\\log \\mathrm{median}_r L_{i r}` on
    :math:`\\log n_i`, :math:`\\hat s = \\sum_i w_i \\log \\mathrm{med}_i` with
    :math:`w_i = (\\log n_i - \\overline{\\log n}) / \\sum_j (\\log n_j -
    \\overline{\\log n})^2`. The percentile bootstrap resamples the replicates within each
    ``n``; the resampled medians are independent across ``n`` and each has the finite law of
    :func:`median_pair_cdf`. The exact interval takes the :math:`\\alpha/2` and
    :math:`1-\\alpha/2` quantiles of that law of :math:`\\sum_i w_i \\log
    \\mathrm{med}^*_i` (meet in the middle over the sizes, bisection to adjacent doubles): the
    limit of the Monte Carlo interval as ``n_boot`` grows, with no resampling error, and the
    same bits on every machine.

    See Also
    --------
    median_pair_cdf : the law of a resample's median.
    loss_matrix : the ``(ns, losses)`` of one configuration.

    Examples
    --------
    >>> ns = np.array([10.0, 100.0, 1000.0])
    >>> losses = np.outer(ns ** -0.5, [0.9, 1.0, 1.1])
    >>> out = slope_bootstrap(ns, losses, 0.05, np.random.default_rng(0), n_boot=200)
    >>> round(out["slope"], 6)
    -0.5
    >>> ex = slope_bootstrap(ns, losses, 0.05, np.random.default_rng(0), exact=True)
    >>> ex["method"], [round(v, 3) for v in ex["ci"]]
    ('exact-bootstrap', [-0.544, -0.456])
    """
    ns = np.asarray(ns, dtype=float)
    losses = np.asarray(losses, dtype=float)
    if losses.ndim != 2 or losses.shape[0] != ns.size or ns.size < 2:
        raise ValueError(f"losses must have shape (len(ns) >= 2, R), got {losses.shape}")
    if np.any(losses <= 0) or not np.all(np.isfinite(losses)):
        raise ValueError("losses must be positive and finite for a log-log slope")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    log_n = det_log(ns)
    slope = float(_slope(log_n, det_log(np.median(losses, axis=1))))
    if exact:
        xc = log_n - log_n.mean()
        w = xc / np.einsum("m,m->", xc, xc)
        parts = [(wi * v, p) for wi, (v, p) in zip(w, _median_laws(losses), strict=True)]
        q = _exact_quantiles(parts, [alpha / 2, 1 - alpha / 2])
        if q is not None:
            return {"slope": slope, "ci": q, "level": 1 - alpha, "method": "exact-bootstrap",
                    "boot": None}
    boot = _boot_slopes(log_n, losses, rng, n_boot)
    lo, hi = np.quantile(boot, [alpha / 2, 1 - alpha / 2])
    return {"slope": slope, "ci": [float(lo), float(hi)], "level": 1 - alpha,
            "method": "monte-carlo", "boot": boot}
