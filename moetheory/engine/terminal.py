"""Claims and reports as a person reads them in a terminal.

``moetheory show`` and ``moetheory list`` print through this module: text wrapped to the
terminal's width, mathematics as readable Unicode (Greek letters, sub- and superscripts and operator
signs, never ``**`` or ``oo``), evidence as an aligned two-column table. A report may come from
anyone, so no
character that acts on a terminal reaches it (:func:`printable`), and JSON is written as
standard JSON (:func:`json_text`).

Examples
--------
>>> entry = {"id": "x.one", "statement": "x**2 >= 0", "reading": "real x",
...          "verdict": "proved", "summary": "square of a real", "evidence": {"n": 3}}
>>> print(render_claim_text(entry, width=60).splitlines()[0])
x.one — PROVED
"""

from __future__ import annotations

import json
import math
import re
import shutil
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from moetheory.engine._prose import prose_unicode
from moetheory.engine.display import shown_evidence
from moetheory.engine.mathtext import latex_to_unicode, prettify
from moetheory.engine.papers import paper_of
from moetheory.engine.report import claim_title, shorten

__all__ = [
    "FORMATS",
    "evidence_rows",
    "json_text",
    "markdown_to_text",
    "printable",
    "render_claim_text",
    "render_digest",
    "render_list",
    "render_show",
    "terminal_width",
]

#: Output formats of ``moetheory show``.
FORMATS: tuple[str, ...] = ("text", "markdown", "json")

_MIN_WIDTH = 40
_LABEL = 12

#: Characters that act on a terminal rather than print: the C0 controls but newline and
#: tab (ESC starts the sequences that retitle or clear a terminal and plant OSC 8 links;
#: a carriage return overwrites a line), DEL, the C1 controls (U+009B is a one-character
#: CSI), the line and paragraph separators, and Unicode's bidirectional marks, embeddings,
#: overrides and isolates (which reorder what a person reads).
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
    "\u2066-\u2069]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    r"""``text`` with every character that acts on a terminal shown as its escape.

    Parameters
    ----------
    text : str
        Text for a person to read (from a report, a check, a file name).

    Returns
    -------
    str
        The same text where each C0 control but newline and tab, DEL, C1 control, line or
        paragraph separator and bidirectional control is written as a Python escape (backslash,
        ``x`` and two hex digits, or ``u`` and four).

    See Also
    --------
    json_text : the same guarantee for JSON output.
    render_show, render_list : print through it.

    Notes
    -----
    A report received by mail could otherwise retitle or clear the terminal that shows it,
    plant OSC 8 hyperlinks, overwrite lines or reverse the order in which a verdict reads.
    The characters are shown rather than dropped, so the reader sees that the text held
    them.

    Examples
    --------
    >>> printable("proved\x1b]0;owned\x07 \u202edeifitrec")
    'proved\\x1b]0;owned\\x07 \\u202edeifitrec'
    >>> printable("line one\nline two\ttab")
    'line one\nline two\ttab'
    """
    return _CONTROL.sub(_escape, text)


def _finite(value: Any) -> Any:
    """``value`` with non-finite floats as the strings the engine writes."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, Mapping):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def json_text(value: Any, indent: int | None = 2) -> str:
    r"""``value`` as standard JSON that is also safe to print on a terminal.

    Parameters
    ----------
    value : object
        JSON data (a report entry).
    indent : int or None
        Indentation, as for :func:`json.dumps`.

    Returns
    -------
    str
        JSON text (RFC 8259): non-finite numbers as the strings ``"nan"``, ``"inf"``,
        ``"-inf"`` (never ``NaN`` or ``Infinity``), non-ASCII text as is, except the
        characters :func:`printable` escapes, written as JSON's escape (backslash, ``u`` and four
        hex digits).

    See Also
    --------
    printable : the same for text.
    moetheory.engine.report.read_report : reads non-finite numbers the same way.

    Notes
    -----
    Parsing the text gives back ``value`` (non-finite floats read as their strings); the
    escaped characters are the same characters once parsed.

    Examples
    --------
    >>> print(json_text({"x": float("nan"), "s": "a\x1b[2Jb"}, indent=None))
    {"x": "nan", "s": "a\u001b[2Jb"}
    """
    text = json.dumps(_finite(value), indent=indent, ensure_ascii=False, allow_nan=False)
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _printable_data(value: Any) -> Any:
    """Every string (keys too) of JSON data passed through :func:`printable`."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, Mapping):
        return {printable(str(k)): _printable_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_printable_data(v) for v in value]
    return value


def terminal_width(default: int = 100) -> int:
    """The terminal's width in columns (``default`` when not a terminal), at least 40.

    Parameters
    ----------
    default : int
        Width used when the output is not a terminal and ``COLUMNS`` is unset.

    Returns
    -------
    int
        Columns available.

    See Also
    --------
    shutil.get_terminal_size : where the width comes from.

    Notes
    -----
    Narrower terminals are treated as 40 columns: below that, the aligned tables of
    :func:`render_claim_text` could not hold a label and a value side by side.

    Examples
    --------
    >>> terminal_width() >= 40
    True
    """
    return max(_MIN_WIDTH, shutil.get_terminal_size((default, 24)).columns)


#: An inline ``$...$`` or display ``$$...$$`` maths span.
_MATHS = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.S)


def _math_to_text(text: str) -> str:
    """Inline ``$...$`` and ``$$...$$`` spans as Unicode; so are the formulas of the prose
    outside them (:func:`~moetheory.engine._prose.prose_unicode`), and what remains of
    SymPy's spelling is prettified (``E**x * y`` as ``e^x · y``)."""
    parts = re.split(f"({_MATHS.pattern})", text, flags=re.S)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(latex_to_unicode(part.strip("$")))
        elif part.strip():
            core = part.strip()
            start = part.index(core)
            out.append(part[:start] + prettify(prose_unicode(core)) + part[start + len(core):])
        else:
            out.append(part)
    return "".join(out)


