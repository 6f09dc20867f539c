"""The verification report: versioned JSON and readable Markdown, written atomically.

JSON schema ``moetheory-report/1``::

    {"schema": "moetheory-report/1", "seed": int, "profile": "quick" | "full",
     "family_alpha": float, "environment": {...}, "complete": bool,
     "selection": [patterns], "counts": {verdict: n},
     "claims": [ {"id", "seed_file", "seed_files", "section", "statement", "reading",
                  "kind", "implemented", "origin", "provenance", "sources", "covers",
                  "claim_seed", "alpha", "verdict", "summary", "evidence", "readings",
                  "derivation", "statement_latex", "summary_latex", "seconds"} ]}

``origin`` is ``"seed"`` or ``"package"`` (a statement the package adds); ``provenance`` is
where the claim and its check come from: ``"catalogue"``, ``"file PATH"`` (a ``--checks``
file) or ``"module NAME"``; ``sources`` is ``[{"seed_file", "lines": [1-based]}]``;
``covers`` lists the audit-row keys checked. These four fields were added within schema 1
(readers that ignore unknown keys are unaffected). Each entry is built by the engine from
the claim it ran and the validated result of its check
(:func:`~moetheory.engine.verdicts.checked_payload`), never by the check.

A claim checked under several readings is one entry whose ``verdict`` is that of its
primary reading and whose ``readings`` list holds one object per reading
(``{"name", "reading", "verdict", "summary", "evidence", "derivation", "reading_latex",
"summary_latex"}``). The ``*_latex`` fields (added within schema 1; empty when the check
gives none) hold the same text with its formulas inside ``$...$`` for typesetting. Only the
``seconds`` fields vary between two runs with the same seed on the same installation.

The file is standard JSON (RFC 8259): a non-finite number is written as the string ``"nan"``,
``"inf"`` or ``"-inf"``, never as the literals ``NaN`` or ``Infinity``; a report read from
disk that holds those literals is read with them as these strings, and ``moetheory show
--format json`` writes them so. Text fields may hold any Unicode; what is printed for a
person has its control characters shown as escapes (:func:`~moetheory.engine.terminal.printable`).

A report is read (:func:`read_report`) from a regular file of at most
:data:`MAX_REPORT_BYTES`, nested at most :data:`MAX_DEPTH` levels deep, whose ``claims`` are
objects with a string ``id``; anything else is refused in one line.

Writing never replaces the object at a report path by something else: a regular file is
replaced atomically and keeps its permission bits (a new file gets the umask's), a
symbolic link is written through to its target, and a FIFO or a character device (a pipe,
``/dev/stdout``) is written in place, once, with the final report. Every path is checked
by :func:`check_output_paths` before any claim runs (its name's length, its path's length,
and a probe file created and removed beside it), and the final writes of regular files
finish whatever signal arrives meanwhile (:func:`deferred_signals`).
"""

from __future__ import annotations

import json
import math
import os
import platform
import re
import signal
import stat
import tempfile
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from moetheory._doccer import fill_doc
from moetheory.engine._docparts import REPORT_PARTS
from moetheory.engine._excerpt import first_paragraphs
from moetheory.engine.display import shown_evidence
from moetheory.engine.mathtext import prettify, safe_tex
from moetheory.engine.verdicts import Verdict

__all__ = [
    "DIGEST_FACTS",
    "MAX_DEPTH",
    "MAX_REPORT_BYTES",
    "SCHEMA",
    "SUMMARY_ROW_CHARS",
    "OutputPathError",
    "ReportWriteError",
    "ReportWriter",
    "build_report",
    "check_output_path",
    "check_output_paths",
    "claim_title",
    "deferred_signals",
    "environment",
    "read_report",
    "render_claim",
    "render_markdown",
    "shorten",
    "sources_text",
    "write_atomic",
    "write_json",
]

SCHEMA = "moetheory-report/1"

#: The largest report file :func:`read_report` reads (a full run's report is a few MB).
MAX_REPORT_BYTES = 256 * 2**20

#: The deepest nesting of arrays and objects :func:`read_report` accepts (a report's
#: evidence nests a handful of levels).
MAX_DEPTH = 64


def _shown(path: object) -> str:
    """A path as a message shows it: as is when printable, else as a Python string literal
    (one line, every control character escaped)."""
    text = os.fsdecode(path) if isinstance(path, str | bytes | os.PathLike) else str(path)
    # controls, bidirectional marks, separators, undecodable bytes (surrogate escapes)
    return text if text.isprintable() and text == text.strip() else repr(text)


_PACKAGES = ("moetheory", "numpy", "scipy", "sympy", "mpmath")


def environment() -> dict[str, Any]:
    """Versions that can change a verdict (no host names, no times).

    Returns
    -------
    dict
        ``python``, ``implementation``, ``machine`` and ``packages`` (the versions of
        moetheory, NumPy, SciPy, SymPy and mpmath; ``None`` for one not installed).

    See Also
    --------
    build_report : stores it in every report.

    Notes
    -----
    Nothing identifying the host or the time is recorded, so two runs of the same code on two
    machines give reports that differ only where a verdict really could.

    Examples
    --------
    >>> sorted(environment())
    ['implementation', 'machine', 'packages', 'python']
    """
    from importlib.metadata import PackageNotFoundError, version

    versions: dict[str, str | None] = {}
    for name in _PACKAGES:
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "packages": versions,
    }


