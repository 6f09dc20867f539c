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

from moetheory.exact import to_exact

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

r = sp.Symbol("r", positive=True)
T = sp.Symbol("T", integer=True, positive=True)
t = sp.Symbol("t", integer=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)
S = sp.Symbol("S", nonnegative=True)
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
    """Over-parameterisation ratio ``r = 1 - s/d`` of Section 5.

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
    """The seed's pair sum "sum_{n=n'} ||w_n' - w_n||^2" of eqs. (17)-(22) under ``reading``.

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
    """``sum_{var=lo}^{hi} expr`` for ``r != 1`` (the generic branch of SymPy's Piecewise)."""
    total = sp.summation(expr, (var, lo, hi))
    total = total.replace(lambda e: isinstance(e, sp.Piecewise), lambda e: e.args[-1][0])
    return sp.simplify(total)


def _collect_sd(expr: sp.Expr) -> sp.Expr:
    """Write an expression linear in ``S`` and ``D`` as ``a S + b D`` with factored ``a, b``."""
    expanded = sp.expand(expr)
    tidy = sp.factor(expanded.coeff(S)) * S + sp.factor(expanded.coeff(D)) * D
    if sp.simplify(tidy - expr) != 0:
        raise ValueError("expression is not linear in S and D")
    return tidy


@functools.cache
def expected_error_expr(time: sp.Expr, task_round: sp.Expr) -> sp.Expr:
    """Exact E||w_time - w_{n_i}||^2 of a single expert (M = 1), ``time >= task_round = i``.

    Derived from eq. (5): ``w_t - a = (I - P_t)(w_{t-1} - a) + P_t (w_{n_t} - a)`` with the two
    parts orthogonal and E[P_t] = (s/d) I (Gaussian X_t), so for fixed ``a``
    ``E||w_t - a||^2 = r E||w_{t-1} - a||^2 + (1 - r) E||w_{n_t} - a||^2``. Unrolled from
    ``w_0 = 0`` with ``a = w_{n_i}``: the round ``l = i`` contributes 0 and every other round
    contributes ``D/N^2`` (independent uniform tasks).

    Examples
    --------
    >>> sp.simplify(expected_error_expr(t, t) - (r**t * S / N + (r - r**t) * D / N**2))
    0
    """
    per_round = (1 - r) * r ** (time - _l)
    all_rounds = _geometric(per_round, _l, 1, time)
    own_round = per_round.subs(_l, task_round)
    return sp.simplify(r**time * S / N + (all_rounds - own_round) * D / N**2)


@functools.cache
def exact_generalization_expr() -> sp.Expr:
    """Exact E[G_T] of the single expert, eq. (16), from :func:`expected_error_expr`.

    Examples
    --------
    >>> sp.factor(exact_generalization_expr() - r**T * S / N)
    -D*(T - 1)*(r**T - 1)/(N**2*T)
    """
    return _collect_sd(_geometric(expected_error_expr(T, _i), _i, 1, T) / T)


@functools.cache
def exact_forgetting_expr() -> sp.Expr:
    """Exact E[F_t] of the single expert, eq. (15), from :func:`expected_error_expr`.

    Examples
    --------
    >>> float(exact_forgetting_expr().subs({t: 2, r: sp.Rational(1, 2), S: 0, D: 1, N: 1}))
    0.5
    """
    gap = expected_error_expr(t, _i) - expected_error_expr(_i, _i)
    return _collect_sd(_geometric(sp.expand(gap), _i, 1, t - 1) / (t - 1))


