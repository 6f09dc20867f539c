"""The order in which a local run starts its checks: the longest first.

A run on ``--jobs`` workers gives each free worker the next claim of this order (list
scheduling); started longest first, the run does not end on one long check while the other
workers idle. The expected seconds come from :data:`moetheory.engine._costs.EXPECTED_SECONDS`,
generated from reports by ``benchmarks/schedule.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from moetheory.engine.registry import Claim

__all__ = ["start_order"]


def start_order(claims: Sequence[Claim], profile: str = "quick", jobs: int = 1,
                costs: dict[str, dict[str, float]] | None = None) -> list[Claim]:
    """The order in which a local run starts ``claims`` (reports keep the catalogue's order).

    Parameters
    ----------
    claims : sequence of Claim
        The claims of the run.
    profile : {"quick", "full"}
        The run's profile: whose expected seconds apply.
    jobs : int
        Workers of the run.
    costs : dict, optional
        Profile -> claim ID -> expected seconds (default
        :data:`moetheory.engine._costs.EXPECTED_SECONDS`).

    Returns
    -------
    list of Claim
        ``claims`` in starting order.

    See Also
    --------
    moetheory.engine.runner.run_claims : starts the checks in this order.

    Notes
    -----
    Longest first; a claim without expected seconds counts as the longest if statistical
    (a simulation) and as the shortest if exact, so a new simulation never ends a run. Each
    next check is the longest whose module is not that of the last ``jobs - 1`` started (the
    longest, when every one left is): neighbours in the catalogue often need the same shared
    results (:mod:`moetheory.engine.shared`), and started side by side one waited for the
    other's (a quick run's five rates checks left a core idle for about 10 s); started apart,
    the later one reads them from the run's store.

    Examples
    --------
    >>> from types import SimpleNamespace as N
    >>> claims = [N(id=i, kind="statistical", check=N(__module__=m))
    ...           for i, m in [("a", "x"), ("b", "x"), ("c", "y")]]
    >>> costs = {"quick": {"a": 9.0, "b": 8.0, "c": 1.0}}
    >>> [c.id for c in start_order(claims, "quick", 2, costs)]
    ['a', 'c', 'b']
    """
    from moetheory.engine._costs import EXPECTED_SECONDS

    table = (EXPECTED_SECONDS if costs is None else costs).get(profile, {})

    def cost(c: Claim) -> float:
        return table.get(c.id, math.inf if c.kind == "statistical" else 0.0)

    def module(c: Claim) -> str:
        return getattr(c.check, "__module__", "")

    left = sorted(claims, key=cost, reverse=True)  # stable: ties in catalogue order
    order: list[Claim] = []
    while left:
        recent = {module(c) for c in order[max(0, len(order) - jobs + 1):]} if jobs > 1 else set()
        pick = next((c for c in left if module(c) not in recent), left[0])
        left.remove(pick)
        order.append(pick)
    return order
