r"""The seed documents: each claim's quote of the sentence or equation that makes it, and
the seed pages with linkable lines and sentences.

A claim records the lines of a seed that state it. A line can be a whole paragraph (the
review of seed 001 is one line of 5,900 characters), so the quote is not the line's start:
the cited lines are cut into *units* -- sentences, and displayed equations on their own --
and the quote is the unit that shares most with the claim's statement (its quoted words,
its symbols, the numbers of the equations and results it names), with the displayed
equation it introduces or the sentence that introduces it. On the seed page every sentence
of a long line has its own anchor (``seed-001.html#L3-s14``), which the quote links.

The quote is typeset: its ``$…$`` maths as maths, a displayed equation as a display
numbered as the paper numbers it (:mod:`._equations`); TeX the seed prints without
delimiters is set as maths when MathJax can read it and as code otherwise. The seed pages
themselves stay verbatim.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moetheory.docs._equations import Equation, paper_equations, tex_ok
from moetheory.docs._markup import _cite, _code, _text
from moetheory.docs._names import _plain_file_name, seed_page_name
from moetheory.engine._prose import _escape
from moetheory.engine.catalogue import SEED_FILES
from moetheory.engine.papers import paper_of

__all__ = ["render_seed_text"]

#: A quote longer than this is cut at a word (displays are never cut).
_QUOTE_CHARS = 600
#: A line this long is cut into sentences with their own anchors on the seed page.
_LONG_LINE = 400


def _seed_lines(seed_file: str, seeds_dir: Path | None) -> list[str] | None:
    if seeds_dir is None or not _plain_file_name(seed_file):  # a report's name, not a path
        return None
    path = seeds_dir / seed_file
    if not path.is_file():
        return None
    return path.read_text(encoding="utf-8").splitlines()


# -- units: sentences and displayed equations --------------------------------------------

_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
_ABBREVIATIONS = re.compile(
    r"(?:\b(?:e\.g|i\.e|s\.t|et al|w\.r\.t|resp|vs|cf|Eq|eq|Eqs|eqs|Fig|Sec|No|Prop|Thm|"
    r"Def|approx|a\.e|[A-Z])|\d)\.$"
)


@dataclass(frozen=True)
class Unit:
    """A sentence or a displayed equation of a seed line: ``text[start:end]`` of line
    ``line``, the ``index``-th unit of its line."""

    line: int
    index: int
    text: str
    display: bool

    @property
    def anchor(self) -> str:
        return f"L{self.line}-s{self.index}" if self.index else f"L{self.line}"


def _is_display_line(line: str) -> bool:
    s = line.strip()
    if s.startswith("$\\displaystyle") or re.fullmatch(r"\(\d+\)|\$\$", s):
        return True
    return bool(s) and "$" not in s and not _CJK.search(s) and bool(
        re.search(r"\\(frac|sum|left|right|mathbf|tau|min|max|Psi|cdots)\b", s)
    ) and len(re.findall(r"\b[a-z]{4,}\b", re.sub(r"\\[A-Za-z]+", " ", s))) <= 3


def sentence_spans(line: str) -> list[tuple[int, int]]:
    """The sentences of a line of prose, as ``(start, end)`` offsets covering it.

    A sentence ends at ``.``, ``!``, ``?`` or ``。`` followed by a space and a capital, an
    opening quote or bracket, ``$`` or a CJK character (not after an abbreviation such as
    ``e.g.`` or ``Eq.``, never inside ``$…$``); a ``$$…$$`` display followed by a capital
    ends one too.

    Examples
    --------
    >>> line = "One $a. B$ two. Then (x) e.g. Three? Yes $$ x $$ Next."
    >>> [line[a:b] for a, b in sentence_spans(line)]
    ['One $a. B$ two. ', 'Then (x) e.g. Three? ', 'Yes $$ x $$ ', 'Next.']
    """
    spans: list[tuple[int, int]] = []
    start = 0
    i = 0
    in_math = ""
    n = len(line)
    while i < n:
        if line.startswith("$$", i):
            in_math = "" if in_math == "$$" else ("$$" if not in_math else in_math)
            i += 2
            if not in_math:
                j = i
                while j < n and line[j] == " ":
                    j += 1
                if j < n and j > i and line[j].isupper():
                    spans.append((start, j))
                    start = j
            continue
        c = line[i]
        if c == "$" and in_math != "$$":
            in_math = "" if in_math == "$" else "$"
        elif not in_math and c in ".!?。！？":
            j = i + 1
            while j < n and line[j] in " \u3000":
                j += 1
            cjk_stop = c in "。！？"
            if j < n and (cjk_stop or (j > i + 1 and (line[j].isupper() or line[j] in "$(“‘\"'"
                                                       or _CJK.match(line[j])))) and not (
                c == "." and _ABBREVIATIONS.search(line[max(0, i - 6):i + 1])
            ):
                spans.append((start, j))
                start = j
                i = j
                continue
        i += 1
    if start < n:
        spans.append((start, n))
    return spans


def _units(lines: list[str], numbers: Sequence[int]) -> list[Unit]:
    """The units of the cited lines (and of the display lines around a cited display)."""
    wanted: list[int] = []
    for n in sorted(set(numbers)):
        if not 0 < n <= len(lines):
            continue
        wanted.append(n)
        if _is_display_line(lines[n - 1]):  # a display: take all of it and its number
            j = n + 1
            while j <= len(lines) and (_is_display_line(lines[j - 1])
                                       or not lines[j - 1].strip()) and j - n < 6:
                wanted.append(j)
                j += 1
    units: list[Unit] = []
    display: list[str] = []
    display_line = 0
    for n in sorted(set(wanted)):
        line = lines[n - 1]
        if _is_display_line(line):
            if not display:
                display_line = n
            display.append(line)
            continue
        if display:
            units.append(Unit(display_line, 0, "\n".join(display), True))
            display = []
        if not line.strip():
            continue
        spans = sentence_spans(line) if len(line) > _LONG_LINE else [(0, len(line))]
        for k, (a, b) in enumerate(spans):
            units.append(Unit(n, k + 1 if len(spans) > 1 else 0, line[a:b].strip(), False))
    if display:
        units.append(Unit(display_line, 0, "\n".join(display), True))
    return [u for u in units if u.text.strip()]


# -- which unit is the claim -----------------------------------------------------------------

_STOP = frozenset(
    "that this with from which their there these those they them have been were will would "
    "should could into than then when where what while also only each every both same such "
    "under over more most less some other about after before between the and for are not "
    "its it's as is of in on to by be or an at".split()
)
_TRANSLATE = (("lemma", "引理"), ("theorem", "定理"), ("proposition", "命题"),
              ("corollary", "推论"), ("figure", "图"), ("appendix", "附录"),
              ("algorithm", "算法"), ("eq.", "方程"), ("equation", "方程"))


def _features(text: str) -> set[str]:
    """What a text says, as comparable features: words, symbols, numbered references."""
    low = text.lower()
    feats = {w[:6] for w in re.findall(r"[a-z]{4,}", low) if w not in _STOP}
    feats |= {"\\" + c for c in re.findall(r"\\([A-Za-z]{2,})", text)}
    feats |= {f"sym:{s}" for s in re.findall(r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)", text)}
    for en, zh in _TRANSLATE:
        for num in re.findall(re.escape(en) + r"\s*\(?(\d+(?:\.\d+)?)", low):
            feats |= {f"ref:{num}", f"ref:{en}:{num}"}
        for num in re.findall(re.escape(zh) + r"\s*[（(]?\s*(\d+(?:\.\d+)?)", text):
            feats |= {f"ref:{num}", f"ref:{en}:{num}"}
    feats |= {f"ref:{n}" for n in re.findall(r"(?:equation|eq\.?)\s*\(?(\d+\.\d+|\d+)", low)}
    return feats


def _quoted(statement: str) -> list[str]:
    """The seed's own words a statement quotes ('…')."""
    return [q.lower() for q in re.findall(r"'([^']{12,})'", statement)]


