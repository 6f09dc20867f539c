"""Checks of the rate inferences (seeds 002 and 000), decided by logic and algebra: the
polynomial expert's identity, and what the rebuttal and the paper infer from one rate about
another (parameter, expert and router errors, the sample size a rate asks for).

Rates are statements about sequences: "``a_n`` is slower than every polynomial" means
``a_n / n^{-c} -> infinity`` for every ``c > 0``; "``a_n`` is ``O(b_n)``" means
``a_n / b_n`` stays bounded. A deterministic sequence of estimates is a legitimate
counterexample to an inference that holds for *every* estimator sequence. The
estimation-rate experiments are in :mod:`.rates`.
"""

from __future__ import annotations

import itertools
from typing import Any

import sympy as sp

from moetheory import CheckContext, Outcome, Reading, Verdict, claim
from moetheory.engine.verdicts import symbolic_evidence
from moetheory.estimation.symbolic import score_expr
from proofs_checks.nguyen2025cosine._common import (
    S0,
    S2,
    c_,
    limit_at_infinity,
    n,
    seed_claim,
    tau,
)

__all__ = [
    "check_expert_rate_inference",
    "check_lower_bound_inference",
    "check_poly_identity",
    "check_poly_identity_corrected",
    "check_poly_same_rate",
    "check_router_rate_inference",
    "check_sample_size",
    "check_slow_rate_inference",
]


# ---------------------------------------------------------------------------------------------
# the polynomial expert (eta x)^2
# ---------------------------------------------------------------------------------------------


#: The input of the polynomial expert h(x, eta) = (eta x)^2.
_X = sp.Symbol("x", real=True)

_ETA_HAT, _ETA_STAR = sp.symbols("etahat etastar", real=True)

_NAMES = {_ETA_HAT: r"\hat\eta", _ETA_STAR: r"\eta^*"}


def _tex(expr: sp.Expr) -> str:
    return sp.latex(expr, symbol_names=_NAMES)


def _poly_sides(power_of_abs_x: int) -> tuple[sp.Expr, sp.Expr]:
    lhs = sp.Abs((_ETA_HAT * _X) ** 2 - (_ETA_STAR * _X) ** 2)
    rhs = sp.Abs(_ETA_HAT - _ETA_STAR) * sp.Abs(_ETA_HAT + _ETA_STAR) * sp.Abs(_X) ** power_of_abs_x
    return lhs, rhs


def _search_counterexample(residual: sp.Expr) -> dict[str, Any] | None:
    grid = [sp.Integer(v) for v in (0, 1, 2, 3, -1, -2)]
    for eh, es, xv in itertools.product(grid, repeat=3):
        val = residual.subs({_ETA_HAT: eh, _ETA_STAR: es, _X: xv})
        if val != 0:
            return {"etahat": int(eh), "etastar": int(es), "x": int(xv), "lhs_minus_rhs": val}
    return None


