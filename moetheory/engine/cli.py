"""The ``moetheory`` command line: ``list``, ``show``, ``verify`` and ``reproduce``.

Exit codes: 0 when the run completed (whatever the verdicts); 1 when ``--fail-on`` names a
verdict that occurred, a check ended in ``error`` or a file could not be written; 2 for bad
usage (one line naming the option and what it allows, before any claim runs); 128 + the
signal number when SIGINT (130), SIGTERM (143) or SIGHUP (129) stopped the run (the
reports then hold the claims already checked, with ``complete: false``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from moetheory.engine._arguments import OneLineParser, int_at_least
from moetheory.engine.context import PROFILES
from moetheory.engine.levels import FAMILY_ALPHA
from moetheory.engine.registry import Claim, get_claim, load_checks, registered, select_claims
from moetheory.engine.report import (
    ReportWriteError,
    ReportWriter,
    build_report,
    check_output_paths,
    read_report,
)
from moetheory.engine.report import _shown as _shown
from moetheory.engine.reproduce import REPRODUCERS, reproduce
from moetheory.engine.runner import (
    MAX_JOBS,
    MAX_MEMORY_LIMIT,
    MAX_SECONDS,
    MIN_MEMORY_LIMIT,
    Interrupted,
)
from moetheory.engine.scheduler import check_scheduler, check_shippable
from moetheory.engine.terminal import (
    FORMATS,
    json_text,
    printable,
    render_digest,
    render_list,
    render_show,
)
from moetheory.engine.usercode import load_user_checks
from moetheory.engine.verdicts import Verdict
from moetheory.engine.verification import cpu_count, verify

__all__ = ["build_parser", "console_main", "main"]


def _positive_float(text: str) -> float:
    """Seconds: a positive number, or ``inf`` for no limit."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a positive number of seconds (or inf for no limit), got {text!r}"
        ) from None
    if not (value > 0 and (value <= MAX_SECONDS or value == math.inf)):
        raise argparse.ArgumentTypeError(
            f"must be a positive number of seconds up to 1e9 (or inf for no "
            f"limit), got {text!r}"
        )
    return value


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


