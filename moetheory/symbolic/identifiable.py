r"""Strong identifiability of your own expert: one call, a verdict and its certificate.

:func:`identifiable` takes an expert :math:`h(x, \eta)` -- a SymPy expression with its input
and parameter symbols, an :class:`~moetheory.symbolic.experts.Expert`, or a Python callable
``expert(x, eta)`` receiving SymPy column vectors -- and decides strong identifiability
(Definition 1, under a reading of :data:`~moetheory.symbolic.identifiability.READINGS`) at the
scope asked:

* ``atoms="generic"`` (default): at generic rational atoms (inside the parameters' declared
  domain: a parameter declared ``positive=True`` gets positive atoms). A proof (an exact
  nonzero determinant of the evaluation matrix at rational points, or an interval enclosure
  of it that excludes 0) covers almost every atom tuple when the expert is *shown* analytic
  in its parameters on their declared domain
  (:func:`~moetheory.symbolic.identifiability.analytic_in`, decided by meaning: ``sqrt(a**2)``
  or ``acos(cos(a))`` is not), else an open set of atom tuples around the certificate's; a
  refutation is an exact linear relation among the family's functions, verified region by
  region, at the stated atoms.
* explicit atoms: at those atoms.
* ``atoms="all"``: every atom tuple at once (input dimension 1), by exact elimination over
  :math:`\mathbb Q(\text{atoms})` for polynomial families and by the singularity route for
  ``tanh``/``sigmoid`` ridge experts (every k); otherwise a dependence at generic atoms still
  refutes "every atom tuple", and anything else is ``inconclusive``.

Inputs and parameters are real variables: a symbol declared without ``real=True`` (SymPy's
default, a complex symbol) is taken as the real variable of the same name, keeping its declared
sign. An input declared positive (or negative) is decided on its half-line: "almost every :math:`x`"
means almost every :math:`x > 0`, and every sample point lies there.

Which definition: the reading (``reading=``, a name of
:data:`~moetheory.symbolic.identifiability.READINGS` or an
:class:`~moetheory.symbolic.identifiability.IdentifiabilityReading`) and the router whose
Taylor terms multiply the family (``router=``: a name or the score function of your paper's
router). The default, ``pcos-2``, is the perturbed cosine router of the nguyen2025cosine
paper; every result names its reading, the router, the parameters differentiated and the atoms
of its certificate (attributes, text, Markdown and LaTeX displays, ``to_dict``), and its
verdict line (:attr:`IdentifiabilityResult.statement`) says exactly what was decided.

Before a verdict at generic atoms is stated its certificate is rechecked by a separate exact
computation, and a proof's scope is checked at atoms drawn from it (high-precision numeric
rank); if either disagrees the verdict is ``inconclusive`` with the reason.

Input dimension ``d >= 2`` (give ``x`` as ``d`` symbols, or ``d=`` with a callable): the
family is screened on a polynomial curve and a dependence counts only as an identity on all
of :math:`\mathbb R^d`. The catalogue's identifiability claims (``pcr.ident.*``) call this
function.

Examples
--------
>>> import sympy as sp
>>> a, b, x = sp.symbols("a b x", real=True)
>>> res = identifiable(sp.log(1 + sp.exp(a * x + b)), x=x, params=[a, b], others=False)
>>> res.verdict.value, res.scope["atoms"]
('proved', 'almost every atom tuple')
>>> lin = identifiable(a * x + b, x=x, params=[a, b], others=False)
>>> lin.verdict.value, lin.certificate["kind"]
('refuted', 'dependence')
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath
import sympy as sp

from moetheory.engine.mathtext import sympy_text_to_latex
from moetheory.engine.verdicts import Outcome, Reading, Verdict, jsonable
from moetheory.symbolic._time_limit import TimeLimitExceeded, time_limit
from moetheory.symbolic.experts import Expert
from moetheory.symbolic.identifiability import (
    PRIMARY_READING,
    READINGS,
    ROUTER_NAMES,
    AllAtomsDecision,
    IdentifiabilityDecision,
    IdentifiabilityReading,
    ScoreRouter,
    _reading,
    atom_violation,
    decide,
    decide_all_atoms,
    expert_family,
)
from moetheory.symbolic.identifiability._latex import _interval_latex
from moetheory.symbolic.linear_independence import (
    decide_linear_independence,
    declared_interval,
    numeric_rank_deficiency,
    verify_certificate,
)

__all__ = ["ATOM_SCOPES", "METHODS", "PICK_READING", "IdentifiabilityResult", "identifiable"]

#: The named atom scopes (explicit atoms are the third kind).
ATOM_SCOPES: tuple[str, ...] = ("generic", "all")
#: The routes: ``auto`` picks; ``sampling`` decides at explicit (generic) atoms;
#: ``elimination`` and ``singularity`` decide every atom tuple (:math:`d = 1`).
METHODS: tuple[str, ...] = ("auto", "sampling", "elimination", "singularity")
#: Largest input dimension and number of atoms accepted (the family grows fast).
MAX_D = 8
MAX_K = 16
#: Default wall-clock budget of :func:`identifiable`, in seconds.
DEFAULT_TIMEOUT = 60.0

#: Functions the engine cannot decide soundly (infinitely many jumps, unevaluated objects).
_REFUSED = (sp.floor, sp.ceiling, sp.frac, sp.Mod, sp.DiracDelta, sp.Derivative,
            sp.Integral, sp.Subs)


@dataclass(frozen=True)
class IdentifiabilityResult:
    r"""Strong identifiability of an expert at a stated scope, with its certificate.

    Parameters
    ----------
    verdict : Verdict
        ``PROVED``: strongly identifiable at :attr:`scope`; ``REFUTED``: a dependence (the
        relation is in :attr:`certificate`); ``INCONCLUSIVE``: not decided, see
        :attr:`reason`.
    scope : dict
        What the verdict covers: ``reading``, ``d``, ``k``, ``atoms``, ``orders``,
        ``semantics``, ``route`` (and ``at``, the atoms, when decided at explicit atoms).
    reason : str
        One sentence: why this verdict.
    certificate : dict
        JSON-able. ``kind`` is ``"independence"`` (points, exact determinant or its interval
        enclosure), ``"dependence"`` (``relation``, ``relation_latex``, coefficients, the
        functions and the regions on which the relation was verified),
        ``"all-atoms elimination"``, ``"singularity route"`` or ``"none"``.
    reading : IdentifiabilityReading
        The reading decided.
    expert : sympy.Expr
        :math:`h(x, \eta)`.
    inputs : tuple of sympy.Symbol
        The input coordinates (``d`` of them).
    params : tuple of sympy.Symbol
        The parameters :math:`\eta`.
    readings : tuple of IdentifiabilityResult
        The other readings decided beside this one (empty unless asked).
    rechecked : bool or None
        Whether the certificate passed an independent recheck
        (:func:`~moetheory.symbolic.linear_independence.verify_certificate`) and, for a
        proof, the check of its scope at atoms drawn from it; ``None`` when not rechecked.
    decision : object
        The underlying decision (:class:`~moetheory.symbolic.identifiability.
        IdentifiabilityDecision`, :class:`~moetheory.symbolic.identifiability.AllAtomsDecision`
        or :class:`~moetheory.symbolic.pole_route.RidgeAllAtomsDecision`), or ``None``.
    statement : str
        Exactly what the verdict states (the verdict line): e.g. "independent ... for almost
        every atom tuple: certificate at ...", "... for every atom tuple in an open set
        around ...", "dependent at ...", or for every atom tuple "... outside the exceptional
        set (...)".
    statement_latex : str
        :attr:`statement` as MyST (maths in ``$...$``) when the decision wrote it (every
        atom tuple); empty otherwise, when the display builds it from the certificate.
    scope_latex : dict
        ``k`` and ``atoms`` of :attr:`scope` as MyST when the decision wrote them (every atom
        tuple: every :math:`k \ge 1`, the exceptional set); empty otherwise.

    Notes
    -----
    ``verdict`` never claims more than ``scope``: an independence certificate at explicit
    atoms is not a proof for every atom tuple.

    See Also
    --------
    identifiable : builds it.

    Examples
    --------
    >>> a, b, x = sp.symbols("a b x", real=True)
    >>> r = identifiable(sp.tanh(a * x + b), x=x, params=[a, b], reading="pcos-1", others=False)
    >>> r.to_outcome().verdict.value, sorted(r.to_dict())[:3]
    ('proved', ['atoms', 'certificate', 'expert'])
    >>> print(r.statement)  # doctest: +NORMALIZE_WHITESPACE
    the pcos-1 family is linearly independent (a.e. x) for almost every atom tuple:
    certificate at eta_1 = (a = 3/2, b = -2/3); eta_2 = (a = 5/4, b = 4/7)
    """

    verdict: Verdict
    scope: dict[str, Any]
    reason: str
    certificate: dict[str, Any]
    reading: IdentifiabilityReading
    expert: sp.Expr
    inputs: tuple[sp.Symbol, ...]
    params: tuple[sp.Symbol, ...]
    readings: tuple[IdentifiabilityResult, ...] = ()
    rechecked: bool | None = None
    decision: Any = field(default=None, compare=False, repr=False)
    statement: str = ""
    statement_latex: str = ""
    scope_latex: dict[str, str] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        """One line: verdict, exactly what it states, the reading, and why."""
        why = "" if self.reason == self.statement else f": {self.reason}"
        return f"{self.verdict.value}: {self.statement} [{_scope_text(self.scope)}]{why}"

    @property
    def atoms(self) -> list[dict[str, str]]:
        """The atoms the certificate uses (a value by parameter name; empty when none or when
        every atom tuple was decided symbolically)."""
        return list(self.certificate.get("atoms", []))

    def _reading_line(self) -> str:
        router = self.reading.router_name
        return (f"reading {self.reading.name} (router factor: {router}; orders "
                f"{self.reading.min_order}..{self.reading.max_order}, k = {self.reading.atoms}, "
                f"{self.reading.semantics} semantics). {PICK_READING}")

    def __str__(self) -> str:
        """Plain-text display: the verdict line, reading, parameters, atoms, why."""
        lines = [f"{self.verdict.value}: {self.statement}",
                 f"expert: h({', '.join(map(str, self.inputs))}; "
                 f"{', '.join(map(str, self.params))}) = {sp.sstr(self.expert)}",
                 f"parameters differentiated: {', '.join(map(str, self.params))}",
                 self._reading_line(),
                 f"atoms of the certificate: {_atoms_text(self.atoms)}",
                 f"scope: {_scope_text(self.scope)}",
                 f"why: {self.reason}"]
        if self.rechecked is not None:
            lines.append(f"independent recheck: {'passed' if self.rechecked else 'FAILED'}")
        return "\n".join(lines)

    def _repr_latex_(self) -> str:
        """LaTeX display (a ``$$`` block: text in ``\\text``, formulas typeset)."""
        def text(t: str) -> str:
            return r"\text{" + _latex_text(t) + "}"

        eta = ", ".join(sp.latex(p) for p in self.params)
        xs = ", ".join(sp.latex(v) for v in self.inputs)
        atoms = r",\ ".join(_atom_tuples_latex(self.atoms)) or text("none")
        rows = [
            r"\textbf{" + self.verdict.value + "}: " + _markdown_latex(self._statement_markdown()),
            rf"h({xs}; {eta}) = {sp.latex(self.expert)}",
            text("parameters differentiated: ") + eta,
            text(self._reading_line()),
            text("atoms of the certificate: ") + atoms,
            _markdown_latex("why: " + self._reason_markdown()),
        ]
        if self.certificate.get("kind") == "dependence":
            rows.append(rf"{self.certificate['relation_latex']} = 0")
        return "$$\\begin{array}{l}" + r" \\ ".join(rows) + r"\end{array}$$"

    def to_reading(self) -> Reading:
        """This result as one :class:`~moetheory.engine.verdicts.Reading` of a claim."""
        derivation = self.decision.derivation() if hasattr(self.decision, "derivation") else ""
        return Reading(
            self.reading.name, self.reading.statement(), self.verdict, self.summary,
            evidence={"scope": self.scope, "certificate": self.certificate,
                      "rechecked": self.rechecked},
            derivation=derivation, reading_latex=self.reading.reading_latex())

    def to_outcome(self) -> Outcome:
        """The :class:`~moetheory.engine.verdicts.Outcome` a catalogue check returns.

        Returns
        -------
        Outcome
            Verdict of this (primary) reading; the other readings attached after it.
        """
        out = Outcome.from_readings(
            [self.to_reading(), *(r.to_reading() for r in self.readings)],
            summary=f"{self.reading.name}: {self.summary}",
            scope=self.scope, certificate=self.certificate,
            expert=_formula(self.expert), rechecked=self.rechecked,
            verdict_by_reading={r.reading.name: r.verdict.value
                                for r in (self, *self.readings)})
        out.derivation = self._repr_markdown_()
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: verdict, scope, reason, certificate, the other readings."""
        return jsonable({
            "verdict": self.verdict.value,
            "scope": self.scope,
            "reason": self.reason,
            "summary": self.summary,
            "statement": self.statement,
            "reading": {"name": self.reading.name, "statement": self.reading.statement(),
                        "router": self.reading.router_name, "how_to_choose": PICK_READING},
            "expert": _formula(self.expert),
            "inputs": [sp.sstr(v) for v in self.inputs],
            "params": [sp.sstr(p) for p in self.params],
            "params_differentiated": [sp.sstr(p) for p in self.params],
            "atoms": self.atoms,
            "certificate": self.certificate,
            "rechecked": self.rechecked,
            "readings": [r.to_dict() for r in self.readings],
        })

    def _statement_markdown(self) -> str:
        """:attr:`statement` with its formulas (atoms, domain, exceptional set) typeset."""
        if self.statement_latex:  # an every-atom-tuple route's own verdict line
            return self.statement_latex
        domain = [v for v in (*self.inputs, *self.params) if v.is_nonnegative or v.is_nonpositive]
        where = "; ".join(rf"${sp.latex(v)} \in \left({sp.latex(lo)}, {sp.latex(hi)}\right)$"
                          for v in domain for lo, hi in [declared_interval(v)])
        return _statement(self.verdict, self.scope, self.certificate, self.reading,
                          at=_atoms_markdown(self.atoms), where=where)

    def _reason_markdown(self) -> str:
        """:attr:`reason` with its formulas typeset (a dependence's relation is displayed
        below it, so the reason names it)."""
        reason = self.reason
        if self.statement_latex and reason == self.statement:
            return self.statement_latex
        relation = self.certificate.get("relation")
        if self.certificate.get("kind") == "dependence" and relation:
            reason = reason.replace(f"{relation} = 0", "the relation displayed below")
        if self.atoms:
            reason = reason.replace(_atoms_text(self.atoms), _atoms_markdown(self.atoms))
        return sympy_text_to_latex(reason) or reason

    def _repr_markdown_(self) -> str:
        eta = ", ".join(sp.latex(p) for p in self.params)
        xs = ", ".join(sp.latex(v) for v in self.inputs)
        lines = [
            f"**{self.verdict.value}**: {self._statement_markdown()} "
            f"({_scope_markdown(self.scope, self.scope_latex)}).",
            "",
            rf"Expert $h({xs}; {eta}) = {sp.latex(self.expert)}$; parameters "
            rf"differentiated: ${eta}$.",
            "",
            f"Reading: {self.reading.reading_latex()} {PICK_READING}",
            "",
            f"Atoms of the certificate: {_atoms_markdown(self.atoms)}.",
            "",
            f"Why: {self._reason_markdown().rstrip('.')}.",
        ]
        cert = self.certificate
        if cert.get("kind") == "dependence":
            lines += ["", "Relation (exact, shown to vanish on every region):", "",
                      f"$${cert['relation_latex']} = 0$$"]
        elif cert.get("kind") == "independence":
            pts = ", ".join(cert.get("points_latex", []))
            det = (f"$\\det M = {cert['determinant_latex']}$" if "determinant_latex" in cert
                   else rf"$\det M \in {_interval_latex(cert.get('determinant_interval', []))}$")
            lines += ["", f"Certificate: the matrix $M_{{ri}} = f_i(x_r)$ of the "
                          f"{cert.get('n_functions', '')} family functions at the rational "
                          f"points ${pts}$ has {det}, so it is nonsingular."]
        if self.rechecked is not None:
            lines += ["", f"Independent recheck of the certificate: "
                          f"{'passed' if self.rechecked else 'FAILED'}."]
        if self.readings:
            lines += ["", "| reading | verdict | scope |", "|---|---|---|"]
            lines += [f"| `{r.reading.name}` | {r.verdict.value} | "
                      f"{_scope_markdown(r.scope, r.scope_latex)} |" for r in self.readings]
        return "\n".join(lines)


