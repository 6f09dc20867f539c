"""The coverage ledger: for every seed, each line range holding a checkable statement, with
the claims that check it or the reason no claim does.

The ledger is built from the registry alone -- each claim's ``sources`` and ``covers`` -- and
from :data:`~moetheory.engine._ledger_data.UNCHECKED`, so it cannot drift from the catalogue:
the pages under ``docs/ledger`` are regenerated from it and a test compares them with a fresh
generation. It does not run any check, so the pages are the same on every machine.

The audit list ``shared/audit-rows.md`` (one row per checkable statement found by a first
read) is parsed by :func:`read_audit_rows`; :func:`uncovered_audit_rows` lists the rows that
neither a claim's ``covers`` nor an ``UNCHECKED`` row accounts for.

Command line::

    python -m moetheory.engine.ledger --out docs/ledger          # write the pages
    python -m moetheory.engine.ledger --out docs/ledger --check  # exit 1 when stale
"""

from __future__ import annotations

import re
import sys
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from moetheory._doccer import fill_doc
from moetheory.engine._ledger_data import UNCHECKED
from moetheory.engine._page_folder import check_page_folder, stale_pages, sync_pages
from moetheory.engine.catalogue import SEED_FILES

__all__ = [
    "AuditRow",
    "LedgerEntry",
    "UncheckedRow",
    "build_ledger",
    "format_lines",
    "generate_ledger_pages",
    "ledger_page_name",
    "main",
    "read_audit_rows",
    "render_ledger_index",
    "render_ledger_page",
    "seed_file_for_key",
    "unchecked_rows",
    "uncovered_audit_rows",
]


@dataclass(frozen=True)
class UncheckedRow:
    """A statement of a seed that no claim checks, and why (a row of ``UNCHECKED``).

    Parameters
    ----------
    key : str
        Audit key, e.g. ``"003-own-1"``.
    seed_file : str
        The seed file holding the statement.
    lines : tuple of int
        Its 1-based lines, sorted.
    reason : str
        Why no claim checks it.

    See Also
    --------
    unchecked_rows : builds and validates these rows.

    Notes
    -----
    The rows live in :data:`moetheory.engine._ledger_data.UNCHECKED`; a statement read from a
    seed is either checked by a claim or recorded here with its reason, never silently dropped.

    Examples
    --------
    >>> UncheckedRow("003-own-1", "003_3078ccb5100b14b7.txt", (243,), "hardware").lines
    (243,)
    """

    key: str
    seed_file: str
    lines: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class AuditRow:
    """A row of ``shared/audit-rows.md``: its key, seed line text and statement.

    Parameters
    ----------
    key : str
        Audit key, ``NNN-k`` (``NNN`` the seed's number).
    partial : bool
        Whether the row is marked ``P`` (partly checkable).
    lines : str
        The seed lines as the row writes them, e.g. ``"L221"``.
    statement : str
        The checkable statement.

    See Also
    --------
    read_audit_rows : parses the rows.
    uncovered_audit_rows : the rows nothing accounts for.

    Notes
    -----
    The audit list is a first read of the seeds; the ledger checks that every row is covered
    by a claim (``covers``) or explained by an ``UNCHECKED`` row.

    Examples
    --------
    >>> AuditRow("003-05", True, "L221", "more experts").partial
    True
    """

    key: str
    partial: bool
    lines: str
    statement: str


@dataclass
class LedgerEntry:
    """One line range of a seed and what accounts for it.

    Parameters
    ----------
    seed_file : str
        The seed file.
    lines : tuple of int
        The 1-based lines, sorted, as the claims or ``UNCHECKED`` rows give them.
    claims : list of str
        IDs of the claims whose ``sources`` name exactly these lines of this seed.
    keys : list of str
        Audit-row keys those claims cover, or the keys of the ``UNCHECKED`` rows.
    reasons : list of str
        Why the statement is not checked (``UNCHECKED`` rows); empty when a claim checks it.

    See Also
    --------
    build_ledger : builds the entries of every seed.

    Notes
    -----
    An entry with claims is *checked*; one with only reasons is *recorded with the reason no
    claim checks it*. The ledger pages count both per seed.

    Examples
    --------
    >>> e = LedgerEntry("003_3078ccb5100b14b7.txt", (74,), ["cl.x"], ["003-12"])
    >>> bool(e.claims), e.reasons
    (True, [])
    """

    seed_file: str
    lines: tuple[int, ...]
    claims: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)


