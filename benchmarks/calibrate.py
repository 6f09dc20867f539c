r"""Calibration of every statistical check, both ways: one table row per check.

For each statistical claim the check is run in-process, exactly as ``moetheory verify``
runs it (same per-claim seed, alpha and profile), under ``S`` master seeds, three times:

1. **as shipped**, recording every comparison it decides
   (:func:`moetheory.stats.claimed_values`). The mean of a comparison's estimates over the
   ``S`` runs, :math:`\hat\mu`, stands in for its true value (its error is about
   :math:`1/\sqrt S` of one run's); :math:`h` is the median half-width of its intervals.
   This needs an estimand that is the same on every seed: a comparison whose estimates
   spread across seeds by more than :math:`h` (about four standard errors) is reported as
   not calibratable this way. Checks whose problem instance is drawn from the seed (random
   vectors, random weights) but whose reference is exact declare mode ``reference``
   (:data:`MODES`): the shipped claimed value is the truth of that seed.
2. **true variant**: every comparison's claimed value is replaced by one that holds at the
   truth (equivalence :math:`r = \mu`; at-most :math:`b + t = \mu`; at-least
   :math:`b - t = \mu`; greater :math:`c + e = \mu`, i.e. the boundary).
   Target: ``unsupported`` (any comparison) on at most 1% of seeds.
3. **false variant**: every claimed value is moved past the truth by the tolerance plus
   :math:`\Delta = \max(t, h, 10^{-6}\max(1, |\mu|))` (equivalence
   :math:`r = \mu + t + \Delta`; at-most
   :math:`b + t = \mu - \Delta`; at-least :math:`b - t = \mu + \Delta`; greater
   :math:`c = \mu + \Delta`). Target: each comparison ``supported`` on at most 5% of seeds.

Passes 2 and 3 run a sequential check again (where it stops depends on its verdicts),
reusing the rates cells pass 1 fitted under the same seed (deterministic fits: the same
records); a non-sequential check's comparisons from pass 1 are judged again against the
moved values (:func:`rejudge`), which gives the same verdicts as running it again.

Claims whose statement is false but whose estimator is that of a true twin declare mode
``via:<twin>`` and are calibrated through the twin's row.

Rates come with Clopper-Pearson 95% intervals. The script exits 1 if a limit is missed, so CI
can run ``--budget`` (a few cheap checks on a few seeds) and fail.

**Incremental store.** Each calibrated claim's row is a record
``benchmarks/calibration/<claim>.json`` (:data:`STORE`): seeds, counts, seconds, the UTC date
the *fingerprint* of the check (SHA-256 of the code of the claim function and of the code
it uses, :func:`fingerprint`) and its *behaviour* on :data:`BEHAVIOUR_SEEDS` (a hash of the
verdict, of every comparison and of every number of the report entry of the shipped run,
:func:`behaviour_hash`; and a hash of the whole entry, prose included, :func:`entry_hash`).
``--render docs/calibration.md`` builds the page from every stored record, without running
anything: a record whose fingerprint no longer matches the code is flagged "stale: re-run",
and every statistical claim without a record at :data:`FULL_SEEDS` seeds is listed under
"not yet run", with the reason (:data:`NOT_RUN`) and the exact command. Runs with
``--budget`` or ``--no-save`` store nothing.

**Calibration follows behaviour, not code.** A change of code that leaves a check doing
exactly what it did (a refactor, a moved module) would stale its row under the fingerprint
alone. ``--restamp`` re-runs the shipped pass of every row whose fingerprint changed on the
recorded seeds (minutes, not the hours of a re-run) and compares the hashes
(:func:`restamp`): identical on every seed, the row takes the new fingerprint and records
the restamp; different, it stays stale.

**Typeset labels.** A comparison's label is what the comparison *is* (its key in a row, part
of :func:`behaviour_hash`); how a page typesets it is prose. A check types a label at its
source as :class:`moetheory.stats.Label`, which equals, hashes and serialises as its plain
text and carries its MyST form: the keys and hashes stay those of the plain label, so
adopting it changes the check's fingerprint but not its behaviour, and ``--restamp``
(three seeds) keeps the row and records the typeset forms (:attr:`Row.labels_latex`) the
page then shows. No 100-seed re-run is needed.

Usage::

    python benchmarks/calibrate.py --only 'cl.fig4-5' --seeds 100 --jobs 2   # stores a row
    python benchmarks/calibrate.py --render docs/calibration.md              # the page
    python benchmarks/calibrate.py --restamp --jobs 2       # after a refactor: rows kept
    python benchmarks/calibrate.py --budget                                  # CI
    python benchmarks/calibrate.py --only 'cl.update.*' --seeds 20 --no-save
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import functools
import hashlib
import json
import math
import re
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from moetheory.engine.registry import get_claim, load_checks, registered
from moetheory.engine.report import OutputPathError, check_output_path, write_atomic
from moetheory.engine.runner import RunSettings, claim_context, prepare_worker
from moetheory.engine.verdicts import Verdict, outcome_payload
from moetheory.estimation import experiment as rates_experiment
from moetheory.stats import (
    Comparison,
    Label,
    at_least,
    at_most,
    claimed_values,
    compare,
    greater,
    proportion_ci,
)

__all__ = ["BEHAVIOUR_SEEDS", "BUDGET_CLAIMS", "FULL_SEEDS", "HARNESS", "NOT_RUN", "STORE", "Row",
           "behaviour_hash", "calibrate_claim", "calibrate_claims", "current_behaviour",
           "entry_hash", "fingerprint", "is_sequential", "load_rows", "main", "module_groups",
           "move_for", "render", "restamp", "save_row"]

#: Where the rows are stored, one JSON record per claim.
STORE = Path(__file__).resolve().parent / "calibration"
#: Master seeds a row needs to count as complete.
FULL_SEEDS = 100

#: Claims and seeds of the CI budget (cheap checks that exercise three rules).
BUDGET_CLAIMS = ("cl.update.projection-mean.corrected", "cl.thm1.generalization-bound")
BUDGET_SEEDS = 20
TRUE_LIMIT, FALSE_LIMIT = 0.01, 0.05
#: Master seeds whose shipped runs a row records by :func:`behaviour_hash` (seeds of the run):
#: the check is the calibrated one while it gives the same hashes on them (:func:`restamp`).
BEHAVIOUR_SEEDS = (0, 1, 2)

Key = tuple[str, str]  # (rule, label)
Truth = dict[Key, tuple[float | None, float]]  # (mu or None for the shipped value, h)

#: How each claim's truth is known (default "pooled"; see the module docstring).
MODES: dict[str, str] = {
    "cl.update.projection-mean": "reference",
    "cl.update.projection-mean.corrected": "reference",
    "cl.prop4.generalization.corrected": "reference",
    "cl.prop4.forgetting.corrected": "reference",
    "cl.prop4.generalization": "via:cl.prop4.generalization.corrected",
    "cl.prop4.forgetting": "via:cl.prop4.forgetting.corrected",
}


#: Comparisons a check reports beside its claim but does not claim true (label substring):
#: in mode ``reference`` their reference is not the truth, so they are not calibrated.
#: ``cl.prop4.*.corrected``: the corrected closed forms hold for Gaussian features; the
#: Definition-1 rows show their dependence on isotropy (found by the 100-seed run of
#: session 3: the true variant was unsupported on 100/100 seeds through those rows).
UNCLAIMED: dict[str, str] = {
    "cl.prop4.generalization.corrected": "(Definition 1)",
    "cl.prop4.forgetting.corrected": "(Definition 1)",
}


def move_for(variant: str, truth: Truth) -> Callable[[str, str, float, float], float]:
    """The claimed-value map of a variant; ``truth[key] = (mu, half_width)``, ``mu = None``
    meaning the shipped value is the truth (equivalence comparisons with exact references).
    """

    def move(rule: str, label: str, value: float, tol: float) -> float:
        if (rule, label) not in truth:
            return value
        known, h = truth[(rule, label)]
        mu = value if known is None else known
        delta = max(tol, h, 1e-6 * max(1.0, abs(mu)))  # > 0 even for exact intervals
        if variant == "true":  # the boundary, nudged past rounding to the true side
            eps = 1e-12 * max(1.0, abs(mu), tol)
            return {"equivalence": mu, "at-most": mu - tol + eps, "at-least": mu + tol - eps,
                    "greater": mu - tol - eps}[rule]
        return {"equivalence": mu + tol + delta, "at-most": mu - tol - delta,
                "at-least": mu + tol + delta, "greater": mu + delta}[rule]

    return move


def _final(record: list[Comparison]) -> dict[Key, Comparison]:
    """The last comparison per (rule, label): a sequential check judges at every look."""
    return {(c.rule, c.label): c for c in record}


#: Version of the harness a row was computed with. 2 (session 5): a non-sequential check's
#: comparisons are keyed by occurrence, so readings that repeat a label are calibrated each
#: against its own truth; version 1 kept the last comparison per label, so where a check's
#: readings repeated labels only its last reading was calibrated.
HARNESS = 2


def _numbered(rule: str, label: str, seen: dict[Key, int]) -> str:
    """``label`` made unique within one run: its second and later occurrences (the same
    comparison in another reading of the check) get `` [occurrence j]``."""
    j = seen.get((rule, label), 0)
    seen[(rule, label)] = j + 1
    if j == 0:
        return label
    suffix = f" [occurrence {j + 1}]"
    latex = getattr(label, "latex", "")
    return Label(label + suffix, latex + suffix) if latex else label + suffix


def _labels_latex(keys: object) -> dict[str, str]:
    """The typeset form of each comparison key whose label the check typed
    (:class:`moetheory.stats.Label`), by its text as the page names it (``rule: label``)."""
    return {f"{rule}: {label}": f"{rule}: {label.latex}"
            for rule, label in keys  # type: ignore[attr-defined]
            if getattr(label, "latex", "")}


def _keyed(record: list[Comparison], sequential: bool) -> dict[Key, Comparison]:
    """The comparisons a run calibrates: the final look's of a sequential check
    (:func:`_final`), every comparison by occurrence otherwise."""
    if sequential:
        return _final(record)
    seen: dict[Key, int] = {}
    return {(c.rule, _numbered(c.rule, c.label, seen)): c for c in record}


_SEQUENTIAL: dict[str, bool] = {}


def is_sequential(claim_id: str) -> bool:
    """Whether the claim's check judges at several looks (its code uses ``run_sequential``)."""
    if claim_id not in _SEQUENTIAL:
        load_checks()
        heads = [s.split("\n", 1)[0] for s in _closure_sources(get_claim(claim_id).check)]
        _SEQUENTIAL[claim_id] = any(h.endswith(".run_sequential") for h in heads)
    return _SEQUENTIAL[claim_id]


