"""Checks of Nguyen et al. (2025), *Statistical Advantages of Perturbing Cosine Router in
Mixture of Experts* (seed 002, the paper) and of the authors' rebuttal (seed 000)."""
