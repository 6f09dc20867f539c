"""A grammar of expert families (Hypothesis strategies) and a numeric oracle for
:func:`moetheory.symbolic.identifiable.identifiable` that shares no code with the engine.

The oracle reads only the published certificate (its ``atoms``, its ``coefficients`` keyed by
the family labels such as ``u^2*D[a,b]h(x,eta1)``, the reading's orders, router and ``k``) and
rebuilds everything else itself with SymPy differentiation and mpmath evaluation at 50 digits:

* a claimed dependence: the certified combination, evaluated at random points of the input's
  declared domain, is 0 to 35 digits relative to the size of its terms;
* a claimed independence: the family (its own construction, list semantics) at random points
  has full numeric rank (smallest singular value above 1e-30 of the largest) at the
  certificate's atoms and at atoms drawn from the stated scope: anywhere in the declared
  domain for "almost every atom tuple", within 1e-3 of the certificate's atoms for "an open
  set".
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

import mpmath
import sympy as sp
from hypothesis import strategies as st

__all__ = ["experts", "oracle_check"]

#: Assumptions a generated symbol may carry (none at all: SymPy's complex symbol).
_ASSUMPTIONS: tuple[dict[str, bool], ...] = ({}, {"real": True}, {"positive": True})


def _unary(name: str, z: sp.Expr) -> sp.Expr:
    return {
        "exp": sp.exp(z), "tanh": sp.tanh(z), "sin": sp.sin(z), "square": z**2,
        "cube": z**3, "abs": sp.Abs(z), "relu": sp.Max(z, 0), "min": sp.Min(z, 1),
        "elu": sp.Piecewise((z, z > 0), (sp.exp(z) - 1, True)),
        "radical": sp.sqrt(z**2 + 1), "sigmoid": 1 / (1 + sp.exp(-z)),
        "softplus": sp.log(1 + sp.exp(z)), "gauss": sp.exp(-(z**2)),
    }[name]


UNARIES = ("exp", "tanh", "sin", "square", "cube", "abs", "relu", "min", "elu", "radical",
           "sigmoid", "softplus", "gauss")


@st.composite
def experts(draw: Any) -> tuple[sp.Expr, sp.Symbol, list[sp.Symbol], str]:
    """``(h, x, [a, b], reading)``: ``h = phi(a x + b)``, ``phi(a x) + b``, ``phi(a x + b) *
    psi(a)`` or ``sqrt(a**2) x + b``-style kinks, symbols with or without assumptions."""
    a = sp.Symbol("a", **draw(st.sampled_from(_ASSUMPTIONS)))
    b = sp.Symbol("b", **draw(st.sampled_from(_ASSUMPTIONS)))
    x = sp.Symbol("x", **draw(st.sampled_from(_ASSUMPTIONS)))
    phi = draw(st.sampled_from(UNARIES))
    shape = draw(st.sampled_from(("ridge", "shifted", "scaled", "kink")))
    if shape == "ridge":
        h = _unary(phi, a * x + b)
    elif shape == "shifted":
        h = _unary(phi, a * x) + b
    elif shape == "scaled":
        h = _unary(phi, b * x) * sp.exp(a)
    else:
        h = _unary(phi, (a + sp.sqrt(a**2)) * x + b)
    reading = draw(st.sampled_from(("eta-only-2", "pcos-1", "pcos-1-no-order0")))
    return h, x, [a, b], reading


# ----------------------------------------------------------------------------- the oracle

#: The readings the grammar draws: (router multiplier, min order, max order).
_READINGS = {"eta-only-2": ("none", 0, 2), "pcos-1": ("u", 0, 1),
             "pcos-1-no-order0": ("u", 1, 1)}
_DPS = 50


def _real(v: sp.Symbol) -> sp.Symbol:
    """The real variable a symbol stands for (the oracle's own rule: sign facts kept)."""
    if v.is_real:
        return v
    return sp.Symbol(v.name, real=True)


def _domain_value(v: sp.Symbol, rng: random.Random) -> sp.Rational:
    mag = sp.Rational(rng.randint(300, 2000), 1000)
    return mag if v.is_positive else mag * rng.choice((-1, 1))


def _family(h: sp.Expr, x: sp.Symbol, params: Sequence[sp.Symbol], reading: str,
            atoms: Sequence[Mapping[sp.Symbol, sp.Expr]]) -> dict[str, sp.Expr]:
    """The family of ``reading`` keyed by label, built independently of the engine."""
    router, lo, hi = _READINGS[reading]
    u = x / (sp.Abs(x) + 1)
    out: dict[str, sp.Expr] = {}
    for j, atom in enumerate(atoms, start=1):
        for r in range(hi + 1):
            for gamma in itertools.combinations_with_replacement(params, r):
                d = sp.diff(h, *gamma) if gamma else h
                for nu in range(hi - r + 1 if router == "u" else 1):
                    if not lo <= nu + r <= hi:
                        continue
                    m = "" if nu == 0 else ("u*" if nu == 1 else f"u^{nu}*")
                    g = f"D[{','.join(map(str, gamma))}]" if gamma else ""
                    out[f"{m}{g}h(x,eta{j})"] = (u**nu * d).xreplace(dict(atom))
    return out


def _value(e: sp.Expr, x: sp.Symbol, t: sp.Rational) -> mpmath.mpf:
    v = sp.N(e.xreplace({x: t}), _DPS)
    if not v.is_real:
        raise AssertionError(f"oracle: {e} is not real at x = {t}")
    return mpmath.mpf(str(v))


def _points(x: sp.Symbol, n: int, rng: random.Random) -> list[sp.Rational]:
    return [_domain_value(x, rng) * rng.randint(1, 3) for _ in range(n)]


def _kinks(fs: Sequence[sp.Expr], x: sp.Symbol) -> list[float]:
    """Where a function of the family may change branch: the real zeros in ``x`` of the
    arguments of Abs, sign, Heaviside, of Max/Min differences and Piecewise conditions."""
    found: set[float] = set()
    for f in fs:
        for node in sp.preorder_traversal(f):
            args: list[sp.Expr] = []
            if isinstance(node, sp.Abs | sp.sign | sp.Heaviside):
                args = [node.args[0]]
            elif isinstance(node, sp.Max | sp.Min):
                args = [p - q for p, q in itertools.combinations(node.args, 2)]
            elif isinstance(node, sp.Piecewise):
                args = [c.lhs - c.rhs for _, c in node.args if isinstance(c, sp.core.relational
                                                                          .Relational)]
            for g in args:
                for r in sp.solve(g, x):
                    if r.is_real:
                        found.add(float(r))
    return sorted(found)


def _region_points(fs: Sequence[sp.Expr], x: sp.Symbol, per: int,
                   rng: random.Random) -> list[sp.Rational]:
    """``per`` random rationals in every region between kinks, inside x's declared domain."""
    lo, hi = (0.0, 6.0) if x.is_positive else (-6.0, 6.0)
    cuts = [lo, *(k for k in _kinks(fs, x) if lo < k < hi), hi]
    pts = []
    for a, b in itertools.pairwise(cuts):
        for _ in range(per):
            pts.append(sp.Rational(round((a + (b - a) * rng.uniform(0.05, 0.95)) * 10**6),
                                   10**6))
    return pts


def _full_rank(fam: Mapping[str, sp.Expr], x: sp.Symbol, rng: random.Random) -> bool:
    fs = list(fam.values())
    pts = _region_points(fs, x, len(fs) + 2, rng)
    with mpmath.workdps(_DPS):
        m = mpmath.matrix([[_value(f, x, t) for f in fs] for t in pts])
        sv = mpmath.svd_r(m, compute_uv=False)
        big = max(abs(s) for s in sv)
        return bool(big > 0 and min(abs(s) for s in sv) > mpmath.mpf(10) ** -30 * big)


_LABEL = re.compile(r"^(u(\^\d+)?\*)?(D\[[^\]]*\])?h\(x,eta\d+\)$")


def oracle_check(res: Any, h: sp.Expr, x: sp.Symbol, params: Sequence[sp.Symbol],
                 reading: str, seed: int) -> None:
    """Assert that a decided verdict of ``identifiable`` agrees with the oracle."""
    rng = random.Random(seed)
    swap = {v: _real(v) for v in (x, *params)}
    h, x = h.xreplace(swap), swap[x]
    params = [swap[p] for p in params]
    by_name = {p.name: p for p in params}
    atoms = [{by_name[n]: sp.sympify(v) for n, v in a.items()}
             for a in res.certificate.get("atoms", [])]
    for a in atoms:  # the atoms satisfy the declared assumptions
        for p, v in a.items():
            assert not (p.is_positive and not v > 0), (p, v)
    verdict = res.verdict.value
    if verdict == "refuted":
        coeffs = {k: sp.sympify(c) for k, c in res.certificate["coefficients"].items()}
        assert all(_LABEL.match(k) for k in coeffs), coeffs
        fam = _family(h, x, params, reading, atoms)
        for t in _points(x, 4, rng):
            with mpmath.workdps(_DPS):
                terms = [mpmath.mpf(str(sp.N(c, _DPS))) * _value(fam[k], x, t)
                         for k, c in coeffs.items()]
                total, size = abs(mpmath.fsum(terms)), max(abs(v) for v in terms)
                assert total <= mpmath.mpf(10) ** -35 * max(size, 1), (t, total)
    elif verdict == "proved":
        assert _full_rank(_family(h, x, params, reading, atoms), x, rng), "certificate atoms"
        scope = res.scope["atoms"]
        if scope.startswith("almost every"):
            fresh = [{p: _domain_value(p, rng) for p in params} for _ in atoms]
        else:
            assert "open set" in scope, scope
            fresh = [{p: v + sp.Rational(rng.randint(-9, 9), 10**4) for p, v in a.items()}
                     for a in atoms]
        assert _full_rank(_family(h, x, params, reading, fresh), x, rng), (scope, fresh)
