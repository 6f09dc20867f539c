"""The run's family-wise error level and its Bonferroni share per statistical claim.

The engine gives each statistical claim ``ctx.alpha = claim_alpha(N)``; :mod:`moetheory.stats`
re-exports both names for checks and users.
"""

from __future__ import annotations

__all__ = ["FAMILY_ALPHA", "claim_alpha"]

#: Family-wise error level of a whole verification run.
FAMILY_ALPHA = 0.05


def claim_alpha(n_statistical_claims: int, family_alpha: float = FAMILY_ALPHA) -> float:
    """Bonferroni share of the family level for one statistical claim.

    Parameters
    ----------
    n_statistical_claims : int
        Number of statistical claims of the claim's family (all registered ones, not only
        the selected ones), at least 1.
    family_alpha : float
        Family-wise error level of a run (default :data:`FAMILY_ALPHA`).

    Returns
    -------
    float
        :math:`\\alpha_{\\text{fam}} / N_{\\text{stat}}`.

    Raises
    ------
    ValueError
        If ``n_statistical_claims < 1``.

    See Also
    --------
    moetheory.engine.runner.claim_context : gives each claim this share as ``ctx.alpha``.

    Notes
    -----
    By the union bound the probability that any interval of a run misses its true value is
    at most :math:`\\sum_{\\text{claims}} \\alpha_{\\text{fam}}/N_{\\text{stat}} =
    \\alpha_{\\text{fam}}`.

    Examples
    --------
    >>> claim_alpha(25)
    0.002
    """
    if n_statistical_claims < 1:
        raise ValueError(f"n_statistical_claims must be >= 1, got {n_statistical_claims}")
    return family_alpha / n_statistical_claims
