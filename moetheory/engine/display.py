r"""Results that render themselves in a notebook: Markdown and HTML with typeset maths.

Every displayable result (an :class:`~moetheory.engine.verdicts.Outcome`, a claim, the
report :func:`moetheory.verify` returns, the results of the symbolic and statistical
functions) builds a :class:`Card` — a title, a verdict, a summary, labelled fields and
sections — and Jupyter shows the card's :meth:`Card.markdown` or :meth:`Card.html`.

Text in a card is *prose with maths*: formulas inside ``$...$`` or ``$$...$$`` (LaTeX, as
:func:`sympy.latex` prints it), code inside backticks, everything else plain text. The
renderers escape every character of the plain text that HTML would interpret, so nothing a
check or a report file holds can inject markup; in HTML the formulas go between MathJax's
delimiters (a backslash and a parenthesis inline, a backslash and a bracket displayed). Plain
values (a string of evidence, a file name) go through :func:`literal` first, so a dollar sign
in them stays a dollar sign.

The engine imports no mathematics: this module renders the LaTeX strings that evidence
already carries (``{"sympy": ..., "latex": ...}``, see
:func:`~moetheory.engine.verdicts.symbolic_evidence`); the symbolic modules print their
formulas with :func:`sympy.latex` before they hand them over.

Examples
--------
>>> card = Card("`mine.x`", verdict="proved", summary="$x^{2} \\ge 0$ for real $x$",
...             fields=[("residual", "$0$"), ("note", literal("costs $5 < $6"))])
>>> print(card.markdown())
**`mine.x`** — **proved**
<BLANKLINE>
$x^{2} \ge 0$ for real $x$
<BLANKLINE>
- **residual**: $0$
- **note**: costs \$5 &lt; \$6
>>> "\\(x^{2} \\ge 0\\)" in card.html()
True
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from moetheory.engine.mathtext import safe_tex

__all__ = [
    "TYPESET",
    "Card",
    "Report",
    "claim_card",
    "declared_typeset",
    "entry_card",
    "evidence_fields",
    "html_text",
    "literal",
    "markdown_text",
    "report_card",
    "shown_evidence",
]

#: A field's value: prose with maths, or nested fields (a mapping of evidence).
Value = Union[str, "list[tuple[str, Value]]"]

#: The key of evidence (at any level) under which a check declares the typeset form of its
#: plain strings: ``{plain text: prose with maths}``; see :func:`evidence_fields`.
TYPESET = "typeset"

#: Items of a list or mapping shown before "… and N more".
MAX_ITEMS = 12
#: Characters of a string shown before it is cut.
MAX_CHARS = 2000

_VERDICT_COLOURS = {
    "proved": "#1a7f37",
    "supported": "#1a7f37",
    "refuted": "#cf222e",
    "unsupported": "#cf222e",
    "inconclusive": "#9a6700",
    "error": "#6e7781",
}

#: Code blocks, code spans, display and inline maths, escaped dollars (in this order).
_TOKENS = re.compile(
    r"(?P<fence>(?<!\\)```.*?(?:```|\Z))"
    r"|(?P<code>(?<!\\)`[^`]+(?<!\\)`)"
    r"|(?P<display>\$\$(?:[^$\\]|\\[\s\S])+?\$\$)"
    r"|(?P<inline>\$(?:[^$\\]|\\[\s\S])+?\$)"
    r"|(?P<dollar>\\\$)",
    re.S,
)


def literal(text: Any) -> str:
    r"""Plain text as prose with maths that holds no formula and no code.

    Parameters
    ----------
    text : object
        The text (``str()`` of anything else).

    Returns
    -------
    str
        The text with ``\`` before each ``$`` and each backtick.

    See Also
    --------
    markdown_text, html_text : render prose with maths; they show an escaped ``$`` as a
        dollar sign.

    Notes
    -----
    Every plain value a card shows (a string of evidence, a file name, a claim's reading)
    goes through it: a price such as ``$5 or $6`` must not become the formula ``5 or``.

    Examples
    --------
    >>> literal("costs $5")
    'costs \\$5'
    """
    return re.sub(r"([$`])", r"\\\1", str(text))


def _segments(text: str) -> Iterable[tuple[str, str]]:
    """``(kind, text)`` pieces of prose with maths: prose, fence, code, display, inline,
    dollar (an escaped ``$``) and tick (an escaped backtick)."""
    pos = 0
    for match in _TOKENS.finditer(text):
        if match.start() > pos:
            yield from _prose(text[pos:match.start()])
        kind = match.lastgroup or "prose"
        yield kind, match.group()
        pos = match.end()
    if pos < len(text):
        yield from _prose(text[pos:])


def _prose(text: str) -> Iterable[tuple[str, str]]:
    parts = text.split("\\`")
    for i, part in enumerate(parts):
        if i:
            yield "tick", "`"
        if part:
            yield "prose", part


def _md_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _math_md(latex: str) -> str:
    # no HTML tag can start inside a formula: <, > as their TeX commands; no link, class or
    # style either (safe_tex)
    return safe_tex(latex).replace("<", r"\lt ").replace(">", r"\gt ")


def markdown_text(text: str) -> str:
    r"""Prose with maths as Markdown that holds no raw HTML.

    Parameters
    ----------
    text : str
        Prose with ``$...$``/``$$...$$`` maths and backtick code.

    Returns
    -------
    str
        The text with ``&``, ``<`` and ``>`` of the prose as entities, ``<`` and ``>`` in
        maths as TeX's less-than and greater-than commands; code and escaped dollars unchanged.

    See Also
    --------
    html_text : the same text as HTML.

    Notes
    -----
    Jupyter's Markdown renderer passes raw HTML through, so the prose is escaped; inside a
    formula ``<`` could still open a tag for a renderer that does not protect maths, hence
    the TeX commands. Code spans and blocks are shown verbatim by Markdown itself.

    Examples
    --------
    >>> markdown_text("<b>bold?</b> $a < b$ and `x<y`")
    '&lt;b&gt;bold?&lt;/b&gt; $a \\lt  b$ and `x<y`'
    """
    out = []
    for kind, piece in _segments(text):
        if kind == "prose":
            out.append(_md_escape(safe_tex(piece)))  # a renderer may find \\( in it
        elif kind in ("display", "inline"):
            out.append(_math_md(piece))
        elif kind == "tick":
            out.append("\\`")
        else:  # code, kept; safe_tex in case a renderer pairs its backticks otherwise
            out.append(safe_tex(piece))
    return "".join(out)


def _bold(text: str) -> str:
    r"""``**x**`` as ``<b>x</b>``: a ``**`` before a non-space opens, the nearest ``**`` after
    a non-space closes (what ``\*\*(?=\S)(.+?)(?<=\S)\*\*`` matches, found in one pass
    instead of one search to the end of the text for every unclosed ``**``)."""
    n = len(text)
    closers = [n] * (n + 2)  # closers[i]: the first closing ``**`` at or after i
    for i in range(n - 2, 0, -1):
        closes = text.startswith("**", i) and not text[i - 1].isspace()
        closers[i] = i if closes else closers[i + 1]
    out: list[str] = []
    i = last = 0
    while i < n - 1:
        if text.startswith("**", i) and i + 2 < n and not text[i + 2].isspace():
            j = closers[i + 3] if i + 3 < n else n
            if j < n:
                out += [text[last:i], "<b>", text[i + 2:j], "</b>"]
                i = last = j + 2
                continue
        i += 1
    out.append(text[last:])
    return "".join(out)


def _inline_html(text: str) -> str:
    """Escaped prose with Markdown's ``**bold**`` and ``*italic*`` as tags."""
    escaped = _bold(html.escape(text, quote=False))
    return re.sub(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])", r"<i>\1</i>", escaped)


