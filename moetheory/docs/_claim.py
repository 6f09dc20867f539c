"""One claim's section of a page, in the order of a worked proof."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from moetheory.docs._book import claim_target, current_book
from moetheory.docs._comparisons import comparisons_of, render_comparisons
from moetheory.docs._evidence import render_evidence
from moetheory.docs._figures import _figures
from moetheory.docs._markup import (
    _FENCE,
    _code,
    _download,
    _embed,
    _latex_text,
    _list_table,
    _nowrap,
    _number,
    _summary,
    _text,
    _verdict,
)
from moetheory.docs._names import claim_anchor, evidence_path, seed_page_name
from moetheory.docs._seeds import _source_lines

__all__ = ["render_claim"]


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


_ROW_BREAK = re.compile(r"\\\\(?:\[[^\]]*\])?")


def _rows_kept(block: list[str]) -> list[str]:
    r"""A display's lines that can carry a ``\tag``: Sphinx wraps a display holding ``\\``
    in ``split``, where MathJax allows no ``\tag``, so its rows are written ``\cr`` inside
    ``aligned`` instead (a ``\\[2pt]`` loses its extra space)."""
    if not any("\\\\" in line for line in block):
        return block
    latex = _ROW_BREAK.sub(r"\\cr", "\n".join(block))
    return ["\\begin{aligned}", *latex.splitlines(), "\\end{aligned}"]


def _number_displays(text: str, start: int) -> tuple[str, int]:
    r"""Embedded MyST ``text`` with each display block numbered ``\tag{D<k>}``.

    The blocks are those :func:`~moetheory.docs._markup._embed` writes (``$$`` on lines of
    their own), outside code fences; one that already has a ``\tag`` keeps it. ``start`` is
    the number of the first block numbered here; the next one is returned with the text, so
    the derivations of one claim are numbered through (the "D" keeps them apart from the
    paper's equation numbers on the same page).
    """
    out: list[str] = []
    block: list[str] | None = None
    fence = False
    number = start
    for line in text.splitlines():
        if block is None and _FENCE.match(line):
            fence = not fence
        elif not fence and line.strip() == "$$":
            if block is None:
                block = []
            else:
                if block and not any("\\tag" in b for b in block):
                    block = _rows_kept(block)
                    block[-1] = block[-1].rstrip() + f" \\tag{{D{number}}}"
                    number += 1
                out += block
                block = None
            out.append(line)
            continue
        (out if block is None else block).append(line)
    return "\n".join(out + (block or [])), number


def _statement(entry: Mapping[str, Any]) -> str:
    return _latex_text(entry.get("statement_latex") or "", entry["statement"])


def _comparisons(evidence: Any) -> list[Mapping[str, Any]]:
    return list(comparisons_of(evidence or {}))


def _readings_block(
    readings: Sequence[Mapping[str, Any]],
    json_link: str | None = None,
    shown: str = "",
    entry: Mapping[str, Any] | None = None,
    shown_comparisons: Sequence[Mapping[str, Any]] = (),
    rules_shown: set[str] | None = None,
    number: int = 1,
) -> list[str]:
    entry = entry or {}
    lines = ["```{rubric} Other readings", "```", ""]
    lines += _list_table(
        ("reading", "verdict", "summary"),
        [
            (
                _code(r["name"]),
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
            f'<details class="reading"><summary>Reading <code>{html.escape(r["name"])}</code>: '
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
            text, number = _number_displays(_embed(derivation), number)
            lines += [text, ""]
        comparisons = _comparisons(r.get("evidence"))
        if comparisons and comparisons == list(shown_comparisons):
            lines += ["Its comparisons are those in the table above.", ""]
        elif comparisons:
            lines += [*render_comparisons(comparisons, entry.get("claim_seed"), None,
                                          f"Comparisons of reading {_code(r['name'])}",
                                          rules_shown), ""]
        if json_link is None:
            lines += [
                render_evidence(r.get("evidence") or {}, f"Raw evidence of {r['name']} (JSON)"),
                "",
            ]
        # otherwise the claim's evidence file, linked once after the table, holds it
        lines += ["</details>", ""]
    return lines


_HISTORY_ORDER = ("supported", "unsupported", "inconclusive", "proved", "refuted", "error")


def _history(entry: Mapping[str, Any]) -> list[str]:
    """The claim's verdicts over the calibration seeds: counts and a strip, seed by seed."""
    book = current_book()
    if entry.get("kind") != "statistical":
        if entry.get("kind") == "exact" and entry.get("implemented", True):
            draws = (entry.get("evidence") or {}).get("draws")
            if draws:  # exact on each instance, the instances drawn from the seed
                return ["**Verdict over seeds.** An exact check of instances the seed draws "
                        f"({draws}): each is decided exactly, with no interval, and another "
                        "seed draws other instances.", ""]
            return ["**Verdict over seeds.** An exact check: the seed draws nothing, so the "
                    "verdict is the same on every seed.", ""]
        return []
    row = book.history.get(entry["id"]) if book is not None else None
    if not row or not row.get("shipped_verdicts"):
        return ["**Verdict over seeds.** No calibration row is stored for this claim "
                "(see the calibration page).", ""]
    verdicts = [str(v) for v in row["shipped_verdicts"]]
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v] = counts.get(v, 0) + 1
    order = sorted(counts, key=lambda v: (_HISTORY_ORDER.index(v) if v in _HISTORY_ORDER
                                          else len(_HISTORY_ORDER), v))
    runs: list[tuple[int, int, str]] = []
    for seed, v in enumerate(verdicts):
        if runs and runs[-1][2] == v:
            runs[-1] = (runs[-1][0], seed, v)
        else:
            runs.append((seed, seed, v))
    strip = "".join(
        f'<span class="vh vh-{html.escape(v)}" style="flex: {b - a + 1}" title="seed'
        + (f"s {a}–{b}" if b > a else f" {a}") + f': {html.escape(v)}"></span>'
        for a, b, v in runs
    )
    n = len(verdicts)
    text = " · ".join(f"{_verdict(v)} {_nowrap(str(counts[v]))}" for v in order)
    date = f", calibrated {html.escape(str(row['date']))}" if row.get("date") else ""
    return [
        f"**Verdict over seeds.** The check as shipped, on the master seeds "
        f"$0, \\dots, {n - 1}$ ({html.escape(str(row.get('profile', 'quick')))} profile"
        f"{date}): {text} of {n}. Seed by seed:",
        "",
        f'<div class="verdict-history" role="img" aria-label="verdicts over {n} seeds">'
        f"{strip}</div>",
        "",
    ]


