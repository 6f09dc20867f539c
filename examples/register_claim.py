"""Add claims to the registry from outside the package, then verify them.

Two claims of our own: a true identity, proved by SymPy simplifying the residual to 0, and a
false inequality, refuted by an exact rational counterexample. A package can register such
checks for every user by naming its module in the entry-point group ``moetheory.checks``
(``[project.entry-points."moetheory.checks"] mine = "my_package.checks"``).

Usage: ``python examples/register_claim.py``
"""

import functools
import sys
from fractions import Fraction

import sympy as sp

import moetheory
from moetheory import CheckContext, Outcome, Verdict, claim
from moetheory.engine.verdicts import symbolic_evidence

x, y = sp.symbols("x y", real=True)

#: Our claims' common fields filled in once (the package does the same for each paper).
my_claim = functools.partial(claim, seed_files=["my-notes.txt"], section="My claims")


@my_claim(
    "mine.amgm-identity",
    statement="x² + y² − 2xy = (x − y)² for all real x, y",
    reading="as a polynomial identity over the reals",
)
def check_identity(ctx: CheckContext) -> Outcome:
    residual = sp.simplify(x**2 + y**2 - 2 * x * y - (x - y) ** 2)
    verdict = Verdict.PROVED if residual == 0 else Verdict.REFUTED
    return Outcome(
        verdict,
        f"residual simplifies to {residual}",
        {"residual": symbolic_evidence(residual), "method": "sympy.simplify"},
        derivation=f"$$x^2 + y^2 - 2xy - (x - y)^2 = {sp.latex(residual)}$$",
    )


@my_claim(
    "mine.square-exceeds",
    statement="x² ≥ x for every real x",
    reading="for every rational x",
)
def check_square(ctx: CheckContext) -> Outcome:
    rng = ctx.rng(0)
    for _ in range(1000):  # floating point proposes, exact arithmetic decides
        candidate = Fraction(float(rng.uniform(-2, 2))).limit_denominator(100)
        if candidate**2 < candidate:
            return Outcome(
                Verdict.REFUTED,
                f"x = {candidate} gives x² = {candidate**2} < x",
                {"x": str(candidate), "x_squared": str(candidate**2), "seed": ctx.seed},
            )
    return Outcome(Verdict.INCONCLUSIVE, "no counterexample among 1000 candidates", {})


def main() -> int:
    report = moetheory.verify(["mine.*"], seed=0)
    for entry in report["claims"]:
        print(f"{entry['id']}: {entry['verdict']} — {entry['summary']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
