r"""Order statements as exponents: fit :math:`q \approx c \, x^a` over a grid and judge :math:`a`.

A statement :math:`q = O(x^a)` (as :math:`x \to 0`), :math:`\Omega(x^a)` or
:math:`\Theta(x^a)` about a simulated quantity :math:`q` is a statement about the exponent of
:math:`q` in :math:`x` on small :math:`x`; a constant factor is not a finding, an exponent
is. :func:`fit_exponent` fits the log-log slope of the geometric mean of :math:`q` over a grid
of :math:`x` (ordinary least squares of the mean of :math:`\log q` on :math:`\log x`), with a
Welch t interval. The rules of :mod:`moetheory.stats` then compare the interval with the
claimed exponent :math:`a` and a tolerance fixed before looking:

* :math:`O(x^a)` (:func:`exponent_at_least`): the slope must be at least :math:`a`:
  ``supported`` if the interval lies above :math:`a - \mathrm{tol}`, ``unsupported`` if it
  lies below, else ``inconclusive``;
* :math:`\Omega(x^a)` (:func:`exponent_at_most`): the mirror image;
* :math:`\Theta(x^a)` (:func:`exponent_equal`): ``supported`` if the interval lies inside
  :math:`[a - \mathrm{tol}, a + \mathrm{tol}]`, ``unsupported`` if it misses that band, else
  ``inconclusive``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from moetheory._doccer import fill_doc
from moetheory.stats import Comparison, MeanEstimate, at_least, at_most, compare

__all__ = ["exponent_at_least", "exponent_at_most", "exponent_equal", "fit_exponent"]

#: Parameters, Returns and Raises of the three judgements of an exponent.
_JUDGEMENT = """Parameters
----------
label : str
    Name of the quantity, for the comparison's text.
est : MeanEstimate
    Fitted exponent with its interval (from :func:`fit_exponent`).
a : float
    The claimed exponent.
tol : float
    Tolerance on the exponent, fixed before looking at the data.

Returns
-------
Comparison
    The verdict (``supported``, ``unsupported`` or ``inconclusive``) with the interval,
    the band and the rule.

