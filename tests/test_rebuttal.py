"""Tests of the exact checks of the rebuttal (seed 000) and the paper (seed 002) inferences."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
import sympy as sp

from moetheory import CheckContext, Verdict
from moetheory.engine.registry import get_claim, load_checks
from moetheory.engine.verdicts import jsonable
from moetheory.estimation.models import MixingMeasure
from moetheory.estimation.voronoi import sparse_voronoi_loss, voronoi_loss_2, voronoi_terms_2
from proofs_checks.nguyen2025cosine import rate_inferences
from proofs_checks.nguyen2025cosine import rebuttal as rb


def _ctx(claim_id: str, seed: int = 5) -> CheckContext:
    return CheckContext(claim_id, seed=seed, profile="quick", alpha=0.002)


EXPECTED = {
    "pcr.experts.output-shape": Verdict.REFUTED,
    "pcr.experts.dg-count": Verdict.PROVED,
    "pcr.eq6.quoted": Verdict.REFUTED,
    "pcr.eq6": Verdict.PROVED,
    "pcr.inference.expert-rate": Verdict.REFUTED,
    "pcr.poly-expert.same-rate": Verdict.REFUTED,
    "pcr.inference.router-rate": Verdict.REFUTED,
    "pcr.softmax.lipschitz": Verdict.PROVED,
    "pcr.inference.slow-rate": Verdict.PROVED,
    "pcr.sample-size.log-rate": Verdict.REFUTED,
    "pcr.inference.lower-bound": Verdict.PROVED,
    "pcr.sparse.top1-weight": Verdict.PROVED,
    "pcr.sparse.top1-interaction": Verdict.REFUTED,
    "pcr.sparse.voronoi-loss": Verdict.PROVED,
    "pcr.routers.score-range": Verdict.PROVED,
    "pcr.consistency.cosine-vs-linear": Verdict.REFUTED,
    "pcr.sparse.compute": Verdict.PROVED,
}


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_verdicts_and_provenance(claim_id):
    load_checks()
    c = get_claim(claim_id)
    assert c.sources and c.origin in ("seed", "package")
    out = c.check(_ctx(claim_id))
    assert out.verdict is EXPECTED[claim_id], out.summary
    json.dumps(jsonable(out.to_dict()))


def test_every_reading_is_decided():
    load_checks()
    for claim_id in EXPECTED:
        out = get_claim(claim_id).check(_ctx(claim_id))
        assert all(r.verdict is not Verdict.INCONCLUSIVE for r in out.readings), claim_id


def test_expert_rate_counterexample_is_exact():
    ex = rate_inferences._flat_expert()
    n = rate_inferences.n
    assert sp.simplify(ex["sup_expert_error_on_[-1,1]"] - 1 / n) == 0
    assert ex["parameter_error_times_n^c"] == sp.oo
    # a Lipschitz constant below 1, so (6) holds for the counterexample with constant 1
    assert 0 < float(ex["lipschitz_constant_value"]) < 1


def test_sample_size_counterexample_numbers():
    out = rate_inferences.check_sample_size(_ctx("pcr.sample-size.log-rate"))
    ev = out.readings[0].evidence
    assert ev["tau_where_equal"] == [1]
    needed, seed = ev["tau=2,eps=1/10"]["needed"], ev["tau=2,eps=1/10"]["seed"]
    assert sp.simplify(needed - sp.exp(sp.sqrt(10))) == 0 and seed == sp.exp(100)


def test_quoted_eq6_counterexample():
    out = rb.check_eq6_quoted(_ctx("pcr.eq6.quoted"))
    ev = out.readings[0].evidence
    assert (ev["lhs"], ev["rhs"]) == (3, 1)


def test_softmax_lipschitz_constant_is_half_numerically():
    # independent of the check: chord ratios never exceed 1/2, and approach it
    rng = np.random.default_rng(0)

    def sm(u):
        e = np.exp(u - u.max())
        return e / e.sum()

    worst = 0.0
    for _ in range(2000):
        k = int(rng.integers(2, 6))
        u = rng.normal(size=k) * 3
        v = u + rng.normal(size=k) * 1e-3
        worst = max(worst, np.linalg.norm(sm(u) - sm(v)) / np.linalg.norm(u - v))
    assert worst <= 0.5 + 1e-9
    u = np.array([0.0, 0.0, -50.0])
    dv = np.array([1e-6, -1e-6, 0.0])
    assert np.linalg.norm(sm(u + dv) - sm(u)) / np.linalg.norm(dv) == pytest.approx(0.5, rel=1e-4)


def _brute_sparse_loss(G, Gs, K):
    T = voronoi_terms_2(G, Gs)
    return max(sum(T[j] for j in S) for S in itertools.combinations(range(Gs.k), K))


def test_sparse_voronoi_loss_against_brute_force():
    rng = np.random.default_rng(1)
    for _ in range(50):
        kstar = int(rng.integers(2, 5))
        Gs = MixingMeasure(rng.normal(size=kstar), rng.normal(size=(kstar, 2)),
                           rng.normal(size=(kstar, 3)))
        k = kstar + int(rng.integers(0, 3))
        G = MixingMeasure(rng.normal(size=k), rng.normal(size=(k, 2)), rng.normal(size=(k, 3)))
        dense = voronoi_loss_2(G, Gs)
        assert float(voronoi_terms_2(G, Gs).sum()) == pytest.approx(dense)
        for K in range(1, kstar + 1):
            loss = sparse_voronoi_loss(G, Gs, K)
            assert loss == pytest.approx(_brute_sparse_loss(G, Gs, K))
            assert K / kstar * dense - 1e-12 <= loss <= dense + 1e-12


def test_sparse_voronoi_loss_rejects_bad_k():
    Gs = MixingMeasure([0.0, 0.0], [[1.0], [-1.0]], [[1.0, 0.0], [-1.0, 0.0]])
    with pytest.raises(ValueError, match="top_k must be an integer in"):
        sparse_voronoi_loss(Gs, Gs, 3)


def test_top1_interaction_sees_scaling_invariance():
    out = rb.check_top1_interaction(_ctx("pcr.sparse.top1-interaction"))
    ev = out.readings[0].evidence
    assert ev["euler_beta1_grad_s"] == 0
    assert ev["same_expert_selected_500_inputs_(c = 2, 1, 3)"] is True


def test_eq6_gelu_constant_is_the_supremum_of_the_derivative():
    # independent of the check: |GELU'| on a fine mpmath grid, and chord ratios of GELU
    import mpmath as mp

    ev = rb.check_eq6(_ctx("pcr.eq6")).evidence
    lip = ev["gelu_lipschitz_constant"]
    expected = (1 + sp.erf(1)) / 2 + sp.exp(-1) / sp.sqrt(sp.pi)
    assert sp.simplify(lip - expected) == 0
    mp.mp.dps = 30

    def dgelu(z):
        return mp.ncdf(z) + z * mp.npdf(z)

    grid = [mp.mpf(i) / 1000 for i in range(-8000, 8001)]
    top = max(abs(dgelu(z)) for z in grid)
    assert abs(top - mp.mpf(str(sp.N(lip, 30)))) < mp.mpf("1e-6")
    rng = np.random.default_rng(1)
    for z, w in rng.uniform(-6, 6, (500, 2)):
        chord = abs(z * mp.ncdf(z) - w * mp.ncdf(w)) / abs(z - w)
        assert chord <= float(sp.N(lip, 20)) + 1e-12


@pytest.mark.parametrize("claim_id", ["pcr.softmax.lipschitz", "pcr.inference.lower-bound",
                                      "pcr.consistency.cosine-vs-linear"])
def test_the_checks_own_derivation_is_the_outcomes(claim_id):
    # from_readings once took derivation= for evidence: the page showed a generic derivation
    load_checks()
    out = get_claim(claim_id).check(_ctx(claim_id))
    assert out.derivation.strip()
    assert "derivation" not in out.evidence