#: Marks a paragraph of :func:`markdown_to_text` that is a table (cells split by the unit
#: separator), so that the renderer can align its columns to the width it has.
_TABLE, _TABLE_CELL = "\x1etable\n", "\x1f"


def markdown_to_text(markdown: str) -> list[str]:
    """A check's MyST derivation as plain paragraphs (one string each, not yet wrapped).

    Parameters
    ----------
    markdown : str
        MyST text with ``$...$`` and ``$$...$$`` maths.

    Returns
    -------
    list of str
        Paragraphs; indented ones (four spaces) are display maths or code; a Markdown table
        is one paragraph starting with ``_TABLE`` whose rows hold cells split by
        ``_TABLE_CELL`` (its separator row dropped).

    Display maths becomes an indented line of Unicode maths, inline maths Unicode, bold
    and code marks are dropped, headings become plain lines, code blocks stay verbatim
    (each prefixed with four spaces).

    See Also
    --------
    render_claim_text : wraps these paragraphs to the terminal's width.
    moetheory.engine.mathtext.latex_to_unicode : how the maths is written.

    Notes
    -----
    Headings become their text, inline ``$...$`` and display ``$$...$$`` maths become
    Unicode (:func:`~moetheory.engine.mathtext.latex_to_unicode`), the prose is prettified,
    and a Markdown table becomes one paragraph whose cells the renderer aligns.

    Examples
    --------
    >>> markdown_to_text("**Step.** $x^{2} \\\\ge 0$\\n\\n$$\\n\\\\sqrt{x}\\n$$")
    ['Step. x² ≥ 0', '    √x']
    """
    paragraphs: list[str] = []
    current: list[str] = []
    block: list[str] | None = None
    fence = ""

    def flush() -> None:
        if current:
            paragraphs.append(_inline(" ".join(current)))
            current.clear()

    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if block is not None:
            if stripped.startswith(fence):
                paragraphs.append("\n".join("    " + b for b in block))
                block = None
            else:
                block.append(line)
            i += 1
            continue
        m = re.match(r"(`{3,}|~{3,})", stripped)
        if m:
            flush()
            fence, block = m.group(1), []
            i += 1
            continue
        if stripped.startswith("$$"):
            flush()
            body = stripped[2:]
            if body.endswith("$$") and len(body) > 2:
                math = body[:-2]
            else:
                chunk = [body]
                i += 1
                while i < len(lines) and "$$" not in lines[i]:
                    chunk.append(lines[i])
                    i += 1
                if i < len(lines):
                    chunk.append(lines[i].split("$$")[0])
                math = " ".join(chunk)
            paragraphs.append("    " + latex_to_unicode(math))
            i += 1
            continue
        following = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if (not stripped.startswith("|") and stripped.endswith("|") and " | " in stripped
                and re.fullmatch(r"\|(\s*:?-{3,}:?\s*\|)+", following)):
            # a table whose header row follows text on its line ("**Reading `a`.** | x |")
            head, _, table = stripped.partition(" |")
            current.append(head)
            flush()
            lines[i] = stripped = "|" + table
        if stripped.startswith("|") and stripped.endswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                row = lines[i].strip().removeprefix("|").removesuffix("|")
                # a pipe escaped as \| belongs to its cell (e.g. |f − 1/M| in a label)
                cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]
                if not all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                    rows.append(_TABLE_CELL.join(_inline(c) for c in cells))
                i += 1
            paragraphs.append(_TABLE + "\n".join(rows))
            continue
        if not stripped:
            flush()
        elif re.match(r"#{1,6}\s", stripped):
            flush()
            paragraphs.append(_inline(stripped.lstrip("#").strip()))
        elif re.match(r"([-*+]|\d+\.)\s", stripped):
            flush()
            current.append(stripped)
        else:
            current.append(stripped)
        i += 1
    flush()
    return paragraphs


