"""Reproduce Figures 2, 4 and 5 of seed 003 (PNG, SVG and CSV), under both readings.

``moetheory reproduce cl-fig2`` and ``moetheory reproduce cl-fig4-5`` call these functions.
Every curve is the mean over replicates with a pointwise 95% Student-t confidence band; the
CSV holds the same numbers. The ``paper`` reading is Definition 1 and the equations as
written, the ``code`` reading the authors' released code (see :mod:`moetheory.continual.config`).
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from scipy import stats as sps

from moetheory.continual.config import READINGS, CLConfig
from moetheory.continual.simulator import CLResult, simulate_many

__all__ = ["band", "reproduce_fig2", "reproduce_fig4_5"]

FIG2_MS = (1, 5, 10, 20)
SIGMA0 = 0.4
FIG45_GAMMAS = (SIGMA0**0.75, SIGMA0, SIGMA0**1.25, SIGMA0**1.5)
GAMMA_NAMES = ("σ0^0.75", "σ0", "σ0^1.25", "σ0^1.5")


def band(curves: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pointwise mean and Student-t confidence band of ``curves`` (R, T).

    Examples
    --------
    >>> m, lo, hi = band(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> m.tolist(), bool((lo < m).all() and (m < hi).all())
    ([2.0, 3.0], True)
    """
    curves = np.atleast_2d(curves)
    R = curves.shape[0]
    mean = curves.mean(axis=0)
    if R < 2:
        return mean, mean.copy(), mean.copy()
    half = sps.t.ppf(0.5 + level / 2, R - 1) * curves.std(axis=0, ddof=1) / np.sqrt(R)
    return mean, mean - half, mean + half


def _sizes(profile: str, replicates: int | None, full_T: int) -> tuple[int, int]:
    if profile not in ("quick", "full"):
        raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")
    if replicates is not None and (not isinstance(replicates, int) or replicates < 1):
        raise ValueError(f"replicates must be an integer >= 1 or None, got {replicates!r}")
    if profile == "full":
        return replicates or 100, full_T
    return replicates or 10, min(full_T, 500)


def _metric(res: CLResult, name: str) -> np.ndarray:
    code = res.config.reading == "code"
    values = (
        (res.forgetting_code if code else res.forgetting)
        if name == "F"
        else (res.generalization_code if code else res.generalization)
    )
    if values is None:
        raise ValueError(f"the run did not record the {name} metric of reading {code=}")
    return values


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, stem: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for p in paths:
        fig.savefig(p, dpi=120, bbox_inches="tight")
    return paths


def reproduce_fig2(
    out_dir: Path, *, seed: int, profile: str, replicates: int | None, progress: bool
) -> list[Path]:
    """Figure 2: forgetting and generalization error against t, M ∈ {1, 5, 10, 20}, with and
    without termination (Appendix A.2 settings), for the paper's and the code's readings.

    Full profile: T = 2000 and 100 replicates (paper settings); quick: T = 500, 10 replicates.
    Writes ``cl_fig2_<reading>.png/.svg`` and ``cl_fig2.csv``.
    """
    R, T = _sizes(profile, replicates, 2000)
    plt = _plt()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    rows: list[tuple[object, ...]] = []
    for reading in READINGS:
        base = CLConfig(reading=reading, T=T)
        keys = [(M, term) for M in FIG2_MS for term in (True, False) if M > 1 or term]
        runs = dict(zip(keys, simulate_many(
            [base.replace(M=M, terminate=term) for M, term in keys], R, seed, progress=progress,
        ), strict=True))
        fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
        t = np.arange(1, T + 1)
        for col, term in enumerate((True, False)):
            for row, name in enumerate(("F", "G")):
                ax = axes[row, col]
                for M in FIG2_MS:
                    res = runs[(M, True if M == 1 else term)]
                    mean, lo, hi = band(_metric(res, name))
                    label = "single expert" if M == 1 else f"M = {M}"
                    ax.plot(t, mean, lw=1, label=label)
                    ax.fill_between(t, lo, hi, alpha=0.25)
                    if row == 0:
                        g_mean, g_lo, g_hi = band(_metric(res, "G"))
                        rows.extend(
                            (reading, M, term, i + 1, mean[i], lo[i], hi[i],
                             g_mean[i], g_lo[i], g_hi[i])
                            for i in range(T)
                        )
                what = "forgetting $F_t$" if name == "F" else "generalization error $G_t$"
                ax.set_title(f"{what}, {'with' if term else 'without'} termination")
                ax.set_xlabel("round t")
                ax.legend(fontsize=8)
        fig.suptitle(
            f"Figure 2, reading '{reading}' ({R} replicates, 95% bands, seed {seed})", y=1.02
        )
        written += _save(fig, out_dir / f"cl_fig2_{reading}")
        plt.close(fig)
    csv_path = out_dir / "cl_fig2.csv"
    with csv_path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["reading", "M", "terminate", "t", "F_mean", "F_low", "F_high",
                    "G_mean", "G_low", "G_high"])
        w.writerows(rows)
    return [*written, csv_path]


