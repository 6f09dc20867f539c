"""Proposition 3's share of routings inside the task's set counts the rounds after
termination; a run that terminated in its last round has none (``routing_tv`` gives nan)."""

from __future__ import annotations

import numpy as np

from moetheory import Verdict, verify
from proofs_checks.li2025continual import training


def test_a_run_terminated_in_its_last_round_leaves_prop3_m_lt_n_decidable():
    # master seed 53, quick: betting_ci raised "samples contain non-finite values" and the
    # claim was an error (2 of the 100 seeds of its calibration row)
    report = verify("cl.prop3.m-lt-n", seed=53)
    (entry,) = report["claims"]
    assert entry["verdict"] != Verdict.ERROR.value
    dropped = [r["evidence"].get("runs_without_rounds_after_termination", 0)
               for r in entry["readings"]]
    assert max(dropped) >= 1


def test_the_share_skips_runs_without_rounds_after_termination():
    inside = np.array([1.0, np.nan, 0.98, 1.0])
    comp, counted = training._share_inside(inside, 0.05, "share")
    assert counted.tolist() == [True, False, True, True]
    assert comp is not None and np.isfinite(comp.estimate.mean)
    assert training._share_inside(np.array([np.nan, 1.0]), 0.05, "share")[0] is None
