"""Generate the documentation's claim pages from a verification report.

The pages are a book of worked derivations, one chapter per paper
(:data:`moetheory.engine.papers.PAPERS`). A chapter is a short index -- the paper's citation
and a table of its sections with their verdict counts -- and has one page per section of the
paper (:func:`moetheory.engine.papers.section_of`): the section's verdict table, then each
claim the section makes -- in the paper itself or in its authors' rebuttal -- in the order a
reader checks a proof:

1. the statement, typeset, with a link to its seed lines and a short quote of them;
2. the reading checked;
3. the derivation, step by step, ending in the certificate;
4. the verdict and its one-line reason;
5. a compact evidence table, with the raw evidence folded away as JSON.

Besides the paper pages it writes an index, a bibliography and one page per seed document
with numbered, linkable lines (``seed-002.html#L56``).

The pages are generated when the documentation is built (``docs/conf.py`` calls
:func:`build_pages`), from a verification run of the very code being documented, so they
cannot disagree with it and no machine-dependent digit is ever committed. They are a pure
function of the report (timings, environment and absolute paths excluded).

Command line::

    python -m moetheory.docs --out docs/claims            # verify (quick, seed 0), then write
    python -m moetheory.docs --report r.json --out docs/claims
    python -m moetheory.docs --report r.json --out docs/claims --check   # exit 1 if stale
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import html
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from moetheory.engine.catalogue import SEED_FILES
from moetheory.engine.mathtext import prettify
from moetheory.engine.papers import PAPERS, Paper, Section, paper_of, section_of
from moetheory.engine.verdicts import Verdict

__all__ = [
    "EVIDENCE_DIR",
    "EXAMPLES_DIR",
    "FIGURE_CAPTIONS",
    "FIGURE_CLAIMS",
    "GENERATE_JOBS",
    "GENERATE_PROFILE",
    "GENERATE_SEED",
    "SEEDS_DIR",
    "build_examples",
    "build_pages",
    "claim_anchor",
    "claim_page_name",
    "evidence_files",
    "evidence_path",
    "generate_pages",
    "main",
    "paper_page_name",
    "render_bibliography",
    "render_claim",
    "render_evidence",
    "render_example_page",
    "render_index",
    "render_paper_page",
    "render_section_page",
    "render_seed_text",
    "section_page_name",
    "seed_page_name",
    "write_pages",
]

#: Folder, inside the claim pages' folder, of the per-claim raw-evidence JSON files.
EVIDENCE_DIR = "evidence"

#: The verification run the pages come from.
GENERATE_PROFILE = "quick"
GENERATE_SEED = 0
GENERATE_JOBS = 2

#: The seed documents, vendored beside the docs so every claim can link to its lines.
SEEDS_DIR = Path(__file__).resolve().parents[1] / "docs" / "seeds"

#: ``moetheory reproduce`` target -> the claim whose section shows its figures.
FIGURE_CLAIMS: dict[str, str] = {
    "rates": "pcr.rates.regression",
    "cl-fig2": "cl.fig2",
    "cl-fig4-5": "cl.fig4-5",
}

_BANDS = "Curves are means over replicates; shaded bands are pointwise 95 % Student-t intervals."
_READINGS = {
    "paper": "the paper's reading (Definition 1 and the equations as written)",
    "code": "the reading of the authors' released code",
}

#: Figure file stem -> caption (the profile, seed and replicates are added from the figure
#: folder's ``figures.json``, written by ``docs/make_figures.py``).
FIGURE_CAPTIONS: dict[str, str] = {
    **{
        f"cl_fig2_{r}": "Figure 2 of Li et al. (2025) under " + text + ": forgetting $F_t$ "
        "(left) and overall generalization error $G_t$ (right) against the round $t$ for "
        "$M \\in \\{1, 5, 10, 20\\}$ experts, with and without terminating the gating "
        "network's updates. " + _BANDS
        for r, text in _READINGS.items()
    },
    **{
        f"cl_fig4_{r}": "Figure 4 of Li et al. (2025) under " + text + ": the expert each "
        "task is routed to, in one run, for each threshold $\\Gamma$ "
        "($N = 6$, $K = 3$, $M = 5$); the colour is the task's cluster, the dashed line the "
        "round the gating network's updates are terminated."
        for r, text in _READINGS.items()
    },
    **{
        f"cl_fig5_{r}": "Figure 5 of Li et al. (2025) under " + text + ": mean forgetting "
        "and generalization error against $t$ for each threshold $\\Gamma$ ($N = 30$). "
        + _BANDS
        for r, text in _READINGS.items()
    },
    "rates": "Estimation-rate experiment of Nguyen et al. (2025): Voronoi loss against the "
    "sample size $n$ on log-log axes, one series per router and number of experts.",
}

_FIGURE_SUFFIXES = (".png", ".svg")
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_$\[\]<>|{}#~])")
_INLINE_MATH = re.compile(r"(\$[^$\s](?:[^$]*[^$\s])?\$)")
_REPO_ROOT = str(Path(__file__).resolve().parents[1])
_QUOTE_CHARS = 220
#: Pages of the docs root, written by other tools, that the claims index links as audits.
_AUDIT_PAGES = ("calibration.md", "seed-stability.md")


# -- names and anchors ----------------------------------------------------------------


def claim_anchor(claim_id: str) -> str:
    """The HTML anchor of a claim's heading (the ``docutils`` slug of its ID).

    Parameters
    ----------
    claim_id : str
        A claim ID such as ``"pcr.pde.cosine"``.

    Returns
    -------
    str
        Lower-case letters, digits and hyphens, as ``docutils.nodes.make_id`` makes them.

    Raises
    ------
    ValueError
        If the ID does not start with a letter (it could not be an anchor).

    See Also
    --------
    claim_page_name : the page holding the anchor.

    Notes
    -----
    The slug is the one ``docutils.nodes.make_id`` makes from the heading, so a link
    ``<page>.html#<anchor>`` written here reaches the heading Sphinx builds (a test compares
    the two for every registered claim).

    Examples
    --------
    >>> claim_anchor("pcr.pde.cosine")
    'pcr-pde-cosine'
    >>> claim_anchor("cl.fig4-5.corrected")
    'cl-fig4-5-corrected'
    """
    slug = re.sub(r"[^a-z0-9]+", "-", claim_id.lower()).strip("-")
    if not slug or not slug[0].isalpha():
        raise ValueError(f"claim_id must start with a letter, got {claim_id!r}")
    return slug


def seed_page_name(seed_file: str) -> str:
    """File name of the page showing one seed document's text with numbered lines.

    Parameters
    ----------
    seed_file : str
        A seed document's file name, ``NNN_hash.txt``.

    Returns
    -------
    str
        ``"seed-NNN.md"``.

    Raises
    ------
    ValueError
        If the name has no ``NNN_`` prefix.

    See Also
    --------
    render_seed_text : the page's content.

    Notes
    -----
    Claims link to ``seed-NNN.html#L<line>``; the number is the seed document's prefix.

    Examples
    --------
    >>> seed_page_name("002_ed39350ac6d6e1c0.txt")
    'seed-002.md'
    """
    stem = seed_file.split("_", 1)[0]
    if not stem:
        raise ValueError(f"seed_file must look like 'NNN_hash.txt', got {seed_file!r}")
    return f"seed-{stem}.md"


def paper_page_name(paper: Paper | None) -> str:
    """File name of a paper's chapter index (``other.md`` for claims of no known paper).

    Parameters
    ----------
    paper : Paper or None
        The paper.

    Returns
    -------
    str
        ``"<citation key>.md"``.

    See Also
    --------
    render_paper_page : the chapter's content.
    section_page_name : the pages of the chapter's sections.
    moetheory.engine.papers.PAPERS : the papers.

    Notes
    -----
    The citation key names the page, so a chapter's URL does not change when its title does.

    Examples
    --------
    >>> paper_page_name(PAPERS[0])
    'jacobs1991adaptive.md'
    """
    return f"{paper.key}.md" if paper is not None else "other.md"


def evidence_path(claim_id: str) -> str:
    """Path, relative to the claim pages, of the JSON file holding a claim's raw evidence.

    Parameters
    ----------
    claim_id : str
        A claim ID.

    Returns
    -------
    str
        ``"evidence/<anchor>.json"`` (the anchor is :func:`claim_anchor`'s).

    Raises
    ------
    ValueError
        If the ID cannot be an anchor (see :func:`claim_anchor`).

    See Also
    --------
    evidence_files : the files' contents.

    Notes
    -----
    Raw evidence (certificates, per-replicate statistics) can be large; kept out of the
    pages, it leaves every page small enough to load quickly, while the file a page links
    holds every number.

    Examples
    --------
    >>> evidence_path("pcr.pde.cosine")
    'evidence/pcr-pde-cosine.json'
    """
    return f"{EVIDENCE_DIR}/{claim_anchor(claim_id)}.json"


def section_page_name(paper: Paper | None, section: Section | None) -> str:
    """File name of the page of one section of a paper's chapter.

    Parameters
    ----------
    paper : Paper or None
        The paper; ``None`` for claims of no known paper.
    section : Section or None
        One of ``paper.parts``; ignored when ``paper`` is ``None``.

    Returns
    -------
    str
        ``"<citation key>-<section key>.md"``; ``"other.md"`` without a paper.

    Raises
    ------
    ValueError
        If a paper is given without a section.

    See Also
    --------
    claim_page_name : the page of one claim.
    paper_page_name : the chapter index listing the section pages.

    Notes
    -----
    Keys, not titles, name the pages, so a URL survives a reworded title.

    Examples
    --------
    >>> section_page_name(PAPERS[2], PAPERS[2].parts[0])
    'li2025continual-setup.md'
    """
    if paper is None:
        return "other.md"
    if section is None:
        raise ValueError(f"section must be one of the sections of {paper.key}, got None")
    return f"{paper.key}-{section.key}.md"


def claim_page_name(claim_id: str, seed_file: str) -> str:
    """File name of the page holding a claim's section (its heading's anchor is there).

    Parameters
    ----------
    claim_id : str
        The claim's ID.
    seed_file : str
        The seed document stating it (its paper's chapter holds it).

    Returns
    -------
    str
        The page of the section of the paper the claim belongs to
        (:func:`moetheory.engine.papers.section_of`), ``"other.md"`` without a known paper.

    See Also
    --------
    claim_anchor : the anchor on that page; a link is ``<page>.html#<anchor>``.
    section_page_name : the page of a section.

    Notes
    -----
    Every link to a claim is made from this name, so links cannot disagree with where a
    claim is written. The chapter index also forwards an old link
    ``<chapter>.html#<anchor>`` to the claim's page.

    Examples
    --------
    >>> claim_page_name("pcr.pde.cosine", "002_ed39350ac6d6e1c0.txt")
    'nguyen2025cosine-routers-pde.md'
    >>> claim_page_name("cl.lemma7.step-size", "003_3078ccb5100b14b7.txt")
    'li2025continual-proofs.md'
    """
    paper = paper_of(seed_file)
    if paper is None:
        return "other.md"
    return section_page_name(paper, section_of(claim_id, paper))


def _page_of(entry: Mapping[str, Any]) -> str:
    return claim_page_name(entry["id"], entry.get("seed_file", ""))


# -- inline text ----------------------------------------------------------------------


def _strip_paths(text: str) -> str:
    return text.replace(_REPO_ROOT, "<repo>")


def _text(value: Any, cell: bool = False) -> str:
    """Plain text made safe for MyST: one line, code syntax prettified, specials escaped.

    ``$...$`` spans are kept as maths; in a table ``cell`` their pipes are escaped.
    """
    flat = _strip_paths(" ".join(str(value).split()))
    out = []
    for i, part in enumerate(_INLINE_MATH.split(flat)):
        if i % 2 == 0:
            out.append(_MARKDOWN_SPECIALS.sub(r"\\\1", prettify(part)))
        else:
            out.append(part.replace("|", "\\|") if cell else part)
    return "".join(out)


def _latex_text(latex: str, plain: str, cell: bool = False) -> str:
    """The ``*_latex`` form of a text when a check gives one, else the plain text."""
    if latex and latex.count("$") % 2 == 0:
        flat = _strip_paths(" ".join(latex.split()))
        return flat.replace("|", "\\|") if cell else flat
    return _text(plain, cell)


def _code(value: str) -> str:
    """An inline code span that survives backticks inside ``value``."""
    longest = max((len(m) for m in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def _number(x: float | int) -> str:
    if isinstance(x, bool):
        return "yes" if x else "no"
    return str(x) if isinstance(x, int) else f"{x:.6g}"


def _nowrap(text: str) -> str:
    """Inline HTML that never breaks inside ``text`` (a number, a verdict, an ID)."""
    return f'<span class="nowrap">{html.escape(text)}</span>'


def _verdict(verdict: str) -> str:
    v = html.escape(str(verdict))
    return f'<span class="verdict verdict-{v}">{v}</span>'


# -- evidence -------------------------------------------------------------------------


def _is_symbolic(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"sympy", "latex"}


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _scalar_cell(value: Any) -> str | None:
    if value is None:
        return "—"
    if isinstance(value, bool | int | float):
        return _nowrap(_number(value))
    if value in ("nan", "inf", "-inf"):
        return {"nan": "NaN", "inf": "$\\infty$", "-inf": "$-\\infty$"}[value]
    if "\n" in value or len(value) > 240:
        return None
    return _text(value, cell=True)


def _cell(value: Any) -> str | None:
    """A value as one compact table cell, or ``None`` when it belongs to the raw JSON."""
    if _is_symbolic(value):
        latex = value["latex"]
        return "$" + latex.replace("|", "\\|") + "$" if len(latex) <= 160 else None
    if _is_scalar(value):
        return _scalar_cell(value)
    if isinstance(value, list) and 0 < len(value) <= 12:
        items = [_cell(v) for v in value if _is_scalar(v) or _is_symbolic(v)]
        if len(items) == len(value) and all(items):
            text = ", ".join(i for i in items if i)
            return text if len(text) <= 400 else None
    return None


def _flatten(evidence: Mapping[str, Any], prefix: str = "", depth: int = 0) -> list[tuple]:
    """``(key, value)`` rows for the compact table: nested mappings flattened two levels."""
    rows: list[tuple[str, Any]] = []
    for key, value in evidence.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and not _is_symbolic(value) and value and depth < 2:
            rows += _flatten(value, name + " › ", depth + 1)
        else:
            rows.append((name, value))
    return rows


def _list_table(
    header: Sequence[str], rows: Sequence[Sequence[str]], widths: str, classes: str = ""
) -> list[str]:
    """A MyST ``list-table`` (cells may hold any inline MyST)."""
    lines = ["```{list-table}", ":header-rows: 1", f":widths: {widths}"]
    if classes:
        lines.append(f":class: {classes}")
    lines.append("")
    for row in [header, *rows]:
        lines += [f"* - {row[0] or ' '}", *(f"  - {cell or ' '}" for cell in row[1:])]
    return [*lines, "```"]


def _raw_json(evidence: Mapping[str, Any], summary: str) -> list[str]:
    text = _strip_paths(json.dumps(evidence, indent=1, ensure_ascii=False, sort_keys=False))
    fence = "`" * max(3, max((len(m) for m in re.findall(r"`{3,}", text)), default=0) + 1)
    return [
        f'<details class="raw-evidence"><summary>{html.escape(summary)}</summary>',
        "",
        f"{fence}json",
        *text.splitlines(),
        fence,
        "",
        "</details>",
    ]


def render_evidence(
    evidence: Mapping[str, Any],
    label: str = "Raw evidence (JSON)",
    json_link: str | None = None,
) -> str:
    """Evidence as a compact table of what fits in a cell, then the raw JSON, folded or linked.

    Parameters
    ----------
    evidence : mapping
        JSON evidence as stored in a report (see :func:`moetheory.engine.verdicts.jsonable`).
    label : str
        Summary line of the folded raw JSON (or text of its link).
    json_link : str, optional
        Path, relative to the page, of a JSON file holding the raw evidence (see
        :func:`evidence_files`). Given, the page links it instead of embedding the JSON.

    Returns
    -------
    str
        MyST: a two-column ``list-table`` (numbers to six significant digits, formulas
        typeset from their LaTeX, nested values flattened with ``›``), long formulas as
        display maths, and either an HTML ``<details>`` block holding the whole evidence as
        JSON or a ``{download}`` link to ``json_link``. ``"_No evidence._"`` when empty.

    Raises
    ------
    ValueError
        If ``evidence`` is not a mapping.

    See Also
    --------
    render_claim : places the evidence after the verdict.
    evidence_files : the raw evidence as JSON files.

    Notes
    -----
    A cell holds a scalar, a formula whose LaTeX is at most 160 characters, or a short list
    of those; anything longer goes to the raw JSON. Numbers are wrapped so a table never
    breaks inside one.

    Examples
    --------
    >>> text = render_evidence({"residual": {"sympy": "x**2", "latex": "x^{2}"}, "n": 3})
    >>> "  - $x^{2}$" in text and '<span class="nowrap">3</span>' in text
    True
    >>> "x**2" in text.split("<details")[0]
    False
    """
    if not isinstance(evidence, Mapping):
        raise ValueError(f"evidence must be a mapping, got {type(evidence).__name__}")
    if not evidence:
        return "_No evidence._"
    rows: list[tuple[str, str]] = []
    long_formulas: list[tuple[str, str]] = []
    folded = 0
    for key, value in _flatten(evidence):
        cell = _cell(value)
        if cell is not None:
            rows.append((_text(key, cell=True), cell))
        elif _is_symbolic(value):
            long_formulas.append((key, value["latex"]))
        else:
            folded += 1
    lines: list[str] = []
    if rows:
        lines += _list_table(("evidence", "value"), rows, "30 70", "evidence")
        lines.append("")
    for key, latex in long_formulas:
        lines += [f"{_text(key)}:", "", "$$", *latex.splitlines(), "$$", ""]
    if json_link is not None:
        if folded:
            lines += [f"{folded} further item(s) are in the raw evidence.", ""]
        lines.append(_download(label, json_link))
        return "\n".join(lines)
    if folded:
        lines += [f"{folded} further item(s) are in the raw evidence below.", ""]
    lines += _raw_json(evidence, label)
    return "\n".join(lines)


def _download(label: str, path: str) -> str:
    """A MyST ``{download}`` link (Sphinx copies the file into the built site)."""
    return f"{{download}}`{_MARKDOWN_SPECIALS.sub(r'', label)} <{path}>`"


# -- derivations ----------------------------------------------------------------------

_HEADING = re.compile(r"^(\s{0,3})#{1,6}\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})")
_INLINE_DISPLAY = re.compile(r"\$\$(.+?)\$\$")


def _math_line(line: str) -> list[str]:
    """One line of a check's MyST text with inline ``$$...$$`` made safe.

    A line that is only ``$$ x $$`` becomes a display block; ``$$...$$`` inside running
    text becomes inline ``$...$`` (inline ``$$`` makes MyST set the prose around it as
    maths).
    """
    stripped = line.strip()
    m = re.fullmatch(r"\$\$(.+)\$\$", stripped)
    if m and "$$" not in m.group(1):
        indent = line[: len(line) - len(line.lstrip())]
        return ["", f"{indent}$$", f"{indent}{m.group(1).strip()}", f"{indent}$$", ""]
    if stripped != "$$" and "$$" in stripped:
        return [_INLINE_DISPLAY.sub(lambda mm: "$" + mm.group(1).strip() + "$", line)]
    return [line]


def _embed(markdown: str) -> str:
    """Embed a check's MyST text: its headings become bold lines, inline ``$$`` fixed."""
    out: list[str] = []
    fence: str | None = None
    display = False
    for line in _strip_paths(markdown.rstrip()).splitlines():
        if fence is None and line.strip() == "$$":
            # a display block must stand apart from the paragraph around it, or MyST reads
            # its ``$$`` as inline maths and sets the prose in between as a formula
            if not display and out and out[-1].strip():
                out.append("")
            out.append(line)
            if display:
                out.append("")
            display = not display
            continue
        stripped = line.strip()
        if display:
            if stripped.endswith("$$") and stripped.count("$$") == 1:
                out += [line.rstrip()[:-2].rstrip(), "$$", ""]
                display = False
            else:
                out.append(line)
            continue
        if fence is None and stripped.startswith("$$") and stripped.count("$$") == 1:
            if out and out[-1].strip():
                out.append("")
            out += ["$$", stripped[2:]]
            display = True
            continue
        m = _FENCE.match(line)
        if m:
            mark = m.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = None
            out.append(line)
            continue
        if fence is not None:
            out.append(line)
            continue
        if h := _HEADING.match(line):
            line = f"{h.group(1)}**{h.group(2)}**"
        out += _math_line(line)
    return "\n".join(out)


def _fallback_derivation(entry: Mapping[str, Any]) -> str:
    """The derivation of a claim whose check gives none: the rule the verdict follows."""
    if entry.get("implemented") is False:
        return (
            "No check implements this claim yet, so there is nothing to derive: the verdict "
            "is `inconclusive` with the reason \"not implemented\"."
        )
    if entry.get("kind") == "statistical":
        alpha = entry.get("alpha")
        level = f" at level $\\alpha = {_number(alpha)}$" if alpha else ""
        return (
            "1. Fix the tolerance band around the claimed value in the code, before any "
            "simulation.\n"
            f"2. Simulate with the claim's seed ({entry.get('claim_seed', '—')}) and estimate "
            f"the quantity with a confidence interval{level}.\n"
            "3. `supported` when the interval lies inside the band, `unsupported` when it "
            "lies outside, `inconclusive` otherwise. The evidence below holds the estimate, "
            "the interval, the sample size and the band."
        )
    return (
        "1. State the reading above as an exact computation.\n"
        "2. Compute it in exact arithmetic (the evidence below records every computed "
        "value).\n"
        "3. `proved` when the computation certifies the statement, `refuted` when it yields "
        "a counterexample; the certificate or counterexample is the evidence below."
    )


# -- seeds ----------------------------------------------------------------------------


def _seed_lines(seed_file: str, seeds_dir: Path | None) -> list[str] | None:
    if seeds_dir is None:
        return None
    path = seeds_dir / seed_file
    if not path.is_file():
        return None
    return path.read_text(encoding="utf-8").splitlines()


def _quote(lines: list[str], numbers: Sequence[int]) -> str:
    text = " ".join(" ".join(lines[n - 1].split()) for n in numbers[:3] if 0 < n <= len(lines))
    if len(text) > _QUOTE_CHARS:
        cut = text[:_QUOTE_CHARS].rsplit(" ", 1)[0] if " " in text[:_QUOTE_CHARS] else text[
            :_QUOTE_CHARS
        ]
        text = cut + " …"
    return text


def _line_label(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    if list(numbers) == list(range(numbers[0], numbers[-1] + 1)):
        return f"lines {numbers[0]}–{numbers[-1]}"
    return "lines " + ", ".join(str(n) for n in numbers)


def _source_lines(entry: Mapping[str, Any], seeds_dir: Path | None) -> list[str]:
    """Links to the statement's seed lines, each with a short verbatim quote."""
    out: list[str] = []
    for src in entry.get("sources") or []:
        seed_file, numbers = src["seed_file"], list(src["lines"])
        if not numbers:
            continue
        page = seed_page_name(seed_file)[:-3] + ".html"
        href = f"{page}#L{numbers[0]}"
        paper = paper_of(seed_file)
        role = dict(paper.seeds).get(seed_file, "") if paper is not None else ""
        label = f"seed {seed_file[:3]}, {_line_label(numbers)}"
        out.append(
            f'<a class="seed-link" href="{href}">{html.escape(label)}</a>'
            + (f" ({html.escape(role)})" if role else "")
        )
        lines = _seed_lines(seed_file, seeds_dir)
        if lines is not None:
            quote = _quote(lines, numbers)
            if quote:
                out.append(
                    '<blockquote class="seed-quote tex2jax_ignore">'
                    f"{html.escape(quote)}</blockquote>"
                )
    return out


# -- one claim ------------------------------------------------------------------------


#: Figures drawn from one run (per panel), whatever the replicates of their folder.
_ONE_RUN_FIGURES = ("cl_fig4_",)


def _table_run(entry: Mapping[str, Any] | None) -> str:
    """The size of the verification run behind a claim's tables, from its evidence."""
    if entry is None:
        return ""
    readings = entry.get("readings") or []
    evidence = (readings[0].get("evidence") if readings else entry.get("evidence")) or {}
    sizes = []
    if isinstance(evidence.get("replicates"), int):
        sizes.append(f"{evidence['replicates']} replicates")
    if isinstance(evidence.get("T"), int):
        sizes.append(f"$T = {evidence['T']}$ rounds")
    return " of " + " and ".join(sizes) if sizes else ""


def _caption(stem: str, meta: Mapping[str, Any], entry: Mapping[str, Any] | None = None) -> str:
    base = FIGURE_CAPTIONS.get(stem, f"Figure {_text(stem)}.")
    run = []
    if meta.get("profile"):
        run.append(f"{meta['profile']} profile")
    if meta.get("seed") is not None:
        run.append(f"seed {meta['seed']}")
    if stem.startswith(_ONE_RUN_FIGURES):
        run.append("one run per panel")
    elif meta.get("replicates"):
        run.append(f"{meta['replicates']} replicates")
    if not run:
        return base
    return (
        f"{base} Written by {_code(str(meta.get('command', 'moetheory reproduce')))} "
        f"({', '.join(run)}). The verdict and the tables of this claim come from the "
        f"{GENERATE_PROFILE}-profile verification run{_table_run(entry)}, not from this "
        "figure's run."
    )


def _figures(
    entry: Mapping[str, Any], figures: Mapping[str, Sequence[tuple[str, dict]]]
) -> list[str]:
    lines: list[str] = []
    for target, claim_id in FIGURE_CLAIMS.items():
        if claim_id != entry["id"] or not figures.get(target):
            continue
        lines += ["```{rubric} Figures", "```", ""]
        for path, meta in figures[target]:
            stem = Path(path).stem
            lines += [
                f"```{{figure}} {path}",
                f":alt: {stem}",
                ":width: 100%",
                "",
                _caption(stem, meta, entry),
                "```",
                "",
            ]
    return lines


def _statement(entry: Mapping[str, Any]) -> str:
    return _latex_text(entry.get("statement_latex") or "", entry["statement"])


def _readings_block(
    readings: Sequence[Mapping[str, Any]], json_link: str | None = None, shown: str = ""
) -> list[str]:
    lines = ["```{rubric} Other readings", "```", ""]
    lines += _list_table(
        ("reading", "verdict", "summary"),
        [
            (
                _nowrap(r["name"]),
                _verdict(r["verdict"]),
                _latex_text(r.get("summary_latex") or "", r["summary"], cell=True),
            )
            for r in readings
        ],
        "20 14 66",
        "readings",
    )
    lines.append("")
    if json_link is not None:
        lines += [f"Every reading's raw evidence: "
                  f"{_download('the claim evidence file (JSON)', json_link)}.", ""]
    seen: dict[str, str] = {}
    for r in readings:
        lines += [
            f'<details class="reading"><summary>Reading {html.escape(r["name"])}: '
            f"{html.escape(str(r['verdict']))}</summary>",
            "",
            _latex_text(r.get("reading_latex") or "", r["reading"]),  # named in <summary>
            "",
        ]
        derivation = r.get("derivation") or ""
        if derivation and derivation == shown:
            lines += ["Its derivation is the claim's, above.", ""]
        elif derivation and derivation in seen:
            lines += [f"Its derivation is that of reading {_code(seen[derivation])}.", ""]
        elif derivation:
            seen[derivation] = r["name"]
            lines += [_embed(derivation), ""]
        if json_link is None:
            lines += [
                render_evidence(r.get("evidence") or {}, f"Raw evidence of {r['name']} (JSON)"),
                "",
            ]
        # otherwise the claim's evidence file, linked once after the table, holds it
        lines += ["</details>", ""]
    return lines


def render_claim(
    entry: Mapping[str, Any],
    figures: Mapping[str, Sequence[tuple[str, dict]]] | None = None,
    seeds_dir: Path | None = None,
    link_evidence: bool = False,
) -> str:
    """One claim's section of a paper page, in the order of a worked proof.

    Parameters
    ----------
    entry : mapping
        One element of ``report["claims"]``.
    figures : mapping, optional
        ``moetheory reproduce`` target -> ``(image path relative to the page, metadata)``.
    seeds_dir : path, optional
        Folder holding the seed documents, for the quotes of the statement's lines.
    link_evidence : bool
        Link the raw evidence as the JSON file :func:`evidence_path` (written by
        :func:`generate_pages`) instead of folding it into the page.

    Returns
    -------
    str
        MyST: heading (level 3), statement with its seed lines and quote, reading checked,
        derivation, verdict, compact evidence table with the raw JSON folded or linked,
        other readings folded, figures with captions.

    Raises
    ------
    ValueError
        If ``entry`` lacks a report key or its ID cannot be an anchor.

    See Also
    --------
    render_section_page : the page holding the claim.
    moetheory.engine.report.render_claim : the Markdown report's version.

    Notes
    -----
    The ``*_latex`` fields of the entry, when given, replace the plain statement and summary;
    otherwise the plain text is prettified and escaped, so no SymPy syntax reaches the page.
    A derivation's headings become bold lines and inline ``$$...$$`` becomes ``$...$`` (MyST
    would otherwise set the prose between two display fences as maths).

    Examples
    --------
    >>> entry = {"id": "x.one", "statement": "1 + 1 = 2", "reading": "integers",
    ...          "verdict": "proved", "summary": "arithmetic", "evidence": {"sum": 2},
    ...          "kind": "exact", "claim_seed": 7, "implemented": True}
    >>> text = render_claim(entry)
    >>> text.splitlines()[0]
    '### `x.one`'
    >>> text.index("Derivation") < text.index("**Verdict") < text.index(":class: evidence")
    True
    """
    for key in ("id", "statement", "reading", "verdict", "summary"):
        if key not in entry:
            raise ValueError(f"entry must have the report key {key!r}; got keys {sorted(entry)}")
    claim_anchor(entry["id"])  # rejects an ID that cannot be an anchor
    link = evidence_path(entry["id"]) if link_evidence else None
    meta = [f"kind {_nowrap(str(entry.get('kind', 'exact')))}"]
    if "claim_seed" in entry:
        meta.append(f"claim seed {_nowrap(str(entry['claim_seed']))}")
    if entry.get("alpha"):
        meta.append(f"α {_nowrap(_number(entry['alpha']))}")
    if entry.get("covers"):
        meta.append("audit rows " + ", ".join(_nowrap(c) for c in entry["covers"]))
    if entry.get("origin") == "package":
        meta.append("a statement this package adds")
    if entry.get("implemented") is False:
        meta.append("**not implemented yet**")
    sources = _source_lines(entry, seeds_dir)
    readings = entry.get("readings") or []
    derivation = entry.get("derivation") or (readings[0].get("derivation") if readings else "")
    lines = [
        f"### `{entry['id']}`",
        "",
        f'<p class="claim-meta">{_verdict(entry["verdict"])}</p>',
        "",
        f"**Statement.** {_statement(entry)}",
        "",
    ]
    if sources:
        lines += [*sources, ""]
    elif entry.get("origin") != "package":
        seeds = entry.get("seed_files") or [entry.get("seed_file", "")]
        links = ", ".join(
            f'<a class="seed-link" href="{seed_page_name(s)[:-3]}.html">seed {s[:3]}</a>'
            for s in seeds
            if s
        )
        if links:
            lines += [f"Stated in {links} (line numbers not recorded).", ""]
    lines += [
        f"**Reading checked.** {_text(entry['reading'])}",
        "",
        "```{rubric} Derivation",
        "```",
        "",
        _embed(derivation) if derivation else _fallback_derivation(entry),
        "",
        f"**Verdict: {_text(entry['verdict'])}.** "
        + _latex_text(entry.get("summary_latex") or "", entry["summary"]),
        "",
        " · ".join(meta),
        "",
        render_evidence(entry.get("evidence") or {}, json_link=link),
        "",
    ]
    if readings:
        lines += _readings_block(readings, link, derivation)
    lines += _figures(entry, figures or {})
    return "\n".join(lines).rstrip() + "\n"


# -- pages ----------------------------------------------------------------------------


def _run_line(report: Mapping[str, Any]) -> str:
    status = "complete" if report.get("complete", True) else "**incomplete**"
    return (
        f"Generated when the documentation was built, by {_code('moetheory.docs')}, from "
        f"the verification run {_code(report.get('schema', 'moetheory-report/1'))} · profile "
        f"{_code(str(report['profile']))} · master seed {report['seed']} · family-wise α "
        f"{_number(report['family_alpha'])} · {status}."
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
                _latex_text(e.get("summary_latex") or "", e["summary"], cell=True),
            )
            for e in entries
        ],
        "28 12 60",
        "verdicts",
    )


