r"""Decide linear (in)dependence of finitely many functions of one real variable, with certificates.

":math:`f_1, \dots, f_n` are linearly independent for almost every :math:`x`" means: if
:math:`c_1 f_1(x) + \dots + c_n f_n(x) = 0` for almost every real :math:`x`, then
:math:`c = 0`. The families
handled are piecewise analytic: the real line splits at finitely many breakpoints (the real
zeros *and poles* of the arguments of ``Piecewise`` conditions, ``Abs``, ``Heaviside``,
``sign``, ``Max``, ``Min``, and the real poles of the functions) into open *regions* on each
of which every ``f_i`` is one analytic expression. Inputs that are not of this kind are refused
with a ``ValueError`` before any work: step functions with infinitely many jumps (``floor``,
``ceiling``, ``frac``, ``Mod``), branch conditions that are not polynomial (or rational) in
``x``, Dirac deltas, undefined functions.

Certificates
------------
* **independent** -- points :math:`x_1, \dots, x_n` inside regions at which the matrix
  :math:`M_{ri} = f_i(x_r)` is nonsingular: its determinant is computed in exact rational
  arithmetic when all entries are rational, otherwise as a rigorous interval enclosure
  (``mpmath.iv``, outward rounding) that excludes 0. A combination vanishing a.e. vanishes at
  every interior point of a region by continuity, hence ``M c = 0`` and ``c = 0``.
* **dependent** -- the null space ``{c : Σ c_i f_i = 0 a.e.}`` as its reduced-row-echelon
  basis over the field of the entries (rows scaled to coprime integers when rational). Each
  basis vector was verified exactly: on *every* region the combination simplifies to 0 (by
  expansion, the exponential form, ``simplify``, or -- when those fail -- a derivative that
  simplifies to 0 plus a vanishing value at one point of the region). When the rank is also
  certified (a nonsingular ``r × r`` minor, exact or interval) and ``n - r`` vectors verify,
  the basis spans the whole null space (``null_space_complete``).
* otherwise **inconclusive**, never a guess.

Canonical, machine-independent certificates
-------------------------------------------
Floating point only proposes (which points, which null vectors), and even the proposals are
identical on every machine: the sample points are dyadic rationals from a fixed rule, the
function values come from ``mpmath`` (pure-Python arithmetic) rounded once to doubles, and the
elimination that picks points and pivot columns is plain Python float arithmetic (IEEE, no
BLAS, no SIMD). Irrational null-vector entries are recognised by an integer-relation search
(``mpmath.identify``/PSLQ at 50 digits) and then verified symbolically. What is reported --
points, determinants, the reduced-row-echelon null-space basis -- is therefore the same on
every machine.

Examples
--------
>>> import sympy as sp
>>> x = sp.Symbol("x", real=True)
>>> decide_linear_independence([1, x, x**2], x).status
'independent'
>>> r = decide_linear_independence([sp.sin(x)**2, sp.cos(x)**2, 1], x)
>>> r.status, r.coefficients
('dependent', [1, 1, -1])
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from mpmath import iv
from sympy.polys.domains import QQ
from sympy.polys.matrices import DomainMatrix

from moetheory.symbolic._interval_eval import (
    _erf_plus_one,
    _exact_det,
    _interval_det,
    _interval_text,
    interval_value,
)
from moetheory.symbolic._time_limit import TimeLimitExceeded, check_time, time_limit
from moetheory.symbolic.linear_independence._numeric import (  # noqa: F401 (NotRealValued)
    NotRealValued,
    Region,
    _candidate_points,
    _mp_evaluators,
    _rational_inside,
    _scattered_points,
    _value_matrix,
    declared_interval,
)

__all__ = [
    "LinearIndependenceResult",
    "Region",
    "activation_regions",
    "canonical_null_basis",
    "decide_linear_independence",
    "declared_interval",
    "interval_value",
    "numeric_rank_deficiency",
    "restrict_to_region",
    "vanishes_on_region",
    "verify_certificate",
]

_BRANCHING = (sp.Piecewise, sp.Abs, sp.Heaviside, sp.Max, sp.Min, sp.sign)

#: Functions with infinitely many jumps (or not piecewise analytic with finitely many pieces):
#: refused, because evaluating them at points cannot decide an almost-everywhere statement.
_REFUSED: tuple[type, ...] = (sp.floor, sp.ceiling, sp.frac, sp.Mod, sp.DiracDelta,
                              sp.Derivative, sp.Integral, sp.Subs)


@dataclass
class LinearIndependenceResult:
    """Outcome of :func:`decide_linear_independence`.

    Attributes
    ----------
    status : {"independent", "dependent", "inconclusive"}
    functions : list of sympy.Expr
    x : sympy.Symbol
    regions : list of Region
    points : list of sympy.Rational
        Independence certificate: the evaluation points.
    determinant : sympy.Rational or None
        Exact determinant of ``M`` (rational case).
    determinant_interval : tuple of str or None
        Interval enclosure ``(lo, hi)`` of the determinant (non-rational case).
    coefficients : list of sympy.Expr
        Dependence certificate: the first row of the reduced-row-echelon null-space basis.
    residuals : list of sympy.Expr
        The combination on each region (all exactly 0 for a certificate).
    nullity : int
        Number of exactly verified null-space basis vectors (the null-space dimension when
        ``null_space_complete``, a lower bound otherwise).
    others : list of list
        The other rows of the reduced-row-echelon basis.
    numerical_rank : int
        The rank found by the (machine-independent) float elimination that proposed the
        route (a hint, not a verdict).
    null_space_complete : bool
        Whether the basis provably spans the whole null space (rank certified by a nonsingular
        minor at ``rank_points`` x ``rank_columns``).
    rank_points, rank_columns : list
        The minor certifying rank ``n - nullity`` (dependence case).
    rank_determinant : str
        Its exact determinant or interval enclosure.
    reason : str
        Why the status was reached.
    interval_dps : int
        Digits of the interval arithmetic that separated a determinant from 0 (0 if none
        was needed); :func:`verify_certificate` rechecks with at least as many.

    Notes
    -----
    :meth:`evidence` is the JSON certificate; :func:`verify_certificate` rechecks it from the
    original functions.

    See Also
    --------
    decide_linear_independence : builds it.
    verify_certificate : rechecks it.

    Examples
    --------
    >>> x = sp.Symbol("x", real=True)
    >>> r = decide_linear_independence([1, x], x)
    >>> r.status, r.determinant
    ('independent', 21/4)
    """

    status: str
    functions: list[sp.Expr]
    x: sp.Symbol
    regions: list[Region] = field(default_factory=list)
    points: list[sp.Rational] = field(default_factory=list)
    determinant: sp.Rational | None = None
    determinant_interval: tuple[str, str] | None = None
    coefficients: list[sp.Expr] = field(default_factory=list)
    residuals: list[sp.Expr] = field(default_factory=list)
    nullity: int = 0
    others: list[list[sp.Expr]] = field(default_factory=list)
    numerical_rank: int = 0
    null_space_complete: bool = False
    rank_points: list[sp.Rational] = field(default_factory=list)
    rank_columns: list[int] = field(default_factory=list)
    rank_determinant: str = ""
    reason: str = ""
    interval_dps: int = 0

    @property
    def null_space(self) -> list[list[sp.Expr]]:
        """The reduced-row-echelon basis of the verified null vectors (rows)."""
        return [self.coefficients, *self.others] if self.coefficients else []

    @property
    def method(self) -> str:
        if self.status == "independent":
            kind = "exact rational" if self.determinant is not None else "interval (mpmath.iv)"
            return f"nonsingular evaluation matrix at {len(self.points)} points, {kind} determinant"
        if self.status == "dependent":
            return ("reduced-row-echelon null-space basis, each vector's combination shown to "
                    "be 0 on every region")
        return "none"

    def evidence(self) -> dict[str, Any]:
        """JSON-able certificate a reader can recheck (identical on every machine)."""
        ev: dict[str, Any] = {
            "status": self.status,
            "method": self.method,
            "n_functions": len(self.functions),
            "numerical_rank": self.numerical_rank,
            "regions": [[sp.sstr(r.lower), sp.sstr(r.upper)] for r in self.regions],
            "reason": self.reason,
        }
        if self.status == "independent":
            ev["points"] = [sp.sstr(p) for p in self.points]
            if self.determinant is not None:
                ev["determinant"] = sp.sstr(self.determinant)
            else:
                ev["determinant_interval"] = list(self.determinant_interval or ())
                ev["interval_note"] = (
                    "rigorous mpmath.iv enclosure computed at 60+ digits with outward rounding; "
                    "endpoints printed to 25 significant digits"
                )
                if self.interval_dps > 60:
                    ev["interval_dps"] = self.interval_dps
        if self.status == "dependent":
            ev["coefficients"] = [sp.sstr(c) for c in self.coefficients]
            ev["residual_per_region"] = [sp.sstr(r) for r in self.residuals]
            ev["verified_null_vectors"] = self.nullity
            ev["other_null_vectors"] = [[sp.sstr(c) for c in v] for v in self.others]
            ev["null_space_basis"] = "reduced row echelon form, rows scaled to coprime integers"
            ev["null_space_complete"] = self.null_space_complete
            if self.null_space_complete:
                ev["rank_certificate"] = {
                    "rank": len(self.functions) - self.nullity,
                    "points": [sp.sstr(p) for p in self.rank_points],
                    "columns": list(self.rank_columns),
                    "determinant": self.rank_determinant,
                }
        return ev


# ----------------------------------------------------------------------------- regions


def _branch_args(expr: sp.Expr) -> list[sp.Expr]:
    out: list[sp.Expr] = []
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Piecewise):
            for _, cond in node.args:
                if not isinstance(cond, sp.logic.boolalg.Boolean):
                    continue
                for rel in cond.atoms(sp.core.relational.Relational):
                    out.append(rel.lhs - rel.rhs)
        elif isinstance(node, sp.Abs | sp.Heaviside | sp.sign):
            out.append(node.args[0])
        elif isinstance(node, sp.Max | sp.Min):
            args = node.args
            out += [args[i] - args[j] for i in range(len(args)) for j in range(i + 1, len(args))]
    return out


def _real_roots(p: sp.Expr, x: sp.Symbol, what: str, g: sp.Expr) -> list[sp.Expr]:
    if x not in p.free_symbols:
        return []
    if not p.is_polynomial(x):
        raise ValueError(
            f"functions: cannot locate the {what} of {g} (not a rational function of x); "
            "only polynomial or rational branch conditions are decidable"
        )
    poly = sp.Poly(p, x)
    if any(not c.is_number for c in poly.all_coeffs()):
        raise ValueError(f"functions: breakpoint {g} depends on symbols other than x")
    return _poly_real_roots(poly, what, g)


def _poly_real_roots(poly: sp.Poly, what: str, g: sp.Expr) -> list[sp.Expr]:
    """The distinct real roots of a polynomial with numeric coefficients, exactly.

    Rational (or algebraic) coefficients: ``sympy.real_roots``. Other real constants (``pi``,
    ``E``): only degree 1 is located (its root is ``-c0/c1``); higher degrees are refused.
    """
    coeffs = poly.all_coeffs()
    if all(c.is_Rational or c.is_algebraic for c in coeffs):
        try:
            return list(dict.fromkeys(sp.real_roots(poly)))
        except NotImplementedError:
            pass
    if poly.degree() <= 0:
        return []
    if poly.degree() == 1 and all(c.is_real for c in coeffs):
        return [-coeffs[1] / coeffs[0]]
    raise ValueError(
        f"functions: cannot locate the {what} of {g} exactly (a polynomial of degree "
        f"{poly.degree()} with coefficients that are not algebraic numbers)"
    )


def _real_zeros(g: sp.Expr, x: sp.Symbol) -> list[sp.Expr]:
    """Real zeros *and poles* of ``g``: both are places where its sign can change."""
    g = sp.together(sp.sympify(g))
    if x not in g.free_symbols:
        return []
    num, den = sp.fraction(g)
    return _real_roots(num, x, "breakpoints", g) + _real_roots(den, x, "poles", g)


def _poles(f: sp.Expr, x: sp.Symbol) -> list[sp.Expr]:
    """Real poles of the rational parts of ``f`` (denominators polynomial in x); others are
    skipped (the sample points are checked to be finite)."""
    out: list[sp.Expr] = []
    for node in sp.preorder_traversal(f):
        if isinstance(node, sp.Pow) and node.exp.is_negative and x in node.base.free_symbols:
            base = sp.together(node.base)
            num, _ = sp.fraction(base)
            if num.is_polynomial(x):
                poly = sp.Poly(num, x)
                if all(c.is_number for c in poly.all_coeffs()):
                    out += _poly_real_roots(poly, "poles", f)
    return out


# ----------------------------------------------------------------------------- branches

#: Functions analytic on the whole real line (applied to an argument analytic and finite there).
_ANALYTIC_ON_R: tuple[Any, ...] = (sp.exp, sp.sin, sp.cos, sp.sinh, sp.cosh, sp.tanh, sp.sech,
                                   sp.erf, sp.erfc, sp.atan, sp.asinh)
#: Periodic functions with real poles: the pole offset ``c`` (poles at ``c + k pi``).
_PERIODIC_POLES: dict[Any, sp.Expr] = {sp.tan: sp.pi / 2, sp.sec: sp.pi / 2,
                                       sp.cot: sp.S.Zero, sp.csc: sp.S.Zero}
#: Inverse functions with real branch points: the ends of the open interval of arguments on
#: which the real principal branch is analytic.
_INVERSE_DOMAINS: dict[Any, tuple[sp.Expr, sp.Expr]] = {
    sp.log: (sp.S.Zero, sp.oo), sp.asin: (sp.S.NegativeOne, sp.S.One),
    sp.acos: (sp.S.NegativeOne, sp.S.One), sp.atanh: (sp.S.NegativeOne, sp.S.One),
    sp.acosh: (sp.S.One, sp.oo),
}
#: Poles of a periodic function located on each side of 0 at most (closest first).
_MAX_PERIODIC_CUTS = 8
#: Poles of a periodic function are located within this distance of 0 (and always the
#: closest one on each side).
_PERIODIC_WINDOW = 16.0


def _linear_coefficients(v: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, sp.Expr] | None:
    """``(c1, c0)`` with ``v = c1 x + c0``, both real constants, ``c1 != 0``; else ``None``."""
    if not v.is_polynomial(x):
        return None
    poly = sp.Poly(v, x)
    if poly.degree() != 1 or not all(c.is_number and c.is_real for c in poly.all_coeffs()):
        return None
    c1, c0 = poly.all_coeffs()
    return c1, c0


def _periodic_poles(node: sp.Expr, x: sp.Symbol) -> list[sp.Expr]:
    """The real poles of ``tan``/``cot``/``sec``/``csc`` of a linear argument nearest 0.

    A linear argument ``c1 x + c0`` gives poles ``(c + k pi - c0)/c1`` for every integer k:
    those within :data:`_PERIODIC_WINDOW` of 0 (at most :data:`_MAX_PERIODIC_CUTS` on each
    side) and the closest one on each side. The regions beyond them still hold poles; they are
    not shown analytic (:func:`_continuous_on`), so no dependence is certified there by
    continuity.
    """
    coeffs = _linear_coefficients(node.args[0], x)
    if coeffs is None:
        return []
    c1, c0 = coeffs
    offset = _PERIODIC_POLES[node.func]
    k0 = int(sp.floor((c0 - offset) / sp.pi))  # the pole of index k0 is nearest x = 0
    span = _MAX_PERIODIC_CUTS + 2
    poles = [(offset + k * sp.pi - c0) / c1 for k in range(k0 - span, k0 + span + 1)]
    out: list[sp.Expr] = []
    for side in (-1, 1):
        mine = sorted((p for p in poles if side * float(p) > 0), key=lambda p: abs(float(p)))
        out += [p for i, p in enumerate(mine[:_MAX_PERIODIC_CUTS])
                if i == 0 or abs(float(p)) <= _PERIODIC_WINDOW]
    return out


def _branch_points(f: sp.Expr, x: sp.Symbol) -> list[sp.Expr]:
    """Where a composition with a multivalued or periodic function may jump or stop being
    analytic: the real points where the argument of ``log``, ``asin``, ``acos``, ``atanh``,
    ``acosh``, ``acot`` or of a non-integer power reaches an end of the function's domain
    (when the argument is rational in ``x``; already positive arguments need none), and the
    poles of ``tan``, ``cot``, ``sec``, ``csc`` of a linear argument nearest 0.

    Points that cannot be located are not returned: such regions are then not shown
    analytic, and :func:`vanishes_on_region` certifies no dependence there by continuity.
    """
    out: list[sp.Expr] = []

    def at(w: sp.Expr, value: sp.Expr) -> None:
        try:
            out.extend(_real_zeros(w - value, x))
        except ValueError:
            pass  # not located: the regions around it are not shown analytic

    for node in sp.preorder_traversal(f):
        if not isinstance(node, sp.Expr) or x not in node.free_symbols:
            continue
        if node.func in _INVERSE_DOMAINS:
            w = node.args[0]
            lo, hi = _INVERSE_DOMAINS[node.func]
            if lo == 0 and hi is sp.oo and w.is_positive:
                continue
            for end in (lo, hi):
                if end.is_finite:
                    at(w, end)
        elif node.func is sp.acot:
            at(node.args[0], sp.S.Zero)
        elif node.func in _PERIODIC_POLES:
            out.extend(_periodic_poles(node, x))
        elif isinstance(node, sp.Pow) and not node.exp.is_integer:
            base = node.base
            if x in base.free_symbols and not base.is_positive and not (
                    node.exp.is_positive and base.is_nonnegative):
                at(base, sp.S.Zero)
    return out


def _sign_on(w: sp.Expr, x: sp.Symbol, region: Region) -> int | None:
    """The sign of ``w`` on the whole region when it is provably constant and nonzero."""
    if w.is_positive:
        return 1
    if w.is_negative:
        return -1
    try:
        zeros = _real_zeros(w, x)
    except ValueError:
        return None
    if any(region.contains(z) for z in zeros):
        return None
    value = sp.sympify(w).xreplace({x: region.sample})
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    return None


def _continuous_on(g: sp.Expr, x: sp.Symbol, region: Region) -> bool:
    """Whether ``g`` is provably finite and continuous on the open region, with the usual
    derivative everywhere but at finitely many points.

    Then ``g' = 0`` on the region makes ``g`` constant there. ``False`` means "not shown":
    an unknown function, a periodic function with a pole inside (or an unbounded region), an
    inverse function whose argument may leave its domain (``atan(tan(x))`` jumps where
    ``tan`` has a pole), a denominator that may vanish.
    """
    memo: dict[sp.Expr, bool] = {}

    def ok(e: sp.Expr) -> bool:
        if e in memo:
            return memo[e]
        memo[e] = result = check(e)
        return result

    def check(e: sp.Expr) -> bool:
        if x not in e.free_symbols:
            return e.is_finite is not False
        if e == x:
            return True
        if isinstance(e, sp.Add | sp.Mul):
            return all(ok(a) for a in e.args)
        if isinstance(e, sp.Pow):
            base, ex = e.args
            if x in ex.free_symbols:
                return ok(base) and ok(ex) and _sign_on(base, x, region) == 1
            if ex.is_integer and ex.is_nonnegative:
                return ok(base)
            if ex.is_integer:
                return ok(base) and _sign_on(base, x, region) is not None
            if _sign_on(base, x, region) == 1:
                return ok(base)
            if ex.is_positive and base.is_nonnegative:
                try:  # continuous at the (finitely many) zeros of the base
                    _real_zeros(base, x)
                except ValueError:
                    return False
                return ok(base)
            return False
        if e.func in _ANALYTIC_ON_R:
            return ok(e.args[0])
        if e.func in _INVERSE_DOMAINS:
            w = e.args[0]
            lo, hi = _INVERSE_DOMAINS[e.func]
            return ok(w) and all(_sign_on(w - end, x, region) == sign
                                 for end, sign in ((lo, 1), (hi, -1)) if end.is_finite)
        if e.func is sp.acot:
            return ok(e.args[0]) and _sign_on(e.args[0], x, region) is not None
        if e.func in _PERIODIC_POLES:
            return ok(e.args[0]) and _periodic_pole_free(e, x, region)
        return False

    return ok(sp.sympify(g))


def _periodic_pole_free(node: sp.Expr, x: sp.Symbol, region: Region) -> bool:
    """Whether ``tan``/``cot``/``sec``/``csc`` of a linear argument has no pole in a bounded
    region (exact comparison with the multiples of pi)."""
    coeffs = _linear_coefficients(node.args[0], x)
    if coeffs is None or not (region.lower.is_finite and region.upper.is_finite):
        return False
    ends = sorted((node.args[0].xreplace({x: region.lower}),
                   node.args[0].xreplace({x: region.upper})), key=float)
    offset = _PERIODIC_POLES[node.func]
    k = sp.floor((ends[0] - offset) / sp.pi)
    return bool(sp.Ge(offset + (k + 1) * sp.pi, ends[1]))


def activation_regions(functions: Sequence[sp.Expr], x: sp.Symbol) -> list[Region]:
    """The open intervals on which every function is one analytic branch.

    Boundaries are the real zeros and poles of every branch argument and the real poles of
    the functions themselves; only the interval ``x`` is declared to live on
    (:func:`declared_interval`: ``x > 0`` for a positive symbol) is covered.

    Parameters
    ----------
    functions : sequence of sympy.Expr
        The family, in ``x`` only.
    x : sympy.Symbol
        The variable.

    Returns
    -------
    list of Region
        The open intervals between consecutive breakpoints, left to right.

    Raises
    ------
    ValueError
        When a breakpoint cannot be located exactly (a branch condition that is not rational
        in ``x`` or involves other symbols) or a region is too narrow for a rational point.

    Notes
    -----
    Breakpoints are the real roots (``sympy.real_roots``, exact algebraic numbers) of the
    numerators and denominators of the branch arguments: a condition such as
    :math:`1/x > 0` changes sign at a pole.

    See Also
    --------
    restrict_to_region : the branch on one region.

    Examples
    --------
    >>> x = sp.Symbol("x", real=True)
    >>> [r.latex() for r in activation_regions([sp.Abs(x - 1)], x)]
    ['(-\\\\infty, 1)', '(1, \\\\infty)']
    >>> [r.latex() for r in activation_regions([sp.Piecewise((1, 1 / x > 0), (0, True))], x)]
    ['(-\\\\infty, 0)', '(0, \\\\infty)']
    """
    zeros: list[sp.Expr] = []
    for f in functions:
        f = sp.sympify(f)
        for g in _branch_args(f):
            zeros += _real_zeros(g, x)
        zeros += _poles(f, x)
        zeros += _branch_points(f, x)
    lo, hi = declared_interval(x)
    cuts = sorted(dict.fromkeys(z for z in zeros if bool(sp.Gt(z, lo)) and bool(sp.Lt(z, hi))),
                  key=lambda z: (float(z), sp.sstr(z)))
    bounds = [lo, *cuts, hi]
    return [
        Region(lo, hi, _rational_inside(lo, hi, 0.5)) for lo, hi in itertools.pairwise(bounds)
    ]


def restrict_to_region(expr: sp.Expr, x: sp.Symbol, point: sp.Rational) -> sp.Expr:
    """The analytic branch of ``expr`` on the region containing ``point``.

    Parameters
    ----------
    expr : sympy.Expr
        A piecewise expression in ``x``.
    x : sympy.Symbol
        The variable.
    point : sympy.Rational
        A point inside the region (not on a breakpoint).

    Returns
    -------
    sympy.Expr
        ``expr`` with every ``Piecewise``, ``Abs``, ``sign``, ``Heaviside``, ``Max``, ``Min``
        replaced by the branch that holds at ``point``.

    Notes
    -----
    Inside a region every branch condition has a constant truth value, so the branch chosen at
    one point holds on the whole region.

    See Also
    --------
    activation_regions : the regions.

    Examples
    --------
    >>> x = sp.Symbol("x", real=True)
    >>> restrict_to_region(sp.Piecewise((x, x > 0), (0, True)) + sp.Abs(x), x, sp.Integer(-1))
    -x
    """

    def branch(node: sp.Expr) -> sp.Expr:
        if isinstance(node, sp.Piecewise):
            for value, cond in node.args:
                if bool(sp.sympify(cond).subs(x, point)):
                    return value
            raise ValueError(f"functions: no branch of {node} holds at x = {point}")
        sgn = sp.sign(node.args[0].subs(x, point)) if not isinstance(node, sp.Max | sp.Min) else 0
        if isinstance(node, sp.Abs):
            return sgn * node.args[0]
        if isinstance(node, sp.sign):
            return sgn
        if isinstance(node, sp.Heaviside):
            return sp.Integer(1) if sgn > 0 else sp.Integer(0)
        values = [a.subs(x, point) for a in node.args]
        pick = max if isinstance(node, sp.Max) else min
        return node.args[values.index(pick(values))]

    out = sp.sympify(expr)
    while out.has(*_BRANCHING):
        out = out.replace(lambda e: isinstance(e, _BRANCHING), branch)
    return out


# ----------------------------------------------------------------------------- input


def _check_input(functions: Sequence[Any], x: sp.Symbol) -> list[sp.Expr]:
    if not isinstance(x, sp.Symbol):
        raise ValueError(f"x must be a SymPy Symbol, got {x!r}")
    if len(functions) == 0:
        raise ValueError("functions must be a non-empty sequence of SymPy expressions in x")
    fs = []
    for f in functions:
        e = sp.sympify(f)
        extra = e.free_symbols - {x}
        if extra:
            raise ValueError(
                f"functions must depend on x only; {e} also has {sorted(map(str, extra))}"
            )
        if e.has(sp.Derivative, sp.DiracDelta) or e.atoms(sp.core.function.AppliedUndef):
            raise ValueError(f"functions must be explicit closed forms, got {e}")
        bad = sorted({type(n).__name__ for n in sp.preorder_traversal(e)
                      if isinstance(n, _REFUSED)})
        if bad:
            raise ValueError(
                f"functions must be piecewise analytic with finitely many pieces; {e} uses "
                f"{', '.join(bad)} (infinitely many jumps): not decidable by this engine"
            )
        if e.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            raise ValueError(f"functions must be finite expressions, got {e}")
        fs.append(e)
    return fs


# ----------------------------------------------------------------------------- proposals

#: Largest rank certified by an interval minor in the dependent case (the minor costs as much
#: as an independence certificate; rational families are always certified exactly).
_RANK_CERTIFICATE_MAX = 12
#: Relative pivot threshold of the float elimination (a proposal only).
_PIVOT_TOL = 1e-9


def _elimination(rows: list[list[Any]], tol: Any) -> tuple[list[int], list[int], list[list[Any]]]:
    """Gauss-Jordan elimination with row pivoting, pivots above ``tol`` in absolute value.

    Returns the pivot columns (the lexicographically first numerically independent columns),
    the pivot rows chosen for them, and the reduced rows (row i belongs to pivot column i).
    Pure Python arithmetic on the entries as given (floats or mpmath numbers), so the
    result is the same on every machine.
    """
    a = [list(r) for r in rows]
    m = len(a)
    n = len(a[0]) if a else 0
    row_ids = list(range(m))
    pivots: list[int] = []
    pivot_rows: list[int] = []
    r = 0
    for c in range(n):
        if r == m:
            break
        best = max(range(r, m), key=lambda i: (abs(a[i][c]), -row_ids[i]))
        if abs(a[best][c]) <= tol:
            continue
        a[r], a[best] = a[best], a[r]
        row_ids[r], row_ids[best] = row_ids[best], row_ids[r]
        piv = a[r][c]
        a[r] = [v / piv for v in a[r]]
        for i in range(m):
            if i != r and a[i][c] != 0:
                f = a[i][c]
                ai, ar = a[i], a[r]
                a[i] = [ai[j] - f * ar[j] for j in range(n)]
        pivots.append(c)
        pivot_rows.append(row_ids[r])
        r += 1
    return pivots, pivot_rows, a[:r]


def _float_elimination(rows: list[list[float]]) -> tuple[list[int], list[int], list[list[float]]]:
    """:func:`_elimination` in plain IEEE double arithmetic in CPython (no BLAS, no SIMD, no
    fused multiply-add), pivot threshold :data:`_PIVOT_TOL`."""
    return _elimination(rows, _PIVOT_TOL)


def _mp_elimination(rows: list[list[Any]]) -> tuple[list[int], list[int], list[list[Any]]]:
    """:func:`_elimination` in mpmath at the working precision, pivot threshold
    :data:`_PRECISE_PIVOT_TOL`."""
    return _elimination(rows, _PRECISE_PIVOT_TOL)


def _rational_guess(v: float) -> sp.Rational | None:
    q = Fraction(v).limit_denominator(10**6)
    if abs(float(q) - v) > 1e-7 * max(1.0, abs(v)):
        return None
    return sp.Rational(q.numerator, q.denominator)


def _primitive(v: Sequence[sp.Expr]) -> list[sp.Expr]:
    """Scale a rational vector to coprime integers, first nonzero entry positive (other
    vectors are returned unchanged)."""
    if not all(sp.sympify(c).is_Rational for c in v):
        return list(v)
    return _primitive_fractions([sp.Rational(c) for c in v])


def _primitive_fractions(v: Sequence[Any]) -> list[sp.Expr]:
    """:func:`_primitive` of a row of exact fractions (SymPy rationals or ``QQ`` elements:
    anything with ``numerator`` and ``denominator``), in integer arithmetic."""
    den = math.lcm(*(int(c.denominator) for c in v)) if v else 1
    ints = [int(c.numerator) * (den // int(c.denominator)) for c in v]
    g = math.gcd(*ints) or 1
    sign = -1 if next((t for t in ints if t != 0), 1) < 0 else 1
    return [sp.Integer(sign * t // g) for t in ints]


def canonical_null_basis(vectors: Sequence[Sequence[sp.Expr]]) -> list[list[sp.Expr]]:
    """The reduced-row-echelon basis of the span of ``vectors``, rows made primitive.

    Over the rationals the RREF is computed exactly (``DomainMatrix`` over QQ) and each row is
    scaled to coprime integers with a positive leading entry; otherwise SymPy's ``rref`` over
    the field of the entries (zero test by simplification). The result depends only on the
    span, never on which spanning vectors were found, so it is identical on every machine.

    Parameters
    ----------
    vectors : sequence of sequences of sympy.Expr
        Vectors of equal length.

    Returns
    -------
    list of list of sympy.Expr
        The non-zero rows of the reduced row echelon form.

    Notes
    -----
    Two spanning sets of one space give the same RREF, which is what makes the certificate
    canonical.

    See Also
    --------
    decide_linear_independence : reports its null space this way.

    Examples
    --------
    >>> canonical_null_basis([[2, 4, 6], [1, 1, 1], [3, 5, 7]])
    [[1, 0, -1], [0, 1, 2]]
    """
    rows = tuple(tuple(sp.sympify(c) for c in v) for v in vectors)
    return [list(r) for r in _canonical_rows(rows)] if rows else []


@functools.lru_cache(maxsize=1024)
def _canonical_rows(rows: tuple[tuple[sp.Expr, ...], ...]) -> tuple[tuple[sp.Expr, ...], ...]:
    """:func:`canonical_null_basis` of ``rows``, cached: a decision asks for the rank of its
    verified vectors after each new one, and the readings of one expert share vectors."""
    n = len(rows[0])
    if all(c.is_Rational for r in rows for c in r):
        dm = DomainMatrix([[QQ(int(c.p), int(c.q)) for c in r] for r in rows], (len(rows), n), QQ)
        red, _ = dm.rref()
        out = [_primitive_fractions(r) for r in red.to_list()]
    else:
        mat, _ = sp.Matrix(rows).rref(iszerofunc=lambda e: sp.simplify(e) == 0,
                                      simplify=True)
        out = [[sp.nsimplify(c, rational=False) if c.is_Float else sp.radsimp(c)
                for c in mat.row(i)] for i in range(mat.rows)]
    return tuple(tuple(r) for r in out if any(c != 0 for c in r))


# ----------------------------------------------------------------------------- zero tests


def _screen(g: sp.Expr, x: sp.Symbol, region: Region,
            terms: Sequence[sp.Expr] | None = None) -> bool:
    """Cheap numerical screen: is ``g`` numerically 0 at points of the region?

    The points: the region's sample, two more, and three on the slope of every steep ridge
    function (:func:`_feature_points`), where saturated functions still differ.

    At each point the terms of ``g`` are evaluated at 40 digits; ``g`` passes there when the
    sum is below ``1e-25`` times the largest term (or everything is 0). A point where a term
    cannot be evaluated tells nothing. Only a filter before the exact tests: a function that
    is small everywhere (a saturated ``tanh(100 x)``) is not mistaken for 0, and a point where
    every term vanishes (x = 0 for ``tanh(a x) tanh(c x)``) does not decide alone.
    """
    if terms is None:
        terms = sp.Add.make_args(sp.sympify(g))
    points = [region.sample, _rational_inside(region.lower, region.upper, 0.3),
              _rational_inside(region.lower, region.upper, 0.8),
              *(p for p, _ in _feature_points(terms, x, [region], (-0.3, 0.2, 0.9)))]
    for point in points:
        try:
            with mpmath.workdps(40):
                vals = [sp.N(t.xreplace({x: point}), 40)._to_mpmath(mpmath.mp.prec)
                        for t in terms]
                if not all(mpmath.isfinite(v) for v in vals):
                    continue
                if abs(mpmath.fsum(vals)) > mpmath.mpf(10) ** -25 * max(abs(v) for v in vals):
                    return False
        except (TypeError, ValueError, ZeroDivisionError, AttributeError):
            continue  # cannot screen here; let the other points or the exact tests decide
    return True


def _simplifies_to_zero(g: sp.Expr) -> bool:
    for step in (sp.expand,
                 lambda e: sp.cancel(sp.expand(e.rewrite(sp.exp))),
                 lambda e: sp.simplify(sp.expand(e.rewrite(sp.exp)))):
        try:
            if step(g) == 0:
                return True
        except (TypeError, ValueError, NotImplementedError, RecursionError):
            continue
    return False


def _constant_is_zero(c: sp.Expr, x: sp.Symbol, region: Region, g: sp.Expr) -> bool:
    if _simplifies_to_zero(c):
        return True
    for end in (region.upper, region.lower):
        if end.is_infinite:
            try:
                if sp.limit(g, x, end) == 0:
                    return True
            except (NotImplementedError, ValueError, TypeError, RecursionError):
                continue
    return False


def vanishes_on_region(g: sp.Expr, x: sp.Symbol, region: Region, *,
                       terms: Sequence[sp.Expr] | None = None) -> bool:
    """Decide soundly whether the analytic expression ``g`` is identically 0 on ``region``.

    ``False`` means "not shown", never "shown non-zero".

    Tried in turn: expansion; the exponential form with cancellation; ``simplify``; and, when
    these fail, the derivative route: ``g'`` simplifies to
    0 (so ``g`` is constant on the open interval) and ``g`` vanishes at one point of the
    region (or in its limit at an infinite end).

    Parameters
    ----------
    g : sympy.Expr
        One analytic branch (no piecewise functions) in ``x``.
    x : sympy.Symbol
        The variable.
    region : Region
        The open interval.
    terms : sequence of sympy.Expr, optional
        The summands of ``g`` as the caller formed them (the terms ``c_i f_i`` of a
        combination); the numerical screen measures ``g`` against them, so a combination
        that is small only because its functions are (saturated) is not taken for 0.
        Default: the summands of ``g`` after SymPy's own flattening.

    Returns
    -------
    bool
        ``True`` only when one of the exact routes shows :math:`g \\equiv 0` on the region.

    Raises
    ------
    ValueError
        If a point where ``g`` may jump (a root of a denominator or of a branch argument)
        cannot be located exactly.

    Notes
    -----
    A 40-digit screen at three points of the region (relative to the terms) rejects
    non-zero expressions cheaply. The derivative route is sound: it is taken only when
    :math:`g` is shown continuous on the region (:func:`_continuous_on`: every inverse
    function's argument stays inside its domain, no periodic pole, no vanishing
    denominator), so :math:`g' \\equiv 0` on the open interval makes :math:`g` constant
    there, and the constant is shown to be 0 exactly. ``atan(tan(x/10)) - x/10`` has
    :math:`g' = 0` but jumps at the poles of ``tan``: not shown to vanish on a region that
    holds a pole.

    See Also
    --------
    verify_certificate : applies it region by region.

    Examples
    --------
    >>> x = sp.Symbol("x", real=True)
    >>> softplus = lambda z: sp.log(1 + sp.exp(z))
    >>> z = 3 * x / 2 - sp.Rational(2, 3)
    >>> g = softplus(z) - softplus(-z) - z
    >>> sp.simplify(g) == 0
    False
    >>> vanishes_on_region(g, x, activation_regions([x], x)[0])
    True
    """
    g = sp.sympify(g)
    if not _screen(g, x, region, terms):
        return False
    if _simplifies_to_zero(g):
        return True
    if not _continuous_on(g, x, region):
        return False  # g' = 0 would not make g constant on the region
    dg = sp.diff(g, x)
    if _simplifies_to_zero(dg):
        return _constant_is_zero(g.subs(x, region.sample), x, region, g)
    return False


# ----------------------------------------------------------------------------- decision


def decide_linear_independence(functions: Sequence[Any], x: sp.Symbol, *, dps: int = 60,
                               max_certificates: int = 50,
                               timeout: float | None = None) -> LinearIndependenceResult:
    """Decide whether ``functions`` are linearly independent for almost every real ``x``.

    Parameters
    ----------
    functions : sequence of sympy.Expr
        Explicit closed forms in ``x`` only (parameters already substituted); piecewise
        forms (``Piecewise``, ``Abs``, ``Heaviside``, ``sign``, ``Max``, ``Min``) are split
        into regions. ``floor``, ``ceiling``, ``frac``, ``Mod`` are refused.
    x : sympy.Symbol
        The variable.
    dps : int
        Decimal digits of the interval arithmetic used when entries are not rational
        (30 to 500).
    max_certificates : int
        Verify at most this many null-space basis vectors (1 to 50); with fewer than the
        nullity the basis is reported as incomplete.
    timeout : float, optional
        Wall-clock limit in seconds (default none); when it runs out the result is
        ``inconclusive`` with the reason.

    Returns
    -------
    LinearIndependenceResult
        ``status`` with its certificate (see the module docstring).

    Raises
    ------
    ValueError
        For inputs the engine cannot decide soundly (see the module docstring).
    NotRealValued
        When a function takes a non-real value at a sample point (a ``ValueError``).

    Notes
    -----
    With :math:`M_{ri} = f_i(x_r)` at points :math:`x_r` inside regions, a combination
    vanishing a.e. gives :math:`Mc = 0`; so :math:`\\det M \\ne 0` (exact or interval)
    proves independence, and a null vector that vanishes on every region proves dependence.

    See Also
    --------
    verify_certificate : rechecks the certificate.
    moetheory.symbolic.identifiability.decide : strong identifiability built on it.

    Examples
    --------
    >>> x = sp.Symbol("x", real=True)
    >>> r = decide_linear_independence([sp.Piecewise((x, x > 0), (0, True)), x, sp.Abs(x)], x)
    >>> r.status, r.coefficients
    ('dependent', [2, -1, -1])
    >>> decide_linear_independence([sp.tanh(x), x], x).determinant_interval is not None
    True
    >>> decide_linear_independence([sp.exp(x + 2), sp.exp(x)], x).coefficients
    [1, -exp(2)]
    """
    if not isinstance(dps, int) or not 30 <= dps <= 500:
        raise ValueError(f"dps must be an integer in [30, 500], got {dps!r}")
    if not isinstance(max_certificates, int) or not 1 <= max_certificates <= 50:
        raise ValueError(
            f"max_certificates must be an integer in [1, 50], got {max_certificates!r}"
        )
    if timeout is not None and not (isinstance(timeout, int | float)
                                    and not isinstance(timeout, bool) and timeout > 0):
        raise ValueError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
    fs = _check_input(functions, x)
    try:
        with time_limit(timeout):
            return _decide(fs, x, dps, max_certificates)
    except TimeLimitExceeded as exc:
        return LinearIndependenceResult("inconclusive", fs, x, reason=f"{exc} (timeout)")


def numeric_rank_deficiency(functions: Sequence[Any], x: sp.Symbol, *, dps: int = 50) -> Any:
    """The smallest singular value, relative to the largest, of the family's value matrix.

    A screen, not a certificate: the functions are evaluated in mpmath at ``dps`` digits at
    scattered points of every region (windows of half-width 1 and 4 on unbounded ones) and on
    the slopes of steep ridge functions, columns scaled to a maximum of 1.

    Parameters
    ----------
    functions : sequence of sympy.Expr
        The family, in ``x`` only.
    x : sympy.Symbol
        The variable.
    dps : int
        Digits of the evaluation and of the singular values.

    Returns
    -------
    mpmath.mpf
        ``min sv / max sv``: about ``10**-dps`` or below for a dependent family.

    Raises
    ------
    ValueError
        As :func:`decide_linear_independence` for inputs it cannot handle, or when a function
        is not finite at a point.
    NotRealValued
        When a function is not real at a point (a ``ValueError``).

    Notes
    -----
    With the value matrix :math:`M_{ri} = f_i(x_r) / s_i`, columns scaled by
    :math:`s_i = \\max(\\max_r |f_i(x_r)|, 10^{-300})`, the result is
    :math:`\\sigma_{\\min}(M) / \\sigma_{\\max}(M)`. A dependent family has
    :math:`Mc = 0` for some :math:`c \\ne 0`, so the ratio is zero up to the
    evaluation's rounding; an independent family has a ratio bounded away from zero by its
    conditioning at the points drawn. No threshold is applied here: the caller decides what
    counts as deficient, and nothing is certified either way.

    See Also
    --------
    decide_linear_independence : the decision with a certificate.
    activation_regions : the regions the points are drawn from.

    Examples
    --------
    >>> x = sp.Symbol("x", real=True)
    >>> numeric_rank_deficiency([sp.sin(x)**2, sp.cos(x)**2, 1], x) < 1e-40
    True
    >>> numeric_rank_deficiency([1, x, sp.tanh(x)], x) > 1e-10
    True
    """
    fs = _check_input(functions, x)
    regions = activation_regions(fs, x)
    branches = [[restrict_to_region(f, x, r.sample) for f in fs] for r in regions]
    n = len(fs)
    points = [*_scattered_points(regions, n + 2, span=1.0), *_scattered_points(regions, n + 2),
              *_feature_points(fs, x, regions)]
    points = list(dict((p, (p, i)) for p, i in points).values())
    rows = _value_matrix(_mp_evaluators(branches, x), points, dps=dps)
    with mpmath.workdps(dps):
        scale = [max(max(abs(r[i]) for r in rows), mpmath.mpf(10) ** -300) for i in range(n)]
        sv = mpmath.svd_r(mpmath.matrix([[r[i] / scale[i] for i in range(n)] for r in rows]),
                          compute_uv=False)
        return min(abs(v) for v in sv) / max(abs(v) for v in sv)


def _decide(fs: list[sp.Expr], x: sp.Symbol, dps: int,
            max_certificates: int) -> LinearIndependenceResult:
    regions = activation_regions(fs, x)
    branches = [[restrict_to_region(f, x, r.sample) for f in fs] for r in regions]
    evaluators = _mp_evaluators(branches, x)
    n = len(fs)
    result = LinearIndependenceResult("inconclusive", fs, x, regions)
    for attempt in range(len(_SPANS) + 2):
        check_time()
        if attempt < len(_SPANS):
            points = _candidate_points(regions, n + 3, _SPANS[attempt])
        elif attempt == len(_SPANS):
            # the fixed symmetric rule found nothing: scattered points (an even family takes
            # equal values at +p and -p) and points on the steep slopes of ridge functions
            points = [*_scattered_points(regions, 2 * n + 3),
                      *_scattered_points(regions, n + 3, span=1.0),
                      *_feature_points(fs, x, regions)]
            points = list(dict((p, (p, i)) for p, i in points).values())
        again = _decide_once(fs, x, regions, branches, evaluators, points, dps,
                             max_certificates, precise=attempt > len(_SPANS))
        if attempt == 0 or again.status != "inconclusive":
            result = again
        if result.status != "inconclusive":
            break
    return result


#: Half-widths of the sampling window on unbounded regions, tried in turn (a narrower window
#: avoids entries that differ by hundreds of orders of magnitude, e.g. GELU far in its tails).
#: Then, if neither decides, scattered and feature points in float arithmetic, and last the
#: same points with the elimination at :data:`_PRECISE_DPS` digits (ill-conditioned families
#: such as tanh with k = 4 atoms).
_SPANS: tuple[float, ...] = (4.0, 1.0)
#: Digits of the values and of the elimination in the precise attempt.
_PRECISE_DPS = 120
#: Relative pivot threshold of the precise elimination.
_PRECISE_PIVOT_TOL = mpmath.mpf(10) ** -90
#: Offsets (in widths) of the points placed on the slope of a steep ridge function.
_SLOPE_OFFSETS = (-2.6, -1.4, -0.7, -0.3, -0.1, 0.05, 0.2, 0.45, 0.9, 1.7, 3.1)


def _feature_points(fs: Sequence[sp.Expr], x: sp.Symbol, regions: list[Region],
                    offsets: Sequence[float] = _SLOPE_OFFSETS) -> list[tuple[sp.Rational, int]]:
    """Points where steep ridge functions vary: around the zero ``-c0/c1`` of every linear
    argument ``c1 x + c0`` with ``|c1| > 4`` of ``tanh``, ``erf``, ``exp``, ... (``tanh(100
    x)`` is saturated, to many digits, at every point of the fixed rule)."""
    centres: dict[tuple[float, float], None] = {}
    for f in fs:
        for node in sp.preorder_traversal(f):
            if isinstance(node, sp.Function) and len(node.args) == 1 and (
                    node.func in _ANALYTIC_ON_R or node.func in _PERIODIC_POLES):
                coeffs = _linear_coefficients(node.args[0], x)
                if coeffs is not None and abs(float(coeffs[0])) > 4:
                    c1, c0 = (float(c) for c in coeffs)
                    centres[(-c0 / c1, 1 / abs(c1))] = None
    pts: list[tuple[sp.Rational, int]] = []
    for centre, width in sorted(centres)[:16]:
        for off in offsets:
            target = centre + off * width
            p = sp.Rational(round(target * 2**20), 2**20)
            idx = next((i for i, r in enumerate(regions) if r.contains(p)), None)
            if idx is not None and all(p != q for q, _ in pts):
                pts.append((p, idx))
    return pts


def _is_rational_family(branches: list[list[sp.Expr]], x: sp.Symbol) -> bool:
    """Whether every function is a rational function of ``x`` with rational coefficients:
    no function applications and only integer powers anywhere (a constant such as
    ``tanh(1/3)`` or ``sqrt(2)`` is not rational)."""
    return all(
        f.is_rational_function(x)
        and all(a.is_Rational for a in f.atoms(sp.Number))
        and not f.atoms(sp.NumberSymbol, sp.Function)
        and all(p.exp.is_Integer for p in f.atoms(sp.Pow))
        for fs_r in branches for f in fs_r
    )


def _identify(v: Any) -> sp.Expr | None:
    """An exact closed form of the real number ``v`` by integer-relation search (PSLQ)."""
    if abs(v) < mpmath.mpf(10) ** (-35):
        return sp.Integer(0)
    q = Fraction(float(v)).limit_denominator(10**9)
    if abs(mpmath.mpf(q.numerator) / q.denominator - v) < mpmath.mpf(10) ** (-35) * abs(v):
        return sp.Rational(q.numerator, q.denominator)
    for consts in ([], ["e"], ["pi"]):
        try:
            found = mpmath.identify(v, consts, tol=mpmath.mpf(10) ** (-35), maxcoeff=1000)
        except (ValueError, ZeroDivisionError, OverflowError):
            found = None
        if found:
            try:
                return sp.sympify(found, locals={"e": sp.E, "pi": sp.pi})
            except (sp.SympifyError, TypeError):
                continue
    return None


def _decide_once(fs: list[sp.Expr], x: sp.Symbol, regions: list[Region],
                 branches: list[list[sp.Expr]], evaluators: list[Callable[[Any], Any]],
                 points: list[tuple[sp.Rational, int]], dps: int, max_certificates: int,
                 precise: bool = False) -> LinearIndependenceResult:
    n = len(fs)
    if precise:
        mp_rows = _value_matrix(evaluators, points, dps=_PRECISE_DPS)
        with mpmath.workdps(_PRECISE_DPS):
            mscale = [max(max(abs(row[i]) for row in mp_rows), mpmath.mpf(10) ** -300)
                      for i in range(n)]
            pivots, pivot_rows, mreduced = _mp_elimination(
                [[row[i] / mscale[i] for i in range(n)] for row in mp_rows])
            reduced = [[float(v) for v in row] for row in mreduced]
            scale = [float(v) for v in mscale]
    else:
        mp_rows = _value_matrix(evaluators, points)
        frows = [[float(v) for v in row] for row in mp_rows]
        scale = [max(max(abs(row[i]) for row in frows), 1e-300) for i in range(n)]
        scaled = [[row[i] / scale[i] for i in range(n)] for row in frows]
        pivots, pivot_rows, reduced = _float_elimination(scaled)
    check_time()
    rank = len(pivots)
    result = LinearIndependenceResult("inconclusive", fs, x, regions, numerical_rank=rank)
    if precise:
        dps = max(dps, 2 * _PRECISE_DPS)

    def exact_rows(idx: Sequence[int], cols: Sequence[int]) -> list[list[sp.Expr]]:
        return [[sp.sympify(branches[points[k][1]][i]).xreplace({x: points[k][0]})
                 for i in cols] for k in idx]

    def certify_minor() -> tuple[list[sp.Rational], str] | None:
        chosen = sorted(pivot_rows, key=lambda k: points[k][0])
        entries = exact_rows(chosen, pivots)
        det, enclosure = _exact_det(entries, dps)
        if precise and enclosure is not None and 0 in enclosure and 2 * dps <= 500:
            det, enclosure = _exact_det(entries, 2 * dps)  # ill-conditioned: more digits
            result.interval_dps = 2 * dps
        elif enclosure is not None:
            result.interval_dps = dps
        pts = [points[k][0] for k in chosen]
        if det is not None and det != 0:
            result.determinant = det if rank == n else None
            return pts, sp.sstr(det)
        if enclosure is not None and 0 not in enclosure:
            if rank == n:
                result.determinant_interval = _interval_text(enclosure)
            lo, hi = _interval_text(enclosure)
            return pts, f"in [{lo}, {hi}]"
        return None

    if rank == n:
        cert = certify_minor()
        if cert is not None:
            result.points = cert[0]
            result.status, result.reason = "independent", "nonsingular evaluation matrix"
            return result
        result.reason = (f"numerical rank {n} of {n}, but the determinant is not separated from "
                         f"0 at {dps} digits")
        return result

    free = [c for c in range(n) if c not in set(pivots)]

    verified: list[list[sp.Expr]] = []

    span_rank = {"size": 0, "rank": 0}

    def complete() -> bool:
        if len(verified) >= max_certificates:
            return True
        if verified and span_rank["size"] != len(verified):
            span_rank["size"], span_rank["rank"] = (len(verified),
                                                    len(canonical_null_basis(verified)))
        return span_rank["rank"] >= n - rank

    def attempt(v: list[sp.Expr] | None) -> bool:
        check_time()
        if v is None or all(c == 0 for c in v) or not _verify_vector(v, branches, x, regions):
            return False
        verified.append(v)
        return True

    exact_family = _is_rational_family(branches, x)
    if exact_family:
        # Exact rational null space of the pivot rows plus a few more rows per region.
        extra = [k for k in range(len(points)) if k not in set(pivot_rows)]
        per_region = {idx: [k for k in extra if points[k][1] == idx][:3]
                      for idx in range(len(regions))}
        rows_idx = pivot_rows + [k for ks in per_region.values() for k in ks]
        rows = exact_rows(rows_idx, range(n))
        dm = DomainMatrix([[QQ(int(e.p), int(e.q)) for e in row] for row in rows],
                          (len(rows), n), QQ)
        basis = dm.nullspace().to_Matrix()
        for i in range(basis.rows):
            if complete():
                break
            attempt([sp.Rational(c) for c in basis.row(i)])

    @functools.cache
    def system() -> tuple[Any, Any, list] | None:  # built once, for every free column
        return _high_precision_system(pivots, pivot_rows, points, evaluators)

    for f in free:
        if complete():
            break
        # The float proposal with 1 at the free column f; if it fails, the same vector solved
        # at 60 digits with its entries identified exactly by PSLQ.
        guess: list[sp.Expr | None] = [sp.Integer(0)] * n
        guess[f] = sp.Integer(1)
        for i, p in enumerate(pivots):
            guess[p] = _rational_guess(-reduced[i][f] * scale[f] / scale[p])
        if all(c is not None for c in guess) and attempt([sp.sympify(c) for c in guess]):
            continue
        attempt(_high_precision_vector(f, n, pivots, system()))
    if verified:
        basis_rows = canonical_null_basis(verified)
        result.status = "dependent"
        result.coefficients, result.others = basis_rows[0], basis_rows[1:]
        result.nullity = len(basis_rows)
        result.residuals = [sp.Integer(0)] * len(regions)
        result.reason = ("exact null vectors (basis rows are rational combinations of vectors "
                         "verified region by region, hence exact null vectors too)")
        if result.nullity == n - rank and (rank <= _RANK_CERTIFICATE_MAX or exact_family):
            cert = certify_minor()
            if cert is not None:
                result.null_space_complete = True
                result.rank_points, result.rank_determinant = cert
                result.rank_columns = list(pivots)
        return result
    result.reason = (
        f"numerical rank {rank} of {n}, but no exact certificate either way "
        f"(no proposed null vector was shown to vanish on every region)"
    )
    return result


def _high_precision_system(pivots: list[int], pivot_rows: list[int],
                           points: list[tuple[sp.Rational, int]],
                           evaluators: list[Callable[[Any], Any]]) -> tuple[Any, Any, list] | None:
    """The pivot block of the evaluation matrix at 60 digits, LU-factorised once for every
    free column (as ``mpmath.lu_solve`` does it, 10 bits above the working precision), with
    the rows it comes from; ``None`` if the block is numerically singular."""
    vals = _value_matrix(evaluators, [points[k] for k in pivot_rows], dps=60)
    with mpmath.workdps(60), mpmath.workprec(mpmath.mp.prec + 10):
        try:
            lu, perm = mpmath.mp.LU_decomp(
                mpmath.matrix([[row[p] for p in pivots] for row in vals]))
        except ZeroDivisionError:
            return None
    return lu, perm, vals


def _high_precision_vector(f: int, n: int, pivots: list[int],
                           system: tuple[Any, Any, list] | None) -> list[sp.Expr] | None:
    """The null vector with 1 at free column ``f`` solved at 60 digits on ``system``
    (:func:`_high_precision_system`), entries identified exactly by PSLQ (``None`` if the
    system is singular or some entry has no recognisable closed form)."""
    if system is None:
        return None
    lu, perm, vals = system
    with mpmath.workdps(60):
        with mpmath.workprec(mpmath.mp.prec + 10):  # as mpmath.lu_solve solves
            sol = mpmath.mp.U_solve(lu, mpmath.mp.L_solve(
                lu, mpmath.matrix([-row[f] for row in vals]), perm))
        v: list[sp.Expr] = [sp.Integer(0)] * n
        v[f] = sp.Integer(1)
        for i, p in enumerate(pivots):
            e = _identify(sol[i])
            if e is None:
                return None
            v[p] = e
    return v


def _verify_vector(v: Sequence[sp.Expr], branches: list[list[sp.Expr]], x: sp.Symbol,
                   regions: list[Region]) -> bool:
    for fs, reg in zip(branches, regions, strict=True):
        terms = [c * f for c, f in zip(v, fs, strict=True) if c != 0]
        if not vanishes_on_region(sp.Add(*terms), x, reg, terms=terms):
            return False
    return True


def verify_certificate(result: LinearIndependenceResult, dps: int = 80) -> bool:
    """Recheck a certificate by a separate exact computation on the original functions.

    Independence: the matrix is rebuilt by direct substitution into the original (piecewise)
    functions and its determinant recomputed (SymPy Bareiss for rationals, else intervals at
    ``dps`` digits). Dependence: every basis row's combination is rebuilt from the original
    functions, restricted afresh to each region and shown to vanish there
    (:func:`vanishes_on_region`).

    Parameters
    ----------
    result : LinearIndependenceResult
        A result of :func:`decide_linear_independence`.
    dps : int
        Digits of the interval arithmetic.

    Returns
    -------
    bool
        Whether the certificate checks out (``False`` for inconclusive results).

    Notes
    -----
    The recheck shares no intermediate result with the decision: the matrix and the regions
    are rebuilt from ``result.functions``.

    See Also
    --------
    decide_linear_independence : produces the certificate.

    Examples
    --------
    >>> x = sp.Symbol("x", real=True)
    >>> verify_certificate(decide_linear_independence([1, x, x**2 - 1, x**2], x))
    True
    """
    x = result.x
    if result.status == "independent":
        m = [[sp.sympify(f).subs(x, p) for f in result.functions] for p in result.points]
        if result.determinant is not None:
            return sp.Matrix(m).det(method="bareiss") == result.determinant != 0
        old = iv.dps
        try:
            iv.dps = max(dps, result.interval_dps + 20)
            return 0 not in _interval_det([[interval_value(_erf_plus_one(e)) for e in row]
                                           for row in m])
        finally:
            iv.dps = old
    if result.status == "dependent":
        if not result.coefficients:
            return False
        regions = activation_regions(result.functions, x)
        for vec in result.null_space:
            if all(c == 0 for c in vec):
                return False
            terms = [c * sp.sympify(f) for c, f in zip(vec, result.functions, strict=True)]
            for r in regions:
                here = [restrict_to_region(t, x, r.sample) for t in terms]
                if not vanishes_on_region(restrict_to_region(sp.Add(*terms), x, r.sample), x,
                                          r, terms=here):
                    return False
        return True
    return False
