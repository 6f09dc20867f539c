r"""MoE variants of seed 000's answers: Top-K / top-1 gates, two-layer ReLU experts, and their fit.

:mod:`moetheory.estimation.batched` fits the dense softmax MoE with one-layer experts. The rate
experiments of seed 000 (Q1, L73--L81; L169; L207) need two more things:

* **sparse gates**: the Top-K softmax
  :math:`\pi_i(x) = e^{u_i/T} / \sum_{l \in S(x)} e^{u_l/T}` for :math:`i \in S(x)`, the
  :math:`K` largest scores :math:`u_i = s(x, \beta_{1i}) + \beta_{0i}` (:math:`\pi_i = 0`
  outside), with a temperature :math:`T` (:math:`T = 1` is the seeds' gate; :math:`K = 1` is
  top-1 / Switch routing, where the chosen expert's weight is 1);
* **two-layer ReLU experts with a last-layer bias** (seed 000, L161--L169):
  :math:`h(x, \eta) = \sum_{m=1}^{M} w_m \max(a_m^\top x + b_m, 0) + c` with :math:`M = 2`
  hidden units, :math:`\eta = (a_1, \dots, a_M, b, w, c)` (family ``"relu2"``); ``"tanh"`` is
  :math:`\tanh(a^\top x + b)`.

The Top-K objective is discontinuous in the router parameters (the set :math:`S(x)` jumps). The
fit :func:`fit_variant` is a batched Levenberg--Marquardt run in *stages*
(:class:`Stage`): each stage fixes :math:`(T, K)`, uses the derivative of the piece the current
parameters lie on (the set :math:`S(x)` held fixed, which is the derivative almost everywhere)
and accepts a step only if the actual stage objective, with :math:`S(x)` recomputed, decreases.
For :math:`K = 1` the router has zero derivative on every piece (the weight is 1), so a top-1
fit first anneals the dense gate :math:`T = 1, 1/3, 1/10, \dots`
(:math:`\mathrm{softmax}(u/T)` tends to the top-1 gate as :math:`T \to 0`; the arg max does not
depend on :math:`T`) and ends with a top-1 stage.

Determinism: the exponential is :func:`~moetheory.estimation.detmath.det_exp`, the only BLAS
product (:math:`J^\top J`) is made exact by rounding :math:`J` to a fixed-point grid, and the
damped normal equations are solved by batched Gaussian elimination of elementwise operations
(:func:`~moetheory.estimation.detmath.spd_solve`), so a fit has the
same bits on every SIMD/BLAS path (the same scheme as :mod:`~moetheory.estimation.batched`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from moetheory.estimation._lm import lm_iterate
from moetheory.estimation.detmath import det_exp, det_tanh, exact_gram
from moetheory.estimation.experiment import LM_TOL
from moetheory.estimation.models import Router

__all__ = [
    "FAMILIES",
    "HIDDEN",
    "Stage",
    "VariantFit",
    "expert_outputs",
    "expert_size",
    "fit_to_rule",
    "fit_variant",
    "polish_gate",
    "variant_experts",
    "variant_jacobian",
    "variant_model",
]

#: Expert families: one-layer ``tanh`` and the two-layer ReLU network with a last-layer bias.
FAMILIES: tuple[str, ...] = ("tanh", "relu2")
#: Hidden width ``M`` of the ``"relu2"`` experts.
HIDDEN = 2


def expert_size(family: str, d: int) -> int:
    """Number of parameters of one expert of ``family`` on inputs of dimension ``d``.

    Parameters
    ----------
    family : {"tanh", "relu2"}
        The expert family.
    d : int
        Input dimension, ``>= 1``.

    Returns
    -------
    int
        ``d + 1`` for ``tanh``; ``M (d + 1) + M + 1`` for ``relu2`` (``M =`` :data:`HIDDEN`).

    Raises
    ------
    ValueError
        If ``family`` is unknown or ``d < 1``.

    Notes
    -----
    ``relu2``: :math:`h(x,\\eta) = \\sum_{m=1}^{M} w_m\\max(a_m^\\top x + b_m, 0) + c`, so
    :math:`\\eta = (a_1,\\dots,a_M,b,w,c)` has :math:`M(d+1) + M + 1` entries.

    See Also
    --------
    variant_experts : the experts and their derivatives.

    Examples
    --------
    >>> expert_size("tanh", 2), expert_size("relu2", 2)
    (3, 9)
    """
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    if not isinstance(d, int | np.integer) or d < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    return d + 1 if family == "tanh" else HIDDEN * (d + 1) + HIDDEN + 1


def variant_experts(
    eta: np.ndarray, x: np.ndarray, family: str
) -> tuple[np.ndarray, np.ndarray]:
    """Expert outputs ``h(x_n, eta_i)`` and their derivatives in ``eta``, for a batch of fits.

    Parameters
    ----------
    eta : ndarray of shape (G, k, p)
        Expert parameters of ``G`` fits with ``k`` atoms (``p =`` :func:`expert_size`).
    x : ndarray of shape (G, n, d)
        Inputs of each fit.
    family : {"tanh", "relu2"}
        The expert family.

    Returns
    -------
    h : ndarray of shape (G, k, n)
    dh : ndarray of shape (G, k, n, p)
        ``d h / d eta`` (for ReLU the derivative of ``max(z, 0)`` at ``z = 0`` is taken as 0).

    Raises
    ------
    ValueError
        If ``family`` is unknown or the shapes disagree.

    Notes
    -----
    For ``relu2``, ``eta = (a_1, .., a_M, b_1..b_M, w_1..w_M, c)`` and
    :math:`h = \\sum_m w_m \\max(a_m^\\top x + b_m, 0) + c`.

    See Also
    --------
    expert_size : the number of parameters ``p``.
    variant_jacobian : uses ``dh`` for the Jacobian of the MoE.

    Examples
    --------
    >>> eta = np.array([[[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 3.0, 0.5]]])
    >>> h, dh = variant_experts(eta, np.array([[[1.0, -2.0]]]), "relu2")
    >>> h.tolist(), dh.shape
    ([[[2.5]]], (1, 1, 1, 9))
    """
    h, dh = _experts(eta, x, family, derivative=True)
    assert dh is not None
    return h, dh


def expert_outputs(eta: np.ndarray, x: np.ndarray, family: str) -> np.ndarray:
    """Expert outputs ``h(x_n, eta_i)`` for a batch of fits, without their derivatives.

    Parameters
    ----------
    eta, x, family
        As in :func:`variant_experts`.

    Returns
    -------
    ndarray of shape (G, k, n)
        The first output of :func:`variant_experts`, bit for bit.

    Raises
    ------
    ValueError
        As :func:`variant_experts`.

    Notes
    -----
    The model's values alone (an LM trial step, a loss) need no Jacobian; building
    ``dh`` took about half of the time of :func:`variant_model`.

    See Also
    --------
    variant_experts : with the derivatives.

    Examples
    --------
    >>> eta = np.array([[[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 3.0, 0.5]]])
    >>> expert_outputs(eta, np.array([[[1.0, -2.0]]]), "relu2").tolist()
    [[[2.5]]]
    """
    return _experts(eta, x, family, derivative=False)[0]


def _dot(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``sum_i u[..., i] * v[..., i]`` (broadcast) summed in index order, elementwise: for the
    short axes here (d inputs, M hidden units) ``einsum`` spent most of its time on set-up."""
    out = u[..., 0] * v[..., 0]
    for i in range(1, u.shape[-1]):
        out += u[..., i] * v[..., i]
    return out


