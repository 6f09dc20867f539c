"""Tests of moetheory.symbolic.identifiability, moetheory.symbolic.experts and the identifiability
checks."""

from __future__ import annotations

import pytest
import sympy as sp

from moetheory import CheckContext, Verdict
from moetheory.symbolic.experts import get_expert, two_layer
from moetheory.symbolic.identifiability import (
    READINGS,
    IdentifiabilityReading,
    ScoreRouter,
    decide,
    default_atoms,
    expert_family,
    router_multiplier_ratio,
)
from moetheory.symbolic.linear_independence import verify_certificate
from proofs_checks.nguyen2025cosine.identifiability import check_linear
from proofs_checks.nguyen2025cosine.rate_inferences import (
    check_poly_identity,
    check_poly_identity_corrected,
)

A, B, X = sp.symbols("a b x", real=True)


def _coefficients(decision) -> dict[str, sp.Expr]:
    return {t: c for t, c in zip(decision.texts, decision.result.coefficients, strict=True)
            if c != 0}


def test_relu_fails_by_homogeneity_under_pcos1() -> None:
    d = decide(get_expert("ffn-relu"), "pcos-1")
    assert d.verdict is Verdict.REFUTED
    c = _coefficients(d)
    a, b = default_atoms(get_expert("ffn-relu").params, 1)[0].values()
    # h - a dh/da - b dh/db = 0 on the active branch, up to scale
    k = c["h(x,eta1)"]
    assert c["D[a]h(x,eta1)"] == -a * k and c["D[b]h(x,eta1)"] == -b * k
    assert verify_certificate(d.result)


def test_relu_first_order_without_order0_is_identifiable() -> None:
    d = decide(get_expert("ffn-relu"), "pcos-1-no-order0")
    assert d.verdict is Verdict.PROVED
    assert verify_certificate(d.result)


def test_tanh_identifiable_under_perturbed_router_but_not_linear_router() -> None:
    ok = decide(get_expert("ffn-tanh"), "pcos-1")
    assert ok.verdict is Verdict.PROVED and verify_certificate(ok.result)
    bad = decide(get_expert("ffn-tanh"), "linear-2")
    assert bad.verdict is Verdict.REFUTED
    c = _coefficients(bad)
    assert set(c) == {"D[a]h(x,eta1)", "x*D[b]h(x,eta1)"}
    assert c["D[a]h(x,eta1)"] == -c["x*D[b]h(x,eta1)"]


def test_tanh_sign_flipped_atoms_are_dependent() -> None:
    e = get_expert("ffn-tanh")
    a, b = e.params
    d = decide(e, "pcos-1", atoms=[{a: 1, b: 2}, {a: -1, b: -2}])
    assert d.verdict is Verdict.REFUTED
    assert verify_certificate(d.result)


def test_linear_expert_refuted_everywhere_it_is_cheap() -> None:
    for name in ("pcos-1", "pcos-1-no-order0", "eta-only-2"):
        assert decide(get_expert("linear"), name).verdict is Verdict.REFUTED


def test_researcher_expression_api() -> None:
    c = sp.Symbol("c", real=True)
    d = decide(A * sp.exp(c * X), "pcos-1", x=X, params=[A, c])
    assert d.verdict is Verdict.REFUTED
    assert "eta" in d.derivation() or "\\eta" in d.derivation()
    assert d.evidence()["certificate"]["status"] == "dependent"


def test_family_counts() -> None:
    e = get_expert("ffn-tanh")
    atoms = default_atoms(e.params, 2)
    assert len(expert_family(e.expr, e.x, e.params, READINGS["pcos-2"], atoms)) == 20
    assert len(expert_family(e.expr, e.x, e.params, READINGS["eta-only-2"], atoms)) == 12
    e2 = two_layer("relu", width=2, last_bias=False)
    assert len(e2.params) == 6