def _fig45_base(reading: str, N: int, T: int) -> CLConfig:
    lam = SIGMA0**1.25
    if reading == "paper":
        return CLConfig(reading="paper", N=N, K=3, M=5, lam=lam, T=T)
    return CLConfig(reading="code", N=N, K=3, M=5, lam=lam, T=T, s=8, signal_norm=5.0,
                    column_norm=0.01, cluster_spread=SIGMA0 / 100)


def reproduce_fig4_5(
    out_dir: Path, *, seed: int, profile: str, replicates: int | None, progress: bool
) -> list[Path]:
    """Figures 4 and 5 (Appendix A.4): routing records of one run for each threshold Γ
    (N = 6, K = 3, M = 5, λ = σ0^1.25) and mean forgetting / generalization error against t
    for each Γ (N = 30), for the paper's and the code's readings.

    Full profile: T = 500 (the code's; the paper gives none), 100 replicates; quick: 10.
    Writes ``cl_fig4_<reading>``, ``cl_fig5_<reading>`` (PNG, SVG) and two CSV files.
    """
    R, T = _sizes(profile, replicates, 500)
    plt = _plt()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    records: list[tuple[object, ...]] = []
    curves: list[tuple[object, ...]] = []
    for reading in READINGS:
        base4 = _fig45_base(reading, 6, T)
        runs4 = simulate_many([base4.replace(gamma=g) for g in FIG45_GAMMAS], 1, seed)
        fig, axes = plt.subplots(1, 4, figsize=(16, 3.5), sharey=True)
        t = np.arange(1, T + 1)
        for ax, res, name in zip(axes, runs4, GAMMA_NAMES, strict=True):
            cluster = res.task[0] % 3
            ax.scatter(t, res.expert[0] + 1, c=cluster, s=4, cmap="viridis")
            tr = int(res.termination_round[0])
            if tr > 0:
                ax.axvline(tr, color="grey", ls="--", lw=0.8)
            above = res.config.resolved_gamma > res.config.lam
            ax.set_title(f"Γ = {name} {'>' if above else '≤'} λ")
            ax.set_xlabel("round t")
            records.extend(
                (reading, name, i + 1, int(res.task[0, i]) + 1, int(res.expert[0, i]) + 1)
                for i in range(T)
            )
        axes[0].set_ylabel("routed expert (colour: task cluster)")
        fig.suptitle(f"Figure 4, reading '{reading}' (N = 6, M = 5, seed {seed})", y=1.02)
        written += _save(fig, out_dir / f"cl_fig4_{reading}")
        plt.close(fig)

        base5 = _fig45_base(reading, 30, T)
        runs5 = simulate_many([base5.replace(gamma=g) for g in FIG45_GAMMAS], R, seed,
                              progress=progress)
        fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
        for res, name in zip(runs5, GAMMA_NAMES, strict=True):
            fm, flo, fhi = band(_metric(res, "F"))
            gm, glo, ghi = band(_metric(res, "G"))
            for ax, (m, lo, hi) in zip(axes, ((fm, flo, fhi), (gm, glo, ghi)), strict=True):
                ax.plot(t, m, lw=1, label=f"Γ = {name}")
                ax.fill_between(t, lo, hi, alpha=0.25)
            curves.extend((reading, name, i + 1, fm[i], flo[i], fhi[i], gm[i], glo[i], ghi[i])
                          for i in range(T))
        axes[0].set_title("forgetting $F_t$")
        axes[1].set_title("generalization error $G_t$")
        for ax in axes:
            ax.set_xlabel("round t")
            ax.legend(fontsize=8)
        fig.suptitle(f"Figure 5, reading '{reading}' (N = 30, {R} replicates, 95% bands)", y=1.02)
        written += _save(fig, out_dir / f"cl_fig5_{reading}")
        plt.close(fig)
    rec_path = out_dir / "cl_fig4_routing.csv"
    with rec_path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["reading", "gamma", "t", "task", "expert"])
        w.writerows(records)
    curve_path = out_dir / "cl_fig5.csv"
    with curve_path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["reading", "gamma", "t", "F_mean", "F_low", "F_high",
                    "G_mean", "G_low", "G_high"])
        w.writerows(curves)
    return [*written, rec_path, curve_path]
