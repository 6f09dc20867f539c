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


def test_factor_is_consistent_with_the_noncentral_t_power() -> None:
    from scipy import stats as sps
    rng = np.random.default_rng(3)
    for _ in range(20):
        x = rng.normal(rng.uniform(0.2, 1.0), rng.uniform(0.05, 0.5), size=int(rng.integers(4, 12)))
        est = mean_ci(x, 1e-3)
        f, side = comparison_factor(greater("x", est, 0.0, 0.05))
        assert side == "supported"
        n, a2 = f * x.size, 5e-4
        if n <= 2:
            continue
        sd = x.std(ddof=1)
        power = sps.nct.sf(sps.t.ppf(1 - a2, n - 1), n - 1, est.mean * np.sqrt(n) / sd)
        assert power == pytest.approx(0.9, abs=1e-6)


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
    allowance = _power.allowance(CheckContext("x", seed=0), "j91.specialization")
    assert isinstance(allowance.plan([], 0), Plan)


@pytest.mark.parametrize(("n0", "ratio"), [(10, 20.0), (20, 8.0), (8, 12.0), (5, 8.0)])
def test_a_t_sized_run_is_decided_with_the_power_it_was_sized_for(n0: int, ratio: float) -> None:
    # a pilot of n0 normal values (mean `ratio` standard deviations above 0) against
    # `greater 0` at a Bonferroni-small level; run at the planned n on the same
    # distribution, the interval must clear 0 with about the power aimed for (0.9). The
    # normal-quantile sizing ignored the randomness of the sample deviation, which at
    # 3-5 replicates and a Student quantile above 10 decides most of the power: it planned
    # n = 3, 4, 4, 5 replicates, decided in 21%, 33%, 68%, 88% of runs.
    from scipy import stats as sps

    from moetheory.stats._power import POWER
    alpha = 2e-4
    pilot = sps.norm.ppf((np.arange(n0) + 0.5) / n0)
    pilot = ratio + pilot / pilot.std(ddof=1)
    plan = plan_from_pilot([greater("x", mean_ci(pilot, alpha), 0.0)], pilot=n0, floor=2,
                           budget=1000, budget_seconds=1.0, profile="quick", pilot_seed=0)
    rng = np.random.default_rng(0)
    runs = rng.normal(ratio, 1.0, size=(4000, plan.n))
    decided = [greater("x", mean_ci(x, alpha), 0.0).verdict is Verdict.SUPPORTED for x in runs]
    assert np.mean(decided) >= POWER - 0.03
    # and not far beyond it: one replicate fewer is decided less often than aimed for
    fewer = rng.normal(ratio, 1.0, size=(4000, plan.n - 1))
    assert np.mean([greater("x", mean_ci(x, alpha), 0.0).verdict is Verdict.SUPPORTED
                    for x in fewer]) < POWER + 0.03


def test_a_clipped_t_interval_is_sized_by_its_unclipped_side() -> None:
    # clipping to the range shortens one side of a Student interval: the spread is the other
    # side's. A bound inside the range, faced by the clipped side, was sized by the clipped
    # half (0.2 here instead of about 0.5), which under-sized it
    from moetheory.stats import at_most
    x = np.array([0.9, 0.6, 0.95, 0.7, 0.85])
    clipped = mean_ci(x, 1e-3, bounds=(-1.0, 1.0))
    free = mean_ci(x, 1e-3)
    assert clipped.clipped and clipped.high == 1.0 < free.high
    a = comparison_factor(at_most("x", clipped, 0.97))
    b = comparison_factor(at_most("x", free, 0.97))
    assert a is not None and b is not None and a[1] == b[1] == "supported"
    assert a[0] == pytest.approx(b[0])
    # a bound at the range's end: the clipped interval always meets it
    assert comparison_factor(at_most("x", clipped, 1.0))[0] <= 2 / x.size


