"""Check a closed form for an expectation by Monte Carlo, as the catalogue's checks do.

:func:`check_expectation` draws from the user's ``sampler(rng, n)`` in batches
(:func:`~moetheory.stats.run_sequential`, Bonferroni over the looks), builds an interval for
the mean and decides it against the claimed value with the equivalence rule
(:func:`~moetheory.stats.compare`): ``supported`` iff the interval lies inside
``[value - tol, value + tol]``, ``unsupported`` iff it lies entirely outside,
``inconclusive`` otherwise, with the number of draws that would decide it. The interval is
empirical Bernstein when the draws' range is declared (valid at every ``n``), else
Student-t (:func:`~moetheory.stats.mean_ci`), whose decisions stand only where tail
diagnostics trust its normal approximation (heavy tails, skewness, draws that do not vary
make it ``inconclusive``, with the reason). :func:`required_n` sizes the budget from a
pilot.

Examples
--------
>>> import numpy as np, sympy as sp
>>> r = check_expectation(lambda rng, n: rng.standard_normal((n, 2)).max(axis=1),
...                       1 / sp.sqrt(sp.pi), tol=0.02, seed=1)
>>> r.verdict.value, r.n <= 100_000
('supported', True)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike

from moetheory.engine.context import CheckContext
from moetheory.engine.display import TYPESET
from moetheory.engine.verdicts import Outcome, Verdict, symbolic_evidence
from moetheory.stats._intervals import MeanEstimate, mean_ci
from moetheory.stats._rounding import stable
from moetheory.stats._rules import RULES_MARKDOWN, Comparison, Label, compare
from moetheory.stats._sequential import RULE, RULE_MARKDOWN, Budget, run_sequential

__all__ = [
    "DEFAULT_MAX_N",
    "MAX_LOOKS",
    "SHAPE_MAX",
    "ExpectationResult",
    "Sampler",
    "check_expectation",
    "required_n",
]

#: ``sampler(rng, n)``: ``n`` independent draws of the quantity, from ``rng`` only.
Sampler = Callable[[np.random.Generator, int], ArrayLike]

#: Draws at most, per profile, when ``max_n`` is not given.
DEFAULT_MAX_N: dict[str, int] = {"quick": 100_000, "full": 1_000_000}

#: Most looks of the sequential design (fewer for small budgets: one look per 100 draws).
MAX_LOOKS = 10

#: Power the number of draws in an inconclusive result's reason is sized for.
_POWER = 0.9

#: The budget reported when no feasible number of draws decides.
_HUGE = 10**18

#: The random stream of :func:`required_n`'s pilot (the looks use streams 0 to 9).
_PILOT_STREAM = 2**31 - 1


@dataclass(frozen=True)
class ExpectationResult:
    """The verdict on a claimed expectation, with everything it rests on.

    Attributes
    ----------
    verdict : Verdict
        ``supported``, ``unsupported`` or ``inconclusive``.
    estimate : float
        The Monte Carlo mean.
    interval : tuple of float
        Its confidence interval at level :attr:`level`.
    n : int
        Draws used.
    tol : float
        Half-width of the band around the claimed value.
    alpha : float
        The error level of the whole check (split over the looks).
    rule : str
        The decision rule (``"equivalence"``, :data:`moetheory.stats.RULES`).
    seed : int
        The seed; the same seed gives the same result.
    reason : str
        One sentence: why this verdict; when inconclusive, how many draws would decide it.
    value : float
        The claimed value.
    closed_form : sympy.Expr or None
        The claimed value as given, when it was a SymPy expression.
    label : str
        What is estimated, as printed.
    level : float
        Level of the last look's interval, ``1 - alpha / max_looks``.
    max_n : int
        The budget of draws.
    needed_n : int or None
        When inconclusive: the budget that would decide it with probability about 0.9
        both if the claim is exact and if the mean is the estimate (:func:`required_n`),
        at least twice :attr:`max_n` (and enough to bring a skewness the tail
        diagnostics flagged within the level); ``None`` when decided, when the draws do
        not vary, when a tail diagnostic flags what more draws are not known to fix (a
        heavy tail), or when no budget of at most :math:`10^{18}` draws would decide.
    sd : float
        The draws' standard deviation.
    scope : dict
        What the evidence covers: the quantity, the band and the level.
    comparison : Comparison
        The last look's comparison.
    sequential : dict
        The sequential design and its history of looks.
    interval_method : str
        ``"t"`` (Student-t, gated by the tail diagnostics) or ``"empirical-bernstein"``
        (with declared bounds).
    tails : dict or None
        The tail diagnostics of the last look (Pareto shapes of both tails and the draws
        they rest on, skewness, the Edgeworth error and the one-sided level it is held
        to); ``None`` with bounds.
    reason_markdown : str
        :attr:`reason` as the notebook display writes it: Markdown, its intervals and
        numbers as maths (the same sentence; empty when not given).

    See Also
    --------
    check_expectation : builds it.

    Notes
    -----
    :meth:`to_outcome` gives the :class:`~moetheory.engine.verdicts.Outcome` a ``@claim``
    check returns; :meth:`to_dict` the JSON form.

    Examples
    --------
    >>> r = check_expectation(lambda rng, n: rng.uniform(size=n), 0.5, tol=0.05, max_n=2000)
    >>> r.verdict.value, r.to_dict()["verdict"], r.to_outcome().verdict.value
    ('supported', 'supported', 'supported')
    """

    verdict: Verdict
    estimate: float
    interval: tuple[float, float]
    n: int
    tol: float
    alpha: float
    rule: str
    seed: int
    reason: str
    value: float
    closed_form: sp.Expr | None
    label: str
    level: float
    max_n: int
    needed_n: int | None
    sd: float
    scope: dict[str, Any] = field(default_factory=dict)
    comparison: Comparison | None = None
    sequential: dict[str, Any] = field(default_factory=dict)
    interval_method: str = "t"
    tails: dict[str, Any] | None = None
    reason_markdown: str = ""

    def _value_text(self) -> str:
        if self.closed_form is None:
            return f"{stable(self.value)}"
        return f"{sp.sstr(self.closed_form)} ≈ {stable(self.value)}"

    def _value_latex(self) -> str:
        number = _tex(self.value)
        if self.closed_form is None:
            return number
        return f"{sp.latex(self.closed_form)} \\approx {number}"

    def summary(self) -> str:
        """One line: the estimate, its interval, n, the claimed value and the verdict.

        Returns
        -------
        str
            Plain text (numbers to 4 significant digits).

        Examples
        --------
        >>> r = check_expectation(lambda rng, n: rng.uniform(size=n), 0.5, tol=0.05, max_n=2000)
        >>> r.summary()
        'E[X] = 0.5028 (interval [0.4691, 0.5365], n = 600) within 0.05 of 0.5: supported'
        """
        low, high = self.interval
        relation = {Verdict.SUPPORTED: "within", Verdict.UNSUPPORTED: "farther than"}.get(
            self.verdict, "not decidedly within")
        return (f"{self.label} = {stable(self.estimate)} (interval [{stable(low)}, "
                f"{stable(high)}], n = {self.n}) {relation} {stable(self.tol)} of "
                f"{self._value_text()}: {self.verdict.value}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (numbers to 4 significant digits, the closed form as text and LaTeX).

        Returns
        -------
        dict
            Every attribute, JSON-ready, and under ``"typeset"``
            (:data:`~moetheory.engine.display.TYPESET`) the typeset form of its plain
            maths -- the label, the reason, the sequential rule -- for the notebook
            display.

        Examples
        --------
        >>> r = check_expectation(lambda rng, n: rng.uniform(size=n), 0.5, tol=0.05, max_n=2000)
        >>> r.to_dict()["interval"], r.to_dict()["n"]
        ([0.4691, 0.5365], 600)
        """
        return {
            "verdict": self.verdict.value,
            "label": self.label,
            "estimate": stable(self.estimate),
            "interval": [stable(self.interval[0]), stable(self.interval[1])],
            "level": self.level,
            "n": self.n,
            "max_n": self.max_n,
            "needed_n": self.needed_n,
            "value": stable(self.value),
            "closed_form": (None if self.closed_form is None
                            else symbolic_evidence(self.closed_form)),
            "tol": stable(self.tol),
            "alpha": self.alpha,
            "rule": self.rule,
            "seed": self.seed,
            "sd": stable(self.sd),
            "reason": self.reason,
            "scope": self.scope,
            "comparison": None if self.comparison is None else self.comparison.to_dict(),
            "sequential": self.sequential,
            "interval_method": self.interval_method,
            "tails": self.tails,
            TYPESET: self._typeset(),
        }

    def _typeset(self) -> dict[str, str]:
        """The typeset forms of the evidence's plain maths (``engine.display.TYPESET``)."""
        forms = {RULE: RULE_MARKDOWN}
        if isinstance(self.label, Label) and self.label.latex:
            forms[self.label] = self.label.latex
        elif self.label == "E[X]":
            forms[self.label] = f"${_label_latex(self.label)}$"
        if self.reason_markdown:
            forms[self.reason] = self.reason_markdown
        return forms

    def to_outcome(self) -> Outcome:
        """The outcome a ``@claim`` check returns: verdict, summary, evidence, derivation.

        Returns
        -------
        Outcome
            The same verdict; the evidence holds :meth:`to_dict`.

        Examples
        --------
        >>> r = check_expectation(lambda rng, n: rng.uniform(size=n), 0.6, tol=0.05, max_n=2000)
        >>> r.to_outcome().verdict
        <Verdict.UNSUPPORTED: 'unsupported'>
        """
        evidence = self.to_dict()
        return Outcome(
            self.verdict,
            self.summary(),
            evidence,
            derivation=self._repr_markdown_(),
            summary_latex=self._summary_latex(),
        )

    def _summary_latex(self) -> str:
        low, high = self.interval
        return (f"${_label_latex(self.label)} \\approx {_tex(self.estimate)}$, interval "
                f"$[{_tex(low)}, {_tex(high)}]$, $n = {self.n}$; claimed "
                f"${self._value_latex()} \\pm {_tex(self.tol)}$: {self.verdict.value}")

    def _repr_markdown_(self) -> str:
        """Markdown with typeset maths, as a notebook shows the result."""
        low, high = self.interval
        lo_band, hi_band = self.value - self.tol, self.value + self.tol
        return (
            f"**${_label_latex(self.label)}$: {self.verdict.value}**\n\n"
            f"$$\\widehat{{{_label_latex(self.label)}}} = {_tex(self.estimate)}, \\qquad "
            f"[{_tex(low)},\\ {_tex(high)}] \\text{{ at level }} {_tex(self.level)}, "
            f"\\qquad n = {self.n}$$\n\n"
            f"Claimed ${self._value_latex()}$ within $\\pm {_tex(self.tol)}$: the band "
            f"$[{_tex(lo_band)},\\ {_tex(hi_band)}]$. Rule ({self.rule}): "
            f"{RULES_MARKDOWN[self.rule]}. {self.reason_markdown or self.reason}\n"
        )