def _short(value: Any) -> str:
    """``value`` for a one-line message: whitespace collapsed, at most 80 characters."""
    text = " ".join(repr(value).split())
    return text if len(text) <= 80 else text[:77] + "..."


def _formula(e: sp.Expr) -> dict[str, str]:
    return {"text": sp.sstr(e), "latex": sp.latex(e)}


#: How a reader picks the definition of their own paper (shown with every verdict).
PICK_READING = ("Pick the definition of your paper with reading= (a name of READINGS or your "
                "own IdentifiabilityReading) and router= (a router name or your router's score "
                "function); the default is pcos-2, the perturbed cosine router of the "
                "nguyen2025cosine paper.")


def _atom_tuples_latex(atoms: Sequence[Mapping[str, str]]) -> list[str]:
    r"""Each atom tuple in LaTeX: ``\eta_{1} = (a = \frac{3}{2}, b = - \frac{2}{3})``."""
    return [rf"\eta_{{{j}}} = (" + ", ".join(
        rf"{sp.latex(sp.Symbol(n))} = {sp.latex(sp.sympify(v))}" for n, v in a.items()) + ")"
        for j, a in enumerate(atoms, start=1)]


def _atoms_markdown(atoms: Sequence[Mapping[str, str]]) -> str:
    return "; ".join(f"${t}$" for t in _atom_tuples_latex(atoms)) or "none (decided symbolically)"


