"""Every public function and class has a complete numpydoc docstring (issue 13, item 6).

A module's public names are those in its ``__all__``; an object is checked in the module that
defines it (re-exports are checked at home). Docstrings are parsed with
:mod:`numpydoc.docscrape`, never with regexes on the text. Required:

- a one-line summary;
- ``Parameters`` naming every parameter of the signature (classes: ``Parameters`` or
  ``Attributes``), when it takes any;
- ``Returns`` or ``Yields`` (functions; ``None`` written out);
- ``Raises`` naming every exception class the function raises: ``raise X(...)`` in its body or
  in a private helper of the same module it calls (found on the syntax tree; for classes, in
  ``__init__`` / ``__post_init__`` / ``__new__``);
- ``Notes``, ``See Also`` and ``Examples`` (with a ``>>>`` doctest, run by the suite);
- ``References`` whenever the text cites ``[n]_``.

Modules still being written up are listed in ``PENDING``; the test fails when one of them
already passes, so the set only shrinks. Remove a module from it when you complete it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import textwrap
import warnings
from collections.abc import Callable, Iterator
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from numpydoc.docscrape import ClassDoc, FunctionDoc, NumpyDocString

import moetheory

#: Modules whose public objects do not have complete docstrings yet. Only ever shrinks.
PENDING: frozenset[str] = frozenset(
    {
    }
)

_CLASS_RAISE_METHODS = ("__init__", "__post_init__", "__new__")


def _modules() -> list[ModuleType]:
    """The package's importable modules that declare ``__all__``."""
    names = [moetheory.__name__] + [
        info.name
        for info in pkgutil.walk_packages(moetheory.__path__, moetheory.__name__ + ".")
        if not info.name.endswith("__main__")
    ]
    mods = [importlib.import_module(name) for name in sorted(names)]
    return [m for m in mods if hasattr(m, "__all__")]


def _public_objects(module: ModuleType) -> Iterator[tuple[str, Any]]:
    """The functions and classes in ``module.__all__`` that ``module`` itself defines."""
    for name in module.__all__:
        obj = getattr(module, name)
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if getattr(obj, "__module__", None) != module.__name__:
            continue  # a re-export: checked where it is defined
        yield name, obj


