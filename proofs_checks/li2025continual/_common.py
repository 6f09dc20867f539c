"""The paper's defaults shared by every section module: its seed file, its section, and
the :func:`~moetheory.claim` decorators with those defaults filled in."""

from __future__ import annotations

import functools

from moetheory import claim

__all__ = [
    "SECTION", "SEED_FILE", "exact_claim", "paper_claim", "src",
]


SEED_FILE = "003_3078ccb5100b14b7.txt"
SECTION = "Continual learning with MoE"


def src(*lines: int) -> dict[str, list[int]]:
    """The ``sources`` of a claim: ``lines`` (1-based) of the seed file.

    Examples
    --------
    >>> src(49, 64)
    {'003_3078ccb5100b14b7.txt': [49, 64]}
    """
    return {SEED_FILE: list(lines)}


#: :func:`~moetheory.claim` for a statistical claim of the paper stated in the seed.
paper_claim = functools.partial(claim, kind="statistical", seed_files=[SEED_FILE],
                                section=SECTION, origin="seed")


def exact_claim(cid: str, lines: list[int], covers: list[str], statement: str, reading: str,
                origin: str = "seed"):  # type: ignore[no-untyped-def]
    """:func:`~moetheory.claim` for an exact proof step stated at ``lines`` of the seed."""
    return claim(
        cid, reading=reading, kind="exact", statement=statement, seed_files=[SEED_FILE],
        section=SECTION, sources={SEED_FILE: lines}, covers=covers, origin=origin,
    )
