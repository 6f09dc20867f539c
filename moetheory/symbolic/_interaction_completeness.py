r"""Whether a relation search was exhaustive: the two assumptions behind "no other relation".

The search (:mod:`moetheory.symbolic.interactions`) samples every kernel independently and
imposes every smooth piece of the expert. Both are right only when

1. the kernels are algebraically independent over the algebraic functions of :math:`x`
   (parameters outside a null set). Exponential kernels :math:`e^{u}` (also
   :math:`\tanh w = (e^{2w} - 1)/(e^{2w} + 1)`, :math:`\tan w` through :math:`e^{2iw}`, the
   Gaussian :math:`e^{-w^2}`) are, by Ax's theorem, when their exponents are linearly
   independent over :math:`\mathbb Q` modulo functions free of :math:`x`; checked exactly as
   the rank of the matrix of :math:`x`-gradients of the exponents at random rational points of
   :math:`(x, \theta)` (real and imaginary parts; full rank over the reals forbids every
   rational dependency). Primitives (:math:`\operatorname{erf} w`, :math:`\log w`) are
   independent over that field by the Ostrowski--Kolchin theorem when no linear combination
   with constant coefficients lies in it: for :math:`\operatorname{erf}` this holds when its
   Gaussian :math:`e^{-w^2}` is one of the independent exponentials (Liouville), for
   :math:`\log` when the :math:`x`-gradients of the logarithms are linearly independent over
   the constants (checked at one random parameter point, at random points :math:`x`).
   Kernels whose arguments are themselves transcendental are not checked (reported).
   Undefined functions (an arbitrary expert :math:`h`) are free by definition.
2. every smooth piece of the expert is a non-empty open set: a witness point is searched,
   at which every inequality of the piece's condition is strict and the condition holds.

:func:`completeness` returns whether both hold and, when not, why (one sentence each).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import sympy as sp

from moetheory.symbolic._interaction_budget import checkpoint
from moetheory.symbolic._interaction_setup import (
    _KErf,
    _KExp,
    _KGauss,
    _KLog,
    _KTan,
    _KTanh,
    _Setup,
    _stereo,
)

__all__: list[str] = []

_TRIES = 60


#: A parameter regime: the cells of x-space non-empty there, a description, a point of it.
_Regime = tuple[frozenset[tuple[int, int]], str, dict[sp.Symbol, Any]]


def completeness(setup: _Setup, seed: int = 2024) -> tuple[bool, list[str], list[_Regime]]:
    """Whether the search of ``setup`` was exhaustive, with the reasons when not.

    Parameters
    ----------
    setup : _Setup
        The search's setup (kernels, radicals, pieces).
    seed : int
        Seed of the random rational points (deterministic).

    Returns
    -------
    tuple
        ``(complete, reasons, regimes)``; ``reasons`` are one sentence each, empty when
        complete. ``regimes`` is empty when every cell of :math:`x`-space the search imposes
        (a smooth piece of the expert; in :math:`d = 1` a side of the kink of
        :math:`|x - c|`) was non-empty at every parameter point sampled; otherwise the
        regimes seen, each as the set of non-empty cells and a description: the search
        imposes every cell, so it is exhaustive in a regime only when repeated with that
        regime's cells; with a parameter point of the regime.
    """
    rng = random.Random(seed)
    piece_reasons, regimes = _regimes(setup, rng)
    reasons = _kernel_reasons(setup, rng) + piece_reasons
    return not reasons, reasons, regimes


# --------------------------------------------------------------------------------------------
def _symbols(setup: _Setup) -> list[sp.Symbol]:
    """Parameters and hyper-parameters (everything but x) of H and its kernels."""
    free: set[sp.Symbol] = set()
    for ders, cond in setup.pieces:
        free |= ders[()].free_symbols | getattr(cond, "free_symbols", set())
    for k in setup.atoms.kernels:
        free |= k.free_symbols
    for base in setup.atoms.radicals:
        free |= base.free_symbols
    atoms = set(setup.atoms.kernels.values()) | set(setup.atoms.radicals.values())
    return sorted((s for s in free - set(setup.xs) - atoms if isinstance(s, sp.Symbol)),
                  key=str)


def _rational(rng: random.Random, positive: bool) -> sp.Rational:
    num = rng.randint(1, 19) if positive else rng.choice([-1, 1]) * rng.randint(1, 19)
    return sp.Rational(num, rng.randint(2, 9))


def _point(setup: _Setup, rng: random.Random, theta: dict[sp.Symbol, Any] | None = None,
           scale: int = 1) -> dict[sp.Symbol, Any]:
    """A random rational point of (theta, x) at which the radicals are rational (``x``, or
    its distance to the centre of the radical, times ``scale``)."""
    vals: dict[sp.Symbol, Any] = dict(theta) if theta else {}
    if theta is None:
        for s in _symbols(setup):
            vals[s] = _rational(rng, bool(s.is_positive))
        if setup.p_radical is not None:
            _, _, vec = setup.p_radical
            nu = abs(_rational(rng, True))
            omega = _stereo([_rational(rng, False) for _ in vec[1:]]) if len(vec) > 1 \
                else [rng.choice([-1, 1])]
            vals.update({v: nu * w for v, w in zip(vec, omega, strict=True)})
    if setup.x_radical is not None:
        _, centre = setup.x_radical
        rho = abs(_rational(rng, True)) * scale
        d = len(setup.xs)
        omega = _stereo([_rational(rng, False) for _ in range(d - 1)]) if d > 1 \
            else [rng.choice([-1, 1])]
        for xi, c, w in zip(setup.xs, centre, omega, strict=True):
            vals[xi] = sp.sympify(c).xreplace(vals) + rho * w
    else:
        vals.update({xi: _rational(rng, False) * scale for xi in setup.xs})
    return vals


def _kernel_text(kernel: sp.Expr) -> str:
    """A kernel in plain SymPy text, in the functions' own names."""
    expr = kernel.replace(_KExp, sp.exp).replace(_KTanh, sp.tanh).replace(_KErf, sp.erf)
    expr = expr.replace(_KTan, sp.tan).replace(_KLog, sp.log)
    if isinstance(kernel, _KGauss):
        return f"2/sqrt(pi)*exp(-({sp.sstr(kernel.args[0])})**2)"
    return sp.sstr(expr)


