"""The verification engine: registry, runner, reports, CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from moetheory import CheckContext, Outcome, Reading, Verdict, verify
from moetheory.engine.catalogue import CATALOGUE
from moetheory.engine.cli import main
from moetheory.engine.context import claim_seed
from moetheory.engine.registry import get_claim, load_checks, registered, select_claims
from moetheory.engine.report import SCHEMA, render_markdown
from moetheory.engine.runner import Limits, run_isolated
from moetheory.engine.verdicts import jsonable


def _proved(ctx: CheckContext) -> Outcome:
    return Outcome(Verdict.PROVED, "trivially", {"x": 1})


def _random(ctx: CheckContext) -> Outcome:
    draws = ctx.rng().standard_normal(3)
    return Outcome(Verdict.SUPPORTED, "random draws", {"draws": draws, "seed": ctx.seed})


def _sleep(ctx: CheckContext) -> Outcome:
    time.sleep(60)
    return _proved(ctx)


def _spin(ctx: CheckContext) -> Outcome:
    while True:
        pass


def _raise(ctx: CheckContext) -> Outcome:
    raise RuntimeError("boom in the check")


def _die(ctx: CheckContext) -> Outcome:
    os._exit(3)


def _readings(ctx: CheckContext) -> Outcome:
    return Outcome.from_readings(
        [
            Reading("literal", "as written", Verdict.REFUTED, "counterexample", {"x": 2}),
            Reading("fixed", "with the sign fixed", Verdict.PROVED, "identity"),
        ]
    )


def _strip_timings(report: dict) -> dict:
    for entry in report["claims"]:
        entry.pop("seconds")
    return report


def test_version_is_printed_and_exits_0() -> None:
    import moetheory

    out = subprocess.run([sys.executable, "-m", "moetheory", "--version"],
                         capture_output=True, text=True)
    assert (out.returncode, out.stdout, out.stderr) == (0, f"moetheory {moetheory.__version__}\n",
                                                        "")


@pytest.mark.parametrize("argv", [["list", "--json"], ["list"]])
def test_a_closed_pipe_ends_quietly(argv: list[str]) -> None:
    # `moetheory list --json | head -c 10`: the reader goes away; no "error: Broken pipe",
    # no "Exception ignored", the status of a process ended by SIGPIPE (128 + 13)
    proc = subprocess.Popen([sys.executable, "-m", "moetheory", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=60)
    assert err == ""
    assert code in (0, 128 + int(signal.SIGPIPE))  # 0 when all fitted in the pipe's buffer


def test_every_catalogue_claim_is_registered_once_in_catalogue_order() -> None:
    load_checks()
    ids = [c.id for c in registered()]
    catalogue_ids = [spec.id for spec in CATALOGUE]
    assert len(catalogue_ids) == 49
    assert len(set(ids)) == len(ids)
    assert [i for i in ids if i in catalogue_ids] == catalogue_ids


def test_unimplemented_claims_are_inconclusive_with_reason() -> None:
    load_checks()
    placeholders = [c for c in registered() if not c.implemented]
    for c in placeholders:
        outcome = c.check(CheckContext(c.id, seed=0))
        assert outcome.verdict is Verdict.INCONCLUSIVE
        assert outcome.summary == "not implemented"


def test_select_claims_rejects_patterns_that_match_nothing() -> None:
    load_checks()
    with pytest.raises(ValueError, match="match no claim"):
        select_claims(["no.such.claim*"])
    assert next(c.id for c in select_claims(["cl.prop4.generalization"])) == (
        "cl.prop4.generalization"
    )


def test_claim_seed_depends_on_master_seed_and_id() -> None:
    assert claim_seed(0, "a") == claim_seed(0, "a")
    assert claim_seed(0, "a") != claim_seed(0, "b")
    assert claim_seed(0, "a") != claim_seed(1, "a")
    with pytest.raises(ValueError, match="seed"):
        claim_seed(-1, "a")


def test_registering_an_uncatalogued_claim_needs_a_statement() -> None:
    from moetheory import claim

    with pytest.raises(ValueError, match="statement"):
        claim("test.orphan", reading="r")
    with pytest.raises(ValueError, match="kind"):
        claim("pcr.pde.cosine", reading="r", kind="vibes")


def test_a_catalogued_claims_text_stands_beside_its_check() -> None:
    # what a claim says (statement, typeset statement, sources, audit rows) is written in the
    # @claim of its check, not in a central table: the catalogue holds IDs, sections, seeds
    import ast
    import inspect

    from moetheory import claim
    from moetheory.engine import catalogue

    load_checks()
    for spec in CATALOGUE:
        assert set(vars(spec)) == {"id", "section", "seed_files"}
        module = inspect.getmodule(get_claim(spec.id).check)
        tree = ast.parse(inspect.getsource(module))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args
                 and isinstance(n.args[0], ast.Constant) and n.args[0].value == spec.id]
        assert calls, spec.id
        given = {k.arg for k in calls[0].keywords}
        assert "statement" in given, (spec.id, given)  # sources: here or the paper's partial
        assert get_claim(spec.id).sources, spec.id
    assert not hasattr(catalogue, "STATEMENT_LATEX")
    def builtin(ctx: CheckContext) -> Outcome:
        return Outcome(Verdict.PROVED, "ok")

    builtin.__module__ = "proofs_checks.somewhere"  # the package's own check
    with pytest.raises(ValueError, match="pass statement="):
        claim("pcr.pde.cosine", reading="r")(builtin)
    assert get_claim("pcr.pde.cosine").check.__name__ != "builtin"


def test_corrected_claim_inherits_seed_and_sorts_after_its_parent(temp_claims) -> None:
    temp_claims("cl.fig2.corrected", _proved, seed_files=None, section=None)
    c = get_claim("cl.fig2.corrected")
    assert c.seed_file == "003_3078ccb5100b14b7.txt"
    ids = [x.id for x in registered()]
    assert ids.index("cl.fig2.corrected") == ids.index("cl.fig2") + 1


def test_report_schema_and_markdown(temp_claims, tmp_path: Path) -> None:
    temp_claims("test.proved", _proved)
    temp_claims("test.readings", _readings)
    report = verify(["test.*"], json_path=tmp_path / "r.json", markdown_path=tmp_path / "r.md")
    on_disk = json.loads((tmp_path / "r.json").read_text())
    assert on_disk == report
    assert report["schema"] == SCHEMA
    assert report["complete"] is True
    assert report["counts"]["proved"] == 1 and report["counts"]["refuted"] == 1
    by_id = {e["id"]: e for e in report["claims"]}
    keys = {"id", "seed_file", "statement", "reading", "verdict", "summary", "evidence", "seconds"}
    assert keys <= set(by_id["test.proved"])
    multi = by_id["test.readings"]
    assert multi["verdict"] == "refuted"
    assert [r["name"] for r in multi["readings"]] == ["literal", "fixed"]
    md = (tmp_path / "r.md").read_text()
    assert "| reading | verdict | summary |" in md
    assert "`test.readings` — **refuted**" in md
    assert md == render_markdown(report)


def _long_entry(i: int) -> dict:
    """A report entry as large as the biggest checks make them: long ID and statement, many
    readings, a derivation of many paragraphs and evidence with long tables."""
    paragraph = "Step: $x^{2} \\ge 0$ because squares are non-negative. " * 8
    reading = {"name": "literal", "reading": "as written", "verdict": "refuted",
               "summary": "counterexample x = 2 | with a bar " * 12,
               "evidence": {"table": list(range(2000))}, "derivation": paragraph * 6}
    return {
        "id": f"test.a-rather-long.claim-identifier.number-{i}", "seed_file": "002_x.txt",
        "statement": "The *linear* expert h(x,(a,b)) = a*x + b is not strongly identifiable "
                     "| for every input dimension, " * 10 + ". Then more.",
        "reading": "r", "kind": "exact", "verdict": "proved",
        "summary": " | ".join(f"reading {k}: dependent" for k in range(20)),
        "evidence": {"n": 3, "residual": {"sympy": "0", "latex": "0"},
                     "trace": [[k, k * 0.5] for k in range(3000)]},
        "derivation": "\n\n".join([paragraph] * 40),
        "readings": [dict(reading, name=f"reading {k}") for k in range(20)],
    }


def test_the_markdown_report_is_a_scannable_table_then_details() -> None:
    # issue 45: the summary table's rows reached 3,714 characters (every reading's
    # comparisons inline) and the quick report was 2.8 MB
    from moetheory.engine.report import SUMMARY_ROW_CHARS, build_report, claim_title

    entries = [_long_entry(i) for i in range(5)]
    md = render_markdown(build_report(entries, seed=0, profile="quick", family_alpha=0.05))
    table = md.split("## Claims")[0]
    rows = [line for line in table.splitlines() if line.startswith("| [")]
    assert len(rows) == 5 and max(len(row) for row in rows) <= SUMMARY_ROW_CHARS
    # the row says what the verdict is about: the statement, from the claim itself
    assert "| **proved** | The \\*linear\\* expert h(x,(a,b)) = a·x + b is not strongly" in rows[0]
    assert rows[0].count(" | ") == 3 + 0  # the statement's bars are escaped, not columns
    assert claim_title("The claim holds. More.") == "The claim holds."
    # details in proportion: not every reading's evidence and derivation
    assert len(md.encode()) < 60_000
    assert "_In the JSON report: " in md and "the derivations of" not in md.split("_In")[0]


def test_the_markdown_reports_claim_names_its_primary_reading_and_counts_what_it_leaves(
) -> None:
    from moetheory.engine.report import render_claim

    entry = _long_entry(0)
    text = render_claim(entry, full=False)
    assert "**Verdict.** proved (primary reading `reading 0`) — reading 0: dependent *(all 20" \
        in text
    assert "- **n**: `3`" in text and "- **residual**: $0$" in text
    assert "_1 more fact in the JSON report: trace._" in text
    # twenty readings that say the same: one row naming each of them
    rows = [ln for ln in text.splitlines() if ln.startswith("| reading ")]
    assert len(rows) == 2 and all(f"reading {k}," in rows[1] for k in range(19))
    full = render_claim(entry)
    assert full.count("#### Reading `") == 20 and "1999" in full and len(full) > 10 * len(text)


def _started(ctx: CheckContext) -> Outcome:
    return Outcome(Verdict.PROVED, "records when it started", {"started": time.time()})


def test_the_next_check_starts_before_the_report_of_the_last_is_written(temp_claims) -> None:
    """The engine wrote the (growing) JSON report after each claim before it started the
    next one, so a core idled for every report write (~40 ms each in the quick profile)."""
    from moetheory.engine.registry import select_claims
    from moetheory.engine.runner import RunSettings, run_claims

    temp_claims("test.first", _started)
    temp_claims("test.second", _started)
    written: dict[str, float] = {}

    def on_result(entry: dict) -> None:
        time.sleep(0.5)  # a slow report write
        written[entry["id"]] = time.time()

    entries = run_claims(select_claims(["test.first", "test.second"]), RunSettings(jobs=1),
                         on_result=on_result, progress=False)
    second = {e["id"]: e for e in entries}["test.second"]
    assert second["evidence"]["started"] < written["test.first"]


def test_time_limit_makes_claim_inconclusive_and_run_goes_on(temp_claims) -> None:
    temp_claims("test.a-spin", _spin)
    temp_claims("test.b-sleep", _sleep)
    temp_claims("test.c-proved", _proved)
    start = time.perf_counter()
    report = verify(["test.a-spin", "test.c-proved"], timeout=1.0, jobs=2)
    by_id = {e["id"]: e for e in report["claims"]}
    report = verify(["test.b-sleep"], wall_timeout=1.0)
    by_id.update({e["id"]: e for e in report["claims"]})
    assert time.perf_counter() - start < 50
    spin, sleep = by_id["test.a-spin"], by_id["test.b-sleep"]
    assert spin["verdict"] == "inconclusive"
    assert spin["evidence"] == {"reason": "time limit exceeded", "timeout_seconds": 1.0}
    assert "CPU time" in spin["summary"]
    assert sleep["verdict"] == "inconclusive"
    assert sleep["evidence"]["reason"] == "wall-clock limit exceeded"
    assert by_id["test.c-proved"]["verdict"] == "proved"


def test_crashing_checks_are_errors_with_traceback(temp_claims) -> None:
    temp_claims("test.raise", _raise)
    temp_claims("test.die", _die)
    temp_claims("test.ok", _proved)
    report = verify(["test.*"], jobs=2)
    by_id = {e["id"]: e for e in report["claims"]}
    assert by_id["test.raise"]["verdict"] == "error"
    assert "boom in the check" in by_id["test.raise"]["evidence"]["traceback"]
    assert by_id["test.die"]["verdict"] == "error"
    assert by_id["test.die"]["evidence"]["exitcode"] == 3
    assert by_id["test.ok"]["verdict"] == "proved"


def test_same_seed_same_report_and_jobs_do_not_matter(temp_claims) -> None:
    temp_claims("test.random1", _random)
    temp_claims("test.random2", _random)
    a = _strip_timings(verify(["test.random*"], seed=5))
    b = _strip_timings(verify(["test.random*"], seed=5, jobs=2))
    c = _strip_timings(verify(["test.random*"], seed=6))
    assert json.dumps(a) == json.dumps(b)
    assert a["claims"][0]["evidence"] != c["claims"][0]["evidence"]
    assert a["claims"][0]["evidence"] != a["claims"][1]["evidence"]


def test_cli_exit_codes(temp_claims, tmp_path: Path, capsys) -> None:
    temp_claims("test.proved", _proved)
    temp_claims("test.raise", _raise)
    assert main(["verify", "--only", "test.proved", "--no-progress"]) == 0
    assert main(["verify", "--only", "test.proved", "--fail-on", "proved", "--no-progress"]) == 1
    assert main(["verify", "--only", "test.raise", "--no-progress"]) == 1
    assert main(["verify", "--only", "nothing.matches", "--no-progress"]) == 2
    assert "match no claim" in capsys.readouterr().err
    for bad in (["--jobs", "0"], ["--timeout", "-1"], ["--fail-on", "maybe"], ["--seed", "x"]):
        with pytest.raises(SystemExit) as exc:
            main(["verify", *bad])
        assert exc.value.code == 2
    assert main(["show", "no.such.claim"]) == 2


def test_cli_list_and_show(temp_claims, capsys) -> None:
    temp_claims("test.readings", _readings)
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "pcr.pde.cosine" in out and "test.readings" in out
    assert main(["show", "test.readings"]) == 0
    out = capsys.readouterr().out
    assert "literal" in out and "REFUTED" in out
    assert main(["show", "test.readings", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    # the primary reading's row points at the verdict line, which already says its summary
    assert "| literal | refuted | _as on the verdict line_ |" in out
    assert "| fixed | proved | identity |" in out
    assert main(["show", "test.readings", "--format", "markdown", "--evidence"]) == 0
    out = capsys.readouterr().out
    assert "Reading `literal`" in out and "refuted" in out and "- **x**: `2`" in out


def test_jsonable_rejects_unknown_objects_and_maps_non_finite() -> None:
    assert jsonable({"a": np.array([np.nan, -np.inf])}) == {"a": ["nan", "-inf"]}
    with pytest.raises(TypeError, match="not JSON-serialisable"):
        jsonable({"a": object()})


def test_interrupt_keeps_the_claims_already_checked(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    script = textwrap.dedent(
        f"""
        import sys, time
        from moetheory import Outcome, Verdict, claim
        from moetheory.engine.cli import main

        @claim("test.fast", reading="r", statement="s", seed_files=["t"], section="T")
        def fast(ctx):
            return Outcome(Verdict.PROVED, "fast")

        @claim("test.slow", reading="r", statement="s", seed_files=["t"], section="T")
        def slow(ctx):
            time.sleep(120)
            return Outcome(Verdict.PROVED, "slow")

        sys.exit(main(["verify", "--only", "test.*", "--json", {str(report)!r},
                       "--no-progress"]))
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE)

    def checked() -> list[str]:
        try:
            return [e["id"] for e in json.loads(report.read_text())["claims"]]
        except (OSError, ValueError):
            return []

    # The report exists from the start (incomplete, no claims): wait for the first claim.
    deadline = time.time() + 120
    while time.time() < deadline and not checked() and proc.poll() is None:
        time.sleep(0.1)
    assert checked() == ["test.fast"], "the report was not written after the first claim"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err.decode()
    assert len(err.decode().strip().splitlines()) == 1, err.decode()
    data = json.loads(report.read_text())
    assert data["complete"] is False
    assert [e["id"] for e in data["claims"]] == ["test.fast"]


