"""Check a closed form for an expectation by Monte Carlo, as the catalogue's checks do.

:func:`check_expectation` draws from the user's ``sampler(rng, n)`` in batches
(:func:`~moetheory.stats.run_sequential`, Bonferroni over the looks), builds a Student-t
interval for the mean (:func:`~moetheory.stats.mean_ci`) and decides it against the claimed
value with the equivalence rule (:func:`~moetheory.stats.compare`): ``supported`` iff the
interval lies inside ``[value - tol, value + tol]``, ``unsupported`` iff it lies entirely
outside, ``inconclusive`` otherwise, with the number of draws that would decide it.
:func:`required_n` sizes that number from a pilot.

Examples
--------
>>> import numpy as np, sympy as sp
>>> r = check_expectation(lambda rng, n: rng.standard_normal((n, 2)).max(axis=1),
...                       1 / sp.sqrt(sp.pi), tol=0.02, seed=1)
>>> r.verdict.value, r.n <= 100_000
('supported', True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike

from moetheory.engine.context import CheckContext
from moetheory.engine.verdicts import Outcome, Verdict, symbolic_evidence
from moetheory.stats._intervals import mean_ci
from moetheory.stats._rounding import stable
from moetheory.stats._rules import RULES, Comparison, compare
from moetheory.stats._sequential import Budget, run_sequential

__all__ = [
    "DEFAULT_MAX_N",
    "MAX_LOOKS",
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
        at least twice :attr:`max_n`; ``None`` when decided, when the draws do not
        vary, or when no budget of at most :math:`10^{18}` draws would decide.
    sd : float
        The draws' standard deviation.
    scope : dict
        What the evidence covers: the quantity, the band and the level.
    comparison : Comparison
        The last look's comparison.
    sequential : dict
        The sequential design and its history of looks.

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
        >>> r = check_expectation(lambda rng, n: np.ones(n), 1, tol=0.1, max_n=10)
        >>> r.summary()
        'E[X] = 1.0 (interval [1.0, 1.0], n = 10) within 0.1 of 1.0: supported'
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
            Every attribute, JSON-ready.

        Examples
        --------
        >>> r = check_expectation(lambda rng, n: np.ones(n), 1, tol=0.1, max_n=10)
        >>> r.to_dict()["interval"], r.to_dict()["n"]
        ([1.0, 1.0], 10)
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
        }

    def to_outcome(self) -> Outcome:
        """The outcome a ``@claim`` check returns: verdict, summary, evidence, derivation.

        Returns
        -------
        Outcome
            The same verdict; the evidence holds :meth:`to_dict`.

        Examples
        --------
        >>> r = check_expectation(lambda rng, n: np.ones(n), 2, tol=0.1, max_n=10)
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
            f"**{self.label}: {self.verdict.value}**\n\n"
            f"$$\\widehat{{{_label_latex(self.label)}}} = {_tex(self.estimate)}, \\qquad "
            f"[{_tex(low)},\\ {_tex(high)}] \\text{{ at level }} {_tex(self.level)}, "
            f"\\qquad n = {self.n}$$\n\n"
            f"Claimed ${self._value_latex()}$ within $\\pm {_tex(self.tol)}$: the band "
            f"$[{_tex(lo_band)},\\ {_tex(hi_band)}]$. Rule ({self.rule}): "
            f"{RULES[self.rule]}. {self.reason}\n"
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


