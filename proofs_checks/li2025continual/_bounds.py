"""Theorems 1-2's bounds against the simulator: the runs and the paired one-sided test.

Each bound is evaluated per replicate with the realised routing counts and compared with the
simulated forgetting or generalization error (:func:`_bound`), with a tolerance of the
configuration's ground-truth unit fixed before the replicates are drawn.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from moetheory import CheckContext, Reading
from moetheory.continual import CLConfig, CLResult, ground_truth_unit, simulate
from moetheory.continual import theory as th
from moetheory.continual.simulator import simulate_many
from moetheory.stats import at_most, mean_ci, stable_tree
from proofs_checks.li2025continual._flags import ALTERNATIVE_FLAGS, flag_configs
from proofs_checks.li2025continual._montecarlo import _tol, _verdicts
from proofs_checks.li2025continual._simulation import _seed

__all__ = [
    "_DATA", "_DATA_TEXT", "_THM1_REGIMES", "_THM2", "_bound", "_bound_reading", "_forgetting_ts",
    "_frozen_tol", "_horizons", "_r_value", "_run_text", "_runs", "_simulate", "_simulate_flags",
    "_simulate_paired",
    "_thm1_derivation",
]


def _frozen_tol(cfg: CLConfig, t: int) -> float:
    """Tolerance of the frozen-forgetting identity at round ``t``: :func:`_tol` of the claimed
    decay ``(T1 - 1)/(t - 1)`` times :func:`ground_truth_unit` (fixed before looking)."""
    return _tol((cfg.T1 - 1) / (t - 1) * ground_truth_unit(cfg))


def _bound(label: str, lhs: np.ndarray, rhs: np.ndarray, alpha: float,
           unit: float) -> dict[str, Any]:
    """One-sided check of ``E[lhs] <= E[rhs]`` from paired replicates (:func:`stats.at_most`
    on ``E[lhs - rhs] <= 0``): supported when the confidence interval of the difference lies
    at or below the tolerance, unsupported when it lies above, inconclusive when it straddles
    it. The tolerance :func:`_tol` of ``unit`` (:func:`ground_truth_unit` of the run's
    configuration) is fixed before the replicates are drawn: it never depends on them."""
    tol = _tol(unit)
    comp = at_most(label, mean_ci(lhs - rhs, alpha), 0.0, tol)
    return {**stable_tree({"E_lhs": float(np.mean(lhs)), "E_bound": float(np.mean(rhs)),
                           "difference": comp.estimate.mean}), **comp.to_dict()}


_THM1_REGIMES: dict[str, dict[str, Any]] = {
    "M>N": {"M": 20, "N": 7, "K": 7},
    "M<N": {"M": 5, "N": 7, "K": 3},
}


#: Data readings: Definition 1 (β_t ~ Unif(0, C], C = 1) and Appendix A.2 (β = 1).
_DATA: dict[str, dict[str, Any]] = {
    "definition1": {"beta": "uniform"},
    "A.2": {"beta": "fixed"},
}


_DATA_TEXT = {
    "definition1": "Definition 1 data, β_t ~ Unif(0, 1]",
    "A.2": "Appendix A.2 data, β = 1",
}


def _simulate(ctx: CheckContext, stream: int, T: int | None = None, **kw: Any):  # type: ignore[no-untyped-def]
    T = T or (1000 if ctx.full else 200)
    reps = 500 if ctx.full else 200
    cfg = CLConfig(T=T, **kw)
    return cfg, simulate(cfg, replicates=reps, seed=_seed(ctx, stream))


def _simulate_flags(
    ctx: CheckContext, stream: int, T: int | None = None, **kw: Any
) -> tuple[CLConfig, CLResult, dict[str, CLResult]]:
    """:func:`_simulate`'s run (the same bits) and, stacked on the same data, the runs under
    the other readings of Algorithm 1's flags (:mod:`._flags`), by flag reading."""
    T = T or (1000 if ctx.full else 200)
    reps = 500 if ctx.full else 200
    cfg = CLConfig(T=T, **kw)
    res = simulate_many([cfg, *flag_configs(cfg)], reps, _seed(ctx, stream))
    return cfg, res[0], dict(zip(ALTERNATIVE_FLAGS, res[1:], strict=True))


def _simulate_paired(
    ctx: CheckContext, stream: int, T: int | None = None, **kw: Any
) -> tuple[CLConfig, CLResult, CLResult, dict[str, CLResult]]:
    """:func:`_simulate`'s run (the same bits), the single expert (``M = 1``) and the runs
    under the other readings of Algorithm 1's flags, by flag reading: stacked in one
    simulator call, so all see the same pools, tasks and features."""
    T = T or (1000 if ctx.full else 200)
    reps = 500 if ctx.full else 200
    cfg = CLConfig(T=T, **kw)
    res = simulate_many([cfg, cfg.replace(M=1), *flag_configs(cfg)], reps, _seed(ctx, stream))
    return cfg, res[0], res[1], dict(zip(ALTERNATIVE_FLAGS, res[2:], strict=True))


