"""Statistics of simulated continual-learning runs, and the decision rules for directions.

The statistics here decide the dynamics and figure claims of seed 003: late level and
convergence round of a curve, expert sets of eq. (11), routing shares inside a set, and
paired intervals. The one-sided decision rules (``A > B``, ``A <= b``) are those of
:mod:`moetheory.stats` (:func:`~moetheory.stats.greater`, :func:`~moetheory.stats.at_most`),
re-exported here.
"""

from __future__ import annotations

import numpy as np

from moetheory._doccer import fill_doc
from moetheory.continual._docs import REFERENCES
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


@fill_doc(REFERENCES)
def late_mean(curves: np.ndarray, frac: float = 0.1) -> np.ndarray:
    r"""Per-replicate mean of ``curves`` over the last ``frac`` of the rounds.

    Parameters
    ----------
    curves : ndarray, shape (R, T) or (T,)
        One curve (e.g. :math:`F_t` or :math:`G_t`) per replicate.
    frac : float, optional
        Fraction of the rounds averaged, in (0, 1]; default 0.1 (the last tenth).

    Returns
    -------
    ndarray, shape (R,)
        The mean of the last :math:`k = \max(1, \operatorname{round}(\text{frac}\cdot T))`
        values of each curve.

    Raises
    ------
    ValueError
        If ``frac`` is not in (0, 1].

    See Also
    --------
    convergence_round : the round from which a curve stays near this level.

    Notes
    -----
    The late level :math:`\frac1k \sum_{t=T-k+1}^{T} c_t` stands for the limit of a curve
    that has settled; the dynamics claims of seed 003 ([1]_, Section 5 and Figure 2) compare
    such levels across numbers of experts.

    %(references)s

    Examples
    --------
    >>> late_mean(np.array([[4.0, 3.0, 2.0, 1.0]]), frac=0.5).tolist()
    [1.5]
    >>> late_mean(np.array([1.0, 2.0]), frac=0.0)
    Traceback (most recent call last):
    ...
    ValueError: frac must lie in (0, 1], got 0.0
    """
    if not 0 < frac <= 1:
        raise ValueError(f"frac must lie in (0, 1], got {frac}")
    curves = np.atleast_2d(curves)
    k = max(1, round(frac * curves.shape[1]))
    return curves[:, -k:].mean(axis=1)


