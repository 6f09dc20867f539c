"""The fixed claim catalogue: IDs, seed files, sections and statements.

Every claim the seed documents make has a row in
:data:`~moetheory.engine._catalogue_data.CATALOGUE_ROWS`; this module turns the rows into
:class:`ClaimSpec` objects with validated provenance (:class:`Source` lines, audit-row keys,
origin). Checks register against these IDs (:func:`moetheory.claim`).

See Also
--------
moetheory.engine.papers : the paper each seed document belongs to.

Examples
--------
>>> spec = catalogue_spec("pcr.pde.cosine")
>>> spec.section != "" and spec.origin in ORIGINS
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from moetheory.engine._catalogue_data import CATALOGUE_ROWS
from moetheory.engine._catalogue_latex import STATEMENT_LATEX

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
    """A catalogued claim as the seed makes it.

    Parameters
    ----------
    id : str
        The claim's ID.
    section : str
        The paper section it belongs to.
    seed_files : tuple of str
        The seed files that make it (primary first).
    statement : str
        The statement as the seed makes it.
    sources : tuple of Source
        Where it stands in the seeds.
    covers : tuple of str
        Audit-row keys it covers.
    origin : {"seed", "package"}
        ``"package"`` for statements the package adds.
    statement_latex : str
        Typeset statement (Markdown prose, formulas inside ``$...$``); empty if none.

    See Also
    --------
    catalogue_spec : looks one up.

    Notes
    -----
    Frozen; rows of ``_catalogue_data`` become specs when the module is imported.

    Examples
    --------
    >>> catalogue_spec("pcr.pde.cosine").seed_files[0]
    '002_ed39350ac6d6e1c0.txt'
    """

    id: str
    section: str
    seed_files: tuple[str, ...]
    statement: str
    sources: tuple[Source, ...] = ()
    covers: tuple[str, ...] = ()
    origin: str = "seed"
    statement_latex: str = ""


def _spec(row: tuple) -> ClaimSpec:  # type: ignore[type-arg]
    cid, section, seeds, statement, *extra = row
    meta: dict = extra[0] if extra else {}  # type: ignore[type-arg]
    origin = meta.get("origin", "seed")
    if origin not in ORIGINS:
        raise ValueError(f"catalogue row {cid}: origin must be one of {ORIGINS}")
    return ClaimSpec(
        cid,
        section,
        tuple(seeds),
        statement,
        sources=normalise_sources(meta.get("sources")),
        covers=tuple(meta.get("covers", ())),
        origin=origin,
        statement_latex=meta.get("statement_latex") or STATEMENT_LATEX.get(cid, ""),
    )


#: Each row of :data:`~moetheory.engine._catalogue_data.CATALOGUE_ROWS` is
#: ``(id, section, seed_files, statement)`` optionally followed by a dict with ``sources``
#: (``{seed_file: [1-based lines]}``), ``covers`` (audit-row keys), ``origin`` and
#: ``statement_latex`` (the typeset statement; default: the row's entry in
#: :data:`~moetheory.engine._catalogue_latex.STATEMENT_LATEX`).
CATALOGUE: tuple[ClaimSpec, ...] = tuple(_spec(row) for row in CATALOGUE_ROWS)

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
    The catalogue (``_catalogue_data``) lists the seeds' checkable statements; claims the
    package adds (``<id>.corrected``, its own questions) are registered but not catalogued.

    Examples
    --------
    >>> catalogue_spec("no.such.claim") is None
    True
    """
    return _BY_ID.get(claim_id)
