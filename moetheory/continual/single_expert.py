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

from moetheory._doccer import fill_doc
from moetheory.continual._docs import REFERENCES

__all__ = ["FEATURE_MODELS", "column_space_basis", "projection_sq_norms", "single_expert_run"]

#: Feature models: isotropic Gaussian ``X_t``, or Definition 1 (one column is ``v_{n_t}``).
FEATURE_MODELS: tuple[str, ...] = ("gaussian", "definition1")


#: Docstring parts of the functions below: the References section and the ``model``
#: parameter of the three functions that draw features.
_DOC_PARTS: dict[str, str] = {
    **REFERENCES,
    "model": """\
model : {"gaussian", "definition1"}, optional
    Feature model (:data:`FEATURE_MODELS`): i.i.d. standard Gaussian entries, or
    Definition 1 (the first column is the task's signal :math:`v_n`); default
    ``"gaussian"``.""",
}


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


@fill_doc(_DOC_PARTS)
def column_space_basis(
    rng: np.random.Generator,
    s: int,
    d: int,
    replicates: int,
    model: str = "gaussian",
    signals: np.ndarray | None = None,
    tasks: np.ndarray | None = None,
) -> np.ndarray:
    r"""Orthonormal bases of the column spaces of ``replicates`` independent draws of :math:`X_t`.

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of the Gaussian columns.
    s, d : int
        Samples per task and dimension, ``1 <= s < d``.
    replicates : int
        Number of independent draws :math:`R \ge 1`.
    %(model)s
    signals : ndarray, shape (N, d), optional
        Task signals :math:`v_n` (required for ``"definition1"``).
    tasks : ndarray of int, shape (R,), optional
        Task of each draw, indexing ``signals`` (required for ``"definition1"``).

    Returns
    -------
    ndarray, shape (R, d, s)
        :math:`Q` with orthonormal columns spanning the column space of each :math:`X_t`, so
        that the projection of eq. (5) is :math:`P_t = Q Q^\top`.

    Raises
    ------
    ValueError
        If ``d < 2``, ``s`` is not in ``[1, d)``, ``replicates < 1``, ``model`` is unknown,
        or, under ``"definition1"``, the signals are missing, not of shape ``(N, d)`` or
        contain a zero vector.

    See Also
    --------
    projection_sq_norms : :math:`\|P_t u\|^2` from these bases.
    single_expert_run : the recursion of eq. (5) built on them.

    Notes
    -----
    Under Definition 1 of [1]_ one column of :math:`X_t` is :math:`\beta_t v_{n_t}` and the
    others are Gaussian noise of level :math:`\sigma_t`; neither :math:`\beta_t > 0` nor
    :math:`\sigma_t > 0` changes the column space, so the first column is set to
    :math:`v_{n_t}` and the rest are standard Gaussian. The basis comes from Gram--Schmidt
    with reorthogonalisation ("twice is enough", [2]_) on the columns, almost surely of full
    rank :math:`s`:

    .. math:: v \leftarrow v - (q_i^\top v)\,q_i \ (i < j, \text{ twice}), \qquad
              q_j = v / \|v\|,

    vectorised over the draws, every inner product summed in index order by elementwise
    IEEE operations: the same bits on every BLAS/LAPACK and SIMD path (LAPACK's QR is not),
    and about five times faster than the batched LAPACK QR for these small matrices. It is
    the algorithm of :func:`~moetheory.continual.simulator.orthonormal_basis` with the draws
    as the last (contiguous) axis, which makes it about 1.5 times faster here.

    References
    ----------
    .. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
       Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.
    .. [2] L. Giraud, J. Langou and M. Rozloznik, "The loss of orthogonality in the
       Gram-Schmidt orthogonalization process", Comput. Math. Appl. 50 (2005) 1069-1075.

    Examples
    --------
    >>> Q = column_space_basis(np.random.default_rng(1), 2, 4, 3)
    >>> Q.shape, np.allclose(np.swapaxes(Q, 1, 2) @ Q, np.eye(2))
    ((3, 4, 2), True)
    """
    _check(s, d, replicates, model, signals)
    X = rng.standard_normal((replicates, d, s))
    if model == "definition1":
        X[:, :, 0] = np.asarray(signals, dtype=float)[tasks]
    V = np.ascontiguousarray(X.transpose(2, 1, 0))  # (s, d, R): each draw's entry last

    def dot(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        out = u[0] * v[0]
        for i in range(1, d):
            out += u[i] * v[i]
        return out

    for j in range(s):
        v = V[j]
        for _ in range(2):
            for i in range(j):
                v -= dot(V[i], v) * V[i]
        v /= np.sqrt(dot(v, v))
    return V.transpose(2, 1, 0)


@fill_doc(_DOC_PARTS)
def projection_sq_norms(
    rng: np.random.Generator,
    u: np.ndarray,
    s: int,
    replicates: int,
    model: str = "gaussian",
    signal: np.ndarray | None = None,
) -> np.ndarray:
    r"""``replicates`` independent draws of :math:`\|P_t u\|^2` (the key step of Lemma 16).

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of the features.
    u : ndarray, shape (d,)
        The vector projected.
    s : int
        Samples per task, ``1 <= s < d``.
    replicates : int
        Number of draws :math:`R \ge 1`.
    %(model)s
    signal : ndarray, shape (d,), optional
        The task signal :math:`v` (required for ``"definition1"``).

    Returns
    -------
    ndarray, shape (R,)
        :math:`\|P_t u\|^2 = \|Q^\top u\|^2` for each draw.

    Raises
    ------
    ValueError
        If ``u`` is not a vector, or from the argument checks of
        :func:`column_space_basis`.

    See Also
    --------
    column_space_basis : the bases used.
    moetheory.continual.theory.projection_mean_definition1 : the exact mean under
        Definition 1.

    Notes
    -----
    For Gaussian :math:`X_t` the column space is a uniformly random :math:`s`-dimensional
    subspace, so :math:`\mathbb{E}[P_t] = \frac{s}{d} I` and

    .. math:: \mathbb{E}\|P_t u\|^2 = \frac{s}{d}\|u\|^2 = (1 - r)\|u\|^2,

    the identity Lemma 16 of [1]_ uses (Appendix H). Under Definition 1 the mean is
    :func:`~moetheory.continual.theory.projection_mean_definition1` instead.

    %(references)s

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


@fill_doc(_DOC_PARTS)
def single_expert_run(
    rng: np.random.Generator,
    W: np.ndarray,
    s: int,
    horizon: int,
    replicates: int,
    model: str = "gaussian",
    signals: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Forgetting :math:`F_t` and generalization error :math:`G_t` of one expert (:math:`M = 1`).

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of the tasks and the features.
    W : ndarray, shape (N, d)
        Ground truths :math:`w_1, \dots, w_N` (finite).
    s : int
        Samples per task, ``1 <= s < d``.
    horizon : int
        Number of rounds :math:`T \ge 1`.
    replicates : int
        Number of independent runs :math:`R \ge 1`, simulated at once.
    %(model)s
    signals : ndarray, shape (N, d), optional
        Task signals :math:`v_n` (required for ``"definition1"``).

    Returns
    -------
    F, G : ndarray, shape (R, horizon)
        :math:`F_t` (eq. (15)) and :math:`G_t` (eq. (16)) at rounds :math:`t = 1, \dots, T`
        (column ``t - 1``); :math:`F_1 = 0` by convention.

    Raises
    ------
    ValueError
        If ``W`` is not a finite (N, d) array, ``horizon < 1``, or from the argument checks
        of :func:`column_space_basis`.

    See Also
    --------
    moetheory.continual.theory.exact_forgetting : exact :math:`\mathbb{E}[F_t]`.
    moetheory.continual.theory.exact_generalization : exact :math:`\mathbb{E}[G_T]`.
    moetheory.continual.theory.single_expert_exact_moments : the same moments by enumeration.

    Notes
    -----
    Tasks :math:`n_t` are drawn uniformly from the rows of :math:`W` (Definition 1 of [1]_);
    the expert starts at :math:`w_0 = 0` and follows eq. (5),

    .. math:: w_t = w_{t-1} + P_t (w_{n_t} - w_{t-1}),

    :math:`P_t` the projection onto the column space of :math:`X_t`. With
    :math:`e_t(n) = \|w_t - w_n\|^2`,

    .. math:: F_t = \frac{1}{t-1}\sum_{\tau=1}^{t-1}\big(e_t(n_\tau) - e_\tau(n_\tau)\big),
              \qquad G_t = \frac1t \sum_{\tau=1}^{t} e_t(n_\tau).

    %(references)s

    Examples
    --------
    >>> rng = np.random.default_rng(3)
    >>> F, G = single_expert_run(rng, np.array([[1.0, 0.0, 0.0]]), 1, 2, 2)
    >>> F.shape, bool(np.all(G[:, 1] <= G[:, 0] + 1e-12))
    ((2, 2), True)
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
