"""Checks of Jacobs, Jordan, Nowlan & Hinton (1991), *Adaptive Mixtures of Local Experts*, as
summarised by the review of seed 001, one module per section of the paper:

- :mod:`~proofs_checks.jacobs1991adaptive.error_functions`: §1–2, the error functions
  (eqs. 1.1–1.3) and their gradients (eqs. 1.4, 1.5);
- :mod:`~proofs_checks.jacobs1991adaptive.vowels`: §3–4, the multi-speaker vowel experiment;
- :mod:`~proofs_checks.jacobs1991adaptive.efficiency`: the review's statements on
  computational cost.
"""

from proofs_checks.jacobs1991adaptive import (  # noqa: F401  (each module registers its checks)
    efficiency,
    error_functions,
    vowels,
)
