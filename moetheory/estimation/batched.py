r"""Batched, deterministic Levenberg–Marquardt for the least-squares estimator (eq. 3, seed 002).

Many fits (replicates x starting points) of the same size :math:`n` are advanced together, one
NumPy operation per step for the whole batch. The arithmetic is chosen so that the result
does not depend on the BLAS library or on the SIMD path NumPy dispatches to:

* the exponential and ``tanh`` are :func:`det_exp` and
  :func:`~moetheory.estimation.detmath.det_tanh`, built from IEEE-exact elementary operations
  only (NumPy's own ``exp`` and ``tanh`` differ in the last bit between SIMD paths), and the
  experts' activations are
  :func:`~moetheory.estimation.models.activation` (the same bits on every path);
* sums over samples are ``einsum``/``sum`` reductions (NumPy's own loops, no BLAS);
* the only BLAS call, the Gauss–Newton matrix :math:`J^\top J` (:math:`O(n P^2)`, the expensive
  part), is made *exact*: each Jacobian column is rounded to a fixed-point grid of :math:`b`
  bits with :math:`n 2^{2b} < 2^{53}`, so every product and partial sum is an integer below
  :math:`2^{53}` and any summation order, blocking or FMA gives the same bits. The rounded
  matrix only steers the step; the gradient :math:`J^\top r` and the objective, which decide
  the fixed point and the accept/reject test, are exact-path NumPy reductions;
* the damped normal equations are solved by batched Gaussian elimination of elementwise
  operations (:func:`~moetheory.estimation.detmath.spd_solve`, no LAPACK).

Algorithm (per fit), on the compact parameter space of (A.1) in router coordinates on the
gauge slice (:class:`~moetheory.estimation.parameter_space.ParameterSpace`):
:math:`\phi \leftarrow \operatorname{gauge}(\operatorname{clip}(\phi + \delta))` with
:math:`(A + \lambda \operatorname{diag}(A) + \mu I) \delta = -g` solved on the coordinates not
held on a face, accepted when the mean squared residual decreases (then
:math:`\lambda \leftarrow \lambda / 5`), rejected otherwise
(:math:`\lambda \leftarrow 3 \lambda`); a fit stops when, after an accepted step, the
Gauss–Newton decrement (the decrease a full undamped step predicts) of the free coordinates is
at most ``tol`` times its objective, or a step is rejected at :math:`\lambda \ge 10^8`
(``converged``), or at the iteration cap. The decrement, not the gain of the last step,
decides: in the flat valleys of over-specified fits a damped step gains little long before
the fit is stationary. With ``qn_iterations`` the fits the cap leaves continue by projected
BFGS to the same rule (:func:`~moetheory.estimation._lm.qn_iterate`); a fit at both caps is
not converged. Each fit's arithmetic is its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moetheory.estimation._lm import lm_iterate, qn_iterate
from moetheory.estimation.detmath import det_exp, exact_gram
from moetheory.estimation.models import EXPERTS, MixingMeasure, Router, activation
from moetheory.estimation.parameter_space import GROUPS, ParameterSpace

__all__ = ["BatchFit", "det_exp", "fit_batch", "jacobian_batch", "model_batch"]

def _inputs(x: np.ndarray, router: Router) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and router features, coordinate-major (G, d, n): every later pass is contiguous."""
    xT = np.ascontiguousarray(x.transpose(0, 2, 1))
    if router.kind == "linear":
        return xT, xT
    norm = np.sqrt(np.sum(x * x, axis=-1))[:, None, :]
    if router.kind == "cosine":
        return xT, xT / np.maximum(norm, 1e-300)
    return xT, xT / (norm + router.tau2)


def _dot(w: np.ndarray, xT: np.ndarray) -> np.ndarray:
    """``sum_j w[g, k, j] xT[g, j, n]`` as (G, k, n), summed in the fixed order j = 0, 1, ..."""
    out = w[:, :, 0, None] * xT[:, None, 0, :]
    for j in range(1, w.shape[2]):
        out += w[:, :, j, None] * xT[:, None, j, :]
    return out


