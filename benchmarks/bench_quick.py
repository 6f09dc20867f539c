"""The quick profile of the whole catalogue, timed beside an older revision (issue 10).

Runs ``moetheory verify --profile quick --jobs J`` on the current tree and, with ``--old REV``,
on the tree of git revision ``REV`` (``git archive`` into a temporary directory, imported by
the same interpreter through ``PYTHONPATH``), alternating old and new ``--repeats`` times so
that both meet the same machine. Prints each run's wall-clock seconds and CPU seconds (every
check process included), the medians, the ratios new / old, and the claims whose reports
differ apart from their ``seconds``. Target: the new median wall-clock time at most
:data:`TARGET_S` on 2 cores (exit status 1 above it).

Run: ``python benchmarks/bench_quick.py [--old 15825d7] [--repeats 1] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _previous import extract

#: The quick profile's budget in wall-clock seconds on 2 cores (issue 10).
TARGET_S = 90.0
ROOT = Path(__file__).resolve().parents[1]


def run_quick(tree: Path, report: Path, jobs: int) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one quick-profile run of the package in ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "moetheory", "verify", "--profile", "quick",
                    "--jobs", str(jobs), "--no-progress", "--json", str(report)],
                   cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def differing(a: Path, b: Path) -> list[str]:
    """Claims whose entries differ between two reports, apart from ``seconds``."""

    def entries(path: Path) -> dict[str, dict]:
        claims = json.loads(path.read_text(encoding="utf-8"))["claims"]
        return {c["id"]: {k: v for k, v in c.items() if k != "seconds"} for c in claims}

    old, new = entries(a), entries(b)
    return sorted(i for i in old.keys() | new.keys() if old.get(i) != new.get(i))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="git revision to time beside the current tree")
    ap.add_argument("--repeats", type=int, default=1, help="runs of each tree (default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="checks at once (default 2)")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error(f"--repeats must be at least 1, got {args.repeats}")
    if args.jobs < 1:
        ap.error(f"--jobs must be at least 1, got {args.jobs}")
    times: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory(prefix="bench-quick-") as tmp:
        trees = {"new": ROOT}
        if args.old:
            trees["old"] = extract(args.old, Path(tmp) / "old")
        reports = {name: Path(tmp) / f"{name}.json" for name in trees}
        for _ in range(args.repeats):
            for name in ("old", "new"):
                if name in trees:
                    wall, cpu = run_quick(trees[name], reports[name], args.jobs)
                    times[name].append((wall, cpu))
                    print(f"{name}: {wall:6.1f} s wall, {cpu:6.1f} s CPU", flush=True)
        changed = differing(reports["old"], reports["new"]) if args.old else []
    med = {name: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t))
           for name, t in times.items() if t}
    wall, cpu = med["new"]
    print(f"new (current tree): median {wall:.1f} s wall, {cpu:.1f} s CPU, {args.jobs} jobs; "
          f"target {TARGET_S:g} s wall on 2 cores: {'met' if wall <= TARGET_S else 'NOT met'}")
    if args.old:
        old_wall, old_cpu = med["old"]
        print(f"old ({args.old}): median {old_wall:.1f} s wall, {old_cpu:.1f} s CPU")
        print(f"ratio new / old: wall {wall / old_wall:.2f}, CPU {cpu / old_cpu:.2f}")
        print(f"claims whose reports differ apart from seconds: {len(changed)}"
              + (f" ({', '.join(changed)})" if changed else ""))
    return int(wall > TARGET_S)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
