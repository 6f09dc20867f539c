"""SymPy versions of the regression functions, for exact identities and Jacobian certificates.

:func:`regression_expr` builds ``f_G(x)`` of eq. (2) / ``g_G(x)`` of eq. (8) / the linear
router as a SymPy expression in the input symbols; :func:`jacobian_singular_values` evaluates
the Jacobian of ``theta -> (f_theta(x_1), ..., f_theta(x_m))`` with ``mpmath`` at a given
precision and returns its singular values. Full column rank at ``theta*`` (smallest singular
value far above the working precision) certifies that the map is locally injective there,
i.e. local identifiability.

Seed 002 is H. Nguyen, P. Akbarian, T. Pham, T. Nguyen, S. Zhang, N. Ho, "Statistical
Advantages of Perturbing Cosine Router in Mixture of Experts", ICLR 2025, arXiv:2405.14131.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
    r"""Router score ``s(x, beta1)`` as a SymPy expression (seed 002, eqs. (2) and (8)).

    Parameters
    ----------
    router : {"linear", "cosine", "perturbed"}
        Which score: the linear router, the cosine router of eq. (2) or the perturbed cosine
        router of eq. (8).
    beta1 : sequence of sympy.Expr, length d
        The router parameter :math:`\beta_1` of one expert.
    x : sequence of sympy.Expr, length d
        The input symbols (or values).
    tau1, tau2 : sympy.Expr, optional
        The perturbations of the perturbed router (default 1); ignored by the other routers.

    Returns
    -------
    sympy.Expr
        The score :math:`s(x, \beta_1)`.

    Raises
    ------
    ValueError
        If ``router`` is not one of the three names, or if ``beta1`` and ``x`` differ in
        length.

    See Also
    --------
    regression_expr : the regression function built from these scores.
    moetheory.symbolic.routers : the routers with their parameter interactions.

    Notes
    -----
    .. math::

        s_{\mathrm{lin}} = \beta_1^\top x, \qquad
        s_{\cos} = \frac{\beta_1^\top x}{\|\beta_1\|\,\|x\|}, \qquad
        s_{\mathrm{pert}} = \frac{\beta_1^\top x}{(\|\beta_1\| + \tau_1)(\|x\| + \tau_2)}.

    The cosine score is invariant under :math:`\beta_1 \mapsto c\beta_1`, :math:`c > 0`
    (the source of the PDE (4)); the example checks it.

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
    activation: Callable[[sp.Expr], sp.Expr] = sp.tanh,
) -> sp.Expr:
    r"""The regression function of a mixing measure, experts :math:`\sigma(a^\top x + b)` (SymPy).

    Parameters
    ----------
    beta0 : sequence of sympy.Expr, length k
        The router intercepts :math:`\beta_{0i}`.
    beta1 : sequence of sequences of sympy.Expr, shape (k, d)
        The router parameters :math:`\beta_{1i}`.
    eta : sequence of sequences of sympy.Expr, shape (k, d + 1)
        The expert parameters :math:`\eta_i = (a_i, b_i)`, slope first, bias last.
    x : sequence of sympy.Expr, length d
        The input symbols.
    router : {"linear", "cosine", "perturbed"}
        The router score (see :func:`score_expr`).
    tau1, tau2 : sympy.Expr, optional
        The perturbations of the perturbed router (default 1).
    activation : callable, optional
        The experts' activation :math:`\sigma` (default ``sympy.tanh``; e.g.
        :func:`moetheory.symbolic.experts.relu`).

    Returns
    -------
    sympy.Expr
        :math:`f_G(x)` (cosine router, eq. (2)) or :math:`g_G(x)` (perturbed router, eq. (8)).

    Raises
    ------
    ValueError
        If ``router`` is unknown or the lengths of ``beta0``, ``beta1``, ``eta`` and ``x``
        do not match.

    See Also
    --------
    score_expr : the router score of one expert.
    jacobian_singular_values : the local identifiability certificate built on this.

    Notes
    -----
    .. math::

        f_G(x) = \sum_{i=1}^{k} \frac{\exp(s(x, \beta_{1i}) + \beta_{0i})}
                 {\sum_{j=1}^{k} \exp(s(x, \beta_{1j}) + \beta_{0j})}
                 \sigma(a_i^\top x + b_i), \qquad \sigma = \tanh \text{ by default}.

    The softmax runs over the k atoms of the measure given (the seed writes k*; see the
    ledger row 002-own-2).

    Examples
    --------
    >>> x = sp.symbols("x1:3", real=True)
    >>> f = regression_expr([0, 0], [[1, 0], [0, 1]], [[0, 0, 1], [0, 0, 1]], x, "linear")
    >>> sp.simplify(f - sp.tanh(1)) == 0
    True
    >>> regression_expr([0], [[1, 0]], [[0, 0, -2]], x, "linear", activation=lambda z: z**2)
    4
    """
    nums = [
        sp.exp(score_expr(router, b1, x, tau1, tau2) + b0)
        for b0, b1 in zip(beta0, beta1, strict=True)
    ]
    experts = [activation(sum(a * xi for a, xi in zip(e[:-1], x, strict=True)) + e[-1])
               for e in eta]
    return sum(n * h for n, h in zip(nums, experts, strict=True)) / sum(nums)


def jacobian_singular_values(
    expr: sp.Expr,
    params: Sequence[sp.Symbol],
    values: Sequence[sp.Expr],
    x: Sequence[sp.Symbol],
    points: Sequence[Sequence[float]],
    dps: int = 40,
) -> list[mpmath.mpf]:
    r"""Singular values (decreasing) of the Jacobian ``d f(x_m) / d params`` at ``values``.

    Parameters
    ----------
    expr : sympy.Expr
        The function :math:`f_\theta(x)`.
    params : sequence of sympy.Symbol, length p
        The parameters :math:`\theta` to differentiate by.
    values : sequence of numbers, length p
        The point :math:`\theta^*`; each is converted exactly with :class:`sympy.Rational`.
    x : sequence of sympy.Symbol
        The input symbols of ``expr``.
    points : sequence of sequences of float, shape (m, len(x))
        The inputs :math:`x_1, \dots, x_m` at which the Jacobian rows are evaluated.
    dps : int, optional
        Working precision in decimal digits (default 40).

    Returns
    -------
    list of mpmath.mpf, length p
        The singular values, largest first.

    Raises
    ------
    ValueError
        If ``values`` and ``params`` differ in length, or ``points`` is empty.

    See Also
    --------
    regression_expr : the usual ``expr``.
    moetheory.symbolic.linear_independence : exact certificates of linear (in)dependence.

    Notes
    -----
    The rows are :math:`J_{m\cdot} = \nabla_\theta f_\theta(x_m)|_{\theta^*}`. Full column
    rank (the smallest singular value far above :math:`10^{-\mathrm{dps}}`) shows that
    :math:`\theta \mapsto (f_\theta(x_1), \dots, f_\theta(x_m))` is locally injective at
    :math:`\theta^*`: local identifiability. A singular value at the working precision's
    noise level is evidence of a direction the data cannot see, not a proof of one.

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