def _cite(paper: Paper) -> str:
    return f"{{ref}}`{paper.short} <{paper.key}>`"


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


def render_paper_page(report: Mapping[str, Any], paper: Paper) -> str:
    """One paper's chapter index: citation, seed documents, its sections with verdict counts.

    Parameters
    ----------
    report : mapping
        A ``moetheory-report/1`` report.
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


def render_section_page(
    report: Mapping[str, Any],
    paper: Paper | None,
    section: Section | None,
    figures: Mapping[str, Sequence[tuple[str, dict]]] | None = None,
    seeds_dir: Path | None = None,
    link_evidence: bool = False,
) -> str:
    """One section of a paper's chapter: its verdict table, then each of its claims.

    Parameters
    ----------
    report : mapping
        A ``moetheory-report/1`` report.
    paper : Paper or None
        The paper; ``None`` collects claims whose seed belongs to no known paper (then
        ``section`` is ignored and the page is ``other.md``).
    section : Section or None
        One of ``paper.parts``.
    figures, seeds_dir, link_evidence
        As in :func:`render_claim`.

    Returns
    -------
    str
        The MyST page: title in the paper's words, the chapter it belongs to, verdict
        table (in the order of the page), then the claims under a heading per numbered
        statement of the paper (``Lemma 7``) or per catalogue section.

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
    >>> page = render_section_page(report, paper, paper.parts[-1])
    >>> page.splitlines()[0]
    '(page-li2025continual-proofs)='
    >>> "## Lemma 7" in page and "### `cl.lemma7.a`" in page
    True
    """
    if "claims" not in report:
        raise ValueError("report must be a moetheory report with a 'claims' list")
    if paper is None:
        entries = _entries_of(report, None)
        lines = ["(page-other)=", "# Other claims", "", _run_line(report), ""]
    else:
        name = section_page_name(paper, section)[:-3]
        assert section is not None  # section_page_name raised otherwise
        entries = [e for e in _entries_of(report, paper) if section_of(e["id"], paper) == section]
        where = f": {_text(section.where)}" if section.where else ""
        lines = [
            f"(page-{name})=",
            f"# {_text(section.title)}",
            "",
            f"A section of the chapter [{_text(paper.title)}]({paper_page_name(paper)}), "
            f"{_cite(paper)}{where}.",
            "",
            *_chapter_head(report, paper)[2:],
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


def render_index(
    report: Mapping[str, Any],
    extra_pages: Sequence[str] = (),
    audit_pages: Sequence[str] = (),
) -> str:
    """The claims index: verdict counts, one verdict table per paper, and the toctrees.

    Parameters
    ----------
    report : mapping
        A ``moetheory-report/1`` report.
    extra_pages : sequence of str
        Documents joining the chapters' toctree (the seed documents).
    audit_pages : sequence of str
        Documents of the docs root (e.g. ``/calibration``) listed under *Audits*.

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


