"""Atoms and the parameters' domain: generic atoms, declared facts, analyticity in the parameters.

The private half of :mod:`moetheory.symbolic.identifiability` that says *where* an expert is
decided: the deterministic generic atoms (:func:`default_atoms`), whether an atom respects the
declared assumptions of its parameters (:func:`atom_violation`) and whether the expert is
real-analytic in its parameters on their declared domain (:func:`analytic_in`, which lets a
verdict at atoms extend to almost every atom tuple). Imported back, and documented, there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from moetheory.symbolic.linear_independence import _ANALYTIC_ON_R

__all__ = ["GENERIC_VALUES", "analytic_in", "atom_violation", "default_atoms"]

#: Generic rational parameter values from which :func:`default_atoms` draws.
GENERIC_VALUES: tuple[sp.Rational, ...] = tuple(
    sp.Rational(p, q)
    for p, q in [(3, 2), (-2, 3), (5, 4), (4, 7), (-7, 5), (6, 5), (9, 7), (-3, 4),
                 (8, 5), (5, 9), (-4, 3), (7, 8), (11, 6), (-5, 7), (2, 9), (10, 7)]
)


def default_atoms(params: Sequence[sp.Symbol], k: int) -> list[dict[sp.Symbol, sp.Rational]]:
    """``k`` pairwise distinct atoms with generic rational values (deterministic).

    Parameters
    ----------
    params : sequence of sympy.Symbol
        The parameters of the expert.
    k : int
        Number of atoms (at least 1).

    Returns
    -------
    list of dict
        ``k`` atoms, each a rational value for each parameter.

    Raises
    ------
    ValueError
        If ``k`` is not a positive integer or ``params`` is empty.

    Notes
    -----
    Values come from :data:`GENERIC_VALUES` and then a deterministic sequence that never
    repeats, so no two atoms coincide and no atom is a sign flip of another.

    See Also
    --------
    search_exceptions : the non-generic symmetry orbits.

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> default_atoms([a, b], 2)
    [{a: 3/2, b: -2/3}, {a: 5/4, b: 4/7}]
    """
    q = len(params)
    if not isinstance(k, int) or k < 1:
        raise ValueError(f"the number of atoms k must be a positive integer, got {k!r}")
    if q < 1:
        raise ValueError("params must name at least one parameter")
    atoms = [{p: _signed(p, _generic_value(j * q + i)) for i, p in enumerate(params)}
             for j in range(k)]
    for atom in atoms:
        for p, v in atom.items():
            bad = atom_violation(p, v)
            if bad:
                raise ValueError(f"params: no generic atom satisfies {bad}; give the atoms "
                                 "explicitly (atoms=...)")
    return atoms


#: The declared facts of a symbol that an atom's value must satisfy.
_CHECKED_FACTS: tuple[str, ...] = ("positive", "negative", "nonnegative", "nonpositive",
                                   "nonzero", "integer")


def _signed(p: sp.Symbol, v: sp.Rational) -> sp.Rational:
    """``v`` moved to the sign ``p`` is declared to have (``|v|`` or ``-|v|``)."""
    if p.is_nonnegative:
        return abs(v)
    if p.is_nonpositive:
        return -abs(v)
    return v


def atom_violation(p: sp.Symbol, value: Any) -> str:
    """The declared assumption of ``p`` that ``value`` violates, in words (``""``: none).

    Parameters
    ----------
    p : sympy.Symbol
        A parameter, with its SymPy assumptions (``positive=True``, ...).
    value : number or sympy.Expr
        The value an atom gives it.

    Returns
    -------
    str
        ``""`` when ``value`` satisfies every declared sign and integrality fact of ``p``,
        else e.g. ``"s positive (s = -2/3)"``.

    Notes
    -----
    A value violates a fact unless SymPy shows it holds: for each of ``positive``,
    ``negative``, ``nonnegative``, ``nonpositive``, ``nonzero`` and ``integer`` declared of
    ``p``, the value's own assumption must be ``True`` (``None``, undecided, counts as a
    violation); a real ``p`` refuses a value shown non-real. The first violated fact is
    named, real first. Only declared facts are checked: an atom inside the declared domain at
    which the expert is not real is caught later, when the family is evaluated (the verdict is
    then ``inconclusive``).

    See Also
    --------
    default_atoms : generic atoms, moved to each parameter's declared sign.
    analytic_in : whether the verdict extends from the atoms to almost every atom tuple.

    Examples
    --------
    >>> s = sp.Symbol("s", positive=True)
    >>> atom_violation(s, sp.Rational(-2, 3)), atom_violation(s, 2)
    ('s positive (s = -2/3)', '')
    """
    v = sp.sympify(value)
    if p.is_real and v.is_real is False:
        return f"{p} real ({p} = {sp.sstr(v)})"
    for fact in _CHECKED_FACTS:
        if getattr(p, f"is_{fact}") and getattr(v, f"is_{fact}") is not True:
            return f"{p} {fact} ({p} = {sp.sstr(v)})"
    return ""


def analytic_in(expr: sp.Expr, params: Sequence[sp.Symbol]) -> bool:
    """Whether ``expr`` is real-analytic in ``params`` on their whole declared domain.

    Decided by meaning, not by the absence of ``Abs``/``Max``/``Piecewise``: every node that
    depends on a parameter must be a sum, product, non-negative integer power, or a function
    analytic on all of R (``exp``, ``tanh``, ``sin``, ``atan``, ``erf``, ...) of such nodes;
    a negative integer power needs a base of one sign, a fractional or symbolic power and
    ``log`` need a positive base, each shown by SymPy from the declared assumptions (every
    symbol real). Anything else (``sqrt(a**2)`` = ``|a|``, ``acos(cos(a))``, ``1/a`` for a
    real ``a``) is not shown analytic. The declared domain of the parameters is a product of
    intervals, hence connected, which is what "almost every atom tuple" needs.

    Parameters
    ----------
    expr : sympy.Expr
        The expert.
    params : sequence of sympy.Symbol
        Its parameters.

    Returns
    -------
    bool
        ``True`` only when shown analytic (``False`` means: not shown).

    Notes
    -----
    Why it matters: the determinant of the family's value matrix at the certificate's fixed
    points is then a real-analytic function of the atoms on the connected domain
    :math:`D^k`; nonzero at the decided atoms, it vanishes only on a closed null set, so
    independence holds for almost every atom tuple (without analyticity, only on an open set
    around the decided atoms, by continuity). The recursion is on the expression
    tree; a node free of the parameters is accepted as it is, and
    :math:`b^e` with :math:`e \\in \\mathbb{Z}_{<0}` is analytic where :math:`b \\ne 0`,
    which on a connected domain needs a sign of :math:`b` that SymPy can show.

    See Also
    --------
    atom_violation : whether an atom lies in the parameters' declared domain.
    IdentifiabilityDecision : reports the scope this decides.

    Examples
    --------
    >>> a = sp.Symbol("a", real=True)
    >>> s = sp.Symbol("s", positive=True)
    >>> analytic_in(sp.log(1 + sp.exp(a)), [a]), analytic_in(sp.sqrt(a**2), [a])
    (True, False)
    >>> analytic_in(sp.log(s) / s, [s]), analytic_in(1 / a, [a])
    (True, False)
    """
    pset = set(params)

    def ok(node: sp.Expr) -> bool:
        if not (node.free_symbols & pset):
            return True
        if node.is_Symbol:
            return bool(node.is_real)
        if isinstance(node, sp.Add | sp.Mul):
            return all(ok(a) for a in node.args)
        if isinstance(node, sp.Pow):
            base, e = node.args
            if not (ok(base) and ok(e)):
                return False
            if e.is_Integer and e.is_nonnegative:
                return True
            if e.is_Integer:
                return bool(base.is_positive or base.is_negative)
            return bool(base.is_positive)
        if isinstance(node, sp.log):
            return ok(node.args[0]) and bool(node.args[0].is_positive)
        if isinstance(node, _ANALYTIC_ON_R):
            return all(ok(a) for a in node.args)
        return False

    return ok(sp.sympify(expr))


def _generic_value(i: int) -> sp.Rational:
    """The i-th generic rational: the table :data:`GENERIC_VALUES`, then the distinct values
    ``±(i + 2)/(i + 1 + (i mod 5))`` (deterministic, never repeating an earlier value)."""
    if i < len(GENERIC_VALUES):
        return GENERIC_VALUES[i]
    seen = set(GENERIC_VALUES)
    j = len(GENERIC_VALUES)
    while True:
        v = sp.Rational((-1) ** j * (j + 2), j + 1 + j % 5)
        if v not in seen:
            if j >= i:
                return v
            seen.add(v)
        j += 1
