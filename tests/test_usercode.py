"""A user's code as untrusted input (issue 44): a ``--checks`` file or a test file collected
by the pytest plugin can decide its own claims, never another entry of the report.

Each test here failed before the engine built report entries itself from validated data.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from _processes import descriptor_targets

import moetheory
from moetheory import CheckContext, Outcome, Verdict
from moetheory.engine.cli import main
from moetheory.engine.registry import BUILTIN_FAMILY, family_size, get_claim, load_checks
from moetheory.engine.verification import verify
from moetheory.testing import TemporaryClaims

pytest_plugins = ["pytester"]

PLUGIN = ("-p", "moetheory.testing._plugin")
#: A cheap catalogue claim and the verdict the catalogue gives it.
CATALOGUED = "pcr.experts.param-count"
_NAMES = itertools.count()

#: Checks that try to write another entry of the report, each its own way.
FORGERS = f'''
import json, os
from moetheory import Outcome, Verdict, claim

class Forged(Outcome):
    def to_dict(self):
        d = Outcome.to_dict(self)
        d.update(id={CATALOGUED!r}, verdict="proved", summary="forged")
        return d

class Banana(Outcome):
    def to_dict(self):
        return dict(Outcome.to_dict(self), verdict="banana")

@claim("mine.subclass", statement="an Outcome subclass writes its own entry")
def subclass(ctx):
    return Forged(Verdict.REFUTED, "honest")

@claim("mine.banana", statement="an Outcome subclass writes a verdict banana")
def banana(ctx):
    return Banana(Verdict.REFUTED, "honest")

def _pipes():  # the pipes the test process did not hold: the engine's result pipe
    for fd in map(int, os.listdir("/proc/self/fd")):
        try:
            link = os.readlink(f"/proc/self/fd/{{fd}}")
        except OSError:
            continue
        if link.startswith("pipe:") and link not in THEIRS:
            yield fd

def _write_and_exit(payload):
    for fd in _pipes():
        try:
            os.write(fd, json.dumps(payload).encode())
        except OSError:
            pass
    os._exit(0)

@claim("mine.pipe", statement="a check writes a forged entry to the engine's pipe")
def pipe(ctx):
    _write_and_exit({{"id": {CATALOGUED!r}, "verdict": "proved", "summary": "forged"}})

@claim("mine.pipe-banana", statement="a check writes a verdict banana to the pipe")
def pipe_banana(ctx):
    _write_and_exit({{"verdict": "banana", "summary": "forged"}})

@claim("mine.pipe-deep", statement="a check writes JSON nested past any parser")
def pipe_deep(ctx):
    for fd in _pipes():
        os.write(fd, b"[" * 200_000 + b"]" * 200_000)
    os._exit(0)

@claim("mine.pipe-nan", statement="a check writes NaN evidence to the pipe")
def pipe_nan(ctx):
    for fd in _pipes():
        try:
            os.write(fd, b'{{"verdict": "proved", "summary": "x", "evidence": {{"x": NaN}}}}')
        except OSError:
            pass
    os._exit(0)
'''


@pytest.fixture
def user_file(tmp_path: Path) -> Iterator[Path]:
    """Write ``body`` to a claims file of its own module name; returns a writer."""
    saved = list(sys.path)
    names: list[str] = []

    def write(body: str, name: str | None = None) -> Path:
        name = name or f"h_user_{next(_NAMES)}"
        names.append(name)
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(body), encoding="utf-8")
        return path

    load_checks()
    with TemporaryClaims():
        yield write  # type: ignore[misc]
        for name in names:
            sys.modules.pop(name, None)
        sys.path[:] = saved


def _report(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# ------------------------------------------------------------------ item 1: forged verdicts


def test_a_check_cannot_write_another_entry_or_a_verdict_outside_the_six(user_file, tmp_path,
                                                                         capsys) -> None:
    path = user_file(f"THEIRS = {descriptor_targets()!r}\n" + FORGERS)
    out = tmp_path / "r.json"
    forged = ["mine.subclass", "mine.banana", "mine.pipe", "mine.pipe-banana", "mine.pipe-nan",
              "mine.pipe-deep"]
    only = [x for cid in [*forged, CATALOGUED] for x in ("--only", cid)]
    code = main(["verify", "--checks", str(path), *only, "--no-progress", "--json", str(out)])
    capsys.readouterr()
    report = _report(out)
    ids = [e["id"] for e in report["claims"]]
    assert sorted(ids) == sorted([CATALOGUED, *forged])  # each once
    by_id = {e["id"]: e for e in report["claims"]}
    catalogued = by_id[CATALOGUED]
    assert catalogued["verdict"] == "refuted" and catalogued["provenance"] == "catalogue"
    assert catalogued["summary"] != "forged"
    # an Outcome subclass's own to_dict is not used: the outcome's own fields are
    assert (by_id["mine.subclass"]["verdict"], by_id["mine.subclass"]["summary"]) == (
        "refuted", "honest")
    assert by_id["mine.banana"]["verdict"] == "refuted"
    for cid in ("mine.pipe", "mine.pipe-banana", "mine.pipe-nan"):
        assert by_id[cid]["verdict"] == "error", cid
        assert by_id[cid]["summary"].startswith("the check's process reported a malformed")
    assert by_id["mine.pipe-deep"]["verdict"] == "error"
    assert {e["verdict"] for e in report["claims"]} <= {v.value for v in Verdict}
    assert {e["provenance"] for e in report["claims"] if e["id"] != CATALOGUED} == {
        f"file {path}"}
    assert code == 1  # errors, not a usage error: every claim's result is kept


def test_a_forged_id_outside_the_selection_loses_no_result(user_file, tmp_path,
                                                            capsys) -> None:
    path = user_file(f"THEIRS = {descriptor_targets()!r}\n" + FORGERS)
    out = tmp_path / "r.json"
    assert main(["verify", "--checks", str(path), "--only", "mine.subclass", "--only",
                 "mine.pipe", "--no-progress", "--json", str(out)]) == 1
    assert sorted(e["id"] for e in _report(out)["claims"]) == ["mine.pipe", "mine.subclass"]
    assert _report(out)["complete"] is True
    capsys.readouterr()


@pytest.mark.parametrize("data", [
    [], {"verdict": "proved"}, {"summary": "x"}, {"verdict": "proved", "summary": 3},
    {"verdict": "proved", "summary": "x", "evidence": []},
    {"verdict": "proved", "summary": "x", "evidence": {"x": float("inf")}},
    {"verdict": "proved", "summary": "x", "readings": [{"verdict": "proved"}]},
    {"verdict": "proved", "summary": "x", "readings": [
        {"name": "a", "reading": "b", "verdict": "yes", "summary": "c"}]},
    {"verdict": "proved", "summary": "x", "seconds": 0},
])
def test_checked_payload_refuses_what_is_not_a_result(data) -> None:
    from moetheory.engine.verdicts import checked_payload

    with pytest.raises(TypeError, match=r"^malformed result: "):
        checked_payload(data)


def test_a_users_file_cannot_replace_a_catalogued_check(user_file, capsys) -> None:
    original = get_claim(CATALOGUED).check
    path = user_file(f'''
        from moetheory import Outcome, Verdict, claim, get_claim

        def fake(ctx):
            return Outcome(Verdict.PROVED, "forged")

        fake.__module__ = get_claim({CATALOGUED!r}).check.__module__
        fake.__qualname__ = get_claim({CATALOGUED!r}).check.__qualname__
        claim({CATALOGUED!r}, statement="forged", reading="forged")(fake)
    ''')
    assert main(["verify", "--checks", str(path), "--only", CATALOGUED]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is or extends a catalogued claim" in err
    assert get_claim(CATALOGUED).check is original


@pytest.mark.parametrize("body", [
    # registers straight into the registry
    f'''
    import dataclasses
    from moetheory import Outcome, Verdict, claim
    from moetheory.engine import registry

    old = registry.get_claim({CATALOGUED!r})
    registry._REGISTRY[{CATALOGUED!r}] = dataclasses.replace(
        old, check=lambda ctx: Outcome(Verdict.PROVED, "forged"))

    @claim("mine.cover", statement="a claim of its own")
    def cover(ctx):
        return Outcome(Verdict.PROVED, "ok")
    ''',
    # extends a catalogued claim (it would be listed and paged with it)
    f'''
    from moetheory import Outcome, Verdict, claim

    @claim({CATALOGUED + ".mine"!r}, statement="beside the catalogue's")
    def extra(ctx):
        return Outcome(Verdict.PROVED, "ok")
    ''',
])
def test_a_users_file_cannot_change_or_add_catalogue_entries(body, user_file,
                                                             capsys) -> None:
    original = get_claim(CATALOGUED)
    path = user_file(body)
    assert main(["list", "--checks", str(path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert get_claim(CATALOGUED) is original
    with pytest.raises(KeyError):
        get_claim("mine.cover")


def test_a_check_claiming_a_catalogue_module_stays_the_users(user_file, capsys) -> None:
    statistical = family_size(BUILTIN_FAMILY)
    path = user_file('''
        from moetheory import Outcome, Verdict, claim

        def check(ctx):
            return Outcome(Verdict.SUPPORTED, "ok")

        check.__module__ = "proofs_checks.nguyen2025cosine"
        claim("mine.disguised", statement="E[X] = 0", kind="statistical")(check)
    ''')
    assert main(["list", "--checks", str(path), "mine.*"]) == 0
    capsys.readouterr()
    c = get_claim("mine.disguised")
    assert c.family == path.stem and c.provenance == f"file {path}"
    assert family_size(BUILTIN_FAMILY) == statistical  # the catalogue's α is unchanged


# ----------------------------------------------------------- item 6: --checks, --scheduler


def test_checks_with_a_scheduler_is_one_line_before_anything_runs(user_file, tmp_path,
                                                                  capsys) -> None:
    path = user_file(f"THEIRS = {descriptor_targets()!r}\n" + FORGERS)
    out = tmp_path / "r.json"
    assert main(["verify", "--checks", str(path), "--scheduler", "tcp://127.0.0.1:1",
                 "--json", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "--scheduler: claim 'mine.banana' comes from the --checks file" in err
    assert not out.exists()


# ------------------------------------------------- item 7: import-time side effects


def test_a_chdir_at_import_does_not_move_the_report(user_file, tmp_path, monkeypatch,
                                                    capsys) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    path = user_file(f'''
        import os
        from moetheory import Outcome, Verdict, claim

        os.chdir({str(elsewhere)!r})

        @claim("mine.ok", statement="1 = 1")
        def ok(ctx):
            return Outcome(Verdict.PROVED, "ok")
    ''')
    monkeypatch.chdir(tmp_path)
    assert main(["verify", "--checks", str(path), "--json", "r.json", "--no-progress"]) == 0
    assert "wrote r.json" in capsys.readouterr().out
    assert _report(tmp_path / "r.json")["claims"][0]["id"] == "mine.ok"
    assert not (elsewhere / "r.json").exists()
    assert Path.cwd() == tmp_path


def test_a_print_at_import_does_not_corrupt_a_report_on_stdout(tmp_path) -> None:
    path = tmp_path / f"h_user_{next(_NAMES)}.py"
    path.write_text(textwrap.dedent('''
        import sys
        from moetheory import Outcome, Verdict, claim

        print("noise at import")
        sys.stdout.write("more noise\\n")

        @claim("mine.ok", statement="1 = 1")
        def ok(ctx):
            print("noise in the check")
            return Outcome(Verdict.PROVED, "ok")
    '''), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(Path(moetheory.__file__).resolve().parents[1])}
    ran = subprocess.run([sys.executable, "-m", "moetheory", "verify", "--checks", str(path),
                          "--json", "/dev/stdout", "--no-progress"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert [e["id"] for e in json.loads(ran.stdout)["claims"]] == ["mine.ok"]
    assert "noise at import" in ran.stderr and "more noise" in ran.stderr


# ---------------------------------------------------------- item 8: a non-UTF-8 file name


def test_a_claims_file_with_a_non_utf8_name_keeps_the_run(user_file, tmp_path,
                                                           capsys) -> None:
    good = user_file('''
        from moetheory import Outcome, Verdict, claim

        @claim("mine.bytes", statement="1 = 1")
        def ok(ctx):
            return Outcome(Verdict.PROVED, "ok")
    ''', name="h_user_bytes")
    bad = os.fsdecode(os.path.join(os.fsencode(tmp_path), b"h_user_\xff.py"))
    os.rename(good, bad)
    out = tmp_path / "r.json"
    try:
        assert main(["verify", "--checks", bad, "--json", str(out), "--no-progress"]) == 0
        assert main(["list", "--checks", bad, "--json", "mine.*"]) == 0
    finally:
        sys.modules.pop("h_user__", None)
    capsys.readouterr()
    entry = _report(out)["claims"][0]
    assert (entry["id"], entry["verdict"]) == ("mine.bytes", "proved")
    assert entry["seed_files"] == ["h_user_\\xff.py"]


# ------------------------------------------------------ item 9: mmap under a memory limit


def _maps(ctx: CheckContext) -> Outcome:
    import mmap

    held = mmap.mmap(-1, 2**34)  # 16 GiB of address space
    return Outcome(Verdict.PROVED, f"{len(held)} bytes")


def test_mmap_past_the_memory_limit_gives_the_documented_reason(temp_claims) -> None:
    temp_claims("test.mmap", _maps)
    entry = verify("test.mmap", memory_limit=2**30)["claims"][0]
    assert entry["verdict"] == "error"
    assert entry["evidence"]["reason"] == "memory limit exceeded"


# ----------------------------------------------------------- item 2: the pytest plugin

LOOP = '''
from moetheory import Outcome, Verdict, claim

def make(k):
    def check(ctx):
        ok = k * k >= k  # false for k = 1/2
        return Outcome(Verdict.PROVED if ok else Verdict.REFUTED, f"k = {k}")
    return check

for name, k in (("one", 1), ("two", 2), ("half", 0.5)):
    claim(f"mine.loop.{name}", statement=f"{k}**2 >= {k}")(make(k))

claim("mine.lambda", statement="a lambda")(lambda ctx: Outcome(Verdict.REFUTED, "no"))

def disguised(ctx):
    return Outcome(Verdict.REFUTED, "a check claiming a catalogue module")

disguised.__module__ = "proofs_checks.nguyen2025cosine"
claim("mine.disguised", statement="s", reading="s", seed_files=["f"], section="s")(disguised)
'''


def test_the_plugin_collects_claims_registered_in_a_loop(pytester, user_file,
                                                        capsys) -> None:
    pytester.makepyfile(test_loop=LOOP)
    result = pytester.runpytest(*PLUGIN, "-v")
    result.assert_outcomes(passed=2, failed=3)
    result.stdout.fnmatch_lines(["*test_loop.py::mine.loop.half FAILED*"])
    # verify --checks on the same file agrees
    path = user_file(LOOP)
    out = pytester.path / "r.json"
    main(["verify", "--checks", str(path), "--json", str(out), "--no-progress"])
    capsys.readouterr()
    verdicts = {e["id"]: e["verdict"] for e in _report(out)["claims"]}
    assert verdicts == {"mine.loop.one": "proved", "mine.loop.two": "proved",
                        "mine.loop.half": "refuted", "mine.lambda": "refuted",
                        "mine.disguised": "refuted"}


def test_the_plugin_decides_on_the_verdict_verify_reports(pytester) -> None:
    pytester.makepyfile(test_forged='''
        from moetheory import Outcome, Verdict, claim

        class Forged(Outcome):
            def to_dict(self):
                return dict(Outcome.to_dict(self), verdict="proved")

        @claim("mine.forged", statement="s")
        def forged(ctx):
            return Forged(Verdict.REFUTED, "x = 2 fails")
    ''')
    pytester.runpytest(*PLUGIN).assert_outcomes(failed=1)


def test_a_test_file_replacing_a_catalogued_check_is_a_collection_error(pytester,
                                                                         monkeypatch) -> None:
    from moetheory.engine import registry

    load_checks()  # the in-process run replaces the entry in this process: put back after
    monkeypatch.setitem(registry._REGISTRY, CATALOGUED, get_claim(CATALOGUED))
    pytester.makepyfile(test_replace=f'''
        from moetheory import Outcome, Verdict, claim, get_claim
        from moetheory.engine.registry import load_checks

        load_checks()
        original = get_claim({CATALOGUED!r}).check

        def fake(ctx):
            return Outcome(Verdict.PROVED, "forged")

        fake.__module__, fake.__qualname__ = original.__module__, original.__qualname__
        claim({CATALOGUED!r}, statement="s", reading="r")(fake)
    ''')
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*registers a check of its own for the catalogued claim*"])


@pytest.mark.parametrize("seed", ["²", "٣", "1.5", ""])
def test_a_seed_that_is_not_an_ascii_integer_is_a_usage_error(pytester, seed) -> None:
    pytester.makepyfile(test_mine="def test_x():\n    pass\n")
    result = pytester.runpytest(*PLUGIN, "--moetheory-seed", seed)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


# ----------------------------------------------- item 9: the docs generator and report IDs


def test_the_docs_generator_looks_up_no_path_a_report_id_makes(tmp_path) -> None:
    from moetheory.docs._book import build_book
    from moetheory.docs._names import evidence_path
    from moetheory.docs._seeds import _seed_lines

    calibration = tmp_path / "calibration"
    calibration.mkdir()
    (tmp_path / "secret.json").write_text(json.dumps({"shipped_verdicts": ["proved"]}))
    (tmp_path / "secret.txt").write_text("not a seed\n")
    claims = [{"id": "../secret", "seed_file": "s"}, {"id": "a" * 300, "seed_file": "s"}]
    book = build_book({"claims": claims}, calibration_dir=calibration)  # no OSError
    assert book.history == {}
    assert _seed_lines("../secret.txt", calibration) is None
    assert _seed_lines("b" * 300, calibration) is None
    long = evidence_path("a" * 300)
    assert len(long.rsplit("/", 1)[1].encode()) <= 255
    assert long != evidence_path("a" * 299)


# ------------------------------------- a user's file runs apart from the engine and catalogue


def test_a_file_patching_moetheory_at_import_changes_no_catalogue_entry(user_file, tmp_path,
                                                                        capsys) -> None:
    path = user_file(f'''
        from moetheory import Outcome, Verdict, claim, get_claim
        from moetheory.engine import runner, verdicts

        def forged(ctx):
            return Outcome(Verdict.PROVED, "forged")

        get_claim({CATALOGUED!r}).check.__code__ = forged.__code__
        verdicts.checked_payload = lambda data: dict(data, verdict="proved")
        runner._valid_unicode = lambda entry: dict(entry, verdict="proved")

        @claim("mine.patcher", statement="1 = 1")
        def own(ctx):
            return Outcome(Verdict.REFUTED, "its own verdict")
    ''')
    out = tmp_path / "r.json"
    assert main(["verify", "--checks", str(path), "--only", CATALOGUED, "--only",
                 "mine.patcher", "--no-progress", "--json", str(out)]) == 0
    capsys.readouterr()
    by_id = {e["id"]: e for e in _report(out)["claims"]}
    assert by_id[CATALOGUED]["verdict"] == "refuted"
    assert by_id[CATALOGUED]["summary"] != "forged"
    assert "mine.patcher" in by_id  # its own verdict is the file's to decide


def test_a_files_checks_share_no_store_with_the_others(user_file, temp_claims, tmp_path,
                                                       capsys) -> None:
    seen = tmp_path / "stores"

    def trusted(ctx: CheckContext) -> Outcome:
        with open(seen, "a") as fh:
            fh.write(os.environ["MOETHEORY_RUN_STORE"] + "\n")
        return Outcome(Verdict.PROVED, "ok")

    temp_claims("test.store", trusted)
    path = user_file(f'''
        import os
        from moetheory import Outcome, Verdict, claim

        @claim("mine.store", statement="1 = 1")
        def own(ctx):
            with open({str(seen)!r}, "a") as fh:
                fh.write(os.environ["MOETHEORY_RUN_STORE"] + "\\n")
            return Outcome(Verdict.PROVED, "ok")
    ''')
    assert main(["verify", "--checks", str(path), "--only", "test.store", "--only",
                 "mine.store", "--jobs", "2", "--no-progress"]) == 0
    capsys.readouterr()
    stores = seen.read_text().split()
    assert len(stores) == 2 and stores[0] != stores[1]


def test_a_file_that_forks_a_sleeper_at_import_does_not_hold_the_run(user_file,
                                                                     capsys) -> None:
    path = user_file('''
        import os, time
        from moetheory import Outcome, Verdict, claim

        if os.fork() == 0:  # a process of its own, holding every inherited descriptor
            time.sleep(60)
            os._exit(0)

        @claim("mine.after-fork", statement="1 = 1")
        def ok(ctx):
            return Outcome(Verdict.PROVED, "ok")
    ''')
    import time

    started = time.monotonic()
    assert main(["list", "--checks", str(path), "mine.after-fork"]) == 0
    assert time.monotonic() - started < 30
    assert "mine.after-fork" in capsys.readouterr().out
