"""The batched Levenberg–Marquardt iteration and its stopping rule, shared by the fits.

:func:`~moetheory.estimation.batched.fit_batch` (dense MoE, one-layer experts) and
:func:`~moetheory.estimation.variants.fit_variant` /
:func:`~moetheory.estimation.variants.fit_to_rule` (Top-K gates, two-layer experts) run the
same algorithm on different models: :func:`lm_iterate` is that algorithm once, the model
enters through two callbacks (the trial evaluation and the rebuild of the normal equations
after an accepted step).

Per fit: ``phi <- phi + delta`` with ``(A + lambda diag(A) + 1e-12 I) delta = -g``, accepted
when the objective decreases (then ``lambda <- max(lambda / 5, 1e-12)``), rejected otherwise
(``lambda <- min(3 lambda, 1e12)``). With ``tol > 0`` a fit stops when, after an accepted
step, the Gauss–Newton decrement is at most ``tol`` times its objective, or when a step is
rejected at ``lambda >= 1e8`` (:func:`stationary`); stopped fits leave the batch. The
damped systems are solved by :func:`~moetheory.estimation.detmath.spd_solve` (elementwise
operations only), so each fit's bits are its own, alone or in any batch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from moetheory.estimation.detmath import spd_solve

__all__ = ["LAMBDA_STOP", "gauss_newton_decrement", "lm_iterate", "stationary"]

#: Damping at which a rejected step means no descent is left (a stopping rule when tol > 0).
LAMBDA_STOP = 1e8
#: Relative damping of the Gauss-Newton decrement of the stopping rule (keeps it finite where
#: ``A`` is singular: over-specified fits have flat directions).
_DECREMENT_DAMPING = 1e-8


def _decrement_matrix(A: np.ndarray) -> np.ndarray:
    """``A + 1e-8 diag(A) + 1e-12 I``: the matrix of the Gauss-Newton decrement."""
    eye = np.eye(A.shape[1])
    diag = np.einsum("gpp->gp", A)
    return A + _DECREMENT_DAMPING * (diag[:, :, None] * eye) + 1e-12 * eye


def gauss_newton_decrement(A: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """``g^T (A + 1e-8 diag(A) + 1e-12 I)^{-1} g`` per fit: the Gauss-Newton decrement.

    The decrease of the mean squared residual that a full (undamped) Gauss-Newton step
    predicts from the current point.

    Parameters
    ----------
    A : ndarray of shape (G, P, P)
        Gauss-Newton matrices ``J^T J / n``.
    grad : ndarray of shape (G, P)
        Gradients ``J^T r / n``.

    Returns
    -------
    ndarray of shape (G,)
        The decrements.

    Notes
    -----
    The relative damping ``1e-8`` keeps the decrement finite where ``A`` is singular.

    See Also
    --------
    stationary : the stopping rule built on it.

    Examples
    --------
    >>> A = np.eye(2)[None]; g = np.array([[1.0, 2.0]])
    >>> bool(np.isclose(gauss_newton_decrement(A, g)[0], 5.0))
    True
    """
    return np.einsum("gp,gp->g", grad, spd_solve(_decrement_matrix(A), grad))


def stationary(A: np.ndarray, grad: np.ndarray, bar: np.ndarray) -> np.ndarray:
    """Whether each fit's Gauss-Newton decrement is at most ``bar``: the stopping rule.

    Parameters
    ----------
    A : ndarray of shape (G, P, P)
        Gauss-Newton matrices.
    grad : ndarray of shape (G, P)
        Gradients.
    bar : ndarray of shape (G,)
        The bars (``tol`` times each fit's objective).

    Returns
    -------
    ndarray of bool, shape (G,)
        The answers :func:`gauss_newton_decrement` gives, solving only where it must.

    Notes
    -----
    With :math:`M` the decrement's matrix (symmetric positive definite), Cauchy--Schwarz
    bounds the decrement below by the steepest-descent decrement,
    :math:`g^\\top M^{-1} g \\ge (g^\\top g)^2 / g^\\top M g`. Where that bound exceeds
    ``2 bar`` the answer is "no" without solving (most accepted steps far from a stationary
    point); elsewhere the system is solved. The factor 2 covers the rounding of the bound
    and of the elimination (backward stable for such :math:`M`: its decrement falls short of
    the bound by a few units in the last place at most), so the answers, and the fits'
    bits, are those of solving every system.

    See Also
    --------
    gauss_newton_decrement : the decrement itself.

    Examples
    --------
    >>> A = np.eye(2)[None]; g = np.array([[1.0, 2.0]])
    >>> stationary(A, g, np.array([6.0])).tolist(), stationary(A, g, np.array([4.0])).tolist()
    ([True], [False])
    """
    M = _decrement_matrix(A)
    gg = np.einsum("gp,gp->g", grad, grad)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bound = gg * gg / np.einsum("gp,gpq,gq->g", grad, M, grad)
    solve = np.flatnonzero(~(bound > 2.0 * bar))  # NaN (g = 0) is solved too
    out = np.zeros(A.shape[0], dtype=bool)
    if solve.size:
        g = grad[solve]
        out[solve] = np.einsum("gp,gp->g", g, spd_solve(M[solve], g)) <= bar[solve]
    return out


def lm_iterate(
    phi: np.ndarray,
    obj: np.ndarray,
    A: np.ndarray,
    grad: np.ndarray,
    iterations: int,
    tol: float,
    evaluate: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, Any]],
    refresh: Callable[[Any, np.ndarray, np.ndarray], None],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Batched Levenberg–Marquardt iterations, in place on ``phi``, ``obj``, ``A``, ``grad``.

    Parameters
    ----------
    phi : ndarray of shape (G, P)
        Parameters of the fits (updated in place).
    obj : ndarray of shape (G,)
        Their objectives (updated in place).
    A, grad : ndarray of shapes (G, P, P) and (G, P)
        Gauss–Newton matrices and gradients at ``phi`` (``refresh`` updates them).
    iterations : int
        Largest number of iterations of a fit.
    tol : float
        The stopping rule (:func:`stationary`); ``0`` runs every fit for all
        ``iterations`` (the batch then never shrinks).
    evaluate : callable
        ``evaluate(trial, act)``: the objectives of the trial parameters ``trial`` of the
        running fits ``act`` and a state for ``refresh``.
    refresh : callable
        ``refresh(state, idx, act)``: writes ``A`` and ``grad`` of the fits ``act[idx]``,
        whose trial steps are accepted, from the state of ``evaluate``.

    Returns
    -------
    accepted, ran : ndarray of int, shape (G,)
        Accepted steps and iterations of each fit.
    stopped : ndarray of bool, shape (G,)
        Whether the rule stopped each fit (always ``False`` when ``tol = 0``).

    Notes
    -----
    The step solves :math:`(A + \\lambda\\,\\mathrm{diag}(A) + 10^{-12} I)\\,\\delta = -g`;
    ``lambda`` starts at ``1e-3``.

    See Also
    --------
    moetheory.estimation.batched.fit_batch, moetheory.estimation.variants.fit_to_rule

    Examples
    --------
    >>> y = np.array([[1.0, 2.0]]); phi = np.zeros((1, 2)); obj = np.array([2.5])
    >>> A = np.eye(2)[None] / 2; grad = -y / 2
    >>> def evaluate(trial, act):
    ...     r = trial - y[act]
    ...     return np.einsum("gn,gn->g", r, r) / 2, r
    >>> def refresh(r, idx, act):
    ...     grad[act[idx]] = r[idx] / 2
    >>> acc, ran, stop = lm_iterate(phi, obj, A, grad, 50, 1e-9, evaluate, refresh)
    >>> bool(np.allclose(phi, y)), bool(stop[0])
    (True, True)
    """
    g = phi.shape[0]
    lam = np.full(g, 1e-3)
    accepted = np.zeros(g, dtype=np.int64)
    ran = np.zeros(g, dtype=np.int64)
    stopped = np.zeros(g, dtype=bool)
    eye = np.eye(phi.shape[1])
    act = np.arange(g)  # the fits still running
    for _ in range(iterations):
        if act.size == 0:
            break
        diag = np.einsum("gpp->gp", A[act])
        M = A[act] + lam[act, None, None] * (diag[:, :, None] * eye) + 1e-12 * eye
        trial = phi[act] + spd_solve(M, -grad[act])
        obj_t, state = evaluate(trial, act)
        ok = obj_t < obj[act]
        idx = np.flatnonzero(ok)
        if idx.size:  # the normal equations only where the step is taken
            refresh(state, idx, act)
        phi[act] = np.where(ok[:, None], trial, phi[act])
        obj[act] = np.where(ok, obj_t, obj[act])
        lam_old = lam[act]
        lam[act] = np.where(ok, np.maximum(lam_old / 5.0, 1e-12), np.minimum(lam_old * 3.0, 1e12))
        accepted[act] += ok
        ran[act] += 1
        if tol > 0:
            still = np.zeros(act.size, dtype=bool)
            if idx.size:
                still[idx] = stationary(A[act[idx]], grad[act[idx]], tol * obj_t[idx])
            done = np.where(ok, still, lam_old >= LAMBDA_STOP)
            stopped[act[done]] = True
            act = act[~done]
    return accepted, ran, stopped
