"""Inline MyST of the pages: safe text, LaTeX, code spans, tables and embedded derivations.

The helpers turn the plain text, ``*_latex`` text and MyST derivations of a report into
Markdown that MyST reads as intended: specials escaped, ``$...$`` kept as maths, absolute
paths of this checkout replaced by ``<repo>``, numbers and verdicts never broken inside.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from moetheory.engine.mathtext import prettify
from moetheory.engine.papers import Paper

__all__: list[str] = []

_MARKDOWN_SPECIALS = re.compile(r"([\\`*_$\[\]<>|{}#~])")
_INLINE_MATH = re.compile(r"(\$[^$\s](?:[^$]*[^$\s])?\$)")
_REPO_ROOT = str(Path(__file__).resolve().parents[2])


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
