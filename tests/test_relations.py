"""find_relations: the relation finder as a public function with a verdict and a scope
(moetheory.symbolic.relations, issue 29 item 2)."""

from __future__ import annotations

import json
import time

import pytest
import sympy as sp

from moetheory.engine.verdicts import Outcome, Verdict
from moetheory.symbolic.experts import sigmoid
from moetheory.symbolic.relations import RelationsResult, find_relations

B1, B2 = sp.Symbol("beta1_1", real=True), sp.Symbol("beta1_2", real=True)
ETA1, ETA2 = sp.Symbol("eta_1", real=True), sp.Symbol("eta_2", real=True)


def cosine(beta1: sp.Matrix, x: sp.Matrix) -> sp.Expr:
    return beta1.dot(x) / (beta1.norm() * x.norm())


def linear(beta1: sp.Matrix, x: sp.Matrix) -> sp.Expr:
    return beta1.dot(x)


def generic(x: sp.Matrix, eta: sp.Matrix) -> sp.Expr:
    return sp.Function("h")(*x, eta[0])


def ridge_tanh(x: sp.Matrix, eta: sp.Matrix) -> sp.Expr:
    return sp.tanh(eta[0] * x[0] + eta[1])


def _coefficients(res: RelationsResult) -> list[dict]:
    return [rel.coefficients for rel in res.relations]


def test_cosine_router_euler_relation_is_found_and_proved() -> None:
    res = find_relations(cosine, generic, order=1, d=2, eta_size=1)
    assert res.verdict is Verdict.PROVED
    (rel,) = res.generators
    assert rel.coefficients == {(B1,): B1, (B2,): B2}
    assert rel.order == 1 and rel.generator
    # a user's callable: the scope is the dimension decided, never more
    assert rel.scope == {"d": [2]} and res.scope == {"d": [2]}
    assert sp.latex(B1) in rel.latex or r"\beta_{1,1}" in rel.latex


def test_the_shipped_cosine_router_relation_holds_in_every_dimension() -> None:
    res = find_relations("cosine", "generic", order=1)
    assert res.verdict is Verdict.PROVED
    (rel,) = res.generators
    assert rel.coefficients == {(B1,): B1, (B2,): B2}
    assert rel.scope == {"d": "all"} and res.scope == {"d": "all"}
    assert 1 not in res.dimensions  # d = 1 is covered by the lift, no search needed


def test_no_relation_is_a_proved_verdict_with_its_scope() -> None:
    tau = sp.Symbol("tau", positive=True)
    res = find_relations(lambda b, x: b.dot(x) / (b.norm() * x.norm() + tau), generic,
                         order=1, d=2, eta_size=1)
    assert res.relations == () and res.generators == ()
    assert res.verdict is Verdict.PROVED
    assert res.statement == {"kind": "no-relation", "order": 1}
    assert res.scope == {"d": [2]}
    assert res.dimensions[2].complete and res.dimensions[2].n_relations == 0


def test_sigmoid_gating_with_tanh_is_dependent_only_from_d_2() -> None:
    res = find_relations("sigmoid", "tanh", order=2)
    assert res.verdict is Verdict.PROVED
    (rel,) = res.generators
    assert rel.scope == {"d": {"min": 2}}
    assert res.scope == {"d": {"min": 2}}
    # d = 1 searched exactly: the single-atom family is independent there
    assert res.dimensions[1].n_relations == 0 and res.dimensions[1].complete


def test_generators_are_independent_and_counted_once() -> None:
    res = find_relations("cosine", "ffn2-relu-bias", order=2, d=2)
    dim = res.dimensions[2]
    assert (dim.n_generators, dim.n_derivatives, dim.n_relations) == (9, 18, 27)
    assert len(res.generators) == 9 and len(res.relations) == 27


