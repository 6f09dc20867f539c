"""Fuzzing the command line: its argument grammar, and the reports it reads (issue 30).

Hypothesis draws command lines from the grammar of ``moetheory`` (valid values, values out
of range and junk text with control characters) and report files of every shape, type, size
and nesting. Whatever it draws: the exit code is 0, 1 or 2; an error is one line with no
traceback; nothing printed holds a terminal control; no process is left behind; and no file
changes that the command line did not name as a report. The runs stay small: the claims are
two trivial ones registered for the test, ``reproduce`` is replaced by a stub, and a few
cases run the real program in a subprocess.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _processes import children, descriptor_targets
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from moetheory import CheckContext, Outcome, Verdict
from moetheory.engine import cli

CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
ERROR = re.compile(r"^moetheory( \w+)?: error: ")

FUZZ = settings(max_examples=50, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

#: Text that acts on a terminal or breaks a line, mixed into the junk.
HOSTILE = ["\x1b]0;owned\x07", "\x1b[2J", "\r", "\n", "\x9b31m", "\u202e", "\x7f", "\x00",
           "\u2028", "\t"]


def _mostly(valid: st.SearchStrategy[Any], junk: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``valid`` three times in four, so that most command lines get past the parser."""
    return st.one_of(valid, valid, valid, junk)


def _junk(max_size: int = 12) -> st.SearchStrategy[str]:
    chars = st.characters(blacklist_categories=("Cs",), max_codepoint=0x2070)
    return st.lists(st.one_of(st.text(chars, max_size=4), st.sampled_from(HOSTILE)),
                    max_size=max_size // 2).map("".join)


def _safe_name(text: str) -> str:
    """Junk as one file name: no separator, never ``..``, not empty."""
    name = text.replace("/", "_").replace("\x00", "_")
    return "f" + name if name in ("", ".", "..") or name.startswith(".") else name


# ---------------------------------------------------------------- the surroundings


def _proved(ctx: CheckContext) -> Outcome:
    return Outcome(Verdict.PROVED, "ok " + "\x1b[2J", {"x": 1.5, "y": "\u202e"})


def _nan(ctx: CheckContext) -> Outcome:
    return Outcome(Verdict.SUPPORTED, "nan inside", {"v": float("nan"), "w": -math.inf})


@pytest.fixture
def fuzz_claims(temp_claims) -> None:  # type: ignore[no-untyped-def]
    temp_claims("test.fuzz.a", _proved)
    temp_claims("test.fuzz.b", _nan)


@pytest.fixture
def no_reproduce(monkeypatch) -> list[tuple[Any, ...]]:  # type: ignore[no-untyped-def]
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(cli, "reproduce", lambda *a, **k: calls.append((a, k)) or [])
    monkeypatch.setenv("MOETHEORY_SCHEDULER_TIMEOUT", "1")
    return calls


def _snapshot(root: Path) -> dict[str, bytes | None]:
    out: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        out[rel] = path.read_bytes() if path.is_file() and not path.is_symlink() else None
    return out


def _no_children_left() -> None:
    deadline = time.time() + 5
    while children() and time.time() < deadline:
        time.sleep(0.02)
    assert children() == [], "a process outlived the command"


@contextlib.contextmanager
def _workspace() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "old.json").write_text('{"old": 1}\n')
        (root / "old.md").write_text("# old\n")
        (root / "adir").mkdir()
        yield root


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:  # argparse: --help, --version, usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def _check_streams(code: int, out: str, err: str, progress: bool) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err and "Traceback" not in out
    assert CONTROL.findall(out) == [], out
    if not progress:
        assert CONTROL.findall(err) == [], err
    if code == 2:
        lines = [x for x in err.splitlines() if "warning:" not in x and x.strip()]
        assert len(lines) == 1 and ERROR.match(lines[0]), err


# -------------------------------------------------------------- the argument grammar

SEEDS = _mostly(st.integers(-3, 10**20).map(str), _junk())
SECONDS = _mostly(st.sampled_from(["0.5", "inf", "-inf", "nan", "0", "1e19", "1e-300", "5"]),
                  _junk())
SIZES = _mostly(st.sampled_from(["64M", "4G", "1K", "9999999T", "1.5GiB", "-1G"]), _junk())
PATTERNS = _mostly(st.sampled_from(["test.fuzz.*", "test.fuzz.a", "test.fuzz.[ab]"]),
                   _junk().map(lambda t: "zz" + re.sub(r"[*?\[\]]", "", t)))
