"""Use moetheory's Hypothesis strategies in your own property tests.

The cosine router's score s = β1ᵀx / (‖β1‖‖x‖) is invariant under β1 -> cβ1 (c > 0), which
is why β1ᵀ∂H/∂β1 = 0 (eq. 4); the perturbed router's score is not, and Hypothesis finds a
counterexample. Run with ``python examples/property_test.py`` or with pytest.
"""

import sys

import numpy as np
from hypothesis import find, given, settings
from hypothesis import strategies as st

from moetheory.strategies import RouterParams, dimensions, inputs, router_params


def score(p: RouterParams, x: np.ndarray, scale: float = 1.0) -> float:
    """Perturbed cosine score of eq. (2) at parameters ``scale * beta1``."""
    b = scale * p.beta1
    return float(b @ x / ((np.linalg.norm(b) + p.tau1) * (np.linalg.norm(x) + p.tau2)))


def router_and_input(cosine: bool) -> st.SearchStrategy:
    """Router parameters and an input of the same, drawn, dimension (a shared strategy)."""
    d1 = st.shared(dimensions(1, 4), key="d1")
    return st.tuples(router_params(d1, cosine=cosine), inputs(d1))


@settings(max_examples=100, deadline=None)
@given(router_and_input(cosine=True), st.floats(0.01, 100.0))
def test_cosine_score_scale_invariant(args: tuple[RouterParams, np.ndarray], c: float) -> None:
    p, x = args
    assert abs(score(p, x, c) - score(p, x)) <= 1e-12


def test_perturbed_score_not_scale_invariant() -> None:
    p, x = find(
        router_and_input(cosine=False),
        lambda args: abs(score(*args, 2.0) - score(*args)) > 1e-6,
        settings=settings(database=None),
    )
    assert abs(score(p, x, 2.0) - score(p, x)) > 1e-6
    print(f"counterexample: beta1={p.beta1}, tau1={p.tau1}, tau2={p.tau2}, x={x}")


if __name__ == "__main__":
    test_cosine_score_scale_invariant()
    print("cosine router: scale invariance holds on 100 drawn cases")
    test_perturbed_score_not_scale_invariant()
    sys.exit(0)
