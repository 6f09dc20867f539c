"""What the section modules of the Jacobs et al. (1991) checks share: the seed, the claim
decorator of the review's statements and the softmax gate in symbols."""

from __future__ import annotations

import functools

import sympy as sp

from moetheory import claim

__all__ = ["S1", "SECTION", "gate_symbols", "review_claim"]

#: The seed: a review summary of the paper.
S1 = "001_4a7126a84a0d22c9.txt"
#: The catalogue section of the review's statements.
SECTION = "Jacobs, Jordan, Nowlan & Hinton 1991"

#: :func:`moetheory.claim` for a statement of the review (seed 001, line 3): give the claim
#: ID, ``statement``, ``covers`` and ``reading`` (and ``kind`` for a statistical claim).
review_claim = functools.partial(
    claim, seed_files=[S1], section=SECTION, sources={S1: [3]}, origin="seed"
)


def gate_symbols(k: int) -> tuple[tuple[sp.Symbol, ...], list[sp.Expr]]:
    """Real logits ``z1..zk`` and the softmax gate ``p_i = exp(z_i) / sum_j exp(z_j)``."""
    z = sp.symbols(f"z1:{k + 1}", real=True)
    den = sum(sp.exp(zi) for zi in z)
    return z, [sp.exp(zi) / den for zi in z]
