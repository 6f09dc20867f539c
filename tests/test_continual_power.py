"""Issue 32 (continual learning): the comparator's data model, the flags' readings, power.

Each test fails on the main branch before issue 32: there the single expert of
``cl.thm2.beats-single-expert`` is the Gaussian closed form, the flags' start round is not an
option, and the replicates of a statistical check are fixed per profile.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from moetheory import CheckContext, Verdict, stats
from moetheory.continual import CLConfig, simulate
from moetheory.continual import theory as th
from moetheory.continual.simulator import concat_results, simulate_many
from moetheory.continual.single_expert import single_expert_run
from moetheory.stats import MeanEstimate, compare, greater, mean_ci
from proofs_checks.li2025continual import _budgets, _flags

# ---------------------------------------------------------------- item 1: same data model


def _enumerated_definition1(W: np.ndarray, horizon: int) -> tuple[list, list]:
    """E[G_t], E[F_t] of one expert when every X_t spans w_{n_t} only (s = 1): the projection
    is then fixed by the task, so the expectation is an average over the N^t task sequences,
    in exact rationals (independent of the moment recursion)."""
    rows = [[Fraction(int(x)) for x in w] for w in W]
    n_tasks, d = len(rows), len(rows[0])

    def step(w: list, u: list) -> list:  # w_t = u + (I - u u^T/|u|^2) w_{t-1}
        uu = sum(x * x for x in u)
        c = sum(a * b for a, b in zip(u, w, strict=True)) / uu
        return [ui + wi - c * ui for ui, wi in zip(u, w, strict=True)]

    def err(w: list, u: list) -> Fraction:
        return sum((a - b) ** 2 for a, b in zip(w, u, strict=True))

    G, F = [Fraction(0)] * horizon, [Fraction(0)] * horizon
    for T in range(1, horizon + 1):
        weight = Fraction(1, n_tasks**T)
        for seq in itertools.product(range(n_tasks), repeat=T):
            w = [Fraction(0)] * d
            own = []
            for n in seq:
                w = step(w, rows[n])
                own.append(err(w, rows[n]))
            G[T - 1] += weight * sum(err(w, rows[n]) for n in seq) / T
            if T > 1:
                F[T - 1] += weight * sum(err(w, rows[n]) - own[i]
                                         for i, n in enumerate(seq[:-1])) / (T - 1)
    return G, F


def test_definition1_single_expert_matches_exact_enumeration() -> None:
    W = np.array([[1.0, 2.0, 0.0, 0.0], [0.0, 1.0, -1.0, 0.0], [2.0, 0.0, 1.0, 1.0]])
    G, F = _enumerated_definition1(W, 4)
    assert np.allclose(th.exact_generalization_definition1(W, 1, [1, 2, 3, 4]),
                       [float(x) for x in G], rtol=1e-12)
    assert np.allclose(th.exact_forgetting_definition1(W, 1, [2, 3, 4]),
                       [float(x) for x in F[1:]], rtol=1e-12)


def test_definition1_single_expert_matches_monte_carlo_and_not_the_gaussian_form() -> None:
    rng = np.random.default_rng(4)
    W = 0.4 * rng.standard_normal((5, 8))
    ts = [2, 4, 12]
    F, G = single_expert_run(np.random.default_rng(5), W, 5, max(ts), 6000, "definition1",
                             W / 0.4)
    exact_g = th.exact_generalization_definition1(W, 5, ts)
    exact_f = th.exact_forgetting_definition1(W, 5, ts)
    for k, t in enumerate(ts):
        for draws, ref in ((G[:, t - 1], exact_g[k]), (F[:, t - 1], exact_f[k])):
            assert abs(draws.mean() - ref) < 4.5 * draws.std() / math.sqrt(draws.size)
    # the Gaussian closed form is another data model: far off on Definition-1 data
    gaussian = th.exact_generalization(W, 5, 8, ts)
    assert np.all(exact_g[1:] - gaussian[1:] > 0.2)


def test_projection_moments_definition1_match_monte_carlo() -> None:
    rng = np.random.default_rng(6)
    d, s = 6, 3
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    X = np.diag(np.arange(1.0, d + 1))  # a symmetric matrix
    rho, a, b = th.projection_moments_definition1(s, d)
    Pi = np.eye(d) - np.outer(u, u)
    mean_A, mean_AXA = np.zeros((d, d)), np.zeros((d, d))
    draws = 20000
    for _ in range(draws):
        cols = np.column_stack([u, rng.standard_normal((d, s - 1))])
        Q, _ = np.linalg.qr(cols)
        A = np.eye(d) - Q @ Q.T
        mean_A += A / draws
        mean_AXA += A @ X @ A / draws
    assert np.allclose(mean_A, rho * Pi, atol=0.02)
    assert np.allclose(mean_AXA, a * Pi @ X @ Pi + b * np.trace(Pi @ X) * Pi, atol=0.1)


def test_beats_single_expert_compares_on_the_same_data_model() -> None:
    from proofs_checks.li2025continual.forgetting import check_thm2_beats_single

    out = check_thm2_beats_single(CheckContext("cl.thm2.beats-single-expert", seed=3))
    primary = out.readings[0]
    assert primary.name == "bound-(22)/same-data"
    comparator = primary.evidence["comparator"]
    assert comparator["data_model"].startswith("definition1")
    assert primary.evidence["config"]["beta"] == "uniform"
    # the single expert of every comparison is the Definition-1 expectation of the same pools
    bound_rows = primary.evidence["comparisons"]
    assert [r["E_bound"] for r in bound_rows] == comparator["mean_single_expert_E_G"]
    names = [r.name for r in out.readings]
    assert "simulated-MoE/paired-single-expert" in names
    assert "bound-(22)/gaussian-closed-form" in names  # the other data model, beside


# ---------------------------------------------------------------- item 2: the flags' readings


def test_flag_readings_exist_and_the_literal_one_is_primary() -> None:
    assert _flags.PRIMARY_FLAGS == "literal"
    assert next(iter(_flags.FLAG_READINGS)) == "literal"
    assert _flags.FLAG_READINGS["literal"] == {"flag_selected": True, "flag_start": "after-T1",
                                               "flag_memory": "sticky"}
    assert {tuple(v.values()) for v in _flags.FLAG_READINGS.values()} == {
        (sel, start, "sticky") for sel in (True, False) for start in ("after-T1", "at-T1")} | {
        (True, "after-T1", "round")}
    # issue 46: the sticky flags are an assumption each reading states; the round-by-round
    # reading of the stopping rule is one of the readings
    assert all("sticky flags (assumed" in t for n, t in _flags.FLAG_TEXT.items()
               if n != _flags.ROUND_FLAGS)
    assert "same round" in _flags.FLAG_TEXT[_flags.ROUND_FLAGS]
    cfg = CLConfig()
    assert (cfg.flag_selected, cfg.flag_start) == (True, "after-T1")  # the paper reading
    assert "each expert m" in _flags.FLAG_SEED_TEXT and "t > T_1" in _flags.FLAG_SEED_TEXT
    with pytest.raises(ValueError, match="flag_start must be one of"):
        CLConfig(flag_start="t>=T1")


def test_flags_from_T1_are_evaluated_one_round_earlier() -> None:
    # a threshold no gap reaches flags every expert at the first round flags are evaluated
    cfgs = [CLConfig(M=3, T=40, gamma=1e9, flag_start=start) for start in ("after-T1", "at-T1")]
    after, at = simulate_many(cfgs, 5, seed=9)
    T1 = cfgs[0].T1
    assert (after.termination_round == T1 + 1).all() and (at.termination_round == T1).all()
    # at the default threshold: flags accumulate from an earlier round, never later
    cfgs = [CLConfig(M=3, T=40, flag_start=start) for start in ("after-T1", "at-T1")]
    after, at = simulate_many(cfgs, 30, seed=9)
    never = 41
    t_after = np.where(after.termination_round >= 0, after.termination_round, never)
    t_at = np.where(at.termination_round >= 0, at.termination_round, never)
    assert (t_at <= t_after).all() and (t_at < t_after).any()


def test_a_touched_claim_reports_every_flag_reading_paired() -> None:
    from proofs_checks.li2025continual.forgetting import check_thm2_beats_single

    out = check_thm2_beats_single(CheckContext("cl.thm2.beats-single-expert", seed=0))
    flags = {r.evidence.get("flags") for r in out.readings}
    assert flags == {"literal", *_flags.ALTERNATIVE_FLAGS}
    alt = next(r for r in out.readings if r.evidence.get("flags") == "others only")
    assert alt.evidence["config"]["flag_selected"] is False
    assert "L111" in alt.reading and "t > T1" in alt.reading


# ---------------------------------------------------------------- item 3: power


def test_spec_sizing_matches_the_student_formula() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(40) + 0.2  # mean 0.2, sd 1: claim E > 0
    f, side = stats.spec_factor(stats.Spec("x", "greater", x, 0.0), 1e-3)
    assert side == "supported"
    n = f * x.size
    s, m = x.std(ddof=1), x.mean()
    # n >= ((t + z_0.9) s / m)^2 with the t quantile near the normal one at that size
    formula = ((3.29 + 1.28) * s / m) ** 2
    assert 0.8 * formula < n < 1.6 * formula


def test_proportion_sizing_uses_the_exact_interval() -> None:
    # 0 of 8 successes against P > 1/2: the Clopper-Pearson upper end falls below 1/2 at
    # n = 14 at this level (1 - (alpha/2)^(1/n) < 1/2), not at the 1/sqrt(n) extrapolation's
    from moetheory.stats import proportion_ci

    c = greater("share", proportion_ci(0, 8, 1e-4), 0.5, 0.0)
    f, side = stats.comparison_factor(c)
    assert side == "unsupported"
    assert 14 <= f * 8 <= 20


def test_a_pilot_sized_claim_gets_the_n_it_needs() -> None:
    from proofs_checks.li2025continual.setup import check_aux_loss

    out = check_aux_loss(CheckContext("cl.aux-loss.necessary", seed=0))
    plan = out.readings[0].evidence["power"]
    assert plan["pilot_replicates"] < plan["needed_replicates"] <= plan["budget"]
    assert plan["replicates"] == plan["needed_replicates"] > plan["floor"]
    assert out.readings[0].evidence["replicates"] == plan["replicates"]
    assert out.verdict is not Verdict.INCONCLUSIVE


def test_a_budget_limited_claim_says_so() -> None:
    plan = stats.Plan(16, 1, 900, 16, 64, 64, 2.0, "quick")
    note = stats.power_note(plan, Verdict.INCONCLUSIVE)
    assert note.startswith("Inconclusive for want of replicates, not for the mathematics")
    assert "about 900" in note and plan.budget_limited
    decided = stats.power_note(stats.Plan(16, 1, 30, 16, 64, 30, 2.0, "quick"),
                                Verdict.SUPPORTED)
    assert "not for the mathematics" not in decided


def test_prop4_forgetting_corrected_draws_what_its_pilot_asks() -> None:
    from proofs_checks.li2025continual._single_expert import PROP4_DRAWS, _sized_budget

    ctx = CheckContext("cl.prop4.forgetting.corrected", seed=0)
    W = ctx.rng(0).normal(0.0, 0.4, size=(7, 10))
    ts = [2, 3, 5, 10, 20]
    budget, plan = _sized_budget(ctx, W, ts, th.exact_forgetting(W, 6, 10, ts), "F")
    _, floor, cap, _ = PROP4_DRAWS["quick"]
    assert plan["needed_draws"] > 2 * floor  # the former fixed budget was 2 x 10 000
    assert budget.max_n == plan["draws"] == min(plan["needed_draws"], cap) // budget.max_looks \
        * budget.max_looks


def test_larger_runs_reuse_the_floor_run() -> None:
    from proofs_checks.li2025continual._simulation import chunks

    assert chunks(16, 16) == [(16, 0)]
    assert chunks(64, 16) == [(16, 0), (16, 1000), (32, 2000)]
    a = simulate(CLConfig(M=2, T=6), 3, seed=1)
    b = simulate(CLConfig(M=2, T=6), 2, seed=2)
    both = concat_results([a, b])
    assert both.replicates == 5 and np.array_equal(both.task[:3], a.task)
    with pytest.raises(ValueError, match="one configuration"):
        concat_results([a, simulate(CLConfig(M=3, T=6), 1, seed=0)])


def test_comparison_factor_reads_each_rule() -> None:
    est = MeanEstimate(0.0, -0.2, 0.2, 10, 0.95)
    assert stats.comparison_factor(compare("x", est, 0.0, 0.1))[1] == "supported"
    assert stats.comparison_factor(compare("x", est, 1.0, 0.1))[1] == "unsupported"
    on_edge = compare("x", MeanEstimate(0.1, 0.0, 0.2, 10, 0.95), 0.0, 0.1)
    assert stats.comparison_factor(on_edge) is None  # an estimate on the band's edge
    # a t interval: the Student quantile at 5 replicates is large, the size asked for
    # shrinks with it (below the normal-quantile extrapolation's)
    t_est = mean_ci(np.array([0.1, 0.3, 0.2, 0.25, 0.15]), 0.01)
    f, _ = stats.comparison_factor(greater("y", t_est, 0.0))
    normal = stats.comparison_factor(greater("y", MeanEstimate(
        t_est.mean, t_est.low, t_est.high, t_est.n, t_est.level, "given"), 0.0))[0]
    assert 0 < f < normal


def test_a_betting_interval_near_an_end_is_sized_beyond_its_own_size() -> None:
    """Issue 32: cl.lemma13.softmax-order's full-profile look (mean share 0.9355 on [0, 1],
    betting CI [0.8389, 0.9585] at n = 192, band [0.95, 1.05]) was undecided, yet on main
    its sizing asked for factor 1.0 (192 replicates again): the synthetic sample, a normal
    clipped to [0, 1], had lost the pilot's mean, and the bisection on its width (which
    shrank as the deviation grew) ended on a degenerate sample. An undecided comparison
    cannot be decided at its own size by a sample of its own mean moved towards the
    boundary."""
    level = 0.9999521072796935
    for mu, low, high in ((0.9355, 0.8389, 0.9585), (0.9377, 0.8409, 0.959)):
        comp = compare("x", MeanEstimate(mu, low, high, 192, level, "betting", False,
                                         (0.0, 1.0)), 1.0, 0.05)
        assert comp.verdict is Verdict.INCONCLUSIVE
        factor, side = stats.comparison_factor(comp)
        assert side == "unsupported" and factor > 1.5


def test_an_open_full_look_near_an_end_gets_a_larger_second_look() -> None:
    """Issue 32: cl.lemma13.softmax-order's full first look (192 replicates) was open and,
    sized at factor 1, its second look ran 192 replicates again and was open too; its
    intervals ask for about 600, which the full profile's budget for the σ0 grid (1536 per
    look; 240 on main) runs."""
    level = 0.9999521072796935
    looks_at = {0.05: (0.9717, 0.8719, 0.9905), 0.1: (0.9355, 0.8389, 0.9585),
                0.2: (0.9377, 0.8409, 0.959)}
    comps = [compare(f"σ0={s}", MeanEstimate(mu, low, high, 192, level, "betting", False,
                                             (0.0, 1.0)), 1.0, 0.05)
             for s, (mu, low, high) in looks_at.items()]
    ctx = CheckContext("cl.lemma13.softmax-order", seed=0, profile="full")
    looks = _budgets.allowance(ctx, "grid").second_look(comps, 192, 5)
    assert looks.first_verdict is Verdict.INCONCLUSIVE
    assert looks.asked is not None and 2 * 192 < looks.asked <= looks.budget
    assert looks.ran and looks.final == (looks.asked, 5 + stats.SECOND_LOOK)


@pytest.mark.parametrize("mu, sd", [(0.94, 0.1), (0.5, 0.3), (0.03, 0.05), (0.9355, 0.2)])
def test_the_synthetic_sample_keeps_the_pilots_mean(mu: float, sd: float) -> None:
    """The sample a betting interval is sized from has the pilot's mean and stays in the
    range (on main a normal clipped to [0, 1] drifted: 0.94 with deviation 0.1 became about
    0.90)."""
    from moetheory.stats._power import _quantile_sample

    sample = _quantile_sample(mu, sd, 200, (0.0, 1.0))
    assert sample.min() >= 0.0 and sample.max() <= 1.0
    assert abs(sample.mean() - mu) < 2e-3
    assert sample.std() > 0


def test_exploration_phase_runs_are_the_grid_runs_first_rounds() -> None:
    from proofs_checks.li2025continual._simulation import GRID, grid_config, phase_runs

    runs = phase_runs("paper", 2, 3)
    for sig0 in GRID:
        cfg = runs[sig0].config
        assert cfg == grid_config("paper", sig0).replace(terminate=False, T=cfg.T1 + 2)
        assert runs[sig0].gate_params is not None and runs[sig0].models is not None


@pytest.mark.parametrize("claim_id, check", [
    ("cl.lemma7.directions", "proofs:check_lemma7"),
    pytest.param("cl.thm1.exploration-repeats", "forgetting:check_thm1_repeats",
                 marks=pytest.mark.slow),
])
def test_a_share_against_one_gets_the_replicates_it_needs(claim_id: str, check: str) -> None:
    """An all-ones share in [0, 1] cannot exclude 0.95 at level α before 0.95^n < α: the
    exploration-phase checks run the few hundred replicates this takes (budget 'phase')."""
    import importlib

    module, name = check.split(":")
    fn = getattr(importlib.import_module(f"proofs_checks.li2025continual.{module}"), name)
    out = fn(CheckContext(claim_id, seed=0))
    plan = out.readings[0].evidence["power"]
    assert plan["budget"] == _budgets.BUDGETS["phase"]["quick"][2]
    assert plan["replicates"] >= plan["needed_replicates"] > _budgets.BUDGETS["grid"]["quick"][2]
    assert out.readings[0].verdict is not Verdict.INCONCLUSIVE
