r"""Hypothesis strategies for the objects of MoE theory.

Public strategies for property tests, used by the package's own tests and meant for yours:
router parameters :math:`(\beta_1, \tau_1, \tau_2)` of the (perturbed) cosine router
(eqs. (2) and (8) of Nguyen et al. 2025 [1]_), inputs :math:`x` away from or near zero,
expert parameters :math:`\eta = (a, b)` of :math:`h(x, \eta) = \varphi(a^\top x + b)`,
mixing measures :math:`G = \sum_{i=1}^k \exp(\beta_{0i})\,\delta_{(\beta_{1i}, \eta_i)}`
(defined after eq. (2)) and settings of Algorithm 1 of Li et al. (2025) [2]_.

They follow Hypothesis's own conventions:

* **arguments may be strategies**: pass ``d1=st.shared(dimensions(), key="d1")`` to several
  strategies and their dimensions match;
* **invalid arguments raise** :class:`hypothesis.errors.InvalidArgument` **lazily**, when the
  strategy is first drawn from, naming the parameter and the allowed range;
* **reprs mirror the call**, e.g. ``mixing_measures(k=3, d1=2)``;
* **construct, don't reject**: every draw satisfies its constraints by construction, so tight
  but feasible arguments never trip a health check;
* **bounds hold exactly**: a norm bound holds for the real norm of the drawn floats, not
  only up to rounding;
* **types resolve**: importing this module registers a strategy for each public value type
  (:data:`TYPE_STRATEGIES`), so ``st.from_type(RouterParams)`` and ``@given(p=...)``
  inference draw valid values.

Vectors are NumPy ``float64`` arrays with finite entries. Mixing measures are
:class:`moetheory.estimation.models.MixingMeasure`, the type the estimation code fits.

References
----------
.. [1] H. Nguyen, P. Akbarian, T. Pham, T. Nguyen, S. Zhang, N. Ho, "Statistical Advantages
   of Perturbing Cosine Router in Mixture of Experts", ICLR 2025, arXiv:2405.14131.
.. [2] H. Li, S. Lin, L. Duan, Y. Liang, N. B. Shroff, "Theory on Mixture-of-Experts in
   Continual Learning", ICLR 2025, arXiv:2406.16437.

Examples
--------
>>> from hypothesis import given, settings
>>> @settings(max_examples=5, derandomize=True, database=None)
... @given(router_params(d1=3))
... def test_shapes(p):
...     assert p.beta1.shape == (3,) and p.tau1 > 0 and p.tau2 > 0
>>> test_shapes()
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from moetheory._doccer import fill_doc
from moetheory.estimation.models import MixingMeasure
from moetheory.symbolic._docs import REFERENCES

__all__ = [
    "TYPE_STRATEGIES",
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
_MAX_ATOMS = 8
#: Relative slack kept between constructed atoms, so rounding never breaks a separation.
_SLACK = 1e-9
#: Relative margin kept inside a norm range: scaling a direction rounds by a few ulps only.
_MARGIN = 1e-12

#: The docstring parts the strategies and their value types share
#: (:func:`moetheory._doccer.fill_doc`): the References section citing [1], the Raises
#: sections of the value types and of the strategies (each docstring ends the sentence), the
#: optional ``d1`` parameter and the start of the examples that record a few draws.
_DOC: dict[str, str] = {
    **REFERENCES,
    "raises_type": """Raises
------
TypeError
    If a field is missing (the dataclass constructor); values are not validated here,""",
    "raises_invalid": """Raises
------
hypothesis.errors.InvalidArgument
    When drawn from, if an argument is out of range""",
    "d1_optional": """d1 : int or SearchStrategy[int], optional
    Input dimension; drawn from :func:`dimensions` when omitted.""",
    "record_draws": """>>> from hypothesis import given, settings