def _markdown_latex(markdown: str) -> str:
    r"""Markdown text with ``$...$`` formulas as one LaTeX row: prose in ``\text``."""
    parts = markdown.split("$")
    return "".join(part if i % 2 else (r"\text{" + _latex_text(part) + "}" if part else "")
                   for i, part in enumerate(parts))


def _atoms_text(atoms: Sequence[Mapping[str, str]]) -> str:
    return "; ".join(f"eta_{j} = (" + ", ".join(f"{n} = {v}" for n, v in a.items()) + ")"
                     for j, a in enumerate(atoms, start=1)) or "none (decided symbolically)"


def _latex_text(t: str) -> str:
    """``t`` safe inside ``\\text{...}``."""
    for c, r in (("\\", r"\textbackslash{}"), ("_", r"\_"), ("#", r"\#"), ("%", r"\%"),
                 ("&", r"\&"), ("$", r"\$"), ("{", r"\{"), ("}", r"\}")):
        t = t.replace(c, r)
    return t


def _scope_markdown(scope: Mapping[str, Any], latex: Mapping[str, str]) -> str:
    """The scope as MyST; ``latex`` holds the ``k`` and ``atoms`` a decision wrote as MyST."""
    k = latex.get("k", f"$k = {scope.get('k')}$")
    return (f"reading `{scope.get('reading')}`, $d = {scope.get('d')}$, {k}, "
            f"{latex.get('atoms', scope.get('atoms'))}")