def test_router_multiplier_ratio_vanishes_without_perturbation() -> None:
    beta1, tau1 = sp.symbols("beta1 tau1", positive=True)
    c1 = router_multiplier_ratio(1)
    assert sp.simplify(c1 - tau1 / (beta1 + tau1) ** 2) == 0
    assert sp.simplify(c1.subs(tau1, 0)) == 0
    assert sp.simplify(router_multiplier_ratio(2) - c1**2) == 0
    assert sp.simplify(router_multiplier_ratio(3) - c1**3) == 0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"x": X, "params": [A, sp.Symbol("z")]}, "do not occur"),
        ({"x": X, "params": [A]}, "not listed in params"),
        ({"x": X, "params": []}, "at least one parameter"),
        ({"x": None, "params": [A, B]}, "x and params are required"),
        ({"x": X, "params": [A, B], "reading": "pcos-9"}, "reading must be one of"),
        ({"x": X, "params": [A, B], "atoms": [{A: 1, B: 1}, {A: 1, B: 1}]}, "pairwise distinct"),
        ({"x": X, "params": [A, B], "atoms": [{A: 1, B: 1}]}, "must hold 2 atoms"),
    ],
)
def test_bad_input(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        decide(sp.tanh(A * X + B), **kwargs)


def test_non_differentiable_order_request() -> None:
    too_high = IdentifiabilityReading("r4", "none", 0, 4, 1, "order 4")
    with pytest.raises(ValueError, match="max_order <= 3"):
        decide(sp.tanh(A * X + B), too_high, x=X, params=[A, B])
    phi = sp.Function("phi")
    with pytest.raises(ValueError, match="not 1 times differentiable"):
        decide(phi(A * X + B), "pcos-1", x=X, params=[A, B])


def test_bad_expert_names() -> None:
    with pytest.raises(ValueError, match="name must be one of"):
        get_expert("ffn-swish")
    with pytest.raises(ValueError, match="width must be"):
        two_layer("relu", width=0)


def test_poly_identity_refuted_and_corrected_proved() -> None:
    ctx = CheckContext("pcr.poly-expert.identity", seed=0)
    out = check_poly_identity(ctx)
    assert out.verdict is Verdict.REFUTED
    cex = out.evidence["counterexample"]
    lhs = abs((cex["etahat"] * cex["x"]) ** 2 - (cex["etastar"] * cex["x"]) ** 2)
    rhs = abs(cex["etahat"] - cex["etastar"]) * abs(cex["etahat"] + cex["etastar"]) * abs(cex["x"])
    assert lhs != rhs
    assert check_poly_identity_corrected(ctx).verdict is Verdict.PROVED


def test_linear_claim_outcome_has_every_reading() -> None:
    out = check_linear(CheckContext("pcr.ident.linear", seed=0))
    assert out.verdict is Verdict.PROVED
    assert [r.name for r in out.readings] == ["literal", "pcos-2-all-atoms", *READINGS]
    assert "every atom tuple" in out.summary
    assert all(i["holds"] for i in out.evidence["general_identities"])


def test_two_dimensional_inputs_expose_ridge_symmetry_as_an_identity_on_r2() -> None:
    a1, a2 = sp.symbols("a1 a2", real=True)
    x1, x2 = sp.symbols("x1 x2", real=True)
    expr = sp.tanh(a1 * x1 + a2 * x2 + B)
    ok = decide(expr, "pcos-1-no-order0", x=X, params=[a1, a2, B], inputs=(x1, x2))
    assert ok.verdict is Verdict.PROVED and ok.scope()["d"] == 2
    bad = decide(expr, "pcos-2", x=X, params=[a1, a2, B], inputs=(x1, x2))
    assert bad.verdict is Verdict.REFUTED
    assert bad.evidence()["lift_to_Rd"]["identity_on_Rd"]
    c = _coefficients(bad)
    assert set(c) == {"u2*D[a1]h(x,eta1)", "u1*D[a2]h(x,eta1)"}
    with pytest.raises(ValueError, match="coords must be expressions in x only"):
        decide(expr, "pcos-1", x=X, params=[a1, a2, B], coords=(X, A), inputs=(x1, x2))


@pytest.mark.parametrize("curve", [(X, 2 * X), (X, X**2)])
def test_curve_only_dependences_are_never_reported_as_refutations(curve: tuple) -> None:
    """Issue 12: tanh(a1 x1 + a2 x2 + b) on the curves (x, 2x) and (x, x^2) gave false
    refutations of pcos-1 (relations true on the curve only)."""
    a1, a2 = sp.symbols("a1 a2", real=True)
    x1, x2 = sp.symbols("x1 x2", real=True)
    on_curve = sp.tanh(a1 * curve[0] + a2 * curve[1] + B)
    old_style = decide(on_curve, "pcos-1", x=X, params=[a1, a2, B], coords=curve)
    assert old_style.verdict is not Verdict.REFUTED
    lifted = decide(sp.tanh(a1 * x1 + a2 * x2 + B), "pcos-1", x=X, params=[a1, a2, B],
                    inputs=(x1, x2), coords=curve)
    assert lifted.verdict is Verdict.PROVED  # the default curve decides it


def test_every_verdict_carries_its_scope() -> None:
    ind = decide(get_expert("ffn-tanh"), "pcos-1")
    sc = ind.evidence()["scope"]
    assert (sc["d"], sc["k"], sc["atoms"]) == (1, 2, "almost every atom tuple")
    assert "almost every atom tuple" in ind.summary and "d = 1" in ind.summary
    relu = decide(get_expert("ffn-relu"), "pcos-1-no-order0")
    assert relu.scope()["atoms"] == "an open set of atom tuples around these"
    dep = decide(get_expert("linear"), "pcos-1")
    assert dep.scope()["atoms"] == "these atoms"


def test_set_semantics_drops_zero_terms_list_semantics_counts_them() -> None:
    e = get_expert("linear")  # d2h/da2 = 0 is a list-semantics dependence
    atoms = default_atoms(e.params, 2)
    as_list = expert_family(e.expr, e.x, e.params, READINGS["pcos-2"], atoms)
    as_set = expert_family(e.expr, e.x, e.params, READINGS["pcos-2-set"], atoms)
    assert any(t.function == 0 for t in as_list)
    assert all(t.function != 0 for t in as_set) and len(as_set) < len(as_list)
    assert "set" in READINGS["pcos-2-set"].latex()
    with pytest.raises(ValueError, match="semantics must be"):
        IdentifiabilityReading("bad", "none", 0, 1, 1, "x", "bag")


#: The router factor each kind of reading typesets, in its prose and in its formula alike.
_ROUTER_FACTORS = {
    "perturbed-cosine": r"e^{\beta_1^\top x/((\|\beta_1\|+\tau_1)(\|x\|+\tau_2))}",
    "linear": r"e^{\beta_1^\top x + \beta_0}",
    "score": r"e^{s(\beta_1, x)}",
}


@pytest.mark.parametrize("reading", [
    *READINGS.values(),
    IdentifiabilityReading("mine", ScoreRouter(lambda b, v: (b.T * v)[0] + 1, "lin-again"),
                           0, 2, 2, "a router given by its score"),
], ids=lambda r: r.name)
def test_reading_prose_and_formula_typeset_the_same_family(
        reading: IdentifiabilityReading) -> None:
    """``reading_latex`` (the claim pages' prose) and ``latex`` (the displayed formula) state
    the same order range and router factor (the linear router's factor was typeset two ways)."""
    prose, formula = reading.reading_latex(), reading.latex()
    order = r"|\gamma|" if reading.router == "none" else r"|\nu| + |\gamma|"
    bounds = rf"{reading.min_order} \le {order} \le {reading.max_order}"
    assert bounds in prose and bounds in formula
    kind = reading.router if isinstance(reading.router, str) else "score"
    if kind == "none":
        assert "no router factor" in prose and formula.endswith(r"\text{router factor } 1$$")
    else:
        factor = _ROUTER_FACTORS[kind]
        assert f"router factor ${factor}$" in prose
        assert rf"\text{{router factor }} {factor}" in formula


def test_k_is_not_fixed() -> None:
    k3 = IdentifiabilityReading("k3", "perturbed-cosine", 1, 1, 3, "three atoms")
    d = decide(get_expert("ffn-poly3"), k3)
    assert d.verdict is Verdict.REFUTED and d.scope()["k"] == 3


def test_literal_primary_reading_refutes_tanh_and_never_overclaims() -> None:
    from proofs_checks.nguyen2025cosine.identifiability import check_ffn_tanh

    out = check_ffn_tanh(CheckContext("pcr.ident.ffn-tanh", seed=0))
    assert out.readings[0].name == "literal"
    assert out.verdict is Verdict.REFUTED
    assert out.readings[0].evidence["scope"]["d"] == "every d >= 1"
    for r in out.readings:
        if r.verdict is Verdict.PROVED:
            assert "scope" in r.evidence and r.evidence["scope"]["d"] in (1, 2)


def test_gelu_generic_atoms_independent_but_sign_flipped_orbit_dependent() -> None:
    """002 L58 (new claim pcr.ident.ffn-gelu): GELU(z) - GELU(-z) = z gives a dependence at
    eta_2 = -eta_1 under the primary family, while generic atoms are independent."""
    e = get_expert("ffn-gelu")
    base = default_atoms(e.params, 1)[0]
    flipped = decide(e, "pcos-2", atoms=[base, {p: -v for p, v in base.items()}])
    assert flipped.verdict is Verdict.REFUTED
    assert verify_certificate(flipped.result)
    assert decide(e, "pcos-1").verdict is Verdict.PROVED


def test_linear_router_reading_fails_for_sigmoid_by_the_ridge_pde() -> None:
    d = decide(get_expert("ffn-sigmoid"), "linear-2")
    assert d.verdict is Verdict.REFUTED
    c = _coefficients(d)
    assert c["D[a]h(x,eta1)"] == -c["x*D[b]h(x,eta1)"]


def test_friction_float_atoms_are_made_exact() -> None:
    e = get_expert("ffn-tanh")
    a, b = e.params
    exact = decide(e, "pcos-1", atoms=[{a: sp.Rational(3, 2), b: 1}, {a: -1, b: sp.Rational(1, 4)}])
    floats = decide(e, "pcos-1", atoms=[{a: 1.5, b: 1}, {a: -1, b: 0.25}])
    assert floats.verdict is exact.verdict is Verdict.PROVED
    assert floats.atoms == exact.atoms


def test_friction_relu_written_with_abs_works_at_order_two() -> None:
    relu_abs = (A * X + B + sp.Abs(A * X + B)) / 2
    d = decide(relu_abs, "pcos-2", x=X, params=[A, B])
    ref = decide(get_expert("ffn-relu"), "pcos-2")
    assert d.verdict is ref.verdict is not Verdict.INCONCLUSIVE


def test_friction_many_atoms_need_no_k_limit() -> None:
    atoms = default_atoms(get_expert("two-layer-gelu-bias").params, 5)
    values = [v for atom in atoms for v in atom.values()]
    assert len(set(values)) == len(values) == 20
    with pytest.raises(ValueError, match="number of atoms k"):
        default_atoms([A], 0)


def test_literal_reading_is_never_proved_by_finitely_many_independence_certificates() -> None:
    from proofs_checks.nguyen2025cosine._ident_common import _literal

    ind = decide(get_expert("ffn-tanh"), "pcos-1")
    assert ind.verdict is Verdict.PROVED
    r = _literal(True, [ind], [])
    assert r.verdict is Verdict.INCONCLUSIVE
    assert "not covered" in r.summary
    dep = decide(get_expert("linear"), "pcos-1")
    assert _literal(False, [dep], []).verdict is Verdict.PROVED
    assert _literal(True, [dep], []).verdict is Verdict.REFUTED


def test_exact_elimination_decides_polynomial_experts_for_all_atoms() -> None:
    from moetheory.symbolic.identifiability import decide_all_atoms

    p2 = decide_all_atoms(get_expert("ffn-poly2"), "pcos-1-no-order0")
    assert p2.verdict is Verdict.REFUTED and p2.generic_rank < p2.n_functions
    p3 = decide_all_atoms(get_expert("ffn-poly3"), "pcos-1-no-order0")
    assert p3.verdict is Verdict.PROVED
    a1, b1, a2, b2 = (sp.Symbol(n, real=True) for n in ("a_1", "b_1", "a_2", "b_2"))
    # the sign-flipped (more generally, proportional) atoms lie in the exceptional set ...
    assert a1 * b2 - a2 * b1 in p3.exceptional_factors
    e = get_expert("ffn-poly3")
    a, b = e.params
    flipped = decide(e, "pcos-1-no-order0", atoms=[{a: 1, b: 2}, {a: -1, b: -2}])
    assert flipped.verdict is Verdict.REFUTED  # ... and really are exceptions
    # ... while the generic-atom certificate agrees with the all-atoms verdict
    assert decide(e, "pcos-1-no-order0").verdict is Verdict.PROVED
    assert decide_all_atoms(get_expert("ffn-relu")).verdict is Verdict.INCONCLUSIVE


def test_exception_orbits_find_the_named_exceptional_sets() -> None:
    from moetheory.symbolic.identifiability import search_exceptions

    c = sp.Symbol("c", real=True)
    periodic = search_exceptions(sp.sin(A * X + B), "pcos-1-no-order0", x=X, params=[A, B],
                                 orbits=["2pi-shift"])
    assert periodic["2pi-shift"].verdict is Verdict.REFUTED  # sin(z + 2 pi) = sin(z)
    assert verify_certificate(periodic["2pi-shift"].result)
    exp = search_exceptions(sp.exp(c * X + B), "eta-only-2", x=X, params=[c, B],
                            orbits=["equal-slopes"])
    dep = exp["equal-slopes"]
    assert dep.verdict is Verdict.REFUTED  # exp(c x + b + 1) = e exp(c x + b)
    assert any(not coef.is_Rational for row in dep.result.null_space for coef in row)
    assert dep.result.null_space_complete
    tanh = search_exceptions(get_expert("ffn-tanh"), "pcos-1", orbits=["sign-flip"])
    assert tanh["sign-flip"].verdict is Verdict.REFUTED  # tanh is odd
    with pytest.raises(ValueError, match="orbits must be among"):
        search_exceptions(get_expert("ffn-tanh"), orbits=["rotation"])
