"""Docstring sections that several functions of :mod:`moetheory.continual` share, written once.

A docstring names a shared section by a placeholder ``%(name)s`` on a line of its own; the
decorator :func:`shared_sections` puts the section's text in its place when the function is
defined (in the manner of SciPy's ``doccer``), so ``help()``, numpydoc and Sphinx read the
whole docstring.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["shared_sections"]

F = TypeVar("F", bound=Callable[..., Any])


def shared_sections(**sections: str) -> Callable[[F], F]:
    """Fill the placeholders ``%(name)s`` of a function's docstring with shared sections.

    Parameters
    ----------
    **sections : str
        The text of each section by name, its lines after the first indented as the
        docstring's (the placeholder's own indentation precedes the first line).

    Returns
    -------
    callable
        The decorator: it returns the function itself with its docstring filled in.

    Raises
    ------
    ValueError
        If a docstring lacks the placeholder of a section it is given (checked at
        decoration, so a misspelt name fails on import).

    See Also
    --------
    moetheory.continual.scaling : the exponent judgements that share their sections.

    Notes
    -----
    The substitution is plain text replacement of each ``%(name)s`` (no ``%`` formatting), so
    the rest of the docstring, LaTeX braces and percent signs included, is left as written.
    A function without a docstring (``python -OO``) is returned unchanged.

    Examples
    --------
    >>> @shared_sections(returns="Returns\\n    -------\\n    int\\n        Twice ``x``.")
    ... def twice(x: int) -> int:
    ...     '''Double ``x``.
    ...
    ...     %(returns)s
    ...     '''
    ...     return 2 * x
    >>> print(twice.__doc__.strip())
    Double ``x``.
    <BLANKLINE>
        Returns
        -------
        int
            Twice ``x``.
    """

    def decorate(func: F) -> F:
        doc = func.__doc__
        if doc is None:
            return func
        for name, text in sections.items():
            placeholder = f"%({name})s"
            if placeholder not in doc:
                raise ValueError(f"the docstring of {func.__qualname__} lacks {placeholder}")
            doc = doc.replace(placeholder, text)
        func.__doc__ = doc
        return func

    return decorate
