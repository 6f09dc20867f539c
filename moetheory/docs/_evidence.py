"""A claim's evidence: the compact table of its page, and its raw-evidence JSON file."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from typing import Any

from moetheory._doccer import fill_doc
from moetheory.docs._equations import tex_ok
from moetheory.docs._markup import (
    _code,
    _download,
    _fence,
    _list_table,
    _number,
    _strip_paths,
    _text,
)
from moetheory.docs._names import evidence_path
from moetheory.engine._docparts import REPORT_PARTS

__all__ = ["evidence_files", "render_evidence"]


def _is_symbolic(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"sympy", "latex"}


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _scalar_cell(value: Any) -> str | None:
    if value is None:
        return "—"
    if isinstance(value, bool | int | float):
        text = html.escape(_number(value))
        if not isinstance(value, bool):  # a true minus; a power of ten as a superscript
            text = re.sub(r"e([-+]?)0*(\d+)$", lambda m: " × 10<sup>" + (
                "−" if m.group(1) == "-" else "") + m.group(2) + "</sup>", text)
            text = text.replace("-", "−")
        return f'<span class="nowrap">{text}</span>'
    if value in ("nan", "inf", "-inf"):
        return {"nan": "NaN", "inf": "$\\infty$", "-inf": "$-\\infty$"}[value]
    if "\n" in value or len(value) > 240:
        return None
    if _is_latex(value):
        return "$" + " ".join(value.split()).replace("|", "\\vert ") + "$"
    return _text(value, cell=True)


def _is_latex(value: str) -> bool:
    """A string that is a LaTeX formula (SymPy's printing of one), not prose: it holds a
    command, MathJax can read it, and no two words stand side by side outside ``\\text``.

    Examples
    --------
    >>> _is_latex(r"n_{b} \\tau_{2} + \\tau_{1}"), _is_latex("sum_{i<t} x (round l counted as D)")
    (True, False)
    """
    if "$" in value or not re.search(r"\\[A-Za-z]{2,}", value) or not tex_ok(value):
        return False
    bare = re.sub(r"\\(?:text|mathrm|operatorname)\{[^{}]*\}|\\[A-Za-z]+", " ", value)
    return not re.search(r"[A-Za-z]{3,}\s+[A-Za-z]{2,}", bare)


def _key(key: str) -> str:
    """An evidence key: an identifier as code, a description as text (formulas typeset)."""
    parts = key.split(" › ")
    return " › ".join(
        _code(p) if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.\-]*", p) and re.search(r"[_\-.]", p)
        else _text(p, True)
        for p in parts
    )


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


def _raw_json(evidence: Mapping[str, Any], summary: str) -> list[str]:
    text = _strip_paths(json.dumps(evidence, indent=1, ensure_ascii=False, sort_keys=False))
    fence = _fence(text)
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
            rows.append((_key(key), cell))
        elif _is_symbolic(value):
            long_formulas.append((key, value["latex"]))
        else:
            folded += 1
    lines: list[str] = []
    if rows:
        lines += _list_table(("evidence", "value"), rows, "30 70", "evidence")
        lines.append("")
    for key, latex in long_formulas:
        lines += [f"{_key(key)}:", "", "$$", *latex.splitlines(), "$$", ""]
    if json_link is not None:
        if folded:
            lines += [f"{folded} further item(s) are in the raw evidence.", ""]
        lines.append(_download(label, json_link))
        return "\n".join(lines)
    if folded:
        lines += [f"{folded} further item(s) are in the raw evidence below.", ""]
    lines += _raw_json(evidence, label)
    return "\n".join(lines)


@fill_doc(REPORT_PARTS)
def evidence_files(report: Mapping[str, Any]) -> dict[str, str]:
    """The raw evidence of every claim of ``report``, one JSON file per claim.

    Parameters
    ----------
    %(report)s

    Returns
    -------
    dict of str to str
        JSON text, by :func:`evidence_path`, holding the claim's ID, verdict, evidence and
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
