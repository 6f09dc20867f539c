"""Checks of "more experts" in Li et al. (2025): Theorems 1-2's discussion and Section 6.

Claims ``cl.more-experts`` (M > N: more experts than tasks delay convergence and end no better)
and ``cl.more-experts.m-lt-n`` (the same with fewer experts than tasks, M = Ω(K ln K)), on the
simulator, with Algorithm 1's flags read every way (:mod:`._flags`) and replicates sized from
a pilot (:func:`moetheory.stats.sized_run`; budgets in :mod:`._budgets`). "Delays
convergence" is read of paired runs (:mod:`._paired`): the run with more experts terminates
later in most pairs (a sign test, Clopper-Pearson); the mean of the paired differences of
rounds, the checks' reading before issue 32, is kept as a second reading of the primary
reading's runs (:data:`MEAN_ROUNDS`).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from moetheory import CheckContext, Outcome, claim
from moetheory.continual import CLConfig, CLResult, ground_truth_unit
from moetheory.continual.analysis import convergence_round, late_mean
from moetheory.continual.simulator import simulate_many
from moetheory.stats import (
    Comparison,
    ReadingData,
    Sizing,
    Spec,
    combine,
    comparisons_markdown,
    decide_all,
    sized_run,
)
from proofs_checks.li2025continual._budgets import allowance
from proofs_checks.li2025continual._common import paper_claim, src
from proofs_checks.li2025continual._flags import (
    ALTERNATIVE_FLAGS,
    FLAG_READINGS,
    flags_of,
    other_flag_readings,
)
from proofs_checks.li2025continual._paired import LATER_RULE, PAIRING, terminates_later
from proofs_checks.li2025continual._readings import (
    FIGURE_READING_TEXT,
    FIGURE_READINGS,
    figure_outcome,
    grid_outcome,
    reading_text,
    undecided,
)
from proofs_checks.li2025continual._simulation import (
    GRID,
    LATE,
    MEANINGFUL,
    _curves,
    _regime_seed,
    reading_config,
    regime_config,
)

__all__ = [
    "MEAN_ROUNDS", "MEAN_ROUNDS_TEXT", "MORE_MS", "MORE_MS_M_LT_N", "TERMINATION_SHARE_TOL",
    "check_more_experts", "check_more_experts_m_lt_n",
]


MORE_MS = (10, 20, 40)
#: Smallest meaningful difference of termination probabilities (fixed before looking).
TERMINATION_SHARE_TOL = 0.1

#: Suffix of the second reading: the primary reading's runs judged by the mean of the paired
#: differences of rounds (the checks' reading before issue 32).
MEAN_ROUNDS = "; mean of rounds"

#: The second reading in words (``{r}``: the primary reading's name; ``{what}``: its
#: comparisons).
MEAN_ROUNDS_TEXT = (
    "the runs of '{r}' judged as before issue 32, by the mean of the paired differences "
    "instead of the share of later pairs: {what}. A few late terminations dominate such a "
    "mean, and its exact betting interval on [-T, T] is as wide as the range until thousands "
    "of replicates"
)


def _later_label(a: int, b: int) -> str:
    return f"P(M={b} terminates later than M={a}) > 1/2 (paired runs)"


@claim(
    "cl.more-experts",
    kind="statistical",
    reading=(
        "Figure 2 settings with termination, M ∈ {10, 20, 40} (all > N = 7), paired runs (the "
        "same data for every M); for consecutive M: the run with more experts terminates later "
        "(Algorithm 1's convergence) in most pairs (share of later pairs > 1/2, a run not "
        "terminated by T terminating after T; Clopper-Pearson), and the late G of more experts "
        "is not smaller by more than 0.1·ū (ū = mean E‖w_n‖², fixed by the configuration). "
        "Readings 'paper, random β' (primary: Definition 1's β_t ~ Unif(0, 1]), "
        "'paper' (β = 1) and 'code'; second reading of the primary's runs: the mean of the "
        "paired differences of termination and G-convergence rounds (before issue 32)"
    ),
    statement=(
        "Adding experts beyond what the tasks need delays convergence (T1 grows with M) and does "
        "not improve the final error."
    ),
    statement_latex=(
        "Adding experts beyond what the tasks need delays convergence ($T_1$ grows with $M$) and "
        "does not improve the final error."
    ),
    sources={"003_3078ccb5100b14b7.txt": [19, 197, 221, 229]},
)
def check_more_experts(ctx: CheckContext) -> Outcome:
    """More experts than tasks: later convergence, no better final error."""
    key = "cl.more-experts"
    T = 2000
    # 4 comparisons in each reading (data and flags), 8 in the mean-of-rounds reading
    alpha = ctx.alpha / (4 * (len(FIGURE_READINGS) + len(ALTERNATIVE_FLAGS)) + 8)
    extra: list[tuple[ReadingData, str]] = []

    def runs_of(reading: str, R: int, seed: int, flags: bool
               ) -> tuple[dict[int, CLResult], dict[str, dict[int, CLResult]]]:
        """Runs by M: the reading's own (its own flags), then, if ``flags``, the same under
        each of the flags' other readings (:data:`ALTERNATIVE_FLAGS`), stacked: same data."""
        cfgs = [reading_config(reading, T=T).replace(M=M) for M in MORE_MS]
        return _stacked(cfgs, MORE_MS, R, seed, flags)

    def specs(runs: dict[int, CLResult]) -> tuple[list[Spec | Comparison], dict[str, Any]]:
        """The paired reading: the share of pairs whose run with more experts terminates
        later, and the late G; with the pairs' counts."""
        out: list[Spec | Comparison] = []
        counts: dict[str, Any] = {}
        unit = ground_truth_unit(runs[MORE_MS[0]].config)
        for a, b in itertools.pairwise(MORE_MS):
            comp, counts[f"M={b} vs M={a}"] = terminates_later(
                _later_label(a, b), runs[a].termination_round, runs[b].termination_round, alpha)
            out.append(comp)
            la, lb = late_mean(_curves(runs[a], "G"), LATE), late_mean(_curves(runs[b], "G"), LATE)
            out.append(Spec(f"late G, M={a} − M={b} <= 0 (no improvement)", "at-most",
                            la - lb, 0.0, MEANINGFUL * unit))
        return out, counts

    def mean_specs(runs: dict[int, CLResult]) -> list[Spec | Comparison]:
        """The reading before issue 32: means of the paired differences of rounds."""
        out: list[Spec | Comparison] = []
        unit = ground_truth_unit(runs[MORE_MS[0]].config)
        for a, b in itertools.pairwise(MORE_MS):
            ta, tb = runs[a].termination_round, runs[b].termination_round
            # whether a run terminates, and when given that it does: two statistics. The
            # paired difference of two indicators lies in [-1, 1]: an exact betting interval
            # (a t interval of ten such differences has width 0 when they agree)
            out.append(Spec(
                f"P(termination by T), M={b} − M={a} <= 0 (more experts stop no more often)",
                "at-most", (tb >= 0).astype(float) - (ta >= 0).astype(float), 0.0,
                TERMINATION_SHARE_TOL, (-1.0, 1.0)))
            both = (ta >= 0) & (tb >= 0)
            if both.sum() >= 2:
                # rounds lie in [0, T]: the exact betting interval of the differences in
                # [-T, T] (a t interval of a few skewed differences under-covers)
                out.append(Spec(
                    f"termination round given termination (both runs), M={b} − M={a} > 0",
                    "greater", (tb[both] - ta[both]).astype(float), 0.0, 0.0,
                    (-float(T), float(T))))
            else:
                out.append(undecided(
                    f"termination round given termination, M={b} vs M={a}: fewer than 2 pairs "
                    "of terminated runs", int(both.sum()), alpha, 0.0, 0.0))
            # convergence rounds lie in [1, T]: the exact betting interval of the differences
            out.append(Spec(
                f"G convergence round, M={b} − M={a} > 0",
                "greater", (convergence_round(_curves(runs[b], "G"))
                            - convergence_round(_curves(runs[a], "G"))).astype(float), 0.0,
                0.0, (-float(T), float(T))))
            la, lb = late_mean(_curves(runs[a], "G"), LATE), late_mean(_curves(runs[b], "G"), LATE)
            out.append(Spec(f"late G, M={a} − M={b} <= 0 (no improvement)", "at-most",
                            la - lb, 0.0, MEANINGFUL * unit))
        return out

    def judge(name: str, runs: dict[int, CLResult], R: int, seed: int,
              mean: bool = False) -> ReadingData:
        if mean:
            comps, pairing = decide_all(mean_specs(runs), alpha), None
        else:
            paired, counts = specs(runs)
            comps, pairing = decide_all(paired, alpha), counts
        base = runs[MORE_MS[0]].config
        ev: dict[str, Any] = {
            "replicates": R, "T": T, "simulator_seed": seed, "config": base.to_dict(),
            "T1": {M: runs[M].config.T1 for M in MORE_MS},
            "terminated_fraction": {M: float((runs[M].termination_round >= 0).mean())
                                    for M in MORE_MS},
            "median_termination_round": {M: _median_round(runs[M]) for M in MORE_MS},
            "mean_late_G": {M: float(late_mean(_curves(runs[M], "G"), LATE).mean())
                            for M in MORE_MS},
            "rule": ("stats.greater (effect 0) and stats.at_most (tolerance 0.1·ū; "
                     "inconclusive if the interval straddles the margin); P(termination) "
                     "and round differences (termination, convergence): betting intervals on "
                     "[-1, 1] and [-T, T], late-G differences: paired t") if mean else (
                     f"{LATER_RULE}; late-G differences: stats.at_most (tolerance 0.1·ū), "
                     "paired t"),
        }
        if pairing is not None:
            ev["pairing"] = {"design": PAIRING, "counts": pairing}
        deriv = (
            "$T_1 = \\lceil M/\\eta\\rceil$ = "
            + ", ".join(f"{ev['T1'][M]} (M={M})" for M in MORE_MS)
            + " grows with $M$ by definition; measured:\n\n" + comparisons_markdown(comps)
        )
        return (name, comps, ev, deriv)

    sizings: list[Sizing] = []  # the primary reading's pilot sizes every reading

    def one(reading: str, seed: int) -> ReadingData:
        if not sizings:
            pilot_seed = seed + 1  # a stream of its own: SeedSequence(seed + 1)
            sizings.append(sized_run(allowance(ctx, key), lambda n: (
                specs(runs_of(reading, n, pilot_seed, False)[0])[0], pilot_seed), alpha=alpha))
        plan = sizings[0].plan
        flags = reading == FIGURE_READINGS[0]
        runs, by_flags = runs_of(reading, plan.n, seed, flags)
        name, comps, ev, deriv = judge(reading, runs, plan.n, seed)
        verdict = combine([c.verdict for c in comps])
        ev = dict(ev, power=dict(plan.evidence(verdict, comps), sized_by=FIGURE_READINGS[0]),
                  flags=flags_of(runs[MORE_MS[0]].config))
        deriv = f"{sizings[0].note(verdict, comps)}\n\n{deriv}"
        if flags:
            m_name, m_comps, m_ev, m_deriv = judge(reading + MEAN_ROUNDS, runs, plan.n, seed,
                                                   mean=True)
            extra.append(((m_name, m_comps, dict(m_ev, flags=ev["flags"]), m_deriv),
                          MEAN_ROUNDS_TEXT.format(r=reading, what=_MEAN_WHAT)))
            extra.extend(other_flag_readings(
                reading, by_flags,
                lambda name, alt: judge(name, alt, plan.n, seed), FIGURE_READING_TEXT[reading]))
        return (name, comps, ev, deriv)

    return figure_outcome(ctx, alpha, one, extra=lambda: extra)


