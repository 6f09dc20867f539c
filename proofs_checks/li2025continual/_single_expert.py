"""Proposition 4's single expert: exact expectations by enumeration and Monte Carlo runs.

The printed formulas (17)-(18) and the corrected closed forms are compared with the exact
expectation over all task sequences on rational instances (Appendix A.2's ``r = 2/5``) and
with Monte Carlo of eq. (5) (Gaussian and Definition-1 features).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from moetheory import CheckContext, Outcome, Reading, Verdict
from moetheory.continual import theory as th
from moetheory.continual.single_expert import single_expert_run
from moetheory.stats import Budget, Comparison, combine, required_n, run_sequential, stable
from moetheory.stats.expectation import MAX_LOOKS
from moetheory.symbolic.exact import to_exact
from proofs_checks.li2025continual._montecarlo import (
    D_DIM,
    N_TASKS,
    S_SAMPLES,
    SIGMA0,
    TOL_ABS,
    TOL_REL,
    _mc,
    _mc_comparison,
    _tol,
    _verdicts,
    _worst,
)

__all__ = [
    "CORRECTED_READING",
    "PROP4_DRAWS",
    "_R_PAPER",
    "_UNIT_W",
    "_appendix_h_literal_reading",
    "_corrected_outcome",
    "_enumeration_agreement",
    "_exact_reading",
    "_formula_value",
    "_instance_subs",
    "_mc_rows",
    "_printed_definition1_reading",
    "_printed_mc_evidence",
    "_printed_readings",
    "_prop4_budget",
    "_prop4_mc",
    "_sized_budget",
]


def _prop4_budget(ctx: CheckContext) -> Budget:
    return Budget.for_profile(ctx.profile, quick=(10_000, 2), full=(100_000, 3))


_UNIT_W = [[1, 0], [0, 1]]  # counterexample ground truths (padded with zeros to d = 10)
_R_PAPER = Fraction(D_DIM - S_SAMPLES, D_DIM)


def _instance_subs(rows: list[list[int]], r_value: Fraction) -> dict[sp.Symbol, sp.Expr]:
    W = np.array(rows, dtype=float)
    return {
        th.r: sp.Rational(r_value.numerator, r_value.denominator),
        th.N: len(rows),
        th.S: sp.Integer(int(np.sum(W**2))),
        th.D: sp.Integer(int(th.pair_gap_sum(W, "ordered"))),
    }


def _formula_value(kind: str, reading: str, subs: dict, step: int) -> sp.Expr:
    if kind == "G":
        return to_exact(th.prop4_generalization_expr(reading).subs(subs).subs(th.T, step))
    return th.prop4_forgetting_value(reading, subs, step)


def _exact_reading(kind: str, reading: str, horizon: int = 3) -> tuple[Verdict, str, dict]:
    """Compare a printed formula with the exact expectation, obtained by enumerating all task
    sequences in rationals; if no instance differs, try the symbolic identity."""
    F, G = th.single_expert_exact_moments(_UNIT_W, _R_PAPER, horizon)
    subs = _instance_subs(_UNIT_W, _R_PAPER)
    var = "T" if kind == "G" else "t"
    for step in range(1 if kind == "F" else 0, horizon):
        truth = (G if kind == "G" else F)[step]
        value = _formula_value(kind, reading, subs, step + 1)
        exact = sp.Rational(truth.numerator, truth.denominator)
        if value != exact:
            return Verdict.REFUTED, (
                f"N=2, w1=e1, w2=e2, r=2/5, {var}={step + 1}: formula = {value}, exact "
                f"expectation (all 2^{step + 1} task sequences) = {truth}"
            ), {"instance": "N=2, w_1=e_1, w_2=e_2 in R^10, s=6, d=10 (r=2/5)",
                "round": step + 1, "formula_value": value, "exact_by_enumeration": exact}
    if kind == "G":
        exact_g = th.exact_generalization_expr()
        residual = sp.simplify(th.prop4_generalization_expr(reading) - exact_g)
    else:
        residual = sp.simplify(th.prop4_forgetting_expr(reading) - th.exact_forgetting_expr())
    if residual == 0:
        return Verdict.PROVED, "identical to the exact expectation (SymPy)", {"residual": residual}
    return Verdict.INCONCLUSIVE, "agrees on the instance but not symbolically", {
        "residual": residual}


def _appendix_h_literal_reading(kind: str, factor_i: bool = False) -> Reading:
    """Appendix H's expression read literally (exact expectations, before the substitution)."""
    summand = th.appendix_h_literal_summand(kind, factor_i)
    i = sp.Symbol("i", integer=True, positive=True)
    if kind == "G":
        exact = th.expected_error_expr(th.T, i)
    else:
        exact = th.expected_error_expr(th.t, i) - th.expected_error_expr(i, i)
    residual = sp.factor(sp.simplify(summand - exact))
    name = "appendix-H-literal" + ("-factor-i" if factor_i else "")
    what = "E[G_T]" if kind == "G" else "E[F_t]"
    text = (
        f"Appendix H's expression for {what} before its final substitution, each "
        "E||w_{n_l} - w_{n_i}||^2 evaluated exactly (0 for l = i, D/N^2 otherwise)"
        + ("; with the stray factor i before the last sum" if factor_i else "")
        + "; Gaussian X_t"
    )
    ok = residual == 0
    return Reading(
        name, text, Verdict.PROVED if ok else Verdict.REFUTED,
        "term by term identical to the exact expectation (SymPy): the failing step is the "
        "final substitution of D/N^2 for the round l = i" if ok
        else f"the summand over i differs from the exact one by {sp.sstr(residual)}",
        {"literal_summand": summand, "minus_exact_summand": residual})