#: The Raises section of the functions that read ``UNCHECKED`` through :func:`unchecked_rows`
#: (:func:`moetheory._doccer.fill_doc`).
_ROWS_DOC = {
    "raises": """Raises
------
ValueError
    If an ``UNCHECKED`` row is malformed (see :func:`unchecked_rows`).""",
}

def unchecked_rows(rows: Iterable[tuple] = UNCHECKED) -> list[UncheckedRow]:  # type: ignore[type-arg]
    """The ``UNCHECKED`` rows, validated.

    Parameters
    ----------
    rows : iterable of tuple
        ``(key, seed_file, lines, reason)`` rows; default :data:`UNCHECKED`.

    Returns
    -------
    list of UncheckedRow
        One per row, in the given order, lines sorted.

    Raises
    ------
    ValueError
        For an unknown seed file, an empty line list, a line < 1, an empty reason or a
        repeated key.

    See Also
    --------
    build_ledger : places these rows in the ledger.

    Notes
    -----
    Validation happens when the ledger is built, so a malformed row fails the ledger test
    rather than producing a page with a wrong line link.

    Examples
    --------
    >>> unchecked_rows([("003-own-1", "003_3078ccb5100b14b7.txt", (243,), "hardware")])[0].lines
    (243,)
    """
    out: list[UncheckedRow] = []
    seen: set[str] = set()
    for key, seed_file, lines, reason in rows:
        if seed_file not in SEED_FILES:
            raise ValueError(f"UNCHECKED row {key}: unknown seed file {seed_file!r}")
        nums = tuple(sorted(int(n) for n in lines))
        if not nums or nums[0] < 1:
            raise ValueError(f"UNCHECKED row {key}: lines must be 1-based line numbers")
        if not str(reason).strip():
            raise ValueError(f"UNCHECKED row {key}: the reason must not be empty")
        if key in seen:
            raise ValueError(f"UNCHECKED row {key} appears twice")
        seen.add(key)
        out.append(UncheckedRow(key, seed_file, nums, str(reason).strip()))
    return out


@fill_doc(_ROWS_DOC)
def build_ledger(
    claims: Iterable | None = None,  # type: ignore[type-arg]
    unchecked: Iterable[tuple] | None = None,  # type: ignore[type-arg]
) -> dict[str, list[LedgerEntry]]:
    """The ledger: per seed file, its line ranges in line order with claims or reasons.

    Parameters
    ----------
    claims : iterable of Claim, optional
        Objects with ``id``, ``sources`` (each with ``seed_file`` and ``lines``) and
        ``covers``; default: every registered claim (the check modules are imported, no check
        is run).
    unchecked : iterable of tuple, optional
        ``(key, seed_file, lines, reason)`` rows; default :data:`UNCHECKED`.

    Returns
    -------
    dict
        ``{seed_file: [LedgerEntry, ...]}`` for every seed of :data:`SEED_FILES`, entries
        sorted by first line, then by the line tuple.

    %(raises)s

    See Also
    --------
    generate_ledger_pages : the ledger as Markdown pages.
    uncovered_audit_rows : audit rows the ledger does not account for.

    Notes
    -----
    Claims whose ``sources`` name exactly the same lines of a seed share one entry; an audit key
    is attached to an entry only when it belongs to that entry's seed (its ``NNN-`` prefix).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> src = NS(seed_file="003_3078ccb5100b14b7.txt", lines=(74,))
    >>> c = NS(id="cl.x", sources=(src,), covers=("003-12",))
    >>> book = build_ledger([c], [])
    >>> [(e.lines, e.claims, e.keys) for e in book["003_3078ccb5100b14b7.txt"]]
    [((74,), ['cl.x'], ['003-12'])]
    """
    if claims is None:
        claims = _registered()
    rows = unchecked_rows(UNCHECKED if unchecked is None else unchecked)
    table: dict[tuple[str, tuple[int, ...]], LedgerEntry] = {}

    def entry(seed_file: str, lines: tuple[int, ...]) -> LedgerEntry:
        key = (seed_file, lines)
        if key not in table:
            table[key] = LedgerEntry(seed_file, lines)
        return table[key]

    for c in claims:
        for src in c.sources:
            e = entry(src.seed_file, tuple(sorted(src.lines)))
            e.claims.append(c.id)
            prefix = src.seed_file[:3]
            for k in c.covers:
                if k.startswith(prefix) and k not in e.keys:
                    e.keys.append(k)
    for row in rows:
        e = entry(row.seed_file, row.lines)
        e.keys.append(row.key)
        e.reasons.append(f"{row.key}: {row.reason}")
    book: dict[str, list[LedgerEntry]] = {seed: [] for seed in SEED_FILES}
    for (seed_file, _lines), e in table.items():
        book.setdefault(seed_file, []).append(e)
    for entries in book.values():
        entries.sort(key=lambda e: (e.lines[0], e.lines))
    return book