SCHEDULERS = st.one_of(
    st.sampled_from(["garbage", "tcp://127.0.0.1", "tcp://127.0.0.1:1", "tls://127.0.0.1:1",
                     "udp://127.0.0.1:1", "tcp://127.0.0.1:99999", "", "tcp://[::1]:1"]),
    _junk().map(lambda t: "!" + t),
)
PATH_KINDS = _mostly(
    st.sampled_from(["new.json", "new.md", "old.json", "old.md", "r" * 250 + ".json",
                     "bad\nname.json"]),
    st.one_of(st.sampled_from(["adir", "no/such/r.json", "r" * 300 + ".json",
                               "no\nsuch/r.json", "no\x1b[2J/r.json", ""]),
              _junk().map(_safe_name)),
)


def _path(root: Path, kind: str) -> str:
    return "" if kind == "" else str(root / kind)


@st.composite
def _run_options(draw: st.DrawFn) -> list[str]:
    argv: list[str] = []
    for option, values in (("--profile", _mostly(st.sampled_from(["quick", "full"]),
                                                 _junk())),
                           ("--seed", SEEDS), ("--timeout", SECONDS),
                           ("--wall-timeout", SECONDS), ("--memory-limit", SIZES)):
        if draw(st.booleans()) and draw(st.booleans()):
            argv += [option, draw(values)]
    return argv


@st.composite
def command_lines(draw: st.DrawFn, root: Path) -> list[str]:
    """A command line of ``moetheory``: mostly well formed, with junk in its values."""
    command = draw(st.sampled_from(["list", "show", "verify", "run", "reproduce", "top"]))
    if command == "top":
        return draw(st.sampled_from([[], ["--version"], ["--frobnicate"], ["nonsense"],
                                     ["--help"], ["list", "--frob\nnicate"]]))
    if command == "run":  # a well-formed run that writes its reports
        names = st.sampled_from(["new.json", "old.json", "old.md", "r" * 250 + ".md",
                                 "bad\nname.json", "σ\u202e.json"])
        argv = ["verify", "--only", draw(st.sampled_from(["test.fuzz.*", "test.fuzz.b"])),
                "--no-progress", "--seed", str(draw(st.integers(0, 2**64)))]
        json_name, md_name = draw(names), draw(names)
        if draw(st.booleans()):
            argv += ["--json", str(root / json_name)]
        if md_name != json_name and draw(st.booleans()):
            argv += ["--markdown", str(root / md_name)]
        if draw(st.booleans()):
            argv += ["--jobs", "2", "--fail-on", "refuted,supported"]
        return argv
    argv = [command]
    if command == "list":
        argv += draw(st.lists(PATTERNS, max_size=2))
        if draw(st.booleans()):
            argv.append("--json")
        if draw(st.booleans()):
            argv += ["--report", _path(root, draw(PATH_KINDS))]
    elif command == "show":
        argv.append(draw(st.one_of(st.sampled_from(["test.fuzz.a", "test.fuzz.b", "no.such"]),
                                   _junk().map(lambda t: "zz" + t))))
        if draw(st.booleans()):
            argv += ["--report", _path(root, draw(PATH_KINDS))]
        if draw(st.booleans()):
            argv += ["--format", draw(_mostly(st.sampled_from(["text", "markdown", "json"]),
                                              _junk()))]
        argv += draw(_run_options())
    elif command == "verify":
        argv += ["--only", draw(PATTERNS)]  # never the whole catalogue
        argv += [x for p in draw(st.lists(PATTERNS, max_size=2)) for x in ("--only", p)]
        argv += draw(_run_options())
        for option, values in (
            ("--jobs", _mostly(st.integers(-1, 3).map(str), _junk())),
            ("--json", PATH_KINDS.map(lambda k: _path(root, k))),
            ("--markdown", PATH_KINDS.map(lambda k: _path(root, k))),
            ("--fail-on", _mostly(st.sampled_from(["refuted", "error,proved", ","]),
                                  _junk())),
            ("--scheduler", SCHEDULERS),
        ):
            if draw(st.booleans()):
                argv += [option, draw(values)]
        argv += draw(st.sampled_from([[], ["--no-progress"], ["--progress"],
                                      ["--progress", "--no-progress"]]))
    else:
        argv.append(draw(_mostly(st.sampled_from(["rates", "cl-fig2", "cl-fig4-5"]),
                                 _junk())))
        if draw(st.booleans()):
            argv += ["--out", _path(root, draw(PATH_KINDS))]
        if draw(st.booleans()):
            argv += ["--scheduler", draw(SCHEDULERS)]
        if draw(st.booleans()):
            argv += ["--seed", draw(SEEDS)]
    return argv