def test_the_laplace_router_in_d_1_gets_a_verdict() -> None:
    res = find_relations("laplace", "generic", order=2, d=1)
    assert res.verdict is Verdict.PROVED
    beta = sp.Symbol("beta_1", real=True)
    # exp(-|x - beta|): d^2 H / d beta^2 = H away from x = beta, in d = 1 only
    (rel,) = [r for r in res.relations if (beta, beta) in r.coefficients]
    assert rel.coefficients in ({(beta, beta): 1, (): -1}, {(beta, beta): -1, (): 1})
    assert rel.scope == {"d": [1]}


@pytest.mark.parametrize(("router", "expert"), [("cosine", "tanh"), ("perturbed", "relu")])
def test_slow_searches_end_inconclusive_within_the_time_limit(router: str, expert: str) -> None:
    start = time.monotonic()
    res = find_relations(router, expert, order=2, d=3, timeout=1.0)
    assert time.monotonic() - start < 1.0 + 10.0
    assert res.verdict is Verdict.INCONCLUSIVE
    assert res.dimensions[3].status == "timeout"
    assert "time limit" in res.reason


@pytest.mark.parametrize("phi", [sp.sin, sp.log, sp.cos])
def test_sin_cos_and_log_experts_are_accepted(phi: sp.FunctionClass) -> None:
    res = find_relations(linear, lambda x, eta: phi(eta[0] * x[0] + eta[1]), order=2, d=1,
                         eta_size=2)
    # the linear router's ridge identity holds for every ridge expert
    assert {(ETA1,): 1, (B1, ETA2): -1} in _coefficients(res)
    assert res.verdict is Verdict.PROVED


def test_interactions_accepts_what_find_relations_accepts() -> None:
    from moetheory.symbolic.interactions import custom_expert, custom_router, interactions

    x1, w, a, b = sp.symbols("x1 w a b", real=True)
    for phi in (sp.sin, sp.log):
        res = interactions(custom_router(w * x1, [x1], [w]),
                           custom_expert(phi(a * x1 + b), [x1], [a, b]), order=2, d=1)
        assert {(a,): 1, (w, b): -1} in [dict(r.terms) for r in res.relations]


def _one_line(call) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    text = str(info.value)
    assert "\n" not in text
    return text


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"order": 0}, "order must be an integer in [1, 3]"),
        ({"order": 4}, "order must be an integer in [1, 3]"),
        ({"order": 1.5}, "order must be an integer in [1, 3]"),
        ({"d": 5}, "d must be"),
        ({"d": 0}, "d must be"),
        ({"d": []}, "d must be"),
        ({"d": True}, "d must be"),
        ({"timeout": 0}, "timeout must be"),
        ({"timeout": -1.0}, "timeout must be"),
        ({"timeout": float("nan")}, "timeout must be"),
        ({"gate": "relu"}, "gate must be"),
        ({"eta_size": 0}, "eta_size must be"),
        ({"eta_size": "2d"}, "eta_size must be"),
    ],
)
def test_bad_parameters_are_refused_in_one_line(kwargs: dict, needle: str) -> None:
    text = _one_line(lambda: find_relations(linear, ridge_tanh, **kwargs))
    assert needle in text


def test_bad_routers_and_experts_are_refused_in_one_line() -> None:
    x1, c = sp.symbols("x1 c", real=True)
    assert "score must be" in _one_line(lambda: find_relations(42, ridge_tanh, d=1))
    assert "router must be one of" in _one_line(lambda: find_relations("softmax", "tanh"))
    assert "expert must be one of" in _one_line(lambda: find_relations("linear", "swish"))
    assert "scalar" in _one_line(lambda: find_relations(lambda b, x: b, ridge_tanh, d=2))
    assert "beta1" in _one_line(lambda: find_relations(lambda b, x: x[0], ridge_tanh, d=1))
    assert "x=" in _one_line(lambda: find_relations(linear, sp.exp(c * x1), d=1))
    assert "d must be" in _one_line(
        lambda: find_relations(linear, sp.exp(c * x1), x=[x1], params=[c], d=2))
    assert "unsupported function" in _one_line(
        lambda: find_relations(linear, lambda x, eta: sp.gamma(eta[0] * x[0]), d=1,
                               eta_size=1))
    assert "unsupported power" in _one_line(
        lambda: find_relations(linear, lambda x, eta: 2 ** (eta[0] * x[0]), d=1, eta_size=1))
    assert "square roots" in _one_line(
        lambda: find_relations(linear, lambda x, eta: sp.cbrt(eta[0] * x[0] + 2), d=1,
                               eta_size=1))


