"""Tests of the variant MoE models, their staged fit, the variant rate designs and the claims
of proofs_checks/nguyen2025cosine/rates.py (decisions checked on synthetic losses)."""

from __future__ import annotations

import numpy as np
import pytest

import proofs_checks.nguyen2025cosine._variant_rates as vr
import proofs_checks.nguyen2025cosine.rates as rates
from moetheory import CheckContext, Verdict
from moetheory.estimation.models import MixingMeasure, Router, regression_function
from moetheory.estimation.variant_rates import (
    VariantDesign,
    _top1_losses,
    group_losses,
    run_variant,
    true_variant,
    variant_design,
)
from moetheory.estimation.variants import (
    Stage,
    expert_size,
    fit_variant,
    variant_experts,
    variant_jacobian,
    variant_model,
)

ROUTERS = ("linear", "cosine", "perturbed")


@pytest.mark.parametrize("router", ROUTERS)
@pytest.mark.parametrize(
    ("family", "top_k", "softness", "temperature"),
    [("tanh", None, 0.0, 1.0), ("tanh", 2, 0.0, 1.0), ("tanh", 2, 0.2, 1.0),
     ("relu2", None, 0.0, 0.3), ("relu2", 1, 0.0, 1.0), ("relu2", 2, 0.1, 0.5)],
)
def test_jacobian_matches_finite_differences(router, family, top_k, softness, temperature):
    rng = np.random.default_rng(3)
    k = 3
    size = k * (1 + 2 + expert_size(family, 2))
    theta = rng.standard_normal((2, size))
    x = rng.uniform(-2, 2, (2, 40, 2))
    kw = {"temperature": temperature, "top_k": top_k, "softness": softness}
    _, J = variant_jacobian(theta, x, k, Router(router), family, **kw)
    h = 1e-7
    for j in range(size):
        e = np.zeros_like(theta)
        e[:, j] = h
        num = (variant_model(theta + e, x, k, Router(router), family, **kw)
               - variant_model(theta - e, x, k, Router(router), family, **kw)) / (2 * h)
        # ReLU kinks and Top-K switches lie within h of a sample with probability ~0
        assert np.max(np.abs(num - J[:, :, j])) < 1e-5, j


@pytest.mark.parametrize("router", ROUTERS)
@pytest.mark.parametrize("top_k", [None, 1, 2])
def test_tanh_model_is_the_package_regression_function(router, top_k):
    G = MixingMeasure.from_vector(true_variant("topk"), 3, 2)
    x = np.random.default_rng(0).uniform(-2, 2, (50, 2))
    f = variant_model(G.to_vector()[None], x[None], 3, Router(router), top_k=top_k)
    ref = regression_function(G, x, Router(router), "tanh", top_k=top_k)
    np.testing.assert_allclose(f[0], ref, rtol=0, atol=1e-12)


def test_soft_top_k_tends_to_hard_top_k():
    t = true_variant("topk")[None]
    x = np.random.default_rng(1).uniform(-2, 2, (1, 400, 2))
    hard = variant_model(t, x, 3, Router("linear"), top_k=2)
    gaps = [np.max(np.abs(variant_model(t, x, 3, Router("linear"), top_k=2, softness=s) - hard))
            for s in (0.3, 0.03, 0.003)]
    assert gaps[0] > gaps[1] > gaps[2]
    assert gaps[0] > 1e-3


