r"""MoE regression functions of seed 002: :math:`f_G` (eq. 2), :math:`g_G` (eq. 8), linear router.

A mixing measure :math:`G = \sum_i e^{\beta_{0i}} \delta_{(\beta_{1i}, \eta_i)}` is stored as a
:class:`MixingMeasure` with arrays ``beta0`` (k,), ``beta1`` (k, d) and ``eta`` (k, d + 1);
the expert :math:`h(x, \eta)` with :math:`\eta = (a, b)` is :math:`\sigma(a^\top x + b)` with
the activation :math:`\sigma` of one of :data:`EXPERTS` (:func:`activation`): ``tanh``,
``relu``, ``gelu`` (:math:`z \Phi(z)`), ``poly2`` (:math:`z^2`) or ``linear`` (the identity).
The router score :math:`s(x, \beta_1)` is one of :data:`ROUTERS`:

* ``"linear"``: :math:`\beta_1^\top x`;
* ``"cosine"``: :math:`\beta_1^\top x / (\|\beta_1\| \|x\|)` (eq. 2);
* ``"perturbed"``: :math:`\beta_1^\top x / ((\|\beta_1\| + \tau_1)(\|x\| + \tau_2))` (eq. 8).

The regression function is
:math:`\sum_i \mathrm{softmax}_i(s(x, \beta_{1i}) + \beta_{0i})\, h(x, \eta_i)`; with
``top_k=K`` the scores outside the :math:`K` largest are set to :math:`-\infty` before the
softmax (the Top-K sparse MoE of seed 000, Q1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moetheory._doccer import fill_doc
from moetheory.estimation.detmath import det_exp, det_tanh

__all__ = [
    "EXPERTS",
    "ROUTERS",
    "MixingMeasure",
    "Router",
    "activation",
    "expert_output",
    "gate_probabilities",
    "regression_function",
    "router_scores",
]

#: The Raises section of the expert families' functions (:func:`moetheory._doccer.fill_doc`).
_FAMILY_DOC: dict[str, str] = {
    "raises": """Raises
------
ValueError
    On an unknown expert family.""",
}

ROUTERS: tuple[str, ...] = ("linear", "cosine", "perturbed")
#: Expert families: the activation ``sigma`` of :math:`h(x, (a, b)) = \sigma(a^\top x + b)`
#: (:func:`activation`).
EXPERTS: tuple[str, ...] = ("tanh", "relu", "gelu", "poly2", "linear")
#: ``1 / sqrt(2 pi)``, correctly rounded: the standard normal density is this times
#: ``exp(-z^2 / 2)``.
_INV_SQRT_2PI = 0.3989422804014327
#: Beyond ``|z| = 40`` the normal density is below the smallest double (``exp(-800)``).
_PDF_CUTOFF = 40.0


@dataclass(frozen=True)
class Router:
    """A router: its kind and the noise hyper-parameters of eq. (8).

    Parameters
    ----------
    kind : {"linear", "cosine", "perturbed"}
        The score function (see the module docstring).
    tau1, tau2 : float
        Noises added to ``||beta1||`` and ``||x||`` (perturbed router only), both ``> 0``
        for eq. (8); ``0`` is allowed for the one-sided variants.

    Raises
    ------
    ValueError
        On an unknown ``kind`` or a ``tau`` that is negative or not finite.

    Notes
    -----
    The score is :math:`s(x, \\beta_1) = c(\\|\\beta_1\\|)\\,\\beta_1^\\top \\tilde x` with
    :math:`(c, \\tilde x) = (1, x)` (linear), :math:`(1/\\|\\beta_1\\|, x/\\|x\\|)` (cosine,
    eq. (2)) and :math:`(1/(\\|\\beta_1\\|+\\tau_1), x/(\\|x\\|+\\tau_2))` (perturbed
    cosine, eq. (8)).

    See Also
    --------
    router_scores, gate_probabilities

    Examples
    --------
    >>> Router("perturbed", tau1=1.0, tau2=1.0).kind
    'perturbed'
    >>> Router("sigmoid")
    Traceback (most recent call last):
    ...
    ValueError: router kind must be one of ('linear', 'cosine', 'perturbed'), got 'sigmoid'
    """

    kind: str = "perturbed"
    tau1: float = 1.0
    tau2: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in ROUTERS:
            raise ValueError(f"router kind must be one of {ROUTERS}, got {self.kind!r}")
        for name in ("tau1", "tau2"):
            value = getattr(self, name)
            if not np.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")

    def token_features(self, x: np.ndarray) -> np.ndarray:
        r"""The token features :math:`\tilde x` of the router score.

        The score is :math:`c(\|\beta_1\|) \beta_1^\top \tilde x`, and :math:`\tilde x` is
        :math:`x`, :math:`x / \|x\|` or :math:`x / (\|x\| + \tau_2)`.
        """
        if self.kind == "linear":
            return x
        norm = np.linalg.norm(x, axis=-1, keepdims=True)
        if self.kind == "cosine":
            if np.any(norm == 0):
                raise ValueError("x must be non-zero for the cosine router (||x|| = 0)")
            return x / norm
        if self.tau2 == 0 and np.any(norm == 0):
            raise ValueError("x must be non-zero when tau2 = 0 (||x|| = 0)")
        return x / (norm + self.tau2)

    def scale(self, beta1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``c(||beta1||)`` and ``c'(||beta1||) / ||beta1||`` for each atom (shape (k,))."""
        norm = np.linalg.norm(beta1, axis=-1)
        if self.kind == "linear":
            return np.ones_like(norm), np.zeros_like(norm)
        denom = norm if self.kind == "cosine" else norm + self.tau1
        if np.any(denom == 0):
            raise ValueError("beta1 must be non-zero for the cosine router (||beta1|| = 0)")
        safe = np.where(norm > 0, norm, 1.0)
        return 1.0 / denom, np.where(norm > 0, -1.0 / (denom**2 * safe), 0.0)


