"""Checks of the convergence-rate claims (seeds 002 and 000): the estimation-rate experiments
(the polynomial expert's identity and the rate inferences, decided by logic and algebra, are
in :mod:`.rate_inferences`).

Rates are statements about sequences: "``a_n`` is slower than every polynomial" means
``a_n / n^{-c} -> infinity`` for every ``c > 0``; "``a_n`` is ``O(b_n)``" means
``a_n / b_n`` stays bounded. A deterministic sequence of estimates is a legitimate
counterexample to an inference that holds for *every* estimator sequence.

The experiments fit a log-log slope of the median loss against n with a percentile-bootstrap
interval and decide each reading on it; a finite grid of n cannot show an asymptotic rate, so
every reading says "over n in the design's range". The dense-gate claims (002's Theorems) run
in group-sequential looks (:mod:`._dense_rates`); the claims of seed 000's answers (top-1,
Top-K, misspecified data, over-specified fits) in :mod:`._variant_rates`; the scaffolding they
share is in :mod:`._rates_plan`.
"""

from __future__ import annotations

import functools
from typing import Any

import sympy as sp

from moetheory import CheckContext, Outcome, Reading, Verdict, claim
from moetheory.estimation.overspecified import (
    overspecified_design,
    run_overspecified,
    start_names,
)
from moetheory.stats import combine, compare, stable
from proofs_checks.nguyen2025cosine import _homogeneous_split as split
from proofs_checks.nguyen2025cosine._common import (
    ESTIMATION_SECTION,
    S0,
    S2,
    seed_claim,
)
from proofs_checks.nguyen2025cosine._dense_rates import (
    CAP_MARK,
    COMPARISON_BUDGET,
    PERTURBED_FAST_BUDGET,
    RATES_BUDGET,
    _cap_note,
    _decided_first,
    _difference,
    _difference_text,
    _fit_readings,
    _fmt,
    _judged,
    _one_sided,
    _rates_derivation,
    _rates_sequential,
    _run_evidence,
    _slope,
    _to_decide,
)
from proofs_checks.nguyen2025cosine._fast_families import (
    _FAMILY_TEXT,
    BAND,
    FAST_EXPERT_SECONDS,
    FAST_EXPERTS,
    FITTED_FAST_EXPERTS,
    _fast_to_decide,
    _not_fitted_reading,
)
from proofs_checks.nguyen2025cosine._rates_plan import (
    GROUPS,
    MARGIN,
    MIN_CONVERGED,
    SLOW_THRESHOLD,
    _all_of,
    _all_reading,
    _convergence_note,
    _public,
    _rate_pair_reading,
    _readings_text,
    _slope_difference,
    _slope_estimate,
)
from proofs_checks.nguyen2025cosine._variant_rates import (
    _MIS_DESIGN,
    TOP1_ROUTERS,
    _design_text,
    _fit,
    _futile,
    _judged_fits,
    _medians,
    _mis_design_text,
    _NotEstimated,
    _open_to_decide,
    _over_design_text,
    _reading,
    _reference,
    _runs,
    _sparse_convergence,
    _table,
    _top1_outcome,
)

__all__ = [
    "check_rates_comparison",
    "check_rates_comparison_misspecified",
    "check_rates_cosine_slow",
    "check_rates_misspecified",
    "check_rates_perturbed_fast",
    "check_rates_regression",
    "check_rates_top1",
    "check_rates_top1_overspecified",
    "check_rates_topk",
    "check_rates_topk_cosine",
    "check_rates_topk_overspecified",
]




# ---------------------------------------------------------------------------------------------
# estimation rates, dense gate (the experiment of 002)
# ---------------------------------------------------------------------------------------------


#: sqrt(log n / n) has local log-log slope >= -1/2 + 1/(2 log 50) > -0.372 for n >= 50.
REGRESSION_THRESHOLD = -0.35


@claim(
    "pcr.rates.regression",
    kind="statistical",
    reading="over-specified (k* = 2, k = 3) cosine and perturbed routers: the log-log slope of "
    "the median ||f_Gn - f_G*||_{L2(mu)} is at most -0.35 (sqrt(log n/n) has local slope "
    "<= -0.372 for n >= 50)",
    statement=(
        "Theorems 1 and 3: ‖f_Ĝn − f_G*‖_{L²(μ)} = O_P(√(log n / n)) for the least-squares "
        "estimator, with either router."
    ),
    statement_latex=(
        r"Theorems 1 and 3: $\lVert f_{\hat G_n} - f_{G^*}\rVert_{L^2(\mu)} = O_P\bigl(\sqrt{\log "
        r"n / n}\bigr)$ for the least-squares estimator, with either router."
    ),
    sources={"002_ed39350ac6d6e1c0.txt": [66, 112]},
    covers=[],
    origin="seed",
)
def check_rates_regression(ctx: CheckContext) -> Outcome:
    """Slopes of the regression error, over-specified cosine and perturbed routers.

    Decided under the convergence rule of :mod:`._dense_rates` (capped fits counted as unknown).
    """
    routers = ("cosine", "perturbed")

    def judge(recs, alpha_look):
        alpha = alpha_look / 2
        fits = {r: _slope(recs["tanh"], r, 3, "regression_l2", alpha, ctx, i)
                for i, r in enumerate(routers)}
        comps = {r: _one_sided(f"{r}: slope <= {REGRESSION_THRESHOLD}", f, len(recs["tanh"]),
                               REGRESSION_THRESHOLD, True) for r, f in fits.items()}
        return list(comps.values()), (fits, comps, alpha)

    design, seq, (fits, comps, alpha), cells = _rates_sequential(
        ctx, {"tanh": [(r, 3) for r in routers]}, judge)
    verdicts = {r: c.verdict for r, c in comps.items()}
    verdict = combine(list(verdicts.values()))
    to_decide = (None if verdict is not Verdict.INCONCLUSIVE else
                 _to_decide(ctx.profile, RATES_BUDGET, seq, capped=_capped(comps.values())))
    return Outcome(
        verdict,
        "regression-function error slopes: "
        + ", ".join(f"{r} {_fmt(f)}" for r, f in fits.items())
        + f" ({design.replicates} replicates; {_convergence_note(cells)})"
        + (f"; to decide it: {to_decide}" if to_decide else ""),
        {
            "to_decide": to_decide,
            **_run_evidence(ctx, design, seq, cells),
            "alpha_per_comparison": alpha,
            "threshold": REGRESSION_THRESHOLD,
            "fits": {r: _public(f) for r, f in fits.items()},
            "comparisons": {r: c.to_dict() for r, c in comps.items()},
            "verdicts": verdicts,
        },
        derivation=_rates_derivation(
            design,
            {f"{r}: L2(mu) error": f for r, f in fits.items()},
            f"stats.at_most: supported when the whole CI is at or below {REGRESSION_THRESHOLD}, "
            "unsupported when it lies above, inconclusive otherwise. The regression function "
            "is identifiable, so there is no raw/identifiable split for this loss.",
            seq,
            cells=cells,
        ),
    )


