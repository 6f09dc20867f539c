"""Shared by the checks of this paper: the seed files, the catalogue sections of the
claims registered with their own statements, their ``@claim`` (:func:`seed_claim`), and the
symbols of the rate statements (sequences in the sample size ``n``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp

from moetheory import claim
from moetheory.engine.registry import CheckFunction

__all__ = [
    "ESTIMATION_SECTION",
    "REBUTTAL_SECTION",
    "S0",
    "S2",
    "c_",
    "limit_at_infinity",
    "n",
    "seed_claim",
    "tau",
]

S0 = "000_7b6465990ad3b04b.txt"
S2 = "002_ed39350ac6d6e1c0.txt"
#: Catalogue section of the statements of the rebuttal (and the paper) registered here.
REBUTTAL_SECTION = "Rebuttal and paper: inferences, identities and arithmetic"
#: Catalogue section of the rate experiments of seed 000's answers.
ESTIMATION_SECTION = "Estimation"


def seed_claim(claim_id: str, *seeds: str, section: str = REBUTTAL_SECTION,
               origin: str = "seed", **fields: Any) -> Callable[[CheckFunction], CheckFunction]:
    """``@claim`` for a statement read in the seed files ``seeds`` (in this order).

    Parameters
    ----------
    claim_id : str
        The claim's ID.
    *seeds : str
        The seed files (:data:`S0`, :data:`S2`) the statement stands in.
    section : str, optional
        Its catalogue section (default :data:`REBUTTAL_SECTION`).
    origin : {"seed", "package"}, optional
        ``"seed"`` (default) for a statement the seeds make.
    **fields
        The other keywords of :func:`moetheory.claim` (``statement``, ``sources``, ``covers``,
        ``reading``, ``kind`` ...).

    Returns
    -------
    callable
        The decorator of :func:`moetheory.claim`.

    See Also
    --------
    moetheory.claim : the registration.

    Examples
    --------
    >>> from moetheory.engine.registry import get_claim, unregister
    >>> @seed_claim("example.seed-claim", S0, statement="1 + 1 = 2", reading="integers")
    ... def _check(ctx):
    ...     pass
    >>> c = get_claim("example.seed-claim")
    >>> c.seed_files, c.origin, c.section == REBUTTAL_SECTION
    (('000_7b6465990ad3b04b.txt',), 'seed', True)
    >>> unregister("example.seed-claim")
    """
    return claim(claim_id, seed_files=list(seeds), section=section, origin=origin, **fields)


#: The sample size of the rate statements (sequences in n).
n = sp.Symbol("n", positive=True)
#: A rate exponent c > 0 and the power tau > 0 of a logarithmic rate 1/log^tau(n).
c_, tau = sp.symbols("c tau", positive=True)


def limit_at_infinity(expr: sp.Expr) -> sp.Expr:
    """The limit of ``expr`` as n -> oo.

    Examples
    --------
    >>> limit_at_infinity(1 / n)
    0
    """
    return sp.limit(expr, n, sp.oo)
