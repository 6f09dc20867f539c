r"""The statistical comparisons of a claim as typeset tables.

A statistical check decides each of its comparisons by a rule
(:data:`moetheory.stats.RULES`): an estimate with its confidence interval (level
:math:`1 - \alpha`, from :math:`n` replicates) is judged against the claimed value with a
tolerance. Every comparison a check records -- in the claim's evidence or in a reading's --
is one row of a table on the claim's page, with all these numbers and the seed that drew
them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from moetheory.docs._markup import _list_table, _text, _verdict
from moetheory.stats._rules import RULES_MARKDOWN

__all__ = ["comparisons_of", "render_comparisons"]

#: The keys every decided comparison carries (``Comparison.to_dict``).
_KEYS = frozenset({"rule", "estimate", "ci", "reference", "tolerance", "verdict"})


def comparisons_of(value: Any) -> Iterator[Mapping[str, Any]]:
    """Every decided comparison anywhere in a piece of evidence, in order.

    Parameters
    ----------
    value : object
        JSON evidence.

    Yields
    ------
    mapping
        Each mapping holding a comparison's keys (rule, estimate, ci, reference,
        tolerance, verdict).

    See Also
    --------
    moetheory.stats.Comparison.to_dict : what a check's evidence holds for each.
    render_comparisons : their table.

    Notes
    -----
    A comparison is recognised by its keys, wherever a check put it (a list under
    ``comparisons``, a reading's ``monte_carlo`` rows, a nested ``comparison``); one
    nested in another is not looked into.

    Examples
    --------
    >>> ev = {"a": [{"rule": "at-most", "estimate": 1.0, "ci": [0.5, 1.5], "n": 9,
    ...               "reference": 0.0, "tolerance": 0.1, "verdict": "unsupported"}]}
    >>> [c["rule"] for c in comparisons_of(ev)]
    ['at-most']
    """
    if isinstance(value, Mapping):
        if _KEYS <= set(value):
            yield value
            return
        for item in value.values():
            yield from comparisons_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from comparisons_of(item)


def _number(x: Any) -> str:
    """A number as a table cell: four significant digits, a true minus sign, powers of ten
    as superscripts (numbers are not formulas: no MathJax for them, which keeps the tables
    light)."""
    if x is None:
        return "—"
    if x in ("nan", "inf", "-inf"):  # how a report writes the non-finite numbers
        x = float(x)
    if isinstance(x, bool) or not isinstance(x, int | float):
        return _text(str(x), cell=True)
    if isinstance(x, float) and math.isnan(x):
        return "NaN"
    if isinstance(x, float) and math.isinf(x):
        return "$\\infty$" if x > 0 else "$-\\infty$"
    if isinstance(x, int) or x == 0:
        return str(x).replace("-", "−") if isinstance(x, int) else "0"
    text = f"{x:.4g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return (f"{mantissa.replace('-', '−')} × 10<sup>"
                f"{str(int(exponent)).replace('-', '−')}</sup>")
    return text.replace("-", "−")


def _interval(c: Mapping[str, Any]) -> str:
    ci = c.get("ci")
    if not isinstance(ci, Sequence) or len(ci) != 2:
        return "—"
    cell = f"[{_number(ci[0])}, {_number(ci[1])}]"
    method = c.get("ci_method")
    if method:
        cell += f" ({_text(method, cell=True)})"
    clipped = c.get("ci_clipped_to")
    if isinstance(clipped, Sequence) and len(clipped) == 2:
        cell += f", clipped to [{_number(clipped[0])}, {_number(clipped[1])}]"
    return cell


def _estimate(c: Mapping[str, Any]) -> str:
    if c.get("estimate") is None:
        reason = c.get("reason")
        return "—" + (f" ({_text(reason, cell=True)})" if reason else "")
    return _number(c["estimate"])


def render_comparisons(
    comparisons: Sequence[Mapping[str, Any]],
    claim_seed: int | None,
    master_seed: int | None = None,
    title: str = "Comparisons",
    rules_shown: set[str] | None = None,
) -> list[str]:
    """A typeset table of statistical comparisons, one row each, and the rules it uses.

    Parameters
    ----------
    comparisons : sequence of mapping
        Decided comparisons (:func:`comparisons_of`).
    claim_seed : int or None
        The seed the claim's simulations were drawn from.
    master_seed : int, optional
        The run's master seed.
    title : str
        The table's caption (plain text), before the seeds.
    rules_shown : set of str, optional
        Rules already written under an earlier table of the same claim: not repeated
        (updated in place).

    Returns
    -------
    list of str
        MyST lines: a ``list-table`` of class ``comparisons`` with the columns comparison,
        rule, estimate, interval (and its method), :math:`n`, claimed value, tolerance,
        :math:`\\alpha` (one minus the interval's level) and verdict, captioned with the
        seeds; then each rule used, in words (a check's own rule once, by its letter).
        Empty without comparisons.

    See Also
    --------
    comparisons_of : the comparisons of a piece of evidence.
    moetheory.stats.RULES : the rules, as the engine states them.

    Notes
    -----
    Numbers are shown to four significant digits with a true minus sign and powers of ten
    as superscripts: they are numbers, not formulas, so they carry no MathJax and the
    tables stay light. A comparison left undecided shows "—" and its reason; a report's
    non-finite numbers (``"nan"``, ``"inf"``) show as NaN and :math:`\\infty`.

    Examples
    --------
    >>> c = {"label": "t=2", "rule": "at-most", "estimate": 0.6878, "ci": [0.2345, 1.141],
    ...      "ci_method": "t", "alpha": 2.395e-05, "n": 200, "reference": 0.0,
    ...      "tolerance": 0.033, "verdict": "unsupported"}
    >>> lines = render_comparisons([c], 7)
    >>> lines[0]
    '~~~{list-table} Comparisons (claim seed 7)'
    >>> "  - 2.395 × 10<sup>−5</sup>" in lines
    True
    """
    if not comparisons:
        return []
    seeds = [] if claim_seed is None else [f"claim seed {claim_seed}"]
    if master_seed is not None:
        seeds.append(f"master seed {master_seed}")
    caption = title + (f" ({', '.join(seeds)})" if seeds else "")
    rows = []
    own: dict[str, str] = {}  # a check's own rule text -> its letter
    for c in comparisons:
        rule = str(c["rule"])
        if rule.strip() and rule not in RULES_MARKDOWN and rule not in own:
            own[rule] = "abcdefghijklmnopqrstuvwxyz"[len(own) % 26]
        alpha = c.get("alpha")
        if alpha is None and isinstance(c.get("ci_level"), int | float):
            alpha = 1 - c["ci_level"]
        rows.append((
            _text(c.get("label") or "—", cell=True),
            f"`{c['rule']}`" if str(c["rule"]) in RULES_MARKDOWN
            else f"rule ({own[str(c['rule'])]})" if str(c["rule"]).strip() else "—",
            _estimate(c),
            _interval(c),
            _number(c.get("n")),
            _number(c.get("reference")),
            _number(c.get("tolerance")),
            _number(alpha),
            _verdict(str(c["verdict"])),
        ))
    lines = _list_table(
        ("comparison", "rule", "estimate", "interval", "$n$", "claimed value", "tolerance",
         "$\\alpha$", "verdict"),
        rows,
        "auto",
        "comparisons",
    )
    # a tilde fence: its title may hold code spans (a backtick fence's may not)
    lines[0] = f"~~~{{list-table}} {caption}"
    lines[-1] = "~~~"
    shown = rules_shown if rules_shown is not None else set()
    used = sorted({str(c["rule"]) for c in comparisons} & set(RULES_MARKDOWN) - shown)
    notes = [f"`{r}`: {RULES_MARKDOWN[r]}" for r in used]
    notes += [f"({letter}) {_text(rule)}" for rule, letter in own.items()]
    shown.update(used)
    if notes:
        lines += ["", "Rules: " + "; ".join(notes) + "."]
    return lines
