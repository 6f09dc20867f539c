"""Docstring parts that the functions reading a verification report share.

The engine's renderers and the documentation generator (:mod:`moetheory.docs`) take the same
report; its parameter is described once here. The parts are filled in by
:func:`moetheory._doccer.fill_doc` at a placeholder ``%(name)s``; they are written unindented
(their lines after the first take the indentation of the placeholder's line).

Examples
--------
>>> print(REPORT_PARTS["report"])
report : mapping
    A ``moetheory-report/1`` report.
"""

from __future__ import annotations

__all__ = ["REPORT_PARTS"]

#: The parameter ``report``: a report as :func:`moetheory.verify` returns it.
REPORT_PARTS: dict[str, str] = {
    "report": "report : mapping\n    A ``moetheory-report/1`` report.",
}
