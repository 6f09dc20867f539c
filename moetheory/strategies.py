"""Hypothesis strategies for the objects of MoE theory.

Public composite strategies for property tests, used by the package's own tests and meant
for yours: router parameters :math:`(\\beta_1, \\tau_1, \\tau_2)` of the (perturbed) cosine
router (eq. 2 of the perturbed-cosine-router paper), inputs :math:`x` away from or near
zero, expert parameters :math:`(a, b)` of :math:`h(x, (a, b)) = \\varphi(a^\\top x + b)`,
mixing measures :math:`G = \\sum_{i=1}^k \\exp(\\beta_{0i})\\,\\delta_{(\\beta_{1i}, a_i, b_i)}`
with ``k`` distinct atoms (eq. 3), and continual-learning settings of Algorithm 1.

Every strategy checks its arguments when called (not when drawn) and raises ``ValueError``
naming the parameter, the allowed range and a fix. Vectors are NumPy ``float64`` arrays with
finite entries.

Examples
--------
>>> from hypothesis import given, settings
>>> @settings(max_examples=20, derandomize=True, database=None)
... @given(router_params(d1=3))
... def test_shapes(p):
...     assert p.beta1.shape == (3,) and p.tau1 > 0 and p.tau2 > 0
>>> test_shapes()
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

__all__ = [
    "CLSettings",
    "ExpertParams",
    "MixingMeasure",
    "RouterParams",
    "cl_settings",
    "dimensions",
    "expert_params",
    "inputs",
    "mixing_measures",
    "router_params",
    "vectors",
]

_MAX_DIM = 64


@dataclass(frozen=True)
class RouterParams:
    """Router parameters of the perturbed cosine router (eq. 2).

    The score is :math:`s = \\beta_1^\\top x / ((\\|\\beta_1\\| + \\tau_1)(\\|x\\| + \\tau_2))`;
    with ``tau1 == tau2 == 0`` this is the cosine router.
    """

    beta1: np.ndarray
    tau1: float
    tau2: float


@dataclass(frozen=True)
class ExpertParams:
    """Expert parameters :math:`\\eta = (a, b)`.

    The expert is :math:`h(x, \\eta) = \\varphi(a^\\top x + b)`.
    """

    a: np.ndarray
    b: float


@dataclass(frozen=True)
class MixingMeasure:
    """:math:`G = \\sum_{i=1}^k \\exp(\\beta_{0i})\\,\\delta_{(\\beta_{1i}, a_i, b_i)}` (eq. 3).

    Attributes
    ----------
    beta0 : ndarray, shape (k,)
        Log-weights of the atoms.
    beta1 : ndarray, shape (k, d1)
        Router parameters of the atoms.
    a : ndarray, shape (k, d1)
        Expert slopes.
    b : ndarray, shape (k,)
        Expert biases.
    """

    beta0: np.ndarray
    beta1: np.ndarray
    a: np.ndarray
    b: np.ndarray

    @property
    def k(self) -> int:
        """Number of atoms."""
        return int(self.beta0.shape[0])

    @property
    def weights(self) -> np.ndarray:
        """Weights :math:`\\exp(\\beta_{0i})`."""
        return np.exp(self.beta0)

    @property
    def atoms(self) -> np.ndarray:
        """Atoms as rows :math:`(\\beta_{1i}, a_i, b_i)`, shape ``(k, 2 d1 + 1)``."""
        return np.column_stack([self.beta1, self.a, self.b])


@dataclass(frozen=True)
class CLSettings:
    """A setting of Algorithm 1 (continual learning with M experts, seed 003, Section 3).

    The field names are those of :class:`moetheory.continual.CLConfig`, so
    ``CLConfig(**settings.as_dict())`` builds the simulator's configuration.

    Attributes
    ----------
    M, N, K, T : int
        Experts, ground-truth task models in the pool, task clusters (``K <= N``), rounds.
    d, s : int
        Feature dimension and samples per task (over-parameterised: ``s < d``).
    sigma0 : float
        Ground-truth scale :math:`\\sigma_0 > 0` (Definition 1).
    sigma_t : float
        Noise level :math:`\\sigma_t \\ge 0` of the non-signal samples (Definition 1).
    eta : float
        Learning rate :math:`\\eta > 0` of the gating-network update (eq. 9).
    alpha : float
        Weight :math:`\\alpha \\ge 0` of the auxiliary load-balancing loss (eq. 7).
    lam : float
        Routing noise bound :math:`\\lambda > 0`, :math:`r_m \\sim U[0, \\lambda]` (eq. 1).
    gamma : float
        Termination threshold :math:`\\Gamma > 0` of Algorithm 1.
    """

    M: int
    N: int
    K: int
    T: int
    d: int
    s: int
    sigma0: float
    sigma_t: float
    eta: float
    alpha: float
    lam: float
    gamma: float

    def as_dict(self) -> dict[str, Any]:
        """The setting as keyword arguments of ``CLConfig``."""
        return asdict(self)


def _check_int(name: str, value: Any, low: int, high: int, fix: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(
            f"{name} must be an integer in [{low}, {high}], got {value!r}; pass e.g. {low}"
        )
    if not low <= value <= high:
        hint = fix or f"pass a value between {low} and {high}"
        raise ValueError(f"{name} must lie in [{low}, {high}], got {value}; {hint}")
    return int(value)


def _check_float(name: str, value: Any, low: float, high: float, fix: str = "") -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a finite number in [{low:g}, {high:g}], got {value!r}"
        ) from None
    if not math.isfinite(x) or not low <= x <= high:
        hint = fix or f"pass a finite value between {low:g} and {high:g}"
        raise ValueError(f"{name} must lie in [{low:g}, {high:g}], got {value!r}; {hint}")
    return x


def _check_range(name: str, low: float, high: float) -> None:
    if low > high:
        raise ValueError(f"min_{name} must be <= max_{name}, got {low:g} > {high:g}; swap them")


def dimensions(min_dim: int = 1, max_dim: int = 6) -> st.SearchStrategy[int]:
    """Input dimensions :math:`d_1` in ``[min_dim, max_dim]``.

    Examples
    --------
    >>> from hypothesis import find
    >>> find(dimensions(2, 5), lambda d: d > 3)
    4
    """
    lo = _check_int("min_dim", min_dim, 1, _MAX_DIM, "use a dimension d1 >= 1")
    hi = _check_int("max_dim", max_dim, 1, _MAX_DIM, f"keep d1 <= {_MAX_DIM} for fast tests")
    _check_range("dim", lo, hi)
    return st.integers(lo, hi)


@st.composite
def _vector(
    draw: st.DrawFn, d: int, min_norm: float, max_norm: float, allow_zero: bool
) -> np.ndarray:
    direction = np.array(draw(st.lists(st.floats(-1.0, 1.0), min_size=d, max_size=d)), dtype=float)
    norm = float(np.linalg.norm(direction))
    if norm < 1e-3:
        if allow_zero and min_norm == 0.0:
            return np.zeros(d)
        direction = np.eye(d)[draw(st.integers(0, d - 1))]
        norm = 1.0
    radius = draw(st.floats(min_norm, max_norm))
    return direction / norm * radius


def vectors(
    d: int, *, min_norm: float = 0.1, max_norm: float = 10.0
) -> st.SearchStrategy[np.ndarray]:
    """Vectors of :math:`\\mathbb{R}^d` with Euclidean norm in ``[min_norm, max_norm]``.

    Parameters
    ----------
    d : int
        Dimension, ``1 <= d <= 64``.
    min_norm, max_norm : float
        Bounds of the norm, ``0 <= min_norm <= max_norm <= 1e6``. With ``min_norm == 0``
        the zero vector may be drawn.

    Examples
    --------
    >>> import numpy as np
    >>> from hypothesis import find
    >>> v = find(vectors(4, min_norm=1.0, max_norm=2.0), lambda v: v[0] > 0.5)
    >>> bool(1.0 - 1e-12 <= np.linalg.norm(v) <= 2.0 + 1e-12)
    True
    """
    dim = _check_int("d", d, 1, _MAX_DIM, "use a dimension d >= 1")
    lo = _check_float("min_norm", min_norm, 0.0, 1e6, "norms are non-negative")
    hi = _check_float("max_norm", max_norm, 0.0, 1e6, "keep norms <= 1e6 to stay finite")
    _check_range("norm", lo, hi)
    return _vector(dim, lo, hi, allow_zero=True)


def inputs(
    d1: int, *, near_zero: bool = False, radius: float = 1e-3, max_norm: float = 10.0
) -> st.SearchStrategy[np.ndarray]:
    """Inputs :math:`x \\in \\mathbb{R}^{d_1}` away from zero, or near (never at) zero.

    Parameters
    ----------
    d1 : int
        Input dimension, ``1 <= d1 <= 64``.
    near_zero : bool
        False: :math:`\\|x\\| \\in [\\text{radius}, \\text{max\\_norm}]`;
        True: :math:`\\|x\\| \\in [\\text{radius}^2, \\text{radius}]`, to probe the cosine
        router's singularity at :math:`x = 0` (``pcr.stability.near-zero``).
    radius : float
        The boundary between "near" and "away", ``0 < radius < 1``.
    max_norm : float
        Largest norm drawn away from zero, ``radius <= max_norm <= 1e6``.

    Examples
    --------
    >>> import numpy as np
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20, derandomize=True, database=None)
    ... @given(inputs(3, near_zero=True, radius=1e-2))
    ... def test_near(x):
    ...     assert 0 < np.linalg.norm(x) <= 1e-2 + 1e-15
    >>> test_near()
    """
    dim = _check_int("d1", d1, 1, _MAX_DIM, "use an input dimension d1 >= 1")
    r = _check_float("radius", radius, 0.0, 1.0, "pick radius in (0, 1), e.g. 1e-3")
    if r in (0.0, 1.0):
        raise ValueError(f"radius must lie strictly in (0, 1), got {radius!r}; e.g. 1e-3")
    top = _check_float("max_norm", max_norm, r, 1e6, f"use max_norm >= radius = {r:g}")
    if near_zero:
        return _vector(dim, r * r, r, allow_zero=False)
    return _vector(dim, r, top, allow_zero=False)


def router_params(
    d1: int | None = None,
    *,
    min_tau: float = 0.01,
    max_tau: float = 2.0,
    cosine: bool = False,
    min_norm: float = 0.1,
    max_norm: float = 10.0,
) -> st.SearchStrategy[RouterParams]:
    """Router parameters :math:`(\\beta_1, \\tau_1, \\tau_2)` of the perturbed cosine router.

    Parameters
    ----------
    d1 : int, optional
        Input dimension; drawn from ``[1, 6]`` when omitted.
    min_tau, max_tau : float
        Range of the perturbations, ``0 < min_tau <= max_tau <= 100``.
    cosine : bool
        True draws the plain cosine router, :math:`\\tau_1 = \\tau_2 = 0`.
    min_norm, max_norm : float
        Range of :math:`\\|\\beta_1\\|` (``0 < min_norm``: the cosine router needs
        :math:`\\beta_1 \\ne 0`).

    Examples
    --------
    >>> from hypothesis import find
    >>> p = find(router_params(d1=2, cosine=True), lambda p: True)
    >>> p.beta1.shape, p.tau1, p.tau2
    ((2,), 0.0, 0.0)
    >>> router_params(min_tau=-1.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: min_tau must lie in [1e-12, 100], got -1.0; ... use cosine=True ...
    """
    lo = _check_float(
        "min_tau",
        min_tau,
        1e-12,
        100.0,
        "the perturbations are positive: use cosine=True for tau1 = tau2 = 0",
    )
    hi = _check_float("max_tau", max_tau, 1e-12, 100.0, "keep tau <= 100")
    _check_range("tau", lo, hi)
    nlo = _check_float("min_norm", min_norm, 1e-12, 1e6, "beta1 must be non-zero")
    nhi = _check_float("max_norm", max_norm, 1e-12, 1e6, "keep norms <= 1e6")
    _check_range("norm", nlo, nhi)
    dims = dimensions() if d1 is None else st.just(_check_int("d1", d1, 1, _MAX_DIM))
    return _router_params(dims, lo, hi, bool(cosine), nlo, nhi)


@st.composite
def _router_params(
    draw: st.DrawFn,
    dims: st.SearchStrategy[int],
    lo: float,
    hi: float,
    cosine: bool,
    nlo: float,
    nhi: float,
) -> RouterParams:
    beta1 = draw(_vector(draw(dims), nlo, nhi, allow_zero=False))
    if cosine:
        return RouterParams(beta1, 0.0, 0.0)
    return RouterParams(beta1, draw(st.floats(lo, hi)), draw(st.floats(lo, hi)))


def expert_params(
    d1: int | None = None, *, max_abs: float = 5.0
) -> st.SearchStrategy[ExpertParams]:
    """Expert parameters :math:`(a, b)`, :math:`a \\ne 0`, entries in ``[-max_abs, max_abs]``.

    Parameters
    ----------
    d1 : int, optional
        Input dimension; drawn from ``[1, 6]`` when omitted.
    max_abs : float
        Bound of the entries, ``0 < max_abs <= 1e3``.

    Examples
    --------
    >>> from hypothesis import find
    >>> e = find(expert_params(d1=3), lambda e: e.b > 1.0)
    >>> e.a.shape, bool(1.0 < e.b <= 5.0)
    ((3,), True)
    """
    bound = _check_float("max_abs", max_abs, 1e-6, 1e3, "use a positive bound such as 5")
    dims = dimensions() if d1 is None else st.just(_check_int("d1", d1, 1, _MAX_DIM))
    return _expert_params(dims, bound)


@st.composite
def _expert_params(draw: st.DrawFn, dims: st.SearchStrategy[int], bound: float) -> ExpertParams:
    a = draw(_vector(draw(dims), min(0.1, bound), bound, allow_zero=False))
    return ExpertParams(a, draw(st.floats(-bound, bound)))


def mixing_measures(
    k: int,
    d1: int | None = None,
    *,
    min_separation: float = 0.1,
    max_abs: float = 3.0,
    zero_last_beta0: bool = True,
) -> st.SearchStrategy[MixingMeasure]:
    """Mixing measures with exactly ``k`` distinct atoms (eq. 3).

    Parameters
    ----------
    k : int
        Number of atoms (experts), ``1 <= k <= 8``.
    d1 : int, optional
        Input dimension; drawn from ``[1, 4]`` when omitted.
    min_separation : float
        Smallest Euclidean distance between two atoms :math:`(\\beta_{1i}, a_i, b_i)`,
        ``0 < min_separation <= max_abs``.
    max_abs : float
        Bound of every parameter, ``0 < max_abs <= 100``.
    zero_last_beta0 : bool
        Fix :math:`\\beta_{0k} = 0` and :math:`\\beta_{1k} = 0`, the identifiability
        convention (A.3) that removes the softmax's translation invariance.

    Examples
    --------
    >>> from hypothesis import find
    >>> G = find(mixing_measures(3, d1=2), lambda G: True)
    >>> G.k, G.atoms.shape, float(G.beta0[-1])
    (3, (3, 5), 0.0)
    >>> mixing_measures(0)
    Traceback (most recent call last):
    ...
    ValueError: k must lie in [1, 8], got 0; a mixing measure needs at least one atom
    """
    atoms_k = _check_int("k", k, 1, 8, "a mixing measure needs at least one atom")
    bound = _check_float("max_abs", max_abs, 1e-6, 100.0, "use a positive bound such as 3")
    sep = _check_float(
        "min_separation",
        min_separation,
        1e-9,
        bound,
        f"distinct atoms need a positive separation <= max_abs = {bound:g}",
    )
    dims = dimensions(1, 4) if d1 is None else st.just(_check_int("d1", d1, 1, _MAX_DIM))
    return _mixing_measures(atoms_k, dims, sep, bound, bool(zero_last_beta0))


@st.composite
def _mixing_measures(
    draw: st.DrawFn,
    atoms_k: int,
    dims: st.SearchStrategy[int],
    sep: float,
    bound: float,
    zero_last_beta0: bool,
) -> MixingMeasure:
    dim = draw(dims)
    coord = st.floats(-bound, bound)
    rows: list[np.ndarray] = []
    for i in range(atoms_k):
        last = zero_last_beta0 and i == atoms_k - 1
        beta1 = (
            np.zeros(dim) if last else np.array(draw(st.lists(coord, min_size=dim, max_size=dim)))
        )
        rest = np.array(draw(st.lists(coord, min_size=dim + 1, max_size=dim + 1)))
        row = np.concatenate([beta1, rest])
        assume(all(np.linalg.norm(row - other) >= sep for other in rows))
        rows.append(row)
    atoms = np.array(rows)
    beta0 = np.array(draw(st.lists(coord, min_size=atoms_k, max_size=atoms_k)))
    if zero_last_beta0:
        beta0[-1] = 0.0
    return MixingMeasure(beta0, atoms[:, :dim], atoms[:, dim : 2 * dim], atoms[:, 2 * dim])


def cl_settings(
    *,
    max_experts: int = 8,
    max_tasks: int = 4,
    max_rounds: int = 200,
    max_dim: int = 20,
    experts_exceed_tasks: bool | None = None,
) -> st.SearchStrategy[CLSettings]:
    """Settings of Algorithm 1 (see :class:`CLSettings` for the meaning of each field).

    Parameters
    ----------
    max_experts : int
        Largest number of experts M, ``1 <= max_experts <= 64``.
    max_tasks : int
        Largest number of ground-truth models N, ``1 <= max_tasks <= 64``.
    max_rounds : int
        Largest number of rounds T, ``2 <= max_rounds <= 100000``.
    max_dim : int
        Largest dimension d, ``3 <= max_dim <= 64`` (so that ``1 <= s < d``).
    experts_exceed_tasks : bool, optional
        True: only ``M > N`` (Theorem 1's case); False: only ``M < N`` (Theorem 2);
        None: any.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None)
    ... @given(cl_settings(experts_exceed_tasks=True))
    ... def test_regime(c):
    ...     assert c.M > c.N >= 1 and 1 <= c.s < c.d
    >>> test_regime()
    >>> cl_settings(max_experts=1, experts_exceed_tasks=True)
    Traceback (most recent call last):
    ...
    ValueError: max_experts must be >= 2 when experts_exceed_tasks=True (M > N >= 1), got 1
    """
    m_hi = _check_int("max_experts", max_experts, 1, 64)
    n_hi = _check_int("max_tasks", max_tasks, 1, 64)
    t_hi = _check_int("max_rounds", max_rounds, 2, 100_000)
    d_hi = _check_int("max_dim", max_dim, 3, _MAX_DIM, "need d >= 3 so that 1 <= s < d")
    if experts_exceed_tasks is True and m_hi < 2:
        raise ValueError(
            f"max_experts must be >= 2 when experts_exceed_tasks=True (M > N >= 1), got {m_hi}"
        )
    if experts_exceed_tasks is False and n_hi < 2:
        raise ValueError(
            f"max_tasks must be >= 2 when experts_exceed_tasks=False (N > M >= 1), got {n_hi}"
        )
    return _cl_settings(m_hi, n_hi, t_hi, d_hi, experts_exceed_tasks)


@st.composite
def _cl_settings(
    draw: st.DrawFn,
    m_hi: int,
    n_hi: int,
    t_hi: int,
    d_hi: int,
    experts_exceed_tasks: bool | None,
) -> CLSettings:
    if experts_exceed_tasks is True:
        n = draw(st.integers(1, min(n_hi, m_hi - 1)))
        m = draw(st.integers(n + 1, m_hi))
    elif experts_exceed_tasks is False:
        m = draw(st.integers(1, min(m_hi, n_hi - 1)))
        n = draw(st.integers(m + 1, n_hi))
    else:
        m, n = draw(st.integers(1, m_hi)), draw(st.integers(1, n_hi))
    d = draw(st.integers(3, d_hi))
    lam = draw(st.floats(0.05, 1.0))
    return CLSettings(
        M=m,
        N=n,
        K=draw(st.integers(1, n)),
        T=draw(st.integers(2, t_hi)),
        d=d,
        s=draw(st.integers(1, d - 1)),
        sigma0=draw(st.floats(0.01, 1.0)),
        sigma_t=draw(st.floats(0.0, 1.0)),
        eta=draw(st.floats(0.01, 1.0)),
        alpha=draw(st.floats(0.0, 1.0)),
        lam=lam,
        gamma=draw(st.floats(0.01 * lam, 2.0 * lam)),
    )
