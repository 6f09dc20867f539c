"""A statistical check's outcome from its readings: comparisons, evidence, verdict.

The scaffold every statistical check shares: each reading of a claim makes its comparisons
(:func:`~moetheory.stats.compare` and the other rules), and :func:`readings_outcome` turns
them into one :class:`~moetheory.engine.verdicts.Reading` per reading (verdict by
:func:`~moetheory.stats.combine`, a one-line summary, the comparisons as evidence rows) and
the claim's :class:`~moetheory.engine.verdicts.Outcome`, primary reading first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moetheory.engine.context import CheckContext
from moetheory.engine.verdicts import Outcome, Reading, Verdict
from moetheory.stats._rules import Comparison, combine

__all__ = ["ReadingData", "comparison_rows", "comparisons_markdown", "comparisons_summary",
           "readings_outcome"]

#: One reading's results: its name, its comparisons, its evidence and its derivation
#: (Markdown).
ReadingData = tuple[str, Sequence[Comparison], Mapping[str, Any], str]


def comparison_rows(comparisons: Sequence[Comparison], rule: str = "") -> list[dict[str, Any]]:
    """The evidence rows of ``comparisons``: :meth:`Comparison.to_dict` of each, with ``rule``.

    Parameters
    ----------
    comparisons : sequence of Comparison
        The comparisons of one reading.
    rule : str
        The reading's rule in words (added to every row; empty for none).

    Returns
    -------
    list of dict
        One JSON-ready row per comparison, in order.

    See Also
    --------
    readings_outcome : puts the rows into each reading's evidence.

    Notes
    -----
    The rule's sentence is repeated on every row so a row read alone says how it was decided.

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> c = compare("x", MeanEstimate(1.0, 0.9, 1.1, 10, 0.95), 1.0, 0.2)
    >>> comparison_rows([c], "equivalence")[0]["rule"]
    'equivalence'
    """
    return [dict(c.to_dict(), rule=rule) for c in comparisons]


def comparisons_markdown(comparisons: Sequence[Comparison]) -> str:
    """A Markdown table of ``comparisons``, one row each (4 significant digits).

    Parameters
    ----------
    comparisons : sequence of Comparison
        The comparisons to show.

    Returns
    -------
    str
        A header, then per comparison: label, estimate, interval, reference, tolerance and
        verdict.

    See Also
    --------
    comparisons_summary : the same comparisons in one line.

    Notes
    -----
    A label's ``|`` is escaped, so a norm's bars do not split its cell.

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> c = compare("|x|", MeanEstimate(1.0, 0.9, 1.1, 10, 0.95), 1.0, 0.2)
    >>> print(comparisons_markdown([c]).splitlines()[-1])
    | \\|x\\| | 1 | [0.9, 1.1] | 1 | 0.2 | supported |
    """
    lines = [
        "| comparison | estimate | CI | reference | tolerance | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for c in comparisons:
        e = c.estimate
        label = c.label.replace("|", "\\|")  # a norm's bars must not split the table cell
        lines.append(
            f"| {label} | {e.mean:.4g} | [{e.low:.4g}, {e.high:.4g}] | {c.reference:.4g} "
            f"| {c.tolerance:.4g} | {c.verdict.value} |"
        )
    return "\n".join(lines)


def comparisons_summary(comparisons: Sequence[Comparison]) -> str:
    """One line counting the comparisons of each verdict.

    Parameters
    ----------
    comparisons : sequence of Comparison
        The comparisons of one reading.

    Returns
    -------
    str
        ``"of N comparisons: ..."``: unsupported, inconclusive, then supported counts.

    See Also
    --------
    comparisons_markdown : the comparisons as a table.
    readings_outcome : uses it as each reading's summary.

    Notes
    -----
    The first three labels of each verdict other than ``supported`` are named (``; ...``
    marks more), so the summary says which comparisons failed.

    Examples
    --------
    >>> from moetheory.stats import MeanEstimate, compare
    >>> est = MeanEstimate(1.0, 0.9, 1.1, 10, 0.95)
    >>> comparisons_summary([compare("a", est, 1.0, 0.2), compare("b", est, 3.0, 0.2)])
    'of 2 comparisons: 1 unsupported (b), 1 supported'
    """
    parts = []
    for verdict in (Verdict.UNSUPPORTED, Verdict.INCONCLUSIVE, Verdict.SUPPORTED):
        labels = [c.label for c in comparisons if c.verdict is verdict]
        if not labels:
            continue
        if verdict is Verdict.SUPPORTED:
            parts.append(f"{len(labels)} supported")
        else:
            shown = "; ".join(labels[:3]) + ("; ..." if len(labels) > 3 else "")
            parts.append(f"{len(labels)} {verdict.value} ({shown})")
    return f"of {len(comparisons)} comparisons: " + ", ".join(parts)


def readings_outcome(
    readings_data: Sequence[ReadingData],
    reading_text: Mapping[str, str],
    alpha_each: float,
    ctx: CheckContext,
) -> Outcome:
    r"""The outcome of a statistical claim checked under several readings.

    Parameters
    ----------
    readings_data : sequence of (name, comparisons, evidence, derivation)
        One entry per reading, the primary (most literal) one first.
    reading_text : mapping of str to str
        The reading checked, in words, by reading name.
    alpha_each : float
        The level of each comparison's interval (the claim's :math:`\alpha` over its
        comparisons, Bonferroni).
    ctx : CheckContext
        The check's context (its seed and profile are recorded).

    Returns
    -------
    Outcome
        Verdict of the primary reading; one :class:`Reading` per entry, each with its
        verdict (:func:`combine` of its comparisons), summary, evidence (with the
        comparisons' rows) and derivation.

    See Also
    --------
    comparison_rows, comparisons_summary : each reading's evidence rows and summary.
    moetheory.engine.verdicts.Outcome.from_readings : the outcome's fields.

    Notes
    -----
    The claim's summary joins the readings' summaries and its derivation their derivations,
    each headed by the reading's name; the Bonferroni count is the number of comparisons
    over all readings.

    Examples
    --------
    >>> from moetheory.engine.context import CheckContext
    >>> from moetheory.stats import MeanEstimate, compare
    >>> c = compare("x", MeanEstimate(1.0, 0.9, 1.1, 10, 0.95), 1.0, 0.2)
    >>> out = readings_outcome([("paper", [c], {}, "")], {"paper": "as written"}, 0.05,
    ...                        CheckContext("x.one", seed=0))
    >>> out.verdict.value, out.readings[0].summary
    ('supported', 'of 1 comparisons: 1 supported')
    """
    readings = []
    for name, comps, evidence, derivation in readings_data:
        readings.append(Reading(
            name=name,
            reading=reading_text[name],
            verdict=combine([c.verdict for c in comps]),
            summary=comparisons_summary(comps),
            evidence=dict(evidence, comparisons=comparison_rows(comps, evidence.get("rule", ""))),
            derivation=derivation,
        ))
    out = Outcome.from_readings(
        readings,
        ci_level_each=1 - alpha_each,
        bonferroni_comparisons=sum(len(c) for _, c, _, _ in readings_data),
        seed=ctx.seed,
        profile=ctx.profile,
    )
    out.summary = " | ".join(f"{r.name}: {r.verdict.value} ({r.summary})" for r in readings)
    out.derivation = "\n\n".join(f"**Reading `{r.name}`.** {r.derivation}" for r in readings)
    return out
