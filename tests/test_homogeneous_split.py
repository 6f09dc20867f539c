"""The split of an atom of a positively homogeneous expert (ReLU, z^2): one regression
function for a curve of distinct mixing measures, and what it decides in
pcr.rates.perturbed-fast (the rates at every truth G*)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from moetheory import CheckContext, Verdict
from moetheory.estimation.experiment import true_measure
from moetheory.estimation.models import MixingMeasure, Router, regression_function
from proofs_checks.nguyen2025cosine import _dense_rates as dense
from proofs_checks.nguyen2025cosine import _homogeneous_split as split
from proofs_checks.nguyen2025cosine import rates


def _split_measure(G: MixingMeasure, p: int, t: Fraction) -> MixingMeasure:
    """G with its first atom split at t, in floats (the package's own model)."""
    w1, w2, lam1, lam2 = (float(v) for v in split.split_weights(p, t))
    return MixingMeasure(
        beta0=np.array([G.beta0[0] + np.log(w1), G.beta0[0] + np.log(w2), *G.beta0[1:]]),
        beta1=np.vstack([G.beta1[0], G.beta1[0], G.beta1[1:]]),
        eta=np.vstack([lam1 * G.eta[0], lam2 * G.eta[0], G.eta[1:]]))


def _gap(expert: str, p: int, router: str) -> float:
    G = true_measure()
    x = np.random.default_rng(7).uniform(-2, 2, size=(500, 2))
    r = Router(router, 1.0, 1.0)
    out = 0.0
    for t in split.CURVE_POINTS:
        G_t = _split_measure(G, p, t)
        out = max(out, float(np.max(np.abs(regression_function(G_t, x, r, expert)
                                           - regression_function(G, x, r, expert)))))
    return out


@pytest.mark.parametrize("router", ["linear", "cosine", "perturbed"])
@pytest.mark.parametrize(("expert", "p"), [("relu", 1), ("poly2", 2)])
def test_the_split_keeps_the_regression_function_of_a_homogeneous_expert(expert, p, router):
    assert split.HOMOGENEOUS_DEGREE[expert] == p
    assert split.homogeneity_identity(expert)["holds"]
    assert split.split_identity(p)["holds"]
    assert _gap(expert, p, router) < 1e-12


@pytest.mark.parametrize("expert", ["tanh", "gelu"])
def test_the_split_changes_the_regression_function_of_tanh_and_gelu(expert):
    # the same split (p = 1 or 2) is no identity for an activation that is not homogeneous
    assert min(_gap(expert, p, "perturbed") for p in (1, 2)) > 1e-3


def test_the_split_weights_are_exact_and_inside_the_simplex():
    for p in (1, 2, 3):
        for t in (Fraction(1, 4), Fraction(1, 2), Fraction(9, 10)):
            w1, w2, lam1, lam2 = split.split_weights(p, t)
            assert w1 + w2 == 1 and w1 * lam1**p + w2 * lam2**p == 1
            assert 0 < w1 < 1 and lam2 > 0


def test_the_curve_truths_are_distinct_admissible_measures():
    G = true_measure()
    atoms = split.design_atoms(G.beta0.tolist(), G.beta1.tolist(), G.eta.tolist())
    ev = split.curve_evidence("relu", atoms)
    a, b = ev["truths"].values()
    assert a != b and len(a) == len(b) == 3
    # (A.3): the last atom's beta0 = 0 (mass 1); (A.2): distinct experts
    assert a[-1]["mass"]["sympy"] == "1"
    assert len({tuple(atom["eta"]) for atom in a}) == 3
    assert float(ev["max_abs_difference"]) < 1e-35


def _fake(slope: float):
    losses = ("voronoi_l1", "voronoi_l1_raw", "regression_l2", *rates.GROUPS.values())

    def run(design, seed, configs, map_tasks=None, first_rep=0, stop=None):
        return [{"router": r, "k": k, "n": n, "rep": first_rep + i, "converged": True,
                 "lm_iterations": 7, "at_bound": "",
                 **{loss: n ** slope * (1 + 0.01 * ((first_rep + i) % 5)) for loss in losses}}
                for r, k in configs for n in design.n_grid for i in range(design.replicates)]

    return run


@pytest.mark.parametrize("profile", ["quick", "full"])
def test_perturbed_fast_is_refuted_at_every_truth_by_the_homogeneous_families(monkeypatch,
                                                                              profile):
    """On main the claim read its families at the experiment's G* only, and was open in every
    profile (ReLU and z^2 not fitted); the seeds state the rates for every G*."""
    monkeypatch.setattr(dense, "run_rates", _fake(-0.35))
    ctx = CheckContext("pcr.rates.perturbed-fast", seed=3, profile=profile, alpha=0.002)
    out = rates.check_rates_perturbed_fast(ctx)
    by = {r.name: r for r in out.readings}
    assert out.verdict is Verdict.REFUTED
    assert out.readings[0].name == "every named expert family, every truth"
    assert by["relu experts: every truth G*"].verdict is Verdict.REFUTED
    assert by["poly2 experts: every truth G*"].verdict is Verdict.REFUTED
    for e in ("tanh", "gelu"):
        assert by[f"{e} experts: every truth G*"].verdict is Verdict.INCONCLUSIVE
    # the experiment's G* alone: ReLU and z^2 are not fitted, so that reading stays open
    assert by["every named expert family at the simulated G*"].verdict is Verdict.INCONCLUSIVE
    corrected = by["corrected (ours): tanh and GELU experts at the simulated G*"].verdict
    assert corrected is (Verdict.SUPPORTED if profile == "full" else Verdict.INCONCLUSIVE)
    # issue 46: the summary names the reading and design refuted, and what is refuted
    assert out.summary.startswith("refuted in the reading 'every named expert family, every "
                                  "truth' (perturbed router, tau1 = 1, tau2 = 1")
    assert "ReLU and z^2 experts are not strongly identifiable" in out.summary
    assert "f_{G_t} = f_G" in out.derivation