def _named_outputs(argv: list[str]) -> set[str]:
    named = set()
    for i, arg in enumerate(argv[:-1]):
        if arg in ("--json", "--markdown", "--out"):
            named.add(argv[i + 1])
    return named


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_any_command_line_ends_cleanly(data, fuzz_claims, no_reproduce) -> None:
    with _workspace() as root:
        argv = data.draw(command_lines(root))
        before = _snapshot(root)
        code, out, err = _run(argv)
        event(f"{argv[0] if argv else 'none'}: exit {code}")
        _check_streams(code, out, err, progress="--progress" in argv)
        after = _snapshot(root)
        named = {os.path.relpath(p, root) for p in _named_outputs(argv) if p}
        if code == 2:
            assert after == before, "a command line refused in usage changed a file"
        for rel, content in before.items():
            if not any(rel == n or rel.startswith(n + os.sep) for n in named):
                assert after.get(rel, b"gone") == content, rel
        for rel in set(after) - set(before):
            assert any(rel == n or rel.startswith(n + os.sep) or n.startswith(rel + os.sep)
                       for n in named), f"{rel} appeared, named by nothing"
        if code == 0 and argv[0] == "verify":
            for option in ("--json",):
                if option in argv:
                    path = argv[argv.index(option) + 1]
                    assert json.loads(Path(path).read_text(), parse_constant=_refuse)
    _no_children_left()


# ------------------------------------------------------------------ reports as input


def _refuse(name: str) -> None:
    raise AssertionError(f"non-standard JSON literal {name}")


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                    st.floats(allow_nan=True, allow_infinity=True), _junk(20))
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(_junk(8), inner, max_size=4)),
    max_leaves=20,
)
FIELDS = ("statement", "reading", "verdict", "summary", "evidence", "readings", "derivation",
          "kind", "alpha", "sources", "seed_files", "seed_file", "claim_seed",
          "statement_latex", "summary_latex", "section", "origin")


@st.composite
def entries(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 19)) == 0:
        return draw(JSON_VALUES)  # not an object at all
    entry: dict[str, Any] = {}
    if draw(st.integers(0, 19)):
        entry["id"] = draw(st.sampled_from(["fuzz.x", "fuzz.x", "pcr.experts.param-count"]))
    elif draw(st.booleans()):
        entry["id"] = draw(JSON_VALUES)
    for key in draw(st.lists(st.sampled_from(FIELDS), max_size=6, unique=True)):
        entry[key] = draw(JSON_VALUES)
    if draw(st.booleans()):
        entry["readings"] = [
            {k: draw(JSON_VALUES) for k in draw(st.lists(st.sampled_from(
                ["name", "reading", "verdict", "summary", "evidence", "derivation"]),
                max_size=4, unique=True))}
            for _ in range(draw(st.integers(0, 2)))
        ]
    return entry


@st.composite
def report_files(draw: st.DrawFn) -> bytes:
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return draw(st.binary(max_size=64))
    if kind == 1:
        return draw(_junk(40)).encode("utf-8", "surrogatepass")
    if kind == 2:
        depth = draw(st.one_of(st.integers(1, 80), st.integers(1, 300_000)))
        return ('{"claims": [{"id": "fuzz.x", "evidence": ' + "[" * depth + "]" * depth
                + "}]}").encode()
    report: Any = {"claims": [{"id": "fuzz.x"} if draw(st.booleans()) else draw(entries()),
                              *draw(st.lists(entries(), max_size=2))]}
    if draw(st.booleans()):
        report["schema"] = draw(st.one_of(st.just("moetheory-report/1"), JSON_VALUES))
    if kind == 3:
        report = draw(JSON_VALUES)
    text = json.dumps(report, ensure_ascii=draw(st.booleans()), allow_nan=True)
    if kind == 4 and text:
        cut = draw(st.integers(0, len(text)))
        text = text[:cut]  # a truncated file
    return text.encode("utf-8", "surrogatepass")


