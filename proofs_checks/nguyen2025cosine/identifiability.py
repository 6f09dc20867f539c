"""Checks of the strong-identifiability claims (seeds 002 and 000) and the polynomial identity.

Each ``pcr.ident.*`` claim's primary reading is the most literal one (``literal``): the pcos-2
family of Definition 1 for EVERY input dimension d, ALL pairwise distinct atoms and EVERY k.
One exact dependence refutes it ("strongly identifiable" claims) or proves it ("not strongly
identifiable" claims); certificates at finitely many atoms never prove the universal
statement, so without a dependence it is ``inconclusive``. Beside it, every reading of
:data:`moetheory.symbolic.identifiability.READINGS` is decided at generic rational atoms (d = 1),
the
sign-flipped symmetry orbit (η, −η) is searched for exceptions, and d = 2 is decided on R^2
(dependences lifted to identities on R^2). Every per-reading verdict carries its scope
(``d``, ``k``, ``atoms``) as structured evidence. General identities, checked symbolically for
all parameter values (any activation, unit by unit for two-layer experts), are listed under
``general_identities``.
"""

from __future__ import annotations

import itertools
from typing import Any

import sympy as sp

from moetheory import CheckContext, Outcome, Reading, Verdict, claim
from moetheory.engine.shared import shared
from moetheory.engine.verdicts import symbolic_evidence
from moetheory.symbolic.experts import Expert, gelu, get_expert, relu, two_layer
from moetheory.symbolic.identifiability import (
    PRIMARY_READING,
    READINGS,
    IdentifiabilityDecision,
    IdentifiabilityReading,
    decide,
    decide_all_atoms,
    default_atoms,
    router_multiplier_ratio,
)
from moetheory.symbolic.pole_route import decide_ridge_all_atoms

__all__ = [
    "check_consistency",
    "check_ffn_gelu",
    "check_ffn_poly",
    "check_ffn_relu",
    "check_ffn_tanh",
    "check_linear",
    "check_linear_router_ffn",
    "check_poly_identity",
    "check_poly_identity_corrected",
    "check_two_layer_gelu",
    "check_two_layer_relu_bias",
    "check_two_layer_relu_nobias",
]

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


@shared(maxsize=256)
def _decision(expert_name: str, reading_name: str) -> IdentifiabilityDecision:
    return decide(get_expert(expert_name), reading_name)


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


_T = sp.Symbol("t", real=True)


@shared(maxsize=256)
def _rd_decision(kind: str, rname: str) -> IdentifiabilityDecision:
    """d = 2 on R^2: screened on the curve (t, t^3); a dependence is reported only once its
    combination is an identity on all of R^2."""
    expr, params = _curve_expert(kind, _X1, _X2)
    return decide(expr, rname, x=_T, params=params, inputs=(_X1, _X2))


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


def _all_atoms(expert_name: str, rname: str, says: bool,
               label: str = "") -> tuple[Reading, dict[str, Any] | None]:
    """The reading decided for ALL atoms by exact elimination, and (when dependent for every
    atom tuple) the general dependence it gives the literal reading."""
    d = decide_all_atoms(get_expert(expert_name), rname)
    v = d.verdict
    if not says and v.is_exact:
        v = Verdict.REFUTED if v is Verdict.PROVED else Verdict.PROVED
    prefix = f"{label}: " if label else ""
    claim_text = "strongly identifiable" if says else "NOT strongly identifiable"
    reading = Reading(
        f"{rname}-all-atoms" + (f" [{label}]" if label else ""),
        f"{prefix}claim '{claim_text}' for EVERY atom tuple (exact elimination over "
        f"Q(atoms)) under {d.reading.statement()}",
        v, prefix + d.summary, evidence=d.evidence(),
        reading_latex=(f"{prefix}claim *{claim_text}* for **every** atom tuple, $d = 1$: "
                       + d.reading.reading_latex()),
    )
    general = None
    if d.verdict is Verdict.REFUTED and rname == PRIMARY_READING:
        general = {"identity": f"{prefix}{d.summary}", "holds": True,
                   "short": f"{prefix}at d = 1 the {rname} family is dependent for every atom "
                            "tuple (exact elimination)",
                   "scope": "d = 1, every atom tuple"}
    return reading, general


