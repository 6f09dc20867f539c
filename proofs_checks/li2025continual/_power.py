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
from dataclasses import dataclass
from typing import Any

from moetheory import CheckContext, Verdict
from moetheory.stats import Comparison, combine
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
    "LOOKS",
    "POWER",
    "SECOND_LOOK",
    "SHARED",
    "Looks",
    "Plan",
    "Spec",
    "comparison_factor",
    "decide_all",
    "needed_factor",
    "pilot_size",
    "plan_from_specs",
    "plan_replicates",
    "power_note",
    "second_look",
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


#: Looks of a check with a second look (:func:`second_look`), fixed in advance: each is
#: judged at the check's level over ``LOOKS`` (Bonferroni).
LOOKS = 2
#: Offset of the second look's simulator seed from the first look's: a fresh run.
SECOND_LOOK = 7000


@dataclass(frozen=True)
class Looks:
    """The looks of one reading: the pilot-sized run and, maybe, a fresh second run.

    Attributes
    ----------
    first_n, first_seed : int
        Replicates and simulator seed of the first look (the pilot-sized run).
    first_verdict : Verdict
        The first look's verdict, judged with the shipped claimed values.
    asked : int or None
        Replicates the first look's own intervals ask for when it is ``inconclusive``
        (:func:`needed_factor`); ``None`` when it decided or could not size.
    budget : int
        Most replicates of one look (:data:`BUDGETS`).
    profile : str
        The profile the budget belongs to.

    Notes
    -----
    The second look runs when the first is ``inconclusive`` and asks for at most the budget:
    ``max(asked, first_n)`` replicates on seed ``first_seed +`` :data:`SECOND_LOOK`. Its data
    are independent of the first look's and its size depends on them only, so each look's
    intervals keep their level given the sizes, and the union bound over the two looks
    (each at the level over :data:`LOOKS`) keeps the check's. The design, like the pilot's,
    is judged with the shipped claimed values: calibration's variants judge the same final
    look again.

    Examples
    --------
    >>> lk = Looks(60, 1, Verdict.INCONCLUSIVE, 138, 256, "quick")
    >>> lk.ran, lk.final
    (True, (138, 7001))
    >>> Looks(60, 1, Verdict.INCONCLUSIVE, 900, 256, "quick").final
    (60, 1)
    """

    first_n: int
    first_seed: int
    first_verdict: Verdict
    asked: int | None
    budget: int
    profile: str

    @property
    def ran(self) -> bool:
        """Whether the second look ran."""
        return self.asked is not None and self.asked <= self.budget

    @property
    def final(self) -> tuple[int, int]:
        """Replicates and simulator seed of the look that gives the verdict."""
        if self.ran:
            assert self.asked is not None
            return max(self.asked, self.first_n), self.first_seed + SECOND_LOOK
        return self.first_n, self.first_seed

    def _second_text(self) -> str:
        if self.ran:
            n, seed = self.final
            return f"a fresh run of {n} replicates (simulator seed {seed})"
        if self.first_verdict is not Verdict.INCONCLUSIVE:
            return "not needed (the first look decided)"
        if self.asked is None:
            return "not run (the first look could not size a decision)"
        return (f"not run (the first look asks for {self.asked} replicates, more than the "
                f"{self.profile} budget of {self.budget} per look)")

    def evidence(self, verdict: Verdict, comps: Sequence[Comparison]) -> dict[str, Any]:
        """The looks as evidence (JSON-ready), with the final look's ``verdict``; for an
        ``inconclusive`` one, what its own intervals ``comps`` ask for."""
        out: dict[str, Any] = {
            "rule": f"{LOOKS} looks fixed in advance, each at the level over {LOOKS} "
                    "(Bonferroni): the pilot-sized run, then, if it is inconclusive and its "
                    "own intervals ask for at most the budget, a fresh run of that size "
                    "(seed + 7000); looks judged with the shipped claimed values, like the "
                    "pilot",
            "first": {"replicates": self.first_n, "simulator_seed": self.first_seed,
                      "verdict": self.first_verdict.value, "asks_for": self.asked},
            "second": self._second_text(), "budget_per_look": self.budget,
            "final_verdict": verdict.value,
        }
        if verdict is Verdict.INCONCLUSIVE:
            out["final_look_asks_for"] = self._asks(comps)
        return out

    def _asks(self, comps: Sequence[Comparison]) -> int | str:
        factor = needed_factor(comps) if comps else None
        if factor is None or not math.isfinite(factor):
            return "not sizable"
        return max(2, math.ceil(self.final[0] * factor))

    def note(self, verdict: Verdict, comps: Sequence[Comparison]) -> str:
        """The looks in words, and, for an ``inconclusive`` final ``verdict``, what would
        decide it (from the final look's own intervals ``comps``)."""
        text = (f"Looks ({LOOKS}, fixed in advance, each at the level over {LOOKS}): the first "
                f"ran {self.first_n} replicates ({self.first_verdict.value}); second: "
                f"{self._second_text()}")
        if self.ran:
            text += f" ({verdict.value})"
        text += "."
        if verdict is not Verdict.INCONCLUSIVE or not self.ran:
            return text
        asks = self._asks(comps)
        if isinstance(asks, str):
            return text + " The second look's own intervals could not size a decision."
        if asks <= self.budget:
            return (text + f" The second look's own intervals ask for about {asks} replicates "
                    "(within the budget; the design has no third look).")
        return (text + f" The second look's own intervals ask for about {asks} replicates, "
                f"more than the {self.profile} budget of {self.budget} per look: open for "
                "want of replicates (a larger budget, e.g. the full profile's), not for the "
                "mathematics.")


def second_look(ctx: CheckContext, key: str, first: Sequence[Comparison], n: int,
                seed: int) -> Looks:
    """The looks of a reading whose first look (``n`` replicates on ``seed``) made the
    comparisons ``first``, judged with the shipped claimed values.

    Parameters
    ----------
    ctx : CheckContext
        Gives the profile.
    key : str
        Key of :data:`BUDGETS` (the budget caps each look).
    first : sequence of Comparison
        The first look's comparisons.
    n, seed : int
        The first look's replicates and simulator seed.

    Returns
    -------
    Looks
        With the second look's size when it runs (:attr:`Looks.final`).

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> c = compare("x", MeanEstimate(0.0, -0.15, 0.15, 32, 0.95), 0.0, 0.1)
    >>> lk = second_look(CheckContext("cl.x", seed=0), "cl.lemma8.exploration-balance",
    ...                  [c], 32, 5)
    >>> lk.first_verdict.value, lk.asked, lk.ran, lk.final
    ('inconclusive', 197, True, (197, 7005))
    """
    verdict = combine([c.verdict for c in first])
    asked = None
    if verdict is Verdict.INCONCLUSIVE:
        factor = needed_factor(first)
        if factor is not None and math.isfinite(factor):
            asked = max(2, math.ceil(n * factor))
    return Looks(n, seed, verdict, asked, BUDGETS[key][ctx.profile][2], ctx.profile)
