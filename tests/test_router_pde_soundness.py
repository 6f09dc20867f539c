"""router_pde soundness (issue 43): d = 1 on its own, the dimensions asked, refutation scopes,
internal symbols that never collide with a user's."""

from __future__ import annotations

import sympy as sp

from moetheory import Verdict
from moetheory.symbolic.router_pde import router_pde
from moetheory.symbolic.routers import NB, NX, U, coordinates


def _euler_in_coordinates(score, d, beta1, x, params=None):
    """Σ b_i ∂s/∂b_i at a point, from scratch in coordinates (exact, plain SymPy)."""
    b, xs = coordinates(d)
    s = score(b, xs)
    euler = sp.Add(*[bi * sp.diff(s, bi) for bi in b])
    point = {**dict(zip(b, map(sp.Rational, beta1), strict=True)),
             **dict(zip(xs, map(sp.Rational, x), strict=True)), **(params or {})}
    return sp.simplify(euler.subs(point))


def _variety_residual(b, x):
    # ||beta1|| - |beta1^T x| / ||x||: zero in d = 1, not scale invariant in d >= 2
    return b.norm() - sp.Abs(b.dot(x)) / x.norm()


def _variety_sqrt(b, x):
    return sp.sqrt(b.norm() ** 2 * x.norm() ** 2 - b.dot(x) ** 2)


def test_a_residual_vanishing_on_the_d1_variety_is_proved_in_d1_alone():
    for score in (_variety_residual, _variety_sqrt):
        res = router_pde(score, dims=(1,))
        assert (res.verdict, dict(res.scope)) == (Verdict.PROVED, {"d": [1]}), res.reason


def test_a_residual_vanishing_on_the_d1_variety_is_refuted_for_d_ge_2_only():
    res = router_pde(_variety_residual)
    assert res.verdict == Verdict.REFUTED
    assert dict(res.scope) == {"d": ">= 2", "proved": [1]}
    cex = res.counterexample
    assert cex["d"] >= 2
    assert _euler_in_coordinates(_variety_residual, cex["d"], cex["beta1"], cex["x"]) != 0
    assert res.per_dimension[1]["verdict"] == Verdict.PROVED
    assert "every d ≥ 1" not in res.summary()


def test_a_piece_empty_in_d_ge_2_but_all_of_d1_is_refuted_in_d1():
    def score(b, x):
        return sp.Piecewise((b.dot(x), sp.Eq(b.dot(x) ** 2, b.norm() ** 2 * x.norm() ** 2)),
                            (0, True))

    res = router_pde(score)
    assert res.verdict == Verdict.REFUTED
    assert dict(res.scope) == {"d": [1], "proved": ">= 2"}
    cex = res.counterexample
    assert cex["d"] == 1
    assert _euler_in_coordinates(score, 1, cex["beta1"], cex["x"]) != 0


def _changes_at_five(b, x):
    return b.dot(x) / (b.norm() * x.norm()) if len(b) < 5 else b.dot(x)


def test_a_formula_changing_from_d5_is_decided_in_the_dimensions_asked():
    res = router_pde(_changes_at_five, dims=(1, 2, 3, 4, 5, 6))
    assert res.verdict == Verdict.REFUTED
    assert dict(res.scope) == {"d": [5, 6], "proved": [1, 2, 3, 4]}
    cex = res.counterexample
    assert cex["d"] in (5, 6)
    assert _euler_in_coordinates(_changes_at_five, cex["d"], cex["beta1"], cex["x"]) != 0
    # asked about d <= 4 only, the general statement is still made (premise stated)
    small = router_pde(_changes_at_five, dims=(1, 2, 3, 4))
    assert (small.verdict, dict(small.scope)) == (Verdict.PROVED, {"d": "all"})
    assert small.certificate["reduction"]["dimensions_certified"] == [2, 3, 4]


def test_a_refutation_scope_lists_only_refuted_dimensions():
    def score(b, x):
        return b.dot(x) / sp.Mul(*b)

    res = router_pde(score, dims=(1, 2, 3))
    assert res.verdict == Verdict.REFUTED
    assert dict(res.scope) == {"d": [2, 3], "proved": [1]}
    assert "d = 2, 3" in res.summary() and "d = 1" in res.summary()
    assert res.to_dict()["scope"] == {"d": [2, 3], "proved": [1]}