def _scale(b1: np.ndarray, router: Router) -> tuple[np.ndarray, np.ndarray]:
    """``c(||b1||)`` and ``c'(||b1||)/||b1||`` per fit and atom, shape (G, k)."""
    norm = np.sqrt(np.sum(b1 * b1, axis=-1))
    if router.kind == "linear":
        return np.ones_like(norm), np.zeros_like(norm)
    safe = np.maximum(norm, 1e-12)
    denom = safe if router.kind == "cosine" else norm + router.tau1
    return 1.0 / denom, -1.0 / (denom * denom * safe)


def _unpack(theta: np.ndarray, k: int, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = theta.shape[0]
    b0 = theta[:, :k]
    b1 = theta[:, k : k + k * d].reshape(g, k, d)
    eta = theta[:, k + k * d :].reshape(g, k, d + 1)
    return b0, b1, eta


def model_batch(
    theta: np.ndarray, x: np.ndarray, k: int, router: Router, expert: str = "tanh"
) -> np.ndarray:
    """Regression functions of a batch of measures on a batch of inputs.

    Parameters
    ----------
    theta : ndarray of shape (G, P)
        Stacked parameters ``[beta0, beta1, eta]`` (as
        :meth:`~moetheory.estimation.models.MixingMeasure.to_vector`).
    x : ndarray of shape (G, n, d)
        One input set per measure.
    k : int
        Number of atoms.
    router : Router
        The router of every measure.
    expert : str
        Expert family of every measure, one of :data:`~moetheory.estimation.models.EXPERTS`.

    Returns
    -------
    ndarray of shape (G, n)
        ``f_G(x) = sum_i softmax_i(s_i(x) + beta0_i) h(x, eta_i)`` per measure (eq. (1) of
        seed 002).

    Notes
    -----
    The gate scores are :math:`s_i(x) = c(\\|\\beta_{1i}\\|)\\,\\beta_{1i}^\\top \\tilde x`
    with :math:`c = 1` and :math:`\\tilde x = x` (linear), :math:`c = 1/\\|\\beta_1\\|`,
    :math:`\\tilde x = x/\\|x\\|` (cosine), :math:`c = 1/(\\|\\beta_1\\|+\\tau_1)`,
    :math:`\\tilde x = x/(\\|x\\|+\\tau_2)` (perturbed cosine). The softmax uses
    :func:`~moetheory.estimation.detmath.det_exp`, so the values are the same bits on every
    SIMD path.

    See Also
    --------
    jacobian_batch : the values with their Jacobian.
    moetheory.estimation.models.regression_function : one measure at a time.

    Examples
    --------
    >>> from moetheory.estimation.models import regression_function
    >>> G = MixingMeasure([0.5, 0.0], [[1.0, 0.5], [-0.5, 1.0]], [[1, -0.5, 0.5], [-0.5, 1, -0.5]])
    >>> x = np.random.default_rng(0).uniform(-2, 2, (1, 50, 2))
    >>> f = model_batch(G.to_vector()[None], x, 2, Router("cosine"))
    >>> bool(np.allclose(f[0], regression_function(G, x[0], Router("cosine"))))
    True
    """
    xT, xtT = _inputs(np.asarray(x, float), router)
    return _forward(np.asarray(theta, float), xT, xtT, k, router, expert)[0]


#: Samples per block of :func:`_forward_blocks` when a fit has more: the intermediates of a
#: long fit then stay in the 1 MiB level-2 cache instead of streaming through memory once per
#: elementwise operation (a fit at :math:`n = 10^5`, ``k = 3``: 14% less CPU time than unsplit).
#: Smaller blocks cost more in calls than they save: about 0.2 ms of call overhead per block
#: and forward pass (16384 against 8192 samples: 9% less CPU at :math:`n = 10^5`, 10% at
#: ``n = 10^4``, which is then not split). Shorter fits are not split.
_BLOCK_SAMPLES = 16384


def _forward_blocks(theta, xT, xtT, k, router, expert):
    """:func:`_forward` on blocks of samples: ``f`` (G, n) and ``[(slice, intermediates)]``.

    Every operation of the forward pass and of the Jacobian is elementwise in the samples, so
    the bits do not depend on the blocks; the sums over samples are taken afterwards, over
    whole arrays (:func:`_normal_equations`)."""
    g, d, n = xT.shape
    params = _parameters(theta, k, d, router)
    if _BLOCK_SAMPLES >= n:
        f, cache = _forward_on(params, xT, xtT, k, expert)
        return f, [(slice(0, n), cache)]
    f = np.empty((g, n))
    blocks = []
    for s in range(0, n, _BLOCK_SAMPLES):
        sl = slice(s, s + _BLOCK_SAMPLES)
        f[:, sl], cache = _forward_on(params, xT[:, :, sl], xtT[:, :, sl], k, expert)
        blocks.append((sl, cache))
    return f, blocks


def _normal_equations(f, blocks, xT, xtT, k, r):
    """``A = J^T J / n`` (:func:`exact_gram`) and ``g = J^T r / n``, the Jacobian built block
    by block."""
    g, n = f.shape
    Jt = np.empty((g, k * (2 * xT.shape[1] + 2), n))
    for sl, cache in blocks:
        _jacobian(f[:, sl], cache, xT[:, :, sl], xtT[:, :, sl], k, out=Jt[:, :, sl])
    return exact_gram(Jt) / n, np.einsum("gpn,gn->gp", Jt, r) / n


def _forward(theta, xT, xtT, k, router, expert):
    """``f`` (G, n) and the intermediates the Jacobian needs (``xT``, ``xtT``: (G, d, n))."""
    return _forward_on(_parameters(theta, k, xT.shape[1], router), xT, xtT, k, expert)


def _parameters(theta, k, d, router):
    """``beta0, beta1, eta`` and the router's scale ``c, c'/||beta1||`` of each fit."""
    b0, b1, eta = _unpack(theta, k, d)
    return b0, b1, eta, *_scale(b1, router)


def _forward_on(params, xT, xtT, k, expert):
    """:func:`_forward` from :func:`_parameters`."""
    b0, b1, eta, c, dc = params
    proj = _dot(b1, xtT)
    u = proj * c[:, :, None]
    u += b0[:, :, None]
    u -= u.max(axis=1, keepdims=True)
    pi = det_exp(u)
    pi /= pi.sum(axis=1, keepdims=True)
    z = _dot(eta[:, :, :-1], xT)
    z += eta[:, :, -1:]
    h, dh = activation(z, expert)
    f = pi[:, 0] * h[:, 0]
    for i in range(1, k):
        f += pi[:, i] * h[:, i]
    return f, (c, dc, proj, pi, h, dh, b1)


def jacobian_batch(
    theta: np.ndarray, x: np.ndarray, k: int, router: Router, expert: str = "tanh"
) -> tuple[np.ndarray, np.ndarray]:
    """Regression functions of a batch of measures and their Jacobians in ``theta``.

    Parameters
    ----------
    theta, x, k, router, expert
        As in :func:`model_batch` (``P = k (2 d + 2)``).

    Returns
    -------
    f : ndarray of shape (G, n)
        As :func:`model_batch`.
    J : ndarray of shape (G, n, P)
        :math:`J_{g m p} = \\partial f_g(x_m) / \\partial \\theta_p`, analytic.

    Notes
    -----
    With :math:`\\pi_i` the gate, :math:`h_i = h(x, \\eta_i)` and :math:`z_i` the expert's
    pre-activation,

    .. math::

        \\partial_{\\beta_{0i}} f = \\pi_i (h_i - f), \\quad
        \\partial_{\\beta_{1i}} f = \\pi_i (h_i - f)\\,\\bigl(c\\,\\tilde x
        + c'(\\|\\beta_{1i}\\|)\\,(\\beta_{1i}^\\top\\tilde x)\\,
        \\beta_{1i}/\\|\\beta_{1i}\\|\\bigr), \\quad
        \\partial_{\\eta_i} f = \\pi_i\\, h'(z_i)\\,(x, 1).

    See Also
    --------
    model_batch : the values only.

    Examples
    --------
    >>> G = MixingMeasure([0.5, 0.0], [[1.0, 0.5], [-0.5, 1.0]], [[1, -0.5, 0.5], [-0.5, 1, -0.5]])
    >>> x = np.random.default_rng(1).uniform(-2, 2, (1, 20, 2)); t = G.to_vector()[None]
    >>> f, J = jacobian_batch(t, x, 2, Router("perturbed"))
    >>> e = np.zeros_like(t); e[0, 3] = 1e-6
    >>> num = (model_batch(t + e, x, 2, Router("perturbed")) - f) / 1e-6
    >>> bool(np.max(np.abs(num - J[:, :, 3])) < 1e-5)
    True
    """
    theta = np.asarray(theta, float)
    x = np.asarray(x, float)
    xT, xtT = _inputs(x, router)
    f, cache = _forward(theta, xT, xtT, k, router, expert)
    return f, _jacobian(f, cache, xT, xtT, k).transpose(0, 2, 1)


def _jacobian(f, cache, xT, xtT, k, out=None):
    """The transposed Jacobian (G, P, n) from the intermediates of :func:`_forward` (written
    into ``out`` if given).

    Parameter-major, so that every column of ``J`` is written and reduced contiguously."""
    c, dc, proj, pi, h, dh, b1 = cache
    g, d, n = xT.shape
    Jt = np.empty((g, k * (2 * d + 2), n)) if out is None else out
    a = np.subtract(h, f[:, None, :], out=Jt[:, :k])
    a *= pi  # d f / d beta0_i = pi_i (h_i - f), (G, k, n)
    q = pi * dh  # d f / d z_i, (G, k, n)
    e0 = k + k * d
    for i in range(k):
        b1i = Jt[:, k + i * d : k + (i + 1) * d]
        np.multiply(c[:, i, None, None], xtT, out=b1i)
        b1i += (dc[:, i, None] * proj[:, i, :])[:, None, :] * b1[:, i, :, None]
        b1i *= a[:, i, None, :]
        etai = Jt[:, e0 + i * (d + 1) : e0 + (i + 1) * (d + 1)]
        np.multiply(q[:, i, None, :], xT, out=etai[:, :d])
        etai[:, d] = q[:, i, :]
    return Jt


@dataclass(frozen=True, eq=False)
class BatchFit:
    """Result of :func:`fit_batch`: final parameters and mean squared residuals per fit.

    Parameters
    ----------
    theta : ndarray of shape (G, P)
        Final parameters of each fit.
    objective : ndarray of shape (G,)
        Final mean squared residual of each fit.
    accepted : ndarray of shape (G,)
        Number of accepted Levenberg–Marquardt steps of each fit.
    iterations : ndarray of shape (G,)
        Number of iterations each fit ran before it stopped (converged or reached the cap).
    converged : ndarray of bool, shape (G,)
        Whether each fit stopped by the rule of :func:`fit_batch` (``tol > 0``) rather than
        by reaching the iteration cap. Always ``False`` when ``tol = 0``.
    at_bound_beta0, at_bound_router, at_bound_eta : ndarray of bool, shape (G,), optional
        Whether each fit ended on a face of the parameter space of that group
        (:meth:`~moetheory.estimation.parameter_space.ParameterSpace.at_bound`).
    hull_stopped : ndarray of bool, shape (G,), optional
        Whether the rule's nonsmooth form stopped each fit
        (:func:`~moetheory.estimation._lm.qn_iterate`).

    Notes
    -----
    ``objective`` is the mean squared residual :math:`\\frac1n\\sum_m (Y_m -
    f_{\\hat G}(X_m))^2` of eq. (3) of seed 002 at ``theta``. A fit that meets the rule on
    its last allowed iteration counts as converged.

    See Also
    --------
    fit_batch : produces it.

    Examples
    --------
    >>> fit = BatchFit(np.zeros((1, 12)), np.zeros(1), np.zeros(1, int), np.ones(1, int),
    ...                np.ones(1, bool))
    >>> fit.measure(0, 2, 2).k
    2
    """

    theta: np.ndarray
    objective: np.ndarray
    accepted: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray
    at_bound_beta0: np.ndarray | None = None
    at_bound_router: np.ndarray | None = None
    at_bound_eta: np.ndarray | None = None
    hull_stopped: np.ndarray | None = None

    def at_bound(self) -> np.ndarray:
        """Whether each fit ended on a face of the parameter space (any group).

        Returns
        -------
        ndarray of bool, shape (G,)
            ``at_bound_beta0 | at_bound_router | at_bound_eta`` (all ``False`` where they
            were not recorded).
        """
        out = np.zeros(self.objective.shape, bool)
        for part in (self.at_bound_beta0, self.at_bound_router, self.at_bound_eta):
            if part is not None:
                out |= part
        return out

    def measure(self, index: int, k: int, d: int) -> MixingMeasure:
        """The fitted mixing measure of fit ``index``.

        Parameters
        ----------
        index : int
            Which fit.
        k, d : int
            Number of atoms and input dimension.

        Returns
        -------
        MixingMeasure

        Raises
        ------
        ValueError
            If ``k`` and ``d`` do not match the length of ``theta``.
        """
        return MixingMeasure.from_vector(self.theta[index], k, d)


def fit_batch(
    x: np.ndarray,
    y: np.ndarray,
    theta0: np.ndarray,
    k: int,
    router: Router,
    *,
    expert: str = "tanh",
    bound: float = 5.0,
    iterations: int = 60,
    tol: float = 0.0,
    max_chunk: int = 150_000,
    qn_iterations: int = 0,
) -> BatchFit:
    r"""Levenberg–Marquardt least-squares fits (eq. (3) of seed 002) of many data sets at once.

    Parameters
    ----------
    x : ndarray of shape (G, n, d)
        Inputs of each fit.
    y : ndarray of shape (G, n)
        Responses.
    theta0 : ndarray of shape (G, P)
        Starting points (moved to the gauge slice and clipped into the parameter space).
    k : int
        Number of atoms fitted.
    router : Router
        Router of the fitted model.
    expert : str
        Expert family.
    bound : float
        The bound of the compact parameter space of (A.1)
        (:class:`~moetheory.estimation.parameter_space.ParameterSpace`).
    iterations : int
        Largest number of LM iterations of a fit.
    tol : float
        A fit stops (``converged``) when, after an accepted step, the Gauss–Newton decrement
        :math:`g^\top (A + 10^{-8} \operatorname{diag}(A) + 10^{-12} I)^{-1} g` -- the decrease
        of the objective a full Gauss–Newton step predicts -- is at most ``tol`` times the
        objective, or when a step is rejected at damping :math:`\lambda \ge 10^8` (no descent
        left at the working precision).
        ``tol = 0`` runs every fit for all ``iterations``.
    max_chunk : int
        Largest :math:`G_{\text{chunk}} \cdot n \cdot k` processed at once (memory and cache: at
        :math:`n = 10^5`,
        ``k = 3`` the default advances one fit at a time, which measured about 15% faster
        than two). The bits do not depend on it.
    qn_iterations : int
        Largest number of projected BFGS iterations that continue a fit the LM cap left
        (``tol > 0`` only; ``0``: LM alone).

    Returns
    -------
    BatchFit
        Final parameters (``theta``: ``beta1``, not ``v``), objectives, accepted LM steps,
        iterations run (LM and BFGS), whether the fit stopped by the rule (``converged``) or
        at the caps, and on which groups' faces of the parameter space it ended, per fit.

    Raises
    ------
    ValueError
        On inconsistent shapes, an unknown expert, ``bound <= 0``, ``iterations < 1``,
        ``qn_iterations < 0`` or ``tol`` outside ``[0, 1)``.

    Notes
    -----
    In the fit coordinates :math:`\phi` of the parameter space (``theta`` with, for the
    perturbed router, :math:`v_i = \beta_{1i}/(\|\beta_{1i}\|+\tau_1)` in place of
    :math:`\beta_{1i}`), with the coordinates held on a face taken out
    (:func:`~moetheory.estimation._lm.free_system`), each iteration solves

    .. math::

        (A + \lambda\,\mathrm{diag}(A) + 10^{-12} I)\,\delta = -g, \qquad
        A = J^\top J / n, \quad g = J^\top r / n,

    and accepts the gauge-fixed projection of :math:`\phi + \delta` when the mean squared
    residual decreases
    (:math:`\lambda \leftarrow \lambda/5`), else rejects it
    (:math:`\lambda \leftarrow 3\lambda`). Each fit's arithmetic is its own: a fit gives
    the same bits alone or in any batch, and stopped fits leave the batch, so the work
    follows the fits that still move. ``A`` and ``g`` are rebuilt only after an accepted
    step, the Jacobian from the trial evaluation's own intermediates.

    See Also
    --------
    moetheory.estimation.fitting.fit_least_squares : one fit at a time, by SciPy BFGS.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> G = MixingMeasure([0.0, 0.0], [[3.0, 0.0], [-3.0, 0.0]], [[2, 0, 0.5], [0, 2, -0.5]])
    >>> x = rng.uniform(-1, 1, (2, 400, 2))
    >>> y = model_batch(np.tile(G.to_vector(), (2, 1)), x, 2, Router("linear"))
    >>> t0 = G.to_vector() + 0.1 * rng.standard_normal((2, 12))
    >>> fit = fit_batch(x, y, t0, 2, Router("linear"), iterations=40)
    >>> bool(np.all(fit.objective < 1e-12))
    True
    """
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    theta0 = np.asarray(theta0, float)
    if x.ndim != 3 or y.shape != x.shape[:2]:
        raise ValueError(f"x must have shape (G, n, d) and y (G, n); got {x.shape}, {y.shape}")
    g, n, d = x.shape
    size = k * (2 * d + 2)
    if theta0.shape != (g, size):
        raise ValueError(f"theta0 must have shape (G, P) = ({g}, {size}), got {theta0.shape}")
    if expert not in EXPERTS:
        raise ValueError(f"expert must be one of {EXPERTS}, got {expert!r}")
    if not bound > 0:
        raise ValueError(f"bound must be > 0, got {bound!r}")
    if not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be an integer >= 1, got {iterations!r}")
    if not isinstance(qn_iterations, int) or qn_iterations < 0:
        raise ValueError(f"qn_iterations must be an integer >= 0, got {qn_iterations!r}")
    if not 0 <= tol < 1:
        raise ValueError(f"tol must lie in [0, 1), got {tol!r}")
    step = max(1, max_chunk // max(1, n * k))
    parts = [
        _fit_chunk(x[s : s + step], y[s : s + step], theta0[s : s + step], k, router, expert,
                   bound, iterations, tol, qn_iterations)
        for s in range(0, g, step)
    ]
    return BatchFit(*(np.concatenate(arrs) for arrs in zip(*parts, strict=True)))


def _fit_chunk(x, y, theta0, k, router, expert, bound, iterations, tol, qn_iterations):
    # the compact parameter space of (A.1), in router coordinates on the gauge slice; the
    # perturbed router runs in v = beta1 / (||beta1|| + tau1), a linear router on x~
    space = ParameterSpace(k, x.shape[2], router, bound)
    score = Router("linear") if space.in_v else router
    phi = space.start(theta0)
    n = x.shape[1]
    xT, xtT = _inputs(x, router)
    f, blocks = _forward_blocks(phi, xT, xtT, k, score, expert)
    r = f - y
    obj = np.einsum("gn,gn->g", r, r) / n
    A, grad = _normal_equations(f, blocks, xT, xtT, k, r)

    def evaluate(trial, act):
        whole = act.size == phi.shape[0]
        xa, xta = (xT, xtT) if whole else (xT[act], xtT[act])
        f_t, blocks = _forward_blocks(trial, xa, xta, k, score, expert)
        r_t = f_t - (y if whole else y[act])
        return np.einsum("gn,gn->g", r_t, r_t) / n, (f_t, r_t, xa, xta, blocks)

    def refresh(state, idx, act):  # the Jacobian only where the step is taken
        f_t, r_t, xa, xta, blocks = state
        if idx.size < act.size:
            f_t, r_t, xa, xta = f_t[idx], r_t[idx], xa[idx], xta[idx]
            blocks = [(sl, tuple(v[idx] for v in cache)) for sl, cache in blocks]
        A[act[idx]], grad[act[idx]] = _normal_equations(f_t, blocks, xa, xta, k, r_t)

    accepted, ran, stopped = lm_iterate(phi, obj, A, grad, iterations, tol, evaluate, refresh,
                                        space=space)
    if qn_iterations and tol > 0:  # the fits the LM cap left: BFGS on the same set and rule
        more, late, by_hull = qn_iterate(phi, obj, A, grad, np.flatnonzero(~stopped),
                                         qn_iterations, tol, evaluate, refresh, space)
        ran += more
        stopped |= late
    else:
        by_hull = np.zeros(stopped.shape, bool)
    bounded = space.at_bound(phi)
    return (space.from_fit(phi), obj, accepted, ran, stopped,
            *(bounded[group] for group in GROUPS), by_hull)