def test_python_dash_m_runs_the_cli() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "moetheory", "list"], capture_output=True, text=True, check=True
    )
    assert "claims" in out.stdout.splitlines()[-1]


def test_a_check_module_runs_as_a_script() -> None:
    load_checks()
    script = sys.modules[get_claim("j91.grad.1.4").check.__module__].__file__
    assert script is not None
    out = subprocess.run(
        [sys.executable, script, "--only", "j91.grad.1.4", "--no-progress"],
        capture_output=True, text=True, check=True,
    )
    assert "# moetheory verification report" in out.stdout
    assert "`j91.grad.1.4` — **proved**" in out.stdout


def test_a_script_verifies_exactly_the_claims_it_registers(tmp_path: Path) -> None:
    # run_as_script() selects the claims of the running module, by their exact IDs: no
    # prefix list to keep in step with the module (and a user's own file works the same)
    script = tmp_path / "my_claims.py"
    script.write_text(
        "from moetheory import Outcome, Verdict, claim\n"
        "for name in ('a', 'b'):\n"
        "    claim(f'mine.{name}', reading='r', statement='s', seed_files=['none'],\n"
        "          section='Mine')(lambda ctx: Outcome(Verdict.PROVED, 'ok'))\n"
        "if __name__ == '__main__':\n"
        "    from moetheory.engine.script import run_as_script\n"
        "\n"
        "    run_as_script()\n",
        encoding="utf-8",
    )
    out = subprocess.run([sys.executable, str(script), "--no-progress"],
                         capture_output=True, text=True, check=True)
    assert "Verdicts — proved: 2" in out.stdout
    assert "`mine.a` — **proved**" in out.stdout and "`mine.b` — **proved**" in out.stdout


