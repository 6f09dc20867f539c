r"""The relation search's setup: :math:`\partial^\alpha H` as rational functions of symbols,
and the exact check of a candidate relation.

Transcendental pieces become *kernels* with closed derivative rules, radicals become symbols
:math:`r` with :math:`r^2` the radicand (:class:`_Atoms`); :func:`_setup` differentiates
:math:`H = G\,h` on every smooth piece of the expert; :func:`_verify` decides exactly whether
:math:`\sum_\alpha c_\alpha \partial^\alpha H` vanishes (polynomial remainder modulo
:math:`r^2 - \text{radicand}`). See :mod:`moetheory.symbolic.interactions`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from moetheory.symbolic._interaction_budget import checkpoint
from moetheory.symbolic._interaction_relations import _R_BETA
from moetheory.symbolic._interaction_specs import (
    ExpertSpec,
    RouterSpec,
    coordinates,
    symbol_latex,
)

__all__: list[str] = []


class UnsupportedExpression(ValueError):
    """A router or expert outside what the relation search handles (a refusal, one line)."""


# Kernels: transcendental functions with closed derivative rules (no automatic exp merging).
class _KExp(sp.Function):
    nargs = 1

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return self


class _KTanh(sp.Function):
    nargs = 1

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return 1 - self**2


class _KGauss(sp.Function):
    """(2/√π)·exp(−w²), the derivative of erf(w)."""

    nargs = 1

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return -2 * self.args[0] * self


class _KErf(sp.Function):
    nargs = 1

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return _KGauss(self.args[0])


class _KTan(sp.Function):
    """tan w; sin and cos are rational in tan(w/2)."""

    nargs = 1

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return 1 + self**2


class _KLog(sp.Function):
    nargs = 1

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return 1 / self.args[0]


_KERNELS = (_KExp, _KTanh, _KGauss, _KErf, _KTan, _KLog)
_SUPPORTED = "exp, sinh, cosh, tanh, erf, sin, cos, tan, log, rational powers with square " \
    "roots, sqrt of a sum of squares, Abs, sign, Max/Min/Piecewise/Heaviside (pieces), " \
    "undefined functions"
_ALLOWED = (sp.exp, sp.tanh, sp.sinh, sp.cosh, sp.erf, sp.sin, sp.cos, sp.tan, sp.log, sp.Abs,
            sp.Max, sp.Min, sp.Heaviside, sp.Piecewise, sp.sign)


def _half_tan(w: sp.Expr) -> sp.Expr:
    return _KTan(w / 2)


def _kernelise(expr: sp.Expr) -> sp.Expr:
    """exp, tanh, erf, tan, log → kernels (sinh, cosh through exp; sin, cos through tan of
    the half angle); refuses anything else with a one-line :class:`UnsupportedExpression`."""
    unsupported = {type(f).__name__ for f in expr.atoms(sp.Function)
                   if not isinstance(f, _ALLOWED)
                   and not isinstance(f, sp.core.function.AppliedUndef)}
    if unsupported:
        raise UnsupportedExpression(f"unsupported function(s) {sorted(unsupported)}; "
                                    f"supported: {_SUPPORTED}")
    for p in expr.atoms(sp.Pow):
        if not p.exp.is_Rational:
            raise UnsupportedExpression(
                f"unsupported power {sp.sstr(p)}: exponents must be rational numbers (write "
                "exp(...) for a power of e)")
        if p.exp.q not in (1, 2) and not p.base.is_number:
            raise UnsupportedExpression(
                f"unsupported radical {sp.sstr(p)}: only square roots are supported")
    expr = expr.replace(sp.exp, _KExp).replace(sp.tanh, _KTanh).replace(sp.erf, _KErf)
    expr = expr.replace(sp.sinh, lambda w: (_KExp(w) - 1 / _KExp(w)) / 2)
    expr = expr.replace(sp.cosh, lambda w: (_KExp(w) + 1 / _KExp(w)) / 2)
    expr = expr.replace(sp.sin, lambda w: 2 * _half_tan(w) / (1 + _half_tan(w) ** 2))
    expr = expr.replace(sp.cos, lambda w: (1 - _half_tan(w) ** 2) / (1 + _half_tan(w) ** 2))
    expr = expr.replace(sp.tan, _KTan).replace(sp.log, _KLog)
    return expr


def _check_rational(expr: sp.Expr) -> None:
    """Refuse an irrational constant left outside the kernels (the field is over Q)."""
    bad = {a for a in expr.atoms(sp.NumberSymbol, sp.Pow, sp.Function)
           if a.is_number and not a.is_Rational}
    if bad:
        raise UnsupportedExpression(
            f"unsupported constant(s) {sorted(map(sp.sstr, bad))}: the coefficients of H and "
            "its derivatives must be rational (make an irrational constant a symbol, a "
            "hyper-parameter)")


def _no_delta(expr: sp.Expr) -> sp.Expr:
    """Drop DiracDelta terms: derivatives of sign/Heaviside vanish off the kinks, and every
    relation is claimed on the open pieces only."""
    if not expr.has(sp.DiracDelta):
        return expr
    return expr.replace(sp.DiracDelta, lambda *args: sp.S.Zero)


#: Functions that make an expression piecewise (split by :func:`_pieces`).
_PIECEWISE = (sp.Max, sp.Min, sp.Heaviside, sp.Piecewise, sp.sign)


def _pieces(expr: sp.Expr) -> list[tuple[sp.Expr, Any]]:
    """Smooth pieces of an expert: ``[(expr, condition)]`` (one piece ``True`` if smooth).

    The conditions are made exclusive (a Piecewise takes the first true condition); a piece
    whose exclusive condition SymPy reduces to false, or to the empty set of its one
    variable, is dropped: a relation need not hold where the expert is never that piece."""
    if expr.has(sp.Max, sp.Min, sp.Heaviside):
        expr = expr.rewrite(sp.Piecewise)
    if expr.has(sp.Abs):
        expr = expr.replace(sp.Abs, lambda w: sp.Piecewise((w, w > 0), (-w, True)))
    if expr.has(sp.sign):  # sign(0) = 0 only on a null set
        expr = expr.replace(sp.sign, lambda w: sp.Piecewise((1, w > 0), (-1, True)))
    if not expr.has(sp.Piecewise):
        return [(expr, sp.true)]
    folded = sp.piecewise_fold(expr)
    if not isinstance(folded, sp.Piecewise):
        raise UnsupportedExpression(f"cannot split {sp.sstr(expr)} into smooth pieces")
    out: list[tuple[sp.Expr, Any]] = []
    before: list[Any] = []
    for e, c in folded.args:
        cond = sp.And(c, *[sp.Not(b) for b in before]) if before else c
        before.append(c)
        if cond is sp.false or _empty(cond):
            continue
        out.append((e, cond))
    return out


def _empty(cond: Any) -> bool:
    """Whether SymPy proves a condition of one real variable unsatisfiable."""
    free = cond.free_symbols
    if len(free) != 1 or not next(iter(free)).is_real:
        return False
    try:
        return bool(cond.as_set() == sp.EmptySet)
    except (NotImplementedError, TypeError, ValueError):
        return False


@dataclass
class _Atoms:
    """Symbols standing for kernels and radicals."""

    kernels: dict[sp.Expr, sp.Symbol] = field(default_factory=dict)
    radicals: dict[sp.Expr, sp.Symbol] = field(default_factory=dict)  # radicand -> r

    def atomise(self, expr: sp.Expr, xs: set[sp.Symbol]) -> sp.Expr:
        reps: dict[sp.Expr, sp.Expr] = {}
        for k in sorted(expr.atoms(*_KERNELS, sp.core.function.AppliedUndef,
                                   sp.Derivative), key=sp.default_sort_key):
            if isinstance(k, _KGauss):
                w = k.args[0]
                c, _ = w.as_independent(*(w.free_symbols), as_Add=False)
                sym = self._kernel(k)
                reps[k] = sym / c  # c * Gauss(c*w) always appears together
            else:
                reps[k] = self._kernel(k)
        for p in expr.atoms(sp.Pow):
            if p.exp.is_Rational and p.exp.q == 2 and not p.base.is_number:
                reps[p] = self._radical(p.base) ** int(2 * p.exp)
        for a in expr.atoms(sp.Abs):
            reps[a] = self._radical(a.args[0] ** 2)
        for s in expr.atoms(sp.sign):
            reps[s] = s.args[0] / self._radical(s.args[0] ** 2)
        return expr.xreplace(reps) if reps else expr

    def _kernel(self, k: sp.Expr) -> sp.Symbol:
        if k not in self.kernels:
            self.kernels[k] = sp.Symbol(f"K{len(self.kernels)}")
        return self.kernels[k]

    def _radical(self, base: sp.Expr) -> sp.Symbol:
        base = sp.expand(base)
        if base not in self.radicals:
            self.radicals[base] = sp.Symbol(f"R{len(self.radicals)}", positive=True)
        return self.radicals[base]


def _squares_centre(base: sp.Expr, xs: Sequence[sp.Symbol]) -> list[sp.Expr] | None:
    """``c`` with ``base == Σ (x_i - c_i)^2`` (c free of x), or None."""
    centre = [-sp.expand(base).coeff(xi, 1) / 2 for xi in xs]
    if any(c.free_symbols & set(xs) for c in centre):
        return None
    if sp.expand(base - sp.Add(*[(xi - c) ** 2 for xi, c in zip(xs, centre, strict=True)])) != 0:
        return None
    return centre


def _stereo(sig: Sequence[Any]) -> list[Any]:
    """Stereographic unit vector ω(σ) in dimension len(sig) + 1 (rational)."""
    n2 = sum(s * s for s in sig)
    return [2 * s / (1 + n2) for s in sig] + [(1 - n2) / (1 + n2)]


def _kernel_text(kernel: sp.Expr) -> str:
    """A kernel as inline LaTeX (``$...$``), in the paper's names."""
    expr = kernel.replace(_KExp, sp.exp).replace(_KTanh, sp.tanh).replace(_KErf, sp.erf)
    expr = expr.replace(_KTan, sp.tan).replace(_KLog, sp.log)
    if isinstance(kernel, _KGauss):
        w = kernel.args[0]
        tex = r"\frac{2}{\sqrt{\pi}} e^{-w^2}\ (w = " + sp.latex(
            w, symbol_names=_names(w)) + ")"
    else:
        tex = sp.latex(expr, symbol_names=_names(expr))
    return f"${tex}$"


