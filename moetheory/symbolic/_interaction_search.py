r"""The relation finder: every linear relation among :math:`\partial^\alpha H` up to an
order, found from exact null spaces, reconstructed with exact coefficients and verified
(:func:`interactions`). The method is described in :mod:`moetheory.symbolic.interactions`.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from moetheory.symbolic._interaction_budget import checkpoint, time_limit
from moetheory.symbolic._interaction_relations import _R_BETA, InteractionResult, Relation
from moetheory.symbolic._interaction_sampling import (
    _nullspace,
    _primitive,
    _reduce,
    _Rng,
    _rref_rows,
    _sample,
    _value,
    _Version,
    _versions,
)
from moetheory.symbolic._interaction_setup import (
    _back_substitution,
    _field_symbols,
    _kernel_text,
    _param_substitution,
    _Setup,
    _setup,
    _verify,
)
from moetheory.symbolic._interaction_specs import ExpertSpec, RouterSpec

__all__ = [
    "interactions",
]

def _reduce_radical(expr: sp.Expr, r: sp.Symbol, base: sp.Expr) -> sp.Expr:
    """Canonical form p + q r of an expression rational in r, modulo r² = base."""
    num, den = sp.fraction(sp.together(expr))
    if not den.has(r) and not num.has(r):
        return sp.cancel(expr)
    conj = den.xreplace({r: -r})
    num, den = sp.expand(num * conj), sp.expand(den * conj)
    red = sp.Poly(num, r).rem(sp.Poly(r**2 - base, r)).as_expr()
    den_red = sp.Poly(den, r).rem(sp.Poly(r**2 - base, r)).as_expr()
    return sp.cancel(red / den_red)


def _to_relation(setup: _Setup, cols: list[tuple], vec: list[sp.Expr],
                 back: dict[sp.Symbol, sp.Expr]) -> dict[tuple, sp.Expr]:
    coeffs = vec
    if back:
        r = setup.p_radical[0] if setup.p_radical else _R_BETA
        base = setup.p_radical[1] if setup.p_radical else 0
        mapped = [_reduce_radical(c.xreplace(back).xreplace({_R_BETA: r}), r, base)
                  for c in coeffs]
        coeffs = [c.xreplace({r: _R_BETA}) for c in _primitive(mapped)]
        coeffs = [_reduce_radical(c, _R_BETA, base) if c.has(_R_BETA) else c for c in coeffs]
        coeffs = _primitive(coeffs)
    if setup.squares:  # primitive in the symbols s = sqrt(v), then written with sqrt(v)
        coeffs = [sp.expand(setup.external(c)) for c in coeffs]
    return {a: c for a, c in zip(cols, coeffs, strict=True) if c != 0}


def _prolong(setup: _Setup, rel: dict[tuple, sp.Expr], p: sp.Symbol) -> dict[tuple, sp.Expr]:
    """∂_p of a relation: Σ (∂_p c_α) ∂^α + c_α ∂^{α+p}."""
    out: dict[tuple, sp.Expr] = {}
    pos = {q: i for i, q in enumerate(setup.params)}
    dr = 0
    if setup.p_radical is not None and p in setup.p_radical[2]:
        dr = p / _R_BETA
    for a, c in rel.items():
        dc = sp.diff(c, p) + sp.diff(c, _R_BETA) * dr
        if dc != 0:
            out[a] = out.get(a, 0) + dc
        b = tuple(sorted((*a, p), key=lambda q: pos[q]))
        out[b] = out.get(b, 0) + c
    return out


def _specialise(setup: _Setup, rel: dict[tuple, sp.Expr], cols: list[tuple],
                coords: list[sp.Symbol], base: dict[int, sp.Rational]) -> list[sp.Expr]:
    """The relation's coefficient vector at the numeric coordinates ``base``."""
    sub: dict[sp.Symbol, Any] = {}
    if setup.p_radical is not None:
        psub, _ = _param_substitution(setup, 1)
        sub = {**psub, _R_BETA: psub[setup.p_radical[0]]}
    vals = {c: base[i] for i, c in enumerate(coords)}
    out = []
    for a in cols:
        c = setup.internal(sp.sympify(rel.get(a, 0)))
        if sub:
            c = c.xreplace(sub)
        out.append(sp.nsimplify(c.xreplace(vals)) if c.free_symbols else c)
    return out


def _independent(setup: _Setup, rels: list[dict[tuple, sp.Expr]], cols: list[tuple],
                 coords: list[sp.Symbol], base: dict[int, sp.Rational]
                 ) -> list[dict[tuple, sp.Expr]]:
    """A maximal independent subset (rank at the numeric point)."""
    out: list[dict[tuple, sp.Expr]] = []
    span: list[list[sp.Expr]] = []
    for rel in rels:
        if not any(c != 0 for c in rel.values()):
            continue
        vec = _specialise(setup, rel, cols, coords, base)
        new = _rref_rows([*span, vec])
        if len(new) > len(span):
            span = new
            out.append(rel)
    return out