def _tex(x: float) -> str:
    return sp.latex(sp.Float(stable(x), 4)) if math.isfinite(x) else sp.latex(sp.sympify(x))


def _label_latex(label: str) -> str:
    return "\\mathbb{E}[X]" if label == "E[X]" else f"\\text{{{label}}}"


# --------------------------------------------------------------------------- validation


def _real(name: str, value: Any) -> float:
    if isinstance(value, bool | str | bytes | complex | np.complexfloating):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite real number, got {value!r}") from None
    if not math.isfinite(x):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    return x


def _claimed(value: Any) -> tuple[float, sp.Expr | None]:
    if isinstance(value, sp.Basic):
        if not isinstance(value, sp.Expr) or value.free_symbols:
            free = sorted(str(s) for s in value.free_symbols)
            raise ValueError(
                f"value must be a number or a closed form without free symbols, got "
                f"{sp.sstr(value)}" + (f" (free: {', '.join(free)})" if free else "")
            )
        number = sp.N(value, 30)
        if not number.is_real:
            raise ValueError(f"value must be real, got {sp.sstr(value)} = {sp.sstr(number)}")
        x = _real("value", number)
        return x, None if isinstance(value, sp.Float) else value
    return _real("value", value), None


def _tolerance(tol: Any) -> float:
    x = _real("tol", tol)
    if x <= 0:
        raise ValueError(f"tol must be a positive number (the band is value ± tol), got {tol!r}")
    return x


