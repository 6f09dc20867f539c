"""The verification report: versioned JSON and readable Markdown, written atomically.

JSON schema ``moetheory-report/1``::

    {"schema": "moetheory-report/1", "seed": int, "profile": "quick" | "full",
     "family_alpha": float, "environment": {...}, "complete": bool,
     "selection": [patterns], "counts": {verdict: n},
     "claims": [ {"id", "seed_file", "seed_files", "section", "statement", "reading",
                  "kind", "implemented", "origin", "sources", "covers", "claim_seed",
                  "alpha", "verdict", "summary", "evidence", "readings", "derivation",
                  "statement_latex", "summary_latex", "seconds"} ]}

``origin`` is ``"seed"`` or ``"package"`` (a statement the package adds); ``sources`` is
``[{"seed_file", "lines": [1-based]}]``; ``covers`` lists the audit-row keys checked. These
three fields were added within schema 1 (readers that ignore unknown keys are unaffected).

A claim checked under several readings is one entry whose ``verdict`` is that of its
primary reading and whose ``readings`` list holds one object per reading
(``{"name", "reading", "verdict", "summary", "evidence", "derivation", "reading_latex",
"summary_latex"}``). The ``*_latex`` fields (added within schema 1; empty when the check
gives none) hold the same text with its formulas inside ``$...$`` for typesetting. Only the
``seconds`` fields vary between two runs with the same seed on the same installation.

Writing never replaces the object at a report path by something else: a regular file is
replaced atomically and keeps its permission bits (a new file gets the umask's), a
symbolic link is written through to its target, and a FIFO or a character device (a pipe,
``/dev/stdout``) is written in place, once, with the final report. Every path is checked
by :func:`check_output_paths` before any claim runs.
"""

from __future__ import annotations

import json
import os
import platform
import stat
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from moetheory.engine.mathtext import prettify
from moetheory.engine.verdicts import Verdict

__all__ = [
    "SCHEMA",
    "OutputPathError",
    "ReportWriter",
    "build_report",
    "check_output_path",
    "check_output_paths",
    "environment",
    "render_claim",
    "render_markdown",
    "write_atomic",
    "write_json",
]

SCHEMA = "moetheory-report/1"

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
        parent directory, a place that cannot be written, another kind of file.

    See Also
    --------
    check_output_paths : both report paths at once.
    write_atomic : how the report is then written.

    Notes
    -----
    Allowed: a new file in an existing, writable directory; an existing writable regular
    file, FIFO or character device; a symbolic link to any of these (or a dangling link
    whose target's directory exists).

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
    where = f"{option} {text}"
    try:
        st = os.stat(p)  # follows symbolic links
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise OutputPathError(f"{where}: {p.parent} is not a directory") from None
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
                    f"{where}: cannot be replaced, its directory {parent} is not writable"
                )
        return p
    target = Path(os.path.realpath(p))
    parent = target.parent
    if not parent.exists():
        raise OutputPathError(f"{where}: the parent directory {parent} does not exist")
    if not parent.is_dir():
        raise OutputPathError(f"{where}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputPathError(
            f"{where}: cannot be written, the directory {parent} is not writable"
        )
    return p


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
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
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
    Keys keep the report's order and non-ASCII text (Greek letters, ``‖``) is written as is.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_json(pathlib.Path(tmp, "r.json"), {"σ": 1})
    ...     json.loads(pathlib.Path(tmp, "r.json").read_text(encoding="utf-8"))
    {'σ': 1}
    """
    write_atomic(path, json.dumps(report, indent=2, ensure_ascii=False) + "\n")


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
    (also the end of an interrupted run).

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
        every claim would cost the run time quadratic in the number of claims). Both are
        attempted; the first failure is then raised as ``OSError`` naming its path.
        """
        failure: OSError | None = None
        for path, render in (
            # progress writes are compact, each claim encoded once (:meth:`_compact`)
            (self.json_path, lambda: (json.dumps(report, indent=2, ensure_ascii=False) + "\n"
                                      if markdown or final else self._compact(report))),
            (self.markdown_path if markdown or final else None,
             lambda: render_markdown(report)),
        ):
            if path is None or not (final or not _is_special(path)):
                continue
            try:
                write_atomic(path, render())
            except OSError as exc:
                failure = failure or OSError(
                    exc.errno, f"cannot write the report ({exc.strerror or exc})",
                    os.fspath(path),
                )
        if failure is not None:
            raise failure


def _is_symbolic(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"sympy", "latex"}


def _render_value(value: Any) -> str:
    if _is_symbolic(value):
        return f"${value['latex']}$"
    if isinstance(value, str) and "\n" in value:
        return "\n\n```text\n" + value.rstrip() + "\n```"
    if isinstance(value, str | int | float | bool) or value is None:
        return f"`{value}`" if not isinstance(value, str) else prettify(value)
    return "\n\n```json\n" + _dump(value) + "\n```"


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=repr)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else _dump(value)