def _prop4_mc(ctx: CheckContext, model: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, list]:
    reps = 100_000 if ctx.full else 10_000
    ts = [2, 3, 5, 10, 20, 50] if ctx.full else [2, 3, 5, 10, 20]
    rng_w = ctx.rng(0)
    W = rng_w.normal(0.0, SIGMA0, size=(N_TASKS, D_DIM))
    signals = W / SIGMA0 if model == "definition1" else None
    F, G = single_expert_run(ctx.rng(1 if model == "gaussian" else 2), W, S_SAMPLES, max(ts),
                             reps, model, signals)
    return W, F, G, ts


def _mc_rows(label: str, samples: np.ndarray, refs: np.ndarray, ts: list, alpha: float) -> list:
    var = "T" if "G_T" in label else "t"
    return [_mc(f"{label} {var}={t}", samples[:, t - 1], float(ref), alpha)
            for t, ref in zip(ts, refs, strict=True)]


#: Proposition 4's quantities by kind: the printed formula (eq. (18) or (17)), the exact
#: expectation for Gaussian and for Definition-1 features, the quantity's name, the equation.
_PROP4: dict[str, tuple[Any, Any, Any, str, str]] = {
    "G": (th.prop4_generalization, th.exact_generalization,
          th.exact_generalization_definition1, "E[G_T]", "18"),
    "F": (th.prop4_forgetting, th.exact_forgetting, th.exact_forgetting_definition1,
          "E[F_t]", "17"),
}


def _printed_mc_evidence(kind: str, reading: str, W: np.ndarray, samples: np.ndarray,
                         ts: list, alpha: float, seed: int) -> dict[str, Any]:
    """The evidence of the printed formula of ``kind`` ("G" or "F") under ``reading``: the
    Gaussian Monte Carlo ``samples`` against it and against the exact expectation."""
    printed, exact, _, label, _ = _PROP4[kind]
    return {
        "monte_carlo": _mc_rows(label, samples, printed(W, S_SAMPLES, D_DIM, ts, reading), ts,
                                alpha),
        "monte_carlo_exact_formula": _mc_rows(f"exact {label}", samples,
                                              exact(W, S_SAMPLES, D_DIM, ts), ts, alpha),
        "replicates": samples.shape[0], "seed": seed,
    }


