r"""LaTeX pieces of an identifiability decision: decimals, interval enclosures, signed terms.

The private half of :mod:`moetheory.symbolic.identifiability` that typesets what a decision
certifies (the determinant's interval enclosure, the coefficients of a relation); imported
back there and by :mod:`moetheory.symbolic.identifiable`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import sympy as sp

__all__: list[str] = []


def _decimal_latex(text: str) -> str:
    r"""A decimal as mpmath prints it, in LaTeX with the same digits (no rounding).

    Parameters
    ----------
    text : str
        ``"1.5e-35"``, ``"-0.25"``, ``"3"``.

    Returns
    -------
    str
        ``1.5 \cdot 10^{-35}``; anything that is not a decimal as ``\text{...}``.

    Examples
    --------
    >>> _decimal_latex("1.418e-35"), _decimal_latex("-0.5")
    ('1.418 \\cdot 10^{-35}', '-0.5')
    """
    m = re.fullmatch(r"(-?\d+(?:\.\d+)?)(?:[eE]([+-]?\d+))?", text.strip())
    if m is None:
        return r"\text{" + re.sub(r"[\\{}$&#%_^~]", "?", text) + "}"
    return m.group(1) + (rf" \cdot 10^{{{int(m.group(2))}}}" if m.group(2) else "")


def _interval_latex(bounds: Sequence[str]) -> str:
    r"""An interval enclosure ``(lo, hi)`` of decimal strings as ``\left[lo,\ hi\right]``.

    Examples
    --------
    >>> _interval_latex(["1.4e-35", "1.5e-35"])
    '\\left[1.4 \\cdot 10^{-35},\\ 1.5 \\cdot 10^{-35}\\right]'
    """
    lo, hi = [*bounds, "?", "?"][:2]
    return rf"\left[{_decimal_latex(lo)},\ {_decimal_latex(hi)}\right]"


def _signed_term(coefficient: sp.Expr, label: str, first: bool) -> str:
    """One term ``c label`` of a typeset sum: sign outside, a unit coefficient left out."""
    c = sp.sympify(coefficient)
    if not c.is_Number:
        return ("" if first else " + ") + rf"\left({sp.latex(c)}\right) {label}"
    sign = "-" if c < 0 else ("" if first else "+")
    size = "" if abs(c) == 1 else sp.latex(abs(c)) + r"\,"
    return (sign if first else f" {sign} ") + size + label