def build_report(
    entries: Iterable[Mapping[str, Any]],
    *,
    seed: int,
    profile: str,
    family_alpha: float,
    selection: Iterable[str] = (),
    complete: bool = True,
    env: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Assemble the report object from claim entries (in report order).

    Parameters
    ----------
    entries : iterable of mapping
        The claims' report entries, as the runner makes them.
    seed : int
        The run's master seed.
    profile : str
        The run's profile (``quick``, ``full``).
    family_alpha : float
        Family-wise error level of the statistical claims.
    selection : iterable of str
        The ``--only`` patterns of the run (empty for all claims).
    complete : bool
        False for a run that was interrupted.
    env : mapping, optional
        :func:`environment`, when the caller has read it already (a run reads it once).

    Returns
    -------
    dict
        A ``moetheory-report/1`` report: schema, seed, profile, ``family_alpha``,
        :func:`environment`, ``complete``, ``selection``, ``counts`` (one per verdict, zeros
        included, in the order of :class:`~moetheory.engine.verdicts.Verdict`) and ``claims``.

    See Also
    --------
    write_json, render_markdown : the report on disk.

    Notes
    -----
    The counts always list every verdict, so two reports can be compared key by key.

    Examples
    --------
    >>> r = build_report([{"id": "x", "verdict": "proved"}], seed=0, profile="quick",
    ...                  family_alpha=0.05)
    >>> r["schema"], r["counts"]["proved"], r["counts"]["refuted"]
    ('moetheory-report/1', 1, 0)
    """
    claims = list(entries)
    counts = Counter(e["verdict"] for e in claims)
    return {
        "schema": SCHEMA,
        "seed": seed,
        "profile": profile,
        "family_alpha": family_alpha,
        "environment": dict(environment() if env is None else env),
        "complete": complete,
        "selection": list(selection),
        "counts": {v.value: counts.get(v.value, 0) for v in Verdict},
        "claims": claims,
    }


class OutputPathError(ValueError):
    """A report path that cannot be written; the message names the path and the problem.

    Parameters
    ----------
    *args : object
        As for :class:`ValueError`: the one-line message.

    See Also
    --------
    check_output_path : raises it.

    Notes
    -----
    A subclass of :class:`ValueError`, so callers that treat bad arguments alike need not
    know it; the command line prints its message and exits with status 2.

    Examples
    --------
    >>> str(OutputPathError("--json /: is a directory; give a file name"))
    '--json /: is a directory; give a file name'
    """


def check_output_path(path: str | os.PathLike[str], option: str = "path") -> Path:
    """Check, before any work, that a report can be written at ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        The report path.
    option : str
        How the message names the path (``--json``, ``json_path``).

    Returns
    -------
    Path
        ``path`` as a :class:`~pathlib.Path`.

    Raises
    ------
    OutputPathError
        One line naming ``option``, the path and the problem: a directory, a missing
        parent directory, a place that cannot be written, another kind of file, a name
        longer than the file system's ``NAME_MAX``, a path longer than ``PATH_MAX``, a
        NUL in the path.

    See Also
    --------
    check_output_paths : both report paths at once.
    write_atomic : how the report is then written.

    Notes
    -----
    Allowed: a new file in an existing, writable directory; an existing writable regular
    file, FIFO or character device; a symbolic link to any of these (or a dangling link
    whose target's directory exists). For a regular file, a temporary sibling is created
    and removed as :func:`write_atomic` will, so that what the permission bits do not
    tell (a read-only file system, a name it refuses) fails here, before any work. A path
    that holds a newline or a control character is shown as a Python string literal, so
    the message stays one line.

    Examples
    --------
    >>> check_output_path("/", "--json")
    Traceback (most recent call last):
    ...
    moetheory.engine.report.OutputPathError: --json /: is a directory; give a file name
    """
    try:
        text = os.fsdecode(path)
    except TypeError:
        raise OutputPathError(
            f"{option} must be a file path (str or os.PathLike), got {path!r}"
        ) from None
    if not text:
        raise OutputPathError(f"{option}: the path is empty; give a file name")
    p = Path(text)
    where = f"{option} {_shown(text)}"
    if "\0" in text:
        raise OutputPathError(f"{where}: a path cannot hold a NUL character")
    _check_lengths(p, where)
    try:
        st = os.stat(p)  # follows symbolic links
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise OutputPathError(f"{where}: {_shown(p.parent)} is not a directory") from None
    except OSError as exc:
        raise OutputPathError(f"{where}: cannot be used ({exc.strerror})") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise OutputPathError(f"{where}: is a directory; give a file name")
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode)
                or stat.S_ISCHR(st.st_mode)):
            raise OutputPathError(
                f"{where}: is neither a regular file, a FIFO nor a character device"
            )
        if not os.access(p, os.W_OK):
            raise OutputPathError(f"{where}: cannot be written (permission denied)")
        if stat.S_ISREG(st.st_mode):
            parent = Path(os.path.realpath(p)).parent
            if not os.access(parent, os.W_OK | os.X_OK):
                raise OutputPathError(
                    f"{where}: cannot be replaced, its directory {_shown(parent)} is not "
                    "writable"
                )
            _probe(Path(os.path.realpath(p)), where)
        return p
    target = Path(os.path.realpath(p))
    parent = target.parent
    if not parent.exists():
        raise OutputPathError(
            f"{where}: the parent directory {_shown(parent)} does not exist"
        )
    if not parent.is_dir():
        raise OutputPathError(f"{where}: {_shown(parent)} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputPathError(
            f"{where}: cannot be written, the directory {_shown(parent)} is not writable"
        )
    if target.name != p.name:  # a dangling link: its target's name is the one written
        _check_lengths(target, where)
    _probe(target, where)
    return p


def _pathconf(folder: Path, name: str, default: int) -> int:
    try:
        value = os.pathconf(folder, name)
    except (OSError, ValueError):
        return default
    return value if value > 0 else default


def _check_lengths(path: Path, where: str) -> None:
    """The file name within ``NAME_MAX`` and the whole path within ``PATH_MAX`` of the file
    system that holds the path's directory."""
    folder = path.parent
    while not os.path.isdir(folder) and folder != folder.parent:
        folder = folder.parent
    name_max = _pathconf(folder, "PC_NAME_MAX", 255)
    path_max = _pathconf(folder, "PC_PATH_MAX", 4096)
    name = len(os.fsencode(path.name))
    if name > name_max:
        raise OutputPathError(
            f"{where}: the file name is {name} bytes long; the file system allows at most "
            f"{name_max}"
        )
    full = len(os.fsencode(os.path.abspath(path)))
    if full >= path_max:
        raise OutputPathError(
            f"{where}: the path is {full} bytes long; the system allows at most "
            f"{path_max - 1}"
        )


def _temp_prefix(target: Path) -> str:
    """The prefix of ``target``'s temporary sibling: ``.NAME.``, the name cut so that the
    sibling's whole name (with eight random characters and ``.tmp``) fits in ``NAME_MAX``."""
    room = _pathconf(target.parent, "PC_NAME_MAX", 255) - len(".." + "12345678" + ".tmp")
    name = target.name
    while name and len(os.fsencode(name)) > room:
        name = name[:-1]
    return f".{name}."


def _probe(target: Path, where: str) -> None:
    """Create and remove a temporary sibling of ``target``, as :func:`write_atomic` will:
    what the permission bits do not tell (a read-only or full file system, a name the file
    system refuses, a path too long) fails here, before any claim runs."""
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=_temp_prefix(target),
                                   suffix=".tmp")
    except OSError as exc:
        raise OutputPathError(
            f"{where}: cannot be written in {_shown(target.parent)} "
            f"({exc.strerror or exc})"
        ) from None
    os.close(fd)
    os.unlink(tmp)


def check_output_paths(
    json_path: str | os.PathLike[str] | None,
    markdown_path: str | os.PathLike[str] | None,
    labels: tuple[str, str] = ("--json", "--markdown"),
) -> None:
    """Check both report paths (see :func:`check_output_path`) and that they differ.

    Parameters
    ----------
    json_path, markdown_path : str or os.PathLike, optional
        The JSON and Markdown report paths; ``None`` for a report not written.
    labels : (str, str)
        How error messages name the two paths.

    Returns
    -------
    None

    Raises
    ------
    OutputPathError
        If a path cannot be written, or both name the same file (also through a link).

    See Also
    --------
    ReportWriter : checks its paths with this on construction.

    Notes
    -----
    Two names of one file would make the Markdown report overwrite the JSON one; the check
    compares real paths, then inodes when both exist.

    Examples
    --------
    >>> check_output_paths("/tmp/r.json", "/tmp/r.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    moetheory.engine.report.OutputPathError: --json and --markdown name the same file ...
    """
    if json_path is not None:
        check_output_path(json_path, labels[0])
    if markdown_path is not None:
        check_output_path(markdown_path, labels[1])
    if json_path is not None and markdown_path is not None:
        a, b = os.fspath(json_path), os.fspath(markdown_path)
        same = os.path.realpath(a) == os.path.realpath(b)
        if not same and os.path.exists(a) and os.path.exists(b):
            same = os.path.samefile(a, b)
        if same:
            raise OutputPathError(
                f"{labels[0]} and {labels[1]} name the same file {a}; give two paths"
            )


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "an object", list: "an array", str: "a string", int: "a number",
            float: "a number", type(None): "null"}.get(type(value), type(value).__name__)


