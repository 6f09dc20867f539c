"""The README's two fresh-machine commands, and CI running the test one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from _bench import load_benchmark

ROOT = Path(__file__).resolve().parents[1]
bench_commands = load_benchmark("bench_commands")


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [b.strip() for b in re.findall(r"```bash\n(.*?)\n```", text, re.S)]


def test_readme_starts_with_a_verify_and_a_test_command() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    before_sections = text.split("\n## ")[0]
    blocks = re.findall(r"```bash\n(.*?)\n```", before_sections, re.S)
    assert len(blocks) == 2 and _commands()[:2] == [b.strip() for b in blocks]
    verify, test = (b.strip() for b in blocks)
    assert "pip install" in verify and "moetheory verify" in verify
    assert "report.json" in verify and "report.md" in verify
    assert "pip install" in test and "pytest" in test
    # issue 45: the main command names its profile and how long it takes
    profile = re.search(r"--profile (\w+)", verify)
    intro = before_sections.split("```bash")[0]
    assert profile and f"profile `{profile.group(1)}`" in intro
    assert re.search(r"about \d+ minutes on \d+ cores", intro)


def _section(text: str, start: str) -> str:
    return text.split(start, 1)[1]


def test_readme_gives_a_researchers_path_first_and_is_short() -> None:
    # issue 45: 199 lines, with about 60 lines of operator guarantees before the first
    # mathematics of one's own
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 120
    text = "\n".join(lines)
    steps = ["**Install**", "**A ten-second taste**", "moetheory show pcr.pde.cosine",
             "**The quick run**", "**Your router**"]
    at = [next(i for i, line in enumerate(lines) if step in line) for step in steps]
    assert at == sorted(at)
    router_output = next(i for i in range(at[-1], len(lines)) if lines[i] == "```text")
    assert lines.index("```", router_output + 1) < 60  # the router's answer, too
    assert "minutes on 2 cores" in lines[at[3]]
    # the operator's matters live in the docs, linked
    for word in ("NAME_MAX", "subreaper", "FIFO", "256 MiB", "Exit codes", "--scheduler",
                 "SIGTERM", "tls://"):
        assert word not in text
        assert word in (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#]+)", text)
    assert "docs/operations.md" in links
    assert all((ROOT / link).is_file() for link in links)
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "\noperations\n" in index.split("```{toctree}", 1)[1]


def test_the_readmes_router_snippet_prints_what_it_says(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = _section((ROOT / "README.md").read_text(encoding="utf-8"), "**Your router**")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    printed = re.search(r"```text\n(.*?)```", text, re.S).group(1)
    assert len(code.strip().splitlines()) == 4
    exec(code, {})
    assert capsys.readouterr().out == printed


def test_the_readmes_numbers_agree_with_the_catalogue() -> None:
    from moetheory.engine.registry import load_checks, registered

    load_checks()
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    total = len(registered())
    assert f"each of the {total} claims" in " ".join(text.split())
    counts = re.search(r"^(\d+) claims checked: (.*)$", text, re.M)
    assert counts and int(counts.group(1)) == total
    numbers = dict((v, int(n)) for v, n in re.findall(r"(\w+) (\d+)", counts.group(2)))
    assert sum(numbers.values()) == total
    after = " ".join(_section(text, counts.group(0)).split())
    assert f"{numbers['refuted']} were found false by an exact" in after
    assert f"{numbers['unsupported']} by calibrated Monte Carlo" in after
    assert f"{numbers['inconclusive']} are open" in after


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "readme_command.py test" in ci
    printed = subprocess.run(
        [sys.executable, ".ci/readme_command.py", "test"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert printed == _commands()[1]


_TIERS = """
import pytest


def test_fast():
    pass


@pytest.mark.slow
def test_slow():
    pass
"""


def _selected(argv: list[str], tests: Path) -> list[str]:
    """The test names ``argv`` (a pytest command run at the root) selects in ``tests``.

    ``-c`` names the configuration the command reads at the root, which a file elsewhere
    would not find.
    """
    listed = subprocess.run(
        [*argv, "-c", "pyproject.toml", "--collect-only", "-q", "-p", "no:cacheprovider",
         str(tests)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    ).stdout
    return sorted(re.findall(r"::(test_\w+)$", listed, re.M))


def test_the_readme_runs_the_default_tier_and_ci_adds_the_slow_one(tmp_path: Path) -> None:
    # issue 45: the README's test command runs the default tier (tests not marked slow), and
    # .ci/run runs the slow tier after it with the same interpreter: between them, every test
    tests = tmp_path / "test_tiers.py"
    tests.write_text(_TIERS, encoding="utf-8")
    readme = bench_commands.readme_test_argv(ROOT)
    assert _selected(readme, tests) == ["test_fast"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    runs = [ln for ln in ci.splitlines() if "-m pytest" in ln and not ln.startswith("#")]
    assert len(runs) == 1, runs
    assert runs[0].split()[0] == _commands()[1].split("&&")[-1].split()[0]
    assert _selected(bench_commands.pytest_argv(runs[0]), tests) == ["test_slow"]


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
