"""The one scaffold of a sized statistical check: pilot, size, looks (issues 32 and 46).

A check states its design: its budgets (an :class:`Allowance` per claim and profile, read
from the check's own table), a pilot (its comparisons from ``n`` replicates on a stream of its
own) and, with two looks, a first look. :func:`sized_run` runs the pilot with the shipped
claimed values (it decides nothing and is recorded nowhere), sizes the main run from it
(:meth:`Allowance.plan`, :meth:`Allowance.plan_specs`) and, with two looks, judges the
pilot-sized first look and plans a fresh second one (:meth:`Allowance.second_look`,
:class:`Looks`). The :class:`Sizing` it returns says which run decides (replicates and seed
offset), and puts the plan and the looks in the evidence and in words.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from moetheory.engine.verdicts import Verdict
from moetheory.stats._power import (
    Plan,
    Spec,
    _asked,
    _asked_by,
    _run_size,
    plan_from_pilot,
    power_note,
    specs_factor,
)
from moetheory.stats._readings import ReadingData
from moetheory.stats._rules import Comparison, claimed_values, combine

__all__ = [
    "LOOKS",
    "SECOND_LOOK",
    "Allowance",
    "Budgets",
    "Looks",
    "Sizing",
    "sized_reading",
    "sized_run",
]

#: A check's runs of one size (what :func:`sized_reading` hands from ``run`` to ``judge``).
Runs = TypeVar("Runs")

#: A check's budgets: per claim (or shared run) and profile, (pilot, floor, budget)
#: replicates and the CPU seconds the budget stands for on the reference machine.
Budgets = Mapping[str, Mapping[str, tuple[int, int, int, float]]]

#: Looks of a check with a second look (:class:`Looks`), fixed in advance: each is judged at
#: the check's level over ``LOOKS`` (Bonferroni).
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
        (:func:`~moetheory.stats.needed_factor`); ``None`` when it decided or could not size.
    budget : int
        Most replicates of one look.
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

    See Also
    --------
    Allowance.second_look : builds it.

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
        asked = _asked_by(comps, self.final[0])
        return "not sizable" if asked is None else asked

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


@dataclass(frozen=True)
class Allowance:
    """A check's replicates in one profile, and how its runs are sized within them.

    Attributes
    ----------
    pilot, floor, budget : int
        Replicates of the pilot, fewest and most of a run (``1 <= pilot``, ``1 <= floor <=
        budget``).
    seconds : float
        CPU seconds the budget stands for on the reference machine.
    profile : str
        The profile.
    multiple : int
        A run's size is rounded up to a multiple of it (checks sharing a simulation in
        chunks share whole chunks).
    doubling : bool
        A run larger than the floor is rounded up to the floor times a power of 2 (checks
        sharing a run in doubling batches, asking for similar sizes, share one run).

    Raises
    ------
    ValueError
        If ``pilot`` or ``multiple`` is below 1, or ``floor`` is not in ``[1, budget]``.

    Notes
    -----
    A check keeps its budgets as data (a table by claim and profile, :data:`Budgets`) and
    reads its allowance with :meth:`of`; the sizing itself is the same for every check.

    See Also
    --------
    sized_run : plans a run within it.

    Examples
    --------
    >>> a = Allowance.of({"x": {"quick": (8, 16, 64, 0.9)}}, "x", "quick", doubling=True)
    >>> a.pilot, a.budget, a.rounded(20), a.rounded(8), a.rounded(None)
    (8, 64, 32, 16, 16)
    """

    pilot: int
    floor: int
    budget: int
    seconds: float
    profile: str
    multiple: int = 1
    doubling: bool = False

    def __post_init__(self) -> None:
        if self.pilot < 1 or not 1 <= self.floor <= self.budget or self.multiple < 1:
            raise ValueError("pilot and multiple must be >= 1 and floor in [1, budget], got "
                             f"pilot={self.pilot}, floor={self.floor}, budget={self.budget}, "
                             f"multiple={self.multiple}")

    @classmethod
    def of(cls, budgets: Budgets, key: str, profile: str, *, multiple: int = 1,
           doubling: bool = False) -> Allowance:
        """The allowance of ``key`` in ``profile`` from a check's table ``budgets``.

        Raises
        ------
        KeyError
            If the table has no such key or profile.
        """
        pilot, floor, budget, seconds = budgets[key][profile]
        return cls(pilot, floor, budget, seconds, profile, multiple, doubling)

    def rounded(self, needed: int | None) -> int:
        """The replicates to run for ``needed``: clipped to ``[floor, budget]`` (the floor
        when ``needed`` is ``None`` or more than four budgets:
        :func:`~moetheory.stats.clip_replicates`), then rounded up (:attr:`multiple`,
        :attr:`doubling`) within the budget."""
        return _run_size(needed, self.floor, self.budget, self.multiple, self.doubling)

    def plan(self, pilot_comps: Sequence[Comparison], pilot_seed: int) -> Plan:
        """The plan of a run from its pilot's comparisons
        (:func:`~moetheory.stats.plan_from_pilot`), rounded as :meth:`rounded` says."""
        return plan_from_pilot(pilot_comps, pilot=self.pilot, floor=self.floor,
                               budget=self.budget, budget_seconds=self.seconds,
                               profile=self.profile, pilot_seed=pilot_seed,
                               multiple=self.multiple, doubling=self.doubling)

    def plan_specs(self, specs: Sequence[Spec | Comparison], alpha: float,
                   pilot_seed: int) -> Plan:
        """The plan of a run from its pilot's specs decided at ``alpha``
        (:func:`~moetheory.stats.specs_factor`, searched up to 4 budgets)."""
        needed = _asked(self.pilot, specs_factor(specs, alpha,
                                                 limit=4 * self.budget / self.pilot))
        return Plan(self.pilot, pilot_seed, needed, self.floor, self.budget,
                    self.rounded(needed),
                    self.seconds, self.profile, searched=math.floor(4 * self.budget))

    def second_look(self, first: Sequence[Comparison], n: int, seed: int) -> Looks:
        """The looks of a reading whose first look (``n`` replicates on ``seed``) made the
        comparisons ``first``, judged with the shipped claimed values.

        Examples
        --------
        >>> from moetheory.stats import MeanEstimate, compare
        >>> c = compare("x", MeanEstimate(0.0, -0.15, 0.15, 32, 0.95), 0.0, 0.1)
        >>> lk = Allowance(16, 32, 256, 0.6, "quick").second_look([c], 32, 5)
        >>> lk.first_verdict.value, lk.asked, lk.ran, lk.final
        ('inconclusive', 197, True, (197, 7005))
        """
        verdict = combine([c.verdict for c in first])
        asked = _asked_by(first, n) if verdict is Verdict.INCONCLUSIVE else None
        return Looks(n, seed, verdict, asked, self.budget, self.profile)


@dataclass(frozen=True)
class Sizing:
    """What :func:`sized_run` decided: the plan, and the looks when there are two.

    :attr:`n` and :attr:`offset` name the run that decides; :meth:`evidence` and
    :meth:`note` put the plan and the looks beside that run's verdict.

    Attributes
    ----------
    plan : Plan
        The pilot's plan.
    looks : Looks or None
        The looks (``None``: one look, the plan's run decides).
    first : tuple of Comparison
        The first look's comparisons (empty with one look).

    Notes
    -----
    With two looks the plan is the first look's: its evidence is judged from the first
    look's comparisons, and the deciding run's replicates and the looks stand beside it.

    See Also
    --------
    sized_run : builds it.

    Examples
    --------
    >>> s = Sizing(Plan(8, 1, 30, 16, 64, 32, 0.9, "quick"))
    >>> s.n, s.offset, sorted(s.evidence(Verdict.SUPPORTED, []))
    (32, 0, ['power'])
    """

    plan: Plan
    looks: Looks | None = None
    first: tuple[Comparison, ...] = ()

    @property
    def n(self) -> int:
        """Replicates of the run that decides."""
        return self.plan.n if self.looks is None else self.looks.final[0]

    @property
    def offset(self) -> int:
        """Seed offset of the run that decides from the first look's: :data:`SECOND_LOOK`
        when a second look ran, else 0."""
        return SECOND_LOOK if self.looks is not None and self.looks.ran else 0

    def evidence(self, verdict: Verdict, comps: Sequence[Comparison]) -> dict[str, Any]:
        """The plan (``power``) and, with two looks, the deciding run's replicates and the
        looks, for the deciding run's ``verdict`` and comparisons ``comps``."""
        if self.looks is None:
            return {"power": self.plan.evidence(verdict, comps)}
        return {"power": self.plan.evidence(self.looks.first_verdict, self.first),
                "replicates": self.n, "looks": self.looks.evidence(verdict, comps)}

    def note(self, verdict: Verdict, comps: Sequence[Comparison]) -> str:
        """The plan and the looks in words (:func:`~moetheory.stats.power_note`,
        :meth:`Looks.note`)."""
        if self.looks is None:
            return power_note(self.plan, verdict, comps)
        return (f"First look: {power_note(self.plan, self.looks.first_verdict, self.first)} "
                f"{self.looks.note(verdict, comps)}")


def sized_run(
    allowance: Allowance,
    pilot: Callable[[int], tuple[Sequence[Comparison | Spec], int]],
    *,
    alpha: float | None = None,
    first: Callable[[int], tuple[Sequence[Comparison], int]] | None = None,
) -> Sizing:
    """Pilot, size, looks: the design of a check's run within its allowance.

    Parameters
    ----------
    allowance : Allowance
        The check's replicates in the profile.
    pilot : callable ``n -> (comparisons, seed)``
        The pilot's comparisons from ``n`` replicates on a stream of its own, and its seed
        (recorded); specs when ``alpha`` is given.
    alpha : float, optional
        The level the specs will be decided at (:meth:`Allowance.plan_specs`); ``None``:
        the pilot gives comparisons (:meth:`Allowance.plan`).
    first : callable ``n -> (comparisons, seed)``, optional
        The first look's comparisons from the pilot-sized run, and its seed: two looks
        (:meth:`Allowance.second_look`). ``None``: one look.

    Returns
    -------
    Sizing
        Which run decides (:attr:`Sizing.n`, :attr:`Sizing.offset`), its evidence and words.

    Notes
    -----
    The pilot and the first look are judged with the shipped claimed values
    (:func:`~moetheory.stats.claimed_values` ``(None, None)``): the sizes do not depend on a
    calibration variant, and neither enters a verdict.

    See Also
    --------
    sized_reading : also runs the deciding run and judges it.

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> def pilot(n):
    ...     return [compare("x", MeanEstimate(0.0, -0.2, 0.2, n, 0.95), 0.0, 0.1)], 1
    >>> s = sized_run(Allowance(8, 16, 64, 0.9, "quick"), pilot)
    >>> s.plan.needed, s.n, s.looks is None
    (88, 64, True)
    """
    with claimed_values(None, None):  # the pilot sizes the run; it decides nothing
        comps, pilot_seed = pilot(allowance.pilot)
    if alpha is None:  # comparisons, as the pilot gives them without a level
        plan = allowance.plan(cast(Sequence[Comparison], comps), pilot_seed)
    else:
        plan = allowance.plan_specs(comps, alpha, pilot_seed)
    if first is None:
        return Sizing(plan)
    with claimed_values(None, None):  # the looks' design, like the pilot's: shipped values
        first_comps, seed = first(plan.n)
    return Sizing(plan, allowance.second_look(first_comps, plan.n, seed), tuple(first_comps))


def sized_reading(
    allowance: Allowance,
    run: Callable[[int, int], tuple[Runs, int]],
    judge: Callable[[Runs, int], ReadingData],
    *,
    pilot_offset: int,
    looks: int = 1,
) -> tuple[ReadingData, Sizing, Runs, int]:
    """Pilot, size, looks and the deciding run, judged: one reading of a sized check.

    Parameters
    ----------
    allowance : Allowance
        The check's replicates in the profile.
    run : callable ``(n, offset) -> (runs, seed)``
        The check's runs of ``n`` replicates on its seed moved by ``offset``, and that seed.
    judge : callable ``(runs, seed) -> ReadingData``
        The reading made of those runs.
    pilot_offset : int
        The pilot's seed offset (a stream of its own).
    looks : int
        1, or 2 for a first look and a fresh second one (:meth:`Allowance.second_look`).

    Returns
    -------
    tuple
        The reading of the deciding run, with the plan (and the looks) in its evidence
        (:meth:`Sizing.evidence`) and in words before its derivation (:meth:`Sizing.note`);
        the :class:`Sizing`; the deciding runs and their seed.

    Raises
    ------
    ValueError
        If ``looks`` is not 1 or 2.

    Notes
    -----
    The deciding run is the first look's own when a second look was not needed or not
    affordable (it is not run again); otherwise a fresh run on the seed moved by
    :data:`SECOND_LOOK`.

    See Also
    --------
    sized_run : the plan alone.

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> def judge(n, seed):
    ...     comps = [compare("x", MeanEstimate(0.0, -0.01, 0.01, n, 0.95), 0.0, 0.1)]
    ...     return ("r", comps, {"simulator_seed": seed}, "")
    >>> data, sizing, n, seed = sized_reading(Allowance(8, 16, 64, 0.9, "quick"),
    ...                                       lambda n, offset: (n, 100 + offset), judge,
    ...                                       pilot_offset=500)
    >>> n, seed, data[2]["power"]["pilot_seed"], data[2]["power"]["replicates"]
    (16, 100, 600, 16)
    """
    if looks not in (1, 2):
        raise ValueError(f"looks must be 1 or 2, got {looks}")
    last: list[tuple[Runs, int]] = []  # the runs judged last, and their seed

    def judged(n: int, offset: int = 0) -> tuple[list[Comparison], int]:
        last[:] = [run(n, offset)]
        return list(judge(*last[0])[1]), last[0][1]

    sizing = sized_run(allowance, lambda n: judged(n, pilot_offset),
                       first=judged if looks > 1 else None)
    if sizing.looks is not None and not sizing.looks.ran:
        runs, seed = last[0]  # the first look decides
    else:
        runs, seed = run(sizing.n, sizing.offset)
    name, comps, ev, deriv = judge(runs, seed)
    verdict = combine([c.verdict for c in comps])
    return ((name, comps, dict(ev, **sizing.evidence(verdict, comps)),
             f"{sizing.note(verdict, comps)}\n\n{deriv}"), sizing, runs, seed)