def _score(unit: Unit, claim: set[str], quotes: list[str], weight: Mapping[str, float]) -> float:
    text = unit.text.lower()
    score = sum(weight.get(f, 1.0) for f in _features(unit.text) & claim)
    for q in quotes:
        words = q.split()
        for k in range(0, max(1, len(words) - 3)):
            if " ".join(words[k:k + 4]) in " ".join(text.split()):
                score += 20.0
                break
    if "$$" in unit.text or unit.display:  # the display of an equation the claim names
        if any(f.startswith("ref:") for f in _features(unit.text) & claim):
            score *= 2.0
    return score / (max(60, len(unit.text)) / 60) ** 0.4


def _pick(units: list[Unit], entry: Mapping[str, Any]) -> list[Unit]:
    """The unit that makes the claim, with the display it introduces (or its introduction)."""
    if not units:
        return []
    statement = f"{entry.get('statement', '')} {entry.get('statement_latex', '')}"
    claim = _features(statement)
    # the claim's ID names its equation or result: j91.grad.1.4, cl.lemma7.x, cl.thm1.y
    ident = str(entry.get("id", ""))
    for n in re.findall(r"(?<![\w])(\d+\.\d+)(?![\w])", ident):
        claim |= {f"ref:{n}", f"ref:equation:{n}", f"ref:eq.:{n}"}
    for en, short in (("lemma", "lemma"), ("theorem", "thm"), ("proposition", "prop"),
                      ("corollary", "corollary"), ("figure", "fig")):
        claim |= {f"ref:{en}:{n}" for n in re.findall(rf"\b{short}(\d+)\b", ident)}
    quotes = _quoted(str(entry.get("statement", "")))
    counts: dict[str, int] = {}
    for u in units:
        for f in _features(u.text):
            counts[f] = counts.get(f, 0) + 1
    weight = {f: 1.0 + math.log(len(units) / c) + (3.0 if f.startswith("ref:") else 0.0)
              for f, c in counts.items()}
    scores = [_score(u, claim, quotes, weight) for u in units]
    best = max(range(len(units)), key=lambda k: (scores[k], -k))
    chosen = [best]
    if units[best].display and best > 0 and not units[best - 1].display:
        chosen.insert(0, best - 1)
    elif not units[best].display and best + 1 < len(units) and units[best + 1].display and (
        units[best].text.rstrip().endswith((":", "：", "满足", "有", "given by", "as"))
        or units[best + 1].line == units[best].line + 2
    ):
        chosen.append(best + 1)
    return [units[k] for k in chosen]


