"""Closed forms of the continual-learning MoE paper (seed 003), as written and corrected.

Every formula of Proposition 4 (eqs. (17)-(18)), Theorem 1 (eqs. (19)-(20)) and Theorem 2
(eqs. (21)-(22)) as written -- one function per plausible reading of the garbled parts --
plus the exact expectations derived independently from the single-expert recursion of
eq. (5), the projection mean of Lemma 16, the routing probabilities of Lemma 2 (Appendix B)
and the coverage probabilities of Lemma 11.

Notation: ``r = 1 - s/d`` (over-parameterisation ratio), ``S = sum_n ||w_n||^2`` and
``D = sum_{n, n'} ||w_n' - w_n||^2`` over *ordered* pairs (the diagonal contributes 0).
The seed writes the pair sum as "sum_{n=n'}"; :data:`PAIR_READINGS` lists its readings.

Examples
--------
>>> import sympy as sp
>>> sp.simplify(exact_generalization_expr().subs(T, 1) - r * S / N)
0
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from moetheory.engine.shared import shared
from moetheory.symbolic.exact import to_exact

__all__ = [
    "FORGETTING_READINGS",
    "GENERALIZATION_READINGS",
    "PAIR_READINGS",
    "T1",
    "D",
    "L",
    "N",
    "Psi1",
    "Psi2",
    "S",
    "T",
    "appendix_h_literal_summand",
    "coverage_probability_exact",
    "coverage_product_step",
    "coverage_union_bound",
    "exact_forgetting",
    "exact_forgetting_expr",
    "exact_generalization",
    "exact_generalization_expr",
    "expected_error_expr",
    "expert_counts",
    "overparam_ratio",
    "pair_gap_sum",
    "projection_mean_definition1",
    "prop4_forgetting",
    "prop4_forgetting_expr",
    "prop4_forgetting_summand",
    "prop4_forgetting_value",
    "prop4_generalization",
    "prop4_generalization_expr",
    "psi1",
    "psi2",
    "r",
    "routing_probabilities_exact",
    "single_expert_exact_moments",
    "t",
    "thm1_forgetting_bound",
    "thm1_forgetting_bound_expr",
    "thm1_generalization_bound",
    "thm1_generalization_bound_expr",
    "thm2_forgetting_bound",
    "thm2_forgetting_bound_expr",
    "thm2_generalization_bound",
    "thm2_generalization_bound_expr",
]

#: Over-parameterisation ratio :math:`r = 1 - s/d` (:func:`overparam_ratio`).
r = sp.Symbol("r", positive=True)
#: The last round :math:`T` (of :math:`G_T`).
T = sp.Symbol("T", integer=True, positive=True)
#: A round :math:`t` (of :math:`F_t`).
t = sp.Symbol("t", integer=True, positive=True)
#: Number of ground truths (tasks) :math:`N`.
N = sp.Symbol("N", integer=True, positive=True)
#: :math:`S = \sum_n \|w_n\|^2`.
S = sp.Symbol("S", nonnegative=True)
#: :math:`D = \sum_{n, n'} \|w_{n'} - w_n\|^2` over ordered pairs (:func:`pair_gap_sum`).
D = sp.Symbol("D", nonnegative=True)
_i = sp.Symbol("i", integer=True, positive=True)
_l = sp.Symbol("l", integer=True, positive=True)
_tau = sp.Symbol("tau", integer=True, positive=True)

#: Readings of the seed's "sum_{n=n'} ||w_n' - w_n||^2", as multiples of ``D`` (ordered pairs).
PAIR_READINGS: dict[str, sp.Expr] = {
    "ordered": sp.Integer(1),
    "unordered": sp.Rational(1, 2),
    "diagonal": sp.Integer(0),
}

#: Readings of eq. (18): the pair-sum reading only.
GENERALIZATION_READINGS: tuple[str, ...] = tuple(PAIR_READINGS)

#: Readings of eq. (17) (main text, first exponent as printed ``r^{t-tau}``, as ``r^t - r^tau``
#: or as ``r^tau - r^t``) and of the
#: Appendix H form (with the paper's substitution E||w_{n_l} - w_{n_i}||^2 = D/N^2 for every
#: ``l``, with or without the stray factor ``i``), each combined with a pair-sum reading.
FORGETTING_READINGS: tuple[str, ...] = tuple(
    f"{form}/{pairs}"
    for form in (
        "main-as-printed",
        "main-rt-minus-rtau",
        "main-rtau-minus-rt",
        "appendix-H",
        "appendix-H-factor-i",
    )
    for pairs in PAIR_READINGS
)


def overparam_ratio(s: int, d: int) -> float:
    r"""Over-parameterisation ratio :math:`r = 1 - s/d` of Section 5.

    Parameters
    ----------
    s : int
        Samples per task, ``1 <= s < d``.
    d : int
        Dimension of the features and models, ``d >= 2``.

    Returns
    -------
    float
        :math:`r \in (0, 1)`.

    Raises
    ------
    ValueError
        If ``d`` is not an integer >= 2 or ``s`` is not an integer in ``[1, d)``.

    See Also
    --------
    expected_error_expr : where :math:`r` enters, as the contraction of one round.

    Notes
    -----
    In the over-parameterised regime :math:`s < d` of [1]_ the update (5) projects onto an
    :math:`s`-dimensional subspace; for Gaussian features :math:`\mathbb{E}[I - P_t] = r I`,
    so :math:`r` is the expected fraction of a model error that survives one round.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> overparam_ratio(6, 10)
    0.4
    >>> overparam_ratio(10, 10)
    Traceback (most recent call last):
    ...
    ValueError: s must satisfy 1 <= s < d (over-parameterised), got s=10, d=10
    """
    if not (isinstance(d, int | np.integer) and d >= 2):
        raise ValueError(f"d must be an integer >= 2, got {d!r}")
    if not (isinstance(s, int | np.integer) and 1 <= s < d):
        raise ValueError(f"s must satisfy 1 <= s < d (over-parameterised), got s={s}, d={d}")
    return 1.0 - s / d


def _ground_truths(W: np.ndarray) -> np.ndarray:
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[0] < 1 or W.shape[1] < 1:
        raise ValueError(f"W (ground truths) must have shape (N, d) with N, d >= 1, got {W.shape}")
    if not np.all(np.isfinite(W)):
        raise ValueError("W (ground truths) must be finite")
    return W


def pair_gap_sum(W: np.ndarray, reading: str = "ordered") -> float:
    r"""The seed's pair sum ":math:`\sum_{n=n'} \|w_{n'} - w_n\|^2`" of eqs. (17)-(22).

    Parameters
    ----------
    W : ndarray, shape (N, d)
        Ground truths :math:`w_1, \dots, w_N`.
    reading : {"ordered", "unordered", "diagonal"}, optional
        Reading of the garbled sum (:data:`PAIR_READINGS`); default ``"ordered"``.

    Returns
    -------
    float
        :math:`c \cdot D` with :math:`D = \sum_{n, n'} \|w_{n'} - w_n\|^2` over ordered pairs
        and :math:`c = 1, \frac12, 0` for the three readings.

    Raises
    ------
    ValueError
        If ``reading`` is unknown or ``W`` is not a finite (N, d) array.

    See Also
    --------
    PAIR_READINGS : the readings as multiples of :math:`D`.

    Notes
    -----
    The translation prints the subscript as ":math:`n = n'`", which taken literally is the
    diagonal and sums to 0. The derivation in Appendix H of [1]_ needs
    :math:`\mathbb{E}\|w_{n_l} - w_{n_i}\|^2 = D/N^2` for independent uniform tasks, i.e. the
    sum over all ordered pairs.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> pair_gap_sum(W, "ordered"), pair_gap_sum(W, "unordered"), pair_gap_sum(W, "diagonal")
    (4.0, 2.0, 0.0)
    """
    if reading not in PAIR_READINGS:
        raise ValueError(f"reading must be one of {tuple(PAIR_READINGS)}, got {reading!r}")
    W = _ground_truths(W)
    diff = W[:, None, :] - W[None, :, :]
    return float(PAIR_READINGS[reading]) * float(np.sum(diff**2))


def _geometric(expr: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """``sum_{var=lo}^{hi} expr`` for ``r != 1`` (the generic branch of SymPy's Piecewise).

    Each term ``c q^var`` of the expanded ``expr`` (``c`` and ``q`` free of ``var``) sums to
    ``c (q^lo - q^(hi+1)) / (1 - q)`` for ``q != 1`` and ``c (hi - lo + 1)`` for ``q = 1``;
    a term of any other form is summed by SymPy."""
    total = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(sp.expand_power_exp(sp.expand(expr)))):
        coeff, ratio = term.as_independent(var, as_Add=False)
        q = _ratio(ratio, var)
        if q is None:
            total += sp.summation(term, (var, lo, hi))
        elif q == 1:
            total += coeff * (hi - lo + 1)
        else:
            total += coeff * (q**lo - q ** (hi + 1)) / (1 - q)
    total = total.replace(lambda e: isinstance(e, sp.Piecewise), lambda e: e.args[-1][0])
    return sp.simplify(total)


def _ratio(factor: sp.Expr, var: sp.Symbol) -> sp.Expr | None:
    """``q`` with ``factor = q^var`` (``q`` free of ``var``), or ``None``."""
    q = sp.Integer(1)
    for f in sp.Mul.make_args(factor):
        if f == 1:
            continue
        base, power = f.as_base_exp()
        k = sp.cancel(power / var)
        if var in base.free_symbols or var in k.free_symbols:
            return None
        q *= base**k
    return q


def _collect_sd(expr: sp.Expr) -> sp.Expr:
    """Write an expression linear in ``S`` and ``D`` as ``a S + b D`` with factored ``a, b``."""
    expanded = sp.expand(expr)
    tidy = sp.factor(expanded.coeff(S)) * S + sp.factor(expanded.coeff(D)) * D
    if sp.simplify(tidy - expr) != 0:
        raise ValueError("expression is not linear in S and D")
    return tidy


@functools.cache
def expected_error_expr(time: sp.Expr, task_round: sp.Expr) -> sp.Expr:
    r"""Exact :math:`\mathbb{E}\|w_t - w_{n_i}\|^2` of a single expert at round ``time``.

    Parameters
    ----------
    time : sympy.Expr
        The round :math:`t` (a positive integer symbol or number), ``time >= task_round``.
    task_round : sympy.Expr
        The round :math:`i` whose task :math:`n_i` is the target.

    Returns
    -------
    sympy.Expr
        A closed form in :data:`r`, :data:`S`, :data:`D`, :data:`N` and the two rounds.

    Raises
    ------
    TypeError
        If a round is neither a SymPy expression nor a number (from SymPy's arithmetic).

    See Also
    --------
    exact_generalization_expr, exact_forgetting_expr : the means over :math:`i`.
    single_expert_exact_moments : an independent check by enumeration.

    Notes
    -----
    Derived from eq. (5) of [1]_ (:math:`M = 1`, Gaussian :math:`X_t`, tasks i.i.d. uniform
    over the :math:`N` ground truths). For a fixed target :math:`a`,
    :math:`w_t - a = (I - P_t)(w_{t-1} - a) + P_t(w_{n_t} - a)` with orthogonal parts and
    :math:`\mathbb{E}[P_t] = (1 - r) I`, so

    .. math:: \mathbb{E}\|w_t - a\|^2 = r\, \mathbb{E}\|w_{t-1} - a\|^2
              + (1 - r)\, \mathbb{E}\|w_{n_t} - a\|^2 .

    Unrolled from :math:`w_0 = 0` with :math:`a = w_{n_i}`: the start contributes
    :math:`r^t S/N`, round :math:`l = i` contributes 0 and every other round
    :math:`l \le t` contributes :math:`(1 - r) r^{t-l} D/N^2`, hence

    .. math:: \mathbb{E}\|w_t - w_{n_i}\|^2 = \frac{r^t S}{N}
              + \Big(1 - r^t - (1 - r) r^{t-i}\Big)\frac{D}{N^2}.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> sp.simplify(expected_error_expr(t, t) - (r**t * S / N + (r - r**t) * D / N**2))
    0
    """
    per_round = (1 - r) * r ** (time - _l)
    all_rounds = _geometric(per_round, _l, 1, time)
    own_round = per_round.subs(_l, task_round)
    return sp.simplify(r**time * S / N + (all_rounds - own_round) * D / N**2)


@shared()
def exact_generalization_expr() -> sp.Expr:
    r"""Exact :math:`\mathbb{E}[G_T]` of the single expert, eq. (16), in closed form.

    Returns
    -------
    sympy.Expr
        :math:`a\,S + b\,D` with factored coefficients in :data:`r`, :data:`N`, :data:`T`.

    Raises
    ------
    ValueError
        Not expected: raised only if the SymPy sum were not linear in :math:`S` and
        :math:`D` (an internal consistency check).

    See Also
    --------
    prop4_generalization_expr : eq. (18) as written, to compare with.
    exact_generalization : the same mean, evaluated numerically.

    Notes
    -----
    The mean over :math:`i \le T` of :func:`expected_error_expr`:

    .. math:: \mathbb{E}[G_T] = \frac1T \sum_{i=1}^{T} \mathbb{E}\|w_T - w_{n_i}\|^2
              = \frac{r^T S}{N} + \frac{T-1}{T}(1 - r^T)\frac{D}{N^2}.

    Eq. (18) of Proposition 4 in [1]_ has :math:`(1 - r^T) D/N^2` without the factor
    :math:`(T - 1)/T`.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> sp.factor(exact_generalization_expr() - r**T * S / N)
    -D*(T - 1)*(r**T - 1)/(N**2*T)
    """
    return _collect_sd(_geometric(expected_error_expr(T, _i), _i, 1, T) / T)


@shared()
def exact_forgetting_expr() -> sp.Expr:
    r"""Exact :math:`\mathbb{E}[F_t]` of the single expert, eq. (15), in closed form.

    Returns
    -------
    sympy.Expr
        :math:`a\,S + b\,D` with factored coefficients in :data:`r`, :data:`N`, :data:`t`
        (valid for :math:`t \ge 2`).

    Raises
    ------
    ValueError
        Not expected: raised only if the SymPy sum were not linear in :math:`S` and
        :math:`D` (an internal consistency check).

    See Also
    --------
    prop4_forgetting_expr : eq. (17) as written, under each reading.
    exact_forgetting : the same mean, evaluated numerically.

    Notes
    -----
    From :func:`expected_error_expr`,

    .. math:: \mathbb{E}[F_t] = \frac{1}{t-1}\sum_{i=1}^{t-1}\Big(
              \mathbb{E}\|w_t - w_{n_i}\|^2 - \mathbb{E}\|w_i - w_{n_i}\|^2\Big),

    summed in closed form (geometric sums, :math:`r \ne 1`).

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> float(exact_forgetting_expr().subs({t: 2, r: sp.Rational(1, 2), S: 0, D: 1, N: 1}))
    0.5
    """
    gap = expected_error_expr(t, _i) - expected_error_expr(_i, _i)
    return _collect_sd(_geometric(sp.expand(gap), _i, 1, t - 1) / (t - 1))


def appendix_h_literal_summand(kind: str, factor_i: bool = False) -> sp.Expr:
    r"""Summand over :math:`i` of Appendix H's middle expression, read literally.

    Parameters
    ----------
    kind : {"G", "F"}
        ``"G"`` for :math:`\mathbb{E}[G_T]`, ``"F"`` for :math:`\mathbb{E}[F_t]`.
    factor_i : bool, optional
        Keep the stray factor :math:`i` printed before the last sum of the forgetting form;
        default False.

    Returns
    -------
    sympy.Expr
        The summand, in :data:`r`, :data:`S`, :data:`D`, :data:`N`, the round (:data:`T`
        or :data:`t`) and the summation index :math:`i`.

    Raises
    ------
    ValueError
        If ``kind`` is not ``"F"`` or ``"G"``.

    See Also
    --------
    expected_error_expr : the exact expectation the summand should equal.
    prop4_forgetting_summand : the appendix's form after its final substitution.

    Notes
    -----
    Appendix H of [1]_ writes each expectation :math:`\mathbb{E}\|w_{n_l} - w_{n_i}\|^2`
    inside a sum over :math:`l`. Evaluated exactly it is 0 for :math:`l = i` and
    :math:`D/N^2` otherwise, which gives (for ``"G"``)

    .. math:: \frac{r^T S}{N} + \Big(1 - r^T - (1 - r) r^{T-i}\Big)\frac{D}{N^2};

    the appendix's final step instead puts :math:`D/N^2` for every :math:`l`.
    :math:`\mathbb{E}[G_T]` is :math:`\frac1T\sum_{i\le T}` and :math:`\mathbb{E}[F_t]` is
    :math:`\frac{1}{t-1}\sum_{i<t}` of the summand.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> sp.simplify(appendix_h_literal_summand("G") - expected_error_expr(T, _i))
    0
    """
    if kind not in ("F", "G"):
        raise ValueError(f"kind must be 'F' or 'G', got {kind!r}")
    gap = D / N**2
    # sum_{l=1}^{n} (1 - r) r^(n - l) = 1 - r^n (geometric), minus the own round l = i
    if kind == "G":
        inner = (1 - r**T) - (1 - r) * r ** (T - _i)
        return r**T * S / N + inner * gap
    later = (1 - r**t) - (1 - r) * r ** (t - _i)
    earlier = (1 - r**_i) - (1 - r)
    return (r**t - r**_i) * S / N + (later - (_i if factor_i else 1) * earlier) * gap


@shared()
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

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> e = prop4_generalization_expr("unordered")
    >>> sp.simplify(e - (r**T * S / N + (1 - r**T) * D / (2 * N**2)))
    0
    """
    if reading not in PAIR_READINGS:
        raise ValueError(f"reading must be one of {tuple(PAIR_READINGS)}, got {reading!r}")
    return r**T * S / N + (1 - r**T) * PAIR_READINGS[reading] * D / N**2


def prop4_forgetting_summand(reading: str = "main-as-printed/ordered") -> sp.Expr:
    r"""Summand over :math:`\tau` of eq. (17) (or of Appendix H's form) under a reading.

    Parameters
    ----------
    reading : str, optional
        ``"<form>/<pairs>"`` from :data:`FORGETTING_READINGS`; default
        ``"main-as-printed/ordered"``.

    Returns
    -------
    sympy.Expr
        The summand in :data:`r`, :data:`S`, :data:`D`, :data:`N`, :data:`t` and
        :math:`\tau`; the inner sums of the Appendix H forms are unevaluated
        :class:`sympy.Sum`.

    Raises
    ------
    ValueError
        If ``reading`` is not one of :data:`FORGETTING_READINGS`.

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

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> prop4_forgetting_summand("main-as-printed/diagonal")
    S*r**(t - tau)/N
    """
    if reading not in FORGETTING_READINGS:
        raise ValueError(f"reading must be one of {FORGETTING_READINGS}, got {reading!r}")
    form, pairs = reading.split("/")
    gap = PAIR_READINGS[pairs] * D / N**2
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
def prop4_forgetting_expr(reading: str = "main-as-printed/ordered") -> sp.Expr:
    r"""Closed form of eq. (17) (or of Appendix H's form) under a reading.

    Parameters
    ----------
    reading : str, optional
        ``"<form>/<pairs>"`` from :data:`FORGETTING_READINGS`; default
        ``"main-as-printed/ordered"``.

    Returns
    -------
    sympy.Expr
        :math:`\frac{1}{t-1}\sum_{\tau=1}^{t-1}` of :func:`prop4_forgetting_summand`, summed
        by SymPy (generic branch :math:`r \ne 1`) and simplified.

    Raises
    ------
    ValueError
        If ``reading`` is not one of :data:`FORGETTING_READINGS`.

    See Also
    --------
    exact_forgetting_expr : the exact mean it is compared with.
    prop4_forgetting : the same sum evaluated numerically, independently of SymPy.

    Notes
    -----
    Results are cached per reading (the summation takes about a second).

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> e = prop4_forgetting_expr("main-rt-minus-rtau/ordered")
    >>> sp.simplify(e.subs(t, 2) - ((r**2 - r) * S / N + (r - r**2) * D / N**2))
    0
    """
    term = prop4_forgetting_summand(reading).doit()
    term = term.replace(lambda e: isinstance(e, sp.Piecewise), lambda e: e.args[-1][0])
    return sp.simplify(_geometric(sp.expand(term), _tau, 1, t - 1) / (t - 1))


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
        If ``t_value`` is not an integer >= 2 or ``reading`` is unknown.

    See Also
    --------
    prop4_forgetting_expr : the closed form in :math:`t`.

    Notes
    -----
    The sum has :math:`t - 1` terms, each evaluated exactly with
    :func:`moetheory.symbolic.exact.to_exact`; no closed-form summation is involved, so the value
    checks :func:`prop4_forgetting_expr` independently.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

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


def _check_t(values: Sequence[int] | np.ndarray, name: str, low: int) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(values))
    if arr.size == 0 or not np.issubdtype(arr.dtype, np.integer) or np.any(arr < low):
        raise ValueError(f"{name} must be integers >= {low}, got {values!r}")
    return arr.astype(int)


def _moments(W: np.ndarray, s: int, d: int) -> tuple[float, int, float, float]:
    W = _ground_truths(W)
    return overparam_ratio(s, d), W.shape[0], float(np.sum(W**2)), pair_gap_sum(W, "ordered")


def prop4_generalization(
    W: np.ndarray, s: int, d: int, T_values: Sequence[int], reading: str = "ordered"
) -> np.ndarray:
    r"""Eq. (18) as written, evaluated for concrete ground truths.

    Parameters
    ----------
    W : ndarray, shape (N, d)
        Ground truths.
    s, d : int
        Samples per task and dimension, ``1 <= s < d`` (they give :math:`r = 1 - s/d`).
    T_values : sequence of int
        Rounds :math:`T \ge 1`.
    reading : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum; default ``"ordered"``.

    Returns
    -------
    ndarray, shape (len(T_values),)
        :math:`\frac{r^T}{N} S + \frac{1 - r^T}{N^2} c D` at each :math:`T`.

    Raises
    ------
    ValueError
        If ``W`` is not a finite array of shape (N, d), ``s`` is not in ``[1, d)``, ``d < 2``,
        or a round is not an integer of the allowed range. Also if ``reading`` is unknown.

    See Also
    --------
    prop4_generalization_expr : the same formula in SymPy.
    exact_generalization : the exact mean.

    Notes
    -----
    Eq. (18) of Proposition 4 in [1]_, with :math:`S = \sum_n \|w_n\|^2` and :math:`D` the
    pair sum (:func:`pair_gap_sum`).

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> prop4_generalization(W, 1, 2, [1]).round(3).tolist()
    [1.0]
    """
    if reading not in PAIR_READINGS:
        raise ValueError(f"reading must be one of {tuple(PAIR_READINGS)}, got {reading!r}")
    rv, n, s_sum, d_sum = _moments(W, s, d)
    Ts = _check_t(T_values, "T_values", 1)
    c = float(PAIR_READINGS[reading])
    return rv**Ts * s_sum / n + (1 - rv**Ts) * c * d_sum / n**2


def prop4_forgetting(
    W: np.ndarray, s: int, d: int, t_values: Sequence[int], reading: str = FORGETTING_READINGS[0]
) -> np.ndarray:
    r"""Eq. (17) (or Appendix H's form) as written, for concrete ground truths.

    Parameters
    ----------
    W : ndarray, shape (N, d)
        Ground truths.
    s, d : int
        Samples per task and dimension, ``1 <= s < d``.
    t_values : sequence of int
        Rounds :math:`t \ge 2`.
    reading : str, optional
        ``"<form>/<pairs>"`` from :data:`FORGETTING_READINGS`; default the first,
        ``"main-as-printed/ordered"``.

    Returns
    -------
    ndarray, shape (len(t_values),)
        The formula at each round.

    Raises
    ------
    ValueError
        If ``W`` is not a finite array of shape (N, d), ``s`` is not in ``[1, d)``, ``d < 2``,
        or a round is not an integer of the allowed range. Also if ``reading`` is unknown.

    See Also
    --------
    prop4_forgetting_expr : the SymPy closed form.
    exact_forgetting : the exact mean.

    Notes
    -----
    Direct numerical summation over :math:`\tau = 1, \dots, t - 1` of the summand of
    :func:`prop4_forgetting_summand`, independent of the SymPy closed form.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> prop4_forgetting(W, 1, 2, [2], "main-rt-minus-rtau/ordered").round(4).tolist()
    [0.0]
    """
    if reading not in FORGETTING_READINGS:
        raise ValueError(f"reading must be one of {FORGETTING_READINGS}, got {reading!r}")
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


@functools.cache
def _error_function():  # type: ignore[no-untyped-def]
    return sp.lambdify((t, _i, r, S, D, N), expected_error_expr(t, _i), "numpy")


def exact_generalization(W: np.ndarray, s: int, d: int, T_values: Sequence[int]) -> np.ndarray:
    r"""Exact :math:`\mathbb{E}[G_T]` of the single expert (Gaussian :math:`X_t`), evaluated.

    Parameters
    ----------
    W : ndarray, shape (N, d)
        Ground truths.
    s, d : int
        Samples per task and dimension, ``1 <= s < d``.
    T_values : sequence of int
        Rounds :math:`T \ge 1`.

    Returns
    -------
    ndarray, shape (len(T_values),)
        :math:`\frac1T\sum_{i=1}^{T}\mathbb{E}\|w_T - w_{n_i}\|^2` at each :math:`T`.

    Raises
    ------
    ValueError
        If ``W`` is not a finite array of shape (N, d), ``s`` is not in ``[1, d)``, ``d < 2``,
        or a round is not an integer of the allowed range.

    See Also
    --------
    exact_generalization_expr : the closed form.
    prop4_generalization : eq. (18) as written.
    moetheory.continual.single_expert.single_expert_run : simulation of the same quantity.

    Notes
    -----
    The mean over :math:`i \le T` of :func:`expected_error_expr`, summed numerically (not
    through the closed form), with :math:`S = \sum_n\|w_n\|^2` and :math:`D` the ordered
    pair sum.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> exact_generalization(W, 1, 2, [1, 2]).round(4).tolist()
    [0.5, 0.625]
    """
    rv, n, s_sum, d_sum = _moments(W, s, d)
    err = _error_function()
    return np.array([
        float(np.mean(err(T_, np.arange(1, T_ + 1), rv, s_sum, d_sum, n)))
        for T_ in _check_t(T_values, "T_values", 1)
    ])


def exact_forgetting(W: np.ndarray, s: int, d: int, t_values: Sequence[int]) -> np.ndarray:
    r"""Exact :math:`\mathbb{E}[F_t]` of the single expert (Gaussian :math:`X_t`), evaluated.

    Parameters
    ----------
    W : ndarray, shape (N, d)
        Ground truths.
    s, d : int
        Samples per task and dimension, ``1 <= s < d``.
    t_values : sequence of int
        Rounds :math:`t \ge 2`.

    Returns
    -------
    ndarray, shape (len(t_values),)
        :math:`\frac{1}{t-1}\sum_{i<t}\big(\mathbb{E}\|w_t - w_{n_i}\|^2 -
        \mathbb{E}\|w_i - w_{n_i}\|^2\big)` at each :math:`t`.

    Raises
    ------
    ValueError
        If ``W`` is not a finite array of shape (N, d), ``s`` is not in ``[1, d)``, ``d < 2``,
        or a round is not an integer of the allowed range.

    See Also
    --------
    exact_forgetting_expr : the closed form.
    prop4_forgetting : eq. (17) as written.

    Notes
    -----
    Uses :func:`expected_error_expr` term by term (numerical sum over :math:`i`).

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> exact_forgetting(W, 1, 2, [2]).round(4).tolist()
    [0.25]
    """
    rv, n, s_sum, d_sum = _moments(W, s, d)
    err = _error_function()
    out = []
    for tv in _check_t(t_values, "t_values", 2):
        i = np.arange(1, tv)
        out.append(float(np.mean(err(tv, i, rv, s_sum, d_sum, n) - err(i, i, rv, s_sum, d_sum, n))))
    return np.array(out)


def single_expert_exact_moments(
    W: Sequence[Sequence[Fraction | int]], r_value: Fraction, horizon: int
) -> tuple[list[Fraction], list[Fraction]]:
    r"""Exact :math:`\mathbb{E}[F_t]` and :math:`\mathbb{E}[G_t]` by enumerating task sequences.

    Parameters
    ----------
    W : sequence of sequence of Fraction or int
        Ground truths, :math:`N` vectors of the same length.
    r_value : Fraction
        The ratio :math:`r \in [0, 1)`.
    horizon : int
        Number of rounds :math:`T \ge 1`, with :math:`N^T \le 2 \cdot 10^5`.

    Returns
    -------
    F, G : list of Fraction, length horizon
        :math:`\mathbb{E}[F_t]` and :math:`\mathbb{E}[G_t]` for :math:`t = 1, \dots, T`;
        :math:`F_1 = 0`.

    Raises
    ------
    ValueError
        If ``W`` is empty, ``r_value`` is outside :math:`[0, 1)`, or ``horizon`` is not an
        integer >= 1 with :math:`N^{\text{horizon}} \le 2 \cdot 10^5`.

    See Also
    --------
    exact_forgetting, exact_generalization : the closed forms this checks.

    Notes
    -----
    Uses only the one-step recursion of eq. (5) for a fixed target :math:`a`,

    .. math:: e_t(a) = r\, e_{t-1}(a) + (1 - r)\|w_{n_t} - a\|^2, \qquad
              e_0(a) = \|a\|^2,

    (the expectation over the features given the task sequence), averaged over the
    :math:`N^T` equally likely sequences in exact rational arithmetic. It is independent of
    the closed forms.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> F, G = single_expert_exact_moments([[1, 0], [0, 1]], Fraction(1, 2), 2)
    >>> F[1], G[1]
    (Fraction(1, 4), Fraction(5, 8))
    """
    rows = [[Fraction(x) for x in w] for w in W]
    n_tasks = len(rows)
    if n_tasks < 1 or not rows[0]:
        raise ValueError("W (ground truths) must be a non-empty list of vectors")
    if not 0 <= r_value < 1:
        raise ValueError(f"r_value must lie in [0, 1), got {r_value}")
    if not (isinstance(horizon, int) and 1 <= horizon and n_tasks**horizon <= 200_000):
        raise ValueError(f"horizon must be an integer >= 1 with N**horizon <= 2e5, got {horizon}")
    sq = [[sum((a - b) ** 2 for a, b in zip(u, v, strict=True)) for v in rows] for u in rows]
    norms = [sum(a * a for a in u) for u in rows]
    F = [Fraction(0)] * horizon
    G = [Fraction(0)] * horizon
    weight = Fraction(1, n_tasks**horizon)
    for seq in itertools.product(range(n_tasks), repeat=horizon):
        e = [Fraction(x) for x in norms]  # e[a] = E||w_t - w_a||^2 given the sequence so far
        own: list[Fraction] = []
        for step, n_t in enumerate(seq):
            e = [r_value * e[a] + (1 - r_value) * sq[n_t][a] for a in range(n_tasks)]
            own.append(e[n_t])
            G[step] += weight * sum(e[seq[i]] for i in range(step + 1)) / (step + 1)
            if step:
                F[step] += weight * sum(e[seq[i]] - own[i] for i in range(step)) / step
    return F, G


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

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

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

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

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


def coverage_probability_exact(n_sets: int, n_experts: int) -> Fraction:
    r"""Exact probability that every one of :math:`N` sets receives an expert.

    Parameters
    ----------
    n_sets : int
        Number of sets :math:`N \ge 1` (tasks or clusters).
    n_experts : int
        Number of experts :math:`M \ge 1`.

    Returns
    -------
    fractions.Fraction
        :math:`P(|\mathcal{M}_n| \ge 1 \text{ for all } n)` when each of the :math:`M`
        experts falls in one of the :math:`N` sets uniformly and independently.

    Raises
    ------
    ValueError
        If ``n_sets`` or ``n_experts`` is not an integer >= 1.

    See Also
    --------
    coverage_product_step : the product step of Lemma 11's proof.
    coverage_union_bound : Lemma 11's bound.

    Notes
    -----
    By inclusion-exclusion over the sets left empty,

    .. math:: P = \sum_{j=0}^{N} (-1)^j \binom{N}{j}\Big(1 - \frac{j}{N}\Big)^M,

    the model of Lemma 11 of [1]_.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

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


def coverage_product_step(n_sets: int, n_experts: int) -> Fraction:
    r"""The product step of Lemma 11's proof, :math:`(1 - (1 - 1/N)^M)^N`, exactly.

    Parameters
    ----------
    n_sets : int
        Number of sets :math:`N \ge 1` (tasks or clusters).
    n_experts : int
        Number of experts :math:`M \ge 1`.

    Returns
    -------
    fractions.Fraction
        :math:`\big(1 - (1 - 1/N)^M\big)^N`.

    Raises
    ------
    ValueError
        If ``n_sets`` or ``n_experts`` is not an integer >= 1.

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

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> coverage_product_step(2, 2)
    Fraction(9, 16)
    """
    _check_coverage_args(n_sets, n_experts)
    return (1 - Fraction(n_sets - 1, n_sets) ** n_experts) ** n_sets


def coverage_union_bound(n_sets: int, n_experts: int, dps: int = 50) -> mpmath.mpf:
    r"""Lemma 11's bound :math:`1 - N e^{-M/N}` at ``dps`` decimal digits.

    Parameters
    ----------
    n_sets : int
        Number of sets :math:`N \ge 1` (tasks or clusters).
    n_experts : int
        Number of experts :math:`M \ge 1`.
    dps : int, optional
        Working precision in decimal digits; default 50.

    Returns
    -------
    mpmath.mpf
        :math:`1 - N \exp(-M/N)` (negative, hence vacuous, for small :math:`M/N`).

    Raises
    ------
    ValueError
        If ``n_sets`` or ``n_experts`` is not an integer >= 1.

    See Also
    --------
    coverage_probability_exact : the exact probability it bounds.
    coverage_product_step : the proof's intermediate step.

    Notes
    -----
    The lower bound of Lemma 11 of [1]_ on the probability that every set receives an
    expert, from :math:`(1 - 1/N)^M \le e^{-M/N}` and the union bound.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

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


def expert_counts(expert: np.ndarray, n_experts: int) -> np.ndarray:
    r"""Routing counts :math:`L_t^{(m)}`: the rounds up to :math:`t` routed to expert :math:`m`.

    Parameters
    ----------
    expert : ndarray of int, shape (R, T)
        Routed expert (0-based) of every round of every replicate.
    n_experts : int
        Number of experts :math:`M`.

    Returns
    -------
    ndarray of int, shape (R, T, M)
        ``L[k, t - 1, m]`` is :math:`L_t^{(m)}` of replicate :math:`k` (1-based round
        :math:`t` at index :math:`t - 1`).

    Raises
    ------
    ValueError
        If ``expert`` is not a two-dimensional integer array or an entry is outside
        ``[0, n_experts)``.

    See Also
    --------
    thm1_forgetting_bound, thm2_generalization_bound : bounds written in these counts.

    Notes
    -----
    :math:`L_t^{(m)} = \sum_{\tau \le t} \mathbb{1}[m_\tau = m]`, the counts in which
    Theorems 1 and 2 of [1]_ state their bounds.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> expert_counts(np.array([[0, 1, 0]]), 2)[0].tolist()
    [[1, 0], [1, 1], [2, 1]]
    """
    expert = np.asarray(expert)
    if expert.ndim != 2 or not np.issubdtype(expert.dtype, np.integer):
        raise ValueError(f"expert must be an integer array of shape (R, T), got {expert.shape}")
    if expert.size and (expert.min() < 0 or expert.max() >= n_experts):
        raise ValueError(f"expert entries must lie in [0, {n_experts}), got an entry outside")
    onehot = expert[..., None] == np.arange(n_experts)
    return np.cumsum(onehot, axis=1)


#: ``L(a, b)`` stands for ``L_a^{(m_b)}``: rounds ``<= a`` routed to the expert of round ``b``.
L = sp.Function("L")
#: End of the exploration phase, :math:`T_1 = \lceil M/\eta \rceil` (Proposition 1).
T1 = sp.Symbol("T_1", integer=True, positive=True)
#: :math:`\Psi_1` of Theorem 2 (:func:`psi1`).
Psi1 = sp.Symbol("Psi_1", nonnegative=True)
#: :math:`\Psi_2` of Theorem 2 (:func:`psi2`).
Psi2 = sp.Symbol("Psi_2", nonnegative=True)


def thm1_forgetting_bound_expr(pairs: str = "ordered") -> sp.Expr:
    r"""Right-hand side of eq. (19) (Theorem 1) as a SymPy sum in :math:`L(a, b) = L_a^{(m_b)}`.

    Parameters
    ----------
    pairs : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum (:data:`PAIR_READINGS`); default ``"ordered"``.

    Returns
    -------
    sympy.Expr
        An unevaluated :class:`sympy.Sum` over :math:`\tau` divided by :math:`t - 1`.

    Raises
    ------
    KeyError
        If ``pairs`` is not a key of :data:`PAIR_READINGS`.

    See Also
    --------
    thm1_forgetting_bound : the bound evaluated on simulated routing.
    L : the undefined function standing for the counts.

    Notes
    -----
    Eq. (19) of [1]_ (:math:`M > N`), with :math:`L_t = L_t^{(m_\tau)}`:

    .. math:: \frac{1}{t-1}\sum_{\tau=1}^{t-1}\Big[(r^{L_t} - r^{L_\tau})\frac{S}{N}
              + (r^{L_\tau} - r^{L_t})\frac{c D}{N^2}\Big].

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> e = thm1_forgetting_bound_expr().subs(t, 2).doit()
    >>> sp.simplify(e - (r**L(2, 1) - r**L(1, 1)) * (S / N - D / N**2))
    0
    """
    gap = PAIR_READINGS[pairs] * D / N**2
    term = (r ** L(t, _tau) - r ** L(_tau, _tau)) * S / N + (
        r ** L(_tau, _tau) - r ** L(t, _tau)
    ) * gap
    return sp.Sum(term, (_tau, 1, t - 1)) / (t - 1)


def thm1_generalization_bound_expr(pairs: str = "ordered") -> sp.Expr:
    r"""Right-hand side of eq. (20) (Theorem 1) as a SymPy sum in :math:`L(T_1, \tau)`.

    Parameters
    ----------
    pairs : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum (:data:`PAIR_READINGS`); default ``"ordered"``.

    Returns
    -------
    sympy.Expr
        An unevaluated :class:`sympy.Sum` over :math:`\tau \le T` divided by :math:`T`.

    Raises
    ------
    KeyError
        If ``pairs`` is not a key of :data:`PAIR_READINGS`.

    See Also
    --------
    thm1_generalization_bound : the bound evaluated on simulated routing.

    Notes
    -----
    Eq. (20) of [1]_, with :math:`L_{T_1} = L_{T_1}^{(m_\tau)}`:

    .. math:: \frac1T\sum_{\tau=1}^{T}\Big[r^{L_{T_1}}\frac{S}{N}
              + (1 - r^{L_{T_1}})\frac{c D}{N^2}\Big].

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> thm1_generalization_bound_expr().subs(T, 1).doit()
    D*(1 - r**L(T_1, 1))/N**2 + S*r**L(T_1, 1)/N
    """
    gap = PAIR_READINGS[pairs] * D / N**2
    term = r ** L(T1, _tau) * S / N + (1 - r ** L(T1, _tau)) * gap
    return sp.Sum(term, (_tau, 1, T)) / T


def thm2_forgetting_bound_expr(pairs: str = "ordered") -> sp.Expr:
    r"""Right-hand side of eq. (21) (Theorem 2, :math:`t > T_1`) as a SymPy expression.

    Parameters
    ----------
    pairs : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum (:data:`PAIR_READINGS`); default ``"ordered"``.

    Returns
    -------
    sympy.Expr
        Three unevaluated sums divided by :math:`t - 1`, in :math:`L`, :data:`Psi1`,
        :data:`T1` and the symbols of the module.

    Raises
    ------
    KeyError
        If ``pairs`` is not a key of :data:`PAIR_READINGS`.

    See Also
    --------
    thm2_forgetting_bound : the bound evaluated on simulated routing.
    psi1 : the constant :math:`\Psi_1`.

    Notes
    -----
    Eq. (21) of [1]_ (:math:`M < N`), with the garbled index :math:`i` read as
    :math:`\tau`:

    .. math:: \frac{1}{t-1}\Big[\sum_{\tau=1}^{t-1}(r^{L_t} - r^{L_\tau})\frac{S}{N}
              + \sum_{\tau=1}^{T_1}(r^{L_\tau} - r^{L_{T_1}})\frac{c D}{N^2}
              + \Psi_1 \sum_{\tau=T_1+1}^{t}(1 - r^{L_t - L_\tau})\, r^{L_t - L_{T_1} - 1}\Big].

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> sorted(str(s) for s in thm2_forgetting_bound_expr().free_symbols)
    ['D', 'N', 'Psi_1', 'S', 'T_1', 'r', 't']
    """
    gap = PAIR_READINGS[pairs] * D / N**2
    first = sp.Sum((r ** L(t, _tau) - r ** L(_tau, _tau)) * S / N, (_tau, 1, t - 1))
    second = sp.Sum((r ** L(_tau, _tau) - r ** L(T1, _tau)) * gap, (_tau, 1, T1))
    third = Psi1 * sp.Sum(
        (1 - r ** (L(t, _tau) - L(_tau, _tau))) * r ** (L(t, _tau) - L(T1, _tau) - 1),
        (_tau, T1 + 1, t),
    )
    return (first + second + third) / (t - 1)


def thm2_generalization_bound_expr(
    pairs: str = "ordered", grouping: str = "as-printed"
) -> sp.Expr:
    r"""Right-hand side of eq. (22) (Theorem 2) under a pair reading and a grouping reading.

    Parameters
    ----------
    pairs : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum (:data:`PAIR_READINGS`); default ``"ordered"``.
    grouping : {"as-printed", "split"}, optional
        ``"as-printed"``: the factor :math:`\frac1T\sum r^{L_T}` multiplies both the
        :math:`S/N` term and the exploration term; ``"split"``: only :math:`S/N`.

    Returns
    -------
    sympy.Expr
        The bound as unevaluated sums in :math:`L`, :data:`Psi1`, :data:`Psi2`, :data:`T1`.

    Raises
    ------
    ValueError
        If ``grouping`` is unknown.
    KeyError
        If ``pairs`` is not a key of :data:`PAIR_READINGS`.

    See Also
    --------
    thm2_generalization_bound : the bound evaluated on simulated routing.
    psi1, psi2 : the constants :math:`\Psi_1, \Psi_2`.

    Notes
    -----
    Eq. (22) of [1]_, as printed:

    .. math:: \frac1T\sum_{\tau=1}^{T} r^{L_T}\Big(\frac{S}{N} + \frac{1}{T_1}
              \sum_{l=1}^{T_1} r^{L_T - L_{T_1}}(1 - r^{L_{T_1}})\frac{c D}{N^2}\Big)
              + \frac{\Psi_2 + \Psi_1}{T}\sum_{\tau=T_1+1}^{T}(1 - r^{L_T - L_{T_1}}).

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> sorted(str(s) for s in thm2_generalization_bound_expr().free_symbols)
    ['D', 'N', 'Psi_1', 'Psi_2', 'S', 'T', 'T_1', 'r']
    """
    if grouping not in ("as-printed", "split"):
        raise ValueError(f"grouping must be 'as-printed' or 'split', got {grouping!r}")
    gap = PAIR_READINGS[pairs] * D / N**2
    explore = sp.Sum(
        r ** (L(T, _l) - L(T1, _l)) * (1 - r ** L(T1, _l)), (_l, 1, T1)
    ) / T1 * gap
    decay = sp.Sum(r ** L(T, _tau), (_tau, 1, T)) / T
    first = decay * (S / N + explore) if grouping == "as-printed" else decay * S / N + explore
    late = sp.Sum(1 - r ** (L(T, _tau) - L(T1, _tau)), (_tau, T1 + 1, T)) / T
    return first + (Psi2 + Psi1) * late


def _own_counts(expert: np.ndarray, counts: np.ndarray, at: np.ndarray | None) -> np.ndarray:
    """``L_at^{(m_tau)}`` for every tau (``at`` = None gives ``L_tau^{(m_tau)}``)."""
    R, T_len = expert.shape
    rows = np.arange(R)[:, None]
    if at is None:
        return counts[rows, np.arange(T_len)[None, :], expert]
    return counts[rows, at[:, None] if at.ndim == 1 else at, expert]


def _check_bound_inputs(expert: np.ndarray, W: np.ndarray, r_value: float) -> None:
    if not 0 <= r_value < 1:
        raise ValueError(f"r_value must lie in [0, 1), got {r_value}")
    if W.ndim != 3 or W.shape[0] != expert.shape[0]:
        raise ValueError(f"ground_truths must have shape (R, N, d) with R = {expert.shape[0]}")


def _s_d(W: np.ndarray, pairs: str) -> tuple[np.ndarray, np.ndarray]:
    if pairs not in PAIR_READINGS:
        raise ValueError(f"pairs must be one of {tuple(PAIR_READINGS)}, got {pairs!r}")
    n = W.shape[1]
    s_term = np.sum(W**2, axis=(1, 2)) / n
    diff = W[:, :, None, :] - W[:, None, :, :]
    d_term = float(PAIR_READINGS[pairs]) * np.sum(diff**2, axis=(1, 2, 3)) / n**2
    return s_term, d_term


def thm1_forgetting_bound(
    expert: np.ndarray,
    ground_truths: np.ndarray,
    n_experts: int,
    r_value: float,
    t_value: int,
    pairs: str = "ordered",
) -> np.ndarray:
    r"""Eq. (19) per replicate at round ``t_value``, with the realised routing counts.

    Parameters
    ----------
    expert : ndarray of int, shape (R, T)
        Routed expert (0-based) of every round of every replicate.
    ground_truths : ndarray, shape (R, N, d)
        Ground truths of every replicate.
    n_experts : int
        Number of experts :math:`M`.
    r_value : float
        :math:`r = 1 - s/d \in [0, 1)`.
    t_value : int
        Round :math:`t`, ``2 <= t_value <= T``.
    pairs : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum (:data:`PAIR_READINGS`); default ``"ordered"``.

    Returns
    -------
    ndarray, shape (R,)
        The right-hand side of eq. (19) for each replicate.

    Raises
    ------
    ValueError
        If ``r_value`` is outside :math:`[0, 1)`, ``ground_truths`` does not have shape
        (R, N, d) matching ``expert``, ``pairs`` is unknown, a round is out of range, or an
        entry of ``expert`` is outside ``[0, n_experts)``.

    See Also
    --------
    thm1_forgetting_bound_expr : the formula in SymPy.
    expert_counts : the counts :math:`L_t^{(m)}`.

    Notes
    -----
    .. math:: \frac{1}{t-1}\sum_{\tau<t}\Big[(r^{L_t} - r^{L_\tau})\frac{S}{N}
              + (r^{L_\tau} - r^{L_t})\frac{c D}{N^2}\Big],
              \qquad L_a = L_a^{(m_\tau)},

    eq. (19) of Theorem 1 in [1]_, evaluated on the routing of a simulated run.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> W = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    >>> thm1_forgetting_bound(np.array([[0, 0]]), W, 1, 0.5, 2).round(3).tolist()
    [0.0]
    """
    expert = np.asarray(expert)
    W = np.asarray(ground_truths, dtype=float)
    _check_bound_inputs(expert, W, r_value)
    if not 2 <= t_value <= expert.shape[1]:
        raise ValueError(f"t_value must lie in [2, {expert.shape[1]}], got {t_value}")
    counts = expert_counts(expert, n_experts)
    s_term, d_term = _s_d(W, pairs)
    l_tau = _own_counts(expert, counts, None)[:, : t_value - 1]
    l_t = _own_counts(expert, counts, np.full(expert.shape[0], t_value - 1))[:, : t_value - 1]
    a = r_value**l_t - r_value**l_tau
    return (a.sum(axis=1) * s_term - a.sum(axis=1) * d_term) / (t_value - 1)


def thm1_generalization_bound(
    expert: np.ndarray,
    ground_truths: np.ndarray,
    n_experts: int,
    r_value: float,
    t1: int,
    pairs: str = "ordered",
) -> np.ndarray:
    r"""Eq. (20) per replicate, with the realised counts :math:`L_{T_1}^{(m_\tau)}`.

    Parameters
    ----------
    expert : ndarray of int, shape (R, T)
        Routed expert (0-based) of every round of every replicate.
    ground_truths : ndarray, shape (R, N, d)
        Ground truths of every replicate.
    n_experts : int
        Number of experts :math:`M`.
    r_value : float
        :math:`r = 1 - s/d \in [0, 1)`.
    t1 : int
        End of the exploration phase :math:`T_1`, ``1 <= t1 <= T``.
    pairs : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum (:data:`PAIR_READINGS`); default ``"ordered"``.

    Returns
    -------
    ndarray, shape (R,)
        The right-hand side of eq. (20) for each replicate, :math:`T` the number of columns
        of ``expert``.

    Raises
    ------
    ValueError
        If ``r_value`` is outside :math:`[0, 1)`, ``ground_truths`` does not have shape
        (R, N, d) matching ``expert``, ``pairs`` is unknown, a round is out of range, or an
        entry of ``expert`` is outside ``[0, n_experts)``.

    See Also
    --------
    thm1_generalization_bound_expr : the formula in SymPy.

    Notes
    -----
    .. math:: \frac1T\sum_{\tau=1}^{T}\Big[r^{L_{T_1}}\frac{S}{N}
              + (1 - r^{L_{T_1}})\frac{c D}{N^2}\Big], \qquad L_{T_1} = L_{T_1}^{(m_\tau)},

    eq. (20) of Theorem 1 in [1]_.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> W = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    >>> thm1_generalization_bound(np.array([[0, 0]]), W, 1, 0.5, 2).round(3).tolist()
    [1.0]
    """
    expert = np.asarray(expert)
    W = np.asarray(ground_truths, dtype=float)
    _check_bound_inputs(expert, W, r_value)
    if not 1 <= t1 <= expert.shape[1]:
        raise ValueError(f"t1 must lie in [1, {expert.shape[1]}], got {t1}")
    counts = expert_counts(expert, n_experts)
    s_term, d_term = _s_d(W, pairs)
    p = r_value ** _own_counts(expert, counts, np.full(expert.shape[0], t1 - 1))
    return (p * s_term[:, None] + (1 - p) * d_term[:, None]).mean(axis=1)


def psi1(W: np.ndarray, clusters: Sequence[int]) -> float:
    r""":math:`\Psi_1` of Theorem 2: the mean squared gap between tasks of the same cluster.

    Parameters
    ----------
    W : ndarray, shape (N, d)
        Ground truths.
    clusters : sequence of int, length N
        Cluster label of each ground truth.

    Returns
    -------
    float
        :math:`\Psi_1`.

    Raises
    ------
    ValueError
        If ``W`` is not a finite (N, d) array or ``clusters`` does not have one label per
        ground truth.

    See Also
    --------
    psi2 : the gap to every cluster.
    thm2_forgetting_bound : where :math:`\Psi_1` enters.

    Notes
    -----
    With :math:`\mathcal{W}(n)` the cluster of task :math:`n`,

    .. math:: \Psi_1 = \frac1N\sum_{n=1}^{N}\frac{1}{|\mathcal{W}(n)|}
              \sum_{n' \in \mathcal{W}(n)}\|w_{n'} - w_n\|^2,

    the within-cluster term of Theorem 2 in [1]_.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> psi1(np.array([[0.0], [1.0], [5.0]]), [0, 0, 1])
    0.3333333333333333
    """
    W = _ground_truths(W)
    labels = np.asarray(clusters)
    if labels.shape != (W.shape[0],):
        raise ValueError(f"clusters must have one label per ground truth ({W.shape[0]})")
    gaps = np.sum((W[:, None, :] - W[None, :, :]) ** 2, axis=2)
    same = labels[:, None] == labels[None, :]
    return float(np.mean(np.sum(gaps * same, axis=1) / same.sum(axis=1)))


def psi2(W: np.ndarray, clusters: Sequence[int]) -> float:
    r""":math:`\Psi_2` of Theorem 2: the mean squared gap from a task to the clusters.

    Parameters
    ----------
    W : ndarray, shape (N, d)
        Ground truths.
    clusters : sequence of int, length N
        Cluster label of each ground truth.

    Returns
    -------
    float
        :math:`\Psi_2`.

    Raises
    ------
    ValueError
        If ``W`` is not a finite (N, d) array or ``clusters`` does not have one label per
        ground truth.

    See Also
    --------
    psi1 : the within-cluster gap.
    thm2_generalization_bound : where :math:`\Psi_2` enters.

    Notes
    -----
    With clusters :math:`\mathcal{W}_1, \dots, \mathcal{W}_K`,

    .. math:: \Psi_2 = \frac1N\sum_{n=1}^{N}\frac1K\sum_{k=1}^{K}
              \frac{1}{|\mathcal{W}_k|}\sum_{n' \in \mathcal{W}_k}\|w_{n'} - w_n\|^2,

    the between-cluster term of Theorem 2 in [1]_.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> psi2(np.array([[0.0], [2.0]]), [0, 1])
    2.0
    """
    W = _ground_truths(W)
    labels = np.asarray(clusters)
    if labels.shape != (W.shape[0],):
        raise ValueError(f"clusters must have one label per ground truth ({W.shape[0]})")
    gaps = np.sum((W[:, None, :] - W[None, :, :]) ** 2, axis=2)
    ks = np.unique(labels)
    per_k = [gaps[:, labels == k].mean(axis=1) for k in ks]
    return float(np.mean(np.mean(per_k, axis=0)))


def thm2_forgetting_bound(
    expert: np.ndarray,
    ground_truths: np.ndarray,
    clusters: Sequence[int],
    n_experts: int,
    r_value: float,
    t1: int,
    t_value: int,
    pairs: str = "ordered",
    gap_until: str = "T1",
) -> np.ndarray:
    r"""Eq. (21) per replicate at round ``t_value > t1``, with the realised counts.

    Parameters
    ----------
    expert : ndarray of int, shape (R, T)
        Routed expert (0-based) of every round of every replicate.
    ground_truths : ndarray, shape (R, N, d)
        Ground truths of every replicate.
    clusters : sequence of int, length N
        Cluster label of each ground truth (for :math:`\Psi_1`).
    n_experts : int
        Number of experts :math:`M`.
    r_value : float
        :math:`r = 1 - s/d \in [0, 1)`.
    t1 : int
        End of the exploration phase :math:`T_1`.
    t_value : int
        Round :math:`t`, ``1 <= t1 < t_value <= T``.
    pairs : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum (:data:`PAIR_READINGS`); default ``"ordered"``.
    gap_until : {"T1", "t"}, optional
        Reading of the second term: :math:`r^{L_\tau} - r^{L_{T_1}}` (as printed, default)
        or :math:`r^{L_\tau} - r^{L_t}` (as in eq. (19)).

    Returns
    -------
    ndarray, shape (R,)
        The right-hand side of eq. (21) for each replicate.

    Raises
    ------
    ValueError
        If ``r_value`` is outside :math:`[0, 1)`, ``ground_truths`` does not have shape
        (R, N, d) matching ``expert``, ``pairs`` is unknown, a round is out of range, or an
        entry of ``expert`` is outside ``[0, n_experts)``; also if
        ``gap_until`` is unknown, or from :func:`psi1`.

    See Also
    --------
    thm2_forgetting_bound_expr : the formula in SymPy.
    psi1 : the constant :math:`\Psi_1`.

    Notes
    -----
    .. math:: \frac{1}{t-1}\Big[\sum_{\tau<t}(r^{L_t} - r^{L_\tau})\frac{S}{N}
              + \sum_{\tau\le T_1}(r^{L_\tau} - r^{L_{T_1}})\frac{c D}{N^2}
              + \Psi_1\sum_{\tau=T_1+1}^{t}(1 - r^{L_t - L_\tau})\,r^{L_t - L_{T_1} - 1}\Big],

    eq. (21) of Theorem 2 in [1]_, the garbled index :math:`i` read as :math:`\tau`.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> W = np.array([[[1.0], [0.0]]])
    >>> thm2_forgetting_bound(np.array([[0, 0, 0]]), W, [0, 0], 1, 0.5, 1, 3).round(4).tolist()
    [-0.0625]
    """
    expert = np.asarray(expert)
    W = np.asarray(ground_truths, dtype=float)
    _check_bound_inputs(expert, W, r_value)
    if not 1 <= t1 < t_value <= expert.shape[1]:
        raise ValueError(f"need 1 <= t1 < t_value <= {expert.shape[1]}, got {t1}, {t_value}")
    R = expert.shape[0]
    counts = expert_counts(expert, n_experts)
    s_term, d_term = _s_d(W, pairs)
    own = _own_counts(expert, counts, None)
    at_t = _own_counts(expert, counts, np.full(R, t_value - 1))
    at_t1 = _own_counts(expert, counts, np.full(R, t1 - 1))
    first = (r_value ** at_t[:, : t_value - 1] - r_value ** own[:, : t_value - 1]).sum(axis=1)
    if gap_until not in ("T1", "t"):
        raise ValueError(f"gap_until must be 'T1' or 't', got {gap_until!r}")
    until = at_t1 if gap_until == "T1" else at_t
    second = (r_value ** own[:, :t1] - r_value ** until[:, :t1]).sum(axis=1)
    lt, ltau, lt1 = at_t[:, t1:t_value], own[:, t1:t_value], at_t1[:, t1:t_value]
    third = ((1 - r_value ** (lt - ltau)) * r_value ** (lt - lt1 - 1.0)).sum(axis=1)
    psi = np.array([psi1(W[k], clusters) for k in range(R)])
    return (first * s_term + second * d_term + psi * third) / (t_value - 1)


def thm2_generalization_bound(
    expert: np.ndarray,
    ground_truths: np.ndarray,
    clusters: Sequence[int],
    n_experts: int,
    r_value: float,
    t1: int,
    pairs: str = "ordered",
    grouping: str = "as-printed",
) -> np.ndarray:
    r"""Eq. (22) per replicate at the last round :math:`T` (the number of columns of ``expert``).

    Parameters
    ----------
    expert : ndarray of int, shape (R, T)
        Routed expert (0-based) of every round of every replicate.
    ground_truths : ndarray, shape (R, N, d)
        Ground truths of every replicate.
    clusters : sequence of int, length N
        Cluster label of each ground truth (for :math:`\Psi_1, \Psi_2`).
    n_experts : int
        Number of experts :math:`M`.
    r_value : float
        :math:`r = 1 - s/d \in [0, 1)`.
    t1 : int
        End of the exploration phase :math:`T_1`, ``1 <= t1 <= T``.
    pairs : {"ordered", "unordered", "diagonal"}, optional
        Reading of the pair sum (:data:`PAIR_READINGS`); default ``"ordered"``.
    grouping : {"as-printed", "split"}, optional
        Whether the factor :math:`r^{L_T}` multiplies the exploration term too
        (``"as-printed"``, default) or :math:`S/N` only (``"split"``).

    Returns
    -------
    ndarray, shape (R,)
        The right-hand side of eq. (22) for each replicate.

    Raises
    ------
    ValueError
        If ``r_value`` is outside :math:`[0, 1)`, ``ground_truths`` does not have shape
        (R, N, d) matching ``expert``, ``pairs`` is unknown, a round is out of range, or an
        entry of ``expert`` is outside ``[0, n_experts)``; also if
        ``grouping`` is unknown, or from :func:`psi1` or :func:`psi2`.

    See Also
    --------
    thm2_generalization_bound_expr : the formula in SymPy.
    psi1, psi2 : the constants.

    Notes
    -----
    As printed,

    .. math:: \frac1T\sum_{\tau} r^{L_T}\Big(\frac{S}{N} + \frac{1}{T_1}\sum_{\tau' \le T_1}
              r^{L_T - L_{T_1}}(1 - r^{L_{T_1}})\frac{c D}{N^2}\Big)
              + \frac{\Psi_2 + \Psi_1}{T}\sum_{\tau > T_1}(1 - r^{L_T - L_{T_1}}),

    eq. (22) of Theorem 2 in [1]_; ``"split"`` moves the exploration term out of the
    factor :math:`r^{L_T}`.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.

    Examples
    --------
    >>> W = np.array([[[1.0], [0.0]]])
    >>> thm2_generalization_bound(np.array([[0, 0]]), W, [0, 1], 1, 0.5, 2).round(4).tolist()
    [0.2188]
    """
    if grouping not in ("as-printed", "split"):
        raise ValueError(f"grouping must be 'as-printed' or 'split', got {grouping!r}")
    expert = np.asarray(expert)
    W = np.asarray(ground_truths, dtype=float)
    _check_bound_inputs(expert, W, r_value)
    R, T_len = expert.shape
    if not 1 <= t1 <= T_len:
        raise ValueError(f"t1 must lie in [1, {T_len}], got {t1}")
    counts = expert_counts(expert, n_experts)
    s_term, d_term = _s_d(W, pairs)
    at_T = _own_counts(expert, counts, np.full(R, T_len - 1))
    at_t1 = _own_counts(expert, counts, np.full(R, t1 - 1))
    explore = (
        r_value ** (at_T[:, :t1] - at_t1[:, :t1]) * (1 - r_value ** at_t1[:, :t1])
    ).mean(axis=1) * d_term
    decay = (r_value**at_T).mean(axis=1)
    if grouping == "as-printed":
        first = decay * (s_term + explore)
    else:
        first = decay * s_term + explore
    late = (1 - r_value ** (at_T[:, t1:] - at_t1[:, t1:])).sum(axis=1) / T_len
    psis = np.array([psi1(W[k], clusters) + psi2(W[k], clusters) for k in range(R)])
    return first + psis * late
