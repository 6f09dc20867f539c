"""Voronoi cells (eq. 5 of seed 002) and the Voronoi losses between mixing measures.

* :func:`voronoi_cells` -- ``A_j(G) = {i : ||w_i - w*_j|| <= ||w_i - w*_l|| for all l != j}``
  with atoms ``w = (beta1, eta)``. As written, with ``<=``, an atom equidistant from two
  true atoms lies in both cells, so the cells need not be a partition.
* :func:`voronoi_loss` -- ``L_{1,r}`` of Section 2 of seed 002.
* :func:`voronoi_loss_2` -- ``L_2`` of seed 000, Q1 (without the Top-K maximum): exponent 1
  on cells holding one atom, exponent 2 on cells holding several.
* :func:`voronoi_terms_2` and :func:`sparse_voronoi_loss` -- the per-true-atom terms of
  ``L_2`` and the Top-K sparse loss of seed 000 (Q1, L75): the maximum over the K-subsets of
  true atoms of the sum of their terms, i.e. the sum of the K largest terms.
* :func:`canonical_form` -- the representative of G modulo the invariances of the regression
  function (common shift of ``beta0``; for the cosine router the scale of each ``beta1``; for
  the linear router a common shift of ``beta1``; for the perturbed router a common shift of
  ``beta1 / (||beta1|| + tau1)``), so that losses measure identifiable error.

Seed 002 is the paper in the References of :func:`voronoi_cells` (Nguyen et al., ICLR 2025).
"""

from __future__ import annotations

import numpy as np

from moetheory._doccer import fill_doc
from moetheory.estimation.detmath import det_exp, det_log
from moetheory.estimation.models import ROUTERS, MixingMeasure

__all__ = [
    "canonical_form",
    "cell_group_losses",
    "normalise_masses",
    "sparse_voronoi_loss",
    "voronoi_cells",
    "voronoi_loss",
    "voronoi_loss_2",
    "voronoi_terms_2",
]

#: Docstring parts the losses share (:func:`moetheory._doccer.fill_doc`): the two measures
#: compared, as the only parameters or the first ones, and the error on unequal dimensions.
_DOC_PARTS: dict[str, str] = {
    "measures": """G, G_star : MixingMeasure
    The estimated and the true mixing measure, as in :func:`voronoi_cells`.""",
    "parameters": """Parameters
----------
%(measures)s""",
    "raises": """Raises
------
ValueError
    If the dimensions of ``G`` and ``G_star`` differ.""",
}
_fill_doc = fill_doc(_DOC_PARTS)


def _atoms(G: MixingMeasure) -> np.ndarray:
    return np.concatenate([G.beta1, G.eta], axis=1)


def _check_pair(G: MixingMeasure, G_star: MixingMeasure) -> None:
    if G.d != G_star.d:
        raise ValueError(f"G and G_star must have the same dimension d, got {G.d} and {G_star.d}")


def voronoi_cells(G: MixingMeasure, G_star: MixingMeasure) -> list[np.ndarray]:
    r"""The Voronoi cells ``A_j(G)`` of eq. (5) of seed 002, one index array per true atom.

    Parameters
    ----------
    G : MixingMeasure
        The estimated mixing measure (``k`` atoms).
    G_star : MixingMeasure
        The true mixing measure (``k*`` atoms), of the same input dimension ``d``.

    Returns
    -------
    list of numpy.ndarray of int, length k*
        ``cells[j]`` holds the indices ``i`` of the atoms of ``G`` in :math:`A_j(G)`.

    Raises
    ------
    ValueError
        If ``G`` and ``G_star`` have different input dimensions.

    See Also
    --------
    voronoi_loss, voronoi_loss_2 : the losses summed over these cells.

    Notes
    -----
    With atoms :math:`\omega_i = (\beta_{1i}, \eta_i)`,

    .. math::

        A_j(G) = \{ i : \|\omega_i - \omega^*_j\| \le \|\omega_i - \omega^*_l\|
                 \ \forall l \ne j \}.

    As written, with :math:`\le`, an atom equidistant from two true atoms lies in both
    cells, so the cells need not be a partition (the example shows such a tie).

    References
    ----------
    .. [1] H. Nguyen, P. Akbarian, T. Pham, T. Nguyen, S. Zhang, N. Ho, "Statistical Advantages
       of Perturbing Cosine Router in Mixture of Experts", ICLR 2025, arXiv:2405.14131.

    Examples
    --------
    >>> Gs = MixingMeasure([0.0, 0.0], [[1.0], [-1.0]], [[0.0, 0.0], [0.0, 0.0]])
    >>> G = MixingMeasure([0.0, 0.0, 0.0], [[0.9], [1.1], [0.0]], np.zeros((3, 2)))
    >>> [c.tolist() for c in voronoi_cells(G, Gs)]   # atom 2 is a tie: in both cells
    [[0, 1, 2], [2]]
    """
    _check_pair(G, G_star)
    dist = np.linalg.norm(_atoms(G)[:, None, :] - _atoms(G_star)[None, :, :], axis=2)
    nearest = dist.min(axis=1, keepdims=True)
    member = dist <= nearest
    return [np.flatnonzero(member[:, j]) for j in range(G_star.k)]