_MEAN_WHAT = (
    "P(termination by T) not larger for more experts (tolerance 0.1), the termination round "
    "given that both runs terminate and the convergence round of G later (means of the paired "
    "differences > 0), the late G as in the primary reading"
)


MORE_MS_M_LT_N = (5, 10, 20)


@paper_claim(
    "cl.more-experts.m-lt-n",
    statement=(
        "M < N with M = Ω(K ln K): adding more experts does not improve learning "
        "performance but delays convergence."
    ),
    sources=src(221),
    covers=["003-05"],
    reading=(
        "N = 30, K = 3, M ∈ {5, 10, 20} (all < N, >= K ln K), σ0 = 0.2 with the paper's "
        "coupling, runs with termination, paired runs (the same data for every M): for "
        "consecutive M, the run with more experts terminates later in most pairs (share of "
        "later pairs > 1/2, a run not terminated by T terminating after T; Clopper-Pearson), "
        "and the late G of more experts not smaller by more than 0.1·ū, ū = mean E‖w_n‖² fixed "
        "by the configuration (at_most); readings 'paper', 'code' (+ 'paper, random β' in the "
        "full profile); second reading of the 'paper' runs: the mean of the paired differences "
        "of termination rounds given termination in both runs (before issue 32)"
    ),
)
def check_more_experts_m_lt_n(ctx: CheckContext) -> Outcome:
    """M < N: more experts delay convergence and do not help."""
    n_flags = len(ALTERNATIVE_FLAGS)
    # 4 comparisons in each reading (3 data readings, the flags'), 4 in the mean-of-rounds one
    alpha = ctx.alpha / (12 + 4 * n_flags + 4)
    seed = _regime_seed(ctx) + 20
    pilot_seed = _regime_seed(ctx) + 60
    extra: list[tuple[ReadingData, str]] = []

    def configs(reading: str) -> list[CLConfig]:
        """The reading's configurations, one per M (their common horizon)."""
        cfgs = [regime_config(reading, GRID[-1], M) for M in MORE_MS_M_LT_N]
        T = max(c.T for c in cfgs)
        return [c.replace(T=T) for c in cfgs]

    def runs_of(reading: str, R: int, run_seed: int, flags: bool
               ) -> tuple[dict[int, CLResult], dict[str, dict[int, CLResult]]]:
        """Runs by M: the reading's own (its own flags), then, if ``flags``, the same under
        each of the flags' other readings (:data:`ALTERNATIVE_FLAGS`), stacked: same data."""
        return _stacked(configs(reading), MORE_MS_M_LT_N, R, run_seed, flags)

    def specs(runs: dict[int, CLResult]) -> tuple[list[Spec | Comparison], dict[str, Any]]:
        """The paired reading: the share of pairs whose run with more experts terminates
        later, and the late G; with the pairs' counts."""
        out: list[Spec | Comparison] = []
        counts: dict[str, Any] = {}
        for a, b in itertools.pairwise(MORE_MS_M_LT_N):
            comp, counts[f"M={b} vs M={a}"] = terminates_later(
                _later_label(a, b), runs[a].termination_round, runs[b].termination_round, alpha)
            out.append(comp)
            la, lb = (late_mean(_curves(runs[m], "G"), 0.1) for m in (a, b))
            tol = 0.1 * ground_truth_unit(runs[a].config)  # fixed before looking
            out.append(Spec(f"late G, M={a} − M={b} <= 0 (no improvement)", "at-most",
                            la - lb, 0.0, tol))
        return out, counts

    def mean_specs(runs: dict[int, CLResult]) -> list[Spec]:
        """The reading before issue 32: the mean of the paired differences of rounds."""
        T = float(runs[MORE_MS_M_LT_N[0]].config.T)
        out = []
        for a, b in itertools.pairwise(MORE_MS_M_LT_N):
            ta, tb = runs[a].termination_round, runs[b].termination_round
            both = (ta >= 0) & (tb >= 0)
            if both.sum() >= 2:
                # rounds lie in [0, T]: the exact betting interval of the differences in
                # [-T, T] (a t interval of a few skewed differences under-covered)
                out.append(Spec(f"termination round given termination, M={b} − M={a} > 0",
                                "greater", (tb[both] - ta[both]).astype(float), 0.0, 0.0,
                                (-T, T)))
            la, lb = (late_mean(_curves(runs[m], "G"), 0.1) for m in (a, b))
            tol = 0.1 * ground_truth_unit(runs[a].config)  # fixed before looking
            out.append(Spec(f"late G, M={a} − M={b} <= 0 (no improvement)", "at-most",
                            la - lb, 0.0, tol))
        return out

    def judge(name: str, runs: dict[int, CLResult], R: int, mean: bool = False) -> ReadingData:
        if mean:
            comps, pairing = decide_all(mean_specs(runs), alpha), None
        else:
            paired, counts = specs(runs)
            comps, pairing = decide_all(paired, alpha), counts
        ev: dict[str, Any] = {"simulator_seed": seed, "T": runs[MORE_MS_M_LT_N[0]].config.T,
                              "replicates": R,
                              "terminated": {M: int((runs[M].termination_round >= 0).sum())
                                             for M in MORE_MS_M_LT_N},
                              "median_termination_round": {
                                  M: _median_round(runs[M]) for M in MORE_MS_M_LT_N},
                              "rule": ("termination rounds given termination in both runs: "
                                       "betting interval of the paired differences on [-T, T]; "
                                       "late G: stats.at_most (tolerance 0.1·ū), paired t")
                              if mean else f"{LATER_RULE}; late G: stats.at_most (tolerance "
                                           "0.1·ū), paired t"}
        if pairing is not None:
            ev["pairing"] = {"design": PAIRING, "counts": pairing}
        return (name, comps, ev, "Terminated runs per M: "
                + ", ".join(f"M={M}: {v}/{R}" for M, v in ev["terminated"].items())
                + ".\n\n" + comparisons_markdown(comps))

    sizings: list[Sizing] = []  # the primary reading's pilot sizes every reading

    def one(reading: str) -> ReadingData:
        if not sizings:
            sizings.append(sized_run(allowance(ctx, "cl.more-experts.m-lt-n"), lambda n: (
                specs(runs_of(reading, n, pilot_seed, False)[0])[0], pilot_seed), alpha=alpha))
        plan = sizings[0].plan
        flags = reading == "paper"
        runs, by_flags = runs_of(reading, plan.n, seed, flags)
        name, comps, ev, deriv = judge(reading, runs, plan.n)
        verdict = combine([c.verdict for c in comps])
        ev = dict(ev, power=dict(plan.evidence(verdict, comps), sized_by="paper"),
                  flags=flags_of(runs[MORE_MS_M_LT_N[0]].config))
        deriv = f"{sizings[0].note(verdict, comps)}\n\n{deriv}"
        if flags:
            m_name, m_comps, m_ev, m_deriv = judge(reading + MEAN_ROUNDS, runs, plan.n,
                                                   mean=True)
            extra.append(((m_name, m_comps, dict(m_ev, flags=ev["flags"]), m_deriv),
                          MEAN_ROUNDS_TEXT.format(r=reading, what=_MEAN_WHAT_M_LT_N)))
            extra.extend(other_flag_readings(
                reading, by_flags,
                lambda name, alt: judge(name, alt, plan.n),
                lambda alt: reading_text(reading, [alt[M].config for M in MORE_MS_M_LT_N])))
        return (name, comps, ev, deriv)

    return grid_outcome(ctx, alpha, one, configs, lambda: extra)


_MEAN_WHAT_M_LT_N = (
    "the termination round given termination in both runs later for more experts (mean of "
    "the paired differences > 0), the late G as in the primary reading"
)


def _stacked(cfgs: list[CLConfig], Ms: tuple[int, ...], R: int, seed: int,
             flags: bool) -> tuple[dict[int, CLResult], dict[str, dict[int, CLResult]]]:
    """``cfgs`` (one per M of ``Ms``) as they are, then under each of the flags' other
    readings if ``flags``, in one simulator call: the runs by M of the given ones, and those
    of each other flag reading (none without ``flags``)."""
    names = ALTERNATIVE_FLAGS if flags else ()
    stack = list(cfgs) + [c.replace(**FLAG_READINGS[name]) for name in names for c in cfgs]
    res = simulate_many(stack, R, seed)
    k = len(Ms)
    by_m = [dict(zip(Ms, res[i * k:(i + 1) * k], strict=True)) for i in range(len(res) // k)]
    return by_m[0], dict(zip(names, by_m[1:], strict=True))


def _median_round(res: CLResult) -> float | str:
    """Median termination round of the runs that terminated (``"none"`` if none did)."""
    done = res.termination_round[res.termination_round >= 0]
    return float(np.median(done)) if done.size else "none"