@FUZZ
@given(content=report_files(),
       command=st.sampled_from([["show", "fuzz.x", "--format", "text"],
                                ["show", "fuzz.x", "--format", "markdown"],
                                ["show", "fuzz.x", "--format", "json"],
                                ["list", "pcr.experts.*"]]))
def test_any_report_file_is_shown_or_refused_in_one_line(content, command) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "r.json")
        path.write_bytes(content)
        code, out, err = _run([*command, "--report", str(path)])
        event(f"{command[0]}: exit {code}")
        assert code in (0, 2), (code, err)
        _check_streams(code, out, err, progress=False)
        if code == 2:
            assert "--report" in err
        elif "json" in command:
            json.loads(out, parse_constant=_refuse)
        assert path.read_bytes() == content
    _no_children_left()


# -------------------------------------------------------- the real program, a few times

SUBPROCESS_CASES = [
    ["verify", "--only", "zz\x1b]0;owned\x07*", "--no-progress"],
    ["show", "x\ny", "--report", "/dev/zero"],
    ["show", "x", "--report", "/etc"],
    ["list", "--frob\nnicate"],
    ["verify", "--only", "test.none", "--json", "/nonexistent\n/r.json"],
    ["verify", "--only", "zz", "--scheduler", "tcp://127.0.0.1"],
    ["reproduce", "rates", "--scheduler", "garbage\x1b[2J", "--out", "/nonexistent/x"],
]


