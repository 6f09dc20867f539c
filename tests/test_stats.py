"""The decision framework of moetheory.stats: rules, intervals, adaptive replicates."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moetheory.engine.verdicts import Verdict
from moetheory.stats import (
    Budget,
    MeanEstimate,
    at_least,
    at_most,
    betting_ci,
    bootstrap_ci,
    claimed_values,
    combine,
    compare,
    greater,
    mean_ci,
    proportion_ci,
    run_sequential,
    stable,
)

S, U, I = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.INCONCLUSIVE  # noqa: E741


def est(lo: float, hi: float) -> MeanEstimate:
    return MeanEstimate((lo + hi) / 2, lo, hi, 10, 0.99)


# ------------------------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("lo", "hi", "verdict"),
    [
        (-0.05, 0.05, S),  # inside the band
        (-0.1, 0.1, S),  # exactly the band
        (0.05, 0.2, I),  # straddles r + t: was "supported" before issue 11
        (-0.5, 0.5, I),  # wider than the band: can never support
        (0.11, 0.3, U),  # entirely above
        (-0.3, -0.11, U),  # entirely below
    ],
)
def test_equivalence_rule(lo: float, hi: float, verdict: Verdict) -> None:
    assert compare("x", est(lo, hi), 0.0, 0.1).verdict is verdict


@pytest.mark.parametrize(
    ("lo", "hi", "verdict"),
    [(-1.0, 0.1, S), (0.05, 0.3, I), (0.2, 0.3, U)],
)
def test_at_most_rule(lo: float, hi: float, verdict: Verdict) -> None:
    # the bound claim "mean <= 0" with tolerance 0.1; a straddling interval used to be supported
    assert at_most("x", est(lo, hi), 0.0, 0.1).verdict is verdict


@pytest.mark.parametrize(
    ("lo", "hi", "verdict"),
    [(-0.1, 1.0, S), (-0.3, 0.0, I), (-0.5, -0.2, U)],
)
def test_at_least_rule(lo: float, hi: float, verdict: Verdict) -> None:
    assert at_least("x", est(lo, hi), 0.0, 0.1).verdict is verdict


@pytest.mark.parametrize(
    ("lo", "hi", "verdict"),
    [(0.01, 0.05, S), (-0.2, 0.05, U), (-0.2, 0.3, I), (-0.2, -0.1, U)],
)
def test_greater_rule(lo: float, hi: float, verdict: Verdict) -> None:
    assert greater("x", est(lo, hi), 0.0, 0.1).verdict is verdict


@settings(max_examples=200, deadline=None)
@given(
    center=st.floats(-10, 10),
    half=st.floats(0, 10),
    ref=st.floats(-10, 10),
    tol=st.floats(0, 5),
)
def test_wide_interval_never_supports(center: float, half: float, ref: float, tol: float) -> None:
    e = est(center - half, center + half)
    v = compare("x", e, ref, tol).verdict
    if 2 * half > 2 * tol + 1e-9:
        assert v is not S
    # supported and unsupported are exclusive and each implies a side of the band
    if v is S:
        assert ref - tol <= e.low and e.high <= ref + tol
    if v is U:
        assert e.high < ref - tol or e.low > ref + tol


def test_comparison_evidence_names_everything() -> None:
    d = compare("x", mean_ci([0.1, 0.2, 0.3, 0.25], 0.01), 0.2, 0.5).to_dict()
    for key in ("rule", "estimate", "ci", "ci_method", "ci_level", "alpha", "n", "reference",
                "tolerance", "verdict"):
        assert key in d
    assert d["rule"] == "equivalence" and d["ci_method"] == "t" and d["n"] == 4


def test_bad_tolerance_is_refused() -> None:
    with pytest.raises(ValueError, match="tolerance must be >= 0"):
        compare("x", est(0, 1), 0.0, -0.1)
    with pytest.raises(ValueError, match="effect must be >= 0"):
        greater("x", est(0, 1), 0.0, -0.1)


def test_combine() -> None:
    assert combine([S, I]) is I
    assert combine([S, I, U]) is U
    assert combine([S, S]) is S
    assert combine([Verdict.PROVED, Verdict.PROVED]) is Verdict.PROVED


def test_stable_rounds_to_significant_digits() -> None:
    assert stable(0.000123456) == 0.0001235
    assert stable(123456.0) == 123500.0
    assert stable(1.23456, digits=2) == 1.2
    assert stable(None) is None
    assert math.isnan(stable(float("nan")))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- intervals


def _coverage(make, draw, truth: float, reps: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(reps):
        e = make(draw(rng))
        hits += e.low <= truth <= e.high
    return hits / reps


def test_t_interval_coverage_normal() -> None:
    cov = _coverage(lambda x: mean_ci(x, 0.1), lambda r: r.normal(2.0, 1.0, 15), 2.0, 2000, 1)
    assert 0.88 <= cov <= 0.92


def test_clopper_pearson_coverage_at_least_nominal() -> None:
    rng = np.random.default_rng(2)
    for p in (0.02, 0.3, 0.9):
        k = rng.binomial(40, p, size=2000)
        ci = {j: proportion_ci(j, 40, 0.1) for j in range(41)}
        cov = np.mean([ci[int(ki)].low <= p <= ci[int(ki)].high for ki in k])
        assert cov >= 0.9 - 0.015


def test_betting_coverage_skewed_bounded() -> None:
    # Beta(0.3, 3): skewed towards 0, mean 1/11; the betting interval is exact at any level
    cov = _coverage(lambda x: betting_ci(x, 0.1, (0.0, 1.0), grid=500),
                    lambda r: r.beta(0.3, 3.0, 40), 0.3 / 3.3, 400, 3)
    assert cov >= 0.9 - 0.03


def test_bca_coverage_exponential() -> None:
    cov = _coverage(
        lambda x: bootstrap_ci(x, 0.2, np.random.default_rng(0), (0.0, math.inf), 1000),
        lambda r: r.exponential(1.0, 60), 1.0, 300, 4)
    assert cov >= 0.8 - 0.07


def test_t_interval_on_skewed_small_sample_undercovers() -> None:
    # why bounded, skewed quantities use the betting interval: at a small level the t interval
    # on Beta(0.05, 3) data (mean 1/61) misses far more often than alpha
    alpha = 0.01
    miss_t = 1 - _coverage(lambda x: mean_ci(x, alpha, (0.0, 1.0)),
                           lambda r: np.append(r.beta(0.05, 3.0, 19), 1e-9), 0.05 / 3.05, 300, 5)
    miss_b = 1 - _coverage(lambda x: betting_ci(x, alpha, (0.0, 1.0), grid=500),
                           lambda r: np.append(r.beta(0.05, 3.0, 19), 1e-9), 0.05 / 3.05, 300, 5)
    assert miss_t > 5 * alpha
    assert miss_b <= alpha + 0.02


def test_intervals_stay_in_range() -> None:
    x = np.array([0.0, 0.0, 0.0, 0.01, 0.5])
    for e in (mean_ci(x, 1e-4, (0.0, 1.0)), betting_ci(x, 1e-4, (0.0, 1.0)),
              bootstrap_ci(x, 0.01, np.random.default_rng(0), (0.0, 1.0))):
        assert 0.0 <= e.low <= e.mean <= e.high <= 1.0
    assert mean_ci(x, 1e-4, (0.0, 1.0)).clipped
    assert "clipped_to" in mean_ci(x, 1e-4, (0.0, 1.0)).to_dict()


def test_interval_input_errors() -> None:
    with pytest.raises(ValueError, match="declared range"):
        mean_ci([0.0, 2.0], 0.1, (0.0, 1.0))
    with pytest.raises(ValueError, match="alpha must lie in"):
        betting_ci([0.1, 0.2], 1.5, (0.0, 1.0))
    with pytest.raises(ValueError, match="bounds must be finite"):
        betting_ci([0.1, 0.2], 0.1, (0.0, math.inf))
    with pytest.raises(ValueError, match="n_resamples must be >= 50/alpha"):
        bootstrap_ci([0.1, 0.2, 0.3], 0.001, np.random.default_rng(0), n_resamples=1000)


# ----------------------------------------------------------------------------- sequential


def _normal_run(mu: float, seed: int, budget: Budget, alpha: float = 0.01):
    def draw(look: int, size: int) -> dict[str, np.ndarray]:
        return {"x": np.random.default_rng([seed, look]).normal(mu, 1.0, size)}

    def judge(data: dict[str, np.ndarray], a: float):
        return [compare("E[x] vs 0", mean_ci(data["x"], a), 0.0, 0.5)]

    return run_sequential(draw, judge, alpha, budget)


def test_sequential_stops_early_when_clear() -> None:
    res = _normal_run(3.0, 0, Budget(20, 5))
    assert res.comparisons[0].verdict is U
    assert res.n == 20 and res.stopped_early
    assert res.alpha_look == pytest.approx(0.01 / 5)
    assert res.comparisons[0].estimate.level == pytest.approx(1 - 0.002)


def test_sequential_uses_more_replicates_when_close() -> None:
    res = _normal_run(0.0, 0, Budget(10, 6))
    assert res.n > 10
    assert res.evidence()["looks_used"] == len(res.looks)


def test_sequential_error_rates_hold() -> None:
    # true claim at the edge of the band (mu = 0.5, tolerance 0.5) and a false one (mu = 0.6):
    # the true claim is unsupported at most alpha of the time, the false one supported at most
    # alpha, although the run looks up to 4 times
    alpha = 0.1
    runs_true = [_normal_run(0.5, s, Budget(10, 4), alpha).comparisons[0].verdict
                 for s in range(300)]
    runs_false = [_normal_run(0.6, s, Budget(10, 4), alpha).comparisons[0].verdict
                  for s in range(300)]
    assert runs_true.count(U) / 300 <= alpha / 2 + 0.03
    assert runs_false.count(S) / 300 <= alpha / 2 + 0.03


def test_budget_for_profile_and_errors() -> None:
    assert Budget.for_profile("full", (10, 2), (50, 4)).max_n == 200
    with pytest.raises(ValueError, match="profile must be"):
        Budget.for_profile("huge", (10, 2), (50, 4))
    with pytest.raises(ValueError, match="max_looks must be"):
        Budget(10, 0)


def test_claimed_values_hook_moves_and_records() -> None:
    seen: list = []
    e = est(0.9, 1.1)
    with claimed_values(lambda rule, label, v, t: v + 2 * t + 1.0, seen):
        c = compare("x", e, 1.0, 0.2)
    assert c.verdict is U and c.reference == pytest.approx(2.4)
    assert seen == [c]
    assert compare("x", e, 1.0, 0.2).verdict is S  # restored


def test_range_check_allows_rounding_and_infinite_ends() -> None:
    # a value one ulp past an exact range end is accepted; one-sided and two-sided infinite
    # ranges work
    assert mean_ci([1.0 + 2e-16, 1.0], 0.1, (0.0, 1.0)).high <= 1.0
    assert mean_ci([-1.0, 2.0], 0.1, (-math.inf, math.inf)).method == "t"
    assert mean_ci([0.5, 2.0], 0.1, (0.0, math.inf)).low >= 0.0


def test_decisions_use_unrounded_values() -> None:
    # printed to 4 digits the interval is [0.05, 0.1], inside the band [-0.1, 0.1]; the
    # decision sees 0.100004 > 0.1 and stays inconclusive
    c = compare("x", MeanEstimate(0.07, 0.05, 0.100004, 10, 0.99), 0.0, 0.1)
    assert c.verdict is I
    assert c.to_dict()["ci"] == [0.05, 0.1]


def test_sequential_rejects_empty_draw() -> None:
    with pytest.raises(ValueError, match="draw returned no data"):
        run_sequential(lambda look, size: {}, lambda data, a: [], 0.01, Budget(2, 2))