def _algebraic(w: sp.Expr) -> bool:
    """Whether a kernel argument is an algebraic function (no kernel, no undefined function,
    rational exponents only)."""
    if any(not isinstance(f, (sp.Abs, sp.sign)) for f in w.atoms(sp.Function)):
        return False
    return all(p.exp.is_Rational for p in w.atoms(sp.Pow))


def _kernel_reasons(setup: _Setup, rng: random.Random) -> list[str]:
    """Per smooth piece (a relation must hold on each piece; its kernels are sampled
    together), the kernels of that piece."""
    groups: list[list[sp.Expr]] = []
    for ders, _ in setup.pieces:
        used: set[sp.Symbol] = set()
        for e in ders.values():
            used |= e.free_symbols
        group = [k for k, sym in setup.atoms.kernels.items() if sym in used
                 and isinstance(k, (_KExp, _KTanh, _KGauss, _KErf, _KTan, _KLog))]
        if group not in groups:
            groups.append(group)
    reasons: list[str] = []
    for group in groups:
        for r in _group_reasons(setup, group, rng):
            if r not in reasons:
                reasons.append(r)
    return reasons


def _group_reasons(setup: _Setup, kernels: list[sp.Expr], rng: random.Random) -> list[str]:
    nested = [k for k in kernels if not _algebraic(k.args[0])]
    if nested:
        return ["the kernels " + ", ".join(sorted(_kernel_text(k) for k in nested))
                + " have transcendental arguments, so their algebraic independence (which "
                "the search assumes) is not checked; a relation may be missed"]
    # one exponent per kernel (two kernels with one exponent are dependent: not merged);
    # erf(w) and its Gaussian share the monomial e^{-w^2}
    exponents: list[tuple[sp.Expr, sp.Expr]] = []
    gauss_of = {k.args[0] for k in kernels if isinstance(k, _KGauss)}
    for k in kernels:
        w = k.args[0]
        if isinstance(k, _KExp):
            exponents.append((w, k))
        elif isinstance(k, _KTanh):
            exponents.append((2 * w, k))
        elif isinstance(k, _KTan):
            exponents.append((2 * sp.I * w, k))
        elif isinstance(k, _KGauss) or (isinstance(k, _KErf) and w not in gauss_of):
            exponents.append((-(w**2), k))
    reasons = []
    erfs = [k for k in kernels if isinstance(k, _KErf)]
    if any(not (k.args[0].free_symbols & set(setup.xs)) for k in erfs):
        reasons.append("an erf kernel does not depend on x")
    if exponents and not _full_rank(setup, [u for u, _ in exponents], rng, vary_theta=True):
        reasons.append(
            "the kernels " + ", ".join(sorted(_kernel_text(k) for _, k in exponents))
            + " may be algebraically dependent (their exponents are not shown linearly "
            "independent over Q modulo constants), so the search, which samples them "
            "independently, may miss a relation")
    logs = [k.args[0] for k in kernels if isinstance(k, _KLog)]
    if logs and not _full_rank(setup, [sp.log(w) for w in logs], rng, vary_theta=False):
        reasons.append("the logarithms " + ", ".join(sorted(_kernel_text(k) for k in kernels
                                                             if isinstance(k, _KLog)))
                       + " may be algebraically dependent (their arguments are not shown "
                       "multiplicatively independent), so a relation may be missed")
    return reasons