def _pole_reading(activation: str, rname: str, says: bool, label: str = "") -> Reading:
    """The reading decided for EVERY k and ALL atoms by the singularity route (d = 1)."""
    d = decide_ridge_all_atoms(activation, rname)
    v = d.verdict
    if not says and v.is_exact:
        v = Verdict.REFUTED if v is Verdict.PROVED else Verdict.PROVED
    prefix = f"{label}: " if label else ""
    claim_text = "strongly identifiable" if says else "NOT strongly identifiable"
    return Reading(
        f"{rname}-all-atoms" + (f" [{label}]" if label else ""),
        f"{prefix}claim '{claim_text}' for EVERY k and ALL pairwise distinct atoms (outside "
        f"the named exceptional set), d = 1, every tau2 > 0, under {d.reading.statement()}",
        v, prefix + d.summary, evidence=d.evidence(), derivation=d.derivation(),
        reading_latex=(f"{prefix}claim *{claim_text}* for **every** $k$ and **all** pairwise "
                       r"distinct atoms outside $\{a_j = 0\} \cup \{\eta_i = -\eta_j\}$, "
                       "$d = 1$: " + d.reading.reading_latex()),
    )


def _pole_readings(expert_name: str, activation: str, says: bool,
                   label: str = "") -> list[Reading]:
    """Every reading: for all atoms by the singularity route where it decides (all but the
    primary, which keeps its certificate at generic atoms beside the all-atoms one), else at
    generic atoms."""
    out = []
    for rname in READINGS:
        pole = _pole_reading(activation, rname, says, label)
        if rname == PRIMARY_READING or not pole.verdict.is_exact:
            out.append(_reading(_decision(expert_name, rname), says, label))
        if pole.verdict.is_exact:
            out.append(pole)
    return out


def _orbit(expert_name: str) -> IdentifiabilityDecision:
    """The primary family at the sign-flipped pair (η, −η): the symmetry orbit where odd or
    even activations (and those with an odd or even derivative) have exceptions."""
    e = get_expert(expert_name)
    base = default_atoms(e.params, 1)[0]
    return decide(e, PRIMARY_READING, atoms=[base, {p: -v for p, v in base.items()}])


def _orbit_reading(expert_name: str, says: bool, label: str = "") -> tuple[
        Reading, IdentifiabilityDecision]:
    d = _orbit(expert_name)
    r = _reading(d, says, label, name="pcos-2-flipped-atoms" + (f" [{label}]" if label else ""))
    r.reading = ("Symmetry orbit: the pcos-2 family at the sign-flipped atoms eta_2 = -eta_1 "
                 "(d = 1), where odd or even activations have exceptions. " + r.reading)
    return r, d


def _ridge_general() -> dict[str, Any]:
    out = _ridge_symmetry()
    out["short"] = ("for every d >= 2 and every atom: u_2 dh/da_1 - u_1 dh/da_2 = 0 "
                    "(any activation)")
    out["scope"] = ("every d >= 2, every atom, any activation phi, every hidden width "
                    "(unit by unit): the terms u_2 dh/da_1 and u_1 dh/da_2 are both in the "
                    "pcos-2 family")
    return out


# ----------------------------------------------------------------------------- identities

_A, _B, _X = sp.symbols("a b x", real=True)
_PHI = sp.Function("phi")


def _relu_identities() -> list[dict[str, Any]]:
    e = get_expert("ffn-relu")
    a, b = e.params
    on = a * e.x + b  # the active branch; the inactive branch is identically 0
    return [
        _identity("ReLU active branch: h - a dh/da - b dh/db = 0 (positive homogeneity)",
                  on - a * sp.diff(on, a) - b * sp.diff(on, b)),
        _identity("ReLU active branch: d2h/da2 = 0, so d2h/da2 = 0 a.e.", sp.diff(on, a, 2)),
        _identity("ReLU active branch: d2h/db2 = 0, so d2h/db2 = 0 a.e.", sp.diff(on, b, 2)),
    ]