@claim(
    "pcr.rates.cosine-slow",
    kind="statistical",
    reading="cosine router, tanh experts, k* = 2, both the over-specified (k = 3) and the "
    "exact-specified (k = 2) setting: each of beta0 (masses), beta1 (directions "
    "beta1/||beta1||, its identifiable part), eta and the experts as functions has a log-log "
    "slope of its median loss above -0.18 (the slow end of Theorem 4's polynomial band). "
    "This is a finite-n reading of 'slower than every polynomial': over n in the design's "
    "range the decay is slower than n^-0.18 (a finite experiment cannot exclude every "
    "polynomial). Also reported: the literal L_{1,1} on beta1 as fitted, which is not a "
    "function of f_G (beta1's norm is not identifiable, pcr.identifiable.cosine) and need not "
    "tend to 0",
    statement=(
        "Theorem 2 and contribution 1 (002 L56): under the cosine router, in both the exact- and "
        "the over-specified setting, the rates for estimating beta0*, beta1* and eta* are slower "
        "than every polynomial rate (could be O_P(1/log^tau n)), and so could the rates for the "
        "experts h(., eta*)."
    ),
    statement_latex=(
        "Theorem 2 and contribution 1 (002 L56): under the cosine router, in both the exact- and "
        r"the over-specified setting, the rates for estimating $\beta_0^*$, $\beta_1^*$ and "
        r"$\eta^*$ are slower than every polynomial rate (could be $O_P(1/\log^\tau n)$), and so "
        r"could the rates for the experts $h(\cdot, \eta^*)$."
    ),
    sources={"002_ed39350ac6d6e1c0.txt": [56, 84], "000_7b6465990ad3b04b.txt": [21]},
    covers=['002-10', '002-11'],
    origin="seed",
)
def check_rates_cosine_slow(ctx: CheckContext) -> Outcome:
    """Slopes of every parameter group for the cosine router, k = 3 and k = 2.

    Decided under the convergence rule of :mod:`._dense_rates` (capped fits counted as unknown).
    """
    n_groups = 2 * len(GROUPS)

    def judge(recs, alpha_look):
        alpha = alpha_look / (n_groups + 1)
        fits: dict[str, dict] = {}
        stream = 0
        for k, setting in ((3, "over-specified"), (2, "exact-specified")):
            for group, loss in GROUPS.items():
                stream += 1
                fits[f"{setting}: {group}"] = _slope(recs["tanh"], "cosine", k, loss, alpha,
                                                     ctx, stream)
        fits["over-specified: raw L11 (beta1 as fitted)"] = _slope(
            recs["tanh"], "cosine", 3, "voronoi_l1_raw", alpha, ctx, 99
        )
        comps = {name: _one_sided(f"{name}: slope > {SLOW_THRESHOLD}", f,
                                  len(recs["tanh"]), SLOW_THRESHOLD, False)
                 for name, f in fits.items()}
        return list(comps.values()), (fits, comps, alpha)

    def decided(comps):
        return _all_of([c.verdict for c in comps[:n_groups]]) is not Verdict.INCONCLUSIVE

    design, seq, (fits, comps, alpha), cells = _rates_sequential(
        ctx, {"tanh": [("cosine", 3), ("cosine", 2)]}, judge, decided)
    readings = _fit_readings(
        fits, comps,
        f"slope of the median loss above {SLOW_THRESHOLD} (supported) / below (unsupported)")
    primary = _all_reading(
        "every group, both settings",
        "all of beta0, beta1, eta and the experts slow (slope above the threshold) for k = 3 "
        "and k = 2",
        readings[:-1],
    )
    to_decide = (None if primary.verdict is not Verdict.INCONCLUSIVE else
                 _to_decide(ctx.profile, RATES_BUDGET, seq, capped=_capped(comps.values())))
    return Outcome(
        primary.verdict,
        f"{primary.verdict.value} ({design.replicates} replicates): "
        + _decided_first(readings[:-1])
        + "; the raw L11 reading (not a function of f_G) is reported beside them; "
        + _convergence_note(cells)
        + (f"; to decide it: {to_decide}" if to_decide else ""),
        {
            "to_decide": to_decide,
            **_run_evidence(ctx, design, seq, cells),
            "alpha_per_reading": alpha,
            "threshold": SLOW_THRESHOLD,
        },
        [primary, *readings],
        _rates_derivation(
            design,
            fits,
            f"stats.greater per group: supported when the whole CI is above {SLOW_THRESHOLD}, "
            "unsupported when it lies below, inconclusive otherwise; the claim needs every "
            "group in both settings. The raw L11 (beta1 as fitted) is reported beside it: "
            "beta1's norm is not identifiable for the cosine router (f_G depends on beta1 "
            "only through beta1/||beta1||), so the raw loss need not tend to 0.",
            seq,
            cells=cells,
        ),
    )




