"""Tests of the estimation checks: verdicts that must come out, and the decision rules."""

from __future__ import annotations

import json

import numpy as np
import pytest

from moetheory import CheckContext, Verdict
from moetheory.engine.verdicts import jsonable
from proofs_checks.nguyen2025cosine import _dense_rates as dense
from proofs_checks.nguyen2025cosine import _rates_plan as plan
from proofs_checks.nguyen2025cosine import rates, routers_pde, voronoi_losses


def _ctx(claim_id: str, seed: int = 3) -> CheckContext:
    return CheckContext(claim_id, seed=seed, profile="quick", alpha=0.002)


def test_param_count_is_refuted_and_corrected_is_proved():
    out = routers_pde.check_param_count(_ctx("pcr.experts.param-count"))
    assert out.verdict is Verdict.REFUTED
    assert out.readings[0].evidence["smallest_counterexample"] == (2, 1)
    assert routers_pde.check_param_count_corrected(_ctx("x")).verdict is Verdict.PROVED


def test_param_count_is_deterministic():
    a = routers_pde.check_param_count(_ctx("pcr.experts.param-count")).to_dict()
    b = routers_pde.check_param_count(_ctx("pcr.experts.param-count")).to_dict()
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_identifiable_cosine_is_refuted_with_exact_residual():
    out = voronoi_losses.check_identifiable_cosine(_ctx("pcr.identifiable.cosine"))
    assert out.verdict is Verdict.REFUTED
    ce = out.evidence["counterexample"]
    assert ce["residual_is_zero"] and ce["voronoi_loss_L11"] > 0
    assert ce["max_abs_diff_mpmath_500_points"] < 1e-30
    json.dumps(jsonable(out.to_dict()))


def test_jacobian_certificate_sees_the_scaling_null_space():
    free = voronoi_losses._jacobian_certificate(_ctx("x"), "cosine", "A3")
    sphere = voronoi_losses._jacobian_certificate(_ctx("x"), "cosine", "A3+sphere")
    assert free["null_dimension"] == 2
    assert sphere["null_dimension"] == 0


@pytest.mark.parametrize(
    ("ci", "faster", "expected"),
    [
        ((-0.6, -0.4), True, Verdict.SUPPORTED),
        ((-0.3, -0.1), True, Verdict.UNSUPPORTED),
        ((-0.4, -0.3), True, Verdict.INCONCLUSIVE),
        ((-1.5, 0.5), True, Verdict.INCONCLUSIVE),
        ((-1.5, -0.4), True, Verdict.SUPPORTED),  # wide but entirely on the claimed side
        ((-0.1, 0.1), False, Verdict.SUPPORTED),
        ((-0.6, -0.3), False, Verdict.UNSUPPORTED),
    ],
)
def test_one_sided_rule_can_go_every_way(ci, faster, expected):
    threshold = rates.REGRESSION_THRESHOLD if faster else plan.SLOW_THRESHOLD
    fit = {"slope": sum(ci) / 2, "ci": list(ci), "level": 0.99}
    comp = dense._one_sided("slope", fit, 6, threshold, faster)
    assert comp.verdict is expected
    assert comp.to_dict()["ci_method"] == "percentile-bootstrap"


def test_param_count_weaker_reading_is_proved_with_its_exceptions():
    out = routers_pde.check_param_count(_ctx("pcr.experts.param-count"))
    weak = next(r for r in out.readings if r.name.startswith("weaker"))
    assert weak.verdict is Verdict.PROVED
    assert weak.evidence["d_without_reducing_h"] == [1, 2]


def test_all_of_is_a_conjunction():
    sup, uns, inc = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.INCONCLUSIVE
    assert plan._all_of([sup, sup]) is sup
    assert plan._all_of([sup, inc]) is inc
    assert plan._all_of([inc, uns, sup]) is uns


def test_slopes_in_evidence_are_rounded_to_stable_digits():
    ns = np.array([100.0, 1000.0, 10000.0])
    recs = [{"router": "linear", "k": 2, "n": n, "rep": r, "l": n ** -0.5 * (1 + 0.01 * r),
             "converged": True}
            for n in ns for r in range(4)]
    fit = dense._slope(recs, "linear", 2, "l", 0.05, _ctx("x"), 0)
    assert fit["slope"] == pytest.approx(-0.5)
    pub = plan._public(fit)
    assert all(m == float(f"{m:.4g}") for m in fit["medians"] + pub["ci"])
    assert "boot" not in pub
    comp = dense._one_sided("s", fit, 4, rates.REGRESSION_THRESHOLD, True)
    assert comp.verdict is Verdict.SUPPORTED


