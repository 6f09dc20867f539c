"""The driver of the dense-gate rates claims (002's Theorems, :mod:`.rates`): the fits of a
plan in group-sequential looks of replicates (:func:`_rates_sequential`, with the futility rule
of the convergence rule), the slope fit of one loss, its one-sided and difference comparisons,
and the derivation text.

Convergence rule: every fit runs projected batched LM, then projected BFGS, on the design's
compact parameter space to the stopping rule (Gauss–Newton decrement on the free coordinates
at most ``lm_tol`` times the objective) or to the caps ``lm_iterations`` and
``qn_iterations``. A fit at the caps is not the estimator's: its loss is counted as unknown,
and every interval holds every value it could have (:func:`_slope`); a cell with half or
more of its fits capped has no bounded median, so no reading on its config is decided
(``capped`` and ``converged_share`` per n in the evidence, and per cell how the fits ended:
``convergence``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from moetheory import CheckContext, Reading, Verdict
from moetheory.estimation.detmath import det_log
from moetheory.estimation.experiment import rates_design, run_rates, slope_bootstrap
from moetheory.estimation.parameter_space import ParameterSpace
from moetheory.stats import (
    Budget,
    Comparison,
    SequentialResult,
    at_most,
    combine,
    greater,
    run_sequential,
    stable,
)
from proofs_checks.nguyen2025cosine._rates_plan import (
    MARGIN,
    _converged_share,
    _convergence_cells,
    _convergence_text,
    _fit_row,
    _public,
    _slope_cells,
    _slope_difference,
    _slope_estimate,
    _slope_text,
    _Undecided,
)

__all__: list[str] = []

#: Replicates per look and looks, per profile: looks at B + 1, 2B + 1, 3B + 1 replicates (odd
#: counts, so that the exact bootstrap law of the median applies).
#: The quick profile takes one look (13 replicates): its fits run to the stopping rule
#: (``RatesDesign.lm_tol``), which costs about twice the former fixed 40 iterations.
RATES_BUDGET: dict[str, tuple[int, int]] = {"quick": (12, 1), "full": (16, 3)}

#: The router comparison: decided by the difference of two slopes against the smallest
#: meaningful effect MARGIN = 0.05, so an interval narrower than that is needed when the
#: difference is small. At the full profile's former 49 replicates (its first look now) the
#: difference's interval was about +-0.14 wide at the claim's level: about 8 times the
#: replicates, in looks of 48 (issue 32: size the replicates by what the tolerance needs).
COMPARISON_BUDGET: dict[str, tuple[int, int]] = {"quick": (12, 1), "full": (48, 8)}

#: pcr.rates.perturbed-fast: its readings are intervals of slopes against a band 0.37 wide
#: at a Bonferroni share of 9 readings; at 17 replicates half-widths were about 0.1-0.18, and
#: a slope near an end of the band needs about 3 to 4 times the replicates. The full
#: profile's one look of 17 is what fits in a check's 900-s CPU limit with its families
#: (tanh and GELU, about 27 s a replicate: ``_fast_families.FAST_EXPERT_SECONDS``); the
#: former looks of 32, up to 129, with every family (about 210 s a replicate) exceeded it in
#: the first.
PERTURBED_FAST_BUDGET: dict[str, tuple[int, int]] = {"quick": (12, 1), "full": (16, 1)}


def _rates_sequential(ctx: CheckContext, plan: dict[str, list[tuple[str, int]]], judge,
                      decided=None, budgets: dict[str, tuple[int, int]] = RATES_BUDGET):
    """Run the rates fits of ``plan`` (expert -> configs) in looks of replicates until the
    claim is decided (:func:`moetheory.stats.run_sequential`, Bonferroni over the looks).

    Futility within a look: a config's sizes after its first cell with half or more of the
    winning fits at the iteration cap (over the looks so far) are not
    fitted (``run_rates(stop=...)``): every reading on that config is undecided by the
    convergence rule whatever they give (:func:`_slope`), and that stops the looks.

    ``judge(records_by_expert, alpha_look)`` returns ``(comparisons, payload)``; returns the
    design with the replicates used, the sequential result, the last payload and how every
    cell's fits ended (:func:`~._rates_plan._convergence_cells`)."""
    budget = Budget.for_profile(ctx.profile, quick=budgets["quick"], full=budgets["full"])
    base = rates_design(ctx.profile)
    records: dict[str, list[dict[str, Any]]] = {e: [] for e in plan}
    last: dict[str, Any] = {}

    def draw(look: int, size: int) -> dict[str, np.ndarray]:
        first = 0 if look == 0 else 1 + look * size
        count = size + 1 if look == 0 else size
        for expert, configs in plan.items():
            design = replace(base, expert=expert, replicates=count)
            # on a cluster, through ctx.map: supervised tasks under the check's limits
            records[expert].extend(run_rates(
                design, data_seed(ctx), configs, first_rep=first,
                stop=_at_the_cap(records[expert]),
                map_tasks=ctx.map if ctx.scheduler is not None else None))
        return {"replicate": np.arange(first, first + count)}

    def judge_look(data: dict[str, np.ndarray], alpha_look: float) -> list[Comparison]:
        comps, last["payload"] = judge(records, alpha_look)
        return comps

    seq = run_sequential(draw, judge_look, ctx.alpha, budget, decided=_stop(decided))
    return replace(base, replicates=seq.n), seq, last["payload"], _convergence_cells(records)


