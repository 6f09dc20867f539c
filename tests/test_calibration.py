"""The calibration and seed-stability scripts: their design, and a tiny smoke run."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from _bench import ROOT, load_benchmark
from hypothesis import given, settings
from hypothesis import strategies as st

from moetheory.engine.verdicts import Verdict
from moetheory.stats import MeanEstimate, at_least, at_most, claimed_values, compare, greater

calibrate = load_benchmark("calibrate")
seed_stability = load_benchmark("seed_stability")

RULES = {"equivalence": compare, "at-most": at_most, "at-least": at_least, "greater": greater}


@settings(max_examples=300, deadline=None)
@given(
    rule=st.sampled_from(sorted(RULES)),
    mu=st.floats(-5, 5),
    below=st.floats(0, 2),
    above=st.floats(0, 2),
    tol=st.floats(0, 1),
    h=st.floats(0, 1),
    claimed=st.floats(-5, 5),
)
def test_variants_are_true_and_false_at_the_truth(
    rule: str, mu: float, below: float, above: float, tol: float, h: float, claimed: float
) -> None:
    # whenever the interval covers the truth mu, the true variant is never unsupported and the
    # false variant never supported: the calibration rates measure interval misses only
    est = MeanEstimate(mu, mu - below, mu + above, 10, 0.99)
    truth = {(rule, "x"): (mu, h)}
    with claimed_values(calibrate.move_for("true", truth)):
        assert RULES[rule]("x", est, claimed, tol).verdict is not Verdict.UNSUPPORTED
    with claimed_values(calibrate.move_for("false", truth)):
        assert RULES[rule]("x", est, claimed, tol).verdict is not Verdict.SUPPORTED


def test_calibration_smoke_run() -> None:
    row = calibrate.calibrate_claim("cl.update.projection-mean.corrected", seeds=2)
    assert row.comparisons == 3 and row.seeds == 2
    assert row.true_unsupported == 0 and row.false_supported_worst == 0
    assert "limits met" in calibrate.HEADER
    via = calibrate.calibrate_claim("cl.prop4.forgetting", seeds=2)
    assert via.seeds == 0 and via.ok and "calibrated in the row" in via.notes[0]


def test_seed_stability_flags() -> None:
    def rep(verdicts: dict[str, str]) -> dict:
        return {"claims": [{"id": k, "verdict": v, "summary": f"{k} {v}"}
                           for k, v in verdicts.items()]}

    rows = {r["id"]: r for r in seed_stability.stability_rows([
        rep({"a": "supported", "b": "proved", "c": "supported"}),
        rep({"a": "unsupported", "b": "refuted", "c": "inconclusive"}),
    ])}
    assert rows["a"]["contradiction"] and not rows["a"]["exact_change"]
    assert rows["b"]["exact_change"]
    assert rows["c"]["moves"] and not rows["c"]["contradiction"] and "reason" in rows["c"]


def test_stored_row_round_trips(tmp_path: Path) -> None:
    row = calibrate.Row("cl.thm1.generalization-bound", 100, 2, true_unsupported=1,
                        true_supported=3, false_supported_worst=2, false_claim_supported=1,
                        worst_label="at-most: T=10", seconds=12.5, notes=["a note"],
                        date="2026-11-30 18:00",
                        fingerprint=calibrate.fingerprint("cl.thm1.generalization-bound"))
    calibrate.save_row(row, tmp_path)
    assert calibrate.load_rows(tmp_path) == {row.claim_id: row}


def test_render_flags_stale_rows_and_lists_unrun_claims(tmp_path: Path) -> None:
    ids = ["cl.thm1.generalization-bound", "cl.thm1.frozen-forgetting", "cl.fig2"]
    current = calibrate.Row(ids[0], 100, 1, fingerprint=calibrate.fingerprint(ids[0]),
                            date="2026-11-30 18:00", harness=calibrate.HARNESS)
    stale = calibrate.Row(ids[1], 100, 1, fingerprint="0" * 16, date="2026-11-30 18:00",
                          harness=calibrate.HARNESS)
    calibrate.save_row(current, tmp_path)
    calibrate.save_row(stale, tmp_path)
    page = calibrate.render(tmp_path, ids)
    # a current row of the older harness (one comparison per label) must be re-run too
    old = calibrate.Row(ids[0], 100, 1, fingerprint=calibrate.fingerprint(ids[0]),
                        date="2026-11-30 18:00")
    calibrate.save_row(old, tmp_path / "old")
    assert "harness version 1" in calibrate.render(tmp_path / "old", ids[:1])
    lines: dict[str, list[str]] = {}
    for ln in page.splitlines():
        if ln.startswith("| `"):
            lines.setdefault(ln.split(" | ")[0].strip("| `"), []).append(ln)
    assert lines[ids[0]] == [lines[ids[0]][0]] and lines[ids[0]][0].endswith("| current |")
    # the stale row is flagged in the table and listed again with its re-run command
    assert "stale: re-run" in lines[ids[1]][0] and len(lines[ids[1]]) == 2
    assert f"\npython benchmarks/calibrate.py --only '{ids[1]}' --seeds 100" in page
    # the claim without a row is listed, with its command in a code block (no ID to link)
    assert "not yet run" in page.lower() and len(lines[ids[2]]) == 1
    assert "\npython benchmarks/calibrate.py --only 'cl.fig2' --seeds 100" in page
    assert page.index("```bash") < page.index("--only 'cl.fig2'")


def test_the_calibration_page_describes_the_current_state(tmp_path: Path) -> None:
    # the page read like a changelog ("Until session 4 ...", "since session 10", "Version 1
    # kept ..."), gave no overall state, and repeated two generic notes on every row
    ids = ["cl.thm1.generalization-bound", "cl.thm1.frozen-forgetting", "cl.fig2"]
    for cid in ids[:2]:
        row = calibrate.Row(cid, 100, 3, fingerprint=calibrate.fingerprint(cid),
                            date="2026-11-30 18:00", harness=calibrate.HARNESS,
                            notes=["calibrated together with 1 other claim(s) of its module "
                                   "(shared simulations); seconds are the group's share"])
        calibrate.save_row(row, tmp_path)
    bad = calibrate.Row(ids[1], 100, 3, false_supported_worst=9,
                        fingerprint=calibrate.fingerprint(ids[1]), harness=calibrate.HARNESS)
    calibrate.save_row(bad, tmp_path / "bad")
    page = calibrate.render(tmp_path, ids)
    assert not re.search(r"\bsession\b|\bUntil\b|\bVersion 1\b|\bsince session", page)
    intro = page.split("## Results", 1)[0]
    assert "**2 of the 3 statistical claims** have a current row" in intro
    assert "all meet both limits" in intro and "1 still need a run" in intro
    assert "calibrated together with" not in page.split("## Results", 1)[1]
    assert page.count("no power") <= 1
    failing = calibrate.render(tmp_path / "bad", ids[1:2])
    assert "1 miss a limit: `cl.thm1.frozen-forgetting`" in failing.split("## Results")[0]


def test_every_statistical_claim_is_on_the_calibration_page() -> None:
    # every statistical claim appears in the table or in the "not yet run" list of the
    # committed page; after adding one, run `python benchmarks/calibrate.py --render
    # docs/calibration.md` (runs nothing)
    from moetheory.engine.registry import load_checks, registered

    load_checks()
    page = (ROOT / "docs" / "calibration.md").read_text(encoding="utf-8")
    listed = {ln.split(" | ")[0].strip("| `") for ln in page.splitlines()
              if ln.startswith("| `")}
    missing = sorted({c.id for c in registered() if c.kind == "statistical"} - listed)
    assert not missing, f"not on docs/calibration.md: {missing}; re-render the page"


def test_seed_stability_renders_from_saved_reports(tmp_path: Path) -> None:
    import json

    for seed, verdict in ((0, "supported"), (1, "unsupported")):
        rep = {"seed": seed, "seconds_wall": 1.0, "commit": "abc1234",
               "claims": [{"id": "a", "verdict": verdict, "summary": verdict}]}
        (tmp_path / f"seed-{seed}.json").write_text(json.dumps(rep), encoding="utf-8")
    assert sorted(seed_stability.load_reports(tmp_path)) == [0, 1]
    page = tmp_path / "page.md"
    code = seed_stability.main(["--from-dir", str(tmp_path), "--markdown", str(page)])
    text = page.read_text(encoding="utf-8")
    assert code == 1 and "2 master seeds: 0, 1 on commit(s) abc1234" in text
    assert "**contradiction**" in text


def test_unclaimed_comparisons_belong_to_reference_claims() -> None:
    # comparisons reported beside a claim (not claimed true) are excluded from its row
    from moetheory.engine.registry import get_claim, load_checks

    load_checks()
    for cid, label in calibrate.UNCLAIMED.items():
        assert get_claim(cid).kind == "statistical" and calibrate.MODES[cid] == "reference"
        assert label


def test_fingerprint_follows_the_check_and_its_helpers_only() -> None:
    # another check of the same module does not enter a row's fingerprint; the helpers and
    # library code the check calls do
    from moetheory.engine.registry import get_claim, load_checks

    load_checks()
    labels = [s.split("\n", 1)[0] for s in
              calibrate._closure_sources(get_claim("cl.lemma5.gradient-order").check)]
    assert "proofs_checks.li2025continual._simulation.grid_runs" in labels
    assert not any(lab.endswith(("check_lemma6", "check_lemma7")) for lab in labels)
    assert any(lab.endswith("simulate_many") for lab in labels)  # the simulator
    assert not any(".engine." in lab.split(".", 2)[-1] for lab in labels
                   if lab.startswith("moetheory.engine"))
    assert calibrate.fingerprint("cl.lemma5.gradient-order") != calibrate.fingerprint(
        "cl.lemma6.gate-bound")


def test_fingerprint_follows_library_code_reached_as_a_module_attribute() -> None:
    """cl.prop4.* call ``th.exact_forgetting_expr()`` after ``from moetheory.continual import
    theory as th``; the fingerprint followed global names only, so a change to that code (or
    to the helpers it calls) left their rows looking current. Two users of one module each
    bring their own attributes."""
    from moetheory.engine.registry import get_claim, load_checks

    load_checks()
    labels = [s.split("\n", 1)[0] for s in
              calibrate._closure_sources(get_claim("cl.prop4.forgetting.corrected").check)]
    for name in ("exact_forgetting_expr", "exact_generalization_expr", "_geometric",
                 "pair_gap_sum"):
        # labelled by the module that defines it (theory's private modules)
        assert any(lab.startswith("moetheory.continual.theory.") and lab.endswith(f".{name}")
                   for lab in labels), name
    assert not any(lab.startswith(("numpy.", "sympy.", "math.")) for lab in labels)


@pytest.mark.slow
def _made_check(closed_over: object) -> object:
    """A check as a declaration makes it: a closure over what it was given, claiming the
    module of the declaration's caller (as ``grid_claim`` of the continual checks does)."""

    def check(ctx: object) -> object:
        return closed_over(ctx)  # type: ignore[operator]

    check.__module__ = "proofs_checks.li2025continual.lemmas"
    return check