def _runs(
    ctx: CheckContext, regimes: dict[str, dict[str, Any]], flags: dict[str, CLResult] | None = None
) -> dict[str, Any]:
    """One simulation per (regime, data reading), plus the authors' code reading for M > N.

    With a dict ``flags``, the first run (the primary: first regime, Definition 1 data) is
    stacked with its runs under the other readings of Algorithm 1's flags, which are put in
    ``flags`` by flag reading (:func:`_simulate_flags`; the primary's bits are unchanged)."""
    runs: dict[str, Any] = {}
    stream = 0
    for regime, kw in regimes.items():
        for data, dkw in _DATA.items():
            if stream == 0 and flags is not None:
                cfg, res, alternatives = _simulate_flags(ctx, stream, **kw, **dkw)
                runs[f"{regime}/{data}"] = (cfg, res)
                flags.update(alternatives)
            else:
                runs[f"{regime}/{data}"] = _simulate(ctx, stream, **kw, **dkw)
            stream += 1
    runs["M>N/code"] = _simulate(ctx, stream, reading="code", **_THM1_REGIMES["M>N"])
    return runs


def _run_text(name: str, cfg: CLConfig) -> str:
    data = name.split("/")[1]
    what = _DATA_TEXT.get(data, "the authors' released code (data and updates)")
    return f"{cfg.M} experts, N={cfg.N}, K={cfg.K}; {what}"


def _horizons(cfg: CLConfig) -> list[int]:
    """Horizons T at which a bound 'after round T' is checked (several, up to the run's T)."""
    return sorted({t for t in (cfg.T1, 2 * cfg.T1, cfg.T // 2, cfg.T) if 2 <= t <= cfg.T})


def _r_value(cfg: CLConfig) -> float:
    return th.overparam_ratio(cfg.s, cfg.d)


def _forgetting_ts(cfg: CLConfig) -> list[int]:
    return sorted({t for t in (2, 5, cfg.T1 // 2, cfg.T1) if 2 <= t <= cfg.T1})


def _bound_reading(
    name: str, text: str, rows: list[dict[str, Any]], common: dict[str, Any],
    sides: tuple[str, str] = ("E[lhs]", "bound"),
) -> Reading:
    """A reading from :func:`_bound` rows; ``sides`` names the two sides in its summary."""
    w = max(rows, key=lambda row: row["difference"])  # closest to (or furthest past) the bound
    bad = sum(r["verdict"] == "unsupported" for r in rows)
    open_ = sum(r["verdict"] == "inconclusive" for r in rows)
    # where the verdict rests on the tolerance: a supported point whose interval reaches
    # above 0 (the truth may sit on the band's edge)
    edge = [r["label"] for r in rows if r["verdict"] == "supported" and r["ci"][1] > 0]
    return Reading(
        name, text, _verdicts(rows),
        f"violated at {bad}, undecided at {open_} of {len(rows)} points; worst {w['label']}: "
        f"{sides[0]}={w['E_lhs']:.4g} vs {sides[1]} {w['E_bound']:.4g} (difference "
        f"{w['difference']:+.3g}, interval [{w['ci'][0]:.3g}, {w['ci'][1]:.3g}], tolerance "
        f"{w['tolerance']:.3g})"
        + (f"; supported within the tolerance only at {', '.join(edge)} (the interval reaches "
           "above 0: the verdict rests on the tolerance, the truth near the band's edge)"
           if edge else ""),
        {"comparisons": rows, **common})


def _thm1_derivation() -> str:
    return (
        "Per replicate, with $L(a, b) = L_a^{(m_b)}$ the number of rounds $\\le a$ routed to "
        "the expert of round $b$, the right-hand side of eq. (19) is "
        f"$${sp.latex(th.thm1_forgetting_bound_expr())}$$ where $D$ sums over ordered pairs. "
        "It is evaluated with the realised counts and compared with $F_t$ replicate by "
        "replicate (paired difference, one-sided): supported when the whole confidence "
        "interval of $E[F_t - \\text{bound}]$ lies below the tolerance $0.02\\,\\bar u + 10^{-3}$ "
        "($\\bar u = \\frac1N\\sum_n E\\|w_n\\|^2$, from the configuration), unsupported when it "
        "lies above, inconclusive otherwise. A bound stated for every $t$ must hold at every "
        "round checked. The single-expert case ($L_t = t$) shows why it undershoots: the exact "
        "forgetting has the extra positive term $\\frac{1-r}{t-1}\\sum_i (1 - r^{t-i}) D/N^2$ "
        "(`cl.prop4.forgetting.corrected`)."
    )


_THM2 = {"M": 5, "N": 7, "K": 3}