def _memory_size(text: str) -> int:
    """Bytes from ``512M``, ``2G``, ``1.5GiB`` or a plain number of bytes (powers of 1024)."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise argparse.ArgumentTypeError(
            f"expected a size such as 512M or 4G, got {text!r}"
        )
    number, unit = match.groups()
    value = float(number) * 1024 ** "_kmgt".index(unit.lower() or "_")
    if not math.isfinite(value) or not MIN_MEMORY_LIMIT <= value <= MAX_MEMORY_LIMIT:
        raise argparse.ArgumentTypeError(
            f"must be from {MIN_MEMORY_LIMIT // 2**20}M to {MAX_MEMORY_LIMIT // 2**40}T, "
            f"got {text!r}"
        )
    return int(value)


def _verdicts(text: str) -> list[Verdict]:
    names = [t.strip() for t in text.split(",") if t.strip()]
    allowed = [v.value for v in Verdict]
    bad = [n for n in names if n not in allowed]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"unknown verdict(s) {bad}; allowed: {allowed}")
    return [Verdict(n) for n in names]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``moetheory`` command.

    Returns
    -------
    argparse.ArgumentParser
        With the subcommands ``list``, ``show``, ``verify`` and ``reproduce``; a bad
        argument exits with code 2 and a one-line message naming it.

    See Also
    --------
    main : parses and runs.

    Notes
    -----
    Every option is checked by the parser itself where it can be (types, ranges, choices),
    so a bad value fails before any work.

    Examples
    --------
    >>> args = build_parser().parse_args(["verify", "--only", "cl.fig2", "--seed", "3"])
    >>> args.command, args.only, args.seed
    ('verify', ['cl.fig2'], 3)
    """
    from moetheory import __version__

    parser = OneLineParser(
        prog="moetheory",
        description="Check the mathematics of Mixture-of-Experts papers by machine.",
    )
    parser.add_argument("--version", action="version", version=f"moetheory {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    lst = sub.add_parser("list", help="list claims: ID, seed, check (or verdict), title")
    lst.add_argument(
        "patterns", nargs="*", metavar="GLOB",
        help="only claims whose ID matches one of these shell patterns (e.g. 'pcr.pde.*')",
    )
    lst.add_argument(
        "--json", action="store_true",
        help="print every claim as a JSON object (id, statement, kind, sources, covers, ...)",
    )
    lst.add_argument(
        "--report", type=Path, default=None,
        help="show each claim's verdict from this JSON report (written by verify --json)",
    )
    _checks_option(lst)

    show = sub.add_parser(
        "show", help="one claim: statement, reading, derivation, verdict, evidence"
    )
    show.add_argument("claim_id")
    show.add_argument(
        "--report", type=Path,
        help="show the claim as stored in this JSON report, without re-running its check",
    )
    show.add_argument(
        "--format", choices=FORMATS, default="text",
        help="text (wrapped to the terminal, maths as Unicode; default), markdown or json",
    )
    show.add_argument(
        "--evidence", "-v", action="store_true",
        help="text: print all of the evidence (default: a digest of its first facts)",
    )
    _run_options(show)
    _checks_option(show)

    ver = sub.add_parser("verify", help="check claims and write JSON and Markdown reports")
    ver.add_argument(
        "--only", action="append", default=[], metavar="GLOB",
        help="claim IDs to check (shell pattern; repeatable); default: all",
    )
    _run_options(ver)
    _checks_option(ver)
    ver.add_argument(
        "-v", "--verbose", action="store_true",
        help="print one line per claim as it completes: ID, verdict, seconds (hides the bar)",
    )
    ver.add_argument(
        "--jobs", type=int_at_least(1, MAX_JOBS), default=1,
        help=f"checks run at once (1 to {MAX_JOBS}; more than the CPUs warns)",
    )
    ver.add_argument("--json", type=Path, default=None, help="write the JSON report here")
    ver.add_argument("--markdown", type=Path, default=None, help="write the Markdown report here")
    ver.add_argument(
        "--fail-on", type=_verdicts, default=[], metavar="VERDICTS",
        help="comma-separated verdicts that make the exit code 1 (e.g. refuted,unsupported)",
    )
    bar = ver.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_const", const=True,
                     default=None, help="show the progress bar even when not on a terminal")
    bar.add_argument("--no-progress", dest="progress", action="store_const", const=False,
                     help="hide the progress bar (default: shown on a terminal only)")
    ver.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="run the checks on this Dask distributed scheduler (e.g. tcp://host:8786)",
    )

    rep = sub.add_parser("reproduce", help="reproduce a paper figure: " + ", ".join(REPRODUCERS))
    rep.add_argument("target", choices=sorted(REPRODUCERS))
    rep.add_argument("--out", type=Path, default=Path("figures"), help="output folder")
    rep.add_argument("--seed", type=int_at_least(0), default=0,
                     help="master seed (default 0)")
    rep.add_argument("--profile", choices=PROFILES, default="quick",
                     help="design: sizes, replicates, iterations (default quick; full: the "
                     "paper's scale)")
    rep.add_argument("--replicates", type=int_at_least(1), default=None,
                     help="replicates instead of the profile's")
    rep.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    rep.add_argument(
        "--scheduler",
        default=None, metavar="ADDRESS",
        help="address of a dask.distributed scheduler (tcp://host:8786) to run the cells on "
        "(targets that support it: rates); large cells are split into tasks of their "
        "replicates, and the numbers are those of the local run",
    )
    return parser


def _checks_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--checks", action="append", default=[], metavar="FILE_OR_MODULE",
        help="load your own claims from this Python file or module (repeatable); verify "
        "then checks only them unless --only says otherwise",
    )


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", choices=PROFILES, default="quick", help="budget (default quick)")
    p.add_argument("--seed", type=int_at_least(0), default=0, help="master seed (default 0)")
    p.add_argument(
        "--timeout", type=_positive_float, default=None,
        help="CPU-time limit per check in seconds (default 900; inf for none)",
    )
    p.add_argument(
        "--wall-timeout", type=_positive_float, default=None,
        help="wall-clock backstop per check in seconds (default 10 x timeout + 10)",
    )
    p.add_argument(
        "--memory-limit", type=_memory_size, default=None, metavar="SIZE",
        help="address-space limit per check, e.g. 4G (default none)",
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
    claims = select_claims(args.patterns) if args.patterns else registered()
    if args.json:
        print(json_text([claim_record(c) for c in claims], indent=1))
        return 0
    verdicts = None
    if args.report is not None:
        verdicts = {
            e["id"]: _as_text(e.get("verdict", "?")) for e in report_claims(args.report)
        }
    print(render_list(claims, verdicts))
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    if args.report is not None:
        entry = report_entry(args.report, args.claim_id)
    else:
        get_claim(args.claim_id)
        report = verify(
            [args.claim_id], profile=args.profile, seed=args.seed, timeout=args.timeout,
            memory_limit=args.memory_limit, wall_timeout=args.wall_timeout,
        )
        entry = report["claims"][0]
    sys.stdout.write(render_show(displayable_entry(entry), args.format,
                                 evidence=args.evidence))
    return 0


_TEXT_FIELDS = ("id", "statement", "reading", "verdict", "summary")
_OPTIONAL_TEXT = ("derivation", "kind", "seed_file", "section", "statement_latex",
                  "summary_latex", "origin")


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=repr)


