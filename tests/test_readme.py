"""The README's two fresh-machine commands, and CI running the test one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [b.strip() for b in re.findall(r"```bash\n(.*?)\n```", text, re.S)]


def test_readme_starts_with_a_verify_and_a_test_command() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    before_usage = text.split("## Usage")[0]
    blocks = re.findall(r"```bash\n(.*?)\n```", before_usage, re.S)
    assert len(blocks) == 2
    verify, test = (b.strip() for b in blocks)
    assert "pip install" in verify and "moetheory verify" in verify
    assert "report.json" in verify and "report.md" in verify
    assert "pip install" in test and "pytest" in test


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "readme_command.py test" in ci
    printed = subprocess.run(
        [sys.executable, ".ci/readme_command.py", "test"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert printed == _commands()[1]


def test_the_project_files_a_user_expects() -> None:
    # a licence, a way to cite, a change log whose newest release is the package's version,
    # and the package's authors in its metadata
    import moetheory

    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11

    root = Path(__file__).resolve().parents[1]
    assert "MIT License" in (root / "LICENSE").read_text(encoding="utf-8")
    citation = (root / "CITATION.cff").read_text(encoding="utf-8")
    assert "cff-version:" in citation and f'version: "{moetheory.__version__}"' in citation
    changes = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = [ln for ln in changes.splitlines()
                if ln.startswith("## [") and "Unreleased" not in ln]
    assert releases and releases[0].startswith(f"## [{moetheory.__version__}]")
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["authors"] and project["license"]


def test_the_readmes_own_mathematics_lines_give_the_verdicts_they_state() -> None:
    # each `... .verdict  # <verdict>...` line of the README's block is run and its verdict
    # compared with the comment
    import re

    text = (ROOT / "README.md").read_text()
    section = text.split("## Your own mathematics", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    namespace: dict = {}
    checked = 0
    for line in code.splitlines():
        statement, _, comment = line.partition("  #")
        if statement.rstrip().endswith(".verdict"):
            verdict = eval(statement, namespace)
            assert verdict.value == comment.split()[0].rstrip(":,"), line
            checked += 1
        else:
            exec(statement, namespace)
    assert checked == 3
