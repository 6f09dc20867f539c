"""A module of the package as it was at an earlier git revision, for side-by-side benchmarks.

Speed targets are printed as ratios against the previous implementation measured in the same
run. Rather than keep frozen copies of old code in the tree, the benchmarks load the old file
from git history (``git show REV:PATH``) into a throwaway module.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from types import ModuleType

__all__ = ["extract", "previous_module"]

ROOT = Path(__file__).resolve().parents[1]


def extract(rev: str, into: Path) -> Path:
    """The tree of git revision ``rev`` extracted into ``into``."""
    data = subprocess.run(["git", "archive", rev], capture_output=True, check=True,
                          cwd=ROOT).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def previous_module(path: str, rev: str) -> ModuleType | None:
    """The file ``path`` (relative to the repository root) at git revision ``rev``, imported.

    Returns None when git or the revision is not available (e.g. a source tarball).
    """
    root = Path(__file__).resolve().parent.parent
    try:
        text = subprocess.run(
            ["git", "show", f"{rev}:{path}"], cwd=root, check=True, capture_output=True,
            text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    name = "previous_" + Path(path).stem
    file = Path(tempfile.mkdtemp()) / f"{name}.py"
    file.write_text(text)
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