def html_text(text: str) -> str:
    r"""Prose with maths as HTML: every character escaped, maths ready for MathJax.

    Parameters
    ----------
    text : str
        Prose with ``$...$``/``$$...$$`` maths and backtick code; ``**bold**`` and
        ``*italic*`` become tags, blank lines paragraphs, lines that start with a dash and a
        space list items.

    Returns
    -------
    str
        HTML: inline and display maths (one and two dollar signs) in MathJax's inline and
        display delimiters (backslash and parenthesis, backslash and bracket), code as
        ``<code>`` (a fence as ``<pre>``), a literal dollar inside
        ``<span class="tex2jax_ignore">`` so MathJax never pairs it.

    See Also
    --------
    markdown_text : the same text as Markdown.

    Notes
    -----
    Formulas and code are set aside first (placeholders), so the prose rules (escaping,
    paragraphs, lists, emphasis) never touch them; the formulas are escaped too — MathJax
    reads the text content, where ``&lt;`` is ``<`` again.

    Examples
    --------
    >>> html_text("<script> $a<b$ `x`")
    '<p>&lt;script&gt; \\(a&lt;b\\) <code>x</code></p>'
    """
    rendered: list[str] = []

    def keep(fragment: str) -> str:  # a rendered piece, out of reach of the prose rules
        rendered.append(fragment)
        return f"\x00{len(rendered) - 1}\x00"

    parts = []
    for kind, piece in _segments(text.replace("\x00", "")):
        if kind == "prose":
            parts.append(safe_tex(piece))  # MathJax may find \\( … \\) in it
        elif kind == "fence":
            body = re.sub(r"\A```[^\n]*\n?|```\Z", "", piece)
            parts.append("\n\n" + keep("<pre>" + html.escape(body, quote=False) + "</pre>")
                         + "\n\n")
        elif kind == "code":
            parts.append(keep("<code>" + html.escape(piece[1:-1], quote=False) + "</code>"))
        elif kind == "display":
            parts.append(keep(r"\[" + html.escape(safe_tex(piece[2:-2]), quote=False) + r"\]"))
        elif kind == "inline":
            parts.append(keep(r"\(" + html.escape(safe_tex(piece[1:-1]), quote=False) + r"\)"))
        else:  # an escaped $ or backtick: MathJax must never pair it
            parts.append(keep('<span class="tex2jax_ignore">' + piece[-1] + "</span>"))
    out = []
    for block in re.split(r"\n[ \t]*\n", "".join(parts)):
        block = block.strip()
        if re.fullmatch(r"\x00\d+\x00", block) and rendered[int(block[1:-1])].startswith("<pre>"):
            out.append(block)
        elif block:
            out.append(_block_html(block))
    return re.sub(r"\x00(\d+)\x00", lambda m: rendered[int(m.group(1))], "".join(out))