def test_voronoi_cells_are_not_a_partition_at_ties():
    out = voronoi_losses.check_voronoi_cells(_ctx("pcr.voronoi.loss.cells"))
    assert out.verdict is Verdict.REFUTED
    assert out.evidence["counterexample"]["cells"] == [[0], [0]]


@pytest.mark.parametrize("decide_at", [1, 2, 3, None])
def test_rates_looks_add_odd_replicate_counts_until_decided(monkeypatch, decide_at):
    calls = []

    def fake_run_rates(design, seed, configs, map_tasks=None, first_rep=0, stop=None):
        calls.append((design.expert, first_rep, design.replicates))
        return [{"router": r, "k": k, "n": n, "rep": first_rep + i, "l": 1.0}
                for r, k in configs for n in design.n_grid for i in range(design.replicates)]

    monkeypatch.setattr(dense, "run_rates", fake_run_rates)
    looks = []

    def judge(recs, alpha_look):
        looks.append((len(recs["tanh"]), alpha_look))
        verdict = (Verdict.SUPPORTED if decide_at is not None and len(looks) >= decide_at
                   else Verdict.INCONCLUSIVE)
        comp = dense._one_sided("s", {"slope": -0.5, "ci": [-0.6, -0.4] if verdict is
                                    Verdict.SUPPORTED else [-1.0, 0.0], "level": 0.99},
                              3, rates.REGRESSION_THRESHOLD, True)
        return [comp], len(recs["tanh"])

    ctx = _ctx("pcr.rates.regression")
    design, seq, payload, _ = dense._rates_sequential(ctx, {"tanh": [("cosine", 3)]}, judge,
                                                 budgets={"quick": (12, 3), "full": (16, 3)})
    used = decide_at or 3
    assert [c[1:] for c in calls] == [(0, 13), (13, 12), (25, 12)][:used]
    assert design.replicates == seq.n == [13, 25, 37][used - 1]
    assert payload == 5 * seq.n  # records of the last look: every n of the grid
    assert all(a == pytest.approx(ctx.alpha / 3) for _, a in looks)


def test_on_a_cluster_the_rates_fits_run_through_ctx_map(monkeypatch):
    """The dense rates checks sent their cells to the cluster through a Dask client of their
    own: tasks outside the check's supervision, with no limits, running on after the check
    ended. On a cluster they go through ``ctx.map`` (supervised, under the check's limits)."""
    from dataclasses import replace

    seen = []

    def fake_run_rates(design, seed, configs, *, first_rep=0, stop=None, **where):
        seen.append(where)
        return [{"router": r, "k": k, "n": n, "rep": first_rep + i, "l": 1.0}
                for r, k in configs for n in design.n_grid for i in range(design.replicates)]

    def judge(recs, alpha_look):
        open_ci = {"slope": -0.5, "ci": [-1.0, 0.0], "level": 0.99}
        return [dense._one_sided("s", open_ci, 3, rates.REGRESSION_THRESHOLD, True)], None

    monkeypatch.setattr(dense, "run_rates", fake_run_rates)
    one_look = {"quick": (12, 1), "full": (16, 1)}
    ctx = replace(_ctx("pcr.rates.regression"), scheduler="tcp://127.0.0.1:1")
    dense._rates_sequential(ctx, {"tanh": [("cosine", 3)]}, judge, budgets=one_look)
    assert seen == [{"map_tasks": ctx.map}]
    seen.clear()
    dense._rates_sequential(_ctx("pcr.rates.regression"), {"tanh": [("cosine", 3)]}, judge,
                            budgets=one_look)
    assert seen == [{"map_tasks": None}]  # locally: this process, cells shared across checks


def _fake_rates(unconverged: dict[int, int]):
    """A stand-in for run_rates: losses exactly ~ n^-1/2 (every slope CI tight at -1/2), and
    ``unconverged[n]`` fits of each cell at size n marked as having hit the iteration cap."""

    def fake_run_rates(design, seed, configs, map_tasks=None, first_rep=0, stop=None):
        out = []
        for r, k in configs:
            for n in design.n_grid:
                cell = []
                for i in range(design.replicates):
                    loss = n ** -0.5 * (1 + 0.01 * ((first_rep + i) % 5))
                    cell.append({"router": r, "k": k, "n": n, "rep": first_rep + i,
                                 "regression_l2": loss, "converged": i >= unconverged.get(n, 0),
                                 "lm_iterations": 7})
                out += cell
                fake_run_rates.cells.append((r, k, n))
                if stop is not None and stop(r, k, n, cell):
                    break
        return out

    fake_run_rates.cells = []

    return fake_run_rates


