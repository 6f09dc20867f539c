"""Load a user's claims from a plain Python file or a module, without packaging them.

``moetheory verify --checks FILE_OR_MODULE`` (and ``list``/``show``) calls
:func:`load_user_checks` for each ``--checks`` before it selects claims.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from types import ModuleType

from moetheory.engine.registry import get_claim, registered, user_code

__all__ = ["load_user_checks"]


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

    The file is user code, kept apart from the catalogue: its claims are its own
    (:func:`~moetheory.engine.registry.user_code`: whatever its checks say of their
    ``__module__``, a file cannot take, extend, replace or remove a catalogued or already
    registered claim, and the reports record each claim's ``provenance``); what it prints
    at import goes to standard error, and the current directory and ``sys.stdout`` /
    ``sys.stderr`` are put back after the import. Its import-time code otherwise runs in
    this process like any module imported: a file that patches moetheory or the
    libraries it uses is not contained (see the verdicts page of the docs).

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
        module, ids = _import_file(path, where)
    else:
        module, ids = _import_module(text, where)
    if ids is None:  # imported before: its claims, as loaded then
        loaded, before = _LOADED.get(module.__name__, (None, []))
        ids = [i for i in before if _registered(i)] if loaded is module else []
    else:
        _LOADED[module.__name__] = (module, ids)
    if not ids:
        raise ValueError(f"{where}: registers no claim (decorate a check with @claim)")
    order = {c.id: n for n, c in enumerate(registered())}
    return sorted(ids, key=order.__getitem__)


#: The files and modules loaded so far: module name -> (module, IDs it registered).
_LOADED: dict[str, tuple[ModuleType, list[str]]] = {}


def _registered(claim_id: str) -> bool:
    try:
        get_claim(claim_id)
    except KeyError:
        return False
    return True


def _run_user_code(provenance: str, family: str, where: str,
                   load: Callable[[], ModuleType]) -> tuple[ModuleType, list[str]]:
    """``load()`` with its registrations the user's own (standard output on standard
    error meanwhile); a failure is one ``ValueError`` line and registers nothing."""
    try:
        with user_code(provenance, family) as ids, _stdout_to_stderr(), _same_directory():
            module = load()
    except KeyboardInterrupt:
        raise
    except _Missing:
        raise ValueError(f"{where}: no such file or module") from None
    except BaseException as exc:
        raise ValueError(f"{where}: {_one_line(exc)}") from None
    return module, list(ids)


@contextmanager
def _same_directory() -> Iterator[None]:
    """The current directory as it was before, whatever the user's code does at import
    (``os.chdir`` would move every relative path given on the command line)."""
    try:
        here = os.open(".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # no directory to go back to
        yield
        return
    try:
        yield
    finally:
        try:
            os.fchdir(here)
        finally:
            os.close(here)


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """What the user's code prints at import goes to standard error, descriptor and
    stream, so that a report written to standard output stays clean."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no descriptors to redirect (closed, or redirected in-process)
        saved = None
    streams = sys.stdout, sys.stderr
    try:
        with redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout, sys.stderr = streams
        if saved is not None:
            try:
                sys.stderr.flush()
            except (OSError, ValueError, AttributeError):
                pass
            os.dup2(saved, 1)
            os.close(saved)


def _module_name(path: Path) -> str:
    name = re.sub(r"\W", "_", path.stem)
    return "_" + name if not name or name[0].isdigit() else name


def _import_file(path: Path, where: str) -> tuple[ModuleType, list[str] | None]:
    if not path.exists():
        raise ValueError(f"{where}: no such file")
    if not path.is_file() or path.suffix != ".py":
        raise ValueError(f"{where}: is not a Python file (.py)")
    path = path.resolve()
    name = _module_name(path)
    old = sys.modules.get(name)
    if old is not None:
        old_file = getattr(old, "__file__", None)
        if old_file is not None and Path(old_file).resolve() == path:
            return old, None
        raise ValueError(
            f"{where}: a module named {name!r} is already imported"
            f"{f' (from {old_file})' if old_file else ''}; rename the file"
        )
    try:
        other = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        other = None
    if other is not None and other.origin and Path(other.origin).resolve() != path:
        raise ValueError(
            f"{where}: its module name {name!r} is taken by {other.origin}; rename the file"
        )
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:  # pragma: no cover - a .py file
        raise ValueError(f"{where}: cannot be imported")
    module = importlib.util.module_from_spec(module_spec)
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    loader = module_spec.loader

    def load() -> ModuleType:
        sys.modules[name] = module
        try:
            loader.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        return module

    return _run_user_code(f"file {_shown(path)}", name, where, load)


def _import_module(name: str, where: str) -> tuple[ModuleType, list[str] | None]:
    if name in sys.modules:
        return sys.modules[name], None

    def load() -> ModuleType:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                raise _Missing from None
            raise

    return _run_user_code(f"module {name}", name.split(".")[0], where, load)


class _Missing(Exception):
    """No module has the name given."""


def _shown(path: Path) -> str:
    """A path as text for a report: bytes that are not UTF-8 as ``\\xNN`` escapes."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"{type(exc).__name__}: {exc.msg} (line {exc.lineno})"
    if isinstance(exc, SystemExit):
        return "exits on import (put the exit under if __name__ == '__main__':)"
    message = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
