"""The benchmark of the README's commands (``benchmarks/bench_commands.py``, issue 45)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from _bench import ROOT, load_benchmark

bench = load_benchmark("bench_commands")


def test_the_test_command_is_the_readmes_pytest_step() -> None:
    assert bench.command("tests", ROOT, 2, Path("r.json")) == [sys.executable, "-m", "pytest"]
    assert bench.pytest_argv("a && b && venv/bin/python -m pytest -m 'not slow'") == [
        sys.executable, "-m", "pytest", "-m", "not slow"]
    for shell in ("python -m moetheory verify", "pytest", "python -c 'import pytest'"):
        with pytest.raises(ValueError, match="does not end in 'python -m pytest"):
            bench.pytest_argv(shell)


def test_a_tree_without_a_test_command_is_refused(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("```bash\npip install .\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^tree: .* has no test command"):
        bench.readme_test_argv(tmp_path)


@pytest.mark.parametrize("args, problem", [
    (["--repeats", "0"], "--repeats must be at least 1, got 0"),
    (["--jobs", "0"], "--jobs must be at least 1, got 0"),
    (["--command", "docs"], "argument --command: invalid choice: 'docs'"),
])
def test_bad_arguments_are_one_line_before_any_run(
    args: list[str], problem: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench, "timed", lambda *a: pytest.fail("ran a command"))
    with pytest.raises(SystemExit) as stop:
        bench.main(args)
    assert stop.value.code == 2
    assert problem in capsys.readouterr().err.splitlines()[-1]


def test_each_tree_is_timed_with_its_status_and_tabled_against_its_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    # a stand-in for verify: writes an empty report; the old tree is HEAD's, extracted
    def stand_in(name: str, tree: Path, jobs: int, report: Path) -> list[str]:
        code = f"open({str(report)!r}, 'w').write({json.dumps(json.dumps({'claims': []}))})"
        return [sys.executable, "-c", code]

    monkeypatch.setattr(bench, "command", stand_in)
    assert bench.main(["--command", "quick", "--old", "HEAD", "--repeats", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("quick old:") for line in out) == 2
    assert sum(line.startswith("quick new:") and line.endswith("exit 0") for line in out) == 2
    assert "quick: claims whose reports differ apart from seconds: 0" in out
    row = next(line for line in out if line.startswith("| quick |")).split(" | ")
    assert row[3] == "90" and len(row) == 8
    assert out[-1] == "targets on 2 cores: met"
    # a command that fails makes the benchmark fail, whatever its time
    monkeypatch.setattr(bench, "command", lambda *a: [sys.executable, "-c", "exit(3)"])
    assert bench.main(["--command", "tests"]) == 1
    assert capsys.readouterr().out.splitlines()[0].endswith("exit 3")