def _non_finite(text: str) -> str:
    """``NaN``, ``Infinity`` and ``-Infinity`` read as the strings the engine writes."""
    return {"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[text]


def _number(text: str) -> float | str:
    value = float(text)  # 1e999 is read as inf: written as the engine writes it
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (item.values() if isinstance(item, dict)
                    else item if isinstance(item, list) else None)
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _read_bounded(path: str | os.PathLike[str], where: str) -> bytes:
    """The bytes of the regular file at ``path``, at most :data:`MAX_REPORT_BYTES`; opened
    without blocking, so a FIFO nobody writes is refused at once rather than waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise ValueError(f"{where}: no such file") from None
    except OSError as exc:
        raise ValueError(f"{where}: cannot be read ({exc.strerror or exc})") from None
    except ValueError:  # a NUL in the path
        raise ValueError(f"{where}: a path cannot hold a NUL character") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise ValueError(f"{where}: is a directory, not a JSON report")
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(
                f"{where}: is not a regular file (a FIFO, a device or a socket), not a JSON "
                "report"
            )
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_REPORT_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_REPORT_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise ValueError(f"{where}: cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if size > MAX_REPORT_BYTES:
        raise ValueError(
            f"{where}: is larger than {MAX_REPORT_BYTES // 2**20} MiB, more than a report "
            "holds"
        )
    return b"".join(chunks)


def read_report(path: str | os.PathLike[str], option: str = "--report") -> dict[str, Any]:
    """Read a JSON report from ``path``, bounded and checked against the schema's frame.

    Parameters
    ----------
    path : str or os.PathLike
        The report file.
    option : str
        How messages name the file (``--report``).

    Returns
    -------
    dict
        The report: an object whose ``claims`` is a list of objects, each with a string
        ``id``. ``NaN``, ``Infinity`` and ``-Infinity`` (and numbers too large for a
        float) are read as the strings ``"nan"``, ``"inf"``, ``"-inf"``.

    Raises
    ------
    ValueError
        One line naming ``option`` and the file: missing, a directory, not a regular file
        (a FIFO, ``/dev/zero``), larger than :data:`MAX_REPORT_BYTES`, not UTF-8, not JSON,
        nested deeper than :data:`MAX_DEPTH`, another schema, or a frame that is not a
        report's (no list of claims, a claim that is not an object, an ``id`` that is not a
        string).

    See Also
    --------
    moetheory.engine.cli.main : ``show --report`` and ``list --report`` read through it.

    Notes
    -----
    A report may come from anywhere (received by mail, edited by hand), so nothing in it
    is trusted: the file is opened without blocking and must be a regular file, at most
    :data:`MAX_REPORT_BYTES` are read, the parser's recursion is caught and the nesting
    checked without recursion, so no file can hang the reader, exhaust its memory or
    raise anything but this one-line error. The fields of a claim other than ``id`` may
    hold any JSON: the renderers show what they find.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "r.json")
    ...     _ = path.write_text('{"claims": [{"id": "x", "evidence": {"v": NaN}}]}')
    ...     read_report(path)["claims"]
    [{'id': 'x', 'evidence': {'v': 'nan'}}]
    >>> read_report("/dev/zero")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --report /dev/zero: is not a regular file (a FIFO, a device or a socket), ...
    """
    where = f"{option} {_shown(path)}"
    data = _read_bounded(path, where)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{where}: is not UTF-8 text, not a JSON report") from None
    try:
        value = json.loads(text, parse_constant=_non_finite, parse_float=_number)
    except RecursionError:
        value = None
        deep = True
    except ValueError as exc:
        raise ValueError(f"{where}: is not valid JSON ({exc})") from None
    else:
        deep = _deeper_than(value, MAX_DEPTH)
    if deep:
        raise ValueError(
            f"{where}: nests deeper than {MAX_DEPTH} levels, more than a report does"
        )
    if not isinstance(value, dict):
        raise ValueError(f"{where}: is not a moetheory report (not a JSON object)")
    schema = value.get("schema", SCHEMA)
    if schema != SCHEMA:
        shown = repr(schema) if isinstance(schema, str) else _json_type(schema)
        raise ValueError(
            f"{where}: has schema {_shown(shown)}; this version reads {SCHEMA}"
        )
    claims = value.get("claims")
    if not isinstance(claims, list):
        raise ValueError(f"{where}: is not a moetheory report (no list of claims)")
    for i, entry in enumerate(claims):
        if not isinstance(entry, dict):
            raise ValueError(
                f"{where}: claims[{i}] is {_json_type(entry)}, not an object; not a "
                "moetheory report"
            )
        if not isinstance(entry.get("id"), str):
            got = _json_type(entry["id"]) if "id" in entry else "missing"
            raise ValueError(
                f"{where}: claims[{i}].id is {got}, not a string; not a moetheory report"
            )
    return value


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def _is_special(path: str | os.PathLike[str]) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def write_atomic(path: str | os.PathLike[str], text: str | Sequence[str]) -> None:
    r"""Write ``text`` to ``path`` without ever replacing it by another kind of object.

    Parameters
    ----------
    path : str or os.PathLike
        The file (checked beforehand with :func:`check_output_path`).
    text : str or sequence of str
        The whole content, or its parts in order (written one by one, never joined),
        written as UTF-8.

    Returns
    -------
    None

    See Also
    --------
    write_json : a report as JSON through this function.

    Notes
    -----
    A regular file is replaced atomically (a temporary file in the same directory, then
    :func:`os.replace`: a reader never sees half a file) and keeps its permission bits (and
    its owner, where the process may set it); a new file gets ``0666`` less the umask. A
    symbolic link is followed and its target written. A FIFO or character device is written
    in place.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_atomic(pathlib.Path(tmp, "r.md"), "# Report\\n")
    ...     pathlib.Path(tmp, "r.md").read_text()
    '# Report\\n'
    """
    parts = (text,) if isinstance(text, str) else text
    if _is_special(path):
        with open(path, "w", encoding="utf-8") as fh:
            fh.writelines(parts)
        return
    target = Path(os.path.realpath(path))
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    mode = stat.S_IMODE(old.st_mode) if old is not None else 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=_temp_prefix(target), suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.writelines(parts)
        if old is not None and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
            try:
                os.chown(tmp, old.st_uid, old.st_gid)  # keep the owner where we may
            except PermissionError:
                pass
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: str | os.PathLike[str], report: Mapping[str, Any]) -> None:
    """Write the report as indented UTF-8 JSON.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    report : mapping
        The report (see :func:`build_report`).

    Returns
    -------
    None

    See Also
    --------
    write_atomic : how the file is replaced.

    Notes
    -----
    Keys keep the report's order and non-ASCII text (Greek letters, norm bars) is written as is.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_json(pathlib.Path(tmp, "r.json"), {"σ": 1})
    ...     json.loads(pathlib.Path(tmp, "r.json").read_text(encoding="utf-8"))
    {'σ': 1}
    """
    write_atomic(path, json.dumps(report, indent=2, ensure_ascii=False) + "\n")


class ReportWriteError(OSError):
    """The final write of a run could not write some of its reports.

    Parameters
    ----------
    report : mapping
        The report that was being written (the run's results, kept for the caller).
    failures : mapping
        Each path that could not be written, with its error.

    Attributes
    ----------
    report : mapping
        As given.
    failures : dict
        As given, by path.

    See Also
    --------
    ReportWriter.write : raises it.

    Notes
    -----
    An :class:`OSError` whose ``filename`` is the first path and whose message, one line,
    names every path and its reason, so ``moetheory: error: FILE: cannot write the
    report (No space left on device)`` says it all.

    Examples
    --------
    >>> import errno
    >>> exc = ReportWriteError({"claims": []}, {"r.json": OSError(errno.ENOSPC, "full")})
    >>> exc.filename, exc.strerror
    ('r.json', 'cannot write the report (full)')
    """

    def __init__(self, report: Mapping[str, Any], failures: Mapping[str, OSError]) -> None:
        items = list(failures.items())
        first_path, first = items[0]
        reasons = [f"cannot write the report ({first.strerror or first})"] + [
            f"{_shown(path)}: cannot write the report ({exc.strerror or exc})"
            for path, exc in items[1:]
        ]
        super().__init__(first.errno, "; ".join(reasons), first_path)
        self.report = report
        self.failures = dict(failures)


_STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP until the block ends, then deliver them in order.

    Yields
    ------
    None
        Inside the block a stop signal is recorded, not handled.

    See Also
    --------
    ReportWriter.write : writes the regular report files inside this block.

    Notes
    -----
    A second Ctrl-C during the final write of a large report stopped the write half way:
    the JSON report held one claim and the Markdown none. Inside the block the signals
    are recorded; on exit the previous handlers are restored and each recorded signal is
    raised again (:func:`signal.raise_signal`), so it acts as if it had arrived just then.
    Outside the main thread the block changes nothing (only that thread handles signals).

    Examples
    --------
    >>> import os, signal
    >>> caught = []
    >>> old = signal.signal(signal.SIGHUP, lambda n, f: caught.append(n))
    >>> with deferred_signals():
    ...     os.kill(os.getpid(), signal.SIGHUP)
    ...     held = list(caught)
    >>> held, caught == [signal.SIGHUP]
    ([], True)
    >>> _ = signal.signal(signal.SIGHUP, old)
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def hold(signum: int, frame: object) -> None:
        received.append(signum)

    old: dict[int, Any] = {}
    try:
        for sig in _STOP_SIGNALS:
            old[sig] = signal.signal(sig, hold)
    except ValueError:  # not the main interpreter
        pass
    try:
        yield
    finally:
        for sig, handler in old.items():
            if handler is not None:  # None: a handler set outside Python, left as it was
                signal.signal(sig, handler)
        for sig in received:
            signal.raise_signal(sig)


class ReportWriter:
    """Write a run's JSON and Markdown reports: at the start, as claims complete, at the end.

    Regular files (and links to them) are rewritten at every step, so no report of an
    earlier run survives a new one and an interrupted run keeps what it finished. A FIFO
    or a character device receives the final report only, once.

    Parameters
    ----------
    json_path, markdown_path : path, optional
        Where to write; checked with :func:`check_output_paths` on construction.
    labels : (str, str)
        How error messages name the two paths (``--json``/``--markdown`` on the command
        line, ``json_path``/``markdown_path`` in Python).

    See Also
    --------
    write_atomic : how each file is written.

    Notes
    -----
    The JSON report is rewritten after every claim, so even a run killed outright leaves a
    report of what it finished, marked incomplete; these progress writes are compact and
    encode each claim's entry once. The Markdown
    report, whose rendering is the costly part, is written at the start and at the end
    (also the end of an interrupted run). A write that fails (a full disk) is tried again
    at the next one, so the run goes on and the other report is written; the regular
    files of one write are all written even when a signal arrives meanwhile
    (:func:`deferred_signals`).

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     w = ReportWriter(pathlib.Path(tmp, "r.json"), None)
    ...     w.write({"claims": []}, final=True)
    ...     json.loads(pathlib.Path(tmp, "r.json").read_text())
    {'claims': []}
    """

    def __init__(
        self,
        json_path: str | os.PathLike[str] | None,
        markdown_path: str | os.PathLike[str] | None,
        labels: tuple[str, str] = ("--json", "--markdown"),
    ) -> None:
        check_output_paths(json_path, markdown_path, labels)
        self.json_path = json_path
        self.markdown_path = markdown_path
        #: Compact encodings of the claim entries of progress writes, by identity (the entry
        #: is kept, so its id is not reused): each entry is encoded once per run.
        self._encoded: dict[int, tuple[Mapping[str, Any], str]] = {}
        #: The paths whose last write failed, with the error.
        self.failures: dict[str, OSError] = {}

    def _compact(self, report: Mapping[str, Any]) -> list[str]:
        """The parts of ``json.dumps(report, ensure_ascii=False) + "\\n"``, encoding each claim
        entry once over the writer's progress writes (``claims`` is the report's last key).

        The parts are written one by one, not joined: after each fork of a check's process,
        a fresh string of the report's size would be copied on write page by page."""
        claims = report.get("claims")
        if not isinstance(claims, list) or not claims or list(report)[-1] != "claims":
            return [json.dumps(report, ensure_ascii=False), "\n"]
        head = json.dumps({k: v for k, v in report.items() if k != "claims"},
                          ensure_ascii=False)
        parts = [head[:-1] + (", " if len(head) > 2 else "") + '"claims": [']
        for i, entry in enumerate(claims):
            kept = self._encoded.get(id(entry))
            if kept is None or kept[0] is not entry:
                kept = (entry, json.dumps(entry, ensure_ascii=False))
                self._encoded[id(entry)] = kept
            if i:
                parts.append(", ")
            parts.append(kept[1])
        parts.append("]}\n")
        return parts

    def write(self, report: Mapping[str, Any], final: bool = False,
              markdown: bool = True) -> None:
        """Write ``report`` to every path (special files only when ``final``).

        ``markdown=False`` skips the Markdown report (progress writes: rendering it after
        every claim would cost the run time quadratic in the number of claims). Every path
        is attempted. A failed write (a full disk) does not stop the run: it is kept in
        :attr:`failures` and tried again at the next write; the final write raises
        :class:`ReportWriteError` naming every file it could not write.
        """
        jobs = [
            (path, render) for path, render in (
                # progress writes are compact, each claim encoded once (:meth:`_compact`)
                (self.json_path, lambda: (json.dumps(report, indent=2, ensure_ascii=False)
                                          + "\n" if markdown or final
                                          else self._compact(report))),
                (self.markdown_path if markdown or final else None,
                 lambda: render_markdown(report)),
            )
            if path is not None and (final or not _is_special(path))
        ]
        # regular files are written whatever signal arrives meanwhile (each write is short
        # and atomic); a FIFO or device, which may block, can still be interrupted
        with deferred_signals():
            for path, render in jobs:
                if not _is_special(path):
                    self._attempt(path, render)
        for path, render in jobs:
            if _is_special(path):
                self._attempt(path, render)
        if final and self.failures:
            raise ReportWriteError(report, self.failures)

    def _attempt(self, path: str | os.PathLike[str], render: Any) -> None:
        """Write one report; remember a failure (forgotten when a later write succeeds)."""
        key = os.fspath(path)
        try:
            write_atomic(path, render())
        except OSError as exc:
            self.failures[key] = exc
        else:
            self.failures.pop(key, None)


