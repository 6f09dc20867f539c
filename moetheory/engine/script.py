"""Run the checks of one ``proofs_checks`` module as a script."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from moetheory.engine.cli import build_parser, print_error, verify_from_args
from moetheory.engine.registry import load_checks
from moetheory.engine.report import render_markdown
from moetheory.engine.runner import Interrupted

__all__ = ["run_module_checks"]


def run_module_checks(prefixes: Sequence[str], argv: Sequence[str] | None = None) -> int:
    """Verify the claims whose IDs start with any of ``prefixes``; print the Markdown report.

    Parameters
    ----------
    prefixes : sequence of str
        Claim-ID prefixes of the module's claims (e.g. ``["cl.thm1."]``).
    argv : sequence of str, optional
        Command-line arguments (default ``sys.argv[1:]``), those of ``moetheory verify``
        (``--profile full``, ``--seed 3``, ``--json FILE``, ``--only GLOB`` to narrow
        further ...).

    Returns
    -------
    int
        The exit code: 2 for a bad argument, 1 if a check ended in ``error`` or a report
        could not be written, ``128 + signum`` when interrupted, else 0.

    See Also
    --------
    moetheory.engine.verification.verify : the run behind it.

    Notes
    -----
    What ``python proofs_checks/<module>.py`` calls, so every check module is a script.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run_module_checks(["pcr.experts.param-count"], ["--no-progress"])
    >>> code, "param-count" in out.getvalue()
    (0, True)
    """
    args = build_parser().parse_args(["verify", *(sys.argv[1:] if argv is None else argv)])
    try:
        load_checks()
        report = verify_from_args(args, default_only=[f"{p}*" for p in prefixes])
    except (ValueError, KeyError, OSError) as exc:
        return print_error(exc)
    except Interrupted as exc:
        print(f"moetheory: interrupted by {exc.name}", file=sys.stderr)
        return exc.exit_code
    print(render_markdown(report))
    return 1 if report["counts"]["error"] else 0
