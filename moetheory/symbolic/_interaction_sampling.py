r"""Exact linear algebra of the relation search: the columns :math:`\partial^\alpha H` as
field elements, their values at deterministic rational points, and null spaces over
:math:`\mathbb Q` and :math:`\mathbb Q[\text{coordinates}]` with primitive coefficients.
See :mod:`moetheory.symbolic.interactions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from moetheory.symbolic._interaction_budget import checkpoint
from moetheory.symbolic._interaction_setup import (
    _KErf,
    _KExp,
    _KGauss,
    _KTanh,
    _param_substitution,
    _Setup,
    _stereo,
)

__all__: list[str] = []

class _Rng:
    """Deterministic small rationals (linear congruential; machine-independent)."""

    def __init__(self, seed: int = 12345) -> None:
        self.state = seed

    def rational(self, lo: int = -9, hi: int = 9) -> sp.Rational:
        self.state = (1103515245 * self.state + 12345) % (2**31)
        num = lo + self.state % (hi - lo + 1)
        self.state = (1103515245 * self.state + 12345) % (2**31)
        den = 2 + self.state % 7
        return sp.Rational(num, den) if num != 0 else sp.Rational(1, den + 1)


@dataclass
class _Version:
    """One smooth piece (and sign choice in d = 1) with the columns as exact field elements."""

    point_gens: list[Any]  # field generators that receive sample values
    kinds: list[str]  # "pos" (> 0), "unit" (in (-1, 1)) or "any" for each point generator
    coord_gens: list[Any]
    columns: dict[tuple, Any]  # multi-index -> FracElement over Q(point gens, coords)


def _kind(kernel: sp.Expr) -> str:
    if isinstance(kernel, (_KExp, _KGauss)):
        return "pos"
    if isinstance(kernel, (_KTanh, _KErf)):
        return "unit"
    return "any"


def _versions(setup: _Setup, cols: list[tuple], coords: list[sp.Symbol]) -> list[_Version]:
    d = len(setup.xs)
    kernels = sorted(setup.atoms.kernels.items(), key=lambda kv: str(kv[1]))
    if setup.x_radical is not None:
        r, centre = setup.x_radical
        rho = sp.Symbol("rho_", positive=True)
        sx = [sp.Symbol(f"s_{i}", real=True) for i in range(1, d)]
        x_subs = []
        for sgn in ([1] if d > 1 else [1, -1]):
            omega = _stereo(sx) if d > 1 else [sgn]
            sub: dict[sp.Symbol, Any] = {xi: c + rho * w
                                         for xi, c, w in zip(setup.xs, centre, omega, strict=True)}
            sub[r] = rho
            x_subs.append(sub)
        point_syms = [rho, *sx]
        kinds = ["pos"] + ["any"] * len(sx)
    else:
        x_subs = [{}]
        point_syms = list(setup.xs)
        kinds = ["any"] * d
    kinds += [_kind(k) for k, _ in kernels]
    p_signs = [1, -1] if (d == 1 and setup.p_radical) else [1]
    syms = point_syms + [sym for _, sym in kernels] + coords
    field, *gens = sp.field(syms, sp.QQ)
    npt = len(point_syms) + len(kernels)
    out = []
    sides = [1, -1] if (setup.x_radical is not None and d == 1) else [0]
    for i, (ders, _cond) in enumerate(setup.pieces):
        for xsub, side in zip(x_subs, sides, strict=True):
            if not setup.imposed(i, side):
                continue
            for sign in p_signs:
                psub, _ = _param_substitution(setup, sign)
                columns = {}
                for a in cols:
                    checkpoint()
                    e = ders[a]
                    if xsub:
                        e = e.xreplace(xsub)
                    if psub:
                        e = e.xreplace(psub)
                    columns[a] = _fraction(field, e)
                out.append(_Version(gens[:npt], kinds, gens[npt:], columns))
    return out


def _fraction(field: Any, expr: sp.Expr) -> Any:
    """``expr`` as an element of ``field``, numerator and denominator *not* cancelled.

    One ``together`` and two polynomial conversions (ring arithmetic on the unexpanded tree)
    instead of field arithmetic with a gcd at every sum (``field.from_expr``) or
    ``sympy.expand``: one to two orders of magnitude faster on the perturbed router. The value
    at every point is the same rational function; a point where the uncancelled denominator
    vanishes is skipped by :func:`_sample` like any pole.
    """
    num, den = sp.fraction(sp.together(expr))
    ring = field.ring
    return field.new(ring.from_expr(num), ring.from_expr(den))


def _evaluate(poly: Any, values: Sequence[Any], powers: list[dict[int, Any]]) -> Any:
    """Exact value of a ``PolyElement`` at a point, term by term (the same rational number
    as ``poly(*values)``, without its per-variable recursion); ``powers`` caches
    ``values[i] ** e`` across the polynomials of one point."""
    total = sp.QQ.zero
    for monom, coeff in poly.iterterms():
        term = coeff
        for i, e in enumerate(monom):
            if e:
                cache = powers[i]
                if e not in cache:
                    cache[e] = values[i] ** e
                term *= cache[e]
        total += term
    return total


def _value(rng: _Rng, kind: str) -> sp.Rational:
    v = rng.rational()
    if kind == "pos":
        return abs(v) + 1
    if kind == "unit":
        return v / (abs(v) + 1)
    return v


def _sample(versions: list[_Version], cols: list[tuple], n_rows: int, rng: _Rng,
            fixed: dict[int, sp.Rational]) -> list[list[Any]]:
    """Rows of values at ``n_rows`` random points per version. Coordinates with an index in
    ``fixed`` get that number; when all are fixed the values are rationals, otherwise
    elements of Q(remaining coordinates)."""
    rows: list[list[Any]] = []
    for v in versions:
        done = 0
        tries = 0
        while done < n_rows:
            checkpoint()
            tries += 1
            if tries > 10 * n_rows + 10:
                raise RuntimeError("no sample point avoids the poles")
            vals = [_value(rng, kind) for kind in v.kinds]
            pairs = [(g, sp.QQ(int(t.p), int(t.q))) for g, t in
                     zip(v.point_gens, vals, strict=True)]
            pairs += [(v.coord_gens[i], sp.QQ(int(t.p), int(t.q))) for i, t in fixed.items()]
            try:
                if len(fixed) == len(v.coord_gens):
                    allv = [q for _, q in pairs]
                    order = [*v.point_gens, *(v.coord_gens[i] for i in fixed)]
                    idx = {g: j for j, g in enumerate(order)}
                    ordered = [allv[idx[g]] for g in (*v.point_gens, *v.coord_gens)]
                    row = []
                    powers: list[dict[int, Any]] = [{} for _ in ordered]
                    for a in cols:
                        den = _evaluate(v.columns[a].denom, ordered, powers)
                        if den == 0:
                            raise ZeroDivisionError
                        row.append(_evaluate(v.columns[a].numer, ordered, powers) / den)
                else:
                    row = [v.columns[a].evaluate(pairs) for a in cols]
            except ZeroDivisionError:
                continue
            rows.append(row)
            done += 1
    return rows


def _independent_rows(rows: list[list[Any]], coords: list[sp.Symbol], rng: _Rng
                      ) -> list[list[Any]]:
    """A maximal set of rows independent at a random specialisation of the coordinates
    (so independent over Q(coords) too)."""
    if not coords or not rows:
        return rows
    vals = [sp.QQ(int(t.p), int(t.q)) for t in (_value(rng, "pos") for _ in coords)]
    numeric = []
    for row in rows:
        try:
            numeric.append([e.numer(*vals) / e.denom(*vals) for e in row])
        except ZeroDivisionError:
            return rows
    mat = DomainMatrix(numeric, (len(rows), len(rows[0])), sp.QQ)
    _, pivots = mat.transpose().rref()
    return [rows[i] for i in pivots]


def _nullspace(rows: list[list[Any]], coords: list[sp.Symbol],
               rng: _Rng | None = None) -> list[list[sp.Expr]]:
    """Null-space basis, each vector with cleared denominators and content (exact).

    Symbolic rows are first thinned to an independent set, scaled to polynomials, and the null
    space is computed fraction-free over Q[coords]."""
    if not coords:
        mat = DomainMatrix([[sp.QQ.convert(v) for v in row] for row in rows],
                           (len(rows), len(rows[0])), sp.QQ)
        ns = mat.nullspace()
        return [_primitive([sp.sympify(v) for v in vec]) for vec in ns.to_Matrix().tolist()] \
            if ns.shape[0] else []
    if rng is not None:
        rows = _independent_rows(rows, coords, rng)
    ring = sp.QQ[tuple(coords)]
    prow = []
    for row in rows:
        den = ring.one
        for v in row:
            den = den.lcm(v.denom.set_ring(ring.ring))
        prow.append([(v.numer.set_ring(ring.ring) * den.exquo(v.denom.set_ring(ring.ring)))
                     for v in row])
    mat = DomainMatrix(prow, (len(prow), len(prow[0])), ring)
    ns = mat.nullspace()
    out = []
    for vec in ns.to_list():
        g = ring.ring.zero
        for p in vec:
            g = g.gcd(p)
        polys = [p.exquo(g) for p in vec]
        out.append(_primitive([p.as_expr() for p in polys]))
    return out


def _rref_rows(vectors: list[list[sp.Expr]]) -> list[list[sp.Expr]]:
    """Reduced row echelon form of numeric vectors (a canonical basis of their span)."""
    if not vectors:
        return []
    mat, _ = sp.Matrix(vectors).rref()
    return [list(r) for r in mat.tolist() if any(v != 0 for v in r)]


def _primitive(coeffs: list[sp.Expr]) -> list[sp.Expr]:
    """Clear denominators, divide by the polynomial gcd, make the first coefficient positive."""
    coeffs = [sp.together(c) for c in coeffs]
    dens = [sp.fraction(c)[1] for c in coeffs if c != 0]
    lcm = sp.Integer(1)
    for den in dens:
        lcm = sp.lcm(lcm, den)
    polys = [sp.expand(sp.cancel(c * lcm)) for c in coeffs]
    nz = [p for p in polys if p != 0]
    g = nz[0]
    for p in nz[1:]:
        g = sp.gcd(g, p)
    polys = [sp.factor(sp.cancel(p / g)) for p in polys]
    first = next(p for p in polys if p != 0)
    lead = sp.Poly(sp.expand(first), *sorted(first.free_symbols, key=str)).LC() \
        if first.free_symbols else first
    if lead < 0:
        polys = [-p for p in polys]
    return polys


def _reduce(vec: list[sp.Expr], rref: list[list[sp.Expr]]) -> list[sp.Expr]:
    """``vec`` minus its components along the pivots of the reduced rows ``rref``."""
    out = list(vec)
    for row in rref:
        j = next(i for i, v in enumerate(row) if v != 0)
        if out[j] != 0:
            f = out[j] / row[j]
            out = [a - f * b for a, b in zip(out, row, strict=True)]
    return out