def _printed_definition1_reading(kind: str, reading: str, text: str, W1: np.ndarray,
                                 samples1: np.ndarray, ts: list, alpha: float,
                                 seed: int) -> Reading:
    """The reading ``definition1-data`` of the printed formula of ``kind`` under ``reading``:
    the Monte Carlo ``samples1`` of Definition-1 features against it (``text`` describes the
    reading); the exact expectation for that data model goes to the evidence."""
    printed, _, exact1, label, eq = _PROP4[kind]
    rows1 = _mc_rows(f"{label} (Definition 1)", samples1,
                     printed(W1, S_SAMPLES, D_DIM, ts, reading), ts, alpha)
    worst = _worst(rows1)
    return Reading(
        "definition1-data", text, _verdicts(rows1),
        f"Monte Carlo vs eq. ({eq}): worst at {worst['label']} "
        f"({worst['estimate']:.4g} vs {worst['reference']:.4g})",
        {"monte_carlo": rows1, "seed": seed,
         "exact_definition1": [stable(float(x)) for x in exact1(W1, S_SAMPLES, ts)]},
    )


def _printed_readings(ctx: CheckContext, kind: str, readings: Sequence[str],
                      text: Callable[[str], str], appendix: Callable[[Reading], list[Reading]],
                      definition1_text: str) -> list[Reading]:
    """The readings of the printed formula of ``kind`` ("G" or "F"): each of ``readings``
    exactly (:func:`_exact_reading`, described by ``text(reading)``; the first with the
    Gaussian Monte Carlo in its evidence, :func:`_printed_mc_evidence`), then the readings
    ``appendix`` gives from the first, last the first on Definition-1 features
    (:func:`_printed_definition1_reading`, described by ``definition1_text``)."""
    W, F, G, ts = _prop4_mc(ctx, "gaussian")
    W1, F1, G1, _ = _prop4_mc(ctx, "definition1")
    samples, samples1 = (G, G1) if kind == "G" else (F, F1)
    alpha = ctx.alpha / (3 * len(ts))
    out = []
    for name in readings:
        verdict, summary, ev = _exact_reading(kind, name)
        if name == readings[0]:
            ev.update(_printed_mc_evidence(kind, name, W, samples, ts, alpha, ctx.seed))
        out.append(Reading(name, text(name), verdict, summary, ev))
    out += appendix(out[0])
    out.append(_printed_definition1_reading(kind, readings[0], definition1_text, W1, samples1,
                                            ts, alpha, ctx.seed))
    return out


#: What the corrected closed forms' checks do (:func:`_corrected_outcome`), with the name of
#: the horizon (``T`` for E[G_T], ``t`` for E[F_t]).
CORRECTED_READING = (
    "Closed form derived from the recursion of eq. (5) (SymPy), equal to the exact "
    "enumeration of all task sequences on rational instances, and compared with Monte Carlo "
    "(N = 7, d = 10, s = 6, w_n ~ N(0, 0.16 I)) at several {horizon}."
)


def _enumeration_agreement(kind: str) -> tuple[bool, list[dict[str, Any]]]:
    expr = th.exact_generalization_expr() if kind == "G" else th.exact_forgetting_expr()
    var = th.T if kind == "G" else th.t
    cases = [(_UNIT_W, _R_PAPER, 3), ([[1, 2], [0, -1], [3, 1]], Fraction(1, 3), 4),
             ([[2, 0, 1], [1, 1, 1]], Fraction(3, 4), 5)]
    rows, ok = [], True
    for rows_w, r_value, horizon in cases:
        F, G = th.single_expert_exact_moments(rows_w, r_value, horizon)
        subs = _instance_subs(rows_w, r_value)
        for step in range(1 if kind == "F" else 0, horizon):
            truth = (G if kind == "G" else F)[step]
            value = to_exact(expr.subs(subs).subs(var, step + 1))
            match = value == sp.Rational(truth.numerator, truth.denominator)
            ok = ok and match
            rows.append({"W": rows_w, "r": str(r_value), "round": step + 1,
                         "closed_form": value, "enumeration": str(truth), "equal": match})
    return ok, rows