def test_fingerprint_follows_what_a_generated_check_closes_over() -> None:
    """A check produced by a declaration closes over its reading function (and the configs
    it was given); the fingerprint followed only global names and primitive cells, so a
    change to the reading left its row looking current."""
    from moetheory import stats
    from moetheory.continual import CLConfig

    one, other = (calibrate._closure_sources(_made_check(f))
                  for f in (stats.combine, stats.edge_note))
    assert one != other
    assert any(s.startswith("moetheory.stats._rules.combine\n") for s in one), one
    configs = [calibrate._closure_sources(_made_check(CLConfig(sigma0=s))) for s in (0.1, 0.2)]
    assert configs[0] != configs[1]


def test_fingerprint_of_a_grid_claim_follows_its_reading_and_the_scaffold() -> None:
    from moetheory.engine.registry import get_claim, load_checks

    load_checks()
    labels = [s.split("\n", 1)[0] for s in
              calibrate._closure_sources(get_claim("cl.lemma6.gate-bound").check)]
    assert "proofs_checks.li2025continual.lemmas.check_lemma6" in labels
    assert "proofs_checks.li2025continual._readings.grid_check" in labels


def test_grouped_calibration_equals_one_claim_at_a_time() -> None:
    # calibrating claims together (shared simulations) gives the rows of separate runs
    ids = ["cl.lemma6.gate-bound", "cl.lemma7.directions"]
    together = calibrate.calibrate_claims(ids, seeds=1)
    for row in together:
        alone = calibrate.calibrate_claim(row.claim_id, seeds=1)
        keep = ("comparisons", "true_unsupported", "true_supported", "false_supported_worst",
                "false_claim_supported", "worst_label", "shipped_verdicts")
        assert {k: getattr(row, k) for k in keep} == {k: getattr(alone, k) for k in keep}
        assert len(row.shipped_verdicts) == 1


