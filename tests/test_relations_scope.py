"""find_relations states exactly what it decided (issue 43 items 5-8 and 13, issue 44 item 4):
the verdict line, the parameters differentiated and held fixed, the parameter regimes, the
time limit around every call of the user's code, the atlas cell agreeing with its relations."""

from __future__ import annotations

import json
import time

import mpmath
import sympy as sp

from moetheory.engine.verdicts import Verdict
from moetheory.symbolic.relations import find_relations

B1 = sp.Symbol("beta1_1", real=True)
ETA1, ETA2 = sp.Symbol("eta_1", real=True), sp.Symbol("eta_2", real=True)


def linear(beta1: sp.Matrix, x: sp.Matrix) -> sp.Expr:
    return beta1.dot(x)


def generic(x: sp.Matrix, eta: sp.Matrix) -> sp.Expr:
    return sp.Function("h")(*x, eta[0])


# ---- item 13: "proved" means the statement shown ---------------------------------------------
def test_relations_found_by_an_incomplete_search_are_not_stated_as_all_relations() -> None:
    # tanh(w) tanh(w/2): the kernels are dependent, so completeness is not decided, but the
    # linear router's ridge identity holds
    res = find_relations(linear, lambda x, eta: sp.tanh(eta[0] * x[0] + eta[1])
                         * sp.tanh((eta[0] * x[0] + eta[1]) / 2), order=2, d=1)
    assert {(ETA1,): 1, (B1, ETA2): -1} in [r.coefficients for r in res.relations]
    assert res.verdict is Verdict.PROVED
    assert res.statement["kind"] == "relations" and res.statement["complete"] is False
    assert "completeness not decided" in res.summary
    assert "generator" not in res.summary
    assert res.to_dict()["statement"]["complete"] is False


def test_a_complete_search_says_the_relations_are_all_of_them() -> None:
    res = find_relations(linear, lambda x, eta: sp.tanh(eta[0] * x[0] + eta[1]), order=2, d=1)
    assert res.statement == {"kind": "relations", "order": 2, "complete": True}
    assert "every linear relation" in res.summary


# ---- issue 44 item 4: the time limit covers every call of user code --------------------------
def test_the_time_limit_covers_the_users_score_and_expert() -> None:
    def slow_score(b: sp.Matrix, x: sp.Matrix) -> sp.Expr:
        time.sleep(20)
        return b.dot(x)

    start = time.monotonic()
    res = find_relations(slow_score, "tanh", order=1, d=1, timeout=1.0)
    assert time.monotonic() - start < 5.0
    assert res.verdict is Verdict.INCONCLUSIVE and "time limit" in res.reason

    def slow_expert(x: sp.Matrix, eta: sp.Matrix) -> sp.Expr:
        time.sleep(20)
        return sp.tanh(eta[0] * x[0])

    start = time.monotonic()
    res = find_relations("linear", slow_expert, order=1, d=1, timeout=1.0)
    assert time.monotonic() - start < 5.0
    assert res.verdict is Verdict.INCONCLUSIVE and "time limit" in res.reason


# ---- item 7: the parameters differentiated and those held fixed ------------------------------
def test_a_learnable_bias_is_differentiated_when_asked() -> None:
    b0 = sp.Symbol("b0", real=True)

    def score(b: sp.Matrix, x: sp.Matrix) -> sp.Expr:
        return b.dot(x) + b0

    fixed = find_relations(score, generic, order=1, d=1, eta_size=1)
    assert fixed.relations == () and fixed.verdict is Verdict.PROVED
    assert fixed.fixed == (b0,) and b0 not in fixed.parameters
    assert "b0" in fixed.summary and "held fixed" in fixed.summary
    assert fixed.to_dict()["fixed"] == ["b0"]
    assert "held fixed" in fixed._repr_markdown_()
    asked = find_relations(score, generic, order=1, d=1, eta_size=1, params=[b0])
    assert b0 in asked.parameters and asked.fixed == ()
    # the softmax numerator e^{beta x + b0} h: dH/db0 = H
    assert [r.coefficients for r in asked.generators] in ([{(): 1, (b0,): -1}],
                                                          [{(): -1, (b0,): 1}])
    data = asked.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert "b0" in data["parameters"] and data["fixed"] == []