#: Monte Carlo draws of the corrected closed forms' checks, per profile: (pilot, floor, budget)
#: draws of the Gaussian model, and the most draws of the Definition-1 reading beside it. A
#: draw costs about 24 µs of CPU per model (20 rounds); the quick budget is about 2 s.
PROP4_DRAWS: dict[str, tuple[int, int, int, int]] = {
    "quick": (2_000, 10_000, 80_000, 20_000),
    "full": (5_000, 50_000, 600_000, 200_000),
}


def _sized_budget(ctx: CheckContext, W: np.ndarray, ts: list[int], refs: np.ndarray,
                  kind: str) -> tuple[Budget, dict[str, Any]]:
    """The sequential budget of the Gaussian Monte Carlo, sized from a pilot.

    The pilot (its own stream, never in a verdict) gives each round's standard deviation;
    :func:`moetheory.stats.required_n` the draws that decide each comparison with
    probability 0.9 at its level (the claim's over the 2 x len(ts) comparisons of a look,
    and over the looks of the design :func:`~moetheory.stats.check_expectation` uses for that
    many draws); the budget takes the largest, within the profile's floor and budget
    (:data:`PROP4_DRAWS`)."""
    pilot_n, floor, budget, _ = PROP4_DRAWS[ctx.profile]
    F, G = single_expert_run(ctx.rng(7000), W, S_SAMPLES, max(ts), pilot_n, "gaussian")
    draws = G if kind == "G" else F
    alpha = ctx.alpha / (2 * len(ts))
    needed = max(required_n(draws[:, t - 1], tol=_tol(float(ref)), alpha=alpha)
                 for t, ref in zip(ts, refs, strict=True))
    n = min(max(needed, floor), budget)
    looks = max(1, min(MAX_LOOKS, n // 100))
    plan = {"pilot_draws": pilot_n, "needed_draws": needed, "floor": floor, "budget": budget,
            "draws": looks * (n // looks), "looks": looks, "power": 0.9,
            "budget_limited": needed > budget,
            "rule": "stats.required_n on the pilot's draws, per round; the largest, within "
                    "[floor, budget]; looks as in stats.check_expectation"}
    return Budget(n // looks, looks), plan


def _corrected_outcome(ctx: CheckContext, kind: str) -> Outcome:
    ok, rows = _enumeration_agreement(kind)
    ts = [2, 3, 5, 10, 20, 50] if ctx.full else [2, 3, 5, 10, 20]
    W = ctx.rng(0).normal(0.0, SIGMA0, size=(N_TASKS, D_DIM))
    _, fn, fn1, label, _ = _PROP4[kind]
    ts_used = ts if kind == "G" else [t for t in ts if t >= 2]
    refs = fn(W, S_SAMPLES, D_DIM, ts_used)
    refs1 = fn1(W, S_SAMPLES, ts_used)  # the same expectation for Definition-1 features
    budget, plan = _sized_budget(ctx, W, ts_used, refs, kind)
    def1_cap = PROP4_DRAWS[ctx.profile][3]
    drawn1 = [0]

    def draw(look: int, size: int) -> dict[str, np.ndarray]:
        F, G = single_expert_run(ctx.rng(1010 + look), W, S_SAMPLES, max(ts), size, "gaussian")
        out = {"gaussian": G if kind == "G" else F}
        size1 = min(size, def1_cap - drawn1[0])  # the reading beside: at most def1_cap draws
        if size1 >= 2:
            F1, G1 = single_expert_run(ctx.rng(10 + look), W, S_SAMPLES, max(ts), size1,
                                       "definition1", W / SIGMA0)
            out["definition1"] = G1 if kind == "G" else F1
            drawn1[0] += size1
        else:
            out["definition1"] = np.zeros((0, max(ts)))
        return out

    def judge(data: dict[str, np.ndarray], a: float) -> list[Comparison]:
        a /= 2 * len(ts)
        var = "T" if kind == "G" else "t"
        rng_ = (0.0, math.inf) if kind == "G" else (-math.inf, math.inf)
        return [_mc_comparison(f"{label}{suffix} {var}={t}", data[model][:, t - 1], float(ref),
                               a, rng_)
                for model, suffix, references in (("gaussian", "", refs),
                                                  ("definition1", " (Definition 1)", refs1))
                for t, ref in zip(ts_used, references, strict=True)]

    def primary_decided(comps: list[Comparison]) -> bool:
        return combine([c.verdict for c in comps[: len(ts_used)]]) is not Verdict.INCONCLUSIVE

    seq = run_sequential(draw, judge, ctx.alpha, budget, decided=primary_decided)
    samples = seq.data["gaussian"]
    mc = [c.to_dict() for c in seq.comparisons[: len(ts_used)]]
    exact_reading = Reading(
        "enumeration", "closed form == exact enumeration over all task sequences",
        Verdict.PROVED if ok else Verdict.REFUTED,
        f"equal at all {len(rows)} (instance, round) pairs" if ok else "mismatch",
        {"cases": rows})
    mc_verdict = _verdicts(mc)
    if mc_verdict is Verdict.SUPPORTED and ok:
        summary = f"agrees with Monte Carlo at {len(mc)} rounds and with exact enumeration"
    else:
        summary = f"Monte Carlo: {mc_verdict.value}; enumeration agreement: {ok}"
        if mc_verdict is Verdict.INCONCLUSIVE and plan["budget_limited"]:
            summary += (f"; open for want of draws, not for the mathematics: a pilot asks for "
                        f"{plan['needed_draws']} draws, the {ctx.profile} budget allows "
                        f"{plan['budget']}")
    primary = Reading(
        "gaussian", "Monte Carlo of eq. (5) with Gaussian X_t vs the closed form",
        combine([mc_verdict, Verdict.SUPPORTED if ok else Verdict.UNSUPPORTED]), summary,
        {"monte_carlo": mc, "replicates": samples.shape[0], "seed": ctx.seed,
         "sequential": seq.evidence(), "tolerance": f"{TOL_REL}*|ref| + {TOL_ABS}",
         "power": plan})
    mc1 = [c.to_dict() for c in seq.comparisons[len(ts_used):]]
    gap = [stable(float(a - b)) for a, b in zip(refs, refs1, strict=True)]
    def1 = Reading(
        "definition1-data",
        "Definition-1 features (v_n = w_n/sigma0): Monte Carlo against the same expectation "
        "derived for that data model (`theory.exact_*_definition1`), like with like; the "
        "Gaussian closed form differs from it by the evidence's gaussian_minus_definition1",
        _verdicts(mc1),
        f"worst at {_worst(mc1)['label']}: {_worst(mc1)['estimate']:.4g} vs "
        f"{_worst(mc1)['reference']:.4g}",
        {"monte_carlo": mc1, "replicates": int(seq.data["definition1"].shape[0]),
         "gaussian_minus_definition1": gap, "rounds": ts_used})
    out = Outcome.from_readings([primary, exact_reading, def1])
    expr = th.exact_generalization_expr() if kind == "G" else th.exact_forgetting_expr()
    out.derivation = (
        f"Closed form (SymPy, from the recursion): $${sp.latex(expr)}$$ with "
        "$S = \\sum_n\\|w_n\\|^2$, $D = \\sum_{n,n'}\\|w_{n'}-w_n\\|^2$ (ordered pairs). "
        "Under Definition 1 the projection is not isotropic "
        "(`cl.update.projection-mean.corrected`) and the expectation depends on $v_n$: the "
        "reading `definition1-data` compares the Definition-1 Monte Carlo with the "
        "expectation derived for that data model (first and second moments of the model, "
        "theory.exact_generalization_definition1). Draws: a pilot of "
        f"{plan['pilot_draws']} Gaussian runs asks for {plan['needed_draws']} "
        f"(stats.required_n, power 0.9); the budget allows {plan['budget']}; "
        f"{plan['looks']} looks of {budget.batch}."
    )
    return out
