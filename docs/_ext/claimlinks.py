"""Every claim ID set as code, on any page of the site, links to the claim.

The claim pages link the IDs they name themselves; the hand-written pages and the pages other
tools render (the coverage ledger, calibration, seed stability) name claims as code
(```pcr.pde.cosine```) and cannot know where a claim's section lies: that depends on the
papers' sections and is decided when the claim pages are generated. So ``docs/conf.py``
hands the report the claim pages were made from to :func:`set_claims`, and, once a page is
resolved, every inline literal whose text is exactly a claim ID of that report and that is
not already inside a link, a heading (a claim's own heading is its anchor) or an API
signature becomes a link to ``claims/<section page>.html#<claim anchor>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docutils import nodes

__all__ = ["set_claims", "setup"]

#: Claim ID -> (document name, anchor), for the build under way.
_TARGETS: dict[str, tuple[str, str]] = {}


def set_claims(report: Mapping[str, Any]) -> None:
    """Link the claims of ``report`` (a ``moetheory-report/1`` mapping) from now on."""
    from moetheory import docs as docs_gen

    _TARGETS.clear()
    for entry in report.get("claims", []):
        page = docs_gen.claim_page_name(entry["id"], entry.get("seed_file", ""))
        _TARGETS[entry["id"]] = ("claims/" + page.removesuffix(".md"),
                                 docs_gen.claim_anchor(entry["id"]))


def _excluded(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, (nodes.reference, nodes.title, nodes.FixedTextElement)):
            return True
        if parent.__class__.__name__.startswith("desc_"):
            return True
        parent = parent.parent
    return False


def _link(app: Any, doctree: nodes.document, docname: str) -> None:
    if not _TARGETS or app.builder.format != "html":
        return
    for literal in list(doctree.findall(nodes.literal)):
        target = _TARGETS.get(literal.astext())
        if target is None or _excluded(literal):
            continue
        page, anchor = target
        uri = "" if page == docname else app.builder.get_relative_uri(docname, page)
        link = nodes.reference("", "", internal=True, refuri=f"{uri}#{anchor}",
                               classes=["claim-link"])
        literal.replace_self(link)
        link += literal


def setup(app: Any) -> dict[str, Any]:
    app.connect("doctree-resolved", _link)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
