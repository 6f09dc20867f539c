"""Decisions of statistical claims: one framework for every Monte Carlo comparison.

How a check uses it (the whole API):

1. **Estimate** each quantity with an interval that fits it
   (private module ``_intervals``, re-exported here): :func:`mean_ci` (Student-t, clipped
   to the quantity's ``bounds``), :func:`proportion_ci` (Clopper-Pearson),
   :func:`betting_ci` (bounded quantities; exact at any level and valid at every look),
   :func:`bootstrap_ci` (BCa, moderate levels only).
2. **Decide** each comparison with one of four rules, with a tolerance fixed in the code
   before any data is seen:

   * :func:`compare` (equivalence, reference ``r``, tolerance ``t``): ``supported`` iff
     ``r - t <= low`` and ``high <= r + t``; ``unsupported`` iff ``high < r - t`` or
     ``low > r + t``;
   * :func:`at_most` (bound ``b``): ``supported`` iff ``high <= b + t``; ``unsupported``
     iff ``low > b + t``;
   * :func:`at_least` (bound ``b``): ``supported`` iff ``low >= b - t``; ``unsupported``
     iff ``high < b - t``;
   * :func:`greater` (threshold ``c``, smallest meaningful effect ``e``): ``supported`` iff
     ``low > c``; otherwise ``unsupported`` iff ``high < c + e``;

   and ``inconclusive`` otherwise: a wide interval can never support a claim.
3. **Combine** the comparisons of a claim with :func:`combine` (any ``unsupported`` wins,
   then any ``inconclusive``).
4. **Replicate adaptively** with :func:`run_sequential` and a :class:`Budget` set by the
   profile: batches of replicates until the claim is decided or the budget is spent; each
   look's intervals use ``alpha / max_looks`` (Bonferroni over the looks fixed in advance),
   or the full ``alpha`` for anytime-valid intervals.
5. **Print** every estimate through :func:`stable` (4 significant digits; :func:`stable_tree`
   for a whole evidence structure), and put
   ``Comparison.to_dict()`` in the evidence: it names the rule, estimate, interval method,
   level, alpha, n and tolerance.

6. **Report** a claim checked under several readings with :func:`readings_outcome`: one
   reading per entry (name, comparisons, evidence, derivation), primary first; its
   comparisons go into the evidence as rows (:func:`comparison_rows`) and as a Markdown table
   (:func:`comparisons_markdown`).

7. **Size replicates from a pilot** (issue 32): :func:`plan_from_pilot` sizes a main run
   from a pilot's comparisons within a budget of replicates (:func:`needed_factor`), and
   :func:`power_note` says what would decide an ``inconclusive`` verdict. A check states its
   budgets (an :class:`Allowance` from its table) and its pilot, and :func:`sized_run` plans
   it, with a fresh second look when the check has two (:class:`Looks`, :class:`Sizing`);
   :func:`sized_reading` also runs the deciding run and judges it.

8. **Check a closed form** for an expectation in one call: :func:`check_expectation`
   (sequential, equivalence rule, the draws that would decide an inconclusive result;
   Student-t decisions only where tail diagnostics trust them, empirical Bernstein with
   declared ``bounds``) and :func:`required_n` (the budget, from a pilot).

The run's family level :data:`FAMILY_ALPHA` is shared among statistical claims by the
engine; a claim shares its ``ctx.alpha`` among its own comparisons (Bonferroni).
"""

from __future__ import annotations

from moetheory.engine.levels import FAMILY_ALPHA, claim_alpha
from moetheory.stats._design import (
    LOOKS,
    SECOND_LOOK,
    Allowance,
    Budgets,
    Looks,
    Sizing,
    sized_reading,
    sized_run,
)
from moetheory.stats._intervals import (
    INTERVAL_METHODS,
    MeanEstimate,
    betting_ci,
    bootstrap_ci,
    mean_ci,
    proportion_ci,
)
from moetheory.stats._power import (
    Plan,
    Spec,
    clip_replicates,
    comparison_factor,
    decide_all,
    edge_note,
    needed_factor,
    plan_from_pilot,
    power_note,
    spec_factor,
    specs_factor,
)
from moetheory.stats._readings import (
    ReadingData,
    comparison_rows,
    comparisons_markdown,
    comparisons_summary,
    readings_outcome,
)
from moetheory.stats._rounding import stable, stable_tree
from moetheory.stats._rules import (
    RULES,
    Comparison,
    Label,
    at_least,
    at_most,
    claimed_values,
    combine,
    compare,
    greater,
)
from moetheory.stats._sequential import Budget, SequentialResult, run_sequential
from moetheory.stats.expectation import ExpectationResult, check_expectation, required_n

__all__ = [
    "FAMILY_ALPHA",
    "INTERVAL_METHODS",
    "LOOKS",
    "RULES",
    "SECOND_LOOK",
    "Allowance",
    "Budget",
    "Budgets",
    "Comparison",
    "ExpectationResult",
    "Label",
    "Looks",
    "MeanEstimate",
    "Plan",
    "ReadingData",
    "SequentialResult",
    "Sizing",
    "Spec",
    "at_least",
    "at_most",
    "betting_ci",
    "bootstrap_ci",
    "check_expectation",
    "claim_alpha",
    "claimed_values",
    "clip_replicates",
    "combine",
    "compare",
    "comparison_factor",
    "comparison_rows",
    "comparisons_markdown",
    "comparisons_summary",
    "decide_all",
    "edge_note",
    "greater",
    "mean_ci",
    "needed_factor",
    "plan_from_pilot",
    "power_note",
    "proportion_ci",
    "readings_outcome",
    "required_n",
    "run_sequential",
    "sized_reading",
    "sized_run",
    "spec_factor",
    "specs_factor",
    "stable",
    "stable_tree",
]