def appendix_h_literal_summand(kind: str, factor_i: bool = False) -> sp.Expr:
    """The summand over ``i`` of Appendix H's middle expression for E[G_T] (``kind="G"``) or
    E[F_t] (``"F"``), read literally: each expectation ``E||w_{n_l} - w_{n_i}||^2`` evaluated
    exactly, ``0`` for ``l = i`` and ``D/N^2`` otherwise, before the appendix's final
    substitution (which puts ``D/N^2`` for every ``l``). ``factor_i`` keeps the stray factor
    ``i`` printed before the last sum of the forgetting form. E[G_T] is ``1/T sum_{i<=T}``
    and E[F_t] is ``1/(t-1) sum_{i<t}`` of the summand.

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
def prop4_generalization_expr(reading: str = "ordered") -> sp.Expr:
    """Eq. (18) as written: ``r^T/N S + (1 - r^T)/N^2 sum_{n=n'}`` under a pair reading.

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
    """The summand over ``tau`` of eq. (17) / Appendix H under ``reading`` (inner sums of the
    Appendix H form left as unevaluated :class:`sympy.Sum`).

    ``reading`` is ``"<form>/<pairs>"`` from :data:`FORGETTING_READINGS`; eq. (17) is
    ``1/(t-1) sum_{tau=1}^{t-1}`` of this summand.

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


@functools.cache
def prop4_forgetting_expr(reading: str = "main-as-printed/ordered") -> sp.Expr:
    """Closed form (SymPy summation) of eq. (17) / Appendix H under ``reading``.

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
    """Eq. (17) / Appendix H under ``reading`` at a concrete round, by finite summation.

    ``subs`` gives numbers for ``r, N, S, D``; with rationals the result is exact.

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
    """Eq. (18) as written, evaluated for ground truths ``W`` (shape (N, d)).

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
    """Eq. (17) / Appendix H as written, for ground truths ``W``, at rounds ``t >= 2``
    (direct numerical summation, independent of the SymPy closed form).

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
    """Exact E[G_T] of the single expert (Gaussian X_t): the mean over ``i <= T`` of
    :func:`expected_error_expr`, summed numerically.

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
    """Exact E[F_t] of the single expert (Gaussian X_t), ``t >= 2``: the mean over ``i < t``
    of ``E||w_t - w_{n_i}||^2 - E||w_i - w_{n_i}||^2`` from :func:`expected_error_expr`.

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
    """Exact E[F_t] and E[G_t], t = 1..horizon, by enumerating all N^horizon task sequences.

    Uses only the one-step recursion of eq. (5) for a fixed target ``a``,
    ``e_t(a) = r e_{t-1}(a) + (1 - r) ||w_{n_t} - a||^2`` with ``e_0(a) = ||a||^2``, in exact
    rational arithmetic -- independent of the closed forms. ``F_1`` is returned as 0.

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
    """E||P_t u||^2 when X_t follows Definition 1 (one column beta_t v, s - 1 Gaussian columns).

    The column space is ``span(v) + span((I - P_v) G)``, a uniformly random (s-1)-dimensional
    subspace of ``v``'s orthogonal complement, so
    ``E[P_t] = v v^T/||v||^2 + (s-1)/(d-1) (I - v v^T/||v||^2)`` and
    ``E||P_t u||^2 = (s-1)/(d-1) ||u||^2 + (d-s)/(d-1) (v^T u)^2/||v||^2``.

    Examples
    --------
    >>> projection_mean_definition1(np.array([1.0, 0.0]), np.array([1.0, 0.0]), 1, 2)
    1.0
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
    """Exact p_m = P(argmax_m' {h_m' + r_m'} = m), r_m iid Unif[0, lam] (eq. (1), Appendix B).

    ``p_m = (1/lam) int_0^lam prod_{m' != m} F(x + h_m - h_m') dx`` with ``F`` the Unif[0, lam]
    CDF; the integrand is a polynomial between breakpoints, integrated exactly.

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
    """Exact ``P(|M_n| >= 1 for all n)`` when each of M experts falls in one of N sets uniformly.

    Inclusion-exclusion: ``sum_j (-1)^j C(N, j) (1 - j/N)^M`` (Lemma 11's model).

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
    """The product step of Lemma 11's proof: ``(1 - (1 - 1/N)^M)^N``, exactly.

    Examples
    --------
    >>> coverage_product_step(2, 2)
    Fraction(9, 16)
    """
    _check_coverage_args(n_sets, n_experts)
    return (1 - Fraction(n_sets - 1, n_sets) ** n_experts) ** n_sets


def coverage_union_bound(n_sets: int, n_experts: int, dps: int = 50) -> mpmath.mpf:
    """Lemma 11's bound ``1 - N exp(-M/N)`` at ``dps`` decimal digits (mpmath).

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
    """``L[R, t, m]``: rounds ``<= t`` (1-based ``t`` at index ``t - 1``) routed to expert m.

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
T1 = sp.Symbol("T_1", integer=True, positive=True)
Psi1 = sp.Symbol("Psi_1", nonnegative=True)
Psi2 = sp.Symbol("Psi_2", nonnegative=True)


def thm1_forgetting_bound_expr(pairs: str = "ordered") -> sp.Expr:
    """Right-hand side of eq. (19) as a SymPy sum in ``L(a, b) = L_a^{(m_b)}``.

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
    """Right-hand side of eq. (20) as a SymPy sum in ``L(T1, tau)``.

    Examples
    --------
    >>> thm1_generalization_bound_expr().subs(T, 1).doit()
    D*(1 - r**L(T_1, 1))/N**2 + S*r**L(T_1, 1)/N
    """
    gap = PAIR_READINGS[pairs] * D / N**2
    term = r ** L(T1, _tau) * S / N + (1 - r ** L(T1, _tau)) * gap
    return sp.Sum(term, (_tau, 1, T)) / T


def thm2_forgetting_bound_expr(pairs: str = "ordered") -> sp.Expr:
    """Right-hand side of eq. (21) (``t > T1``; the garbled ``i`` read as ``tau``).

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
    """Right-hand side of eq. (22) under a pair reading and a grouping reading.

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
    """Eq. (19) per replicate, with the realised ``L_t^{(m_tau)}``, at round ``t_value``.

    ``1/(t-1) sum_{tau<t} [(r^{L_t} - r^{L_tau}) S/N + (r^{L_tau} - r^{L_t}) sum_{n=n'}/N^2]``.

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
    """Eq. (20) per replicate: ``1/T sum_tau [r^{L_T1} S/N + (1 - r^{L_T1}) sum_{n=n'}/N^2]``.

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
    """Psi_1 of Theorem 2: mean over n of the mean gap to the tasks of n's own cluster.

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
    """Psi_2 of Theorem 2: mean over n and clusters k of the mean gap from n to W_k.

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
    """Eq. (21) per replicate for ``t_value > t1`` (reading: the ``i`` of the garble is tau).

    ``1/(t-1) sum_{tau<t} (r^{L_t} - r^{L_tau}) S/N
    + 1/(t-1) sum_{tau<=T1} (r^{L_tau} - r^{L_T1}) sum_{n=n'}/N^2
    + Psi_1/(t-1) sum_{tau=T1+1}^{t} (1 - r^{L_t - L_tau}) r^{L_t - L_T1 - 1}``;
    ``gap_until="t"`` reads the second term as ``r^{L_tau} - r^{L_t}`` (as in eq. (19)).

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
    """Eq. (22) per replicate at the last round ``T`` (the number of columns of ``expert``).

    ``grouping="as-printed"``: ``1/T sum_tau r^{L_T} (S/N + 1/T1 sum_{tau'<=T1}
    r^{L_T - L_T1}(1 - r^{L_T1}) sum_{n=n'}/N^2)``; ``grouping="split"``: the factor
    ``r^{L_T}`` multiplies ``S/N`` only. Both add
    ``(Psi_2 + Psi_1)/T sum_{tau>T1} (1 - r^{L_T - L_T1})``.

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
