"""Tests of moetheory.symbolic.linear_independence: known answers, certificates, bad input."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moetheory.symbolic.linear_independence import (
    activation_regions,
    decide_linear_independence,
    restrict_to_region,
    verify_certificate,
)

X = sp.Symbol("x", real=True)
RELU = sp.Piecewise((X - sp.Rational(1, 2), X > sp.Rational(1, 2)), (0, True))
BASE = [sp.Integer(1), X, X**2, X**3, sp.tanh(X), RELU, sp.Abs(X + 1), X / (sp.Abs(X) + 1)]


def test_monomials_independent_with_exact_determinant() -> None:
    r = decide_linear_independence([1, X, X**2], X)
    assert r.status == "independent"
    assert r.determinant is not None and r.determinant != 0
    m = sp.Matrix([[1, p, p**2] for p in r.points])
    assert m.det() == r.determinant  # Vandermonde, recomputed independently
    assert verify_certificate(r)


def test_pythagorean_family_dependent() -> None:
    r = decide_linear_independence([sp.sin(X) ** 2, sp.cos(X) ** 2, 1], X)
    assert r.status == "dependent"
    assert r.coefficients == [1, 1, -1]
    assert verify_certificate(r)


def test_zero_function_makes_family_dependent() -> None:
    r = decide_linear_independence([X, sp.Integer(0), sp.exp(X)], X)
    assert r.status == "dependent"
    assert r.coefficients == [0, 1, 0]


def test_relu_family_region_by_region() -> None:
    relu = sp.Piecewise((X, X > 0), (0, True))
    dep = decide_linear_independence([relu, X, sp.Abs(X)], X)
    assert dep.status == "dependent" and len(dep.residuals) == 2
    assert all(res == 0 for res in dep.residuals)
    ind = decide_linear_independence([relu, relu.subs(X, -X)], X)
    assert ind.status == "independent"
    assert verify_certificate(dep) and verify_certificate(ind)


def test_transcendental_family_uses_interval_determinant() -> None:
    r = decide_linear_independence([sp.tanh(X), sp.tanh(2 * X), X], X)
    assert r.status == "independent"
    assert r.determinant is None and r.determinant_interval is not None
    lo, hi = (float(t) for t in r.determinant_interval)
    assert lo * hi > 0
    assert verify_certificate(r)


def test_irrational_dependence_is_never_called_independent() -> None:
    r = decide_linear_independence([sp.exp(X), sp.exp(X + 1)], X)
    assert r.status in ("dependent", "inconclusive")


def test_tampered_certificates_fail_verification() -> None:
    dep = decide_linear_independence([sp.sin(X) ** 2, sp.cos(X) ** 2, 1], X)
    dep.coefficients = [1, 1, 1]
    assert not verify_certificate(dep)
    ind = decide_linear_independence([1, X, X**2], X)
    ind.determinant = ind.determinant + 1
    assert not verify_certificate(ind)


def test_regions_and_restriction() -> None:
    regs = activation_regions([RELU, sp.Abs(X + 1)], X)
    assert [r.upper for r in regs[:-1]] == [-1, sp.Rational(1, 2)]
    assert restrict_to_region(RELU, X, sp.Integer(2)) == X - sp.Rational(1, 2)
    assert restrict_to_region(RELU, X, sp.Integer(0)) == 0


@pytest.mark.parametrize(
    ("functions", "kwargs", "match"),
    [
        ([], {}, "functions must be a non-empty"),
        ([X, sp.Symbol("a") * X], {}, "depend on x only"),
        ([sp.Function("f")(X)], {}, "explicit closed forms"),
        ([X], {"dps": 5}, "dps must be"),
        ([X], {"max_certificates": 0}, "max_certificates"),
    ],
)
def test_bad_input(functions: list, kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        decide_linear_independence(functions, X, **kwargs)


def test_x_must_be_symbol() -> None:
    with pytest.raises(ValueError, match="x must be a SymPy Symbol"):
        decide_linear_independence([1], "x")  # type: ignore[arg-type]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    subset=st.lists(st.integers(0, len(BASE) - 1), min_size=2, max_size=4, unique=True),
    coeffs=st.lists(st.integers(-5, 5), min_size=4, max_size=4),
)
def test_appended_combination_is_found_dependent(subset: list[int], coeffs: list[int]) -> None:
    fams = [BASE[i] for i in subset]
    cs = coeffs[: len(fams)]
    if all(c == 0 for c in cs):
        cs[0] = 1
    combo = sp.Add(*[c * f for c, f in zip(cs, fams, strict=True)])
    r = decide_linear_independence([*fams, combo], X)
    assert r.status == "dependent"
    assert verify_certificate(r)
    # the certificate is proportional to (cs, -1): the base functions are independent
    ratio = -r.coefficients[-1]
    assert ratio != 0
    assert [c * ratio for c in cs] == list(r.coefficients[:-1])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subset=st.lists(st.integers(0, len(BASE) - 1), min_size=1, max_size=5, unique=True))
def test_independent_subsets_certified_and_reverified(subset: list[int]) -> None:
    r = decide_linear_independence([BASE[i] for i in subset], X)
    assert r.status == "independent"
    assert verify_certificate(r)


def test_interval_erf_encloses_reference_in_series_and_tail_ranges() -> None:
    import mpmath
    from mpmath import iv

    from moetheory.symbolic.linear_independence import interval_value

    old = iv.dps
    iv.dps = 40
    try:
        for v in (sp.Rational(1, 3), sp.Rational(-5, 2), sp.Integer(7), sp.Integer(25)):
            enc = interval_value(sp.erf(v))
            with mpmath.workdps(50):
                ref = mpmath.erf(mpmath.mpf(v.p) / v.q)
                assert enc.a <= ref <= enc.b
    finally:
        iv.dps = old


# ----------------------------------------------------------------------------- issue 12 item 4
# Each class below failed on the engine before the rewrite (recorded in the comments).


@pytest.mark.parametrize(
    "functions",
    [
        [sp.floor(X), sp.ceiling(X) - 1],  # equal a.e.; was reported "independent"
        [sp.frac(X), X - sp.floor(X)],  # equal everywhere; was "inconclusive"
        [sp.Mod(X, 1), X],
    ],
)
def test_step_functions_with_infinitely_many_jumps_are_refused(functions: list) -> None:
    with pytest.raises(ValueError, match="finitely many pieces"):
        decide_linear_independence(functions, X)


def test_piecewise_condition_changing_sign_at_a_pole_splits_there() -> None:
    # 1/(x - 1) > 0 holds exactly for x > 1: the condition has no zero, only a pole.
    f = sp.Piecewise((X, 1 / (X - 1) > 0), (-X, True))
    assert [r.upper for r in activation_regions([f], X)][:-1] == [1]
    r = decide_linear_independence([f, X], X)  # was "dependent" with [1, 1]
    assert r.status == "independent"
    assert verify_certificate(r)
    heav = sp.Piecewise((1, 1 / X > 0), (0, True))  # crashed on zoo before
    assert decide_linear_independence([heav, sp.Integer(1)], X).status == "independent"


def test_non_polynomial_branch_condition_is_refused_with_its_reason() -> None:
    with pytest.raises(ValueError, match="not a rational function of x"):
        decide_linear_independence([sp.Piecewise((X, sp.sin(X) > 0), (0, True)), X], X)


def test_irrational_null_vector_found_by_integer_relation_and_verified() -> None:
    # exp experts with equal slopes: the ratio is exp(b1 - b2); was "inconclusive"
    e1 = sp.exp(sp.Rational(3, 2) * X + sp.Rational(5, 4))
    e2 = sp.exp(sp.Rational(3, 2) * X - sp.Rational(2, 3))
    r = decide_linear_independence([e1, e2, X], X)
    assert r.status == "dependent"
    assert r.coefficients == [1, -sp.exp(sp.Rational(23, 12)), 0]
    assert r.null_space_complete
    assert verify_certificate(r)
    bad = decide_linear_independence([e1, e2, X], X)
    bad.coefficients = [1, -sp.exp(2), 0]
    assert not verify_certificate(bad)


def test_dependence_that_simplify_misses_is_shown_by_the_derivative_route() -> None:
    # softplus at sign-flipped atoms: softplus(z) - softplus(-z) = z; was "inconclusive"
    z = sp.Rational(3, 2) * X - sp.Rational(2, 3)
    softplus, flipped = sp.log(1 + sp.exp(z)), sp.log(1 + sp.exp(-z))
    assert sp.simplify(softplus - flipped - z) != 0
    r = decide_linear_independence([softplus, flipped, z], X)
    assert r.status == "dependent" and r.coefficients == [1, -1, -1]
    assert verify_certificate(r)


def test_derivative_route_never_accepts_a_nonzero_constant() -> None:
    from moetheory.symbolic.linear_independence import vanishes_on_region

    region = activation_regions([X], X)[0]
    z = sp.Rational(3, 2) * X
    g = sp.log(1 + sp.exp(z)) - sp.log(1 + sp.exp(-z)) - z + sp.Rational(1, 10**30)
    assert not vanishes_on_region(g, X, region)


@pytest.mark.parametrize("t", [3, 5, 12, 15, 30, -12])
def test_erf_and_erfc_enclosures_stay_tight_for_large_arguments(t: int) -> None:
    import mpmath
    from mpmath import iv

    from moetheory.symbolic.linear_independence import interval_value

    old = iv.dps
    iv.dps = 40
    try:
        for f, ref_f in ((sp.erf, mpmath.erf), (sp.erfc, mpmath.erfc)):
            enc = interval_value(f(sp.Integer(t)))
            with mpmath.workdps(80):
                ref = ref_f(t)
                assert enc.a <= ref <= enc.b
                # relative width: erfc(15) ~ 7e-100 must be enclosed to many digits, which
                # 1 - erf cannot do (the old enclosure of erfc(15) had relative width 1e50)
                assert enc.delta / abs(ref) < mpmath.mpf(10) ** -20
    finally:
        iv.dps = old


def test_null_space_with_constants_e_and_pi_is_exact_and_canonical() -> None:
    r = decide_linear_independence([sp.E * sp.exp(X), sp.exp(X), sp.pi * X, X], X)
    assert r.status == "dependent" and r.null_space_complete
    assert r.null_space == [[1, -sp.E, 0, 0], [0, 0, 1, -sp.pi]]
    assert verify_certificate(r)


def test_high_precision_null_vectors_share_one_factorisation(monkeypatch) -> None:
    """Each free column's null vector was solved by its own ``mpmath.lu_solve``: the same
    60-digit evaluation matrix was evaluated and LU-factorised again for every column (about
    0.4 s each in pcr.ident.ffn-tanh). Now once per decision, with the same vectors."""
    import mpmath

    import moetheory.symbolic.linear_independence as li

    x = sp.Symbol("x", real=True)
    calls: list[int] = []
    real = mpmath.mp.LU_decomp
    monkeypatch.setattr(mpmath.mp, "LU_decomp",
                        lambda *a, **k: calls.append(1) or real(*a, **k), raising=False)
    r = li.decide_linear_independence([sp.exp(x + 2), sp.exp(x), sp.exp(x + 3)], x)
    assert r.status == "dependent" and r.nullity == 2
    assert len(calls) == 1
    basis = [r.coefficients, *r.others]
    for v in basis:
        comb = sum(c * f for c, f in zip(v, [sp.exp(x + 2), sp.exp(x), sp.exp(x + 3)],
                                         strict=True))
        assert sp.simplify(comb) == 0


# ----------------------------------------------------------------------------- issue 29


@pytest.mark.parametrize("scale", [4, 10])
def test_inverse_branch_composition_is_not_certified_dependent(scale: int) -> None:
    """Issue 29: atan(tan(x/10)) = x/10 on one branch only was certified dependent with x
    (every sample point fell in the branch around 0)."""
    saw = sp.atan(sp.tan(X / scale))
    r = decide_linear_independence([saw, X], X)
    assert r.status != "dependent"
    assert r.status == "independent" and verify_certificate(r)  # the regions split at the poles
    assert any(reg.upper == scale * sp.pi / 2 for reg in r.regions)


def test_certificate_checker_rejects_the_old_false_dependence() -> None:
    from moetheory.symbolic.linear_independence import LinearIndependenceResult

    forged = LinearIndependenceResult("dependent", [sp.atan(sp.tan(X / 10)), X], X,
                                      coefficients=[10, -1], nullity=1)
    assert not verify_certificate(forged)


def test_derivative_route_needs_the_branches_located() -> None:
    from moetheory.symbolic.linear_independence import Region, vanishes_on_region

    whole = Region(sp.S.NegativeInfinity, sp.S.Infinity, sp.Integer(0))
    # g' = 0 but g jumps at the poles of tan: never shown to vanish on a region holding one
    assert not vanishes_on_region(sp.atan(sp.tan(X / 10)) - X / 10, X, whole)
    inner = Region(-5 * sp.pi, 5 * sp.pi, sp.Integer(0))
    assert vanishes_on_region(sp.atan(sp.tan(X / 10)) - X / 10, X, inner)
    # a quadratic argument: the poles are not located, so no dependence by continuity
    r = decide_linear_independence([sp.atan(sp.tan(X**2 / 40)), X**2], X)
    assert r.status != "dependent"


def test_breakpoints_with_pi_in_their_coefficients_are_located_or_refused() -> None:
    # was NotImplementedError "sorted roots not supported over ZZ[pi]"
    regs = activation_regions([sp.Abs(2 * X + sp.pi)], X)
    assert [r.upper for r in regs][:-1] == [-sp.pi / 2]
    with pytest.raises(ValueError, match="cannot locate"):
        activation_regions([sp.Abs(X**2 - sp.pi)], X)


def test_saturated_functions_are_not_taken_for_zero() -> None:
    """A combination that is tiny only because its functions are (tanh(100 x) saturated at
    every sample point) is screened out before the exact tests, which took minutes."""
    from moetheory.symbolic.linear_independence import Region, vanishes_on_region

    t = sp.tanh(150 * X - sp.Rational(200, 3))
    terms = [-sp.Rational(800, 3) * X * (1 - t**2), 100 * (1 - t**2)]
    left = Region(sp.S.NegativeInfinity, sp.Integer(0), sp.Integer(-2))
    assert not vanishes_on_region(sp.Add(*terms), X, left, terms=terms)


def test_even_family_is_decided_off_the_symmetric_points() -> None:
    # tanh(a x) tanh(c x) and its derivatives are even: the symmetric rule sees half the rank
    a, c = sp.Rational(3, 2), sp.Rational(-2, 3)
    h = sp.tanh(a * X) * sp.tanh(c * X)
    fam = [h, X * (1 - sp.tanh(a * X) ** 2) * sp.tanh(c * X), X**2 * h, sp.cosh(X), X**4]
    r = decide_linear_independence(fam, X)
    assert r.status == "independent" and verify_certificate(r)


def test_timeout_ends_in_inconclusive() -> None:
    import time

    fs = [sp.tanh(100 * X + k) for k in range(6)] + [X**k for k in range(6)]
    start = time.monotonic()
    r = decide_linear_independence(fs, X, timeout=0.2)
    assert time.monotonic() - start < 5
    assert r.status in ("independent", "inconclusive")
    if r.status == "inconclusive":
        assert "time limit" in r.reason
    with pytest.raises(ValueError, match="timeout must be a positive"):
        decide_linear_independence([X], X, timeout=0)


def test_constant_transcendental_functions_are_not_taken_for_rationals() -> None:
    """tanh(1/3) and sqrt(2) are constants in x but not rational numbers: the exact rational
    route crashed on them ('tanh' object has no attribute 'p')."""
    x = sp.Symbol("x", real=True)
    res = decide_linear_independence([1, sp.tanh(sp.Rational(1, 3)), x], x)
    assert res.status != "independent"
    assert res.status == "inconclusive" or verify_certificate(res)
    assert decide_linear_independence([sp.sqrt(2), x], x).status == "independent"


def test_a_variable_declared_positive_is_sampled_on_its_half_line() -> None:
    """log(x) for x > 0: points x < 0 made it complex ('functions must be real-valued')."""
    xp = sp.Symbol("x", positive=True)
    res = decide_linear_independence([sp.log(xp), 1, xp], xp)
    assert res.status == "independent" and verify_certificate(res)
    assert all(p > 0 for p in res.points)
    assert [(r.lower, r.upper) for r in res.regions] == [(0, sp.oo)]
