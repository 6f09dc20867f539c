"""Hostile inputs and hostile surroundings (issue 30, items 5-7, 9-12, 15).

A wrong scheduler, a damaged or malicious report, escape sequences, closed standard streams,
a full disk, a report on standard output, a second signal during the final write, paths the
file system refuses: each ends in one line and the right exit code, before any work when the
input is bad, and without losing a checked claim when the surroundings fail.
"""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from _processes import children
from _runs import OLD_REPORT, marker_check

from moetheory import CheckContext, Outcome, Verdict, verify
from moetheory.engine import report as report_module
from moetheory.engine.cli import main

#: What must never reach a terminal from a report: C0 but newline and tab, DEL, C1,
#: line/paragraph separators, bidirectional controls.
CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


def _proved(ctx: CheckContext) -> Outcome:
    return Outcome(Verdict.PROVED, "trivially", {"x": 1})


@pytest.fixture(autouse=True)
def _no_leftover_children():  # type: ignore[no-untyped-def]
    yield
    deadline = time.time() + 5
    while children() and time.time() < deadline:
        time.sleep(0.05)
    assert children() == [], "a process outlived the test"


# -------------------------------------------------------------- 5. --scheduler


@pytest.fixture
def silent_scheduler():  # type: ignore[no-untyped-def]
    """An address that accepts connections (the kernel's backlog) and never answers."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    srv.close()


BAD_SCHEDULERS = {
    "garbage": ("garbage", "expected an address"),
    "no-port": ("tcp://127.0.0.1", "expected an address"),
    "port-out-of-range": ("tcp://127.0.0.1:70000", "port 70000"),
    "unknown-scheme": ("udp://127.0.0.1:8786", "scheme 'udp'"),
    "tls-without-certificates": ("tls://127.0.0.1:8786", "TLS needs certificates"),
    "refused": ("tcp://127.0.0.1:1", "cannot connect"),
    "silent": (None, "no answer"),
}


@pytest.mark.parametrize("case", list(BAD_SCHEDULERS))
def test_a_wrong_scheduler_is_one_line_exit_2_and_the_reports_are_untouched(
    case, marker, old_reports, silent_scheduler, capsys, monkeypatch
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setenv("MOETHEORY_SCHEDULER_TIMEOUT", "1")
    address, problem = BAD_SCHEDULERS[case]
    j, m = old_reports
    started = time.monotonic()
    rc = main(["verify", "--only", "test.marker", "--no-progress", "--json", str(j),
               "--markdown", str(m), "--scheduler", address or silent_scheduler])
    took = time.monotonic() - started
    assert rc == 2
    line = _one_line(capsys.readouterr().err)
    assert "--scheduler" in line and problem in line
    assert took < 8, f"{took:.1f} s to refuse a wrong scheduler"
    assert not marker.exists()
    assert j.read_text() == OLD_REPORT and m.read_text() == OLD_REPORT


def test_verify_checks_the_scheduler_before_it_touches_a_report(
    marker, old_reports, silent_scheduler, monkeypatch
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setenv("MOETHEORY_SCHEDULER_TIMEOUT", "0.5")
    j, m = old_reports
    with pytest.raises(ValueError, match=r"^scheduler .*no answer") as exc:
        verify(["test.marker"], json_path=j, markdown_path=m, scheduler=silent_scheduler)
    assert "\n" not in str(exc.value)
    assert j.read_text() == OLD_REPORT and m.read_text() == OLD_REPORT
    assert not marker.exists()


@pytest.mark.parametrize("value", ["soon", "0", "-1", "nan", "1e9"])
def test_a_bad_scheduler_timeout_variable_is_one_line(value, marker, capsys,
                                                      monkeypatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setenv("MOETHEORY_SCHEDULER_TIMEOUT", value)
    assert main(["verify", "--only", "test.marker", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "MOETHEORY_SCHEDULER_TIMEOUT" in _one_line(capsys.readouterr().err)
    assert not marker.exists()


# ------------------------------------------------------ 6. damaged or hostile reports


def _report(*claims: object) -> str:
    return json.dumps({"schema": "moetheory-report/1", "claims": list(claims)})


DAMAGED_REPORTS = {
    "id-is-a-list": (_report({"id": ["x"], "verdict": "proved"}), "claims[0].id is an array"),
    "id-is-an-object": (_report({"id": "a"}, {"id": {"x": 1}}), "claims[1].id is an object"),
    "id-missing": (_report({"verdict": "proved"}), "claims[0].id is missing"),
    "claim-not-an-object": (_report({"id": "a"}, 3), "claims[1] is a number"),
    "deep-nesting": ('{"claims": [{"id": "x", "evidence": ' + "[" * 200_000 + "]" * 200_000
                     + "}]}", "nests deeper"),
    "nesting-past-the-limit": ('{"claims": [{"id": "x", "evidence": ' + "[" * 500
                               + "]" * 500 + "}]}", "nests deeper"),
    "other-schema": ('{"schema": "moetheory-report/9", "claims": []}', "moetheory-report/9"),
    "schema-not-text": ('{"schema": [1], "claims": []}', "schema"),
    "huge-integer": ('{"claims": [{"id": "x", "n": ' + "9" * 5000 + "}]}", "not valid JSON"),
}


@pytest.mark.parametrize("command", ["show", "list"])
@pytest.mark.parametrize("case", list(DAMAGED_REPORTS))
def test_a_damaged_report_is_one_line_exit_2(case, command, tmp_path, capsys) -> None:
    content, problem = DAMAGED_REPORTS[case]
    path = tmp_path / "r.json"
    path.write_text(content)
    argv = ["show", "x", "--report", str(path)] if command == "show" else [
        "list", "--report", str(path)]
    assert main(argv) == 2
    line = _one_line(capsys.readouterr().err)
    assert problem in line and str(path) in line


@pytest.mark.parametrize("command", ["show", "list"])
def test_a_device_is_refused_at_once_not_read(command, capsys) -> None:
    argv = ["show", "x", "--report", "/dev/zero"] if command == "show" else [
        "list", "--report", "/dev/zero"]
    assert main(argv) == 2
    assert "not a regular file" in _one_line(capsys.readouterr().err)


@pytest.mark.parametrize("command", ["show", "list"])
def test_a_fifo_is_refused_at_once_not_waited_on(command, tmp_path) -> None:
    fifo = tmp_path / "r.json"
    os.mkfifo(fifo)
    argv = ["show", "x", "--report", str(fifo)] if command == "show" else [
        "list", "--report", str(fifo)]
    try:
        out = subprocess.run([sys.executable, "-m", "moetheory", *argv], capture_output=True,
                             text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("reading a FIFO nobody writes hung")
    assert out.returncode == 2
    assert "not a regular file" in _one_line(out.stderr)


def test_a_report_larger_than_the_cap_is_refused(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(report_module, "MAX_REPORT_BYTES", 1000)
    path = tmp_path / "r.json"
    path.write_text(_report({"id": "x", "summary": "y" * 2000}))
    assert main(["show", "x", "--report", str(path)]) == 2
    assert "larger than" in _one_line(capsys.readouterr().err)


# --------------------------------------------------------------- 7. terminal escapes

HOSTILE = ("\x1b]0;owned\x07\x1b[2J\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\"
           "\r\x9b31m\x7f\u202egnissap\u2066\u2028")

HOSTILE_ENTRY = {
    "id": "x.y",
    "statement": "S " + HOSTILE,
    "reading": "R " + HOSTILE,
    "verdict": "proved" + HOSTILE,
    "summary": "sum " + HOSTILE,
    "derivation": "**Step.** " + HOSTILE + "\n\n| a | b" + HOSTILE + " |\n|---|---|\n| 1 | 2 |",
    "kind": "exact" + HOSTILE,
    "seed_files": ["f" + HOSTILE],
    "sources": [{"seed_file": "s" + HOSTILE, "lines": [1]}],
    "evidence": {"k" + HOSTILE: "v" + HOSTILE, "n": {"deep" + HOSTILE: [HOSTILE]},
                 "f": {"sympy": "x", "latex": "x" + HOSTILE}},
    "readings": [{"name": "n" + HOSTILE, "reading": HOSTILE, "verdict": HOSTILE,
                  "summary": HOSTILE, "evidence": {HOSTILE: HOSTILE},
                  "derivation": HOSTILE}],
    "statement_latex": "$x$ " + HOSTILE,
    "summary_latex": "$y$ " + HOSTILE,
}


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_show_prints_no_terminal_control_from_a_report(fmt, tmp_path, capsys) -> None:
    path = tmp_path / "r.json"
    path.write_text(_report(HOSTILE_ENTRY), encoding="utf-8")
    assert main(["show", "x.y", "--report", str(path), "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert CONTROL.findall(out) == []
    if fmt == "json":
        assert json.loads(out) == HOSTILE_ENTRY  # the same data, escaped
    else:
        assert "\\x1b]0;owned" in out and "\\u202e" in out  # shown, not acted on


def test_list_prints_no_terminal_control_from_a_report(tmp_path, capsys) -> None:
    path = tmp_path / "r.json"
    path.write_text(_report({"id": "pcr.experts.param-count", "verdict": "proved" + HOSTILE}),
                    encoding="utf-8")
    assert main(["list", "pcr.experts.*", "--report", str(path)]) == 0
    out = capsys.readouterr().out
    assert CONTROL.findall(out) == []
    assert "proved\\x1b]0;owned" in out


def test_a_claim_id_with_escapes_is_shown_escaped(tmp_path, capsys) -> None:
    path = tmp_path / "r.json"
    cid = "x\x1b[2Jy"
    path.write_text(_report({"id": cid, "verdict": "proved"}), encoding="utf-8")
    assert main(["show", cid, "--report", str(path)]) == 0
    out = capsys.readouterr().out
    assert CONTROL.findall(out) == [] and "x\\x1b[2Jy" in out


def _strict(text: str) -> object:
    def refuse(name: str) -> None:
        raise ValueError(f"non-standard JSON literal {name}")

    return json.loads(text, parse_constant=refuse)


def test_show_json_is_standard_json_with_non_finite_numbers_as_strings(tmp_path,
                                                                        capsys) -> None:
    path = tmp_path / "r.json"
    path.write_text('{"claims": [{"id": "x", "alpha": NaN, "evidence": {"lo": -Infinity, '
                    '"hi": Infinity, "big": 1e999, "v": [NaN, 1.5]}}]}')
    assert main(["show", "x", "--report", str(path), "--format", "json"]) == 0
    data = _strict(capsys.readouterr().out)
    assert isinstance(data, dict)
    assert data["evidence"] == {"lo": "-inf", "hi": "inf", "big": "inf", "v": ["nan", 1.5]}
    # and the text and Markdown formats render the same file
    for fmt in ("text", "markdown"):
        assert main(["show", "x", "--report", str(path), "--format", fmt]) == 0
        assert "x" in capsys.readouterr().out


def test_an_error_message_is_one_line_whatever_the_path_holds(tmp_path, capsys) -> None:
    path = tmp_path / "no\nsuch\x1b[2J.json"
    assert main(["show", "x", "--report", str(path)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert CONTROL.findall(line) == [] and "no such file" in line


# ------------------------------------------------------- 9. closed standard streams

_PRINTING_CLAIMS = """
import sys
from moetheory import Outcome, Verdict, claim
from moetheory.engine.cli import main