def _linear_router_identity() -> dict[str, Any]:
    h = _PHI(_A * _X + _B)
    return _identity("any phi(a x + b): dh/da - x dh/db = 0 (kills every linear-router reading)",
                     sp.diff(h, _A) - _X * sp.diff(h, _B))


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


def _two_layer_identities(last_bias: bool) -> list[dict[str, Any]]:
    w1, b1, w2, b2 = sp.symbols("W1 b1 W2 b2", real=True)
    h = _PHI(w1 * _X + b1) * w2 + (b2 if last_bias else 0)
    ids = [_identity("any phi, any width (per unit): d2h/dW2^2 = 0", sp.diff(h, w2, 2))]
    if last_bias:
        ids.append(_identity("d2h/db2^2 = 0", sp.diff(h, b2, 2)))
        ids.append(_identity("d2h/db2 dW2 = 0", sp.diff(h, b2, w2)))
        h2 = h.subs({w1: w1 + 1, b1: b1 - 1, w2: 2 * w2, b2: b2 + 3}, simultaneous=True)
        ids.append(_identity("dh/db2 = 1 at every atom: dh/db2(eta_1) - dh/db2(eta_2) = 0 "
                             "(fails every reading with k >= 2 atoms and first derivatives)",
                             sp.diff(h, b2) - sp.diff(h2, b2)))
    else:
        ids.append(_identity("h - W2 dh/dW2 = 0 (order 0 vs first order)",
                             h - w2 * sp.diff(h, w2)))
    relu_on = (w1 * _X + b1) * w2
    ids.append(_identity(
        "ReLU unit, active branch: W2 dh/dW2 - W1 dh/dW1 - b1 dh/db1 = 0",
        w2 * sp.diff(relu_on, w2) - w1 * sp.diff(relu_on, w1) - b1 * sp.diff(relu_on, b1),
    ))
    return ids


# ----------------------------------------------------------------------------- claims


@claim("pcr.ident.ffn-relu", reading=READINGS[PRIMARY_READING].statement()
       + " Expert h(x,(a,b)) = ReLU(a x + b).")
def check_ffn_relu(ctx: CheckContext) -> Outcome:
    """002: ReLU(aᵀx+b) is strongly identifiable -- decided per reading."""
    readings = _all_readings("ffn-relu", True)
    readings += _curve_readings("ffn-relu", ("pcos-1-no-order0",))
    orbit, flipped = _orbit_reading("ffn-relu", True)
    readings.insert(1, orbit)
    literal = _literal(True, [_decision("ffn-relu", PRIMARY_READING), flipped],
                       [_ridge_general()])
    return _family_outcome([literal, *readings],
                           [*_relu_identities(), _linear_router_identity(), _ridge_symmetry()])


@claim("pcr.ident.ffn-tanh", reading=READINGS[PRIMARY_READING].statement()
       + " Expert h(x,(a,b)) = tanh(a x + b).")
def check_ffn_tanh(ctx: CheckContext) -> Outcome:
    """002: tanh(aᵀx+b) is strongly identifiable -- per reading, plus the literal quantifier."""
    readings = _pole_readings("ffn-tanh", "tanh", True)
    e = get_expert("ffn-tanh")
    a, b = e.params
    orbit, flipped = _orbit_reading("ffn-tanh", True)
    rd = _curve_readings("ffn-tanh", (PRIMARY_READING, "pcos-1-no-order0"))
    readings[2:2] = [orbit, *rd]
    literal = _literal(True, [_decision("ffn-tanh", PRIMARY_READING), flipped,
                              _rd_decision("ffn-tanh", PRIMARY_READING)], [_ridge_general()])
    literal.evidence = {**literal.evidence, "independent_for_all_atoms": readings[1].evidence[
        "scope"]}
    ident = _identity("tanh is odd: h(x,-a,-b) + h(x,a,b) = 0",
                      e.expr.subs({a: -a, b: -b}, simultaneous=True) + e.expr)
    return _family_outcome([literal, *readings],
                           [ident, _linear_router_identity(), _ridge_symmetry()])


