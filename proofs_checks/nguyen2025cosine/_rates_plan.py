"""The check-plan scaffolding of the rates claims (:mod:`.rates`): the thresholds and groups
their readings share, the convergence rule's share, the conjunction of readings, the comparison
left undecided before any estimate, and a slope fit as an estimate and as evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from moetheory import Reading, Verdict
from moetheory.stats import MeanEstimate, stable

__all__: list[str] = []

#: A slope above this is not told apart from a non-polynomial rate over the designs' ranges of
#: n (n = 50..10^4 for the dense gate, 100..10^4 for the variants).
SLOW_THRESHOLD = -0.18

#: A slope difference smaller than this is not "faster".
MARGIN = 0.05

#: Convergence rule, fixed before any result: a rates reading is decided only if in every
#: (router, k, n) cell it rests on at least this share of the replicates' winning fits
#: stopped by the LM rule (design.lm_tol) rather than at the iteration cap; otherwise it is
#: inconclusive, since its slope may describe the optimiser rather than the estimator.
MIN_CONVERGED = 0.9

#: Parameter groups of the seeds' rate statements and the loss column measuring each.
GROUPS: dict[str, str] = {
    "beta0 (masses)": "mass_l1",
    "beta1 (router, identifiable part)": "beta1_l1",
    "eta (expert parameters)": "expert_l1",
    "experts h(., eta) as functions": "expert_sup",
}


def _all_of(verdicts: list[Verdict]) -> Verdict:
    """A conjunction: supported only if every part is, unsupported if one part is."""
    if Verdict.UNSUPPORTED in verdicts:
        return Verdict.UNSUPPORTED
    if all(v is Verdict.SUPPORTED for v in verdicts):
        return Verdict.SUPPORTED
    return Verdict.INCONCLUSIVE


def _all_reading(name: str, text: str, readings: list[Reading]) -> Reading:
    """The reading ``name`` (``text``) that holds when all of ``readings`` do
    (:func:`_all_of`), summarised by their verdicts."""
    return Reading(name, text, _all_of([r.verdict for r in readings]),
                   "; ".join(f"{r.name}: {r.verdict.value}" for r in readings))


def _rate_pair_reading(name: str, text: str, readings: list[Reading]) -> Reading:
    """The reading ``name`` (``text``) on the rates (2.1) and (2.2) of 000 L73-L81 together:
    the conjunction of the first two of ``readings``."""
    return Reading(name, text, _all_of([readings[0].verdict, readings[1].verdict]),
                   f"(2.1) {readings[0].verdict.value}; (2.2) {readings[1].verdict.value}")


def _readings_text(readings: list[Reading]) -> str:
    """``readings`` in a summary: each one's name, verdict and summary."""
    return "; ".join(f"{r.name} {r.verdict.value} ({r.summary})" for r in readings)


@dataclass(frozen=True)
class _Undecided:
    """A comparison the convergence rule leaves undecided before any estimate (a cell of its
    fit has fewer than :data:`MIN_CONVERGED` of its fits converged, so its slope is not
    estimated): verdict ``inconclusive``; not recorded for calibration, as it decides
    nothing."""

    label: str
    rule: str
    reference: float
    tolerance: float
    verdict: Verdict = Verdict.INCONCLUSIVE

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "rule": self.rule, "estimate": None, "ci": None,
                "reference": stable(self.reference), "tolerance": stable(self.tolerance),
                "verdict": self.verdict.value,
                "reason": f"not estimated: a cell has fewer than {MIN_CONVERGED:.0%} of its "
                          "fits converged"}


def _slope_estimate(fit: dict, n: int) -> MeanEstimate:
    return MeanEstimate(fit["slope"], fit["ci"][0], fit["ci"][1], n, fit["level"],
                        "percentile-bootstrap")


def _public(fit: dict) -> dict:
    """A fit as evidence: slope and interval through :func:`stable` (the fits are
    bit-identical on every SIMD/BLAS path; the losses after them may differ in the last bit)."""
    out = {k: v for k, v in fit.items() if k not in ("boot", "boot_low", "boot_high")}
    if fit["slope"] is not None:  # else both are None: not estimated
        out["slope"] = stable(fit["slope"])
        out["ci"] = [stable(v) for v in fit["ci"]]
    return out


def _converged_share(rows: list[dict[str, Any]]) -> float:
    """The share of ``rows`` (fits) stopped by the LM rule (``converged``)."""
    return float(np.mean([bool(r.get("converged", False)) for r in rows]))