# -- the quote, typeset ------------------------------------------------------------------------

_MATH_SPAN = re.compile(r"\$\$(.+?)\$\$|\$([^$]+?)\$", re.S)
_RAW_TEX = re.compile(r"[^\s\u3000-\u30ff\u3400-\u9fff\uff00-\uffef，。：；、（）]*\\[A-Za-z]+"
                      r"[^\u3000-\u30ff\u3400-\u9fff\uff00-\uffef，。；、]*")


def _maths_or_code(latex: str) -> str:
    latex = " ".join(latex.split()).replace(r"\+", "+")
    if tex_ok(latex):
        return f"${latex}$"
    return _code(latex)


def _prose_quote(text: str, tags: Mapping[str, str] | None = None) -> str:
    """A seed sentence as MyST: its maths typeset (a display numbered as the paper numbers
    it, from ``tags``: LaTeX -> number), raw TeX set as maths, the rest escaped."""
    out: list[str] = []
    last = 0
    for m in _MATH_SPAN.finditer(text):
        out.append(_raw_tex(text[last:m.start()]))
        if m.group(1) is not None:
            body = " ".join(m.group(1).split())
            tag = (tags or {}).get(body)
            shown = body + (rf" \tag{{{tag}}}" if tag else "")
            out.append(f"\n\n$$\n{shown}\n$$\n\n" if tex_ok(body) else _code(body))
        else:
            out.append(_maths_or_code(m.group(2)))
        last = m.end()
    out.append(_raw_tex(text[last:]))
    return "".join(out)


def _raw_tex(text: str) -> str:
    out: list[str] = []
    last = 0
    for m in _RAW_TEX.finditer(text):
        out.append(_escape(text[last:m.start()]))
        out.append(_maths_or_code(m.group().strip()))
        last = m.end()
    out.append(_escape(text[last:]))
    return "".join(out)


