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
from pathlib import Path
from types import ModuleType

from moetheory.engine.registry import registered, unregister

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
        module = _import_file(path, where)
    else:
        module = _import_module(text, where)
    ids = [c.id for c in registered() if _defined_in(c.check, module.__name__)]
    if not ids:
        raise ValueError(f"{where}: registers no claim (decorate a check with @claim)")
    return ids


def _defined_in(check: object, name: str) -> bool:
    module = getattr(check, "__module__", None) or ""
    return module == name or module.startswith(name + ".")


def _module_name(path: Path) -> str:
    name = re.sub(r"\W", "_", path.stem)
    return "_" + name if not name or name[0].isdigit() else name


def _import_file(path: Path, where: str) -> ModuleType:
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
            return old
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
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except BaseException as exc:
        sys.modules.pop(name, None)
        for c in registered():  # what the file registered before it failed
            if getattr(c.check, "__module__", None) == name:
                unregister(c.id)
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise ValueError(f"{where}: {_one_line(exc)}") from None
    return module


def _import_module(name: str, where: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            raise ValueError(f"{where}: no such file or module") from None
        raise ValueError(f"{where}: {_one_line(exc)}") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise ValueError(f"{where}: {_one_line(exc)}") from None


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"{type(exc).__name__}: {exc.msg} (line {exc.lineno})"
    if isinstance(exc, SystemExit):
        return "exits on import (put the exit under if __name__ == '__main__':)"
    message = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
