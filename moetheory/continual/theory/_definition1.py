r"""Exact expectations of the single expert (:math:`M = 1`) under Definition 1's features.

Proposition 4's closed forms (and :func:`~moetheory.continual.theory.exact_generalization`)
are derived for isotropic Gaussian :math:`X_t`, whose column space is a uniformly random
:math:`s`-dimensional subspace (:math:`\mathbb{E}[P_t] = \frac{s}{d} I`). Under Definition 1
one column of :math:`X_t` is :math:`\beta_t v_{n_t}`, with :math:`v_n = c\, w_n`: the column
space always holds :math:`w_{n_t}`. This module solves the recursion of eq. (5) exactly for
that data model, by the first and second moments of the model, so that a MoE run on
Definition-1 data is compared with the single expert on the same data.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from moetheory._doccer import fill_doc
from moetheory.continual.theory import _docs
from moetheory.continual.theory._notation import _check_t, overparam_ratio

__all__ = [
    "exact_forgetting_definition1",
    "exact_generalization_definition1",
    "projection_moments_definition1",
]


@fill_doc(_docs.OVERPARAM)
def projection_moments_definition1(s: int, d: int) -> tuple[float, float, float]:
    r"""Moments of the residual projection :math:`A_t = I - P_t` under Definition 1.

    Parameters
    ----------
    s, d : int
        Samples per task and dimension, ``1 <= s < d``.

    Returns
    -------
    rho, a, b : float
        With :math:`\Pi = I - u u^\top` (:math:`u = w_{n_t}/\|w_{n_t}\|`):
        :math:`\mathbb{E}[A_t] = \rho\,\Pi` and, for symmetric :math:`X`,
        :math:`\mathbb{E}[A_t X A_t] = a\,\Pi X \Pi + b\,\mathrm{tr}(\Pi X)\,\Pi`.

    %(raises)s

    See Also
    --------
    moetheory.continual.theory.projection_mean_definition1 : :math:`\mathbb{E}\|P_t u\|^2`.

    Notes
    -----
    The column space of :math:`X_t` is :math:`\mathrm{span}(u)` plus a uniformly random
    :math:`(s-1)`-dimensional subspace of :math:`u^\perp` (the Gaussian columns projected on
    :math:`u^\perp` are isotropic there; neither :math:`\beta_t > 0` nor :math:`\sigma_t > 0`
    changes the span). So :math:`A_t` is the projection onto a uniformly random
    :math:`p`-dimensional subspace of the :math:`k`-dimensional :math:`u^\perp`,
    :math:`p = d - s`, :math:`k = d - 1`. By rotation invariance inside :math:`u^\perp`,
    :math:`\mathbb{E}[A X A] = a\,\Pi X\Pi + b\,\mathrm{tr}(\Pi X)\Pi`; the trace gives
    :math:`a + k b = p/k` and the squared diagonal entry, a
    :math:`\mathrm{Beta}(p/2, (k-p)/2)` variable, gives :math:`a + b = p(p+2)/(k(k+2))`:

    .. math:: \rho = \frac{p}{k}, \qquad b = \frac{p(k-p)}{k(k-1)(k+2)}, \qquad
              a = \frac{p(p+2)}{k(k+2)} - b

    (:math:`b = 0`, :math:`a = 1` when :math:`k = 1`).

    Examples
    --------
    >>> projection_moments_definition1(1, 4)  # s = 1: A_t = Π exactly
    (1.0, 1.0, 0.0)
    """
    overparam_ratio(s, d)
    p, k = d - s, d - 1
    if k == 1:
        return 1.0, 1.0, 0.0
    b = p * (k - p) / (k * (k - 1) * (k + 2))
    return p / k, p * (p + 2) / (k * (k + 2)) - b, b


def _pools(W: np.ndarray) -> np.ndarray:
    W = np.asarray(W, dtype=float)
    if W.ndim == 2:
        W = W[None]
    if W.ndim != 3 or W.shape[1] < 1 or W.shape[2] < 2:
        raise ValueError(f"W (ground truths) must have shape (N, d) or (R, N, d), got {W.shape}")
    if not np.all(np.isfinite(W)):
        raise ValueError("W (ground truths) must be finite")
    if np.any(np.linalg.norm(W, axis=-1) == 0):
        raise ValueError("W (ground truths) must be non-zero vectors (Definition 1: v_n = c w_n)")
    return W


def _moments_definition1(
    W: np.ndarray, s: int, horizon: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pool and round ``t = 1..horizon``: E[G_t], E[F_t] (0 at t = 1) and E||w_t - w_{n_t}||².

    Forward recursion of the first moment ``m_t``, the second moment ``S_t`` and
    ``K_t = Σ_{i<=t} E[w_t w_{n_i}ᵀ]`` (see the public functions' Notes).
    """
    R, N, d = W.shape
    rho, a, b = projection_moments_definition1(s, d)
    U = W / np.linalg.norm(W, axis=-1, keepdims=True)  # (R, N, d)
    Ut, Wt = np.swapaxes(U, 1, 2), np.swapaxes(W, 1, 2)  # (R, d, N)
    wbar = W.mean(axis=1)  # (R, d)
    outer_w = Wt @ W / N  # (1/N) Σ w_n w_nᵀ
    mean_uu = Ut @ U / N
    eye = np.eye(d)[None]
    Bm = rho * (eye - mean_uu)  # E[A_t]
    sq_mean = (W**2).sum(-1).mean(axis=1)  # (1/N) Σ ||w_n||², (R,)
    wbar_outer = wbar[:, :, None] * wbar[:, None, :]
    m = np.zeros((R, d))
    S = np.zeros((R, d, d))
    K = np.zeros((R, d, d))
    G = np.zeros((R, horizon))
    F = np.zeros((R, horizon))
    own = np.zeros((R, horizon))
    own_sum = np.zeros(R)
    K_tt = np.zeros((R, d, d))
    trS_t, trK_tt = np.zeros(R), np.zeros(R)
    stationary = False  # m_t and S_t have reached their fixed points (to rounding)
    for t in range(1, horizon + 1):
        if stationary:
            own[:, t - 1] = own[:, t - 2]
            K = (t - 1) * wbar_outer + Bm @ K + K_tt
            trK = np.trace(K, axis1=1, axis2=2)
            G[:, t - 1] = trS_t + sq_mean - 2.0 * trK / t
            F[:, t - 1] = (trS_t + sq_mean - 2.0 * (trK - trK_tt) / (t - 1)
                           - own_sum / (t - 1))
            own_sum += own[:, t - 1]
            continue
        trS = np.trace(S, axis1=1, axis2=2)
        SU = U @ S  # row n: (S u_n)ᵀ (S is symmetric)
        uSu = (SU * U).sum(-1)  # (R, N)
        # E||w_t - w_{n_t}||² = E||A_t w_{t-1}||² = ρ (1/N) Σ_n tr(Π_n S_{t-1})
        own[:, t - 1] = rho * (trS - uSu.mean(axis=1))
        # Π_n m_{t-1}, rows n
        um = (U * m[:, None, :]).sum(-1)
        proj_m = m[:, None, :] - um[:, :, None] * U
        # K_{t,t} = (1/N) Σ_n (w_n + ρ Π_n m_{t-1}) w_nᵀ ; for i < t,
        # E[w_t w_{n_i}ᵀ] = w̄ w̄ᵀ + E[A] E[w_{t-1} w_{n_i}ᵀ]
        K_tt = outer_w + rho * (np.swapaxes(proj_m, 1, 2) @ W) / N
        K = (t - 1) * wbar_outer + Bm @ K + K_tt
        # S_t = (1/N) Σ_n [w_n w_nᵀ + ρ(w_n (Π_n m)ᵀ + Π_n m w_nᵀ)
        #                   + a Π_n S Π_n + b tr(Π_n S) Π_n]
        cross = Wt @ proj_m / N
        sym = Ut @ SU / N  # (1/N) Σ u_n (S u_n)ᵀ
        uSu_uu = (Ut * uSu[:, None, :]) @ U / N  # (1/N) Σ (u_nᵀ S u_n) u_n u_nᵀ
        pis_pi = S - sym - np.swapaxes(sym, 1, 2) + uSu_uu  # (1/N) Σ Π_n S Π_n
        # (1/N) Σ tr(Π_n S) Π_n = (1/N) Σ (trS - u_nᵀ S u_n)(I - u_n u_nᵀ)
        weighted_pi = ((trS - uSu.mean(axis=1))[:, None, None] * eye
                       - trS[:, None, None] * mean_uu + uSu_uu)
        S_new = outer_w + rho * (cross + np.swapaxes(cross, 1, 2)) + a * pis_pi + b * weighted_pi
        m_new = wbar + (Bm @ m[:, :, None])[:, :, 0]
        # once neither moment moves (every entry within rounding), K_{t,t} and the error
        # right after a round stay as they are: only K_t moves on
        stationary = t > 1 and bool(
            np.all(np.abs(S_new - S) <= 1e-15 * np.abs(S_new).max())
            and np.all(np.abs(m_new - m) <= 1e-15 * np.abs(m_new).max()))
        S, m = S_new, m_new
        trS_t = np.trace(S, axis1=1, axis2=2)
        trK = np.trace(K, axis1=1, axis2=2)
        trK_tt = np.trace(K_tt, axis1=1, axis2=2)
        G[:, t - 1] = trS_t + sq_mean - 2.0 * trK / t
        if t > 1:
            F[:, t - 1] = (trS_t + sq_mean - 2.0 * (trK - trK_tt) / (t - 1)
                           - own_sum / (t - 1))
        own_sum += own[:, t - 1]
    return G, F, own


