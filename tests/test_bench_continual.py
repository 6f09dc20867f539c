"""The continual-learning benchmark's count of the arithmetic Algorithm 1 needs (issue 32)."""

from __future__ import annotations

import pytest
from _bench import load_benchmark

from moetheory.continual import CLConfig, simulate_many

bench = load_benchmark("bench_continual")

SMALL = CLConfig(M=2, T=60, N=3, K=1, d=4, s=2)


def _tally(cfg: CLConfig, termination: list[int], with_single: bool) -> int:
    """Operations counted round by round, as Algorithm 1 spends them (independent count).

    One basis of ``X_t`` per replicate and round whatever the number of curves; one
    ``M = 1`` run (``with_single``) however many ``M = 1`` curves; the flags from round
    ``T1 + 1`` until termination, the gradient only before the termination round.
    """
    d, s, N, M, T = cfg.d, cfg.s, cfg.N, cfg.M, cfg.T
    basis = sum(j * (2 * d + 2 * d) for j in range(s)) + s * (2 * d + 1 + d)
    xbar = (s - 1) * d
    expert = d + 2 * s * d + 2 * s * d + d  # w_n - w, Qᵀ(...), Q(...), w + ...
    metrics = N * 3 * d + 3 * N + 6
    gate = M * 2 * d + M + (M - 1)  # h_m, h + r, argmax
    flags = 3 * M
    gradient = 2 * d + (5 * M - 2) + 5 + (M + 2) + 2 * M * d
    total = 0
    for stop in termination:  # one replicate each
        active = True
        for t in range(1, T + 1):
            total += basis + xbar + expert + metrics + gate
            if with_single:
                total += expert + metrics
            if cfg.terminate and active and t >= cfg.T1 + 1:
                total += flags
                if t == stop:
                    active = False
            if active:
                total += gradient
    return total


def test_single_expert_curves_share_one_basis_and_one_run() -> None:
    cfg = CLConfig(M=1, T=3, N=2, K=1, d=3, s=2)
    both = simulate_many([cfg, cfg.replace(terminate=False)], 2, seed=0)
    # per replicate and round: basis 12 + 18 + 2, eq. (5) 6 + 24, metrics 18 + 6 + 6
    assert bench.useful_flops(both) == 2 * 3 * (32 + 30 + 30)
    assert bench.useful_flops(both) == bench.useful_flops(both[:1])


def test_gradients_stop_at_termination() -> None:
    runs = simulate_many([SMALL, SMALL.replace(terminate=False), SMALL.replace(M=1)], 3,
                         seed=1)
    stops = runs[0].termination_round.tolist()
    assert stops == [5, -1, 14]  # one early stop, one never, one later: all three cases
    never = [-1] * 3
    expected = (_tally(SMALL, stops, with_single=True)
                + _tally(SMALL.replace(terminate=False), never, with_single=False)
                - 3 * SMALL.T * (sum(j * 4 * SMALL.d for j in range(SMALL.s))
                                 + SMALL.s * (3 * SMALL.d + 1) + (SMALL.s - 1) * SMALL.d))
    assert bench.useful_flops(runs) == expected


def test_figure2_count_is_the_honest_one() -> None:
    """Figure 2 at one replicate: near 14 MFLOP, a third of the count before issue 32."""
    runs = simulate_many(bench.configs(2000, "paper"), 1, seed=0)
    count = bench.useful_flops(runs)
    old_count = 8 * 2000 * 1890 + 2 * 66 * 2000 * sum(bench.MS)  # basis per curve, twice, ...
    assert 1.2e7 < count < 1.6e7
    assert count < old_count / 2.5


def test_results_of_different_calls_are_refused() -> None:
    a = simulate_many([SMALL], 1, seed=0)
    b = simulate_many([SMALL], 2, seed=0)
    with pytest.raises(ValueError, match="one simulate_many call"):
        bench.useful_flops(a + b)
    with pytest.raises(ValueError, match="at least one"):
        bench.useful_flops([])