@claim("pcr.ident.ffn-poly", reading=READINGS[PRIMARY_READING].statement()
       + " Expert h(x,(a,b)) = (a x + b)^p for p = 2 (primary) and p = 3.")
def check_ffn_poly(ctx: CheckContext) -> Outcome:
    """002: (aᵀx+b)^p, p ≥ 2, is strongly identifiable -- p = 2 and 3, per reading."""
    readings = _all_readings("ffn-poly2", True, "p=2") + _all_readings("ffn-poly3", True, "p=3")
    e3 = get_expert("ffn-poly3")
    k3 = IdentifiabilityReading(
        "pcos-1-no-order0-k3", "perturbed-cosine", 1, 1, 3,
        "First-order terms, no order-0 term, k = 3 atoms: the 2k = 6 functions d_a h, d_b h "
        "lie in the 4-dimensional space of cubics, so they must be dependent.",
    )
    d_k3 = decide(e3, k3)
    readings.append(_reading(d_k3, True, "p=3"))
    readings += _curve_readings("ffn-poly3", ("pcos-1-no-order0",), "p=3")
    orbits = [_orbit_reading(f"ffn-poly{p}", True, f"p={p}") for p in (2, 3)]
    everywhere = [_all_atoms(f"ffn-poly{p}", rname, True, f"p={p}")
                  for p in (2, 3) for rname in (PRIMARY_READING, "pcos-1-no-order0")]
    readings[1:1] = [r for r, _ in everywhere] + [r for r, _ in orbits]
    literal = _literal(True, [_decision("ffn-poly2", PRIMARY_READING),
                              _decision("ffn-poly3", PRIMARY_READING),
                              *(d for _, d in orbits)],
                       [*(g for _, g in everywhere if g), _ridge_general()])
    readings.insert(0, literal)
    ids = []
    for p in (2, 3):
        h = (_A * _X + _B) ** p
        ids.append(_identity(f"p={p}: p h - a dh/da - b dh/db = 0 (Euler, homogeneity)",
                             p * h - _A * sp.diff(h, _A) - _B * sp.diff(h, _B)))
    ids += [_linear_router_identity(), _ridge_symmetry()]
    return _family_outcome(readings, ids, {
        "any_k_argument": "for every p, k > (p+1)/2 atoms give 2k first derivatives in the "
                          "(p+1)-dimensional space of polynomials of degree <= p: dependent",
    })


@claim("pcr.ident.linear", reading=READINGS[PRIMARY_READING].statement()
       + " Expert h(x,(a,b)) = a x + b; the seed claims it is NOT strongly identifiable.")
def check_linear(ctx: CheckContext) -> Outcome:
    """002: the linear expert is not strongly identifiable -- per reading."""
    readings = _all_readings("linear", False)
    everywhere, general = _all_atoms("linear", PRIMARY_READING, False)
    readings.insert(0, everywhere)
    readings.insert(0, _literal(False, [_decision("linear", PRIMARY_READING)],
                                [*([general] if general else []), _ridge_general()]))
    h = _A * _X + _B
    ids = [_identity("h - a dh/da - b dh/db = 0", h - _A * sp.diff(h, _A) - _B * sp.diff(h, _B)),
           _identity("d2h/da2 = 0", sp.diff(h, _A, 2)), _linear_router_identity()]
    return _family_outcome(readings, ids)


@claim("pcr.ident.two-layer-relu-bias", reading=READINGS[PRIMARY_READING].statement()
       + " Expert ReLU(x W1 + b1) W2 + b2, width 1; the seed claims NOT strongly identifiable.")
def check_two_layer_relu_bias(ctx: CheckContext) -> Outcome:
    """000: the two-layer ReLU FFN with last bias is not strongly identifiable."""
    readings = _all_readings("two-layer-relu-bias", False)
    readings += _width2(ctx, "relu", True, False)
    readings.insert(0, _literal(False, [_decision("two-layer-relu-bias", PRIMARY_READING)],
                                [_ridge_general()]))
    return _family_outcome(readings, _two_layer_identities(True))


