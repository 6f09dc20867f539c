"""Theorems 1 and 2 (eqs. (19)-(22)) as written: their right-hand sides as SymPy expressions
in the routing counts :math:`L_a^{(m_b)}`."""

from __future__ import annotations

import sympy as sp

from moetheory._doccer import fill_doc
from moetheory.continual.theory import _docs
from moetheory.continual.theory._notation import N, S, T, _gap, _l, _tau, r, t

__all__ = [
    "T1",
    "L",
    "Psi1",
    "Psi2",
    "thm1_forgetting_bound_expr",
    "thm1_generalization_bound_expr",
    "thm2_forgetting_bound_expr",
    "thm2_generalization_bound_expr",
]

#: ``L(a, b)`` stands for ``L_a^{(m_b)}``: rounds ``<= a`` routed to the expert of round ``b``.
L = sp.Function("L")
#: End of the exploration phase, :math:`T_1 = \lceil M/\eta \rceil` (Proposition 1).
T1 = sp.Symbol("T_1", integer=True, positive=True)
#: :math:`\Psi_1` of Theorem 2 (:func:`psi1`).
Psi1 = sp.Symbol("Psi_1", nonnegative=True)
#: :math:`\Psi_2` of Theorem 2 (:func:`psi2`).
Psi2 = sp.Symbol("Psi_2", nonnegative=True)


@fill_doc(_docs.STATEMENTS)
def thm1_forgetting_bound_expr(pairs: str = "ordered") -> sp.Expr:
    r"""Right-hand side of eq. (19) (Theorem 1) as a SymPy sum in :math:`L(a, b) = L_a^{(m_b)}`.

    %(parameters)s

    Returns
    -------
    sympy.Expr
        An unevaluated :class:`sympy.Sum` over :math:`\tau` divided by :math:`t - 1`.

    %(raises_section)s

    See Also
    --------
    thm1_forgetting_bound : the bound evaluated on simulated routing.
    L : the undefined function standing for the counts.

    Notes
    -----
    Eq. (19) of [1]_ (:math:`M > N`), with :math:`L_t = L_t^{(m_\tau)}`:

    .. math:: \frac{1}{t-1}\sum_{\tau=1}^{t-1}\Big[(r^{L_t} - r^{L_\tau})\frac{S}{N}
              + (r^{L_\tau} - r^{L_t})\frac{c D}{N^2}\Big].

    %(references)s

    Examples
    --------
    >>> from moetheory.continual.theory import D
    >>> e = thm1_forgetting_bound_expr().subs(t, 2).doit()
    >>> sp.simplify(e - (r**L(2, 1) - r**L(1, 1)) * (S / N - D / N**2))
    0
    """
    gap = _gap(pairs)
    term = (r ** L(t, _tau) - r ** L(_tau, _tau)) * S / N + (
        r ** L(_tau, _tau) - r ** L(t, _tau)
    ) * gap
    return sp.Sum(term, (_tau, 1, t - 1)) / (t - 1)


@fill_doc(_docs.STATEMENTS)
def thm1_generalization_bound_expr(pairs: str = "ordered") -> sp.Expr:
    r"""Right-hand side of eq. (20) (Theorem 1) as a SymPy sum in :math:`L(T_1, \tau)`.

    %(parameters)s

    Returns
    -------
    sympy.Expr
        An unevaluated :class:`sympy.Sum` over :math:`\tau \le T` divided by :math:`T`.

    %(raises_section)s

    See Also
    --------
    thm1_generalization_bound : the bound evaluated on simulated routing.

    Notes
    -----
    Eq. (20) of [1]_, with :math:`L_{T_1} = L_{T_1}^{(m_\tau)}`:

    .. math:: \frac1T\sum_{\tau=1}^{T}\Big[r^{L_{T_1}}\frac{S}{N}
              + (1 - r^{L_{T_1}})\frac{c D}{N^2}\Big].

    %(references)s

    Examples
    --------
    >>> thm1_generalization_bound_expr().subs(T, 1).doit()
    D*(1 - r**L(T_1, 1))/N**2 + S*r**L(T_1, 1)/N
    """
    gap = _gap(pairs)
    term = r ** L(T1, _tau) * S / N + (1 - r ** L(T1, _tau)) * gap
    return sp.Sum(term, (_tau, 1, T)) / T