def _never_a_false_no_relation(res: RelationsResult, true_relation: dict) -> None:
    found = true_relation in _coefficients(res)
    assert found or res.verdict is not Verdict.PROVED
    if not found:
        assert not res.complete and res.reason


def test_a_constant_in_disguise_is_never_proved_free_of_relations() -> None:
    # tanh(z/2) - 2 sigmoid(z) = -1: H does not depend on eta_1 (dH/deta_1 = 0), but the two
    # kernels look independent to the search
    res = find_relations(linear, lambda x, eta: sp.tanh(eta[0] * x[0] / 2)
                         - 2 * sigmoid(eta[0] * x[0]), order=1, d=1, eta_size=1)
    _never_a_false_no_relation(res, {(ETA1,): 1})
    assert "algebraically" in res.reason


def test_an_empty_piece_never_gives_a_false_no_relation() -> None:
    c = sp.Symbol("eta_1", real=True)

    def expert(x: sp.Matrix, eta: sp.Matrix) -> sp.Expr:
        z = x[0]
        return sp.Piecewise((sp.exp(eta[0] * z), z > 0), (sp.exp(2 * eta[0] * z), z > 1),
                            (sp.exp(eta[0] * z), True))

    w = sp.Symbol("beta1_1", real=True)
    # h = exp(c x) everywhere (the second piece is empty): dH/dw = dH/dc
    res = find_relations(linear, expert, order=1, d=1, eta_size=1)
    _never_a_false_no_relation(res, {(w,): 1, (c,): -1})

    def hidden(x: sp.Matrix, eta: sp.Matrix) -> sp.Expr:  # empty for every parameter value
        z = x[0]
        return sp.Piecewise((sp.exp(eta[0] * z), z > 0),
                            (sp.exp(2 * eta[0] * z), (z > eta[0] ** 2 + 1) & (z < 0)),
                            (sp.exp(eta[0] * z), True))

    res = find_relations(linear, hidden, order=1, d=1, eta_size=1)
    _never_a_false_no_relation(res, {(w,): 1, (c,): -1})


def test_results_are_json_markdown_and_an_outcome() -> None:
    res = find_relations(linear, ridge_tanh, order=2, d=1, eta_size=2)
    data = res.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["verdict"] == "proved" and data["scope"] == {"d": [1]}
    assert data["relations"][0]["latex"] == res.relations[0].latex
    md = res._repr_markdown_()
    assert res.relations[0].latex in md and "proved" in md
    out = res.to_outcome()
    assert isinstance(out, Outcome) and out.verdict is Verdict.PROVED
    assert out.evidence["scope"] == {"d": [1]}
    inconclusive = find_relations("cosine", "tanh", order=2, d=3, timeout=0.5)
    assert inconclusive.to_outcome().verdict is Verdict.INCONCLUSIVE
    assert json.dumps(inconclusive.to_dict())


def test_sign_in_an_expert_and_max_in_a_score_are_accepted() -> None:
    res = find_relations(linear, lambda x, eta: sp.sign(eta[0] * x[0] + eta[1])
                         * (eta[0] * x[0] + eta[1]) ** 2, order=2, d=1, eta_size=2)
    assert {(ETA1,): 1, (B1, ETA2): -1} in _coefficients(res)  # the ridge identity
    assert res.complete
    res = find_relations(lambda b, x: sp.Max(b.dot(x), 0), "tanh", order=1, d=1)
    assert res.verdict is Verdict.PROVED and res.complete