@claim("pcr.poly-expert.identity", reading="For all real etahat, etastar, x: "
       "|(etahat x)^2 - (etastar x)^2| = |etahat - etastar| |etahat + etastar| |x| (as printed).",
    statement=(
        "For h(x, η) = (ηx)², x ∈ ℝ: |h(x, η̂) − h(x, η*)| = |η̂ − η*| · |η̂ + η*| · |x|."
    ),
    statement_latex=(
        r"For $h(x, \eta) = (\eta x)^2$, $x \in \mathbb{R}$: $\lvert h(x, \hat\eta) - h(x, "
        r"\eta^*)\rvert = \lvert\hat\eta - \eta^*\rvert \cdot \lvert\hat\eta + \eta^*\rvert \cdot "
        r"\lvert x\rvert$."
    ),
    sources={"002_ed39350ac6d6e1c0.txt": [94], "000_7b6465990ad3b04b.txt": [105]},
    covers=['000-21'],
    origin="seed",
)
def check_poly_identity(ctx: CheckContext) -> Outcome:
    """|h(x,η̂) − h(x,η*)| = |η̂−η*||η̂+η*||x| for h = (ηx)²: exact check."""
    lhs, rhs = _poly_sides(1)
    residual = sp.simplify(lhs - rhs)
    if residual == 0:
        return Outcome(Verdict.PROVED, "the residual simplifies to 0",
                       {"residual": symbolic_evidence(residual)})
    cex = _search_counterexample(lhs - rhs)
    if cex is None:
        return Outcome(Verdict.INCONCLUSIVE, "residual not 0 but no counterexample on the grid",
                       {"residual": symbolic_evidence(residual)})
    at = {_ETA_HAT: cex["etahat"], _ETA_STAR: cex["etastar"], _X: cex["x"]}
    return Outcome(
        Verdict.REFUTED,
        f"counterexample etahat={cex['etahat']}, etastar={cex['etastar']}, x={cex['x']}: "
        f"LHS={lhs.subs(at)} but RHS={rhs.subs(at)}; the power of |x| must be 2",
        {"counterexample": cex, "lhs": lhs.subs(at), "rhs": rhs.subs(at),
         "residual": symbolic_evidence(residual), "method": "exact integer evaluation"},
        derivation=(
            f"$$\\left|h(x,\\hat\\eta)-h(x,\\eta^*)\\right| = "
            f"{_tex(sp.Abs(sp.factor(lhs.args[0])))} \\neq {_tex(rhs)}$$\n\n"
            f"At $\\hat\\eta={cex['etahat']}, \\eta^*={cex['etastar']}, x={cex['x']}$: "
            f"left side ${sp.latex(lhs.subs(at))}$, right side ${sp.latex(rhs.subs(at))}$."
        ),
    )


@claim("pcr.poly-expert.identity.corrected",
       statement="For h(x, η) = (ηx)², x ∈ ℝ: |h(x, η̂) − h(x, η*)| = |η̂ − η*| · |η̂ + η*| · x².",
       reading="For all real etahat, etastar, x: |(etahat x)^2 - (etastar x)^2| = "
               "|etahat - etastar| |etahat + etastar| x^2.")
def check_poly_identity_corrected(ctx: CheckContext) -> Outcome:
    """The corrected identity with x² in place of |x|: SymPy simplifies the residual to 0."""
    lhs, rhs = _poly_sides(2)
    residual = sp.simplify(lhs - rhs)
    at_zero = sp.simplify(lhs.subs(_ETA_STAR, 0))
    verdict = Verdict.PROVED if residual == 0 else Verdict.INCONCLUSIVE
    return Outcome(
        verdict,
        f"residual simplifies to {sp.sstr(residual)}; note at etastar = 0 the gap is "
        f"{sp.sstr(at_zero)}, quadratic in the parameter error",
        {"residual": symbolic_evidence(residual), "lhs": symbolic_evidence(lhs),
         "rhs": symbolic_evidence(rhs), "gap_at_etastar_0": symbolic_evidence(at_zero),
         "method": "sympy.simplify with real symbols"},
        derivation=(
            f"$${_tex((_ETA_HAT * _X) ** 2 - (_ETA_STAR * _X) ** 2)} = "
            f"{_tex(sp.factor((_ETA_HAT * _X) ** 2 - (_ETA_STAR * _X) ** 2))}$$\n\n"
            f"so $|\\cdot| = {_tex(rhs)}$; residual ${_tex(residual)}$. "
            f"At $\\eta^*=0$ the gap is ${_tex(at_zero)}$: the expert error is then the "
            "square of the parameter error, not of the same order."
        ),
    )


# ---------------------------------------------------------------------------------------------
# rate inferences (decided by logic and algebra)
# ---------------------------------------------------------------------------------------------