def _names(expr: sp.Expr) -> dict[sp.Symbol, str]:
    return {s: symbol_latex(s) for s in expr.free_symbols if isinstance(s, sp.Symbol)}


def _multi_indices(params: Sequence[sp.Symbol], order: int) -> list[tuple[sp.Symbol, ...]]:
    out: list[tuple[sp.Symbol, ...]] = []
    for r in range(order + 1):
        out += list(itertools.combinations_with_replacement(params, r))
    return out


def _derivatives(expr: sp.Expr, alphas: list[tuple[sp.Symbol, ...]]) -> dict[tuple, sp.Expr]:
    out: dict[tuple, sp.Expr] = {(): expr}
    for alpha in alphas:
        if alpha:
            checkpoint()
            out[alpha] = _no_delta(sp.diff(out[alpha[:-1]], alpha[-1]))
    return out


@dataclass
class _Setup:
    xs: tuple[sp.Symbol, ...]
    params: tuple[sp.Symbol, ...]
    alphas: list[tuple[sp.Symbol, ...]]
    pieces: list[tuple[dict[tuple, sp.Expr], Any]]  # atomised derivatives per piece
    atoms: _Atoms
    x_radical: tuple[sp.Symbol, list[sp.Expr]] | None
    p_radical: tuple[sp.Symbol, sp.Expr, list[sp.Symbol]] | None
    #: positive symbols ``v`` under a square root → the symbol ``s`` standing for
    #: :math:`\sqrt v` (the derivatives are written with ``v = s**2``; relations in ``v``)
    squares: dict[sp.Symbol, sp.Symbol] = field(default_factory=dict)
    #: the cells of x-space imposed, (piece index, side ±1 of the kink of |x - c| in d = 1,
    #: 0 for no side); None: every cell (a parameter regime where some are empty: fewer)
    cells: frozenset[tuple[int, int]] | None = None

    def imposed(self, piece: int, side: int) -> bool:
        """Whether the search imposes the cell (``side`` 0: the whole piece)."""
        if self.cells is None:
            return True
        return any(i == piece and (side == 0 or s in (0, side)) for i, s in self.cells)

    @functools.cached_property
    def checks(self) -> list[tuple[dict[tuple, sp.Expr], bool]]:
        """What :func:`_verify` checks: per imposed cell the derivatives, and whether the
        radical in x stays a symbol (``False``: one side of the kink, x = c ± rho)."""
        out: list[tuple[dict[tuple, sp.Expr], bool]] = []
        for i, (ders, _) in enumerate(self.pieces):
            sides = sorted({s for j, s in self.cells if j == i}) if self.cells is not None \
                else [0]
            if not sides:
                continue
            if sides == [0] or self.x_radical is None or len(self.xs) != 1 or \
                    set(sides) == {1, -1}:
                out.append((ders, True))
                continue
            r, centre = self.x_radical
            rho = sp.Symbol("rho_", positive=True)
            sub = {self.xs[0]: centre[0] + sides[0] * rho, r: rho}
            out.append(({a: e.xreplace(sub) for a, e in ders.items()}, False))
        return out

    def internal(self, expr: Any) -> Any:
        """A coefficient in the parameters (``sqrt(v)`` allowed) in the search's symbols."""
        if not self.squares:
            return expr
        return sp.sympify(expr).xreplace({v: s**2 for v, s in self.squares.items()})

    def external(self, expr: Any) -> Any:
        """A coefficient in the search's symbols back in the parameters."""
        if not self.squares:
            return expr
        return sp.sympify(expr).xreplace({s: sp.sqrt(v) for v, s in self.squares.items()})


