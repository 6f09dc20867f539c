"""Run the checks of one ``proofs_checks`` module as a script."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from moetheory.cli import build_parser
from moetheory.registry import load_checks
from moetheory.report import render_markdown
from moetheory.verification import verify

__all__ = ["run_module_checks"]


def run_module_checks(prefixes: Sequence[str], argv: Sequence[str] | None = None) -> int:
    """Verify the claims whose IDs start with any of ``prefixes``; print the Markdown report.

    The command-line arguments are those of ``moetheory verify`` (``--profile full``,
    ``--seed 3``, ``--json FILE``, ``--only GLOB`` to narrow further ...). Returns the exit
    code: 1 if a check ended in ``error``, else 0.
    """
    args = build_parser().parse_args(["verify", *(sys.argv[1:] if argv is None else argv)])
    load_checks()
    report = verify(
        args.only or [f"{p}*" for p in prefixes],
        profile=args.profile,
        seed=args.seed,
        jobs=args.jobs,
        timeout=args.timeout,
        json_path=args.json,
        markdown_path=args.markdown,
        progress=not args.no_progress,
    )
    print(render_markdown(report))
    return 1 if report["counts"]["error"] else 0