def _display(unit: Unit, equations: Sequence[Equation]) -> str:
    lines = unit.text.splitlines()
    tag = ""
    body = []
    for line in lines:
        s = line.strip()
        m = re.fullmatch(r"\((\d+)\)", s)
        if m:
            tag = m.group(1)
        elif s != "$$":
            body.append(s[1:-1] if s.startswith("$\\displaystyle") and s.endswith("$") else s)
    latex = " ".join(" ".join(body).replace(r"\displaystyle", "").split())
    latex = re.sub(r"\\\s*$", "", latex.replace(r"\+", "+")).strip()
    for eq in equations:
        if eq.lines[0] == unit.line:
            tag = eq.number
    if not tex_ok(latex):
        return _code(latex)
    return "\n\n$$\n" + latex + (rf" \tag{{{tag}}}" if tag else "") + "\n$$\n\n"


def _cut(text: str) -> str:
    if len(text) <= _QUOTE_CHARS:
        return text
    cut = text[:_QUOTE_CHARS]
    if cut.count("$") % 2:  # never inside maths
        cut = cut[: cut.rfind("$")]
    return cut.rsplit(" ", 1)[0] + " …"


def _line_label(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    if list(numbers) == list(range(numbers[0], numbers[-1] + 1)):
        return f"lines {numbers[0]}–{numbers[-1]}"
    return "lines " + ", ".join(str(n) for n in numbers)


def _source_lines(entry: Mapping[str, Any], seeds_dir: Path | None) -> list[str]:
    """Links to the statement's seed lines, each with the quote of the sentence or equation
    that makes the claim."""
    out: list[str] = []
    for src in entry.get("sources") or []:
        seed_file, numbers = src["seed_file"], list(src["lines"])
        if not numbers:
            continue
        page = seed_page_name(seed_file)[:-3] + ".html"
        paper = paper_of(seed_file)
        role = dict(paper.seeds).get(seed_file, "") if paper is not None else ""
        label = f"seed {seed_file[:3]}, {_line_label(numbers)}"
        lines = _seed_lines(seed_file, seeds_dir)
        chosen = _pick(_units(lines, numbers), entry) if lines is not None else []
        anchor = chosen[0].anchor if chosen else f"L{numbers[0]}"
        out.append(
            f'<a class="seed-link" href="{page}#{anchor}">{html.escape(label)}</a>'
            + (f" ({html.escape(role)})" if role else "")
        )
        if chosen:
            equations = [eq for eq in paper_equations(seeds_dir, paper.key).values()
                         if eq.seed_file == seed_file] if paper is not None else []
            tags = {eq.latex: eq.number for eq in equations}
            body = "".join(
                _display(u, equations) if u.display else _prose_quote(_cut(u.text), tags) + " "
                for u in chosen
            )
            body = re.sub(r"\n{3,}", "\n\n", body).strip()
            out += ["", "```{container} seed-quote", body, "```"]
    return out


# -- the seed pages ----------------------------------------------------------------------------


def _line_html(n: int, text: str) -> str:
    if len(text) <= _LONG_LINE:
        return html.escape(text) or "&#8203;"
    spans = sentence_spans(text)
    if len(spans) < 2:
        return html.escape(text)
    return "".join(f'<span class="sentence" id="L{n}-s{k}">{html.escape(text[a:b])}</span>'
                   for k, (a, b) in enumerate(spans, start=1))


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
        MyST page holding a raw HTML ``<ol>`` with one ``<li id="L<n>">`` per line; the
        sentences of a long line are ``<span id="L<n>-s<k>">``, linkable one by one.

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
    >>> long = "First sentence here. " * 30
    >>> 'id="L1-s2"' in render_seed_text("001_4a7126a84a0d22c9.txt", [long])
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
        + ", verbatim, with its line numbers (claims link to them; the sentences of a long "
        "line have their own links).",
        "",
        "```{raw} html",
        '<ol class="seed-text tex2jax_ignore">',
    ]
    body = [
        f'<li id="L{n}" value="{n}">{_line_html(n, text)}</li>'
        for n, text in enumerate(lines, start=1)
    ]
    return "\n".join([*head, *body, "</ol>", "```"]) + "\n"
