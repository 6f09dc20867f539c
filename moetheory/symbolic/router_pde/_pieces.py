r"""Smooth pieces, Euler derivatives, exact zero tests, witnesses and the mpmath cross-check of
:mod:`.router_pde`.

A score with ``Abs``, ``sign``, ``Max``, ``Min``, ``Heaviside`` or ``Piecewise`` is rewritten as
one ``Piecewise`` whose pieces are smooth; each piece's region is its condition and the negation
of the earlier ones. The Euler derivative :math:`\frac{d}{dc} s(c\beta_1, x)|_{c=1}` of a piece
is the residual over :math:`H` on the *interior* of its region; a point is interior when every
inequality of the region holds strictly there.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp
from sympy.core.relational import Relational

from moetheory.symbolic.pde import reduce_norms
from moetheory.symbolic.router_pde._deadline import Deadline
from moetheory.symbolic.routers import NB, NX, U

__all__: list[str] = []

#: Functions rewritten into pieces.
NONSMOOTH = (sp.Abs, sp.sign, sp.Max, sp.Min, sp.Heaviside, sp.Piecewise)


class Refusal(Exception):
    """The score is outside what :func:`~moetheory.symbolic.router_pde.router_pde` decides."""


@dataclass(frozen=True)
class Piece:
    """One smooth piece: its region, the score on it and the Euler derivative over H."""

    region: Any
    score: sp.Expr
    ratio: sp.Expr
    zero: bool
    zero_by: str = ""


def split_pieces(expr: sp.Expr) -> list[tuple[sp.Expr, Any]]:
    """``[(smooth expression, region), ...]``; one piece ``(expr, true)`` if it is smooth."""
    if not expr.has(*NONSMOOTH):
        return [(expr, sp.true)]
    try:
        folded = sp.piecewise_fold(expr.rewrite(sp.Piecewise))
    except Exception as exc:  # SymPy's own limits: refused with its reason
        raise Refusal(f"SymPy could not split the score into smooth pieces "
                      f"({type(exc).__name__})") from None
    if folded.has(sp.Abs, sp.sign, sp.Max, sp.Min, sp.Heaviside):
        raise Refusal("the score keeps a non-smooth function after splitting into pieces")
    if not isinstance(folded, sp.Piecewise):
        return [(folded, sp.true)]
    out: list[tuple[sp.Expr, Any]] = []
    earlier: list[Any] = []
    for piece, cond in folded.args:
        if piece.has(sp.Piecewise):
            raise Refusal("a piece of the score is itself piecewise after folding")
        if not _plain_condition(cond):
            raise Refusal(f"a piece's condition {sp.sstr(cond)} is not made of equations and "
                          "inequalities")
        region = simplify_region(sp.And(cond, *[sp.Not(c) for c in earlier]))
        earlier.append(cond)
        if region is not sp.false and not lower_dimensional(region):
            out.append((piece, region))
    return out


def _plain_condition(cond: Any) -> bool:
    """Whether ``cond`` is built from (in)equalities with And, Or, Not (interiors decidable)."""
    if cond in (sp.true, sp.false) or isinstance(cond, Relational):
        return True
    if isinstance(cond, sp.And | sp.Or | sp.Not):
        return all(_plain_condition(a) for a in cond.args)
    return False


def simplify_region(region: Any) -> Any:
    """A condition simplified as a propositional formula of its inequalities.

    Each inequality and its negation become one propositional atom and its negation (``a < b``
    is ``not (a >= b)``), so that ``simplify_logic`` sees them as complementary; SymPy's
    general ``simplify`` of relationals is not used (it is slow).
    """
    if not isinstance(region, sp.logic.boolalg.Boolean) or region in (sp.true, sp.false):
        return region
    try:
        atoms: dict[Any, sp.Symbol] = {}
        back: dict[sp.Symbol, Any] = {}
        replace: dict[Any, Any] = {}
        for rel in sorted(region.atoms(Relational), key=sp.default_sort_key):
            pos, neg = rel.canonical, rel.negated.canonical
            key = min(pos, neg, key=sp.default_sort_key)
            if key not in atoms:
                atoms[key] = sp.Dummy(f"r{len(atoms)}")
                back[atoms[key]] = key
            replace[rel] = atoms[key] if key == pos else sp.Not(atoms[key])
        logical = sp.simplify_logic(region.xreplace(replace), force=True).xreplace(back)
    except Exception:  # SymPy's limits: the region is kept as built
        return region
    disjuncts = logical.args if isinstance(logical, sp.Or) else (logical,)
    return sp.Or(*[d for d in disjuncts if not _contradiction(d)])


def _contradiction(conjunction: Any) -> bool:
    """``e = 0`` together with ``e > 0`` or ``e < 0`` (up to sign) in one conjunction."""
    conj = conjunction.args if isinstance(conjunction, sp.And) else (conjunction,)
    zero = [sp.expand(c.lhs - c.rhs) for c in conj if isinstance(c, sp.Eq)]
    strict = [sp.expand(c.lhs - c.rhs) for c in conj
              if isinstance(c, sp.StrictGreaterThan | sp.StrictLessThan)]
    return any(sp.expand(e - g) == 0 or sp.expand(e + g) == 0 for e in zero for g in strict)


def _nonnegative_forms(conjuncts: Sequence[Any]) -> list[sp.Expr]:
    """``e`` for each conjunct ``e >= 0`` (from ``a >= b`` or ``a <= b``)."""
    out = []
    for c in conjuncts:
        if isinstance(c, sp.GreaterThan):
            out.append(sp.expand(c.lhs - c.rhs))
        elif isinstance(c, sp.LessThan):
            out.append(sp.expand(c.rhs - c.lhs))
    return out


def lower_dimensional(region: Any) -> bool:
    """Whether ``region`` is shown to have no interior.

    True when, after :func:`simplify_region`, it is ``False``, or every disjunct contains an
    equation ``a = b`` or both ``a >= b`` and ``a <= b``.
    """
    simple = simplify_region(region)
    if simple is sp.false:
        return True
    disjuncts = simple.args if isinstance(simple, sp.Or) else (simple,)
    for disjunct in disjuncts:
        conj = disjunct.args if isinstance(disjunct, sp.And) else (disjunct,)
        if any(isinstance(c, sp.Eq) for c in conj):
            continue
        forms = _nonnegative_forms(conj)
        if any(sp.expand(e + f) == 0 for i, e in enumerate(forms) for f in forms[i + 1:]):
            continue
        return False
    return True


def empty_in_coordinates(region: Any, coords: Sequence[sp.Symbol]) -> bool:
    """Whether ``region`` is shown, exactly, to have no interior point in the coordinates.

    Decided when every inequality compares a monomial in the coordinates (times a number) with
    0: off the coordinate hyperplanes (a null set) such a sign condition is constant on each
    orthant, so the region has interior exactly when some orthant satisfies it; each orthant
    is tried at its point with coordinates ±1. False (not shown) otherwise.
    """
    if region is sp.false:
        return True
    if region is sp.true or not coords or len(coords) > 12:
        return False
    rels = region.atoms(Relational)
    for rel in rels:
        gap = sp.factor_terms(rel.lhs - rel.rhs)
        if isinstance(rel, sp.Eq | sp.Ne) or not _is_monomial(gap, coords):
            return False
    for signs in itertools.product((1, -1), repeat=len(coords)):
        if region.subs(dict(zip(coords, signs, strict=True))) is sp.true:
            return False
    return True


def _is_monomial(expr: sp.Expr, coords: Sequence[sp.Symbol]) -> bool:
    """``expr`` is a non-zero number times a product of powers of the coordinates."""
    coeff, rest = expr.as_coeff_Mul()
    if not coeff.is_number or coeff.is_zero is not False:
        return False
    for factor in sp.Mul.make_args(rest):
        base, exp = factor.as_base_exp()
        if base not in coords or not (exp.is_Integer and exp > 0):
            if factor.free_symbols or not factor.is_nonzero:
                return False
    return True


def euler(expr: sp.Expr, beta1: Sequence[sp.Symbol] | None) -> sp.Expr:
    r""":math:`\frac{d}{dc} s(c\beta_1, x)|_{c=1}`, in invariants (``beta1=None``) or in
    coordinates."""
    if beta1 is None:
        return U * sp.diff(expr, U) + NB * sp.diff(expr, NB)
    return sp.Add(*[b * sp.diff(expr, b) for b in beta1])


def undecidable_part(expr: sp.Expr) -> str | None:
    """Why an Euler derivative cannot be decided (an unevaluated derivative, a delta), or None."""
    for d in expr.atoms(sp.Derivative):
        if not isinstance(d.expr, sp.core.function.AppliedUndef):
            return f"SymPy cannot differentiate {sp.sstr(d.expr)}"
    if expr.has(sp.DiracDelta, sp.Subs):
        return "the derivative contains a Dirac delta or an unevaluated substitution"
    if expr.has(sp.nan, sp.zoo):
        return "the derivative is undefined (nan or complex infinity)"
    return None


def has_undefined_function(expr: sp.Expr) -> bool:
    """Whether ``expr`` contains an undefined function such as ``phi(u)``."""
    return bool(expr.atoms(sp.core.function.AppliedUndef))


def simplify_ratio(
    expr: sp.Expr, beta1: Sequence[sp.Symbol] | None, x: Sequence[sp.Symbol] | None,
    deadline: Deadline,
) -> tuple[sp.Expr, bool, str]:
    """``(simplified, identically_zero, method)``; ``identically_zero`` only on an exact proof."""
    if expr == 0:
        return sp.Integer(0), True, "the derivative is 0 as computed"
    try:
        cancelled = sp.factor(sp.cancel(sp.together(expr)))
    except (sp.PolynomialError, TypeError, ValueError):
        cancelled = expr
    if cancelled == 0:
        return sp.Integer(0), True, "cancelled to 0 over a common denominator (sympy.cancel)"
    deadline.check()
    if beta1 is not None and x is not None:
        try:
            if reduce_norms(cancelled, beta1, x) == 0:
                return sp.Integer(0), True, (
                    "numerator reduced to 0 modulo r_b^2 = sum b_i^2, r_x^2 = sum x_i^2 "
                    "(polynomial remainder, exact)")
        except (ValueError, sp.PolynomialError, TypeError, ZeroDivisionError):
            pass
    deadline.check()
    simple = sp.simplify(cancelled)
    if simple == 0:
        return sp.Integer(0), True, "simplified to 0 (sympy.simplify)"
    best = simple if sp.count_ops(simple) < sp.count_ops(cancelled) else cancelled
    return best, False, ""


# ---------------------------------------------------------------------------------------------
# points and hyper-parameter values
# ---------------------------------------------------------------------------------------------

_R = sp.Rational
#: Rational unit vectors, by dimension (rational norms make readable counterexamples).
_UNIT: dict[int, list[tuple[Any, ...]]] = {
    1: [(1,), (-1,)],
    2: [(1, 0), (_R(3, 5), _R(4, 5)), (_R(4, 5), _R(3, 5)), (_R(-3, 5), _R(4, 5)), (0, 1),
        (-1, 0), (_R(5, 13), _R(-12, 13)), (_R(-4, 5), _R(-3, 5))],
    3: [(1, 0, 0), (_R(2, 3), _R(1, 3), _R(2, 3)), (_R(2, 7), _R(-3, 7), _R(6, 7)),
        (_R(-1, 3), _R(2, 3), _R(2, 3)), (0, 1, 0), (_R(4, 9), _R(4, 9), _R(-7, 9))],
}
_NORMS = [sp.Integer(1), sp.Integer(2), _R(1, 2), sp.Integer(3), _R(1, 3), sp.Integer(5),
          _R(1, 5), sp.Integer(10), _R(1, 10)]
#: Generic coordinates for scores that are not functions of the invariants.
_GENERIC = [_R(1, 2), sp.Integer(-1), _R(3, 2), _R(1, 3), sp.Integer(2), _R(-2, 3),
            sp.Integer(1), _R(-1, 2), _R(5, 4), _R(-3, 2)]


def _units(d: int) -> list[tuple[Any, ...]]:
    if d in _UNIT:
        return [tuple(sp.sympify(t) for t in v) for v in _UNIT[d]]
    return [tuple(sp.sympify(t) for t in v) + (sp.Integer(0),) * (d - 3) for v in _UNIT[3]]


def _generic(d: int, k: int) -> tuple[Any, ...]:
    n = len(_GENERIC)
    return tuple(_GENERIC[(3 * k + 7 * i + i * i) % n] for i in range(d))


def points(d: int, limit: int = 400) -> list[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Rational points ``(beta1, x)`` of dimension ``d`` (both non-zero), simplest first."""
    return list(_points(d)[:limit])


