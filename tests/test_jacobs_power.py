"""Replicates of the vowel checks sized from a pilot (issue 32), and the sizing they use."""

from __future__ import annotations

import numpy as np
import pytest

from moetheory import CheckContext, Verdict
from moetheory.stats import (
    MeanEstimate,
    Plan,
    comparison_factor,
    greater,
    mean_ci,
    plan_from_pilot,
    power_note,
)
from proofs_checks.jacobs1991adaptive import _power


def test_t_factor_below_the_pilot_size_is_the_fixed_point_not_an_oscillation() -> None:
    # five replicates that nearly decide (the locality check's seed-0 run): the Student
    # quantile's fixed-point iteration oscillated and reported a million replicates
    gap = np.array([0.91, 0.815, 0.575, 0.595, 0.91])
    est = mean_ci(gap, 2.155e-4, bounds=(-1.0, 1.0))
    f, side = comparison_factor(greater("local", est, 0.0, 0.1))
    assert side == "supported"
    assert 0.5 < f < 3.0


def test_factor_is_consistent_with_a_direct_search() -> None:
    from scipy import stats as sps
    rng = np.random.default_rng(3)
    for _ in range(20):
        x = rng.normal(rng.uniform(0.2, 1.0), rng.uniform(0.05, 0.5), size=int(rng.integers(4, 12)))
        est = mean_ci(x, 1e-3)
        f, side = comparison_factor(greater("x", est, 0.0, 0.05))
        assert side == "supported"
        n0, a2, z = x.size, 5e-4, sps.norm.ppf(0.9)
        se = (est.mean - est.low) / sps.t.ppf(1 - a2, n0 - 1)
        lhs = ((sps.t.ppf(1 - a2, (n0 - 1) * f) + z) * se / est.mean) ** 2
        assert lhs == pytest.approx(f, rel=1e-3)


def test_plan_from_pilot_rounds_to_whole_chunks_within_the_budget() -> None:
    from moetheory.stats import compare
    c = compare("x", MeanEstimate(0.0, -0.2, 0.2, 5, 0.95), 0.0, 0.1)
    p = plan_from_pilot([c], pilot=5, floor=5, budget=60, budget_seconds=1.0,
                        profile="quick", pilot_seed=1, multiple=5)
    assert (p.needed, p.n) == (55, 55)
    p = plan_from_pilot([c], pilot=5, floor=5, budget=52, budget_seconds=1.0,
                        profile="quick", pilot_seed=1, multiple=5)
    assert p.n == 52 and p.budget_limited
    p = plan_from_pilot([c], pilot=5, floor=5, budget=13, budget_seconds=1.0,
                        profile="quick", pilot_seed=1, multiple=5)
    assert p.n == 5  # more than four budgets: the floor
    with pytest.raises(ValueError, match="floor"):
        plan_from_pilot([c], pilot=5, floor=0, budget=22, budget_seconds=1.0,
                        profile="quick", pilot_seed=1)


def test_no_pilot_says_what_this_run_asks_for() -> None:
    from moetheory.stats import compare, proportion_ci
    plan = plan_from_pilot([], pilot=0, floor=6, budget=6, budget_seconds=1.6,
                           profile="quick", pilot_seed=0)
    comp = compare("p", proportion_ci(6, 6, 1.4e-4), 1.0, 0.2)
    note = power_note(plan, Verdict.INCONCLUSIVE, [comp])
    assert "no pilot" in note and "ask for about" in note
    ev = plan.evidence(Verdict.INCONCLUSIVE, [comp])
    assert 40 <= ev["this_run_asks_for"] <= 50  # (α/2)^(1/n) >= 0.8 needs n = 43


def test_budgets_are_whole_chunks_for_the_shared_epoch_runs() -> None:
    for key in ("j91.vowel.epochs", "j91.vowel.scaling"):
        for profile in ("quick", "full"):
            pilot, floor, budget, _ = _power.BUDGETS[key][profile]
            assert pilot % _power.CHUNK == 0 and budget % _power.CHUNK == 0
            assert floor <= budget


def test_epoch_runs_are_shared_chunks() -> None:
    a = _power.epochs_runs(7, [("backprop", 6)], 10, 0.6, 200)
    b = _power.epochs_runs(7, [("backprop", 6)], 5, 0.6, 200)
    assert np.array_equal(a["backprop/6"][:5], b["backprop/6"])
    with pytest.raises(ValueError, match="multiple of CHUNK"):
        _power.epochs_runs(7, [("backprop", 6)], 7, 0.6, 200)


@pytest.mark.parametrize("claim_id", ["j91.vowel.locality"])
def test_check_records_its_plan(claim_id: str) -> None:
    import proofs_checks.jacobs1991adaptive.vowels  # noqa: F401  (registers the claims)
    from moetheory.engine.registry import get_claim
    out = get_claim(claim_id).check(CheckContext(claim_id, seed=0))
    plan = out.evidence["design"]["plan"]
    assert plan["pilot_replicates"] == _power.BUDGETS[claim_id]["quick"][0]
    assert plan["floor"] <= plan["replicates"] <= plan["budget"]
    assert "Replicates:" in (out.derivation or "")


def test_plan_type() -> None:
    assert isinstance(_power.plan(CheckContext("x", seed=0), "j91.specialization", [], 0), Plan)
