"""The book's apparatus: where every claim is, which claims use which, each claim's verdict
history over the calibration seeds, the papers' numbered equations, and the page being
written.

A claim's texts name other claims ("as ``cl.prop4.generalization``") and the papers'
equations ("eq. (19)"). While a page is written (:func:`on_page`), every such name in the
text of a report becomes a link: a claim to its heading, an equation to its numbered display
in the page's preface. Outside a page (a claim rendered on its own) nothing is linked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from moetheory._doccer import fill_doc
from moetheory.docs._equations import Equation, paper_equations
from moetheory.docs._names import _page_of, _plain_file_name, claim_anchor
from moetheory.engine._docparts import REPORT_PARTS
from moetheory.engine.papers import PAPERS, paper_of

__all__: list[str] = []

#: The stored calibration rows, one JSON file per statistical claim.
CALIBRATION_DIR = Path(__file__).resolve().parents[2] / "benchmarks" / "calibration"


@dataclass
class Book:
    """What every page of one report's book needs to know about the others."""

    pages: dict[str, str] = field(default_factory=dict)  # claim ID -> page file (.md)
    uses: dict[str, list[str]] = field(default_factory=dict)
    used_by: dict[str, list[str]] = field(default_factory=dict)
    history: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    equations: dict[str, dict[str, Equation]] = field(default_factory=dict)  # paper -> no.
    _pattern: re.Pattern[str] | None = None

    @property
    def id_pattern(self) -> re.Pattern[str] | None:
        """A claim ID in running text (or in a code span), not part of a longer name."""
        if self._pattern is None and self.pages:
            names = "|".join(re.escape(i) for i in sorted(self.pages, key=len, reverse=True))
            self._pattern = re.compile(
                rf"`({names})`|(?<![\w.\-/`])({names})(?![\w\-`]|\.[A-Za-z0-9])"
            )
        return self._pattern


def _texts(entry: Mapping[str, Any]) -> Iterator[str]:
    for key in ("statement", "statement_latex", "reading", "summary", "summary_latex",
                "derivation"):
        if entry.get(key):
            yield str(entry[key])
    for r in entry.get("readings") or []:
        for key in ("reading", "reading_latex", "summary", "summary_latex", "derivation"):
            if r.get(key):
                yield str(r[key])


@fill_doc(REPORT_PARTS)
def build_book(
    report: Mapping[str, Any],
    seeds_dir: Path | None = None,
    calibration_dir: Path | None = CALIBRATION_DIR,
) -> Book:
    """The apparatus of ``report``'s book.

    Parameters
    ----------
    %(report)s
    seeds_dir : Path, optional
        The seed documents (for the papers' numbered equations).
    calibration_dir : Path, optional
        The stored calibration rows (``<claim>.json`` with ``shipped_verdicts``).

    Returns
    -------
    Book
        ``uses``: the claims a claim's texts name, and for ``X.corrected`` the claim ``X``;
        ``used_by``: the converse; ``history``: the calibration row of each claim that has
        one.

    Examples
    --------
    >>> book = build_book({"claims": [
    ...     {"id": "x.a", "seed_file": "s", "statement": "by x.b"},
    ...     {"id": "x.b", "seed_file": "s", "statement": "b"}]}, calibration_dir=None)
    >>> book.uses["x.a"], book.used_by["x.b"]
    (['x.b'], ['x.a'])
    """
    book = Book()
    claims = list(report.get("claims") or [])
    book.pages = {e["id"]: _page_of(e) for e in claims}
    pattern = book.id_pattern
    for e in claims:
        found: list[str] = []
        if e["id"].endswith(".corrected") and e["id"][: -len(".corrected")] in book.pages:
            found.append(e["id"][: -len(".corrected")])
        if pattern is not None:
            for text in _texts(e):
                for m in pattern.finditer(text):
                    cid = m.group(1) or m.group(2)
                    if cid != e["id"] and cid not in found:
                        found.append(cid)
        book.uses[e["id"]] = found
        for cid in found:
            book.used_by.setdefault(cid, []).append(e["id"])
    if calibration_dir is not None and Path(calibration_dir).is_dir():
        for e in claims:
            if not _plain_file_name(f"{e['id']}.json"):  # "../x", 300 characters: no row
                continue
            path = Path(calibration_dir) / f"{e['id']}.json"
            if path.is_file():
                try:
                    row = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
                if isinstance(row, Mapping) and isinstance(row.get("shipped_verdicts"), list):
                    book.history[e["id"]] = row
    for paper in PAPERS:
        book.equations[paper.key] = paper_equations(seeds_dir, paper.key)
    return book