def _convergence_cells(records: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """How every fitted ``(expert, router, k, n)`` cell's winning fits ended, in the order
    fitted: ``fits``, ``converged`` (stopped by the rule), ``capped`` (at the iteration caps:
    not converged), ``on_face`` (converged on a face of the parameter space, any group),
    ``faces`` (winning fits on a face, per group: ``beta0``, ``router``, ``eta``),
    ``nonsmooth_stops`` (stopped by the rule's nonsmooth form,
    :func:`moetheory.estimation._lm.qn_iterate`), ``iterations`` (median and largest),
    ``converged_share``."""
    out: list[dict[str, Any]] = []
    for expert, recs in records.items():
        cells: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
        for r in recs:
            cells.setdefault((r["router"], r["k"], r["n"]), []).append(r)
        for (router, k, n), rows in cells.items():
            conv = [bool(r.get("converged", False)) for r in rows]
            faces = [r.get("at_bound", "") for r in rows]
            groups = {g: sum(g in f.split("+") for f in faces) for g in ("beta0", "router", "eta")}
            its = sorted(int(r.get("lm_iterations", 0)) for r in rows)
            out.append({
                "expert": expert, "router": router, "k": int(k), "n": int(n), "fits": len(rows),
                "converged": sum(conv), "capped": len(rows) - sum(conv),
                "on_face": sum(bool(f) for f, c in zip(faces, conv, strict=True) if c),
                "faces": groups,
                "nonsmooth_stops": sum(bool(r.get("hull_stop", False)) for r in rows),
                "iterations": {"median": its[len(its) // 2], "max": its[-1]},
                "converged_share": round(sum(conv) / len(rows), 4),
            })
    return out


def _convergence_note(cells: list[dict[str, Any]]) -> str:
    """A summary's account of the fits: how many converged (and the worst cell's share), and
    how many converged on a face of the parameter space."""
    fits = sum(c["fits"] for c in cells)
    conv = sum(c["converged"] for c in cells)
    face = sum(c["on_face"] for c in cells)
    worst = min(cells, key=lambda c: c["converged_share"])
    return (f"winning fits converged: {conv} of {fits} (worst cell {worst['router']} "
            f"k={worst['k']} n={worst['n']}"
            + (f", {worst['expert']} experts" if len({c['expert'] for c in cells}) > 1 else "")
            + f": {worst['converged_share']:.0%}), {face} of them on a face of the parameter "
            "space")


def _convergence_text(cells: list[dict[str, Any]]) -> str:
    """The per-cell convergence of :func:`_convergence_cells` as a Markdown table."""
    rows = "\n".join(
        f"| {c['expert']} | {c['router']} | {c['k']} | {c['n']} | {c['fits']} | "
        f"{c['converged']} | {c['capped']} | {c['on_face']} | "
        f"{c['faces']['beta0']}, {c['faces']['router']}, {c['faces']['eta']} | "
        f"{c.get('nonsmooth_stops', 0)} | "
        f"{c['iterations']['median']}, {c['iterations']['max']} |"
        for c in cells)
    return ("| experts | router | k | n | winning fits | converged | at the cap | converged "
            "on a face | on a face of beta0, router, eta | stopped by the nonsmooth form | "
            "iterations (median, max) |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|\n" + rows)


def _slope_text(fit: dict) -> str:
    """An estimated slope and its interval, as the readings' summaries give them."""
    return f"slope {stable(fit['slope'])}, CI [{stable(fit['ci'][0])}, {stable(fit['ci'][1])}]"


def _slope_difference(fa: dict, fb: dict, alpha: float, replicates: int) -> MeanEstimate:
    """``slope(b) - slope(a)`` with the percentile interval of the bootstrap differences (a
    fit with capped fits counted as unknown gives the resamples of both ends of its
    interval, ``boot_low`` and ``boot_high``: the difference's lower end takes b's low and
    a's high resamples, its upper end the other way round)."""
    lo = float(np.quantile(fb.get("boot_low", fb["boot"]) - fa.get("boot_high", fa["boot"]),
                           alpha / 2))
    hi = float(np.quantile(fb.get("boot_high", fb["boot"]) - fa.get("boot_low", fa["boot"]),
                           1 - alpha / 2))
    return MeanEstimate(fb["slope"] - fa["slope"], lo, hi, replicates, 1 - alpha,
                        "percentile-bootstrap")


def _fit_row(name: str, fit: dict) -> str:
    """The first cells of a fit's row in a derivation's table: the statistic ``name``, the
    sizes fitted, the median loss and the share of converged fits per n."""
    return (f"| {name} | {', '.join(str(int(n)) for n in fit['n'])} | "
            f"{', '.join('—' if m is None else f'{m:.3g}' for m in fit['medians'])} | "
            f"{', '.join(f'{v:.0%}' for v in fit['converged_share'])} |")


def _slope_cells(fit: dict) -> str:
    """The slope and CI cells of an estimated fit's row in a derivation's table."""
    return f"{stable(fit['slope'])} | [{stable(fit['ci'][0])}, {stable(fit['ci'][1])}]"