@claim("pcr.ident.two-layer-relu-nobias", reading=READINGS[PRIMARY_READING].statement()
       + " Expert ReLU(x W1 + b1) W2 (no last bias), width 1.")
def check_two_layer_relu_nobias(ctx: CheckContext) -> Outcome:
    """000: ReLU(xW1+b1)W2 without last bias is strongly identifiable -- per reading."""
    readings = _all_readings("two-layer-relu-nobias", True)
    readings += _width2(ctx, "relu", False, True)
    readings.insert(0, _literal(True, [_decision("two-layer-relu-nobias", PRIMARY_READING)],
                                [_ridge_general()]))
    return _family_outcome(readings, _two_layer_identities(False))


@claim("pcr.ident.two-layer-gelu", reading=READINGS[PRIMARY_READING].statement()
       + " Expert GELU(x W1 + b1) W2 + b2 (linear layers with biases, as in 000's experiments), "
       "width 1; the variant without b2 is reported as further readings.")
def check_two_layer_gelu(ctx: CheckContext) -> Outcome:
    """000: the two-layer GELU FFN is strongly identifiable -- with and without last bias."""
    readings = _all_readings("two-layer-gelu-bias", True, "with b2")
    readings += _all_readings("two-layer-gelu-nobias", True, "no b2")
    readings += _curve_readings("two-layer-gelu-nobias", ("pcos-1-no-order0",), "no b2")
    readings += _width2(ctx, "gelu", False, True)
    readings.insert(0, _literal(True, [_decision("two-layer-gelu-bias", PRIMARY_READING)],
                                [_ridge_general()]))
    ids = _two_layer_identities(True)[:3] + _two_layer_identities(False)[:2]
    return _family_outcome(readings, ids)


def _width2(ctx: CheckContext, act: str, last_bias: bool, says: bool) -> list[Reading]:
    """Full profile only: hidden width 2 under the primary and pcos-1-no-order0 readings."""
    if not ctx.full:
        return []
    e: Expert = two_layer(act, width=2, last_bias=last_bias)
    return [_reading(decide(e, r), says, "width 2") for r in (PRIMARY_READING, "pcos-1-no-order0")]


@claim("pcr.ident.ffn-gelu", reading="Definition 1 read literally (pcos-2 family, every d, all "
       "pairwise distinct atoms, every k) for h(x,(a,b)) = GELU(a^T x + b), GELU(z) = z Phi(z); "
       "the d = 1 readings of READINGS and the sign-flipped orbit are reported beside it.",
       statement="The single-layer GELU expert h(x,(a,b)) = GELU(aᵀx+b) is strongly "
                 "identifiable (so its rates improve under the perturbed cosine router).",
       section="Strong identifiability of experts",
       seed_files=["002_ed39350ac6d6e1c0.txt", "000_7b6465990ad3b04b.txt"],
       sources={"002_ed39350ac6d6e1c0.txt": [58], "000_7b6465990ad3b04b.txt": [165]},
       covers=["002-13"], origin="seed")
def check_ffn_gelu(ctx: CheckContext) -> Outcome:
    """002 L58: GELU(aᵀx+b) is strongly identifiable -- per reading, orbit, literal."""
    readings = _all_readings("ffn-gelu", True)
    orbit, flipped = _orbit_reading("ffn-gelu", True)
    readings.insert(1, orbit)
    literal = _literal(True, [_decision("ffn-gelu", PRIMARY_READING), flipped],
                       [_ridge_general()])
    e = get_expert("ffn-gelu")
    a, b = e.params
    z = a * e.x + b
    ident = _identity("GELU(z) - GELU(-z) = z: h(x,eta) - h(x,-eta) - (a x + b) = 0",
                      e.expr - e.expr.subs({a: -a, b: -b}, simultaneous=True) - z)
    return _family_outcome([literal, *readings],
                           [ident, _linear_router_identity(), _ridge_symmetry()])