def _draws(x: Any, size: int) -> np.ndarray:
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
        decided), or a margin :math:`|\\text{tol} - |\\delta||` so thin for the pilot's
        spread that more than :math:`10^{18}` draws would be needed (the message gives the
        smallest ``tol`` allowed).

    See Also
    --------
    check_expectation : the check it sizes.

    Notes
    -----
    With :math:`s` the pilot's standard deviation, margin :math:`m = |\\text{tol} -
    |\\delta||` (:math:`\\delta` = ``offset``) and :math:`K = \\min(10, \\max(1,
    \\lfloor n/100 \\rfloor))` the looks of the sequential design (the last look uses all
    :math:`n` draws at level :math:`1 - \\alpha/K`), :math:`n` is the smallest multiple of
    :math:`K` with

    .. math::

        \\left(t_{n-1,\\,1-\\alpha/(2K)} + z_{(1+\\pi)/2}\\right) \\frac{s}{\\sqrt n} \\le m ,

    :math:`\\pi` = ``power``. Then the interval's half-width plus the estimate's error is
    at most :math:`m` with probability about :math:`\\pi`, so the interval lies inside the
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
        Seed (>= 0). Default ``ctx.seed`` with a context, else 0.
    max_n : int, optional
        Most draws (>= 2). Default by the context's profile: 100 000 (quick) or 1 000 000
        (full); 100 000 without a context.
    ctx : CheckContext, optional
        The context of the ``@claim`` check calling it: gives the claim's error level,
        seed and profile, so the check is calibrated like the catalogue's.
    label : str
        What is estimated, as printed.

    Returns
    -------
    ExpectationResult
        Verdict, estimate, interval, draws used, reason; ``.to_outcome()`` for a check.

    Raises
    ------
    TypeError
        If ``sampler`` is not callable or ``ctx`` is not a CheckContext.
    ValueError
        For a bad ``value``, ``tol``, ``alpha``, ``seed``, ``max_n`` or ``label``
        (checked before any draw), or draws that are not ``n`` finite numbers.

    See Also
    --------
    required_n : the ``max_n`` to pass.
    moetheory.stats.compare : the equivalence rule.
    moetheory.stats.run_sequential : the sequential design.

    Notes
    -----
    The draws come in :math:`K = \\min(10, \\max(1, \\lfloor \\text{max\\_n}/100 \\rfloor))`
    looks of :math:`\\lfloor \\text{max\\_n}/K \\rfloor` each; look :math:`k` draws from
    ``numpy.random.default_rng([seed, k])``. At each look the Student-t interval of the
    mean of all draws so far has level :math:`1 - \\alpha/K` (Bonferroni over the looks),
    and the run stops at the first decided look. With :math:`[\\ell, u]` the interval,
    :math:`v` = ``value`` and :math:`t` = ``tol``: ``supported`` iff :math:`v - t \\le
    \\ell` and :math:`u \\le v + t`; ``unsupported`` iff :math:`u < v - t` or :math:`\\ell >
    v + t`; ``inconclusive`` otherwise. Whatever the stopping look, the probability that a
    true claim (:math:`|\\mu - v| \\le t`) is called ``unsupported``, or a false one
    supported, is at most :math:`\\alpha` (asymptotically: the t interval). An
    inconclusive result's reason gives the budget (:func:`required_n`, power 0.9, the
    draws' standard deviation) that would decide it both if the claim is exact and if the
    mean is the estimate, at least twice ``max_n``.

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
    budget = _design(budget_n)

    def draw(look: int, size: int) -> dict[str, np.ndarray]:
        rng = np.random.default_rng([seed_, look])
        return {"x": _draws(draw_from(rng, size), size)}

    def judge(data: dict[str, np.ndarray], a: float) -> list[Comparison]:
        return [compare(label, mean_ci(data["x"], a), v, tol_)]

    seq = run_sequential(draw, judge, alpha_, budget)
    comp = seq.comparisons[0]
    est = comp.estimate
    x = seq.data["x"]
    sd = float(x.std(ddof=1))
    reference = comp.reference  # the claimed value (moved only by the calibration hook)
    needed, reason = _reason(comp, sd, alpha_, budget_n)
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
               "level": est.level, "n": seq.n},
        comparison=comp,
        sequential=seq.evidence(),
    )


def _reason(comp: Comparison, sd: float, alpha: float, max_n: int) -> tuple[int | None, str]:
    est, v, t = comp.estimate, comp.reference, comp.tolerance
    interval = f"the interval [{stable(est.low)}, {stable(est.high)}] (n = {est.n})"
    band = f"[{stable(v - t)}, {stable(v + t)}]"
    if comp.verdict is Verdict.SUPPORTED:
        return None, f"{interval} lies inside the band {band}."
    if comp.verdict is Verdict.UNSUPPORTED:
        return None, f"{interval} lies entirely outside the band {band}."
    if sd == 0:
        return None, (f"{interval} overlaps an edge of the band {band} and the draws do not "
                      "vary: more draws would not decide it; only another tol would.")
    exact = _n_for(sd, t, alpha, _POWER)  # the budget that supports an exact claim
    if exact >= _HUGE:
        return None, (f"{interval} overlaps an edge of the band {band}: no feasible budget "
                      "(10^18 draws) decides a band this thin for draws this spread; only "
                      "another tol would.")
    margin = abs(t - abs(est.mean - v))
    near = _n_for(sd, margin, alpha, _POWER) if margin > 0 else math.inf
    if near > 100 * exact:
        needed = max(exact, 2 * max_n)
        return needed, (f"{interval} overlaps an edge of the band {band}: about {needed} "
                        f"draws (max_n={needed}; {max_n} now) would support the claim if it "
                        f"is exact, but the estimate {stable(est.mean)} lies near the band's "
                        "edge, where no budget decides reliably.")
    needed = max(exact, int(near), 2 * max_n)
    return needed, (f"{interval} overlaps an edge of the band {band}: about {needed} draws "
                    f"(max_n={needed}; {max_n} now) would decide it, whether the claim is "
                    f"exact or the mean is near the estimate {stable(est.mean)}.")
