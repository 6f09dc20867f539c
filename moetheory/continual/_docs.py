"""Docstring parts that functions all over :mod:`moetheory.continual` share.

The parts are filled in by :func:`moetheory._doccer.fill_doc` at a placeholder
``%(name)s``; they are written unindented (their lines after the first take the indentation
of the placeholder's line).

Examples
--------
>>> print(REFERENCES["references"].splitlines()[2])
.. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
"""

from __future__ import annotations

__all__ = ["REFERENCES"]

#: The References section that cites the paper of seed 003 as ``[1]``.
REFERENCES: dict[str, str] = {
    "references": """\
References
----------
.. [1] H. Li, S. Lin, L. Duan, Y. Liang and N. B. Shroff, "Theory on
   Mixture-of-Experts in Continual Learning", ICLR, 2025, arXiv:2406.16437.""",
}