#: The linear-router reading: multiplier x (d = 1) from the router exp(beta1^T x + beta0).
_LINEAR_ROUTER = ("linear-2",)


@claim("pcr.ident.linear-router-ffn",
       reading="Strong identifiability under the LINEAR router (family x^nu d^gamma h, "
       "0 <= nu + |gamma| <= 2, k = 2 atoms, every d) for h = ReLU(a^T x + b) and h = "
       "sigmoid(a^T x + b); primary: both experts, all distinct atoms, every d.",
       statement="Under the linear router, FFN experts with ReLU and sigmoid activations "
                 "(h(x,(a,b)) = φ(aᵀx+b)) are strongly identifiable, so their parameters are "
                 "estimated at fast rates (Nguyen et al. 2024c, as cited).",
       section="Strong identifiability of experts",
       seed_files=["002_ed39350ac6d6e1c0.txt"],
       sources={"002_ed39350ac6d6e1c0.txt": [8]}, covers=["002-05"], origin="seed")
def check_linear_router_ffn(ctx: CheckContext) -> Outcome:
    """002 L8: ReLU and sigmoid FFN experts under the linear router -- decided per reading."""
    ident = _linear_router_identity()
    readings: list[Reading] = []
    decisions = []
    for name in ("ffn-relu", "ffn-sigmoid"):
        for rname in (*_LINEAR_ROUTER, "eta-only-2", "pcos-2"):
            d = _decision(name, rname)
            decisions.append(d)
            readings.append(_reading(d, True, name))
    readings += [_pole_reading("sigmoid", rname, True, "ffn-sigmoid")
                 for rname in (*_LINEAR_ROUTER, "eta-only-2", "pcos-2")]
    lin = [d for d in decisions if d.reading.router == "linear"]
    deps = [d for d in lin if d.verdict is Verdict.REFUTED]
    general = {**ident, "short": "for every activation, atom and d: dh/da - x dh/db = 0, and "
               "x dh/db is a linear-router term", "scope": "every d, every atom, any phi"}
    verdict = Verdict.REFUTED if deps or ident["holds"] else Verdict.INCONCLUSIVE
    literal = Reading(
        "literal-linear-router",
        "claim 'ReLU and sigmoid FFN experts are strongly identifiable under the linear "
        "router': the family x^nu d^gamma h(x, eta_j), 0 <= nu + |gamma| <= 2, is linearly "
        "independent for every d, all distinct atoms, every k, for both activations",
        verdict,
        ("exact dependence: " + general["short"]
         + (f"; at d = 1 also {deps[0].summary.split('; scope')[0]}" if deps else ""))
        if verdict is Verdict.REFUTED else "undecided",
        evidence={"scope": {"d": "every d >= 1", "atoms": "all pairwise distinct atoms",
                            "k": "every k >= 1", "orders": [0, 2], "semantics": "list"},
                  "general_dependences": [general],
                  "dependences": [d.evidence() for d in deps]},
        derivation=deps[0].derivation() if deps else "",
    )
    return _family_outcome([literal, *readings], [ident], {
        "note": "the seed cites Nguyen et al. (2024c) for this; the linear-router family "
                "always contains dh/da and x dh/db, which coincide for any phi(a x + b), so "
                "this reading of strong identifiability fails for every ridge expert; the "
                "classical eta-only reading is reported beside it",
    })


# ----------------------------------------------------------------------------- consistency

_SEED_STATEMENTS: tuple[tuple[str, str, bool], ...] = (
    ("002 Example: ReLU(a^T x + b) is strongly identifiable", "ffn-relu", True),
    ("000 reply (2.2): FFN experts with ReLU activation are strongly identifiable",
     "ffn-relu", True),
    ("000 reply to Q1: ReLU(xW1+b1)W2 + b2 is not strongly identifiable",
     "two-layer-relu-bias", False),
    ("000 reply to Q1: ReLU(xW1+b1)W2 (no last bias) is strongly identifiable",
     "two-layer-relu-nobias", True),
)