def _to_decide(profile: str, budgets: dict[str, tuple[int, int]], seq: SequentialResult,
               not_fitted: list[str] | None = None, capped: bool = False) -> str:
    """What would decide a dense rates claim its ``profile`` left inconclusive, in words.

    Quick: the full profile (its sizes, its replicate budget from ``budgets``, its BFGS cap),
    and which expert families only it fits (``not_fitted``). Full: a budget of replicates
    beyond the ``seq.n`` spent (an interval's half-width shrinks about as the inverse
    square root of the replicates; a slope on a threshold itself is decided by none), or,
    where the convergence rule left a reading open (``capped``), a higher iteration cap."""
    if profile == "quick":
        full = rates_design("full")
        batch, looks = budgets["full"]
        return ("the full profile"
                + (f", which also fits the {', '.join(not_fitted)} experts" if not_fitted else "")
                + f" (n = {', '.join(map(str, full.n_grid))}; "
                + (f"up to {1 + batch * looks} replicates, in looks of {batch}" if looks > 1
                   else f"{1 + batch} replicates")
                + f"; BFGS cap {full.qn_iterations})")
    return ((f"a higher BFGS cap than {rates_design('full').qn_iterations} for the cells "
             "with half or more of their fits at it, and " if capped else "")
            + f"more replicates than the {seq.n} the full profile's budget allowed (interval "
            "half-widths shrink about as 1/sqrt(replicates)), unless a slope lies on its "
            "threshold")


def data_seed(ctx: CheckContext) -> int:
    """The seed of the dense rates data: one per run (:meth:`CheckContext.shared_seed`), so
    that the claims fitting the same cells (pcr.rates.regression's are among
    pcr.rates.comparison's, pcr.rates.perturbed-fast's tanh cells too) fit them once per run;
    the bootstrap streams stay each claim's own (``ctx.rng``)."""
    return ctx.shared_seed("rates:dense")


def _run_evidence(ctx: CheckContext, design: Any, seq: SequentialResult,
                  cells: list[dict[str, Any]]) -> dict[str, Any]:
    """The evidence every dense rates claim gives of its run (:func:`_rates_sequential`): the
    design with the replicates used, the claim's seed and the shared data seed
    (:func:`data_seed`), the convergence rule (:data:`CAPPED_RULE`), the sequential looks and
    how every cell's fits ended (``cells``)."""
    return {
        "design": design.to_dict(),
        "seed": ctx.seed,
        "data_seed": data_seed(ctx),
        "capped_fits": CAPPED_RULE,
        "sequential": seq.evidence(),
        "convergence": cells,
    }


def _at_the_cap(earlier: list[dict[str, Any]]):
    """The futility rule of :func:`_rates_sequential`: do half or more of a cell's winning
    fits, with the ``earlier`` looks' fits of that cell, sit at the iteration cap (so that its
    median, and every reading's interval, is unbounded: :func:`_slope`)?"""

    def stop(router: str, k: int, n: int, cell: list[dict[str, Any]]) -> bool:
        rows = [r for r in earlier if (r["router"], r["k"], r["n"]) == (router, k, n)] + cell
        return _unbounded(rows)

    return stop


