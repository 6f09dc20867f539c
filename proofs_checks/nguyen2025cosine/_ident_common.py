"""The machinery of the strong-identifiability checks (:mod:`.identifiability`,
:mod:`.identifiability_two_layer`): a decision per reading of Definition 1 turned into the
verdict of the seed's statement, the literal reading (every d, all atoms, every k), input
dimension 2 decided on R^2, the general identities, and the outcome of one expert family.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import sympy as sp

from moetheory import Outcome, Reading, Verdict, claim
from moetheory.engine.registry import CheckFunction
from moetheory.engine.shared import shared
from moetheory.engine.verdicts import symbolic_evidence
from moetheory.symbolic import identifiable as _public
from moetheory.symbolic.experts import gelu, get_expert, relu
from moetheory.symbolic.identifiability import (
    PRIMARY_READING,
    READINGS,
    IdentifiabilityDecision,
    IdentifiabilityReading,
    router_multiplier_ratio,
)

__all__: list[str] = []

_SCOPE = (
    "primary reading 'literal': Definition 1 as the seeds state it -- the pcos-2 family, every "
    "input dimension d, all pairwise distinct atoms, every k; it is refuted by one exact "
    "dependence (at any d, atoms, k) and never proved by finitely many certificates. The other "
    "readings fix d = 1 (or d = 2, marked 'd=2', decided on R^2: a curve screens and a "
    "dependence is lifted to an identity on R^2), k = 2 generic rational atoms (see each "
    "reading's structured scope: d, k, atoms), tau2 = 1, hidden width 1 for two-layer experts "
    "(also width 2 in the full profile). An independence certificate covers almost every atom "
    "tuple for experts analytic in their parameters and an open set of atom tuples otherwise"
)


def _identifiable(expert: Any, reading: str | IdentifiabilityReading, **kw: Any) -> Any:
    """The catalogue's decisions go through the public :func:`moetheory.symbolic.identifiable.
    identifiable` (one reading at a time, no time limit so that reports stay identical, the
    certificate rechecked by the tests rather than at every run); the decision it made."""
    res = _public.identifiable(expert, reading=reading, others=False, timeout=None,
                               recheck=False, **kw)
    return res.decision


@shared(maxsize=256)
def _decision(expert_name: str, reading_name: str) -> IdentifiabilityDecision:
    return _identifiable(get_expert(expert_name), reading_name)


def _identity(name: str, expr: sp.Expr) -> dict[str, Any]:
    """A general identity ``expr = 0``, decided by simplification (recorded either way)."""
    residual = sp.simplify(expr)
    return {"identity": name, "holds": bool(residual == 0), "residual": symbolic_evidence(residual)}


def _reading(decision: IdentifiabilityDecision, says_identifiable: bool, label: str = "",
             name: str | None = None) -> Reading:
    """Turn a decision into the verdict of the seed's statement under that reading."""
    v = decision.verdict
    if not says_identifiable and v.is_exact:
        v = Verdict.REFUTED if v is Verdict.PROVED else Verdict.PROVED
    claim_text = "strongly identifiable" if says_identifiable else "NOT strongly identifiable"
    prefix = f"{label}: " if label else ""
    return Reading(
        name or (f"{decision.reading.name}" + (f" [{label}]" if label else "")),
        f"{prefix}claim '{claim_text}' under {decision.reading.statement()}",
        v,
        f"{prefix}{decision.summary}",
        evidence=decision.evidence(),
        derivation=decision.derivation(),
        reading_latex=(f"{prefix}claim *{claim_text}*, $d = {decision.dimension}$, "
                       f"$k = {decision.reading.atoms}$: " + decision.reading.reading_latex()),
    )


@shared(maxsize=1)
def _definition_derivation() -> str:
    c1, c2 = router_multiplier_ratio(1), router_multiplier_ratio(2)
    return (
        "Reconstructed Definition 1. With $u = x/(|x|+\\tau_2)$ the router derivatives give "
        "$\\partial_{\\beta_1}^{\\nu} e^{\\beta_1 x/((\\beta_1+\\tau_1)(|x|+\\tau_2))} = "
        "e^{(\\cdot)}(c_\\nu u^\\nu + \\text{lower powers})$ with, computed by SymPy, "
        f"$c_1 = {sp.latex(c1)}$ and $c_2 = {sp.latex(c2)}$ (nonzero for $\\tau_1 > 0$, zero "
        "for the plain cosine router). So the Taylor terms of one atom span the same space as "
        "$u^\\nu \\partial^\\gamma_\\eta h$. Scope: " + _SCOPE + "."
    )


def _family_outcome(readings: list[Reading], identities: list[dict[str, Any]],
                    extra: dict[str, Any] | None = None) -> Outcome:
    by_verdict: dict[str, list[str]] = {}
    for r in readings:
        by_verdict.setdefault(Verdict(r.verdict).value, []).append(r.name)
    primary = readings[0]
    others = "; ".join(f"{k}: {', '.join(v)}" for k, v in by_verdict.items())
    summary = f"{primary.name}: {Verdict(primary.verdict).value} ({primary.summary}) | {others}"
    evidence: dict[str, Any] = {
        "verdict_by_reading": {r.name: Verdict(r.verdict).value for r in readings},
        "scope": dict(primary.evidence.get("scope", {})),
        "scope_note": _SCOPE,
        "general_identities": identities,
        **(extra or {}),
    }
    out = Outcome.from_readings(readings, summary=summary, **evidence)
    table = "\n".join(
        f"| `{r.name}` | {Verdict(r.verdict).value} | {r.summary.replace('|', '/')} |"
        for r in readings
    )
    ids = "\n".join(
        f"- {i['identity']}: residual ${i['residual']['latex']}$" for i in identities
    )
    out.derivation = (
        _definition_derivation()
        + "\n\n| reading | verdict | why |\n|---|---|---|\n" + table
        + ("\n\nGeneral identities (all parameter values):\n\n" + ids if ids else "")
        + "\n\n" + primary.derivation
    )
    return out


def _all_readings(expert_name: str, says: bool, label: str = "") -> list[Reading]:
    return [_reading(_decision(expert_name, r), says, label) for r in READINGS]


#: Input dimension 2 along the curve x = (t, t^3): its monomials of degree <= 2 (t, t^3, t^2,
#: t^4, t^6) are distinct, so the curve creates no relation among the family's monomials.
_CURVE = (sp.Symbol("x", real=True), sp.Symbol("x", real=True) ** 3)

_X1, _X2 = sp.symbols("x1 x2", real=True)


def _curve_expert(kind: str, c1: sp.Expr, c2: sp.Expr) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
    """The expert with input (c1, c2): a point of the curve, or free coordinates of R^2."""
    a1, a2, b = sp.symbols("a1 a2 b", real=True)
    z = a1 * c1 + a2 * c2 + b
    if kind == "ffn-relu":
        return relu(z), (a1, a2, b)
    if kind == "ffn-tanh":
        return sp.tanh(z), (a1, a2, b)
    if kind == "ffn-poly3":
        return z**3, (a1, a2, b)
    w11, w12, b1, w2 = sp.symbols("W1_11 W1_12 b1 W2", real=True)
    return gelu(w11 * c1 + w12 * c2 + b1) * w2, (w11, w12, b1, w2)




@shared(maxsize=256)
def _rd_decision(kind: str, rname: str) -> IdentifiabilityDecision:
    """d = 2 on R^2: screened on the curve (t, t^3); a dependence is reported only once its
    combination is an identity on all of R^2."""
    expr, params = _curve_expert(kind, _X1, _X2)
    return _identifiable(expr, rname, x=(_X1, _X2), params=params)  # curve parameter t


def _curve_readings(kind: str, names: tuple[str, ...], label: str = "") -> list[Reading]:
    """Input dimension 2, decided on R^2 (see :func:`_rd_decision`)."""
    out = []
    for rname in names:
        d = _rd_decision(kind, rname)
        tag = "d=2" + (f", {label}" if label else "")
        r = _reading(d, True, tag)
        r.reading = (f"Input dimension 2 on R^2, parameters {[str(p) for p in d.params]}: "
                     "independence on the screening curve (t, t^3) proves independence on "
                     "R^2; a dependence counts only as an identity on R^2. " + r.reading)
        out.append(r)
    return out


def _literal(says: bool, decisions: list[IdentifiabilityDecision],
             general: list[dict[str, Any]]) -> Reading:
    """The most literal reading: pcos-2, every d, all pairwise distinct atoms, every k.

    ``decisions`` are pcos-2 decisions (any d, atoms, k); ``general`` are general identities
    that make the pcos-2 family dependent at *every* atom (with their scope). One exact
    dependence refutes "strongly identifiable" (and proves "not strongly identifiable");
    independence certificates at finitely many atoms never prove the universal statement.
    """
    deps = [d for d in decisions if d.verdict is Verdict.REFUTED]
    gens = [g for g in general if g["holds"]]
    inds = [d for d in decisions if d.verdict is Verdict.PROVED]
    scope = {"d": "every d >= 1", "atoms": "all pairwise distinct atoms", "k": "every k >= 1",
             "orders": [0, 2], "semantics": "list"}
    if deps or gens:
        every_atom = [g["short"] for g in gens if "every atom tuple" in g["scope"]]
        where = (every_atom
                 + [f"at d = {d.dimension}, k = {d.reading.atoms}, atoms {d.scope()['at']}: "
                    f"{d.summary.split('; scope')[0]}" for d in deps]
                 + [g["short"] for g in gens if g["short"] not in every_atom])
        verdict = Verdict.REFUTED if says else Verdict.PROVED
        why = "exact dependence: " + where[0] + (f" (+{len(where) - 1} more)" if len(where) > 1
                                                 else "")
    else:
        verdict = Verdict.INCONCLUSIVE
        shown = "; ".join(d.scope_text() for d in inds) or "nothing"
        why = ("no dependence found, but the universal statement (every d, all atoms, every k) "
               f"is not covered by the certificates: {shown}")
    claim_text = "strongly identifiable" if says else "NOT strongly identifiable"
    return Reading(
        "literal",
        f"claim '{claim_text}' under Definition 1 read literally: the pcos-2 family "
        "(u^nu d^gamma h, 0 <= |nu| + |gamma| <= 2, u = x/(||x||+tau2), list semantics) is "
        "linearly independent for EVERY input dimension d, EVERY pairwise distinct atoms and "
        "EVERY k",
        verdict, why,
        reading_latex=(f"claim *{claim_text}* for **every** input dimension $d$, **all** "
                       r"pairwise distinct atoms and **every** $k$: "
                       + READINGS[PRIMARY_READING].reading_latex()),
        evidence={"scope": scope,
                  "dependences": [d.evidence() for d in deps],
                  "general_dependences": gens,
                  "independent_at": [d.scope() for d in inds]},
        derivation="\n\n".join([d.derivation() for d in deps[:1]] or
                                 [d.derivation() for d in inds[:1]]),
    )


def _literal_primary(says: bool, experts: Iterable[str],
                     more: Iterable[IdentifiabilityDecision] = (),
                     general: Iterable[dict[str, Any]] = ()) -> Reading:
    """:func:`_literal` as every check calls it: the primary-reading decisions of the named
    ``experts`` (then the ``more`` decisions), and the ``general`` identities followed by the
    ridge identity of every d >= 2 (:func:`_ridge_general`)."""
    decisions = [*(_decision(name, PRIMARY_READING) for name in experts), *more]
    return _literal(says, decisions, [*general, _ridge_general()])


def _expert_claim(claim_id: str, expert: str, statement: str, sources: dict[str, list[int]],
                  statement_latex: str | None = None) -> Callable[[CheckFunction], CheckFunction]:
    """``@claim`` of a seed's statement that one expert is (or is not) strongly identifiable:
    decided under the primary reading of Definition 1 for ``expert`` (its formula, and what the
    seed claims when that is not identifiability), the seed lines ``sources``, no audit rows."""
    return claim(claim_id, reading=READINGS[PRIMARY_READING].statement() + " Expert " + expert,
                 statement=statement, statement_latex=statement_latex, sources=sources,
                 covers=[], origin="seed")


def _ridge_general() -> dict[str, Any]:
    out = _ridge_symmetry()
    out["short"] = ("for every d >= 2 and every atom: u_2 dh/da_1 - u_1 dh/da_2 = 0 "
                    "(any activation)")
    out["scope"] = ("every d >= 2, every atom, any activation phi, every hidden width "
                    "(unit by unit): the terms u_2 dh/da_1 and u_1 dh/da_2 are both in the "
                    "pcos-2 family")
    return out


_A, _B, _X = sp.symbols("a b x", real=True)

_PHI = sp.Function("phi")


def _ridge_symmetry() -> dict[str, Any]:
    a1, a2 = sp.symbols("a1 a2", real=True)
    tau2 = sp.Symbol("tau2", positive=True)
    h = _PHI(a1 * _X1 + a2 * _X2 + _B)
    norm = sp.sqrt(_X1**2 + _X2**2) + tau2
    return _identity(
        "d >= 2, any phi(a^T x + b): u_2 dh/da_1 - u_1 dh/da_2 = 0 with u_i = x_i/(|x|+tau2) "
        "(kills every reading with u_i dh/da_j terms, e.g. pcos-2, when d >= 2)",
        _X2 / norm * sp.diff(h, a1) - _X1 / norm * sp.diff(h, a2),
    )
