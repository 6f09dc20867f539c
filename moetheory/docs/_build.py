"""The whole set of pages for a report, written into the docs' claims folder."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from moetheory._doccer import fill_doc
from moetheory.docs._book import build_book
from moetheory.docs._evidence import evidence_files
from moetheory.docs._figures import _collect_figures
from moetheory.docs._names import (
    GENERATE_JOBS,
    GENERATE_PROFILE,
    GENERATE_SEED,
    SEEDS_DIR,
    paper_page_name,
    section_page_name,
    seed_page_name,
)
from moetheory.docs._pages import (
    _entries_of,
    render_bibliography,
    render_index,
    render_paper_page,
    render_section_page,
)
from moetheory.docs._seeds import _seed_lines, render_seed_text
from moetheory.engine._page_folder import sync_pages
from moetheory.engine.catalogue import SEED_FILES
from moetheory.engine.papers import PAPERS
from moetheory.engine.report import read_report

__all__ = ["build_pages", "generate_pages", "write_pages"]

#: Docstring parts of the functions that read a report file (:func:`build_pages` and
#: :func:`moetheory.docs._cli.main`): the opening lines of an example that writes an empty
#: report into a temporary folder ``tmp`` as ``rep``.
EXAMPLE_PARTS: dict[str, str] = {
    "empty_report_file": """>>> import json, pathlib, tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     rep = pathlib.Path(tmp, "r.json")