# -- the page being written ------------------------------------------------------------------


@dataclass
class _Page:
    book: Book
    name: str  # the page's file name, e.g. "li2025continual-forgetting.md"
    paper: str | None  # the citation key of its paper
    equations: Sequence[str] = ()  # the numbers of the equations its preface displays


_CURRENT: ContextVar[_Page | None] = ContextVar("moetheory_docs_page", default=None)


@contextmanager
def on_page(book: Book, name: str, paper: str | None,
            equations: Sequence[str] = ()) -> Iterator[None]:
    """Write inside this block for page ``name``: claim IDs and equations become links."""
    token = _CURRENT.set(_Page(book, name, paper, tuple(equations)))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def current_book() -> Book | None:
    """The book of the page being written, if any."""
    page = _CURRENT.get()
    return page.book if page is not None else None


def claim_target(claim_id: str) -> str | None:
    """The link to a claim from the page being written (``#anchor`` on the same page)."""
    page = _CURRENT.get()
    if page is None or claim_id not in page.book.pages:
        return None
    where = page.book.pages[claim_id]
    anchor = claim_anchor(claim_id)
    return f"#{anchor}" if where == page.name else f"{where}#{anchor}"


def _equation_pattern(numbers: Sequence[str]) -> re.Pattern[str] | None:
    if not numbers:
        return None
    nums = "|".join(re.escape(n) for n in sorted(numbers, key=len, reverse=True))
    return re.compile(
        rf"(?:\b(?:[Ee]qs?\.|[Ee]quations?)\s*\(?(?P<a>{nums})\)?(?![\d.]\d))"
        rf"|(?:(?<=[\s(])\((?P<b>{nums})\)(?=[\s,.;:)]|$))"
    )


def references(text: str) -> list[tuple[str, str | None, str]]:
    """``text`` cut at the claim IDs and equation references it names, on the current page.

    Returns
    -------
    list of (str, str or None, str)
        ``(piece, target, kind)``: ``target`` is ``None`` for plain text; ``kind`` is
        ``"claim"`` or ``"equation"`` for a link.
    """
    page = _CURRENT.get()
    if page is None:
        return [(text, None, "")]
    patterns: list[tuple[str, re.Pattern[str]]] = []
    if page.book.id_pattern is not None:
        patterns.append(("claim", page.book.id_pattern))
    eq = _equation_pattern([n for n in page.equations if n.count(".") or int(n) >= 3]
                           if page.equations else [])
    if eq is not None and page.paper is not None:
        patterns.append(("equation", eq))
    found: list[tuple[int, int, str, str]] = []
    for kind, pattern in patterns:
        for m in pattern.finditer(text):
            if kind == "claim":
                cid = m.group(1) or m.group(2)
                target = claim_target(cid)
            else:
                number = m.group("a") or m.group("b")
                equation = page.book.equations.get(page.paper or "", {}).get(number)
                target = f"#{equation.anchor}" if equation is not None else None
            if target is not None:
                found.append((m.start(), m.end(), kind, target))
    found.sort()
    out: list[tuple[str, str | None, str]] = []
    last = 0
    for start, end, kind, target in found:
        if start < last:
            continue
        if start > last:
            out.append((text[last:start], None, ""))
        out.append((text[start:end], target, kind))
        last = end
    if last < len(text):
        out.append((text[last:], None, ""))
    return out


def referenced_equations(entries: Sequence[Mapping[str, Any]], book: Book,
                         paper: str) -> list[str]:
    """The numbers of ``paper``'s equations that the texts of ``entries`` name, in order."""
    known = book.equations.get(paper, {})
    pattern = _equation_pattern(list(known))
    if pattern is None:
        return []
    named: set[str] = set()
    for e in entries:
        for text in _texts(e):
            for m in pattern.finditer(text):
                number = m.group("a") or m.group("b")
                if m.group("b") and not (number.count(".") or int(number) >= 3):
                    continue
                named.add(number)
    return [n for n in known if n in named]


def _paper_key(entry: Mapping[str, Any]) -> str | None:
    paper = paper_of(entry.get("seed_file", ""))
    return paper.key if paper is not None else None
