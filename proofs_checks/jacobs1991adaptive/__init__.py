"""Checks of Jacobs, Jordan, Nowlan & Hinton (1991), *Adaptive Mixtures of Local Experts*, as
summarised by the review of seed 001."""

from proofs_checks.jacobs1991adaptive import (  # noqa: F401  (each module registers its checks)
    checks,
)