def _block_html(text: str) -> str:
    """A paragraph of prose (maths already replaced), as ``<p>``; lines starting with "- " as
    list items."""
    lines = text.split("\n")
    if not any(line.lstrip().startswith("- ") for line in lines):
        return f"<p>{_inline_html(text)}</p>"
    out, items = [], []
    for line in lines:
        if line.lstrip().startswith("- "):
            items.append(line.lstrip()[2:])
        elif items and line.strip():
            items[-1] += " " + line.strip()
        elif line.strip():
            out.append(f"<p>{_inline_html(line)}</p>")
    return "".join(out) + "<ul>" + "".join(f"<li>{_inline_html(i)}</li>" for i in items) + "</ul>"


def _verdict_md(verdict: str) -> str:
    return f"**{_md_escape(verdict)}**"


def _verdict_html(verdict: str) -> str:
    colour = _VERDICT_COLOURS.get(verdict, "#6e7781")
    return (
        f'<span style="color:{colour};font-weight:bold">{html.escape(verdict)}</span>'
    )


@dataclass(frozen=True)
class Card:
    r"""One result as a reader sees it: title, verdict, summary, fields and sections.

    Parameters
    ----------
    title : str
        Prose with maths (e.g. a claim ID in backticks, or ``"Euler residual of $s$"``).
    verdict : str, optional
        One of the six verdicts (coloured in HTML), or any short status.
    summary : str
        Prose with maths: the one line a reader acts on.
    fields : sequence of (str, Value)
        Labelled values: prose with maths, or nested fields (shown as a nested list).
    sections : sequence of (str, str)
        Headed blocks of prose with maths (a derivation, the readings).
    children : sequence of Card
        Cards shown below this one (in HTML, each folded in a ``<details>`` element).

    See Also
    --------
    entry_card, claim_card, report_card : cards of the engine's results.

    Notes
    -----
    Every string, labels included, is prose with maths, so plain values (and labels that
    are not the renderer's own words) must go through :func:`literal`.

    Examples
    --------
    >>> Card("t", fields=[("a", [("b", "$1$")])]).markdown().splitlines()[-1]
    '  - **b**: $1$'
    """

    title: str
    verdict: str | None = None
    summary: str = ""
    fields: Sequence[tuple[str, Value]] = field(default_factory=tuple)
    sections: Sequence[tuple[str, str]] = field(default_factory=tuple)
    children: Sequence[Card] = field(default_factory=tuple)

    def markdown(self) -> str:
        """The card as Markdown (no raw HTML: every plain character is escaped).

        Returns
        -------
        str
            Bold title and verdict, the summary, a bullet list of the fields, the sections.
        """
        head = f"**{markdown_text(self.title)}**"
        if self.verdict:
            head += " — " + _verdict_md(self.verdict)
        out = [head]
        if self.summary:
            out.append(markdown_text(self.summary))
        if self.fields:
            out.append("\n".join(_md_fields(self.fields, 0)))
        for heading, body in self.sections:
            out.append(f"**{_md_escape(heading)}**\n\n{markdown_text(body)}")
        out += ["---\n\n" + child.markdown() for child in self.children]
        return "\n\n".join(out)

    def html(self) -> str:
        """The card as HTML, every text escaped and the maths in MathJax's delimiters.

        Returns
        -------
        str
            One ``<div class="moetheory">``.
        """
        head = f"<b>{_strip_p(html_text(self.title))}</b>"
        if self.verdict:
            head += " — " + _verdict_html(self.verdict)
        out = [f'<div class="moetheory"><p>{head}</p>']
        if self.summary:
            out.append(html_text(self.summary))
        if self.fields:
            out.append(_html_fields(self.fields))
        for heading, body in self.sections:
            out.append(f"<p><b>{html.escape(heading)}</b></p>{html_text(body)}")
        for child in self.children:
            head = f"<b>{_strip_p(html_text(child.title))}</b>"
            if child.verdict:
                head += " — " + _verdict_html(child.verdict)
            out.append(f"<details><summary>{head}</summary>{child.html()}</details>")
        return "".join(out) + "</div>"


