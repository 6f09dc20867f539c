"""The interaction PDE (4): closed forms, cross-checks that can fail, and the claim checks."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from moetheory import CheckContext, Verdict
from moetheory.engine.verdicts import jsonable
from moetheory.symbolic.pde import (
    euler_residual,
    explicit_check,
    linear_second_order_explicit,
    linear_second_order_scalar,
    mp_check,
    nonnegative_certificate,
    numeric_euler,
    one_sided_euler,
    reduce_norms,
    sample_points,
)
from moetheory.symbolic.routers import (
    COSINE,
    EPS,
    IMPLEMENTATION_VARIANTS,
    LINEAR,
    NB,
    NX,
    TAU1,
    TAU2,
    U,
    coordinates,
    perturbed_cosine_router,
)
from proofs_checks.nguyen2025cosine import routers_pde


def test_cosine_residual_is_zero_and_perturbed_is_not():
    assert euler_residual(COSINE).holds_identically
    pert = euler_residual(perturbed_cosine_router())
    assert not pert.holds_identically
    expected = TAU1 * U / ((NB + TAU1) ** 2 * (NX + TAU2))
    assert sp.simplify(pert.ratio - expected) == 0
    assert pert.vanishing == [U]


def test_each_perturbation_alone():
    assert not euler_residual(perturbed_cosine_router(TAU1, 0)).holds_identically
    assert euler_residual(perturbed_cosine_router(0, TAU2)).holds_identically


def test_linear_router_residual_is_score():
    assert sp.simplify(euler_residual(LINEAR).ratio - U) == 0


@settings(max_examples=20, deadline=None)
@given(
    st.integers(1, 5),
    st.floats(min_value=0.01, max_value=5.0),
    st.floats(min_value=0.01, max_value=5.0),
    st.integers(0, 2**32 - 1),
)
def test_closed_form_matches_numeric_euler_derivative(d1, t1, t2, seed):
    """Closed form of β1ᵀ∂H/∂β1 vs d/dc H(x, cβ1) at c = 1 computed by mpmath (40 digits)."""
    (beta1, x), = sample_points(np.random.default_rng(seed), d1, 1)
    params = {TAU1: sp.Rational(t1), TAU2: sp.Rational(t2)}
    for router in (COSINE, perturbed_cosine_router(), perturbed_cosine_router(0, TAU2)):
        result = euler_residual(router)
        score = sp.lambdify((U, NB, NX), result.score.subs(params), "mpmath")
        ratio = sp.lambdify((U, NB, NX), result.ratio.subs(params), "mpmath")
        with mpmath.workdps(40):
            xm = [mpmath.mpf(float(t)) for t in x]
            h = 2 + mpmath.cos(mpmath.fsum(xm))

            def big_h(*bs, xm=xm, h=h, score=score):
                u = mpmath.fsum(p * q for p, q in zip(bs, xm, strict=True))
                return mpmath.exp(score(u, mpmath.norm(bs), mpmath.norm(xm))) * h

            numeric = numeric_euler(big_h, beta1)
            bm = [mpmath.mpf(float(t)) for t in beta1]
            u = mpmath.fsum(p * q for p, q in zip(bm, xm, strict=True))
            closed = ratio(u, mpmath.norm(bm), mpmath.norm(xm)) * big_h(*bm)
            assert abs(numeric - closed) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("d1", [1, 2, 3])
def test_explicit_check_agrees_and_can_fail(d1):
    good = euler_residual(perturbed_cosine_router())
    assert explicit_check(good, d1)["agrees"]
    wrong = dataclasses.replace(good, ratio=2 * good.ratio)
    assert not explicit_check(wrong, d1)["agrees"]
    # claiming (4) for the perturbed router is caught in every dimension
    assert not explicit_check(dataclasses.replace(good, ratio=sp.Integer(0)), d1)["agrees"]


def test_mp_check_can_fail():
    pts = sample_points(np.random.default_rng(3), 3, 2)
    params = {TAU1: sp.Rational(1, 2), TAU2: sp.Rational(1, 3)}
    good = euler_residual(perturbed_cosine_router())
    assert mp_check(good, pts, params)["agrees"]
    assert not mp_check(dataclasses.replace(good, ratio=sp.Integer(0)), pts, params)["agrees"]
    with pytest.raises(ValueError, match="dps"):
        mp_check(good, pts, params, dps=20)


def test_reduce_norms():
    b, x = coordinates(3)
    nb = sp.sqrt(sum(v**2 for v in b))
    assert reduce_norms(nb**2 - sum(v**2 for v in b), b, x) == 0
    assert reduce_norms(nb - b[0], b, x) != 0
    b1, x1 = coordinates(1)
    assert reduce_norms(sp.Abs(b1[0]) * sp.sign(b1[0]) - b1[0], b1, x1) == 0
    with pytest.raises(ValueError, match="not rational"):
        reduce_norms(sp.exp(b[0]), b, x)


def test_clamp_pieces_and_boundary():
    clamp_expert = IMPLEMENTATION_VARIANTS[0]
    assert euler_residual(clamp_expert, ("inactive", "everywhere")).holds_identically
    active = euler_residual(clamp_expert, ("active", "everywhere"))
    assert sp.simplify(active.ratio - U / EPS) == 0
    jump = one_sided_euler(clamp_expert, EPS)["jump"]
    assert sp.simplify(jump + U / EPS) == 0
    with pytest.raises(ValueError, match="pieces"):
        euler_residual(clamp_expert)
    with pytest.raises(ValueError, match="clamp"):
        one_sided_euler(COSINE, EPS)


def test_linear_second_order():
    scalar = linear_second_order_scalar()
    assert scalar["difference"] == 0
    assert scalar["euler_ratio"] == U  # β1ᵀ∂H/∂β1 = (β1ᵀx) H, not identically 0
    for d1 in (1, 2, 3):
        assert linear_second_order_explicit(d1)["identity_holds"]


def test_nonnegative_certificate():
    a, b = sp.symbols("a b", nonnegative=True)
    g, p = sp.symbols("g p", nonnegative=True)
    assert nonnegative_certificate((a + b) ** 2 / (1 + a), [a, b])["certified"]
    assert not nonnegative_certificate(a - b, [a, b])["certified"]
    # 1 - g >= 0 only when g + p = 1 is used
    assert not nonnegative_certificate(1 - g, [g, p])["certified"]
    assert nonnegative_certificate(1 - g, [g, p], homogenise=(g, p))["certified"]


def _ctx(claim_id: str, seed: int = 0) -> CheckContext:
    return CheckContext(claim_id, seed=seed, profile="quick")


def test_claim_checks_verdicts():
    assert routers_pde.check_cosine(_ctx("pcr.pde.cosine")).verdict == Verdict.PROVED
    perturbed = routers_pde.check_perturbed(_ctx("pcr.pde.perturbed"))
    assert perturbed.verdict == Verdict.PROVED
    by_name = {r.name: r.verdict for r in perturbed.readings}
    assert by_name == {"not-identically-zero": Verdict.PROVED, "pointwise": Verdict.REFUTED}
    each = routers_pde.check_each_noise(_ctx("pcr.pde.each-noise"))
    assert each.verdict == Verdict.REFUTED
    assert {r.name: r.verdict for r in each.readings}["tau2-only"] == Verdict.REFUTED
    corrected = routers_pde.check_each_noise_corrected(_ctx("pcr.pde.each-noise.corrected"))
    assert corrected.verdict == Verdict.PROVED


def test_check_is_deterministic():
    one = json.dumps(jsonable(routers_pde.check_perturbed(_ctx("pcr.pde.perturbed", 5)).to_dict()))
    two = json.dumps(jsonable(routers_pde.check_perturbed(_ctx("pcr.pde.perturbed", 5)).to_dict()))
    assert one == two


def test_implementations_map():
    outcome = routers_pde.check_implementations(_ctx("pcr.pde.implementations"))
    assert outcome.verdict == Verdict.PROVED
    per_variant = {r.name: r.verdict for r in outcome.readings[2:]}
    # other vector unnormalised: no variant satisfies (4) on the whole space
    assert {per_variant[n] for n in ("clamp-expert", "clamp-token", "clamp-both",
                                     "additive-expert", "additive-token", "additive-both")} == {
        Verdict.REFUTED
    }
    # other vector normalised exactly: ε on the token only leaves β1 exactly normalised
    assert per_variant["additive-token+exact"] == Verdict.PROVED
    assert per_variant["clamp-token+exact"] == Verdict.PROVED
    assert per_variant["additive-expert+exact"] == Verdict.REFUTED
    variants = outcome.evidence["variants_other_unnormalised"]
    holds = {name: [p["region"] for p in v["pieces"] if p["holds_identically"]]
             for name, v in variants.items()}
    assert holds["clamp-expert"] == ["‖β1‖ > ε"]
    assert holds["clamp-token"] == [] and holds["additive-both"] == []
    assert outcome.evidence["additive_both_equals_perturbed_with_tau1_tau2_eps"]


def test_near_zero_and_linear_second_order():
    near = routers_pde.check_near_zero(_ctx("pcr.stability.near-zero"))
    assert near.verdict == Verdict.PROVED
    assert {r.name: r.verdict for r in near.readings}["d1=1"] == Verdict.REFUTED
    lin = routers_pde.check_linear_second_order(_ctx("pcr.pde.linear-second-order"))
    assert lin.verdict == Verdict.PROVED
    # the witness value is Euler's number: printed as a reader writes it, not as SymPy's `E`
    assert "witness: ℯ" in lin.summary and not re.search(r"\bE\b", lin.summary)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: sample_points(np.random.default_rng(0), 0, 1), "d1"),
        (lambda: sample_points(np.random.default_rng(0), 2, 0), "n"),
        (lambda: mp_check(euler_residual(COSINE), [], {}), "points"),
        (lambda: mp_check(euler_residual(COSINE), sample_points(np.random.default_rng(0), 1, 1),
                          {}, tol=0.0), "tol"),
        (lambda: numeric_euler(lambda a: a, [1.0], dps=10), "dps"),
        (lambda: explicit_check(euler_residual(COSINE), 0), "d1"),
        (lambda: euler_residual(COSINE, ("active", "active")), "pieces"),
    ],
)
def test_bad_input_raises_value_error_naming_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_sample_points_are_the_same_bits_under_other_blas_and_simd() -> None:
    # The mpmath cross-check reports its error at these points: they must not depend on the
    # BLAS kernel or the SIMD width (np.linalg.norm does).
    code = (
        "import numpy as np; from moetheory.symbolic.pde import sample_points; "
        "pts = sample_points(np.random.default_rng(7), 5, 20); "
        "print([float(t).hex() for b, x in pts for t in (*b, *x)])"
    )
    feats = subprocess.run(
        [sys.executable, "-c", "import numpy._core._multiarray_umath as m; print(' '.join("
         "k for k, v in m.__cpu_features__.items() if v and k in m.__cpu_dispatch__ "
         "and k.startswith(('AVX512', 'X86_V4'))))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    runs = [
        subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       check=True).stdout
        for env in (dict(os.environ),
                    dict(os.environ, OPENBLAS_CORETYPE="Sandybridge",
                         NPY_DISABLE_CPU_FEATURES=feats))
    ]
    assert runs[0] == runs[1]


@pytest.mark.slow
def test_catalogue_pde_claims_are_decided_by_router_pde(monkeypatch):
    """The pcr.pde.* checks take their verdict and residual from the public router_pde."""
    from moetheory.symbolic import router_pde as public
    from proofs_checks.nguyen2025cosine import _pde_evidence

    seen = []

    def spy(score, **kwargs):
        seen.append(score)
        return public.router_pde(score, **kwargs)

    monkeypatch.setattr(_pde_evidence, "router_pde", spy)
    cosine = routers_pde.check_cosine(_ctx("pcr.pde.cosine"))
    assert seen and cosine.verdict == Verdict.PROVED
    assert cosine.evidence["router_pde"]["scope"] == {"d": "all"}
    assert "router_pde" in cosine.derivation

    def undecided(score, **kwargs):
        res = public.router_pde(score, **kwargs)
        return dataclasses.replace(res, verdict=Verdict.INCONCLUSIVE, reason="simulated")

    monkeypatch.setattr(_pde_evidence, "router_pde", undecided)
    for check, claim_id in [
        (routers_pde.check_cosine, "pcr.pde.cosine"),
        (routers_pde.check_perturbed, "pcr.pde.perturbed"),
        (routers_pde.check_each_noise, "pcr.pde.each-noise"),
        (routers_pde.check_each_noise_corrected, "pcr.pde.each-noise.corrected"),
        (routers_pde.check_linear_second_order, "pcr.pde.linear-second-order"),
        (routers_pde.check_implementations, "pcr.pde.implementations"),
    ]:
        assert check(_ctx(claim_id)).verdict == Verdict.INCONCLUSIVE, claim_id


def test_a_wrong_residual_from_router_pde_is_caught_by_the_scalar_form(monkeypatch):
    from moetheory.symbolic import router_pde as public
    from proofs_checks.nguyen2025cosine import _pde_evidence

    def doubled(score, **kwargs):
        res = public.router_pde(score, **kwargs)
        return dataclasses.replace(res, residual_over_H=2 * res.residual_over_H)

    monkeypatch.setattr(_pde_evidence, "router_pde", doubled)
    assert routers_pde.check_perturbed(_ctx("pcr.pde.perturbed")).verdict == Verdict.INCONCLUSIVE