#: The key under which a run records the claim's own verdict (not a comparison).
CLAIM_KEY: Key = ("claim", "verdict of the claim")
#: The rates cells fitted under one master seed (:data:`moetheory.estimation.experiment._CELLS`).
Fits = dict[tuple[object, ...], list[dict[str, object]]]
Task = tuple[tuple[str, ...], int, tuple[str, ...], dict[str, Truth | None], Fits]
Result = dict[Key, tuple[float, float, str]]
#: The decision rule of each :attr:`Comparison.rule`, for :func:`rejudge`.
RULE_FUNCTIONS: dict[str, Callable[..., Comparison]] = {
    "equivalence": compare, "at-most": at_most, "at-least": at_least, "greater": greater}


def _result(record: list[Comparison], sequential: bool, verdict: str) -> Result:
    result = {k: (c.estimate.mean, (c.estimate.high - c.estimate.low) / 2, c.verdict.value)
              for k, c in _keyed(record, sequential).items()}
    result[CLAIM_KEY] = (math.nan, math.nan, verdict)
    return result


def rejudge(record: list[Comparison], variant: str, truth: Truth | None) -> Result:
    """A variant pass of a non-sequential check, from the comparisons of its shipped run.

    A non-sequential check computes every estimate and interval from its data alone; the
    claimed values enter only the verdicts of its comparisons. So running it again under a
    variant gives the same comparisons, in the same order, each judged against the moved
    value: exactly what judging the recorded ones again gives, with the same keys
    (occurrences numbered in call order). The claim's own verdict is not recomputed (it is
    not scored). ``tests/test_calibration.py`` checks that both ways agree on real claims.
    """
    base = None if truth is None else move_for(variant, truth)
    seen: dict[Key, int] = {}

    def move(rule: str, label: str, value: float, tol: float) -> float:
        key = _numbered(rule, label, seen)
        return value if base is None else base(rule, key, value, tol)

    out: list[Comparison] = []
    with claimed_values(move, out):
        for c in record:
            RULE_FUNCTIONS[c.rule](c.label, c.estimate, c.reference, c.tolerance)
    return _result(out, False, "re-judged")


def _take_fits() -> Fits:
    """The rates cells this process has fitted and remembered (the per-process cache of
    :func:`moetheory.estimation.experiment.run_rates`), removed from it."""
    fits = dict(rates_experiment._CELLS)
    rates_experiment._CELLS.clear()
    return fits