def _relations(entry: Mapping[str, Any]) -> list[str]:
    """Links to the claims this one uses and to those that use it."""
    book = current_book()
    if book is None:
        return []
    out = []
    for label, ids in (("Uses", book.uses.get(entry["id"], [])),
                       ("Used by", book.used_by.get(entry["id"], []))):
        links = [f"[{_code(cid)}]({claim_target(cid)})" for cid in ids if claim_target(cid)]
        if links:
            out.append(f"**{label}.** " + ", ".join(links) + ".")
    return [" ".join(out), ""] if out else []


def render_claim(
    entry: Mapping[str, Any],
    figures: Mapping[str, Sequence[tuple[str, dict]]] | None = None,
    seeds_dir: Path | None = None,
    link_evidence: bool = False,
) -> str:
    r"""One claim's section of a paper page, in the order of a worked proof.

    Parameters
    ----------
    entry : mapping
        One element of ``report["claims"]``.
    figures : mapping, optional
        ``(image path relative to the page, metadata)`` by ``moetheory reproduce`` target.
    seeds_dir : path, optional
        Folder holding the seed documents, for the quotes of the statement's lines.
    link_evidence : bool
        Link the raw evidence as the JSON file :func:`evidence_path` (written by
        :func:`generate_pages`) instead of folding it into the page.

    Returns
    -------
    str
        MyST: heading (level 3), statement with its seed lines and the quote of the sentence
        or equation that makes it, the reading checked (the primary reading when the check
        has several), the derivation in a foldable proof block, the verdict, the table of
        statistical comparisons (estimate, interval, n, claimed value, tolerance, :math:`\alpha`,
        rule,
        seed), the compact evidence table with the raw JSON folded or linked, the verdict
        over the calibration seeds, "uses" / "used by" links, other readings folded, figures
        with captions.

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
    otherwise the formulas of the plain text are found and typeset
    (:mod:`moetheory.engine._prose`) and the rest is escaped, so neither SymPy syntax nor
    HTML of a report reaches the page. A derivation's headings become bold lines and inline
    ``$$...$$`` becomes ``$...$`` (MyST would otherwise set the prose between two display
    fences as maths). Claim IDs and the paper's equations become links when the claim is
    written on a page of the book.

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
    >>> '<details class="proof" open>' in text
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
        meta.append(f"$\\alpha = {_number(entry['alpha'])}$")
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
    if readings:
        primary = readings[0]
        reading = (f"**Reading checked** (the primary reading, {_code(primary['name'])}). "
                   + _latex_text(primary.get("reading_latex") or "", primary["reading"]))
    else:
        reading = "**Reading checked.** " + _latex_text(entry.get("reading_latex") or "",
                                                        entry["reading"])
    shown, number = _number_displays(_embed(derivation), 1) if derivation else (
        _fallback_derivation(entry), 1)
    claim_comparisons = _comparisons(entry.get("evidence"))
    title = "Comparisons"
    if not claim_comparisons and readings:
        claim_comparisons = _comparisons(readings[0].get("evidence"))
        title = f"Comparisons of the primary reading {_code(readings[0]['name'])}"
    lines += [
        reading,
        "",
        '<details class="proof" open><summary>Derivation</summary>',
        "",
        shown,
        "",
        "</details>",
        "",
        f"**Verdict: {_text(entry['verdict'])}.** " + _summary(entry),
        "",
        " · ".join(meta),
        "",
    ]
    rules_shown: set[str] = set()  # each rule in words once per claim
    if claim_comparisons:
        lines += [*render_comparisons(claim_comparisons, entry.get("claim_seed"), None, title,
                                      rules_shown), ""]
    if entry.get("evidence") or not readings:  # else the readings hold the evidence
        lines += [render_evidence(entry.get("evidence") or {}, json_link=link), ""]
    lines += _history(entry)
    lines += _relations(entry)
    if readings:
        lines += _readings_block(readings, link, derivation, entry, claim_comparisons,
                                 rules_shown, number)
    lines += _figures(entry, figures or {})
    return "\n".join(lines).rstrip() + "\n"


