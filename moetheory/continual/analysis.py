"""Statistics of simulated continual-learning runs, and the decision rules for directions.

The statistics here decide the dynamics and figure claims of seed 003: late level and
convergence round of a curve, expert sets of eq. (11), routing shares inside a set, and
paired intervals. The one-sided decision rules (``A > B``, ``A <= b``) are those of
:mod:`moetheory.stats` (:func:`~moetheory.stats.greater`, :func:`~moetheory.stats.at_most`),
re-exported here.
"""

from __future__ import annotations

import numpy as np

from moetheory.continual.portable import dot_last
from moetheory.stats import MeanEstimate, at_most, greater, mean_ci

__all__ = [
    "at_most",
    "convergence_round",
    "expert_sets",
    "greater",
    "late_mean",
    "paired_ci",
    "routing_tv",
]


def late_mean(curves: np.ndarray, frac: float = 0.1) -> np.ndarray:
    """Per-replicate mean of ``curves`` (R, T) over the last ``frac`` of the rounds.

    Examples
    --------
    >>> late_mean(np.array([[4.0, 3.0, 2.0, 1.0]]), frac=0.5).tolist()
    [1.5]
    """
    if not 0 < frac <= 1:
        raise ValueError(f"frac must lie in (0, 1], got {frac}")
    curves = np.atleast_2d(curves)
    k = max(1, round(frac * curves.shape[1]))
    return curves[:, -k:].mean(axis=1)


def convergence_round(curves: np.ndarray, frac: float = 0.1, late: float = 0.1) -> np.ndarray:
    """First round (1-based) from which a curve stays within ``frac`` of the way from its
    late level (``late_mean(curves, late)``) to its peak, per replicate.

    Examples
    --------
    >>> convergence_round(np.array([[0.0, 10.0, 5.0, 1.0, 1.0, 1.0]]), late=0.5).tolist()
    [4]
    """
    curves = np.atleast_2d(curves)
    low = late_mean(curves, late)
    peak = curves.max(axis=1)
    level = low + frac * (peak - low)
    above = curves > level[:, None]
    T = curves.shape[1]
    last_above = np.where(above.any(axis=1), T - np.argmax(above[:, ::-1], axis=1), 0)
    return last_above + 1


def expert_sets(theta: np.ndarray, signals: np.ndarray) -> np.ndarray:
    """Expert sets of eq. (11): ``argmax_j θ_mᵀ v_j`` for every expert, shape (R, M).

    Examples
    --------
    >>> theta = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    >>> V = np.array([[[0.0, 1.0], [1.0, 0.0]]])
    >>> expert_sets(theta, V).tolist()
    [[1, 0]]
    """
    return dot_last(theta[:, :, None, :], signals[:, None, :, :]).argmax(axis=2)


def routing_tv(
    expert: np.ndarray, group: np.ndarray, members: np.ndarray, start: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Routing inside expert sets after round ``start`` (Proposition 3's statistic).

    Parameters
    ----------
    expert, group : ndarray of int (R, T)
        Routed expert and the task's group (ground truth or cluster) per round.
    members : ndarray of int (R, M)
        Group each expert specialises in (eq. (11)).
    start : ndarray of int (R,)
        Only rounds ``t > start`` (1-based) count.

    Returns
    -------
    inside : ndarray (R,)
        Fraction of counted rounds routed to an expert of the task's own set.
    tv : ndarray (R,)
        Mean over groups with ``>= 2`` experts and ``>= 20`` routings of the total-variation
        distance between the routing frequencies inside the set and the uniform law
        (``nan`` if no such group).
    groups_used : ndarray of int (R,)
        Number of groups entering ``tv``.

    Examples
    --------
    >>> e = np.array([[0, 1] * 20]); g = np.zeros((1, 40), dtype=int)
    >>> inside, tv, k = routing_tv(e, g, np.array([[0, 0]]), np.array([0]))
    >>> inside.tolist(), tv.tolist(), k.tolist()
    ([1.0], [0.0], [1])
    """
    R, T = expert.shape
    rounds = np.arange(1, T + 1)
    inside = np.full(R, np.nan)
    tv = np.full(R, np.nan)
    used = np.zeros(R, dtype=np.int64)
    for r in range(R):
        keep = rounds > start[r]
        if not keep.any():
            continue
        e, g = expert[r, keep], group[r, keep]
        own = members[r, e] == g
        inside[r] = own.mean()
        dists = []
        for k in np.unique(g):
            experts_k = np.flatnonzero(members[r] == k)
            chosen = e[(g == k) & own]
            if experts_k.size < 2 or chosen.size < 20:
                continue
            freq = np.array([(chosen == m).mean() for m in experts_k])
            dists.append(0.5 * np.abs(freq - 1.0 / experts_k.size).sum())
        if dists:
            tv[r] = float(np.mean(dists))
            used[r] = len(dists)
    return inside, tv, used


def paired_ci(a: np.ndarray, b: np.ndarray, alpha: float) -> MeanEstimate:
    """Confidence interval of the mean of the paired differences ``a - b``.

    Examples
    --------
    >>> round(paired_ci(np.array([2.0, 3.0, 4.0]), np.array([1.0, 1.5, 2.5]), 0.05).mean, 3)
    1.333
    """
    return mean_ci(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), alpha)