...     _ = rep.write_text(json.dumps({"seed": 0, "profile": "quick",
...                                    "family_alpha": 0.05, "claims": []}))""",
}

#: Pages of the docs root, written by other tools, that the claims index links as audits.
_AUDIT_PAGES = ("calibration.md", "seed-stability.md")


def generate_pages(
    report: Mapping[str, Any],
    out_dir: str | Path = "docs/claims",
    figures_dir: str | Path | None = None,
    seeds_dir: str | Path | None = SEEDS_DIR,
) -> dict[str, str]:
    """All claim pages for ``report``: the MyST text of each, by file name (inside ``out_dir``).

    Parameters
    ----------
    report : mapping
        A ``moetheory-report/1`` report (e.g. from :func:`moetheory.verify`).
    out_dir : path
        Folder the pages go to; figure links are made relative to it.
    figures_dir : path, optional
        Folder holding ``<target>/*.png`` written by ``docs/make_figures.py`` (must lie in
        the parent of ``out_dir``, the docs root). Missing figures are simply not shown.
    seeds_dir : path, optional
        Folder holding the seed documents (default :data:`SEEDS_DIR`); without it the
        pages link to seed lines but quote nothing and show no seed text.

    Returns
    -------
    dict of str to str
        ``index.md``, ``bibliography.md``, one chapter index per paper and one page per
        section of it (:func:`section_page_name`), one page per seed document, and the
        raw-evidence JSON file of every claim (:func:`evidence_files`), which the section
        pages link instead of embedding.

    Raises
    ------
    ValueError
        If the report's schema is not ``moetheory-report/1``.

    See Also
    --------
    write_pages : writes them.
    build_pages : runs the verification first.

    Notes
    -----
    A pure function of the report: timings, the environment and absolute paths never reach a
    page, so regenerating the pages on another machine changes nothing that the report does
    not. Raw evidence is linked as one JSON file per claim rather than folded into the pages,
    which keeps every page small.

    Examples
    --------
    >>> report = {"seed": 0, "profile": "quick", "family_alpha": 0.05, "claims": []}
    >>> pages = generate_pages(report, seeds_dir=None)
    >>> sorted(pages)[:3]
    ['bibliography.md', 'index.md', 'jacobs1991adaptive-efficiency.md']
    >>> "jacobs1991adaptive.md" in pages and "li2025continual-lemmas.md" in pages
    True
    """
    if report.get("schema", "moetheory-report/1") != "moetheory-report/1":
        raise ValueError(f"report schema must be 'moetheory-report/1', got {report['schema']!r}")
    out = Path(out_dir)
    seeds = Path(seeds_dir) if seeds_dir is not None else None
    figures = _collect_figures(Path(figures_dir) if figures_dir else None, out)
    book = build_book(report, seeds)
    pages: dict[str, str] = {}
    for paper in PAPERS:
        pages[paper_page_name(paper)] = render_paper_page(report, paper)
        for section in paper.parts:
            pages[section_page_name(paper, section)] = render_section_page(
                report, paper, section, figures, seeds, True, book
            )
    if _entries_of(report, None):
        pages["other.md"] = render_section_page(report, None, None, figures, seeds, True, book)
    seed_pages = []
    for seed_file in sorted(SEED_FILES):
        text = _seed_lines(seed_file, seeds)
        if text is not None:
            pages[seed_page_name(seed_file)] = render_seed_text(seed_file, text)
            seed_pages.append(seed_page_name(seed_file)[:-3])
    pages["bibliography.md"] = render_bibliography()
    docs_root = out.parent
    audits = sorted(
        f"/{p.stem}"
        for pattern in _AUDIT_PAGES
        for p in (docs_root.glob(pattern) if docs_root.is_dir() else [])
    )
    pages["index.md"] = render_index(report, seed_pages, audits, book)
    pages.update(evidence_files(report))
    return pages


def write_pages(pages: Mapping[str, str], out_dir: str | Path) -> list[Path]:
    """Write ``pages`` into ``out_dir``, removing stale generated pages; return the paths.


    Parameters
    ----------
    pages : mapping of str to str
        The text of each page by file name (relative to ``out_dir``), as :func:`generate_pages`
        returns.
    out_dir : path
        The folder (created if missing). The pages an earlier call wrote there and that
        ``pages`` no longer holds are removed; no other file is touched (the folder lists
        what it wrote in ``.moetheory-pages``).

    Returns
    -------
    list of Path
        The paths of ``pages``, sorted by name.

    See Also
    --------
    generate_pages : the pages.

    Notes
    -----
    Leaving unchanged files untouched keeps their modification times, so an incremental Sphinx
    build does not re-read them.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     [p.name for p in write_pages({"index.md": "# Claims\\n"}, tmp)]
    ['index.md']
    """
    return sync_pages(pages, out_dir)


@fill_doc(EXAMPLE_PARTS)
def build_pages(docs_dir: str | Path, report_path: str | Path | None = None) -> dict[str, Any]:
    """Generate ``<docs_dir>/claims`` for a documentation build; return the report used.

    Parameters
    ----------
    docs_dir : path
        The Sphinx source folder (holding ``_static/figures``).
    report_path : path, optional
        A JSON report to use. Without it the verification runs now, with the settings
        :data:`GENERATE_PROFILE`, :data:`GENERATE_SEED`, :data:`GENERATE_JOBS`.

    Returns
    -------
    dict
        The report the pages were generated from.

    See Also
    --------
    generate_pages : the pages as a pure function of a report.

    Notes
    -----
    ``docs/conf.py`` calls it when Sphinx starts, so the claim pages always document the
    code being built; ``MOETHEORY_DOCS_REPORT`` gives it a stored report instead. Verifying
    takes minutes: it says so on standard error, with a progress bar, so that a build never
    sits silent.

    Examples
    --------
    %(empty_report_file)s
    ...     _ = build_pages(tmp, rep)
    ...     (pathlib.Path(tmp) / "claims" / "index.md").is_file()
    True
    """
    docs = Path(docs_dir)
    if report_path:
        report = read_report(report_path, "MOETHEORY_DOCS_REPORT")
    else:
        print(
            f"moetheory docs: verifying every claim for the claim pages ({GENERATE_PROFILE} "
            f"profile, seed {GENERATE_SEED}), a few minutes; MOETHEORY_DOCS_REPORT=report.json "
            "builds from a stored report instead",
            file=sys.stderr,
            flush=True,
        )
        report = _verify_now(progress=True)
    pages = generate_pages(report, docs / "claims", docs / "_static" / "figures")
    write_pages(pages, docs / "claims")
    return report


def _verify_now(progress: bool) -> dict[str, Any]:
    """A verification run with the documentation build's settings (:data:`GENERATE_PROFILE`,
    :data:`GENERATE_SEED`, :data:`GENERATE_JOBS`), showing its progress or not."""
    from moetheory.engine.verification import verify

    return verify(
        profile=GENERATE_PROFILE, seed=GENERATE_SEED, jobs=GENERATE_JOBS, progress=progress
    )