def _without_constant_factor(expr: sp.Expr) -> sp.Expr:
    """``expr`` without a constant factor (``1/sqrt(2 pi)`` of a density): the relations of
    ``c H`` are those of ``H``."""
    free = expr.free_symbols
    if not free or not isinstance(expr, sp.Mul):
        return expr
    const, rest = expr.as_independent(*free, as_Add=False)
    return rest if const.is_number and const != 0 and rest != 1 else expr


def _positive_roots(exprs: Sequence[sp.Expr]) -> dict[sp.Symbol, sp.Symbol]:
    """Positive symbols ``v`` under a square root (``sqrt(v)``, ``v**(3/2)``), each with a
    new positive symbol standing for ``sqrt(v)``."""
    found: set[sp.Symbol] = set()
    for e in exprs:
        for p in e.atoms(sp.Pow):
            if (p.exp.is_Rational and p.exp.q == 2 and isinstance(p.base, sp.Symbol)
                    and p.base.is_positive):
                found.add(p.base)
    return {v: sp.Symbol(f"sqrt_{v}", positive=True) for v in sorted(found, key=str)}


def _setup(router: RouterSpec, expert: ExpertSpec, d: int, order: int,
           alphas: list[tuple] | None = None,
           cells: frozenset[tuple[int, int]] | None = None) -> _Setup:
    for spec in (router, expert):
        if spec.dims is not None and d not in spec.dims:
            raise ValueError(f"d must be one of {spec.dims} for {spec.name!r}, got {d}")
    xs = coordinates(d)
    g, rparams = router.build(xs)
    h, eparams = expert.build(xs)
    params = tuple(rparams) + tuple(eparams)
    if len(set(params)) != len(params):
        raise ValueError("router and expert parameters must have different names")
    if alphas is None:
        alphas = _multi_indices(params, order)
    else:
        closure = {a[:i] for a in alphas for i in range(len(a) + 1)}
        alphas = sorted(closure, key=lambda a: (len(a), [params.index(q) for q in a]))
    atoms = _Atoms()
    g, h = _without_constant_factor(sp.sympify(g)), _without_constant_factor(sp.sympify(h))
    if g.has(*_PIECEWISE):  # a piecewise gate: the pieces of H = G h together
        g, h = sp.Integer(1), g * h
    gk = _kernelise(g)
    squares = _positive_roots([g, h])
    to_s = {v: s**2 for v, s in squares.items()}
    pieces = []
    for hp, cond in _pieces(h):
        big_h = gk * _kernelise(hp)
        ders = _derivatives(big_h, alphas)
        if to_s:  # differentiated in v, then written with v = s**2 (sqrt(s**2) = s)
            ders = {a: e.xreplace(to_s) for a, e in ders.items()}
            cond = cond.xreplace(to_s) if isinstance(cond, sp.Basic) else cond
        atomised = {a: atoms.atomise(e, set(xs)) for a, e in ders.items()}
        for e in atomised.values():
            _check_rational(e)
        pieces.append((atomised, cond))
    if not pieces:
        raise UnsupportedExpression("the expert has no non-empty piece")
    x_rad = None
    p_rad = None
    for base, r in atoms.radicals.items():
        if base.free_symbols & set(xs):
            centre = _squares_centre(base, xs)
            if centre is None or x_rad is not None:
                raise UnsupportedExpression(f"unsupported radical sqrt({sp.sstr(base)}): at "
                                            "most one radical in x, of the form ||x - c||")
            x_rad = (r, centre)
        else:
            vec = sorted(base.free_symbols, key=str)
            if (p_rad is not None or not set(vec) <= set(params)
                    or sp.expand(base - sp.Add(*[v**2 for v in vec])) != 0):
                raise UnsupportedExpression(f"unsupported radical sqrt({sp.sstr(base)}): at "
                                            "most one parameter radical, the norm of a "
                                            "parameter vector")
            p_rad = (r, base, [v for v in params if v in vec])
    return _Setup(xs, params, alphas, pieces, atoms, x_rad, p_rad, squares, cells)