def _unbounded(rows: list[dict[str, Any]]) -> bool:
    """Whether half or more of ``rows`` (a cell's winning fits) are at the iteration cap: then
    a median of the cell can be any positive number whatever the converged fits give."""
    return 2 * sum(not r.get("converged", False) for r in rows) >= len(rows)


#: The convergence rule of the dense rates claims, for their evidence.
CAPPED_RULE = ("a fit at the iteration caps is counted as unknown: every interval holds every "
               "value its loss could have; a cell with half or more of its fits capped leaves "
               "the readings on its (router, k) undecided")

#: The stand-ins of a capped fit's unknown loss: the smallest and the largest it could be
#: (positive and finite, so that the log-log slope is defined; their logs are +-690).
_LOSS_RANGE = (1e-300, 1e300)


def _slope(records, router: str, k: int, loss: str, alpha: float, ctx: CheckContext, stream: int,
           exact: bool = True):
    """The slope fit of one loss of one config, with the fits at the iteration cap counted
    as unknown.

    A capped fit's loss is not the estimator's (its fit did not finish), so it is not used:
    it is taken as unknown, anywhere in ``(0, inf)``. Each bootstrap resample's slope
    :math:`\\sum_i w_i \\log \\mathrm{med}^*_i` is monotone in each loss (increasing where
    :math:`w_i > 0`, decreasing where :math:`w_i < 0`), so the interval's lower end is taken
    with every unknown at the end that lowers the slope (:data:`_LOSS_RANGE`) and its upper end
    with every unknown at the other: the interval then holds the interval of every value the
    capped fits' losses could have (same resamples: one stream). Without capped fits it is
    the usual interval. ``slope`` is the slope of the medians of the converged fits;
    ``capped`` counts the capped fits per ``n``. A cell with half or more of its fits capped
    has an unbounded median: ``slope`` and ``ci`` are then ``None``, ``open_cells`` names
    those cells, and no reading on the config is decided (its later sizes were not fitted,
    :func:`_rates_sequential`)."""
    ns = sorted({r["n"] for r in records if (r["router"], r["k"]) == (router, k)})
    cells = [[r for r in records if (r["router"], r["k"], r["n"]) == (router, k, n)]
             for n in ns]
    shares = [_converged_share(c) for c in cells]
    capped = [sum(not r.get("converged", False) for r in c) for c in cells]
    kept = [[r[loss] for r in c if r.get("converged", False)] for c in cells]
    base = {"level": 1 - alpha, "n": ns,
            "medians": [stable(float(np.median(v))) if v else None for v in kept],
            "converged_share": [round(v, 4) for v in shares], "capped": capped}
    open_cells = [int(n) for n, c in zip(ns, cells, strict=True) if _unbounded(c)]
    if open_cells:
        return {"slope": None, "ci": None, **base, "open_cells": open_cells}
    log_n = det_log(np.asarray(ns, float))
    w = log_n - log_n.mean()
    # Monte Carlo (differences, or a support too large to enumerate): the percentile
    # interval's ends must rest on >= 25 resamples each
    n_boot = max(4000, math.ceil(50 / alpha))
    ends = []
    for lower in (True, False):
        mat = [sorted([*v, *[_LOSS_RANGE[int((wi > 0) != lower)]] * c])
               for v, c, wi in zip(kept, capped, w, strict=True)]
        ends.append(slope_bootstrap(np.asarray(ns, float), np.array(mat, dtype=float), alpha,
                                    ctx.rng(stream), n_boot=n_boot, exact=exact))
    low, high = ends
    if sum(capped):
        meds = det_log(np.array([np.median(v) for v in kept]))
        slope = float(np.einsum("m,m->", w, meds - meds.mean()) / np.einsum("m,m->", w, w))
    else:
        slope = low["slope"]
    return {"slope": slope, "ci": [low["ci"][0], high["ci"][1]], **base,
            "method": low["method"], "boot": low["boot"], "boot_low": low["boot"],
            "boot_high": high["boot"], "open_cells": []}


def _judged(label: str, rule: str, reference: float, tolerance: float, judge,
            *fits: dict) -> Comparison | _Undecided:
    """``judge()``, or :class:`_Undecided` (label marked with :data:`CAP_MARK`) when a cell
    of any of ``fits`` has half or more of its winning fits at the iteration cap (its median
    is unbounded: :func:`_slope`)."""
    if any(f.get("open_cells") for f in fits):
        return _Undecided(label + CAP_MARK, rule, reference, tolerance)
    return judge()


