"""Statements of the seeds that no claim checks, each with the reason (the coverage ledger).

Each row is ``(key, seed_file, lines, reason)``: ``key`` is the audit-row key of
``shared/audit-rows.md`` (``"003-41"``) or, for a statement found by the package's own read,
``"<seed prefix>-own-<n>"``; ``lines`` are 1-based line numbers of the seed file. A statement
that a claim checks is recorded on the claim (``sources`` and ``covers``), never here.
"""

UNCHECKED: tuple[tuple[str, str, tuple[int, ...], str], ...] = (
    # Seed 000 (rebuttal) and 002 (paper): rows are added by the coverage work on those seeds.
    # Seed 003 (continual learning): rows are added by the coverage work on that seed.
)
