"""The command line of the generator: ``python -m moetheory.docs``."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from moetheory._doccer import fill_doc
from moetheory.docs._build import EXAMPLE_PARTS, _verify_now, generate_pages, write_pages
from moetheory.docs._names import SEEDS_DIR
from moetheory.engine._page_folder import check_page_folder, stale_pages
from moetheory.engine.report import (
    OutputPathError,
    _shown,
    check_output_path,
    read_report,
    write_atomic,
)
from moetheory.engine.runner import Interrupted

__all__ = ["main"]


@fill_doc(EXAMPLE_PARTS)
def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m moetheory.docs [--report FILE] --out DIR [--check]``.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success; 1 with ``--check`` when a page is stale; 2 on a bad argument (one
        line naming it, before any work); ``128 + signum`` when a signal stops the
        verification.

    See Also
    --------
    generate_pages : what is written.

    Notes
    -----
    Without ``--report`` it first runs the whole verification in the profile, seed and
    number of jobs of the documentation build (:data:`GENERATE_PROFILE` ...).

    Examples
    --------
    %(empty_report_file)s
    ...     main(["--report", str(rep), "--out", tmp + "/claims", "--quiet"])
    0
    """
    from moetheory.engine._arguments import OneLineParser

    parser = OneLineParser(
        prog="python -m moetheory.docs", description="Generate the docs' claim pages."
    )
    parser.add_argument("--report", type=Path, help="JSON report to use (default: verify now)")
    parser.add_argument("--out", type=Path, default=Path("docs/claims"), help="output folder")
    parser.add_argument(
        "--figures",
        type=Path,
        default=None,
        help="figures folder (default: _static/figures beside the output folder)",
    )
    parser.add_argument("--seeds", type=Path, default=SEEDS_DIR, help="seed documents folder")
    parser.add_argument("--save-report", type=Path, help="also write the report used here (JSON)")
    parser.add_argument("--check", action="store_true", help="only report stale pages; exit 1")
    parser.add_argument("--quiet", action="store_true", help="print nothing on success")
    args = parser.parse_args(argv)
    figures = args.figures or args.out.parent / "_static" / "figures"
    problem = _path_problem(args)  # all checked before the verification (minutes)
    if problem is not None:
        parser.error(problem)
    if args.report is not None:
        try:
            report = read_report(args.report)
        except ValueError as exc:
            parser.error(str(exc))
    else:
        try:
            report = _verify_now(progress=True)
        except KeyboardInterrupt as exc:
            signum = exc.signum if isinstance(exc, Interrupted) else int(signal.SIGINT)
            print(f"python -m moetheory.docs: interrupted by {signal.Signals(signum).name} "
                  f"while verifying; no page written", file=sys.stderr)
            return 128 + signum
    if args.save_report is not None:
        write_atomic(args.save_report,
                     json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    pages = generate_pages(report, args.out, figures, args.seeds)
    if args.check:
        stale = stale_pages(pages, args.out)
        for name in stale:
            print(f"stale: {args.out / name}")
        return 1 if stale else 0
    try:
        paths = write_pages(pages, args.out)
    except OSError as exc:
        print(f"python -m moetheory.docs: error: --out {_shown(args.out)}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"wrote {len(paths)} pages to {args.out}")
    return 0


def _path_problem(args: argparse.Namespace) -> str | None:
    """One line naming the first path option that cannot be used, or None."""
    for option, folder in (("--figures", args.figures), ("--seeds", args.seeds)):
        if folder is not None and not folder.is_dir():
            return f"{option} {_shown(folder)}: is not a directory"
    try:
        check_page_folder(args.out, "--out")
        if args.save_report is not None:
            check_output_path(args.save_report, "--save-report")
    except OutputPathError as exc:
        return str(exc)
    return None
