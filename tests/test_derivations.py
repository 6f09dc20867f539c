"""Every claim of the catalogue shows a derivation specific to it.

* no claim of the package falls back to the generic template of
  :func:`moetheory.docs._claim._fallback_derivation` (kept for users' own claims);
* every displayed equation of a derivation on a page carries an equation number;
* every numbered equation of seed 003 (the garbled translation of Li et al.) that the book
  displays has a reconstructed, typeset form beside the seed's print.

The catalogue-wide test reads the verification run the docs tests share
(``_docs_site.report_path``, made once per test process).
"""

from __future__ import annotations

import json
import re

import _docs_site
import pytest

from moetheory import Outcome, Reading, Verdict
from moetheory.docs import SEEDS_DIR, render_section_page
from moetheory.docs._book import build_book
from moetheory.docs._claim import _fallback_derivation, render_claim
from moetheory.docs._equations import paper_equations
from moetheory.engine.papers import PAPERS


@pytest.fixture(scope="module")
def rendered() -> list[tuple[dict, str]]:
    """Every claim of the shared verification run with its section of a page."""
    report = json.loads(_docs_site.report_path().read_text(encoding="utf-8"))
    return [(entry, render_claim(_without_evidence(entry))) for entry in report["claims"]]


def _without_evidence(entry: dict) -> dict:
    """``entry`` with the evidence of the claim and of its readings left out: what remains of
    its section is statement, readings, derivations and verdicts (evidence may display a
    formula, which is not a derivation's)."""
    readings = [{**r, "evidence": {}} for r in entry.get("readings") or []]
    return {**entry, "evidence": {}, "readings": readings}


