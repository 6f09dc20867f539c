"""Issue 46 item 6: the one scaffold of a sized check (:mod:`moetheory.stats._design`).

A check states its budgets and its pilot; :func:`moetheory.stats.sized_run` plans it (pilot
-> size -> looks). These tests pin what every check relies on, on small synthetic
comparisons (no simulation).
"""

from __future__ import annotations

import numpy as np
import pytest

from moetheory import Verdict
from moetheory.stats import (
    SECOND_LOOK,
    Allowance,
    MeanEstimate,
    Plan,
    Spec,
    claimed_values,
    compare,
    plan_from_pilot,
    power_note,
    sized_run,
)


def _comp(half: float, n: int) -> list:
    """One equivalence comparison (tolerance 0.1) whose interval has half-width ``half``."""
    return [compare("x", MeanEstimate(0.0, -half, half, n, 0.95), 0.0, 0.1)]


@pytest.mark.parametrize("fields", [(0, 16, 64), (8, 0, 64), (8, 65, 64)])
def test_an_allowance_out_of_range_is_refused(fields: tuple[int, int, int]) -> None:
    with pytest.raises(ValueError, match="pilot and multiple must be >= 1"):
        Allowance(*fields, 1.0, "quick")


def test_sizes_are_clipped_then_rounded_within_the_budget() -> None:
    shared = Allowance(8, 16, 64, 1.0, "quick", doubling=True)
    assert [shared.rounded(n) for n in (None, 5, 16, 17, 33, 64, 300)] == [
        16, 16, 16, 32, 64, 64, 16]  # beyond four budgets: the floor
    chunked = Allowance(5, 5, 20, 1.0, "quick", multiple=5)
    assert [chunked.rounded(n) for n in (6, 11, 20)] == [10, 15, 20]


def test_the_plan_is_the_pilot_plan_rounded() -> None:
    comps = _comp(0.2, 8)
    plan = Allowance(8, 16, 64, 1.0, "quick", doubling=True).plan(comps, 3)
    general = plan_from_pilot(comps, pilot=8, floor=16, budget=64, budget_seconds=1.0,
                              profile="quick", pilot_seed=3)
    assert general.needed == plan.needed == 88 and general.n == 64 == plan.n
    comps = _comp(0.1, 8)  # asks for fewer than the budget: doubled from the floor
    plan = Allowance(8, 16, 64, 1.0, "quick", doubling=True).plan(comps, 3)
    general = plan_from_pilot(comps, pilot=8, floor=16, budget=64, budget_seconds=1.0,
                              profile="quick", pilot_seed=3)
    assert plan.needed == general.needed == general.n and 16 < general.n < 32
    assert plan.n == 32
    assert plan.evidence()["pilot_seed"] == 3


@pytest.mark.parametrize("half", [0.05, 0.1, 0.15, 0.2, 0.5])
@pytest.mark.parametrize(("multiple", "doubling"), [(1, False), (4, False), (1, True), (3, True)])
def test_an_allowance_plans_as_plan_from_pilot(half: float, multiple: int, doubling: bool) -> None:
    # one sizing for both: the allowance's plan is plan_from_pilot's with its rounding
    allowance = Allowance(8, 12, 64, 1.0, "quick", multiple=multiple, doubling=doubling)
    plan = allowance.plan(_comp(half, 8), 3)
    general = plan_from_pilot(_comp(half, 8), pilot=8, floor=12, budget=64, budget_seconds=1.0,
                              profile="quick", pilot_seed=3, multiple=multiple,
                              doubling=doubling)
    assert plan == general and plan.n == allowance.rounded(plan.needed)


def test_the_pilot_is_judged_with_the_shipped_values() -> None:
    # a calibration variant moving every claimed value must not move the plan
    seen: list[Verdict] = []

    def pilot(n: int) -> tuple[list, int]:
        comps = _comp(0.01, n)
        seen.append(comps[0].verdict)
        return comps, 7

    allowance = Allowance(8, 16, 64, 1.0, "quick")
    with claimed_values(lambda rule, label, value, tol: value + 5.0):
        sizing = sized_run(allowance, pilot)
        moved = _comp(0.01, 8)[0].verdict
    assert seen == [Verdict.SUPPORTED] and moved is Verdict.UNSUPPORTED
    assert sizing.plan.pilot_seed == 7 and sizing.looks is None and sizing.offset == 0


def test_specs_are_sized_at_the_level_given() -> None:
    x = np.random.default_rng(0).standard_normal(32) + 0.3
    sizing = sized_run(Allowance(32, 32, 512, 1.0, "quick"),
                       lambda n: ([Spec("d", "greater", x[:n], 0.0)], 1), alpha=1e-3)
    assert sizing.plan.searched == 4 * 512
    needed = sizing.plan.needed
    assert needed is not None and 32 < needed and sizing.n == min(512, needed)


def test_an_open_first_look_is_followed_by_a_fresh_second_look() -> None:
    firsts: list[int] = []

    def first(n: int) -> tuple[list, int]:
        firsts.append(n)
        return _comp(0.15, n), 5

    sizing = sized_run(Allowance(16, 32, 256, 0.6, "quick"), lambda n: (_comp(0.01, n), 4),
                       first=first)
    assert firsts == [sizing.plan.n] == [32]
    assert sizing.looks is not None and sizing.looks.ran
    assert (sizing.n, sizing.offset) == (sizing.looks.final[0], SECOND_LOOK)
    final = _comp(0.01, sizing.n)
    ev = sizing.evidence(Verdict.SUPPORTED, final)
    assert set(ev) == {"power", "replicates", "looks"} and ev["replicates"] == sizing.n
    assert ev["power"]["replicates"] == 32  # the plan is the first look's
    note = sizing.note(Verdict.SUPPORTED, final)
    assert note.startswith("First look: " + power_note(sizing.plan, Verdict.INCONCLUSIVE,
                                                       list(sizing.first)))
    assert "a fresh run of" in note


def test_a_decided_first_look_decides() -> None:
    sizing = sized_run(Allowance(16, 32, 256, 0.6, "quick"), lambda n: (_comp(0.01, n), 4),
                       first=lambda n: (_comp(0.01, n), 5))
    assert sizing.looks is not None and not sizing.looks.ran
    assert (sizing.n, sizing.offset) == (32, 0)


@pytest.mark.parametrize("needed, searched", [(None, 1536), (7000, None)])
def test_a_run_left_at_its_floor_is_not_said_to_be_what_the_budget_allows(
        needed: int | None, searched: int | None) -> None:
    # issue 46 (cl.router.within-cluster, full profile): the pilot asked for more than 1536
    # replicates, the run kept its floor of 48, and the note said the budget "allows 48"
    plan = Plan(24, 1, needed, 48, 1536, 48, 20.5, "full", searched=searched)
    note = power_note(plan, Verdict.INCONCLUSIVE)
    assert "allows 48" not in note
    assert "ran its floor of 48" in note and "1536 replicates" in note
    clipped = Plan(24, 1, 2000, 48, 1536, 1536, 20.5, "full")  # within four budgets
    assert "allows 1536." in power_note(clipped, Verdict.INCONCLUSIVE)
