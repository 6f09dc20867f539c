"""The pages of the book: a chapter per paper, a page per section, the index, the bibliography."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from moetheory._doccer import fill_doc
from moetheory.docs._book import Book, build_book, on_page, referenced_equations
from moetheory.docs._claim import render_claim
from moetheory.docs._markup import (
    _cite,
    _code,
    _latex_text,
    _list_table,
    _nowrap,
    _number,
    _summary,
    _text,
    _verdict,
)
from moetheory.docs._names import (
    _page_of,
    claim_anchor,
    paper_page_name,
    section_page_name,
    seed_page_name,
)
from moetheory.docs._notation import NOTATION
from moetheory.engine._docparts import REPORT_PARTS
from moetheory.engine.papers import PAPERS, Paper, Section, paper_of, section_of
from moetheory.engine.verdicts import Verdict

__all__ = [
    "render_bibliography",
    "render_index",
    "render_paper_page",
    "render_section_page",
]


def _run_line(report: Mapping[str, Any]) -> str:
    status = "complete" if report.get("complete", True) else "**incomplete**"
    return (
        f"Generated when the documentation was built, by {_code('moetheory.docs')}, from "
        f"the verification run {_code(report.get('schema', 'moetheory-report/1'))} · profile "
        f"{_code(str(report['profile']))} · master seed {report['seed']} · family-wise "
        f"$\\alpha = {_number(report['family_alpha'])}$ · {status}."
    )


def _verdict_table(entries: Sequence[Mapping[str, Any]], other_pages: bool = False) -> list[str]:
    """Claim, verdict and summary of each entry; links reach the claim's own page."""
    return _list_table(
        ("claim", "verdict", "summary"),
        [
            (
                f"[{_code(e['id'])}]({_page_of(e) if other_pages else ''}"
                f"#{claim_anchor(e['id'])})",
                _verdict(e["verdict"]),
                _summary(e, cell=True),
            )
            for e in entries
        ],
        "28 12 60",
        "verdicts",
    )


def _citation_md(paper: Paper) -> str:
    parts = [f"{_text(', '.join(paper.authors))} ({paper.year}). *{_text(paper.title)}*. "
             f"{_text(paper.venue)}."]
    if paper.arxiv:
        parts.append(f"arXiv:[{paper.arxiv}](https://arxiv.org/abs/{paper.arxiv}).")
    if paper.doi:
        parts.append(f"doi:[{paper.doi}](https://doi.org/{paper.doi}).")
    return " ".join(parts)


def _entries_of(report: Mapping[str, Any], paper: Paper | None) -> list[Mapping[str, Any]]:
    return [e for e in report["claims"] if paper_of(e.get("seed_file", "")) is paper]


#: Numbered statements of a paper, from a claim ID's second part: heading and sort rank.
_NUMBERED = (
    (re.compile(r"prop(\d+)$"), "Proposition {0}", 0),
    (re.compile(r"thm(\d+)$"), "Theorem {0}", 1),
    (re.compile(r"lemma(\d+)$"), "Lemma {0}", 2),
    (re.compile(r"corollary(\d+)$"), "Corollary {0}", 3),
    (re.compile(r"fig(\d+)$"), "Figure {0}", 4),
    (re.compile(r"fig(\d+)-(\d+)$"), "Figures {0} and {1}", 4),
    (re.compile(r"appendix-([a-z])(\d+)$"), "Appendix {0}.{1}", 5),
)


def _subsection(entry: Mapping[str, Any]) -> tuple[tuple, str]:
    """A claim's heading within its section page, and where that heading sorts.

    A claim about a numbered statement (``cl.lemma7.…``, ``cl.fig4-5``) sits under that
    statement, numbered statements in the paper's order (propositions, theorems, lemmas,
    corollaries, figures, appendices; by number); any other claim under its catalogue
    section, after them.
    """
    parts = entry["id"].split(".")
    if len(parts) > 1:
        for pattern, heading, rank in _NUMBERED:
            if m := pattern.match(parts[1]):
                groups = [g.upper() if g.isalpha() else g for g in m.groups()]
                numbers = tuple(int(g) if g.isdigit() else ord(g[0]) for g in groups)
                return (0, rank, numbers), heading.format(*groups)
    return (1,), _text(entry.get("section") or "Other claims")


def _grouped(
    entries: Sequence[Mapping[str, Any]],
) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """A section page's claims under their headings (:func:`_subsection`), in page order."""
    grouped: dict[str, tuple[tuple, list[Mapping[str, Any]]]] = {}
    for e in entries:
        key, heading = _subsection(e)
        grouped.setdefault(heading, (key, []))[1].append(e)
    order = sorted(grouped.items(), key=lambda item: item[1][0])  # stable: report order
    return [(heading, group) for heading, (_, group) in order]