def _is_symbolic(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"sympy", "latex"}


def _render_value(value: Any) -> str:
    if _is_symbolic(value):
        return f"${safe_tex(value['latex'])}$"
    if isinstance(value, str) and "\n" in value:
        return "\n\n```text\n" + value.rstrip() + "\n```"
    if isinstance(value, str | int | float | bool) or value is None:
        return f"`{value}`" if not isinstance(value, str) else prettify(value)
    return "\n\n```json\n" + _dump(value) + "\n```"


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=repr)


def sources_text(entry: Mapping[str, Any]) -> str:
    """The seed lines of a report entry in words: ``seed 002 (002_….txt), lines 56, 57``.

    Parameters
    ----------
    entry : mapping
        One element of ``report["claims"]``.

    Returns
    -------
    str
        Its sources, ``; ``-separated; its seed files when it names no lines; ``""`` when it
        names neither.

    See Also
    --------
    render_claim : the Markdown section that names them.

    Notes
    -----
    Lines that are not integers and sources without a seed file are left out, so an entry
    read from any report file gives text.

    Examples
    --------
    >>> sources_text({"sources": [{"seed_file": "002_x.txt", "lines": [56, 57]}]})
    'seed 002 (002_x.txt), lines 56, 57'
    """
    parts = []
    sources = entry.get("sources")
    for src in sources if isinstance(sources, list) else []:
        if not isinstance(src, Mapping) or not isinstance(src.get("seed_file"), str):
            continue
        lines = [n for n in (src.get("lines") or []) if isinstance(n, int)]
        where = f"line {lines[0]}" if len(lines) == 1 else "lines " + ", ".join(map(str, lines))
        parts.append(f"seed {src['seed_file'][:3]} ({src['seed_file']}), {where}")
    if not parts:
        seeds = entry.get("seed_files") or [entry.get("seed_file", "")]
        seeds = seeds if isinstance(seeds, list) else [seeds]
        parts = [f"seed {s}" for s in seeds if isinstance(s, str) and s]
    return "; ".join(parts)