def test_seed_stability_reads_the_calibration_verdicts(tmp_path: Path) -> None:
    import json

    store = tmp_path / "cal"
    store.mkdir()
    for cid, verdicts in (("a", ["supported", "inconclusive"]),
                          ("b", ["supported", "unsupported"]), ("c", [])):
        (store / f"{cid}.json").write_text(json.dumps(
            {"claim_id": cid, "shipped_verdicts": verdicts, "date": "d"}), encoding="utf-8")
    rows = {r["id"]: r for r in seed_stability.calibration_rows(store)}
    assert sorted(rows) == ["a", "b"]  # a record without per-seed verdicts is skipped
    assert rows["a"]["moves"] and not rows["a"]["contradiction"] and rows["a"]["seeds"] == 2
    assert rows["b"]["contradiction"]
    rep = {"seed": 0, "claims": [{"id": "x", "verdict": "proved", "summary": ""}]}
    (tmp_path / "seed-0.json").write_text(json.dumps(rep), encoding="utf-8")
    page = tmp_path / "page.md"
    code = seed_stability.main(["--from-dir", str(tmp_path), "--calibration", str(store),
                                "--markdown", str(page)])
    assert code == 1 and "calibration's seeds" in page.read_text(encoding="utf-8")


def test_fingerprint_ignores_decorators_docstrings_and_comments() -> None:
    a = '@claim("x", statement="old")\ndef f(ctx):\n    """Doc."""\n    return g(ctx)  # note\n'
    b = ('@claim("x", statement="new", sources=[3])\ndef f(ctx):\n    """Other doc."""\n'
         '    return g(ctx)\n')
    c = '@claim("x", statement="old")\ndef f(ctx):\n    """Doc."""\n    return g(ctx) + 1\n'
    assert calibrate._code_only(a) == calibrate._code_only(b)
    assert calibrate._code_only(a) != calibrate._code_only(c)


