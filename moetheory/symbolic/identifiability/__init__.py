r"""Strong identifiability of an expert function, under named readings of Definition 1.

The seeds (002, 000) use "Definition 1 (strong identifiability)" without stating it. Their
proof sketch Taylor-expands
:math:`\tilde H(x, \beta_1, \eta) = \exp\bigl(\beta_1^\top x / ((\|\beta_1\| + \tau_1)
(\|x\| + \tau_2))\bigr)\, h(x, \eta)` in the parameters and asks that the resulting terms be
linearly independent functions of ``x``. With input dimension :math:`d = 1` the derivatives of
the router factor are

.. math::

    \partial^{\nu}_{\beta_1} \exp\Bigl(\frac{\beta_1 x}{(|\beta_1| + \tau_1)(|x| + \tau_2)}
    \Bigr) = \exp(\dots) \cdot \bigl(c_\nu u^\nu + \text{lower powers of } u\bigr),
    \quad u = \frac{x}{|x| + \tau_2}, \quad
    c_\nu = \Bigl(\frac{\tau_1}{(|\beta_1| + \tau_1)^2}\Bigr)^{\nu} \ne 0

(the :math:`\beta_0` derivatives only repeat the term itself), so the span of the Taylor terms
of one atom equals the span of :math:`u^\nu \partial^\gamma_\eta h(x, \eta)`; for the linear
router :math:`\beta_1^\top x + \beta_0` the multiplier is :math:`x` instead of :math:`u`. A
*reading* fixes: the router multiplier (:math:`u`, :math:`x` or none), the range of the order
:math:`|\nu| + |\gamma|` (from ``min_order`` to ``max_order``, so whether the order-0 term
:math:`h` itself is included), the number ``k`` of distinct atoms
:math:`\eta_1, \dots, \eta_k` (any :math:`k \ge 1`) and list or set semantics (whether an
identically zero or repeated term counts as a dependence).

Reading :math:`R` with atoms :math:`\eta_1, \dots, \eta_k`: the family

.. math::

    F_R = \{m(x)^\nu \partial^\gamma_\eta h(x, \eta_j) :
    j \le k,\ o_{\min} \le |\nu| + |\gamma| \le o_{\max}\}

(:math:`o_{\min}` = ``min_order``, :math:`o_{\max}` = ``max_order``) is linearly independent
for almost every :math:`x`. The verdict is decided at explicit
(default: generic rational) atoms by
:func:`moetheory.symbolic.linear_independence.decide_linear_independence`.

Scope (what a verdict covers, :meth:`IdentifiabilityDecision.scope`, structured as ``d``,
``k``, ``atoms``):

* a dependence at some distinct atoms is a counterexample there, so it refutes "for all
  distinct atoms" (the seeds' quantifier) -- ``atoms = "these atoms"``;
* an independence certificate is a nonzero determinant at fixed points. For an expert
  analytic in its parameters that determinant is a nonzero real-analytic function of the
  atoms, so it vanishes only on a closed null set: ``atoms = "almost every atom tuple"``;
  for piecewise experts (ReLU) it persists on an open set of atoms around the stated ones.
  It never proves "all distinct atoms": exceptions live on symmetry orbits
  (:math:`\eta \mapsto -\eta` for odd or even activations, ...), which the checks search. All
  atoms at once are decided by :func:`decide_all_atoms` (exact elimination, polynomial
  experts) and by :func:`moetheory.symbolic.pole_route.decide_ridge_all_atoms` (the
  singularity route, tanh and sigmoid: every ``k``, all atoms outside :math:`a_j = 0` and
  :math:`\eta_i = -\eta_j`).

Input dimension :math:`d \ge 2` (argument ``inputs``, the coordinates of :math:`\mathbb{R}^d`
in which the expert is written) is decided on :math:`\mathbb{R}^d`: the family is screened on a
curve :math:`x = (c_1(t), \dots, c_d(t))` (``coords``, default
:math:`(t, t^3, t^5, \dots)`); independence there implies independence on
:math:`\mathbb{R}^d`, and a dependence found there is rebuilt on :math:`\mathbb{R}^d` and
reported only if it is an identity on all of :math:`\mathbb{R}^d` (a curve may satisfy
relations such as :math:`x_2 = x_1^2` that :math:`\mathbb{R}^d` does not). Without ``inputs`` a
dependence found on a ``coords`` curve is never reported as a refutation.

For other routers and experts (helper modules such as the interaction atlas), call
:func:`decide` with an expression, its ``params``, a custom :class:`IdentifiabilityReading`
and, for :math:`d \ge 2`, ``inputs``; the verdict's :meth:`IdentifiabilityDecision.scope` says
what it covers. The readings know three router multipliers by name (:data:`ROUTER_NAMES`); any
other router is given by its score :math:`s(\beta_1, x)` as a :class:`ScoreRouter`, whose
multipliers are :math:`R_\nu = e^{-s} \partial^\nu_{\beta_1} e^{s}` at an expansion point. The
public entry point for a user's expert is :func:`moetheory.symbolic.identifiable.identifiable`.

Examples
--------
>>> sorted(READINGS)[:2]
['eta-only-2', 'linear-2']
>>> READINGS[PRIMARY_READING].max_order
2
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from sympy.polys.matrices import DomainMatrix

from moetheory.engine.verdicts import Verdict
from moetheory.symbolic._time_limit import TimeLimitExceeded, time_limit
from moetheory.symbolic.exact import to_exact
from moetheory.symbolic.experts import Expert
from moetheory.symbolic.identifiability._domain import (
    GENERIC_VALUES,
    _generic_value,
    analytic_in,
    atom_violation,
    default_atoms,
)
from moetheory.symbolic.identifiability._latex import _interval_latex, _signed_term
from moetheory.symbolic.linear_independence import (
    LinearIndependenceResult,
    NotRealValued,
    _simplifies_to_zero,
    decide_linear_independence,
)

#: Functions that make an expert piecewise (not analytic) in its parameters.
_BRANCHING_EXPERT = (sp.Piecewise, sp.Abs, sp.Heaviside, sp.Max, sp.Min, sp.sign)

__all__ = [
    "DEFAULT_TIMEOUT",
    "GENERIC_VALUES",
    "PRIMARY_READING",
    "READINGS",
    "ROUTER_NAMES",
    "AllAtomsDecision",
    "FamilyTerm",
    "IdentifiabilityDecision",
    "IdentifiabilityReading",
    "ScoreRouter",
    "analytic_in",
    "atom_violation",
    "decide",
    "decide_all_atoms",
    "default_atoms",
    "expert_family",
    "router_multiplier_ratio",
    "search_exceptions",
]


#: The router multipliers the readings know by name.
ROUTER_NAMES: tuple[str, ...] = ("perturbed-cosine", "linear", "none")


@dataclass(frozen=True)
class ScoreRouter:
    r"""Any router, given by its score :math:`s(\beta_1, x)`: the multipliers of its Taylor terms.

    The :math:`\beta_1`-derivatives of the router factor are
    :math:`\partial^\nu e^{s} = e^{s} R_\nu(x)` with :math:`R_0 = 1` and
    :math:`R_{\nu + e_i} = \partial_i R_\nu + R_\nu \partial_i s` (derivatives in
    :math:`\beta_1`), taken at the expansion point :math:`\beta_1` = ``beta1``. A reading with
    this router has the family :math:`R_\nu(x) \partial^\gamma h(x, \eta_j)`. For the
    perturbed cosine router :math:`R_\nu = c_\nu u^\nu` plus lower powers of :math:`u`, so
    its family spans what the named reading ``"perturbed-cosine"`` spans.

    Parameters
    ----------
    score : callable
        ``score(beta1, x)``: receives two SymPy column vectors (``sympy.Matrix`` of real
        symbols, length d) and returns a scalar SymPy expression.
    name : str
        A short name for the statements.
    beta1 : tuple of numbers, optional
        The expansion point (default: generic rationals, one per coordinate).
    values : tuple of (Symbol, number) pairs
        Values of the score's other symbols (hyper-parameters such as ``tau``).

    Raises
    ------
    ValueError
        If ``score`` is not callable, or ``values`` is not a sequence of pairs.

    Notes
    -----
    Every verdict with such a router is at the stated ``beta1`` and hyper-parameter values.

    See Also
    --------
    IdentifiabilityReading : takes it as its ``router``.

    Examples
    --------
    >>> x = sp.Symbol("x", real=True)
    >>> r = ScoreRouter(lambda b, v: (b.T * v)[0] + 1, "linear-again")
    >>> r.terms([x], 2)
    [((0, 0), x**2)]
    """

    score: Any
    name: str = "custom"
    beta1: tuple[Any, ...] = ()
    values: tuple[tuple[sp.Symbol, Any], ...] = ()

    def __post_init__(self) -> None:
        if not callable(self.score):
            raise ValueError(f"score must be a callable score(beta1, x), got {self.score!r}")
        try:
            pairs = tuple((k, to_exact(v)) for k, v in dict(self.values).items())
        except (TypeError, ValueError):
            raise ValueError("values must be (symbol, number) pairs of the score's other "
                             f"symbols, got {self.values!r}") from None
        object.__setattr__(self, "values", pairs)
        object.__setattr__(self, "beta1", tuple(to_exact(v) for v in self.beta1))

    def log_derivative(self, coords: Sequence[sp.Expr]) -> tuple[sp.Matrix, sp.Expr]:
        """The symbols ``β1`` and the score at ``x = coords`` (hyper-parameters substituted).

        Raises
        ------
        ValueError
            If the score is not a scalar expression or has symbols without a value.
        """
        d = len(coords)
        beta = sp.Matrix([sp.Symbol(f"beta1_{i + 1}", real=True) for i in range(d)])
        try:
            s = self.score(beta, sp.Matrix(list(coords)))
        except TimeLimitExceeded:
            raise
        except Exception as exc:  # the user's callable: any failure is a bad input
            raise ValueError(f"score(beta1, x) failed on column vectors of length {d}: "
                             f"{exc}") from exc
        if isinstance(s, sp.MatrixBase) and s.shape == (1, 1):
            s = s[0, 0]
        s = sp.sympify(s)
        if not isinstance(s, sp.Expr) or isinstance(s, sp.MatrixBase):
            raise ValueError(f"score(beta1, x) must return a scalar SymPy expression, got {s!r}")
        s = s.xreplace(dict(self.values))
        space = {*beta, *set().union(*(sp.sympify(c).free_symbols for c in coords))}
        extra = s.free_symbols - space
        if extra:
            raise ValueError(
                f"score has symbols {sorted(map(str, extra))} without a value; give them in "
                "ScoreRouter(values=...)"
            )
        return beta, s

    def point(self, d: int) -> list[sp.Expr]:
        """The expansion point ``β1`` (the given one, else generic rationals)."""
        if self.beta1:
            if len(self.beta1) != d:
                raise ValueError(f"beta1 must have {d} entries (one per coordinate), "
                                 f"got {len(self.beta1)}")
            return list(self.beta1)
        return [_generic_value(2 * i + 1) for i in range(d)]

    def terms(self, coords: Sequence[sp.Expr], size: int) -> list[tuple[tuple[int, ...],
                                                                          sp.Expr]]:
        """The multipliers ``R_ν`` with ``|ν| = size`` (multi-indices as sorted tuples)."""
        beta, s = self.log_derivative(coords)
        at = dict(zip(beta, self.point(len(coords)), strict=True))
        grads = [sp.diff(s, b) for b in beta]
        table: dict[tuple[int, ...], sp.Expr] = {(): sp.Integer(1)}
        for r in range(1, size + 1):
            for nu in itertools.combinations_with_replacement(range(len(beta)), r):
                prev, i = nu[:-1], nu[-1]
                table[nu] = sp.diff(table[prev], beta[i]) + table[prev] * grads[i]
        return [(nu, sp.together(table[nu].xreplace(at)))
                for nu in itertools.combinations_with_replacement(range(len(beta)), size)]



@dataclass(frozen=True)
class IdentifiabilityReading:
    r"""One precise reading of Definition 1 (strong identifiability).

    Attributes
    ----------
    name : str
    router : {"perturbed-cosine", "linear", "none"} or ScoreRouter
        Which multiplier the router derivatives produce: :math:`u = x / (|x| + \tau_2)`,
        :math:`x`, none, or for any other router (a :class:`ScoreRouter`) the multipliers
        :math:`R_\nu` of its score.
    min_order, max_order : int
        Range of the total order :math:`\nu + |\gamma|` (``min_order=0`` includes :math:`h`
        itself).
    atoms : int
        Number ``k`` of pairwise distinct atoms :math:`\eta_1, \dots, \eta_k`
        (any :math:`k \ge 1`).
    note : str
        Where the reading comes from in the seeds.
    semantics : {"list", "set"}
        ``"list"``: the family is the list of all terms
        :math:`m^\nu \partial^\gamma h(\cdot, \eta_j)` (multi-indices :math:`\nu, \gamma`), so a
        term that vanishes identically or repeats another is itself a
        dependence. ``"set"``: the family is the *set* of distinct nonzero terms (identically
        zero terms and exact repeats dropped), the reading under which only relations among
        different functions count.

    Raises
    ------
    ValueError
        On an unknown ``semantics`` or ``router``, or ``atoms`` not a positive integer.

    Notes
    -----
    The family of reading :math:`R` at atoms :math:`\eta_1..\eta_k` is
    :math:`\{m(x)^\nu \partial^\gamma_\eta h(x, \eta_j)\}` with
    ``min_order`` :math:`\le |\nu| + |\gamma| \le` ``max_order``; strong identifiability
    (Definition 1 as reconstructed from seed 002's proof sketch) is its linear independence
    for almost every :math:`x`.

    See Also
    --------
    READINGS : the named readings.
    decide : decides a reading at explicit atoms.

    Examples
    --------
    >>> r = IdentifiabilityReading("mine", "none", 1, 1, 3, "first order, three atoms")
    >>> r.atoms, r.semantics
    (3, 'list')
    """

    name: str
    router: str | ScoreRouter
    min_order: int
    max_order: int
    atoms: int
    note: str
    semantics: str = "list"

    def __post_init__(self) -> None:
        if self.semantics not in ("list", "set"):
            raise ValueError(f"semantics must be 'list' or 'set', got {self.semantics!r}")
        if not isinstance(self.router, ScoreRouter) and self.router not in ROUTER_NAMES:
            raise ValueError(
                "router must be 'perturbed-cosine', 'linear', 'none' or a ScoreRouter (any "
                f"score(beta1, x)), got {self.router!r}"
            )
        if not isinstance(self.atoms, int) or self.atoms < 1:
            raise ValueError(f"atoms (k) must be a positive integer, got {self.atoms!r}")

    def multipliers(self, coords: Sequence[sp.Expr], tau2: int = 1) -> list[sp.Expr]:
        r"""The router multipliers, one per input coordinate (empty without router terms).

        :math:`u_i = x_i / (\|x\| + \tau_2)` for the perturbed cosine router, :math:`x_i` for
        the linear one.

        Examples
        --------
        >>> x = sp.Symbol("x", real=True)
        >>> READINGS["pcos-2"].multipliers([x])
        [x/(Abs(x) + 1)]
        """
        if isinstance(self.router, ScoreRouter):
            return [m for _, m in self.router.terms(coords, 1)]
        if self.router == "perturbed-cosine":
            norm = sp.sqrt(sp.Add(*[c**2 for c in coords]))
            return [c / (norm + tau2) for c in coords]
        if self.router == "linear":
            return list(coords)
        return []

    @property
    def router_name(self) -> str:
        """The router's name (a :class:`ScoreRouter` by its ``name``)."""
        return self.router.name if isinstance(self.router, ScoreRouter) else self.router

    @property
    def _builtin(self) -> str:
        """The built-in router's name, ``""`` for a :class:`ScoreRouter`: the key of the
        per-router texts below."""
        return "" if isinstance(self.router, ScoreRouter) else self.router

    def statement(self) -> str:
        """The reading as a precise definition (plain text)."""
        mult = {
            "perturbed-cosine": "u(x)^nu with u(x) = x/(|x| + tau2), tau2 = 1,",
            "linear": "x^nu (linear router),",
            "none": "no router multiplier (nu = 0),",
        }.get(self._builtin,
              f"R_nu(x) = exp(-s) d^nu exp(s)/d beta1^nu at the expansion point, s the score "
              f"of the router '{self.router_name}',")
        sem = ("as a list (a zero or repeated term is a dependence)" if self.semantics == "list"
               else "as a set (identically zero terms and exact repeats dropped)")
        return (
            f"[{self.name}] h is strongly identifiable iff for pairwise distinct atoms "
            f"eta_1..eta_{self.atoms} the functions m(x)^nu d^gamma h/d eta^gamma (x, eta_j), "
            f"j <= {self.atoms}, {self.min_order} <= nu + |gamma| <= {self.max_order} "
            f"(multi-indices nu, gamma), with {mult} taken {sem}, are linearly independent "
            f"for almost every x. {self.note}"
        )

    def _latex_parts(self) -> tuple[str, str, str]:
        r"""The multiplier :math:`m(x)^\nu`, the order :math:`|\nu| + |\gamma|` and the router
        factor in LaTeX: the pieces :meth:`reading_latex` and :meth:`latex` share."""
        mult = {"perturbed-cosine": r"u(x)^{\nu}", "linear": r"x^{\nu}", "none": ""}.get(
            self._builtin, r"R_{\nu}(x)")
        order = r"|\nu| + |\gamma|" if self.router != "none" else r"|\gamma|"
        factor = {"perturbed-cosine": r"e^{\beta_1^\top x/((\|\beta_1\|+\tau_1)(\|x\|+\tau_2))}",
                  "linear": r"e^{\beta_1^\top x + \beta_0}", "none": "1"}.get(
            self._builtin, r"e^{s(\beta_1, x)}")
        return mult, order, factor

    def reading_latex(self) -> str:
        """The reading as Markdown prose with inline ``$...$`` formulas (docs pages).

        Examples
        --------
        >>> "list semantics" in READINGS["pcos-2"].reading_latex()
        True
        """
        mult, order, factor = self._latex_parts()
        router = {"perturbed-cosine": rf"router factor ${factor}$, $u(x) = x/(\|x\|+\tau_2)$",
                  "linear": rf"router factor ${factor}$ (multiplier $x$)",
                  "none": "no router factor (classical, derivatives in $\\eta$ only)"}.get(
            self._builtin,
            rf"router factor ${factor}$ of the score `{self.router_name}`, "
            r"$R_{\nu} = e^{-s}\,\partial^{\nu}_{\beta_1} e^{s}$ at the expansion point")
        return (
            f"`{self.name}`: $h$ is strongly identifiable iff for pairwise distinct atoms "
            rf"$\eta_1,\dots,\eta_{{{self.atoms}}}$ the functions "
            rf"${mult}\,\partial^{{\gamma}}_{{\eta}} h(x,\eta_j)$ with "
            rf"${self.min_order} \le {order} \le {self.max_order}$ (multi-indices), taken with "
            f"{self.semantics} semantics, are linearly independent for almost every $x$; "
            f"{router}."
        )

    def latex(self) -> str:
        """The reading as a displayed formula (MyST)."""
        mult, order, factor = self._latex_parts()
        kind = (r"\text{(list: zero or repeated terms count)}" if self.semantics == "list"
                else r"\text{(set: zero terms and repeats dropped)}")
        return (
            rf"$$\mathcal F = \Big\{{ {mult}\,\frac{{\partial^{{|\gamma|}} h}}"
            rf"{{\partial \eta^{{\gamma}}}}(x,\eta_j) : 1 \le j \le {self.atoms},\ "
            rf"{self.min_order} \le {order} \le {self.max_order} \Big\}}\ {kind},"
            rf"\quad \text{{router factor }} {factor}"
            + (r",\quad u(x) = \frac{x}{\|x\|+\tau_2}" if self.router == "perturbed-cosine"
               else "") + "$$"
        )


#: The finite readings, the one closest to the seeds' text first (the claims' primary
#: reading, 'literal', is Definition 1 itself: every d, every k).
READINGS: dict[str, IdentifiabilityReading] = {
    r.name: r
    for r in [
        IdentifiabilityReading(
            "pcos-2", "perturbed-cosine", 0, 2, 2,
            "The finite family closest to Definition 1 (the claims' primary reading is "
            "'literal', every d and k): second-order Taylor expansion of H~ in (beta1, eta) "
            "as for the over-specified Theorem 4, order-0 term (from beta0) included, two "
            "atoms.",
        ),
        IdentifiabilityReading(
            "pcos-2-set", "perturbed-cosine", 0, 2, 2,
            "As pcos-2 with set semantics: identically zero terms and exact repeats dropped.",
            "set",
        ),
        IdentifiabilityReading(
            "pcos-2-no-order0", "perturbed-cosine", 1, 2, 2,
            "As pcos-2 without the order-0 term h itself.",
        ),
        IdentifiabilityReading(
            "pcos-1", "perturbed-cosine", 0, 1, 2,
            "First order only (exact-specified setting, Appendix A.2), order 0 included.",
        ),
        IdentifiabilityReading(
            "pcos-1-no-order0", "perturbed-cosine", 1, 1, 2,
            "First-order terms only, no order-0 term.",
        ),
        IdentifiabilityReading(
            "pcos-2-one-atom", "perturbed-cosine", 0, 2, 1,
            "As pcos-2 with a single atom.",
        ),
        IdentifiabilityReading(
            "linear-2", "linear", 0, 2, 2,
            "Linear-router version (multiplier x^nu) of the same second-order expansion.",
        ),
        IdentifiabilityReading(
            "eta-only-2", "none", 0, 2, 2,
            "Classical second-order strong identifiability: derivatives in eta only.",
        ),
    ]
}

#: The reading closest to the seeds' text.
PRIMARY_READING = "pcos-2"

#: Default wall-clock limit of :func:`decide`, in seconds.
DEFAULT_TIMEOUT = 120.0


def _reading(reading: str | IdentifiabilityReading) -> IdentifiabilityReading:
    """``reading`` itself, or the one of :data:`READINGS` it names."""
    if isinstance(reading, str):
        if reading not in READINGS:
            raise ValueError(f"reading must be one of {list(READINGS)}, got {reading!r}")
        return READINGS[reading]
    return reading


def router_multiplier_ratio(order: int = 1) -> sp.Expr:
    r"""Leading coefficient :math:`c_\nu` of the router factor's :math:`\nu`-th derivative.

    It is the coefficient of :math:`u^\nu` in the :math:`\nu`-th :math:`\beta_1`-derivative
    of the router factor.

    The router factor is :math:`\exp(\beta_1 x / ((\beta_1 + \tau_1)(|x| + \tau_2)))`; the
    derivative is divided by it.

    Computed for :math:`\beta_1 > 0`, :math:`x > 0` (:math:`d = 1`); it is nonzero for
    :math:`\tau_1 > 0` and vanishes for the plain cosine router (:math:`\tau_1 = 0`), the
    PDE (4) of seed 002.

    Parameters
    ----------
    order : int
        The derivative order :math:`\nu`, 1 to 3.

    Returns
    -------
    sympy.Expr
        :math:`c_\nu` as a function of ``beta1`` and ``tau1``.

    Raises
    ------
    ValueError
        On ``order`` outside [1, 3].

    Notes
    -----
    With :math:`u = x/(x + \tau_2)` the derivative is a polynomial in :math:`u` of degree
    :math:`\nu`; :math:`c_1 = \tau_1/(\beta_1+\tau_1)^2`.

    See Also
    --------
    IdentifiabilityReading.multipliers : the multipliers :math:`u_i`.

    Examples
    --------
    >>> router_multiplier_ratio(1)
    tau1/(beta1 + tau1)**2
    """
    if not isinstance(order, int) or not 1 <= order <= 3:
        raise ValueError(f"order must be an integer in [1, 3], got {order!r}")
    beta1, tau1, tau2, x, u = sp.symbols("beta1 tau1 tau2 x u", positive=True)
    e = sp.exp(beta1 * x / ((beta1 + tau1) * (x + tau2)))
    # the factor e cancels exactly (the derivative is e times a rational function), and in u
    # the quotient is a polynomial (its denominator is free of u): cancel decides both
    ratio = sp.cancel(sp.diff(e, beta1, order) / e)
    ratio_u = sp.cancel(ratio.subs(x, u * tau2 / (1 - u)))
    return sp.factor(sp.Poly(ratio_u, u).coeff_monomial(u**order))


@dataclass(frozen=True)
class FamilyTerm:
    """One function of the family: LaTeX label, plain-text label and the function of ``x``.

    Parameters
    ----------
    latex : str
        The label in LaTeX (see Examples).
    text : str
        The label in plain text, as a terminal prints it (see Examples).
    function : sympy.Expr
        The function of ``x`` at the atom.

    Notes
    -----
    The labels name the multi-indices :math:`\\nu, \\gamma` of the term.

    See Also
    --------
    expert_family : builds the terms.

    Examples
    --------
    >>> FamilyTerm("h", "h(x,eta1)", sp.Symbol("x")).text
    'h(x,eta1)'
    """

    latex: str
    text: str
    function: sp.Expr


def _as_expert(expert: Expert | sp.Expr, x: sp.Symbol | None,
               params: Sequence[sp.Symbol] | None,
               inputs: Sequence[sp.Symbol] | None = None) -> tuple[sp.Expr, sp.Symbol, tuple]:
    if isinstance(expert, Expert):
        return expert.expr, expert.x, expert.params
    if x is None or params is None:
        raise ValueError("x and params are required when expert is a SymPy expression")
    expr = sp.sympify(expert)
    if not isinstance(x, sp.Symbol):
        raise ValueError(f"x must be a Symbol, got {x!r}")
    space = set(inputs) if inputs is not None else {x}
    if not space & expr.free_symbols:
        raise ValueError(f"x must be a Symbol occurring in the expert, got {x!r}")
    params = tuple(params)
    if not params:
        raise ValueError("params must name at least one parameter of the expert")
    missing = [p for p in params if p not in expr.free_symbols]
    if missing:
        raise ValueError(f"params {missing} do not occur in the expert {expr}")
    extra = expr.free_symbols - {*space, *params}
    if extra:
        raise ValueError(f"expert has symbols {sorted(map(str, extra))} not listed in params")
    return expr, x, params


def expert_family(expr: sp.Expr, x: sp.Symbol, params: Sequence[sp.Symbol],
                  reading: IdentifiabilityReading,
                  atoms: Sequence[Mapping[sp.Symbol, Any]],
                  coords: Sequence[sp.Expr] | None = None) -> list[FamilyTerm]:
    r"""The family :math:`F_R` of ``reading`` at ``atoms``, one :class:`FamilyTerm` per function.

    ``coords`` are the input coordinates as functions of the scalar ``x`` (default ``(x,)``,
    :math:`d = 1`); a curve such as ``(x, x**2)`` in :math:`\mathbb{R}^2` checks :math:`d = 2`,
    since independence of the restrictions to a curve implies independence on
    :math:`\mathbb{R}^d`.

    Parameters
    ----------
    expr : sympy.Expr
        The expert :math:`h(x, \eta)`.
    x : sympy.Symbol
        The scalar variable.
    params : sequence of sympy.Symbol
        The parameters :math:`\eta`.
    reading : IdentifiabilityReading
        The reading.
    atoms : sequence of mappings
        The atoms (a value for each parameter).
    coords : sequence of sympy.Expr, optional
        The input coordinates as functions of ``x``.

    Returns
    -------
    list of FamilyTerm
        One term per :math:`(j, \nu, \gamma)`, atoms first; with set semantics zero terms
        and exact repeats are dropped.

    Raises
    ------
    ValueError
        On orders outside :math:`0 \le` ``min_order`` :math:`\le` ``max_order``
        :math:`\le 3`, or when ``h`` is not differentiable in closed form to the order asked.

    Notes
    -----
    Piecewise experts (ReLU) are differentiated branch by branch: the almost-everywhere
    derivative, so :math:`|z|'' = 0` rather than a Dirac delta.

    See Also
    --------
    decide : decides the family's independence.

    Examples
    --------
    >>> a, b, x = sp.symbols("a b x", real=True)
    >>> fam = expert_family(a * x + b, x, [a, b], READINGS["pcos-1-no-order0"], [{a: 1, b: 2}])
    >>> [(t.text, t.function) for t in fam]
    [('u*h(x,eta1)', x*(x + 2)/(Abs(x) + 1)), ('D[a]h(x,eta1)', x), ('D[b]h(x,eta1)', 1)]
    """
    if reading.max_order > 3 or reading.min_order < 0 or reading.min_order > reading.max_order:
        raise ValueError(
            "reading orders must satisfy 0 <= min_order <= max_order <= 3, got "
            f"{reading.min_order}..{reading.max_order}"
        )
    if expr.has(sp.Max, sp.Min, sp.Heaviside, sp.Abs, sp.sign):
        # Piecewise branches differentiate to the almost-everywhere derivative (|z|'' = 0
        # a.e., not a Dirac delta), so ReLU written as (z + |z|)/2 works at every order.
        expr = _piecewise_form(expr)
    coords = tuple(coords) if coords is not None else (x,)
    mults = reading.multipliers(coords)
    sym = "x" if reading.router == "linear" else "u"
    custom: dict[tuple[int, ...], sp.Expr] = {}
    if isinstance(reading.router, ScoreRouter):
        sym = "R"
        for size in range(reading.max_order + 1):
            custom.update(reading.router.terms(coords, size))
    derivs = _derivatives(expr, tuple(params), reading.max_order)
    family: list[FamilyTerm] = []
    for j, atom in enumerate(atoms, start=1):
        for gamma, d in derivs:
            dj = d.subs(dict(atom))
            max_nu = reading.max_order - len(gamma) if mults else 0
            for size in range(max_nu + 1):
                if not reading.min_order <= size + len(gamma) <= reading.max_order:
                    continue
                for nu in itertools.combinations_with_replacement(range(len(mults)), size):
                    m = custom[nu] if custom else sp.Mul(*[mults[i] for i in nu])
                    if custom:
                        mname = rf"R_{{{''.join(str(i + 1) for i in nu)}}}" if size else ""
                        mtext = f"R[{','.join(str(i + 1) for i in nu)}]" if size else ""
                    elif len(coords) == 1:
                        mname = sym + (f"^{{{size}}}" if size > 1 else "") if size else ""
                        mtext = sym + (f"^{size}" if size > 1 else "") if size else ""
                    else:
                        mname = " ".join(f"{sym}_{{{i + 1}}}" for i in nu)
                        mtext = "*".join(f"{sym}{i + 1}" for i in nu)
                    dname = (r"\partial_{" + " ".join(sp.latex(g) for g in gamma) + "}"
                             if gamma else "")
                    label = " ".join(t for t in (mname, dname, rf"h(x,\eta_{{{j}}})") if t)
                    text = (mtext + "*" if mtext else "") + (
                        "D[" + ",".join(map(str, gamma)) + "]" if gamma else "") + f"h(x,eta{j})"
                    family.append(FamilyTerm(label, text, sp.sympify(dj * m)))
    if reading.semantics == "set":
        seen: set[sp.Expr] = set()
        kept = []
        for term in family:
            key = sp.expand(term.function)
            if key == 0 or key in seen:
                continue
            seen.add(key)
            kept.append(term)
        family = kept
    return family


def _piecewise_form(expr: sp.Expr) -> sp.Expr:
    """Rewrite Abs, sign, Heaviside, Max, Min as Piecewise (strict conditions)."""
    def abs_pw(z: sp.Expr) -> sp.Expr:
        return sp.Piecewise((z, z > 0), (-z, True))

    def sign_pw(z: sp.Expr) -> sp.Expr:
        return sp.Piecewise((1, z > 0), (-1, z < 0), (0, True))

    out = expr.replace(sp.Abs, abs_pw).replace(sp.sign, sign_pw)
    if out.has(sp.Max, sp.Min, sp.Heaviside):
        out = out.rewrite(sp.Piecewise)
    return out


@functools.lru_cache(maxsize=64)
def _derivatives(expr: sp.Expr, params: tuple[sp.Symbol, ...],
                 max_order: int) -> tuple[tuple[tuple[sp.Symbol, ...], sp.Expr], ...]:
    """All parameter derivatives of ``expr`` up to ``max_order`` (multi-indices), cached:
    the readings of one expert share them."""
    derivs: list[tuple[tuple[sp.Symbol, ...], sp.Expr]] = []
    for r in range(max_order + 1):
        for gamma in itertools.combinations_with_replacement(params, r):
            d = sp.diff(expr, *gamma) if gamma else expr
            if d.has(sp.Derivative) or d.atoms(sp.DiracDelta):
                raise ValueError(
                    f"order {r} requested, but h is not {r} times differentiable in "
                    f"{gamma} in closed form (got {d})"
                )
            derivs.append((gamma, d))
    return tuple(derivs)


@dataclass
class IdentifiabilityDecision:
    r"""The verdict of "h is strongly identifiable under ``reading``" at ``atoms``.

    ``PROVED`` when the family is independent (exact certificate), ``REFUTED`` when it is
    dependent (exact null vector; for :math:`d \ge 2` an identity on all of :math:`\mathbb{R}^d`),
    ``INCONCLUSIVE``
    otherwise. :meth:`scope` says exactly what the certificate covers.

    Parameters
    ----------
    verdict : Verdict
        The verdict of "strongly identifiable" under the reading.
    reading : IdentifiabilityReading
        The reading.
    expr : sympy.Expr
        The expert.
    params : tuple of sympy.Symbol
        Its parameters.
    atoms : list of dict
        The atoms decided.
    labels, texts : list of str
        The family's labels (LaTeX, text).
    result : LinearIndependenceResult
        The certificate.
    dimension : int
        Input dimension d.
    inputs, curve : tuple of sympy.Expr
        For :math:`d \ge 2`: the coordinates of :math:`\mathbb{R}^d` and the screening curve.
    lifted : dict or None
        For :math:`d \ge 2`: how a curve dependence was lifted to an identity on
        :math:`\mathbb{R}^d`.

    Notes
    -----
    An independence certificate at fixed points is a non-zero determinant; for an expert
    analytic in its parameters it is a non-zero analytic function of the atoms, so it covers
    almost every atom tuple, never all of them.

    See Also
    --------
    decide : builds it.
    moetheory.symbolic.pole_route.decide_ridge_all_atoms : all atoms at once (tanh, sigmoid).

    Examples
    --------
    >>> from moetheory.symbolic.experts import get_expert
    >>> d = decide(get_expert("linear"), "eta-only-2")
    >>> d.verdict.value, d.scope()["atoms"]
    ('refuted', 'these atoms')
    """

    verdict: Verdict
    reading: IdentifiabilityReading
    expr: sp.Expr
    params: tuple[sp.Symbol, ...]
    atoms: list[dict[sp.Symbol, Any]]
    labels: list[str]
    texts: list[str]
    result: LinearIndependenceResult
    dimension: int = 1
    inputs: tuple[sp.Expr, ...] = ()
    curve: tuple[sp.Expr, ...] = ()
    lifted: dict[str, Any] | None = None

    @property
    def analytic(self) -> bool:
        """Whether h is shown real-analytic in its parameters on their declared domain
        (:func:`analytic_in`: decided by meaning, not by syntax)."""
        return analytic_in(self.expr, self.params)

    def scope(self) -> dict[str, Any]:
        """What the verdict covers, as structured data: ``d``, ``k``, ``atoms``.

        ``atoms`` is ``"these atoms"`` for a dependence (a counterexample at the stated
        atoms); for an independence certificate it is ``"almost every atom tuple"`` when h is
        analytic in its parameters (the determinant at the certificate's fixed points is then
        a nonzero real-analytic function of the atoms, which vanishes only on a closed null
        set), else ``"an open set of atom tuples around these"`` (continuity).
        """
        if self.verdict is Verdict.PROVED:
            atoms = ("almost every atom tuple" if self.analytic
                     else "an open set of atom tuples around these")
        else:
            atoms = "these atoms"
        out: dict[str, Any] = {
            "d": self.dimension,
            "k": self.reading.atoms,
            "atoms": atoms,
            "at": [{sp.sstr(k): sp.sstr(v) for k, v in a.items()} for a in self.atoms],
            "orders": [self.reading.min_order, self.reading.max_order],
            "semantics": self.reading.semantics,
        }
        if self.dimension > 1:
            out["decided_on"] = ("the curve x = (" + ", ".join(map(sp.sstr, self.curve))
                                 + "), dependences lifted to identities on R^d")
        return out

    def scope_text(self, latex: bool = False) -> str:
        """The scope in words; with ``latex``, as MyST with its maths in ``$...$``."""
        sc = self.scope()
        where = (f"$d = {sc['d']}$, $k = {sc['k']}$" if latex
                 else f"d = {sc['d']}, k = {sc['k']}")
        if self.verdict is Verdict.PROVED:
            return f"independent for {sc['atoms']} ({where}; certificate at the stated atoms)"
        if self.verdict is Verdict.REFUTED:
            return f"dependent at the stated atoms ({where})"
        return f"undecided at the stated atoms ({where})"

    @property
    def summary(self) -> str:
        n = len(self.labels)
        if self.verdict is Verdict.PROVED:
            return (f"{n} functions independent: nonsingular matrix at {n} exact points; "
                    f"scope: {self.scope_text()}")
        if self.verdict is Verdict.REFUTED:
            nz = [(c, lab) for c, lab in zip(self.result.coefficients, self.texts, strict=True)
                  if c != 0]
            terms = " + ".join(f"({sp.sstr(c)})*{lab}" for c, lab in nz[:4])
            more = " + ..." if len(nz) > 4 else ""
            where = " on all of R^d" if self.dimension > 1 else " a.e."
            return f"dependent: {terms}{more} = 0{where}; scope: {self.scope_text()}"
        reason = (self.lifted or {}).get("note") or self.result.reason
        return f"inconclusive: {reason}"

    @property
    def summary_latex(self) -> str:
        r""":attr:`summary` as MyST: the dependence typeset (``$...$``) from the family's LaTeX
        labels, never from the plain text.

        Examples
        --------
        >>> import sympy as sp
        >>> x, a, b = sp.symbols("x a b", real=True)
        >>> dec = decide(a * x + b, "eta-only-2", x=x, params=[a, b])
        >>> print(dec.summary_latex.split(" + ")[0])
        dependent: $6\,h(x,\eta_{1}) - 9\,\partial_{a} h(x,\eta_{2})
        """
        n = len(self.labels)
        if self.verdict is Verdict.PROVED:
            return (f"{n} functions independent: nonsingular matrix at {n} exact points; "
                    f"scope: {self.scope_text(latex=True)}")
        if self.verdict is Verdict.REFUTED:
            nz = [(c, lab) for c, lab in zip(self.result.coefficients, self.labels, strict=True)
                  if c != 0]
            terms = "".join(_signed_term(c, lab, i == 0) for i, (c, lab) in enumerate(nz[:4]))
            more = r" + \dots" if len(nz) > 4 else ""
            where = r" on all of $\mathbb{R}^d$" if self.dimension > 1 else " a.e."
            return (f"dependent: ${terms}{more} = 0${where}; "
                    f"scope: {self.scope_text(latex=True)}")
        return self.summary

    def evidence(self) -> dict[str, Any]:
        """JSON-able evidence: reading, scope, atoms, family labels and the certificate."""
        ev = {
            "reading": self.reading.statement(),
            "scope": self.scope(),
            "expert": sp.sstr(self.expr),
            "atoms": [{sp.sstr(k): sp.sstr(v) for k, v in a.items()} for a in self.atoms],
            "family": self.texts,
            "certificate": self.result.evidence(),
        }
        if self.lifted is not None:
            ev["lift_to_Rd"] = self.lifted
        return ev

    def derivation(self) -> str:
        """MyST derivation built from the family and the certificate."""
        atoms = ", ".join(
            rf"\eta_{{{j}}} = ({', '.join(sp.latex(v) for v in a.values())})"
            for j, a in enumerate(self.atoms, start=1)
        )
        lines = [
            f"**Reading `{self.reading.name}`** ({self.reading.note})",
            "",
            self.reading.latex(),
            "",
            rf"Expert $h(x,\eta) = {sp.latex(self.expr)}$ with "
            rf"$\eta = ({', '.join(sp.latex(p) for p in self.params)})$ at ${atoms}$: "
            f"{len(self.labels)} functions.",
            "",
        ]
        res = self.result
        if res.status == "dependent":
            nz = [(c, lab, f) for c, lab, f in
                  zip(res.coefficients, self.labels, res.functions, strict=True) if c != 0]
            combo = " + ".join(rf"\left({sp.latex(c)}\right) {lab}" for c, lab, _ in nz)
            lines += [
                "Dependence certificate (the combination vanishes on every region "
                + ", ".join(f"${r.latex()}$" for r in res.regions) + "):",
                "",
                f"$${combo} = 0$$",
                "",
                "with the terms " + "; ".join(f"${lab} = {sp.latex(f)}$" for _, lab, f in nz)
                + ".",
            ]
        elif res.status == "independent":
            det = (sp.latex(res.determinant) if res.determinant is not None
                   else r"\in " + _interval_latex(res.determinant_interval or ("?", "?")))
            lines += [
                "Independence certificate: the matrix $M_{ri} = f_i(x_r)$ at "
                f"$x_r \\in \\{{{', '.join(sp.latex(p) for p in res.points)}\\}}$ has "
                f"$\\det M {'=' if res.determinant is not None else ''} {det} \\neq 0$.",
            ]
        else:
            lines.append(f"No certificate: {res.reason}.")
        return "\n".join(lines)


def decide(expert: Expert | sp.Expr, reading: str | IdentifiabilityReading = PRIMARY_READING,
           *, x: sp.Symbol | None = None, params: Sequence[sp.Symbol] | None = None,
           atoms: Sequence[Mapping[sp.Symbol, Any]] | None = None,
           coords: Sequence[sp.Expr] | None = None,
           inputs: Sequence[sp.Symbol] | None = None,
           timeout: float | None = DEFAULT_TIMEOUT) -> IdentifiabilityDecision:
    r"""Decide whether an expert is strongly identifiable under a reading of Definition 1.

    Parameters
    ----------
    expert : Expert or sympy.Expr
        The expert ``h(x, η)``; for an expression give ``x`` and ``params``.
    reading : str or IdentifiabilityReading
        A key of :data:`READINGS` (default the primary ``"pcos-2"``) or a custom reading.
    x : sympy.Symbol, optional
        The input variable (scalar, :math:`d = 1`).
    params : sequence of sympy.Symbol, optional
        The parameters ``η`` of the expert.
    atoms : sequence of mappings, optional
        The pairwise distinct atoms ``η_1..η_k`` (``k = reading.atoms``); default
        :func:`default_atoms`. Float values are made exact (``1.5 -> 3/2``, shortest decimal)
        so that certificates stay exact.
    coords : sequence of sympy.Expr, optional
        Input coordinates as functions of ``x`` (default ``(x,)``); see :func:`expert_family`.
        Without ``inputs`` a dependence found on such a curve cannot be lifted, so it is
        reported as ``INCONCLUSIVE`` (never as a refutation on :math:`\mathbb{R}^d`).
    inputs : sequence of sympy.Symbol, optional
        Input dimension :math:`d \ge 2`: the expert is written in the coordinates ``inputs``
        of :math:`\mathbb{R}^d`. The family is screened on the curve ``inputs = coords(x)``
        (default :math:`(x, x^3, x^5, \dots)`, then
        :math:`(x, x^{m+1}, x^{(m+1)^2}, \dots)` with :math:`m` the reading's ``max_order``,
        on which no two products of at most :math:`m` coordinates coincide): independence
        there proves independence on :math:`\mathbb{R}^d`; a dependence found there is rebuilt
        on :math:`\mathbb{R}^d` and reported only if it is an identity on all of
        :math:`\mathbb{R}^d`.
    timeout : float or None
        Wall-clock limit in seconds (default :data:`DEFAULT_TIMEOUT`; ``None``: none). When
        it runs out the verdict is ``INCONCLUSIVE`` with the reason.

    Returns
    -------
    IdentifiabilityDecision
        Verdict, family and certificate.

    Raises
    ------
    ValueError
        On an unknown reading, atoms that are not pairwise distinct or do not match
        ``params``, the wrong number of atoms, ``coords`` or ``inputs`` that are not
        expressions in ``x`` / symbols, an expression without ``x`` and ``params``, or a
        ``timeout`` that is not positive.

    Notes
    -----
    The family is decided by
    :func:`moetheory.symbolic.linear_independence.decide_linear_independence`;
    for :math:`d \ge 2` a dependence found on the screening curve counts only once its
    combination is an identity on :math:`\mathbb R^d`.

    See Also
    --------
    decide_all_atoms : exact elimination for polynomial experts, every atom.
    moetheory.symbolic.pole_route.decide_ridge_all_atoms : tanh and sigmoid, every atom.
    search_exceptions : the symmetry orbits.

    Examples
    --------
    A researcher's own expert :math:`h(x, (a, c)) = a e^{c x}` is linear in :math:`a`, so
    :math:`h = a \partial_a h` and every reading with the order-0 term fails:

    >>> a, c, x = sp.symbols("a c x", real=True)
    >>> d = decide(a * sp.exp(c * x), "pcos-1", x=x, params=[a, c])
    >>> d.verdict.value, [c for c in d.result.coefficients if c != 0]
    ('refuted', [2, -3])
    >>> decide(a * sp.exp(c * x), "pcos-1-no-order0", x=x, params=[a, c]).verdict.value
    'proved'
    """
    reading = _reading(reading)
    expr, x, params = _as_expert(expert, x, params, inputs)
    if atoms is None:
        atoms = default_atoms(params, reading.atoms)
    atom_list = [{p: to_exact(v) for p, v in dict(a).items()} for a in atoms]
    if len(atom_list) != reading.atoms:
        raise ValueError(f"atoms must hold {reading.atoms} atoms for reading {reading.name!r}")
    for a in atom_list:
        if set(a) != set(params):
            raise ValueError(f"each atom must give a value to exactly the params {params}")
    keys = [tuple(sp.sympify(a[p]) for p in params) for a in atom_list]
    if len(set(keys)) != len(keys):
        raise ValueError("atoms must be pairwise distinct")
    bad = next((m for a in atom_list for p, v in a.items() if (m := atom_violation(p, v))), "")
    if bad:
        raise ValueError(f"atoms must satisfy the declared assumptions of the params: {bad}")
    if coords is not None and any(sp.sympify(c).free_symbols - {x} for c in coords):
        raise ValueError("coords must be expressions in x only")
    _check_timeout(timeout)
    curves: list[tuple[sp.Expr, ...]] = []
    if inputs is not None:
        inputs = tuple(inputs)
        if not inputs or not all(isinstance(v, sp.Symbol) for v in inputs):
            raise ValueError("inputs must be a non-empty sequence of SymPy Symbols")
        if x in inputs:
            raise ValueError("x (the curve parameter) must not be one of inputs")
        default = tuple(x ** (2 * i + 1) for i in range(len(inputs)))
        curves = [tuple(coords), default] if coords is not None else [default]
        if _monomials_collide([2 * i + 1 for i in range(len(inputs))], reading.max_order):
            base = reading.max_order + 1  # base-(m+1) digits: no two products coincide
            curves.append(tuple(x ** (base**i) for i in range(len(inputs))))
        if len(curves[0]) != len(inputs):
            raise ValueError(f"coords must give {len(inputs)} coordinates, one per input")
    try:
        with time_limit(timeout):
            return _decide_checked(expr, x, params, reading, atom_list, coords,
                                   inputs, curves)
    except (TimeLimitExceeded, NotRealValued) as exc:
        dim = len(inputs) if inputs is not None else len(coords) if coords is not None else 1
        why = (f"{exc} (timeout)" if isinstance(exc, TimeLimitExceeded) else
               f"the family is not real-valued at these atoms ({exc}): declare where the "
               "parameters and inputs live (positive=True, ...) or give atoms")
        return IdentifiabilityDecision(
            Verdict.INCONCLUSIVE, reading, expr, tuple(params), atom_list, [], [],
            LinearIndependenceResult("inconclusive", [], x, reason=why),
            dim, tuple(inputs or ()), tuple(coords or ()))


def _monomials_collide(exponents: list[int], order: int) -> bool:
    """Whether two products of at most ``order`` coordinates ``x^e_i`` of a curve coincide
    (then the curve makes different family terms equal: ``t * t^5 = t^3 * t^3``)."""
    seen: set[int] = set()
    for size in range(order + 1):
        for nu in itertools.combinations_with_replacement(exponents, size):
            if sum(nu) in seen:
                return True
            seen.add(sum(nu))
    return False



def _check_timeout(timeout: Any) -> None:
    if timeout is None:
        return
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0:
        raise ValueError(
            f"timeout must be a positive number of seconds or None, got {timeout!r}")


def _decide_checked(expr: sp.Expr, x: sp.Symbol, params: tuple[sp.Symbol, ...],
                    reading: IdentifiabilityReading, atom_list: list[dict[sp.Symbol, Any]],
                    coords: Sequence[sp.Expr] | None, inputs: tuple[sp.Symbol, ...] | None,
                    curves: list[tuple[sp.Expr, ...]]) -> IdentifiabilityDecision:
    """:func:`decide` after its arguments were checked."""
    lifted: dict[str, Any] | None = None
    if inputs is not None:
        on_rd = expert_family(expr, inputs[0], params, reading, atom_list, coords=inputs)
        for curve in dict.fromkeys(curves):
            # Screen on the curve; a dependence counts only once lifted to R^d. If the
            # caller's curve gives none, the default curve (x, x^3, x^5, ...) is tried.
            sub = dict(zip(inputs, curve, strict=True))
            family = [FamilyTerm(t.latex, t.text, t.function.xreplace(sub)) for t in on_rd]
            result = decide_linear_independence([t.function for t in family], x)
            verdict = {"independent": Verdict.PROVED, "dependent": Verdict.REFUTED}.get(
                result.status, Verdict.INCONCLUSIVE)
            if result.status == "dependent":
                lifted = _lift(result.null_space, [t.function for t in on_rd], inputs)
                if lifted["identity_on_Rd"]:
                    # report the first basis row that is an identity on R^d
                    result.coefficients = next(
                        v for v, row in zip(result.null_space, lifted["vectors"], strict=True)
                        if row["identity"])
                else:
                    verdict = Verdict.INCONCLUSIVE
            if verdict is not Verdict.INCONCLUSIVE:
                break
        return IdentifiabilityDecision(
            verdict, reading, expr, tuple(params), atom_list, [t.latex for t in family],
            [t.text for t in family], result, len(inputs), inputs, curve, lifted)
    family = expert_family(expr, x, params, reading, atom_list, coords)
    result = decide_linear_independence([t.function for t in family], x)
    verdict = {"independent": Verdict.PROVED, "dependent": Verdict.REFUTED}.get(
        result.status, Verdict.INCONCLUSIVE
    )
    dim = len(coords) if coords is not None else 1
    if coords is not None and dim > 1 and verdict is Verdict.REFUTED:
        verdict = Verdict.INCONCLUSIVE
        lifted = {"identity_on_Rd": False,
                  "note": "a dependence on the curve only (pass inputs= to lift it to R^d); "
                          "not reported as a refutation"}
    return IdentifiabilityDecision(
        verdict, reading, expr, tuple(params), atom_list, [t.latex for t in family],
        [t.text for t in family], result, dim, (), tuple(coords or ()), lifted)


#: Lifting probes: rational points of R^d (deterministic) at which a lifted combination must
#: vanish before the symbolic identity test is tried.
_PROBES: tuple[sp.Rational, ...] = tuple(sp.Rational(p, q) for p, q in
                                         [(3, 7), (-5, 4), (7, 3), (-2, 9), (11, 5), (1, 6)])


def _lift(null_space: list[list[sp.Expr]], functions: list[sp.Expr],
          inputs: tuple[sp.Symbol, ...]) -> dict[str, Any]:
    """Rebuild each curve null vector's combination on R^d and test it as an identity."""
    rows: list[dict[str, Any]] = []
    for vec in null_space:
        combo = sp.Add(*[c * f for c, f in zip(vec, functions, strict=True) if c != 0])
        probes = [{v: _PROBES[(i + j) % len(_PROBES)] for i, v in enumerate(inputs)}
                  for j in range(3)]
        nonzero = next((p for p in probes
                        if abs(complex(sp.N(combo.xreplace(p), 30))) > 1e-20), None)
        if nonzero is not None:
            rows.append({"coefficients": [sp.sstr(c) for c in vec], "identity": False,
                         "nonzero_at": {sp.sstr(k): sp.sstr(v) for k, v in nonzero.items()}})
            continue
        zero = _simplifies_to_zero(sp.piecewise_fold(combo))
        rows.append({"coefficients": [sp.sstr(c) for c in vec], "identity": zero})
    ok = any(r["identity"] for r in rows)
    note = ("a null vector found on the curve is an identity on all of R^d (simplifies to 0)"
            if ok else "the dependence holds on the screening curve only (or was not shown "
                       "to hold on R^d): not reported as a refutation")
    return {"identity_on_Rd": ok, "vectors": rows, "note": note}



@dataclass
class AllAtomsDecision:
    r"""Strong identifiability decided for ALL atoms at once by exact elimination (:math:`d = 1`).

    Attributes
    ----------
    status : {"dependent for every atom tuple", "independent outside the exceptional set",
              "not applicable"}
    verdict : Verdict
        ``REFUTED`` (dependent for every atom tuple), ``PROVED`` (independent for every atom
        tuple outside the zero set of ``determinant``), ``INCONCLUSIVE`` (not applicable).
    n_functions, n_coefficients, generic_rank : int
        Size of the coefficient matrix over the rational functions of the atoms, and its rank.
    determinant : sympy.Expr or None
        A nonzero maximal minor :math:`\Delta` of the atoms; independence holds wherever
        :math:`\Delta \ne 0`.
    exceptional_factors : list of sympy.Expr
        The irreducible factors of :math:`\Delta`: their zero sets contain every exception.
    atoms : list of dict
        The symbolic atoms.
    reading : IdentifiabilityReading
        The reading decided.
    reason : str
        Why the status was reached.

    Notes
    -----
    The rank over the field :math:`\mathbb Q(\text{atoms})` bounds the rank at every atom
    tuple; a non-zero maximal minor :math:`\Delta` certifies independence wherever
    :math:`\Delta \ne 0`.

    See Also
    --------
    decide_all_atoms : builds it.

    Examples
    --------
    >>> from moetheory.symbolic.experts import get_expert
    >>> decide_all_atoms(get_expert("linear"), "eta-only-2").generic_rank
    2
    """

    status: str
    verdict: Verdict
    reading: IdentifiabilityReading
    n_functions: int = 0
    n_coefficients: int = 0
    generic_rank: int = 0
    determinant: sp.Expr | None = None
    exceptional_factors: list[sp.Expr] = field(default_factory=list)
    atoms: list[dict[sp.Symbol, sp.Symbol]] = field(default_factory=list)
    reason: str = ""

    def scope(self) -> dict[str, Any]:
        """Structured scope: ``d``, ``k``, ``atoms``."""
        atoms = {"dependent for every atom tuple": "every atom tuple",
                 "independent outside the exceptional set":
                     "every atom tuple outside the zero set of the exceptional factors"}.get(
            self.status, "none")
        return {"d": 1, "k": self.reading.atoms, "atoms": atoms,
                "orders": [self.reading.min_order, self.reading.max_order],
                "semantics": self.reading.semantics}

    @property
    def summary(self) -> str:
        if self.verdict is Verdict.REFUTED:
            return (f"dependent for EVERY atom tuple (d = 1, k = {self.reading.atoms}): the "
                    f"{self.n_functions} functions span at most {self.generic_rank} dimensions "
                    "(rank of the coefficient matrix over Q(atoms))")
        if self.verdict is Verdict.PROVED:
            factors = ", ".join(sp.sstr(f) for f in self.exceptional_factors)
            return (f"independent for EVERY atom tuple (d = 1, k = {self.reading.atoms}) "
                    f"outside the zero set of {factors}")
        return f"not decided for all atoms: {self.reason}"

    @property
    def summary_latex(self) -> str:
        """:attr:`summary` as MyST, its maths typeset from the decision's data."""
        where = f"$d = 1$, $k = {self.reading.atoms}$"
        if self.verdict is Verdict.REFUTED:
            return (f"dependent for EVERY atom tuple ({where}): the {self.n_functions} "
                    f"functions span at most {self.generic_rank} dimensions (rank of the "
                    r"coefficient matrix over $\mathbb{Q}(\text{atoms})$)")
        if self.verdict is Verdict.PROVED:
            factors = ", ".join(f"${sp.latex(f)}$" for f in self.exceptional_factors)
            return f"independent for EVERY atom tuple ({where}) outside the zero set of {factors}"
        return f"not decided for all atoms: {self.reason}"

    def scope_latex(self) -> dict[str, str]:
        """The ``k`` and ``atoms`` of :meth:`scope` as MyST (maths in ``$...$``)."""
        return {"k": f"${self.reading.atoms}$", "atoms": self.scope()["atoms"]}

    def evidence(self) -> dict[str, Any]:
        return {
            "reading": self.reading.statement(),
            "scope": self.scope(),
            "method": "exact elimination: each function times (1 + |x|)^max_order is a "
                      "polynomial in x on x > 0 and on x < 0; its coefficients form a matrix "
                      "over Q[atoms] whose rank over Q(atoms) bounds the rank at every atom",
            "status": self.status,
            "n_functions": self.n_functions,
            "n_coefficients": self.n_coefficients,
            "generic_rank": self.generic_rank,
            "determinant_factors": [sp.sstr(f) for f in self.exceptional_factors],
            "atoms": [{sp.sstr(k): sp.sstr(v) for k, v in a.items()} for a in self.atoms],
            "reason": self.reason,
        }


def decide_all_atoms(expert: Expert | sp.Expr,
                     reading: str | IdentifiabilityReading = PRIMARY_READING, *,
                     x: sp.Symbol | None = None,
                     params: Sequence[sp.Symbol] | None = None) -> AllAtomsDecision:
    r"""Decide strong identifiability for ALL atoms at once, by exact elimination (:math:`d = 1`).

    Applies when every family function, with the atoms left symbolic, is a rational function
    of ``x`` on ``x > 0`` and on ``x < 0`` after ``|x|`` is resolved (polynomial experts, the
    linear expert, under any router multiplier). Each function times
    :math:`(1 + |x|)^{m}` (:math:`m` = ``max_order``) is then a polynomial in :math:`x` per
    region; a combination vanishes a.e. iff its coefficients vanish on both regions, i.e. iff
    :math:`c` is in the left null space of the coefficient matrix :math:`C` (entries
    polynomials in the atoms with rational coefficients).

    * rank of :math:`C` over the field of rational functions of the atoms below the number
      :math:`n` of functions: every :math:`n \times n` minor vanishes identically, so the
      family is dependent at EVERY atom tuple;
    * rank :math:`n`: a nonzero :math:`n \times n` minor :math:`\Delta` certifies independence
      at every atom tuple where :math:`\Delta \ne 0`; its irreducible factors name a set
      containing every exception.

    Parameters
    ----------
    expert : Expert or sympy.Expr
        The expert; for an expression give ``x`` and ``params``.
    reading : str or IdentifiabilityReading
        The reading.
    x : sympy.Symbol, optional
        The variable (expressions only).
    params : sequence of sympy.Symbol, optional
        The parameters (expressions only).

    Returns
    -------
    AllAtomsDecision
        ``REFUTED`` (dependent at every atom tuple), ``PROVED`` (independent outside the zero
        set of the exceptional factors) or ``INCONCLUSIVE`` (not a polynomial family).

    Raises
    ------
    ValueError
        On an unknown reading or an expression without ``x`` and ``params``.

    Notes
    -----
    Exact linear algebra over :math:`\mathbb Q[\text{atoms}]` with
    :class:`~sympy.polys.matrices.DomainMatrix`; no sampling.

    See Also
    --------
    moetheory.symbolic.pole_route.decide_ridge_all_atoms : the singularity route (tanh, sigmoid).

    Examples
    --------
    >>> from moetheory.symbolic.experts import get_expert
    >>> decide_all_atoms(get_expert("ffn-poly2"), "pcos-1-no-order0").verdict.value
    'refuted'
    >>> d = decide_all_atoms(get_expert("ffn-poly3"), "pcos-1-no-order0")
    >>> d.verdict.value, sp.sstr(d.exceptional_factors[0])
    ('proved', 'a_1*b_2 - a_2*b_1')
    """
    reading = _reading(reading)
    expr, x, params = _as_expert(expert, x, params)
    syms = [{p: sp.Symbol(f"{p}_{j}", real=True) for p in params}
            for j in range(1, reading.atoms + 1)]
    flat = [v for a in syms for v in a.values()]
    out = AllAtomsDecision("not applicable", Verdict.INCONCLUSIVE, reading, atoms=syms)
    if expr.has(*_BRANCHING_EXPERT):
        out.reason = "the expert is piecewise in its parameters (not a polynomial family)"
        return out
    family = expert_family(expr, x, params, reading, syms)
    blocks = []
    for sign in (1, -1):
        polys = []
        for t in family:
            f = sp.cancel(t.function.subs(sp.Abs(x), sign * x) * (1 + sign * x)
                          ** reading.max_order)
            if not f.is_polynomial(x) or not f.is_polynomial(*flat):
                out.reason = f"{t.text} is not polynomial in x and the atoms on a region"
                return out
            polys.append(sp.Poly(f, x))
        deg = max(p.degree() for p in polys)
        blocks.append([[p.coeff_monomial(x**i) for i in range(deg + 1)] for p in polys])
    rows = [b1 + b2 for b1, b2 in zip(*blocks, strict=True)]
    n, m = len(rows), len(rows[0])
    mat = sp.Matrix(rows)
    ring = sp.QQ[tuple(flat)]
    dm = DomainMatrix.from_Matrix(mat).convert_to(ring.get_field())
    _, pivots = dm.rref()
    rank = len(pivots)
    out.n_functions, out.n_coefficients, out.generic_rank = n, m, rank
    if rank < n:
        out.status, out.verdict = "dependent for every atom tuple", Verdict.REFUTED
        out.reason = f"rank {rank} < {n} over Q(atoms)"
        return out
    minor = DomainMatrix.from_Matrix(mat.extract(list(range(n)), list(pivots))).convert_to(ring)
    det = ring.to_sympy(minor.det())
    out.determinant = det
    out.exceptional_factors = [f for f, _ in sp.factor_list(det, *flat)[1]]
    out.status, out.verdict = "independent outside the exceptional set", Verdict.PROVED
    out.reason = f"nonzero {n} x {n} minor at columns {list(pivots)}"
    return out


#: The named symmetry orbits searched by :func:`search_exceptions`.
EXCEPTION_ORBITS: tuple[str, ...] = ("sign-flip", "equal-slopes", "2pi-shift")


def search_exceptions(expert: Expert | sp.Expr,
                      reading: str | IdentifiabilityReading = PRIMARY_READING, *,
                      x: sp.Symbol | None = None, params: Sequence[sp.Symbol] | None = None,
                      intercept: sp.Symbol | None = None,
                      orbits: Sequence[str] = EXCEPTION_ORBITS,
                      ) -> dict[str, IdentifiabilityDecision]:
    r"""Decide the reading on the named symmetry orbits where exceptions live.

    The orbits of "independent for generic atoms": :math:`\eta_2 = -\eta_1` (odd or even
    activations), equal slopes (:math:`\eta_2 = \eta_1` except the ``intercept``; exponential
    experts), and a :math:`2\pi` shift of the intercept (periodic ones). Further atoms
    (:math:`k > 2`) stay generic.

    Parameters
    ----------
    expert, reading, x, params
        As in :func:`decide` (the reading needs :math:`k \ge 2`).
    intercept : sympy.Symbol, optional
        The parameter shifted by the equal-slope and :math:`2\pi` orbits (default ``b`` if present,
        else the last parameter).
    orbits : sequence of str
        A subset of :data:`EXCEPTION_ORBITS`.

    Returns
    -------
    dict
        The decision on each orbit, by name (a ``REFUTED`` one is an exception, with its
        certificate).

    Raises
    ------
    ValueError
        On an unknown reading or orbit, a reading with :math:`k < 2`, or an ``intercept`` that is
        not
        a parameter.

    Notes
    -----
    An exception found here is an exact dependence (a counterexample to "all atoms"); none
    found does not prove "all atoms" (see :func:`decide_all_atoms` and
    :func:`moetheory.symbolic.pole_route.decide_ridge_all_atoms` for that).

    See Also
    --------
    decide : one decision at explicit atoms.

    Examples
    --------
    >>> a, b, x = sp.symbols("a b x", real=True)
    >>> found = search_exceptions(sp.exp(a * x + b), "pcos-1-no-order0", x=x, params=[a, b])
    >>> {k: v.verdict.value for k, v in found.items()}
    {'sign-flip': 'proved', 'equal-slopes': 'refuted', '2pi-shift': 'refuted'}
    >>> found["equal-slopes"].result.coefficients[:2]
    [1, 0]
    """
    reading = _reading(reading)
    if reading.atoms < 2:
        raise ValueError(f"reading {reading.name!r} has k = {reading.atoms}; orbits need k >= 2")
    bad = [o for o in orbits if o not in EXCEPTION_ORBITS]
    if bad:
        raise ValueError(f"orbits must be among {list(EXCEPTION_ORBITS)}, got {bad}")
    expr, x, params = _as_expert(expert, x, params)
    names = [str(p) for p in params]
    shift = intercept if intercept is not None else (
        params[names.index("b")] if "b" in names else params[-1])
    if shift not in params:
        raise ValueError(f"intercept must be one of params {list(params)}, got {shift!r}")
    generic = default_atoms(params, reading.atoms)
    base = generic[0]
    second = {
        "sign-flip": {p: -v for p, v in base.items()},
        "equal-slopes": {**base, shift: base[shift] + 1},
        "2pi-shift": {**base, shift: base[shift] + 2 * sp.pi},
    }
    return {o: decide(expr, reading, x=x, params=params,
                      atoms=[base, second[o], *generic[2:]]) for o in orbits}