#: Marks a comparison that the convergence rule left undecided (see :func:`_judged`).
CAP_MARK = " [not decided: half or more of a cell's fits at the iteration cap]"


def _stop(decided):
    """The sequential stopping rule of the rates claims: the claim's own (``decided``, or
    the combined verdict decided, as :func:`moetheory.stats.run_sequential`), or futility:
    a comparison left undecided by the convergence rule stops the looks (more replicates do
    not make the optimiser converge; stopping without a decision keeps the error rates)."""

    def stop(comps: list[Comparison]) -> bool:
        if any(c.label.endswith(CAP_MARK) for c in comps):
            return True
        if decided is not None:
            return bool(decided(comps))
        return combine([c.verdict for c in comps]) is not Verdict.INCONCLUSIVE

    return stop


def _cap_note(fits: dict[str, dict]) -> str:
    """The configs whose slopes were not estimated and their cells at the cap, for a summary
    (empty when every slope was)."""
    bad = {name: f["open_cells"] for name, f in fits.items() if f.get("open_cells")}
    if not bad:
        return ""
    return ("; slopes not estimated where half or more of a cell's fits hit the iteration "
            "cap (larger n not fitted): "
            + ", ".join(f"{name} n = {', '.join(map(str, cells))}"
                        for name, cells in bad.items()))


def _one_sided(label: str, fit: dict, n: int, threshold: float, faster_supports: bool
               ) -> Comparison | _Undecided:
    """``slope <= threshold`` (``faster_supports``: stats.at_most) or ``slope > threshold``
    (stats.greater), decided on the bootstrap interval."""
    rule = at_most if faster_supports else greater
    return _judged(label, "at-most" if faster_supports else "greater", threshold, 0.0,
                   lambda: rule(label, _slope_estimate(fit, n), threshold, 0.0), fit)


def _fmt(fit: dict) -> str:
    if fit["slope"] is None:
        cells = ", ".join(map(str, fit["open_cells"]))
        return (f"not estimated: half or more of the fits at the iteration cap at n = {cells} "
                "(larger n not fitted)")
    text = _slope_text(fit)
    if sum(fit["capped"]):
        text += f" (interval over every loss the {sum(fit['capped'])} capped fit(s) could have)"
    return text


def _fit_readings(fits: dict[str, dict], comps: dict[str, Any], text: str) -> list[Reading]:
    """One reading ``text`` per fit: its comparison's verdict, its slope (:func:`_fmt`) as the
    summary, the fit and the comparison as evidence."""
    return [
        Reading(name, text, comps[name].verdict, _fmt(f),
                {"fit": _public(f), "comparison": comps[name].to_dict()})
        for name, f in fits.items()
    ]


def _sequential_text(seq: SequentialResult) -> str:
    looks = ", ".join(str(h["n"]) for h in seq.looks)
    sizes = ", ".join(str(1 + seq.budget.batch * (i + 1)) for i in range(seq.budget.max_looks))
    return (
        "Replicates by the group-sequential rule (moetheory.stats.run_sequential): "
        + (f"one look at {sizes}" if seq.budget.max_looks == 1 else
           f"up to {seq.budget.max_looks} looks at {sizes}")
        + f" replicates, each look's intervals at level 1 - alpha/{seq.budget.max_looks} "
        f"(alpha = {stable(seq.alpha)}), stopping at the first look that decides the claim "
        "or leaves a comparison undecided by the convergence rule (futility: more "
        "replicates do not make fits converge); "
        f"looks taken: {looks} replicates.\n\n"
    )


