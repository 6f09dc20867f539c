"""Excerpts of Markdown prose: a derivation's first paragraphs, cut at a sentence.

The Markdown report shows the start of each derivation (the JSON report holds all of it):
whole paragraphs while they fit, then the paragraph that would pass the limit up to the end
of a sentence outside maths, code and links, never after an abbreviation such as "eq.".
"""

from __future__ import annotations

import re

__all__ = ["first_paragraphs", "sentence_ends"]


def first_paragraphs(text: str, limit: int) -> tuple[str, int, bool]:
    """The first paragraphs of ``text`` within ``limit`` characters.

    Parameters
    ----------
    text : str
        Markdown prose, paragraphs separated by blank lines.
    limit : int
        Characters to show at most (at least one paragraph is shown).

    Returns
    -------
    shown : str
        The paragraphs that fit (a fenced block is never split), then the paragraph that
        would pass the limit cut at the end of a sentence outside maths when one fits.
    left_out : int
        Paragraphs not shown.
    cut : bool
        Whether the last paragraph shown was cut.

    Notes
    -----
    Paragraphs are counted with the blank line between them, so ``limit`` bounds the text
    as the report prints it. A paragraph with no sentence end before the limit is left out
    whole unless it is the first.

    See Also
    --------
    sentence_ends : where a paragraph may be cut.

    Examples
    --------
    >>> first_paragraphs("One. Two is $a. B$ long. Three.", 20)
    ('One.', 0, True)
    """
    blocks: list[str] = []
    for part in text.split("\n\n"):
        if blocks and blocks[-1].count("```") % 2:  # inside a fenced block: keep together
            blocks[-1] += "\n\n" + part
        else:
            blocks.append(part)
    size = 0
    for i, block in enumerate(blocks):
        if size + len(block) > limit:
            ends = [e for e in sentence_ends(block) if size + e <= limit]
            if ends:
                shown = [*blocks[:i], block[: max(ends)].rstrip()]
                return "\n\n".join(shown), len(blocks) - i - 1, True
            if i:
                return "\n\n".join(blocks[:i]), len(blocks) - i, False
        size += len(block) + 2
    return "\n\n".join(blocks), 0, False


#: Maths of a Markdown paragraph (display first), code spans and links: no sentence ends there.
_NO_END = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`|\[[^\]]*\]\([^)]*\)", re.S)


def sentence_ends(paragraph: str) -> list[int]:
    """Where the sentences of a prose paragraph end.

    Parameters
    ----------
    paragraph : str
        One Markdown paragraph.

    Returns
    -------
    list of int
        Offsets just after each ``.``, ``;`` or ``:`` followed by a space and a capital
        letter or emphasis, outside maths, code and links; none in a table, list,
        quotation or displayed formula.

    Notes
    -----
    Maths (``$...$``, ``$$...$$``), code spans and links are masked before the search, and
    an end after a common abbreviation (``eq.``, ``e.g.``, ``Fig.``, ``et al.``) or a single
    capital (an initial) is not one.

    See Also
    --------
    first_paragraphs : the excerpt built on these ends.

    Examples
    --------
    >>> sentence_ends("One. Two; Three: Four")
    [4, 9, 16]
    """
    if paragraph.lstrip().startswith(("|", "-", "*", ">", "$$", "```", "#", "    ")):
        return []
    masked = _NO_END.sub(lambda m: "x" * len(m.group()), paragraph)
    return [m.start() + 1 for m in _SENTENCE_END.finditer(masked)]


#: The end of a sentence: ``.``, ``;`` or ``:`` before a space and a capital or emphasis,
#: not after an abbreviation (``eq.``, ``e.g.``, ``Fig.``).
_SENTENCE_END = re.compile(
    r"(?<!\beq)(?<!\bEq)(?<!\bEqs)(?<!\beqs)(?<!\be\.g)(?<!\bi\.e)(?<!\bcf)(?<!\bvs)"
    r"(?<!\bFig)(?<!\bSec)(?<!\bThm)(?<!\bLem)(?<!\bProp)(?<!\bDef)(?<!\bet al)"
    r"(?<!\b[A-Z])[.;:](?=\s+[A-Z_*])")
