"""Confidence intervals that fit the quantity they estimate.

Four interval methods, each returning a :class:`MeanEstimate` that names its method:

``"t"`` -- :func:`mean_ci`
    Student-:math:`t` interval for a mean, :math:`\\bar x \\pm t_{n-1,1-\\alpha/2}\\, s/\\sqrt n`;
    clipped to the quantity's range when one is given (``clipped`` records it). Clipping
    cannot lose coverage: the true mean lies in the range.
``"clopper-pearson"`` -- :func:`proportion_ci`
    Exact binomial interval for a proportion [1]_; never leaves :math:`[0, 1]`.
``"betting"`` -- :func:`betting_ci`
    Hedged-capital confidence sequence of Waudby-Smith and Ramdas [2]_ for the mean of a
    quantity with a known range :math:`[a, b]`. Valid for every :math:`n` and every level
    (no normal approximation), valid at every look of a sequential run simultaneously
    (``anytime_valid``), and inside :math:`[a, b]` by construction. The method for skewed
    or bimodal bounded quantities.
``"bca"`` -- :func:`bootstrap_ci`
    Bias-corrected and accelerated bootstrap [3]_ (:func:`scipy.stats.bootstrap`), clipped to the
    range. Only for levels where the resample count resolves the tails:
    ``n_resamples >= 50 / alpha``.

References
----------
.. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits
   illustrated in the case of the binomial", Biometrika 26 (1934) 404-413.
.. [2] I. Waudby-Smith and A. Ramdas, "Estimating means of bounded random variables by
   betting", J. R. Stat. Soc. B 86 (2024) 1-27, Theorem 3 (hedged capital process).
.. [3] Bradley Efron, "Better bootstrap confidence intervals", JASA 82 (1987) 171-185.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from moetheory._doccer import fill_doc
from moetheory.stats._rounding import stable

__all__ = [
    "INTERVAL_METHODS",
    "MeanEstimate",
    "betting_ci",
    "bootstrap_ci",
    "mean_ci",
    "proportion_ci",
]

#: Interval methods and whether each is valid at every look of a sequential run.
INTERVAL_METHODS: dict[str, bool] = {
    "t": False,
    "clopper-pearson": False,
    "betting": True,
    "bca": False,
    "given": False,
}


@dataclass(frozen=True)
class MeanEstimate:
    """An estimate with its two-sided confidence interval.

    Parameters
    ----------
    mean : float
        Point estimate.
    low, high : float
        Interval ends, level ``level``.
    n : int
        Number of independent replicates behind it.
    level : float
        Confidence level :math:`1 - \\alpha`.
    method : str
        Interval method (a key of :data:`INTERVAL_METHODS`; ``"given"`` for an interval a
        check computed itself).
    clipped : bool
        Whether an end was moved to the quantity's range.
    bounds : tuple of float
        The quantity's range, ``(-inf, inf)`` if none.

    See Also
    --------
    mean_ci, proportion_ci, betting_ci, bootstrap_ci : the methods that build one.
    moetheory.stats.compare : judges one against a claimed value.

    Notes
    -----
    The interval :math:`[\\ell, u]` covers the true mean with probability at least ``level``
    (for every :math:`n` with the exact methods, asymptotically with ``"t"`` and ``"bca"``).

    Examples
    --------
    >>> MeanEstimate(0.5, 0.4, 0.6, 10, 0.95).width
    0.19999999999999996
    """

    mean: float
    low: float
    high: float
    n: int
    level: float
    method: str = "given"
    clipped: bool = False
    bounds: tuple[float, float] = field(default=(-math.inf, math.inf))

    @property
    def width(self) -> float:
        """Interval width ``high - low``."""
        return self.high - self.low

    @property
    def anytime_valid(self) -> bool:
        """Whether the interval holds at every look of a sequential run at once."""
        return INTERVAL_METHODS.get(self.method, False)

    def to_dict(self) -> dict[str, Any]:
        """Evidence form, rounded with :func:`moetheory.stats.stable`.

        Returns
        -------
        dict
            ``mean``, ``ci``, ``n``, ``level``, ``method`` (and ``clipped_to`` when an end
            was clipped to the range).

        Examples
        --------
        >>> MeanEstimate(0.5, 0.4, 0.6, 10, 0.95, "t").to_dict()
        {'mean': 0.5, 'ci': [0.4, 0.6], 'n': 10, 'level': 0.95, 'method': 't'}
        """
        out: dict[str, Any] = {
            "mean": stable(self.mean),
            "ci": [stable(self.low), stable(self.high)],
            "n": self.n,
            "level": self.level,
            "method": self.method,
        }
        if self.clipped:
            out["clipped_to"] = [stable(b) for b in self.bounds]
        return out


#: The docstring parts of the intervals (:func:`moetheory._doccer.fill_doc`): the error level,
#: and the samples with it (``minimum`` is the fewest samples the interval takes).
_DOC: dict[str, str] = {
    "alpha": """alpha : float in (0, 1)
    Two-sided error level.""",
    "samples_alpha": """samples : array_like, 1-D, at least %(minimum)s values
    Independent replicates.
