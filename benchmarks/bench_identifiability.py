"""Time the strong-identifiability decision per expert family and reading.

Target (issue 3): every family under every reading decided in under 10 s on the 2-core
machine. Prints the time, the ratio time / target side by side, and the verdict.

Run: ``python benchmarks/bench_identifiability.py [family ...]``.
"""

from __future__ import annotations

import sys
import time

from moetheory.experts import EXPERTS, get_expert
from moetheory.identifiability import READINGS, decide

TARGET_SECONDS = 10.0


def main(names: list[str]) -> int:
    """Print one line per (family, reading); return 1 if any exceeds the target."""
    worst = 0.0
    print(f"{'family':24s} {'reading':18s} {'n':>3s} {'seconds':>8s} {'/target':>8s}  verdict")
    for name in names:
        expert = get_expert(name)
        for reading in READINGS:
            start = time.perf_counter()
            d = decide(expert, reading)
            elapsed = time.perf_counter() - start
            worst = max(worst, elapsed)
            print(f"{name:24s} {reading:18s} {len(d.labels):3d} {elapsed:8.2f} "
                  f"{elapsed / TARGET_SECONDS:8.2f}  {d.verdict.value}", flush=True)
    print(f"worst {worst:.2f} s = {worst / TARGET_SECONDS:.2f} x target ({TARGET_SECONDS} s)")
    return int(worst > TARGET_SECONDS)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or [n for n in EXPERTS if n != "poly-expert"]))
