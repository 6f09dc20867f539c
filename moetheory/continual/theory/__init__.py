r"""Closed forms of the continual-learning MoE paper (seed 003), as written and corrected.

Every formula of Proposition 4 (eqs. (17)-(18)), Theorem 1 (eqs. (19)-(20)) and Theorem 2
(eqs. (21)-(22)) as written -- one function per plausible reading of the garbled parts --
plus the exact expectations derived independently from the single-expert recursion of
eq. (5), the projection mean of Lemma 16, the routing probabilities of Lemma 2 (Appendix B)
and the coverage probabilities of Lemma 11.

Notation: :math:`r = 1 - s/d` (over-parameterisation ratio), :math:`S = \sum_n \|w_n\|^2`
and :math:`D = \sum_{n, n'} \|w_{n'} - w_n\|^2` over *ordered* pairs (the diagonal
contributes 0). The seed writes the pair sum as :math:`\sum_{n=n'}`; :data:`PAIR_READINGS` lists
its readings.

The names are defined in private modules, one job each, and re-exported here:
``_notation`` (symbols, readings, the moments of ground truths), ``_sums`` (geometric sums in
closed form), ``_exact`` (the exact single-expert expectations), ``_definition1`` (the
same under Definition 1's features), ``_prop4`` (Proposition 4
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

from moetheory.continual.theory import (
    _bounds,
    _definition1,
    _exact,
    _lemmas,
    _notation,
    _prop4,
    _statements,
)
from moetheory.continual.theory._bounds import *  # noqa: F403
from moetheory.continual.theory._definition1 import *  # noqa: F403
from moetheory.continual.theory._exact import *  # noqa: F403
from moetheory.continual.theory._lemmas import *  # noqa: F403
from moetheory.continual.theory._notation import *  # noqa: F403
from moetheory.continual.theory._notation import _l  # noqa: F401  (the summation index; tests use it)
from moetheory.continual.theory._prop4 import *  # noqa: F403
from moetheory.continual.theory._statements import *  # noqa: F403
from moetheory.continual.theory._sums import _geometric  # noqa: F401  (tests use it)

#: The public names: each private module's, listed once, there.
__all__ = sorted(
    name
    for module in (_bounds, _definition1, _exact, _lemmas, _notation, _prop4, _statements)
    for name in module.__all__
)
