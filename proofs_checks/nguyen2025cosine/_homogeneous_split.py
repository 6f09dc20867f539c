r"""Positively homogeneous experts: one regression function for a curve of mixing measures.

Seed 002's Example (L116) names ReLU and :math:`z^p` experts among the strongly identifiable
ones, and the rates of Theorem 4 are claimed for them (002 L58; 000 L23, L107, L157). Both
activations are positively homogeneous, :math:`\sigma(\lambda z) = \lambda^p \sigma(z)` for
:math:`\lambda > 0` (:math:`p = 1` for ReLU, :math:`p = 2` for :math:`z^2`), so for
:math:`h(x, \eta) = \sigma(a^\top x + b)` with :math:`\eta = (a, b)`,
:math:`h(x, \lambda\eta) = \lambda^p h(x, \eta)`.

**The split.** Replace an atom :math:`(\beta_0, \beta_1, \eta)` of :math:`G` by two atoms
:math:`(\beta_0 + \log w_j, \beta_1, \lambda_j \eta)`, :math:`j = 1, 2`, with

.. math::

    \lambda_{1,2} = 1 \pm t, \qquad w_1 + w_2 = 1, \qquad w_1\lambda_1^p + w_2\lambda_2^p = 1,
    \qquad 0 < t < 1,

i.e. :math:`w_1 = (1 - \lambda_2^p)/(\lambda_1^p - \lambda_2^p) \in (0, 1)`. Both new atoms
share the router parameter, so their gate numerators are :math:`w_j e^{\beta_0 + s(x,
\beta_1)}`: the softmax denominator keeps the term :math:`e^{\beta_0 + s(x, \beta_1)}` and the
numerator the term :math:`e^{\beta_0 + s(x, \beta_1)} h(x, \eta)`. Hence :math:`f_{G_t}
\equiv f_G` for every input, every input dimension and every router score
(:func:`split_identity`, an identity of rational functions), while the split measures
:math:`G_t`, :math:`0 < t < 1`, are pairwise distinct (their experts :math:`(1 \pm t)\eta`).

**Consequences** (used by ``pcr.rates.perturbed-fast``). (i) Every :math:`G_t` obtained from
a measure satisfying (A.1)-(A.4) satisfies them too (distinct experts, the last atom's
:math:`\beta_0 = 0` and a non-zero router parameter kept), and all of them give the data one
law. An estimator :math:`\hat G_n` then has one law under all of them; if the Voronoi loss
:math:`\mathcal L(\hat G_n, G_t)` tended to 0 in probability at two of them, :math:`\hat G_n`
would converge to two distinct measures. So every estimator, the least-squares one included,
fails to be consistent, let alone at a polynomial rate, at all but at most one truth of the
curve, in the exact-specified (:math:`k = k_*`) and the over-specified (:math:`k > k_*`)
settings alike. (ii) At the unsplit truth :math:`G_*` fitted with one atom more, :math:`G_t
\to G_*` as :math:`t \to 0` with :math:`f_{G_t} = f_{G_*}` and a positive loss: the inverse
bound :math:`\|f_G - f_{G_*}\| \gtrsim \mathcal L(G, G_*)` that the rates of the paper rest on
fails.

Tanh and GELU are not positively homogeneous, and the split changes their regression function
(the tests check both).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from moetheory import Reading, Verdict
from moetheory.engine.verdicts import symbolic_evidence
from moetheory.estimation.symbolic import regression_expr
from moetheory.symbolic.experts import relu

__all__: list[str] = []

#: The degree p of positive homogeneity, sigma(lambda z) = lambda^p sigma(z) for lambda > 0,
#: of the expert families of ``pcr.rates.perturbed-fast`` that have one.
HOMOGENEOUS_DEGREE: dict[str, int] = {"relu": 1, "poly2": 2}

#: The families as the derivation names them.
_TEX_NAME: dict[str, str] = {"relu": "ReLU", "poly2": "$z^2$"}

#: The split parameters of the two truths the evidence names (t = 1/4 and t = 1/2).
CURVE_POINTS: tuple[Fraction, Fraction] = (Fraction(1, 4), Fraction(1, 2))

#: Digits of the mpmath cross-check of the identity on the experiment's G*.
DPS = 40

_LAM = sp.Symbol("lambda", positive=True)


def _sigma(family: str, z: sp.Expr) -> sp.Expr:
    if family == "relu":
        return relu(z)
    if family == "poly2":
        return z**2
    raise ValueError(f"family must be one of {sorted(HOMOGENEOUS_DEGREE)}, got {family!r}")


def homogeneity_identity(family: str) -> dict[str, Any]:
    """``sigma(lambda z) - lambda^p sigma(z) = 0`` for ``lambda > 0``, decided by SymPy on the
    sign branches of ``z`` (ReLU is piecewise): the residual on each branch."""
    p = HOMOGENEOUS_DEGREE[family]
    branches = {"z > 0": sp.Symbol("z", positive=True), "z < 0": sp.Symbol("z", negative=True),
                "z = 0": sp.Integer(0)}
    residuals = {name: sp.simplify(_sigma(family, _LAM * z) - _LAM**p * _sigma(family, z))
                 for name, z in branches.items()}
    power = "" if p == 1 else f"^{p}"
    return {"identity": f"sigma(lambda z) = lambda{power} sigma(z) for lambda > 0",
            "holds": all(r == 0 for r in residuals.values()),
            "residuals": {k: symbolic_evidence(v) for k, v in residuals.items()}}


def split_weights(p: int, t: sp.Expr | Fraction) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
    """``(w1, w2, lambda1, lambda2)`` of the split at ``t``: ``lambda = 1 +- t``, ``w1 + w2 =
    1`` and ``w1 lambda1^p + w2 lambda2^p = 1`` (exact for a rational ``t``)."""
    t = sp.Rational(t.numerator, t.denominator) if isinstance(t, Fraction) else t
    lam1, lam2 = 1 + t, 1 - t
    w1 = sp.cancel((1 - lam2**p) / (lam1**p - lam2**p))
    return w1, sp.cancel(1 - w1), lam1, lam2


def split_identity(p: int) -> dict[str, Any]:
    """``f`` after the split minus ``f`` before, as a rational function of the split atom's
    mass ``m``, gate factor ``E = exp(s(x, beta1))``, expert value ``H = h(x, eta)`` (so
    ``h(x, lambda eta) = lambda^p H``), the other atoms' numerator ``R`` and denominator ``D``
    and the split parameter ``t``: SymPy's ``cancel`` of the difference (0 when it holds for
    every input, input dimension and router)."""
    m, E, D, t = sp.symbols("m E D t", positive=True)
    H, R = sp.symbols("H R", real=True)
    w1, w2, lam1, lam2 = split_weights(p, t)
    before = (m * E * H + R) / (m * E + D)
    after = (m * w1 * E * lam1**p * H + m * w2 * E * lam2**p * H + R) / (m * w1 * E
                                                                           + m * w2 * E + D)
    residual = sp.cancel(sp.together(after - before))
    return {"holds": residual == 0, "residual": symbolic_evidence(residual),
            "weights": {"w1": symbolic_evidence(w1), "w2": symbolic_evidence(w2)}}


def split_atoms(atoms: list[dict[str, Any]], index: int, p: int,
                t: Fraction) -> list[dict[str, Any]]:
    """The atoms (``mass``, ``beta1``, ``eta`` as exact SymPy numbers) with atom ``index``
    split at ``t``."""
    w1, w2, lam1, lam2 = split_weights(p, t)
    a = atoms[index]
    pair = [{"mass": a["mass"] * w, "beta1": a["beta1"], "eta": [lam * e for e in a["eta"]]}
            for w, lam in ((w1, lam1), (w2, lam2))]
    return [*atoms[:index], *pair, *atoms[index + 1:]]


def _f_values(atoms: list[dict[str, Any]], xs: list[tuple[sp.Rational, ...]], family: str,
              tau1: sp.Expr, tau2: sp.Expr) -> list[mpmath.mpf]:
    """``f_G`` under the perturbed cosine router (002 eq. (8),
    :func:`moetheory.estimation.symbolic.regression_expr`) at the inputs ``xs``, evaluated at
    :data:`DPS` digits."""
    x = sp.symbols(f"x1:{len(xs[0]) + 1}", real=True)
    f = regression_expr([sp.log(a["mass"]) for a in atoms], [a["beta1"] for a in atoms],
                        [a["eta"] for a in atoms], x, "perturbed", tau1, tau2,
                        activation=lambda z: _sigma(family, z))
    return [mpmath.mpf(sp.N(f.subs(dict(zip(x, point, strict=True))), DPS + 10))
            for point in xs]


def curve_evidence(family: str, atoms: list[dict[str, Any]], tau1: sp.Expr = 1,
                   tau2: sp.Expr = 1) -> dict[str, Any]:
    """The exact evidence of the split curve through the truth ``atoms`` (first atom split):
    the homogeneity identity, the rational-function identity, the two named truths of the
    curve with the gap of their experts, and the largest ``|f_{G_t} - f_{G_*}|`` over a grid
    of inputs at :data:`DPS` digits (a cross-check: the identity is the certificate)."""
    p = HOMOGENEOUS_DEGREE[family]
    grid = [(sp.Rational(i, 2), sp.Rational(j, 2)) for i in (-3, -1, 0, 2) for j in (-2, 1, 3)]
    truths = {}
    with mpmath.workdps(DPS):
        gap = mpmath.mpf(0)
        f_star = _f_values(atoms, grid, family, tau1, tau2)
        for t in CURVE_POINTS:
            split = split_atoms(atoms, 0, p, t)
            f_split = _f_values(split, grid, family, tau1, tau2)
            gap = max([gap, *(abs(u - v) for u, v in zip(f_split, f_star, strict=True))])
            truths[f"t = {t}"] = [{"mass": symbolic_evidence(a["mass"]),
                                   "beta1": [str(v) for v in a["beta1"]],
                                   "eta": [str(v) for v in a["eta"]]} for a in split]
        gap_text = mpmath.nstr(gap, 2) if gap else "0"
    eta = atoms[0]["eta"]
    norm = sp.sqrt(sum(sp.Rational(e) ** 2 for e in eta))
    t1, t2 = (sp.Rational(v.numerator, v.denominator) for v in CURVE_POINTS)
    return {
        "family": family,
        "degree": p,
        "homogeneity": homogeneity_identity(family),
        "split_identity": split_identity(p),
        "truths": truths,
        "expert_gap": symbolic_evidence((t2 - t1) * norm),
        "max_abs_difference": gap_text,
        "inputs": [[str(v) for v in x] for x in grid],
        "digits": DPS,
    }


def design_atoms(beta0: list[float], beta1: list[list[float]],
                 eta: list[list[float]]) -> list[dict[str, Any]]:
    """The atoms of a mixing measure given by floats with exact binary values (the
    experiment's ``G*``), as exact SymPy numbers: mass ``exp(beta0)``."""
    def exact(v: float) -> sp.Rational:
        return sp.Rational(Fraction(v))

    return [{"mass": sp.exp(exact(b0)), "beta1": [exact(v) for v in b1],
             "eta": [exact(v) for v in e]} for b0, b1, e in zip(beta0, beta1, eta, strict=True)]


def every_truth_reading(family: str, atoms: list[dict[str, Any]], tau1: sp.Expr = 1,
                        tau2: sp.Expr = 1) -> Reading:
    """The reading "the rates hold at every truth G*" of one expert family: refuted by the
    split curve (:func:`curve_evidence`) for a positively homogeneous family, open otherwise
    (the fitted slope at the simulated G* covers that G* only)."""
    name = f"{family} experts: every truth G*"
    text = ("the rates hold at every truth G* satisfying (A.1)-(A.4), exact- and "
            "over-specified (Theorem 4 and Appendix A.2 state them for every G*)")
    if family not in HOMOGENEOUS_DEGREE:
        return Reading(name, text, Verdict.INCONCLUSIVE,
                       "not positively homogeneous: the split does not apply, and no exact "
                       "argument decides every G* here; the fitted slope covers the simulated "
                       "G* only", {"family": family, "homogeneous": False})
    ev = curve_evidence(family, atoms, tau1, tau2)
    ok = ev["homogeneity"]["holds"] and ev["split_identity"]["holds"]
    p = ev["degree"]
    pw = "" if p == 1 else f"^{p}"
    a, b = (str(v) for v in CURVE_POINTS)
    summary = (
        f"h(x, lambda eta) = lambda{pw} h(x, eta) (lambda > 0): splitting G*'s first atom into "
        f"(beta0 + log w_j, beta1, (1 +- t) eta) with w1 + w2 = 1, w1 (1+t){pw} + w2 (1-t){pw} "
        "= 1 leaves f_G unchanged for every x, d and router (SymPy residual 0; max "
        f"|f_G_t - f_G*| = {ev['max_abs_difference']} at {DPS} digits on 12 inputs). The "
        "truths G_t, 0 < t < 1, are pairwise distinct (at t = "
        f"{a} and {b} the experts differ by {ev['expert_gap']['sympy']}), satisfy (A.1)-(A.4) "
        "and give the data one law: any estimator is consistent in the Voronoi loss at one of "
        "them at most; and G_t -> G* with f_G_t = f_G* (k = 3) breaks the inverse bound at "
        "the simulated G* itself")
    return Reading(name, text, Verdict.REFUTED if ok else Verdict.INCONCLUSIVE, summary, ev)


def split_derivation(families: list[str]) -> str:
    """The worked derivation of the split, for the families in ``families`` that are
    positively homogeneous (Markdown with LaTeX, formulas through SymPy's printer)."""
    homogeneous = [f for f in families if f in HOMOGENEOUS_DEGREE]
    if not homogeneous:
        return ""
    t = sp.Symbol("t", positive=True)
    rows = []
    for fam in homogeneous:
        p = HOMOGENEOUS_DEGREE[fam]
        w1, w2, lam1, lam2 = split_weights(p, t)
        rows.append(f"{_TEX_NAME[fam]} ($p = {p}$): $w_1 = {sp.latex(w1)}$, "
                    f"$w_2 = {sp.latex(w2)}$, "
                    f"$\\lambda_{{1,2}} = {sp.latex(lam1)}, {sp.latex(lam2)}$")
    return (
        "**Every truth, exactly.** ReLU and $z^2$ are positively homogeneous: "
        "$\\sigma(\\lambda z) = \\lambda^p\\sigma(z)$ for $\\lambda > 0$, so "
        "$h(x, \\lambda\\eta) = \\lambda^p h(x, \\eta)$. Split an atom "
        "$(\\beta_0, \\beta_1, \\eta)$ into $(\\beta_0 + \\log w_j, \\beta_1, \\lambda_j\\eta)$, "
        "$j = 1, 2$, with $w_1 + w_2 = 1$ and $w_1\\lambda_1^p + w_2\\lambda_2^p = 1$: "
        + "; ".join(rows)
        + ". The two atoms share $\\beta_1$, so the softmax's denominator keeps "
        "$e^{\\beta_0 + s(x,\\beta_1)}(w_1 + w_2)$ and its numerator "
        "$e^{\\beta_0 + s(x,\\beta_1)}(w_1\\lambda_1^p + w_2\\lambda_2^p)h(x,\\eta)$: "
        "$f_{G_t} = f_G$ for every $x$, every $d$ and every router (the difference of the two "
        "rational functions cancels to 0). The split truths $G_t$, $0 < t < 1$, of the "
        "experiment's $G_*$ are pairwise distinct, satisfy (A.1)-(A.4) (distinct experts, "
        "the last atom's $\\beta_0 = 0$, a non-zero router parameter) and give the data one "
        "law; an estimator has one law under all of them, and a Voronoi loss tending to 0 at "
        "two of them would make it converge to two distinct measures. So no estimator, the "
        "least-squares one included, attains any rate at all of them but one, exact- "
        "($k = k_* = 3$) or over-specified ($k > 3$). At the experiment's $G_*$ itself "
        "($k_* = 2$, $k = 3$), $G_t \\to G_*$ as $t \\to 0$ with $f_{G_t} = f_{G_*}$ and a "
        "positive loss: the inverse bound $\\|f_G - f_{G_*}\\| \\ge c\\,\\mathcal{L}(G, G_*)$ "
        "the rates rest on fails, and the population least-squares minimisers with $k = 3$ "
        "include the whole curve. Theorem 4 itself is not refuted, its hypothesis fails: "
        "these families are not strongly identifiable (`pcr.ident.ffn-relu`, "
        "`pcr.ident.ffn-poly`)."
    )
