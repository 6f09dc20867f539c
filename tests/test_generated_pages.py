"""The two page generators (claim pages, ledger) write into a folder a user names: they
remove only what they wrote, and check their arguments before any work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import moetheory.docs as docs_gen
from moetheory.docs import _cli as docs_cli
from moetheory.engine import ledger
from moetheory.engine.runner import Interrupted

REPORT = {"seed": 0, "profile": "quick", "family_alpha": 0.05, "claims": []}


@pytest.fixture
def report(tmp_path: Path) -> Path:
    path = tmp_path / "report.json"
    path.write_text(json.dumps(REPORT))
    return path


def test_write_pages_never_removes_a_file_it_did_not_write(tmp_path: Path) -> None:
    # `python -m moetheory.docs --out docs` removed every hand-written page of docs/
    (tmp_path / "README.md").write_text("mine\n")
    (tmp_path / "evidence").mkdir()
    (tmp_path / "evidence" / "notes.json").write_text("{}\n")
    docs_gen.write_pages({"index.md": "# x\n", "evidence/a.json": "{}\n"}, tmp_path)
    docs_gen.write_pages({"index.md": "# x\n"}, tmp_path)
    assert (tmp_path / "README.md").read_text() == "mine\n"
    assert (tmp_path / "evidence" / "notes.json").is_file()
    assert not (tmp_path / "evidence" / "a.json").exists()


def test_the_ledger_never_removes_a_page_it_did_not_write(tmp_path: Path) -> None:
    (tmp_path / "index.md").write_text("mine\n")
    (tmp_path / "guide.md").write_text("mine\n")
    assert ledger.main(["--out", str(tmp_path)]) == 0
    assert (tmp_path / "guide.md").read_text() == "mine\n"
    assert (tmp_path / "seed-000.md").is_file()


def test_the_ledger_removes_a_page_it_no_longer_generates(tmp_path: Path) -> None:
    assert ledger.main(["--out", str(tmp_path)]) == 0
    (tmp_path / "seed-009.md").write_text("old\n")
    listed = tmp_path / ".moetheory-pages"
    listed.write_text(listed.read_text() + "seed-009.md\n")
    assert ledger.main(["--out", str(tmp_path), "--check"]) == 1
    assert ledger.main(["--out", str(tmp_path)]) == 0
    assert not (tmp_path / "seed-009.md").exists()
    assert ledger.main(["--out", str(tmp_path), "--check"]) == 0


@pytest.mark.parametrize("args, message", [
    (["--report", "{dir}/list.json"], "--report {dir}/list.json: is not a moetheory report"),
    (["--report", "{dir}/missing.json"], "--report {dir}/missing.json:"),
    (["--save-report", "{dir}/no/such/r.json"], "--save-report {dir}/no/such/r.json:"),
    (["--out", "{dir}/list.json"], "--out {dir}/list.json: is not a directory"),
    (["--figures", "{dir}/list.json"], "--figures {dir}/list.json: is not a directory"),
    (["--seeds", "{dir}/none"], "--seeds {dir}/none: is not a directory"),
    (["--bogus"], "unrecognized arguments: --bogus"),
])
def test_the_docs_command_checks_its_arguments_before_any_work(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "list.json").write_text("[]")
    ran: list[bool] = []
    monkeypatch.setattr(docs_cli, "_verify_now", lambda progress: ran.append(True) or REPORT)
    argv = [a.format(dir=tmp_path) for a in args]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "claims")]
    try:
        code = docs_gen.main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and ran == []
    assert message.format(dir=tmp_path) in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "claims").exists()


def test_the_docs_command_stops_on_a_signal_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    def interrupted(progress: bool) -> dict[str, object]:
        raise Interrupted(15)

    monkeypatch.setattr(docs_cli, "_verify_now", interrupted)
    assert docs_gen.main(["--out", str(tmp_path / "claims")]) == 128 + 15
    err = capsys.readouterr().err
    assert "interrupted" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "claims").exists()


def test_the_ledger_command_checks_its_folder(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file.md").write_text("x\n")
    with pytest.raises(SystemExit) as info:
        ledger.main(["--out", str(tmp_path / "file.md")])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--out" in err and "is not a directory" in err
    assert len(err.strip().splitlines()) == 1


def test_the_docs_build_shows_its_progress_while_it_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the docs build verified silently for minutes (progress=False, no word on stderr)
    from moetheory.engine import verification

    calls: list[dict] = []

    def fake_verify(**kwargs: object) -> dict:
        calls.append(kwargs)
        return dict(REPORT)

    monkeypatch.setattr(verification, "verify", fake_verify)
    docs_gen.build_pages(tmp_path)
    assert [c["progress"] for c in calls] == [True]
    err = capsys.readouterr().err
    assert "verifying" in err and "MOETHEORY_DOCS_REPORT" in err


def test_the_ledger_sets_every_claim_id_of_a_reason_as_code() -> None:
    # reasons named claims in plain text ("checked through pcr.rates.cosine-slow"), which the
    # docs cannot link; set as code, the docs build links them to the claim
    import re

    from moetheory.engine.registry import load_checks, registered

    load_checks()
    ids = sorted((c.id for c in registered()), key=len, reverse=True)
    bare = re.compile(r"(?<![\w.\-/`])(" + "|".join(re.escape(i) for i in ids)
                      + r")(?![\w\-`]|\.[a-z0-9])")
    found = []
    for name, page in ledger.generate_ledger_pages().items():
        for row in page.splitlines():
            if not row.startswith("| L"):
                continue
            reason = row.split(" | ")[-1]
            found += [f"{name}: {m.group(1)}" for m in bare.finditer(reason)
                      if reason[:m.start()].count("`") % 2 == 0]
    assert not found, found