def _scope_text(scope: Mapping[str, Any]) -> str:
    parts = [f"reading {scope.get('reading')}", f"d = {scope.get('d')}",
             f"k = {scope.get('k')}", f"{scope.get('atoms')}"]
    return ", ".join(parts)


# --------------------------------------------------------------------------- input


def _symbols(values: Any, what: str) -> tuple[sp.Symbol, ...]:
    if isinstance(values, sp.Symbol):
        return (values,)
    if isinstance(values, str) or not isinstance(values, Sequence | sp.MatrixBase):
        raise ValueError(f"{what} must be a SymPy Symbol or a sequence of Symbols, got "
                         f"{_short(values)}")
    out = tuple(values)
    if not out or not all(isinstance(v, sp.Symbol) for v in out):
        raise ValueError(
            f"{what} must be a non-empty sequence of SymPy Symbols, got {_short(values)}")
    if len(set(out)) != len(out):
        raise ValueError(f"{what} must not repeat a symbol, got {_short(values)}")
    return out


def _as_expression(expert: Any, x: Any, params: Any,
                   d: int | None) -> tuple[sp.Expr, tuple[sp.Symbol, ...], tuple[sp.Symbol, ...]]:
    """The expert as ``(expression, inputs, params)``; one-line ``ValueError`` otherwise."""
    if isinstance(expert, Expert):
        if d not in (None, 1):
            raise ValueError(f"d must be 1 for an Expert (a scalar input), got {_short(d)}")
        return expert.expr, (expert.x,), tuple(expert.params)
    if isinstance(expert, sp.Basic):
        if not isinstance(expert, sp.Expr) or isinstance(expert, sp.MatrixBase):
            raise ValueError(f"expert must be a scalar SymPy expression, got {_short(expert)}")
        if x is None or params is None:
            raise ValueError("x and params are required when expert is a SymPy expression "
                             "(x: the input symbol(s), params: the parameter symbols)")
        inputs = _symbols(x, "x")
        if d is not None and d != len(inputs):
            raise ValueError(f"d = {d} but x gives {len(inputs)} input symbol(s)")
        return expert, inputs, _symbols(params, "params")
    if callable(expert):
        return _call_expert(expert, x, params, d)
    raise ValueError("expert must be a SymPy expression, an Expert or a callable "
                     f"expert(x, eta), got {type(expert).__name__}")


def _callable_symbols(x: Any, params: Any,
                      d: int | None) -> tuple[tuple[sp.Symbol, ...], tuple[sp.Symbol, ...]]:
    """The input and parameter symbols a callable expert receives (no user code runs)."""
    if x is not None:
        inputs = _symbols(x, "x")
        if d is not None and d != len(inputs):
            raise ValueError(f"d = {d} but x gives {len(inputs)} input symbol(s)")
    else:
        n = 1 if d is None else d
        inputs = ((sp.Symbol("x", real=True),) if n == 1 else
                  tuple(sp.Symbol(f"x_{i + 1}", real=True) for i in range(n)))
    if isinstance(params, bool) or params is None:
        raise ValueError("params is required for a callable expert: the number of parameters "
                         "or their names/symbols")
    if isinstance(params, int):
        if not 1 <= params <= 64:
            raise ValueError(f"params (number of parameters) must be in [1, 64], got {params}")
        eta = tuple(sp.Symbol(f"eta_{i + 1}", real=True) for i in range(params))
    elif isinstance(params, Sequence) and params and all(isinstance(p, str) for p in params):
        eta = tuple(sp.Symbol(p, real=True) for p in params)
    else:
        eta = _symbols(params, "params")
    return inputs, eta


def _call_expert(expert: Callable[..., Any], x: Any, params: Any,
                 d: int | None) -> tuple[sp.Expr, tuple[sp.Symbol, ...], tuple[sp.Symbol, ...]]:
    inputs, eta = _callable_symbols(x, params, d)
    try:
        value = expert(sp.Matrix(inputs), sp.Matrix(eta))
    except TimeLimitExceeded:
        raise
    except Exception as exc:  # the user's callable: any failure is a bad input
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValueError(f"expert(x, eta) failed on column vectors of {len(inputs)} inputs "
                         f"and {len(eta)} parameters: {first}") from exc
    if isinstance(value, sp.MatrixBase) and value.shape == (1, 1):
        value = value[0, 0]
    try:
        value = sp.sympify(value)
    except sp.SympifyError:
        raise ValueError("expert(x, eta) must return a scalar SymPy expression, got "
                         f"{type(value).__name__}") from None
    if not isinstance(value, sp.Expr) or isinstance(value, sp.MatrixBase):
        raise ValueError(
            f"expert(x, eta) must return a scalar SymPy expression, got {_short(value)}")
    return value, inputs, eta


def _check_expert(expr: sp.Expr, inputs: tuple[sp.Symbol, ...],
                  params: tuple[sp.Symbol, ...]) -> None:
    if not set(inputs) & expr.free_symbols:
        raise ValueError(f"x: the expert {sp.sstr(expr)} does not depend on "
                         f"{', '.join(map(str, inputs))}")
    missing = [str(p) for p in params if p not in expr.free_symbols]
    if missing:
        raise ValueError(f"params {missing} do not occur in the expert {sp.sstr(expr)}")
    extra = sorted(map(str, expr.free_symbols - {*inputs, *params}))
    if extra:
        raise ValueError(f"expert has symbols {extra} that are neither inputs (x) nor params")
    if set(inputs) & set(params):
        raise ValueError("x and params must not share a symbol")
    bad = sorted({type(n).__name__ for n in sp.preorder_traversal(expr)
                  if isinstance(n, _REFUSED) or isinstance(n, sp.core.function.AppliedUndef)})
    if bad:
        raise ValueError(f"expert uses {', '.join(bad)}: not decidable (functions with "
                         "infinitely many jumps, undefined or unevaluated functions)")