@functools.cache
def _points(d: int) -> tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...]:
    units = _units(d)
    grid = itertools.product(range(len(_NORMS)), range(len(_NORMS)),
                             range(min(3, len(units))), range(len(units)))
    order = sorted(grid, key=lambda t: t[0] + t[1] + 2 * t[2] + t[3])[:400]
    out = [(tuple(_NORMS[i] * t for t in units[k]), tuple(_NORMS[j] * t for t in units[m]))
           for i, j, k, m in order]
    if d >= 2:  # off-axis points too, for scores that single out coordinates (either sign)
        generic = [(_generic(d, k), _generic(d, k + 1)) for k in range(0, 12, 2)]
        out[12:12] = generic + [(tuple(-t for t in b), x) for b, x in generic[:3]]
    return tuple(out[:400])


_CANDIDATES = [_R(1, 2), _R(1, 3), sp.Integer(2), _R(3, 2), sp.Integer(1), sp.Integer(3),
               _R(-1, 2), sp.Integer(-2), _R(-1, 3), sp.Integer(-1), sp.Integer(0)]


def _satisfies(value: sp.Expr, symbol: sp.Symbol) -> bool:
    return all(getattr(value, f"is_{fact}", None) == want
               for fact, want in symbol.assumptions0.items())


def parameter_values(params: Sequence[sp.Symbol]) -> list[dict[sp.Symbol, sp.Expr]]:
    """Up to three assignments of rational values respecting each symbol's assumptions."""
    choices = []
    for p in params:
        ok = [v for v in _CANDIDATES if _satisfies(v, p)]
        ok += [sp.Integer(n) for n in range(4, 12) if _satisfies(sp.Integer(n), p)]
        if not ok:
            raise Refusal(f"no rational value satisfies the assumptions of {p} "
                          f"({', '.join(k for k, v in sorted(p.assumptions0.items()) if v)})")
        choices.append(ok)
    if not params:
        return [{}]
    return [{p: c[i % len(c)] for p, c in zip(params, choices, strict=True)} for i in range(3)]