def _param_substitution(setup: _Setup, sign: int) -> tuple[dict[sp.Symbol, Any],
                                                           list[sp.Symbol]]:
    """β = ν ω(σ) (d ≥ 2) or β = ±ν (d = 1); returns the substitution and the new symbols."""
    if setup.p_radical is None:
        return {}, []
    r, _, vec = setup.p_radical
    nu = sp.Symbol("nu_", positive=True)
    sig = [sp.Symbol(f"sigma_{i}", real=True) for i in range(1, len(vec))]
    omega = _stereo(sig) if sig else [sign]
    sub: dict[sp.Symbol, Any] = {v: nu * w for v, w in zip(vec, omega, strict=True)}
    sub[r] = nu
    return sub, [nu, *sig]


def _back_substitution(setup: _Setup) -> dict[sp.Symbol, sp.Expr]:
    assert setup.p_radical is not None
    _, _, vec = setup.p_radical
    nu = sp.Symbol("nu_", positive=True)
    out: dict[sp.Symbol, sp.Expr] = {nu: _R_BETA}
    for i in range(1, len(vec)):
        out[sp.Symbol(f"sigma_{i}", real=True)] = vec[i - 1] / (_R_BETA + vec[-1])
    return out


def _field_symbols(setup: _Setup, extra: list[sp.Symbol]) -> list[sp.Symbol]:
    used: set[sp.Symbol] = set()
    for ders, _ in setup.pieces:
        for e in ders.values():
            used |= e.free_symbols
    rad = set(setup.p_radical[2]) if setup.p_radical else set()
    kernels = set(setup.atoms.kernels.values()) | set(setup.atoms.radicals.values())
    syms = sorted(used - set(setup.xs) - kernels - rad, key=str)
    return syms + extra


