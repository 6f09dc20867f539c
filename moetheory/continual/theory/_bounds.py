"""Theorems 1 and 2 (eqs. (19)-(22)) evaluated per replicate on simulated routing: the
routing counts :math:`L_t^{(m)}`, the cluster constants :math:`\\Psi_1, \\Psi_2` and the four
bounds."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from moetheory._doccer import fill_doc
from moetheory.continual.portable import portable_power
from moetheory.continual.theory import _docs
from moetheory.continual.theory._notation import PAIR_READINGS, _check_reading, _ground_truths

__all__ = [
    "expert_counts",
    "psi1",
    "psi2",
    "thm1_forgetting_bound",
    "thm1_generalization_bound",
    "thm2_forgetting_bound",
    "thm2_generalization_bound",
]


@fill_doc(_docs.REFERENCES)
def expert_counts(expert: np.ndarray, n_experts: int) -> np.ndarray:
    r"""Routing counts :math:`L_t^{(m)}`: the rounds up to :math:`t` routed to expert :math:`m`.

    Parameters
    ----------
    expert : ndarray of int, shape (R, T)
        Routed expert (0-based) of every round of every replicate.
    n_experts : int
        Number of experts :math:`M`.

    Returns
    -------
    ndarray of int, shape (R, T, M)
        ``L[k, t - 1, m]`` is :math:`L_t^{(m)}` of replicate :math:`k` (1-based round
        :math:`t` at index :math:`t - 1`).

    Raises
    ------
    ValueError
        If ``expert`` is not a two-dimensional integer array or an entry is outside
        ``[0, n_experts)``.

    See Also
    --------
    thm1_forgetting_bound, thm2_generalization_bound : bounds written in these counts.

    Notes
    -----
    :math:`L_t^{(m)} = \sum_{\tau \le t} \mathbb{1}[m_\tau = m]`, the counts in which
    Theorems 1 and 2 of [1]_ state their bounds.

    %(references)s

    Examples
    --------
    >>> expert_counts(np.array([[0, 1, 0]]), 2)[0].tolist()
    [[1, 0], [1, 1], [2, 1]]
    """
    expert = np.asarray(expert)
    if expert.ndim != 2 or not np.issubdtype(expert.dtype, np.integer):
        raise ValueError(f"expert must be an integer array of shape (R, T), got {expert.shape}")
    if expert.size and (expert.min() < 0 or expert.max() >= n_experts):
        raise ValueError(f"expert entries must lie in [0, {n_experts}), got an entry outside")
    onehot = expert[..., None] == np.arange(n_experts)
    return np.cumsum(onehot, axis=1)



def _own_counts(expert: np.ndarray, counts: np.ndarray, at: np.ndarray | None) -> np.ndarray:
    """``L_at^{(m_tau)}`` for every tau (``at`` = None gives ``L_tau^{(m_tau)}``)."""
    R, T_len = expert.shape
    rows = np.arange(R)[:, None]
    if at is None:
        return counts[rows, np.arange(T_len)[None, :], expert]
    return counts[rows, at[:, None] if at.ndim == 1 else at, expert]


def _counts_at(expert: np.ndarray, counts: np.ndarray, round_: int) -> np.ndarray:
    """``L_round^{(m_tau)}`` for every tau: the counts at the (1-based) round ``round_``."""
    return _own_counts(expert, counts, np.full(expert.shape[0], round_ - 1))


def _check_bound_inputs(
    expert: np.ndarray, ground_truths: np.ndarray, r_value: float
) -> tuple[np.ndarray, np.ndarray]:
    """The routed experts and the ground truths as arrays, checked against ``r_value``."""
    expert = np.asarray(expert)
    W = np.asarray(ground_truths, dtype=float)
    if not 0 <= r_value < 1:
        raise ValueError(f"r_value must lie in [0, 1), got {r_value}")
    if W.ndim != 3 or W.shape[0] != expert.shape[0]:
        raise ValueError(f"ground_truths must have shape (R, N, d) with R = {expert.shape[0]}")
    return expert, W


def _counts_and_terms(
    expert: np.ndarray, W: np.ndarray, n_experts: int, pairs: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The counts :math:`L_t^{(m)}` and, per replicate, :math:`S/N` and :math:`c D/N^2`."""
    counts = expert_counts(expert, n_experts)
    s_term, d_term = _s_d(W, pairs)
    return counts, s_term, d_term


def _s_d(W: np.ndarray, pairs: str) -> tuple[np.ndarray, np.ndarray]:
    _check_reading(pairs, PAIR_READINGS, "pairs")
    n = W.shape[1]
    s_term = np.sum(W**2, axis=(1, 2)) / n
    diff = W[:, :, None, :] - W[:, None, :, :]
    d_term = float(PAIR_READINGS[pairs]) * np.sum(diff**2, axis=(1, 2, 3)) / n**2
    return s_term, d_term