def noisy(ctx):
    print("noise on stdout " * 50)
    print("noise on stderr " * 50, file=sys.stderr)
    return Outcome(Verdict.PROVED, "printed")

for i in range(3):
    claim(f"test.noisy{i}", reading="r", statement="s", seed_files=["t"],
          section="T")(noisy)
sys.exit(main(["verify", "--only", "test.noisy*", *sys.argv[1:]]))
"""


@pytest.mark.parametrize("closed", [
    pytest.param((1, 2), id="stdout-and-stderr", marks=pytest.mark.slow),
    pytest.param((1,), id="stdout", marks=pytest.mark.slow),
    pytest.param((2,), id="stderr", marks=pytest.mark.slow),
    pytest.param((0, 1, 2), id="all-three"),
])
def test_a_run_with_closed_standard_streams_checks_and_writes_every_claim(closed,
                                                                          tmp_path) -> None:
    j, m = tmp_path / "r.json", tmp_path / "r.md"

    def close() -> None:
        for fd in closed:
            os.close(fd)

    proc = subprocess.run(
        [sys.executable, "-c", _PRINTING_CLAIMS, "--json", str(j), "--markdown", str(m)],
        preexec_fn=close, timeout=120,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0
    report = json.loads(j.read_text())
    assert report["complete"] is True
    assert [e["verdict"] for e in report["claims"]] == ["proved"] * 3
    assert "noise" not in j.read_text() and "noise" not in m.read_text()
    assert m.read_text().count("— **proved**") == 3


# --------------------------------------------------------------------- 10. full disk


def _failing_writes(monkeypatch, name: str, times: int | None = None) -> list[str]:
    """Writes to files called ``name`` fail with ENOSPC (the first ``times`` ones, or all)."""
    real = report_module.write_atomic
    failed: list[str] = []

    def write(path, text):  # type: ignore[no-untyped-def]
        if Path(path).name == name and (times is None or len(failed) < times):
            failed.append(os.fspath(path))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, text)

    monkeypatch.setattr(report_module, "write_atomic", write)
    return failed


def test_a_full_disk_does_not_stop_the_run(temp_claims, tmp_path, capsys,
                                           monkeypatch) -> None:
    ran = tmp_path / "ran"
    for i in range(6):
        temp_claims(f"test.disk{i}", marker_check(ran))
    j, m = tmp_path / "r.json", tmp_path / "r.md"
    j.write_text(OLD_REPORT)
    failed = _failing_writes(monkeypatch, "r.json")
    rc = main(["verify", "--only", "test.disk*", "--no-progress", "--json", str(j),
               "--markdown", str(m)])
    assert rc == 1
    captured = capsys.readouterr()
    line = _one_line(captured.err)
    assert str(j) in line and "No space left" in line
    assert len(failed) >= 6  # tried again at every write
    assert sorted(ran.read_text().split()) == [f"test.disk{i}" for i in range(6)]
    md = m.read_text()
    assert md.count("— **proved**") == 6 and "incomplete" not in md
    assert "6 claims checked" in captured.out and f"wrote {m}" in captured.out
    assert f"wrote {j}" not in captured.out


def test_a_disk_that_frees_up_gets_the_report_at_the_next_write(temp_claims, tmp_path,
                                                                capsys, monkeypatch) -> None:
    for i in range(4):
        temp_claims(f"test.free{i}", _proved)
    j = tmp_path / "r.json"
    failed = _failing_writes(monkeypatch, "r.json", times=2)
    assert main(["verify", "--only", "test.free*", "--no-progress", "--json", str(j)]) == 0
    capsys.readouterr()
    assert len(failed) == 2
    report = json.loads(j.read_text())
    assert report["complete"] is True and len(report["claims"]) == 4


def test_a_full_device_is_one_line_and_the_other_report_is_written(temp_claims, tmp_path,
                                                                   capsys) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    for i in range(3):
        temp_claims(f"test.full{i}", _proved)
    m = tmp_path / "r.md"
    rc = main(["verify", "--only", "test.full*", "--no-progress", "--json", "/dev/full",
               "--markdown", str(m)])
    assert rc == 1
    assert "/dev/full" in _one_line(capsys.readouterr().err)
    assert m.read_text().count("— **proved**") == 3


# ---------------------------------------------------------- 11. report on stdout


@pytest.mark.parametrize("option", ["--json", pytest.param("--markdown", marks=pytest.mark.slow)])
def test_a_report_on_stdout_is_alone_there(option, tmp_path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _PRINTING_CLAIMS, "--no-progress", option, "/dev/stdout"],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr
    if option == "--json":
        report = json.loads(proc.stdout)
        assert [e["verdict"] for e in report["claims"]] == ["proved"] * 3
    else:
        assert proc.stdout.startswith("# moetheory verification report")
        assert proc.stdout.count("— **proved**") == 3
    assert "noise on stdout" not in proc.stdout and "claims checked" not in proc.stdout
    assert "3 claims checked" in proc.stderr and "wrote /dev/stdout" in proc.stderr
    assert "noise on stdout" in proc.stderr  # what the checks print goes to stderr


# ------------------------------------------------- 12. a second signal during the write


def test_a_second_sigint_during_the_final_write_loses_no_claim(temp_claims, tmp_path,
                                                               capsys, monkeypatch) -> None:
    temp_claims("test.i1", _proved)
    temp_claims("test.i2", _proved)
    engine = os.getpid()  # the check's parent is its supervisor, not the engine

    def interrupt(ctx: CheckContext) -> Outcome:  # the first SIGINT
        os.kill(engine, signal.SIGINT)
        time.sleep(300)
        return Outcome(Verdict.PROVED, "never")

    temp_claims("test.i3", interrupt)
    real = report_module.render_markdown
    sent: list[int] = []

    def render(report):  # type: ignore[no-untyped-def]
        if report["claims"] and not sent:  # the final write: the second SIGINT
            sent.append(1)
            os.kill(os.getpid(), signal.SIGINT)
        return real(report)

    monkeypatch.setattr(report_module, "render_markdown", render)
    j, m = tmp_path / "r.json", tmp_path / "r.md"
    rc = main(["verify", "--only", "test.i*", "--no-progress", "--json", str(j),
               "--markdown", str(m)])
    assert rc == 130 and sent
    capsys.readouterr()
    report = json.loads(j.read_text())
    assert [e["id"] for e in report["claims"]] == ["test.i1", "test.i2"]
    md = m.read_text()
    assert "`test.i1` — **proved**" in md and "`test.i2` — **proved**" in md
    assert "incomplete" in md


def test_a_signal_held_during_a_write_is_delivered_after_it(tmp_path) -> None:
    from moetheory.engine.report import deferred_signals

    caught: list[int] = []
    old = signal.signal(signal.SIGTERM, lambda n, f: caught.append(n))
    try:
        with deferred_signals():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            assert caught == []
        assert caught == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, old)


def _wait_until_blocked_opening_a_fifo(pid: int, limit: float = 120.0) -> None:
    """Wait until a thread of ``pid`` waits in ``open`` for a FIFO's reader (Linux's wchan
    ``wait_for_partner``), so that a signal sent next finds the run there however slowly it
    started on a loaded machine; where wchan cannot be read, wait 4 s as before."""
    tasks = Path(f"/proc/{pid}/task")
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if not tasks.exists():
            pytest.fail("the run ended before it opened the FIFO")
        try:
            if any((t / "wchan").read_text() == "wait_for_partner" for t in tasks.iterdir()):
                return
        except FileNotFoundError:
            pass  # a thread ended between the listing and the read
        except OSError:
            time.sleep(4)
            return
        time.sleep(0.05)
    pytest.fail("the run never blocked opening the FIFO")


def test_a_report_into_a_fifo_nobody_reads_can_still_be_stopped(tmp_path) -> None:
    """Deferring signals covers regular files only: a write that blocks stays interruptible."""
    fifo = tmp_path / "r.fifo"
    os.mkfifo(fifo)
    script = textwrap.dedent(f"""
        import sys
        from moetheory import Outcome, Verdict, claim
        from moetheory.engine.cli import main
        claim("test.f", reading="r", statement="s", seed_files=["t"],
              section="T")(lambda ctx: Outcome(Verdict.PROVED, "ok"))
        sys.exit(main(["verify", "--only", "test.f", "--no-progress", "--json", {str(fifo)!r}]))
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True)
    _wait_until_blocked_opening_a_fifo(proc.pid)
    for _ in range(2):
        proc.send_signal(signal.SIGINT)
        time.sleep(0.5)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the run blocked on a FIFO could not be stopped")
    assert proc.returncode == 130
    assert "Traceback" not in err