def _square(x: int) -> int:
    return x * x


def _maps(ctx: CheckContext) -> Outcome:
    return Outcome(Verdict.PROVED, "mapped", {"squares": ctx.map(_square, range(5))})


def test_verify_on_a_dask_cluster_gives_the_local_report(temp_claims) -> None:
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    temp_claims("test.maps", _maps)
    temp_claims("test.random1", _random)
    temp_claims("test.spin", _spin)
    local = verify("test.*", seed=5, timeout=1.0)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
        dashboard_address=None,
    ) as cluster:
        remote = verify("test.*", seed=5, timeout=1.0, scheduler=cluster.scheduler_address)
        assert main(["verify", "--only", "test.maps", "--no-progress",
                     "--scheduler", cluster.scheduler_address]) == 0
    assert json.dumps(_strip_timings(local)) == json.dumps(_strip_timings(remote))
    by_id = {e["id"]: e for e in remote["claims"]}
    assert by_id["test.maps"]["evidence"]["squares"] == [0, 1, 4, 9, 16]
    # the CPU-time limit holds on the worker
    assert by_id["test.spin"]["evidence"] == {"reason": "time limit exceeded",
                                              "timeout_seconds": 1.0}


def test_the_markdown_report_is_rendered_twice_not_once_per_claim(
    temp_claims, tmp_path, monkeypatch
) -> None:
    """Progress writes are JSON only: rendering the Markdown after every claim made a run's
    report writing quadratic in the number of claims (≈ 20 s of the quick profile)."""
    import moetheory.engine.report as report_module

    calls: list[int] = []
    real = report_module.render_markdown

    def counting(report):  # type: ignore[no-untyped-def]
        calls.append(len(report["claims"]))
        return real(report)

    monkeypatch.setattr(report_module, "render_markdown", counting)
    for i in range(4):
        temp_claims(f"test.md{i}", _proved)
    verify(["test.md*"], json_path=tmp_path / "r.json", markdown_path=tmp_path / "r.md")
    assert calls == [0, 4]  # the incomplete report at the start, the final one
    assert json.loads((tmp_path / "r.json").read_text())["complete"] is True
    assert "test.md3" in (tmp_path / "r.md").read_text()