def _cell_terms(G: MixingMeasure, G_star: MixingMeasure, r: float | None = None):
    """Per true atom ``j``: the mass term ``|sum_{A_j} w_i - w*_j|`` and the parameter term
    ``sum_{A_j} w_i (||dbeta1_ij||^p + ||deta_ij||^p)``, with ``p = r``, or (``r = None``)
    ``p = 1`` on cells of one atom and ``2`` on larger cells: the one Voronoi loop."""
    cells = voronoi_cells(G, G_star)
    db1 = np.linalg.norm(G.beta1[:, None, :] - G_star.beta1[None, :, :], axis=2)
    deta = np.linalg.norm(G.eta[:, None, :] - G_star.eta[None, :, :], axis=2)
    w, ws = G.weights, G_star.weights
    for j, cell in enumerate(cells):
        power = r if r is not None else 1 if cell.size == 1 else 2
        yield (abs(w[cell].sum() - ws[j]),
               float(np.sum(w[cell] * (db1[cell, j] ** power + deta[cell, j] ** power))))


def _sum_terms(terms) -> float:
    """``sum_j (mass_j + parameters_j)``, accumulated term by term in that order."""
    total = 0.0
    for mass, params in terms:
        total += mass
        total += params
    return float(total)


@_fill_doc
def cell_group_losses(
    G: MixingMeasure, G_star: MixingMeasure, h: np.ndarray, h_star: np.ndarray
) -> tuple[float, float, float, float]:
    r"""The parts of :math:`\mathcal{L}_{1,1}` by parameter group, and the experts as functions.

    Parameters
    ----------
    G, G_star : MixingMeasure
        Estimated and true measure (canonical forms), of the same input dimension.
    h, h_star : ndarray of shapes (k, m) and (k*, m)
        The experts of ``G`` and ``G_star`` on ``m`` evaluation inputs.

    Returns
    -------
    mass, beta1, expert, sup : float
        :math:`\sum_j|\sum_{A_j} w_i - w^*_j|`, :math:`\sum_j\sum_{A_j} w_i
        \|\Delta\beta_{1ij}\|`, :math:`\sum_j\sum_{A_j} w_i\|\Delta\eta_{ij}\|` and
        :math:`\sum_j\sum_{A_j} w_i\max_x|h_i(x)-h^*_j(x)|`.

    %(raises)s

    Notes
    -----
    The cells :math:`A_j` are :func:`voronoi_cells`, the masses :math:`w_i = e^{\beta_{0i}}`.

    See Also
    --------
    voronoi_loss : their total (``r = 1``) without the function part.

    Examples
    --------
    >>> Gs = MixingMeasure([0.0, 0.0], [[1.0], [-1.0]], [[1.0, 0.0], [-1.0, 0.0]])
    >>> G = MixingMeasure([0.0, 0.0], [[1.5], [-1.0]], [[1.0, 0.0], [-1.0, 0.0]])
    >>> cell_group_losses(G, Gs, np.zeros((2, 3)), np.ones((2, 3)))
    (0.0, 0.5, 0.0, 2.0)
    """
    cells = voronoi_cells(G, G_star)
    w, ws = G.weights, G_star.weights
    mass = beta1 = expert = sup = 0.0
    for j, c in enumerate(cells):
        mass += abs(float(w[c].sum()) - float(ws[j]))
        beta1 += float(np.sum(w[c] * np.linalg.norm(G.beta1[c] - G_star.beta1[j], axis=1)))
        expert += float(np.sum(w[c] * np.linalg.norm(G.eta[c] - G_star.eta[j], axis=1)))
        if c.size:
            sup += float(np.sum(w[c] * np.max(np.abs(h[c] - h_star[j : j + 1]), axis=1)))
    return mass, beta1, expert, sup