def _full_rank(setup: _Setup, funcs: Sequence[sp.Expr], rng: random.Random,
               vary_theta: bool) -> bool:
    """Exact: the x-gradients of ``funcs`` have full column rank over the reals at random
    points (new parameters at each point when ``vary_theta``: no dependency with constant
    coefficients; one parameter point otherwise: none with coefficients in the parameters)."""
    grads = [[sp.diff(f, xi) for xi in setup.xs] for f in funcs]
    rows: list[list[Any]] = []
    theta: dict[sp.Symbol, Any] | None = None
    if not vary_theta:
        theta = {s: v for s, v in _point(setup, rng).items() if s not in setup.xs}
    target = len(funcs)
    for _ in range(len(funcs) + 3):
        checkpoint()
        vals = _point(setup, rng, theta)
        try:
            vals_g = [[g.xreplace(vals) for g in gs] for gs in grads]
        except ZeroDivisionError:
            continue
        for i in range(len(setup.xs)):
            col = [sp.expand_complex(vals_g[k][i]) for k in range(target)]
            if any(not c.is_number or c.has(sp.zoo, sp.nan, sp.oo) for c in col):
                continue
            re_im = [sp.re(c) for c in col], [sp.im(c) for c in col]
            for row in re_im:
                if any(not v.is_Rational for v in row):
                    return False  # irrational values: not decided exactly here
                rows.append(list(row))
    if not rows:
        return False
    return int(sp.Matrix(rows).rank()) == target


# --------------------------------------------------------------------------------------------
#: Parameter points at which the cells of x-space are surveyed.
_THETAS = 8


def _cells(setup: _Setup) -> list[tuple[int, Any, int]]:
    """The cells the search imposes: (piece number, condition, side), side ±1 of the kink
    of ``||x - c||`` in d = 1 (0: no side)."""
    sides = [1, -1] if (len(setup.xs) == 1 and setup.x_radical is not None) else [0]
    return [(n, cond, side) for n, (_, cond) in enumerate(setup.pieces, start=1)
            for side in sides]


def _cell_text(setup: _Setup, n: int, cond: Any, side: int) -> str:
    parts = [] if cond is sp.true or cond is True else [
        f"piece {n} of the expert ({sp.sstr(cond)})"]
    if side:
        assert setup.x_radical is not None
        c = setup.x_radical[1][0]
        parts.append(f"the side {sp.sstr(setup.xs[0])} {'>' if side > 0 else '<'} "
                     f"{sp.sstr(c)}")
    return " on ".join(parts)