def test_an_all_successes_pilot_asks_for_the_exact_clopper_pearson_size() -> None:
    # k = n successes: the Clopper-Pearson lower end is (α/2)^(1/n), inside [0.8, 1] from
    # the smallest n with (α/2)^(1/n) >= 0.8 on; the sizing asks for exactly that n, not
    # the next size of its 1.25-ratio grid (45 from a pilot of 6, 47 from 5, 48 from 10)
    from moetheory.stats import compare, proportion_ci
    alpha = 8.62e-4 / 6
    exact = next(n for n in range(2, 200)
                 if compare("p", proportion_ci(n, n, alpha), 1.0, 0.2).verdict.value
                 == "supported")
    assert exact == 43
    for n0 in (3, 5, 6, 10):
        comps = [compare(f"k={k}", proportion_ci(n0, n0, alpha), 1.0, 0.2) for k in (4, 8)]
        plan = plan_from_pilot(comps, pilot=n0, floor=n0, budget=45, budget_seconds=12.0,
                               profile="quick", pilot_seed=0)
        assert (plan.needed, plan.n) == (exact, exact)


def test_specialization_plans_size_the_clopper_pearson_requirement() -> None:
    # a pilot of all successes asks for the 43 replicates the claim's proportions need at
    # its level: the full profile runs them (its floor, 50), the quick profile exactly them
    # (its budget, issue 46 (b): the primary reading's runs only, made cheaper)
    from moetheory.engine.registry import get_claim, load_checks
    from moetheory.engine.runner import RunSettings, claim_context
    from moetheory.stats import compare, proportion_ci
    load_checks()
    assert get_claim("j91.specialization").kind == "statistical"
    for profile, n in (("quick", 43), ("full", 50)):
        ctx = claim_context("j91.specialization", RunSettings(seed=0, profile=profile))
        pilot, floor, budget, _ = _power.BUDGETS["j91.specialization"][profile]
        a = ctx.alpha / 6
        comps = [compare(f"k={k}", proportion_ci(pilot, pilot, a), 1.0, 0.2) for k in (4, 8)]
        plan = _power.allowance(ctx, "j91.specialization").plan(comps, 0)
        assert pilot > 0 and plan.needed == 43 and plan.n == n
        # a pilot with a failure asks for more: beyond four budgets (or no size decides it:
        # 5/6 against the band's edge 0.8) the floor, else the budget
        comps[0] = compare("k=4", proportion_ci(pilot - 1, pilot, a), 1.0, 0.2)
        assert _power.allowance(ctx, "j91.specialization").plan(comps, 0).n == (
            floor if profile == "quick" else budget)


@pytest.mark.slow
def test_quick_profile_decides_specialization_at_seed_0() -> None:
    # issue 46 (b): the quick profile runs the 43 replicates its primary reading needs (the
    # loss-1.1 runs beside it at the floor), so the claim is decided, not left open
    from moetheory.engine.registry import get_claim, load_checks
    from moetheory.engine.runner import RunSettings, claim_context
    load_checks()
    ctx = claim_context("j91.specialization", RunSettings(seed=0, profile="quick"))
    out = get_claim("j91.specialization").check(ctx)
    assert out.verdict is not Verdict.INCONCLUSIVE, out.summary
    plan = out.evidence["design"]["plan"]
    assert plan["replicates"] == plan["needed_replicates"] == 43


def test_specialization_runs_the_primary_at_the_plan_and_loss_11_at_the_floor(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the budget pays for the primary reading's decisive size (loss 1.3, read by the
    # mean-gate and peak-gate readings); the loss-1.1 runs beside it stay at the floor
    import proofs_checks.jacobs1991adaptive.vowels as vowels
    from moetheory.jacobs.training import TrainResult
    calls: list[tuple[int, str, int]] = []

    def fake(k, name, rngs, epochs, lr, threshold):
        calls.append((k, name, len(rngs)))
        m = np.array([0.5, 0.5] + [0.0] * (k - 2))
        return [TrainResult(k, name, m, m, 2, 2, 1.0, 1.0, 0.0) for _ in rngs]

    monkeypatch.setattr(vowels, "run_specialization_many", fake)
    out = vowels.check_specialization(CheckContext("j91.specialization", seed=0))
    pilot, floor = _power.BUDGETS["j91.specialization"]["quick"][:2]
    assert calls == [(4, "1.3", pilot), (8, "1.3", pilot), (4, "1.3", 43), (8, "1.3", 43),
                     (4, "1.1", floor), (8, "1.1", floor)]
    assert out.verdict is Verdict.SUPPORTED
    assert out.evidence["design"]["seeds"] == {"loss 1.3": 43, "loss 1.1": floor}
    side = next(r for r in out.readings if r.name == "loss-1.1/mean-gate")
    assert side.verdict is Verdict.INCONCLUSIVE and side.evidence["seeds"] == floor