def render_seed_text(seed_file: str, lines: Sequence[str]) -> str:
    """A seed document as a page of numbered lines, each linkable as ``#L<n>``.

    Parameters
    ----------
    seed_file : str
        The seed document's file name.
    lines : sequence of str
        Its lines.

    Returns
    -------
    str
        MyST page holding a raw HTML ``<ol>`` with one ``<li id="L<n>">`` per line.

    See Also
    --------
    seed_page_name : the page's file name.

    Notes
    -----
    The text is shown verbatim (HTML-escaped, never typeset: the seeds' own formulas are
    part of what is checked, garbled ones included).

    Examples
    --------
    >>> page = render_seed_text("001_4a7126a84a0d22c9.txt", ["a $x$", "b < c"])
    >>> '<li id="L2" value="2">b &lt; c</li>' in page
    True
    """
    paper = paper_of(seed_file)
    role = dict(paper.seeds).get(seed_file, "") if paper else ""
    title = SEED_FILES.get(seed_file, seed_file)
    head = [
        f"# Seed {seed_file[:3]}: {_text(title)}",
        "",
        f"The seed document {_code(seed_file)}"
        + (f", {html.escape(role)} of {_cite(paper)}" if paper else "")
        + ", verbatim, with its line numbers (claims link to them).",
        "",
        "```{raw} html",
        '<ol class="seed-text tex2jax_ignore">',
    ]
    body = [
        f'<li id="L{n}" value="{n}">{html.escape(text) or "&#8203;"}</li>'
        for n, text in enumerate(lines, start=1)
    ]
    return "\n".join([*head, *body, "</ol>", "```"]) + "\n"