@_fill_doc
def voronoi_loss(G: MixingMeasure, G_star: MixingMeasure, r: float = 1.0) -> float:
    r"""The Voronoi loss :math:`\mathcal{L}_{1,r}(G, G_*)` of seed 002, Section 2.

    Parameters
    ----------
    %(measures)s
    r : float, optional
        The exponent on the parameter distances, ``r >= 1`` (default 1).

    Returns
    -------
    float
        The loss, :math:`\ge 0`, zero when ``G`` equals ``G_star`` atom for atom.

    Raises
    ------
    ValueError
        If ``r`` is not a finite number ``>= 1``, or the dimensions differ.

    See Also
    --------
    voronoi_cells : the cells :math:`A_j`.
    voronoi_loss_2 : the loss with exponents chosen by cell size.
    canonical_form : apply first, so that the loss measures identifiable error.

    Notes
    -----
    .. math::

        \mathcal{L}_{1,r}(G, G_*) = \sum_{j=1}^{k_*} \Big| \sum_{i \in A_j} e^{\beta_{0i}}
          - e^{\beta^*_{0j}} \Big| + \sum_{j=1}^{k_*} \sum_{i \in A_j} e^{\beta_{0i}}
          \big( \|\Delta\beta_{1ij}\|^r + \|\Delta\eta_{ij}\|^r \big),

    with :math:`\Delta\beta_{1ij} = \beta_{1i} - \beta^*_{1j}` and likewise for
    :math:`\eta`.

    Examples
    --------
    >>> Gs = MixingMeasure([0.0, 0.0], [[1.0], [-1.0]], [[1.0, 0.0], [-1.0, 0.0]])
    >>> voronoi_loss(Gs, Gs)
    0.0
    >>> G = MixingMeasure([0.0, 0.0], [[1.5], [-1.0]], [[1.0, 0.0], [-1.0, 0.0]])
    >>> voronoi_loss(G, Gs, r=2)
    0.25
    """
    if not np.isfinite(r) or r < 1:
        raise ValueError(f"r must be a finite number >= 1, got {r!r}")
    return _sum_terms(_cell_terms(G, G_star, r))


@_fill_doc
def voronoi_loss_2(G: MixingMeasure, G_star: MixingMeasure) -> float:
    r"""The loss :math:`\mathcal{L}_2(G, G_*)` of seed 000 (Q1, dense case).

    %(parameters)s

    Returns
    -------
    float
        :math:`\sum_j T_j`, with the terms of :func:`voronoi_terms_2`.

    %(raises)s

    See Also
    --------
    voronoi_terms_2 : the per-atom terms.
    sparse_voronoi_loss : the Top-K version.

    Notes
    -----
    Exponent 1 on cells holding one fitted atom (exactly specified atoms), exponent 2 on
    cells holding several (over-specified atoms):

    .. math::

        \mathcal{L}_2 = \sum_{j} \Big| \sum_{i \in A_j} e^{\beta_{0i}} - e^{\beta^*_{0j}}
          \Big| + \sum_{j : |A_j| = 1} \sum_{i \in A_j} e^{\beta_{0i}}
          \big(\|\Delta\beta_{1ij}\| + \|\Delta\eta_{ij}\|\big)
          + \sum_{j : |A_j| > 1} \sum_{i \in A_j} e^{\beta_{0i}}
          \big(\|\Delta\beta_{1ij}\|^2 + \|\Delta\eta_{ij}\|^2\big).

    Examples
    --------
    >>> Gs = MixingMeasure([0.0], [[1.0]], [[1.0, 0.0]])
    >>> G = MixingMeasure([np.log(0.5), np.log(0.5)], [[1.1], [0.9]], [[1.0, 0.0], [1.0, 0.0]])
    >>> round(voronoi_loss_2(G, Gs), 6)
    0.01
    """
    return _sum_terms(_cell_terms(G, G_star))