@claim(
    "pcr.rates.perturbed-fast",
    kind="statistical",
    reading="for each expert family the seeds name (tanh(a^T x + b), ReLU(a^T x + b), "
    "GELU(a^T x + b) with GELU(z) = z Phi(z), (a^T x + b)^2), the rates hold at every truth G* "
    "satisfying (A.1)-(A.4) (the theorems' scope; 000 L107's worst possible rate): refuted "
    "exactly for a family with a curve of distinct truths sharing one regression function, "
    "else read at the experiment's G*. There, perturbed router (tau1 = tau2 = 1), "
    "over-specified (k* = 2, k = 3): L_{1,1} on the identifiable parameters "
    "(v = beta1/(||beta1||+tau1) centred, normalised masses, eta) has a log-log slope within "
    "[-0.55, -0.18] (the band (log n/n)^{1/2}..(log n/n)^{1/4} with log corrections); further "
    "readings for tanh: each parameter group, the experts as functions, and the literal "
    "L_{1,1} on beta1 as fitted (not identifiable: pcr.identifiable.perturbed)",
    statement=(
        "Theorem 4 / Table 1: under the perturbed router with strongly identifiable experts (the "
        "seeds name feed-forward experts with ReLU, GELU, tanh activations and polynomial "
        "experts), parameter and expert estimation rates are polynomial, between O_P((log "
        "n/n)^{1/4}) and O_P((log n/n)^{1/2}); the worst rate is O_P(n^{-1/4})."
    ),
    statement_latex=(
        "Theorem 4 / Table 1: under the perturbed router with strongly identifiable experts (the "
        "seeds name feed-forward experts with ReLU, GELU, tanh activations and polynomial "
        r"experts), parameter and expert estimation rates are polynomial, between $O_P((\log "
        r"n/n)^{1/4})$ and $O_P((\log n/n)^{1/2})$; the worst rate is $O_P(n^{-1/4})$."
    ),
    sources={
        "002_ed39350ac6d6e1c0.txt": [58, 116],
        "000_7b6465990ad3b04b.txt": [23, 107, 151, 157, 165],
    },
    covers=['000-07', '000-22'],
    origin="seed",
)
def check_rates_perturbed_fast(ctx: CheckContext) -> Outcome:
    """The rates at every truth, for every named expert family: refuted exactly for the
    positively homogeneous ReLU and z^2 (:mod:`._homogeneous_split`); beside it, slopes of L11
    for the perturbed router at the experiment's G*, and the corrected reading (ours) on the
    other families.

    The slopes are decided under the convergence rule of :mod:`._dense_rates` (capped fits
    counted as unknown).
    The quick profile fits the tanh family only (:data:`FITTED_FAST_EXPERTS`): its readings
    on the other families are inconclusive, not fitted.
    """
    fitted = FITTED_FAST_EXPERTS[ctx.profile]
    plan = [(f"{e} experts: L11 on identifiable coordinates", e, "voronoi_l1")
            for e in FAST_EXPERTS]
    plan += [(f"tanh experts: {group}", "tanh", loss) for group, loss in GROUPS.items()]
    plan.append(("tanh experts: raw L11 (beta1 as fitted)", "tanh", "voronoi_l1_raw"))
    judged = [(name, e, loss) for name, e, loss in plan if e in fitted]
    ref, tol = (BAND[0] + BAND[1]) / 2, (BAND[1] - BAND[0]) / 2

    def judge(recs, alpha_look):
        alpha = alpha_look / len(judged)
        fits = {
            name: _slope(recs[e], "perturbed", 3, loss, alpha, ctx, plan.index((name, e, loss)))
            for name, e, loss in judged
        }
        comps = {name: _judged(name, "equivalence", ref, tol,
                               lambda name=name, f=f: compare(
                                   name, _slope_estimate(f, len(recs["tanh"])), ref, tol), f)
                 for name, f in fits.items()}
        return list(comps.values()), (fits, comps, alpha)

    def family_verdicts(comps) -> list[Verdict]:
        by_name = {c.label.removesuffix(CAP_MARK): c.verdict for c in comps}
        return [by_name.get(name, Verdict.INCONCLUSIVE) for name, _, _ in plan[:len(FAST_EXPERTS)]]

    def decided(comps):
        return _all_of(family_verdicts(comps)) is not Verdict.INCONCLUSIVE

    design, seq, (fits, comps, alpha), cells = _rates_sequential(
        ctx, {e: [("perturbed", 3)] for e in fitted}, judge, decided,
        budgets=PERTURBED_FAST_BUDGET)
    by_name = {r.name: r for r in _fit_readings(fits, comps, f"slope CI inside the band {BAND}")}
    not_fitted = [e for e in FAST_EXPERTS if e not in fitted]
    readings = [by_name.get(name) or _not_fitted_reading(name, e, ctx.profile)
                for name, e, _ in plan]
    slopes = readings[: len(FAST_EXPERTS)]
    at_g = _all_reading(
        "every named expert family at the simulated G*",
        "L11 on identifiable coordinates within the band for tanh, ReLU, GELU and z^2 experts",
        slopes,
    )
    truths = design.true
    atoms = split.design_atoms(truths["beta0"], truths["beta1"], truths["eta"])
    taus = (sp.Rational(design.tau1), sp.Rational(design.tau2))
    every = [split.every_truth_reading(e, atoms, *taus) for e in FAST_EXPERTS]
    refuted = [_FAMILY_TEXT[e] for e, r in zip(FAST_EXPERTS, every, strict=True)
               if r.verdict is Verdict.REFUTED]
    primary = Reading(
        "every named expert family, every truth",
        "the rates hold for tanh, ReLU, GELU and z^2 experts at every truth G* (Theorem 4 and "
        "000 L107's worst possible rate): a family refuted at some admissible G* (exact) "
        "refutes it; otherwise each family's slope at the simulated G*",
        Verdict.REFUTED if refuted else at_g.verdict,
        "; ".join(f"{r.name}: {r.verdict.value}" for r in every)
        + f"; {at_g.name}: {at_g.verdict.value}")
    corrected = _all_reading(
        "corrected (ours): tanh and GELU experts at the simulated G*",
        "the rates for the named families that are not positively homogeneous (tanh, GELU: "
        "their pcos-2 family is independent at generic atoms, pcr.ident.ffn-tanh and "
        "pcr.ident.ffn-gelu): L11 slope within the band",
        [slopes[FAST_EXPERTS.index(e)] for e in FAST_EXPERTS
         if e not in split.HOMOGENEOUS_DEGREE])
    to_decide = (None if at_g.verdict is not Verdict.INCONCLUSIVE else
                 _fast_to_decide(ctx.profile, seq, not_fitted, _capped(comps.values())))
    return Outcome(
        primary.verdict,
        (f"refuted in the reading '{primary.name}' (perturbed router, tau1 = "
         f"{design.tau1:g}, tau2 = {design.tau2:g}, truths satisfying (A.1)-(A.4); exact): "
         f"{' and '.join(refuted)} experts are not strongly identifiable under the perturbed "
         "router: one regression function for a curve of distinct truths (h(x, lambda eta) = "
         "lambda^p h(x, eta)), so no estimator attains a rate at all of them but one; Theorem "
         "4 itself, stated for strongly identifiable experts, is not refuted (its hypothesis "
         "fails for these families); " if refuted else "")
        + f"at the simulated G*, {at_g.verdict.value} ({design.replicates} replicates): "
        + _decided_first(slopes)
        + f"; corrected (ours) {corrected.verdict.value}"
        + "; the raw loss is not a function of g_G (v_i -> v_i + w is invisible); "
        + _convergence_note(cells)
        + (f"; to decide the simulated reading: {to_decide}" if to_decide else ""),
        {
            **_run_evidence(ctx, design, seq, cells),
            "experts": list(FAST_EXPERTS),
            "experts_fitted": list(fitted),
            "fitted_per_profile": {p: list(v) for p, v in FITTED_FAST_EXPERTS.items()},
            "alpha_per_reading": alpha,
            "band": BAND,
            "to_decide": to_decide,
            "split_families": sorted(split.HOMOGENEOUS_DEGREE),
        },
        [primary, *every, at_g, corrected, *readings],
        split.split_derivation(list(FAST_EXPERTS)) + "\n\n" + _rates_derivation(
            design,
            fits,
            f"stats.compare (equivalence): supported when the whole CI lies inside the band "
            f"{BAND}, unsupported when it lies outside, inconclusive otherwise; the reading at "
            "the experiment's $G_*$ needs "
            "every expert family the seeds name: tanh, ReLU, GELU ($z\\Phi(z)$, $\\Phi$ the "
            "standard normal distribution function) and $z^2$ (002 L58 names FFN experts with "
            "ReLU and GeLU activations, 002 L116 ReLU, tanh and $z^p$, 000 L165 GELU), each "
            "fitted to data from the same $G_*$ with its own experts. The raw L11 (beta1 as "
            "fitted) is reported beside it: the perturbed gate depends on beta1 only through "
            "v = beta1/(||beta1|| + tau1) up to a common shift of all v_i, so the raw loss "
            "need not tend to 0."
            + (f" The {ctx.profile} profile fits {', '.join(fitted)} experts only (a rule "
               "fixed by CPU cost before any verdict: "
               + ("their cells are the ones the other dense rates claims fit; each further "
                  "family costs about 9 s of quick CPU" if ctx.profile == "quick" else
                  "the families whose replicates fit in a check's CPU limit (900 s); per "
                  "replicate " + ", ".join(f"{e} {FAST_EXPERT_SECONDS[e]:.0f} s"
                                           for e in FAST_EXPERTS))
               + f"): the readings on {', '.join(not_fitted)} are inconclusive, not fitted, "
               "so the reading at $G_*$ can be unsupported here (a fitted family outside the band) "
               "but not supported." if not_fitted else ""),
            seq,
            cells=cells,
            experts=(", ".join(fitted[:-1]) + f" and {fitted[-1]} experts (one data set per "
                     "family)" if len(fitted) > 1 else f"{fitted[0]} experts"),
        ),
    )