def _inline(text: str) -> str:
    # the maths stand aside while emphasis, code and links are stripped: an asterisk in
    # ``$\beta^*$`` is not an emphasis mark
    maths: list[str] = []

    def aside(m: re.Match[str]) -> str:
        maths.append(m.group(0))
        return f"\x00{len(maths) - 1}\x00"

    text = _MATHS.sub(aside, text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\1", text)
    text = re.sub(r"`+([^`]+)`+", r"\1", text)
    text = re.sub(r"\[([^][]+)\]\([^)]*\)", r"\1", text)  # [^][]: linear
    return _math_to_text(re.sub("\x00(\\d+)\x00", lambda m: maths[int(m.group(1))], text))


def _value_text(value: Any) -> str:
    if isinstance(value, Mapping) and set(value) == {"sympy", "latex"}:
        return latex_to_unicode(value["latex"])
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    if value is None:
        return "—"
    if isinstance(value, str):
        return {"inf": "∞", "-inf": "−∞"}.get(value, _math_to_text(" ".join(value.split())))
    if _formulas_within(value):  # lists and mappings of formulas and numbers, at any depth
        if isinstance(value, list):
            return "[" + ", ".join(_value_text(v) for v in value) + "]"
        return "{" + ", ".join(f"{_math_to_text(str(k))}: {_value_text(v)}"
                               for k, v in value.items()) + "}"
    return prettify(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))


def _formulas_within(value: Any) -> bool:
    """A list or mapping whose leaves are formulas ``{"sympy", "latex"}``, numbers or text."""
    if isinstance(value, Mapping):
        return set(value) != {"sympy", "latex"} and all(
            _formulas_within(v) or not isinstance(v, Mapping | list) or
            (isinstance(v, Mapping) and set(v) == {"sympy", "latex"})
            for v in value.values())
    if isinstance(value, list):
        return all(_formulas_within(v) or not isinstance(v, Mapping | list) or
                   (isinstance(v, Mapping) and set(v) == {"sympy", "latex"}) for v in value)
    return False


