"""The verification report: versioned JSON and readable Markdown, written atomically.

JSON schema ``moetheory-report/1``::

    {"schema": "moetheory-report/1", "seed": int, "profile": "quick" | "full",
     "family_alpha": float, "environment": {...}, "complete": bool,
     "selection": [patterns], "counts": {verdict: n},
     "claims": [ {"id", "seed_file", "seed_files", "section", "statement", "reading",
                  "kind", "implemented", "origin", "sources", "covers", "claim_seed",
                  "alpha", "verdict", "summary", "evidence", "readings", "derivation",
                  "statement_latex", "summary_latex", "seconds"} ]}

``origin`` is ``"seed"`` or ``"package"`` (a statement the package adds); ``sources`` is
``[{"seed_file", "lines": [1-based]}]``; ``covers`` lists the audit-row keys checked. These
three fields were added within schema 1 (readers that ignore unknown keys are unaffected).

A claim checked under several readings is one entry whose ``verdict`` is that of its
primary reading and whose ``readings`` list holds one object per reading
(``{"name", "reading", "verdict", "summary", "evidence", "derivation", "reading_latex",
"summary_latex"}``). The ``*_latex`` fields (added within schema 1; empty when the check
gives none) hold the same text with its formulas inside ``$...$`` for typesetting. Only the
``seconds`` fields vary between two runs with the same seed on the same installation.
"""

from __future__ import annotations

import json
import os
import platform
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from moetheory.engine.verdicts import Verdict

__all__ = [
    "SCHEMA",
    "build_report",
    "environment",
    "render_claim",
    "render_markdown",
    "write_atomic",
    "write_json",
]

SCHEMA = "moetheory-report/1"

_PACKAGES = ("moetheory", "numpy", "scipy", "sympy", "mpmath")


def environment() -> dict[str, Any]:
    """Versions that can change a verdict (no host names, no times)."""
    versions: dict[str, str | None] = {}
    for name in _PACKAGES:
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "packages": versions,
    }


def build_report(
    entries: Iterable[Mapping[str, Any]],
    *,
    seed: int,
    profile: str,
    family_alpha: float,
    selection: Iterable[str] = (),
    complete: bool = True,
) -> dict[str, Any]:
    """Assemble the report object from claim entries (in report order)."""
    claims = list(entries)
    counts = Counter(e["verdict"] for e in claims)
    return {
        "schema": SCHEMA,
        "seed": seed,
        "profile": profile,
        "family_alpha": family_alpha,
        "environment": environment(),
        "complete": complete,
        "selection": list(selection),
        "counts": {v.value: counts.get(v.value, 0) for v in Verdict},
        "claims": claims,
    }


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so a reader never sees a half-written file."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: str | os.PathLike[str], report: Mapping[str, Any]) -> None:
    """Write the report as indented UTF-8 JSON."""
    write_atomic(path, json.dumps(report, indent=2, ensure_ascii=False) + "\n")


def _is_symbolic(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"sympy", "latex"}


def _render_value(value: Any) -> str:
    if _is_symbolic(value):
        return f"${value['latex']}$ (`{value['sympy']}`)"
    if isinstance(value, str) and "\n" in value:
        return "\n\n```text\n" + value.rstrip() + "\n```"
    if isinstance(value, str | int | float | bool) or value is None:
        return f"`{value}`" if not isinstance(value, str) else value
    return "\n\n```json\n" + json.dumps(value, indent=2, ensure_ascii=False) + "\n```"


def render_evidence(evidence: Mapping[str, Any]) -> str:
    """Evidence as a Markdown list: scalars inline, formulas in LaTeX, the rest as JSON."""
    if not evidence:
        return "_no evidence_\n"
    return "".join(f"- **{key}**: {_render_value(value)}\n" for key, value in evidence.items())


def render_claim(entry: Mapping[str, Any], heading: str = "###") -> str:
    """One claim's section of the Markdown report."""
    out = [
        f'<a id="{_anchor(entry["id"])}"></a>\n',
        f"{heading} `{entry['id']}` — **{entry['verdict']}**\n",
        f"*Seed:* {', '.join(entry.get('seed_files') or [entry['seed_file']])} · "
        f"*kind:* {entry['kind']} · *claim seed:* {entry['claim_seed']}"
        + (f" · *α:* {entry['alpha']:.3g}" if entry.get("alpha") else "")
        + "\n",
        f"**Statement.** {entry['statement']}\n",
        f"**Reading checked.** {entry['reading']}\n",
        f"**Verdict.** {entry['verdict']} — {entry['summary']}\n",
        "**Evidence.**\n\n" + render_evidence(entry.get("evidence", {})),
    ]
    readings = entry.get("readings") or []
    if readings:
        rows = "".join(
            f"| {r['name']} | {r['verdict']} | {r['summary']} |\n" for r in readings
        )
        out.append("**Readings.**\n\n| reading | verdict | summary |\n|---|---|---|\n" + rows)
        for r in readings:
            out.append(
                f"{heading}# Reading `{r['name']}` — {r['verdict']}\n\n{r['reading']}\n\n"
                + render_evidence(r.get("evidence", {}))
                + (f"\n{r['derivation']}\n" if r.get("derivation") else "")
            )
    if entry.get("derivation"):
        out.append("**Derivation.**\n\n" + entry["derivation"].rstrip() + "\n")
    return "\n".join(out) + "\n"


def render_markdown(report: Mapping[str, Any]) -> str:
    """The whole report as Markdown: a summary table, then a section per claim."""
    counts = ", ".join(f"{k}: {v}" for k, v in report["counts"].items() if v)
    status = "complete" if report["complete"] else "**incomplete (interrupted)**"
    head = [
        "# moetheory verification report\n",
        f"Schema `{report['schema']}` · seed {report['seed']} · profile `{report['profile']}` · "
        f"family-wise α {report['family_alpha']} · {status}\n",
        f"Verdicts — {counts}\n",
        "| claim | seed | verdict | summary |\n|---|---|---|---|\n"
        + "".join(
            f"| [`{e['id']}`](#{_anchor(e['id'])}) | {e['seed_file'][:3]} | {e['verdict']} "
            f"| {_one_line(e['summary'])} |\n"
            for e in report["claims"]
        ),
    ]
    body = [render_claim(e) for e in report["claims"]]
    return "\n".join(head) + "\n## Claims\n\n" + "\n".join(body)


def _one_line(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _anchor(claim_id: str) -> str:
    return "".join(ch for ch in claim_id if ch.isalnum() or ch in "-_").lower()
