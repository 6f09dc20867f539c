r"""The parameter-interaction PDE (4) of seed 002, :math:`\beta_1^\top\partial H/\partial\beta_1=0`.

Here :math:`H(x, \beta_1, \eta) = \exp(s(x, \beta_1))\,h(x, \eta)` with an arbitrary (undefined)
expert function :math:`h` and a router score :math:`s` from :mod:`moetheory.routers`.

General dimension (Euler operator). For :math:`c > 0`, the chain rule gives
:math:`\beta_1^\top \nabla_{\beta_1} f(\beta_1) = \frac{d}{dc} f(c\beta_1)\big|_{c=1}`, and
:math:`(c\beta_1)^\top x = c\,\beta_1^\top x`, :math:`\|c\beta_1\| = c\|\beta_1\|`. Every score of
:mod:`moetheory.routers` depends on :math:`\beta_1` only through :math:`u = \beta_1^\top x` and
:math:`n_b = \|\beta_1\|`, so :math:`\beta_1^\top\partial H/\partial\beta_1` is obtained exactly
from the scalar form by substituting :math:`u \to cu`, :math:`n_b \to c n_b` and differentiating
in :math:`c` (:func:`euler_residual`); this holds for every :math:`d_1 \ge 1` at once.

Cross-checks: explicit coordinates in a fixed :math:`d_1` (:func:`explicit_check`, an exact
polynomial-remainder certificate) and mpmath numeric differentiation at >= 30 digits
(:func:`mp_check`).
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

from moetheory.routers import NB, NX, Router, U, coordinates

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
#: Placeholders for the token vector and the expert parameter inside :math:`h(x, \eta)`.
XVEC = sp.Symbol("x")
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


def expert() -> sp.Expr:
    r"""The undefined expert function :math:`h(x, \eta)`.

    Examples
    --------
    >>> expert()
    h(x, eta)
    """
    return _H(XVEC, ETA)


@dataclass(frozen=True)
class EulerResult:
    r"""The closed form of :math:`\beta_1^\top \partial H/\partial\beta_1` on one smooth piece.

    Attributes
    ----------
    score : sympy.Expr
        :math:`s(u, n_b, n_x)`.
    scaled_score : sympy.Expr
        :math:`s(cu, cn_b, n_x)`, the score at :math:`c\beta_1`.
    residual : sympy.Expr
        :math:`\beta_1^\top \partial H/\partial\beta_1 = \frac{d}{dc}H(x, c\beta_1, \eta)|_{c=1}`.
    ratio : sympy.Expr
        ``residual / H`` after cancellation (the Euler derivative of the score).
    vanishing : list of sympy.Expr
        Factors of ``ratio`` that can vanish; the residual is 0 exactly where one of them is,
        or where :math:`h(x, \eta) = 0`.
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
        """Whether (4) holds on the whole piece (the ratio cancels to exactly 0)."""
        return bool(self.ratio == 0)

    def vanishing_set(self) -> list[str]:
        """Human-readable conditions under which the residual is 0 on this piece."""
        if self.holds_identically:
            return ["everywhere on the piece"]
        return [f"{sp.sstr(f)} = 0" for f in self.vanishing] + ["h(x, eta) = 0"]


