"""Docstring parts that several functions of :mod:`moetheory.continual.theory` share.

Each dictionary holds the parts of one family of functions, by placeholder name; a
function's docstring names each at ``%(name)s`` and :func:`moetheory._doccer.fill_doc` fills
them in. The parts are written unindented: their lines after the first take the indentation
of the placeholder's line. Every family holds the package's References section
(:data:`moetheory.continual._docs.REFERENCES`, re-exported here for the functions outside the
families).
"""

from __future__ import annotations

from moetheory.continual._docs import REFERENCES

__all__ = ["REFERENCES"]

#: The ``pairs`` parameter: the reading of the pair sum in Theorems 1 and 2.
_PAIRS = r"""pairs : {"ordered", "unordered", "diagonal"}, optional
    Reading of the pair sum (:data:`PAIR_READINGS`); default ``"ordered"``."""

#: The functions of ``s`` and ``d`` alone, checked by :func:`overparam_ratio`: their Raises
#: section.
OVERPARAM: dict[str, str] = {
    **REFERENCES,
    "raises": r"""Raises
------
ValueError
    If ``d`` is not an integer of at least 2 or ``s`` is not an integer in ``[1, d)``.""",
}

#: The single-expert formulas evaluated for concrete ground truths: the parameters ``W``,
#: ``s`` and ``d`` and the errors of their checks (with the section headings: ``parameters``,
#: ``raises`` and, for the formulas under a reading, ``raises_reading``).
SINGLE_EXPERT: dict[str, str] = {
    **REFERENCES,
    "w_s_d": r"""W : ndarray, shape (N, d)
    Ground truths.
s, d : int
    Samples per task and dimension, ``1 <= s < d``""",
    "errors": (
        r"If ``W`` is not a finite array of shape (N, d), ``s`` is not in ``[1, d)``, ``d < 2``,"
        "\nor a round is not an integer of the allowed range."
    ),
    "parameters": """Parameters
----------
%(w_s_d)s.""",
    "raises": """Raises
------
ValueError
    %(errors)s""",
    "raises_reading": """Raises
------
ValueError
    %(errors)s Also if ``reading`` is unknown.""",
}

#: The exact single expert under Definition 1: the parameters ``W`` (pools) and ``s``, and the
#: start of the error of their checks (the smallest allowed round completes it).
DEFINITION1: dict[str, str] = {
    **REFERENCES,
    "pools": r"""W : ndarray, shape (N, d) or (R, N, d)
    Ground truths (non-zero), or ``R`` pools of them.
s : int
    Samples per task, ``1 <= s < d``.""",
    "pools_errors": (
        "If ``W`` is not a finite array of non-zero vectors of shape (N, d) or (R, N, d),\n"
        "``s`` is not in ``[1, d)``, or a round is not an integer"
    ),
}

#: The bounds of Theorems 1 and 2 on simulated runs: the parameters ``expert`` and
#: ``ground_truths`` (``routing``), ``n_experts`` and ``r_value`` (``m_r``), ``pairs``, and
#: the errors of their checks.
BOUNDS: dict[str, str] = {
    **REFERENCES,
    "routing": r"""expert : ndarray of int, shape (R, T)
    Routed expert (0-based) of every round of every replicate.
ground_truths : ndarray, shape (R, N, d)
    Ground truths of every replicate.""",
    "m_r": r"""n_experts : int
    Number of experts :math:`M`.
r_value : float
    :math:`r = 1 - s/d \in [0, 1)`.""",
    "pairs": _PAIRS,
    "errors": r"""If ``r_value`` is outside :math:`[0, 1)`, ``ground_truths`` does not have shape
(R, N, d) matching ``expert``, ``pairs`` is unknown, a round is out of range, or an
entry of ``expert`` is outside ``[0, n_experts)``""",
}

#: The expressions of Theorems 1 and 2: the parameter ``pairs`` and its error (the whole
#: Parameters and Raises sections of those that take nothing else).
STATEMENTS: dict[str, str] = {
    **REFERENCES,
    "pairs": _PAIRS,
    "raises": r"""KeyError
    If ``pairs`` is not a key of :data:`PAIR_READINGS`.""",
    "parameters": """Parameters
----------
%(pairs)s""",
    "raises_section": """Raises
------
%(raises)s""",
}

#: The cluster constants :math:`\Psi_1, \Psi_2`: their parameters and Raises section.
CLUSTERS: dict[str, str] = {
    **REFERENCES,
    "parameters": r"""W : ndarray, shape (N, d)
    Ground truths.
clusters : sequence of int, length N
    Cluster label of each ground truth.""",
    "raises": r"""Raises
------
ValueError
    If ``W`` is not a finite (N, d) array or ``clusters`` does not have one label per
    ground truth.""",
}

#: The coverage probabilities of Lemma 11: their parameters and Raises section.
COVERAGE: dict[str, str] = {
    **REFERENCES,
    "parameters": r"""n_sets : int
    Number of sets :math:`N \ge 1` (tasks or clusters).
n_experts : int
    Number of experts :math:`M \ge 1`.""",
    "raises": r"""Raises
------
ValueError
    If ``n_sets`` or ``n_experts`` is not a positive integer.""",
}

#: The closed forms of the exact single-expert means: their Raises section.
EXACT_EXPRESSIONS: dict[str, str] = {
    **REFERENCES,
    "raises": r"""Raises
------
ValueError
    Not expected: raised only if the SymPy sum were not linear in :math:`S` and
    :math:`D` (an internal consistency check).""",
}

#: Eq. (17) in SymPy under a reading: the parameter ``reading`` (alone: ``parameters``, the
#: whole section) and the Raises section.
FORGETTING_EXPRESSIONS: dict[str, str] = {
    **REFERENCES,
    "reading": r"""reading : str, optional
    ``"<form>/<pairs>"`` from :data:`FORGETTING_READINGS`; default
    ``"main-as-printed/ordered"``.""",
    "parameters": """Parameters
----------
%(reading)s""",
    "raises": r"""Raises
------
ValueError
    If ``reading`` is not one of :data:`FORGETTING_READINGS`.""",
}