def _experts(eta, x, family: str, derivative: bool) -> tuple[np.ndarray, np.ndarray | None]:
    eta = np.asarray(eta, float)
    x = np.asarray(x, float)
    g, n, d = x.shape
    if eta.ndim != 3 or eta.shape[0] != g or eta.shape[2] != expert_size(family, d):
        raise ValueError(
            f"eta must have shape (G, k, {expert_size(family, d)}) with G = {g}, got {eta.shape}"
        )
    k = eta.shape[1]
    if family == "tanh":
        z = _dot(eta[:, :, None, :d], x[:, None, :, :]) + eta[:, :, d:]
        h = det_tanh(z)
        if not derivative:
            return h, None
        s = 1.0 - h * h
        return h, np.concatenate([s[..., None] * x[:, None, :, :], s[..., None]], axis=-1)
    m = HIDDEN
    a = eta[:, :, : m * d].reshape(g, k, m, d)
    w = eta[:, :, m * d + m : m * d + 2 * m]
    z = _dot(a[:, :, None, :, :], x[:, None, :, None, :]) + eta[:, :, None, m * d : m * d + m]
    r = np.maximum(z, 0.0)
    h = _dot(w[:, :, None, :], r) + eta[:, :, -1:]
    if not derivative:
        return h, None
    on = (z > 0) * w[:, :, None, :]  # (G, k, n, M)
    dh = np.empty((g, k, n, expert_size(family, d)))
    dh[..., : m * d] = (on[..., None] * x[:, None, :, None, :]).reshape(g, k, n, m * d)
    dh[..., m * d : m * d + m] = on
    dh[..., m * d + m : m * d + 2 * m] = r
    dh[..., -1] = 1.0
    return h, dh