def _level(name: str, x: Any) -> float:
    a = _real(name, x)
    if not 0 < a < 1:
        raise ValueError(f"{name} must lie in (0, 1), got {x!r}")
    return a


def _seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def _count(name: str, n: Any, low: int = 2) -> int:
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {n!r}")
    return int(n)


def _bounds(bounds: Any) -> tuple[float, float] | None:
    if bounds is None:
        return None
    message = f"bounds must be (low, high) with finite real low < high, got {bounds!r}"
    try:
        lo, hi = bounds
        pair = _real("bounds", lo), _real("bounds", hi)
    except (TypeError, ValueError):
        raise ValueError(message) from None
    if not pair[0] < pair[1]:
        raise ValueError(message)
    return pair


def _draws(x: Any, size: int, bounds: tuple[float, float] | None = None) -> np.ndarray:
    if np.iscomplexobj(x):  # a cast to float would drop the imaginary parts silently
        raise ValueError("sampler(rng, n) must return n real numbers, got complex draws")
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"sampler(rng, n) must return n real numbers, got {type(x).__name__}"
        ) from None
    if arr.shape != (size,):
        raise ValueError(
            f"sampler(rng, n) must return a 1-D array of n = {size} draws, got shape "
            f"{arr.shape}"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError("sampler(rng, n) returned non-finite draws (nan or inf)")
    if bounds is not None and (arr.min() < bounds[0] or arr.max() > bounds[1]):
        raise ValueError(f"sampler(rng, n) returned draws outside bounds {bounds}: min "
                         f"{arr.min()}, max {arr.max()}")
    return arr


def _sampler(sampler: Any) -> Sampler:
    if not callable(sampler):
        raise TypeError(
            f"sampler must be a callable sampler(rng, n) returning n draws, got "
            f"{type(sampler).__name__}"
        )
    return sampler  # type: ignore[no-any-return]


def _design(max_n: int) -> Budget:
    looks = max(1, min(MAX_LOOKS, max_n // 100))
    return Budget(max_n // looks, looks)


# ------------------------------------------------------------ trusting the t interval


#: The largest Pareto tail shape under which the t interval is trusted: below 1/3 the third
#: moment is finite, so the normal approximation errs by :math:`O(n^{-1/2})` and the Edgeworth term
#: (:func:`_trust`) measures that error.
SHAPE_MAX = 1 / 3

#: Fewest distinct draws above a tail's threshold for its shape to be estimated.
_TAIL_MIN = 10

#: Fewest draws whose tails are judged: :math:`n/5 > ` :data:`_TAIL_MIN`.
_MIN_DRAWS = 5 * (_TAIL_MIN + 1)


def _gpd_shape(excess: np.ndarray) -> float:
    """Shape of a generalized Pareto fit to positive ``excess`` (sorted ascending), by the
    profile-likelihood-weighted estimator of Zhang and Stephens (2009), without a prior."""
    k = excess.size
    m = 30 + int(math.sqrt(k))
    b = (1 - np.sqrt(m / (np.arange(1, m + 1) - 0.5))) / (3 * excess[int(k / 4 + 0.5) - 1])
    b += 1 / excess[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        xi = np.log1p(-b[:, None] * excess).mean(axis=1)  # the shape given each b
        loglik = k * (np.log(-b / xi) - xi - 1)
    finite = np.isfinite(loglik)  # b = 0 exactly (ties can hit it) is a 0/0: left out
    b, loglik = b[finite], loglik[finite]
    if b.size == 0:
        return math.nan
    with np.errstate(over="ignore"):
        weights = 1 / np.exp(loglik - loglik[:, None]).sum(axis=1)
    b_post = float(np.sum(b * weights) / weights.sum())
    return float(np.log1p(-b_post * excess).mean())


def _tail_shape(x: np.ndarray) -> tuple[float, int]:
    """Pareto shape of the right tail of ``x`` and the draws above its threshold.

    The largest :math:`M = \\min(n/5, 3\\sqrt n)` draws (Vehtari et al. 2024) less the
    smallest of them; ``-inf`` when they are all equal (the tail is a point mass), ``nan``
    when fewer than :data:`_TAIL_MIN` of them exceed it or no fit exists (a shape unknown)."""
    n = x.size
    size = int(min(0.2 * n, 3 * math.sqrt(n)))
    if size < _TAIL_MIN + 1:
        return math.nan, 0
    top = np.sort(np.partition(x, n - size)[n - size:])
    excess = top[top > top[0]] - top[0]
    if excess.size == 0:
        return -math.inf, 0
    if excess.size < _TAIL_MIN:
        return math.nan, int(excess.size)
    return _gpd_shape(excess), int(excess.size)


@dataclass(frozen=True)
class _Trust:
    """Whether the normal approximation behind the t interval is trusted at these draws:
    ``reason`` is ``None`` if so; ``needed_n`` the draws that may make it trusted (``None``
    when more draws are not known to help); ``evidence`` the diagnostics."""

    reason: str | None
    needed_n: int | None
    evidence: dict[str, Any]


def _trust(x: np.ndarray, alpha: float) -> _Trust:
    """The tail diagnostics of ``check_expectation`` (its Notes) for an interval of level
    ``1 - alpha``."""
    from scipy import stats as sps

    n = x.size
    if n < _MIN_DRAWS:
        return _Trust(f"{n} draws are too few to judge the tails (at least {_MIN_DRAWS})",
                      _MIN_DRAWS, {"n": n})
    if float(np.ptp(x)) == 0:
        return _Trust("the draws do not vary, so nothing bounds a rare value they have not "
                      "shown (declare bounds for an interval valid at any n)", None,
                      {"constant": True})
    (right, k_right), (left, k_left) = _tail_shape(x), _tail_shape(-x)
    evidence: dict[str, Any] = {  # a shape not estimated (a point mass, too few) is None
        "shape_left": stable(left) if math.isfinite(left) else None,
        "shape_right": stable(right) if math.isfinite(right) else None,
        "tail_draws": [k_left, k_right], "shape_max": stable(SHAPE_MAX)}
    for side, shape, k in (("right", right, k_right), ("left", left, k_left)):
        if math.isnan(shape) and k < _TAIL_MIN:
            return _Trust(f"only {k} draws exceed the {side} tail's threshold (at least "
                          f"{_TAIL_MIN} needed to judge whether it is heavy)", None, evidence)
        if math.isnan(shape):
            return _Trust(f"no Pareto shape fits the {k} draws above the {side} tail's "
                          "threshold", None, evidence)
        if shape >= SHAPE_MAX:
            return _Trust(f"the {side} tail looks heavy: Pareto shape {stable(shape)} (from "
                          f"the {k} draws above its threshold) is at least 1/3, where the "
                          "third moment may be infinite and the t interval's normal "
                          "approximation cannot be trusted at any n this budget "
                          "reaches", None, evidence)
    mean, sd = float(x.mean()), float(x.std())
    skew = float(np.mean(((x - mean) / sd) ** 3))
    q = float(sps.t.ppf(1 - alpha / 2, n - 1))
    error = abs(skew) * (2 * q * q + 1) * float(sps.norm.pdf(q)) / (6 * math.sqrt(n))
    evidence.update(skewness=stable(skew), edgeworth_error=stable(error),
                    side_level=stable(alpha / 2))
    if error > alpha / 2:
        needed = math.ceil(n * (error / (alpha / 2)) ** 2)
        return _Trust(f"the draws' skewness {stable(skew)} makes the t interval's one-sided "
                      f"error about {stable(error)} (first Edgeworth term), above its level "
                      f"{stable(alpha / 2)}", needed, evidence)
    return _Trust(None, None, evidence)


def _bernstein_ci(x: np.ndarray, alpha: float, bounds: tuple[float, float]) -> MeanEstimate:
    """Empirical Bernstein interval of level ``1 - alpha`` for draws in ``bounds`` (Maurer
    and Pontil 2009, Theorem 4, on each side at ``alpha / 2``), valid at every n >= 2."""
    lo, hi = bounds
    n = x.size
    width = hi - lo
    log_term = math.log(4 / alpha)
    var = float(np.var((x - lo) / width, ddof=1))
    half = width * (math.sqrt(2 * var * log_term / n) + 7 * log_term / (3 * (n - 1)))
    mean = float(x.mean())
    low, high = max(lo, mean - half), min(hi, mean + half)
    return MeanEstimate(mean, low, high, n, 1 - alpha, "given",
                        clipped=(low, high) != (mean - half, mean + half), bounds=(lo, hi))


# ------------------------------------------------------------------------ sample sizes


def _enough(n: int, sd: float, margin: float, alpha: float, power: float) -> bool:
    from scipy import stats as sps  # SciPy only when a size is asked for

    looks = _design(n).max_looks
    q = float(sps.t.ppf(1 - alpha / (2 * looks), n - 1))
    return (q + float(sps.norm.ppf((1 + power) / 2))) * sd / math.sqrt(n) <= margin


def _thinnest(sd: float, alpha: float, power: float) -> float:
    """The thinnest margin some budget of at most ``_HUGE`` draws decides (see required_n)."""
    from scipy import stats as sps

    z = float(sps.norm.ppf(1 - alpha / (2 * MAX_LOOKS))) + float(sps.norm.ppf((1 + power) / 2))
    return z * sd / math.sqrt(_HUGE)


def _n_for(sd: float, margin: float, alpha: float, power: float) -> int:
    """The smallest budget (a multiple of its looks) with ``_enough``, see required_n."""
    from scipy import stats as sps

    if sd == 0:
        return 2
    if margin < _thinnest(sd, alpha, power):  # a margin too thin for any budget
        return _HUGE
    z_power = float(sps.norm.ppf((1 + power) / 2))
    n = 2
    for _ in range(MAX_LOOKS + 2):  # the looks only grow with n: a fixed point is reached
        looks = _design(n).max_looks
        z = float(sps.norm.ppf(1 - alpha / (2 * looks)))
        raw = ((z + z_power) * sd / margin) ** 2
        new = max(n, math.ceil(raw))
        if new == n:
            break
        n = new
    while not _enough(n, sd, margin, alpha, power):  # Student-t for small n
        n = math.ceil(n * 1.02) + 1
    looks = _design(n).max_looks
    return max(2, math.ceil(n / looks) * looks)


def _bernstein_n(sd: float, margin: float, alpha: float, power: float, width: float) -> int:
    """The smallest budget (a multiple of its looks) whose empirical Bernstein interval
    (:func:`_bernstein_ci`) plus ``power``'s normal quantile of the estimate's error fits in
    ``margin``; ``_HUGE`` if none does."""
    from scipy import stats as sps

    z_power = float(sps.norm.ppf((1 + power) / 2))

    def fits(n: int) -> bool:
        log_term = math.log(4 * _design(n).max_looks / alpha)
        return (sd * (math.sqrt(2 * log_term) + z_power) / math.sqrt(n)
                + 7 * width * log_term / (3 * (n - 1))) <= margin

    if not fits(_HUGE):
        return _HUGE
    low, high = 2, _HUGE  # fits(high), and fits only grows with n past the looks' steps
    while high - low > max(1, low // 1000):
        mid = (low + high) // 2
        low, high = (low, mid) if fits(mid) else (mid, high)
    looks = _design(high).max_looks
    return math.ceil(high / looks) * looks


def required_n(
    pilot_or_sampler: ArrayLike | Sampler,
    *,
    tol: float,
    alpha: float = 0.05,
    power: float = 0.9,
    offset: float = 0.0,
    pilot_n: int = 1000,
    seed: int = 0,
) -> int:
    r"""The ``max_n`` that lets :func:`check_expectation` decide, sized from a pilot.

    Parameters
    ----------
    pilot_or_sampler : array_like or callable
        Pilot draws (1-D, at least 2, finite), or a ``sampler(rng, n)`` that gives
        ``pilot_n`` of them.
    tol : float
        The band's half-width that :func:`check_expectation` will use (> 0).
    alpha : float
        Its error level, in (0, 1).
    power : float
        Probability of a decided verdict to aim for, in (0, 1).
    offset : float
        Assumed distance of the true mean from the claimed value (0: the claim is exact);
        an offset above ``tol`` sizes the budget for ``unsupported``.
    pilot_n : int
        Pilot draws taken from a sampler (at least 2).
    seed : int
        Seed of the pilot draws (a stream the check itself never uses).

    Returns
    -------
    int
        The budget :math:`n`, at least 2: pass it as ``max_n``.

    Raises
    ------
    TypeError
        If ``pilot_or_sampler`` is neither draws nor callable.
    ValueError
        For a bad ``tol``, ``alpha``, ``power``, ``pilot_n``, ``seed`` or pilot (complex
        draws included), an ``offset`` equal to ``tol`` (a mean on the band's edge is never
        decided), or a margin :math:`|\text{tol} - |\delta||` so thin for the pilot's
        spread that more than :math:`10^{18}` draws would be needed (the message gives the
        smallest ``tol`` allowed).

    See Also
    --------
    check_expectation : the check it sizes.

    Notes
    -----
    With :math:`s` the pilot's standard deviation, margin :math:`m = |\text{tol} -
    |\delta||` (:math:`\delta` = ``offset``) and :math:`K = \min(10, \max(1,
    \lfloor n/100 \rfloor))` the looks of the sequential design (the last look uses all
    :math:`n` draws at level :math:`1 - \alpha/K`), :math:`n` is the smallest multiple of
    :math:`K` with

    .. math::

        \left(t_{n-1,\,1-\alpha/(2K)} + z_{(1+\pi)/2}\right) \frac{s}{\sqrt n} \le m ,

    :math:`\pi` = ``power``. Then the interval's half-width plus the estimate's error is
    at most :math:`m` with probability about :math:`\pi`, so the interval lies inside the
    band (offset below ``tol``) or outside it (offset above ``tol``). The pilot's
    :math:`s` is itself an estimate: a pilot of a few hundred draws or more keeps it close.

    Examples
    --------
    Standard normal draws, a band of ±0.05: :math:`((2.81 + 1.64) / 0.05)^2 \approx 7900`
    from the formula with :math:`s = 1`; the pilot's :math:`s` moves it a little:

    >>> n = required_n(lambda rng, n: rng.standard_normal(n), tol=0.05, seed=0)
    >>> 7000 < n < 9500, n % 10
    (True, 0)
    """
    tol_ = _tolerance(tol)
    alpha_ = _level("alpha", alpha)
    power_ = _level("power", power)
    delta = abs(_real("offset", offset))
    if callable(pilot_or_sampler):
        size = _count("pilot_n", pilot_n)
        rng = np.random.default_rng([_seed(seed), _PILOT_STREAM])
        x = _draws(pilot_or_sampler(rng, size), size)
    else:
        _seed(seed)
        if np.iscomplexobj(pilot_or_sampler):
            raise ValueError("pilot_or_sampler: pilot draws must be real, got complex values")
        try:
            x = np.asarray(pilot_or_sampler, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(
                "pilot_or_sampler must be pilot draws (a 1-D array) or a sampler(rng, n), "
                f"got {type(pilot_or_sampler).__name__}"
            ) from None
        if x.ndim != 1 or x.size < 2 or not np.all(np.isfinite(x)):
            raise ValueError(
                f"pilot_or_sampler: pilot draws must be a 1-D array of at least 2 finite "
                f"values, got shape {x.shape}"
            )
    margin = abs(tol_ - delta)
    if margin == 0:
        raise ValueError(
            f"offset must differ from tol ({tol_}): a mean on the band's edge is never decided"
        )
    sd = float(x.std(ddof=1))
    thinnest = _thinnest(sd, alpha_, power_)
    if margin < thinnest:
        what = (f"tol must be at least {thinnest:.3g}" if delta == 0 else
                f"offset must differ from tol ({tol_}) by at least {thinnest:.3g}")
        raise ValueError(f"{what} for these pilot draws (sd = {stable(sd)}): a margin "
                         f"|tol - |offset|| of {margin:.3g} needs more than 10^18 draws")
    return _n_for(sd, margin, alpha_, power_)


# ------------------------------------------------------------------------------ the check


def check_expectation(
    sampler: Sampler,
    value: Any,
    *,
    tol: float,
    alpha: float | None = None,
    seed: int | None = None,
    max_n: int | None = None,
    ctx: CheckContext | None = None,
    label: str = "E[X]",
    bounds: tuple[float, float] | None = None,
) -> ExpectationResult:
    """Is the mean of ``sampler``'s draws within ``tol`` of the claimed ``value``?

    Parameters
    ----------
    sampler : callable
        ``sampler(rng, n)`` returns ``n`` independent draws (a 1-D array) using only the
        NumPy generator ``rng``.
    value : float or sympy.Expr
        The claimed expectation: a number, or a closed form without free symbols (shown
        as written in the result).
    tol : float
        Half-width of the band ``[value - tol, value + tol]``, fixed before drawing (> 0).
    alpha : float, optional
        Error level in (0, 1): the probability that the verdict's interval misses the mean.
        Default ``ctx.alpha`` with a context, else 0.05.
    seed : int, optional
        Seed (non-negative). Default ``ctx.seed`` with a context, else 0.
    max_n : int, optional
        Most draws (at least 2). Default by the context's profile: 100 000 (quick) or 1 000 000
        (full); 100 000 without a context.
    ctx : CheckContext, optional
        The context of the ``@claim`` check calling it: gives the claim's error level,
        seed and profile, so the check is calibrated like the catalogue's.
    label : str
        What is estimated, as printed; a :class:`~moetheory.stats.Label` carries its
        typeset form to the notebook display (the default label is typeset as
        :math:`\\mathbb{E}[X]`).
    bounds : (float, float), optional
        A range ``(low, high)`` every draw lies in, when one is known (a gate value in
        ``(0, 1)``, an indicator): the interval is then empirical Bernstein, valid at every
        ``n`` whatever the distribution, and draws outside it are an error.

    Returns
    -------
    ExpectationResult
        Verdict, estimate, interval, draws used, reason; ``.to_outcome()`` for a check.

    Raises
    ------
    TypeError
        If ``sampler`` is not callable or ``ctx`` is not a CheckContext.
    ValueError
        For a bad ``value``, ``tol``, ``alpha``, ``seed``, ``max_n``, ``label`` or
        ``bounds`` (checked before any draw), or draws that are not ``n`` finite real
        numbers (or leave ``bounds``).

    See Also
    --------
    required_n : the ``max_n`` to pass.
    moetheory.stats.compare : the equivalence rule.
    moetheory.stats.run_sequential : the sequential design.

    Notes
    -----
    The draws come in :math:`K = \\min(10, \\max(1, \\lfloor \\text{max\\_n}/100 \\rfloor))`
    looks of :math:`\\lfloor \\text{max\\_n}/K \\rfloor` each; look :math:`k` draws from
    ``numpy.random.default_rng([seed, k])``. At each look an interval of the mean of all
    draws so far has level :math:`1 - \\alpha/K` (Bonferroni over the looks), and the run
    stops at the first decided look. With :math:`[\\ell, u]` the interval, :math:`v` =
    ``value`` and :math:`t` = ``tol``: ``supported`` iff :math:`v - t \\le \\ell` and
    :math:`u \\le v + t`; ``unsupported`` iff :math:`u < v - t` or :math:`\\ell > v + t`;
    ``inconclusive`` otherwise. A wrong verdict (a true claim, :math:`|\\mu - v| \\le t`,
    called ``unsupported``, or a false one ``supported``) needs an interval that misses
    :math:`\\mu`, so its probability is at most :math:`\\alpha` when the intervals hold
    their level.

    *With* ``bounds`` :math:`[a, b]` the interval is the empirical Bernstein bound of
    Maurer and Pontil [1]_ (Theorem 4, each side at :math:`\\alpha/(2K)`):
    :math:`\\bar x \\pm (b - a)\\bigl(\\sqrt{2 V L / n} + 7L/(3(n-1))\\bigr)`, :math:`V` the
    sample variance of :math:`(x - a)/(b - a)` and :math:`L = \\log(4K/\\alpha)`. It holds
    at every :math:`n` for every distribution on :math:`[a, b]`: rare events and skewed
    gate values included.

    *Without* bounds no interval for a mean holds its level at finite :math:`n` over all
    distributions (Bahadur and Savage [2]_: a rare value far out moves the mean as much as
    it likes). The Student-t interval's error is that of the normal approximation, which
    heavy right tails (a softmax numerator :math:`e^{3Z}`, a partition function) break at
    every budget: the sample mean is then usually below :math:`\\mu` and the sample
    variance too small, so a true claim comes back ``unsupported`` far more often than
    :math:`\\alpha`. A look's decision therefore stands only if these diagnostics of its
    draws trust the approximation, and is ``inconclusive`` (with the reason) otherwise:

    1. the draws vary (constant draws bound nothing);
    2. each tail's Pareto shape :math:`\\hat\\xi` -- a generalized Pareto fit (Zhang and
       Stephens [3]_) to the excesses of the largest :math:`M = \\min(n/5, 3\\sqrt n)`
       draws over the smallest of them, as in the :math:`\\hat k` diagnostic of Vehtari et
       al. [4]_ -- is below 1/3 (:data:`SHAPE_MAX`), with at least 10 draws above the
       threshold, so at least 55 draws in all (all equal: a point mass, no tail; a fit
       that fails withholds the verdict too). A Pareto tail of shape
       :math:`\\xi` has moments of order below :math:`1/\\xi` only; below 1/3 the third
       moment is finite, the Berry-Esseen rate :math:`n^{-1/2}` holds and the skewness
       below is a consistent estimate of the error. The diagnostic reads the tail's shape,
       not whether its largest values happened to be drawn; a lognormal's tail looks
       Pareto-like with a large shape at every feasible :math:`n` (e.g. :math:`\\hat\\xi
       \\approx 1` for :math:`e^{3Z}` at :math:`n = 10^5`), which is exactly the regime where
       the t interval fails;
    3. the first Edgeworth term of the Studentized mean (Hall [5]_, Section 2.6),
       :math:`P(T \\le x) = \\Phi(x) + n^{-1/2}\\,\\hat\\gamma\\,(2x^2 + 1)\\,\\phi(x)/6 +
       O(n^{-1})` with :math:`\\hat\\gamma` the sample skewness, puts the one-sided error
       at the interval's quantile :math:`q` at most the one-sided level
       :math:`\\alpha/(2K)`. With Bonferroni over highly correlated looks (10 looks of a
       normal statistic need :math:`q = 2.56`, Pocock [6]_, where Bonferroni uses 2.81 at
       :math:`\\alpha = 0.05`) the run keeps :math:`\\alpha` to this order. A rare event
       (an indicator of probability :math:`p`, :math:`\\gamma \\approx p^{-1/2}`) is decided
       only once :math:`np` events make this small; ``bounds`` decide it sooner.

    No diagnostic sees a value too rare to appear among the draws at all (probability well
    below :math:`1/n` at the deciding look; the first look has a tenth of ``max_n``): the
    draws are then those of another distribution, with another mean, and the verdict is
    about that one. Choose ``max_n`` so that every value that matters is drawn several
    times, or declare ``bounds``.

    The diagnostics only ever withhold a verdict; the level of the decisions left rests on
    the normal approximation being accurate where they pass, which the tests measure over a
    bank of light, skewed, heavy-tailed (lognormal with :math:`\\sigma` up to 3, Pareto of
    finite variance), rare-event and bounded distributions at 100 seeds each. An
    inconclusive result's reason gives the budget (:func:`required_n`, power 0.9, the
    draws' standard deviation; with ``bounds`` the Bernstein interval's) that would decide
    it both if the claim is exact and if the mean is the estimate, at least twice
    ``max_n``; when a diagnostic withholds the verdict, the budget the skewness term
    needs, or none when more draws are not known to help (a heavy tail).

    References
    ----------
    .. [1] A. Maurer and M. Pontil, "Empirical Bernstein bounds and sample variance
       penalization", COLT 2009, Theorem 4.
    .. [2] R. R. Bahadur and L. J. Savage, "The nonexistence of certain statistical
       procedures in nonparametric problems", Ann. Math. Statist. 27 (1956) 1115-1122.
    .. [3] J. Zhang and M. A. Stephens, "A new and efficient estimation method for the
       generalized Pareto distribution", Technometrics 51 (2009) 316-325.
    .. [4] A. Vehtari, D. Simpson, A. Gelman, Y. Yao and J. Gabry, "Pareto smoothed
       importance sampling", JMLR 25(72) (2024) 1-58.
    .. [5] Peter Hall, *The Bootstrap and Edgeworth Expansion*, Springer (1992).
    .. [6] S. J. Pocock, "Group sequential methods in the design and analysis of clinical
       trials", Biometrika 64 (1977) 191-199.

    Examples
    --------
    The expected top score of two experts with independent standard normal scores is
    :math:`1/\\sqrt{\\pi}`; :math:`\\sqrt{2/\\pi}` (the mean of :math:`|Z|`) is not:

    >>> import sympy as sp
    >>> top = lambda rng, n: rng.standard_normal((n, 2)).max(axis=1)
    >>> check_expectation(top, 1 / sp.sqrt(sp.pi), tol=0.01).verdict.value
    'supported'
    >>> check_expectation(top, sp.sqrt(2 / sp.pi), tol=0.01).verdict.value
    'unsupported'
    >>> r = check_expectation(top, 1 / sp.sqrt(sp.pi), tol=0.01, max_n=100)
    >>> r.verdict.value, r.needed_n > 100
    ('inconclusive', True)
    """
    draw_from = _sampler(sampler)
    if ctx is not None and not isinstance(ctx, CheckContext):
        raise TypeError(f"ctx must be the check's CheckContext, got {type(ctx).__name__}")
    v, closed = _claimed(value)
    tol_ = _tolerance(tol)
    alpha_ = _level("alpha", alpha if alpha is not None else (ctx.alpha if ctx else 0.05))
    seed_ = _seed(seed if seed is not None else (ctx.seed if ctx else 0))
    profile = ctx.profile if ctx is not None else "quick"
    budget_n = _count("max_n", max_n if max_n is not None else DEFAULT_MAX_N[profile])
    if not isinstance(label, str) or not label.strip():
        raise ValueError(f"label must be a non-empty string, got {label!r}")
    range_ = _bounds(bounds)
    budget = _design(budget_n)

    def draw(look: int, size: int) -> dict[str, np.ndarray]:
        rng = np.random.default_rng([seed_, look])
        return {"x": _draws(draw_from(rng, size), size, range_)}

    def judge(data: dict[str, np.ndarray], a: float) -> list[Comparison]:
        x = data["x"]
        if range_ is not None:
            return [compare(label, _bernstein_ci(x, a, range_), v, tol_)]
        comp = compare(label, mean_ci(x, a), v, tol_)
        if comp.verdict is not Verdict.INCONCLUSIVE and _trust(x, a).reason is not None:
            comp = replace(comp, verdict=Verdict.INCONCLUSIVE)
        return [comp]

    seq = run_sequential(draw, judge, alpha_, budget)
    comp = seq.comparisons[0]
    est = comp.estimate
    x = seq.data["x"]
    sd = float(x.std(ddof=1))
    reference = comp.reference  # the claimed value (moved only by the calibration hook)
    trust = None if range_ is not None else _trust(x, seq.alpha_look)

    # sized once per margin, whichever words the reason is written in
    if range_ is not None:
        width = range_[1] - range_[0]
        size_for = functools.cache(lambda m: _bernstein_n(sd, m, alpha_, _POWER, width))
    else:
        size_for = functools.cache(lambda m: _n_for(sd, m, alpha_, _POWER))

    def why(words: _Words) -> tuple[int | None, str]:
        needed, reason = _reason(comp, size_for, budget_n, words)
        if trust is not None and trust.reason is not None:
            return _untrusted(comp, trust, needed, budget_n, words)
        return needed, reason

    needed, reason = why(_Words(markup=False))
    return ExpectationResult(
        verdict=comp.verdict,
        estimate=est.mean,
        interval=(est.low, est.high),
        n=seq.n,
        tol=tol_,
        alpha=alpha_,
        rule=comp.rule,
        seed=seed_,
        reason=reason,
        value=reference,
        closed_form=closed,
        label=label,
        level=est.level,
        max_n=budget_n,
        needed_n=needed,
        sd=sd,
        scope={"quantity": label, "band": [stable(reference - tol_), stable(reference + tol_)],
               "level": est.level, "n": seq.n,
               "interval": "t" if range_ is None else f"empirical-bernstein on {list(range_)}"},
        comparison=comp,
        sequential=seq.evidence(),
        interval_method="t" if range_ is None else "empirical-bernstein",
        tails=None if trust is None else trust.evidence,
        reason_markdown=why(_Words(markup=True))[1],
    )


@dataclass(frozen=True)
class _Words:
    """How a reason writes its numbers: plain text, or Markdown with them as maths."""

    markup: bool

    def number(self, x: float) -> str:
        return f"${_tex(x)}$" if self.markup else f"{stable(x)}"

    def interval(self, est: MeanEstimate, kind: str = "") -> str:
        if self.markup:
            return (f"the {kind}interval $[{_tex(est.low)}, {_tex(est.high)}]$ "
                    f"($n = {est.n}$)")
        return f"the {kind}interval [{stable(est.low)}, {stable(est.high)}] (n = {est.n})"

    def band(self, low: float, high: float) -> str:
        if self.markup:
            return f"$[{_tex(low)}, {_tex(high)}]$"
        return f"[{stable(low)}, {stable(high)}]"

    def budget(self, needed: int, max_n: int) -> str:
        """The argument that sets the budget, and the budget now."""
        arg = f"max_n={needed}"
        return f"{f'`{arg}`' if self.markup else arg}; {max_n} now"

    def most(self) -> str:
        """The largest budget any verdict is sized for (``_HUGE``)."""
        return "$10^{18}$" if self.markup else "10^18"


def _untrusted(comp: Comparison, trust: _Trust, needed: int | None,
               max_n: int, words: _Words) -> tuple[int | None, str]:
    """The reason when the tail diagnostics withhold the verdict; ``needed`` the budget the
    interval alone would need (:func:`_reason`)."""
    interval = words.interval(comp.estimate, "t ")
    if trust.needed_n is None or needed is None:
        return None, f"{interval} is not trusted: {trust.reason}; no verdict either way."
    needed = max(trust.needed_n, needed, 2 * max_n)
    return needed, (f"{interval} is not trusted: {trust.reason}; no verdict either way. "
                    f"About {needed} draws ({words.budget(needed, max_n)}) would bring that "
                    "error below the level and decide it.")


def _reason(comp: Comparison, size_for: Callable[[float], int],
            max_n: int, words: _Words) -> tuple[int | None, str]:
    """Why ``comp`` has its verdict; when inconclusive, the budget ``size_for(margin)``
    that decides it (:func:`_n_for`, or :func:`_bernstein_n` with bounds), in ``words``."""
    est, v, t = comp.estimate, comp.reference, comp.tolerance
    interval = words.interval(est)
    band = words.band(v - t, v + t)
    if comp.verdict is Verdict.SUPPORTED:
        return None, f"{interval} lies inside the band {band}."
    if comp.verdict is Verdict.UNSUPPORTED:
        return None, f"{interval} lies entirely outside the band {band}."
    exact = size_for(t)  # the budget that supports an exact claim
    if exact >= _HUGE:
        return None, (f"{interval} overlaps an edge of the band {band}: no feasible budget "
                      f"({words.most()} draws) decides a band this thin for draws this "
                      "spread; only another tol would.")
    margin = abs(t - abs(est.mean - v))
    near = size_for(margin) if margin > 0 else math.inf
    if near > 100 * exact:
        needed = max(exact, 2 * max_n)
        return needed, (f"{interval} overlaps an edge of the band {band}: about {needed} "
                        f"draws ({words.budget(needed, max_n)}) would support the claim if it "
                        f"is exact, but the estimate {words.number(est.mean)} lies near the "
                        "band's edge, where no budget decides reliably.")
    needed = max(exact, int(near), 2 * max_n)
    return needed, (f"{interval} overlaps an edge of the band {band}: about {needed} draws "
                    f"({words.budget(needed, max_n)}) would decide it, whether the claim is "
                    f"exact or the mean is near the estimate {words.number(est.mean)}.")