def _regimes(setup: _Setup, rng: random.Random) -> tuple[list[str], list[_Regime]]:
    """The cells of x-space at :data:`_THETAS` random parameter points: reasons (a cell never
    shown non-empty) and, when some point has an empty cell, every regime seen (the set of
    non-empty cells, described by the empty ones, with a parameter point of it)."""
    cells = _cells(setup)
    if len(cells) == 1 and (cells[0][1] is sp.true or cells[0][1] is True):
        return [], []
    seen: dict[tuple[int, ...], dict[sp.Symbol, Any]] = {}
    undecided: list[str] = []
    for _ in range(_THETAS):
        theta = {s: v for s, v in _point(setup, rng).items() if s not in setup.xs}
        state = [_nonempty(setup, cond, side, theta, rng) for _, cond, side in cells]
        unknown = [i for i, ok in enumerate(state) if ok is None]
        if unknown:  # neither a witness nor a proof of emptiness: that regime is open
            at = ", ".join(f"{sp.sstr(k)} = {sp.sstr(v)}" for k, v in sorted(
                theta.items(), key=lambda kv: str(kv[0])))
            text = (f"{_cell_text(setup, *cells[unknown[0]])} was neither shown non-empty "
                    f"nor empty at the parameter point {at}, so the relations of the "
                    "parameter regime there are not decided")
            if not undecided:
                undecided.append(text)
            continue
        seen.setdefault(tuple(i for i, ok in enumerate(state) if ok is False), theta)
    never = set(range(len(cells))).intersection(*map(set, seen)) if seen else set()
    reasons = [f"{_cell_text(setup, *cells[i])} is empty at every parameter point sampled, "
               "and a relation that fails only there would be missed" for i in sorted(never)]
    if reasons or undecided or list(seen) == [()]:
        return reasons + undecided, []
    regimes = []
    for empty, theta in sorted(seen.items()):
        at = ", ".join(f"{sp.sstr(k)} = {sp.sstr(v)}" for k, v in sorted(
            theta.items(), key=lambda kv: str(kv[0])))
        where = "where every cell of x-space is non-empty" if not empty else \
            "where " + "; ".join(_cell_text(setup, *cells[i]) for i in empty) + " is empty"
        keep = frozenset((cells[i][0] - 1, cells[i][2]) for i in range(len(cells))
                         if i not in empty)
        regimes.append((keep, f"{where} (e.g. at {at})", theta))
    return [], regimes


def _nonempty(setup: _Setup, cond: Any, side: int, theta: dict[sp.Symbol, Any],
              rng: random.Random) -> bool | None:
    """Whether the cell has an interior point at the parameters ``theta``: decided exactly in
    d = 1 (the set of the condition in x_1); otherwise True when a witness point is found,
    None (not decided) when not."""
    checkpoint()
    if len(setup.xs) == 1:
        region: Any = sp.Reals
        if side:
            assert setup.x_radical is not None
            c = sp.sympify(setup.x_radical[1][0]).xreplace(theta)
            region = sp.Interval.open(c, sp.oo) if side > 0 else sp.Interval.open(-sp.oo, c)
        try:
            c_theta = cond.xreplace(theta) if isinstance(cond, sp.Basic) else cond
            if c_theta is sp.false:
                return False
            if c_theta is not sp.true and c_theta is not True:
                region = sp.Intersection(region, c_theta.as_set())
            measure = sp.sympify(region.measure)
            if measure.is_extended_positive:
                return True
            if measure.is_zero:
                return False
        except (NotImplementedError, TypeError, ValueError, AttributeError):
            pass
    return True if _witness(setup, cond, rng, theta, side) else None


def _witness(setup: _Setup, cond: Any, rng: random.Random,
             theta: dict[sp.Symbol, Any] | None = None, side: int = 0) -> bool:
    """A point where ``cond`` holds with every inequality strict (an interior point), at
    the parameters ``theta`` (random ones when None), on ``side`` of the kink."""
    relationals = list(cond.atoms(sp.core.relational.Relational)) \
        if isinstance(cond, sp.Basic) else []
    for k in range(_TRIES):
        checkpoint()
        vals = _point(setup, rng, theta, scale=10 ** (k % 4))
        try:
            if side and setup.x_radical is not None:
                gap = (setup.xs[0] - sp.sympify(setup.x_radical[1][0])).xreplace(vals)
                if not (side * gap).is_positive:
                    continue
            if any((r.lhs - r.rhs).xreplace(vals).is_zero is not False for r in relationals):
                continue
            if cond is sp.true or cond is True or bool(cond.xreplace(vals).simplify()) is True:
                return True
        except (TypeError, ZeroDivisionError):
            continue
    return False
