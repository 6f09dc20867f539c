"""Inline MyST of the pages: safe text, LaTeX, code spans, tables and embedded derivations.

The helpers turn the plain text, ``*_latex`` text and MyST derivations of a report into
Markdown that MyST reads as intended: every formula typeset
(:mod:`moetheory.engine._prose`), specials and HTML escaped so that no text of a report is
read as markup, ``$...$`` kept as maths, absolute paths of this checkout replaced by
``<repo>``, numbers and verdicts never broken inside.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from moetheory.docs._book import references
from moetheory.engine._prose import MAX_PROSE, mark_emphasis, prose_myst
from moetheory.engine.mathtext import safe_tex
from moetheory.engine.papers import Paper

__all__: list[str] = []

_MARKDOWN_SPECIALS = re.compile(r"([\\`*_$\[\]<>|{}#~])")
_REPO_ROOT = str(Path(__file__).resolve().parents[2])


def _strip_paths(text: str) -> str:
    return text.replace(_REPO_ROOT, "<repo>")


def _inline(text: str, markdown: bool, cell: bool) -> str:
    """Text of a report as one line of MyST: formulas typeset, everything else escaped, and
    on a page of the book every claim ID and equation it names a link."""
    flat = " ".join(_strip_paths(text).split())
    if len(flat) > MAX_PROSE:  # shown as written, without links
        return prose_myst(flat, markdown=markdown, cell=cell)
    if markdown:
        flat = mark_emphasis(flat)
    parts: list[str] = []
    for piece, target, kind in references(flat):
        if target is None:
            out = prose_myst(piece, markdown=markdown, cell=cell, marked=markdown)
            if out and piece[:1].isspace():
                out = " " + out  # the space after a link
            if out and piece[-1:].isspace():
                out += " "
        elif kind == "claim":
            out = f"[{_code(piece.strip('`'))}]({target})"
        else:  # an equation: its display in the page's preface (an HTML anchor)
            out = f'<a class="eqref" href="{html.escape(target)}">{html.escape(piece)}</a>'
        if parts and parts[-1].endswith("$") and out.startswith("$"):
            out = " " + out  # two formulas never touch: "$a$$b$" would read as display
        parts.append(out)
    return "".join(parts)


def _text(value: Any, cell: bool = False) -> str:
    """Plain text made safe for MyST: one line, formulas typeset, specials escaped.

    ``$...$`` spans are kept as maths; in a table ``cell`` their pipes are escaped.
    """
    return _inline(str(value), markdown=False, cell=cell)


def _latex_text(latex: str, plain: str, cell: bool = False) -> str:
    """The ``*_latex`` form of a text when a check gives one, else the plain text.

    The ``*_latex`` form is MyST (maths, emphasis, code); formulas left in its prose are
    typeset and everything else is escaped, so no HTML of a report reaches a page.
    """
    if latex and latex.count("$") % 2 == 0:
        return _inline(latex, markdown=True, cell=cell)
    return _text(plain, cell)


def _summary(entry: Mapping[str, Any], cell: bool = False) -> str:
    """A claim's (or a reading's) summary; a leading reading name (``literal: …``, as
    :meth:`~moetheory.engine.verdicts.Outcome.from_readings` writes it) set as code."""
    latex, plain = entry.get("summary_latex") or "", str(entry.get("summary", ""))
    readings = entry.get("readings") or []
    name = str(readings[0].get("name", "")) if readings else ""
    if name:
        for text, is_latex in ((latex, True), (plain, False)):
            if text and text.startswith(f"{name}: "):
                rest = text[len(name) + 2:]
                return f"{_code(name)}: " + (_latex_text(rest, plain[len(name) + 2:], cell)
                                              if is_latex else _text(rest, cell))
    return _latex_text(latex, plain, cell)


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


def _fence(text: str) -> str:
    """A code fence longer than every run of three or more backticks in ``text``."""
    return "`" * max(3, max((len(m) for m in re.findall(r"`{3,}", text)), default=0) + 1)


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


def _download(label: str, path: str) -> str:
    """A MyST ``{download}`` link (Sphinx copies the file into the built site)."""
    return f"{{download}}`{_MARKDOWN_SPECIALS.sub(r'', label)} <{path}>`"


def _cite(paper: Paper) -> str:
    return f"{{ref}}`{paper.short} <{paper.key}>`"


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
        return ["", f"{indent}$$", f"{indent}{safe_tex(m.group(1).strip())}", f"{indent}$$", ""]
    if stripped != "$$" and "$$" in stripped:
        line = _INLINE_DISPLAY.sub(lambda mm: "$" + mm.group(1).strip() + "$", line)
    return [_prose_line(line)]


_LIST_MARK = re.compile(r"^(\s*(?:>\s*)*(?:[-*+]\s+|\d{1,3}[.)]\s+)?)(.*)$")
_TABLE_RULE = re.compile(r"^\s*\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*\|?\s*$")


def _cells(row: str) -> list[str]:
    """The cells of a Markdown table row, split at pipes outside maths and code."""
    cells, cur, i = [], "", 0
    math = code = False
    while i < len(row):
        c = row[i]
        if c == "\\" and i + 1 < len(row):
            cur += row[i:i + 2]
            i += 2
            continue
        if c == "`" and not math:
            code = not code
        elif c == "$" and not code:
            math = not math
        elif c == "|" and not math and not code:
            cells.append(cur)
            cur = ""
            i += 1
            continue
        cur += c
        i += 1
    cells.append(cur)
    return cells


def _prose_line(line: str) -> str:
    """A prose line of a check's MyST: list and quote marks kept, the text typeset and
    escaped, a table row cell by cell."""
    if not line.strip():
        return line
    if line.lstrip().startswith("|"):
        if _TABLE_RULE.match(line):
            return line
        cells = _cells(line.strip())
        inner = cells[1:-1] if len(cells) > 2 and not cells[-1].strip() else cells[1:]
        return "| " + " | ".join(_inline(c, markdown=True, cell=True) for c in inner) + " |"
    m = _LIST_MARK.match(line)
    assert m is not None
    return m.group(1) + _inline(m.group(2), markdown=True, cell=False)


def _embed(markdown: str) -> str:
    """Embed a check's MyST text: prose typeset and escaped (no HTML, directive or link of a
    report is live), headings as bold lines, inline ``$$`` fixed, code kept verbatim."""
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
                if mark[0] == ":" or "{" in line:  # a directive: shown as code, never run
                    indent = line[: len(line) - len(line.lstrip())]
                    fence = "`" * max(3, len(mark))
                    line = f"{indent}{fence}text"
            elif mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip()[
                len(mark):
            ].strip():
                fence = None
            out.append(line)
            continue
        if fence is not None:
            out.append(line)
            continue
        if h := _HEADING.match(line):
            line = f"{h.group(1)}**{h.group(2)}**"
        out += _math_line(line)
    if display:
        out.append("$$")
    if fence is not None:
        out.append(fence)
    return "\n".join(out)