def _split(theta: np.ndarray, k: int, d: int, p: int):
    g = theta.shape[0]
    if theta.shape[1] != k * (1 + d + p):
        raise ValueError(f"theta must have shape (G, {k * (1 + d + p)}), got {theta.shape}")
    b0 = theta[:, :k]
    b1 = theta[:, k : k + k * d].reshape(g, k, d)
    eta = theta[:, k + k * d :].reshape(g, k, p)
    return b0, b1, eta


def _gate(u: np.ndarray, temperature: float, top_k: int | None, softness: float = 0.0):
    """Gate ``pi`` (G, k, n) and what its derivative needs (``s``, ``dm/du``, or ``None``).

    Hard Top-K (``softness = 0``): softmax of ``u / T`` over the ``top_k`` largest ``u``
    (ties: lower index). Soft Top-K: weights ``exp(u_i / T) s_i``, ``s_i = sigmoid((u_i - m)
    / softness)`` with ``m`` the midpoint of the K-th and (K+1)-th largest score.
    """
    k = u.shape[1]
    us = u / temperature
    soft = None
    if top_k is not None:
        if not isinstance(top_k, int | np.integer) or not 1 <= top_k <= k:
            raise ValueError(f"top_k must be an integer in [1, k] = [1, {k}], got {top_k!r}")
        if top_k < k:
            order = np.argsort(-u, axis=1, kind="stable")
            if softness > 0:
                dm = np.zeros(u.shape)
                np.put_along_axis(dm, order[:, top_k - 1 : top_k + 1], 0.5, axis=1)
                m = np.einsum("gkn,gkn->gn", dm, u)[:, None, :]
                sig = 1.0 / (1.0 + det_exp(np.minimum(-(u - m) / softness, 700.0)))
                e = det_exp(us - us.max(axis=1, keepdims=True)) * sig
                return e / e.sum(axis=1, keepdims=True), (sig, dm)
            keep = np.zeros(u.shape, dtype=bool)
            np.put_along_axis(keep, order[:, :top_k], True, axis=1)
            us = np.where(keep, us, -np.inf)
    e = det_exp(us - us.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True), soft


def _forward(theta, x, k, router, family, temperature, top_k, softness=0.0, derivative=True):
    d = x.shape[-1]
    p = expert_size(family, d)
    b0, b1, eta = _split(theta, k, d, p)
    xt = router.token_features(x)
    c, dc = router.scale(b1)
    proj = _dot(b1[:, :, None, :], xt[:, None, :, :])
    u = proj * c[:, :, None] + b0[:, :, None]
    pi, soft = _gate(u, temperature, top_k, softness)
    h, dh = _experts(eta, x, family, derivative)
    f = np.einsum("gkn,gkn->gn", pi, h)
    return f, (xt, c, dc, proj, pi, h, dh, b1, soft)


def _check(theta, x, temperature, softness=0.0):
    theta = np.asarray(theta, float)
    x = np.asarray(x, float)
    if x.ndim != 3 or theta.ndim != 2 or theta.shape[0] != x.shape[0]:
        raise ValueError(f"theta must be (G, P) and x (G, n, d); got {theta.shape}, {x.shape}")
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature!r}")
    if not softness >= 0:
        raise ValueError(f"softness must be >= 0, got {softness!r}")
    return theta, x


