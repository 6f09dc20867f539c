"""Finite sums of the closed forms in closed form: geometric sums for :math:`r \\ne 1`."""

from __future__ import annotations

import sympy as sp

from moetheory.continual.theory._notation import D, S

__all__: list[str] = []


def _geometric(expr: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """``sum_{var=lo}^{hi} expr`` for ``r != 1`` (the generic branch of SymPy's Piecewise).

    Each term ``c q^var`` of the expanded ``expr`` (``c`` and ``q`` free of ``var``) sums to
    ``c (q^lo - q^(hi+1)) / (1 - q)`` for ``q != 1`` and ``c (hi - lo + 1)`` for ``q = 1``;
    a term of any other form is summed by SymPy."""
    total = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(sp.expand_power_exp(sp.expand(expr)))):
        coeff, ratio = term.as_independent(var, as_Add=False)
        q = _ratio(ratio, var)
        if q is None:
            total += sp.summation(term, (var, lo, hi))
        elif q == 1:
            total += coeff * (hi - lo + 1)
        else:
            total += coeff * (q**lo - q ** (hi + 1)) / (1 - q)
    total = total.replace(lambda e: isinstance(e, sp.Piecewise), lambda e: e.args[-1][0])
    return sp.simplify(total)


def _ratio(factor: sp.Expr, var: sp.Symbol) -> sp.Expr | None:
    """``q`` with ``factor = q^var`` (``q`` free of ``var``), or ``None``."""
    q = sp.Integer(1)
    for f in sp.Mul.make_args(factor):
        if f == 1:
            continue
        base, power = f.as_base_exp()
        k = sp.cancel(power / var)
        if var in base.free_symbols or var in k.free_symbols:
            return None
        q *= base**k
    return q


def _collect_sd(expr: sp.Expr) -> sp.Expr:
    """Write an expression linear in ``S`` and ``D`` as ``a S + b D`` with factored ``a, b``."""
    expanded = sp.expand(expr)
    tidy = sp.factor(expanded.coeff(S)) * S + sp.factor(expanded.coeff(D)) * D
    if sp.simplify(tidy - expr) != 0:
        raise ValueError("expression is not linear in S and D")
    return tidy


