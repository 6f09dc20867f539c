"""router_pde: does β1ᵀ∂H/∂β1 = 0 hold for a user's router score? (issue 29, item 1)."""

from __future__ import annotations

import json
import signal
import time

import numpy as np
import pytest
import sympy as sp

from moetheory import Outcome, Verdict
from moetheory.symbolic.pde import euler_residual, expert
from moetheory.symbolic.router_pde import RouterPDEResult, _as_score, _decide, router_pde
from moetheory.symbolic.router_pde._deadline import Deadline
from moetheory.symbolic.router_pde._pieces import Piece
from moetheory.symbolic.routers import (
    COSINE,
    EPS,
    NB,
    NX,
    TAU1,
    TAU2,
    U,
    coordinates,
    normalised_router,
    perturbed_cosine_router,
)

TAU = sp.Symbol("tau", positive=True)
H = expert()


def _issue_router(b: sp.Matrix, x: sp.Matrix) -> sp.Expr:
    return b.dot(x) / (b.norm() * x.norm() + TAU)


def _recheck_in_coordinates(score, cex) -> sp.Expr:
    """Σ b_i ∂s/∂b_i at the counterexample, computed from scratch in coordinates (exact)."""
    b, x = coordinates(cex["d"])
    s = score(b, x)
    euler = sp.Add(*[bi * sp.diff(s, bi) for bi in b])
    point = {**dict(zip(b, map(sp.Rational, cex["beta1"]), strict=True)),
             **dict(zip(x, map(sp.Rational, cex["x"]), strict=True))}
    point |= {s_: cex["params"][s_.name] for s_ in s.free_symbols if s_.name in cex["params"]}
    return sp.nsimplify(sp.simplify(euler.subs(point)))


def test_the_issues_router_gets_a_clear_answer():
    res = router_pde(_issue_router)
    assert res.verdict == Verdict.REFUTED
    assert sp.cancel(res.residual_over_H - TAU * U / (NB * NX + TAU) ** 2) == 0
    assert res.vanishing == sp.Or(sp.Eq(U, 0), sp.Eq(H, 0))
    assert res.scope == {"d": "all"}
    score = U / (NB * NX + TAU)
    assert sp.cancel(res.score - score) == 0
    assert sp.simplify(res.residual - res.residual_over_H * sp.exp(score) * H) == 0
    cex = res.counterexample
    value = _recheck_in_coordinates(_issue_router, cex)
    assert value == cex["residual_over_H"] and value != 0
    assert res.certificate["reduction"]["dimensions_certified"] == [2, 3, 4]


def test_a_real_hyper_parameter_adds_its_zero_to_the_vanishing_set():
    tau = sp.Symbol("tau", real=True)
    res = router_pde(lambda b, x: b.dot(x) / (b.norm() * x.norm() + tau))
    assert res.verdict == Verdict.REFUTED
    assert res.vanishing == sp.Or(sp.Eq(tau, 0), sp.Eq(U, 0), sp.Eq(H, 0))


def test_cosine_is_proved_for_every_dimension():
    res = router_pde(lambda b, x: b.dot(x) / (b.norm() * x.norm()))
    assert (res.verdict, res.scope, res.residual, res.vanishing) == (
        Verdict.PROVED, {"d": "all"}, 0, sp.true)
    assert res.counterexample is None
    assert res.certificate["zero_by"]
    assert res.certificate["reduction"]["d1"]  # d = 1 (s = sign(b1 x1)) shown to be covered


def test_linear_router_is_refuted_with_residual_u():
    res = router_pde(lambda b, x: b.dot(x))
    assert res.verdict == Verdict.REFUTED and res.residual_over_H == U
    assert res.vanishing == sp.Or(sp.Eq(U, 0), sp.Eq(H, 0))


def test_a_false_scale_invariance_is_refuted():
    # looks normalised, is homogeneous of degree -1 in beta1
    res = router_pde(lambda b, x: b.dot(x) / b.norm() ** 2)
    assert res.verdict == Verdict.REFUTED
    assert sp.cancel(res.residual_over_H + U / NB**2) == 0


@pytest.mark.parametrize(("tau1", "tau2", "verdict"), [
    (TAU1, TAU2, Verdict.REFUTED), (TAU1, 0, Verdict.REFUTED), (0, TAU2, Verdict.PROVED)])
def test_perturbed_cosine_agrees_with_the_catalogue(tau1, tau2, verdict):
    router = perturbed_cosine_router(tau1, tau2)
    res = router_pde(lambda b, x: router.score(b, x))
    assert res.verdict == verdict and res.scope == {"d": "all"}
    assert sp.cancel(res.residual_over_H - euler_residual(router).ratio) == 0