@dataclass(frozen=True, eq=False)
class MixingMeasure:
    """``G = sum_i exp(beta0_i) delta_(beta1_i, eta_i)`` (seed 002, below eq. (2)).

    Parameters
    ----------
    beta0 : array_like of shape (k,)
        Gate biases (log-masses).
    beta1 : array_like of shape (k, d)
        Router parameters.
    eta : array_like of shape (k, d + 1)
        Expert parameters :math:`(a_i, b_i)` of :math:`h(x, \\eta_i) = h(a_i^\\top x + b_i)`.

    Raises
    ------
    ValueError
        On inconsistent shapes, ``k < 1`` or non-finite entries.

    Notes
    -----
    :math:`G = \\sum_{i=1}^k e^{\\beta_{0i}} \\delta_{(\\beta_{1i}, \\eta_i)}`; the regression
    function :math:`f_G` depends on it through the softmax, so the masses are defined up to a
    common factor and (cosine, perturbed) :math:`\\beta_1` up to the router's invariances.

    See Also
    --------
    regression_function, moetheory.estimation.voronoi.canonical_form

    Examples
    --------
    >>> G = MixingMeasure([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [[1, 0, 0], [0, 1, 0]])
    >>> G.k, G.d
    (2, 2)
    >>> MixingMeasure([0.0], [[1.0, 0.0]], [[1.0, 0.0]])
    Traceback (most recent call last):
    ...
    ValueError: eta must have shape (k, d + 1) = (1, 3), got (1, 2)
    """

    beta0: np.ndarray
    beta1: np.ndarray
    eta: np.ndarray

    def __post_init__(self) -> None:
        b0 = np.asarray(self.beta0, dtype=float)
        b1 = np.asarray(self.beta1, dtype=float)
        eta = np.asarray(self.eta, dtype=float)
        if b0.ndim != 1 or b0.size < 1:
            raise ValueError(f"beta0 must be a 1-D array of k >= 1 values, got shape {b0.shape}")
        k = b0.size
        if b1.ndim != 2 or b1.shape[0] != k or b1.shape[1] < 1:
            raise ValueError(f"beta1 must have shape (k, d) = ({k}, d >= 1), got {b1.shape}")
        if eta.shape != (k, b1.shape[1] + 1):
            raise ValueError(
                f"eta must have shape (k, d + 1) = ({k}, {b1.shape[1] + 1}), got {eta.shape}"
            )
        for name, arr in (("beta0", b0), ("beta1", b1), ("eta", eta)):
            if not np.all(np.isfinite(arr)):
                raise ValueError(f"{name} must be finite")
        object.__setattr__(self, "beta0", b0)
        object.__setattr__(self, "beta1", b1)
        object.__setattr__(self, "eta", eta)

    @property
    def k(self) -> int:
        """Number of atoms (experts)."""
        return int(self.beta0.size)

    @property
    def d(self) -> int:
        """Input dimension d1."""
        return int(self.beta1.shape[1])

    @property
    def weights(self) -> np.ndarray:
        """The masses ``exp(beta0_i)``."""
        return det_exp(self.beta0)

    def to_vector(self) -> np.ndarray:
        """All parameters stacked as ``[beta0, beta1.ravel(), eta.ravel()]``."""
        return np.concatenate([self.beta0, self.beta1.ravel(), self.eta.ravel()])

    @classmethod
    def from_vector(cls, theta: np.ndarray, k: int, d: int) -> MixingMeasure:
        """Inverse of :meth:`to_vector`.

        Examples
        --------
        >>> G = MixingMeasure([0.5], [[1.0, 2.0]], [[3.0, 4.0, 5.0]])
        >>> bool(np.all(MixingMeasure.from_vector(G.to_vector(), 1, 2).eta == G.eta))
        True
        """
        theta = np.asarray(theta, dtype=float)
        size = k * (1 + d + d + 1)
        if theta.shape != (size,):
            raise ValueError(f"theta must have shape ({size},) for k={k}, d={d}, got {theta.shape}")
        return cls(
            theta[:k], theta[k : k + k * d].reshape(k, d), theta[k + k * d :].reshape(k, d + 1)
        )