def _flat_expert() -> dict[str, sp.Expr]:
    """h(x, eta) = x exp(-1/eta^2) on eta in (0, 1], h(x, 0) = 0: smooth, Lipschitz, injective."""
    x, eta = sp.symbols("x eta", positive=True)
    h = x * sp.exp(-1 / eta**2)
    dh = sp.diff(h, eta) / x  # = 2 exp(-1/eta^2) / eta^3
    t = sp.Symbol("t", positive=True)  # t = 1/eta >= 1
    g = 2 * t**3 * sp.exp(-(t**2))
    crit = sp.solve(sp.diff(g, t), t)
    lip = sp.simplify(g.subs(t, crit[0]))
    eta_n = 1 / sp.sqrt(sp.log(n))
    expert_err = sp.simplify(h.subs({eta: eta_n, x: 1}))
    return {
        "h": h,
        "dh_deta_over_x": sp.simplify(dh),
        "lipschitz_constant": lip,
        "lipschitz_constant_value": sp.N(lip, 15),
        "eta_hat_n": eta_n,
        "parameter_error": eta_n,
        "sup_expert_error_on_[-1,1]": expert_err,
        "parameter_error_times_n^c": limit_at_infinity(eta_n * n**c_),
        "expert_error_times_n": limit_at_infinity(expert_err * n),
    }


@seed_claim(
    "pcr.inference.expert-rate",
    S2, S0,
    statement="From (6): the worst possible rate for estimating the expert h(., eta*_j) is "
    "identical to the worst possible rate for estimating eta*_j; so when eta*_j is estimated "
    "slower than every polynomial, the expert estimate could be too (002 L94, 000 L103, L121).",
    sources={S2: [94], S0: [103, 121]},
    covers=["000-19"],
    reading="as an inference valid for every Lipschitz, identifiable expert family: (6) and a "
    "parameter error slower than every polynomial imply an expert error slower than every "
    "polynomial",
)
def check_expert_rate_inference(ctx: CheckContext) -> Outcome:
    ex = _flat_expert()
    cex = ex["parameter_error_times_n^c"] == sp.oo and ex["expert_error_times_n"] == 1
    readings = [
        Reading(
            "inference",
            "slow parameter rate + (6) => slow expert rate",
            Verdict.REFUTED if cex else Verdict.INCONCLUSIVE,
            "h(x, eta) = x exp(-1/eta^2) (eta in (0, 1], h(x, 0) = 0) is smooth, Lipschitz in "
            f"eta (constant {sp.sstr(ex['lipschitz_constant'])} = "
            f"{float(ex['lipschitz_constant_value']):.4f}) and injective in eta; with eta* = 0 "
            "and eta_hat_n = 1/sqrt(log n) the parameter error is slower than every polynomial "
            "while sup_{|x|<=1} |h(x, eta_hat_n) - h(x, 0)| = 1/n exactly",
            {"counterexample": ex},
            summary_latex=(
                r"$h(x, \eta) = x e^{-1/\eta^2}$ ($\eta \in (0, 1]$, $h(x, 0) = 0$) is smooth, "
                f"Lipschitz in $\\eta$ (constant ${sp.latex(ex['lipschitz_constant'])} \\approx "
                f"{float(ex['lipschitz_constant_value']):.4f}$) and injective in $\\eta$; with "
                r"$\eta^* = 0$ and $\hat\eta_n = 1/\sqrt{\log n}$ the parameter error is slower "
                r"than every polynomial while $\sup_{|x| \le 1} |h(x, \hat\eta_n) - h(x, 0)| = "
                r"1/n$ exactly"
            ),
        ),
        Reading(
            "upper-bound",
            "(6) gives: expert error <= C x parameter error, i.e. the expert rate is at least "
            "as fast as the parameter rate",
            Verdict.PROVED,
            "this is what (6) says (pcr.eq6); it bounds the expert error from above only",
        ),
        Reading(
            "identical-worst-rate",
            "the worst expert rate equals the worst parameter rate (a lower bound as well)",
            Verdict.REFUTED if cex else Verdict.INCONCLUSIVE,
            "the same sequence: parameter error (log n)^(-1/2), expert error 1/n",
        ),
    ]
    return Outcome.from_readings(
        readings,
        summary="refuted: (6) is an upper bound; the learnable (injective, Lipschitz) expert "
        "x exp(-1/eta^2) at eta* = 0 has parameter error (log n)^(-1/2) and expert error 1/n",
        derivation=(
            f"$h(x,\\eta) = {sp.latex(ex['h'])}$, $\\partial_\\eta h / x = "
            f"{sp.latex(ex['dh_deta_over_x'])}$, bounded by "
            f"${sp.latex(ex['lipschitz_constant'])}$ (maximum of $2t^3e^{{-t^2}}$, $t = 1/\\eta$). "
            f"With $\\hat\\eta_n = {sp.latex(ex['eta_hat_n'])}$: "
            f"$\\lim n^c\\,\\hat\\eta_n = {sp.latex(ex['parameter_error_times_n^c'])}$ for every "
            "$c>0$ (slower than every polynomial) while $\\sup_{|x|\\le1}|h(x,\\hat\\eta_n)| = "
            f"{sp.latex(ex['sup_expert_error_on_[-1,1]'])}$. The reviewer's constant "
            "$h$ (L99) is a second counterexample; this one is injective in $\\eta$, so it is "
            "not excluded by 'such expert function is not learnable' (L103)."
        ),
    )


