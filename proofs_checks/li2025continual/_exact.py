"""The vocabulary of the exact proof-step checks: σ0-exponents of monomials, the paper's
symbols and choice ``η = σ0^0.5``, and the readings and outcome of an exact step.

Order statements O(σ0^a), Θ(σ0^a), Ω(σ0^a) are read as σ0 → 0 with every other quantity (M, N,
s, d, α, C) fixed, under the paper's own parameter choice η = σ0^0.5 (L382) unless a reading says
otherwise: ``x = O(σ0^a)`` holds when the σ0-exponent of ``x`` is at least ``a``, ``Ω`` when it
is at most ``a``, ``Θ`` when equal.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from moetheory import Outcome, Reading, Verdict

__all__ = [
    "HALF", "M_", "PAPER_ETA", "_order", "_out", "_r", "_v", "alpha", "eta", "exponent", "lam",
    "r_", "s0",
]


s0 = sp.Symbol("sigma_0", positive=True)


eta = sp.Symbol("eta", positive=True)


alpha, M_, lam = sp.symbols("alpha M lambda", positive=True)


HALF = sp.Rational(1, 2)


def exponent(expr: sp.Expr) -> sp.Expr:
    """The σ0-exponent ``a`` of a monomial ``c·σ0^a`` (``c`` free of σ0).

    Examples
    --------
    >>> exponent(3 * s0 ** sp.Rational(3, 4) * alpha)
    3/4
    """
    simple = sp.powsimp(sp.expand_power_base(sp.sympify(expr), force=True))
    coeff, power = simple.as_coeff_exponent(s0)
    if coeff.has(s0):
        raise ValueError(f"{expr} is not a monomial in sigma_0")
    return sp.nsimplify(power)


def _v(ok: bool) -> Verdict:
    return Verdict.PROVED if ok else Verdict.REFUTED


def _r(name: str, text: str, ok: bool, summary: str, derivation: str = "", **ev: Any) -> Reading:
    return Reading(name, text, _v(ok), summary, ev, derivation)


def _out(readings: list[Reading], derivation: str, **ev: Any) -> Outcome:
    """Outcome with the primary reading's verdict; its evidence is the primary reading's."""
    out = Outcome.from_readings(readings, **(ev or dict(readings[0].evidence)))
    out.derivation = derivation
    return out


def _order(label: str, expr: sp.Expr, claimed: sp.Expr, kind: str) -> dict[str, Any]:
    """Compare the σ0-exponent of ``expr`` with ``claimed`` for ``kind`` in O, Θ, Ω."""
    a = exponent(expr)
    ok = {"O": a >= claimed, "Theta": a == claimed, "Omega": a <= claimed}[kind]
    return {"label": label, "expression": sp.sstr(expr), "exponent": str(a),
            "claimed": f"{kind}(sigma_0^{claimed})", "holds": bool(ok)}


PAPER_ETA = s0**HALF  # L382: eta chosen so that T1 = ceil(sigma_0^-0.5 M)


r_ = sp.Symbol("r", positive=True)
