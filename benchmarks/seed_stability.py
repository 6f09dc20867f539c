"""Seed stability of the quick profile: the same claims under master seeds 0..S-1.

Runs ``moetheory verify --profile quick --seed s`` (through :func:`moetheory.verify`) for every
seed and tabulates each claim's verdicts. Requirements (issue 11):

* no claim is ``supported`` on one seed and ``unsupported`` on another (a *contradiction*);
* no exact verdict (``proved``/``refuted``) changes with the seed;
* a claim that moves between a decided verdict and ``inconclusive`` is listed with the reason
  (the summaries of one decided and one inconclusive seed, which quote the intervals),
  typeset as the claim pages show them (``summary_latex`` when the check gives one).

The script exits 1 on a contradiction or an exact change.

Usage::

    python benchmarks/seed_stability.py --seeds 20 --jobs 2 --markdown docs/seed-stability.md
    python benchmarks/seed_stability.py --only 'cl.*' --seeds 5
    python benchmarks/seed_stability.py --save-dir runs/ss      # one JSON report per seed
    python benchmarks/seed_stability.py --save-dir runs/ss --start 10   # seeds 10..19 alongside
    python benchmarks/seed_stability.py --from-dir runs/ss --markdown docs/seed-stability.md
    python benchmarks/seed_stability.py --from-dir runs/ss --calibration benchmarks/calibration

With ``--save-dir`` each seed's report is written as ``seed-<s>.json`` as soon as it is done
(a seed already saved there is not run again), so a long run can be stopped and resumed, and
``--from-dir`` renders the page from whatever seeds are saved.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from moetheory import verify
from moetheory.docs._markup import _summary
from moetheory.engine._page_folder import check_page_folder
from moetheory.engine.report import OutputPathError, check_output_path, write_atomic

__all__ = ["calibration_rows", "load_reports", "main", "merge_reports", "saved_entry",
           "stability_rows"]

DECIDED = {"supported", "unsupported"}
EXACT = {"proved", "refuted"}


def saved_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """What a seed's saved report keeps of a claim's report entry: its verdict and summary,
    the typeset summary when the check gives one, and the name of its first reading (the
    claim pages set a summary's leading reading name as code).

    Examples
    --------
    >>> saved_entry({"id": "a", "verdict": "proved", "summary": "s", "evidence": {}})
    {'id': 'a', 'verdict': 'proved', 'summary': 's'}
    """
    out = {"id": entry["id"], "verdict": entry["verdict"], "summary": entry.get("summary", "")}
    if entry.get("summary_latex"):
        out["summary_latex"] = entry["summary_latex"]
    readings = entry.get("readings") or []
    if readings and isinstance(readings[0], dict) and readings[0].get("name"):
        out["readings"] = [{"name": readings[0]["name"]}]
    return out


def stability_rows(reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per claim: verdict counts, flags and, for moving claims, the reason (plain
    text) and the ``decided`` and ``undecided`` entries it quotes.

    Examples
    --------
    >>> reps = [{"claims": [{"id": "a", "verdict": v, "summary": v}]}
    ...         for v in ("supported", "inconclusive")]
    >>> row = stability_rows(reps)[0]
    >>> row["counts"], row["contradiction"], row["moves"]
    ({'supported': 1, 'inconclusive': 1}, False, True)
    """
    by_claim: dict[str, list[dict[str, Any]]] = {}
    for rep in reports:
        for c in rep["claims"]:
            by_claim.setdefault(c["id"], []).append(c)
    rows = []
    for cid, entries in by_claim.items():
        verdicts = [e["verdict"] for e in entries]
        kinds = set(verdicts)
        row: dict[str, Any] = {
            "id": cid,
            "counts": dict(Counter(verdicts)),
            "contradiction": DECIDED <= kinds,
            "exact_change": bool(kinds & EXACT) and len(kinds) > 1,
            "moves": bool(kinds & (DECIDED | EXACT)) and "inconclusive" in kinds,
            "other": sorted(kinds - DECIDED - EXACT - {"inconclusive"}),
        }
        if row["moves"] or row["contradiction"]:
            decided = next(e for e in entries if e["verdict"] in DECIDED | EXACT)
            undecided = next(
                (e for e in entries if e["verdict"] not in DECIDED | EXACT), entries[0])
            row["reason"] = (f"{decided['verdict']}: {decided['summary'][:240]} / "
                             f"{undecided['verdict']}: {undecided['summary'][:240]}")
            row["decided"], row["undecided"] = decided, undecided
        rows.append(row)
    return rows


def _head() -> str:
    """The commit of the checked-out code (with ``+dirty`` for uncommitted changes)."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "moetheory",
                                "proofs_checks"], cwd=root, text=True, capture_output=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("+dirty" if dirty else "")


def load_reports(directory: str | Path) -> dict[int, dict[str, Any]]:
    """The per-seed reports saved by ``--save-dir``, keyed by master seed.

    Parameters
    ----------
    directory : str or Path
        Directory holding ``seed-<s>.json`` files.

    Returns
    -------
    dict of int to dict
        Report of each saved seed (only its ``claims`` entries are used here).
    """
    out = {}
    for path in sorted(Path(directory).glob("seed-*.json")):
        out[int(path.stem.split("-", 1)[1])] = json.loads(path.read_text(encoding="utf-8"))
    return out


def merge_reports(runs: list[dict[int, dict[str, Any]]]) -> dict[int, dict[str, Any]]:
    """Merge per-seed reports of several runs: a later run's claims replace an earlier run's.

    Parameters
    ----------
    runs : list of dict of int to dict
        Reports keyed by master seed (:func:`load_reports`), oldest first.

    Returns
    -------
    dict of int to dict
        For every seed of the first run: its claims, each from the last run that has that
        claim on that seed; ``commit`` lists every contributing commit, ``seconds_wall`` adds.

    Examples
    --------
    >>> a = {0: {"seed": 0, "commit": "a1", "seconds_wall": 2.0,
    ...          "claims": [{"id": "x", "verdict": "proved"},
    ...                     {"id": "y", "verdict": "inconclusive"}]}}
    >>> b = {0: {"seed": 0, "commit": "b2", "seconds_wall": 1.0,
    ...          "claims": [{"id": "y", "verdict": "supported"}]}}
    >>> m = merge_reports([a, b])[0]
    >>> [c["verdict"] for c in m["claims"]], m["commit"]
    (['proved', 'supported'], 'a1, b2')
    """
    if not runs:
        return {}
    merged: dict[int, dict[str, Any]] = {}
    for seed, first in runs[0].items():
        claims = {c["id"]: c for c in first["claims"]}
        commits = [first.get("commit", "")]
        seconds = float(first.get("seconds_wall", 0.0))
        for later in runs[1:]:
            if seed in later:
                claims.update({c["id"]: c for c in later[seed]["claims"]})
                commits.append(later[seed].get("commit", ""))
                seconds += float(later[seed].get("seconds_wall", 0.0))
        merged[seed] = {"seed": seed, "claims": list(claims.values()), "seconds_wall": seconds,
                        "commit": ", ".join(c for c in commits if c)}
    return merged


INTRO = """\
# Seed stability of the quick profile

`benchmarks/seed_stability.py` runs the quick profile of the whole catalogue under master
seeds 0, 1, 2, ... and tabulates each claim's verdicts. It fails (exit code 1) when a claim is
`supported` on one seed and `unsupported` on another (a *contradiction*), or when an exact
verdict (`proved`, `refuted`) changes; a claim that moves between a decided verdict and
`inconclusive` is listed below with the reason (the summaries of a decided and an
inconclusive seed, which quote the comparisons). Such moves are expected near a decision
boundary: they are the price of never calling a straddling interval decided. Each seed's
report is saved (`--save-dir`) and the page is rendered from the saved reports
(`--from-dir`), so a long run can be resumed and re-rendered. The requirement is seeds 0–19;
a page rendered from fewer seeds says so below. To complete it, resume the run with
`python benchmarks/seed_stability.py --seeds 20 --save-dir benchmarks/runs/seed-stability`
(seeds already saved are skipped; `--start` splits the rest over processes), then render
with `--from-dir benchmarks/runs/seed-stability --markdown docs/seed-stability.md`.
"""


def _markdown(rows: list[dict[str, Any]], seeds: int, elapsed: float,
              commits: list[str] | None = None, seed_ids: list[int] | None = None) -> str:
    bad = [r for r in rows if r["contradiction"] or r["exact_change"]]
    shas = sorted({c for entry in commits or [] for c in entry.split(", ") if c})
    code = f" on commit(s) {', '.join(shas)}" if shas else ""
    which = f": {', '.join(map(str, seed_ids))}" if seed_ids is not None else ""
    lines = [
        INTRO,
        f"Generated by `python benchmarks/seed_stability.py` ({seeds} master seeds{which}{code}, "
        f"{elapsed:.0f} s of wall time on a shared machine). Contradictions (supported on one "
        f"seed, unsupported on another): {sum(r['contradiction'] for r in rows)}; exact "
        f"verdicts that change: {sum(r['exact_change'] for r in rows)}.",
        "",
        "| claim | verdicts over the seeds | flag |",
        "|---|---|---|",
    ]
    for r in rows:
        flag = ("**contradiction**" if r["contradiction"] else
                "**exact change**" if r["exact_change"] else
                "decided ↔ inconclusive" if r["moves"] else "")
        counts = ", ".join(f"{k} {v}" for k, v in sorted(r["counts"].items()))
        lines.append(f"| `{r['id']}` | {counts} | {flag} |")
    moving = [r for r in rows if "reason" in r]
    if moving:
        lines += ["", "## Claims that move between a decided verdict and inconclusive", ""]
        lines += [f"- `{r['id']}`: {_quoted(r['decided'])} / {_quoted(r['undecided'])}"
                  for r in moving]
    if bad:
        lines += ["", "Limits NOT met by: " + ", ".join(f"`{r['id']}`" for r in bad)]
    return "\n".join(lines) + "\n"


def _quoted(entry: dict[str, Any]) -> str:
    """A claim's verdict on one seed and its summary, typeset as on the claim's page."""
    return f"{entry['verdict']}: {_summary(entry)}"


def calibration_rows(store: str | Path) -> list[dict[str, Any]]:
    """Stability rows from the calibration store: each statistical claim's own verdict on
    every master seed of its calibration's shipped pass (the quick profile, seeds 0..S-1).

    Parameters
    ----------
    store : str or Path
        Directory of the calibration records ``<claim>.json``.

    Returns
    -------
    list of dict
        As :func:`stability_rows` (without reasons), plus ``seeds`` and ``date``; only records
        that carry per-seed verdicts.
    """
    rows = []
    for path in sorted(Path(store).glob("*.json")):
        rec = json.loads(path.read_text(encoding="utf-8"))
        verdicts = rec.get("shipped_verdicts") or []
        if not verdicts:
            continue
        reports = [{"claims": [{"id": rec["claim_id"], "verdict": v, "summary": ""}]}
                   for v in verdicts]
        row = stability_rows(reports)[0]
        row.pop("reason", None)
        row.update(seeds=len(verdicts), date=rec.get("date", ""))
        rows.append(row)
    return rows


def _calibration_markdown(rows: list[dict[str, Any]]) -> str:
    bad = [r for r in rows if r["contradiction"] or r["exact_change"]]
    lines = [
        "", "## Statistical claims over the calibration's seeds", "",
        "Each calibration run (`benchmarks/calibrate.py`, [calibration page](calibration.md)) "
        "runs a statistical check exactly as the quick profile does, under master seeds "
        "0..S-1, and records the claim's own verdict on each. These rows extend the table "
        "above to those seeds for the claims whose row is stored. Contradictions: "
        f"{sum(r['contradiction'] for r in rows)}.", "",
        "| claim | seeds | verdicts over the seeds | flag | run |", "|---|---|---|---|---|",
    ]
    for r in rows:
        flag = ("**contradiction**" if r["contradiction"] else
                "decided ↔ inconclusive" if r["moves"] else "")
        counts = ", ".join(f"{k} {v}" for k, v in sorted(r["counts"].items()))
        lines.append(f"| `{r['id']}` | {r['seeds']} | {counts} | {flag} | {r['date']} |")
    if bad:
        lines += ["", "Limits NOT met by: " + ", ".join(f"`{r['id']}`" for r in bad)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="master seeds 0..S-1 (default 20)")
    parser.add_argument("--start", type=int, default=0,
                        help="first seed to run (split a long run over processes sharing "
                             "one --save-dir; default 0)")
    parser.add_argument("--only", action="append", metavar="GLOB", help="claim IDs (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel checks per run")
    parser.add_argument("--markdown", help="write the table here")
    parser.add_argument("--save-dir", help="save each seed's report here (resumable)")
    parser.add_argument("--from-dir", action="append", metavar="DIR",
                        help="render from the reports saved here; run nothing (repeatable: "
                             "a later directory's claims replace an earlier one's, seed by "
                             "seed, e.g. a re-run of the claims changed since)")
    parser.add_argument("--calibration", metavar="DIR",
                        help="also tabulate the per-seed verdicts of the calibration rows "
                             "stored here (e.g. benchmarks/calibration)")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error(f"--seeds must be >= 1, got {args.seeds}")
    if args.jobs < 1:
        parser.error(f"--jobs must be >= 1, got {args.jobs}")
    try:  # before the runs (minutes each)
        if args.markdown:
            check_output_path(args.markdown, "--markdown")
        if args.save_dir:
            check_page_folder(args.save_dir, "--save-dir")
    except OutputPathError as exc:
        parser.error(str(exc))
    start = time.perf_counter()
    if args.from_dir:
        saved = merge_reports([load_reports(d) for d in args.from_dir])
        reports = [saved[s] for s in sorted(saved)]
        elapsed = sum(float(r.get("seconds_wall", 0.0)) for r in reports)
        n_seeds = len(reports)
        if not reports:
            parser.error(f"--from-dir {args.from_dir}: no seed-<s>.json reports there")
    else:
        done = load_reports(args.save_dir) if args.save_dir else {}
        head = _head()
        reports = []
        if not 0 <= args.start < args.seeds:
            parser.error(f"--start must lie in 0..{args.seeds - 1}, got {args.start}")
        for seed in range(args.start, args.seeds):
            if seed in done:
                reports.append(done[seed])
                continue
            t0 = time.perf_counter()
            rep = verify(only=args.only, profile="quick", seed=seed, jobs=args.jobs)
            rep = {"seed": seed, "seconds_wall": time.perf_counter() - t0, "commit": head,
                   "counts": rep["counts"], "claims": [saved_entry(c) for c in rep["claims"]]}
            reports.append(rep)
            if args.save_dir:
                Path(args.save_dir).mkdir(parents=True, exist_ok=True)
                (Path(args.save_dir) / f"seed-{seed}.json").write_text(
                    json.dumps(rep, indent=1), encoding="utf-8")
            print(f"seed {seed}: " + ", ".join(f"{k} {v}" for k, v in
                                              sorted(rep["counts"].items())), flush=True)
        elapsed = time.perf_counter() - start
        n_seeds = len(reports)
    rows = stability_rows(reports)
    text = _markdown(rows, n_seeds, elapsed, [r["commit"] for r in reports if r.get("commit")],
                     [int(r["seed"]) for r in reports if "seed" in r] or None)
    cal_rows = calibration_rows(args.calibration) if args.calibration else []
    if cal_rows:
        text += _calibration_markdown(cal_rows)
    print(text)
    if args.markdown:
        write_atomic(args.markdown, text)
    return 1 if any(r["contradiction"] or r["exact_change"] for r in rows + cal_rows) else 0


if __name__ == "__main__":
    sys.exit(main())
