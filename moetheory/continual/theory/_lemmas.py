"""Exact quantities of the lemmas: the projection mean under Definition 1 (Lemma 16), the
routing probabilities of Lemma 2 and the coverage probabilities of Lemma 11."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from moetheory._doccer import fill_doc
from moetheory.continual.theory import _docs
from moetheory.continual.theory._notation import overparam_ratio
from moetheory.symbolic.exact import to_exact

__all__ = [
    "coverage_probability_exact",
    "coverage_product_step",
    "coverage_union_bound",
    "projection_mean_definition1",
    "routing_probabilities_exact",
]


@fill_doc(_docs.REFERENCES)
def projection_mean_definition1(u: np.ndarray, v: np.ndarray, s: int, d: int) -> float:
    r""":math:`\mathbb{E}\|P_t u\|^2` when :math:`X_t` follows Definition 1.

    Parameters
    ----------
    u : ndarray, shape (d,)
        The vector projected.
    v : ndarray, shape (d,)
        The task's feature signal :math:`v \ne 0`.
    s, d : int
        Samples per task and dimension, ``1 <= s < d``.

    Returns
    -------
    float
        :math:`\frac{s-1}{d-1}\|u\|^2 + \frac{d-s}{d-1}\frac{(v^\top u)^2}{\|v\|^2}`.

    Raises
    ------
    ValueError
        If ``s`` or ``d`` is out of range, ``u`` or ``v`` does not have shape (d,), or
        ``v`` is zero.

    See Also
    --------
    moetheory.continual.single_expert.projection_sq_norms : Monte Carlo draws of the same.

    Notes
    -----
    Under Definition 1 of [1]_, :math:`X_t` has one column :math:`\beta_t v` and
    :math:`s - 1` Gaussian columns. Its column space is :math:`\mathrm{span}(v)` plus a
    uniformly random :math:`(s-1)`-dimensional subspace of :math:`v^\perp`, so

    .. math:: \mathbb{E}[P_t] = \frac{v v^\top}{\|v\|^2}
              + \frac{s-1}{d-1}\Big(I - \frac{v v^\top}{\|v\|^2}\Big),

    not the :math:`\frac{s}{d} I` of Lemma 16's Gaussian features.

    %(references)s

    Examples
    --------
    >>> projection_mean_definition1(np.array([1.0, 0.0]), np.array([1.0, 0.0]), 1, 2)
    1.0
    >>> projection_mean_definition1(np.array([0.0, 1.0]), np.array([1.0, 0.0]), 1, 2)
    0.0
    """
    overparam_ratio(s, d)
    u = np.asarray(u, dtype=float)
    v = np.asarray(v, dtype=float)
    if u.shape != (d,) or v.shape != (d,):
        raise ValueError(f"u and v must have shape ({d},), got {u.shape} and {v.shape}")
    vv = float(v @ v)
    if not vv > 0:
        raise ValueError("v (feature signal) must be non-zero")
    return (s - 1) / (d - 1) * float(u @ u) + (d - s) / (d - 1) * float(v @ u) ** 2 / vv


@fill_doc(_docs.REFERENCES)
def routing_probabilities_exact(h: Sequence[sp.Rational | int], lam: sp.Rational) -> list:
    r"""Exact routing probabilities :math:`p_m = P(\arg\max_{m'} (h_{m'} + r_{m'}) = m)`.

    Parameters
    ----------
    h : sequence of Rational or int
        Gate outputs :math:`h_1, \dots, h_M` (exact numbers).
    lam : Rational
        Noise range :math:`\lambda > 0`: :math:`r_m \sim U[0, \lambda]` i.i.d.

    Returns
    -------
    list of sympy.Rational
        :math:`p_1, \dots, p_M` (they sum to 1).

    Raises
    ------
    ValueError
        If ``h`` is empty or ``lam`` is not positive.

    See Also
    --------
    coverage_probability_exact : another exact probability of the routing analysis.

    Notes
    -----
    Eq. (1) and Appendix B (Lemma 2) of [1]_. With :math:`F` the :math:`U[0, \lambda]` CDF,

    .. math:: p_m = \frac{1}{\lambda}\int_0^{\lambda} \prod_{m' \ne m}
              F(x + h_m - h_{m'})\, dx;

    the integrand is a polynomial between the breakpoints where an argument crosses 0 or
    :math:`\lambda`, and is integrated exactly piece by piece.

    %(references)s

    Examples
    --------
    >>> routing_probabilities_exact([0, sp.Rational(1, 10)], sp.Rational(1, 2))
    [8/25, 17/25]
    """
    hs = [to_exact(x) for x in h]
    lam = to_exact(lam)
    if len(hs) < 1:
        raise ValueError("h (gate outputs) must have at least one entry")
    if not lam > 0:
        raise ValueError(f"lam (noise range) must be > 0, got {lam}")
    x = sp.Symbol("x", real=True)
    probs = []
    for m, hm in enumerate(hs):
        shifts = [hm - hk for k, hk in enumerate(hs) if k != m]
        cuts = {sp.Integer(0), lam}
        for c in shifts:
            cuts.update(p for p in (-c, lam - c) if 0 < p < lam)
        grid = sorted(cuts)
        total = sp.Integer(0)
        for a, b in itertools.pairwise(grid):
            mid = (a + b) / 2
            poly = sp.Integer(1)
            for c in shifts:
                val = mid + c
                poly *= 0 if val <= 0 else (1 if val >= lam else (x + c) / lam)
            antiderivative = sp.Poly(poly, x).integrate()
            total += antiderivative.eval(b) - antiderivative.eval(a)
        probs.append(to_exact(total / lam))
    return probs


@fill_doc(_docs.COVERAGE)
def coverage_probability_exact(n_sets: int, n_experts: int) -> Fraction:
    r"""Exact probability that every one of :math:`N` sets receives an expert.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    fractions.Fraction
        :math:`P(|\mathcal{M}_n| \ge 1 \text{ for all } n)` when each of the :math:`M`
        experts falls in one of the :math:`N` sets uniformly and independently.

    %(raises)s

    See Also
    --------
    coverage_product_step : the product step of Lemma 11's proof.
    coverage_union_bound : Lemma 11's bound.

    Notes
    -----
    By inclusion-exclusion over the sets left empty,

    .. math:: P = \sum_{j=0}^{N} (-1)^j \binom{N}{j}\Big(1 - \frac{j}{N}\Big)^M,

    the model of Lemma 11 of [1]_.

    %(references)s

    Examples
    --------
    >>> coverage_probability_exact(2, 2)
    Fraction(1, 2)
    """
    _check_coverage_args(n_sets, n_experts)
    from math import comb

    return sum(
        (
            Fraction((-1) ** j * comb(n_sets, j)) * Fraction(n_sets - j, n_sets) ** n_experts
            for j in range(n_sets + 1)
        ),
        Fraction(0),
    )


@fill_doc(_docs.COVERAGE)
def coverage_product_step(n_sets: int, n_experts: int) -> Fraction:
    r"""The product step of Lemma 11's proof, :math:`(1 - (1 - 1/N)^M)^N`, exactly.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    fractions.Fraction
        :math:`\big(1 - (1 - 1/N)^M\big)^N`.

    %(raises)s

    See Also
    --------
    coverage_probability_exact : the exact probability it stands for.
    coverage_union_bound : the lemma's final bound.

    Notes
    -----
    Lemma 11's proof in [1]_ bounds the coverage probability below by this product,
    treating the events :math:`|\mathcal{M}_n| \ge 1` (each of probability
    :math:`1 - (1 - 1/N)^M`) as independent. They are not: for :math:`N = M = 2` the exact
    probability is :math:`1/2 < 9/16` (:func:`coverage_probability_exact`).

    %(references)s

    Examples
    --------
    >>> coverage_product_step(2, 2)
    Fraction(9, 16)
    """
    _check_coverage_args(n_sets, n_experts)
    return (1 - Fraction(n_sets - 1, n_sets) ** n_experts) ** n_sets


@fill_doc(_docs.COVERAGE)
def coverage_union_bound(n_sets: int, n_experts: int, dps: int = 50) -> mpmath.mpf:
    r"""Lemma 11's bound :math:`1 - N e^{-M/N}` at ``dps`` decimal digits.

    Parameters
    ----------
    %(parameters)s
    dps : int, optional
        Working precision in decimal digits; default 50.

    Returns
    -------
    mpmath.mpf
        :math:`1 - N \exp(-M/N)` (negative, hence vacuous, for small :math:`M/N`).

    %(raises)s

    See Also
    --------
    coverage_probability_exact : the exact probability it bounds.
    coverage_product_step : the proof's intermediate step.

    Notes
    -----
    The lower bound of Lemma 11 of [1]_ on the probability that every set receives an
    expert, from :math:`(1 - 1/N)^M \le e^{-M/N}` and the union bound.

    %(references)s

    Examples
    --------
    >>> float(coverage_union_bound(1, 1))
    0.6321205588285577
    """
    _check_coverage_args(n_sets, n_experts)
    with mpmath.workdps(dps):
        return 1 - n_sets * mpmath.exp(-mpmath.mpf(n_experts) / n_sets)


def _check_coverage_args(n_sets: int, n_experts: int) -> None:
    if not (isinstance(n_sets, int | np.integer) and n_sets >= 1):
        raise ValueError(f"n_sets (N) must be an integer >= 1, got {n_sets!r}")
    if not (isinstance(n_experts, int | np.integer) and n_experts >= 1):
        raise ValueError(f"n_experts (M) must be an integer >= 1, got {n_experts!r}")


