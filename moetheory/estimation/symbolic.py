"""SymPy versions of the regression functions, for exact identities and Jacobian certificates.

:func:`regression_expr` builds ``f_G(x)`` of eq. (2) / ``g_G(x)`` of eq. (8) / the linear
router as a SymPy expression in the input symbols; :func:`jacobian_singular_values` evaluates
the Jacobian of ``theta -> (f_theta(x_1), ..., f_theta(x_m))`` with ``mpmath`` at a given
precision and returns its singular values. Full column rank at ``theta*`` (smallest singular
value far above the working precision) certifies that the map is locally injective there,
i.e. local identifiability.
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
import sympy as sp

__all__ = ["jacobian_singular_values", "regression_expr", "score_expr"]


def score_expr(
    router: str,
    beta1: Sequence[sp.Expr],
    x: Sequence[sp.Expr],
    tau1: sp.Expr = 1,
    tau2: sp.Expr = 1,
) -> sp.Expr:
    """Router score ``s(x, beta1)`` as a SymPy expression.

    Examples
    --------
    >>> b = sp.symbols("b1:3", real=True); x = sp.symbols("x1:3", real=True)
    >>> c = sp.Symbol("c", positive=True)
    >>> s = score_expr("cosine", b, x)
    >>> sp.simplify(score_expr("cosine", [c * v for v in b], x) - s) == 0
    True
    """
    dot = sum(bi * xi for bi, xi in zip(beta1, x, strict=True))
    nb = sp.sqrt(sum(bi**2 for bi in beta1))
    nx = sp.sqrt(sum(xi**2 for xi in x))
    if router == "linear":
        return dot
    if router == "cosine":
        return dot / (nb * nx)
    if router == "perturbed":
        return dot / ((nb + tau1) * (nx + tau2))
    raise ValueError(f"router must be 'linear', 'cosine' or 'perturbed', got {router!r}")


def regression_expr(
    beta0: Sequence[sp.Expr],
    beta1: Sequence[Sequence[sp.Expr]],
    eta: Sequence[Sequence[sp.Expr]],
    x: Sequence[sp.Expr],
    router: str,
    tau1: sp.Expr = 1,
    tau2: sp.Expr = 1,
) -> sp.Expr:
    """``sum_i softmax_i(s(x, beta1_i) + beta0_i) tanh(a_i^T x + b_i)`` with ``eta_i = (a_i, b_i)``.

    Examples
    --------
    >>> x = sp.symbols("x1:3", real=True)
    >>> f = regression_expr([0, 0], [[1, 0], [0, 1]], [[0, 0, 1], [0, 0, 1]], x, "linear")
    >>> sp.simplify(f - sp.tanh(1)) == 0
    True
    """
    nums = [
        sp.exp(score_expr(router, b1, x, tau1, tau2) + b0)
        for b0, b1 in zip(beta0, beta1, strict=True)
    ]
    experts = [sp.tanh(sum(a * xi for a, xi in zip(e[:-1], x, strict=True)) + e[-1]) for e in eta]
    return sum(n * h for n, h in zip(nums, experts, strict=True)) / sum(nums)


def jacobian_singular_values(
    expr: sp.Expr,
    params: Sequence[sp.Symbol],
    values: Sequence[sp.Expr],
    x: Sequence[sp.Symbol],
    points: Sequence[Sequence[float]],
    dps: int = 40,
) -> list[mpmath.mpf]:
    """Singular values (decreasing) of ``d f(x_m) / d params`` at ``params = values``.

    Examples
    --------
    >>> t, u, x = sp.symbols("t u x", real=True)
    >>> sv = jacobian_singular_values((t + u) * x, [t, u], [1, 2], [x], [[1.0], [2.0]])
    >>> float(sv[0]) > 1, float(sv[1]) < 1e-30
    (True, True)
    """
    if len(params) != len(values):
        raise ValueError(f"values must match params in length ({len(params)}), got {len(values)}")
    if len(points) < 1:
        raise ValueError("points must hold at least one input")
    grads = [sp.diff(expr, p) for p in params]
    fn = sp.lambdify([*params, *x], grads, modules="mpmath")
    with mpmath.workdps(dps):
        vals = [mpmath.mpf(sp.Rational(v).p) / sp.Rational(v).q for v in values]
        rows = [fn(*vals, *[mpmath.mpf(c) for c in pt]) for pt in points]
        J = mpmath.matrix(rows)
        sv = mpmath.svd_r(J, compute_uv=False)
        return sorted((sv[i] for i in range(len(params))), reverse=True)