# ------------------------------------------------------------------------- 15. paths


def test_a_long_file_name_within_name_max_is_written(marker, tmp_path, capsys) -> None:
    j = tmp_path / ("r" * 245 + ".json")  # 250 bytes: its temporary sibling must fit too
    assert main(["verify", "--only", "test.marker", "--no-progress", "--json", str(j)]) == 0
    capsys.readouterr()
    assert json.loads(j.read_text())["complete"] is True
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(
    ("name", "problem"),
    [("r" * 300 + ".json", "file name is 305 bytes"),
     ("σ" * 200 + ".json", "file name is 405 bytes")],
    ids=["ascii", "utf-8"],
)
def test_a_file_name_past_name_max_is_exit_2_before_any_claim(name, problem, marker, tmp_path,
                                                              capsys) -> None:
    rc = main(["verify", "--only", "test.marker", "--no-progress", "--json",
               str(tmp_path / name)])
    assert rc == 2
    assert problem in _one_line(capsys.readouterr().err)
    assert not marker.exists()


def test_a_path_past_path_max_is_exit_2_before_any_claim(marker, tmp_path, capsys) -> None:
    deep = "/".join(["d" * 200] * 25)
    rc = main(["verify", "--only", "test.marker", "--no-progress", "--json",
               str(tmp_path / deep / "r.json")])
    assert rc == 2
    _one_line(capsys.readouterr().err)
    assert not marker.exists()