def test_budget_run_groups_claims_in_a_fresh_interpreter() -> None:
    # CI's `calibrate.py --budget` starts with an empty registry: grouping the budget claims by
    # module must load the checks first (it raised KeyError on the first claim ID before)
    import subprocess

    root = Path(__file__).resolve().parents[1]
    code = ("import sys; sys.path.insert(0, 'benchmarks'); import calibrate; "
            "calibrate.calibrate_claims = lambda group, seeds, jobs=1: []; "
            "sys.exit(calibrate.main(['--budget']))")
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "0 checks" in done.stdout


def test_readings_that_repeat_a_label_are_each_calibrated(temp_claims) -> None:
    # Two readings judge a comparison of the same label with different estimands (0 and 10).
    # Harness version 1 kept the last comparison per label: one comparison calibrated, the
    # first reading's never scored. Each occurrence is its own comparison now.
    from moetheory import Outcome, Reading
    from moetheory.stats import compare as judge

    def check(ctx):  # type: ignore[no-untyped-def]
        jitter = (ctx.seed % 7) * 1e-4
        comps = [judge("level", MeanEstimate(mu + jitter, mu - 0.1, mu + 0.1, 10, 0.99),
                       mu, 0.5) for mu in (0.0, 10.0)]
        readings = [Reading(f"r{i}", "test", c.verdict, c.label) for i, c in enumerate(comps)]
        return Outcome(comps[0].verdict, "two readings", {}, readings)

    temp_claims("test.calib.two-readings", check, kind="statistical")
    row = calibrate.calibrate_claim("test.calib.two-readings", seeds=3)
    assert row.comparisons == 2, row
    assert row.true_unsupported == 0 and row.false_supported_worst == 0
    assert row.harness == calibrate.HARNESS and row.true_unsupported_by == {}