@seed_claim(
    "pcr.poly-expert.same-rate",
    S2, S0,
    statement="For h(x, eta) = (eta x)^2, |h(x, eta_hat) - h(x, eta*)| = |eta_hat - eta*| |eta_hat "
    "+ eta*| |x|, 'as a result, the expert estimation rate is exactly the parameter estimation "
    "rate' (002 L94, 000 L105).",
    sources={S2: [94], S0: [105]},
    covers=["000-21"],
    reading="for every eta* in a compact parameter set and x in a bounded set with sup |x| > 0: "
    "sup_x |h(x, eta_hat_n) - h(x, eta*)| and |eta_hat_n - eta*| have the same rate for every "
    "sequence eta_hat_n -> eta*",
)
def check_poly_same_rate(ctx: CheckContext) -> Outcome:
    eh, es, x = sp.symbols("eta_hat eta_star x", real=True)
    exact_gap = sp.factor((eh * x) ** 2 - (es * x) ** 2)
    eta_n = n ** sp.Rational(-1, 4)
    expert_err = sp.simplify(((eta_n * 1) ** 2 - 0) / 1)  # eta* = 0, sup over |x| <= 1
    ratio = sp.simplify(expert_err / eta_n)
    lim_ratio = limit_at_infinity(ratio)
    es_val = sp.Rational(1, 2)
    ratio_nonzero = sp.simplify(sp.Abs(eta_n + es_val + es_val))
    lim_nonzero = limit_at_infinity(ratio_nonzero)
    readings = [
        Reading(
            "every-eta*",
            "same rate for every eta*, including eta* = 0",
            Verdict.REFUTED if lim_ratio == 0 else Verdict.INCONCLUSIVE,
            "eta* = 0, eta_hat_n = n^(-1/4): parameter error n^(-1/4), expert error "
            f"sup_(|x|<=1) eta_hat_n^2 x^2 = {sp.sstr(expert_err)}; ratio -> {lim_ratio}",
            {"eta_hat_n": eta_n, "expert_error": expert_err, "ratio_limit": lim_ratio},
            summary_latex=(
                r"$\eta^* = 0$, $\hat\eta_n = n^{-1/4}$: parameter error $n^{-1/4}$, expert "
                r"error $\sup_{|x| \le 1} \hat\eta_n^2 x^2 = "
                f"{sp.latex(expert_err)}$; ratio $\\to {sp.latex(lim_ratio)}$"
            ),
        ),
        Reading(
            "eta*-nonzero",
            "eta* != 0: the factor |eta_hat + eta*| -> 2|eta*| > 0, so the two errors are "
            "within constant factors of each other",
            Verdict.PROVED if lim_nonzero == 1 else Verdict.INCONCLUSIVE,
            f"e.g. eta* = 1/2: |eta_hat_n + eta*| -> {lim_nonzero} = 2|eta*|",
            {"factor_limit_eta*=1/2": lim_nonzero},
        ),
    ]
    return Outcome.from_readings(
        readings,
        summary="refuted at eta* = 0 (expert error n^(-1/2) for parameter error n^(-1/4)); "
        "true for eta* != 0, where |eta_hat + eta*| stays away from 0",
        identity=exact_gap,
        derivation=(
            "For $h(x, \\eta) = (\\eta x)^2$ SymPy factors the gap exactly:\n\n"
            "$$h(x, \\hat\\eta) - h(x, \\eta^*) = "
            f"{_tex(exact_gap.subs({eh: _ETA_HAT, es: _ETA_STAR}))},$$\n\n"
            "so on $|x| \\le 1$ the expert error is $\\sup_x |h(x, \\hat\\eta) - h(x, \\eta^*)| "
            "= |\\hat\\eta - \\eta^*|\\,|\\hat\\eta + \\eta^*|$: the parameter error times a "
            "factor that tends to $2|\\eta^*|$. When $\\eta^* \\ne 0$ that factor stays away "
            "from $0$ and the two errors have the same rate (with $\\eta^* = 1/2$, "
            "$\\hat\\eta_n = \\eta^* + n^{-1/4}$, the factor tends to $1 = 2|\\eta^*|$: "
            "`proved` for that reading). At $\\eta^* = 0$ the factor vanishes: "
            "$\\hat\\eta_n = n^{-1/4}$ gives parameter error $n^{-1/4}$ but expert error "
            "$n^{-1/2}$, and the ratio of the two tends to $0$ (a SymPy limit), so 'exactly "
            "the parameter estimation rate' for every $\\eta^*$ is `refuted`."
        ),
    )