@cache
def _module_tree(module_name: str) -> tuple[dict[str, ast.FunctionDef | ast.AsyncFunctionDef], ...]:
    """Module-level function definitions of a module, by name (a 1-tuple for caching)."""
    module = importlib.import_module(module_name)
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):  # pragma: no cover - every module of the package has source
        return ({},)
    tree = ast.parse(source)
    defs = {
        node.name: node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    return (defs,)


def _own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """Walk ``node``'s body without descending into nested functions, lambdas or classes."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        yield child
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(child))


def _exception_name(exc: ast.expr | None) -> str | None:
    """The class name in ``raise X(...)`` / ``raise mod.X(...)``; ``None`` for a bare re-raise."""
    if exc is None:
        return None
    if isinstance(exc, ast.Call):
        exc = exc.func
    if isinstance(exc, ast.Name):
        return exc.id
    if isinstance(exc, ast.Attribute):
        return exc.attr
    return None


def _raised(fn_node: ast.AST, module_name: str) -> set[str]:
    """Exception classes raised by ``fn_node`` or by the private helpers it calls (transitively)."""
    defs = _module_tree(module_name)[0]
    found: set[str] = set()
    seen: set[str] = set()
    todo: list[ast.AST] = [fn_node]
    while todo:
        node = todo.pop()
        for child in _own_nodes(node):
            if isinstance(child, ast.Raise):
                name = _exception_name(child.exc)
                if name is not None and name[:1].isupper():
                    found.add(name)
            elif isinstance(child, ast.Call) and isinstance(child.func, ast.Name):
                callee = child.func.id
                if callee.startswith("_") and callee in defs and callee not in seen:
                    seen.add(callee)
                    todo.append(defs[callee])
    return found


def _function_node(obj: Callable[..., Any]) -> ast.AST | None:
    """The syntax tree of a function (``None`` when its source cannot be read)."""
    try:
        source = textwrap.dedent(inspect.getsource(obj))
    except (OSError, TypeError):
        return None
    tree = ast.parse(source)
    return tree.body[0] if tree.body else None


def _signature_params(obj: Callable[..., Any]) -> list[str]:
    """Parameter names a docstring must document (``self``/``cls`` excluded)."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    names = []
    for p in sig.parameters.values():
        if p.name in ("self", "cls"):
            continue
        if p.kind is p.VAR_POSITIONAL:
            names.append("*" + p.name)
        elif p.kind is p.VAR_KEYWORD:
            names.append("**" + p.name)
        else:
            names.append(p.name)
    return names


def _documented_names(doc: NumpyDocString, sections: tuple[str, ...]) -> set[str]:
    """Names documented in the given sections (``a, b : int`` documents both)."""
    names: set[str] = set()
    for section in sections:
        for param in doc[section]:
            for part in param.name.split(","):
                part = part.strip()
                if part:
                    names.add(part)
                    names.add(part.lstrip("*"))
    return names


def _raises_documented(doc: NumpyDocString) -> set[str]:
    """Exception class names listed in ``Raises`` (dotted names count by their last part)."""
    names: set[str] = set()
    for param in doc["Raises"]:
        for field in (param.type, param.name):
            for token in re.split(r"[\s,]+", field or ""):
                token = token.strip("`~:!.")
                if token:
                    names.add(token.rsplit(".", 1)[-1])
    return names


def _has_doctest(doc: NumpyDocString) -> bool:
    return any(line.lstrip().startswith(">>>") for line in doc["Examples"])


def _missing(name: str, obj: Any) -> list[str]:
    """What ``obj``'s docstring lacks: a list of short descriptions (empty when complete)."""
    is_class = inspect.isclass(obj)
    if not inspect.getdoc(obj) or not (obj.__doc__ or "").strip():
        return ["the whole docstring"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpydoc warns on unknown sections: judged below
        try:
            doc: NumpyDocString = (
                ClassDoc(obj, config={"show_class_members": False})
                if is_class
                else FunctionDoc(obj)
            )
        except Exception as exc:  # a docstring numpydoc cannot parse is itself a failure
            return [f"a parsable numpydoc docstring ({type(exc).__name__}: {exc})"]
    missing: list[str] = []
    summary = " ".join(doc["Summary"]).strip()
    if not summary:
        missing.append("Summary")
    elif len(doc["Summary"]) > 1:
        missing.append("a one-line Summary")

    # Parameters: every parameter of the signature documented.
    params = _signature_params(obj) if not is_class or _has_own_constructor(obj) else []
    if params:
        sections = (
            ("Parameters", "Other Parameters", "Attributes")
            if is_class
            else (
                "Parameters",
                "Other Parameters",
            )
        )
        if not any(doc[s] for s in sections):
            missing.append("Parameters")
        else:
            documented = _documented_names(doc, sections)
            undocumented = [
                p for p in params if p not in documented and p.lstrip("*") not in documented
            ]
            if undocumented:
                missing.append("Parameters entries for " + ", ".join(undocumented))

    if not is_class and not (doc["Returns"] or doc["Yields"]):
        missing.append("Returns (or Yields)")

    raised: set[str] = set()
    if is_class:
        for meth in _CLASS_RAISE_METHODS:
            if meth in vars(obj) and inspect.isfunction(vars(obj)[meth]):
                node = _function_node(vars(obj)[meth])
                if node is not None:
                    raised |= _raised(node, obj.__module__)
    else:
        node = _function_node(obj)
        if node is not None:
            raised = _raised(node, obj.__module__)
    if raised:
        if not doc["Raises"]:
            missing.append("Raises (" + ", ".join(sorted(raised)) + ")")
        else:
            undocumented_exc = sorted(raised - _raises_documented(doc))
            if undocumented_exc:
                missing.append("Raises entries for " + ", ".join(undocumented_exc))

    if not doc["Notes"] or not "".join(doc["Notes"]).strip():
        missing.append("Notes")
    if not doc["See Also"]:
        missing.append("See Also")
    if not doc["Examples"]:
        missing.append("Examples")
    elif not _has_doctest(doc):
        missing.append("a >>> doctest in Examples")
    text = "\n".join(obj.__doc__.splitlines())
    if re.search(r"\[\w+\]_", text) and not doc["References"]:
        missing.append("References (the text cites [n]_)")
    return missing


def _has_own_constructor(cls: type) -> bool:
    """Whether ``cls`` takes arguments through a Python ``__init__``/``__new__`` (not an Enum)."""
    import enum

    if issubclass(cls, enum.Enum):
        return False
    return any(inspect.isfunction(getattr(cls, meth, None)) for meth in ("__init__", "__new__"))


@cache
def _audit() -> dict[str, list[str]]:
    """Per module, one line per incomplete public object: ``name: missing sections``."""
    result: dict[str, list[str]] = {}
    for module in _modules():
        problems = []
        for name, obj in _public_objects(module):
            missing = _missing(name, obj)
            if missing:
                problems.append(f"{module.__name__}.{name}: missing " + "; ".join(missing))
        result[module.__name__] = problems
    return result


def _module_names() -> list[str]:
    return [m.__name__ for m in _modules()]


@pytest.mark.parametrize("module_name", _module_names())
def test_public_docstrings_complete(module_name: str) -> None:
    problems = _audit()[module_name]
    if module_name in PENDING:
        if not problems:
            pytest.fail(
                f"{module_name} now has complete docstrings: remove it from PENDING in "
                "tests/test_docstrings.py"
            )
        pytest.skip(f"{module_name} is PENDING ({len(problems)} incomplete public objects)")
    assert not problems, "incomplete numpydoc docstrings:\n" + "\n".join(problems)


def test_pending_names_real_modules() -> None:
    """A PENDING entry that names no module (typo, module removed) would hide nothing: refuse it."""
    unknown = sorted(PENDING - set(_module_names()))
    assert not unknown, f"PENDING names modules that do not exist or lack __all__: {unknown}"


def _doubling_documented_but_raises(func: Callable[..., int]) -> Callable[..., int]:
    """Give ``func``, which doubles a count ``x``, a docstring complete in all but Raises."""
    func.__doc__ = """Double ``x``.

    Parameters
    ----------
    x : int
        A count.

    Returns
    -------
    int
        Twice ``x``.

    Notes
    -----
    :math:`2x`.

    See Also
    --------
    bare

    Examples
    --------
    >>> 1
    1
    """
    return func


def test_checker_rejects_incomplete_and_accepts_complete() -> None:
    """The checker itself can fail: an incomplete docstring is caught, a complete one passes."""

    def bare(x: int) -> int:
        """Double ``x``."""
        if x < 0:
            raise ValueError("x must be >= 0")
        return 2 * x

    @_doubling_documented_but_raises
    def helper_raises(x: int) -> int:
        if x < 0:
            raise TypeError("x")
        return 2 * x

    def complete(x: int, *args: int, **kwargs: int) -> int:
        """Double ``x``.

        Parameters
        ----------
        x : int
            A count, at least 0.
        *args : int
            Ignored.
        **kwargs : int
            Ignored.

        Returns
        -------
        int
            Twice ``x``.

        Raises
        ------
        ValueError
            If ``x < 0``.

        Notes
        -----
        Computes :math:`2x` [1]_.

        References
        ----------
        .. [1] A. Author, "Title", Venue, 2020.

        See Also
        --------
        bare

        Examples
        --------
        >>> complete(2)
        4
        """
        if x < 0:
            raise ValueError("x must be >= 0")
        return 2 * x

    bare.__module__ = complete.__module__ = helper_raises.__module__ = __name__
    got = _missing("bare", bare)
    for section in (
        "Parameters",
        "Returns (or Yields)",
        "Raises (ValueError)",
        "Notes",
        "See Also",
        "Examples",
    ):
        assert section in got, (section, got)
    assert _missing("complete", complete) == []
    assert _missing("helper_raises", helper_raises) == ["Raises (TypeError)"]


def _private_check(x: int) -> None:
    if x < 0:
        raise OverflowError("x")


def test_checker_follows_private_helpers() -> None:
    """An exception raised in a private argument check the function calls must be documented."""

    @_doubling_documented_but_raises
    def uses_helper(x: int) -> int:
        _private_check(x)
        return 2 * x

    node = _function_node(uses_helper)
    assert node is not None
    assert _raised(node, __name__) == {"OverflowError"}