def _capped(comps) -> bool:
    """Whether the convergence rule left one of ``comps`` undecided (:data:`CAP_MARK`)."""
    return any(c.label.endswith(CAP_MARK) for c in comps)


@claim(
    "pcr.rates.comparison",
    kind="statistical",
    reading="over-specified (k* = 2, k = 3), tanh experts, same data design for every router: "
    "(000 L25) the log-log slope of the median parameter loss (L_{1,1} on identifiable "
    "coordinates) and of the expert error (experts as functions) is lower (faster) with the "
    "perturbed router than with the linear router; (000 L199) the expert error's slope is "
    "lower with the perturbed router than with the cosine router",
    statement=(
        "[000 L25, L199] the convergence rates of parameter estimation and of expert estimation "
        "with the perturbed cosine router are empirically faster than with the linear router "
        "(L25), and the perturbed router's expert estimation is faster than the linear and the "
        "cosine router's (L199). The misspecified-data comparison of 000 L193 is the claim "
        "pcr.rates.comparison.misspecified."
    ),
    sources={"000_7b6465990ad3b04b.txt": [21, 25, 199]},
    covers=['000-10', '000-47'],
    origin="seed",
)
def check_rates_comparison(ctx: CheckContext) -> Outcome:
    """Slope differences between the perturbed and the linear / cosine routers.

    Decided under the convergence rule of :mod:`._dense_rates` (capped fits counted as unknown).
    """
    routers = ("perturbed", "linear", "cosine")
    par, exp_, raw = "voronoi_l1", "expert_sup", "voronoi_l1_raw"
    pairs = {
        "L25 parameters: perturbed - linear": (("perturbed", par), ("linear", par)),
        "L25 experts: perturbed - linear": (("perturbed", exp_), ("linear", exp_)),
        "L199 experts: perturbed - cosine": (("perturbed", exp_), ("cosine", exp_)),
    }

    def judge(recs, alpha_look):
        alpha = alpha_look / len(pairs)
        fits = {
            (r, loss): _slope(recs["tanh"], r, 3, loss, alpha, ctx, 10 * i + j, exact=False)
            for i, r in enumerate(routers)
            for j, loss in enumerate((par, exp_))
        }
        diffs = {name: _difference(name, fits[a], fits[b], alpha, len(recs["tanh"]))
                 for name, (a, b) in pairs.items()}
        return [c for _, c in diffs.values()], (fits, {k: d for k, (d, _) in diffs.items()},
                                                alpha, recs["tanh"])

    design, seq, (fits, diffs, alpha, recs), cells = _rates_sequential(
        ctx, {"tanh": [(r, 3) for r in routers]}, judge, budgets=COMPARISON_BUDGET)
    readings = [
        Reading(
            name,
            "stats.greater on (other slope - perturbed slope) > 0, smallest meaningful effect "
            f"{MARGIN}",
            d["verdict"],
            f"difference {_difference_text(d)}",
            d,
        )
        for name, d in diffs.items()
    ]
    # the literal L11 (beta1 as fitted), beside the identifiable one: not a function of f_G
    raw_fits = {r: _slope(recs, r, 3, raw, alpha, ctx, 90 + i) for i, r in enumerate(routers)}
    verdict = combine([r.verdict for r in readings])
    to_decide = (None if verdict is not Verdict.INCONCLUSIVE else _to_decide(
        ctx.profile, COMPARISON_BUDGET, seq,
        capped=any(d["difference"] is None for d in diffs.values())))
    against = [r.name for r in readings if r.verdict in (Verdict.UNSUPPORTED, Verdict.REFUTED)]
    return Outcome(
        verdict,
        (f"{verdict.value} in the readings {', '.join(against)}, for this design only: tanh "
         "experts, over-specified (k* = 2, k = 3), the same data for every router; against "
         "the linear router the seeds' theory predicts no advantage for tanh experts (000 L23 "
         "places it at experts, such as polynomial ones, whose rates the linear router slows), "
         "and other expert families are not checked here; "
         if against else "")
        + "slope differences (perturbed - other): "
        + ", ".join(f"{k} {_difference_text(d)}" for k, d in diffs.items())
        + f" ({design.replicates} replicates; {_convergence_note(cells)})"
        + _cap_note({r: fits[(r, par)] for r in routers})
        + (f"; to decide it: {to_decide}" if to_decide else ""),
        {
            "to_decide": to_decide,
            **_run_evidence(ctx, design, seq, cells),
            "alpha_per_comparison": alpha,
            "margin": MARGIN,
            "fits": {f"{r}: {loss}": _public(f) for (r, loss), f in fits.items()},
            "raw_L11_fits": {r: _public(f) for r, f in raw_fits.items()},
        },
        readings,
        derivation=_rates_derivation(
            design,
            {**{f"{r}: {loss}": f for (r, loss), f in fits.items()},
             **{f"{r}: raw L11 (beta1 as fitted)": f for r, f in raw_fits.items()}},
            "stats.greater on (other slope - perturbed slope) > 0 with smallest meaningful "
            f"effect {MARGIN}: supported when its CI lies above 0; unsupported when it lies "
            f"below {MARGIN}; inconclusive otherwise. The claim combines the three. The "
            "differences use Monte Carlo percentile-bootstrap slopes (independent resamples "
            "per router). The raw L11 (beta1 as fitted) is listed for reference: it is not a "
            "function of f_G (cosine: beta1's norm; perturbed: a common shift of "
            "beta1/(||beta1|| + tau1); linear: a common translation of beta1), so it need not "
            "tend to 0 and is not compared.",
            seq,
            cells=cells,
        ),
    )


