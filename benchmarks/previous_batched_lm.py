"""The batched Levenberg–Marquardt fit as it was before the speed work of issue 10 (main at
d7290e9), frozen here only so that ``bench_estimation.py`` can time it side by side with
:func:`moetheory.estimation.batched.fit_batch`. Not used by the package."""

# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moetheory.estimation.detmath import det_exp
from moetheory.estimation.models import EXPERTS, MixingMeasure, Router

__all__ = ["BatchFit", "det_exp", "fit_batch", "jacobian_batch", "model_batch"]

def _features(x: np.ndarray, router: Router) -> np.ndarray:
    if router.kind == "linear":
        return x
    norm = np.sqrt(np.sum(x * x, axis=-1, keepdims=True))
    if router.kind == "cosine":
        return x / np.maximum(norm, 1e-300)
    return x / (norm + router.tau2)


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


def _expert(z: np.ndarray, expert: str) -> tuple[np.ndarray, np.ndarray]:
    if expert == "tanh":
        h = np.tanh(z)
        return h, 1.0 - h * h
    if expert == "relu":
        return np.maximum(z, 0.0), (z > 0).astype(float)
    if expert == "poly2":
        return z * z, 2.0 * z
    return z, np.ones_like(z)


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
        The router.
    expert : str
        Expert family.

    Returns
    -------
    ndarray of shape (G, n)

    Examples
    --------
    >>> from moetheory.estimation.models import regression_function
    >>> G = MixingMeasure([0.5, 0.0], [[1.0, 0.5], [-0.5, 1.0]], [[1, -0.5, 0.5], [-0.5, 1, -0.5]])
    >>> x = np.random.default_rng(0).uniform(-2, 2, (1, 50, 2))
    >>> f = model_batch(G.to_vector()[None], x, 2, Router("cosine"))
    >>> bool(np.allclose(f[0], regression_function(G, x[0], Router("cosine"))))
    True
    """
    return _forward(np.asarray(theta, float), np.asarray(x, float), k, router, expert)[0]


def _forward(theta, x, k, router, expert):
    d = x.shape[-1]
    b0, b1, eta = _unpack(theta, k, d)
    xt = _features(x, router)
    c, dc = _scale(b1, router)
    proj = np.einsum("gkd,gnd->gkn", b1, xt)
    u = proj * c[:, :, None] + b0[:, :, None]
    e = det_exp(u - u.max(axis=1, keepdims=True))
    pi = e / e.sum(axis=1, keepdims=True)
    z = np.einsum("gkd,gnd->gkn", eta[:, :, :-1], x) + eta[:, :, -1:]
    h, dh = _expert(z, expert)
    f = np.einsum("gkn,gkn->gn", pi, h)
    return f, (xt, c, dc, proj, pi, h, dh, b1)


def jacobian_batch(
    theta: np.ndarray, x: np.ndarray, k: int, router: Router, expert: str = "tanh"
) -> tuple[np.ndarray, np.ndarray]:
    """``f`` (G, n) and its Jacobian in ``theta`` (G, n, P), analytic.

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
    f, (xt, c, dc, proj, pi, h, dh, b1) = _forward(theta, x, k, router, expert)
    g, n, d = x.shape
    J = np.empty((g, n, k * (2 * d + 2)))
    a = pi * (h - f[:, None, :])  # d f / d beta0_i, (G, k, n)
    q = pi * dh  # d f / d z_i, (G, k, n)
    J[:, :, :k] = a.transpose(0, 2, 1)
    e0 = k + k * d
    for i in range(k):
        ai = a[:, i, :, None]
        wi = (dc[:, i, None] * proj[:, i, :])[..., None] * b1[:, i, None, :]
        J[:, :, k + i * d : k + (i + 1) * d] = ai * (c[:, i, None, None] * xt + wi)
        qi = q[:, i, :, None]
        J[:, :, e0 + i * (d + 1) : e0 + i * (d + 1) + d] = qi * x
        J[:, :, e0 + i * (d + 1) + d] = q[:, i, :]
    return f, J


def _exact_gram(J: np.ndarray) -> np.ndarray:
    """``J^T J`` per fit, from ``J`` rounded to a fixed-point grid so that BLAS is exact."""
    n = J.shape[1]
    bits = (53 - int(np.ceil(np.log2(n + 1))) - 1) // 2
    scale = np.max(np.abs(J), axis=1)  # (G, P)
    _, expo = np.frexp(np.where(scale > 0, scale, 1.0))  # scale < 2**expo
    up = np.ldexp(1.0, (bits - expo).astype(np.int64))  # powers of two: scaling is exact
    Jq = np.rint(J * up[:, None, :])
    A = np.matmul(Jq.transpose(0, 2, 1), Jq)
    down = 1.0 / up
    return A * down[:, :, None] * down[:, None, :]


