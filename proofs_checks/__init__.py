"""The checks of the claim catalogue: one package per paper, one module per section of it.

- :mod:`proofs_checks.jacobs1991adaptive`: Jacobs, Jordan, Nowlan & Hinton (1991);
- :mod:`proofs_checks.nguyen2025cosine`: Nguyen et al. (2025), the perturbed cosine router,
  with the authors' rebuttal;
- :mod:`proofs_checks.li2025continual`: Li et al. (2025), MoE in continual learning.

Each package imports its modules, and each module registers its checks with
:func:`moetheory.claim` when imported; a module run as a script
(``python -m proofs_checks.nguyen2025cosine.routers_pde`` or
``python proofs_checks/nguyen2025cosine/routers_pde.py``) verifies its claims and prints the
Markdown report. The packages match the chapters of the documentation.
"""
