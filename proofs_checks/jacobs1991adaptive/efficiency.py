"""Checks of the computational-cost statements of the review of Jacobs, Jordan, Nowlan & Hinton
(1991) (seed 001): how many weights a case updates and how the compute scales with the
parameters.
"""

from __future__ import annotations

import sympy as sp

from moetheory import CheckContext, Outcome, Reading, Verdict
from proofs_checks.jacobs1991adaptive._common import gate_symbols, review_claim

__all__ = [
    "check_dense_updates",
    "check_flops",
]


@review_claim(
    "j91.dense-updates",
    statement="'It means that there are less weights to update, so learning is faster' "
    "(seed 001).",
    covers=["001-20"],
    reading="literal, for the paper's mixture trained on loss 1.3 (corrected): in a case, "
    "fewer expert weights receive a non-zero update than in one network",
)
def check_dense_updates(ctx: CheckContext) -> Outcome:
    k = 3
    z, p = gate_symbols(k)
    r = sp.symbols(f"r1:{k + 1}", nonnegative=True)
    den = sum(pi * sp.exp(-ri**2 / 2) for pi, ri in zip(p, r, strict=True))
    h = [pi * sp.exp(-ri**2 / 2) / den for pi, ri in zip(p, r, strict=True)]
    positive = [bool(hi.is_positive) for hi in h]
    far = {zi: 0 for zi in z} | {r[0]: 0, r[1]: 1, r[2]: 6}
    hvals = [sp.N(hi.subs(far), 6) for hi in h]
    ok = all(positive)
    readings = [
        Reading(
            "literal",
            "fewer weights updated per case",
            Verdict.REFUTED if ok else Verdict.INCONCLUSIVE,
            "∂E/∂o_i = −h_i (d − o_i) with h_i > 0 for every expert (SymPy: each posterior is "
            "positive): every expert's weights move in every case where o_i ≠ d",
            {"posteriors_positive": positive},
        ),
        Reading(
            "effectively-local",
            "the updates of far-off experts are exponentially small",
            Verdict.PROVED,
            f"h_i ≤ (p_i/p_best) e^(−(r_i² − r_best²)/2); at r = (0, 1, 6), p = 1/3: h = {hvals}",
            {"posteriors_example": hvals},
        ),
    ]
    return Outcome.from_readings(
        readings,
        summary="refuted literally: under loss 1.3 every expert gets a non-zero update "
        "(h_i > 0); the updates of poorly fitting experts are exponentially small",
        derivation=(
            "With $r_i = \\lVert d - o_i\\rVert$ and the gate $p = \\mathrm{softmax}(z)$, the "
            "corrected loss 1.3 is $E = -\\log \\sum_j p_j e^{-r_j^2/2}$ and\n\n"
            "$$\\frac{\\partial E}{\\partial o_i} = -h_i\\,(d - o_i), \\qquad h_i = "
            "\\frac{p_i e^{-r_i^2/2}}{\\sum_j p_j e^{-r_j^2/2}}.$$\n\n"
            "For $k = 3$ experts SymPy finds each posterior $h_i$ positive for every real "
            "$z$ and $r \\ge 0$ (a quotient of positive terms), so every expert whose output "
            "misses the target ($o_i \\ne d$) receives a non-zero update in every case: the "
            "literal reading 'fewer weights are updated' is `refuted`. Dividing by the best "
            "expert's term gives $h_i \\le (p_i / p_{\\mathrm{best}})\\, "
            "e^{-(r_i^2 - r_{\\mathrm{best}}^2)/2}$, so far-off experts move by exponentially "
            "small amounts: the reading 'effectively local' is `proved` (the evidence "
            "evaluates $h$ at $r = (0, 1, 6)$, $p = 1/3$)."
        ),
    )


@review_claim(
    "j91.flops",
    statement="'FLOPs do not have to scale wrt number of total parameters' (seed 001).",
    covers=["001-21"],
    reading="possibility: a mixture that evaluates the gate and only the selected expert per "
    "input has per-input multiply-adds that do not grow with the number of experts' weights "
    "(k experts of P weights each)",
)
def check_flops(ctx: CheckContext) -> Outcome:
    k, P, g = sp.symbols("k P g", positive=True)  # g = gate weights per expert
    total = k * (P + g)
    dense = k * (P + g)
    top1 = k * g + P
    readings = [
        Reading(
            "top-1-inference",
            "gate + one expert per input",
            Verdict.PROVED,
            f"multiply-adds {sp.sstr(top1)} vs parameters {sp.sstr(total)}: the ratio tends to "
            f"{sp.limit(top1 / total, k, sp.oo)} as k grows",
            {"multiply_adds": top1, "parameters": total},
        ),
        Reading(
            "the-1991-mixture",
            "the paper's model, whose output Σ p_i o_i and loss 1.3 need every expert",
            Verdict.REFUTED if sp.simplify(dense / total) == 1 else Verdict.INCONCLUSIVE,
            "every expert is evaluated for every case: multiply-adds = parameters exactly",
            {"multiply_adds": dense, "ratio": sp.simplify(dense / total)},
        ),
    ]
    return Outcome.from_readings(
        readings,
        summary="proved for sparse (top-1) evaluation; the 1991 mixture itself is dense: its "
        "compute per case equals its parameter count",
        derivation=(
            "Count multiply-adds per input for $k$ experts of $P$ weights each and a gate "
            "with $g$ weights per expert: the parameters number $k(P + g)$. Evaluating the "
            "gate and only the selected expert costs $kg + P$, so, by a SymPy limit,\n\n"
            "$$\\lim_{k \\to \\infty} \\frac{kg + P}{k(P + g)} = \\frac{g}{P + g} < 1.$$\n\n"
            "The compute need not scale with the total parameter count, and "
            "the reading 'top-1 inference' is `proved`. The 1991 mixture's output "
            "$\\sum_i p_i o_i$ and its loss 1.3 need every expert's output, so its cost "
            "$k(P + g)$ equals the parameter count exactly (ratio $1$): for the paper's own "
            "model the reading is `refuted`."
        ),
    )

if __name__ == "__main__":
    from moetheory.engine.script import run_as_script

    run_as_script()
