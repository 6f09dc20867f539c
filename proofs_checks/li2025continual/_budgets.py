"""The continual-learning checks' budgets: replicates per claim and profile (issue 32).

A statistical check of the simulator runs a *pilot* (its floor of replicates, on a stream of
its own, judged with the shipped claimed values and recorded nowhere), sizes the main run
from the pilot's comparisons, and runs ``n = clip(needed, floor, budget)`` replicates on its
own seed (the floor again when the pilot asks for more than four budgets: the budget would
most likely not decide either); the pilot never enters a verdict. That scaffold is
:func:`moetheory.stats.sized_run`, with a fresh second look for the checks that have two
(:class:`moetheory.stats.Looks`); this module keeps the data it is given: the budget of each
claim and profile (:data:`BUDGETS`), fixed from the CPU seconds a replicate costs on the
reference machine, so the same master seed gives the same verdict anywhere, and which runs
several checks share (:data:`SHARED`). :func:`allowance` reads them for a check.
"""

from __future__ import annotations

from moetheory import CheckContext
from moetheory.stats import Allowance

__all__ = ["BUDGETS", "SHARED", "allowance"]


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
#: [0, 1] cannot exclude a mean of 0.95 at level α before 0.95^n < α). ``"wide"``: the σ0
#: grid's runs without termination extended down to σ0 = 0.0125 (``cl.prop2.t1-gaps``,
#: ``cl.prop2.m-lt-n``): the replicates of ``"grid"`` (the shared points' batches are the
#: grid checks'), its seconds plus the low points' (at most 0.7 s in the quick profile, the
#: M < N runs through t2 = 1197 rounds; 2.3 s in the full one). The full budget of ``"grid"``
#: and ``"wide"`` is 1536 replicates (the floor times 32; their seconds scaled from the 240
#: measured): at 240 (3.2 s) a look of cl.lemma13.softmax-order that asked for 586 did not run.
#: ``cl.more-experts.m-lt-n`` (issue 46): a pilot of 16 asked for 96 where its run asked for
#: ~320 (its late-G comparison at M = 5 vs 10 straddles the tolerance), so the quick profile
#: left it open on every seed; its floor is 256 pairs (an independent paired design decided
#: it with 240), its pilot 48, and the quick budget 384 (about 8 CPU s for the whole check:
#: the M < N runs of both quick readings and the five flag readings).
BUDGETS: dict[str, dict[str, tuple[int, int, int, float]]] = {
    "cl.more-experts": {"quick": (10, 10, 80, 2.0), "full": (50, 100, 400, 12.6)},
    "cl.more-experts.m-lt-n": {"quick": (48, 256, 384, 3.8), "full": (48, 256, 960, 9.5)},
    "cl.aux-loss.necessary": {"quick": (32, 32, 512, 0.1), "full": (96, 96, 2048, 0.5)},
    "cl.lemma8.exploration-balance": {"quick": (16, 32, 256, 0.6),
                                      "full": (48, 96, 1024, 2.4)},
    "grid": {"quick": (8, 16, 64, 0.9), "full": (24, 48, 1536, 20.5)},
    "phase": {"quick": (8, 16, 512, 0.8), "full": (24, 48, 1024, 1.6)},
    "wide": {"quick": (8, 16, 64, 1.6), "full": (24, 48, 1536, 35.2)},
}


#: Budgets of runs several checks share: their sizes are rounded up to the floor times a
#: power of 2 (within the budget), so that checks asking for similar sizes share one run.
SHARED = frozenset({"grid", "phase", "wide"})


def allowance(ctx: CheckContext, key: str) -> Allowance:
    """The replicates of ``key`` (:data:`BUDGETS`) in the context's profile; a shared run's
    sizes double from the floor (:data:`SHARED`).

    Examples
    --------
    >>> a = allowance(CheckContext("cl.x", seed=0), "grid")
    >>> a.pilot, a.floor, a.budget, a.doubling
    (8, 16, 64, True)
    """
    return Allowance.of(BUDGETS, key, ctx.profile, doubling=key in SHARED)
