"""Load a user's claims from a plain Python file or a module, without packaging them.

``moetheory verify --checks FILE_OR_MODULE`` (and ``list``/``show``) calls
:func:`load_user_checks` for each ``--checks`` before it selects claims.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re
import select
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moetheory.engine.catalogue import Source
from moetheory.engine.context import CheckContext
from moetheory.engine.registry import (
    KINDS,
    Claim,
    add_user_claims,
    get_claim,
    registered,
    unregister,
    user_code,
)
from moetheory.engine.verdicts import Outcome

__all__ = ["is_user_claim", "load_user_checks"]


def load_user_checks(spec: str | os.PathLike[str]) -> list[str]:
    """Import the file or module ``spec`` and return the IDs of the claims it registers.

    Parameters
    ----------
    spec : str or path
        A Python file (``mine.py``, ``path/to/claims.py``) or an importable module name
        (``mypackage.claims``).

    Returns
    -------
    list of str
        The IDs of the claims whose checks the file or module (or a submodule of the
        package) defines, in report order.

    Raises
    ------
    ValueError
        One line naming ``spec``: the file does not exist or is not a ``.py`` file, no
        module has this name, importing it failed (the exception's type and message, with
        the line for a syntax error), a module of the same name is already imported from
        another file, or it registers no claim.

    See Also
    --------
    moetheory.engine.registry.claim : what the file uses to register its claims.

    Notes
    -----
    A file is imported as a module named after the file (``own_claim.py`` gives
    ``own_claim``; characters that cannot stand in a module name become ``_``), with its
    folder first on :data:`sys.path`, as ``python FILE`` would have it, so it can import
    its neighbours. Its ``if __name__ == "__main__":`` block does not run. Its claims form
    their own family: their statistical claims share the family-wise error level among
    themselves only. Loading the same file again registers nothing new and returns the
    same IDs.

    The file is user code, kept apart from the catalogue. It is imported in a process of
    its own (forked), never in this one: what it does at import (``os.chdir``, ``print``,
    patching moetheory or a library) ends with that process. That process sends back, as
    JSON, what the file's claims say of themselves; each is registered here with a check
    that imports the file again in the check's own process and runs the claim's check
    there. Its claims are its own (:func:`~moetheory.engine.registry.user_code`: whatever
    its checks say of their ``__module__``, a file cannot take, extend, replace or remove a
    catalogued or already registered claim), and the reports record each claim's
    ``provenance`` (``file PATH`` or ``module NAME``). What it prints at import goes to
    standard error. See the verdicts page of the docs for what is not contained.

    Examples
    --------
    >>> load_user_checks("no/such/file.py")
    Traceback (most recent call last):
    ...
    ValueError: --checks no/such/file.py: no such file
    """
    text = os.fspath(spec)
    where = f"--checks {text}"
    if not text.strip():
        raise ValueError("--checks: expected a Python file or a module name, got ''")
    path = Path(text)
    if text.endswith(".py") or os.sep in text or path.is_file():
        code = _file_code(path, where)
    else:
        code = _Code("module", text, text, f"module {text}", text.split(".")[0])
    ids = [i for i in _LOADED.get(code, []) if _is_proxy_of(i, code)]
    if not ids:  # not loaded yet (or its claims were removed since)
        claims = [_claim_of(record, code, where) for record in _import_apart(code, where)]
        add_user_claims(claims)
        ids = [c.id for c in claims]
        _LOADED[code] = ids
    if not ids:
        raise ValueError(f"{where}: registers no claim (decorate a check with @claim)")
    order = {c.id: n for n, c in enumerate(registered())}
    return sorted(ids, key=order.__getitem__)


def is_user_claim(c: Claim) -> bool:
    """Whether a claim comes from a user's ``--checks`` file or module.

    Parameters
    ----------
    c : Claim
        A registered claim.

    Returns
    -------
    bool
        True when :func:`load_user_checks` registered it: its check imports the user's
        code in the process it runs in.

    Notes
    -----
    Decided by the type of the claim's check (the wrapper :func:`load_user_checks` gives it),
    never by what the claim says of itself (its ``family``, ``provenance`` or the check's
    ``__module__``), which a user's file could set to anything.

    See Also
    --------
    moetheory.engine.runner.run_claims : runs such claims apart from the others.

    Examples
    --------
    >>> from moetheory.engine.registry import load_checks
    >>> load_checks()
    >>> is_user_claim(get_claim("cl.fig2"))
    False
    """
    return isinstance(c.check, _UserCheck)


@dataclass(frozen=True)
class _Code:
    """A user's file or module, as a process imports it."""

    kind: str  # "file" or "module"
    target: str  # the file's absolute path, or the module's name
    name: str  # the module's name
    provenance: str
    family: str

    def load(self) -> list[str]:
        """Import the code here (its claims the user's own); the IDs it registers."""
        with user_code(self.provenance, self.family) as ids:
            if self.kind == "module":
                try:
                    importlib.import_module(self.target)
                except ModuleNotFoundError as exc:
                    if exc.name is not None and self.target.startswith(exc.name):
                        raise _Missing from None
                    raise
            else:
                path = Path(self.target)
                folder = str(path.parent)
                if folder not in sys.path:
                    sys.path.insert(0, folder)
                spec = importlib.util.spec_from_file_location(self.name, path)
                if spec is None or spec.loader is None:  # pragma: no cover - a .py file
                    raise ImportError("cannot be imported")
                module = importlib.util.module_from_spec(spec)
                sys.modules[self.name] = module
                try:
                    spec.loader.exec_module(module)
                except BaseException:
                    sys.modules.pop(self.name, None)
                    raise
        return list(ids)


