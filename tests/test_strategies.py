"""The public Hypothesis strategies draw what they promise and behave like Hypothesis's own:
strategy-valued arguments, ``InvalidArgument`` raised lazily, reprs mirroring the call, and
tight but feasible arguments drawn by construction (no filtering, no health-check failure)."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument, NoSuchExample

from moetheory import strategies as ms
from moetheory.estimation import models

FAST = settings(max_examples=40, deadline=None, database=None)
STRICT = settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[]
)


def score(beta1: np.ndarray, x: np.ndarray, tau1: float, tau2: float) -> float:
    """Perturbed cosine router score (eq. 2); the cosine router for tau1 = tau2 = 0."""
    return float(beta1 @ x / ((np.linalg.norm(beta1) + tau1) * (np.linalg.norm(x) + tau2)))


@FAST
@given(ms.router_params())
def test_router_params_ranges(p: ms.RouterParams) -> None:
    assert 1 <= p.beta1.shape[0] <= 6
    assert 0.1 <= np.linalg.norm(p.beta1) <= 10
    assert 0.01 <= p.tau1 <= 2 and 0.01 <= p.tau2 <= 2
    assert np.all(np.isfinite(p.beta1))


@FAST
@given(st.data())
def test_inputs_away_from_and_near_zero(data: st.DataObject) -> None:
    d1 = data.draw(ms.dimensions())
    away = data.draw(ms.inputs(d1, radius=1e-2, max_norm=5.0))
    near = data.draw(ms.inputs(d1, near_zero=True, radius=1e-2))
    assert away.shape == near.shape == (d1,)
    assert 1e-2 <= np.linalg.norm(away) <= 5.0
    assert 0 < np.linalg.norm(near) <= 1e-2


@FAST
@given(ms.router_params(cosine=True), st.data(), st.floats(0.01, 100.0))
def test_cosine_score_is_scale_invariant(p: ms.RouterParams, data: st.DataObject, c: float) -> None:
    x = data.draw(ms.inputs(p.beta1.shape[0]))
    assert p.tau1 == p.tau2 == 0.0
    assert score(c * p.beta1, x, 0, 0) == pytest.approx(score(p.beta1, x, 0, 0), abs=1e-12)


def test_perturbed_score_is_not_scale_invariant() -> None:
    """The false statement 'the perturbed score is scale invariant' is refuted by a draw."""

    def invariant(args: tuple[ms.RouterParams, np.ndarray]) -> bool:
        p, x = args
        return abs(score(2 * p.beta1, x, p.tau1, p.tau2) - score(p.beta1, x, p.tau1, p.tau2)) < 1e-9

    counterexample = find(
        st.tuples(ms.router_params(d1=2), ms.inputs(2)),
        lambda args: not invariant(args),
        settings=FAST,
    )
    assert not invariant(counterexample)


@FAST
@given(ms.expert_params(d1=3, max_abs=2.0))
def test_expert_params(e: ms.ExpertParams) -> None:
    assert e.a.shape == (3,) and np.linalg.norm(e.a) > 0
    assert np.all(np.abs(e.a) <= 2.0) and abs(e.b) <= 2.0
    assert e.eta.tolist() == [*e.a.tolist(), e.b]


# -- one mixing-measure type, usable with every router -------------------------------


def test_mixing_measure_is_the_estimation_type() -> None:
    assert ms.MixingMeasure is models.MixingMeasure


@FAST
@given(st.integers(1, 4).flatmap(lambda k: st.tuples(st.just(k), ms.mixing_measures(k, d1=2))))
def test_mixing_measures_have_k_distinct_atoms(args: tuple[int, ms.MixingMeasure]) -> None:
    k, G = args
    assert G.k == k and G.d == 2 and G.eta.shape == (k, 3) and G.weights.shape == (k,)
    assert G.beta0[-1] == 0.0  # default gauge: beta0_k = 0
    atoms = np.column_stack([G.beta1, G.eta])
    for i, j in itertools.combinations(range(k), 2):
        assert np.linalg.norm(atoms[i] - atoms[j]) >= 0.1
    assert np.all(np.abs(atoms) <= 3.0)


@FAST
@given(ms.mixing_measures(3, d1=2), ms.inputs(2))
def test_default_mixing_measures_work_with_the_cosine_router(
    G: ms.MixingMeasure, x: np.ndarray
) -> None:
    assert np.all(np.linalg.norm(G.beta1, axis=1) >= 0.1)  # every beta1_i != 0
    scores = models.router_scores(G, x[None, :], models.Router("cosine"))
    assert np.all(np.isfinite(scores))


@FAST
@given(ms.mixing_measures(3, d1=2, gauge="beta0-beta1"))
def test_gauge_of_assumption_a3(G: ms.MixingMeasure) -> None:
    assert G.beta0[-1] == 0.0 and np.all(G.beta1[-1] == 0.0)


def test_mixing_measures_without_a_gauge_are_free() -> None:
    G = find(
        ms.mixing_measures(2, d1=1, gauge=None),
        lambda G: G.beta0[-1] != 0 and G.beta1[-1, 0] != 0,
        settings=FAST,
    )
    assert G.beta0[-1] != 0


@STRICT
@given(ms.mixing_measures(8, d1=1, min_separation=0.42, max_abs=3.0))
def test_tight_feasible_separation_draws_without_rejection(G: ms.MixingMeasure) -> None:
    """(k - 1) * sep = 2.94 < 3: feasible, and drawn with every health check on."""
    atoms = np.column_stack([G.beta1, G.eta])
    for i, j in itertools.combinations(range(8), 2):
        assert np.linalg.norm(atoms[i] - atoms[j]) >= 0.42


# -- strategy-valued arguments --------------------------------------------------------


@FAST
@given(st.data())
def test_shared_dimension_matches_across_strategies(data: st.DataObject) -> None:
    d1 = st.shared(ms.dimensions(1, 5), key="d1")
    G, p, e, x = data.draw(
        st.tuples(ms.mixing_measures(2, d1), ms.router_params(d1), ms.expert_params(d1),
                  ms.inputs(d1))
    )
    assert G.d == p.beta1.shape[0] == e.a.shape[0] == x.shape[0]


@FAST
@given(ms.mixing_measures(st.integers(2, 3), st.just(2)), ms.vectors(st.just(3)))
def test_k_and_d_may_be_strategies(G: ms.MixingMeasure, v: np.ndarray) -> None:
    assert G.k in (2, 3) and G.d == 2 and v.shape == (3,)


# -- reprs and lazy errors, as in Hypothesis -------------------------------------------


def test_reprs_mirror_the_call() -> None:
    assert repr(ms.mixing_measures(3, d1=2)) == "mixing_measures(k=3, d1=2)"
    assert repr(ms.router_params(cosine=True)) == "router_params(cosine=True)"
    assert repr(ms.inputs(st.just(2))) == "inputs(just(2))"
    assert repr(ms.cl_settings(max_rounds=20)) == "cl_settings(max_rounds=20)"


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: ms.router_params(min_tau=-1.0), r"min_tau must lie in .* use cosine=True"),
        (lambda: ms.router_params(min_tau=2.0, max_tau=1.0), r"min_tau must be <= max_tau"),
        (lambda: ms.router_params(d1=0), r"d1 must lie in \[1, 64\]"),
        (lambda: ms.router_params(min_norm=0.0), r"min_norm must lie in .* non-zero"),
        (lambda: ms.inputs(3, radius=0.0), r"radius must lie strictly in \(0, 1\)"),
        (lambda: ms.inputs(3, radius=float("nan")), r"radius must lie in"),
        (lambda: ms.inputs(2.5), r"d1 must be an integer"),  # type: ignore[arg-type]
        (lambda: ms.inputs(st.just(0)), r"d1 must lie in \[1, 64\], got 0"),
        (lambda: ms.vectors(3, min_norm=2.0, max_norm=1.0), r"min_norm must be <= max_norm"),
        (lambda: ms.expert_params(max_abs=0.0), r"max_abs must lie in"),
        (lambda: ms.mixing_measures(0), r"k must lie in \[1, 8\].*at least one atom"),
        (lambda: ms.mixing_measures(2, min_separation=5.0), r"min_separation must lie in"),
        (lambda: ms.mixing_measures(8, min_separation=0.5), r"infeasible for k=8"),
        (lambda: ms.mixing_measures(2, gauge="beta1"), r"gauge must be one of"),
        (lambda: ms.cl_settings(max_dim=2), r"max_dim must lie in \[3, 64\].*1 <= s < d"),
        (
            lambda: ms.cl_settings(max_tasks=1, experts_exceed_tasks=False),
            r"max_tasks must be >= 2",
        ),
        (lambda: ms.dimensions(4, 2), r"min_dim must be <= max_dim"),
        (lambda: ms.cl_settings(max_experts=0), r"max_experts must lie in \[1, 64\], got 0; pass"),
        (lambda: ms.expert_params(max_abs="big"), r"max_abs must be a finite number"),
    ],
)
def test_bad_arguments_raise_invalid_argument_lazily(make, match: str) -> None:  # type: ignore[no-untyped-def]
    strategy = make()  # defining the strategy never fails ...
    with pytest.raises(InvalidArgument, match=match):  # ... drawing from it does

        @settings(max_examples=1, database=None, suppress_health_check=list(HealthCheck))
        @given(strategy)
        def draw_one(value: object) -> None:
            pass

        draw_one()


@FAST
@given(ms.cl_settings(experts_exceed_tasks=True), ms.cl_settings(experts_exceed_tasks=False))
def test_cl_settings_cases(more: ms.CLSettings, fewer: ms.CLSettings) -> None:
    assert more.M > more.N >= 1 and fewer.N > fewer.M >= 1
    for c in (more, fewer):
        assert 1 <= c.s < c.d and c.T >= 2 and c.eta > 0 and 0 < c.gamma <= 2 * c.lam
        assert 1 <= c.K <= c.N


@FAST
@given(ms.cl_settings(max_rounds=20))
def test_cl_settings_build_a_simulator_config(c: ms.CLSettings) -> None:
    continual = pytest.importorskip("moetheory.continual")
    cfg = continual.CLConfig(**c.as_dict())
    assert (cfg.M, cfg.N, cfg.K, cfg.d, cfg.s, cfg.T) == (c.M, c.N, c.K, c.d, c.s, c.T)


def test_impossible_requirement_finds_nothing() -> None:
    with pytest.raises(NoSuchExample):
        find(ms.cl_settings(max_dim=3), lambda c: c.s >= c.d, settings=FAST)


# -- bounds hold exactly, for the real norm of the drawn floats --------------------------

MANY = settings(max_examples=400, deadline=None, database=None, derandomize=True)


def norm_squared(v: np.ndarray) -> Fraction:
    """The exact squared Euclidean norm of a float vector (no rounding at all)."""
    return sum((Fraction(float(x)) ** 2 for x in np.ravel(v)), Fraction(0))


def within(v: np.ndarray, low: float, high: float) -> bool:
    """``low <= ||v|| <= high`` exactly, and as NumPy computes the norm (1-D and row-wise)."""
    n = float(np.linalg.norm(v))
    rows = float(np.linalg.norm(np.atleast_2d(v), axis=1)[0])
    exact = Fraction(low) ** 2 <= norm_squared(v) <= Fraction(high) ** 2
    return exact and low <= n <= high and low <= rows <= high


@MANY
@given(st.data())
def test_vector_norms_hold_their_bounds_exactly(data: st.DataObject) -> None:
    d = data.draw(st.integers(1, 8), label="d")
    low = data.draw(st.sampled_from([0.1, 1e-3, 1.0, 0.3]), label="low")
    high = data.draw(st.sampled_from([low, 2 * low, 10.0]), label="high")
    assert within(data.draw(ms.vectors(d, min_norm=low, max_norm=high)), low, high)
    assert within(data.draw(ms.inputs(d, radius=1e-2, max_norm=5.0)), 1e-2, 5.0)
    assert within(data.draw(ms.inputs(d, near_zero=True, radius=1e-2)), 1e-4, 1e-2)
    p = data.draw(ms.router_params(d, min_norm=low, max_norm=high))
    assert within(p.beta1, low, high)
    e = data.draw(ms.expert_params(d, max_abs=high))
    assert within(e.a, min(0.1, high), high)


@MANY
@given(ms.mixing_measures(3, d1=2))
def test_mixing_measure_rows_keep_min_norm_exactly(G: ms.MixingMeasure) -> None:
    """The cause of the flaky cosine-router test: norms of 0.1 - 1.4e-17 for min_norm=0.1."""
    for row in G.beta1:
        assert within(row, 0.1, 3.0)


def test_equal_norm_bounds_are_met_exactly() -> None:
    seen: list[bool] = []

    @MANY
    @given(ms.vectors(st.integers(1, 5), min_norm=0.7, max_norm=0.7))
    def record(v: np.ndarray) -> None:
        seen.append(within(v, 0.7, 0.7))

    record()
    assert seen and all(seen)


# -- the public value types have registered strategies ------------------------------------


@FAST
@given(st.from_type(ms.RouterParams))
def test_from_type_router_params(p: ms.RouterParams) -> None:
    assert isinstance(p.beta1, np.ndarray) and p.beta1.dtype == np.float64
    assert p.beta1.ndim == 1 and 1 <= p.beta1.size <= 6 and np.all(np.isfinite(p.beta1))
    assert within(p.beta1, 0.1, 10.0)
    assert isinstance(p.tau1, float) and isinstance(p.tau2, float)
    assert 0.01 <= p.tau1 <= 2 and 0.01 <= p.tau2 <= 2


@FAST
@given(st.from_type(ms.ExpertParams))
def test_from_type_expert_params(e: ms.ExpertParams) -> None:
    assert e.a.dtype == np.float64 and e.a.ndim == 1 and np.all(np.abs(e.a) <= 5.0)
    assert np.linalg.norm(e.a) > 0 and isinstance(e.b, float) and abs(e.b) <= 5.0


@FAST
@given(st.from_type(ms.CLSettings))
def test_from_type_cl_settings(c: ms.CLSettings) -> None:
    assert 1 <= c.K <= c.N and 1 <= c.s < c.d and c.T >= 2 and 0 < c.gamma <= 2 * c.lam


@FAST
@given(st.from_type(models.MixingMeasure))
def test_from_type_mixing_measure(G: models.MixingMeasure) -> None:
    assert 1 <= G.k <= 4 and G.eta.shape == (G.k, G.d + 1)
    assert np.all(np.isfinite(G.beta1)) and np.all(np.abs(G.eta) <= 3.0)
    for row in G.beta1:
        assert within(row, 0.1, 3.0)



# -- the package's Hypothesis tests are reproducible ------------------------------------

FAILING = '''
from hypothesis import given, strategies as st
from moetheory import strategies as ms

@given(ms.vectors(st.integers(1, 4)))
def test_fails(v):
    assert v.size < 3
'''


def run_failing_test(tmp_path: Path, **env: str) -> str:
    test = tmp_path / "test_fails.py"
    test.write_text(FAILING)
    repo = Path(__file__).resolve().parents[1]
    environ = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"}
    environ["PYTHONPATH"] = os.pathsep.join(
        [str(repo), str(repo / "tests"), environ.get("PYTHONPATH", "")]
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "--rootdir", str(tmp_path), str(test)],
        capture_output=True, text=True, cwd=repo, env={**environ, **env}, timeout=300,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return proc.stdout


def test_a_failure_replays_and_prints_how(tmp_path: Path) -> None:
    """The test profile is derandomized (the same falsifying example on every run) and a
    failure prints the ``@reproduce_failure`` blob."""
    first, second = run_failing_test(tmp_path), run_failing_test(tmp_path)
    assert "@reproduce_failure(" in first
    blob = first.split("@reproduce_failure(")[1].split(")")[0]
    assert blob == second.split("@reproduce_failure(")[1].split(")")[0]