@claim("pcr.ident.consistency", reading="Per reading of Definition 1: do all statements of "
       "seeds 002 and 000 about ReLU experts (one-layer ReLU SI; two-layer ReLU with last bias "
       "not SI; without last bias SI) agree with the exact verdicts? proved = all agree.")
def check_consistency(ctx: CheckContext) -> Outcome:
    """Compare what seeds 002 and 000 say about ReLU experts with the verdicts, per reading."""
    readings = []
    for rname in READINGS:
        rows: list[dict[str, Any]] = []
        for text, expert_name, says in _SEED_STATEMENTS:
            v = _decision(expert_name, rname).verdict
            computed = {Verdict.PROVED: True, Verdict.REFUTED: False}.get(v)
            rows.append({"statement": text, "seed_says_SI": says,
                         "computed_SI": "undecided" if computed is None else
                         ("yes" if computed else "no"),
                         "agrees": computed == says})
        undecided = [r for r in rows if r["computed_SI"] == "undecided"]
        wrong = [r["statement"] for r in rows if not r["agrees"] and r not in undecided]
        if wrong:
            verdict, why = Verdict.REFUTED, "disagree: " + "; ".join(wrong)
        elif undecided:
            verdict, why = Verdict.INCONCLUSIVE, "some families undecided"
        else:
            verdict, why = Verdict.PROVED, "all seed statements about ReLU experts agree"
        table = "\n".join(f"| {r['statement']} | {'SI' if r['seed_says_SI'] else 'not SI'} | "
                          f"{r['computed_SI']} | {r['agrees']} |" for r in rows)
        readings.append(Reading(
            rname, READINGS[rname].statement(), verdict, why, {"statements": rows},
            "| seed statement | seed says | computed (SI?) | agrees |\n|---|---|---|---|\n"
            + table,
        ))
    pair = [r.name for r in readings if r.verdict is Verdict.PROVED]
    si_where = {
        name: [r for r in READINGS if _decision(name, r).verdict is Verdict.PROVED]
        for name in ("ffn-relu", "two-layer-relu-bias", "two-layer-relu-nobias")
    }
    out = Outcome.from_readings(
        readings,
        summary=(f"{readings[0].name}: {readings[0].verdict.value} ({readings[0].summary}); "
                 f"readings where all agree: {pair or 'none'}"),
        readings_where_consistent=pair,
        readings_where_strongly_identifiable=si_where,
        note="both seeds say the one-layer ReLU FFN is SI, so they agree with each other on "
             "it; readings_where_strongly_identifiable lists where the exact verdicts agree.",
    )
    out.derivation = "\n\n".join(f"**{r.name}**: {r.verdict.value}\n\n{r.derivation}"
                                 for r in readings)
    return out


# ----------------------------------------------------------------------------- (eta x)^2

_ETA_HAT, _ETA_STAR = sp.symbols("etahat etastar", real=True)
_NAMES = {_ETA_HAT: r"\hat\eta", _ETA_STAR: r"\eta^*"}


def _tex(expr: sp.Expr) -> str:
    return sp.latex(expr, symbol_names=_NAMES)


def _poly_sides(power_of_abs_x: int) -> tuple[sp.Expr, sp.Expr]:
    lhs = sp.Abs((_ETA_HAT * _X) ** 2 - (_ETA_STAR * _X) ** 2)
    rhs = sp.Abs(_ETA_HAT - _ETA_STAR) * sp.Abs(_ETA_HAT + _ETA_STAR) * sp.Abs(_X) ** power_of_abs_x
    return lhs, rhs


def _search_counterexample(residual: sp.Expr) -> dict[str, Any] | None:
    grid = [sp.Integer(v) for v in (0, 1, 2, 3, -1, -2)]
    for eh, es, xv in itertools.product(grid, repeat=3):
        val = residual.subs({_ETA_HAT: eh, _ETA_STAR: es, _X: xv})
        if val != 0:
            return {"etahat": int(eh), "etastar": int(es), "x": int(xv), "lhs_minus_rhs": val}
    return None