@seed_claim(
    "pcr.inference.router-rate",
    S2, S0,
    statement="(ii) of Theorem 2 (002 L86, 000 L125): since the softmax is Lipschitz, when "
    "beta*_1 or beta*_0 is estimated slower than every polynomial, the router / mixture "
    "weights could be estimated slower than every polynomial too.",
    sources={S2: [86], S0: [125]},
    covers=["000-26"],
    reading="as an inference: Lipschitz softmax + a parameter error slower than every "
    "polynomial imply a router error slower than every polynomial",
)
def check_router_rate_inference(ctx: CheckContext) -> Outcome:
    b = sp.symbols("b1:4", real=True)
    x = sp.symbols("x1:4", real=True)
    ell = sp.Symbol("ell", positive=True)  # ell = log n > 0 for n > 1
    scale = 1 + 1 / ell
    score_gap = sp.simplify(
        score_expr("cosine", [scale * v for v in b], x) - score_expr("cosine", b, x)
    )
    u = sp.symbols("u1:4", real=True)
    shift = 1 / sp.log(n)
    sm = [sp.exp(ui) / sum(sp.exp(uj) for uj in u) for ui in u]
    sm_shift = [sp.exp(ui + shift) / sum(sp.exp(uj + shift) for uj in u) for ui in u]
    weight_gap = [sp.simplify(a - c) for a, c in zip(sm_shift, sm, strict=True)]
    param_err = limit_at_infinity(n**c_ / sp.log(n))
    ok = score_gap == 0 and all(g == 0 for g in weight_gap) and param_err == sp.oo
    readings = [
        Reading(
            "inference",
            "slow parameter rate + Lipschitz softmax => slow router rate",
            Verdict.REFUTED if ok else Verdict.INCONCLUSIVE,
            "beta1_hat_n = (1 + 1/log n) beta1*: parameter error ||beta1*||/log n (slower than "
            "every polynomial), cosine scores identical, router error 0 for every n; likewise "
            "beta0_hat_n = beta0* + 1/log n on every atom leaves the mixture weights unchanged",
            {
                "cosine_score_gap_d3": score_gap,
                "softmax_shift_gap_k3": weight_gap,
                "lim_parameter_error_times_n^c": param_err,
            },
        ),
        Reading(
            "lipschitz-direction",
            "what the Lipschitz property gives: router error <= C x parameter error",
            Verdict.PROVED,
            "an upper bound (pcr.softmax.lipschitz): it can make a router rate fast, never slow",
        ),
    ]
    return Outcome.from_readings(
        readings,
        summary="refuted: a Lipschitz bound runs the other way; beta1 -> (1 + 1/log n) beta1 "
        "is a slow parameter sequence with router error exactly 0 (cosine score is scale-free)",
        derivation=(
            "Cosine score gap for $\\hat\\beta_1 = (1 + 1/\\log n)\\beta_1$ ($d_1 = 3$): "
            f"${sp.latex(score_gap)}$; softmax gap after adding $1/\\log n$ to every "
            f"$\\beta_{{0i}}$ ($k = 3$): ${sp.latex(sp.Matrix(weight_gap).T)}$. A Lipschitz map "
            "$F$ satisfies $\\|F(\\hat\\theta)-F(\\theta)\\| "
            "\\le L\\|\\hat\\theta-\\theta\\|$: slow "
            "convergence of $\\hat\\theta$ is compatible with any rate of $F(\\hat\\theta)$. "
            "Here the parameter error $\\lVert\\beta_1\\rVert/\\log n$ is slower than every "
            "polynomial (a SymPy limit) while the router error is exactly $0$ for every $n$, "
            "so the inference 'slow parameters imply a slow router' is `refuted`; what the "
            "Lipschitz property does give, router error $\\le C \\times$ parameter error, "
            "is `proved` (`pcr.softmax.lipschitz`)."
        ),
    )


