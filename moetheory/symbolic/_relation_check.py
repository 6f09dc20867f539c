r"""An independent numerical check of a relation found by the search, before it is stated.

The search works on kernels, radicals and cells (:mod:`moetheory.symbolic._interaction_setup`);
this check shares none of that. It differentiates :math:`H = G\,h` as the router and the
expert build it (SymPy's ``diff`` of the original expression; an undefined expert function
replaced by a fixed transcendental instance, which every relation for an arbitrary function
must satisfy too) and evaluates :math:`\sum_\alpha c_\alpha \partial^\alpha H` with
``evalf`` at 40 digits at random rational points: parameters drawn at random (or the given
point of the relation's parameter regime), :math:`x` drawn at random. A relation passes when
the sum is below :math:`10^{-20}` of :math:`\sum_\alpha |c_\alpha \partial^\alpha H|` at
three points where :math:`H \ne 0`; a point where something cannot be evaluated (a pole, a
complex value) or where :math:`H` and every term vanish is skipped, and a relation with no
point evaluated in forty tries fails the check.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import sympy as sp
from sympy.core.evalf import PrecisionExhausted

from moetheory.symbolic._interaction_budget import checkpoint
from moetheory.symbolic._interaction_relations import _R_BETA, Relation
from moetheory.symbolic._interaction_specs import ExpertSpec, RouterSpec, coordinates

__all__: list[str] = []

_DIGITS = 40
_POINTS = 3
_TRIES = 40


def _instance(expr: sp.Expr) -> sp.Expr:
    """``expr`` with every undefined function replaced by a fixed transcendental one."""
    for f in sorted({type(a) for a in expr.atoms(sp.core.function.AppliedUndef)}, key=str):
        n = next(len(a.args) for a in expr.atoms(f))
        ts = sp.symbols(f"t_0:{n}", real=True)
        body = sp.exp(sp.Add(*[t / (k + 2) for k, t in enumerate(ts)])) + sp.sin(
            sp.Mul(*ts) + 1)
        expr = expr.replace(f, sp.Lambda(ts, body))
    return expr


class _Derivatives:
    """:math:`\\partial^\\alpha H` of the original expression, each computed once."""

    def __init__(self, h: sp.Expr) -> None:
        self.cache: dict[tuple, sp.Expr] = {(): h}

    def __call__(self, alpha: tuple) -> sp.Expr:
        if alpha not in self.cache:
            checkpoint()
            prev = self(alpha[:-1])
            out = sp.diff(prev, alpha[-1])
            if out.has(sp.DiracDelta):  # zero off the kinks, where the points are
                out = out.replace(sp.DiracDelta, lambda *args: sp.S.Zero)
            self.cache[alpha] = out
        return self.cache[alpha]


def _value(rng: random.Random, positive: bool) -> sp.Rational:
    num = rng.randint(1, 23) if positive else rng.choice([-1, 1]) * rng.randint(1, 23)
    return sp.Rational(num, rng.randint(2, 9))


def failures(router: RouterSpec, expert: ExpertSpec, d: int,
             relations: Sequence[tuple[Relation, dict[sp.Symbol, Any] | None]],
             seed: int = 4321) -> list[str]:
    """The relations that fail the check, one sentence each (empty when all pass).

    Parameters
    ----------
    router, expert : RouterSpec, ExpertSpec
        The pair searched.
    d : int
        The dimension.
    relations : sequence of (Relation, dict or None)
        Each relation with the parameter point of its regime (None: random parameters).
    seed : int
        Seed of the points.

    Returns
    -------
    list of str
        One sentence per failing relation.
    """
    xs = coordinates(d)
    g, rparams = router.build(xs)
    h, _ = expert.build(xs)
    big_h = _instance(sp.sympify(g) * sp.sympify(h))
    ders = _Derivatives(big_h)
    free = sorted((s for s in big_h.free_symbols if s not in xs), key=str)
    betas = [p for p in rparams if str(p).startswith("beta1_")]
    rng = random.Random(seed)
    out = []
    for rel, point in relations:
        done = 0
        worst = sp.Float(0)
        for _ in range(_TRIES):
            if done == _POINTS:
                break
            checkpoint()
            theta: dict[sp.Symbol, Any] = dict(point) if point else {
                s: _value(rng, bool(s.is_positive)) for s in free}
            for s in free:
                theta.setdefault(s, _value(rng, bool(s.is_positive)))
            vals = {**theta, **{xi: _value(rng, False) for xi in xs}}
            norm = sp.sqrt(sp.Add(*[theta[b] ** 2 for b in betas if b in theta]))
            terms = []
            try:
                h_val = sp.N(ders(()).xreplace(vals), _DIGITS, strict=True)
                for alpha, c in rel.terms:
                    c_val = sp.sympify(c).xreplace({_R_BETA: norm}).xreplace(vals)
                    d_val = ders(alpha).xreplace(vals)
                    terms.append(sp.N(c_val * d_val, _DIGITS, strict=True))
            except (ZeroDivisionError, TypeError, ValueError, PrecisionExhausted):
                continue  # a pole, or a value too small for 40 correct digits
            if not all(t.is_number and t.is_finite and t.is_real for t in (*terms, h_val)):
                continue
            scale = sp.Add(*[abs(t) for t in terms])
            if scale == 0 and h_val == 0:  # H = 0 here (a piece where it vanishes): no
                continue  # information
            if scale == 0:  # every term is 0 where H is not: the relation holds here
                done += 1
                continue
            ratio = abs(sp.Add(*terms)) / scale
            worst = max(worst, ratio)
            done += 1
        if not done:
            out.append(f"the independent numerical check of {rel.text} could not evaluate it "
                       f"at any of {_TRIES} random points")
        elif worst > sp.Float(10) ** -20:
            out.append(f"the independent numerical check of {rel.text} failed (relative "
                       f"residual {sp.N(worst, 3)} at 40 digits)")
    return out
