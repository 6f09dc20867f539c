r"""Parameter-interaction PDEs of any router with any expert: every linear relation

.. math:: \sum_{|\alpha| \le r} c_\alpha(\theta)\,\partial^\alpha_\theta H(x, \theta) = 0
          \quad\text{for all } x,
          \qquad H(x, \theta) = G(x, \theta_{\mathrm{router}})\,h(x, \theta_{\mathrm{expert}}),

among the partial derivatives of :math:`H` in *all* parameters :math:`\theta` up to order
:math:`r` (multi-index, i.e. set, semantics: mixed partials commute). Such relations are the
"parameter interactions" of seed 002 (eq. (4) for the cosine router) and of Nguyen et al.
(2024c) (:math:`\partial^2 H/\partial\beta_1\partial b = \partial H/\partial a` for the linear
router with ridge experts). Each one makes the Taylor terms of a mixture linearly dependent.

Coefficient ring
----------------
:math:`c_\alpha` are searched in the field :math:`\mathbb Q(\theta)` of rational functions of
the parameters, extended by the parameter norm :math:`\|\beta_1\|` when the router uses it
(:math:`\mathbb Q(\theta)[\|\beta_1\|]`), and never depending on :math:`x`; every relation is
printed with its denominators cleared, i.e. with coefficients that are polynomials in the
parameters (and :math:`\|\beta_1\|`) with rational coefficients. Hyper-parameters
(:math:`\tau_1, \tau_2`, the temperature) stay symbols: the relations hold for every value.

Method (sound and complete)
---------------------------
1. Transcendental pieces become *kernels* with their derivative rules (:math:`e^w`,
   :math:`\tanh w`, :math:`\mathrm{erf}\,w`, the Gaussian :math:`\frac{2}{\sqrt\pi}e^{-w^2}`,
   an arbitrary expert :math:`h` and its derivatives); radicals
   :math:`\sqrt{\sum_i (x_i - c_i)^2}` and :math:`\sqrt{\sum_i \beta_i^2}` become symbols
   :math:`r` with :math:`r^2` the radicand. After differentiation each
   :math:`\partial^\alpha H` is a rational function of :math:`x`, the kernels and the radicals
   over :math:`\mathbb Q(\theta)`.
2. Kernels are algebraically independent over :math:`\mathbb Q(\theta)(x)` for parameters
   outside a null set (their exponents are :math:`\mathbb Q`-linearly independent modulo
   constants; Ax's theorem), so a relation holds identically iff it holds at every rational
   point of :math:`(x, \text{kernels})` where the radical in :math:`x` is rational
   (:math:`x = c + \rho\,\omega(\sigma)`, :math:`\omega` the stereographic unit vector). The
   parameter radical is removed by the birational change :math:`\beta_1 = \nu\,\omega(\sigma)`.
3. The null space of the matrix of values at :math:`N + 4` points (exact, over
   :math:`\mathbb Q(\theta)` with :class:`~sympy.polys.matrices.DomainMatrix`) contains every
   relation. Each basis vector is then **verified**: the combination, as one fraction, has a
   numerator whose remainder modulo :math:`r^2 - \text{radicand}` is the zero polynomial. If a
   vector fails, more points are added. So the returned relations hold (certificate), and
   there are no others.
4. Relations implied by lower-order ones (their derivatives :math:`\partial_p R`) are separated
   from the new ones ("generators").
5. General dimension: all ready-made routers and experts are invariant under simultaneous
   rotations of :math:`x` and the parameter vectors, so a relation written with free indices
   ("for every :math:`i`", "for every :math:`i \ne j`") or contracted indices
   (:math:`\sum_i`) is, in Gram coordinates, affine in :math:`d` (at most one trace per term).
   With at most three vectors, exact checks in :math:`d = 3` and :math:`d = 4` prove it for
   every :math:`d \ge 3`; :math:`d = 1, 2` are checked exactly too (:func:`lift`).

Limits
------
Supported pieces: exp, tanh, erf (GELU), rational functions, at most one radical in :math:`x`
(of the form :math:`\|x - c\|`) and one parameter norm, undefined expert functions, and
piecewise experts (ReLU) whose pieces are open sets; anything else is refused with a
``ValueError`` naming the function. A relation whose indices are neither free nor one
contraction (for instance the second-order relation of the perturbed router in :math:`d = 2`,
whose coefficients involve :math:`\beta_1\beta_1^\top`) is reported, exactly, for the
discovery dimension only; that one has a closed form in every dimension,
:func:`perturbed_ridge_relation`, verified by :func:`perturbed_ridge_certificate`.

References
----------
Seed 002, eq. (4) and eq. (8); Nguyen, Ho, Rinaldo (2024c), softmax gating and ridge experts.
J. Ax, "On Schanuel's conjectures", Ann. Math. 93 (1971).

Examples
--------
>>> res = interactions(ROUTERS["cosine"], EXPERTS["generic"], order=1, d=2)
>>> [r.text for r in res.relations]
['beta1_1*H_{beta1_1} + beta1_2*H_{beta1_2} = 0']
>>> interactions(ROUTERS["perturbed"], EXPERTS["generic"], order=1, d=2).relations
[]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from moetheory.symbolic.routers import COSINE, LINEAR, TAU1, TAU2, Router, perturbed_cosine_router

__all__ = [
    "EXPERTS",
    "ROUTERS",
    "TEMPERATURE",
    "ExpertSpec",
    "InteractionResult",
    "Relation",
    "RouterSpec",
    "coordinates",
    "custom_expert",
    "custom_router",
    "interactions",
    "lift",
    "perturbed_ridge_certificate",
    "perturbed_ridge_relation",
    "symbol_latex",
]

TEMPERATURE = sp.Symbol("T", positive=True)


# --------------------------------------------------------------------------------------------
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


_KERNELS = (_KExp, _KTanh, _KGauss, _KErf)
_SUPPORTED = "exp, tanh, erf, sqrt of a sum of squares, Abs, Max/Piecewise/Heaviside (pieces), " \
    "undefined functions"


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
        If ``d`` is not an integer >= 1.

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
    r"""LaTeX name of a parameter symbol (``beta1_2`` → :math:`\beta_{1,2}`).

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
class RouterSpec:
    r"""A gating: the factor :math:`G(x, \theta_{\mathrm{router}})` multiplying the expert.

    Attributes
    ----------
    name : str
    build : callable
        ``build(x)`` with ``x`` a tuple of coordinate symbols returns ``(G, params)``.
    latex : str
        :math:`G` in LaTeX (general :math:`d`).
    note : str
        Where the formula applies (e.g. the active set of Top-K).
    invariant : bool
        ``True`` when :math:`G` is invariant under simultaneous rotations of :math:`x` and the
        router's parameter vectors (needed by :func:`lift`).
    dims : tuple of int or None
        The dimensions for which ``build`` is defined (``None``: every :math:`d \ge 1`).

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

    name: str
    build: Callable[[tuple[sp.Symbol, ...]], tuple[sp.Expr, tuple[sp.Symbol, ...]]]
    latex: str
    note: str = ""
    invariant: bool = True
    dims: tuple[int, ...] | None = None


@dataclass(frozen=True)
class ExpertSpec:
    r"""An expert :math:`h(x, \eta)` that can be built in any (or a fixed) dimension.

    Parameters
    ----------
    name : str
        Short identifier.
    build : callable
        ``build(x)`` with ``x`` a tuple of coordinate symbols returns ``(h, params)``.
    latex : str
        :math:`h` in LaTeX (general :math:`d`).
    note : str
        A remark shown on the atlas.
    invariant : bool
        ``True`` when :math:`h` is invariant under simultaneous rotations of :math:`x` and the
        expert's parameter vectors (needed by :func:`lift`).
    dims : tuple of int or None
        The dimensions for which ``build`` is defined (``None``: every :math:`d \ge 1`).

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

    name: str
    build: Callable[[tuple[sp.Symbol, ...]], tuple[sp.Expr, tuple[sp.Symbol, ...]]]
    latex: str
    note: str = ""
    invariant: bool = True
    dims: tuple[int, ...] | None = None