def _clean_value(value: Any) -> Any:
    if isinstance(value, Mapping):
        if set(value) == {"sympy", "latex"}:
            return {k: _as_text(v) for k, v in value.items()}
        return {str(k): _clean_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean_value(v) for v in value]
    return value


def _clean_reading(r: Any) -> dict[str, Any]:
    if not isinstance(r, Mapping):
        return {"name": "?", "reading": "", "verdict": "?", "summary": _as_text(r),
                "evidence": {}, "derivation": ""}
    out = dict(r)
    for key in ("name", "reading", "verdict", "summary"):
        out[key] = _as_text(r.get(key, "?" if key in ("name", "verdict") else ""))
    for key in ("derivation", "reading_latex", "summary_latex"):
        if key in r:
            out[key] = _as_text(r[key])
    evidence = r.get("evidence", {})
    out["evidence"] = _clean_value(evidence if isinstance(evidence, Mapping) else
                                   {"value": evidence})
    return out


def displayable_entry(entry: Any) -> dict[str, Any]:
    """A report entry with every field of the type the renderers expect.

    A well-formed entry comes back equal to itself; in a malformed one (read from a file
    someone edited, or written by another tool) missing text fields become ``""`` or
    ``"?"``, other values become their JSON text, evidence that is not a mapping is shown
    under ``value``, so ``moetheory show`` renders any entry.

    Examples
    --------
    >>> displayable_entry({"id": "x", "evidence": [1], "readings": "?"})["evidence"]
    {'value': [1]}
    """
    if not isinstance(entry, Mapping):
        entry = {"summary": entry}
    out = dict(entry)
    for key in _TEXT_FIELDS:
        out[key] = _as_text(entry.get(key, "?" if key in ("id", "verdict") else ""))
    for key in _OPTIONAL_TEXT:
        if key in entry:
            out[key] = _as_text(entry[key])
    evidence = entry.get("evidence", {})
    out["evidence"] = _clean_value(evidence if isinstance(evidence, Mapping | type(None))
                                   else {"value": evidence}) or {}
    readings = entry.get("readings")
    out["readings"] = [_clean_reading(r) for r in readings] if isinstance(readings, list) else []
    alpha = entry.get("alpha")
    if alpha is not None and (isinstance(alpha, bool) or not isinstance(alpha, int | float)):
        out["alpha"] = None
    if "claim_seed" in entry and not isinstance(entry["claim_seed"], int | str):
        out["claim_seed"] = _as_text(entry["claim_seed"])
    seeds = entry.get("seed_files")
    if seeds is not None and not (isinstance(seeds, list)
                                  and all(isinstance(s, str) for s in seeds)):
        out["seed_files"] = [_as_text(seeds)]
    sources = entry.get("sources")
    if sources is not None:
        out["sources"] = [
            {"seed_file": src["seed_file"], "lines": [n for n in src.get("lines") or []
                                                      if isinstance(n, int)]}
            for src in (sources if isinstance(sources, list) else [])
            if isinstance(src, Mapping) and isinstance(src.get("seed_file"), str)
            and isinstance(src.get("lines", []), list)
        ]
    return out


def report_entry(path: Path, claim_id: str) -> Mapping[str, Any]:
    """The entry of ``claim_id`` in the JSON report at ``path``.

    Raises
    ------
    ValueError
        One line naming the file: it is missing, unreadable, not JSON, not a moetheory
        report, or does not hold the claim.
    """
    for entry in report_claims(path):
        if entry["id"] == claim_id:
            return entry
    raise ValueError(f"--report {_shown(path)}: holds no claim {claim_id!r}")