%(alpha)s""",
}


def _check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")


def _samples(samples: Sequence[float] | np.ndarray, minimum: int = 2) -> np.ndarray:
    x = np.asarray(samples, dtype=float)
    if x.ndim != 1 or x.size < minimum:
        raise ValueError(
            f"samples must be a 1-D array of at least {minimum} values, got shape {x.shape}"
        )
    if not np.all(np.isfinite(x)):
        raise ValueError("samples contain non-finite values")
    return x


def _check_bounds(bounds: tuple[float, float], x: np.ndarray | None = None) -> None:
    lo, hi = bounds
    if not lo < hi:
        raise ValueError(f"bounds must satisfy lower < upper, got {bounds}")
    # rounding may put a value a few ulps past an exact range end
    slack = 1e-9 * max([1.0, *(abs(b) for b in bounds if math.isfinite(b))])
    if x is not None and (x.min() < lo - slack or x.max() > hi + slack):
        raise ValueError(
            f"samples leave their declared range {bounds}: min {x.min()}, max {x.max()}"
        )


def _clip(mean: float, low: float, high: float, n: int, level: float, method: str,
          bounds: tuple[float, float]) -> MeanEstimate:
    lo_b, hi_b = bounds
    c_low, c_high = max(low, lo_b), min(high, hi_b)
    clipped = (c_low, c_high) != (low, high)
    return MeanEstimate(mean, c_low, c_high, n, level, method, clipped, (lo_b, hi_b))


@fill_doc({**_DOC, "minimum": "2"})
def mean_ci(
    samples: Sequence[float] | np.ndarray,
    alpha: float,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> MeanEstimate:
    """Student-:math:`t` interval of level ``1 - alpha`` for the mean of ``samples``.

    Parameters
    ----------
    %(samples_alpha)s
    bounds : (float, float)
        The quantity's range; the interval is clipped to it (and says so).

    Returns
    -------
    MeanEstimate
        Method ``"t"``.

    Raises
    ------
    ValueError
        For fewer than 2 or non-finite samples, ``alpha`` outside (0, 1), or samples outside
        ``bounds``.

    See Also
    --------
    betting_ci : exact, for bounded skewed quantities.
    bootstrap_ci : BCa, for skewed quantities at moderate levels.

    Notes
    -----
    :math:`\\bar x \\pm t_{n-1,\\,1-\\alpha/2}\\, s / \\sqrt{n}`, then intersected with the range.
    Exact for normal data, asymptotic otherwise; for skewed bounded quantities prefer
    :func:`betting_ci`.

    Examples
    --------
    >>> est = mean_ci([1.0, 2.0, 3.0, 4.0], alpha=0.05)
    >>> round(est.mean, 3), round(est.low, 3), round(est.high, 3)
    (2.5, 0.446, 4.554)
    >>> mean_ci([0.0, 0.0, 0.1], alpha=0.05, bounds=(0.0, math.inf)).clipped
    True
    """
    x = _samples(samples)
    _check_alpha(alpha)
    _check_bounds(bounds, x)
    n = x.size
    m = float(x.mean())
    se = float(x.std(ddof=1) / np.sqrt(n))
    from scipy import stats as sps
    q = float(sps.t.ppf(1 - alpha / 2, n - 1))
    return _clip(m, m - q * se, m + q * se, n, 1 - alpha, "t", bounds)


@fill_doc(_DOC)
def proportion_ci(successes: int, n: int, alpha: float) -> MeanEstimate:
    """Clopper-Pearson interval of level ``1 - alpha`` for a binomial proportion.

    Parameters
    ----------
    successes : int
        Number of successes :math:`k`, ``0 <= k <= n``.
    n : int
        Number of independent trials, at least 1.
    %(alpha)s

    Returns
    -------
    MeanEstimate
        Method ``"clopper-pearson"``, mean :math:`k/n`, range ``(0, 1)``.

    Raises
    ------
    ValueError
        If ``n < 1``, ``successes`` lies outside ``0 .. n``, or ``alpha`` outside (0, 1).

    See Also
    --------
    betting_ci : anytime-valid alternative for sequential runs.

    References
    ----------
    .. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits
       illustrated in the case of the binomial", Biometrika, 1934.

    Notes
    -----
    With :math:`k` successes in :math:`n` trials the ends are the beta quantiles
    :math:`B(\\alpha/2;\\, k, n-k+1)` and :math:`B(1-\\alpha/2;\\, k+1, n-k)` (0 and 1 at
    :math:`k = 0` and :math:`k = n`). Coverage is at least :math:`1 - \\alpha` for every
    true proportion (Clopper and Pearson 1934, see the module's References).

    Examples
    --------
    >>> est = proportion_ci(0, 100, alpha=0.05)
    >>> est.low, round(est.high, 4), est.method
    (0.0, 0.0362, 'clopper-pearson')
    """
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes}/{n}")
    _check_alpha(alpha)
    from scipy import stats as sps
    lo = 0.0 if successes == 0 else float(sps.beta.ppf(alpha / 2, successes, n - successes + 1))
    hi = 1.0 if successes == n else float(sps.beta.ppf(1 - alpha / 2, successes + 1, n - successes))
    return MeanEstimate(successes / n, lo, hi, n, 1 - alpha, "clopper-pearson", False, (0.0, 1.0))


def betting_ci(
    samples: Sequence[float] | np.ndarray,
    alpha: float,
    bounds: tuple[float, float],
    grid: int = 2000,
) -> MeanEstimate:
    """Hedged-capital confidence sequence for the mean of a bounded quantity.

    See Waudby-Smith and Ramdas (2024), Theorem 3, in the module's References.

    Parameters
    ----------
    samples : array_like, 1-D
        Independent replicates in ``bounds``, in the order they were drawn.
    alpha : float in (0, 1)
        Error level, valid uniformly over all sample sizes.
    bounds : (float, float), finite
        The quantity's range :math:`[a, b]`.
    grid : int
        Candidate means tested on a grid of this many points of :math:`[a, b]`.

    Returns
    -------
    MeanEstimate
        Method ``"betting"``; ``anytime_valid`` is true.

    Raises
    ------
    ValueError
        For no or non-finite samples, ``alpha`` outside (0, 1), infinite or unordered
        ``bounds``, samples outside ``bounds``, or ``grid < 10``.

    See Also
    --------
    mean_ci : Student-t, for roughly symmetric quantities.
    moetheory.stats.run_sequential : uses the full ``alpha`` at every look with this method.

    References
    ----------
    .. [1] I. Waudby-Smith and A. Ramdas, "Estimating means of bounded random variables by
       betting", J. R. Stat. Soc. B, 2024, arXiv:2010.09686.

    Notes
    -----
    With :math:`y_i = (x_i - a)/(b - a) \\in [0, 1]` and a candidate mean :math:`m`, two
    gamblers bet on :math:`y_i` being above and below :math:`m`; their wealth is

    .. math::

        K^{\\pm}_t(m) = \\prod_{i \\le t} \\bigl(1 \\pm \\lambda^{\\pm}_i(m) (y_i - m)\\bigr),
        \\quad \\lambda_i = \\sqrt{\\frac{2\\log(2/\\alpha)}{\\hat\\sigma^2_{i-1}\\, i \\log(1+i)}},
        \\quad \\lambda^{+}_i(m) = \\min(\\lambda_i, \\tfrac{1}{2m}),
        \\ \\lambda^{-}_i(m) = \\min(\\lambda_i, \\tfrac{1}{2(1-m)}),

    with the predictable variance estimate
    :math:`\\hat\\sigma^2_t = (1/4 + \\sum_{i\\le t} (y_i - \\hat\\mu_i)^2)/(t+1)`,
    :math:`\\hat\\mu_t = (1/2 + \\sum_{i \\le t} y_i)/(t+1)`. Under :math:`m = \\mathbb E[y]`
    the hedged wealth :math:`\\tfrac12 K^+_t + \\tfrac12 K^-_t` is a nonnegative martingale of
    mean 1, so by Ville's inequality it exceeds :math:`1/\\alpha` at any time with probability
    at most :math:`\\alpha`. The interval is the running intersection over :math:`t \\le n` of
    the grid points not yet rejected, widened by one grid step on each side.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> est = betting_ci(rng.beta(2, 5, size=400), alpha=0.01, bounds=(0.0, 1.0))
    >>> 0.0 <= est.low < 2 / 7 < est.high <= 1.0, est.anytime_valid
    (True, True)
    """
    x = _samples(samples, minimum=1)
    _check_alpha(alpha)
    a, b = float(bounds[0]), float(bounds[1])
    if not (math.isfinite(a) and math.isfinite(b)):
        raise ValueError(f"bounds must be finite for the betting interval, got {bounds}")
    _check_bounds((a, b), x)
    if grid < 10:
        raise ValueError(f"grid must be >= 10, got {grid}")
    y = (x - a) / (b - a)
    n = y.size
    t = np.arange(1, n + 1, dtype=float)
    mu_hat = (0.5 + np.cumsum(y)) / (t + 1)
    var_hat = (0.25 + np.cumsum((y - mu_hat) ** 2)) / (t + 1)
    var_prev = np.concatenate(([0.25], var_hat[:-1]))
    lam = np.sqrt(2 * math.log(2 / alpha) / (var_prev * t * np.log1p(t)))
    m_all = np.linspace(0.0, 1.0, grid)
    threshold = math.log(1 / alpha)
    rejected = np.zeros(grid, dtype=bool)
    chunk = max(1, 2_000_000 // n)  # bound memory at about n * chunk doubles
    for start in range(0, grid, chunk):
        m = m_all[start:start + chunk]
        with np.errstate(divide="ignore"):
            cap_plus = np.minimum(lam[:, None], 0.5 / m[None, :])
            cap_minus = np.minimum(lam[:, None], 0.5 / (1.0 - m[None, :]))
        diff = y[:, None] - m[None, :]
        log_plus = np.cumsum(np.log1p(cap_plus * diff), axis=0)
        log_minus = np.cumsum(np.log1p(-cap_minus * diff), axis=0)
        log_wealth = np.logaddexp(log_plus, log_minus) + math.log(0.5)
        rejected[start:start + chunk] = (log_wealth >= threshold).any(axis=0)
    m = m_all
    keep = np.flatnonzero(~rejected)
    step = 1.0 / (grid - 1)
    if keep.size == 0:  # cannot happen under the model; fall back to the sample mean
        lo_y = hi_y = float(y.mean())
    else:
        lo_y, hi_y = float(m[keep[0]]), float(m[keep[-1]])
    lo_y, hi_y = max(0.0, lo_y - step), min(1.0, hi_y + step)
    return MeanEstimate(
        float(x.mean()), a + (b - a) * lo_y, a + (b - a) * hi_y, n, 1 - alpha, "betting",
        False, (a, b),
    )


@fill_doc({**_DOC, "minimum": "3"})
def bootstrap_ci(
    samples: Sequence[float] | np.ndarray,
    alpha: float,
    rng: np.random.Generator,
    bounds: tuple[float, float] = (-math.inf, math.inf),
    n_resamples: int | None = None,
) -> MeanEstimate:
    """BCa bootstrap interval of level ``1 - alpha`` for the mean (Efron 1987).

    Parameters
    ----------
    %(samples_alpha)s
    rng : numpy.random.Generator
        Source of the resamples (pass one of the check's streams).
    bounds : (float, float)
        The quantity's range; the interval is clipped to it.
    n_resamples : int, optional
        Default ``max(9999, ceil(50 / alpha))``; fewer than ``50 / alpha`` is refused, since
        the tail quantiles of the bootstrap distribution would rest on a handful of
        resamples.

    Returns
    -------
    MeanEstimate
        Method ``"bca"``, clipped to ``bounds``; a degenerate interval at the common value
        when all samples are equal.

    Raises
    ------
    ValueError
        For fewer than 3 or non-finite samples, ``alpha`` outside (0, 1), samples outside
        ``bounds``, or ``n_resamples < 50 / alpha``.

    See Also
    --------
    betting_ci : exact at every level, for bounded quantities.

    Notes
    -----
    The BCa ends are the bootstrap quantiles at
    :math:`\\Phi\\bigl(z_0 + \\frac{z_0 + z_{q}}{1 - a(z_0 + z_{q})}\\bigr)` for
    :math:`q = \\alpha/2, 1 - \\alpha/2`, with bias correction :math:`z_0` and acceleration
    :math:`a` (jackknife); second-order accurate, but still asymptotic.

    References
    ----------
    .. [1] Bradley Efron, "Better bootstrap confidence intervals", JASA, 1987.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.exponential(size=200)
    >>> est = bootstrap_ci(x, 0.1, np.random.default_rng(1), bounds=(0.0, math.inf))
    >>> est.method, est.low < est.mean < est.high, est.low >= 0.0
    ('bca', True, True)
    """
    x = _samples(samples, minimum=3)
    _check_alpha(alpha)
    _check_bounds(bounds, x)
    need = math.ceil(50 / alpha)
    if n_resamples is None:
        n_resamples = max(9999, need)
    if n_resamples < need:
        raise ValueError(
            f"n_resamples must be >= 50/alpha = {need} at alpha = {alpha}, got {n_resamples}"
        )
    if np.ptp(x) == 0:
        m = float(x[0])
        return MeanEstimate(m, m, m, x.size, 1 - alpha, "bca", False, bounds)
    from scipy import stats as sps
    res = sps.bootstrap(
        (x,), np.mean, confidence_level=1 - alpha, method="BCa", n_resamples=n_resamples,
        rng=rng, vectorized=True,
    )
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return _clip(float(x.mean()), lo, hi, x.size, 1 - alpha, "bca", bounds)