def invariant_values(beta1: Sequence[Any], x: Sequence[Any]) -> dict[sp.Symbol, sp.Expr]:
    """``{U: beta1 . x, NB: ||beta1||, NX: ||x||}`` exactly."""
    return {
        U: sp.Add(*[p * q for p, q in zip(beta1, x, strict=True)]),
        NB: sp.sqrt(sp.Add(*[t**2 for t in beta1])),
        NX: sp.sqrt(sp.Add(*[t**2 for t in x])),
    }


# ---------------------------------------------------------------------------------------------
# evaluation
# ---------------------------------------------------------------------------------------------


def interior(region: Any, values: Mapping[sp.Symbol, Any]) -> bool:
    """Whether the point lies in ``region`` with every inequality strict (exactly)."""
    if region is sp.true:
        return True
    try:
        if region.subs(values) is not sp.true:
            return False
        for rel in region.atoms(Relational):
            gap = (rel.lhs - rel.rhs).subs(values)
            if gap.is_zero is not False:
                return False
    except (TypeError, ValueError):
        return False
    return True


def mp_value(value: Any) -> Any:
    """An exact SymPy number as an mpmath number at the working precision (+10 digits)."""
    value = sp.sympify(value)
    if value.is_Rational:
        return mpmath.mpf(int(value.p)) / int(value.q)
    return mpmath.mpf(sp.N(value, mpmath.mp.dps + 10)._mpf_)


