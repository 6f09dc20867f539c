"""Relation discovery among the derivatives of H = G·h (moetheory.symbolic.interactions)."""

from __future__ import annotations

import pytest
import sympy as sp

from moetheory.symbolic.interactions import (
    EXPERTS,
    ROUTERS,
    custom_expert,
    custom_router,
    interactions,
    lift,
)
from moetheory.symbolic.relations._setup import _setup, _verify

B1, B2 = sp.Symbol("beta1_1", real=True), sp.Symbol("beta1_2", real=True)
A1, A2 = sp.Symbol("a_1", real=True), sp.Symbol("a_2", real=True)
B = sp.Symbol("b", real=True)


def _relations(router: str, expert: str, order: int, d: int) -> list[dict]:
    res = interactions(ROUTERS[router], EXPERTS[expert], order=order, d=d)
    return [dict(r.terms) for r in res.relations]


def test_cosine_first_order_is_exactly_eq4() -> None:
    rels = _relations("cosine", "generic", 1, 2)
    assert rels == [{(B1,): B1, (B2,): B2}]


def test_perturbed_router_has_no_first_order_relation() -> None:
    """The statement "(4) holds for the perturbed router" is refuted: no relation at all."""
    assert _relations("perturbed", "generic", 1, 2) == []


def test_each_noise_alone() -> None:
    tau1 = sp.Symbol("tau1", positive=True)
    x1, x2 = sp.symbols("x_1 x_2", real=True)
    nb = sp.sqrt(B1**2 + B2**2)
    nx = sp.sqrt(x1**2 + x2**2)
    only_tau1 = custom_router((B1 * x1 + B2 * x2) / ((nb + tau1) * nx), [x1, x2], [B1, B2])
    gen = custom_expert(sp.Function("h")(x1, x2, sp.Symbol("eta")), [x1, x2],
                        [sp.Symbol("eta")])
    assert interactions(only_tau1, gen, order=1, d=2).relations == []
    tau2 = sp.Symbol("tau2", positive=True)
    only_tau2 = custom_router((B1 * x1 + B2 * x2) / (nb * (nx + tau2)), [x1, x2], [B1, B2])
    rels = [dict(r.terms) for r in interactions(only_tau2, gen, order=1, d=2).relations]
    assert rels == [{(B1,): B1, (B2,): B2}]


def test_linear_router_ridge_identity() -> None:
    rels = _relations("linear", "tanh", 2, 2)
    assert {(A1,): 1, (B1, B): -1} in rels
    assert {(A2,): 1, (B2, B): -1} in rels
    assert {(B1, A2): 1, (B2, A1): -1} in rels
    assert len(rels) == 3


def test_sigmoid_gating_removes_the_ridge_identity() -> None:
    assert _relations("sigmoid", "tanh", 2, 1) == []


def test_temperature_rescales_the_ridge_identity() -> None:
    t = sp.Symbol("T", positive=True)
    rels = _relations("temperature", "tanh", 2, 1)
    assert rels == [{(A1,): 1, (B1, B): -t}]


def test_false_relation_fails_the_exact_check() -> None:
    setup = _setup(ROUTERS["linear"], EXPERTS["tanh"], 2, 2)
    assert _verify(setup, {(A1,): 1, (B1, B): -1})
    assert not _verify(setup, {(A1,): 1, (B1, B): -2})
    assert not _verify(setup, {(B1,): B1, (B2,): B2})
    cos = _setup(ROUTERS["cosine"], EXPERTS["tanh"], 2, 1)
    assert _verify(cos, {(B1,): B1, (B2,): B2})
    assert not _verify(_setup(ROUTERS["perturbed"], EXPERTS["tanh"], 2, 1),
                       {(B1,): B1, (B2,): B2})


def test_relu_relations_hold_on_both_pieces() -> None:
    # ReLU(z) = z on z > 0: the linear expert's Euler relation H = a·∂aH + b∂bH also holds
    # on z < 0 (H = 0 there); relu and linear share their relations.
    assert _relations("linear", "relu", 2, 1) == _relations("linear", "linear", 2, 1)


def test_lift_of_eq4_is_contracted_for_every_d() -> None:
    res = interactions(ROUTERS["cosine"], EXPERTS["generic"], order=1, d=2)
    out = lift(res, res.relations[0])
    assert out["form"] == "contracted"
    assert out["verified"] == {1: True, 3: True, 4: True}
    assert out["all_d"]


def test_lift_of_ridge_identity_is_componentwise() -> None:
    res = interactions(ROUTERS["linear"], EXPERTS["tanh"], order=2, d=2)
    sym = next(r for r in res.relations if len(r.terms) == 2 and r.terms[0][0] == (B1, A2))
    out = lift(res, sym)
    assert out["form"] == "free indices" and out["all_d"] and out["min_d"] == 2


