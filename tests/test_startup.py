"""``import moetheory`` and the command line's start import no mathematics they do not use
(issues 29 and 32): the public names are re-exported lazily, the engine imports NumPy and
SymPy inside the functions that need them, and loading the checks (``moetheory list``)
imports neither SciPy nor Hypothesis."""

from __future__ import annotations

import ast
import json
import os
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


def test_the_command_gives_blas_one_thread(tmp_path: Path) -> None:
    """The command's own process does no linear algebra worth a thread pool (each check runs
    in a process of its own with one BLAS thread): an OpenBLAS that started with a thread per
    core spent ~0.07 s of CPU starting them, a tenth of ``moetheory list``. A user's own
    setting is kept."""
    probe = tmp_path / "probe_checks.py"
    report = tmp_path / "threads.json"
    probe.write_text(
        "import json, os\n"
        "from moetheory.engine.runner import _blas_controls\n"
        f"open({str(report)!r}, 'w').write(json.dumps(\n"
        "    [os.environ.get('OPENBLAS_NUM_THREADS'), [int(g()) for g, _ in _blas_controls()]]))\n"
        "from moetheory import Outcome, Verdict, claim\n"
        "@claim('probe.threads', reading='r', statement='s', seed_files=['t'], section='T')\n"
        "def check(ctx):\n"
        "    return Outcome(Verdict.PROVED, 'ok', {})\n",
        encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    for setting, expected in ((None, "1"), ("2", "2")):
        if setting is not None:
            env["OPENBLAS_NUM_THREADS"] = setting
        subprocess.run([sys.executable, "-m", "moetheory", "list", "--checks", str(probe)],
                       cwd=ROOT, env=env, capture_output=True, check=True, timeout=120)
        variable, threads = json.loads(report.read_text(encoding="utf-8"))
        assert variable == expected
        assert threads and set(threads) == {int(expected)}