@fill_doc(_docs.BOUNDS)
def thm1_forgetting_bound(
    expert: np.ndarray,
    ground_truths: np.ndarray,
    n_experts: int,
    r_value: float,
    t_value: int,
    pairs: str = "ordered",
) -> np.ndarray:
    r"""Eq. (19) per replicate at round ``t_value``, with the realised routing counts.

    Parameters
    ----------
    %(routing)s
    %(m_r)s
    t_value : int
        Round :math:`t`, ``2 <= t_value <= T``.
    %(pairs)s

    Returns
    -------
    ndarray, shape (R,)
        The right-hand side of eq. (19) for each replicate.

    Raises
    ------
    ValueError
        %(errors)s.

    See Also
    --------
    thm1_forgetting_bound_expr : the formula in SymPy.
    expert_counts : the counts :math:`L_t^{(m)}`.

    Notes
    -----
    .. math:: \frac{1}{t-1}\sum_{\tau<t}\Big[(r^{L_t} - r^{L_\tau})\frac{S}{N}
              + (r^{L_\tau} - r^{L_t})\frac{c D}{N^2}\Big],
              \qquad L_a = L_a^{(m_\tau)},

    eq. (19) of Theorem 1 in [1]_, evaluated on the routing of a simulated run.

    %(references)s

    Examples
    --------
    >>> W = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    >>> thm1_forgetting_bound(np.array([[0, 0]]), W, 1, 0.5, 2).round(3).tolist()
    [0.0]
    """
    expert, W = _check_bound_inputs(expert, ground_truths, r_value)
    if not 2 <= t_value <= expert.shape[1]:
        raise ValueError(f"t_value must lie in [2, {expert.shape[1]}], got {t_value}")
    counts, s_term, d_term = _counts_and_terms(expert, W, n_experts, pairs)
    l_tau = _own_counts(expert, counts, None)[:, : t_value - 1]
    l_t = _counts_at(expert, counts, t_value)[:, : t_value - 1]
    a = portable_power(r_value, l_t) - portable_power(r_value, l_tau)
    return (a.sum(axis=1) * s_term - a.sum(axis=1) * d_term) / (t_value - 1)


@fill_doc(_docs.BOUNDS)
def thm1_generalization_bound(
    expert: np.ndarray,
    ground_truths: np.ndarray,
    n_experts: int,
    r_value: float,
    t1: int,
    pairs: str = "ordered",
) -> np.ndarray:
    r"""Eq. (20) per replicate, with the realised counts :math:`L_{T_1}^{(m_\tau)}`.

    Parameters
    ----------
    %(routing)s
    %(m_r)s
    t1 : int
        End of the exploration phase :math:`T_1`, ``1 <= t1 <= T``.
    %(pairs)s

    Returns
    -------
    ndarray, shape (R,)
        The right-hand side of eq. (20) for each replicate, :math:`T` the number of columns
        of ``expert``.

    Raises
    ------
    ValueError
        %(errors)s.

    See Also
    --------
    thm1_generalization_bound_expr : the formula in SymPy.

    Notes
    -----
    .. math:: \frac1T\sum_{\tau=1}^{T}\Big[r^{L_{T_1}}\frac{S}{N}
              + (1 - r^{L_{T_1}})\frac{c D}{N^2}\Big], \qquad L_{T_1} = L_{T_1}^{(m_\tau)},

    eq. (20) of Theorem 1 in [1]_.

    %(references)s

    Examples
    --------
    >>> W = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    >>> thm1_generalization_bound(np.array([[0, 0]]), W, 1, 0.5, 2).round(3).tolist()
    [1.0]
    """
    expert, W = _check_bound_inputs(expert, ground_truths, r_value)
    if not 1 <= t1 <= expert.shape[1]:
        raise ValueError(f"t1 must lie in [1, {expert.shape[1]}], got {t1}")
    counts, s_term, d_term = _counts_and_terms(expert, W, n_experts, pairs)
    p = portable_power(r_value, _counts_at(expert, counts, t1))
    return (p * s_term[:, None] + (1 - p) * d_term[:, None]).mean(axis=1)


