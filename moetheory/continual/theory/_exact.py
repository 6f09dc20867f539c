"""Exact expectations of the single expert (:math:`M = 1`): the recursion of eq. (5) solved in
closed form, evaluated numerically, enumerated exactly, and Appendix H's literal summand."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import sympy as sp

from moetheory._doccer import fill_doc
from moetheory.continual.theory import _docs
from moetheory.continual.theory._notation import (
    D,
    N,
    S,
    T,
    _check_t,
    _i,
    _l,
    _moments,
    r,
    t,
)
from moetheory.continual.theory._sums import _collect_sd, _geometric
from moetheory.engine.shared import shared

__all__ = [
    "appendix_h_literal_summand",
    "exact_forgetting",
    "exact_forgetting_expr",
    "exact_generalization",
    "exact_generalization_expr",
    "expected_error_expr",
    "single_expert_exact_moments",
]


@functools.cache
@fill_doc(_docs.REFERENCES)
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

    %(references)s

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
@fill_doc(_docs.EXACT_EXPRESSIONS)
def exact_generalization_expr() -> sp.Expr:
    r"""Exact :math:`\mathbb{E}[G_T]` of the single expert, eq. (16), in closed form.

    Returns
    -------
    sympy.Expr
        :math:`a\,S + b\,D` with factored coefficients in :data:`r`, :data:`N`, :data:`T`.

    %(raises)s

    See Also
    --------
    prop4_generalization_expr : eq. (18) as written, which lacks the factor :math:`(T - 1)/T`.
    exact_generalization : the same mean, evaluated numerically.

    Notes
    -----
    The mean over :math:`i \le T` of :func:`expected_error_expr`:

    .. math:: \mathbb{E}[G_T] = \frac1T \sum_{i=1}^{T} \mathbb{E}\|w_T - w_{n_i}\|^2
              = \frac{r^T S}{N} + \frac{T-1}{T}(1 - r^T)\frac{D}{N^2}.

    Eq. (18) of Proposition 4 in [1]_ has :math:`(1 - r^T) D/N^2` without the factor
    :math:`(T - 1)/T`.

    %(references)s

    Examples
    --------
    >>> sp.factor(exact_generalization_expr() - r**T * S / N)
    -D*(T - 1)*(r**T - 1)/(N**2*T)
    """
    return _collect_sd(_geometric(expected_error_expr(T, _i), _i, 1, T) / T)


@shared()
@fill_doc(_docs.EXACT_EXPRESSIONS)
def exact_forgetting_expr() -> sp.Expr:
    r"""Exact :math:`\mathbb{E}[F_t]` of the single expert, eq. (15), in closed form.

    Returns
    -------
    sympy.Expr
        :math:`a\,S + b\,D` with factored coefficients in :data:`r`, :data:`N`, :data:`t`
        (valid for :math:`t \ge 2`).

    %(raises)s

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

    %(references)s

    Examples
    --------
    >>> float(exact_forgetting_expr().subs({t: 2, r: sp.Rational(1, 2), S: 0, D: 1, N: 1}))
    0.5
    """
    gap = expected_error_expr(t, _i) - expected_error_expr(_i, _i)
    return _collect_sd(_geometric(sp.expand(gap), _i, 1, t - 1) / (t - 1))


@fill_doc(_docs.REFERENCES)
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

    %(references)s

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


@functools.cache
def _error_function():  # type: ignore[no-untyped-def]
    return sp.lambdify((t, _i, r, S, D, N), expected_error_expr(t, _i), "numpy")


@fill_doc(_docs.SINGLE_EXPERT)
def exact_generalization(W: np.ndarray, s: int, d: int, T_values: Sequence[int]) -> np.ndarray:
    r"""Exact :math:`\mathbb{E}[G_T]` of the single expert (Gaussian :math:`X_t`), evaluated.

    %(parameters)s
    T_values : sequence of int
        Rounds :math:`T \ge 1`.

    Returns
    -------
    ndarray, shape (len(T_values),)
        :math:`\frac1T\sum_{i=1}^{T}\mathbb{E}\|w_T - w_{n_i}\|^2` at each :math:`T`.

    %(raises)s

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

    %(references)s

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


@fill_doc(_docs.SINGLE_EXPERT)
def exact_forgetting(W: np.ndarray, s: int, d: int, t_values: Sequence[int]) -> np.ndarray:
    r"""Exact :math:`\mathbb{E}[F_t]` of the single expert (Gaussian :math:`X_t`), evaluated.

    %(parameters)s
    t_values : sequence of int
        Rounds :math:`t \ge 2` (forgetting needs a task before round :math:`t`).

    Returns
    -------
    ndarray, shape (len(t_values),)
        :math:`\frac{1}{t-1}\sum_{i<t}\big(\mathbb{E}\|w_t - w_{n_i}\|^2 -
        \mathbb{E}\|w_i - w_{n_i}\|^2\big)` at each :math:`t`.

    %(raises)s

    See Also
    --------
    exact_forgetting_expr : the closed form.
    prop4_forgetting : eq. (17) as written.

    Notes
    -----
    Uses :func:`expected_error_expr` term by term (numerical sum over :math:`i`).

    %(references)s

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


@fill_doc(_docs.REFERENCES)
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
        If ``W`` is empty, ``r_value`` is outside :math:`[0, 1)`, or ``horizon`` is not a
        positive integer with :math:`N^{\text{horizon}} \le 2 \cdot 10^5`.

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

    %(references)s

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