def test_a_temperature_is_differentiated_when_asked() -> None:
    tau = sp.Symbol("tau", positive=True)
    res = find_relations(lambda b, x: b.dot(x) / tau, generic, order=1, d=1, eta_size=1,
                         params=[tau])
    # beta H_beta + tau H_tau = 0
    assert [r.coefficients for r in res.generators] == [{(B1,): B1, (tau,): tau}]


def test_params_must_be_symbols_of_the_score_or_the_expert() -> None:
    import pytest

    c = sp.Symbol("c", real=True)
    with pytest.raises(ValueError, match="params"):
        find_relations(linear, generic, order=1, d=1, eta_size=1, params=[c])
    with pytest.raises(ValueError, match="params"):
        find_relations(linear, generic, order=1, d=1, eta_size=1, params=["c"])


# ---- item 8: the Gaussian density in its variance form ---------------------------------------
def test_the_gaussian_expert_in_variance_form_is_accepted() -> None:
    y = sp.Symbol("y", real=True)
    v = sp.Symbol("v", positive=True)

    def density(x: sp.Matrix, eta: sp.Matrix) -> sp.Expr:
        return sp.exp(-(y - eta[0] * x[0] - eta[1]) ** 2 / (2 * v)) / sp.sqrt(2 * sp.pi * v)

    res = find_relations(linear, density, order=2, d=1, params=[v])
    assert res.verdict is Verdict.PROVED and v in res.parameters and res.fixed == (y,)
    # the heat equation 2 dH/dv = d^2H/db^2 is in the span of the relations found (rank at a
    # random rational point of the parameters)
    heat, false = {(v,): 2, (ETA2, ETA2): -1}, {(v,): 2, (ETA1, ETA1): -1}
    cols = sorted({a for r in res.relations for a in r.coefficients} | set(heat) | set(false),
                  key=str)
    point = {s: sp.Rational(k + 2, 7) for k, s in enumerate(sorted(
        {s for r in res.relations for c in r.coefficients.values() for s in
         sp.sympify(c).free_symbols}, key=str))}
    rows = [[sp.sympify(r.coefficients.get(a, 0)).xreplace(point) for a in cols]
            for r in res.relations]
    heat_row = [sp.Integer(heat.get(a, 0)) for a in cols]
    assert sp.Matrix(rows).rank() == sp.Matrix([*rows, heat_row]).rank()
    # and a false relation is not: 2 dH/dv = d^2H/da^2
    false_row = [sp.Integer(false.get(a, 0)) for a in cols]
    assert sp.Matrix(rows).rank() < sp.Matrix([*rows, false_row]).rank()


# ---- item 5: parameter regimes -----------------------------------------------------------------
def _laplace_relu_h(beta: float, a: float, b: float, x: mpmath.mpf) -> mpmath.mpf:
    return mpmath.exp(-abs(x - beta)) * max(a * x + b, 0)


def test_laplace_relu_regime_is_stated() -> None:
    # e^{-|x - beta|} ReLU(a x + b) in d = 1: when the active half-line lies on one side of
    # beta, H_beta - H = 0 holds too (an open set of parameters)
    mpmath.mp.dps = 50
    beta, a, b = mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(-2)  # active x > 2 > beta
    eps = mpmath.mpf(10) ** -20
    for x in (mpmath.mpf(-1), mpmath.mpf("2.5"), mpmath.mpf(4)):
        dh = (_laplace_relu_h(beta + eps, a, b, x) - _laplace_relu_h(beta - eps, a, b, x)) \
            / (2 * eps)
        assert abs(dh - _laplace_relu_h(beta, a, b, x)) < mpmath.mpf(10) ** -15
    res = find_relations("laplace", "relu", order=1, d=1)
    beta_s = sp.Symbol("beta_1", real=True)
    (regime,) = [r for r in res.relations
                 if r.coefficients in ({(): 1, (beta_s,): -1}, {(): -1, (beta_s,): 1})]
    # stated for its regime only (the active half-line on one side of beta), not everywhere
    assert "is empty" in regime.scope["parameters"]
    everywhere = [r for r in res.relations if "parameters" not in r.scope]
    assert len(everywhere) == 1  # the homogeneity in (a, b), in every regime
    assert res.scope["regimes"] and "regime" in res.summary
    assert "regimes" in json.dumps(res.to_dict())


