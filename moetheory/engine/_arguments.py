"""Argument parsing shared by the package's commands: one-line usage errors, integer ranges.

The ``moetheory`` command (:mod:`moetheory.engine.cli`) and the page generators
(``python -m moetheory.docs``, ``python -m moetheory.engine.ledger``,
``python -m moetheory.symbolic.atlas``) parse their arguments with :class:`OneLineParser`,
so that a bad argument is one line naming it, exit status 2, never argparse's usage block.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from moetheory.engine.terminal import printable

__all__ = ["OneLineParser", "int_at_least"]


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (``prog: error: ...``), exit 2.

    Parameters
    ----------
    prog, usage, description, epilog, parents, formatter_class, prefix_chars
        As for :class:`argparse.ArgumentParser` (``prog`` names the command in the message).
    fromfile_prefix_chars, argument_default, conflict_handler, add_help, allow_abbrev
        As for :class:`argparse.ArgumentParser`.
    exit_on_error
        As for :class:`argparse.ArgumentParser`.

    See Also
    --------
    moetheory.engine.cli.build_parser : the ``moetheory`` command's parser.

    Notes
    -----
    argparse prints its usage block before the message and echoes some arguments as they
    are; here the message alone is printed, with every character a terminal could act on
    escaped (:func:`~moetheory.engine.terminal.printable`) and newlines as ``\\n``.

    Examples
    --------
    >>> import contextlib, io
    >>> parser = OneLineParser(prog="demo")
    >>> _ = parser.add_argument("--n", type=int_at_least(1))
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     try:
    ...         parser.parse_args(["--n", "0"])
    ...     except SystemExit as exc:
    ...         print(exc.code)
    2
    >>> err.getvalue()
    'demo: error: argument --n: must be an integer >= 1, got 0; see --help\\n'
    """

    def error(self, message: str) -> Any:  # type: ignore[override]
        # one line whatever the arguments hold (argparse echoes some of them as they are)
        text = printable(f"{self.prog}: error: {message}; see --help").replace("\n", "\\n")
        self.exit(2, text + "\n")


def int_at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: an integer from ``low`` (to ``high``, if given).

    Parameters
    ----------
    low : int
        The smallest value allowed.
    high : int, optional
        The largest value allowed (no bound if omitted).

    Returns
    -------
    callable
        ``parse(text) -> int``, raising :class:`argparse.ArgumentTypeError` with the allowed
        range for text that is not such an integer.

    See Also
    --------
    OneLineParser : reports that error on one line.

    Notes
    -----
    The range is checked by the parser itself, so a bad value fails before any work.

    Examples
    --------
    >>> int_at_least(1, 8)("3")
    3
    """
    allowed = f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {allowed}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {value}")
        return value

    return parse