def _strip_p(fragment: str) -> str:
    return fragment[3:-4] if fragment.startswith("<p>") and fragment.endswith("</p>") \
        and fragment.count("<p>") == 1 else fragment


def _md_fields(fields: Sequence[tuple[str, Value]], depth: int) -> list[str]:
    pad = "  " * depth
    lines = []
    for label, value in fields:
        if isinstance(value, str):
            text = markdown_text(value)
            if "\n" in text:  # keep a multi-line value inside its list item
                text = "\n" + "\n".join(pad + "  " + line for line in text.split("\n"))
            lines.append(f"{pad}- **{markdown_text(label)}**: {text}")
        else:
            lines.append(f"{pad}- **{markdown_text(label)}**:")
            lines += _md_fields(value, depth + 1)
    return lines


def _html_fields(fields: Sequence[tuple[str, Value]]) -> str:
    items = []
    for label, value in fields:
        body = _strip_p(html_text(value)) if isinstance(value, str) else _html_fields(value)
        items.append(f"<li><b>{_strip_p(html_text(label))}</b>: {body}</li>")
    return "<ul>" + "".join(items) + "</ul>"


# ------------------------------------------------------------------------ evidence


def _is_symbolic(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"sympy", "latex"}


def _scalar(value: Any, typeset: Mapping[str, str]) -> str | None:
    """A JSON scalar as prose with maths (``None`` for a container)."""
    if _is_symbolic(value):
        return f"${value['latex']}$" if str(value["latex"]).strip() else literal(value["sympy"])
    if isinstance(value, bool) or value is None:
        return f"`{json.dumps(value)}`"
    if isinstance(value, int | float):
        return f"`{value!r}`"
    if isinstance(value, str):
        if value in typeset:
            return typeset[value]
        cut = value if len(value) <= MAX_CHARS else value[:MAX_CHARS] + " …"
        if "\n" in cut:
            return "```\n" + cut.replace("```", "` ` `") + "\n```"
        return literal(cut)
    return None


