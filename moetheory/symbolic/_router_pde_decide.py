r"""The two routes of :func:`~moetheory.symbolic.router_pde.router_pde`.

*Every dimension*: the score, as the callable builds it in :math:`d = 2, 3, 4`, is rewritten
as one expression :math:`F(u, n_b, n_x)` (certified in each :math:`d`; checked against
:math:`d = 1` too); then :math:`\beta_1^\top\nabla_{\beta_1} s = \frac{d}{dc}F(cu, cn_b,
n_x)|_{c=1} = u F_u + n_b F_{n_b}` in every dimension at once.

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

from moetheory.engine.verdicts import Verdict
from moetheory.symbolic._router_pde_deadline import Deadline
from moetheory.symbolic._router_pde_invariants import (
    NotInvariant,
    substitute_coordinates,
    to_invariants,
)
from moetheory.symbolic._router_pde_pieces import (
    Piece,
    Refusal,
    certify_nonzero,
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
#: Dimensions of the mpmath cross-check of the every-dimension route.
CROSSCHECK_DIMS = (1, 2, 3)
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
    """The user's score called once per dimension (results and exceptions cached)."""

    def __init__(self, score: Callable[..., Any], convert: Callable[[Any, int], sp.Expr]):
        self._score = score
        self._convert = convert
        self._cache: dict[int, sp.Expr | Exception] = {}

    def get(self, d: int) -> sp.Expr | Exception:
        """``score(beta1, x)`` in coordinates of dimension ``d``, or the exception it raised."""
        if d not in self._cache:
            beta1, x = coordinates(d)
            try:
                raw = self._score(beta1, x)
            except Exception as exc:  # the user's code: recorded, reported per dimension
                self._cache[d] = exc
            else:
                self._cache[d] = self._convert(raw, d)
        return self._cache[d]


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
    return sp.Piecewise(*[(e, simplify_region(c)) for e, c in merged.args])


def _vanishing(pieces: Sequence[Piece], h: sp.Expr) -> Any:
    """The set where the residual is 0, as a SymPy condition (numerator factors = 0, per piece)."""
    parts = []
    for p in pieces:
        if p.zero:
            parts.append(p.region)
            continue
        factors = _factors(p.ratio)
        zero = sp.Or(*[sp.Eq(f, 0) for f in factors]) if factors else sp.false
        parts.append(simplify_region(sp.And(p.region, zero)))
    if all(p.zero for p in pieces):
        return sp.true
    return simplify_region(sp.Or(*parts, sp.Eq(h, 0)))


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
                    if quick is None or abs(quick) < mpmath.mpf(10) ** -45:
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
    undefined: bool,
) -> tuple[Verdict, str]:
    """Verdict of one route from its pieces (before the cross-check)."""
    if witness is not None:
        return Verdict.REFUTED, "refuted"
    open_lacking = [p for p in lacking if not lower_dimensional(p.region)]
    if not open_lacking:
        return Verdict.PROVED, "proved"
    if undefined:
        return Verdict.INCONCLUSIVE, ("the residual contains an undefined function of the "
                                      "score; it is not 0 as an expression, but whether it "
                                      "vanishes depends on that function")
    return Verdict.INCONCLUSIVE, ("the residual does not simplify to 0 and no rational point "
                                  "where it is certified non-zero was found")


# ---------------------------------------------------------------------------------------------
# the route for every dimension
# ---------------------------------------------------------------------------------------------


def invariant_form(calls: ScoreCalls, deadline: Deadline) -> tuple[sp.Expr | None, str]:
    """``F(u, n_b, n_x)``, the same in d = 2, 3, 4, or None with the reason."""
    forms = []
    for d in REDUCTION_DIMS:
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
    for d, other in zip(REDUCTION_DIMS[1:], forms[1:], strict=True):
        if other != first and sp.simplify(other - first) != 0:
            return None, (f"the score is a different function of (u, n_b, n_x) in d = "
                          f"{REDUCTION_DIMS[0]} and d = {d} (it depends on the dimension)")
    return first, ""


def agrees_in_dimension_one(form: sp.Expr, calls: ScoreCalls, deadline: Deadline) -> str | None:
    """How the d = 1 score was shown equal to ``F(b1 x1, |b1|, |x1|)``, or None."""
    s_1 = calls.get(1)
    if isinstance(s_1, Exception):
        return None
    beta1, x = coordinates(1)
    candidate = substitute_coordinates(form, beta1, x)
    if candidate == s_1:
        return "identical expressions"
    deadline.check()
    diff = sp.sympify(s_1 - candidate)
    try:
        if sp.cancel(sp.together(diff)) == 0:
            return "difference cancels to 0"
    except (sp.PolynomialError, TypeError, ValueError):
        pass
    try:
        if sp.simplify(diff) == 0:
            return "difference simplifies to 0"
    except (TypeError, ValueError):
        pass
    return None