def report_claims(path: Path) -> list[Any]:
    """The ``claims`` list of the JSON report at ``path`` (objects with a string ``id``).

    Raises
    ------
    ValueError
        One line naming the file: it is missing, unreadable, not a regular file, too large,
        not JSON, nested too deep or not a moetheory report
        (:func:`~moetheory.engine.report.read_report`).
    """
    claims: list[Any] = read_report(path)["claims"]
    return claims


def _check_out_dir(path: Path) -> None:
    """Make sure ``reproduce --out`` can be written, before any work."""
    where = f"--out {path}"
    if path.exists() and not path.is_dir():
        raise ValueError(f"{where}: exists and is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{where}: cannot create the directory ({exc.strerror})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise ValueError(f"{where}: the directory is not writable")


def print_error(exc: ValueError | KeyError | OSError) -> int:
    """Print a user error as ``moetheory: error: ...`` on stderr; return the exit status.

    Parameters
    ----------
    exc : ValueError, KeyError or OSError
        The error (a bad argument, an unknown claim, a file that cannot be read or written).

    Returns
    -------
    int
        2 for a bad argument or an unknown name, 1 for a file error.

    See Also
    --------
    main : the command line printing it.
    moetheory.engine.script.run_module_checks : a check module's script printing it.

    Notes
    -----
    A ``KeyError`` prints its key without quotes; an ``OSError`` its file name and the
    system's message. The message is always one line: a newline or a character that acts
    on a terminal is printed as its escape.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     status = print_error(KeyError("no claim 'x'"))
    >>> status, err.getvalue()
    (2, "moetheory: error: no claim 'x'\\n")
    """
    if isinstance(exc, ValueError | KeyError):
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        _error_line(f"moetheory: error: {message}")
        return 2
    where = f"{_shown(exc.filename)}: " if exc.filename else ""
    _error_line(f"moetheory: error: {where}{exc.strerror or exc}")
    return 1


def _error_line(text: str) -> None:
    """Print one line on standard error: newlines and control characters as escapes."""
    print(printable(text).replace("\n", "\\n"), file=sys.stderr)


def verify_from_args(args: argparse.Namespace, default_only: Sequence[str] = (),
                     on_result: Callable[[dict[str, Any]], None] | None = None) -> dict:
    """Run ``verify`` with the options of the ``verify`` subcommand parsed into ``args``.

    Everything is checked before any claim runs: the patterns, the output paths.
    """
    only = args.only or list(default_only)
    check_output_paths(args.json, args.markdown)
    claims = select_claims(only)  # bad patterns fail before anything runs
    if on_result is not None and args.progress is None:
        args.progress = False  # -v: the lines take the bar's place
    if args.scheduler is not None:  # reached and answering before any report is touched
        check_shippable(claims, "--scheduler")
        check_scheduler(args.scheduler, "--scheduler")
    if args.jobs > cpu_count() and args.scheduler is None:
        print(f"moetheory: warning: --jobs {args.jobs} exceeds the {cpu_count()} CPUs of "
              "this machine; checks will compete for CPU time", file=sys.stderr)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"jobs=\d+ exceeds", category=RuntimeWarning)
        return verify(
            only,
            profile=args.profile,
            seed=args.seed,
            jobs=args.jobs,
            timeout=args.timeout,
            json_path=args.json,
            markdown_path=args.markdown,
            progress=args.progress,
            memory_limit=args.memory_limit,
            wall_timeout=args.wall_timeout,
            scheduler=args.scheduler,
            on_result=on_result,
        )


def _verbose_line(args: argparse.Namespace) -> Callable[[dict[str, Any]], None] | None:
    """With ``-v``: print each claim's ID, verdict and seconds as it completes."""
    if not args.verbose:
        return None
    width = max(len(c.id) for c in select_claims(args.only or args.user_claims))

    def line(entry: dict[str, Any]) -> None:
        print(f"{entry['id']:<{width}}  {entry['verdict']:<12} {entry['seconds']:8.2f} s",
              flush=True)

    return line


