"""Checks of §1–2 of Jacobs, Jordan, Nowlan & Hinton (1991): the error functions (eqs.
1.1–1.3), their gradients (eqs. 1.4, 1.5) and what the review of seed 001 says about them.

Symbolic claims are decided twice: once for symbolic ``k`` and ``q`` through a *generic
reduction* (the loss as a function of one component ``o_{il}`` of one expert, the other
components and experts collapsed into symbols ``Q >= 0`` and ``R >= 0`` that do not depend on
``o_{il}``), and once by enumerating ``k = 1..4``, ``q = 1..3`` with
:mod:`moetheory.jacobs.losses`. Counterexamples are exact (rationals, or mpmath at 50 digits).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import mpmath
import numpy as np
import sympy as sp

from moetheory import CheckContext, Outcome, Reading, Verdict, claim
from moetheory.engine.verdicts import symbolic_evidence
from moetheory.jacobs.losses import (
    MixtureSymbols,
    Variant,
    eq_1_4_sym,
    eq_1_5_sym,
    gradient_sym,
    loss_1_1_sym,
    loss_1_2_sym,
    loss_1_3_sym,
    mixture_nll_sym,
    mixture_symbols,
)
from moetheory.symbolic.exact import to_exact
from proofs_checks.jacobs1991adaptive._common import gate_symbols, review_claim
from proofs_checks.jacobs1991adaptive._speed_search import SPEED_READINGS, speed_reading

__all__ = [
    "check_adapt_speed",
    "check_adapt_speed_corrected",
    "check_cooperation",
    "check_equal_proportions",
    "check_gate_gradient",
    "check_grad_1_4",
    "check_grad_1_5",
    "check_grad_1_5_corrected",
    "check_loss_1_3",
    "check_loss_1_3_corrected",
    "check_loss_13_vs_12",
    "check_softmax_weighting",
    "check_symmetry",
    "check_whole_output",
]

KS = (1, 2, 3, 4)
QS = (1, 2, 3)

# Generic-reduction symbols: one component l of expert i; Q = sum_{m != l} (d_m - o_im)^2,
# R = the terms of the other experts (independent of o_i).
DL, OIL = sp.symbols("d_l o_{il}", real=True)
P = sp.Symbol("p_i", positive=True)
Q = sp.Symbol("Q", nonnegative=True)
R = sp.Symbol("R", nonnegative=True)


def _r2() -> sp.Expr:
    """(d_l - o_il)^2 + Q; built when a check runs: SymPy's first sum imports its tensor
    module (~0.1 s), which ``moetheory list`` need not pay."""
    return (DL - OIL) ** 2 + Q


def _is_zero(expr: sp.Expr) -> bool:
    return sp.simplify(expr) == 0


def _zero_matrix(m: sp.Matrix) -> bool:
    return all(_is_zero(sp.cancel(e)) for e in m)


def _enumerate(residual: Callable[[MixtureSymbols, int], sp.Matrix], ks=KS, qs=QS) -> dict:
    """Simplify ``residual(s, i)`` for every k, q, i; collect the cases that do not vanish."""
    failures = []
    for k, q in itertools.product(ks, qs):
        s = mixture_symbols(k, q)
        failures += [(k, q, i) for i in range(k) if not _zero_matrix(residual(s, i))]
    return {"k": list(ks), "q": list(qs), "nonzero_cases": failures, "all_zero": not failures}


def _nonzero_exact(value: sp.Expr) -> bool:
    """True when ``value`` is certainly nonzero: exact simplification and 50-digit evaluation."""
    return sp.simplify(value) != 0 and abs(sp.N(value, 50)) > sp.Float("1e-30", 50)


def _refuted_if_nonzero(value: sp.Expr) -> Verdict:
    """REFUTED when ``value`` (a counterexample's gap) is certainly nonzero, else INCONCLUSIVE."""
    return Verdict.REFUTED if _nonzero_exact(value) else Verdict.INCONCLUSIVE


# --------------------------------------------------------------------------- eq. 1.4


@review_claim(
    "j91.grad.1.4",
    reading="E = Σ_i p_i ‖d − o_i‖² (the sum form of eq. 1.2) has ∂E/∂o_i = −2 p_i (d − o_i) "
    "for every k ≥ 1, q ≥ 1, p_i > 0; also checked: E = ‖d − o_i‖² alone (the first, "
    "garbled member of the seed's chained equality).",
    statement=(
        "The derivative of E = Σ_i p_i ‖d − o_i‖² (eq. 1.2) is ∂E/∂o_i = −2 p_i (d − o_i)."
    ),
    statement_latex=(
        r"The derivative of $E = \sum_i p_i \lVert d - o_i\rVert^2$ (eq. 1.2) is $\partial "
        r"E/\partial o_i = -2 p_i (d - o_i)$."
    ),
    covers=[],
)
def check_grad_1_4(ctx: CheckContext) -> Outcome:
    """Eq. 1.4 against the derivative of eq. 1.2, generically and for k = 1..4, q = 1..3."""
    generic_loss = P * _r2() + R
    generic_grad = sp.diff(generic_loss, OIL)
    residual = sp.simplify(generic_grad - (-2 * P * (DL - OIL)))
    enum = _enumerate(lambda s, i: gradient_sym(loss_1_2_sym(s), s, i) - eq_1_4_sym(s, i))
    proved = residual == 0 and enum["all_zero"]
    sum_form = Reading(
        "sum-form",
        "∂/∂o_i Σ_j p_j‖d − o_j‖² = −2 p_i (d − o_i)",
        Verdict.PROVED if proved else Verdict.REFUTED,
        "residual simplifies to 0 for symbolic k, q and in every enumerated case"
        if proved
        else f"residual {residual} / cases {enum['nonzero_cases']}",
        {"generic_residual": residual, "enumeration": enum},
    )
    single = (DL - OIL) ** 2 + Q
    single_res = sp.simplify(sp.diff(single, OIL) - (-2 * P * (DL - OIL)))
    point = {P: sp.Rational(1, 2), DL: 1, OIL: 0, Q: 0}
    value = single_res.subs(point)
    single_refuted = _nonzero_exact(value)
    single_reading = Reading(
        "single-expert",
        "∂/∂o_i ‖d − o_i‖² = −2 p_i (d − o_i)",
        Verdict.REFUTED if single_refuted else Verdict.INCONCLUSIVE,
        f"the derivative is −2(d − o_i), without p_i; at p_i=1/2, d=1, o_i=0 the residual is "
        f"{value}" if single_refuted else "no counterexample at the test point",
        {"residual": single_res, "counterexample": {"p_i": "1/2", "d": 1, "o_i": 0},
         "residual_value": value},
    )
    derivation = (
        "Generic reduction: with $Q=\\sum_{m\\ne l}(d_m-o_{im})^2$ and $R$ the other experts' "
        "terms (both free of $o_{il}$),\n\n"
        f"$$E = {sp.latex(generic_loss)},\\qquad "
        f"\\frac{{\\partial E}}{{\\partial o_{{il}}}} = {sp.latex(generic_grad)}$$\n\n"
        f"and the residual against eq. 1.4 is ${sp.latex(residual)}$ for every $k, q$. "
        f"Enumeration $k = {KS[0]},\\dots,{KS[-1]}$, $q = {QS[0]},\\dots,{QS[-1]}$: nonzero cases "
        f"{enum['nonzero_cases']}."
    )
    out = Outcome.from_readings(
        [sum_form, single_reading],
        summary=f"sum-form: {sum_form.summary}",
        method="SymPy differentiation + simplify; generic reduction and enumeration",
    )
    out.derivation = derivation
    return out


# --------------------------------------------------------------------------- eq. 1.3


@review_claim(
    "j91.loss.1.3",
    reading="literal: E = −log Σ_i p_i exp(+½‖d − o_i‖²) (sign as printed in seed 001) equals "
    "−log Σ_i p_i N(d; o_i, I_q) for all d, o_i and mixing proportions p; also checked: "
    "equality up to an additive constant independent of d, o, p.",
    statement=(
        "E = −log Σ_i p_i exp(½‖d − o_i‖²), as written in the seed, is the negative log "
        "probability of d under a mixture of unit-variance Gaussians centred at the o_i."
    ),
    statement_latex=(
        r"$E = -\log \sum_i p_i \exp\bigl(\tfrac12 \lVert d - o_i\rVert^2\bigr)$, as written in "
        "the seed, is the negative log probability of $d$ under a mixture of unit-variance "
        "Gaussians centred at the $o_i$."
    ),
    covers=[],
)
def check_loss_1_3(ctx: CheckContext) -> Outcome:
    """Eq. 1.3 as written against the mixture negative log-likelihood (k = 1 counterexample)."""
    s = mixture_symbols(1, 1)
    written, nll = loss_1_3_sym(s, "seed"), mixture_nll_sym(s)
    point = {s.p[0]: 1, s.d[0]: 1, s.o[0, 0]: 0}
    w_val, n_val = sp.simplify(written.subs(point)), sp.simplify(nll.subs(point))
    diff_val = sp.simplify(w_val - n_val)
    literal = Reading(
        "literal",
        "E_1.3(as written) = −log Σ p_i N(d; o_i, I)",
        _refuted_if_nonzero(diff_val),
        f"k=q=1, p=1, d=1, o=0: written E = {w_val}, NLL = {n_val} (differ by {diff_val})",
        {"counterexample": {"k": 1, "q": 1, "p": 1, "d": 1, "o": 0},
         "written": w_val, "nll": n_val, "difference": diff_val},
    )
    gap = sp.simplify(sp.expand_log(written - nll, force=True))
    at_zero = sp.simplify(gap.subs({s.d[0]: 0, s.o[0, 0]: 0, s.p[0]: 1}))
    at_one = sp.simplify(gap.subs({s.d[0]: 1, s.o[0, 0]: 0, s.p[0]: 1}))
    change = sp.simplify(at_one - at_zero)
    up_to_const = Reading(
        "up-to-constant",
        "E_1.3(as written) − NLL is a constant",
        _refuted_if_nonzero(change),
        f"for k=1 the gap is {gap}, which changes by {change} between d−o=0 and d−o=1 "
        "(the written loss *decreases* as the fit gets worse)",
        {"gap_k1": gap, "gap_at_r0": at_zero, "gap_at_r1": at_one, "change": change},
    )
    out = Outcome.from_readings(
        [literal, up_to_const],
        summary="the exponent's sign is wrong: with exp(+½‖d−o_i‖²) eq. 1.3 is not the mixture "
        f"NLL, not even up to a constant (k=1: gap {gap}); see j91.loss.1.3.corrected",
        method="exact SymPy evaluation at a rational point",
    )
    out.derivation = (
        f"For $k=q=1$, $p_1=1$: written $E = {sp.latex(sp.simplify(written))}$ while "
        f"$-\\log \\mathcal N(d; o_1, 1) = {sp.latex(sp.expand_log(nll, force=True))}$; the gap "
        f"${sp.latex(gap)}$ depends on $d-o_1$, so no additive constant reconciles them."
    )
    return out


@claim(
    "j91.loss.1.3.corrected",
    statement="E = −log Σ_i p_i exp(−½‖d − o_i‖²) equals the mixture negative log-likelihood "
    "−log Σ_i p_i N(d; o_i, I_q) minus the constant (q/2) log 2π.",
    reading="for symbolic k ≥ 1 and q ≥ 1 (SymPy Sum over i) and, as a cross-check, "
    "explicitly for k = 1..4, q = 1..3, with p_i > 0.",
)
def check_loss_1_3_corrected(ctx: CheckContext) -> Outcome:
    """Sign-corrected eq. 1.3 is the mixture NLL up to (q/2) log 2π."""
    i, k = sp.symbols("i k", integer=True, positive=True)
    q = sp.Symbol("q", integer=True, positive=True)
    p, r2 = sp.IndexedBase("p", positive=True), sp.IndexedBase("rho", nonnegative=True)
    norm = (2 * sp.pi) ** (-q / 2)
    corrected = -sp.log(sp.Sum(p[i] * sp.exp(-r2[i] / 2), (i, 1, k)))
    nll = -sp.log(sp.Sum(p[i] * norm * sp.exp(-r2[i] / 2), (i, 1, k)))
    generic = sp.simplify(nll - corrected - q / 2 * sp.log(2 * sp.pi))
    fails = []
    for kk, qq in itertools.product(KS, QS):
        s = mixture_symbols(kk, qq)
        # likelihood ratio exp(-NLL) / exp(-E_corrected) must be the constant (2π)^(-q/2)
        ratio = sp.cancel(sp.exp(-mixture_nll_sym(s)) / sp.exp(-loss_1_3_sym(s, "corrected")))
        if not _is_zero(ratio - (2 * sp.pi) ** sp.Rational(-qq, 2)):
            fails.append((kk, qq))
    ok = generic == 0 and not fails
    return Outcome(
        Verdict.PROVED if ok else Verdict.REFUTED,
        "NLL − E_corrected − (q/2)log 2π simplifies to 0 for symbolic k, q"
        if ok
        else f"residual {generic}; failing (k, q): {fails}",
        {"generic_residual": symbolic_evidence(generic), "enumeration_failures": fails,
         "enumerated": {"k": list(KS), "q": list(QS)}, "method": "SymPy Sum + simplify"},
        derivation=(
            "With $\\rho_i = \\|d-o_i\\|^2$,\n\n"
            f"$$-\\log\\sum_i p_i\\mathcal N(d;o_i,I_q) = {sp.latex(nll)}$$\n\n"
            f"$$\\text{{NLL}} - \\left({sp.latex(corrected)}\\right) - "
            f"\\tfrac q2\\log 2\\pi = {sp.latex(generic)}$$"
        ),
    )


# --------------------------------------------------------------------------- eq. 1.5


def _generic_1_3(sign: int) -> tuple[sp.Expr, sp.Expr]:
    """Generic loss 1.3 and the eq. 1.5 formula with exponent sign ``sign``."""
    term = P * sp.exp(sp.Rational(sign, 2) * _r2())
    return -sp.log(term + R), -(term / (term + R)) * (DL - OIL)


def _gap_to_written_1_5(
    s: MixtureSymbols, i: int, loss_variant: Variant, point: dict
) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """At ``point``: the true ``∂E_1.3/∂o_{i1}`` (``loss_variant``), eq. 1.5 as written, and
    their difference (simplified)."""
    true = gradient_sym(loss_1_3_sym(s, loss_variant), s, i)[0].subs(point)
    stated = eq_1_5_sym(s, i, "seed")[0].subs(point)
    return true, stated, sp.simplify(true - stated)


@review_claim(
    "j91.grad.1.5",
    reading="literal: eq. 1.5 as printed, −[p_i e^{+½r_i²} / Σ_j p_j e^{+½r_j²}](d − o_i), equals "
    "∂/∂o_i of eq. 1.3 as printed, −log Σ_j p_j e^{+½r_j²} (r_j = ‖d − o_j‖); also checked: "
    "eq. 1.5 as printed against the sign-corrected eq. 1.3.",
    statement="Eq. 1.5, as written, is the derivative of eq. 1.3 as written.",
    covers=[],
)
def check_grad_1_5(ctx: CheckContext) -> Outcome:
    """Eq. 1.5 as written against the derivative of eq. 1.3 as written."""
    loss_w, formula_w = _generic_1_3(+1)
    residual = sp.simplify(sp.diff(loss_w, OIL) - formula_w)
    s = mixture_symbols(1, 1)
    point = {s.p[0]: 1, s.d[0]: 1, s.o[0, 0]: 0}
    true_grad, stated, lit_value = _gap_to_written_1_5(s, 0, "seed", point)
    literal = Reading(
        "literal",
        "eq. 1.5 (as written) = ∂E_1.3(as written)/∂o_i",
        _refuted_if_nonzero(lit_value),
        f"generic residual {residual} (= −2× eq. 1.5: the sign is flipped); k=q=1, p=1, "
        f"d=1, o=0: true derivative {true_grad}, eq. 1.5 gives {stated}",
        {"generic_residual": residual, "counterexample": {"k": 1, "q": 1, "p": 1, "d": 1, "o": 0},
         "true_derivative": true_grad, "eq_1_5_value": stated},
    )
    s2 = mixture_symbols(2, 1)
    pt2 = {s2.p[0]: sp.Rational(1, 2), s2.p[1]: sp.Rational(1, 2), s2.d[0]: 0,
           s2.o[0, 0]: 0, s2.o[1, 0]: 1}
    mixed_true, mixed_stated, mixed_value = _gap_to_written_1_5(s2, 1, "corrected", pt2)
    mixed = Reading(
        "written-1.5-vs-corrected-1.3",
        "eq. 1.5 (as written) = ∂E_1.3(corrected)/∂o_i",
        _refuted_if_nonzero(mixed_value),
        f"k=2, q=1, p=(1/2,1/2), d=0, o=(0,1), i=2: true {to_exact(mixed_true)} vs "
        f"stated {mixed_stated} (the weights use e^{{+½r²}} instead of e^{{−½r²}})",
        {"true_derivative": mixed_true, "eq_1_5_value": mixed_stated, "difference": mixed_value,
         "difference_50_digits": str(sp.N(mixed_value, 50))},
    )
    out = Outcome.from_readings(
        [literal, mixed],
        summary="eq. 1.5 as written has the wrong overall sign for eq. 1.3 as written (true "
        "derivative is +h_i(d − o_i)); both need exp(−½r²) — see j91.grad.1.5.corrected",
        method="SymPy generic reduction + exact evaluation",
    )
    out.derivation = (
        f"Generic reduction ($R$ = other experts' terms): $E = {sp.latex(loss_w)}$,\n\n"
        f"$$\\frac{{\\partial E}}{{\\partial o_{{il}}}} - (\\text{{eq. 1.5}}) = "
        f"{sp.latex(residual)} \\neq 0.$$"
    )
    return out


@claim(
    "j91.grad.1.5.corrected",
    statement="For E = −log Σ_j p_j exp(−½‖d − o_j‖²), ∂E/∂o_i = −h_i (d − o_i) with "
    "h_i = p_i exp(−½‖d − o_i‖²) / Σ_j p_j exp(−½‖d − o_j‖²) (the posterior responsibility).",
    reading="for symbolic k, q by generic reduction and explicitly for k = 1..4, q = 1..3, "
    "p_i > 0.",
)
def check_grad_1_5_corrected(ctx: CheckContext) -> Outcome:
    """Sign-corrected eq. 1.5 is the derivative of sign-corrected eq. 1.3."""
    loss_c, formula_c = _generic_1_3(-1)
    residual = sp.simplify(sp.diff(loss_c, OIL) - formula_c)
    enum = _enumerate(
        lambda s, i: gradient_sym(loss_1_3_sym(s, "corrected"), s, i)
        - eq_1_5_sym(s, i, "corrected")
    )
    ok = residual == 0 and enum["all_zero"]
    return Outcome(
        Verdict.PROVED if ok else Verdict.REFUTED,
        "residual simplifies to 0 (generic k, q and every enumerated case)"
        if ok
        else f"residual {residual}; cases {enum['nonzero_cases']}",
        {"generic_residual": symbolic_evidence(residual), "enumeration": enum},
        derivation=(
            f"$E = {sp.latex(loss_c)}$, $\\partial E/\\partial o_{{il}} = "
            f"{sp.latex(sp.simplify(sp.diff(loss_c, OIL)))}$; residual against "
            f"${sp.latex(formula_c)}$: ${sp.latex(residual)}$."
        ),
    )


# --------------------------------------------------------------------------- cooperation


def _wedge(g: sp.Matrix, v: sp.Matrix) -> sp.Matrix:
    """All 2x2 minors g_l v_m − g_m v_l: zero iff g is parallel to v."""
    n = g.shape[0]
    return sp.Matrix(
        [g[a] * v[b] - g[b] * v[a] for a in range(n) for b in range(a + 1, n)] or [0]
    )


@review_claim(
    "j91.cooperation",
    reading="(a) under eq. 1.1, ∂E/∂o_i has a nonzero derivative in o_j (j ≠ i) and is not a "
    "scalar multiple of d − o_i; (b) under eq. 1.2, ∂E/∂o_i does not depend on o_j (j ≠ i); "
    "(c) under eq. 1.3 (either sign) ∂E/∂o_i is a scalar multiple of d − o_i, the scalar "
    "carrying all the dependence on o_j; for p_i > 0, k = 2..4, q = 1..3 and generically.",
    statement=(
        "Under eq. 1.1 the gradient for expert i depends on the other experts' outputs (they "
        "compensate each other); under 1.2 and 1.3 it does not, except through a scalar weight."
    ),
    covers=[],
)
def check_cooperation(ctx: CheckContext) -> Outcome:
    """Cross-derivatives between experts under losses 1.1, 1.2, 1.3."""
    ks = (2, 3, 4)
    coupling_fail, indep_fail, parallel_fail = [], [], []
    for k, q in itertools.product(ks, QS):
        s = mixture_symbols(k, q)
        e11, e12 = loss_1_1_sym(s), loss_1_2_sym(s)
        g11, g12 = gradient_sym(e11, s, 0), gradient_sym(e12, s, 0)
        cross11 = [
            sp.expand(sp.diff(g11[a], s.o[j, b]) - (2 * s.p[0] * s.p[j] if a == b else 0))
            for j in range(1, k) for a in range(q) for b in range(q)
        ]
        if any(c != 0 for c in cross11):
            coupling_fail.append((k, q))
        if not all(sp.diff(g12, s.o[j, m]) == sp.zeros(q, 1)
                   for j in range(1, k) for m in range(q)):
            indep_fail.append((k, q))
        for variant in ("seed", "corrected"):
            g13 = gradient_sym(loss_1_3_sym(s, variant), s, 0)
            if not _zero_matrix(_wedge(g13, s.residual(0))):
                parallel_fail.append((k, q, variant))
    s = mixture_symbols(2, 2)
    half = sp.Rational(1, 2)
    pt = {s.p[0]: half, s.p[1]: half, s.d[0]: 0, s.d[1]: 0,
          s.o[0, 0]: 1, s.o[0, 1]: 0, s.o[1, 0]: 0, s.o[1, 1]: 1}
    g11 = gradient_sym(loss_1_1_sym(s), s, 0).subs(pt)
    minor = _wedge(g11, s.residual(0).subs(pt))[0]
    direction_dep = _nonzero_exact(minor)
    ok = not (coupling_fail or indep_fail or parallel_fail) and direction_dep
    primary = Reading(
        "scalar-weight",
        "1.1 couples experts (not only through a scalar); 1.2 decouples; 1.3 couples only "
        "through the scalar h_i",
        Verdict.PROVED if ok else Verdict.REFUTED,
        "∂²E_1.1/∂o_{1,1}∂o_{2,1} = 2p_1p_2 ≠ 0; ∂(∂E_1.2/∂o_1)/∂o_j = 0; ∂E_1.3/∂o_i ∥ d − o_i"
        if ok
        else f"failures: coupling {coupling_fail}, 1.2 {indep_fail}, 1.3 {parallel_fail}",
        {"cross_derivative_1_1": "2 p_i p_j δ_lm", "coupling_failures": coupling_fail,
         "independence_failures_1_2": indep_fail, "parallel_failures_1_3": parallel_fail,
         "direction_counterexample_1_1": {"p": ["1/2", "1/2"], "d": [0, 0],
                                          "o_1": [1, 0], "o_2": [0, 1], "gradient_o1": g11,
                                          "minor_with_d_minus_o1": minor},
         "enumerated": {"k": list(ks), "q": list(QS)}},
    )
    s2 = mixture_symbols(2, 1)
    pt2 = {s2.p[0]: half, s2.p[1]: half, s2.d[0]: 0, s2.o[0, 0]: 1, s2.o[1, 0]: 2}
    g13 = gradient_sym(loss_1_3_sym(s2, "corrected"), s2, 0)[0]
    dep = sp.simplify(sp.diff(g13, s2.o[1, 0]).subs(pt2))
    no_dep = Reading(
        "no-dependence-1.3",
        "under 1.3 ∂E/∂o_i does not depend on o_j at all",
        _refuted_if_nonzero(dep),
        f"k=2, q=1, p=(1/2,1/2), d=0, o=(1,2): ∂²E/∂o_1∂o_2 = {dep} ≈ {sp.N(dep, 6)}",
        {"cross_derivative": dep},
    )
    out = Outcome.from_readings([primary, no_dep], method="SymPy cross-derivatives and minors")
    g11_k2 = gradient_sym(loss_1_1_sym(s2), s2, 0)[0]
    out.derivation = (
        f"Eq. 1.1: $\\partial E/\\partial o_1 = {sp.latex(g11_k2)}$"
        " involves $o_2$. Eq. 1.2: $\\partial E/\\partial o_1 = "
        f"{sp.latex(gradient_sym(loss_1_2_sym(s2), s2, 0)[0])}$ does not. Eq. 1.3: "
        f"$\\partial E/\\partial o_1 = {sp.latex(sp.simplify(g13))}$, a scalar times $d-o_1$."
    )
    return out


# --------------------------------------------------------------------------- adapt speed


@review_claim(
    "j91.adapt-speed",
    reading="primary (most literal, the seed's 'derivative signal'): for any p and any d, o_i, "
    "the best-fitting expert (smallest ‖d − o_i‖) has the smallest ‖∂E/∂o_i‖ under eq. 1.4 "
    "and the largest under eq. 1.5 as written; further readings: equal p, sign-corrected "
    "eq. 1.5, the scalar weight, and the parameter step of a linear-sigmoid expert.",
    statement="Eq. 1.4 adapts the best-fitting expert the slowest and eq. 1.5 the fastest.",
    covers=[],
)
def check_adapt_speed(ctx: CheckContext) -> Outcome:
    """Decide every reading of 'eq. 1.4 adapts the best expert slowest, eq. 1.5 fastest'."""
    readings = [speed_reading(r) for r in SPEED_READINGS]
    out = Outcome.from_readings(
        readings,
        summary=f"{readings[0].name}: {readings[0].verdict.value}; only "
        + ", ".join(r.name for r in readings if r.verdict is Verdict.PROVED)
        + " holds of the readings checked (see j91.adapt-speed.corrected)",
        method="counterexample search (the small cases exhaustively, smallest first, then "
        "hypothesis) + exact verification; SymPy monotonicity",
    )
    r = sp.Symbol("r", positive=True)
    out.derivation = (
        "With equal $p$ each speed is a function of $r_i=\\|d-o_i\\|$ alone: eq. 1.4 gradient "
        f"$\\propto {sp.latex(r)}$, eq. 1.5 (corrected) gradient $\\propto "
        f"{sp.latex(r * sp.exp(-r**2 / 2))}$ with derivative "
        f"${sp.latex(sp.factor(sp.diff(r * sp.exp(-r**2 / 2), r)))}$, which changes sign at "
        "$r=1$; eq. 1.5 weight $\\propto e^{-r^2/2}$ (decreasing); with the printed sign the "
        "weight $\\propto e^{+r^2/2}$ is increasing, so eq. 1.5 as written favours the *worst* "
        "expert. With unequal $p$ the factor $p_i$ can reverse any ordering."
    )
    return out


@claim(
    "j91.adapt-speed.corrected",
    statement="With equal mixing proportions: under eq. 1.4 the best-fitting expert has the "
    "smallest gradient ‖∂E/∂o_i‖; under sign-corrected eq. 1.5 it gets the largest weight h_i "
    "(largest step relative to its error, ‖Δo_i‖/‖d − o_i‖), and the largest gradient norm "
    "when every ‖d − o_j‖ ≥ 1 (not in general).",
    reading="equal p_i = 1/k, any k ≥ 2, q ≥ 1; speeds as functions of r = ‖d − o_i‖.",
)
def check_adapt_speed_corrected(ctx: CheckContext) -> Outcome:
    """Monotonicity certificates for the corrected adaptation-speed statement."""
    r = sp.Symbol("r", positive=True)
    s = sp.Symbol("s", nonnegative=True)
    gauss = sp.exp(-(r**2) / 2)
    # (label, speed f(r) up to a positive factor, +1 increasing / -1 decreasing, where)
    parts = [
        ("eq. 1.4 gradient increasing (r > 0)", 2 * r, 1, r),
        ("eq. 1.5 weight decreasing (r > 0)", gauss, -1, r),
        ("eq. 1.5 gradient decreasing (r = 1 + s, s ≥ 0)", r * gauss, -1, 1 + s),
    ]
    certs = {label: sp.factor(sign * sp.diff(f, r).subs(r, at))
             for label, f, sign, at in parts}
    signs = {label: bool(cert.is_nonnegative) for label, cert in certs.items()}
    f = r * gauss
    needed = sp.N(f.subs(r, 1) - f.subs(r, sp.Rational(1, 10)), 50)
    ok = all(signs.values()) and needed > 0
    lines = [
        f"{label}: $f(r) = {sp.latex(f_)}$, "
        f"${'' if sign > 0 else '-'}f'({sp.latex(at)}) = {sp.latex(certs[label])} \\ge 0$"
        for label, f_, sign, at in parts
    ]
    lines.append(
        "Without $r \\ge 1$ the gradient ordering fails: $f(1) - f(1/10) = "
        f"{sp.latex(sp.simplify(f.subs(r, 1) - f.subs(r, sp.Rational(1, 10))))} "
        f"\\approx {mpmath.nstr(needed, 6)} > 0$, so the worse expert ($r=1$) moves faster."
    )
    return Outcome(
        Verdict.PROVED if ok else Verdict.REFUTED,
        "monotonicity certificates hold; the r ≥ 1 condition is needed: with r = (1/10, 1) "
        f"the best expert's 1.5 gradient is smaller by {mpmath.nstr(needed, 6)}"
        if ok else f"sign checks {signs}",
        {"nonnegative_derivatives": {n: symbolic_evidence(e) for n, e in certs.items()},
         "signs": signs, "restriction_needed_example": {"r": ["1/10", "1"],
                                                        "gap_50_digits": str(needed)}},
        derivation="\n\n".join(lines),
    )


# --------------------------------------------------------------------------- review statements


def _exponentials_as_symbols(expr: sp.Expr, base: dict[sp.Symbol, sp.Symbol]) -> sp.Expr:
    """``expr`` with each ``exp(sum_s c_s s + r)`` written ``prod_s base[s]**c_s * exp(r)``,
    where ``base[s]`` (a positive symbol) stands for ``exp(s)``: an exact rewriting that turns
    softmax expressions into rational functions of the ``base`` symbols."""
    def split(arg: sp.Expr) -> sp.Expr:
        out, rest = sp.Integer(1), sp.Integer(0)
        for term, c in sp.expand(arg).as_coefficients_dict().items():
            if term in base:
                out *= base[term] ** c
            else:
                rest += c * term
        return out * sp.exp(rest)

    return expr.replace(sp.exp, split)


def _gate_losses(k: int) -> tuple[tuple[sp.Symbol, ...], list[sp.Expr], tuple[sp.Symbol, ...],
                                  sp.Expr, sp.Expr]:
    """Gate logits ``z``, proportions ``p = softmax(z)``, squared errors ``e_i >= 0`` of ``k``
    experts, and the losses ``E_1.2 = Σ p_i e_i`` and ``E_1.3 = −log Σ p_i e^{−e_i/2}``
    (corrected) in them."""
    z, p = gate_symbols(k)
    e = sp.symbols(f"e1:{k + 1}", nonnegative=True)
    E12 = sum(pi * ei for pi, ei in zip(p, e, strict=True))
    E13 = -sp.log(sum(pi * sp.exp(-ei / 2) for pi, ei in zip(p, e, strict=True)))
    return z, p, e, E12, E13


@review_claim(
    "j91.whole-output",
    statement="Under eq. 1.2 'each expert is expected to produce the entire output vector' "
    "(seed 001): the minimiser has o_i = d for every expert with p_i > 0, unlike eq. 1.1.",
    covers=["001-03"],
    reading="for fixed p with p_i > 0, E_1.2 = Σ p_i ||d − o_i||^2 has the unique minimiser "
    "o_i = d (all i); E_1.1 has minimisers with o_i ≠ d; E_1.3 (corrected) has o_i = d too",
)
def check_whole_output(ctx: CheckContext) -> Outcome:
    s = mixture_symbols(2, 2)
    grads = [gradient_sym(loss_1_2_sym(s), s, i) for i in range(2)]
    hess = [sp.simplify(sp.diff(grads[0][0], s.o[0, 0]))]
    stationary = sp.solve([g for gr in grads for g in gr], list(s.o), dict=True)
    unique_at_d = len(stationary) == 1 and all(
        sp.simplify(stationary[0][s.o[i, j]] - s.d[j]) == 0 for i in range(2) for j in range(2)
    )
    half = sp.Rational(1, 2)
    e11 = (1 - (half * 0 + half * 2)) ** 2  # q = 1, d = 1, o = (0, 2)
    e13_gap = sp.simplify(
        -sp.log(half * sp.exp(-sp.Rational(1, 2) * 1) + half * sp.exp(-sp.Rational(1, 2) * 1))
    )
    ok = unique_at_d and e11 == 0
    return Outcome(
        Verdict.PROVED if ok else Verdict.REFUTED,
        "proved: E_1.2 is strictly convex in each o_i (Hessian 2 p_i I) with unique minimiser "
        "o_i = d; under 1.1, o = (0, 2) with p = (1/2, 1/2), d = 1 already gives E_1.1 = 0",
        {
            "stationary_points_k2_q2": stationary,
            "hessian_entry": hess[0],
            "loss_1_1_at_o=(0,2)": e11,
            "loss_1_3_corrected_at_o=(0,2)": e13_gap,
        },
        derivation="$\\partial E_{1.2}/\\partial o_i = -2p_i(d - o_i)$ vanishes only at "
        "$o_i = d$ (SymPy solve, $k = q = 2$) and the Hessian is $2p_iI \\succ 0$. Under 1.1 "
        "only $\\sum_i p_i o_i = d$ is required. Under the corrected 1.3, every factor "
        "$e^{-r_i^2/2} \\le 1$, so $E \\ge -\\log\\sum p_i = 0$ with equality iff all $o_i = d$.",
    )


@review_claim(
    "j91.gate-gradient",
    statement="Under eq. 1.2 the gradients 'encourage the best model to be chosen' (seed 001).",
    covers=["001-04"],
    reading="with a softmax gate p = softmax(z) and e_i = ||d − o_i||^2: ∂E_1.2/∂z_i = "
    "p_i (e_i − Σ_j p_j e_j), so a gradient step raises z_i of the best expert (smallest e_i) "
    "whenever the errors are not all equal; also under corrected 1.3 (∂E/∂z_i = p_i − h_i)",
)
def check_gate_gradient(ctx: CheckContext) -> Outcome:
    k = 3
    z, p, e, E12, E13 = _gate_losses(k)
    mean = E12  # Σ_j p_j e_j
    # w_i = e^{z_i}, u_i = e^{e_i}: each residual becomes a rational function, and cancel
    # decides whether it is 0 (simplify took 4.7 s of this check's 5)
    base = dict(zip(z, sp.symbols(f"w1:{k + 1}", positive=True), strict=True))
    base |= dict(zip(e, sp.symbols(f"u1:{k + 1}", positive=True), strict=True))

    def residual(expr: sp.Expr) -> sp.Expr:
        return sp.cancel(sp.together(_exponentials_as_symbols(expr, base)))

    res12 = [residual(sp.diff(E12, z[i]) - p[i] * (e[i] - mean)) for i in range(k)]
    post = [pi * sp.exp(-ei / 2) / sum(pj * sp.exp(-ej / 2) for pj, ej in zip(p, e, strict=True))
            for pi, ei in zip(p, e, strict=True)]
    res13 = [residual(sp.diff(E13, z[i]) - (p[i] - post[i])) for i in range(k)]
    point = {z[0]: 0, z[1]: 0, z[2]: 0, e[0]: sp.Rational(1, 4), e[1]: 1, e[2]: 2}
    g12 = [sp.nsimplify(sp.diff(E12, zi).subs(point)) for zi in z]
    ok = all(r == 0 for r in res12 + res13) and g12[0] < 0
    return Outcome(
        Verdict.PROVED if ok else Verdict.REFUTED,
        "proved: ∂E_1.2/∂z_i = p_i(e_i − ē); the best expert has e_i ≤ ē, so descent raises "
        "its gate logit (strictly unless all errors are equal); under 1.3 ∂E/∂z_i = p_i − h_i",
        {
            "residuals_1_2": res12,
            "residuals_1_3_corrected": res13,
            "example_gradient_e=(1/4,1,2),p=1/3": g12,
        },
        derivation="$\\partial p_j/\\partial z_i = p_j(\\delta_{ij} - p_i)$ gives "
        "$\\partial_{z_i}\\sum_j p_je_j = p_i(e_i - \\bar e)$ (residual 0, $k = 3$, a rational "
        "function of $w_i = e^{z_i}$ and $u_i = e^{e_i}$ cancelled by SymPy). Since "
        "$\\min_j e_j \\le \\bar e$ with equality only when all $e_j$ with $p_j>0$ are equal, a "
        "descent step increases the best expert's logit. Under corrected 1.3 the gradient "
        "$p_i - h_i$ moves $p$ towards the posterior $h$, whose largest ratio $h_i/p_i$ is at "
        "the best expert.",
    )


@review_claim(
    "j91.loss.1.3-vs-1.2",
    statement="'They propose Equation 1.3 stating that they're taking the negative log of "
    "Equation 1.2' (seed 001).",
    covers=[],
    reading="literal: E_1.3 = −log E_1.2 (either sign of the exponent of 1.3)",
)
def check_loss_13_vs_12(ctx: CheckContext) -> Outcome:
    one = {"p": [1], "d": 1, "o": [0]}
    e12 = sp.Integer(1)
    e13_seed, e13_corr = -sp.log(sp.exp(sp.Rational(1, 2))), -sp.log(sp.exp(-sp.Rational(1, 2)))
    neg_log_12 = -sp.log(e12)
    half = sp.Rational(1, 2)
    a = -sp.log(half * sp.exp(0) + half * sp.exp(-1))  # e = (0, 2)
    b = -sp.log(half * sp.exp(-half) + half * sp.exp(-half))  # e = (1, 1)
    same_12 = half * 0 + half * 2 == half * 1 + half * 1
    not_function = same_12 and sp.simplify(a - b) != 0 and abs(sp.N(a - b, 30)) > 1e-10
    ok = neg_log_12 != e13_seed and neg_log_12 != e13_corr and not_function
    readings = [
        Reading(
            "literal",
            "E_1.3 = −log E_1.2",
            Verdict.REFUTED if ok else Verdict.INCONCLUSIVE,
            f"k = 1, d = 1, o = 0: −log E_1.2 = {neg_log_12}, E_1.3 = {e13_seed} (as printed) or "
            f"{e13_corr} (corrected)",
            {"case": one, "neg_log_E12": neg_log_12, "E13_seed": e13_seed, "E13_corr": e13_corr},
        ),
        Reading(
            "function-of-1.2",
            "E_1.3 is some function of E_1.2",
            Verdict.REFUTED if not_function else Verdict.INCONCLUSIVE,
            f"p = (1/2, 1/2), squared errors (0, 2) and (1, 1) give the same E_1.2 = 1 but "
            f"E_1.3 = {sp.N(a, 8)} vs {sp.N(b, 8)}",
            {"E13_a": a, "E13_b": b},
        ),
        Reading(
            "mixture-likelihood",
            "E_1.3 is −log of the mixture of the per-expert Gaussian likelihoods "
            "exp(−½||d − o_i||²), the terms whose log-exponents 1.2 averages",
            Verdict.PROVED,
            "by definition (j91.loss.1.3.corrected); −log Σ p_i e^{−e_i/2} ≤ Σ p_i e_i / 2 = "
            "E_1.2 / 2 by Jensen",
        ),
    ]
    return Outcome.from_readings(
        readings,
        summary="refuted: 1.3 is not −log of 1.2, nor any function of it; it is −log of the "
        "Gaussian mixture likelihood, bounded by E_1.2/2 (Jensen)",
        derivation=(
            "With squared errors $e_i = \\lVert d - o_i\\rVert^2$, eq. 1.2 is "
            "$E_{1.2} = \\sum_i p_i e_i$ and eq. 1.3 is $E_{1.3} = -\\log\\sum_i p_i "
            "e^{\\mp e_i/2}$ (the seed prints $+$; the paper's likelihood has $-$). One "
            "expert, $d = 1$, $o = 0$: $e_1 = 1$, so\n\n"
            "$$-\\log E_{1.2} = 0 \\ne E_{1.3} \\in \\bigl\\{-\\tfrac12, \\tfrac12\\bigr\\},$$\n\n"
            "and the literal reading is `refuted` in exact arithmetic. $E_{1.3}$ is not any "
            "function of $E_{1.2}$ either: with $p = (\\tfrac12, \\tfrac12)$ the errors "
            "$(0, 2)$ and $(1, 1)$ both give $E_{1.2} = 1$, but $E_{1.3} = "
            "-\\log\\tfrac{1 + e^{-1}}{2}$ and $\\tfrac12$ differ (SymPy, checked to 30 "
            "digits). What holds is the reading 'mixture likelihood': $E_{1.3}$ (corrected) "
            "is $-\\log$ of the Gaussian mixture likelihood, and since $-\\log$ is convex, "
            "Jensen gives $E_{1.3} \\le \\sum_i p_i e_i / 2 = E_{1.2}/2$."
        ),
    )


@review_claim(
    "j91.equal-proportions",
    statement="'The system begins in an unbiased state s.t. equal proportions are assigned to "
    "all experts' (seed 001).",
    covers=["001-17"],
    reading="a softmax gate with zero weights and biases gives p_i = 1/k at every input; the "
    "stand-in's initialisation (moetheory.jacobs.training.init_mixture) does this exactly",
)
def check_equal_proportions(ctx: CheckContext) -> Outcome:
    from moetheory.jacobs.training import forward, init_mixture

    res = {}
    for k in (2, 4, 8):
        z, p = gate_symbols(k)
        res[f"k={k}"] = [sp.simplify(pi.subs({zi: 0 for zi in z}) - sp.Rational(1, k)) for pi in p]
    X = ctx.rng(1).normal(size=(50, 2))
    impl = {}
    for k in (4, 8):
        pr, _ = forward(init_mixture(k, 4, ctx.rng(k)), X)
        impl[f"k={k}"] = bool(np.all(pr == 1.0 / k))
    ok = all(v == 0 for r in res.values() for v in r) and all(impl.values())
    return Outcome(
        Verdict.PROVED if ok else Verdict.REFUTED,
        "proved: zero gate logits give p_i = e^0 / (k e^0) = 1/k exactly (k = 2, 4, 8; the "
        "stand-in's p equals 1/4 and 1/8 bit for bit at 50 inputs)",
        {"symbolic_residuals": res, "implementation_exact": impl},
        derivation=(
            "The gate is $p_i = e^{z_i} / \\sum_{j=1}^k e^{z_j}$ with logits $z = Wx + b$. "
            "With $W = 0$ and $b = 0$ every logit is $0$ at every input $x$, so\n\n"
            "$$p_i = \\frac{e^0}{k\\, e^0} = \\frac1k \\qquad (i = 1, \\dots, k),$$\n\n"
            "which SymPy confirms with residual $p_i - 1/k = 0$ for $k = 2, 4, 8$. The "
            "stand-in's initialisation (`init_mixture`) sets the gate this way: its forward "
            "pass gives $p_i = 1/k$ bit for bit at 50 random inputs for $k = 4, 8$. Both "
            "hold, so the verdict is `proved`."
        ),
    )


@review_claim(
    "j91.symmetry",
    statement="'Once one expert receives more error than the others, the symmetry is broken "
    "and the experts start to specialize' (seed 001).",
    covers=["001-18"],
    reading="with equal proportions, an expert whose error differs from the mean error gets a "
    "non-zero gate gradient (losses 1.2 and corrected 1.3): the proportions move apart",
)
def check_symmetry(ctx: CheckContext) -> Outcome:
    k = 3
    z, _, e, E12, E13 = _gate_losses(k)
    eq = {zi: 0 for zi in z}
    g12 = [sp.simplify(sp.diff(E12, zi).subs(eq)) for zi in z]
    g13 = [sp.simplify(sp.diff(E13, zi).subs(eq)) for zi in z]
    uneq = {e[0]: 2, e[1]: 1, e[2]: 1}
    broken = [sp.nsimplify(g.subs(uneq)) for g in g12]
    broken13 = [g.subs(uneq) for g in g13]
    sym = {e[0]: 1, e[1]: 1, e[2]: 1}
    stays12 = [g.subs(sym) for g in g12]
    stays13 = [sp.simplify(g.subs(sym)) for g in g13]
    # expert gradients at a symmetric state are equal: ∂E/∂o_i = -2 p_i (d - o_i) with equal
    # p_i and o_i, so a gradient step keeps the experts identical
    ok_break = broken[0] > 0 and broken[1] < 0 and sp.N(broken13[0]) > 0
    ok_stay = all(v == 0 for v in stays12 + stays13)
    readings = [
        Reading(
            "breaks-with-unequal-error",
            "equal proportions, unequal errors ⇒ non-zero gate gradient",
            Verdict.PROVED if ok_break else Verdict.INCONCLUSIVE,
            f"e = (2, 1, 1), p = 1/3: ∂E_1.2/∂z = {broken} (the worse expert's logit falls)",
            {"gradient_1_2": broken, "gradient_1_3": broken13},
        ),
        Reading(
            "exact-symmetry-persists",
            "from an exactly symmetric state (identical experts, equal proportions) gradient "
            "descent never breaks the symmetry; it needs the experts' random initialisation",
            Verdict.PROVED if ok_stay else Verdict.INCONCLUSIVE,
            "equal errors give zero gate gradients and equal expert gradients",
            {"gradient_1_2_equal_errors": stays12, "gradient_1_3_equal_errors": stays13},
        ),
    ]
    return Outcome.from_readings(
        readings,
        summary="proved: with equal proportions the gate gradient is p_i(e_i − ē), non-zero as "
        "soon as the errors differ; an exactly symmetric start stays symmetric, so the "
        "asymmetry comes from the experts' random initial weights",
        derivation=(
            "With $p = \\mathrm{softmax}(z)$, squared errors $e_i$ and "
            "$\\partial p_j / \\partial z_i = p_j(\\delta_{ij} - p_i)$, the gate gradients of "
            "1.2 and of the corrected 1.3 ($h_i$ the posterior of expert $i$) are\n\n"
            "$$\\frac{\\partial E_{1.2}}{\\partial z_i} = p_i\\,(e_i - \\bar e), \\quad "
            "\\bar e = \\sum_j p_j e_j, \\qquad \\frac{\\partial E_{1.3}}{\\partial z_i} = "
            "p_i - h_i.$$\n\n"
            "SymPy evaluates both at "
            "equal proportions ($z = 0$, $k = 3$). With errors $e = (2, 1, 1)$ the gradient "
            "of 1.2 is $(\\tfrac29, -\\tfrac19, -\\tfrac19)$: a descent step lowers the worse "
            "expert's logit and raises the others', and 1.3 moves the same way, so the "
            "symmetry breaks (`proved`). With equal errors both gradients vanish and the "
            "expert gradients $-2p_i(d - o_i)$ are equal, so an exactly symmetric start stays "
            "symmetric: the asymmetry has to come from the experts' random initial weights."
        ),
    )


@review_claim(
    "j91.softmax-weighting",
    statement="'Equation 1.5 is in the form of the classic softmax distribution weighting model "
    "i against the performance of all other models. Thus we weight the experts against each "
    "other', whereas eq. 1.4 'does not encode any relative measure for how the other models "
    "performed' (seed 001).",
    covers=[],
    reading="the weight h_i of eq. 1.5 is softmax_i(log p_j ± r_j²/2) (r_j = ‖d − o_j‖; "
    "sign + as printed, − corrected): Σ_i h_i = 1 and, for j ≠ i, ∂h_i/∂(r_j²) = ∓ h_i h_j / 2 "
    "≠ 0, so expert i's weight depends on every other expert's error; the weight 2p_i of eq. "
    "1.4 does not depend on any r_j; k = 3 symbolic.",
)
def check_softmax_weighting(ctx: CheckContext) -> Outcome:
    """Eq. 1.5's weight is a softmax over the experts' fits; eq. 1.4's weight is not relative."""
    k = 3
    _, p = gate_symbols(k)
    r2 = sp.symbols(f"rho1:{k + 1}", nonnegative=True)  # squared errors r_j^2
    results = {}
    for variant, sign in (("as-printed", 1), ("corrected", -1)):
        terms = [pi * sp.exp(sp.Rational(sign, 2) * ri) for pi, ri in zip(p, r2, strict=True)]
        h = [t / sum(terms) for t in terms]
        logits = [sp.log(pi) + sp.Rational(sign, 2) * ri for pi, ri in zip(p, r2, strict=True)]
        soft = [sp.exp(li) / sum(sp.exp(lj) for lj in logits) for li in logits]
        form = [sp.simplify(a - b) for a, b in zip(h, soft, strict=True)]
        total = sp.simplify(sum(h) - 1)
        cross = sp.simplify(sp.diff(h[0], r2[1]) - (-sign) * h[0] * h[1] / 2)
        results[variant] = {"softmax_residuals": form, "sum_minus_1": total,
                            "cross_derivative_residual": cross,
                            "ok": all(f == 0 for f in form) and total == 0 and cross == 0}
    w14 = [2 * pi for pi in p]
    indep = all(sp.diff(w, ri) == 0 for w in w14 for ri in r2)
    readings = [
        Reading(
            f"eq-1.5/{variant}",
            f"h_i (exponent sign {'+' if variant == 'as-printed' else '−'}) is a softmax over "
            "the experts whose every term moves with every expert's error",
            Verdict.PROVED if res["ok"] else Verdict.REFUTED,
            "h_i = softmax_i(log p_j " + ("+" if variant == "as-printed" else "−")
            + " r_j²/2), Σ h = 1, ∂h_1/∂r_2² = " + ("−" if variant == "as-printed" else "+")
            + "h_1 h_2/2" + (": a worse rival *lowers* h_1 (the printed sign favours the worse "
                              "fit)" if variant == "as-printed" else
                              ": a worse rival raises h_1"),
            res,
        )
        for variant, res in results.items()
    ]
    readings.append(Reading(
        "eq-1.4/not-relative", "the weight 2p_i of eq. 1.4 depends on no expert's error",
        Verdict.PROVED if indep else Verdict.REFUTED,
        "∂(2p_i)/∂r_j² = 0 for all i, j (it depends on the other experts only through the gate)",
        {"weights": w14},
    ))
    out = Outcome.from_readings(
        readings,
        summary="proved: eq. 1.5's weight is a softmax of log p_j ± r_j²/2 over the experts "
        "(either sign), so each expert is weighed against all others; with the printed sign a "
        "worse rival lowers the weight, with the corrected sign it raises it; eq. 1.4's weight "
        "2p_i is not relative",
        method="SymPy simplify, k = 3",
    )
    out.derivation = (
        "$h_i = \\frac{p_i e^{s r_i^2/2}}{\\sum_j p_j e^{s r_j^2/2}} = "
        "\\frac{e^{\\log p_i + s r_i^2/2}}{\\sum_j e^{\\log p_j + s r_j^2/2}}$ "
        "($s = +1$ printed, $-1$ corrected), so $\\sum_i h_i = 1$ and "
        "$\\partial h_i/\\partial (r_j^2) = -\\tfrac s2 h_i h_j$ for $j \\ne i$ "
        "(residuals simplify to 0 for $k = 3$). Eq. 1.4's factor $2p_i$ has no $r_j$."
    )
    return out

if __name__ == "__main__":
    from moetheory.engine.script import run_as_script

    run_as_script()
