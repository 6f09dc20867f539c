"""The exact proof-step checks of seed 003 (``exact_claim`` in each section module
of proofs_checks/li2025continual).

Every check is exact, so its verdict is fixed: the table below is the expected verdict of each
claim, compared as data. Further tests recompute the key numbers of the certificates
independently, so a wrong certificate fails even if its verdict happens to be right.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy as sp

from moetheory.engine.context import CheckContext
from moetheory.engine.registry import get_claim, load_checks, registered
from moetheory.engine.verdicts import Verdict
from proofs_checks.li2025continual import _common, proofs
from proofs_checks.li2025continual import _exact as cp

P, R = "proved", "refuted"

EXPECTED = {
    "cl.setup.infinitely-many-fits": P,
    "cl.setup.gate-separates-signals": P,
    "cl.setup.eta-choice": R,
    "cl.setup.rounds-order-M": P,
    "cl.update.min-norm.gd-limit": P,
    "cl.update.min-norm.task-minimiser": R,
    "cl.loss.local-only-selected": P,
    "cl.loss.aux-uniform-minimiser": R,
    "cl.lemma1.gate-difference-step": R,
    "cl.lemma1.wlog-first-column": P,
    "cl.lemma1.hoeffding-step": R,
    "cl.lemma1.exponential-o1": R,
    "cl.lemma1.signal-gap-assumption": R,
    "cl.lemma2.argmax-inequality": P,
    "cl.lemma2.centring-step": P,
    "cl.corollary1.order": R,
    "cl.lemma4.aux-gradient-formula": R,
    "cl.lemma5.aux-gradient-order": R,
    "cl.lemma5.local-gradient-order": P,
    "cl.lemma6.parameter-bound": R,
    "cl.lemma7.step-signs": R,
    "cl.lemma7.step-size": P,
    "cl.lemma7.softmax-product": R,
    "cl.lemma8.epsilon-order": R,
    "cl.lemma8.symmetry": P,
    "cl.lemma8.delta-step": R,
    "cl.lemma9.exponent-step": R,
    "cl.lemma10.softmax-gap": R,
    "cl.lemma10.lower-step": R,
    "cl.lemma11.constant-step": P,
    "cl.lemma12.zero-local-gradient": R,
    "cl.lemma12.projection-sup-norm": P,
    "cl.lemma13.step-order": R,
    "cl.proofs.order-inference": R,
    "cl.lemma13.exponent-step": P,
    "cl.prop1.proof-contradiction": R,
    "cl.prop1.inner-product-step": R,
    "cl.prop1.eta-step": R,
    "cl.prop1.m-lt-n-projection": R,
    "cl.lemma14.aux-coefficient": R,
    "cl.prop2.exploration-move": P,
    "cl.prop2.theta-gap-order": R,
    "cl.prop2.gradient-difference": P,
    "cl.prop2.overtake-step": R,
    "cl.prop3.noise-inequality": R,
    "cl.prop3.noise-order": R,
    "cl.appendix-a4.gamma-cases": P,
    "cl.prop4.gap-sign": P,
    "cl.thm1.coefficient-signs": R,
    "cl.thm1.frozen-forgetting.decrease": R,
    "cl.prop4.forgetting.oscillation": R,
    "cl.thm1.coefficient-comparison": P,
    "cl.thm1.beats-single-expert": P,
    "cl.thm1.dissimilarity-advantage": P,
    "cl.thm1.grows-with-T1": P,
    "cl.thm2.one-task-per-cluster.forgetting": R,
    "cl.thm2.one-task-per-cluster.generalization": R,
    "cl.thm2.psi2-range": R,
    "cl.lemma16.expert-model-step": R,
    "cl.lemma16.frozen-index": R,
    "cl.lemma16.row-space": R,
    "cl.thm1.proof-exponent": R,
    "cl.notation.orders": R,
    "cl.proofs.step-audit": R,
    "cl.thm1.single-expert-specialisation": R,
    "cl.prop3.uniform-choice-step": R,
    # session-4 re-read of seed 003
    "cl.lemma1.product-step": P,
    "cl.lemma5.aux-dominance-step": R,
    "cl.prop1.gate-gap-step": R,
    "cl.lemma12.singleton-set": R,
    "cl.lemma13.proof-scope": R,
    "cl.lemma14.factorisation-step": P,
    "cl.prop2.extreme-pair-step": P,
    "cl.prop2.m-lt-n-theta-gap": R,
    "cl.prop3.m-lt-n-margin": P,
    "cl.lemma16.projection-recursion": R,
    "cl.thm1.proof-forgetting-expansion": P,
    "cl.thm2.proof-forgetting-split": R,
    # the general facts the proofs invoke (proof_facts.py; their own tests: test_proof_facts)
    "cl.prop1.m-lt-n-nonexpansive": R,
    "cl.prop1.m-lt-n-update-spread": R,
    "cl.lemma8.product-step": R,
    "cl.lemma11.bernoulli-step": P,
    "cl.lemma11.symmetry-step": R,
    "cl.setup.gram-invertible": R,
}

#: Reading verdicts of the re-read claims: the corrected or weaker forms must hold.
REREAD_READINGS = {
    "cl.lemma5.aux-dominance-step": {"from-lemma5": R, "aux-bound": P, "sharper-local": P},
    "cl.prop1.gate-gap-step": {"le-1": R, "holder": P, "eq38": P},
    "cl.lemma13.proof-scope": {"lemma13": R, "lemma15": P},
    "cl.lemma14.factorisation-step": {"factorisation": P, "order": P},
    "cl.prop2.m-lt-n-theta-gap": {"conclusion": R, "local-term": P, "algebra-only": P},
    "cl.lemma16.projection-recursion": {"P_t": R, "P_tau": P},
    "cl.thm1.proof-forgetting-expansion": {"expansion": P, "uniform-draw": P},
    "cl.thm2.proof-forgetting-split": {"literal": R, "corrected": P},
}


#: The paper's exact claims with their own tests (test_continual_theory, test_continual_sim);
#: every other exact ``cl.*`` claim is a proof step registered with ``exact_claim``.
OTHER_EXACT = {
    "cl.lemma11.coverage", "cl.lemma11.product-step", "cl.lemma11.product-step.corrected",
    "cl.lemma2.smooth-router", "cl.lemma2.smooth-router.corrected", "cl.lemma3.unchanged",
    "cl.lemma3.unchanged.corrected", "cl.lemma4.grad-sum", "cl.update.min-norm",
}


@pytest.fixture(scope="module")
def outcomes() -> dict:  # type: ignore[type-arg]
    load_checks()
    mine = [c for c in registered()
            if c.id.startswith("cl.") and c.kind == "exact" and c.id not in OTHER_EXACT]
    return {c.id: c.check(CheckContext(c.id, seed=0)) for c in mine}


def test_verdicts_are_the_expected_ones(outcomes: dict) -> None:  # type: ignore[type-arg]
    got = {cid: o.verdict.value for cid, o in outcomes.items()}
    assert got == EXPECTED


def test_every_claim_has_provenance_readings_and_derivation(outcomes: dict) -> None:  # type: ignore[type-arg]
    for cid, out in outcomes.items():
        c = get_claim(cid)
        assert c.kind == "exact" and c.sources and c.sources[0].seed_file == _common.SEED_FILE, cid
        assert out.readings and out.derivation, cid
        assert out.verdict == out.readings[0].verdict, cid
        assert out.verdict in (Verdict.PROVED, Verdict.REFUTED), cid
        out.to_dict()  # JSON-serialisable


def test_exponent_and_order_rules() -> None:
    s0 = cp.s0
    assert cp.exponent(5 * s0 ** sp.Rational(3, 4) * cp.M_) == sp.Rational(3, 4)
    assert cp._order("x", s0**2, sp.Integer(1), "O")["holds"]
    assert not cp._order("x", s0 ** sp.Rational(1, 2), sp.Integer(1), "O")["holds"]
    assert cp._order("x", s0 ** sp.Rational(1, 2), sp.Integer(1), "Omega")["holds"]
    assert not cp._order("x", s0**2, sp.Integer(1), "Theta")["holds"]
    with pytest.raises(ValueError, match="monomial"):
        cp.exponent(s0 + s0**2)


def test_corollary_counterexample_numbers(outcomes: dict) -> None:  # type: ignore[type-arg]
    rows = outcomes["cl.corollary1.order"].readings[0].evidence["rows"]
    # M = 2, r ~ U[0, λ]: the routing gap is 2q − q², q = ε/λ = σ0^(1/4), independently derived
    for k, row in zip((1, 2, 3), rows, strict=True):
        q = Fraction(1, 2**k)
        assert Fraction(row["gap"]) == 2 * q - q * q


def test_hoeffding_step_is_refuted_by_exact_tail() -> None:
    # exact Gaussian tail at A.2 against the seed's bound, recomputed with the complementary
    # error function's asymptotics: log P(|S| > a) ≈ −a²/(2 var)
    s, d, sig0, sigt = 6, 10, 0.4, 0.1
    a, var = s * d * sig0, (s - 1) * d * sigt**2
    log_true = -(a**2) / (2 * var) - math.log(a / math.sqrt(var)) - 0.5 * math.log(math.pi / 2)
    log_seed = math.log(2) - sig0**2 * s**2 * d**2 / sigt
    assert log_true > log_seed
    out = get_claim("cl.lemma1.hoeffding-step").check(CheckContext("x", seed=0))
    row = out.readings[0].evidence["rows"][0]
    assert row["log10_true_failure"] == pytest.approx(log_true / math.log(10), abs=0.01)


def test_aux_gradient_formula_ratio(outcomes: dict) -> None:  # type: ignore[type-arg]
    ratio = outcomes["cl.lemma4.aux-gradient-formula"].readings[0].evidence["ratio"]
    t = sp.Symbol("t", positive=True)
    assert sp.simplify(ratio - t**-2) == 0


def test_task_minimiser_is_the_ridge_step(outcomes: dict) -> None:  # type: ignore[type-arg]
    ev = outcomes["cl.update.min-norm.task-minimiser"].readings[0].evidence
    # d = 2, s = 1, X = e1, y = 1, w_prev = 0, π = 1/2: minimise (u − 1)² + (u² + v²)/2
    assert ev["ridge"] == sp.Matrix([sp.Rational(2, 3), 0])


def test_step_audit_names_the_first_failing_step(outcomes: dict) -> None:  # type: ignore[type-arg]
    readings = {r.name: r for r in outcomes["cl.proofs.step-audit"].readings}
    first = {name: r.evidence["first_failing_step"] for name, r in readings.items()}
    assert first["Lemma 5"] == "cl.lemma5.aux-gradient-order"
    assert first["Lemma 2 (Appendix B)"] == "cl.lemma2.smooth-router"
    # L518's "|M_n| = 1" (pigeonhole-false under M > N) comes before L520's sup-norm step
    assert first["Lemma 12"] == "cl.lemma12.singleton-set"
    assert first["Theorem 2 (Appendix J)"] == "cl.thm2.proof-forgetting-split"
    assert first["Lemma 1 (Appendix C)"] == "cl.lemma1.gate-difference-step"


def test_step_audit_uses_exact_steps_only() -> None:
    load_checks()
    for steps in proofs.PROOF_STEPS.values():
        for cid in steps:
            assert get_claim(cid).kind == "exact", cid


def test_reread_readings(outcomes: dict) -> None:  # type: ignore[type-arg]
    for cid, expected in REREAD_READINGS.items():
        got = {r.name: r.verdict.value for r in outcomes[cid].readings}
        assert got == expected, cid
        assert get_claim(cid).covers == () or list(get_claim(cid).covers) == [], cid


def test_lemma13_scope_rounds_independently() -> None:
    # t1 = ceil(eta^-1 sigma0^-0.25 M) at Figure 2's settings, by integer arithmetic:
    # x = 20 (5/2)^(1/4) lies in (25, 26] iff 25^4 < 20^4 * 5/2 <= 26^4
    assert 25**4 < 20**4 * 5 // 2 <= 26**4
    ev = get_claim("cl.lemma13.proof-scope").check(CheckContext("x", seed=0)).readings[0].evidence
    assert (ev["T1"], ev["t1"], ev["T"]) == (20, 26, 2000)
    assert ev["unproved_rounds"] == [27, 2000]


def test_thm2_split_excess_independently() -> None:
    # one expert, tasks (1, 2, 1), t = 3: recompute E‖w_t − w_{n_i}‖² by the recursion
    # E_k = r E_{k-1} + (1 - r) gap(k) from E_0 = W, with exact fractions
    r, W, D = Fraction(1, 3), Fraction(2), Fraction(5)
    tasks, t = (1, 2, 1), 3

    def err(i: int, upto: int) -> Fraction:
        e = W
        for k in range(1, upto + 1):
            e = r * e + (1 - r) * (0 if tasks[k - 1] == tasks[i - 1] else D)
        return e

    truth = sum(err(i, t) - err(i, i) for i in range(1, t)) / (t - 1)
    seed = sum((r**t - r**i) * W + (err(i, t) - r**t * W) for i in range(1, t + 1)) / (t - 1)
    assert seed - truth == D * r * (1 - r) > 0
    ev = get_claim("cl.thm2.proof-forgetting-split").check(CheckContext("x", seed=0))
    diff = sp.sympify(ev.readings[0].evidence["difference"])
    assert diff.subs({"D": 5, "r": sp.Rational(1, 3)}) == sp.Rational(10, 9)


def test_singleton_set_pigeonhole() -> None:
    out = get_claim("cl.lemma12.singleton-set").check(CheckContext("x", seed=0))
    sizes = out.readings[0].evidence["set_sizes"]
    assert all(sum(s) == 3 and max(s) >= 2 for s in sizes)


def test_lemma4_chain_rule_finds_a_gradient_sum_that_is_not_zero() -> None:
    """cl.lemma4.grad-sum differentiates through w_m = e^{h_m}: the softmax losses give a
    zero sum, and a loss that is not a function of the softmax (w_0 itself) does not."""
    from proofs_checks.li2025continual.lemmas import _task_loss_symbolic

    theta, h, w, loss = _task_loss_symbolic(3, 2, 2, False, True)

    def gradient_sum(L: sp.Expr, j: int) -> sp.Expr:
        return sp.cancel(sp.together(sum(
            sp.diff(L, w[m]) * w[m] * sp.diff(h[m], theta[m][j]) for m in range(3))))

    assert gradient_sum(loss, 0) == 0
    extra = gradient_sum(loss + w[0], 0)  # d w_0 / d theta_0j = w_0 (X_j0 + X_j1)
    x00, x01 = sp.symbols("X_00 X_01")
    assert extra != 0 and sp.expand(extra - w[0] * (x00 + x01)) == 0


def test_lemma3_identities_cancel_exactly_and_a_wrong_one_does_not() -> None:
    from proofs_checks.li2025continual.lemmas import _cancelled, _eq5

    X = sp.Matrix(3, 2, lambda i, j: sp.Symbol(f"x_{i}{j}"))
    w = sp.Matrix(3, 1, lambda i, _j: sp.Symbol(f"w_{i}"))
    u = sp.Matrix(3, 1, lambda i, _j: sp.Symbol(f"u_{i}"))
    step = _eq5(X, w, u) - w
    assert _cancelled(X.T * step - X.T * (u - w)) == sp.zeros(2, 1)
    assert _cancelled(X.T * step - X.T * u) == -X.T * w  # the residual needs "- X^T w"
