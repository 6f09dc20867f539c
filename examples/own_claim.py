"""Your own closed form, checked by Monte Carlo: a statistical claim in a plain file.

Two experts with independent standard normal router scores: the winning score has mean
1/√π. A tempting slip, √(2/π), is E|Z|. Each claim is a few lines: a sampler, the closed
form, a tolerance; ``check_expectation`` draws until the interval decides (or says how many
draws would) and the context gives the claim its seed and share of the error level.

Usage: ``python examples/own_claim.py``, ``moetheory verify --checks examples/own_claim.py``
or ``pytest examples/own_claim.py`` (the plugin makes each claim a test).
"""

import sympy as sp

from moetheory import claim
from moetheory.stats import check_expectation


def top_score(rng, n):
    return rng.standard_normal((n, 2)).max(axis=1)


@claim("mine.top-score", statement="E[max(Z1, Z2)] = 1/√π", kind="statistical")
def top2_score(ctx):
    return check_expectation(top_score, 1 / sp.sqrt(sp.pi), tol=0.02, ctx=ctx).to_outcome()


@claim("mine.top-score-slip", statement="E[max(Z1, Z2)] = √(2/π)", kind="statistical")
def top2_score_slip(ctx):
    return check_expectation(top_score, sp.sqrt(2 / sp.pi), tol=0.02, ctx=ctx).to_outcome()


if __name__ == "__main__":
    import moetheory

    for entry in moetheory.verify("mine.top-score*")["claims"]:
        print(f"{entry['id']}: {entry['verdict']} — {entry['summary']}")
