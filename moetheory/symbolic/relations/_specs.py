r"""Routers and experts for the relation search: specs that build :math:`G` and :math:`h`.

The ready-made routers (:data:`ROUTERS`) and experts (:data:`EXPERTS`), one's own
(:func:`custom_router`, :func:`custom_expert`), and the coordinate and naming conventions
they share (:func:`coordinates`, :func:`symbol_latex`). Public through
:mod:`moetheory.symbolic.interactions`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sympy as sp

from moetheory._doccer import fill_doc
from moetheory.symbolic.experts import gelu, relu, sigmoid
from moetheory.symbolic.routers import COSINE, LINEAR, TAU1, TAU2, Router, perturbed_cosine_router

__all__ = [
    "EXPERTS",
    "RIDGE_ANY_PHI",
    "ROUTERS",
    "TEMPERATURE",
    "ExpertSpec",
    "RouterSpec",
    "coordinates",
    "custom_expert",
    "custom_router",
    "symbol_latex",
]

TEMPERATURE = sp.Symbol("T", positive=True)


def coordinates(d: int, name: str = "x") -> tuple[sp.Symbol, ...]:
    """Real symbols ``name_1..name_d``.

    Parameters
    ----------
    d : int
        The dimension, at least 1.
    name : str
        The stem of the names.

    Returns
    -------
    tuple of sympy.Symbol
        ``(name_1, ..., name_d)``, all real.

    Raises
    ------
    ValueError
        If ``d`` is not a positive integer.

    Notes
    -----
    Routers and experts are built on these coordinates, so parameter names such as
    ``beta1_i`` and ``a_i`` share the index ``i`` with :math:`x_i`.

    See Also
    --------
    RouterSpec : ``build(coordinates(d))``.

    Examples
    --------
    >>> coordinates(2)
    (x_1, x_2)
    """
    if isinstance(d, bool) or not isinstance(d, int) or d < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    return tuple(sp.Symbol(f"{name}_{i}", real=True) for i in range(1, d + 1))


def symbol_latex(sym: sp.Symbol) -> str:
    r"""LaTeX name of a parameter symbol (``beta1_2`` is set as :math:`\beta_{1,2}`).

    Parameters
    ----------
    sym : sympy.Symbol
        A parameter symbol.

    Returns
    -------
    str
        Its LaTeX name in the paper's notation (SymPy's LaTeX for unknown stems).

    Notes
    -----
    The stems ``beta1``, ``W1``, ``beta``, ``tau1``, ``tau2``, ``eta`` are typeset as in the
    seeds (:math:`\beta_{1,i}`, :math:`W_{1,i}`, ...).

    See Also
    --------
    Relation.latex : uses it.

    Examples
    --------
    >>> symbol_latex(sp.Symbol("beta1_2")), symbol_latex(sp.Symbol("W1_1"))
    ('\\beta_{1,2}', 'W_{1,1}')
    """
    name = str(sym)
    table = {"beta1": r"\beta_{1", "W1": r"W_{1", "beta": r"\beta", "tau1": r"\tau_1",
             "tau2": r"\tau_2", "eta": r"\eta"}
    head, _, idx = name.partition("_")
    if head in table:
        base = table[head]
        if base.endswith("{1"):
            return base + ("," + idx if idx else "") + "}"
        return base + (f"_{{{idx}}}" if idx else "")
    return sp.latex(sym)


# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Spec:
    """The fields shared by :class:`RouterSpec` and :class:`ExpertSpec`."""

    name: str
    build: Callable[[tuple[sp.Symbol, ...]], tuple[sp.Expr, tuple[sp.Symbol, ...]]]
    latex: str
    note: str = ""
    invariant: bool = True
    dims: tuple[int, ...] | None = None


#: The fields of :class:`_Spec` as both kinds document them (filled in by ``fill_doc``), each
#: kind giving its function ``f``, its ``owner`` and its ``note``.
_FIELDS_DOC = r"""build : callable
    ``build(x)`` with ``x`` a tuple of coordinate symbols returns ``(%(f)s, params)``.
latex : str
    :math:`%(f)s` in LaTeX (general :math:`d`).
note : str
    %(note)s
invariant : bool
    ``True`` when :math:`%(f)s` is invariant under simultaneous rotations of :math:`x` and the
    %(owner)s's parameter vectors (needed by :func:`lift`).
