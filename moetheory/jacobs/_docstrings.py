"""Docstring text shared between functions, written once (as SciPy's ``doccer``).

A docstring line ``{{key}}`` stands for the text ``parts[key]``, indented as that line; a
part may itself hold ``{{key}}`` lines.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["doc_filler"]

_F = TypeVar("_F", bound=Callable[..., Any])
_KEY = re.compile(r"^([ \t]*)\{\{(\w+)\}\}\n", re.MULTILINE)


def doc_filler(parts: Mapping[str, str]) -> Callable[[_F], _F]:
    """A decorator that fills the ``{{key}}`` lines of a docstring from ``parts``.

    Parameters
    ----------
    parts : mapping of str to str
        The shared text by key, unindented, each line ending in a newline.

    Returns
    -------
    callable
        ``fill(func) -> func``: sets ``func.__doc__`` with every ``{{key}}`` line replaced
        by ``parts[key]`` at that line's indentation (repeatedly, so parts may nest).

    Raises
    ------
    KeyError
        When the decorated docstring names a key ``parts`` does not have.

    Notes
    -----
    The docstring is filled when the function is defined, so ``help``, Sphinx and doctest
    see the whole text; a function without docstring (``python -OO``) is left alone.

    See Also
    --------
    moetheory.jacobs.losses : the functions that share their parameter descriptions.

    Examples
    --------
    >>> fill = doc_filler({"x": "x : float\\n    A number.\\n"})
    >>> @fill
    ... def f(x):
    ...     '''Identity.
    ...
    ...     Parameters
    ...     ----------
    ...     {{x}}
    ...     '''
    >>> print(f.__doc__.splitlines()[4])
        x : float
    """
    def fill(func: _F) -> _F:
        doc = func.__doc__
        while doc and _KEY.search(doc):
            doc = _KEY.sub(lambda m: textwrap.indent(parts[m.group(2)], m.group(1)), doc)
        func.__doc__ = doc
        return func

    return fill
