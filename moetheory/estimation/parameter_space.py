"""The compact parameter space of the least-squares fits ((A.1) of seed 002) and their gauge: one
representative per orbit of parameters with the same regression function, the most central one.

The regression function :math:`f_G` of seed 002 does not change along continuous families of
parameters (the invariances :func:`~moetheory.estimation.voronoi.canonical_form` quotients
out for the losses):

* every router: a common shift of :math:`\\beta_0` (the softmax);
* cosine: the scale of each :math:`\\beta_{1i}` (the PDE (4) of seed 002);
* linear: a common translation of the :math:`\\beta_{1i}` (the score is
  :math:`\\beta_{1i}^\\top x`);
* perturbed cosine: the score is :math:`v_i^\\top \\tilde x` with
  :math:`v_i = \\beta_{1i}/(\\|\\beta_{1i}\\| + \\tau_1)` in the open unit ball and
  :math:`\\tilde x = x/(\\|x\\| + \\tau_2)`: a linear router in :math:`v` on :math:`\\tilde x`,
  with its common translation :math:`v_i \\mapsto v_i + w` (as long as every :math:`v_i` stays
  in the ball).

Along these directions the least-squares objective is flat, so a Levenberg–Marquardt fit
drifts along them and can reach the bounds of (A.1) for no reason the data give. The fits
therefore run in the *router coordinates* :math:`r_i` (:math:`\\beta_{1i}`; perturbed:
:math:`v_i`, in which the score is linear) on a fixed slice of each orbit, the *gauge*
(:func:`fix_gauge`): :math:`\\beta_0` and each coordinate of the :math:`r_i` centred on its
midrange (:math:`(\\max_i + \\min_i)/2 = 0`); cosine: :math:`\\|\\beta_{1i}\\| = 1`. Each
choice is equivariant (shifting the input shifts the midrange by the same amount), so every
point of an orbit maps to the same representative, and among the points of its orbit the
representative has the smallest largest :math:`|\\beta_{0i}|` and :math:`|r_{ij}|`.

:class:`ParameterSpace` is the compact set the fits minimise over: on the gauge slice,
:math:`|\\beta_{0i}| \\le B`, :math:`|r_{ij}| \\le R` and :math:`|\\eta_{ij}| \\le B`, with
:math:`R = B` for the linear router and :math:`R = B/((B + \\tau_1)\\sqrt d)` for the
perturbed one (the largest cube inside the image :math:`\\|v\\| \\le B/(B+\\tau_1)` of the ball
:math:`\\|\\beta_1\\| \\le B`, which lies inside the unit ball, the perturbed router's own
parameter space). Because the gauge minimises the largest coordinate over the orbit, the
bounds are statements about the regression function's parameters, not about coordinates: the
log-masses span at most :math:`2B` (an atom at the lowest relative mass
:math:`e^{-2B}` is the nearest the set comes to the over-specified model's dropped atom);
each coordinate of the router parameters spans at most :math:`2R`; the expert parameters are
bounded coordinatewise. All faces are flat in these coordinates, so the projected
Levenberg–Marquardt of :func:`~moetheory.estimation._lm.lm_iterate` stops on them at a
Karush–Kuhn–Tucker point. A fit reaches a face only where the data push an identifiable
parameter there.
"""

from __future__ import annotations

import math

import numpy as np

from moetheory.estimation.models import Router

__all__ = ["GROUPS", "ParameterSpace", "fix_gauge"]

#: The parameter groups of a fit, in the order of ``theta``: the faces a fit can reach.
GROUPS: tuple[str, ...] = ("beta0", "router", "eta")


#: Relative distance from a face within which a coordinate counts as on it, and is put on it
#: by :meth:`ParameterSpace.clip`: the gauge's midrange shift moves the coordinates on a face
#: off it by half of any step of the opposite extreme.
_FACE = 1e-6


def _sq_norm(v: np.ndarray) -> np.ndarray:
    """``sum_j v[..., j]^2`` in the fixed order j = 0, 1, ... (the same bits on every path)."""
    out = v[..., 0] * v[..., 0]
    for j in range(1, v.shape[-1]):
        out = out + v[..., j] * v[..., j]
    return out


def _midrange(values: np.ndarray) -> np.ndarray:
    """``(max + min) / 2`` over axis 1 (exact operations only)."""
    return (values.max(axis=1) + values.min(axis=1)) / 2.0