# ---------------------------------------------------------------------------------------------
# rate experiments of seed 000's answers: top-1, Top-K, misspecified, over-specified
# ---------------------------------------------------------------------------------------------

#: ``@seed_claim`` of a rate experiment of seed 000's answers (statistical, its own section).
_experiment_claim = functools.partial(seed_claim, kind="statistical", section=ESTIMATION_SECTION)
#: Where the top-1 claims (k = k* and over-specified) stand in seed 000, and their audit rows.
_TOP1_ROWS: dict[str, Any] = {"sources": {S0: [167, 169, 205, 207]},
                              "covers": ["000-35", "000-38", "000-48"]}
#: Where the Top-K claims (exact- and over-specified) stand in seed 000, and their audit rows.
_TOPK_ROWS: dict[str, Any] = {"sources": {S0: [73, 75, 77, 79, 81]},
                              "covers": ["000-13", "000-15"]}


#: sqrt(log n / n) has local log-log slope <= -1/2 + 1/(2 log 100) < -0.39 for n >= 100.
ROOT_LOG_THRESHOLD = -0.35

#: 000 L151: the slowest expert rate of the perturbed router is n^-1/4.
QUARTER = -0.25

#: Replicates per n (at least, in every profile) of pcr.rates.top1, pcr.rates.topk and
#: pcr.rates.topk-cosine-slow, whose every reading rests on a slope interval at a Bonferroni
#: share of 3 to 6 readings. With the quick design's 4, the percentile interval missed the
#: pooled slope on 3 and 4 of 100 seeds (calibration, session 6; pcr.rates.topk on 3 of 100
#: once its fits reached the target's objective, session 18): the bootstrap law of a
#: median of 4 lies within the sample's range, which misses the median with probability 1/8
#: per n. 13 is the quick look of the dense rates claims, whose rows meet the limits.
SLOPE_REPLICATES = 13


@_experiment_claim(
    "pcr.rates.top1",
    S0,
    statement="[000 L169, L207] With one activated expert per input (top-1 / Switch routing), "
    "two-layer ReLU experts have fast estimation rates of polynomial order, with the "
    "perturbed cosine router (L169) and also with the clean cosine and the linear router "
    "(L207). Since two-layer ReLU experts are not strongly identifiable, this is also the "
    "rebuttal's witness that 'not strongly identifiable does not imply slow rates' (L167).",
    **_TOP1_ROWS,
    reading="top-1 gate, k* = k = 2 two-layer ReLU experts with a last-layer bias "
    "(h = w^T ReLU(A x + b) + c, 2 hidden units), linear, cosine and perturbed routers: over "
    "n in the design's range the expert error sum_j ||(h_pi(j) - h*_j) 1{X*_j}||_{L2(mu)} "
    "(each expert as a function on the inputs it serves, the identifiable part) decays at "
    "least like n^-0.18 (the whole slope CI at or below -0.18) for every router. Estimator "
    "(the top-1 objective is piecewise constant in the router): LM on the dense gate "
    "softmax(u/T), T annealed 0.3, 0.1, 0.03, 0.01, 0.003 times the spread of the true "
    "score difference, "
    "then LM on the top-1 objective. Over-specified (k = 3 fitted): "
    "pcr.rates.top1.over-specified",
)
def check_rates_top1(ctx: CheckContext) -> Outcome:
    design, runs = _runs(ctx, "top1", TOP1_ROUTERS, SLOPE_REPLICATES)
    return _top1_outcome(ctx, design, runs, 0, "", (
        _design_text(design)
        + " The true model has the top-1 gate: expert $i^*(x)=\\arg\\max_i u_i(x)$ with "
        "weight 1, so $\\beta_0^*=(0.1, 0)$ enters only through the partition. The top-1 "
        "objective is piecewise constant in $(\\beta_0,\\beta_1)$, so the fit first anneals "
        "the dense gate $\\mathrm{softmax}(u/T)$ (which tends to the top-1 gate as $T\\to0$; "
        "the first stage moves every start off the target, so the partition is estimated, "
        "not inherited) and ends on the top-1 objective. Losses (experts matched to the "
        "true ones by the permutation with the smallest routing error): the experts as "
        "functions on the regions $X^*_j$ they serve (outside it an expert is not "
        "identified), the routing error $\\mu\\{x:\\pi(\\hat i(x))\\ne i^*(x)\\}$ (the "
        "identifiable part of the router: the argmax partition is invariant to a common "
        "positive scale, and for the cosine router to each $\\|\\beta_{1i}\\|$); the "
        "top-1 regression error's medians are in the evidence."
    ))


