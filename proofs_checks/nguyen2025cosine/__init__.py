"""Checks of Nguyen et al. (2025), *Statistical Advantages of Perturbing Cosine Router in
Mixture of Experts* (seed 002, the paper) and of the authors' rebuttal (seed 000).

One module per section of the paper's documentation (:data:`moetheory.engine.papers.PAPERS`):
:mod:`.routers_pde`, :mod:`.identifiability`, :mod:`.identifiability_two_layer`,
:mod:`.voronoi_losses`, :mod:`.rate_inferences` and :mod:`.rates` (the rates section: its
exact inferences, then its experiments), :mod:`.rebuttal` and :mod:`.proof_facts` (the general
facts the proofs invoke); the machinery they share is in
the private modules (``_common``, ``_pde_evidence``, ``_ident_common``, ``_rates_plan``,
``_dense_rates``, ``_variant_rates``).
"""

from proofs_checks.nguyen2025cosine import (  # noqa: F401  (each module registers its checks)
    identifiability,
    identifiability_two_layer,
    proof_facts,
    rate_inferences,
    rates,
    rebuttal,
    routers_pde,
    voronoi_losses,
)
