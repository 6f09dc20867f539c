"""The identifiability certificates are identical under other BLAS kernels and narrower SIMD.

Issue 15: exact certificates must not depend on the floating-point path. The identifiability
claims are run in two child processes, one as is and one with ``OPENBLAS_CORETYPE`` and
``NPY_DISABLE_CPU_FEATURES`` set (features chosen from what this machine dispatches), and
their JSON reports must agree apart from timings and the environment block.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PATTERNS = ("pcr.ident.*", "pcr.identifiable.*")


def _narrower_simd() -> str | None:
    """The dispatched SIMD features above the baseline that this machine has, widest first."""
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # pragma: no cover - other numpy layouts
        return None
    have = [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]
    # Disabling the widest feature also removes everything that implies it.
    wide = [f for f in have if f not in ("X86_V3",)] or have
    return " ".join(wide) or None


def _strip(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in ("seconds", "environment")}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _run(tmp: Path, name: str, extra_env: dict[str, str]) -> dict[str, Any]:
    out = tmp / f"{name}.json"
    cmd = [sys.executable, "-m", "moetheory", "verify", "--jobs", "1", "--no-progress",
           "--json", str(out)]
    for p in PATTERNS:
        cmd += ["--only", p]
    env = {**os.environ, **extra_env}
    subprocess.run(cmd, env=env, check=True, capture_output=True, timeout=900)
    return json.loads(out.read_text())


@pytest.mark.slow
def test_identifiability_reports_identical_across_blas_and_simd(tmp_path: Path) -> None:
    simd = _narrower_simd()
    alt_env = {"OPENBLAS_CORETYPE": "Sandybridge"}
    if simd:
        alt_env["NPY_DISABLE_CPU_FEATURES"] = simd
    base = _run(tmp_path, "base", {})
    alt = _run(tmp_path, "alt", alt_env)
    ids = [c["id"] for c in base["claims"]]
    assert ids == [c["id"] for c in alt["claims"]]
    assert any(i.startswith("pcr.ident.") for i in ids)
    for a, b in zip(base["claims"], alt["claims"], strict=True):
        assert _strip(a) == _strip(b), f"{a['id']} differs under {alt_env}"


def test_null_space_basis_is_canonical_whatever_vectors_were_found() -> None:
    import sympy as sp

    from moetheory.symbolic.linear_independence import canonical_null_basis

    a = canonical_null_basis([[1, 2, 3, 4], [0, 1, 1, 1]])
    b = canonical_null_basis([[1, 3, 4, 5], [2, 3, 5, 7]])  # same span, other vectors
    assert a == b == [[1, 0, 1, 2], [0, 1, 1, 1]]
    assert all(isinstance(c, sp.Integer) for row in a for c in row)
    # a family of one function: vectors of length 1 (sp.ilcm needs two arguments)
    assert canonical_null_basis([[sp.Rational(-3, 2)], [3]]) == [[1]]
    assert canonical_null_basis([[sp.Rational(1, 6), sp.Rational(-1, 4)]]) == [[2, -3]]


def test_elimination_pivots_on_the_first_independent_columns() -> None:
    """The proposal step (plain Python floats, no numpy) keeps the lexicographically first
    independent columns, so the free columns of the null-space basis are canonical."""
    from moetheory.symbolic.linear_independence import _float_elimination

    rows = [[1.0, 2.0, 3.0, 1.0], [2.0, 1.0, 3.0, 0.5], [0.0, 1.0, 1.0, 0.25],
            [1.0, 1.0, 2.0, 4.0]]
    pivots, pivot_rows, reduced = _float_elimination(rows)
    assert pivots == [0, 1, 3]  # column 2 = column 0 + column 1
    assert len(set(pivot_rows)) == 3
    assert abs(reduced[0][2] - 1.0) < 1e-12 and abs(reduced[1][2] - 1.0) < 1e-12