@_experiment_claim(
    "pcr.rates.topk",
    S0,
    statement="[000 L73-L81] With the Top-K sparse softmax gate and the perturbed cosine "
    "router, the regression estimation rate is ||g_Gn - g_G*||_{L2(mu)} = "
    "O_P(sqrt(log n/n)) (2.1) and the parameter and expert estimation rate is "
    "L_2(G_n, G*) = O_P(sqrt(log n/n)) for the sparse Voronoi loss L_2 (2.2).",
    **_TOPK_ROWS,
    reading="Top-2 gate over k* = 3 tanh experts, exact-specified (k = 3), perturbed router "
    "(tau1 = tau2 = 1): over n in the design's range the log-log slopes of the median "
    "Top-K regression error and of the median L_2 (seed 000 L75, on canonical forms) are at "
    f"most {ROOT_LOG_THRESHOLD} (sqrt(log n/n) has local slope below -0.39 for n >= 100). "
    "Also reported: the exponent of L_2 against the parametric 1/2 (stats.compare, "
    "+-0.15) and the median of each parameter group. Estimator: LM on a soft Top-K "
    "relaxation (softness 0.3 down to 0.001 times the spread of the true score "
    "difference) then on the Top-K objective. The over-specified setting the seed intends "
    "(L75's L_2 has squared terms for cells with more than one fitted atom) is "
    "pcr.rates.topk.over-specified (k = 4 fitted, K = 2 and K + 1 = 3)",
)
def check_rates_topk(ctx: CheckContext) -> Outcome:
    design, runs = _runs(ctx, "topk", ("perturbed",), SLOPE_REPLICATES)
    run = runs["perturbed"]
    plan = {"(2.1) Top-K regression error": "regression_l2", "(2.2) sparse L_2": "sparse_l2"}
    alpha = ctx.alpha / (len(plan) + 1)
    fits = {name: _fit(design, run, loss, alpha, ctx, i)
            for i, (name, loss) in enumerate(plan.items())}
    readings = [
        _reading(name, f"slope at most {ROOT_LOG_THRESHOLD}", "at-most", ROOT_LOG_THRESHOLD,
                 f, design.replicates)
        for name, f in fits.items()
    ]
    l2 = fits["(2.2) sparse L_2"]
    readings.append(_reading(
        "L_2 exponent vs parametric 1/2", "slope within -0.5 +- 0.15 (stats.compare)",
        "equivalence", -0.5, l2, design.replicates, 0.15, label="L_2 slope vs -1/2"))
    primary = _rate_pair_reading(
        "(2.1) and (2.2)", f"both slopes at most {ROOT_LOG_THRESHOLD}", readings)
    derivation = (
        _design_text(design)
        + " The true model has the Top-2 gate over 3 experts ($\\beta_0^*=(0.5,0,-0.3)$). "
        "The Top-K objective jumps where the selected set changes, so the fit runs LM on a "
        "soft Top-K gate (weights $e^{u_i}\\sigma((u_i-m)/s)$, $m$ the midpoint of the 2nd "
        "and 3rd score, $s$ from 0.3 down to 0.001 times the standard deviation of the true "
        "score "
        "difference $u_1-u_2$) and then on the Top-K objective itself (derivative "
        "on the current piece; a step is kept only if the objective decreases). $L_2$ of "
        "000 L75 is the sum of the $K$ largest per-atom terms (exponent 1 on single-atom "
        "cells) on canonical forms (masses normalised; $v=\\beta_1/(\\|\\beta_1\\|+\\tau_1)$ "
        "centred): the Top-K model has the same invariances as the dense one.\n\n"
        + _table(fits)
        + f"\n\nstats.at_most: supported when the whole CI is at or below "
        f"{ROOT_LOG_THRESHOLD}, unsupported when it lies above, inconclusive otherwise."
    )
    return _open_to_decide(ctx, design, Outcome(
        primary.verdict,
        f"{primary.verdict.value}: " + _readings_text(readings[:2]),
        {"design": design.to_dict(), "seed": ctx.seed, "alpha_per_reading": alpha,
         "group_medians": {g: _medians(design, run, loss) for g, loss in GROUPS.items()},
         "convergence": _sparse_convergence(design, runs)},
        [primary, *readings],
        derivation,
    ), readings[:2])


@_experiment_claim(
    "pcr.rates.topk-cosine-slow",
    S2,
    statement="[002 L94] With the Top-K sparse softmax gating function the cosine router's "
    "slow rates still hold: the estimation of the parameters and of the experts is slower "
    "than any polynomial rate and could be as slow as O_P(1/log^tau(n)).",
    sources={S2: [94]},
    covers=["002-26"],
    reading="Top-2 gate over k* = 3 tanh experts, exact-specified (k = 3), cosine router: "
    "over n in the design's range each of beta0 (masses), beta1 (directions), eta and the "
    "experts as functions has a log-log slope of its median loss above -0.18 (a finite-n "
    "reading of 'slower than every polynomial'; the whole CI above -0.18 supports it, the "
    "whole CI below refutes the reading). The over-specified setting is run for the "
    "perturbed router only (pcr.rates.topk.over-specified)",
)
def check_rates_topk_cosine(ctx: CheckContext) -> Outcome:
    design, runs = _runs(ctx, "topk", ("cosine",), SLOPE_REPLICATES)
    plan = dict(GROUPS)
    alpha = ctx.alpha / len(plan)
    fits = {name: _fit(design, runs["cosine"], loss, alpha, ctx, i)
            for i, (name, loss) in enumerate(plan.items())}
    readings = [
        _reading(name, f"slope above {SLOW_THRESHOLD} (slow)", "greater", SLOW_THRESHOLD, f,
                 design.replicates)
        for name, f in fits.items()
    ]
    groups = readings[: len(GROUPS)]
    primary = _all_reading(
        "every group", f"all of beta0, beta1, eta and the experts slower than n^{SLOW_THRESHOLD}",
        groups,
    )
    derivation = (
        _design_text(design)
        + " Same Top-2 design and estimator as pcr.rates.topk, cosine router; losses on "
        "canonical forms (masses normalised, $\\beta_1/\\|\\beta_1\\|$).\n\n"
        + _table(fits)
        + f"\n\nstats.greater per group: supported when the whole CI is above "
        f"{SLOW_THRESHOLD}, unsupported when it lies below, inconclusive otherwise; the "
        "claim needs every group."
    )
    return _open_to_decide(ctx, design, Outcome(
        primary.verdict,
        f"{primary.verdict.value}: " + _readings_text(groups),
        {"design": design.to_dict(), "seed": ctx.seed, "alpha_per_reading": alpha,
         "threshold": SLOW_THRESHOLD,
         "sparse_l2_medians": _medians(design, runs["cosine"], "sparse_l2"),
         "convergence": _sparse_convergence(design, runs)},
        [primary, *readings],
        derivation,
    ), groups)


