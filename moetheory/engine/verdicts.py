"""Verdicts and the structured outcome every check returns.

A check returns an :class:`Outcome`: one :class:`Verdict`, a one-line summary, the evidence
(a JSON-serialisable mapping) and, where the seed is ambiguous, one :class:`Reading` per
reading checked.
"""

from __future__ import annotations

import enum
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from moetheory.engine.display import Card, entry_card
from moetheory.engine.mathtext import sympy_text_to_latex

__all__ = [
    "Outcome",
    "Reading",
    "Verdict",
    "checked_payload",
    "jsonable",
    "outcome_payload",
    "symbolic_evidence",
]


class Verdict(str, enum.Enum):
    """The six verdicts a claim can get.

    Parameters
    ----------
    value : str
        One of ``"proved"``, ``"refuted"``, ``"supported"``, ``"unsupported"``,
        ``"inconclusive"``, ``"error"``.

    See Also
    --------
    moetheory.stats.combine : the verdict of several comparisons.

    Raises
    ------
    ValueError
        For a string that is not one of the six values.
    TypeError
        From :class:`enum.Enum` for malformed construction.

    Notes
    -----
    ``proved``/``refuted`` rest on an exact certificate or counterexample;
    ``supported``/``unsupported`` on a confidence interval lying wholly inside/outside the
    claimed region; ``inconclusive`` otherwise (or a limit was hit); ``error`` when the
    check failed. The rules are on the verdicts page of the docs.

    Examples
    --------
    >>> Verdict("proved") is Verdict.PROVED
    True
    >>> Verdict.SUPPORTED.is_exact
    False
    """

    PROVED = "proved"
    REFUTED = "refuted"
    SUPPORTED = "supported"
    UNSUPPORTED = "unsupported"
    INCONCLUSIVE = "inconclusive"
    ERROR = "error"

    @property
    def is_exact(self) -> bool:
        """Whether the verdict rests on an exact certificate (proof or counterexample)."""
        return self in (Verdict.PROVED, Verdict.REFUTED)

    def __str__(self) -> str:
        return self.value


def symbolic_evidence(expr: Any) -> dict[str, str]:
    """Render a SymPy object as evidence: its SymPy text and its LaTeX.

    Parameters
    ----------
    expr : sympy object or anything :func:`sympy.sympify` accepts
        The expression.

    Returns
    -------
    dict
        ``{"sympy": str, "latex": str}``.

    See Also
    --------
    jsonable : applies it to every SymPy object inside evidence.

    Notes
    -----
    The SymPy text is :func:`sympy.sstr`, which round-trips through :func:`sympy.sympify`.

    Examples
    --------
    >>> import sympy as sp
    >>> symbolic_evidence(sp.Symbol("x") ** 2)
    {'sympy': 'x**2', 'latex': 'x^{2}'}
    """
    import sympy as sp

    expr = sp.sympify(expr)
    return {"sympy": sp.sstr(expr), "latex": sp.latex(expr)}


