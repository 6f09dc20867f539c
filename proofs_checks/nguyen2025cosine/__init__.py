"""Checks of Nguyen et al. (2025), *Statistical Advantages of Perturbing Cosine Router in
Mixture of Experts* (seed 002, the paper) and of the authors' rebuttal (seed 000)."""

from proofs_checks.nguyen2025cosine import (  # noqa: F401  (each module registers its checks)
    estimation,
    identifiability,
    rates_experiments,
    rebuttal,
    routers_pde,
)
