"""The general facts the proofs invoke (``proof_facts`` of both papers): one test per claim.

Each test runs the check, compares its verdict, and recomputes the decisive numbers by an
independent route (enumeration, NumPy, mpmath quadrature), so a wrong certificate fails even
when its verdict happens to be right. A false fact must come out refuted (or unsupported), a
true one proved.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from moetheory import CheckContext, Verdict
from moetheory.engine.registry import get_claim, load_checks
from proofs_checks.li2025continual import proof_facts as clf
from proofs_checks.li2025continual import proofs
from proofs_checks.nguyen2025cosine import proof_facts as pcf

S0, S2, S3 = "000_7b6465990ad3b04b.txt", "002_ed39350ac6d6e1c0.txt", "003_3078ccb5100b14b7.txt"

EXPECTED = {
    "cl.prop1.m-lt-n-nonexpansive": ("refuted", "seed", S3),
    "cl.prop1.m-lt-n-update-spread": ("refuted", "seed", S3),
    "cl.lemma8.product-step": ("refuted", "seed", S3),
    "cl.lemma11.bernoulli-step": ("proved", "seed", S3),
    "cl.lemma11.symmetry-step": ("refuted", "seed", S3),
    "cl.setup.gram-invertible": ("refuted", "seed", S3),
    "pcr.rates.barron-sigmoid": ("refuted", "seed", S0),
    "pcr.rates.barron-cosine": ("proved", "package", S0),
    "pcr.inference.router-lipschitz": ("proved", "package", S2),
    "pcr.inference.lemma2-limit": ("refuted", "seed", S0),
    "pcr.identifiable.input-dependent": ("refuted", "seed", S2),
}


def _run(claim_id: str, seed: int = 0):  # type: ignore[no-untyped-def]
    load_checks()
    return get_claim(claim_id).check(CheckContext(claim_id, seed=seed, alpha=0.0005))


def _readings(claim_id: str) -> dict:  # type: ignore[type-arg]
    return {r.name: r for r in _run(claim_id).readings}


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_verdict_provenance_and_seed_lines(claim_id: str) -> None:
    verdict, origin, seed_file = EXPECTED[claim_id]
    load_checks()
    c = get_claim(claim_id)
    assert c.kind == "exact" and c.origin == origin
    assert c.sources and c.sources[0].seed_file == seed_file and all(c.sources[0].lines)
    out = _run(claim_id)
    assert out.verdict.value == verdict, out.summary
    assert out.readings and out.readings[0].verdict is out.verdict
    out.to_dict()  # JSON-serialisable


def test_projection_is_not_nonexpansive_in_sup_norm() -> None:
    X = np.array([[1.0, 0.0], [-1.0, 1.0], [-1.0, -1.0]])
    P = X @ np.linalg.pinv(X)
    u = np.ones(3)
    out = u - P @ u
    np.testing.assert_allclose(out, [4 / 3, 2 / 3, 2 / 3], atol=1e-12)
    assert np.abs(out).max() > np.abs(u).max()
    assert np.linalg.norm(out) <= np.linalg.norm(u)  # the ℓ2 reading holds
    r = _readings("cl.prop1.m-lt-n-nonexpansive")
    assert r["ell-inf"].evidence["instance"]["ratio"] == Fraction(4, 3)
    assert (r["ell-inf"].verdict, r["ell-2"].verdict, r["ell-inf-sqrt-d"].verdict) == (
        Verdict.REFUTED, Verdict.PROVED, Verdict.PROVED)
    scan = r["ell-inf"].evidence["definition1_scan"]
    assert 0 < scan["share_with_ratio_above_1"] < 1 and scan["largest_ratio"] <= math.sqrt(10)


def test_projection_update_moves_a_one_task_cluster() -> None:
    w_n = np.ones(3)
    w = np.zeros(3)
    for X in (np.eye(3)[:, [0, 1]], np.eye(3)[:, [0, 2]]):  # same signal e1, new noise column
        prev, w = w, w + X @ np.linalg.pinv(X) @ (w_n - w)
    assert np.abs(w - prev).max() == pytest.approx(1.0)  # spread of the cluster is 0
    r = _readings("cl.prop1.m-lt-n-update-spread")
    assert r["spread"].evidence["move_sup"] == 1 and r["spread"].verdict is Verdict.REFUTED
    assert r["distance-to-target"].verdict is Verdict.PROVED


def test_product_step_fails_for_multinomial_shares() -> None:
    # enumerate all 3^6 routings of T1 = 6 rounds to M = 3 experts
    M, T, eps = 3, 6, Fraction(1, 3)
    ok = [all(abs(Fraction(seq.count(m), T) - Fraction(1, M)) <= eps for m in range(M))
          for seq in itertools.product(range(M), repeat=T)]
    joint = Fraction(sum(ok), M**T)
    one = Fraction(sum(abs(Fraction(seq.count(0), T) - Fraction(1, M)) <= eps
                       for seq in itertools.product(range(M), repeat=T)), M**T)
    assert (joint, one) == clf.multinomial_all_within(M, T, eps) == (Fraction(230, 243),
                                                                      Fraction(716, 729))
    assert joint < one**M
    r = _readings("cl.lemma8.product-step")
    assert {k: v.verdict for k, v in r.items()} == {
        "product": Verdict.REFUTED, "printed": Verdict.REFUTED,
        "boole": Verdict.PROVED, "bernoulli": Verdict.PROVED}
    # the printed chain: no share of T1 = 3 rounds is within 1/10 of 1/2, yet the bound > 0
    assert clf.multinomial_all_within(2, 3, Fraction(1, 10))[0] == 0
    assert (1 - 2 * math.exp(-2 * 0.01 * 3)) ** 2 > 0.78


@pytest.mark.parametrize("args", [(0, 3, Fraction(1)), (2, 0, Fraction(1)), (2, 3, Fraction(-1))])
def test_multinomial_rejects_bad_input(args: tuple) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match="need M >= 1"):
        clf.multinomial_all_within(*args)


def test_bernoulli_step_holds_without_smallness() -> None:
    for n, m in itertools.product(range(1, 9), range(1, 30)):
        lhs = (1 - (1 - 1 / n) ** m) ** n
        assert lhs >= 1 - n * math.exp(-m / n) - 1e-15
    assert _run("cl.lemma11.bernoulli-step").verdict is Verdict.PROVED


def test_symmetry_step_fails_for_fixed_signals() -> None:
    rng = np.random.default_rng(1)
    V = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    theta = rng.standard_normal((20000, 2))
    assert not np.any(np.argmax(theta @ V.T, axis=1) == 2)  # the midpoint never wins
    # isotropic gate, signals (1, 0), (0, 1), (-1, 0): shares 3/8, 1/4, 3/8 (exact angles)
    phi = (np.arange(80000) + 0.5) * 2 * np.pi / 80000
    U = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    win = np.argmax(np.column_stack([np.cos(phi), np.sin(phi)]) @ U.T, axis=1)
    np.testing.assert_allclose(np.bincount(win) / phi.size, [3 / 8, 1 / 4, 3 / 8], atol=1e-4)
    r = _readings("cl.lemma11.symmetry-step")
    assert r["fixed-signals"].verdict is Verdict.REFUTED
    assert r["isotropic-gate"].evidence["cone_verified"] is True
    assert r["exchangeable-signals"].verdict is Verdict.PROVED


def test_gram_matrix_is_singular_when_definition1_allows_it() -> None:
    X = np.column_stack([[1.0, 2.0, 0.0], np.zeros(3)])  # σ_t = 0
    assert np.linalg.matrix_rank(X.T @ X) == 1
    rng = np.random.default_rng(0)
    Xg = np.column_stack([rng.uniform(-1, 1, 10)] + [rng.normal(0, 0.1, 10) for _ in range(5)])
    assert np.linalg.matrix_rank(Xg.T @ Xg) == 6  # σ_t > 0: full rank
    r = _readings("cl.setup.gram-invertible")
    assert [v.verdict for v in r.values()] == [Verdict.REFUTED, Verdict.REFUTED, Verdict.PROVED]


def test_step_audit_runs_the_new_steps_in_proof_order() -> None:
    assert proofs.PROOF_STEPS["Lemma 11"][0] == "cl.lemma11.symmetry-step"
    assert "cl.lemma8.product-step" in proofs.PROOF_STEPS["Lemma 8"]
    assert proofs.PROOF_STEPS["Proposition 1 (Appendix E.8)"][-2:] == (
        "cl.prop1.m-lt-n-nonexpansive", "cl.prop1.m-lt-n-update-spread")
    audit = {r.name: r for r in _run("cl.proofs.step-audit").readings}
    assert audit["Lemma 11"].evidence["first_failing_step"] == "cl.lemma11.symmetry-step"
    assert audit["Lemma 11"].evidence["steps"]["cl.lemma11.bernoulli-step"] == "proved"


def test_barron_bound_without_radius_fails_for_one_logistic_unit() -> None:
    q = lambda u: mpmath.exp(-u**2 / 2)  # noqa: E731
    m1 = mpmath.quad(q, [0, 1])
    m2 = mpmath.quad(lambda u: q(u) ** 2, [0, 1])
    floor = (m2 - m1**2) / 2
    bound = 8 / (math.pi * 100**2)  # (2 C_q / s)^2 with C_q = sqrt(2/pi), s = 100
    ev = _readings("pcr.rates.barron-sigmoid")["no-radius"].evidence
    assert float(ev["floor_value"]) == pytest.approx(float(floor), rel=1e-10)
    assert float(ev["bound_value"]) == pytest.approx(bound, rel=1e-10)
    assert floor > bound
    # a least-squares fit of one logistic unit to q_s on [-s, s] stays above the floor
    x = np.linspace(-1, 1, 4001)  # rescaled: the best error does not depend on s
    target = np.exp(-x**2 / 2)
    best = min(
        np.mean((np.column_stack([np.ones_like(x), 1 / (1 + np.exp(-(a * x + b)))])
                 @ np.linalg.lstsq(np.column_stack([np.ones_like(x),
                                                    1 / (1 + np.exp(-(a * x + b)))]),
                                   target, rcond=None)[0] - target) ** 2)
        for a in np.linspace(-40, 40, 81) for b in np.linspace(-20, 20, 41))
    assert best >= float(floor) - 1e-6


def test_cosine_router_units_cannot_meet_a_barron_bound() -> None:
    floor_a = (math.exp(-0.5) - math.exp(-2)) ** 2 / 4
    assert math.floor(32 / (math.pi * floor_a)) + 1 == 184
    qv, uv = np.array([math.exp(-0.5), math.exp(-2)]), np.array([0.5, 2 / 3])
    resid = qv - (qv @ uv) / (uv @ uv) * uv
    r = _readings("pcr.rates.barron-cosine")
    assert r["clean-cosine"].evidence["by_dimension"]["d1=1"]["k_tilde_beyond"] == 184
    assert float(r["perturbed-linear"].evidence["error_floor"]) == pytest.approx(
        float(resid @ resid / 2), rel=1e-12)
    assert float(pcf.gaussian_barron_constant(3)) == pytest.approx(
        math.sqrt(8 / math.pi), rel=1e-12)  # E||Z|| in three dimensions
    with pytest.raises(ValueError, match="d must be at least 1"):
        pcf.gaussian_barron_constant(0)


def test_router_weights_jump_at_zero_and_perturbed_gradient_is_bounded() -> None:
    def cos_weight(b11: float, x: float = 1.0) -> float:
        s1, s2 = np.sign(b11 * x), np.sign(1.0 * x)
        return float(np.exp(s1) / (np.exp(s1) + np.exp(s2)))

    gap = cos_weight(1e-9) - cos_weight(-1e-9)
    assert gap == pytest.approx(math.tanh(1) / 2)
    rng = np.random.default_rng(2)
    tau1, tau2 = 0.3, 0.7

    def score(b: np.ndarray, x: np.ndarray) -> float:
        return float(b @ x / ((np.linalg.norm(b) + tau1) * (np.linalg.norm(x) + tau2)))

    for _ in range(200):
        x, beta = rng.normal(size=3) * 3, rng.normal(size=3) * rng.uniform(0, 2)
        g = np.array([(score(beta + h, x) - score(beta - h, x)) / 2e-6
                      for h in np.eye(3) * 1e-6])
        assert np.linalg.norm(g) < 1 / tau1
    assert _run("pcr.inference.router-lipschitz").verdict is Verdict.PROVED


def test_a_finite_limit_gives_the_upper_bound() -> None:
    eps = 1e-3
    dist = math.sqrt(mpmath.quad(lambda x: (2 * eps * x) ** 2, [0, 1]))
    assert dist / (2 * eps) == pytest.approx(1 / math.sqrt(3))
    assert dist <= (2 / math.sqrt(3)) * eps + 1e-15
    r = _readings("pcr.inference.lemma2-limit")
    assert (r["finite-limit"].verdict, r["what-zero-buys"].verdict) == (Verdict.REFUTED,
                                                                         Verdict.PROVED)


def test_equal_router_parameters_give_constant_weights() -> None:
    rng = np.random.default_rng(4)
    X = rng.normal(size=(50, 2))
    for score in (lambda b, x: b @ x,
                  lambda b, x: b @ x / (np.linalg.norm(b) * np.linalg.norm(x)),
                  lambda b, x: b @ x / ((np.linalg.norm(b) + 1) * (np.linalg.norm(x) + 1))):
        b1 = np.array([1.0, 0.0])
        w = [np.exp(score(b1, x) + 0.3) / (np.exp(score(b1, x) + 0.3) + np.exp(score(b1, x)))
             for x in X]
        np.testing.assert_allclose(w, w[0], atol=1e-12)
    r = _readings("pcr.identifiable.input-dependent")
    assert r["A4-suffices"].verdict is Verdict.REFUTED
    assert r["distinct-parameters"].verdict is Verdict.PROVED
