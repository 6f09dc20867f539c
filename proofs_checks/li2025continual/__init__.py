"""Checks of Li et al. (2025), *Theory on Mixture-of-Experts in Continual Learning* (seed 003,
a Chinese machine translation of the paper)."""
