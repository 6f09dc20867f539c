"""Generate the documentation's claim pages from a verification report.

One MyST Markdown page per seed document (``docs/claims/seed-000.md`` ...) lists each claim
whose primary seed it is, with its statement, the reading checked, the verdict, the summary,
the evidence, the readings table and the worked derivation, plus the figures written by
``moetheory reproduce`` when they are present. An index page summarises every verdict.

The pages are a pure function of the report (timings, environment and absolute paths
excluded), so a test can regenerate them and compare: the docs never disagree with the code.

Command line::

    python -m moetheory.docs_gen --out docs/claims            # verify (quick, seed 0), then write
    python -m moetheory.docs_gen --report r.json --out docs/claims
    python -m moetheory.docs_gen --out docs/claims --check    # exit 1 if the pages are stale
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from moetheory.engine.catalogue import SEED_FILES

__all__ = [
    "FIGURE_CLAIMS",
    "GENERATE_JOBS",
    "GENERATE_PROFILE",
    "GENERATE_SEED",
    "claim_anchor",
    "generate_pages",
    "main",
    "render_claim",
    "render_evidence",
    "render_index",
    "render_seed_page",
    "seed_page_name",
    "write_pages",
]

#: The verification run the committed pages come from.
GENERATE_PROFILE = "quick"
GENERATE_SEED = 0
GENERATE_JOBS = 2

#: ``moetheory reproduce`` target -> the claim whose section shows its figures.
FIGURE_CLAIMS: dict[str, str] = {
    "rates": "pcr.rates.regression",
    "cl-fig2": "cl.fig2",
    "cl-fig4-5": "cl.fig4-5",
}

_FIGURE_SUFFIXES = (".png", ".svg")
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_$\[\]<>|{}#~])")
_INLINE_MATH = re.compile(r"(\$[^$\s](?:[^$]*[^$\s])?\$)")
_REPO_ROOT = str(Path(__file__).resolve().parents[1])


def claim_anchor(claim_id: str) -> str:
    """The HTML anchor of a claim's heading (the ``docutils`` slug of its ID).

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
    """File name of the page of one seed document.

    Examples
    --------
    >>> seed_page_name("002_ed39350ac6d6e1c0.txt")
    'seed-002.md'
    """
    stem = seed_file.split("_", 1)[0]
    if not stem:
        raise ValueError(f"seed_file must look like 'NNN_hash.txt', got {seed_file!r}")
    return f"seed-{stem}.md"


def _text(value: Any, cell: bool = False) -> str:
    """Text made safe for MyST: one line, Markdown specials escaped, ``$...$`` maths kept.

    In a table ``cell`` the pipes inside maths are escaped too.
    """
    flat = _strip_paths(" ".join(str(value).split()))
    out = []
    for i, part in enumerate(_INLINE_MATH.split(flat)):
        if i % 2 == 0:
            out.append(_MARKDOWN_SPECIALS.sub(r"\\\1", part))
        else:
            out.append(part.replace("|", "\\|") if cell else part)
    return "".join(out)