def _solve(setup: _Setup, versions: list[_Version], support: list[tuple],
           coords: list[sp.Symbol], base: dict[int, sp.Rational], rng: _Rng,
           max_rounds: int) -> list[dict[tuple, sp.Expr]]:
    """All relations supported on ``support``, exact and verified."""
    numeric = _nullspace(_sample(versions, support, len(support) + 4, rng, base), [])
    if not numeric:
        return []
    # Independent blocks: columns linked through the reduced basis are solved together.
    reduced = _rref_rows(numeric)
    parent = {a: a for a in support}

    def root(a: tuple) -> tuple:
        while parent[a] != a:
            a = parent[a]
        return a

    for vec in reduced:
        cols_v = [a for a, v in zip(support, vec, strict=True) if v != 0]
        for a in cols_v[1:]:
            parent[root(a)] = root(cols_v[0])
    blocks: dict[tuple, list[tuple]] = {}
    for vec in reduced:
        cols_v = [a for a, v in zip(support, vec, strict=True) if v != 0]
        blocks.setdefault(root(cols_v[0]), [])
    for a in support:
        if root(a) in blocks:
            blocks[root(a)].append(a)
    out: list[dict[tuple, sp.Expr]] = []
    for block in blocks.values():
        k = sum(1 for vec in reduced if root(next(a for a, v in zip(support, vec, strict=True)
                                                  if v != 0)) == root(block[0]))
        out += _solve_block(setup, versions, block, k, coords, base, rng, max_rounds)
    return out


def _solve_block(setup: _Setup, versions: list[_Version], support: list[tuple], k: int,
                 coords: list[sp.Symbol], base: dict[int, sp.Rational], rng: _Rng,
                 max_rounds: int) -> list[dict[tuple, sp.Expr]]:
    """The ``k`` relations supported on one block of columns, exact and verified."""
    # Coordinates the relations do not depend on (same reduced basis when perturbed) stay
    # numbers in the symbolic stage; the exact check below uses all symbols anyway.
    ref = _rref_rows(_nullspace(_sample(versions, support, len(support) + 4, rng, base), []))
    fixed: dict[int, sp.Rational] = {}
    for i in range(len(coords)):
        moved = {**base, i: base[i] + _value(rng, "pos")}
        ns = _nullspace(_sample(versions, support, len(support) + 4, rng, moved), [])
        if _rref_rows(ns) == ref:
            fixed[i] = base[i]
    back = _back_substitution(setup) if setup.p_radical else {}
    for _attempt in range(2):
        sym_coords = [c for i, c in enumerate(coords) if i not in fixed]
        rows: list[list[Any]] = []
        for _round in range(max_rounds):
            checkpoint()
            rows += _sample(versions, support, len(support) + 4 if not rows else 4, rng, fixed)
            ns = _nullspace(rows, sym_coords, rng)
            basis = [_to_relation(setup, support, vec, back) for vec in ns]
            if len(basis) == k and all(_verify(setup, rel) for rel in basis):
                return basis
        fixed = {}  # fall back: every coordinate symbolic
    raise RuntimeError(f"candidate relations failed the exact check after {max_rounds} rounds "
                       "of sample points")


def interactions(router: RouterSpec, expert: ExpertSpec, order: int = 2, d: int = 2,
                 max_rounds: int = 4, timeout: float | None = None) -> InteractionResult:
    r"""Every linear relation among :math:`\partial^\alpha H`, :math:`|\alpha| \le` ``order``.

    Parameters
    ----------
    router : RouterSpec
        E.g. ``ROUTERS["cosine"]`` or :func:`custom_router`.
    expert : ExpertSpec
        E.g. ``EXPERTS["tanh"]`` or :func:`custom_expert`.
    order : int
        Largest total order, 1 to 3.
    d : int
        Input dimension, 1 to 4.
    max_rounds : int
        How often to add sample points when a candidate fails its exact check.
    timeout : float or None
        Wall-clock limit in seconds (``None``: none).

    Returns
    -------
    InteractionResult
        ``relations`` are the generators (not derivatives of lower-order relations), each
        verified exactly; ``implied`` the others of a basis (together independent).

    Raises
    ------
    ValueError
        On an order or dimension out of range, an invalid ``timeout``, or an unsupported
        expression (then :class:`UnsupportedExpression`, a ``ValueError``).
    SearchTimeout
        When ``timeout`` runs out (a ``TimeoutError``).
    RuntimeError
        If no sample point avoids the poles, or a candidate relation fails its exact check
        after ``max_rounds`` rounds of points (never a silent wrong answer).
    ZeroDivisionError
        Internal: a sample point on a pole (caught; the point is skipped).

    Notes
    -----
    Sound and complete up to the genericity assumptions recorded in
    :attr:`InteractionResult.assumptions`: every returned relation is verified exactly, and
    the null space of the exact value matrix at :math:`N + 4` rational points contains every
    relation (see the module docstring). Whether those assumptions hold (algebraically
    independent kernels, non-empty pieces) is checked by
    :func:`moetheory.symbolic.relations.find_relations`, which also turns an empty result
    into a verdict with its scope.

    See Also
    --------
    lift : the relations in every dimension.
    moetheory.symbolic.relations.find_relations : the same search with a verdict and scope.
    moetheory.symbolic.atlas.atlas_cell : a cell of the atlas.

    Examples
    --------
    >>> from moetheory.symbolic.interactions import EXPERTS, ROUTERS
    >>> res = interactions(ROUTERS["linear"], EXPERTS["tanh"], order=2, d=1)
    >>> [r.text for r in res.relations]
    ['H_{a_1} - H_{beta1_1,b} = 0']
    """
    if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= 3:
        raise ValueError(f"order must be an integer in [1, 3], got {order!r}")
    if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 4:
        raise ValueError(f"d must be an integer in [1, 4], got {d!r}")
    with time_limit(timeout):
        return _search(router, expert, order, d, max_rounds)[0]


