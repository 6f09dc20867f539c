"""Tests of the continual-learning simulator (seed 003): invariants, metrics, errors, sweeps."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from moetheory import CheckContext, Verdict
from moetheory.continual import CLConfig, gate_gradient, run_sweep, simulate, softmax
from moetheory.continual.analysis import at_most, convergence_round, greater, routing_tv
from moetheory.continual.data import ground_truths, task_batch
from moetheory.continual.reference import reference_run
from moetheory.continual.simulator import orthonormal_basis, simulate_many
from moetheory.stats import MeanEstimate

FAST = settings(max_examples=25, deadline=None)


def _tasks(reading: str, d: int, s: int, seed: int):
    cfg = CLConfig(reading=reading, d=d, s=s, T=4, code_rank=min(6, d))
    rng = np.random.default_rng(seed)
    W, V = ground_truths(cfg, rng, 3)
    return W, task_batch(cfg, rng, V, 4)


@FAST
@given(st.integers(3, 12), st.integers(0, 10_000), st.sampled_from(["paper", "code"]))
def test_eq5_interpolates_the_task_data(d: int, seed: int, reading: str) -> None:
    s = max(1, d // 2)
    W, batch = _tasks(reading, d, s, seed)
    rng = np.random.default_rng(seed + 1)
    Qt = orthonormal_basis(batch.X)
    for r in range(3):
        for b in range(4):
            X, target = batch.X[r, b], W[r, batch.task[r, b]]
            w_prev = rng.standard_normal(d)
            w_new = w_prev + Qt[r, b].T @ (Qt[r, b] @ (target - w_prev))
            assert np.allclose(X.T @ w_new, X.T @ target, atol=1e-9)
            # and it is the minimum-norm step: the step lies in the column space of X
            step = w_new - w_prev
            assert np.allclose(X @ np.linalg.lstsq(X, step, rcond=None)[0], step, atol=1e-8)


@FAST
@given(st.integers(3, 12), st.integers(0, 10_000), st.sampled_from(["paper", "code"]))
def test_projection_is_idempotent_and_matches_pinv(d: int, seed: int, reading: str) -> None:
    _, batch = _tasks(reading, d, max(1, d // 2), seed)
    Qt = orthonormal_basis(batch.X)
    P = np.swapaxes(Qt, -1, -2) @ Qt
    assert np.allclose(P @ P, P, atol=1e-9)
    assert np.allclose(P, batch.X @ np.linalg.pinv(batch.X), atol=1e-7)


def test_projection_of_a_false_basis_is_detected() -> None:
    # a non-orthonormal "basis" is not idempotent: the test above can fail
    Qt = np.array([[1.0, 1.0, 0.0]])
    P = Qt.T @ Qt
    assert not np.allclose(P @ P, P)


@FAST
@given(st.integers(2, 6), st.integers(1, 5), st.integers(0, 10_000))
def test_lemma4_gradient_sum_is_zero(M: int, d: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    pi = softmax(rng.standard_normal((4, M)))
    grad = gate_gradient(pi, rng.integers(0, M, 4), rng.standard_normal((4, d)), rng.random(4))
    assert np.abs(grad.sum(axis=1)).max() < 1e-12


def test_gate_gradient_matches_symbolic_derivative() -> None:
    M, d = 3, 2
    theta = sp.Matrix(M, d, lambda i, j: sp.Symbol(f"th{i}{j}"))
    xbar = sp.Matrix([sp.Rational(3, 2), -1])
    h = theta * xbar
    pi = [sp.exp(h[m]) / sum(sp.exp(h[k]) for k in range(M)) for m in range(M)]
    coef, chosen = sp.Rational(7, 5), 1
    loss = coef * pi[chosen]
    point = {theta[i, j]: sp.Rational(i - j, 3) for i in range(M) for j in range(d)}
    exact = np.array([[float(sp.diff(loss, theta[i, j]).subs(point)) for j in range(d)]
                      for i in range(M)])
    th_num = np.array([[float(point[theta[i, j]]) for j in range(d)] for i in range(M)])
    x_num = np.array([1.5, -1.0])
    num = gate_gradient(softmax(th_num @ x_num)[None], np.array([chosen]), x_num[None],
                        np.array([1.4]))[0]
    assert np.allclose(num, exact, atol=1e-12)
    assert not np.allclose(-num, exact, atol=1e-6)  # a sign error would be caught


@pytest.mark.parametrize("reading", ["paper", "code"])
@pytest.mark.parametrize("M", [1, 3])
@pytest.mark.parametrize("flag_selected", [True, False])
@pytest.mark.parametrize("flag_start", ["after-T1", "at-T1"])
@pytest.mark.parametrize("flag_memory", ["sticky", "round"])
def test_metrics_match_brute_force_reference(reading: str, M: int, flag_selected: bool,
                                             flag_start: str, flag_memory: str) -> None:
    # flag_memory="round" (issue 46): every gap below Γ in the same round
    cfg = CLConfig(reading=reading, M=M, T=120 if flag_memory == "round" else 60,
                   flag_selected=flag_selected, flag_start=flag_start, flag_memory=flag_memory)
    fast = simulate(cfg, 1, seed=11)
    ref = reference_run(cfg, seed=11)
    assert (fast.expert[0] == ref["expert"]).all()
    assert np.allclose(fast.forgetting[0], ref["forgetting"], rtol=1e-9, atol=1e-12)
    assert np.allclose(fast.generalization[0], ref["generalization"], rtol=1e-9, atol=1e-12)
    assert fast.termination_round[0] == ref["termination_round"]
    if reading == "code":
        assert np.allclose(fast.forgetting_code[0], ref["forgetting_code"], atol=1e-12)
        assert np.allclose(fast.generalization_code[0], ref["generalization_code"], atol=1e-12)


@pytest.mark.parametrize("option, earlier, later", [
    # Algorithm 1 read literally flags m_t too (gap 0 < Γ): a superset of the code's flags
    # on the same trajectory, so termination comes no later
    ("flag_selected", True, False),
    # issue 46: a round in which every gap is below Γ sets every sticky flag too, so the
    # sticky reading stops no later than the round-by-round one
    ("flag_memory", "sticky", "round"),
])
def test_a_wider_flag_reading_terminates_no_later(option: str, earlier: object,
                                                  later: object) -> None:
    assert getattr(CLConfig(), option) == earlier  # the paper reading's default
    cfgs = [CLConfig(M=5, T=300, **{option: v}) for v in (earlier, later)]
    first, second = simulate_many(cfgs, 6, seed=2)
    never = cfgs[0].T + 1
    t_1 = np.where(first.termination_round >= 0, first.termination_round, never)
    t_2 = np.where(second.termination_round >= 0, second.termination_round, never)
    assert (t_1 <= t_2).all()
    assert (t_1 < t_2).any()  # the option has an effect on these runs


def test_flag_readings_defaults_and_bad_values() -> None:
    assert not CLConfig(reading="code").flag_selected
    assert CLConfig(reading="code").flag_memory == "sticky"
    with pytest.raises(ValueError, match="flag_memory must be one of"):
        CLConfig(flag_memory="forever")


def test_metric_definitions_by_hand() -> None:
    res = simulate(CLConfig(M=2, T=30), 2, seed=3)
    assert np.all(res.forgetting[:, 0] == 0.0)
    # G_1 = E_1 (one task seen) and F_t, G_t finite
    assert np.allclose(res.generalization[:, 0], res.model_error[:, 0])
    assert np.isfinite(res.forgetting).all() and np.isfinite(res.generalization).all()
    assert (res.load.sum(axis=1) == 30).all()


def test_determinism_and_seed_dependence() -> None:
    cfg = CLConfig(M=4, T=80)
    a, b = simulate(cfg, 3, seed=5), simulate(cfg, 3, seed=5)
    c = simulate(cfg, 3, seed=6)
    assert np.array_equal(a.forgetting, b.forgetting)
    assert np.array_equal(a.expert, b.expert) and np.array_equal(a.gate, b.gate)
    assert not np.array_equal(a.forgetting, c.forgetting)


def test_stacked_runs_share_data() -> None:
    runs = simulate_many([CLConfig(M=1, T=40), CLConfig(M=5, T=40, terminate=False)], 2, 9)
    assert np.array_equal(runs[0].task, runs[1].task)
    alone = simulate(CLConfig(M=5, T=40, terminate=False), 2, 9)
    assert np.array_equal(alone.generalization, runs[1].generalization)
    assert np.array_equal(runs[0].ground_truths, runs[1].ground_truths)
    with pytest.raises(ValueError, match="share N"):
        simulate_many([CLConfig(N=7), CLConfig(N=8)], 1, 0)


def test_single_expert_forgets_more_than_moe() -> None:
    res = simulate_many([CLConfig(M=1, T=400), CLConfig(M=5, T=400)], 8, seed=1)
    assert res[0].generalization[:, -1].mean() > res[1].generalization[:, -1].mean()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"s": 10}, "s must satisfy 1 <= s < d"),
        ({"s": 0}, "s must satisfy"),
        ({"N": 0}, "N must be an integer >= 1"),
        ({"M": 0}, "M must be an integer >= 1"),
        ({"K": 9}, "K must satisfy 1 <= K <= N"),
        ({"lam": 0.0}, "lam must be > 0"),
        ({"eta": -1.0}, "eta must be > 0"),
        ({"eta": float("nan")}, "eta must be a finite real number"),
        ({"sigma0": 0}, "sigma0 must be > 0"),
        ({"sigma_t": -0.1}, "sigma_t must be >= 0"),
        ({"gamma": 0.0}, "gamma must be > 0"),
        ({"T": 0}, "T must be an integer >= 1"),
        ({"M": 2.5}, "M must be an integer"),
        ({"reading": "both"}, "reading must be one of"),
        ({"softmax": "hard"}, "softmax must be one of"),
        ({"terminate": "yes"}, "terminate must be True or False"),
    ],
)
def test_bad_config_raises(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        CLConfig(**kwargs)


def test_bad_run_arguments_raise() -> None:
    with pytest.raises(ValueError, match="replicates must be an integer >= 1"):
        simulate(CLConfig(T=5), 0)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        simulate(CLConfig(T=5), 1, seed=-1)
    with pytest.raises(ValueError, match="cfg must be a CLConfig"):
        simulate({"M": 2}, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_workers"):
        run_sweep([CLConfig(T=5)], max_workers=0)


def test_reading_switch_reresolves_options() -> None:
    code = CLConfig().replace(reading="code")
    assert code.softmax == "noisy" and code.data_model == "code" and not code.aux_f
    assert CLConfig(reading="code", softmax="clean").softmax == "clean"


def test_decision_helpers_can_fail() -> None:
    assert greater("x", MeanEstimate(-1, -2, -0.5, 5, 0.9), 0.0, 0.1).verdict is Verdict.UNSUPPORTED
    assert greater("x", MeanEstimate(0, -1, 1, 5, 0.9), 0.0, 0.1).verdict is Verdict.INCONCLUSIVE
    assert at_most("x", MeanEstimate(1, 0.8, 1.2, 5, 0.9), 0.5, 0.1).verdict is Verdict.UNSUPPORTED
    # an interval straddling the bound is inconclusive, not supported (issue 11)
    assert at_most("x", MeanEstimate(1, 0.3, 1.2, 5, 0.9), 0.5, 0.1).verdict is Verdict.INCONCLUSIVE
    assert at_most("x", MeanEstimate(0.4, 0.3, 0.6, 5, 0.9), 0.5, 0.1).verdict is Verdict.SUPPORTED
    curve = np.array([[0.0, 5.0, 4.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]])
    assert convergence_round(curve, late=0.3).tolist() == [4]
    e = np.array([[0] * 30 + [1] * 10])
    _, tv, _ = routing_tv(e, np.zeros_like(e), np.array([[0, 0]]), np.array([0]))
    assert tv[0] == pytest.approx(0.25)


def test_sweep_local_processes_match_serial() -> None:
    cfgs = [CLConfig(M=1, T=30), CLConfig(M=3, T=30)]
    serial = run_sweep(cfgs, replicates=2, seed=4, max_workers=1)
    pooled = run_sweep(cfgs, replicates=2, seed=4, max_workers=2)
    for a, b in zip(serial, pooled, strict=True):
        assert np.array_equal(a.forgetting, b.forgetting)


def test_sweep_on_dask_local_cluster() -> None:
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    cfgs = [CLConfig(M=2, T=20), CLConfig(M=3, T=20)]
    serial = run_sweep(cfgs, replicates=2, seed=8, max_workers=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        remote = run_sweep(cfgs, replicates=2, seed=8, scheduler=cluster.scheduler_address)
    for a, b in zip(serial, remote, strict=True):
        assert np.array_equal(a.generalization, b.generalization)


def test_lemma3_check_is_refuted_and_corrected_is_proved() -> None:
    from proofs_checks.li2025continual.lemmas import (
        check_lemma3,
        check_lemma3_corrected,
    )

    ctx = CheckContext("cl.lemma3.unchanged", seed=0)
    assert check_lemma3(ctx).verdict is Verdict.REFUTED
    assert check_lemma3_corrected(ctx).verdict is Verdict.PROVED


def test_prop1_keeps_the_literal_readings_first() -> None:
    from proofs_checks.li2025continual.training import check_prop1

    out = check_prop1(CheckContext("cl.prop1.convergence", seed=0))
    names = [r.name for r in out.readings]
    assert names == [
        "paper, random β", "paper", "code", "paper, random β, approximately frozen",
        "paper, approximately frozen", "code, approximately frozen",
        "paper, random β; flags: others only", "paper, random β; flags: from T1",
        "paper, random β; flags: others only, from T1", "paper, random β; flags: round by round",
    ]
    configs = [r.evidence["config"] for r in out.readings[:3]]
    assert [c["beta"] for c in configs] == ["uniform", "fixed", "fixed"]
    assert [c["flag_selected"] for c in configs] == [True, True, False]
    assert out.verdict is out.readings[0].verdict  # Definition 1's data model is primary


def test_fig2_per_run_rule_can_go_either_way() -> None:
    from proofs_checks.li2025continual.experiments import FIG2_MS, _fig2_per_run

    def runs_with(curve: np.ndarray) -> dict:
        res = simulate(CLConfig(M=2, T=10), 12, seed=0)
        res.generalization = res.forgetting = np.tile(curve, (12, 1))
        return {(M, True): res for M in FIG2_MS}

    falling = np.array([0.0, 5.0, 4.0, 2.0] + [0.1] * 6)
    flat = np.array([0.0, 5.0] + [4.0] * 8)
    good, _ = _fig2_per_run(runs_with(falling), 0.05)
    bad, _ = _fig2_per_run(runs_with(flat), 0.05)
    assert all(c.verdict is Verdict.SUPPORTED for c in good)
    assert all(c.verdict is Verdict.UNSUPPORTED for c in bad)


def test_incremental_code_forgetting_matches_reference_when_its_lists_grow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # M = 20 experts, T = 400, room for only 3 terms per group at the start: the busiest
    # groups' tables must grow several times; neither the sum nor its bits may notice.
    import moetheory.continual.simulator as sim

    cfg = CLConfig(reading="code", M=20, T=400)
    roomy = simulate(cfg, 1, seed=5)
    monkeypatch.setattr(sim, "_term_capacity", lambda T, N: 3)
    fast = simulate(cfg, 1, seed=5)
    ref = reference_run(cfg, seed=5)
    assert int(fast.load.max()) > 12
    assert (fast.expert[0] == ref["expert"]).all()
    assert np.allclose(fast.forgetting_code[0], ref["forgetting_code"], rtol=1e-10, atol=1e-12)
    assert np.array_equal(fast.forgetting_code, roomy.forgetting_code)


def test_identical_runs_are_simulated_once_and_returned_as_copies() -> None:
    # M = 1 has no gate: its run does not depend on termination, Γ, η, α or λ
    cfgs = [CLConfig(M=1, T=60), CLConfig(M=3, T=60), CLConfig(M=1, T=60, terminate=False,
                                                              eta=0.1)]
    a, b, c = simulate_many(cfgs, 2, seed=4)
    alone = simulate(cfgs[2], 2, seed=4)
    assert c.config is cfgs[2] and c.choices["eta"] == 0.1
    assert np.array_equal(c.generalization, alone.generalization)
    assert np.array_equal(a.generalization, c.generalization)
    assert a.generalization is not c.generalization
    assert np.array_equal(b.generalization, simulate(cfgs[1], 2, seed=4).generalization)


def test_stacked_code_forgetting_equals_separate_runs() -> None:
    cfgs = [CLConfig(reading="code", M=M, T=120) for M in (1, 4, 9)]
    stacked = simulate_many(cfgs, 3, seed=8)
    for cfg, res in zip(cfgs, stacked, strict=True):
        alone = simulate(cfg, 3, seed=8)
        assert np.array_equal(res.forgetting_code, alone.forgetting_code)
        assert np.array_equal(res.generalization_code, alone.generalization_code)


@pytest.mark.parametrize("reading", ["paper", "code"])
def test_gradient_of_the_active_rows_alone_gives_the_same_bits(
    reading: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gathering the active rows (stopped gates skip the gradient) = a zero step on all rows."""
    import moetheory.continual.simulator as simulator

    base = CLConfig(reading=reading, T=300)
    cfgs = [base.replace(M=M, terminate=term) for M in (5, 20) for term in (True, False)]
    runs = {}
    for gather_from in (1, 10**9):  # gather from the first stopped row / always by slices
        monkeypatch.setattr(simulator, "GATHER_FROM", gather_from)
        runs[gather_from] = simulate_many(cfgs, 12, seed=2, record_gates=True)
    assert all(int((r.termination_round > 0).sum()) >= 2 for r in runs[1][::2])
    for x, y in zip(runs[1], runs[10**9], strict=True):
        for name in ("expert", "generalization", "gate", "gate_outputs", "termination_round"):
            assert getattr(x, name).tobytes() == getattr(y, name).tobytes(), name
