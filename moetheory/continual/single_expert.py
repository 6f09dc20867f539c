"""Vectorised single-expert recursion of eq. (5) with Gaussian or Definition-1 features.

The simulator of :mod:`moetheory.continual` draws features from Definition 1 only; the
expectation of Proposition 4 is derived (Appendix H, Lemma 16) for isotropic Gaussian
``X_t``. This module runs the same update ``w_t = w_{t-1} + P_t (w_{n_t} - w_{t-1})``
(eq. (5); ``P_t`` the projection onto the column space of ``X_t``) for ``R`` replicates at
once under either feature model, and records ``F_t`` (eq. (15)) and ``G_t`` (eq. (16)) at
every round.

Examples
--------
>>> rng = np.random.default_rng(0)
>>> F, G = single_expert_run(rng, np.eye(3)[:2], s=1, horizon=4, replicates=5)
>>> F.shape, bool(np.all(F[:, 0] == 0))
((5, 4), True)
"""

from __future__ import annotations

import numpy as np

__all__ = ["FEATURE_MODELS", "column_space_basis", "projection_sq_norms", "single_expert_run"]

#: Feature models: isotropic Gaussian ``X_t``, or Definition 1 (one column is ``v_{n_t}``).
FEATURE_MODELS: tuple[str, ...] = ("gaussian", "definition1")


def _check(s: int, d: int, replicates: int, model: str, signals: np.ndarray | None) -> None:
    if not (isinstance(d, int | np.integer) and d >= 2):
        raise ValueError(f"d must be an integer >= 2, got {d!r}")
    if not (isinstance(s, int | np.integer) and 1 <= s < d):
        raise ValueError(f"s must satisfy 1 <= s < d = {d}, got {s!r}")
    if not (isinstance(replicates, int | np.integer) and replicates >= 1):
        raise ValueError(f"replicates must be an integer >= 1, got {replicates!r}")
    if model not in FEATURE_MODELS:
        raise ValueError(f"model must be one of {FEATURE_MODELS}, got {model!r}")
    if model == "definition1":
        if signals is None or np.asarray(signals).ndim != 2 or np.asarray(signals).shape[1] != d:
            raise ValueError(f"signals must have shape (N, {d}) for model='definition1'")
        if np.any(np.linalg.norm(signals, axis=1) == 0):
            raise ValueError("signals (feature signals v_n) must be non-zero")


def column_space_basis(
    rng: np.random.Generator,
    s: int,
    d: int,
    replicates: int,
    model: str = "gaussian",
    signals: np.ndarray | None = None,
    tasks: np.ndarray | None = None,
) -> np.ndarray:
    """Orthonormal bases ``Q`` (R, d, s) of the column spaces of ``R`` draws of ``X_t``.

    Under ``"definition1"`` the first column is ``v_{tasks[k]}`` (its scale ``beta_t`` and the
    noise level ``sigma_t > 0`` do not change the column space) and the rest are Gaussian.

    Examples
    --------
    >>> Q = column_space_basis(np.random.default_rng(1), 2, 4, 3)
    >>> np.allclose(np.swapaxes(Q, 1, 2) @ Q, np.eye(2))
    True
    """
    _check(s, d, replicates, model, signals)
    X = rng.standard_normal((replicates, d, s))
    if model == "definition1":
        X[:, :, 0] = np.asarray(signals, dtype=float)[tasks]
    Q, _ = np.linalg.qr(X)
    return Q


def projection_sq_norms(
    rng: np.random.Generator,
    u: np.ndarray,
    s: int,
    replicates: int,
    model: str = "gaussian",
    signal: np.ndarray | None = None,
) -> np.ndarray:
    """``R`` independent draws of ``||P_t u||^2`` (Lemma 16's key step).

    Examples
    --------
    >>> x = projection_sq_norms(np.random.default_rng(2), np.ones(4), 2, 4000)
    >>> bool(abs(x.mean() - 2.0) < 0.1)
    True
    """
    u = np.asarray(u, dtype=float)
    if u.ndim != 1:
        raise ValueError(f"u must be a vector, got shape {u.shape}")
    d = u.shape[0]
    signals = None if signal is None else np.asarray(signal, dtype=float)[None, :]
    tasks = np.zeros(replicates, dtype=int)
    Q = column_space_basis(rng, s, d, replicates, model, signals, tasks)
    coef = np.einsum("rds,d->rs", Q, u)
    return np.sum(coef**2, axis=1)


def single_expert_run(
    rng: np.random.Generator,
    W: np.ndarray,
    s: int,
    horizon: int,
    replicates: int,
    model: str = "gaussian",
    signals: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Forgetting ``F_t`` and generalization error ``G_t`` (each (R, horizon)) of ``M = 1``.

    Tasks are drawn uniformly from the rows of ``W`` (Definition 1), the expert starts at 0
    and follows eq. (5). ``F_1 = 0`` by convention.

    Examples
    --------
    >>> rng = np.random.default_rng(3)
    >>> F, G = single_expert_run(rng, np.array([[1.0, 0.0, 0.0]]), 1, 2, 2)
    >>> bool(np.all(G[:, 1] <= G[:, 0] + 1e-12))
    True
    """
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[0] < 1 or not np.all(np.isfinite(W)):
        raise ValueError(f"W (ground truths) must be a finite (N, d) array, got shape {W.shape}")
    n_tasks, d = W.shape
    _check(s, d, replicates, model, signals)
    if not (isinstance(horizon, int | np.integer) and horizon >= 1):
        raise ValueError(f"horizon must be an integer >= 1, got {horizon!r}")
    w = np.zeros((replicates, d))
    counts = np.zeros((replicates, n_tasks))
    own_sum = np.zeros(replicates)
    F = np.zeros((replicates, horizon))
    G = np.zeros((replicates, horizon))
    rows = np.arange(replicates)
    for step in range(horizon):
        tasks = rng.integers(n_tasks, size=replicates)
        Q = column_space_basis(rng, s, d, replicates, model, signals, tasks)
        gap = W[tasks] - w
        w = w + np.einsum("rds,rs->rd", Q, np.einsum("rds,rd->rs", Q, gap))
        err = np.sum((w[:, None, :] - W[None, :, :]) ** 2, axis=2)
        if step:
            F[:, step] = (np.sum(counts * err, axis=1) - own_sum) / step
        counts[rows, tasks] += 1
        own_sum += err[rows, tasks]
        G[:, step] = np.sum(counts * err, axis=1) / (step + 1)
    return F, G
