"""The continual-learning simulator gives the same bits on every BLAS and SIMD path (issue 15).

The routing of Algorithm 1 is chaotic (a 1e-15 perturbation changes the routed expert after a
few hundred rounds), so any dependence on the BLAS library or on the SIMD kernels NumPy picks
shows up as different trajectories. Two child processes run the same simulations, one with
NumPy's and OpenBLAS's defaults and one with another OpenBLAS kernel and narrower SIMD; their
trajectories and the evidence of the cl.* dynamics claims must be identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from moetheory.continual.portable import dot_last, portable_exp

CHILD = r"""
import hashlib, json, sys
import numpy as np
from moetheory.continual import CLConfig
from moetheory.continual.simulator import simulate_many

out = {}
for reading in ("paper", "code"):
    base = CLConfig(reading=reading, T=400)
    cfgs = [base.replace(M=M, terminate=term) for M in (1, 5, 20) for term in (True, False)]
    for cfg, res in zip(cfgs, simulate_many(cfgs, 3, seed=11, record_gates=True), strict=True):
        h = hashlib.sha256()
        for name in ("expert", "task", "forgetting", "generalization", "forgetting_code",
                     "generalization_code", "gate_outputs", "weights", "gate",
                     "termination_round"):
            value = getattr(res, name)
            if value is not None:
                h.update(np.ascontiguousarray(value).tobytes())
        out[f"{reading} M={cfg.M} term={cfg.terminate}"] = h.hexdigest()
claims = sys.argv[1:]
if claims:
    from moetheory.engine.verification import verify
    report = verify(claims, profile="quick", seed=3)
    for c in report["claims"]:
        out[c["id"]] = {k: v for k, v in c.items() if k not in ("seconds", "elapsed", "timing")}
print(json.dumps(out, sort_keys=True, default=str))
"""

def _wide_simd_features() -> str:
    """The SIMD features above the baseline that this CPU has and NumPy dispatches to."""
    import numpy._core._multiarray_umath as m

    return " ".join(k for k, v in m.__cpu_features__.items()
                    if v and k in m.__cpu_dispatch__ and k.startswith(("AVX512", "X86_V4")))


#: Another OpenBLAS kernel and no AVX-512 (the features this CPU has, as NumPy names them).
OTHER_PATH = {"OPENBLAS_CORETYPE": "Sandybridge", "NPY_DISABLE_CPU_FEATURES": _wide_simd_features()}


def _child(env_extra: dict[str, str], claims: list[str]) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in OTHER_PATH}
    env.update({k: v for k, v in env_extra.items() if v})
    env["PYTHONWARNINGS"] = "ignore"
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, *claims], env=env, capture_output=True, text=True,
        check=True, timeout=600,
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _without_timings(value):  # type: ignore[no-untyped-def]
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items()
                if not any(w in k for w in ("second", "time", "elapsed", "duration"))}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


@pytest.mark.slow
def test_trajectories_and_evidence_are_identical_across_blas_and_simd_paths() -> None:
    claims = ["cl.prop1.convergence", "cl.prop3.balance", "cl.fig4-5"]
    default = _child({}, claims)
    other = _child(OTHER_PATH, claims)
    assert default.keys() == other.keys()
    for key in default:
        assert _without_timings(default[key]) == _without_timings(other[key]), key


def test_numpy_exp_is_platform_dependent_but_portable_exp_is_exact_enough() -> None:
    x = np.random.default_rng(0).uniform(-700.0, 700.0, 200_000)
    rel = np.abs(portable_exp(x) - np.exp(x)) / np.exp(x)
    assert rel.max() < 1e-14
    # near 0 (the softmax's range) to a few units in the last place
    y = np.random.default_rng(1).uniform(-40.0, 0.0, 200_000)
    assert (np.abs(portable_exp(y) - np.exp(y)) / np.exp(y)).max() < 5e-16


def test_portable_exp_special_values() -> None:
    v = portable_exp(np.array([-np.inf, np.inf, np.nan, 0.0, -800.0, 800.0]))
    assert v[0] == 0.0 and v[1] == np.inf and np.isnan(v[2]) and v[3] == 1.0
    assert v[4] == 0.0 and v[5] == np.inf


def test_dot_last_matches_a_wrong_axis_would_not() -> None:
    a = np.arange(6.0).reshape(2, 3)
    b = np.array([1.0, 0.0, -1.0])
    assert dot_last(a, b).tolist() == [-2.0, -2.0]
    assert dot_last(a, b).tolist() != (a.T[:2] * b[:2]).sum(axis=0).tolist()


@pytest.mark.slow
def test_a_curve_has_the_same_bits_whatever_curves_are_simulated_with_it() -> None:
    """Curves simulated together share their data and are padded to the largest ``M``; each
    curve's every field, the released code's forgetting sum included, has the bits it has
    alone. The code's sum over a group's terms was padded to the longest group of the rows
    of its segment and round, so its last bits followed the curve's companions."""
    from moetheory.continual import CLConfig
    from moetheory.continual.simulator import simulate_many

    base = CLConfig(reading="code", T=2000)
    cfgs = [base.replace(M=M, terminate=term) for M in (1, 5, 10, 20) for term in (True, False)]
    together = simulate_many(cfgs, 20, seed=0)
    for i in range(2):
        for cfg, res in zip(cfgs[i::2], simulate_many(cfgs[i::2], 20, seed=0), strict=True):
            other = together[cfgs.index(cfg)]
            for name in ("expert", "forgetting", "generalization", "forgetting_code",
                         "generalization_code", "termination_round"):
                a, b = getattr(res, name), getattr(other, name)
                assert np.array_equal(a, b), (cfg.M, cfg.terminate, name)
