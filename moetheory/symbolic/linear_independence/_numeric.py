"""Where the functions are evaluated, and how: regions' points, declared intervals, values.

The private half of :mod:`moetheory.symbolic.linear_independence` that proposes: the open
:class:`Region` and the interval a variable is declared to live on (:func:`declared_interval`),
the deterministic dyadic sample points of the fixed and the scattered rules, and the value
matrix ``f_i(x_r)`` in mpmath (pure Python, so the proposals are the same on every machine),
which refuses a non-real value (:class:`NotRealValued`). Imported back, and documented, there.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

__all__ = ["Region", "declared_interval"]


@dataclass(frozen=True)
class Region:
    """An open interval ``(lower, upper)`` of the real line and a rational point inside it.

    Parameters
    ----------
    lower, upper : sympy.Expr
        The end points (exact; possibly infinite or algebraic).
    sample : sympy.Rational
        A dyadic rational strictly inside.

    Notes
    -----
    On a region every function of the family is one analytic branch, so a combination that
    vanishes almost everywhere on it vanishes at every interior point.

    See Also
    --------
    activation_regions : computes the regions.

    Examples
    --------
    >>> r = Region(sp.Integer(0), sp.oo, sp.Rational(1, 2))
    >>> r.contains(sp.Integer(3)), r.contains(sp.Integer(0))
    (True, False)
    """

    lower: sp.Expr
    upper: sp.Expr
    sample: sp.Rational

    def contains(self, point: sp.Rational) -> bool:
        """Whether ``point`` lies strictly inside (exact comparison)."""
        return bool(sp.Gt(point, self.lower)) and bool(sp.Lt(point, self.upper))

    def latex(self) -> str:
        return rf"({sp.latex(self.lower)}, {sp.latex(self.upper)})"


def _rational_inside(lo: sp.Expr, hi: sp.Expr, frac: float, span: float = 4.0) -> sp.Rational:
    """A dyadic rational near ``lo + frac (hi - lo)`` strictly inside ``(lo, hi)``.

    Deterministic: the target is computed from the exactly rounded doubles of the bounds and
    every candidate is compared exactly with the bounds.
    """
    if lo.is_finite and hi.is_finite:
        a, b = float(lo), float(hi)
    elif hi.is_finite:
        a, b = float(hi) - span, float(hi)
    elif lo.is_finite:
        a, b = float(lo), float(lo) + span
    else:
        a, b = -span, span
    target = a + frac * (b - a)
    for den in (8, 64, 512, 4096, 2**16, 2**24, 2**40):
        p = sp.Rational(round(target * den), den)
        if bool(sp.Gt(p, lo)) and bool(sp.Lt(p, hi)):
            return p
    raise ValueError("functions: a region is too narrow to place a rational point in it")


def declared_interval(x: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    """The open interval a real variable lives on by its declared sign.

    ``(0, oo)`` for a symbol declared ``positive`` or ``nonnegative`` (0 is a null set),
    ``(-oo, 0)`` for ``negative`` or ``nonpositive``, else the real line. "Almost every x"
    then means almost every x of that interval, and points are drawn only from it.

    Parameters
    ----------
    x : sympy.Symbol
        The variable.

    Returns
    -------
    tuple of sympy.Expr
        ``(lower, upper)``.

    Notes
    -----
    Read from the symbol's assumptions only, never from an expression: ``nonnegative``
    gives :math:`(0, \\infty)`, since removing the single point 0 changes no "almost every"
    statement. Every region of :func:`activation_regions` lies in this interval, and every
    sample point strictly inside it.

    See Also
    --------
    activation_regions : splits this interval into regions.
    Region : an open interval with a rational point inside.

    Examples
    --------
    >>> declared_interval(sp.Symbol("x", positive=True))
    (0, oo)
    >>> declared_interval(sp.Symbol("x", real=True))
    (-oo, oo)
    """
    if x.is_nonnegative:
        return sp.S.Zero, sp.S.Infinity
    if x.is_nonpositive:
        return sp.S.NegativeInfinity, sp.S.Zero
    return sp.S.NegativeInfinity, sp.S.Infinity


class NotRealValued(ValueError):
    """A function of the family takes a non-real value at a sample point (the expert is not
    real there: a parameter or input outside where it is defined)."""


#: Digits of the mpmath evaluation whose values (rounded once to doubles) feed the proposals.
_EVAL_DPS = 30


def _candidate_points(regions: list[Region], per_region: int,
                      span: float) -> list[tuple[sp.Rational, int]]:
    pts: list[tuple[sp.Rational, int]] = []
    for idx, reg in enumerate(regions):
        for k in range(per_region):
            p = _rational_inside(reg.lower, reg.upper, (k + 1) / (per_region + 1), span)
            if all(p != q for q, _ in pts):
                pts.append((p, idx))
    return pts


def _mp_evaluators(branches: list[list[sp.Expr]], x: sp.Symbol) -> list[Callable[[Any], Any]]:
    # docstring_limit=0: the same code, without printing each expression for a docstring
    return [sp.lambdify(x, fs, modules="mpmath", cse=True, docstring_limit=0) for fs in branches]


def _mp_value(v: Any) -> Any:
    if isinstance(v, mpmath.mpc):
        if abs(v.imag) > abs(v.real) * mpmath.mpf(10) ** (-mpmath.mp.dps + 5) and v.imag != 0:
            raise NotRealValued("functions must be real-valued at the sample points")
        return v.real
    return mpmath.mpf(v)


def _value_matrix(evaluators: list[Callable[[Any], Any]], points: list[tuple[sp.Rational, int]],
                  dps: int = _EVAL_DPS) -> list[list[Any]]:
    """Values ``f_i(x_r)`` in mpmath at ``dps`` digits (pure Python: machine-independent)."""
    out = []
    with mpmath.workdps(dps):
        for p, reg_idx in points:
            t = mpmath.mpf(int(p.p)) / int(p.q)
            try:
                vals = evaluators[reg_idx](t)
            except (ZeroDivisionError, ValueError) as exc:
                raise ValueError(f"functions must be finite at the sample point {p}") from exc
            row = [_mp_value(v) for v in vals]
            if not all(mpmath.isfinite(v) for v in row):
                raise ValueError(f"functions must be finite at the sample point {p}")
            out.append(row)
    return out


#: The golden-ratio rule of the scattered points (fractions ``k * phi mod 1``).
_GOLDEN = (math.sqrt(5) - 1) / 2


def _scattered_points(regions: list[Region], per_region: int,
                      span: float = 4.0) -> list[tuple[sp.Rational, int]]:
    """``per_region`` points per region at the fractions ``(k + 1) phi mod 1`` of its window:
    irregular and asymmetric (no point is the mirror image of another about 0)."""
    pts: list[tuple[sp.Rational, int]] = []
    for idx, reg in enumerate(regions):
        lo, hi = reg.lower, reg.upper
        a = float(lo) if lo.is_finite else (float(hi) - span if hi.is_finite else -span)
        b = float(hi) if hi.is_finite else (float(lo) + span if lo.is_finite else span)
        for k in range(per_region):
            frac = 0.02 + 0.96 * (((k + 1) * _GOLDEN) % 1.0)
            p = sp.Rational(round((a + frac * (b - a)) * 2**12), 2**12)
            if not reg.contains(p):
                p = _rational_inside(lo, hi, frac, span)
            if all(p != q for q, _ in pts):
                pts.append((p, idx))
    return pts