def test_custom_router_and_expert() -> None:
    x1, w, c = sp.symbols("x1 w c", real=True)
    router = custom_router(w * x1, [x1], [w])
    expert = custom_expert(sp.exp(c * x1), [x1], [c])
    res = interactions(router, expert, order=1, d=1)
    # exp(w x) exp(c x): ∂_w H = ∂_c H.
    assert [dict(r.terms) for r in res.relations] == [{(w,): 1, (c,): -1}]
    assert lift(res, res.relations[0])["form"] is None


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: interactions(ROUTERS["linear"], EXPERTS["tanh"], order=0), "order must be"),
        (lambda: interactions(ROUTERS["linear"], EXPERTS["tanh"], d=5), "d must be"),
        (lambda: custom_router(sp.Symbol("w") * sp.Symbol("x"), [sp.Symbol("x")],
                               [sp.Symbol("w")], gate="relu"), "gate must be"),
        (lambda: custom_expert(sp.Symbol("x"), [sp.Symbol("x")], [sp.Symbol("c")]),
         "do not occur"),
        (lambda: custom_router(sp.Symbol("w") * sp.Symbol("x1"), sp.symbols("x1:6"),
                               [sp.Symbol("w")]), "x must hold 1 to 4 symbols"),
        (lambda: custom_expert(sp.Symbol("c") * sp.Symbol("x1"), sp.symbols("x1:6"),
                               [sp.Symbol("c")]), "x must hold 1 to 4 symbols"),
    ],
)
def test_bad_input_is_rejected(call, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        call()


def test_unsupported_function_is_rejected() -> None:
    x1, c = sp.symbols("x1 c", real=True)
    expert = custom_expert(sp.gamma(c * x1), [x1], [c])
    router = custom_router(c * 0 + sp.Symbol("w") * x1, [x1], [sp.Symbol("w")])
    with pytest.raises(ValueError, match="unsupported function"):
        interactions(router, expert, order=1, d=1)


def test_dimension_mismatch_is_rejected() -> None:
    x1, w = sp.symbols("x1 w", real=True)
    router = custom_router(w * x1, [x1], [w])
    with pytest.raises(ValueError, match="d must be one of"):
        interactions(router, EXPERTS["tanh"], order=1, d=2)


def test_perturbed_second_order_relation_holds_numerically() -> None:
    """Independent check of the d = 2 relation of the perturbed router with a tanh expert:
    mpmath differentiation (40 digits) of H itself, at random points."""
    import mpmath

    res = interactions(ROUTERS["perturbed"], EXPERTS["tanh"], order=2, d=2)
    assert len(res.relations) == 1
    rel = res.relations[0]
    names = [str(p) for p in res.params]  # beta1_1, beta1_2, a_1, a_2, b
    rng = __import__("random").Random(7)
    with mpmath.workdps(40):
        for _ in range(3):
            x = [mpmath.mpf(rng.uniform(-2, 2)) for _ in range(2)]
            theta = [mpmath.mpf(rng.uniform(-1.5, 1.5)) for _ in range(5)]
            t1, t2 = mpmath.mpf("0.7"), mpmath.mpf("1.3")

            def big_h(b1, b2, a1, a2, b, x=x, t1=t1, t2=t2):  # type: ignore[no-untyped-def]
                nb = mpmath.sqrt(b1**2 + b2**2)
                nx = mpmath.sqrt(x[0] ** 2 + x[1] ** 2)
                s = (b1 * x[0] + b2 * x[1]) / ((nb + t1) * (nx + t2))
                return mpmath.exp(s) * mpmath.tanh(a1 * x[0] + a2 * x[1] + b)

            subs = {sp.Symbol(n, real=True): sp.Float(str(v), 40) for n, v in
                    zip(names, theta, strict=True)}
            subs[sp.Symbol("r_beta", positive=True)] = sp.Float(
                str(mpmath.sqrt(theta[0] ** 2 + theta[1] ** 2)), 40)
            subs[sp.Symbol("tau1", positive=True)] = sp.Float("0.7", 40)
            subs[sp.Symbol("tau2", positive=True)] = sp.Float("1.3", 40)
            total = mpmath.mpf(0)
            for alpha, coeff in rel.terms:
                order = tuple(sum(1 for q in alpha if str(q) == n) for n in names)
                c = mpmath.mpf(str(sp.N(coeff.xreplace(subs), 40)))
                total += c * mpmath.diff(big_h, theta, order)
            assert abs(total) < mpmath.mpf(10) ** -20


def test_perturbed_second_order_relation_has_a_closed_form_in_every_dimension() -> None:
    """The d = 2 relation among the d2H/dbeta1_i da_j of the perturbed router is the closed
    form tau1 |beta1| (H_{b_i a_j} - H_{b_j a_i}) + beta1_i sum_k beta1_k H_{b_k a_j} - ...,
    exact for an arbitrary activation in d = 2, 3, 4; a wrong coefficient is rejected."""
    from moetheory.symbolic.interactions import (
        EXPERTS,
        ROUTERS,
        interactions,
        perturbed_ridge_certificate,
        perturbed_ridge_relation,
    )

    cert = perturbed_ridge_certificate(dims=(2, 3, 4))
    assert cert["verified"] == {2: True, 3: True, 4: True}
    assert cert["perturbed_fails"] == {2: True} and cert["sherman_morrison"] == "0"
    # the relation found by the search in d = 2 (tanh) is a multiple of the closed form
    found = interactions(ROUTERS["perturbed"], EXPERTS["tanh"], order=2, d=2).relations
    closed = dict(perturbed_ridge_relation(2, expert=EXPERTS["tanh"]).terms)
    r = sp.Symbol("r_beta", positive=True)
    b1, b2 = sp.symbols("beta1_1 beta1_2", real=True)
    (rel,) = found
    terms = dict(rel.terms)
    assert set(terms) == set(closed)
    key = next(iter(closed))
    ratio = terms[key] / closed[key]
    for k in closed:
        diff = (terms[k] - ratio * closed[k]).subs(r, sp.sqrt(b1**2 + b2**2))
        assert sp.simplify(diff) == 0
    with pytest.raises(ValueError, match="d must be an integer in"):
        perturbed_ridge_relation(5)
    with pytest.raises(ValueError, match="i and j must be distinct"):
        perturbed_ridge_relation(2, 1, 1)
    with pytest.raises(ValueError, match="dims must be integers in"):
        perturbed_ridge_certificate(dims=(1,))


def test_verification_falls_back_for_undefined_activations_and_rejects_false_relations() -> None:
    """The ring-based exact check handles Subs(...) of an undefined activation through the
    symbolic fallback, and refutes a false relation there too."""
    from moetheory.symbolic.interactions import RIDGE_ANY_PHI, ROUTERS

    x = sp.symbols("x_1 x_2", real=True)
    _, rp = ROUTERS["linear"].build(x)
    _, ep = RIDGE_ANY_PHI.build(x)
    ridge = {(ep[0],): sp.Integer(1), (rp[0], ep[2]): sp.Integer(-1)}  # H_{a_1} = H_{beta1_1,b}
    setup = _setup(ROUTERS["linear"], RIDGE_ANY_PHI, 2, 2, alphas=list(ridge))
    assert _verify(setup, ridge)
    assert not _verify(setup, {**ridge, (ep[0],): sp.Integer(2)})


def test_a_relation_prints_the_same_in_every_process() -> None:
    # sp.factor keeps 2*(2*a - b); a pickle round trip (a cell computed by an atlas worker)
    # rebuilds it as 4*a - 2*b: the serial atlas and the parallel one printed the same
    # relation differently (docs/atlas.md, the perturbed router with poly-eta experts)
    import pickle

    from moetheory.symbolic.interactions import Relation

    a, b = sp.symbols("a_1 b", real=True)
    rel = Relation((((a,), sp.factor(4 * a - 2 * b)), ((), sp.Integer(1))), 1)
    again = pickle.loads(pickle.dumps(rel))
    assert rel.latex() == again.latex() and rel.text == again.text
    # the same relation (equal coefficients), now printed alike
    assert all(x == y and sp.expand(c - d) == 0
               for (x, c), (y, d) in zip(rel.terms, again.terms, strict=True))


def test_generators_and_implied_relations_form_a_basis() -> None:
    """The 'derivatives of lower-order relations' are an independent completion of the
    generators (cosine x ffn2: 9 generators and 21 derivatives were printed, of a space of
    dimension 27)."""
    import random

    res = interactions(ROUTERS["cosine"], EXPERTS["ffn2-relu-bias"], order=2, d=2)
    rng = random.Random(3)
    vals = {p: sp.Rational(rng.randint(1, 30), rng.randint(1, 7)) for p in res.params}
    b1, b2 = res.params[:2]
    vals[b1], vals[b2] = sp.Rational(3), sp.Rational(4)  # |beta1| = 5, rational
    vals[sp.Symbol("r_beta", positive=True)] = sp.Rational(5)
    cols = sorted({a for r in (*res.relations, *res.implied) for a, _ in r.terms},
                  key=sp.default_sort_key)
    rows = [[sp.sympify(dict(r.terms).get(a, 0)).xreplace(vals) for a in cols]
            for r in (*res.relations, *res.implied)]
    assert sp.Matrix(rows).rank() == len(rows)
    assert len(rows) == res.relation_space_dim


def test_the_laplace_router_in_d_1_does_not_crash() -> None:
    """|x - beta| differentiated twice gave a DiracDelta term; off the kink it is zero."""
    res = interactions(ROUTERS["laplace"], EXPERTS["tanh"], order=2, d=1)
    beta = sp.Symbol("beta_1", real=True)
    assert any(dict(r.terms).get((beta, beta)) for r in res.relations)


def test_a_time_limit_ends_a_long_search() -> None:
    import time

    from moetheory.symbolic.interactions import SearchTimeout

    start = time.monotonic()
    with pytest.raises(SearchTimeout):
        interactions(ROUTERS["cosine"], EXPERTS["tanh"], order=2, d=3, timeout=0.5)
    assert time.monotonic() - start < 10
    with pytest.raises(ValueError, match="timeout must be"):
        interactions(ROUTERS["cosine"], EXPERTS["tanh"], order=1, d=1, timeout=-1)
