"""All-atoms strong identifiability of tanh / sigmoid ridge experts
(moetheory.symbolic.pole_route)."""

from __future__ import annotations

import pytest
import sympy as sp

from moetheory.engine.verdicts import Verdict
from moetheory.symbolic.experts import get_expert
from moetheory.symbolic.identifiability import READINGS, decide
from moetheory.symbolic.linear_independence import verify_certificate
from moetheory.symbolic.pole_route import (
    ACTIVATIONS,
    MeromorphicActivation,
    decide_ridge_all_atoms,
    order_multipliers,
    pole_certificate,
)


@pytest.mark.parametrize("act", ["tanh", "sigmoid"])
def test_pole_facts_are_computed_not_assumed(act: str) -> None:
    cert = pole_certificate(act, 3)
    assert cert.valid and cert.residue == 1
    a = sp.Symbol("a", real=True, nonzero=True)
    w = sp.Symbol("w")
    z0 = ACTIVATIONS[act].first_pole
    for s, lead in enumerate(cert.leading[:3]):
        # independent check of the leading Laurent coefficient by a series expansion
        f = sp.diff(ACTIVATIONS[act].phi(sp.Symbol("z")), sp.Symbol("z"), s)
        ser = sp.expand(sp.series(f.subs(sp.Symbol("z"), z0 + a * w), w, 0, 1).removeO())
        assert sp.simplify(ser.coeff(w, -(s + 1)) - lead) == 0
        assert ser.coeff(w, -(s + 2)) == 0


def test_a_wrong_pole_progression_is_not_certified(monkeypatch: pytest.MonkeyPatch) -> None:
    """The certificate checks the claimed poles: tanh with the sigmoid's progression fails,
    and the decision is then inconclusive, never proved."""
    wrong = MeromorphicActivation("tanh-wrong", sp.tanh, sp.I * sp.pi, 2 * sp.I * sp.pi)
    monkeypatch.setitem(ACTIVATIONS, "tanh-wrong", wrong)
    cert = pole_certificate("tanh-wrong", 2)
    assert not cert.matches_progression and not cert.valid
    assert decide_ridge_all_atoms("tanh-wrong", "pcos-2").verdict is Verdict.INCONCLUSIVE


@pytest.mark.parametrize("act", ["tanh", "sigmoid"])
def test_verdicts_for_all_atoms_agree_with_certificates_at_generic_atoms(act: str) -> None:
    expert = get_expert(f"ffn-{act}")
    for rname in ("pcos-2", "pcos-1-no-order0", "linear-2"):
        every = decide_ridge_all_atoms(act, rname)
        at_generic = decide(expert, rname)
        assert every.verdict is at_generic.verdict, rname
    assert decide_ridge_all_atoms(act, "pcos-2").scope()["atoms"].startswith(
        "all pairwise distinct atoms outside")


def test_linear_router_is_refuted_for_every_atom_by_the_ridge_identity() -> None:
    d = decide_ridge_all_atoms("sigmoid", "linear-2")
    assert d.verdict is Verdict.REFUTED and d.scope()["atoms"] == "every atom tuple"
    bad = next(o for o in d.orders if not o["independent"])
    # order 1: multipliers (1, x, x, x^2) -- x dh/db = dh/da
    assert bad["s"] == 1 and bad["null_vector"] == [0, 1, -1, 0]


def test_per_order_multipliers_are_dependent_on_one_half_line_only() -> None:
    """On x > 0 alone, u x = x - tau2 u: the proof needs both half-lines (a sound route must not
    restrict to x > 0)."""
    x = sp.Symbol("x", real=True)
    tau2 = sp.Symbol("tau2", positive=True)
    plus = [t for *_, t in order_multipliers(READINGS["pcos-2"], 1, 1)]
    assert sp.cancel(plus[3] - (plus[1] - tau2 * plus[2])) == 0  # on x > 0
    minus = [t for *_, t in order_multipliers(READINGS["pcos-2"], 1, -1)]
    assert sp.cancel(minus[3] - (minus[1] - tau2 * minus[2])) != 0
    assert tau2 in plus[2].free_symbols and x in plus[2].free_symbols