def euler_residual(router: Router, pieces: tuple[str, str] | None = None) -> EulerResult:
    r""":math:`\beta_1^\top\partial H/\partial\beta_1` in closed form, valid for every :math:`d_1`.

    Examples
    --------
    >>> from moetheory.routers import COSINE, perturbed_cosine_router
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
    """Factors of the numerator of ``expr`` that are not provably non-zero.

    Examples
    --------
    >>> from moetheory.routers import TAU1
    >>> vanishing_factors(TAU1 * U / (NB + TAU1) ** 2)
    [u]
    """
    if expr == 0:
        return []
    num, _ = sp.fraction(sp.together(expr))
    _, factors = sp.factor_list(num)
    return [f for f, _ in factors if not (f.is_positive or f.is_negative)]


def one_sided_euler(
    router: Router, at: sp.Expr, token_piece: str | None = None
) -> dict[str, sp.Expr]:
    r"""Right and left derivatives of :math:`c \mapsto s(c\beta_1)` at :math:`c=1` on the sphere
    :math:`\|\beta_1\| =` ``at`` where the expert clamp switches (``"inactive"`` for
    :math:`c > 1`, ``"active"`` for :math:`c < 1`).

    Examples
    --------
    >>> from moetheory.routers import EPS, normalised_router
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
    r"""Reduce an expression in coordinates modulo :math:`r_b^2 = \sum b_i^2`,
    :math:`r_x^2 = \sum x_i^2`, where :math:`r_b, r_x` stand for the norms.

    Half-integer powers of the squared norms (and, for :math:`d_1 = 1`, ``Abs`` and ``sign``)
    become powers of :math:`r_b, r_x`; the expression becomes one fraction of polynomials with
    rational coefficients (no gcd taken), and its numerator is reduced by polynomial division by
    :math:`r_b^2 - \sum b_i^2` and :math:`r_x^2 - \sum x_i^2`. A remainder of 0 is an exact
    certificate that ``expr`` vanishes wherever the norms are positive. Raises ``ValueError``
    for expressions that are not rational in the coordinates and the norms.

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


def _divide(term: sp.Expr, *factors: sp.Expr) -> sp.Expr:
    """``term / prod(factors)``: drop the factors from the product if present, else powsimp."""
    args = list(sp.Mul.make_args(term))
    for f in factors:
        if f not in args:
            return sp.powsimp(term / sp.Mul(*factors))
        args.remove(f)
    return sp.Mul(*args)


def explicit_check(result: EulerResult, d1: int) -> dict[str, Any]:
    r"""Recompute :math:`\sum_i \beta_{1,i}\,\partial H/\partial\beta_{1,i}` in coordinates
    (dimension ``d1``, componentwise derivatives, undefined :math:`h(x_1..x_{d_1}, \eta)`) and
    compare it with the closed form of ``result``.

    Returns a dict with the reduced difference (``"difference"``; 0 is an exact certificate,
    see :func:`reduce_norms`) and ``"agrees"``.

    Examples
    --------
    >>> from moetheory.routers import COSINE
    >>> explicit_check(euler_residual(COSINE), 1)["agrees"]
    True
    """
    beta1, x = coordinates(d1)
    h_expr = _H(*x, ETA)
    s = result.router.score(beta1, x, result.pieces)
    big_h = sp.exp(s) * h_expr
    lhs = sp.Add(*[bi * sp.diff(big_h, bi) for bi in beta1])
    u = (beta1.T * x)[0]
    nb = sp.sqrt(sp.Add(*[v**2 for v in beta1]))
    nx = sp.sqrt(sp.Add(*[v**2 for v in x]))
    closed = result.ratio.subs({U: u, NB: nb, NX: nx}, simultaneous=True)
    # H = exp(s) h cancels term by term (h does not depend on beta1).
    diff = sp.Add(*[_divide(term, sp.exp(s), h_expr) for term in sp.Add.make_args(lhs)]) - closed
    reduced = reduce_norms(diff, beta1, x)
    return {"d1": d1, "difference": reduced, "agrees": bool(reduced == 0)}


def sample_points(
    rng: np.random.Generator,
    d1: int,
    n: int,
    nb_range: tuple[float, float] = (0.5, 2.0),
    nx_range: tuple[float, float] = (0.5, 2.0),
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n`` random pairs ``(beta1, x)`` in dimension ``d1`` with norms in the given ranges.

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

    At each point, :math:`\sum_i \beta_{1,i}\,\partial H/\partial\beta_{1,i}` is computed with
    ``mpmath.diff`` (one partial derivative per coordinate) for the concrete expert
    :math:`h(x) = 2 + \sin(x_1 + \dots + x_{d_1})`, with ``params`` substituted for
    :math:`\tau_1, \tau_2, \varepsilon`. Agreement means an absolute error <= ``tol``.

    Examples
    --------
    >>> from moetheory.routers import COSINE
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
    r"""Exact certificate that ``expr >= 0`` when every symbol of ``nonneg`` is :math:`\ge 0`.

    ``expr`` is put over a common denominator; the certificate holds when numerator and
    denominator, expanded, are polynomials in ``nonneg`` with only non-negative coefficients
    (and the denominator is not the zero polynomial). With ``homogenise=(g, p)``, where
    :math:`g + p = 1` (e.g. :math:`\cos^2` and :math:`\sin^2`), every monomial :math:`g^k` of the
    numerator is first multiplied by :math:`(g + p)^{m - k}`, :math:`m` the degree in :math:`g`.

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


def linear_second_order_explicit(d1: int) -> dict[str, Any]:
    r"""Linear router and :math:`h = \varphi(a^\top x + b)` in coordinates of dimension ``d1``.

    Returns the componentwise differences
    :math:`\partial^2 H/\partial\beta_1\partial b - \partial H/\partial a` (expanded; all 0
    proves the identity in that dimension) and the Euler ratio
    :math:`(\beta_1^\top \partial H/\partial\beta_1)/H`.

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


def linear_second_order_scalar() -> dict[str, sp.Expr]:
    r"""Dimension-free form of the linear-router identities via directional derivatives.

    Moving :math:`\beta_1 \to \beta_1 + t_1 v` and :math:`a \to a + t_2 v` along any direction
    :math:`v` changes :math:`u = \beta_1^\top x` to :math:`u + t_1 w` and
    :math:`z = a^\top x + b` to :math:`z + t_2 w`, :math:`w = v^\top x`. Then
    :math:`v^\top \partial^2 H/\partial\beta_1\partial b = \partial_{t_1}\partial_b H` and
    :math:`v^\top \partial H/\partial a = \partial_{t_2} H` at 0; equal for every :math:`v`
    means the vectors are equal. The Euler derivative is :math:`\frac{d}{dc}H(c\beta_1)`.

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
    """Numeric Euler derivative ``d/dc f(c * point)`` at ``c = 1`` with mpmath (``dps`` >= 30).

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
