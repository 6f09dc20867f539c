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

With a feasible ``space`` (:class:`Constraints`) the iteration is a projected
Levenberg–Marquardt on that closed set: a coordinate on a face the descent direction points
out of is held (:func:`free_system`), the step is solved on the others, the trial point is
projected on the set, and the stopping rule is taken on the free coordinates (the decrement
of the problem restricted to the face the fit lies on: the Karush–Kuhn–Tucker conditions of
the set at the rule's precision). A fit whose minimiser is on a face then stops there,
instead of creeping toward it. :func:`qn_iterate` continues, by projected BFGS on the same
set and rule, the fits the Levenberg–Marquardt cap leaves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from moetheory.estimation.detmath import spd_solve

__all__ = ["LAMBDA_STOP", "free_system", "gauss_newton_decrement", "lm_iterate", "qn_iterate",
           "stationary"]

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
    r"""The Gauss-Newton decrement of each fit.

    It is :math:`g^\top (A + 10^{-8} \operatorname{diag}(A) + 10^{-12} I)^{-1} g`.

    The decrease of the mean squared residual that a full (undamped) Gauss-Newton step
    predicts from the current point.

    Parameters
    ----------
    A : ndarray of shape (G, P, P)
        Gauss-Newton matrices :math:`J^\top J / n`.
    grad : ndarray of shape (G, P)
        Gradients :math:`J^\top r / n`.

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


class Constraints(Protocol):
    """A closed box-like feasible set for :func:`lm_iterate` and :func:`qn_iterate` (not
    exported: :class:`~moetheory.estimation.parameter_space.ParameterSpace` is the one)."""

    def clip(self, phi: np.ndarray) -> np.ndarray:
        """``phi`` with the coordinates a step took out of the set cut back to it."""
        ...  # pragma: no cover

    def gauge(self, phi: np.ndarray) -> np.ndarray:
        """``phi`` moved, without changing the objective, to the slice the set is stated on."""
        ...  # pragma: no cover

    def held(self, phi: np.ndarray, grad: np.ndarray) -> np.ndarray:
        """Which coordinates (G, P) lie on a face the descent direction points out of."""
        ...  # pragma: no cover


def free_system(A: np.ndarray, grad: np.ndarray, held: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """The normal equations with the coordinates held on faces of the feasible set taken out.

    Parameters
    ----------
    A : ndarray of shape (G, P, P)
        Gauss–Newton matrices.
    grad : ndarray of shape (G, P)
        Gradients of the objective.
    held : ndarray of bool, shape (G, P)
        The held coordinates (:meth:`Constraints.held`).

    Returns
    -------
    A_free : ndarray of shape (G, P, P)
        ``A`` with the rows and columns of the held coordinates replaced by the identity's.
    grad_free : ndarray of shape (G, P)
        ``grad`` with the held coordinates set to 0.

    Notes
    -----
    A step solved on the result leaves the held coordinates where they are, and its
    Gauss–Newton decrement is the one of the problem restricted to the faces the fit lies
    on: zero exactly at a Karush–Kuhn–Tucker point of the box.

    See Also
    --------
    lm_iterate, qn_iterate : the iterations that use it.
    moetheory.estimation.parameter_space.ParameterSpace.held : the held coordinates.

    Examples
    --------
    >>> A = np.eye(2)[None] * 2.0; g = np.array([[-1.0, 1.0]])
    >>> Af, gf = free_system(A, g, np.array([[True, False]]))
    >>> Af[0].tolist(), gf.tolist()
    ([[1.0, 0.0], [0.0, 2.0]], [[0.0, 1.0]])
    """
    if not held.any():
        return A, grad
    free = ~held
    A_free = np.where(free[:, :, None] & free[:, None, :], A, 0.0)
    A_free += held[:, :, None] * np.eye(A.shape[1])
    return A_free, np.where(free, grad, 0.0)


def lm_iterate(
    phi: np.ndarray,
    obj: np.ndarray,
    A: np.ndarray,
    grad: np.ndarray,
    iterations: int,
    tol: float,
    evaluate: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, Any]],
    refresh: Callable[[Any, np.ndarray, np.ndarray], None],
    *,
    space: Constraints | None = None,
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
    space : Constraints, optional
        Run the projected iteration on this closed set (``phi`` must lie in it): each trial
        point is clipped and gauge-fixed (``space.gauge(space.clip(trial))``) before its
        evaluation, and the step and the stopping
        rule use :func:`free_system` with ``space.held``. ``None`` (default) leaves ``phi``
        unconstrained.

    Returns
    -------
    accepted, ran : ndarray of int, shape (G,)
        Accepted steps and iterations of each fit.
    stopped : ndarray of bool, shape (G,)
        Whether the rule stopped each fit (always ``False`` when ``tol = 0``).

    Notes
    -----
    The step solves :math:`(A + \\lambda\\,\\mathrm{diag}(A) + 10^{-12} I)\\,\\delta = -g`;
    ``lambda`` starts at ``1e-3``. With a ``space``, ``A`` and ``g`` are those of
    :func:`free_system` at the current point, in the step and in the stopping rule.

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
        A_act, g_act = A[act], grad[act]
        if space is not None:
            A_act, g_act = free_system(A_act, g_act, space.held(phi[act], g_act))
        diag = np.einsum("gpp->gp", A_act)
        M = A_act + lam[act, None, None] * (diag[:, :, None] * eye) + 1e-12 * eye
        trial = phi[act] + spd_solve(M, -g_act)
        if space is not None:
            trial = space.gauge(space.clip(trial))
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
                A_new, g_new = A[act[idx]], grad[act[idx]]
                if space is not None:
                    A_new, g_new = free_system(A_new, g_new, space.held(phi[act[idx]], g_new))
                still[idx] = stationary(A_new, g_new, tol * obj_t[idx])
            done = np.where(ok, still, lam_old >= LAMBDA_STOP)
            stopped[act[done]] = True
            act = act[~done]
    return accepted, ran, stopped


def _matvec(M: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``M v`` per fit, (G, P, P) by (G, P), summed in the fixed order q = 0, 1, ..."""
    out = M[:, :, 0] * v[:, 0, None]
    for q in range(1, v.shape[1]):
        out += M[:, :, q] * v[:, q, None]
    return out


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a . b`` per fit, (G, P) by (G, P), summed in the fixed order p = 0, 1, ..."""
    out = a[:, 0] * b[:, 0]
    for p in range(1, a.shape[1]):
        out += a[:, p] * b[:, p]
    return out


def _qn_start(A: np.ndarray) -> np.ndarray:
    """The first quasi-Newton model: the decrement's matrix ``A + 1e-8 diag(A) + 1e-12 I``."""
    return _decrement_matrix(A)


def qn_iterate(
    phi: np.ndarray,
    obj: np.ndarray,
    A: np.ndarray,
    grad: np.ndarray,
    fits: np.ndarray,
    iterations: int,
    tol: float,
    evaluate: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, Any]],
    refresh: Callable[[Any, np.ndarray, np.ndarray], None],
    space: Constraints,
    *,
    halvings: int = 40,
    hull: int = 5,
    radius: float = 1e-3,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Projected BFGS on the fits ``fits``, in place, to the stopping rule of :func:`lm_iterate`.

    Parameters
    ----------
    phi, obj, A, grad, evaluate, refresh
        As in :func:`lm_iterate` (``A`` and ``grad`` current at ``phi``).
    fits : ndarray of int
        The fits to iterate (the others are left alone).
    iterations : int
        Largest number of iterations of a fit (one direction and its line search each).
    tol : float
        The stopping rule (> 0): the Gauss–Newton decrement of the free coordinates at most
        ``tol`` times the objective (:func:`stationary`, :func:`free_system`).
    space : Constraints
        The closed feasible set (projection and held faces).
    halvings : int
        Largest number of step halvings of a line search.
    hull : int
        Iterates of the nonsmooth form of the rule (below; ``0``: not used).
    radius : float
        The largest coordinate distance of those iterates from the current point.

    Returns
    -------
    ran : ndarray of int, shape (G,)
        Iterations of each fit.
    stopped : ndarray of bool, shape (G,)
        Whether the rule stopped each fit: the decrement, its nonsmooth form, or no descent
        left (a line search that fails from a model just reset to the Gauss–Newton one).
    hull_stopped : ndarray of bool, shape (G,)
        Whether the nonsmooth form stopped it.

    Notes
    -----
    Levenberg–Marquardt models the objective's Hessian by :math:`2 J^\\top J`, which drops
    the residual term :math:`2\\sum_m r_m \\nabla^2 f(x_m)`. Where the residuals are noise of
    the size of the signal a parameter carries (the weakly identified atoms of an
    over-specified fit) that term is not small and can make the Hessian indefinite: the
    damped steps then zigzag along a curved valley, gaining little per step for thousands
    of steps. BFGS learns the curvature along the steps it takes (here from the
    Gauss–Newton model, in the units of ``A``: the model is
    :math:`\\mathrm{obj} + 2 g^\\top s + s^\\top B s`, updated with
    :math:`y = g_{\\mathrm{new}} - g`, :math:`s` the step, when :math:`y^\\top s > 0`). The
    direction :math:`-B^{-1} g` is taken on the free coordinates (:func:`free_system`),
    the line search halves the step from 1 until the clipped point :math:`\\phi_t` meets
    the Armijo condition :math:`\\mathrm{obj}_t \\le \\mathrm{obj} + 10^{-4} \\cdot 2
    g^\\top (\\phi_t - \\phi)` with a strict decrease; the point kept is its gauge
    representative, and the secant pair uses :math:`s = \\phi_t - \\phi` (the objective and
    its gradient do not change along the gauge's shifts, so the pair describes the step
    modulo them). Every operation is elementwise or
    :func:`~moetheory.estimation.detmath.spd_solve`: the same bits on every SIMD/BLAS
    path, each fit's its own.

    *Nonsmooth form of the rule.* Where the objective is not differentiable (ReLU experts:
    its gradient jumps wherever a hinge :math:`a^\\top x + b = 0` crosses one of the
    :math:`n` inputs, so near a minimiser the smooth pieces are :math:`O(1/n)` wide) the
    decrement of the current piece need not become small: the steps zigzag across the kinks
    and gain little. The rule then asks whether the decrement of some convex combination of
    the gradients at the last ``hull`` iterates, all within ``radius`` (largest coordinate
    distance) of the current point, is at most ``tol`` times the objective:
    :math:`\\min_{\\lambda \\in \\Delta} (G\\lambda)^\\top M^{-1} (G\\lambda)`, :math:`M` the
    decrement's matrix at the current point, on its free coordinates. That is approximate
    Clarke stationarity, the termination test of gradient sampling and of BFGS on nonsmooth
    functions (Burke, Lewis and Overton 2005; Lewis and Overton 2013); with ``hull = 1`` it is
    the decrement itself. The minimum over the simplex is bounded above by 100 Frank–Wolfe
    steps with exact line search, so the test only certifies (a larger bound answers "no").

    References
    ----------
    .. [1] J. V. Burke, A. S. Lewis, M. L. Overton, "A robust gradient sampling algorithm
       for nonsmooth, nonconvex optimization", SIAM J. Optim. 15 (2005) 751-779.
    .. [2] A. S. Lewis, M. L. Overton, "Nonsmooth optimization via quasi-Newton methods",
       Math. Program. 141 (2013) 135-163.

    See Also
    --------
    lm_iterate : the iteration this one continues.

    Examples
    --------
    >>> y = np.array([[1.0, 2.0]]); phi = np.zeros((1, 2)); obj = np.array([2.5])
    >>> A = np.eye(2)[None] / 2; grad = -y / 2
    >>> class Box:
    ...     def clip(self, p): return np.clip(p, -5, 5)
    ...     def gauge(self, p): return p
    ...     def held(self, p, g): return np.zeros(p.shape, bool)
    >>> def evaluate(trial, act):
    ...     r = trial - y[act]
    ...     return np.einsum("gn,gn->g", r, r) / 2, r
    >>> def refresh(r, idx, act):
    ...     grad[act[idx]] = r[idx] / 2
    >>> ran, stop, _ = qn_iterate(phi, obj, A, grad, np.array([0]), 50, 1e-9, evaluate,
    ...                           refresh, Box())
    >>> bool(np.allclose(phi, y)), bool(stop[0])
    (True, True)
    """
    g_all, p = phi.shape
    ran = np.zeros(g_all, dtype=np.int64)
    stopped = np.zeros(g_all, dtype=bool)
    by_hull = np.zeros(g_all, dtype=bool)
    act = np.asarray(fits, dtype=np.int64)
    if act.size == 0:
        return ran, stopped, by_hull
    past_phi = np.zeros((g_all, max(hull, 1), p))  # the last iterates and their gradients,
    past_grad = np.zeros_like(past_phi)  # newest first
    seen = np.zeros(g_all, dtype=np.int64)
    B = np.zeros_like(A)
    B[act] = _qn_start(A[act])
    fresh = np.zeros(g_all, dtype=bool)  # B was just reset to the Gauss-Newton model
    fresh[act] = True
    for _ in range(iterations):
        if act.size == 0:
            break
        g_old = grad[act].copy()
        Bf, gf = free_system(B[act], g_old, space.held(phi[act], g_old))
        with np.errstate(all="ignore"):
            d = spd_solve(Bf, -gf)
        bad = ~np.all(np.isfinite(d), axis=1)  # no direction from this model
        d[bad] = 0.0
        alpha = np.ones(act.size)
        todo = np.arange(act.size)
        moved = np.zeros(act.size, dtype=bool)
        step = np.zeros_like(d)
        for _ in range(halvings):
            if todo.size == 0:
                break
            who = act[todo]
            raw = space.clip(phi[who] + alpha[todo, None] * d[todo])
            trial = space.gauge(raw)
            obj_t, state = evaluate(trial, who)
            gain = 2.0 * _dot(g_old[todo], raw - phi[who])
            ok = (obj_t < obj[who]) & (obj_t <= obj[who] + 1e-4 * gain)
            idx = np.flatnonzero(ok)
            if idx.size:
                refresh(state, idx, who)
                step[todo[idx]] = raw[idx] - phi[who[idx]]  # modulo the gauge's flat move
                phi[who[idx]] = trial[idx]
                obj[who[idx]] = obj_t[idx]
                moved[todo[idx]] = True
            todo = todo[~ok]
            alpha[todo] /= 2.0
        ran[act] += 1
        done = np.zeros(act.size, dtype=bool)
        # no step found: reset the model once; from a reset model, no descent is left (or,
        # with no direction even from it, the fit leaves the phase at the cap's status)
        failed = np.flatnonzero(~moved)
        done[failed] = fresh[act[failed]]
        stopped[act[failed[~bad[failed]]]] = fresh[act[failed[~bad[failed]]]]
        B[act[failed]] = _qn_start(A[act[failed]])
        fresh[act[failed]] = True
        ok_idx = np.flatnonzero(moved)
        if ok_idx.size:
            who = act[ok_idx]
            s, yv = step[ok_idx], grad[who] - g_old[ok_idx]
            sy = _dot(s, yv)
            Bs = _matvec(B[who], s)
            sBs = _dot(s, Bs)
            good = (sy > 1e-12 * np.sqrt(_dot(s, s) * _dot(yv, yv))) & (
                sBs > 1e-12 * np.sqrt(_dot(s, s) * _dot(Bs, Bs)))
            with np.errstate(all="ignore"):
                upd = B[who] + (yv[:, :, None] * yv[:, None, :]) / sy[:, None, None] - (
                    Bs[:, :, None] * Bs[:, None, :]) / sBs[:, None, None]
            good &= np.all(np.isfinite(upd), axis=(1, 2))
            B[who] = np.where(good[:, None, None], upd, B[who])
            fresh[who] = False
            held = space.held(phi[who], grad[who])
            A_new, g_new = free_system(A[who], grad[who], held)
            smooth = stationary(A_new, g_new, tol * obj[who])
            if hull > 1:
                past_phi[who] = np.roll(past_phi[who], 1, axis=1)
                past_grad[who] = np.roll(past_grad[who], 1, axis=1)
                past_phi[who, 0], past_grad[who, 0] = phi[who], grad[who]
                seen[who] += 1
                near = np.max(np.abs(past_phi[who] - phi[who, None, :]), axis=(1, 2)) <= radius
                ask = np.flatnonzero(~smooth & near & (seen[who] >= hull))
                if ask.size:
                    g_hull = np.where(held[ask, None, :], 0.0, past_grad[who[ask]])
                    late = _hull_decrement(A_new[ask], g_hull) <= tol * obj[who[ask]]
                    by_hull[who[ask[late]]] = True
                    smooth[ask[late]] = True
            done[ok_idx] = smooth
            stopped[who] = smooth
        act = act[~done]
    return ran, stopped, by_hull


def _hull_decrement(A: np.ndarray, grads: np.ndarray, steps: int = 100) -> np.ndarray:
    """An upper bound of ``min over the simplex of (G l)^T M^{-1} (G l)`` per fit, ``M`` the
    decrement's matrix of ``A`` (G, P, P) and ``G`` the gradients ``grads`` (G, m, P): Frank–Wolfe
    with exact line search from the newest gradient (elementwise operations only), stopped
    after ``steps`` steps or once no fit moves (most fits stop at the first or second)."""
    g, m, _ = grads.shape
    M = _decrement_matrix(A)
    W = np.stack([spd_solve(M, grads[:, j]) for j in range(m)], axis=1)  # M^{-1} g_j
    Q = np.stack([np.stack([_dot(grads[:, i], W[:, j]) for j in range(m)], axis=-1)
                  for i in range(m)], axis=1)  # (G, m, m)
    lam = np.zeros((g, m))
    lam[:, 0] = 1.0
    for _ in range(steps):
        Ql = _matvec(Q, lam)
        j = np.argmin(Ql, axis=1)
        e = np.zeros_like(lam)
        e[np.arange(g), j] = 1.0
        diff = e - lam
        num = -_dot(diff, Ql)
        den = _dot(diff, _matvec(Q, diff))
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(den > 0, np.clip(num / den, 0.0, 1.0), 0.0)
        if not t.any():  # every fit at a fixed point: the remaining steps change no bit
            break
        lam = lam + t[:, None] * diff
    return _dot(lam, _matvec(Q, lam))