class ParameterSpace:
    """The compact parameter space of the fits, in router coordinates on the gauge slice.

    Parameters
    ----------
    k, d : int
        Atoms and input dimension (at least 1).
    router : Router
        The router of the fitted model (decides the router coordinates and the gauge).
    bound : float
        The bound :math:`B > 0` of (A.1) (see the module notes for the router bound).

    Raises
    ------
    ValueError
        If ``k`` or ``d`` is below 1 or ``bound`` is not positive.

    Notes
    -----
    Fit coordinates ``phi`` are ``theta`` (:meth:`~moetheory.estimation.models.
    MixingMeasure.to_vector` order) with, for the perturbed router (:math:`\\tau_1 > 0`),
    :math:`v_i = \\beta_{1i}/(\\|\\beta_{1i}\\|+\\tau_1)` in place of :math:`\\beta_{1i}`
    (:meth:`to_fit`, :meth:`from_fit`). The set is
    :math:`\\{\\max\\beta_0-\\min\\beta_0 \\le 2B,\\ \\max_i r_{ij} - \\min_i r_{ij} \\le 2R\\
    \\forall j,\\ |\\eta_{ij}| \\le B\\}`: compact up to the invariances, as (A.1) asks.
    :meth:`start` and :meth:`project` map a point into the set on the gauge slice;
    :meth:`held` names the faces a descent step would leave.

    See Also
    --------
    fix_gauge : the slice in the coordinates ``theta``.
    moetheory.estimation.batched.fit_batch : the fits on this set.

    Examples
    --------
    >>> S = ParameterSpace(2, 2, Router("linear"), 5.0)
    >>> t = S.start(np.array([[0.0, 12.0, 9.0, 0.0, -9.0, 0.0, 1, 2, 3, 9, 9, 9]]))
    >>> t.tolist()
    [[-5.0, 5.0, 5.0, 0.0, -5.0, 0.0, 1.0, 2.0, 3.0, 5.0, 5.0, 5.0]]
    >>> {g: bool(v[0]) for g, v in S.at_bound(t).items()}
    {'beta0': True, 'router': True, 'eta': True}
    >>> round(ParameterSpace(3, 2, Router("perturbed"), 5.0).router_bound, 4)
    0.5893
    """

    def __init__(self, k: int, d: int, router: Router, bound: float) -> None:
        if k < 1 or d < 1:
            raise ValueError(f"k and d must be >= 1, got {k}, {d}")
        if not bound > 0:
            raise ValueError(f"bound must be > 0, got {bound!r}")
        self.k, self.d, self.router, self.bound = k, d, router, float(bound)
        #: Fit in :math:`v` (perturbed router, :math:`\tau_1 > 0`) rather than :math:`\beta_1`.
        self.in_v = router.kind == "perturbed" and router.tau1 > 0
        #: Whether the router coordinates are normalised rather than centred (cosine).
        self.normalised = router.kind == "cosine" or (router.kind == "perturbed"
                                                      and router.tau1 == 0)
        #: The bound R of the router coordinates on the slice.
        self.router_bound = (self.bound / ((self.bound + router.tau1) * math.sqrt(d))
                             if self.in_v else self.bound)
        size = k * (2 * d + 2)
        self._router = np.zeros(size, bool)
        self._router[k : k + k * d] = True
        self._limit = np.where(self._router, self.router_bound, self.bound)
        #: Columns of the centred groups, one row each: beta0, then (unless normalised)
        #: each router coordinate (its values over the atoms).
        self._groups = np.array([np.arange(k)] + (
            [] if self.normalised else [k + d * np.arange(k) + j for j in range(d)]))

    def _check(self, theta: np.ndarray) -> np.ndarray:
        theta = np.asarray(theta, float)
        size = self.k * (2 * self.d + 2)
        if theta.ndim != 2 or theta.shape[1] != size:
            raise ValueError(f"theta must have shape (G, k (2 d + 2)) = (G, {size}), "
                             f"got {theta.shape}")
        if not np.all(np.isfinite(theta)):
            raise ValueError("theta must be finite")
        return theta

    def _router_view(self, phi: np.ndarray) -> np.ndarray:
        return phi[:, self.k : self.k + self.k * self.d].reshape(phi.shape[0], self.k, self.d)

    def to_fit(self, theta: np.ndarray) -> np.ndarray:
        """``theta`` (G, P) in fit coordinates: perturbed ``beta1_i -> v_i``, else unchanged."""
        phi = self._check(theta).copy()
        if self.in_v:
            b1 = self._router_view(phi)
            v = b1 / (np.sqrt(_sq_norm(b1)) + self.router.tau1)[:, :, None]
            phi[:, self.k : self.k + self.k * self.d] = v.reshape(phi.shape[0], -1)
        return phi

    def from_fit(self, phi: np.ndarray) -> np.ndarray:
        """Fit coordinates (G, P) back to ``theta``: perturbed
        :math:`\\beta_{1i} = \\tau_1 v_i / (1 - \\|v_i\\|)` (``v`` in the open unit ball)."""
        theta = self._check(phi).copy()
        if self.in_v:
            v = self._router_view(theta)
            b1 = v * (self.router.tau1 / (1.0 - np.sqrt(_sq_norm(v))))[:, :, None]
            theta[:, self.k : self.k + self.k * self.d] = b1.reshape(theta.shape[0], -1)
        return theta

    def gauge(self, phi: np.ndarray) -> np.ndarray:
        """Fit coordinates moved along their orbits to the gauge slice (same regression
        function): :math:`\\beta_0` and each router coordinate minus its midrange over the
        atoms; cosine: each nonzero :math:`\\beta_{1i}` scaled to norm 1."""
        out = self._check(phi).copy()
        k = self.k
        out[:, :k] -= _midrange(out[:, :k])[:, None]
        r = self._router_view(out).copy()
        if self.normalised:
            norm = np.sqrt(_sq_norm(r))
            r /= np.where(norm > 0, norm, 1.0)[:, :, None]
        else:
            r -= _midrange(r)[:, None, :]
        out[:, k : k + k * self.d] = r.reshape(out.shape[0], -1)
        return out

    def project(self, phi: np.ndarray) -> np.ndarray:
        """A trial point of the fits, clipped into the box and then moved to the gauge slice.

        Parameters
        ----------
        phi : ndarray of shape (G, P)
            Fit coordinates: a point of the set plus a step.

        Returns
        -------
        ndarray of shape (G, P)
            Points of the set (the midrange shift of clipped coordinates stays in the box).

        Notes
        -----
        Clipping first leaves a coordinate held on a face where it is and cuts back only
        the coordinates a step takes out of the box; the gauge's shift afterwards does not
        change the regression function. (Shifting first would move the coordinates held on
        a face inward whenever another coordinate overshoots the opposite face, against the
        step's model, and the steps would stall.) A Levenberg–Marquardt step has no
        component along the flat gauge directions in the metric of its damping, so the clip
        does not cut a pure gauge move.
        """
        return self.gauge(self.clip(phi))

    def clip(self, phi: np.ndarray) -> np.ndarray:
        """Fit coordinates clipped into the box and snapped onto faces within :data:`_FACE`.

        Parameters
        ----------
        phi : ndarray of shape (G, P)
            Fit coordinates.

        Returns
        -------
        ndarray of shape (G, P)
            No gauge shift: the coordinates a step left inside the box and away from its
            faces are unchanged.
        """
        out = np.clip(self._check(phi), -self._limit, self._limit)
        edge = self._limit * (1.0 - _FACE)
        return np.where(out >= edge, self._limit, np.where(out <= -edge, -self._limit, out))

    def start(self, theta: np.ndarray) -> np.ndarray:
        """A starting point ``theta`` in fit coordinates, on the gauge slice and in the box.

        Parameters
        ----------
        theta : ndarray of shape (G, P)
            Parameters (``beta1``, not ``v``).

        Returns
        -------
        ndarray of shape (G, P)
            :meth:`project` of the gauge-fixed :meth:`to_fit` point: a point whose orbit
            meets the box keeps its regression function.
        """
        return self.project(self.gauge(self.to_fit(theta)))

    def held(self, phi: np.ndarray, grad: np.ndarray) -> np.ndarray:
        """Which coordinates lie on a face that the descent direction ``-grad`` points out of.

        Parameters
        ----------
        phi : ndarray of shape (G, P)
            Points of the set, in fit coordinates.
        grad : ndarray of shape (G, P)
            Gradients of the objective in the same coordinates.

        Returns
        -------
        ndarray of bool, shape (G, P)
            Expert parameters: ``eta_j`` on its face ``-B`` with ``grad_j > 0`` or ``B`` with
            ``grad_j < 0``. A centred group (:math:`\\beta_0`, each router coordinate; its
            values over the atoms) on its face, i.e. spanning :math:`2R`: all the atoms at
            its largest and at its smallest value, when :math:`-g` widens the span of such a
            pair (:math:`g_{\\min} - g_{\\max} > 0`).

        Notes
        -----
        A centred group's constraint is on its span, :math:`\\max_i x_i - \\min_i x_i \\le 2R`,
        whose face has the normal :math:`e_{\\max} - e_{\\min}`: holding the two ends
        leaves every move of the others free, and a common move of the two ends is the
        same, modulo the gauge, as the opposite move of the others. Holding each end alone
        by the sign of its own gradient would let one end move while the other is held,
        and the gradients of the two ends then change sign from step to step (a zigzag).
        Positions count as on a face within the relative tolerance :data:`_FACE` (the
        "epsilon-active" set of projected Newton methods).
        """
        phi, grad = self._check(phi), np.asarray(grad, float)
        edge = self._limit * (1.0 - _FACE)
        out = ((phi <= -edge) & (grad > 0)) | ((phi >= edge) & (grad < 0))
        k = self.k
        if self.normalised:  # the cosine router's coordinates are not bounded
            out[:, k : k + k * self.d] = False
        # every centred group at once, (G, groups, k): the groups' columns are disjoint
        cols = self._groups
        x, g, lim = phi[:, cols], grad[:, cols], edge[cols[:, :1]]
        top, bottom = x >= lim, x <= -lim
        on_face = top.any(axis=2) & bottom.any(axis=2)
        widen = (np.where(bottom, g, -np.inf).max(axis=2)
                 - np.where(top, g, np.inf).min(axis=2)) > 0
        out[:, cols] = (on_face & widen)[:, :, None] & (top | bottom)
        return out

    def at_bound(self, phi: np.ndarray) -> dict[str, np.ndarray]:
        """Per group of :data:`GROUPS`, whether each point lies on one of its faces.

        Parameters
        ----------
        phi : ndarray of shape (G, P)
            Points of the set, in fit coordinates (after :meth:`project`).

        Returns
        -------
        dict of str to ndarray of bool, shape (G,)
            ``beta0``: the log-masses span :math:`2B` (an atom at the lowest relative mass
            the set allows); ``router``: a router coordinate spans :math:`2R`; ``eta``: an
            :math:`|\\eta_{ij}| = B` (each to a relative :data:`_FACE`).
        """
        on = np.abs(self._check(phi)) >= self._limit * (1.0 - _FACE)
        k, kd = self.k, self.k * self.d
        return {"beta0": on[:, :k].any(axis=1),
                "router": on[:, k : k + kd].any(axis=1) & (not self.normalised),
                "eta": on[:, k + kd :].any(axis=1)}


