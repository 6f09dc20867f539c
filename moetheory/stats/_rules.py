"""The four decision rules of a comparison, their combination, and the calibration hook."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from moetheory._doccer import fill_doc
from moetheory.engine.verdicts import Verdict
from moetheory.stats._intervals import MeanEstimate
from moetheory.stats._rounding import stable

__all__ = ["RULES", "RULES_MARKDOWN", "Comparison", "Label", "at_least", "at_most",
           "claimed_values", "combine", "compare", "greater"]

#: The decision rules, with the sentence the docs and evidence use for each.
RULES: dict[str, str] = {
    "equivalence": "supported iff the interval lies inside [r - t, r + t]; unsupported iff "
    "it lies entirely outside; inconclusive otherwise",
    "at-most": "supported iff the interval lies at or below b + t; unsupported iff it lies "
    "entirely above b + t; inconclusive otherwise",
    "at-least": "supported iff the interval lies at or above b - t; unsupported iff it lies "
    "entirely below b - t; inconclusive otherwise",
    "greater": "supported iff the interval lies entirely above c; otherwise unsupported iff "
    "it lies entirely below c + e (the effect is significantly smaller than the smallest "
    "meaningful one, e); inconclusive otherwise",
}

#: Each rule as the tables and displays write it: Markdown, its symbols as maths.
RULES_MARKDOWN: dict[str, str] = {
    "equivalence": r"`supported` iff the interval lies inside $[r - t, r + t]$, "
    r"`unsupported` iff it lies entirely outside ($r$ the claimed value, $t$ the tolerance)",
    "at-most": r"`supported` iff the interval lies at or below $b + t$, `unsupported` iff it "
    r"lies entirely above ($b$ the claimed bound, $t$ the tolerance)",
    "at-least": r"`supported` iff the interval lies at or above $b - t$, `unsupported` iff "
    r"it lies entirely below ($b$ the claimed bound, $t$ the tolerance)",
    "greater": r"`supported` iff the interval lies entirely above $c$, `unsupported` iff it "
    r"lies entirely below $c + e$ ($c$ the claimed value, $e$ the smallest meaningful "
    r"effect, in the tolerance column)",
}


class Label(str):
    r"""A comparison's label that carries its typeset form.

    It *is* its plain text -- equal to it, hashed as it, written to JSON as it -- so what a
    comparison is called, and everything keyed by that (the calibration's comparisons, the
    behaviour hash of a calibration row), stays what it was when a check types its label
    this way; :attr:`latex` rides along for the pages that show it.

    Parameters
    ----------
    text : str
        The label as plain text: what the comparison is, as reports and keys use it.
    latex : str
        The same label as MyST prose, its formulas in ``$...$`` (default: none).

    Notes
    -----
    Typesetting a label at its source this way changes the check's code (its calibration
    row's fingerprint) but not what it decides, so ``benchmarks/calibrate.py --restamp``
    keeps the row: no re-run is needed.

    See Also
    --------
    compare : the comparison that takes such a label.
    claimed_values : the calibration hook that keys comparisons by their labels.

    Examples
    --------
    >>> lab = Label("s0=0.2: 1 - G(MoE)/G(M=1) > 0",
    ...             r"$\sigma_0 = 0.2$: $1 - G(\mathrm{MoE})/G(M=1) > 0$")
    >>> lab == "s0=0.2: 1 - G(MoE)/G(M=1) > 0", lab.latex[:16]
    (True, '$\\sigma_0 = 0.2$')
    """

    latex: str

    def __new__(cls, text: str, latex: str = "") -> Label:
        if latex.count("$") % 2:
            raise ValueError(f"latex must hold balanced $...$ maths, got {latex!r}")
        obj = super().__new__(cls, text)
        obj.latex = latex
        return obj


# ----------------------------------------------------------------------- calibration hook

_CLAIMED: Callable[[str, str, float, float], float] | None = None
_RECORD: list[Comparison] | None = None


@contextmanager
def claimed_values(
    move: Callable[[str, str, float, float], float] | None = None,
    record: list[Comparison] | None = None,
) -> Iterator[None]:
    """Replace the claimed value of every comparison decided inside the block.

    Parameters
    ----------
    move : callable ``(rule, label, value, tolerance) -> float``, optional
        The value a true or false variant of the statement claims in place of ``value``
        (the reference, bound or threshold); ``None`` keeps the shipped values.
    record : list of Comparison, optional
        Every comparison decided inside the block is appended here.

    Yields
    ------
    None
        The block runs with the replacement in force; it is undone on exit.

    See Also
    --------
    compare, at_most, at_least, greater : the rules that consult the replacement.

    Notes
    -----
    For calibration only (``benchmarks/calibrate.py``). Blocks nest: the previous
    replacement is restored on exit.

    Examples
    --------
    >>> est = MeanEstimate(1.0, 0.99, 1.01, 100, 0.99)
    >>> with claimed_values(lambda rule, label, v, t: v + 1.0):
    ...     compare("x", est, 1.0, 0.05).verdict
    <Verdict.UNSUPPORTED: 'unsupported'>
    """
    global _CLAIMED, _RECORD
    saved = (_CLAIMED, _RECORD)
    _CLAIMED, _RECORD = move, record
    try:
        yield
    finally:
        _CLAIMED, _RECORD = saved


def _claimed(rule: str, label: str, value: float, tolerance: float) -> float:
    return float(value) if _CLAIMED is None else float(_CLAIMED(rule, label, value, tolerance))


# ------------------------------------------------------------------------- decision rules


@dataclass(frozen=True)
class Comparison:
    """One estimate judged against one claimed value by one rule.

    Parameters
    ----------
    label : str
        What is compared, as printed in reports.
    estimate : MeanEstimate
        The estimate with its interval.
    reference : float
        The claimed value (reference, bound or threshold).
    tolerance : float
        The margin (for :func:`greater`, the smallest meaningful effect).
    verdict : Verdict
        The decision.
    rule : {"equivalence", "at-most", "at-least", "greater"}
        The rule that decided it (:data:`RULES`).

    See Also
    --------
    compare, at_most, at_least, greater : build comparisons.

    Notes
    -----
    Built by the rules, not by hand; ``to_dict()`` is what a report's evidence carries.

    Examples
    --------
    >>> c = at_most("gap", MeanEstimate(0.1, 0.0, 0.2, 10, 0.95), 0.5)
    >>> c.rule, c.verdict.value, c.to_dict()["ci"]
    ('at-most', 'supported', [0.0, 0.2])
    """

    label: str
    estimate: MeanEstimate
    reference: float
    tolerance: float
    verdict: Verdict
    rule: str = "equivalence"

    def to_dict(self) -> dict[str, Any]:
        """Evidence: rule, estimate, interval and its method, level, n, claimed value,
        tolerance and verdict (numbers through :func:`stable`).

        Returns
        -------
        dict
            JSON-ready; ``ci_clipped_to`` is added when the interval was clipped to the
            quantity's range.

        Examples
        --------
        >>> c = compare("x", MeanEstimate(1.0, 0.9, 1.1, 10, 0.99), 1.0, 0.2)
        >>> c.to_dict()["verdict"], c.to_dict()["n"]
        ('supported', 10)
        """
        est = self.estimate
        return {
            "label": self.label,
            "rule": self.rule,
            "estimate": stable(est.mean),
            "ci": [stable(est.low), stable(est.high)],
            "ci_method": est.method,
            "ci_level": est.level,
            "alpha": 1 - est.level,
            "n": est.n,
            "reference": stable(self.reference),
            "tolerance": stable(self.tolerance),
            "verdict": self.verdict.value,
            **({"ci_clipped_to": [stable(b) for b in est.bounds]} if est.clipped else {}),
        }

    def _card(self) -> Any:
        from moetheory.engine.display import Card, literal

        def num(x: float) -> str:
            return "\\infty" if x == float("inf") else "-\\infty" if x == -float("inf") \
                else f"{x:.6g}"

        est, v, t = self.estimate, self.reference, self.tolerance
        claimed = {
            "equivalence": f"$[r - t, r + t] = [{num(v - t)}, {num(v + t)}]$",
            "at-most": f"at most $b + t = {num(v + t)}$",
            "at-least": f"at least $b - t = {num(v - t)}$",
            "greater": f"above $c = {num(v)}$ (smallest meaningful effect $e = {num(t)}$)",
        }.get(self.rule, literal(self.rule))
        summary = (
            f"estimate ${num(est.mean)}$, {100 * est.level:.4g}% interval "
            f"$[{num(est.low)}, {num(est.high)}]$ ($n = {est.n}$), claimed: {claimed}"
        )
        fields = [
            ("rule", literal(f"{self.rule}: {RULES.get(self.rule, '')}")),
            ("interval method", literal(est.method)),
            ("claimed value", f"${num(v)}$"),
            ("tolerance", f"${num(t)}$"),
        ]
        if est.clipped:
            fields.append(("clipped to", f"$[{num(est.bounds[0])}, {num(est.bounds[1])}]$"))
        return Card(title=literal(self.label), verdict=self.verdict.value, summary=summary,
                    fields=fields)

    def _repr_markdown_(self) -> str:
        """The comparison in a notebook: verdict, estimate, interval, claimed region."""
        return str(self._card().markdown())

    def _repr_html_(self) -> str:
        """The comparison in a notebook, as escaped HTML with MathJax maths."""
        return str(self._card().html())


def _make(label: str, est: MeanEstimate, value: float, tol: float, verdict: Verdict,
          rule: str) -> Comparison:
    comp = Comparison(label, est, value, float(tol), verdict, rule)
    if _RECORD is not None:
        _RECORD.append(comp)
    return comp


def _check_tol(tolerance: float, name: str = "tolerance") -> None:
    if not tolerance >= 0:
        raise ValueError(f"{name} must be >= 0, got {tolerance}")


#: Each rule's tests of the interval ``[low, high]`` against the claimed value ``v`` and the
#: margin ``t``: ``(supported, unsupported)``, as :data:`RULES` states them.
_TESTS: dict[str, Callable[[float, float, float, float], tuple[bool, bool]]] = {
    "equivalence": lambda low, high, v, t: (
        v - t <= low and high <= v + t, high < v - t or low > v + t
    ),
    "at-most": lambda low, high, v, t: (high <= v + t, low > v + t),
    "at-least": lambda low, high, v, t: (low >= v - t, high < v - t),
    "greater": lambda low, high, v, t: (low > v, high < v + t),
}


#: The docstring parts the four rules share (:func:`moetheory._doccer.fill_doc`); the two
#: bounds fill in their ``side`` and how the ``slack`` moves the bound.
_DOC_PARTS = {
    "label_estimate": (
        "label : str\n"
        "    What is compared, as printed in reports.\n"
        "estimate : MeanEstimate\n"
        "    The estimate and its confidence interval :math:`[\\ell, u]`."
    ),
    "returns": (
        "Returns\n"
        "-------\n"
        "Comparison\n"
        "    The verdict with everything it rests on."
    ),
    "returns_raises": (
        "%(returns)s\n\n"
        "Raises\n"
        "------\n"
        "ValueError\n"
        "    If ``tolerance`` is negative or NaN."
    ),
    "bound_parameters": (
        "Parameters\n"
        "----------\n"
        "%(label_estimate)s\n"
        "bound : float\n"
        "    The claimed %(side)s bound :math:`b`.\n"
        "tolerance : float\n"
        "    Slack :math:`t \\ge 0` %(slack)s the bound (default 0).\n\n"
        "%(returns_raises)s"
    ),
}


def _decide(rule: str, label: str, estimate: MeanEstimate, value: float, tolerance: float,
            name: str = "tolerance") -> Comparison:
    """The comparison of ``estimate`` with the claimed ``value`` by ``rule`` (:data:`RULES`).

    The margin ``tolerance`` (called ``name`` in errors) is checked first, then the claimed
    value goes through the calibration hook. The equivalence rule lets ``unsupported`` win
    when both tests pass (only an interval with ``low > high`` can pass both), the one-sided
    rules ``supported``.
    """
    _check_tol(tolerance, name)
    v = _claimed(rule, label, value, tolerance)
    supported, unsupported = _TESTS[rule](estimate.low, estimate.high, v, tolerance)
    if unsupported and (rule == "equivalence" or not supported):
        verdict = Verdict.UNSUPPORTED
    elif supported:
        verdict = Verdict.SUPPORTED
    else:
        verdict = Verdict.INCONCLUSIVE
    return _make(label, estimate, v, tolerance, verdict, rule)


@fill_doc(_DOC_PARTS)
def compare(label: str, estimate: MeanEstimate, reference: float, tolerance: float) -> Comparison:
    """Equivalence: is the mean within ``tolerance`` of ``reference``?

    Parameters
    ----------
    %(label_estimate)s
    reference : float
        The claimed value :math:`r`.
    tolerance : float
        Half-width :math:`t \\ge 0` of the band, fixed before looking.

    %(returns_raises)s

    See Also
    --------
    at_most, at_least : one-sided bounds.
    combine : verdict of several comparisons.

    Notes
    -----
    With interval :math:`[\\ell, u]`, reference :math:`r`, tolerance :math:`t`:
    ``supported`` iff :math:`r - t \\le \\ell` and :math:`u \\le r + t` (both one-sided
    tests of TOST reject); ``unsupported`` iff :math:`u < r - t` or :math:`\\ell > r + t`;
    ``inconclusive`` otherwise. If the interval covers the mean :math:`\\mu`, a supported
    verdict implies :math:`|\\mu - r| \\le t` and an unsupported one :math:`|\\mu - r| > t`.

    Examples
    --------
    >>> from moetheory.stats import mean_ci
    >>> est = mean_ci([0.98, 1.01, 1.02, 0.99], alpha=0.01)
    >>> compare("E[X]", est, reference=1.0, tolerance=0.1).verdict
    <Verdict.SUPPORTED: 'supported'>
    >>> compare("E[X]", est, reference=1.0, tolerance=0.01).verdict
    <Verdict.INCONCLUSIVE: 'inconclusive'>
    >>> compare("E[X]", est, reference=2.0, tolerance=0.01).verdict
    <Verdict.UNSUPPORTED: 'unsupported'>
    """
    return _decide("equivalence", label, estimate, reference, tolerance)


@fill_doc({**_DOC_PARTS, "side": "upper", "slack": "added to"})
def at_most(label: str, estimate: MeanEstimate, bound: float, tolerance: float = 0.0) -> Comparison:
    """Upper bound: is the mean at most ``bound`` (up to ``tolerance``)?

    %(bound_parameters)s

    See Also
    --------
    at_least : the lower bound.
    compare : equivalence.

    Notes
    -----
    ``supported`` iff :math:`u \\le b + t`; ``unsupported`` iff :math:`\\ell > b + t`;
    ``inconclusive`` otherwise.

    Examples
    --------
    >>> at_most("gap", MeanEstimate(0.5, 0.4, 0.6, 10, 0.95), 0.2).verdict
    <Verdict.UNSUPPORTED: 'unsupported'>
    >>> at_most("gap", MeanEstimate(0.1, -0.3, 0.4, 10, 0.95), 0.2).verdict
    <Verdict.INCONCLUSIVE: 'inconclusive'>
    >>> at_most("gap", MeanEstimate(-2.0, -3.0, -1.0, 10, 0.95), 0.2).verdict
    <Verdict.SUPPORTED: 'supported'>
    """
    return _decide("at-most", label, estimate, bound, tolerance)


@fill_doc({**_DOC_PARTS, "side": "lower", "slack": "taken off"})
def at_least(
    label: str, estimate: MeanEstimate, bound: float, tolerance: float = 0.0
) -> Comparison:
    """Lower bound: is the mean at least ``bound`` (up to ``tolerance``)?

    %(bound_parameters)s

    See Also
    --------
    at_most : the upper bound.
    greater : a strict direction with a smallest meaningful effect.

    Notes
    -----
    ``supported`` iff :math:`\\ell \\ge b - t`; ``unsupported`` iff :math:`u < b - t`;
    ``inconclusive`` otherwise.

    Examples
    --------
    >>> at_least("share", MeanEstimate(0.9, 0.85, 0.95, 50, 0.99), 0.8).verdict
    <Verdict.SUPPORTED: 'supported'>
    """
    return _decide("at-least", label, estimate, bound, tolerance)


@fill_doc(_DOC_PARTS)
def greater(
    label: str, estimate: MeanEstimate, threshold: float, effect: float = 0.0
) -> Comparison:
    """Direction: is the mean above ``threshold``?

    Parameters
    ----------
    %(label_estimate)s
    threshold : float
        The threshold :math:`c` the mean must exceed.
    effect : float
        Smallest meaningful effect :math:`e \\ge 0` (default 0).

    %(returns)s

    Raises
    ------
    ValueError
        If ``effect`` is negative or NaN.

    See Also
    --------
    at_least : a bound with slack.

    Notes
    -----
    ``supported`` iff :math:`\\ell > c` (significantly above); else ``unsupported`` iff
    :math:`u < c + e` (significantly short of the smallest meaningful effect
    :math:`e \\ge 0`); ``inconclusive`` otherwise.

    Examples
    --------
    >>> greater("A - B", MeanEstimate(1.0, 0.5, 1.5, 10, 0.95), 0.0, 0.1).verdict
    <Verdict.SUPPORTED: 'supported'>
    >>> greater("A - B", MeanEstimate(0.0, -0.1, 0.05, 10, 0.95), 0.0, 0.1).verdict
    <Verdict.UNSUPPORTED: 'unsupported'>
    """
    return _decide("greater", label, estimate, threshold, effect, "effect")


def combine(verdicts: Sequence[Verdict]) -> Verdict:
    """Overall verdict of several comparisons of one claim.

    Parameters
    ----------
    verdicts : sequence of Verdict
        At least one.

    Returns
    -------
    Verdict
        Any ``error``, ``refuted``, ``unsupported`` wins (in that order), then any
        ``inconclusive``; all ``proved`` gives ``proved``, otherwise ``supported``.

    Raises
    ------
    ValueError
        If ``verdicts`` is empty.

    See Also
    --------
    compare, at_most, at_least, greater : the comparisons combined.

    Notes
    -----
    Each comparison's interval is built at the claim's level divided by the number of
    comparisons (Bonferroni), so the combined verdict keeps the claim's error level.

    Examples
    --------
    >>> combine([Verdict.SUPPORTED, Verdict.UNSUPPORTED])
    <Verdict.UNSUPPORTED: 'unsupported'>
    """
    if not verdicts:
        raise ValueError("combine needs at least one verdict")
    for v in (Verdict.ERROR, Verdict.REFUTED, Verdict.UNSUPPORTED, Verdict.INCONCLUSIVE):
        if v in verdicts:
            return v
    return Verdict.PROVED if all(v is Verdict.PROVED for v in verdicts) else Verdict.SUPPORTED
