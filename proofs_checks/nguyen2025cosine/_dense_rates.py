"""The driver of the dense-gate rates claims (002's Theorems, :mod:`.rates`): the fits of a
plan in group-sequential looks of replicates (:func:`_rates_sequential`, with the futility rule
of the convergence rule), the slope fit of one loss, its one-sided and difference comparisons,
and the derivation text.

Convergence rule (fixed before any result): every fit runs projected batched LM, then
projected BFGS, on the design's compact parameter space to the stopping rule (Gauss–Newton
decrement on the free coordinates at most ``lm_tol`` times the objective) or to the caps
``lm_iterations`` and ``qn_iterations``; a reading is decided only if in every (router, k, n)
cell it rests on at least :data:`~._rates_plan.MIN_CONVERGED` of the replicates' winning fits
stopped by the rule, else it is inconclusive with that reason (``converged_share`` per n in
the evidence, and per cell how the fits ended: ``convergence``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from moetheory import CheckContext, Reading, Verdict
from moetheory.estimation.experiment import loss_matrix, rates_design, run_rates, slope_bootstrap
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
    MIN_CONVERGED,
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

#: The router comparison fits three routers per look.
COMPARISON_BUDGET: dict[str, tuple[int, int]] = {"quick": (12, 1), "full": (16, 3)}


def _rates_sequential(ctx: CheckContext, plan: dict[str, list[tuple[str, int]]], judge,
                      decided=None, budgets: dict[str, tuple[int, int]] = RATES_BUDGET):
    """Run the rates fits of ``plan`` (expert -> configs) in looks of replicates until the
    claim is decided (:func:`moetheory.stats.run_sequential`, Bonferroni over the looks).

    Futility within a look: a config's sizes after its first cell with fewer than
    :data:`MIN_CONVERGED` of the winning fits converged (over the looks so far) are not
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
            records[expert].extend(run_rates(design, data_seed(ctx), configs,
                                             scheduler=ctx.scheduler, first_rep=first,
                                             stop=_at_the_cap(records[expert])))
        return {"replicate": np.arange(first, first + count)}

    def judge_look(data: dict[str, np.ndarray], alpha_look: float) -> list[Comparison]:
        comps, last["payload"] = judge(records, alpha_look)
        return comps

    seq = run_sequential(draw, judge_look, ctx.alpha, budget, decided=_stop(decided))
    return replace(base, replicates=seq.n), seq, last["payload"], _convergence_cells(records)


def data_seed(ctx: CheckContext) -> int:
    """The seed of the dense rates data: one per run (:meth:`CheckContext.shared_seed`), so
    that the claims fitting the same cells (pcr.rates.regression's are among
    pcr.rates.comparison's, pcr.rates.perturbed-fast's tanh cells too) fit them once per run;
    the bootstrap streams stay each claim's own (``ctx.rng``)."""
    return ctx.shared_seed("rates:dense")


def _at_the_cap(earlier: list[dict[str, Any]]):
    """The futility rule of :func:`_rates_sequential`: is a cell's share of converged
    winning fits, with the ``earlier`` looks' fits of that cell, below MIN_CONVERGED?"""

    def stop(router: str, k: int, n: int, cell: list[dict[str, Any]]) -> bool:
        rows = [r for r in earlier if (r["router"], r["k"], r["n"]) == (router, k, n)] + cell
        return _converged_share(rows) < MIN_CONVERGED

    return stop


def _slope(records, router: str, k: int, loss: str, alpha: float, ctx: CheckContext, stream: int,
           exact: bool = True):
    """The slope fit of one loss of one config, or, when a cell has fewer than
    MIN_CONVERGED of its fits converged, the cells as fitted with ``slope`` and ``ci``
    ``None``: no reading on it is decided (its later sizes were not fitted, see
    :func:`_rates_sequential`)."""
    ns = sorted({r["n"] for r in records if (r["router"], r["k"]) == (router, k)})
    cells = [[r for r in records if (r["router"], r["k"], r["n"]) == (router, k, n)]
             for n in ns]
    shares = [_converged_share(c) for c in cells]
    unconverged = [int(n) for n, v in zip(ns, shares, strict=True) if v < MIN_CONVERGED]
    if unconverged:
        return {"slope": None, "ci": None, "level": 1 - alpha, "n": ns,
                "medians": [stable(float(np.median([r[loss] for r in c]))) for c in cells],
                "converged_share": [round(v, 4) for v in shares],
                "unconverged_cells": unconverged}
    ns, mat = loss_matrix(records, router, k, loss)
    # Monte Carlo (differences, or a support too large to enumerate): the percentile
    # interval's ends must rest on >= 25 resamples each
    n_boot = max(4000, math.ceil(50 / alpha))
    fit = slope_bootstrap(ns, mat, alpha, ctx.rng(stream), n_boot=n_boot, exact=exact)
    fit["medians"] = [stable(v) for v in np.median(mat, axis=1)]
    fit["n"] = ns
    fit["converged_share"] = [round(v, 4) for v in shares]
    fit["unconverged_cells"] = []
    return fit


def _judged(label: str, rule: str, reference: float, tolerance: float, judge,
            *fits: dict) -> Comparison | _Undecided:
    """``judge()``, or :class:`_Undecided` (label marked with :data:`CAP_MARK`) when a cell
    of any of ``fits`` has fewer than :data:`MIN_CONVERGED` of its fits stopped by the rule
    (the rest hit the iteration cap)."""
    if any(f.get("unconverged_cells") for f in fits):
        return _Undecided(label + CAP_MARK, rule, reference, tolerance)
    return judge()


#: Marks a comparison that the convergence rule left undecided (see :func:`_judged`).
CAP_MARK = " [not decided: fits at the iteration cap]"


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
    bad = {name: f["unconverged_cells"] for name, f in fits.items() if f.get("unconverged_cells")}
    if not bad:
        return ""
    return (f"; slopes not estimated where over {1 - MIN_CONVERGED:.0%} of a cell's fits hit "
            "the iteration cap (larger n not fitted): "
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
        cells = ", ".join(map(str, fit["unconverged_cells"]))
        return (f"not estimated: over {1 - MIN_CONVERGED:.0%} of the fits at the iteration cap "
                f"at n = {cells} (larger n not fitted)")
    return _slope_text(fit)


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
        "(*converged*: a Karush–Kuhn–Tucker point of $\\Theta$ at that precision); a fit at "
        "both caps is *not converged*. Starts: one near $G_*$ ($G_*$ plus "
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
        f"Convergence rule, fixed before the numbers: a reading is decided only if in every "
        f"(router, k, n) cell it rests on at least {MIN_CONVERGED:.0%} of the replicates' "
        "winning fits converged; otherwise it is inconclusive (its slope could describe "
        "the optimiser rather than the estimator), and its slope is not estimated. The cells "
        "of a (router, k) are fitted in increasing n; after the first cell that fails the "
        "rule, the larger sizes are not fitted, since no reading on that (router, k) can be "
        "decided whatever they give. The share per n is in the table; how every cell's "
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