@seed_claim(
    "pcr.inference.slow-rate",
    S2, S0,
    statement="Rates 'slower than every polynomial rate' O_P(n^{-1/2r}) 'could therefore be as "
    "slow as O_P(1/log^tau n)' (002 L56, L84; 000 L23, L117: 'based on the inequality "
    "log(n) <= n').",
    sources={S2: [56, 84], S0: [117]},
    covers=[],
    reading="possibility: 1/log^tau n (tau > 0) is itself slower than every polynomial, so "
    "it is consistent with Theorem 2's conclusion",
)
def check_slow_rate_inference(ctx: CheckContext) -> Outcome:
    log_slower = limit_at_infinity(sp.log(n) ** (-tau) / n ** (-c_))
    # exp(-sqrt(log n)): slower than every polynomial, faster than every 1/log^tau
    a = sp.exp(-sp.sqrt(sp.log(n)))
    a_vs_poly = limit_at_infinity(a / n ** (-c_))
    a_vs_log = limit_at_infinity(a * sp.log(n) ** tau)
    # 1/log log n: slower than every 1/log^tau
    b = 1 / sp.log(sp.log(n))
    b_vs_log = limit_at_infinity(b * sp.log(n) ** tau)
    # log n <= n only gives (log n)^-tau >= n^-tau
    m = sp.Symbol("m", positive=True)
    log_le = sp.simplify(sp.diff(m - sp.log(m), m))  # 1 - 1/m >= 0 for m >= 1; equality-free
    ok_possible = log_slower == sp.oo
    readings = [
        Reading(
            "possibility",
            "1/log^tau n is slower than every polynomial n^-c",
            Verdict.PROVED if ok_possible else Verdict.INCONCLUSIVE,
            f"lim (log n)^-tau / n^-c = {log_slower} for all c, tau > 0",
            {"limit": log_slower},
        ),
        Reading(
            "pinned-down",
            "'slower than every polynomial' implies O_P(1/log^tau n) for some tau",
            Verdict.REFUTED if b_vs_log == sp.oo else Verdict.INCONCLUSIVE,
            "1/log log n is slower than every polynomial and slower than every 1/log^tau n; "
            "exp(-sqrt(log n)) is slower than every polynomial yet faster than every "
            "1/log^tau n: the class does not determine a log rate",
            {
                "exp(-sqrt(log n)) / n^-c": a_vs_poly,
                "exp(-sqrt(log n)) * log^tau n": a_vs_log,
                "1/log log n * log^tau n": b_vs_log,
            },
        ),
        Reading(
            "log-n-le-n-argument",
            "000 L117: 'log n <= n' is what makes 1/log^tau n slower than every polynomial",
            Verdict.REFUTED if ok_possible else Verdict.INCONCLUSIVE,
            "log n <= n gives only (log n)^-tau >= n^-tau, slower than one polynomial; the "
            "needed fact is log^tau n = o(n^c) for every c > 0 (first reading)",
            {"d/dm (m - log m)": log_le},
        ),
    ]
    return Outcome.from_readings(
        readings,
        summary="proved as a possibility (1/log^tau n is slower than every polynomial); the "
        "class is not pinned down (1/log log n, exp(-sqrt(log n))), and 'log n <= n' is not "
        "the reason",
        derivation=(
            f"$\\lim_n (\\log n)^{{-\\tau}} n^{{c}} = {sp.latex(log_slower)}$; "
            f"$\\lim_n e^{{-\\sqrt{{\\log n}}}} n^c = {sp.latex(a_vs_poly)}$, "
            f"$\\lim_n e^{{-\\sqrt{{\\log n}}}}(\\log n)^\\tau = {sp.latex(a_vs_log)}$, "
            f"$\\lim_n (\\log\\log n)^{{-1}}(\\log n)^\\tau = {sp.latex(b_vs_log)}$ "
            "(SymPy limits, symbolic $c, \\tau > 0$). The first limit makes "
            "$O_P(1/\\log^\\tau n)$ slower than every polynomial $n^{-c}$, so the rate "
            "*could* be of that form: the primary reading 'possibility' is `proved`. The "
            "other limits show that 'slower than every polynomial' does not pin the rate "
            "down to $1/\\log^\\tau n$ for some $\\tau$ ($e^{-\\sqrt{\\log n}}$ is faster, "
            "$1/\\log\\log n$ slower), and '$\\log n \\le n$' only gives "
            "$(\\log n)^{-\\tau} \\ge n^{-\\tau}$, slower than one polynomial: those two "
            "readings are `refuted`."
        ),
    )


