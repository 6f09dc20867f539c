r"""The two routes of :func:`~moetheory.symbolic.router_pde.router_pde`.

*Every dimension d >= 2*: the score, as the callable builds it in :math:`d = 2, 3, 4` and in
every asked :math:`d \ge 2`, is rewritten as one expression :math:`F(u, n_b, n_x)` (certified
in each of those :math:`d`); then :math:`\beta_1^\top\nabla_{\beta_1} s = \frac{d}{dc}F(cu,
cn_b, n_x)|_{c=1} = u F_u + n_b F_{n_b}` in every :math:`d \ge 2` at once (where
:math:`u, n_b, n_x` fill a set with interior). :math:`d = 1`, where :math:`|u| = n_b n_x`, is
always decided on its own, in coordinates.

*Fixed dimensions*: otherwise, in each requested :math:`d` the score is differentiated in
coordinates, :math:`\sum_i \beta_{1,i}\,\partial s/\partial\beta_{1,i}`.

Either way the derivative is simplified to exactly 0 (proved) or evaluated exactly at a rational
point where it is certified non-zero (refuted), and compared with mpmath numeric
differentiation of the score itself at rational points.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath
import sympy as sp
from sympy.core.relational import Relational

from moetheory.engine.verdicts import Verdict
from moetheory.symbolic.pde import ETA, XVEC
from moetheory.symbolic.router_pde._deadline import Deadline
from moetheory.symbolic.router_pde._invariants import (
    NotInvariant,
    to_invariants,
)
from moetheory.symbolic.router_pde._pieces import (
    Piece,
    Refusal,
    certify_nonzero,
    empty_in_coordinates,
    euler,
    has_undefined_function,
    interior,
    invariant_values,
    lower_dimensional,
    mp_value,
    numeric_euler,
    parameter_values,
    points,
    real_number,
    simplify_ratio,
    simplify_region,
    split_pieces,
    undecidable_part,
)
from moetheory.symbolic.routers import NB, NX, U, coordinates

__all__: list[str] = []

#: Dimensions in which the invariant form is built and compared.
REDUCTION_DIMS = (2, 3, 4)
_INVARIANTS = (U, NB, NX)


@dataclass
class Progress:
    """What has been computed so far (reported if the time limit is reached)."""

    stage: str = "calling the score"
    score: sp.Expr | None = None
    ratio: sp.Expr | None = None
    notes: list[str] = field(default_factory=list)


@dataclass
class Decision:
    """The outcome of one route, before it becomes a public result."""

    verdict: Verdict
    reason: str
    scope: dict[str, Any]
    score: sp.Expr | None = None
    ratio: sp.Expr | None = None
    pieces: list[Piece] = field(default_factory=list)
    vanishing: Any = None
    counterexample: dict[str, Any] | None = None
    per_dimension: dict[int, dict[str, Any]] = field(default_factory=dict)
    certificate: dict[str, Any] = field(default_factory=dict)


class ScoreCalls:
    """The user's score called once per dimension (results and exceptions cached).

    The callable receives column vectors of fresh :class:`~sympy.Dummy` coordinates, so no
    symbol of the user's (a hyper-parameter named ``b1``, ``u`` or ``n_b``, say) can be taken
    for a coordinate or an invariant; in the expression returned, the coordinates become the
    package's (:func:`~moetheory.symbolic.routers.coordinates`) and each hyper-parameter a
    Dummy with its assumptions (:attr:`user_symbols`, mapped back by :meth:`present`).
    """

    def __init__(self, score: Callable[..., Any],
                 convert: Callable[[Any, int, frozenset[sp.Symbol]], sp.Expr]):
        self._score = score
        self._convert = convert
        self._cache: dict[int, sp.Expr | Exception] = {}
        #: The user's hyper-parameters and the Dummy standing for each inside the engine.
        self.user_symbols: dict[sp.Symbol, sp.Dummy] = {}

    def get(self, d: int) -> sp.Expr | Exception:
        """``score(beta1, x)`` in coordinates of dimension ``d``, or the exception it raised."""
        if d not in self._cache:
            beta1, x = coordinates(d)
            given = [sp.Dummy(s.name, real=True) for s in (*beta1, *x)]
            try:
                raw = self._score(sp.Matrix(given[:d]), sp.Matrix(given[d:]))
            except Exception as exc:  # the user's code: recorded, reported per dimension
                self._cache[d] = exc
            else:
                expr = self._convert(raw, d, frozenset(given))
                rename: dict[sp.Basic, sp.Basic] = dict(zip(given, [*beta1, *x], strict=True))
                for s in sorted(expr.free_symbols - set(given), key=sp.default_sort_key):
                    rename[s] = self._internal(s)
                self._cache[d] = expr.xreplace(rename)
        return self._cache[d]

    def _internal(self, symbol: sp.Symbol) -> sp.Dummy:
        if symbol not in self.user_symbols:
            if any(t.name == symbol.name for t in self.user_symbols):
                raise ValueError(f"score uses two different symbols named {symbol.name!r} "
                                 "(different assumptions); give them different names")
            facts = {k: v for k, v in symbol.assumptions0.items() if v is not None}
            self.user_symbols[symbol] = sp.Dummy(symbol.name, **facts)
        return self.user_symbols[symbol]

    def present(self, value: Any) -> Any:
        """``value`` (an expression, or containers of them) in the user's symbols: each Dummy
        back to the user's hyper-parameter; an internal symbol whose name a user's symbol
        also has (``u``, ``n_b``, ``b1``, ...) becomes a Dummy of that name."""
        names = {s.name for s in self.user_symbols}
        mapping: dict[sp.Basic, sp.Basic] = {v: k for k, v in self.user_symbols.items()}
        if names:
            internal = [U, NB, NX, XVEC, ETA]
            for d in range(1, 7):
                internal += [*coordinates(d)[0], *coordinates(d)[1]]
            for s in internal:
                if s.name in names and s not in mapping:
                    facts = {k: v for k, v in s.assumptions0.items() if v is not None}
                    mapping[s] = sp.Dummy(s.name, **facts)
        return _map(value, mapping) if mapping else value


def _map(value: Any, mapping: Mapping[sp.Basic, sp.Basic]) -> Any:
    if isinstance(value, sp.Basic):
        return value.xreplace(mapping)
    if isinstance(value, Piece):
        return Piece(_map(value.region, mapping), _map(value.score, mapping),
                     _map(value.ratio, mapping), value.zero, value.zero_by)
    if isinstance(value, Mapping):
        return {k: _map(v, mapping) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_map(v, mapping) for v in value)
    return value


def _text(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:200]


# ---------------------------------------------------------------------------------------------
# shared pieces of both routes
# ---------------------------------------------------------------------------------------------


def _params(expr: sp.Expr, exclude: set[sp.Symbol]) -> list[sp.Symbol]:
    return sorted((s for s in expr.free_symbols if s not in exclude), key=lambda s: s.name)


def _concrete(expr: sp.Expr) -> sp.Expr:
    """Undefined functions replaced by a fixed smooth function (numeric checks only)."""
    def stand_in(e: Any) -> Any:
        return sp.exp(sp.Add(*e.args) / 7) + sp.Rational(1, 3)

    if not has_undefined_function(expr):
        return expr
    return expr.replace(lambda e: isinstance(e, sp.core.function.AppliedUndef),
                        stand_in).doit()


def _pieces(
    expr: sp.Expr, beta1: Sequence[sp.Symbol] | None, x: Sequence[sp.Symbol] | None,
    deadline: Deadline, progress: Progress,
) -> list[Piece]:
    out = []
    for piece, region in split_pieces(expr):
        deadline.check()
        raw = euler(piece, beta1)
        why = undecidable_part(raw)
        if why:
            raise Refusal(why)
        progress.stage = "simplifying the Euler derivative"
        ratio, zero, method = simplify_ratio(raw, beta1, x, deadline)
        out.append(Piece(region, piece, ratio, zero, method))
    return out


def _zero_method(pieces: Sequence[Piece]) -> str:
    return "; ".join(sorted({p.zero_by for p in pieces if p.zero and p.zero_by}))


def _ratio(pieces: Sequence[Piece]) -> sp.Expr:
    if all(p.zero for p in pieces):
        return sp.Integer(0)
    if len(pieces) == 1 and pieces[0].region is sp.true:
        return pieces[0].ratio
    merged = sp.Piecewise(*[(p.ratio, p.region) for p in pieces])  # equal pieces joined
    if not isinstance(merged, sp.Piecewise):
        return merged
    return sp.Piecewise(*[(e, _tidy(c)) for e, c in merged.args])


#: Conditions with more (in)equalities than this are displayed as built: simplifying them as
#: propositional formulas costs exponential time, and the display is all they are for.
_TIDY_ATOMS = 8


def _tidy(condition: Any) -> Any:
    """A condition shown to a reader: simplified when it is small (display only)."""
    if isinstance(condition, sp.logic.boolalg.Boolean) and \
            len(condition.atoms(Relational)) > _TIDY_ATOMS:
        return condition
    return simplify_region(condition)


def _vanishing(pieces: Sequence[Piece], h: sp.Expr) -> Any:
    """The set where the residual is 0, as a SymPy condition (numerator factors = 0, per piece)."""
    parts = []
    for p in pieces:
        if p.zero:
            parts.append(p.region)
            continue
        factors = _factors(p.ratio)
        zero = sp.Or(*[sp.Eq(f, 0) for f in factors]) if factors else sp.false
        parts.append(_tidy(sp.And(p.region, zero)))
    if all(p.zero for p in pieces):
        return sp.true
    return _tidy(sp.Or(*parts, sp.Eq(h, 0)))


def _factors(expr: sp.Expr) -> list[sp.Expr]:
    """Factors of the numerator that can vanish (those SymPy cannot show non-zero)."""
    num = sp.fraction(sp.together(expr))[0]
    try:
        _, found = sp.factor_list(num)
        parts = [f for f, _ in found]
    except (sp.PolynomialError, TypeError, ValueError):
        parts = [num]
    out: list[sp.Expr] = []
    for part in parts:
        for f in sp.Mul.make_args(part):
            base = f.base if isinstance(f, sp.Pow) and f.exp.is_positive else f
            if base.is_number or base.is_positive or base.is_negative:
                continue
            if base not in out:
                out.append(base)
    return out


def _point_text(point: tuple[Sequence[Any], Sequence[Any]]) -> dict[str, list[str]]:
    return {"beta1": [sp.sstr(t) for t in point[0]], "x": [sp.sstr(t) for t in point[1]]}


def _witness(
    pieces: Sequence[Piece], params: Sequence[sp.Symbol], d: int,
    values_of: Callable[[Any], dict[sp.Symbol, sp.Expr]], score: sp.Expr, deadline: Deadline,
) -> tuple[dict[str, Any] | None, list[Piece]]:
    """A certified non-zero value of the residual over H, and the pieces left without one."""
    lacking = []
    for piece in pieces:
        if piece.zero:
            continue
        if has_undefined_function(piece.ratio):  # its value depends on that function
            lacking.append(piece)
            continue
        for assignment in parameter_values(params):
            ratio = _concrete(piece.ratio.subs(assignment))
            region = piece.region.subs(assignment)
            f = sp.lambdify(_free(ratio), ratio, "mpmath")
            for point in points(d):
                deadline.check()
                values = values_of(point)
                if not interior(region, values):
                    continue
                with mpmath.workdps(60):
                    args = [mp_value(values[s]) for s in _free(ratio)]
                    try:
                        quick = real_number(f(*args))
                    except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                        continue
                    if quick is None:
                        continue
                    if abs(quick) < mpmath.mpf(10) ** -45 and not _tiny_rational(ratio, values):
                        continue
                s_val = sp.N(_concrete(score.subs(assignment)).subs(values), 20)
                if not (s_val.is_real and s_val.is_finite):
                    continue
                exact = certify_nonzero(ratio, values)
                if exact is None:
                    continue
                return {
                    "d": d,
                    **_point_text(point),
                    "params": {p.name: assignment[p] for p in params},
                    "region": piece.region,
                    "residual_over_H": exact,
                    "value": sp.sstr(sp.N(exact, 30)),
                    "expert": "any h with h(x, eta) != 0 at this x (e.g. h = 1): the residual is "
                    "this value times exp(s) h(x, eta)",
                }, []
        lacking.append(piece)
    return None, lacking


def _tiny_rational(ratio: sp.Expr, values: Mapping[sp.Symbol, Any]) -> bool:
    """Whether a value too small for the quick mpmath test is an exact non-zero rational
    (then it is certified exactly, however small)."""
    if sp.count_ops(ratio) > 200:
        return False
    exact = ratio.xreplace(dict(values))
    return bool(exact.is_Rational and exact != 0)


def _free(expr: sp.Expr) -> list[sp.Symbol]:
    return sorted(expr.free_symbols, key=lambda s: s.name)


def _crosscheck(
    calls: ScoreCalls, dims: Sequence[int], pieces: Sequence[Piece], params: Sequence[sp.Symbol],
    invariants: bool, dps: int, deadline: Deadline, extra: Sequence[tuple[int, Any]] = (),
    per_dim: int = 2,
) -> dict[str, Any]:
    """mpmath derivative of the score itself vs the closed form, at rational points."""
    assignment = parameter_values(params)[0]
    tol = mpmath.mpf(10) ** -(dps * 5 // 8)
    rows: list[dict[str, Any]] = []
    todo: list[tuple[int, Any]] = list(extra)
    for d in dims:
        pts = points(d, limit=80)
        todo += [(d, p) for p in pts[1::11] + [q for i, q in enumerate(pts) if i % 11 != 1]]
    done = dict.fromkeys(dims, 0)
    seen: set[Any] = set()
    scores: dict[int, Callable[..., Any]] = {}
    closed_forms: dict[int, tuple[list[sp.Symbol], Callable[..., Any]]] = {}
    for d, point in todo:
        is_extra = (d, point) in extra
        if (d, point) in seen or (done.get(d, 0) >= per_dim and not is_extra):
            continue
        seen.add((d, point))
        deadline.check()
        s_d = calls.get(d)
        if isinstance(s_d, Exception):
            continue
        beta1, x = coordinates(d)
        coords = dict(zip([*beta1, *x], [*point[0], *point[1]], strict=True))
        values = {**(invariant_values(*point) if invariants else coords), **assignment}
        piece = next((p for p in pieces if interior(p.region.subs(assignment), values)), None)
        if piece is None:
            continue
        if d not in scores:
            scores[d] = sp.lambdify([*beta1, *x], _concrete(s_d.subs(assignment)), "mpmath")
        numeric = numeric_euler(scores[d], point, dps)
        if numeric is None:
            continue
        if id(piece) not in closed_forms:
            expr = _concrete(piece.ratio.subs(assignment))
            closed_forms[id(piece)] = (_free(expr), sp.lambdify(_free(expr), expr, "mpmath"))
        names, f = closed_forms[id(piece)]
        with mpmath.workdps(dps):
            try:
                closed = real_number(f(*[mp_value(values[s]) for s in names]))
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                closed = None
            if closed is None:
                continue
            err = abs(numeric - closed)
            ok = bool(err <= tol * max(1, abs(closed)))
        rows.append({"d": d, **_point_text(point), "numeric": mpmath.nstr(numeric, 20),
                     "closed_form": mpmath.nstr(closed, 20), "abs_error": float(err),
                     "agrees": ok})
        if not is_extra:
            done[d] = done.get(d, 0) + 1
    return {
        "dps": dps,
        "tol": f"1e-{dps * 5 // 8} (relative to max(1, |closed form|))",
        "params": {p.name: assignment[p] for p in params},
        "method": "d/dc s(c beta1, x) at c = 1 by mpmath.diff of the score as the callable "
        "builds it, against the closed form of the residual over H",
        "points": rows,
        "max_abs_error": max((r["abs_error"] for r in rows), default=None),
        "agrees": bool(rows) and all(r["agrees"] for r in rows),
    }


def _settle(
    pieces: list[Piece], witness: dict[str, Any] | None, lacking: list[Piece],
    undefined: bool, coords: Sequence[sp.Symbol] = (),
) -> tuple[Verdict, str]:
    """Verdict of one route from its pieces (before the cross-check); ``coords`` are the
    coordinates of the fixed-dimension route (pieces shown empty there are dropped)."""
    if witness is not None:
        return Verdict.REFUTED, "refuted"
    open_lacking = [p for p in lacking if not lower_dimensional(p.region)
                    and not empty_in_coordinates(p.region, coords)]
    if not open_lacking:
        return Verdict.PROVED, "proved"
    if undefined:
        return Verdict.INCONCLUSIVE, ("the residual contains an undefined function of the "
                                      "score; it is not 0 as an expression, but whether it "
                                      "vanishes depends on that function")
    return Verdict.INCONCLUSIVE, ("the residual does not simplify to 0 and no rational point "
                                  "where it is certified non-zero was found")


# ---------------------------------------------------------------------------------------------
# scopes: which dimensions a verdict covers
# ---------------------------------------------------------------------------------------------

#: The label of "every dimension d >= 2" (the invariant route) in a scope.
GE2 = ">= 2"


def dims_value(parts: Sequence[int | str]) -> Any:
    """``"all"`` (every d >= 1), ``">= 2"`` or the sorted list of dimensions in ``parts``."""
    ints = sorted({p for p in parts if isinstance(p, int)})
    if GE2 in parts:
        return "all" if 1 in ints else GE2
    return ints


def scope_of(verdicts: Mapping[int | str, Verdict]) -> dict[str, Any]:
    """The scope of the overall verdict: the refuted dimensions (the proved ones beside them,
    under ``"proved"``) or, with nothing refuted, the proved ones."""
    refuted = [k for k, v in verdicts.items() if v == Verdict.REFUTED]
    proved = [k for k, v in verdicts.items() if v == Verdict.PROVED]
    if refuted:
        scope = {"d": dims_value(refuted)}
        if proved:
            scope["proved"] = dims_value(proved)
        return scope
    return {"d": dims_value(proved)}


def _overall(verdicts: Mapping[int | str, Verdict]) -> Verdict:
    values = set(verdicts.values())
    if Verdict.REFUTED in values:
        return Verdict.REFUTED
    if Verdict.PROVED in values:
        return Verdict.PROVED
    return Verdict.INCONCLUSIVE


def label(part: int | str) -> str:
    """``d ≥ 2`` or ``d = 3``."""
    return "d ≥ 2" if part == GE2 else f"d = {part}"


# ---------------------------------------------------------------------------------------------
# the route for every dimension d >= 2
# ---------------------------------------------------------------------------------------------


def invariant_form(
    calls: ScoreCalls, dims: Sequence[int], deadline: Deadline,
) -> tuple[sp.Expr | None, str]:
    """``F(u, n_b, n_x)``, certified the same in each of ``dims`` (all >= 2), or None with the
    reason."""
    forms = []
    for d in dims:
        deadline.check()
        s_d = calls.get(d)
        if isinstance(s_d, Exception):
            return None, f"score(beta1, x) raised {_text(s_d)} in d = {d}"
        beta1, x = coordinates(d)
        try:
            forms.append(to_invariants(s_d, beta1, x))
        except NotInvariant as exc:
            return None, f"in d = {d}, {exc}"
    first = forms[0]
    for d, other in zip(dims[1:], forms[1:], strict=True):
        if other != first and sp.simplify(other - first) != 0:
            return None, (f"the score is a different function of (u, n_b, n_x) in d = "
                          f"{dims[0]} and d = {d} (it depends on the dimension)")
    return first, ""


def every_dimension(
    form: sp.Expr, calls: ScoreCalls, dims: Sequence[int], dps: int, deadline: Deadline,
    progress: Progress, h: sp.Expr,
) -> Decision:
    """Decide every d >= 2 through the invariant form, certified in each of ``dims``.

    In d >= 2 the invariants :math:`u, n_b, n_x` range over a set with interior
    (:math:`|u| < n_b n_x`), so a piece without interior in them has none in coordinates and
    the residual :math:`u F_u + n_b F_{n_b}` is 0 on an open piece only if it is identically 0
    there. d = 1 (where :math:`|u| = n_b n_x`) is never covered here.
    """
    progress.score = form
    params = _params(form, set(_INVARIANTS))
    progress.stage = "differentiating the invariant form"
    pieces = _pieces(form, None, None, deadline, progress)
    ratio = _ratio(pieces)
    progress.ratio = ratio
    progress.stage = "searching a point where the residual is non-zero"
    witness, lacking = _witness(
        pieces, params, 2, lambda p: invariant_values(*p), form, deadline)
    verdict, why = _settle(pieces, witness, lacking, has_undefined_function(form))
    progress.stage = "mpmath cross-check"
    checked = sorted({2, 3, *dims})
    extra = [(2, (tuple(sp.Rational(t) for t in witness["beta1"]),
                  tuple(sp.Rational(t) for t in witness["x"])))] if witness else []
    check = _crosscheck(calls, checked, pieces, params, True, dps, deadline, extra)
    certificate: dict[str, Any] = {
        "method": "Euler operator on the invariant form: beta1^T grad_beta1 s = "
        "d/dc s(c beta1, x) at c = 1 = u dF/du + n_b dF/dn_b (every d >= 2); d = 1 in "
        "coordinates",
        "method_latex": r"Euler operator on the invariant form: $\beta_1^\top \nabla_{\beta_1} s"
        r" = \frac{d}{dc} s(c\beta_1, x)\big|_{c=1} = u\,\partial F/\partial u + n_b\,"
        r"\partial F/\partial n_b$ (every $d \ge 2$); $d = 1$ in coordinates",
        "domain": "beta1 != 0, x != 0 (n_b, n_x > 0), hyper-parameters as declared; on the "
        "interior of each smooth piece",
        "reduction": {
            "invariant_form": form,
            "dimensions_certified": list(dims),
            "how": "each sub-expression polynomial in the coordinates rewritten in "
            "u = beta1^T x, n_b^2, n_x^2 and checked by expanding the difference to 0; the "
            "same F in each dimension certified",
            "d1": "not covered by the invariant form (in d = 1, |u| = n_b n_x); decided on its "
            "own in coordinates when asked",
            "premise": "for every d >= 2: score(beta1, x) builds the same formula in every "
            f"dimension (certified in d = {', '.join(map(str, dims))})",
        },
        "facts": [
            "beta1^T grad_beta1 f(beta1) = d/dc f(c beta1) at c = 1 (chain rule)",
            "(c beta1)^T x = c beta1^T x; ||c beta1|| = c ||beta1|| for c > 0",
            "h(x, eta) does not depend on beta1, so beta1^T dH/dbeta1 = "
            "H * d/dc s(c beta1, x) at c = 1",
            "in d >= 2, (u, n_b, n_x) fill the set |u| <= n_b n_x, which has interior",
        ],
        "pieces": [{"region": p.region, "score": p.score, "residual_over_H": p.ratio,
                    "zero": p.zero} for p in pieces],
        "zero_by": _zero_method(pieces) if verdict == Verdict.PROVED
        else "",
        "mpmath": check,
    }
    decision = Decision(verdict, why, {"d": GE2}, form, ratio, pieces,
                        _vanishing(pieces, h), witness, {}, certificate)
    _apply_crosscheck(decision)
    return decision


def decide(
    calls: ScoreCalls, dims: Sequence[int], dps: int, deadline: Deadline, progress: Progress,
    h: sp.Expr,
) -> Decision:
    """The verdict on the dimensions asked: every d >= 2 through the invariant form when it is
    certified in every asked d >= 2 (and 2, 3, 4), else each asked d in coordinates; d = 1
    always in coordinates, on its own."""
    general = [d for d in dims if d >= 2]
    if not general:
        return fixed_dimensions(calls, dims, dps, deadline, progress, h)
    progress.stage = "writing the score through beta1^T x, ||beta1||, ||x||"
    certify = sorted({*REDUCTION_DIMS, *general})
    form, why_not = invariant_form(calls, certify, deadline)
    if form is None:
        progress.notes.append(why_not)
        decision = fixed_dimensions(calls, dims, dps, deadline, progress, h)
        decision.certificate["not_invariant"] = why_not
        return decision
    high = every_dimension(form, calls, certify, dps, deadline, progress, h)
    verdicts: dict[int | str, Verdict] = {GE2: high.verdict}
    undecided: dict[str, str] = {}
    if high.verdict == Verdict.INCONCLUSIVE:
        undecided[label(GE2)] = high.reason
    if 1 in dims:
        one = fixed_dimensions(calls, (1,), dps, deadline, progress, h)
        row = one.per_dimension[1]
        high.per_dimension[1] = row
        verdicts[1] = row["verdict"]
        high.certificate["mpmath"] = _merge_checks([high.certificate["mpmath"],
                                                    row.get("mpmath")])
        high.certificate["reduction"]["d1"] = f"decided in coordinates: {row['verdict'].value}"
        if row["verdict"] == Verdict.INCONCLUSIVE:
            undecided[label(1)] = row["reason"]
        elif row.get("zero_by") and row["verdict"] == Verdict.PROVED:
            high.certificate["zero_by"] = "; ".join(
                t for t in (high.certificate["zero_by"], f"in dimension 1: {row['zero_by']}") if t)
        if high.verdict != Verdict.REFUTED and row["verdict"] == Verdict.REFUTED:
            high.counterexample = row["counterexample"]
    verdict = _overall(verdicts)
    high.certificate["undecided"] = undecided
    high.certificate["verdicts"] = {label(k): v for k, v in verdicts.items()}
    if verdict == Verdict.INCONCLUSIVE:
        high.reason = "; ".join(f"{k}: {why}" for k, why in undecided.items())
        return high
    high.verdict, high.reason, high.scope = verdict, verdict.value, scope_of(verdicts)
    return high


def _apply_crosscheck(decision: Decision) -> None:
    check = decision.certificate["mpmath"]
    if decision.verdict == Verdict.INCONCLUSIVE:
        return
    if not check["points"]:
        decision.verdict = Verdict.INCONCLUSIVE
        decision.reason = ("the mpmath cross-check found no rational point where the score is "
                           "defined and real")
    elif not check["agrees"]:
        decision.verdict = Verdict.INCONCLUSIVE
        decision.reason = ("the closed form and mpmath differentiation of the score disagree "
                           "at a rational point (see certificate['mpmath'])")


# ---------------------------------------------------------------------------------------------
# the route for fixed dimensions
# ---------------------------------------------------------------------------------------------


def _one_dimension(
    calls: ScoreCalls, d: int, dps: int, deadline: Deadline, progress: Progress, h: sp.Expr,
) -> dict[str, Any]:
    s_d = calls.get(d)
    if isinstance(s_d, Exception):
        return {"verdict": Verdict.INCONCLUSIVE,
                "reason": f"score(beta1, x) raised {_text(s_d)} in d = {d}"}
    beta1, x = coordinates(d)
    params = _params(s_d, set(beta1) | set(x))
    progress.stage = f"differentiating the score in d = {d}"
    try:
        pieces = _pieces(s_d, list(beta1), list(x), deadline, progress)
    except Refusal as exc:
        return {"verdict": Verdict.INCONCLUSIVE, "reason": str(exc)}
    progress.stage = f"searching a point where the residual is non-zero in d = {d}"

    def values_of(point: Any) -> dict[sp.Symbol, sp.Expr]:
        return dict(zip([*beta1, *x], [*point[0], *point[1]], strict=True))

    witness, lacking = _witness(pieces, params, d, values_of, s_d, deadline)
    verdict, why = _settle(pieces, witness, lacking, has_undefined_function(s_d),
                           [*beta1, *x])
    extra = [(d, (tuple(sp.Rational(t) for t in witness["beta1"]),
                  tuple(sp.Rational(t) for t in witness["x"])))] if witness else []
    progress.stage = f"mpmath cross-check in d = {d}"
    check = _crosscheck(calls, (d,), pieces, params, False, dps, deadline, extra)
    out = {"verdict": verdict, "reason": why, "score": s_d, "residual_over_H": _ratio(pieces),
           "pieces": pieces, "vanishing": _vanishing(pieces, h), "counterexample": witness,
           "zero_by": _zero_method(pieces)
           if verdict == Verdict.PROVED else "", "mpmath": check}
    decision = Decision(verdict, why, {}, certificate={"mpmath": check})
    _apply_crosscheck(decision)
    out["verdict"], out["reason"] = decision.verdict, decision.reason
    return out


def fixed_dimensions(
    calls: ScoreCalls, dims: Sequence[int], dps: int, deadline: Deadline, progress: Progress,
    h: sp.Expr,
) -> Decision:
    """Decide in each dimension of ``dims`` by explicit differentiation in coordinates."""
    per: dict[int, dict[str, Any]] = {}
    for d in dims:
        deadline.check()
        per[d] = _one_dimension(calls, d, dps, deadline, progress, h)
    verdicts: dict[int | str, Verdict] = {d: per[d]["verdict"] for d in dims}
    refuted = [d for d in dims if per[d]["verdict"] == Verdict.REFUTED]
    proved = [d for d in dims if per[d]["verdict"] == Verdict.PROVED]
    verdict = _overall(verdicts)
    cex = per[refuted[0]]["counterexample"] if refuted else None
    why = verdict.value if verdict != Verdict.INCONCLUSIVE else "; ".join(
        f"d = {d}: {per[d]['reason']}" for d in dims)
    open_ = [d for d in dims if per[d]["verdict"] == Verdict.INCONCLUSIVE]
    decided = [d for d in dims if per[d]["verdict"] != Verdict.INCONCLUSIVE]
    shown = refuted[0] if refuted else (decided[-1] if decided else dims[-1])
    certificate: dict[str, Any] = {
        "method": "explicit coordinates: sum_i beta1_i ds/dbeta1_i in each dimension",
        "method_latex": r"explicit coordinates: $\sum_i \beta_{1,i}\,\partial s/\partial "
        r"\beta_{1,i}$ in each dimension",
        "domain": "beta1 != 0, x != 0, hyper-parameters as declared; on the interior of each "
        "smooth piece",
        "mpmath": _merge_checks([per[d].get("mpmath") for d in dims]),
        "zero_by": "; ".join(f"in dimension {d}: {per[d]['zero_by']}" for d in proved
                             if per[d].get("zero_by")),
        "undecided": {label(d): per[d]["reason"] for d in open_},
        "verdicts": {label(d): per[d]["verdict"] for d in dims},
    }
    scope = scope_of(verdicts) if verdict != Verdict.INCONCLUSIVE else {"d": []}
    return Decision(
        verdict, why, scope,
        per[shown].get("score"), per[shown].get("residual_over_H"),
        list(per[shown].get("pieces", [])),
        per[shown].get("vanishing"), cex, per, certificate,
    )


def _merge_checks(checks: Sequence[Mapping[str, Any] | None]) -> dict[str, Any]:
    done = [c for c in checks if c]
    rows = [r for c in done for r in c["points"]]
    if not done:
        return {"points": [], "agrees": False, "max_abs_error": None}
    return {**done[0], "points": rows,
            "max_abs_error": max((r["abs_error"] for r in rows), default=None),
            "agrees": bool(rows) and all(c["agrees"] for c in done)}
