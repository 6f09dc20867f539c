r"""Router scores of the perturbed-cosine-router paper (seed 002) as SymPy expressions and numbers.

Every router the paper uses, and every normalisation used in practice, has the form

.. math:: s(x, \beta_1) = \beta_1^\top x \cdot \varphi_b(\|\beta_1\|) \cdot \varphi_x(\|x\|),

where :math:`\varphi_b` and :math:`\varphi_x` are the *normalisations* of the expert embedding
and of the token: none (linear router), :math:`1/n` (cosine router, eq. (2)), :math:`1/(n+\tau)`
(perturbed cosine router, eq. (8); the additive-:math:`\varepsilon` normalisation
:math:`v / (\|v\| + \varepsilon)`) or
:math:`1/\max(n, \varepsilon)` (the clamp of PyTorch's ``F.normalize``). A :class:`Router`
gives the score

* in a dimension-free form (:meth:`Router.scalar_score`), a function of the scalars
  :data:`U` :math:`= \beta_1^\top x`, :data:`NB` :math:`= \|\beta_1\|`, :data:`NX` :math:`= \|x\|`,
* for a concrete dimension :math:`d_1` in coordinates (:meth:`Router.score`),
* as a number, in double precision or with mpmath (:meth:`Router.evaluate`).

The clamp is piecewise; its pieces (``"inactive"``: :math:`n > \varepsilon`, ``"active"``:
:math:`n < \varepsilon`) are available separately so that derivatives are taken on each piece.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from moetheory._doccer import fill_doc
from moetheory.symbolic._docs import REFERENCES

__all__ = [
    "COSINE",
    "EPS",
    "IMPLEMENTATION_VARIANTS",
    "LINEAR",
    "NB",
    "NORMALISATION_KINDS",
    "NX",
    "SYMBOL_LATEX",
    "TAU1",
    "TAU2",
    "Normalisation",
    "Router",
    "U",
    "coordinates",
    "cosine_score",
    "gradient_norm_squared",
    "linear_score",
    "normalised_router",
    "normalised_score",
    "perturbed_cosine_router",
    "perturbed_cosine_score",
]

#: :math:`u = \beta_1^\top x`.
U = sp.Symbol("u", real=True)
#: :math:`n_b = \|\beta_1\|` (positive: the scores are studied for :math:`\beta_1 \neq 0`).
NB = sp.Symbol("n_b", positive=True)
#: :math:`n_x = \|x\|`.
NX = sp.Symbol("n_x", positive=True)
#: :math:`\tau_1`, the perturbation of :math:`\|\beta_1\|` in eq. (8).
TAU1 = sp.Symbol("tau1", positive=True)
#: :math:`\tau_2`, the perturbation of :math:`\|x\|` in eq. (8).
TAU2 = sp.Symbol("tau2", positive=True)
#: :math:`\varepsilon` of the practical normalisations (clamp and additive).
EPS = sp.Symbol("epsilon", positive=True)

#: LaTeX names for :func:`sympy.latex` (``symbol_names=SYMBOL_LATEX``) in derivations.
SYMBOL_LATEX: dict[sp.Symbol, str] = {
    U: r"\beta_1^\top x",
    NB: r"\|\beta_1\|",
    NX: r"\|x\|",
    TAU1: r"\tau_1",
    TAU2: r"\tau_2",
    EPS: r"\varepsilon",
}

#: ``none``: no normalisation; ``exact``: :math:`v/\|v\|`;
#: ``additive``: :math:`v/(\|v\|+\varepsilon)`; ``clamp``: :math:`v/\max(\|v\|, \varepsilon)`.
NORMALISATION_KINDS: tuple[str, ...] = ("none", "exact", "additive", "clamp")


def _check_nonneg(name: str, value: Any) -> None:
    if isinstance(value, sp.Basic) and not value.is_number:
        if value.is_nonnegative is not True:
            raise ValueError(f"{name} must be a non-negative symbol or number, got {value}")
        return
    try:
        val = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}") from None
    if not math.isfinite(val) or val < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")


@dataclass(frozen=True)
@fill_doc(REFERENCES)
class Normalisation:
    r"""How one vector's norm enters the score: the factor :math:`\varphi(\|v\|)`.

    Parameters
    ----------
    kind : {"none", "exact", "additive", "clamp"}
        See :data:`NORMALISATION_KINDS`.
    eps : sympy.Expr or float, optional
        The :math:`\varepsilon` (or :math:`\tau`) of ``additive`` and ``clamp``, a number
        or a non-negative SymPy symbol; must be non-negative (``clamp`` needs it positive). Stored
        as a
        SymPy object.

    Raises
    ------
    ValueError
        If ``kind`` is unknown, ``eps`` is missing for ``additive`` or ``clamp``, negative,
        not finite, a symbol not known to be non-negative, or zero for ``clamp``.

    See Also
    --------
    Router : a score built from two normalisations.
    normalised_router : the practical normalised routers.

    Notes
    -----
    The four factors:

    .. math:: \varphi_{\text{none}}(n) = 1, \quad \varphi_{\text{exact}}(n) = \frac1n, \quad
              \varphi_{\text{additive}}(n) = \frac{1}{n + \varepsilon}, \quad
              \varphi_{\text{clamp}}(n) = \frac{1}{\max(n, \varepsilon)}.

    ``exact`` is the cosine router's (eq. (2) of [1]_), ``additive`` the perturbation of
    eq. (8) (:math:`v / (\|v\| + \varepsilon)`), ``clamp`` PyTorch's ``F.normalize``. The clamp has
    two
    smooth pieces, :math:`n > \varepsilon` (``"inactive"``) and :math:`n < \varepsilon`
    (``"active"``).

    %(references)s

    Examples
    --------
    >>> Normalisation("additive", TAU1).factor(NB)
    1/(n_b + tau1)
    >>> [name for name, _, _ in Normalisation("clamp", EPS).pieces(NB)]
    ['inactive', 'active']
    >>> Normalisation("additive", -1)
    Traceback (most recent call last):
    ...
    ValueError: eps must be a finite number >= 0, got -1
    """

    kind: str
    eps: Any = None

    def __post_init__(self) -> None:
        if self.kind not in NORMALISATION_KINDS:
            raise ValueError(f"kind must be one of {NORMALISATION_KINDS}, got {self.kind!r}")
        if self.kind in ("additive", "clamp"):
            if self.eps is None:
                raise ValueError(f"eps is required for the {self.kind!r} normalisation")
            _check_nonneg("eps", self.eps)
            if self.kind == "clamp" and sp.sympify(self.eps).is_zero:
                raise ValueError("eps must be > 0 for the 'clamp' normalisation")
            object.__setattr__(self, "eps", sp.sympify(self.eps))

    def factor(self, n: sp.Expr) -> sp.Expr:
        r"""The factor :math:`\varphi(n)` as one SymPy expression (``Max`` for the clamp).

        Parameters
        ----------
        n : sympy.Expr
            The norm, e.g. :data:`NB` or :data:`NX`.

        Returns
        -------
        sympy.Expr
            :math:`\varphi(n)`.

        Examples
        --------
        >>> Normalisation("clamp", EPS).factor(NX)
        1/Max(epsilon, n_x)
        """
        if self.kind == "none":
            return sp.Integer(1)
        if self.kind == "exact":
            return 1 / n
        if self.kind == "additive":
            return 1 / (n + self.eps)
        return 1 / sp.Max(n, self.eps)

    def pieces(self, n: sp.Expr) -> list[tuple[str, Any, sp.Expr]]:
        r"""The smooth pieces of :math:`\varphi`, for derivatives taken piece by piece.

        Parameters
        ----------
        n : sympy.Expr
            The norm.

        Returns
        -------
        list of (str, sympy.Basic, sympy.Expr)
            ``(name, condition, factor)``: ``("inactive", n > eps, 1/n)`` and
            ``("active", n < eps, 1/eps)`` for the clamp, ``("everywhere", True, factor)``
            otherwise.

        Examples
        --------
        >>> Normalisation("exact").pieces(NB)
        [('everywhere', True, 1/n_b)]
        """
        if self.kind == "clamp":
            return [("inactive", n > self.eps, 1 / n), ("active", n < self.eps, 1 / self.eps)]
        return [("everywhere", sp.true, self.factor(n))]

    def numeric(self, n: Any) -> Any:
        r""":math:`\varphi(n)` for a float or mpmath number ``n``.

        Parameters
        ----------
        n : float or mpmath.mpf
            The norm.

        Returns
        -------
        float or mpmath.mpf
            :math:`\varphi(n)`, in the type of ``n`` (``1`` for ``none``).

        Raises
        ------
        ZeroDivisionError
            For ``exact`` at :math:`n = 0` (the callers check this first).

        Examples
        --------
        >>> Normalisation("additive", 1).numeric(3.0)
        0.25
        """
        if self.kind == "none":
            return 1
        if self.kind == "exact":
            return 1 / n
        eps = float(self.eps) if isinstance(n, float) else mpmath.mpf(sp.Float(self.eps, 60))
        if self.kind == "additive":
            return 1 / (n + eps)
        return 1 / max(n, eps)

    def describe(self, vector: str) -> str:
        """Plain-text formula of the normalised vector, as a terminal prints it (see Examples).

        Parameters
        ----------
        vector : str
            Name of the vector.

        Returns
        -------
        str
            The formula.

        Examples
        --------
        >>> Normalisation("clamp", EPS).describe("x")
        'x/max(‖x‖,ε)'
        """
        eps = "ε" if self.eps == EPS else sp.sstr(self.eps)
        return {
            "none": vector,
            "exact": f"{vector}/‖{vector}‖",
            "additive": f"{vector}/(‖{vector}‖+{eps})",
            "clamp": f"{vector}/max(‖{vector}‖,{eps})",
        }[self.kind]


def coordinates(d1: int) -> tuple[sp.Matrix, sp.Matrix]:
    r"""Real coordinate symbols :math:`(\beta_1, x)` in dimension ``d1``.

    Parameters
    ----------
    d1 : int
        Dimension :math:`d_1 \ge 1` of the expert embedding and of the token.

    Returns
    -------
    beta1, x : sympy.Matrix, shape (d1, 1)
        Column vectors of real symbols ``b1..b{d1}`` and ``x1..x{d1}``.

    Raises
    ------
    ValueError
        If ``d1`` is not a positive integer.

    See Also
    --------
    Router.score : the score in these coordinates.
    moetheory.symbolic.pde.explicit_check : the coordinate cross-check of the PDE.

    Notes
    -----
    The dimension-free forms (:meth:`Router.scalar_score`) hold for every :math:`d_1`; the
    coordinates are for independent cross-checks in a fixed dimension.

    Examples
    --------
    >>> b, x = coordinates(2)
    >>> (b.T * x)[0]
    b1*x1 + b2*x2
    >>> coordinates(0)
    Traceback (most recent call last):
    ...
    ValueError: d1 must be an integer >= 1, got 0
    """
    if isinstance(d1, bool) or not isinstance(d1, int | np.integer) or d1 < 1:
        raise ValueError(f"d1 must be an integer >= 1, got {d1!r}")
    b = sp.Matrix(sp.symbols(f"b1:{d1 + 1}", real=True))
    x = sp.Matrix(sp.symbols(f"x1:{d1 + 1}", real=True))
    return b, x


@dataclass(frozen=True)
@fill_doc(REFERENCES)
class Router:
    r"""A router score :math:`s = \beta_1^\top x\,\varphi_b(\|\beta_1\|)\,\varphi_x(\|x\|)`.

    Parameters
    ----------
    name : str
        Identifier, e.g. ``"cosine"``.
    expert, token : Normalisation
        Normalisations of the expert embedding :math:`\beta_1` and of the token :math:`x`.
    equation : str, optional
        Where the score appears in the paper, e.g. ``"eq. (2)"``.

    Raises
    ------
    TypeError
        If a required field is missing (the dataclass constructor); the normalisations are
        validated when they are built.

    See Also
    --------
    LINEAR, COSINE : the linear and cosine routers.
    perturbed_cosine_router : the router of eq. (8).
    normalised_router : the practical normalisations.

    Notes
    -----
    The score depends on :math:`\beta_1` only through :math:`u = \beta_1^\top x` and
    :math:`n_b = \|\beta_1\|`, and on :math:`x` through :math:`u` and :math:`n_x = \|x\|`,
    so it is given once as a function of :math:`(u, n_b, n_x)` valid in every dimension.
    The cosine router (eq. (2) of [1]_) is
    :math:`s = \beta_1^\top x/(\|\beta_1\|\,\|x\|)`.

    %(references)s

    Examples
    --------
    >>> COSINE.scalar_score()
    u/(n_b*n_x)
    >>> b, x = coordinates(1)
    >>> COSINE.score(b, x)
    b1*x1/(Abs(b1)*Abs(x1))
    >>> COSINE.evaluate([3.0, 4.0], [0.0, 2.0])
    0.8
    """

    name: str
    expert: Normalisation
    token: Normalisation
    equation: str = ""

    def piece_names(self) -> list[tuple[str, str]]:
        """All ``(expert_piece, token_piece)`` combinations of smooth pieces.

        Returns
        -------
        list of (str, str)
            One pair for each combination, e.g. ``[("everywhere", "everywhere")]``.

        Examples
        --------
        >>> normalised_router("clamp", "both").piece_names()[:2]
        [('inactive', 'inactive'), ('inactive', 'active')]
        """
        return [
            (pe, pt) for pe, _, _ in self.expert.pieces(NB) for pt, _, _ in self.token.pieces(NX)
        ]

    def _factors(self, nb: sp.Expr, nx: sp.Expr, pieces: tuple[str, str] | None) -> sp.Expr:
        if pieces is None:
            return self.expert.factor(nb) * self.token.factor(nx)
        fe = dict((p, f) for p, _, f in self.expert.pieces(nb))
        ft = dict((p, f) for p, _, f in self.token.pieces(nx))
        try:
            return fe[pieces[0]] * ft[pieces[1]]
        except KeyError:
            raise ValueError(f"pieces must be one of {self.piece_names()}, got {pieces}") from None

    def scalar_score(
        self,
        u: sp.Expr = U,
        nb: sp.Expr = NB,
        nx: sp.Expr = NX,
        pieces: tuple[str, str] | None = None,
    ) -> sp.Expr:
        r"""The dimension-free score :math:`u\,\varphi_b(n_b)\,\varphi_x(n_x)`.

        Parameters
        ----------
        u, nb, nx : sympy.Expr, optional
            Values of :math:`\beta_1^\top x`, :math:`\|\beta_1\|`, :math:`\|x\|`; default the
            symbols :data:`U`, :data:`NB`, :data:`NX`.
        pieces : (str, str), optional
            Smooth pieces to use (see :meth:`piece_names`); ``None`` uses the whole factors.

        Returns
        -------
        sympy.Expr
            The score.

        Raises
        ------
        ValueError
            If ``pieces`` is not one of :meth:`piece_names`.

        Examples
        --------
        >>> LINEAR.scalar_score()
        u
        """
        return u * self._factors(nb, nx, pieces)

    def score(
        self, beta1: sp.Matrix, x: sp.Matrix, pieces: tuple[str, str] | None = None
    ) -> sp.Expr:
        """The score in coordinates, norms written as square roots of sums of squares.

        Parameters
        ----------
        beta1, x : sympy.Matrix
            Column vectors of the same shape (see :func:`coordinates`).
        pieces : (str, str), optional
            Smooth pieces to use; ``None`` uses the whole factors.

        Returns
        -------
        sympy.Expr
            :meth:`scalar_score` of :math:`\\beta_1^\\top x` and the two norms.

        Raises
        ------
        ValueError
            If the shapes differ or ``pieces`` is not one of :meth:`piece_names`.

        Examples
        --------
        >>> b, x = coordinates(2)
        >>> LINEAR.score(b, x)
        b1*x1 + b2*x2
        """
        if beta1.shape != x.shape:
            raise ValueError(f"beta1 and x must have the same shape, got {beta1.shape}, {x.shape}")
        u = (beta1.T * x)[0]
        nb = sp.sqrt(sum(v**2 for v in beta1))
        nx = sp.sqrt(sum(v**2 for v in x))
        return self.scalar_score(u, nb, nx, pieces)

    def condition(self, pieces: tuple[str, str]) -> Any:
        """The region (in :data:`NB`, :data:`NX`) where the given pieces apply.

        Parameters
        ----------
        pieces : (str, str)
            ``(expert_piece, token_piece)``.

        Returns
        -------
        sympy.Basic
            A SymPy condition (``True`` for routers without pieces).

        Raises
        ------
        KeyError
            If a piece name is unknown.

        Examples
        --------
        >>> normalised_router("clamp", "expert").condition(("active", "everywhere"))
        n_b < epsilon
        """
        ce = dict((p, c) for p, c, _ in self.expert.pieces(NB))
        ct = dict((p, c) for p, c, _ in self.token.pieces(NX))
        return sp.And(ce[pieces[0]], ct[pieces[1]])

    def evaluate(self, beta1: Sequence[Any], x: Sequence[Any], dps: int | None = None) -> Any:
        r"""The score as a float, or as an mpmath number with ``dps`` digits.

        Parameters
        ----------
        beta1, x : sequence of float
            Vectors of the same length :math:`d_1 \ge 1`, finite entries.
        dps : int, optional
            ``None`` (default): double precision with NumPy; otherwise mpmath at ``dps >= 15``
            decimal digits (inputs converted exactly from their floats).

        Returns
        -------
        float or mpmath.mpf
            :math:`s(\beta_1, x)`; numeric :math:`\varepsilon, \tau` only.

        Raises
        ------
        ValueError
            For non-finite entries, mismatched or empty vectors, ``dps < 15``, and a zero
            vector under the exact (cosine) normalisation.

        Examples
        --------
        >>> mpmath.nstr(COSINE.evaluate([1.0, 0.0], [1.0, 1.0], dps=30), 20)
        '0.7071067811865475244'
        """
        b = _as_vector("beta1", beta1)
        v = _as_vector("x", x)
        if b.shape != v.shape:
            raise ValueError(f"beta1 and x must have the same length, got {b.size} and {v.size}")
        if dps is None:
            nb, nx = float(np.linalg.norm(b)), float(np.linalg.norm(v))
            u = float(b @ v)
        else:
            if not isinstance(dps, int) or dps < 15:
                raise ValueError(f"dps must be an integer >= 15, got {dps!r}")
            with mpmath.workdps(dps):
                bm = [mpmath.mpf(float(t)) for t in b]
                xm = [mpmath.mpf(float(t)) for t in v]
                return self._evaluate_numbers(
                    mpmath.fsum(p * q for p, q in zip(bm, xm, strict=True)),
                    mpmath.sqrt(mpmath.fsum(t**2 for t in bm)),
                    mpmath.sqrt(mpmath.fsum(t**2 for t in xm)),
                )
        return float(self._evaluate_numbers(u, nb, nx))

    def _evaluate_numbers(self, u: Any, nb: Any, nx: Any) -> Any:
        for name, norm, norm_kind in (("beta1", nb, self.expert.kind), ("x", nx, self.token.kind)):
            if norm_kind == "exact" and norm == 0:
                raise ValueError(f"{name} must be non-zero for the {self.name} router")
        return u * self.expert.numeric(nb) * self.token.numeric(nx)


def _as_vector(name: str, value: Sequence[Any]) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a sequence of finite real numbers") from None
    if arr.ndim != 1 or arr.size < 1:
        raise ValueError(f"{name} must be a 1-D vector of length d1 >= 1, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite numbers, got {value!r}")
    return arr


#: The linear router :math:`s = \beta_1^\top x`.
LINEAR = Router("linear", Normalisation("none"), Normalisation("none"), "linear router")
#: The cosine router, eq. (2): :math:`s = \beta_1^\top x / (\|\beta_1\|\,\|x\|)`.
COSINE = Router("cosine", Normalisation("exact"), Normalisation("exact"), "eq. (2)")


@fill_doc(REFERENCES)
def perturbed_cosine_router(tau1: Any = TAU1, tau2: Any = TAU2) -> Router:
    r"""The perturbed cosine router of eq. (8).

    Parameters
    ----------
    tau1, tau2 : sympy.Expr or float, optional
        The perturbations :math:`\tau_1, \tau_2 \ge 0` of the two norms, symbols or
        numbers; default the positive symbols :data:`TAU1`, :data:`TAU2`. A zero switches
        that perturbation off (the norm then enters as in the cosine router).

    Returns
    -------
    Router
        Named ``"perturbed(tau1=..., tau2=...)"``, equation ``"eq. (8)"``.

    Raises
    ------
    ValueError
        If ``tau1`` or ``tau2`` is negative, not finite, or a symbol not known to be
        non-negative.

    See Also
    --------
    perturbed_cosine_score : the score as a number.
    COSINE : the unperturbed router.
    moetheory.symbolic.pde.euler_residual : the PDE (4), which the perturbation breaks.

    Notes
    -----
    Eq. (8) of [1]_:

    .. math:: s(x, \beta_1) = \frac{\beta_1^\top x}{(\|\beta_1\| + \tau_1)(\|x\| + \tau_2)}.

    With :math:`\tau_1 > 0` the score is no longer invariant under :math:`\beta_1 \to
    c\beta_1`, so the parameter interaction :math:`\beta_1^\top \partial H/\partial\beta_1 = 0`
    of eq. (4) fails.

    %(references)s

    Examples
    --------
    >>> perturbed_cosine_router().scalar_score()
    u/((n_b + tau1)*(n_x + tau2))
    >>> perturbed_cosine_router(0, TAU2).scalar_score()
    u/(n_b*(n_x + tau2))
    >>> perturbed_cosine_router(-1, 1)
    Traceback (most recent call last):
    ...
    ValueError: tau1 must be a finite number >= 0, got -1
    """
    _check_nonneg("tau1", tau1)
    _check_nonneg("tau2", tau2)
    t1, t2 = sp.sympify(tau1), sp.sympify(tau2)
    expert = Normalisation("exact") if t1.is_zero else Normalisation("additive", t1)
    token = Normalisation("exact") if t2.is_zero else Normalisation("additive", t2)
    return Router(f"perturbed(tau1={t1}, tau2={t2})", expert, token, "eq. (8)")


@fill_doc(REFERENCES)
def normalised_router(kind: str, on: str, eps: Any = EPS, other: str = "none") -> Router:
    r"""A practical normalised router: an :math:`\varepsilon`-normalisation on one or both vectors.

    Parameters
    ----------
    kind : {"clamp", "additive"}
        :math:`v/\max(\|v\|, \varepsilon)` or :math:`v/(\|v\| + \varepsilon)`.
    on : {"expert", "token", "both"}
        Which vector gets the :math:`\varepsilon`-normalisation: :math:`\beta_1`, :math:`x`
        or both.
    eps : sympy.Expr or float, optional
        :math:`\varepsilon`; default the positive symbol :data:`EPS`.
    other : {"none", "exact"}, optional
        What happens to the vector without the :math:`\varepsilon`-normalisation: left as is
        (default) or divided by its norm, as in the cosine router.

    Returns
    -------
    Router
        Named ``"<kind>-<on>"``, with ``"+exact"`` appended when ``other="exact"`` and
        ``on`` is not ``"both"``.

    Raises
    ------
    ValueError
        If ``kind``, ``on`` or ``other`` is not one of its choices, or ``eps`` is invalid
        (see :class:`Normalisation`).

    See Also
    --------
    IMPLEMENTATION_VARIANTS : the six variants the checks use.
    normalised_score : the score as a number.

    Notes
    -----
    Implementations of the cosine router stabilise the division by a norm either by a clamp
    (PyTorch's ``F.normalize``) or by an additive :math:`\varepsilon`; the checks ask whether
    each variant keeps the parameter interaction of eq. (4) of [1]_.

    %(references)s

    Examples
    --------
    >>> normalised_router("clamp", "expert").scalar_score(pieces=("active", "everywhere"))
    u/epsilon
    >>> normalised_router("additive", "token", other="exact").scalar_score()
    u/(n_b*(epsilon + n_x))
    >>> normalised_router("clamp", "sideways")
    Traceback (most recent call last):
    ...
    ValueError: on must be one of ('expert', 'token', 'both'), got 'sideways'
    """
    if kind not in ("clamp", "additive"):
        raise ValueError(f"kind must be 'clamp' or 'additive', got {kind!r}")
    if on not in ("expert", "token", "both"):
        raise ValueError(f"on must be one of ('expert', 'token', 'both'), got {on!r}")
    if other not in ("none", "exact"):
        raise ValueError(f"other must be 'none' or 'exact', got {other!r}")
    norm = Normalisation(kind, eps)
    rest = Normalisation(other)
    expert = norm if on in ("expert", "both") else rest
    token = norm if on in ("token", "both") else rest
    suffix = "" if other == "none" or on == "both" else "+exact"
    return Router(f"{kind}-{on}{suffix}", expert, token, "pcr.pde.implementations")


#: The six normalisation variants of ``pcr.pde.implementations`` (the other vector unnormalised).
IMPLEMENTATION_VARIANTS: tuple[Router, ...] = tuple(
    normalised_router(kind, on)
    for kind in ("clamp", "additive")
    for on in ("expert", "token", "both")
)


#: The docstring parts of the four scores (:func:`moetheory._doccer.fill_doc`): their
#: vectors (the whole Parameters section of the linear and cosine scores), then the References
#: section.
_SCORE_DOC: dict[str, str] = {
    **REFERENCES,
    "beta1_x": r"""beta1 : sequence of float
    Expert embedding :math:`\beta_1`, length :math:`d_1 \ge 1`, finite entries.
x : sequence of float
    Token :math:`x`, same length, finite entries.""",
    "parameters": """Parameters
----------
%(beta1_x)s""",
}


@fill_doc(_SCORE_DOC)
def linear_score(beta1: Sequence[float], x: Sequence[float]) -> float:
    r"""The linear router score :math:`\beta_1^\top x`.

    %(parameters)s

    Returns
    -------
    float
        :math:`\beta_1^\top x`.

    Raises
    ------
    ValueError
        For non-finite entries or mismatched or empty vectors.

    See Also
    --------
    cosine_score, perturbed_cosine_score : the other scores.

    Notes
    -----
    The linear router of the softmax-gated MoE that [1]_ compares with.

    %(references)s

    Examples
    --------
    >>> linear_score([1.0, 2.0], [3.0, 4.0])
    11.0
    """
    return LINEAR.evaluate(beta1, x)


@fill_doc(_SCORE_DOC)
def cosine_score(beta1: Sequence[float], x: Sequence[float]) -> float:
    r"""The cosine router score of eq. (2), :math:`\beta_1^\top x / (\|\beta_1\|\,\|x\|)`.

    %(parameters)s

    Returns
    -------
    float
        The cosine of the angle between :math:`\beta_1` and :math:`x`, in :math:`[-1, 1]`.

    Raises
    ------
    ValueError
        For non-finite entries, mismatched or empty vectors, or a zero vector.

    See Also
    --------
    perturbed_cosine_score : the perturbed score, defined at zero.
    COSINE : the router as an object.

    Notes
    -----
    Eq. (2) of [1]_. The score is invariant under :math:`\beta_1 \to c\beta_1`,
    :math:`c > 0`, which gives the PDE (4).

    %(references)s

    Examples
    --------
    >>> cosine_score([2.0], [-5.0])
    -1.0
    >>> cosine_score([0.0, 0.0], [1.0, 0.0])
    Traceback (most recent call last):
    ...
    ValueError: beta1 must be non-zero for the cosine router
    """
    return COSINE.evaluate(beta1, x)


@fill_doc(_SCORE_DOC)
def perturbed_cosine_score(
    beta1: Sequence[float], x: Sequence[float], tau1: float, tau2: float
) -> float:
    r"""The perturbed cosine score of eq. (8).

    Parameters
    ----------
    %(beta1_x)s
    tau1, tau2 : float
        The perturbations :math:`\tau_1, \tau_2 \ge 0`.

    Returns
    -------
    float
        :math:`\beta_1^\top x / ((\|\beta_1\|+\tau_1)(\|x\|+\tau_2))`.

    Raises
    ------
    ValueError
        For a negative or non-finite ``tau1``/``tau2``, non-finite entries, or mismatched
        or empty vectors.

    See Also
    --------
    perturbed_cosine_router : the router as an object.
    cosine_score : the unperturbed score.

    Notes
    -----
    Eq. (8) of [1]_:

    .. math:: \tilde s = \frac{\beta_1^\top x}{(\|\beta_1\| + \tau_1)(\|x\| + \tau_2)},

    defined at :math:`x = 0` (where it is 0) when :math:`\tau_2 > 0`.

    %(references)s

    Examples
    --------
    >>> perturbed_cosine_score([3.0, 4.0], [0.0, 0.0], 1.0, 1.0)
    0.0
    >>> perturbed_cosine_score([3.0, 4.0], [1.0, 0.0], 1.0, 1.0)
    0.25
    >>> perturbed_cosine_score([1.0], [1.0], 1.0, float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: tau2 must be a finite number >= 0, got nan
    """
    return perturbed_cosine_router(tau1, tau2).evaluate(beta1, x)


@fill_doc(_SCORE_DOC)
def normalised_score(
    beta1: Sequence[float], x: Sequence[float], kind: str, on: str, eps: float
) -> float:
    r"""Score of a practical normalised router (see :func:`normalised_router`).

    Parameters
    ----------
    %(beta1_x)s
    kind : {"clamp", "additive"}
        The normalisation.
    on : {"expert", "token", "both"}
        The vector(s) normalised; the other is left as is.
    eps : float
        :math:`\varepsilon \ge 0` (``> 0`` for the clamp).

    Returns
    -------
    float
        The score.

    Raises
    ------
    ValueError
        For an invalid ``kind``, ``on`` or ``eps``, non-finite entries, or mismatched or
        empty vectors.

    See Also
    --------
    normalised_router : the router as an object.

    Notes
    -----
    E.g. for the clamp on the expert embedding,
    :math:`s = \beta_1^\top x / \max(\|\beta_1\|, \varepsilon)`.

    Examples
    --------
    >>> normalised_score([0.5, 0.0], [2.0, 0.0], "clamp", "expert", 1.0)
    1.0
    >>> normalised_score([3.0, 4.0], [5.0, 0.0], "clamp", "expert", 1.0)
    3.0
    """
    return normalised_router(kind, on, eps).evaluate(beta1, x)


@fill_doc(REFERENCES)
def gradient_norm_squared(
    router: Router, wrt: str, pieces: tuple[str, str] | None = None
) -> sp.Expr:
    r""":math:`\|\nabla s\|^2` with respect to :math:`x` or :math:`\beta_1`, dimension-free.

    Parameters
    ----------
    router : Router
        The router.
    wrt : {"x", "beta1"}
        The variable of the gradient.
    pieces : (str, str), optional
        Smooth pieces of a piecewise router; ``None`` uses the whole factors.

    Returns
    -------
    sympy.Expr
        :math:`\|\nabla s\|^2` in :data:`U`, :data:`NB`, :data:`NX` (and the router's
        :math:`\tau, \varepsilon`), valid in every dimension :math:`d_1 \ge 1`.

    Raises
    ------
    ValueError
        If ``wrt`` is not ``"x"`` or ``"beta1"``, or ``pieces`` is invalid.

    See Also
    --------
    Router.scalar_score : the score differentiated.

    Notes
    -----
    By the chain rule, with :math:`\nabla_x(\beta_1^\top x) = \beta_1` and
    :math:`\nabla_x \|x\| = x/\|x\|` (:math:`x \neq 0`),
    :math:`\nabla_x s = A\,\beta_1 + B\,x` with :math:`A = \partial s/\partial u` and
    :math:`B = (\partial s/\partial n_x)/n_x`, hence

    .. math:: \|\nabla_x s\|^2 = A^2 n_b^2 + 2ABu + B^2 n_x^2;

    symmetrically for :math:`\beta_1`. It measures the stability of the router near
    :math:`x = 0`, the motivation of the perturbation in [1]_.

    %(references)s

    Examples
    --------
    >>> g = gradient_norm_squared(COSINE, "x")
    >>> sp.cancel(g - (1 - U**2 / (NB * NX) ** 2) / NX**2)
    0
    """
    s = router.scalar_score(pieces=pieces)
    a = sp.diff(s, U)
    if wrt == "x":
        b = sp.diff(s, NX) / NX
        return sp.cancel(a**2 * NB**2 + 2 * a * b * U + b**2 * NX**2)
    if wrt == "beta1":
        b = sp.diff(s, NB) / NB
        return sp.cancel(a**2 * NX**2 + 2 * a * b * U + b**2 * NB**2)
    raise ValueError(f"wrt must be 'x' or 'beta1', got {wrt!r}")
