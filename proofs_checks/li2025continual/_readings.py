"""The readings of the simulator checks and the scaffold that turns them into an outcome.

A statistical check runs each reading (``paper``, ``paper, random β``, ``code``) and makes its
comparisons; :func:`grid_outcome` and :func:`figure_outcome` run a check's ``one(reading)`` over
the readings and pass the results to :func:`moetheory.stats.readings_outcome` (runs ->
comparisons -> evidence -> outcome). A claim checked on the σ0 grid (or the M < N regime) is
declared once by :func:`grid_claim`: its texts, its design (comparisons, runs, flags) and its
reading, from which it makes the check (:func:`grid_check`: the reading's runs, its seed and
the level of each comparison handed to the reading; or, for a reading made σ0 by σ0,
:func:`sigma0_check`).
:func:`_exponent_reading` is the reading of an order statement: a fitted σ0-exponent compared
with the claimed one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from moetheory import CheckContext, Outcome, Verdict
from moetheory.continual import CLConfig, CLResult
from moetheory.continual.scaling import (
    exponent_at_least,
    exponent_at_most,
    exponent_equal,
    fit_exponent,
)
from moetheory.engine.registry import CheckFunction
from moetheory.stats import (
    LOOKS,
    Comparison,
    MeanEstimate,
    ReadingData,
    combine,
    comparisons_markdown,
    edge_note,
    readings_outcome,
    sized_reading,
    stable,
)
from proofs_checks.li2025continual._budgets import allowance
from proofs_checks.li2025continual._common import paper_claim
from proofs_checks.li2025continual._flags import (
    ALTERNATIVE_FLAGS,
    FLAG_TEXT,
    STICKY,
    flags_of,
    other_flag_readings,
)
from proofs_checks.li2025continual._simulation import (
    GRID_RUNS,
    PILOT,
    RANDOM_BETA,
    STREAM,
    GridRuns,
    _seed,
    flag_runs,
    low_grid_evidence,
    reading_runs,
)

__all__ = [
    "EXP_TOL",
    "FIGURE_READINGS",
    "FIGURE_READING_TEXT",
    "GRID_RUNS",
    "QUICK_READINGS",
    "READINGS",
    "READINGS_NOTE",
    "READING_MODEL_TEXT",
    "ExponentPart",
    "Extra",
    "GridRuns",
    "Sigma0Data",
    "_exponent_parts",
    "_exponent_reading",
    "_geometric_mean",
    "_profile_readings",
    "figure_outcome",
    "grid_check",
    "grid_claim",
    "grid_outcome",
    "reading_text",
    "setting_text",
    "sigma0_check",
    "sigma0_reading",
    "undecided",
]


#: The readings of the figures' setting, the primary (most literal) one first.
FIGURE_READINGS = (RANDOM_BETA, "paper", "code")


#: Readings beside a check's own, computed after them: each reading's data and its text.
Extra = Callable[[], Sequence[tuple[ReadingData, str]]]


def grid_outcome(
    ctx: CheckContext, alpha: float, one: Callable[[str], ReadingData],
    configs: Callable[[str], Sequence[CLConfig]], extra: Extra | None = None,
) -> Outcome:
    """The outcome of a check on the σ0 grid (or the M < N regime, or a setting of its own):
    ``one(reading)`` for each reading of the profile (:func:`_profile_readings`), each
    described by :func:`reading_text` of ``configs(reading)``, the configurations of the runs
    it read (asked after ``one(reading)``); then the readings ``extra()`` gives (e.g. the
    termination flags' other readings), last. An open verdict's summary says where the
    primary reading's open comparisons stand (:func:`~moetheory.stats.edge_note`)."""
    data = [one(reading) for reading in _profile_readings(ctx)]
    texts = {name: reading_text(name, configs(name)) for name, *_ in data}
    for item, text in extra() if extra is not None else ():
        data.append(item)
        texts[item[0]] = text
    out = readings_outcome(data, texts, alpha, ctx)
    primary, comps = data[0][0], data[0][1]
    if out.verdict is Verdict.INCONCLUSIVE and (edges := edge_note(comps)):
        out.summary += f" — open on the band's edge in '{primary}': {edges}"
    return out


def undecided(label: str, n: int, alpha: float, reference: float,
              tolerance: float) -> Comparison:
    """The comparison ``label`` when too few data decide it: no estimate, inconclusive.

    Parameters
    ----------
    label : str
        What the comparison compares (saying why it is undecided).
    n : int
        The number of values there were.
    alpha : float
        The comparison's level: its interval's confidence is ``1 − alpha``.
    reference, tolerance : float
        The claimed value and the tolerance it would have been judged with.

    Returns
    -------
    Comparison
        Verdict ``inconclusive``, estimate NaN with the whole real line as its interval.

    Examples
    --------
    >>> c = undecided("too few runs", 1, 0.05, 1.0, 0.05)
    >>> c.verdict.value, c.estimate.low, c.estimate.n
    ('inconclusive', -inf, 1)
    """
    return Comparison(label, MeanEstimate(float("nan"), -np.inf, np.inf, n, 1 - alpha),
                      reference, tolerance, Verdict.INCONCLUSIVE)


#: One σ0's comparisons and evidence in a reading made σ0 by σ0 (:func:`sigma0_reading`).
Sigma0Data = tuple[list[Comparison], dict[str, Any]]

def grid_check(
    ctx: CheckContext,
    comparisons: int,
    runs: str,
    one: Callable[[str, GridRuns, int, float], ReadingData],
    flags: bool = False,
) -> Outcome:
    """The outcome of a check on the σ0 grid (or the M < N regime) that makes ``comparisons``
    comparisons: ``one(reading, grid, seed, alpha)`` for each reading (:func:`grid_outcome`),
    with the reading's runs named ``runs`` (:data:`~._simulation.GRID_RUNS`) by σ0, their
    simulator seed and the level ``alpha`` of each comparison: ``ctx.alpha / comparisons``
    (Bonferroni), over :data:`~moetheory.stats.LOOKS` more in the full profile.

    Each reading's replicates are sized from a pilot by :func:`moetheory.stats.sized_reading`
    (budget ``"grid"`` of :mod:`._budgets`; ``"phase"`` for the exploration phase's runs,
    ``"wide"`` for the runs extended down to σ0 = 0.0125): ``one`` on the pilot's runs
    (their own seed; recorded nowhere) gives the comparisons that size the main runs; at the
    floor the main runs are the shared ones every grid check reads. In the full profile the
    pilot-sized run is a first look and a second one is planned in advance
    (:meth:`~moetheory.stats.Allowance.second_look`, as Lemma 8's): if the first look, judged
    with the shipped claimed values, is ``inconclusive`` and its own intervals ask for at most
    the budget, a fresh run of that size (seeds :data:`~moetheory.stats.SECOND_LOOK` further,
    batched like the first) gives the verdict; the evidence records both looks (``looks``)
    and the derivation what the first gave. The quick profile keeps its single look. With
    ``flags`` (runs with termination), the 'paper' reading is also read under the other
    readings of Algorithm 1's flags (:mod:`._flags`), on the same data as its final look,
    reported after the others and counted in the Bonferroni level."""
    per_reading = comparisons // len(READINGS)
    looks = LOOKS if ctx.full else 1  # the second look: fixed per profile in advance
    alpha = ctx.alpha / (comparisons + (per_reading * len(ALTERNATIVE_FLAGS) if flags else 0))
    alpha /= looks
    extra: list[tuple[ReadingData, str]] = []
    simulated: dict[str, list[CLConfig]] = {}  # each reading's configurations, as run
    terminates = runs in ("term", "regime")
    allowed = allowance(ctx, {"phase": "phase", "free-wide": "wide",
                              "regime-free-wide": "wide"}.get(runs, "grid"))

    def reading_data(reading: str) -> ReadingData:
        (name, comps, ev, deriv), sizing, grid, seed = sized_reading(
            allowed, lambda n, offset: reading_runs(ctx, reading, runs, n, offset),
            lambda grid, seed: one(reading, grid, seed, alpha), pilot_offset=PILOT, looks=looks)
        simulated[name] = [res.config for res in grid.values()]
        if runs.endswith("-wide"):
            ev["low_sigma0"] = low_grid_evidence(grid)
        if flags and reading == "paper":

            def judge(f_name: str, alt: GridRuns) -> ReadingData:
                f_name, f_comps, f_ev, f_deriv = one(f_name, alt, seed, alpha)
                f_ev = dict(f_ev, power=sizing.plan.evidence())
                if sizing.looks is not None:
                    f_verdict = combine([c.verdict for c in f_comps])
                    f_ev.update(replicates=sizing.n, looks=dict(
                        sizing.looks.evidence(f_verdict, f_comps), looks_of=reading))
                return (f_name, f_comps, f_ev, f_deriv)

            extra.extend(other_flag_readings(
                reading, flag_runs(ctx, reading, runs, sizing.n, sizing.offset), judge,
                lambda alt: reading_text(reading, [res.config for res in alt.values()])))
        if terminates:
            ev["flags"] = flags_of(next(iter(grid.values())).config)
        return (name, comps, ev, deriv)

    return grid_outcome(ctx, alpha, reading_data, simulated.__getitem__, lambda: extra)


def sigma0_check(
    ctx: CheckContext,
    comparisons: int,
    runs: str,
    rule: str,
    at: Callable[[float, CLResult, int, float], Sigma0Data],
    derivation: str = "",
    flags: bool = False,
) -> Outcome:
    """A :func:`grid_check` whose readings are made σ0 by σ0 (:func:`sigma0_reading`):
    ``at(sigma0, result, seed, alpha)`` gives the comparisons and evidence of each σ0."""

    def one(reading: str, grid: GridRuns, seed: int, alpha: float) -> ReadingData:
        per_sigma0 = (at(sig0, res, seed, alpha) for sig0, res in grid.items())
        return sigma0_reading(reading, seed, rule, per_sigma0, derivation)

    return grid_check(ctx, comparisons, runs, one, flags)


#: How a grid claim's reading text names its readings (:func:`_profile_readings`).
READINGS_NOTE = "readings 'paper', 'code' (+ 'paper, random β' in the full profile)"


def grid_claim(
    claim_id: str,
    *,
    statement: str,
    sources: dict[str, list[int]],
    covers: list[str],
    reading: str,
    comparisons: int,
    runs: str,
    flags: bool = False,
    rule: str | None = None,
    derivation: str = "",
) -> Callable[[Callable[..., Any]], CheckFunction]:
    """Declare a statistical claim of the paper checked on the σ0 grid (or the M < N regime):
    its texts, its design and its reading, from which the check is made and registered.

    Parameters
    ----------
    claim_id, statement, sources, covers
        As :func:`~moetheory.claim` takes them (the seed file and section are the paper's).
    reading : str
        The precise reading; :data:`READINGS_NOTE` (the readings run) is appended after
        ``"; "``.
    comparisons : int
        The comparisons the check makes over the readings (>= 1): the Bonferroni count of
        :func:`grid_check`.
    runs : str
        The runs read, a key of :data:`~._simulation.GRID_RUNS`.
    flags : bool, optional
        Whether the 'paper' reading is also read under the other readings of Algorithm 1's
        termination flags (runs with termination only).
    rule, derivation : str, optional
        With a ``rule``, the decorated function reads one σ0 and the check is
        :func:`sigma0_check` (the rule heads the evidence, the derivation the derivation).

    Returns
    -------
    callable
        The decorator. It takes the reading, ``read(ctx, reading, runs, seed, alpha) ->``
        :data:`~moetheory.stats.ReadingData` (with a ``rule``: ``read(sigma0, result, seed,
        alpha) ->`` :data:`Sigma0Data`), and returns the registered check ``check(ctx)``,
        named and documented as the reading and belonging to its module.

    Raises
    ------
    ValueError
        If ``comparisons`` is below 1 or ``runs`` is not a key of
        :data:`~._simulation.GRID_RUNS`, before anything is registered.

    Examples
    --------
    >>> grid_claim("cl.x", statement="s", sources={}, covers=[], reading="r",
    ...            comparisons=3, runs="nowhere")
    Traceback (most recent call last):
    ...
    ValueError: runs must be one of ['free', 'free-wide', 'phase', 'regime', 'regime-free', \
'regime-free-wide', 'term'], got 'nowhere'
    """
    if comparisons < 1:
        raise ValueError(f"comparisons must be at least 1, got {comparisons}")
    if runs not in GRID_RUNS:
        raise ValueError(f"runs must be one of {sorted(GRID_RUNS)}, got {runs!r}")

    def declare(read: Callable[..., Any]) -> CheckFunction:
        if rule is None:
            def check(ctx: CheckContext) -> Outcome:
                return grid_check(ctx, comparisons, runs, functools.partial(read, ctx), flags)
        else:
            def check(ctx: CheckContext) -> Outcome:
                return sigma0_check(ctx, comparisons, runs, rule, read, derivation, flags)
        check.__module__, check.__name__, check.__qualname__, check.__doc__ = (
            read.__module__, read.__name__, read.__qualname__, read.__doc__)
        return paper_claim(claim_id, statement=statement, sources=sources, covers=covers,
                           reading=f"{reading}; {READINGS_NOTE}")(check)

    return declare


def sigma0_reading(
    reading: str, seed: int, rule: str, per_sigma0: Iterable[Sigma0Data], derivation: str = ""
) -> ReadingData:
    """One reading made σ0 by σ0: the comparisons and evidence of each σ0 of the grid in turn
    (``per_sigma0``), after the simulator seed and the rule; the derivation ends with the
    comparisons' table."""
    comps: list[Comparison] = []
    ev: dict[str, Any] = {"simulator_seed": seed, "rule": rule}
    for more, evidence in per_sigma0:
        comps += more
        ev.update(evidence)
    return (reading, comps, ev, derivation + comparisons_markdown(comps))


def figure_outcome(
    ctx: CheckContext,
    alpha: float,
    one: Callable[[str, int], Any],
    second: tuple[str, str] | None = None,
    extra: Extra | None = None,
) -> Outcome:
    """The outcome of a check of the figures' setting: ``one(reading, seed)`` for each of the
    readings 'paper, random β', 'paper' and 'code', each simulated from its own stream.

    With ``second = (suffix, template)``, ``one`` returns two readings' data: the reading's own
    and a second reading of it, named ``reading + suffix`` and described by
    ``template.format(r=reading)``; the second readings come after all the first ones. The
    readings ``extra()`` gives (data and text) come last.
    """
    first, other = [], []
    for reading in FIGURE_READINGS:
        item = one(reading, _seed(ctx, STREAM[reading]))
        if second is None:
            first.append(item)
        else:
            first.append(item[0])
            other.append(item[1])
    texts = dict(FIGURE_READING_TEXT)
    if second is not None:
        for reading in FIGURE_READINGS:
            texts[f"{reading}{second[0]}"] = second[1].format(r=reading)
    more = []
    for item, text in extra() if extra is not None else ():
        more.append(item)
        texts[item[0]] = text
    return readings_outcome(first + other + more, texts, alpha, ctx)


FIGURE_READING_TEXT = {
    "paper": (
        "Definition 1 data (β_t = 1, v_n = w_n/σ0, clusters n mod K with ‖w_n − w_n'‖∞ ≤ σ0^1.5), "
        "eq. (5), clean softmax in (6)-(7), squared norm in (6), f·αM/t in the auxiliary "
        "gradient, Algorithm 1 flags on clean gate outputs for t > T1 = ⌈M/η⌉ for each expert "
        "m including the selected m_t (its gap is 0 < Γ; flag_selected=True), "
        f"{STICKY}; paper metrics (15)-(16) with squared norms"
    ),
    "code": (
        "the released code: its data model, noisy softmax softmax(h + r), unsquared norm in "
        "(6), αM/t without f, flags on noisy gate values from round M/η (0-based) for every "
        "expert except the selected m_t (flag_selected=False), updates at least until round "
        f"80 + 3M, {STICKY}, and the code's metrics (unsquared norms, |·| per task)"
    ),
}


FIGURE_READING_TEXT[RANDOM_BETA] = (
    "Definition 1 read literally: as 'paper' but the signal column of X_t is β_t v_{n_t} with a "
    "fresh β_t ~ Unif(0, C], C = 1, every round (Appendix A.2's experiments fix β_t = 1); "
    f"as in 'paper', {STICKY}"
)


EXP_TOL = 0.25
READINGS = ("paper", "paper, random β", "code")


#: What each reading of a simulator check simulates, apart from the setting (the values of
#: σ0, η, λ, Γ, N, K, M, T and the flags), which :func:`reading_text` generates from the
#: configurations of the reading's runs.
READING_MODEL_TEXT = {
    "paper": (
        "Definition 1 data with Appendix A.2's β_t = 1 (v_n = w_n/σ0), the equations as "
        "written (clean softmax, squared local loss, f in the auxiliary gradient)"
    ),
    "paper, random β": (
        "as 'paper' but with Definition 1's random β_t ~ Unif(0, C], C = 1"
    ),
    "code": (
        "the authors' released code (its data model: ground truths of norm σ0, signals of "
        "norm 6; noisy softmax, unsquared local loss, its flags and schedule)"
    ),
}


def _values(symbol: str, values: Iterable[float]) -> str:
    """``symbol = v`` for one value, ``symbol ∈ {v1, v2, ...}`` for several (sorted)."""
    vs = sorted(set(values))
    if len(vs) == 1:
        return f"{symbol} = {vs[0]:.4g}"
    return f"{symbol} ∈ {{" + ", ".join(f"{v:.4g}" for v in vs) + "}"


def setting_text(configs: Sequence[CLConfig]) -> str:
    """The setting the configurations ``configs`` simulate, in words: generated from them.

    Parameters
    ----------
    configs : sequence of CLConfig
        The configurations of one reading's runs (at least one).

    Returns
    -------
    str
        The values of σ0, η, λ, Γ (as a power of σ0 when every configuration couples them
        so), N, K, M, α and T, whether the runs terminate and, if they do, how their flags
        are read (:data:`~._flags.FLAG_TEXT`).

    Raises
    ------
    ValueError
        If ``configs`` is empty.

    Examples
    --------
    >>> setting_text([CLConfig(N=30, K=3, M=m, sigma0=0.2, eta=0.2**0.5, lam=0.2**1.25,
    ...                         T=300, terminate=False) for m in (5, 10)]).split(", ")[:5]
    ['σ0 = 0.2', 'η = σ0^0.5', 'λ = Γ = σ0^1.25', 'N = 30', 'K = 3']
    """
    if not configs:
        raise ValueError("configs must hold at least one configuration, got none")
    parts = [_values("σ0", (c.sigma0 for c in configs))]
    coupled: dict[str, list[str]] = {}  # symbols by the power of σ0 they equal
    apart = []
    for symbol, value, power in (("η", lambda c: c.eta, 0.5), ("λ", lambda c: c.lam, 1.25),
                                 ("Γ", lambda c: c.resolved_gamma, 1.25)):
        if all(math.isclose(value(c), c.sigma0**power, rel_tol=1e-9) for c in configs):
            coupled.setdefault(f"σ0^{power:g}", []).append(symbol)
        else:
            apart.append(_values(symbol, (value(c) for c in configs)))
    parts += [" = ".join([*symbols, power]) for power, symbols in coupled.items()] + apart
    parts += [_values(name, (getattr(c, name) for c in configs)) for name in ("N", "K", "M")]
    parts += [_values("α", (c.alpha for c in configs)), _values("T", (c.T for c in configs))]
    ends = {c.terminate for c in configs}
    if ends == {False}:
        parts.append("without termination")
    else:
        flags = sorted({FLAG_TEXT[flags_of(c)] for c in configs if c.terminate})
        parts.append(("with and without termination" if len(ends) > 1 else "with termination")
                     + "; termination flags: " + "; ".join(flags))
    return ", ".join(parts)


def reading_text(reading: str, configs: Sequence[CLConfig]) -> str:
    """The text of ``reading`` (a key of :data:`READING_MODEL_TEXT`, or a name with a ``:``
    suffix) whose runs simulate ``configs``: its model, then its setting generated from the
    configurations (:func:`setting_text`), so the text describes the run it reports."""
    model = READING_MODEL_TEXT.get(reading.split(":")[0], reading)
    return f"{model}; simulated: {setting_text(configs)}"


#: Readings of the quick profile (its CPU budget); the full profile adds Definition 1's β.
QUICK_READINGS = ("paper", "code")


def _profile_readings(ctx: CheckContext) -> tuple[str, ...]:
    """All three readings under the full profile; 'paper' and 'code' under the quick one."""
    return READINGS if ctx.full else QUICK_READINGS


def _geometric_mean(values: np.ndarray) -> float:
    """Geometric mean of the positive values, through the C library's log and exp and an
    exactly rounded sum (the same bits on every SIMD path), to 4 significant digits."""
    logs = [math.log(v) for v in np.asarray(values, dtype=float).tolist() if v > 0]
    return stable(math.exp(math.fsum(logs) / len(logs)))


def _exponent_reading(
    name: str,
    ctx: CheckContext,
    quantity: str,
    values: dict[float, np.ndarray],
    rules: list[tuple[str, float]],
    alpha: float,
    extra: list[Comparison] | None = None,
    evidence: dict[str, Any] | None = None,
) -> tuple[str, list[Comparison], dict[str, Any], str]:
    """One reading: fit the exponent of ``values`` over σ0 and apply each (rule, a)."""
    xs = sorted(values)
    positive = {s: np.maximum(values[s], 1e-300) for s in xs}
    est = fit_exponent(xs, [positive[s] for s in xs], alpha)
    comps = []
    for rule, a in rules:
        fn = {"O": exponent_at_least, "Omega": exponent_at_most, "Theta": exponent_equal}[rule]
        sym = {"O": "O", "Omega": "Ω", "Theta": "Θ"}[rule]
        comps.append(fn(f"{quantity}: fitted σ0-exponent vs {sym}(σ0^{a:g})", est, a, EXP_TOL))
    comps += extra or []
    ev: dict[str, Any] = {
        "sigma0_grid": xs,
        "quantity": quantity,
        "mean_per_sigma0": [float(values[s].mean()) for s in xs],
        "spread_across_replicates_and_ground_truths": [
            {"min": float(values[s].min()), "median": float(np.median(values[s])),
             "max": float(values[s].max())} for s in xs],
        "fitted_exponent": est.mean,
        "exponent_interval": [est.low, est.high],
        "exponent_tolerance": EXP_TOL,
        "geometric_mean_per_sigma0": [_geometric_mean(values[s]) for s in xs],
        "rule": "log-log OLS slope of the replicates' geometric mean over the σ0 grid, Welch "
                "t interval on the log scale (scaling.fit_exponent); O: slope >= a − tol, "
                "Ω: slope <= a + tol, Θ: |slope − a| <= tol, all on the whole interval",
    }
    ev.update(evidence or {})
    deriv = (
        f"{quantity}: geometric mean over replicates per σ0 "
        + ", ".join(f"σ0={s:g}: {_geometric_mean(values[s]):.4g}" for s in xs)
        + f"; fitted exponent {est.mean:.3f} [{est.low:.3f}, {est.high:.3f}].\n\n"
        + comparisons_markdown(comps)
    )
    return (name, comps, ev, deriv)


#: One order statement of a reading that makes several (:func:`_exponent_parts`): the
#: quantity, its values by σ0 and the claimed orders, as :func:`_exponent_reading` takes them.
ExponentPart = tuple[str, dict[float, np.ndarray], list[tuple[str, float]]]


def _exponent_parts(
    name: str, ctx: CheckContext, parts: Sequence[ExponentPart], alpha: float
) -> tuple[list[Comparison], list[dict[str, Any]], str]:
    """:func:`_exponent_reading` of each of ``parts`` in turn: their comparisons in one list,
    their evidence in order, and their derivations joined by a blank line."""
    comps: list[Comparison] = []
    evidence, derivations = [], []
    for quantity, values, rules in parts:
        _, part_comps, part_ev, part_deriv = _exponent_reading(name, ctx, quantity, values,
                                                               rules, alpha)
        comps += part_comps
        evidence.append(part_ev)
        derivations.append(part_deriv)
    return comps, evidence, "\n\n".join(derivations)