@dataclass(frozen=True)
class _UserCheck:
    """The check of a user's claim: imports the user's code in the process it runs in
    (the check's own) and runs the claim's own check there."""

    code: _Code
    claim_id: str

    def __call__(self, ctx: CheckContext) -> Outcome:
        found = get_claim(self.claim_id)
        if isinstance(found.check, _UserCheck):
            for c in registered():
                if isinstance(c.check, _UserCheck) and c.check.code == self.code:
                    unregister(c.id)
            self.code.load()
            found = get_claim(self.claim_id)
        return found.check(ctx)


#: The files and modules loaded so far, with the IDs of their claims.
_LOADED: dict[_Code, list[str]] = {}


def _is_proxy_of(claim_id: str, code: _Code) -> bool:
    try:
        check = get_claim(claim_id).check
    except KeyError:
        return False
    return isinstance(check, _UserCheck) and check.code == code


def _import_apart(code: _Code, where: str) -> list[Any]:
    """What the claims of ``code`` say of themselves, from a forked process that imports
    it (standard output on standard error there); a failure is one ``ValueError`` line."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: import, report, and go, whatever happens
        try:
            os.setpgid(0, 0)  # a group of its own: what it starts goes with it
            os.close(r)
            try:
                os.dup2(2, 1)
            except OSError:
                pass
            sys.stdout = sys.stderr
            try:
                found: dict[str, Any] = {"claims": [_record(get_claim(i))
                                                    for i in code.load()]}
            except _Missing:
                found = {"error": "no such file or module"}
            except BaseException as exc:
                found = {"error": _one_line(exc)}
            data = json.dumps(found).encode("utf-8", "backslashreplace")
            view = memoryview(data)
            while view:
                view = view[os.write(w, view):]
        finally:
            os._exit(0)
    os.close(w)
    chunks: list[bytes] = []
    status = None
    try:  # until the importing process has ended (a process it forked may hold the pipe)
        os.set_blocking(r, False)
        while True:
            select.select([r], [], [], 0.05)
            done, ended = os.waitpid(pid, os.WNOHANG)
            try:
                while chunk := os.read(r, 1 << 16):
                    chunks.append(chunk)
            except BlockingIOError:
                pass
            if done:
                status = ended
                break
    finally:
        os.close(r)
        try:  # what the import started goes, and the importing process if interrupted
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if status is None:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    try:
        out: Any = json.loads(b"".join(chunks).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        out = None
    if not isinstance(out, dict) or not isinstance(out.get("claims", []), list):
        how = ("was stopped" if status is None
               else f"was killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
               else f"ended (exit code {os.WEXITSTATUS(status)})")
        raise ValueError(f"{where}: the process importing it {how} without reporting")
    if "error" in out:
        raise ValueError(f"{where}: {' '.join(str(out['error']).split())}")
    return list(out["claims"])


def _record(c: Claim) -> dict[str, Any]:
    """What a claim says of itself, as JSON (its check stays in the importing process)."""
    return {"id": c.id, "statement": c.statement, "seed_files": list(c.seed_files),
            "section": c.section, "reading": c.reading, "kind": c.kind,
            "sources": [[s.seed_file, list(s.lines)] for s in c.sources],
            "covers": list(c.covers), "origin": c.origin,
            "statement_latex": c.statement_latex}


def _claim_of(record: Any, code: _Code, where: str) -> Claim:
    """The claim a record describes, checked field by field (the record is data from the
    user's code), with a check that runs the user's own in its process."""
    def text(value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError(f"{where}: reported a malformed claim")
        return value

    def texts(value: Any) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise ValueError(f"{where}: reported a malformed claim")
        return tuple(text(v) for v in value)

    if not isinstance(record, dict):
        raise ValueError(f"{where}: reported a malformed claim")
    sources = record.get("sources")
    if not isinstance(sources, list) or not all(
            isinstance(s, list) and len(s) == 2 and isinstance(s[1], list)
            and all(type(n) is int for n in s[1]) for s in sources):
        raise ValueError(f"{where}: reported a malformed claim")
    kind = text(record.get("kind"))
    if kind not in KINDS:
        raise ValueError(f"{where}: reported a malformed claim")
    claim_id = text(record.get("id"))
    return Claim(
        id=claim_id, statement=text(record.get("statement")),
        seed_files=texts(record.get("seed_files")), section=text(record.get("section")),
        reading=text(record.get("reading")), kind=kind,
        check=_UserCheck(code, claim_id),
        sources=tuple(Source(text(f), tuple(lines)) for f, lines in sources),
        covers=texts(record.get("covers")), origin=text(record.get("origin")),
        family=code.family, statement_latex=text(record.get("statement_latex")),
        provenance=code.provenance,
    )


def _module_name(path: Path) -> str:
    name = re.sub(r"\W", "_", path.stem)
    return "_" + name if not name or name[0].isdigit() else name


def _file_code(path: Path, where: str) -> _Code:
    """The file ``path`` as user code, after the checks that need no import."""
    if not path.exists():
        raise ValueError(f"{where}: no such file")
    if not path.is_file() or path.suffix != ".py":
        raise ValueError(f"{where}: is not a Python file (.py)")
    path = path.resolve()
    name = _module_name(path)
    old = sys.modules.get(name)
    old_file = getattr(old, "__file__", None)
    if old is not None and (old_file is None or Path(old_file).resolve() != path):
        raise ValueError(
            f"{where}: a module named {name!r} is already imported"
            f"{f' (from {old_file})' if old_file else ''}; rename the file"
        )
    if old is None:
        try:
            other = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            other = None
        if other is not None and other.origin and Path(other.origin).resolve() != path:
            raise ValueError(
                f"{where}: its module name {name!r} is taken by {other.origin}; rename the file"
            )
    shown = os.fsencode(path).decode("utf-8", "backslashreplace")
    return _Code("file", os.fsdecode(path), name, f"file {shown}", name)


class _Missing(Exception):
    """No module has the name given."""


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"{type(exc).__name__}: {exc.msg} (line {exc.lineno})"
    if isinstance(exc, SystemExit):
        return "exits on import (put the exit under if __name__ == '__main__':)"
    message = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
