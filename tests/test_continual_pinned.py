"""Pinned results of the continual-learning simulator (seed 003), recorded on main at d7290e9.

The simulator is deterministic bit for bit (``moetheory/continual/portable.py``), so a faster
implementation must reproduce these records exactly: routing, ``F_t``, ``G_t``, the
termination rounds and (code reading) the released code's metrics, for stacked configurations
with and without a gate, with and without termination, under Definition 1 with ``β = 1`` and
with random ``β_t``, and under the code's data model.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from moetheory.continual import CLConfig
from moetheory.continual.simulator import simulate_many

#: sha256 prefix of (expert, task, F, G, termination round[, F_code, G_code]) as float64 bytes;
#: 3 replicates, T = 300, seed 11.
PINNED = {
    "paper-M1-T": "df0621aa11a807f6",
    "paper-M1-F": "df0621aa11a807f6",
    "paper-M5-T": "7ea548df7ab2ec03",
    "paper-M5-F": "feea59b996589547",
    "paper-M20-T": "fb4b3ae0935d5295",
    "paper-M20-F": "63fcc32906d0a6a4",
    "paper-uniform-M1-T": "8494241aef1a9cd4",
    "paper-uniform-M1-F": "8494241aef1a9cd4",
    "paper-uniform-M5-T": "9629b6241d61c95f",
    "paper-uniform-M5-F": "f6d925073317afb7",
    "paper-uniform-M20-T": "a1ddc650436bc46a",
    "paper-uniform-M20-F": "a94a2e3f1649de62",
    "code-M1-T": "f0bd2229f12fd2a3",
    "code-M1-F": "f0bd2229f12fd2a3",
    "code-M5-T": "931fcb08d5603783",
    "code-M5-F": "32cbb670e7c55f5c",
    "code-M20-T": "63c0ececebe9793c",
    "code-M20-F": "63c0ececebe9793c",
}

#: Replicate 0 of M = 5 with termination: first 20 routed experts, F_t at t = 2, 51, 300 and
#: G_t at t = 1, 51, 300 (exact decimal reprs of the float64 values).
EXPLICIT = {
    "paper": (
        [3, 3, 0, 3, 3, 0, 2, 1, 1, 4, 4, 0, 0, 2, 1, 4, 0, 4, 3, 1],
        [6.0058120002191595, 0.579430503909758, 0.1128022970691189],
        [1.3786047283166883e-31, 0.8168941778015196, 0.16844271340858255],
    ),
    "paper-uniform": (
        [3, 0, 1, 3, 1, 0, 0, 4, 4, 2, 4, 0, 0, 2, 3, 0, 4, 2, 2, 1],
        [0.0, 0.6503529404175894, 1.3667150114394395],
        [1.4068918243748758e-31, 0.9044801975297514, 1.5451888192118726],
    ),
    "code": (
        [3, 3, 2, 2, 0, 1, 1, 0, 4, 0, 0, 4, 4, 4, 4, 4, 0, 0, 4, 4],
        [0.37684031853910693, 0.044430705450080224, 0.027534860446458146],
        [1.777349729498926e-08, 0.043559688566233774, 0.02744374578232545],
    ),
}

CASES = {"paper": {"reading": "paper"}, "paper-uniform": {"reading": "paper", "beta": "uniform"},
         "code": {"reading": "code"}}


def _digest(fields: list[np.ndarray]) -> str:
    flat = np.concatenate([np.asarray(f, dtype=float).ravel() for f in fields])
    return hashlib.sha256(np.ascontiguousarray(flat).tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(CASES))
def test_simulator_reproduces_pinned_records(name: str) -> None:
    base = CLConfig(T=300, **CASES[name])
    cfgs = [base.replace(M=M, terminate=term) for M in (1, 5, 20) for term in (True, False)]
    results = simulate_many(cfgs, 3, seed=11)
    got = {}
    for cf, r in zip(cfgs, results, strict=True):
        fields = [r.expert, r.task, r.forgetting, r.generalization, r.termination_round]
        if r.forgetting_code is not None:
            fields += [r.forgetting_code, r.generalization_code]
        got[f"{name}-M{cf.M}-{'T' if cf.terminate else 'F'}"] = _digest(fields)
    assert got == {k: v for k, v in PINNED.items() if k.rsplit("-M", 1)[0] == name}
    experts, F, G = EXPLICIT[name]
    r = results[2]
    assert r.expert[0, :20].tolist() == experts
    assert r.forgetting[0, [1, 50, 299]].tolist() == F
    assert r.generalization[0, [0, 50, 299]].tolist() == G
