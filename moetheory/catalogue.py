"""The fixed claim catalogue: IDs, seed files, sections and statements."""

from __future__ import annotations

from dataclasses import dataclass

from moetheory._catalogue_data import CATALOGUE_ROWS

__all__ = ["CATALOGUE", "SEED_FILES", "ClaimSpec", "catalogue_spec"]

SEED_FILES: dict[str, str] = {
    "000_7b6465990ad3b04b.txt": "Rebuttal: Statistical Advantages of Perturbing Cosine Router",
    "001_4a7126a84a0d22c9.txt": "Review summary: Adaptive Mixtures of Local Experts (1991)",
    "002_ed39350ac6d6e1c0.txt": "Paper: Statistical Advantages of Perturbing Cosine Router",
    "003_3078ccb5100b14b7.txt": "Paper (Chinese translation): Theory on MoE in Continual Learning",
}


@dataclass(frozen=True)
class ClaimSpec:
    """A catalogued claim as the seed makes it.

    Examples
    --------
    >>> catalogue_spec("pcr.pde.cosine").seed_files[0]
    '002_ed39350ac6d6e1c0.txt'
    """

    id: str
    section: str
    seed_files: tuple[str, ...]
    statement: str


CATALOGUE: tuple[ClaimSpec, ...] = tuple(
    ClaimSpec(cid, section, seeds, statement)
    for cid, section, seeds, statement in CATALOGUE_ROWS
)

_BY_ID = {spec.id: spec for spec in CATALOGUE}


def catalogue_spec(claim_id: str) -> ClaimSpec | None:
    """Return the catalogue entry for ``claim_id``, or ``None`` for a claim not catalogued."""
    return _BY_ID.get(claim_id)