def claim_title(statement: str) -> str:
    """A claim's title: its statement's first sentence, prettified.

    Parameters
    ----------
    statement : str
        The claim's statement.

    Returns
    -------
    str
        Its first sentence when that has at least 12 characters, else the whole statement
        on one line; a full stop before a digit or a small letter (``(eq. 4)``, ``e.g. x``)
        ends no sentence.

    See Also
    --------
    shorten : cuts a title to the room it has.

    Notes
    -----
    ``moetheory list``, the digest of ``moetheory verify`` and the Markdown report's
    summary table name each claim by it.

    Examples
    --------
    >>> claim_title("For the cosine router (eq. 4) holds. Proof below.")
    'For the cosine router (eq. 4) holds.'
    """
    text = prettify(" ".join(statement.split()))
    m = re.match(r"(.+?[.!?])(\s+(?![\da-z])|$)", text)
    return m.group(1) if m and len(m.group(1)) >= 12 else text


def shorten(text: str, room: int) -> str:
    """``text`` cut at a word boundary to at most ``room`` characters, ending in ``…``.

    Parameters
    ----------
    text : str
        One line of text.
    room : int
        The most characters the result may have (at least 2).

    Returns
    -------
    str
        ``text`` itself when it fits; else its longest run of whole words that fits with
        ``…`` after it (cut inside a word only when its first word alone does not fit).

    See Also
    --------
    claim_title : the titles it cuts.

    Notes
    -----
    Commas, colons, semicolons and dashes before the cut are dropped, so the text never
    ends in ``,…``.

    Examples
    --------
    >>> shorten("For the cosine router the residual vanishes", 24)
    'For the cosine router…'
    >>> shorten("Supercalifragilistic", 8)
    'Superca…'
    """
    if len(text) <= room:
        return text
    cut = text[: room - 1]
    if text[room - 1] != " " and " " in cut.strip():
        cut = cut.rstrip().rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:—-") + "…"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else _dump(value)