def test_capped_fits_count_as_unknown_losses(monkeypatch):
    """A fit at the iteration cap is not the estimator's: its loss is not used but counted as
    unknown, and the interval holds every value it could have (issue 32; it was: a cell with
    over 10% of its fits capped blocked every reading, one with fewer used their losses)."""
    monkeypatch.setattr(dense, "run_rates", _fake_rates({}))
    out = rates.check_rates_regression(_ctx("pcr.rates.regression"))
    assert out.verdict is Verdict.SUPPORTED
    clean = out.evidence["fits"]["cosine"]
    assert clean["converged_share"] == [1.0] * 5 and clean["capped"] == [0] * 5
    # 1 of 13 capped at the largest n: a wider interval, still decided
    monkeypatch.setattr(dense, "run_rates", _fake_rates({1600: 1}))
    out = rates.check_rates_regression(_ctx("pcr.rates.regression"))
    one = out.evidence["fits"]["cosine"]
    assert out.verdict is Verdict.SUPPORTED and one["capped"] == [0, 0, 0, 0, 1]
    assert one["ci"][0] <= clean["ci"][0] and one["ci"][1] >= clean["ci"][1]
    assert one["medians"][-1] == plan.stable(float(np.median(
        [1600 ** -0.5 * (1 + 0.01 * (i % 5)) for i in range(1, 13)])))  # converged fits only
    # 3 of 13: often enough a resample's median in the test's bootstrap law to leave the
    # interval unbounded at this level: undecided
    monkeypatch.setattr(dense, "run_rates", _fake_rates({1600: 3}))
    out = rates.check_rates_regression(_ctx("pcr.rates.regression"))
    assert out.verdict is Verdict.INCONCLUSIVE
    three = out.evidence["fits"]["cosine"]
    assert three["ci"][0] < -100 and three["ci"][1] > 100 and three["open_cells"] == []
    # whatever losses the capped fits had, the interval holds the one they would give
    from moetheory.estimation.experiment import rates_design

    rows = _fake_rates({1600: 1})(rates_design("quick"), 0, [("cosine", 3)])
    for value in (1e-9, 1600 ** -0.5, 1e3):
        known = [{**r, "converged": True, "regression_l2": value} if not r["converged"] else r
                 for r in rows]
        fit = dense._slope(known, "cosine", 3, "regression_l2", 0.01, _ctx("x"), 0)
        wide = dense._slope(rows, "cosine", 3, "regression_l2", 0.01, _ctx("x"), 0)
        assert wide["ci"][0] <= fit["ci"][0] and fit["ci"][1] <= wide["ci"][1]


def test_a_config_is_not_fitted_past_its_first_cell_with_half_its_fits_capped(monkeypatch):
    """Futility within a look: once half or more of a cell's fits are capped, its median is
    unbounded and no reading on the config can be decided whatever the other sizes give, so
    they are not fitted."""
    fake = _fake_rates({200: 13})  # every fit of the cell capped: no median at all
    monkeypatch.setattr(dense, "run_rates", fake)
    out = rates.check_rates_regression(_ctx("pcr.rates.regression"))
    assert fake.cells == [(r, 3, n) for r in ("cosine", "perturbed") for n in (100, 200)]
    assert out.verdict is Verdict.INCONCLUSIVE
    fit = out.evidence["fits"]["cosine"]
    assert fit["n"] == [100, 200] and fit["open_cells"] == [200]
    assert fit["slope"] is None and fit["ci"] is None and fit["medians"][1] is None
    assert "larger n not fitted" in out.summary
    json.dumps(out.evidence, allow_nan=False)
    assert "not estimated" in out.derivation
    rows = [{"converged": i >= 7} for i in range(13)]
    assert dense._unbounded(rows) and not dense._unbounded([*rows[1:], {"converged": True}])