def _cholesky_solve(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Solve ``A x = b`` for a batch of symmetric positive definite ``A`` (no LAPACK)."""
    p = A.shape[1]
    L = np.zeros_like(A)
    for j in range(p):
        s = A[:, j, j] - np.einsum("gk,gk->g", L[:, j, :j], L[:, j, :j])
        L[:, j, j] = np.sqrt(np.maximum(s, 1e-300))
        if j + 1 < p:
            t = A[:, j + 1 :, j] - np.einsum("gik,gk->gi", L[:, j + 1 :, :j], L[:, j, :j])
            L[:, j + 1 :, j] = t / L[:, j, j][:, None]
    y = np.zeros_like(b)
    for i in range(p):
        y[:, i] = (b[:, i] - np.einsum("gk,gk->g", L[:, i, :i], y[:, :i])) / L[:, i, i]
    out = np.zeros_like(b)
    for i in range(p - 1, -1, -1):
        out[:, i] = (
            y[:, i] - np.einsum("gk,gk->g", L[:, i + 1 :, i], out[:, i + 1 :])
        ) / L[:, i, i]
    return out


@dataclass(frozen=True, eq=False)
class BatchFit:
    """Result of :func:`fit_batch`: final parameters and mean squared residuals per fit."""

    theta: np.ndarray
    objective: np.ndarray
    accepted: np.ndarray

    def measure(self, index: int, k: int, d: int) -> MixingMeasure:
        """The fitted mixing measure of fit ``index``."""
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
    max_chunk: int = 600_000,
) -> BatchFit:
    """Levenberg–Marquardt least-squares fits of many data sets at once.

    Parameters
    ----------
    x : ndarray of shape (G, n, d)
        Inputs of each fit.
    y : ndarray of shape (G, n)
        Responses.
    theta0 : ndarray of shape (G, P)
        Starting points (clipped into the box ``|theta_j| <= bound``).
    k : int
        Number of atoms fitted.
    router : Router
        Router of the fitted model.
    expert : str
        Expert family.
    bound : float
        The compact parameter box of (A.1).
    iterations : int
        Number of LM iterations (every fit runs all of them).
    max_chunk : int
        Largest ``G_chunk * n * k`` processed at once (memory).

    Returns
    -------
    BatchFit

    Raises
    ------
    ValueError
        On inconsistent shapes or non-positive ``bound``/``iterations``.

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
    step = max(1, max_chunk // max(1, n * k))
    parts = [
        _fit_chunk(x[s : s + step], y[s : s + step], theta0[s : s + step], k, router, expert,
                   bound, iterations)
        for s in range(0, g, step)
    ]
    return BatchFit(*(np.concatenate(arrs) for arrs in zip(*parts, strict=True)))


def _objective(theta, x, y, k, router, expert):
    r = _forward(theta, x, k, router, expert)[0] - y
    return np.einsum("gn,gn->g", r, r) / x.shape[1]


def _det_arctanh(u: np.ndarray) -> np.ndarray:
    """``arctanh(u)`` for ``|u| <= 0.99`` by Newton on ``tanh`` (NumPy's ``arctanh`` differs in
    the last bit between SIMD paths; ``tanh`` does not). From ``v = u`` the iterates increase
    monotonically in ``|v|`` (``tanh`` is concave on ``v > 0``) and converge quadratically."""
    v = u.copy()
    for _ in range(40):
        t = np.tanh(v)
        v = v - (t - u) / (1.0 - t * t)
    return v


def _theta(phi, bound):
    t = np.tanh(phi / bound)
    return bound * t, 1.0 - t * t


def _fit_chunk(x, y, theta0, k, router, expert, bound, iterations):
    # theta = bound * tanh(phi / bound): the open box of (A.1), unconstrained in phi
    phi = bound * _det_arctanh(np.clip(theta0, -0.99 * bound, 0.99 * bound) / bound)
    n = x.shape[1]
    lam = np.full(phi.shape[0], 1e-3)
    theta, dtheta = _theta(phi, bound)
    f, J = jacobian_batch(theta, x, k, router, expert)
    J = J * dtheta[:, None, :]
    r = f - y
    obj = np.einsum("gn,gn->g", r, r) / n
    accepted = np.zeros(phi.shape[0], dtype=np.int64)
    eye = np.eye(phi.shape[1])
    for _ in range(iterations):
        A = _exact_gram(J) / n
        grad = np.einsum("gnp,gn->gp", J, r) / n
        diag = np.einsum("gpp->gp", A)
        M = A + lam[:, None, None] * (diag[:, :, None] * eye) + 1e-12 * eye
        trial = phi + _cholesky_solve(M, -grad)
        theta_t, dtheta_t = _theta(trial, bound)
        r_t = _forward(theta_t, x, k, router, expert)[0] - y
        obj_t = np.einsum("gn,gn->g", r_t, r_t) / n
        ok = obj_t < obj
        idx = np.flatnonzero(ok)
        if idx.size:  # the Jacobian only where the step is taken (fits are independent)
            J[idx] = jacobian_batch(theta_t[idx], x[idx], k, router, expert)[1] * (
                dtheta_t[idx, None, :]
            )
        phi = np.where(ok[:, None], trial, phi)
        r = np.where(ok[:, None], r_t, r)
        obj = np.where(ok, obj_t, obj)
        lam = np.where(ok, np.maximum(lam / 5.0, 1e-12), np.minimum(lam * 3.0, 1e12))
        accepted += ok
    return _theta(phi, bound)[0], obj, accepted