def every_dimension(
    form: sp.Expr, calls: ScoreCalls, dims: Sequence[int], dps: int, deadline: Deadline,
    progress: Progress, h: sp.Expr,
) -> Decision:
    """Decide through the invariant form, for every d (d = 1 explicitly if it must be)."""
    progress.score = form
    progress.stage = "checking the invariant form in d = 1"
    d1 = agrees_in_dimension_one(form, calls, deadline)
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
    checked_dims = CROSSCHECK_DIMS if d1 else tuple(d for d in CROSSCHECK_DIMS if d > 1)
    extra = [(2, (tuple(sp.Rational(t) for t in witness["beta1"]),
                  tuple(sp.Rational(t) for t in witness["x"])))] if witness else []
    check = _crosscheck(calls, checked_dims, pieces, params, True, dps, deadline, extra)
    certificate: dict[str, Any] = {
        "method": "Euler operator on the invariant form: beta1^T grad_beta1 s = "
        "d/dc s(c beta1, x) at c = 1 = u dF/du + n_b dF/dn_b",
        "domain": "beta1 != 0, x != 0 (n_b, n_x > 0), hyper-parameters as declared; on the "
        "interior of each smooth piece",
        "reduction": {
            "invariant_form": form,
            "dimensions_certified": list(REDUCTION_DIMS),
            "how": "each sub-expression polynomial in the coordinates rewritten in "
            "u = beta1^T x, n_b^2, n_x^2 and checked by expanding the difference to 0; the "
            "same F in every dimension certified",
            "d1": d1 or "not shown equal; decided separately in coordinates",
            "premise": "score(beta1, x) builds the same formula in every dimension (it does "
            f"in d = {', '.join(map(str, REDUCTION_DIMS))}{' and 1' if d1 else ''})",
        },
        "facts": [
            "beta1^T grad_beta1 f(beta1) = d/dc f(c beta1) at c = 1 (chain rule)",
            "(c beta1)^T x = c beta1^T x; ||c beta1|| = c ||beta1|| for c > 0",
            "h(x, eta) does not depend on beta1, so beta1^T dH/dbeta1 = "
            "H * d/dc s(c beta1, x) at c = 1",
        ],
        "pieces": [{"region": p.region, "score": p.score, "residual_over_H": p.ratio,
                    "zero": p.zero} for p in pieces],
        "zero_by": _zero_method(pieces) if verdict == Verdict.PROVED
        else "",
        "mpmath": check,
    }
    decision = Decision(verdict, why, {"d": "all" if d1 else ">= 2"}, form, ratio, pieces,
                        _vanishing(pieces, h), witness, {}, certificate)
    if not d1:
        _merge_dimension_one(decision, calls, dps, deadline, progress, h)
    _apply_crosscheck(decision)
    return decision


def _merge_dimension_one(
    decision: Decision, calls: ScoreCalls, dps: int, deadline: Deadline, progress: Progress,
    h: sp.Expr,
) -> None:
    """d = 1 decided in coordinates when the invariant form was not shown to hold there."""
    if isinstance(calls.get(1), Exception):
        decision.certificate["reduction"]["d1"] = (
            f"score(beta1, x) raised {_text(calls.get(1))} in d = 1: not decided")
        return
    one = fixed_dimensions(calls, (1,), dps, deadline, progress, h)
    decision.per_dimension[1] = one.per_dimension[1]
    v1 = one.verdict
    if v1 == Verdict.INCONCLUSIVE:
        decision.certificate["reduction"]["d1"] += f" (d = 1: inconclusive, {one.reason})"
        return
    decision.scope = {"d": "all"}
    if decision.verdict == Verdict.PROVED and v1 == Verdict.REFUTED:
        decision.verdict, decision.reason = Verdict.REFUTED, "refuted"
        decision.counterexample = one.counterexample


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
    verdict, why = _settle(pieces, witness, lacking, has_undefined_function(s_d))
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
    refuted = [d for d in dims if per[d]["verdict"] == Verdict.REFUTED]
    proved = [d for d in dims if per[d]["verdict"] == Verdict.PROVED]
    if refuted:
        first = per[refuted[0]]
        verdict, why, cex = Verdict.REFUTED, "refuted", first["counterexample"]
    elif proved:  # the scope says which dimensions: those proved
        verdict, why, cex = Verdict.PROVED, "proved", None
    else:
        verdict, cex = Verdict.INCONCLUSIVE, None
        why = "; ".join(f"d = {d}: {per[d]['reason']}" for d in dims)
    open_ = [d for d in dims if per[d]["verdict"] == Verdict.INCONCLUSIVE]
    decided = [d for d in dims if per[d]["verdict"] != Verdict.INCONCLUSIVE]
    shown = refuted[0] if refuted else (decided[-1] if decided else dims[-1])
    certificate: dict[str, Any] = {
        "method": "explicit coordinates: sum_i beta1_i ds/dbeta1_i in each dimension",
        "domain": "beta1 != 0, x != 0, hyper-parameters as declared; on the interior of each "
        "smooth piece",
        "mpmath": _merge_checks([per[d].get("mpmath") for d in dims]),
        "zero_by": "; ".join(f"d = {d}: {per[d]['zero_by']}" for d in proved
                             if per[d].get("zero_by")),
        "undecided": {d: per[d]["reason"] for d in open_},
    }
    return Decision(
        verdict, why, {"d": decided},
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
