"""Run the checks of one ``proofs_checks`` module as a script."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from moetheory.engine.cli import build_parser, print_error, verify_from_args
from moetheory.engine.registry import load_checks, registered
from moetheory.engine.report import render_markdown
from moetheory.engine.runner import Interrupted

__all__ = ["run_as_script", "run_module_checks"]


def run_module_checks(prefixes: Sequence[str] | None = None,
                      argv: Sequence[str] | None = None) -> int:
    """Verify the claims whose IDs start with any of ``prefixes``; print the Markdown report.

    Parameters
    ----------
    prefixes : sequence of str, optional
        Claim-ID prefixes of the claims (e.g. ``["cl.thm1."]``); by default the claims that
        the module run as a script (``__main__``) has registered, by their exact IDs.
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
    What ``python proofs_checks/<paper>/<section>.py`` calls (through :func:`run_as_script`),
    so every check module is a script.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run_module_checks(["pcr.experts.param-count"], ["--no-progress"])
    >>> code, "param-count" in out.getvalue()
    (0, True)
    """
    args = build_parser().parse_args(["verify", *(sys.argv[1:] if argv is None else argv)])
    if prefixes is None:  # before load_checks: only what the script itself registered
        only = [c.id for c in registered() if getattr(c.check, "__module__", "") == "__main__"]
    else:
        only = [f"{p}*" for p in prefixes]
    try:
        load_checks()
        report = verify_from_args(args, default_only=only)
    except (ValueError, KeyError, OSError) as exc:
        return print_error(exc)
    except Interrupted as exc:
        print(f"moetheory: interrupted by {exc.name}", file=sys.stderr)
        return exc.exit_code
    print(render_markdown(report))
    return 1 if report["counts"]["error"] else 0


def run_as_script() -> None:
    """Verify the claims of the module run as a script and exit with the run's code.

    Returns
    -------
    None
        It never returns: it raises :class:`SystemExit`.

    Raises
    ------
    SystemExit
        Always, with the exit code of :func:`run_module_checks` (the command-line arguments
        are those of ``moetheory verify``).

    See Also
    --------
    run_module_checks : the run, for a chosen set of claims.

    Notes
    -----
    The claims are those the module running as ``__main__`` has registered when it calls
    this, by their exact IDs, so a module never lists its own claims twice; the module may
    be one of ``proofs_checks`` or a user's own file of claims.

    Examples
    --------
    The last lines of every module of ``proofs_checks``::

        if __name__ == "__main__":
            from moetheory.engine.script import run_as_script

            run_as_script()

    >>> import subprocess, sys, textwrap
    >>> code = textwrap.dedent('''
    ...     from moetheory import Outcome, Verdict, claim
    ...     claim("mine.one", reading="r", statement="s", seed_files=["none"],
    ...           section="Mine")(lambda ctx: Outcome(Verdict.PROVED, "ok"))
    ...     from moetheory.engine.script import run_as_script
    ...     run_as_script()
    ... ''')
    >>> out = subprocess.run([sys.executable, "-c", code, "--no-progress"],
    ...                      capture_output=True, text=True)
    >>> out.returncode, "`mine.one` — **proved**" in out.stdout
    (0, True)
    """
    raise SystemExit(run_module_checks())
