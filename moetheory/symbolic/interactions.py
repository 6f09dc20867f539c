r"""Parameter-interaction PDEs of any router with any expert: every linear relation

.. math:: \sum_{|\alpha| \le r} c_\alpha(\theta)\,\partial^\alpha_\theta H(x, \theta) = 0
          \quad\text{for all } x,
          \qquad H(x, \theta) = G(x, \theta_{\mathrm{router}})\,h(x, \theta_{\mathrm{expert}}),

among the partial derivatives of :math:`H` in *all* parameters :math:`\theta` up to order
:math:`r` (multi-index, i.e. set, semantics: mixed partials commute). Such relations are the
"parameter interactions" of seed 002 (eq. (4) for the cosine router) and of Nguyen et al.
(2024c) (:math:`\partial^2 H/\partial\beta_1\partial b = \partial H/\partial a` for the linear
router with ridge experts). Each one makes the Taylor terms of a mixture linearly dependent.

Coefficient ring
----------------
:math:`c_\alpha` are searched in the field :math:`\mathbb Q(\theta)` of rational functions of
the parameters, extended by the parameter norm :math:`\|\beta_1\|` when the router uses it
(:math:`\mathbb Q(\theta)[\|\beta_1\|]`), and never depending on :math:`x`; every relation is
printed with its denominators cleared, i.e. with coefficients that are polynomials in the
parameters (and :math:`\|\beta_1\|`) with rational coefficients. Hyper-parameters
(:math:`\tau_1, \tau_2`, the temperature) stay symbols: the relations hold for every value.

Method (sound and complete)
---------------------------
1. Transcendental pieces become *kernels* with their derivative rules (:math:`e^w`,
   :math:`\tanh w`, :math:`\mathrm{erf}\,w`, the Gaussian :math:`\frac{2}{\sqrt\pi}e^{-w^2}`,
   :math:`\tan w` (:math:`\sin` and :math:`\cos` are rational in :math:`\tan(w/2)`),
   :math:`\log w`, an arbitrary expert :math:`h` and its derivatives; :math:`\sinh`,
   :math:`\cosh` through :math:`e^w`); radicals
   :math:`\sqrt{\sum_i (x_i - c_i)^2}` and :math:`\sqrt{\sum_i \beta_i^2}` become symbols
   :math:`r` with :math:`r^2` the radicand. After differentiation each
   :math:`\partial^\alpha H` is a rational function of :math:`x`, the kernels and the radicals
   over :math:`\mathbb Q(\theta)`.
2. Kernels are algebraically independent over :math:`\mathbb Q(\theta)(x)` for parameters
   outside a null set (their exponents are :math:`\mathbb Q`-linearly independent modulo
   constants; Ax's theorem), so a relation holds identically iff it holds at every rational
   point of :math:`(x, \text{kernels})` where the radical in :math:`x` is rational
   (:math:`x = c + \rho\,\omega(\sigma)`, :math:`\omega` the stereographic unit vector). The
   parameter radical is removed by the birational change :math:`\beta_1 = \nu\,\omega(\sigma)`.
3. The null space of the matrix of values at :math:`N + 4` points (exact, over
   :math:`\mathbb Q(\theta)` with :class:`~sympy.polys.matrices.DomainMatrix`) contains every
   relation. Each basis vector is then **verified**: the combination, as one fraction, has a
   numerator whose remainder modulo :math:`r^2 - \text{radicand}` is the zero polynomial. If a
   vector fails, more points are added. So the returned relations hold (certificate), and
   there are no others.
4. Relations implied by lower-order ones (their derivatives :math:`\partial_p R`) are separated
   from the new ones ("generators").
5. General dimension: all ready-made routers and experts are invariant under simultaneous
   rotations of :math:`x` and the parameter vectors, so a relation written with free indices
   ("for every :math:`i`", "for every :math:`i \ne j`") or contracted indices
   (:math:`\sum_i`) is, in Gram coordinates, affine in :math:`d` (at most one trace per term).
   With at most three vectors, exact checks in :math:`d = 3` and :math:`d = 4` prove it for
   every :math:`d \ge 3`; :math:`d = 1, 2` are checked exactly too (:func:`lift`).

Limits
------
Supported pieces: exp, sinh, cosh, tanh, erf (GELU), sin, cos, tan, log, rational functions
with rational coefficients, at most one radical in :math:`x` (of the form
:math:`\|x - c\|`) and one parameter norm, undefined expert functions, and piecewise experts
(ReLU, Abs, Max) whose pieces are open sets (a piece SymPy proves empty is dropped);
anything else (another function, a power with a symbolic exponent, a cube root, an
irrational constant) is refused with a one-line :class:`UnsupportedExpression` (a
``ValueError``) naming it. Dimension :math:`d \le 4`, order :math:`\le 3`; custom specs
(:func:`custom_router`, :func:`custom_expert`) live in one fixed dimension. Derivatives of
kinks (DiracDelta terms of :math:`|x - \beta|`, sign, Heaviside) are dropped: relations are
claimed on the open pieces. ``timeout=`` bounds the search (:class:`SearchTimeout`).
Whether the genericity assumptions hold (kernels algebraically independent, every piece
non-empty) is checked by :func:`moetheory.symbolic.relations.find_relations`, which turns
the search into a verdict with its scope. A relation whose indices are neither free nor one
contraction (for instance the second-order relation of the perturbed router in :math:`d = 2`,
whose coefficients involve :math:`\beta_1\beta_1^\top`) is reported, exactly, for the
discovery dimension only; that one has a closed form in every dimension,
:func:`perturbed_ridge_relation`, verified by :func:`perturbed_ridge_certificate`.

Layout
------
This module is the public face; the code lives in private modules of
:mod:`moetheory.symbolic.relations` with one job each: ``_specs`` (routers and experts),
``_relations`` (the results), ``_setup`` (kernels, radicals, the exact check), ``_sampling``
(exact values and null spaces), ``_search`` (:func:`interactions`) and ``_lift``
(:func:`lift` and the perturbed router's closed form).

References
----------
Seed 002, eq. (4) and eq. (8); Nguyen, Ho, Rinaldo (2024c), softmax gating and ridge experts.
J. Ax, "On Schanuel's conjectures", Ann. Math. 93 (1971).

Examples
--------
>>> res = interactions(ROUTERS["cosine"], EXPERTS["generic"], order=1, d=2)
>>> [r.text for r in res.relations]
['beta1_1*H_{beta1_1} + beta1_2*H_{beta1_2} = 0']
>>> interactions(ROUTERS["perturbed"], EXPERTS["generic"], order=1, d=2).relations
[]
"""

from __future__ import annotations

from moetheory.symbolic.relations._budget import SearchTimeout
from moetheory.symbolic.relations._lift import (
    lift,
    perturbed_ridge_certificate,
    perturbed_ridge_relation,
)
from moetheory.symbolic.relations._relations import InteractionResult, Relation
from moetheory.symbolic.relations._search import interactions
from moetheory.symbolic.relations._setup import UnsupportedExpression
from moetheory.symbolic.relations._specs import (
    EXPERTS,
    ROUTERS,
    TEMPERATURE,
    ExpertSpec,
    RouterSpec,
    coordinates,
    custom_expert,
    custom_router,
    symbol_latex,
)
from moetheory.symbolic.relations._specs import RIDGE_ANY_PHI as RIDGE_ANY_PHI

__all__ = [
    "EXPERTS",
    "ROUTERS",
    "TEMPERATURE",
    "ExpertSpec",
    "InteractionResult",
    "Relation",
    "RouterSpec",
    "SearchTimeout",
    "UnsupportedExpression",
    "coordinates",
    "custom_expert",
    "custom_router",
    "interactions",
    "lift",
    "perturbed_ridge_certificate",
    "perturbed_ridge_relation",
    "symbol_latex",
]