@fill_doc(REFERENCES)
def convergence_round(curves: np.ndarray, frac: float = 0.1, late: float = 0.1) -> np.ndarray:
    r"""First round from which each curve stays close to its late level.

    Parameters
    ----------
    curves : ndarray, shape (R, T) or (T,)
        One curve per replicate.
    frac : float, optional
        Closeness, as a fraction of the way from the late level up to the curve's peak;
        default 0.1.
    late : float, optional
        Fraction of the rounds defining the late level (see :func:`late_mean`); default 0.1.

    Returns
    -------
    ndarray of int, shape (R,)
        The 1-based round :math:`t^*` after which the curve never exceeds the level; 1 if
        it never does.

    Raises
    ------
    ValueError
        If ``late`` is not in (0, 1] (from :func:`late_mean`); ``frac`` is not checked.

    See Also
    --------
    late_mean : the late level.

    Notes
    -----
    With :math:`\ell` the late level and :math:`p = \max_t c_t` the peak, the threshold is
    :math:`\ell + \text{frac}\,(p - \ell)` and

    .. math:: t^* = 1 + \max\{t : c_t > \ell + \text{frac}\,(p - \ell)\}.

    It measures how fast the errors of Algorithm 1 ([1]_) settle, e.g. with and without
    early termination.

    %(references)s

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


@fill_doc(REFERENCES)
def expert_sets(theta: np.ndarray, signals: np.ndarray) -> np.ndarray:
    r"""Expert sets of eq. (11): the task signal each expert's gate aligns with best.

    Parameters
    ----------
    theta : ndarray, shape (R, M, d)
        Gate parameters :math:`\theta_m` of every replicate.
    signals : ndarray, shape (R, N, d)
        Feature signals :math:`v_n` of the tasks (or cluster centres) of every replicate.

    Returns
    -------
    ndarray of int, shape (R, M)
        :math:`\arg\max_j \theta_m^\top v_j` for every replicate and expert (0-based; ties
        go to the smallest index).

    Raises
    ------
    ValueError
        If the last axes of ``theta`` and ``signals`` differ or the leading axes do not
        broadcast (from NumPy).

    See Also
    --------
    routing_tv : routing inside the sets.

    Notes
    -----
    Eq. (11) of [1]_ defines the set of experts specialised in task :math:`n` as
    :math:`\mathcal{M}_n = \{m : \arg\max_{j} \theta_m^\top v_j = n\}`; this returns, for each
    expert :math:`m`, the index :math:`n` with :math:`m \in \mathcal{M}_n`. The inner products
    are summed without BLAS (:func:`moetheory.continual.portable.dot_last`), so ties are
    broken identically on every machine.

    %(references)s

    Examples
    --------
    >>> theta = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    >>> V = np.array([[[0.0, 1.0], [1.0, 0.0]]])
    >>> expert_sets(theta, V).tolist()
    [[1, 0]]
    """
    return dot_last(theta[:, :, None, :], signals[:, None, :, :]).argmax(axis=2)


@fill_doc(REFERENCES)
def routing_tv(
    expert: np.ndarray, group: np.ndarray, members: np.ndarray, start: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Routing inside the expert sets after round ``start`` (the statistic of Proposition 3).

    Parameters
    ----------
    expert, group : ndarray of int, shape (R, T)
        Routed expert and the task's group (ground truth or cluster) per round.
    members : ndarray of int, shape (R, M)
        Group each expert specialises in (eq. (11); see :func:`expert_sets`).
    start : ndarray of int, shape (R,)
        Only rounds ``t > start`` (1-based) count.

    Returns
    -------
    inside : ndarray, shape (R,)
        Fraction of counted rounds routed to an expert of the task's own set (``nan`` if no
        round counts).
    tv : ndarray, shape (R,)
        Mean over groups with ``>= 2`` experts and ``>= 20`` routings of the total-variation
        distance between the routing frequencies inside the set and the uniform law
        (``nan`` if no such group).
    groups_used : ndarray of int, shape (R,)
        Number of groups entering ``tv``.

    Raises
    ------
    ValueError
        If ``expert`` is not two-dimensional.
    IndexError
        If an expert index is outside the columns of ``members``, or ``start`` is shorter
        than ``R``.

    See Also
    --------
    expert_sets : the sets :math:`\mathcal{M}_n`.

    Notes
    -----
    Proposition 3 of [1]_: after the exploration phase each task is routed to an expert of
    its own set :math:`\mathcal{M}_n`, and, with the routing noise, uniformly among them. For
    a group :math:`k` with experts :math:`\mathcal{M}_k` (:math:`|\mathcal{M}_k| \ge 2`) and
    routing frequencies :math:`f_m` among the rounds of group :math:`k` routed inside
    :math:`\mathcal{M}_k`,

    .. math:: \mathrm{TV}_k = \frac12 \sum_{m \in \mathcal{M}_k}
              \Big| f_m - \frac{1}{|\mathcal{M}_k|} \Big|,

    and ``tv`` is the mean of :math:`\mathrm{TV}_k` over the groups used.

    %(references)s

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
    r"""Confidence interval of the mean of the paired differences ``a - b``.

    Parameters
    ----------
    a, b : ndarray, shape (R,)
        Paired replicate values (e.g. the same seeds run under two settings).
    alpha : float
        Two-sided error level, in (0, 1): the interval has level :math:`1 - \alpha`.

    Returns
    -------
    MeanEstimate
        Student-t interval of :math:`\overline{a - b}` (method ``"t"``).

    Raises
    ------
    ValueError
        If ``a`` and ``b`` do not broadcast, or from :func:`moetheory.stats.mean_ci`: fewer
        than two or non-finite differences, ``alpha`` outside (0, 1).

    See Also
    --------
    moetheory.stats.mean_ci : the interval used.
    greater : the one-sided decision rule applied to such intervals.

    Notes
    -----
    Pairing removes the variation the two settings share: with :math:`D_i = a_i - b_i`,

    .. math:: \bar D \pm t_{R-1,\,1-\alpha/2}\, s_D / \sqrt{R}.

    Examples
    --------
    >>> round(paired_ci(np.array([2.0, 3.0, 4.0]), np.array([1.0, 1.5, 2.5]), 0.05).mean, 3)
    1.333
    """
    return mean_ci(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), alpha)
