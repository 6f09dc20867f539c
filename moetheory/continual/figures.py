"""Reproduce Figures 2, 4 and 5 of seed 003 (PNG, SVG and CSV), under both readings.

``moetheory reproduce cl-fig2`` and ``moetheory reproduce cl-fig4-5`` call these functions.
Every curve is the mean over replicates with a pointwise 95% Student-t confidence band; the
CSV holds the same numbers. The ``paper`` reading is Definition 1 and the equations as
written, the ``code`` reading the authors' released code (see :mod:`moetheory.continual.config`).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats as sps

from moetheory._doccer import fill_doc
from moetheory.continual._docs import REFERENCES
from moetheory.continual.config import READINGS, CLConfig
from moetheory.continual.simulator import CLResult, simulate_many

__all__ = ["band", "reproduce_fig2", "reproduce_fig4_5"]

FIG2_MS = (1, 5, 10, 20)
SIGMA0 = 0.4
FIG45_GAMMAS = (SIGMA0**0.75, SIGMA0, SIGMA0**1.25, SIGMA0**1.5)
GAMMA_NAMES = ("σ0^0.75", "σ0", "σ0^1.25", "σ0^1.5")


def band(curves: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Pointwise mean of ``curves`` with a Student-t confidence band.

    Parameters
    ----------
    curves : ndarray, shape (R, T) or (T,)
        One curve per replicate (a 1-D array is one replicate).
    level : float, optional
        Confidence level of the band, in (0, 1); default 0.95.

    Returns
    -------
    mean, low, high : ndarray, shape (T,)
        The mean over replicates and the ends of the band at every round. With a single
        replicate the band collapses to the mean (``low`` and ``high`` are copies of it).

    Raises
    ------
    TypeError
        If ``curves`` is not numeric (from NumPy's reductions). ``band`` makes no checks of
        its own: a ``level`` outside (0, 1) gives a NaN band (``scipy.stats.t.ppf``).

    See Also
    --------
    moetheory.continual.analysis.paired_ci : interval of a mean paired difference.
    moetheory.stats.mean_ci : interval of one mean, as used by the checks.

    Notes
    -----
    With :math:`\bar c_t` and :math:`s_t` the mean and the sample standard deviation
    (``ddof=1``) of the :math:`R` replicates at round :math:`t`,

    .. math:: \bar c_t \pm t_{R-1,\,(1+\ell)/2}\, s_t / \sqrt{R},

    :math:`\ell` the level. The band is pointwise: it covers each round's mean with
    probability about :math:`\ell`, not the whole curve at once.

    Examples
    --------
    >>> m, lo, hi = band(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> m.tolist(), bool((lo < m).all() and (m < hi).all())
    ([2.0, 3.0], True)
    >>> [a.tolist() for a in band(np.array([5.0, 6.0]))]
    [[5.0, 6.0], [5.0, 6.0], [5.0, 6.0]]
    """
    curves = np.atleast_2d(curves)
    R = curves.shape[0]
    mean = curves.mean(axis=0)
    if R < 2:
        return mean, mean.copy(), mean.copy()
    half = sps.t.ppf(0.5 + level / 2, R - 1) * curves.std(axis=0, ddof=1) / np.sqrt(R)
    return mean, mean - half, mean + half


def _setup(
    profile: str, replicates: int | None, full_T: int, out_dir: Path
) -> tuple[int, int, Any, Path]:
    """A figure's replicates ``R`` and rounds ``T`` for the profile (``full_T`` in the full
    one, at most 500 in the quick one), pyplot, and the output directory, created."""
    if profile not in ("quick", "full"):
        raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")
    if replicates is not None and (not isinstance(replicates, int) or replicates < 1):
        raise ValueError(f"replicates must be an integer >= 1 or None, got {replicates!r}")
    if profile == "full":
        R, T = replicates or 100, full_T
    else:
        R, T = replicates or 10, min(full_T, 500)
    plt = _plt()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    return R, T, plt, out_dir


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


def _write_csv(path: Path, header: list[str], rows: list[tuple[object, ...]]) -> Path:
    """Write ``header`` and ``rows`` to the CSV file ``path``; returns ``path``."""
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