# -- the whole set --------------------------------------------------------------------


def _collect_figures(figures_dir: Path | None, out_dir: Path) -> dict[str, list[tuple]]:
    found: dict[str, list[tuple[str, dict]]] = {}
    if figures_dir is None or not figures_dir.is_dir():
        return found
    for target in FIGURE_CLAIMS:
        folder = figures_dir / target
        if not folder.is_dir():
            continue
        meta: dict = {}
        if (folder / "figures.json").is_file():
            meta = json.loads((folder / "figures.json").read_text(encoding="utf-8"))
        images = [p for p in folder.iterdir() if p.suffix in _FIGURE_SUFFIXES]
        images.sort(key=lambda p: (p.stem, _FIGURE_SUFFIXES.index(p.suffix)))
        by_stem: dict[str, Path] = {}
        for image in images:  # one file per figure: PNG before SVG
            by_stem.setdefault(image.stem, image)
        rel = [
            (Path("..", *_relative(p, out_dir).parts).as_posix(), meta) for p in by_stem.values()
        ]
        if rel:
            found[target] = rel
    return found


def _relative(path: Path, out_dir: Path) -> Path:
    docs_root = out_dir.resolve().parent
    return path.resolve().relative_to(docs_root)


def evidence_files(report: Mapping[str, Any]) -> dict[str, str]:
    """The raw evidence of every claim of ``report``, one JSON file per claim.

    Parameters
    ----------
    report : mapping
        A ``moetheory-report/1`` report.

    Returns
    -------
    dict of str to str
        :func:`evidence_path` -> JSON text holding the claim's ID, verdict, evidence and
        each reading's name, verdict and evidence (absolute paths of this checkout
        replaced by ``<repo>``).

    Raises
    ------
    ValueError
        If ``report`` has no ``claims`` list or a claim ID cannot be an anchor.

    See Also
    --------
    generate_pages : the pages linking these files.

    Notes
    -----
    Like the pages, the files are a pure function of the report (timings excluded).

    Examples
    --------
    >>> files = evidence_files({"claims": [{"id": "x.one", "verdict": "proved",
    ...                                     "evidence": {"n": 3}}]})
    >>> list(files)
    ['evidence/x-one.json']
    >>> json.loads(files["evidence/x-one.json"])["evidence"]
    {'n': 3}
    """
    if not isinstance(report.get("claims"), list):
        raise ValueError("report must be a moetheory report with a 'claims' list")
    files: dict[str, str] = {}
    for entry in report["claims"]:
        data = {
            "id": entry["id"],
            "verdict": entry.get("verdict"),
            "evidence": entry.get("evidence") or {},
            "readings": [
                {"name": r.get("name"), "verdict": r.get("verdict"),
                 "evidence": r.get("evidence") or {}}
                for r in entry.get("readings") or []
            ],
        }
        text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False)
        files[evidence_path(entry["id"])] = _strip_paths(text) + "\n"
    return files