dims : tuple of int or None
    The dimensions for which ``build`` is defined (``None``: every :math:`d \ge 1`)."""


@fill_doc({"fields": _FIELDS_DOC, "f": "G", "owner": "router",
           "note": "Where the formula applies (e.g. the active set of Top-K), shown on the "
           "atlas: MyST, its maths in ``$...$``."})
class RouterSpec(_Spec):
    r"""A gating: the factor :math:`G(x, \theta_{\mathrm{router}})` multiplying the expert.

    Attributes
    ----------
    name : str
    %(fields)s

    Notes
    -----
    The gate's own parameters are differentiated like the expert's: the relations are among
    the derivatives of :math:`H = G\,h` in all parameters.

    See Also
    --------
    ROUTERS : the ready-made routers.
    custom_router : one's own.

    Examples
    --------
    >>> G, params = ROUTERS["linear"].build(coordinates(2))
    >>> G, params
    (exp(beta1_1*x_1 + beta1_2*x_2), (beta1_1, beta1_2))
    """


@fill_doc({"fields": _FIELDS_DOC, "f": "h", "owner": "expert",
           "note": "A remark shown on the atlas: MyST, its maths in ``$...$``."})
class ExpertSpec(_Spec):
    r"""An expert :math:`h(x, \eta)` that can be built in any (or a fixed) dimension.

    Parameters
    ----------
    name : str
        Short identifier.
    %(fields)s

    Notes
    -----
    Ridge experts :math:`\varphi(a^\top x + b)` have parameters ``a_1..a_d, b``.

    See Also
    --------
    EXPERTS : the ready-made experts.
    custom_expert : one's own.

    Examples
    --------
    >>> EXPERTS["tanh"].build(coordinates(1))
    (tanh(a_1*x_1 + b), (a_1, b))
    """


def _dot(u: Sequence[sp.Expr], v: Sequence[sp.Expr]) -> sp.Expr:
    return sp.Add(*[p * q for p, q in zip(u, v, strict=True)])


def _norm(v: Sequence[sp.Expr]) -> sp.Expr:
    return sp.sqrt(sp.Add(*[t**2 for t in v]))


def _router(name: str, score: Callable[[tuple, tuple], sp.Expr], latex: str, gate: str = "exp",
            vector: str = "beta1", extra: tuple[sp.Symbol, ...] = (), note: str = "",
            ) -> RouterSpec:
    def build(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        beta = coordinates(len(x), vector)
        s = score(beta, x)
        g = sp.exp(s) if gate == "exp" else sigmoid(s)
        return g, beta + extra

    return RouterSpec(name, build, latex, note)


def _from_router(router: Router, name: str, latex: str, note: str = "") -> RouterSpec:
    """A :class:`moetheory.symbolic.routers.Router` (its score in coordinates) as a softmax gate."""

    def build(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        beta = coordinates(len(x), "beta1")
        return sp.exp(router.score(sp.Matrix(beta), sp.Matrix(x))), beta

    return RouterSpec(name, build, latex, note)


def _ridge(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
    a = coordinates(len(x), "a")
    b = sp.Symbol("b", real=True)
    return _dot(a, x) + b, (*a, b)


def _ridge_expert(name: str, phi: Callable[[sp.Expr], sp.Expr], latex: str) -> ExpertSpec:
    def build(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        z, params = _ridge(x)
        return phi(z), params

    return ExpertSpec(name, build, latex)


def _two_layer(bias: bool) -> ExpertSpec:
    def build(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        w1 = coordinates(len(x), "W1")
        w2 = sp.Symbol("W2", real=True)
        if bias:
            b1, b2 = sp.symbols("b1 b2", real=True)
            return w2 * relu(_dot(w1, x) + b1) + b2, (*w1, b1, w2, b2)
        return w2 * relu(_dot(w1, x)), (*w1, w2)

    tex = (r"W_2\,\mathrm{ReLU}(W_1^\top x + b_1) + b_2" if bias
           else r"W_2\,\mathrm{ReLU}(W_1^\top x)")
    return ExpertSpec(f"ffn2-relu-{'bias' if bias else 'nobias'}", build, tex,
                      "two-layer FFN, hidden width 1")


def _generic(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
    eta = sp.Symbol("eta", real=True)
    return sp.Function("h")(*x, eta), (eta,)


def _poly_expert(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
    eta = coordinates(len(x), "eta")
    return _dot(eta, x) ** 2, eta


#: Ready-made routers; :math:`s` is the score, the gate is :math:`e^{s}` unless stated.
ROUTERS: dict[str, RouterSpec] = {
    r.name: r
    for r in [
        _from_router(LINEAR, "linear", r"e^{\beta_1^\top x}"),
        _from_router(COSINE, "cosine", r"\exp\frac{\beta_1^\top x}{\|\beta_1\|\,\|x\|}",
                     note="eq. (2)"),
        _from_router(perturbed_cosine_router(TAU1, TAU2), "perturbed",
                     r"\exp\frac{\beta_1^\top x}{(\|\beta_1\|+\tau_1)(\|x\|+\tau_2)}",
                     note=r"eq. (8); $\tau_1, \tau_2 > 0$ free"),
        _router("sigmoid", lambda b, x: _dot(b, x), r"\sigma(\beta_1^\top x)", gate="sigmoid",
                note="sigmoid gating"),
        _router("temperature", lambda b, x: _dot(b, x) / TEMPERATURE,
                r"e^{\beta_1^\top x / T}", note="softmax with temperature $T > 0$ (fixed)"),
        _router("laplace", lambda b, x: -_norm([xi - bi for xi, bi in zip(x, b, strict=True)]),
                r"e^{-\|x - \beta\|}", vector="beta", note="Laplace gating"),
        _router("top-k", lambda b, x: _dot(b, x), r"e^{\beta_1^\top x}\ \text{on the active set}",
                note="Top-K: on the open set of $x$ where the expert is among the $K$ selected, "
                "the selection is locally constant and the gate numerator is $e^{s}$"),
    ]
}


#: Ready-made experts (ridge experts :math:`\varphi(a^\top x + b)` and others).
EXPERTS: dict[str, ExpertSpec] = {
    e.name: e
    for e in [
        ExpertSpec("generic", _generic, r"h(x, \eta)", "an arbitrary (undefined) function"),
        _ridge_expert("linear", lambda z: z, r"a^\top x + b"),
        _ridge_expert("relu", relu, r"\mathrm{ReLU}(a^\top x + b)"),
        _ridge_expert("gelu", gelu, r"\mathrm{GELU}(a^\top x + b)"),
        _ridge_expert("tanh", sp.tanh, r"\tanh(a^\top x + b)"),
        _ridge_expert("sigmoid", sigmoid, r"\sigma(a^\top x + b)"),
        _ridge_expert("poly2", lambda z: z**2, r"(a^\top x + b)^2"),
        _ridge_expert("poly3", lambda z: z**3, r"(a^\top x + b)^3"),
        ExpertSpec("poly-eta", _poly_expert, r"(\eta^\top x)^2", "seeds 002, 000"),
        _two_layer(True),
        _two_layer(False),
    ]
}


#: A ridge expert with an arbitrary (undefined) activation: relations verified for it hold for
#: every ridge expert phi(a^T x + b).
RIDGE_ANY_PHI = _ridge_expert("ridge", lambda z: sp.Function("phi")(z),
                              r"\varphi(a^\top x + b)")


#: Largest dimension of a custom spec (the relation search runs in d <= 4).
MAX_CUSTOM_D = 4


def _check_symbols(expr: sp.Expr, x: Sequence[sp.Symbol], params: Sequence[sp.Symbol],
                   what: str) -> None:
    if not 1 <= len(x) <= MAX_CUSTOM_D:
        raise ValueError(f"{what}: x must hold 1 to {MAX_CUSTOM_D} symbols (the relation search "
                         f"runs in d <= {MAX_CUSTOM_D}), got {len(x)}")
    if not all(isinstance(v, sp.Symbol) for v in (*x, *params)):
        raise ValueError(f"{what}: x and params must be SymPy symbols")
    if set(x) & set(params):
        raise ValueError(f"{what}: x and params must be disjoint")
    if not params:
        raise ValueError(f"{what}: params must name at least one parameter")
    missing = [p for p in params if p not in expr.free_symbols]
    if missing:
        raise ValueError(f"{what}: params {missing} do not occur in {sp.sstr(expr)}")


def _fixed_dimension_build(what: str, name: str, expr: sp.Expr, x: tuple[sp.Symbol, ...],
                           params: tuple[sp.Symbol, ...]
                           ) -> Callable[[tuple[sp.Symbol, ...]],
                                         tuple[sp.Expr, tuple[sp.Symbol, ...]]]:
    """``build`` of a custom spec: ``expr`` in other coordinates of the same dimension only."""

    def build(xs: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        if len(xs) != len(x):
            raise ValueError(f"{what} {name!r} is defined for d = {len(x)} only, got d = "
                             f"{len(xs)}")
        return expr.xreplace(dict(zip(x, xs, strict=True))), params

    return build


def custom_router(score: sp.Expr, x: Sequence[sp.Symbol], params: Sequence[sp.Symbol],
                  gate: str = "softmax", name: str = "custom") -> RouterSpec:
    r"""A router from one's own score :math:`s(x, \theta)` in the fixed dimension ``len(x)``.

    Parameters
    ----------
    score : sympy.Expr
        The score in the coordinates ``x`` and the router parameters ``params``; other
        symbols are hyper-parameters (kept symbolic, not differentiated).
    x, params : sequences of sympy.Symbol
    gate : {"softmax", "sigmoid"}
        The gate :math:`G = e^s` (softmax numerator, also Top-K on its active set) or
        :math:`\sigma(s)`.
    name : str
        The name shown on the atlas.

    Returns
    -------
    RouterSpec
        Defined in the dimension ``len(x)`` only, not rotation invariant.

    Raises
    ------
    ValueError
        On an unknown gate, symbols that do not match, or more than 4 coordinates.

    Notes
    -----
    The gate is :math:`G = e^{s}` (the numerator of the softmax; the normalising
    denominator is common to all experts) or :math:`\sigma(s)`. Limits: one fixed dimension
    :math:`d = ` ``len(x)`` :math:`\le 4`, searched to order :math:`\le 3`; a relation found
    holds in that dimension only. For a router in every dimension, pass a callable
    ``score(beta1, x)`` to :func:`moetheory.symbolic.relations.find_relations`.

    See Also
    --------
    custom_expert : one's own expert.
    moetheory.symbolic.atlas.atlas_cell : a cell for any pair.

    Examples
    --------
    >>> x1, w = sp.symbols("x1 w", real=True)
    >>> r = custom_router(w * x1, [x1], [w])
    >>> r.build((x1,))
    (exp(w*x1), (w,))
    >>> custom_router(w * x1, [x1], [w], gate="relu")
    Traceback (most recent call last):
    ...
    ValueError: gate must be 'softmax' or 'sigmoid', got 'relu'
    """
    if gate not in ("softmax", "sigmoid"):
        raise ValueError(f"gate must be 'softmax' or 'sigmoid', got {gate!r}")
    score = sp.sympify(score)
    x, params = tuple(x), tuple(params)
    _check_symbols(score, x, params, "router")
    g = sp.exp(score) if gate == "softmax" else sigmoid(score)
    build = _fixed_dimension_build("router", name, g, x, params)
    tex = sp.latex(g)
    return RouterSpec(name, build, tex, invariant=False, dims=(len(x),))


def custom_expert(expr: sp.Expr, x: Sequence[sp.Symbol], params: Sequence[sp.Symbol],
                  name: str = "custom") -> ExpertSpec:
    r"""An expert from one's own expression :math:`h(x, \eta)` in the dimension ``len(x)``.

    Parameters
    ----------
    expr : sympy.Expr
        The expert in the coordinates ``x`` and the parameters ``params``.
    x : sequence of sympy.Symbol
        The input coordinates.
    params : sequence of sympy.Symbol
        The expert's parameters (differentiated); other symbols stay fixed.
    name : str
        The name shown on the atlas.

    Returns
    -------
    ExpertSpec
        Defined in the dimension ``len(x)`` only, not rotation invariant.

    Raises
    ------
    ValueError
        When ``x`` and ``params`` are not disjoint symbols, a parameter does not occur, or
        ``x`` holds more than 4 coordinates.

    Notes
    -----
    Any expression of the supported pieces (exp, sinh, cosh, tanh, erf, sin, cos, tan, log,
    rational functions, square roots, undefined functions, piecewise with open pieces) is
    accepted. Limits: one fixed dimension :math:`d = ` ``len(x)`` :math:`\le 4`, searched to
    order :math:`\le 3`. For an expert in every dimension, pass a callable ``expert(x, eta)``
    to :func:`moetheory.symbolic.relations.find_relations`.

    See Also
    --------
    custom_router : one's own router.

    Examples
    --------
    >>> x1, c = sp.symbols("x1 c", real=True)
    >>> custom_expert(sp.exp(c * x1), [x1], [c]).dims
    (1,)
    """
    expr = sp.sympify(expr)
    x, params = tuple(x), tuple(params)
    _check_symbols(expr, x, params, "expert")
    build = _fixed_dimension_build("expert", name, expr, x, params)
    return ExpertSpec(name, build, sp.latex(expr), invariant=False, dims=(len(x),))
