"""Docstring parts that functions of :mod:`moetheory.symbolic` share.

The parts are filled in by :func:`moetheory._doccer.fill_doc` at a placeholder
``%(name)s``; they are written unindented (their lines after the first take the indentation
of the placeholder's line).

Examples
--------
>>> print(REFERENCES["references"].splitlines()[-1])
   arXiv:2405.14131.
"""

from __future__ import annotations

__all__ = ["REFERENCES"]

#: The References section that cites the perturbed-cosine-router paper as ``[1]``.
REFERENCES: dict[str, str] = {
    "references": """\
References
----------
.. [1] H. Nguyen, P. Akbarian, T. Pham, T. Nguyen, S. Zhang and N. Ho,
   "Statistical Advantages of Perturbing Cosine Router in Mixture of Experts", ICLR, 2025,
   arXiv:2405.14131.""",
}