@claim("pcr.poly-expert.identity", reading="For all real etahat, etastar, x: "
       "|(etahat x)^2 - (etastar x)^2| = |etahat - etastar| |etahat + etastar| |x| (as printed).")
def check_poly_identity(ctx: CheckContext) -> Outcome:
    """|h(x,η̂) − h(x,η*)| = |η̂−η*||η̂+η*||x| for h = (ηx)²: exact check."""
    lhs, rhs = _poly_sides(1)
    residual = sp.simplify(lhs - rhs)
    if residual == 0:
        return Outcome(Verdict.PROVED, "the residual simplifies to 0",
                       {"residual": symbolic_evidence(residual)})
    cex = _search_counterexample(lhs - rhs)
    if cex is None:
        return Outcome(Verdict.INCONCLUSIVE, "residual not 0 but no counterexample on the grid",
                       {"residual": symbolic_evidence(residual)})
    at = {_ETA_HAT: cex["etahat"], _ETA_STAR: cex["etastar"], _X: cex["x"]}
    return Outcome(
        Verdict.REFUTED,
        f"counterexample etahat={cex['etahat']}, etastar={cex['etastar']}, x={cex['x']}: "
        f"LHS={lhs.subs(at)} but RHS={rhs.subs(at)}; the power of |x| must be 2",
        {"counterexample": cex, "lhs": lhs.subs(at), "rhs": rhs.subs(at),
         "residual": symbolic_evidence(residual), "method": "exact integer evaluation"},
        derivation=(
            f"$$\\left|h(x,\\hat\\eta)-h(x,\\eta^*)\\right| = "
            f"{_tex(sp.Abs(sp.factor(lhs.args[0])))} \\neq {_tex(rhs)}$$\n\n"
            f"At $\\hat\\eta={cex['etahat']}, \\eta^*={cex['etastar']}, x={cex['x']}$: "
            f"left side ${sp.latex(lhs.subs(at))}$, right side ${sp.latex(rhs.subs(at))}$."
        ),
    )


@claim("pcr.poly-expert.identity.corrected",
       statement="For h(x, η) = (ηx)², x ∈ ℝ: |h(x, η̂) − h(x, η*)| = |η̂ − η*| · |η̂ + η*| · x².",
       reading="For all real etahat, etastar, x: |(etahat x)^2 - (etastar x)^2| = "
               "|etahat - etastar| |etahat + etastar| x^2.")
def check_poly_identity_corrected(ctx: CheckContext) -> Outcome:
    """The corrected identity with x² in place of |x|: SymPy simplifies the residual to 0."""
    lhs, rhs = _poly_sides(2)
    residual = sp.simplify(lhs - rhs)
    at_zero = sp.simplify(lhs.subs(_ETA_STAR, 0))
    verdict = Verdict.PROVED if residual == 0 else Verdict.INCONCLUSIVE
    return Outcome(
        verdict,
        f"residual simplifies to {sp.sstr(residual)}; note at etastar = 0 the gap is "
        f"{sp.sstr(at_zero)}, quadratic in the parameter error",
        {"residual": symbolic_evidence(residual), "lhs": symbolic_evidence(lhs),
         "rhs": symbolic_evidence(rhs), "gap_at_etastar_0": symbolic_evidence(at_zero),
         "method": "sympy.simplify with real symbols"},
        derivation=(
            f"$${_tex((_ETA_HAT * _X) ** 2 - (_ETA_STAR * _X) ** 2)} = "
            f"{_tex(sp.factor((_ETA_HAT * _X) ** 2 - (_ETA_STAR * _X) ** 2))}$$\n\n"
            f"so $|\\cdot| = {_tex(rhs)}$; residual ${_tex(residual)}$. "
            f"At $\\eta^*=0$ the gap is ${_tex(at_zero)}$: the expert error is then the "
            "square of the parameter error, not of the same order."
        ),
    )


if __name__ == "__main__":
    import sys

    from moetheory.engine.script import run_module_checks

    sys.exit(run_module_checks(["pcr.ident.", "pcr.poly-expert."]))