def behaviour_hash(payload: dict[str, object], record: list[Comparison]) -> str:
    """SHA-256 (first 16 hex digits) of what a check decided and computed under one master
    seed: its verdict, every comparison it made (rule, label, estimate, interval, n,
    reference, tolerance, verdict; every number in full, by ``repr``) and every number of its
    report entry with the key path that holds it. The entry's prose (summaries, readings,
    derivations, the module paths they name) is not part of it: :func:`entry_hash` is. A
    label typed as :class:`moetheory.stats.Label` enters as its plain text (what the
    comparison is), never as its typeset form.

    A calibration row is computed from these alone, so two runs with the same hash are, for
    calibration, the same check (:func:`restamp`).
    """
    numbers: list[tuple[str, str]] = []

    def walk(obj: object, path: str) -> None:
        if isinstance(obj, dict):
            for key in sorted(obj, key=str):
                walk(obj[key], f"{path}/{key}")
        elif isinstance(obj, list | tuple):
            for i, item in enumerate(obj):
                walk(item, f"{path}/{i}")
        elif obj is None or isinstance(obj, bool | int | float):
            numbers.append((path, repr(obj)))

    walk(payload, "")
    comparisons = [[c.rule, c.label, repr(c.estimate.mean), repr(c.estimate.low),
                    repr(c.estimate.high), c.estimate.n, repr(c.reference), repr(c.tolerance),
                    c.verdict.value] for c in record]
    text = json.dumps([str(payload.get("verdict")), comparisons, numbers], ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def entry_hash(payload: dict[str, object]) -> str:
    """SHA-256 (first 16 hex digits) of a check's whole report entry (canonical JSON, floats by
    ``repr``): its prose included. Recorded beside :func:`behaviour_hash` so that a restamp
    says whether the report's text changed too."""
    text = json.dumps(payload, sort_keys=True, default=repr, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _run(task: Task
         ) -> tuple[int, dict[str, dict[str, Result | str]], dict[str, list[Comparison]], Fits,
                    dict[str, tuple[str, str]]]:
    """One master seed of one or more passes (``variants``, in order): every claim of the group
    in this process, in order, so that checks sharing a simulation or a fit (cached per
    process) compute it once, also across the passes. A check that raises gives its error
    text instead of its comparisons. Returns the results per variant and claim, the
    recorded comparisons of the non-sequential claims (for :func:`rejudge`) and, for the
    shipped pass, the rates cells it fitted and each claim's :func:`behaviour_hash` and
    :func:`entry_hash`.

    The task's ``fits`` (the shipped pass's cells of this seed) are remembered before the
    variant passes run, so that a sequential rates check run again does not fit again what
    the shipped pass fitted: a cell's fit is deterministic and keyed by its design, router,
    ``k``, ``n``, seed and first replicate, so a remembered cell is the cell."""
    claim_ids, seed, variants, truths, fits = task
    load_checks()
    _take_fits()  # this seed's cells only: none of another task's
    rates_experiment._CELLS.update(fits)
    out: dict[str, dict[str, Result | str]] = {v: {} for v in variants}
    records: dict[str, list[Comparison]] = {}
    hashes: dict[str, tuple[str, str]] = {}
    for variant, claim_id in ((v, c) for v in variants for c in claim_ids):
        ctx = claim_context(claim_id, RunSettings(seed=seed, profile="quick"))
        record: list[Comparison] = []
        truth = truths.get(claim_id)
        base = None if truth is None else move_for(variant, truth)
        sequential = is_sequential(claim_id)
        seen: dict[Key, int] = {}

        def move(rule: str, label: str, value: float, tol: float,
                 base: Callable[[str, str, float, float], float] | None = base,
                 seen: dict[Key, int] = seen, sequential: bool = sequential) -> float:
            key = label if sequential else _numbered(rule, label, seen)
            return value if base is None else base(rule, key, value, tol)

        try:
            with claimed_values(move, record):
                payload = outcome_payload(get_claim(claim_id).check(ctx))
        except Exception as exc:  # recorded in the row, never a silent pass
            out[variant][claim_id] = f"{type(exc).__name__}: {exc}"
            continue
        out[variant][claim_id] = _result(record, sequential, str(payload["verdict"]))
        if variant == "shipped":
            hashes[claim_id] = (behaviour_hash(payload, record), entry_hash(payload))
            if not sequential:
                records[claim_id] = record
    return seed, out, records, _take_fits() if "shipped" in variants else {}, hashes


@dataclass
class Row:
    """Calibration of one check."""

    claim_id: str
    seeds: int
    comparisons: int
    true_unsupported: int = 0
    true_supported: int | None = 0  # None: not recorded (rows imported from an older run)
    false_supported_worst: int = 0
    false_claim_supported: int = 0
    worst_label: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    date: str = ""
    fingerprint: str = ""
    profile: str = "quick"
    #: The claim's verdict on each master seed of the shipped pass (seed stability).
    shipped_verdicts: list[str] = field(default_factory=list)
    #: Comparisons that made the true variant unsupported, with their counts of seeds.
    true_unsupported_by: dict[str, int] = field(default_factory=dict)
    #: :data:`HARNESS` version of the run (1 for rows stored before the field existed).
    harness: int = 1
    #: Seeds whose shipped run decided at least one comparison (None: rows stored before the
    #: field existed). 0: the check decides nothing at this profile, so it errs on nothing.
    decided_runs: int | None = None
    #: :func:`behaviour_hash` of the shipped run on each of :data:`BEHAVIOUR_SEEDS` (keys are
    #: the seeds as text): what the check did, for :func:`restamp`.
    behaviour: dict[str, str] = field(default_factory=dict)
    #: :func:`entry_hash` on the same seeds: whether a restamp also changed the report's text.
    entries: dict[str, str] = field(default_factory=dict)
    #: Each time the code changed but the behaviour did not (:func:`restamp`): the date and
    #: the fingerprints before and after.
    restamps: list[dict[str, str]] = field(default_factory=list)
    #: The typeset form (MyST) of each comparison key (``rule: label``) whose label the check
    #: types at its source (:class:`moetheory.stats.Label`); recorded by a run and by
    #: :func:`restamp`, shown by :func:`render`. A label's typeset form is prose: it is no
    #: part of :func:`behaviour_hash`, so typesetting a label costs a restamp, not a re-run.
    labels_latex: dict[str, str] = field(default_factory=dict)

    def to_record(self) -> dict[str, object]:
        """The row as a JSON-ready record (every field; :meth:`from_record` inverts it)."""
        return {"schema": 1, **asdict(self)}

    @classmethod
    def from_record(cls, record: dict[str, object]) -> Row:
        """The row of a stored record (unknown keys are ignored)."""
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in record.items() if k in names})  # type: ignore[arg-type]

    @property
    def ok(self) -> bool:
        """Both limits met (observed rates); rows calibrated elsewhere count as met, and so
        do rows of checks that decided no comparison on any seed (no decision, no error)."""
        if self.seeds == 0:
            return True
        return ((self.comparisons > 0 or self.decided_runs == 0)
                and self.true_unsupported <= TRUE_LIMIT * self.seeds
                and self.false_supported_worst <= FALSE_LIMIT * self.seeds)

    def cells(self) -> list[str]:
        def rate(k: int | None) -> str:
            if self.seeds == 0 or k is None:
                return "–"
            ci = proportion_ci(k, max(self.seeds, 1), 0.05)
            return f"{k}/{self.seeds} [{ci.low:.3f}, {ci.high:.3f}]"

        return [f"`{self.claim_id}`", str(self.comparisons), str(self.seeds),
                rate(self.true_unsupported), rate(self.true_supported),
                rate(self.false_supported_worst),
                rate(self.false_claim_supported), "yes" if self.ok else "**no**",
                f"{self.seconds:.0f}"]