@pytest.mark.slow
@pytest.mark.parametrize("ids", [["cl.lemma6.gate-bound", "cl.lemma7.directions"],
                                 ["pcr.rates.misspecified", "pcr.rates.topk"]])
def test_rejudged_variant_passes_equal_running_the_checks_again(ids: list[str]) -> None:
    # non-sequential checks: the true and false passes judge the shipped comparisons again
    # (calibrate.rejudge) instead of running the checks again; both must give the same rows
    assert not any(calibrate.is_sequential(c) for c in ids)
    fast = calibrate.calibrate_claims(ids, seeds=2)
    slow = calibrate.calibrate_claims(ids, seeds=2, rerun=True)
    keep = ("comparisons", "true_unsupported", "true_supported", "false_supported_worst",
            "false_claim_supported", "worst_label", "shipped_verdicts", "true_unsupported_by")
    for a, b in zip(fast, slow, strict=True):
        assert a.comparisons > 0
        assert {k: getattr(a, k) for k in keep} == {k: getattr(b, k) for k in keep}


def test_rejudge_moves_each_occurrence_like_a_rerun() -> None:
    est = MeanEstimate(1.0, 0.9, 1.1, 10, 0.99)
    record = [compare("x", est, 1.0, 0.2), compare("x", est, 1.0, 0.2)]
    truth = {("equivalence", "x [occurrence 2]"): (3.0, 0.1)}
    out = calibrate.rejudge(record, "true", truth)
    assert out[("equivalence", "x")][2] == "supported"  # not in truth: the shipped value
    assert out[("equivalence", "x [occurrence 2]")][2] == "unsupported"  # moved to ~3 - 0.2


@pytest.mark.slow
def test_variant_passes_reuse_the_shipped_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    # a sequential rates check is run again for the true and false passes; the cells its
    # shipped pass fitted under a seed are handed to that seed's variant task, so it fits
    # nothing again, and the row is the one fitting everything again gives
    from dataclasses import replace

    import moetheory.estimation.experiment as ex
    import proofs_checks.nguyen2025cosine._dense_rates as est

    def tiny(profile: str = "quick", replicates: int | None = None) -> ex.RatesDesign:
        return replace(ex.rates_design(profile), n_grid=(40, 80), lm_iterations=5)

    fitted: list[tuple[object, ...]] = []
    fit = ex.fit_cell
    monkeypatch.setattr(est, "rates_design", tiny)
    monkeypatch.setattr(ex, "fit_cell", lambda *a: fitted.append(a[1:5]) or fit(*a))
    cid = "pcr.rates.regression"
    assert calibrate.is_sequential(cid)
    reused = calibrate.calibrate_claims([cid], seeds=2)
    shipped_fits = len(fitted)
    assert shipped_fits > 0 and len(set(fitted)) == shipped_fits  # each cell fitted once
    fitted.clear()
    again = calibrate.calibrate_claims([cid], seeds=2, reuse_fits=False)
    assert len(fitted) == 2 * shipped_fits  # the variant passes fit every cell again
    keep = ("comparisons", "true_unsupported", "true_supported", "false_supported_worst",
            "false_claim_supported", "worst_label", "shipped_verdicts", "true_unsupported_by")
    assert {k: getattr(reused[0], k) for k in keep} == {k: getattr(again[0], k) for k in keep}