def test_score_not_in_invariants_gets_fixed_dimension_scope():
    res = router_pde(lambda b, x: b.dot(x) / b.norm() + x[0])
    assert res.verdict == Verdict.PROVED and res.scope == {"d": [1, 2, 3]}
    assert "x1" in res.certificate["not_invariant"]
    assert router_pde(lambda b, x: b.dot(x) / b.norm() + x[0], dims=(2, 4)).scope == {"d": [2, 4]}
    refuted = router_pde(lambda b, x: b[0] * x[0])
    assert refuted.verdict == Verdict.REFUTED and refuted.scope == {"d": [1, 2, 3]}
    assert refuted.counterexample["d"] == 1
    assert _recheck_in_coordinates(lambda b, x: b[0] * x[0], refuted.counterexample) != 0


def test_a_dimension_where_the_score_is_undefined_is_left_out_of_the_scope():
    res = router_pde(lambda b, x: b.dot(x) / b.norm() + x[1])  # x[1] needs d >= 2
    assert res.verdict == Verdict.PROVED and res.scope == {"d": [2, 3]}
    assert "IndexError" in res.certificate["undecided"]["d = 1"]
    assert "not decided in d = 1" in res.reason


def test_a_dimension_dependent_score_is_decided_per_dimension():
    res = router_pde(lambda b, x: b.dot(x) / sp.sqrt(len(x)))
    assert res.verdict == Verdict.REFUTED and res.scope == {"d": [1, 2, 3]}
    assert "dimension" in res.certificate["not_invariant"]


@pytest.mark.parametrize(("name", "score", "verdict"), [
    ("Max", lambda b, x: b.dot(x) / sp.Max(b.norm(), EPS), Verdict.REFUTED),
    ("Max of cosine and 0", lambda b, x: sp.Max(b.dot(x) / (b.norm() * x.norm()), 0),
     Verdict.PROVED),
    ("cbrt", lambda b, x: sp.cbrt(b.dot(x)), Verdict.REFUTED),
    ("2**z", lambda b, x: 2 ** b.dot(x), Verdict.REFUTED),
    ("sign(z)*z**2", lambda b, x: sp.sign(b.dot(x)) * b.dot(x) ** 2, Verdict.REFUTED),
    ("sign(z)*z**2, homogeneous of degree 0",
     lambda b, x: sp.sign(b.dot(x)) * b.dot(x) ** 2 / (b.norm() ** 2 * x.norm() ** 2),
     Verdict.PROVED),
    ("Abs", lambda b, x: sp.Abs(b.dot(x)) / (b.norm() * x.norm()), Verdict.PROVED),
    ("Min", lambda b, x: sp.Min(b.dot(x), 1), Verdict.REFUTED),
    ("Heaviside", lambda b, x: sp.Heaviside(b.dot(x)) * b.dot(x), Verdict.REFUTED),
    ("Piecewise", lambda b, x: sp.Piecewise((b.dot(x) / b.norm(), b.norm() > 1),
                                            (b.dot(x), True)), Verdict.REFUTED),
    ("clamp on both", lambda b, x: normalised_router("clamp", "both").score(b, x),
     Verdict.REFUTED),
    ("floor", lambda b, x: sp.floor(b.dot(x)), Verdict.INCONCLUSIVE),
])
def test_non_smooth_scores_end_in_a_verdict_or_a_one_line_reason(name, score, verdict):
    res = router_pde(score, timeout=60)
    assert res.verdict == verdict, (name, res.reason)
    assert res.reason and "\n" not in res.reason
    if verdict == Verdict.REFUTED:
        assert _recheck_in_coordinates(score, res.counterexample) != 0


def test_max_reports_the_residual_piece_by_piece():
    res = router_pde(lambda b, x: b.dot(x) / sp.Max(b.norm(), EPS))
    by_zero = {p.zero: p for p in res.pieces}
    assert set(by_zero) == {True, False}
    assert sp.cancel(by_zero[False].residual_over_H - U / EPS) == 0
    assert res.counterexample["region"] == by_zero[False].region
    assert res.vanishing == sp.Or(sp.Eq(U, 0), EPS < NB, sp.Eq(H, 0))


def test_undefined_function_of_the_cosine_is_proved_and_of_u_is_inconclusive():
    phi = sp.Function("phi")
    assert router_pde(lambda b, x: phi(b.dot(x) / (b.norm() * x.norm()))).verdict == \
        Verdict.PROVED
    res = router_pde(lambda b, x: phi(b.dot(x)))
    assert res.verdict == Verdict.INCONCLUSIVE and "undefined function" in res.reason
    assert res.residual_over_H == U * sp.Derivative(phi(U), U)


