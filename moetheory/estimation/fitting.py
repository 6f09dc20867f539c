r"""Least-squares estimation (eq. 3 of seed 002) of a mixing measure, with analytic gradients.

The objective is the mean squared residual :math:`\frac{1}{n} \sum_n (Y_n - f_G(X_n))^2` as a
function of the stacked parameters :math:`\theta = [\beta_0, \beta_1, \eta]` (see
:meth:`~moetheory.estimation.models.MixingMeasure.to_vector`). Its gradient follows from

* :math:`\partial f / \partial \beta_{0i} = \pi_i (h_i - f)` with :math:`\pi` the softmax gate,
* :math:`\partial f / \partial \beta_{1i} = \pi_i (h_i - f)\, \partial s_i / \partial \beta_{1i}`
  where, writing the score as :math:`s = c(\|\beta_1\|) \beta_1^\top \tilde x`,
  :math:`\partial s / \partial \beta_1 = c \tilde x + c'(\|\beta_1\|) (\beta_1^\top \tilde x)
  \beta_1 / \|\beta_1\|`,
* :math:`\partial f / \partial \eta_i = \pi_i \partial h_i / \partial \eta_i`.

:func:`fit_least_squares` minimises it over the box ``|theta_j| < bound`` (the compact
parameter space of (A.1)) by BFGS in the unconstrained variables ``phi`` with
``theta = bound * tanh(phi / bound)``, from several starting points drawn from a seeded
generator, and keeps the lowest objective, i.e. the best available approximation of the
global minimiser (3). (L-BFGS-B with box constraints was ~25 times slower per iteration on the
shared machine, as its internals call threaded BLAS.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moetheory.estimation.models import EXPERTS, MixingMeasure, Router, activation

__all__ = [
    "FitResult",
    "fit_least_squares",
    "least_squares_loop",
    "least_squares_objective",
]


def _check_data(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.ndim != 2 or x.shape[0] < 1:
        raise ValueError(f"x must have shape (n, d) with n >= 1, got {x.shape}")
    if y.shape != (x.shape[0],):
        raise ValueError(f"y must have shape (n,) = ({x.shape[0]},), got {y.shape}")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ValueError("x and y must be finite")
    return x, y


def least_squares_objective(
    theta: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    k: int,
    router: Router,
    expert: str = "tanh",
) -> tuple[float, np.ndarray]:
    """Mean squared residual of eq. (3) and its analytic gradient in ``theta``, vectorised.

    Parameters
    ----------
    theta : ndarray of shape (P,)
        Stacked parameters ``[beta0, beta1, eta]``, ``P = k (2 d + 2)``.
    x : ndarray of shape (n, d)
        Inputs.
    y : ndarray of shape (n,)
        Responses.
    k : int
        Number of atoms.
    router : Router
        The router.
    expert : str
        Expert family.

    Returns
    -------
    value : float
        :math:`\\frac1n \\sum_m (Y_m - f_G(X_m))^2`.
    grad : ndarray of shape (P,)
        Its gradient in ``theta``.

    Raises
    ------
    ValueError
        On inconsistent shapes, non-finite data, an unknown expert or a ``theta`` of the
        wrong length.

    Notes
    -----
    With the gate :math:`\\pi_i`, experts :math:`h_i` and residual :math:`r = f - Y`,
    :math:`\\partial_{\\beta_{0i}} L = \\frac2n \\sum r \\pi_i (h_i - f)`, the router
    derivative through :math:`s = c(\\|\\beta_1\\|)\\beta_1^\\top\\tilde x` and
    :math:`\\partial_{\\eta_i} L = \\frac2n \\sum r \\pi_i h'(z_i) (x, 1)` (module
    docstring).

    See Also
    --------
    least_squares_loop : the same, one sample at a time.
    fit_least_squares : minimises it.

    Examples
    --------
    >>> x = np.array([[1.0, 0.0], [0.0, 2.0]]); y = np.array([0.5, -0.5])
    >>> G = MixingMeasure([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [[1, 0, 0], [0, 1, 0]])
    >>> value, grad = least_squares_objective(G.to_vector(), x, y, 2, Router("perturbed"))
    >>> round(value, 6), grad.shape
    (0.566093, (12,))
    """
    x, y = _check_data(x, y)
    if expert not in EXPERTS:
        raise ValueError(f"expert must be one of {EXPERTS}, got {expert!r}")
    theta = np.asarray(theta, dtype=float)
    MixingMeasure.from_vector(theta, k, x.shape[1])  # validates the shape of theta
    return _objective_core(
        theta, x.T.copy(), router.token_features(x).T.copy(), y, k, router, expert
    )


def _objective_core(
    theta: np.ndarray,
    xT: np.ndarray,
    xtT: np.ndarray,
    y: np.ndarray,
    k: int,
    router: Router,
    expert: str,
) -> tuple[float, np.ndarray]:
    # Arrays are laid out (k, n) / (d, n) so that every reduction over k is elementwise;
    # einsum (not BLAS) keeps these tiny products single-threaded: threaded BLAS on a
    # shared machine made each evaluation ~20 times slower.
    d, n = xT.shape
    b0 = theta[:k]
    b1 = theta[k : k + k * d].reshape(k, d)
    eta = theta[k + k * d :].reshape(k, d + 1)
    c, dc = router.scale(b1)
    proj = np.einsum("kd,dn->kn", b1, xtT)  # (k, n)
    u = proj * c[:, None] + b0[:, None]
    e = np.exp(u - u.max(axis=0))
    pi = e / e.sum(axis=0)
    z = np.einsum("kd,dn->kn", eta[:, :-1], xT) + eta[:, -1:]
    h, dh = activation(z, expert)
    f = np.einsum("kn,kn->n", pi, h)
    r = f - y
    value = float(np.einsum("n,n->", r, r)) / n
    g = (2.0 / n) * r * pi * (h - f)  # dL/du, (k, n)
    grad_b0 = g.sum(axis=1)
    grad_b1 = (
        c[:, None] * np.einsum("kn,dn->kd", g, xtT)
        + (dc * np.einsum("kn,kn->k", g, proj))[:, None] * b1
    )
    q = (2.0 / n) * r * pi * dh  # dL/dz, (k, n)
    grad_eta = np.concatenate([np.einsum("kn,dn->kd", q, xT), q.sum(axis=1)[:, None]], axis=1)
    return value, np.concatenate([grad_b0, grad_b1.ravel(), grad_eta.ravel()])


def least_squares_loop(
    theta: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    k: int,
    router: Router,
    expert: str = "tanh",
) -> tuple[float, np.ndarray]:
    """The same objective and gradient as :func:`least_squares_objective`, one sample at a time.

    A straightforward reference implementation (used by the tests and the benchmark).

    Parameters
    ----------
    theta, x, y, k, router, expert
        As in :func:`least_squares_objective`.

    Returns
    -------
    value, grad : float, ndarray of shape (P,)
        The mean squared residual and its gradient, as :func:`least_squares_objective`.

    Raises
    ------
    ValueError
        As :func:`least_squares_objective`.

    Notes
    -----
    The same formulas as :func:`least_squares_objective`, evaluated per sample in Python.

    See Also
    --------
    least_squares_objective : the vectorised version.

    Examples
    --------
    >>> x = np.array([[1.0, 0.0], [0.0, 2.0]]); y = np.array([0.5, -0.5])
    >>> G = MixingMeasure([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [[1, 0, 0], [0, 1, 0]])
    >>> float(round(least_squares_loop(G.to_vector(), x, y, 2, Router("perturbed"))[0], 6))
    0.566093
    """
    x, y = _check_data(x, y)
    n, d = x.shape
    G = MixingMeasure.from_vector(theta, k, d)
    value = 0.0
    grad_b0 = np.zeros(k)
    grad_b1 = np.zeros((k, d))
    grad_eta = np.zeros((k, d + 1))
    c, dc = router.scale(G.beta1)
    for xn, yn in zip(x, y, strict=True):
        xt = router.token_features(xn[None, :])[0]
        scores = [c[i] * float(G.beta1[i] @ xt) + G.beta0[i] for i in range(k)]
        top = max(scores)
        e = [np.exp(s - top) for s in scores]
        pi = [ei / sum(e) for ei in e]
        zs = [float(G.eta[i, :-1] @ xn) + G.eta[i, -1] for i in range(k)]
        hs, dhs = zip(*(map(float, activation(np.array(zi), expert)) for zi in zs), strict=True)
        f = sum(p * hv for p, hv in zip(pi, hs, strict=True))
        r = f - yn
        value += r**2 / n
        for i in range(k):
            gi = 2.0 * r * pi[i] * (hs[i] - f) / n
            grad_b0[i] += gi
            grad_b1[i] += gi * (c[i] * xt + dc[i] * float(G.beta1[i] @ xt) * G.beta1[i])
            qi = 2.0 * r * pi[i] * dhs[i] / n
            grad_eta[i, :-1] += qi * xn
            grad_eta[i, -1] += qi
    return value, np.concatenate([grad_b0, grad_b1.ravel(), grad_eta.ravel()])


@dataclass(frozen=True, eq=False)
class FitResult:
    """Outcome of :func:`fit_least_squares`: the estimate and how it was found.

    Parameters
    ----------
    estimate : MixingMeasure
        The best fit.
    objective : float
        Its mean squared residual.
    objectives : tuple of float
        Final objective of every start.
    iterations : int
        BFGS iterations of the best start.
    converged : bool
        Whether the best start met the gradient tolerance.
    max_abs_theta : float
        Largest parameter magnitude of the estimate (near ``bound``: the box is active).

    Notes
    -----
    The estimate approximates the global minimiser of (3) of seed 002 by the best of the
    starts.

    See Also
    --------
    fit_least_squares

    Examples
    --------
    >>> from moetheory.estimation.models import MixingMeasure
    >>> G = MixingMeasure([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [[1, 0, 0], [0, 1, 0]])
    >>> FitResult(G, 0.01, (0.01,), 12, True, 1.0).estimate.k
    2
    """

    estimate: MixingMeasure
    objective: float
    objectives: tuple[float, ...]
    iterations: int
    converged: bool
    max_abs_theta: float


def fit_least_squares(
    x: np.ndarray,
    y: np.ndarray,
    k: int,
    router: Router,
    rng: np.random.Generator,
    *,
    expert: str = "tanh",
    restarts: int = 3,
    starts: list[MixingMeasure] | None = None,
    bound: float = 10.0,
    gtol: float = 1e-9,
    max_iter: int = 1000,
) -> FitResult:
    """Least-squares estimate (3) over mixing measures with ``k`` atoms.

    Parameters
    ----------
    x, y : ndarray
        Data, shapes (n, d) and (n,).
    k : int
        Number of atoms fitted (``k >= 1``).
    router : Router
        The router of the fitted model.
    rng : numpy.random.Generator
        Source of the random starting points (standard normal entries).
    expert : str
        Expert family.
    restarts : int
        Number of random starting points (``>= 0``), in addition to ``starts``.
    starts : list of MixingMeasure, optional
        Extra given starting points with ``k`` atoms.
    bound : float
        The parameter box ``|theta_j| < bound`` ((A.1)); starting points are clipped into it.
    gtol, max_iter : float, int
        BFGS gradient-norm tolerance and iteration cap.

    Returns
    -------
    FitResult
        The best of the starts.

    Raises
    ------
    ValueError
        On bad data, ``k < 1``, ``restarts < 0``, ``bound <= 0``, an unknown expert, starts of
        the wrong shape, or no starting point at all.

    Notes
    -----
    BFGS in :math:`\\phi` with :math:`\\theta = b \\tanh(\\phi / b)` (the open box (A.1));
    the lowest objective over the starts approximates the global minimiser of (3).

    See Also
    --------
    moetheory.estimation.batched.fit_batch : many fits at once by batched LM.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> G = MixingMeasure([0.0, 0.0], [[3.0, 0.0], [-3.0, 0.0]], [[2, 0, 0.5], [0, 2, -0.5]])
    >>> x = rng.uniform(-1, 1, (400, 2))
    >>> from moetheory.estimation.models import regression_function
    >>> y = regression_function(G, x, Router("linear"))
    >>> fit = fit_least_squares(x, y, 2, Router("linear"), rng, restarts=2, starts=[G])
    >>> fit.objective < 1e-12
    True
    """
    x, y = _check_data(x, y)
    if not isinstance(k, int | np.integer) or k < 1:
        raise ValueError(f"k must be an integer >= 1, got {k!r}")
    if not isinstance(restarts, int | np.integer) or restarts < 0:
        raise ValueError(f"restarts must be an integer >= 0, got {restarts!r}")
    if not bound > 0:
        raise ValueError(f"bound must be > 0, got {bound!r}")
    d = x.shape[1]
    if expert not in EXPERTS:
        raise ValueError(f"expert must be one of {EXPERTS}, got {expert!r}")
    xT, xtT = x.T.copy(), router.token_features(x).T.copy()
    inits = [s.to_vector() for s in (starts or [])]
    for s in starts or []:
        if s.k != k or s.d != d:
            raise ValueError(f"starts must have k = {k} atoms of dimension d = {d}")
    inits += [rng.standard_normal(k * (2 * d + 2)) for _ in range(restarts)]
    if not inits:
        raise ValueError("need at least one starting point: restarts >= 1 or starts")
    best = None
    objectives = []
    for theta0 in inits:
        from scipy.optimize import minimize
        res = minimize(
            _boxed_objective,
            np.arctanh(np.clip(theta0, -0.99 * bound, 0.99 * bound) / bound) * bound,
            args=(bound, xT, xtT, y, k, router, expert),
            jac=True,
            method="BFGS",
            options={"gtol": gtol, "maxiter": max_iter},
        )
        objectives.append(float(res.fun))
        if best is None or res.fun < best.fun:
            best = res
    assert best is not None
    theta = bound * np.tanh(best.x / bound)
    return FitResult(
        MixingMeasure.from_vector(theta, k, d),
        float(best.fun),
        tuple(objectives),
        int(best.nit),
        bool(best.success),
        float(np.abs(theta).max()),
    )


def _boxed_objective(phi: np.ndarray, bound: float, *args: object) -> tuple[float, np.ndarray]:
    # theta = bound * tanh(phi / bound) maps R^p onto the open box (-bound, bound)^p.
    t = np.tanh(phi / bound)
    value, grad = _objective_core(bound * t, *args)  # type: ignore[arg-type]
    return value, grad * (1.0 - t**2)