def test_fits_at_the_cap_stop_the_looks(monkeypatch):
    """Futility: in the full profile (3 looks) a comparison blocked by the convergence rule
    ends the looks at the first one; a merely wide interval does not."""
    ctx = CheckContext("pcr.rates.regression", seed=3, profile="full", alpha=0.002)
    monkeypatch.setattr(dense, "run_rates", _fake_rates({10000: 9}))
    out = rates.check_rates_regression(ctx)
    assert out.verdict is Verdict.INCONCLUSIVE and out.evidence["sequential"]["n"] == 17
    assert dense._stop(None)([dense._one_sided(
        "s", {"slope": None, "ci": None, "level": 0.99, "open_cells": [50]}, 3, -0.35, True)])
    assert not dense._stop(None)([dense._one_sided(
        "s", {"slope": -0.5, "ci": [-1.0, 0.0], "level": 0.99}, 3, -0.35, True)])


def test_perturbed_fast_covers_every_expert_family_the_seeds_name():
    """002 L58 names FFN experts with ReLU and GeLU, 002 L116 ReLU, tanh and z^p, 000 L165
    GELU: each is a reading of pcr.rates.perturbed-fast and a column of the rates figure."""
    from moetheory.engine.registry import get_claim, load_checks
    from moetheory.estimation.experiment import FIGURE_EXPERTS

    assert set(rates.FAST_EXPERTS) == {"tanh", "relu", "gelu", "poly2"}
    assert set(rates.FAST_EXPERTS) <= set(FIGURE_EXPERTS)
    load_checks()
    c = get_claim("pcr.rates.perturbed-fast")
    lines = {s.seed_file: set(s.lines) for s in c.sources}
    assert {58, 116} <= lines["002_ed39350ac6d6e1c0.txt"]
    assert 165 in lines["000_7b6465990ad3b04b.txt"]
    assert "GELU" in c.reading


def test_the_derivation_states_the_stopping_rule_the_fits_apply(monkeypatch):
    # The derivation said "until an accepted step lowers its objective by at most tol times
    # the objective"; fit_batch stops on the Gauss-Newton decrement, not on the last gain.
    monkeypatch.setattr(dense, "run_rates", _fake_rates({}))
    text = rates.check_rates_regression(_ctx("pcr.rates.regression")).derivation
    assert "Gauss–Newton decrement" in text and "lowers its objective" not in text


def _fake_slopes(slope: float, calls: list):
    """run_rates with every loss exactly ~ n^slope (times 1 + 0.01 (rep mod 5)), recording the
    expert family of each call in ``calls``."""
    losses = ("voronoi_l1", "voronoi_l1_raw", "regression_l2", *plan.GROUPS.values())

    def fake_run_rates(design, seed, configs, map_tasks=None, first_rep=0, stop=None):
        calls.append(design.expert)
        return [{"router": r, "k": k, "n": n, "rep": first_rep + i, "converged": True,
                 "lm_iterations": 7, "at_bound": "",
                 **{loss: n ** slope * (1 + 0.01 * ((first_rep + i) % 5)) for loss in losses}}
                for r, k in configs for n in design.n_grid for i in range(design.replicates)]

    return fake_run_rates


def test_rates_comparison_summary_names_the_design_its_verdict_applies_to(monkeypatch):
    """Issue 46: with equal slopes for every router the comparison is unsupported; its summary
    says for which design (tanh experts, where the seeds predict no advantage over the linear
    router), not of the routers in general. On main it listed the slope differences only."""
    monkeypatch.setattr(dense, "run_rates", _fake_slopes(-0.35, []))
    out = rates.check_rates_comparison(_ctx("pcr.rates.comparison"))
    assert out.verdict is Verdict.UNSUPPORTED
    assert out.summary.startswith("unsupported in the readings L25 parameters")
    assert "for this design only: tanh experts, over-specified (k* = 2, k = 3)" in out.summary


def test_quick_perturbed_fast_fits_the_tanh_family_only(monkeypatch):
    """Issue 32 (quick CPU): three more expert families cost about 26 s of quick CPU, for a
    claim the quick profile could not decide; by a rule fixed on cost, the quick profile fits
    the tanh family (whose cells the other dense claims fit) and says which profile fits
    the others, if any. On main every family was fitted in every profile."""
    calls: list = []
    monkeypatch.setattr(dense, "run_rates", _fake_slopes(-0.35, calls))
    out = rates.check_rates_perturbed_fast(_ctx("pcr.rates.perturbed-fast"))
    assert calls == ["tanh"]
    assert out.evidence["experts_fitted"] == ["tanh"]
    assert out.evidence["fitted_per_profile"]["full"] == ["tanh", "gelu"]
    by_name = {r.name: r for r in out.readings}
    assert by_name["tanh experts: L11 on identifiable coordinates"].verdict is Verdict.SUPPORTED
    for e, where in (("relu", []), ("gelu", ["full"]), ("poly2", [])):
        r = by_name[f"{e} experts: L11 on identifiable coordinates"]
        assert r.verdict is Verdict.INCONCLUSIVE and r.evidence["fitted_in"] == where
        assert r.evidence["cpu_seconds_per_replicate"] == rates.FAST_EXPERT_SECONDS[e]
    # tanh inside the band does not support a claim about four families at G*
    assert by_name["every named expert family at the simulated G*"].verdict is (
        Verdict.INCONCLUSIVE)
    want = out.evidence["to_decide"]
    assert want.startswith("the full profile, which also fits the gelu experts")
    assert "10000; 17 replicates; BFGS" in want and "in looks of" not in want
    assert "relu, poly2 experts, which no profile runs" in want