@fill_doc(_docs.STATEMENTS)
def thm2_forgetting_bound_expr(pairs: str = "ordered") -> sp.Expr:
    r"""Right-hand side of eq. (21) (Theorem 2, :math:`t > T_1`) as a SymPy expression.

    %(parameters)s

    Returns
    -------
    sympy.Expr
        Three unevaluated sums divided by :math:`t - 1`, in :math:`L`, :data:`Psi1`,
        :data:`T1` and the symbols of the module.

    %(raises_section)s

    See Also
    --------
    thm2_forgetting_bound : the bound evaluated on simulated routing.
    psi1 : the constant :math:`\Psi_1`.

    Notes
    -----
    Eq. (21) of [1]_ (:math:`M < N`), with the garbled index :math:`i` read as
    :math:`\tau`:

    .. math:: \frac{1}{t-1}\Big[\sum_{\tau=1}^{t-1}(r^{L_t} - r^{L_\tau})\frac{S}{N}
              + \sum_{\tau=1}^{T_1}(r^{L_\tau} - r^{L_{T_1}})\frac{c D}{N^2}
              + \Psi_1 \sum_{\tau=T_1+1}^{t}(1 - r^{L_t - L_\tau})\, r^{L_t - L_{T_1} - 1}\Big].

    %(references)s

    Examples
    --------
    >>> sorted(str(s) for s in thm2_forgetting_bound_expr().free_symbols)
    ['D', 'N', 'Psi_1', 'S', 'T_1', 'r', 't']
    """
    gap = _gap(pairs)
    first = sp.Sum((r ** L(t, _tau) - r ** L(_tau, _tau)) * S / N, (_tau, 1, t - 1))
    second = sp.Sum((r ** L(_tau, _tau) - r ** L(T1, _tau)) * gap, (_tau, 1, T1))
    third = Psi1 * sp.Sum(
        (1 - r ** (L(t, _tau) - L(_tau, _tau))) * r ** (L(t, _tau) - L(T1, _tau) - 1),
        (_tau, T1 + 1, t),
    )
    return (first + second + third) / (t - 1)


@fill_doc(_docs.STATEMENTS)
def thm2_generalization_bound_expr(
    pairs: str = "ordered", grouping: str = "as-printed"
) -> sp.Expr:
    r"""Right-hand side of eq. (22) (Theorem 2) under a pair reading and a grouping reading.

    Parameters
    ----------
    %(pairs)s
    grouping : {"as-printed", "split"}, optional
        ``"as-printed"``: the factor :math:`\frac1T\sum r^{L_T}` multiplies both the
        :math:`S/N` term and the exploration term; ``"split"``: only :math:`S/N`.

    Returns
    -------
    sympy.Expr
        The bound as unevaluated sums in :math:`L`, :data:`Psi1`, :data:`Psi2`, :data:`T1`.

    Raises
    ------
    ValueError
        If ``grouping`` is unknown.
    %(raises)s

    See Also
    --------
    thm2_generalization_bound : the bound evaluated on simulated routing.
    psi1, psi2 : the constants :math:`\Psi_1, \Psi_2`.

    Notes
    -----
    Eq. (22) of [1]_, as printed:

    .. math:: \frac1T\sum_{\tau=1}^{T} r^{L_T}\Big(\frac{S}{N} + \frac{1}{T_1}
              \sum_{l=1}^{T_1} r^{L_T - L_{T_1}}(1 - r^{L_{T_1}})\frac{c D}{N^2}\Big)
              + \frac{\Psi_2 + \Psi_1}{T}\sum_{\tau=T_1+1}^{T}(1 - r^{L_T - L_{T_1}}).

    %(references)s

    Examples
    --------
    >>> sorted(str(s) for s in thm2_generalization_bound_expr().free_symbols)
    ['D', 'N', 'Psi_1', 'Psi_2', 'S', 'T', 'T_1', 'r']
    """
    if grouping not in ("as-printed", "split"):
        raise ValueError(f"grouping must be 'as-printed' or 'split', got {grouping!r}")
    gap = _gap(pairs)
    explore = sp.Sum(
        r ** (L(T, _l) - L(T1, _l)) * (1 - r ** L(T1, _l)), (_l, 1, T1)
    ) / T1 * gap
    decay = sp.Sum(r ** L(T, _tau), (_tau, 1, T)) / T
    first = decay * (S / N + explore) if grouping == "as-printed" else decay * S / N + explore
    late = sp.Sum(1 - r ** (L(T, _tau) - L(T1, _tau)), (_tau, T1 + 1, T)) / T
    return first + (Psi2 + Psi1) * late