def test_a_run_without_a_calibrated_comparison_is_not_counted_as_supported() -> None:
    """A rates run whose configs all stopped at the iteration cap decides no comparison (none
    is recorded): its claim is inconclusive, so it must not count as supported (``all`` of
    nothing is true)."""
    key = ("greater", "slope")
    truth = {key: (0.1, 0.05)}
    claim = calibrate.CLAIM_KEY
    decided = {key: (0.1, 0.05, "supported"), claim: (0.0, 0.0, "supported")}
    undecided = {claim: (0.0, 0.0, "inconclusive")}
    row = calibrate.Row("x", 3, 1)
    calibrate._score(row, truth, [decided, undecided, undecided], [undecided, decided, undecided])
    assert row.true_supported == 1 and row.false_claim_supported == 1
    assert row.false_supported_worst == 1 and row.true_unsupported == 0


def test_a_claim_that_decided_nothing_on_any_seed_errs_on_nothing_and_says_so(
        tmp_path: Path) -> None:
    """The quick profile's dense rates claims stop every configuration at a cell at the
    iteration cap on every seed: no comparison is decided, none is calibratable, and the
    claim is inconclusive everywhere. Its error rates are 0 (it decides nothing), which the
    row must show as met, with the reason, not as a failed calibration; a row whose decided
    comparisons could not be calibrated (spread across seeds) still fails."""
    claim = calibrate.CLAIM_KEY
    nothing = {claim: (0.0, 0.0, "inconclusive")}
    row = calibrate.Row("pcr.rates.regression", 0, 0)
    truth = calibrate._truth(row, [nothing] * 4, 4)
    calibrate._score(row, truth, [nothing] * 4, [nothing] * 4)
    assert row.decided_runs == 0 and row.comparisons == 0 and row.ok
    calibrate.save_row(row, tmp_path)
    page = calibrate.render(tmp_path, ["pcr.rates.regression"])
    assert "no comparison was decided on any of the 4 seeds" in page
    spread = calibrate.Row("x", 4, 0, decided_runs=4)
    assert not spread.ok


def test_a_row_follows_behaviour_not_code(tmp_path: Path) -> None:
    # a change of code that keeps what the check does (same report entry and comparisons on
    # the recorded seeds) keeps the row current; a change of behaviour leaves it stale
    cid = "cl.update.projection-mean.corrected"
    current = calibrate.fingerprint(cid)
    calibrate.save_row(calibrate.Row(cid, 100, 3, fingerprint=current,
                                     harness=calibrate.HARNESS), tmp_path)
    assert calibrate.restamp([cid], tmp_path) == {cid: "recorded"}
    recorded = calibrate.load_rows(tmp_path)[cid]
    assert sorted(recorded.behaviour) == [str(s) for s in calibrate.BEHAVIOUR_SEEDS]
    assert sorted(recorded.entries) == sorted(recorded.behaviour)
    assert calibrate.restamp([cid], tmp_path) == {cid: "current"}  # nothing re-run

    recorded.fingerprint = "0" * 16  # as if the code had moved since the run
    calibrate.save_row(recorded, tmp_path)
    assert "stale: re-run" in calibrate.render(tmp_path, [cid])
    assert calibrate.restamp([cid], tmp_path) == {cid: "restamped"}
    row = calibrate.load_rows(tmp_path)[cid]
    assert row.restamps[-1]["report prose"] == "identical"
    assert row.fingerprint == current and row.behaviour == recorded.behaviour
    assert row.restamps[-1]["from"] == "0" * 16 and row.restamps[-1]["to"] == current
    assert "| current |" in calibrate.render(tmp_path, [cid])

    row.fingerprint, row.behaviour["1"] = "0" * 16, "f" * 16  # the check did something else
    calibrate.save_row(row, tmp_path)
    assert calibrate.restamp([cid], tmp_path) == {
        cid: "stale: behaviour differs on seed(s) 1"}
    assert calibrate.load_rows(tmp_path)[cid].fingerprint == "0" * 16
    # without recorded behaviour a row whose code changed cannot be kept
    row.behaviour = {}
    calibrate.save_row(row, tmp_path)
    assert calibrate.restamp([cid], tmp_path)[cid].startswith("stale: no behaviour")