def _check_int(value: Any, what: str, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= hi:
        raise ValueError(f"{what} must be an integer in [1, {hi}], got {_short(value)}")


def _with_router(reading: IdentifiabilityReading, router: Any) -> IdentifiabilityReading:
    if router is None:
        return reading
    if isinstance(router, str):
        if router not in ROUTER_NAMES:
            raise ValueError(f"router must be one of {list(ROUTER_NAMES)}, a ScoreRouter or a "
                             f"callable score(beta1, x), got {_short(router)}")
        new: str | ScoreRouter = router
    elif isinstance(router, ScoreRouter):
        new = router
    elif callable(router):
        new = ScoreRouter(router, getattr(router, "__name__", "custom"))
    else:
        raise ValueError(f"router must be one of {list(ROUTER_NAMES)}, a ScoreRouter or a "
                         f"callable score(beta1, x), got {_short(router)}")
    if reading.router == "none" or new == reading.router:
        return reading
    name = new.name if isinstance(new, ScoreRouter) else new
    return dataclasses.replace(reading, router=new, name=f"{reading.name}[{name}]")


# --------------------------------------------------------------------------- decision


def identifiable(expert: Any, *, x: Any = None, params: Any = None, d: int | None = None,
                 k: int | None = None,
                 reading: str | IdentifiabilityReading = PRIMARY_READING,
                 atoms: str | Sequence[Mapping[sp.Symbol, Any]] = "generic",
                 router: Any = None, method: str = "auto",
                 others: bool | Sequence[str] = True,
                 timeout: float | None = DEFAULT_TIMEOUT,
                 recheck: bool = True) -> IdentifiabilityResult:
    r"""Decide strong identifiability of an expert, with a certificate either way.

    Parameters
    ----------
    expert : sympy.Expr, Expert or callable
        :math:`h(x, \eta)`: an expression in ``x`` and ``params``; an
        :class:`~moetheory.symbolic.experts.Expert`; or a callable ``expert(x, eta)``
        receiving two SymPy column vectors (``sympy.Matrix`` of real symbols: the ``d``
        inputs and the parameters) and returning a scalar expression.
    x : sympy.Symbol or sequence of sympy.Symbol, optional
        The input symbol(s) (required for an expression; ``d`` symbols for input dimension
        ``d``). For a callable, default ``x`` (:math:`d = 1`) or ``x_1``, ..., ``x_d``.
    params : sequence of sympy.Symbol, sequence of str or int
        The parameters (required for an expression); for a callable also their names or
        their number (then ``eta_1..eta_q``).
    d : int, optional
        Input dimension, 1 to :data:`MAX_D` (default: from ``x``, else 1).
    k : int, optional
        Number of atoms, 1 to :data:`MAX_K` (default: the reading's ``atoms``).
    reading : str or IdentifiabilityReading
        The reading of Definition 1 (default the primary ``"pcos-2"``).
    atoms : {"generic", "all"} or sequence of mappings
        The scope in the atoms: generic rational atoms, every atom tuple (:math:`d = 1`), or these
        explicit atoms (a value for each parameter, pairwise distinct).
    router : str, ScoreRouter or callable, optional
        Replace the reading's router multipliers: a name of
        :data:`~moetheory.symbolic.identifiability.ROUTER_NAMES` or any router score
        ``score(beta1, x)`` (column vectors); readings without a router keep none.
    method : {"auto", "sampling", "elimination", "singularity"}
        The route (see :data:`METHODS`); ``auto`` picks.
    others : bool or sequence of str
        Also decide the other readings of
        :data:`~moetheory.symbolic.identifiability.READINGS` (``True``), none (``False``) or
        those named; they share the time budget and are reported in ``.readings``.
    timeout : float or None
        Wall-clock budget in seconds for everything, every call of user code included (the
        callable expert, a router score) (default :data:`DEFAULT_TIMEOUT`; ``None``: no
        limit). What is not decided in time is ``inconclusive``.
    recheck : bool
        Recheck the primary certificate by a separate computation and a proof's scope at
        atoms drawn from it (default ``True``); a certificate or scope that fails it is
        never reported. The time limit covers the recheck.

    Returns
    -------
    IdentifiabilityResult
        Verdict, scope, reason, certificate, the other readings.

    Raises
    ------
    ValueError
        One line, before any work, naming the parameter: an expert that is not an expression,
        Expert or callable (or fails, or returns no scalar), missing or foreign symbols,
        functions with infinitely many jumps, ``d``, ``k``, ``atoms`` (also: outside the
        parameters' declared assumptions), ``method``,
        ``router``, ``others``, ``reading`` or ``timeout`` out of range.

    Notes
    -----
    The family of reading :math:`R` at atoms :math:`\eta_1..\eta_k` is
    :math:`\{m(x)^\nu \partial^\gamma_\eta h(x, \eta_j)\}`; strong identifiability is its
    linear independence for almost every :math:`x`. Independence is certified by an exact
    nonzero determinant of :math:`M_{ri} = f_i(x_r)` at rational points (or a rigorous
    interval enclosure excluding 0), dependence by an exact relation shown to vanish on every
    region where the functions are analytic (:mod:`moetheory.symbolic.linear_independence`).

    See Also
    --------
    moetheory.symbolic.identifiability.decide : one reading at explicit atoms.
    moetheory.symbolic.identifiability.decide_all_atoms : exact elimination, every atom.
    moetheory.symbolic.pole_route.decide_ridge_all_atoms : tanh and sigmoid, every k.

    Examples
    --------
    A callable expert, two parameters, input dimension 1:

    >>> res = identifiable(lambda x, eta: sp.exp(-(eta[0] * x[0] + eta[1]) ** 2), params=2,
    ...                    others=False)
    >>> res.verdict.value
    'refuted'
    >>> print(res.certificate["relation"])  # doctest: +ELLIPSIS
    (...)*h(x,eta1) + ...
    """
    _check_args(d, k, method, others, timeout, recheck)
    if isinstance(atoms, str) and atoms not in ATOM_SCOPES:
        raise ValueError(f"atoms must be one of {list(ATOM_SCOPES)} or a sequence of atoms "
                         f"(parameter -> value), got {atoms!r}")
    base = _with_router(_reading(reading), router)
    if not isinstance(atoms, str):
        atoms = [dict(a) for a in atoms]
        if k is not None and k != len(atoms):
            raise ValueError(f"k = {k} but atoms gives {len(atoms)} atoms")
        k = len(atoms)
        if k == 0:
            raise ValueError("atoms must hold at least one atom")
    if k is not None and k != base.atoms:
        base = dataclasses.replace(base, atoms=k, name=f"{base.name}-k{k}")
    if method in ("elimination", "singularity") and atoms != "all":
        raise ValueError(f"method {method!r} decides every atom tuple: use atoms='all'")
    names = ([] if others is False else
             [r for r in READINGS if r != _reading(reading).name] if others is True
             else list(others))
    extra = []
    for name in names:
        other = _with_router(_reading(name), router)
        if k is not None and k != other.atoms:
            other = dataclasses.replace(other, atoms=k, name=f"{other.name}-k{k}")
        extra.append(other)
    start = time.monotonic()
    try:  # the time limit covers every call of user code, the expert's first
        with time_limit(timeout):
            expr, inputs, eta = _as_expression(expert, x, params, d)
    except TimeLimitExceeded as exc:
        return _Job.unbuilt(expert, x, params, d, atoms, method).run(
            base, recheck, 0.0, f"{exc} while the expert was built")
    _check_expert(expr, inputs, eta)
    expr, inputs, eta, atoms = _as_real(expr, inputs, eta, atoms)
    job = _Job(expr, inputs, eta, atoms, method)

    def left() -> float | None:
        return None if timeout is None else timeout - (time.monotonic() - start)

    primary = job.run(base, recheck, left())
    results = [job.run(other, False, left()) for other in extra]
    return dataclasses.replace(primary, readings=tuple(results))


#: The declared facts of a symbol kept when it is made real (:func:`_as_real`).
_SIGN_FACTS = ("positive", "negative", "nonnegative", "nonpositive", "nonzero", "integer")


def _as_real(expr: sp.Expr, inputs: tuple[sp.Symbol, ...], params: tuple[sp.Symbol, ...],
             atoms: Any) -> tuple[sp.Expr, tuple[sp.Symbol, ...], tuple[sp.Symbol, ...], Any]:
    """Every input and parameter as the real variable it is: a symbol declared without
    ``real=True`` (SymPy: complex) becomes a real symbol of the same name keeping its sign
    facts, so ``sqrt(a**2)`` is ``|a|``; explicit atoms are checked against the declared
    assumptions (one-line ``ValueError`` naming ``atoms``)."""
    swap = {v: sp.Symbol(v.name, real=True,
                         **{f: True for f in _SIGN_FACTS if getattr(v, f"is_{f}")})
            for v in (*inputs, *params) if v.is_real is not True}
    if swap:
        expr = expr.xreplace(swap)
        inputs = tuple(swap.get(v, v) for v in inputs)
        params = tuple(swap.get(p, p) for p in params)
    if not isinstance(atoms, str):
        atoms = [{swap.get(p, p): v for p, v in a.items()} for a in atoms]
        bad = next((m for a in atoms for p, v in a.items()
                    if isinstance(p, sp.Symbol) and (m := atom_violation(p, v))), "")
        if bad:
            raise ValueError(f"atoms must satisfy the declared assumptions of the params: {bad}")
    return expr, inputs, params, atoms


def _check_args(d: Any, k: Any, method: Any, others: Any, timeout: Any, recheck: Any) -> None:
    if d is not None:
        _check_int(d, "d (input dimension)", MAX_D)
    if k is not None:
        _check_int(k, "k (number of atoms)", MAX_K)
    if method not in METHODS:
        raise ValueError(f"method must be one of {list(METHODS)}, got {_short(method)}")
    if not isinstance(others, bool):
        if isinstance(others, str) or not isinstance(others, Sequence):
            raise ValueError(f"others must be True, False or a sequence of reading names, got "
                             f"{_short(others)}")
        bad = [o for o in others if o not in READINGS]
        if bad:
            raise ValueError(f"others must name readings among {list(READINGS)}, got {bad}")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                or not timeout > 0 or math.isnan(timeout)):
        raise ValueError(f"timeout must be a positive number of seconds or None, got "
                         f"{_short(timeout)}")
    if not isinstance(recheck, bool):
        raise ValueError(f"recheck must be True or False, got {_short(recheck)}")