def test_a_bad_path_with_a_newline_is_one_line(marker, tmp_path, capsys) -> None:
    bad = tmp_path / "no\nsuch" / "dir\x1b[2J" / "r.json"
    rc = main(["verify", "--only", "test.marker", "--no-progress", "--json", str(bad)])
    assert rc == 2
    line = _one_line(capsys.readouterr().err)
    assert "does not exist" in line and "\\n" in line and CONTROL.findall(line) == []
    assert not marker.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root passes the permission bits of /proc")
def test_a_directory_the_file_system_refuses_is_exit_2_before_any_claim(marker,
                                                                         capsys) -> None:
    rc = main(["verify", "--only", "test.marker", "--no-progress", "--json",
               "/proc/moetheory-report.json"])
    assert rc == 2
    assert "/proc" in _one_line(capsys.readouterr().err)
    assert not marker.exists()


def test_the_probe_leaves_nothing_behind(marker, tmp_path, capsys) -> None:
    j = tmp_path / "r.json"
    assert main(["verify", "--only", "nothing.at.all*", "--json", str(j)]) == 2
    capsys.readouterr()
    assert list(tmp_path.iterdir()) == []


def test_writing_the_reports_in_a_thread_still_works(marker, tmp_path) -> None:
    """Signals are deferred in the main thread only; elsewhere writing is unchanged."""
    box: list[object] = []
    thread = threading.Thread(
        target=lambda: box.append(verify(["test.marker"], json_path=tmp_path / "r.json")))
    thread.start()
    thread.join(60)
    assert box and json.loads((tmp_path / "r.json").read_text())["complete"] is True