def _value(value: Any, typeset: Mapping[str, str]) -> Value:
    text = _scalar(value, typeset)
    if text is not None:
        return text
    if isinstance(value, Mapping):
        return _fields(value, typeset)
    if isinstance(value, Sequence) and not isinstance(value, str):
        items = list(value)
        shown = [_scalar(v, typeset) for v in items[:MAX_ITEMS]]
        more = f", … ({len(items)} items)" if len(items) > MAX_ITEMS else ""
        if all(s is not None and "\n" not in s for s in shown):
            return "[" + ", ".join(s for s in shown if s is not None) + more + "]"
        nested: list[tuple[str, Value]] = [
            (f"[{i}]", _value(v, typeset)) for i, v in enumerate(items[:MAX_ITEMS])
        ]
        if more:
            nested.append(("…", f"{len(items) - MAX_ITEMS} more items"))
        return nested
    return literal(repr(value))


def declared_typeset(evidence: Mapping[str, Any]) -> Mapping[str, str] | None:
    r"""The typeset forms ``evidence`` declares under :data:`TYPESET`, if well formed.

    Parameters
    ----------
    evidence : mapping
        One level of a check's evidence.

    Returns
    -------
    mapping of str to str or None
        ``{plain text: prose with maths}`` when the key holds such a mapping, every form's
        dollars balanced; ``None`` otherwise (the key, if any, is then ordinary evidence).

    See Also
    --------
    evidence_fields : shows a declared plain text as its form.
    shown_evidence : the evidence without the declaration.

    Notes
    -----
    The declaration is made by the code that knows which of its strings are maths, such as
    :func:`~moetheory.stats.expectation.check_expectation`; its evidence keeps every string
    plain for JSON readers, the terminal and the Markdown report.

    Examples
    --------
    >>> declared_typeset({"typeset": {"E[X]": "$\\mathbb{E}[X]$"}})
    {'E[X]': '$\\mathbb{E}[X]$'}
    >>> declared_typeset({"typeset": {"E[X]": "$E"}}) is None
    True
    """
    forms = evidence.get(TYPESET)
    if isinstance(forms, Mapping) and all(
        isinstance(k, str) and isinstance(v, str) and v.strip() and v.count("$") % 2 == 0
        for k, v in forms.items()
    ):
        return forms
    return None