def _verify(setup: _Setup, coeffs: dict[tuple, sp.Expr]) -> bool:
    """Exact: Σ c_α ∂^α H reduces to 0 on every piece (polynomial remainder)."""
    if setup.p_radical is not None:
        coeffs = {a: c.xreplace({_R_BETA: setup.p_radical[0]}) for a, c in coeffs.items()}
    coeffs = {a: setup.internal(c) for a, c in coeffs.items()}
    return all(_verify_cell(setup, ders, coeffs, _relations(setup, x_rad))
               for ders, x_rad in setup.checks)


def _relations(setup: _Setup, x_radical: bool) -> list[tuple[sp.Symbol, sp.Expr]]:
    """The radicals with their radicands (the one in x only when it stays a symbol)."""
    rels = []
    if setup.x_radical is not None and x_radical:
        r, centre = setup.x_radical
        rels.append((r, sp.Add(*[(xi - c) ** 2 for xi, c in
                                 zip(setup.xs, centre, strict=True)])))
    if setup.p_radical is not None:
        r, base, _ = setup.p_radical
        rels.append((r, base))
    return rels


def _verify_cell(setup: _Setup, ders: dict[tuple, sp.Expr], coeffs: dict[tuple, sp.Expr],
                 rels: list[tuple[sp.Symbol, sp.Expr]]) -> bool:
    """:func:`_verify` on one cell."""
    try:
        return _verify_ring(ders, coeffs, rels)
    except (ValueError, sp.PolynomialError):
        pass  # pieces that are not polynomial in the symbols (e.g. Subs): symbolic route
    checkpoint()
    total = sp.Add(*[c * ders[a] for a, c in coeffs.items()])
    num, _den = sp.fraction(sp.together(total))
    num = sp.expand(num)
    for r, base in rels:
        if num.has(r):
            num = sp.Poly(num, r).rem(sp.Poly(r**2 - base, r)).as_expr()
            num = sp.expand(num)
    return bool(num == 0)


