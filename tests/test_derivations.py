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

from moetheory import Outcome, Reading, Verdict
from moetheory.docs._claim import _fallback_derivation, render_claim


def test_no_claim_of_the_catalogue_uses_the_generic_derivation() -> None:
    report = json.loads(_docs_site.report_path().read_text(encoding="utf-8"))
    generic = [
        entry["id"] for entry in report["claims"]
        if _fallback_derivation(entry) in render_claim(entry)
    ]
    assert generic == [], f"{len(generic)} claims show the generic derivation: {generic}"


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