def shown_evidence(evidence: Mapping[str, Any]) -> Mapping[str, Any]:
    r"""``evidence`` without its declared typeset forms (:func:`declared_typeset`).

    Parameters
    ----------
    evidence : mapping
        One level of a check's evidence.

    Returns
    -------
    mapping
        The evidence a reader is shown: ``evidence`` itself, or a copy without
        :data:`TYPESET` when that key holds a declaration.

    See Also
    --------
    declared_typeset : what counts as a declaration.

    Notes
    -----
    The terminal, the Markdown report and the failure message of
    :func:`~moetheory.testing.assert_verdict` show the plain evidence through it.

    Examples
    --------
    >>> shown_evidence({"label": "E[X]", "typeset": {"E[X]": "$\\mathbb{E}[X]$"}})
    {'label': 'E[X]'}
    """
    if declared_typeset(evidence) is None:
        return evidence
    return {k: v for k, v in evidence.items() if k != TYPESET}


def _key(key: str) -> str:
    """An evidence key as a label: a name as code, any other text as literal text."""
    return f"`{key}`" if re.fullmatch(r"[A-Za-z_][\w.-]*", key) else literal(key)


def _fields(evidence: Mapping[str, Any], inherited: Mapping[str, str]) -> list[tuple[str, Value]]:
    declared = declared_typeset(evidence)
    typeset = {**inherited, **declared} if declared is not None else inherited
    items = list(shown_evidence(evidence).items())
    fields: list[tuple[str, Value]] = [
        (typeset.get(str(k)) or _key(str(k)), _value(v, typeset))
        for k, v in items[:MAX_ITEMS * 4]
    ]
    if len(items) > MAX_ITEMS * 4:
        fields.append(("…", f"{len(items) - MAX_ITEMS * 4} more entries"))
    return fields


def evidence_fields(evidence: Any) -> list[tuple[str, Value]]:
    r"""Evidence (JSON data, as in a report) as card fields.

    Parameters
    ----------
    evidence : object
        Usually a mapping; formulas are ``{"sympy": ..., "latex": ...}`` mappings.

    Returns
    -------
    list of (str, Value)
        One field per key, a key that is a name as code: formulas typeset, numbers and booleans as
        code, strings as literal text (multi-line ones as a code block), containers nested
        (at most :data:`MAX_ITEMS` items each).

    See Also
    --------
    entry_card : the card whose ``evidence`` field this builds.

    Notes
    -----
    Formulas are typeset from the LaTeX the evidence carries; nothing is re-parsed, so the
    engine needs no SymPy to show them. A check whose evidence holds plain text that is
    maths (a label such as :math:`\mathbb{E}[X]` written plainly, a reason quoting an
    interval) declares its typeset form under :data:`TYPESET` (see
    :func:`declared_typeset`): a string or key equal to a declared plain text, in that
    mapping or below it, is shown as its form; nothing else is guessed. The declaration
    itself is not shown.

    Examples
    --------
    >>> evidence_fields({"residual": {"sympy": "0", "latex": "0"}, "n": 3})
    [('`residual`', '$0$'), ('`n`', '`3`')]
    >>> evidence_fields({"label": "E[X]", "typeset": {"E[X]": "$\\mathbb{E}[X]$"}})
    [('`label`', '$\\mathbb{E}[X]$')]
    """
    if not isinstance(evidence, Mapping):
        return [("value", _value(evidence, {}))]
    return _fields(evidence, {})


# ------------------------------------------------------------------ engine results


def _typeset(latex: Any, plain: Any) -> str:
    """The typeset form when given (prose with ``$...$``, balanced), else the plain text."""
    if isinstance(latex, str) and latex.strip() and latex.count("$") % 2 == 0:
        return latex
    return literal(plain if isinstance(plain, str) else json.dumps(plain, default=repr))


def _get(entry: Mapping[str, Any], key: str, default: Any = "") -> Any:
    value = entry.get(key, default)
    return default if value is None else value


