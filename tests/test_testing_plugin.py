"""A user's claims in a user's code: ``@claim`` with a statement only, ``verify --checks``,
``verify -v``, ``moetheory.testing.assert_verdict`` and the pytest plugin (run with pytester).

The plugin is loaded with ``-p moetheory.testing._plugin``, which works whether or not the
package's ``pytest11`` entry point is installed (it bears the module's name).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import sympy as sp
import tomllib

from moetheory import CheckContext, Outcome, Verdict, claim, get_claim, registered, verify
from moetheory.engine.cli import build_parser, main
from moetheory.engine.context import claim_seed
from moetheory.engine.registry import load_checks
from moetheory.engine.usercode import load_user_checks
from moetheory.stats import check_expectation
from moetheory.testing import (
    TemporaryClaims,
    VerdictError,
    assert_verdict,
    check_context,
    run_claim,
)

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ("-p", "moetheory.testing._plugin")
_NAMES = itertools.count()

CLAIMS = '''
import pytest
from moetheory import Outcome, Verdict, claim

@claim("mine.proved", statement="1 + 1 = 2")
def proved(ctx):
    return Outcome(Verdict.PROVED, "arithmetic")

@claim("mine.refuted", statement="x**2 >= x for every real x")
def refuted(ctx):
    return Outcome(Verdict.REFUTED, "x = 1/2 gives x**2 = 1/4 < x",
                   {"counterexample": {"x": "1/2"}})

@claim("mine.supported", statement="E[X] = 0", kind="statistical")
def supported(ctx):
    return Outcome(Verdict.SUPPORTED, "interval inside the band")

@claim("mine.unsupported", statement="E[X] = 1", kind="statistical")
def unsupported(ctx):
    return Outcome(Verdict.UNSUPPORTED, "interval [0.1, 0.2] outside [0.9, 1.1]")

@claim("mine.inconclusive", statement="E[X] = 2", kind="statistical")
def inconclusive(ctx):
    return Outcome(Verdict.INCONCLUSIVE, "budget spent", {"reason": "wide interval"})

@claim("mine.raises", statement="never decided")
def raises(ctx):
    raise RuntimeError("boom in the check")

def test_plain():
    assert True
'''


def _ids() -> set[str]:
    return {c.id for c in registered()}


# --------------------------------------------------------------------- @claim, user side


def test_a_users_claim_needs_only_its_statement() -> None:
    def check(ctx: CheckContext) -> Outcome:
        return Outcome(Verdict.PROVED, "ok")

    with TemporaryClaims():
        claim("mine.only-statement", statement="1 + 1 = 2")(check)
        c = get_claim("mine.only-statement")
        assert c.reading == "1 + 1 = 2"  # the statement, as read
        assert c.seed_files == (Path(__file__).name,)
        assert c.section == __name__ and c.family == __name__.split(".")[0]
    assert "mine.only-statement" not in _ids()


def test_the_packages_own_claims_keep_requiring_reading_seed_files_and_section() -> None:
    def check(ctx: CheckContext) -> Outcome:
        return Outcome(Verdict.PROVED, "ok")

    check.__module__ = "proofs_checks.somewhere"
    with pytest.raises(ValueError, match="reading must state"):
        claim("pcr.brand-new", statement="s")(check)
    with pytest.raises(ValueError, match=r"needs seed_files=\.\.\. and section="):
        claim("pcr.brand-new", statement="s", reading="r")(check)
    assert "pcr.brand-new" not in _ids()


# ------------------------------------------------------------------------ assert_verdict


def test_assert_verdict_passes_on_proved_and_fails_with_summary_and_counterexample() -> None:
    assert assert_verdict(Outcome(Verdict.PROVED, "ok"))[0]["verdict"] == "proved"
    bad = Outcome(Verdict.REFUTED, "x = 1/2 gives 1/4 < 1/2", {"counterexample": {"x": "1/2"}})
    with pytest.raises(VerdictError) as info:
        assert_verdict(bad)
    text = str(info.value)
    assert text.splitlines()[0] == "outcome: expected proved or supported, got refuted"
    assert "summary: x = 1/2 gives 1/4 < 1/2" in text
    assert 'counterexample: {"x": "1/2"}' in text
    assert isinstance(info.value, AssertionError)
    assert_verdict(bad, expected="refuted")
    assert_verdict(bad, expected=[Verdict.REFUTED, "unsupported"])


def test_assert_verdict_takes_results_claims_ids_and_reports() -> None:
    top = lambda rng, n: rng.standard_normal((n, 2)).max(axis=1)  # noqa: E731
    assert_verdict(check_expectation(top, 1 / sp.sqrt(sp.pi), tol=0.02))
    with pytest.raises(VerdictError, match="ExpectationResult: expected proved or supported, "
                       "got unsupported"):
        assert_verdict(check_expectation(top, sp.sqrt(2 / sp.pi), tol=0.02))
    with TemporaryClaims() as add:
        add("mine.ok", lambda ctx: Outcome(Verdict.PROVED, "ok"))
        add("mine.bad", lambda ctx: Outcome(Verdict.REFUTED, "x = 2 fails", {"x": 2}))
        assert_verdict("mine.ok")
        assert_verdict(get_claim("mine.ok"))
        report = verify("mine.*")
        with pytest.raises(VerdictError) as info:
            assert_verdict(report)  # the raising form of verify
        assert "claim mine.bad: expected proved or supported, got refuted" in str(info.value)
        assert "mine.ok" not in str(info.value)
        assert_verdict(report["claims"][0], expected="refuted")


def test_run_claim_gives_the_context_verify_gives() -> None:
    seen: list[CheckContext] = []

    def check(ctx: CheckContext) -> Outcome:
        seen.append(ctx)
        return Outcome(Verdict.PROVED, "ok")

    with TemporaryClaims() as add:
        add("mine.ctx", check, kind="statistical")
        run_claim("mine.ctx", profile="full", seed=4)
        entry = verify("mine.ctx", profile="full", seed=4)["claims"][0]
    ctx = seen[0]
    assert (ctx.profile, ctx.seed, ctx.master_seed) == ("full", claim_seed(4, "mine.ctx"), 4)
    assert entry["claim_seed"] == ctx.seed and entry["alpha"] == ctx.alpha


@pytest.mark.parametrize(("args", "kwargs", "error", "match"), [
    ((Outcome(Verdict.PROVED, "ok"),), {"expected": "fine"}, ValueError, "expected must be"),
    ((Outcome(Verdict.PROVED, "ok"),), {"expected": []}, ValueError, "at least one verdict"),
    ((Outcome(Verdict.PROVED, "ok"),), {"profile": "slow"}, ValueError, "profile must be"),
    ((Outcome(Verdict.PROVED, "ok"),), {"seed": -1}, ValueError, "seed must be"),
    ((42,), {}, TypeError, "assert_verdict takes an Outcome"),
])
def test_assert_verdict_bad_input(args, kwargs, error, match) -> None:
    with pytest.raises(error, match=match):
        assert_verdict(*args, **kwargs)


def test_check_context_for_a_test() -> None:
    ctx = check_context("tests/test_x.py::test_y", profile="full", seed=2)
    assert (ctx.profile, ctx.seed) == ("full", claim_seed(2, "tests/test_x.py::test_y"))


# ------------------------------------------------------------------ verify --checks, -v


@pytest.fixture
def user_file(tmp_path: Path) -> Iterator[Path]:
    """A file of claims with a module name of its own; its module and claims go after."""
    name = f"h_plugin_claims_{next(_NAMES)}"
    path = tmp_path / f"{name}.py"
    path.write_text(CLAIMS, encoding="utf-8")
    saved = list(sys.path)
    with TemporaryClaims():
        yield path
        sys.modules.pop(name, None)
        sys.path[:] = saved


def test_verify_checks_a_plain_file_and_only_its_claims(user_file, capsys) -> None:
    code = main(["verify", "--checks", str(user_file), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 1  # one check ended in error
    assert out.splitlines()[0] == (
        "6 claims checked: proved 1, refuted 1, supported 1, unsupported 1, inconclusive 1, "
        "error 1"
    )
    assert get_claim("mine.proved").family == user_file.stem
    assert load_user_checks(user_file) == sorted(
        ["mine.proved", "mine.refuted", "mine.supported", "mine.unsupported",
         "mine.inconclusive", "mine.raises"])  # loading again: the same claims


def test_verify_v_prints_one_line_per_claim_as_it_completes(user_file, capsys) -> None:
    main(["verify", "--checks", str(user_file), "-v", "--only", "mine.*ed"])
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    counts = next(i for i, line in enumerate(lines) if "claims checked" in line)
    lines = lines[: counts + 1]  # the digest of the run follows
    assert lines[-1].startswith("4 claims checked")
    rows = [line.split() for line in lines[:-1]]
    assert sorted(r[0] for r in rows) == ["mine.proved", "mine.refuted", "mine.supported",
                                          "mine.unsupported"]
    assert all(r[1] == r[0].split(".")[1] and r[3] == "s" and float(r[2]) >= 0 for r in rows)
    assert len({line.index(line.split()[1]) for line in lines[:-1]}) == 1  # aligned
    assert "claim/s" not in captured.err  # the lines take the progress bar's place


def test_verify_on_result_sees_each_entry() -> None:
    got: list[str] = []
    with TemporaryClaims() as add:
        add("mine.a", lambda ctx: Outcome(Verdict.PROVED, "ok"))
        add("mine.b", lambda ctx: Outcome(Verdict.PROVED, "ok"))
        verify("mine.*", on_result=lambda e: got.append(e["id"]))
        with pytest.raises(ValueError, match="on_result must be a callable"):
            verify("mine.*", on_result=3)  # type: ignore[arg-type]
    assert sorted(got) == ["mine.a", "mine.b"]


def test_list_and_show_load_checks_too(user_file, capsys) -> None:
    assert main(["list", "--checks", str(user_file), "mine.*"]) == 0
    out = capsys.readouterr().out
    assert "mine.refuted" in out and "mine.proved" in out
    assert main(["show", "mine.refuted", "--checks", str(user_file), "--format", "json"]) == 0
    entry = json.loads(capsys.readouterr().out)
    assert entry["verdict"] == "refuted" and entry["evidence"]["counterexample"] == {"x": "1/2"}


def test_checks_takes_a_module_name(tmp_path, monkeypatch, capsys) -> None:
    name = f"h_plugin_module_{next(_NAMES)}"
    (tmp_path / f"{name}.py").write_text(CLAIMS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    package = tmp_path / f"h_plugin_package_{next(_NAMES)}"
    package.mkdir()
    (package / "__init__.py").write_text("from . import claims\n", encoding="utf-8")
    (package / "claims.py").write_text(CLAIMS.replace("mine.", "pkg."), encoding="utf-8")
    with TemporaryClaims():
        assert main(["verify", "--checks", name, "--only", "mine.proved"]) == 0
        assert capsys.readouterr().out.startswith("1 claims checked: proved 1")
        assert main(["verify", "--checks", package.name, "--only", "pkg.proved"]) == 0
        assert capsys.readouterr().out.startswith("1 claims checked: proved 1")
        assert len(load_user_checks(package.name)) == 6  # claims of its submodules
        for module in (name, package.name, package.name + ".claims"):
            sys.modules.pop(module, None)


@pytest.mark.parametrize(("body", "spec", "message"), [
    (None, "missing.py", "--checks {path}: no such file"),
    (None, "no_such_module_xyz", "--checks no_such_module_xyz: no such file or module"),
    ("x = (\n", "bad.py", "--checks {path}: SyntaxError: '(' was never closed (line 1)"),
    ("raise RuntimeError('broken\\nfile')\n", "bad.py",
     "--checks {path}: RuntimeError: broken file"),
    ("import sys\nsys.exit(3)\n", "bad.py", "--checks {path}: exits on import"),
    ("x = 1\n", "bad.py", "--checks {path}: registers no claim"),
    ("", "json.py", "--checks {path}: a module named 'json' is already imported"),
    ("", "notes.txt", "--checks {path}: is not a Python file"),
])
def test_a_bad_checks_file_is_one_line_and_exit_2(body, spec, message, tmp_path, capsys,
                                                  monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the loader puts the file's folder first
    load_checks()
    if body is not None:
        (tmp_path / spec).write_text(body, encoding="utf-8")
    before = _ids()
    assert main(["verify", "--checks", spec]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("moetheory: error: " + message.format(path=spec))
    assert _ids() == before


def test_a_file_failing_half_way_leaves_no_claim(tmp_path, capsys, monkeypatch) -> None:
    path = tmp_path / f"h_plugin_half_{next(_NAMES)}.py"
    path.write_text(CLAIMS + "\nraise ValueError('late')\n", encoding="utf-8")
    monkeypatch.setattr(sys, "path", list(sys.path))
    load_checks()
    before = _ids()
    assert main(["list", "--checks", str(path)]) == 2
    assert "ValueError: late" in capsys.readouterr().err
    assert _ids() == before


def test_verify_and_reproduce_default_to_the_quick_profile() -> None:
    parser = build_parser()
    assert parser.parse_args(["verify"]).profile == "quick"
    assert parser.parse_args(["reproduce", "rates"]).profile == "quick"
    assert parser.parse_args(["show", "x"]).profile == "quick"
    assert parser.parse_args(["verify", "-v"]).verbose is True


# ---------------------------------------------------------------------- the pytest plugin


def test_every_claim_of_a_test_file_is_an_item(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_mine=CLAIMS)
    result = pytester.runpytest(*PLUGIN, "-v", "-rs")
    result.assert_outcomes(passed=3, failed=3, skipped=1)
    result.stdout.fnmatch_lines([
        "*test_mine.py::mine.proved PASSED*",
        "*test_mine.py::mine.refuted FAILED*",
        "*test_mine.py::mine.inconclusive SKIPPED*",
        "*test_mine.py::test_plain PASSED*",
        "SKIPPED [[]1[]] test_mine.py:21: claim mine.inconclusive inconclusive: budget spent "
        "(wide interval)",
    ])
    out = result.stdout.str()
    assert "claim mine.refuted: expected proved or supported, got refuted" in out
    assert "summary: x = 1/2 gives x**2 = 1/4 < x" in out
    assert 'counterexample: {"x": "1/2"}' in out
    assert "claim mine.unsupported: expected proved or supported, got unsupported" in out
    assert "RuntimeError: boom in the check" in out
    assert "moetheory/testing" not in out  # the check's frames, not the plugin's
    assert not {"mine.proved", "mine.raises"} & _ids()  # nothing leaks out of the run


@pytest.mark.parametrize(("option", "outcomes"), [
    ("skip", {"skipped": 1}),
    ("fail", {"failed": 1}),
    ("xfail", {"xfailed": 1}),
    ("pass", {"passed": 1}),
])
def test_inconclusive_does_what_the_user_configures(pytester, option, outcomes) -> None:
    pytester.makepyfile(test_mine=CLAIMS)
    result = pytester.runpytest(*PLUGIN, "-k", "inconclusive",
                                f"--moetheory-inconclusive={option}")
    result.assert_outcomes(**outcomes)
    pytester.makeini(f"[pytest]\nmoetheory_inconclusive = {option}\n")
    pytester.runpytest(*PLUGIN, "-k", "inconclusive").assert_outcomes(**outcomes)


def test_profile_and_seed_options_reach_the_checks_and_the_fixture(pytester) -> None:
    pytester.makepyfile(test_settings='''
        from moetheory import Outcome, Verdict, claim
        from moetheory.engine.context import claim_seed

        @claim("mine.settings", statement="the run's settings reach the check")
        def settings(ctx):
            ok = ctx.profile == "full" and ctx.seed == claim_seed(7, "mine.settings")
            return Outcome(Verdict.PROVED if ok else Verdict.REFUTED, f"{ctx.profile}")

        def test_ctx(moetheory_ctx, request):
            assert moetheory_ctx.profile == "full"
            assert moetheory_ctx.seed == claim_seed(7, request.node.nodeid)
    ''')
    pytester.runpytest(*PLUGIN, "--moetheory-profile", "full", "--moetheory-seed", "7"
                       ).assert_outcomes(passed=2)
    pytester.runpytest(*PLUGIN).assert_outcomes(failed=2)


def test_a_bad_option_is_a_usage_error(pytester) -> None:
    pytester.makepyfile(test_mine=CLAIMS)
    result = pytester.runpytest(*PLUGIN, "--moetheory-seed", "-1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--moetheory-seed must be an integer >= 0, got '-1'*"])
    bad = pytester.runpytest(*PLUGIN, "--moetheory-profile", "slow")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR


def test_imported_and_catalogue_claims_are_not_items(pytester) -> None:
    pytester.makepyfile(
        mine_helpers='''
            from moetheory import Outcome, Verdict, claim

            @claim("mine.helper", statement="defined in a helper module")
            def helper(ctx):
                return Outcome(Verdict.REFUTED, "would fail if collected here")
        ''',
        test_imports='''
            from mine_helpers import helper
            from proofs_checks.jacobs1991adaptive.efficiency import check_dense_updates

            def test_plain():
                assert callable(helper) and callable(check_dense_updates)
        ''',
    )
    result = pytester.runpytest(*PLUGIN, "--collect-only", "-q")
    result.stdout.fnmatch_lines(["test_imports.py::test_plain", "1 test collected*"])


@pytest.mark.slow
def test_the_packages_own_tests_collect_the_same_with_the_plugin() -> None:
    # test modules that import the catalogue's checks: no claim item, nothing run twice
    files = [str(ROOT / "tests" / name) for name in ("test_jacobs1991.py", "test_pde.py")]
    ran = [subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", *extra, *files],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
           for extra in ((), PLUGIN)]
    without, with_plugin = (r.stdout.splitlines()[:-1] for r in ran)  # not the timing
    assert ran[1].returncode == 0, ran[1].stdout + ran[1].stderr
    assert with_plugin == without
    assert not [line for line in with_plugin if "::" in line and "::test" not in line]


def test_the_moetheory_claims_fixture_removes_a_tests_claims(pytester) -> None:
    pytester.makepyfile(test_fixture='''
        from moetheory import Outcome, Verdict, claim, registered
        from moetheory.testing import assert_verdict

        def ids():
            return {c.id for c in registered()}

        def test_registers(moetheory_claims):
            moetheory_claims("mine.temp", lambda ctx: Outcome(Verdict.PROVED, "ok"))

            @moetheory_claims("mine.decorated")
            def decorated(ctx):
                return Outcome(Verdict.PROVED, "ok")

            @claim("mine.inline", statement="registered by the test itself")
            def inline(ctx):
                return Outcome(Verdict.PROVED, "ok")

            assert {"mine.temp", "mine.decorated", "mine.inline"} <= ids()
            assert_verdict("mine.temp")

        def test_gone():
            assert not {"mine.temp", "mine.decorated", "mine.inline"} & ids()
    ''')
    pytester.runpytest(*PLUGIN, "-p", "no:randomly").assert_outcomes(passed=2)


def test_markers_k_and_files_named_on_the_command_line(pytester) -> None:
    pytester.makepyfile(claims_mine=CLAIMS.replace(
        '@claim("mine.refuted"', '@pytest.mark.xfail(strict=True)\n@claim("mine.refuted"'))
    # not a test_*.py file: collected because it is named
    result = pytester.runpytest(*PLUGIN, "claims_mine.py", "-k", "refuted or proved")
    result.assert_outcomes(passed=1, xfailed=1, deselected=5)
    assert pytester.runpytest(*PLUGIN).ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_without_the_plugin_claims_are_not_items(pytester) -> None:
    pytester.makepyfile(test_mine=CLAIMS)
    pytester.runpytest("-p", "no:moetheory.testing._plugin").assert_outcomes(passed=1)
    pytester.makeconftest('pytest_plugins = ["moetheory.testing._plugin"]')
    pytester.runpytest().assert_outcomes(passed=3, failed=3, skipped=1)


def test_a_statistical_claim_of_a_users_closed_form_under_pytest(pytester) -> None:
    """The README's example of a user's closed form (``examples/own_claim.py``) as a test file."""
    example = (ROOT / "examples" / "own_claim.py").read_text(encoding="utf-8")
    pytester.makepyfile(test_stat=example)
    result = pytester.runpytest(*PLUGIN, "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*claim mine.top-score-slip: expected proved or supported, got "
                                 "unsupported*", "*summary: E?X? = 0.5* farther than 0.02 of "
                                 "sqrt(2)/sqrt(pi)*"])


def test_the_entry_point_bears_the_plugins_module_name() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    entry = meta["project"]["entry-points"]["pytest11"]
    assert entry == {"moetheory.testing._plugin": "moetheory.testing._plugin"}



def test_the_catalogues_own_modules_are_collected_for_their_doctests_without_error() -> None:
    """``pytest``'s configuration collects ``proofs_checks`` and ``moetheory`` for their
    doctests; the checks those modules register are the catalogue's own, never a test file
    replacing a catalogued check (the whole suite once stopped at collection on that)."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "proofs_checks/jacobs1991adaptive/error_functions.py",
         "proofs_checks/nguyen2025cosine/routers_pde.py"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert "registers a check of its own" not in proc.stdout, proc.stdout[-2000:]
    assert proc.returncode in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED), (
        proc.stdout[-2000:])
