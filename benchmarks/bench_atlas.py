"""Benchmark of the interaction atlas (issue 12, item 9).

Targets: each cell <= 10 s CPU on one core; the whole atlas <= 5 min wall on 2 cores.

Usage::

    python benchmarks/bench_atlas.py                 # per-cell CPU seconds, then 2-process wall
    python benchmarks/bench_atlas.py --write docs/atlas.md   # also (re)write the docs page

CPU seconds (``time.process_time``) are reported per cell, so the per-cell figure does not
depend on how busy the machine is; the whole-atlas figure is wall-clock time with two worker
processes.
"""

from __future__ import annotations

import argparse
import json
import pickle
import time

from moetheory.atlas import ATLAS_EXPERTS, ATLAS_ROUTERS, build_atlas, render_atlas

CELL_BUDGET_S = 10.0
ATLAS_BUDGET_S = 300.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", help="write the rendered page to this path")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", help="write per-cell timings as JSON to this path")
    parser.add_argument("--pickle", help="also keep the computed cells (re-render later)")
    args = parser.parse_args()
    start = time.perf_counter()
    cells = build_atlas(ATLAS_ROUTERS, ATLAS_EXPERTS, processes=args.processes)
    wall = time.perf_counter() - start
    rows = sorted(((c.seconds, c.router, c.expert) for c in cells), reverse=True)
    print(f"{'router':12s} {'expert':18s} {'cpu s':>7s}")
    for sec, r, e in rows:
        flag = "  OVER" if sec > CELL_BUDGET_S else ""
        print(f"{r:12s} {e:18s} {sec:7.2f}{flag}")
    over = [r for r in rows if r[0] > CELL_BUDGET_S]
    print(f"cells: {len(cells)}, max cpu {rows[0][0]:.2f} s, over {CELL_BUDGET_S:g} s: "
          f"{len(over)}; whole atlas: {wall:.1f} s wall with {args.processes} processes "
          f"(budget {ATLAS_BUDGET_S:g} s)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"wall_s": wall, "processes": args.processes,
                       "cells": [{"router": r, "expert": e, "cpu_s": s} for s, r, e in rows]},
                      fh, indent=1)
    if args.pickle:
        with open(args.pickle, "wb") as fh:
            pickle.dump(cells, fh)
    if args.write:
        with open(args.write, "w", encoding="utf-8") as fh:
            fh.write(render_atlas(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
