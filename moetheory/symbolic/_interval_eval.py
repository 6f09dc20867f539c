"""Rigorous interval enclosures of constant SymPy expressions (``mpmath.iv``), and the
determinant of a matrix of them: the certificate of :mod:`.linear_independence` when the
sampled values are not rational.

``erf`` and ``erfc`` have enclosures of their own (a series near 0, a continued fraction in
the tails); an expression the enclosure does not cover raises :class:`_NotEvaluable`.
"""

from __future__ import annotations

from typing import Any

import mpmath
import sympy as sp
from mpmath import iv
from sympy.polys.domains import QQ
from sympy.polys.matrices import DomainMatrix

__all__ = ["interval_value"]


class _NotEvaluable(Exception):
    pass


#: Above this argument erf/erfc use the Laplace continued fraction, below the Taylor series.
_ERF_SWITCH = 3


def _iv_erfc_cf(t: Any) -> Any:
    """Enclosure of erfc(t) for a point interval t ≥ 3 by the Laplace continued fraction.

    ``√π e^{t²} erfc(t) = 1/(t + (1/2)/(t + 1/(t + (3/2)/(t + ...))))``; all partial
    numerators are positive, so successive convergents lie on alternate sides of the value
    and their hull encloses it. The relative width shrinks geometrically in the depth.
    """
    depth = 12 + int(4 * iv.dps / max(float(t.a), 1.0))
    convergents = []
    for d in (depth, depth + 1):
        tail = t
        for k in range(d, 0, -1):
            tail = t + iv.mpf(k) / 2 / tail
        convergents.append(1 / tail)
    lo = min(convergents[0].a, convergents[1].a)
    hi = max(convergents[0].b, convergents[1].b)
    return iv.mpf([lo, hi]) * iv.exp(-t * t) / iv.sqrt(iv.pi)


def _iv_erf_series(z: Any) -> Any:
    """erf on an interval by its alternating Taylor series with an explicit tail bound.

    erf(z) = 2/√π Σ (-1)^n z^(2n+1) / (n! (2n+1)); once n > z², the terms decrease in
    absolute value and the tail is bounded by the first omitted term.
    """
    zmax = float(abs(z).b)
    old = iv.dps
    iv.dps = old + int(zmax**2 / 2.3) + 10
    try:
        total, term, n = iv.mpf(0), z, 0
        z2 = z * z
        eps = mpmath.mpf(10) ** (-(old + 10))
        while True:
            total += term / (2 * n + 1)
            n += 1
            term = -term * z2 / n
            bound = mpmath.mpf(abs(term / (2 * n + 1)).b)
            if n > zmax**2 + 1 and bound < eps:
                break
        total += iv.mpf([-bound, bound])
        return 2 / iv.sqrt(iv.pi) * total
    finally:
        iv.dps = old


def _erfc_point(t: Any) -> Any:
    if float(t.a) >= _ERF_SWITCH:
        return _iv_erfc_cf(t)
    if float(t.b) <= -_ERF_SWITCH:
        return 2 - _iv_erfc_cf(-t)
    return 1 - _iv_erf_series(t)


def _iv_erf(z: Any) -> Any:
    """A rigorous enclosure of erf on an interval, tight over the whole real line.

    Taylor series with a tail bound for ``|z| < 3``, the Laplace continued fraction of erfc
    beyond (so the distance of erf to ±1 is enclosed with small *relative* error, however
    large the argument). An interval straddling ±3 is split there.
    """
    if float(z.a) >= _ERF_SWITCH:
        return 1 - _iv_erfc_cf(z)
    if float(z.b) <= -_ERF_SWITCH:
        return _iv_erfc_cf(-z) - 1
    if float(abs(z).b) > _ERF_SWITCH + 1:
        raise _NotEvaluable("erf argument interval straddles the series and fraction ranges")
    return _iv_erf_series(z)


def _iv_erfc(z: Any) -> Any:
    """A rigorous enclosure of erfc with small relative error for large z."""
    if float(abs(z).b) > _ERF_SWITCH + 1 and float(z.a) < _ERF_SWITCH < float(z.b):
        raise _NotEvaluable("erfc argument interval straddles the series and fraction ranges")
    return _erfc_point(z)


def _erf_plus_one(e: sp.Expr) -> sp.Expr:
    """Rewrite ``1 + erf(t)`` as ``erfc(-t)`` (and ``1 - erf(t)`` as ``erfc(t)``) so that the
    interval enclosure keeps its relative precision where erf is close to ∓1."""
    def fix(add: sp.Expr) -> sp.Expr:
        if not isinstance(add, sp.Add):
            return add
        ones = [a for a in add.args if a == 1 or a == -1]
        erfs = [a for a in add.args if isinstance(a, sp.erf) or
                (isinstance(a, sp.Mul) and a.args[0] == -1 and len(a.args) == 2
                 and isinstance(a.args[1], sp.erf))]
        if len(ones) != 1 or len(erfs) != 1:
            return add
        one, er = ones[0], erfs[0]
        rest = [a for a in add.args if a is not one and a is not er]
        if one == 1 and isinstance(er, sp.erf):
            new = sp.erfc(-er.args[0])
        elif one == 1:
            new = sp.erfc(er.args[1].args[0])
        else:
            return add
        return sp.Add(new, *rest, evaluate=False)
    return e.replace(lambda n: isinstance(n, sp.Add), fix)