>>> seen = []
>>> @settings(max_examples=3, derandomize=True, database=None)""",
}


@dataclass(frozen=True)
@fill_doc(_DOC)
class RouterParams:
    r"""Router parameters of the perturbed cosine router (eq. (8) of [1]_).

    The score is :math:`s = \beta_1^\top x / ((\|\beta_1\| + \tau_1)(\|x\| + \tau_2))`;
    with ``tau1 == tau2 == 0`` this is the cosine router.

    Parameters
    ----------
    beta1 : ndarray, shape (d1,)
        The expert embedding :math:`\beta_1 \ne 0`.
    tau1, tau2 : float
        The perturbations :math:`\tau_1, \tau_2 \ge 0` of the two norms.

    %(raises_type)s
        :func:`router_params` draws valid ones.

    See Also
    --------
    router_params : the strategy drawing them.
    moetheory.symbolic.routers.perturbed_cosine_score : the score they parameterise.

    Notes
    -----
    Frozen. ``beta1`` is a NumPy array, so ``==`` between two instances holding distinct
    arrays raises ``ValueError`` (ambiguous truth value) when ``d1 > 1``: compare the
    fields, e.g. with :func:`numpy.array_equal`.

    References
    ----------
    .. [1] Nguyen et al., ICLR 2025, arXiv:2405.14131.

    Examples
    --------
    >>> p = RouterParams(np.array([3.0, 4.0]), 1.0, 1.0)
    >>> from moetheory.symbolic.routers import perturbed_cosine_score
    >>> perturbed_cosine_score(p.beta1, [1.0, 0.0], p.tau1, p.tau2)
    0.25
    """

    beta1: np.ndarray
    tau1: float
    tau2: float


@dataclass(frozen=True)
@fill_doc(_DOC)
class ExpertParams:
    r"""Expert parameters :math:`\eta = (a, b)` of :math:`h(x, \eta) = \varphi(a^\top x + b)`.

    Parameters
    ----------
    a : ndarray, shape (d1,)
        Slope, :math:`a \ne 0`.
    b : float
        Bias.

    %(raises_type)s
        :func:`expert_params` draws valid ones.

    See Also
    --------
    expert_params : the strategy drawing them.
    moetheory.symbolic.experts.ffn : the FFN expert :math:`\varphi(a x + b)` (scalar input).

    Notes
    -----
    The FFN experts of the Example after Definition 1 of [1]_. :attr:`eta` gives the row
    :math:`(a, b)` of the ``eta`` array of :class:`MixingMeasure`.

    %(references)s

    Examples
    --------
    >>> ExpertParams(np.array([1.0, -2.0]), 0.5).eta.tolist()
    [1.0, -2.0, 0.5]
    """

    a: np.ndarray
    b: float

    @property
    def eta(self) -> np.ndarray:
        """The parameters as one row ``[a, b]``, as :class:`MixingMeasure` stores them.

        Returns
        -------
        ndarray, shape (d1 + 1,)
            ``a`` followed by ``b``.

        Examples
        --------
        >>> ExpertParams(np.array([2.0]), -1.0).eta.tolist()
        [2.0, -1.0]
        """
        return np.append(self.a, self.b)


@dataclass(frozen=True)
@fill_doc(_DOC)
class CLSettings:
    r"""A setting of Algorithm 1 (continual learning with M experts, Section 3 of [2]_).

    The field names are those of :class:`moetheory.continual.CLConfig`, so
    ``CLConfig(**settings.as_dict())`` builds the simulator's configuration.

    Parameters
    ----------
    M, N, K, T : int
        Experts, ground-truth task models in the pool, task clusters (``K <= N``), rounds.
    d, s : int
        Feature dimension and samples per task (over-parameterised: ``s < d``).
    sigma0 : float
        Ground-truth scale :math:`\sigma_0 > 0` (Definition 1).
    sigma_t : float
        Noise level :math:`\sigma_t \ge 0` of the non-signal samples (Definition 1).
    eta : float
        Learning rate :math:`\eta > 0` of the gating-network update (eq. 9).
    alpha : float
        Weight :math:`\alpha \ge 0` of the auxiliary load-balancing loss (eq. 7).
    lam : float
        Routing noise bound :math:`\lambda > 0`, :math:`r_m \sim U[0, \lambda]` (eq. 1).
    gamma : float
        Termination threshold :math:`\Gamma > 0` of Algorithm 1.

    %(raises_type)s
        ``CLConfig`` validates them.

    See Also
    --------
    cl_settings : the strategy drawing them.
    moetheory.continual.config.CLConfig : the simulator's configuration.

    Notes
    -----
    Only the parameters that Algorithm 1 of [2]_ states; the reading options of
    ``CLConfig`` keep their defaults.

    References
    ----------
    .. [2] Li et al., ICLR 2025, arXiv:2406.16437.

    Examples
    --------
    >>> from moetheory.continual import CLConfig
    >>> c = CLSettings(M=3, N=2, K=1, T=10, d=5, s=2, sigma0=0.4, sigma_t=0.1, eta=0.5,
    ...                alpha=0.5, lam=0.3, gamma=0.2)
    >>> CLConfig(**c.as_dict()).T1
    6
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
        """The setting as keyword arguments of ``CLConfig``.

        Returns
        -------
        dict of str to int or float
            One entry per field, named as the fields of
            :class:`~moetheory.continual.config.CLConfig`.

        Examples
        --------
        >>> c = CLSettings(M=3, N=2, K=1, T=10, d=5, s=2, sigma0=0.4, sigma_t=0.1, eta=0.5,
        ...                alpha=0.5, lam=0.3, gamma=0.2)
        >>> sorted(c.as_dict())[:3]
        ['K', 'M', 'N']
        """
        return asdict(self)


