"""Verdicts as assertions: run a claim in this process and fail with its evidence."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from moetheory.engine.context import PROFILES, CheckContext, claim_seed
from moetheory.engine.display import shown_evidence
from moetheory.engine.levels import FAMILY_ALPHA
from moetheory.engine.registry import (
    BUILTIN_FAMILY,
    Claim,
    claim,
    get_claim,
    load_checks,
    registered,
    unregister,
)
from moetheory.engine.runner import RunSettings, claim_context
from moetheory.engine.verdicts import Outcome, Verdict, outcome_payload

__all__ = [
    "PASSING",
    "TemporaryClaims",
    "VerdictError",
    "assert_verdict",
    "check_context",
    "failure_message",
    "run_claim",
]

#: The verdicts that pass by default: an exact proof or calibrated support.
PASSING: frozenset[Verdict] = frozenset({Verdict.PROVED, Verdict.SUPPORTED})

#: Evidence longer than this (as compact JSON) is cut in failure messages.
_EVIDENCE_CHARS = 2000


class VerdictError(AssertionError):
    """A verdict other than the one expected; the message carries summary and evidence.

    Parameters
    ----------
    message : str
        The failure message (:func:`failure_message`).
    outcome : Outcome or dict, optional
        What was checked.

    See Also
    --------
    assert_verdict : raises it.

    Notes
    -----
    A subclass of :class:`AssertionError`, so pytest reports it as a failed assertion.

    Examples
    --------
    >>> str(VerdictError("claim x: expected proved, got refuted"))
    'claim x: expected proved, got refuted'
    """

    def __init__(self, message: str, outcome: Outcome | Mapping[str, Any] | None = None):
        super().__init__(message)
        self.outcome = outcome


def _master_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return seed


def _profile(profile: Any) -> str:
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    return str(profile)


def check_context(name: str, *, profile: str = "quick", seed: int = 0,
                  alpha: float = FAMILY_ALPHA) -> CheckContext:
    """A check context for code that is not a registered claim (a test, a notebook cell).

    Parameters
    ----------
    name : str
        Names the context (a test's node ID); its seed derives from it.
    profile : {"quick", "full"}
        The budget.
    seed : int
        Master seed (non-negative).
    alpha : float
        Error level in (0, 1) (default the family level, 0.05).

    Returns
    -------
    CheckContext
        Seed :func:`~moetheory.engine.context.claim_seed` of ``seed`` and ``name``.

    Raises
    ------
    ValueError
        For a bad ``profile``, ``seed`` or ``alpha``.

    See Also
    --------
    run_claim : the context of a registered claim instead.

    Notes
    -----
    What the pytest fixture ``moetheory_ctx`` gives each test.

    Examples
    --------
    >>> ctx = check_context("test_mine", seed=3)
    >>> ctx.profile, ctx.seed == check_context("test_mine", seed=3).seed
    ('quick', True)
    """
    master = _master_seed(seed)
    return CheckContext(name, claim_seed(master, name), _profile(profile), alpha,
                        master_seed=master)


def run_claim(claim_or_id: Claim | str, *, profile: str = "quick", seed: int = 0) -> Outcome:
    """Run a registered claim's check in this process and return its outcome.

    Parameters
    ----------
    claim_or_id : Claim or str
        The claim or its ID (the catalogue is loaded to find an ID not registered yet).
    profile : {"quick", "full"}
        The budget.
    seed : int
        The run's master seed (non-negative).

    Returns
    -------
    Outcome
        What the check returned, validated.

    Raises
    ------
    KeyError
        For an unknown claim ID.
    ValueError
        For a bad ``profile`` or ``seed``.
    TypeError
        If the check does not return a well-formed Outcome.

    See Also
    --------
    moetheory.verify : the isolated run (own process, limits, reports).
    assert_verdict : run and assert.

    Notes
    -----
    The context is the one ``moetheory verify --seed SEED --profile PROFILE`` gives the
    claim (its seed, its family's share of the error level), so both give the same
    verdict. Unlike ``verify`` the check runs here, without time or memory limits, and an
    exception in it propagates with its traceback.

    Examples
    --------
    >>> run_claim("pcr.experts.param-count").verdict
    <Verdict.REFUTED: 'refuted'>
    """
    if isinstance(claim_or_id, str):
        try:
            found = get_claim(claim_or_id)
        except KeyError:
            load_checks()
            found = get_claim(claim_or_id)
    elif isinstance(claim_or_id, Claim):
        found = claim_or_id
    else:
        raise TypeError(f"claim_or_id must be a Claim or a claim ID, got {claim_or_id!r}")
    settings = RunSettings(seed=_master_seed(seed), profile=_profile(profile))
    outcome = found.check(claim_context(found.id, settings))
    outcome_payload(outcome)  # TypeError naming the malformed field
    return outcome


def _expected(expected: Any) -> frozenset[Verdict]:
    if expected is None:
        return PASSING
    items = [expected] if isinstance(expected, str | Verdict) else expected
    try:
        out = frozenset(Verdict(v) for v in items)
    except (TypeError, ValueError):
        raise ValueError(
            f"expected must be a verdict or verdicts among {[v.value for v in Verdict]}, "
            f"got {expected!r}"
        ) from None
    if not out:
        raise ValueError("expected must name at least one verdict")
    return out


def _names(verdicts: Iterable[Verdict]) -> str:
    order = [v for v in Verdict if v in set(verdicts)]
    return " or ".join(v.value for v in order)


def _compact(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _EVIDENCE_CHARS else text[:_EVIDENCE_CHARS] + " ..."


def failure_message(entry: Mapping[str, Any], expected: Iterable[Verdict] = PASSING,
                    name: str | None = None) -> str:
    """The message of a verdict that was not expected: summary, counterexample, evidence.

    Parameters
    ----------
    entry : mapping
        An outcome's :meth:`~moetheory.engine.verdicts.Outcome.to_dict` or a report entry.
    expected : iterable of Verdict
        The verdicts that would have passed.
    name : str, optional
        What was checked (default the entry's ``id``, else "outcome").

    Returns
    -------
    str
        First line ``<name>: expected <verdicts>, got <verdict>``, then the summary, a
        counterexample (evidence keys naming one), the readings, a traceback if the check
        raised, and the evidence as compact JSON (cut after 2000 characters; without the
        typeset forms a check declares for the notebook display).

    See Also
    --------
    assert_verdict : raises with it.

    Notes
    -----
    Plain text, for pytest's failure report and for logs.

    Examples
    --------
    >>> entry = Outcome(Verdict.REFUTED, "x = 2 fails", {"counterexample": {"x": 2}}).to_dict()
    >>> print(failure_message(entry, name="claim mine.x"))
    claim mine.x: expected proved or supported, got refuted
      summary: x = 2 fails
      counterexample: {"x": 2}
    """
    label = name or (f"claim {entry['id']}" if "id" in entry else "outcome")
    lines = [f"{label}: expected {_names(expected)}, got {entry.get('verdict', '?')}",
             f"  summary: {entry.get('summary', '')}"]
    evidence = entry.get("evidence") or {}
    evidence = shown_evidence(evidence) if isinstance(evidence, Mapping) else {"value": evidence}
    shown = set()
    for key, value in evidence.items():
        if "counterexample" in str(key).lower():
            lines.append(f"  {key}: {_compact(value)}")
            shown.add(key)
    if evidence.get("reason"):
        if evidence["reason"] != entry.get("summary"):
            lines.append(f"  reason: {evidence['reason']}")
        shown.add("reason")
    for reading in entry.get("readings") or []:
        if isinstance(reading, Mapping):
            lines.append(f"  reading {reading.get('name', '?')}: {reading.get('verdict', '?')}"
                         f" — {reading.get('summary', '')}")
    trace = evidence.get("traceback")
    if isinstance(trace, str):
        lines.append("  traceback:\n" + "\n".join("    " + t for t in trace.splitlines()))
        shown.add("traceback")
    rest = {k: v for k, v in evidence.items() if k not in shown}
    if rest:
        lines.append(f"  evidence: {_compact(rest)}")
    return "\n".join(lines)


def _entries(subject: Any, profile: str, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """``(name, entry)`` for each verdict ``subject`` holds."""
    if isinstance(subject, Outcome):
        return [("outcome", outcome_payload(subject))]
    if isinstance(subject, Claim | str):
        found = subject if isinstance(subject, Claim) else None
        outcome = run_claim(subject, profile=profile, seed=seed)
        cid = found.id if found is not None else subject
        return [(f"claim {cid}", outcome_payload(outcome))]
    if isinstance(subject, Mapping) and isinstance(subject.get("claims"), list):
        return [(f"claim {e.get('id', '?')}", dict(e)) for e in subject["claims"]]
    if isinstance(subject, Mapping) and "verdict" in subject:
        return [(f"claim {subject['id']}" if "id" in subject else "entry", dict(subject))]
    to_outcome = getattr(subject, "to_outcome", None)
    if callable(to_outcome):
        return [(type(subject).__name__, outcome_payload(to_outcome()))]
    raise TypeError(
        "assert_verdict takes an Outcome, a result with .to_outcome(), a Claim, a claim ID, "
        f"a report entry or the report moetheory.verify returns; got {type(subject).__name__}"
    )


def assert_verdict(
    subject: Any,
    expected: Verdict | str | Iterable[Verdict | str] | None = None,
    *,
    profile: str = "quick",
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Assert that ``subject``'s verdict is one of ``expected``; fail with its evidence.

    Parameters
    ----------
    subject : Outcome, result, Claim, str or dict
        An :class:`~moetheory.engine.verdicts.Outcome`; a result of the public functions
        (anything with ``.to_outcome()``, e.g.
        :class:`~moetheory.stats.expectation.ExpectationResult`); a registered claim or
        its ID (run here by :func:`run_claim`); a report entry; or the whole report
        :func:`moetheory.verify` returns (every claim in it must pass).
    expected : verdict or iterable of verdicts, optional
        The verdicts that pass (names or :class:`~moetheory.engine.verdicts.Verdict`);
        default proved or supported.
    profile : {"quick", "full"}
        The budget when a claim is run.
    seed : int
        The master seed when a claim is run.

    Returns
    -------
    list of dict
        The entries checked (each an outcome's JSON form), when all pass.

    Raises
    ------
    VerdictError
        An :class:`AssertionError`, when a verdict is not expected: the message gives the
        summary, the counterexample, the readings and the evidence
        (:func:`failure_message`) of every failing entry.
    ValueError
        For a bad ``expected``, ``profile`` or ``seed``.
    TypeError
        For a ``subject`` of another type.

    See Also
    --------
    run_claim : runs a claim here.
    moetheory.verify : runs claims in their own processes.

    Notes
    -----
    The raising form of ``verify``: ``assert_verdict(moetheory.verify("mine.*"))`` fails
    with every claim that was not proved or supported. Under pytest the plugin does this
    for every ``@claim`` of a test file.

    Examples
    --------
    >>> from moetheory import Outcome, Verdict
    >>> _ = assert_verdict(Outcome(Verdict.PROVED, "1 + 1 = 2"))
    >>> assert_verdict(Outcome(Verdict.REFUTED, "x = 2 fails", {"x": 2}))
    Traceback (most recent call last):
    ...
    moetheory.testing._assert.VerdictError: outcome: expected proved or supported, got refuted
      summary: x = 2 fails
      evidence: {"x": 2}
    >>> _ = assert_verdict(Outcome(Verdict.REFUTED, "x = 2 fails"), expected="refuted")
    """
    want = _expected(expected)
    _profile(profile)
    _master_seed(seed)
    entries = _entries(subject, profile, seed)
    failures = [failure_message(e, want, name) for name, e in entries
                if str(e.get("verdict")) not in {v.value for v in want}]
    if failures:
        raise VerdictError("\n".join(failures), entries[0][1] if len(entries) == 1 else None)
    return [e for _, e in entries]


class TemporaryClaims:
    """Register claims for a while; remove them, and any other claim registered meanwhile.

    Parameters
    ----------
    defaults : keyword arguments
        Defaults of :func:`~moetheory.engine.registry.claim`'s options for every claim
        added (e.g. ``reading="..."``); ``statement`` defaults to a sentence naming the ID.

    Attributes
    ----------
    added : list of str
        The IDs registered through this object.

    See Also
    --------
    moetheory.engine.registry.claim : what it calls.

    Notes
    -----
    Used as a context manager (or closed with :meth:`close`): on exit every claim added
    through it, and every other claim outside the package's own that was registered since
    it was made (by ``@claim`` in the test's code), is unregistered, so a test's claims
    never leak into the next. The pytest fixture ``moetheory_claims`` yields one.

    Examples
    --------
    Here, inside this package, a claim states its reading, seed files and section (a
    user's claim need not):

    >>> from moetheory import Outcome, Verdict, get_claim
    >>> with TemporaryClaims(reading="as stated", seed_files=["notes"], section="Notes") as add:
    ...     _ = add("mine.trivial", lambda ctx: Outcome(Verdict.PROVED, "ok"))
    ...     get_claim("mine.trivial").statement
    'mine.trivial (registered for a test)'
    >>> "mine.trivial" in {c.id for c in registered()}
    False
    """

    def __init__(self, **defaults: Any) -> None:
        self._defaults = defaults
        self._before = {c.id for c in registered()}
        self.added: list[str] = []

    def __call__(self, claim_id: str, check: Any = None, **options: Any) -> Any:
        """Register ``check`` as ``claim_id`` (or return a decorator when ``check`` is None).

        Parameters
        ----------
        claim_id : str
            The ID.
        check : callable, optional
            ``check(ctx) -> Outcome``.
        **options
            Options of :func:`~moetheory.engine.registry.claim`.

        Returns
        -------
        callable
            The check, or a decorator registering one.
        """
        kw = {**self._defaults, **options}
        kw.setdefault("statement", f"{claim_id} (registered for a test)")
        register = claim(claim_id, **kw)

        def decorate(func: Any) -> Any:
            register(func)
            self.added.append(claim_id)
            return func

        return decorate if check is None else decorate(check)

    def close(self) -> None:
        """Unregister what was added (see Notes of the class)."""
        for cid in self.added:
            unregister(cid)
        self.added.clear()
        for c in registered():
            if c.family != BUILTIN_FAMILY and c.id not in self._before:
                unregister(c.id)

    def __enter__(self) -> TemporaryClaims:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