@_experiment_claim(
    "pcr.rates.misspecified",
    S0,
    statement="[000 L141-L151] When the data come from a regression function q that is not "
    "an MoE, the LSE converges to G-bar in argmin ||q - f_G||, which has k atoms; the worst "
    "expert estimation rate to G-bar can be as slow as O_P(1/log^tau n) with the cosine "
    "router (1.1) and is O_P(n^-1/4) with the perturbed cosine router (1.2).",
    sources={S0: [141, 143, 145, 147, 149, 151]},
    covers=["000-28", "000-29", "000-31"],
    reading="q_r = f_G*^(r) + 0.1 sin(2 x1) cos(x2), dense gate, tanh experts, k = 2, target "
    "the reference fit G-bar_r (documented below): over n in the design's range, (1.1) "
    "cosine: the expert error (experts as functions) has a log-log slope above -0.18 (slow); "
    "(1.2) perturbed: the expert error and the expert-parameter loss have slopes at most "
    "-0.25. The verdict combines (1.1) and (1.2). 'G-bar has k atoms' (L145) is reported "
    "for the reference fit only (inconclusive: global minimality is not certified)",
)
def check_rates_misspecified(ctx: CheckContext) -> Outcome:
    design, runs = _runs(ctx, "misspecified", ("cosine", "perturbed"))
    plan = [("(1.1) cosine: experts as functions", "cosine", "expert_sup"),
            ("(1.2) perturbed: experts as functions", "perturbed", "expert_sup"),
            ("(1.2) perturbed: expert parameters", "perturbed", "expert_l1")]
    alpha = ctx.alpha / len(plan)
    fits = {name: _fit(design, runs[r], loss, alpha, ctx, i)
            for i, (name, r, loss) in enumerate(plan)}
    names = list(fits)
    readings = [
        _reading(names[0], f"slope above {SLOW_THRESHOLD} (slow)", "greater", SLOW_THRESHOLD,
                 fits[names[0]], design.replicates),
        *(_reading(nm, f"slope at most {QUARTER}", "at-most", QUARTER, fits[nm],
                   design.replicates) for nm in names[1:]),
    ]
    ref = _reference(runs)
    k_atoms = Reading(
        "(L145) G-bar has k atoms",
        "the reference fit has k = 2 atoms with positive masses and distinct (beta1, eta)",
        Verdict.INCONCLUSIVE,
        "reference fits: masses " + ", ".join(f"{r} {v['masses']}" for r, v in ref.items())
        + "; a local minimiser only, global minimality not certified",
        ref,
    )
    verdict = combine([readings[0].verdict, _all_of([r.verdict for r in readings[1:]])])
    primary = Reading("(1.1) and (1.2)", "cosine slow and perturbed at least n^-1/4", verdict,
                      "; ".join(f"{r.name}: {r.verdict.value}" for r in readings))
    derivation = (
        _mis_design_text(design) + _MIS_DESIGN + "\n\n" + _table(fits)
        + f"\n\n(1.1) stats.greater against {SLOW_THRESHOLD}; (1.2) stats.at_most against "
        f"{QUARTER} (000 L151 states $n^{{-1/4}}$ without a log factor); the claim combines "
        "(1.1) with both parts of (1.2)."
    )
    return _open_to_decide(ctx, design, Outcome(
        verdict,
        f"{verdict.value}: " + _readings_text(readings),
        {"design": design.to_dict(), "seed": ctx.seed, "alpha_per_reading": alpha,
         "reference": ref},
        [primary, *readings, k_atoms],
        derivation,
    ), readings)


#: Replicates per n (at least) of pcr.rates.comparison.misspecified, per profile. Its readings
#: are differences of two slopes against the margin MARGIN, whose intervals at the full
#: design's 10 replicates were about +-0.4 wide at the claim's level (issue 32: every
#: reading open); the misspecified fits are cheap (the whole check took about 20 CPU s at
#: 128, measured), so the full profile fits 128 (half-widths about +-0.12). Fixed by cost
#: and width, before any verdict at this size; the quick profile keeps its design.
MIS_COMPARISON_REPLICATES: dict[str, int] = {"quick": 0, "full": 128}


@_experiment_claim(
    "pcr.rates.comparison.misspecified",
    S0,
    statement="[000 L193] With data from an arbitrary regression function (Appendix F, "
    "Figure 2) the perturbed cosine router still has a faster estimation rate than the "
    "linear router and the cosine router.",
    sources={S0: [193]},
    covers=["000-46"],
    reading="misspecified design of pcr.rates.misspecified (each router toward its own "
    "reference fit G-bar_r): the log-log slope of the median L_{1,1} (identifiable "
    "coordinates) and of the expert error (experts as functions) is lower with the "
    "perturbed router than with the linear and than with the cosine router "
    f"(stats.greater on the slope difference, smallest meaningful effect {MARGIN})",
)
def check_rates_comparison_misspecified(ctx: CheckContext) -> Outcome:
    routers = ("perturbed", "linear", "cosine")
    design, runs = _runs(ctx, "misspecified", routers, MIS_COMPARISON_REPLICATES[ctx.profile])
    losses = ("voronoi_l1", "expert_sup")
    alpha = ctx.alpha / 4
    fits = {(r, loss): _fit(design, runs[r], loss, alpha, ctx, 10 * i + j, exact=False)
            for i, r in enumerate(routers) for j, loss in enumerate(losses)}
    readings = []
    for other in ("linear", "cosine"):
        for loss in losses:
            fa, fb = fits[("perturbed", loss)], fits[(other, loss)]
            name = f"{loss}: {other} - perturbed"
            comp = _judged_fits(name, "greater", 0.0, MARGIN, [fa, fb],
                           lambda fa=fa, fb=fb: _slope_difference(fa, fb, alpha, design.replicates))
            if isinstance(comp, _NotEstimated):
                numbers: dict[str, Any] = {"difference": None, "ci": None}
                text = f"not estimated: {comp.reason}"
            else:
                e = comp.estimate
                numbers = {"difference": stable(e.mean), "ci": [stable(e.low), stable(e.high)]}
                text = f"difference {numbers['difference']}, CI {numbers['ci']}"
            readings.append(Reading(name, f"slope({other}) - slope(perturbed) > 0",
                                    comp.verdict, text, {**numbers, "comparison": comp.to_dict()}))
    verdict = combine([r.verdict for r in readings])
    derivation = (
        _mis_design_text(design) + _MIS_DESIGN + "\n\n"
        + _table({f"{r}: {loss}": f for (r, loss), f in fits.items()})
        + f"\n\nstats.greater on slope(other) - slope(perturbed) with smallest meaningful "
        f"effect {MARGIN}: supported when the CI lies above 0, unsupported when it lies "
        f"below {MARGIN}, inconclusive otherwise; the claim combines the four."
    )
    return _open_to_decide(ctx, design, Outcome(
        verdict,
        "slope differences (other - perturbed): " + _readings_text(readings),
        {"design": design.to_dict(), "seed": ctx.seed, "alpha_per_comparison": alpha,
         "margin": MARGIN, "reference": _reference(runs),
         "fits": {f"{r}: {loss}": _public(f) for (r, loss), f in fits.items()}},
        readings,
        derivation,
    ), readings)


