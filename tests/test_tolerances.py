"""Tolerances are fixed before looking: they never change when the data change (issue 11)."""

from __future__ import annotations

import numpy as np

from moetheory.continual import CLConfig, ground_truth_unit
from moetheory.stats import stable
from proofs_checks.li2025continual import _bounds as ct


def test_bound_tolerance_does_not_depend_on_the_bound_samples() -> None:
    # the old code took 2% of the *estimated* E[bound]: doubling the bound samples doubled it
    rng = np.random.default_rng(0)
    lhs = rng.random(50)
    rhs = 1.0 + rng.random(50)
    unit = ground_truth_unit(CLConfig(M=20, N=7, K=7))
    a = ct._bound("x", lhs, rhs, 0.01, unit)
    b = ct._bound("x", 3 * lhs, 3 * rhs + 5.0, 0.01, unit)
    assert a["tolerance"] == b["tolerance"] == stable(ct._tol(unit))


def test_ground_truth_unit_is_the_mean_squared_norm_of_the_ground_truths() -> None:
    from moetheory.continual import ground_truths

    for kw in ({"M": 20, "N": 7, "K": 7}, {"M": 5, "N": 7, "K": 3},
               {"M": 20, "N": 7, "K": 3, "reading": "code", "cluster_spread": 0.1}):
        cfg = CLConfig(**kw)
        W, _ = ground_truths(cfg, np.random.default_rng(1), 20_000)
        empirical = float(np.mean(np.sum(W**2, axis=-1)))
        assert abs(empirical - ground_truth_unit(cfg)) < 0.02 * ground_truth_unit(cfg)


def test_frozen_forgetting_tolerance_follows_the_claimed_decay() -> None:
    cfg = CLConfig(M=20, N=7, K=7)
    t1, t2 = cfg.T1 + 10, 2 * cfg.T1
    unit = ground_truth_unit(cfg)
    assert ct._frozen_tol(cfg, t1) == ct._tol((cfg.T1 - 1) / (t1 - 1) * unit)
    assert ct._frozen_tol(cfg, t2) < ct._frozen_tol(cfg, t1)


def test_fig2_tolerances_are_the_same_on_every_seed() -> None:
    # the old tolerances were fractions of the estimated peak / late level: they moved with
    # the seed; now they are fractions of the configuration's ground-truth unit
    from proofs_checks.li2025continual import experiments as cd

    tols = []
    for seed in (1, 2):
        runs = cd.fig2_runs("paper", R=3, seed=seed, T=60)
        comps = cd._fig2_comparisons(runs, 0.01)
        tols.append({c.label: c.tolerance for c in comps})
    assert tols[0] == tols[1]
    unit = ground_truth_unit(CLConfig())
    assert {t for t in tols[0].values() if t > 0} == {cd.NEARLY_ZERO * unit}


def test_aux_loss_effect_is_fixed_by_the_configuration() -> None:
    from proofs_checks.li2025continual.setup import aux_loss_effect

    assert aux_loss_effect(CLConfig(M=20)) == 0.1 / 20


def test_aux_loss_claim_still_runs_its_check() -> None:
    # the helper once sat between @claim and the check, and was registered in its place
    from moetheory.engine.registry import get_claim, load_checks
    from proofs_checks.li2025continual.setup import check_aux_loss

    load_checks()
    assert get_claim("cl.aux-loss.necessary").check is check_aux_loss