def generate_pages(
    report: Mapping[str, Any],
    out_dir: str | Path = "docs/claims",
    figures_dir: str | Path | None = None,
    seeds_dir: str | Path | None = SEEDS_DIR,
) -> dict[str, str]:
    """All claim pages for ``report``: file name (inside ``out_dir``) -> MyST text.

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
    pages: dict[str, str] = {}
    for paper in PAPERS:
        pages[paper_page_name(paper)] = render_paper_page(report, paper)
        for section in paper.parts:
            pages[section_page_name(paper, section)] = render_section_page(
                report, paper, section, figures, seeds, True
            )
    if _entries_of(report, None):
        pages["other.md"] = render_section_page(report, None, None, figures, seeds, True)
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
    pages["index.md"] = render_index(report, seed_pages, audits)
    pages.update(evidence_files(report))
    return pages


def write_pages(pages: Mapping[str, str], out_dir: str | Path) -> list[Path]:
    """Write ``pages`` into ``out_dir``, removing stale generated pages; return the paths.


    Parameters
    ----------
    pages : mapping of str to str
        File name (relative to ``out_dir``) -> text, as :func:`generate_pages` returns.
    out_dir : path
        The folder (created if missing); other ``*.md`` files in it and other
        ``evidence/*.json`` files are removed.

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
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for old in _generated(out):
        if old.relative_to(out).as_posix() not in pages:
            old.unlink()
    written = []
    for name, text in sorted(pages.items()):
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


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
    code being built; ``MOETHEORY_DOCS_REPORT`` gives it a stored report instead.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     rep = pathlib.Path(tmp, "r.json")
    ...     _ = rep.write_text(json.dumps({"seed": 0, "profile": "quick",
    ...                                    "family_alpha": 0.05, "claims": []}))
    ...     _ = build_pages(tmp, rep)
    ...     (pathlib.Path(tmp) / "claims" / "index.md").is_file()
    True
    """
    docs = Path(docs_dir)
    if report_path:
        report = json.loads(Path(report_path).read_text(encoding="utf-8"))
    else:
        from moetheory.engine.verification import verify

        report = verify(
            profile=GENERATE_PROFILE, seed=GENERATE_SEED, jobs=GENERATE_JOBS, progress=False
        )
    pages = generate_pages(report, docs / "claims", docs / "_static" / "figures")
    write_pages(pages, docs / "claims")
    return report


#: The example scripts shown on the site, with their output.
EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"


def _run_example(script: Path, cwd: Path, timeout: float) -> tuple[int, str]:
    cwd.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [sys.executable, str(script)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "MPLBACKEND": "Agg", "COLUMNS": "90"},
    )
    return proc.returncode, proc.stdout + (proc.stderr if proc.returncode else "")


def render_example_page(script: Path, output: str, images: Sequence[str] = ()) -> str:
    """The page of one example: what it shows, its source, the output it printed.

    Parameters
    ----------
    script : path
        The example script (its docstring's first paragraph introduces the page).
    output : str
        What the script printed when the site was built.
    images : sequence of str
        Images it wrote, relative to the page.

    Returns
    -------
    str
        MyST page with a ``literalinclude`` of the source and the output as text.

    See Also
    --------
    build_examples : runs every example and writes these pages.

    Notes
    -----
    The output shown is the run's, with absolute paths of the build folder removed, so the
    page is the same wherever the site is built.

    Examples
    --------
    >>> page = render_example_page(EXAMPLES_DIR / "verify_one_claim.py", "ok")
    >>> page.splitlines()[0]
    '# `verify_one_claim.py`'
    """
    doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or ""
    intro = doc.split("\n\n")[0].replace("\n", " ")
    text = _strip_paths(output.rstrip()) or "(no output)"
    fence = "`" * max(3, max((len(m) for m in re.findall(r"`{3,}", text)), default=0) + 1)
    lines = [
        f"# {_code(script.name)}",
        "",
        _text(intro),
        "",
        f"Run it with {_code(f'python examples/{script.name}')}. Source:",
        "",
        f"```{{literalinclude}} ../../examples/{script.name}",
        ":language: python",
        "```",
        "",
        "Output, from the run made when this site was built:",
        "",
        f"{fence}text",
        *text.splitlines(),
        fence,
        "",
    ]
    for image in images:
        lines += [f"```{{figure}} {image}", f":alt: {Path(image).stem}", "",
                  f"Written by {_code(script.name)}: {_text(Path(image).stem)}.", "```", ""]
    return "\n".join(lines).rstrip() + "\n"


def build_examples(docs_dir: str | Path, jobs: int = 2, timeout: float = 600) -> list[str]:
    """Run every example and write its page to ``<docs_dir>/examples/``; return the names.

    Parameters
    ----------
    docs_dir : path
        The Sphinx source folder; ``examples/`` inside it is replaced.
    jobs : int
        Examples run at the same time.
    timeout : float
        Seconds one example may take.

    Returns
    -------
    list of str
        The page names written (``examples/<stem>.md``), sorted.

    Raises
    ------
    RuntimeError
        If an example fails: the site never shows an example that does not run.

    See Also
    --------
    render_example_page : one example's page.

    Notes
    -----
    The examples run in parallel in fresh interpreters with the ``Agg`` Matplotlib
    backend, each in its own folder, so the images they write land beside their page.

    Examples
    --------
    The scripts it runs:

    >>> "verify_one_claim" in [p.stem for p in EXAMPLES_DIR.glob("*.py")]
    True
    """
    out = Path(docs_dir) / "examples"
    shutil.rmtree(out, ignore_errors=True)
    scripts = sorted(EXAMPLES_DIR.glob("*.py"))

    def run(script: Path) -> tuple[Path, int, str]:
        return (script, *_run_example(script, out / script.stem, timeout))

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(run, scripts))
    names = []
    for script, code, output in results:
        if code != 0:
            raise RuntimeError(f"example {script.name} failed (exit {code}):\n{output[-3000:]}")
        folder = out / script.stem
        output = output.replace(str(folder.resolve()) + os.sep, "").replace(
            str(folder) + os.sep, ""
        )
        images = sorted(f"{script.stem}/{p.name}" for p in folder.glob("*.png"))
        for extra in folder.iterdir():
            if extra.suffix != ".png":
                if extra.is_dir():
                    shutil.rmtree(extra)
                else:
                    extra.unlink()
        (out / f"{script.stem}.md").write_text(
            render_example_page(script, output, images), encoding="utf-8"
        )
        names.append(script.stem)
    return names


def _generated(out_dir: Path) -> list[Path]:
    """The files a previous :func:`write_pages` may have written into ``out_dir``."""
    if not out_dir.is_dir():
        return []
    return sorted([*out_dir.glob("*.md"), *(out_dir / EVIDENCE_DIR).glob("*.json")])


def _stale(pages: Mapping[str, str], out_dir: Path) -> list[str]:
    on_disk = {p.relative_to(out_dir).as_posix() for p in _generated(out_dir)}
    stale = sorted(on_disk - set(pages))
    for name, text in pages.items():
        path = out_dir / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    return sorted(stale)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m moetheory.docs [--report FILE] --out DIR [--check]``.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success; 1 with ``--check`` when a page is stale; 2 when the report cannot be
        read.

    See Also
    --------
    generate_pages : what is written.

    Notes
    -----
    Without ``--report`` it first runs the whole verification in the profile, seed and
    number of jobs of the documentation build (:data:`GENERATE_PROFILE` ...).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     rep = pathlib.Path(tmp, "r.json")
    ...     _ = rep.write_text(json.dumps({"seed": 0, "profile": "quick",
    ...                                    "family_alpha": 0.05, "claims": []}))
    ...     main(["--report", str(rep), "--out", tmp + "/claims", "--quiet"])
    0
    """
    parser = argparse.ArgumentParser(
        prog="python -m moetheory.docs", description="Generate the docs' claim pages."
    )
    parser.add_argument("--report", type=Path, help="JSON report to use (default: verify now)")
    parser.add_argument("--out", type=Path, default=Path("docs/claims"), help="output folder")
    parser.add_argument(
        "--figures",
        type=Path,
        default=None,
        help="figures folder (default: _static/figures beside the output folder)",
    )
    parser.add_argument("--seeds", type=Path, default=SEEDS_DIR, help="seed documents folder")
    parser.add_argument("--save-report", type=Path, help="also write the report used here (JSON)")
    parser.add_argument("--check", action="store_true", help="only report stale pages; exit 1")
    parser.add_argument("--quiet", action="store_true", help="print nothing on success")
    args = parser.parse_args(argv)
    if args.report is not None:
        try:
            report = json.loads(args.report.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            print(f"moetheory.docs: error: cannot read --report {args.report}: {exc}",
                  file=sys.stderr)
            return 2
    else:
        from moetheory.engine.verification import verify

        report = verify(
            profile=GENERATE_PROFILE, seed=GENERATE_SEED, jobs=GENERATE_JOBS, progress=True
        )
    if args.save_report is not None:
        args.save_report.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    figures = args.figures or args.out.parent / "_static" / "figures"
    pages = generate_pages(report, args.out, figures, args.seeds)
    if args.check:
        stale = _stale(pages, args.out)
        for name in stale:
            print(f"stale: {args.out / name}")
        return 1 if stale else 0
    paths = write_pages(pages, args.out)
    if not args.quiet:
        print(f"wrote {len(paths)} pages to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