def test_quick_perturbed_fast_is_unsupported_by_a_fitted_family_outside_the_band(monkeypatch):
    calls: list = []
    monkeypatch.setattr(dense, "run_rates", _fake_slopes(-1.0, calls))
    out = rates.check_rates_perturbed_fast(_ctx("pcr.rates.perturbed-fast"))
    at_g = {r.name: r for r in out.readings}["every named expert family at the simulated G*"]
    assert calls == ["tanh"] and at_g.verdict is Verdict.UNSUPPORTED
    assert out.evidence["to_decide"] is None


def test_full_perturbed_fast_fits_the_families_its_cpu_limit_affords(monkeypatch):
    """Issue 32: on main the full profile fitted all four families in looks of 33 replicates
    (about 210 CPU s each) and exceeded a check's 900-s limit in its first look, leaving a
    timeout and no evidence; it now fits what the limit affords, fixed in advance."""
    from moetheory.engine.runner import DEFAULT_TIMEOUT

    batch, looks = dense.PERTURBED_FAST_BUDGET["full"]
    fitted = rates.FITTED_FAST_EXPERTS["full"]
    cost = sum(rates.FAST_EXPERT_SECONDS[e] for e in fitted) * (1 + batch * looks)
    assert cost <= 0.6 * DEFAULT_TIMEOUT  # margin for a loaded or slower machine
    calls: list = []
    monkeypatch.setattr(dense, "run_rates", _fake_slopes(-0.35, calls))
    ctx = CheckContext("pcr.rates.perturbed-fast", seed=3, profile="full", alpha=0.002)
    out = rates.check_rates_perturbed_fast(ctx)
    assert calls == list(fitted) == ["tanh", "gelu"]
    assert out.evidence["experts_fitted"] == ["tanh", "gelu"]
    assert out.evidence["alpha_per_reading"] == pytest.approx(ctx.alpha / 1 / 7)
    # every fitted family in the band, but ReLU and z^2 unfitted: open at G*, and it says why
    at_g = "every named expert family at the simulated G*"
    assert {r.name: r for r in out.readings}[at_g].verdict is Verdict.INCONCLUSIVE
    assert "relu, poly2 experts, which no profile runs" in out.evidence["to_decide"]
    monkeypatch.setattr(dense, "run_rates", _fake_slopes(-1.0, []))
    out = rates.check_rates_perturbed_fast(ctx)
    assert {r.name: r for r in out.readings}[at_g].verdict is Verdict.UNSUPPORTED


def test_an_open_dense_rates_verdict_says_what_would_decide_it(monkeypatch):
    # half of the largest cell's fits at the cap: pcr.rates.regression is left open
    monkeypatch.setattr(dense, "run_rates", _fake_rates({1600: 7}))
    out = rates.check_rates_regression(_ctx("pcr.rates.regression"))
    assert out.verdict is Verdict.INCONCLUSIVE
    want = out.evidence["to_decide"]
    assert want.startswith("the full profile") and "n = 50, " in want and "10000" in want
    assert "to decide it: the full profile" in out.summary
    monkeypatch.setattr(dense, "run_rates", _fake_rates({10000: 9}))
    ctx = CheckContext("pcr.rates.regression", seed=3, profile="full", alpha=0.002)
    out = rates.check_rates_regression(ctx)
    assert out.verdict is Verdict.INCONCLUSIVE
    assert "a higher BFGS cap" in out.evidence["to_decide"]
    monkeypatch.setattr(dense, "run_rates", _fake_rates({}))
    assert rates.check_rates_regression(_ctx("pcr.rates.regression")).evidence["to_decide"] is None
