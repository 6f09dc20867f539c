r"""The symbolic core: routers, experts, the parameter-interaction PDE, identifiability.

Everything here is exact (SymPy, exact rationals, mpmath at high precision as a cross-check):

- :mod:`~moetheory.symbolic.routers` and :mod:`~moetheory.symbolic.experts`: the router scores
  and expert families of the papers, ``H = exp(score) h(x, eta)``;
- :mod:`~moetheory.symbolic.pde`: the first-order interaction
  :math:`\beta_1^\top \partial H / \partial \beta_1 = 0`
  (eq. 4) decided in every input dimension;
- :mod:`~moetheory.symbolic.router_pde`: the same interaction decided for one's own router;
- :mod:`~moetheory.symbolic.interactions`, :mod:`~moetheory.symbolic.relations` and
  :mod:`~moetheory.symbolic.atlas`: every linear PDE relation among H's derivatives, for any
  router and expert;
- :mod:`~moetheory.symbolic.linear_independence`, :mod:`~moetheory.symbolic.identifiability`,
  :mod:`~moetheory.symbolic.identifiable` and :mod:`~moetheory.symbolic.pole_route`: strong
  identifiability with a certificate either way;
- :mod:`~moetheory.symbolic.exact`: exact arithmetic and the checks' certificates.

Layout: one module per public face. An engine whose code spans several private modules is a
subpackage whose ``__init__`` is its public module and whose private modules sit beside it
(no ``_<engine>_*`` families at this level):

- ``router_pde/``: ``_deadline`` (the time limit), ``_decide`` (the two routes), ``_invariants``
  (the score in scale invariants), ``_pieces`` (piecewise scores, regions, certificates) and
  ``_render`` (text, Markdown, LaTeX);
- ``relations/``: ``_specs`` (routers and experts), ``_relations`` (the results), ``_setup``
  (kernels, radicals, the exact check), ``_sampling`` (exact values, null spaces), ``_search``
  (the search), ``_completeness``, ``_lift`` (every dimension), ``_budget`` (the time limit)
  and ``_check`` (the independent numerical check); :mod:`~moetheory.symbolic.interactions`
  and :mod:`~moetheory.symbolic.atlas` stay public modules here, built on it;
- ``identifiability/``: ``_domain`` (generic atoms, the parameters' declared facts,
  analyticity in the parameters);
- ``linear_independence/``: ``_numeric`` (regions, the declared interval, sample points and
  the value matrix in mpmath).

Shared private modules stay at this level: ``_time_limit`` (the one time-limit mechanism),
``_docs`` (shared references) and ``_interval_eval`` (interval arithmetic of
:mod:`~moetheory.symbolic.linear_independence`).

The modules are imported on use; importing this package imports none of them.
"""