def _displays(text: str) -> list[str]:
    """The display blocks (``$$`` ... ``$$`` on lines of their own) of a page's MyST text,
    outside code fences."""
    blocks: list[str] = []
    current: list[str] | None = None
    fence = False
    for line in text.splitlines():
        if current is None and re.match(r"^\s*(`{3,}|~{3,})", line):
            fence = not fence
        elif not fence and line.strip() == "$$":
            if current is None:
                current = []
            else:
                blocks.append("\n".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_no_claim_of_the_catalogue_uses_the_generic_derivation(
    rendered: list[tuple[dict, str]],
) -> None:
    generic = [entry["id"] for entry, text in rendered if _fallback_derivation(entry) in text]
    assert generic == [], f"{len(generic)} claims show the generic derivation: {generic}"


def test_every_displayed_equation_of_a_derivation_is_numbered(
    rendered: list[tuple[dict, str]],
) -> None:
    seen = 0
    untagged = []
    for entry, text in rendered:
        for block in _displays(text):
            seen += 1
            if len(re.findall(r"\\tag\{", block)) != 1:
                untagged.append((entry["id"], block[:80]))
    assert seen > 100
    assert untagged == [], f"{len(untagged)} displays without one number: {untagged[:5]}"


def test_derivation_displays_are_numbered_through_the_claim() -> None:
    entry = {"id": "own.numbered", "statement": "x", "reading": "y", "verdict": "proved",
             "summary": "z", "evidence": {}, "kind": "exact", "implemented": True,
             "derivation": "First\n\n$$a = b$$\n\nthen\n\n$$\nc = d \\tag{7}\n$$\n\n"
                           "```text\n$$\nnot maths\n$$\n```\n\n$$ e = f $$",
             "readings": [
                 {"name": "one", "reading": "r", "verdict": "proved", "summary": "s",
                  "evidence": {}, "derivation": "$$g = h$$"},
                 {"name": "two", "reading": "r", "verdict": "proved", "summary": "s",
                  "evidence": {}, "derivation": "Also $$i = j$$ inline, and\n\n$$k = l$$"},
             ]}
    text = render_claim(entry)
    tags = [re.findall(r"\\tag\{([^}]*)\}", b) for b in _displays(text)]
    assert tags == [["D1"], ["7"], ["D2"], ["D3"], ["D4"]]
    assert "$$\nnot maths\n$$" in text  # code is left as it is
    assert "$i = j$" in text  # inline maths is not a display


def test_a_users_claim_without_derivation_keeps_the_generic_one() -> None:
    entry = {"id": "own.claim", "statement": "x", "reading": "y", "verdict": "supported",
             "summary": "z", "evidence": {}, "kind": "statistical", "claim_seed": 3,
             "alpha": 0.05, "implemented": True}
    text = render_claim(entry)
    assert _fallback_derivation(entry) in text
    assert re.search(r"claim's seed \(3\)", text)


def test_a_derivation_given_with_readings_is_the_claims_not_evidence() -> None:
    """``Outcome.from_readings(..., derivation=...)`` once put the text among the evidence,
    so twelve claims of the catalogue showed the generic derivation."""
    reading = Reading("literal", "as written", Verdict.PROVED, "identity")
    out = Outcome.from_readings([reading], derivation="$x = x$", residual=0)
    assert out.derivation == "$x = x$"
    assert dict(out.evidence) == {"residual": 0}
    assert out.to_dict()["derivation"] == "$x = x$"


_SEED_003 = "003_3078ccb5100b14b7.txt"


def test_every_numbered_equation_of_seed_003_has_a_typeset_reconstruction() -> None:
    from moetheory.docs._equations import _LINES, _clean, tex_ok

    equations = paper_equations(SEEDS_DIR, "li2025continual")
    numbers = list(_LINES[_SEED_003])
    assert sorted(equations, key=int) == sorted(numbers, key=int)
    seed_lines = (SEEDS_DIR / _SEED_003).read_text(encoding="utf-8").splitlines()
    for number in numbers:
        eq = equations[number]
        assert eq.reconstructed, f"eq. ({number}) has no reconstruction"
        assert tex_ok(eq.reconstructed), f"eq. ({number}): {eq.reconstructed}"
        assert eq.reconstructed != eq.latex
        # the seed's print is kept as it is
        assert eq.latex == _clean(" ".join(seed_lines[i - 1] for i in eq.lines))


def test_a_section_page_shows_the_reconstruction_beside_the_print() -> None:
    paper = next(p for p in PAPERS if p.key == "li2025continual")
    section = next(s for s in paper.parts if s.key == "forgetting")
    report = {"seed": 0, "profile": "quick", "family_alpha": 0.05, "claims": [
        {"id": "cl.prop4.generalization", "seed_file": _SEED_003, "section": "CL",
         "statement": "E[G_T] as eq. (18) writes it", "reading": "r", "verdict": "proved",
         "summary": "m", "evidence": {}, "kind": "exact", "claim_seed": 7}]}
    book = build_book(report, SEEDS_DIR, None)
    page = render_section_page(report, paper, section, None, SEEDS_DIR, True, book)
    eq = book.equations["li2025continual"]["18"]
    printed = page.index(f"{eq.latex} \\tag{{18}}")
    rebuilt = page.index(f"{eq.reconstructed} \\tag{{18'}}")
    label = page.index("Reconstructed", printed)
    assert printed < label < rebuilt


def test_a_numbered_display_with_line_breaks_stays_valid_under_sphinx() -> None:
    r"""Sphinx wraps a display holding ``\\`` in ``split``, where MathJax rejects ``\tag``
    ("\tag not allowed in split environment"): the rows are kept with ``\cr`` instead."""
    entry = {"id": "own.rows", "statement": "x", "reading": "y", "verdict": "proved",
             "summary": "z", "evidence": {}, "kind": "exact", "implemented": True,
             "derivation": "$$\na &= b \\\\\nc &= d \\\\[2pt]\ne &= f\n$$"}
    (block,) = _displays(render_claim(entry))
    assert "\\\\" not in block
    assert re.sub(r"\s+", " ", block) == (
        r"\begin{aligned} a &= b \cr c &= d \cr e &= f \end{aligned} \tag{D1}")
    for eq in paper_equations(SEEDS_DIR, "li2025continual").values():
        assert "\\\\" not in eq.reconstructed, eq.number