def fix_gauge(theta: np.ndarray, k: int, d: int, router: Router) -> np.ndarray:
    """The representative of each parameter vector on the gauge slice of the fits.

    Parameters
    ----------
    theta : ndarray of shape (G, P)
        Stacked parameters ``[beta0, beta1, eta]`` (``P = k (2 d + 2)``), as
        :meth:`~moetheory.estimation.models.MixingMeasure.to_vector`.
    k, d : int
        Atoms and input dimension.
    router : Router
        The router whose invariances are fixed.

    Returns
    -------
    ndarray of shape (G, P)
        Parameters with the same regression function (up to rounding): :math:`\\beta_0` minus
        its midrange; linear: each coordinate of the :math:`\\beta_{1i}` minus its midrange;
        perturbed (:math:`\\tau_1 > 0`): the same for the :math:`v_i`, mapped back by
        :math:`\\beta_{1i} = \\tau_1 v_i/(1 - \\|v_i\\|)`; cosine: each nonzero
        :math:`\\beta_{1i}` scaled to norm 1. ``eta`` is unchanged.

    Raises
    ------
    ValueError
        If ``theta`` is not ``(G, k (2 d + 2))`` or not finite, or (perturbed) a centred
        :math:`v_i` leaves the unit ball (the orbit has no point on the slice; not possible
        for ``d = 1``, nor for ``d = 2`` and :math:`\\|v_i\\| < 1/\\sqrt 2`).

    Notes
    -----
    Every map is equivariant under its invariance, so the result depends only on the orbit:
    the slice is a gauge (:class:`ParameterSpace`). Only IEEE-exact operations are used, so
    the bits are the same on every SIMD/BLAS path.

    See Also
    --------
    moetheory.estimation.voronoi.canonical_form : the quotient the losses are taken on.
    ParameterSpace : the compact set on this slice.

    Examples
    --------
    >>> from moetheory.estimation.models import MixingMeasure, regression_function
    >>> G = MixingMeasure([1.0, 3.0], [[2.0, 0.0], [0.0, 3.0]], [[1, 0, 0], [0, 1, 0]])
    >>> t = fix_gauge(G.to_vector()[None], 2, 2, Router("perturbed"))
    >>> H = MixingMeasure.from_vector(t[0], 2, 2)
    >>> H.beta0.tolist()
    [-1.0, 1.0]
    >>> x = np.random.default_rng(0).uniform(-2, 2, (20, 2))
    >>> r = Router("perturbed")
    >>> bool(np.allclose(regression_function(G, x, r), regression_function(H, x, r)))
    True
    """
    space = ParameterSpace(k, d, router, 1.0)
    phi = space.gauge(space.to_fit(theta))
    if space.in_v and np.any(_sq_norm(space._router_view(phi)) >= 1.0):
        raise ValueError("the centred v_i leave the unit ball: this orbit has no point on the "
                         "gauge slice")
    return space.from_fit(phi)