Raises
------
ValueError
    If ``tol`` is negative or NaN (from the rule of :mod:`moetheory.stats`)."""


def fit_exponent(x: Sequence[float], samples: Sequence[np.ndarray], alpha: float) -> MeanEstimate:
    r"""Log-log slope of the geometric mean of ``samples[i]`` on ``x[i]``, Welch t interval.

    Parameters
    ----------
    x : sequence of float, length G
        Grid values, positive, at least two distinct.
    samples : sequence of ndarray, length G
        Non-negative replicate values of the quantity at each grid point, at least two of
        them positive per grid point.
    alpha : float
        One minus the interval's level, in (0, 1).

    Returns
    -------
    MeanEstimate
        ``mean`` is the fitted exponent, ``[low, high]`` its Welch t interval of level
        :math:`1 - \alpha`, ``n`` the number of positive replicate values used and
        ``method`` ``"welch-t (log scale)"``.

    Raises
    ------
    ValueError
        If the grid is not positive or has fewer than two distinct values, a grid value has
        fewer than two positive samples (zeros are allowed: an exactly balanced run), a
        sample is negative or not finite, the sizes disagree, or ``alpha`` is not in (0, 1).

    See Also
    --------
    exponent_at_least : judge :math:`q = O(x^a)`.
    exponent_at_most : judge :math:`q = \Omega(x^a)`.
    exponent_equal : judge :math:`q = \Theta(x^a)`.

    Notes
    -----
    With :math:`\ell_{ij} = \log q_{ij}` for the :math:`n_i` positive values at grid point
    :math:`i`, :math:`\bar\ell_i` their mean and :math:`s_i^2` their sample variance, and
    :math:`w_i = (\log x_i - \overline{\log x}) / \sum_k (\log x_k - \overline{\log x})^2`,
    the exponent is the least-squares slope

    .. math:: \hat a = \sum_i w_i \bar\ell_i, \qquad
              \widehat{\mathrm{se}}^2 = \sum_i w_i^2 s_i^2 / n_i,

    and the interval is :math:`\hat a \pm t_{\nu, 1-\alpha/2}\,\widehat{\mathrm{se}}` with
    Welch–Satterthwaite degrees of freedom
    :math:`\nu = \widehat{\mathrm{se}}^4 / \sum_i (w_i^2 s_i^2 / n_i)^2 / (n_i - 1)`.
    The estimand is the exponent of the geometric mean (the typical size of a run), which the
    seeds' "with high probability" order statements are about. It is exact when the
    logarithms are normal, and the logarithm removes most of the skew of positive
    quantities: the former percentile bootstrap of the arithmetic mean, at the levels
    :math:`\alpha \approx 10^{-4}` a Bonferroni share gives, missed the truth in up to 15%
    of seeds (``benchmarks/calibrate.py``), since a mean of 16 heavy-tailed replicates has no
    reliable bootstrap tail. A zero (an exactly balanced run) has no logarithm and is left
    out; ``n`` counts the values used. Sums are exactly rounded (``math.fsum``) and
    logarithms come from the C library, so the interval has the same bits on every machine.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> xs = [0.1, 0.2, 0.4]
    >>> est = fit_exponent(xs, [x**1.5 * rng.uniform(0.9, 1.1, 30) for x in xs], 0.01)
    >>> bool(abs(est.mean - 1.5) < 0.05 and est.low < 1.5 < est.high)
    True
    >>> fit_exponent([0.1, 0.1], [np.ones(3), np.ones(3)], 0.05)
    Traceback (most recent call last):
    ...
    ValueError: x must hold at least two distinct positive values, got [0.1, 0.1]
    """
    xs = np.asarray(x, dtype=float)
    if xs.ndim != 1 or len(np.unique(xs)) < 2 or (xs <= 0).any():
        raise ValueError(f"x must hold at least two distinct positive values, got {x!r}")
    if len(samples) != len(xs):
        raise ValueError(f"samples must have one array per grid value, got {len(samples)}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    arrays = [np.asarray(s, dtype=float).ravel() for s in samples]
    if any(not np.all(np.isfinite(a)) or (a < 0).any() or (a > 0).sum() < 2 for a in arrays):
        raise ValueError(
            "samples must be finite and non-negative, with at least 2 positive values per grid "
            "value"
        )
    logx = [math.log(v) for v in xs]
    cx = [v - math.fsum(logx) / len(logx) for v in logx]
    sxx = math.fsum(c * c for c in cx)
    w = [c / sxx for c in cx]
    slope, parts, dof = [], [], []
    for wi, a in zip(w, arrays, strict=True):
        logs = [math.log(v) for v in a.tolist() if v > 0]
        n = len(logs)
        m = math.fsum(logs) / n
        var = math.fsum((v - m) ** 2 for v in logs) / (n - 1)
        slope.append(wi * m)
        parts.append(wi * wi * var / n)
        dof.append(n - 1)
    a_hat = math.fsum(slope)
    v_hat = math.fsum(parts)
    n_used = sum(d + 1 for d in dof)
    if v_hat == 0.0:  # every grid point's replicates equal: the slope is exact
        return MeanEstimate(a_hat, a_hat, a_hat, n_used, 1 - alpha, "welch-t (log scale)")
    nu = v_hat**2 / math.fsum(p * p / d for p, d in zip(parts, dof, strict=True))
    from scipy import stats as sps
    half = float(sps.t.ppf(1 - alpha / 2, nu)) * math.sqrt(v_hat)
    return MeanEstimate(a_hat, a_hat - half, a_hat + half, n_used, 1 - alpha,
                        "welch-t (log scale)")


@fill_doc({"judgement": _JUDGEMENT})
def exponent_at_least(label: str, est: MeanEstimate, a: float, tol: float) -> Comparison:
    r"""Judge :math:`q = O(x^a)` as :math:`x \to 0`: the fitted exponent is at least ``a``.

    %(judgement)s

    See Also
    --------
    moetheory.stats.at_least : the rule applied to the exponent's interval.
    exponent_at_most, exponent_equal : the other order statements.

    Notes
    -----
    For small :math:`x`, :math:`q \le C x^a` holds with an exponent :math:`\hat a \ge a`
    (a larger exponent is a faster decay). ``supported`` if the interval lies above
    :math:`a - \text{tol}`, ``unsupported`` if it lies below, else ``inconclusive``.

    Examples
    --------
    >>> exponent_at_least("q", MeanEstimate(1.0, 0.9, 1.1, 30, 0.99), 1.5, 0.25).verdict
    <Verdict.UNSUPPORTED: 'unsupported'>
    """
    return at_least(label, est, a, tol)


@fill_doc({"judgement": _JUDGEMENT})
def exponent_at_most(label: str, est: MeanEstimate, a: float, tol: float) -> Comparison:
    r"""Judge :math:`q = \Omega(x^a)` as :math:`x \to 0`: the fitted exponent is at most ``a``.

    %(judgement)s

    See Also
    --------
    moetheory.stats.at_most : the rule applied to the exponent's interval.
    exponent_at_least, exponent_equal : the other order statements.

    Notes
    -----
    For small :math:`x`, :math:`q \ge c\, x^a` holds with an exponent :math:`\hat a \le a`.
    ``supported`` if the interval lies below :math:`a + \text{tol}`, ``unsupported`` if it
    lies above, else ``inconclusive``.

    Examples
    --------
    >>> exponent_at_most("q", MeanEstimate(0.1, 0.0, 0.2, 30, 0.99), 1.0, 0.25).verdict
    <Verdict.SUPPORTED: 'supported'>
    """
    return at_most(label, est, a, tol)


@fill_doc({"judgement": _JUDGEMENT})
def exponent_equal(label: str, est: MeanEstimate, a: float, tol: float) -> Comparison:
    r"""Judge :math:`q = \Theta(x^a)`: the exponent lies within ``tol`` of ``a``.

    %(judgement)s

    See Also
    --------
    moetheory.stats.compare : the equivalence rule applied to the exponent's interval.
    exponent_at_least, exponent_at_most : the one-sided order statements.

    Notes
    -----
    ``supported`` if the interval lies inside :math:`[a - \text{tol}, a + \text{tol}]`,
    ``unsupported`` if it misses that band entirely, else ``inconclusive`` (a wide interval
    proves neither).

    Examples
    --------
    >>> exponent_equal("q", MeanEstimate(0.7, 0.6, 0.8, 30, 0.99), 0.75, 0.25).verdict
    <Verdict.SUPPORTED: 'supported'>
    >>> exponent_equal("q", MeanEstimate(0.7, 0.2, 1.3, 30, 0.99), 0.75, 0.25).verdict
    <Verdict.INCONCLUSIVE: 'inconclusive'>
    """
    return compare(label, est, a, tol)