def _cmd_verify(args: argparse.Namespace) -> int:
    failed: ReportWriteError | None = None
    check_output_paths(args.json, args.markdown)  # named as given, before any redirection
    with _reports_on_stdout(args) as names:
        try:
            report = verify_from_args(args, args.user_claims, on_result=_verbose_line(args))
        except ReportWriteError as exc:  # the run is complete; a report could not be written
            report = dict(exc.report)
            failed = ReportWriteError(report, {names.get(path, path): error
                                               for path, error in exc.failures.items()})
    # when a report went to standard output, the summary goes to standard error
    out = sys.stderr if names else sys.stdout
    counts = ", ".join(f"{k} {v}" for k, v in report["counts"].items() if v)
    print(f"{len(report['claims'])} claims checked: {counts}", file=out)
    written = args.json is not None and (failed is None or os.fspath(args.json)
                                         not in failed.failures)
    shown = _shown(args.json) if written and not _names_stdout(args.json) else None
    print(render_digest(report, shown), file=out)
    for path in (args.json, args.markdown):
        if path is not None and (failed is None or os.fspath(path) not in failed.failures):
            print(f"wrote {_shown(path)}", file=out)
    if failed is not None:
        return print_error(failed)
    hits = [v.value for v in args.fail_on if report["counts"].get(v.value)]
    if hits:
        print(f"--fail-on matched: {', '.join(hits)}", file=sys.stderr)
        return 1
    return 1 if report["counts"].get("error") else 0


def _names_stdout(path: Path | None) -> bool:
    """Whether ``path`` is this process's standard output (``/dev/stdout``, ``/dev/fd/1``,
    or another name of the same pipe, terminal or file)."""
    if path is None:
        return False
    try:
        return os.path.samestat(os.stat(path), os.fstat(1))
    except (OSError, ValueError):
        return False


@contextmanager
def _reports_on_stdout(args: argparse.Namespace) -> Iterator[dict[str, str]]:
    """While a report goes to standard output, everything else goes to standard error.

    When ``--json`` or ``--markdown`` names standard output, descriptor 1 is pointed at
    standard error for the run (so nothing a check prints lands in the report) and the
    report is written to a duplicate of the original descriptor; both are put back
    afterwards. Yields the names used meanwhile, each mapped to the name given (empty
    when no report goes to standard output).
    """
    names = [name for name in ("json", "markdown") if _names_stdout(getattr(args, name))]
    if not names:
        yield {}
        return
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    saved = os.dup(1)
    original = {name: getattr(args, name) for name in names}
    try:
        os.dup2(2, 1)
        for name in names:
            setattr(args, name, Path(f"/dev/fd/{saved}"))
        yield {f"/dev/fd/{saved}": os.fspath(path) for path in original.values()}
    finally:
        for name, path in original.items():
            setattr(args, name, path)
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        os.dup2(saved, 1)
        os.close(saved)


def _cmd_reproduce(args: argparse.Namespace) -> int:
    if args.scheduler is not None and args.target == "rates":  # the target that uses one
        check_scheduler(args.scheduler, "--scheduler")
    _check_out_dir(args.out)
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


def _raise_interrupted(signum: int, frame: object) -> None:
    raise Interrupted(signum)


@contextmanager
def _stop_signals_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP interrupt the command like SIGINT (the engine then takes over)."""
    old: dict[int, Any] = {}
    try:
        for sig in (signal.SIGTERM, signal.SIGHUP):
            old[sig] = signal.signal(sig, _raise_interrupted)
    except ValueError:  # not the main thread: leave the handlers alone
        pass
    try:
        yield
    finally:
        for number, handler in old.items():
            signal.signal(number, handler)


def _write_interrupted_reports(args: argparse.Namespace) -> bool:
    """Before its first claim, an interrupted ``verify`` still replaces earlier reports.

    Writes an incomplete report (no claims) to the regular files among ``--json`` and
    ``--markdown``, so no report of an earlier run survives; returns whether it did.
    """
    if args.command != "verify" or (args.json is None and args.markdown is None):
        return False
    try:
        writer = ReportWriter(args.json, args.markdown)
        writer.write(build_report([], seed=args.seed, profile=args.profile,
                                  family_alpha=FAMILY_ALPHA, selection=args.only,
                                  complete=False))
    except (ValueError, OSError):
        return False
    return not writer.failures


def _interrupted_message(args: argparse.Namespace, signum: int, written: bool) -> str:
    name = signal.Signals(signum).name
    paths = [_shown(p) for p in (getattr(args, "json", None), getattr(args, "markdown", None))
             if isinstance(p, Path)]
    if args.command == "verify" and paths and not written:
        return f"moetheory: interrupted by {name} before any claim ran; no report was written"
    if args.command == "verify" and paths:
        verb = "hold" if len(paths) > 1 else "holds"
        return (f"moetheory: interrupted by {name}; {' and '.join(paths)} {verb} the claims "
                "already checked (complete: false)")
    return f"moetheory: interrupted by {name}"


def _detach_stdout() -> None:
    """Point standard output at ``/dev/null``, so that the interpreter's last flush of what
    is still buffered finds no closed pipe (and prints no "Exception ignored")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real stdout (redirected in-process)
        pass
    finally:
        os.close(devnull)


