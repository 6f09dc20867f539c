r"""The parameter-interaction PDE (4) of seed 002, :math:`\beta_1^\top\partial H/\partial\beta_1=0`.

Here :math:`H(x, \beta_1, \eta) = \exp(s(x, \beta_1))\,h(x, \eta)` with an arbitrary (undefined)
expert function :math:`h` and a router score :math:`s` from :mod:`moetheory.symbolic.routers`.

General dimension (Euler operator). For :math:`c > 0`, the chain rule gives
:math:`\beta_1^\top \nabla_{\beta_1} f(\beta_1) = \frac{d}{dc} f(c\beta_1)\big|_{c=1}`, and
:math:`(c\beta_1)^\top x = c\,\beta_1^\top x`, :math:`\|c\beta_1\| = c\|\beta_1\|`. Every score of
:mod:`moetheory.symbolic.routers` depends on :math:`\beta_1` only through :math:`u = \beta_1^\top
x` and
:math:`n_b = \|\beta_1\|`, so :math:`\beta_1^\top\partial H/\partial\beta_1` is obtained exactly
from the scalar form by substituting :math:`u \to cu`, :math:`n_b \to c n_b` and differentiating
in :math:`c` (:func:`euler_residual`); this holds for every :math:`d_1 \ge 1` at once.

Cross-checks: explicit coordinates in a fixed :math:`d_1` (:func:`explicit_check`, an exact
polynomial-remainder certificate) and mpmath numeric differentiation at 30 digits or more
(:func:`mp_check`).

For a score of your own, written as a Python function of SymPy vectors, use
:func:`moetheory.symbolic.router_pde.router_pde`: it gives the verdict, the residual, where it
vanishes and the dimensions covered; the catalogue's PDE claims are decided by it and use this
module's dimension-free forms as a cross-check.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from sympy.polys.domains import QQ

from moetheory._doccer import fill_doc
from moetheory.symbolic._docs import REFERENCES
from moetheory.symbolic.routers import NB, NX, Router, U, coordinates

__all__ = [
    "ETA",
    "EULER_FACTS",
    "XVEC",
    "C",
    "EulerResult",
    "euler_residual",
    "expert",
    "explicit_check",
    "linear_second_order_explicit",
    "linear_second_order_scalar",
    "mp_check",
    "nonnegative_certificate",
    "numeric_euler",
    "one_sided_euler",
    "reduce_norms",
    "sample_points",
    "vanishing_factors",
]

#: The scaling variable of the Euler operator.
C = sp.Symbol("c", positive=True)
#: Placeholder for the token vector inside :math:`h(x, \eta)`.
XVEC = sp.Symbol("x")
#: Placeholder for the expert parameter inside :math:`h(x, \eta)`.
ETA = sp.Symbol("eta")
_H = sp.Function("h")

#: The facts about norms and inner products the general-:math:`d_1` argument uses.
EULER_FACTS: tuple[str, ...] = (
    "Euler operator: beta1^T grad_beta1 f(beta1) = d/dc f(c*beta1) at c = 1 (chain rule)",
    "(c*beta1)^T x = c * (beta1^T x) (linearity of the inner product)",
    "||c*beta1|| = c * ||beta1|| for c > 0 (homogeneity of the norm)",
    "h(x, eta) does not depend on beta1",
    "the score depends on beta1 only through u = beta1^T x and n_b = ||beta1||",
)


@fill_doc(REFERENCES)
def expert() -> sp.Expr:
    r"""The undefined expert function :math:`h(x, \eta)` of the PDE.

    Returns
    -------
    sympy.Expr
        ``h(x, eta)``, an undefined SymPy function of the placeholders :data:`XVEC` and
        :data:`ETA`; it does not depend on :math:`\beta_1`.

    See Also
    --------
    euler_residual : where :math:`H = e^{s}\,h` is differentiated.

    Notes
    -----
    Keeping :math:`h` undefined makes every result hold for all expert functions at once,
    as eq. (4) of [1]_ is stated.

    %(references)s

    Examples
    --------
    >>> expert()
    h(x, eta)
    """
    return _H(XVEC, ETA)


@dataclass(frozen=True)
@fill_doc(REFERENCES)
class EulerResult:
    r"""The closed form of :math:`\beta_1^\top \partial H/\partial\beta_1` on one smooth piece.

    Parameters
    ----------
    router : Router
        The router whose score :math:`s` enters :math:`H = e^{s} h`.
    pieces : (str, str)
        The smooth pieces ``(expert_piece, token_piece)`` of the score.
    region : sympy.Basic
        The region (in :math:`n_b, n_x`) where the pieces apply.
    score : sympy.Expr
        :math:`s(u, n_b, n_x)`.
    scaled_score : sympy.Expr
        :math:`s(cu, cn_b, n_x)`, the score at :math:`c\beta_1`.
    residual : sympy.Expr
        :math:`\beta_1^\top \partial H/\partial\beta_1 = \frac{d}{dc}H(x, c\beta_1, \eta)|_{c=1}`.
    ratio : sympy.Expr
        ``residual / H`` after cancellation (the Euler derivative of the score).
    vanishing : list of sympy.Expr, optional
        Factors of ``ratio`` that can vanish; the residual is 0 exactly where one of them is,
        or where :math:`h(x, \eta) = 0`.

    Raises
    ------
    TypeError
        If a required field is missing (the dataclass constructor).

    See Also
    --------
    euler_residual : builds the result.
    explicit_check, mp_check : the two independent cross-checks of it.

    Notes
    -----
    Eq. (4) of [1]_ holds on the piece exactly when :attr:`holds_identically`, i.e. when
    the ratio :math:`\frac{d}{dc} s(c\beta_1)|_{c=1}` cancels to 0.

    %(references)s

    Examples
    --------
    >>> from moetheory.symbolic.routers import COSINE
    >>> res = euler_residual(COSINE)
    >>> res.holds_identically, res.vanishing_set()
    (True, ['everywhere on the piece'])
    """

    router: Router
    pieces: tuple[str, str]
    region: Any
    score: sp.Expr
    scaled_score: sp.Expr
    residual: sp.Expr
    ratio: sp.Expr
    vanishing: list[sp.Expr] = field(default_factory=list)

    @property
    def holds_identically(self) -> bool:
        """Whether (4) holds on the whole piece (the ratio cancels to exactly 0).

        Returns
        -------
        bool
            ``ratio == 0`` structurally.

        Examples
        --------
        >>> from moetheory.symbolic.routers import perturbed_cosine_router
        >>> euler_residual(perturbed_cosine_router()).holds_identically
        False
        """
        return bool(self.ratio == 0)

    def vanishing_set(self) -> list[str]:
        """Human-readable conditions under which the residual is 0 on this piece.

        Returns
        -------
        list of str
            ``["everywhere on the piece"]``, or one ``"<factor> = 0"`` per vanishing factor plus
            ``"h(x, eta) = 0"``.

        Examples
        --------
        >>> from moetheory.symbolic.routers import perturbed_cosine_router
        >>> euler_residual(perturbed_cosine_router()).vanishing_set()
        ['u = 0', 'h(x, eta) = 0']
        """
        if self.holds_identically:
            return ["everywhere on the piece"]
        return [f"{sp.sstr(f)} = 0" for f in self.vanishing] + ["h(x, eta) = 0"]

    def _card(self) -> Any:
        from moetheory.engine.display import Card, literal

        lhs = r"\beta_1^\top \partial H/\partial\beta_1"
        where = ", ".join(f"${sp.latex(f)} = 0$" for f in self.vanishing)
        summary = (
            f"${lhs} = 0$ on the piece: eq. (4) holds, in every dimension $d_1 \\ge 1$"
            if self.holds_identically
            else f"${lhs} = H \\cdot {sp.latex(self.ratio)} \\ne 0$: eq. (4) fails; the "
            f"residual vanishes only where {where + ' or ' if where else ''}$h(x, \\eta) = 0$"
        )
        fields = [
            ("score", f"$s = {sp.latex(self.score)}$"),
            ("residual", f"${lhs} = {sp.latex(self.residual)}$"),
            ("ratio", f"$({lhs}) / H = {sp.latex(self.ratio)}$"),
        ]
        if len(self.router.piece_names()) > 1:  # a piecewise router: say which piece
            region = self.region
            fields += [
                ("pieces", literal(f"expert {self.pieces[0]}, token {self.pieces[1]}")),
                ("region", f"${sp.latex(region)}$" if isinstance(region, sp.Basic)
                 else literal(region)),
            ]
        return Card(title="Euler residual of the " + literal(self.router.name) + " router",
                    summary=summary, fields=fields)

    def _repr_markdown_(self) -> str:
        """The result in a notebook: the residual, the ratio and where it vanishes, typeset."""
        return str(self._card().markdown())

    def _repr_html_(self) -> str:
        """The result in a notebook, as escaped HTML with MathJax maths."""
        return str(self._card().html())

    def _repr_latex_(self) -> str:
        r"""The residual as one formula, :math:`\beta_1^\top \partial H/\partial\beta_1 = \dots`.

        Examples
        --------
        >>> from moetheory.symbolic.routers import COSINE
        >>> euler_residual(COSINE)._repr_latex_()
        '$\\beta_1^\\top \\frac{\\partial H}{\\partial \\beta_1} = 0$'
        """
        lhs = r"\beta_1^\top \frac{\partial H}{\partial \beta_1}"
        return f"${lhs} = {sp.latex(self.residual)}$"


@fill_doc(REFERENCES)
def euler_residual(router: Router, pieces: tuple[str, str] | None = None) -> EulerResult:
    r""":math:`\beta_1^\top\partial H/\partial\beta_1` in closed form, valid for every :math:`d_1`.

    Parameters
    ----------
    router : Router
        The router; its score enters :math:`H(x, \beta_1, \eta) = e^{s(x, \beta_1)} h(x, \eta)`.
    pieces : (str, str), optional
        The smooth pieces to use; required for a piecewise router (a clamp), whose pieces
        are listed by :meth:`Router.piece_names`.

    Returns
    -------
    EulerResult
        Score, scaled score, residual, ratio and the factors where the residual can vanish.

    Raises
    ------
    ValueError
        If ``pieces`` is omitted for a router with more than one piece, or is not one of its
        pieces.

    See Also
    --------
    moetheory.symbolic.router_pde.router_pde : the same question for any score.
    explicit_check : cross-check in coordinates of a fixed dimension.
    mp_check : cross-check by mpmath numeric differentiation.
    one_sided_euler : the derivative across the clamp's switch.

    Notes
    -----
    For :math:`c > 0` the chain rule gives
    :math:`\beta_1^\top \nabla_{\beta_1} f(\beta_1) = \frac{d}{dc} f(c\beta_1)\big|_{c=1}`;
    the score depends on :math:`\beta_1` only through :math:`u = \beta_1^\top x` and
    :math:`n_b = \|\beta_1\|`, which scale as :math:`cu` and :math:`cn_b`. Hence

    .. math:: \beta_1^\top \frac{\partial H}{\partial \beta_1}
              = \frac{d}{dc}\, e^{s(cu,\, cn_b,\, n_x)}\Big|_{c=1} h(x, \eta)
              = H \cdot \frac{d}{dc} s(cu, cn_b, n_x)\Big|_{c=1},

    exactly and in every dimension (:data:`EULER_FACTS`). For the cosine router the ratio
    is 0: this is the PDE (4) of [1]_. For the perturbed router of eq. (8) it is
    :math:`\tau_1 u / ((n_b + \tau_1)^2 (n_x + \tau_2))`.

    %(references)s

    Examples
    --------
    >>> from moetheory.symbolic.routers import COSINE, perturbed_cosine_router
    >>> euler_residual(COSINE).ratio
    0
    >>> r = euler_residual(perturbed_cosine_router())
    >>> r.ratio
    tau1*u/((n_b + tau1)**2*(n_x + tau2))
    >>> r.vanishing
    [u]
    """
    names = router.piece_names()
    if pieces is None:
        if len(names) != 1:
            raise ValueError(f"pieces must be one of {names} for the {router.name} router")
        pieces = names[0]
    score = router.scalar_score(pieces=pieces)
    scaled = router.scalar_score(C * U, C * NB, NX, pieces)
    h_expr = expert()
    residual = sp.diff(sp.exp(scaled) * h_expr, C).subs(C, 1)
    ratio = sp.factor(sp.cancel(residual / (sp.exp(score) * h_expr)))
    return EulerResult(
        router=router,
        pieces=pieces,
        region=router.condition(pieces),
        score=score,
        scaled_score=scaled,
        residual=residual,
        ratio=ratio,
        vanishing=vanishing_factors(ratio),
    )


def vanishing_factors(expr: sp.Expr) -> list[sp.Expr]:
    r"""Factors of the numerator of ``expr`` that are not provably non-zero.

    Parameters
    ----------
    expr : sympy.Expr
        A rational expression.

    Returns
    -------
    list of sympy.Expr
        The factors of the factored numerator whose sign SymPy cannot fix from the symbols'
        assumptions (empty for ``expr == 0``).

    Raises
    ------
    sympy.PolynomialError
        If the numerator cannot be factored as a polynomial (from ``sympy.factor_list``).

    See Also
    --------
    euler_residual : uses it for :attr:`EulerResult.vanishing`.

    Notes
    -----
    A factor with ``is_positive`` or ``is_negative`` true (e.g. :math:`\tau_1`,
    :math:`n_b + \tau_1` for positive symbols) never vanishes; the others, such as
    :math:`u = \beta_1^\top x`, describe where the residual is 0.

    Examples
    --------
    >>> from moetheory.symbolic.routers import TAU1
    >>> vanishing_factors(TAU1 * U / (NB + TAU1) ** 2)
    [u]
    """
    if expr == 0:
        return []
    num, _ = sp.fraction(sp.together(expr))
    _, factors = sp.factor_list(num)
    return [f for f, _ in factors if not (f.is_positive or f.is_negative)]


@fill_doc(REFERENCES)
def one_sided_euler(
    router: Router, at: sp.Expr, token_piece: str | None = None
) -> dict[str, sp.Expr]:
    r"""One-sided Euler derivatives of the score where the expert clamp switches.

    Parameters
    ----------
    router : Router
        A router whose expert embedding is clamped (``router.expert.kind == "clamp"``).
    at : sympy.Expr
        The norm :math:`\|\beta_1\|` at which to evaluate, normally the clamp's
        :math:`\varepsilon`.
    token_piece : str, optional
        Piece of the token normalisation; default the router's first.

    Returns
    -------
    dict of str to sympy.Expr
        ``"right"``: :math:`\frac{d}{dc^+} s(c\beta_1)` at :math:`c = 1` (piece
        ``"inactive"``, :math:`c > 1`), ``"left"``: the same from the left (piece
        ``"active"``), and ``"jump"``: right minus left.

    Raises
    ------
    ValueError
        If the router does not clamp the expert embedding.

    See Also
    --------
    euler_residual : the derivative on each smooth piece.

    Notes
    -----
    On the sphere :math:`\|\beta_1\| = \varepsilon` the clamp
    :math:`1/\max(\|\beta_1\|, \varepsilon)` is not differentiable: scaling outwards the
    score is scale invariant (right derivative 0, eq. (4) of [1]_ holds), scaling inwards
    it is linear in :math:`\beta_1` (left derivative :math:`u/\varepsilon`).

    %(references)s

    Examples
    --------
    >>> from moetheory.symbolic.routers import EPS, normalised_router
    >>> one_sided_euler(normalised_router("clamp", "expert"), EPS)
    {'right': 0, 'left': u/epsilon, 'jump': -u/epsilon}
    """
    if router.expert.kind != "clamp":
        raise ValueError("router must clamp the expert embedding (expert.kind == 'clamp')")
    token_piece = token_piece or router.piece_names()[0][1]
    out: dict[str, sp.Expr] = {}
    for side, piece in (("right", "inactive"), ("left", "active")):
        scaled = router.scalar_score(C * U, C * NB, NX, (piece, token_piece))
        out[side] = sp.cancel(sp.diff(scaled, C).subs(C, 1).subs(NB, at))
    out["jump"] = sp.cancel(out["right"] - out["left"])
    return out


def _to_fraction(
    expr: sp.Expr, gens: dict[sp.Symbol, Any], special: dict[sp.Expr, Any]
) -> tuple[Any, Any]:
    """Convert a rational expression to a pair (numerator, denominator) of ring elements.

    No gcd is taken (fast); the denominator is a product of the expression's denominators.
    """
    if expr in special:
        return special[expr]
    if expr.is_Symbol and expr in gens:
        return gens[expr], gens[expr].ring.one
    ring = next(iter(gens.values())).ring
    if expr.is_Rational:
        return ring(int(expr.p)), ring(int(expr.q))
    parts = [_to_fraction(a, gens, special) for a in expr.args]
    if expr.is_Mul:
        num, den = ring.one, ring.one
        for n, d in parts:
            num, den = num * n, den * d
        return num, den
    if expr.is_Add:
        by_den: dict[Any, Any] = {}
        for n, d in parts:
            by_den[d] = by_den.get(d, ring.zero) + n
        num, den = ring.zero, ring.one
        for d, n in by_den.items():
            num, den = num * d + n * den, den * d
        return num, den
    if expr.is_Pow and expr.exp.is_Integer:
        n, d = parts[0]
        k = int(expr.exp)
        return (n**k, d**k) if k >= 0 else (d ** (-k), n ** (-k))
    if expr.is_Pow and expr.exp.is_Rational and expr.exp.q == 2 and expr.base in special:
        n, d = special[expr.base]
        k = int(2 * expr.exp)
        return (n**k, d**k) if k >= 0 else (d ** (-k), n ** (-k))
    raise ValueError(f"cannot reduce {expr}: not rational in the coordinates and the norms")


def reduce_norms(expr: sp.Expr, beta1: sp.Matrix, x: sp.Matrix) -> sp.Expr:
    r"""Reduce an expression in coordinates modulo the definitions of the two norms.

    Parameters
    ----------
    expr : sympy.Expr
        An expression in the coordinates of ``beta1`` and ``x``, their norms (square roots
        of sums of squares) and other symbols, rational in all of them.
    beta1, x : sympy.Matrix
        The coordinate vectors (see :func:`moetheory.symbolic.routers.coordinates`).

    Returns
    -------
    sympy.Expr
        The remainder of the numerator modulo :math:`r_b^2 - \sum b_i^2` and
        :math:`r_x^2 - \sum x_i^2`, with :math:`r_b, r_x` (symbols ``r_b``, ``r_x``)
        standing for the norms. 0 is an exact certificate that ``expr`` vanishes wherever
        the norms are positive.

    Raises
    ------
    ValueError
        If ``expr`` is not rational in the coordinates and the norms.

    See Also
    --------
    explicit_check : uses the reduction as its certificate.

    Notes
    -----
    Half-integer powers of the squared norms (and, for :math:`d_1 = 1`, ``Abs`` and
    ``sign``) become powers of :math:`r_b, r_x`; the expression becomes one fraction of
    polynomials with rational coefficients (no gcd taken), and the numerator is divided by
    the two relations. Since the relations hold at every point, a zero remainder means the
    numerator, hence the expression, is 0 wherever the denominators are non-zero.

    Examples
    --------
    >>> b, x = coordinates(2)
    >>> nb = sp.sqrt(b[0] ** 2 + b[1] ** 2)
    >>> reduce_norms(nb**3 - (b[0] ** 2 + b[1] ** 2) * nb, b, x)
    0
    >>> reduce_norms(nb - b[0], b, x)
    -b1 + r_b
    """
    rb, rx = sp.Symbol("r_b", positive=True), sp.Symbol("r_x", positive=True)
    others = sorted(expr.free_symbols - set(beta1) - set(x), key=str)
    symbols = [rb, rx, *beta1, *x, *others]
    ring, *elements = sp.ring(symbols, QQ)
    gens = dict(zip(symbols, elements, strict=True))
    one = ring.one
    sb = sp.Add(*[v**2 for v in beta1])
    sx = sp.Add(*[v**2 for v in x])
    special: dict[sp.Expr, Any] = {sb: (gens[rb], one), sx: (gens[rx], one)}
    if len(beta1) == 1:
        (b1,), (x1,) = beta1, x
        special |= {
            sp.Abs(b1): (gens[rb], one),
            sp.Abs(x1): (gens[rx], one),
            sp.sign(b1): (gens[rb], gens[b1]),
            sp.sign(x1): (gens[rx], gens[x1]),
        }
    num, _ = _to_fraction(sp.sympify(expr), gens, special)
    relations = [
        gens[rb] ** 2 - sum(gens[v] ** 2 for v in beta1),
        gens[rx] ** 2 - sum(gens[v] ** 2 for v in x),
    ]
    return num.rem(relations).as_expr()


@fill_doc(REFERENCES)
def explicit_check(result: EulerResult, d1: int) -> dict[str, Any]:
    r"""Recompute :math:`\beta_1^\top \partial H/\partial\beta_1` in coordinates and compare.

    Parameters
    ----------
    result : EulerResult
        The closed form to check (from :func:`euler_residual`).
    d1 : int
        Dimension :math:`d_1 \ge 1` of the coordinates.

    Returns
    -------
    dict
        ``"d1"``, ``"difference"`` (the reduced difference, see :func:`reduce_norms`; 0 is
        an exact certificate) and ``"agrees"`` (bool).

    Raises
    ------
    ValueError
        If ``d1`` is not a positive integer (from :func:`~moetheory.symbolic.routers.coordinates`),
        or
        the difference is not rational in the coordinates and norms.

    See Also
    --------
    euler_residual : the closed form checked.
    mp_check : the numeric cross-check.

    Notes
    -----
    The left side over :math:`H = e^{s} h`,
    :math:`\sum_i \beta_{1,i}\, \partial H/\partial\beta_{1,i} / H
    = \sum_i \beta_{1,i}\, \partial s/\partial\beta_{1,i}` (the expert does not depend on
    :math:`\beta_1`), is differentiated componentwise, and the closed form, with
    :math:`u, n_b, n_x` substituted by their coordinate expressions, is subtracted. Eq. (4)
    of [1]_ is thereby checked in dimension :math:`d_1` independently of the Euler-operator
    argument.

    %(references)s

    Examples
    --------
    >>> from moetheory.symbolic.routers import COSINE
    >>> explicit_check(euler_residual(COSINE), 1)["agrees"]
    True
    """
    beta1, x = coordinates(d1)
    s = result.router.score(beta1, x, result.pieces)
    # dH/dbeta_1i = H ds/dbeta_1i: h does not depend on beta1, so H divides out exactly
    lhs = sp.Add(*[bi * sp.diff(s, bi) for bi in beta1])
    u = (beta1.T * x)[0]
    nb = sp.sqrt(sp.Add(*[v**2 for v in beta1]))
    nx = sp.sqrt(sp.Add(*[v**2 for v in x]))
    closed = result.ratio.subs({U: u, NB: nb, NX: nx}, simultaneous=True)
    reduced = reduce_norms(lhs - closed, beta1, x)
    return {"d1": d1, "difference": reduced, "agrees": bool(reduced == 0)}


def sample_points(
    rng: np.random.Generator,
    d1: int,
    n: int,
    nb_range: tuple[float, float] = (0.5, 2.0),
    nx_range: tuple[float, float] = (0.5, 2.0),
) -> list[tuple[np.ndarray, np.ndarray]]:
    r"""``n`` random pairs :math:`(\beta_1, x)` in dimension ``d1`` with norms in the given ranges.

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of the directions and norms.
    d1 : int
        Dimension :math:`d_1 \ge 1`.
    n : int
        Number of pairs, ``n >= 1``.
    nb_range, nx_range : (float, float), optional
        Ranges of :math:`\|\beta_1\|` and :math:`\|x\|`; default (0.5, 2.0).

    Returns
    -------
    list of (ndarray, ndarray)
        ``n`` pairs of arrays of shape ``(d1,)``.

    Raises
    ------
    ValueError
        If ``d1`` is not a positive integer or ``n < 1``.

    See Also
    --------
    mp_check : evaluates the closed form at these points.

    Notes
    -----
    A Gaussian direction is normalised with a correctly rounded norm
    (``math.fsum`` and ``math.sqrt``) and scaled to a uniform radius, so the points, and
    the mpmath errors reported at them, have the same bits on every BLAS and SIMD path.

    Examples
    --------
    >>> pts = sample_points(np.random.default_rng(0), 3, 2, (1.0, 1.0))
    >>> [round(float(np.linalg.norm(b)), 12) for b, _ in pts]
    [1.0, 1.0]
    """
    if isinstance(d1, bool) or not isinstance(d1, int | np.integer) or d1 < 1:
        raise ValueError(f"d1 must be an integer >= 1, got {d1!r}")
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n!r}")
    out = []
    for _ in range(n):
        pair = []
        for lo, hi in (nb_range, nx_range):
            v = rng.standard_normal(d1)
            # math.fsum + sqrt are correctly rounded: the same bits on every BLAS and SIMD
            # path (np.linalg.norm is not), so the reported mpmath errors are too.
            norm = math.sqrt(math.fsum(float(t) * float(t) for t in v))
            pair.append(v / norm * rng.uniform(lo, hi))
        out.append((pair[0], pair[1]))
    return out


def mp_check(
    result: EulerResult,
    points: Sequence[tuple[np.ndarray, np.ndarray]],
    params: Mapping[sp.Symbol, Any],
    dps: int = 40,
    tol: float = 1e-25,
) -> dict[str, Any]:
    r"""Compare the closed form with mpmath numeric differentiation at ``dps`` digits.

    Parameters
    ----------
    result : EulerResult
        The closed form to check.
    points : sequence of (ndarray, ndarray)
        Pairs :math:`(\beta_1, x)` (see :func:`sample_points`), at least one.
    params : mapping of sympy.Symbol to number
        Values of the router's symbols :math:`\tau_1, \tau_2, \varepsilon` (empty for the
        cosine router).
    dps : int, optional
        Working precision in decimal digits, ``>= 30``; default 40.
    tol : float, optional
        Largest absolute error counted as agreement, ``> 0``; default :math:`10^{-25}`.

    Returns
    -------
    dict
        ``"dps"``, ``"tol"``, ``"points"`` (per point: ``beta1``, ``x``, the numeric and
        closed-form values as 20-digit strings, ``abs_error``), ``"max_abs_error"`` and
        ``"agrees"`` (bool).

    Raises
    ------
    ValueError
        If ``dps < 30``, ``points`` is empty or ``tol`` is not positive.

    See Also
    --------
    explicit_check : the exact cross-check in coordinates.
    numeric_euler : the numeric Euler derivative of a plain function.

    Notes
    -----
    At each point :math:`\sum_i \beta_{1,i}\, \partial H/\partial\beta_{1,i}` is computed
    with ``mpmath.diff`` (one partial derivative per coordinate) for the concrete expert
    :math:`h(x) = 2 + \sin(x_1 + \dots + x_{d_1})`, and compared with the closed form
    ``ratio * H``.

    Examples
    --------
    >>> from moetheory.symbolic.routers import COSINE
    >>> pts = sample_points(np.random.default_rng(1), 2, 1)
    >>> mp_check(euler_residual(COSINE), pts, {})["agrees"]
    True
    """
    if dps < 30:
        raise ValueError(f"dps must be >= 30, got {dps}")
    if len(points) < 1:
        raise ValueError("points must contain at least one (beta1, x) pair")
    if not tol > 0:
        raise ValueError(f"tol must be > 0, got {tol}")
    score_f = sp.lambdify((U, NB, NX), result.score.subs(params), "mpmath")
    ratio_f = sp.lambdify((U, NB, NX), result.ratio.subs(params), "mpmath")
    rows = []
    with mpmath.workdps(dps):
        for beta1, x in points:
            xm = [mpmath.mpf(float(t)) for t in x]
            bm = [mpmath.mpf(float(t)) for t in beta1]
            nx = mpmath.sqrt(mpmath.fsum(t**2 for t in xm))
            hx = 2 + mpmath.sin(mpmath.fsum(xm))

            def big_h(*bs: Any, xm: list = xm, nx: Any = nx, hx: Any = hx) -> Any:
                u = mpmath.fsum(p * q for p, q in zip(bs, xm, strict=True))
                nb = mpmath.sqrt(mpmath.fsum(t**2 for t in bs))
                return mpmath.exp(score_f(u, nb, nx)) * hx

            d1 = len(bm)
            lhs = mpmath.fsum(
                bm[i] * mpmath.diff(big_h, bm, tuple(int(j == i) for j in range(d1)))
                for i in range(d1)
            )
            u = mpmath.fsum(p * q for p, q in zip(bm, xm, strict=True))
            nb = mpmath.sqrt(mpmath.fsum(t**2 for t in bm))
            closed = ratio_f(u, nb, nx) * big_h(*bm)
            rows.append(
                {
                    "beta1": [float(t) for t in beta1],
                    "x": [float(t) for t in x],
                    "numeric": mpmath.nstr(lhs, 20),
                    "closed_form": mpmath.nstr(closed, 20),
                    "abs_error": float(abs(lhs - closed)),
                }
            )
    worst = max(r["abs_error"] for r in rows)
    return {"dps": dps, "tol": tol, "points": rows, "max_abs_error": worst,
            "agrees": bool(worst <= tol)}


def nonnegative_certificate(
    expr: sp.Expr,
    nonneg: Sequence[sp.Symbol],
    homogenise: tuple[sp.Symbol, sp.Symbol] | None = None,
) -> dict[str, Any]:
    r"""Exact certificate that ``expr >= 0`` when every symbol of ``nonneg`` is non-negative.

    Parameters
    ----------
    expr : sympy.Expr
        A rational expression.
    nonneg : sequence of sympy.Symbol
        The variables, all assumed :math:`\ge 0`; the polynomials are taken in them.
    homogenise : (sympy.Symbol, sympy.Symbol), optional
        A pair :math:`(g, p)` with :math:`g + p = 1` (e.g. :math:`\cos^2` and
        :math:`\sin^2`) used to homogenise the numerator first.

    Returns
    -------
    dict
        ``"numerator"`` and ``"denominator"`` (expanded polynomials), ``"certified"``
        (bool) and ``"method"`` (the argument, in words).

    Raises
    ------
    sympy.PolynomialError
        If the numerator or denominator is not a polynomial in ``nonneg`` (from
        ``sympy.Poly``).

    See Also
    --------
    gradient_norm_squared : expressions whose sign is certified this way.

    Notes
    -----
    After :math:`expr = P/Q` over a common denominator, the certificate holds when every
    coefficient of :math:`P` and of :math:`Q \ne 0` is non-negative: a polynomial with
    non-negative coefficients is non-negative on the non-negative orthant. With
    ``homogenise``, each monomial :math:`g^k` of :math:`P` is multiplied by
    :math:`(g + p)^{m - k} = 1`, :math:`m` the degree of :math:`P` in :math:`g`. A
    ``False`` result is no proof of the opposite.

    Examples
    --------
    >>> a, b = sp.symbols("a b", nonnegative=True)
    >>> nonnegative_certificate((a + b) ** 2 - 2 * a * b, [a, b])["certified"]
    True
    >>> nonnegative_certificate(a - b, [a, b])["certified"]
    False
    """
    num, den = sp.fraction(sp.cancel(sp.together(expr)))
    if homogenise is not None:
        g, p = homogenise
        poly_g = sp.Poly(sp.expand(num), g)
        m = poly_g.degree()
        num = sp.Add(
            *[coeff * g**k * (g + p) ** (m - k) for (k,), coeff in poly_g.terms()]
        )
    gens = list(nonneg)
    pn = sp.Poly(sp.expand(num), *gens)
    pd = sp.Poly(sp.expand(den), *gens)
    ok_num = all(c.is_nonnegative for c in pn.coeffs())
    ok_den = all(c.is_nonnegative for c in pd.coeffs()) and not pd.is_zero
    return {
        "numerator": pn.as_expr(),
        "denominator": pd.as_expr(),
        "certified": bool(ok_num and ok_den),
        "method": "numerator and denominator are polynomials with non-negative coefficients "
        "in non-negative variables",
    }


@fill_doc(REFERENCES)
def linear_second_order_explicit(d1: int) -> dict[str, Any]:
    r"""Linear router and :math:`h = \varphi(a^\top x + b)` in coordinates of dimension ``d1``.

    Parameters
    ----------
    d1 : int
        Dimension :math:`d_1 \ge 1`.

    Returns
    -------
    dict
        ``"d1"``; ``"differences"``, the componentwise
        :math:`\partial^2 H/\partial\beta_1\partial b - \partial H/\partial a` (expanded; all
        0 proves the identity in that dimension); ``"identity_holds"`` (bool); and
        ``"euler_ratio"``, :math:`(\beta_1^\top \partial H/\partial\beta_1)/H`.

    Raises
    ------
    ValueError
        If ``d1`` is not a positive integer (from :func:`~moetheory.symbolic.routers.coordinates`).

    See Also
    --------
    linear_second_order_scalar : the same identities in every dimension.

    Notes
    -----
    With :math:`H = \exp(\beta_1^\top x)\, \varphi(a^\top x + b)`,

    .. math:: \frac{\partial^2 H}{\partial \beta_1 \partial b} = \frac{\partial H}{\partial a}
              = x\, e^{\beta_1^\top x} \varphi'(a^\top x + b),

    the parameter interaction of the linear-router MoE that [1]_ contrasts with eq. (4);
    and :math:`\beta_1^\top \partial H/\partial\beta_1 = (\beta_1^\top x) H \ne 0`.

    %(references)s

    Examples
    --------
    >>> r = linear_second_order_explicit(2)
    >>> r["identity_holds"], r["euler_ratio"]
    (True, b1*x1 + b2*x2)
    """
    beta1, x = coordinates(d1)
    a = sp.Matrix(sp.symbols(f"a1:{d1 + 1}", real=True))
    bias = sp.Symbol("b", real=True)
    phi = sp.Function("phi")
    big_h = sp.exp((beta1.T * x)[0]) * phi((a.T * x)[0] + bias)
    diffs = [
        sp.expand(sp.diff(big_h, bias, bi) - sp.diff(big_h, ai))
        for bi, ai in zip(beta1, a, strict=True)
    ]
    euler = sp.Add(*[bi * sp.diff(big_h, bi) for bi in beta1])
    return {
        "d1": d1,
        "differences": diffs,
        "identity_holds": all(d == 0 for d in diffs),
        "euler_ratio": sp.expand(sp.cancel(euler / big_h)),
    }


@fill_doc(REFERENCES)
def linear_second_order_scalar() -> dict[str, sp.Expr]:
    r"""Dimension-free form of the linear-router identities, via directional derivatives.

    Returns
    -------
    dict of str to sympy.Expr
        ``"H"``, ``"mixed"`` (:math:`v^\top \partial^2 H/\partial\beta_1\partial b`),
        ``"d_a"`` (:math:`v^\top \partial H/\partial a`), ``"difference"`` (their expanded
        difference, 0), ``"euler"`` and ``"euler_ratio"`` (:math:`u`).

    See Also
    --------
    linear_second_order_explicit : the same in coordinates.

    Notes
    -----
    Moving :math:`\beta_1 \to \beta_1 + t_1 v` and :math:`a \to a + t_2 v` along any
    direction :math:`v` changes :math:`u = \beta_1^\top x` to :math:`u + t_1 w` and
    :math:`z = a^\top x + b` to :math:`z + t_2 w`, :math:`w = v^\top x`. Then
    :math:`v^\top \partial^2 H/\partial\beta_1\partial b = \partial_{t_1}\partial_b H` and
    :math:`v^\top \partial H/\partial a = \partial_{t_2} H` at 0; equal for every :math:`v`
    means the vectors are equal, in every dimension. The Euler derivative is
    :math:`\frac{d}{dc}H(c\beta_1)` at :math:`c = 1`.

    %(references)s

    Examples
    --------
    >>> linear_second_order_scalar()["difference"]
    0
    """
    t1, t2, w, z, bias = sp.symbols("t1 t2 w z b", real=True)
    phi = sp.Function("phi")
    big_h = sp.exp(U + t1 * w) * phi(z + t2 * w + bias)
    mixed = sp.diff(big_h, bias, t1).subs({t1: 0, t2: 0})
    da = sp.diff(big_h, t2).subs({t1: 0, t2: 0})
    scaled = sp.exp(C * U) * phi(z + bias)
    euler = sp.diff(scaled, C).subs(C, 1)
    return {
        "H": big_h.subs({t1: 0, t2: 0}),
        "mixed": mixed,
        "d_a": da,
        "difference": sp.expand(mixed - da),
        "euler": euler,
        "euler_ratio": sp.cancel(euler / big_h.subs({t1: 0, t2: 0})),
    }


def numeric_euler(f: Callable[..., Any], point: Sequence[Any], dps: int = 40) -> Any:
    r"""Numeric Euler derivative :math:`\frac{d}{dc} f(c\,p)` at :math:`c = 1`, with mpmath.

    Parameters
    ----------
    f : callable
        A function of the coordinates, ``f(*coords)``, accepting mpmath numbers.
    point : sequence of float
        The point :math:`p`.
    dps : int, optional
        Working precision in decimal digits, ``>= 30``; default 40.

    Returns
    -------
    mpmath.mpf
        :math:`p^\top \nabla f(p)`.

    Raises
    ------
    ValueError
        If ``dps < 30``.

    See Also
    --------
    euler_residual : the exact Euler derivative of the router's :math:`H`.

    Notes
    -----
    By the chain rule :math:`\frac{d}{dc} f(cp)|_{c=1} = p^\top \nabla f(p)`, the Euler
    operator of eq. (4).

    Examples
    --------
    >>> float(numeric_euler(lambda a, b: a * a + b, [1.0, 2.0]))
    4.0
    """
    if dps < 30:
        raise ValueError(f"dps must be >= 30, got {dps}")
    with mpmath.workdps(dps):
        pm = [mpmath.mpf(float(t)) for t in point]
        return mpmath.diff(lambda c: f(*[c * t for t in pm]), 1)