# ---- item 6: an atlas cell's statement agrees with its relations -----------------------------
def test_the_laplace_generic_cell_states_its_d_1_relation() -> None:
    from moetheory.symbolic.atlas import _summary_cell, atlas_cell, render_cell

    cell = atlas_cell("laplace", "generic", order=2)
    assert cell.d1_relations  # H - d^2H/dbeta^2 = 0 in d = 1
    assert cell.verdict == "refuted"
    assert cell.reason["kind"] == "relation" and cell.reason["dependent_in"] == [1]
    text = render_cell(cell)
    assert "no relation up to order 2 at one atom in $d = 1, 2$" not in text
    assert "none ·" not in _summary_cell(cell)


def test_a_square_root_of_a_positive_parameter_is_in_the_class() -> None:
    v = sp.Symbol("v", positive=True)
    res = find_relations(linear, lambda x, eta: sp.exp(sp.sqrt(v) * x[0]) * eta[0], order=1,
                         d=1, eta_size=1, params=[v])
    found = [r.coefficients for r in res.relations]
    # H_beta = x H and H_v = x H / (2 sqrt(v)): H_beta - 2 sqrt(v) H_v = 0, not sqrt(v) H_v
    assert {(B1,): 1, (v,): -2 * sp.sqrt(v)} in found
    assert {(B1,): 1, (v,): -sp.sqrt(v)} not in found
    assert res.statement["complete"] is True


# ---- the independent check before a verdict ----------------------------------------------------
def test_the_independent_numerical_check_refutes_false_relations_in_their_regime() -> None:
    from moetheory.symbolic.interactions import EXPERTS, ROUTERS
    from moetheory.symbolic.relations._check import failures
    from moetheory.symbolic.relations._relations import Relation

    a, b, beta = (sp.Symbol(n, real=True) for n in ("a_1", "b", "beta_1"))
    ridge = Relation((((a,), sp.Integer(1)), ((B1, b), sp.Integer(-1))), 2)
    wrong = Relation((((a,), sp.Integer(1)), ((B1, b), sp.Integer(-2))), 2)
    assert failures(ROUTERS["linear"], EXPERTS["tanh"], 1, [(ridge, None)]) == []
    assert len(failures(ROUTERS["linear"], EXPERTS["tanh"], 1, [(wrong, None)])) == 1
    # H - H_beta = 0 for Laplace x ReLU holds where the active half-line lies right of beta
    rel = Relation((((), sp.Integer(1)), ((beta,), sp.Integer(-1))), 1)
    right = {beta: sp.Integer(0), a: sp.Integer(1), b: sp.Integer(-2)}
    assert failures(ROUTERS["laplace"], EXPERTS["relu"], 1, [(rel, right)]) == []
    assert len(failures(ROUTERS["laplace"], EXPERTS["relu"], 1, [(rel, None)])) == 1
    # an arbitrary expert function: a relation must hold for a fixed instance too
    generic_rel = Relation((((B1,), sp.Integer(1)),), 1)
    assert len(failures(ROUTERS["linear"], EXPERTS["generic"], 1, [(generic_rel, None)])) == 1


def test_the_markdown_display_holds_no_plain_text_formula() -> None:
    """Issue 45 item 4: the reason shown under a relations result (own-paper chapter,
    gallery) names dimensions in words or typeset, never ``d = 1, 2`` as plain text."""
    from test_docs_scan import markdown_formulas

    from moetheory.symbolic.relations import find_relations

    for expert in ("tanh", "relu"):
        md = find_relations("linear", expert, order=1, d=(1, 2))._repr_markdown_()
        assert not markdown_formulas(md), markdown_formulas(md)


def test_the_markdown_display_names_a_users_router_and_expert_as_code() -> None:
    """Issue 45: the own-paper chapter showed "(router cosine_tau, expert tanh_ridge)" as
    prose; a function's name is code."""
    from test_docs_scan import markdown_formulas

    from moetheory.symbolic.relations import find_relations

    def linear_score(beta1: sp.Matrix, x: sp.Matrix) -> sp.Expr:
        return beta1.dot(x)

    def tanh_ridge(x: sp.Matrix, eta: sp.Matrix) -> sp.Expr:
        return sp.tanh(eta[:-1, :].dot(x) + eta[-1])

    res = find_relations(linear_score, tanh_ridge, order=1, d=(1,))
    md = res._repr_markdown_()
    assert "(router `linear_score`, expert `tanh_ridge`)" in md, md
    assert not markdown_formulas(md), markdown_formulas(md)