def entry_card(entry: Mapping[str, Any], title: str | None = None) -> Card:
    """The card of an outcome's payload, a reading's, or a report's claim entry.

    Parameters
    ----------
    entry : mapping
        ``Outcome.to_dict()``, ``Reading.to_dict()`` or an element of ``report["claims"]``:
        any mapping renders (missing keys are left out, malformed values shown as text).
    title : str, optional
        Prose with maths; default the entry's ``id`` (as code), its reading ``name``, or
        ``"Outcome"``.

    Returns
    -------
    Card
        Verdict, summary (typeset when the entry has ``summary_latex``), statement and
        reading (once when they are the same text), evidence, the readings, the derivation.

    See Also
    --------
    moetheory.engine.verdicts.Outcome.to_dict : the payload it usually renders.
    moetheory.engine.report.render_claim : the Markdown report's version of an entry.

    Notes
    -----
    A report file may hold anything, so every value is checked before it is used; the
    typeset forms (``*_latex``) are used only when their dollars balance.

    Examples
    --------
    >>> entry_card({"verdict": "proved", "summary": "ok", "evidence": {"n": 1}}).fields
    [('evidence', [('`n`', '`1`')])]
    """
    if title is None:
        if "id" in entry:
            title = "`" + str(entry["id"]).replace("`", "'") + "`"
        elif "name" in entry:
            title = "Reading `" + str(entry["name"]).replace("`", "'") + "`"
        else:
            title = "Outcome"
    fields: list[tuple[str, Value]] = []
    same = _get(entry, "reading") == _get(entry, "statement")  # a user's claim: shown once
    statement = _typeset(entry.get("statement_latex") or (entry.get("reading_latex") if same
                                                           else None), _get(entry, "statement"))
    if statement:
        fields.append(("statement", statement))
    reading = _typeset(entry.get("reading_latex"), _get(entry, "reading"))
    if reading and not same:
        fields.append(("reading", reading))
    evidence = entry.get("evidence")
    if evidence:
        fields.append(("evidence", evidence_fields(evidence)))
    sections = []
    readings = entry.get("readings")
    if isinstance(readings, list) and readings:
        lines = []
        for r in readings:
            r = r if isinstance(r, Mapping) else {"summary": r}
            lines.append(
                f"- *{literal(_get(r, 'name', '?'))}* — **{literal(_get(r, 'verdict', '?'))}**: "
                + _typeset(r.get("summary_latex"), _get(r, "summary")).replace("\n", " ")
            )
        sections.append(("Readings", "\n".join(lines)))
    derivation = entry.get("derivation")
    if isinstance(derivation, str) and derivation.strip():
        sections.append(("Derivation", derivation.strip()))
    return Card(
        title=title,
        verdict=str(_get(entry, "verdict", "?")),
        summary=_typeset(entry.get("summary_latex"), _get(entry, "summary")),
        fields=fields,
        sections=sections,
    )


def claim_card(record: Mapping[str, Any]) -> Card:
    """The card of a registered claim (``moetheory list --json``'s record of it).

    Parameters
    ----------
    record : mapping
        ``id``, ``statement``, ``kind``, ``sources`` (``seed_file``, ``lines``), optionally
        ``statement_latex``, ``reading``, ``section``, ``origin``, ``implemented``.

    Returns
    -------
    Card
        Title the ID, status the kind, then statement, reading and seed lines.

    See Also
    --------
    moetheory.engine.registry.Claim : whose ``_repr_markdown_`` uses it.

    Notes
    -----
    The statement is typeset when the claim gives ``statement_latex``; the reading is shown
    as written.

    Examples
    --------
    >>> claim_card({"id": "x", "statement": "a < b", "kind": "exact"}).markdown()
    '**`x`** — **exact**\\n\\n- **statement**: a &lt; b'
    """
    fields: list[tuple[str, Value]] = [
        ("statement", _typeset(record.get("statement_latex"), _get(record, "statement")))
    ]
    if record.get("reading"):
        fields.append(("reading", literal(record["reading"])))
    sources = record.get("sources") or []
    lines = [
        f"{s.get('seed_file', '?')} lines {', '.join(map(str, s.get('lines', [])))}"
        for s in sources if isinstance(s, Mapping)
    ]
    if lines:
        fields.append(("seed lines", literal("; ".join(lines))))
    if record.get("section"):
        fields.append(("section", literal(record["section"])))
    if record.get("origin") == "package":
        fields.append(("origin", "a statement the package adds (not a seed's)"))
    if record.get("implemented") is False:
        fields.append(("implemented", "no (placeholder: inconclusive until a check exists)"))
    return Card("`" + str(_get(record, "id", "?")).replace("`", "'") + "`",
                verdict=str(_get(record, "kind", "")) or None, fields=fields)


