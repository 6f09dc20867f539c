"""The checks of the claim catalogue, one module per paper section.

Each module registers its checks with :func:`moetheory.claim` when imported, and runs them
when executed as a script (``python -m proofs_checks.nguyen2025cosine.routers_pde`` or
``python proofs_checks/nguyen2025cosine/routers_pde.py``), printing the Markdown report of its
claims.
"""
