"""The sparse-gate rates fits reach the target's objective (issue 32): the local path.

A fit whose objective is above the target's (the true parameters') by more than
``sigma^2 / n`` is an optimiser failure, measurable without any loss or slope. These tests
take the fits of pcr.rates.topk's full design at its seed and compare objectives only.
"""

from dataclasses import replace

import numpy as np
import pytest

from moetheory.estimation.models import Router
from moetheory.estimation.overspecified import overspecified_design
from moetheory.estimation.variant_rates import (
    LOCAL_ENTRY,
    VariantDesign,
    best_fits,
    run_variant,
    true_variant,
    variant_design,
)
from moetheory.estimation.variants import Stage, fit_to_rule, polish_gate, variant_model

#: The per-claim seed of pcr.rates.topk under master seed 0 (the full report's evidence).
TOPK_SEED = 1166088193874727725


def test_full_topk_fits_at_n_3200_reach_the_target_objective():
    # main: both replicates' winners fell short (14.9 and 2.6 sigma^2/n above the target's
    # objective): the annealing path from the target leaves its neighbourhood at the wide
    # softnesses and comes back to another boundary
    design = replace(variant_design("topk", "full"), n_grid=(3200, 6400), replicates=2)
    recs = run_variant(design, TOPK_SEED, "perturbed", stop=lambda cell: True)["records"]
    assert [r["n"] for r in recs] == [3200, 3200]
    for r in recs:
        assert r["converged"]
        assert r["objective"] <= r["objective_at_target"] + design.sigma**2 / 3200
        assert not r["shortfall"]


#: The per-claim seed of pcr.rates.top1 under master seed 0.
TOP1_SEED = 3343851861479216814


def test_full_top1_fit_at_n_3200_reaches_the_target_objective():
    # main: replicate 0's winner was 90.6 sigma^2/n above the target's objective (the local
    # path alone leaves it there too); the gating steps on the top-1 objective itself move
    # the boundary the last stage cannot move
    design = replace(variant_design("top1", "full"), n_grid=(3200, 6400), replicates=2)
    recs = run_variant(design, TOP1_SEED, "perturbed", stop=lambda cell: True)["records"]
    r = recs[0]
    assert r["converged"] and r["retried"] and r["polished"]
    assert r["objective"] <= r["objective_at_target"]
    assert not r["shortfall"]


def test_the_gating_steps_never_raise_the_objective():
    rng = np.random.default_rng(0)
    t = np.array([[0.0, 0.0, 3.0, 0.0, -3.0, 0.0, 2.0, 0.0, 0.5, 0.0, 2.0, -0.5]] * 2)
    x = rng.uniform(-1, 1, (2, 200, 2))
    y = variant_model(t, x, 2, Router("linear"), top_k=1) + 0.1 * rng.standard_normal((2, 200))
    off = t + np.array([1.0, 0.0] + [0.0] * 10)
    last = Stage(1.0, 1, 50)
    before = fit_to_rule(x, y, off, 2, Router("linear"), "tanh", (last,))[0]
    fit, conv, _ = polish_gate(x, y, off, 2, Router("linear"), "tanh", last)
    assert np.all(fit.objective <= before.objective) and conv.all()
    at = np.mean((variant_model(t, x, 2, Router("linear"), top_k=1) - y) ** 2, axis=1)
    assert np.all(fit.objective < before.objective)
    # the first replicate reaches the target's objective; the second stays short (a search
    # with the experts held is a descent, not a certificate of the global minimum)
    assert (fit.objective <= at + 0.01 / 200).tolist() == [True, False]
    with pytest.raises(ValueError, match="rounds must be"):
        polish_gate(x, y, off, 2, Router("linear"), "tanh", last, rounds=0)


@pytest.mark.parametrize("setting", ["top1", "topk"])
def test_the_local_path_is_the_tail_of_the_schedule(setting):
    design = variant_design(setting, "quick")
    full, local = design.stages(0.5), design.local_stages(0.5)
    assert local[-1] == full[-1]
    kept = [a for a in design.anneal if a <= LOCAL_ENTRY]
    assert 0 < len(kept) < len(design.anneal)
    assert local[:-1] == full[len(full) - 1 - len(kept) : -1]
    assert replace(design, local_entry=0.0).local_stages(0.5) == ()
    assert variant_design("misspecified").local_stages() == ()
    assert overspecified_design("topk").local_stages(0.5)[-1].top_k == 2
    # the gating polish runs in the full designs only (CPU of the quick profile)
    assert not design.polish and variant_design(setting, "full").polish
    assert not overspecified_design(setting).polish
    assert overspecified_design(setting, "full").polish


def test_local_entry_outside_its_range_is_refused():
    with pytest.raises(ValueError, match="local_entry must be in"):
        VariantDesign("topk", (50, 100), 2, 0, 5, local_entry=2.0)


def test_the_winner_is_the_lowest_objective_over_both_paths():
    t = true_variant("topk")
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, (2, 60, 2))
    rt = Router("linear")
    y = variant_model(np.tile(t, (2, 1)), x, 3, rt, top_k=2) + 0.1 * rng.standard_normal((2, 60))
    far = np.tile(t + 3.0, (2, 1))  # one start far away, one at the target
    starts = np.stack([far[0], t, far[1], t])
    stages = (Stage(1.0, 2, 3, 0.5), Stage(1.0, 2, 40))
    at = np.mean((variant_model(np.tile(t, (2, 1)), x, 3, rt, top_k=2) - y) ** 2, axis=1)
    plain = best_fits(x, y, starts, 3, rt, "tanh", stages, 1e-9, at, 0.1)
    both = best_fits(x, y, starts, 3, rt, "tanh", stages, 1e-9, at, 0.1,
                     (Stage(1.0, 2, 40),), (1,))
    for (_, p), (_, b) in zip(plain, both, strict=True):
        assert b["objective"] <= p["objective"]
        assert b["local"] == (b["start"] == 2)
        assert not p["local"]
        assert b["retried"] == p["shortfall"] and not p["retried"]