@_fill_doc
def voronoi_terms_2(G: MixingMeasure, G_star: MixingMeasure) -> np.ndarray:
    r"""The term :math:`T_j` of :math:`\mathcal{L}_2` for each true atom ``j``.

    %(parameters)s

    Returns
    -------
    numpy.ndarray of float, shape (k*,)
        :math:`T_1, \dots, T_{k_*}`, each :math:`\ge 0`; they sum to
        :func:`voronoi_loss_2`.

    %(raises)s

    See Also
    --------
    voronoi_loss_2 : their sum.
    sparse_voronoi_loss : the sum of the K largest.

    Notes
    -----
    .. math::

        T_j = \Big| \sum_{i \in A_j} e^{\beta_{0i}} - e^{\beta^*_{0j}} \Big|
          + \sum_{i \in A_j} e^{\beta_{0i}}
          \big( \|\Delta\beta_{1ij}\|^{p_j} + \|\Delta\eta_{ij}\|^{p_j} \big),
        \qquad p_j = \begin{cases} 1 & |A_j| = 1, \\ 2 & |A_j| > 1. \end{cases}

    Examples
    --------
    >>> Gs = MixingMeasure([0.0, 0.0], [[1.0], [-1.0]], [[1.0, 0.0], [-1.0, 0.0]])
    >>> G = MixingMeasure([0.0, 0.0], [[1.5], [-1.0]], [[1.0, 0.0], [-1.0, 0.0]])
    >>> voronoi_terms_2(G, Gs).tolist()
    [0.5, 0.0]
    """
    out = np.zeros(G_star.k)
    for j, (mass, params) in enumerate(_cell_terms(G, G_star)):
        out[j] = mass + params
    return out


@_fill_doc
def sparse_voronoi_loss(G: MixingMeasure, G_star: MixingMeasure, top_k: int) -> float:
    r"""The Top-K sparse loss :math:`\mathcal{L}_2` of seed 000 (Q1, L75).

    Parameters
    ----------
    %(measures)s
    top_k : int
        The number K of experts the gate keeps, ``1 <= top_k <= k*``.

    Returns
    -------
    float
        :math:`\max_{|S| = K} \sum_{j \in S} T_j`.

    Raises
    ------
    ValueError
        If ``top_k`` is not an integer in ``[1, k*]``, or the dimensions differ.

    See Also
    --------
    voronoi_terms_2 : the terms :math:`T_j`.
    voronoi_loss_2 : the dense loss (``top_k = k*``).

    Notes
    -----
    The terms are nonnegative, so the maximum over the K-subsets :math:`S` of true atoms of
    :math:`\sum_{j \in S} T_j` is the sum of the K largest terms; with ``top_k = k*`` it is
    the dense :math:`\mathcal{L}_2`.

    Examples
    --------
    >>> Gs = MixingMeasure([0.0, 0.0], [[1.0], [-1.0]], [[1.0, 0.0], [-1.0, 0.0]])
    >>> G = MixingMeasure([0.0, 0.0], [[1.5], [-0.5]], [[1.0, 0.0], [-1.0, 0.0]])
    >>> sparse_voronoi_loss(G, Gs, 1), sparse_voronoi_loss(G, Gs, 2)
    (0.5, 1.0)
    """
    if not isinstance(top_k, int | np.integer) or not 1 <= top_k <= G_star.k:
        raise ValueError(f"top_k must be an integer in [1, k*] = [1, {G_star.k}], got {top_k!r}")
    terms = np.sort(voronoi_terms_2(G, G_star))[::-1]
    return float(terms[:top_k].sum())