#: Facts of the evidence the Markdown report shows of a claim (all of them with ``full``).
DIGEST_FACTS = 6

#: The longest rendering of one fact of an evidence digest.
_FACT_CHARS = 160


def render_evidence(evidence: Any, full: bool = True) -> str:
    """Evidence as a Markdown list: formulas in LaTeX, scalars inline, the rest as JSON.

    Parameters
    ----------
    evidence : any
        The ``evidence`` of a report entry or reading (a mapping; anything else renders).
    full : bool
        Every fact (the default), or a digest: the first :data:`DIGEST_FACTS` top-level
        facts that are a formula, a number or a short text, and how many were left out.

    Returns
    -------
    str
        One item per fact; in a digest, a last line counting the facts left to the JSON
        report, which holds every one.

    Notes
    -----
    Anything that is not a mapping is shown as one JSON block, so no entry read from a
    report file can make the renderer fail. The typeset forms a check declares for the
    notebook (:data:`~moetheory.engine.display.TYPESET`) are left out.

    Examples
    --------
    >>> print(render_evidence({"n": 3, "fit": {"slope": 0.5}, "trace": [1, 2]}, full=False))
    - **n**: `3`
    - _2 more facts in the JSON report: fit, trace._
    <BLANKLINE>
    """
    if evidence is None or evidence == {}:
        return "_no evidence_\n"
    if not isinstance(evidence, Mapping):
        return "```json\n" + _dump(evidence) + "\n```\n"
    evidence = shown_evidence(evidence)
    if full:
        return "".join(f"- **{key}**: {_render_value(value)}\n"
                       for key, value in evidence.items())
    shown: list[str] = []
    left: list[str] = []
    for key, value in evidence.items():
        text = _render_value(value)
        if (len(shown) < DIGEST_FACTS and (_is_symbolic(value) or not isinstance(
                value, Mapping | list))
                and len(text) <= _FACT_CHARS and "\n" not in text.strip()):
            shown.append(f"- **{_one_line(key)}**: {text}\n")
        else:
            left.append(key)
    if left:
        names = ", ".join(left[:4]) + (", …" if len(left) > 4 else "")
        more = f"{len(left)} more {'fact' if len(left) == 1 else 'facts'}"
        shown.append(f"- _{more} in the JSON report: {_one_line(names)}._\n")
    return "".join(shown)