def real_number(value: Any) -> Any | None:
    """An mpmath real from a numeric result, or None if complex, infinite or NaN."""
    if isinstance(value, mpmath.mpc):
        if abs(value.imag) > mpmath.mpf(10) ** (-mpmath.mp.dps + 5) * max(1, abs(value.real)):
            return None
        value = value.real
    try:
        value = mpmath.mpf(value)
    except (TypeError, ValueError):
        return None
    if not mpmath.isfinite(value):
        return None
    return value


def call_numeric(f: Callable[..., Any], args: Sequence[Any]) -> Any | None:
    """``f(*args)`` as an mpmath real, or None where it is undefined or not real."""
    try:
        return real_number(f(*args))
    except (ZeroDivisionError, ValueError, TypeError, OverflowError, NameError,
            AttributeError):
        return None


def certify_nonzero(expr: sp.Expr, values: Mapping[sp.Symbol, Any]) -> sp.Expr | None:
    """The exact value at the point, if it is certified real and non-zero: an exact non-zero
    rational, or 30 digits certified by ``evalf(strict=True)`` (above 1e-60)."""
    exact = sp.sympify(expr).subs(values)
    if exact.is_Rational:  # an exact rational is its own certificate, however small
        return exact if exact != 0 else None
    try:
        approx = sp.N(exact, 30, strict=True)
    except Exception:  # PrecisionExhausted and SymPy's evaluation limits: not certified
        return None
    if not approx.is_number or approx.is_real is not True or approx.is_zero is not False:
        return None
    if abs(approx) < sp.Float("1e-60"):  # below what 30 certified digits can tell apart
        return None
    return exact


def numeric_euler(
    f: Callable[..., Any], point: tuple[Sequence[Any], Sequence[Any]], dps: int,
) -> Any | None:
    r""":math:`\frac{d}{dc} s(c\beta_1, x)|_{c=1}` by mpmath differentiation, or None.

    ``f`` is the score lambdified (mpmath) in the coordinates ``(*beta1, *x)``.
    """
    with mpmath.workdps(dps):
        bm = [mp_value(t) for t in point[0]]
        xm = [mp_value(t) for t in point[1]]
        if call_numeric(f, [*bm, *xm]) is None:
            return None

        def along(c: Any) -> Any:
            return f(*[c * t for t in bm], *xm)

        try:
            return real_number(mpmath.diff(along, mpmath.mpf(1)))
        except (ZeroDivisionError, ValueError, TypeError, OverflowError, NameError):
            return None