class _Unsupported(Exception):
    """A case the engine does not decide (the reason is the message): ``inconclusive``."""


@dataclass
class _Job:
    """One expert at one atom scope; :meth:`run` decides a reading."""

    expr: sp.Expr
    inputs: tuple[sp.Symbol, ...]
    params: tuple[sp.Symbol, ...]
    atoms: Any
    method: str

    @classmethod
    def unbuilt(cls, expert: Any, x: Any, params: Any, d: int | None, atoms: Any,
                method: str) -> _Job:
        """A job for an expert whose callable did not return in time: ``h`` stands for it."""
        inputs, eta = _callable_symbols(x, params, d)
        return cls(sp.Function("h")(*inputs, *eta), inputs, eta, atoms, method)

    def run(self, reading: IdentifiabilityReading, recheck: bool,
            timeout: float | None, why: str = "") -> IdentifiabilityResult:
        if timeout is not None and timeout <= 0:
            return self._undecided(reading, why or "the time budget ran out before this "
                                                   "reading was decided")
        try:
            with time_limit(timeout):
                return self._decide(reading, recheck)
        except TimeLimitExceeded as exc:
            return self._undecided(reading, f"{exc} before a certificate was found")
        except _Unsupported as exc:
            return self._undecided(reading, str(exc))

    # ------------------------------------------------------------------ routes

    def _decide(self, reading: IdentifiabilityReading, recheck: bool) -> IdentifiabilityResult:
        if self.atoms == "all":
            return self._all_atoms(reading)
        atoms = None if self.atoms == "generic" else self.atoms
        dec = self._sample(reading, atoms)
        return self._from_decision(dec, reading, recheck)

    def _sample(self, reading: IdentifiabilityReading,
                atoms: Sequence[Mapping[sp.Symbol, Any]] | None) -> IdentifiabilityDecision:
        if len(self.inputs) == 1:
            return decide(self.expr, reading, x=self.inputs[0], params=self.params,
                          atoms=atoms, timeout=None)
        if any(v.is_nonnegative or v.is_nonpositive for v in self.inputs):
            raise _Unsupported("inputs declared positive or negative are decided in input "
                               "dimension d = 1 only")
        t = sp.Symbol("t", real=True)
        if t in self.expr.free_symbols:
            t = sp.Dummy("t", real=True)
        return decide(self.expr, reading, x=t, params=self.params, atoms=atoms,
                      inputs=self.inputs, timeout=None)

    def _all_atoms(self, reading: IdentifiabilityReading) -> IdentifiabilityResult:
        if len(self.inputs) != 1:
            return self._undecided(reading, "every atom tuple is decided in input dimension "
                                            "d = 1 only (use atoms='generic' for d >= 2)")
        reasons = []
        if self.method in ("auto", "elimination"):
            elim = decide_all_atoms(self.expr, reading, x=self.inputs[0], params=self.params)
            if elim.verdict is not Verdict.INCONCLUSIVE or self.method == "elimination":
                return self._from_all_atoms(elim, reading)
            reasons.append(f"exact elimination: {elim.reason}")
        if self.method in ("auto", "singularity"):
            activation = _ridge_activation(self.expr, self.inputs[0], self.params)
            if activation is not None and not isinstance(reading.router, ScoreRouter):
                from moetheory.symbolic.pole_route import decide_ridge_all_atoms

                ridge = decide_ridge_all_atoms(activation, reading)
                if ridge.verdict is not Verdict.INCONCLUSIVE or self.method == "singularity":
                    return self._from_ridge(ridge, reading)
                reasons.append(f"singularity route: {ridge.reason}")
            elif self.method == "singularity":
                return self._undecided(reading, "the singularity route needs h = phi(a x + b) "
                                                "with phi tanh or sigmoid and a named router")
            else:
                reasons.append("singularity route: not a tanh/sigmoid ridge expert")
        dec = self._sample(reading, None)
        if dec.verdict is Verdict.REFUTED:
            res = self._from_decision(dec, reading, recheck=False)
            scope = {**res.scope, "atoms": "a counterexample at these atoms refutes 'every "
                                           "atom tuple'"}
            return dataclasses.replace(res, scope=scope)
        return self._undecided(reading, "every atom tuple not decided (" + "; ".join(reasons)
                               + f"); at generic atoms: {dec.verdict.value}", dec)

    # ------------------------------------------------------------------ results

    def _result(self, reading: IdentifiabilityReading, verdict: Verdict, scope: dict[str, Any],
                reason: str, certificate: dict[str, Any], decision: Any,
                rechecked: bool | None = None, statement: str | None = None,
                latex: tuple[str, dict[str, str]] = ("", {})) -> IdentifiabilityResult:
        scope = {"reading": reading.name, "router": reading.router_name, **scope,
                 "params_differentiated": [sp.sstr(p) for p in self.params]}
        domain = {sp.sstr(v): _interval_text(declared_interval(v))
                  for v in (*self.inputs, *self.params) if v.is_nonnegative or v.is_nonpositive}
        if domain:
            scope["domain"] = domain
        if statement is None:
            statement = _statement(verdict, scope, certificate, reading)
        return IdentifiabilityResult(verdict, scope, reason, certificate, reading, self.expr,
                                     self.inputs, self.params, (), rechecked, decision,
                                     statement, *latex)

    def _undecided(self, reading: IdentifiabilityReading, reason: str,
                   decision: Any = None) -> IdentifiabilityResult:
        scope = {"d": len(self.inputs), "k": reading.atoms, "atoms": "none",
                 "orders": [reading.min_order, reading.max_order],
                 "semantics": reading.semantics, "route": "none"}
        return self._result(reading, Verdict.INCONCLUSIVE, scope, reason, {"kind": "none"},
                            decision)

    def _from_decision(self, dec: IdentifiabilityDecision, reading: IdentifiabilityReading,
                       recheck: bool) -> IdentifiabilityResult:
        res = dec.result
        scope = {**dec.scope(), "route": "sampling at rational points"}
        verdict = dec.verdict
        if verdict is Verdict.PROVED:
            cert: dict[str, Any] = {
                "kind": "independence", "method": res.method,
                "n_functions": len(dec.texts), "functions": dec.texts,
                "points": [sp.sstr(p) for p in res.points],
                "points_latex": [sp.latex(p) for p in res.points],
            }
            if res.determinant is not None:
                cert["determinant"] = sp.sstr(res.determinant)
                cert["determinant_latex"] = sp.latex(res.determinant)
            else:
                cert["determinant_interval"] = list(res.determinant_interval or ())
            reason = (f"the {len(dec.texts)} family functions are linearly independent: their "
                      f"values at {len(res.points)} rational points form a nonsingular matrix")
        elif verdict is Verdict.REFUTED:
            nz = [(c, t, lab, f) for c, t, lab, f in
                  zip(res.coefficients, dec.texts, dec.labels, res.functions, strict=True)
                  if c != 0]
            relation = " + ".join(f"({sp.sstr(c)})*{t}" for c, t, _, _ in nz)
            cert = {
                "kind": "dependence", "relation": relation,
                "relation_latex": " + ".join(rf"\left({sp.latex(c)}\right) {lab}"
                                             for c, _, lab, _ in nz),
                "coefficients": {t: sp.sstr(c) for c, t, _, _ in nz},
                # d >= 2: the functions on the screening curve; the relation holds on R^d
                ("functions" if dec.dimension == 1 else "functions_on_curve"):
                    {t: sp.sstr(f) for _, t, _, f in nz},
                "regions": [[sp.sstr(r.lower), sp.sstr(r.upper)] for r in res.regions],
                "null_space_dimension_at_least": res.nullity,
                "null_space_complete": res.null_space_complete,
            }
            if dec.lifted is not None:
                cert["lift_to_Rd"] = dec.lifted
            where = "as an identity on R^d" if dec.dimension > 1 else "on every region"
            reason = (f"an exact linear relation among the family functions, verified {where}: "
                      f"{relation} = 0")
        else:
            cert = {"kind": "none"}
            reason = (dec.lifted or {}).get("note") or res.reason or "not decided"
        cert["atoms"] = [{sp.sstr(p): sp.sstr(v) for p, v in a.items()} for a in dec.atoms]
        rechecked = None
        if recheck and verdict.is_exact:
            rechecked = bool(verify_certificate(res))
            if not rechecked:
                verdict = Verdict.INCONCLUSIVE
                reason = "the certificate did not pass its independent recheck: " + reason
        if verdict is Verdict.PROVED:  # always: the scope is part of what is stated
            disagree = _scope_disagrees(dec, reading)
            if disagree:
                verdict = Verdict.INCONCLUSIVE
                rechecked = False if recheck else None
                reason = f"the stated scope ({scope['atoms']}) failed its check: {disagree}"
        if verdict is not dec.verdict:  # the decision handed on says what the result says
            dec = dataclasses.replace(dec, verdict=verdict, result=dataclasses.replace(
                res, status="inconclusive", reason=reason))
            scope = {**dec.scope(), "route": scope["route"]}
        return self._result(reading, verdict, scope, reason, jsonable(cert), dec, rechecked)

    def _from_all_atoms(self, dec: AllAtomsDecision,
                        reading: IdentifiabilityReading) -> IdentifiabilityResult:
        scope = {**dec.scope(), "route": "exact elimination over Q(atoms)"}
        cert = {"kind": "all-atoms elimination", **dec.evidence()}
        cert.pop("atoms", None)  # symbols, not the values of a certificate
        return self._result(reading, dec.verdict, scope, dec.summary, jsonable(cert), dec,
                            statement=_all_atoms_statement(dec), latex=_all_atoms_latex(dec))

    def _from_ridge(self, dec: Any, reading: IdentifiabilityReading) -> IdentifiabilityResult:
        scope = {**dec.scope()}
        cert = {"kind": "singularity route", **dec.evidence()}
        cert.pop("atoms", None)
        return self._result(reading, dec.verdict, scope, dec.summary, jsonable(cert), dec,
                            statement=_all_atoms_statement(dec), latex=_all_atoms_latex(dec))