def _counts_cell(entries: Sequence[Mapping[str, Any]]) -> str:
    """Verdict counts of ``entries`` as one table cell, in the order of :class:`Verdict`."""
    counts = {v.value: 0 for v in Verdict}
    for e in entries:
        counts[str(e["verdict"])] = counts.get(str(e["verdict"]), 0) + 1
    return " · ".join(f"{_verdict(v)} {_nowrap(str(n))}" for v, n in counts.items() if n)


def _chapter_head(report: Mapping[str, Any], paper: Paper) -> list[str]:
    return [
        f"{_citation_md(paper)} See the {{ref}}`bibliography <bibliography>`.",
        "",
        "The claims are read from "
        + "; ".join(
            f'<a href="{seed_page_name(s)[:-3]}.html">seed {s[:3]}</a> '
            f"({html.escape(role)})"
            for s, role in paper.seeds
        )
        + f". {_run_line(report)}",
        "",
    ]


def _sections_of(
    report: Mapping[str, Any], paper: Paper
) -> list[tuple[Section, list[Mapping[str, Any]]]]:
    """Each section of ``paper`` with its claims (report order), sections in paper order."""
    entries = _entries_of(report, paper)
    return [
        (section, [e for e in entries if section_of(e["id"], paper) == section])
        for section in paper.parts
    ]


