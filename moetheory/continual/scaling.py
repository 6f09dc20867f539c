"""Order statements as exponents: fit ``q ≈ c · x^a`` over a grid and judge ``a``.

A statement ``q = O(x^a)`` (as ``x → 0``), ``Ω(x^a)`` or ``Θ(x^a)`` about a simulated quantity
``q`` is a statement about the exponent of ``q`` in ``x`` on small ``x``; a constant factor
is not a finding, an exponent is. :func:`fit_exponent` fits the log-log slope of the mean of
``q`` over a grid of ``x`` (ordinary least squares on ``log mean`` against ``log x``), with a
percentile bootstrap interval that resamples the replicates at every grid point
independently. The rules of :mod:`moetheory.stats` then compare the interval with the claimed
exponent ``a`` and a tolerance fixed before looking:

* ``O(x^a)`` (:func:`exponent_at_least`): the slope must be at least ``a``: ``supported`` if
  the interval lies above ``a - tol``, ``unsupported`` if it lies below, else
  ``inconclusive``;
* ``Ω(x^a)`` (:func:`exponent_at_most`): the mirror image;
* ``Θ(x^a)`` (:func:`exponent_equal`): ``supported`` if the interval lies inside
  ``[a - tol, a + tol]``, ``unsupported`` if it misses that band, else ``inconclusive``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from moetheory.stats import Comparison, MeanEstimate, at_least, at_most, compare

__all__ = ["exponent_at_least", "exponent_at_most", "exponent_equal", "fit_exponent"]

#: Bootstrap resamples of :func:`fit_exponent`.
BOOTSTRAP = 1000


_LOG = np.frompyfunc(lambda v: math.log(v) if v > 0 else -math.inf, 1, 1)


def _log(x: np.ndarray | Sequence[float]) -> np.ndarray:
    """Natural logarithm (``-inf`` at 0) through the C library, not NumPy's SIMD kernels
    (whose last bit depends on the CPU path), so fitted exponents are the same on every
    machine."""
    return np.asarray(_LOG(np.asarray(x, dtype=float)), dtype=float)


def _slope(logx: np.ndarray, logy: np.ndarray) -> np.ndarray:
    """OLS slopes of ``logy`` (..., G) on ``logx`` (G,)."""
    xc = logx - logx.mean()
    return ((logy - logy.mean(axis=-1, keepdims=True)) * xc).sum(axis=-1) / (xc * xc).sum()


def fit_exponent(
    x: Sequence[float], samples: Sequence[np.ndarray], alpha: float, seed: int = 0
) -> MeanEstimate:
    r"""Log-log slope of ``mean(samples[i])`` against ``x[i]``, with a bootstrap interval.

    Parameters
    ----------
    x : sequence of float, length G
        Grid values, positive, at least two distinct.
    samples : sequence of ndarray, length G
        Non-negative replicate values of the quantity at each grid point, at least two of
        them positive per grid point.
    alpha : float
        One minus the interval's level.
    seed : int, optional
        Seed of the bootstrap; default 0.

    Returns
    -------
    MeanEstimate
        ``mean`` is the fitted exponent, ``[low, high]`` its percentile interval of level
        :math:`1 - \alpha` and ``n`` the total number of replicates.

    Raises
    ------
    ValueError
        If the grid is not positive or has fewer than two distinct values, a grid value has
        fewer than two positive samples (zeros are allowed: an exactly balanced run), a
        sample is negative or not finite, or the sizes disagree.

    See Also
    --------
    exponent_at_least : judge :math:`q = O(x^a)`.
    exponent_at_most : judge :math:`q = \Omega(x^a)`.
    exponent_equal : judge :math:`q = \Theta(x^a)`.

    Notes
    -----
    With :math:`\bar q_i` the mean of ``samples[i]``, the exponent is the ordinary
    least-squares slope

    .. math:: \hat a = \frac{\sum_i (\log x_i - \overline{\log x})
              (\log \bar q_i - \overline{\log \bar q})}{\sum_i (\log x_i - \overline{\log x})^2}.

    The interval takes the :math:`\alpha/2` and :math:`1 - \alpha/2` quantiles
    (``inverted_cdf``) of the slope over 1000 resamples, each drawing the replicates at every
    grid point independently with replacement; a resample of only zeros has slope
    :math:`\pm\infty`, kept as such. Logarithms go through the C library, not NumPy's SIMD
    kernels, so the fitted exponent has the same bits on every machine.

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
    arrays = [np.asarray(s, dtype=float).ravel() for s in samples]
    if any(not np.all(np.isfinite(a)) or (a < 0).any() or (a > 0).sum() < 2 for a in arrays):
        raise ValueError(
            "samples must be finite and non-negative, with at least 2 positive values per grid "
            "value"
        )
    logx = _log(xs)
    slope = float(_slope(logx, _log([a.mean() for a in arrays])))
    rng = np.random.default_rng(seed)
    means = np.stack(
        [a[rng.integers(0, a.size, (BOOTSTRAP, a.size))].mean(axis=1) for a in arrays], axis=1
    )
    # A resample of only zeros has mean 0 (log -inf): its slope is ±inf, which the
    # percentile ends take as they come (no interpolation between infinities).
    with np.errstate(invalid="ignore"):
        boot = _slope(logx, _log(means))
    boot = np.where(np.isnan(boot), -np.inf, boot)
    low, high = np.quantile(boot, [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
    return MeanEstimate(slope, float(low), float(high), int(sum(a.size for a in arrays)),
                        1 - alpha)


def exponent_at_least(label: str, est: MeanEstimate, a: float, tol: float) -> Comparison:
    r"""Judge :math:`q = O(x^a)` as :math:`x \to 0`: the fitted exponent is at least ``a``.

    Parameters
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
        If ``tol`` is negative or NaN (from the rule of :mod:`moetheory.stats`).

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


def exponent_at_most(label: str, est: MeanEstimate, a: float, tol: float) -> Comparison:
    r"""Judge :math:`q = \Omega(x^a)` as :math:`x \to 0`: the fitted exponent is at most ``a``.

    Parameters
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
        If ``tol`` is negative or NaN (from the rule of :mod:`moetheory.stats`).

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


def exponent_equal(label: str, est: MeanEstimate, a: float, tol: float) -> Comparison:
    r"""Judge :math:`q = \Theta(x^a)`: the exponent lies within ``tol`` of ``a``.

    Parameters
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
        If ``tol`` is negative or NaN (from the rule of :mod:`moetheory.stats`).

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
