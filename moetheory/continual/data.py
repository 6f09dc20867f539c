r"""Data models of the continual-learning experiments (seed 003, Definition 1, Appendix A).

Two models, both vectorised over a batch of ``R`` independent replicates:

* :func:`ground_truths` / :func:`task_batch` with ``data_model="definition1"``: the pool
  :math:`W` of :math:`N` ground truths in :math:`K` clusters, signals :math:`v_n = c \, w_n`
  and, each round, a feature matrix :math:`X_t` whose column at a uniform random position is
  :math:`\beta_t v_{n_t}` and whose other :math:`s - 1` columns are
  :math:`N(0, \sigma_t^2 I_d)` (Definition 1);
* ``data_model="code"``: the released code's construction (ground truths in the first
  ``code_rank`` coordinates, normalised signals, tiny copied rows below).

Labels are noiseless, :math:`y_t = X_t^\top w_{n_t}`, so only :math:`X_t` and :math:`n_t` are
returned.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moetheory.continual.config import CLConfig

__all__ = ["TaskBatch", "cluster_of", "ground_truth_unit", "ground_truths", "task_batch"]

#: Code model: scale of the copied rows below ``code_rank`` (and of the signal's own row).
CODE_LEAK = 1e-3
CODE_LEAK_SIGNAL = 1e-5


def cluster_of(cfg: CLConfig) -> np.ndarray:
    r"""Cluster index ``n mod K`` of every ground truth ``n`` (0-based).

    Parameters
    ----------
    cfg : CLConfig
        Gives ``N`` and ``K``.

    Returns
    -------
    ndarray of int, shape (N,)
        The cluster of each ground truth.

    See Also
    --------
    ground_truths : draws the members of each cluster.

    Notes
    -----
    Appendix A.4 lists the clusters ``W_1 = {1, 4}``, ``W_2 = {2, 5}``, ``W_3 = {3, 6}`` for
    ``N = 6, K = 3`` (1-based): task ``n`` lies in cluster :math:`n \bmod K`.

    Examples
    --------
    >>> cluster_of(CLConfig(N=7, K=3)).tolist()
    [0, 1, 2, 0, 1, 2, 0]
    """
    return np.arange(cfg.N) % cfg.K


def ground_truths(
    cfg: CLConfig, rng: np.random.Generator, replicates: int
) -> tuple[np.ndarray, np.ndarray]:
    r"""Draw the ground-truth pool ``W`` and the signals ``V``, each of shape ``(R, N, d)``.

    Definition-1 model: cluster centres :math:`w_k \sim N(0, \sigma_0^2 I_d)` for :math:`k < K`
    (Appendix A.2, "entries drawn from" :math:`N(0, \sigma_0)` read with :math:`\sigma_0` the
    standard deviation, as in Lemma 5's proof); ground truth :math:`n \ge K` is its centre
    :math:`w_{n \bmod K}` plus :math:`\rho \cdot \mathrm{Unif}[-1/2, 1/2]^d`
    (:math:`\rho` = ``cluster_spread``); :math:`v_n = c \, w_n`.

    Code model: centres are uniform random directions of norm :math:`\sigma_0` in the first
    ``code_rank`` coordinates; ground truth :math:`n \ge K` is ground truth :math:`n - K` plus
    :math:`\rho \cdot N(0, I)` there; :math:`v_n = c \, w_n / \|w_n\|` (:math:`c` =
    ``signal_norm``).

    Parameters
    ----------
    cfg : CLConfig
        Sizes, scales and ``data_model``.
    rng : numpy.random.Generator
        Source of the draws (the simulator's ground-truth stream).
    replicates : int
        Number ``R`` of independent pools.

    Returns
    -------
    W, V : ndarray, shape (R, N, d)
        Ground truths and their signals.

    See Also
    --------
    task_batch : the tasks drawn from this pool.
    cluster_of : the cluster of each ground truth.

    Notes
    -----
    Definition 1: :math:`\|w_n - w_{n'}\|_\infty = O(\sigma_0^{1.5})` inside a cluster
    (Section 5.2), signals :math:`v_n = c\,w_n` with :math:`c = 1/\sigma_0` by default, so
    :math:`\|v_n\|_\infty = O(1)`.

    Examples
    --------
    >>> W, V = ground_truths(CLConfig(), np.random.default_rng(0), replicates=2)
    >>> W.shape, bool(np.allclose(V, W / 0.4))
    ((2, 7, 10), True)
    """
    R, N, K, d = replicates, cfg.N, cfg.K, cfg.d
    spread = cfg.resolved_cluster_spread
    W = np.zeros((R, N, d))
    if cfg.data_model == "definition1":
        W[:, :K] = cfg.sigma0 * rng.standard_normal((R, K, d))
        if N > K:
            jitter = spread * (rng.random((R, N - K, d)) - 0.5)
            W[:, K:] = W[:, np.arange(K, N) % K] + jitter
        return W, cfg.resolved_signal_scale * W
    r = cfg.code_rank
    centres = rng.standard_normal((R, K, r))
    W[:, :K, :r] = cfg.sigma0 * centres / np.linalg.norm(centres, axis=-1, keepdims=True)
    for n in range(K, N):
        W[:, n, :r] = W[:, n - K, :r] + spread * rng.standard_normal((R, r))
    norms = np.linalg.norm(W, axis=-1, keepdims=True)
    return W, cfg.signal_norm * W / norms


def ground_truth_unit(cfg: CLConfig) -> float:
    """The problem's known error scale: :math:`\\bar u = \\frac1N\\sum_n E\\|w_n\\|^2`.

    The error of a model that has learnt nothing on task ``n`` is :math:`\\|w_n\\|^2`, so
    :math:`\\bar u` is the natural unit of the forgetting :math:`F_t` and the generalization
    error :math:`G_T`. It is computed from the configuration alone (the data model of
    :func:`ground_truths`), before any replicate is drawn, so a tolerance
    built on it is fixed before looking.

    Parameters
    ----------
    cfg : CLConfig
        The simulated configuration.

    Returns
    -------
    float
        :math:`\\bar u > 0`.

    Notes
    -----
    Definition-1 model (Appendix A.2): centres :math:`w_k \\sim N(0, \\sigma_0^2 I_d)` give
    :math:`E\\|w_k\\|^2 = d\\sigma_0^2`; a ground truth :math:`n \\ge K` adds the uniform
    jitter's :math:`d\\,s^2/12` (``s = resolved_cluster_spread``). Code model: centres have
    norm :math:`\\sigma_0`; ground truth :math:`n` adds :math:`\\lfloor n/K\\rfloor\\, r s^2`
    (``r = code_rank``). Its tolerances are a fraction of :math:`\\bar u`, the expected
    :math:`G` of the untrained model :math:`w = 0` (the curves' starting level).

    See Also
    --------
    ground_truths : draws the pool whose mean squared norm this is.

    Examples
    --------
    >>> round(ground_truth_unit(CLConfig(N=7, K=7)), 12)  # d σ0² = 10 · 0.16
    1.6
    """
    spread = cfg.resolved_cluster_spread
    if cfg.data_model == "definition1":
        extra = (cfg.N - cfg.K) * cfg.d * spread**2 / 12
        return float((cfg.N * cfg.d * cfg.sigma0**2 + extra) / cfg.N)
    extra = sum((n // cfg.K) * cfg.code_rank * spread**2 for n in range(cfg.N))
    return float((cfg.N * cfg.sigma0**2 + extra) / cfg.N)


@dataclass(frozen=True)
class TaskBatch:
    r"""The tasks of a block of rounds for every replicate.

    Attributes
    ----------
    task : ndarray of int, shape (R, B)
        Ground-truth index ``n_t`` of each round.
    X : ndarray, shape (R, B, d, s)
        Feature matrices ``X_t``.
    position : ndarray of int, shape (R, B)
        Column of ``X_t`` holding the signal.

    See Also
    --------
    task_batch : draws a batch.

    Notes
    -----
    Labels are noiseless, :math:`y_t = X_t^\top w_{n_t}`, so they are not stored.

    Examples
    --------
    >>> b = TaskBatch(np.zeros((1, 2), dtype=int), np.zeros((1, 2, 3, 2)),
    ...               np.zeros((1, 2), dtype=int))
    >>> b.X.shape
    (1, 2, 3, 2)
    """

    task: np.ndarray
    X: np.ndarray
    position: np.ndarray


def task_batch(
    cfg: CLConfig, rng: np.random.Generator, V: np.ndarray, rounds: int
) -> TaskBatch:
    r"""Draw ``rounds`` consecutive tasks for every replicate (Definition 1 or the code's).

    Parameters
    ----------
    cfg : CLConfig
        Sizes, ``data_model``, ``beta`` and ``beta_max``.
    rng : numpy.random.Generator
        Source of the draws (the simulator's task stream).
    V : ndarray, shape (R, N, d)
        The signals of each replicate's pool.
    rounds : int
        Number ``B >= 1`` of rounds.

    Returns
    -------
    TaskBatch
        Tasks, feature matrices and signal positions, shapes ``(R, B)``, ``(R, B, d, s)``,
        ``(R, B)``.

    Raises
    ------
    ValueError
        If ``rounds < 1``.

    See Also
    --------
    ground_truths : the pool the signals come from.

    Notes
    -----
    Definition 1: :math:`n_t` uniform on the pool; one column of :math:`X_t`, at a uniform
    position, is :math:`\beta_t v_{n_t}` with :math:`\beta_t = C` (Appendix A.2,
    ``beta="fixed"``) or :math:`\beta_t \sim \mathrm{Unif}(0, C]` (``beta="uniform"``); the
    other :math:`s - 1` columns are :math:`N(0, \sigma_t^2 I_d)`.

    Examples
    --------
    >>> cfg = CLConfig(T=5)
    >>> rng = np.random.default_rng(1)
    >>> W, V = ground_truths(cfg, rng, 3)
    >>> b = task_batch(cfg, rng, V, 4)
    >>> b.X.shape
    (3, 4, 10, 6)
    >>> r, t = 0, 0
    >>> bool(np.allclose(b.X[r, t][:, b.position[r, t]], V[r, b.task[r, t]]))
    True
    """
    if rounds < 1:
        raise ValueError(f"rounds must be >= 1, got {rounds}")
    R = V.shape[0]
    d, s, N = cfg.d, cfg.s, cfg.N
    task = rng.integers(0, N, size=(R, rounds))
    position = rng.integers(0, s, size=(R, rounds))
    signal = V[np.arange(R)[:, None], task]  # (R, B, d)
    if cfg.data_model == "definition1":
        X = cfg.sigma_t * rng.standard_normal((R, rounds, d, s))
        if cfg.beta == "uniform":
            beta = cfg.beta_max * (1.0 - rng.random((R, rounds)))  # Unif(0, C]
            col = beta[..., None] * signal
        else:
            col = cfg.beta_max * signal
        _put_column(X, position, col)
        return TaskBatch(task, X, position)
    r = cfg.code_rank
    X = np.zeros((R, rounds, d, s))
    cols = rng.standard_normal((R, rounds, r, s))
    X[:, :, :r, :] = cfg.column_norm * cols / np.linalg.norm(cols, axis=2, keepdims=True)
    _put_column(X, position, signal)
    z = rng.standard_normal((R, rounds, d - r))
    for j in range(r, d):
        src = (j - r) % r
        scale = np.where(position == j - r, CODE_LEAK_SIGNAL, CODE_LEAK) * z[..., j - r]
        X[:, :, j, :] = X[:, :, src, :] * scale[..., None]
    return TaskBatch(task, X, position)


def _put_column(X: np.ndarray, position: np.ndarray, col: np.ndarray) -> None:
    R, B = position.shape
    X[np.arange(R)[:, None], np.arange(B)[None, :], :, position] = col