HEADER = ["claim", "comparisons", "seeds", "true variant unsupported (95% CI)",
          "true variant supported (power)",
          "false variant supported, worst comparison", "false variant supported, claim",
          "limits met", "seconds"]


def calibrate_claim(claim_id: str, seeds: int, jobs: int = 1) -> Row:
    """Run the three passes of one claim over master seeds ``0 .. seeds-1``."""
    return calibrate_claims([claim_id], seeds, jobs)[0]


def calibrate_claims(claim_ids: list[str], seeds: int, jobs: int = 1,
                     rerun: bool = False, reuse_fits: bool = True) -> list[Row]:
    """The rows of several claims, calibrated together: each pass runs every claim of the group
    under one master seed in one process (shared simulations are simulated once per seed).

    The variant passes of a non-sequential check judge its shipped comparisons again against
    the moved values (:func:`rejudge`, the same result as running it again); ``rerun=True``
    runs every check again instead. A check run again reuses the rates cells the shipped
    pass fitted under the same seed (``reuse_fits``; the same result as fitting them again,
    see :func:`_run`). Each row's ``seconds`` is the group's wall time divided by the number
    of claims.
    """
    start = time.perf_counter()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    rows = {cid: Row(cid, 0, 0, fingerprint=fingerprint(cid), date=date, harness=HARNESS)
            for cid in claim_ids}
    group = []
    for cid in claim_ids:
        mode = MODES.get(cid, "pooled")
        if mode.startswith("via:"):
            rows[cid].notes.append(f"false as stated; its estimator is calibrated in the row "
                                   f"of `{mode[4:]}`")
        else:
            group.append(cid)
    if not group:
        return [rows[c] for c in claim_ids]
    prepare_worker()  # as verify's check processes (threaded BLAS busy-waits)
    pool = ProcessPoolExecutor(jobs, initializer=prepare_worker) if jobs > 1 else None
    recorded: dict[str, list[list[Comparison] | None]] = {}
    shipped_fits: dict[int, Fits] = {}

    def run_all(variants: tuple[str, ...], truths: dict[str, Truth | None], claims: list[str]
                ) -> dict[str, dict[str, list[Result | str]]]:
        if not claims:
            return {v: {} for v in variants}
        tasks: list[Task] = [(tuple(claims), s, variants, truths, shipped_fits.pop(s, {}))
                             for s in range(seeds)]
        out = list(pool.map(_run, tasks)) if pool else [_run(t) for t in tasks]
        ordered = sorted(out, key=lambda x: x[0])
        if "shipped" in variants:
            recorded.update({cid: [recs.get(cid) for _, _, recs, _, _ in ordered]
                             for cid in claims})
            if reuse_fits and any(rerun or is_sequential(c) for c in claims):
                shipped_fits.update({seed: fits for seed, _, _, fits, _ in ordered})
            for seed, _, _, _, hashes in ordered:
                for cid, (decided, entry) in hashes.items():
                    if seed in BEHAVIOUR_SEEDS:
                        rows[cid].behaviour[str(seed)] = decided
                        rows[cid].entries[str(seed)] = entry
        return {v: {cid: [r[v][cid] for _, r, _, _, _ in ordered] for cid in claims}
                for v in variants}

    def variant_passes(truths: dict[str, Truth | None]
                       ) -> dict[str, dict[str, list[Result | str]]]:
        """Both variant passes: the sequential checks run again (true, then false, in one
        process per seed, so that the false pass reuses the true pass's fits); the others'
        shipped comparisons judged again."""
        out = run_all(("true", "false"), truths,
                      [c for c in group if rerun or is_sequential(c)])
        for variant, results in out.items():
            for cid in group:
                if cid not in results:
                    results[cid] = [r if isinstance(r, str)
                                    else rejudge(rec or [], variant, truths[cid])
                                    for r, rec in zip(shipped[cid], recorded[cid], strict=True)]
        return out

    try:
        shipped = run_all(("shipped",), {}, group)["shipped"]
        truths: dict[str, Truth | None] = {cid: _truth(rows[cid], shipped[cid], seeds)
                                           for cid in group}
        passes = variant_passes(truths)
        true_runs, false_runs = passes["true"], passes["false"]
    finally:
        if pool:
            pool.shutdown()
    share = (time.perf_counter() - start) / len(claim_ids)
    for cid in group:
        row, truth = rows[cid], truths[cid] or {}
        errors = sum(isinstance(r, str) for r in (*shipped[cid], *true_runs[cid],
                                                  *false_runs[cid]))
        if errors:
            first = next(r for r in (*shipped[cid], *true_runs[cid], *false_runs[cid])
                         if isinstance(r, str))
            row.notes.append(f"ERROR on {errors} of {3 * seeds} runs (first: {first})")
        _score(row, truth, [r for r in true_runs[cid] if not isinstance(r, str)],
               [r for r in false_runs[cid] if not isinstance(r, str)])
        row.seconds = share
        if len(group) > 1:
            row.notes.append(f"calibrated together with {len(group) - 1} other claim(s) of "
                             "its module (shared simulations); seconds are the group's share")
    return [rows[c] for c in claim_ids]


def _truth(row: Row, shipped: list[Result | str], seeds: int) -> Truth:
    """Each comparison's truth from the shipped pass (see the module docstring)."""
    runs = [r for r in shipped if not isinstance(r, str)]
    mode = MODES.get(row.claim_id, "pooled")
    row.seeds = seeds
    row.shipped_verdicts = [r[CLAIM_KEY][2] if not isinstance(r, str) else "error"
                            for r in shipped]
    keys = sorted({k for r in runs for k in r if k != CLAIM_KEY})
    row.decided_runs = sum(any(k != CLAIM_KEY for k in r) for r in runs)
    skip = UNCLAIMED.get(row.claim_id)
    if skip:
        keys = [k for k in keys if skip not in k[1]]
        row.notes.append(f"comparisons labelled '{skip}' are reported beside the claim, not "
                         "claimed: not calibrated")
    truth: Truth = {}
    for k in keys:
        est = np.array([r[k][0] for r in runs if k in r])
        h = float(np.median([r[k][1] for r in runs if k in r]))
        if mode == "reference" and k[0] == "equivalence":
            truth[k] = (None, h)
        elif est.size > 1 and float(est.std(ddof=1)) > max(h, 1e-12):
            row.notes.append(f"{k[1]}: estimates spread across seeds (sd "
                             f"{est.std(ddof=1):.3g} > half-width {h:.3g}), not calibrated")
        else:
            truth[k] = (float(est.mean()), h)
    row.comparisons = len(truth)
    return truth