def _rates_derivation(design, fits: dict[str, dict], rule: str,
                      seq: SequentialResult | None = None, experts: str | None = None,
                      cells: list[dict[str, Any]] | None = None) -> str:
    """The derivation text of a rates claim; ``experts`` names the expert families when the
    claim fits several (default: ``"<design.expert> experts"``); ``cells`` the per-cell
    convergence (:func:`~._rates_plan._convergence_cells`)."""
    rows = "\n".join(
        _fit_row(name, f) + " "
        + ("not estimated | — |" if f["slope"] is None else
           _slope_cells(f) + " |")
        for name, f in fits.items()
    )
    space = ParameterSpace(3, 2, design.router("perturbed"), design.bound)
    return (
        f"Data $Y = f_{{G_*}}(X)+\\varepsilon$, $X\\sim U([-2,2]^2)$, $\\sigma={design.sigma}$, "
        f"{experts or design.expert + ' experts'}, $k_*=2$; "
        f"$n\\in{list(design.n_grid)}$, {design.replicates} "
        "replicates. Least squares (3) over the compact parameter space $\\Theta$ below, by "
        "batched Levenberg–Marquardt projected on $\\Theta$ (bit-identical on every SIMD/BLAS "
        f"path) for at most {design.lm_iterations} iterations, continued for the fits it has "
        f"not stopped by projected BFGS for at most {design.qn_iterations} (Gauss–Newton "
        "drops the residual term of the Hessian, which the noise makes as large as the "
        "curvature of a weakly identified atom: there the damped steps zigzag along curved "
        "valleys for thousands of iterations, while BFGS learns the curvature). Each fit "
        "stops when, after an accepted step, the Gauss–Newton decrement (the decrease a "
        "full undamped step predicts) on the coordinates not held on a face of $\\Theta$ is "
        f"at most {design.lm_tol:g} times the objective, or no descent is left "
        "(*converged*: a Karush–Kuhn–Tucker point of $\\Theta$ at that precision); in the "
        "BFGS phase also when the decrement of some convex combination of the gradients at "
        "its last 5 iterates, all within $10^{-3}$ of it, is at most that (approximate Clarke "
        "stationarity: ReLU experts make the objective nondifferentiable wherever a hinge "
        "crosses an input); a fit at both caps is *not converged*. Starts: one near $G_*$ "
        "($G_*$ plus "
        f"$N(0, {design.start_noise}^2)$ noise on every parameter; with $k=3$ its first atom "
        "split in two of half the mass: a point of the neighbourhood of $G_*$ that the "
        "local theory of the Voronoi loss is about) and "
        f"{design.restarts} standard-normal start(s); the lowest objective wins.\n\n"
        "Parameter space ((A.1) asks for a compact $\\Theta$; why this one): $f_G$ does not "
        "change along a common shift of $\\beta_0$, nor (cosine) the scale of each "
        "$\\beta_{1i}$, (linear) a common translation of the $\\beta_{1i}$, (perturbed) a "
        "common translation of the $v_i=\\beta_{1i}/(\\|\\beta_{1i}\\|+\\tau_1)$, in which "
        "the score $v_i^\\top x/(\\|x\\|+\\tau_2)$ is linear. So $\\Theta$ is stated on these "
        "orbits: each fit is kept in the gauge where $\\beta_0$ and each coordinate of the "
        "router parameters (linear $\\beta_1$, perturbed $v$) are centred on their midrange "
        "over the atoms (cosine: $\\|\\beta_{1i}\\|=1$), which minimises the largest "
        "coordinate over the orbit, and there $|\\beta_{0i}|\\le B$, router coordinates at "
        f"most $R$, $|\\eta_{{ij}}|\\le B$, with $B={design.bound:g}$: the log-masses span at "
        "most $2B$ (an atom at relative mass $e^{-2B}$ is the nearest $\\Theta$ comes to the "
        "over-specified model's dropped atom); linear: $R=B$; perturbed: "
        f"$R=B/((B+\\tau_1)\\sqrt2)={space.router_bound:.4f}$, the largest cube in the ball "
        "$\\|v\\|\\le B/(B+\\tau_1)$ (the image of $\\|\\beta_1\\|\\le B$), itself inside the "
        "open unit ball that is the perturbed router's own parameter space; $G_*$ lies inside "
        "with a margin (its coordinates are at most 1 in absolute value; its $v$ spans 0.71 "
        "and 0.24 against $2R$). Without the gauge a fit drifts along the flat directions "
        "until a coordinate meets the box for no reason the data give (the capped fits of "
        "earlier versions sat there). A converged fit on a face of $\\Theta$ is a "
        "Karush–Kuhn–Tucker point of least squares over $\\Theta$, i.e. the estimator (3) "
        "for this $\\Theta$: it is used, and counted per cell below (the faces reached are "
        "those of atoms fitting the noise: an extra atom's expert parameters, the router's "
        "span, a mass at $e^{-2B}$).\n\n"
        "Losses are taken on canonical forms (masses normalised; cosine: $\\beta_1/\\|\\beta_1\\|$;"
        " linear: $\\beta_1$ centred; perturbed: $v=\\beta_1/(\\|\\beta_1\\|+\\tau_1)$ centred; "
        "$(a^\\top x+b)^2$ experts: each $\\eta_i$ with the sign nearer a true atom, since "
        "$\\pm\\eta$ give the same expert) "
        "except the *raw* loss, which uses $\\beta_1$ as fitted and so is not a function of "
        "the regression function (it need not tend to 0). Groups: masses "
        "$\\sum_j|\\sum_{A_j}e^{\\beta_{0i}}-e^{\\beta^*_{0j}}|$, router "
        "$\\sum e^{\\beta_{0i}}\\|\\Delta\\beta_{1ij}\\|$, expert parameters "
        "$\\sum e^{\\beta_{0i}}\\|\\Delta\\eta_{ij}\\|$, expert functions "
        "$\\sum e^{\\beta_{0i}}\\max_x|h(x,\\eta_i)-h(x,\\eta^*_j)|$. Slope of $\\log$(median "
        "loss) on $\\log n$; its interval is the percentile bootstrap over replicates within "
        "each $n$, taken from the exact bootstrap law (each resample's median has a finite law, "
        "so there is no resampling error) unless the rule below says Monte Carlo.\n\n"
        f"Decision rule, fixed by the claim before the numbers: {rule}\n\n"
        "Convergence rule: a fit at the caps is not the estimator's (its fit did not "
        "finish), so its loss is not used: it is counted as unknown, anywhere in "
        "$(0,\\infty)$. Each bootstrap resample's slope is monotone in each loss (increasing "
        "in the losses at the larger sizes, decreasing at the smaller), so the interval's "
        "lower end is computed with every unknown loss at the end that lowers the slope "
        "($10^{-300}$ or $10^{300}$) and its upper end with every one at the other: the "
        "interval holds the interval of every value the capped fits could have (a capped fit "
        "that could be a cell's median in a resample more often than the level allows makes "
        "it very wide); the slope shown is that of the medians of the converged fits. A cell "
        "with half or more of its fits capped has no bounded median: no reading on its "
        "(router, k) is decided, and its larger sizes are not fitted. (Until this version a "
        "reading needed 90% of each cell's fits converged; the capped ones are now counted "
        "instead of blocking the reading.) The share per n is in the table; how every cell's "
        "winning fits ended is in the second table (and the evidence, `convergence`).\n\n"
        + (_sequential_text(seq) if seq is not None else "")
        + "| statistic | n fitted | median loss per n | converged per n | slope | CI |\n"
        f"|---|---|---|---|---|---|\n{rows}"
        + ("\n\nHow the winning fits ended, per cell:\n\n" + _convergence_text(cells)
           if cells else "")
    )