def _save(fig, stem: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for p in paths:
        fig.savefig(p, dpi=120, bbox_inches="tight")
    return paths


#: The ``out_dir`` and ``seed`` parameters of the two figure reproductions.
_OUTPUT = """out_dir : pathlib.Path
    Output directory, created if missing.
seed : int
    Seed of the simulations; the same seed gives the same files."""
#: Their Raises section.
_RAISES = """Raises
------
ValueError
    If ``profile`` is not ``"quick"`` or ``"full"``, or ``replicates`` is neither ``None``
    nor a positive integer (checked before any simulation); a configuration error of
    :class:`~moetheory.continual.config.CLConfig` would propagate."""
#: The parts that the docstrings of the two figure reproductions name.
_DOC_PARTS: dict[str, str] = {**REFERENCES, "output": _OUTPUT, "raises": _RAISES}


@fill_doc(_DOC_PARTS)
def reproduce_fig2(
    out_dir: Path, *, seed: int, profile: str, replicates: int | None, progress: bool
) -> list[Path]:
    r"""Reproduce Figure 2 of seed 003: forgetting and generalization error against the round.

    Runs Algorithm 1 for :math:`M \in \{1, 5, 10, 20\}` experts, with and without the early
    termination, under the Appendix A.2 settings, for the paper's and the code's readings,
    and writes one figure per reading plus a table.

    Parameters
    ----------
    %(output)s
    profile : {"quick", "full"}
        ``"full"``: :math:`T = 2000` rounds (the paper's, seed 003 L229, L251) and 100
        replicates (ours: the paper states no repetition count for Figure 2, and the authors'
        script runs once; 100 repetitions belong to Figure 5, L264); ``"quick"``:
        :math:`T = 500` rounds and 10 replicates.
    replicates : int or None
        Number of replicates, overriding the profile's; ``None`` keeps the profile's.
    progress : bool
        Whether to show a progress bar.

    Returns
    -------
    list of pathlib.Path
        ``cl_fig2_paper.png``, ``cl_fig2_paper.svg``, ``cl_fig2_code.png``,
        ``cl_fig2_code.svg`` and ``cl_fig2.csv`` (columns ``reading, M, terminate, t,
        F_mean, F_low, F_high, G_mean, G_low, G_high``).

    %(raises)s

    See Also
    --------
    reproduce_fig4_5 : Figures 4 and 5 (the termination threshold).
    band : the mean and the 95% band of each curve.
    moetheory.engine.reproduce.reproduce : the ``moetheory reproduce cl-fig2`` entry point.

    Notes
    -----
    The curves are the forgetting :math:`F_t` (eq. (15)) and the generalization error
    :math:`G_t` (eq. (16)),

    .. math::

        F_t = \frac{1}{t-1}\sum_{\tau=1}^{t-1} \big(\|w_t^{(m_\tau)} - w_{n_\tau}\|^2
        - \|w_\tau^{(m_\tau)} - w_{n_\tau}\|^2\big), \qquad
        G_t = \frac{1}{t}\sum_{\tau=1}^{t} \|w_t^{(m_\tau)} - w_{n_\tau}\|^2,

    each the mean over replicates with a pointwise 95% Student-t band. Under the ``code``
    reading the released code's metrics (unsquared norms) are plotted instead. The single
    expert (:math:`M = 1`) has no gate and so no termination; it appears in both panels.

    %(references)s

    Examples
    --------
    >>> from pathlib import Path
    >>> reproduce_fig2(Path("out"), seed=0, profile="tiny", replicates=None, progress=False)
    Traceback (most recent call last):
    ...
    ValueError: profile must be 'quick' or 'full', got 'tiny'
    """
    R, T, plt, out_dir = _setup(profile, replicates, 2000, out_dir)
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
    csv_path = _write_csv(out_dir / "cl_fig2.csv", ["reading", "M", "terminate", "t", "F_mean",
                          "F_low", "F_high", "G_mean", "G_low", "G_high"], rows)
    return [*written, csv_path]


def _fig45_base(reading: str, N: int, T: int) -> CLConfig:
    lam = SIGMA0**1.25
    if reading == "paper":
        return CLConfig(reading="paper", N=N, K=3, M=5, lam=lam, T=T)
    return CLConfig(reading="code", N=N, K=3, M=5, lam=lam, T=T, s=8, signal_norm=5.0,
                    column_norm=0.01, cluster_spread=SIGMA0 / 100)


def _plot_fig4(
    out_dir: Path, reading: str, seed: int, T: int, records: list[tuple[object, ...]]
) -> list[Path]:
    """Figure 4 under ``reading``: the expert each task is routed to, one run per Γ.

    Appends one ``(reading, gamma, t, task, expert)`` row per round to ``records`` and
    returns the PNG and SVG paths. One run per threshold in every profile, so the figure
    is the same whatever the profile.
    """
    from matplotlib.lines import Line2D

    plt = _plt()
    base4 = _fig45_base(reading, 6, T)
    runs4 = simulate_many([base4.replace(gamma=g) for g in FIG45_GAMMAS], 1, seed)
    fig, axes = plt.subplots(1, 4, figsize=(16, 3.8), sharey=True)
    t = np.arange(1, T + 1)
    K = base4.K
    colours = [f"C{k}" for k in range(K)]
    for ax, res, name in zip(axes, runs4, GAMMA_NAMES, strict=True):
        cluster = res.task[0] % K
        ax.scatter(t, res.expert[0] + 1, c=[colours[int(c)] for c in cluster], s=4)
        tr = int(res.termination_round[0])
        if tr > 0:
            ax.axvline(tr, color="grey", ls="--", lw=0.8)
        above = res.config.resolved_gamma > res.config.lam
        ax.set_title(f"Γ = {name} {'>' if above else '≤'} λ")
        ax.set_xlabel("round t (one task per round)")
        ax.set_yticks(range(1, base4.M + 1))
        records.extend(
            (reading, name, i + 1, int(res.task[0, i]) + 1, int(res.expert[0, i]) + 1)
            for i in range(T)
        )
    axes[0].set_ylabel("expert the task is routed to")
    handles = [
        Line2D([], [], ls="", marker="o", color=colours[k], label=f"task cluster {k + 1}")
        for k in range(K)
    ]
    handles.append(Line2D([], [], color="grey", ls="--", lw=0.8, label="gate terminated"))
    fig.legend(handles=handles, loc="lower center", ncol=K + 1, frameon=False,
               bbox_to_anchor=(0.5, -0.1))
    fig.suptitle(
        f"Figure 4, reading '{reading}': one run per threshold Γ "
        f"(N = 6 task types, K = {K} clusters, M = {base4.M} experts, seed {seed})",
        y=1.02,
    )
    paths = _save(fig, out_dir / f"cl_fig4_{reading}")
    plt.close(fig)
    return paths


@fill_doc(_DOC_PARTS)
def reproduce_fig4_5(
    out_dir: Path, *, seed: int, profile: str, replicates: int | None, progress: bool
) -> list[Path]:
    r"""Reproduce Figures 4-5 of seed 003 (Appendix A.4): routing and errors against :math:`\Gamma`.

    For each termination threshold :math:`\Gamma \in \{\sigma_0^{0.75}, \sigma_0,
    \sigma_0^{1.25}, \sigma_0^{1.5}\}` (:math:`\sigma_0 = 0.4`, :math:`\lambda =
    \sigma_0^{1.25}`, :math:`M = 5`, :math:`K = 3` clusters): Figure 4 plots the routed expert
    of every round of one run with :math:`N = 6` tasks, coloured by the task's cluster, with
    the termination round marked; Figure 5 plots the mean forgetting and generalization error
    against the round with :math:`N = 30` tasks. Both for the paper's and the code's
    readings.

    Parameters
    ----------
    %(output)s
    profile : {"quick", "full"}
        Both use :math:`T = 500` rounds (the released code's; the paper states none);
        ``"full"``: 100 replicates for Figure 5, ``"quick"``: 10. Figure 4 is one run.
    replicates : int or None
        Number of Figure 5 replicates, overriding the profile's; ``None`` keeps it.
    progress : bool
        Whether to show a progress bar.

    Returns
    -------
    list of pathlib.Path
        ``cl_fig4_<reading>`` and ``cl_fig5_<reading>`` as PNG and SVG for both readings, then
        ``cl_fig4_routing.csv`` (``reading, gamma, t, task, expert``, 1-based task and expert)
        and ``cl_fig5.csv`` (``reading, gamma, t, F_mean, F_low, F_high, G_mean, G_low,
        G_high``).

    %(raises)s

    See Also
    --------
    reproduce_fig2 : Figure 2 (the number of experts).
    band : the mean and the 95% band of each curve.
    moetheory.engine.reproduce.reproduce : the ``moetheory reproduce cl-fig4-5`` entry point.

    Notes
    -----
    Algorithm 1 stops updating the gate once every expert :math:`m` has been flagged, i.e.
    seen :math:`|h_m - h_{m_t}| < \Gamma` after the exploration phase
    :math:`t > T_1 = \lceil M/\eta \rceil`. The paper's point (Appendix A.4) is that a
    threshold :math:`\Gamma` above the noise range :math:`\lambda` ends the exploration too
    early; each Figure 4 panel title states whether :math:`\Gamma > \lambda`. The code
    reading uses the released code's data scales (``s = 8``, ``signal_norm = 5``,
    ``column_norm = 0.01``, spread :math:`\sigma_0/100`).

    %(references)s

    Examples
    --------
    >>> from pathlib import Path
    >>> reproduce_fig4_5(Path("out"), seed=0, profile="quick", replicates=0, progress=False)
    Traceback (most recent call last):
    ...
    ValueError: replicates must be an integer >= 1 or None, got 0
    """
    R, T, plt, out_dir = _setup(profile, replicates, 500, out_dir)
    written: list[Path] = []
    records: list[tuple[object, ...]] = []
    curves: list[tuple[object, ...]] = []
    t = np.arange(1, T + 1)
    for reading in READINGS:
        written += _plot_fig4(out_dir, reading, seed, T, records)

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
    rec_path = _write_csv(out_dir / "cl_fig4_routing.csv",
                          ["reading", "gamma", "t", "task", "expert"], records)
    curve_path = _write_csv(out_dir / "cl_fig5.csv", ["reading", "gamma", "t", "F_mean", "F_low",
                            "F_high", "G_mean", "G_low", "G_high"], curves)
    return [*written, rec_path, curve_path]