def _openblas_counts() -> list[int]:
    """The thread count of each OpenBLAS library loaded in this process."""
    import ctypes

    counts = []
    with open("/proc/self/maps", encoding="utf-8") as maps:
        libraries = {line.split()[-1] for line in maps
                     if "openblas" in line.lower() and "/" in line}
    for path in sorted(libraries):
        library = ctypes.CDLL(path)
        for getter in ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
                       "openblas_get_num_threads64_", "openblas_get_num_threads"):
            function = getattr(library, getter, None)
            if function is not None:
                counts.append(function())
                break
    return counts


def _blas_threads(ctx: CheckContext) -> Outcome:
    counts = _openblas_counts()
    verdict = Verdict.PROVED if counts and set(counts) == {1} else Verdict.REFUTED
    return Outcome(verdict, f"BLAS threads {counts}", {"counts": counts})


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux /proc")
def test_a_checks_process_gives_blas_one_thread(temp_claims) -> None:
    """Two checks with threaded BLAS on 2 cores oversubscribed them (OpenBLAS busy-waits):
    a 12 s rates check ran for over 10 minutes in CI's narrow-SIMD run."""
    temp_claims("test.blas", _blas_threads)
    assert [e["verdict"] for e in verify(["test.blas"])["claims"]] == ["proved"]