def render_claim(entry: Mapping[str, Any], heading: str = "###", full: bool = True,
                 shown: dict[str, str] | None = None) -> str:
    """One claim's section of the Markdown report (any mapping renders, however malformed).

    Parameters
    ----------
    entry : mapping
        One element of ``report["claims"]``.
    heading : str
        The Markdown heading marks of the section title.
    full : bool
        All of the evidence, with a section per reading (the default), or what the
        Markdown report shows: a digest of the evidence (:func:`render_evidence`) and the
        readings as a table, each reading's derivation once.
    shown : dict, optional
        Derivation paragraphs of the report shown so far (the claim ID of each text), updated: a
        long paragraph shown before is a link to its first claim (not with ``full``).

    Returns
    -------
    str
        Markdown: title with the verdict, statement (typeset when the entry has
        ``statement_latex``), seed lines, reading, derivation, verdict with its summary,
        evidence and the readings.

    See Also
    --------
    render_markdown : the whole report.
    moetheory.docs.render_claim : the documentation's version of a claim.

    Notes
    -----
    A report read from disk may hold anything, so missing keys render as ``?`` and values of
    the wrong type as JSON: ``moetheory show --report`` never fails on a damaged file. A
    claim with several readings whose summary joins theirs with bars gives its primary
    reading's summary after the verdict; the others are in the readings table.

    Examples
    --------
    >>> render_claim({"id": "x", "evidence": [1, 2], "readings": "?"}).splitlines()[2]
    '### `x` — **?**'
    """
    if not isinstance(entry, Mapping):
        entry = {"id": "?", "summary": _dump(entry)}
    get = entry.get
    cid = _text(get("id", "?"))
    seeds = get("seed_files")
    seed_text = (
        ", ".join(map(_text, seeds)) if isinstance(seeds, list) and seeds
        else _text(get("seed_file", "?"))
    )
    alpha = get("alpha")
    alpha_text = (
        f" · *α:* {alpha:.3g}" if isinstance(alpha, int | float) and not isinstance(alpha, bool)
        and alpha else ""
    )
    where = sources_text(entry) if isinstance(get("sources"), list) else ""
    if not full:  # "seed 002, lines 56, 57": the file names are in the JSON report
        where = re.sub(r" \([^()]*\.txt\)", "", where)
    meta = f"*kind:* {_text(get('kind', '?'))}" + (  # the claim's seed is in the JSON report
        f" · *claim seed:* {_text(get('claim_seed', '?'))}" if full else "") + alpha_text
    out = [
        f'<a id="{_anchor(cid)}"></a>\n',
        f"{heading} `{cid}` — **{_text(get('verdict', '?'))}**\n",
        f"*Seed:* {seed_text} · {meta}\n" if full or not where else
        f"*Seed lines:* {where} · {meta}\n",
        f"**Statement.** {_latex_or_text(get('statement_latex'), get('statement', ''))}\n",
    ]
    if where and full:
        out.append(f"*Seed lines:* {where}\n")
    readings = get("readings") or []
    if not isinstance(readings, list):
        readings = [readings]
    readings = [r if isinstance(r, Mapping) else {"summary": _dump(r)} for r in readings]
    derivation = _text(get("derivation") or (readings[0].get("derivation") if readings else "")
                       or "").rstrip()
    summary = _latex_or_text(get("summary_latex"), get("summary", ""))
    left = 0  # readings whose derivation the report leaves to the JSON report
    if not full and readings:
        first = summary.split(" | ")[0]
        if len(readings) > 1 and first != summary and first.count("$") % 2 == 0:
            # the primary reading's summary, then the others': those are in the table
            summary = first + f" *(all {len(readings)} readings below)*"
        marks = [m.start() for m in re.finditer(r"\*\*Reading `", derivation)]
        if len(marks) > 1:  # the readings' derivations one after another: the first one
            left = len(marks) - 1
            derivation = derivation[: marks[1]].rstrip()
        else:
            left = sum(1 for r in readings if _text(r.get("derivation") or "").strip()
                       and _text(r.get("derivation")).strip() not in derivation)
    paragraphs, cut = 0, False  # of the derivation, left to the JSON report
    if not full:
        if shown is not None:  # a paragraph shown before is a link: room for the next
            derivation = _once(derivation, cid, shown)
        whole = derivation
        derivation, paragraphs, cut = first_paragraphs(derivation, _DERIVATION_CHARS)
        if shown is not None:
            _remember(whole, derivation, cid, shown)
    rest = ["the rest of its last paragraph shown"] if cut else []
    rest += [f"{paragraphs} more {'paragraph' if paragraphs == 1 else 'paragraphs'} of it"
             ] if paragraphs else []
    rest += [f"the derivations of {left} more {'reading' if left == 1 else 'readings'}"
             ] if left else []
    out += [
        f"**Reading checked.** {prettify(_text(get('reading', '')))}\n",
        "**Derivation.**\n\n"
        + (derivation if derivation else "_The check gives no derivation._")
        + (f"\n\n_In the JSON report: {_and(rest)} (`moetheory show {cid} --report "
           "FILE`)._" if rest else "")
        + "\n",
        f"**Verdict.** {_text(get('verdict', '?'))}"
        + (f" (primary reading `{_text(readings[0].get('name', '?'))}`)"
           if len(readings) > 1 else "") + f" — {summary}\n",
        "**Evidence.**\n\n" + render_evidence(get("evidence", {}), full),
    ]
    if len(readings) > 1 or (readings and full):  # one reading: the verdict line says it
        rows = "".join(
            f"| {', '.join(_one_line(_text(r.get('name', '?'))) for r in group)} "
            f"| {_one_line(_text(group[0].get('verdict', '?')))} | {cell} |\n"
            for group, cell in _reading_rows(readings, get("verdict"), summary, full)
        )
        out.append("**Readings.**\n\n| reading | verdict | summary |\n|---|---|---|\n" + rows)
    for r in readings if full else ():
        own = r.get("derivation")
        out.append(
            f"{heading}# Reading `{_text(r.get('name', '?'))}` — "
            f"{_text(r.get('verdict', '?'))}\n\n{_text(r.get('reading', ''))}\n\n"
            + render_evidence(r.get("evidence", {}))
            + (f"\n{_text(own)}\n" if own else "")
        )
    return "\n".join(out) + "\n"


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return ", ".join(items[:-1]) + (" and " if len(items) > 1 else "") + items[-1]


#: A derivation paragraph this long, shown before in the Markdown report, is a link there.
_SHARED_CHARS = 200


def _once(derivation: str, cid: str, shown: dict[str, str]) -> str:
    """``derivation`` with each long paragraph already in ``shown`` replaced by a link to
    the claim that showed it first."""
    def link(block: str) -> str:
        first = shown.get(block.strip(), cid)
        return block if first == cid else (
            f"_The same paragraph as in [`{first}`](#{_anchor(first)}) above._")
    return "\n\n".join(link(block) for block in derivation.split("\n\n"))


def _remember(derivation: str, kept: str, cid: str, shown: dict[str, str]) -> None:
    """Record the long paragraphs of ``derivation`` that ``kept`` (what the report shows of
    it) shows, whole or their first sentences, as shown by ``cid``."""
    for block in derivation.split("\n\n"):
        text = block.strip()
        if len(text) >= _SHARED_CHARS and "```" not in text and text[:_SHARED_CHARS] in kept:
            shown.setdefault(text, cid)


