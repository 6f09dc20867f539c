"""Paired termination rounds: does the run with more experts terminate later (issue 32)?

Seed 003 says that adding experts "delays convergence" (L19, L197, L221, L229): with more
experts, Algorithm 1's convergence flags stop the updates later (its termination is the
system's "stable convergence state", L109). The checks of ``cl.more-experts*`` run every
``M`` on the same data (one :func:`~moetheory.continual.simulator.simulate_many` call:
replicate ``r`` of every ``M`` shares the ground truths, the task sequence and the
features; common random numbers), so each replicate gives a *pair* of termination rounds.
The sentence, read of the pair, is "the run with more experts terminates later";
read of the system, "it does so in most runs": the share :math:`p` of pairs in which it
terminates later exceeds 1/2 (a sign test). Its Clopper-Pearson interval needs a few dozen
pairs where the mean of the paired differences of rounds (the former reading, kept as a
second one) needs thousands: the rounds range over ``[0, T]`` and a few late terminations
dominate a mean, not a count.

A run that has not terminated by ``T`` terminates after ``T``: later than any run that
terminated. When neither run of a pair terminated the order is unknown; the interval then
counts such pairs against the claim for its lower end and for it for its upper end (each end
a Clopper-Pearson bound at level :math:`\\alpha/2`), so it covers :math:`p` whatever their
order. Equal rounds are not later.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moetheory.stats import Comparison, MeanEstimate, greater, proportion_ci

__all__ = ["LATER_RULE", "PAIRING", "later_counts", "terminates_later"]

#: The pairing of the runs, as the evidence records it.
PAIRING = (
    "paired: replicate r of every M shares the ground truths, the task sequence and the "
    "features (one simulate_many call on one seed: common random numbers), so each replicate "
    "gives a pair of termination rounds"
)

#: The rule of the paired comparison, as the evidence records it.
LATER_RULE = (
    "stats.greater, threshold 1/2, effect 0, on the share of pairs in which the run with more "
    "experts terminates later (a run not terminated by the horizon T counts as after it; "
    "equal rounds count as not later); "
    "Clopper-Pearson at the check's level, pairs in which neither run terminated counted "
    "against the claim for the lower end and for it for the upper end"
)


def later_counts(fewer: np.ndarray, more: np.ndarray) -> dict[str, int]:
    """Pairs in which the run with more experts terminates later, not later, or unknown.

    Parameters
    ----------
    fewer, more : ndarray of int, shape (R,)
        Termination rounds of the paired runs with fewer and with more experts (``-1``: not
        terminated by the horizon).

    Returns
    -------
    dict
        ``later``, ``not_later`` (earlier or the same round) and ``unknown`` (neither run
        terminated), summing to ``R``.

    Raises
    ------
    ValueError
        If the two arrays differ in shape or are empty.

    Examples
    --------
    >>> later_counts(np.array([3, 5, -1, 7, -1]), np.array([4, 5, -1, -1, 2]))
    {'later': 2, 'not_later': 2, 'unknown': 1}
    """
    a, b = np.asarray(fewer), np.asarray(more)
    if a.shape != b.shape or a.ndim != 1 or a.size == 0:
        raise ValueError(f"fewer and more must be paired 1-d arrays of rounds, got shapes "
                         f"{a.shape} and {b.shape}")
    a_open, b_open = a < 0, b < 0
    unknown = a_open & b_open
    later = (b_open & ~a_open) | (~a_open & ~b_open & (b > a))
    return {"later": int(later.sum()), "not_later": int(a.size - later.sum() - unknown.sum()),
            "unknown": int(unknown.sum())}


def terminates_later(label: str, fewer: np.ndarray, more: np.ndarray,
                     alpha: float) -> tuple[Comparison, dict[str, Any]]:
    """The paired comparison "the run with more experts terminates later in most pairs".

    Parameters
    ----------
    label : str
        As printed.
    fewer, more : ndarray of int, shape (R,)
        Termination rounds of the paired runs (``-1``: not terminated by the horizon).
    alpha : float
        Level of the interval, in (0, 1).

    Returns
    -------
    (Comparison, dict)
        :func:`moetheory.stats.greater` of the share of later pairs against 1/2 (effect 0;
        method ``"clopper-pearson"``, the estimate counting unknown pairs half), and the
        counts (:func:`later_counts`).

    Notes
    -----
    Decided through the rules of :mod:`moetheory.stats`, so calibration moves its threshold.

    Examples
    --------
    >>> c, counts = terminates_later("x", np.full(20, 21), np.full(20, 41), 0.01)
    >>> c.verdict.value, counts["later"], round(c.estimate.low, 3)
    ('supported', 20, 0.767)
    """
    counts = later_counts(fewer, more)
    n, k, u = len(fewer), counts["later"], counts["unknown"]
    low = proportion_ci(k, n, alpha).low
    high = proportion_ci(k + u, n, alpha).high
    est = MeanEstimate((k + u / 2) / n, low, high, n, 1 - alpha, "clopper-pearson", False,
                       (0.0, 1.0))
    return greater(label, est, 0.5, 0.0), counts