def _code(value: str) -> str:
    """An inline code span that survives backticks inside ``value``."""
    longest = max((len(m) for m in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def _number(x: float | int) -> str:
    return str(x) if isinstance(x, int) else f"{x:.6g}"


def _strip_paths(text: str) -> str:
    return text.replace(_REPO_ROOT, "<repo>")


def _is_symbolic(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"sympy", "latex"}


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _scalar(value: Any, cell: bool = False) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool | int | float):
        return _number(value)
    if value in ("nan", "inf", "-inf"):
        return value
    return _text(value, cell)


def _math_block(latex: str, indent: str) -> list[str]:
    return [f"{indent}$$", *(f"{indent}{line}" for line in latex.splitlines()), f"{indent}$$"]


def _fenced(text: str, lang: str, indent: str) -> list[str]:
    fence = "`" * max(3, max((len(m) for m in re.findall(r"`{3,}", text)), default=0) + 1)
    body = _strip_paths(text.rstrip()).splitlines()
    return [f"{indent}{fence}{lang}", *(f"{indent}{line}" for line in body), f"{indent}{fence}"]


def _flat_records(value: Any) -> bool:
    return (
        isinstance(value, list)
        and 0 < len(value) <= 40
        and all(isinstance(v, Mapping) and v for v in value)
        and all(list(v) == list(value[0]) for v in value)
        and all(_is_cellable(x) for v in value for x in v.values())
    )


def _is_cellable(value: Any) -> bool:
    if _is_scalar(value):
        return not (isinstance(value, str) and "\n" in value)
    if _is_symbolic(value):
        return len(value["latex"]) <= 80
    return _inline_list(value) is not None and len(_inline_list(value) or "") <= 80


def _inline_list(value: Any, cell: bool = False) -> str | None:
    """A list of scalars (or of short lists of scalars) written on one line, else None."""
    if not isinstance(value, list) or len(value) > 64:
        return None
    items: list[str] = []
    for v in value:
        if _is_scalar(v) and not (isinstance(v, str) and "\n" in v):
            items.append(_scalar(v, cell))
        elif _is_symbolic(v) and len(v["latex"]) <= 80:
            items.append(_cell(v) if cell else f"${v['latex']}$")
        elif isinstance(v, list) and len(v) <= 8 and all(_is_scalar(x) for x in v):
            items.append("[" + ", ".join(_scalar(x, cell) for x in v) + "]")
        else:
            return None
    text = "[" + ", ".join(items) + "]"
    return text if len(text) <= 1500 else None


def _cell(value: Any) -> str:
    if _is_symbolic(value):
        return "$" + value["latex"].replace("|", "\\|") + "$"
    if isinstance(value, list):
        return _inline_list(value, cell=True) or ""
    return _scalar(value, cell=True)


def _table(records: Sequence[Mapping[str, Any]], indent: str) -> list[str]:
    keys = list(records[0])
    lines = [
        indent + "| " + " | ".join(_text(k, True) for k in keys) + " |",
        indent + "|" + "---|" * len(keys),
    ]
    lines += [indent + "| " + " | ".join(_cell(r[k]) for k in keys) + " |" for r in records]
    return lines


def _evidence_lines(evidence: Mapping[str, Any], indent: str) -> list[str]:
    lines: list[str] = []
    for key, value in evidence.items():
        label = f"{indent}- **{_text(key)}**:"
        inner = indent + "  "
        if _is_symbolic(value):
            latex = value["latex"]
            if len(latex) <= 60 and "\n" not in latex:
                lines.append(f"{label} ${latex}$ — SymPy {_code(value['sympy'])}")
            else:
                lines += [label, "", *_math_block(latex, inner), ""]
                lines += [f"{inner}SymPy: {_code(value['sympy'])}", ""]
        elif isinstance(value, str) and "\n" in value:
            lines += [label, "", *_fenced(value, "text", inner), ""]
        elif _is_scalar(value):
            lines.append(f"{label} {_scalar(value)}")
        elif _inline_list(value) is not None:
            lines.append(f"{label} {_inline_list(value)}")
        elif isinstance(value, Mapping) and value:
            lines += [label, *_evidence_lines(value, inner)]
        elif _flat_records(value):
            lines += [label, "", *_table(value, inner), ""]
        else:
            text = json.dumps(value, indent=1, ensure_ascii=False)
            lines += [label, "", *_fenced(text, "json", inner), ""]
    return lines


def render_evidence(evidence: Mapping[str, Any]) -> str:
    """Evidence as readable MyST: formulas typeset, records as tables, the rest as JSON.

    Parameters
    ----------
    evidence : mapping
        JSON evidence as stored in a report (see :func:`moetheory.engine.verdicts.jsonable`).

    Returns
    -------
    str
        A Markdown bullet list (``"_no evidence_"`` when empty). Floats are shown to six
        significant digits.

    Examples
    --------
    >>> print(render_evidence({"residual": {"sympy": "0", "latex": "0"}, "n": 3, "p": 0.5}))
    - **residual**: $0$ — SymPy `0`
    - **n**: 3
    - **p**: 0.5
    """
    if not isinstance(evidence, Mapping):
        raise ValueError(f"evidence must be a mapping, got {type(evidence).__name__}")
    if not evidence:
        return "_no evidence_"
    lines = _evidence_lines(evidence, "")
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


_HEADING = re.compile(r"^(\s{0,3})#{1,6}\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})")


def _embed(markdown: str) -> str:
    """Embed a check's MyST text: its headings become bold lines (the page owns headings)."""
    out: list[str] = []
    fence: str | None = None
    for line in _strip_paths(markdown.rstrip()).splitlines():
        m = _FENCE.match(line)
        if m:
            mark = m.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = None
        elif fence is None and (h := _HEADING.match(line)):
            line = f"{h.group(1)}**{h.group(2)}**"
        out.append(line)
    return "\n".join(out)


def _figures(entry_id: str, figures: Mapping[str, Sequence[str]]) -> list[str]:
    lines: list[str] = []
    for target, claim_id in FIGURE_CLAIMS.items():
        if claim_id != entry_id or not figures.get(target):
            continue
        lines += [
            "```{rubric} Figures",
            "```",
            "",
            f"Written by {_code(f'moetheory reproduce {target}')} "
            f"(regenerate with {_code('python docs/make_figures.py')}).",
            "",
        ]
        for path in figures[target]:
            name = Path(path).name
            lines += [f"![{_text(name)}]({path})", ""]
    return lines


def render_claim(
    entry: Mapping[str, Any], figures: Mapping[str, Sequence[str]] | None = None
) -> str:
    """One claim's section of a seed page (MyST, heading level 3).

    Parameters
    ----------
    entry : mapping
        One element of ``report["claims"]``.
    figures : mapping, optional
        ``moetheory reproduce`` target -> image paths relative to the page.

    Examples
    --------
    >>> entry = {"id": "x.one", "statement": "1 + 1 = 2", "reading": "integers",
    ...          "verdict": "proved", "summary": "arithmetic", "evidence": {"sum": 2},
    ...          "kind": "exact", "claim_seed": 7, "implemented": True}
    >>> print(render_claim(entry).splitlines()[0])
    ### `x.one`
    """
    for key in ("id", "statement", "reading", "verdict", "summary"):
        if key not in entry:
            raise ValueError(f"entry must have the report key {key!r}; got keys {sorted(entry)}")
    claim_anchor(entry["id"])  # rejects an ID that cannot be an anchor
    meta = [f"*kind* {_text(entry.get('kind', 'exact'))}"]
    if "claim_seed" in entry:
        meta.append(f"*claim seed* {entry['claim_seed']}")
    if entry.get("alpha"):
        meta.append(f"*α* {_number(entry['alpha'])}")
    seeds = entry.get("seed_files") or [entry.get("seed_file", "")]
    meta.append("*seeds* " + ", ".join(_code(s) for s in seeds if s))
    if entry.get("implemented") is False:
        meta.append("**not implemented yet**")
    lines = [
        f"### `{entry['id']}`",
        "",
        f"**Verdict: {_text(entry['verdict'])}** — {_text(entry['summary'])}",
        "",
        " · ".join(meta),
        "",
        f"**Statement.** {_text(entry['statement'])}",
        "",
        f"**Reading checked.** {_text(entry['reading'])}",
        "",
        "```{rubric} Evidence",
        "```",
        "",
        render_evidence(entry.get("evidence") or {}),
        "",
    ]
    readings = entry.get("readings") or []
    if readings:
        lines += [
            "```{rubric} Readings",
            "```",
            "",
        ]
        lines += _list_table(
            ("reading", "verdict", "summary"),
            [(_code(r["name"]), _text(r["verdict"]), _text(r["summary"])) for r in readings],
        )
        lines.append("")
        for r in readings:
            lines += [
                f"**Reading {_code(r['name'])} — {_text(r['verdict'])}.** {_text(r['reading'])}",
                "",
                render_evidence(r.get("evidence") or {}),
                "",
            ]
            if r.get("derivation"):
                lines += [_embed(r["derivation"]), ""]
    if entry.get("derivation"):
        lines += ["```{rubric} Derivation", "```", "", _embed(entry["derivation"]), ""]
    lines += _figures(entry["id"], figures or {})
    return "\n".join(lines).rstrip() + "\n"


def _run_line(report: Mapping[str, Any]) -> str:
    status = "complete" if report.get("complete", True) else "**incomplete**"
    return (
        f"Generated by {_code('python -m moetheory.docs_gen')} from the verification run "
        f"{_code(report.get('schema', '?'))} · profile {_code(str(report['profile']))} · "
        f"master seed {report['seed']} · family-wise α {_number(report['family_alpha'])} · "
        f"{status}. Do not edit by hand: regenerate with {_code('python docs/generate.py')}."
    )


def _list_table(
    header: Sequence[str], rows: Sequence[Sequence[str]], widths: str = "25 12 63"
) -> list[str]:
    """A MyST ``list-table`` (fixed column widths; cells may hold any inline MyST)."""
    lines = ["```{list-table}", ":header-rows: 1", f":widths: {widths}", ""]
    for row in [header, *rows]:
        lines += [f"* - {row[0]}", *(f"  - {cell}" for cell in row[1:])]
    return [*lines, "```"]


def _verdict_table(entries: Sequence[Mapping[str, Any]], page: str = "") -> list[str]:
    return _list_table(
        ("claim", "verdict", "summary"),
        [
            (
                f"[{_code(e['id'])}]({page}#{claim_anchor(e['id'])})",
                _text(e["verdict"]),
                _text(e["summary"]),
            )
            for e in entries
        ],
    )


def render_seed_page(
    report: Mapping[str, Any],
    seed_file: str,
    figures: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """The page of one seed document: a verdict table, then each claim by section.

    Claims whose primary seed is ``seed_file`` are shown in full; claims that only cite it
    are listed with a link to the page that shows them.

    Examples
    --------
    >>> report = {"seed": 0, "profile": "quick", "family_alpha": 0.05, "claims": [
    ...     {"id": "x.one", "seed_file": "009_ab.txt", "seed_files": ["009_ab.txt"],
    ...      "section": "Arithmetic", "statement": "1 + 1 = 2", "reading": "integers",
    ...      "verdict": "proved", "summary": "arithmetic", "evidence": {}}]}
    >>> page = render_seed_page(report, "009_ab.txt")
    >>> page.splitlines()[0]
    '(seed-009)='
    >>> "## Arithmetic" in page
    True
    """
    if "claims" not in report:
        raise ValueError("report must be a moetheory report with a 'claims' list")
    name = seed_page_name(seed_file)
    primary = [e for e in report["claims"] if e.get("seed_file") == seed_file]
    cited = [
        e
        for e in report["claims"]
        if e.get("seed_file") != seed_file and seed_file in (e.get("seed_files") or [])
    ]
    title = SEED_FILES.get(seed_file, seed_file)
    lines = [
        f"({name[:-3]})=",
        f"# {_text(title)}",
        "",
        f"Seed document {_code(seed_file)}. {_run_line(report)}",
        "",
    ]
    if primary:
        lines += [*_verdict_table(primary), ""]
    else:
        lines += ["No claim has this document as its primary seed.", ""]
    if cited:
        lines += ["Claims shown on other pages that this document also makes:", ""]
        lines += [
            f"- [{_code(e['id'])}]({seed_page_name(e['seed_file'])}#{claim_anchor(e['id'])})"
            f" — {_text(e['verdict'])}"
            for e in cited
        ]
        lines.append("")
    section = None
    for e in primary:
        if e.get("section") != section:
            section = e.get("section")
            lines += [f"## {_text(section or 'Other claims')}", ""]
        lines.append(render_claim(e, figures))
    return "\n".join(lines).rstrip() + "\n"


def render_index(report: Mapping[str, Any], seed_files: Sequence[str]) -> str:
    """The claims index page: verdict counts, one table per seed page, and the toctree.

    Examples
    --------
    >>> report = {"seed": 0, "profile": "quick", "family_alpha": 0.05,
    ...           "counts": {"proved": 1}, "claims": []}
    >>> render_index(report, ["009_ab.txt"]).splitlines()[0]
    '# Claims and verdicts'
    """
    counts = report.get("counts") or {}
    lines = [
        "# Claims and verdicts",
        "",
        _run_line(report),
        "",
        "| verdict | claims |",
        "|---|---|",
        *(f"| {_text(v)} | {n} |" for v, n in counts.items()),
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        *(seed_page_name(s)[:-3] for s in seed_files),
        "```",
        "",
    ]
    for seed_file in seed_files:
        page = seed_page_name(seed_file)
        entries = [e for e in report["claims"] if e.get("seed_file") == seed_file]
        title = SEED_FILES.get(seed_file, seed_file)
        lines += [f"**[{_text(title)}]({page})**", ""]
        lines += (_verdict_table(entries, page) if entries else ["No claims."]) + [""]
    return "\n".join(lines).rstrip() + "\n"


def _collect_figures(figures_dir: Path | None, out_dir: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    if figures_dir is None or not figures_dir.is_dir():
        return found
    for target in FIGURE_CLAIMS:
        folder = figures_dir / target
        if folder.is_dir():
            images = [p for p in folder.iterdir() if p.suffix in _FIGURE_SUFFIXES]
            images.sort(key=lambda p: (p.stem, _FIGURE_SUFFIXES.index(p.suffix)))
            by_stem: dict[str, Path] = {}
            for image in images:  # one file per figure: PNG before SVG
                by_stem.setdefault(image.stem, image)
            files = list(by_stem.values())
            rel = [Path("..", *_relative(p, out_dir).parts).as_posix() for p in files]
            if rel:
                found[target] = rel
    return found


def _relative(path: Path, out_dir: Path) -> Path:
    docs_root = out_dir.resolve().parent
    return path.resolve().relative_to(docs_root)


def generate_pages(
    report: Mapping[str, Any],
    out_dir: str | Path = "docs/claims",
    figures_dir: str | Path | None = None,
) -> dict[str, str]:
    """All claim pages for ``report``: file name (inside ``out_dir``) -> Markdown text.

    Parameters
    ----------
    report : mapping
        A ``moetheory-report/1`` report (e.g. from :func:`moetheory.verify`).
    out_dir : path
        Folder the pages go to; figure links are made relative to it.
    figures_dir : path, optional
        Folder holding ``<target>/*.png`` written by ``moetheory reproduce`` (must lie in
        the parent of ``out_dir``, the docs root). Missing figures are simply not shown.

    Examples
    --------
    >>> report = {"seed": 0, "profile": "quick", "family_alpha": 0.05, "claims": []}
    >>> sorted(generate_pages(report))[:2]
    ['index.md', 'seed-000.md']
    """
    if report.get("schema", "moetheory-report/1") != "moetheory-report/1":
        raise ValueError(f"report schema must be 'moetheory-report/1', got {report['schema']!r}")
    out = Path(out_dir)
    seeds = sorted(
        set(SEED_FILES) | {e["seed_file"] for e in report["claims"] if e.get("seed_file")}
    )
    figures = _collect_figures(Path(figures_dir) if figures_dir else None, out)
    pages = {seed_page_name(s): render_seed_page(report, s, figures) for s in seeds}
    pages["index.md"] = render_index(report, seeds)
    return pages


def write_pages(pages: Mapping[str, str], out_dir: str | Path) -> list[Path]:
    """Write ``pages`` into ``out_dir``, removing stale generated pages; return the paths.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     [p.name for p in write_pages({"index.md": "# Claims\\n"}, tmp)]
    ['index.md']
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.md"):
        if old.name not in pages:
            old.unlink()
    written = []
    for name, text in sorted(pages.items()):
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _stale(pages: Mapping[str, str], out_dir: Path) -> list[str]:
    on_disk = {p.name for p in out_dir.glob("*.md")} if out_dir.is_dir() else set()
    stale = sorted(on_disk - set(pages))
    for name, text in pages.items():
        path = out_dir / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    return sorted(stale)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m moetheory.docs_gen [--report FILE] --out DIR [--check]``.

    Without ``--report`` it first runs the whole verification in the profile, seed and
    number of jobs the committed pages use (:data:`GENERATE_PROFILE` ...).

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
        prog="python -m moetheory.docs_gen", description="Generate the docs' claim pages."
    )
    parser.add_argument("--report", type=Path, help="JSON report to use (default: verify now)")
    parser.add_argument("--out", type=Path, default=Path("docs/claims"), help="output folder")
    parser.add_argument(
        "--figures",
        type=Path,
        default=None,
        help="figures folder (default: _static/figures beside the output folder)",
    )
    parser.add_argument("--save-report", type=Path, help="also write the report used here (JSON)")
    parser.add_argument("--check", action="store_true", help="only report stale pages; exit 1")
    parser.add_argument("--quiet", action="store_true", help="print nothing on success")
    args = parser.parse_args(argv)
    if args.report is not None:
        try:
            report = json.loads(args.report.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            print(f"docs_gen: error: cannot read --report {args.report}: {exc}", file=sys.stderr)
            return 2
    else:
        from moetheory.engine.verification import verify

        report = verify(
            profile=GENERATE_PROFILE, seed=GENERATE_SEED, jobs=GENERATE_JOBS, progress=True
        )
    if args.save_report is not None:
        args.save_report.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    figures = args.figures or args.out.parent / "_static" / "figures"
    pages = generate_pages(report, args.out, figures)
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
