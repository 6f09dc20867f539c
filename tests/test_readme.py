"""The README's two fresh-machine commands, and CI running the test one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
