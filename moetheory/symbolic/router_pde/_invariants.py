r"""A score in coordinates rewritten through :math:`u = \beta_1^\top x`, :math:`n_b = \|\beta_1\|`,
:math:`n_x = \|x\|`, for :mod:`.router_pde`.

The score's expression tree is rebuilt bottom-up. Every sub-expression that is a polynomial in
the coordinates is written as a polynomial in :math:`u, n_b^2, n_x^2`: it is evaluated at
:math:`\beta_1 = (n_b, 0, \dots)`, :math:`x = (u/n_b, w, 0, \dots)` with
:math:`w^2 = n_x^2 - u^2/n_b^2`, and the candidate is accepted only when substituting the
coordinate forms back gives the polynomial exactly (expanded difference 0): an exact
certificate in that dimension. Every other node keeps its function and gets its rewritten
arguments, so the rebuilt expression *is* the score, node for node, wherever
:math:`\beta_1 \ne 0` and :math:`x \ne 0` (there :math:`\sqrt{n_b^2} = n_b`).
A coordinate left over (``x[0]`` alone, say) is reported as :class:`NotInvariant`.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from moetheory.symbolic.routers import NB, NX, U

__all__: list[str] = []


class NotInvariant(Exception):
    """The score is not (recognisably) a function of the three invariants."""


def _coords(beta1: Sequence[sp.Symbol], x: Sequence[sp.Symbol]) -> set[sp.Symbol]:
    return set(beta1) | set(x)


def _polynomial(expr: sp.Expr, beta1: Sequence[sp.Symbol], x: Sequence[sp.Symbol]) -> sp.Expr:
    """A polynomial in the coordinates as a polynomial in ``u, n_b**2, n_x**2`` (certified)."""
    w = sp.Dummy("w", real=True)
    sub = {beta1[0]: NB, x[0]: U / NB, x[1]: w}
    sub.update({b: sp.Integer(0) for b in beta1[1:]})
    sub.update({v: sp.Integer(0) for v in x[2:]})
    at = sp.expand(expr.xreplace(sub))
    total = sp.Integer(0)
    for (k,), coeff in sp.Poly(at, w).terms():
        if k % 2:
            raise NotInvariant(f"{sp.sstr(expr)} is not a function of beta1^T x, ||beta1||, ||x||")
        total += coeff * (NX**2 - U**2 / NB**2) ** (k // 2)
    candidate = sp.expand(total)
    try:
        poly = sp.Poly(candidate, U, NB, NX)
    except sp.PolynomialError:
        raise NotInvariant(
            f"{sp.sstr(expr)} is not a polynomial in beta1^T x, ||beta1||^2, ||x||^2") from None
    if any(m[1] % 2 or m[2] % 2 for m in poly.monoms()):
        raise NotInvariant(
            f"{sp.sstr(expr)} is not a polynomial in beta1^T x, ||beta1||^2, ||x||^2")
    back = substitute_coordinates(candidate, beta1, x)
    if sp.expand(expr - back) != 0:
        raise NotInvariant(f"{sp.sstr(expr)} is not a function of beta1^T x, ||beta1||, ||x||")
    return candidate


def _group(
    parts: Sequence[sp.Expr], op: type, beta1: Sequence[sp.Symbol], x: Sequence[sp.Symbol]
) -> sp.Expr:
    """Rewrite the arguments of an Add or Mul one by one; polynomial ones that fail alone are
    rewritten together (``b1*x1 + b2*x2`` is invariant, its terms are not)."""
    coords = _coords(beta1, x)
    done, grouped = [], []
    for part in parts:
        try:
            done.append(_rewrite(part, beta1, x))
        except NotInvariant:
            if not part.is_polynomial(*coords):
                raise
            grouped.append(part)
    if grouped:
        done.append(_polynomial(op(*grouped), beta1, x))
    return op(*done)


def _rewrite(expr: sp.Expr, beta1: Sequence[sp.Symbol], x: Sequence[sp.Symbol]) -> sp.Expr:
    coords = _coords(beta1, x)
    if not expr.free_symbols & coords:
        return expr
    if isinstance(expr, sp.Symbol):
        raise NotInvariant(f"the score uses the coordinate {expr} on its own")
    if getattr(expr, "bound_symbols", None) or isinstance(expr, sp.Derivative | sp.Subs):
        raise NotInvariant(f"the score contains {type(expr).__name__}, which is not rewritten")
    if isinstance(expr, sp.Pow) and expr.exp.is_Integer:
        return _rewrite(expr.base, beta1, x) ** expr.exp
    if isinstance(expr, sp.Add | sp.Mul):
        return _group(expr.args, type(expr), beta1, x)
    if isinstance(expr, sp.Expr) and expr.is_polynomial(*coords):
        return _polynomial(expr, beta1, x)
    return expr.func(*[_rewrite(a, beta1, x) for a in expr.args])


def to_invariants(expr: sp.Expr, beta1: sp.Matrix, x: sp.Matrix) -> sp.Expr:
    """The score as an expression in ``U``, ``NB``, ``NX`` (and the hyper-parameters).

    Needs dimension >= 2. Raises :class:`NotInvariant` when a coordinate cannot be written
    through the invariants.
    """
    b, xs = list(beta1), list(x)
    if len(b) < 2:
        raise ValueError("to_invariants needs dimension >= 2")
    return sp.sympify(_rewrite(sp.sympify(expr), b, xs))


def substitute_coordinates(
    expr: sp.Expr, beta1: Sequence[sp.Symbol], x: Sequence[sp.Symbol]
) -> sp.Expr:
    """``expr`` with ``u, n_b, n_x`` replaced by their coordinate forms."""
    u = sp.Add(*[p * q for p, q in zip(beta1, x, strict=True)])
    nb = sp.sqrt(sp.Add(*[v**2 for v in beta1]))
    nx = sp.sqrt(sp.Add(*[v**2 for v in x]))
    return sp.sympify(expr).subs({U: u, NB: nb, NX: nx}, simultaneous=True)
