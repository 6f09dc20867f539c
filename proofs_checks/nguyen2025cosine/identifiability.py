"""Checks of the strong-identifiability claims of one-layer experts (seeds 002 and 000).

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

The machinery is in :mod:`._ident_common`; two-layer experts are in
:mod:`.identifiability_two_layer`.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from moetheory import CheckContext, Outcome, Reading, Verdict, claim
from moetheory.symbolic.experts import get_expert
from moetheory.symbolic.identifiability import (
    PRIMARY_READING,
    READINGS,
    IdentifiabilityDecision,
    IdentifiabilityReading,
    default_atoms,
)
from proofs_checks.nguyen2025cosine._common import S0, S2
from proofs_checks.nguyen2025cosine._ident_common import (
    _A,
    _B,
    _PHI,
    _X,
    _all_readings,
    _curve_readings,
    _decision,
    _expert_claim,
    _family_outcome,
    _identifiable,
    _identity,
    _literal_primary,
    _rd_decision,
    _reading,
    _ridge_symmetry,
)

__all__ = [
    "check_consistency",
    "check_ffn_gelu",
    "check_ffn_poly",
    "check_ffn_relu",
    "check_ffn_tanh",
    "check_linear",
    "check_linear_router_ffn",
]


def _all_atoms(expert_name: str, rname: str, says: bool,
               label: str = "") -> tuple[Reading, dict[str, Any] | None]:
    """The reading decided for ALL atoms by exact elimination, and (when dependent for every
    atom tuple) the general dependence it gives the literal reading."""
    d = _identifiable(get_expert(expert_name), rname, atoms="all", method="elimination")
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
    d = _identifiable(get_expert(f"ffn-{activation}"), rname, atoms="all",
                      method="singularity")
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
    return _identifiable(e, PRIMARY_READING, atoms=[base, {p: -v for p, v in base.items()}])


def _orbit_reading(expert_name: str, says: bool, label: str = "") -> tuple[
        Reading, IdentifiabilityDecision]:
    d = _orbit(expert_name)
    r = _reading(d, says, label, name="pcos-2-flipped-atoms" + (f" [{label}]" if label else ""))
    r.reading = ("Symmetry orbit: the pcos-2 family at the sign-flipped atoms eta_2 = -eta_1 "
                 "(d = 1), where odd or even activations have exceptions. " + r.reading)
    return r, d


# ---------------------------------------------------------------------------------------------
# identities
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# claims
# ---------------------------------------------------------------------------------------------


@_expert_claim(
    "pcr.ident.ffn-relu", expert="h(x,(a,b)) = ReLU(a x + b).",
    statement="h(x,(a,b)) = ReLU(aᵀx+b) is strongly identifiable.",
    sources={S2: [116], S0: [23, 157]},
    statement_latex=r"$h(x, (a, b)) = \mathrm{ReLU}(a^\top x + b)$ is strongly identifiable.",
)
def check_ffn_relu(ctx: CheckContext) -> Outcome:
    """002: ReLU(aᵀx+b) is strongly identifiable -- decided per reading."""
    readings = _all_readings("ffn-relu", True)
    readings += _curve_readings("ffn-relu", ("pcos-1-no-order0",))
    orbit, flipped = _orbit_reading("ffn-relu", True)
    readings.insert(1, orbit)
    literal = _literal_primary(True, ["ffn-relu"], [flipped])
    return _family_outcome([literal, *readings],
                           [*_relu_identities(), _linear_router_identity(), _ridge_symmetry()])


@_expert_claim(
    "pcr.ident.ffn-tanh", expert="h(x,(a,b)) = tanh(a x + b).",
    statement="h(x,(a,b)) = tanh(aᵀx+b) is strongly identifiable.",
    sources={S2: [116]},
    statement_latex=r"$h(x, (a, b)) = \tanh(a^\top x + b)$ is strongly identifiable.",
)
def check_ffn_tanh(ctx: CheckContext) -> Outcome:
    """002: tanh(aᵀx+b) is strongly identifiable -- per reading, plus the literal quantifier."""
    readings = _pole_readings("ffn-tanh", "tanh", True)
    e = get_expert("ffn-tanh")
    a, b = e.params
    orbit, flipped = _orbit_reading("ffn-tanh", True)
    rd = _curve_readings("ffn-tanh", (PRIMARY_READING, "pcos-1-no-order0"))
    readings[2:2] = [orbit, *rd]
    literal = _literal_primary(True, ["ffn-tanh"],
                               [flipped, _rd_decision("ffn-tanh", PRIMARY_READING)])
    literal.evidence = {**literal.evidence, "independent_for_all_atoms": readings[1].evidence[
        "scope"]}
    ident = _identity("tanh is odd: h(x,-a,-b) + h(x,a,b) = 0",
                      e.expr.subs({a: -a, b: -b}, simultaneous=True) + e.expr)
    return _family_outcome([literal, *readings],
                           [ident, _linear_router_identity(), _ridge_symmetry()])


@_expert_claim(
    "pcr.ident.ffn-poly", expert="h(x,(a,b)) = (a x + b)^p for p = 2 (primary) and p = 3.",
    statement="h(x,(a,b)) = (aᵀx+b)^p, p ≥ 2, is strongly identifiable.",
    sources={S2: [116], S0: [157]},
    statement_latex=r"$h(x, (a, b)) = (a^\top x + b)^p$, $p \ge 2$, is strongly identifiable.",
)
def check_ffn_poly(ctx: CheckContext) -> Outcome:
    """002: (aᵀx+b)^p, p ≥ 2, is strongly identifiable -- p = 2 and 3, per reading."""
    readings = _all_readings("ffn-poly2", True, "p=2") + _all_readings("ffn-poly3", True, "p=3")
    e3 = get_expert("ffn-poly3")
    k3 = IdentifiabilityReading(
        "pcos-1-no-order0-k3", "perturbed-cosine", 1, 1, 3,
        "First-order terms, no order-0 term, k = 3 atoms: the 2k = 6 functions d_a h, d_b h "
        "lie in the 4-dimensional space of cubics, so they must be dependent.",
    )
    d_k3 = _identifiable(e3, k3)
    readings.append(_reading(d_k3, True, "p=3"))
    readings += _curve_readings("ffn-poly3", ("pcos-1-no-order0",), "p=3")
    orbits = [_orbit_reading(f"ffn-poly{p}", True, f"p={p}") for p in (2, 3)]
    everywhere = [_all_atoms(f"ffn-poly{p}", rname, True, f"p={p}")
                  for p in (2, 3) for rname in (PRIMARY_READING, "pcos-1-no-order0")]
    readings[1:1] = [r for r, _ in everywhere] + [r for r, _ in orbits]
    literal = _literal_primary(True, ["ffn-poly2", "ffn-poly3"], (d for _, d in orbits),
                               (g for _, g in everywhere if g))
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


@_expert_claim(
    "pcr.ident.linear",
    expert="h(x,(a,b)) = a x + b; the seed claims it is NOT strongly identifiable.",
    statement="the linear expert h(x,(a,b)) = aᵀx+b is not strongly identifiable.",
    sources={S2: [116]},
    statement_latex=r"The linear expert $h(x, (a, b)) = a^\top x + b$ is not strongly "
    "identifiable.",
)
def check_linear(ctx: CheckContext) -> Outcome:
    """002: the linear expert is not strongly identifiable -- per reading."""
    readings = _all_readings("linear", False)
    everywhere, general = _all_atoms("linear", PRIMARY_READING, False)
    readings.insert(0, everywhere)
    readings.insert(0, _literal_primary(False, ["linear"], general=[general] if general else []))
    h = _A * _X + _B
    ids = [_identity("h - a dh/da - b dh/db = 0", h - _A * sp.diff(h, _A) - _B * sp.diff(h, _B)),
           _identity("d2h/da2 = 0", sp.diff(h, _A, 2)), _linear_router_identity()]
    return _family_outcome(readings, ids)


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
    literal = _literal_primary(True, ["ffn-gelu"], [flipped])
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


# ---------------------------------------------------------------------------------------------
# consistency
# ---------------------------------------------------------------------------------------------


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
       "not SI; without last bias SI) agree with the exact verdicts? proved = all agree.",
    statement="The two seeds agree with each other about ReLU experts.",
    sources={"002_ed39350ac6d6e1c0.txt": [116], "000_7b6465990ad3b04b.txt": [157, 165, 171, 211]},
    covers=[],
    origin="seed",
)
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


if __name__ == "__main__":
    from moetheory.engine.script import run_as_script

    run_as_script()
