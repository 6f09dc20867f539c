"""Issue 32: the σ0-grid checks' pre-planned second look, in the full profile only.

Each test of the full profile fails on the main branch before this change: there
:func:`~proofs_checks.li2025continual._readings.grid_check` runs one pilot-sized look in every
profile (no ``looks`` in its evidence, each comparison at the claim's level over its
comparisons). The scaffold is exercised on small fakes (no simulation): the runs are
monkeypatched to labelled stand-ins, and the check's reading decides or not by the runs' seed.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from moetheory import CheckContext, Verdict, stats
from moetheory.stats import MeanEstimate, compare
from proofs_checks.li2025continual import _budgets, _readings, _simulation

CLAIM = "cl.x.grid"
BASE = 100  # the fake first look's simulator seed
PILOT = BASE + _simulation.PILOT


def _stand_in(R: int | None, seed: int) -> SimpleNamespace:
    """A grid point's runs: their replicates and seed, and a configuration."""
    return SimpleNamespace(R=R, seed=seed, config=None)


def _fake(monkeypatch: pytest.MonkeyPatch, first_half: float) -> list[dict[str, Any]]:
    """Runs stand-ins on seeds BASE (+500 pilot, + SECOND_LOOK second look); the first look's
    interval has half-width ``first_half`` against a tolerance of 0.1, the pilot's and the
    second look's decide. Returns the log of the runs asked for."""
    calls: list[dict[str, Any]] = []

    def runs(ctx: CheckContext, reading: str, name: str, R: int | None = None,
             offset: int = 0) -> tuple[dict[float, Any], int]:
        seed = BASE + offset
        calls.append({"reading": reading, "R": R, "seed": seed})
        return {0.05: _stand_in(R, seed)}, seed

    def flag_runs(ctx: CheckContext, reading: str, name: str, R: int,
                  offset: int = 0) -> dict[str, Any]:
        seed = BASE + offset
        calls.append({"reading": "flags", "R": R, "seed": seed})
        return {"others only": {0.05: _stand_in(R, seed)}}

    monkeypatch.setattr(_readings, "reading_runs", runs)
    monkeypatch.setattr(_readings, "flag_runs", flag_runs)
    monkeypatch.setattr(_readings, "flags_of", lambda cfg: "paper flags")
    monkeypatch.setattr(_readings, "reading_text", lambda reading, configs: reading)
    return calls


def _one(first_half: float) -> Any:
    def one(reading: str, grid: dict[float, Any], seed: int, alpha: float) -> Any:
        R, run_seed = grid[0.05].R, grid[0.05].seed
        assert run_seed == seed
        half = first_half if seed == BASE else 0.01
        est = MeanEstimate(0.0, -half, half, R, 1 - alpha)
        comps = [compare("share vs 1", est, 0.0, 0.1)]
        return (reading, comps, {"simulator_seed": seed}, "")
    return one


def _full() -> CheckContext:
    ctx = CheckContext(CLAIM, seed=0, profile="full")
    assert ctx.full
    return ctx


