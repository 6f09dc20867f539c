"""Proposition 4 (eqs. (17)-(18)) as written, under each reading of its garbled parts:
symbolic, summed in closed form, at a concrete round, and evaluated numerically."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy as sp

from moetheory._doccer import fill_doc
from moetheory.continual.theory import _docs
from moetheory.continual.theory._notation import (
    FORGETTING_READINGS,
    PAIR_READINGS,
    D,
    N,
    S,
    T,
    _check_reading,
    _check_t,
    _gap,
    _l,
    _moments,
    _tau,
    r,
    t,
)
from moetheory.continual.theory._sums import _geometric
from moetheory.engine.shared import shared
from moetheory.symbolic.exact import to_exact

__all__ = [
    "prop4_forgetting",
    "prop4_forgetting_expr",
    "prop4_forgetting_summand",
    "prop4_forgetting_value",
    "prop4_generalization",
    "prop4_generalization_expr",
]


@shared()
@fill_doc(_docs.REFERENCES)
def prop4_generalization_expr(reading: str = "ordered") -> sp.Expr:
    r"""Eq. (18) of Proposition 4 as written, under a pair-sum reading.

    Parameters
    ----------
    reading : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum (:data:`PAIR_READINGS`); default ``"ordered"``.

    Returns
    -------
    sympy.Expr
        :math:`\frac{r^T}{N} S + \frac{1 - r^T}{N^2} c D`, :math:`c` the reading's multiple.

    Raises
    ------
    ValueError
        If ``reading`` is unknown.

    See Also
    --------
    exact_generalization_expr : the exact mean, derived independently.
    prop4_generalization : eq. (18) evaluated for concrete ground truths.

    Notes
    -----
    Eq. (18) of [1]_:

    .. math:: \mathbb{E}[G_T] = \frac{r^T}{N}\sum_{n=1}^N \|w_n\|^2
              + \frac{1 - r^T}{N^2}\sum_{n \ne n'} \|w_{n'} - w_n\|^2 .

    %(references)s

    Examples
    --------
    >>> e = prop4_generalization_expr("unordered")
    >>> sp.simplify(e - (r**T * S / N + (1 - r**T) * D / (2 * N**2)))
    0
    """
    _check_reading(reading, PAIR_READINGS)
    return r**T * S / N + (1 - r**T) * PAIR_READINGS[reading] * D / N**2


@fill_doc(_docs.FORGETTING_EXPRESSIONS)
def prop4_forgetting_summand(reading: str = "main-as-printed/ordered") -> sp.Expr:
    r"""Summand over :math:`\tau` of eq. (17) (or of Appendix H's form) under a reading.

    %(parameters)s

    Returns
    -------
    sympy.Expr
        The summand in :data:`r`, :data:`S`, :data:`D`, :data:`N`, :data:`t` and
        :math:`\tau`; the inner sums of the Appendix H forms are unevaluated
        :class:`sympy.Sum`.

    %(raises)s

    See Also
    --------
    prop4_forgetting_expr : the closed form of the whole sum.
    prop4_forgetting_value : the sum at one concrete round.

    Notes
    -----
    Eq. (17) of [1]_ is :math:`\mathbb{E}[F_t] = \frac{1}{t-1}\sum_{\tau=1}^{t-1}` of this
    summand. As printed (``main-as-printed``) it is

    .. math:: \frac{r^{t-\tau}}{N} S + \big(r^{\tau} - r^{t}\big)\frac{c D}{N^2},

    and the other forms read the garbled first exponent as :math:`r^t - r^\tau` or
    :math:`r^\tau - r^t`, or take Appendix H's expression with or without its stray factor
    :math:`i`.

    %(references)s

    Examples
    --------
    >>> prop4_forgetting_summand("main-as-printed/diagonal")
    S*r**(t - tau)/N
    """
    _check_reading(reading, FORGETTING_READINGS)
    form, pairs = reading.split("/")
    gap = _gap(pairs)
    if form == "main-as-printed":
        return r ** (t - _tau) * S / N + (r**_tau - r**t) * gap
    if form == "main-rt-minus-rtau":
        return (r**t - r**_tau) * S / N + (r**_tau - r**t) * gap
    if form == "main-rtau-minus-rt":
        return (r**_tau - r**t) * S / N + (r**_tau - r**t) * gap
    later = sp.Sum((1 - r) * r ** (t - _l), (_l, 1, t))
    earlier = sp.Sum((1 - r) * r ** (_tau - _l), (_l, 1, _tau))
    factor = _tau if form == "appendix-H-factor-i" else 1
    return (r**t - r**_tau) * S / N + (later - factor * earlier) * gap


@shared()
@fill_doc(_docs.FORGETTING_EXPRESSIONS)
def prop4_forgetting_expr(reading: str = "main-as-printed/ordered") -> sp.Expr:
    r"""Closed form of eq. (17) (or of Appendix H's form) under a reading.

    %(parameters)s

    Returns
    -------
    sympy.Expr
        :math:`\frac{1}{t-1}\sum_{\tau=1}^{t-1}` of :func:`prop4_forgetting_summand`, summed
        by SymPy (generic branch :math:`r \ne 1`) and simplified.

    %(raises)s

    See Also
    --------
    exact_forgetting_expr : the exact mean it is compared with.
    prop4_forgetting : the same sum evaluated numerically, independently of SymPy.

    Notes
    -----
    Results are cached per reading (the summation takes about a second).

    %(references)s

    Examples
    --------
    >>> e = prop4_forgetting_expr("main-rt-minus-rtau/ordered")
    >>> sp.simplify(e.subs(t, 2) - ((r**2 - r) * S / N + (r - r**2) * D / N**2))
    0
    """
    term = prop4_forgetting_summand(reading).doit()
    term = term.replace(lambda e: isinstance(e, sp.Piecewise), lambda e: e.args[-1][0])
    return sp.simplify(_geometric(sp.expand(term), _tau, 1, t - 1) / (t - 1))


@fill_doc(_docs.REFERENCES)
def prop4_forgetting_value(reading: str, subs: dict, t_value: int) -> sp.Expr:
    r"""Eq. (17) (or Appendix H's form) at a concrete round, by finite summation.

    Parameters
    ----------
    reading : str
        ``"<form>/<pairs>"`` from :data:`FORGETTING_READINGS`.
    subs : dict
        Values of :data:`r`, :data:`N`, :data:`S`, :data:`D`; with rationals the result is
        exact.
    t_value : int
        The round :math:`t \ge 2`.

    Returns
    -------
    sympy.Expr
        :math:`\frac{1}{t-1}\sum_{\tau=1}^{t-1}` of the summand at :math:`t` = ``t_value``.

    Raises
    ------
    ValueError
        If ``t_value`` is not an integer of at least 2 or ``reading`` is unknown.

    See Also
    --------
    prop4_forgetting_expr : the closed form in :math:`t`.

    Notes
    -----
    The sum has :math:`t - 1` terms, each evaluated exactly with
    :func:`moetheory.symbolic.exact.to_exact`; no closed-form summation is involved, so the value
    checks :func:`prop4_forgetting_expr` independently.

    %(references)s

    Examples
    --------
    >>> v = {r: sp.Rational(1, 2), N: 2, S: 2, D: 4}
    >>> prop4_forgetting_value("main-rt-minus-rtau/ordered", v, 2)
    0
    """
    if not (isinstance(t_value, int | np.integer) and t_value >= 2):
        raise ValueError(f"t_value must be an integer >= 2, got {t_value!r}")
    term = prop4_forgetting_summand(reading).subs(subs).subs(t, int(t_value))
    total = sum(term.subs(_tau, k).doit() for k in range(1, int(t_value)))
    return to_exact(total / (int(t_value) - 1))



@fill_doc(_docs.SINGLE_EXPERT)
def prop4_generalization(
    W: np.ndarray, s: int, d: int, T_values: Sequence[int], reading: str = "ordered"
) -> np.ndarray:
    r"""Eq. (18) as written, evaluated for concrete ground truths.

    Parameters
    ----------
    %(w_s_d)s (they give :math:`r = 1 - s/d`).
    T_values : sequence of int
        Rounds :math:`T \ge 1`.
    reading : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum; default ``"ordered"``.

    Returns
    -------
    ndarray, shape (len(T_values),)
        :math:`\frac{r^T}{N} S + \frac{1 - r^T}{N^2} c D` at each :math:`T`.

    %(raises_reading)s

    See Also
    --------
    prop4_generalization_expr : the same formula in SymPy.
    exact_generalization : the exact mean.

    Notes
    -----
    Eq. (18) of Proposition 4 in [1]_, with :math:`S = \sum_n \|w_n\|^2` and :math:`D` the
    pair sum (:func:`pair_gap_sum`).

    %(references)s

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> prop4_generalization(W, 1, 2, [1]).round(3).tolist()
    [1.0]
    """
    _check_reading(reading, PAIR_READINGS)
    rv, n, s_sum, d_sum = _moments(W, s, d)
    Ts = _check_t(T_values, "T_values", 1)
    c = float(PAIR_READINGS[reading])
    return rv**Ts * s_sum / n + (1 - rv**Ts) * c * d_sum / n**2


@fill_doc(_docs.SINGLE_EXPERT)
def prop4_forgetting(
    W: np.ndarray, s: int, d: int, t_values: Sequence[int], reading: str = FORGETTING_READINGS[0]
) -> np.ndarray:
    r"""Eq. (17) (or Appendix H's form) as written, for concrete ground truths.

    %(parameters)s
    t_values : sequence of int
        Rounds :math:`t \ge 2`.
    reading : str, optional
        ``"<form>/<pairs>"`` from :data:`FORGETTING_READINGS`; default the first,
        ``"main-as-printed/ordered"``.

    Returns
    -------
    ndarray, shape (len(t_values),)
        The formula at each round.

    %(raises_reading)s

    See Also
    --------
    prop4_forgetting_expr : the SymPy closed form.
    exact_forgetting : the exact mean.

    Notes
    -----
    Direct numerical summation over :math:`\tau = 1, \dots, t - 1` of the summand of
    :func:`prop4_forgetting_summand`, independent of the SymPy closed form.

    %(references)s

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> prop4_forgetting(W, 1, 2, [2], "main-rt-minus-rtau/ordered").round(4).tolist()
    [0.0]
    """
    _check_reading(reading, FORGETTING_READINGS)
    rv, n, s_sum, d_sum = _moments(W, s, d)
    form, pairs = reading.split("/")
    gap = float(PAIR_READINGS[pairs]) * d_sum / n**2
    out = []
    for tv in _check_t(t_values, "t_values", 2):
        tau = np.arange(1, tv)
        if form == "main-as-printed":
            term = rv ** (tv - tau) * s_sum / n + (rv**tau - rv**tv) * gap
        elif form == "main-rt-minus-rtau":
            term = (rv**tv - rv**tau) * (s_sum / n - gap)
        elif form == "main-rtau-minus-rt":
            term = (rv**tau - rv**tv) * (s_sum / n + gap)
        else:
            later = np.sum((1 - rv) * rv ** (tv - np.arange(1, tv + 1)))
            earlier = np.array([np.sum((1 - rv) * rv ** (k - np.arange(1, k + 1))) for k in tau])
            factor = tau if form == "appendix-H-factor-i" else 1
            term = (rv**tv - rv**tau) * s_sum / n + (later - factor * earlier) * gap
        out.append(float(np.mean(term)))
    return np.array(out)


