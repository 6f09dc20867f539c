"""Adaptive replicates: add batches until a statistical claim is decided or its budget is spent.

The rule is group-sequential with Bonferroni spending over a number of looks fixed in
advance: a budget of :math:`K` looks of :math:`B` replicates each builds the intervals of
look :math:`k` (on all :math:`kB` replicates so far) at level :math:`1 - \\alpha/K`. The
probability that any interval at any look misses its true value is then at most
:math:`\\alpha` (union bound), so stopping at the first look where the claim is decided
keeps the error rates of the fixed-:math:`n` rule. Anytime-valid intervals
(:func:`moetheory.stats.betting_ci`) hold at every look at once and keep the full
:math:`\\alpha`.

The profile sets the budget (:meth:`Budget.for_profile`), never a fixed :math:`n`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from moetheory.engine.verdicts import Verdict
from moetheory.stats._rules import Comparison, combine

__all__ = ["RULE", "RULE_MARKDOWN", "Budget", "SequentialResult", "run_sequential"]

#: The design of :func:`run_sequential` as its evidence states it (``"rule"``).
RULE = "group-sequential, Bonferroni over looks: each look at alpha_look"
#: :data:`RULE` as a notebook shows it: the evidence key it names, as code.
RULE_MARKDOWN = "group-sequential, Bonferroni over looks: each look at `alpha_look`"


@dataclass(frozen=True)
class Budget:
    """Replicates per look and the maximum number of looks.

    Parameters
    ----------
    batch : int
        Replicates added at each look, at least 2.
    max_looks : int
        Most looks, at least 1 (fixed in advance: the level is split over them).

    Raises
    ------
    ValueError
        If ``batch < 2`` or ``max_looks < 1`` (or either is not an integer).

    See Also
    --------
    run_sequential : spends the budget.

    Notes
    -----
    At most :math:`K B` replicates (:attr:`max_n`); each look's intervals are built at level
    :math:`1 - \\alpha/K` (:meth:`look_alpha`).

    Examples
    --------
    >>> b = Budget.for_profile("quick", quick=(20, 3), full=(100, 5))
    >>> b.batch, b.max_looks, b.max_n, b.look_alpha(0.003)
    (20, 3, 60, 0.001)
    >>> Budget(0, 3)
    Traceback (most recent call last):
    ...
    ValueError: batch must be an integer >= 2, got 0
    """

    batch: int
    max_looks: int

    def __post_init__(self) -> None:
        if not isinstance(self.batch, int | np.integer) or self.batch < 2:
            raise ValueError(f"batch must be an integer >= 2, got {self.batch}")
        if not isinstance(self.max_looks, int | np.integer) or self.max_looks < 1:
            raise ValueError(f"max_looks must be an integer >= 1, got {self.max_looks}")

    @classmethod
    def for_profile(
        cls, profile: str, quick: tuple[int, int], full: tuple[int, int]
    ) -> Budget:
        """The budget ``(batch, max_looks)`` of ``profile``.

        Parameters
        ----------
        profile : {"quick", "full"}
            The run's profile.
        quick, full : tuple of int
            ``(batch, max_looks)`` of each profile.

        Returns
        -------
        Budget
            The chosen profile's budget.

        Raises
        ------
        ValueError
            If ``profile`` is neither ``"quick"`` nor ``"full"``.

        Examples
        --------
        >>> Budget.for_profile("full", quick=(20, 3), full=(100, 5)).max_n
        500
        """
        if profile not in ("quick", "full"):
            raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")
        return cls(*(quick if profile == "quick" else full))

    @property
    def max_n(self) -> int:
        """Replicates if every look is used."""
        return self.batch * self.max_looks

    def look_alpha(self, alpha: float, anytime_valid: bool = False) -> float:
        """Level spent at each look.

        Parameters
        ----------
        alpha : float in (0, 1)
            The claim's error level.
        anytime_valid : bool
            Whether every interval holds at all looks at once (then no split is needed).

        Returns
        -------
        float
            ``alpha / max_looks``, or ``alpha`` if ``anytime_valid``.

        Raises
        ------
        ValueError
            If ``alpha`` lies outside (0, 1).

        Examples
        --------
        >>> Budget(10, 4).look_alpha(0.01), Budget(10, 4).look_alpha(0.01, anytime_valid=True)
        (0.0025, 0.01)
        """
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
        return alpha if anytime_valid else alpha / self.max_looks


@dataclass
class SequentialResult:
    """Data, final comparisons and history of a sequential run.

    Parameters
    ----------
    data : dict of str to ndarray
        Every replicate drawn, concatenated over the looks.
    comparisons : list of Comparison
        The comparisons of the last look.
    looks : list of dict
        Per look: its number, ``n`` and the verdict of each comparison.
    budget : Budget
        The budget the run had.
    alpha, alpha_look : float
        The claim's level and the level spent at each look.

    See Also
    --------
    run_sequential : builds it.

    Notes
    -----
    :meth:`evidence` is what a check puts into its report.

    Examples
    --------
    >>> from moetheory.stats import compare, mean_ci
    >>> res = run_sequential(lambda look, size: {"x": np.full(size, 1.0) + look * 1e-3},
    ...                      lambda d, a: [compare("E[x]", mean_ci(d["x"], a), 1.0, 0.1)],
    ...                      alpha=0.01, budget=Budget(5, 3))
    >>> res.n, res.stopped_early
    (5, True)
    """

    data: dict[str, np.ndarray]
    comparisons: list[Comparison]
    looks: list[dict[str, Any]] = field(default_factory=list)
    budget: Budget = field(default_factory=lambda: Budget(2, 1))
    alpha: float = 0.0
    alpha_look: float = 0.0

    @property
    def n(self) -> int:
        """Replicates used."""
        return int(self.looks[-1]["n"]) if self.looks else 0

    @property
    def stopped_early(self) -> bool:
        """Whether the claim was decided before the budget was spent."""
        return len(self.looks) < self.budget.max_looks

    def evidence(self) -> dict[str, Any]:
        """The design of the run for a claim's evidence.

        Returns
        -------
        dict
            Rule, batch, looks allowed and used, ``n``, levels, whether it stopped early,
            and the history of the looks.

        Examples
        --------
        >>> r = SequentialResult({}, [], [{"look": 1, "n": 4, "verdicts": {}}], Budget(4, 2))
        >>> r.evidence()["looks_used"], r.evidence()["stopped_early"]
        (1, True)
        """
        return {
            "rule": RULE,
            "batch": self.budget.batch,
            "max_looks": self.budget.max_looks,
            "looks_used": len(self.looks),
            "n": self.n,
            "alpha": self.alpha,
            "alpha_look": self.alpha_look,
            "stopped_early": self.stopped_early,
            "history": self.looks,
        }


def _decided(comps: list[Comparison]) -> bool:
    return combine([c.verdict for c in comps]) is not Verdict.INCONCLUSIVE


def run_sequential(
    draw: Callable[[int, int], dict[str, np.ndarray]],
    judge: Callable[[dict[str, np.ndarray], float], list[Comparison]],
    alpha: float,
    budget: Budget,
    anytime_valid: bool = False,
    decided: Callable[[list[Comparison]], bool] | None = None,
) -> SequentialResult:
    """Draw batches of replicates until ``judge`` decides or ``budget`` is spent.

    Parameters
    ----------
    draw : callable ``(look, size) -> dict of arrays``
        ``size`` new replicates for look ``look`` (0-based); every array's first axis
        indexes replicates. Draw from ``ctx.rng(...)`` streams that depend on the look (or
        better on the replicate index), so the run is reproducible.
    judge : callable ``(data, alpha_look) -> list of Comparison``
        Decides the claim on all data so far, with intervals of total level
        ``1 - alpha_look`` (split it over the comparisons).
    alpha : float
        The claim's error level (``ctx.alpha``).
    budget : Budget
        Batch size and most looks.
    anytime_valid : bool
        True only if every interval ``judge`` builds is anytime-valid.
    decided : callable, optional
        When to stop; default: when :func:`moetheory.stats.combine` of the verdicts is not
        ``inconclusive`` (some comparison is unsupported, or all are decided).

    Returns
    -------
    SequentialResult
        The data, the last look's comparisons and the history.

    Raises
    ------
    ValueError
        If ``draw`` returns no data, or ``alpha`` lies outside (0, 1).

    See Also
    --------
    Budget : the looks and batch size.
    moetheory.stats.betting_ci : an anytime-valid interval.

    Notes
    -----
    Group-sequential with Bonferroni spending: look :math:`k \\le K` judges all :math:`kB`
    replicates so far at level :math:`1 - \\alpha/K`. The union bound over the looks gives
    :math:`P(\\text{some interval at some look misses}) \\le \\alpha` for any stopping
    rule, so stopping at the first decided look keeps the fixed-:math:`n` error rates.

    Examples
    --------
    >>> from moetheory.stats import compare, mean_ci
    >>> rng = np.random.default_rng(0)
    >>> res = run_sequential(
    ...     lambda look, size: {"x": rng.normal(1.0, 0.1, size)},
    ...     lambda data, a: [compare("E[x]", mean_ci(data["x"], a), 1.0, 0.2)],
    ...     alpha=0.01, budget=Budget(20, 5))
    >>> res.comparisons[0].verdict.value, res.n, res.stopped_early
    ('supported', 20, True)
    """
    alpha_look = budget.look_alpha(alpha, anytime_valid)
    stop = decided or _decided
    data: dict[str, np.ndarray] = {}
    looks: list[dict[str, Any]] = []
    comps: list[Comparison] = []
    for look in range(budget.max_looks):
        new = draw(look, budget.batch)
        if not new:
            raise ValueError("draw returned no data")
        data = {k: np.concatenate([data[k], np.asarray(v)]) if k in data else np.asarray(v)
                for k, v in new.items()}
        comps = judge(data, alpha_look)
        n = int(min(len(v) for v in data.values()))
        looks.append({"look": look + 1, "n": n,
                      "verdicts": {c.label: c.verdict.value for c in comps}})
        if stop(comps):
            break
    return SequentialResult(data, comps, looks, budget, alpha, alpha_look)