@pytest.mark.parametrize(("call", "exc", "name"), [
    (lambda: router_pde(42), TypeError, "score"),
    (lambda: router_pde(lambda b: b[0]), TypeError, "score"),
    (lambda: router_pde(lambda b, x: b), TypeError, "scalar"),
    (lambda: router_pde(lambda b, x: "b.x"), TypeError, "score"),
    (lambda: router_pde(lambda b, x: [b.dot(x)]), TypeError, "score"),
    (lambda: router_pde(lambda b, x: None), TypeError, "score"),
    (lambda: router_pde(lambda b, x: b.dot(x) > 0), TypeError, "score"),
    (lambda: router_pde(lambda b, x: 1j), ValueError, "real"),
    (lambda: router_pde(lambda b, x: sp.I * b.dot(x)), ValueError, "real"),
    (lambda: router_pde(lambda b, x: sp.oo * b.dot(x)), ValueError, "finite"),
    (lambda: router_pde(lambda b, x: sp.Symbol("t") * b.dot(x)), ValueError, "t must be"),
    (lambda: router_pde(lambda b, x: sp.Symbol("t", positive=True) * b.dot(x)
                        + sp.Symbol("t", real=True)), ValueError, "'t'"),
    (lambda: router_pde(lambda b, x: b.dot(x), timeout=0), ValueError, "timeout"),
    (lambda: router_pde(lambda b, x: b.dot(x), timeout=-1), ValueError, "timeout"),
    (lambda: router_pde(lambda b, x: b.dot(x), timeout=float("inf")), ValueError, "timeout"),
    (lambda: router_pde(lambda b, x: b.dot(x), timeout="5"), ValueError, "timeout"),
    (lambda: router_pde(lambda b, x: b.dot(x), timeout=True), ValueError, "timeout"),
    (lambda: router_pde(lambda b, x: b.dot(x), dims=()), ValueError, "dims"),
    (lambda: router_pde(lambda b, x: b.dot(x), dims=(0,)), ValueError, "dims"),
    (lambda: router_pde(lambda b, x: b.dot(x), dims=(7,)), ValueError, "dims"),
    (lambda: router_pde(lambda b, x: b.dot(x), dims=(1, 1)), ValueError, "dims"),
    (lambda: router_pde(lambda b, x: b.dot(x), dims="12"), ValueError, "dims"),
    (lambda: router_pde(lambda b, x: b.dot(x), dims=(1.0,)), ValueError, "dims"),
    (lambda: router_pde(lambda b, x: b.dot(x), dps=10), ValueError, "dps"),
    (lambda: router_pde(lambda b, x: b.dot(x), dps=np.float64(40)), ValueError, "dps"),
])
def test_bad_input_is_a_one_line_error_naming_the_parameter(call, exc, name):
    with pytest.raises(exc, match=name) as info:
        call()
    assert "\n" not in str(info.value)


def test_a_one_by_one_matrix_and_plain_numbers_are_accepted():
    assert router_pde(lambda b, x: b.T * x).residual_over_H == U
    assert router_pde(lambda b, x: 3).verdict == Verdict.PROVED
    assert _as_score(np.float64(2.5), 2) == sp.Float(2.5)


def test_mpmath_crosscheck_agrees_and_can_fail():
    res = router_pde(_issue_router)
    check = res.certificate["mpmath"]
    assert check["agrees"] and check["dps"] == 40
    assert {row["d"] for row in check["points"]} == {1, 2, 3, 4}
    assert max(row["abs_error"] for row in check["points"]) <= 1e-25
    calls = _decide.ScoreCalls(_issue_router, _as_score)
    calls.get(2)
    tau = calls.user_symbols[TAU]  # the engine's stand-in for the user's tau
    wrong = Piece(sp.true, U, 2 * res.residual_over_H.subs(TAU, tau), False)
    bad = _decide._crosscheck(calls, (1, 2, 3), [wrong], [tau], True, 40,
                                         Deadline(60))
    assert bad["points"] and not bad["agrees"]


def test_a_wrong_cancellation_is_caught_by_the_crosscheck(monkeypatch):
    # a symbolic step that wrongly claims 0 must not become a certificate
    monkeypatch.setattr(_decide, "simplify_ratio",
                        lambda expr, beta1, x, deadline: (sp.Integer(0), True, "bogus"))
    res = router_pde(lambda b, x: b.dot(x))
    assert res.verdict == Verdict.INCONCLUSIVE
    assert "disagree" in res.reason


def test_time_limit_gives_inconclusive_and_restores_the_timer():
    def slow(b, x):
        time.sleep(3)
        return b.dot(x)

    before = signal.getsignal(signal.SIGALRM)
    start = time.monotonic()
    res = router_pde(slow, timeout=0.3)
    assert time.monotonic() - start < 2.5
    assert res.verdict == Verdict.INCONCLUSIVE and "time limit of 0.3 s" in res.reason
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before