def _reading_rows(readings: list[Mapping[str, Any]], verdict: Any, verdict_line: str,
                  full: bool) -> list[tuple[list[Mapping[str, Any]], str]]:
    """The rows of a claim's readings table: each reading with its summary, or (in the
    Markdown report) readings that say the same in one row, and the primary reading's
    summary not given twice when the verdict line (``verdict``, ``verdict_line``) says it."""
    if full:
        return [([r], _reading_summary(r, full)) for r in readings]
    rows: dict[tuple[str, str, str], list[Mapping[str, Any]]] = {}
    for r in readings:
        key = (_text(r.get("verdict", "?")), _text(r.get("summary", "")),
               _text(r.get("summary_latex", "")))
        rows.setdefault(key, []).append(r)
    primary = readings[0]
    plain = _text(primary.get("summary") or "")
    said = [t for t in (plain, safe_tex(prettify(plain)),
                        _text(primary.get("summary_latex") or "")) if t.strip()]
    on_verdict_line = (primary.get("verdict") == verdict
                       and any(t in verdict_line for t in said))
    return [(group, "_as on the verdict line_" if on_verdict_line and group[0] is primary
             else _reading_summary(group[0], full)) for group in rows.values()]


#: The longest summary of a reading in the Markdown report's readings tables.
_READING_SUMMARY_CHARS = 120

#: The Markdown report gives a derivation's first paragraphs up to this many characters
#: (a first paragraph longer than that up to the end of a sentence); the JSON report holds
#: all of it.
_DERIVATION_CHARS = 1000


def _reading_summary(reading: Mapping[str, Any], full: bool) -> str:
    """A reading's summary for its table row: typeset when it fits, else cut at a word."""
    text = _one_line(_latex_or_text(reading.get("summary_latex"), reading.get("summary", "")))
    if full or len(text) <= _READING_SUMMARY_CHARS:
        return text
    return _table_cell(shorten(prettify(_text(reading.get("summary", ""))),
                               _READING_SUMMARY_CHARS))


def _latex_or_text(latex: Any, plain: Any) -> str:
    """The typeset form of a text when the check gives one, else the plain text prettified."""
    if isinstance(latex, str) and latex and latex.count("$") % 2 == 0:
        return safe_tex(latex)
    return safe_tex(prettify(_text(plain)))


@fill_doc(REPORT_PARTS)
def render_markdown(report: Mapping[str, Any]) -> str:
    """The whole report as Markdown: a summary table, then a section per claim.

    Parameters
    ----------
    %(report)s

    Returns
    -------
    str
        Markdown: run line, counts, a table of every claim's verdict and summary, then
        :func:`render_claim` of each.

    See Also
    --------
    render_claim : one section.
    ReportWriter : writes it beside the JSON report.

    Notes
    -----
    Like :func:`render_claim` it renders any mapping, so an interrupted or hand-edited report
    still gives a readable file.

    Examples
    --------
    >>> r = build_report([{"id": "x", "verdict": "proved", "summary": "ok"}], seed=0,
    ...                  profile="quick", family_alpha=0.05)
    >>> "## Claims" in render_markdown(r)
    True
    """
    raw_counts = report.get("counts")
    counts = ", ".join(
        f"{k}: {v}" for k, v in (raw_counts.items() if isinstance(raw_counts, Mapping) else ())
        if v
    )
    status = "complete" if report.get("complete") else "**incomplete (interrupted)**"
    claims = report.get("claims")
    entries = [e if isinstance(e, Mapping) else {"id": "?"} for e in
               (claims if isinstance(claims, list) else [])]
    head = [
        "# moetheory verification report\n",
        f"Schema `{report.get('schema')}` · seed {report.get('seed')} · "
        f"profile `{report.get('profile')}` · "
        f"family-wise α {report.get('family_alpha')} · {status}\n",
        f"Verdicts — {counts}\n",
        f"{_VERDICTS_IN_A_LINE}\n",
        "| claim | seed | verdict | the statement decided |\n|---|---|---|---|\n"
        + "".join(_summary_row(e) + "\n" for e in entries),
    ]
    shown: dict[str, str] = {}
    body = [render_claim(e, full=False, shown=shown) for e in entries]
    return "\n".join(head) + "\n## Claims\n\n" + "\n".join(body)


#: What a verdict is about, in one line: of a paper's statement, not of the tool.
_VERDICTS_IN_A_LINE = (
    "Each verdict is about the paper's statement: `proved` / `refuted` by an exact "
    "certificate or counterexample, `supported` / `unsupported` by calibrated Monte Carlo "
    "evidence, `inconclusive` undecided within the budget; only `error` is a failure of "
    "the check. Details of each claim follow the table."
)

#: The longest row of the Markdown report's summary table.
SUMMARY_ROW_CHARS = 200


def _summary_row(entry: Mapping[str, Any]) -> str:
    """One line of the summary table: the claim (linked), seed, verdict and the statement
    it is about (its first sentence, cut at a word to keep the row within
    :data:`SUMMARY_ROW_CHARS`)."""
    cid = _one_line(_text(entry.get("id", "?")))
    start = (f"| [`{cid}`](#{_anchor(cid)}) | {_text(entry.get('seed_file', '?'))[:3]} "
             f"| **{_one_line(_text(entry.get('verdict', '?')))}** | ")
    title = claim_title(_text(entry.get("statement", "")))
    room = SUMMARY_ROW_CHARS - len(start) - 2
    cut = room
    while cut > 1 and len(_table_cell(shorten(title, cut))) > room:
        cut -= 1
    return start + _table_cell(shorten(title, max(cut, 2))) + " |"


def _table_cell(text: str) -> str:
    """Text for a cell of a Markdown table: one line, ``|`` and emphasis marks escaped."""
    return re.sub(r"([*_`])", r"\\\1", _one_line(text))


def _one_line(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _anchor(claim_id: str) -> str:
    return "".join(ch for ch in claim_id if ch.isalnum() or ch in "-_").lower()
