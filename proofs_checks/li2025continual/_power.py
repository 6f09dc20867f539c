"""Replicates sized from a pilot (issue 32): the n a claim's tolerance needs at its α.

The rule and the sizing are generic (:mod:`moetheory.stats._power`, re-exported here); this
module keeps the continual-learning checks' budgets (:data:`BUDGETS`).

A statistical check of the simulator used to run a fixed number of replicates per profile, and
a claim could stay ``inconclusive`` for want of replicates its CPU budget could have paid for.
Here a check first runs a *pilot* (its floor of replicates, on a stream of its own, judged with
the shipped claimed values and recorded nowhere), sizes the main run from the pilot's
comparisons (:func:`needed_factor`, :func:`spec_factor`), and runs
``n = clip(needed, floor, budget)`` replicates on its own seed (the floor again when the pilot
asks for more than four budgets: the budget would most likely not decide either); the pilot
never enters a verdict. The budget is a number of replicates per claim and profile
(:data:`BUDGETS`), fixed from the CPU seconds a replicate costs on the reference machine, so
the same master seed gives the same verdict anywhere. The evidence records the
plan (:meth:`Plan.evidence`) and says, when the verdict is ``inconclusive`` and the pilot asked
for more than the budget, that the budget and not the mathematics left it open.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from moetheory import CheckContext
from moetheory.stats import Comparison
from moetheory.stats._power import (
    BETTING_LIMIT,
    POWER,
    Plan,
    Spec,
    comparison_factor,
    decide_all,
    needed_factor,
    power_note,
    spec_factor,
    specs_factor,
)
from moetheory.stats._power import clip_replicates as _replicates

__all__ = [
    "BETTING_LIMIT",
    "BUDGETS",
    "POWER",
    "SHARED",
    "Plan",
    "Spec",
    "comparison_factor",
    "decide_all",
    "needed_factor",
    "pilot_size",
    "plan_from_specs",
    "plan_replicates",
    "power_note",
    "spec_factor",
    "specs_factor",
]


#: Per claim and profile: (pilot, floor, budget) replicates and the CPU seconds the budget's
#: simulations took on the reference machine (2-core x86-64, one BLAS thread, measured for
#: the primary reading with its flag readings stacked: Figure 2's setting with M in
#: {10, 20, 40} at T = 2000; the M < N regime at T = 300; the exploration ablation at
#: T = T1 + 1; the σ0 grid's runs with every record, per reading). The floor is the
#: profile's former fixed size; the quick budgets keep the quick profile of the whole
#: catalogue within its 90 s on 2 cores. ``"grid"``: the σ0 grid and the M < N regime that the
#: grid checks share (their pilot runs are shared too); ``"phase"``: the σ0 grid's exploration
#: phase alone (rounds up to T1 + 1, a fraction of a grid run's cost), shared by the checks
#: that read only those rounds, whose comparisons of a share against 1 at tolerance 0.05 need
#: a few hundred replicates at the Bonferroni levels (an all-ones sample of n values in
#: [0, 1] cannot exclude a mean of 0.95 at level α before 0.95^n < α).
BUDGETS: dict[str, dict[str, tuple[int, int, int, float]]] = {
    "cl.more-experts": {"quick": (10, 10, 40, 1.0), "full": (50, 100, 400, 12.6)},
    "cl.more-experts.m-lt-n": {"quick": (16, 16, 128, 1.0), "full": (48, 48, 480, 3.6)},
    "cl.aux-loss.necessary": {"quick": (32, 32, 512, 0.1), "full": (96, 96, 2048, 0.5)},
    "cl.lemma8.exploration-balance": {"quick": (16, 32, 256, 0.6),
                                      "full": (48, 96, 1024, 2.4)},
    "grid": {"quick": (8, 16, 64, 0.9), "full": (24, 48, 240, 3.2)},
    "phase": {"quick": (8, 16, 512, 0.8), "full": (24, 48, 1024, 1.6)},
}


#: Budgets of runs several checks share: their sizes are rounded up to the floor times a
#: power of 2 (within the budget), so that checks asking for similar sizes share one run.
SHARED = frozenset({"grid", "phase"})


def pilot_size(ctx: CheckContext, key: str) -> int:
    """The pilot's replicates for ``key`` (:data:`BUDGETS`) in the context's profile.

    Examples
    --------
    >>> pilot_size(CheckContext("cl.x", seed=0), "grid")
    8
    """
    return BUDGETS[key][ctx.profile][0]


def plan_replicates(
    ctx: CheckContext,
    key: str,
    pilot_comps: Sequence[Comparison],
    pilot_seed: int,
) -> Plan:
    """The plan of a reading from its pilot's comparisons, within the budget of ``key``.

    Parameters
    ----------
    ctx : CheckContext
        Gives the profile.
    key : str
        Key of :data:`BUDGETS` (a claim ID, or ``"grid"`` for the shared σ0 grid).
    pilot_comps : sequence of Comparison
        The pilot's comparisons of the reading (run at the floor).
    pilot_seed : int
        The pilot's simulator seed (recorded).

    Returns
    -------
    Plan
        With ``n`` the replicates to run.

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> c = compare("x", MeanEstimate(0.0, -0.2, 0.2, 16, 0.95), 0.0, 0.1)
    >>> p = plan_replicates(CheckContext("cl.x", seed=0), "grid", [c], 1)
    >>> p.needed, p.n, p.budget_limited
    (88, 64, True)
    """
    pilot, floor, budget, seconds = BUDGETS[key][ctx.profile]
    factor = needed_factor(pilot_comps)
    if factor is None or math.isinf(factor):  # not sizable, or beyond the betting search
        needed = None
    else:
        needed = max(2, math.ceil(pilot * factor))
    n = _replicates(needed, floor, budget)
    if key in SHARED and n > floor:  # shared runs: round up to floor · 2^k, so checks share
        n = min(budget, floor * 2 ** math.ceil(math.log2(n / floor)))
    searched = pilot * BETTING_LIMIT if factor is not None and math.isinf(factor) else None
    return Plan(pilot, pilot_seed, needed, floor, budget, n, seconds, ctx.profile,
                searched=searched)


def plan_from_specs(ctx: CheckContext, key: str, specs: Sequence[Spec | Comparison],
                    alpha: float,
                    pilot_seed: int) -> Plan:
    """The plan of a reading from its pilot's specs (:func:`specs_factor`), within the
    budget of ``key`` (searched up to 4 budgets)."""
    pilot, floor, budget, seconds = BUDGETS[key][ctx.profile]
    factor = specs_factor(specs, alpha, limit=4 * budget / pilot)
    if factor is None:
        needed: int | None = None
    elif math.isinf(factor):
        needed = None
    else:
        needed = max(2, math.ceil(pilot * factor))
    n = _replicates(needed, floor, budget)
    return Plan(pilot, pilot_seed, needed, floor, budget, n, seconds, ctx.profile,
                searched=math.floor(4 * budget))