def test_result_renders_and_converts():
    res = router_pde(_issue_router)
    assert isinstance(res, RouterPDEResult)
    outcome = res.to_outcome()
    assert isinstance(outcome, Outcome) and outcome.verdict == Verdict.REFUTED
    assert outcome.summary == res.summary() == res.reason
    json.dumps(outcome.to_dict())
    data = res.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["residual_over_H"]["sympy"] == sp.sstr(res.residual_over_H)
    md = res._repr_markdown_()
    assert r"\tau" in md and "refuted" in md and r"\|\beta_1\|" in md
    assert res._repr_latex_().startswith("$$") and r"\tau" in res._repr_latex_()
    assert r"\frac{2}{9}" in outcome.derivation


def test_result_is_deterministic():
    one = json.dumps(router_pde(lambda b, x: b.dot(x) / sp.Max(b.norm(), EPS)).to_dict())
    two = json.dumps(router_pde(lambda b, x: b.dot(x) / sp.Max(b.norm(), EPS)).to_dict())
    assert one == two


def test_catalogue_routers_agree_with_their_scalar_forms():
    for router in (COSINE, perturbed_cosine_router(), normalised_router("additive", "both")):
        res = router_pde(lambda b, x, r=router: r.score(b, x))
        assert sp.cancel(res.residual_over_H - euler_residual(router).ratio) == 0
        assert sp.cancel(res.score - router.scalar_score()) == 0
    assert NX in router_pde(lambda b, x: normalised_router("additive", "both").score(b, x)
                            ).score.free_symbols


def test_an_internal_failure_is_an_inconclusive_result_not_a_traceback(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("simulated failure\nsecond line")

    monkeypatch.setattr(_decide, "to_invariants", broken)
    res = router_pde(lambda b, x: b.dot(x))
    assert res.verdict == Verdict.INCONCLUSIVE
    assert "RuntimeError: simulated failure" in res.reason and "\n" not in res.reason


def test_a_piece_condition_that_is_not_an_inequality_is_refused():
    score = lambda b, x: sp.Piecewise(  # noqa: E731
        (b.dot(x), sp.Contains(b.dot(x), sp.Interval(0, 1))), (0, True))
    res = router_pde(score)
    assert res.verdict == Verdict.INCONCLUSIVE and "inequalities" in res.reason


def test_bad_return_value_in_a_later_dimension_is_refused_before_any_work():
    def score(b, x):
        return b.dot(x) if len(b) < 5 else b

    with pytest.raises(TypeError, match="d = 5"):
        router_pde(score, dims=(5,))


def test_inconclusive_claims_no_scope():
    res = router_pde(lambda b, x: sp.Function("phi")(b.dot(x)))
    assert res.verdict == Verdict.INCONCLUSIVE and res.scope == {"d": []}
    assert res.certificate["residual_valid_for"] == {"d": ">= 2"}


def test_counterexample_only_in_dimension_one_is_reported_as_such():
    def score(b, x):  # scale invariant for d >= 2, linear in d = 1
        return b.dot(x) / (b.norm() * x.norm()) if len(b) > 1 else b[0] * x[0]

    res = router_pde(score)
    assert res.verdict == Verdict.REFUTED and res.scope == {"d": [1], "proved": ">= 2"}
    assert res.counterexample["d"] == 1 and res.residual_over_H == 0
    assert "every d ≥ 2 but is not identically 0 in d = 1" in res.reason
    assert res.per_dimension[1]["verdict"] == Verdict.REFUTED


def test_a_tiny_but_non_zero_residual_is_refuted_exactly():
    res = router_pde(lambda b, x: b.dot(x) / (b.norm() * x.norm())
                     + sp.Rational(1, 10**40) * b.dot(x))
    assert res.verdict == Verdict.REFUTED
    assert res.counterexample["residual_over_H"] == sp.Rational(1, 10**40)


def test_works_outside_the_main_thread():
    import threading

    out = {}
    worker = threading.Thread(target=lambda: out.setdefault(
        "res", router_pde(lambda b, x: b.dot(x) / (b.norm() * x.norm()), timeout=60)))
    worker.start()
    worker.join(120)
    assert out["res"].verdict == Verdict.PROVED


@pytest.mark.parametrize("dims", [(1, 2, 3), (1, 2)])
def test_markdown_typesets_every_formula(dims: tuple[int, ...]) -> None:
    """Issue 45 item 4: the notebook display (own-paper chapter) carries its maths as markup:
    title, scope, reading, dimensions, method and cross-check, never ``beta1^T grad_beta1 s``
    or ``d = 1, 2`` as plain text."""
    from test_docs_scan import markdown_formulas

    for score in (lambda b, x: b.dot(x) / (b.norm() * x.norm()), lambda b, x: b.dot(x)):
        md = router_pde(score, dims=dims)._repr_markdown_()
        assert not markdown_formulas(md), markdown_formulas(md)