def format_lines(lines: Sequence[int]) -> str:
    """Line numbers as compact ranges.

    ``(272, 274, 275, 276, 280)`` gives ``"L272, L274–276, L280"``.

    Parameters
    ----------
    lines : sequence of int
        1-based line numbers (at least one), in any order, repeats allowed.

    Returns
    -------
    str
        Sorted, de-duplicated, consecutive runs joined with an en dash.

    See Also
    --------
    render_ledger_page : uses it in the "lines" column.

    Notes
    -----
    The ``L`` prefix matches the seed-page anchors (``seed-003.html#L74``).

    Examples
    --------
    >>> format_lines([272, 274, 275, 276, 280])
    'L272, L274–276, L280'
    """
    parts: list[str] = []
    nums = sorted(set(lines))
    start = prev = nums[0]
    for n in [*nums[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(f"L{start}" if start == prev else f"L{start}–{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


def ledger_page_name(seed_file: str) -> str:
    """The ledger page name of a seed file: ``"003_3078ccb5100b14b7.txt"`` gives ``"seed-003"``.

    Parameters
    ----------
    seed_file : str
        A seed file name, ``NNN_hash.txt``.

    Returns
    -------
    str
        ``"seed-NNN"`` (without the ``.md`` suffix, as a toctree entry).

    See Also
    --------
    render_ledger_index : links the pages by these names.

    Notes
    -----
    The same ``seed-NNN`` stem names the seed's text page among the claim pages, under a
    different folder.

    Examples
    --------
    >>> ledger_page_name("003_3078ccb5100b14b7.txt")
    'seed-003'
    """
    return f"seed-{seed_file[:3]}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _ids_as_code(text: str, claim_ids: Collection[str]) -> str:
    """``text`` with each of ``claim_ids`` it names, outside code spans, set as code (which
    the docs link to the claim)."""
    if not claim_ids:
        return text
    pattern = re.compile(
        r"(?<![\w.\-/`])("
        + "|".join(re.escape(i) for i in sorted(claim_ids, key=len, reverse=True))
        + r")(?![\w\-`]|\.[a-z0-9])"
    )
    parts = text.split("`")
    parts[::2] = [pattern.sub(r"`\1`", part) for part in parts[::2]]
    return "`".join(parts)


def render_ledger_page(
    seed_file: str, entries: Sequence[LedgerEntry], claim_ids: Collection[str] = ()
) -> str:
    """The Markdown page of one seed's ledger.

    Parameters
    ----------
    seed_file : str
        The seed file.
    entries : sequence of LedgerEntry
        Its ledger entries (from :func:`build_ledger`).
    claim_ids : collection of str, optional
        Claim IDs that a reason may name: each is set as code there, so that the docs link
        it to the claim.

    Returns
    -------
    str
        A title, a count line and one table row per entry (lines, audit rows, claims,
        reasons).

    See Also
    --------
    generate_ledger_pages : all the pages at once.

    Notes
    -----
    Pipes inside reasons are escaped so a reason can never break the table.

    Examples
    --------
    >>> e = LedgerEntry("003_3078ccb5100b14b7.txt", (74,), ["cl.x"], ["003-12"])
    >>> page = render_ledger_page("003_3078ccb5100b14b7.txt", [e])
    >>> "| L74 | 003-12 | `cl.x` | — |" in page
    True
    >>> e = LedgerEntry("003_3078ccb5100b14b7.txt", (75,), [], ["003-13"],
    ...                 ["003-13: checked through cl.x instead"])
    >>> page = render_ledger_page("003_3078ccb5100b14b7.txt", [e], ["cl.x"])
    >>> "003-13: checked through `cl.x` instead |" in page
    True
    """
    checked = sum(1 for e in entries if e.claims)
    lines = [
        f"# Coverage ledger: {SEED_FILES.get(seed_file, seed_file)}",
        "",
        f"Seed file `{seed_file}`. Generated by `python -m moetheory.engine.ledger` from the "
        "claims' `sources` and `covers` and from `moetheory/engine/_ledger_data.py`; do not "
        "edit by hand.",
        "",
        f"{len(entries)} line ranges: {checked} checked by at least one claim, "
        f"{len(entries) - checked} recorded with the reason no claim checks them.",
        "",
        "| lines | audit rows | checked by | reason not checked |",
        "|---|---|---|---|",
    ]
    for e in entries:
        claims = ", ".join(f"`{c}`" for c in e.claims) or "—"
        keys = ", ".join(e.keys) or "—"
        reasons = "; ".join(_cell(_ids_as_code(r, claim_ids)) for r in e.reasons) or "—"
        lines.append(f"| {format_lines(e.lines)} | {keys} | {claims} | {reasons} |")
    return "\n".join(lines) + "\n"


def render_ledger_index(
    book: Mapping[str, Sequence[LedgerEntry]], unsourced: Sequence[str] = ()
) -> str:
    """The index page of the ledger, one row per seed, then the claims without ``sources``.

    Parameters
    ----------
    book : mapping of str to sequence of LedgerEntry
        The ledger (from :func:`build_ledger`).
    unsourced : sequence of str
        IDs of seed claims that record no ``sources``.

    Returns
    -------
    str
        Markdown: an introduction, a toctree of the seed pages, a count table and the list of
        claims without provenance.

    See Also
    --------
    render_ledger_page : one seed's page.

    Notes
    -----
    The counts are those of :func:`render_ledger_page`: an entry is checked when a claim
    names its lines.

    Examples
    --------
    >>> page = render_ledger_index({"003_3078ccb5100b14b7.txt": []})
    >>> page.splitlines()[0]
    '# Coverage ledger'
    """
    lines = [
        "# Coverage ledger",
        "",
        "For every seed, each line range that holds a checkable statement, with the claims "
        "that check it or the reason it is out of scope. Generated from the catalogue by "
        "`python -m moetheory.engine.ledger --out docs/ledger`, so it cannot drift.",
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        *[ledger_page_name(seed) for seed in book],
        "```",
        "",
        "| seed | line ranges | checked | with a reason |",
        "|---|---|---|---|",
    ]
    for seed, entries in book.items():
        checked = sum(1 for e in entries if e.claims)
        page = ledger_page_name(seed)
        lines.append(
            f"| [{SEED_FILES.get(seed, seed)}]({page}.md) | {len(entries)} | {checked} "
            f"| {len(entries) - checked} |"
        )
    lines += ["", "## Claims without provenance", ""]
    if unsourced:
        lines.append("These registered claims record no seed lines (`sources`) yet:")
        lines.append("")
        lines += [f"- `{cid}`" for cid in unsourced]
    else:
        lines.append("Every registered claim records the seed lines it checks.")
    return "\n".join(lines) + "\n"


def _registered() -> list:  # type: ignore[type-arg]
    from moetheory.engine.registry import load_checks, registered

    load_checks()
    return registered()


def generate_ledger_pages(
    book: Mapping[str, Sequence[LedgerEntry]] | None = None,
    claims: Iterable | None = None,  # type: ignore[type-arg]
) -> dict[str, str]:
    """The ledger pages: the index and one page per seed.

    Parameters
    ----------
    book : mapping of str to sequence of LedgerEntry, optional
        The ledger; default: :func:`build_ledger` of ``claims``.
    claims : iterable of Claim, optional
        Default: every registered claim.

    Returns
    -------
    dict of str to str
        ``{file name: Markdown}``: ``index.md`` (which also lists the seed claims that record
        no ``sources``) and ``seed-NNN.md`` per seed.

    See Also
    --------
    main : writes or checks the pages.

    Notes
    -----
    A pure function of the registry and ``UNCHECKED``: no check runs, so the pages are the same
    on every machine and a test compares them with a fresh generation.

    Examples
    --------
    >>> pages = generate_ledger_pages(claims=[])
    >>> sorted(pages)[0]
    'index.md'
    """
    claims = _registered() if claims is None else list(claims)
    book = build_ledger(claims) if book is None else book
    unsourced = sorted(c.id for c in claims if not c.sources and getattr(c, "origin", "seed")
                       == "seed")
    pages = {"index.md": render_ledger_index(book, unsourced)}
    for seed, entries in book.items():
        pages[f"{ledger_page_name(seed)}.md"] = render_ledger_page(
            seed, entries, [c.id for c in claims])
    return pages


_ROW = re.compile(r"^\|\s*(\d{3}-\d+)(\s+P)?\s*\|([^|]*)\|(.*)$")


def read_audit_rows(path: str | Path) -> list[AuditRow]:
    r"""Parse the rows of ``shared/audit-rows.md`` (``| key [P] | lines | statement | how |``).

    Parameters
    ----------
    path : path
        The audit-rows Markdown file.

    Returns
    -------
    list of AuditRow
        One per table row whose first cell is an audit key, in file order.

    See Also
    --------
    uncovered_audit_rows : which of these rows nothing accounts for.

    Notes
    -----
    Header and separator rows (no ``NNN-k`` key) are skipped; the last two cells are dropped
    from the statement, so a statement may itself contain ``|``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "rows.md"
    >>> _ = p.write_text("| key | line(s) |\n| 003-05 P | L221 | more experts | sim |\n")
    >>> [(r.key, r.partial, r.lines) for r in read_audit_rows(p)]
    [('003-05', True, 'L221')]
    """
    rows = []
    for text in Path(path).read_text(encoding="utf-8").splitlines():
        m = _ROW.match(text.strip())
        if m:
            statement = m.group(4).rsplit("|", 2)[0].strip()
            rows.append(AuditRow(m.group(1), bool(m.group(2)), m.group(3).strip(), statement))
    return rows


def seed_file_for_key(key: str) -> str:
    """The seed file an audit key such as ``"003-17"`` belongs to.

    Parameters
    ----------
    key : str
        An audit key whose first three characters are a seed's number.

    Returns
    -------
    str
        The seed file name.

    Raises
    ------
    ValueError
        If no seed file starts with the key's prefix.

    See Also
    --------
    read_audit_rows : where the keys come from.

    Notes
    -----
    Matches the prefix ``NNN_`` of :data:`~moetheory.engine.catalogue.SEED_FILES`.

    Examples
    --------
    >>> seed_file_for_key("003-17")
    '003_3078ccb5100b14b7.txt'
    """
    for seed in SEED_FILES:
        if seed.startswith(key[:3] + "_"):
            return seed
    raise ValueError(f"audit key {key!r} names no known seed (prefixes: {sorted(SEED_FILES)})")


@fill_doc(_ROWS_DOC)
def uncovered_audit_rows(
    rows: Iterable[AuditRow],
    claims: Iterable | None = None,  # type: ignore[type-arg]
    unchecked: Iterable[tuple] | None = None,  # type: ignore[type-arg]
) -> list[str]:
    """Keys of the audit rows that no claim covers and no ``UNCHECKED`` row explains.

    Parameters
    ----------
    rows : iterable of AuditRow
        The audit rows (from :func:`read_audit_rows`).
    claims : iterable of Claim, optional
        Objects with ``covers``; default: every registered claim.
    unchecked : iterable of tuple, optional
        ``UNCHECKED``-style rows; default :data:`UNCHECKED`.

    Returns
    -------
    list of str
        The uncovered keys, in the order of ``rows``.

    %(raises)s

    See Also
    --------
    build_ledger : the ledger of what is covered, seed line by seed line.

    Notes
    -----
    The ledger test asserts this list is empty: every statement of the first read is either
    checked or given a reason.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> rows = [AuditRow("003-12", False, "L74", "GD"), AuditRow("003-13", False, "L80", "x")]
    >>> uncovered_audit_rows(rows, [NS(id="a", sources=(), covers=("003-12",))], [])
    ['003-13']
    """
    if claims is None:
        claims = _registered()
    covered = {k for c in claims for k in c.covers}
    covered |= {r.key for r in unchecked_rows(UNCHECKED if unchecked is None else unchecked)}
    return [r.key for r in rows if r.key not in covered]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write (or with ``--check`` compare) the ledger pages.

    Parameters
    ----------
    argv : sequence of str, optional
        ``--out DIR [--check]`` (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 on success; 1 with ``--check`` when a page is stale.

    See Also
    --------
    generate_ledger_pages : the pages written.

    Notes
    -----
    Writing removes the pages an earlier run wrote that are no longer generated, so a
    removed seed never leaves a stale page behind; no other file in the folder is touched.

    Examples
    --------
    ``--out`` is required (argparse exits with status 2 without it):

    >>> try:
    ...     main([])
    ... except SystemExit as exc:
    ...     print(exc.code)
    2
    """
    from moetheory.engine._arguments import OneLineParser
    from moetheory.engine.report import OutputPathError

    parser = OneLineParser(prog="python -m moetheory.engine.ledger")
    parser.add_argument("--out", type=Path, required=True, help="directory of the pages")
    parser.add_argument("--check", action="store_true", help="only report stale pages")
    args = parser.parse_args(argv)
    try:
        out = check_page_folder(args.out, "--out")
    except OutputPathError as exc:
        parser.error(str(exc))
    pages = generate_ledger_pages()
    if args.check:
        stale = stale_pages(pages, out)
        for name in stale:
            print(f"stale: {out / name}")
        return 1 if stale else 0
    try:
        sync_pages(pages, out)
    except OSError as exc:
        print(f"python -m moetheory.engine.ledger: error: --out {out}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    print(f"wrote {len(pages)} ledger pages to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