def test_full_profile_open_first_look_takes_a_fresh_second_look(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake(monkeypatch, 0.12)
    ctx = _full()
    out = _readings.grid_check(ctx, 3, "free", _one(0.12))
    floor, budget = _budgets.BUDGETS["grid"]["full"][1:3]
    assert [r.name for r in out.readings] == list(_readings.READINGS)
    for reading in out.readings:
        ev = reading.evidence
        looks = ev["looks"]
        asked = looks["first"]["asks_for"]
        assert looks["first"] == {"replicates": floor, "simulator_seed": BASE,
                                  "verdict": "inconclusive", "asks_for": asked}
        assert isinstance(asked, int) and floor < asked <= budget
        assert ev["simulator_seed"] == BASE + stats.SECOND_LOOK
        assert ev["replicates"] == asked
        assert ev["power"]["replicates"] == floor  # the plan is the first look's
        assert looks["final_verdict"] == "supported" and reading.verdict is Verdict.SUPPORTED
        for comp in ev["comparisons"]:  # one comparison per reading x two looks
            assert comp["alpha"] == pytest.approx(ctx.alpha / 3 / stats.LOOKS, rel=1e-12)
        assert "First look" in reading.derivation and "fresh run" in reading.derivation
    for name in _readings.READINGS:  # pilot, first look, second look: in that order
        assert [(c["R"], c["seed"]) for c in calls if c["reading"] == name] == [
            (_budgets.BUDGETS["grid"]["full"][0], PILOT), (floor, BASE),
            (out.readings[0].evidence["replicates"], BASE + stats.SECOND_LOOK)]


def test_full_profile_flag_readings_read_the_final_look(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake(monkeypatch, 0.12)
    out = _readings.grid_check(_full(), 3, "term", _one(0.12), flags=True)
    paper = out.readings[0].evidence
    flag = [r for r in out.readings if r.evidence.get("flags") == "others only"]
    assert len(flag) == 1
    assert flag[0].evidence["simulator_seed"] == paper["simulator_seed"]
    assert paper["simulator_seed"] == BASE + stats.SECOND_LOOK
    assert [c for c in calls if c["reading"] == "flags"] == [
        {"reading": "flags", "R": paper["replicates"], "seed": BASE + stats.SECOND_LOOK}]
    looks = flag[0].evidence["looks"]  # the looks are the primary reading's, on paired runs
    assert looks["looks_of"] == "paper" and looks["first"] == paper["looks"]["first"]
    assert flag[0].evidence["replicates"] == paper["replicates"]


def test_full_profile_decided_first_look_is_final(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake(monkeypatch, 0.01)
    out = _readings.grid_check(_full(), 3, "free", _one(0.01))
    for reading in out.readings:
        ev = reading.evidence
        assert ev["simulator_seed"] == BASE and "not needed" in ev["looks"]["second"]
    assert all(c["seed"] != BASE + stats.SECOND_LOOK for c in calls)


def test_full_profile_first_look_asking_beyond_the_budget_is_final(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake(monkeypatch, 2.0)
    out = _readings.grid_check(_full(), 3, "free", _one(2.0))
    budget = _budgets.BUDGETS["grid"]["full"][2]
    for reading in out.readings:
        ev = reading.evidence
        assert reading.verdict is Verdict.INCONCLUSIVE
        assert ev["looks"]["first"]["asks_for"] > budget
        assert ev["simulator_seed"] == BASE and "not run" in ev["looks"]["second"]
        assert ev["looks"]["final_look_asks_for"] == ev["looks"]["first"]["asks_for"]
    assert all(c["seed"] != BASE + stats.SECOND_LOOK for c in calls)
    # issue 46: the open verdict says where the truth sits (not "unchecked")
    assert out.verdict is Verdict.INCONCLUSIVE
    edge = out.summary.split(" — open on the band's edge in 'paper': ")[1]
    assert edge.startswith("share vs 1: estimate 0, interval [-2, 2] straddles the edge -0.1")


def test_edge_note_names_only_open_comparisons() -> None:
    from moetheory.stats import edge_note

    open_ = compare("a", MeanEstimate(0.19, 0.15, 0.23, 100, 0.99), 0.0, 0.2)
    decided = compare("b", MeanEstimate(0.0, -0.05, 0.05, 100, 0.99), 0.0, 0.2)
    assert open_.verdict is Verdict.INCONCLUSIVE and decided.verdict is Verdict.SUPPORTED
    assert edge_note([decided]) == ""
    note = edge_note([open_, decided])
    assert note.startswith("a: estimate 0.19, interval [0.15, 0.23] straddles the edge 0.2")
    assert "replicates would decide it" in note and "b:" not in note


def test_quick_profile_keeps_one_look_at_the_full_level(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake(monkeypatch, 0.12)
    ctx = CheckContext(CLAIM, seed=0)
    out = _readings.grid_check(ctx, 3, "free", _one(0.12))
    for reading in out.readings:
        ev = reading.evidence
        assert "looks" not in ev and "replicates" not in ev
        assert ev["simulator_seed"] == BASE
        for comp in ev["comparisons"]:
            assert comp["alpha"] == pytest.approx(ctx.alpha / 3, rel=1e-12)
    assert all(c["seed"] != BASE + stats.SECOND_LOOK for c in calls)
