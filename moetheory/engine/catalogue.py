"""The fixed claim catalogue: the IDs of ``claims.md``, their sections and seed files.

Every claim of the original catalogue has a row in
:data:`~moetheory.engine._catalogue_data.CATALOGUE_ROWS`; this module turns the rows into
:class:`ClaimSpec` objects. The catalogue fixes the IDs, their order in the reports and which
seed each comes from; what a claim says (statement, typeset statement, sources, audit rows,
origin) stands beside its check, in its :func:`moetheory.claim`. Checks register against these
IDs; the registry gives any ID nobody registers a placeholder, so a report always shows the
whole catalogue. This module also holds the provenance types (:class:`Source`,
:func:`normalise_sources`, :data:`ORIGINS`) and the seed documents (:data:`SEED_FILES`).

See Also
--------
moetheory.engine.papers : the paper each seed document belongs to.

Examples
--------
>>> spec = catalogue_spec("pcr.pde.cosine")
>>> spec.section != "" and spec.seed_files[0]
'002_ed39350ac6d6e1c0.txt'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from moetheory.engine._catalogue_data import CATALOGUE_ROWS

__all__ = [
    "CATALOGUE",
    "ORIGINS",
    "SEED_FILES",
    "ClaimSpec",
    "Source",
    "catalogue_spec",
    "normalise_sources",
]

#: ``seed``: the statement is the seed's own; ``package``: a statement this package adds
#: (a stronger or neighbouring question, a corrected form). A refuted ``package`` claim is
#: never a finding against the seed.
ORIGINS: tuple[str, ...] = ("seed", "package")

SEED_FILES: dict[str, str] = {
    "000_7b6465990ad3b04b.txt": "Rebuttal: Statistical Advantages of Perturbing Cosine Router",
    "001_4a7126a84a0d22c9.txt": "Review summary: Adaptive Mixtures of Local Experts (1991)",
    "002_ed39350ac6d6e1c0.txt": "Paper: Statistical Advantages of Perturbing Cosine Router",
    "003_3078ccb5100b14b7.txt": "Paper (Chinese translation): Theory on MoE in Continual Learning",
}


@dataclass(frozen=True)
class Source:
    """Where a statement stands: a seed file and its 1-based line numbers.

    Parameters
    ----------
    seed_file : str
        File name of the seed under ``shared/seeds/``.
    lines : tuple of int
        1-based line numbers.

    See Also
    --------
    normalise_sources : builds them from ``{seed_file: [lines]}``.

    Notes
    -----
    Line numbers are 1-based, as an editor shows them.

    Examples
    --------
    >>> Source("002_ed39350ac6d6e1c0.txt", (56,)).as_json()
    {'seed_file': '002_ed39350ac6d6e1c0.txt', 'lines': [56]}
    """

    seed_file: str
    lines: tuple[int, ...]

    def as_json(self) -> dict[str, object]:
        """The JSON form used in reports and ``moetheory list --json``.

        Returns
        -------
        dict
            ``{"seed_file": str, "lines": list of int}``.

        Examples
        --------
        >>> Source("a.txt", (3, 4)).as_json()["lines"]
        [3, 4]
        """
        return {"seed_file": self.seed_file, "lines": list(self.lines)}


SourcesLike = Iterable[tuple[str, Iterable[int]] | Source] | Mapping[str, Iterable[int]]


def normalise_sources(sources: SourcesLike | None) -> tuple[Source, ...]:
    """``sources`` as a tuple of :class:`Source`, validated.

    Parameters
    ----------
    sources : mapping, iterable or None
        ``{"seed_file": [lines]}``, ``[("seed_file", [lines]), ...]`` or :class:`Source`
        objects; a single line may be given as an ``int``.

    Returns
    -------
    tuple of Source
        In the order given (empty for ``None``).

    Raises
    ------
    ValueError
        If a seed file is unknown (not in :data:`SEED_FILES`), a line is not a positive
        integer, or ``sources`` is a string.

    See Also
    --------
    Source : one entry.

    Notes
    -----
    Line numbers are 1-based, as an editor shows them; they are kept in the order given.

    Examples
    --------
    >>> normalise_sources({"001_4a7126a84a0d22c9.txt": [3]})
    (Source(seed_file='001_4a7126a84a0d22c9.txt', lines=(3,)),)
    """
    if sources is None:
        return ()
    if isinstance(sources, str):
        raise ValueError("sources must map seed files to line numbers, not be a string")
    items = sources.items() if isinstance(sources, Mapping) else sources
    out: list[Source] = []
    for item in items:
        if isinstance(item, Source):
            out.append(item)
            continue
        seed_file, lines = item
        if seed_file not in SEED_FILES:
            raise ValueError(
                f"sources: unknown seed file {seed_file!r}; known: {sorted(SEED_FILES)}"
            )
        if isinstance(lines, int):
            lines = (lines,)
        nums = tuple(int(n) for n in lines)
        if not nums or any(n < 1 for n in nums):
            raise ValueError(
                f"sources: lines of {seed_file} must be 1-based line numbers, got {nums}"
            )
        out.append(Source(seed_file, nums))
    return tuple(out)


@dataclass(frozen=True)
class ClaimSpec:
    """A catalogued claim's place: its ID, the section and the seed files it comes from.

    Parameters
    ----------
    id : str
        The claim's ID.
    section : str
        The paper section it belongs to.
    seed_files : tuple of str
        The seed files that make it (primary first).

    See Also
    --------
    catalogue_spec : looks one up.
    moetheory.engine.registry.get_claim : the registered claim, with what it says.

    Notes
    -----
    Frozen; rows of ``_catalogue_data`` become specs when the module is imported. The
    claim's statement and provenance are given by its check's :func:`moetheory.claim`.

    Examples
    --------
    >>> catalogue_spec("pcr.pde.cosine").seed_files[0]
    '002_ed39350ac6d6e1c0.txt'
    """

    id: str
    section: str
    seed_files: tuple[str, ...]


#: Each row of :data:`~moetheory.engine._catalogue_data.CATALOGUE_ROWS` is
#: ``(id, section, seed_files)``, in report order.
CATALOGUE: tuple[ClaimSpec, ...] = tuple(
    ClaimSpec(cid, section, tuple(seeds)) for cid, section, seeds in CATALOGUE_ROWS
)

_BY_ID = {spec.id: spec for spec in CATALOGUE}


def catalogue_spec(claim_id: str) -> ClaimSpec | None:
    """Return the catalogue entry for ``claim_id``, or ``None`` for a claim not catalogued.

    Parameters
    ----------
    claim_id : str
        A claim ID, e.g. ``"pcr.pde.cosine"``.

    Returns
    -------
    ClaimSpec or None
        The catalogued claim; ``None`` for an ID the package or a plugin adds.

    See Also
    --------
    moetheory.engine.registry.get_claim : the registered claim (catalogued or not).

    Notes
    -----
    The catalogue (``_catalogue_data``) lists the IDs of ``claims.md``; claims the package
    adds (``<id>.corrected``, its own questions, every statement found by the full reads of
    the seeds) are registered but not catalogued.

    Examples
    --------
    >>> catalogue_spec("no.such.claim") is None
    True
    """
    return _BY_ID.get(claim_id)
