"""A grammar of small routers and experts in d = 1 for property-based tests of the relation
search, and a numeric oracle that shares no code with the engine.

The oracle evaluates :math:`H(x, \\theta)` from the expression the grammar built (SymPy only
turns it into an mpmath function), differentiates it *numerically* with ``mpmath.diff`` at 50
digits, and decides with mpmath alone: whether a claimed relation vanishes at a point, and
the numerical rank of the matrix of derivatives at many points :math:`x` (singular values).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp
from hypothesis import strategies as st

X = sp.Symbol("x_1", real=True)
B = sp.Symbol("beta1_1", real=True)
E1, E2 = sp.Symbol("eta_1", real=True), sp.Symbol("eta_2", real=True)

#: Scores s(beta, x) (the gate is e^s or sigmoid(s)).
SCORES: dict[str, Callable[[sp.Expr, sp.Expr], sp.Expr]] = {
    "linear": lambda b, x: b * x,
    "half": lambda b, x: b * x / 2,
    "square": lambda b, x: b * x**2,
    "shift": lambda b, x: -((x - b) ** 2),
    "ratio": lambda b, x: b * x / (1 + x**2),
}
#: Smooth activations phi of a ridge expert phi(eta_1 x + eta_2) (no pieces: one regime).
SMOOTH: dict[str, Callable[[sp.Expr], sp.Expr]] = {
    "tanh": sp.tanh,
    "exp": sp.exp,
    "identity": lambda z: z,
    "square": lambda z: z**2,
    "sin": sp.sin,
    "softplus-difference": lambda z: sp.log(1 + sp.exp(z)) - sp.log(1 + sp.exp(-z)),
}
#: Piecewise activations (their pieces may depend on the parameters).
PIECEWISE: dict[str, Callable[[sp.Expr], sp.Expr]] = {
    "relu": lambda z: sp.Max(z, 0),
    "abs": sp.Abs,
}


@dataclass(frozen=True)
class Pair:
    """A router and an expert of the grammar, as SymPy expressions of ``X`` and parameters."""

    score: str
    gate: str
    phi: str
    ridge: bool  # phi(eta_1 x + eta_2), else eta_1 * phi(x) + eta_2

    def expert(self, x: sp.Expr, eta: Sequence[sp.Expr]) -> sp.Expr:
        f = {**SMOOTH, **PIECEWISE}[self.phi]
        return f(eta[0] * x + eta[1]) if self.ridge else eta[0] * f(x) + eta[1]

    def expert_fn(self, x: sp.Matrix, eta: sp.Matrix) -> sp.Expr:
        return self.expert(x[0], [eta[0], eta[1]])

    def score_fn(self, b: sp.Matrix, x: sp.Matrix) -> sp.Expr:
        return SCORES[self.score](b[0], x[0])

    def h(self) -> sp.Expr:
        s = SCORES[self.score](B, X)
        g = sp.exp(s) if self.gate == "softmax" else 1 / (1 + sp.exp(-s))
        return g * self.expert(X, [E1, E2])


def pairs(smooth_only: bool = False) -> st.SearchStrategy[Pair]:
    """Pairs of the grammar (only smooth activations with ``smooth_only``)."""
    names = sorted(SMOOTH) if smooth_only else sorted({**SMOOTH, **PIECEWISE})
    return st.builds(Pair, st.sampled_from(sorted(SCORES)),
                     st.sampled_from(["softmax", "sigmoid"]), st.sampled_from(names),
                     st.booleans())


# ---- the oracle ---------------------------------------------------------------------------
DIGITS = 50
PARAMS = (B, E1, E2)


def _function(h: sp.Expr) -> Callable[..., Any]:
    return sp.lambdify([X, *PARAMS], h, modules="mpmath")


def derivative(h: sp.Expr, alpha: Sequence[sp.Symbol], x: Any, theta: Sequence[Any]) -> Any:
    """:math:`\\partial^\\alpha H(x, \\theta)` by mpmath's numerical differentiation."""
    f = _function(h)
    orders = [sum(1 for q in alpha if q == p) for p in PARAMS]
    with mpmath.workdps(DIGITS):
        return mpmath.diff(lambda *t: f(x, *t), list(theta), orders)


def residual(h: sp.Expr, coefficients: dict[tuple, sp.Expr], x: Any,
             theta: Sequence[Any]) -> Any:
    """:math:`|\\sum_\\alpha c_\\alpha \\partial^\\alpha H| / \\sum_\\alpha |c_\\alpha
    \\partial^\\alpha H|` at one point (0 when every term is 0)."""
    with mpmath.workdps(DIGITS):
        terms = []
        for alpha, c in coefficients.items():
            c_val = sp.lambdify(PARAMS, c, modules="mpmath")(*theta)
            terms.append(c_val * derivative(h, alpha, x, theta))
        scale = sum(abs(t) for t in terms)
        return abs(sum(terms)) / scale if scale else mpmath.mpf(0)


def nullity(h: sp.Expr, alphas: Sequence[tuple], theta: Sequence[Any], xs: Sequence[Any]
            ) -> int:
    """Dimension of the null space of the matrix :math:`(\\partial^\\alpha H(x_i, \\theta))`
    (rows scaled to unit size; a singular value below :math:`10^{-25}` of the largest is
    zero)."""
    with mpmath.workdps(DIGITS):
        rows = []
        for x in xs:
            row = [derivative(h, a, x, theta) for a in alphas]
            size = max(abs(v) for v in row) or mpmath.mpf(1)
            rows.append([v / size for v in row])
        sv = mpmath.svd_r(mpmath.matrix(rows), compute_uv=False)
        values = [abs(sv[i]) for i in range(min(len(rows), len(alphas)))]
        top = max(values)
        return len(alphas) - sum(1 for v in values if v > top * mpmath.mpf(10) ** -25)