def variant_model(
    theta: np.ndarray,
    x: np.ndarray,
    k: int,
    router: Router,
    family: str = "tanh",
    *,
    temperature: float = 1.0,
    top_k: int | None = None,
    softness: float = 0.0,
) -> np.ndarray:
    """Regression functions of a batch of MoEs with a (Top-K, tempered) softmax gate.

    Parameters
    ----------
    theta : ndarray of shape (G, P)
        Stacked ``[beta0 (k), beta1 (k d), eta (k p)]`` per fit.
    x : ndarray of shape (G, n, d)
        Inputs per fit.
    k : int
        Number of atoms.
    router : Router
        Router score ``s(x, beta1)`` (linear, cosine, perturbed).
    family : {"tanh", "relu2"}
        Expert family.
    temperature : float
        ``T > 0``; the gate is the softmax of ``u / T``.
    top_k : int, optional
        Keep only the ``top_k`` largest scores (``None``: dense).
    softness : float
        ``0`` (default): the hard Top-K gate. ``> 0``: the soft Top-K relaxation, weights
        :math:`e^{u_i/T}\\sigma((u_i - m)/\\mathrm{softness})` with :math:`m` the midpoint of
        the K-th and (K+1)-th largest scores (continuous in the parameters).

    Returns
    -------
    ndarray of shape (G, n)
        :math:`f(x) = \\sum_{i \\in S(x)} \\pi_i(x) h(x, \\eta_i)`.

    Raises
    ------
    ValueError
        On inconsistent shapes, ``T <= 0``, ``softness < 0`` or ``top_k`` outside ``[1, k]``.

    Notes
    -----
    With ``family="tanh"``, ``T = 1`` this is the Top-K sparse MoE of seed 000 (Q1) and, with
    ``top_k=None``, :func:`~moetheory.estimation.models.regression_function` (eqs. 2, 8).

    See Also
    --------
    variant_jacobian : the same model with its Jacobian.
    moetheory.estimation.models.regression_function : one measure, tanh experts.

    Examples
    --------
    >>> from moetheory.estimation.models import MixingMeasure, regression_function
    >>> G = MixingMeasure([0.5, 0.0], [[1.0, 0.5], [-0.5, 1.0]], [[1, -0.5, 0.5], [-0.5, 1, -0.5]])
    >>> x = np.random.default_rng(0).uniform(-2, 2, (1, 30, 2))
    >>> f = variant_model(G.to_vector()[None], x, 2, Router("cosine"), top_k=1)
    >>> ref = regression_function(G, x[0], Router("cosine"), top_k=1)
    >>> bool(np.allclose(f[0], ref))
    True
    """
    theta, x = _check(theta, x, temperature, softness)
    return _forward(theta, x, k, router, family, temperature, top_k, softness, False)[0]


