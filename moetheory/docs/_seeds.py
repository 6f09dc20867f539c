"""The seed documents: links to a statement's lines with a short quote, and the seed pages."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from moetheory.docs._markup import _cite, _code, _text
from moetheory.docs._names import seed_page_name
from moetheory.engine.catalogue import SEED_FILES
from moetheory.engine.papers import paper_of

__all__ = ["render_seed_text"]

_QUOTE_CHARS = 220


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
