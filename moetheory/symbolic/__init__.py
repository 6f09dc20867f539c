"""The symbolic core: routers, experts, the parameter-interaction PDE, identifiability.

Everything here is exact (SymPy, exact rationals, mpmath at high precision as a cross-check):

- :mod:`~moetheory.symbolic.routers` and :mod:`~moetheory.symbolic.experts`: the router scores
  and expert families of the papers, ``H = exp(score) h(x, eta)``;
- :mod:`~moetheory.symbolic.pde`: the first-order interaction ``beta_1^T dH/dbeta_1 = 0``
  (eq. 4) decided in every input dimension;
- :mod:`~moetheory.symbolic.interactions` and :mod:`~moetheory.symbolic.atlas`: every linear
  PDE relation among H's derivatives, for any router and expert;
- :mod:`~moetheory.symbolic.linear_independence`, :mod:`~moetheory.symbolic.identifiability`
  and :mod:`~moetheory.symbolic.pole_route`: strong identifiability with a certificate either
  way;
- :mod:`~moetheory.symbolic.exact`: exact arithmetic and the checks' certificates.

The modules are imported on use; importing this package imports none of them.
"""