def canonical_form(G: MixingMeasure, router: str, tau1: float = 1.0) -> MixingMeasure:
    r"""Representative of ``G`` modulo the continuous invariances of its regression function.

    * every router: ``beta0 -> beta0 - log sum_i exp(beta0_i)`` (softmax is invariant to a
      common shift, so the masses are normalised to sum to 1);
    * ``"cosine"``: ``beta1_i -> beta1_i / ||beta1_i||`` (the score is invariant to
      ``beta1_i -> c beta1_i``, ``c > 0``; this is the PDE (4));
    * ``"linear"``: ``beta1_i -> beta1_i - sum_j p_j beta1_j`` with ``p`` the normalised masses
      (the softmax is invariant to a common shift of all ``beta1_i``);
    * ``"perturbed"``: the score is :math:`v_i^\top \tilde x` with
      :math:`v_i = \beta_{1i} / (\|\beta_{1i}\| + \tau_1)` and
      :math:`\tilde x = x / (\|x\| + \tau_2)`, linear in :math:`\tilde x`, so a common shift
      :math:`v_i \mapsto v_i + w` (inside the unit ball) leaves :math:`g_G` unchanged; the
      ``beta1`` field of the result holds
      the centred coordinates ``v_i - sum_j p_j v_j``.

    The result is a point of the quotient, to be compared only with other canonical forms.

    Parameters
    ----------
    G : MixingMeasure
        The mixing measure.
    router : {"linear", "cosine", "perturbed"}
        The router whose invariances are quotiented out.
    tau1 : float, optional
        The perturbation :math:`\tau_1 > 0` of the perturbed router (default 1).

    Returns
    -------
    MixingMeasure
        The canonical representative; for ``"perturbed"`` its ``beta1`` field holds the
        centred coordinates :math:`v_i - \sum_j p_j v_j`, not a :math:`\beta_1`.

    Raises
    ------
    ValueError
        If ``router`` is unknown, if a :math:`\beta_{1i} = 0` under the cosine router, or if
        ``tau1 <= 0`` under the perturbed router.

    See Also
    --------
    normalise_masses : the gauge of :math:`\beta_0` alone.
    voronoi_loss : the loss to compute between canonical forms.

    Notes
    -----
    Without this step a loss between raw parameters need not go to 0 as the fit improves:
    under the cosine router the norm of :math:`\beta_{1i}` is not a function of
    :math:`f_G`; under the perturbed router only :math:`\beta_{1i}/(\|\beta_{1i}\|+\tau_1)`
    up to a common shift is.

    Examples
    --------
    >>> G = MixingMeasure([1.0, 1.0], [[2.0, 0.0], [0.0, 3.0]], np.zeros((2, 3)))
    >>> C = canonical_form(G, "cosine")
    >>> C.beta1.tolist(), np.round(C.weights, 3).tolist()
    ([[1.0, 0.0], [0.0, 1.0]], [0.5, 0.5])
    """
    if router not in ROUTERS:
        raise ValueError(f"router must be one of {ROUTERS}, got {router!r}")
    b0 = normalise_masses(G).beta0
    b1 = G.beta1
    if router == "cosine":
        norm = np.linalg.norm(b1, axis=1, keepdims=True)
        if np.any(norm == 0):
            raise ValueError("beta1 must be non-zero for the cosine router (||beta1|| = 0)")
        b1 = b1 / norm
    elif router == "linear":
        b1 = b1 - np.einsum("k,kd->d", det_exp(b0), b1)
    else:
        if not tau1 > 0:
            raise ValueError(f"tau1 must be > 0 for the perturbed router, got {tau1!r}")
        v = b1 / (np.linalg.norm(b1, axis=1, keepdims=True) + tau1)
        b1 = v - np.einsum("k,kd->d", det_exp(b0), v)
    return MixingMeasure(b0, b1, G.eta)


def normalise_masses(G: MixingMeasure) -> MixingMeasure:
    r"""``G`` with ``beta0`` shifted so that the masses sum to 1 (the only gauge fixed).

    Parameters
    ----------
    G : MixingMeasure
        The mixing measure.

    Returns
    -------
    MixingMeasure
        :math:`\beta_{0i} - \log \sum_j e^{\beta_{0j}}`, with ``beta1`` and ``eta`` unchanged.

    See Also
    --------
    canonical_form : also removes the router's invariances.

    Notes
    -----
    The softmax gate is invariant under a common shift :math:`\beta_{0i} \mapsto
    \beta_{0i} + c`; the shift is computed as :math:`m + \log \sum_j e^{\beta_{0j} - m}`
    with :math:`m = \max_j \beta_{0j}` (no overflow), through the deterministic
    :func:`~moetheory.estimation.detmath.det_exp` and
    :func:`~moetheory.estimation.detmath.det_log`, so the result is the same on every
    BLAS/SIMD path.

    Examples
    --------
    >>> G = MixingMeasure([0.0, 0.0], [[2.0], [1.0]], np.zeros((2, 2)))
    >>> normalise_masses(G).weights.tolist(), normalise_masses(G).beta1.tolist()
    ([0.5, 0.5], [[2.0], [1.0]])
    """
    m = G.beta0.max()
    return MixingMeasure(G.beta0 - (m + det_log(det_exp(G.beta0 - m).sum())), G.beta1, G.eta)