def _verify_ring(ders: dict[tuple, sp.Expr], coeffs: dict[tuple, sp.Expr],
                 rels: list[tuple[sp.Symbol, sp.Expr]]) -> bool:
    """:func:`_verify` in a sparse polynomial ring (raises ``ValueError`` when a piece is not
    polynomial in its symbols after clearing denominators)."""
    radicals = [r for r, _ in rels]
    syms: set[sp.Symbol] = set()
    for a, c in coeffs.items():
        syms |= ders[a].free_symbols | sp.sympify(c).free_symbols
    for _, base in rels:
        syms |= base.free_symbols
    # lex order with the radicals first: r_i^2 - base_i (leading monomials r_i^2, pairwise
    # coprime) are a Groebner basis, so the remainder is 0 iff the numerator is in the
    # ideal, i.e. 0 once each r_i is the square root of its radicand
    gens = [*radicals, *sorted(syms - set(radicals), key=str)]
    ring = sp.ring(gens, sp.QQ, sp.lex)[0]
    groups: dict[Any, Any] = {}
    for a, c in coeffs.items():
        checkpoint()
        num, den = sp.fraction(sp.together(ders[a]))
        dpoly = ring.from_expr(den)
        term = ring.from_expr(num) * ring.from_expr(c)
        groups[dpoly] = groups.get(dpoly, ring.zero) + term
    dens = list(groups)
    total = ring.zero
    for i, d in enumerate(dens):
        other = ring.one
        for j, e in enumerate(dens):
            if j != i:
                other *= e
        total += groups[d] * other
    if rels:
        total = total.rem([ring.from_expr(r**2 - base) for r, base in rels])
    return bool(total == 0)