@_experiment_claim(
    "pcr.rates.topk.over-specified",
    S0,
    statement="[000 L73-L81] With the Top-K sparse softmax gate and the perturbed cosine "
    "router, in the over-specified setting (more fitted atoms than true experts; L75's L_2 "
    "has squared terms for Voronoi cells with more than one fitted atom), the regression "
    "estimation rate is ||g_Gn - g_G*||_{L2(mu)} = O_P(sqrt(log n/n)) (2.1) and "
    "L_2(G_n, G*) = O_P(sqrt(log n/n)) (2.2).",
    **_TOPK_ROWS,
    reading="perturbed router (tau1 = tau2 = 1), truth: Top-2 gate over k* = 3 tanh "
    "experts; fitted: k = 4 atoms with the seed's gate K = 2 (primary) and K + 1 = 3 (a "
    "split true expert may take two slots; second reading): over n in the design's range "
    "the log-log slopes of the median Top-K regression error (2.1) and of the median L_2 "
    f"of 000 L75 (2.2; all fitted atoms, canonical forms) are at most {ROOT_LOG_THRESHOLD}. "
    "Also reported: L_2 on the atoms the gate selects somewhere (an atom never selected is "
    "not identified by the data). Decided only where >= 90% of each n cell's fits "
    "converged (LM stopping rule) and, for K = 2, optimiser shortfalls are rare",
)
def check_rates_topk_overspecified(ctx: CheckContext) -> Outcome:
    designs = {K: overspecified_design("topk", ctx.profile, top_k=K, routers=("perturbed",))
               for K in (2, 3)}
    # K + 1 = 3: the fitted class does not contain the target, so no shortfall rule
    runs = {K: run_overspecified(d, ctx.seed, "perturbed", stop=_futile(d.replicates, K == 2))
            for K, d in designs.items()}
    plan = [("(2.1) K=2: Top-K regression error", 2, "regression_l2"),
            ("(2.2) K=2: L_2, all fitted atoms", 2, "sparse_l2"),
            ("K=2: L_2, selected atoms only", 2, "sparse_l2_active"),
            ("K+1=3: Top-K regression error", 3, "regression_l2"),
            ("K+1=3: L_2, all fitted atoms", 3, "sparse_l2")]
    alpha = ctx.alpha / len(plan)
    fits = {name: _fit(designs[K], runs[K], loss, alpha, ctx, 40 + i, shortfall_rule=K == 2)
            for i, (name, K, loss) in enumerate(plan)}
    readings = [
        _reading(name, f"slope at most {ROOT_LOG_THRESHOLD}", "at-most", ROOT_LOG_THRESHOLD,
                 fits[name], designs[K].replicates)
        for name, K, _ in plan
    ]
    primary = _rate_pair_reading(
        "(2.1) and (2.2), K = 2", f"both slopes at most {ROOT_LOG_THRESHOLD} with the "
        "seed's K = 2", readings)
    d2 = designs[2]
    derivation = (
        _over_design_text(d2)
        + " Truth $\\beta_0^*=(0.5,0,-0.3)$, the Top-2 design of pcr.rates.topk. Annealed "
        "stages: the soft Top-K of pcr.rates.topk (softness 0.3 down to 0.001 times the "
        "spread of the true score difference). The fitted gate's K: with $K=2$ (the seed's "
        "model, primary) two fitted atoms near one true expert have nearly equal scores and "
        "would both take the two slots, so a cell with $|A_j|>1$ cannot reproduce "
        "$f_{G_*}$ where that expert is selected: the extra atom has to leave the top 2 "
        "(its parameters, mass included, then stop being identified; hence the reading on "
        "selected atoms). With $K+1=3$ a split expert fits in the slots, but where the "
        "3 true atoms are all selected the gate is a dense softmax over them, which is "
        "not the truth's Top-2: the $K+1$ class does not contain $f_{G_*}$ in general, so "
        "its readings measure the fit to a misspecified class (no shortfall rule). $L_2$ "
        "of 000 L75 is the sum of the $K_*=2$ largest per-atom terms $T_j$ (exponent 1 on "
        "single-atom cells, 2 on cells with $|A_j|>1$) on canonical forms.\n\n"
        + _table(fits)
        + f"\n\nstats.at_most: supported when the whole CI is at or below "
        f"{ROOT_LOG_THRESHOLD}, unsupported when it lies above, inconclusive otherwise."
    )
    starts = {K: {s: sum(r["start"] == s for r in runs[K]["records"])
                  for s in start_names(designs[K])}
              for K in runs}
    return _open_to_decide(ctx, d2, Outcome(
        primary.verdict,
        f"{primary.verdict.value}: " + _readings_text(readings[:2]),
        {"design": {str(K): d.to_dict() for K, d in designs.items()}, "seed": ctx.seed,
         "alpha_per_reading": alpha, "threshold": ROOT_LOG_THRESHOLD,
         "min_converged_share": MIN_CONVERGED, "winning_starts": starts,
         "selected_atoms_medians": {str(K): _medians(designs[K], runs[K], "active")
                                    for K in runs},
         "convergence": _sparse_convergence(d2, {f"K={K}": runs[K] for K in runs})},
        [primary, *readings],
        derivation,
    ), readings[:2])


@_experiment_claim(
    "pcr.rates.top1.over-specified",
    S0,
    statement="[000 L169, L207] With one activated expert per input (top-1 / Switch routing), "
    "two-layer ReLU experts have fast estimation rates of polynomial order with the "
    "perturbed cosine router (L169) and with the clean cosine and the linear router "
    "(L207); here in the over-specified setting (more fitted atoms than true experts).",
    **_TOP1_ROWS,
    reading="top-1 gate, truth k* = 2 two-layer ReLU experts with a last-layer bias, fitted "
    "k = 3 atoms (top-1), linear, cosine and perturbed routers: over n in the design's range "
    "the expert error sum_j ||(h_ihat - h*_j) 1{i* = j = tau(ihat)}||_{L2(mu)} (each fitted "
    "expert on the inputs it serves, matched many-to-one to the true experts by the map "
    "tau: [3] -> [2] with the smallest routing error) has a log-log slope at most -0.18 "
    "for every router. Also reported: the routing error mu{tau(ihat) != i*}. Decided only "
    "where >= 90% of each n cell's fits converged and optimiser shortfalls are rare",
)
def check_rates_top1_overspecified(ctx: CheckContext) -> Outcome:
    design = overspecified_design("top1", ctx.profile)
    runs = {r: run_overspecified(design, ctx.seed, r, stop=_futile(design.replicates))
            for r in TOP1_ROUTERS}
    return _top1_outcome(ctx, design, runs, 50, ", k = 3 fitted for k* = 2", (
        _over_design_text(design)
        + " Truth: the top-1 design of pcr.rates.top1 ($\\beta_0^*=(0.1,0)$). Annealed "
        "stages: the dense gate $\\mathrm{softmax}(u/T)$, $T$ from 0.3 down to 0.003 times "
        "the spread of the true score difference; last stage the top-1 objective. With "
        "$k>k_*$ a true region $X^*_j$ may be served by several fitted atoms (the "
        "many-to-one Voronoi cells of an over-specified fit), so the losses match fitted to "
        "true atoms by a map $\\tau:[k]\\to[k_*]$ (all $k_*^k$ maps; the one with the "
        "smallest routing error, then expert error): routing error "
        "$\\mu\\{x:\\tau(\\hat i(x))\\ne i^*(x)\\}$, expert error "
        "$\\sum_j\\|(h_{\\hat i}-h^*_j)1\\{i^*=j=\\tau(\\hat i)\\}\\|_{L^2(\\mu)}$ (a fitted "
        "expert is identified only where it serves). The top-1 regression error's "
        "medians are in the evidence."
    ))


if __name__ == "__main__":
    from moetheory.engine.script import run_as_script

    run_as_script()