def _threads(ctx: CheckContext) -> Outcome:
    n = len(os.listdir("/proc/self/task"))
    return Outcome(Verdict.PROVED if n == 1 else Verdict.REFUTED, f"{n} threads", {"n": n})


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux /proc")
def test_a_checks_process_starts_no_blas_thread_pool(temp_claims) -> None:
    """Telling OpenBLAS in the check's process to use one thread started its thread pool
    there (two libraries, two threads), which busy-waited for ~17 ms of CPU per check: the
    engine sets one thread before it forks, so the check's process has only its own thread,
    and the engine's own counts are as before once the run ends."""
    np.ones((300, 300)) @ np.ones((300, 300))  # the engine's BLAS has been used
    before = _openblas_counts()
    temp_claims("test.threads", _threads)
    entry = verify(["test.threads"])["claims"][0]
    assert entry["verdict"] == "proved", entry["summary"]
    assert _openblas_counts() == before


@pytest.mark.parametrize("module", ["sympy.physics.units", "scipy.stats",
                                    "sympy.assumptions.satask"])
def test_a_checks_process_finds_the_lazy_imports_done(module: str) -> None:
    """Modules the checks import on first use, each in many checks' processes, are imported
    once by the engine before it forks, not by each check's process again:
    ``sympy.simplify`` imports ``sympy.physics.units`` (about 0.2 s of CPU, some 70 checks of
    the catalogue), the intervals import ``scipy.stats`` (about 1.2 s, some 40 checks: a
    ninth of the quick profile's CPU), SymPy's ``ask`` imports its SAT handlers (some 100)."""
    code = (
        "import sys\n"
        "from moetheory import Outcome, Verdict\n"
        "from moetheory.engine.context import CheckContext\n"
        "from moetheory.engine.runner import Limits, run_isolated\n"
        "def check(ctx):\n"
        f"    return Outcome(Verdict.PROVED, str({module!r} in sys.modules), {{}})\n"
        "print(run_isolated(check, CheckContext('x', 1), Limits(60.0, 120.0))['summary'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "True"


def test_a_checks_garbage_collector_skips_the_engines_objects() -> None:
    """A full collection in a check's process traversed every object the engine had
    (SymPy, SciPy and the catalogue: about 150 MB), writing their pages and so copying them
    from the engine (copy-on-write): about 9% of the quick profile's CPU time. The engine
    freezes its objects (``gc.freeze``) for the fork only: the check's collector skips
    them, and the engine's own collector is back to normal afterwards."""
    import gc

    def check(ctx: CheckContext) -> Outcome:
        return Outcome(Verdict.PROVED, str(gc.get_freeze_count()), {})

    before = gc.get_freeze_count()
    out = run_isolated(check, CheckContext("x", 1), Limits(60.0, 120.0))
    assert int(out["summary"]) > 10_000 + before
    assert gc.get_freeze_count() == before


def test_a_run_reads_the_package_versions_once(monkeypatch, tmp_path) -> None:
    """build_report read five packages' metadata again after every claim (about a second of
    the engine's CPU per hundred claims, taken from the checks on a 2-core machine)."""
    import moetheory.engine.report as report_module

    calls = []
    real = report_module.environment
    import moetheory.engine.verification as verification_module

    counted = lambda: calls.append(1) or real()  # noqa: E731
    monkeypatch.setattr(report_module, "environment", counted)
    monkeypatch.setattr(verification_module, "environment", counted, raising=False)
    verify(["cl.update.min-norm*"], json_path=tmp_path / "r.json",
           markdown_path=tmp_path / "r.md")
    assert len(calls) == 1
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["environment"] == real() and len(data["claims"]) == 3


def test_progress_writes_encode_each_claim_once(monkeypatch, tmp_path) -> None:
    """The JSON report is rewritten after every claim; encoding the whole report each time
    cost the engine time quadratic in the number of claims. Each write must still be the
    report as json.dumps writes it."""
    import moetheory.engine.report as report_module
    from moetheory.engine.report import ReportWriter, build_report

    encoded = []
    real = json.dumps
    monkeypatch.setattr(report_module.json, "dumps",
                        lambda obj, **kw: encoded.append(text := real(obj, **kw)) or text)
    path = tmp_path / "r.json"
    writer = ReportWriter(path, None)
    entries = [{"id": f"c{i}", "verdict": "proved", "evidence": {"x": "y" * 200}}
               for i in range(60)]
    for i in range(1, len(entries) + 1):
        report = build_report(entries[:i], seed=0, profile="quick", family_alpha=0.05,
                              selection=[], complete=False)
        writer.write(report, markdown=False)
        assert path.read_text() == real(report, ensure_ascii=False) + "\n"
    assert sum(map(len, encoded)) < 3 * len(path.read_text())


def test_a_progress_write_does_not_build_the_report_in_memory(tmp_path) -> None:
    """A progress write joined every claim's encoding into one string (and encoded it again
    to UTF-8): after each fork of a check's process, writing those fresh megabytes
    copy-on-write faulted on every page (2.1 s of the engine's system time over the quick
    profile). The claims' encodings are written one by one: no allocation near the size of
    the file, and the file is the same."""
    import tracemalloc

    from moetheory.engine.report import ReportWriter, build_report

    path = tmp_path / "r.json"
    writer = ReportWriter(path, None)
    entries = [{"id": f"c{i}", "verdict": "proved", "evidence": {"x": "σ" * 4000}}
               for i in range(100)]
    report = build_report(entries, seed=0, profile="quick", family_alpha=0.05, selection=[],
                          complete=False)
    writer.write(report, markdown=False)  # encodes each claim (once per run)
    tracemalloc.start()
    try:
        writer.write(report, markdown=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    size = path.stat().st_size
    assert path.read_text(encoding="utf-8") == json.dumps(report, ensure_ascii=False) + "\n"
    assert size > 800_000 and peak < size / 8, (peak, size)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_prepare_worker_keeps_freed_memory_so_large_temporaries_do_not_page_fault() -> None:
    """NumPy's large temporaries came from fresh mmap pages on every call: det_exp of 300,000
    numbers spent two thirds of its time in page faults. After prepare_worker, a loop of such
    temporaries reuses the heap."""
    code = textwrap.dedent("""
        import resource, sys
        import numpy as np
        from moetheory.engine.runner import prepare_worker
        if sys.argv[1] == "prepared":
            prepare_worker()
        x = np.ones(400_000)
        (x * 2.0).sum()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(50):
            y = x * 2.0
            z = y + 1.0
            del y, z
        print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
    """)
    faults = {mode: int(subprocess.run([sys.executable, "-c", code, mode], capture_output=True,
                                       text=True, check=True).stdout)
              for mode in ("prepared", "default")}
    pages = 50 * 2 * 400_000 * 8 // 4096
    assert faults["default"] > pages // 2  # the fault this guards against is real here
    assert faults["prepared"] < pages // 20


def _family(engine: int):  # type: ignore[no-untyped-def]
    def check(ctx: CheckContext) -> Outcome:
        from moetheory.engine._supervise import descendants

        return Outcome(Verdict.PROVED, "the check's family", {
            "children": descendants(os.getpid()),
            "parent_leads_the_session": os.getsid(0) == os.getppid(),
            "parent_is_engine": os.getppid() == engine,
        })

    return check


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_the_check_runs_under_a_supervisor_and_starts_no_process_itself(temp_claims) -> None:
    """The watchdog was a fork of the check process (16 ms of its time per check), then a
    shell the check started. The supervisor forks the check's process: the check starts
    with no child of its own, its parent leads its session and is not the engine."""
    temp_claims("test.family", _family(os.getpid()))
    (entry,) = verify(["test.family"])["claims"]
    assert entry["evidence"] == {"children": [], "parent_leads_the_session": True,
                                 "parent_is_engine": False}


def test_statistical_checks_start_first_and_the_report_keeps_catalogue_order(
        temp_claims, tmp_path) -> None:
    """The quick profile ended on pcr.rates.top1 (11 s, 198th of 209 in catalogue order)
    while the other worker idled: simulations start first; the report's order is unchanged."""
    log = tmp_path / "started"

    def logged(name: str):  # type: ignore[no-untyped-def]
        def check(ctx: CheckContext) -> Outcome:
            with log.open("a") as f:
                f.write(name + "\n")
            return Outcome(Verdict.PROVED, "ok")
        return check

    temp_claims("test.order.a", logged("a"))
    temp_claims("test.order.b", logged("b"))
    temp_claims("test.order.c", logged("c"), kind="statistical")
    report = verify(["test.order.*"], jobs=1)
    assert log.read_text().split() == ["c", "a", "b"]
    assert [e["id"] for e in report["claims"]] == ["test.order.a", "test.order.b", "test.order.c"]


def test_the_markdown_report_says_a_repeated_paragraph_or_reading_once() -> None:
    # the quick report was 497 kB against its 500 kB limit: the same derivation paragraph
    # (a reconstructed definition) in nine claims, readings tables repeating the verdict
    # line's summary and rows of readings that say the same
    from moetheory.engine.report import _anchor, build_report

    shared = "Reconstructed definition: the family is $u^{\\nu} h$ and so on. " * 8
    entries = []
    for i in range(3):
        same = {"verdict": "refuted", "summary": f"dependent at atoms {i}", "reading": "r"}
        entries.append({
            "id": f"test.ident-{i}", "statement": "s", "reading": "r", "verdict": "refuted",
            "summary": f"literal: exact dependence {i}", "evidence": {},
            "derivation": f"{shared}\n\nOwn paragraph of claim {i}.",
            "readings": [
                {"name": "literal", "verdict": "refuted", "reading": "r",
                 "summary": f"exact dependence {i}"},
                {"name": "pcos-2", **same}, {"name": "linear-2", **same},
                {"name": "pcos-1", "verdict": "proved", "summary": "independent", "reading": "r"},
            ]})
    md = render_markdown(build_report(entries, seed=0, profile="quick", family_alpha=0.05))
    body = md.split("## Claims")[1]
    assert body.count(shared.strip()) == 1  # once, then a link to where it is
    assert body.count(f"](#{_anchor('test.ident-0')})") == 2
    for i in range(3):
        section = body.split(f'<a id="{_anchor(f"test.ident-{i}")}">')[1].split("<a id=")[0]
        assert f"Own paragraph of claim {i}." in section
        # the primary reading's summary once (on the verdict line), the table names it
        assert section.count(f"exact dependence {i}") == 1
        assert "| literal |" in section or "| literal (primary) |" in section
        # two readings that say the same share a row; every reading is named
        rows = [ln for ln in section.splitlines() if ln.startswith("| ") and "---" not in ln]
        assert len(rows) == 1 + 3
        assert any("pcos-2" in r and "linear-2" in r and f"atoms {i}" in r for r in rows)
        assert any("pcos-1" in r and "independent" in r for r in rows)


def test_a_long_derivation_paragraph_is_cut_at_a_sentence_outside_its_maths() -> None:
    from moetheory.engine.report import _DERIVATION_CHARS, render_claim

    maths = "$a. B = c. D$"  # sentence-like text inside maths is never a cut
    sentences = [f"Sentence {i} says {maths} and more words here." for i in range(200)]
    paragraph = " ".join(sentences)
    entry = {"id": "x.long", "verdict": "proved", "summary": "s", "statement": "t",
             "derivation": paragraph + "\n\nSecond paragraph."}
    text = render_claim(entry, full=False)
    derivation = text.split("**Derivation.**\n\n")[1].split("\n\n_In the JSON")[0]
    assert len(derivation) <= _DERIVATION_CHARS and derivation.endswith("more words here.")
    assert paragraph.startswith(derivation) and derivation.count("$") % 2 == 0
    assert "_In the JSON report: the rest of its last paragraph shown and 1 more paragraph " \
        "of it" in text
    full = render_claim(entry)
    assert paragraph in full


@pytest.mark.parametrize("text", ["as in eq. (22) and more", "see Fig. 3 here", "e.g. More",
                                  "by A. Author here", "with $x. Y$ inside", "`a. B` code"])
def test_a_derivation_is_never_cut_inside_an_abbreviation_or_maths(text: str) -> None:
    from moetheory.engine._excerpt import sentence_ends

    assert sentence_ends(f"Start {text} goes on") == []
    assert sentence_ends("One. Two; Three: Four") == [4, 9, 16]