def _score(row: Row, truth: Truth, true_runs: list[Result], false_runs: list[Result]) -> None:
    """Fill the counts of ``row`` from the variant passes."""
    if not truth:
        return
    sup, uns = Verdict.SUPPORTED.value, Verdict.UNSUPPORTED.value

    def supported(r: Result) -> bool:
        # a run that decided none of the calibrated comparisons (a rates run whose configs
        # all stopped at the iteration cap records none) is not a supported claim
        verdicts = [v[2] for k, v in r.items() if k in truth]
        return bool(verdicts) and all(v == sup for v in verdicts)

    row.true_unsupported = sum(any(v[2] == uns for k, v in r.items() if k in truth)
                               for r in true_runs)
    row.true_supported = sum(supported(r) for r in true_runs)
    by = {f"{k[0]}: {k[1]}": sum(r.get(k, (0, 0, ""))[2] == uns for r in true_runs)
          for k in sorted(truth)}
    row.true_unsupported_by = {k: v for k, v in by.items() if v}
    row.labels_latex = _labels_latex(truth)
    per_key = {k: sum(r.get(k, (0, 0, ""))[2] == sup for r in false_runs) for k in truth}
    worst = max(sorted(per_key), key=lambda k: per_key[k])
    row.false_supported_worst, row.worst_label = per_key[worst], f"{worst[0]}: {worst[1]}"
    row.false_claim_supported = sum(supported(r) for r in false_runs)


#: Modules whose code a row's fingerprint follows, and the ones it does not (reporting).
FOLLOWED, NOT_FOLLOWED = ("proofs_checks", "moetheory"), ("moetheory.engine",)


def _code_only(source: str) -> str:
    """The syntax tree of a function or class definition without its decorators, docstrings
    and comments: what it computes, not how it is registered or described (a claim's
    statement, sources and reading live in its decorator)."""
    import ast
    import textwrap

    tree = ast.parse(textwrap.dedent(source))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            node.decorator_list = []
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _assignment(obj: object, module: str, name: str) -> str | None:
    """The syntax tree of the module-level assignment that binds ``name`` to ``obj``, in
    ``module`` or, for a name ``module`` imported, in the followed module that defines it;
    ``None`` if there is none.

    A list or dict constant is fingerprinted by how it is written, not by what it holds: a
    run-time cache (the rates cells of :mod:`moetheory.estimation.experiment`) holds what
    the process ran before, and a fingerprint must not depend on that."""
    modules = [sys.modules.get(module)] + [m for n, m in sorted(sys.modules.items())
                                           if n.startswith(FOLLOWED) and n != module]
    for mod in modules:
        if mod is not None and vars(mod).get(name) is obj:
            found = _assignments(mod.__name__).get(name)
            if found is not None:
                return found
    return None


@functools.cache
def _assignments(module: str) -> dict[str, str]:
    """The module-level assignments of ``module`` by name: the syntax tree of each value
    (:func:`ast.dump`), the last one where a name is bound twice."""
    import ast
    import inspect

    try:
        tree = ast.parse(inspect.getsource(sys.modules[module]))
    except (OSError, TypeError, KeyError):
        return {}
    out: dict[str, str] = {}
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign) else
                   [node.target] if isinstance(node, ast.AnnAssign) and node.value else [])
        for target in targets:
            if isinstance(target, ast.Name):
                out[target.id] = ast.dump(node.value)  # type: ignore[union-attr, arg-type]
    return out


def _has_source(obj: object) -> bool:
    """Whether :func:`inspect.getsource` finds the source of ``obj``."""
    import inspect

    try:
        inspect.getsource(obj)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return False
    return True


def _closure_sources(func: Callable[..., object]) -> list[str]:
    """The source of ``func`` and of every function, class or constant of the check modules
    (``proofs_checks``) and the library (``moetheory``, without its reporting engine) that it
    refers to by a global name or as an attribute of a module it refers to (``th.expr()``
    after ``from moetheory.continual import theory as th``), transitively, in a fixed order.

    A check made by a declaration (a closure, such as the continual checks' ``grid_claim``)
    brings what it closes over (the check's own closure, not those of the code it calls):
    the functions and classes a module defines (followed as above; not lambdas, local
    functions or code generated at run time) and the values and configurations (by
    ``repr``; not sets, whose order is the hash's, nor objects that show only their
    address).
    """
    import inspect
    import types

    seen: dict[str, str] = {}

    def names(code: types.CodeType) -> set[str]:
        out = set(code.co_names)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                out |= names(const)
        return out

    def visit(obj: object, label: str, used: set[str]) -> None:
        if isinstance(obj, types.ModuleType):
            # ``module.attr`` (or ``package.module.attr``): the attribute names are in the
            # user's co_names too, so follow each of them the module has (every user of the
            # module anew: each uses its own attributes)
            if str(obj.__name__).startswith(FOLLOWED):
                for attr in sorted(used & set(vars(obj))):
                    visit(vars(obj)[attr], f"{obj.__name__}.{attr}", used)
            return
        if label in seen:
            return
        obj = inspect.unwrap(obj) if callable(obj) else obj  # type: ignore[arg-type]
        if isinstance(obj, types.FunctionType | type):
            module = str(getattr(obj, "__module__", ""))
            if not module.startswith(FOLLOWED) or module.startswith(NOT_FOLLOWED):
                return
            try:
                seen[label] = _code_only(inspect.getsource(obj))
            except (OSError, TypeError):  # defined dynamically: its repr stands in
                seen[label] = repr(obj)
                return
            funcs = [obj] if isinstance(obj, types.FunctionType) else [
                v for v in vars(obj).values() if isinstance(v, types.FunctionType)]
            for f in funcs:
                cells = [c.cell_contents for c in f.__closure__ or ()]
                if f is top:  # a generated check: what its declaration was given
                    for v in cells:
                        if isinstance(v, types.FunctionType | type):
                            if "<" not in v.__qualname__ and _has_source(v):  # a module's own
                                visit(v, f"{v.__module__}.{v.__qualname__}", set())
                        elif not isinstance(v, set | frozenset | types.ModuleType) and (
                                " at 0x" not in (text := repr(v))):  # values and configs
                            seen[label] += f"\n#cell {text}"
                else:
                    seen[label] += "".join(f"\n#cell {v!r}" for v in cells
                                           if isinstance(v, int | float | str | tuple | bool))
                used = names(f.__code__)
                for name in sorted(used):
                    if name in f.__globals__:
                        visit(f.__globals__[name], f"{f.__globals__['__name__']}.{name}", used)
            return
        if isinstance(obj, list | dict):  # mutable: its assignment, not its contents
            module, _, name = label.rpartition(".")
            assigned = _assignment(obj, module, name)
            if assigned is not None:
                seen[label] = assigned
                return
        if isinstance(obj, int | float | str | tuple | list | dict | bool):  # not sets: hash order
            text = repr(obj)
            if " at 0x" not in text:
                seen[label] = text

    top = inspect.unwrap(get_claim_check_func(func))  # type: ignore[arg-type]
    visit(top, "check", set())
    return [f"{k}\n{v}" for k, v in sorted(seen.items())]


