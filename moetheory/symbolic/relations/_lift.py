r"""Relations in every dimension: :func:`lift` of a relation found in one dimension, and the
closed-form second-order relation of the perturbed router with ridge experts
(:func:`perturbed_ridge_relation`) with its exact certificate
(:func:`perturbed_ridge_certificate`). Public through :mod:`moetheory.symbolic.interactions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from moetheory.symbolic.relations._budget import checkpoint
from moetheory.symbolic.relations._relations import _R_BETA, InteractionResult, Relation
from moetheory.symbolic.relations._setup import _setup, _verify
from moetheory.symbolic.relations._specs import (
    RIDGE_ANY_PHI,
    ROUTERS,
    ExpertSpec,
    coordinates,
)
from moetheory.symbolic.routers import TAU1

__all__ = [
    "lift",
    "perturbed_ridge_certificate",
    "perturbed_ridge_relation",
]

def lift(res: InteractionResult, rel: Relation, dims: Sequence[int] = (1, 3, 4)) -> dict[str, Any]:
    r"""Lift a relation found in dimension ``res.d`` to every dimension and verify it.

    The relation is read with its vector indices either *free* (the same relation for every
    choice of indices: "for every :math:`i`" / "for every :math:`i \ne j`") or *contracted*
    (each term carries one index, summed over :math:`i`; recognised when the relation is
    symmetric under exchanging the indices). The lifted relation is verified exactly in each
    dimension of ``dims``. With a rotation-invariant router and expert, at most three vectors
    (:math:`x` and two parameter vectors) and at most one trace per term, the relation in Gram
    coordinates is affine in :math:`d`, so exact checks in :math:`d = 3, 4` prove it for every
    :math:`d \ge 3`.

    Parameters
    ----------
    res : InteractionResult
        The result the relation comes from.
    rel : Relation
        One of its relations.
    dims : sequence of int
        Dimensions to verify in (3 and 4 are needed for "every d").

    Returns
    -------
    dict
        ``form`` ("index-free", "free indices", "contracted", or None for a fixed-dimension
        router or expert), ``verified`` (a bool by dimension) and ``all_d`` (bool: verified in
        every dimension of ``dims`` including 3 and 4).

    Raises
    ------
    ValueError
        From :func:`coordinates` or the setup, on a dimension the router or expert does not
        support.

    Notes
    -----
    Relations whose indices are neither free nor one contraction are not lifted (``form``
    ``"free indices"`` then fails in :math:`d = 3, 4`); see :func:`perturbed_ridge_relation`
    for the one of the perturbed router.

    See Also
    --------
    interactions : finds the relations.

    Examples
    --------
    >>> from moetheory.symbolic.interactions import EXPERTS, interactions
    >>> res = interactions(ROUTERS["cosine"], EXPERTS["generic"], order=1, d=2)
    >>> out = lift(res, res.relations[0])
    >>> out["form"], out["verified"], out["all_d"], out["min_d"]
    ('contracted', {1: True, 3: True, 4: True}, True, 1)
    """
    if not (res.router.invariant and res.expert.invariant):
        return {"form": None, "verified": {}, "all_d": False,
                "reason": "custom router or expert: fixed dimension only"}

    def split(sym: sp.Symbol) -> tuple[str, int | None]:
        head, _, i = str(sym).rpartition("_")
        return (head, int(i)) if head and i.isdigit() else (str(sym), None)

    def term_indices(alpha: tuple, coeff: sp.Expr) -> set[int]:
        syms = [*alpha, *(s for s in coeff.free_symbols if s in res.params)]
        return {i for i in (split(q)[1] for q in syms) if i is not None}

    def rename(alpha: tuple, coeff: sp.Expr, mapping: dict[int, int],
               params: dict[str, sp.Symbol], order: dict[sp.Symbol, int]) -> tuple[tuple, Any]:
        def new(q: sp.Symbol) -> sp.Symbol:
            head, i = split(q)
            return q if i is None else params[f"{head}_{mapping.get(i, i)}"]

        a = tuple(sorted((new(q) for q in alpha), key=lambda q: order[q]))
        c = coeff.xreplace({q: new(q) for q in coeff.free_symbols if q in res.params})
        return a, c

    used = set().union(*[term_indices(a, c) for a, c in rel.terms])
    form = "index-free" if not used else "free indices"
    own = {str(q): q for q in res.params}
    own_order = {q: i for i, q in enumerate(res.params)}
    if used == {1, 2} and all(len(term_indices(a, c)) <= 1 for a, c in rel.terms):
        swapped: dict[tuple, Any] = {}
        for a, c in rel.terms:
            na, nc = rename(a, c, {1: 2, 2: 1}, own, own_order)
            swapped[na] = swapped.get(na, 0) + nc
        orig = dict(rel.terms)
        if set(swapped) == set(orig) and any(
                all(sp.expand(swapped[a] - sign * orig[a]) == 0 for a in orig)
                for sign in (1, -1)):
            form = "contracted"
    verified: dict[int, bool] = {}
    for dim in dims:
        checkpoint()
        if form == "free indices" and dim < max(used):
            continue
        xs = coordinates(dim)
        _, rp = res.router.build(xs)
        _, ep = res.expert.build(xs)
        allp = (*rp, *ep)
        params = {str(q): q for q in allp}
        order = {q: i for i, q in enumerate(allp)}
        terms: dict[tuple, Any] = {}
        for a, c in rel.terms:
            idx = term_indices(a, c)
            if form == "contracted":
                if idx == {2}:
                    continue
                targets = [{1: j} for j in range(1, dim + 1)] if idx == {1} else [{}]
            else:
                targets = [{}]
            for mapping in targets:
                na, nc = rename(a, c, mapping, params, order)
                terms[na] = terms.get(na, 0) + nc
        terms = {a: c for a, c in terms.items() if c != 0}
        setup = _setup(res.router, res.expert, dim, max(len(a) for a in terms),
                       alphas=list(terms))
        verified[dim] = _verify(setup, terms)
    all_d = bool(verified) and all(verified.values()) and {3, 4} <= set(verified)
    min_d = max(used) if form == "free indices" else 1
    return {"form": form, "verified": verified, "all_d": all_d, "min_d": min_d,
            "free_indices": sorted(used) if form == "free indices" else []}


def perturbed_ridge_relation(d: int, i: int = 1, j: int = 2,
                             expert: ExpertSpec = RIDGE_ANY_PHI) -> Relation:
    r"""The second-order relation of the perturbed router with a ridge expert, in dimension d.

    Parameters
    ----------
    d : int
        Input dimension, 2 to 4.
    i, j : int
        The free indices, :math:`1 \le i \ne j \le d`.
    expert : ExpertSpec
        A ridge expert (parameters ``a_1..a_d, b``); default an arbitrary activation.

    Returns
    -------
    Relation
        :math:`\tau_1\|\beta_1\|(\partial^2_{\beta_{1,i} a_j} H - \partial^2_{\beta_{1,j} a_i}
        H) + \beta_{1,i}\sum_k \beta_{1,k}\partial^2_{\beta_{1,k} a_j} H - \beta_{1,j}
        \sum_k \beta_{1,k}\partial^2_{\beta_{1,k} a_i} H = 0`, coefficients in
        :math:`\mathbb Q(\theta)[\|\beta_1\|]` (``r_beta`` is :math:`\|\beta_1\|`).

    Raises
    ------
    ValueError
        On ``d`` outside [2, 4] or indices out of range.

    Notes
    -----
    With :math:`n = \|\beta_1\|`, :math:`r = \|x\|` and the router factor :math:`G`,
    :math:`\partial_{\beta_{1,k}} G = G\,(Px)_k/((n+\tau_1)(r+\tau_2))` with
    :math:`P = I - \beta_1\beta_1^\top/(n(n+\tau_1))`, and
    :math:`\partial_{a_l} h = x_l\varphi'`. Hence
    :math:`\sum_{kl} M_{kl}\,\partial^2_{\beta_{1,k} a_l} H \propto x^\top P M x`, which
    vanishes for all :math:`x` iff :math:`PM` is antisymmetric: :math:`M = P^{-1}A`,
    :math:`P^{-1} = I + \beta_1\beta_1^\top/(\tau_1 n)` (Sherman--Morrison). The relation is
    :math:`A = e_ie_j^\top - e_je_i^\top` times :math:`\tau_1 n`: :math:`d(d-1)/2`
    independent relations in every :math:`d \ge 2`, the deformation of the linear router's
    symmetry :math:`\partial^2_{\beta_{1,i}a_j}H = \partial^2_{\beta_{1,j}a_i}H`
    (:math:`\tau_1 \to \infty`).

    See Also
    --------
    perturbed_ridge_certificate : the exact verification.
    lift : the free-index and contracted lifts.

    Examples
    --------
    >>> rel = perturbed_ridge_relation(2)
    >>> rel.order, len(rel.terms)
    (2, 4)
    """
    if isinstance(d, bool) or not isinstance(d, int) or not 2 <= d <= 4:
        raise ValueError(f"d must be an integer in [2, 4], got {d!r}")
    if not (1 <= i <= d and 1 <= j <= d and i != j):
        raise ValueError(f"i and j must be distinct integers in [1, {d}], got {i!r}, {j!r}")
    xs = coordinates(d)
    _, rp = ROUTERS["perturbed"].build(xs)
    _, ep = expert.build(xs)
    order = {q: n for n, q in enumerate((*rp, *ep))}
    beta, a = rp, ep[:d]
    terms: dict[tuple, sp.Expr] = {}

    def add(alpha: tuple, c: sp.Expr) -> None:
        key = tuple(sorted(alpha, key=lambda q: order[q]))
        terms[key] = sp.expand(terms.get(key, 0) + c)

    add((beta[i - 1], a[j - 1]), TAU1 * _R_BETA)
    add((beta[j - 1], a[i - 1]), -TAU1 * _R_BETA)
    for k in range(d):
        add((beta[k], a[j - 1]), beta[i - 1] * beta[k])
        add((beta[k], a[i - 1]), -beta[j - 1] * beta[k])
    items = tuple(sorted(((k, c) for k, c in terms.items() if c != 0),
                         key=lambda t: [order[q] for q in t[0]]))
    return Relation(items, 2, True, "closed form, every d >= 2")


def perturbed_ridge_certificate(dims: Sequence[int] = (2, 3, 4),
                                expert: ExpertSpec = RIDGE_ANY_PHI) -> dict[str, Any]:
    r"""Verify :func:`perturbed_ridge_relation` exactly in each dimension of ``dims``.

    Parameters
    ----------
    dims : sequence of int
        Dimensions in [2, 4].
    expert : ExpertSpec
        Default: an arbitrary activation :math:`\varphi` (so every ridge expert).

    Returns
    -------
    dict
        ``verified`` (a bool by dimension, the exact check of :func:`_verify` for the pair
        :math:`(i, j) = (1, 2)`; every other pair follows by permuting coordinates, under
        which the perturbed router and ridge experts are invariant), ``perturbed_fails``
        (a bool by smallest dimension: the relation with one coefficient changed by 1 is
        rejected), ``sherman_morrison`` (the scalar identity
        behind :math:`P P^{-1} = I`, residual 0), ``latex`` and ``text`` of the relation.

    Raises
    ------
    ValueError
        On a dimension outside [2, 4].

    Notes
    -----
    The dimension-free argument is in :func:`perturbed_ridge_relation`; the exact checks in
    :math:`d = 2, 3, 4` use an undefined activation, so they cover every ridge expert.

    See Also
    --------
    perturbed_ridge_relation : the relation.

    Examples
    --------
    >>> cert = perturbed_ridge_certificate(dims=(2,))
    >>> cert["verified"], cert["perturbed_fails"], cert["sherman_morrison"]
    ({2: True}, {2: True}, '0')
    """
    if not dims or any(isinstance(d, bool) or not isinstance(d, int) or not 2 <= d <= 4
                       for d in dims):
        raise ValueError(f"dims must be integers in [2, 4], got {list(dims)!r}")
    verified: dict[int, bool] = {}
    fails: dict[int, bool] = {}
    for d in dims:
        terms = dict(perturbed_ridge_relation(d, 1, 2, expert).terms)
        setup = _setup(ROUTERS["perturbed"], expert, d, 2, alphas=list(terms))
        verified[d] = _verify(setup, terms)
        if d == min(dims):
            wrong = dict(terms)
            first = next(iter(wrong))
            wrong[first] = wrong[first] + 1
            fails[d] = not _verify(setup, wrong)
    n = sp.Symbol("n", positive=True)
    c, c_inv = 1 / (n * (n + TAU1)), 1 / (n * TAU1)
    # (I - c bb^T)(I + c' bb^T) = I + (c' - c - c c' n^2) bb^T
    residual = sp.simplify(c_inv - c - c * c_inv * n**2)
    rel = perturbed_ridge_relation(2, 1, 2, expert)
    return {"verified": verified, "perturbed_fails": fails, "sherman_morrison": sp.sstr(residual),
            "latex": rel.latex(), "text": rel.text}
