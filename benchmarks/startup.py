"""Start-up cost of ``import moetheory`` and of the command line, beside ``import sympy``.

Each command runs in a fresh interpreter; its CPU time (user + system, from
``RUSAGE_CHILDREN``) is the minimum over ``--repeats`` runs, after one warm-up run that
writes the bytecode caches (a development environment may set ``PYTHONDONTWRITEBYTECODE``;
an installed package has its caches, so the benchmark measures with them). Printed as CPU
seconds and as ratios against ``import sympy`` measured in the same run, and, with
``--old REV``, against the package at git revision ``REV`` (its tree extracted into a
temporary directory and put first on ``PYTHONPATH``), alternating old and new so both meet the
same machine.

Targets (issues 29 and 32): ``import moetheory``, ``moetheory --help`` and ``--version`` load
no SciPy, SymPy or NumPy; ``moetheory list`` costs at most :data:`LIST_TARGET` times the CPU of
``import sympy`` (exit status 1 above it).

Run: ``python benchmarks/startup.py [--repeats 5] [--old bee493b]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from _previous import extract

ROOT = Path(__file__).resolve().parents[1]
#: ``moetheory list`` within this multiple of the CPU of ``import sympy`` (issue 32).
LIST_TARGET = 2.0

#: (label, arguments of the interpreter); the first is the reference.
COMMANDS: list[tuple[str, list[str]]] = [
    ("import sympy", ["-c", "import sympy"]),
    ("import numpy", ["-c", "import numpy"]),
    ("import moetheory", ["-c", "import moetheory"]),
    ("moetheory --help", ["-m", "moetheory", "--help"]),
    ("moetheory --version", ["-m", "moetheory", "--version"]),
    ("moetheory list", ["-m", "moetheory", "list"]),
]


def cpu_seconds(args: list[str], tree: Path) -> float:
    """User + system CPU seconds of ``python ARGS`` with ``tree`` first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH")]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *args], cwd=tree, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(trees: dict[str, Path], repeats: int) -> dict[str, dict[str, float]]:
    """``{tree label: {command label: min CPU seconds}}``, runs interleaved across trees."""
    for tree in trees.values():  # warm-up: write the bytecode caches
        for _, args in COMMANDS:
            cpu_seconds(args, tree)
    best: dict[str, dict[str, float]] = {name: {} for name in trees}
    for _ in range(repeats):
        for label, args in COMMANDS:
            for name, tree in trees.items():
                t = cpu_seconds(args, tree)
                best[name][label] = min(best[name].get(label, float("inf")), t)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per command (default 5)")
    parser.add_argument("--old", metavar="REV", help="also measure git revision REV")
    args = parser.parse_args(argv)
    trees = {"new": ROOT}
    with tempfile.TemporaryDirectory() as tmp:
        if args.old:
            trees["old"] = extract(args.old, Path(tmp))
        best = measure(trees, args.repeats)
    ref = best["new"]["import sympy"]
    head = f"{'command':<22}{'CPU s':>8}{'÷ sympy':>9}"
    if args.old:
        head += f"{'old CPU s':>11}{'old ÷ sympy':>13}{'new ÷ old':>11}"
    print(f"min CPU seconds of {args.repeats} runs; reference: import sympy = {ref:.3f} s")
    print(head)
    for label, _ in COMMANDS:
        new = best["new"][label]
        row = f"{label:<22}{new:>8.3f}{new / ref:>9.2f}"
        if args.old:
            old = best["old"][label]
            row += f"{old:>11.3f}{old / best['old']['import sympy']:>13.2f}{new / old:>11.2f}"
        print(row)
    ratio = best["new"]["moetheory list"] / ref
    verdict = "met" if ratio <= LIST_TARGET else "NOT met"
    print(f"target: moetheory list <= {LIST_TARGET:g} x import sympy: {ratio:.2f} ({verdict})")
    return 0 if ratio <= LIST_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