def get_claim_check_func(func: Callable[..., object]) -> Callable[..., object]:
    """``func`` itself (a hook for checks registered through wrappers)."""
    return func


def fingerprint(claim_id: str) -> str:
    """SHA-256 (first 16 hex digits) of the code of the claim's check function and of the
    helpers, constants and library code it uses (:func:`_closure_sources`), without
    decorators, docstrings and comments.

    A stored row whose fingerprint differs from the current one was computed with other code.
    Editing another check of the same module, or a claim's statement, sources or docstring,
    leaves the row current.
    """
    load_checks()
    text = "\n".join(_closure_sources(get_claim(claim_id).check))
    return hashlib.sha256(text.replace("\r\n", "\n").encode()).hexdigest()[:16]


def module_groups(claim_ids: list[str]) -> list[list[str]]:
    """``claim_ids`` grouped by the module of their checks, in first-seen order: the claims of
    one module share their simulations, so they are calibrated (and re-run) together."""
    load_checks()
    groups: dict[str, list[str]] = {}
    for cid in claim_ids:
        groups.setdefault(get_claim(cid).check.__module__, []).append(cid)
    return list(groups.values())


def current_behaviour(claim_ids: list[str], jobs: int = 1,
                      labels: dict[str, dict[str, str]] | None = None
                      ) -> dict[str, dict[str, tuple[str, str]]]:
    """Each claim's :func:`behaviour_hash` and :func:`entry_hash` under the current code on
    :data:`BEHAVIOUR_SEEDS`, by seed (as text); ``labels`` (when given) receives each
    claim's typeset comparison labels (:attr:`Row.labels_latex`) of those runs.

    The shipped pass only, run as the calibration runs it: the claims of one check module
    together in one process per seed (shared simulations simulated once). A check that raises
    gets ``"error: <text>"`` for that seed, which equals no stored hash.
    """
    tasks: list[Task] = [(tuple(group), seed, ("shipped",), {}, {})
                         for group in module_groups(claim_ids) for seed in BEHAVIOUR_SEEDS]
    prepare_worker()
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(jobs, initializer=prepare_worker) as pool:
            results = list(pool.map(_run, tasks))
    else:
        results = [_run(t) for t in tasks]
    out: dict[str, dict[str, tuple[str, str]]] = {cid: {} for cid in claim_ids}
    for (group, *_), (seed, res, _, _, hashes) in zip(tasks, results, strict=True):
        for cid in group:
            failed = f"error: {res['shipped'].get(cid)}"
            out[cid][str(seed)] = hashes.get(cid) or (failed, failed)
            if labels is not None and isinstance(res["shipped"].get(cid), dict):
                labels.setdefault(cid, {}).update(_labels_latex(res["shipped"][cid]))
    return out


def restamp(ids: list[str] | None = None, store: Path = STORE, jobs: int = 1
            ) -> dict[str, str]:
    """Keep a row current across a change of code that does not change what the check does.

    A row is computed by the code its :attr:`Row.fingerprint` names. When that code changes
    (a refactor, a moved module, a renamed helper), the row still describes the check if the
    check still *decides* the same: this re-runs the shipped pass on :data:`BEHAVIOUR_SEEDS`
    and compares :func:`behaviour_hash` (verdict, every comparison, every number of the
    report entry) with the hashes the row recorded. Identical on every recorded seed: the row
    takes the new fingerprint and notes the restamp (date, fingerprints before and after, and
    whether the entry's prose changed, by :func:`entry_hash`). Different: the row stays stale
    and must be re-run. A row without recorded hashes gets them only while its fingerprint is
    still current (the code of the run); otherwise it cannot be restamped.

    Parameters
    ----------
    ids : list of str, optional
        Claims to look at (default: every stored row of a registered claim).
    store : Path
        Directory of the ``<claim>.json`` records; changed rows are written back.
    jobs : int
        Worker processes.

    Returns
    -------
    dict
        Claim ID -> ``"current"`` (code unchanged, hashes recorded), ``"recorded"`` (hashes
        added to a current row), ``"restamped"`` (``"restamped, report prose changed"`` when
        the entry's text moved), or ``"stale: ..."`` with the reason.
    """
    load_checks()
    known = {c.id for c in registered()}
    rows = load_rows(store)
    ids = sorted(i for i in (rows if ids is None else ids) if i in rows and i in known)
    prints = {cid: fingerprint(cid) for cid in ids}
    todo = [cid for cid in ids
            if not rows[cid].behaviour or rows[cid].fingerprint != prints[cid]]
    status = {cid: "current" for cid in ids if cid not in todo}
    todo_run = [cid for cid in todo
                if rows[cid].behaviour or rows[cid].fingerprint == prints[cid]]
    for cid in set(todo) - set(todo_run):
        status[cid] = "stale: no behaviour recorded and the code changed since the run"
    labels: dict[str, dict[str, str]] = {}
    now = current_behaviour(todo_run, jobs, labels) if todo_run else {}
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    for cid in todo_run:
        row = rows[cid]
        decided = {seed: pair[0] for seed, pair in now[cid].items()}
        entries = {seed: pair[1] for seed, pair in now[cid].items()}
        if not row.behaviour:
            row.behaviour, row.entries = decided, entries
            status[cid] = "recorded"
        else:
            moved = [s for s, h in sorted(row.behaviour.items()) if decided.get(s) != h]
            if moved:
                status[cid] = f"stale: behaviour differs on seed(s) {', '.join(moved)}"
                continue
            prose = any(entries.get(s) != h for s, h in row.entries.items())
            row.restamps.append({"date": date, "from": row.fingerprint, "to": prints[cid],
                                 "report prose": "changed" if prose else "identical"})
            row.fingerprint, row.entries = prints[cid], entries
            row.labels_latex = labels.get(cid, {})
            status[cid] = "restamped, report prose changed" if prose else "restamped"
        save_row(row, store)
    return dict(sorted(status.items()))


def save_row(row: Row, store: Path = STORE) -> Path:
    """Write ``row`` as ``<store>/<claim>.json``; returns the path."""
    store.mkdir(parents=True, exist_ok=True)
    path = store / f"{row.claim_id}.json"
    path.write_text(json.dumps(row.to_record(), indent=1, sort_keys=True) + "\n",
                    encoding="utf-8")
    return path


def load_rows(store: Path = STORE) -> dict[str, Row]:
    """Every stored row, keyed by claim ID."""
    rows = {}
    for path in sorted(store.glob("*.json")):
        row = Row.from_record(json.loads(path.read_text(encoding="utf-8")))
        rows[row.claim_id] = row
    return rows


