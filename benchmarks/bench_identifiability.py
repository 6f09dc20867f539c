"""Time the identifiability claims, decisions and the interaction atlas (issue 12, item 9).

Three tables:

1. CPU seconds per claim of ``pcr.ident.*`` and ``pcr.identifiable.*`` (quick profile) for the
   current tree and, with ``--old REV``, for the tree of git revision ``REV`` (extracted with
   ``git archive`` into a temporary directory and run in a child process), side by side with
   the ratio new / old. Budget: the sum over these claims at most 35 s CPU.
2. With ``--families``: the time of every (family, reading) decision against the 10 s target.
3. With ``--atlas``: CPU seconds of every atlas cell (target <= 10 s each on one core) and the
   wall-clock time of the whole atlas with ``--processes`` workers (target <= 5 min on 2
   cores). ``--write docs/atlas.md`` also regenerates the docs page from the same cells;
   ``--json PATH`` keeps the per-cell timings.

CPU seconds (``time.process_time``) do not depend on how busy the machine is; the whole-atlas
figure is wall-clock time.

Run: ``python benchmarks/bench_identifiability.py [--old 4395cfc] [--families]
[--atlas [--processes 2] [--write docs/atlas.md] [--json t.json]]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

BUDGET_CPU_SECONDS = 35.0
TARGET_SECONDS = 10.0
CELL_BUDGET_S = 10.0
ATLAS_BUDGET_S = 300.0
PATTERNS = ("pcr.ident.", "pcr.identifiable.")

_TIMER = r"""
import json, sys, time
from moetheory import CheckContext
from moetheory.engine.registry import load_checks, registered
load_checks()
out = {}
for c in registered():
    if not c.id.startswith(tuple(sys.argv[1:])):
        continue
    t = time.process_time()
    c.check(CheckContext(c.id, seed=0))
    out[c.id] = time.process_time() - t
print(json.dumps(out))
"""


def claim_times(root: Path | None) -> dict[str, float]:
    """CPU seconds per claim, in a fresh child process (``root``: tree to import from)."""
    env = None
    if root is not None:
        import os

        env = {**os.environ, "PYTHONPATH": str(root)}
    res = subprocess.run([sys.executable, "-c", _TIMER, *PATTERNS], capture_output=True,
                         text=True, check=True, env=env, cwd=root or Path.cwd())
    return json.loads(res.stdout.strip().splitlines()[-1])


def extract(rev: str, into: Path) -> Path:
    """The tree of git revision ``rev`` extracted into ``into``."""
    data = subprocess.run(["git", "archive", rev], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def families() -> int:
    """Print one line per (family, reading); return 1 if any exceeds the target."""
    from moetheory.symbolic.experts import EXPERTS, get_expert
    from moetheory.symbolic.identifiability import READINGS, decide

    worst = 0.0
    print(f"{'family':24s} {'reading':18s} {'n':>3s} {'seconds':>8s} {'/target':>8s}  verdict")
    for name in [n for n in EXPERTS if n != "poly-expert"]:
        for reading in READINGS:
            start = time.perf_counter()
            d = decide(get_expert(name), reading)
            elapsed = time.perf_counter() - start
            worst = max(worst, elapsed)
            print(f"{name:24s} {reading:18s} {len(d.labels):3d} {elapsed:8.2f} "
                  f"{elapsed / TARGET_SECONDS:8.2f}  {d.verdict.value}", flush=True)
    print(f"worst {worst:.2f} s = {worst / TARGET_SECONDS:.2f} x target ({TARGET_SECONDS} s)")
    return int(worst > TARGET_SECONDS)


def atlas(processes: int, write: str | None = None, json_path: str | None = None) -> int:
    """Time every atlas cell and the whole atlas; return 1 if a budget is exceeded."""
    from moetheory.symbolic.atlas import ATLAS_EXPERTS, ATLAS_ROUTERS, build_atlas, render_atlas

    start = time.perf_counter()
    cells = build_atlas(ATLAS_ROUTERS, ATLAS_EXPERTS, processes=processes)
    wall = time.perf_counter() - start
    rows = sorted(((c.seconds, c.router, c.expert) for c in cells), reverse=True)
    print(f"{'router':12s} {'expert':18s} {'cpu s':>7s}")
    for sec, r, e in rows:
        flag = "  OVER" if sec > CELL_BUDGET_S else ""
        print(f"{r:12s} {e:18s} {sec:7.2f}{flag}")
    over = [r for r in rows if r[0] > CELL_BUDGET_S]
    print(f"cells: {len(cells)}, max cpu {rows[0][0]:.2f} s, over {CELL_BUDGET_S:g} s: "
          f"{len(over)}; whole atlas: {wall:.1f} s wall with {processes} processes "
          f"(budget {ATLAS_BUDGET_S:g} s)")
    if json_path:
        with open(json_path, "w", encoding="utf-8") as fh:
            json.dump({"wall_s": wall, "processes": processes,
                       "cells": [{"router": r, "expert": e, "cpu_s": s} for s, r, e in rows]},
                      fh, indent=1)
    if write:
        with open(write, "w", encoding="utf-8") as fh:
            fh.write(render_atlas(cells))
    return int(bool(over) or wall > ATLAS_BUDGET_S)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="git revision of the old engine to time beside the new one")
    ap.add_argument("--families", action="store_true", help="also time every decision")
    ap.add_argument("--atlas", action="store_true", help="time the interaction atlas")
    ap.add_argument("--claims", action=argparse.BooleanOptionalAction, default=True,
                    help="time the claims (default; --no-claims skips them)")
    ap.add_argument("--processes", type=int, default=2, help="atlas worker processes")
    ap.add_argument("--write", help="with --atlas: write the rendered page to this path")
    ap.add_argument("--json", help="with --atlas: write per-cell timings as JSON here")
    args = ap.parse_args(argv)
    status = 0
    if args.claims:
        status |= claims(args.old)
    if args.families:
        status |= families()
    if args.atlas:
        status |= atlas(args.processes, args.write, args.json)
    return status


def claims(old_rev: str | None) -> int:
    """Print the claim table (old beside new); return 1 if over the CPU budget."""
    new = claim_times(None)
    old: dict[str, float] = {}
    if old_rev:
        with tempfile.TemporaryDirectory() as tmp:
            old = claim_times(extract(old_rev, Path(tmp)))
    print(f"{'claim':36s} {'old CPU s':>10s} {'new CPU s':>10s} {'new/old':>8s}")
    for cid in sorted(set(new) | set(old)):
        o, n = old.get(cid), new.get(cid)
        ratio = f"{n / o:8.2f}" if o and n is not None else f"{'-':>8s}"
        print(f"{cid:36s} {o if o is not None else float('nan'):10.2f} "
              f"{n if n is not None else float('nan'):10.2f} {ratio}")
    total_new, total_old = sum(new.values()), sum(old.values())
    print(f"{'total':36s} {total_old:10.2f} {total_new:10.2f}   budget {BUDGET_CPU_SECONDS} s")
    return int(total_new > BUDGET_CPU_SECONDS)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
