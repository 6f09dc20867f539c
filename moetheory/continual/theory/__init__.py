"""Closed forms of the continual-learning MoE paper (seed 003), as written and corrected.

Every formula of Proposition 4 (eqs. (17)-(18)), Theorem 1 (eqs. (19)-(20)) and Theorem 2
(eqs. (21)-(22)) as written -- one function per plausible reading of the garbled parts --
plus the exact expectations derived independently from the single-expert recursion of
eq. (5), the projection mean of Lemma 16, the routing probabilities of Lemma 2 (Appendix B)
and the coverage probabilities of Lemma 11.

Notation: ``r = 1 - s/d`` (over-parameterisation ratio), ``S = sum_n ||w_n||^2`` and
``D = sum_{n, n'} ||w_n' - w_n||^2`` over *ordered* pairs (the diagonal contributes 0).
The seed writes the pair sum as "sum_{n=n'}"; :data:`PAIR_READINGS` lists its readings.

The names are defined in private modules, one job each, and re-exported here:
``_notation`` (symbols, readings, the moments of ground truths), ``_sums`` (geometric sums in
closed form), ``_exact`` (the exact single-expert expectations), ``_prop4`` (Proposition 4
as written), ``_lemmas`` (Lemmas 2, 11 and 16), ``_statements`` (Theorems 1-2 in SymPy) and
``_bounds`` (Theorems 1-2 evaluated on simulated routing); ``_docs`` holds the docstring
sections several of them share.

Examples
--------
>>> import sympy as sp
>>> sp.simplify(exact_generalization_expr().subs(T, 1) - r * S / N)
0
"""

from __future__ import annotations

from moetheory.continual.theory._bounds import (
    _check_bound_inputs,  # noqa: F401  (kept: a name of the former module)
    _own_counts,  # noqa: F401  (kept: a name of the former module)
    _s_d,  # noqa: F401  (kept: a name of the former module)
    expert_counts,
    psi1,
    psi2,
    thm1_forgetting_bound,
    thm1_generalization_bound,
    thm2_forgetting_bound,
    thm2_generalization_bound,
)
from moetheory.continual.theory._exact import (
    _error_function,  # noqa: F401  (kept: a name of the former module)
    appendix_h_literal_summand,
    exact_forgetting,
    exact_forgetting_expr,
    exact_generalization,
    exact_generalization_expr,
    expected_error_expr,
    single_expert_exact_moments,
)
from moetheory.continual.theory._lemmas import (
    _check_coverage_args,  # noqa: F401  (kept: a name of the former module)
    coverage_probability_exact,
    coverage_product_step,
    coverage_union_bound,
    projection_mean_definition1,
    routing_probabilities_exact,
)
from moetheory.continual.theory._notation import (
    FORGETTING_READINGS,
    GENERALIZATION_READINGS,
    PAIR_READINGS,
    D,
    N,
    S,
    T,
    _check_t,  # noqa: F401  (kept: a name of the former module)
    _ground_truths,  # noqa: F401  (kept: a name of the former module)
    _i,  # noqa: F401  (kept: a name of the former module)
    _l,  # noqa: F401  (kept: a name of the former module)
    _moments,  # noqa: F401  (kept: a name of the former module)
    _tau,  # noqa: F401  (kept: a name of the former module)
    overparam_ratio,
    pair_gap_sum,
    r,
    t,
)
from moetheory.continual.theory._prop4 import (
    prop4_forgetting,
    prop4_forgetting_expr,
    prop4_forgetting_summand,
    prop4_forgetting_value,
    prop4_generalization,
    prop4_generalization_expr,
)
from moetheory.continual.theory._statements import (
    T1,
    L,
    Psi1,
    Psi2,
    thm1_forgetting_bound_expr,
    thm1_generalization_bound_expr,
    thm2_forgetting_bound_expr,
    thm2_generalization_bound_expr,
)
from moetheory.continual.theory._sums import (
    _collect_sd,  # noqa: F401  (kept: a name of the former module)
    _geometric,  # noqa: F401  (kept: a name of the former module)
    _ratio,  # noqa: F401  (kept: a name of the former module)
)

__all__ = [
    "FORGETTING_READINGS",
    "GENERALIZATION_READINGS",
    "PAIR_READINGS",
    "T1",
    "D",
    "L",
    "N",
    "Psi1",
    "Psi2",
    "S",
    "T",
    "appendix_h_literal_summand",
    "coverage_probability_exact",
    "coverage_product_step",
    "coverage_union_bound",
    "exact_forgetting",
    "exact_forgetting_expr",
    "exact_generalization",
    "exact_generalization_expr",
    "expected_error_expr",
    "expert_counts",
    "overparam_ratio",
    "pair_gap_sum",
    "projection_mean_definition1",
    "prop4_forgetting",
    "prop4_forgetting_expr",
    "prop4_forgetting_summand",
    "prop4_forgetting_value",
    "prop4_generalization",
    "prop4_generalization_expr",
    "psi1",
    "psi2",
    "r",
    "routing_probabilities_exact",
    "single_expert_exact_moments",
    "t",
    "thm1_forgetting_bound",
    "thm1_forgetting_bound_expr",
    "thm1_generalization_bound",
    "thm1_generalization_bound_expr",
    "thm2_forgetting_bound",
    "thm2_forgetting_bound_expr",
    "thm2_generalization_bound",
    "thm2_generalization_bound_expr",
]

