"""The simulator's code reading against the authors' released script (issue 9, item 11).

``tests/data/authors_fig2_seed14.npz`` holds what ``fig2_forgetting_error.py`` of
github.com/LiHongbo97/MoE-in-CL drew and computed in one run (seed 14, M ∈ {5, 20}, T = 360):
the ground truths, every feature matrix and noise vector, the routed experts, whether the gate
was updated, and its F_t and G_t. ``tests/data/authors_fig2_final_G.json`` holds the final
G_T of independent runs of the same script. Both are data recorded outside the project (see
their ``meta``); no code of the script is part of the package.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from moetheory.continual import CLConfig, simulate
from moetheory.continual.simulator import Draws, replay

DATA = Path(__file__).parent / "data"


def _recorded() -> dict:
    with np.load(DATA / "authors_fig2_seed14.npz") as z:
        return {k: z[k] for k in z.files}


def _replay(rec: dict, k: int, **changes) -> tuple:  # type: ignore[no-untyped-def]
    M = int(rec["M"][k])
    T = rec["X"].shape[1]
    cfg = CLConfig(reading="code", M=M, T=T).replace(**changes)
    draws = Draws(rec["W"], rec["V"], rec["tasks"], rec["X"][k], rec[f"noise_M{M}"])
    return replay(cfg, draws), M


@pytest.mark.parametrize("k", [0, 1])
def test_code_reading_reproduces_the_authors_run(k: int) -> None:
    rec = _recorded()
    res, M = _replay(rec, k)
    T = rec["X"].shape[1]
    assert T >= 300
    # routing identical in every round
    assert np.array_equal(res.expert[0], rec["route"][k])
    # F_t and G_t to 1e-10 (the script's round-0 G is a quirk of its code; from round 1 on)
    assert np.abs(res.forgetting_code[0, 1:] - rec["F"][k, 1:]).max() < 1e-10
    assert np.abs(res.generalization_code[0, 1:] - rec["G"][k, 1:]).max() < 1e-10
    # the gate stops being updated in the same round (0-based in the script)
    stopped = np.flatnonzero(rec["theta_updated"][k] == 0)
    expected = int(stopped[0]) + 1 if stopped.size else -1
    assert int(res.termination_round[0]) == expected
    if M == 20:
        assert expected > 0  # this fixture exercises Algorithm 1's termination


def test_a_different_reading_does_not_reproduce_the_run() -> None:
    # the comparison can fail: the squared local loss (the paper's eq. (6)) changes the routing
    rec = _recorded()
    res, _ = _replay(rec, 1, loc_norm="squared")
    assert not np.array_equal(res.expert[0], rec["route"][1])


def test_replay_rejects_draws_of_the_wrong_shape() -> None:
    rec = _recorded()
    cfg = CLConfig(reading="code", M=5, T=360)
    draws = Draws(rec["W"], rec["V"], rec["tasks"], rec["X"][0], rec["noise_M5"])
    with pytest.raises(ValueError, match=r"draws\.X must have shape"):
        replay(cfg.replace(s=5), draws)


def test_final_generalization_error_has_the_script_distribution() -> None:
    # 40 independent runs of the script (M = 5, T = 300) against 120 of the simulator's code
    # reading: a two-sample Kolmogorov-Smirnov test at level 0.001 must not reject.
    rec = json.loads((DATA / "authors_fig2_final_G.json").read_text())
    meta = rec["meta"]
    ours = simulate(CLConfig(reading="code", M=meta["M"], T=meta["T"]), 120, seed=2024)
    g_ours = ours.generalization_code[:, -1]
    assert stats.ks_2samp(rec["final_G"], g_ours).pvalue > 1e-3


def test_the_distribution_test_can_fail() -> None:
    # the paper reading's metric (squared norms, its own data) is a different distribution
    rec = json.loads((DATA / "authors_fig2_final_G.json").read_text())
    other = simulate(CLConfig(reading="paper", M=5, T=300), 120, seed=2024)
    assert stats.ks_2samp(rec["final_G"], other.generalization[:, -1]).pvalue < 1e-3
