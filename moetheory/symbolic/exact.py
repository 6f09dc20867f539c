"""Exact numbers for certificates.

``sympy.nsimplify`` looks for a *simple* closed form near a number's floating-point value:
applied to an exact rational with a large denominator it can return an irrational
expression (``nsimplify(Rational(14063, 2916))`` is a product of fractional powers), which
would silently corrupt an exact check. :func:`to_exact` never changes an exact value.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

__all__ = ["to_exact"]


def to_exact(value: Any) -> sp.Expr:
    r"""Return ``value`` as an exact SymPy number or expression.

    Integers, fractions and SymPy rationals are kept exactly; a float becomes the rational
    of its shortest decimal representation (``0.03 -> 3/100``); in a SymPy expression every
    Float is replaced that way and exact parts are left alone.

    Parameters
    ----------
    value : int, float, fractions.Fraction, NumPy scalar or SymPy-compatible object
        The number or expression to make exact.

    Returns
    -------
    sympy.Expr
        ``value`` with every floating-point number replaced by its exact decimal rational.

    Raises
    ------
    TypeError
        For a boolean (``True`` is not a number here).
    ValueError
        For a non-finite float (``nan``, ``inf``).

    Notes
    -----
    The rational of a float ``x`` is that of ``repr(x)``, the shortest decimal string that
    rounds back to ``x``: :math:`0.03 \mapsto 3/100`, not the binary expansion
    :math:`1080863910568919/36028797018963968`. This is what a user typing ``0.03`` meant, and
    it is the same on every machine.

    See Also
    --------
    sympy.nsimplify : guesses simple closed forms (unsafe for exact values).

    Examples
    --------
    >>> import sympy as sp
    >>> to_exact(sp.Rational(14063, 2916))
    14063/2916
    >>> to_exact(0.03)
    3/100
    >>> to_exact(sp.sqrt(2) + sp.Float("0.5"))
    1/2 + sqrt(2)
    """
    if isinstance(value, bool):
        raise TypeError("to_exact does not take booleans")
    if isinstance(value, int | np.integer):
        return sp.Integer(int(value))
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    if isinstance(value, float | np.floating):
        x = float(value)
        if not np.isfinite(x):
            raise ValueError(f"cannot make the non-finite value {x} exact")
        return sp.Rational(repr(x))
    expr = sp.sympify(value)
    floats = expr.atoms(sp.Float)
    return expr.xreplace({f: sp.Rational(str(f)) for f in floats}) if floats else expr
