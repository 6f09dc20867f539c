"""The ``moetheory`` command line: ``list``, ``show``, ``verify`` and ``reproduce``.

Exit codes: 0 when the run completed (whatever the verdicts); 1 when ``--fail-on`` names a
verdict that occurred or a check ended in ``error``; 2 for bad usage; 130 when interrupted
(the reports then hold the claims already checked).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from moetheory.engine.context import PROFILES
from moetheory.engine.registry import Claim, get_claim, load_checks, registered, select_claims
from moetheory.engine.report import render_claim
from moetheory.engine.verdicts import Verdict
from moetheory.engine.verification import verify
from moetheory.reproduce import REPRODUCERS, reproduce

__all__ = ["build_parser", "main"]


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text!r}")
    return value


def _int_at_least(low: int) -> type:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be >= {low}, got {value}")
        return value

    return parse  # type: ignore[return-value]


def _verdicts(text: str) -> list[Verdict]:
    names = [t.strip() for t in text.split(",") if t.strip()]
    allowed = [v.value for v in Verdict]
    bad = [n for n in names if n not in allowed]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"unknown verdict(s) {bad}; allowed: {allowed}")
    return [Verdict(n) for n in names]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="moetheory",
        description="Check the mathematics of Mixture-of-Experts papers by machine.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    lst = sub.add_parser("list", help="list every claim: ID, seed file, kind, status")
    lst.add_argument(
        "--json", action="store_true",
        help="print every claim as a JSON object (id, statement, kind, sources, covers, ...)",
    )

    show = sub.add_parser("show", help="check one claim and show its evidence and derivation")
    show.add_argument("claim_id")
    show.add_argument("--report", type=Path, help="read the claim from this JSON report instead")
    _run_options(show)

    ver = sub.add_parser("verify", help="check claims and write JSON and Markdown reports")
    ver.add_argument(
        "--only", action="append", default=[], metavar="GLOB",
        help="claim IDs to check (shell pattern; repeatable); default: all",
    )
    _run_options(ver)
    ver.add_argument("--jobs", type=_int_at_least(1), default=1, help="parallel processes")
    ver.add_argument("--json", type=Path, default=None, help="write the JSON report here")
    ver.add_argument("--markdown", type=Path, default=None, help="write the Markdown report here")
    ver.add_argument(
        "--fail-on", type=_verdicts, default=[], metavar="VERDICTS",
        help="comma-separated verdicts that make the exit code 1 (e.g. refuted,unsupported)",
    )
    ver.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    rep = sub.add_parser("reproduce", help="reproduce a paper figure: " + ", ".join(REPRODUCERS))
    rep.add_argument("target", choices=sorted(REPRODUCERS))
    rep.add_argument("--out", type=Path, default=Path("figures"), help="output folder")
    rep.add_argument("--seed", type=_int_at_least(0), default=0)
    rep.add_argument("--profile", choices=PROFILES, default="full")
    rep.add_argument("--replicates", type=_int_at_least(1), default=None)
    rep.add_argument("--no-progress", action="store_true")
    rep.add_argument(
        "--scheduler",
        default=None,
        help="address of a dask.distributed scheduler (tcp://host:8786) to run the cells on "
        "(targets that support it: rates)",
    )
    return parser


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", choices=PROFILES, default="quick", help="budget (default quick)")
    p.add_argument("--seed", type=_int_at_least(0), default=0, help="master seed (default 0)")
    p.add_argument(
        "--timeout", type=_positive_float, default=None, help="time limit per check, seconds"
    )


def claim_record(c: Claim) -> dict[str, Any]:
    """The JSON description of a registered claim, as ``moetheory list --json`` prints it."""
    return {
        "id": c.id,
        "statement": c.statement,
        "kind": c.kind,
        "seed_files": list(c.seed_files),
        "sources": [src.as_json() for src in c.sources],
        "covers": list(c.covers),
        "origin": c.origin,
        "section": c.section,
        "implemented": c.implemented,
    }


def _cmd_list(args: argparse.Namespace) -> int:
    claims = registered()
    if args.json:
        print(json.dumps([claim_record(c) for c in claims], indent=1, ensure_ascii=False))
        return 0
    width = max(len(c.id) for c in claims)
    for c in claims:
        status = "implemented" if c.implemented else "not implemented"
        print(f"{c.id:<{width}}  {c.seed_file[:3]}  {c.kind:<11}  {status}")
    done = sum(c.implemented for c in claims)
    print(f"{len(claims)} claims, {done} implemented, {len(claims) - done} not implemented")
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    if args.report is not None:
        data = json.loads(args.report.read_text(encoding="utf-8"))
        entries = [e for e in data["claims"] if e["id"] == args.claim_id]
        if not entries:
            raise ValueError(f"claim {args.claim_id!r} is not in report {args.report}")
        entry = entries[0]
    else:
        get_claim(args.claim_id)
        report = verify(
            [args.claim_id], profile=args.profile, seed=args.seed, timeout=args.timeout
        )
        entry = report["claims"][0]
    print(render_claim(entry, heading="#"))
    return 0


def verify_from_args(args: argparse.Namespace, default_only: Sequence[str] = ()) -> dict:
    """Run ``verify`` with the options of the ``verify`` subcommand parsed into ``args``."""
    only = args.only or list(default_only)
    select_claims(only)  # bad patterns fail before anything runs
    return verify(
        only,
        profile=args.profile,
        seed=args.seed,
        jobs=args.jobs,
        timeout=args.timeout,
        json_path=args.json,
        markdown_path=args.markdown,
        progress=not args.no_progress,
    )


def _cmd_verify(args: argparse.Namespace) -> int:
    report = verify_from_args(args)
    counts = ", ".join(f"{k} {v}" for k, v in report["counts"].items() if v)
    print(f"{len(report['claims'])} claims checked: {counts}")
    for path in (args.json, args.markdown):
        if path is not None:
            print(f"wrote {path}")
    hits = [v.value for v in args.fail_on if report["counts"].get(v.value)]
    if hits:
        print(f"--fail-on matched: {', '.join(hits)}", file=sys.stderr)
        return 1
    return 1 if report["counts"].get("error") else 0


def _cmd_reproduce(args: argparse.Namespace) -> int:
    extra = {"scheduler": args.scheduler} if args.scheduler else {}
    paths = reproduce(
        args.target,
        args.out,
        seed=args.seed,
        profile=args.profile,
        replicates=args.replicates,
        progress=not args.no_progress,
        **extra,
    )
    for path in paths:
        print(f"wrote {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``moetheory`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        load_checks()
        if args.command == "list":
            return _cmd_list(args)
        if args.command == "show":
            return _cmd_show(args)
        if args.command == "verify":
            return _cmd_verify(args)
        return _cmd_reproduce(args)
    except (ValueError, KeyError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"moetheory: error: {message}", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(f"moetheory: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("moetheory: interrupted; the reports hold the claims already checked",
              file=sys.stderr)
        return 130
