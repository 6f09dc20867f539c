"""Run the checks of one ``proofs_checks`` module as a script."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from moetheory.cli import main

__all__ = ["run_module_checks"]


def run_module_checks(prefixes: Sequence[str], argv: Sequence[str] | None = None) -> int:
    """Verify the claims whose IDs start with any of ``prefixes``; print the report.

    Extra command-line arguments (``--profile full``, ``--seed 3``, ``--json FILE`` ...)
    are those of ``moetheory verify``.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    only = [arg for p in prefixes for arg in ("--only", f"{p}*")]
    return main(["verify", *only, "--markdown", "/dev/stdout", "--no-progress", *args])