def _moment_at(
    W: np.ndarray, s: int, rounds: Sequence[int], name: str, low: int, which: int
) -> np.ndarray:
    """Moment ``which`` of :func:`_moments_definition1` (0: E[G_t], 1: E[F_t]) at ``rounds``
    (the parameter ``name``, integers >= ``low``), per pool; one row if ``W`` is one pool."""
    Wb = _pools(W)
    ts = _check_t(rounds, name, low)
    out = _moments_definition1(Wb, s, int(ts.max()))[which][:, ts - 1]
    return out[0] if np.asarray(W).ndim == 2 else out


@fill_doc(_docs.DEFINITION1)
def exact_generalization_definition1(
    W: np.ndarray, s: int, T_values: Sequence[int]
) -> np.ndarray:
    r"""Exact :math:`\mathbb{E}[G_T]` of the single expert when :math:`X_t` follows Definition 1.

    Parameters
    ----------
    %(pools)s
    T_values : sequence of int
        Rounds :math:`T \ge 1`.

    Returns
    -------
    ndarray, shape (len(T_values),) or (R, len(T_values))
        :math:`\frac1T\sum_{i=1}^{T}\mathbb{E}\|w_T - w_{n_i}\|^2` for each pool and
        :math:`T`, the expectation over the tasks and the features given the pool.

    Raises
    ------
    ValueError
        %(pools_errors)s of at least 1.

    See Also
    --------
    exact_forgetting_definition1 : the forgetting under the same data model.
    exact_generalization : the same quantity for Gaussian :math:`X_t`.
    moetheory.continual.single_expert.single_expert_run : Monte Carlo of both data models.

    Notes
    -----
    Tasks are uniform on the pool and :math:`w_0 = 0`. The column space of :math:`X_t`
    holds :math:`w_{n_t}`, so eq. (5) reads :math:`w_t = w_{n_t} + A_t w_{t-1}`,
    :math:`A_t = I - P_t`, with the moments of :func:`projection_moments_definition1`.
    With :math:`\bar w = \frac1N\sum_n w_n`, :math:`\Pi_n = I - u_n u_n^\top` and
    :math:`B = \mathbb{E}[A_t] = \frac{\rho}{N}\sum_n \Pi_n`, the first moment
    :math:`m_t = \mathbb{E} w_t`, the second :math:`S_t = \mathbb{E}[w_t w_t^\top]` and
    :math:`K_t = \sum_{i \le t}\mathbb{E}[w_t w_{n_i}^\top]` obey

    .. math::

        m_t &= \bar w + B m_{t-1}, \\
        S_t &= \frac1N\sum_n \big[w_n w_n^\top + \rho(w_n m_{t-1}^\top\Pi_n
               + \Pi_n m_{t-1} w_n^\top) + a\,\Pi_n S_{t-1}\Pi_n
               + b\,\mathrm{tr}(\Pi_n S_{t-1})\Pi_n\big], \\
        K_t &= (t-1)\,\bar w\bar w^\top + B K_{t-1}
               + \frac1N\sum_n (w_n + \rho\,\Pi_n m_{t-1}) w_n^\top,

    from :math:`m_0 = 0`, :math:`S_0 = K_0 = 0` (task :math:`n_i`, :math:`i < t`, is
    independent of round :math:`t`'s task and features), and

    .. math:: \mathbb{E}[G_T] = \mathrm{tr}\,S_T + \frac1N\sum_n\|w_n\|^2
              - \frac2T\,\mathrm{tr}\,K_T .

    Neither :math:`\beta_t`, :math:`\sigma_t` nor the signal scale :math:`c` enters: they
    do not change the column space.

    %(references)s

    Examples
    --------
    One ground truth: every round learns it exactly (its direction is always in the span).

    >>> exact_generalization_definition1(np.array([[1.0, 2.0, 0.0]]), 1, [1, 5]).tolist()
    [0.0, 0.0]
    """
    return _moment_at(W, s, T_values, "T_values", 1, 0)


