"""Every table of the site inside a ``div.table-scroll``, which scrolls sideways.

A table wider than the text column (the calibration page's eleven columns, the atlas's
formulas) would otherwise widen the whole page past the window; in its wrapper it scrolls
on its own and the page keeps the width of its column (``_static/moetheory.css``).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes

__all__ = ["setup"]


def _wrap(app: Any, doctree: nodes.document, docname: str) -> None:
    for table in list(doctree.findall(nodes.table)):
        if isinstance(table.parent, nodes.container) and "table-scroll" in table.parent["classes"]:
            continue
        wrapper = nodes.container(classes=["table-scroll"])
        table.replace_self(wrapper)
        wrapper += table


def setup(app: Any) -> dict[str, Any]:
    app.connect("doctree-resolved", _wrap)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
