"""Bad input, misbehaving checks and signals: every case ends cleanly.

Each case asserts the exit code (or the exception), a one-line message naming the
parameter and what it allows, that no completed work is lost or clobbered, and that no
process is left behind. The checks used here are tiny claims registered for the test.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from _processes import children, wait_gone, wait_group_gone
from _runs import OLD_REPORT

from moetheory import CheckContext, Outcome, Reading, Verdict, claim, verify
from moetheory.engine import registry
from moetheory.engine.cli import main
from moetheory.engine.registry import BUILTIN_FAMILY, get_claim, load_checks, unregister
from moetheory.engine.runner import (
    Interrupted,
    Limits,
    RunSettings,
    SignalGuard,
    claim_context,
    run_isolated,
)
from moetheory.stats import FAMILY_ALPHA

IS_ROOT = os.geteuid() == 0


# ------------------------------------------------------------------------ helpers


def _proved(ctx: CheckContext) -> Outcome:
    return Outcome(Verdict.PROVED, "trivially", {"x": 1})


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


@pytest.fixture(autouse=True)
def _no_leftover_children():  # type: ignore[no-untyped-def]
    yield
    assert wait_gone(children(), 5.0) == [], "a check process outlived the run"


# ----------------------------------------------------- command-line option parsing

BAD_OPTIONS = [
    (["verify", "--jobs", "0"], "--jobs"),
    (["verify", "--jobs", "-3"], "--jobs"),
    (["verify", "--jobs", "100000"], "--jobs"),
    (["verify", "--jobs", "two"], "--jobs"),
    (["verify", "--timeout", "-1"], "--timeout"),
    (["verify", "--timeout", "0"], "--timeout"),
    (["verify", "--timeout", "nan"], "--timeout"),
    (["verify", "--timeout", "soon"], "--timeout"),
    (["verify", "--wall-timeout", "0"], "--wall-timeout"),
    # beyond what the kernel's 63-bit limits hold: every claim ended `error`, "exit code 70"
    (["verify", "--timeout", "1e19"], "--timeout"),
    (["verify", "--timeout", "1e308"], "--timeout"),
    (["verify", "--wall-timeout", "1e300"], "--wall-timeout"),
    (["verify", "--memory-limit", "9999999T"], "--memory-limit"),
    (["verify", "--seed", "-1"], "--seed"),
    (["verify", "--seed", "x"], "--seed"),
    (["verify", "--seed", "1.5"], "--seed"),
    (["verify", "--profile", "huge"], "--profile"),
    (["verify", "--fail-on", "maybe"], "--fail-on"),
    (["verify", "--fail-on", ","], "--fail-on"),
    (["verify", "--memory-limit", "1K"], "--memory-limit"),
    (["verify", "--memory-limit", "lots"], "--memory-limit"),
    (["verify", "--progress", "--no-progress"], "--no-progress"),
    (["verify", "--frobnicate"], "--frobnicate"),
    (["reproduce", "no-such-figure"], "target"),
    (["reproduce", "rates", "--seed", "-2"], "--seed"),
    (["reproduce", "rates", "--replicates", "0"], "--replicates"),
    ([], "command"),
]


@pytest.mark.parametrize(("argv", "names"), BAD_OPTIONS, ids=lambda a: " ".join(a) or "none")
def test_bad_option_is_one_line_exit_2(argv, names, capsys, marker) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--only", "test.marker"] if argv[:1] == ["verify"] else argv)
    assert exc.value.code == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("moetheory") and "error:" in line and names in line
    assert not marker.exists()


# ------------------------------------------- command-line checks made before any work


def _verify_cli(*extra: str) -> list[str]:
    return ["verify", "--only", "test.marker", "--no-progress", *extra]


def test_pattern_matching_nothing_is_exit_2(capsys, marker, old_reports) -> None:
    j, m = old_reports
    rc = main(["verify", "--only", "nothing.here*", "--json", str(j), "--markdown", str(m)])
    assert rc == 2
    assert "match no claim" in _one_line(capsys.readouterr().err)
    assert not marker.exists()
    assert j.read_text() == OLD_REPORT and m.read_text() == OLD_REPORT


def _bad_paths(tmp: Path) -> dict[str, tuple[list[str], str]]:
    (tmp / "adir").mkdir()
    (tmp / "afile").write_text("x")
    ro = tmp / "readonly"
    ro.mkdir()
    ro.chmod(0o555)
    (tmp / "ro.json").write_text(OLD_REPORT)
    (tmp / "ro.json").chmod(0o444)
    os.symlink(tmp / "old.json", tmp / "link.json")
    return {
        "json-is-directory": (["--json", str(tmp / "adir")], "is a directory"),
        "markdown-is-directory": (["--markdown", str(tmp / "adir")], "is a directory"),
        "missing-parent": (["--json", str(tmp / "no" / "such" / "r.json")], "does not exist"),
        "parent-is-a-file": (["--json", str(tmp / "afile" / "r.json")], "not a directory"),
        "read-only-directory": (["--json", str(ro / "r.json")], "not writable"),
        "read-only-file": (["--json", str(tmp / "ro.json")], "cannot be written"),
        "same-path": (["--json", str(tmp / "old.md"), "--markdown", str(tmp / "old.md")],
                      "same file"),
        "same-file-through-link": (
            ["--json", str(tmp / "link.json"), "--markdown", str(tmp / "old.json")],
            "same file",
        ),
        "empty-path": (["--json", ""], "--json"),
    }


def _access_by_mode(path: object, mode: int) -> bool:
    bits = os.stat(path).st_mode  # type: ignore[arg-type]
    return not (mode & os.W_OK and not bits & 0o222)


BAD_PATH_CASES = [
    "json-is-directory", "markdown-is-directory", "missing-parent", "parent-is-a-file",
    "read-only-directory", "read-only-file", "same-path", "same-file-through-link",
    "empty-path",
]


@pytest.mark.parametrize("case", BAD_PATH_CASES)
def test_bad_output_path_is_exit_2_before_any_claim(case, capsys, marker, old_reports,
                                                    tmp_path, monkeypatch) -> None:
    argv, problem = _bad_paths(tmp_path)[case]
    if IS_ROOT and case.startswith("read-only"):
        # root may write anywhere: judge by the permission bits, as for any other user
        monkeypatch.setattr("moetheory.engine.report.os.access", _access_by_mode)
    rc = main(_verify_cli(*argv))
    assert rc == 2
    line = _one_line(capsys.readouterr().err)
    assert problem in line and ("--json" in line or "--markdown" in line)
    assert not marker.exists()
    j, m = old_reports
    assert j.read_text() == OLD_REPORT and m.read_text() == OLD_REPORT


def test_a_check_module_run_as_a_script_reports_bad_paths_in_one_line(tmp_path,
                                                                      capsys) -> None:
    from moetheory.engine.script import run_module_checks

    assert run_module_checks(["j91."], ["--only", "j91.grad.1.4", "--json", str(tmp_path)]) == 2
    out = capsys.readouterr()
    assert "is a directory" in _one_line(out.err)
    assert out.out == ""


def test_show_unknown_claim_is_exit_2(capsys) -> None:
    assert main(["show", "no.such.claim"]) == 2
    _one_line(capsys.readouterr().err)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "no such file"),
        ("DIR", "is a directory"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a moetheory report"),
        ('{"claims": [{"id": "other"}]}', "holds no claim"),
        (b"\xff\xfe\x00", "not UTF-8"),
    ],
    ids=["missing", "directory", "not-json", "not-a-report", "claim-missing", "binary"],
)
def test_show_report_errors_name_the_file(content, problem, capsys, tmp_path) -> None:
    path = tmp_path / "r.json"
    if content == "DIR":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    assert main(["show", "test.x", "--report", str(path)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert problem in line and str(path) in line


@pytest.mark.parametrize("case", ["a-file", "under-a-file", "read-only"])
def test_reproduce_out_errors_are_one_line_before_work(case, capsys, tmp_path) -> None:
    (tmp_path / "afile").write_text("x")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    if case == "read-only" and IS_ROOT:
        pytest.skip("root may write anywhere")
    out = {"a-file": tmp_path / "afile", "under-a-file": tmp_path / "afile" / "figs",
           "read-only": ro / "figs"}[case]
    assert main(["reproduce", "rates", "--out", str(out), "--no-progress"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "--out" in line and str(out) in line


def test_scheduler_that_cannot_be_reached_is_one_line(capsys, marker) -> None:
    pytest.importorskip("distributed")
    rc = main(_verify_cli("--scheduler", "tcp://127.0.0.1:1", "--timeout", "5"))
    assert rc == 2
    assert "scheduler" in _one_line(capsys.readouterr().err)
    assert not marker.exists()


def test_jobs_above_the_cpu_count_warns_in_one_line(capsys, marker) -> None:
    assert main(_verify_cli("--jobs", "256")) == 0
    err = capsys.readouterr().err
    assert "warning: --jobs 256 exceeds" in _one_line(err)


# ------------------------------------------------------------------- Python API


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"only": 3}, "only"),
        ({"only": [""]}, "only"),
        ({"only": ["test.marker", 7]}, "only"),
        ({"seed": True}, "seed"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": "3"}, "seed"),
        ({"jobs": True}, "jobs"),
        ({"jobs": 0}, "jobs"),
        ({"jobs": 10**6}, "jobs"),
        ({"jobs": 2.0}, "jobs"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": -float("inf")}, "timeout"),
        ({"timeout": float("nan")}, "timeout"),
        ({"timeout": "5"}, "timeout"),
        ({"timeout": True}, "timeout"),
        ({"profile": "fast"}, "profile"),
        ({"memory_limit": 10}, "memory_limit"),
        ({"memory_limit": True}, "memory_limit"),
        ({"wall_timeout": -1}, "wall_timeout"),
        ({"progress": "yes"}, "progress"),
        ({"scheduler": 5}, "scheduler"),
        ({"scheduler": " "}, "scheduler"),
    ],
    ids=lambda v: repr(v) if isinstance(v, dict) else v,
)
def test_api_rejects_bad_arguments_before_work(kwargs, name, marker) -> None:
    kwargs.setdefault("only", ["test.marker"])
    with pytest.raises(ValueError) as exc:
        verify(**kwargs)
    message = str(exc.value)
    assert "\n" not in message and message.startswith(name)
    assert not marker.exists()


@pytest.mark.parametrize("kind", ["directory", "same", "not-a-path"])
def test_api_rejects_bad_paths_naming_the_parameter(kind, marker, tmp_path) -> None:
    if kind == "directory":
        kwargs = {"json_path": tmp_path}
    elif kind == "not-a-path":
        kwargs = {"json_path": 42}
    else:
        kwargs = {"json_path": tmp_path / "r", "markdown_path": tmp_path / "r"}
    with pytest.raises(ValueError, match="json_path"):
        verify(["test.marker"], **kwargs)
    assert not marker.exists()


def test_api_string_only_is_one_pattern(marker) -> None:
    report = verify("test.marker")
    assert report["selection"] == ["test.marker"]
    assert [e["id"] for e in report["claims"]] == ["test.marker"]


def test_api_accepts_numpy_integers(marker) -> None:
    report = verify(["test.marker"], seed=np.int64(3), jobs=np.int32(1))
    assert report["seed"] == 3 and type(report["seed"]) is int
    assert json.dumps(report)  # no NumPy scalar leaks into the report


@pytest.mark.parametrize("kw", [{"timeout": 1e19}, {"wall_timeout": 1e300},
                                {"memory_limit": 2**63}], ids=["timeout", "wall", "memory"])
def test_api_rejects_limits_beyond_range(kw, marker) -> None:
    with pytest.raises(ValueError, match=next(iter(kw))):
        verify(["test.marker"], **kw)
    assert not marker.exists()


def test_a_limit_the_kernel_refuses_is_an_error_that_says_so() -> None:
    # Limits themselves are not range-checked (RunSettings is): a limit setrlimit refuses
    # makes the check `error` with the reason, and the check does not run unlimited
    def check(ctx):
        return Outcome(Verdict.PROVED, "ran")

    out = run_isolated(check, CheckContext("x", 1), Limits(1e19, 120.0))
    assert out["verdict"] == "error" and "limits could not be set" in out["summary"]


def test_api_infinite_timeout_means_no_limit(marker) -> None:
    report = verify(["test.marker"], timeout=float("inf"))
    assert report["claims"][0]["verdict"] == "proved"
    assert RunSettings(timeout=float("inf")).limits().wall_seconds is None


def test_api_jobs_above_the_cpu_count_warns(marker) -> None:
    with pytest.warns(RuntimeWarning, match="exceeds"):
        verify(["test.marker"], jobs=256)


# ------------------------------------------------------------------- registration


def _register(claim_id: str, **kw: object) -> None:
    kw.setdefault("reading", "r")
    kw.setdefault("statement", "s")
    kw.setdefault("seed_files", ["t"])
    kw.setdefault("section", "T")
    claim(claim_id, **kw)(_proved)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("claim_id", "kw", "hint"),
    [
        ("", {}, "non-empty"),
        ("test.star*", {}, "'test.star'"),
        ("test.two words", {}, "'test.two-words'"),
        ("test.[ab]", {}, "'test.-ab'"),
        ("test.q?", {}, "'test.q'"),
        ("test.files", {"seed_files": "abc.txt"}, "seed_files=['abc.txt']"),
        ("test.covers", {"covers": "003-1"}, "covers"),
    ],
    ids=["empty", "star", "space", "brackets", "question", "string-seed-files",
         "string-covers"],
)
def test_registration_rejects_bad_values_and_proposes_a_fix(claim_id, kw, hint) -> None:
    load_checks()
    before = {c.id for c in registry.registered()}
    with pytest.raises(ValueError) as exc:
        _register(claim_id, **kw)
    assert hint in str(exc.value)
    assert {c.id for c in registry.registered()} == before


def _plugin_module(tmp_path: Path, name: str, body: str) -> None:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(body))
    sys.path.insert(0, str(tmp_path))


def test_plugin_claiming_a_catalogued_id_is_an_error(tmp_path) -> None:
    load_checks()
    builtin = get_claim("pcr.pde.cosine")
    _plugin_module(tmp_path, "h14plugin_thief", """
        from moetheory import Outcome, Verdict, claim

        @claim("pcr.pde.cosine", reading="mine")
        def stolen(ctx):
            return Outcome(Verdict.PROVED, "stolen")
    """)
    try:
        with pytest.raises(ValueError, match="catalogued claim of moetheory"):
            importlib.import_module("h14plugin_thief")
    finally:
        sys.path.remove(str(tmp_path))
    assert get_claim("pcr.pde.cosine") is builtin


def test_reimporting_a_plugin_re_registers_its_own_checks(tmp_path) -> None:
    load_checks()
    _plugin_module(tmp_path, "h14plugin_reload", """
        from moetheory import Outcome, Verdict, claim

        @claim("h14plugin.one", reading="r", statement="s", seed_files=["t"], section="T")
        def one(ctx):
            return Outcome(Verdict.PROVED, "one")
    """)
    try:
        module = importlib.import_module("h14plugin_reload")
        first = get_claim("h14plugin.one").check
        importlib.reload(module)
        assert get_claim("h14plugin.one").check is not first
        assert get_claim("h14plugin.one").family == "h14plugin_reload"
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("h14plugin_reload", None)
        unregister("h14plugin.one")


def test_load_checks_is_all_or_nothing(tmp_path, monkeypatch) -> None:
    load_checks()
    _plugin_module(tmp_path, "h14plugin_good", """
        from moetheory import Outcome, Verdict, claim

        @claim("h14good.one", reading="r", statement="s", seed_files=["t"], section="T")
        def one(ctx):
            return Outcome(Verdict.PROVED, "one")
    """)
    (tmp_path / "h14plugin_bad.py").write_text("raise RuntimeError('broken plugin')\n")
    monkeypatch.setattr(registry, "_loaded", False)
    before = {c.id: c for c in registry.registered()}
    try:
        for _ in range(2):  # the second call raises again, it never reports "loaded"
            with pytest.raises(ImportError, match="broken plugin"):
                load_checks(["h14plugin_good", "h14plugin_bad"])
            assert {c.id: c for c in registry.registered()} == before
            assert registry._loaded is False
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("h14plugin_good", None)


def test_alpha_does_not_depend_on_plugins_or_selection(temp_claims, marker) -> None:
    load_checks()
    stat = [c for c in registry.registered() if c.kind == "statistical"
            and c.family == BUILTIN_FAMILY]
    if not stat:
        pytest.skip("no built-in statistical claim")
    settings = RunSettings()
    alpha = claim_context(stat[0].id, settings).alpha
    assert alpha == pytest.approx(FAMILY_ALPHA / len(stat))
    temp_claims("test.stat1", _proved, kind="statistical")
    temp_claims("test.stat2", _proved, kind="statistical")
    assert claim_context(stat[0].id, settings).alpha == alpha
    assert claim_context("test.stat1", settings).alpha == pytest.approx(FAMILY_ALPHA / 2)
    report = verify(["test.stat1"])
    assert report["claims"][0]["alpha"] == pytest.approx(FAMILY_ALPHA / 2)


# -------------------------------------------------------------- misbehaving checks


def _malformed(**fields: object):  # type: ignore[no-untyped-def]
    def check(ctx: CheckContext) -> Outcome:
        outcome = Outcome(Verdict.PROVED, "looks fine")
        for key, value in fields.items():
            setattr(outcome, key, value)
        return outcome

    return check


def _bad_reading(ctx: CheckContext) -> Outcome:
    return Outcome.from_readings([Reading("r", "r", Verdict.PROVED, "s", [1, 2])])  # type: ignore[arg-type]


def _returns_none(ctx: CheckContext) -> Outcome:
    return None  # type: ignore[return-value]


def _exits(ctx: CheckContext) -> Outcome:
    sys.exit(4)


def _dies(ctx: CheckContext) -> Outcome:
    os._exit(3)


def _exits_quietly(ctx: CheckContext) -> Outcome:
    os._exit(0)


def _unserialisable(ctx: CheckContext) -> Outcome:
    return Outcome(Verdict.PROVED, "ok", {"x": object()})


def _big(ctx: CheckContext) -> Outcome:
    print("x" * 100_000)
    return Outcome(Verdict.PROVED, "big", {"values": list(range(50_000))})


MISBEHAVING = {
    "test.m-evidence-list": (_malformed(evidence=[1, 2]), "evidence"),
    "test.m-evidence-str": (_malformed(evidence="all good"), "evidence"),
    "test.m-derivation-num": (_malformed(derivation=3.5), "derivation"),
    "test.m-summary-none": (_malformed(summary=None), "summary"),
    "test.m-verdict-bad": (_malformed(verdict="maybe"), "verdict"),
    "test.m-readings-dict": (_malformed(readings={"a": 1}), "readings"),
    "test.m-latex-list": (_malformed(summary_latex=["$x$"]), "summary_latex"),
    "test.m-reading-evidence": (_bad_reading, "readings[0].evidence"),
    "test.m-none": (_returns_none, "NoneType"),
    "test.m-exit": (_exits, "SystemExit"),
    "test.m-die": (_dies, "exit code 3"),
    "test.m-exit0": (_exits_quietly, "without reporting a result"),
    "test.m-object": (_unserialisable, "not JSON-serialisable"),
}


def test_misbehaving_checks_are_errors_with_the_reason_and_every_renderer_copes(
    temp_claims, tmp_path, capsys
) -> None:
    for cid, (check, _) in MISBEHAVING.items():
        temp_claims(cid, check)
    temp_claims("test.m-big", _big)
    j, m = tmp_path / "r.json", tmp_path / "r.md"
    assert main(["verify", "--only", "test.m-*", "--jobs", "2", "--no-progress",
                 "--json", str(j), "--markdown", str(m)]) == 1
    report = json.loads(j.read_text())
    assert report["complete"] is True
    by_id = {e["id"]: e for e in report["claims"]}
    for cid, (_, reason) in MISBEHAVING.items():
        assert by_id[cid]["verdict"] == "error", cid
        assert reason in by_id[cid]["summary"], (cid, by_id[cid]["summary"])
    assert by_id["test.m-big"]["verdict"] == "proved"
    assert len(by_id["test.m-big"]["evidence"]["values"]) == 50_000
    md = m.read_text()
    for cid in by_id:
        assert f"`{cid}` — **" in md
    capsys.readouterr()
    for cid in by_id:
        assert main(["show", cid, "--report", str(j)]) == 0
        assert capsys.readouterr().out.startswith(f"{cid} — ")


MALFORMED_ENTRIES = [
    {"id": "x.y", "evidence": [1, "a"], "readings": [3, {"name": 5}], "derivation": 7,
     "alpha": "high", "seed_files": "abc", "verdict": None},
    {"id": "x.y"},
    {"id": "x.y", "statement": ["a"], "summary": {"b": 1}, "reading": None, "evidence": "e",
     "readings": {"r": 1}, "sources": [{"seed_file": 3}, "s", {"seed_file": "f", "lines": 2}],
     "claim_seed": [1], "kind": 5},
    {"id": "x.y", "evidence": {"f": {"sympy": 1, "latex": None}, "n": {"deep": [{"a": 1}]}},
     "readings": [{"name": "r", "verdict": "proved", "summary": "s",
                   "evidence": ["not", "a", "map"], "derivation": ["d"]}],
     "statement_latex": 3, "summary_latex": ["s"], "alpha": True},
]


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
@pytest.mark.parametrize("entry", MALFORMED_ENTRIES, ids=range(len(MALFORMED_ENTRIES)))
def test_show_renders_any_entry_of_a_report(entry, fmt, tmp_path, capsys) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"claims": [entry]}))
    assert main(["show", "x.y", "--report", str(path), "--format", fmt]) == 0
    assert "x.y" in capsys.readouterr().out


def test_a_well_formed_entry_is_shown_unchanged(temp_claims) -> None:
    from moetheory.engine.cli import displayable_entry

    def readings(ctx: CheckContext) -> Outcome:
        return Outcome.from_readings(
            [Reading("a", "r", Verdict.PROVED, "s", {"f": {"sympy": "x", "latex": "x"}})]
        )

    temp_claims("test.readings", readings)
    entry = verify(["test.readings"])["claims"][0]
    assert displayable_entry(entry) == entry


def _spawn_and_return(pids: Path):  # type: ignore[no-untyped-def]
    def check(ctx: CheckContext) -> Outcome:
        child = subprocess.Popen(["sleep", "300"])
        pids.write_text(json.dumps([child.pid, os.getpgid(0)]))
        return Outcome(Verdict.PROVED, "left a subprocess running")

    return check


def _spawn_and_spin(pids: Path):  # type: ignore[no-untyped-def]
    def check(ctx: CheckContext) -> Outcome:
        child = subprocess.Popen(["sleep", "300"])
        pids.write_text(json.dumps([child.pid, os.getpgid(0)]))
        while True:
            pass

    return check


@pytest.mark.parametrize("how", ["returns", "times-out"])
def test_a_checks_subprocesses_never_outlive_it(how, temp_claims, tmp_path) -> None:
    pids = tmp_path / "pids"
    make = _spawn_and_return if how == "returns" else _spawn_and_spin
    temp_claims("test.spawner", make(pids))
    report = verify(["test.spawner"], timeout=1.0)
    verdict = report["claims"][0]["verdict"]
    assert verdict == ("proved" if how == "returns" else "inconclusive")
    grandchild, pgid = json.loads(pids.read_text())
    assert pgid != os.getpgid(0), "the check did not run in its own process group"
    assert wait_gone([grandchild]) == []
    assert wait_group_gone(pgid) == []


def _hog(ctx: CheckContext) -> Outcome:
    blocks = [np.empty(2**27 // 8) for _ in range(64)]  # 8 GiB of address space
    return Outcome(Verdict.PROVED, f"{len(blocks)} blocks")


def test_memory_limit_stops_a_check_that_allocates_too_much(temp_claims, capsys,
                                                           tmp_path) -> None:
    temp_claims("test.hog", _hog)
    temp_claims("test.ok", _proved)
    path = tmp_path / "r.json"
    assert main(["verify", "--only", "test.*", "--memory-limit", "6G", "--no-progress",
                 "--json", str(path)]) == 1
    capsys.readouterr()
    report = json.loads(path.read_text())
    by_id = {e["id"]: e for e in report["claims"]}
    assert by_id["test.hog"]["verdict"] == "error"
    assert by_id["test.hog"]["evidence"]["reason"] == "memory limit exceeded"
    assert by_id["test.ok"]["verdict"] == "proved"


def _sleep_briefly(ctx: CheckContext) -> Outcome:
    time.sleep(3)
    return Outcome(Verdict.PROVED, "slept")


def test_the_time_limit_counts_cpu_time_not_waiting(temp_claims) -> None:
    # A loaded machine stretches wall time, not CPU time: a check that waits 3 s with a
    # 1 s limit is not stopped, so two runs time out the same claims whatever the load.
    temp_claims("test.waits", _sleep_briefly)
    report = verify(["test.waits"], timeout=1.0)
    assert report["claims"][0]["verdict"] == "proved"


# ------------------------------------------------------------------ report writing


def _private_device(path: Path, minor: int) -> Path:
    """A character device of the memory driver (3: null, 7: full) made at ``path``.

    Tests never write to the system's ``/dev`` nodes: an implementation that replaces
    what it writes would clobber them for the whole machine.
    """
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        with open(path, "w") as fh:
            fh.write("")
    except OSError:
        pytest.skip("cannot make a character device here")
    return path


def test_a_report_that_cannot_be_written_is_one_line_exit_1(marker, tmp_path, capsys) -> None:
    md, full = tmp_path / "r.md", _private_device(tmp_path / "full", 7)
    rc = main(["verify", "--only", "test.marker", "--no-progress", "--json", str(full),
               "--markdown", str(md)])
    assert rc == 1
    line = _one_line(capsys.readouterr().err)
    assert str(full) in line and "No space left" in line
    assert "complete" in md.read_text() and "incomplete" not in md.read_text()


def test_report_is_written_through_a_symlink(marker, tmp_path) -> None:
    target = tmp_path / "target.json"
    target.write_text(OLD_REPORT)
    link = tmp_path / "link.json"
    os.symlink(target, link)
    verify(["test.marker"], json_path=link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text())["complete"] is True


def test_report_is_written_into_a_fifo_in_place(marker, tmp_path) -> None:
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as fh:
            received.append(fh.read())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    verify(["test.marker"], json_path=fifo)
    thread.join(30)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert json.loads(received[0])["complete"] is True  # the final report, once


def test_report_to_a_character_device_keeps_the_device(marker, tmp_path) -> None:
    device = _private_device(tmp_path / "null", 3)
    verify(["test.marker"], json_path=device)
    assert stat.S_ISCHR(os.stat(device).st_mode)


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_an_existing_report_keeps_its_mode(mode, marker, tmp_path) -> None:
    path = tmp_path / "r.json"
    path.write_text(OLD_REPORT)
    path.chmod(mode)
    verify(["test.marker"], json_path=path)
    assert stat.S_IMODE(os.stat(path).st_mode) == mode


def test_a_new_report_gets_the_umask_mode(marker, tmp_path) -> None:
    old = os.umask(0o027)
    try:
        verify(["test.marker"], json_path=tmp_path / "r.json", markdown_path=tmp_path / "r.md")
    finally:
        os.umask(old)
    for name in ("r.json", "r.md"):
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o640


def test_the_report_of_an_earlier_run_is_replaced_at_the_start(temp_claims, tmp_path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"complete": True, "selection": ["other"], "claims": [1]}))
    seen = tmp_path / "seen"

    def look(ctx: CheckContext) -> Outcome:
        seen.write_text(path.read_text())
        return Outcome(Verdict.PROVED, "looked")

    temp_claims("test.look", look)
    verify(["test.look"], json_path=path)
    during = json.loads(seen.read_text())
    assert during["complete"] is False
    assert during["selection"] == ["test.look"] and during["claims"] == []


# ------------------------------------------------------------------------- signals


_ENGINE = os.getpid()  # the engine of the runs here (a check's parent is its supervisor)


def _signal_parent(signum: int):  # type: ignore[no-untyped-def]
    def check(ctx: CheckContext) -> Outcome:
        os.kill(_ENGINE, signum)
        time.sleep(300)
        return Outcome(Verdict.PROVED, "never")

    return check


def _pid_then_sleep(pids: Path):  # type: ignore[no-untyped-def]
    def check(ctx: CheckContext) -> Outcome:
        child = subprocess.Popen(["sleep", "300"])
        pids.write_text(json.dumps([os.getpid(), child.pid, os.getpgid(0)]))
        time.sleep(300)
        return Outcome(Verdict.PROVED, "never")

    return check


@pytest.mark.parametrize(
    ("signum", "code"),
    [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)],
    ids=["SIGINT", "SIGTERM", "SIGHUP"],
)
def test_a_stop_signal_kills_the_checks_and_writes_both_reports(
    signum, code, temp_claims, tmp_path, capsys
) -> None:
    pids = tmp_path / "pids"
    temp_claims("test.s1-fast", _proved)
    temp_claims("test.s2-sleeper", _pid_then_sleep(pids))

    j, m = tmp_path / "r.json", tmp_path / "r.md"

    def stopper(ctx: CheckContext) -> Outcome:
        deadline = time.time() + 60
        while time.time() < deadline and not (
            pids.exists() and "test.s1-fast" in j.read_text()
        ):
            time.sleep(0.05)
        return _signal_parent(signum)(ctx)

    temp_claims("test.s3-stopper", stopper)
    rc = main(["verify", "--only", "test.s*", "--jobs", "2", "--no-progress",
               "--json", str(j), "--markdown", str(m)])
    assert rc == code
    err = capsys.readouterr().err
    line = _one_line("\n".join(x for x in err.splitlines() if "warning: --jobs" not in x))
    assert signal.Signals(signum).name in line and str(j) in line
    report = json.loads(j.read_text())
    assert report["complete"] is False
    assert [e["id"] for e in report["claims"]] == ["test.s1-fast"]
    assert "incomplete" in m.read_text()
    check_pid, grandchild, pgid = json.loads(pids.read_text())
    assert wait_gone([check_pid, grandchild]) == []
    assert wait_group_gone(pgid) == []


def test_an_early_interrupt_leaves_no_stale_complete_report(temp_claims, tmp_path,
                                                            capsys) -> None:
    j = tmp_path / "r.json"
    j.write_text(json.dumps({"complete": True, "selection": ["x"], "claims": [{"id": "x"}]}))
    temp_claims("test.stop-at-once", _signal_parent(signal.SIGINT))
    assert main(["verify", "--only", "test.stop-at-once", "--no-progress",
                 "--json", str(j)]) == 130
    capsys.readouterr()
    report = json.loads(j.read_text())
    assert report["complete"] is False and report["claims"] == []
    assert report["selection"] == ["test.stop-at-once"]


def test_an_interrupt_while_loading_replaces_the_earlier_report(tmp_path, capsys,
                                                                 monkeypatch) -> None:
    j = tmp_path / "r.json"
    j.write_text(json.dumps({"complete": True, "selection": ["x"], "claims": [{"id": "x"}]}))

    def interrupted_load() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("moetheory.engine.cli.load_checks", interrupted_load)
    assert main(["verify", "--only", "cl.*", "--no-progress", "--json", str(j)]) == 130
    assert "holds the claims already checked" in _one_line(capsys.readouterr().err)
    report = json.loads(j.read_text())
    assert report["complete"] is False and report["claims"] == []
    assert report["selection"] == ["cl.*"]


def test_a_second_signal_stops_at_once() -> None:
    with SignalGuard() as guard:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.2)
        assert guard.signum == signal.SIGTERM  # the first one only raises a flag
        with pytest.raises(Interrupted) as exc:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
    assert exc.value.exit_code == 143


def test_kill_9_of_the_parent_kills_every_check_group(tmp_path) -> None:
    pids = tmp_path / "pids"
    script = textwrap.dedent(
        f"""
        import json, os, subprocess, sys, time
        from moetheory import Outcome, Verdict, claim
        from moetheory.engine.cli import main

        @claim("test.orphan", reading="r", statement="s", seed_files=["t"], section="T")
        def orphan(ctx):
            child = subprocess.Popen(["sleep", "300"])
            with open({str(pids)!r} + ".tmp", "w") as fh:
                json.dump([os.getpid(), child.pid, os.getpgid(0)], fh)
            os.rename({str(pids)!r} + ".tmp", {str(pids)!r})
            while True:
                pass

        sys.exit(main(["verify", "--only", "test.orphan", "--no-progress"]))
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while not pids.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.1)
    assert pids.exists(), "the check never started"
    proc.kill()
    proc.wait()
    check_pid, grandchild, pgid = json.loads(pids.read_text())
    assert wait_gone([check_pid, grandchild], 20) == []
    assert wait_group_gone(pgid) == []


# ------------------------------------------------------------------------- warnings


def test_progress_bar_is_hidden_when_stderr_is_not_a_terminal(marker, capsys) -> None:
    assert main(["verify", "--only", "test.marker"]) == 0
    assert "\r" not in capsys.readouterr().err
    assert main(["verify", "--only", "test.marker", "--progress"]) == 0
    assert "claim" in capsys.readouterr().err
