"""Checks of Li et al. (2025), *Theory on Mixture-of-Experts in Continual Learning* (seed 003,
a Chinese machine translation of the paper), one module per section of the paper."""

from proofs_checks.li2025continual import (  # noqa: F401  (each module registers its checks)
    experiments,
    experts,
    forgetting,
    lemmas,
    proof_facts,
    proofs,
    setup,
    training,
)