def _cluster_gaps(W: np.ndarray, clusters: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The squared gaps :math:`\\|w_{n'} - w_n\\|^2` (N, N) and the cluster labels, checked."""
    W = _ground_truths(W)
    labels = np.asarray(clusters)
    if labels.shape != (W.shape[0],):
        raise ValueError(f"clusters must have one label per ground truth ({W.shape[0]})")
    gaps = np.sum((W[:, None, :] - W[None, :, :]) ** 2, axis=2)
    return gaps, labels


@fill_doc(_docs.CLUSTERS)
def psi1(W: np.ndarray, clusters: Sequence[int]) -> float:
    r""":math:`\Psi_1` of Theorem 2: the mean squared gap between tasks of the same cluster.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    float
        :math:`\Psi_1`.

    %(raises)s

    See Also
    --------
    psi2 : the gap to every cluster.
    thm2_forgetting_bound : where :math:`\Psi_1` enters.

    Notes
    -----
    With :math:`\mathcal{W}(n)` the cluster of task :math:`n`,

    .. math:: \Psi_1 = \frac1N\sum_{n=1}^{N}\frac{1}{|\mathcal{W}(n)|}
              \sum_{n' \in \mathcal{W}(n)}\|w_{n'} - w_n\|^2,

    the within-cluster term of Theorem 2 in [1]_.

    %(references)s

    Examples
    --------
    >>> psi1(np.array([[0.0], [1.0], [5.0]]), [0, 0, 1])
    0.3333333333333333
    """
    gaps, labels = _cluster_gaps(W, clusters)
    same = labels[:, None] == labels[None, :]
    return float(np.mean(np.sum(gaps * same, axis=1) / same.sum(axis=1)))


@fill_doc(_docs.CLUSTERS)
def psi2(W: np.ndarray, clusters: Sequence[int]) -> float:
    r""":math:`\Psi_2` of Theorem 2: the mean squared gap from a task to the clusters.

    Parameters
    ----------
    %(parameters)s

    Returns
    -------
    float
        :math:`\Psi_2`.

    %(raises)s

    See Also
    --------
    psi1 : the within-cluster gap.
    thm2_generalization_bound : where :math:`\Psi_2` enters.

    Notes
    -----
    With clusters :math:`\mathcal{W}_1, \dots, \mathcal{W}_K`,

    .. math:: \Psi_2 = \frac1N\sum_{n=1}^{N}\frac1K\sum_{k=1}^{K}
              \frac{1}{|\mathcal{W}_k|}\sum_{n' \in \mathcal{W}_k}\|w_{n'} - w_n\|^2,

    the between-cluster term of Theorem 2 in [1]_.

    %(references)s

    Examples
    --------
    >>> psi2(np.array([[0.0], [2.0]]), [0, 1])
    2.0
    """
    gaps, labels = _cluster_gaps(W, clusters)
    ks = np.unique(labels)
    per_k = [gaps[:, labels == k].mean(axis=1) for k in ks]
    return float(np.mean(np.mean(per_k, axis=0)))


@fill_doc(_docs.BOUNDS)
def thm2_forgetting_bound(
    expert: np.ndarray,
    ground_truths: np.ndarray,
    clusters: Sequence[int],
    n_experts: int,
    r_value: float,
    t1: int,
    t_value: int,
    pairs: str = "ordered",
    gap_until: str = "T1",
) -> np.ndarray:
    r"""Eq. (21) per replicate at round ``t_value > t1``, with the realised counts.

    Parameters
    ----------
    %(routing)s
    clusters : sequence of int, length N
        Cluster label of each ground truth (for :math:`\Psi_1`).
    %(m_r)s
    t1 : int
        End of the exploration phase :math:`T_1`.
    t_value : int
        Round :math:`t`, ``1 <= t1 < t_value <= T``.
    %(pairs)s
    gap_until : {"T1", "t"}, optional
        Reading of the second term: :math:`r^{L_\tau} - r^{L_{T_1}}` (as printed, default)
        or :math:`r^{L_\tau} - r^{L_t}` (as in eq. (19)).

    Returns
    -------
    ndarray, shape (R,)
        The right-hand side of eq. (21) for each replicate.

    Raises
    ------
    ValueError
        %(errors)s; also if
        ``gap_until`` is unknown, or from :func:`psi1`.

    See Also
    --------
    thm2_forgetting_bound_expr : the formula in SymPy.
    psi1 : the constant :math:`\Psi_1`.

    Notes
    -----
    .. math:: \frac{1}{t-1}\Big[\sum_{\tau<t}(r^{L_t} - r^{L_\tau})\frac{S}{N}
              + \sum_{\tau\le T_1}(r^{L_\tau} - r^{L_{T_1}})\frac{c D}{N^2}
              + \Psi_1\sum_{\tau=T_1+1}^{t}(1 - r^{L_t - L_\tau})\,r^{L_t - L_{T_1} - 1}\Big],

    eq. (21) of Theorem 2 in [1]_, the garbled index :math:`i` read as :math:`\tau`.

    %(references)s

    Examples
    --------
    >>> W = np.array([[[1.0], [0.0]]])
    >>> thm2_forgetting_bound(np.array([[0, 0, 0]]), W, [0, 0], 1, 0.5, 1, 3).round(4).tolist()
    [-0.0625]
    """
    expert, W = _check_bound_inputs(expert, ground_truths, r_value)
    if not 1 <= t1 < t_value <= expert.shape[1]:
        raise ValueError(f"need 1 <= t1 < t_value <= {expert.shape[1]}, got {t1}, {t_value}")
    R = expert.shape[0]
    counts, s_term, d_term = _counts_and_terms(expert, W, n_experts, pairs)
    own = _own_counts(expert, counts, None)
    at_t = _counts_at(expert, counts, t_value)
    at_t1 = _counts_at(expert, counts, t1)
    first = (portable_power(r_value, at_t[:, : t_value - 1])
             - portable_power(r_value, own[:, : t_value - 1])).sum(axis=1)
    if gap_until not in ("T1", "t"):
        raise ValueError(f"gap_until must be 'T1' or 't', got {gap_until!r}")
    until = at_t1 if gap_until == "T1" else at_t
    second = (portable_power(r_value, own[:, :t1])
              - portable_power(r_value, until[:, :t1])).sum(axis=1)
    lt, ltau, lt1 = at_t[:, t1:t_value], own[:, t1:t_value], at_t1[:, t1:t_value]
    third = ((1 - portable_power(r_value, lt - ltau))
             * portable_power(r_value, lt - lt1 - 1.0)).sum(axis=1)
    psi = np.array([psi1(W[k], clusters) for k in range(R)])
    return (first * s_term + second * d_term + psi * third) / (t_value - 1)


@fill_doc(_docs.BOUNDS)
def thm2_generalization_bound(
    expert: np.ndarray,
    ground_truths: np.ndarray,
    clusters: Sequence[int],
    n_experts: int,
    r_value: float,
    t1: int,
    pairs: str = "ordered",
    grouping: str = "as-printed",
) -> np.ndarray:
    r"""Eq. (22) per replicate at the last round :math:`T` (the number of columns of ``expert``).

    Parameters
    ----------
    %(routing)s
    clusters : sequence of int, length N
        Cluster label of each ground truth (for :math:`\Psi_1, \Psi_2`).
    %(m_r)s
    t1 : int
        End of the exploration phase :math:`T_1`, ``1 <= t1 <= T``.
    %(pairs)s
    grouping : {"as-printed", "split"}, optional
        Whether the factor :math:`r^{L_T}` multiplies the exploration term too
        (``"as-printed"``, default) or :math:`S/N` only (``"split"``).

    Returns
    -------
    ndarray, shape (R,)
        The right-hand side of eq. (22) for each replicate.

    Raises
    ------
    ValueError
        %(errors)s; also if
        ``grouping`` is unknown, or from :func:`psi1` or :func:`psi2`.

    See Also
    --------
    thm2_generalization_bound_expr : the formula in SymPy.
    psi1, psi2 : the constants.

    Notes
    -----
    As printed,

    .. math:: \frac1T\sum_{\tau} r^{L_T}\Big(\frac{S}{N} + \frac{1}{T_1}\sum_{\tau' \le T_1}
              r^{L_T - L_{T_1}}(1 - r^{L_{T_1}})\frac{c D}{N^2}\Big)
              + \frac{\Psi_2 + \Psi_1}{T}\sum_{\tau > T_1}(1 - r^{L_T - L_{T_1}}),

    eq. (22) of Theorem 2 in [1]_; ``"split"`` moves the exploration term out of the
    factor :math:`r^{L_T}`.

    %(references)s

    Examples
    --------
    >>> W = np.array([[[1.0], [0.0]]])
    >>> thm2_generalization_bound(np.array([[0, 0]]), W, [0, 1], 1, 0.5, 2).round(4).tolist()
    [0.2188]
    """
    if grouping not in ("as-printed", "split"):
        raise ValueError(f"grouping must be 'as-printed' or 'split', got {grouping!r}")
    expert, W = _check_bound_inputs(expert, ground_truths, r_value)
    R, T_len = expert.shape
    if not 1 <= t1 <= T_len:
        raise ValueError(f"t1 must lie in [1, {T_len}], got {t1}")
    counts, s_term, d_term = _counts_and_terms(expert, W, n_experts, pairs)
    at_T = _counts_at(expert, counts, T_len)
    at_t1 = _counts_at(expert, counts, t1)
    explore = (
        portable_power(r_value, at_T[:, :t1] - at_t1[:, :t1])
        * (1 - portable_power(r_value, at_t1[:, :t1]))
    ).mean(axis=1) * d_term
    decay = portable_power(r_value, at_T).mean(axis=1)
    if grouping == "as-printed":
        first = decay * (s_term + explore)
    else:
        first = decay * s_term + explore
    late = (1 - portable_power(r_value, at_T[:, t1:] - at_t1[:, t1:])).sum(axis=1) / T_len
    psis = np.array([psi1(W[k], clusters) + psi2(W[k], clusters) for k in range(R)])
    return first + psis * late