# -- argument checks (raised when the strategy is drawn from, as Hypothesis does) ------


def _int(name: str, value: Any, low: int, high: int, fix: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise InvalidArgument(
            f"{name} must be an integer in [{low}, {high}] or a strategy of them, "
            f"got {value!r}; pass e.g. {low}"
        )
    if not low <= value <= high:
        hint = fix or f"pass a value between {low} and {high}"
        raise InvalidArgument(f"{name} must lie in [{low}, {high}], got {value}; {hint}")
    return int(value)


def _float(name: str, value: Any, low: float, high: float, fix: str = "") -> float:
    if isinstance(value, bool):
        value = "a bool"
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InvalidArgument(
            f"{name} must be a finite number in [{low:g}, {high:g}], got {value!r}"
        ) from None
    if not math.isfinite(x) or not low <= x <= high:
        hint = fix or f"pass a finite value between {low:g} and {high:g}"
        raise InvalidArgument(f"{name} must lie in [{low:g}, {high:g}], got {value!r}; {hint}")
    return x


def _ordered(name: str, low: float, high: float) -> None:
    if low > high:
        raise InvalidArgument(
            f"min_{name} must be <= max_{name}, got {low:g} > {high:g}; swap them"
        )


def _draw_int(
    draw: st.DrawFn, name: str, value: Any, low: int, high: int, fix: str = ""
) -> int:
    """An integer argument given as a value or as a strategy of values."""
    if isinstance(value, st.SearchStrategy):
        value = draw(value)
    return _int(name, value, low, high, fix)


def _norm_within(vec: np.ndarray, min_norm: float, max_norm: float) -> bool:
    """Whether ``min_norm <= ||vec|| <= max_norm`` holds for the exact norm of the floats
    (rational arithmetic) and for the norm NumPy computes."""
    squared = sum((Fraction(float(v)) ** 2 for v in vec), Fraction(0))
    if not Fraction(min_norm) ** 2 <= squared <= Fraction(max_norm) ** 2:
        return False
    return bool(min_norm <= np.linalg.norm(vec) <= max_norm)


def _direction_vector(draw: st.DrawFn, d: int, min_norm: float, max_norm: float) -> np.ndarray:
    """A vector with norm in ``[min_norm, max_norm]``, by construction (never rejected).

    The drawn radius is pulled a relative :data:`_MARGIN` inside the range, far more than
    the few ulps the scaling can round by; a vector that still misses the range (a range
    narrower than the margin) is replaced by the signed coordinate axis of its largest
    entry times the radius, whose norm is the radius exactly.
    """
    direction = np.array(draw(st.lists(st.floats(-1.0, 1.0), min_size=d, max_size=d)))
    norm = float(np.linalg.norm(direction))
    if norm < 1e-3:  # too short to normalise accurately: use a drawn coordinate axis
        direction, norm = np.eye(d)[draw(st.integers(0, d - 1))], 1.0
    radius = draw(st.floats(min_norm, max_norm))
    inner_low, inner_high = min_norm * (1 + _MARGIN), max_norm * (1 - _MARGIN)
    if inner_low <= inner_high:
        radius = min(max(radius, inner_low), inner_high)
    vec = direction / norm * radius
    if not _norm_within(vec, min_norm, max_norm):
        axis = int(np.argmax(np.abs(direction)))
        vec = np.zeros(d)
        vec[axis] = math.copysign(radius, float(direction[axis]))
    return vec


# -- public strategies ----------------------------------------------------------------


@st.composite
@fill_doc(_DOC)
def dimensions(draw: st.DrawFn, min_dim: int = 1, max_dim: int = 6) -> int:
    r"""Input dimensions :math:`d_1` in ``[min_dim, max_dim]``.

    Parameters
    ----------
    min_dim, max_dim : int
        Bounds, ``1 <= min_dim <= max_dim <= 64``.

    Returns
    -------
    SearchStrategy[int]
        Integers :math:`d_1`, shrinking towards ``min_dim``.

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When drawn from, if a bound is out of range or ``min_dim > max_dim``.

    Notes
    -----
    The upper bound 64 keeps property tests fast; the dimension-free results of
    :mod:`moetheory.symbolic.routers` hold for every :math:`d_1 \ge 1`, and small dimensions are
    where coordinate cross-checks are cheap.

    See Also
    --------
    vectors, inputs : strategies whose dimension may be this strategy.

    Examples
    --------
    %(record_draws)s
    ... @given(dimensions(2, 5))
    ... def record(d):
    ...     seen.append(2 <= d <= 5)
    >>> record()
    >>> seen[0]
    True
    >>> dimensions(4, 2)
    dimensions(min_dim=4, max_dim=2)
    """
    lo = _int("min_dim", min_dim, 1, _MAX_DIM, "use a dimension d1 >= 1")
    hi = _int("max_dim", max_dim, 1, _MAX_DIM, f"keep d1 <= {_MAX_DIM} for fast tests")
    _ordered("dim", lo, hi)
    return draw(st.integers(lo, hi))


@st.composite
@fill_doc(_DOC)
def vectors(
    draw: st.DrawFn,
    d: int | st.SearchStrategy[int],
    *,
    min_norm: float = 0.1,
    max_norm: float = 10.0,
) -> np.ndarray:
    r"""Vectors of :math:`\mathbb{R}^d` with Euclidean norm in ``[min_norm, max_norm]``.

    Parameters
    ----------
    d : int or SearchStrategy[int]
        Dimension, ``1 <= d <= 64``.
    min_norm, max_norm : float
        Bounds of the norm, ``0 <= min_norm <= max_norm <= 1e6``. With ``min_norm == 0``
        the zero vector may be drawn.

    Returns
    -------
    SearchStrategy[ndarray]
        Arrays of shape ``(d,)``: a uniform-ish direction scaled to a drawn radius.

    %(raises_invalid)s.

    See Also
    --------
    inputs : token inputs away from or near zero.
    dimensions : a strategy for ``d``.

    Notes
    -----
    A direction is drawn with coordinates in :math:`[-1, 1]` and normalised (a coordinate
    axis when it is shorter than :math:`10^{-3}`), then scaled to a drawn radius in
    ``[min_norm, max_norm]`` kept a relative :math:`10^{-12}` inside it, so the rounding of
    the scaling (a few ulps) cannot leave the range. The bounds hold exactly, for the real
    norm of the drawn floats (checked in rational arithmetic) as for
    :func:`numpy.linalg.norm`; when the range is narrower than the margin (e.g.
    ``min_norm == max_norm``) the vector is the radius times a signed coordinate axis, whose
    norm is exact. No draw is rejected.

    Examples
    --------
    >>> import numpy as np
    %(record_draws)s
    ... @given(vectors(4, min_norm=1.0, max_norm=2.0))
    ... def record(v):
    ...     seen.append((v.shape, bool(1.0 <= np.linalg.norm(v) <= 2.0)))
    >>> record()
    >>> seen[0]
    ((4,), True)
    """
    lo = _float("min_norm", min_norm, 0.0, 1e6, "norms are non-negative")
    hi = _float("max_norm", max_norm, 0.0, 1e6, "keep norms <= 1e6 to stay finite")
    _ordered("norm", lo, hi)
    dim = _draw_int(draw, "d", d, 1, _MAX_DIM, "use a dimension d >= 1")
    if lo == 0.0 and draw(st.booleans()) and draw(st.booleans()):
        return np.zeros(dim)
    return _direction_vector(draw, dim, lo, hi)


@st.composite
@fill_doc(_DOC)
def inputs(
    draw: st.DrawFn,
    d1: int | st.SearchStrategy[int],
    *,
    near_zero: bool = False,
    radius: float = 1e-3,
    max_norm: float = 10.0,
) -> np.ndarray:
    r"""Inputs :math:`x \in \mathbb{R}^{d_1}` away from zero, or near (never at) zero.

    Parameters
    ----------
    d1 : int or SearchStrategy[int]
        Input dimension, ``1 <= d1 <= 64``.
    near_zero : bool
        False: :math:`\|x\| \in [r, \text{max\_norm}]`; True: :math:`\|x\| \in
        [r^2, r]` with :math:`r` = ``radius``, to probe the cosine router's singularity at
        :math:`x = 0` (``pcr.stability.near-zero``).
    radius : float
        The boundary between "near" and "away", ``0 < radius < 1``.
    max_norm : float
        Largest norm drawn away from zero, ``radius <= max_norm <= 1e6``.

    Returns
    -------
    SearchStrategy[ndarray]
        Arrays of shape ``(d1,)`` with the norm in the stated range.

    %(raises_invalid)s.

    See Also
    --------
    vectors : vectors with any norm range.
    router_params : the router parameters these inputs are scored against.

    Notes
    -----
    The cosine score :math:`\beta_1^\top x/(\|\beta_1\|\,\|x\|)` is undefined at
    :math:`x = 0` and its gradient grows like :math:`1/\|x\|` near it; the perturbed score
    of eq. (8) of [1]_ is smooth there. ``near_zero=True`` probes that region without ever
    drawing :math:`x = 0`.

    %(references)s

    Examples
    --------
    >>> import numpy as np
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20, derandomize=True, database=None)
    ... @given(inputs(3, near_zero=True, radius=1e-2))
    ... def test_near(x):
    ...     assert 0 < np.linalg.norm(x) <= 1e-2
    >>> test_near()
    """
    r = _float("radius", radius, 0.0, 1.0, "pick radius in (0, 1), e.g. 1e-3")
    if r in (0.0, 1.0):
        raise InvalidArgument(f"radius must lie strictly in (0, 1), got {radius!r}; e.g. 1e-3")
    top = _float("max_norm", max_norm, r, 1e6, f"use max_norm >= radius = {r:g}")
    dim = _draw_int(draw, "d1", d1, 1, _MAX_DIM, "use an input dimension d1 >= 1")
    if near_zero:
        return _direction_vector(draw, dim, r * r, r)
    return _direction_vector(draw, dim, r, top)


@st.composite
@fill_doc(_DOC)
def router_params(
    draw: st.DrawFn,
    d1: int | st.SearchStrategy[int] | None = None,
    *,
    min_tau: float = 0.01,
    max_tau: float = 2.0,
    cosine: bool = False,
    min_norm: float = 0.1,
    max_norm: float = 10.0,
) -> RouterParams:
    r"""Router parameters :math:`(\beta_1, \tau_1, \tau_2)` of the perturbed cosine router.

    Parameters
    ----------
    %(d1_optional)s
    min_tau, max_tau : float
        Range of the perturbations, ``0 < min_tau <= max_tau <= 100``.
    cosine : bool
        True draws the plain cosine router, :math:`\tau_1 = \tau_2 = 0`.
    min_norm, max_norm : float
        Range of :math:`\|\beta_1\|` (``0 < min_norm``: the cosine router needs
        :math:`\beta_1 \ne 0`).

    Returns
    -------
    SearchStrategy[RouterParams]
        ``RouterParams(beta1, tau1, tau2)`` with ``beta1.shape == (d1,)``.

    %(raises_invalid)s.

    Notes
    -----
    The score :math:`s(x) = \beta_1^\top x / ((\|\beta_1\| + \tau_1)(\|x\| + \tau_2))`
    is scale invariant in :math:`\beta_1` exactly when :math:`\tau_1 = 0` (eq. (8)
    of [1]_).

    See Also
    --------
    RouterParams : the drawn type.
    inputs : token inputs for the score.
    mixing_measures : all atoms of a mixture at once.

    %(references)s

    Examples
    --------
    %(record_draws)s
    ... @given(router_params(d1=2, cosine=True))
    ... def record(p):
    ...     seen.append((p.beta1.shape, p.tau1, p.tau2))
    >>> record()
    >>> seen[0]
    ((2,), 0.0, 0.0)
    >>> from hypothesis import find
    >>> find(router_params(min_tau=-1.0), lambda p: True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hypothesis.errors.InvalidArgument: min_tau must lie in [1e-12, 100], got -1.0; ...
    """
    lo = _float(
        "min_tau", min_tau, 1e-12, 100.0,
        "the perturbations are positive: use cosine=True for tau1 = tau2 = 0",
    )
    hi = _float("max_tau", max_tau, 1e-12, 100.0, "keep tau <= 100")
    _ordered("tau", lo, hi)
    nlo = _float("min_norm", min_norm, 1e-12, 1e6, "beta1 must be non-zero")
    nhi = _float("max_norm", max_norm, 1e-12, 1e6, "keep norms <= 1e6")
    _ordered("norm", nlo, nhi)
    dim = _draw_int(draw, "d1", dimensions() if d1 is None else d1, 1, _MAX_DIM)
    beta1 = _direction_vector(draw, dim, nlo, nhi)
    if cosine:
        return RouterParams(beta1, 0.0, 0.0)
    return RouterParams(beta1, draw(st.floats(lo, hi)), draw(st.floats(lo, hi)))


@st.composite
@fill_doc(_DOC)
def expert_params(
    draw: st.DrawFn, d1: int | st.SearchStrategy[int] | None = None, *, max_abs: float = 5.0
) -> ExpertParams:
    r"""Expert parameters :math:`(a, b)`, :math:`a \ne 0`, entries in ``[-max_abs, max_abs]``.

    Parameters
    ----------
    %(d1_optional)s
    max_abs : float
        Bound of the entries, ``0 < max_abs <= 1e3``.

    Returns
    -------
    SearchStrategy[ExpertParams]
        ``ExpertParams(a, b)`` with ``a.shape == (d1,)``.

    %(raises_invalid)s.

    See Also
    --------
    ExpertParams : the drawn type.
    moetheory.symbolic.experts.ffn : the expert these parameters feed.

    Notes
    -----
    :math:`a` is drawn with norm in :math:`[\min(0.1, \text{max\_abs}), \text{max\_abs}]`,
    so it is never zero and every entry is within the bound; :math:`b` is uniform-ish in
    :math:`[-\text{max\_abs}, \text{max\_abs}]` (Hypothesis floats).

    Examples
    --------
    %(record_draws)s
    ... @given(expert_params(d1=3))
    ... def record(e):
    ...     seen.append((e.a.shape, bool(-5.0 <= e.b <= 5.0)))
    >>> record()
    >>> seen[0]
    ((3,), True)
    """
    bound = _float("max_abs", max_abs, 1e-6, 1e3, "use a positive bound such as 5")
    dim = _draw_int(draw, "d1", dimensions() if d1 is None else d1, 1, _MAX_DIM)
    # a norm <= bound keeps every entry within the bound
    a = _direction_vector(draw, dim, min(0.1, bound), bound)
    return ExpertParams(a, draw(st.floats(-bound, bound)))


_GAUGES = (None, "beta0", "beta0-beta1")


def _free_value(candidate: float, taken: list[float], sep: float, bound: float) -> float:
    """The point of ``[-bound, bound]`` nearest ``candidate`` at distance >= sep from all
    of ``taken`` (exists whenever ``2 sep len(taken) < 2 bound``)."""
    gap = sep * (1 + _SLACK)
    if all(abs(candidate - t) >= gap for t in taken):
        return candidate
    options = [t + s * gap for t in taken for s in (-1, 1)] + [-bound, bound]
    options = [o for o in options if -bound <= o <= bound and all(abs(o - t) >= sep
                                                                 for t in taken)]
    return min(options, key=lambda o: (abs(o - candidate), o))


@st.composite
@fill_doc(_DOC)
def mixing_measures(
    draw: st.DrawFn,
    k: int | st.SearchStrategy[int],
    d1: int | st.SearchStrategy[int] | None = None,
    *,
    min_separation: float = 0.1,
    max_abs: float = 3.0,
    min_norm: float = 0.1,
    gauge: str | None = "beta0",
) -> MixingMeasure:
    r"""Mixing measures with exactly ``k`` distinct atoms (Section 2 of [1]_).

    Parameters
    ----------
    k : int or SearchStrategy[int]
        Number of atoms (experts), ``1 <= k <= 8``.
    d1 : int or SearchStrategy[int], optional
        Input dimension; drawn from ``dimensions(1, 4)`` when omitted.
    min_separation : float
        Smallest Euclidean distance between two atoms :math:`(\beta_{1i}, \eta_i)`;
        feasible when :math:`(k - 1)\,\text{min\_separation} < \text{max\_abs}`.
    max_abs : float
        Bound of every parameter, ``0 < max_abs <= 100``.
    min_norm : float
        Smallest :math:`\|\beta_{1i}\|`, ``0 < min_norm <= max_abs``: every atom can be
        used with the cosine router, whose score needs :math:`\beta_{1i} \ne 0`.
    gauge : {"beta0", "beta0-beta1", None}
        The identifiability convention imposed on the draw: ``"beta0"`` fixes
        :math:`\beta_{0k} = 0` (the softmax is invariant under a common shift of the
        :math:`\beta_{0i}`); ``"beta0-beta1"`` also fixes :math:`\beta_{1k} = 0` (assumption
        (A.3); the last atom then cannot be used with the cosine router); ``None``: no
        convention.

    Returns
    -------
    SearchStrategy[MixingMeasure]
        :class:`moetheory.estimation.models.MixingMeasure` with ``k`` atoms, pairwise at
        least ``min_separation`` apart, every parameter in ``[-max_abs, max_abs]``.

    %(raises_invalid)s or the separation is infeasible.

    See Also
    --------
    router_params : the router parameters of one atom.
    moetheory.estimation.models.MixingMeasure : the drawn type.

    Notes
    -----
    Atoms are constructed, never rejected: each is drawn freely, and when it falls closer
    than ``min_separation`` to an earlier atom its expert bias :math:`b_i` moves to the
    nearest value at least ``min_separation`` from every earlier bias. Since the biases
    differ by at least the separation, so do the atoms. This needs
    :math:`2 (k-1)\,\text{min\_separation} < 2\,\text{max\_abs}`, the stated
    feasibility condition.

    References
    ----------
    .. [1] Nguyen et al., ICLR 2025, arXiv:2405.14131, eq. (2) and (A.3).

    Examples
    --------
    %(record_draws)s
    ... @given(mixing_measures(3, d1=2))
    ... def record(G):
    ...     seen.append((G.k, G.d, G.eta.shape, float(G.beta0[-1])))
    >>> record()
    >>> seen[0]
    (3, 2, (3, 3), 0.0)
    >>> from hypothesis import find
    >>> find(mixing_measures(0), lambda G: True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hypothesis.errors.InvalidArgument: k must lie in [1, 8], got 0; ... at least one atom...
    """
    bound = _float("max_abs", max_abs, 1e-6, 100.0, "use a positive bound such as 3")
    sep = _float("min_separation", min_separation, 0.0, bound,
                 f"use a separation in [0, max_abs = {bound:g}]")
    nlo = _float("min_norm", min_norm, 1e-12, bound, f"use a norm in (0, max_abs = {bound:g}]")
    if gauge not in _GAUGES:
        raise InvalidArgument(f"gauge must be one of {_GAUGES}, got {gauge!r}")
    atoms_k = _draw_int(draw, "k", k, 1, _MAX_ATOMS, "a mixing measure needs at least one atom")
    if (atoms_k - 1) * sep * (1 + 1e-6) >= bound and atoms_k > 1:
        raise InvalidArgument(
            f"min_separation={sep:g} is infeasible for k={atoms_k} atoms within "
            f"max_abs={bound:g}: need (k - 1) * min_separation < max_abs"
        )
    dim = _draw_int(draw, "d1", dimensions(1, 4) if d1 is None else d1, 1, _MAX_DIM)
    coord = st.floats(-bound, bound)
    beta1 = np.zeros((atoms_k, dim))
    eta = np.zeros((atoms_k, dim + 1))
    biases: list[float] = []
    for i in range(atoms_k):
        zero_beta1 = gauge == "beta0-beta1" and i == atoms_k - 1
        if not zero_beta1:
            beta1[i] = _direction_vector(draw, dim, nlo, bound)
        eta[i, :dim] = draw(st.lists(coord, min_size=dim, max_size=dim))
        eta[i, dim] = draw(coord)
        row = np.concatenate([beta1[i], eta[i]])
        if i and min(
            float(np.linalg.norm(row - np.concatenate([beta1[j], eta[j]]))) for j in range(i)
        ) < sep:
            eta[i, dim] = _free_value(float(eta[i, dim]), biases, sep, bound)
        biases.append(float(eta[i, dim]))
    beta0 = np.array(draw(st.lists(coord, min_size=atoms_k, max_size=atoms_k)))
    if gauge is not None:
        beta0[-1] = 0.0
    return MixingMeasure(beta0, beta1, eta)


@st.composite
@fill_doc(_DOC)
def cl_settings(
    draw: st.DrawFn,
    *,
    max_experts: int = 8,
    max_tasks: int = 4,
    max_rounds: int = 200,
    max_dim: int = 20,
    experts_exceed_tasks: bool | None = None,
) -> CLSettings:
    r"""Settings of Algorithm 1 of [2]_ (see :class:`CLSettings` for each field).

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

    Returns
    -------
    SearchStrategy[CLSettings]
        Settings with ``1 <= K <= N``, ``1 <= s < d``, ``T >= 2``, positive rates and
        :math:`0 < \Gamma \le 2\lambda`.

    %(raises_invalid)s or the regime is impossible.

    See Also
    --------
    CLSettings : the drawn type.
    moetheory.continual.config.CLConfig : the configuration built from a draw.

    Notes
    -----
    Theorems 1 and 2 of [2]_ treat :math:`M > N` and :math:`M < N` separately;
    ``experts_exceed_tasks`` restricts the draws to one regime by construction (``N``
    first, then ``M`` on the right side of it). The threshold is drawn in
    :math:`[0.01\lambda, 2\lambda]`, around the noise range, where the termination rule's
    behaviour changes (Appendix A.4).

    References
    ----------
    .. [2] Li et al., ICLR 2025, arXiv:2406.16437, Algorithm 1.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, derandomize=True, database=None)
    ... @given(cl_settings(experts_exceed_tasks=True))
    ... def test_regime(c):
    ...     assert c.M > c.N >= 1 and 1 <= c.s < c.d
    >>> test_regime()
    >>> from hypothesis import find
    >>> find(cl_settings(max_experts=1, experts_exceed_tasks=True), bool)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hypothesis.errors.InvalidArgument: max_experts must be >= 2 when ... (M > N >= 1), got 1...
    """
    m_hi = _int("max_experts", max_experts, 1, 64)
    n_hi = _int("max_tasks", max_tasks, 1, 64)
    t_hi = _int("max_rounds", max_rounds, 2, 100_000)
    d_hi = _int("max_dim", max_dim, 3, _MAX_DIM, "need d >= 3 so that 1 <= s < d")
    if experts_exceed_tasks is True and m_hi < 2:
        raise InvalidArgument(
            f"max_experts must be >= 2 when experts_exceed_tasks=True (M > N >= 1), got {m_hi}"
        )
    if experts_exceed_tasks is False and n_hi < 2:
        raise InvalidArgument(
            f"max_tasks must be >= 2 when experts_exceed_tasks=False (N > M >= 1), got {n_hi}"
        )
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


# -- type strategies: ``st.from_type(T)`` draws what the strategy of T draws --------------

#: The strategy :func:`hypothesis.strategies.from_type` uses for each public value type
#: (registered when this module is imported).
TYPE_STRATEGIES: dict[type, st.SearchStrategy[Any]] = {
    RouterParams: router_params(),
    ExpertParams: expert_params(),
    CLSettings: cl_settings(),
    MixingMeasure: mixing_measures(st.integers(1, 4)),
}
for _type, _strategy in TYPE_STRATEGIES.items():
    st.register_type_strategy(_type, _strategy)
del _type, _strategy