def render_evidence(evidence: Any) -> str:
    """Evidence as a Markdown list: scalars inline, formulas in LaTeX, the rest as JSON.

    Anything that is not a mapping is shown as one JSON block, so no entry read from a
    report file can make the renderer fail.
    """
    if evidence is None or evidence == {}:
        return "_no evidence_\n"
    if not isinstance(evidence, Mapping):
        return "```json\n" + _dump(evidence) + "\n```\n"
    return "".join(f"- **{key}**: {_render_value(value)}\n" for key, value in evidence.items())


def render_claim(entry: Mapping[str, Any], heading: str = "###") -> str:
    """One claim's section of the Markdown report (any mapping renders, however malformed).

    Parameters
    ----------
    entry : mapping
        One element of ``report["claims"]``.
    heading : str
        The Markdown heading marks of the section title.

    Returns
    -------
    str
        Markdown: title with the verdict, statement (typeset when the entry has
        ``statement_latex``), seed lines, reading, verdict with its summary, evidence,
        derivation and the other readings.

    See Also
    --------
    render_markdown : the whole report.
    moetheory.docs.render_claim : the documentation's version of a claim.

    Notes
    -----
    A report read from disk may hold anything, so missing keys render as ``?`` and values of
    the wrong type as JSON: ``moetheory show --report`` never fails on a damaged file.

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
    out = [
        f'<a id="{_anchor(cid)}"></a>\n',
        f"{heading} `{cid}` — **{_text(get('verdict', '?'))}**\n",
        f"*Seed:* {seed_text} · *kind:* {_text(get('kind', '?'))} · "
        f"*claim seed:* {_text(get('claim_seed', '?'))}" + alpha_text + "\n",
        f"**Statement.** {_latex_or_text(get('statement_latex'), get('statement', ''))}\n",
    ]
    sources = get("sources")
    if isinstance(sources, list) and sources:
        out.append("*Seed lines:* " + "; ".join(
            f"{_text(src.get('seed_file', '?'))} {_text(src.get('lines', ''))}"
            for src in sources if isinstance(src, Mapping)
        ) + "\n")
    readings = get("readings") or []
    if not isinstance(readings, list):
        readings = [readings]
    readings = [r if isinstance(r, Mapping) else {"summary": _dump(r)} for r in readings]
    derivation = get("derivation") or (readings[0].get("derivation") if readings else "")
    out += [
        f"**Reading checked.** {prettify(_text(get('reading', '')))}\n",
        "**Derivation.**\n\n"
        + (_text(derivation).rstrip() if derivation else "_The check gives no derivation._")
        + "\n",
        f"**Verdict.** {_text(get('verdict', '?'))} — "
        f"{_latex_or_text(get('summary_latex'), get('summary', ''))}\n",
        "**Evidence.**\n\n" + render_evidence(get("evidence", {})),
    ]
    if readings:
        rows = "".join(
            f"| {_one_line(_text(r.get('name', '?')))} | {_one_line(_text(r.get('verdict', '?')))} "
            f"| {_one_line(_latex_or_text(r.get('summary_latex'), r.get('summary', '')))} |\n"
            for r in readings
        )
        out.append("**Readings.**\n\n| reading | verdict | summary |\n|---|---|---|\n" + rows)
        for r in readings:
            derivation = r.get("derivation")
            out.append(
                f"{heading}# Reading `{_text(r.get('name', '?'))}` — "
                f"{_text(r.get('verdict', '?'))}\n\n{_text(r.get('reading', ''))}\n\n"
                + render_evidence(r.get("evidence", {}))
                + (f"\n{_text(derivation)}\n" if derivation else "")
            )
    return "\n".join(out) + "\n"


def _latex_or_text(latex: Any, plain: Any) -> str:
    """The typeset form of a text when the check gives one, else the plain text prettified."""
    if isinstance(latex, str) and latex and latex.count("$") % 2 == 0:
        return latex
    return prettify(_text(plain))


def render_markdown(report: Mapping[str, Any]) -> str:
    """The whole report as Markdown: a summary table, then a section per claim.

    Parameters
    ----------
    report : mapping
        A ``moetheory-report/1`` report.

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
        "| claim | seed | verdict | summary |\n|---|---|---|---|\n"
        + "".join(
            f"| [`{_text(e.get('id', '?'))}`](#{_anchor(_text(e.get('id', '?')))}) "
            f"| {_text(e.get('seed_file', '?'))[:3]} | {_text(e.get('verdict', '?'))} "
            f"| {_one_line(_latex_or_text(e.get('summary_latex'), e.get('summary', '')))} |\n"
            for e in entries
        ),
    ]
    body = [render_claim(e) for e in entries]
    return "\n".join(head) + "\n## Claims\n\n" + "\n".join(body)


def _one_line(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _anchor(claim_id: str) -> str:
    return "".join(ch for ch in claim_id if ch.isalnum() or ch in "-_").lower()
