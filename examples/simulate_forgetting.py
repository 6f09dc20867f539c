"""Simulate Algorithm 1 with your own parameters and plot the forgetting F_t.

Compares a single expert (M = 1) with MoE models of M = 5 experts, with and without the
early termination of the gating-network updates, averaged over replicates (seed 003,
eq. (15), Figure 2).

Usage: ``python examples/simulate_forgetting.py [OUTPUT.png]`` (default ``forgetting.png``).
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from moetheory.continual import CLConfig, simulate

ROUNDS = 600
REPLICATES = 8

SETTINGS = {
    "single expert (M = 1)": CLConfig(M=1, N=6, K=3, T=ROUNDS),
    "MoE, M = 5, with termination": CLConfig(M=5, N=6, K=3, T=ROUNDS, terminate=True),
    "MoE, M = 5, no termination": CLConfig(M=5, N=6, K=3, T=ROUNDS, terminate=False),
}


def main(out: str = "forgetting.png") -> int:
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, cfg in SETTINGS.items():
        res = simulate(cfg, replicates=REPLICATES, seed=0)
        curve = res.forgetting.mean(axis=0)  # (R, T) -> mean over replicates
        ax.plot(range(2, cfg.T + 1), curve[1:], label=label)  # F_1 = 0 by definition
        print(f"{label}: mean forgetting over the last 50 rounds {curve[-50:].mean():.4g}")
    ax.set_xlabel("round t")
    ax.set_ylabel("forgetting $F_t$")
    ax.set_yscale("log")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"wrote {Path(out).resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