def _difference(label: str, fa: dict, fb: dict, alpha: float, n: int
                ) -> tuple[dict, Comparison | _Undecided]:
    """``other slope - perturbed slope > 0`` by stats.greater (smallest effect MARGIN)."""
    if fa["slope"] is None or fb["slope"] is None:
        undecided = _Undecided(label + CAP_MARK, "greater", 0.0, MARGIN)
        return {"difference": None, "ci": None, "verdict": undecided.verdict,
                "comparison": undecided.to_dict()}, undecided
    gain = _slope_difference(fa, fb, alpha, n)
    comp = greater(label, gain, 0.0, MARGIN)
    return {"difference": stable(-gain.mean), "ci": [stable(-gain.high), stable(-gain.low)],
            "verdict": comp.verdict, "comparison": comp.to_dict()}, comp


def _decided_first(readings: list[Reading]) -> str:
    """A summary of ``readings``: the decided ones with their numbers, then how many were
    left inconclusive and, if they share it, why."""
    decided = [r for r in readings if r.verdict is not Verdict.INCONCLUSIVE]
    rest = [r for r in readings if r.verdict is Verdict.INCONCLUSIVE]
    parts = [f"{r.name} {r.verdict.value} ({r.summary})" for r in decided]
    if rest:
        why = {r.summary for r in rest}
        parts.append(f"{len(rest)} of {len(readings)} readings inconclusive"
                     + (f" ({why.pop()})" if len(why) == 1 else ""))
    return "; ".join(parts)


def _difference_text(d: dict) -> str:
    if d["difference"] is None:
        return "not estimated"
    return f"{d['difference']}, CI [{d['ci'][0]}, {d['ci'][1]}]"
