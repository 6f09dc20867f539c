"""Your claims in your pytest suite (pytest collects ``*_test.py`` and ``test_*.py``).

With moetheory installed, pytest loads its plugin: every ``@claim`` check of this file is a
test that passes on proved / supported and fails on refuted / unsupported with the summary
and counterexample; inconclusive is skipped (``--moetheory-inconclusive=fail`` to fail).
Plain tests use ``assert_verdict`` and the fixtures ``moetheory_ctx`` and
``moetheory_claims``.

Usage: ``pytest examples/own_claims_test.py -v`` (add ``-p moetheory.testing._plugin`` if the
package is not installed, e.g. run from a source tree); ``--moetheory-seed 3``,
``--moetheory-profile full``.
"""

import sympy as sp

from moetheory import Outcome, Verdict, claim
from moetheory.stats import check_expectation
from moetheory.testing import assert_verdict

b = sp.symbols("b1:3", real=True)


@claim("mine.softmax-gates-sum", statement="two softmax gates sum to 1")
def gates_sum(ctx):
    gates = [sp.exp(bi) / sum(sp.exp(bj) for bj in b) for bi in b]
    residual = sp.simplify(sum(gates) - 1)
    return Outcome(Verdict.PROVED if residual == 0 else Verdict.REFUTED,
                   f"sum of gates - 1 simplifies to {residual}", {"residual": residual})


def relu_of_normal(rng, n):
    return rng.standard_normal(n).clip(min=0)


@claim("mine.relu-mean", statement="E[max(Z, 0)] = 1/√(2π)", kind="statistical")
def relu_mean(ctx):
    return check_expectation(relu_of_normal, 1 / sp.sqrt(2 * sp.pi), tol=0.01,
                             ctx=ctx).to_outcome()


def test_a_wrong_closed_form_is_unsupported(moetheory_ctx):
    result = check_expectation(relu_of_normal, sp.Rational(1, 2), tol=0.01, ctx=moetheory_ctx)
    assert_verdict(result, expected="unsupported")


def test_a_claim_registered_for_one_test(moetheory_claims):
    @moetheory_claims("mine.gates-positive", statement="a softmax gate is positive")
    def positive(ctx):
        gate = sp.exp(b[0]) / (sp.exp(b[0]) + sp.exp(b[1]))
        return Outcome(Verdict.PROVED if gate.is_positive else Verdict.INCONCLUSIVE, "sign")

    assert_verdict("mine.gates-positive")