#: Digits and relative singular-value threshold of the scope check.
_SCOPE_DPS = 50
_SCOPE_RANK_TOL = mpmath.mpf(10) ** -30


def _scope_disagrees(dec: IdentifiabilityDecision, reading: IdentifiabilityReading) -> str:
    """Why an independence proof's stated scope fails its check ("": it agrees).

    The certificate covers its own atoms exactly; the scope ("almost every atom tuple" or "an
    open set around these") is checked at atoms drawn from it (deterministic draws: anywhere
    in the parameters' declared domain, or within 1e-3 of the certificate's atoms): the family
    there must have full numeric rank at 50 digits
    (:func:`~moetheory.symbolic.linear_independence.numeric_rank_deficiency` above 1e-30),
    or else be proved independent there by the exact engine.
    """
    rng = random.Random(43)
    if dec.scope()["atoms"].startswith("almost every"):
        # two tuples: every sign-free parameter negative (the certificate's generic atoms
        # start positive), then random signs
        draws = [[{p: _draw(p, rng, sign) for p in dec.params} for _ in dec.atoms]
                 for sign in (-1, 0)]
    else:
        draws = [[{p: v + sp.Rational(rng.choice((-1, 1)) * rng.randint(1, 9), 10**4)
                   for p, v in a.items()} for a in dec.atoms]]
    for fresh in draws:
        why = _rank_deficient(dec, reading, fresh)
        if why:
            return why
    return ""


