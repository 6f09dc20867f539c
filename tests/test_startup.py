"""``import moetheory`` and the command line's start import no mathematics they do not use
(issues 29 and 32): the public names are re-exported lazily, the engine imports NumPy and
SymPy inside the functions that need them, and loading the checks (``moetheory list``)
imports neither SciPy nor Hypothesis."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import moetheory

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "sympy", "scipy", "scipy.stats", "mpmath", "hypothesis", "matplotlib")


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.splitlines()[-1]))


def test_import_moetheory_imports_no_mathematics() -> None:
    loaded = modules_after("import moetheory")
    assert not loaded & {*HEAVY, "importlib.metadata"}


def test_public_engine_names_import_no_mathematics() -> None:
    loaded = modules_after(
        "import moetheory\n"
        "moetheory.Verdict, moetheory.Outcome, moetheory.Reading, moetheory.claim\n"
        "moetheory.verify, moetheory.CheckContext, moetheory.registered"
    )
    assert not loaded & set(HEAVY)


@pytest.mark.parametrize("argv", [["--help"], ["--version"]])
def test_cli_help_and_version_import_no_mathematics(argv: list[str]) -> None:
    loaded = modules_after(
        "import contextlib, io\n"
        "from moetheory.engine.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({argv!r})\n"
        "    except SystemExit:\n"
        "        pass"
    )
    assert "moetheory.engine.cli" in loaded
    assert not loaded & set(HEAVY)


def test_loading_the_checks_imports_no_scipy_or_hypothesis() -> None:
    """What ``moetheory list`` loads: the checks' modules, not what only running them needs
    (SciPy's statistics and optimisers, Hypothesis, a process pool, SymPy's tensors)."""
    loaded = modules_after("from moetheory.engine.registry import load_checks\nload_checks()")
    assert "proofs_checks.nguyen2025cosine.rates" in loaded
    unwanted = {"scipy", "hypothesis", "matplotlib", "multiprocessing", "sympy.tensor.tensor"}
    assert not loaded & unwanted


def test_the_lazy_names_are_the_objects_of_their_modules() -> None:
    import importlib

    table = moetheory._LAZY
    assert sorted(moetheory.__all__) == sorted([*table, "__version__"])
    for name, module in table.items():
        assert getattr(moetheory, name) is getattr(importlib.import_module(module), name)
    assert set(table) <= set(dir(moetheory))
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        moetheory.nonexistent  # noqa: B018


def test_type_checkers_see_every_lazy_name() -> None:
    """The ``TYPE_CHECKING`` block imports each name of the table from its module."""
    tree = ast.parse((ROOT / "moetheory" / "__init__.py").read_text())
    block = next(n for n in tree.body if isinstance(n, ast.If)
                 and getattr(n.test, "id", "") == "TYPE_CHECKING")
    seen = {
        alias.name: node.module
        for node in block.body if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert seen == moetheory._LAZY