@seed_claim(
    "pcr.sample-size.log-rate",
    S0,
    statement="A rate O_P(1/log^tau n) means roughly exp(1/eps^tau) samples for error eps; the "
    "rate n^{-1/4} means roughly eps^{-4} samples (000 L149, L151).",
    sources={S0: [149, 151]},
    covers=[],
    reading="solve (log n)^-tau = eps and n^-1/4 = eps for n; compare with exp(eps^-tau) and "
    "eps^-4 for every tau > 0, 0 < eps < 1",
)
def check_sample_size(ctx: CheckContext) -> Outcome:
    eps = sp.Symbol("epsilon", positive=True)
    nn = sp.Symbol("N", positive=True)
    sol_log = sp.solve(sp.Eq(sp.log(nn) ** (-tau), eps), nn)
    sol_poly = sp.solve(sp.Eq(nn ** sp.Rational(-1, 4), eps), nn)
    needed = sp.exp(eps ** (-1 / tau))
    ok_form = len(sol_log) == 1 and sp.simplify(sol_log[0] - needed) == 0
    equal_iff = sp.solve(sp.Eq(-1 / tau, -tau), tau)
    t2, e10 = 2, sp.Rational(1, 10)
    true_n = needed.subs({tau: t2, eps: e10})
    seed_n = sp.exp(eps ** (-tau)).subs({tau: t2, eps: e10})
    readings = [
        Reading(
            "literal-log",
            "n = exp(1/eps^tau) for every tau > 0",
            Verdict.REFUTED if ok_form and equal_iff == [1] else Verdict.INCONCLUSIVE,
            f"(log n)^-tau = eps gives n = exp(eps^(-1/tau)), equal to exp(eps^-tau) only for "
            f"tau = 1; tau = 2, eps = 1/10: exp(sqrt(10)) = {sp.N(true_n, 6)} vs exp(100) = "
            f"{sp.N(seed_n, 6)}",
            {
                "solution": sol_log,
                "tau_where_equal": equal_iff,
                "tau=2,eps=1/10": {"needed": true_n, "seed": seed_n},
            },
        ),
        Reading(
            "exponential",
            "the sample size is exponential in a power of 1/eps",
            Verdict.PROVED if ok_form else Verdict.INCONCLUSIVE,
            "n = exp(eps^(-1/tau))",
        ),
        Reading(
            "polynomial-eps^-4",
            "n^-1/4 = eps gives n = eps^-4",
            Verdict.PROVED if sol_poly == [eps ** (-4)] else Verdict.REFUTED,
            f"solution {sp.sstr(sol_poly)}",
        ),
    ]
    return Outcome.from_readings(
        readings,
        summary="refuted in the exponent: (log n)^-tau = eps needs n = exp(eps^(-1/tau)), not "
        "exp(eps^-tau) (equal only for tau = 1); still exponential, and n^-1/4 needs eps^-4",
        derivation=(
            "Set each rate equal to the target error $\\varepsilon \\in (0, 1)$ and solve for "
            "the sample size $n$ (SymPy `solve`, symbolic $\\tau > 0$):\n\n"
            "$$(\\log n)^{-\\tau} = \\varepsilon \\iff n = \\exp\\bigl(\\varepsilon^{-1/\\tau}"
            "\\bigr), \\qquad n^{-1/4} = \\varepsilon \\iff n = \\varepsilon^{-4}.$$\n\n"
            "The first solution equals the seed's $\\exp(\\varepsilon^{-\\tau})$ only when "
            "$-1/\\tau = -\\tau$, i.e. $\\tau = 1$; at $\\tau = 2$, $\\varepsilon = 1/10$ the "
            "two are $e^{\\sqrt{10}} \\approx 23.6$ and $e^{100}$. So the literal exponent is "
            "`refuted`, while the readings 'exponential in a power of $1/\\varepsilon$' and "
            "'$\\varepsilon^{-4}$ for the rate $n^{-1/4}$' are `proved`."
        ),
    )