def _rank_deficient(dec: IdentifiabilityDecision, reading: IdentifiabilityReading,
                    fresh: list[dict[sp.Symbol, sp.Rational]]) -> str:
    """Why the family at ``fresh`` atoms is not shown of full rank ("": it is): a numeric
    screen at 50 digits, and when it finds the family (nearly) dependent, the exact engine."""
    t = dec.result.x
    if dec.dimension == 1:
        fs = [f.function for f in expert_family(dec.expr, t, dec.params, reading, fresh)]
    else:
        sub = dict(zip(dec.inputs, dec.curve, strict=True))
        fs = [f.function.xreplace(sub) for f in expert_family(
            dec.expr, dec.inputs[0], dec.params, reading, fresh, coords=dec.inputs)]
    atoms = _atoms_text([{sp.sstr(p): sp.sstr(v) for p, v in a.items()} for a in fresh])
    try:
        small = numeric_rank_deficiency(fs, t, dps=_SCOPE_DPS)
    except ValueError as exc:
        return f"the family at atoms drawn from it ({atoms}) could not be evaluated: {exc}"
    if small > _SCOPE_RANK_TOL:
        return ""
    exact = decide_linear_independence(fs, t)
    if exact.status == "independent":
        return ""
    return (f"the family is {exact.status} at atoms drawn from it ({atoms}): smallest relative "
            f"singular value {mpmath.nstr(small, 3)} at {_SCOPE_DPS} digits")


def _draw(p: sp.Symbol, rng: random.Random, sign: int = 0) -> sp.Rational:
    """A random rational of magnitude 0.3 to 2 in the declared domain of ``p``, of the given
    ``sign`` when ``p`` has none declared (``0``: a random sign)."""
    v = sp.Rational(rng.randint(300, 2000), 1000)
    if p.is_nonnegative:
        return v
    if p.is_nonpositive:
        return -v
    return (sign or rng.choice((-1, 1))) * v


def _interval_text(bounds: tuple[sp.Expr, sp.Expr]) -> str:
    return f"({sp.sstr(bounds[0])}, {sp.sstr(bounds[1])})"


def _statement(verdict: Verdict, scope: Mapping[str, Any], certificate: Mapping[str, Any],
               reading: IdentifiabilityReading, at: str | None = None,
               where: str | None = None) -> str:
    """Exactly what a verdict at explicit (generic) atoms states, in words (``at``, ``where``:
    the atoms and the declared domain as the display writes them; plain text by default)."""
    family = f"the {reading.name} family"
    if at is None:
        at = _atoms_text(certificate.get("atoms", []))
    if where is None:
        where = "; ".join(f"{k} in {v}" for k, v in scope.get("domain", {}).items())
    where = f" ({where})" if where else ""
    if verdict is Verdict.PROVED:
        atoms = scope.get("atoms", "")
        if atoms.startswith("almost every"):
            return (f"{family} is linearly independent (a.e. x) for {atoms}{where}: "
                    f"certificate at {at}")
        return (f"{family} is linearly independent (a.e. x) for every atom tuple in an open "
                f"set around {at}{where}, not shown for almost every atom tuple")
    if verdict is Verdict.REFUTED:
        return (f"{family} is linearly dependent at {at}{where}, a counterexample to "
                f"'independent for all pairwise distinct atoms'")
    return "nothing decided"


def _all_atoms_statement(dec: Any) -> str:
    """What an every-atom-tuple decision states: its own verdict line (it names the
    exceptional set outside which independence holds)."""
    if dec.verdict is Verdict.INCONCLUSIVE:
        return "nothing decided"
    return str(dec.summary)


def _all_atoms_latex(dec: Any) -> tuple[str, dict[str, str]]:
    """:func:`_all_atoms_statement` and the decision's ``k`` and ``atoms`` as MyST."""
    if dec.verdict is Verdict.INCONCLUSIVE:
        return "", {}
    return str(dec.summary_latex), dict(dec.scope_latex())


def _ridge_activation(expr: sp.Expr, x: sp.Symbol, params: tuple[sp.Symbol, ...]) -> str | None:
    """``"tanh"`` or ``"sigmoid"`` when ``expr`` is ``phi(a x + b)`` in the two params."""
    if len(params) != 2:
        return None
    from moetheory.symbolic.pole_route import ACTIVATIONS

    a, b = params
    for name, act in ACTIVATIONS.items():
        if sp.simplify(expr - act.phi(a * x + b)) == 0:
            return name
    return None
