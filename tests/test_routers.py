"""Router scores: symbolic and numeric forms agree, invariances, bounds and input validation."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from moetheory.symbolic.routers import (
    COSINE,
    EPS,
    IMPLEMENTATION_VARIANTS,
    LINEAR,
    NB,
    NX,
    TAU1,
    TAU2,
    Normalisation,
    U,
    coordinates,
    cosine_score,
    gradient_norm_squared,
    linear_score,
    normalised_router,
    normalised_score,
    perturbed_cosine_router,
    perturbed_cosine_score,
)

finite = st.floats(min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)


@st.composite
def pairs(draw, min_d: int = 1, max_d: int = 5, min_norm: float = 1e-3):
    d = draw(st.integers(min_d, max_d))
    b = np.array(draw(st.lists(finite, min_size=d, max_size=d)))
    x = np.array(draw(st.lists(finite, min_size=d, max_size=d)))
    assume(np.linalg.norm(b) >= min_norm and np.linalg.norm(x) >= min_norm)
    return b, x


taus = st.floats(min_value=1e-3, max_value=5.0)


@settings(max_examples=60, deadline=None)
@given(pairs(), st.floats(min_value=1e-3, max_value=1e3), st.floats(min_value=1e-3, max_value=1e3))
def test_cosine_score_is_scale_invariant(pair, c1, c2):
    b, x = pair
    assert cosine_score(c1 * b, c2 * x) == pytest.approx(cosine_score(b, x), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(pairs(), st.floats(min_value=2.0, max_value=50.0), taus, taus)
def test_perturbed_score_is_not_scale_invariant_in_beta1_but_bounded(pair, c, t1, t2):
    b, x = pair
    s1 = perturbed_cosine_score(b, x, t1, t2)
    sc = perturbed_cosine_score(c * b, x, t1, t2)
    assert abs(s1) < 1 and abs(sc) < 1
    if abs(b @ x) > 1e-6:  # exact scale change: sc / s1 = c (nb + t1) / (c nb + t1) != 1
        nb = np.linalg.norm(b)
        assert sc / s1 == pytest.approx(c * (nb + t1) / (c * nb + t1), rel=1e-9)
        assert sc / s1 > 1


def test_known_values():
    assert linear_score([1.0, 2.0], [3.0, 4.0]) == 11.0
    assert cosine_score([2.0], [-5.0]) == -1.0  # d1 = 1: sign(beta1 * x)
    assert perturbed_cosine_score([3.0, 4.0], [1.0, 0.0], 1.0, 1.0) == pytest.approx(0.25)
    assert perturbed_cosine_score([3.0, 4.0], [1.0, 0.0], 0.0, 0.0) == pytest.approx(0.6)
    # clamp inactive: plain normalisation; clamp active: divide by eps
    assert normalised_score([3.0, 4.0], [1.0, 0.0], "clamp", "expert", 1.0) == pytest.approx(0.6)
    assert normalised_score([0.3, 0.4], [1.0, 0.0], "clamp", "expert", 1.0) == pytest.approx(0.3)
    assert normalised_score([3.0, 4.0], [1.0, 0.0], "additive", "both", 1.0) == pytest.approx(
        perturbed_cosine_score([3.0, 4.0], [1.0, 0.0], 1.0, 1.0)
    )


@settings(max_examples=25, deadline=None)
@given(pairs(max_d=4), taus, taus)
def test_symbolic_score_matches_numeric(pair, t1, t2):
    b, x = pair
    bs, xs = coordinates(len(b))
    point = {**dict(zip(bs, b, strict=True)), **dict(zip(xs, x, strict=True))}
    for router in (COSINE, LINEAR, perturbed_cosine_router(t1, t2), *IMPLEMENTATION_VARIANTS):
        r = router if router.expert.eps != EPS and router.token.eps != EPS else normalised_router(
            router.name.split("-")[0], router.name.split("-")[1], 0.7
        )
        symbolic = float(r.score(bs, xs).subs(point))
        assert symbolic == pytest.approx(r.evaluate(b, x), rel=1e-9, abs=1e-12)
        assert float(r.evaluate(b, x, dps=30)) == pytest.approx(r.evaluate(b, x), rel=1e-9,
                                                                abs=1e-12)


def test_scalar_forms():
    assert sp.simplify(COSINE.scalar_score() - U / (NB * NX)) == 0
    pert = perturbed_cosine_router().scalar_score()
    assert sp.simplify(pert - U / ((NB + TAU1) * (NX + TAU2))) == 0
    assert perturbed_cosine_router(0, 0).scalar_score() == COSINE.scalar_score()
    assert normalised_router("clamp", "both").scalar_score(pieces=("active", "inactive")).equals(
        U / (EPS * NX)
    )


@settings(max_examples=15, deadline=None)
@given(pairs(min_d=2, max_d=4, min_norm=0.1), taus, taus)
def test_gradient_norm_matches_mpmath(pair, t1, t2):
    b, x = pair
    d = len(b)
    params = {TAU1: sp.Float(t1, 30), TAU2: sp.Float(t2, 30)}
    for router in (COSINE, perturbed_cosine_router()):
        f = sp.lambdify((U, NB, NX), router.scalar_score().subs(params), "mpmath")
        for wrt in ("x", "beta1"):
            closed = gradient_norm_squared(router, wrt).subs(params)
            with mpmath.workdps(30):
                pt = [mpmath.mpf(float(t)) for t in (*b, *x)]

                def s(*v, f=f):
                    bb, xx = v[:d], v[d:]
                    return f(mpmath.fsum(p * q for p, q in zip(bb, xx, strict=True)),
                             mpmath.norm(bb), mpmath.norm(xx))

                idx = range(d, 2 * d) if wrt == "x" else range(d)
                grad = [mpmath.diff(s, pt, tuple(int(j == i) for j in range(2 * d))) for i in idx]
                numeric = float(mpmath.fsum(gi**2 for gi in grad))
            value = float(closed.subs({U: float(b @ x), NB: float(np.linalg.norm(b)),
                                       NX: float(np.linalg.norm(x))}))
            assert value == pytest.approx(numeric, rel=1e-8, abs=1e-12)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: perturbed_cosine_score([1.0], [1.0], -0.1, 1.0), "tau1"),
        (lambda: perturbed_cosine_score([1.0], [1.0], 1.0, -2), "tau2"),
        (lambda: perturbed_cosine_score([1.0], [1.0], 1.0, math.nan), "tau2"),
        (lambda: perturbed_cosine_router(math.inf, 1), "tau1"),
        (lambda: coordinates(0), "d1"),
        (lambda: coordinates(2.5), "d1"),
        (lambda: cosine_score([1.0, math.nan], [1.0, 2.0]), "beta1"),
        (lambda: cosine_score([1.0, 1.0], [math.inf, 2.0]), "x"),
        (lambda: cosine_score([1.0, 1.0], [0.0, 0.0]), "x"),
        (lambda: cosine_score([1.0, 1.0], [1.0]), "same length"),
        (lambda: cosine_score([], []), "beta1"),
        (lambda: normalised_score([1.0], [1.0], "clamp", "expert", -1.0), "eps"),
        (lambda: normalised_score([1.0], [1.0], "clamp", "expert", 0.0), "eps"),
        (lambda: normalised_router("softmax", "both"), "kind"),
        (lambda: normalised_router("clamp", "nowhere"), "on"),
        (lambda: Normalisation("weird"), "kind"),
        (lambda: gradient_norm_squared(COSINE, "eta"), "wrt"),
        (lambda: COSINE.evaluate([1.0], [1.0], dps=5), "dps"),
        (lambda: COSINE.scalar_score(pieces=("active", "everywhere")), "pieces"),
    ],
)
def test_bad_input_raises_value_error_naming_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
