"""Replicates sized from a pilot: the n a statistical claim's tolerance needs at its α.

A statistical check runs a *pilot* (a few replicates on a stream of its own, judged with the
shipped claimed values and never entering a verdict), sizes its main run from the pilot's
comparisons (:func:`needed_factor` for intervals, :func:`spec_factor` for the values behind
them), and runs ``n = clip(needed, floor, budget)`` replicates (:func:`plan_from_pilot`; the
floor when the pilot asks for more than four budgets: the budget would most likely not decide
either). The budget is a number of replicates per claim and profile, fixed in advance from
the CPU seconds a replicate costs on the reference machine, so the same master seed gives
the same verdict anywhere. :class:`Plan` records the plan in the evidence and
:func:`power_note` says, for an ``inconclusive`` verdict, whether the budget or the
mathematics left it open and how many replicates would decide it. Moved here from the
continual-learning checks (issue 32), which keep their budgets.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from moetheory.engine.verdicts import Verdict
from moetheory.stats._intervals import MeanEstimate, betting_ci, mean_ci, proportion_ci
from moetheory.stats._rules import Comparison, at_least, at_most, claimed_values, compare, greater

__all__ = [
    "BETTING_LIMIT",
    "POWER",
    "Plan",
    "Spec",
    "clip_replicates",
    "comparison_factor",
    "decide_all",
    "edge_note",
    "needed_factor",
    "plan_from_pilot",
    "power_note",
    "spec_factor",
    "specs_factor",
]

#: Probability of a decided verdict the main run is sized for.
POWER = 0.9


def clip_replicates(needed: int | None, floor: int, budget: int) -> int:
    """Replicates to run: ``needed`` clipped to ``[floor, budget]``.

    Parameters
    ----------
    needed : int or None
        Replicates the pilot asks for (``None``: it could not size).
    floor, budget : int
        Fewest and most replicates.

    Returns
    -------
    int
        ``needed`` within ``[floor, budget]``; the floor when the pilot asks for more than
        four budgets or cannot size.

    Notes
    -----
    Beyond four budgets the budget would most likely not decide either, and the CPU is
    better left to the claims it can decide.

    See Also
    --------
    plan_from_pilot : uses it.

    Examples
    --------
    >>> clip_replicates(30, 5, 20), clip_replicates(90, 5, 20), clip_replicates(None, 5, 20)
    (20, 5, 5)
    """
    if needed is None or needed > 4 * budget:
        return floor
    return min(max(needed, floor), budget)


def _run_size(needed: int | None, floor: int, budget: int, multiple: int = 1,
              doubling: bool = False) -> int:
    """Replicates to run for ``needed``: :func:`clip_replicates`, then rounded up within the
    budget to a multiple of ``multiple`` and, with ``doubling``, above the floor to the floor
    times a power of 2 (runs shared in chunks or doubling batches share whole ones)."""
    n = clip_replicates(needed, floor, budget)
    n = min(budget, multiple * math.ceil(n / multiple))
    if doubling and n > floor:
        n = min(budget, floor * 2 ** math.ceil(math.log2(n / floor)))
    return n


def _asked(n: int, factor: float | None) -> int | None:
    """Replicates ``factor`` times a run of ``n`` asks for, at least 2; ``None`` when the
    factor is ``None`` or infinite (not sizable)."""
    if factor is None or not math.isfinite(factor):
        return None
    return max(2, math.ceil(n * factor))


def _asked_by(comps: Sequence[Comparison], n: int) -> int | None:
    """Replicates the comparisons ``comps`` of a run of ``n`` ask for (:func:`needed_factor`,
    :func:`_asked`); ``None`` when they cannot size it or there are none."""
    return _asked(n, needed_factor(comps) if comps else None)


def _degrees_of_freedom(est: MeanEstimate, n: float | None = None) -> float | None:
    """Degrees of freedom behind a Student-t interval of ``n`` replicates (default: the
    estimate's own; ``None`` for other methods): n - 1, and for the Welch fit over a grid
    of 3 points about n/3 - 1 (its smallest group's)."""
    return _dof(est.method, est.n if n is None else n)


def _dof(method: str, n: float) -> float | None:
    if method == "t":
        return max(n - 1.0, 1.0)
    if method.startswith("welch"):
        return max(n / 3 - 1.0, 1.0)
    return None


def _fewest(method: str) -> float:
    """The fewest replicates with one degree of freedom (2 for the t interval, 6 for Welch)."""
    return 6.0 if method.startswith("welch") else 2.0


def _student_power(n: float, df: float, tail: float, margin: float, sd: float) -> float:
    """Probability that a Student interval of ``n`` normal values (deviation ``sd``, ``df``
    degrees of freedom, one-sided ``tail``) clears a boundary ``margin`` from their mean: the
    noncentral t's :math:`P(T_{df}(\\delta) > t_{df, 1 - tail})`, :math:`\\delta = m
    \\sqrt n / s`. The sample deviation is random too, which at a few replicates and a
    Student quantile above 10 decides most of the power."""
    from scipy import stats as sps  # SciPy only where a size is computed

    q = float(sps.t.ppf(1 - tail, df))
    return float(sps.nct.sf(q, df, margin * math.sqrt(n) / sd))


def _student_size(method: str, tail: float, margin: float, sd: float, power: float,
                  most: float = 1e9) -> float:
    """The fewest replicates (real; continuous in ``n``) at which :func:`_student_power`
    of the interval ``method`` reaches ``power``: bisection, the power increasing with
    ``n``; ``inf`` beyond ``most``."""
    lo = _fewest(method)

    def ok(n: float) -> bool:
        df = _dof(method, n)
        assert df is not None
        return _student_power(n, df, tail, margin, sd) >= power

    if sd <= 0 or ok(lo):
        return lo
    hi = 2 * lo
    while not ok(hi):
        lo, hi = hi, 2 * hi
        if lo > most:
            return math.inf
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi if hi <= most else math.inf


def _t_quantile(tail: float, df: float | None) -> float:
    """Upper ``tail`` quantile of Student's t with ``df`` degrees (normal if ``None``)."""
    if df is None:
        return NormalDist().inv_cdf(1 - tail)
    from scipy import stats as sps  # SciPy only where a size is computed

    return float(sps.t.ppf(1 - tail, df))


def _side_factor(n_factor_scale: float, half: float, margin: float) -> float:
    return (n_factor_scale * half / margin) ** 2


def comparison_factor(comp: Comparison, power: float = POWER) -> tuple[float, str] | None:
    """How many times its replicates a comparison needs to be decided with probability ``power``.

    Parameters
    ----------
    comp : Comparison
        A pilot comparison (its interval at the check's level).
    power : float
        Probability of a decided verdict aimed for, in (0, 1).

    Returns
    -------
    (factor, side) or None
        ``factor`` times the pilot's replicates, and the verdict it is sized for
        (``"supported"`` or ``"unsupported"``); ``None`` when the pilot cannot size it (no
        finite interval, or an estimate on every decision boundary).

    Notes
    -----
    With the pilot's estimate :math:`\\hat\\mu`, the interval's half-width :math:`h_0` on the
    side facing a decision boundary at distance :math:`m` (for the rule of
    :mod:`moetheory.stats`: the band's edges, the bound plus its slack, the threshold and
    threshold plus effect) and :math:`z` the normal quantile of the interval's level, the
    standard error :math:`s_0 = h_0/z` shrinks as :math:`s_0\\sqrt{n_0/n}` and the verdict
    is decided with probability about :math:`\\pi` = ``power`` once
    :math:`(z + z_\\pi) s_0 \\sqrt{n_0/n} \\le m`:

    .. math:: n/n_0 = \\left(\\frac{(z + z_\\pi)\\, s_0}{m}\\right)^2.

    A Student interval (``"t"``, Welch's) is sized by its own power: its deviation
    :math:`s = h_0\\sqrt{n_0}/t_{n_0}` (the longer side's half-width: clipping to the range
    only shortens a side), and :math:`n` the fewest replicates at which the noncentral t
    gives :math:`P(T_{\\nu(n)}(m\\sqrt n/s) > t_{\\nu(n)}) \\ge \\pi` (:math:`\\nu(n)` the
    degrees of freedom at :math:`n`). The sample deviation is random too: at a few
    replicates and a Bonferroni level, where :math:`t` exceeds 10, that decides most of the
    power, and :math:`(t_n + z_\\pi)` treated it as known (a run sized at power 0.9 was
    decided in a fifth of the runs). A boundary past the end a clipped interval was
    clipped to is always cleared. For a band, the nearer edge sizes support.

    The smaller factor of the two verdicts the pilot's estimate points to is returned: a
    sizing at the pilot's estimate, not a guarantee. A betting
    interval's width is far from a multiple of
    :math:`1/\\sqrt n` at small :math:`n` (its range dominates), and a Clopper-Pearson
    interval's at a proportion of 0 or 1 shrinks like :math:`1/n`: their factors come from
    the intervals themselves (:func:`_betting_factor`, :func:`_proportion_factor`).

    See Also
    --------
    needed_factor : the factor of a reading's comparisons together.

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> c = compare("x", MeanEstimate(0.0, -0.2, 0.2, 10, 0.95), 0.0, 0.1)
    >>> f, side = comparison_factor(c)
    >>> side, round(f, 1)
    ('supported', 10.9)
    """
    est = comp.estimate
    mu, low, high = est.mean, est.low, est.high
    if not all(math.isfinite(x) for x in (mu, low, high)) or not 0 < est.level < 1:
        return None
    if est.method == "betting":
        return _betting_factor(comp, power)
    if est.method == "clopper-pearson":
        return _proportion_factor(comp, power)
    a2 = (1 - est.level) / 2
    df0 = _degrees_of_freedom(est)
    q = _t_quantile(a2, df0)
    z = NormalDist().inv_cdf(power)
    lo_half, hi_half = mu - low, high - mu
    v, t = comp.reference, comp.tolerance
    # a Student interval is symmetric: clipping to the range only shortens a side, so the
    # longer side gives the deviation behind it
    sd = max(lo_half, hi_half, 0.0) / q * math.sqrt(est.n) if df0 is not None else 0.0
    options: list[tuple[float, str]] = []

    def add(half: float, margin: float, side: str, toward: float) -> None:
        """``toward`` -1: the low end must clear ``mu - margin``; +1: the high end
        ``mu + margin``."""
        if margin <= 0:
            return
        if df0 is None:
            options.append((_side_factor(1 + z / q, max(half, 0.0), margin), side))
            return
        a, b = est.bounds
        boundary = mu + toward * margin
        # the rules' supported tests of a bound or band are non-strict, the others strict
        strict = side == "unsupported" or comp.rule == "greater"
        beyond = a - boundary if toward < 0 else boundary - b  # past the clipped end
        if est.clipped and (beyond > 0 or (beyond == 0 and not strict)):
            options.append((_fewest(est.method) / est.n, side))  # always cleared
            return
        options.append((_student_size(est.method, a2, margin, sd, power, 1e9 * est.n)
                        / est.n, side))

    if comp.rule == "equivalence":
        inside = min(mu - (v - t), (v + t) - mu)  # support: both ends inside the band
        if inside > 0:
            add(max(lo_half, hi_half), inside, "supported",
                -1.0 if mu - (v - t) <= (v + t) - mu else 1.0)
        add(lo_half, mu - (v + t), "unsupported", -1.0)  # entirely above the band
        add(hi_half, (v - t) - mu, "unsupported", 1.0)  # entirely below
    elif comp.rule == "at-most":
        add(hi_half, (v + t) - mu, "supported", 1.0)
        add(lo_half, mu - (v + t), "unsupported", -1.0)
    elif comp.rule == "at-least":
        add(lo_half, mu - (v - t), "supported", -1.0)
        add(hi_half, (v - t) - mu, "unsupported", 1.0)
    elif comp.rule == "greater":
        add(lo_half, mu - v, "supported", -1.0)
        add(hi_half, (v + t) - mu, "unsupported", 1.0)
    if not options:
        return None
    return min(options)


def _quantile_sample(mu: float, sd: float, n: int, bounds: tuple[float, float]) -> np.ndarray:
    """``n`` evenly spread quantiles of the beta law on ``bounds`` with mean ``mu`` and
    deviation ``sd`` (capped below the largest deviation a law of that mean on the range
    has; ``sd = 0`` or ``mu`` on an end: ``n`` copies of ``mu``).

    A normal sample clipped to the range would lose its mean near an end (a deviation of 0.1
    about 0.94 on [0, 1] moves it to about 0.90), and its interval would then size the
    distance to a boundary from a mean the pilot did not have."""
    a, b = bounds
    m = (mu - a) / (b - a)
    v = (sd / (b - a)) ** 2
    if not 0 < m < 1 or v <= 0:
        return np.full(n, float(mu))
    v = min(v, 0.999 * m * (1 - m))
    k = m * (1 - m) / v - 1  # alpha + beta of the law
    from scipy import stats as sps  # SciPy only where a size is computed

    q = sps.beta.ppf((np.arange(n) + 0.5) / n, m * k, (1 - m) * k)
    return a + (b - a) * np.asarray(q, dtype=float)


#: Largest factor of the pilot's size the sizing by intervals searches.
BETTING_LIMIT = 64


def _smallest_decided(sizes: Sequence[int], decided: Callable[[int], bool]) -> float:
    """The smallest of the increasing ``sizes`` at which ``decided`` holds, by bisection
    (``decided`` monotone in the size; the largest size is asked first); ``inf`` if even the
    largest is not decided."""
    lo, hi = 0, len(sizes) - 1
    if not decided(sizes[hi]):
        return math.inf
    while lo < hi:
        mid = (lo + hi) // 2
        if decided(sizes[mid]):
            hi = mid
        else:
            lo = mid + 1
    return sizes[lo]


def _search(comp: Comparison, mu: float, n0: int, interval: Callable[[int, float], MeanEstimate],
            limit: float = BETTING_LIMIT, exact: bool = False) -> tuple[float, str] | None:
    """The smallest factor (grid of ratio 1.25, up to ``limit``; every size from 2 if
    ``exact``) at which ``interval(n, toward)``, the interval of a size-``n`` sample whose
    mean errs towards the boundary (``toward`` = -1 or +1), decides ``comp`` the way the
    pilot's mean ``mu`` points (bisection: decided is monotone in ``n``); ``inf`` beyond
    the limit."""
    spec = Spec(comp.label, comp.rule, np.array([mu]), comp.reference, comp.tolerance)
    if exact:
        sizes = list(range(2, math.floor(n0 * limit) + 1))
    else:
        sizes = sorted({max(2, math.ceil(n0 * 1.25**k)) for k in range(0, 200)
                        if 1.25**k <= limit})
    best: tuple[float, str] | None = None
    for side, boundary in _targets(spec, mu):
        toward = -1.0 if boundary < mu else 1.0

        def decided(n: int, toward: float = toward, side: str = side) -> bool:
            with claimed_values(None, None):
                c = _RULES[comp.rule](comp.label, interval(n, toward), comp.reference,
                                      comp.tolerance)
            return c.verdict.value == side

        found = _smallest_decided(sizes, decided) / n0
        if best is None or found < best[0]:
            best = (found, side)
    return best


def _betting_factor(comp: Comparison, power: float) -> tuple[float, str] | None:
    """:func:`comparison_factor` of a betting interval, by the interval itself.

    The spread of the pilot's values is not kept with its interval, so it is inferred: the
    deviation :math:`s` whose evenly spread sample (:func:`_quantile_sample`: a beta law on
    the range with mean :math:`\\hat\\mu`) gives the pilot's half-width on the side facing
    the boundary at the pilot's size (bisection; 0 if even a constant sample is as wide).
    Near an end of the range a betting interval is far from symmetric, so each side is
    fitted on its own. Then, as :func:`spec_factor` does with real values, the smallest size
    whose sample, its mean moved towards the boundary by :math:`z_\\pi s/\\sqrt n`, is
    decided the way the pilot points (:func:`_search`).
    """
    est = comp.estimate
    a, b = est.bounds
    n0, alpha = est.n, 1 - est.level
    if n0 < 2 or not (math.isfinite(a) and math.isfinite(b)):
        return None
    mu = est.mean

    def half(sd: float, toward: float) -> float:
        e = betting_ci(_quantile_sample(mu, sd, n0, (a, b)), alpha, (a, b), grid=500)
        return e.high - mu if toward > 0 else mu - e.low

    def fitted(toward: float) -> float:
        """The deviation whose sample gives the pilot's half-width on the ``toward`` side."""
        target = est.high - mu if toward > 0 else mu - est.low
        lo_sd, hi_sd = 0.0, math.sqrt(max((mu - a) * (b - mu), 0.0))
        if half(lo_sd, toward) < target:
            for _ in range(12):
                mid = (lo_sd + hi_sd) / 2
                lo_sd, hi_sd = (mid, hi_sd) if half(mid, toward) < target else (lo_sd, mid)
        return lo_sd

    sds = {toward: fitted(toward) for toward in (-1.0, 1.0)}
    z = NormalDist().inv_cdf(power)

    def interval(n: int, toward: float) -> MeanEstimate:
        sd = sds[toward]
        moved = min(max(mu + toward * z * sd / math.sqrt(n), a), b)
        return betting_ci(_quantile_sample(moved, sd, n, (a, b)), alpha, (a, b), grid=500)

    return _search(comp, mu, n0, interval)


def _proportion_factor(comp: Comparison, power: float) -> tuple[float, str] | None:
    """:func:`comparison_factor` of a Clopper-Pearson interval, by the interval itself: at
    size :math:`n`, :math:`k = n\\hat p` successes moved towards the boundary by
    :math:`z_\\pi\\sqrt{n \\hat p(1-\\hat p)}` (:func:`_search`, every size: the interval
    is a closed form). Its width shrinks like :math:`1/n`, not :math:`1/\\sqrt n`, when
    :math:`\\hat p` is 0 or 1: a pilot of all successes asks for the exact requirement, the
    fewest :math:`n` whose all-successes interval is decided (for a band :math:`[1 - t, 1]`:
    :math:`(\\alpha/2)^{1/n} \\ge 1 - t`), not the next size of a grid."""
    est = comp.estimate
    n0, alpha, p = est.n, 1 - est.level, est.mean
    if n0 < 1 or not 0 <= p <= 1:
        return None
    z = NormalDist().inv_cdf(power)

    def interval(n: int, toward: float) -> MeanEstimate:
        k = round(n * p + toward * z * math.sqrt(n * p * (1 - p)))
        return proportion_ci(min(max(k, 0), n), n, alpha)

    return _search(comp, p, n0, interval, exact=True)


def needed_factor(comps: Sequence[Comparison], power: float = POWER) -> float | None:
    """How many times its replicates a reading needs for a decided verdict (:func:`combine`).

    Parameters
    ----------
    comps : sequence of Comparison
        The pilot's comparisons of one reading.
    power : float
        Probability of a decided verdict aimed for, per comparison.

    Returns
    -------
    float or None
        The factor: the smallest one of the comparisons sized for ``unsupported`` (one
        suffices) if any, else the largest of all (every one must be supported); ``None``
        if a comparison the verdict needs cannot be sized.

    Notes
    -----
    As :func:`moetheory.stats.combine`: one ``unsupported`` comparison decides a reading,
    ``supported`` needs them all.

    See Also
    --------
    comparison_factor : one comparison's factor.

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> a = compare("a", MeanEstimate(0.0, -0.2, 0.2, 10, 0.95), 0.0, 0.1)
    >>> b = compare("b", MeanEstimate(0.0, -0.05, 0.05, 10, 0.95), 0.0, 0.1)
    >>> round(needed_factor([a, b]), 1)
    10.9
    """
    sized = [comparison_factor(c, power) for c in comps]
    against = [f for f, side in (s for s in sized if s is not None) if side == "unsupported"]
    every = [s[0] if s is not None else None for s in sized]
    if None in every:
        return min(against) if against else None
    most = max(f for f in every if f is not None) if every else None
    if against and most is not None:
        return min(min(against), most)
    return most


@dataclass(frozen=True)
class Plan:
    """The replicates of one reading: pilot, what it asks for, the budget, what was run.

    Attributes
    ----------
    pilot : int
        Replicates of the pilot, on its own seed ``pilot_seed``.
    pilot_seed : int
        Simulator seed of the pilot.
    needed : int or None
        Replicates the pilot asks for (power :data:`POWER`); ``None`` if it cannot size,
        or if no size up to ``searched`` decides.
    floor, budget : int
        Fewest and most replicates of the profile.
    n : int
        Replicates run: ``needed`` clipped to ``[floor, budget]``; the floor when the pilot
        asks for more than four budgets or cannot size.
    budget_seconds : float
        The CPU seconds the budget stands for on the reference machine.
    profile : str
        The profile.
    searched : int or None
        The largest size the sizing tried, when it tried sizes.

    Notes
    -----
    ``pilot = 0`` records a run without a pilot (its budget is its floor: nothing to size).

    See Also
    --------
    plan_from_pilot : builds it.
    power_note : says it in words.

    Examples
    --------
    >>> p = Plan(5, 1, 17, 5, 20, 20, 5.8, "quick")
    >>> p.budget_limited, p.evidence()["replicates"]
    (False, 20)
    """

    pilot: int
    pilot_seed: int
    needed: int | None
    floor: int
    budget: int
    n: int
    budget_seconds: float
    profile: str
    searched: int | None = None

    @property
    def budget_limited(self) -> bool:
        """Whether the pilot asked for more than the budget (or could not size)."""
        return self.needed is None or self.needed > self.budget

    def _needed_text(self) -> int | str:
        if self.needed is not None:
            return self.needed
        return f"more than {self.searched}" if self.searched else "not sizable"

    def evidence(self, verdict: Verdict | None = None,
                 comps: Sequence[Comparison] = ()) -> dict[str, Any]:
        """The plan as evidence (JSON-ready); for an ``inconclusive`` ``verdict``, also the
        replicates the main run's own comparisons ``comps`` ask for (``this_run_asks_for``)."""
        out = self._evidence()
        if verdict is Verdict.INCONCLUSIVE:
            asked = _asked_by(comps, self.n)
            out["this_run_asks_for"] = "not sizable" if asked is None else asked
        return out

    def _evidence(self) -> dict[str, Any]:
        return {
            "pilot_replicates": self.pilot, "pilot_seed": self.pilot_seed,
            "needed_replicates": self._needed_text(),
            "floor": self.floor, "budget": self.budget, "replicates": self.n,
            "budget_cpu_seconds": self.budget_seconds, "power": POWER,
            "budget_limited": self.budget_limited,
            "rule": "pilot (floor replicates, own seed, never in a verdict) -> "
                    "n = `clip(needed, floor, budget)`, the floor if needed > 4 budgets; "
                    "needed from the pilot (_power.comparison_factor, _power.spec_factor)",
        }


def plan_from_pilot(pilot_comps: Sequence[Comparison], *, pilot: int, floor: int, budget: int,
                    budget_seconds: float, profile: str, pilot_seed: int,
                    multiple: int = 1, doubling: bool = False) -> Plan:
    """The plan of a main run from its pilot's comparisons, within a budget of replicates.

    Parameters
    ----------
    pilot_comps : sequence of Comparison
        The pilot's comparisons (judged with the shipped claimed values); empty when there
        is no pilot (``pilot = 0``: the budget is the floor, nothing to size).
    pilot, floor, budget : int
        Replicates of the pilot, fewest and most of the main run (``1 <= floor <=
        budget``).
    budget_seconds : float
        CPU seconds the budget stands for on the reference machine.
    profile : str
        The profile the budget belongs to.
    pilot_seed : int
        The pilot's seed (recorded).
    multiple : int
        The main run's size is rounded up to a multiple of it (within the budget), so that
        checks sharing a simulation in chunks share whole chunks.
    doubling : bool
        A main run larger than the floor is then rounded up (within the budget) to the floor
        times a power of 2, so that checks sharing a run in doubling batches share one run.

    Returns
    -------
    Plan
        With ``n = clip(needed, floor, budget)`` (the floor when the pilot asks for more
        than four budgets or cannot size), rounded up to ``multiple`` (and, with
        ``doubling``, to the floor times a power of 2).

    Raises
    ------
    ValueError
        If ``floor`` is not in ``[1, budget]``, ``pilot`` is negative or ``multiple < 1``.

    Notes
    -----
    The pilot must run on streams of its own and be judged with the shipped claimed values
    (:func:`moetheory.stats.claimed_values` ``(None, None)``): ``n`` then does not depend on
    the main run's data, whose intervals keep their level.

    See Also
    --------
    needed_factor : the sizing.
    power_note : the plan in words.

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> c = compare("x", MeanEstimate(0.0, -0.2, 0.2, 5, 0.95), 0.0, 0.1)
    >>> p = plan_from_pilot([c], pilot=5, floor=5, budget=60, budget_seconds=1.0,
    ...                     profile="quick", pilot_seed=1, multiple=5)
    >>> p.needed, p.n, p.budget_limited
    (55, 55, False)
    """
    if not 1 <= floor <= budget:
        raise ValueError(f"floor must lie in [1, budget = {budget}], got {floor}")
    if pilot < 0 or multiple < 1:
        raise ValueError(f"pilot must be >= 0 and multiple >= 1, got {pilot}, {multiple}")
    factor = needed_factor(pilot_comps) if pilot_comps else None
    needed = _asked(pilot, factor)
    searched = pilot * BETTING_LIMIT if factor is not None and math.isinf(factor) else None
    return Plan(pilot, pilot_seed, needed, floor, budget,
                _run_size(needed, floor, budget, multiple, doubling), budget_seconds, profile,
                searched=searched)


def _edges(comp: Comparison) -> tuple[float, ...]:
    """The ends of the band of ``comp``'s rule, where its verdict changes."""
    v, t = comp.reference, comp.tolerance
    return {"equivalence": (v - t, v + t), "at-most": (v + t,), "at-least": (v - t,),
            "greater": (v, v + t)}.get(comp.rule, ())


def edge_note(comps: Sequence[Comparison]) -> str:
    """Where each open comparison of ``comps`` stands: the band's edge its interval straddles.

    Parameters
    ----------
    comps : sequence of Comparison
        A reading's comparisons.

    Returns
    -------
    str
        For each ``inconclusive`` comparison, its estimate and interval and the edge of its
        band (:mod:`moetheory.stats`' rules) inside that interval nearest the estimate, and
        how many replicates its interval asks for (:func:`comparison_factor`); ``""`` when
        none is open. An open verdict says where the truth sits, so that it is not read as
        "unchecked": near an edge only many more replicates decide it, and on the edge itself
        none do.

    Notes
    -----
    The edges of a band are where its rule changes verdict: :math:`v \\pm t` for
    ``equivalence`` (reference :math:`v`, tolerance :math:`t`), :math:`v + t` for ``at-most``,
    :math:`v - t` for ``at-least``, :math:`v` and :math:`v + t` for ``greater``. Of the edges
    inside the interval :math:`[\\ell, u]` the one nearest the estimate :math:`\\hat\\mu` is
    named; a comparison whose interval holds no edge, or whose estimate is not finite, gets no
    sentence. Text only: no verdict or number of the reading changes.

    See Also
    --------
    comparison_factor : the replicates an open comparison asks for.
    power_note : the plan's sentences, for a reading's derivation.

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> c = compare("TV", MeanEstimate(0.188, 0.15, 0.23, 100, 0.99), 0.0, 0.2)
    >>> edge_note([c]).split(" (")[0]
    'TV: estimate 0.188, interval [0.15, 0.23] straddles the edge 0.2'
    """
    notes = []
    for comp in comps:
        est = comp.estimate
        if comp.verdict is not Verdict.INCONCLUSIVE or not math.isfinite(est.mean):
            continue
        inside = [e for e in _edges(comp) if est.low <= e <= est.high]
        if not inside:
            continue
        edge = min(inside, key=lambda e: abs(e - est.mean))
        sized = comparison_factor(comp)
        asked = _asked(est.n, None if sized is None else sized[0])
        want = (f"about {asked} replicates would decide it unless the truth sits on the edge "
                "itself" if asked is not None else "not sizable from this interval")
        notes.append(f"{comp.label}: estimate {est.mean:.4g}, interval [{est.low:.4g}, "
                     f"{est.high:.4g}] straddles the edge {edge:.4g} ({want})")
    return "; ".join(notes)


def power_note(plan: Plan, verdict: Verdict, comps: Sequence[Comparison] = ()) -> str:
    """Sentences for a reading's derivation: the plan, and what would decide an open verdict.

    Parameters
    ----------
    plan : Plan
        The reading's plan.
    verdict : Verdict
        The reading's verdict.
    comps : sequence of Comparison
        The main run's comparisons: for an open verdict, sized again from them
        (:func:`needed_factor`), a second opinion the pilot's cannot give.

    Returns
    -------
    str
        The plan in words; for an ``inconclusive`` verdict, whether the budget or the
        pilot's sizing left it open and how many replicates would decide it.

    Notes
    -----
    The pilot's size is a sizing at power :data:`POWER`, not a guarantee: an open verdict
    with the replicates the pilot asked for says so.

    See Also
    --------
    Plan.evidence : the same in the evidence.

    Examples
    --------
    >>> p = Plan(16, 1, 400, 16, 64, 64, 2.0, "quick")
    >>> power_note(p, Verdict.INCONCLUSIVE).split(":")[0]
    'Inconclusive for want of replicates, not for the mathematics'
    """
    asked = plan._needed_text()
    if isinstance(asked, int):
        want = f"about {asked} replicates"
    elif plan.searched:
        want = f"{asked} replicates"
    else:
        want = None
    if plan.pilot == 0:
        base = (f"Replicates: no pilot (the {plan.profile} budget, {plan.budget}, is the floor: "
                f"nothing to size); ran {plan.n}.")
        want = None
    else:
        base = (f"Replicates: a pilot of {plan.pilot} asked for "
                + (want if want else "a size it could not compute (an estimate on a decision "
                   "boundary, or too few usable runs)")
                + f" (power {POWER:g}); the {plan.profile} budget allows {plan.budget}; "
                f"ran {plan.n}.")
    if verdict is not Verdict.INCONCLUSIVE:
        return base
    again_n = _asked_by(comps, plan.n)
    again = ("" if again_n is None
             else f" This run's own intervals ask for about {again_n} replicates.")
    if plan.budget_limited:
        what = f"the pilot says {want} would decide it" if want else (
            "the pilot could not size it" if plan.pilot else "no pilot")
        budget = (f"the {plan.profile} profile's CPU budget ({plan.budget} replicates, "
                  f"~{plan.budget_seconds:g} s)")
        if plan.n >= plan.budget:
            ran = f"{budget} allows {plan.n}"
        else:  # beyond four budgets or not sizable: the floor (clip_replicates)
            ran = (f"beyond {budget}" if want else f"within {budget}") + (
                f", so it ran its floor of {plan.n}")
        return ("Inconclusive for want of replicates, not for the mathematics: "
                f"{what}, {ran}." + again + " " + base)
    return (f"Inconclusive with the replicates its pilot asked for (a sizing at power "
            f"{POWER:g}, not a guarantee)." + again + " " + base)


_RULES: dict[str, Callable[[str, MeanEstimate, float, float], Comparison]] = {
    "equivalence": compare, "at-most": at_most, "at-least": at_least, "greater": greater}


@dataclass(frozen=True)
class Spec:
    """One comparison before its interval: what a pilot can size (:func:`spec_factor`).

    Attributes
    ----------
    label : str
        As printed.
    rule : {"equivalence", "at-most", "at-least", "greater"}
        The decision rule of :mod:`moetheory.stats`.
    values : ndarray
        One value per replicate (paired differences where the comparison is paired).
    value : float
        The claimed value, bound or threshold.
    tolerance : float
        Its tolerance, slack or smallest meaningful effect.
    bounds : (float, float) or None
        The values' range, known in advance: the exact betting interval on it; ``None``
        for the Student-t interval.

    Notes
    -----
    Unlike a :class:`moetheory.stats.Comparison`, a spec keeps its values, so the pilot can
    be sized by the comparison's own interval (:func:`spec_factor`).

    See Also
    --------
    spec_factor : sizes it.
    decide_all : decides specs.

    Examples
    --------
    >>> Spec("x", "at-most", np.zeros(4), 1.0).decide(0.05).verdict.value
    'supported'
    """

    label: str
    rule: str
    values: np.ndarray
    value: float
    tolerance: float = 0.0
    bounds: tuple[float, float] | None = None

    def interval(self, alpha: float, values: np.ndarray | None = None) -> MeanEstimate:
        """The interval of the mean of ``values`` (default: the spec's own) at level 1 - alpha."""
        x = self.values if values is None else values
        if self.bounds is None:
            return mean_ci(x, alpha)
        return betting_ci(x, alpha, self.bounds)

    def decide(self, alpha: float) -> Comparison:
        """The comparison (through the rules of :mod:`moetheory.stats`, so calibration sees it).

        Examples
        --------
        >>> Spec("x", "greater", np.array([1.0, 1.2, 0.9, 1.1]), 0.0).decide(0.05).verdict.value
        'supported'
        """
        return _RULES[self.rule](self.label, self.interval(alpha), self.value, self.tolerance)


def _targets(spec: Spec, mu: float) -> list[tuple[str, float]]:
    """The verdicts the pilot's mean points to, each with the boundary the mean must clear
    (the decision is reached when the interval lies on ``mu``'s side of it)."""
    v, t = spec.value, spec.tolerance
    out: list[tuple[str, float]] = []
    if spec.rule == "equivalence":
        if v - t < mu < v + t:
            out.append(("supported", v - t if mu - (v - t) < (v + t) - mu else v + t))
        elif mu != v - t and mu != v + t:
            out.append(("unsupported", v + t if mu > v else v - t))
    elif spec.rule == "at-most":
        out.append(("supported" if mu < v + t else "unsupported", v + t))
    elif spec.rule == "at-least":
        out.append(("supported" if mu > v - t else "unsupported", v - t))
    else:  # greater
        if mu > v:
            out.append(("supported", v))
        if mu < v + t:
            out.append(("unsupported", v + t))
    return [(side, b) for side, b in out if mu != b]


def spec_factor(spec: Spec, alpha: float, power: float = POWER,
                limit: float = 64.0) -> tuple[float, str] | None:
    r"""How many times the pilot's replicates the comparison needs, by its own interval.

    Parameters
    ----------
    spec : Spec
        The pilot's comparison before its interval.
    alpha : float
        The level the check will use for it.
    power : float
        Probability of a decided verdict aimed for.
    limit : float
        Largest factor searched; beyond it the result is ``(inf, side)``.

    Returns
    -------
    (factor, side) or None
        The factor of the pilot's size and the verdict it is sized for; ``None`` if the
        pilot's mean sits on every decision boundary.

    Notes
    -----
    For a size :math:`n` the pilot's values are repeated to :math:`n` (``np.resize``) and
    moved towards the boundary the verdict must clear by :math:`z_\pi s/\sqrt n`
    (:math:`s` the pilot's standard deviation; clipped to the range for a betting
    interval): a sample whose mean errs towards the boundary as a :math:`1 - \pi` quantile
    does. The size is the smallest on a grid of ratio 1.25 whose interval, built by the
    comparison's own method at its level, is then decided the way the pilot points: for
    the betting interval, whose width is not a multiple of :math:`1/\sqrt n` at small
    :math:`n`, it is the interval itself that is asked. The Student-t interval
    (``bounds=None``) is sized by its own power instead, as :func:`comparison_factor` does:
    the first size of the grid from which the noncentral t with :math:`n - 1` degrees of
    freedom and noncentrality :math:`m\sqrt n/s` clears the Student quantile with
    probability :math:`\pi` (the sample deviation is random too; for large :math:`n` this
    is the usual :math:`n \ge ((t + z_\pi) s / m)^2`).

    See Also
    --------
    specs_factor : a reading's specs together.

    Examples
    --------
    >>> x = np.array([0.2, -0.1, 0.4, 0.0, 0.3, 0.1, -0.2, 0.5])
    >>> f, side = spec_factor(Spec("d", "greater", x, 0.0), 0.01)
    >>> side, f > 1
    ('supported', True)
    """
    x = np.asarray(spec.values, dtype=float)
    n0 = x.size
    if n0 < 2:
        return None
    mu, sd = float(x.mean()), float(x.std(ddof=1))
    z = NormalDist().inv_cdf(power)
    best: tuple[float, str] | None = None
    sizes = sorted({max(2, math.ceil(n0 * 1.25**k)) for k in range(-8, 200)
                    if 1.25**k <= limit})
    for side, boundary in _targets(spec, mu):
        if spec.bounds is None:  # the Student interval: its own power (noncentral t)
            least = _student_size("t", alpha / 2, abs(mu - boundary), sd, power, limit * n0)
            found = min((n for n in sizes if n >= least), default=math.inf) / n0
            if best is None or found < best[0]:
                best = (found, side)
            continue
        toward = -1.0 if boundary < mu else 1.0

        def decided(n: int, toward: float = toward, side: str = side) -> bool:
            sample = np.resize(x, n) + toward * z * sd / math.sqrt(n)
            if spec.bounds is not None:
                sample = np.clip(sample, *spec.bounds)
            with claimed_values(None, None):
                comp = _RULES[spec.rule](spec.label, spec.interval(alpha, sample), spec.value,
                                         spec.tolerance)
            return comp.verdict.value == side

        found = _smallest_decided(sizes, decided) / n0  # decided is monotone in n here
        if best is None or found < best[0]:
            best = (found, side)
    return best


def specs_factor(specs: Sequence[Spec | Comparison], alpha: float, power: float = POWER,
                 limit: float = 64.0) -> float | None:
    """:func:`needed_factor` for specs: one refuting comparison suffices, else all must hold.

    Parameters
    ----------
    specs : sequence of Spec or Comparison
        The pilot's comparisons of one reading.
    alpha : float
        The level each will be decided at.
    power : float
        Probability of a decided verdict aimed for.
    limit : float
        Largest factor searched.

    Returns
    -------
    float or None
        The factor (``inf`` beyond ``limit``); ``None`` if a comparison the verdict needs
        cannot be sized.

    Notes
    -----
    A ready :class:`Comparison` among them (one whose interval the check built itself, e.g.
    a Clopper-Pearson interval of a share of pairs) is sized by its interval
    (:func:`comparison_factor`; beyond ``limit``, ``inf``); one without a finite interval
    cannot be sized.

    See Also
    --------
    spec_factor : one spec's factor.

    Examples
    --------
    >>> x = np.array([0.2, -0.1, 0.4, 0.0, 0.3, 0.1, -0.2, 0.5])
    >>> specs_factor([Spec("d", "greater", x, 0.0)], 0.01) > 1
    True
    """
    sized = [spec_factor(sp, alpha, power, limit) if isinstance(sp, Spec)
             else _capped(comparison_factor(sp, power), limit) for sp in specs]
    against = [f for f, side in (x for x in sized if x is not None) if side == "unsupported"]
    if any(x is None for x in sized):
        return min(against) if against else None
    most = max(x[0] for x in sized if x is not None) if sized else None
    return min([*against, most]) if most is not None else None


def _capped(sized: tuple[float, str] | None, limit: float) -> tuple[float, str] | None:
    """A comparison's factor, ``inf`` beyond ``limit`` (as :func:`spec_factor` searches)."""
    if sized is None or sized[0] <= limit:
        return sized
    return (math.inf, sized[1])


def decide_all(specs: Sequence[Spec | Comparison], alpha: float) -> list[Comparison]:
    """Each spec decided at ``alpha`` (:meth:`Spec.decide`); ready comparisons kept as they are.

    Parameters
    ----------
    specs : sequence of Spec or Comparison
        The comparisons of a run.
    alpha : float
        The level of each interval.

    Returns
    -------
    list of Comparison
        One per spec, in order.

    Notes
    -----
    Through the rules of :mod:`moetheory.stats`, so calibration sees every comparison.

    See Also
    --------
    Spec.decide : one spec.

    Examples
    --------
    >>> [c.verdict.value for c in decide_all([Spec("x", "at-most", np.zeros(5), 1.0)], 0.05)]
    ['supported']
    """
    return [sp.decide(alpha) if isinstance(sp, Spec) else sp for sp in specs]