def evidence_rows(evidence: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """Evidence flattened to ``(key, value text)`` rows; nested keys joined with ``›``.

    Parameters
    ----------
    evidence : mapping
        JSON evidence of a report entry.
    prefix : str
        Prepended to every key (used for nesting).

    Returns
    -------
    list of (str, str)
        Formulas as Unicode, floats to six significant digits, other structures as
        prettified JSON.

    See Also
    --------
    render_claim_text : prints these rows as an aligned table.

    Notes
    -----
    Nested mappings are flattened with ``›`` between the keys; a SymPy formula (stored as
    ``{"sympy", "latex"}``) is written from its LaTeX as Unicode. The typeset forms a check
    declares for the notebook (:data:`~moetheory.engine.display.TYPESET`) are left out:
    the plain text they typeset is shown.

    Examples
    --------
    >>> evidence_rows({"ci": [0.1, 0.2], "fit": {"slope": 0.5, "f": {"sympy": "x**2",
    ...                                                              "latex": "x^{2}"}}})
    [('ci', '[0.1, 0.2]'), ('fit › slope', '0.5'), ('fit › f', 'x²')]
    """
    rows: list[tuple[str, str]] = []
    for key, value in shown_evidence(evidence).items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and set(value) != {"sympy", "latex"} and value:
            rows += evidence_rows(value, name + " › ")
        else:
            rows.append((name, _value_text(value)))
    return rows


def _wrap(label: str, text: str, width: int) -> list[str]:
    first = f"{label:<{_LABEL}}" if label else " " * _LABEL
    return textwrap.wrap(
        text,
        width=width,
        initial_indent=first,
        subsequent_indent=" " * _LABEL,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [first.rstrip()]


#: The narrowest a column of an aligned table is made to fit the width; words up to
#: ``_LONG_WORD`` characters are kept whole when the width allows.
_MIN_COLUMN = 6
_LONG_WORD = 20


def _table(rows: Sequence[tuple[str, ...]], width: int, indent: int = _LABEL) -> list[str]:
    """Rows aligned in columns within ``width``: the widest columns are narrowed until the
    table fits, and each cell wraps in its column (no cell is cut)."""
    if not rows:
        return []
    ncol = len(rows[0])
    widths = [max(1, *(len(r[c]) for r in rows)) for c in range(ncol)]
    room = width - indent - 2 * (ncol - 1)
    words = [min(_LONG_WORD, max(len(w) for r in rows for w in [*r[c].split(), ""]))
             for c in range(ncol)]
    for floor in (words, [_MIN_COLUMN] * ncol):  # words kept whole, then broken if need be
        while sum(widths) > room:
            over = [w - f for w, f in zip(widths, floor, strict=True)]
            if max(over) <= 0:
                break
            widths[over.index(max(over))] -= 1
    out: list[str] = []
    for row in rows:
        cells = [textwrap.wrap(row[c], widths[c], break_on_hyphens=False) or [""]
                 for c in range(ncol)]
        for k in range(max(len(c) for c in cells)):
            line = "  ".join(f"{(c[k] if k < len(c) else ''):<{widths[i]}}"
                             for i, c in enumerate(cells))
            out.append((" " * indent + line).rstrip())
    return out


def render_claim_text(
    entry: Mapping[str, Any], width: int | None = None, evidence: bool = True
) -> str:
    """One report entry as terminal text, in the order of a worked proof.

    Parameters
    ----------
    entry : mapping
        One element of ``report["claims"]``.
    width : int, optional
        Columns to wrap to (default: the terminal's width).
    evidence : bool
        All of the evidence (the default), or a digest: its first few top-level facts that
        fit on a line, with the number of rows left out.

    Returns
    -------
    str
        Heading with the verdict, statement, source lines, reading, derivation, verdict
        line, evidence table (or digest) and readings table; no line longer than ``width``
        except verbatim code and unbreakable words.

    See Also
    --------
    render_show : the same in Markdown or JSON.
    moetheory.engine.report.render_claim : the Markdown section of a report.

    Notes
    -----
    The order is that of a worked proof, as on the documentation pages: statement, reading,
    derivation, verdict, evidence. Every line fits in ``width`` columns, except a single
    word longer than the width.

    Examples
    --------
    >>> entry = {"id": "x.one", "statement": "oo > 1", "reading": "extended reals",
    ...          "verdict": "proved", "summary": "by definition", "evidence": {}}
    >>> "∞ > 1" in render_claim_text(entry, width=60)
    True
    """
    from moetheory.engine.report import sources_text  # lazily, as render_show does

    if not isinstance(entry, Mapping):
        entry = {"id": "?", "summary": _str(entry)}
    w = max(_MIN_WIDTH, width or terminal_width())
    get = entry.get
    title = f"{_str(get('id', '?'))} — {_str(get('verdict', '?')).upper()}"
    out = [title, "═" * min(w, len(title))]
    statement = _latex_or(get("statement_latex"), get("statement", ""))
    out += _wrap("Statement", _math_to_text(" ".join(statement.split())), w)
    source = sources_text(entry)
    if source:
        out += _wrap("Source", source, w)
    out += _wrap("Reading", _math_to_text(" ".join(_str(get("reading", "")).split())), w)
    readings = get("readings") or []
    if not isinstance(readings, list):
        readings = [readings]
    readings = [r if isinstance(r, Mapping) else {"summary": _str(r)} for r in readings]
    derivation = get("derivation") or (readings[0].get("derivation", "") if readings else "")
    if derivation:
        out.append("Derivation")
        for para in markdown_to_text(_str(derivation)):
            if para.startswith(_TABLE):  # a Markdown table: aligned columns
                table = [tuple(r.split(_TABLE_CELL)) for r in para[len(_TABLE):].splitlines()]
                ncol = max(len(r) for r in table)
                out += _table([r + ("",) * (ncol - len(r)) for r in table], w, _LABEL + 2)
            elif para.startswith("    "):  # display maths or verbatim code: indented
                for line in para.splitlines():
                    out += textwrap.wrap(
                        line.strip(), width=w, initial_indent=" " * (_LABEL + 2),
                        subsequent_indent=" " * (_LABEL + 6), break_long_words=False,
                        break_on_hyphens=False,
                    ) or [""]
            else:
                out += _wrap("", para, w)
    summary = _latex_or(get("summary_latex"), get("summary", ""))
    parts = summary.split(" | ")
    if not evidence and len(parts) == len(readings) > 1:  # one summary per reading, joined
        summary = f"{parts[0]} (first reading; all {len(readings)} below)"
    out += _wrap("Verdict", f"{_str(get('verdict', '?'))} — {_math_to_text(summary)}", w)
    meta = [f"kind {_str(get('kind', 'exact'))}"]
    if "claim_seed" in entry:
        meta.append(f"claim seed {_str(get('claim_seed'))}")
    alpha = get("alpha")
    if isinstance(alpha, int | float) and not isinstance(alpha, bool) and alpha:
        meta.append(f"α {alpha:.3g}")
    found = get("evidence") or {}
    rows = evidence_rows(found if isinstance(found, Mapping) else {"value": found})
    if evidence:
        out += _wrap("", " · ".join(meta), w)
        if rows:
            out.append("Evidence")
            out += _table(rows, w)
    else:
        digest = _digest(rows, w)
        more = len(rows) - len(digest)
        if more:
            meta.append(f"{more} more {'row' if more == 1 else 'rows'} with --evidence")
        out += _wrap("Evidence", " · ".join(meta), w)
        out += _table(digest, w)
    table = [
        (_str(r.get("name", "?")), _str(r.get("verdict", "?")),
         _math_to_text(_latex_or(r.get("summary_latex"), r.get("summary", ""))))
        for r in readings
    ]
    if table and evidence:
        out.append("Readings")
        out += _table(table, w)
    elif table:  # one line per reading: its verdict, its name, the start of its summary
        out.append("Readings")
        verdicts = max(len(v) for _, v, _ in table)
        out += [shorten(f"  {v:<{verdicts}}  {n} — {' '.join(t.split())}", w)
                for n, v, t in table]
    return "\n".join(out) + "\n"


#: Rows of evidence ``moetheory show`` prints without ``--evidence``.
_DIGEST_ROWS = 4


def _digest(rows: Sequence[tuple[str, str]], width: int) -> list[tuple[str, str]]:
    """The first :data:`_DIGEST_ROWS` top-level evidence rows whose key and value fit on
    one line of ``width`` columns beside the label's indent (nested rows are details)."""
    room = width - _LABEL - 2
    short = [(k, v) for k, v in rows if "›" not in k and len(k) <= 40 and v not in ("", "—")
             and len(k) + len(v) <= room]
    return short[:_DIGEST_ROWS]


def _str(value: Any) -> str:
    """Any JSON value as text (a report read from disk may hold anything)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False) if value is not None else ""


def _latex_or(latex: Any, plain: Any) -> str:
    if isinstance(latex, str) and latex and latex.count("$") % 2 == 0:
        return latex
    return _str(plain)


def render_show(
    entry: Mapping[str, Any], fmt: str = "text", width: int | None = None,
    evidence: bool = True,
) -> str:
    """What ``moetheory show`` prints for one entry in format ``fmt``.

    Parameters
    ----------
    entry : mapping
        One element of ``report["claims"]``.
    fmt : {"text", "markdown", "json"}
        Output format.
    width : int, optional
        Columns for ``text`` (default: the terminal's width).
    evidence : bool
        All of the evidence, or a digest of it (:func:`render_claim_text`,
        :func:`~moetheory.engine.report.render_claim`).

    Returns
    -------
    str
        The text, ending in a newline.

    Raises
    ------
    ValueError
        If ``fmt`` is not one of :data:`FORMATS`.

    See Also
    --------
    render_claim_text : the ``text`` format.

    Notes
    -----
    ``json`` prints the entry itself (in its own key order) as standard JSON
    (:func:`json_text`); ``markdown`` the entry's section of the Markdown report; ``text``
    the wrapped, Unicode rendering for a terminal. Neither prints a character that acts on
    a terminal (:func:`printable`).

    Examples
    --------
    >>> entry = {"id": "x", "statement": "s", "reading": "r", "verdict": "proved",
    ...          "summary": "ok", "evidence": {}}
    >>> render_show(entry, "json").startswith("{")
    True
    """
    if fmt == "text":
        return printable(render_claim_text(_printable_data(entry), width, evidence))
    if fmt == "markdown":
        from moetheory.engine.report import render_claim

        return printable(render_claim(_printable_data(entry), heading="#", full=evidence))
    if fmt == "json":
        return json_text(entry) + "\n"
    raise ValueError(f"format must be one of {FORMATS}, got {fmt!r}")


#: ``moetheory list`` puts each title on a line of its own below its row when fewer
#: columns than this are left for it beside the row.
_TITLE_ROOM = 30


def render_list(
    claims: Sequence[Any],
    verdicts: Mapping[str, str] | None = None,
    width: int | None = None,
) -> str:
    """The ``moetheory list`` table: a header, one row per claim, a count line.

    Parameters
    ----------
    claims : sequence of Claim
        Registered claims (with ``id``, ``seed_file``, ``kind``, ``implemented``,
        ``statement``).
    verdicts : mapping, optional
        The verdict of each claim ID, from a stored report; the third column then shows it.
    width : int, optional
        Columns (default: the terminal's width). No line is longer.

    Returns
    -------
    str
        The table as text.

    See Also
    --------
    render_show : one claim in full.

    Notes
    -----
    Without a report the third column, ``CHECK``, says how the claim is checked: ``exact``
    (a certificate or a counterexample), ``statistical`` (calibrated Monte Carlo) or ``not
    implemented``; with one it is ``VERDICT``, the verdict of the report's run, so the list
    doubles as a table of results. The title is the statement's first sentence, cut at a
    word with ``…`` to fit; when fewer than 30 columns are left beside the row (the long
    claim IDs on an 80-column terminal), it goes on an indented line of its own below.

    Examples
    --------
    >>> from types import SimpleNamespace as C
    >>> rows = [C(id="a.b", seed_file="002_x.txt", kind="exact", implemented=True,
    ...           statement="x**2 >= 0 for real x. More.")]
    >>> print(render_list(rows, {"a.b": "proved"}, width=60))
    ID   SEED  VERDICT  TITLE
    a.b  002   proved   x² ≥ 0 for real x.
    1 claims: proved 1
    >>> print(render_list(rows, width=40))
    ID   SEED  CHECK
        TITLE
    a.b  002   exact
        x² ≥ 0 for real x.
    1 claims: exact 1
    """
    w = max(_MIN_WIDTH, width or terminal_width())

    def status(c: Any) -> str:
        if verdicts is not None:
            return verdicts.get(c.id, "not in report")
        return str(c.kind) if c.implemented else "not implemented"

    rows = [tuple(printable(str(cell)) for cell in (
        c.id, c.seed_file[:3], status(c), claim_title(c.statement))) for c in claims]
    head = ("ID", "SEED", "VERDICT" if verdicts is not None else "CHECK", "TITLE")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(3)]
    lead = sum(widths) + 6
    beside = w - lead >= _TITLE_ROOM
    lines = []
    for r in [head, *rows]:
        cells = "  ".join(f"{r[i]:<{widths[i]}}" for i in range(3))
        if beside:
            lines.append(f"{cells}  {shorten(r[3], w - lead)}".rstrip())
        else:
            lines += [cells.rstrip(), "    " + shorten(r[3], w - 4)]
    counts: dict[str, int] = {}
    for r in rows:
        counts[r[2]] = counts.get(r[2], 0) + 1
    lines.append(
        f"{len(rows)} claims: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    )
    return printable("\n".join(lines))


#: What the verdicts mean, in the words of :func:`render_digest`.
VERDICTS_LINE = (
    "Verdicts judge the papers' statements, not the tool: refuted / unsupported = found "
    "false (exactly / statistically), inconclusive = not decided within the budget; only "
    "error is a check that failed."
)


def _to_decide(entry: Mapping[str, Any]) -> str:
    """What would decide an inconclusive entry: its evidence's ``to_decide``, else the
    sentence of a derivation that sizes it, else its summary."""
    evidence = entry.get("evidence")
    if isinstance(evidence, Mapping) and isinstance(evidence.get("to_decide"), str):
        return "to decide it: " + evidence["to_decide"]
    readings = entry.get("readings")
    texts = [entry.get("derivation")] + [
        r.get("derivation") for r in (readings if isinstance(readings, list) else [])
        if isinstance(r, Mapping)]
    for text in texts:
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z*])", text if isinstance(text, str)
                                 else ""):
            if re.search(r"would decide|ask for about|to decide it", sentence):
                sentence = re.sub(r"^\*\*Reading `[^`]*`\.\*\*\s*", "", sentence)
                sentence = re.sub(r"^Inconclusive for want of replicates, not for the "
                                  r"mathematics: ", "", sentence)
                return _inline(" ".join(sentence.split()))
    return _math_to_text(" ".join(_latex_or(entry.get("summary_latex"),
                                            entry.get("summary", "")).split()))


def render_digest(report: Mapping[str, Any], json_path: str | None = None,
                  width: int | None = None) -> str:
    """What ``moetheory verify`` prints after its counts: the run's findings, by paper.

    Parameters
    ----------
    report : mapping
        The report of the run (``claims`` with ``id``, ``verdict``, ``statement``,
        ``seed_file``, ``summary``, ``evidence``, ``readings``, ``derivation``).
    json_path : str, optional
        The JSON report written, named in the line on how to see one claim in full.
    width : int, optional
        Columns (default: the terminal's width). No line is longer, but an unbreakable
        word.

    Returns
    -------
    str
        What the verdicts mean (one line); the refuted, then the unsupported claims of each
        paper with their titles; the inconclusive ones with what would decide each; the errors
        with their summaries; how to see one claim in full. Empty lists are left out.

    See Also
    --------
    render_list : the same rows for every claim.

    Notes
    -----
    A claim is placed under the paper of its seed document
    (:func:`~moetheory.engine.papers.paper_of`); a claim of your own under "your claims".
    What would decide an inconclusive claim is its evidence's ``to_decide`` when the check
    gives one, else the sentence of its derivation that sizes the replicates needed, else
    its summary (the reason, e.g. a time limit).

    Examples
    --------
    >>> r = {"claims": [{"id": "j91.x", "verdict": "refuted", "statement": "The loss is convex.",
    ...                  "seed_file": "001_4a7126a84a0d22c9.txt"},
    ...                 {"id": "mine.y", "verdict": "inconclusive", "statement": "s",
    ...                  "evidence": {"to_decide": "400 replicates"}}]}
    >>> print(render_digest(r, width=60))  # doctest: +NORMALIZE_WHITESPACE
    Verdicts judge the papers' statements, not the tool: refuted
    / unsupported = found false (exactly / statistically),
    inconclusive = not decided within the budget; only error is
    a check that failed.
    Refuted in Jacobs et al. (1991): 1
      j91.x  The loss is convex.
    Inconclusive, with what would decide each: 1
      mine.y
          to decide it: 400 replicates
    One claim in full: moetheory show ID
    """
    w = max(_MIN_WIDTH, width or terminal_width())
    claims = report.get("claims")
    entries = [e for e in (claims if isinstance(claims, list) else []) if isinstance(e, Mapping)]
    out = textwrap.wrap(VERDICTS_LINE, w)
    false: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for e in entries:
        if e.get("verdict") in ("refuted", "unsupported"):
            source = paper_of(_str(e.get("seed_file", "")))
            key = (_str(e["verdict"]).capitalize(), source.short if source else "your claims")
            false.setdefault(key, []).append(e)
    for (verdict, paper), found in sorted(false.items(), key=lambda kv: kv[0][0]):
        out.append(f"{verdict} in {paper}: {len(found)}")
        rows = [(_str(e.get("id", "?")), claim_title(_str(e.get("statement", ""))))
                for e in found]
        ids = max(len(cid) for cid, _ in rows)
        for cid, title in rows:
            if w - ids - 4 >= _TITLE_ROOM:
                out.append(f"  {cid:<{ids}}  {shorten(title, w - ids - 4)}")
            else:
                out += [f"  {cid}", "      " + shorten(title, w - 6)]
    for verdict, head in (("inconclusive", "Inconclusive, with what would decide each"),
                          ("error", "Errors (the check failed, not the claim)")):
        open_ = [e for e in entries if e.get("verdict") == verdict]
        if open_:
            out.append(f"{head}: {len(open_)}")
        for e in open_:
            why = (_to_decide(e) if verdict == "inconclusive" else
                   _math_to_text(" ".join(_str(e.get("summary", "")).split())))
            out.append(f"  {_str(e.get('id', '?'))}")
            out += textwrap.wrap(shorten(why, 3 * (w - 8)), w, initial_indent=" " * 6,
                                 subsequent_indent=" " * 6, break_long_words=False)
    out.append("One claim in full: moetheory show ID"
               + (f" --report {json_path}" if json_path else ""))
    return printable("\n".join(line.rstrip() for line in out))
