"""The command line of the generator: ``python -m moetheory.docs``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from moetheory._doccer import fill_doc
from moetheory.docs._build import (
    EXAMPLE_PARTS,
    _stale,
    _verify_now,
    generate_pages,
    write_pages,
)
from moetheory.docs._names import SEEDS_DIR

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
        0 on success; 1 with ``--check`` when a page is stale; 2 when the report cannot be
        read.

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
    parser = argparse.ArgumentParser(
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
    if args.report is not None:
        try:
            report = json.loads(args.report.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            print(f"moetheory.docs: error: cannot read --report {args.report}: {exc}",
                  file=sys.stderr)
            return 2
    else:
        report = _verify_now(progress=True)
    if args.save_report is not None:
        args.save_report.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    figures = args.figures or args.out.parent / "_static" / "figures"
    pages = generate_pages(report, args.out, figures, args.seeds)
    if args.check:
        stale = _stale(pages, args.out)
        for name in stale:
            print(f"stale: {args.out / name}")
        return 1 if stale else 0
    paths = write_pages(pages, args.out)
    if not args.quiet:
        print(f"wrote {len(paths)} pages to {args.out}")
    return 0