#: Why a statistical claim has no row at :data:`FULL_SEEDS` seeds yet (default: not reached).
#: Empty: every statistical claim has its row.
NOT_RUN: dict[str, str] = {}
#: (cl.fig2's miss, 2/100 in its row of 2026-12-01 04:02, came from paired t intervals of its
#: termination effect; fixed by exact intervals, see termination_ci in
#: proofs_checks/li2025continual/experiments.py.)
#: Why a row misses a limit, where the cause is known (shown in the row's notes). Empty: every
#: row meets both limits. (Session 6's two misses, pcr.rates.top1 3/100 and
#: pcr.rates.topk-cosine-slow 4/100, came from percentile intervals over 4 replicates per n;
#: the claims now fit 13, see SLOPE_REPLICATES in
#: proofs_checks/nguyen2025cosine/rates.py.)
KNOWN_CAUSES: dict[str, str] = {}
NOT_RUN_DEFAULT = "no row stored yet"

INTRO = """\
# Calibration of the statistical checks

Every statistical check is calibrated both ways: run on many master seeds against a claimed
value that is true, it must rarely fail (**`unsupported` on at most 1% of seeds**), and
against one that is false, it must rarely pass (**each comparison `supported` on at most 5%
of seeds**). This page shows where every statistical claim stands.

{summary}

## How a check is calibrated

`benchmarks/calibrate.py` runs the check in-process exactly as
`moetheory verify --profile quick --seed s` runs it, for master seeds
$s = 0, \\dots, S-1$, three times:

1. **as shipped**, recording every comparison it decides. Where the estimand is the same on
   every seed, the mean $\\hat\\mu$ of a comparison's estimates over the $S$ runs stands in for
   its true value; where the problem instance is drawn from the seed but the reference is an
   exact computation (`cl.update.*`, `cl.prop4.*.corrected`), the shipped reference is that
   seed's truth. A comparison whose estimates spread across seeds by more than its median
   interval half-width $h$ cannot be calibrated this way; its row's notes say so.
2. **true variant**: every claimed value replaced by one that holds at the truth $\\mu$
   (equivalence $r = \\mu$; at-most $b + t = \\mu$; at-least $b - t = \\mu$; greater
   $c + e = \\mu$). One-sided variants sit *on* the boundary, the hardest true case.
3. **false variant**: every claimed value moved past the truth by the tolerance plus
   $\\Delta = \\max(t, h, 10^{-6}\\max(1, |\\mu|))$ (equivalence $r = \\mu + t + \\Delta$;
   at-most $b + t = \\mu - \\Delta$; at-least $b - t = \\mu + \\Delta$; greater
   $c = \\mu + \\Delta$).

A sequential check (one that adds replicates until it decides) is run again for passes 2 and
3, since where it stops depends on its verdicts; its row calibrates the comparisons of its
final look. Any other check computes its estimates and intervals from its data alone, so
passes 2 and 3 judge the comparisons recorded in pass 1 again against the moved values, which
gives the same verdicts as running it again (tested on real claims) at a third of the cost;
each of its comparisons is calibrated on its own, in the order the check makes them, so a
label that several readings share has its own truth and variants in each reading.

The claims of one module are calibrated together, seed by seed, so that simulations they
share are run once; their *seconds* are the group's wall time divided by the number of
claims, on a shared machine. Each run also records the claim's own verdict on every seed of
the shipped pass: the [seed-stability page](seed-stability.md) tabulates them.

## Reading the table

Rates are counts of seeds with Clopper–Pearson 95% intervals. *Limits met* is `yes` when
both limits hold and at least one comparison could be calibrated, or when the check decided
no comparison on any seed (it is then `inconclusive` everywhere and decides nothing that
could be wrong; the notes say so).

*True variant supported* is the power. It is 0 by design for one-sided rules, whose true
variant sits on the boundary where `supported` is impossible, and 0 for an equivalence rule
whose interval at the quick budget is wider than its band even when centred on the truth:
such a check is sound but cannot confirm a true claim at this budget.

A row is computed at the $\\alpha$ the claim had in its run, $0.05/N_{\\text{stat}}$ over
the built-in statistical claims; a claim added since makes every interval slightly wider,
which can only lower both rates a row limits.

The column *code* says whether the row still describes the shipped check. Each row records
the fingerprint of its check: SHA-256 of the code (syntax tree, without decorators,
docstrings and comments) of the check function and of every function, class and constant of
`proofs_checks` and of the library that it uses, transitively, by name or as an attribute of
a module. It also records what the check did on master seeds 0, 1 and 2 (hashes of the
verdict, of every comparison and of every number of the report entry). When the code changes,
`python benchmarks/calibrate.py --restamp` re-runs those three seeds: a row whose check still
does exactly the same takes the new fingerprint (`current`, the restamp noted in its record);
one whose check now decides differently is **stale: re-run**. A row of the first harness,
which kept one comparison per label, says **harness v1: re-run**.

The page is rendered by `python benchmarks/calibrate.py --render docs/calibration.md` from
the stored rows `benchmarks/calibration/<claim>.json`, one per claim, each written by the run
that computed it (`python benchmarks/calibrate.py --only '<claim>' --seeds 100 --jobs 2`).
The script exits 1 when a limit is missed; CI runs `python benchmarks/calibrate.py --budget`
(two checks, 20 seeds).
"""

#: The part of a row's notes that every grouped row repeats (said once in :data:`INTRO`).
_GROUP_NOTE = re.compile(r"^calibrated together with \d+ other claim\(s\) of its module "
                         r"\(shared simulations\); seconds are the group's share$")


def _summary(ids: list[str], rows: dict[str, Row], current: set[str]) -> str:
    """One paragraph: how many claims have a current full row, how many meet the limits."""
    full = [c for c in ids if c in current and rows[c].seeds >= FULL_SEEDS]
    failing = [c for c in full if not rows[c].ok]
    elsewhere = [c for c in ids if c in current and rows[c].seeds == 0]
    text = (f"**{len(full)} of the {len(ids)} statistical claims** have a current row at "
            f"{FULL_SEEDS} seeds or more")
    text += (": all meet both limits." if not failing else
             f"; {len(failing)} miss a limit: " + ", ".join(f"`{c}`" for c in failing) + ".")
    if elsewhere:
        text += (f" {len(elsewhere)} more are false as stated and calibrated through the row "
                 "of their corrected twin (see the notes).")
    left = len(ids) - len(full) - len(elsewhere)
    if left:
        text += (f" {left} still need a run at {FULL_SEEDS} seeds: they are listed at the end "
                 "with the command that makes their row.")
    return text


