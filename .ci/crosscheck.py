"""Run the quick profile under two floating-point configurations and require equal reports.

The second run uses other BLAS kernels (``OPENBLAS_CORETYPE``) and narrower SIMD
(``NPY_DISABLE_CPU_FEATURES``: the features above the baseline that this CPU has, as NumPy
reports them). The two JSON reports must be identical apart from the fields listed in
``IGNORED`` (timings and the description of the machine), which is what README.md promises:
same seed, same report on every machine.

Usage: ``python .ci/crosscheck.py [--jobs N] [--only GLOB ...] [--keep DIR]``; exit 0 when the
reports agree, 1 with the differing paths otherwise, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

#: Keys whose values may differ between machines: wall-clock and CPU timings, the environment.
IGNORED = frozenset({"seconds", "environment"})


def narrow_simd_features(python: str) -> str:
    """The NumPy SIMD features above the baseline that this CPU has, to disable."""
    code = (
        "import numpy._core._multiarray_umath as m;"
        "print(' '.join(k for k, v in m.__cpu_features__.items() "
        "if v and k in m.__cpu_dispatch__))"
    )
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def strip(value: Any) -> Any:
    """``value`` without the :data:`IGNORED` keys, recursively."""
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in IGNORED}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def differences(a: Any, b: Any, path: str = "$") -> list[str]:
    """Paths at which ``a`` and ``b`` differ, with both values (shortened)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                out.append(f"{path}.{key}: present in one report only")
            else:
                out += differences(a[key], b[key], f"{path}.{key}")
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} vs {len(b)} items"]
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            label = x.get("id") if isinstance(x, dict) and "id" in x else i
            out += differences(x, y, f"{path}[{label}]")
        return out
    if a != b:
        return [f"{path}: {str(a)[:80]!r} != {str(b)[:80]!r}"]
    return []


def run(python: str, env: dict[str, str], out: Path, jobs: int, only: list[str]) -> None:
    cmd = [python, "-m", "moetheory", "verify", "--jobs", str(jobs), "--no-progress",
           "--json", str(out)]
    for pattern in only:
        cmd += ["--only", pattern]
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--keep", type=Path, default=None, help="keep both reports here")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    python = sys.executable
    features = narrow_simd_features(python)
    other = dict(os.environ, OPENBLAS_CORETYPE="Sandybridge", NPY_DISABLE_CPU_FEATURES=features)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        first, second = folder / "default.json", folder / "narrow.json"
        run(python, dict(os.environ), first, args.jobs, args.only)
        run(python, other, second, args.jobs, args.only)
        a = strip(json.loads(first.read_text()))
        b = strip(json.loads(second.read_text()))
    diffs = differences(a, b)
    label = f"OPENBLAS_CORETYPE=Sandybridge NPY_DISABLE_CPU_FEATURES={features!r}"
    if diffs:
        print(f"crosscheck: {len(diffs)} differences between the default run and {label}")
        per_claim = Counter(d.split("]")[0].removeprefix("$.claims[") for d in diffs)
        for claim_id, n in sorted(per_claim.items()):
            print(f"  {n:4d}  {claim_id}")
        for line in diffs[:200]:
            print("  " + line)
        return 1
    print(f"crosscheck: reports identical under the default configuration and {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