def report_card(report: Mapping[str, Any], details: int = 20) -> Card:
    """The card of a verification report: run settings, counts, one line per claim.

    Parameters
    ----------
    report : mapping
        A ``moetheory-report/1`` report (what :func:`moetheory.verify` returns).
    details : int
        Up to this many claims also get their whole entry (evidence, readings) below.

    Returns
    -------
    Card
        Summary the counts; a section listing each claim with its verdict and summary;
        the first ``details`` claims' cards as children.

    See Also
    --------
    Report : shows it.
    moetheory.engine.report.render_markdown : the report written to disk.

    Notes
    -----
    An interrupted run (``complete`` false) says so in the summary.

    Examples
    --------
    >>> r = {"counts": {"proved": 1, "refuted": 0}, "claims": [
    ...     {"id": "x", "verdict": "proved", "summary": "ok"}]}
    >>> report_card(r).summary
    '1 claim checked: proved 1'
    """
    claims = [c for c in (report.get("claims") or []) if isinstance(c, Mapping)]
    raw_counts = report.get("counts")
    counts = raw_counts if isinstance(raw_counts, Mapping) else {}
    tally = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
    summary = f"{len(claims)} claim{'s' if len(claims) != 1 else ''} checked: {tally or 'none'}"
    if report.get("complete") is False:
        summary += " (incomplete: the run was interrupted)"
    lines = [
        f"- `{str(_get(c, 'id', '?')).replace('`', chr(39))}` — "
        f"**{literal(_get(c, 'verdict', '?'))}**: "
        + _typeset(c.get("summary_latex"), _get(c, "summary")).replace("\n", " ")
        for c in claims
    ]
    fields: list[tuple[str, Value]] = [
        (f"`{key}`", literal(report[key])) for key in ("profile", "seed", "family_alpha")
        if key in report
    ]
    sections = [("Claims", "\n".join(lines))] if lines else []
    return Card("moetheory report", summary=literal(summary), fields=fields,
                sections=sections, children=[entry_card(c) for c in claims[:details]])


class Report(dict):  # type: ignore[type-arg]
    """The report :func:`moetheory.verify` returns: a ``dict`` that renders itself.

    Parameters
    ----------
    *args, **kwargs
        As for :class:`dict`.

    See Also
    --------
    report_card : what it shows.

    Notes
    -----
    A subclass of :class:`dict` adding only the display methods: ``json.dumps``,
    comparison with a dict, pickling and every key behave as before. With a single claim
    it shows that claim's whole entry.

    Examples
    --------
    >>> r = Report({"counts": {"proved": 1}, "claims": [{"id": "x", "verdict": "proved"}]})
    >>> r == {"counts": {"proved": 1}, "claims": [{"id": "x", "verdict": "proved"}]}
    True
    >>> r._repr_markdown_().splitlines()[0]
    '**`x`** — **proved**'
    """

    def _card(self) -> Card:
        claims = self.get("claims")
        if isinstance(claims, list) and len(claims) == 1 and isinstance(claims[0], Mapping):
            return entry_card(claims[0])
        return report_card(self)

    def _repr_markdown_(self) -> str:
        return self._card().markdown()

    def _repr_html_(self) -> str:
        return self._card().html()