def _check_inputs(G: MixingMeasure, x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 2 or x.shape[1] != G.d:
        raise ValueError(f"x must have shape (n, d) with d = {G.d}, got {x.shape}")
    if x.shape[0] < 1:
        raise ValueError("x must hold n >= 1 inputs")
    if not np.all(np.isfinite(x)):
        raise ValueError("x must be finite")
    return x


def router_scores(G: MixingMeasure, x: np.ndarray, router: Router) -> np.ndarray:
    """Scores ``s(x_n, beta1_i) + beta0_i`` inside the softmax of eqs. (2)/(8); shape (n, k).

    Parameters
    ----------
    G : MixingMeasure
        The mixing measure.
    x : ndarray of shape (n, d)
        Inputs.
    router : Router
        The router.

    Returns
    -------
    ndarray of shape (n, k)
        The score of atom ``i`` on input ``x_n`` in row ``n``, column ``i``.

    Raises
    ------
    ValueError
        On inputs of the wrong shape, empty or non-finite, or a zero input / zero
        ``beta1`` where the router divides by its norm.

    Notes
    -----
    :math:`u_{ni} = c(\\|\\beta_{1i}\\|)\\,\\beta_{1i}^\\top \\tilde x_n + \\beta_{0i}`
    (see :class:`Router`).

    See Also
    --------
    gate_probabilities : their softmax.

    Examples
    --------
    >>> G = MixingMeasure([0.0, 1.0], [[2.0, 0.0], [0.0, 1.0]], np.zeros((2, 3)))
    >>> router_scores(G, np.array([[3.0, 0.0]]), Router("cosine")).tolist()
    [[1.0, 1.0]]
    """
    x = _check_inputs(G, x)
    c, _ = router.scale(G.beta1)
    return np.einsum("nd,kd->nk", router.token_features(x), G.beta1) * c + G.beta0


@fill_doc(_FAMILY_DOC)
def activation(z: np.ndarray, expert: str = "tanh") -> tuple[np.ndarray, np.ndarray]:
    """The activation ``sigma`` of the expert family and its derivative, at ``z``.

    The one place the package writes the experts' activations: the regression function,
    the least-squares objective and gradient and the batched fits all call it.

    Parameters
    ----------
    z : array_like
        Pre-activations :math:`a^\\top x + b`.
    expert : str
        Expert family, one of :data:`EXPERTS`.

    Returns
    -------
    h : ndarray
        ``sigma(z)``, the shape of ``z``.
    dh : ndarray
        ``sigma'(z)`` (for ``relu``, ``0`` at ``z = 0``).

    %(raises)s

    Notes
    -----
    * ``tanh``: :math:`\\sigma(z) = \\tanh z`, :math:`\\sigma'(z) = 1 - \\tanh^2 z`;
    * ``relu``: :math:`\\sigma(z) = \\max(z, 0)`, :math:`\\sigma'(z) = \\mathbb 1[z > 0]`;
    * ``gelu``: :math:`\\sigma(z) = z\\,\\Phi(z)`,
      :math:`\\sigma'(z) = \\Phi(z) + z\\,\\varphi(z)`;
    * ``poly2``: :math:`\\sigma(z) = z^2`, :math:`\\sigma'(z) = 2 z`;
    * ``linear``: :math:`\\sigma(z) = z`, :math:`\\sigma'(z) = 1`,

    with :math:`\\Phi` the standard normal distribution function and
    :math:`\\varphi(z) = e^{-z^2/2}/\\sqrt{2\\pi}` its density: the exact GELU of seed 002
    L58 and seed 000 L165 (not the ``tanh`` approximation).

    Every value is the same bits on every SIMD path and BLAS library (as
    :mod:`moetheory.estimation.batched` needs): ``+``, ``*``, ``maximum`` and comparisons are
    correctly rounded IEEE operations, ``tanh`` is
    :func:`~moetheory.estimation.detmath.det_tanh` (NumPy's ``tanh`` differs between the AVX2
    and the baseline SSE paths), :math:`\\varphi` uses
    :func:`~moetheory.estimation.detmath.det_exp` (NumPy's ``exp`` is not identical), and
    :math:`\\Phi` is :func:`scipy.special.ndtr`, SciPy's compiled scalar loop (Cephes
    ``erf``/``erfc``), which NumPy's CPU dispatch does not reach. Against mpmath on
    :math:`[-8, 8]` the relative error of GELU is at most about ``1.1e-14`` (near
    :math:`z = -8`: ``ndtr`` rounds :math:`z/\\sqrt 2` before ``erfc``, whose condition there
    is :math:`z^2`) and that of GELU', measured against :math:`\\Phi(z) + |z|\\varphi(z)` as
    it changes sign near :math:`z = -0.752`, about ``2e-15`` (``tests/test_estimation.py``).
    A hand-written :math:`\\Phi` from ``det_exp`` would also be free of the C library's
    ``exp`` that ``erfc`` calls, at the price of a second special-function implementation to
    validate. :math:`\\varphi` is taken as 0 beyond :math:`|z| = 40`, where it is below the
    smallest double anyway.

    See Also
    --------
    expert_output : :math:`\\sigma(a_i^\\top x_n + b_i)` for every input and atom.
    moetheory.symbolic.experts.ffn : the same experts as SymPy expressions.

    Examples
    --------
    >>> h, dh = activation(np.array([-1.0, 0.0, 2.0]), "relu")
    >>> h.tolist(), dh.tolist()
    ([0.0, 0.0, 2.0], [0.0, 0.0, 1.0])
    >>> h, dh = activation(np.array([0.0, 1.0]), "gelu")
    >>> np.round(h, 12).tolist(), np.round(dh, 12).tolist()
    ([0.0, 0.841344746069], [0.5, 1.083315470588])
    >>> activation(np.zeros(1), "sigmoid")
    Traceback (most recent call last):
    ...
    ValueError: expert must be one of ('tanh', 'relu', 'gelu', 'poly2', 'linear'), got 'sigmoid'
    """
    if expert not in EXPERTS:
        raise ValueError(f"expert must be one of {EXPERTS}, got {expert!r}")
    z = np.asarray(z, dtype=float)
    if expert == "tanh":
        h = det_tanh(z)
        return h, 1.0 - h * h
    if expert == "relu":
        return np.maximum(z, 0.0), (z > 0).astype(float)
    if expert == "gelu":
        from scipy.special import ndtr
        cdf = ndtr(z)
        zc = np.clip(z, -_PDF_CUTOFF, _PDF_CUTOFF)
        pdf = det_exp(-0.5 * zc * zc) * _INV_SQRT_2PI
        return z * cdf, cdf + z * pdf
    if expert == "poly2":
        return z * z, 2.0 * z
    return z, np.ones_like(z)


@fill_doc(_FAMILY_DOC)
def expert_output(eta: np.ndarray, x: np.ndarray, expert: str = "tanh") -> np.ndarray:
    """``h(x_n, eta_i)`` for every input and atom; shape (n, k).

    Parameters
    ----------
    eta : ndarray of shape (k, d + 1)
        Expert parameters ``(a_i, b_i)``.
    x : ndarray of shape (n, d)
        Inputs.
    expert : str
        Expert family, one of :data:`EXPERTS`.

    Returns
    -------
    ndarray of shape (n, k)
        ``h(x_n, eta_i)`` in row ``n``, column ``i``.

    %(raises)s

    Notes
    -----
    :math:`h(x, \\eta_i) = \\sigma(a_i^\\top x + b_i)` with :math:`\\sigma` the
    :func:`activation` of the family: ``tanh``, ReLU, GELU, :math:`z \\mapsto z^2` or the
    identity (the families the seeds name: 002 L58, L116; 000 L165).

    See Also
    --------
    regression_function, activation

    Examples
    --------
    >>> expert_output(np.array([[1.0, 0.0, 1.0]]), np.array([[2.0, 5.0]]), "poly2").tolist()
    [[9.0]]
    """
    if expert not in EXPERTS:
        raise ValueError(f"expert must be one of {EXPERTS}, got {expert!r}")
    return activation(np.einsum("nd,kd->nk", x, eta[:, :-1]) + eta[:, -1], expert)[0]


def _top_k_mask(u: np.ndarray, top_k: int | None) -> np.ndarray:
    k = u.shape[1]
    if top_k is None:
        return u
    if not isinstance(top_k, int | np.integer) or not 1 <= top_k <= k:
        raise ValueError(f"top_k must be an integer in [1, k] = [1, {k}], got {top_k!r}")
    keep = np.argsort(-u, axis=1, kind="stable")[:, :top_k]
    masked = np.full_like(u, -np.inf)
    np.put_along_axis(masked, keep, np.take_along_axis(u, keep, axis=1), axis=1)
    return masked


def gate_probabilities(
    G: MixingMeasure, x: np.ndarray, router: Router, top_k: int | None = None
) -> np.ndarray:
    """Softmax gate of eqs. (2)/(8) (Top-K sparse when ``top_k`` is given); shape (n, k).

    Ties in the Top-K selection are broken towards the lower expert index.

    Parameters
    ----------
    G, x, router
        As in :func:`router_scores`.
    top_k : int, optional
        Keep only the ``top_k`` largest scores per input (Top-K sparse gating).

    Returns
    -------
    ndarray of shape (n, k)
        Rows sum to 1; zero outside the Top-K set.

    Raises
    ------
    ValueError
        On bad inputs (see :func:`router_scores`) or ``top_k`` outside ``[1, k]``.

    Notes
    -----
    :math:`\\pi_i(x) = e^{u_i} / \\sum_{j \\in T(x)} e^{u_j}` for :math:`i \\in T(x)`, the
    ``top_k`` largest scores (all of them without ``top_k``), with
    :func:`~moetheory.estimation.detmath.det_exp`.

    See Also
    --------
    router_scores, regression_function

    Examples
    --------
    >>> G = MixingMeasure([0.0, 0.0], [[1.0, 0.0], [-1.0, 0.0]], np.zeros((2, 3)))
    >>> gate_probabilities(G, np.array([[1.0, 0.0]]), Router("linear"), top_k=1).tolist()
    [[1.0, 0.0]]
    """
    u = _top_k_mask(router_scores(G, x, router), top_k)
    u = u - u.max(axis=1, keepdims=True)
    e = det_exp(u)
    return e / e.sum(axis=1, keepdims=True)


def regression_function(
    G: MixingMeasure,
    x: np.ndarray,
    router: Router,
    expert: str = "tanh",
    top_k: int | None = None,
) -> np.ndarray:
    """The MoE regression function :math:`f_G` (eq. 2), :math:`g_G` (eq. 8) or the linear router's.

    Parameters
    ----------
    G, x
        As in :func:`router_scores`.
    router : Router
        Which score the softmax uses.
    expert : str
        Expert family, one of :data:`EXPERTS`.
    top_k : int, optional
        Keep only the ``top_k`` largest scores (Top-K sparse MoE).

    Returns
    -------
    ndarray of shape (n,)

    Raises
    ------
    ValueError
        On bad inputs, an unknown expert family or a bad ``top_k``.

    Notes
    -----
    :math:`f_G(x) = \\sum_i \\pi_i(x)\\, h(x, \\eta_i)` with the gate of
    :func:`gate_probabilities`.

    See Also
    --------
    gate_probabilities, expert_output, moetheory.estimation.batched.model_batch

    Examples
    --------
    >>> G = MixingMeasure([0.0, 0.0], [[1.0, 0.0], [-1.0, 0.0]], [[0, 0, 1.0], [0, 0, -1.0]])
    >>> f = regression_function(G, np.array([[1.0, 0.0], [0.0, 1.0]]), Router("linear"), "linear")
    >>> np.round(f, 4).tolist()
    [0.7616, 0.0]
    """
    x = _check_inputs(G, x)
    return np.sum(gate_probabilities(G, x, router, top_k) * expert_output(G.eta, x, expert), axis=1)
