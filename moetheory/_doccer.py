"""Docstring text that several functions share, written once (in the manner of SciPy's ``doccer``).

A docstring names a shared part by a placeholder ``%(name)s``; the decorator :func:`fill_doc`
puts the part in its place when the function or class is defined, so ``help()``, numpydoc,
Sphinx and doctest read the whole docstring. Parts are written unindented: the lines of a part
after its first take the indentation of the line that holds the placeholder, so the same part
serves at any depth (a parameter description, a section of a method, a sentence inside a
Raises entry). A part may itself hold placeholders.

Examples
--------
>>> parts = {"refs": "References\\n----------\\n.. [1] A. Author, \\"A paper\\", 2025."}
>>> @fill_doc(parts)
... def f() -> None:
...     '''Do nothing.
...
...     %(refs)s
...     '''
>>> print(f.__doc__)
Do nothing.
<BLANKLINE>
    References
    ----------
    .. [1] A. Author, "A paper", 2025.
<BLANKLINE>
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["fill_doc", "format_doc"]

_T = TypeVar("_T", bound=Callable[..., Any])

#: A placeholder, with the indentation of its line before it (``indent``) and, between the
#: two, whatever text the line holds (``before``).
_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)(?P<before>[^\n]*?)%\((?P<name>\w+)\)s", re.M)

#: Passes of :func:`format_doc` at the most: parts nest this deep (beyond, a part names itself).
_MAX_DEPTH = 10


def format_doc(doc: str, parts: Mapping[str, str]) -> str:
    """Replace every placeholder ``%(name)s`` of ``doc`` with ``parts[name]``, indented.

    Parameters
    ----------
    doc : str
        The text with placeholders.
    parts : mapping of str to str
        The shared text by name, unindented: its first line goes where the placeholder
        stands, its other lines (but blank ones) get the indentation of the placeholder's line.

    Returns
    -------
    str
        ``doc`` with every placeholder replaced, repeatedly while the inserted parts hold
        placeholders of their own.

    Raises
    ------
    KeyError
        If ``doc`` or a part names a placeholder that ``parts`` lacks.
    ValueError
        If the parts nest more than ten deep (a part that names itself, directly or not).

    See Also
    --------
    fill_doc : the decorator that applies this to a docstring.

    Notes
    -----
    The replacement is plain text (no ``%`` formatting), so braces, backslashes and other
    percent signs in ``doc`` and the parts are left as written. A placeholder alone on its
    line thus gives the part that line's indentation throughout; one inside a line of text
    continues that text and wraps at the line's indentation.

    Examples
    --------
    >>> parts = {"x": "x : float\\n    A number.", "xs": "%(x)s\\ny : float"}
    >>> print(format_doc("Parameters\\n    ----------\\n    %(xs)s\\n", parts))
    Parameters
        ----------
        x : float
            A number.
        y : float
    <BLANKLINE>
    >>> format_doc("Raises ``%(error)s``.", {"error": "ValueError"})
    'Raises ``ValueError``.'
    """

    def replace(match: re.Match[str]) -> str:
        indent, name = match["indent"], match["name"]
        if name not in parts:
            raise KeyError(f"no docstring part named {name!r}")
        first, *rest = parts[name].split("\n")
        lines = [first] + [indent + line if line.strip() else line for line in rest]
        return indent + match["before"] + "\n".join(lines)

    for _ in range(_MAX_DEPTH):
        if not _PLACEHOLDER.search(doc):
            return doc
        doc = _PLACEHOLDER.sub(replace, doc)
    raise ValueError(f"docstring parts nest more than {_MAX_DEPTH} deep")


def fill_doc(parts: Mapping[str, str]) -> Callable[[_T], _T]:
    """A decorator that fills the placeholders ``%(name)s`` of a docstring from ``parts``.

    Parameters
    ----------
    parts : mapping of str to str
        The shared text by name, unindented (see :func:`format_doc`). A docstring need not
        use every part, so one mapping can serve a whole module.

    Returns
    -------
    callable
        ``fill(obj) -> obj``: sets the docstring of the function or class ``obj`` to
        ``format_doc(obj.__doc__, parts)`` and returns ``obj`` itself.

    Raises
    ------
    KeyError
        If the docstring names a placeholder that ``parts`` lacks (raised when the function
        is defined, so a misspelt name fails on import).
    ValueError
        If the parts nest more than ten deep.

    See Also
    --------
    format_doc : the replacement itself.

    Notes
    -----
    An object without a docstring (``python -OO``) is returned unchanged.

    Examples
    --------
    >>> fill = fill_doc({"x": "x : float\\n    A number."})
    >>> @fill
    ... def f(x: float) -> float:
    ...     '''Identity.
    ...
    ...     Parameters
    ...     ----------
    ...     %(x)s
    ...     '''
    ...     return x
    >>> print(f.__doc__.splitlines()[4:6])
    ['    x : float', '        A number.']
    >>> @fill
    ... def g() -> None:
    ...     '''Nothing, with a misspelt %(y)s.'''
    Traceback (most recent call last):
    ...
    KeyError: "the docstring of g: no docstring part named 'y'"
    """

    def fill(obj: _T) -> _T:
        if obj.__doc__ is not None:
            try:
                obj.__doc__ = format_doc(obj.__doc__, parts)
            except (KeyError, ValueError) as exc:
                raise type(exc)(f"the docstring of {obj.__qualname__}: {exc.args[0]}") from None
        return obj

    return fill
