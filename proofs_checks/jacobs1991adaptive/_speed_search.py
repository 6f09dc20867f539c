"""The counterexample search behind ``j91.adapt-speed`` (private to the checks of Jacobs et
al. 1991).

The claim "eq. 1.4 adapts the best-fitting expert slowest, eq. 1.5 fastest" is read several
ways (:data:`SPEED_READINGS`); each half of a reading is decided by a monotonicity
certificate (:func:`monotone_certificate`, equal mixing proportions) or by a counterexample:
the first of the small cases (:func:`small_cases`, searched exhaustively, smallest first),
else a derandomised Hypothesis search, verified with mpmath at 50 digits (:func:`search`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from moetheory import Reading, Verdict

__all__ = [
    "SMALL_STEPS",
    "SPEED_READINGS",
    "SpeedReading",
    "best_fit",
    "decide_half",
    "describe",
    "draw_case",
    "exact_case",
    "expert_outputs",
    "monotone_certificate",
    "search",
    "small_cases",
    "speed_reading",
    "speed_values",
    "violates",
]


@dataclass(frozen=True)
class SpeedReading:
    name: str
    measure: str  # "grad", "weight" or "step"
    equal_p: bool
    variant: str  # sign convention of eq. 1.5
    text: str


SPEED_READINGS = (
    SpeedReading("grad-norm/any-p/as-written", "grad", False, "seed",
                  "‖∂E/∂o_i‖ from eq. 1.4 is smallest, and from eq. 1.5 as written largest, "
                  "for the best-fitting expert (smallest ‖d − o_i‖), any p"),
    SpeedReading("grad-norm/any-p/corrected", "grad", False, "corrected",
                  "as above with eq. 1.5 sign-corrected (exp(−½r²))"),
    SpeedReading("grad-norm/equal-p/as-written", "grad", True, "seed",
                  "as the first reading, with equal mixing proportions (the unbiased start)"),
    SpeedReading("grad-norm/equal-p/corrected", "grad", True, "corrected",
                  "equal p, eq. 1.5 sign-corrected"),
    SpeedReading("weight/any-p/corrected", "weight", False, "corrected",
                  "the scalar weight (p_i in eq. 1.4, h_i in eq. 1.5 corrected) is smallest / "
                  "largest for the best-fitting expert, any p"),
    SpeedReading("weight/equal-p/corrected", "weight", True, "corrected",
                  "as above with equal p: 1.4's weight is not larger for the best expert and "
                  "1.5's is largest"),
    SpeedReading("weight/equal-p/as-written", "weight", True, "seed",
                  "weight reading, equal p, eq. 1.5 as written (exp(+½r²))"),
    SpeedReading("step/equal-p/corrected", "step", True, "corrected",
                  "the parameter step ‖ΔW_i‖ of a linear-sigmoid expert o_i = σ(W_i x̃) under "
                  "gradient descent, equal p, eq. 1.5 corrected"),
)


def speed_values(case: dict, measure: str, eq: str, variant: str, lib: Any) -> list:
    """Per-expert adaptation speed under ``eq`` ("1.4"/"1.5"); ``lib`` is numpy or mpmath."""
    o = expert_outputs(case, lib)
    k = len(o)
    p = [lib.mpf(1) / k if lib is mpmath else 1.0 / k] * k if case["equal_p"] else case["p"]
    r2 = [sum((dl - ol) ** 2 for dl, ol in zip(case["d"], row, strict=True)) for row in o]
    sign = 1 if variant == "seed" else -1
    if eq == "1.4":
        weight = [2 * pi for pi in p]
    else:
        terms = [pi * lib.exp(sign * x / 2) for pi, x in zip(p, r2, strict=True)]
        weight = [t / sum(terms) for t in terms]
    if measure == "weight":
        return weight
    if measure == "grad":
        return [w * lib.sqrt(x) for w, x in zip(weight, r2, strict=True)]
    out = []
    for w, row in zip(weight, o, strict=True):
        g = [w * (dl - ol) * ol * (1 - ol) for dl, ol in zip(case["d"], row, strict=True)]
        out.append(lib.sqrt(sum(x * x for x in g)))
    return out


def expert_outputs(case: dict, lib: Any) -> list:
    """Expert outputs: given directly, or sigmoid of the pre-activations ``z`` (step reading)."""
    if "z" in case:
        return [[1 / (1 + lib.exp(-z)) for z in row] for row in case["z"]]
    return case["o"]


def best_fit(case: dict, lib: Any) -> int | None:
    o = expert_outputs(case, lib)
    r2 = [sum((dl - ol) ** 2 for dl, ol in zip(case["d"], row, strict=True)) for row in o]
    order = sorted(range(len(r2)), key=lambda j: r2[j])
    margin = 1e-9 if lib is not mpmath else mpmath.mpf("1e-30")
    unique = r2[order[1]] - r2[order[0]] > margin
    return order[0] if unique and r2[order[0]] > margin else None


def violates(case: dict, reading: SpeedReading, eq: str, lib: Any) -> bool:
    """Whether the best-fitting expert is strictly faster (1.4) / slower (1.5) than another."""
    best = best_fit(case, lib)
    if best is None:
        return False
    v = speed_values(case, reading.measure, eq, reading.variant, lib)
    others = [v[j] for j in range(len(v)) if j != best]
    margin = 1e-9 if lib is not mpmath else mpmath.mpf("1e-30")
    if eq == "1.4":
        return v[best] - min(others) > margin
    return max(others) - v[best] > margin


def draw_case(draw: Any, measure: str, equal_p: bool) -> dict:
    """One random case for the counterexample search (``draw`` as passed by ``st.composite``)."""
    from hypothesis import strategies as st

    k = draw(st.integers(2, 3))
    q = draw(st.integers(1, 2))
    ints = st.integers(-12, 12).map(lambda n: n / 4)
    case: dict = {"equal_p": equal_p}
    weights = [1] * k if equal_p else [draw(st.integers(1, 9)) for _ in range(k)]
    case["p"] = [w / sum(weights) for w in weights]
    case["weights"] = weights
    if measure == "step":
        case["d"] = [draw(st.integers(0, 1)) for _ in range(q)]
        case["z"] = [[draw(st.integers(-8, 8)) for _ in range(q)] for _ in range(k)]
        case["o"] = []
    else:
        case["d"] = [draw(ints) for _ in range(q)]
        case["o"] = [[draw(ints) for _ in range(q)] for _ in range(k)]
    return case


def exact_case(case: dict) -> dict:
    """The same case with mpmath numbers (integer data, p as exact ratios)."""
    ex = dict(case)
    total = sum(case["weights"])
    ex["p"] = [mpmath.mpf(w) / total for w in case["weights"]]
    ex["d"] = [mpmath.mpf(x) for x in case["d"]]  # quarters: exact in binary
    ex["o"] = [[mpmath.mpf(x) for x in row] for row in case["o"]]
    if "z" in case:
        ex["z"] = [[mpmath.mpf(x) for x in row] for row in case["z"]]
    return ex


#: The small cases searched exhaustively before the random search: k = 2 experts, q = 1
#: output, every entry at most this many steps from 0 (d, o in quarters up to 1; z up to 4)
#: and integer weights up to 3.
SMALL_STEPS = 4


def small_cases(measure: str, equal_p: bool) -> Iterator[dict]:
    """The cases with ``k = 2``, ``q = 1`` and entries within :data:`SMALL_STEPS` steps of 0,
    in order of size: by the largest entry (in steps; a weight ``w`` counts ``w - 1``), then
    in product order with smaller magnitudes first and positive before negative."""
    ladder = [0] + [sign * j for j in range(1, SMALL_STEPS + 1) for sign in (1, -1)]
    weights = [(1, 1)] if equal_p else list(itertools.product(range(1, 4), repeat=2))
    targets = [0, 1] if measure == "step" else ladder  # d: a class label for the step
    scale = 1 if measure == "step" else 4
    for level in range(SMALL_STEPS + 1):
        for w in weights:
            for d in targets:
                for a, b in itertools.product(ladder[: 2 * level + 1], repeat=2):
                    size = max(abs(a), abs(b), max(w) - 1, 0 if measure == "step" else abs(d))
                    if size != level:
                        continue
                    case: dict = {"equal_p": equal_p, "weights": list(w),
                                  "p": [x / sum(w) for x in w]}
                    if measure == "step":
                        case.update(d=[d], z=[[a], [b]], o=[])
                    else:
                        case.update(d=[d / scale], o=[[a / scale], [b / scale]])
                    yield case


def search(reading: SpeedReading, eq: str) -> dict | None:
    """A counterexample, verified at 50 digits: the first of :func:`small_cases` that
    violates the reading, else a Hypothesis search (derandomised, shrunk) of the whole space."""
    case = next((c for c in small_cases(reading.measure, reading.equal_p)
                 if violates(c, reading, eq, np)), None)
    if case is None:
        # imported here so that only this claim needs hypothesis at run time
        from hypothesis import HealthCheck, find, settings
        from hypothesis import strategies as st
        from hypothesis.errors import NoSuchExample

        strategy = st.composite(draw_case)(reading.measure, reading.equal_p)
        search_settings = settings(
            derandomize=True, database=None, max_examples=300, deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        try:
            case = find(strategy, lambda c: violates(c, reading, eq, np),
                        settings=search_settings)
        except NoSuchExample:
            return None
    with mpmath.workdps(50):
        ex = exact_case(case)
        if not violates(ex, reading, eq, mpmath):
            return None
        speeds = speed_values(ex, reading.measure, eq, reading.variant, mpmath)
        best = best_fit(ex, mpmath)
        shown = {key: case[key] for key in ("d", "o", "z") if case.get(key)}
        if not reading.equal_p:
            shown["p"] = [f"{w}/{sum(case['weights'])}" for w in case["weights"]]
        return {**shown, "best_expert": best + 1, "speeds_50_digits":
                [mpmath.nstr(v, 20) for v in speeds]}


def monotone_certificate(reading: SpeedReading, eq: str) -> dict | None:
    """Equal p, measure a function f(r) of r = ‖d − o_i‖ alone: eq. 1.4 holds if f' >= 0, eq. 1.5
    if f' <= 0 on r > 0 (SymPy sign decision)."""
    if not reading.equal_p or reading.measure == "step":
        return None
    r = sp.Symbol("r", positive=True)
    sign = 1 if reading.variant == "seed" else -1
    weight = sp.Integer(1) if eq == "1.4" else sp.exp(sp.Rational(sign, 2) * r**2)
    f = weight if reading.measure == "weight" else r * weight
    df = sp.factor(sp.diff(f, r))
    holds = df.is_nonnegative if eq == "1.4" else df.is_nonpositive
    return {"speed_up_to_positive_factor": f, "derivative": df} if holds else None