@seed_claim(
    "pcr.inference.lower-bound",
    S2,
    statement="With Theorem 1 (||f_Gn - f_G*|| = O_P(sqrt(log n/n))), a lower bound "
    "||f_G - f_G*|| >~ L(G, G*) yields L(G_n, G*) = O_P(sqrt(log n/n)); the regression rate is "
    "'parametric' (002 L66).",
    sources={S2: [66]},
    covers=["002-15"],
    reading="if L(G, G*) <= C ||f_G - f_G*|| for all G in the parameter set and "
    "||f_Gn - f_G*|| = O_P(r_n), then L(G_n, G*) = O_P(r_n)",
)
def check_lower_bound_inference(ctx: CheckContext) -> Outcome:
    ratio = limit_at_infinity(sp.sqrt(sp.log(n) / n) / n ** sp.Rational(-1, 2))
    readings = [
        Reading(
            "transfer",
            "uniform lower bound + O_P rate of the regression function => same O_P rate of L",
            Verdict.PROVED,
            "P(L_n / r_n > C M) <= P(||f_Gn - f_G*|| / r_n > M) for every M, and the right side "
            "is small for large M uniformly in n",
        ),
        Reading(
            "parametric",
            "sqrt(log n / n) is the parametric rate n^-1/2",
            Verdict.REFUTED if ratio == sp.oo else Verdict.INCONCLUSIVE,
            f"sqrt(log n / n) / n^-1/2 = sqrt(log n) -> {ratio}: parametric up to a sqrt(log n) "
            "factor",
            {"ratio_limit": ratio},
        ),
    ]
    return Outcome.from_readings(
        readings,
        summary="the transfer step is proved (needs the lower bound for every G the estimator "
        "can take, or local + consistency); the rate is parametric only up to sqrt(log n)",
        derivation=(
            "If $L(G,G_*) \\le C\\|f_G - f_{G_*}\\|$ for all $G$, then $\\{L(\\hat G_n,G_*) > "
            "CMr_n\\} \\subseteq \\{\\|f_{\\hat G_n}-f_{G_*}\\| > Mr_n\\}$, so "
            "$\\sup_n P(L/r_n > CM) \\le \\sup_n P(\\|f_{\\hat G_n}-f_{G_*}\\|/r_n > M) \\to 0$ as "
            "$M\\to\\infty$: $L(\\hat G_n, G_*) = O_P(r_n)$. With only a local bound "
            "($\\|f_G - f_{G_*}\\| \\ge cL$ when $L < \\varepsilon$) one needs "
            "$L(\\hat G_n, G_*) \\to 0$ in probability first, and the same argument applies on "
            "that event."
        ),
    )