def _bounded() -> None:
    """A child that regresses (reads ``/dev/zero`` whole) fails fast instead of taking
    the machine's memory."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


@pytest.mark.parametrize("argv", SUBPROCESS_CASES, ids=range(len(SUBPROCESS_CASES)))
def test_hostile_command_lines_in_a_real_process(argv, tmp_path) -> None:
    before = _snapshot(tmp_path)
    source = str(Path(cli.__file__).resolve().parents[2])  # this checkout, from any folder
    path = os.pathsep.join([source, *filter(None, [os.environ.get("PYTHONPATH")])])
    proc = subprocess.run([sys.executable, "-m", "moetheory", *argv], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL,
                          preexec_fn=_bounded,
                          env={**os.environ, "MOETHEORY_SCHEDULER_TIMEOUT": "1",
                               "PYTHONPATH": path})
    assert proc.returncode == 2, proc.stderr
    _check_streams(proc.returncode, proc.stdout, proc.stderr, progress=False)
    assert proc.stdout == ""
    assert _snapshot(tmp_path) == before


# ------------------------------------------------ users' claim files (issue 44): --checks

#: What a user's check does, as the body of ``def check(ctx):`` (``V`` a verdict's value,
#: ``TEXT`` junk text, ``DATA`` any JSON value).
CHECK_BODIES = {
    "returns": "return Outcome(Verdict(V), TEXT, DATA if isinstance(DATA, dict) else {})",
    "forges": "return Forged(Verdict(V), TEXT)",
    "not an Outcome": "return DATA",
    "raises": "raise RuntimeError(TEXT)",
    "prints": "print(TEXT); sys.stderr.write(TEXT); return Outcome(Verdict(V), 'ok')",
    "writes the pipe": "_to_pipes(json.dumps(DATA).encode()); os._exit(0)",
    "exits": "os._exit(3)",
}
#: What the file does at import, before it registers its claims.
IMPORT_BODIES = {
    "nothing": "",
    "prints": "print(TEXT); sys.stdout.write(TEXT)",
    "moves": "os.chdir(tempfile.mkdtemp())",
    "raises": "raise ValueError(TEXT)",
    "takes a catalogued ID": "claim('pcr.experts.param-count', statement='s')(lambda c: 0)",
}
USER_FILE = '''
import json, os, sys, tempfile
from moetheory import Outcome, Verdict, claim

V, TEXT, DATA = json.loads({values!r})

class Forged(Outcome):
    def to_dict(self):
        return DATA if not isinstance(DATA, dict) else dict(DATA, id="pcr.experts.param-count")

def _to_pipes(data):  # every pipe but the test process's own: the engine's result pipe
    for fd in range(3, 256):
        try:
            if os.readlink(f"/proc/self/fd/{{fd}}") not in {theirs!r}:
                os.write(fd, data)
        except OSError:
            pass

{at_import}
'''
_USER_FILES = iter(range(10**9))


@settings(FUZZ, max_examples=25)  # each example is a run: a fork per claim
@given(at_import=st.sampled_from(sorted(IMPORT_BODIES)),
       behaviours=st.lists(st.sampled_from(sorted(CHECK_BODIES)), min_size=1, max_size=2),
       verdict=st.sampled_from([v.value for v in Verdict]), text=_junk(16),
       data=JSON_VALUES)
def test_any_users_claim_file_decides_only_its_own_claims(at_import, behaviours, verdict,
                                                          text, data, tmp_path) -> None:
    from moetheory.engine.registry import load_checks, registered
    from moetheory.testing import TemporaryClaims

    load_checks()
    catalogue = {c.id: c for c in registered() if c.provenance == "catalogue"}
    name = f"h_fuzz_user_{next(_USER_FILES)}"
    path = tmp_path / f"{name}.py"
    claims = "\n".join(f"@claim('mine.c{i}', statement='s')\ndef c{i}(ctx):\n    {body}\n"
                       for i, body in enumerate(CHECK_BODIES[b] for b in behaviours))
    values = json.dumps([verdict, text, data])
    path.write_text(USER_FILE.format(values=values, at_import=IMPORT_BODIES[at_import],
                                     theirs=descriptor_targets()) + claims, encoding="utf-8")
    out = tmp_path / f"{name}.json"
    here, saved = os.getcwd(), list(sys.path)
    try:
        with TemporaryClaims():
            code, stdout, err = _run(["verify", "--checks", str(path), "--json", str(out),
                                      "--no-progress"])
    finally:
        sys.modules.pop(name, None)
        sys.path[:] = saved
    event(f"{at_import}: exit {code}")
    _check_streams(code, stdout, err, progress=True)  # what the file prints is its own
    assert os.getcwd() == here
    assert {c.id: c for c in registered() if c.provenance == "catalogue"} == catalogue
    assert all(registered_c is catalogue[i] for i, registered_c in
               ((c.id, c) for c in registered() if c.id in catalogue))
    if at_import in ("raises", "takes a catalogued ID"):
        assert code == 2 and not out.exists()
        return
    assert code in (0, 1)
    report = json.loads(out.read_text(encoding="utf-8"), parse_constant=_refuse)
    assert [e["id"] for e in report["claims"]] == [f"mine.c{i}" for i in range(len(behaviours))]
    for behaviour, entry in zip(behaviours, report["claims"], strict=True):
        assert entry["verdict"] in {v.value for v in Verdict}
        assert entry["provenance"] == f"file {path}"
        if behaviour in ("returns", "forges", "prints"):
            assert entry["verdict"] == verdict, (behaviour, entry["summary"])
        elif behaviour != "writes the pipe":
            assert entry["verdict"] == "error", (behaviour, entry["summary"])
    _no_children_left()


PAYLOAD_KEYS = ("verdict", "summary", "evidence", "readings", "derivation", "statement_latex",
                "summary_latex", "id", "seconds")


@st.composite
def payloads(draw: st.DrawFn) -> Any:
    """What a check's process may report: mostly result-shaped, with junk anywhere."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON_VALUES)
    out = {k: draw(st.one_of(st.sampled_from([v.value for v in Verdict]), JSON_VALUES))
           for k in draw(st.lists(st.sampled_from(PAYLOAD_KEYS), max_size=7, unique=True))}
    if draw(st.booleans()):
        out["readings"] = [draw(payloads()) for _ in range(draw(st.integers(0, 2)))]
    return out


@settings(max_examples=200, deadline=None, database=None)
@given(data=payloads())
def test_any_reported_payload_is_a_result_or_refused(data) -> None:
    from moetheory.engine.verdicts import checked_payload

    try:
        out = checked_payload(data)
    except TypeError as exc:
        assert str(exc).startswith("malformed result: ")
        return
    assert out["verdict"] in {v.value for v in Verdict}
    assert set(out) == {"verdict", "summary", "evidence", "readings", "derivation",
                        "statement_latex", "summary_latex"}
    json.dumps(out, allow_nan=False)  # standard JSON: finite numbers only
