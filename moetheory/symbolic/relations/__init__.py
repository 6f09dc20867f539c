r"""Linear PDE relations among the parameter derivatives of one's own router × expert.

:func:`find_relations` answers "which relations

.. math:: \sum_{|\alpha| \le k} c_\alpha(\theta)\,\partial^\alpha_\theta H(x, \theta) = 0
          \quad\text{for all } x, \qquad H = G(x, \beta_1)\,h(x, \eta),

hold for my router and my expert?" with a verdict and its scope in the input dimension
:math:`d`: the relations found (each verified exactly, each with the dimensions where it
holds), or "no relation of order :math:`\le k`" — ``proved`` only when the search was
exhaustive and exact in every dimension stated, otherwise ``inconclusive`` with the reason.
It is the search of :mod:`moetheory.symbolic.interactions` (the atlas's), with a time limit
and the checks of its own assumptions.

Inputs
------
``score(beta1, x)`` is a Python callable receiving two SymPy column vectors of real symbols
(:math:`\beta_{1,1..d}`, :math:`x_{1..d}`) and returning a scalar SymPy expression (dot
products, norms, elementary functions); other symbols are hyper-parameters (kept symbolic,
with their assumptions). The gate is :math:`G = e^{s}` (softmax numerator, also Top-K on its
active set) or :math:`\sigma(s)` (``gate="sigmoid"``). A name of
:data:`~moetheory.symbolic.interactions.ROUTERS` or a
:class:`~moetheory.symbolic.interactions.RouterSpec` is accepted too.

The expert is a callable ``expert(x, eta)`` receiving the column vector ``x`` and a column
vector ``eta`` of ``eta_size`` real symbols :math:`\eta_1, \eta_2, \dots` (default
:math:`d + 1`, a ridge expert's :math:`a \in \mathbb R^d` and :math:`b`; symbols the expert
does not use are not parameters), or a SymPy expression with ``x=`` (its input symbols, which
fix :math:`d`) and ``params=``, or a name of
:data:`~moetheory.symbolic.interactions.EXPERTS` / an
:class:`~moetheory.symbolic.interactions.ExpertSpec`.

Scope
-----
A relation found in dimension :math:`d` holds in :math:`d`. For the ready-made routers and
experts (invariant under rotations of :math:`x` and the parameter vectors) it is lifted to
every dimension (:func:`~moetheory.symbolic.interactions.lift`): "every :math:`d \ge 1`", or
"every :math:`d \ge 2`" for a relation with two distinct indices :math:`i \ne j`. A user's
callable can do anything with the dimension, so its relations hold in the dimensions searched
only. "No relation" is stated for the dimensions searched only (a relation may appear first
in a higher dimension).

Parameters differentiated
-------------------------
:math:`\beta_1`, ``eta`` and the symbols of ``params=`` (a learnable bias ``b0``, a
temperature ``tau``, a variance ``v``); every other symbol of :math:`H` is held fixed. Every
answer (the verdict line, the Markdown, the JSON) lists both.

Parameter regimes
-----------------
The search imposes every cell of :math:`x`-space (each smooth piece of the expert; in
:math:`d = 1` each side of a kink :math:`|x - c|`), but which cells are non-empty can depend
on the parameters (Laplace gating with a ReLU expert: whether the active half-line lies on
one side of :math:`\beta_1`). The cells are surveyed at 8 random parameter points (exactly
in :math:`d = 1`); when some are empty at a point, the search is repeated in each regime seen
with only its cells, and the answer is stated for the regimes sampled
(:class:`RegimeSearch`); a regime not decided makes the search incomplete.

Independent check
-----------------
Before a verdict is stated, every relation stated is evaluated by
``moetheory.symbolic.relations._check`` (SymPy's ``diff`` of :math:`H` as built, ``evalf``
at 40 digits, at random points of its scope: each dimension, each regime); a failure makes
the verdict ``inconclusive`` with the reason.

Limits
------
:math:`d \le 4` and order :math:`\le 3` (the exact linear algebra grows fast: :math:`d = 3`,
order 2 can take minutes, hence ``timeout``). Supported pieces: see
:mod:`moetheory.symbolic.interactions`; anything else is refused with a one-line
``ValueError`` before the search.

Examples
--------
>>> import sympy as sp
>>> res = find_relations(lambda b, x: b.dot(x), lambda x, eta: sp.tanh(eta[0] * x[0] + eta[1]),
...                      order=2, d=1)
>>> res.verdict.value, [r.text for r in res.generators]
('proved', ['H_{eta_1} - H_{beta1_1,eta_2} = 0'])
>>> res.scope
{'d': [1]}
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import sympy as sp

from moetheory.engine.verdicts import Outcome, Verdict
from moetheory.symbolic.experts import sigmoid
from moetheory.symbolic.relations._budget import (
    SearchTimeout,
    check_timeout,
    time_limit,
)
from moetheory.symbolic.relations._check import failures
from moetheory.symbolic.relations._completeness import completeness
from moetheory.symbolic.relations._lift import lift
from moetheory.symbolic.relations._relations import _R_BETA, InteractionResult, Relation
from moetheory.symbolic.relations._search import _search
from moetheory.symbolic.relations._setup import UnsupportedExpression, _kernelise, _pieces
from moetheory.symbolic.relations._specs import (
    EXPERTS,
    ROUTERS,
    ExpertSpec,
    RouterSpec,
    coordinates,
    custom_expert,
    symbol_latex,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_D",
    "MAX_ORDER",
    "DimensionSearch",
    "FoundRelation",
    "RegimeSearch",
    "RelationsResult",
    "find_relations",
]

#: Default wall-clock limit of :func:`find_relations`, in seconds.
DEFAULT_TIMEOUT = 60.0
#: Largest input dimension searched.
MAX_D = 4
#: Largest derivative order searched.
MAX_ORDER = 3

Scope = Any  # "all" | {"min": m} | {"min": m, "and": [...]} | list[int]


# --------------------------------------------------------------------------------------------
# results
# --------------------------------------------------------------------------------------------
def _scope_text(scope: Scope, latex: bool = False) -> str:
    """``"all"`` → "every d ≥ 1", ``{"min": 2}`` → "every d ≥ 2", ``[1, 2]`` → "d = 1, 2"
    (with ``latex``, each formula in ``$…$``; the atlas's cells use that form)."""
    m, ge = ("$", "\\ge") if latex else ("", ">=")
    if scope == "all":
        return f"every {m}d {ge} 1{m}"
    if isinstance(scope, dict):
        extra = f" and {m}d = {', '.join(map(str, scope['and']))}{m}" if scope.get("and") else ""
        return f"every {m}d {ge} {scope['min']}{m}{extra}"
    return f"{m}d = " + ", ".join(map(str, scope)) + m if scope else "no dimension"


def _scope_latex(scope: Scope) -> str:
    return _scope_text(scope).replace("d >= ", "$d \\ge ").replace("d = ", "$d = ") \
        .replace(" and", "$ and") + "$" if scope else "no dimension"


def _dimensions_in_words(dims: Iterable[int]) -> str:
    """``"dimension 2"`` or ``"dimensions 1, 2"``: a reason's dimensions, plain text that
    reads the same in a terminal and on a page (no formula to typeset)."""
    dims = sorted(dims)
    return f"dimension{'s' if len(dims) > 1 else ''} {', '.join(map(str, dims))}"


def _in_scope(scope: Scope, d: int) -> bool:
    if scope == "all":
        return True
    if isinstance(scope, dict):
        return d >= scope["min"] or d in scope.get("and", [])
    return d in scope


def _union(parts: Sequence[Scope]) -> Scope:
    """The union of scopes, in the smallest form."""
    low: int | None = None
    finite: set[int] = set()
    for p in parts:
        if p == "all":
            return "all"
        if isinstance(p, dict):
            low = p["min"] if low is None else min(low, p["min"])
            finite |= set(p.get("and", []))
        else:
            finite |= set(p)
    if low is None:
        return sorted(finite)
    while low - 1 in finite:
        low -= 1
    rest = sorted(f for f in finite if f < low)
    if low <= 1:
        return "all"
    return {"min": low, "and": rest} if rest else {"min": low}


@dataclass(frozen=True)
class FoundRelation:
    r"""One relation :math:`\sum_\alpha c_\alpha\,\partial^\alpha H = 0`, verified exactly.

    Parameters
    ----------
    relation : Relation
        The relation in the dimension it was found in (multi-indices and coefficients).
    d : int
        That dimension.
    scope : dict
        Where it holds: ``{"d": "all"}``, ``{"d": {"min": 2}}`` (every :math:`d \ge 2`) or
        ``{"d": [1, 2]}``.
    lift : dict
        The :func:`~moetheory.symbolic.interactions.lift` behind the scope (empty when none).

    Attributes
    ----------
    order : int
    generator : bool
        ``False`` for a derivative of lower-order relations completing the basis.
    coefficients : dict
        The coefficient of each multi-index (tuple of parameter symbols, ``()`` for :math:`H`).
    latex : str
        The relation typeset (SymPy's LaTeX of every coefficient).
    text : str
        Plain text.

    Notes
    -----
    Coefficients are polynomials in the parameters (``r_beta`` is :math:`\|\beta_1\|`)
    with their denominators cleared; the relation holds for parameters outside a null set.

    See Also
    --------
    find_relations : finds them.

    Examples
    --------
    >>> import sympy as sp
    >>> a = sp.Symbol("a_1", real=True)
    >>> rel = FoundRelation(Relation((((a, a), sp.Integer(1)),), 2), 1, {"d": [1]})
    >>> rel.latex, rel.coefficients
    ('\\frac{\\partial^2 H}{\\partial a_{1}^2} = 0', {(a_1, a_1): 1})
    """

    relation: Relation
    d: int
    scope: dict[str, Any]
    lift: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def order(self) -> int:
        """The largest :math:`|\\alpha|` with a non-zero coefficient."""
        return self.relation.order

    @property
    def generator(self) -> bool:
        """Whether it is a generator (not implied by lower-order relations)."""
        return self.relation.generator

    @property
    def coefficients(self) -> dict[tuple[sp.Symbol, ...], sp.Expr]:
        """The coefficient of each multi-index (``r_beta`` stands for :math:`\\|\\beta_1\\|`)."""
        return dict(self.relation.terms)

    @property
    def latex(self) -> str:
        """The relation in LaTeX."""
        return self.relation.latex()

    @property
    def text(self) -> str:
        """The relation in plain text."""
        return self.relation.text

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (coefficients as SymPy text and LaTeX)."""
        names = {_R_BETA: r"\Vert\beta_1\Vert"}
        coeffs = []
        for alpha, c in self.relation.terms:
            names.update({s: symbol_latex(s) for s in c.free_symbols if s != _R_BETA})
            coeffs.append({"derivative": [str(p) for p in alpha],
                           "coefficient": sp.sstr(c),
                           "coefficient_latex": sp.latex(c, symbol_names=names)})
        return {"text": self.text, "latex": self.latex, "order": self.order,
                "generator": self.generator, "d": self.d, "scope": dict(self.scope),
                "coefficients": coeffs}


@dataclass(frozen=True)
class RegimeSearch:
    """The search in one parameter regime: only the cells of :math:`x`-space non-empty there.

    Parameters
    ----------
    where : str
        The regime (the cells empty there) and a parameter point of it.
    n_relations : int
        Dimension of the space of relations in that regime.
    relations : tuple of FoundRelation
        Its generators, verified exactly on the regime's cells, when the regime has more
        relations than every cell together (empty otherwise).
    point : dict
        A parameter point of the regime (where it was seen).

    Notes
    -----
    A regime is the set of cells of :math:`x`-space that are non-empty at a parameter point
    (Laplace gating with a ReLU expert in :math:`d = 1`: whether the active half-line lies
    on one side of :math:`\\beta_1`). The relations of every cell together hold in every
    regime; a regime with fewer cells may have more.

    See Also
    --------
    DimensionSearch : holds the regimes of one dimension.

    Examples
    --------
    >>> RegimeSearch("where piece 2 is empty", 1).to_dict()["n_relations"]
    1
    """

    where: str
    n_relations: int
    relations: tuple[FoundRelation, ...] = ()
    point: dict[sp.Symbol, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"where": self.where, "n_relations": self.n_relations,
                "point": {str(k): sp.sstr(v) for k, v in self.point.items()},
                "relations": [r.to_dict() for r in self.relations]}


@dataclass(frozen=True)
class DimensionSearch:
    """The search in one input dimension.

    Parameters
    ----------
    d : int
        The dimension.
    status : {"complete", "incomplete", "timeout", "failed"}
        ``complete``: every relation up to the order is in ``relations`` (exact search,
        assumptions checked); ``incomplete``: the relations listed hold but others may
        exist (``reasons``); ``timeout``/``failed``: no result.
    n_relations : int or None
        Dimension of the space of relations found (generators plus independent
        derivatives of lower-order relations).
    n_generators : int or None
        Generators among them.
    relations : tuple of FoundRelation
        A basis of the relations found, generators first.
    reasons : tuple of str
        Why the search is not complete (one sentence each).
    notes : tuple of str
        Remarks that do not affect the verdict (e.g. a lift cut short by the time limit).
    assumptions : tuple of str
        The genericity assumptions of the search.
    seconds : float
        Wall-clock seconds spent.
    interaction : InteractionResult or None
        The raw search result.
    regimes : tuple of RegimeSearch
        Empty when every cell of :math:`x`-space the search imposes (a smooth piece of the
        expert; in :math:`d = 1` a side of the kink of :math:`|x - c|`) was non-empty at
        every parameter point sampled. Otherwise the search repeated in each parameter
        regime seen (only that regime's cells imposed): ``relations`` then hold for every
        parameter, and each regime may have more.

    Notes
    -----
    ``n_relations`` is the dimension of the null space of the exact values at rational
    points, which the verified basis spans.

    See Also
    --------
    RelationsResult : holds one per dimension.

    Examples
    --------
    >>> DimensionSearch(2, "timeout").complete
    False
    """

    d: int
    status: str
    n_relations: int | None = None
    n_generators: int | None = None
    relations: tuple[FoundRelation, ...] = ()
    reasons: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    assumptions: tuple[str, ...] = ()
    seconds: float = 0.0
    interaction: InteractionResult | None = field(default=None, repr=False, compare=False)
    regimes: tuple[RegimeSearch, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether the search was exhaustive and exact in this dimension (in each parameter
        regime sampled when there are ``regimes``)."""
        return self.status == "complete"

    @property
    def decided(self) -> bool:
        """Whether the search ended with relations (complete or not)."""
        return self.status in ("complete", "incomplete")

    @property
    def n_derivatives(self) -> int | None:
        """Independent derivatives of lower-order relations in the basis."""
        if self.n_relations is None or self.n_generators is None:
            return None
        return self.n_relations - self.n_generators

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"d": self.d, "status": self.status, "n_relations": self.n_relations,
                "n_generators": self.n_generators, "n_derivatives": self.n_derivatives,
                "reasons": list(self.reasons), "notes": list(self.notes),
                "assumptions": list(self.assumptions), "seconds": round(self.seconds, 3),
                "regimes": [r.to_dict() for r in self.regimes],
                "relations": [r.to_dict() for r in self.relations]}


@dataclass(frozen=True)
class RelationsResult:
    r"""What :func:`find_relations` returns: the relations, the verdict and its scope.

    Parameters
    ----------
    verdict : Verdict
        ``proved`` when relations were found (each verified exactly) or when "no relation of
        order :math:`\le k`" was shown by an exhaustive, exact search in every dimension of
        ``scope``; ``inconclusive`` otherwise, with ``reason``.
    statement : dict
        What the verdict is about: ``{"kind": "relations", "order": k}`` or
        ``{"kind": "no-relation", "order": k}``.
    reason : str
        One sentence: the certificate, or why the question is not decided.
    scope : dict
        ``{"d": ...}``: where the statement holds — the union of the relations' scopes
        when there are relations, the dimensions searched exhaustively otherwise (``"all"``,
        ``{"min": m}`` for every :math:`d \ge m`, or a list).
    order : int
        The largest derivative order searched.
    relations : tuple of FoundRelation
        A basis of the relations (generators first), each with its own scope.
    dimensions : dict
        The :class:`DimensionSearch` of each dimension.
    router, expert : str
        Names.
    h_latex : str
        :math:`H = G\,h` in LaTeX.
    seconds : float
        Wall-clock seconds.
    parameters : tuple of sympy.Symbol
        The parameters differentiated (in the discovery dimension).
    fixed : tuple of sympy.Symbol
        The other symbols of :math:`H` (besides :math:`x`): held fixed, never differentiated
        (``params=`` of :func:`find_relations` differentiates them).

    Attributes
    ----------
    generators : tuple of FoundRelation
        The independent relations that are not derivatives of lower-order ones.
    complete : bool
        Whether every dimension searched was searched exhaustively.
    summary : str
        One line.

    Notes
    -----
    Never a scope beyond what was decided: a relation of one's own router holds in the
    dimension where it was verified; "no relation" in the dimensions searched exhaustively.

    See Also
    --------
    find_relations : builds it.

    Examples
    --------
    >>> import sympy as sp
    >>> res = find_relations("linear", "tanh", order=1, d=1)
    >>> res.verdict.value, res.statement, res.scope
    ('proved', {'kind': 'no-relation', 'order': 1}, {'d': [1]})
    """

    verdict: Verdict
    statement: dict[str, Any]
    reason: str
    scope: dict[str, Any]
    order: int
    relations: tuple[FoundRelation, ...]
    dimensions: dict[int, DimensionSearch]
    router: str
    expert: str
    h_latex: str = ""
    seconds: float = 0.0
    parameters: tuple[sp.Symbol, ...] = ()
    fixed: tuple[sp.Symbol, ...] = ()

    @property
    def generators(self) -> tuple[FoundRelation, ...]:
        """The generators (independent, not derivatives of lower-order relations)."""
        return tuple(r for r in self.relations if r.generator)

    @property
    def complete(self) -> bool:
        """Whether every dimension searched was searched exhaustively."""
        return all(s.complete for s in self.dimensions.values())

    @property
    def interaction(self) -> InteractionResult | None:
        """The raw search result of the discovery dimension (largest searched)."""
        decided = [s for s in self.dimensions.values() if s.interaction is not None]
        return max(decided, key=lambda s: s.d).interaction if decided else None

    @property
    def summary(self) -> str:
        """One line a reader can act on."""
        return _summary(self, latex=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: verdict, statement, scope, relations, dimensions.

        Returns
        -------
        dict
            Plain strings, numbers, lists and dicts only.
        """
        return {
            "verdict": self.verdict.value,
            "statement": dict(self.statement),
            "summary": self.summary,
            "reason": self.reason,
            "scope": dict(self.scope),
            "order": self.order,
            "complete": self.complete,
            "router": self.router,
            "expert": self.expert,
            "parameters": [str(p) for p in self.parameters],
            "fixed": [str(p) for p in self.fixed],
            "h_latex": self.h_latex,
            "relations": [r.to_dict() for r in self.relations],
            "generators": len(self.generators),
            "dimensions": {str(d): s.to_dict() for d, s in sorted(self.dimensions.items())},
            "seconds": round(self.seconds, 3),
        }

    def to_outcome(self) -> Outcome:
        """The same :class:`~moetheory.engine.verdicts.Outcome` a catalogue check returns.

        Returns
        -------
        Outcome
            Verdict, one-line summary, :meth:`to_dict` as evidence, the markdown as
            derivation.
        """
        return Outcome(self.verdict, self.summary, self.to_dict(),
                       derivation=self._repr_markdown_(),
                       summary_latex=_summary(self, latex=True))

    def _repr_markdown_(self) -> str:
        k = self.order
        lines = [f"**{self.verdict.value}**: {_summary(self, latex=True)}", ""]
        if self.h_latex:
            lines += [f"${self.h_latex}$ (router `{self.router}`, expert `{self.expert}`).", ""]
        lines += [_parameters_text(self, latex=True), ""]
        if self.relations:
            lines += ["| relation | order | generator | holds in |", "|---|---|---|---|"]
            lines += [f"| ${r.latex}$ | {r.order} | {'yes' if r.generator else 'no'} | "
                      f"{_scope_latex(r.scope['d'])} |" for r in self.relations]
            lines.append("")
        for d, s in sorted(self.dimensions.items()):
            if s.decided:
                what = (f"{s.n_relations} independent relation(s) of order $\\le {k}$, "
                        f"{s.n_generators} generator(s)") if s.n_relations else \
                    f"no relation of order $\\le {k}$"
                how = "exhaustive" if s.complete else "not exhaustive: " + "; ".join(s.reasons)
                lines.append(f"- $d = {d}$: {what} ({how}).")
            else:
                lines.append(f"- $d = {d}$: {s.status} ({'; '.join(s.reasons)}).")
        lines += ["", f"Reason: {self.reason}"]
        return "\n".join(lines)


def _parameters_text(res: RelationsResult, latex: bool) -> str:
    """"differentiated: ...; held fixed: ..." (the symbols of H besides x)."""
    def names(symbols: Sequence[sp.Symbol]) -> str:
        if not symbols:
            return "none"
        if latex:
            return ", ".join(f"${symbol_latex(p)}$" for p in symbols)
        return ", ".join(map(str, symbols))

    return f"differentiated: {names(res.parameters)}; held fixed: {names(res.fixed)}"


def _summary(res: RelationsResult, latex: bool) -> str:
    """The one-line summary, in plain text or with LaTeX maths: exactly what was proved."""
    k = res.order
    if latex:
        where = _scope_latex(res.scope["d"])
        order, derivatives = f"$\\le {k}$", "the $\\partial^\\alpha H$"
    else:
        where = _scope_text(res.scope["d"])
        order, derivatives = f"<= {k}", "the derivatives of H"
    params = f" ({_parameters_text(res, latex)})"
    if res.scope.get("regimes"):
        n = len(res.scope["regimes"])
        params = (f"; decided per parameter regime (a relation found in one regime holds "
                  f"there), in the {n} regime(s) seen at the parameter points sampled, others "
                  f"not decided{params}")
    searched = sorted(d for d, s in res.dimensions.items() if s.complete)
    searched_text = (_scope_latex(searched) if latex else _scope_text(searched))
    if res.statement["kind"] == "relations":
        n = len(res.relations)
        these = f"{'these' if n != 1 else 'this'} {n} linear relation{'s' if n != 1 else ''}"
        if res.verdict is not Verdict.PROVED:
            return f"{these} of order {order} found, not proved: {res.reason}{params}"
        hold, span = ("hold", "span") if n != 1 else ("holds", "spans")
        where = where if n == 1 else f"{where} (each where stated)"
        if res.statement.get("complete"):
            return (f"{these} of order {order} among {derivatives} {hold} in {where} and "
                    f"{span} every linear relation of order {order} in {searched_text}{params}")
        return (f"{these} of order {order} among {derivatives} {hold} in {where}; "
                f"completeness not decided (other relations may exist){params}")
    if res.verdict is Verdict.PROVED:
        return f"no linear relation of order {order} among {derivatives} ({where}){params}"
    return f"no relation of order {order} found, not proved: {res.reason}{params}"


# --------------------------------------------------------------------------------------------
# inputs
# --------------------------------------------------------------------------------------------
def _one_line(text: str) -> str:
    return " ".join(text.split())


def _scalar(value: Any, what: str) -> sp.Expr:
    if isinstance(value, sp.MatrixBase):
        if value.shape != (1, 1):
            raise ValueError(f"{what} must return a scalar SymPy expression, got a "
                             f"{value.shape[0]}x{value.shape[1]} matrix")
        value = value[0, 0]
    try:
        value = sp.sympify(value)
    except (sp.SympifyError, TypeError) as exc:
        raise ValueError(f"{what} must return a scalar SymPy expression, got "
                         f"{type(value).__name__}") from exc
    if not isinstance(value, sp.Expr):
        raise ValueError(f"{what} must return a scalar SymPy expression, got "
                         f"{type(value).__name__}")
    return value


def _call(fn: Callable[..., Any], args: tuple[Any, ...], what: str, d: int) -> sp.Expr:
    try:
        out = fn(*args)
    except (UnsupportedExpression, SearchTimeout):
        raise
    except Exception as exc:
        raise ValueError(_one_line(f"{what} failed in d = {d}: {type(exc).__name__}: {exc}")
                         ) from exc
    return _scalar(out, what)


_Spec = TypeVar("_Spec", RouterSpec, ExpertSpec)


def _ready_made(value: Any, kind: type[_Spec], table: Mapping[str, _Spec], role: str,
                wanted: str) -> _Spec | None:
    """``value`` when it is a spec, the spec ``table`` names by it, None for a callable;
    otherwise a one-line error (``role`` names the argument, ``wanted`` what it may be)."""
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        if value not in table:
            raise ValueError(f"{role} must be one of {sorted(table)}, got {value!r}")
        return table[value]
    if not callable(value):
        raise TypeError(f"{wanted}, got {type(value).__name__}")
    return None


def _callable_name(fn: Callable[..., Any], default: str) -> str:
    """The name of the user's function, ``default`` for a lambda or a nameless callable."""
    name = getattr(fn, "__name__", default)
    return default if name == "<lambda>" else name


def _used(expr: sp.Expr, params: Sequence[sp.Symbol], rule: str) -> tuple[sp.Symbol, ...]:
    """The parameters ``expr`` depends on; none breaks ``rule`` (a one-line error)."""
    used = tuple(c for c in params if c in expr.free_symbols)
    if not used:
        raise ValueError(_one_line(f"{rule}, got {sp.sstr(expr)}"))
    return used


def _as_router(score: Any, gate: str) -> RouterSpec:
    spec = _ready_made(score, RouterSpec, ROUTERS, "router",
                       "score must be a callable score(beta1, x) of two SymPy column "
                       "vectors, a RouterSpec or a name of ROUTERS")
    if spec is not None:
        return spec

    def build(xs: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        beta = coordinates(len(xs), "beta1")
        s = _call(score, (sp.Matrix(beta), sp.Matrix(xs)), "score(beta1, x)", len(xs))
        used = _used(s, beta, "score(beta1, x) must depend on beta1 (the router's parameters)")
        return (sp.exp(s) if gate == "softmax" else sigmoid(s)), used

    return RouterSpec(_callable_name(score, "score"), build, "", invariant=False)


def _eta_count(eta_size: Any, d: int) -> int:
    if eta_size == "d":
        return d
    if eta_size == "d+1":
        return d + 1
    return int(eta_size)


def _check_eta_size(eta_size: Any) -> None:
    ok = eta_size in ("d", "d+1") or (isinstance(eta_size, int)
                                      and not isinstance(eta_size, bool) and 1 <= eta_size <= 64)
    if not ok:
        raise ValueError(f"eta_size must be an integer in [1, 64], 'd' or 'd+1', got "
                         f"{eta_size!r}")


def _as_expert(expert: Any, x: Sequence[sp.Symbol] | None, params: tuple[sp.Symbol, ...],
               eta_size: Any) -> tuple[ExpertSpec, tuple[sp.Symbol, ...]]:
    """The expert's spec and the symbols of ``params`` left to add (not the expert's own
    parameters of an expression)."""
    if isinstance(expert, sp.Basic):
        if x is None or not params:
            raise ValueError("an expert given as a SymPy expression needs x= (its input "
                             "symbols, which fix d) and params= (its parameters)")
        own = [p for p in params if p in expert.free_symbols]
        try:
            return custom_expert(expert, x, own), tuple(p for p in params if p not in own)
        except ValueError as exc:
            raise ValueError(_one_line(str(exc))) from exc
    if x is not None:
        raise ValueError("x= is for an expert given as a SymPy expression")
    spec = _ready_made(expert, ExpertSpec, EXPERTS, "expert",
                       "expert must be a callable expert(x, eta), a SymPy expression with "
                       "x= and params=, an ExpertSpec or a name of EXPERTS")
    if spec is not None:
        return spec, params

    def build(xs: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        eta = coordinates(_eta_count(eta_size, len(xs)), "eta")
        h = _call(expert, (sp.Matrix(xs), sp.Matrix(eta)), "expert(x, eta)", len(xs))
        return h, _used(h, eta, "expert(x, eta) must depend on eta (the expert's parameters)")

    return ExpertSpec(_callable_name(expert, "expert"), build, "", invariant=False), params


def _check_order(order: Any) -> None:
    if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= MAX_ORDER:
        raise ValueError(f"order must be an integer in [1, {MAX_ORDER}], got {order!r}")


def _dims(d: Any, router: RouterSpec, expert: ExpertSpec) -> tuple[list[int], bool]:
    """The dimensions to search (discovery = the largest) and whether a dimension covered
    by a relation's scope may be skipped (``d=None``)."""
    fixed = sorted({k for spec in (router, expert) if spec.dims for k in spec.dims})
    msg = f"d must be an integer in [1, {MAX_D}], a non-empty sequence of such, or None"

    def valid(k: Any) -> bool:
        return isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= MAX_D

    if d is None:
        dims, skip = (fixed, False) if fixed else ([1, 2], True)
    elif valid(d):
        dims, skip = [d], False
    elif isinstance(d, (list, tuple)) and d and all(valid(k) for k in d):
        dims, skip = sorted(set(d)), False
    else:
        raise ValueError(f"{msg}, got {d!r}")
    if len(fixed) > 1:
        raise ValueError(f"the router and the expert are defined in different dimensions "
                         f"{fixed}")
    for spec, what in ((router, "router"), (expert, "expert")):
        allowed = spec.dims
        bad = [k for k in dims if allowed and k not in allowed]
        if allowed and bad:
            raise ValueError(f"d must be {allowed[0]} for the {what} {spec.name!r} (defined "
                             f"in that dimension only), got {bad[0]}")
    return dims, skip


# --------------------------------------------------------------------------------------------
# the search
# --------------------------------------------------------------------------------------------
#: The lift of a relation of one's own router or expert: none (any dimension is possible).
_NO_LIFT: dict[str, Any] = {"form": None, "verified": {}, "all_d": False,
            "reason": "a router or expert of one's own: stated for the dimension searched"}


def _lift_scope(lf: dict[str, Any], d: int) -> Scope:
    """Where a relation found in ``d`` holds, from its lift: every dimension from ``min_d``
    on when the lifted form is exact in every dimension checked, 3 and 4 included (with
    ``d`` itself, where it was found); otherwise the dimensions where it was verified."""
    if lf.get("form") is None:
        return [d]
    verified = {**lf.get("verified", {}), d: True}
    if all(verified.values()) and {3, 4} <= set(verified):
        low = int(lf.get("min_d", 1))
        return "all" if low <= 1 else {"min": low}
    return sorted(k for k, ok in verified.items() if ok)


def _indices(rel: Relation, params: Sequence[sp.Symbol]) -> set[int]:
    """The vector indices a relation uses (``beta1_2`` → 2), in its derivatives and
    coefficients."""
    out = set()
    for alpha, c in rel.terms:
        for q in (*alpha, *(s for s in c.free_symbols if s in params)):
            head, _, i = str(q).rpartition("_")
            if head and i.isdigit():
                out.add(int(i))
    return out or {1}


def _family_key(rel: Relation) -> str:
    """The same key for relations that differ by exchanging the indices 1 and 2."""
    text = rel.text
    swapped = text.replace("_1", "_#").replace("_2", "_1").replace("_#", "_2")
    return min(text, swapped)


def _search_dimension(router: RouterSpec, expert: ExpertSpec, order: int, d: int,
                      lift_ok: bool) -> DimensionSearch:
    start = time.monotonic()
    try:
        res, setup = _search(router, expert, order, d)
        _, reasons, regimes = completeness(setup)
        per_regime = [(where, theta, _search(router, expert, order, d, cells=cells)[0])
                      for cells, where, theta in regimes]
    except (UnsupportedExpression, SearchTimeout):
        raise
    except Exception as exc:  # an internal failure: no verdict, never a wrong one
        return DimensionSearch(d, "failed", reasons=(_one_line(
            f"the search in d = {d} failed ({type(exc).__name__}: {exc})"),),
            seconds=time.monotonic() - start)
    if not res.second_point_agrees:
        reasons.append("the null space has another dimension at a second parameter point, "
                       "so the first point may not be generic")
    found: list[FoundRelation] = []
    notes: list[str] = []
    if not regimes and (len(setup.pieces) > 1 or (d == 1 and setup.x_radical is not None)):
        notes.append(_ONE_REGIME)
    cache: dict[str, dict[str, Any]] = {}
    others = tuple(k for k in range(1, MAX_D + 1) if k != d)
    for rel in res.relations:
        lf: dict[str, Any] = {} if lift_ok else dict(_NO_LIFT)
        if lift_ok and not [n for n in notes if n != _ONE_REGIME]:
            key = _family_key(rel)
            try:
                if key not in cache:
                    cache[key] = lift(res, rel, dims=others)
                lf = cache[key]
                if lf.get("form") == "free indices":  # the relabelled one: its own indices
                    used = _indices(rel, res.params)
                    lf = {**lf, "min_d": max(used), "free_indices": sorted(used)}
            except SearchTimeout:
                notes.append("the time limit ran out while lifting the relations to other "
                             f"dimensions; the rest are stated for d = {d} only")
            except Exception as exc:  # a failed lift only narrows the scope
                notes.append(_one_line(f"the lift of {rel.text} failed ({type(exc).__name__}: "
                                       f"{exc}); it is stated for d = {d} only"))
        found.append(FoundRelation(rel, d, {"d": _lift_scope(lf, d)}, lf))
    found += [FoundRelation(rel, d, {"d": [d]}) for rel in res.implied]
    regime_searches = tuple(
        RegimeSearch(where, r.relation_space_dim, tuple(
            FoundRelation(rel, d, {"d": [d], "parameters": where}) for rel in r.relations
        ) if r.relation_space_dim != res.relation_space_dim else (), theta)
        for where, theta, r in per_regime)
    try:  # the independent check of every relation stated, in its own parameter regime
        bad = failures(router, expert, d, [(f.relation, None) for f in found if f.generator]
                       + [(f.relation, reg.point) for reg in regime_searches
                          for f in reg.relations])
    except (UnsupportedExpression, SearchTimeout):
        raise
    except Exception as exc:
        bad = [_one_line(f"the independent numerical check failed to run "
                         f"({type(exc).__name__}: {exc})")]
    if bad:
        return DimensionSearch(d, "failed", reasons=tuple(bad),
                               seconds=time.monotonic() - start)
    return DimensionSearch(d, "complete" if not reasons else "incomplete",
                           res.relation_space_dim, len(res.relations), tuple(found),
                           tuple(reasons), tuple(notes), tuple(res.assumptions),
                           time.monotonic() - start, res, regime_searches)


#: Said when the cells of x-space the search imposes were all non-empty at every parameter
#: point sampled (a regime where one is empty may still exist elsewhere).
_ONE_REGIME = ("every cell of x-space the search imposes (pieces of the expert, sides of a "
               "kink in dimension 1) was non-empty at each parameter point sampled: the statement "
               "is for that parameter regime, the only one seen")


def _h_latex(router: RouterSpec, expert: ExpertSpec, d: int) -> str:
    if router.latex and expert.latex:
        return f"H = {router.latex}\\cdot {expert.latex}"
    xs = coordinates(d)
    g, _ = router.build(xs)
    h, _ = expert.build(xs)
    names = {s: symbol_latex(s) for s in (g * h).free_symbols if isinstance(s, sp.Symbol)}
    return "H = " + sp.latex(g * h, symbol_names=names)


def find_relations(score: Any, expert: Any, *, order: int = 2, d: Any = None,
                   timeout: float | None = DEFAULT_TIMEOUT, gate: str = "softmax",
                   x: Sequence[sp.Symbol] | None = None,
                   params: Sequence[sp.Symbol] | None = None,
                   eta_size: Any = "d+1") -> RelationsResult:
    r"""Every linear relation among the :math:`\partial^\alpha H` up to order k, with a verdict.

    The verdict comes with its scope in the input dimension :math:`d`.

    Parameters
    ----------
    score : callable, str or RouterSpec
        ``score(beta1, x)``: two SymPy column vectors of real symbols in, a scalar SymPy
        expression out; or a name of :data:`~moetheory.symbolic.interactions.ROUTERS`.
    expert : callable, sympy.Expr, str or ExpertSpec
        ``expert(x, eta)`` (column vectors in, scalar out), a SymPy expression with ``x=``
        and ``params=``, or a name of :data:`~moetheory.symbolic.interactions.EXPERTS`.
    order : int
        Largest total derivative order :math:`k`, 1 to 3.
    d : int, sequence of int or None
        Input dimension(s), 1 to 4. ``None``: :math:`d = 2` (where relations with two
        indices show) and :math:`d = 1` unless the relations found already cover it; the
        dimension of an expert given as an expression.
    timeout : float or None
        Wall-clock limit in seconds for the whole call, every call of ``score`` and
        ``expert`` included (``None``: none). When it runs out the verdict is
        ``inconclusive`` with the reason.
    gate : {"softmax", "sigmoid"}
        :math:`G = e^{s}` or :math:`\sigma(s)` for a callable ``score``.
    x : sequence of sympy.Symbol, optional
        For an expert given as a SymPy expression: its input symbols.
    params : sequence of sympy.Symbol, optional
        Symbols to differentiate besides :math:`\beta_1` and ``eta``: a learnable bias or
        temperature of the score (``lambda b, x: b.dot(x) + b0`` with ``params=[b0]``), a
        variance of the expert; for an expert given as a SymPy expression, its parameters
        (and any of the score's). Every other symbol of :math:`H` is held fixed (a
        hyper-parameter); the result lists both (``.parameters``, ``.fixed``).
    eta_size : int, "d" or "d+1"
        Length of the ``eta`` vector given to a callable expert (unused entries are not
        parameters).

    Returns
    -------
    RelationsResult
        ``.relations`` (each with coefficients, LaTeX and its scope), ``.generators``,
        ``.verdict``, ``.scope``, ``.reason``, ``.dimensions``.

    Raises
    ------
    ValueError
        On a parameter out of range, a score or expert that is not a scalar SymPy
        expression of the stated form, or an unsupported function (one line, before the
        search).
    TypeError
        When ``score`` or ``expert`` is neither a callable nor one of the accepted forms.

    Notes
    -----
    The search (:func:`~moetheory.symbolic.interactions.interactions`) finds every relation
    from exact null spaces at rational points and verifies each one exactly; it is
    exhaustive when the transcendental kernels are algebraically independent and every
    smooth piece of the expert is a non-empty open set. Both are checked here (Ax's theorem
    on the kernels' exponents; the cells of :math:`x`-space at 8 parameter points, the
    search repeated per parameter regime seen); when a check fails, relations found still
    hold, but "no relation" is ``inconclusive``. The statement is for parameters outside a
    null set (where the coefficients' denominators do not vanish) in the regimes sampled.
    Every relation stated passes an independent numerical check first.

    See Also
    --------
    moetheory.symbolic.interactions.interactions : the search itself.
    moetheory.symbolic.interactions.lift : the scope of a ready-made pair's relation.
    moetheory.symbolic.atlas.atlas_cell : the atlas cell of a pair.

    Examples
    --------
    >>> import sympy as sp
    >>> tau = sp.Symbol("tau", positive=True)
    >>> res = find_relations(lambda b, x: b.dot(x) / (b.norm() * x.norm() + tau),
    ...                      lambda x, eta: sp.Function("h")(*x, eta[0]), order=1, d=1,
    ...                      eta_size=1)
    >>> res.verdict.value, res.statement["kind"], res.scope
    ('proved', 'no-relation', {'d': [1]})
    >>> res.fixed
    (tau,)
    >>> b0 = sp.Symbol("b0", real=True)
    >>> res = find_relations(lambda b, x: b.dot(x) + b0, "tanh", order=1, d=1, params=[b0])
    >>> [r.text for r in res.generators], res.parameters
    (['H - H_{b0} = 0'], (beta1_1, b0, a_1, b))
    >>> find_relations("linear", "tanh", order=4)
    Traceback (most recent call last):
    ...
    ValueError: order must be an integer in [1, 3], got 4
    """
    _check_order(order)
    timeout = check_timeout(timeout)
    if gate not in ("softmax", "sigmoid"):
        raise ValueError(f"gate must be 'softmax' or 'sigmoid', got {gate!r}")
    _check_eta_size(eta_size)
    extra = _check_params(params)
    router = _as_router(score, gate)
    espec, extra = _as_expert(expert, x, extra, eta_size)
    if extra:
        router, espec = _with_params(router, espec, extra)
    dims, skip = _dims(d, router, espec)
    return _run(router, espec, order, dims, skip, timeout, extra)


def _check_params(params: Any) -> tuple[sp.Symbol, ...]:
    """``params`` as a tuple of distinct SymPy symbols (a one-line error otherwise)."""
    if params is None:
        return ()
    msg = "params must be a sequence of distinct SymPy symbols (the parameters to differentiate)"
    if isinstance(params, (str, sp.Basic)) or not isinstance(params, Sequence):
        raise ValueError(f"{msg}, got {type(params).__name__}")
    out = tuple(params)
    if not all(isinstance(p, sp.Symbol) for p in out) or len(set(out)) != len(out):
        raise ValueError(f"{msg}, got {[str(p) for p in out]}")
    return out


def _with_params(router: RouterSpec, expert: ExpertSpec, extra: tuple[sp.Symbol, ...]
                 ) -> tuple[RouterSpec, ExpertSpec]:
    """The specs with the symbols ``extra`` differentiated too: each is a parameter of the
    router where the gate uses it, of the expert otherwise. A relation among them is stated
    for the dimension searched (no lift)."""
    def router_build(xs: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        g, own = router.build(xs)
        free = sp.sympify(g).free_symbols
        return g, (*own, *(p for p in extra if p in free and p not in own))

    def expert_build(xs: tuple[sp.Symbol, ...]) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
        _, gown = router_build(xs)
        h, own = expert.build(xs)
        free = sp.sympify(h).free_symbols
        taken = set(gown) | set(own)
        return h, (*own, *(p for p in extra if p in free and p not in taken))

    return (replace(router, build=router_build, invariant=False),
            replace(expert, build=expert_build, invariant=False))


def _precheck(router: RouterSpec, expert: ExpertSpec, d: int, extra: tuple[sp.Symbol, ...]
              ) -> tuple[tuple[sp.Symbol, ...], tuple[sp.Symbol, ...]]:
    """Build G and h once and refuse what the search cannot handle, before any search;
    returns the parameters differentiated and the symbols held fixed."""
    xs = coordinates(d)
    g, rparams = router.build(xs)
    h, eparams = expert.build(xs)
    _kernelise(sp.sympify(g))
    for piece, _cond in _pieces(sp.sympify(h)):
        _kernelise(piece)
    params = (*rparams, *eparams)
    missing = [str(p) for p in extra if p not in params]
    if missing:
        raise ValueError(f"params {missing} occur neither in the score nor in the expert")
    free = (sp.sympify(g) * sp.sympify(h)).free_symbols
    fixed = sorted((s for s in free - set(xs) - set(params) if isinstance(s, sp.Symbol)),
                   key=str)
    return params, tuple(fixed)


def _run(router: RouterSpec, espec: ExpertSpec, order: int, dims: list[int], skip: bool,
         timeout: float | None, extra: tuple[sp.Symbol, ...] = ()) -> RelationsResult:
    """The search in ``dims`` (validated), the largest first; with ``skip`` a dimension
    covered by the scope of a generator found there is not searched again. The time limit
    covers every call of the user's score and expert, the first checks included."""
    discovery = max(dims)
    lift_ok = router.invariant and espec.invariant
    start = time.monotonic()
    searches: dict[int, DimensionSearch] = {}
    skipped: list[int] = []
    plan = [discovery] + [k for k in reversed(dims) if k != discovery]
    h_latex = ""
    params: tuple[sp.Symbol, ...] = ()
    fixed: tuple[sp.Symbol, ...] = ()
    try:
        with time_limit(timeout):
            params, fixed = _precheck(router, espec, discovery, extra)
            h_latex = _h_latex(router, espec, discovery)
            for k in plan:
                first = searches.get(discovery)
                if skip and k != discovery and first is not None and any(
                        _in_scope(r.scope["d"], k) for r in first.relations if r.generator):
                    skipped.append(k)
                    continue
                try:
                    searches[k] = _search_dimension(router, espec, order, k, lift_ok)
                except SearchTimeout:
                    break
    except SearchTimeout:
        pass
    for k in plan:
        if k not in searches and k not in skipped:
            when = f"before the search in d = {k} ended" if params else \
                f"while calling the score and the expert (before the search in d = {k})"
            searches[k] = DimensionSearch(k, "timeout", reasons=(
                f"the time limit of {timeout or 0:g} s ran out {when}",))
    res = _result(router, espec, order, searches, h_latex, time.monotonic() - start)
    return replace(res, parameters=params, fixed=fixed)


def _result(router: RouterSpec, expert: ExpertSpec, order: int,
            searches: dict[int, DimensionSearch], h_latex: str, seconds: float
            ) -> RelationsResult:
    dims = dict(sorted(searches.items()))
    discovery = max(dims)
    relations = list(dims[discovery].relations)
    covered = _union([r.scope["d"] for r in relations]) if relations else []
    for k, s in dims.items():
        if k != discovery and s.relations and not _in_scope(covered, k):
            relations += s.relations
    everywhere = _union([r.scope["d"] for r in relations]) if relations else []
    relations += [r for s in dims.values() for reg in s.regimes for r in reg.relations]
    scopes = [r.scope["d"] for r in relations]
    undecided = {k: s for k, s in dims.items() if not s.complete}
    why = "; ".join(f"d = {k}: {r}" for k, s in undecided.items() for r in s.reasons)
    if relations:
        scope = _union(scopes)
        verdict = Verdict.PROVED
        statement: dict[str, Any] = {"kind": "relations", "order": order}
        reason = ("each relation is verified exactly (the combination, a rational function of "
                  "x, the kernels and the radicals, reduces to zero)")
        clash = [k for k, s in dims.items() if s.complete and not s.relations
                 and _in_scope(everywhere, k)]
        statement["complete"] = not why and not clash
        if clash:
            verdict = Verdict.INCONCLUSIVE
            reason = (f"inconsistent: a relation lifted to dimension {clash[0]} where the "
                      "search found none")
        elif why:
            reason += f"; completeness not decided, other relations may exist ({why})"
        else:
            reason += (f"; every other relation is a combination of them in "
                       f"{_dimensions_in_words(dims)} (exhaustive exact search)")
    else:
        statement = {"kind": "no-relation", "order": order}
        if not undecided:
            verdict, scope = Verdict.PROVED, sorted(dims)
            reason = (f"exhaustive exact search in {_dimensions_in_words(dims)}: the exact "
                      "null space of the values at rational points is zero, the kernels are "
                      "algebraically independent and every piece of the expert is open and "
                      "non-empty (parameters outside a null set)")
        else:
            verdict = Verdict.INCONCLUSIVE
            scope = sorted(k for k, s in dims.items() if s.complete)
            reason = f"no relation found, but the search is not exhaustive ({why})"
    if any(_ONE_REGIME in s.notes for s in dims.values() if s.complete):
        reason += f"; {_ONE_REGIME}"
    scope_out: dict[str, Any] = {"d": scope}
    regimes = [f"d = {k}: {r.where}" for k, s in dims.items() for r in s.regimes]
    if regimes:
        scope_out["regimes"] = regimes
        reason += ("; the cells of x-space the search imposes depend on the parameters: it "
                   f"was repeated in each of the {len(regimes)} regime(s) seen at the "
                   "parameter points sampled (" + "; ".join(regimes) + "), other regimes "
                   "are not decided")
    return RelationsResult(verdict, statement, _one_line(reason), scope_out, order,
                           tuple(relations), dims, router.name, expert.name, h_latex, seconds)