def render(store: Path = STORE, ids: list[str] | None = None) -> str:
    """The calibration page built from the stored rows (nothing is run).

    Parameters
    ----------
    store : Path
        Directory of the ``<claim>.json`` records.
    ids : list of str, optional
        Statistical claims the page must account for (default: every registered one).

    Returns
    -------
    str
        Markdown: the table of stored rows (stale ones flagged), their notes, and every
        claim of ``ids`` without a complete row under "Not yet run", with its command.
    """
    ids = _statistical_ids(None) if ids is None else ids
    rows = load_rows(store)
    known = set(_statistical_ids(None))
    head = [*HEADER, "date", "code"]
    order = [i for i in ids if i in rows] + sorted(set(rows) - set(ids))

    def outdated(row: Row) -> bool:
        return (row.harness < HARNESS and row.seeds > 0 and row.claim_id in known
                and not is_sequential(row.claim_id))

    stale = set()
    table = []
    for cid in order:
        row = rows[cid]
        if cid not in known:
            status = "**stale: claim no longer registered**"
        elif row.fingerprint and row.fingerprint == fingerprint(cid):
            status = "**harness v1: re-run**" if outdated(row) else "current"
        else:
            status = "**stale: re-run**"
            stale.add(cid)
        table.append("| " + " | ".join([*row.cells(), row.date or "before the store",
                                         status]) + " |")
    current = {c for c in order if c in known and c not in stale and not outdated(rows[c])}
    lines = [INTRO.replace("{summary}", _summary(ids, rows, current)), "## Results", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head), *table]

    def row_notes(row: Row) -> list[str]:
        extra = []
        if row.seeds and row.decided_runs == 0:
            extra.append(f"no comparison was decided on any of the {row.seeds} seeds: at this "
                         "profile every reading stops before an estimate (for the rates "
                         "checks: a cell of every fitted configuration has fewer than 90% of "
                         "its fits converged), so the claim is `inconclusive` on every seed and "
                         "decides nothing that could be wrong (a profile decides it only "
                         "where its fits converge)")
        if not row.ok and row.claim_id in KNOWN_CAUSES:
            extra.append(KNOWN_CAUSES[row.claim_id])
        if row.true_unsupported_by:
            extra.append("true variant unsupported by: " + "; ".join(
                f"{row.labels_latex.get(k, k)} ({v}/{row.seeds})"
                for k, v in row.true_unsupported_by.items()))
        if outdated(row):
            extra.append("computed by harness version 1, which kept one comparison per label: "
                         "where the check's readings repeat a label only its last reading "
                         "was calibrated; re-run")
        return [*(n for n in row.notes if not _GROUP_NOTE.match(n)), *extra]

    notes = [f"- `{rows[c].claim_id}`: " + "; ".join(row_notes(rows[c]))
             for c in order if row_notes(rows[c])]
    if notes:
        lines += ["", "## Notes", "", *notes]
    def complete(cid: str) -> bool:
        via = MODES.get(cid, "")
        if via.startswith("via:"):  # calibrated through its twin's row
            return cid in rows and complete(via[4:])
        return (cid in rows and cid not in stale and rows[cid].seeds >= FULL_SEEDS
                and not outdated(rows[cid]))

    missing = [i for i in ids if not complete(i)]
    if missing:
        lines += ["", f"## Not yet run at {FULL_SEEDS} seeds", "",
                  "Each of these statistical claims still needs its row; run its command "
                  "(below the table), then re-render the page.", "",
                  "| claim | why not yet |", "|---|---|"]
        commands = []
        for cid in missing:
            why = NOT_RUN.get(cid, NOT_RUN_DEFAULT)
            if MODES.get(cid, "").startswith("via:"):
                why = f"calibrated through `{MODES[cid][4:]}`, which has no current row yet"
            elif cid in stale:
                why = ("its stored row is stale (the check's code changed since that run; "
                       "where the change kept the behaviour, `python benchmarks/calibrate.py "
                       f"--restamp --only '{cid}'` keeps the row)")
            elif cid in rows and outdated(rows[cid]):
                why = ("its stored row was computed by harness version 1 (only the last "
                       "reading of repeated labels calibrated)")
            elif cid in rows:
                why = f"stored row has {rows[cid].seeds} seeds only; " + why
            target = MODES[cid][4:] if MODES.get(cid, "").startswith("via:") else cid
            lines.append(f"| `{cid}` | {why} |")
            commands.append(f"python benchmarks/calibrate.py --only '{target}' "
                            f"--seeds {FULL_SEEDS} --jobs 2")
        # a code block: the IDs in a command are not text to link (the site links every
        # claim ID of its prose and tables)
        lines += ["", "```bash", *dict.fromkeys(commands), "```"]
    return "\n".join(lines) + "\n"


def _statistical_ids(patterns: list[str] | None) -> list[str]:
    load_checks()
    ids = [c.id for c in registered() if c.kind == "statistical" and c.implemented]
    if patterns:
        ids = [i for i in ids if any(fnmatch.fnmatchcase(i, p) for p in patterns)]
    return ids


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", action="append", metavar="GLOB", help="claim IDs (repeatable)")
    parser.add_argument("--seeds", type=int, default=100, help="master seeds (default 100)")
    parser.add_argument("--budget", action="store_true",
                        help=f"CI budget: {', '.join(BUDGET_CLAIMS)} on {BUDGET_SEEDS} seeds")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--store", type=Path, default=STORE,
                        help="directory of the stored rows (default benchmarks/calibration)")
    parser.add_argument("--no-save", action="store_true", help="store no row")
    parser.add_argument("--render", metavar="PATH",
                        help="write the page built from the stored rows here; run nothing")
    parser.add_argument("--restamp", action="store_true",
                        help="re-run the recorded seeds of rows whose code changed; a row "
                             "whose check behaves identically stays current")
    args = parser.parse_args(argv)
    for option in ("seeds", "jobs"):
        if getattr(args, option) < 1:
            parser.error(f"--{option} must be >= 1, got {getattr(args, option)}")
    if args.render:
        try:
            check_output_path(args.render, "--render")
        except OutputPathError as exc:
            parser.error(str(exc))
    if args.restamp:
        ids = _statistical_ids(args.only) if args.only else None
        status = restamp(ids, args.store, args.jobs)
        for cid, what in status.items():
            print(f"{cid}: {what}")
        stale = [c for c, w in status.items() if w.startswith("stale")]
        print(f"{len(status)} rows; {len(stale)} stale" + (f": {', '.join(stale)}" if stale
                                                          else ""))
        return 1 if stale else 0
    if args.render:
        text = render(args.store)
        write_atomic(args.render, text)
        print(f"wrote {args.render}")
        return 0
    ids = list(BUDGET_CLAIMS) if args.budget else _statistical_ids(args.only)
    seeds = BUDGET_SEEDS if args.budget else args.seeds
    if not ids:
        parser.error("no statistical claim matches --only")
    start = time.perf_counter()
    rows = []
    print("| " + " | ".join(HEADER) + " |", flush=True)
    for group in module_groups(ids):
        for row in calibrate_claims(group, seeds, args.jobs):
            rows.append(row)
            if not (args.budget or args.no_save):
                save_row(row, args.store)
            print("| " + " | ".join(row.cells()) + " |", flush=True)
    elapsed = time.perf_counter() - start
    bad = [r.claim_id for r in rows if not r.ok]
    print(f"{len(rows)} checks, {elapsed:.0f} s; limits "
          + ("met" if not bad else f"NOT met by {', '.join(bad)}"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