def _vec(name: str, d: int) -> tuple[sp.Symbol, ...]:
    return tuple(sp.Symbol(f"{name}_{i}", real=True) for i in range(1, d + 1))


def _dot(u: Sequence[sp.Expr], v: Sequence[sp.Expr]) -> sp.Expr:
    return sp.Add(*[p * q for p, q in zip(u, v, strict=True)])


def _norm(v: Sequence[sp.Expr]) -> sp.Expr:
    return sp.sqrt(sp.Add(*[t**2 for t in v]))


def _router(name: str, score: Callable[[tuple, tuple], sp.Expr], latex: str, gate: str = "exp",
            vector: str = "beta1", extra: tuple[sp.Symbol, ...] = (), note: str = "",
            ) -> RouterSpec:
    def build(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        beta = _vec(vector, len(x))
        s = score(beta, x)
        g = sp.exp(s) if gate == "exp" else 1 / (1 + sp.exp(-s))
        return g, beta + extra

    return RouterSpec(name, build, latex, note)


def _from_router(router: Router, name: str, latex: str, note: str = "") -> RouterSpec:
    """A :class:`moetheory.symbolic.routers.Router` (its score in coordinates) as a softmax gate."""

    def build(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        beta = _vec("beta1", len(x))
        return sp.exp(router.score(sp.Matrix(beta), sp.Matrix(x))), beta

    return RouterSpec(name, build, latex, note)


def _ridge(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
    a = _vec("a", len(x))
    b = sp.Symbol("b", real=True)
    return _dot(a, x) + b, (*a, b)


def _ridge_expert(name: str, phi: Callable[[sp.Expr], sp.Expr], latex: str) -> ExpertSpec:
    def build(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        z, params = _ridge(x)
        return phi(z), params

    return ExpertSpec(name, build, latex)


def _relu(z: sp.Expr) -> sp.Expr:
    return sp.Piecewise((z, z > 0), (0, True))


def _gelu(z: sp.Expr) -> sp.Expr:
    return z * (1 + sp.erf(z / sp.sqrt(2))) / 2


def _sigmoid(z: sp.Expr) -> sp.Expr:
    return 1 / (1 + sp.exp(-z))


def _two_layer(bias: bool) -> ExpertSpec:
    def build(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        w1 = _vec("W1", len(x))
        w2 = sp.Symbol("W2", real=True)
        if bias:
            b1, b2 = sp.symbols("b1 b2", real=True)
            return w2 * _relu(_dot(w1, x) + b1) + b2, (*w1, b1, w2, b2)
        return w2 * _relu(_dot(w1, x)), (*w1, w2)

    tex = (r"W_2\,\mathrm{ReLU}(W_1^\top x + b_1) + b_2" if bias
           else r"W_2\,\mathrm{ReLU}(W_1^\top x)")
    return ExpertSpec(f"ffn2-relu-{'bias' if bias else 'nobias'}", build, tex,
                      "two-layer FFN, hidden width 1")


def _generic(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
    eta = sp.Symbol("eta", real=True)
    return sp.Function("h")(*x, eta), (eta,)


def _poly_expert(x: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
    eta = _vec("eta", len(x))
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
                     note="eq. (8); τ1, τ2 > 0 free"),
        _router("sigmoid", lambda b, x: _dot(b, x), r"\sigma(\beta_1^\top x)", gate="sigmoid",
                note="sigmoid gating"),
        _router("temperature", lambda b, x: _dot(b, x) / TEMPERATURE,
                r"e^{\beta_1^\top x / T}", note="softmax with temperature T > 0 (fixed)"),
        _router("laplace", lambda b, x: -_norm([xi - bi for xi, bi in zip(x, b, strict=True)]),
                r"e^{-\|x - \beta\|}", vector="beta", note="Laplace gating"),
        _router("top-k", lambda b, x: _dot(b, x), r"e^{\beta_1^\top x}\ \text{on the active set}",
                note="Top-K: on the open set of x where the expert is among the K selected, the "
                "selection is locally constant and the gate numerator is exp(s)"),
    ]
}

#: Ready-made experts (ridge experts :math:`\varphi(a^\top x + b)` and others).
EXPERTS: dict[str, ExpertSpec] = {
    e.name: e
    for e in [
        ExpertSpec("generic", _generic, r"h(x, \eta)", "an arbitrary (undefined) function"),
        _ridge_expert("linear", lambda z: z, r"a^\top x + b"),
        _ridge_expert("relu", _relu, r"\mathrm{ReLU}(a^\top x + b)"),
        _ridge_expert("gelu", _gelu, r"\mathrm{GELU}(a^\top x + b)"),
        _ridge_expert("tanh", sp.tanh, r"\tanh(a^\top x + b)"),
        _ridge_expert("sigmoid", _sigmoid, r"\sigma(a^\top x + b)"),
        _ridge_expert("poly2", lambda z: z**2, r"(a^\top x + b)^2"),
        _ridge_expert("poly3", lambda z: z**3, r"(a^\top x + b)^3"),
        ExpertSpec("poly-eta", _poly_expert, r"(\eta^\top x)^2", "seeds 002, 000"),
        _two_layer(True),
        _two_layer(False),
    ]
}


def _check_symbols(expr: sp.Expr, x: Sequence[sp.Symbol], params: Sequence[sp.Symbol],
                   what: str) -> None:
    if not all(isinstance(v, sp.Symbol) for v in (*x, *params)):
        raise ValueError(f"{what}: x and params must be SymPy symbols")
    if set(x) & set(params):
        raise ValueError(f"{what}: x and params must be disjoint")
    if not params:
        raise ValueError(f"{what}: params must name at least one parameter")
    missing = [p for p in params if p not in expr.free_symbols]
    if missing:
        raise ValueError(f"{what}: params {missing} do not occur in {expr}")


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
        On an unknown gate or symbols that do not match.

    Notes
    -----
    The gate is :math:`G = e^{s}` (the numerator of the softmax; the normalising
    denominator is common to all experts) or :math:`\sigma(s)`.

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
    g = sp.exp(score) if gate == "softmax" else 1 / (1 + sp.exp(-score))

    def build(xs: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        if len(xs) != len(x):
            raise ValueError(f"router {name!r} is defined for d = {len(x)} only, got d = "
                             f"{len(xs)}")
        return g.xreplace(dict(zip(x, xs, strict=True))), params

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
        When ``x`` and ``params`` are not disjoint symbols, or a parameter does not occur.

    Notes
    -----
    Any expression of the supported pieces (exp, tanh, erf, rational functions, one radical,
    undefined functions, piecewise with open pieces) is accepted.

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

    def build(xs: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        if len(xs) != len(x):
            raise ValueError(f"expert {name!r} is defined for d = {len(x)} only, got d = "
                             f"{len(xs)}")
        return expr.xreplace(dict(zip(x, xs, strict=True))), params

    return ExpertSpec(name, build, sp.latex(expr), invariant=False, dims=(len(x),))


# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Relation:
    r"""One relation :math:`\sum_\alpha c_\alpha\,\partial^\alpha H = 0`.

    Attributes
    ----------
    terms : tuple of (multi-index, coefficient)
        The multi-index is a sorted tuple of parameter symbols (``()`` is :math:`H`); the
        coefficient a polynomial in the parameters (and ``r_beta`` :math:`= \|\beta_1\|`).
    order : int
        The largest :math:`|\alpha|` with a non-zero coefficient.
    generator : bool
        ``False`` when the relation is implied by lower-order ones (a derivative of one).
    certificate : str
        How it was verified.

    Notes
    -----
    Coefficients have their denominators cleared (polynomials in the parameters and
    :math:`\|\beta_1\|`), never depend on :math:`x`, and are normalised to be primitive.

    See Also
    --------
    interactions : finds them.
    lift : in every dimension.

    Examples
    --------
    >>> a, bb = sp.symbols("a_1 beta1_1", real=True)
    >>> Relation((((a,), sp.Integer(1)), ((bb, a), sp.Integer(-1))), 2).text
    'H_{a_1} - H_{beta1_1,a_1} = 0'
    """

    terms: tuple[tuple[tuple[sp.Symbol, ...], sp.Expr], ...]
    order: int
    generator: bool = True
    certificate: str = ""

    @property
    def text(self) -> str:
        """Plain text, e.g. ``b*H_{a_1} - H_{beta1_1,b} = 0``."""
        parts = []
        for alpha, c in self.terms:
            d = "H" if not alpha else "H_{" + ",".join(map(str, alpha)) + "}"
            parts.append(d if c == 1 else f"-{d}" if c == -1 else f"({sp.sstr(c)})*{d}"
                         if isinstance(c, sp.Add) else f"{sp.sstr(c)}*{d}")
        return " + ".join(parts).replace("+ -", "- ") + " = 0"

    def latex(self) -> str:
        r"""LaTeX, with :math:`\partial` notation."""
        names = {s: symbol_latex(s) for alpha, c in self.terms
                 for s in (*alpha, *c.free_symbols)}
        names[_R_BETA] = r"\Vert\beta_1\Vert"  # no "|": relations are put in tables
        out = []
        for alpha, c in self.terms:
            if not alpha:
                d = "H"
            else:
                counts: dict[sp.Symbol, int] = {}
                for p in alpha:
                    counts[p] = counts.get(p, 0) + 1
                den = " ".join(rf"\partial {names[p]}" + (f"^{k}" if k > 1 else "")
                               for p, k in counts.items())
                d = rf"\frac{{\partial{'^' + str(len(alpha)) if len(alpha) > 1 else ''} H}}" \
                    rf"{{{den}}}"
            ct = sp.latex(c, symbol_names=names)
            if c == 1:
                out.append(("+", d))
            elif c == -1:
                out.append(("-", d))
            elif isinstance(c, sp.Add):
                out.append(("+", rf"\left({ct}\right) {d}"))
            elif ct.startswith("-"):
                out.append(("-", ct[1:] + " " + d))
            else:
                out.append(("+", ct + " " + d))
        s = "".join(f" {sign} {t}" for sign, t in out).strip()
        return (s[2:] if s.startswith("+ ") else "-" + s[2:]) + " = 0"


@dataclass
class InteractionResult:
    r"""All relations of one (router, expert) pair at one dimension, with the evidence.

    Parameters
    ----------
    router : RouterSpec
    expert : ExpertSpec
        The pair.
    d, order : int
        The dimension and the largest total order searched.
    params : tuple of sympy.Symbol
        Router then expert parameters.
    relations : list of Relation
        The generators (not derivatives of lower-order relations), each verified exactly.
    implied : list of Relation
        Derivatives of lower-order relations completing a basis.
    n_derivatives : int
        Number of :math:`\partial^\alpha H`, :math:`|\alpha| \le` ``order``.
    points : int
        Rational sample points behind the completeness claim.
    pieces : int
        Smooth pieces of the expert.
    coefficient_ring : str
        ``"Q(params)"``, extended by :math:`\|\beta_1\|` when the router uses it.
    assumptions : list of str
        The genericity assumptions (LaTeX in ``$...$``).

    Notes
    -----
    The relations span every relation up to ``order``: the exact null space of the sampled
    values has the same dimension as the verified basis.

    See Also
    --------
    interactions : builds it.

    Examples
    --------
    >>> res = interactions(ROUTERS["linear"], EXPERTS["linear"], order=1, d=1)
    >>> res.n_derivatives, res.coefficient_ring
    (4, 'Q(params)')
    """

    router: RouterSpec
    expert: ExpertSpec
    d: int
    order: int
    params: tuple[sp.Symbol, ...]
    relations: list[Relation]
    implied: list[Relation]
    n_derivatives: int
    points: int
    pieces: int
    coefficient_ring: str
    assumptions: list[str] = field(default_factory=list)

    def evidence(self) -> dict[str, Any]:
        """JSON-able summary."""
        return {
            "router": self.router.name,
            "expert": self.expert.name,
            "d": self.d,
            "order": self.order,
            "params": [str(p) for p in self.params],
            "derivatives": self.n_derivatives,
            "sample_points": self.points,
            "pieces": self.pieces,
            "coefficient_ring": self.coefficient_ring,
            "generators": [r.text for r in self.relations],
            "implied_by_lower_order": len(self.implied),
            "certificate": "each relation: numerator of the combination reduces to the zero "
            "polynomial modulo r^2 - radicand (exact); completeness: null space of the exact "
            "value matrix at rational points contains every relation",
            "assumptions": self.assumptions,
        }


_R_BETA = sp.Symbol("r_beta", positive=True)


# --------------------------------------------------------------------------------------------
def _kernelise(expr: sp.Expr) -> sp.Expr:
    """exp, tanh, erf → kernels; Max/Heaviside/Abs of non-radicals → Piecewise."""
    unsupported = {type(f).__name__ for f in expr.atoms(sp.Function)
                   if not isinstance(f, (sp.exp, sp.tanh, sp.erf, sp.Abs, sp.Max, sp.Min,
                                         sp.Heaviside, sp.Piecewise, sp.sign))
                   and not isinstance(f, sp.core.function.AppliedUndef)}
    if unsupported:
        raise ValueError(f"unsupported function(s) {sorted(unsupported)}; supported: "
                         f"{_SUPPORTED}")
    expr = expr.replace(sp.exp, _KExp).replace(sp.tanh, _KTanh).replace(sp.erf, _KErf)
    return expr


def _pieces(expr: sp.Expr) -> list[tuple[sp.Expr, Any]]:
    """Smooth pieces of an expert: ``[(expr, condition)]`` (one piece ``True`` if smooth)."""
    if expr.has(sp.Max, sp.Min, sp.Heaviside):
        expr = expr.rewrite(sp.Piecewise)
    abs_args = [a for a in expr.atoms(sp.Abs)]
    if abs_args:
        expr = expr.replace(sp.Abs, lambda w: sp.Piecewise((w, w > 0), (-w, True)))
    if not expr.has(sp.Piecewise):
        return [(expr, sp.true)]
    folded = sp.piecewise_fold(expr)
    if not isinstance(folded, sp.Piecewise):
        raise ValueError(f"cannot split {expr} into smooth pieces")
    return [(e, c) for e, c in folded.args]


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


class _Rng:
    """Deterministic small rationals (linear congruential; machine-independent)."""

    def __init__(self, seed: int = 12345) -> None:
        self.state = seed

    def rational(self, lo: int = -9, hi: int = 9) -> sp.Rational:
        self.state = (1103515245 * self.state + 12345) % (2**31)
        num = lo + self.state % (hi - lo + 1)
        self.state = (1103515245 * self.state + 12345) % (2**31)
        den = 2 + self.state % 7
        return sp.Rational(num, den) if num != 0 else sp.Rational(1, den + 1)


def _kernel_text(kernel: sp.Expr) -> str:
    """A kernel as inline LaTeX (``$...$``), in the paper's names."""
    expr = kernel.replace(_KExp, sp.exp).replace(_KTanh, sp.tanh).replace(_KErf, sp.erf)
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
            out[alpha] = sp.diff(out[alpha[:-1]], alpha[-1])
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


def _setup(router: RouterSpec, expert: ExpertSpec, d: int, order: int,
           alphas: list[tuple] | None = None) -> _Setup:
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
    gk = _kernelise(sp.sympify(g))
    pieces = []
    for hp, cond in _pieces(sp.sympify(h)):
        big_h = gk * _kernelise(hp)
        ders = _derivatives(big_h, alphas)
        pieces.append(({a: atoms.atomise(e, set(xs)) for a, e in ders.items()}, cond))
    x_rad = None
    p_rad = None
    for base, r in atoms.radicals.items():
        if base.free_symbols & set(xs):
            centre = _squares_centre(base, xs)
            if centre is None or x_rad is not None:
                raise ValueError(f"unsupported radical sqrt({base}): at most one radical in x, "
                                 "of the form ||x - c||")
            x_rad = (r, centre)
        else:
            vec = sorted(base.free_symbols, key=str)
            if (p_rad is not None or not set(vec) <= set(params)
                    or sp.expand(base - sp.Add(*[v**2 for v in vec])) != 0):
                raise ValueError(f"unsupported radical sqrt({base}): at most one parameter "
                                 "radical, the norm of a parameter vector")
            p_rad = (r, base, [v for v in params if v in vec])
    return _Setup(xs, params, alphas, pieces, atoms, x_rad, p_rad)


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


@dataclass
class _Version:
    """One smooth piece (and sign choice in d = 1) with the columns as exact field elements."""

    point_gens: list[Any]  # field generators that receive sample values
    kinds: list[str]  # "pos" (> 0), "unit" (in (-1, 1)) or "any" for each point generator
    coord_gens: list[Any]
    columns: dict[tuple, Any]  # multi-index -> FracElement over Q(point gens, coords)


def _kind(kernel: sp.Expr) -> str:
    if isinstance(kernel, (_KExp, _KGauss)):
        return "pos"
    if isinstance(kernel, (_KTanh, _KErf)):
        return "unit"
    return "any"


def _versions(setup: _Setup, cols: list[tuple], coords: list[sp.Symbol]) -> list[_Version]:
    d = len(setup.xs)
    kernels = sorted(setup.atoms.kernels.items(), key=lambda kv: str(kv[1]))
    if setup.x_radical is not None:
        r, centre = setup.x_radical
        rho = sp.Symbol("rho_", positive=True)
        sx = [sp.Symbol(f"s_{i}", real=True) for i in range(1, d)]
        x_subs = []
        for sgn in ([1] if d > 1 else [1, -1]):
            omega = _stereo(sx) if d > 1 else [sgn]
            sub: dict[sp.Symbol, Any] = {xi: c + rho * w
                                         for xi, c, w in zip(setup.xs, centre, omega, strict=True)}
            sub[r] = rho
            x_subs.append(sub)
        point_syms = [rho, *sx]
        kinds = ["pos"] + ["any"] * len(sx)
    else:
        x_subs = [{}]
        point_syms = list(setup.xs)
        kinds = ["any"] * d
    kinds += [_kind(k) for k, _ in kernels]
    p_signs = [1, -1] if (d == 1 and setup.p_radical) else [1]
    syms = point_syms + [sym for _, sym in kernels] + coords
    field, *gens = sp.field(syms, sp.QQ)
    npt = len(point_syms) + len(kernels)
    out = []
    for ders, _cond in setup.pieces:
        for xsub in x_subs:
            for sign in p_signs:
                psub, _ = _param_substitution(setup, sign)
                columns = {}
                for a in cols:
                    e = ders[a]
                    if xsub:
                        e = e.xreplace(xsub)
                    if psub:
                        e = e.xreplace(psub)
                    columns[a] = _fraction(field, e)
                out.append(_Version(gens[:npt], kinds, gens[npt:], columns))
    return out


def _fraction(field: Any, expr: sp.Expr) -> Any:
    """``expr`` as an element of ``field``, numerator and denominator *not* cancelled.

    One ``together`` and two polynomial conversions (ring arithmetic on the unexpanded tree)
    instead of field arithmetic with a gcd at every sum (``field.from_expr``) or
    ``sympy.expand``: one to two orders of magnitude faster on the perturbed router. The value
    at every point is the same rational function; a point where the uncancelled denominator
    vanishes is skipped by :func:`_sample` like any pole.
    """
    num, den = sp.fraction(sp.together(expr))
    ring = field.ring
    return field.new(ring.from_expr(num), ring.from_expr(den))


def _evaluate(poly: Any, values: Sequence[Any], powers: list[dict[int, Any]]) -> Any:
    """Exact value of a ``PolyElement`` at a point, term by term (the same rational number
    as ``poly(*values)``, without its per-variable recursion); ``powers`` caches
    ``values[i] ** e`` across the polynomials of one point."""
    total = sp.QQ.zero
    for monom, coeff in poly.iterterms():
        term = coeff
        for i, e in enumerate(monom):
            if e:
                cache = powers[i]
                if e not in cache:
                    cache[e] = values[i] ** e
                term *= cache[e]
        total += term
    return total


def _value(rng: _Rng, kind: str) -> sp.Rational:
    v = rng.rational()
    if kind == "pos":
        return abs(v) + 1
    if kind == "unit":
        return v / (abs(v) + 1)
    return v


def _sample(versions: list[_Version], cols: list[tuple], n_rows: int, rng: _Rng,
            fixed: dict[int, sp.Rational]) -> list[list[Any]]:
    """Rows of values at ``n_rows`` random points per version. Coordinates with an index in
    ``fixed`` get that number; when all are fixed the values are rationals, otherwise
    elements of Q(remaining coordinates)."""
    rows: list[list[Any]] = []
    for v in versions:
        done = 0
        tries = 0
        while done < n_rows:
            tries += 1
            if tries > 10 * n_rows + 10:
                raise RuntimeError("no sample point avoids the poles")
            vals = [_value(rng, kind) for kind in v.kinds]
            pairs = [(g, sp.QQ(int(t.p), int(t.q))) for g, t in
                     zip(v.point_gens, vals, strict=True)]
            pairs += [(v.coord_gens[i], sp.QQ(int(t.p), int(t.q))) for i, t in fixed.items()]
            try:
                if len(fixed) == len(v.coord_gens):
                    allv = [q for _, q in pairs]
                    order = [*v.point_gens, *(v.coord_gens[i] for i in fixed)]
                    idx = {g: j for j, g in enumerate(order)}
                    ordered = [allv[idx[g]] for g in (*v.point_gens, *v.coord_gens)]
                    row = []
                    powers: list[dict[int, Any]] = [{} for _ in ordered]
                    for a in cols:
                        den = _evaluate(v.columns[a].denom, ordered, powers)
                        if den == 0:
                            raise ZeroDivisionError
                        row.append(_evaluate(v.columns[a].numer, ordered, powers) / den)
                else:
                    row = [v.columns[a].evaluate(pairs) for a in cols]
            except ZeroDivisionError:
                continue
            rows.append(row)
            done += 1
    return rows


def _independent_rows(rows: list[list[Any]], coords: list[sp.Symbol], rng: _Rng
                      ) -> list[list[Any]]:
    """A maximal set of rows independent at a random specialisation of the coordinates
    (so independent over Q(coords) too)."""
    if not coords or not rows:
        return rows
    vals = [sp.QQ(int(t.p), int(t.q)) for t in (_value(rng, "pos") for _ in coords)]
    numeric = []
    for row in rows:
        try:
            numeric.append([e.numer(*vals) / e.denom(*vals) for e in row])
        except ZeroDivisionError:
            return rows
    mat = DomainMatrix(numeric, (len(rows), len(rows[0])), sp.QQ)
    _, pivots = mat.transpose().rref()
    return [rows[i] for i in pivots]


def _nullspace(rows: list[list[Any]], coords: list[sp.Symbol],
               rng: _Rng | None = None) -> list[list[sp.Expr]]:
    """Null-space basis, each vector with cleared denominators and content (exact).

    Symbolic rows are first thinned to an independent set, scaled to polynomials, and the null
    space is computed fraction-free over Q[coords]."""
    if not coords:
        mat = DomainMatrix([[sp.QQ.convert(v) for v in row] for row in rows],
                           (len(rows), len(rows[0])), sp.QQ)
        ns = mat.nullspace()
        return [_primitive([sp.sympify(v) for v in vec]) for vec in ns.to_Matrix().tolist()] \
            if ns.shape[0] else []
    if rng is not None:
        rows = _independent_rows(rows, coords, rng)
    ring = sp.QQ[tuple(coords)]
    prow = []
    for row in rows:
        den = ring.one
        for v in row:
            den = den.lcm(v.denom.set_ring(ring.ring))
        prow.append([(v.numer.set_ring(ring.ring) * den.exquo(v.denom.set_ring(ring.ring)))
                     for v in row])
    mat = DomainMatrix(prow, (len(prow), len(prow[0])), ring)
    ns = mat.nullspace()
    out = []
    for vec in ns.to_list():
        g = ring.ring.zero
        for p in vec:
            g = g.gcd(p)
        polys = [p.exquo(g) for p in vec]
        out.append(_primitive([p.as_expr() for p in polys]))
    return out


def _rref_rows(vectors: list[list[sp.Expr]]) -> list[list[sp.Expr]]:
    """Reduced row echelon form of numeric vectors (a canonical basis of their span)."""
    if not vectors:
        return []
    mat, _ = sp.Matrix(vectors).rref()
    return [list(r) for r in mat.tolist() if any(v != 0 for v in r)]


def _primitive(coeffs: list[sp.Expr]) -> list[sp.Expr]:
    """Clear denominators, divide by the polynomial gcd, make the first coefficient positive."""
    coeffs = [sp.together(c) for c in coeffs]
    dens = [sp.fraction(c)[1] for c in coeffs if c != 0]
    lcm = sp.Integer(1)
    for den in dens:
        lcm = sp.lcm(lcm, den)
    polys = [sp.expand(sp.cancel(c * lcm)) for c in coeffs]
    nz = [p for p in polys if p != 0]
    g = nz[0]
    for p in nz[1:]:
        g = sp.gcd(g, p)
    polys = [sp.factor(sp.cancel(p / g)) for p in polys]
    first = next(p for p in polys if p != 0)
    lead = sp.Poly(sp.expand(first), *sorted(first.free_symbols, key=str)).LC() \
        if first.free_symbols else first
    if lead < 0:
        polys = [-p for p in polys]
    return polys


def _reduce_radical(expr: sp.Expr, r: sp.Symbol, base: sp.Expr) -> sp.Expr:
    """Canonical form p + q r of an expression rational in r, modulo r² = base."""
    num, den = sp.fraction(sp.together(expr))
    if not den.has(r) and not num.has(r):
        return sp.cancel(expr)
    conj = den.xreplace({r: -r})
    num, den = sp.expand(num * conj), sp.expand(den * conj)
    red = sp.Poly(num, r).rem(sp.Poly(r**2 - base, r)).as_expr()
    den_red = sp.Poly(den, r).rem(sp.Poly(r**2 - base, r)).as_expr()
    return sp.cancel(red / den_red)


def _verify(setup: _Setup, coeffs: dict[tuple, sp.Expr]) -> bool:
    """Exact: Σ c_α ∂^α H reduces to 0 on every piece (polynomial remainder)."""
    rels = []
    if setup.x_radical is not None:
        r, centre = setup.x_radical
        rels.append((r, sp.Add(*[(xi - c) ** 2 for xi, c in
                                 zip(setup.xs, centre, strict=True)])))
    if setup.p_radical is not None:
        r, base, _ = setup.p_radical
        rels.append((r, base))
    if setup.p_radical is not None:
        coeffs = {a: c.xreplace({_R_BETA: setup.p_radical[0]}) for a, c in coeffs.items()}
    try:
        return _verify_ring(setup, coeffs, rels)
    except (ValueError, sp.PolynomialError):
        pass  # pieces that are not polynomial in the symbols (e.g. Subs): symbolic route
    for ders, _ in setup.pieces:
        total = sp.Add(*[c * ders[a] for a, c in coeffs.items()])
        num, _den = sp.fraction(sp.together(total))
        num = sp.expand(num)
        for r, base in rels:
            if num.has(r):
                num = sp.Poly(num, r).rem(sp.Poly(r**2 - base, r)).as_expr()
                num = sp.expand(num)
        if num != 0:
            return False
    return True


def _verify_ring(setup: _Setup, coeffs: dict[tuple, sp.Expr],
                 rels: list[tuple[sp.Symbol, sp.Expr]]) -> bool:
    """:func:`_verify` in a sparse polynomial ring (raises ``ValueError`` when a piece is not
    polynomial in its symbols after clearing denominators)."""
    radicals = [r for r, _ in rels]
    for ders, _ in setup.pieces:
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
        if total != 0:
            return False
    return True


def _to_relation(setup: _Setup, cols: list[tuple], vec: list[sp.Expr],
                 back: dict[sp.Symbol, sp.Expr]) -> dict[tuple, sp.Expr]:
    coeffs = vec
    if back:
        r = setup.p_radical[0] if setup.p_radical else _R_BETA
        base = setup.p_radical[1] if setup.p_radical else 0
        mapped = [_reduce_radical(c.xreplace(back).xreplace({_R_BETA: r}), r, base)
                  for c in coeffs]
        coeffs = [c.xreplace({r: _R_BETA}) for c in _primitive(mapped)]
        coeffs = [_reduce_radical(c, _R_BETA, base) if c.has(_R_BETA) else c for c in coeffs]
        coeffs = _primitive(coeffs)
    return {a: c for a, c in zip(cols, coeffs, strict=True) if c != 0}


def _prolong(setup: _Setup, rel: dict[tuple, sp.Expr], p: sp.Symbol) -> dict[tuple, sp.Expr]:
    """∂_p of a relation: Σ (∂_p c_α) ∂^α + c_α ∂^{α+p}."""
    out: dict[tuple, sp.Expr] = {}
    pos = {q: i for i, q in enumerate(setup.params)}
    dr = 0
    if setup.p_radical is not None and p in setup.p_radical[2]:
        dr = p / _R_BETA
    for a, c in rel.items():
        dc = sp.diff(c, p) + sp.diff(c, _R_BETA) * dr
        if dc != 0:
            out[a] = out.get(a, 0) + dc
        b = tuple(sorted((*a, p), key=lambda q: pos[q]))
        out[b] = out.get(b, 0) + c
    return out


def _specialise(setup: _Setup, rel: dict[tuple, sp.Expr], cols: list[tuple],
                coords: list[sp.Symbol], base: dict[int, sp.Rational]) -> list[sp.Expr]:
    """The relation's coefficient vector at the numeric coordinates ``base``."""
    sub: dict[sp.Symbol, Any] = {}
    if setup.p_radical is not None:
        psub, _ = _param_substitution(setup, 1)
        sub = {**psub, _R_BETA: psub[setup.p_radical[0]]}
    vals = {c: base[i] for i, c in enumerate(coords)}
    out = []
    for a in cols:
        c = sp.sympify(rel.get(a, 0))
        if sub:
            c = c.xreplace(sub)
        out.append(sp.nsimplify(c.xreplace(vals)) if c.free_symbols else c)
    return out


def _reduce(vec: list[sp.Expr], rref: list[list[sp.Expr]]) -> list[sp.Expr]:
    """``vec`` minus its components along the pivots of the reduced rows ``rref``."""
    out = list(vec)
    for row in rref:
        j = next(i for i, v in enumerate(row) if v != 0)
        if out[j] != 0:
            f = out[j] / row[j]
            out = [a - f * b for a, b in zip(out, row, strict=True)]
    return out


def _independent(setup: _Setup, rels: list[dict[tuple, sp.Expr]], cols: list[tuple],
                 coords: list[sp.Symbol], base: dict[int, sp.Rational]
                 ) -> list[dict[tuple, sp.Expr]]:
    """A maximal independent subset (rank at the numeric point)."""
    out: list[dict[tuple, sp.Expr]] = []
    span: list[list[sp.Expr]] = []
    for rel in rels:
        if not any(c != 0 for c in rel.values()):
            continue
        vec = _specialise(setup, rel, cols, coords, base)
        new = _rref_rows([*span, vec])
        if len(new) > len(span):
            span = new
            out.append(rel)
    return out


def _solve(setup: _Setup, versions: list[_Version], support: list[tuple],
           coords: list[sp.Symbol], base: dict[int, sp.Rational], rng: _Rng,
           max_rounds: int) -> list[dict[tuple, sp.Expr]]:
    """All relations supported on ``support``, exact and verified."""
    numeric = _nullspace(_sample(versions, support, len(support) + 4, rng, base), [])
    if not numeric:
        return []
    # Independent blocks: columns linked through the reduced basis are solved together.
    reduced = _rref_rows(numeric)
    parent = {a: a for a in support}

    def root(a: tuple) -> tuple:
        while parent[a] != a:
            a = parent[a]
        return a

    for vec in reduced:
        cols_v = [a for a, v in zip(support, vec, strict=True) if v != 0]
        for a in cols_v[1:]:
            parent[root(a)] = root(cols_v[0])
    blocks: dict[tuple, list[tuple]] = {}
    for vec in reduced:
        cols_v = [a for a, v in zip(support, vec, strict=True) if v != 0]
        blocks.setdefault(root(cols_v[0]), [])
    for a in support:
        if root(a) in blocks:
            blocks[root(a)].append(a)
    out: list[dict[tuple, sp.Expr]] = []
    for block in blocks.values():
        k = sum(1 for vec in reduced if root(next(a for a, v in zip(support, vec, strict=True)
                                                  if v != 0)) == root(block[0]))
        out += _solve_block(setup, versions, block, k, coords, base, rng, max_rounds)
    return out


def _solve_block(setup: _Setup, versions: list[_Version], support: list[tuple], k: int,
                 coords: list[sp.Symbol], base: dict[int, sp.Rational], rng: _Rng,
                 max_rounds: int) -> list[dict[tuple, sp.Expr]]:
    """The ``k`` relations supported on one block of columns, exact and verified."""
    # Coordinates the relations do not depend on (same reduced basis when perturbed) stay
    # numbers in the symbolic stage; the exact check below uses all symbols anyway.
    ref = _rref_rows(_nullspace(_sample(versions, support, len(support) + 4, rng, base), []))
    fixed: dict[int, sp.Rational] = {}
    for i in range(len(coords)):
        moved = {**base, i: base[i] + _value(rng, "pos")}
        ns = _nullspace(_sample(versions, support, len(support) + 4, rng, moved), [])
        if _rref_rows(ns) == ref:
            fixed[i] = base[i]
    back = _back_substitution(setup) if setup.p_radical else {}
    for _attempt in range(2):
        sym_coords = [c for i, c in enumerate(coords) if i not in fixed]
        rows: list[list[Any]] = []
        for _round in range(max_rounds):
            rows += _sample(versions, support, len(support) + 4 if not rows else 4, rng, fixed)
            ns = _nullspace(rows, sym_coords, rng)
            basis = [_to_relation(setup, support, vec, back) for vec in ns]
            if len(basis) == k and all(_verify(setup, rel) for rel in basis):
                return basis
        fixed = {}  # fall back: every coordinate symbolic
    raise RuntimeError(f"candidate relations failed the exact check after {max_rounds} rounds "
                       "of sample points")


def interactions(router: RouterSpec, expert: ExpertSpec, order: int = 2, d: int = 2,
                 max_rounds: int = 4) -> InteractionResult:
    r"""Every linear relation among :math:`\partial^\alpha H`, :math:`|\alpha| \le` ``order``.

    Parameters
    ----------
    router : RouterSpec
        E.g. ``ROUTERS["cosine"]`` or :func:`custom_router`.
    expert : ExpertSpec
        E.g. ``EXPERTS["tanh"]`` or :func:`custom_expert`.
    order : int
        Largest total order, 1 to 3.
    d : int
        Input dimension, 1 to 4.
    max_rounds : int
        How often to add sample points when a candidate fails its exact check.

    Returns
    -------
    InteractionResult
        ``relations`` are the generators (not derivatives of lower-order relations), each
        verified exactly; ``implied`` the others of a basis.

    Raises
    ------
    ValueError
        On an order or dimension out of range or an unsupported expression.
    RuntimeError
        If no sample point avoids the poles, or a candidate relation fails its exact check
        after ``max_rounds`` rounds of points (never a silent wrong answer).
    ZeroDivisionError
        Internal: a sample point on a pole (caught; the point is skipped).

    Notes
    -----
    Sound and complete up to the genericity assumptions recorded in
    :attr:`InteractionResult.assumptions`: every returned relation is verified exactly, and
    the null space of the exact value matrix at :math:`N + 4` rational points contains every
    relation (see the module docstring).

    See Also
    --------
    lift : the relations in every dimension.
    moetheory.symbolic.atlas.atlas_cell : a cell of the atlas.

    Examples
    --------
    >>> res = interactions(ROUTERS["linear"], EXPERTS["tanh"], order=2, d=1)
    >>> [r.text for r in res.relations]
    ['H_{a_1} - H_{beta1_1,b} = 0']
    """
    if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= 3:
        raise ValueError(f"order must be an integer in [1, 3], got {order!r}")
    if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 4:
        raise ValueError(f"d must be an integer in [1, 4], got {d!r}")
    setup = _setup(router, expert, d, order)
    cols = setup.alphas
    rng = _Rng()
    n = len(cols)
    _, extra = _param_substitution(setup, 1)
    coords = _field_symbols(setup, extra)
    versions = _versions(setup, cols, coords)
    base = {i: _value(rng, "pos") for i in range(len(coords))}
    pos = {a: i for i, a in enumerate(cols)}
    generators: list[Relation] = []
    implied: list[Relation] = []
    known: list[dict[tuple, sp.Expr]] = []  # a basis of the relations of order < o
    for o in range(1, order + 1):
        cols_o = [a for a in cols if len(a) <= o]
        numeric = _nullspace(_sample(versions, cols_o, len(cols_o) + 4, rng, base), [])
        prolonged = [_prolong(setup, rel, p) for rel in known for p in setup.params] + known
        p_rows = _rref_rows([_specialise(setup, rel, cols_o, coords, base) for rel in prolonged])
        remainders = _rref_rows([_reduce(v, p_rows) for v in numeric])
        if len(p_rows) + len(remainders) != len(numeric):
            raise RuntimeError("inconsistent ranks: derivatives of lower-order relations are "
                               "not relations")
        new: list[dict[tuple, sp.Expr]] = []
        if remainders:
            support = [a for j, a in enumerate(cols_o)
                       if any(v[j] != 0 for v in remainders)
                       or (len(a) < o and any(v[j] != 0 for v in numeric))]
            found = _solve(setup, versions, support, coords, base, rng, max_rounds)
            span = list(p_rows)
            for rel in sorted(found, key=lambda r: (len(r), sorted(pos[a] for a in r))):
                vec = _specialise(setup, rel, cols_o, coords, base)
                if len(_rref_rows([*span, vec])) > len(span):
                    span = _rref_rows([*span, vec])
                    new.append(rel)
            if len(new) != len(remainders):
                raise RuntimeError("could not reconstruct every new relation exactly")
        for rel in new:
            terms = tuple(sorted(rel.items(), key=lambda t: pos[t[0]]))
            generators.append(Relation(terms, o, True, "exact"))
        implied += [Relation(tuple(sorted(((a, c) for a, c in rel.items() if c != 0),
                                          key=lambda t: pos[t[0]])), o, False, "derivative")
                    for rel in prolonged[: len(prolonged) - len(known)]
                    if any(c != 0 for c in rel.values())] if o > 1 else []
        known = known + new + [rel for rel in prolonged[: len(prolonged) - len(known)]]
        known = _independent(setup, known, cols_o, coords, base)
    ring = "Q(params)" + ("[‖β‖]" if setup.p_radical else "")
    assumptions = [
        "parameters outside a null set (denominators and pivots of the elimination non-zero)",
    ]
    if setup.atoms.kernels:
        assumptions.append(
            "the kernels " + ", ".join(sorted(_kernel_text(k) for k in setup.atoms.kernels))
            + " are algebraically independent over $\\mathbb{Q}(\\theta)(x)$ (Ax's theorem: "
            "their exponents are linearly independent over $\\mathbb{Q}$ modulo constants for "
            "generic parameters)")
    if len(setup.pieces) > 1:
        assumptions.append("each smooth piece of the expert is a non-empty open set; a relation "
                           "must hold on every piece")
    return InteractionResult(router, expert, d, order, setup.params, generators, implied, n,
                             n + 4, len(setup.pieces), ring, assumptions)


# --------------------------------------------------------------------------------------------
def lift(res: InteractionResult, rel: Relation, dims: Sequence[int] = (1, 3, 4)) -> dict[str, Any]:
    r"""Lift a relation found in dimension ``res.d`` to every dimension and verify it.

    The relation is read with its vector indices either *free* (the same relation for every
    choice of indices: "for every :math:`i`" / "for every :math:`i \ne j`") or *contracted*
    (each term carries one index, summed over :math:`i`; recognised when the relation is
    symmetric under exchanging the indices). The lifted relation is verified exactly in each
    dimension of ``dims``. With a rotation-invariant router and expert, at most three vectors
    (:math:`x` and two parameter vectors) and at most one trace per term, the relation in Gram
    coordinates is affine in :math:`d`, so exact checks in :math:`d = 3, 4` prove it for every
    :math:`d \ge 3`.

    Parameters
    ----------
    res : InteractionResult
        The result the relation comes from.
    rel : Relation
        One of its relations.
    dims : sequence of int
        Dimensions to verify in (3 and 4 are needed for "every d").

    Returns
    -------
    dict
        ``form`` ("index-free", "free indices", "contracted", or None for a fixed-dimension
        router or expert), ``verified`` (dimension → bool) and ``all_d`` (bool: verified in
        every dimension of ``dims`` including 3 and 4).

    Raises
    ------
    ValueError
        From :func:`coordinates` or the setup, on a dimension the router or expert does not
        support.

    Notes
    -----
    Relations whose indices are neither free nor one contraction are not lifted (``form``
    ``"free indices"`` then fails in :math:`d = 3, 4`); see :func:`perturbed_ridge_relation`
    for the one of the perturbed router.

    See Also
    --------
    interactions : finds the relations.

    Examples
    --------
    >>> res = interactions(ROUTERS["cosine"], EXPERTS["generic"], order=1, d=2)
    >>> out = lift(res, res.relations[0])
    >>> out["form"], out["verified"], out["all_d"], out["min_d"]
    ('contracted', {1: True, 3: True, 4: True}, True, 1)
    """
    if not (res.router.invariant and res.expert.invariant):
        return {"form": None, "verified": {}, "all_d": False,
                "reason": "custom router or expert: fixed dimension only"}

    def split(sym: sp.Symbol) -> tuple[str, int | None]:
        head, _, i = str(sym).rpartition("_")
        return (head, int(i)) if head and i.isdigit() else (str(sym), None)

    def term_indices(alpha: tuple, coeff: sp.Expr) -> set[int]:
        syms = [*alpha, *(s for s in coeff.free_symbols if s in res.params)]
        return {i for i in (split(q)[1] for q in syms) if i is not None}

    def rename(alpha: tuple, coeff: sp.Expr, mapping: dict[int, int],
               params: dict[str, sp.Symbol], order: dict[sp.Symbol, int]) -> tuple[tuple, Any]:
        def new(q: sp.Symbol) -> sp.Symbol:
            head, i = split(q)
            return q if i is None else params[f"{head}_{mapping.get(i, i)}"]

        a = tuple(sorted((new(q) for q in alpha), key=lambda q: order[q]))
        c = coeff.xreplace({q: new(q) for q in coeff.free_symbols if q in res.params})
        return a, c

    used = set().union(*[term_indices(a, c) for a, c in rel.terms])
    form = "index-free" if not used else "free indices"
    own = {str(q): q for q in res.params}
    own_order = {q: i for i, q in enumerate(res.params)}
    if used == {1, 2} and all(len(term_indices(a, c)) <= 1 for a, c in rel.terms):
        swapped: dict[tuple, Any] = {}
        for a, c in rel.terms:
            na, nc = rename(a, c, {1: 2, 2: 1}, own, own_order)
            swapped[na] = swapped.get(na, 0) + nc
        orig = dict(rel.terms)
        if set(swapped) == set(orig) and any(
                all(sp.expand(swapped[a] - sign * orig[a]) == 0 for a in orig)
                for sign in (1, -1)):
            form = "contracted"
    verified: dict[int, bool] = {}
    for dim in dims:
        if form == "free indices" and dim < max(used):
            continue
        xs = coordinates(dim)
        _, rp = res.router.build(xs)
        _, ep = res.expert.build(xs)
        allp = (*rp, *ep)
        params = {str(q): q for q in allp}
        order = {q: i for i, q in enumerate(allp)}
        terms: dict[tuple, Any] = {}
        for a, c in rel.terms:
            idx = term_indices(a, c)
            if form == "contracted":
                if idx == {2}:
                    continue
                targets = [{1: j} for j in range(1, dim + 1)] if idx == {1} else [{}]
            else:
                targets = [{}]
            for mapping in targets:
                na, nc = rename(a, c, mapping, params, order)
                terms[na] = terms.get(na, 0) + nc
        terms = {a: c for a, c in terms.items() if c != 0}
        setup = _setup(res.router, res.expert, dim, max(len(a) for a in terms),
                       alphas=list(terms))
        verified[dim] = _verify(setup, terms)
    all_d = bool(verified) and all(verified.values()) and {3, 4} <= set(verified)
    min_d = max(used) if form == "free indices" else 1
    return {"form": form, "verified": verified, "all_d": all_d, "min_d": min_d,
            "free_indices": sorted(used) if form == "free indices" else []}


# --------------------------------------------------------------------------------------------
#: A ridge expert with an arbitrary (undefined) activation: relations verified for it hold for
#: every ridge expert phi(a^T x + b).
RIDGE_ANY_PHI = _ridge_expert("ridge", lambda z: sp.Function("phi")(z),
                              r"\varphi(a^\top x + b)")


def perturbed_ridge_relation(d: int, i: int = 1, j: int = 2,
                             expert: ExpertSpec = RIDGE_ANY_PHI) -> Relation:
    r"""The second-order relation of the perturbed router with a ridge expert, in dimension d.

    Parameters
    ----------
    d : int
        Input dimension, 2 to 4.
    i, j : int
        The free indices, :math:`1 \le i \ne j \le d`.
    expert : ExpertSpec
        A ridge expert (parameters ``a_1..a_d, b``); default an arbitrary activation.

    Returns
    -------
    Relation
        :math:`\tau_1\|\beta_1\|(\partial^2_{\beta_{1,i} a_j} H - \partial^2_{\beta_{1,j} a_i}
        H) + \beta_{1,i}\sum_k \beta_{1,k}\partial^2_{\beta_{1,k} a_j} H - \beta_{1,j}
        \sum_k \beta_{1,k}\partial^2_{\beta_{1,k} a_i} H = 0`, coefficients in
        :math:`\mathbb Q(\theta)[\|\beta_1\|]` (``r_beta`` is :math:`\|\beta_1\|`).

    Raises
    ------
    ValueError
        On ``d`` outside [2, 4] or indices out of range.

    Notes
    -----
    With :math:`n = \|\beta_1\|`, :math:`r = \|x\|` and the router factor :math:`G`,
    :math:`\partial_{\beta_{1,k}} G = G\,(Px)_k/((n+\tau_1)(r+\tau_2))` with
    :math:`P = I - \beta_1\beta_1^\top/(n(n+\tau_1))`, and
    :math:`\partial_{a_l} h = x_l\varphi'`. Hence
    :math:`\sum_{kl} M_{kl}\,\partial^2_{\beta_{1,k} a_l} H \propto x^\top P M x`, which
    vanishes for all :math:`x` iff :math:`PM` is antisymmetric: :math:`M = P^{-1}A`,
    :math:`P^{-1} = I + \beta_1\beta_1^\top/(\tau_1 n)` (Sherman--Morrison). The relation is
    :math:`A = e_ie_j^\top - e_je_i^\top` times :math:`\tau_1 n`: :math:`d(d-1)/2`
    independent relations in every :math:`d \ge 2`, the deformation of the linear router's
    symmetry :math:`\partial^2_{\beta_{1,i}a_j}H = \partial^2_{\beta_{1,j}a_i}H`
    (:math:`\tau_1 \to \infty`).

    See Also
    --------
    perturbed_ridge_certificate : the exact verification.
    lift : the free-index and contracted lifts.

    Examples
    --------
    >>> rel = perturbed_ridge_relation(2)
    >>> rel.order, len(rel.terms)
    (2, 4)
    """
    if isinstance(d, bool) or not isinstance(d, int) or not 2 <= d <= 4:
        raise ValueError(f"d must be an integer in [2, 4], got {d!r}")
    if not (1 <= i <= d and 1 <= j <= d and i != j):
        raise ValueError(f"i and j must be distinct integers in [1, {d}], got {i!r}, {j!r}")
    xs = coordinates(d)
    _, rp = ROUTERS["perturbed"].build(xs)
    _, ep = expert.build(xs)
    order = {q: n for n, q in enumerate((*rp, *ep))}
    beta, a = rp, ep[:d]
    terms: dict[tuple, sp.Expr] = {}

    def add(alpha: tuple, c: sp.Expr) -> None:
        key = tuple(sorted(alpha, key=lambda q: order[q]))
        terms[key] = sp.expand(terms.get(key, 0) + c)

    add((beta[i - 1], a[j - 1]), TAU1 * _R_BETA)
    add((beta[j - 1], a[i - 1]), -TAU1 * _R_BETA)
    for k in range(d):
        add((beta[k], a[j - 1]), beta[i - 1] * beta[k])
        add((beta[k], a[i - 1]), -beta[j - 1] * beta[k])
    items = tuple(sorted(((k, c) for k, c in terms.items() if c != 0),
                         key=lambda t: [order[q] for q in t[0]]))
    return Relation(items, 2, True, "closed form, every d >= 2")


def perturbed_ridge_certificate(dims: Sequence[int] = (2, 3, 4),
                                expert: ExpertSpec = RIDGE_ANY_PHI) -> dict[str, Any]:
    r"""Verify :func:`perturbed_ridge_relation` exactly in each dimension of ``dims``.

    Parameters
    ----------
    dims : sequence of int
        Dimensions in [2, 4].
    expert : ExpertSpec
        Default: an arbitrary activation :math:`\varphi` (so every ridge expert).

    Returns
    -------
    dict
        ``verified`` (dimension -> bool, the exact check of :func:`_verify` for the pair
        :math:`(i, j) = (1, 2)`; every other pair follows by permuting coordinates, under
        which the perturbed router and ridge experts are invariant), ``perturbed_fails``
        (smallest dimension -> bool: the relation with one coefficient changed by 1 is
        rejected), ``sherman_morrison`` (the scalar identity
        behind :math:`P P^{-1} = I`, residual 0), ``latex`` and ``text`` of the relation.

    Raises
    ------
    ValueError
        On a dimension outside [2, 4].

    Notes
    -----
    The dimension-free argument is in :func:`perturbed_ridge_relation`; the exact checks in
    :math:`d = 2, 3, 4` use an undefined activation, so they cover every ridge expert.

    See Also
    --------
    perturbed_ridge_relation : the relation.

    Examples
    --------
    >>> cert = perturbed_ridge_certificate(dims=(2,))
    >>> cert["verified"], cert["perturbed_fails"], cert["sherman_morrison"]
    ({2: True}, {2: True}, '0')
    """
    if not dims or any(isinstance(d, bool) or not isinstance(d, int) or not 2 <= d <= 4
                       for d in dims):
        raise ValueError(f"dims must be integers in [2, 4], got {list(dims)!r}")
    verified: dict[int, bool] = {}
    fails: dict[int, bool] = {}
    for d in dims:
        terms = dict(perturbed_ridge_relation(d, 1, 2, expert).terms)
        setup = _setup(ROUTERS["perturbed"], expert, d, 2, alphas=list(terms))
        verified[d] = _verify(setup, terms)
        if d == min(dims):
            wrong = dict(terms)
            first = next(iter(wrong))
            wrong[first] = wrong[first] + 1
            fails[d] = not _verify(setup, wrong)
    n = sp.Symbol("n", positive=True)
    c, c_inv = 1 / (n * (n + TAU1)), 1 / (n * TAU1)
    # (I - c bb^T)(I + c' bb^T) = I + (c' - c - c c' n^2) bb^T
    residual = sp.simplify(c_inv - c - c * c_inv * n**2)
    rel = perturbed_ridge_relation(2, 1, 2, expert)
    return {"verified": verified, "perturbed_fails": fails, "sherman_morrison": sp.sstr(residual),
            "latex": rel.latex(), "text": rel.text}