@fill_doc(_docs.DEFINITION1)
def exact_forgetting_definition1(
    W: np.ndarray, s: int, t_values: Sequence[int]
) -> np.ndarray:
    r"""Exact :math:`\mathbb{E}[F_t]` of the single expert when :math:`X_t` follows Definition 1.

    Parameters
    ----------
    %(pools)s
    t_values : sequence of int
        Rounds :math:`t \ge 2`.

    Returns
    -------
    ndarray, shape (len(t_values),) or (R, len(t_values))
        :math:`\frac{1}{t-1}\sum_{i<t}\big(\mathbb{E}\|w_t - w_{n_i}\|^2 -
        \mathbb{E}\|w_i - w_{n_i}\|^2\big)` for each pool and :math:`t`.

    Raises
    ------
    ValueError
        %(pools_errors)s of at least 2.

    See Also
    --------
    exact_generalization_definition1 : the recursion used (its Notes).
    exact_forgetting : the same quantity for Gaussian :math:`X_t`.

    Notes
    -----
    With the moments of :func:`exact_generalization_definition1`,
    :math:`\sum_{i<t}\mathbb{E}[w_{n_i}^\top w_t] = \mathrm{tr}(K_t - K_{t,t})`,
    :math:`K_{t,t} = \frac1N\sum_n (w_n + \rho\Pi_n m_{t-1})w_n^\top`, and the error right
    after round :math:`i` is :math:`\mathbb{E}\|A_i w_{i-1}\|^2 = \frac{\rho}{N}\sum_n
    \mathrm{tr}(\Pi_n S_{i-1})`.

    %(references)s

    Examples
    --------
    >>> W = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    >>> float(exact_forgetting_definition1(W, 1, [2])[0])  # 1/2 · E||w_2 - w_{n_1}||²
    0.5
    """
    return _moment_at(W, s, t_values, "t_values", 2, 1)