def test_exceptional_sets_are_exact_dependences() -> None:
    d = decide_ridge_all_atoms("tanh", "pcos-2")
    assert {e["set"]: e["holds"] for e in d.exceptions} == {"eta_i = -eta_j": True,
                                                            "a_j = 0": True}
    e = get_expert("ffn-tanh")
    a, b = e.params
    flipped = decide(e, "pcos-2", atoms=[{a: sp.Rational(3, 2), b: sp.Rational(-2, 3)},
                                        {a: sp.Rational(-3, 2), b: sp.Rational(2, 3)}])
    assert flipped.verdict is Verdict.REFUTED and verify_certificate(flipped.result)
    # a = 0: h = phi(b) and dh/db = phi'(b) are constants (sigmoid at b = 0: 1/2 and 1/4)
    s = get_expert("ffn-sigmoid")
    a, b = s.params
    zero_slope = decide(s, "pcos-1", atoms=[{a: 0, b: 0},
                                           {a: sp.Rational(5, 4), b: sp.Rational(4, 7)}])
    assert zero_slope.verdict is Verdict.REFUTED
    assert [c for c in zero_slope.result.coefficients if c != 0] == [1, -2]


def test_atoms_sharing_poles_stay_independent() -> None:
    """Atoms on the same pole line with a_1/a_2 = 3 share every third pole; the atom with the
    larger |a| still owns poles, and the exact certificate agrees with the all-atoms proof."""
    e = get_expert("ffn-tanh")
    a, b = e.params
    d = decide(e, "pcos-1-no-order0", atoms=[{a: sp.Rational(3, 2), b: sp.Rational(3, 4)},
                                             {a: sp.Rational(1, 2), b: sp.Rational(1, 4)}])
    assert d.verdict is Verdict.PROVED
    assert decide_ridge_all_atoms("tanh", "pcos-1-no-order0").verdict is Verdict.PROVED


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="activation must be one of"):
        decide_ridge_all_atoms("relu", "pcos-2")
    with pytest.raises(ValueError, match="reading must be one of"):
        decide_ridge_all_atoms("tanh", "pcos-9")
    with pytest.raises(ValueError, match="max_order must be an integer in"):
        pole_certificate("tanh", 4)
    with pytest.raises(ValueError, match="side must be 1 or -1"):
        order_multipliers(READINGS["pcos-2"], 1, 0)


@pytest.mark.slow
def test_claims_report_the_all_atoms_proofs_with_their_scope() -> None:
    from moetheory import CheckContext
    from proofs_checks.nguyen2025cosine.identifiability import (
        check_ffn_tanh,
        check_linear_router_ffn,
    )

    out = check_ffn_tanh(CheckContext("pcr.ident.ffn-tanh", seed=0))
    assert out.verdict is Verdict.REFUTED  # the literal reading: d >= 2 and sign flips
    every = {r.name: r for r in out.readings}["pcos-2-all-atoms"]
    assert every.verdict is Verdict.PROVED
    scope = every.evidence["scope"]
    assert scope["k"] == "every k >= 1" and scope["d"] == 1
    assert "outside the exceptional set" in scope["atoms"]
    assert out.readings[0].evidence["independent_for_all_atoms"] == scope
    lin = check_linear_router_ffn(CheckContext("pcr.ident.linear-router-ffn", seed=0))
    by = {r.name: r.verdict for r in lin.readings}
    assert by["linear-2-all-atoms [ffn-sigmoid]"] is Verdict.REFUTED
    assert by["eta-only-2-all-atoms [ffn-sigmoid]"] is Verdict.PROVED


def test_ridge_second_order_claim_states_the_relation_for_every_dimension() -> None:
    from moetheory import CheckContext
    from proofs_checks.nguyen2025cosine.routers_pde import check_ridge_second_order

    out = check_ridge_second_order(CheckContext("pcr.pde.ridge-second-order", seed=0))
    every = {r.name: r for r in out.readings}["perturbed-every-d"]
    assert every.verdict is Verdict.PROVED
    assert every.evidence["verified"] == {2: True, 3: True}


def test_the_singularity_route_writes_its_formulas_as_markup() -> None:
    # issue 45 (d): the exceptional set, its dependences and the refuting null vector were
    # plain text ("a_j = 0 for some j", "dh/db(x, eta) - dh/db(x, -eta) = 0", "[1, -1]")
    from test_docs_scan import markdown_formulas

    proved = decide_ridge_all_atoms("tanh", "eta-only-2")
    refuted = decide_ridge_all_atoms("sigmoid", "linear-2")
    assert (proved.verdict, refuted.verdict) == (Verdict.PROVED, Verdict.REFUTED)
    for dec in (proved, refuted):
        for md in (dec.summary_latex, dec.derivation()):
            assert not markdown_formulas(md), markdown_formulas(md)
    assert proved.exceptions and all(
        e["set_latex"].startswith("$") and e["statement_latex"] for e in proved.exceptions)
    assert "outside the exceptional set" in proved.summary  # the plain summary is kept