def _open_standard_streams() -> None:
    """Give a closed standard descriptor (``cron ... >&- 2>&-``) ``/dev/null``.

    Otherwise Python has no ``sys.stdout`` or ``sys.stderr`` (an ``AttributeError`` at the
    first message), and the next file the run opens would take descriptor 1 or 2, so what
    a check prints would land in it: the run goes on, its messages are lost.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stdout is None:
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)


#: The thread-count variables of the BLAS libraries, set to one in the command's process.
BLAS_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def console_main() -> int:
    """Entry point of the ``moetheory`` console script and of ``python -m moetheory``.

    Returns
    -------
    int
        :func:`main`'s exit code for the arguments in ``sys.argv``.

    See Also
    --------
    main : the command line, for a caller's own process.

    Notes
    -----
    The process is the command's own, so before NumPy is loaded its BLAS is given one
    thread (each of :data:`BLAS_VARIABLES` the environment does not set is set to 1): the
    command does no linear algebra worth a thread pool (every check runs in a process of its
    own with one BLAS thread), and an OpenBLAS started with a thread per core spends ~0.07 s
    of CPU starting them, a tenth of ``moetheory list``. A user's own setting is kept, and
    :func:`main` called in a caller's process changes nothing of it.

    Examples
    --------
    >>> import subprocess, sys
    >>> subprocess.run([sys.executable, "-m", "moetheory", "--version"],
    ...                capture_output=True).returncode
    0
    """
    for name in BLAS_VARIABLES:
        os.environ.setdefault(name, "1")
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    """The ``moetheory`` command line: parse ``argv`` and run the subcommand.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code: 0 on success, 1 when a check ended in ``error`` (or matched
        ``--fail-on``) or a file could not be written, 2 for a bad argument, ``128 + signum``
        when interrupted (the reports written so far are kept), 141 (``128 + SIGPIPE``,
        without a message) when the reader of standard output closed it, as ``head`` does.

    Raises
    ------
    ValueError
        Never out of ``main``: raised inside for a bad argument, it is caught and printed
        as one line with exit code 2.

    See Also
    --------
    build_parser : the options.
    console_main : the console script's entry point, which calls this.
    moetheory.engine.verification.verify : the ``verify`` subcommand's work.

    Notes
    -----
    Errors are printed as one line, ``moetheory: error: ...``, never as a traceback.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = main(["list", "pcr.experts.param-count"])
    >>> code, "pcr.experts.param-count" in out.getvalue()
    (0, True)
    """
    _open_standard_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    with _stop_signals_interrupt():
        try:
            load_checks()
            if args.command == "verify":  # before any user code runs
                check_output_paths(args.json, args.markdown)
            args.user_claims = [i for spec in getattr(args, "checks", [])
                                for i in load_user_checks(spec)]
            if args.command == "list":
                return _cmd_list(args)
            if args.command == "show":
                return _cmd_show(args)
            if args.command == "verify":
                return _cmd_verify(args)
            return _cmd_reproduce(args)
        except BrokenPipeError:  # the reader went away (``moetheory list | head``): quietly
            _detach_stdout()
            return 128 + int(signal.SIGPIPE)
        except (ValueError, KeyError, OSError) as exc:
            return print_error(exc)
        except ImportError as exc:
            _error_line(f"moetheory: error: {exc}")
            return 1
        except KeyboardInterrupt as exc:
            signum: int = exc.signum if isinstance(exc, Interrupted) else int(signal.SIGINT)
            written = getattr(exc, "reports_written", False) or _write_interrupted_reports(args)
            print(_interrupted_message(args, signum, written), file=sys.stderr)
            return 128 + signum