def _search(router: RouterSpec, expert: ExpertSpec, order: int, d: int, max_rounds: int = 4,
            cells: frozenset[tuple[int, int]] | None = None
            ) -> tuple[InteractionResult, _Setup]:
    """:func:`interactions` without validation, with its setup (kernels, pieces); with
    ``cells``, only those cells of x-space are imposed (a parameter regime)."""
    setup = _setup(router, expert, d, order, cells=cells)
    cols = setup.alphas
    rng = _Rng()
    n = len(cols)
    _, extra = _param_substitution(setup, 1)
    coords = _field_symbols(setup, extra)
    versions = _versions(setup, cols, coords)
    base = {i: _value(rng, "pos") for i in range(len(coords))}
    pos = {a: i for i, a in enumerate(cols)}
    generators: list[Relation] = []
    implied: list[Relation] = []
    known: list[dict[tuple, sp.Expr]] = []  # a basis of the relations of order < o
    numeric: list[list[sp.Expr]] = []
    for o in range(1, order + 1):
        checkpoint()
        cols_o = [a for a in cols if len(a) <= o]
        numeric = _nullspace(_sample(versions, cols_o, len(cols_o) + 4, rng, base), [])
        prolonged = [_prolong(setup, rel, p) for rel in known for p in setup.params] + known
        p_rows = _rref_rows([_specialise(setup, rel, cols_o, coords, base) for rel in prolonged])
        remainders = _rref_rows([_reduce(v, p_rows) for v in numeric])
        if len(p_rows) + len(remainders) != len(numeric):
            raise RuntimeError("inconsistent ranks: derivatives of lower-order relations are "
                               "not relations")
        new: list[dict[tuple, sp.Expr]] = []
        if remainders:
            support = [a for j, a in enumerate(cols_o)
                       if any(v[j] != 0 for v in remainders)
                       or (len(a) < o and any(v[j] != 0 for v in numeric))]
            found = _solve(setup, versions, support, coords, base, rng, max_rounds)
            span = list(p_rows)
            for rel in sorted(found, key=lambda r: (len(r), sorted(pos[a] for a in r))):
                vec = _specialise(setup, rel, cols_o, coords, base)
                if len(_rref_rows([*span, vec])) > len(span):
                    span = _rref_rows([*span, vec])
                    new.append(rel)
            if len(new) != len(remainders):
                raise RuntimeError("could not reconstruct every new relation exactly")
        for rel in new:
            terms = tuple(sorted(rel.items(), key=lambda t: pos[t[0]]))
            generators.append(Relation(terms, o, True, "exact"))
        derivs = prolonged[: len(prolonged) - len(known)]
        # the derivatives that complete the basis of the lower-order relations, each once
        chosen = _independent(setup, known + derivs, cols_o, coords, base)[len(known):] \
            if derivs else []
        implied += [Relation(tuple(sorted(((a, c) for a, c in rel.items() if c != 0),
                                          key=lambda t: pos[t[0]])), o, False, "derivative")
                    for rel in chosen]
        known = known + new + derivs
        known = _independent(setup, known, cols_o, coords, base)
    ring = "Q(params)" + ("[‖β‖]" if setup.p_radical else "")
    assumptions = [
        "parameters outside a null set (denominators and pivots of the elimination non-zero)",
    ]
    if setup.atoms.kernels:
        assumptions.append(
            "the kernels " + ", ".join(sorted(_kernel_text(k) for k in setup.atoms.kernels))
            + " are algebraically independent over $\\mathbb{Q}(\\theta)(x)$ (Ax's theorem: "
            "their exponents are linearly independent over $\\mathbb{Q}$ modulo constants for "
            "generic parameters)")
    if len(setup.pieces) > 1:
        assumptions.append("each smooth piece of the expert is a non-empty open set; a relation "
                           "must hold on every piece")
    space = len(numeric)
    if len(generators) + len(implied) != space:
        raise RuntimeError("inconsistent ranks: the basis does not span the relations")
    # a second, independent point of the parameters: the same dimension, or the first
    # point was not generic (reported by find_relations, not a wrong relation)
    base2 = {i: _value(rng, "pos") for i in range(len(coords))}
    checkpoint()
    second = len(_nullspace(_sample(versions, cols, n + 4, rng, base2), []))
    return InteractionResult(router, expert, d, order, setup.params, generators, implied, n,
                             n + 4, len(setup.pieces), ring, assumptions, space,
                             second == space), setup