def test_user_symbols_named_like_internal_ones_are_hyper_parameters():
    b0 = sp.Symbol("b0", positive=True)
    res = router_pde(lambda b, x: b0 * b.dot(x))
    assert res.verdict == Verdict.REFUTED and dict(res.scope) == {"d": "all"}
    assert "b0" in res.counterexample["params"]
    assert b0 in res.residual_over_H.free_symbols
    # a user u identical to the package's U is a constant, not beta1^T x
    u = sp.Symbol("u", real=True)
    res = router_pde(lambda b, x: u * b.dot(x) / (b.norm() * x.norm()))
    assert res.verdict == Verdict.PROVED and dict(res.scope) == {"d": "all"}
    res = router_pde(lambda b, x: u * b.dot(x))
    assert res.verdict == Verdict.REFUTED
    assert u in res.residual_over_H.free_symbols
    inner = [s for s in res.residual_over_H.free_symbols if s != u]
    assert len(inner) == 1 and inner[0].name == "u" and inner[0] != U
    # a user b1 identical to the coordinate symbol b1 is a constant too
    b1 = sp.Symbol("b1", real=True)
    res = router_pde(lambda b, x: b1 + b.dot(x) / (b.norm() * x.norm()))
    assert res.verdict == Verdict.PROVED and dict(res.scope) == {"d": "all"}
    n_b = sp.Symbol("n_b", positive=True)
    res = router_pde(lambda b, x: b.dot(x) / (b.norm() + n_b))
    assert res.verdict == Verdict.REFUTED and n_b in res.residual_over_H.free_symbols
    assert NB not in res.residual_over_H.free_symbols - {n_b} and NX not in res.score.free_symbols


def test_every_display_lists_the_parameters_the_reading_and_the_dimensions():
    res = router_pde(lambda b, x: b.dot(x) / sp.Mul(*b), dims=(1, 2))
    assert res.differentiated == ("beta1",) and "identically" in res.reading
    assert res.dimensions == {"asked": [1, 2], "coordinates": [1, 2], "mpmath": [1, 2]}
    data = res.to_dict()
    assert data["differentiated"] == ["beta1"] and data["reading"] == res.reading
    assert data["dimensions"] == res.dimensions
    assert "differentiated in β1; certificate in d = 1, 2" in res.summary()
    md = res._repr_markdown_()
    assert "**Differentiated:** $\\beta_1$" in md and "**Dimensions:** asked: $d = 1, 2$" in md
    assert res.reading_latex in md
    latex = res._repr_latex_()
    assert "\\text{in } \\beta_1" in latex and "certificate in d = 1, 2" in latex
    general = router_pde(lambda b, x: b.dot(x) / (b.norm() * x.norm()))
    assert general.dimensions["invariant_form"] == [2, 3, 4]
    assert general.dimensions["coordinates"] == [1]
    assert "premise" in general.summary()


def test_a_piece_with_a_negative_first_coordinate_gets_a_witness_in_d2():
    def score(b, x):  # 1/||x|| where b1 > 0, b1 elsewhere: not scale invariant where b1 < 0
        return sp.Piecewise((1 / x.norm(), b[0] / b.norm() > 0), (b[0], True))

    res = router_pde(score, dims=(1, 2))
    assert res.verdict == Verdict.REFUTED and dict(res.scope) == {"d": [1, 2]}
    row = res.per_dimension[2]["counterexample"]
    assert _euler_in_coordinates(score, 2, row["beta1"], row["x"]) != 0


def test_an_exact_residual_below_1e_60_is_refuted_exactly():
    tiny = sp.Rational(1, 10**70)
    res = router_pde(lambda b, x: b.dot(x) / (b.norm() * x.norm()) + tiny * b.dot(x))
    assert res.verdict == Verdict.REFUTED and dict(res.scope) == {"d": "all"}
    assert res.counterexample["residual_over_H"] == tiny


def test_softplus_identity_is_proved():
    def softplus(t):
        return sp.log(1 + sp.exp(t))

    res = router_pde(lambda b, x: softplus(b.dot(x)) - softplus(-b.dot(x)) - b.dot(x))
    assert (res.verdict, dict(res.scope)) == (Verdict.PROVED, {"d": "all"})