def interval_value(value: sp.Expr) -> Any:
    """A rigorous ``mpmath.iv`` enclosure of a constant SymPy expression (current ``iv.dps``).

    Parameters
    ----------
    value : sympy.Expr
        A constant (no free symbols) built from rationals, ``pi``, ``E``, ``exp``, ``log``,
        ``tanh``, ``erf``/``erfc``, powers and arithmetic.

    Returns
    -------
    mpmath.iv.mpf
        An interval that contains the exact value (outward rounding).

    Notes
    -----
    ``erf`` and ``erfc`` are enclosed by their series for small arguments and by the
    asymptotic tail bound for large ones, so the enclosure stays tight over the whole range
    (``erfc(30)`` is separated from 0).

    See Also
    --------
    decide_linear_independence : uses it for non-rational determinants.

    Examples
    --------
    >>> 0 in interval_value(sp.tanh(sp.Rational(1, 2)) - sp.Rational(1, 2))
    False
    >>> interval_value(sp.erfc(sp.Integer(30))).a > 0  # erfc(30) ≈ 2.56e-393
    True
    """
    return _interval_value(sp.sympify(value), {})


def _interval_value(e: sp.Expr, cache: dict[sp.Expr, Any]) -> Any:
    if e in cache:
        return cache[e]
    out = _interval_node(e, cache)
    cache[e] = out
    return out


def _interval_node(e: sp.Expr, cache: dict[sp.Expr, Any]) -> Any:
    def interval_value(a: sp.Expr) -> Any:
        return _interval_value(a, cache)

    if e.is_Rational:
        return iv.mpf(int(e.p)) / int(e.q)
    if e is sp.pi:
        return iv.pi
    if e is sp.E:
        return iv.e
    if isinstance(e, sp.Add):
        total = iv.mpf(0)
        for a in e.args:
            total += interval_value(a)
        return total
    if isinstance(e, sp.Mul):
        prod = iv.mpf(1)
        for a in e.args:
            prod *= interval_value(a)
        return prod
    if isinstance(e, sp.Pow):
        base = interval_value(e.base)
        if e.exp.is_Integer:
            k = int(e.exp)
            return base**k if k >= 0 else 1 / base ** (-k)
        if e.exp == sp.Rational(1, 2):
            return iv.sqrt(base)
        return iv.exp(interval_value(e.exp) * iv.log(base))
    unary = {
        sp.exp: iv.exp,
        sp.log: iv.log,
        sp.erf: _iv_erf,
        sp.erfc: _iv_erfc,
        sp.sin: iv.sin,
        sp.cos: iv.cos,
    }
    if e.func in unary:
        return unary[e.func](interval_value(e.args[0]))
    if e.func in (sp.tanh, sp.sinh, sp.cosh):
        return interval_value(e.rewrite(sp.exp))
    raise _NotEvaluable(f"no interval rule for {e.func}")


def _interval_det(rows: list[list[Any]]) -> Any:
    a = [list(r) for r in rows]
    n = len(a)
    det = iv.mpf(1)
    for col in range(n):
        piv = max(range(col, n), key=lambda r: (abs(a[r][col].mid), -r))
        if 0 in a[piv][col]:
            return iv.mpf([-mpmath.inf, mpmath.inf])
        if piv != col:
            a[col], a[piv] = a[piv], a[col]
            det = -det
        det *= a[col][col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            for c in range(col + 1, n):
                a[r][c] -= factor * a[col][c]
    return det


def _exact_det(entries: list[list[sp.Expr]], dps: int) -> tuple[sp.Rational | None, Any]:
    """Exact rational determinant, or else an interval enclosure (None if not evaluable)."""
    if all(e.is_Rational for row in entries for e in row):
        dm = DomainMatrix([[QQ(int(e.p), int(e.q)) for e in row] for row in entries],
                          (len(entries), len(entries)), QQ)
        return sp.Rational(dm.det()), None
    old = iv.dps
    try:
        iv.dps = dps
        cache: dict[sp.Expr, Any] = {}
        rows = [[_interval_value(_erf_plus_one(e), cache) for e in row] for row in entries]
        return None, _interval_det(rows)
    except (_NotEvaluable, ZeroDivisionError, mpmath.libmp.NoConvergence):
        return None, None
    finally:
        iv.dps = old


def _interval_text(enclosure: Any) -> tuple[str, str]:
    return (mpmath.nstr(mpmath.mpf(enclosure.a), 25), mpmath.nstr(mpmath.mpf(enclosure.b), 25))