def jsonable(value: Any) -> Any:
    """Convert evidence to plain JSON data, deterministically.

    NumPy scalars and arrays become numbers and lists, SymPy objects become
    :func:`symbolic_evidence`, non-finite floats become the strings ``"nan"``, ``"inf"``,
    ``"-inf"``, and mapping keys become strings (order preserved).

    Parameters
    ----------
    value : object
        Evidence: numbers, strings, booleans, ``None``, NumPy scalars and arrays, SymPy
        objects, mappings, sequences, sets, :class:`Verdict` and :class:`Reading`.

    Returns
    -------
    object
        Plain JSON data; sets are sorted by their string form.

    Raises
    ------
    TypeError
        For a value of any other type (naming the type).

    See Also
    --------
    outcome_payload : applies it to a whole outcome.

    Notes
    -----
    Deterministic: the same evidence always gives the same JSON, byte for byte.

    Examples
    --------
    >>> import numpy as np
    >>> jsonable({"n": np.int64(3), "v": np.array([0.5, np.inf])})
    {'n': 3, 'v': [0.5, 'inf']}
    """
    if isinstance(value, Verdict):
        return value.value
    if isinstance(value, bool | None | str):
        return value
    # NumPy and SymPy values can only exist once their modules are imported: look them up
    # there rather than import the libraries for evidence that holds none.
    np = sys.modules.get("numpy")
    if isinstance(value, int) or (np is not None and isinstance(value, np.integer)):
        return int(value)
    if isinstance(value, float) or (np is not None and isinstance(value, np.floating)):
        x = float(value)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if np is not None and isinstance(value, np.bool_):
        return bool(value)
    if np is not None and isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    sp = sys.modules.get("sympy")
    if sp is not None and isinstance(value, sp.Basic | sp.MatrixBase):
        return symbolic_evidence(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Reading):
        return value.to_dict()
    if isinstance(value, Sequence | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return [jsonable(v) for v in items]
    raise TypeError(
        f"evidence value of type {type(value).__name__} is not JSON-serialisable; "
        "convert it to numbers, strings, lists or dicts (or a SymPy expression)"
    )


@dataclass
class Reading:
    """The verdict under one reading of an ambiguous or garbled statement.

    Parameters
    ----------
    name : str
        Short identifier of the reading, e.g. ``"ordered-pairs"``.
    reading : str
        The precise statement checked under this reading.
    verdict : Verdict
        The verdict for this reading.
    summary : str
        One line saying why.
    evidence : mapping
        Structured, JSON-serialisable evidence.
    derivation : str
        Optional worked derivation (MyST Markdown with ``$...$`` maths).
    reading_latex : str
        Optional typeset form of ``reading``: Markdown prose with every formula inside
        ``$...$`` (prose stays outside the dollars). Shown in the docs instead of
        ``reading``; empty means "``reading`` has no mathematics worth typesetting".
    summary_latex : str
        Optional typeset form of ``summary``, written like ``reading_latex``.

    See Also
    --------
    Outcome.from_readings : the outcome of several readings.

    Notes
    -----
    The claim's verdict is that of its primary (first) reading; the other readings are
    reported beside it and never change it.

    Examples
    --------
    >>> r = Reading("literal", "as written", Verdict.REFUTED, "counterexample x = 2")
    >>> r.to_dict()["verdict"]
    'refuted'
    """

    name: str
    reading: str
    verdict: Verdict
    summary: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    derivation: str = ""
    reading_latex: str = ""
    summary_latex: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form stored in reports (every key always present).

        An empty ``reading_latex`` / ``summary_latex`` is filled with
        :func:`~moetheory.engine.mathtext.sympy_text_to_latex` of the plain text, so every
        SymPy expression a check prints is typeset.

        Returns
        -------
        dict
            ``name``, ``reading``, ``verdict``, ``summary``, ``evidence`` (through
            :func:`jsonable`), ``derivation``, ``reading_latex``, ``summary_latex``.

        Examples
        --------
        >>> sorted(Reading("a", "b", Verdict.PROVED, "c").to_dict())[:3]
        ['derivation', 'evidence', 'name']
        """
        return {
            "name": self.name,
            "reading": self.reading,
            "verdict": Verdict(self.verdict).value,
            "summary": self.summary,
            "evidence": jsonable(self.evidence),
            "derivation": self.derivation,
            "reading_latex": self.reading_latex or sympy_text_to_latex(self.reading),
            "summary_latex": self.summary_latex or sympy_text_to_latex(self.summary),
        }

    def _card(self) -> Card:
        return entry_card(_display_payload(self))

    def _repr_markdown_(self) -> str:
        """The reading in a notebook: verdict, typeset summary and reading, evidence."""
        return self._card().markdown()

    def _repr_html_(self) -> str:
        """The reading in a notebook, as escaped HTML with MathJax maths."""
        return self._card().html()


@dataclass
class Outcome:
    """What a check returns.

    Parameters
    ----------
    verdict : Verdict
        The claim's verdict. For a claim with several readings this is the verdict of
        the reading named in the claim's registration (its primary reading), unless the
        check says otherwise.
    summary : str
        One line a reader can act on.
    evidence : mapping
        Certificate, counterexample or statistic; JSON-serialisable via :func:`jsonable`.
    readings : list of Reading
        One entry per reading checked, primary reading first (may be empty).
    derivation : str
        Worked derivation in MyST Markdown, shown by ``moetheory show`` and in the docs.
    statement_latex : str
        Optional typeset form of the claim's statement as this check reads it: Markdown
        prose with every formula in LaTeX inside ``$...$`` (one dollar sign on each side).
        The docs show it instead of the plain catalogue statement.
    summary_latex : str
        Optional typeset form of ``summary``, written like ``statement_latex``.

    See Also
    --------
    Reading : one reading's verdict.
    outcome_payload : validates an outcome.

    Notes
    -----
    The ``*_latex`` fields sit beside the plain text, never instead of it: the plain text
    is what terminals, logs and JSON readers see; the LaTeX form is what the documentation
    typesets. Formulas in ``evidence`` are typeset from :func:`symbolic_evidence`.

    Examples
    --------
    >>> o = Outcome(Verdict.PROVED, "residual simplifies to 0", {"residual": 0})
    >>> o.to_dict()["verdict"]
    'proved'
    """

    verdict: Verdict
    summary: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    readings: list[Reading] = field(default_factory=list)
    derivation: str = ""
    statement_latex: str = ""
    summary_latex: str = ""

    @classmethod
    def from_readings(
        cls,
        readings: list[Reading],
        summary: str | None = None,
        *,
        summary_latex: str = "",
        statement_latex: str = "",
        derivation: str = "",
        **evidence: Any,
    ) -> Outcome:
        """Build an outcome whose verdict is that of the first (primary) reading.

        Parameters
        ----------
        readings : list of Reading
            Primary reading first; at least one.
        summary : str, optional
            Default ``"<primary name>: <primary summary>"``.
        summary_latex, statement_latex : str
            Typeset forms (see :class:`Outcome`).
        derivation : str
            The claim's worked derivation, covering its readings (see :class:`Outcome`).
        **evidence
            The outcome's evidence.

        Returns
        -------
        Outcome
            With the primary reading's verdict and every reading attached.

        Raises
        ------
        ValueError
            If ``readings`` is empty.

        Examples
        --------
        >>> r1 = Reading("literal", "as written", Verdict.REFUTED, "counterexample")
        >>> r2 = Reading("fixed", "with the sign fixed", Verdict.PROVED, "identity")
        >>> Outcome.from_readings([r1, r2]).verdict
        <Verdict.REFUTED: 'refuted'>
        """
        if not readings:
            raise ValueError("readings must contain at least one Reading")
        primary = readings[0]
        text = summary or f"{primary.name}: {primary.summary}"
        if not summary_latex and not summary and primary.summary_latex:
            summary_latex = f"{primary.name}: {primary.summary_latex}"
        return cls(
            Verdict(primary.verdict),
            text,
            evidence,
            list(readings),
            derivation=derivation,
            statement_latex=statement_latex,
            summary_latex=summary_latex,
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form stored in reports (every key always present).

        An empty ``summary_latex`` is filled with
        :func:`~moetheory.engine.mathtext.sympy_text_to_latex` of ``summary``.

        Returns
        -------
        dict
            ``verdict``, ``summary``, ``evidence``, ``readings``, ``derivation``,
            ``statement_latex``, ``summary_latex``.

        Examples
        --------
        >>> Outcome(Verdict.PROVED, "ok").to_dict()["readings"]
        []
        """
        return {
            "verdict": Verdict(self.verdict).value,
            "summary": self.summary,
            "evidence": jsonable(self.evidence),
            "readings": [Reading.to_dict(r) for r in self.readings],
            "derivation": self.derivation,
            "statement_latex": self.statement_latex,
            "summary_latex": self.summary_latex or sympy_text_to_latex(self.summary),
        }

    def _card(self) -> Card:
        return entry_card(_display_payload(self))

    def _repr_markdown_(self) -> str:
        """The outcome in a notebook: verdict, typeset summary, evidence, readings,
        derivation (formulas from :func:`symbolic_evidence` typeset)."""
        return self._card().markdown()

    def _repr_html_(self) -> str:
        """The outcome in a notebook, as escaped HTML with MathJax maths."""
        return self._card().html()


def _display_payload(result: Outcome | Reading) -> dict[str, Any]:
    """``result.to_dict()``, or, when its evidence cannot be turned into JSON, its verdict
    and texts with the reason in place of the evidence (a notebook shows what it can, never
    a traceback)."""
    try:
        return result.to_dict()
    except (TypeError, ValueError) as exc:
        fields = {k: getattr(result, k) for k in ("verdict", "summary", "name", "reading")
                  if isinstance(getattr(result, k, None), str)}
        return {**fields, "evidence": {"evidence (not JSON-serialisable)": f"{exc}"}}


def _check_fields(obj: Any, where: str, fields: Sequence[tuple[str, type]]) -> None:
    for name, types in fields:
        value = getattr(obj, name, None)
        if not isinstance(value, types):
            want = types.__name__
            raise TypeError(
                f"malformed Outcome: {where}{name} must be {want}, got {type(value).__name__}"
            )
    verdict = getattr(obj, "verdict", None)
    try:
        Verdict(verdict)
    except ValueError:
        raise TypeError(
            f"malformed Outcome: {where}verdict must be a Verdict, got {verdict!r}"
        ) from None


def outcome_payload(outcome: Any) -> dict[str, Any]:
    """Validate what a check returned and convert it to its report payload.

    Parameters
    ----------
    outcome : object
        What the check returned.

    Returns
    -------
    dict
        :meth:`Outcome.to_dict` of the validated outcome.

    Raises
    ------
    TypeError
        Naming the malformed field: the value is not an :class:`Outcome`, its verdict is
        not a :class:`Verdict`, its summary or derivation is not a string, its evidence is
        not a mapping, its readings are not a list of valid :class:`Reading` objects, or
        the evidence cannot be turned into JSON.

    See Also
    --------
    jsonable : the conversion of the evidence.

    Notes
    -----
    The engine calls it on whatever a check returns, so a malformed outcome is an
    ``error`` verdict with the reason, never a crash of the run.

    Examples
    --------
    >>> outcome_payload(Outcome(Verdict.PROVED, "ok"))["verdict"]
    'proved'
    >>> outcome_payload(Outcome(Verdict.PROVED, "ok", evidence=[1, 2]))
    Traceback (most recent call last):
    ...
    TypeError: malformed Outcome: evidence must be Mapping, got list
    """
    if not isinstance(outcome, Outcome):
        raise TypeError(f"check returned {type(outcome).__name__}, not Outcome")
    _check_fields(
        outcome,
        "",
        [("summary", str), ("evidence", Mapping), ("readings", list), ("derivation", str),
         ("statement_latex", str), ("summary_latex", str)],
    )
    for i, reading in enumerate(outcome.readings):
        if not isinstance(reading, Reading):
            raise TypeError(
                f"malformed Outcome: readings[{i}] must be Reading, got {type(reading).__name__}"
            )
        _check_fields(
            reading,
            f"readings[{i}].",
            [("name", str), ("reading", str), ("summary", str), ("evidence", Mapping),
             ("derivation", str), ("reading_latex", str), ("summary_latex", str)],
        )
    # Outcome's own conversion, not an override: what a check returns is data, never code
    # that writes its own report entry.
    return checked_payload(json.loads(json.dumps(Outcome.to_dict(outcome), allow_nan=False)))


#: The fields of a payload (:meth:`Outcome.to_dict`) and of each of its readings
#: (:meth:`Reading.to_dict`), each with the type of its value.
_PAYLOAD_FIELDS: dict[str, type] = {
    "verdict": str, "summary": str, "evidence": dict, "readings": list, "derivation": str,
    "statement_latex": str, "summary_latex": str,
}
_READING_FIELDS: dict[str, type] = {
    "name": str, "reading": str, "verdict": str, "summary": str, "evidence": dict,
    "derivation": str, "reading_latex": str, "summary_latex": str,
}
_VERDICTS = frozenset(v.value for v in Verdict)


#: Deepest evidence accepted: its report entry stays within the depth a report may have
#: to be read back (``moetheory.engine.report.MAX_DEPTH``, 64).
_EVIDENCE_DEPTH = 48


def _json_shaped(value: Any, where: str, depth: int = 0) -> None:
    """Raise ``TypeError`` unless ``value`` is plain JSON data (finite numbers)."""
    if depth > _EVIDENCE_DEPTH:
        raise TypeError(f"{where} is nested more than {_EVIDENCE_DEPTH} levels deep")
    if value is None or type(value) in (bool, int, str):
        return
    if type(value) is float:
        if not math.isfinite(value):
            raise TypeError(f"{where} holds the non-finite number {value!r}")
        return
    if type(value) is list:
        for i, item in enumerate(value):
            _json_shaped(item, f"{where}[{i}]", depth + 1)
        return
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise TypeError(f"{where} has the key {key!r}, not a string")
            _json_shaped(item, f"{where}[{key!r}]", depth + 1)
        return
    raise TypeError(f"{where} holds a {type(value).__name__}, not JSON data")


def _checked_fields(data: Any, fields: Mapping[str, type], where: str) -> dict[str, Any]:
    if type(data) is not dict:
        raise TypeError(f"{where or 'the result'} is a {type(data).__name__}, not an object")
    unknown = sorted(set(data) - set(fields), key=str)
    if unknown:
        raise TypeError(f"{where}{unknown[0]!r} is not a field of a result")
    for name in ("verdict", "summary"):
        if name not in data:
            raise TypeError(f"{where}{name} is missing")
    out: dict[str, Any] = {}
    for name, kind in fields.items():
        value = data.get(name, kind())
        if type(value) is not kind:
            raise TypeError(f"{where}{name} must be {kind.__name__}, got {type(value).__name__}")
        out[name] = value
    if out["verdict"] not in _VERDICTS:
        raise TypeError(f"{where}verdict {out['verdict']!r} is not one of {sorted(_VERDICTS)}")
    _json_shaped(out["evidence"], f"{where}evidence")
    return out


def checked_payload(data: Any) -> dict[str, Any]:
    """Validate a check's result as it reaches the engine (JSON data) and copy it.

    Parameters
    ----------
    data : object
        What a check's process reported: the form of :meth:`Outcome.to_dict`.

    Returns
    -------
    dict
        A new dict with exactly the fields of :meth:`Outcome.to_dict` (a missing optional
        field is empty), each reading with exactly those of :meth:`Reading.to_dict`.

    Raises
    ------
    TypeError
        ``malformed result: ...`` naming the first problem: not an object, a field that
        is not a result's (such as ``id``), a missing ``verdict`` or ``summary``, a value of
        the wrong type, a verdict outside :class:`Verdict`, evidence that is not plain JSON
        data with finite numbers.

    See Also
    --------
    outcome_payload : the conversion of an :class:`Outcome`, which ends with this check.

    Notes
    -----
    A check runs in a process of its own and reports through a pipe; whatever arrives is
    untrusted data. The engine builds each report entry itself from the claim it asked
    for and this validated payload, so a check can decide its own claim's verdict, never
    another entry, field or verdict of the report.

    Examples
    --------
    >>> checked_payload({"verdict": "proved", "summary": "ok"})["readings"]
    []
    >>> checked_payload({"verdict": "banana", "summary": "ok"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: malformed result: verdict 'banana' is not one of ['error', ...]
    >>> checked_payload({"id": "cl.fig2", "verdict": "proved", "summary": "ok"})
    Traceback (most recent call last):
    ...
    TypeError: malformed result: 'id' is not a field of a result
    """
    try:
        out = _checked_fields(data, _PAYLOAD_FIELDS, "")
        out["readings"] = [_checked_fields(r, _READING_FIELDS, f"readings[{i}].")
                           for i, r in enumerate(out["readings"])]
    except TypeError as exc:
        raise TypeError(f"malformed result: {exc}") from None
    return out