def test_behaviour_hash_sees_every_number_of_the_entry_and_comparisons() -> None:
    est = MeanEstimate(1.0, 0.5, 1.5, 10, 0.99)
    comparison = compare("x", est, 1.0, 0.6)
    payload = {"verdict": "supported", "summary": "s", "evidence": {"v": 0.1, "n": [3, 4]}}
    base = calibrate.behaviour_hash(payload, [comparison])
    assert base == calibrate.behaviour_hash(dict(payload), [comparison])
    for changed in ({**payload, "evidence": {"v": 0.1 + 2**-55, "n": [3, 4]}},
                    {**payload, "evidence": {"v": 0.1, "n": [3, 5]}},
                    {**payload, "evidence": {"w": 0.1, "n": [3, 4]}},
                    {**payload, "verdict": "unsupported"}):
        assert base != calibrate.behaviour_hash(changed, [comparison])
    moved = compare("x", MeanEstimate(1.0, 0.5, 1.5 + 2**-52, 10, 0.99), 1.0, 0.6)
    assert base != calibrate.behaviour_hash(payload, [moved])
    assert base != calibrate.behaviour_hash(payload, [])
    # prose (a summary, a module path named in a reading) is not behaviour, but the entry's
    # own hash sees it
    prose = {**payload, "summary": "see moetheory.jacobs.training"}
    assert calibrate.behaviour_hash(prose, [comparison]) == base
    assert calibrate.entry_hash(prose) != calibrate.entry_hash(payload)


def test_a_fingerprint_does_not_read_a_cache() -> None:
    """A fingerprint reads the module constants a check uses; a run-time cache among them
    (the rates cells of :mod:`moetheory.estimation.experiment`) made it depend on what the
    process had run before, so the stored-rows test had to compute fingerprints in a fresh
    interpreter. A mutable container is fingerprinted by the source of its assignment."""
    from moetheory.estimation import experiment

    before = calibrate.fingerprint("pcr.rates.regression")
    key = ("not", "a", "cell")
    experiment._CELLS[key] = [{"n": 1}]
    try:
        assert calibrate.fingerprint("pcr.rates.regression") == before
    finally:
        experiment._CELLS.pop(key, None)


def test_every_stored_row_is_current() -> None:
    # a stored row describes the shipped check: after a change of a check's code, either the
    # behaviour is unchanged (`python benchmarks/calibrate.py --restamp --jobs 2` keeps the
    # row, in minutes) or the row is re-run; a row without recorded behaviour can be kept
    # across no refactor, so every row records it
    from moetheory.engine.registry import load_checks, registered

    load_checks()
    rows = calibrate.load_rows()
    prints = {c.id: calibrate.fingerprint(c.id) for c in registered() if c.id in rows}
    stale = sorted(cid for cid, row in rows.items()
                   if cid not in prints or row.fingerprint != prints[cid])
    assert stale == [], f"stale rows (run calibrate.py --restamp, then --render): {stale}"
    unrecorded = sorted(cid for cid, row in rows.items()
                        if sorted(row.behaviour) != [str(s) for s in calibrate.BEHAVIOUR_SEEDS])
    assert unrecorded == []


def test_render_checks_its_path_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a missing folder was a FileNotFoundError traceback
    target = tmp_path / "no" / "page.md"
    with pytest.raises(SystemExit) as info:
        calibrate.main(["--render", str(target)])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert f"error: --render {target}: the parent directory" in err.strip().splitlines()[-1]
    assert not target.parent.exists()


@pytest.mark.parametrize("option, path, problem", [
    ("--markdown", "no/page.md", "the parent directory"),
    ("--save-dir", "page.md", "is not a directory"),
])
def test_seed_stability_checks_its_paths_before_the_runs(
    option: str, path: str, problem: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # a bad --markdown failed after every seed had run (about 23 minutes)
    (tmp_path / "page.md").write_text("x\n")
    runs: list[object] = []
    monkeypatch.setattr(seed_stability, "verify", lambda **kw: runs.append(kw))
    with pytest.raises(SystemExit) as info:
        seed_stability.main(["--seeds", "1", option, str(tmp_path / path)])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert info.value.code == 2 and runs == []
    assert f"error: {option} {tmp_path / path}: {problem}" in err