@fill_doc(REPORT_PARTS)
def render_paper_page(report: Mapping[str, Any], paper: Paper) -> str:
    """One paper's chapter index: citation, seed documents, its sections with verdict counts.

    Parameters
    ----------
    %(report)s
    paper : Paper
        The paper.

    Returns
    -------
    str
        The MyST page: a table with one row per section of the paper (title linking the
        section's page, where it is in the paper, number of claims, verdict counts), a
        hidden toctree of the section pages, and a script forwarding an old link
        ``<chapter>.html#<claim anchor>`` to the claim's page.

    Raises
    ------
    ValueError
        If ``report`` has no ``claims`` list.

    See Also
    --------
    render_section_page : a section's page, holding its claims.
    render_index : the table of all chapters.

    Notes
    -----
    The claims themselves are on the section pages, which keeps every page small however
    many claims a paper has; the counts of a row are those of its page's verdict table.

    Examples
    --------
    >>> report = {"seed": 0, "profile": "quick", "family_alpha": 0.05, "claims": [
    ...     {"id": "j91.vowel.epochs", "seed_file": "001_4a7126a84a0d22c9.txt",
    ...      "section": "Vowels", "statement": "s", "reading": "r", "verdict": "proved",
    ...      "summary": "m", "evidence": {}}]}
    >>> page = render_paper_page(report, PAPERS[0])
    >>> page.splitlines()[0]
    '(page-jacobs1991adaptive)='
    >>> "[Application to multi-speaker vowel recognition](jacobs1991adaptive-vowels.md)" in page
    True
    """
    if "claims" not in report:
        raise ValueError("report must be a moetheory report with a 'claims' list")
    sections = _sections_of(report, paper)
    lines = [f"(page-{paper.key})=", f"# {_text(paper.title)}", "", *_chapter_head(report, paper)]
    lines += [
        f"The chapter has one page per section of the paper; together they hold "
        f"{sum(len(e) for _, e in sections)} claims.",
        "",
        *_list_table(
            ("section", "in the paper", "claims", "verdicts"),
            [
                (
                    f"[{_text(s.title, cell=True)}]({section_page_name(paper, s)})",
                    _text(s.where, cell=True),
                    _nowrap(str(len(entries))),
                    _counts_cell(entries) or "—",
                )
                for s, entries in sections
            ],
            "40 22 8 30",
            "sections",
        ),
        "",
        "```{toctree}",
        ":hidden:",
        "",
        *(section_page_name(paper, s)[:-3] for s, _ in sections),
        "```",
        "",
    ]
    forward = {
        claim_anchor(e["id"]): section_page_name(paper, s)[:-3] + ".html"
        for s, entries in sections
        for e in entries
    }
    if forward:
        lines += [
            "```{raw} html",
            "<script>(function () {",
            f"  var page = {json.dumps(forward, sort_keys=True)};",
            "  var id = window.location.hash.slice(1);",
            "  if (page[id]) { window.location.replace(page[id] + '#' + id); }",
            "})();</script>",
            "```",
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


@fill_doc(REPORT_PARTS)
def render_section_page(
    report: Mapping[str, Any],
    paper: Paper | None,
    section: Section | None,
    figures: Mapping[str, Sequence[tuple[str, dict]]] | None = None,
    seeds_dir: Path | None = None,
    link_evidence: bool = False,
    book: Book | None = None,
) -> str:
    """One section of a paper's chapter: its verdict table, then each of its claims.

    Parameters
    ----------
    %(report)s
    paper : Paper or None
        The paper; ``None`` collects claims whose seed belongs to no known paper (then
        ``section`` is ignored and the page is ``other.md``).
    section : Section or None
        One of ``paper.parts``.
    figures, seeds_dir, link_evidence
        As in :func:`render_claim`.
    book : Book, optional
        The apparatus of the report's book (where each claim is, which claims use which,
        the verdict histories, the papers' equations); made from ``report`` when not given.

    Returns
    -------
    str
        The MyST page: title in the paper's words, the chapter it belongs to, a preface
        with the section's setting and notation and the paper's equations its claims name
        (numbered as in the paper), the verdict table (in the order of the page), then the
        claims under a heading per numbered statement of the paper (``Lemma 7``) or per
        catalogue section; every claim ID and equation named in a text is a link.

    Raises
    ------
    ValueError
        If ``report`` has no ``claims`` list, or a paper is given without a section.

    See Also
    --------
    render_claim : each claim's section.
    render_paper_page : the chapter index listing the section pages.
    moetheory.engine.papers.section_of : which claims a section holds.

    Notes
    -----
    Claims keep their report order under each heading; numbered statements come in the
    paper's order (propositions, theorems, lemmas, corollaries, figures; by number), then
    the other claims under their catalogue section.

    Examples
    --------
    >>> report = {"seed": 0, "profile": "quick", "family_alpha": 0.05, "claims": [
    ...     {"id": "cl.lemma7.a", "seed_file": "003_3078ccb5100b14b7.txt", "section": "CL",
    ...      "statement": "1 + 1 = 2", "reading": "integers", "verdict": "proved",
    ...      "summary": "arithmetic", "evidence": {}}]}
    >>> paper = PAPERS[2]
    >>> proofs = next(s for s in paper.parts if s.key == "proofs")
    >>> page = render_section_page(report, paper, proofs)
    >>> page.splitlines()[0]
    '(page-li2025continual-proofs)='
    >>> "## Lemma 7" in page and "### `cl.lemma7.a`" in page
    True
    """
    if "claims" not in report:
        raise ValueError("report must be a moetheory report with a 'claims' list")
    if paper is not None and section is None:
        section_page_name(paper, section)  # raises
    book = book if book is not None else build_book(report, seeds_dir)
    if paper is None:
        entries = _entries_of(report, None)
        name, equations = "other.md", []
    else:
        assert section is not None
        name = section_page_name(paper, section)
        entries = [e for e in _entries_of(report, paper) if section_of(e["id"], paper) == section]
        equations = referenced_equations(entries, book, paper.key)
    with on_page(book, name, paper.key if paper else None, equations):
        return _section_page(report, paper, section, entries, equations, book, figures,
                             seeds_dir, link_evidence)


def _preface(paper: Paper, section: Section, equations: Sequence[str], book: Book) -> list[str]:
    """The section's setting and notation, and the paper's equations its claims name."""
    text = NOTATION.get((paper.key, section.key))
    if not text and not equations:
        return []
    lines = ["```{rubric} Setting and notation", "```", ""]
    if text:
        lines += [text, ""]
    for number in equations:
        eq = book.equations[paper.key][number]
        seed = eq.seed_file[:3]
        lines += [
            f'<span id="{eq.anchor}"></span>',
            "",
            f"Equation ({number}) of {_cite(paper)}, as "
            f'<a class="seed-link" href="{seed_page_name(eq.seed_file)[:-3]}.html#L{eq.lines[0]}">'
            f"seed {seed}, line {eq.lines[0]}</a> prints it:",
            "",
            "$$",
            f"{eq.latex} \\tag{{{number}}}",
            "$$",
            "",
        ]
        if eq.reconstructed:
            lines += [
                f"Reconstructed (ours, not the paper's print): ({number}) with the notation "
                "the translation garbled restored from its own definitions."
                + (f" {_latex_text(eq.note, eq.note)}" if eq.note else ""),
                "",
                "$$",
                f"{eq.reconstructed} \\tag{{{number}'}}",
                "$$",
                "",
            ]
    return lines


def _section_page(
    report: Mapping[str, Any],
    paper: Paper | None,
    section: Section | None,
    entries: list[Mapping[str, Any]],
    equations: Sequence[str],
    book: Book,
    figures: Mapping[str, Sequence[tuple[str, dict]]] | None,
    seeds_dir: Path | None,
    link_evidence: bool,
) -> str:
    if paper is None:
        lines = ["(page-other)=", "# Other claims", "", _run_line(report), ""]
    else:
        assert section is not None
        name = section_page_name(paper, section)[:-3]
        where = f": {_text(section.where)}" if section.where else ""
        lines = [
            f"(page-{name})=",
            f"# {_text(section.title)}",
            "",
            f"A section of the chapter [{_text(paper.title)}]({paper_page_name(paper)}), "
            f"{_cite(paper)}{where}.",
            "",
            *_chapter_head(report, paper)[2:],
            *_preface(paper, section, equations, book),
        ]
    order = _grouped(entries)
    if entries:  # in the order of the page
        lines += [*_verdict_table([e for _, group in order for e in group]), ""]
    else:
        lines += ["No claim of this section is registered.", ""]
    for heading, group in order:
        lines += [f"## {heading}", ""]
        lines += [render_claim(e, figures, seeds_dir, link_evidence) for e in group]
    return "\n".join(lines).rstrip() + "\n"


@fill_doc(REPORT_PARTS)
def render_index(
    report: Mapping[str, Any],
    extra_pages: Sequence[str] = (),
    audit_pages: Sequence[str] = (),
    book: Book | None = None,
) -> str:
    """The claims index: verdict counts, one verdict table per paper, and the toctrees.

    Parameters
    ----------
    %(report)s
    extra_pages : sequence of str
        Documents joining the chapters' toctree (the seed documents).
    audit_pages : sequence of str
        Documents of the docs root (e.g. ``/calibration``) listed under *Audits*.
    book : Book, optional
        The report's book (links in the summaries); made from ``report`` when not given.

    Returns
    -------
    str
        The MyST page: per paper, a verdict table per section of the paper, each claim
        linked on its section page.

    See Also
    --------
    render_paper_page : a chapter.

    Notes
    -----
    Every verdict count comes from the report's ``counts``, so the index agrees with the JSON
    report of the same run.

    Examples
    --------
    >>> report = {"seed": 0, "profile": "quick", "family_alpha": 0.05,
    ...           "counts": {"proved": 1}, "claims": []}
    >>> render_index(report).splitlines()[0]
    '# Claims and verdicts'
    """
    book = book if book is not None else build_book(report)
    with on_page(book, "index.md", None):
        return _index(report, extra_pages, audit_pages)


def _index(report: Mapping[str, Any], extra_pages: Sequence[str],
           audit_pages: Sequence[str]) -> str:
    counts = report.get("counts") or {}
    papers = [p for p in PAPERS] + ([None] if _entries_of(report, None) else [])
    lines = [
        "# Claims and verdicts",
        "",
        "One chapter per paper, one page per section of the paper. Each claim reads like a "
        "worked proof: the statement with its seed lines, the reading checked, the "
        "derivation, the verdict, then the evidence. "
        + _run_line(report),
        "",
        *_list_table(
            ("verdict", "claims"),
            [(_verdict(v), _nowrap(str(n))) for v, n in counts.items()],
            "30 70",
            "counts",
        ),
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        *(paper_page_name(p)[:-3] for p in papers),
        "bibliography",
        *extra_pages,
        "```",
        "",
    ]
    if audit_pages:
        lines += ["```{toctree}", ":maxdepth: 1", ":caption: Audits", "", *audit_pages,
                  "```", ""]
    for paper in papers:
        page = paper_page_name(paper)
        entries = _entries_of(report, paper)
        title = _text(paper.title) if paper else "Other claims"
        lines += [f"**[{title}]({page})**", ""]
        if paper is None:
            lines += (_verdict_table(entries, True) if entries else ["No claims."]) + [""]
            continue
        lines += [f"{_cite(paper)}.", ""]
        for section, in_section in _sections_of(report, paper):
            if in_section:  # a table per section page, its rows in the page's order
                lines += [
                    f"*[{_text(section.title)}]({section_page_name(paper, section)})*",
                    "",
                    *_verdict_table([e for _, g in _grouped(in_section) for e in g], True),
                    "",
                ]
        if not entries:
            lines += ["No claims.", ""]
    return "\n".join(lines).rstrip() + "\n"


def render_bibliography() -> str:
    """The bibliography: every paper, with a label each citation links to.

    Returns
    -------
    str
        MyST page; each entry is preceded by the target ``(<key>)=``.

    See Also
    --------
    moetheory.engine.papers.Paper.citation : the plain-text reference.

    Notes
    -----
    The labels ``(<key>)=`` let any page cite a paper by its key with the ``ref`` role.

    Examples
    --------
    >>> "(li2025continual)=" in render_bibliography()
    True
    """
    lines = ["(bibliography)=", "# Bibliography", ""]
    for paper in PAPERS:
        lines += [
            f"({paper.key})=",
            f"**{paper.short}.** {_citation_md(paper)} "
            f"Claims: [chapter]({paper_page_name(paper)}).",
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"