def variant_jacobian(
    theta: np.ndarray,
    x: np.ndarray,
    k: int,
    router: Router,
    family: str = "tanh",
    *,
    temperature: float = 1.0,
    top_k: int | None = None,
    softness: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """``f`` (G, n) and its Jacobian in ``theta`` (G, n, P) on the current piece.

    Parameters
    ----------
    theta, x, k, router, family, temperature, top_k, softness
        As in :func:`variant_model`.

    Returns
    -------
    f : ndarray of shape (G, n)
    J : ndarray of shape (G, n, P)
        The derivative with the selected set ``S(x)`` held fixed (the derivative almost
        everywhere of the Top-K model).

    Raises
    ------
    ValueError
        As :func:`variant_model`.

    Notes
    -----
    With :math:`u_i = c(\\|\\beta_{1i}\\|)\\beta_{1i}^\\top\\tilde x + \\beta_{0i}`:
    :math:`\\partial f/\\partial u_i = \\pi_i (h_i - f)/T`,
    :math:`\\partial u_i/\\partial\\beta_{1i} = c\\,\\tilde x + c'(\\|\\beta_{1i}\\|)
    (\\beta_{1i}^\\top\\tilde x)\\,\\beta_{1i}/\\|\\beta_{1i}\\|`,
    :math:`\\partial f/\\partial\\eta_i = \\pi_i\\,\\partial h_i/\\partial\\eta_i`; with
    softness :math:`\\varsigma > 0` the log-weight :math:`u_i/T + \\log\\sigma(z_i)`,
    :math:`z_i = (u_i - m)/\\varsigma`, adds
    :math:`(1-\\sigma(z_i))(\\delta_{ij} - \\partial m/\\partial u_j)/\\varsigma`.

    See Also
    --------
    variant_model : the model alone.
    fit_variant : the least squares fit that uses this Jacobian.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> t = rng.standard_normal((1, 2 * (1 + 2 + 9))); x = rng.uniform(-2, 2, (1, 20, 2))
    >>> f, J = variant_jacobian(t, x, 2, Router("perturbed"), "relu2", top_k=2)
    >>> e = np.zeros_like(t); e[0, 3] = 1e-6
    >>> num = (variant_model(t + e, x, 2, Router("perturbed"), "relu2", top_k=2) - f) / 1e-6
    >>> bool(np.max(np.abs(num - J[:, :, 3])) < 1e-4)
    True
    """
    theta, x = _check(theta, x, temperature, softness)
    f, (xt, c, dc, proj, pi, h, dh, b1, soft) = _forward(
        theta, x, k, router, family, temperature, top_k, softness
    )
    g, n, d = x.shape
    p = dh.shape[-1]
    J = np.empty((g, n, k * (1 + d + p)))
    a = pi * (h - f[:, None, :])  # (G, k, n)
    if soft is None:
        a = a / temperature
    else:  # d log(weight_i) / d u_j = delta_ij / T + (1 - s_i)(delta_ij - dm/du_j) / softness
        sig, dm = soft
        b = a * (1.0 - sig) / softness
        a = a / temperature + b - np.einsum("gkn->gn", b)[:, None, :] * dm
    J[:, :, :k] = a.transpose(0, 2, 1)
    e0 = k + k * d
    for i in range(k):
        wi = (dc[:, i, None] * proj[:, i, :])[..., None] * b1[:, i, None, :]
        J[:, :, k + i * d : k + (i + 1) * d] = a[:, i, :, None] * (c[:, i, None, None] * xt + wi)
        J[:, :, e0 + i * p : e0 + (i + 1) * p] = pi[:, i, :, None] * dh[:, i]
    return f, J


@dataclass(frozen=True)
class Stage:
    """One stage of :func:`fit_variant`: gate temperature, Top-K, softness and LM iterations.

    Parameters
    ----------
    temperature : float
        ``T > 0`` of the gate ``softmax(u / T)``.
    top_k : int or None
        Top-K selection (``None``: dense).
    iterations : int
        Levenberg--Marquardt iterations of the stage, ``>= 1``.
    softness : float
        ``0``: hard Top-K; ``> 0``: the soft Top-K of :func:`variant_model` (a relaxation
        that tends to the hard gate as ``softness -> 0``).

    Raises
    ------
    ValueError
        If ``T <= 0``, ``softness < 0`` or ``iterations < 1``.

    Notes
    -----
    A stage minimises :math:`\\sum_m w_m (f_{T,K,\\varsigma}(x_m) - y_m)^2` for its gate.

    See Also
    --------
    fit_variant : runs the stages in order.

    Examples
    --------
    >>> Stage(0.1, None, 10).temperature
    0.1
    >>> Stage(0.0, None, 10)
    Traceback (most recent call last):
    ...
    ValueError: temperature must be > 0, got 0.0
    """

    temperature: float = 1.0
    top_k: int | None = None
    iterations: int = 40
    softness: float = 0.0

    def __post_init__(self) -> None:
        if not self.temperature > 0:
            raise ValueError(f"temperature must be > 0, got {self.temperature!r}")
        if not self.softness >= 0:
            raise ValueError(f"softness must be >= 0, got {self.softness!r}")
        if not isinstance(self.iterations, int) or self.iterations < 1:
            raise ValueError(f"iterations must be an integer >= 1, got {self.iterations!r}")


@dataclass(frozen=True, eq=False)
class VariantFit:
    """Result of :func:`fit_variant`.

    Parameters
    ----------
    theta : ndarray of shape (G, P)
        Final parameters per fit.
    objective : ndarray of shape (G,)
        Weighted mean squared residual of the last stage's model.

    Notes
    -----
    ``objective[g]`` is :math:`\\sum_m w_m (f(x_m; \\theta_g) - y_m)^2` with the last
    stage's gate.

    See Also
    --------
    fit_variant : returns it.

    Examples
    --------
    >>> VariantFit(np.zeros((1, 3)), np.zeros(1)).theta.shape
    (1, 3)
    """

    theta: np.ndarray
    objective: np.ndarray


def fit_variant(
    x: np.ndarray,
    y: np.ndarray,
    theta0: np.ndarray,
    k: int,
    router: Router,
    family: str,
    stages: tuple[Stage, ...],
    *,
    weights: np.ndarray | None = None,
) -> VariantFit:
    """Staged, batched Levenberg--Marquardt least squares for the variant MoE models.

    Parameters
    ----------
    x, y, theta0, k, router
        As in :func:`~moetheory.estimation.batched.fit_batch` (``theta0`` is not clipped).
    family : {"tanh", "relu2"}
        Expert family.
    stages : tuple of Stage
        Run in order, each warm-started from the previous one.
    weights : ndarray of shape (G, n), optional
        Nonnegative quadrature weights summing to 1 per fit (default ``1/n``): the objective
        is :math:`\\sum_m w_m (f(x_m) - y_m)^2`.

    Returns
    -------
    VariantFit

    Raises
    ------
    ValueError
        On inconsistent shapes, an empty ``stages`` or negative weights.

    Notes
    -----
    Per iteration: :math:`(A + \\lambda\\,\\mathrm{diag}(A) + 10^{-12} I)\\,\\delta = -J^\\top W r`
    with :math:`A = J^\\top W J` on the current piece (Top-K set fixed, see
    :func:`variant_jacobian`); the step is accepted iff the stage objective (Top-K set
    recomputed) decreases, then :math:`\\lambda \\leftarrow \\lambda/5`, else
    :math:`\\lambda \\leftarrow 3\\lambda`.

    See Also
    --------
    Stage : one stage of the schedule.
    moetheory.estimation.batched.fit_batch : the dense, one-layer-expert fit.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> t = np.array([[0.0, 0.0, 3.0, 0.0, -3.0, 0.0, 2.0, 0.0, 0.5, 0.0, 2.0, -0.5]] * 2)
    >>> x = rng.uniform(-1, 1, (2, 300, 2))
    >>> y = variant_model(t, x, 2, Router("linear"), top_k=1)
    >>> t0 = t + 0.05 * rng.standard_normal(t.shape)
    >>> st = (Stage(1.0, None, 5), Stage(0.1, None, 10), Stage(1.0, 1, 20))
    >>> fit = fit_variant(x, y, t0, 2, Router("linear"), "tanh", st)
    >>> bool(np.all(fit.objective < 1e-3))
    True
    """
    x, y, theta = _fit_inputs(x, y, theta0)
    if not stages:
        raise ValueError("stages must hold at least one Stage")
    g, n, _ = x.shape
    w = np.full((g, n), 1.0 / n) if weights is None else np.asarray(weights, float)
    if w.shape != (g, n) or np.any(w < 0):
        raise ValueError(f"weights must be nonnegative with shape {(g, n)}, got {w.shape}")
    sw = np.sqrt(w)
    obj = np.zeros(g)
    for stage in stages:
        kw = _stage_keywords(stage)
        f, J = variant_jacobian(theta, x, k, router, family, **kw)
        r = sw * (f - y)
        J = J * sw[:, :, None]
        obj = np.einsum("gn,gn->g", r, r)
        A = exact_gram(J.transpose(0, 2, 1))
        grad = np.einsum("gnp,gn->gp", J, r)

        def evaluate(trial, act, kw=kw):  # tol = 0: every fit runs, act is the whole batch
            r_t = sw * (variant_model(trial, x, k, router, family, **kw) - y)
            return np.einsum("gn,gn->g", r_t, r_t), (trial, r_t)

        def refresh(state, idx, act, kw=kw, J=J, r=r, A=A, grad=grad):
            trial, r_t = state
            J[idx] = variant_jacobian(trial[idx], x[idx], k, router, family, **kw)[1] * sw[
                idx, :, None
            ]
            r[idx] = r_t[idx]
            A[...] = exact_gram(J.transpose(0, 2, 1))
            grad[...] = np.einsum("gnp,gn->gp", J, r)

        lm_iterate(theta, obj, A, grad, stage.iterations, 0.0, evaluate, refresh)
    return VariantFit(theta, obj)



def _fit_inputs(x: np.ndarray, y: np.ndarray, theta0: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``x``, ``y`` and a copy of ``theta0`` as float arrays, their shapes checked."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    theta = np.asarray(theta0, float).copy()
    if x.ndim != 3 or y.shape != x.shape[:2] or theta.shape[0] != x.shape[0]:
        raise ValueError(f"x must have shape (G, n, d), y (G, n), theta0 (G, P); got "
                         f"{x.shape}, {y.shape}, {theta.shape}")
    return x, y, theta


def _stage_keywords(stage: Stage) -> dict[str, Any]:
    """The model's keyword arguments at ``stage`` (temperature, Top-K, softness)."""
    return {"temperature": stage.temperature, "top_k": stage.top_k, "softness": stage.softness}


def fit_to_rule(
    x: np.ndarray,
    y: np.ndarray,
    theta0: np.ndarray,
    k: int,
    router: Router,
    family: str,
    stages: tuple[Stage, ...],
    tol: float = LM_TOL,
) -> tuple[VariantFit, np.ndarray, np.ndarray]:
    """:func:`~moetheory.estimation.variants.fit_variant` whose last stage runs to a stopping rule.

    Parameters
    ----------
    x, y, theta0, k, router, family
        As in :func:`fit_variant`.
    stages : tuple of Stage
        All but the last run for their ``iterations`` (:func:`fit_variant`); the last runs
        until the rule stops it or its ``iterations`` (the cap) are used.
    tol : float
        The rule: after an accepted step the Gauss--Newton decrement is at most ``tol``
        times the objective, or a step is rejected at ``lambda >= 1e8``.

    Returns
    -------
    fit : VariantFit
        Final parameters and the last stage's objective.
    converged : ndarray of bool, shape (G,)
        Whether the rule stopped the fit (``False``: the cap).
    ran : ndarray of int, shape (G,)
        Iterations of the last stage.

    Raises
    ------
    ValueError
        If ``stages`` is empty, ``tol <= 0`` or shapes are inconsistent.

    Notes
    -----
    The last stage's step is that of :func:`fit_variant`,
    :math:`(A + \\lambda\\,\\mathrm{diag}(A) + 10^{-12} I)\\,\\delta = -J^\\top r / n` on the
    current piece (Top-K set fixed), accepted iff the objective (set recomputed) decreases.
    The decrement is :math:`g^\\top (A + 10^{-8}\\mathrm{diag}(A) + 10^{-12} I)^{-1} g`, the
    rule of :func:`~moetheory.estimation.batched.fit_batch` (the dense rates fits).

    See Also
    --------
    moetheory.estimation.batched.fit_batch : the same rule for the dense fits.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> t = np.array([[0.0, 0.0, 3.0, 0.0, -3.0, 0.0, 2.0, 0.0, 0.5, 0.0, 2.0, -0.5]])
    >>> x = rng.uniform(-1, 1, (1, 200, 2))
    >>> y = variant_model(t, x, 2, Router("linear"), top_k=1)
    >>> st = (Stage(0.1, None, 5), Stage(1.0, 1, 100))
    >>> fit, conv, ran = fit_to_rule(x, y, t + 0.01, 2, Router("linear"), "tanh", st)
    >>> bool(conv[0]), bool(fit.objective[0] < 1e-8)
    (True, True)
    """
    if not stages:
        raise ValueError("stages must hold at least one Stage")
    if not tol > 0:
        raise ValueError(f"tol must be > 0, got {tol!r}")
    x, y, theta = _fit_inputs(x, y, theta0)
    if len(stages) > 1:
        theta = fit_variant(x, y, theta, k, router, family, stages[:-1]).theta
    last = stages[-1]
    kw = _stage_keywords(last)
    n = x.shape[1]
    f, J = variant_jacobian(theta, x, k, router, family, **kw)
    r = f - y
    obj = np.einsum("gn,gn->g", r, r) / n
    A = exact_gram(J.transpose(0, 2, 1)) / n
    grad = np.einsum("gnp,gn->gp", J, r) / n

    def evaluate(trial, act):
        r_t = variant_model(trial, x[act], k, router, family, **kw) - y[act]
        return np.einsum("gn,gn->g", r_t, r_t) / n, (trial, r_t)

    def refresh(state, idx, act):
        trial, r_t = state
        acc = act[idx]
        _, J_t = variant_jacobian(trial[idx], x[acc], k, router, family, **kw)
        A[acc] = exact_gram(J_t.transpose(0, 2, 1)) / n
        grad[acc] = np.einsum("gnp,gn->gp", J_t, r_t[idx]) / n

    _, ran, stopped = lm_iterate(theta, obj, A, grad, last.iterations, tol, evaluate, refresh)
    return VariantFit(theta, obj), stopped, ran


#: Alternations of :func:`polish_gate` (a router search, then the last stage).
POLISH_ROUNDS = 3
#: Objective evaluations of one router search, per router parameter.
POLISH_EVALUATIONS = 100
#: Edge of the router search's first simplex (each router parameter moved by it): a
#: boundary shift that crosses inputs at every sample size (the objective is flat on
#: shorter moves between two inputs).
POLISH_STEP = 0.1


def polish_gate(
    x: np.ndarray,
    y: np.ndarray,
    theta0: np.ndarray,
    k: int,
    router: Router,
    family: str,
    last: Stage,
    tol: float = LM_TOL,
    rounds: int = POLISH_ROUNDS,
) -> tuple[VariantFit, np.ndarray, np.ndarray]:
    """Gating steps on the hard Top-K / top-1 objective itself, alternated with the last stage.

    Parameters
    ----------
    x, y, theta0, k, router, family
        As in :func:`fit_to_rule` (``d = x.shape[2]``).
    last : Stage
        The last stage of the schedule (its gate is the objective).
    tol : float
        The last stage's stopping rule (:func:`fit_to_rule`).
    rounds : int
        Alternations, ``>= 1``.

    Returns
    -------
    fit : VariantFit
        Final parameters and objectives.
    converged, ran : ndarray
        Of the last run of the last stage (:func:`fit_to_rule`).

    Raises
    ------
    ValueError
        If ``rounds < 1`` or shapes are inconsistent.

    Notes
    -----
    The hard objective is piecewise constant in the router parameters
    :math:`(\\beta_0, \\beta_1)` at a selection boundary, so its derivative (the last
    stage's, on the current piece) cannot move a boundary. Each round searches the router
    parameters with the experts held, by Nelder--Mead on the objective itself
    (:math:`100` evaluations per router parameter; the search starts at the current point
    and keeps the best point it saw, so the objective does not increase), then runs the last
    stage from there. An EM step for the gating in the estimator's own objective. The
    search's first simplex moves each router parameter by :data:`POLISH_STEP`.

    See Also
    --------
    fit_to_rule : the last stage.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> t = np.array([[0.0, 0.0, 3.0, 0.0, -3.0, 0.0, 2.0, 0.0, 0.5, 0.0, 2.0, -0.5]])
    >>> x = rng.uniform(-1, 1, (1, 200, 2))
    >>> y = variant_model(t, x, 2, Router("linear"), top_k=1)
    >>> off = t.copy(); off[0, 0] = 1.0  # the boundary moved: the last stage cannot move it
    >>> before = fit_to_rule(x, y, off, 2, Router("linear"), "tanh", (Stage(1.0, 1, 50),))[0]
    >>> fit, conv, ran = polish_gate(x, y, off, 2, Router("linear"), "tanh", Stage(1.0, 1, 50))
    >>> bool(fit.objective[0] < before.objective[0] / 10)
    True
    """
    from scipy.optimize import minimize

    if not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"rounds must be an integer >= 1, got {rounds!r}")
    x, y, theta = _fit_inputs(x, y, theta0)
    nr = k * (1 + x.shape[2])
    kw = _stage_keywords(last)
    n = x.shape[1]
    conv = np.zeros(x.shape[0], dtype=bool)
    ran = np.zeros(x.shape[0], dtype=int)
    obj = np.zeros(x.shape[0])
    for g in range(x.shape[0]):
        t = theta[g].copy()
        for _ in range(rounds):
            def objective(rp, t=t, g=g):
                trial = t.copy()
                trial[:nr] = rp
                r = variant_model(trial[None], x[g : g + 1], k, router, family, **kw)[0] - y[g]
                return float(np.einsum("n,n->", r, r) / n)

            simplex = t[:nr] + np.vstack([np.zeros(nr), POLISH_STEP * np.eye(nr)])
            res = minimize(objective, t[:nr], method="Nelder-Mead",
                           options={"maxfev": POLISH_EVALUATIONS * nr, "xatol": 1e-6,
                                    "fatol": 1e-12, "initial_simplex": simplex})
            if res.fun < objective(t[:nr]):
                t[:nr] = res.x
            fit, c, r_ = fit_to_rule(x[g : g + 1], y[g : g + 1], t[None], k, router, family,
                                     (last,), tol)
            t = fit.theta[0]
        theta[g], obj[g], conv[g], ran[g] = t, fit.objective[0], c[0], r_[0]
    return VariantFit(theta, obj), conv, ran
