"""The seed-stability page (``benchmarks/seed_stability.py``): what a seed's saved report
keeps of each claim, and the typeset summaries the page shows of a moving claim."""

from __future__ import annotations

import json
from pathlib import Path

from _bench import load_benchmark
from test_docs_scan import markdown_formulas

seed_stability = load_benchmark("seed_stability")

#: A report entry as ``moetheory.verify`` gives it (the fields the page reads, and others).
ENTRY = {
    "id": "pcr.rates.topk",
    "verdict": "supported",
    "summary": "literal: sigma0=0.2: 1 - G(MoE)/G(M=1) > 0",
    "summary_latex": r"literal: $\sigma_0 = 0.2$: $1 - G(\mathrm{MoE})/G(M=1) > 0$",
    "readings": [{"name": "literal", "verdict": "supported", "evidence": {"n": 3}}],
    "evidence": {"n": 3},
    "derivation": "long",
}


def _save(folder: Path, seed: int, entries: list[dict]) -> None:
    rep = {"seed": seed, "seconds_wall": 1.0, "commit": "abc1234",
           "claims": [seed_stability.saved_entry(e) for e in entries]}
    (folder / f"seed-{seed}.json").write_text(json.dumps(rep), encoding="utf-8")


def test_a_seeds_report_keeps_the_typeset_summary_and_the_reading_name() -> None:
    saved = seed_stability.saved_entry(ENTRY)
    assert saved == {"id": ENTRY["id"], "verdict": "supported", "summary": ENTRY["summary"],
                     "summary_latex": ENTRY["summary_latex"],
                     "readings": [{"name": "literal"}]}
    bare = seed_stability.saved_entry({"id": "a", "verdict": "proved", "summary": "s"})
    assert bare == {"id": "a", "verdict": "proved", "summary": "s"}


def test_a_moving_claims_summaries_are_typeset(tmp_path: Path) -> None:
    # issue 45: the page quoted each moving claim's plain-text summaries (cut at 240
    # characters, mid-formula); it shows them as the claim pages do, typeset
    undecided = {**ENTRY, "verdict": "inconclusive",
                 "summary": "literal: T=200: E[lhs]=2.37 vs bound 2.422",
                 "summary_latex": ""}  # an older report: the plain summary, typeset
    _save(tmp_path, 0, [ENTRY])
    _save(tmp_path, 1, [undecided])
    page = tmp_path / "page.md"
    assert seed_stability.main(["--from-dir", str(tmp_path), "--markdown", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    moving = text.split("## Claims that move", 1)[1]
    assert r"$\sigma_0 = 0.2$" in moving and "`literal`" in moving, moving
    assert not markdown_formulas(text), markdown_formulas(text)
    assert "sigma0=0.2" not in text and "E[lhs]=2.37" not in text