def test_relu2_expert_by_hand():
    # a = ((1, 0), (0, 1)), b = (0, -1), w = (2, 3), c = 0.5 at x = (1, 2): 2*1 + 3*1 + 0.5
    eta = np.array([[[1.0, 0.0, 0.0, 1.0, 0.0, -1.0, 2.0, 3.0, 0.5]]])
    h, dh = variant_experts(eta, np.array([[[1.0, 2.0]]]), "relu2")
    assert h[0, 0, 0] == 5.5
    assert dh[0, 0, 0].tolist() == [2.0, 4.0, 3.0, 6.0, 2.0, 3.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: expert_size("gelu", 2), "family must be one of"),
        (lambda: expert_size("tanh", 0), "d must be an integer >= 1"),
        (lambda: Stage(1.0, None, 0), "iterations must be an integer >= 1"),
        (lambda: Stage(1.0, 2, 5, softness=-1.0), "softness must be >= 0"),
        (lambda: variant_model(np.zeros((1, 6)), np.ones((1, 3, 2)), 1, Router("linear"),
                               top_k=2), "top_k must be an integer in"),
        (lambda: variant_model(np.zeros((1, 9)), np.ones((1, 3, 2)), 2, Router("linear")),
         "theta must have shape"),
        (lambda: variant_model(np.zeros((1, 6)), np.ones((1, 3, 2)), 1, Router("linear"),
                               temperature=0.0), "temperature must be > 0"),
        (lambda: fit_variant(np.ones((1, 3, 2)), np.ones((1, 3)), np.zeros((1, 6)), 1,
                             Router("linear"), "tanh", ()), "stages must hold"),
        (lambda: VariantDesign("topk", (5, 50), 2, 0, 1), "n_grid must hold"),
        (lambda: VariantDesign("topk", (50, 100), 1, 0, 1), "replicates must be >= 2"),
        (lambda: VariantDesign("topk", (50, 100), 2, 0, 1, routers=("sigmoid",)),
         "router kind must be one of"),
        (lambda: variant_design("misspecified", "slow"), "profile must be 'quick' or 'full'"),
        (lambda: true_variant("top2"), "setting must be one of"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_fit_recovers_noiseless_top_k_model():
    t = true_variant("topk")
    x = np.random.default_rng(2).uniform(-2, 2, (2, 500, 2))
    y = variant_model(np.tile(t, (2, 1)), x, 3, Router("linear"), top_k=2)
    t0 = t + 0.02 * np.random.default_rng(3).standard_normal((2, t.size))
    start = np.mean((variant_model(t0, x, 3, Router("linear"), top_k=2) - y) ** 2, axis=1)
    stages = (*(Stage(1.0, 2, 10, s) for s in (0.5, 0.2, 0.05, 0.02, 0.005)), Stage(1.0, 2, 10))
    fit = fit_variant(x, y, t0, 3, Router("linear"), "tanh", stages)
    assert np.all(start > 1e-4)
    assert np.all(fit.objective < 1e-20)
    # the hard Top-K objective alone stalls at a jump: the relaxation is what makes it work
    stuck = fit_variant(x, y, t0, 3, Router("linear"), "tanh", (Stage(1.0, 2, 60),))
    assert np.max(stuck.objective) > 1e-6


def test_top1_losses_are_zero_at_the_truth_and_blind_to_relabelling():
    d = variant_design("top1")
    t = true_variant("top1")
    x = np.random.default_rng(0).uniform(-2, 2, (300, 2))
    assert _top1_losses(t, t, x, d, "cosine") == {"regression_l2": 0.0, "routing": 0.0,
                                                  "expert_l2": 0.0}
    # swap the two atoms: the same MoE, so every loss stays 0
    swapped = np.concatenate([t[[1, 0]], t[4:6], t[2:4], t[15:24], t[6:15]])
    assert _top1_losses(swapped, t, x, d, "linear")["routing"] == 0.0
    assert _top1_losses(swapped, t, x, d, "linear")["expert_l2"] == 0.0
    moved = t.copy()
    moved[0] += 1.0  # shifts the partition
    assert _top1_losses(moved, t, x, d, "linear")["routing"] > 0.05


def test_group_losses_vanish_only_at_the_target():
    G = MixingMeasure.from_vector(true_variant("misspecified"), 2, 2)
    x = np.random.default_rng(0).uniform(-2, 2, (100, 2))
    assert group_losses(G, G, "cosine", x)["voronoi_l1"] == 0.0
    # cosine: beta1's norm is not identified, so scaling it changes nothing
    scaled = MixingMeasure(G.beta0, 3.0 * G.beta1, G.eta)
    assert group_losses(scaled, G, "cosine", x)["beta1_l1"] == pytest.approx(0.0, abs=1e-12)
    other = MixingMeasure(G.beta0, G.beta1, G.eta + 0.1)
    assert group_losses(other, G, "cosine", x)["expert_l1"] > 0.1


def test_run_variant_is_reproducible_and_seeded():
    d = VariantDesign("misspecified", (30, 60), 2, 0, 2, grid=12, routers=("linear",))
    a, b = run_variant(d, 5, "linear"), run_variant(d, 5, "linear")
    c = run_variant(d, 6, "linear")
    assert a == b
    assert a["records"] != c["records"]
    assert a["reference"]["gradient_norm"] < 1e-3


def test_run_variant_runs_the_last_stage_to_the_rule_and_records_it():
    d = VariantDesign("topk", (30, 60), 2, 0, 2, routers=("perturbed",), cap=200)
    capped = VariantDesign("topk", (30, 60), 2, 0, 2, routers=("perturbed",), cap=1)
    recs = run_variant(d, 0, "perturbed")["records"]
    assert all(r["converged"] and 1 <= r["iterations"] <= 200 for r in recs)
    assert any(r["iterations"] > 1 for r in recs)
    recs1 = run_variant(capped, 0, "perturbed")["records"]
    assert all(r["iterations"] == 1 for r in recs1)
    assert not all(r["converged"] for r in recs1)
    assert d.stages()[-1].iterations == 200
    with pytest.raises(ValueError, match="cap must be >= 1"):
        VariantDesign("topk", (30, 60), 2, 0, 2, cap=0)
    with pytest.raises(ValueError, match="lm_tol must be > 0"):
        VariantDesign("topk", (30, 60), 2, 0, 2, lm_tol=0.0)


# --------------------------------------------------------------------------- claim decisions


def _fake_runs(exponent: float, setting: str, spread: float = 0.05, replicates: int = 13):
    """Losses exactly c n^exponent times a fixed replicate pattern (no fitting), with the
    replicates of the design the check runs."""
    design = VariantDesign(setting, (100, 200, 400, 800, 1600), replicates, 0, 1, grid=8)
    keys = ("expert_l2", "routing", "regression_l2", "sparse_l2", "voronoi_l1", "mass_l1",
            "beta1_l1", "expert_l1", "expert_sup")

    def run(run_design, _seed, _router, stop=None):
        pattern = np.exp(spread * np.linspace(-1, 1, run_design.replicates))
        recs = [{"n": n, "rep": r, "converged": True,
                 **{key: float(n ** exponent * pattern[r]) for key in keys}}
                for n in design.n_grid for r in range(run_design.replicates)]
        t = true_variant("misspecified")
        return {"records": recs, "target": t.tolist(),
                "reference": {"objective": 1e-3, "gradient_norm": 1e-12, "grid": 8}}

    return design, run


def _honouring_stop(run, edit, fitted: list[int] | None = None):
    """``run`` with each record passed through ``edit``, fitted cell by cell as run_variant
    does: ``stop(cell)`` after each size, later sizes absent once it says True (the sizes
    fitted are appended to ``fitted``)."""

    def stopped_run(*args, stop=None):
        out = run(*args)
        records = [edit(dict(r)) for r in out["records"]]
        kept = []
        for n in dict.fromkeys(r["n"] for r in records):
            cell = [r for r in records if r["n"] == n]
            kept += cell
            if fitted is not None:
                fitted.append(n)
            if stop is not None and stop(cell):
                break
        return {**out, "records": kept}

    return stopped_run


@pytest.mark.parametrize(
    ("check", "setting", "fast", "slow"),
    [
        (rates.check_rates_top1, "top1", Verdict.SUPPORTED, Verdict.UNSUPPORTED),
        (rates.check_rates_topk, "topk", Verdict.SUPPORTED, Verdict.UNSUPPORTED),
        (rates.check_rates_topk_cosine, "topk", Verdict.UNSUPPORTED, Verdict.SUPPORTED),
    ],
)
def test_claims_decide_both_ways(monkeypatch, check, setting, fast, slow):
    for exponent, expected in ((-0.5, fast), (-0.02, slow)):
        design, run = _fake_runs(exponent, setting)
        monkeypatch.setattr(vr, "variant_design", lambda *_a, design=design: design)
        monkeypatch.setattr(vr, "run_variant", run)
        out = check(CheckContext("pcr.rates.x", seed=0, profile="quick", alpha=0.01))
        assert out.verdict is expected, (exponent, out.summary)


def test_misspecified_claims_decide(monkeypatch):
    design, run = _fake_runs(-0.5, "misspecified")
    monkeypatch.setattr(vr, "variant_design", lambda *_a: design)
    monkeypatch.setattr(vr, "run_variant", run)
    ctx = CheckContext("pcr.rates.x", seed=0, profile="quick", alpha=0.01)
    # every router at n^-1/2: (1.1) "cosine slow" fails; no router is faster than another
    assert rates.check_rates_misspecified(ctx).verdict is Verdict.UNSUPPORTED
    assert rates.check_rates_comparison_misspecified(ctx).verdict is Verdict.UNSUPPORTED


def _short(rec: dict) -> dict:
    rec["shortfall"] = rec["rep"] < 4  # 4 of 13 fits above the target's objective
    return rec


def test_optimiser_shortfalls_make_a_reading_undecided(monkeypatch):
    design, run = _fake_runs(-0.5, "top1")
    monkeypatch.setattr(vr, "variant_design", lambda *_a: design)
    monkeypatch.setattr(vr, "run_variant", _honouring_stop(run, _short))
    out = rates.check_rates_top1(CheckContext("pcr.rates.x", seed=0, profile="quick", alpha=0.01))
    assert out.verdict is Verdict.INCONCLUSIVE
    assert "4 of 13 fits fall short of the target's objective at n = 100" in (
        out.readings[1].summary)


def test_unconverged_fits_make_an_exact_specified_reading_undecided(monkeypatch):
    design, run = _fake_runs(-0.5, "top1")

    def capped(rec: dict) -> dict:  # 2 of 13 fits at n = 400 hit the cap: 85% < 90%
        rec["converged"] = not (rec["n"] == 400 and rec["rep"] < 2)
        return rec

    monkeypatch.setattr(vr, "variant_design", lambda *_a: design)
    monkeypatch.setattr(vr, "run_variant", _honouring_stop(run, capped))
    out = rates.check_rates_top1(CheckContext("pcr.rates.x", seed=0, profile="quick", alpha=0.01))
    assert out.verdict is Verdict.INCONCLUSIVE
    assert "2 of 13 fits stopped at the iteration cap at n = 400" in out.readings[1].summary
    monkeypatch.setattr(vr, "run_variant", run)
    out = rates.check_rates_top1(CheckContext("pcr.rates.x", seed=0, profile="quick", alpha=0.01))
    assert out.verdict is Verdict.SUPPORTED


@pytest.mark.parametrize(("edit", "fitted_sizes"), [(_short, [100]),
                                                    (lambda r: r, [100, 200, 400, 800, 1600])])
def test_a_run_stops_at_its_first_blocking_cell_without_changing_a_verdict(
        monkeypatch, edit, fitted_sizes):
    """Futility (session 10): every top-1 fit fitted every size although a blocking cell (here
    the shortfall rule at n = 100) already left every reading on the run undecided. The
    larger sizes are no longer fitted; each reading is the same, and its comparison, made
    without an estimate, is not recorded for calibration."""
    from moetheory.stats import claimed_values

    design, run = _fake_runs(-0.5, "top1")
    monkeypatch.setattr(vr, "variant_design", lambda *_a: design)
    ctx = CheckContext("pcr.rates.x", seed=0, profile="quick", alpha=0.01)
    outs, recorded = [], []
    for stops in (True, False):
        fitted: list[int] = []
        honour = _honouring_stop(run, edit, fitted)
        monkeypatch.setattr(vr, "run_variant", honour if stops else
                            lambda *a, stop=None, honour=honour: honour(*a))
        seen: list = []
        with claimed_values(lambda rule, label, value, tol: value, seen):
            outs.append(rates.check_rates_top1(ctx))
        recorded.append(len(seen))
        assert fitted == (fitted_sizes if stops else list(design.n_grid)) * 3  # 3 routers
    stopped, full = outs
    assert [(r.name, r.verdict) for r in stopped.readings] == [
        (r.name, r.verdict) for r in full.readings]
    if fitted_sizes == [100]:
        assert stopped.verdict is Verdict.INCONCLUSIVE and recorded == [0, 0]
        assert all(r.evidence["comparison"]["estimate"] is None for r in stopped.readings[1:])
        assert "larger n not fitted" in stopped.readings[1].summary
    else:
        assert stopped.verdict is Verdict.SUPPORTED and recorded == [6, 6]
        assert stopped.evidence == full.evidence


def test_a_stopped_run_fits_the_same_first_size_and_no_other():
    d = VariantDesign("topk", (30, 60), 2, 0, 1, routers=("perturbed",))
    whole = run_variant(d, 0, "perturbed")["records"]
    asked: list[list[dict]] = []
    first = run_variant(d, 0, "perturbed", stop=lambda cell: asked.append(cell) or True)
    assert first["records"] == [r for r in whole if r["n"] == 30] == asked[0]
    assert len(asked) == 1


@pytest.mark.parametrize(("converged", "short", "rule", "why"), [
    (13, 0, True, None),
    (12, 3, True, None),  # 92% converged; 3 <= 25% of 13
    (11, 0, True, "2 of 13 fits stopped at the iteration cap at n = 100 (more than 10%)"),
    (13, 4, True, "4 of 13 fits fall short of the target's objective at n = 100 (more than 25%)"),
    (13, 4, False, None),  # no shortfall rule where the class does not contain the target
])
def test_blocking_cells(converged, short, rule, why):
    cell = [{"n": 100, "converged": i < converged, "shortfall": i < short} for i in range(13)]
    assert vr._blocking(cell, 13, rule) == why
    assert vr._futile(13, rule)(cell) is (why is not None)


@pytest.mark.parametrize(
    "check", [rates.check_rates_top1, rates.check_rates_topk_cosine, rates.check_rates_topk])
def test_slope_only_claims_fit_at_least_13_replicates(monkeypatch, check):
    """Issue 11: with the quick design's 4 replicates per n, the percentile interval of these
    claims missed the pooled slope on 3 and 4 of 100 seeds (the bootstrap law of a median of
    4 lies within the sample's range). They fit 13, the dense claims' quick look, in every
    profile; a design with more keeps its own. Issue 32: pcr.rates.topk too, once its fits
    reach the target's objective (its true variant was unsupported on 3 of 100 seeds)."""
    for given, used in ((4, 13), (10, 13), (15, 15)):
        design, run = _fake_runs(-0.5, "top1" if check is rates.check_rates_top1 else "topk",
                                 replicates=given)
        seen: list[int] = []
        monkeypatch.setattr(vr, "variant_design", lambda *_a, design=design: design)
        monkeypatch.setattr(vr, "run_variant", lambda d, *a, run=run, seen=seen, **k:
                            seen.append(d.replicates) or run(d, *a, **k))
        out = check(CheckContext("pcr.rates.x", seed=0, profile="quick", alpha=0.01))
        assert set(seen) == {used}
        assert out.evidence["design"]["replicates"] == used
        assert out.verdict is not Verdict.ERROR


@pytest.mark.parametrize("profile", ["quick", "full"])
def test_an_open_sparse_gate_verdict_says_what_would_decide_it(monkeypatch, profile):
    """Issue 32: every inconclusive verdict says what would decide it. On main the sparse-gate
    and misspecified rates claims gave none (``to_decide`` absent)."""
    ctx = CheckContext("pcr.rates.x", seed=0, profile=profile, alpha=0.01)
    design, run = _fake_runs(-0.5, "top1")
    monkeypatch.setattr(vr, "variant_design", lambda *_a: design)
    monkeypatch.setattr(vr, "run_variant", _honouring_stop(run, _short))
    out = rates.check_rates_top1(ctx)  # short fits at n = 100: open before any estimate
    assert out.verdict is Verdict.INCONCLUSIVE
    want = out.evidence["to_decide"]
    assert "fits that reach the target's objective" in want
    assert "4 of 13 fits fall short of the target's objective at n = 100" in want
    assert want.startswith("the full profile") is (profile == "quick")
    assert out.summary.endswith(f"; to decide it: {want}")
    # open on its interval alone (a slope on its threshold): more replicates
    design, run = _fake_runs(rates.SLOW_THRESHOLD, "top1", spread=1.5)
    monkeypatch.setattr(vr, "variant_design", lambda *_a: design)
    monkeypatch.setattr(vr, "run_variant", run)
    out = rates.check_rates_top1(ctx)
    assert out.verdict is Verdict.INCONCLUSIVE
    assert "more replicates than the 13 per n" in out.evidence["to_decide"]
    # decided: nothing to add
    design, run = _fake_runs(-0.5, "top1")
    monkeypatch.setattr(vr, "run_variant", run)
    monkeypatch.setattr(vr, "variant_design", lambda *_a: design)
    out = rates.check_rates_top1(ctx)
    assert out.verdict is Verdict.SUPPORTED and "to_decide" not in out.evidence


@pytest.mark.slow
def test_full_misspecified_comparison_fits_128_replicates(monkeypatch):
    """Issue 32: at the full design's 10 replicates per n the slope differences' intervals
    were about +-0.4 wide and every reading was open; the full profile fits 128 (cheap fits),
    the quick profile keeps its design. On main both fitted the design's own count."""
    for profile, given, used in (("full", 10, 128), ("quick", 4, 4), ("full", 200, 200)):
        design, run = _fake_runs(-0.5, "misspecified", replicates=given)
        seen: list[int] = []
        monkeypatch.setattr(vr, "variant_design", lambda *_a, design=design: design)
        monkeypatch.setattr(vr, "run_variant", lambda d, *a, run=run, seen=seen, **k:
                            seen.append(d.replicates) or run(d, *a, **k))
        out = rates.check_rates_comparison_misspecified(
            CheckContext("pcr.rates.x", seed=0, profile=profile, alpha=0.01))
        assert set(seen) == {used} and out.evidence["design"]["replicates"] == used


def test_to_decide_reads_only_the_readings_the_verdict_rests_on():
    # pcr.rates.topk.over-specified, full, seed 0: its primary rests on the K = 2 readings
    # (open on their intervals), but what would decide it named a K + 1 = 3 reading's capped
    # fits, which no verdict depends on
    from moetheory import Outcome, Reading

    wide = Reading("(2.1) K=2", "t", Verdict.INCONCLUSIVE, "slope -0.6, CI [-0.8, -0.2]",
                   {"comparison": {"verdict": "inconclusive"}})
    capped = Reading("K+1=3", "t", Verdict.INCONCLUSIVE, "not estimated",
                     {"comparison": {"reason": "not estimated: 3 of 10 fits stopped at the "
                                               "iteration cap at n = 100"}})
    design = vr.variant_design("topk", "full")
    ctx = CheckContext("pcr.rates.x", seed=0, profile="full", alpha=0.01)

    def outcome():
        return Outcome(Verdict.INCONCLUSIVE, "open", {}, [wide, wide, capped], "")

    assert "fits that reach" in vr._open_to_decide(ctx, design, outcome()).evidence["to_decide"]
    want = vr._open_to_decide(ctx, design, outcome(), [wide]).evidence["to_decide"]
    assert want.startswith("narrower slope intervals") and "iteration cap" not in want


def test_fit_variant_names_a_theta0_of_another_batch():
    # main: a theta0 with another number of fits than x failed inside the model with a
    # broadcasting traceback; the fitters share one input check
    x, y = np.zeros((2, 5, 2)), np.zeros((2, 5))
    with pytest.raises(ValueError, match=r"theta0 \(G, P\)"):
        fit_variant(x, y, np.zeros((3, 12)), 2, Router("linear"), "tanh", (Stage(1.0, None, 2),))


def test_a_slope_open_on_its_interval_says_where_it_stands(monkeypatch):
    """Issue 46 item 5: pcr.rates.topk stayed open in the full profile with its (2.2) slope
    -0.334 against the threshold -0.35; what would decide it said only "more replicates
    ... unless a slope lies on its threshold". It now names each open slope's estimate,
    interval, the threshold it straddles and the replicates per n its interval asks for."""
    design, run = _fake_runs(rates.ROOT_LOG_THRESHOLD, "topk", spread=1.5)
    monkeypatch.setattr(vr, "variant_design", lambda *_a: design)
    monkeypatch.setattr(vr, "run_variant", run)
    from moetheory.stats import claimed_values

    recorded: list = []
    with claimed_values(None, recorded):  # as calibration records what a check decides
        out = rates.check_rates_topk(CheckContext("pcr.rates.x", seed=0, profile="full",
                                                  alpha=0.01))
    assert out.verdict is Verdict.INCONCLUSIVE
    # each comparison decided once: the note rebuilds the open ones, it does not judge them
    assert len(recorded) == len({c.label for c in recorded}) == 3
    want = out.evidence["to_decide"]
    fit = out.readings[2].evidence["fit"]  # (2.2), open on its interval
    assert out.readings[2].verdict is Verdict.INCONCLUSIVE
    assert f"(2.2) sparse L_2: estimate {fit['slope']:.4g}" in want
    assert "straddles the edge -0.35" in want and "replicates per n" in want