def decide_half(reading: SpeedReading, eq: str) -> tuple[Verdict, dict]:
    cert = monotone_certificate(reading, eq)
    if cert is not None:
        return Verdict.PROVED, {"certificate": cert}
    cex = search(reading, eq)
    if cex is not None:
        return Verdict.REFUTED, {"counterexample": cex}
    return Verdict.INCONCLUSIVE, {"reason": "no counterexample found and no proof rule"}


def describe(verdict: Verdict, evidence: dict) -> str:
    if "counterexample" in evidence:
        cex = evidence["counterexample"]
        data = ", ".join(f"{key}={cex[key]}" for key in ("p", "d", "o", "z") if key in cex)
        speeds = [f"{float(v):.4g}" for v in cex["speeds_50_digits"]]
        return (f"refuted by {data}: best expert {cex['best_expert']} has speed "
                f"{speeds[cex['best_expert'] - 1]} among {', '.join(speeds)}")
    if "certificate" in evidence:
        speed = evidence["certificate"]["speed_up_to_positive_factor"]
        return f"proved (speed ∝ {speed}, monotone in r = ‖d − o_i‖)"
    return verdict.value


def speed_reading(reading: SpeedReading) -> Reading:
    v14, e14 = decide_half(reading, "1.4")
    v15, e15 = decide_half(reading, "1.5")
    verdict = (
        Verdict.REFUTED if Verdict.REFUTED in (v14, v15)
        else Verdict.PROVED if v14 is v15 is Verdict.PROVED else Verdict.INCONCLUSIVE
    )
    return Reading(
        reading.name, reading.text, verdict,
        f"eq. 1.4 slowest: {describe(v14, e14)}; eq. 1.5 fastest: {describe(v15, e15)}",
        {"eq_1_4_slowest": {"verdict": v14.value, **e14},
         "eq_1_5_fastest": {"verdict": v15.value, **e15},
         "search": f"every case with k = 2, q = 1, entries within {SMALL_STEPS} steps of 0 "
                   "and weights 1..3, smallest first; if none violates, "
                   "hypothesis.find, derandomize=True, max_examples=300, k∈{2,3}, q∈{1,2}, "
                   "integer d, o ∈ [−3, 3] (pre-activations z ∈ [−8, 8], d ∈ {0,1} for step), "
                   "p = integer weights 1..9 normalised; verified with mpmath at 50 digits"},
    )
